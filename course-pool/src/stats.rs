//! The robust statistics of a set of timings, defined once: the native bench (`native-bench`'s
//! `stats.rs`, which adds the median's interval) and the reader-timing widget (the Method
//! chapter's scenario, in the reader's browser) both summarize with [`summarize`], so the widget's
//! "noise" is the bench's.

/// The median of samples already sorted in ascending order (`xs` must not be empty).
pub fn median_of_sorted(xs: &[f64]) -> f64 {
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    }
}

/// Robust coefficient of variation: 1.4826 × the median absolute deviation from `median` ÷
/// `median` (for normally distributed samples, the standard deviation ÷ the mean); 0 when there
/// is no sample or the median is 0.
///
/// ```
/// use course_pool::stats::robust_cv;
/// assert_eq!(robust_cv(&[1.0, 1.0, 1.0], 1.0), 0.0);
/// // One far outlier does not move it: the median absolute deviation ignores it.
/// assert_eq!(robust_cv(&[1.0, 1.0, 1.0, 1.0, 100.0], 1.0), 0.0);
/// ```
pub fn robust_cv(xs: &[f64], median: f64) -> f64 {
    if xs.is_empty() || median <= 0.0 {
        return 0.0;
    }
    let mut dev: Vec<f64> = xs.iter().map(|x| (x - median).abs()).collect();
    dev.sort_by(f64::total_cmp);
    1.4826 * median_of_sorted(&dev) / median
}

/// The median, noise and count of one set of samples.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    pub median: f64,
    /// Robust coefficient of variation ([`robust_cv`]).
    pub robust_cv: f64,
    /// How many samples were usable (finite and not negative).
    pub samples: usize,
}

/// The finite, non-negative `samples`, sorted ascending; `None` if there are none.
pub fn usable_sorted(samples: &[f64]) -> Option<Vec<f64>> {
    let mut xs: Vec<f64> = samples
        .iter()
        .copied()
        .filter(|x| x.is_finite() && *x >= 0.0)
        .collect();
    if xs.is_empty() {
        return None;
    }
    xs.sort_by(f64::total_cmp);
    Some(xs)
}

/// Median, robust CV and count of the finite, non-negative `samples`; `None` if there are none.
///
/// ```
/// use course_pool::stats::summarize;
/// let s = summarize(&[1.0, 2.0, 3.0, 100.0, f64::NAN, -1.0]).unwrap();
/// assert_eq!((s.median, s.samples), (2.5, 4));
/// assert!(summarize(&[f64::INFINITY]).is_none());
/// ```
pub fn summarize(samples: &[f64]) -> Option<Summary> {
    let xs = usable_sorted(samples)?;
    let median = median_of_sorted(&xs);
    Some(Summary {
        median,
        robust_cv: robust_cv(&xs, median),
        samples: xs.len(),
    })
}

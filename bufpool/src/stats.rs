//! The robust statistics of a set of timings, defined once: the native bench (`native-bench`'s
//! `stats.rs`) and the reader-timing widget (`scenario::method`, in the reader's browser) both
//! judge noise with these, so the widget's "noise" is the bench's.

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
/// use bufpool::stats::robust_cv;
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

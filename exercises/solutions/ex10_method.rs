//! Exercise 10, the reference solution: the median, the noise and the gate.

// ANCHOR: solution
/// Noise above which a timing is not cited as an absolute value.
pub const ABSOLUTE_MAX_CV: f64 = 0.05;
/// Noise above which a timing is not cited at all.
pub const RATIO_MAX_CV: f64 = 0.25;
/// Load average per logical core above which the machine is too busy for absolute timings.
pub const MAX_LOAD_PER_CORE: f64 = 0.75;

/// How a timing may be cited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Citable {
    /// As an absolute time.
    Absolute,
    /// Only as a ratio of two timings measured side by side.
    RatioOnly,
    /// Not at all.
    Unfit,
}

/// The median of `samples`, in any order.
pub fn median(samples: &[f64]) -> Option<f64> {
    if samples.is_empty() {
        return None;
    }
    let mut sorted = samples.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    Some(if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    })
}

/// 1.4826 × the median absolute deviation ÷ the median.
pub fn robust_cv(samples: &[f64]) -> Option<f64> {
    let m = median(samples)?;
    if m <= 0.0 {
        return Some(0.0);
    }
    let deviations: Vec<f64> = samples.iter().map(|x| (x - m).abs()).collect();
    Some(1.4826 * median(&deviations)? / m)
}

/// The noise gate for a timing with noise `cv` measured at `load_per_core`.
pub fn gate(cv: f64, load_per_core: f64) -> Citable {
    if !cv.is_finite() || cv > RATIO_MAX_CV {
        Citable::Unfit
    } else if cv > ABSOLUTE_MAX_CV || load_per_core > MAX_LOAD_PER_CORE {
        Citable::RatioOnly
    } else {
        Citable::Absolute
    }
}
// ANCHOR_END: solution

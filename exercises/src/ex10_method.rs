#![allow(
    unused_variables,
    reason = "the skeleton's bodies are todo!(): your code uses them"
)]
// ANCHOR: exercise
//! # Exercise 10: the median, the noise and the gate
//!
//! Chapter: Method and limits (`book/src/method.md`).
//!
//! The bench reports a timing's median and judges its noise by the robust coefficient of
//! variation: 1.4826 × the median absolute deviation from the median, divided by the median
//! (one far outlier does not move it). The noise gate then decides how a timing may be cited.
//! Write the three:
//!
//! - `median(samples)`: the middle sample, or the mean of the two middle ones; `None` when
//!   there is no sample. The samples come in any order.
//! - `robust_cv(samples)`: as above; `None` without samples, `Some(0.0)` when the median is 0.
//! - `gate(cv, load_per_core)` for a timing: `Unfit` when the noise is over `RATIO_MAX_CV` (or
//!   not a number); else `RatioOnly` when it is over `ABSOLUTE_MAX_CV` or the machine's load
//!   per core is over `MAX_LOAD_PER_CORE`; else `Absolute`.
//!
//! Grade it: `cargo xtask exercises` (or `cargo test -p exercises --test ex10_method`).

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
    todo!()
}

/// 1.4826 × the median absolute deviation ÷ the median.
pub fn robust_cv(samples: &[f64]) -> Option<f64> {
    todo!()
}

/// The noise gate for a timing with noise `cv` measured at `load_per_core`.
pub fn gate(cv: f64, load_per_core: f64) -> Citable {
    todo!()
}
// ANCHOR_END: exercise

//! Statistics of a set of per-iteration timings: the median, a distribution-free 95 % interval of
//! the median, and two measures of noise.
//!
//! The noise the gate judges is the *robust* coefficient of variation, 1.4826 × the median
//! absolute deviation ÷ the median (for normally distributed samples it equals the standard
//! deviation ÷ the mean). The plain standard deviation ÷ mean is recorded beside it. Why two: on
//! a shared 2-core machine a few preempted samples (a 4 ms time slice landing in the batch of a
//! 3 ns operation) dominate the plain measure — it read 20–30 % on timings whose median was stable
//! to a few percent from run to run — while the median the book cites does not move. The robust
//! measure still grows when many samples scatter (a bimodal or drifting timing), which is
//! what makes a median untrustworthy.

use course_pool::stats::{median_of_sorted, robust_cv, usable_sorted};

use crate::measure::Stats;

/// Median, 95 % interval of the median (order statistics, normal approximation of the binomial:
/// ranks `n/2 ± 1.96·√n/2`), robust and plain CV of `samples`. `None` when there is no finite
/// sample ≥ 0.
pub fn summarize(samples: &[f64]) -> Option<Stats> {
    let xs = usable_sorted(samples)?;
    let n = xs.len();
    let median = median_of_sorted(&xs);
    let half = 1.96 * (n as f64).sqrt() / 2.0;
    let lo_rank = ((n as f64 / 2.0 - half).floor().max(0.0)) as usize;
    let hi_rank = ((n as f64 / 2.0 + half).ceil() as usize).min(n - 1);
    Some(Stats {
        median,
        low: xs[lo_rank].min(median),
        high: xs[hi_rank].max(median),
        samples: n as u32,
        cv: robust_cv(&xs, median),
        cv_plain: plain_cv(&xs),
    })
}

/// Standard deviation ÷ mean (population form; 0 when the mean is 0).
pub fn plain_cv(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n;
    if mean > 0.0 { var.sqrt() / mean } else { 0.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_interval_and_cv() {
        let s = summarize(&[5.0, 1.0, 3.0]).unwrap();
        assert_eq!(s.median, 3.0);
        assert_eq!((s.low, s.high), (1.0, 5.0));
        assert_eq!(s.samples, 3);
        let even = summarize(&[1.0, 2.0, 3.0, 4.0]).unwrap();
        assert_eq!(even.median, 2.5);
        let flat = summarize(&[7.0; 50]).unwrap();
        assert_eq!(
            (flat.low, flat.median, flat.high, flat.cv, flat.cv_plain),
            (7.0, 7.0, 7.0, 0.0, 0.0)
        );
        // 100 samples 1..=100: the interval is ranks 40..=60, about the middle fifth.
        let xs: Vec<f64> = (1..=100).map(f64::from).collect();
        let s = summarize(&xs).unwrap();
        assert_eq!(s.median, 50.5);
        assert!(
            s.low >= 39.0 && s.low <= 41.0 && s.high >= 60.0 && s.high <= 62.0,
            "{s:?}"
        );
        assert!((s.cv_plain - 0.5715).abs() < 0.001, "{}", s.cv_plain);
        // MAD of 1..=100 around 50.5 is 25: 1.4826 × 25 ÷ 50.5.
        assert!((s.cv - 0.7340).abs() < 0.001, "{}", s.cv);
    }

    #[test]
    fn one_preempted_sample_moves_the_plain_cv_not_the_robust_one() {
        // 39 samples of a 3 ns operation within ±1 %, and one that took a 4 ms time slice's share.
        let mut xs: Vec<f64> = (0..39).map(|i| 3.0 + 0.03 * f64::from(i % 3 - 1)).collect();
        xs.push(9.0);
        let s = summarize(&xs).unwrap();
        assert!(s.cv_plain > 0.25, "plain {}", s.cv_plain);
        assert!(s.cv < 0.02, "robust {}", s.cv);
        assert_eq!(s.median, 3.0);
    }

    #[test]
    fn many_scattered_samples_raise_the_robust_cv_too() {
        // A bimodal timing: half the samples at 3 ns, half at 6 ns.
        let xs: Vec<f64> = (0..40)
            .map(|i| if i % 2 == 0 { 3.0 } else { 6.0 })
            .collect();
        let s = summarize(&xs).unwrap();
        assert!(s.cv > 0.25, "robust {}", s.cv);
    }

    #[test]
    fn rejects_nothing_usable() {
        assert!(summarize(&[]).is_none());
        assert!(summarize(&[f64::NAN, -1.0]).is_none());
    }
}

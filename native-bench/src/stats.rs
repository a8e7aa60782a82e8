//! Statistics for timings measured outside criterion (in fresh processes, one sample each):
//! the median, a distribution-free 95 % interval of the median, and the coefficient of variation.

use crate::measure::Stats;

/// Median, 95 % interval of the median (order statistics, normal approximation of the binomial:
/// ranks `n/2 ± 1.96·√n/2`), and CV of `samples`. `None` when there is no finite sample.
pub fn summarize(samples: &[f64]) -> Option<Stats> {
    let mut xs: Vec<f64> = samples
        .iter()
        .copied()
        .filter(|x| x.is_finite() && *x >= 0.0)
        .collect();
    if xs.is_empty() {
        return None;
    }
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    let median = if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    };
    let half = 1.96 * (n as f64).sqrt() / 2.0;
    let lo_rank = ((n as f64 / 2.0 - half).floor().max(0.0)) as usize;
    let hi_rank = ((n as f64 / 2.0 + half).ceil() as usize).min(n - 1);
    let mean = xs.iter().sum::<f64>() / n as f64;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n as f64;
    Some(Stats {
        median,
        low: xs[lo_rank].min(median),
        high: xs[hi_rank].max(median),
        samples: n as u32,
        cv: if mean > 0.0 { var.sqrt() / mean } else { 0.0 },
    })
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
            (flat.low, flat.median, flat.high, flat.cv),
            (7.0, 7.0, 7.0, 0.0)
        );
        // 100 samples 1..=100: the interval is ranks 40..=60, about the middle fifth.
        let xs: Vec<f64> = (1..=100).map(f64::from).collect();
        let s = summarize(&xs).unwrap();
        assert_eq!(s.median, 50.5);
        assert!(
            s.low >= 39.0 && s.low <= 41.0 && s.high >= 60.0 && s.high <= 62.0,
            "{s:?}"
        );
        assert!((s.cv - 0.5715).abs() < 0.001, "{}", s.cv);
    }

    #[test]
    fn rejects_nothing_usable() {
        assert!(summarize(&[]).is_none());
        assert!(summarize(&[f64::NAN, -1.0]).is_none());
    }
}

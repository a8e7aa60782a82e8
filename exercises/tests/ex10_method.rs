//! Grades exercise 10 (`src/ex10_method.rs`): the statistics against `course_pool::stats`, the gate
//! against `bench_data::gate`, the functions the bench and the book use.

mod support;

#[cfg_attr(not(feature = "solutions"), path = "../src/ex10_method.rs")]
#[cfg_attr(feature = "solutions", path = "../solutions/ex10_method.rs")]
#[allow(
    dead_code,
    reason = "a skeleton's given items may be unused until it is done"
)]
mod ex;

use bench_data::{Unit, Verdict};
use ex::{Citable, gate, median, robust_cv};

fn samples() -> Vec<Vec<f64>> {
    vec![
        vec![10.0],
        vec![3.0, 1.0, 2.0],
        vec![4.0, 1.0, 3.0, 2.0],
        vec![10.0, 10.5, 9.5, 10.2, 9.8, 55.0],
        vec![100.0, 101.0, 99.0, 100.0, 1_000.0, 100.5, 98.0],
    ]
}

fn lab_median(xs: &[f64]) -> f64 {
    let mut sorted = xs.to_vec();
    sorted.sort_by(f64::total_cmp);
    course_pool::stats::median_of_sorted(&sorted)
}

#[test]
fn step1_the_median_of_samples_in_any_order() {
    assert_eq!(median(&[]), None, "median of no sample");
    assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0), "median of 3, 1, 2");
    assert_eq!(
        median(&[4.0, 1.0, 3.0, 2.0]),
        Some(2.5),
        "median of 4, 1, 3, 2"
    );
    for xs in samples() {
        assert_eq!(median(&xs), Some(lab_median(&xs)), "median of {xs:?}");
    }
}

#[test]
fn step2_the_robust_noise() {
    assert_eq!(robust_cv(&[]), None, "robust_cv of no sample");
    assert_eq!(
        robust_cv(&[0.0, 0.0]),
        Some(0.0),
        "robust_cv when the median is 0"
    );
    assert_eq!(
        robust_cv(&[1.0, 1.0, 1.0, 1.0, 100.0]),
        Some(0.0),
        "one far outlier does not move it"
    );
    for xs in samples() {
        let want = course_pool::stats::robust_cv(&xs, lab_median(&xs));
        let got = robust_cv(&xs).expect("samples are there");
        assert!(
            (got - want).abs() < 1e-12,
            "robust_cv of {xs:?}: {got}, the lab says {want}"
        );
    }
}

#[test]
fn step3_the_noise_gate_for_timings() {
    for cv in [
        0.0,
        0.02,
        0.05,
        0.051,
        0.12,
        0.25,
        0.26,
        0.4,
        f64::NAN,
        f64::INFINITY,
    ] {
        for load in [0.1, 0.75, 0.76, 1.5] {
            let want = match bench_data::gate(Unit::Nanoseconds, cv, load).0 {
                Verdict::Absolute => Citable::Absolute,
                Verdict::RatioOnly => Citable::RatioOnly,
                Verdict::Unfit => Citable::Unfit,
            };
            assert_eq!(gate(cv, load), want, "gate(cv {cv}, load per core {load})");
        }
    }
}

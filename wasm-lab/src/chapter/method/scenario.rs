//! The reader's own numbers (the Method chapter, `method`): the bench's method — paired rounds,
//! the median of the per-round ratios, robust noise — run in the reader's browser on the wasm
//! pool. The widget (`web/method.rs`) supplies the clock (`performance.now()`); everything else
//! is here, native and unit-tested with a fake clock.
//!
//! Browser timers are coarse on purpose (Chromium rounds `performance.now()` to 100 µs on a page
//! that is not cross-origin isolated, Firefox to 1 ms with fingerprinting protection), so one
//! rent + return (a few nanoseconds) cannot be timed alone: each sample is a *batch* of iterations
//! long enough that the timer's step is a small part of it ([`calibrate`]).
//!
//! These numbers are the reader's machine and browser: the book's text never cites them.

use bufpool::pool::SharedPool;
pub use course_pool::stats::{Summary, summarize};

/// Rounds per comparison: each gives one sample of each side and one ratio.
pub const ROUNDS: usize = 31;
/// How long one batch should last, in milliseconds (many timer steps, so rounding is ≤ 5 %).
pub const BATCH_MS: f64 = 4.0;
/// The sizes the widget offers, in bytes.
pub const SIZES: &[usize] = &[16, 1024, 16_384, 81_920];
/// The most iterations in one batch (a timer that never advances must not loop forever).
pub const MAX_ITERS: u64 = 1 << 26;

/// One operation of a comparison: runs `iters` iterations.
pub type Op<'a> = dyn FnMut(u64) + 'a;

/// A paired comparison of `a` against `b`: each side's time per iteration and the ratio a ÷ b
/// (the median of the per-round ratios).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Comparison {
    pub a_ns: Summary,
    pub b_ns: Summary,
    pub ratio: Summary,
    /// Iterations per batch of each side.
    pub iters: (u64, u64),
}

/// The smallest step the clock `now` (ms) advances by, seen over up to `tries` reads (0 if it
/// never advanced).
pub fn timer_step_ms(now: &mut dyn FnMut() -> f64, tries: usize) -> f64 {
    let mut best = f64::INFINITY;
    let mut last = now();
    for _ in 0..tries {
        let t = now();
        if t > last {
            best = best.min(t - last);
            last = t;
        }
    }
    if best.is_finite() { best } else { 0.0 }
}

/// Times `iters` iterations of `op` with `now` (ms).
fn time(now: &mut dyn FnMut() -> f64, op: &mut Op<'_>, iters: u64) -> f64 {
    let start = now();
    op(iters);
    now() - start
}

/// The iterations that make a batch of about `batch_ms`: doubles until a batch takes a quarter
/// of that, then scales (at least 1, at most [`MAX_ITERS`]).
pub fn calibrate(now: &mut dyn FnMut() -> f64, op: &mut Op<'_>, batch_ms: f64) -> u64 {
    let mut k = 1u64;
    loop {
        let took = time(now, op, k);
        if took * 4.0 >= batch_ms || k >= MAX_ITERS {
            if took <= 0.0 {
                return k;
            }
            let per_iter = took / k as f64;
            return ((batch_ms / per_iter).round() as u64).clamp(1, MAX_ITERS);
        }
        k *= 2;
    }
}

/// Measures `a` against `b` in `rounds` paired rounds of batches of about `batch_ms`: round `r`
/// runs `a` first when `r` is even and `b` first when odd, so neither always follows the other.
/// `None` when the clock gave no usable sample (it never advanced).
pub fn compare(
    now: &mut dyn FnMut() -> f64,
    a: &mut Op<'_>,
    b: &mut Op<'_>,
    rounds: usize,
    batch_ms: f64,
) -> Option<Comparison> {
    let ia = calibrate(now, a, batch_ms);
    let ib = calibrate(now, b, batch_ms);
    let (mut sa, mut sb, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for r in 0..rounds {
        let (ta, tb) = if r % 2 == 0 {
            let ta = time(now, a, ia);
            (ta, time(now, b, ib))
        } else {
            let tb = time(now, b, ib);
            (time(now, a, ia), tb)
        };
        let (na, nb) = (ta * 1e6 / ia as f64, tb * 1e6 / ib as f64);
        sa.push(na);
        sb.push(nb);
        if na > 0.0 && nb > 0.0 {
            ratios.push(na / nb);
        }
    }
    Some(Comparison {
        a_ns: summarize(&sa)?,
        b_ns: summarize(&sb)?,
        ratio: summarize(&ratios)?,
        iters: (ia, ib),
    })
}

/// The two comparisons the widget runs at `size` bytes: rent + return against a fresh zeroed
/// allocation, and a return with clearing against one without. `now` is the clock (ms).
pub fn reader_runs(
    now: &mut dyn FnMut() -> f64,
    size: usize,
    rounds: usize,
    batch_ms: f64,
) -> Option<(Comparison, Comparison)> {
    let pool = SharedPool::<u8>::new();
    let mut rent = |iters: u64| {
        for _ in 0..iters {
            drop(std::hint::black_box(pool.try_rent(size)));
        }
    };
    let mut fresh = |iters: u64| {
        for _ in 0..iters {
            drop(std::hint::black_box(vec![0u8; size]));
        }
    };
    let vs_fresh = compare(now, &mut rent, &mut fresh, rounds, batch_ms)?;
    let mut cleared = |iters: u64| {
        for _ in 0..iters {
            if let Ok(b) = std::hint::black_box(pool.try_rent(size)) {
                b.return_cleared();
            }
        }
    };
    let mut uncleared = |iters: u64| {
        for _ in 0..iters {
            if let Ok(b) = std::hint::black_box(pool.try_rent(size)) {
                b.return_uncleared();
            }
        }
    };
    let clearing = compare(now, &mut cleared, &mut uncleared, rounds, batch_ms)?;
    Some((vs_fresh, clearing))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    /// A fake clock in ms that advances only when an operation says so, rounded down to `step`
    /// as a browser's timer is.
    struct Fake {
        t: Cell<f64>,
        step: f64,
    }

    impl Fake {
        fn now(&self) -> f64 {
            (self.t.get() / self.step).floor() * self.step
        }
        fn spend(&self, ms: f64) {
            self.t.set(self.t.get() + ms);
        }
    }

    #[test]
    fn summary_is_median_and_robust_cv() {
        let s = summarize(&[1.0, 2.0, 3.0, 100.0, f64::NAN, -1.0]).unwrap();
        assert_eq!(s.samples, 4);
        assert_eq!(s.median, 2.5);
        // Deviations 1.5, 0.5, 0.5, 97.5: their median is 1.0, so one outlier barely counts.
        assert!((s.robust_cv - 1.4826 / 2.5).abs() < 1e-12, "{s:?}");
        assert_eq!(summarize(&[f64::NAN]), None);
    }

    #[test]
    fn calibration_reaches_the_batch_despite_a_coarse_timer() {
        let clock = Fake {
            t: Cell::new(0.0),
            step: 0.1,
        };
        // 20 ns per iteration: one iteration is far below the 0.1 ms step.
        let mut op = |iters: u64| clock.spend(iters as f64 * 20e-6);
        let k = calibrate(&mut || clock.now(), &mut op, 4.0);
        let batch = k as f64 * 20e-6;
        assert!((3.8..=4.2).contains(&batch), "{k} iterations = {batch} ms");
    }

    #[test]
    fn paired_ratio_cancels_a_load_that_hits_both_sides() {
        let clock = Fake {
            t: Cell::new(0.0),
            step: 0.005,
        };
        // A load factor that changes every few batches, the same for both sides of a round.
        let load = Cell::new(0usize);
        let factor = |l: usize| 1.0 + (l / 2 % 5) as f64 * 0.4;
        let a_ns = 3.0;
        let b_ns = 12.0;
        let mut a = |iters: u64| {
            load.set(load.get() + 1);
            clock.spend(iters as f64 * a_ns * 1e-6 * factor(load.get()));
        };
        let mut b = |iters: u64| {
            clock.spend(iters as f64 * b_ns * 1e-6 * factor(load.get()));
        };
        let c = compare(&mut || clock.now(), &mut a, &mut b, 41, 4.0).unwrap();
        assert!((c.ratio.median - 0.25).abs() < 0.01, "{c:?}");
        assert!(c.ratio.robust_cv < 0.02, "{c:?}");
        // Each side on its own carries the load.
        assert!(c.a_ns.robust_cv > 0.1, "{c:?}");
        assert_eq!(c.ratio.samples, 41);
    }

    #[test]
    fn a_clock_that_never_advances_gives_no_comparison_and_no_endless_loop() {
        let mut op = |_: u64| {};
        let mut op2 = |_: u64| {};
        assert_eq!(calibrate(&mut || 0.0, &mut op, 4.0), MAX_ITERS);
        assert_eq!(compare(&mut || 0.0, &mut op, &mut op2, 3, 4.0), None);
        assert_eq!(timer_step_ms(&mut || 0.0, 10), 0.0);
    }

    #[test]
    fn timer_step_is_the_smallest_advance() {
        let t = Cell::new(0.0);
        let mut now = || {
            t.set(t.get() + 0.02);
            (t.get() / 0.1f64).floor() * 0.1
        };
        let step = timer_step_ms(&mut now, 100);
        assert!((step - 0.1).abs() < 1e-9, "{step}");
    }

    #[test]
    fn the_reader_runs_measure_real_work_with_a_real_clock() {
        let start = std::time::Instant::now();
        let mut now = || start.elapsed().as_secs_f64() * 1e3;
        let (vs_fresh, clearing) = reader_runs(&mut now, 1024, 3, 0.2).unwrap();
        for c in [vs_fresh, clearing] {
            assert_eq!(c.ratio.samples, 3);
            assert!(c.a_ns.median > 0.0 && c.b_ns.median > 0.0, "{c:?}");
        }
    }
}

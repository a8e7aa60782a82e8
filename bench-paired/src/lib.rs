//! Paired measurement: the operations of one comparison take turns, batch by batch, so every
//! ratio compares timings made a millisecond apart.
//!
//! Why not criterion for these: criterion measures one benchmark for a second or two, then the
//! next. On a shared 2-core machine the neighbours' load changes between those seconds, and a
//! ratio of two such timings carries that change: the same rent + return of 16 bytes measured
//! first and last in one run differed by 1.6× while each measurement's own noise was under 4 %.
//! Here each round runs one batch (about a millisecond of iterations) of every operation of the
//! group, starting with a different one each round, and each ratio is the median of the per-round
//! ratios: a change of load hits both sides of a round alike and cancels out.
//!
//! Each batch's time ÷ its iterations is one sample of that operation, so an operation's own
//! figure (median, interval, noise) comes from the same rounds.
//!
//! One crate for both benches: `native-bench` times with the system's monotonic clock, and
//! `wasm-bench` (the lab's wasm build in Chromium) with the page's `performance.now()`, whose
//! coarser ticks it answers with longer batches. The method itself never reads a clock: a
//! routine says how long its iterations took ([`Group::time_custom`], or [`Group::time_on`] with
//! the caller's clock), and the warm-up counts the time the routines report.

#![forbid(unsafe_code)]

use std::time::Duration;

/// A monotonic clock: the time since some fixed origin.
pub type Clock = fn() -> Duration;

/// The system's monotonic clock (`std::time::Instant`; not on `wasm32-unknown-unknown`, whose
/// `Instant::now` panics: the browser's bench passes `performance.now()` to [`Group::time_on`]).
#[cfg(not(target_arch = "wasm32"))]
pub fn system_clock() -> Duration {
    use std::sync::OnceLock;
    use std::time::Instant;
    static ORIGIN: OnceLock<Instant> = OnceLock::new();
    ORIGIN.get_or_init(Instant::now).elapsed()
}

/// One comparison: operations measured in alternating batches.
pub struct Group<'a> {
    pub name: String,
    /// Overrides the session's batch length (e.g. for work that hands batches to a thread).
    pub batch: Option<Duration>,
    pub members: Vec<Member<'a>>,
}

/// One operation of a group.
pub struct Member<'a> {
    /// Its figure key.
    pub key: String,
    /// Its figure title.
    pub title: String,
    /// Runs the operation `iters` times and says how long that took.
    routine: Box<dyn FnMut(u64) -> Duration + 'a>,
}

impl<'a> Group<'a> {
    /// An empty group; `name` is what the progress line shows.
    pub fn new(name: impl Into<String>) -> Self {
        Group {
            name: name.into(),
            batch: None,
            members: Vec::new(),
        }
    }

    /// Each batch runs for about `batch` instead of the session's default.
    pub fn with_batch(mut self, batch: Duration) -> Self {
        self.batch = Some(batch);
        self
    }

    /// Adds an operation timed per call with the system clock, recorded as figure `key` (ns per
    /// call).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn time<R>(&mut self, key: &str, title: &str, routine: impl FnMut() -> R + 'a) {
        self.time_on(system_clock, key, title, routine);
    }

    /// Adds an operation timed per call with `clock`, recorded as figure `key` (ns per call).
    pub fn time_on<R>(
        &mut self,
        clock: Clock,
        key: &str,
        title: &str,
        mut routine: impl FnMut() -> R + 'a,
    ) {
        self.time_custom(key, title, move |iters| {
            let t = clock();
            for _ in 0..iters {
                std::hint::black_box(routine());
            }
            clock().saturating_sub(t)
        });
    }

    /// Adds an operation that runs `iters` iterations itself and returns how long they took
    /// (as criterion's `iter_custom`): for work spread over threads.
    pub fn time_custom(
        &mut self,
        key: &str,
        title: &str,
        routine: impl FnMut(u64) -> Duration + 'a,
    ) {
        self.members.push(Member {
            key: key.to_string(),
            title: title.to_string(),
            routine: Box::new(routine),
        });
    }
}

impl Member<'_> {
    /// Runs the operation `iters` times; how long that took.
    pub fn run(&mut self, iters: u64) -> Duration {
        (self.routine)(iters)
    }
}

/// How long a group is measured.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    pub rounds: usize,
    pub batch: Duration,
    pub warm_up: Duration,
}

/// Measures every member of `group` in `plan.rounds` rounds; returns, per member, the time per
/// iteration (ns) of each round, in round order (so round `i` of two members is a pair).
pub fn measure(group: &mut Group<'_>, plan: Plan) -> Vec<Vec<f64>> {
    let batch = group.batch.unwrap_or(plan.batch);
    // Calibrated twice: a first call that pays for a page fault or an allocator's set-up would
    // otherwise make one iteration look like a whole batch.
    let iters: Vec<u64> = group
        .members
        .iter_mut()
        .map(|m| calibrate(&mut m.routine, batch).max(calibrate(&mut m.routine, batch)))
        .collect();
    let m = group.members.len();
    // The warm-up's length is the time the routines report, so no clock is read here.
    let mut warm = Duration::ZERO;
    let mut round = 0;
    while warm < plan.warm_up || round == 0 {
        warm += run_round(group, &iters, round, |_, _| {});
        round += 1;
    }
    let mut samples = vec![Vec::with_capacity(plan.rounds); m];
    for round in 0..plan.rounds {
        run_round(group, &iters, round, |i, ns| samples[i].push(ns));
    }
    samples
}

/// One batch of every member, starting with member `round % m`; the time the batches took.
fn run_round(
    group: &mut Group<'_>,
    iters: &[u64],
    round: usize,
    mut record: impl FnMut(usize, f64),
) -> Duration {
    let m = group.members.len();
    let mut total = Duration::ZERO;
    for j in 0..m {
        let i = (round + j) % m;
        let took = (group.members[i].routine)(iters[i]);
        total += took;
        record(i, took.as_nanos() as f64 / iters[i] as f64);
    }
    total
}

/// The number of iterations that takes about `batch` (at least 1), found by doubling.
fn calibrate(routine: &mut dyn FnMut(u64) -> Duration, batch: Duration) -> u64 {
    const MAX: u64 = 1 << 40;
    let mut k = 1u64;
    loop {
        let took = routine(k);
        if took * 4 >= batch || k >= MAX {
            let per_iter = took.as_secs_f64() / k as f64;
            if per_iter <= 0.0 {
                return k;
            }
            return ((batch.as_secs_f64() / per_iter).round() as u64).clamp(1, MAX);
        }
        k *= 2;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fake clock: each member reports a fixed time per iteration.
    #[test]
    fn rounds_rotate_the_order_and_sample_per_iteration() {
        use std::cell::RefCell;
        let order = RefCell::new(Vec::new());
        let mut g = Group::new("test");
        for (name, ns) in [("a", 3), ("b", 6), ("c", 9)] {
            let order = &order;
            g.time_custom(name, name, move |iters| {
                order.borrow_mut().push(name);
                Duration::from_nanos(ns * iters)
            });
        }
        let plan = Plan {
            rounds: 6,
            batch: Duration::from_micros(50),
            warm_up: Duration::ZERO,
        };
        let samples = measure(&mut g, plan);
        assert_eq!(samples, [vec![3.0; 6], vec![6.0; 6], vec![9.0; 6]]);
        // Round r starts with member r % 3: the last two rounds are b c a, then c a b.
        let order = order.borrow();
        assert_eq!(order[order.len() - 6..], ["b", "c", "a", "c", "a", "b"]);
    }

    #[test]
    fn calibration_targets_the_batch_length() {
        let mut fake = |iters: u64| Duration::from_nanos(4 * iters);
        let k = calibrate(&mut fake, Duration::from_millis(1));
        assert_eq!(k, 250_000);
        let mut slow = |iters: u64| Duration::from_millis(5 * iters);
        assert_eq!(calibrate(&mut slow, Duration::from_millis(1)), 1);
    }
}

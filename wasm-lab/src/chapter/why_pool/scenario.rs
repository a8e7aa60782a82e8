//! Why pool at all (chapter 1), the scenario: N rounds with a fresh `Vec` per round against N
//! rounds of rent + return, counted by the counting allocator (and the pool's own statistics).
//! The `why-pool` widget (`web/why_pool.rs`) shows [`run`]; the chapter's quiz
//! ([`crate::chapter::why_pool::quiz`]) grades its answers with the same runs.
//!
//! Where the counting allocator is not the global allocator (this crate's native unit tests), the
//! fresh-`Vec` count falls back to the formula it always measures — one allocation of `size`
//! bytes per round — and says so ([`Counted::measured`] is `false`). The wasm build registers the
//! allocator, so the book's widget and quiz always measure.

use serde::Serialize;

use bufpool::pool::{PoolError, SharedPool};
use course_pool::alloc_count::{self, AllocStats};
use lab_text::{group_digits, tf};

/// The Thai article's buffer: one 128-byte buffer per order line.
pub const LINE_BUFFER: u64 = 128;
/// The most rounds the widget runs (the article's largest N).
pub const MAX_ROUNDS: u64 = 1_000_000;
/// The largest buffer the widget allocates per round.
pub const MAX_SIZE: u64 = 65_536;
/// The most bytes the widget's fresh-`Vec` loop may allocate in total.
pub const MAX_TOTAL: u64 = 1 << 28;

/// Allocations and bytes, measured or (natively, without the counting allocator) by formula.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Counted {
    pub allocations: u64,
    pub bytes: u64,
    /// Whether the counting allocator measured these numbers.
    pub measured: bool,
}

impl From<AllocStats> for Counted {
    fn from(s: AllocStats) -> Self {
        Counted {
            allocations: s.allocations + s.reallocations,
            bytes: s.bytes_requested,
            measured: true,
        }
    }
}

/// One comparison: `rounds` rounds of `size` bytes, fresh and pooled.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Rounds {
    pub rounds: u64,
    pub size: u64,
    /// Every round allocates `vec![0u8; size]` and drops it.
    pub fresh: Counted,
    /// Creating the pool (the analogue of .NET's first `ArrayPool<T>.Shared`), measured.
    pub pool_setup: Option<Counted>,
    /// The first rent + return (the pool allocates the buffer; per-thread tables too).
    pub first_round: Option<Counted>,
    /// Rounds 2..=N of rent + return.
    pub later_rounds: Option<Counted>,
    /// Buffers the pool allocated, from its own statistics.
    pub pool_buffers: u64,
    /// Bytes of those buffers (bucket lengths), from its own statistics.
    pub pool_buffer_bytes: u64,
}

impl Rounds {
    /// Everything the pooled loop allocated, setup included (measured runs only).
    pub fn pooled_bytes(&self) -> Option<u64> {
        Some(self.pool_setup?.bytes + self.first_round?.bytes + self.later_rounds?.bytes)
    }

    /// The one-off cost of pooling: setup + first round (measured runs only).
    pub fn first_use_bytes(&self) -> Option<u64> {
        Some(self.pool_setup?.bytes + self.first_round?.bytes)
    }

    /// The round from which the pooled loop has allocated no more than the fresh one.
    pub fn break_even(&self) -> Option<u64> {
        break_even(self.first_use_bytes()?, self.size)
    }
}

/// The first round `n` at which `n × per_round ≥ once`: where paying `once` bytes up front stops
/// costing more than paying `per_round` bytes every round. `None` if a round costs nothing.
///
/// ```
/// // The Thai article's .NET figures: 608 B + 184 B once, 152 B per fresh buffer.
/// assert_eq!(wasm_lab::chapter::why_pool::scenario::break_even(608 + 184, 152), Some(6));
/// ```
pub fn break_even(once: u64, per_round: u64) -> Option<u64> {
    if per_round == 0 {
        return None;
    }
    Some(once.div_ceil(per_round).max(1))
}

/// Why the widget will not run these values.
pub fn check(rounds: u64, size: u64) -> Result<(), String> {
    if rounds > MAX_ROUNDS {
        return Err(tf!(
            "Rounds: this widget runs at most {} rounds in your browser",
            group_digits(MAX_ROUNDS)
        ));
    }
    if size > MAX_SIZE {
        return Err(tf!(
            "Buffer size: this widget allocates at most {} bytes per round",
            group_digits(MAX_SIZE)
        ));
    }
    if rounds.saturating_mul(size) > MAX_TOTAL {
        return Err(tf!(
            "{} rounds of {} bytes would allocate {} bytes in your browser: keep rounds × size at most {}",
            group_digits(rounds),
            group_digits(size),
            group_digits(rounds.saturating_mul(size)),
            group_digits(MAX_TOTAL)
        ));
    }
    Ok(())
}

/// Runs both loops (sizes and rounds should pass [`check`]).
pub fn run(rounds: u64, size: u64) -> Result<Rounds, PoolError> {
    let n = size as usize;
    let fresh_loop = || {
        for _ in 0..rounds {
            let v = vec![0u8; n];
            std::hint::black_box(&v);
        }
    };
    let fresh = match alloc_count::measure(fresh_loop) {
        Ok(((), stats)) => stats.into(),
        Err(_) => {
            fresh_loop();
            let allocations = if n == 0 { 0 } else { rounds };
            Counted {
                allocations,
                bytes: allocations * size,
                measured: false,
            }
        }
    };
    let config = crate::chapter::stale_data::scenario::lab_config();
    let (pool, pool_setup) = match alloc_count::measure(|| SharedPool::<u8>::with_config(config)) {
        Ok((pool, stats)) => (pool?, Some(stats.into())),
        Err(_) => (SharedPool::with_config(config)?, None),
    };
    let round = || -> Result<(), PoolError> {
        let buf = pool.try_rent(n)?;
        std::hint::black_box(&buf);
        Ok(())
    };
    let mut first_round = None;
    let mut later_rounds = None;
    if rounds > 0 {
        match alloc_count::measure(round) {
            Ok((r, stats)) => {
                r?;
                first_round = Some(stats.into());
            }
            Err(_) => round()?,
        }
        let later = || -> Result<(), PoolError> { (1..rounds).try_for_each(|_| round()) };
        match alloc_count::measure(later) {
            Ok((r, stats)) => {
                r?;
                later_rounds = Some(stats.into());
            }
            Err(_) => later()?,
        }
    }
    let stats = pool.stats();
    Ok(Rounds {
        rounds,
        size,
        fresh,
        pool_setup,
        first_round,
        later_rounds,
        pool_buffers: stats.allocated(),
        pool_buffer_bytes: stats
            .buckets
            .iter()
            .map(|b| b.allocated * b.length as u64)
            .sum(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn break_even_matches_the_article() {
        assert_eq!(break_even(792, 152), Some(6));
        assert_eq!(break_even(760, 152), Some(5));
        assert_eq!(break_even(0, 152), Some(1));
        assert_eq!(break_even(792, 0), None);
    }

    #[test]
    fn pooled_loop_allocates_one_buffer() {
        let r = run(1_000, 128).unwrap();
        assert_eq!((r.pool_buffers, r.pool_buffer_bytes), (1, 128));
        assert_eq!((r.fresh.allocations, r.fresh.bytes), (1_000, 128_000));
        assert!(!r.fresh.measured, "no counting allocator in unit tests");
        let r = run(10, 100).unwrap();
        assert_eq!(r.pool_buffer_bytes, 128);
        assert_eq!(run(0, 128).unwrap().pool_buffers, 0);
    }

    #[test]
    fn widget_limits() {
        assert!(check(1_000_000, 128).is_ok());
        assert!(
            check(1_000_001, 1)
                .unwrap_err()
                .contains("at most 1,000,000")
        );
        assert!(check(1, 65_537).unwrap_err().contains("at most 65,536"));
        assert!(
            check(1_000_000, 65_536)
                .unwrap_err()
                .contains("rounds × size")
        );
    }
}

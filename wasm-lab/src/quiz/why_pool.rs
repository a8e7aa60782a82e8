//! The why-pool quiz (chapter 1): fresh round counts and buffer sizes, graded by running the
//! chapter's scenario. Every answer comes from [`crate::scenario::why_pool`], the same runs the
//! `why-pool` widget shows.

use super::{Kind, Quiz, Rng};
use crate::calc::calculate;
use crate::input::group_digits;
use crate::pool::PoolError;
use crate::scenario::why_pool::{LINE_BUFFER, break_even, run};

pub const QUIZ: Quiz = Quiz {
    id: "why-pool",
    title: "Why pool at all",
    kinds: &[&FreshBytes, &LaterAllocations, &PoolBufferBytes, &BreakEven],
};

fn err(e: PoolError) -> String {
    format!("the lab could not run this: {e}")
}

/// "N fresh 128-byte buffers: how many bytes?"
pub struct FreshBytes;
/// "With the pool, how many allocations in rounds 2..N?"
pub struct LaterAllocations;
/// "A fresh pool serves N rounds of rent(R): how many bytes of buffers does it allocate?"
pub struct PoolBufferBytes;
/// "F bytes once against B bytes per round: from which round does pooling pay off?"
pub struct BreakEven;

fn rounds_drawn(rng: &mut Rng) -> u64 {
    match rng.below(3) {
        0 => 10u64.pow(rng.below(4) as u32 + 1),
        _ => 1 + rng.below(5_000),
    }
}

impl Kind for FreshBytes {
    fn name(&self) -> &'static str {
        "fresh-bytes"
    }
    fn draw(&self, rng: &mut Rng) -> u64 {
        rounds_drawn(rng)
    }
    fn prompt(&self, n: u64) -> String {
        format!(
            "A loop allocates a fresh zeroed buffer of 128 bytes (vec![0u8; 128]) for each order line and drops it. How many bytes does the counting allocator see for {} lines?",
            group_digits(n)
        )
    }
    fn expected(&self, n: u64) -> String {
        run(n, LINE_BUFFER).map_or_else(err, |r| r.fresh.bytes.to_string())
    }
    fn explain(&self, n: u64) -> String {
        match run(n, LINE_BUFFER) {
            Ok(r) => format!(
                "The lab {} {} allocations of 128 bytes: {} × 128 = {} bytes, every one of them freed right away and asked for again next round. (.NET counts 152 B per new byte[128]: a 24-byte array header on top; Rust's Vec asks the allocator for the 128 bytes only.)",
                if r.fresh.measured {
                    "counted"
                } else {
                    "ran the loop and computed"
                },
                group_digits(r.fresh.allocations),
                group_digits(n),
                group_digits(r.fresh.bytes)
            ),
            Err(e) => err(e),
        }
    }
}

impl Kind for LaterAllocations {
    fn name(&self) -> &'static str {
        "later-allocations"
    }
    fn draw(&self, rng: &mut Rng) -> u64 {
        2 + rounds_drawn(rng)
    }
    fn prompt(&self, n: u64) -> String {
        format!(
            "The same loop rents its 128-byte buffer from a pool and returns it each round (the guard is dropped). How many allocations happen in rounds 2 to {}?",
            group_digits(n)
        )
    }
    fn expected(&self, n: u64) -> String {
        run(n, LINE_BUFFER).map_or_else(err, |r| match r.later_rounds {
            Some(c) => c.allocations.to_string(),
            // No counting allocator: the pool's statistics say how many buffers it allocated.
            None => (r.pool_buffers - 1).to_string(),
        })
    }
    fn explain(&self, n: u64) -> String {
        match run(n, LINE_BUFFER) {
            Ok(r) => format!(
                "The lab ran {} rounds: the first rent allocated the pool's only buffer ({} in its statistics); every later round took that same buffer back out of the thread's slot and put it back, so rounds 2 to {} allocated {}.",
                group_digits(n),
                r.pool_buffers,
                group_digits(n),
                r.later_rounds.map_or(r.pool_buffers - 1, |c| c.allocations)
            ),
            Err(e) => err(e),
        }
    }
}

fn pool_values(v: u64) -> (u64, u64) {
    (v >> 32, v & 0xFFFF_FFFF)
}

impl Kind for PoolBufferBytes {
    fn name(&self) -> &'static str {
        "pool-buffer-bytes"
    }
    fn draw(&self, rng: &mut Rng) -> u64 {
        let rounds = 1 + rng.below(1000);
        let size = 1 + rng.below(8192);
        rounds << 32 | size
    }
    fn prompt(&self, v: u64) -> String {
        let (rounds, size) = pool_values(v);
        format!(
            "A fresh pool serves {} rounds of rent({}) + return. How many bytes of buffers does the pool allocate in total (its statistics, not its own bookkeeping)?",
            group_digits(rounds),
            group_digits(size)
        )
    }
    fn expected(&self, v: u64) -> String {
        let (rounds, size) = pool_values(v);
        run(rounds, size).map_or_else(err, |r| r.pool_buffer_bytes.to_string())
    }
    fn explain(&self, v: u64) -> String {
        let (rounds, size) = pool_values(v);
        match run(rounds, size) {
            Ok(r) => format!(
                "The lab ran it: the pool allocated {} buffer of {} bytes once ({}) and reused it for all {} rounds, so {} bytes in total.",
                r.pool_buffers,
                group_digits(calculate(size).length),
                calculate(size).why,
                group_digits(rounds),
                group_digits(r.pool_buffer_bytes)
            ),
            Err(e) => err(e),
        }
    }
}

fn break_even_values(v: u64) -> (u64, u64) {
    (v >> 32, v & 0xFFFF_FFFF)
}

impl Kind for BreakEven {
    fn name(&self) -> &'static str {
        "break-even"
    }
    fn draw(&self, rng: &mut Rng) -> u64 {
        let (once, per_round) = match rng.below(4) {
            0 => (608 + 184, 152),
            _ => (
                100 + rng.below(3000),
                [88, 128, 152, 1_048][rng.below(4) as usize],
            ),
        };
        once << 32 | per_round
    }
    fn prompt(&self, v: u64) -> String {
        let (once, per_round) = break_even_values(v);
        format!(
            "Pooling costs {} bytes once (first use) and nothing after; a fresh buffer costs {} bytes every round. At which round has the pooled loop allocated no more in total than the fresh one?",
            group_digits(once),
            group_digits(per_round)
        )
    }
    fn expected(&self, v: u64) -> String {
        let (once, per_round) = break_even_values(v);
        break_even(once, per_round).map_or("never".into(), |n| n.to_string())
    }
    fn explain(&self, v: u64) -> String {
        let (once, per_round) = break_even_values(v);
        match break_even(once, per_round) {
            Some(n) => format!(
                "The lab's break_even: the smallest n with n × {per_round} ≥ {once}: {n} × {per_round} = {} ≥ {once}{}. It compares two measured numbers; it is not a third measurement.",
                group_digits(n * per_round),
                if n > 1 {
                    format!(
                        ", while {} × {per_round} = {} is not",
                        n - 1,
                        group_digits((n - 1) * per_round)
                    )
                } else {
                    String::new()
                }
            ),
            None => {
                "The lab's break_even: a round that costs nothing never pays back a one-off cost."
                    .into()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quiz::Question;

    #[test]
    fn quiz_answers_come_from_runs() {
        assert!(Question::new(&FreshBytes, 1_000).check("128,000").correct);
        assert!(Question::new(&LaterAllocations, 50).check("0").correct);
        assert!(
            Question::new(&PoolBufferBytes, 10 << 32 | 1_025)
                .check("2048")
                .correct
        );
        let f = Question::new(&BreakEven, 792 << 32 | 152).check("5");
        assert!(!f.correct && f.expected == "6", "{f:?}");
        assert!(
            f.explanation.contains("6 × 152 = 912 ≥ 792"),
            "{}",
            f.explanation
        );
    }
}

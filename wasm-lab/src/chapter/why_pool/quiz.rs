//! The why-pool quiz (chapter 1): fresh round counts and buffer sizes, graded by running the
//! chapter's scenario ([`crate::chapter::why_pool::scenario`], the same runs the `why-pool` widget
//! shows), and one question the chapter's bench data answers.

use serde::{Deserialize, Serialize};

use crate::calc::calculate;
use crate::chapter::why_pool::scenario::{LINE_BUFFER, break_even, run};
use crate::quiz::data::{LessTime, Ratio};
use crate::quiz::{Kind, Page, Quiz, Rng, Solution};
use bufpool::pool::PoolError;
use lab_text::{group_digits, n, t, tf, tp};

/// The 1 MiB comparison of the chapter's measurements.
pub const AT_1_MIB: LessTime = LessTime {
    name: "less-time-1mib",
    ratios: &[Ratio {
        key: "rent_return.1048576.pool_write_vs_fresh_vec_write",
        a: n!("renting 1 MiB from the pool, filling it and returning it"),
        b: n!("allocating a fresh zeroed Vec of 1 MiB, filling it and dropping it"),
        at: n!("at 1 MiB"),
    }],
};

pub const QUIZ: Quiz = Quiz {
    id: "why-pool",
    title: n!("Why pool at all"),
    kinds: &[&FreshBytes, &PoolBufferBytes, &BreakEven, &AT_1_MIB],
    figures: &["rent_return.1048576.pool_write_vs_fresh_vec_write"],
    snippets: false,
};

fn err(e: PoolError) -> String {
    tf!(
        "the lab could not run this: {}",
        crate::pool_words::pool_error(&e)
    )
}

/// "N fresh 128-byte buffers: how many bytes?"
pub struct FreshBytes;
/// "A fresh pool serves N rounds of rent(L), L a bucket length: how many bytes of buffers does it
/// allocate?" — L needs no rounding (bucket rounding is the next chapter's).
pub struct PoolBufferBytes;
/// "F bytes once against B bytes per round: from which round does pooling pay off?"
pub struct BreakEven;

fn rounds_drawn(rng: &mut Rng) -> u64 {
    match rng.below(3) {
        0 => 10u64.pow(rng.below(4) as u32 + 1),
        _ => 2 + rng.below(5_000),
    }
}

impl Kind for FreshBytes {
    type Params = u64;
    fn name(&self) -> &'static str {
        "fresh-bytes"
    }
    fn draw(&self, rng: &mut Rng, _: &Page) -> Result<u64, String> {
        Ok(rounds_drawn(rng))
    }
    fn prompt(&self, n: &u64) -> String {
        tf!(
            "A loop allocates a fresh zeroed buffer of 128 bytes (vec![0u8; 128]) for each order line and drops it. How many bytes does the counting allocator see for {} lines?",
            group_digits(*n)
        )
    }
    fn solve(&self, &n: &u64, _: &Page) -> Result<Solution, String> {
        let r = run(n, LINE_BUFFER).map_err(err)?;
        let (allocations, bytes) = (
            group_digits(r.fresh.allocations),
            group_digits(r.fresh.bytes),
        );
        let why = if r.fresh.measured {
            tf!(
                "The lab counted {} allocations of 128 bytes: {} × 128 = {} bytes, every one of them freed right away and asked for again next round. (.NET counts 152 B per new byte[128]: a 24-byte array header on top; Rust's Vec asks the allocator for the 128 bytes only.)",
                allocations,
                group_digits(n),
                bytes
            )
        } else {
            tf!(
                "The lab ran the loop and computed {} allocations of 128 bytes: {} × 128 = {} bytes, every one of them freed right away and asked for again next round. (.NET counts 152 B per new byte[128]: a 24-byte array header on top; Rust's Vec asks the allocator for the 128 bytes only.)",
                allocations,
                group_digits(n),
                bytes
            )
        };
        Ok(Solution::number(r.fresh.bytes, why)
        .hint(t!("Every line allocates its own buffer: how many bytes does each one ask for, and how many lines are there"))
        .mistake(
            128,
            t!("That is one buffer: dropping it frees it, but the next line allocates again"),
        )
        .mistake(
            n * 152,
            t!("152 B is .NET's new byte[128], header included; Rust's Vec asks the allocator for the 128 bytes only"),
        ))
    }
}

/// Rounds and request size of a [`PoolBufferBytes`] question.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct PoolRounds {
    pub rounds: u64,
    pub size: u64,
}

impl Kind for PoolBufferBytes {
    type Params = PoolRounds;
    fn name(&self) -> &'static str {
        "pool-buffer-bytes"
    }
    fn draw(&self, rng: &mut Rng, _: &Page) -> Result<PoolRounds, String> {
        // Only lengths the pool hands out as they are (16, 32, …, 8,192 bytes): what a request
        // of another size gets is the next chapter's question.
        Ok(PoolRounds {
            rounds: 2 + rng.below(1000),
            size: bufpool::bucket::bucket_length(rng.below(10) as usize) as u64,
        })
    }
    fn prompt(&self, p: &PoolRounds) -> String {
        tf!(
            "A fresh pool serves {} rounds of rent({}) + return; {} bytes is a length the pool hands out as it is. How many bytes of buffers does the pool allocate in total (its statistics, not its own bookkeeping)?",
            group_digits(p.rounds),
            group_digits(p.size),
            group_digits(p.size)
        )
    }
    fn solve(&self, p: &PoolRounds, _: &Page) -> Result<Solution, String> {
        // The prompt says the pool hands the size out as it is: only true of a bucket length.
        if calculate(p.size).length != p.size {
            return Err(tf!("{} is not a bucket length", group_digits(p.size)));
        }
        let r = run(p.rounds, p.size).map_err(err)?;
        Ok(Solution::number(
            r.pool_buffer_bytes,
            tp!(
                r.pool_buffers,
                "The lab ran it: the pool allocated {} buffer of {} bytes in the first round and reused it for all {} rounds, since each round returns it before the next one rents, so {} bytes in total",
                "The lab ran it: the pool allocated {} buffers of {} bytes in the first round and reused them for all {} rounds, since each round returns them before the next one rents, so {} bytes in total",
                group_digits(p.size),
                group_digits(p.rounds),
                group_digits(r.pool_buffer_bytes)
            ),
        )
        .hint(t!("How many buffers does the pool allocate when every round returns before the next rents"))
        .mistake(
            p.rounds * p.size,
            t!("That counts a new buffer every round; but each round returns its buffer before the next one rents"),
        )
        .mistake(
            0,
            t!("A fresh pool holds nothing yet: the first round's rent allocates"),
        ))
    }
}

/// The two costs a [`BreakEven`] question compares, in bytes.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct Costs {
    pub once: u64,
    pub per_round: u64,
}

impl Kind for BreakEven {
    type Params = Costs;
    fn name(&self) -> &'static str {
        "break-even"
    }
    fn draw(&self, rng: &mut Rng, _: &Page) -> Result<Costs, String> {
        Ok(Costs {
            once: 100 + rng.below(3000),
            per_round: rng.pick(&[88, 128, 152, 1_048]),
        })
    }
    fn prompt(&self, c: &Costs) -> String {
        tf!(
            "Pooling costs {} bytes once (first use) and nothing after; a fresh buffer costs {} bytes every round. At which round has the pooled loop allocated no more in total than the fresh one?",
            group_digits(c.once),
            group_digits(c.per_round)
        )
    }
    fn solve(&self, c: &Costs, _: &Page) -> Result<Solution, String> {
        let Costs { once, per_round } = *c;
        let n = break_even(once, per_round)
            .ok_or_else(|| t!("a round that costs nothing never pays back a one-off cost"))?;
        let why = if n > 1 {
            tf!(
                "The lab's break_even: the smallest n with n × {} ≥ {}: {} × {} = {} ≥ {}, while {} × {} = {} is not. It compares two measured numbers; it is not a third measurement",
                per_round,
                once,
                n,
                per_round,
                group_digits(n * per_round),
                once,
                n - 1,
                per_round,
                group_digits((n - 1) * per_round)
            )
        } else {
            tf!(
                "The lab's break_even: the smallest n with n × {} ≥ {}: {} × {} = {} ≥ {}. It compares two measured numbers; it is not a third measurement",
                per_round,
                once,
                n,
                per_round,
                group_digits(n * per_round),
                once
            )
        };
        Ok(Solution::number(n, why)
            .hint(t!("Compare the fresh loop's running total, round × cost, with the pool's one-off cost"))
            .mistake(
                once / per_round,
                t!("Dividing and dropping the remainder stops one round short: at that round the fresh loop has allocated less than the pool's one-off cost"),
            )
            .mistake(
                once / per_round + 2,
                t!("One round too late: the question asks for the first round at which the totals are equal or the fresh loop's is larger"),
            ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quiz::Ask;

    /// Why pool comes before bucket rounding (the next chapter): its pool question needs no
    /// rounding (it once asked what rent(2,406) allocates, which only the next chapter teaches).
    /// It draws only sizes that are a bucket length already, and its answer is what the widget
    /// shows for the same rounds and size: the bytes of the buffers the pool allocated, from its
    /// statistics.
    #[test]
    fn widget_and_quiz_agree_on_the_pools_buffers() {
        let page = Page::default();
        for seed in 0..500 {
            let q = PoolBufferBytes.pose(&mut Rng::new(seed), &page).unwrap();
            let p: PoolRounds = serde_json::from_str(&q.params).unwrap();
            assert_eq!(
                calculate(p.size).length,
                p.size,
                "“{}” needs bucket rounding, taught only in the next chapter",
                q.prompt
            );
            let v = crate::view::view_with(
                "why-pool",
                &[
                    ("why-rounds", &p.rounds.to_string()),
                    ("why-size", &p.size.to_string()),
                ],
            );
            let shown = v
                .value("why-pool-buffer-bytes")
                .unwrap_or_else(|| panic!("{p:?}: {}", v.text()));
            assert_eq!(shown.replace(',', ""), q.right_answer(), "{p:?}");
        }
    }

    /// The fresh loop's bytes: the quiz's `fresh-bytes` answer and the widget's fresh row for the
    /// same number of 128-byte lines.
    #[test]
    fn widget_and_quiz_agree_on_fresh_bytes() {
        let page = Page::default();
        for seed in 0..500 {
            let q = FreshBytes.pose(&mut Rng::new(seed), &page).unwrap();
            let v = crate::view::view_with("why-pool", &[("why-rounds", &q.params)]);
            let shown = v.value("why-fresh-bytes").unwrap();
            assert_eq!(
                shown.trim_end_matches(" B").replace(',', ""),
                q.right_answer(),
                "{} lines",
                q.params
            );
        }
    }

    #[test]
    fn quiz_answers_come_from_runs() {
        let page = Page::default();
        assert!(FreshBytes.replay("1000", &page).unwrap().accepts("128,000"));
        let q = PoolBufferBytes
            .replay(r#"{"rounds":10,"size":2048}"#, &page)
            .unwrap();
        assert!(q.accepts("2048"));
        assert_eq!(q.solution.hint_for("20480"), q.solution.mistakes[0].hint);
        // A size the pool would round is not asked here (the next chapter's rounding).
        assert!(
            PoolBufferBytes
                .replay(r#"{"rounds":10,"size":1025}"#, &page)
                .is_err()
        );
        let q = BreakEven
            .replay(r#"{"once":792,"per_round":152}"#, &page)
            .unwrap();
        assert_eq!(q.right_answer(), "6");
        assert!(
            q.solution.why.contains("6 × 152 = 912 ≥ 792"),
            "{}",
            q.solution.why
        );
        assert!(q.solution.hint_for("5").starts_with("Dividing"));
    }
}

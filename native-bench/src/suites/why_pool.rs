//! Chapter 1: a 128-byte buffer per order line, allocated fresh or rented from a pool.
//! Exact counts from the counting allocator; first use measured in a fresh process.

use anyhow::Result;
use bench_data::Unit;
use bufpool::pool::SharedPool;
use course_pool::alloc_count::measure;

use crate::child;
use crate::measure::Session;
use crate::probes::{FirstUse, pooled_line};
use crate::words;

pub const LINE_BYTES: u64 = 128;
pub const LINES: &[u64] = &[1, 10, 100, 1_000, 10_000, 100_000, 1_000_000];

/// The first round at which `fresh_per_round` bytes per round have cost at least `first_use`
/// bytes (pooled rounds after the first allocate nothing). Round 1 when the first use is free.
pub fn break_even_round(first_use: u64, fresh_per_round: u64) -> Option<u64> {
    (fresh_per_round > 0).then(|| first_use.div_ceil(fresh_per_round).max(1))
}

pub fn run(s: &mut Session) -> Result<()> {
    let pool = SharedPool::<u8>::new();
    pooled_line(&pool, 0); // warm: the pool's first use is measured apart, in a fresh process
    for &n in LINES {
        let ((), fresh) = measure(|| {
            for i in 0..n {
                let mut line = vec![0u8; LINE_BYTES as usize];
                line[0] = i as u8;
                std::hint::black_box(&line);
            }
        })?;
        let ((), pooled) = measure(|| {
            for i in 0..n {
                pooled_line(&pool, i as u8);
            }
        })?;
        for (what, st) in [("fresh_vec", fresh), ("pool", pooled)] {
            let how = if what == "pool" {
                "rented from a warm shared pool"
            } else {
                "a fresh vec![0u8; 128]"
            };
            s.exact(
                &format!("why_pool.{n}.{what}.bytes"),
                &format!(
                    "bytes allocated for {}, {how} per line",
                    words::count(n, "order line", "order lines")
                ),
                Unit::Bytes,
                st.bytes_requested as f64,
            )?;
            s.exact(
                &format!("why_pool.{n}.{what}.allocations"),
                &format!(
                    "allocations for {}, {how} per line",
                    words::count(n, "order line", "order lines")
                ),
                Unit::Count,
                (st.allocations + st.reallocations) as f64,
            )?;
        }
    }
    let fu: FirstUse = child::run("first-use", &[], &[])?;
    let parts = [
        (
            "pool_new",
            fu.pool_new,
            "creating a SharedPool<u8> in a fresh process",
        ),
        (
            "first_round",
            fu.first_round,
            "the first rent + return of a 128-byte line (fresh process)",
        ),
        (
            "second_round",
            fu.second_round,
            "the second rent + return of a 128-byte line (fresh process)",
        ),
    ];
    for (what, c, title) in parts {
        s.exact(
            &format!("why_pool.first_use.{what}.bytes"),
            &format!("bytes allocated by {title}"),
            Unit::Bytes,
            c.bytes as f64,
        )?;
        s.exact(
            &format!("why_pool.first_use.{what}.allocations"),
            &format!("allocations by {title}"),
            Unit::Count,
            c.allocations as f64,
        )?;
    }
    let total = fu.pool_new.bytes + fu.first_round.bytes;
    s.exact(
        "why_pool.first_use.total.bytes",
        "first-use cost of the pool: creation + first rent/return (fresh process)",
        Unit::Bytes,
        total as f64,
    )?;
    new_thread(s, &pool)?;
    if let Some(round) = break_even_round(total, LINE_BYTES) {
        s.exact(
            "why_pool.break_even_round",
            "first round at which fresh 128-byte buffers have allocated as much as the pool's first use",
            Unit::Count,
            round as f64,
        )?;
    }
    Ok(())
}

/// A new thread's first rent, its first return and a second round, from the pool warmed above:
/// the counterpart of the Thai article's 672 B for a new thread's first `Rent`. The counting
/// allocator counts per thread, so each region holds only what that thread's call allocated.
fn new_thread(s: &mut Session, pool: &SharedPool<u8>) -> Result<()> {
    let counts = std::thread::scope(|t| {
        t.spawn(|| -> Result<[course_pool::alloc_count::AllocStats; 3]> {
            let (line, rent) = measure(|| pool.try_rent(LINE_BYTES as usize))?;
            let line = line?;
            let ((), ret) = measure(|| drop(line))?;
            let ((), again) = measure(|| pooled_line(pool, 1))?;
            Ok([rent, ret, again])
        })
        .join()
        .map_err(|_| anyhow::anyhow!("the new thread of why_pool.new_thread panicked"))?
    })?;
    let names = [
        (
            "first_rent",
            "a new thread's first rent of 128 B from a warm pool",
        ),
        ("first_return", "that thread's first return"),
        ("second_round", "that thread's second rent + return"),
    ];
    for ((what, title), st) in names.into_iter().zip(counts) {
        s.exact(
            &format!("why_pool.new_thread.{what}.bytes"),
            &format!("bytes allocated by {title}"),
            Unit::Bytes,
            st.bytes_requested as f64,
        )?;
        s.exact(
            &format!("why_pool.new_thread.{what}.allocations"),
            &format!("allocations by {title}"),
            Unit::Count,
            (st.allocations + st.reallocations) as f64,
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn break_even() {
        // The .NET article: 792 B first use against 152 B per round → round 6.
        assert_eq!(break_even_round(792, 152), Some(6));
        assert_eq!(break_even_round(768, 128), Some(6));
        assert_eq!(break_even_round(769, 128), Some(7));
        assert_eq!(break_even_round(0, 128), Some(1));
        assert_eq!(break_even_round(10, 0), None);
    }
}

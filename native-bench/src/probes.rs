//! What the hidden `__child` subcommand runs: measurements that need a fresh process.
//! Each prints one result line ([`crate::child`]'s protocol) and exits.

use anyhow::{Result, bail};
use bufpool::pool::SharedPool;
use course_pool::alloc_count::{AllocStats, measure};
use serde::{Deserialize, Serialize};

use crate::{child, glibc};

/// The first use of a pool in a fresh process (chapter 1): what creating it allocates, what the
/// first rent + return of a 128-byte line allocates, and what the second one does.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct FirstUse {
    pub pool_new: Counts,
    pub first_round: Counts,
    pub second_round: Counts,
}

/// Bytes and blocks allocated, and bytes still alive at the end.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize)]
pub struct Counts {
    pub bytes: u64,
    pub allocations: u64,
    pub retained_bytes: i64,
}

impl From<AllocStats> for Counts {
    fn from(s: AllocStats) -> Self {
        Counts {
            bytes: s.bytes_requested,
            allocations: s.allocations + s.reallocations,
            retained_bytes: s.net_live_bytes,
        }
    }
}

/// One order line through the pool: rent 128 B, write it, return it.
pub fn pooled_line(pool: &SharedPool<u8>, n: u8) {
    let mut line = pool
        .try_rent(128)
        .unwrap_or_else(|e| panic!("rent 128 B: {e}"));
    line.fill(n);
    std::hint::black_box(&line);
}

fn first_use() -> Result<FirstUse> {
    let (pool, created) = measure(SharedPool::<u8>::new)?;
    let ((), first) = measure(|| pooled_line(&pool, 1))?;
    let ((), second) = measure(|| pooled_line(&pool, 2))?;
    Ok(FirstUse {
        pool_new: created.into(),
        first_round: first.into(),
        second_round: second.into(),
    })
}

/// Runs child probe `probe`.
pub fn child(probe: &str, args: &[String]) -> Result<()> {
    let num = |i: usize| -> Result<usize> {
        match args.get(i).map(|s| s.parse::<usize>()) {
            Some(Ok(n)) => Ok(n),
            _ => bail!("child probe {probe:?}: argument {} must be a number", i + 1),
        }
    };
    match probe {
        "first-use" => child::emit(&first_use()?),
        "threshold" => match args.first().map(String::as_str) {
            // SAFETY: this binary's global allocator is `CountingAlloc<System>` (`main.rs`),
            // which forwards every allocation to glibc's malloc unchanged.
            Some("u8") => child::emit(&unsafe { glibc::probe_threshold::<u8>("u8") }),
            // SAFETY: as for u8.
            Some("i32") => child::emit(&unsafe { glibc::probe_threshold::<i32>("i32") }),
            // SAFETY: as for u8.
            Some("u64") => child::emit(&unsafe { glibc::probe_threshold::<u64>("u64") }),
            other => bail!("child probe threshold: element type {other:?} is not u8, i32 or u64"),
        },
        // SAFETY: as for the threshold probes: the global allocator is glibc's malloc.
        "threshold-cost" => child::emit(&unsafe { glibc::probe_cost(num(0)?, num(1)?) }),
        _ => bail!("no child probe named {probe:?}"),
    }
}

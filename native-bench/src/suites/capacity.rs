//! Chapter 5: bytes allocated per round when `k` buffers are held at once, with the default
//! partitions (one per logical core, 32 buffers each: `1 + P × 32` kept) and with overrides that
//! prove the mechanism. Exact, from the counting allocator; the numbers depend on this machine's
//! core count.

use anyhow::{Result, anyhow};
use bench_data::Unit;
use bufpool::pool::{SharedConfig, SharedPool};
use course_pool::alloc_count::measure;
use lab_text::group_digits;
use serde::Serialize;

use crate::measure::Session;
use crate::words;

pub const HELD: &[usize] = &[1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096];
pub const SIZES: &[usize] = &[1024, 81_920];

/// One round of `held` buffers of `size` bytes: rented all at once, then all returned.
#[derive(Clone, Debug, Serialize)]
pub struct CapacityRow {
    pub size: usize,
    pub held: usize,
    pub partitions: usize,
    pub per_partition: usize,
    /// `1 + P × M`: buffers per size the pool keeps when every buffer is held at once.
    pub capacity: usize,
    /// Bytes allocated by a round after a first, warming round.
    pub bytes_per_round: u64,
    pub allocations_per_round: u64,
    /// Buffers the pool keeps after the round.
    pub kept_after_round: usize,
}

/// Measures one configuration (needs the counting allocator).
pub fn measure_round(size: usize, held: usize, config: SharedConfig) -> Result<CapacityRow> {
    let pool = SharedPool::<u8>::with_config(config).map_err(|e| anyhow!("{e}"))?;
    let mut out = Vec::with_capacity(held);
    let round = |out: &mut Vec<_>| -> Result<()> {
        for _ in 0..held {
            out.push(pool.try_rent(size).map_err(|e| anyhow!("{e}"))?);
        }
        out.clear();
        Ok(())
    };
    round(&mut out)?;
    let (r, st) = measure(|| round(&mut out))?;
    r?;
    Ok(CapacityRow {
        size,
        held,
        partitions: config.partitions,
        per_partition: config.arrays_per_partition,
        capacity: config.capacity_per_bucket(),
        bytes_per_round: st.bytes_requested,
        allocations_per_round: st.allocations + st.reallocations,
        kept_after_round: pool.stats().retained_buffers(),
    })
}

/// The configurations the suite measures: the default and two overrides.
pub fn configs() -> Vec<(&'static str, SharedConfig)> {
    let d = SharedConfig::default();
    vec![
        ("default", d),
        ("p1_m8", d.with_partitions(1).with_arrays_per_partition(8)),
        ("p4_m64", d.with_partitions(4).with_arrays_per_partition(64)),
    ]
}

pub fn run(s: &mut Session) -> Result<()> {
    let d = SharedConfig::default();
    s.exact(
        "capacity.default.partitions",
        "partitions of the default shared pool on this machine (logical cores)",
        Unit::Count,
        d.partitions as f64,
    )?;
    s.exact(
        "capacity.default.kept_max",
        "buffers per size the default pool keeps with every buffer held at once (1 + P × 32)",
        Unit::Count,
        d.capacity_per_bucket() as f64,
    )?;
    for (name, config) in configs() {
        for &size in SIZES {
            for &held in HELD {
                let row = measure_round(size, held, config)?;
                let desc = format!(
                    "{} of {} B held at once, {} × {}",
                    words::count(held as u64, "buffer", "buffers"),
                    group_digits(size as u64),
                    words::count(config.partitions as u64, "partition", "partitions"),
                    config.arrays_per_partition
                );
                s.exact(
                    &format!("capacity.{size}.{name}.{held}.bytes_per_round"),
                    &format!("bytes allocated per round, {desc}"),
                    Unit::Bytes,
                    row.bytes_per_round as f64,
                )?;
                s.exact(
                    &format!("capacity.{size}.{name}.{held}.kept"),
                    &format!("buffers the pool keeps after the round, {desc}"),
                    Unit::Count,
                    row.kept_after_round as f64,
                )?;
            }
        }
    }
    Ok(())
}

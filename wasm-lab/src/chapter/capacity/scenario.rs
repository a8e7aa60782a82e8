//! Capacity and ceilings (chapter 5), the scenario: how many buffers of one size the shared pool
//! keeps (`1 + P × M`), what every round costs beyond that, and which sizes `Create()` keeps at
//! all.
//!
//! [`run_rounds`] is the run the `capacity` widget (`web/capacity.rs`) and the chapter's
//! quiz ([`crate::chapter::capacity::quiz`]) share: a real [`SharedPool`] with the reader's
//! [`SharedConfig`], `K` rents held at once, then `K` returns, round after round. What a
//! round allocates is read twice: from the pool's own statistics (buffers it had to allocate), and
//! from the counting allocator when it is installed (always in the wasm build).
//!
//! ```
//! use wasm_lab::chapter::capacity::scenario::{run_rounds, Setup};
//! // The Thai article's 8-core machine: 1 + 8 × 32 = 257 kept; hold 258 and one is new each round.
//! let setup = Setup { partitions: 8, arrays_per_partition: 32, held: 258, size: 128 };
//! let run = run_rounds(setup, 2).unwrap();
//! assert_eq!(run.capacity, 257);
//! assert_eq!(run.rounds[0].allocated_buffers, 258); // the first round finds an empty pool
//! assert_eq!(run.rounds[0].kept_after_return, 257);
//! assert_eq!(run.rounds[1].allocated_buffers, 1);
//! assert_eq!(run.rounds[1].allocated_bytes, 128); // Rust has no 24-byte array header
//! ```

use std::fmt;
use std::time::Duration;

use serde::Serialize;

use bufpool::bucket::{self, Rounding};
use bufpool::pool::{
    BucketLayout, ConfigurablePool, MAX_PARTITIONS, MemoryPressure, SharedConfig, SharedPool,
};
use course_pool::alloc_count;
use lab_text::{group_digits, t, tf};

/// The largest `M` .NET accepts (`int.MaxValue`: it reads the setting as an `int`).
pub const MAX_ARRAYS_PER_PARTITION: u64 = i32::MAX as u64;
/// Most buffers the widget holds at once.
pub const MAX_HELD: u64 = 100_000;
/// Most bytes the widget holds at once (`K ×` bucket length): the page's memory is the reader's.
pub const MAX_HELD_BYTES: u64 = 64 << 20;
/// Most `P × K` the widget runs: a rent from an emptied pool looks in every partition before it
/// allocates, so a round costs up to `K × P` partition visits. 10,000,000 take about half a
/// second natively; P = 1,000 with K = 100,000 took 5.6 s (and froze the page: found by fuzzing).
pub const MAX_VISITS: u64 = 10_000_000;

/// What the reader sets: `P`, `M`, `K` and a request size in bytes (a pool of `u8`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Setup {
    /// `P`: partitions (.NET: one per logical processor).
    pub partitions: u64,
    /// `M`: buffers per partition per bucket (.NET: 32).
    pub arrays_per_partition: u64,
    /// `K`: buffers held at once in each round.
    pub held: u64,
    /// Request size in bytes.
    pub size: u64,
}

/// Why a [`Setup`] cannot run, in words for the reader.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum SetupError {
    Partitions(u64),
    ArraysPerPartition,
    /// `M` over .NET's limit (it reads `M` as an `int`).
    ArraysTooMany(u64),
    TooManyHeld(u64),
    TooMuchWork {
        partitions: u64,
        held: u64,
    },
    /// One buffer over [`MAX_HELD_BYTES`]: the run rents one to ask `Create()`'s pool whether it
    /// keeps the size, even when K is 0 (a 2 GB rent with K = 0: found by fuzzing).
    BufferTooLarge(u64),
    TooManyBytes {
        held: u64,
        length: u64,
    },
    Pool(String),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self {
            SetupError::Partitions(p) => tf!(
                "P = {} partitions is out of range: the lab's pool takes 1 to {}",
                group_digits(*p),
                group_digits(MAX_PARTITIONS as u64)
            ),
            SetupError::ArraysPerPartition => {
                t!("M must be at least 1 (.NET treats 0 as “use the default 32”)").into_owned()
            }
            SetupError::ArraysTooMany(m) => tf!(
                "M = {} is more than .NET takes: it reads M as an int, at most {}",
                group_digits(*m),
                group_digits(MAX_ARRAYS_PER_PARTITION)
            ),
            SetupError::TooManyHeld(k) => tf!(
                "K = {} buffers is more than this page holds at once (at most {})",
                group_digits(*k),
                group_digits(MAX_HELD)
            ),
            SetupError::TooMuchWork { partitions, held } => tf!(
                "K = {} buffers on P = {} partitions is {} partition visits a round; this page runs at most {}: lower K or P",
                group_digits(*held),
                group_digits(*partitions),
                group_digits(held.saturating_mul(*partitions)),
                group_digits(MAX_VISITS)
            ),
            SetupError::BufferTooLarge(length) => tf!(
                "Size: one buffer of {} bytes is more than this page allocates (at most {}, 64 MiB)",
                group_digits(*length),
                group_digits(MAX_HELD_BYTES)
            ),
            SetupError::TooManyBytes { held, length } => tf!(
                "{} buffers of {} bytes is {} bytes held at once; this page holds at most {} (64 MiB): lower K or the size",
                group_digits(*held),
                group_digits(*length),
                held.checked_mul(*length)
                    .map_or(t!("more than 2^64").into_owned(), group_digits),
                group_digits(MAX_HELD_BYTES)
            ),
            SetupError::Pool(e) => tf!("the pool refused: {}", e),
        };
        f.write_str(&text)
    }
}

impl std::error::Error for SetupError {}

/// One round: `K` rents held at once, then `K` returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Round {
    /// Round number, from 1.
    pub round: u32,
    /// Buffers the pool had to allocate in this round (from its statistics).
    pub allocated_buffers: u64,
    /// `allocated_buffers ×` buffer length: bytes of new buffers.
    pub allocated_bytes: u64,
    /// Bytes the counting allocator saw the rents request (`None` natively without it).
    pub counted_bytes: Option<u64>,
    /// Buffers of this size the pool keeps once all `K` are back.
    pub kept_after_return: u64,
    /// Bytes the pool keeps once all `K` are back.
    pub retained_bytes: u64,
}

/// The whole scenario, for the widget.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CapacityRun {
    pub setup: Setup,
    /// `1 + P × M`, from the configuration.
    pub capacity: u64,
    /// Length of each buffer handed out (the bucket, or the exact size above 2^30; 0 for 0).
    pub buffer_length: u64,
    /// Whether buffers of this size go back into the pool at all.
    pub pooled: bool,
    pub rounds: Vec<Round>,
    /// Buffers still kept after a first High-pressure trim (it only stamps the partitions).
    pub kept_after_first_trim: u64,
    /// Buffers still kept after a second High-pressure trim 11 s later.
    pub kept_after_second_trim: u64,
    /// Whether `ArrayPool<byte>.Create()` (default settings) keeps a buffer of this size.
    pub create_keeps: Option<bool>,
}

impl Setup {
    /// `1 + P × M` ([`bufpool::pool::kept_per_bucket`]), exactly (both are checked first: at
    /// most 4,096 × 2,147,483,647).
    pub fn capacity(&self) -> u64 {
        bufpool::pool::kept_per_bucket(self.partitions, self.arrays_per_partition)
            .unwrap_or(u64::MAX)
    }

    fn check(&self) -> Result<(SharedConfig, u64), SetupError> {
        if !(1..=MAX_PARTITIONS as u64).contains(&self.partitions) {
            return Err(SetupError::Partitions(self.partitions));
        }
        if self.arrays_per_partition == 0 {
            return Err(SetupError::ArraysPerPartition);
        }
        if self.arrays_per_partition > MAX_ARRAYS_PER_PARTITION {
            return Err(SetupError::ArraysTooMany(self.arrays_per_partition));
        }
        if self.held > MAX_HELD {
            return Err(SetupError::TooManyHeld(self.held));
        }
        if self.held.saturating_mul(self.partitions) > MAX_VISITS {
            return Err(SetupError::TooMuchWork {
                partitions: self.partitions,
                held: self.held,
            });
        }
        let length = buffer_length(self.size);
        if length > MAX_HELD_BYTES {
            return Err(SetupError::BufferTooLarge(length));
        }
        if self
            .held
            .checked_mul(length)
            .is_none_or(|b| b > MAX_HELD_BYTES)
        {
            return Err(SetupError::TooManyBytes {
                held: self.held,
                length,
            });
        }
        let config = SharedConfig::new()
            .with_partitions(self.partitions as usize)
            .with_arrays_per_partition(
                usize::try_from(self.arrays_per_partition).unwrap_or(usize::MAX),
            )
            .with_clear_on_return(false);
        Ok((config, length))
    }
}

/// Length of the buffer the shared pool hands out for `size` bytes.
pub(crate) fn buffer_length(size: u64) -> u64 {
    usize::try_from(size).map_or(size, |n| bucket::round(n).length() as u64)
}

/// Runs `rounds` rounds of the scenario on a fresh pool.
///
/// # Errors
///
/// [`SetupError`] for settings out of range, or when the allocator refuses a buffer.
pub fn run_rounds(setup: Setup, rounds: u32) -> Result<CapacityRun, SetupError> {
    run_rounds_traced(setup, rounds).map(|(run, _)| run)
}

/// The pool after one step of [`run_rounds_traced`], for drawing it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Snap {
    /// The step in code.
    pub code: String,
    /// What happened, in a sentence.
    pub text: String,
    /// The bucket's layout (`None` for a size that is never pooled).
    pub layout: Option<BucketLayout<()>>,
    /// Buffers the reader's code holds.
    pub held: u64,
    /// Buffers dropped at this step (by the return, or by a trim).
    pub dropped: u64,
    /// Buffers allocated at this step (the rents the pool could not serve).
    pub fresh: u64,
}

/// [`run_rounds`], with the pool recorded after every rent phase, return phase and trim.
pub fn run_rounds_traced(
    setup: Setup,
    rounds: u32,
) -> Result<(CapacityRun, Vec<Snap>), SetupError> {
    let (config, length) = setup.check()?;
    let mut snaps = Vec::new();
    let pool = SharedPool::<u8>::with_config(config)
        .map_err(|e| SetupError::Pool(crate::pool_words::pool_error(&e)))?;
    let size = setup.size as usize;
    let index = match bucket::round(size) {
        Rounding::Bucket { index, .. } => Some(index),
        _ => None,
    };
    let kept = |pool: &SharedPool<u8>| {
        index
            .and_then(|i| pool.stats().bucket(i).map(|b| b.retained_buffers as u64))
            .unwrap_or(0)
    };
    let mut held: Vec<Box<[u8]>> = Vec::with_capacity(setup.held as usize);
    let mut out = Vec::new();
    for round in 1..=rounds {
        let before = pool.stats().allocated();
        let mut failed = None;
        let mut rent_all = || {
            for _ in 0..setup.held {
                match pool.try_rent_boxed(size) {
                    Ok(b) => held.push(b),
                    Err(e) => {
                        failed = Some(e);
                        break;
                    }
                }
            }
        };
        let counted_bytes = match alloc_count::measure(&mut rent_all) {
            Ok(((), stats)) => Some(stats.bytes_requested),
            Err(_) => {
                rent_all();
                None
            }
        };
        let new = pool.stats().allocated() - before;
        let k = group_digits(setup.held);
        snaps.push(Snap {
            code: tf!(
                "round {}: rent {} buffers of {} bytes, hold them all",
                round,
                k,
                group_digits(setup.size)
            ),
            text: tf!(
                "Round {}: {} rents; {} served from the pool, {} new",
                round,
                k,
                group_digits(held.len() as u64 - new.min(held.len() as u64)),
                group_digits(new)
            ),
            layout: index.map(|i| pool.layout(i)),
            held: held.len() as u64,
            dropped: 0,
            fresh: new,
        });
        let kept_before = kept(&pool);
        for b in held.drain(..) {
            // Every buffer came from this pool: a bucket length, empty or oversize, never refused.
            drop(pool.return_boxed(b, false));
        }
        if let Some(e) = failed {
            return Err(SetupError::Pool(crate::pool_words::pool_error(&e)));
        }
        let allocated_buffers = pool.stats().allocated() - before;
        let kept_after_return = kept(&pool);
        let dropped = (kept_before + setup.held).saturating_sub(kept_after_return);
        snaps.push(Snap {
            code: tf!("round {}: return all {}", round, group_digits(setup.held)),
            text: if index.is_none() {
                tf!(
                    "Round {}: {} returns; buffers of this size are never kept, all {} dropped",
                    round,
                    group_digits(setup.held),
                    group_digits(setup.held)
                )
            } else {
                tf!(
                    "Round {}: {} returns; the pool keeps {} (at most 1 + P × M = {}), {} dropped",
                    round,
                    group_digits(setup.held),
                    group_digits(kept_after_return),
                    group_digits(setup.capacity()),
                    group_digits(dropped)
                )
            },
            layout: index.map(|i| pool.layout(i)),
            held: 0,
            dropped,
            fresh: 0,
        });
        out.push(Round {
            round,
            allocated_buffers,
            allocated_bytes: allocated_buffers.saturating_mul(length),
            counted_bytes,
            kept_after_return,
            retained_bytes: kept_after_return.saturating_mul(length),
        });
    }
    let kept_before = kept(&pool);
    pool.trim(MemoryPressure::High, Duration::ZERO);
    let kept_after_first_trim = kept(&pool);
    snaps.push(Snap {
        code: t!("trim (memory pressure High)").into_owned(),
        text: tf!(
            "A High-pressure trim drops the thread slot's buffer and only stamps the partitions: {} kept, {} dropped",
            group_digits(kept_after_first_trim),
            group_digits(kept_before - kept_after_first_trim)
        ),
        layout: index.map(|i| pool.layout(i)),
        held: 0,
        dropped: kept_before - kept_after_first_trim,
        fresh: 0,
    });
    pool.trim(MemoryPressure::High, Duration::from_secs(11));
    let kept_after_second_trim = kept(&pool);
    snaps.push(Snap {
        code: t!("trim again, 11 s later (High)").into_owned(),
        text: tf!(
            "The second trim, past the stamps' age, empties the partitions: {} kept, {} dropped",
            group_digits(kept_after_second_trim),
            group_digits(kept_after_first_trim - kept_after_second_trim)
        ),
        layout: index.map(|i| pool.layout(i)),
        held: 0,
        dropped: kept_after_first_trim - kept_after_second_trim,
        fresh: 0,
    });
    let run = CapacityRun {
        setup,
        capacity: setup.capacity(),
        buffer_length: length,
        pooled: index.is_some(),
        rounds: out,
        kept_after_first_trim,
        kept_after_second_trim,
        create_keeps: create_keeps(setup.size).map_err(SetupError::Pool)?,
    };
    Ok((run, snaps))
}

/// Whether `ArrayPool<byte>.Create()` with its defaults keeps a buffer of `size` bytes: rent it,
/// return it, rent it again and see whether the pool had to allocate. `None` for 0 (the empty
/// buffer is never pooled, and nothing is allocated).
///
/// # Errors
///
/// The pool's message when the allocator refuses the buffer.
///
/// ```
/// use wasm_lab::chapter::capacity::scenario::create_keeps;
/// assert_eq!(create_keeps(1_048_576), Ok(Some(true)));
/// assert_eq!(create_keeps(1_048_577), Ok(Some(false)));
/// ```
pub fn create_keeps(size: u64) -> Result<Option<bool>, String> {
    if size == 0 {
        return Ok(None);
    }
    let size = usize::try_from(size).map_err(|e| e.to_string())?;
    let pool = ConfigurablePool::<u8>::new();
    let first = pool
        .try_rent_boxed(size)
        .map_err(|e| crate::pool_words::pool_error(&e))?;
    drop(pool.return_boxed(first, false));
    let before = pool.stats().allocated();
    let again = pool
        .try_rent_boxed(size)
        .map_err(|e| crate::pool_words::pool_error(&e))?;
    let kept = pool.stats().allocated() == before;
    drop(pool.return_boxed(again, false));
    Ok(Some(kept))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_thai_articles_override_moves_the_edge_to_65() {
        for (p, m) in [(8, 8), (2, 32)] {
            let run = run_rounds(
                Setup {
                    partitions: p,
                    arrays_per_partition: m,
                    held: 128,
                    size: 128,
                },
                2,
            )
            .unwrap();
            assert_eq!(run.capacity, 65);
            assert_eq!(run.rounds[1].allocated_buffers, 128 - 65);
            assert_eq!(run.rounds[1].allocated_bytes, (128 - 65) * 128);
            assert_eq!(run.rounds[1].kept_after_return, 65);
        }
        let at = |held| {
            run_rounds(
                Setup {
                    partitions: 2,
                    arrays_per_partition: 32,
                    held,
                    size: 128,
                },
                2,
            )
            .unwrap()
            .rounds[1]
                .allocated_buffers
        };
        assert_eq!((at(64), at(65), at(66)), (0, 0, 1));
    }

    #[test]
    fn retention_and_trimming() {
        let run = run_rounds(
            Setup {
                partitions: 2,
                arrays_per_partition: 4,
                held: 5,
                size: 8 << 20,
            },
            1,
        )
        .unwrap();
        assert_eq!(run.rounds[0].kept_after_return, 5);
        assert_eq!(run.rounds[0].retained_bytes, 5 * (8 << 20));
        // A first High trim empties the thread slot and only stamps the partitions.
        assert_eq!(run.kept_after_first_trim, 4);
        assert_eq!(run.kept_after_second_trim, 0);
        assert_eq!(run.create_keeps, Some(false));
    }

    #[test]
    fn sizes_that_are_never_pooled() {
        let zero = run_rounds(
            Setup {
                partitions: 1,
                arrays_per_partition: 1,
                held: 3,
                size: 0,
            },
            2,
        )
        .unwrap();
        assert_eq!((zero.buffer_length, zero.pooled), (0, false));
        assert_eq!(zero.rounds[1].allocated_buffers, 0);
        assert_eq!(zero.create_keeps, None);
    }

    #[test]
    fn bad_setups_are_explained() {
        let ok = Setup {
            partitions: 1,
            arrays_per_partition: 1,
            held: 1,
            size: 1,
        };
        let cases = [
            (
                Setup {
                    partitions: 0,
                    ..ok
                },
                "out of range",
            ),
            (
                Setup {
                    partitions: 5000,
                    ..ok
                },
                "1 to 4,096",
            ),
            (
                Setup {
                    arrays_per_partition: 0,
                    ..ok
                },
                "at least 1",
            ),
            (
                Setup {
                    held: 100_001,
                    ..ok
                },
                "at most 100,000",
            ),
            (
                Setup {
                    held: 100,
                    size: 1 << 20,
                    ..ok
                },
                "64 MiB",
            ),
            (
                Setup {
                    size: u64::MAX,
                    ..ok
                },
                "64 MiB",
            ),
        ];
        for (setup, says) in cases {
            let e = run_rounds(setup, 2).unwrap_err().to_string();
            assert!(e.contains(says), "{setup:?}: {e}");
        }
    }
}

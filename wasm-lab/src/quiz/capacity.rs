//! Capacity and ceilings (chapter 5): how many buffers of one size the shared pool keeps
//! (`1 + P × M`), what every round costs beyond that, and which sizes `Create()` keeps at all.
//!
//! [`run_rounds`] is the scenario the widget and the quiz share: a real [`SharedPool`] with the
//! reader's [`SharedConfig`], `K` rents held at once, then `K` returns, round after round. What a
//! round allocates is read twice: from the pool's own statistics (buffers it had to allocate), and
//! from the counting allocator when it is installed (always in the wasm build).
//!
//! ```
//! use wasm_lab::quiz::capacity::{run_rounds, Setup};
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

use super::{Kind, Quiz, Rng};
use crate::alloc_count;
use crate::bucket::{self, Rounding};
use crate::input::group_digits;
use crate::pool::{ConfigurablePool, MAX_PARTITIONS, MemoryPressure, SharedConfig, SharedPool};

pub const QUIZ: Quiz = Quiz {
    id: "capacity",
    title: "Capacity and ceilings",
    kinds: &[&Capacity, &BytesPerRound, &CreateKeeps, &Override],
};

/// Most buffers the widget holds at once.
pub const MAX_HELD: u64 = 100_000;
/// Most bytes the widget holds at once (`K ×` bucket length): the page's memory is the reader's.
pub const MAX_HELD_BYTES: u64 = 64 << 20;

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
    TooManyHeld(u64),
    TooManyBytes { held: u64, length: u64 },
    Pool(String),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Partitions(p) => write!(
                f,
                "P = {} partitions is out of range: the lab's pool takes 1 to {}",
                group_digits(*p),
                group_digits(MAX_PARTITIONS as u64)
            ),
            SetupError::ArraysPerPartition => {
                write!(
                    f,
                    "M must be at least 1 (.NET treats 0 as “use the default 32”)"
                )
            }
            SetupError::TooManyHeld(k) => write!(
                f,
                "K = {} buffers is more than this page holds at once (at most {})",
                group_digits(*k),
                group_digits(MAX_HELD)
            ),
            SetupError::TooManyBytes { held, length } => write!(
                f,
                "{} buffers of {} bytes is {} bytes held at once; this page holds at most {} (64 MiB): lower K or the size",
                group_digits(*held),
                group_digits(*length),
                group_digits(held.saturating_mul(*length)),
                group_digits(MAX_HELD_BYTES)
            ),
            SetupError::Pool(e) => write!(f, "the pool refused: {e}"),
        }
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
    fn check(&self) -> Result<(SharedConfig, u64), SetupError> {
        if !(1..=MAX_PARTITIONS as u64).contains(&self.partitions) {
            return Err(SetupError::Partitions(self.partitions));
        }
        if self.arrays_per_partition == 0 {
            return Err(SetupError::ArraysPerPartition);
        }
        if self.held > MAX_HELD {
            return Err(SetupError::TooManyHeld(self.held));
        }
        let length = buffer_length(self.size);
        if self.held.saturating_mul(length) > MAX_HELD_BYTES {
            return Err(SetupError::TooManyBytes {
                held: self.held,
                length,
            });
        }
        let config = SharedConfig {
            partitions: self.partitions as usize,
            arrays_per_partition: usize::try_from(self.arrays_per_partition).unwrap_or(usize::MAX),
            clear_on_return: false,
        };
        Ok((config, length))
    }
}

/// Length of the buffer the shared pool hands out for `size` bytes.
fn buffer_length(size: u64) -> u64 {
    usize::try_from(size).map_or(size, |n| bucket::round(n).length() as u64)
}

/// Runs `rounds` rounds of the scenario on a fresh pool.
///
/// # Errors
///
/// [`SetupError`] for settings out of range, or when the allocator refuses a buffer.
pub fn run_rounds(setup: Setup, rounds: u32) -> Result<CapacityRun, SetupError> {
    let (config, length) = setup.check()?;
    let pool =
        SharedPool::<u8>::with_config(config).map_err(|e| SetupError::Pool(e.to_string()))?;
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
                match pool.rent_boxed(size) {
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
        for b in held.drain(..) {
            // Every buffer came from this pool: a bucket length, empty or oversize, never refused.
            drop(pool.return_boxed(b, false));
        }
        if let Some(e) = failed {
            return Err(SetupError::Pool(e.to_string()));
        }
        let allocated_buffers = pool.stats().allocated() - before;
        let kept_after_return = kept(&pool);
        out.push(Round {
            round,
            allocated_buffers,
            allocated_bytes: allocated_buffers.saturating_mul(length),
            counted_bytes,
            kept_after_return,
            retained_bytes: kept_after_return.saturating_mul(length),
        });
    }
    pool.trim(MemoryPressure::High, Duration::ZERO);
    let kept_after_first_trim = kept(&pool);
    pool.trim(MemoryPressure::High, Duration::from_secs(11));
    let kept_after_second_trim = kept(&pool);
    Ok(CapacityRun {
        setup,
        capacity: config.capacity_per_bucket() as u64,
        buffer_length: length,
        pooled: index.is_some(),
        rounds: out,
        kept_after_first_trim,
        kept_after_second_trim,
        create_keeps: create_keeps(setup.size).map_err(SetupError::Pool)?,
    })
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
/// use wasm_lab::quiz::capacity::create_keeps;
/// assert_eq!(create_keeps(1_048_576), Ok(Some(true)));
/// assert_eq!(create_keeps(1_048_577), Ok(Some(false)));
/// ```
pub fn create_keeps(size: u64) -> Result<Option<bool>, String> {
    if size == 0 {
        return Ok(None);
    }
    let size = usize::try_from(size).map_err(|e| e.to_string())?;
    let pool = ConfigurablePool::<u8>::new();
    let first = pool.rent_boxed(size).map_err(|e| e.to_string())?;
    drop(pool.return_boxed(first, false));
    let before = pool.stats().allocated();
    let again = pool.rent_boxed(size).map_err(|e| e.to_string())?;
    let kept = pool.stats().allocated() == before;
    drop(pool.return_boxed(again, false));
    Ok(Some(kept))
}

// === the quiz ===

// Several small numbers travel in the one `u64` a question carries.
fn pack(fields: &[(u64, u32)]) -> u64 {
    let mut v = 0;
    let mut shift = 0;
    for &(x, bits) in fields {
        v |= (x & ((1 << bits) - 1)) << shift;
        shift += bits;
    }
    v
}

fn unpack<const N: usize>(mut v: u64, bits: [u32; N]) -> [u64; N] {
    bits.map(|b| {
        let x = v & ((1 << b) - 1);
        v >>= b;
        x
    })
}

const PM: [u32; 2] = [12, 12];
const PMKS: [u32; 4] = [12, 12, 16, 20];

fn draw_pm(rng: &mut Rng) -> (u64, u64) {
    let p = [1, 2, 4, 6, 8, 12, 16, 20, 32, 64][rng.below(10) as usize];
    let m = [1, 2, 4, 8, 16, 32, 50][rng.below(7) as usize];
    (p, m)
}

fn run_or_explain(setup: Setup) -> Result<CapacityRun, String> {
    run_rounds(setup, 2).map_err(|e| e.to_string())
}

/// "P partitions of M: how many buffers of one size does the pool keep?" — a number.
pub struct Capacity;
/// "Hold K of size S each round: how many bytes does round 2 allocate?" — a number.
pub struct BytesPerRound;
/// "Does `Create()` keep a buffer of L bytes?" — yes or no.
pub struct CreateKeeps;
/// ".NET's two environment overrides on a machine of C cores: what capacity?" — a number.
pub struct Override;

impl Kind for Capacity {
    fn name(&self) -> &'static str {
        "capacity"
    }
    fn draw(&self, rng: &mut Rng) -> u64 {
        let (p, m) = draw_pm(rng);
        pack(&[(p, 12), (m, 12)])
    }
    fn prompt(&self, v: u64) -> String {
        let [p, m] = unpack(v, PM);
        format!(
            "A shared pool has P = {p} partitions of M = {m}. You rent many buffers of one size, hold them all, then return them all. How many does the pool keep?"
        )
    }
    fn expected(&self, v: u64) -> String {
        let [p, m] = unpack(v, PM);
        // Hold more than it could keep, and count what it kept.
        let held = p * m + 9;
        let setup = Setup {
            partitions: p,
            arrays_per_partition: m,
            held,
            size: 16,
        };
        run_or_explain(setup).map_or_else(|e| e, |r| r.rounds[0].kept_after_return.to_string())
    }
    fn explain(&self, v: u64) -> String {
        let [p, m] = unpack(v, PM);
        format!(
            "1 + P × M = 1 + {p} × {m} = {}: each of the {p} partitions keeps {m} per size, and the returning thread's own slot keeps one more (the newest)",
            group_digits(1 + p * m)
        )
    }
}

impl Kind for BytesPerRound {
    fn name(&self) -> &'static str {
        "bytes-per-round"
    }
    fn draw(&self, rng: &mut Rng) -> u64 {
        let p = [1, 2, 4, 8][rng.below(4) as usize];
        let m = [4, 8, 16, 32][rng.below(4) as usize];
        let capacity = 1 + p * m;
        let held = capacity + 1 + rng.below(3 * capacity);
        let size = [100, 128, 129, 500, 1_000, 1_024, 1_025, 4_000][rng.below(8) as usize]
            + rng.below(2) * rng.below(64);
        pack(&[(p, 12), (m, 12), (held, 16), (size, 20)])
    }
    fn prompt(&self, v: u64) -> String {
        let [p, m, k, s] = unpack(v, PMKS);
        format!(
            "P = {p}, M = {m}. Each round you rent K = {} buffers of {} bytes, hold them all, then return them all. From the second round on, how many bytes does each round allocate (Rust: no array header)?",
            group_digits(k),
            group_digits(s)
        )
    }
    fn expected(&self, v: u64) -> String {
        let [p, m, k, s] = unpack(v, PMKS);
        let setup = Setup {
            partitions: p,
            arrays_per_partition: m,
            held: k,
            size: s,
        };
        run_or_explain(setup).map_or_else(|e| e, |r| r.rounds[1].allocated_bytes.to_string())
    }
    fn explain(&self, v: u64) -> String {
        let [p, m, k, s] = unpack(v, PMKS);
        let cap = 1 + p * m;
        let length = buffer_length(s);
        format!(
            "The pool keeps 1 + {p} × {m} = {cap} of them, so each round {} − {cap} = {} are new; each is rounded up to the {}-byte bucket: {} × {} = {} bytes",
            group_digits(k),
            group_digits(k - cap),
            group_digits(length),
            group_digits(k - cap),
            group_digits(length),
            group_digits((k - cap) * length)
        )
    }
}

impl Kind for CreateKeeps {
    fn name(&self) -> &'static str {
        "create-keeps"
    }
    fn choices(&self) -> &'static [&'static str] {
        &["yes", "no"]
    }
    fn draw(&self, rng: &mut Rng) -> u64 {
        let power = 1u64 << (18 + rng.below(4)); // 256 KiB … 2 MiB
        match rng.below(4) {
            0 => power,
            1 => power + 1,
            2 => 1_048_576 + rng.below(3),
            _ => power - rng.below(power / 2),
        }
    }
    fn prompt(&self, v: u64) -> String {
        format!(
            "ArrayPool<byte>.Create() with its defaults: you rent {} bytes and return the array. Does the pool keep it?",
            group_digits(v)
        )
    }
    fn expected(&self, v: u64) -> String {
        match create_keeps(v) {
            Ok(Some(true)) => "yes".into(),
            Ok(_) => "no".into(),
            Err(e) => e,
        }
    }
    fn explain(&self, v: u64) -> String {
        let kept = create_keeps(v) == Ok(Some(true));
        let max = group_digits(crate::pool::DEFAULT_CONFIGURABLE_MAX_LENGTH as u64);
        if kept {
            format!(
                "{} bytes is within Create()'s default maximum of {max} bytes, so the buffer goes back into its bucket and the next rent reuses it",
                group_digits(v)
            )
        } else {
            format!(
                "{} bytes is over Create()'s default maximum of {max} bytes: it gets an exact-length array every time and the return drops it. The shared pool's ceiling is 2^30 = 1,073,741,824 elements, not 1 MiB",
                group_digits(v)
            )
        }
    }
}

const OVERRIDE: [u32; 3] = [12, 12, 12];

impl Kind for Override {
    fn name(&self) -> &'static str {
        "override"
    }
    fn draw(&self, rng: &mut Rng) -> u64 {
        let cores = [2, 4, 8, 16, 20, 32][rng.below(6) as usize];
        // 0 means "not a valid value" (.NET falls back to the default).
        let partitions = [0, 1, 2, 4, 8, 64][rng.below(6) as usize];
        let per = [0, 4, 8, 16, 32][rng.below(5) as usize];
        pack(&[(cores, 12), (partitions, 12), (per, 12)])
    }
    fn prompt(&self, v: u64) -> String {
        let [cores, p, m] = unpack(v, OVERRIDE);
        let show = |x: u64| {
            if x == 0 {
                "0".to_string()
            } else {
                x.to_string()
            }
        };
        format!(
            "A machine with {cores} logical cores runs with MAXPARTITIONCOUNT={} and MAXARRAYSPERPARTITION={}. How many buffers of one size can the shared pool keep?",
            show(p),
            show(m)
        )
    }
    fn expected(&self, v: u64) -> String {
        let (cfg, _) = override_config(v);
        cfg.capacity_per_bucket().to_string()
    }
    fn explain(&self, v: u64) -> String {
        let (cfg, cores) = override_config(v);
        format!(
            "The partition count is capped at the {cores} cores and 0 means “use the default” (cores, and 32 per partition): P = {}, M = {}, so 1 + {} × {} = {}",
            cfg.partitions,
            cfg.arrays_per_partition,
            cfg.partitions,
            cfg.arrays_per_partition,
            cfg.capacity_per_bucket()
        )
    }
}

fn override_config(v: u64) -> (SharedConfig, u64) {
    let [cores, p, m] = unpack(v, OVERRIDE);
    let (p, m) = (p.to_string(), m.to_string());
    let cfg = SharedConfig::from_env_values(Some(&p), Some(&m), cores as usize);
    (cfg, cores)
}

/// Encodes `P` and `M` as the [`Capacity`] kind's value (for tests and pages).
pub fn capacity_value(p: u64, m: u64) -> u64 {
    pack(&[(p, 12), (m, 12)])
}

/// Encodes `P`, `M`, `K` and a size as the [`BytesPerRound`] kind's value.
pub fn bytes_per_round_value(p: u64, m: u64, k: u64, size: u64) -> u64 {
    pack(&[(p, 12), (m, 12), (k, 16), (size, 20)])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quiz::Question;

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

    #[test]
    fn quiz_answers_match_the_formulas() {
        let q = Question::new(&Capacity, capacity_value(8, 32));
        assert!(q.check("257").correct);
        let q = Question::new(&BytesPerRound, bytes_per_round_value(2, 32, 100, 100));
        assert!(q.check("4,480").correct, "{:?}", q.check("4480")); // 35 × 128
        assert!(Question::new(&CreateKeeps, 1_048_576).check("yes").correct);
        assert!(Question::new(&CreateKeeps, 1_048_577).check("no").correct);
        let v = pack(&[(8, 12), (64, 12), (0, 12)]);
        assert!(Question::new(&Override, v).check("257").correct);
        let v = pack(&[(8, 12), (2, 12), (8, 12)]);
        assert!(Question::new(&Override, v).check("17").correct);
    }
}

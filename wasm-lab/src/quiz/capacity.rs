//! The capacity quiz (chapter 5): fresh `P`, `M`, `K` and sizes, graded by running the chapter's
//! scenario. Answers come from [`crate::scenario::capacity`] (the same runs the `capacity`
//! widget shows) and, for .NET's environment overrides, from the pool's own
//! `SharedConfig::from_env_values`.

use super::{Kind, Quiz, Rng};
use crate::input::group_digits;
use crate::pool::SharedConfig;
use crate::scenario::capacity::{CapacityRun, Setup, buffer_length, create_keeps, run_rounds};

pub const QUIZ: Quiz = Quiz {
    id: "capacity",
    title: "Capacity and ceilings",
    kinds: &[&Capacity, &BytesPerRound, &CreateKeeps, &Override],
};

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

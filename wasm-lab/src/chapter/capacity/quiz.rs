//! The capacity quiz (chapter 5): fresh `P`, `M`, `K` and sizes, graded by running the chapter's
//! scenario. Answers come from [`crate::chapter::capacity::scenario`] (the same runs the `capacity`
//! widget shows) and, for .NET's environment overrides, from the pool's own
//! `SharedConfig::from_env_values`.

use bufpool::pool::kept_per_bucket;
use serde::{Deserialize, Serialize};

use crate::chapter::capacity::scenario::{
    CapacityRun, Setup, buffer_length, create_keeps, run_rounds,
};
use crate::quiz::{Kind, Page, Quiz, Rng, Solution};
use bufpool::pool::SharedConfig;
use lab_text::{group_digits, n, t, tf, tp};

pub const QUIZ: Quiz = Quiz {
    id: "capacity",
    title: n!("Capacity and ceilings"),
    kinds: &[
        &Capacity,
        &BytesPerRound,
        &CreateKeeps,
        &Override,
        &BigMachine,
    ],
    figures: &[],
    snippets: false,
};

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

/// A pool's shape: `P` partitions of `M` buffers per size.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct Shape {
    pub partitions: u64,
    pub per_partition: u64,
}

impl Kind for Capacity {
    type Params = Shape;
    fn name(&self) -> &'static str {
        "capacity"
    }
    fn draw(&self, rng: &mut Rng, _: &Page) -> Result<Shape, String> {
        Ok(Shape {
            partitions: rng.pick(&[1, 2, 4, 6, 8, 12, 16, 20, 32, 64]),
            per_partition: rng.pick(&[1, 2, 4, 8, 16, 32, 50]),
        })
    }
    fn prompt(&self, s: &Shape) -> String {
        tf!(
            "A shared pool has P = {} partitions of M = {}. You rent many buffers of one size, hold them all, then return them all. How many does the pool keep?",
            s.partitions,
            s.per_partition
        )
    }
    fn solve(&self, s: &Shape, _: &Page) -> Result<Solution, String> {
        let (p, m) = (s.partitions, s.per_partition);
        // Hold more than it could keep, and count what it kept.
        let setup = Setup {
            partitions: p,
            arrays_per_partition: m,
            held: p * m + 9,
            size: 16,
        };
        let kept = run_or_explain(setup)?.rounds[0].kept_after_return;
        Ok(Solution::number(
            kept,
            tf!(
                "1 + P × M = 1 + {} × {} = {}: each of the {} partitions keeps {} per size, and the returning thread's own slot keeps one more (the newest)",
                p,
                m,
                group_digits(setup.capacity()),
                p,
                m
            ),
        )
        .hint(t!("Count every place a returned buffer can land: the partitions, and one more"))
        .mistake(p * m, t!("The partitions are full, but the returning thread has a slot of its own too"))
        .mistake(1 + m, t!("Every partition keeps M, not just the current processor's")))
    }
}

/// A [`BytesPerRound`] setup: the pool's shape, buffers held per round, and their size.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct Held {
    pub partitions: u64,
    pub per_partition: u64,
    pub held: u64,
    pub size: u64,
}

impl Kind for BytesPerRound {
    type Params = Held;
    fn name(&self) -> &'static str {
        "bytes-per-round"
    }
    fn draw(&self, rng: &mut Rng, _: &Page) -> Result<Held, String> {
        let p = rng.pick(&[1, 2, 4, 8]);
        let m = rng.pick(&[4, 8, 16, 32]);
        let capacity =
            kept_per_bucket(p, m).ok_or_else(|| t!("the drawn pool is too large").into_owned())?;
        let held = capacity + 1 + rng.below(3 * capacity);
        let size = rng.pick(&[100, 128, 129, 500, 1_000, 1_024, 1_025, 4_000])
            + rng.below(2) * rng.below(64);
        Ok(Held {
            partitions: p,
            per_partition: m,
            held,
            size,
        })
    }
    fn prompt(&self, h: &Held) -> String {
        tf!(
            "P = {}, M = {}. Each round you rent K = {} buffers of {} bytes, hold them all, then return them all. From the second round on, how many bytes does each round allocate (Rust: no array header)?",
            h.partitions,
            h.per_partition,
            group_digits(h.held),
            group_digits(h.size)
        )
    }
    fn solve(&self, h: &Held, _: &Page) -> Result<Solution, String> {
        let (p, m, k, s) = (h.partitions, h.per_partition, h.held, h.size);
        let setup = Setup {
            partitions: p,
            arrays_per_partition: m,
            held: k,
            size: s,
        };
        let bytes = run_or_explain(setup)?.rounds[1].allocated_bytes;
        let cap = setup.capacity();
        let length = buffer_length(s);
        Ok(Solution::number(
            bytes,
            tf!(
                "The pool keeps 1 + {} × {} = {} of them, so each round {} − {} = {} are new; each is rounded up to the {}-byte bucket: {} × {} = {} bytes",
                p,
                m,
                cap,
                group_digits(k),
                cap,
                group_digits(k - cap),
                group_digits(length),
                group_digits(k - cap),
                group_digits(length),
                group_digits((k - cap) * length)
            ),
        )
        .hint(t!("The pool serves what it kept; the rest are new buffers of the bucket's length"))
        .mistake((k - cap) * s, t!("The new buffers are rounded up to their bucket's length, not your request"))
        .mistake(k * length, t!("From the second round on, the buffers the pool kept are reused"))
        .mistake((k - p * m) * length, t!("Do not forget the returning thread's own slot: it keeps one more")))
    }
}

impl Kind for CreateKeeps {
    type Params = u64;
    fn name(&self) -> &'static str {
        "create-keeps"
    }
    fn draw(&self, rng: &mut Rng, _: &Page) -> Result<u64, String> {
        let power = 1u64 << (18 + rng.below(4)); // 256 KiB … 2 MiB
        Ok(match rng.below(4) {
            0 => power,
            1 => power + 1,
            2 => 1_048_576 + rng.below(3),
            _ => power - rng.below(power / 2),
        })
    }
    fn prompt(&self, v: &u64) -> String {
        tf!(
            "ArrayPool<byte>.Create() with its defaults: you rent {} bytes and return the array. Does the pool keep it?",
            group_digits(*v)
        )
    }
    fn solve(&self, &v: &u64, _: &Page) -> Result<Solution, String> {
        let kept = create_keeps(v)? == Some(true);
        let max = group_digits(bufpool::pool::DEFAULT_CONFIGURABLE_MAX_LENGTH as u64);
        let why = if kept {
            tf!(
                "{} bytes is within Create()'s default maximum of {} bytes, so the buffer goes back into its bucket and the next rent reuses it",
                group_digits(v),
                max
            )
        } else {
            tf!(
                "{} bytes is over Create()'s default maximum of {} bytes: it gets an exact-length array every time and the return drops it. The shared pool's ceiling is 2^30 = 1,073,741,824 elements, not 1 MiB",
                group_digits(v),
                max
            )
        };
        Ok(Solution::yes_no(
            kept,
            why,
            t!(
                "Create() has a maximum array length of its own, much lower than the shared pool's: where does this request fall"
            ),
        ))
    }
}

/// A machine's cores and the two environment overrides (0: not a valid value).
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct Overrides {
    pub cores: u64,
    pub partitions: u64,
    pub per_partition: u64,
}

fn override_config(o: &Overrides) -> SharedConfig {
    let (p, m) = (o.partitions.to_string(), o.per_partition.to_string());
    SharedConfig::from_env_values(Some(&p), Some(&m), o.cores as usize)
}

impl Kind for Override {
    type Params = Overrides;
    fn name(&self) -> &'static str {
        "override"
    }
    fn draw(&self, rng: &mut Rng, _: &Page) -> Result<Overrides, String> {
        Ok(Overrides {
            cores: rng.pick(&[2, 4, 8, 16, 20, 32]),
            partitions: rng.pick(&[0, 1, 2, 4, 8, 64]),
            per_partition: rng.pick(&[0, 4, 8, 16, 32]),
        })
    }
    fn prompt(&self, o: &Overrides) -> String {
        tf!(
            "A machine with {} logical cores runs with MAXPARTITIONCOUNT={} and MAXARRAYSPERPARTITION={}. How many buffers of one size can the shared pool keep?",
            o.cores,
            o.partitions,
            o.per_partition
        )
    }
    fn solve(&self, o: &Overrides, _: &Page) -> Result<Solution, String> {
        let cfg = override_config(o);
        let naive_p = if o.partitions == 0 {
            o.cores
        } else {
            o.partitions
        };
        let naive_m = if o.per_partition == 0 {
            32
        } else {
            o.per_partition
        };
        Ok(Solution::number(
            cfg.capacity_per_bucket() as u64,
            tf!(
                "The partition count is capped at the {} cores and 0 means “use the default” (cores, and 32 per partition): P = {}, M = {}, so 1 + {} × {} = {}",
                o.cores,
                cfg.partitions,
                cfg.arrays_per_partition,
                cfg.partitions,
                cfg.arrays_per_partition,
                cfg.capacity_per_bucket()
            ),
        )
        .hint(t!("Work out P and M the pool really uses first: a value can be capped or ignored"))
        .mistake(
            kept_per_bucket(naive_p, naive_m).unwrap_or(u64::MAX),
            t!("The pool never uses more partitions than the machine has cores"),
        )
        .mistake(
            naive_p.min(o.cores) * naive_m,
            t!("Partitions × per partition is most of it, but the thread's own slot keeps one more"),
        ))
    }
}

/// "Memory stays high only on the many-core machine": which explanation do the lab's runs support?
pub struct BigMachine;

/// Two machines running the same peak of `held` buffers of `size` bytes.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct Machines {
    pub small: u64,
    pub big: u64,
    pub held: u64,
    pub size: u64,
}

impl Kind for BigMachine {
    type Params = Machines;
    fn name(&self) -> &'static str {
        "big-machine"
    }
    fn draw(&self, rng: &mut Rng, _: &Page) -> Result<Machines, String> {
        Ok(Machines {
            small: rng.pick(&[2, 4]),
            big: rng.pick(&[32, 48, 64]),
            held: rng.pick(&[300, 1_000, 2_500]),
            size: rng.pick(&[1_024, 4_096]),
        })
    }
    fn prompt(&self, m: &Machines) -> String {
        tp!(
            m.held,
            "A service rents {} buffer of {} bytes at its daily peak and returns it afterwards. Between peaks its memory stays much higher on the {}-core production machine than on the {}-core test machine. Which explanation do the lab's runs of the shared pool support?",
            "A service rents {} buffers of {} bytes at its daily peak and returns them all afterwards. Between peaks its memory stays much higher on the {}-core production machine than on the {}-core test machine. Which explanation do the lab's runs of the shared pool support?",
            group_digits(m.size),
            m.big,
            m.small
        )
    }
    fn solve(&self, m: &Machines, _: &Page) -> Result<Solution, String> {
        let kept = |cores: u64| -> Result<(u64, u64), String> {
            let setup = Setup {
                partitions: cores,
                arrays_per_partition: 32,
                held: m.held,
                size: m.size,
            };
            let r = run_or_explain(setup)?;
            Ok((r.rounds[0].kept_after_return, r.rounds[0].retained_bytes))
        };
        let (small_kept, small_bytes) = kept(m.small)?;
        let (big_kept, big_bytes) = kept(m.big)?;
        Ok(Solution::choice(
            t!("the pool keeps more buffers per size on more cores"),
            tf!(
                "The lab ran the peak on both: after the returns the pool kept {} buffers ({} bytes) with P = {} and {} ({} bytes) with P = {}: 1 + P × 32 per size, and P follows the core count. Nothing leaks; the memory is the pool's stock, held until trimmed",
                group_digits(small_kept),
                group_digits(small_bytes),
                m.small,
                group_digits(big_kept),
                group_digits(big_bytes),
                m.big
            ),
        )
        .mistake(
            t!("the buffers leak: they are never returned on the big machine"),
            t!("Every buffer here is returned: count what the pool keeps after the returns on each machine"),
        )
        .mistake(
            t!("the big machine rounds the same request up to larger buffers"),
            t!("The bucket of a request does not depend on the machine: what else in the pool is sized by the core count"),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quiz::Ask;

    /// The widget's run and the quiz's agree for the same P, M, K and size: what the pool keeps,
    /// what round 2 allocates, whether `Create()` keeps a size, and what a peak leaves behind on
    /// a small and a big machine. (The environment overrides are the quiz's alone: the widget
    /// takes P and M as they are.)
    #[test]
    fn widget_and_quiz_agree_on_every_run() {
        use crate::view::view_with;
        let page = Page::default();
        let run = |p: u64, m: u64, k: u64, size: u64| {
            view_with(
                "capacity",
                &[
                    ("cap-p", &p.to_string()),
                    ("cap-m", &m.to_string()),
                    ("cap-k", &k.to_string()),
                    ("cap-size", &size.to_string()),
                ],
            )
        };
        let digits = |v: &crate::view::View, id: &str| {
            v.value(id)
                .unwrap_or_else(|| panic!("{id}: {}", v.text()))
                .replace(',', "")
        };
        // `Create()`'s question on 100 draws: each one rents up to 4 MiB four times, most of this
        // test's time in a debug build.
        for seed in 0..100 {
            let q = CreateKeeps.pose(&mut Rng::new(seed), &page).unwrap();
            let v = view_with("capacity", &[("cap-k", "0"), ("cap-size", &q.params)]);
            let create = v.value("cap-create").unwrap();
            assert!(
                create.starts_with(&q.right_answer()),
                "{}: {create}",
                q.params
            );
        }
        let mut machines = std::collections::BTreeSet::new();
        for seed in 0..500 {
            let mut rng = Rng::new(seed);
            let q = Capacity.pose(&mut rng, &page).unwrap();
            let s: Shape = serde_json::from_str(&q.params).unwrap();
            let v = run(
                s.partitions,
                s.per_partition,
                s.partitions * s.per_partition + 9,
                16,
            );
            assert_eq!(digits(&v, "cap-capacity"), q.right_answer(), "{s:?}");
            assert_eq!(digits(&v, "cap-r1-kept"), q.right_answer(), "{s:?}");

            let q = BytesPerRound.pose(&mut rng, &page).unwrap();
            let h: Held = serde_json::from_str(&q.params).unwrap();
            let v = run(h.partitions, h.per_partition, h.held, h.size);
            assert_eq!(digits(&v, "cap-r2-bytes"), q.right_answer(), "{h:?}");

            // What the peak leaves on each machine, as the explanation quotes it (a few dozen
            // settings, each run once).
            let m = Kind::draw(&BigMachine, &mut rng, &page).unwrap();
            let params = serde_json::to_string(&m).unwrap();
            if !machines.insert(params.clone()) {
                continue;
            }
            let q = BigMachine.replay(&params, &page).unwrap();
            for cores in [m.small, m.big] {
                let v = run(cores, 32, m.held, m.size);
                for id in ["cap-r1-kept", "cap-r1-kept-bytes"] {
                    let shown = v.value(id).unwrap();
                    assert!(q.solution.why.contains(shown), "{m:?} {id} {shown}");
                }
            }
        }
    }

    #[test]
    fn quiz_answers_match_the_formulas() {
        let page = Page::default();
        let q = |k: &dyn Ask, p: &str| k.replay(p, &page).unwrap();
        assert!(q(&Capacity, r#"{"partitions":8,"per_partition":32}"#).accepts("257"));
        let b = q(
            &BytesPerRound,
            r#"{"partitions":2,"per_partition":32,"held":100,"size":100}"#,
        );
        assert!(b.accepts("4,480")); // 35 × 128
        assert!(b.solution.hint_for("3500").contains("bucket"));
        assert!(q(&CreateKeeps, "1048576").accepts("yes"));
        assert!(q(&CreateKeeps, "1048577").accepts("no"));
        assert!(
            q(
                &Override,
                r#"{"cores":8,"partitions":64,"per_partition":0}"#
            )
            .accepts("257")
        );
        assert!(q(&Override, r#"{"cores":8,"partitions":2,"per_partition":8}"#).accepts("17"));
        let big = q(
            &BigMachine,
            r#"{"small":2,"big":64,"held":3000,"size":1024}"#,
        );
        assert!(
            big.solution.why.contains("kept 65 buffers"),
            "{}",
            big.solution.why
        );
        assert!(big.solution.why.contains("2,049"), "{}", big.solution.why);
    }
}

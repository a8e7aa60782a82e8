//! The method quiz (chapter 9): measurement reasoning. Why paired rounds and ratios (a small
//! model of a bench run under changing load, computed here), and three questions the bench data
//! answers: what the noise gate lets the book cite, which peer took less time, and why the cliff
//! is measured in fresh processes.

use lab_text::decimal::fixed;
use serde::{Deserialize, Serialize};

use crate::quiz::data::{Citable, LessTime, Ratio};
use crate::quiz::{Kind, Page, Quiz, Rng, Solution};
use lab_text::{group_digits, n, t, tf};

pub const CITABLE: Citable = Citable {
    name: "citable",
    keys: &[
        "peers.1048576.pool_write",
        "peers.1048576.opool_write",
        "rent_return.1024.fresh_vec",
        "rent_return.1024.pool_write",
        "cliff.fixed.below",
        "cliff.dynamic.first_above",
    ],
};

pub const PEERS: LessTime = LessTime {
    name: "peer-less-time",
    ratios: &[
        Ratio {
            key: "peers.1048576.pool_vs_system_write",
            a: n!("this course's pool (rent, fill, return)"),
            b: n!("System malloc + fill + free"),
            at: n!("at 1 MiB"),
        },
        Ratio {
            key: "peers.1048576.pool_vs_object_pool_write",
            a: n!("this course's pool (rent, fill, return)"),
            b: n!("the object-pool crate (pull, fill, drop)"),
            at: n!("at 1 MiB"),
        },
        Ratio {
            key: "peers.1048576.pool_vs_mimalloc_write",
            a: n!("this course's pool (rent, fill, return)"),
            b: n!("mimalloc alloc + fill + free"),
            at: n!("at 1 MiB"),
        },
    ],
};

/// Figures of the [`AfterFree`] question.
pub const PROCESSES_KEY: &str = "cliff.processes";
pub const AFTER_FREE_MMAPPED_KEY: &str = "cliff.dynamic.after_free_mmapped";

pub const QUIZ: Quiz = Quiz {
    id: "method",
    title: n!("Method and limits"),
    kinds: &[&PairedRatio, &CITABLE, &PEERS, &AfterFree],
    figures: &[
        "peers.1048576.pool_write",
        "peers.1048576.opool_write",
        "rent_return.1024.fresh_vec",
        "rent_return.1024.pool_write",
        "cliff.fixed.below",
        "cliff.dynamic.first_above",
        "peers.1048576.pool_vs_system_write",
        "peers.1048576.pool_vs_object_pool_write",
        "peers.1048576.pool_vs_mimalloc_write",
        PROCESSES_KEY,
        AFTER_FREE_MMAPPED_KEY,
    ],
    snippets: false,
};

/// "A background job slows the second half of the run: what ratio does each design report?"
pub struct PairedRatio;
/// "After the first free, in how many fresh processes was the edge buffer still mmapped?"
pub struct AfterFree;

/// Two operations' true costs and the slowdown a background job adds to the run's second half.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct Load {
    /// Nanoseconds per operation, undisturbed.
    pub a: u64,
    pub b: u64,
    /// Slowdown in the second half, in tenths (15 = 1.5×).
    pub slowdown: u64,
}

/// The ratio `B ÷ A` a bench of 20 batches reports: the median of per-pair ratios when A and B
/// take turns (paired), or median(B) ÷ median(A) when all of A runs first and all of B after.
pub fn measured_ratio(l: &Load, paired: bool) -> f64 {
    const BATCHES: usize = 20;
    let load = |i: usize| {
        if i < BATCHES / 2 {
            1.0
        } else {
            l.slowdown as f64 / 10.0
        }
    };
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        (v[v.len() / 2 - 1] + v[v.len() / 2]) / 2.0
    };
    if paired {
        median(
            (0..BATCHES)
                .map(|i| (l.b as f64 * load(i)) / (l.a as f64 * load(i)))
                .collect(),
        )
    } else {
        // A takes the first half of the batches, B the second.
        let a: Vec<f64> = (0..BATCHES / 2).map(|i| l.a as f64 * load(i)).collect();
        let b: Vec<f64> = (BATCHES / 2..BATCHES)
            .map(|i| l.b as f64 * load(i))
            .collect();
        median(b) / median(a)
    }
}

fn ratio(r: f64) -> String {
    format!("{}×", fixed(r, 2))
}

impl Kind for PairedRatio {
    type Params = Load;
    fn name(&self) -> &'static str {
        "paired-ratio"
    }
    fn draw(&self, rng: &mut Rng, _: &Page) -> Result<Load, String> {
        let a = 10 + rng.below(40);
        Ok(Load {
            a,
            b: a + 5 + rng.below(30),
            slowdown: 13 + rng.below(18),
        })
    }
    fn prompt(&self, l: &Load) -> String {
        tf!(
            "Operation A takes {} ns and B {} ns. Halfway through a run of 20 batches a background job slows the machine by {}×. The bench runs A and B in paired rounds (they take turns, batch by batch) and reports the median of the per-round ratios. What B ÷ A does it report?",
            l.a,
            l.b,
            fixed(l.slowdown as f64 / 10.0, 1)
        )
    }
    fn solve(&self, l: &Load, _: &Page) -> Result<Solution, String> {
        let paired = measured_ratio(l, true);
        let unpaired = measured_ratio(l, false);
        Ok(Solution::choice(
            ratio(paired),
            tf!(
                "In every round A and B ran under the same load, so the slowdown cancels out of each round's ratio: {} ÷ {} = {}. Timing all of A first and all of B after would have reported {}: the background job would have been charged to B. That is why the book cites paired ratios, and absolute times only when the noise is low",
                l.b,
                l.a,
                ratio(paired),
                ratio(unpaired)
            ),
        )
        .mistake(
            ratio(unpaired),
            t!("That charges the whole slowdown to B, as timing all of A first and all of B after would: in paired rounds both sides see the same load"),
        )
        .mistake(
            ratio(l.a as f64 / l.b as f64),
            t!("That is A ÷ B; the question asks for B ÷ A"),
        )
        .mistake(
            ratio(paired * l.slowdown as f64 / 10.0),
            t!("The slowdown hits both sides of each pair alike: does it survive in their ratio"),
        ))
    }
}

/// The run size an [`AfterFree`] question quotes.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct Processes {
    pub processes: u64,
}

impl Kind for AfterFree {
    type Params = Processes;
    fn name(&self) -> &'static str {
        "after-free-mmapped"
    }
    fn draw(&self, _: &mut Rng, page: &Page) -> Result<Processes, String> {
        page.figure(AFTER_FREE_MMAPPED_KEY)?;
        let processes = page.figure(PROCESSES_KEY)?.value.round() as u64;
        Ok(Processes { processes })
    }
    fn prompt(&self, p: &Processes) -> String {
        tf!(
            "The cliff bench starts {} fresh processes, each allocating a buffer just past the mmap edge, freeing it, and allocating it again (glibc's default, dynamic threshold). In how many of them was the second buffer still served by mmap?",
            group_digits(p.processes)
        )
    }
    fn solve(&self, p: &Processes, page: &Page) -> Result<Solution, String> {
        let f = page.figure(AFTER_FREE_MMAPPED_KEY)?;
        let n = f.value.round() as u64;
        Ok(Solution::number(
            n,
            tf!(
                "Measured on {}: {} of {} ({}). Freeing an mmapped chunk raises glibc's dynamic threshold to its size, so the same request is then served from the heap: a process measures the cliff only once, which is why the bench starts a fresh process for every sample",
                page.machine,
                group_digits(n),
                group_digits(p.processes),
                f.title
            ),
        )
        .hint(t!(
            "What does glibc's dynamic threshold do when an mmapped chunk is freed"
        ))
        .mistake(
            p.processes,
            t!("The first buffer was mmapped, but freeing it changes glibc's threshold for the next one"),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairing_cancels_the_load() {
        let l = Load {
            a: 10,
            b: 12,
            slowdown: 15,
        };
        assert!((measured_ratio(&l, true) - 1.2).abs() < 1e-9);
        assert!((measured_ratio(&l, false) - 1.8).abs() < 1e-9);
    }
}

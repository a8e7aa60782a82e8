//! The return contract (chapter 4): the runs the return-contract widget shows — double return,
//! use after return, foreign return, the missing `finally` — on the handle API, and the live
//! quiz graded by the same runs.
//!
//! ```
//! use wasm_lab::quiz::contract::double_return;
//! let run = double_return(11, true, false).unwrap();
//! assert!(run.second_return.is_none()); // no error: .NET does not notice either
//! assert!(run.same_buffer);             // two renters, one buffer
//! assert_eq!(run.r2_reads, 11);         // r1[0] = 11, read through r2
//! let checked = double_return(11, true, true).unwrap();
//! assert!(checked.second_return.unwrap().contains("returned twice"));
//! assert!(!checked.same_buffer);
//! ```

use serde::Serialize;

use super::stale::lab_pool;
use super::{Kind, Quiz, Rng};
use crate::alloc_count::{self, AllocStats};
use crate::bucket::bucket_of_length;
use crate::input::group_digits;
use crate::pool::{Handle, PoolError, SharedConfig};

/// The largest foreign buffer the widget allocates.
pub const MAX_FOREIGN: u64 = 1 << 20;
/// The most rounds the missing-`finally` run does.
pub const MAX_ROUNDS: u64 = 100_000;
/// The buffer size of the missing-`finally` run (the Thai article's order-line buffer).
pub const LINE_BUFFER: usize = 128;

pub const QUIZ: Quiz = Quiz {
    id: "return-contract",
    title: "The return contract",
    kinds: &[
        &SharedAfterReturns,
        &R2Reads,
        &FreshReads,
        &ForeignAccepted,
        &ForgottenReturn,
    ],
};

/// A pool call's outcome as the widget shows it: `None` for "no error".
fn refused(r: Result<(), PoolError>) -> Option<String> {
    r.err().map(|e| e.to_string())
}

/// Double return: rent `x`, return it (twice if `twice`), rent `r1` and `r2`, set `r1[0]`, read
/// `r2[0]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DoubleReturn {
    /// The second return's error, if it was refused (checked mode); `None` if accepted or not made.
    pub second_return: Option<String>,
    /// Whether `r1` and `r2` are the same buffer (`ReferenceEquals(r1, r2)`).
    pub same_buffer: bool,
    /// `r2[0]` after `r1[0] = value`.
    pub r2_reads: u8,
}

pub fn double_return(value: u8, twice: bool, checked: bool) -> Result<DoubleReturn, PoolError> {
    let pool = lab_pool::<u8>()?.with_checked(checked);
    let x = pool.rent(64)?;
    pool.return_handle(&x, false)?;
    let second_return = if twice {
        refused(pool.return_handle(&x, false))
    } else {
        None
    };
    let r1 = pool.rent(64)?;
    let r2 = pool.rent(64)?;
    r1.write(0, value)?;
    Ok(DoubleReturn {
        second_return,
        same_buffer: r1.ptr_eq(&r2),
        r2_reads: r2.read(0)?,
    })
}

/// Use after return: rent `stale`, return it, rent `fresh`, `fresh[0] = fresh_value`, then old
/// code writes `stale[0] = stale_value`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct UseAfterReturn {
    /// Whether `fresh` is the buffer `stale` still points to.
    pub same_buffer: bool,
    /// The stale write's error (checked mode); `None` if it went through.
    pub stale_write: Option<String>,
    /// `fresh[0]` at the end.
    pub fresh_reads: u8,
}

pub fn use_after_return(
    fresh_value: u8,
    stale_value: u8,
    checked: bool,
) -> Result<UseAfterReturn, PoolError> {
    let pool = lab_pool::<u8>()?.with_checked(checked);
    let stale = pool.rent(64)?;
    pool.return_handle(&stale, false)?;
    let fresh = pool.rent(64)?;
    fresh.write(0, fresh_value)?;
    let stale_write = refused(stale.write(0, stale_value));
    Ok(UseAfterReturn {
        same_buffer: fresh.ptr_eq(&stale),
        stale_write,
        fresh_reads: fresh.read(0)?,
    })
}

/// Foreign return: `mine = new byte[length]`, `mine[0] = value`, `Return(mine)`, then `Rent(length)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ForeignReturn {
    /// The return's error, if refused; `None` if accepted.
    pub refused: Option<String>,
    /// Whether `Rent(length)` then handed out `mine` itself.
    pub next_is_mine: bool,
    /// `got[0]` of that rent (`None` for the empty buffer of `Rent(0)`).
    pub next_reads: Option<u8>,
}

/// Why a widget value cannot run.
pub fn check_foreign_length(length: u64) -> Result<usize, String> {
    if length > MAX_FOREIGN {
        return Err(format!(
            "This widget allocates the foreign buffer in your browser: choose at most {} elements",
            group_digits(MAX_FOREIGN)
        ));
    }
    Ok(length as usize)
}

pub fn foreign_return(length: usize, value: u8, checked: bool) -> Result<ForeignReturn, PoolError> {
    let pool = lab_pool::<u8>()?.with_checked(checked);
    let mine = Handle::from_vec(vec![0u8; length]);
    if length > 0 {
        mine.write(0, value)?;
    }
    let refused = refused(pool.return_handle(&mine, false));
    let got = pool.rent(length)?;
    Ok(ForeignReturn {
        refused,
        next_is_mine: got.ptr_eq(&mine),
        next_reads: got.read(0).ok(),
    })
}

/// The missing `finally`: a pool holding its full stock of 128-byte buffers, then `rounds`
/// iterations that rent, fail, and return (or not).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Forgotten {
    /// Buffers the pool held when the loop started (`1 + P × M` = 33 with one partition of 32).
    pub stock: usize,
    /// Buffers the pool had to allocate during the loop.
    pub new_buffers: u64,
    /// What the counting allocator saw during the loop, if it is the global allocator.
    pub alloc: Option<AllocStats>,
}

/// Runs the loop. An error stands for the exception of the article's loop: the `finally`
/// version returns the buffer on that path, the other one never reaches its return.
pub fn forgotten_return(rounds: u64, with_finally: bool) -> Result<Forgotten, PoolError> {
    let rounds = rounds.min(MAX_ROUNDS);
    let pool = lab_pool::<u8>()?;
    let stock = SharedConfig {
        partitions: 1,
        ..SharedConfig::default()
    }
    .capacity_per_bucket();
    // Warm-up: hold the pool's full capacity at once, then return it all.
    let held = (0..stock)
        .map(|_| pool.rent(LINE_BUFFER))
        .collect::<Result<Vec<_>, _>>()?;
    for h in &held {
        pool.return_handle(h, false)?;
    }
    drop(held);
    let before = pool.stats().allocated();
    let work = || -> Result<(), PoolError> {
        for _ in 0..rounds {
            let buf = pool.rent(LINE_BUFFER)?;
            let failed: Result<(), &str> = Err(std::hint::black_box("boom"));
            if with_finally {
                // `finally { pool.Return(buf); }` runs on the error path too.
                pool.return_handle(&buf, false)?;
            } else if failed.is_ok() {
                // The return is the last line of the `try`: the error skips it.
                pool.return_handle(&buf, false)?;
            }
            drop(std::hint::black_box(buf));
        }
        Ok(())
    };
    let alloc = match alloc_count::measure(work) {
        Ok((r, stats)) => {
            r?;
            Some(stats)
        }
        Err(_) => {
            work()?;
            None
        }
    };
    Ok(Forgotten {
        stock,
        new_buffers: pool.stats().allocated() - before,
        alloc,
    })
}

fn yes_no(b: bool) -> String {
    if b { "yes" } else { "no" }.into()
}

fn err(e: PoolError) -> String {
    format!("the lab could not run this: {e}")
}

/// "Return once / twice (checked or not): do the next two renters share a buffer?"
pub struct SharedAfterReturns;
/// "After a double return, r1[0] = V: what does r2[0] read?"
pub struct R2Reads;
/// "fresh[0] = F, then stale[0] = W through a returned handle: what does fresh[0] read?"
pub struct FreshReads;
/// "Is a foreign buffer of length L accepted?"
pub struct ForeignAccepted;
/// "N rounds that forget to return, on a pool with 33 spare buffers: how many new buffers?"
pub struct ForgottenReturn;

impl Kind for SharedAfterReturns {
    fn name(&self) -> &'static str {
        "shared-after-returns"
    }
    fn choices(&self) -> &'static [&'static str] {
        &["yes", "no"]
    }
    fn draw(&self, rng: &mut Rng) -> u64 {
        // bit 0: returned twice; bit 1: checked mode. Mostly the .NET case.
        match rng.below(4) {
            0 => 0,
            1 => 3,
            _ => 1,
        }
    }
    fn prompt(&self, v: u64) -> String {
        format!(
            "{}You rent 64 bytes as x and return x {}. Then r1 and r2 each rent 64 bytes. Do r1 and r2 hold the same buffer?",
            if v & 2 != 0 {
                "Checked mode is on. "
            } else {
                "A pool with .NET's rules. "
            },
            if v & 1 != 0 { "twice in a row" } else { "once" }
        )
    }
    fn expected(&self, v: u64) -> String {
        double_return(1, v & 1 != 0, v & 2 != 0).map_or_else(err, |r| yes_no(r.same_buffer))
    }
    fn explain(&self, v: u64) -> String {
        match double_return(1, v & 1 != 0, v & 2 != 0) {
            Ok(r) => match (&r.second_return, v & 1 != 0) {
                (Some(e), _) => format!(
                    "The lab ran it: checked mode refused the second return (“{e}”), so x went back once and only r1 got it; r2 got a new buffer."
                ),
                (None, true) => "The lab ran it: the pool accepted the second return without a word and kept x twice (once in the thread slot, once in a partition), so r1 and r2 both got x — ReferenceEquals(r1, r2) = True.".into(),
                (None, false) => "The lab ran it: x went back once, r1 got it, and the pool had to allocate a new buffer for r2.".into(),
            },
            Err(e) => err(e),
        }
    }
}

impl Kind for R2Reads {
    fn name(&self) -> &'static str {
        "r2-reads"
    }
    fn draw(&self, rng: &mut Rng) -> u64 {
        1 + rng.below(255)
    }
    fn prompt(&self, v: u64) -> String {
        format!(
            "x was returned twice. r1 and r2 then rent 64 bytes each, and r1 writes r1[0] = {v}. What does r2[0] read?"
        )
    }
    fn expected(&self, v: u64) -> String {
        double_return(v as u8, true, false).map_or_else(err, |r| r.r2_reads.to_string())
    }
    fn explain(&self, v: u64) -> String {
        match double_return(v as u8, true, false) {
            Ok(r) => format!(
                "The lab ran it: r1 and r2 are {} buffer, so r1's write is r2's data: r2[0] reads {}. Two parts of a program each believe they own a buffer they share (CWE-415, double free, in Microsoft's words).",
                if r.same_buffer {
                    "the same"
                } else {
                    "a different"
                },
                r.r2_reads
            ),
            Err(e) => err(e),
        }
    }
}

fn fresh_values(v: u64) -> (u8, u8) {
    ((v >> 8) as u8, v as u8)
}

impl Kind for FreshReads {
    fn name(&self) -> &'static str {
        "fresh-reads"
    }
    fn draw(&self, rng: &mut Rng) -> u64 {
        let fresh = 1 + rng.below(255);
        let stale = (fresh + 1 + rng.below(254)) % 256;
        fresh << 8 | stale
    }
    fn prompt(&self, v: u64) -> String {
        let (fresh, stale) = fresh_values(v);
        format!(
            "Old code returns its buffer but keeps the reference as stale. A new renter rents the same size as fresh and writes a price, fresh[0] = {fresh}. Then the old code writes stale[0] = {stale}. What does fresh[0] read?"
        )
    }
    fn expected(&self, v: u64) -> String {
        let (fresh, stale) = fresh_values(v);
        use_after_return(fresh, stale, false).map_or_else(err, |r| r.fresh_reads.to_string())
    }
    fn explain(&self, v: u64) -> String {
        let (fresh, stale) = fresh_values(v);
        match use_after_return(fresh, stale, false) {
            Ok(r) => format!(
                "The lab ran it: fresh {} the buffer stale still points to, and the pool does not check, so the old write lands in the new renter's data: fresh[0] reads {} instead of {fresh} (use after free, CWE-416). Checked mode would refuse the stale write.",
                if r.same_buffer { "is" } else { "is not" },
                r.fresh_reads
            ),
            Err(e) => err(e),
        }
    }
}

impl Kind for ForeignAccepted {
    fn name(&self) -> &'static str {
        "foreign-accepted"
    }
    fn choices(&self) -> &'static [&'static str] {
        &["yes", "no"]
    }
    fn draw(&self, rng: &mut Rng) -> u64 {
        match rng.below(3) {
            0 => 16 << rng.below(13),
            1 => (16 << rng.below(13)) + 1 + rng.below(15),
            _ => 1 + rng.below(65_536),
        }
    }
    fn prompt(&self, l: u64) -> String {
        format!(
            "You create a byte buffer of length {} yourself (new byte[{l}]: it never came from the pool) and return it to the shared pool. Does the pool accept it?",
            group_digits(l)
        )
    }
    fn expected(&self, l: u64) -> String {
        foreign_return(l as usize, 77, false).map_or_else(err, |r| yes_no(r.refused.is_none()))
    }
    fn explain(&self, l: u64) -> String {
        match foreign_return(l as usize, 77, false) {
            Ok(r) => match (&r.refused, bucket_of_length(l as usize)) {
                (None, Some(b)) => format!(
                    "The lab ran it: {} is the length of bucket {b}, and the pool checks only the length, not where the buffer came from — it accepted it, and the next Rent({l}) handed out your buffer{}.",
                    group_digits(l),
                    r.next_reads
                        .map_or(String::new(), |x| format!(" with your value {x} in it"))
                ),
                (None, None) => format!(
                    "The lab ran it: a length of {} is not pooled at all, so the return is silently ignored.",
                    group_digits(l)
                ),
                (Some(e), _) => format!(
                    "The lab ran it: {} is not a bucket length (buckets are 16, 32, 64, … powers of two), so the pool refused it: “{e}”.",
                    group_digits(l)
                ),
            },
            Err(e) => err(e),
        }
    }
}

impl Kind for ForgottenReturn {
    fn name(&self) -> &'static str {
        "forgotten-return"
    }
    fn draw(&self, rng: &mut Rng) -> u64 {
        1 + rng.below(120)
    }
    fn prompt(&self, n: u64) -> String {
        format!(
            "The lab's pool holds its full stock of 33 spare 128-byte buffers (1 + P × 32 with P = 1). A loop rents 128 bytes, hits an error and never reaches its return (no finally) — {n} rounds. How many new buffers does the pool allocate?"
        )
    }
    fn expected(&self, n: u64) -> String {
        forgotten_return(n, false).map_or_else(err, |r| r.new_buffers.to_string())
    }
    fn explain(&self, n: u64) -> String {
        match forgotten_return(n, false) {
            Ok(r) => format!(
                "The lab ran it: the first {} rounds were served from the stock, so they cost nothing — exactly why a 10-round test cannot see this bug; each round after that allocated a new buffer: {} in {n} rounds. With the return in a finally (or a Rust guard), the answer is 0.",
                r.stock.min(n as usize),
                r.new_buffers
            ),
            Err(e) => err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quiz::Question;

    #[test]
    fn the_articles_runs() {
        let d = double_return(11, true, false).unwrap();
        assert_eq!(
            (d.second_return, d.same_buffer, d.r2_reads),
            (None, true, 11)
        );
        let once = double_return(11, false, false).unwrap();
        assert!(!once.same_buffer && once.r2_reads == 0);
        let u = use_after_return(200, 99, false).unwrap();
        assert_eq!(
            (u.same_buffer, u.stale_write, u.fresh_reads),
            (true, None, 99)
        );
        let c = use_after_return(200, 99, true).unwrap();
        assert!(
            c.stale_write
                .unwrap()
                .contains("used after it was returned")
        );
        assert_eq!(c.fresh_reads, 200);
        let f = foreign_return(128, 77, false).unwrap();
        assert_eq!(
            (f.refused, f.next_is_mine, f.next_reads),
            (None, true, Some(77))
        );
        let f = foreign_return(100, 77, false).unwrap();
        assert_eq!(
            f.refused.as_deref(),
            Some(
                "The buffer is not associated with this pool and may not be returned to it. (length 100 is not a bucket length)"
            )
        );
        assert!(!f.next_is_mine);
        let f = foreign_return(128, 77, true).unwrap();
        assert!(f.refused.unwrap().contains("never rented from this pool"));
        let f = foreign_return(0, 77, false).unwrap();
        assert_eq!((f.refused, f.next_reads), (None, None));
    }

    #[test]
    fn forgetting_costs_nothing_until_the_stock_runs_out() {
        for n in [1, 10, 33] {
            assert_eq!(forgotten_return(n, false).unwrap().new_buffers, 0, "{n}");
        }
        assert_eq!(forgotten_return(34, false).unwrap().new_buffers, 1);
        assert_eq!(forgotten_return(1_000, false).unwrap().new_buffers, 967);
        assert_eq!(forgotten_return(1_000, true).unwrap().new_buffers, 0);
        assert_eq!(forgotten_return(10, true).unwrap().stock, 33);
    }

    #[test]
    fn quiz_answers_come_from_runs() {
        assert!(Question::new(&SharedAfterReturns, 1).check("yes").correct);
        assert!(Question::new(&SharedAfterReturns, 3).check("no").correct);
        assert!(Question::new(&SharedAfterReturns, 0).check("no").correct);
        assert!(Question::new(&R2Reads, 11).check("11").correct);
        assert!(
            Question::new(&FreshReads, 200 << 8 | 99)
                .check("99")
                .correct
        );
        assert!(Question::new(&ForeignAccepted, 128).check("yes").correct);
        assert!(Question::new(&ForeignAccepted, 100).check("no").correct);
        assert!(Question::new(&ForgottenReturn, 10).check("0").correct);
        assert!(Question::new(&ForgottenReturn, 40).check("7").correct);
        let f = Question::new(&ForeignAccepted, 100).check("yes");
        assert!(
            f.explanation.contains("not associated"),
            "{}",
            f.explanation
        );
    }

    #[test]
    fn widget_limits() {
        assert_eq!(check_foreign_length(128), Ok(128));
        assert!(
            check_foreign_length(MAX_FOREIGN + 1)
                .unwrap_err()
                .contains("at most 1,048,576")
        );
    }
}

//! The return-contract quiz (chapter 4): fresh values, lengths and round counts, graded by
//! running the chapter's scenario. Every answer comes from [`crate::scenario::return_contract`], the same
//! runs the `return-contract` widget shows.

use super::{Kind, Quiz, Rng};
use crate::bucket::bucket_of_length;
use crate::input::group_digits;
use crate::pool::PoolError;
use crate::scenario::return_contract::{
    double_return, foreign_return, forgotten_return, use_after_return,
};

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

fn yes_no(b: bool) -> String {
    if b { "yes" } else { "no" }.into()
}

fn err(e: PoolError) -> String {
    format!("the lab could not run this: {e}")
}

/// "Return once / twice (checked or not): do the next two renters share a buffer?"
pub struct SharedAfterReturns;
/// "After a double return, `r1[0] = V`: what does `r2[0]` read?"
pub struct R2Reads;
/// "`fresh[0] = F`, then `stale[0] = W` through a returned handle: what does `fresh[0]` read?"
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
}

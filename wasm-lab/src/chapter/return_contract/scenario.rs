//! The return contract (chapter 4), the scenario: double return, use after return, foreign
//! return and the missing `finally`, run on the handle API. The `return-contract` widget
//! (`web/return_contract.rs`) shows these runs; the chapter's quiz ([`crate::chapter::return_contract::quiz`]) grades its
//! answers with them.
//!
//! ```
//! use wasm_lab::chapter::return_contract::scenario::double_return;
//! let run = double_return(11, true, false).unwrap();
//! assert!(run.second_return.is_none()); // no error: .NET does not notice either
//! assert!(run.same_buffer);             // two renters, one buffer
//! assert_eq!(run.r2_reads, 11);         // r1[0] = 11, read through r2
//! let checked = double_return(11, true, true).unwrap();
//! assert!(checked.second_return.unwrap().contains("returned twice"));
//! assert!(!checked.same_buffer);
//! ```

use serde::Serialize;

use crate::chapter::stale_data::scenario::{lab_config, lab_pool};
use bufpool::pool::{BucketLayout, PoolError};
use course_pool::alloc_count::{self, AllocStats};
use course_pool::handle::{Handle, HandlePool};
use lab_text::group_digits;
use lab_text::{t, tf};

/// The largest foreign buffer the widget allocates.
pub const MAX_FOREIGN: u64 = 1 << 20;
/// The most rounds the missing-`finally` run does.
pub const MAX_ROUNDS: u64 = 100_000;
/// The buffer size of the missing-`finally` run (the Thai article's order-line buffer).
pub const LINE_BUFFER: usize = 128;

/// A pool call's outcome as the widget shows it: `None` for "no error".
fn refused(r: Result<(), PoolError>) -> Option<String> {
    r.err().map(|e| crate::pool_words::pool_error(&e))
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
    double_return_traced(value, twice, checked).map(|(r, _)| r)
}

/// The pool after one step of a contract story, for drawing it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Snap {
    /// The C# line of the step.
    pub code: String,
    /// What happened, in a sentence.
    pub text: String,
    /// The 64-byte bucket's layout, by buffer id.
    pub layout: BucketLayout<u64>,
    /// Each variable and the buffer id it points at (`None`: not assigned yet), and whether it
    /// was returned.
    pub holders: Vec<(&'static str, Option<u64>, bool)>,
}

/// The bucket of the stories' 64-byte rents.
const BUCKET_64: usize = 2;

/// What variable `who` got from a rent, read from the pool's layout before and after: `x gets
/// the thread slot's buffer`.
fn came_from(who: &str, before: &BucketLayout<u64>, after: &BucketLayout<u64>) -> String {
    if before.slot.is_some() && after.slot.is_none() {
        tf!("{} gets the thread slot's buffer", who)
    } else if before.len() > after.len() {
        tf!("{} gets a buffer from partition 0", who)
    } else {
        tf!("{} gets a new buffer (the pool had none to hand out)", who)
    }
}

/// `name = pool.Rent(64)` in the double return's story: the handle, with `name` added to the
/// holders, and a sentence saying where the pool took the buffer from.
fn rent_as(
    pool: &HandlePool<u8>,
    name: &'static str,
    holders: &mut Vec<(&'static str, Option<u64>, bool)>,
) -> Result<(Handle<u8>, String), PoolError> {
    let before = pool.layout(BUCKET_64);
    let h = pool.rent(64)?;
    holders.push((name, Some(h.id()), false));
    Ok((h, came_from(name, &before, &pool.layout(BUCKET_64))))
}

/// [`double_return`], with the pool recorded after every step.
pub fn double_return_traced(
    value: u8,
    twice: bool,
    checked: bool,
) -> Result<(DoubleReturn, Vec<Snap>), PoolError> {
    let pool = lab_pool::<u8>()?.with_checked(checked);
    let mut snaps = Vec::new();
    let mut holders: Vec<(&'static str, Option<u64>, bool)> = Vec::new();
    let mut record = |code: &str, text: String, holders: &[(&'static str, Option<u64>, bool)]| {
        snaps.push(Snap {
            code: code.to_string(),
            text,
            layout: pool.layout(BUCKET_64),
            holders: holders.to_vec(),
        });
    };
    let (x, got) = rent_as(&pool, "x", &mut holders)?;
    record("byte[] x = pool.Rent(64);", got, &holders);
    pool.return_handle(&x, false)?;
    holders[0].2 = true;
    record(
        "pool.Return(x);",
        t!("x goes back: the pool keeps it in this thread's slot").into_owned(),
        &holders,
    );
    let second_return = if twice {
        let refused = refused(pool.return_handle(&x, false));
        let after = pool.layout(BUCKET_64);
        let text = match &refused {
            Some(e) => tf!("Refused in checked mode: {}", e),
            None if after.len() == 2 => t!("Accepted without an error: x takes the slot again and the slot's buffer — x itself — moves to partition 0. The pool now holds the same buffer twice").into_owned(),
            None => t!("Accepted without an error").into_owned(),
        };
        record("pool.Return(x); // again", text, &holders);
        refused
    } else {
        None
    };
    let (r1, got) = rent_as(&pool, "r1", &mut holders)?;
    record("byte[] r1 = pool.Rent(64);", got, &holders);
    let (r2, got) = rent_as(&pool, "r2", &mut holders)?;
    let same_buffer = r1.ptr_eq(&r2);
    record(
        "byte[] r2 = pool.Rent(64);",
        if same_buffer {
            tf!(
                "{}: ReferenceEquals(r1, r2) = True, two renters share one buffer",
                got
            )
        } else {
            format!("{got}: ReferenceEquals(r1, r2) = False")
        },
        &holders,
    );
    r1.write(0, value)?;
    let r2_reads = r2.read(0)?;
    record(
        &format!("r1[0] = {value}; Console.WriteLine(r2[0]);"),
        if same_buffer {
            tf!(
                "r1 writes {}; r2[0] reads {}: r1's write shows through r2",
                value,
                r2_reads
            )
        } else {
            tf!(
                "r1 writes {}; r2[0] reads {}: r2 is untouched",
                value,
                r2_reads
            )
        },
        &holders,
    );
    Ok((
        DoubleReturn {
            second_return,
            same_buffer,
            r2_reads,
        },
        snaps,
    ))
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
        return Err(tf!(
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
    /// Their bytes (bucket lengths), from the pool's statistics: the same in every build, where
    /// the counting allocator's [`Forgotten::alloc`] also sees the pool's own bookkeeping, whose
    /// pointers are 8 bytes natively and 4 in WebAssembly.
    pub new_buffer_bytes: u64,
    /// What the counting allocator saw during the loop, if it is the global allocator.
    pub alloc: Option<AllocStats>,
}

/// Runs the loop. An error stands for the exception of the article's loop: the `finally`
/// version returns the buffer on that path, the other one never reaches its return.
pub fn forgotten_return(rounds: u64, with_finally: bool) -> Result<Forgotten, PoolError> {
    let rounds = rounds.min(MAX_ROUNDS);
    let pool = lab_pool::<u8>()?;
    let stock = lab_config().capacity_per_bucket();
    // Warm-up: hold the pool's full capacity at once, then return it all.
    let held = (0..stock)
        .map(|_| pool.rent(LINE_BUFFER))
        .collect::<Result<Vec<_>, _>>()?;
    for h in &held {
        pool.return_handle(h, false)?;
    }
    drop(held);
    let buffer_bytes = |s: &bufpool::pool::PoolStats| -> u64 {
        s.buckets
            .iter()
            .map(|b| b.allocated * b.length as u64)
            .sum()
    };
    let (before, before_bytes) = {
        let s = pool.stats();
        (s.allocated(), buffer_bytes(&s))
    };
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
    let after = pool.stats();
    Ok(Forgotten {
        stock,
        new_buffers: after.allocated() - before,
        new_buffer_bytes: buffer_bytes(&after) - before_bytes,
        alloc,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn widget_limits() {
        assert_eq!(check_foreign_length(128), Ok(128));
        assert!(
            check_foreign_length(MAX_FOREIGN + 1)
                .unwrap_err()
                .contains("at most 1,048,576")
        );
    }
}

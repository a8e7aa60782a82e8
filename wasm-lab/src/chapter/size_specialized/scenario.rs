//! Size-specialized rent (chapter 8), the scenario: what moves to compile time when the size is a
//! constant.
//!
//! Go 1.27 has the compiler pick a size-class-specific allocation routine at each call site whose
//! size it knows. The Rust analogue is a const-generic rent, `rent::<N>()`: the bucket index is a
//! constant ([`ConstBucket::INDEX`]), so no `log2` runs at rent time, at the price of one compiled
//! copy of the specialized path per distinct bucket (and a thin wrapper per distinct `N`).
//! [`monomorphize`] counts those copies for a list of sizes; the bench measures whether any of it
//! is faster.
//!
//! The `size-specialized` widget (`web/size_specialized.rs`) shows [`monomorphize`] for the reader's sizes;
//! the chapter's quiz ([`crate::chapter::size_specialized::quiz`]) grades its answers with the same functions.
//!
//! ```
//! use wasm_lab::chapter::size_specialized::scenario::{ConstBucket, monomorphize};
//! // Evaluated by the compiler: a compile error, not a run-time check, if N is out of range.
//! const I: usize = ConstBucket::<100>::INDEX;
//! assert_eq!(I, bufpool::bucket::select_bucket_index(100));
//! assert_eq!(ConstBucket::<100>::LENGTH, 128);
//! let m = monomorphize(&[100, 128, 64, 4_096, 100]).unwrap();
//! assert_eq!((m.distinct_sizes, m.distinct_buckets), (4, 3));
//! ```

use std::collections::BTreeSet;

use serde::Serialize;

use crate::input::{InputError, parse_size};
use bufpool::bucket::{self, MAX_BUCKET_LEN, Rounding, bucket_length};
use lab_text::{t, tf};

/// The bucket index computed by the compiler: the same formula as
/// [`bucket::select_bucket_index`], as a `const fn` (`None` for 0 or over 2^30: those are never
/// pooled, so a const-generic rent has nothing to specialize).
pub const fn const_bucket_index(n: usize) -> Option<usize> {
    if n == 0 || n > MAX_BUCKET_LEN {
        return None;
    }
    Some(((n - 1) | 15).ilog2() as usize - 3)
}

/// A const-generic rent's view of its size: bucket index and length as associated constants,
/// evaluated at compile time. Naming `ConstBucket::<0>::INDEX` (or a size over 2^30) does not
/// compile.
///
/// ```compile_fail
/// const BAD: usize = wasm_lab::chapter::size_specialized::scenario::ConstBucket::<0>::INDEX;
/// ```
pub struct ConstBucket<const N: usize>;

impl<const N: usize> ConstBucket<N> {
    /// The bucket index of a rent of `N` elements.
    pub const INDEX: usize = match const_bucket_index(N) {
        Some(i) => i,
        None => panic!("a const-generic rent needs 1 ..= 2^30 elements"),
    };
    /// The length of the buffer handed out.
    pub const LENGTH: usize = bucket_length(Self::INDEX);
}

/// One size of a [`Monomorphization`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SizeRow {
    pub size: u64,
    /// The bucket the compiler resolves (`None`: empty or oversize, served at run time).
    pub index: Option<usize>,
    pub length: u64,
}

/// What a program that calls `rent::<N>()` for these sizes compiles.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Monomorphization {
    pub rows: Vec<SizeRow>,
    /// Distinct `N`: one `rent::<N>` wrapper each.
    pub distinct_sizes: usize,
    /// Distinct buckets: one copy of the bucket-specialized path each.
    pub distinct_buckets: usize,
    /// Sizes that cannot be specialized (0 or over 2^30): they take the run-time path.
    pub runtime_only: usize,
    /// The run-time rent compiles one path for all of them.
    pub runtime_copies: usize,
}

/// Counts the copies a const-generic rent compiles for `sizes`.
///
/// # Errors
///
/// A message when the list is empty or too long for the widget (over 64 sizes).
pub fn monomorphize(sizes: &[u64]) -> Result<Monomorphization, String> {
    if sizes.is_empty() {
        return Err(t!(
            "Type one or more sizes, separated by spaces or semicolons, e.g. 24; 100; 4096"
        )
        .into_owned());
    }
    if sizes.len() > 64 {
        return Err(tf!(
            "{} sizes is more than this widget lists (at most 64)",
            sizes.len()
        ));
    }
    let rows: Vec<SizeRow> = sizes
        .iter()
        .map(|&size| {
            let rounding = usize::try_from(size).map(bucket::round).ok();
            let (index, length) = match rounding {
                Some(Rounding::Bucket { index, length }) => (Some(index), length as u64),
                Some(Rounding::Empty) => (None, 0),
                _ => (None, size),
            };
            SizeRow {
                size,
                index,
                length,
            }
        })
        .collect();
    let distinct_sizes = sizes
        .iter()
        .filter(|&&s| usize::try_from(s).is_ok_and(|n| const_bucket_index(n).is_some()))
        .collect::<BTreeSet<_>>()
        .len();
    let distinct_buckets = rows
        .iter()
        .filter_map(|r| r.index)
        .collect::<BTreeSet<_>>()
        .len();
    Ok(Monomorphization {
        distinct_sizes,
        distinct_buckets,
        runtime_only: rows.iter().filter(|r| r.index.is_none()).count(),
        runtime_copies: 1,
        rows,
    })
}

/// Parses the widget's list: sizes separated by `;`, whitespace or newlines (commas group digits,
/// as everywhere in the course: `1,024`).
///
/// # Errors
///
/// The first size that cannot be read, with the reason.
pub fn parse_sizes(text: &str) -> Result<Vec<u64>, String> {
    let mut out = Vec::new();
    let words: Vec<&str> = text
        .split(|c: char| c == ';' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    for (i, word) in words.iter().enumerate() {
        if word.len() > 1 && word.starts_with('0') && word.chars().all(|c| c.is_ascii_digit()) {
            let before = if i > 0 { words[i - 1] } else { "" };
            return Err(tf!(
                "“{} {}” is ambiguous: a space separates sizes, so this reads as {} and {}; for one size group digits with commas ({},{}), for two drop the leading zero",
                before,
                word,
                before,
                word,
                before,
                word
            ));
        }
        match parse_size(word) {
            Ok(n) => out.push(n),
            Err(InputError::Grouping(w)) => {
                return Err(tf!(
                    "“{}” is ambiguous: commas only group digits in threes (1,048,576); separate sizes with spaces or semicolons ({})",
                    w,
                    w.replace([',', '_'], "; ")
                ));
            }
            Err(e) => return Err(tf!("“{}”: {}", word, e)),
        }
    }
    Ok(out)
}

/// Go 1.27 specializes allocations of at most this many bytes (`specializedMallocMax` in the
/// compiler; Go reference, the Russian article on Go 1.27).
pub const GO_SPECIALIZED_MALLOC_MAX: u64 = 80;

/// Whether Go 1.27's compiler calls a size-specialized routine for `new(T)` of `size` bytes
/// (`0 < size <= 80`; 0-byte objects never reach the allocator).
pub fn go_specializes(size: u64) -> bool {
    (1..=GO_SPECIALIZED_MALLOC_MAX).contains(&size)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bufpool::bucket::{BUCKET_COUNT, select_bucket_index};

    #[test]
    fn the_const_formula_is_the_pools() {
        for n in (1..70_000).chain([MAX_BUCKET_LEN - 1, MAX_BUCKET_LEN]) {
            assert_eq!(const_bucket_index(n), Some(select_bucket_index(n)), "{n}");
        }
        assert_eq!(const_bucket_index(0), None);
        assert_eq!(const_bucket_index(MAX_BUCKET_LEN + 1), None);
        const LAST: usize = ConstBucket::<{ 1 << 30 }>::INDEX;
        assert_eq!(LAST, BUCKET_COUNT - 1);
        assert_eq!(ConstBucket::<1025>::LENGTH, 2048);
    }

    #[test]
    fn counts_copies() {
        let m = monomorphize(&[0, 16, 1, 17, (1 << 30) + 1]).unwrap();
        assert_eq!(
            (m.distinct_sizes, m.distinct_buckets, m.runtime_only),
            (3, 2, 2)
        );
        assert!(monomorphize(&[]).unwrap_err().contains("Type one or more"));
        assert!(monomorphize(&[1; 65]).unwrap_err().contains("at most 64"));
        assert_eq!(parse_sizes("24; 1,024\n4096").unwrap(), [24, 1024, 4096]);
        assert!(parse_sizes("24; -1").unwrap_err().contains("negative"));
        assert!(parse_sizes("24; x").unwrap_err().contains("not a number"));
    }

    #[test]
    fn go_rule() {
        assert!(go_specializes(80) && !go_specializes(81) && !go_specializes(0));
    }
}

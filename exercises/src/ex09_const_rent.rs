#![allow(
    unused_variables,
    reason = "the skeleton's bodies are todo!(): your code uses them"
)]
// ANCHOR: exercise
//! # Exercise 9: a rent whose bucket is chosen at compile time
//!
//! Chapter: Size-specialized rent (`book/src/size-specialized.md`).
//!
//! Go 1.27 moved the size-class lookup of small allocations to compile time when the size is
//! a constant. In Rust, a `const` generic does the same for a pool: `rent_const::<100>()` can
//! know its bucket before the program runs, and refuse a size no bucket serves as a compile
//! error instead of a run-time one. Write it:
//!
//! - `select_bucket_index(n)` as a `const fn` (`log2((n - 1) | 15) - 3`), so the tests can use
//!   it in a `const`.
//! - `Pool::rent_const::<N>()`: the buffer of `N`'s bucket (its length is the bucket's), a kept
//!   one or a new one, with the bucket computed at compile time (a `const { … }` block). `N` of
//!   0 or over `MAX_BUCKET_LEN` must not compile (the tests expect rustc's E0080).
//!
//! `rent` and `give_back`, the run-time versions, are given.
//!
//! Grade it: `cargo xtask exercises` (or `cargo test -p exercises --test ex09_const_rent`).

/// Number of buckets: 16, 32, …, 2^30 bytes.
pub const BUCKET_COUNT: usize = 27;
/// The largest bucket's length.
pub const MAX_BUCKET_LEN: usize = 1 << 30;

/// The bucket index of a request of `n >= 1` bytes, computable at compile time.
pub const fn select_bucket_index(n: usize) -> usize {
    todo!()
}

/// One free list per bucket.
pub struct Pool {
    buckets: Vec<Vec<Box<[u8]>>>,
}

impl Pool {
    /// An empty pool.
    pub fn new() -> Pool {
        Pool {
            buckets: vec![Vec::new(); BUCKET_COUNT],
        }
    }

    /// The run-time rent: `None` for 0 or over the largest bucket.
    pub fn rent(&mut self, n: usize) -> Option<Box<[u8]>> {
        if n == 0 || n > MAX_BUCKET_LEN {
            return None;
        }
        Some(self.take(select_bucket_index(n)))
    }

    /// The rent for a size known at compile time.
    pub fn rent_const<const N: usize>(&mut self) -> Box<[u8]> {
        todo!()
    }

    /// Keeps `buffer` if its length is a bucket's.
    pub fn give_back(&mut self, buffer: Box<[u8]>) {
        let len = buffer.len();
        if len.is_power_of_two() && (16..=MAX_BUCKET_LEN).contains(&len) {
            self.buckets[select_bucket_index(len)].push(buffer);
        }
    }

    /// A kept buffer of bucket `index`, or a new zeroed one.
    fn take(&mut self, index: usize) -> Box<[u8]> {
        self.buckets[index]
            .pop()
            .unwrap_or_else(|| vec![0; 16 << index].into_boxed_slice())
    }
}

impl Default for Pool {
    fn default() -> Pool {
        Pool::new()
    }
}
// ANCHOR_END: exercise

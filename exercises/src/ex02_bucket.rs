#![allow(
    unused_variables,
    reason = "the skeleton's bodies are todo!(): your code uses them"
)]
// ANCHOR: exercise
//! # Exercise 2: bucket index, length and waste
//!
//! Chapter: Bucket rounding (`book/src/bucket-rounding.md`).
//!
//! The shared pool keeps 27 buckets of power-of-two lengths, 16 … 2^30 elements. A request of
//! `n` elements is served from bucket `log2((n - 1) | 15) - 3`, whose buffers are `16 << index`
//! long. Write that arithmetic, with the edges the chapter teaches:
//!
//! - `bucket_index(n)` for `n >= 1`: 1 … 16 are bucket 0, 17 is bucket 1, 2^30 is bucket 26.
//! - `bucket_length(index)`: `16 << index`.
//! - `round(n)`: the whole decision. `0` is `Empty` (the shared empty buffer, never pooled); over
//!   `MAX_BUCKET_LEN` is `Oversize` (an exact-length buffer the pool does not keep); anything
//!   else is its `Bucket`.
//! - `wasted(n)`: the elements handed out beyond the `n` requested (0 for `Empty` and
//!   `Oversize`).
//!
//! Grade it: `cargo xtask exercises` (or `cargo test -p exercises --test ex02_bucket`).

/// Number of buckets: 16, 32, …, 2^30 elements.
pub const BUCKET_COUNT: usize = 27;

/// The largest bucket's length; longer requests are never pooled.
pub const MAX_BUCKET_LEN: usize = 1 << 30;

/// What the shared pool does with a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rounding {
    /// `rent(0)`: the shared empty buffer.
    Empty,
    /// Served from bucket `index`, whose buffers have `length` elements.
    Bucket { index: usize, length: usize },
    /// Over the largest bucket: an exact-length buffer, never pooled.
    Oversize { length: usize },
}

/// The bucket index of a request of `n >= 1` elements: `log2((n - 1) | 15) - 3`.
pub fn bucket_index(n: usize) -> usize {
    todo!()
}

/// The length of bucket `index`'s buffers: `16 << index`.
pub fn bucket_length(index: usize) -> usize {
    todo!()
}

/// The full decision for a request of `n` elements.
pub fn round(n: usize) -> Rounding {
    todo!()
}

/// Elements handed out beyond the request: the part of the buffer that is not your data.
pub fn wasted(n: usize) -> usize {
    todo!()
}
// ANCHOR_END: exercise

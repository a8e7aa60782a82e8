#![allow(
    unused_variables,
    reason = "the skeleton's bodies are todo!(): your code uses them"
)]
// ANCHOR: exercise
//! # Exercise 3: clearing on return, and what it costs
//!
//! Chapter: Stale data (`book/src/stale-data.md`).
//!
//! A pool does not clear a buffer on return unless asked: the next renter sees the previous
//! renter's bytes. Write the return-time clearing and the two checks the chapter makes:
//!
//! - `clear_on_return(buffer, written, policy)` zeroes what `policy` says — nothing (`Keep`),
//!   the whole buffer (`Whole`, what .NET's `clearArray: true` does) or only the first `written`
//!   bytes (`Written`, at most the buffer's length) — and returns how many bytes it zeroed: the
//!   cost of clearing, which for `Whole` is the bucket's length, whatever you wrote.
//! - `leftover(buffer)`: how many bytes are not zero (what the next renter can read).
//! - `leaked(buffer, written, read)`: the bytes a renter who wrote `written` bytes reads past its
//!   own data when it reads `read` bytes (empty when `read <= written`; at most up to the end of
//!   the buffer).
//!
//! Grade it: `cargo xtask exercises` (or `cargo test -p exercises --test ex03_stale_data`).

/// What a return clears.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clear {
    /// Nothing: .NET's default.
    Keep,
    /// Every byte of the buffer.
    Whole,
    /// The bytes the renter says it wrote.
    Written,
}

/// Zeroes what `policy` says of `buffer`; returns how many bytes it zeroed.
pub fn clear_on_return(buffer: &mut [u8], written: usize, policy: Clear) -> usize {
    todo!()
}

/// How many bytes of `buffer` are not zero.
pub fn leftover(buffer: &[u8]) -> usize {
    todo!()
}

/// The bytes read past a renter's own `written` bytes, when it reads `read` bytes.
pub fn leaked(buffer: &[u8], written: usize, read: usize) -> &[u8] {
    todo!()
}
// ANCHOR_END: exercise

#![allow(
    unused_variables,
    clippy::boxed_local,
    reason = "the skeleton's bodies are todo!(): your code uses them"
)]
// ANCHOR: exercise
//! # Exercise 1: a pool of one size that allocates once
//!
//! Chapter: Why pool at all (`book/src/why-pool.md`).
//!
//! A service that needs a 128-byte buffer per order line allocates one buffer per line. A pool
//! keeps the buffers given back and hands them out again. Build the smallest pool there is: one
//! buffer length, one free list.
//!
//! - `rent` hands out a kept buffer if there is one (the last one given back), else allocates a
//!   zeroed buffer of the pool's length.
//! - `give_back` keeps the buffer if it has the pool's length and fewer than `keep` buffers are
//!   kept; over the limit, the buffer is dropped. A buffer of another length is refused: it comes
//!   back to the caller inside `WrongLength`.
//! - `kept` says how many buffers wait in the pool.
//!
//! The tests count allocations with the course's counting allocator: a thousand rounds of
//! `rent` and `give_back` must allocate exactly one buffer.
//!
//! Grade it: `cargo xtask exercises` (or `cargo test -p exercises --test ex01_why_pool`).

/// Buffers of one length, kept for the next renter.
pub struct OnePool {
    len: usize,
    keep: usize,
    free: Vec<Box<[u8]>>,
}

/// A buffer given back to a pool of another length: it is yours again.
#[derive(Debug)]
pub struct WrongLength {
    /// The refused buffer.
    pub buffer: Box<[u8]>,
    /// The pool's buffer length.
    pub expected: usize,
}

impl OnePool {
    /// An empty pool of `len`-byte buffers that keeps at most `keep` of them.
    pub fn new(len: usize, keep: usize) -> OnePool {
        // The free list's room is allocated here, once: giving back never allocates.
        OnePool {
            len,
            keep,
            free: Vec::with_capacity(keep),
        }
    }

    /// A buffer of the pool's length: a kept one if any, else a new zeroed one.
    pub fn rent(&mut self) -> Box<[u8]> {
        todo!()
    }

    /// Keeps `buffer` for the next renter (or drops it when `keep` are kept already).
    pub fn give_back(&mut self, buffer: Box<[u8]>) -> Result<(), WrongLength> {
        todo!()
    }

    /// How many buffers wait in the pool.
    pub fn kept(&self) -> usize {
        todo!()
    }
}
// ANCHOR_END: exercise

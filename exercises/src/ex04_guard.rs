#![allow(
    unused_variables,
    reason = "the skeleton's bodies are todo!(): your code uses them"
)]
// ANCHOR: exercise
//! # Exercise 4: a guard that returns itself on drop
//!
//! Chapter: The return contract (`book/src/return-contract.md`).
//!
//! In C# a rented array is a plain reference: nothing stops you from returning it twice or
//! writing to it after `Return`. In Rust the pool can hand out a guard that owns the buffer for
//! as long as you hold it. Build it:
//!
//! - `Pool::rent(len)` hands out a `Rented` guard over a kept buffer of the request's capacity
//!   (`capacity_for(len)`), or over a new zeroed one.
//! - The guard derefs to the `len` bytes you asked for (`&[u8]` and `&mut [u8]`); `capacity()`
//!   is the buffer's whole length, the bucket's.
//! - Dropping the guard gives the buffer back to the pool: on every path, early `return`, `?`
//!   and panic included.
//! - `give_back()` returns the buffer now. Choose its receiver so that a second `give_back`, a
//!   use of the guard after it, and a slice of the buffer kept across it **do not compile**
//!   (the tests compile such programs and expect rustc's E0382 or E0505).
//!
//! Grade it: `cargo xtask exercises` (or `cargo test -p exercises --test ex04_guard`).

use std::cell::RefCell;
use std::ops::{Deref, DerefMut};

/// The buffer length that serves a request of `len` bytes: a power of two, at least 16.
pub fn capacity_for(len: usize) -> usize {
    len.next_power_of_two().max(16)
}

/// Buffers given back, of any capacity, waiting for the next renter.
#[derive(Default)]
pub struct Pool {
    free: RefCell<Vec<Box<[u8]>>>,
}

impl Pool {
    /// An empty pool.
    pub fn new() -> Pool {
        Pool::default()
    }

    /// How many buffers wait in the pool.
    pub fn kept(&self) -> usize {
        self.free.borrow().len()
    }

    /// A guard over a buffer of `capacity_for(len)` bytes, kept or new.
    pub fn rent(&self, len: usize) -> Rented<'_> {
        todo!()
    }
}

/// A rented buffer, yours until the guard goes.
pub struct Rented<'p> {
    pool: &'p Pool,
    // `std::mem::take` moves a `Box<[u8]>` out of a `&mut`, leaving an empty one (no allocation).
    buffer: Box<[u8]>,
    len: usize,
}

impl Rented<'_> {
    /// The buffer's whole length (the bucket's), at least the length you asked for.
    pub fn capacity(&self) -> usize {
        todo!()
    }

    /// Gives the buffer back now.
    // TODO: with `&self`, a second `give_back` and a use after it compile. Choose the receiver
    // that makes them compile errors.
    pub fn give_back(&self) {
        todo!()
    }
}

impl Deref for Rented<'_> {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        todo!()
    }
}

impl DerefMut for Rented<'_> {
    fn deref_mut(&mut self) -> &mut [u8] {
        todo!()
    }
}

impl Drop for Rented<'_> {
    fn drop(&mut self) {
        // TODO: give the buffer back to the pool (`todo!()` here would panic during unwinding).
    }
}
// ANCHOR_END: exercise

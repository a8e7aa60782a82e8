//! Exercise 4, the reference solution: a guard that returns itself on drop.

// ANCHOR: solution
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
        let capacity = capacity_for(len);
        let mut free = self.free.borrow_mut();
        let buffer = match free.iter().rposition(|b| b.len() == capacity) {
            Some(i) => free.swap_remove(i),
            None => vec![0; capacity].into_boxed_slice(),
        };
        Rented {
            pool: self,
            buffer,
            len,
        }
    }
}

/// A rented buffer, yours until the guard goes.
pub struct Rented<'p> {
    pool: &'p Pool,
    buffer: Box<[u8]>,
    len: usize,
}

impl Rented<'_> {
    /// The buffer's whole length (the bucket's), at least the length you asked for.
    pub fn capacity(&self) -> usize {
        self.buffer.len()
    }

    /// Gives the buffer back now. It takes the guard by value: after it, the guard is moved, so
    /// a second call or any use of it is a compile error (E0382), and a borrow of the buffer
    /// cannot live across it (E0505).
    pub fn give_back(self) {
        // Dropping the guard is the return: one path for both.
        drop(self);
    }
}

impl Deref for Rented<'_> {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.buffer[..self.len]
    }
}

impl DerefMut for Rented<'_> {
    fn deref_mut(&mut self) -> &mut [u8] {
        &mut self.buffer[..self.len]
    }
}

impl Drop for Rented<'_> {
    fn drop(&mut self) {
        let buffer = std::mem::take(&mut self.buffer);
        self.pool.free.borrow_mut().push(buffer);
    }
}
// ANCHOR_END: solution

//! Exercise 1, the reference solution: a pool of one size that allocates once.

// ANCHOR: solution
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
        OnePool {
            len,
            keep,
            free: Vec::with_capacity(keep),
        }
    }

    /// A buffer of the pool's length: a kept one if any, else a new zeroed one.
    pub fn rent(&mut self) -> Box<[u8]> {
        // LIFO: the buffer given back last is the one most likely still in the cache.
        self.free
            .pop()
            .unwrap_or_else(|| vec![0; self.len].into_boxed_slice())
    }

    /// Keeps `buffer` for the next renter (or drops it when `keep` are kept already).
    pub fn give_back(&mut self, buffer: Box<[u8]>) -> Result<(), WrongLength> {
        if buffer.len() != self.len {
            return Err(WrongLength {
                buffer,
                expected: self.len,
            });
        }
        if self.free.len() < self.keep {
            self.free.push(buffer);
        }
        Ok(())
    }

    /// How many buffers wait in the pool.
    pub fn kept(&self) -> usize {
        self.free.len()
    }
}
// ANCHOR_END: solution

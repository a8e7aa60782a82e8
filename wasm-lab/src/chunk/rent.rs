//! The seam between the chunker and a buffer pool.
//!
//! The pooled strategy ([`Strategy::Pooled`](super::Strategy::Pooled)) needs only "give me a
//! buffer of at least `n` elements" and "take it back". [`RentBuffer`] says exactly that, so the
//! chunker does not depend on the pool module; the crate's real pool implements it in its own
//! module. [`FreeList`] is the smallest honest implementation, for tests and for the report.

use std::fmt;

use serde::Serialize;

use super::Element;

/// A source of reusable buffers.
///
/// # Contract
///
/// - `rent(n)` returns a buffer of **at least** `n` elements (a pool may round up, as .NET's
///   buckets do). Its contents are unspecified: it may hold the previous renter's data.
/// - `give_back(buf)` takes a buffer that this value handed out; the chunker never returns anything
///   else and never touches a buffer after giving it back.
pub trait RentBuffer<T> {
    /// A buffer of at least `min_len` elements.
    ///
    /// # Errors
    ///
    /// [`RentError`] when the pool refuses (for example an absurd size).
    fn rent(&mut self, min_len: usize) -> Result<Box<[T]>, RentError>;

    /// Takes back a buffer obtained from [`rent`](RentBuffer::rent).
    fn give_back(&mut self, buf: Box<[T]>);
}

/// A pool refused a rent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RentError {
    /// Elements asked for.
    pub requested: usize,
    /// Why the pool refused.
    pub reason: String,
}

impl fmt::Display for RentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "could not rent {} elements: {}",
            self.requested, self.reason
        )
    }
}

impl std::error::Error for RentError {}

/// A minimal pool: a stack of returned buffers; `rent` takes the most recently returned buffer that
/// is long enough, or allocates one of exactly `min_len` elements.
///
/// Allocation-wise: one allocation per rent that misses, none per hit; give-backs cost nothing as
/// long as no more than `with_capacity`'s buffers are kept (the stack itself grows otherwise).
///
/// ```
/// use wasm_lab::chunk::{FreeList, RentBuffer};
///
/// let mut pool = FreeList::<u8>::with_capacity(1);
/// let mut a = pool.rent(3).unwrap();
/// a.copy_from_slice(b"abc");
/// pool.give_back(a);
/// let b = pool.rent(2).unwrap();
/// assert_eq!(&*b, b"abc"); // the previous renter's bytes, and a longer buffer than asked for
/// ```
#[derive(Debug, Default)]
pub struct FreeList<T> {
    free: Vec<Box<[T]>>,
}

impl<T> FreeList<T> {
    /// An empty pool with room to keep `buffers` returned buffers without growing.
    pub fn with_capacity(buffers: usize) -> Self {
        FreeList {
            free: Vec::with_capacity(buffers),
        }
    }

    /// Buffers currently kept.
    pub fn kept(&self) -> usize {
        self.free.len()
    }
}

impl<T: Element> RentBuffer<T> for FreeList<T> {
    fn rent(&mut self, min_len: usize) -> Result<Box<[T]>, RentError> {
        if let Some(i) = self.free.iter().rposition(|b| b.len() >= min_len) {
            return Ok(self.free.remove(i));
        }
        let mut v = Vec::new();
        v.try_reserve_exact(min_len).map_err(|e| RentError {
            requested: min_len,
            reason: e.to_string(),
        })?;
        v.resize(min_len, T::default());
        Ok(v.into_boxed_slice())
    }

    fn give_back(&mut self, buf: Box<[T]>) {
        self.free.push(buf);
    }
}

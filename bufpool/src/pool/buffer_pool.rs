//! [`BufferPool`]: the one trait generic code takes, as .NET code takes the abstract
//! `ArrayPool<T>` and is handed `ArrayPool<T>.Shared` or a pool from `ArrayPool<T>.Create()`.

use super::element::Element;
use super::owned::{Rejected, Rented, ReturnTo};
use super::{ConfigurablePool, PoolError, SharedPool};

/// A pool of `T` buffers: [`SharedPool`] and [`ConfigurablePool`] (sealed: the guard's return
/// path relies on how this crate's pools keep buffers).
///
/// Each method is the pool's own inherent method of the same name; the trait lets a function
/// work with either pool.
///
/// ```
/// use bufpool::pool::{BufferPool, ConfigurablePool, SharedPool};
///
/// /// Reads a line into a pooled buffer, whichever pool the caller keeps.
/// fn checksum<P: BufferPool<u8>>(pool: &P, line: &[u8]) -> u32 {
///     let mut buf = pool.rent(line.len()).expect("a valid length");
///     buf.copy_from_slice(line);
///     buf.iter().map(|&b| u32::from(b)).sum()
/// }
///
/// assert_eq!(checksum(SharedPool::<u8>::shared(), b"abc"), 294);
/// assert_eq!(checksum(&ConfigurablePool::<u8>::new(), b"abc"), 294);
/// ```
pub trait BufferPool<T: Element>: ReturnTo<T> + Sized {
    /// A buffer of exactly `len` elements (its bucket's capacity behind it) in a guard that
    /// gives it back on drop; an error for a length the pool cannot serve.
    fn rent(&self, len: usize) -> Result<Rented<'_, T, Self>, PoolError>;

    /// A buffer of at least `len` elements (its bucket's length), owned by the caller until
    /// [`return_boxed`](Self::return_boxed), as .NET's `Rent` hands out an array.
    fn rent_boxed(&self, len: usize) -> Result<Box<[T]>, PoolError>;

    /// Takes back a buffer from [`rent_boxed`](Self::rent_boxed), cleared first when `clear`; a
    /// buffer of a length no bucket has comes back as [`Rejected`].
    fn return_boxed(&self, buf: Box<[T]>, clear: bool) -> Result<(), Rejected<T>>;
}

impl<T: Element> BufferPool<T> for SharedPool<T> {
    #[inline]
    fn rent(&self, len: usize) -> Result<Rented<'_, T, Self>, PoolError> {
        SharedPool::rent(self, len)
    }
    #[inline]
    fn rent_boxed(&self, len: usize) -> Result<Box<[T]>, PoolError> {
        SharedPool::rent_boxed(self, len)
    }
    #[inline]
    fn return_boxed(&self, buf: Box<[T]>, clear: bool) -> Result<(), Rejected<T>> {
        SharedPool::return_boxed(self, buf, clear)
    }
}

impl<T: Element> BufferPool<T> for ConfigurablePool<T> {
    #[inline]
    fn rent(&self, len: usize) -> Result<Rented<'_, T, Self>, PoolError> {
        ConfigurablePool::rent(self, len)
    }
    #[inline]
    fn rent_boxed(&self, len: usize) -> Result<Box<[T]>, PoolError> {
        ConfigurablePool::rent_boxed(self, len)
    }
    #[inline]
    fn return_boxed(&self, buf: Box<[T]>, clear: bool) -> Result<(), Rejected<T>> {
        ConfigurablePool::return_boxed(self, buf, clear)
    }
}

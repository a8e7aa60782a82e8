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
/// use bufpool::pool::{BufferPool, ConfigurablePool, PoolError, SharedPool};
///
/// /// Sums a line copied into a pooled buffer, whichever pool the caller keeps.
/// fn checksum<P: BufferPool<u8>>(pool: &P, line: &[u8]) -> u32 {
///     let mut buf = pool.rent(line.len());
///     buf.copy_from_slice(line);
///     buf.iter().map(|&b| u32::from(b)).sum()
/// }
///
/// /// The same with a length from outside: an error instead of a panic.
/// fn zeroed<P: BufferPool<u64>>(pool: &P, len: usize) -> Result<usize, PoolError> {
///     let buf = pool.try_rent(len)?;
///     Ok(buf.capacity())
/// }
///
/// assert_eq!(checksum(SharedPool::<u8>::shared(), b"abc"), 294);
/// assert_eq!(checksum(&ConfigurablePool::<u8>::new(), b"abc"), 294);
/// assert_eq!(zeroed(&SharedPool::<u64>::new(), 100), Ok(128));
/// assert!(zeroed(&ConfigurablePool::<u64>::new(), usize::MAX).is_err());
/// ```
pub trait BufferPool<T: Element>: ReturnTo<T> + Sized {
    /// A buffer of exactly `len` elements (its bucket's capacity behind it) in a guard that
    /// gives it back on drop.
    ///
    /// # Panics
    ///
    /// When the buffer cannot be allocated (see [`SharedPool::rent`]).
    #[track_caller]
    fn rent(&self, len: usize) -> Rented<'_, T, Self>;

    /// [`rent`](Self::rent), or the [`PoolError`] that says why the buffer could not be had.
    fn try_rent(&self, len: usize) -> Result<Rented<'_, T, Self>, PoolError>;

    /// A buffer of at least `len` elements (its bucket's length), owned by the caller until
    /// [`return_boxed`](Self::return_boxed), as .NET's `Rent` hands out an array.
    ///
    /// # Panics
    ///
    /// When the buffer cannot be allocated, as [`rent`](Self::rent).
    #[track_caller]
    fn rent_boxed(&self, len: usize) -> Box<[T]>;

    /// [`rent_boxed`](Self::rent_boxed), or why the buffer could not be had.
    fn try_rent_boxed(&self, len: usize) -> Result<Box<[T]>, PoolError>;

    /// Takes back a buffer from [`rent_boxed`](Self::rent_boxed), cleared first when `clear`; a
    /// buffer of a length no bucket has comes back as [`Rejected`].
    fn return_boxed(&self, buf: Box<[T]>, clear: bool) -> Result<(), Rejected<T>>;
}

macro_rules! forward {
    ($pool:ident) => {
        impl<T: Element> BufferPool<T> for $pool<T> {
            #[inline]
            #[track_caller]
            fn rent(&self, len: usize) -> Rented<'_, T, Self> {
                $pool::rent(self, len)
            }
            #[inline]
            fn try_rent(&self, len: usize) -> Result<Rented<'_, T, Self>, PoolError> {
                $pool::try_rent(self, len)
            }
            #[inline]
            #[track_caller]
            fn rent_boxed(&self, len: usize) -> Box<[T]> {
                $pool::rent_boxed(self, len)
            }
            #[inline]
            fn try_rent_boxed(&self, len: usize) -> Result<Box<[T]>, PoolError> {
                $pool::try_rent_boxed(self, len)
            }
            #[inline]
            fn return_boxed(&self, buf: Box<[T]>, clear: bool) -> Result<(), Rejected<T>> {
                $pool::return_boxed(self, buf, clear)
            }
        }
    };
}

forward!(SharedPool);
forward!(ConfigurablePool);

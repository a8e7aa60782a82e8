//! The owned guard: a rented buffer that holds an `Arc` of its pool, for `'static` use (a
//! spawned thread, a task, a struct without a lifetime).

use super::PoolError;
use super::element::Element;
use super::owned::{Back, ReturnTo, guard_surface};
use std::fmt;
use std::ops::{Deref, DerefMut};
use std::sync::Arc;

/// A buffer rented through an `Arc` of its pool ([`SharedPool::rent_owned`](super::SharedPool::rent_owned),
/// [`ConfigurablePool::rent_owned`](super::ConfigurablePool::rent_owned)): the same guard as
/// [`Rented`](super::Rented) — it derefs to the requested length, carries what was written,
/// writes through `io::Write` and goes back to its pool on drop, exactly as `Rented` does — but
/// it keeps the pool alive instead of borrowing it, so it is `'static` and can move into a
/// spawned thread.
///
/// ```
/// use std::io::Write;
/// use std::sync::Arc;
/// use bufpool::pool::SharedPool;
///
/// let pool = Arc::new(SharedPool::<u8>::new());
/// let mut line = pool.rent_owned(100);
/// let worker = std::thread::spawn(move || {
///     write!(line, "order {}", 1042).unwrap();
///     line.written().len()
/// }); // the guard goes back to the pool, in the worker's slot, when the closure ends
/// assert_eq!(worker.join().unwrap(), 10);
/// assert_eq!(pool.stats().allocated(), 1);
/// ```
///
/// Costs one `Arc` clone per rent and one decrement per return beside [`Rented`](super::Rented)'s
/// work; where a borrow will do, `rent` is the cheaper guard.
pub struct OwnedRented<T: Element, P: ReturnTo<T> + ?Sized = super::SharedPool<T>> {
    pool: Arc<P>,
    buf: Box<[T]>,
    len: usize,
    written: usize,
    /// As `Rented`'s: the bucket and whether the return clears.
    back: Back,
}

/// An owned guard over `buf` (any buffer the pool's rent handed out), for `len` elements.
#[inline]
pub(crate) fn owned_guard<T: Element, P: ReturnTo<T> + ?Sized>(
    pool: Arc<P>,
    buf: Box<[T]>,
    len: usize,
    clear: bool,
) -> OwnedRented<T, P> {
    debug_assert!(len <= buf.len());
    let len = len.min(buf.len());
    OwnedRented {
        back: Back::of_length(buf.len(), clear),
        pool,
        buf,
        len,
        written: 0,
    }
}

impl<T: Element, P: ReturnTo<T> + ?Sized> OwnedRented<T, P> {
    /// The pool this guard goes back to.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use bufpool::pool::SharedPool;
    /// let pool = Arc::new(SharedPool::<u8>::new());
    /// let buf = pool.rent_owned(16);
    /// assert!(Arc::ptr_eq(buf.pool(), &pool));
    /// assert_eq!(Arc::strong_count(&pool), 2); // the guard keeps the pool alive
    /// ```
    pub fn pool(&self) -> &Arc<P> {
        &self.pool
    }
}

guard_surface!(
    "OwnedRented",
    OwnedRented<T, P>,
    OwnedRented<u8, P>,
    /// Writes go after the written prefix, as for [`Rented`](super::Rented): as far as the
    /// bucket has room, then `Ok(0)`.
);

impl<T: Element, P: ReturnTo<T> + ?Sized> Drop for OwnedRented<T, P> {
    #[inline]
    fn drop(&mut self) {
        let buf = std::mem::take(&mut self.buf);
        // SAFETY: `self.back` was made from `self.buf`'s length (`owned_guard`) and only ever
        // changes its clear bit after that (`with_clear`), or becomes `DETACHED` when the buffer
        // is taken out (`detach`); the buffer's length never changes, so `back` is still the
        // one made for `buf`, as `give_back` requires.
        unsafe { self.pool.give_back(buf, self.back) };
    }
}

//! The ownership API: a rented buffer is an owned guard that goes back to its pool on drop.

use super::PoolError;
use super::element::{self, Element};
use super::engine::{Engine, Plan, Put};
use crate::bucket::bucket_of_length;
use std::fmt;
use std::ops::{Deref, DerefMut};

mod sealed {
    use crate::bucket::{BUCKET_COUNT, bucket_of_length};

    /// Pools a [`Rented`](super::Rented) guard can go back to. Sealed: only this crate's pools.
    pub trait ReturnTo<T> {
        /// Takes the guard's buffer back (never refuses: a guard's length is always valid; an
        /// empty buffer, from a detached guard, is ignored).
        ///
        /// # Safety
        ///
        /// `back` is the one made for `buf` ([`Back::of_length`] of its length, or
        /// [`Back::in_bucket`] of its bucket), with any clear bit ([`Back::with_clear`]); or
        /// [`Back::DETACHED`]. So a [`fast_bucket`](Back::fast_bucket) is `buf`'s bucket, which
        /// the shared pool's hot path relies on instead of checking the length again.
        unsafe fn give_back(&self, buf: Box<[T]>, back: Back);
    }

    /// How a guard's buffer goes back, in one word, decided when the guard is made: the low byte is
    /// the buffer's bucket when its length is a bucket length (else [`Back::NO_BUCKET`]), bit 8 says
    /// to clear. So a return takes the shared pool's hot path exactly when the word is below
    /// [`BUCKET_COUNT`] — one compare, where recomputing the bucket from the length on every return
    /// (range checks, a power-of-two test, a bit scan) took a dozen instructions.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    #[repr(transparent)]
    pub struct Back(usize);

    impl Back {
        const NO_BUCKET: usize = 0xff;
        const CLEAR: usize = 1 << 8;

        /// For a buffer of `len` elements.
        #[inline]
        pub(crate) fn of_length(len: usize, clear: bool) -> Back {
            Back::in_bucket(bucket_of_length(len).unwrap_or(Self::NO_BUCKET), clear)
        }

        /// For a buffer known to be of bucket `bucket`'s length (the hot path already has it).
        #[inline(always)]
        pub(crate) fn in_bucket(bucket: usize, clear: bool) -> Back {
            Back(bucket | if clear { Self::CLEAR } else { 0 })
        }

        /// For a guard whose buffer is gone ([`Rented::detach`](super::Rented::detach)): never the
        /// hot path, so the pool's slow path sees the empty buffer and ignores it.
        pub(crate) const DETACHED: Back = Back(Self::NO_BUCKET);

        /// The bucket, when the return needs no clearing and the length is a bucket length.
        #[inline(always)]
        pub(crate) fn fast_bucket(self) -> Option<usize> {
            (self.0 < BUCKET_COUNT).then_some(self.0)
        }

        #[inline]
        pub(crate) fn clears(self) -> bool {
            self.0 & Self::CLEAR != 0
        }

        pub(crate) fn with_clear(self, clear: bool) -> Back {
            Back::in_bucket(self.0 & !Self::CLEAR, clear)
        }
    }
}
pub(crate) use sealed::{Back, ReturnTo};

/// A buffer rented from a pool, returned to it when dropped — on every path, including `?` and a
/// panic that unwinds (under `panic = "abort"` nothing unwinds, so nothing is returned).
///
/// It derefs to the *requested* length; [`capacity`](Self::capacity) is the bucket length the
/// pool really handed out. It also tracks how much of it you [`written`](Self::written), so the
/// length of your data travels with the buffer (the course's "carry `written`").
///
/// Returning twice, or using the buffer after its return, does not compile: dropping or
/// [`return_cleared`](Self::return_cleared) consumes the guard.
///
/// ```compile_fail,E0382
#[doc = include_str!("../../doc/double_return.rs")]
/// ```
///
/// ```compile_fail,E0382
#[doc = include_str!("../../doc/use_after_return.rs")]
/// ```
///
/// ```compile_fail,E0505
#[doc = include_str!("../../doc/return_while_borrowed.rs")]
/// ```
///
/// What ownership does *not* remove: stale data. Without clearing, the next renter sees the
/// previous renter's bytes:
///
/// ```
#[doc = include_str!("../../doc/stale_data.rs")]
/// let mut b = pool.rent(16);
/// b[0] = 42;
/// b.return_cleared();
/// assert_eq!(pool.rent(16)[0], 0);
/// ```
pub struct Rented<'p, T: Element, P: ReturnTo<T> + ?Sized = super::SharedPool<T>> {
    pool: &'p P,
    buf: Box<[T]>,
    len: usize,
    written: usize,
    /// The bucket and whether the return clears: a whole word, not a `bool`, so moving the guard
    /// copies whole words (a `bool` plus padding made the hot path pay a store-forwarding stall
    /// per move).
    back: Back,
}

#[inline]
pub(crate) fn guard<T: Element, P: ReturnTo<T> + ?Sized>(
    pool: &P,
    buf: Box<[T]>,
    len: usize,
    clear: bool,
) -> Rented<'_, T, P> {
    let back = Back::of_length(buf.len(), clear);
    // SAFETY: `back` is computed from `buf`'s length.
    unsafe { guard_with(pool, buf, len, back) }
}

/// A guard whose [`Back`] the caller already knows.
///
/// # Safety
///
/// `back`'s bucket, if any, is `buf`'s ([`Back::fast_bucket`] of `back` without its clear bit is
/// [`bucket_of_length`] of `buf.len()`): the guard's drop hands both to
/// [`ReturnTo::give_back`], which relies on it.
#[inline(always)]
pub(crate) unsafe fn guard_with<T: Element, P: ReturnTo<T> + ?Sized>(
    pool: &P,
    buf: Box<[T]>,
    len: usize,
    back: Back,
) -> Rented<'_, T, P> {
    debug_assert!(len <= buf.len());
    debug_assert_eq!(
        back.fast_bucket()
            .or_else(|| back.with_clear(false).fast_bucket()),
        bucket_of_length(buf.len())
    );
    // `len <= buf.len()` holds already; saying so with a `min` (a compare and a conditional
    // move, once per rent) lets the compiler drop the length test of every `deref` after it,
    // while the guard is in registers: 48 → 44 instructions per rent, `black_box(&*b)` and
    // return (callgrind). Indexing in `deref` instead (a compare and a branch to a panic) was
    // as short in a small test but, in the bench's larger loop, kept the guard in memory for the
    // panic's unwinding (six stores per rent).
    let len = len.min(buf.len());
    Rented {
        pool,
        buf,
        len,
        written: 0,
        back,
    }
}

/// The surface both guards share ([`Rented`], borrowing its pool, and
/// [`OwnedRented`](super::OwnedRented), holding an `Arc` of it): capacity and the written
/// prefix, the return choices, `Deref`/`DerefMut`/`AsRef`/`AsMut`, `io::Write` and `Debug`,
/// written once so that the two cannot drift apart. Each guard has its own `Drop`.
macro_rules! guard_surface {
    ($name:literal, $ty:ty, $ty_u8:ty, $(#[$write_doc:meta])*) => {
        impl<T: Element, P: ReturnTo<T> + ?Sized> $ty {
            /// The bucket length the pool handed out (≥ the requested length).
            #[inline]
            pub fn capacity(&self) -> usize {
                self.buf.len()
            }

            /// The whole buffer, up to its capacity (what .NET code sees as `array`).
            pub fn as_capacity(&self) -> &[T] {
                &self.buf
            }

            /// The whole buffer, mutable, up to its capacity.
            pub fn as_capacity_mut(&mut self) -> &mut [T] {
                &mut self.buf
            }

            /// How many elements count as written (see [`append`](Self::append), [`set_written`](Self::set_written)).
            pub fn written_len(&self) -> usize {
                self.written
            }

            /// The written prefix: your data, as opposed to whatever else the buffer holds.
            pub fn written(&self) -> &[T] {
                &self.buf[..self.written]
            }

            /// Marks the first `n` elements as written; `n` may be up to the capacity.
            pub fn set_written(&mut self, n: usize) -> Result<(), PoolError> {
                if n > self.buf.len() {
                    return Err(PoolError::OutOfBounds {
                        start: 0,
                        count: n,
                        length: self.buf.len(),
                    });
                }
                self.written = n;
                Ok(())
            }

            /// Copies `data` after the written prefix and extends it; refuses to go past the capacity.
            pub fn append(&mut self, data: &[T]) -> Result<(), PoolError> {
                let start = self.written;
                let end = start
                    .checked_add(data.len())
                    .filter(|&e| e <= self.buf.len())
                    .ok_or(PoolError::OutOfBounds {
                        start,
                        count: data.len(),
                        length: self.buf.len(),
                    })?;
                self.buf[start..end].clone_from_slice(data);
                self.written = end;
                Ok(())
            }

            /// Whether this guard clears the buffer when it goes back.
            pub fn clears_on_return(&self) -> bool {
                self.back.clears()
            }

            /// Chooses whether the buffer is cleared when it goes back (the pool's default otherwise).
            pub fn set_clear_on_return(&mut self, clear: bool) {
                self.back = self.back.with_clear(clear);
            }

            /// Returns the buffer now, cleared (`Return(array, clearArray: true)`).
            pub fn return_cleared(mut self) {
                self.back = self.back.with_clear(true);
            }

            /// Returns the buffer now, not cleared: the next renter sees its contents.
            pub fn return_uncleared(mut self) {
                self.back = self.back.with_clear(false);
            }

            /// Keeps the buffer for good: it never goes back (the "forgot to return" case, on purpose).
            pub fn detach(mut self) -> Box<[T]> {
                // The guard's drop then returns an empty buffer, which every pool ignores.
                self.back = Back::DETACHED;
                std::mem::take(&mut self.buf)
            }
        }

        impl<T: Element, P: ReturnTo<T> + ?Sized> Deref for $ty {
            type Target = [T];
            #[inline]
            fn deref(&self) -> &[T] {
                // `len <= buf.len()` always holds; `get` instead of indexing leaves no panic path, so
                // the guard has no unwinding edge to keep it in memory and stays in registers. After a
                // rent in the same function the test folds away (see `guard_with`).
                self.buf.get(..self.len).unwrap_or_default()
            }
        }

        impl<T: Element, P: ReturnTo<T> + ?Sized> DerefMut for $ty {
            #[inline]
            fn deref_mut(&mut self) -> &mut [T] {
                self.buf.get_mut(..self.len).unwrap_or_default()
            }
        }

        impl<T: Element, P: ReturnTo<T> + ?Sized> AsRef<[T]> for $ty {
            fn as_ref(&self) -> &[T] {
                self
            }
        }

        impl<T: Element, P: ReturnTo<T> + ?Sized> AsMut<[T]> for $ty {
            fn as_mut(&mut self) -> &mut [T] {
                self
            }
        }

        $(#[$write_doc])*
                impl<P: ReturnTo<u8> + ?Sized> std::io::Write for $ty_u8 {
            fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
                let start = self.written;
                let Some(room) = self.buf.get_mut(start..) else {
                    return Ok(0);
                };
                let n = data.len().min(room.len());
                room[..n].copy_from_slice(&data[..n]);
                self.written = start + n;
                Ok(n)
            }

            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }

        impl<T: Element + fmt::Debug, P: ReturnTo<T> + ?Sized> fmt::Debug for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_struct($name)
                    .field("len", &self.len)
                    .field("capacity", &self.buf.len())
                    .field("written", &self.written)
                    .finish_non_exhaustive()
            }
        }
    };
}
pub(crate) use guard_surface;

guard_surface!(
    "Rented",
    Rented<'_, T, P>,
    Rented<'_, u8, P>,
    /// Writes go after the written prefix, as [`append`](Rented::append) does, as far as the bucket
    /// has room: a short write when it fills up, then `Ok(0)`, as `io::Write` for `&mut [u8]` does.
    ///
    /// ```
    /// use std::io::Write;
    /// use bufpool::pool::SharedPool;
    /// let pool = SharedPool::<u8>::new();
    /// let mut line = pool.rent(16);
    /// write!(line, "order {}|", 1042).unwrap();
    /// assert_eq!(line.written(), b"order 1042|");
    /// assert_eq!(line.write(&[b'x'; 64]).unwrap(), 5); // 16 - 11 bytes of room
    /// ```
);

impl<T: Element, P: ReturnTo<T> + ?Sized> Drop for Rented<'_, T, P> {
    // Small on purpose, so the drop glue inlines and the guard's fields reach `give_back` in
    // registers: an out-of-line glue forces the guard through memory (copy, store, reload),
    // which cost more than the return itself.
    #[inline]
    fn drop(&mut self) {
        // No emptiness test here: a detached guard's `back` is never the hot path, and the
        // pools' slow paths ignore an empty buffer.
        let buf = std::mem::take(&mut self.buf);
        // SAFETY: `self.back` was made for `self.buf` (`guard`, `guard_with`'s promise) and
        // only ever changes its clear bit after that (`with_clear`), or becomes `DETACHED` when
        // the buffer is taken out (`detach`); the buffer's length never changes (no method
        // replaces or resizes it), so `back` is still the one made for `buf`.
        unsafe { self.pool.give_back(buf, self.back) };
    }
}

/// A buffer a pool refused to take back, with the reason. The buffer is handed back to you
/// (cleared, if you asked for clearing: .NET clears before it checks).
///
/// Exhaustive on purpose, so it can be taken apart (`let Rejected { error, buffer } = r`): the
/// reason and the buffer are all a refusal has.
#[derive(Debug)]
pub struct Rejected<T> {
    /// Why it was refused.
    pub error: PoolError,
    /// The buffer.
    pub buffer: Box<[T]>,
}

impl<T> fmt::Display for Rejected<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.error.fmt(f)
    }
}

impl<T: fmt::Debug> std::error::Error for Rejected<T> {}

// === engine glue shared by SharedPool and ConfigurablePool ===

/// The panic of an infallible rent (`rent`, `rent_const`, `rent_boxed`) whose `try_` twin
/// failed: out of line and cold, so the rent it ends keeps its hot path as short as the `try_`
/// one's, and `#[track_caller]`, so the message names the caller's line, as `Vec`'s does.
#[cold]
#[inline(never)]
#[track_caller]
pub(crate) fn rent_failed(error: &PoolError) -> ! {
    panic!("{error}")
}

#[inline]
pub(crate) fn rent_box<T: Element, E: Engine<Box<[T]>>>(
    engine: &E,
    len: usize,
) -> Result<Box<[T]>, PoolError> {
    rent_planned(engine, engine.plan(len))
}

/// Carries out a rent `plan` made by `engine`.
#[inline]
pub(crate) fn rent_planned<T: Element, E: Engine<Box<[T]>>>(
    engine: &E,
    plan: Plan<Box<[T]>>,
) -> Result<Box<[T]>, PoolError> {
    match plan {
        Plan::Hit(buf) => Ok(buf),
        Plan::Empty => Ok(Box::default()),
        Plan::Exact(n) => {
            let buf = element::alloc(n)?;
            engine.note_alloc(None);
            Ok(buf)
        }
        Plan::Alloc { bucket, length } => {
            let buf = element::alloc(length)?;
            engine.note_alloc(Some(bucket));
            Ok(buf)
        }
    }
}

#[inline]
pub(crate) fn return_box<T: Element, E: Engine<Box<[T]>>>(
    engine: &E,
    mut buf: Box<[T]>,
    clear: bool,
) -> Result<(), Rejected<T>> {
    let len = buf.len();
    if clear && engine.clears(len) {
        element::clear(&mut buf);
    }
    match engine.put(len, buf) {
        Put::Kept | Put::Dropped(_) | Put::Ignored(_) => Ok(()),
        Put::NotAssociated(buffer) => Err(Rejected {
            error: PoolError::NotAssociated { length: len },
            buffer,
        }),
    }
}

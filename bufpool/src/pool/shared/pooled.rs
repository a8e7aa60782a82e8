//! The buffer types the shared engine keeps, and how a thread's slots hold each.

use crate::bucket::BUCKET_COUNT;
use crate::pool::Element;
use crate::pool::sync::{self, BoxSlots, SlotCell};

// === impl Pooled ===

/// A buffer type the shared engine keeps, and how a thread's slots hold it: the ownership API's
/// `Box<[T]>` as a bare pointer (`BoxSlots`: its length is its bucket's), a shared buffer
/// (an `Arc`, one pointer already) in a `SlotCell` (`CellSlots`). Sealed: the engine's
/// unsafe slots rely on the implementations here.
pub trait Pooled: Send + Sized + 'static + sealed::Sealed {
    /// One slot per bucket.
    #[doc(hidden)]
    type Slots: SlotsOf<Self> + sync::ThreadShared;
}

mod sealed {
    pub trait Sealed {}
    impl<T: super::Element> Sealed for Box<[T]> {}
    impl<X: Send + Sync + 'static> Sealed for std::sync::Arc<X> {}
}

/// One thread's slots of one pool, one per bucket (.NET's `t_tlsBuckets`).
pub trait SlotsOf<B> {
    fn new() -> Self;
    /// The buffer in `bucket`'s slot, if any; the slot is then empty.
    fn take(&self, bucket: usize) -> Option<B>;
    /// Puts `buf` in `bucket`'s slot, giving back the previous buffer; `Err(buf)`, the slot
    /// untouched, for a buffer that is not of the bucket's length.
    fn replace(&self, bucket: usize, buf: B) -> Result<Option<B>, B>;
    fn is_some(&self, bucket: usize) -> bool;
    /// [`replace`](Self::replace) without the length check.
    ///
    /// # Safety
    ///
    /// `buf` is of `bucket`'s length (`replace` would not refuse it).
    unsafe fn replace_unchecked(&self, bucket: usize, buf: B) -> Option<B>;
}

impl<T: Element> Pooled for Box<[T]> {
    type Slots = BoxSlots<T>;
}

impl<T: Element> SlotsOf<Box<[T]>> for BoxSlots<T> {
    fn new() -> Self {
        BoxSlots::new()
    }
    #[inline(always)]
    fn take(&self, bucket: usize) -> Option<Box<[T]>> {
        BoxSlots::take(self, bucket)
    }
    #[inline(always)]
    fn replace(&self, bucket: usize, buf: Box<[T]>) -> Result<Option<Box<[T]>>, Box<[T]>> {
        BoxSlots::replace(self, bucket, buf)
    }
    fn is_some(&self, bucket: usize) -> bool {
        BoxSlots::is_some(self, bucket)
    }
    #[inline(always)]
    unsafe fn replace_unchecked(&self, bucket: usize, buf: Box<[T]>) -> Option<Box<[T]>> {
        // SAFETY: the caller's promise, passed on.
        unsafe { BoxSlots::replace_unchecked(self, bucket, buf) }
    }
}

/// Slots holding the buffer itself, one [`SlotCell`] per bucket (the caller vouches for the
/// lengths).
pub struct CellSlots<B>([SlotCell<B>; BUCKET_COUNT]);

impl<X: Send + Sync + 'static> Pooled for std::sync::Arc<X> {
    type Slots = CellSlots<Self>;
}

impl<B> SlotsOf<B> for CellSlots<B> {
    fn new() -> Self {
        Self(std::array::from_fn(|_| SlotCell::new()))
    }
    #[inline]
    fn take(&self, bucket: usize) -> Option<B> {
        self.0[bucket].take()
    }
    #[inline]
    fn replace(&self, bucket: usize, buf: B) -> Result<Option<B>, B> {
        Ok(self.0[bucket].replace(Some(buf)))
    }
    fn is_some(&self, bucket: usize) -> bool {
        self.0[bucket].is_some()
    }
    #[inline]
    unsafe fn replace_unchecked(&self, bucket: usize, buf: B) -> Option<B> {
        self.0[bucket].replace(Some(buf))
    }
}

// === impl ThreadSlots ===

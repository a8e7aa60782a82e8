//! A thread's slots for boxed buffers: one bare pointer per bucket.

#[cfg(loom)]
use super::SlotCell;
use crate::bucket::{BUCKET_COUNT, bucket_length};

/// Whether a buffer of `len` elements may sit in `bucket`'s slot: what `BoxSlots::replace`
/// checks, what `replace_unchecked`'s callers promise, and what rebuilding a box from a slot's
/// bare pointer rests on (natively and, asserted, under loom).
fn fits(bucket: usize, len: usize) -> bool {
    bucket < BUCKET_COUNT && len == bucket_length(bucket)
}

/// One thread's slots for boxed buffers, one per bucket, each a bare pointer: a slot's buffer
/// always has its bucket's length, so the length is not kept (a `Box<[T]>` in a cell is two words
/// to load and store, one of them always the same for a bucket). This halves the memory traffic of
/// the rent/return hot path, and one-word cells are indexed without a multiply (callgrind:
/// 33 → 26 instructions per `drop(pool.rent(16))`).
///
/// Natively the pointers are `Box::into_raw` of buffers whose length `replace` has checked;
/// under loom each slot is a [`SlotCell`] holding the box.
#[cfg(not(loom))]
pub struct BoxSlots<T>([std::cell::Cell<Option<std::ptr::NonNull<T>>>; BUCKET_COUNT]);

// SAFETY: a `BoxSlots` owns the buffers its pointers came from (each one a `Box<[T]>` given up
// by `replace`, rebuilt exactly once, by `take`, `replace` or `drop`) and nothing else; sending it
// to another thread sends those boxes, which is sound for `T: Send` as `Box<[T]>: Send` is.
#[cfg(not(loom))]
unsafe impl<T: Send> Send for BoxSlots<T> {}

#[cfg(not(loom))]
impl<T> BoxSlots<T> {
    pub(crate) fn new() -> Self {
        Self(std::array::from_fn(|_| std::cell::Cell::new(None)))
    }

    /// The buffer in `bucket`'s slot, if any; the slot is then empty.
    #[inline(always)]
    pub(crate) fn take(&self, bucket: usize) -> Option<Box<[T]>> {
        let p = self.0[bucket].take()?;
        // SAFETY: `p` is in slot `bucket`, so `replace_unchecked` put it there (the only writer
        // of a pointer), from a box of `bucket_length(bucket)` elements (checked by `replace`,
        // promised by the other callers); the `take` above removed it, so this is the one box
        // rebuilt from it.
        Some(unsafe { rebuild(p, bucket) })
    }

    /// Puts `buf` in `bucket`'s slot and gives back the slot's previous buffer; refuses (gives
    /// `buf` back, the slot untouched) a buffer whose length is not the bucket's.
    pub(crate) fn replace(
        &self,
        bucket: usize,
        buf: Box<[T]>,
    ) -> Result<Option<Box<[T]>>, Box<[T]>> {
        if !fits(bucket, buf.len()) {
            return Err(buf);
        }
        // SAFETY: just checked.
        Ok(unsafe { self.replace_unchecked(bucket, buf) })
    }

    /// [`replace`](Self::replace) without the checks: the return's hot path, where the guard
    /// already knows the buffer's bucket.
    ///
    /// # Safety
    ///
    /// `bucket < BUCKET_COUNT` and `buf.len() == bucket_length(bucket)`.
    #[inline(always)]
    pub(crate) unsafe fn replace_unchecked(
        &self,
        bucket: usize,
        buf: Box<[T]>,
    ) -> Option<Box<[T]>> {
        debug_assert!(fits(bucket, buf.len()));
        // SAFETY: `bucket` is in bounds (the caller's promise).
        let slot = unsafe { self.0.get_unchecked(bucket) };
        let p = std::ptr::NonNull::from(Box::leak(buf)).cast::<T>();
        // From here on slot `bucket` holds a pointer given up by a box of `bucket_length(bucket)`
        // elements (the caller's promise), as `rebuild` needs.
        let prev = slot.replace(Some(p))?;
        // SAFETY: as in `take`: `prev` was in slot `bucket` and the `replace` removed it.
        Some(unsafe { rebuild(prev, bucket) })
    }

    pub(crate) fn is_some(&self, bucket: usize) -> bool {
        self.0[bucket].get().is_some()
    }
}

/// The box a slot's pointer stands for.
///
/// # Safety
///
/// `p` comes from a `Box<[T]>` of `bucket_length(bucket)` elements given up with `Box::leak`,
/// and no other box is, or will be, rebuilt from it.
#[cfg(not(loom))]
#[inline(always)]
unsafe fn rebuild<T>(p: std::ptr::NonNull<T>, bucket: usize) -> Box<[T]> {
    let slice = std::ptr::slice_from_raw_parts_mut(p.as_ptr(), bucket_length(bucket));
    // SAFETY: the caller's promise: the pointer and length of a leaked box, rebuilt once.
    unsafe { Box::from_raw(slice) }
}

#[cfg(not(loom))]
impl<T> Drop for BoxSlots<T> {
    fn drop(&mut self) {
        for bucket in 0..BUCKET_COUNT {
            drop(self.take(bucket));
        }
    }
}

/// Under loom: one [`SlotCell`] per bucket, holding the box.
#[cfg(loom)]
pub struct BoxSlots<T>([SlotCell<Box<[T]>>; BUCKET_COUNT]);

#[cfg(loom)]
impl<T> BoxSlots<T> {
    pub(crate) fn new() -> Self {
        Self(std::array::from_fn(|_| SlotCell::new()))
    }
    pub(crate) fn take(&self, bucket: usize) -> Option<Box<[T]>> {
        self.0[bucket].take()
    }
    pub(crate) fn replace(
        &self,
        bucket: usize,
        buf: Box<[T]>,
    ) -> Result<Option<Box<[T]>>, Box<[T]>> {
        if !fits(bucket, buf.len()) {
            return Err(buf);
        }
        Ok(self.0[bucket].replace(Some(buf)))
    }
    /// Checks what native code trusts: a broken promise fails the loom models.
    pub(crate) unsafe fn replace_unchecked(
        &self,
        bucket: usize,
        buf: Box<[T]>,
    ) -> Option<Box<[T]>> {
        assert!(fits(bucket, buf.len()), "replace_unchecked's promise");
        self.0[bucket].replace(Some(buf))
    }
    pub(crate) fn is_some(&self, bucket: usize) -> bool {
        self.0[bucket].is_some()
    }
}

//! The floor: the least a per-thread buffer pool can do for a rent + return, and the steps between
//! it and the course's pool, so the bench can say what the remaining gap pays for.
//!
//! [`Floor`] is one `thread_local!` array of one `Option<Box<[u8]>>` per bucket: rent takes the
//! bucket's slot (or allocates), return puts the buffer back (dropping a previous occupant).
//! No pool instance, no partitions, no trimming stamp, no statistics, no clear-on-return flag.
//! Two switches add, one at a time, what the pool's hot path does beyond that:
//!
//! - `INSTANCES`: several pools can exist, so the thread-local remembers *which* pool its slots
//!   belong to and every call compares that with the pool's key (the pool's per-thread cache);
//! - `TRIM`: a return also resets the slot's trimming stamp (the pool's `seen` cell), so a new
//!   occupant is unseen by the next trim.
//!
//! Each variant is a guard that returns itself on drop, like the pool's `Rented`, so the loops
//! timed for the floor and for the pool have the same shape.

use std::cell::Cell;
use std::ops::Deref;

use bufpool::bucket::{BUCKET_COUNT, MAX_BUCKET_LEN, select_bucket_index};

thread_local! {
    static SLOTS: [Cell<Option<Box<[u8]>>>; BUCKET_COUNT] =
        const { [const { Cell::new(None) }; BUCKET_COUNT] };
    static STAMPS: [Cell<u64>; BUCKET_COUNT] = const { [const { Cell::new(0) }; BUCKET_COUNT] };
    /// The key of the floor instance whose slots this thread holds (0: none yet).
    static OWNER: Cell<u64> = const { Cell::new(0) };
}

/// A floor "pool". Instances of one variant share this thread's slots; with `INSTANCES` each
/// call first checks that this thread's slots are this instance's.
pub struct Floor<const INSTANCES: bool, const TRIM: bool> {
    key: u64,
}

/// A buffer rented from a [`Floor`]; derefs to the requested length, goes back on drop.
pub struct FloorRented<'f, const INSTANCES: bool, const TRIM: bool> {
    floor: &'f Floor<INSTANCES, TRIM>,
    buf: Box<[u8]>,
    len: usize,
    /// The buffer's bucket, or `BUCKET_COUNT` for an unpooled one (known at rent, as the pool's
    /// guard knows it).
    bucket: usize,
}

impl<const INSTANCES: bool, const TRIM: bool> Floor<INSTANCES, TRIM> {
    /// A floor that owns this thread's slots (every variant uses the same key, so the owner
    /// check passes: the bench measures the check, not a miss).
    pub fn new() -> Self {
        let key = 1;
        OWNER.set(key);
        Floor { key }
    }

    #[inline(always)]
    fn mine(&self) -> bool {
        !INSTANCES || OWNER.get() == self.key
    }

    /// A buffer of at least `len` bytes (`len` from 1 to the largest bucket; others get an exact,
    /// unpooled allocation).
    #[inline]
    pub fn rent(&self, len: usize) -> FloorRented<'_, INSTANCES, TRIM> {
        let (buf, bucket) = if len.wrapping_sub(1) < MAX_BUCKET_LEN && self.mine() {
            let bucket = select_bucket_index(len);
            let buf = SLOTS
                .with(|s| s[bucket].take())
                .unwrap_or_else(|| vec![0u8; 16 << bucket].into_boxed_slice());
            (buf, bucket)
        } else {
            (vec![0u8; len].into_boxed_slice(), BUCKET_COUNT)
        };
        FloorRented {
            floor: self,
            buf,
            len,
            bucket,
        }
    }

    #[inline]
    fn give_back(&self, buf: Box<[u8]>, bucket: usize) {
        if bucket < BUCKET_COUNT && self.mine() {
            let prev = SLOTS.with(|s| s[bucket].replace(Some(buf)));
            if TRIM {
                STAMPS.with(|s| s[bucket].set(0));
            }
            drop(prev);
        }
    }
}

impl<const INSTANCES: bool, const TRIM: bool> Default for Floor<INSTANCES, TRIM> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const INSTANCES: bool, const TRIM: bool> Deref for FloorRented<'_, INSTANCES, TRIM> {
    type Target = [u8];
    #[inline]
    fn deref(&self) -> &[u8] {
        self.buf.get(..self.len).unwrap_or_default()
    }
}

impl<const INSTANCES: bool, const TRIM: bool> Drop for FloorRented<'_, INSTANCES, TRIM> {
    #[inline]
    fn drop(&mut self) {
        let buf = std::mem::take(&mut self.buf);
        if !buf.is_empty() {
            self.floor.give_back(buf, self.bucket);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_returned_buffer_is_rented_again() {
        let floor = Floor::<true, true>::new();
        let mut a = floor.rent(100);
        assert_eq!((a.len(), a.buf.len()), (100, 128));
        a.buf[0] = 7;
        let first = a.buf.as_ptr();
        drop(a);
        let b = floor.rent(128);
        assert_eq!((b.buf.as_ptr(), b[0]), (first, 7));
        // Another bucket does not see it.
        assert_ne!(floor.rent(16).buf.as_ptr(), first);
    }

    #[test]
    fn an_empty_request_is_empty() {
        let floor = Floor::<false, false>::new();
        assert_eq!(floor.rent(0).len(), 0);
    }
}

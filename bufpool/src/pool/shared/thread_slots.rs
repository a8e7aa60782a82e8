//! One thread's slots for one pool.

use super::pooled::{Pooled, SlotsOf};
use crate::bucket::BUCKET_COUNT;
use crate::pool::sync::{AtomicU64, Ordering, StampCell};
use crate::pool::trim::{self, MemoryPressure};

/// One thread's slots for one pool: one buffer per bucket, and the time the first trim saw it
/// (kept apart so the hot path moves only the buffer).
pub(crate) struct ThreadSlots<B: Pooled> {
    pub(super) slots: B::Slots,
    pub(super) seen: [StampCell; BUCKET_COUNT],
}

impl<B: Pooled> ThreadSlots<B> {
    pub(super) fn new() -> Self {
        Self {
            slots: B::Slots::new(),
            seen: std::array::from_fn(|_| StampCell::new()),
        }
    }

    /// Applies one trim to every slot, pushing dropped buffers to `out`.
    pub(super) fn trim(&self, pressure: MemoryPressure, now_ms: u64, out: &mut Vec<B>) {
        for (bucket, seen) in self.seen.iter().enumerate() {
            if let Some(buf) = self.slots.take(bucket) {
                let mut stamp = seen.take();
                if trim::slot_trim(&mut stamp, pressure, now_ms) {
                    out.push(buf);
                } else {
                    // Nothing runs between the take and this put back: the slot is this
                    // thread's alone and no user code runs in between. The buffer came from
                    // this slot, so it is of the slot's length.
                    self.put_back(bucket, buf);
                    seen.set(stamp);
                }
            }
        }
    }

    /// Puts a buffer just taken from `bucket`'s slot back (so of the slot's length, never
    /// refused; the slot is empty, so nothing comes back).
    pub(super) fn put_back(&self, bucket: usize, buf: B) {
        drop(self.slots.replace(bucket, buf));
    }

    pub(super) fn drain(&self, out: &mut Vec<B>) {
        out.extend((0..BUCKET_COUNT).filter_map(|b| self.slots.take(b)));
    }
}

/// One thread's counts of its rents and returns at one pool, for [`PoolStats`](crate::pool::PoolStats).
///
/// Written only by their thread (or by the thread that inherits its entry after it exited,
/// ordered by the thread-id registry's lock), so a count is a `Relaxed` load and store, not a
/// read-modify-write: the hot path's cost is a few instructions on a line no other thread
/// writes, and two threads renting in parallel do not contend. Any thread's `stats` reads them
/// with atomic loads.
pub(crate) struct ThreadCounts {
    rented: AtomicU64,
    returned: AtomicU64,
}

impl Default for ThreadCounts {
    fn default() -> Self {
        Self {
            rented: AtomicU64::new(0),
            returned: AtomicU64::new(0),
        }
    }
}

/// Adds one to a count only this thread writes.
#[inline(always)]
fn bump(count: &AtomicU64) {
    count.store(
        count.load(Ordering::Relaxed).wrapping_add(1),
        Ordering::Relaxed,
    );
}

impl ThreadCounts {
    #[inline(always)]
    pub(super) fn rent(&self) {
        bump(&self.rented);
    }
    #[inline(always)]
    pub(super) fn give_back(&self) {
        bump(&self.returned);
    }
    /// `(rented, returned)` so far.
    pub(super) fn read(&self) -> (u64, u64) {
        (
            self.rented.load(Ordering::Relaxed),
            self.returned.load(Ordering::Relaxed),
        )
    }
}

//! One thread's slots for one pool.

use super::pooled::{Pooled, SlotsOf};
use crate::bucket::BUCKET_COUNT;
use crate::pool::sync::StampCell;
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

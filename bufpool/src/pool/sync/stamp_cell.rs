//! A thread slot's trimming stamp in one word.

#[cfg(loom)]
use super::SlotCell;

/// A thread slot's trimming stamp: when the first trim saw the slot's buffer, or `None`.
///
/// Natively one word (`Option<u64>` takes two), so a slot's stamp is indexed like its pointer,
/// without a multiply: `None` is 0 and a stamp `s` is `s + 1`, saturating. A stamp of
/// `u64::MAX` ms (a clock past 584 million years) reads back 1 ms earlier; trimming compares
/// stamps with periods of seconds, so no decision changes.
#[cfg(not(loom))]
pub(crate) struct StampCell(std::cell::Cell<u64>);

#[cfg(not(loom))]
impl StampCell {
    pub(crate) const fn new() -> Self {
        Self(std::cell::Cell::new(0))
    }
    /// The stamp; the cell then holds `None`.
    pub(crate) fn take(&self) -> Option<u64> {
        self.0.take().checked_sub(1)
    }
    #[inline]
    pub(crate) fn set(&self, stamp: Option<u64>) {
        self.0.set(stamp.map_or(0, |s| s.saturating_add(1)));
    }
}

/// Under loom: the stamp itself, in a [`SlotCell`].
#[cfg(loom)]
pub(crate) struct StampCell(SlotCell<u64>);

#[cfg(loom)]
impl StampCell {
    pub(crate) fn new() -> Self {
        Self(SlotCell::new())
    }
    pub(crate) fn take(&self) -> Option<u64> {
        self.0.take()
    }
    pub(crate) fn set(&self, stamp: Option<u64>) {
        self.0.replace(stamp);
    }
}

// === impl BoxSlots ===

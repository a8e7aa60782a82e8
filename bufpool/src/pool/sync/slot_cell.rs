//! One thread slot: a bare cell natively, a loom mutex under loom.

#[cfg(loom)]
use super::{Mutex, lock};

// === impl SlotCell ===

/// One thread slot: a buffer or nothing, touched only by the thread that owns it.
///
/// Natively this is a bare [`Cell`](std::cell::Cell): `take` and `replace` compile to a couple of
/// moves with no lock, no atomic and no borrow flag — the rent/return hot path. Under loom it is a
/// mutex so loom can check the claim that only one thread ever touches it.
#[cfg(not(loom))]
pub struct SlotCell<B>(std::cell::Cell<Option<B>>);

#[cfg(not(loom))]
impl<B> SlotCell<B> {
    pub(crate) const fn new() -> Self {
        Self(std::cell::Cell::new(None))
    }
    #[inline]
    pub(crate) fn take(&self) -> Option<B> {
        self.0.take()
    }
    #[inline]
    pub(crate) fn replace(&self, b: Option<B>) -> Option<B> {
        self.0.replace(b)
    }
    pub(crate) fn is_some(&self) -> bool {
        // `Cell` has no `&` access to the content; a take/replace pair is still two moves.
        let b = self.0.take();
        let some = b.is_some();
        self.0.set(b);
        some
    }
}

#[cfg(loom)]
pub struct SlotCell<B>(Mutex<Option<B>>);

#[cfg(loom)]
impl<B> SlotCell<B> {
    pub(crate) fn new() -> Self {
        Self(Mutex::new(None))
    }
    pub(crate) fn take(&self) -> Option<B> {
        lock(&self.0).take()
    }
    pub(crate) fn replace(&self, b: Option<B>) -> Option<B> {
        std::mem::replace(&mut *lock(&self.0), b)
    }
    pub(crate) fn is_some(&self) -> bool {
        lock(&self.0).is_some()
    }
}

//! The one place the pool gets its synchronization primitives from.
//!
//! Natively (and in wasm) these are `std`'s mutexes and atomics plus a per-pool, per-thread store
//! built on the `thread_local` crate. Under `--cfg loom` the same names resolve to loom's
//! instrumented versions so `tests/pool_loom.rs` can explore every interleaving of the partition and
//! thread-slot logic — the approach of bytes' `src/loom.rs`.
//!
//! Everything in here is `pub(crate)`: the pool's public API never exposes a lock.

#[cfg(not(loom))]
pub(crate) use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
#[cfg(not(loom))]
pub(crate) use std::sync::{Mutex, MutexGuard};

#[cfg(loom)]
pub(crate) use loom::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
#[cfg(loom)]
pub(crate) use loom::sync::{Arc, Mutex, MutexGuard};

/// Locks `m`, ignoring poisoning: the pool never leaves its own state half-updated across a call
/// into user code, so a panic elsewhere cannot make the protected data inconsistent.
#[cfg(not(loom))]
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Locks `m` (loom's mutex is not poisoned).
#[cfg(loom)]
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

mod box_slots;
mod numbering;
mod slot_cell;
mod stamp_cell;
#[cfg(all(test, not(loom)))]
mod tests;
mod thread_store;

pub use box_slots::BoxSlots;
pub(crate) use numbering::{home_index, next_id};
pub use slot_cell::SlotCell;
pub(crate) use stamp_cell::StampCell;
pub(crate) use thread_store::{ThreadShared, ThreadStore};

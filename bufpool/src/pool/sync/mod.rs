//! The one place the pool gets its synchronization primitives from, and the pool's per-thread
//! storage.
//!
//! Natively (and in wasm) these are `std`'s mutexes and atomics, plus code of the crate's own:
//! small thread ids reused after their thread exits and the one-entry per-thread cache
//! (`thread_id.rs`), the per-pool table of per-thread entries indexed by those ids
//! (`thread_store.rs`), and a thread's slots (`slot_cell.rs`, `stamp_cell.rs`, `box_slots.rs`).
//!
//! Under `--cfg loom` the mutexes and atomics resolve to loom's instrumented versions, so
//! `tests/pool_loom.rs` explores every interleaving of the partition logic as it ships — the
//! approach of bytes' `src/loom.rs`. The per-thread storage does **not** run under loom: its
//! types are replaced by mutex-backed stand-ins (a locked list of entries keyed by loom's thread
//! id; slots behind loom mutexes; `BoxSlots` holding boxes and asserting the length promise that
//! the native code trusts). The native store, the cache and `BoxSlots`' bare pointers are checked
//! by Miri alone, over `pool::sync::tests` (one test per assumption) and the thread-exit stress
//! test in `pool::tests` (see the pool's "Safety and correctness").
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
#[cfg(not(loom))]
mod thread_id;
mod thread_store;

pub use box_slots::BoxSlots;
pub(crate) use numbering::{home_index, next_id};
pub use slot_cell::SlotCell;
pub(crate) use stamp_cell::StampCell;
pub(crate) use thread_store::{Entry, ThreadShared, ThreadStore};

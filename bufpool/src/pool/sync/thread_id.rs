//! Small per-thread ids, reused after their thread exits, and the one-entry per-thread cache
//! that lives and dies with them (what `sharded-slab` does in its `tid.rs`).
//!
//! A [`ThreadStore`](super::ThreadStore) indexes its entries by these ids, and a thread's
//! cached pointer into a store is only valid while the thread holds its id: once the id is free,
//! another thread may be given the same entries. So both live in this module, and the one piece
//! of code that ends them, [`Holder`]'s `Drop`, turns the cache off *before* it frees the id. No
//! order among `std`'s thread-exit destructors is relied on: the cache ([`CACHE`]) has no
//! destructor (it is readable during every other destructor), and the id is freed only by the
//! holder, after the cache said its last word.
//!
//! Two thread-locals, not one value holding both: a thread-local with a destructor is checked
//! for being alive on every access, and the cache is read on every rent and return. One value
//! holding the cache and the id cost 50 instructions per `rent(16)` and return against 35 with
//! the cache apart (callgrind, both builds in one binary).

use std::cell::Cell;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The cache's key once its thread began exiting: never a store's key (those count up from 1).
pub(super) const DEAD: u64 = u64::MAX;

/// The holder's "no id yet".
const NO_ID: usize = usize::MAX;

/// The ids of exited threads, for reuse; taking and freeing one goes through this lock, which
/// orders the exited thread's last use of its entries before the next holder's first.
static FREE: Mutex<Vec<usize>> = Mutex::new(Vec::new());

/// The next id never handed out.
static NEXT: AtomicUsize = AtomicUsize::new(0);

/// This thread's id, taken on first need and freed when the thread exits.
struct Holder(Cell<usize>);

impl Drop for Holder {
    fn drop(&mut self) {
        // First the cache stops answering: from here on this thread reaches a store's entry
        // only through `current`, which fails now that this value is being destroyed.
        CACHE.set((DEAD, std::ptr::null()));
        // Then the id goes back for another thread.
        let id = self.0.replace(NO_ID);
        if id != NO_ID {
            #[cfg(test)]
            owners::release(id);
            free_list().push(id);
        }
    }
}

thread_local! {
    /// The one-entry cache: `(store key, pointer to this thread's entry in that store)`. No
    /// destructor, so it stays readable while other thread-locals are destroyed.
    static CACHE: Cell<(u64, *const ())> = const { Cell::new((0, std::ptr::null())) };
    /// This thread's id; its destructor ends both the cache and the id, in that order.
    static HOLDER: Holder = const { Holder(Cell::new(NO_ID)) };
}

fn free_list() -> std::sync::MutexGuard<'static, Vec<usize>> {
    // Poisoning cannot leave the list half-updated: `push` and `pop` are single steps.
    FREE.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// This thread's id, if it has one and has not begun exiting (its holder is not destroyed).
pub(super) fn current() -> Option<usize> {
    HOLDER
        .try_with(|h| h.0.get())
        .ok()
        .filter(|&id| id != NO_ID)
}

/// This thread's id, taken now if it has none; `None` once the thread began exiting (a pool used
/// from another thread-local's destructor after this thread's holder was destroyed).
pub(super) fn current_or_new() -> Option<usize> {
    HOLDER
        .try_with(|h| {
            let mut id = h.0.get();
            if id == NO_ID {
                id = free_list()
                    .pop()
                    .unwrap_or_else(|| NEXT.fetch_add(1, Ordering::Relaxed));
                #[cfg(test)]
                owners::acquire(id);
                h.0.set(id);
            }
            id
        })
        .ok()
}

/// The cache's entry.
#[inline(always)]
pub(super) fn cached() -> (u64, *const ()) {
    CACHE.get()
}

/// Remembers `(key, ptr)`, unless this thread began exiting (then the cache stays off).
pub(super) fn remember(key: u64, ptr: *const ()) {
    if CACHE.get().0 != DEAD {
        CACHE.set((key, ptr));
    }
}

/// Test-only bookkeeping of who holds which id: taking an id that a live thread holds panics,
/// so every test in the crate (the thread-exit stress test too) checks that an id is reused only
/// after its thread gave it back. A holding is named by a serial number (not `thread::current`,
/// which a thread-local's destructor may not call).
#[cfg(test)]
pub(super) mod owners {
    use std::collections::HashMap;
    use std::sync::Mutex;

    static OWNERS: Mutex<Option<(u64, HashMap<usize, u64>)>> = Mutex::new(None);

    fn with<R>(f: impl FnOnce(&mut (u64, HashMap<usize, u64>)) -> R) -> R {
        let mut g = OWNERS
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        f(g.get_or_insert_with(|| (0, HashMap::new())))
    }

    pub(in super::super) fn acquire(id: usize) {
        let prev = with(|(serial, m)| {
            *serial += 1;
            m.insert(id, *serial)
        });
        assert!(
            prev.is_none(),
            "thread id {id} handed out while holding {prev:?} has it"
        );
    }

    pub(in super::super) fn release(id: usize) {
        with(|(_, m)| m.remove(&id));
    }

    /// The holding of `id` now, if a thread holds it.
    pub(in super::super) fn holding(id: usize) -> Option<u64> {
        with(|(_, m)| m.get(&id).copied())
    }
}

//! Numbers handed out process-wide: a thread's home index and ids.

use super::{AtomicUsize, Ordering};

/// This thread's stable index, used as its "current core" when choosing a partition.
///
/// .NET asks the OS for the current processor id on every call. A thread that migrates between
/// cores changes partition there; here a thread keeps the index it was given on first use
/// (threads are numbered round-robin), which spreads threads over partitions the same way without
/// a system call. In wasm there is one thread and one partition.
#[cfg(not(loom))]
pub(crate) fn home_index() -> usize {
    use std::cell::Cell;
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    thread_local! {
        static HOME: Cell<usize> = const { Cell::new(usize::MAX) };
    }
    HOME.with(|h| {
        let mut v = h.get();
        if v == usize::MAX {
            v = NEXT.fetch_add(1, Ordering::Relaxed) & (usize::MAX >> 1);
            h.set(v);
        }
        v
    })
}

#[cfg(loom)]
pub(crate) fn home_index() -> usize {
    use std::cell::Cell;
    loom::lazy_static! {
        static ref NEXT: AtomicUsize = AtomicUsize::new(0);
    }
    loom::thread_local! {
        static HOME: Cell<usize> = Cell::new(usize::MAX);
    }
    HOME.with(|h| {
        let mut v = h.get();
        if v == usize::MAX {
            v = NEXT.fetch_add(1, Ordering::Relaxed);
            h.set(v);
        }
        v
    })
}

/// A process-wide counter for ids (pool ids, buffer ids). Ids start at 1; 0 means "none".
pub(crate) fn next_id(counter: &std::sync::atomic::AtomicU64) -> u64 {
    counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1
}

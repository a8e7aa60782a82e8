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
pub(crate) use std::sync::{Arc, Mutex, MutexGuard};

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

// === impl SlotCell ===

/// One thread slot: a buffer or nothing, touched only by the thread that owns it.
///
/// Natively this is a bare [`Cell`](std::cell::Cell): `take` and `replace` compile to a couple of
/// moves with no lock, no atomic and no borrow flag — the rent/return hot path. Under loom it is a
/// mutex so loom can check the claim that only one thread ever touches it.
#[cfg(not(loom))]
pub(crate) struct SlotCell<B>(std::cell::Cell<Option<B>>);

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
pub(crate) struct SlotCell<B>(Mutex<Option<B>>);

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

// === impl ThreadStore ===

/// Per-pool, per-thread storage: each thread that uses a pool gets its own `S`.
///
/// Natively: `thread_local::ThreadLocal`, a lock-free table indexed by a small per-thread id
/// (a thread-local read and two plain loads). A thread id is recycled when its thread exits, so
/// a new thread may inherit a dead thread's slots: the buffers stay pooled, which is harmless.
#[cfg(not(loom))]
pub(crate) struct ThreadStore<S: Send>(thread_local::ThreadLocal<S>);

#[cfg(not(loom))]
impl<S: Send> ThreadStore<S> {
    pub(crate) fn new() -> Self {
        Self(thread_local::ThreadLocal::new())
    }
    #[inline]
    pub(crate) fn get(&self) -> Option<&S> {
        self.0.get()
    }
    #[inline]
    pub(crate) fn get_or(&self, f: impl FnOnce() -> S) -> &S {
        self.0.get_or(f)
    }
    /// Every thread's `S`; needs exclusive access to the pool.
    pub(crate) fn for_each_mut(&mut self, mut f: impl FnMut(&mut S)) {
        self.0.iter_mut().for_each(&mut f);
    }
}

/// Under loom: a list of (loom thread id, `Arc<S>`) behind a loom mutex.
#[cfg(loom)]
pub(crate) struct ThreadStore<S: Send>(Mutex<Vec<(loom::thread::ThreadId, Arc<S>)>>);

#[cfg(loom)]
impl<S: Send + Sync> ThreadStore<S> {
    pub(crate) fn new() -> Self {
        Self(Mutex::new(Vec::new()))
    }
    pub(crate) fn get(&self) -> Option<Arc<S>> {
        let me = loom::thread::current().id();
        lock(&self.0)
            .iter()
            .find(|(id, _)| *id == me)
            .map(|(_, s)| s.clone())
    }
    pub(crate) fn get_or(&self, f: impl FnOnce() -> S) -> Arc<S> {
        let me = loom::thread::current().id();
        let mut all = lock(&self.0);
        if let Some((_, s)) = all.iter().find(|(id, _)| *id == me) {
            return s.clone();
        }
        let s = Arc::new(f());
        all.push((me, s.clone()));
        s
    }
    pub(crate) fn for_each_mut(&mut self, mut f: impl FnMut(&S)) {
        for (_, s) in lock(&self.0).iter() {
            f(s);
        }
    }
}

// === home partition ===

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

//! Per-pool, per-thread storage, fronted by a one-entry per-thread cache.

#[cfg(not(loom))]
use super::next_id;
#[cfg(loom)]
use super::{Arc, Mutex, lock};

/// What a [`ThreadStore`] needs of its per-thread value: `Send` natively; under loom, where the
/// store hands out an `Arc` of it, also `Sync`.
#[cfg(not(loom))]
pub trait ThreadShared: Send {}
#[cfg(not(loom))]
impl<S: Send> ThreadShared for S {}
#[cfg(loom)]
pub trait ThreadShared: Send + Sync {}
#[cfg(loom)]
impl<S: Send + Sync> ThreadShared for S {}

/// Per-pool, per-thread storage: each thread that uses a pool gets its own `S`.
///
/// Natively: `thread_local::ThreadLocal`, a lock-free table indexed by a small per-thread id
/// (a thread-local read and a few plain loads), fronted by a one-entry per-thread cache
/// ([`cache`]) for the common case of a thread using one pool at a time: a hit is one
/// const-initialized `std` thread-local read and one compare. A thread id is recycled when its
/// thread exits, so a new thread may inherit a dead thread's slots: the buffers stay pooled,
/// which is harmless.
#[cfg(not(loom))]
pub(crate) struct ThreadStore<S: Send> {
    pub(super) table: thread_local::ThreadLocal<S>,
    /// This store's key in the per-thread cache: process-unique, never 0, renewed by every
    /// `&mut` access (so no cached pointer survives one).
    key: u64,
    /// The key [`get_cached_fast`](Self::get_cached_fast) looks for: `key` when the store's
    /// owner has a hot path, else a key of its own that no cache entry ever holds (it is never
    /// remembered), so the lookup always misses. A caller's "is the hot path on?" test is then
    /// the cache's own key compare, not a second test.
    fast_key: u64,
}

#[cfg(not(loom))]
static STORE_KEYS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

#[cfg(not(loom))]
impl<S: Send> ThreadStore<S> {
    /// A store whose [`get_cached_fast`](Self::get_cached_fast) answers (`fast`) or always
    /// misses (`!fast`).
    pub(crate) fn new(fast: bool) -> Self {
        let key = next_id(&STORE_KEYS);
        Self {
            table: thread_local::ThreadLocal::new(),
            key,
            fast_key: if fast { key } else { next_id(&STORE_KEYS) },
        }
    }

    #[inline]
    pub(crate) fn get(&self) -> Option<&S> {
        match self.get_cached() {
            Some(s) => Some(s),
            None => self.get_uncached(),
        }
    }

    /// Only the per-thread cache: `None` on a miss, even when this thread has an `S` (the hot
    /// paths then take their slow path, which looks it up and refills the cache).
    #[inline(always)]
    pub(crate) fn get_cached(&self) -> Option<&S> {
        self.cached(self.key)
    }

    /// [`get_cached`](Self::get_cached) for a store made with `fast`; `None` always otherwise.
    #[inline(always)]
    pub(crate) fn get_cached_fast(&self) -> Option<&S> {
        self.cached(self.fast_key)
    }

    /// The cache's entry if it is `(key, _)`; `key` is `self.key` or `self.fast_key`.
    #[inline(always)]
    fn cached(&self, key: u64) -> Option<&S> {
        let (last, ptr) = cache::last();
        // `self.fast_key` is `self.key` or a key no entry ever holds (only `self.key` is ever
        // remembered), so a match means `(self.key, ptr)`, as the SAFETY comment needs.
        if last == key {
            // SAFETY: the cache holds `(self.key, p)` only if this thread stored it in
            // `remember` with `p` derived from the `&S` that `self.table` handed to this thread:
            // keys are process-unique and never reused, so the entry belongs to this very store,
            // which is alive (we hold `&self`). `ThreadLocal` never moves or frees an entry
            // while it lives except through `&mut` access, and every `&mut` access renews
            // `self.key` first (`for_each_mut`), so `p` still points to a live `S`. The entry is
            // this thread's: the thread_local crate keeps the thread's id until the id's guard
            // runs at thread exit, and `cache` stops answering before that (see `cache`). Only
            // shared references to `S` are ever made while `&self` exists.
            return Some(unsafe { &*ptr.cast::<S>() });
        }
        None
    }

    #[cold]
    #[inline(never)]
    fn get_uncached(&self) -> Option<&S> {
        let s = self.table.get()?;
        cache::remember(self.key, std::ptr::from_ref(s).cast());
        Some(s)
    }

    /// This thread's `S`, created with `f` if missing; `None` when it is missing and the thread
    /// is already running its TLS destructors (a pool used from another thread-local's `Drop`):
    /// creating one then would ask the crate for a thread id after the crate's own TLS guard is
    /// gone, which panics inside a TLS destructor, and the process aborts.
    #[inline]
    pub(crate) fn get_or(&self, f: impl FnOnce() -> S) -> Option<&S> {
        if let Some(s) = self.get() {
            return Some(s);
        }
        if cache::exiting() {
            return None;
        }
        let s = self.table.get_or(f);
        cache::remember(self.key, std::ptr::from_ref(s).cast());
        Some(s)
    }

    /// Every thread's `S`; needs exclusive access to the pool.
    pub(crate) fn for_each_mut(&mut self, mut f: impl FnMut(&mut S)) {
        // Before any `&mut S` exists: every thread's cached pointer into this store goes stale.
        // A `fast_key` equal to the key follows it; one of its own stays (it is never remembered).
        let fast = self.fast_key == self.key;
        self.key = next_id(&STORE_KEYS);
        if fast {
            self.fast_key = self.key;
        }
        self.table.iter_mut().for_each(&mut f);
    }
}

/// The one-entry per-thread cache in front of [`ThreadStore`]: `(store key, pointer to this
/// thread's entry in that store)`.
///
/// At thread exit the thread_local crate frees the thread's id in a TLS destructor, after which
/// another thread may be given the same entries. This cache registers its own TLS guard only
/// once the crate has registered its own (an entry found means this thread already has an id),
/// and `std` runs TLS destructors last-registered first, so the guard turns the cache off
/// (`DEAD`) before the id is freed; from then on every lookup takes the crate's own path, and no
/// new entry is created for the exiting thread ([`ThreadStore::get_or`]). `pool::sync::tests`
/// checks each of these assumptions.
#[cfg(not(loom))]
mod cache {
    use std::cell::Cell;

    const DEAD: u64 = u64::MAX;

    struct Guard;

    impl Drop for Guard {
        fn drop(&mut self) {
            LAST.set((DEAD, std::ptr::null()));
        }
    }

    thread_local! {
        // No destructor: readable during every other TLS destructor.
        static LAST: Cell<(u64, *const ())> = const { Cell::new((0, std::ptr::null())) };
        static GUARD: Guard = const { Guard };
    }

    #[inline(always)]
    pub(super) fn last() -> (u64, *const ()) {
        LAST.get()
    }

    /// Whether this thread's cache guard has run: the thread is exiting. (Never touches `GUARD`:
    /// registering it before the crate's own guard would reverse the order `cache` relies on.)
    pub(super) fn exiting() -> bool {
        LAST.get().0 == DEAD
    }

    pub(super) fn remember(key: u64, ptr: *const ()) {
        // `try_with` fails once the guard is being or has been destroyed: then stay off.
        if GUARD.try_with(|_| ()).is_ok() && LAST.get().0 != DEAD {
            LAST.set((key, ptr));
        }
    }
}

/// Under loom: a list of (loom thread id, `Arc<S>`) behind a loom mutex.
/// The `bool`: whether `get_cached_fast` answers.
#[cfg(loom)]
pub(crate) struct ThreadStore<S: Send>(Mutex<Vec<(loom::thread::ThreadId, Arc<S>)>>, bool);

#[cfg(loom)]
impl<S: Send + Sync> ThreadStore<S> {
    pub(crate) fn new(fast: bool) -> Self {
        Self(Mutex::new(Vec::new()), fast)
    }
    pub(crate) fn get_cached(&self) -> Option<Arc<S>> {
        self.get()
    }
    pub(crate) fn get_cached_fast(&self) -> Option<Arc<S>> {
        if self.1 { self.get() } else { None }
    }
    pub(crate) fn get(&self) -> Option<Arc<S>> {
        let me = loom::thread::current().id();
        lock(&self.0)
            .iter()
            .find(|(id, _)| *id == me)
            .map(|(_, s)| s.clone())
    }
    pub(crate) fn get_or(&self, f: impl FnOnce() -> S) -> Option<Arc<S>> {
        let me = loom::thread::current().id();
        let mut all = lock(&self.0);
        if let Some((_, s)) = all.iter().find(|(id, _)| *id == me) {
            return Some(s.clone());
        }
        let s = Arc::new(f());
        all.push((me, s.clone()));
        Some(s)
    }
    pub(crate) fn for_each_mut(&mut self, mut f: impl FnMut(&S)) {
        for (_, s) in lock(&self.0).iter() {
            f(s);
        }
    }
}

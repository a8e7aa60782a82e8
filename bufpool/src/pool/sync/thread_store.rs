//! Per-pool, per-thread storage, fronted by a one-entry per-thread cache.

#[cfg(not(loom))]
use super::next_id;
#[cfg(not(loom))]
use super::thread_id;
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

/// Buckets of a store's table: bucket `k` holds the entries of ids `2^k - 1 .. 2^(k+1) - 1`,
/// so every id below `usize::MAX` has one.
#[cfg(not(loom))]
const BUCKETS: usize = usize::BITS as usize;

/// Bucket and offset of thread id `id`'s entry.
#[cfg(not(loom))]
#[inline]
pub(super) fn locate(id: usize) -> (usize, usize) {
    let i = id + 1;
    let k = i.ilog2() as usize;
    (k, i - (1 << k))
}

/// One thread's entry in a [`ThreadStore`]: the part only its thread touches (`own`, made on
/// the thread's first [`get_or`](ThreadStore::get_or)) and the part every thread may read
/// (`public`, made with the bucket: per-thread counters for `stats`).
#[cfg(not(loom))]
pub(crate) struct Entry<S, C> {
    own: std::cell::UnsafeCell<std::mem::MaybeUninit<S>>,
    /// Whether `own` holds an `S`; written only by the thread holding the entry's id (or under
    /// `&mut` of the store).
    present: std::sync::atomic::AtomicBool,
    public: C,
}

#[cfg(not(loom))]
impl<S, C> Entry<S, C> {
    fn new() -> Self
    where
        C: Default,
    {
        Self {
            own: std::cell::UnsafeCell::new(std::mem::MaybeUninit::uninit()),
            present: std::sync::atomic::AtomicBool::new(false),
            public: C::default(),
        }
    }

    /// The thread's own value.
    #[inline(always)]
    pub(crate) fn own(&self) -> &S {
        // SAFETY: the store hands out `&Entry` only for an entry whose `own` holds an `S`
        // (`present`), to the thread holding the entry's id, and `Entry` is not `Sync` (the
        // `UnsafeCell`), so the reference stays on that thread. `own` is written only before
        // `present` is set and dropped only under `&mut` of the store; only shared references
        // to it are made while `&self` exists.
        unsafe { (*self.own.get()).assume_init_ref() }
    }

    /// The part every thread may read.
    #[inline(always)]
    pub(crate) fn public(&self) -> &C {
        &self.public
    }
}

/// Per-pool, per-thread storage: each thread that uses a pool gets its own entry, an `S` only
/// it touches and a `C` every thread may read.
///
/// Natively: a table of buckets that never move, indexed by the thread's small id
/// ([`thread_id`], reused after a thread exits), fronted by a one-entry per-thread cache for the
/// common case of a thread using one pool at a time: a hit is one const-initialized `std`
/// thread-local read and one compare. A new thread may inherit a dead thread's entry: the
/// buffers stay pooled and the counters keep counting, which is harmless.
#[cfg(not(loom))]
pub(crate) struct ThreadStore<S: Send, C = ()> {
    /// Bucket `k`: null, or `2^k` entries made by `Box::into_raw`, freed only by `Drop`.
    buckets: [std::sync::atomic::AtomicPtr<Entry<S, C>>; BUCKETS],
    /// This store's key in the per-thread cache: process-unique, never 0, renewed by every
    /// `&mut` access (so no cached pointer survives one).
    key: u64,
    /// The key [`get_cached_fast`](Self::get_cached_fast) looks for: `key` when the store's
    /// owner has a hot path, else a key of its own that no cache entry ever holds (it is never
    /// remembered), so the lookup always misses. A caller's "is the hot path on?" test is then
    /// the cache's own key compare, not a second test.
    fast_key: u64,
    /// The store owns `S`s and `C`s (for the drop check), and is `Send`/`Sync` only as the
    /// impls below say.
    _owns: std::marker::PhantomData<(Box<Entry<S, C>>, *const ())>,
}

// SAFETY: the store owns its entries; sending it sends every thread's `S` and `C`, sound for
// `S: Send`, `C: Send`.
#[cfg(not(loom))]
unsafe impl<S: Send, C: Send> Send for ThreadStore<S, C> {}

// SAFETY: through `&ThreadStore` a thread reaches only its own entry's `S` (by its id, which no
// other live thread holds; an `&Entry` cannot leave the thread) and every entry's `C` by shared
// reference, which `C: Sync` allows. An `S` made on one thread may be used, then dropped, by
// another (a reused id, `&mut` access): `S: Send`.
#[cfg(not(loom))]
unsafe impl<S: Send, C: Send + Sync> Sync for ThreadStore<S, C> {}

#[cfg(not(loom))]
static STORE_KEYS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

#[cfg(not(loom))]
impl<S: Send, C: Default> ThreadStore<S, C> {
    /// A store whose [`get_cached_fast`](Self::get_cached_fast) answers (`fast`) or always
    /// misses (`!fast`).
    pub(crate) fn new(fast: bool) -> Self {
        let key = next_id(&STORE_KEYS);
        Self {
            buckets: std::array::from_fn(|_| {
                std::sync::atomic::AtomicPtr::new(std::ptr::null_mut())
            }),
            key,
            fast_key: if fast { key } else { next_id(&STORE_KEYS) },
            _owns: std::marker::PhantomData,
        }
    }

    #[inline]
    pub(crate) fn get(&self) -> Option<&Entry<S, C>> {
        match self.get_cached() {
            Some(s) => Some(s),
            None => self.get_uncached(),
        }
    }

    /// Only the per-thread cache: `None` on a miss, even when this thread has an entry (the hot
    /// paths then take their slow path, which looks it up and refills the cache).
    #[inline(always)]
    pub(crate) fn get_cached(&self) -> Option<&Entry<S, C>> {
        self.cached(self.key)
    }

    /// [`get_cached`](Self::get_cached) for a store made with `fast`; `None` always otherwise.
    #[inline(always)]
    pub(crate) fn get_cached_fast(&self) -> Option<&Entry<S, C>> {
        self.cached(self.fast_key)
    }

    /// The cache's entry if it is `(key, _)`; `key` is `self.key` or `self.fast_key`.
    #[inline(always)]
    fn cached(&self, key: u64) -> Option<&Entry<S, C>> {
        let (last, ptr) = thread_id::cached();
        // `self.fast_key` is `self.key` or a key no entry ever holds (only `self.key` is ever
        // remembered), so a match means `(self.key, ptr)`, as the SAFETY comment needs.
        if last == key {
            // SAFETY: the cache holds `(self.key, p)` only if this thread stored it in
            // `remember`, with `p` its own present entry of this store, found by the id it
            // held then: keys are process-unique and never reused, so the entry is this very
            // store's, which is alive (we hold `&self`). Buckets never move and are freed only
            // by `Drop`; an entry's `S` is dropped only under `&mut`, and every `&mut` access
            // renews `self.key` first (`for_each_mut`), so `p` still points to a live, present
            // entry. The entry is still this thread's: its id is freed only by
            // `thread_id::Holder`'s drop, which turns the cache off (`DEAD`, never a key)
            // first. Only shared references to the entry are made while `&self` exists.
            return Some(unsafe { &*ptr.cast::<Entry<S, C>>() });
        }
        None
    }

    /// This thread's entry through its id, without the cache; remembers it in the cache.
    #[cold]
    #[inline(never)]
    pub(super) fn get_uncached(&self) -> Option<&Entry<S, C>> {
        let id = thread_id::current()?;
        let e = self.entry(id)?;
        // Written only by this thread (or before the id was handed to it, ordered by the id
        // registry's lock).
        if !e.present.load(std::sync::atomic::Ordering::Acquire) {
            return None;
        }
        thread_id::remember(self.key, std::ptr::from_ref(e).cast());
        Some(e)
    }

    /// Entry `id` if its bucket exists.
    fn entry(&self, id: usize) -> Option<&Entry<S, C>> {
        let (k, offset) = locate(id);
        let bucket = self.buckets[k].load(std::sync::atomic::Ordering::Acquire);
        if bucket.is_null() {
            return None;
        }
        // SAFETY: a non-null bucket `k` is a live allocation of `2^k` entries (freed only by
        // `Drop`, which has `&mut self`), published with `Release` after it was initialized, and
        // `offset < 2^k` (`locate`).
        Some(unsafe { &*bucket.add(offset) })
    }

    /// Entry `id`, making its bucket if needed.
    fn entry_or_new(&self, id: usize) -> &Entry<S, C> {
        if let Some(e) = self.entry(id) {
            return e;
        }
        let (k, _) = locate(id);
        let fresh: Box<[Entry<S, C>]> = (0..1usize << k).map(|_| Entry::new()).collect();
        let fresh = Box::into_raw(fresh).cast::<Entry<S, C>>();
        if let Err(_other) = self.buckets[k].compare_exchange(
            std::ptr::null_mut(),
            fresh,
            std::sync::atomic::Ordering::AcqRel,
            std::sync::atomic::Ordering::Acquire,
        ) {
            // Another thread made it first; ours was never shared.
            // SAFETY: `fresh` is the box of `2^k` entries made above, not published.
            drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(fresh, 1 << k)) });
        }
        self.entry(id)
            .unwrap_or_else(|| unreachable!("bucket {k} was just published"))
    }

    /// This thread's entry, its `S` made with `f` if missing; `None` when it is missing and the
    /// thread began exiting (a pool used from another thread-local's destructor after this
    /// thread's id was freed): the caller then keeps nothing per thread.
    #[inline]
    pub(crate) fn get_or(&self, f: impl FnOnce() -> S) -> Option<&Entry<S, C>> {
        if let Some(e) = self.get() {
            return Some(e);
        }
        self.get_or_slow(f)
    }

    #[cold]
    fn get_or_slow(&self, f: impl FnOnce() -> S) -> Option<&Entry<S, C>> {
        use std::sync::atomic::Ordering;
        let id = thread_id::current_or_new()?;
        let e = self.entry_or_new(id);
        if !e.present.load(Ordering::Acquire) {
            let s = f();
            // `f` may have used this store on this thread and made the entry itself.
            if e.present.load(Ordering::Acquire) {
                drop(s);
            } else {
                // SAFETY: this thread holds id `id`, so no other thread reaches this entry's
                // `own`, and it holds no `S` (`present` is false), so no reference to it exists.
                unsafe { (*e.own.get()).write(s) };
                e.present.store(true, Ordering::Release);
            }
        }
        thread_id::remember(self.key, std::ptr::from_ref(e).cast());
        Some(e)
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
        for (k, bucket) in self.buckets.iter_mut().enumerate() {
            let p = *bucket.get_mut();
            if p.is_null() {
                continue;
            }
            // SAFETY: a live bucket of `2^k` entries (see `entry`); `&mut self` excludes every
            // other reference into it.
            let entries = unsafe { &mut *std::ptr::slice_from_raw_parts_mut(p, 1 << k) };
            for e in entries {
                if *e.present.get_mut() {
                    // SAFETY: `present`: `own` holds an `S`; exclusive as above.
                    f(unsafe { e.own.get_mut().assume_init_mut() });
                }
            }
        }
    }

    /// Every entry's public part, of threads alive or gone (entries whose `S` was never made
    /// included: their `C` is the default).
    pub(crate) fn for_each_public(&self, mut f: impl FnMut(&C)) {
        for (k, bucket) in self.buckets.iter().enumerate() {
            let p = bucket.load(std::sync::atomic::Ordering::Acquire);
            if p.is_null() {
                continue;
            }
            for offset in 0..1usize << k {
                // SAFETY: as in `entry`; only the `Sync` public part is touched.
                f(unsafe { &(*p.add(offset)).public });
            }
        }
    }
}

#[cfg(not(loom))]
impl<S: Send, C> Drop for ThreadStore<S, C> {
    fn drop(&mut self) {
        for (k, bucket) in self.buckets.iter_mut().enumerate() {
            let p = *bucket.get_mut();
            if p.is_null() {
                continue;
            }
            // SAFETY: a live bucket of `2^k` entries made by `Box::into_raw` (see `entry`),
            // freed only here; `&mut self` excludes every other reference into it.
            let mut entries =
                unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(p, 1 << k)) };
            for e in entries.iter_mut() {
                if *e.present.get_mut() {
                    // SAFETY: `present`: `own` holds an `S`, dropped once, here.
                    unsafe { e.own.get_mut().assume_init_drop() };
                }
            }
        }
    }
}

/// Under loom: an entry as the native store's, both parts in one `Arc`.
#[cfg(loom)]
pub(crate) struct Entry<S, C> {
    own: S,
    public: C,
}

#[cfg(loom)]
impl<S, C> Entry<S, C> {
    pub(crate) fn own(&self) -> &S {
        &self.own
    }
    pub(crate) fn public(&self) -> &C {
        &self.public
    }
}

/// Under loom: a list of (loom thread id, entry) behind a loom mutex.
/// The `bool`: whether `get_cached_fast` answers.
#[cfg(loom)]
#[allow(clippy::type_complexity)]
pub(crate) struct ThreadStore<S: Send, C = ()>(
    Mutex<Vec<(loom::thread::ThreadId, Arc<Entry<S, C>>)>>,
    bool,
);

#[cfg(loom)]
impl<S: Send + Sync, C: Default + Send + Sync> ThreadStore<S, C> {
    pub(crate) fn new(fast: bool) -> Self {
        Self(Mutex::new(Vec::new()), fast)
    }
    pub(crate) fn get_cached(&self) -> Option<Arc<Entry<S, C>>> {
        self.get()
    }
    pub(crate) fn get_cached_fast(&self) -> Option<Arc<Entry<S, C>>> {
        if self.1 { self.get() } else { None }
    }
    pub(crate) fn get(&self) -> Option<Arc<Entry<S, C>>> {
        let me = loom::thread::current().id();
        lock(&self.0)
            .iter()
            .find(|(id, _)| *id == me)
            .map(|(_, s)| s.clone())
    }
    pub(crate) fn get_or(&self, f: impl FnOnce() -> S) -> Option<Arc<Entry<S, C>>> {
        let me = loom::thread::current().id();
        let mut all = lock(&self.0);
        if let Some((_, s)) = all.iter().find(|(id, _)| *id == me) {
            return Some(s.clone());
        }
        let s = Arc::new(Entry {
            own: f(),
            public: C::default(),
        });
        all.push((me, s.clone()));
        Some(s)
    }
    pub(crate) fn for_each_mut(&mut self, mut f: impl FnMut(&S)) {
        for (_, s) in lock(&self.0).iter() {
            f(&s.own);
        }
    }
    pub(crate) fn for_each_public(&self, mut f: impl FnMut(&C)) {
        for (_, s) in lock(&self.0).iter() {
            f(&s.public);
        }
    }
}

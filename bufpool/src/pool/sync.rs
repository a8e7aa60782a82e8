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

use crate::bucket::{BUCKET_COUNT, bucket_length};

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

// === impl StampCell ===

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

/// Whether a buffer of `len` elements may sit in `bucket`'s slot: what `BoxSlots::replace`
/// checks, what `replace_unchecked`'s callers promise, and what rebuilding a box from a slot's
/// bare pointer rests on (natively and, asserted, under loom).
fn fits(bucket: usize, len: usize) -> bool {
    bucket < BUCKET_COUNT && len == bucket_length(bucket)
}

/// One thread's slots for boxed buffers, one per bucket, each a bare pointer: a slot's buffer
/// always has its bucket's length, so the length is not kept (a `Box<[T]>` in a cell is two words
/// to load and store, one of them always the same for a bucket). This halves the memory traffic of
/// the rent/return hot path, and one-word cells are indexed without a multiply (callgrind:
/// 33 → 26 instructions per `drop(pool.rent(16))`).
///
/// Natively the pointers are `Box::into_raw` of buffers whose length `replace` has checked;
/// under loom each slot is a [`SlotCell`] holding the box.
#[cfg(not(loom))]
pub struct BoxSlots<T>([std::cell::Cell<Option<std::ptr::NonNull<T>>>; BUCKET_COUNT]);

// SAFETY: a `BoxSlots` owns the buffers its pointers came from (each one a `Box<[T]>` given up
// by `replace`, rebuilt exactly once, by `take`, `replace` or `drop`) and nothing else; sending it
// to another thread sends those boxes, which is sound for `T: Send` as `Box<[T]>: Send` is.
#[cfg(not(loom))]
unsafe impl<T: Send> Send for BoxSlots<T> {}

#[cfg(not(loom))]
impl<T> BoxSlots<T> {
    pub(crate) fn new() -> Self {
        Self(std::array::from_fn(|_| std::cell::Cell::new(None)))
    }

    /// The buffer in `bucket`'s slot, if any; the slot is then empty.
    #[inline(always)]
    pub(crate) fn take(&self, bucket: usize) -> Option<Box<[T]>> {
        let p = self.0[bucket].take()?;
        // SAFETY: `p` is in slot `bucket`, so `replace_unchecked` put it there (the only writer
        // of a pointer), from a box of `bucket_length(bucket)` elements (checked by `replace`,
        // promised by the other callers); the `take` above removed it, so this is the one box
        // rebuilt from it.
        Some(unsafe { rebuild(p, bucket) })
    }

    /// Puts `buf` in `bucket`'s slot and gives back the slot's previous buffer; refuses (gives
    /// `buf` back, the slot untouched) a buffer whose length is not the bucket's.
    pub(crate) fn replace(
        &self,
        bucket: usize,
        buf: Box<[T]>,
    ) -> Result<Option<Box<[T]>>, Box<[T]>> {
        if !fits(bucket, buf.len()) {
            return Err(buf);
        }
        // SAFETY: just checked.
        Ok(unsafe { self.replace_unchecked(bucket, buf) })
    }

    /// [`replace`](Self::replace) without the checks: the return's hot path, where the guard
    /// already knows the buffer's bucket.
    ///
    /// # Safety
    ///
    /// `bucket < BUCKET_COUNT` and `buf.len() == bucket_length(bucket)`.
    #[inline(always)]
    pub(crate) unsafe fn replace_unchecked(
        &self,
        bucket: usize,
        buf: Box<[T]>,
    ) -> Option<Box<[T]>> {
        debug_assert!(fits(bucket, buf.len()));
        // SAFETY: `bucket` is in bounds (the caller's promise).
        let slot = unsafe { self.0.get_unchecked(bucket) };
        let p = std::ptr::NonNull::from(Box::leak(buf)).cast::<T>();
        // From here on slot `bucket` holds a pointer given up by a box of `bucket_length(bucket)`
        // elements (the caller's promise), as `rebuild` needs.
        let prev = slot.replace(Some(p))?;
        // SAFETY: as in `take`: `prev` was in slot `bucket` and the `replace` removed it.
        Some(unsafe { rebuild(prev, bucket) })
    }

    pub(crate) fn is_some(&self, bucket: usize) -> bool {
        self.0[bucket].get().is_some()
    }
}

/// The box a slot's pointer stands for.
///
/// # Safety
///
/// `p` comes from a `Box<[T]>` of `bucket_length(bucket)` elements given up with `Box::leak`,
/// and no other box is, or will be, rebuilt from it.
#[cfg(not(loom))]
#[inline(always)]
unsafe fn rebuild<T>(p: std::ptr::NonNull<T>, bucket: usize) -> Box<[T]> {
    let slice = std::ptr::slice_from_raw_parts_mut(p.as_ptr(), bucket_length(bucket));
    // SAFETY: the caller's promise: the pointer and length of a leaked box, rebuilt once.
    unsafe { Box::from_raw(slice) }
}

#[cfg(not(loom))]
impl<T> Drop for BoxSlots<T> {
    fn drop(&mut self) {
        for bucket in 0..BUCKET_COUNT {
            drop(self.take(bucket));
        }
    }
}

/// Under loom: one [`SlotCell`] per bucket, holding the box.
#[cfg(loom)]
pub struct BoxSlots<T>([SlotCell<Box<[T]>>; BUCKET_COUNT]);

#[cfg(loom)]
impl<T> BoxSlots<T> {
    pub(crate) fn new() -> Self {
        Self(std::array::from_fn(|_| SlotCell::new()))
    }
    pub(crate) fn take(&self, bucket: usize) -> Option<Box<[T]>> {
        self.0[bucket].take()
    }
    pub(crate) fn replace(
        &self,
        bucket: usize,
        buf: Box<[T]>,
    ) -> Result<Option<Box<[T]>>, Box<[T]>> {
        if !fits(bucket, buf.len()) {
            return Err(buf);
        }
        Ok(self.0[bucket].replace(Some(buf)))
    }
    /// Checks what native code trusts: a broken promise fails the loom models.
    pub(crate) unsafe fn replace_unchecked(
        &self,
        bucket: usize,
        buf: Box<[T]>,
    ) -> Option<Box<[T]>> {
        assert!(fits(bucket, buf.len()), "replace_unchecked's promise");
        self.0[bucket].replace(Some(buf))
    }
    pub(crate) fn is_some(&self, bucket: usize) -> bool {
        self.0[bucket].is_some()
    }
}

// === impl ThreadStore ===

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
    table: thread_local::ThreadLocal<S>,
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

/// The assumptions the unsafe block in [`ThreadStore::get_cached`] rests on, one test each, so a
/// new `thread_local` version or a new `std` that breaks one fails here (natively and under
/// Miri) instead of turning the cache into a data race.
#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use std::cell::{Cell, RefCell};
    use std::sync::{Arc, Barrier, Mutex as StdMutex};

    type Store = ThreadStore<Cell<u64>>;

    fn addr(s: &Cell<u64>) -> usize {
        std::ptr::from_ref(s) as usize
    }

    /// Many threads alive at once (so the crate allocates new buckets).
    const CROWD: usize = if cfg!(miri) { 5 } else { 40 };

    #[test]
    fn an_entry_never_moves_while_its_store_lives() {
        let store = Store::new(true);
        let mine = store.get_or(|| Cell::new(7)).unwrap();
        let before = addr(mine);
        let barrier = Barrier::new(CROWD);
        std::thread::scope(|s| {
            for i in 0..CROWD {
                let (store, barrier) = (&store, &barrier);
                s.spawn(move || {
                    store.get_or(|| Cell::new(i as u64));
                    // All alive together: every one holds its own thread id.
                    barrier.wait();
                });
            }
        });
        let table = store
            .table
            .get()
            .expect("this thread's entry is still there");
        assert_eq!(addr(table), before, "the crate moved an entry");
        assert_eq!(table.get(), 7);
    }

    #[test]
    fn live_threads_never_share_an_entry() {
        let store = Store::new(true);
        let seen = StdMutex::new(Vec::new());
        let barrier = Barrier::new(CROWD);
        std::thread::scope(|s| {
            for i in 0..CROWD {
                let (store, seen, barrier) = (&store, &seen, &barrier);
                s.spawn(move || {
                    let e = store.get_or(|| Cell::new(i as u64)).unwrap();
                    seen.lock().unwrap().push(addr(e));
                    barrier.wait();
                    // Still this thread's value after every other thread wrote its own.
                    assert_eq!(store.get().map(Cell::get), Some(i as u64));
                });
            }
        });
        let mut seen = seen.into_inner().unwrap();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), CROWD, "two live threads were given one entry");
    }

    #[test]
    fn exclusive_access_turns_every_cached_pointer_stale() {
        let mut store = Store::new(true);
        store.get_or(|| Cell::new(1));
        assert!(store.get_cached().is_some());
        store.for_each_mut(|c| c.set(2));
        assert!(
            store.get_cached().is_none(),
            "a cached pointer survived &mut"
        );
        assert_eq!(store.get().map(Cell::get), Some(2));
        assert!(store.get_cached().is_some(), "the lookup refills the cache");
    }

    /// `BoxSlots` keeps bare pointers and rebuilds each box with its bucket's length; Miri
    /// checks every rebuild against the allocation (and that dropping the slots frees them).
    #[test]
    fn box_slots_give_back_the_boxes_they_took() {
        let slots = BoxSlots::<u32>::new();
        let mut a = vec![0u32; bucket_length(2)].into_boxed_slice();
        a[63] = 7;
        let a_ptr = a.as_ptr();
        assert_eq!(slots.replace(2, a).ok(), Some(None));
        assert!(slots.is_some(2) && !slots.is_some(1));
        // A buffer of another length, or a bucket out of range, is refused untouched.
        let odd = vec![1u32; 100].into_boxed_slice();
        assert_eq!(slots.replace(2, odd).map_err(|b| b.len()), Err(100));
        let big = vec![1u32; 16].into_boxed_slice();
        assert!(slots.replace(BUCKET_COUNT, big).is_err());
        // SAFETY: 32 elements is bucket 1's length, and 1 is a bucket.
        let none = unsafe { slots.replace_unchecked(1, vec![3u32; 32].into_boxed_slice()) };
        assert!(none.is_none());
        let b = vec![2u32; 64].into_boxed_slice();
        let prev = slots
            .replace(2, b)
            .unwrap()
            .expect("the first box comes back");
        assert_eq!((prev.as_ptr(), prev.len(), prev[63]), (a_ptr, 64, 7));
        let b = slots.take(2).expect("the second box");
        assert_eq!((b.len(), b[0]), (64, 2));
        assert!(slots.take(2).is_none());
        // Slot 1 still holds a box: dropping the slots frees it.
        drop(slots);
        // Zero-sized elements: no allocation, any length.
        let zst = BoxSlots::<()>::new();
        assert!(zst.replace(0, vec![(); 16].into_boxed_slice()).is_ok());
        assert_eq!(zst.take(0).map(|b| b.len()), Some(16));
    }

    #[test]
    fn a_stamp_cell_reads_back_what_it_was_given() {
        let cell = StampCell::new();
        assert_eq!(cell.take(), None);
        for stamp in [0, 1, 30_000, u64::MAX - 1] {
            cell.set(Some(stamp));
            assert_eq!(cell.take(), Some(stamp));
            assert_eq!(cell.take(), None, "take empties it");
        }
        // The one stamp that cannot be kept exactly reads back 1 ms earlier.
        cell.set(Some(u64::MAX));
        assert_eq!(cell.take(), Some(u64::MAX - 1));
        cell.set(Some(5));
        cell.set(None);
        assert_eq!(cell.take(), None);
    }

    #[test]
    fn the_fast_lookup_answers_only_for_a_fast_store_and_follows_renewed_keys() {
        for fast in [true, false] {
            let mut store = Store::new(fast);
            store.get_or(|| Cell::new(1));
            assert!(store.get_cached().is_some());
            assert_eq!(store.get_cached_fast().is_some(), fast);
            store.for_each_mut(|c| c.set(2));
            assert!(
                store.get_cached_fast().is_none(),
                "a cached pointer survived &mut"
            );
            assert_eq!(
                store.get().map(Cell::get),
                Some(2),
                "the lookup refills the cache"
            );
            assert_eq!(store.get_cached_fast().map(Cell::get), fast.then_some(2));
        }
    }

    /// The order `cache` relies on: `std` runs a thread's TLS destructors last-registered first.
    /// `std` documents no order; this is what it does today (its destructor list is a stack).
    #[test]
    fn std_runs_tls_destructors_last_registered_first() {
        struct Note(&'static str);
        impl Drop for Note {
            fn drop(&mut self) {
                ORDER.lock().unwrap().push(self.0);
            }
        }
        static ORDER: StdMutex<Vec<&'static str>> = StdMutex::new(Vec::new());
        thread_local! {
            // Lazily initialized on purpose: both kinds of thread-local are checked.
            #[allow(clippy::missing_const_for_thread_local)]
            static A: Note = Note("a");
            static B: Note = const { Note("b") };
            static C: RefCell<Option<Note>> = const { RefCell::new(None) };
        }
        std::thread::spawn(|| {
            B.with(|_| ());
            C.with(|c| *c.borrow_mut() = Some(Note("c")));
            A.with(|_| ());
        })
        .join()
        .unwrap();
        assert_eq!(*ORDER.lock().unwrap(), ["a", "c", "b"]);
    }

    /// What the unsafe block needs at thread exit: in every TLS destructor the thread runs, the
    /// cache answers only while the crate still holds this thread's id (once the id is freed,
    /// another thread may be given the same entry). Destructors registered before the thread's
    /// first use of a store, inside the entry's constructor and after it are all checked.
    #[test]
    fn the_cache_stops_answering_before_the_thread_id_is_freed() {
        /// Per destructor: (where it was registered, the crate still holds the id, the cache
        /// answers).
        type Seen = Arc<StdMutex<Vec<(&'static str, bool, bool)>>>;
        struct Probe {
            name: &'static str,
            store: Arc<Store>,
            seen: Seen,
        }
        impl Drop for Probe {
            fn drop(&mut self) {
                // The crate answers `None` once it has freed this thread's id.
                let id_held = self.store.table.get().is_some();
                let cache_answers = self.store.get_cached().is_some();
                self.seen
                    .lock()
                    .unwrap()
                    .push((self.name, id_held, cache_answers));
            }
        }
        thread_local! {
            static BEFORE: RefCell<Option<Probe>> = const { RefCell::new(None) };
            static INSIDE: RefCell<Option<Probe>> = const { RefCell::new(None) };
            static AFTER: RefCell<Option<Probe>> = const { RefCell::new(None) };
        }
        let store = Arc::new(Store::new(true));
        let seen = Arc::new(StdMutex::new(Vec::new()));
        let probe = |name| Probe {
            name,
            store: store.clone(),
            seen: seen.clone(),
        };
        let (before, inside, after) = (probe("before"), probe("inside"), probe("after"));
        let s = store.clone();
        std::thread::spawn(move || {
            BEFORE.with(|p| *p.borrow_mut() = Some(before));
            s.get_or(|| {
                INSIDE.with(|p| *p.borrow_mut() = Some(inside));
                Cell::new(1)
            });
            assert!(s.get_cached().is_some(), "the first use fills the cache");
            AFTER.with(|p| *p.borrow_mut() = Some(after));
        })
        .join()
        .unwrap();
        let seen = seen.lock().unwrap().clone();
        assert_eq!(seen.len(), 3, "{seen:?}");
        for &(name, id_held, cache_answers) in &seen {
            assert!(
                id_held || !cache_answers,
                "in the destructor registered {name} the first use, the cache answered after the thread's id was freed: {seen:?}"
            );
        }
        // The hazard is real: some destructor did run after the id was freed.
        assert!(seen.iter().any(|&(_, id_held, _)| !id_held), "{seen:?}");
    }
}

//! The shared pool: .NET's `ArrayPool<T>.Shared` (`SharedArrayPool<T>`).

use super::engine::{Engine, Plan, Put};
use super::layout::{Layout, Place};
use super::owned::{self, Back, Rejected, Rented, ReturnTo};
use super::stats::{self, BucketStats, PoolStats};
use super::sync::{self, AtomicU64, BoxSlots, Mutex, Ordering, SlotCell, StampCell, ThreadStore};
use super::trim::{self, MemoryPressure};
use super::{Element, PoolError, SharedConfig};
use crate::bucket::{
    BUCKET_COUNT, MAX_BUCKET_LEN, bucket_length, bucket_of_length, select_bucket_index,
};
use std::time::Duration;

static POOL_IDS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// A process-unique pool id (the first is 1), shared by every front end's pools.
pub fn next_pool_id() -> u64 {
    sync::next_id(&POOL_IDS)
}

/// The bucket of a request of `n` elements, computed at compile time for
/// [`SharedPool::rent_const`]; `None` for 0 and for requests above the largest bucket.
const fn const_bucket(n: usize) -> Option<usize> {
    if n == 0 || n > MAX_BUCKET_LEN {
        None
    } else {
        Some(((n - 1) | 15).ilog2() as usize - 3)
    }
}

// === impl Pooled ===

/// A buffer type the shared engine keeps, and how a thread's slots hold it: the ownership API's
/// `Box<[T]>` as a bare pointer (`BoxSlots`: its length is its bucket's), a shared buffer
/// (an `Arc`, one pointer already) in a `SlotCell` (`CellSlots`). Sealed: the engine's
/// unsafe slots rely on the implementations here.
pub trait Pooled: Send + Sized + 'static + sealed::Sealed {
    /// One slot per bucket.
    #[doc(hidden)]
    type Slots: SlotsOf<Self> + sync::ThreadShared;
}

mod sealed {
    pub trait Sealed {}
    impl<T: super::Element> Sealed for Box<[T]> {}
    impl<X: Send + Sync + 'static> Sealed for std::sync::Arc<X> {}
}

/// One thread's slots of one pool, one per bucket (.NET's `t_tlsBuckets`).
pub trait SlotsOf<B> {
    fn new() -> Self;
    /// The buffer in `bucket`'s slot, if any; the slot is then empty.
    fn take(&self, bucket: usize) -> Option<B>;
    /// Puts `buf` in `bucket`'s slot, giving back the previous buffer; `Err(buf)`, the slot
    /// untouched, for a buffer that is not of the bucket's length.
    fn replace(&self, bucket: usize, buf: B) -> Result<Option<B>, B>;
    fn is_some(&self, bucket: usize) -> bool;
    /// [`replace`](Self::replace) without the length check.
    ///
    /// # Safety
    ///
    /// `buf` is of `bucket`'s length (`replace` would not refuse it).
    unsafe fn replace_unchecked(&self, bucket: usize, buf: B) -> Option<B>;
}

impl<T: Element> Pooled for Box<[T]> {
    type Slots = BoxSlots<T>;
}

impl<T: Element> SlotsOf<Box<[T]>> for BoxSlots<T> {
    fn new() -> Self {
        BoxSlots::new()
    }
    #[inline(always)]
    fn take(&self, bucket: usize) -> Option<Box<[T]>> {
        BoxSlots::take(self, bucket)
    }
    #[inline(always)]
    fn replace(&self, bucket: usize, buf: Box<[T]>) -> Result<Option<Box<[T]>>, Box<[T]>> {
        BoxSlots::replace(self, bucket, buf)
    }
    fn is_some(&self, bucket: usize) -> bool {
        BoxSlots::is_some(self, bucket)
    }
    #[inline(always)]
    unsafe fn replace_unchecked(&self, bucket: usize, buf: Box<[T]>) -> Option<Box<[T]>> {
        // SAFETY: the caller's promise, passed on.
        unsafe { BoxSlots::replace_unchecked(self, bucket, buf) }
    }
}

/// Slots holding the buffer itself, one [`SlotCell`] per bucket (the caller vouches for the
/// lengths).
pub struct CellSlots<B>([SlotCell<B>; BUCKET_COUNT]);

impl<X: Send + Sync + 'static> Pooled for std::sync::Arc<X> {
    type Slots = CellSlots<Self>;
}

impl<B> SlotsOf<B> for CellSlots<B> {
    fn new() -> Self {
        Self(std::array::from_fn(|_| SlotCell::new()))
    }
    #[inline]
    fn take(&self, bucket: usize) -> Option<B> {
        self.0[bucket].take()
    }
    #[inline]
    fn replace(&self, bucket: usize, buf: B) -> Result<Option<B>, B> {
        Ok(self.0[bucket].replace(Some(buf)))
    }
    fn is_some(&self, bucket: usize) -> bool {
        self.0[bucket].is_some()
    }
    #[inline]
    unsafe fn replace_unchecked(&self, bucket: usize, buf: B) -> Option<B> {
        self.0[bucket].replace(Some(buf))
    }
}

// === impl ThreadSlots ===

/// One thread's slots for one pool: one buffer per bucket, and the time the first trim saw it
/// (kept apart so the hot path moves only the buffer).
pub(crate) struct ThreadSlots<B: Pooled> {
    slots: B::Slots,
    seen: [StampCell; BUCKET_COUNT],
}

impl<B: Pooled> ThreadSlots<B> {
    fn new() -> Self {
        Self {
            slots: B::Slots::new(),
            seen: std::array::from_fn(|_| StampCell::new()),
        }
    }

    /// Applies one trim to every slot, pushing dropped buffers to `out`.
    fn trim(&self, pressure: MemoryPressure, now_ms: u64, out: &mut Vec<B>) {
        for (bucket, seen) in self.seen.iter().enumerate() {
            if let Some(buf) = self.slots.take(bucket) {
                let mut stamp = seen.take();
                if trim::slot_trim(&mut stamp, pressure, now_ms) {
                    out.push(buf);
                } else {
                    // Nothing runs between the take and this put back: the slot is this
                    // thread's alone and no user code runs in between. The buffer came from
                    // this slot, so it is of the slot's length.
                    self.put_back(bucket, buf);
                    seen.set(stamp);
                }
            }
        }
    }

    /// Puts a buffer just taken from `bucket`'s slot back (so of the slot's length, never
    /// refused; the slot is empty, so nothing comes back).
    fn put_back(&self, bucket: usize, buf: B) {
        drop(self.slots.replace(bucket, buf));
    }

    fn drain(&self, out: &mut Vec<B>) {
        out.extend((0..BUCKET_COUNT).filter_map(|b| self.slots.take(b)));
    }
}

// === impl Partition ===

/// One partition of one bucket: a locked LIFO stack (.NET's `SharedArrayPoolPartitions.Partition`).
struct Partition<B> {
    stack: Vec<B>,
    stamp: Option<u64>,
}

/// One bucket's partitions.
type Partitions<B> = Box<[Mutex<Partition<B>>]>;

// === impl SharedEngine ===

/// Thread slots, then per-core partitions, then allocation.
pub struct SharedEngine<B: Pooled> {
    config: SharedConfig,
    /// `buckets[bucket][partition]`.
    buckets: Box<[Partitions<B>]>,
    slots: ThreadStore<ThreadSlots<B>>,
    allocated: [AtomicU64; BUCKET_COUNT],
    oversize_allocated: AtomicU64,
}

impl<B: Pooled> SharedEngine<B> {
    /// An engine with these settings, or the setting that is out of range.
    pub fn new(config: SharedConfig) -> Result<Self, PoolError> {
        config.validate()?;
        let buckets = (0..BUCKET_COUNT)
            .map(|_| {
                (0..config.partitions)
                    .map(|_| {
                        Mutex::new(Partition {
                            stack: Vec::new(),
                            stamp: None,
                        })
                    })
                    .collect()
            })
            .collect();
        Ok(Self {
            config,
            buckets,
            // The hot path of a rent ([`take_local`](Self::take_local)) only for a pool that
            // does not clear on return (see `SharedPool::rent`).
            slots: ThreadStore::new(!config.clear_on_return),
            allocated: std::array::from_fn(|_| AtomicU64::new(0)),
            oversize_allocated: AtomicU64::new(0),
        })
    }

    /// The engine's settings.
    pub fn config(&self) -> &SharedConfig {
        &self.config
    }

    fn home(&self) -> usize {
        sync::home_index() % self.config.partitions
    }

    /// Pops from the home partition, then the others round robin.
    fn pop_partition(&self, bucket: usize) -> Option<B> {
        let parts = &self.buckets[bucket];
        let n = parts.len();
        let mut i = self.home();
        for _ in 0..n {
            if let Some(b) = sync::lock(&parts[i]).stack.pop() {
                return Some(b);
            }
            i = if i + 1 == n { 0 } else { i + 1 };
        }
        None
    }

    /// Pushes to the home partition, then the others; gives the buffer back when all are full.
    fn push_partition(&self, bucket: usize, buf: B) -> Option<B> {
        let parts = &self.buckets[bucket];
        let n = parts.len();
        let mut i = self.home();
        for _ in 0..n {
            let mut p = sync::lock(&parts[i]);
            if p.stack.len() < self.config.arrays_per_partition {
                if p.stack.is_empty() {
                    // Empty → non-empty: the next trim stamps it afresh.
                    p.stamp = None;
                }
                p.stack.push(buf);
                return None;
            }
            drop(p);
            i = if i + 1 == n { 0 } else { i + 1 };
        }
        Some(buf)
    }

    /// Where a rent from `bucket` comes from: the thread slot, then the partitions, then a new
    /// buffer. Split from [`Engine::plan`] so a size known at compile time skips the bucket
    /// arithmetic ([`SharedPool::rent_const`]).
    #[inline]
    pub(crate) fn plan_bucket(&self, bucket: usize) -> Plan<B> {
        if let Some(slots) = self.slots.get()
            && let Some(buf) = slots.slots.take(bucket)
        {
            return Plan::Hit(buf);
        }
        match self.pop_partition(bucket) {
            Some(b) => Plan::Hit(b),
            None => Plan::Alloc {
                bucket,
                length: bucket_length(bucket),
            },
        }
    }

    /// The hot path of a rent: takes this thread's slot for `bucket`, if it holds a buffer.
    /// Always `None` for an engine whose pool clears on return: the per-thread cache's key
    /// compare is then also the test of that setting (`ThreadStore::get_cached_fast`).
    #[inline(always)]
    pub(crate) fn take_local(&self, bucket: usize) -> Option<B> {
        self.slots.get_cached_fast()?.slots.take(bucket)
    }

    /// The hot path of a return (no clearing, a bucket length): the buffer goes into this
    /// thread's slot, exactly as [`Engine::put`] would put it. Gives the buffer back when the
    /// per-thread cache does not know this pool's slots (e.g. the thread's first return): the
    /// full path then finds or creates them.
    ///
    /// # Safety
    ///
    /// `bucket` is below [`BUCKET_COUNT`] and `buf` is of its length (what the guard's
    /// [`Back`] says: see [`ReturnTo::give_back`]). Checking it here cost a compare per return
    /// that the compiler could not always fold (34 → 39 instructions per rent,
    /// `black_box(&*b)` and return, callgrind).
    #[inline(always)]
    pub(crate) unsafe fn put_local(&self, bucket: usize, buf: B) -> Option<B> {
        let Some(slots) = self.slots.get_cached() else {
            return Some(buf);
        };
        // SAFETY: the caller's promise.
        let prev = unsafe { slots.slots.replace_unchecked(bucket, buf) };
        // A new occupant is unseen by trimming (.NET replaces the whole slot struct).
        slots.seen[bucket].set(None);
        if let Some(prev) = prev {
            self.spill(bucket, prev);
        }
        None
    }

    /// The slot's previous buffer moves to a partition, or is dropped when all are full
    /// (outside any lock).
    #[cold]
    #[inline(never)]
    fn spill(&self, bucket: usize, prev: B) {
        drop(self.push_partition(bucket, prev));
    }

    /// Clears every thread's slots (exclusive access).
    pub(crate) fn drain_all_threads(&mut self) -> Vec<B> {
        let mut out = Vec::new();
        self.slots.for_each_mut(|s| s.drain(&mut out));
        for parts in self.buckets.iter() {
            for p in parts.iter() {
                out.append(&mut sync::lock(p).stack);
            }
        }
        out
    }
}

impl<B: Pooled> Engine<B> for SharedEngine<B> {
    #[inline]
    fn plan(&self, len: usize) -> Plan<B> {
        if len == 0 {
            return Plan::Empty;
        }
        if len > MAX_BUCKET_LEN {
            return Plan::Exact(len);
        }
        self.plan_bucket(select_bucket_index(len))
    }

    fn note_alloc(&self, bucket: Option<usize>) {
        let counter = match bucket {
            Some(b) => &self.allocated[b],
            None => &self.oversize_allocated,
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    fn clears(&self, len: usize) -> bool {
        (1..=MAX_BUCKET_LEN).contains(&len)
    }

    #[inline]
    fn put(&self, len: usize, buf: B) -> Put<B> {
        if len == 0 || len > MAX_BUCKET_LEN {
            return Put::Ignored(buf);
        }
        let Some(bucket) = bucket_of_length(len) else {
            return Put::NotAssociated(buf);
        };
        // The thread's slots are created by the first return, as in .NET; a thread that is
        // already running its TLS destructors gets none, and the buffer goes to a partition.
        let Some(slots) = self.slots.get_or(ThreadSlots::new) else {
            return match self.push_partition(bucket, buf) {
                None => Put::Kept,
                Some(full) => Put::Dropped(full),
            };
        };
        let prev = match slots.slots.replace(bucket, buf) {
            Ok(prev) => prev,
            // Not of the bucket's length (`bucket_of_length` says it is): never.
            Err(buf) => {
                return match self.push_partition(bucket, buf) {
                    None => Put::Kept,
                    Some(full) => Put::Dropped(full),
                };
            }
        };
        // A new occupant is unseen by trimming (.NET replaces the whole slot struct).
        slots.seen[bucket].set(None);
        match prev {
            None => Put::Kept,
            // The newest buffer stays local; the previous one moves to a partition.
            Some(prev) => match self.push_partition(bucket, prev) {
                None => Put::Kept,
                Some(full) => Put::Dropped(full),
            },
        }
    }

    fn trim(&self, pressure: MemoryPressure, now_ms: u64) -> Vec<B> {
        let mut out = Vec::new();
        for parts in self.buckets.iter() {
            for p in parts.iter() {
                let mut p = sync::lock(p);
                let Partition { stack, stamp } = &mut *p;
                let n = trim::partition_trim(stamp, stack.len(), pressure, now_ms);
                let keep = stack.len() - n;
                out.extend(stack.drain(keep..).rev());
            }
        }
        if let Some(slots) = self.slots.get() {
            slots.trim(pressure, now_ms, &mut out);
        }
        out
    }

    fn trim_all(&self) -> Vec<B> {
        let mut out = Vec::new();
        for parts in self.buckets.iter() {
            for p in parts.iter() {
                out.append(&mut sync::lock(p).stack);
            }
        }
        if let Some(slots) = self.slots.get() {
            slots.drain(&mut out);
        }
        out
    }

    fn layout(&self, bucket: usize, visit: &mut dyn FnMut(Place, &B)) {
        let Some(parts) = self.buckets.get(bucket) else {
            return;
        };
        if let Some(slots) = self.slots.get()
            && let Some(buf) = slots.slots.take(bucket)
        {
            visit(Place::Slot, &buf);
            // Nothing runs between the take and this put back but the visitor, which only reads.
            slots.put_back(bucket, buf);
        }
        for (n, p) in parts.iter().enumerate() {
            for b in sync::lock(p).stack.iter() {
                visit(Place::Partition(n), b);
            }
        }
    }

    fn partitions(&self) -> usize {
        self.config.partitions
    }

    fn stats(&self, element_size: usize) -> PoolStats {
        let mine = self.slots.get();
        let buckets = (0..BUCKET_COUNT)
            .map(|index| {
                let in_partitions = self.buckets[index]
                    .iter()
                    .map(|p| sync::lock(p).stack.len())
                    .sum();
                let in_thread_slot = mine
                    .as_ref()
                    .map_or(0, |s| usize::from(s.slots.is_some(index)));
                let retained_buffers = in_partitions + in_thread_slot;
                let length = bucket_length(index);
                BucketStats {
                    index,
                    length,
                    in_partitions,
                    in_thread_slot,
                    retained_buffers,
                    retained_bytes: stats::bytes(retained_buffers, length, element_size),
                    allocated: self.allocated[index].load(Ordering::Relaxed),
                    handed_out: None,
                }
            })
            .collect();
        PoolStats {
            buckets,
            oversize_allocated: self.oversize_allocated.load(Ordering::Relaxed),
            home_partition: Some(self.home()),
        }
    }
}

// === impl SharedPool ===

/// A port of .NET's shared array pool with an ownership API: [`rent`](Self::rent) hands out a
/// [`Rented`] guard that goes back on drop.
///
/// Mental model: 27 buckets (16 … 2^30 elements); per bucket, each thread has one slot and the
/// pool has `P` partitions of at most `M` buffers, each behind its own mutex.
///
/// - **Rent** `n`: empty for 0; exact and unpooled above 2^30; otherwise the calling thread's
///   slot for `bucket(n)`, then its home partition, then the other partitions round robin, and
///   only then a new buffer of the bucket length.
/// - **Return**: the buffer goes into the thread slot; the slot's previous buffer moves to a
///   partition, or is dropped when all `P` partitions hold `M`. So `1 + P × M` buffers per size
///   can be kept by one thread.
///
/// # Examples
///
/// ```
/// use bufpool::pool::SharedPool;
///
/// let pool = SharedPool::<u8>::new();
/// let mut line = pool.rent(41).unwrap();
/// assert_eq!((line.len(), line.capacity()), (41, 64)); // rounded up to the 64-byte bucket
/// line.append(b"1042|").unwrap();
/// assert_eq!(line.written(), b"1042|");
/// drop(line); // back in this thread's slot
///
/// let again = pool.rent(50).unwrap();
/// assert_eq!(&again[..5], b"1042|"); // stale data: nobody cleared it
/// assert_eq!(pool.stats().allocated(), 1);
/// ```
///
/// # Threads
///
/// The pool is `Sync`: share it by reference (`&'static` via [`SharedPool::shared`], or an `Arc`).
/// Thread slots belong to the pool instance *and* the thread (a per-pool `thread_local` table), so
/// two pools never see each other's buffers and dropping a pool frees every thread's slots.
pub struct SharedPool<T: Element> {
    id: u64,
    engine: SharedEngine<Box<[T]>>,
}

impl<T: Element> Default for SharedPool<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Element> SharedPool<T> {
    /// A pool with one partition per logical processor (1 in wasm) and 32 buffers per partition.
    pub fn new() -> Self {
        let mut config = SharedConfig::default();
        config.partitions = config.partitions.clamp(1, super::config::MAX_PARTITIONS);
        match Self::with_config(config) {
            Ok(pool) => pool,
            // The default configuration is valid by construction; fall back to the smallest one.
            Err(_) => Self::with_config(SharedConfig {
                partitions: 1,
                ..config
            })
            .unwrap_or_else(|_| unreachable!("one partition of 32 is a valid configuration")),
        }
    }

    /// A pool with explicit settings (e.g. small `P` and `M` to show the `1 + P × M` capacity).
    ///
    /// ```
    /// use bufpool::pool::{PoolError, SharedConfig, SharedPool};
    /// let bad = SharedConfig { partitions: 0, ..SharedConfig::default() };
    /// assert!(matches!(SharedPool::<u8>::with_config(bad), Err(PoolError::InvalidConfig { .. })));
    /// ```
    pub fn with_config(config: SharedConfig) -> Result<Self, PoolError> {
        Ok(Self {
            id: next_pool_id(),
            engine: SharedEngine::new(config)?,
        })
    }

    /// A pool configured the way .NET would be from this process's environment variables
    /// ([`SharedConfig::from_env`]).
    pub fn from_env() -> Result<Self, PoolError> {
        Self::with_config(SharedConfig::from_env())
    }

    /// This pool's settings.
    pub fn config(&self) -> &SharedConfig {
        self.engine.config()
    }

    /// A process-unique id of this pool.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// Rents a buffer of at least `len` elements, as an owned guard that returns itself on drop.
    ///
    /// The guard derefs to exactly `len` elements; its [`capacity`](Rented::capacity) is the
    /// bucket length. Errors only when the allocator cannot provide a new buffer.
    #[inline]
    pub fn rent(&self, len: usize) -> Result<Rented<'_, T, Self>, PoolError> {
        // Hot path: a pooled length whose bucket has a buffer in this thread's slot. Both paths
        // yield only the buffer and the guard is built once, here, so that it can live in
        // registers: a guard built on each path is merged through memory, and reading it back
        // in wider loads than it was written in stalls the processor (store forwarding fails).
        //
        // Only for a pool that does not clear on return: then the guard's `Back` is the bucket
        // itself, a value the compiler knows, so when the guard's drop is inlined after this rent
        // its hot-path test (bucket below `BUCKET_COUNT`) folds away and the slot's address is
        // reused. Or-ing in the pool's clear bit, loaded at each rent, kept both (37 → 35
        // instructions per `drop(pool.rent(16))`, callgrind). A clearing pool's guard goes back
        // through the slow path anyway (the clearing), so its rent loses little there. The
        // setting is tested by the per-thread cache's key compare, which always misses for a
        // clearing pool (`take_local`): no test of its own (35 → 33).
        if len.wrapping_sub(1) < MAX_BUCKET_LEN {
            let bucket = select_bucket_index(len);
            if let Some(buf) = self.engine.take_local(bucket) {
                let back = Back::in_bucket(bucket, false);
                // SAFETY: a slot of `bucket` only ever holds a buffer of that bucket's length
                // (`BoxSlots` makes the box with it), so `back` is `buf`'s.
                return Ok(unsafe { owned::guard_with(self, buf, len, back) });
            }
        }
        let buf = self.rent_slow(len)?;
        Ok(owned::guard(self, buf, len, self.config().clear_on_return))
    }

    /// Everything but the hot path: the partitions, a new buffer, `0` and oversize requests.
    ///
    /// `#[cold]`, not only out of line: the compiler then places the call, and the guard
    /// building after it, away from the inlined hot path, which becomes one straight run (in a
    /// loop of rents and returns, the loop's own branch is the only one taken), and it stops
    /// keeping this function's address in a register across the caller's loop. In the bench's
    /// peers loop (rent 16 B, `black_box(&*b)`, drop): 1.25-1.30 → 1.08-1.09 ns. Same for
    /// [`give_back_slow`](Self::give_back_slow).
    #[cold]
    #[inline(never)]
    fn rent_slow(&self, len: usize) -> Result<Box<[T]>, PoolError> {
        self.rent_boxed(len)
    }

    /// Rents a buffer of `N` elements with the bucket chosen at compile time — the same buffer
    /// [`rent(N)`](Self::rent) gives, minus the bucket arithmetic (the course's chapter 8: Go's
    /// size-specialized allocation). Each `N` is its own copy of the rent path.
    ///
    /// ```
    /// use bufpool::pool::SharedPool;
    /// let pool = SharedPool::<u8>::new();
    /// let b = pool.rent_const::<41>().unwrap();
    /// assert_eq!((b.len(), b.capacity()), (41, 64));
    /// drop(b);
    /// assert_eq!(pool.rent(50).unwrap().capacity(), 64); // the same bucket, the same buffer
    /// assert_eq!(pool.stats().allocated(), 1);
    /// ```
    #[inline]
    pub fn rent_const<const N: usize>(&self) -> Result<Rented<'_, T, Self>, PoolError> {
        let buf = match const { const_bucket(N) } {
            Some(bucket) => {
                // As in `rent`: the hot path only for a pool that does not clear on return.
                if let Some(buf) = self.engine.take_local(bucket) {
                    let back = Back::in_bucket(bucket, false);
                    // SAFETY: as in `rent`: the slot's buffer is of `bucket`'s length.
                    return Ok(unsafe { owned::guard_with(self, buf, N, back) });
                }
                owned::rent_planned(&self.engine, self.engine.plan_bucket(bucket))?
            }
            // 0 and oversize requests: nothing to specialize.
            None => self.rent_boxed(N)?,
        };
        Ok(owned::guard(self, buf, N, self.config().clear_on_return))
    }

    /// Rents a raw buffer (the whole bucket length), .NET style: nothing returns it for you.
    /// Give it back with [`return_boxed`](Self::return_boxed), or drop it.
    #[inline]
    pub fn rent_boxed(&self, len: usize) -> Result<Box<[T]>, PoolError> {
        owned::rent_box(&self.engine, len)
    }

    /// Returns a raw buffer, .NET's `Return(array, clearArray)`: any buffer of a bucket length is
    /// accepted, even one that never came from this pool. With `clear`, the buffer is cleared
    /// *before* its length is checked, so a refused buffer comes back cleared.
    ///
    /// ```
    /// use bufpool::pool::SharedPool;
    /// let pool = SharedPool::<u8>::new();
    /// let refused = pool.return_boxed(vec![7u8; 100].into_boxed_slice(), true).unwrap_err();
    /// assert!(refused.error.to_string().starts_with("The buffer is not associated with this pool"));
    /// assert!(refused.buffer.iter().all(|&b| b == 0)); // cleared, then refused
    /// ```
    pub fn return_boxed(&self, buf: Box<[T]>, clear: bool) -> Result<(), Rejected<T>> {
        owned::return_box(&self.engine, buf, clear)
    }

    /// One trim pass at time `now` under `pressure` (see [`trim`](super::trim) for the rules).
    /// Partitions are trimmed for every thread; thread slots only for the calling thread.
    pub fn trim(&self, pressure: MemoryPressure, now: Duration) {
        drop(self.engine.trim(pressure, trim::millis(now)));
    }

    /// Drops every buffer in the partitions and in the calling thread's slots.
    pub fn trim_all(&self) {
        drop(self.engine.trim_all());
    }

    /// Drops every kept buffer, including other threads' slots (needs exclusive access).
    pub fn clear_all_threads(&mut self) {
        drop(self.engine.drain_all_threads());
    }

    /// What the pool keeps and has allocated. Thread slots are counted for the calling thread
    /// only: another thread's slot is a plain, unsynchronized cell that only its thread reads.
    pub fn stats(&self) -> PoolStats {
        self.engine.stats(std::mem::size_of::<T>())
    }

    /// Where bucket `bucket`'s kept buffers sit (the calling thread's slot, each partition): for
    /// drawing the pool. Owned buffers have no identity, so each is a `()`.
    pub fn layout(&self, bucket: usize) -> Layout<()> {
        let mut out = Layout::new(self.engine.partitions());
        self.engine
            .layout(bucket, &mut |place: Place, _: &_| out.put(place, ()));
        out
    }

    /// The process-wide pool for element type `T` (.NET's `ArrayPool<T>.Shared`), made on first
    /// use with [`SharedConfig::default`], or with the settings given to
    /// [`init_shared`](Self::init_shared) before that. The environment is not read: .NET's
    /// `DOTNET_SYSTEM_BUFFERS_*` variables apply only when asked for
    /// (`init_shared(SharedConfig::from_env())`).
    ///
    /// Cheap enough to call on every rent, as .NET code reads `ArrayPool<T>.Shared`: after the
    /// first call for `T`, one atomic load and a compare of type ids, no lock (Rust has no generic
    /// statics, so the pools sit in a small copy-on-write table keyed by type; the bench's
    /// `shared_accessor` suite times it against a held reference).
    ///
    /// ```
    /// use bufpool::pool::SharedPool;
    /// let a = SharedPool::<u8>::shared();
    /// let b = SharedPool::<u8>::shared();
    /// assert_eq!(a.id(), b.id());
    /// assert_ne!(a.id(), SharedPool::<i32>::shared().id());
    /// ```
    #[cfg(not(loom))]
    #[inline]
    pub fn shared() -> &'static Self {
        match super::registry::find::<Self>() {
            Some(pool) => pool,
            None => super::registry::get_or_insert(Self::new),
        }
    }

    /// Makes the process-wide pool for `T` ([`shared`](Self::shared)) with `config`: call it
    /// before the first `shared()` for `T`, e.g. at startup. It is made once, as .NET reads its
    /// settings once: a later call is [`PoolError::SharedExists`], and the pool keeps its
    /// settings.
    ///
    /// To follow .NET's environment variables ([`ENV_MAX_PARTITION_COUNT`](super::ENV_MAX_PARTITION_COUNT),
    /// [`ENV_MAX_ARRAYS_PER_PARTITION`](super::ENV_MAX_ARRAYS_PER_PARTITION)), opt in with
    /// [`SharedConfig::from_env`]:
    ///
    /// ```
    /// use bufpool::pool::{PoolError, SharedConfig, SharedPool};
    /// #[derive(Clone, Default)]
    /// struct Sample(u32);
    /// let pool = SharedPool::<Sample>::init_shared(SharedConfig::from_env()).unwrap();
    /// assert_eq!(pool.id(), SharedPool::<Sample>::shared().id());
    /// let again = SharedPool::<Sample>::init_shared(SharedConfig::default());
    /// assert!(matches!(again, Err(PoolError::SharedExists { .. })));
    /// ```
    #[cfg(not(loom))]
    pub fn init_shared(config: SharedConfig) -> Result<&'static Self, PoolError> {
        let pool = Self::with_config(config)?;
        super::registry::insert(|| pool).map_err(|existing| PoolError::SharedExists {
            pool: existing.id(),
        })
    }
}

impl<T: Element> ReturnTo<T> for SharedPool<T> {
    // Inlined into the guard's drop: with `rent` building the guard once (see there), a rent and
    // a return in one loop keep the guard in registers (2.98 ns against 3.52 ns out of line, in
    // one paired quick run on the course's machine).
    #[inline]
    unsafe fn give_back(&self, buf: Box<[T]>, back: Back) {
        // Hot path: no clearing and a bucket length (the guard knows both), into this thread's
        // slot.
        let buf = match back.fast_bucket() {
            // SAFETY: `fast_bucket` is below `BUCKET_COUNT`, and it is `buf`'s bucket: the
            // promise of `give_back`'s caller.
            Some(bucket) => match unsafe { self.engine.put_local(bucket, buf) } {
                None => return,
                Some(buf) => buf,
            },
            None => buf,
        };
        self.give_back_slow(buf, back.clears());
    }
}

impl<T: Element> SharedPool<T> {
    /// Everything but the hot path: clearing, the first return of a thread, odd lengths.
    /// `#[cold]` for the code layout (see [`rent_slow`](Self::rent_slow)).
    #[cold]
    #[inline(never)]
    fn give_back_slow(&self, buf: Box<[T]>, clear: bool) {
        // A detached guard's buffer: nothing to return.
        if buf.is_empty() {
            return;
        }
        // A guard's buffer always has a bucket length or an oversize length: never refused.
        drop(owned::return_box(&self.engine, buf, clear));
    }
}

impl<T: Element> std::fmt::Debug for SharedPool<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedPool")
            .field("id", &self.id)
            .field("config", self.config())
            .finish_non_exhaustive()
    }
}

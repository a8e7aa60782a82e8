//! The shared pool: .NET's `ArrayPool<T>.Shared` (`SharedArrayPool<T>`).

use super::engine::Engine;
use super::layout::{BucketLayout, Place};
use super::owned::{self, Back, Rejected, Rented, ReturnTo};
use super::owned_rented::{OwnedRented, owned_guard};
use super::stats::PoolStats;
use super::sync;
use super::trim::{self, MemoryPressure};
use super::{Element, PoolError, SharedConfig};
use crate::bucket::{MAX_BUCKET_LEN, select_bucket_index};
use std::sync::Arc;
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

mod engine;
mod pooled;
mod thread_slots;

pub use engine::SharedEngine;
pub use pooled::{Pooled, SlotsOf};

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
/// let mut line = pool.rent(41);
/// assert_eq!((line.len(), line.capacity()), (41, 64)); // rounded up to the 64-byte bucket
/// line.append(b"1042|").unwrap();
/// assert_eq!(line.written(), b"1042|");
/// drop(line); // back in this thread's slot
///
/// let again = pool.rent(50);
/// assert_eq!(&again[..5], b"1042|"); // stale data: nobody cleared it
/// assert_eq!(pool.stats().allocated(), 1);
/// ```
///
/// # Threads
///
/// The pool is `Sync`: share it by reference (`&'static` via [`SharedPool::shared`], or an `Arc`).
/// Thread slots belong to the pool instance *and* the thread (a per-pool table of per-thread entries), so
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
    /// let bad = SharedConfig::new().with_partitions(0);
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
    /// bucket length.
    ///
    /// # Panics
    ///
    /// When no buffer of `len` elements can be allocated (a length whose size in bytes overflows
    /// `isize`, or an allocator that is out of memory), with [`PoolError::AllocationFailed`]'s
    /// message: as [`Vec::with_capacity`] panics on a capacity overflow. Unlike `Vec`, a real
    /// out-of-memory also panics instead of aborting through
    /// [`handle_alloc_error`](std::alloc::handle_alloc_error), so that a caller can catch it,
    /// and a test can see it. For a length that comes from input, use
    /// [`try_rent`](Self::try_rent).
    ///
    /// ```
    /// use bufpool::pool::SharedPool;
    /// let pool = SharedPool::<u8>::new();
    /// let buf = pool.rent(100);
    /// assert_eq!((buf.len(), buf.capacity()), (100, 128));
    /// ```
    #[inline]
    #[track_caller]
    pub fn rent(&self, len: usize) -> Rented<'_, T, Self> {
        match self.try_rent(len) {
            Ok(rented) => rented,
            Err(e) => owned::rent_failed(&e),
        }
    }

    /// Rents a buffer of at least `len` elements as [`rent`](Self::rent) does, or says why not
    /// (as [`Vec::try_reserve`] does): [`PoolError::AllocationFailed`] when no buffer of `len`
    /// elements can be allocated.
    ///
    /// ```
    /// use bufpool::pool::{PoolError, SharedPool};
    /// let pool = SharedPool::<u64>::new();
    /// assert_eq!(pool.try_rent(41).unwrap().capacity(), 64);
    /// let err = pool.try_rent(usize::MAX).unwrap_err();
    /// assert_eq!(err, PoolError::AllocationFailed { length: usize::MAX, element_size: 8 });
    /// ```
    #[inline]
    pub fn try_rent(&self, len: usize) -> Result<Rented<'_, T, Self>, PoolError> {
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
        self.try_rent_boxed(len)
    }

    /// Rents a buffer of `N` elements with the bucket chosen at compile time — the same buffer
    /// [`rent(N)`](Self::rent) gives, minus the bucket arithmetic (the course's chapter 8: Go's
    /// size-specialized allocation). Each `N` is its own copy of the rent path.
    ///
    /// ```
    /// use bufpool::pool::SharedPool;
    /// let pool = SharedPool::<u8>::new();
    /// let b = pool.rent_const::<41>();
    /// assert_eq!((b.len(), b.capacity()), (41, 64));
    /// drop(b);
    /// assert_eq!(pool.rent(50).capacity(), 64); // the same bucket, the same buffer
    /// assert_eq!(pool.stats().allocated(), 1);
    /// ```
    ///
    /// # Panics
    ///
    /// As [`rent`](Self::rent), when the buffer cannot be allocated.
    #[inline]
    #[track_caller]
    pub fn rent_const<const N: usize>(&self) -> Rented<'_, T, Self> {
        match self.try_rent_const::<N>() {
            Ok(rented) => rented,
            Err(e) => owned::rent_failed(&e),
        }
    }

    /// [`rent_const`](Self::rent_const), or why the buffer could not be allocated.
    ///
    /// ```
    /// use bufpool::pool::SharedPool;
    /// let pool = SharedPool::<u8>::new();
    /// assert_eq!(pool.try_rent_const::<16>().unwrap().capacity(), 16);
    /// assert!(pool.try_rent_const::<{ usize::MAX }>().is_err());
    /// ```
    #[inline]
    pub fn try_rent_const<const N: usize>(&self) -> Result<Rented<'_, T, Self>, PoolError> {
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
            None => self.try_rent_boxed(N)?,
        };
        Ok(owned::guard(self, buf, N, self.config().clear_on_return))
    }

    /// Rents a buffer as [`rent`](Self::rent) does, in a guard that holds an `Arc` of the pool
    /// instead of a borrow ([`OwnedRented`]): `'static`, for a spawned thread or a task; it goes
    /// back to the pool on drop exactly as a [`Rented`] does.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use bufpool::pool::SharedPool;
    /// let pool = Arc::new(SharedPool::<u64>::new());
    /// let mut buf = pool.rent_owned(20);
    /// let sum = std::thread::spawn(move || {
    ///     buf.fill(3);
    ///     buf.iter().sum::<u64>()
    /// });
    /// assert_eq!(sum.join().unwrap(), 60);
    /// ```
    ///
    /// # Panics
    ///
    /// As [`rent`](Self::rent), when the buffer cannot be allocated.
    #[track_caller]
    pub fn rent_owned(self: &Arc<Self>, len: usize) -> OwnedRented<T, Self> {
        match self.try_rent_owned(len) {
            Ok(rented) => rented,
            Err(e) => owned::rent_failed(&e),
        }
    }

    /// [`rent_owned`](Self::rent_owned), or why the buffer could not be allocated.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use bufpool::pool::SharedPool;
    /// let pool = Arc::new(SharedPool::<u64>::new());
    /// assert!(pool.try_rent_owned(usize::MAX).is_err());
    /// assert_eq!(pool.try_rent_owned(100).unwrap().capacity(), 128);
    /// ```
    pub fn try_rent_owned(self: &Arc<Self>, len: usize) -> Result<OwnedRented<T, Self>, PoolError> {
        let buf = self.try_rent_boxed(len)?;
        Ok(owned_guard(
            Arc::clone(self),
            buf,
            len,
            self.config().clear_on_return,
        ))
    }

    /// Rents a raw buffer (the whole bucket length), .NET style: nothing returns it for you.
    /// Give it back with [`return_boxed`](Self::return_boxed), or drop it.
    ///
    /// ```
    /// use bufpool::pool::SharedPool;
    /// let pool = SharedPool::<u8>::new();
    /// let raw = pool.rent_boxed(100);
    /// assert_eq!(raw.len(), 128); // the whole bucket, as .NET's Rent
    /// pool.return_boxed(raw, false).unwrap();
    /// ```
    ///
    /// # Panics
    ///
    /// As [`rent`](Self::rent), when the buffer cannot be allocated.
    #[inline]
    #[track_caller]
    pub fn rent_boxed(&self, len: usize) -> Box<[T]> {
        match self.try_rent_boxed(len) {
            Ok(buf) => buf,
            Err(e) => owned::rent_failed(&e),
        }
    }

    /// [`rent_boxed`](Self::rent_boxed), or why the buffer could not be allocated.
    ///
    /// ```
    /// use bufpool::pool::SharedPool;
    /// let pool = SharedPool::<u8>::new();
    /// assert_eq!(pool.try_rent_boxed(16).unwrap().len(), 16);
    /// assert!(pool.try_rent_boxed(usize::MAX).is_err());
    /// ```
    #[inline]
    pub fn try_rent_boxed(&self, len: usize) -> Result<Box<[T]>, PoolError> {
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
    /// assert!(refused.error.to_string().contains("is not associated with this pool"));
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
    pub fn layout(&self, bucket: usize) -> BucketLayout<()> {
        let mut out = BucketLayout::new(self.engine.partitions());
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

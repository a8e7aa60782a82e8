//! The configurable pool: .NET's `ArrayPool<T>.Create()` (`ConfigurableArrayPool<T>`).

use super::engine::{Engine, Plan, Put};
use super::owned::{self, Rejected, Rented, ReturnTo};
use super::owned_rented::{OwnedRented, owned_guard};
use super::shared::next_pool_id;
use super::stats::{self, BucketStats, Counts, PoolStats};
use super::sync::{self, AtomicU64, Mutex, Ordering};
use super::{ConfigurableConfig, Element, MemoryPressure, PoolError};
use crate::bucket::{bucket_length, select_bucket_index};
use std::sync::Arc;

/// One bucket: `capacity` slots of which `index` are counted as handed out.
///
/// .NET keeps an array of `capacity` slots and an index; slots below the index are empty (handed
/// out), slots from the index up are filled lazily. The filled ones always form a run starting at
/// the index, so a stack whose top is slot `index` represents them exactly.
struct Bucket<B> {
    index: usize,
    kept: Vec<B>,
    /// Rents, returns and drops counted under the bucket's lock (which every one of them takes
    /// anyway): no atomic of their own.
    rented: u64,
    returned: u64,
    dropped: u64,
}

/// The configurable pool's engine (`ArrayPool.Create()`): one locked stack per bucket.
pub struct ConfigurableEngine<B> {
    config: ConfigurableConfig,
    buckets: Box<[Mutex<Bucket<B>>]>,
    allocated: Box<[AtomicU64]>,
    oversize_allocated: AtomicU64,
    /// The counts of what takes no bucket's lock: rents from exhausted buckets and above the
    /// maximum length, returns above it, trims.
    counts: Counts,
}

impl<B: Send> ConfigurableEngine<B> {
    /// An engine with these settings, or the setting that is out of range.
    pub fn new(config: ConfigurableConfig) -> Result<Self, PoolError> {
        config.validate()?;
        let n = config.bucket_count();
        Ok(Self {
            config,
            buckets: (0..n)
                .map(|_| {
                    Mutex::new(Bucket {
                        index: 0,
                        kept: Vec::new(),
                        rented: 0,
                        returned: 0,
                        dropped: 0,
                    })
                })
                .collect(),
            allocated: (0..n).map(|_| AtomicU64::new(0)).collect(),
            oversize_allocated: AtomicU64::new(0),
            counts: Counts::new(),
        })
    }

    /// The engine's settings.
    pub fn config(&self) -> &ConfigurableConfig {
        &self.config
    }

    /// `Some(bucket)` if `len` (≥ 1) maps to one of this pool's buckets.
    fn bucket_for(&self, len: usize) -> Option<usize> {
        let index = select_bucket_index(len);
        (index < self.buckets.len()).then_some(index)
    }
}

impl<B: Send> Engine<B> for ConfigurableEngine<B> {
    fn plan(&self, len: usize) -> Plan<B> {
        if len == 0 {
            return Plan::Empty;
        }
        let Some(index) = self.bucket_for(len) else {
            Counts::add(&self.counts.rented, 1);
            return Plan::Exact(len);
        };
        // Try bucket `index`, then `index + 1` (.NET's MaxBucketsToTry = 2).
        for i in index..(index + 2).min(self.buckets.len()) {
            let mut b = sync::lock(&self.buckets[i]);
            if b.index < self.config.max_arrays_per_bucket {
                b.index += 1;
                b.rented += 1;
                return match b.kept.pop() {
                    Some(buf) => Plan::Hit(buf),
                    // A slot not filled yet: allocated lazily at this bucket's length.
                    None => Plan::Alloc {
                        bucket: i,
                        length: bucket_length(i),
                    },
                };
            }
        }
        Counts::add(&self.counts.rented, 1);
        Plan::Alloc {
            bucket: index,
            length: bucket_length(index),
        }
    }

    fn note_alloc(&self, bucket: Option<usize>) {
        let counter = match bucket.and_then(|b| self.allocated.get(b)) {
            Some(c) => c,
            None => &self.oversize_allocated,
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }

    fn clears(&self, len: usize) -> bool {
        len != 0 && self.bucket_for(len).is_some()
    }

    fn put(&self, len: usize, buf: B) -> Put<B> {
        if len == 0 {
            return Put::Ignored(buf);
        }
        let Some(index) = self.bucket_for(len) else {
            Counts::add(&self.counts.returned, 1);
            Counts::add(&self.counts.dropped, 1);
            return Put::Ignored(buf);
        };
        if len != bucket_length(index) {
            return Put::NotAssociated(buf);
        }
        let mut b = sync::lock(&self.buckets[index]);
        b.returned += 1;
        if b.index == 0 {
            b.dropped += 1;
            return Put::Dropped(buf);
        }
        b.index -= 1;
        b.kept.push(buf);
        Put::Kept
    }

    /// The configurable pool never trims (as in .NET).
    fn trim(&self, _pressure: MemoryPressure, _now_ms: u64) -> Vec<B> {
        Vec::new()
    }

    fn trim_all(&self) -> Vec<B> {
        let mut out = Vec::new();
        for b in self.buckets.iter() {
            out.append(&mut sync::lock(b).kept);
        }
        Counts::add(&self.counts.trimmed, out.len());
        out
    }

    fn stats(&self, element_size: usize) -> PoolStats {
        let mut rented = Counts::read(&self.counts.rented);
        let mut returned = Counts::read(&self.counts.returned);
        let mut dropped = Counts::read(&self.counts.dropped);
        let buckets = self
            .buckets
            .iter()
            .enumerate()
            .map(|(index, b)| {
                let b = sync::lock(b);
                rented += b.rented;
                returned += b.returned;
                dropped += b.dropped;
                let length = bucket_length(index);
                BucketStats {
                    index,
                    length,
                    in_partitions: b.kept.len(),
                    in_thread_slot: 0,
                    retained_buffers: b.kept.len(),
                    retained_bytes: stats::bytes(b.kept.len(), length, element_size),
                    allocated: self.allocated[index].load(Ordering::Relaxed),
                    handed_out: Some(b.index),
                }
            })
            .collect();
        PoolStats {
            buckets,
            oversize_allocated: self.oversize_allocated.load(Ordering::Relaxed),
            home_partition: None,
            rented,
            returned,
            dropped,
            trimmed: Counts::read(&self.counts.trimmed),
        }
    }
}

/// A port of .NET's `ArrayPool<T>.Create()` with the ownership API.
///
/// Mental model: buckets from 16 up to the maximum length (1,048,576 by default: 17 buckets), each
/// a locked stack of at most 50 buffers. No thread slots, no partitions, no trimming.
///
/// - **Rent** `n`: bucket `i = bucket(n)`, then `i + 1` — so a renter may get, or even cause the
///   allocation of, a buffer twice the size — then a new bucket-`i` buffer. Above the maximum
///   length: exact and never kept.
/// - **Return**: wrong length → [`PoolError::NotAssociated`]; full bucket or above the maximum →
///   dropped silently.
///
/// ```
/// use bufpool::pool::{ConfigurableConfig, ConfigurablePool};
/// let pool = ConfigurablePool::<u8>::new();
/// assert_eq!(pool.config().effective_max_length(), 1_048_576);
/// let big = pool.rent(1_048_577);
/// assert_eq!(big.capacity(), 1_048_577); // exact, never pooled
/// ```
pub struct ConfigurablePool<T: Element> {
    id: u64,
    engine: ConfigurableEngine<Box<[T]>>,
}

impl<T: Element> Default for ConfigurablePool<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Element> ConfigurablePool<T> {
    /// .NET's defaults: maximum length 1,048,576, 50 buffers per bucket.
    pub fn new() -> Self {
        Self {
            id: next_pool_id(),
            engine: ConfigurableEngine::new(ConfigurableConfig::default())
                .unwrap_or_else(|_| unreachable!("the default configuration is valid")),
        }
    }

    /// A pool with explicit settings; 0 for either number is an error.
    pub fn with_config(config: ConfigurableConfig) -> Result<Self, PoolError> {
        Ok(Self {
            id: next_pool_id(),
            engine: ConfigurableEngine::new(config)?,
        })
    }

    /// This pool's settings.
    pub fn config(&self) -> &ConfigurableConfig {
        self.engine.config()
    }

    /// A process-unique id of this pool.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// Rents a buffer of at least `len` elements as an owned guard (see [`SharedPool::rent`](super::SharedPool::rent)).
    ///
    /// # Panics
    ///
    /// When the buffer cannot be allocated, as [`SharedPool::rent`](super::SharedPool::rent);
    /// [`try_rent`](Self::try_rent) returns the error instead.
    ///
    /// ```
    /// use bufpool::pool::ConfigurablePool;
    /// let pool = ConfigurablePool::<u8>::new();
    /// let buf = pool.rent(100);
    /// assert_eq!((buf.len(), buf.capacity()), (100, 128));
    /// ```
    #[track_caller]
    pub fn rent(&self, len: usize) -> Rented<'_, T, Self> {
        match self.try_rent(len) {
            Ok(rented) => rented,
            Err(e) => owned::rent_failed(&e),
        }
    }

    /// [`rent`](Self::rent), or why the buffer could not be allocated.
    ///
    /// ```
    /// use bufpool::pool::{ConfigurablePool, PoolError};
    /// let pool = ConfigurablePool::<u8>::new();
    /// assert_eq!(pool.try_rent(100).unwrap().capacity(), 128);
    /// assert!(matches!(pool.try_rent(usize::MAX), Err(PoolError::AllocationFailed { .. })));
    /// ```
    pub fn try_rent(&self, len: usize) -> Result<Rented<'_, T, Self>, PoolError> {
        let buf = self.try_rent_boxed(len)?;
        Ok(owned::guard(self, buf, len, self.config().clear_on_return))
    }

    /// Rents a buffer as [`rent`](Self::rent) does, in a guard that holds an `Arc` of the pool
    /// instead of a borrow ([`OwnedRented`]): `'static`, for a spawned thread or a task; it goes
    /// back to the pool on drop exactly as a [`Rented`] does.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use bufpool::pool::ConfigurablePool;
    /// let pool = Arc::new(ConfigurablePool::<u64>::new());
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
    /// use bufpool::pool::ConfigurablePool;
    /// let pool = Arc::new(ConfigurablePool::<u64>::new());
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

    /// Rents a raw buffer, .NET style.
    ///
    /// # Panics
    ///
    /// When the buffer cannot be allocated, as [`rent`](Self::rent).
    ///
    /// ```
    /// use bufpool::pool::ConfigurablePool;
    /// let pool = ConfigurablePool::<u8>::new();
    /// let raw = pool.rent_boxed(100);
    /// assert_eq!(raw.len(), 128);
    /// pool.return_boxed(raw, false).unwrap();
    /// assert_eq!(pool.stats().allocated(), 1);
    /// ```
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
    /// use bufpool::pool::ConfigurablePool;
    /// let pool = ConfigurablePool::<u8>::new();
    /// assert_eq!(pool.try_rent_boxed(20).unwrap().len(), 32);
    /// assert!(pool.try_rent_boxed(usize::MAX).is_err());
    /// ```
    pub fn try_rent_boxed(&self, len: usize) -> Result<Box<[T]>, PoolError> {
        owned::rent_box(&self.engine, len)
    }

    /// Returns a raw buffer, .NET style (clear, then the length check).
    pub fn return_boxed(&self, buf: Box<[T]>, clear: bool) -> Result<(), Rejected<T>> {
        owned::return_box(&self.engine, buf, clear)
    }

    /// Drops every kept buffer (the .NET pool has no trimming; this is for demonstrations).
    pub fn trim_all(&self) {
        drop(self.engine.trim_all());
    }

    /// What the pool keeps, hands out and has allocated.
    pub fn stats(&self) -> PoolStats {
        self.engine.stats(std::mem::size_of::<T>())
    }
}

impl<T: Element> ReturnTo<T> for ConfigurablePool<T> {
    // Nothing here relies on `back` being `buf`'s: the full path checks the length itself.
    unsafe fn give_back(&self, buf: Box<[T]>, back: owned::Back) {
        if buf.is_empty() {
            return;
        }
        drop(owned::return_box(&self.engine, buf, back.clears()));
    }
}

impl<T: Element> std::fmt::Debug for ConfigurablePool<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ConfigurablePool")
            .field("id", &self.id)
            .field("config", self.config())
            .finish_non_exhaustive()
    }
}

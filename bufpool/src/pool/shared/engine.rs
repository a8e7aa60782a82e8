//! The shared pool's engine: thread slots, then per-core partitions, then allocation.

use super::pooled::{Pooled, SlotsOf};
use super::thread_slots::{ThreadCounts, ThreadSlots};
use crate::bucket::{
    BUCKET_COUNT, MAX_BUCKET_LEN, bucket_length, bucket_of_length, select_bucket_index,
};
use crate::pool::engine::{Engine, Plan, Put};
use crate::pool::layout::Place;
use crate::pool::stats::{self, BucketStats, Counts, PoolStats};
use crate::pool::sync::{self, AtomicU64, Entry, Mutex, Ordering, ThreadStore};
use crate::pool::trim::{self, MemoryPressure};
use crate::pool::{PoolError, SharedConfig};
use std::ops::Deref;

// === impl Partition ===

/// A thread's entry in the engine's store: its slots and its counts.
type ThreadEntry<B> = Entry<ThreadSlots<B>, ThreadCounts>;

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
    /// Each thread's slots, and its counts of rents and returns (written by it alone).
    slots: ThreadStore<ThreadSlots<B>, ThreadCounts>,
    allocated: [AtomicU64; BUCKET_COUNT],
    oversize_allocated: AtomicU64,
    /// What the slow paths count: rents and returns of a thread without slots, drops, trims.
    counts: Counts,
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
            counts: Counts::new(),
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
        let mine = self.slots.get();
        if let Some(slots) = &mine
            && let Some(buf) = slots.own().slots.take(bucket)
        {
            slots.public().rent();
            return Plan::Hit(buf);
        }
        self.count_rent(mine);
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
        let mine = self.slots.get_cached_fast()?;
        let buf = mine.own().slots.take(bucket)?;
        mine.public().rent();
        Some(buf)
    }

    /// Counts a rent in this thread's counts if it has slots, else in the shared ones.
    /// (`E`: a reference natively, an `Arc` under loom.)
    fn count_rent<E: Deref<Target = ThreadEntry<B>>>(&self, mine: Option<E>) {
        match mine {
            Some(slots) => slots.public().rent(),
            None => Counts::add(&self.counts.rented, 1),
        }
    }

    /// Counts a return as [`count_rent`](Self::count_rent) counts a rent.
    fn count_return<E: Deref<Target = ThreadEntry<B>>>(&self, mine: Option<E>) {
        match mine {
            Some(slots) => slots.public().give_back(),
            None => Counts::add(&self.counts.returned, 1),
        }
    }

    /// Pushes a returned buffer to a partition: kept, or dropped (and counted) when all are
    /// full.
    fn to_partition(&self, bucket: usize, buf: B) -> Put<B> {
        match self.push_partition(bucket, buf) {
            None => Put::Kept,
            Some(full) => {
                Counts::add(&self.counts.dropped, 1);
                Put::Dropped(full)
            }
        }
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
        let prev = unsafe { slots.own().slots.replace_unchecked(bucket, buf) };
        // A new occupant is unseen by trimming (.NET replaces the whole slot struct).
        slots.own().seen[bucket].set(None);
        slots.public().give_back();
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
        drop(self.to_partition(bucket, prev));
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
        Counts::add(&self.counts.trimmed, out.len());
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
            self.count_rent(self.slots.get());
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
        if len == 0 {
            return Put::Ignored(buf);
        }
        if len > MAX_BUCKET_LEN {
            self.count_return(self.slots.get());
            Counts::add(&self.counts.dropped, 1);
            return Put::Ignored(buf);
        }
        let Some(bucket) = bucket_of_length(len) else {
            return Put::NotAssociated(buf);
        };
        // The thread's slots are created by the first return, as in .NET; a thread that is
        // already running its TLS destructors gets none, and the buffer goes to a partition.
        let Some(slots) = self.slots.get_or(ThreadSlots::new) else {
            self.count_return(None::<&ThreadEntry<B>>);
            return self.to_partition(bucket, buf);
        };
        slots.public().give_back();
        let prev = match slots.own().slots.replace(bucket, buf) {
            Ok(prev) => prev,
            // Not of the bucket's length (`bucket_of_length` says it is): never.
            Err(buf) => return self.to_partition(bucket, buf),
        };
        // A new occupant is unseen by trimming (.NET replaces the whole slot struct).
        slots.own().seen[bucket].set(None);
        match prev {
            None => Put::Kept,
            // The newest buffer stays local; the previous one moves to a partition.
            Some(prev) => self.to_partition(bucket, prev),
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
            slots.own().trim(pressure, now_ms, &mut out);
        }
        Counts::add(&self.counts.trimmed, out.len());
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
            slots.own().drain(&mut out);
        }
        Counts::add(&self.counts.trimmed, out.len());
        out
    }

    fn layout(&self, bucket: usize, visit: &mut dyn FnMut(Place, &B)) {
        let Some(parts) = self.buckets.get(bucket) else {
            return;
        };
        if let Some(slots) = self.slots.get()
            && let Some(buf) = slots.own().slots.take(bucket)
        {
            visit(Place::Slot, &buf);
            // Nothing runs between the take and this put back but the visitor, which only reads.
            slots.own().put_back(bucket, buf);
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
                    .map_or(0, |s| usize::from(s.own().slots.is_some(index)));
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
        // Every thread's counts (atomic loads of counters their threads write), then the slow
        // paths'.
        let (mut rented, mut returned) = (
            Counts::read(&self.counts.rented),
            Counts::read(&self.counts.returned),
        );
        self.slots.for_each_public(|counts| {
            let (r, g) = counts.read();
            rented = rented.wrapping_add(r);
            returned = returned.wrapping_add(g);
        });
        PoolStats {
            buckets,
            oversize_allocated: self.oversize_allocated.load(Ordering::Relaxed),
            home_partition: Some(self.home()),
            rented,
            returned,
            dropped: Counts::read(&self.counts.dropped),
            trimmed: Counts::read(&self.counts.trimmed),
        }
    }
}

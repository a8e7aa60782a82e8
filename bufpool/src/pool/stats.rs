//! What a pool holds and has allocated, for widgets and tests.

use super::sync::{AtomicU64, Ordering};

/// A snapshot of one pool: per bucket, how many buffers it keeps and how many it allocated;
/// over the whole pool and every thread, how many buffers were rented, returned, dropped and
/// trimmed.
///
/// The four counts cover every thread that used the pool, alive or gone, and only grow. They are
/// read without stopping the pool, so a snapshot taken while other threads rent and return may
/// catch one count a little behind another; taken when the pool is quiet (e.g. after joining the
/// threads), `allocated() - dropped - trimmed - (rented - returned)` is what the pool keeps, as
/// far as rents and returns went through the guard or the pool's raw calls with its own buffers.
/// The shared pool counts a thread's rents and returns in counters only that thread writes
/// (summed here), so counting adds no contended write to its hot path.
///
/// ```
/// use bufpool::pool::SharedPool;
/// let pool = SharedPool::<u8>::new();
/// drop(pool.rent(100));
/// drop(pool.rent(100));
/// let s = pool.stats();
/// assert_eq!((s.rented, s.returned, s.allocated(), s.dropped, s.trimmed), (2, 2, 1, 0, 0));
/// pool.trim_all();
/// assert_eq!(pool.stats().trimmed, 1);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PoolStats {
    /// One entry per bucket of the pool (27 for the shared pool), smallest first.
    pub buckets: Vec<BucketStats>,
    /// Exact-length buffers allocated for requests larger than the largest bucket.
    pub oversize_allocated: u64,
    /// The calling thread's partition (shared pool only).
    pub home_partition: Option<usize>,
    /// Buffers handed out by rents, kept or new, by every thread. A rent of 0 elements hands
    /// out the empty buffer, which is no buffer of the pool: not counted.
    pub rented: u64,
    /// Buffers given back and accepted (kept or dropped), by every thread; a buffer refused
    /// with [`PoolError::NotAssociated`](super::PoolError::NotAssociated), an empty one and a
    /// detached guard's are not counted.
    pub returned: u64,
    /// Returned buffers the pool did not keep: every place for them was full, or they are
    /// longer than the largest bucket.
    pub dropped: u64,
    /// Kept buffers dropped by trimming ([`SharedPool::trim`](super::SharedPool::trim),
    /// `trim_all`, `clear_all_threads`).
    pub trimmed: u64,
}

/// One bucket of a [`PoolStats`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct BucketStats {
    /// Bucket index.
    pub index: usize,
    /// Length of this bucket's buffers, in elements.
    pub length: usize,
    /// Buffers kept in the partitions (shared pool) or in the bucket (configurable pool).
    pub in_partitions: usize,
    /// Buffers kept in the calling thread's slot (0 or 1; shared pool only). Other threads'
    /// slots are not visible from here — see [`SharedPool::stats`](super::SharedPool::stats).
    pub in_thread_slot: usize,
    /// `in_partitions + in_thread_slot`.
    pub retained_buffers: usize,
    /// `retained_buffers × length × size of one element`.
    pub retained_bytes: u64,
    /// Buffers of this bucket the pool allocated because it had none to hand out.
    pub allocated: u64,
    /// Configurable pool only: buffers currently counted as handed out by this bucket.
    pub handed_out: Option<usize>,
}

impl PoolStats {
    /// Buffers kept over all buckets.
    pub fn retained_buffers(&self) -> usize {
        self.buckets.iter().map(|b| b.retained_buffers).sum()
    }

    /// Bytes kept over all buckets.
    pub fn retained_bytes(&self) -> u64 {
        self.buckets.iter().map(|b| b.retained_bytes).sum()
    }

    /// Buffers allocated over all buckets, plus oversize ones.
    pub fn allocated(&self) -> u64 {
        self.buckets.iter().map(|b| b.allocated).sum::<u64>() + self.oversize_allocated
    }

    /// The entry for bucket `index`, if the pool has it.
    pub fn bucket(&self, index: usize) -> Option<&BucketStats> {
        self.buckets.get(index)
    }
}

/// Counts an engine keeps in shared atomics: only on its slow paths (a read-modify-write each).
pub(crate) struct Counts {
    pub(crate) rented: AtomicU64,
    pub(crate) returned: AtomicU64,
    pub(crate) dropped: AtomicU64,
    pub(crate) trimmed: AtomicU64,
}

impl Counts {
    pub(crate) fn new() -> Self {
        Self {
            rented: AtomicU64::new(0),
            returned: AtomicU64::new(0),
            dropped: AtomicU64::new(0),
            trimmed: AtomicU64::new(0),
        }
    }

    /// Adds `n` to `count`.
    pub(crate) fn add(count: &AtomicU64, n: usize) {
        count.fetch_add(n as u64, Ordering::Relaxed);
    }

    pub(crate) fn read(count: &AtomicU64) -> u64 {
        count.load(Ordering::Relaxed)
    }
}

pub(crate) fn bytes(buffers: usize, length: usize, element_size: usize) -> u64 {
    (buffers as u64)
        .saturating_mul(length as u64)
        .saturating_mul(element_size as u64)
}

#[cfg(test)]
mod tests {
    use crate::pool::{
        ConfigurableConfig, ConfigurablePool, MemoryPressure, PoolStats, SharedConfig, SharedPool,
    };
    use std::time::Duration;

    fn small(partitions: usize, arrays_per_partition: usize) -> SharedConfig {
        SharedConfig {
            partitions,
            arrays_per_partition,
            clear_on_return: false,
        }
    }

    /// `(rented, returned, allocated, dropped, trimmed)`.
    fn counts(s: &PoolStats) -> (u64, u64, u64, u64, u64) {
        (s.rented, s.returned, s.allocated(), s.dropped, s.trimmed)
    }

    /// What a quiet pool keeps, by its counts.
    fn kept_by_counts(s: &PoolStats) -> u64 {
        s.allocated() - s.dropped - s.trimmed - (s.rented - s.returned)
    }

    #[test]
    fn the_shared_pool_counts_rents_returns_allocations_and_drops_on_one_thread() {
        // One partition of one buffer: with the thread's slot, two buffers of a size are kept.
        let pool = SharedPool::<u8>::with_config(small(1, 1)).unwrap();
        let held: Vec<_> = (0..3).map(|_| pool.rent(16)).collect();
        assert_eq!(counts(&pool.stats()), (3, 0, 3, 0, 0));
        drop(held); // slot, partition, then dropped: all full
        let s = pool.stats();
        assert_eq!(counts(&s), (3, 3, 3, 1, 0));
        assert_eq!(kept_by_counts(&s), s.retained_buffers() as u64);
        // The hot path (the slot) counts too.
        for _ in 0..10 {
            drop(pool.rent(16));
        }
        assert_eq!(counts(&pool.stats()), (13, 13, 3, 1, 0));
        // Not counted: the empty buffer, and a buffer refused as not the pool's.
        drop(pool.rent(0));
        assert!(
            pool.return_boxed(vec![0; 100].into_boxed_slice(), false)
                .is_err()
        );
        // A raw rent and return count as the guard's.
        let raw = pool.rent_boxed(40);
        pool.return_boxed(raw, false).unwrap();
        let s = pool.stats();
        assert_eq!(counts(&s), (14, 14, 4, 1, 0));
        assert_eq!(kept_by_counts(&s), s.retained_buffers() as u64);
    }

    #[test]
    fn the_shared_pool_sums_the_counts_of_every_thread() {
        const EACH: u64 = if cfg!(miri) { 5 } else { 1_000 };
        let pool = SharedPool::<u8>::with_config(small(2, 2)).unwrap();
        let done = std::sync::Barrier::new(3);
        std::thread::scope(|s| {
            for len in [16, 100] {
                let (pool, done) = (&pool, &done);
                s.spawn(move || {
                    for _ in 0..EACH {
                        drop(pool.rent(len));
                    }
                    done.wait(); // Alive while the main thread reads its counts.
                    done.wait();
                });
            }
            done.wait();
            // Each thread's counts, read from here while it lives: one buffer each.
            assert_eq!(counts(&pool.stats()), (2 * EACH, 2 * EACH, 2, 0, 0));
            done.wait();
        });
        // And after they exited: the counts stay.
        let s = pool.stats();
        assert_eq!(counts(&s), (2 * EACH, 2 * EACH, 2, 0, 0));
        // Both buffers sit in the dead threads' slots, which this thread cannot see.
        assert_eq!((kept_by_counts(&s), s.retained_buffers()), (2, 0));
    }

    #[test]
    fn trims_count_every_buffer_they_drop() {
        let mut pool = SharedPool::<u8>::with_config(small(1, 4)).unwrap();
        let held: Vec<_> = (0..3).map(|_| pool.rent(16)).collect();
        drop(held); // one in the slot, two in the partition
        assert_eq!(pool.stats().retained_buffers(), 3);
        // The first trim only stamps; under high pressure the next one drops all.
        pool.trim(MemoryPressure::High, Duration::ZERO);
        pool.trim(MemoryPressure::High, Duration::from_secs(11));
        let s = pool.stats();
        assert_eq!((s.retained_buffers(), s.trimmed), (0, 3));
        // `trim_all` and `clear_all_threads` count as trims too.
        drop(pool.rent(16));
        pool.trim_all();
        assert_eq!(pool.stats().trimmed, 4);
        drop(pool.rent(16));
        pool.clear_all_threads();
        let s = pool.stats();
        assert_eq!(counts(&s), (5, 5, 5, 0, 5));
        assert_eq!(kept_by_counts(&s), 0);
    }

    #[test]
    fn the_configurable_pool_counts_under_its_locks() {
        let pool = ConfigurablePool::<u8>::with_config(ConfigurableConfig {
            max_array_length: 32,
            max_arrays_per_bucket: 1,
            clear_on_return: false,
        })
        .unwrap();
        // Bucket 0, then bucket 1 (.NET tries the next), then a new bucket-0 buffer.
        let held: Vec<_> = (0..3).map(|_| pool.rent(16)).collect();
        let big = pool.rent(33); // above the maximum: exact
        assert_eq!(counts(&pool.stats()), (4, 0, 4, 0, 0));
        drop(held); // the third finds its bucket full: dropped
        drop(big); // never kept: dropped
        let s = pool.stats();
        assert_eq!(counts(&s), (4, 4, 4, 2, 0));
        assert_eq!(kept_by_counts(&s), s.retained_buffers() as u64);
        pool.trim_all();
        let s = pool.stats();
        assert_eq!((s.trimmed, s.retained_buffers()), (2, 0));
        // The same counts from another thread.
        std::thread::scope(|t| {
            t.spawn(|| drop(pool.rent(16)));
        });
        assert_eq!(counts(&pool.stats()), (5, 5, 5, 2, 2));
    }
}

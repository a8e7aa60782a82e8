//! What a pool holds and has allocated, for widgets and tests.

/// A snapshot of one pool: per bucket, how many buffers it keeps and how many it allocated.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PoolStats {
    /// One entry per bucket of the pool (27 for the shared pool), smallest first.
    pub buckets: Vec<BucketStats>,
    /// Exact-length buffers allocated for requests larger than the largest bucket.
    pub oversize_allocated: u64,
    /// The calling thread's partition (shared pool only).
    pub home_partition: Option<usize>,
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

pub(crate) fn bytes(buffers: usize, length: usize, element_size: usize) -> u64 {
    (buffers as u64)
        .saturating_mul(length as u64)
        .saturating_mul(element_size as u64)
}

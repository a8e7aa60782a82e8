//! Exercise 6, the reference solution: the capacity rule under the partition model.

// ANCHOR: solution
/// A buffer of the modelled bucket, by number.
pub type Buffer = u32;

/// One bucket of the shared pool, seen from one thread.
pub struct BucketModel {
    slot: Option<Buffer>,
    partitions: Vec<Vec<Buffer>>,
    per_partition: usize,
    allocated: u32,
}

impl BucketModel {
    /// An empty bucket with `partitions` stacks (at least 1) of at most `per_partition` buffers.
    pub fn new(partitions: usize, per_partition: usize) -> BucketModel {
        BucketModel {
            slot: None,
            partitions: vec![Vec::new(); partitions.max(1)],
            per_partition,
            allocated: 0,
        }
    }

    /// Buffers allocated so far.
    pub fn allocated(&self) -> u32 {
        self.allocated
    }

    /// The buffers this bucket keeps with all of them returned: `1 + P × M`.
    pub fn capacity(&self) -> usize {
        1 + self.partitions.len() * self.per_partition
    }

    /// The partitions in the order a thread on `core` visits them.
    fn order(&self, core: usize) -> impl Iterator<Item = usize> + use<> {
        let p = self.partitions.len();
        (0..p).map(move |i| (core + i) % p)
    }

    /// A buffer for a thread running on processor `core`: slot, partitions, or a new one.
    pub fn rent(&mut self, core: usize) -> Buffer {
        if let Some(buffer) = self.slot.take() {
            return buffer;
        }
        for i in self.order(core) {
            if let Some(buffer) = self.partitions[i].pop() {
                return buffer;
            }
        }
        self.allocated += 1;
        self.allocated - 1
    }

    /// Takes `buffer` back from a thread running on processor `core`.
    pub fn give_back(&mut self, core: usize, buffer: Buffer) {
        let Some(previous) = self.slot.replace(buffer) else {
            return;
        };
        for i in self.order(core) {
            if self.partitions[i].len() < self.per_partition {
                self.partitions[i].push(previous);
                return;
            }
        }
        // Every partition is full: `previous` is dropped, and the newest stays local.
    }

    /// Buffers kept: the slot's and the partitions'.
    pub fn kept(&self) -> usize {
        usize::from(self.slot.is_some()) + self.partitions.iter().map(Vec::len).sum::<usize>()
    }
}
// ANCHOR_END: solution

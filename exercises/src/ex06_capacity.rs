#![allow(
    unused_variables,
    reason = "the skeleton's bodies are todo!(): your code uses them"
)]
// ANCHOR: exercise
//! # Exercise 6: the capacity rule under the partition model
//!
//! Chapter: Capacity and ceilings (`book/src/capacity.md`).
//!
//! For one bucket, .NET's shared pool keeps a per-thread slot and `partitions` locked stacks
//! (one per logical processor), each holding at most `per_partition` buffers (32). Model one
//! thread renting and returning buffers of one bucket; a buffer is a number, and a new one is
//! the next number (`allocated` counts them).
//!
//! - `capacity()`: the buffers the bucket can keep with all of them returned, `1 + P × M`.
//! - `rent(core)`, on a thread running on processor `core`: the thread slot first; then the
//!   partitions, starting at `core % P` and going round all of them, taking each stack's top;
//!   only then a new buffer.
//! - `give_back(core, buffer)`: the buffer goes into the thread slot (the newest stays local);
//!   the slot's previous buffer, if any, is pushed onto the first partition with room, starting
//!   at `core % P` and going round; it is dropped when every partition is full.
//! - `kept()`: buffers in the slot and the partitions.
//!
//! Grade it: `cargo xtask exercises` (or `cargo test -p exercises --test ex06_capacity`).

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
        todo!()
    }

    /// A buffer for a thread running on processor `core`: slot, partitions, or a new one.
    pub fn rent(&mut self, core: usize) -> Buffer {
        todo!()
    }

    /// Takes `buffer` back from a thread running on processor `core`.
    pub fn give_back(&mut self, core: usize, buffer: Buffer) {
        todo!()
    }

    /// Buffers kept: the slot's and the partitions'.
    pub fn kept(&self) -> usize {
        todo!()
    }
}
// ANCHOR_END: exercise

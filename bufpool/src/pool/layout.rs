//! Where a pool keeps its buffers, for drawing it: per bucket, the calling thread's slot and each
//! partition's stack, bottom to top. Read-only; a front end draws the real pool's state from it
//! instead of modelling where a returned buffer would go.

/// Where one kept buffer sits.
///
/// Exhaustive on purpose: a kept buffer is in a thread slot or a partition, and a new place would
/// need a new field of [`BucketLayout`] anyway, so a `match` over both is complete.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// The calling thread's slot for the bucket.
    Slot,
    /// Partition `n`'s stack (pushed in order, so the last visited is the top).
    Partition(usize),
}

/// One bucket's kept buffers, by place; `B` is what identifies a buffer (an id, or `()`).
///
/// Built with [`BucketLayout::new`] and [`put`](Self::put); `#[non_exhaustive]`, so a later
/// version may record more (other threads' slots, say) without breaking code that reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct BucketLayout<B> {
    /// The calling thread's slot.
    pub slot: Option<B>,
    /// Each partition's stack, bottom first.
    pub partitions: Vec<Vec<B>>,
}

impl<B> BucketLayout<B> {
    /// An empty layout of `partitions` partitions (for a front end that draws its engine).
    pub fn new(partitions: usize) -> Self {
        BucketLayout {
            slot: None,
            partitions: (0..partitions).map(|_| Vec::new()).collect(),
        }
    }

    /// Records `b` at `place` (an engine's [`layout`](super::engine::Engine::layout) visit).
    pub fn put(&mut self, place: Place, b: B) {
        match place {
            Place::Slot => self.slot = Some(b),
            Place::Partition(n) => {
                if let Some(p) = self.partitions.get_mut(n) {
                    p.push(b);
                }
            }
        }
    }

    /// Buffers kept in this bucket.
    pub fn len(&self) -> usize {
        usize::from(self.slot.is_some()) + self.partitions.iter().map(Vec::len).sum::<usize>()
    }

    /// Whether no buffer is kept in this bucket.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

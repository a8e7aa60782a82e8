//! The contract between a pool's front end (owned guards or handles) and its storage engine
//! (the shared pool's slots and partitions, or the configurable pool's buckets).
//!
//! An engine stores opaque buffers `B` (a `Box<[T]>` for the ownership API, a shared handle for
//! the handle API) and only decides *where* they go: it never allocates, clears or drops one while
//! holding a lock — dropping a buffer of owning values runs user code, which may use the pool.

use super::layout::Place;
use super::{MemoryPressure, PoolStats};

/// What a rent of `len` elements should hand out.
pub(crate) enum Plan<B> {
    /// `len == 0`: the empty buffer, never pooled.
    Empty,
    /// Larger than anything pooled: allocate exactly `len`, never keep it.
    Exact(usize),
    /// A kept buffer.
    Hit(B),
    /// Nothing kept: allocate a buffer of `length` for bucket `bucket`.
    Alloc { bucket: usize, length: usize },
}

/// What happened to a returned buffer.
pub(crate) enum Put<B> {
    /// Kept for a later renter.
    Kept,
    /// Accepted but the pool is full: the caller drops it.
    Dropped(B),
    /// Length 0 or larger than anything pooled: silently not kept.
    Ignored(B),
    /// Not a bucket length: the caller reports [`PoolError::NotAssociated`](super::PoolError).
    NotAssociated(B),
}

pub(crate) trait Engine<B>: Send + Sync {
    /// Where a rent of `len` elements comes from.
    fn plan(&self, len: usize) -> Plan<B>;
    /// Records an allocation for `bucket` (`None`: an exact, unpooled one).
    fn note_alloc(&self, bucket: Option<usize>);
    /// Whether a return of this length clears (if asked) — .NET clears *before* it checks that
    /// the length is a bucket length.
    fn clears(&self, len: usize) -> bool;
    /// Takes back a buffer of `len` elements.
    fn put(&self, len: usize, buf: B) -> Put<B>;
    /// Applies one trim; returns the dropped buffers for the caller to drop outside any lock.
    fn trim(&self, pressure: MemoryPressure, now_ms: u64) -> Vec<B>;
    /// Drops every kept buffer the calling thread can reach.
    fn trim_all(&self) -> Vec<B>;
    /// Counts per bucket; `element_size` converts buffers to bytes.
    fn stats(&self, element_size: usize) -> PoolStats;
    /// Visits every buffer kept for `bucket` that the calling thread can see, with its place
    /// (for drawing the pool). Engines without slots and partitions visit nothing.
    fn layout(&self, _bucket: usize, _visit: &mut dyn FnMut(Place, &B)) {}
    /// Partitions per bucket (1 for engines without partitions).
    fn partitions(&self) -> usize {
        1
    }
}

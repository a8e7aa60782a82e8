//! The contract between a pool's front end and its storage engine (the shared pool's slots and
//! partitions, or the configurable pool's buckets), for a front end of your own.
//!
//! [`SharedPool`](super::SharedPool) and [`ConfigurablePool`](super::ConfigurablePool) are front
//! ends over these engines that keep `Box<[T]>`s. Another front end can keep its own buffer type
//! under the same rules: anything [`Pooled`] (a `Box<[T]>`, or an [`Arc`](std::sync::Arc) of
//! anything shareable, for buffers that are references), through [`SharedEngine`] or
//! [`ConfigurableEngine`]. The course's handle API (.NET's array references, hazards included)
//! is such a front end.
//!
//! An engine stores opaque buffers `B` and only decides *where* they go: it never allocates,
//! clears or drops one while holding a lock — dropping a buffer of owning values runs user code,
//! which may use the pool. The front end allocates ([`alloc`]), clears ([`clear`]) and drops.

pub use super::configurable::ConfigurableEngine;
pub use super::element::{alloc, clear};
pub use super::layout::Place;
pub use super::shared::{Pooled, SharedEngine, next_pool_id};
pub use super::trim::millis;
use super::{MemoryPressure, PoolStats};

/// What a rent of `len` elements should hand out.
pub enum Plan<B> {
    /// `len == 0`: the empty buffer, never pooled.
    Empty,
    /// Larger than anything pooled: allocate exactly `len`, never keep it.
    Exact(usize),
    /// A kept buffer.
    Hit(B),
    /// Nothing kept: allocate a buffer of `length` for bucket `bucket`.
    Alloc {
        /// The bucket the new buffer belongs to.
        bucket: usize,
        /// Its length, the bucket's.
        length: usize,
    },
}

/// What happened to a returned buffer.
pub enum Put<B> {
    /// Kept for a later renter.
    Kept,
    /// Accepted but the pool is full: the caller drops it.
    Dropped(B),
    /// Length 0 or larger than anything pooled: silently not kept.
    Ignored(B),
    /// Not a bucket length: the caller reports [`PoolError::NotAssociated`](super::PoolError).
    NotAssociated(B),
}

/// A storage engine for buffers `B`: where a rent comes from and where a return goes.
pub trait Engine<B>: Send + Sync {
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

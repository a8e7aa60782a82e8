//! The seam between the chunker and a buffer pool.
//!
//! The pooled strategy ([`Strategy::Pooled`](super::Strategy::Pooled)) needs only "give me a
//! buffer of at least `n` elements" and "take it back". [`RentBuffer`] says exactly that, so the
//! chunker's strategies do not depend on the pool module. Two implementations live here:
//! [`FreeList`], the smallest honest one (for tests and for the `blocks` report), and the crate's
//! real pool, [`SharedPool`] (.NET's `ArrayPool<T>.Shared`), which rounds every rent up to a
//! power-of-two bucket and keeps what is given back for the next chunk.
//!
//! ```
//! use course_pool::chunk::{run, Mode, Plan, Source, Strategy};
//! use bufpool::pool::SharedPool;
//!
//! let data: Vec<i32> = (0..50_000).collect();
//! let mut pool = SharedPool::<i32>::new();
//! let plan = Plan { strategy: Strategy::Pooled, size: 20_000, mode: Mode::Drop, max_chunks: None };
//! let s = run(plan, Source::Vec(&data), Some(&mut pool), &mut |_| ()).unwrap();
//! assert_eq!(s.chunks, 3);
//! // One 32,768-element buffer (20,000 rounded up) served both full chunks; the last chunk of
//! // 10,000 asked for less and was served from the 16,384-element bucket.
//! let stats = pool.stats();
//! assert_eq!(stats.allocated(), 2);
//! assert_eq!((stats.bucket(11).unwrap().length, stats.bucket(11).unwrap().allocated), (32_768, 1));
//! assert_eq!((stats.bucket(10).unwrap().length, stats.bucket(10).unwrap().allocated), (16_384, 1));
//! ```

use std::fmt;

use serde::Serialize;

use super::Element;
use bufpool::pool::{self, SharedPool};

/// A source of reusable buffers.
///
/// # Contract
///
/// - `rent(n)` returns a buffer of **at least** `n` elements (a pool may round up, as .NET's
///   buckets do). Its contents are unspecified: it may hold the previous renter's data.
/// - `give_back(buf)` takes a buffer that this value handed out; the chunker never returns anything
///   else and never touches a buffer after giving it back.
pub trait RentBuffer<T> {
    /// A buffer of at least `min_len` elements.
    ///
    /// # Errors
    ///
    /// [`RentError`] when the pool refuses (for example an absurd size).
    fn rent(&mut self, min_len: usize) -> Result<Box<[T]>, RentError>;

    /// Takes back a buffer obtained from [`rent`](RentBuffer::rent).
    fn give_back(&mut self, buf: Box<[T]>);
}

/// A pool refused a rent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RentError {
    /// Elements asked for.
    pub requested: usize,
    /// Why the pool refused.
    pub reason: String,
}

impl fmt::Display for RentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "could not rent {} elements: {}",
            self.requested, self.reason
        )
    }
}

impl std::error::Error for RentError {}

/// A minimal pool: a stack of returned buffers; `rent` takes the most recently returned buffer that
/// is long enough, or allocates one of exactly `min_len` elements.
///
/// Allocation-wise: one allocation per rent that misses, none per hit; give-backs cost nothing as
/// long as no more than `with_capacity`'s buffers are kept (the stack itself grows otherwise).
///
/// ```
/// use course_pool::chunk::{FreeList, RentBuffer};
///
/// let mut pool = FreeList::<u8>::with_capacity(1);
/// let mut a = pool.rent(3).unwrap();
/// a.copy_from_slice(b"abc");
/// pool.give_back(a);
/// let b = pool.rent(2).unwrap();
/// assert_eq!(&*b, b"abc"); // the previous renter's bytes, and a longer buffer than asked for
/// ```
#[derive(Debug, Default)]
pub struct FreeList<T> {
    free: Vec<Box<[T]>>,
}

impl<T> FreeList<T> {
    /// An empty pool with room to keep `buffers` returned buffers without growing.
    pub fn with_capacity(buffers: usize) -> Self {
        FreeList {
            free: Vec::with_capacity(buffers),
        }
    }

    /// Buffers currently kept.
    pub fn kept(&self) -> usize {
        self.free.len()
    }
}

impl<T: Element> RentBuffer<T> for FreeList<T> {
    fn rent(&mut self, min_len: usize) -> Result<Box<[T]>, RentError> {
        if let Some(i) = self.free.iter().rposition(|b| b.len() >= min_len) {
            return Ok(self.free.remove(i));
        }
        let mut v = Vec::new();
        v.try_reserve_exact(min_len).map_err(|e| RentError {
            requested: min_len,
            reason: e.to_string(),
        })?;
        v.resize(min_len, T::default());
        Ok(v.into_boxed_slice())
    }

    fn give_back(&mut self, buf: Box<[T]>) {
        self.free.push(buf);
    }
}

/// The real shared pool as the chunker's buffer source: `rent` is [`SharedPool::rent_boxed`] (the
/// whole bucket-length buffer, possibly holding the previous renter's data), `give_back` is
/// [`SharedPool::return_boxed`] with the pool's own clear-on-return policy.
///
/// A buffer the pool handed out always has a bucket length (or is empty, or oversize and simply
/// dropped), so a give-back is never refused; if it were, the buffer would just be freed.
impl<T: Element + pool::Element> RentBuffer<T> for SharedPool<T> {
    fn rent(&mut self, min_len: usize) -> Result<Box<[T]>, RentError> {
        self.try_rent_boxed(min_len).map_err(|e| RentError {
            requested: min_len,
            reason: e.to_string(),
        })
    }

    fn give_back(&mut self, buf: Box<[T]>) {
        let clear = self.config().clear_on_return;
        // Refusal is impossible for a buffer this pool handed out; a refused one is freed.
        drop(self.return_boxed(buf, clear));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chunk::{Mode, Plan, Source, Strategy, run};
    use bufpool::bucket::{bucket_length, select_bucket_index};
    use bufpool::pool::SharedConfig;

    fn plan(size: usize, mode: Mode) -> Plan {
        Plan {
            strategy: Strategy::Pooled,
            size,
            mode,
            max_chunks: None,
        }
    }

    #[test]
    fn rents_a_bucket_and_reuses_it_for_every_chunk() {
        let data: Vec<i32> = (0..100_000).collect();
        for kind in crate::chunk::SourceKind::ALL {
            let mut pool = SharedPool::<i32>::new();
            let mut seen = Vec::new();
            let s = run(
                plan(20_000, Mode::Drop),
                Source::of(kind, &data),
                Some(&mut pool),
                &mut |c| seen.extend_from_slice(c),
            )
            .unwrap();
            assert_eq!((s.chunks, s.elements), (5, 100_000), "{kind:?}");
            assert_eq!(seen, data, "{kind:?}: the chunks are the data, in order");
            let stats = pool.stats();
            // A source of unknown length grows the first chunk's buffer a bucket at a time
            // (16, 32, …, 16,384, then 20,000's bucket); the later chunks allocate nothing.
            let first_chunk = match kind {
                crate::chunk::SourceKind::Yielded => {
                    crate::chunk::growth_steps(20_000, 20_000).len()
                }
                _ => 1,
            };
            assert_eq!(stats.allocated(), first_chunk as u64, "{kind:?}");
            let bucket = select_bucket_index(20_000);
            assert_eq!(bucket_length(bucket), 32_768);
            assert_eq!(stats.bucket(bucket).unwrap().retained_buffers, 1);
        }
    }

    #[test]
    fn held_chunks_need_one_buffer_each_until_the_pool_is_full() {
        let data: Vec<u8> = vec![7; 10 * 64];
        let cfg = SharedConfig::new()
            .with_partitions(1)
            .with_arrays_per_partition(4)
            .with_clear_on_return(false);
        let mut pool = SharedPool::<u8>::with_config(cfg).unwrap();
        run(
            plan(64, Mode::Hold),
            Source::Slice(&data),
            Some(&mut pool),
            &mut |_| (),
        )
        .unwrap();
        let stats = pool.stats();
        assert_eq!(stats.allocated(), 10);
        // 1 + P × M = 5 of the 10 are kept; the rest were dropped on give-back.
        assert_eq!(stats.retained_buffers(), cfg.capacity_per_bucket());
        // A second run finds those 5 and allocates only the other 5.
        run(
            plan(64, Mode::Hold),
            Source::Slice(&data),
            Some(&mut pool),
            &mut |_| (),
        )
        .unwrap();
        assert_eq!(pool.stats().allocated(), 15);
    }

    #[test]
    fn the_previous_chunk_is_still_in_the_buffer() {
        // A pooled buffer is not cleared unless the pool says so: the chunker only ever reads
        // the `n` elements it filled, so stale data never reaches a chunk.
        let data: Vec<u8> = (1..=20).collect();
        let mut pool = SharedPool::<u8>::new();
        let mut chunks = Vec::new();
        run(
            plan(8, Mode::Drop),
            Source::Yielded(&data),
            Some(&mut pool),
            &mut |c| chunks.push(c.to_vec()),
        )
        .unwrap();
        assert_eq!(chunks[2], [17, 18, 19, 20]);
        let buf = RentBuffer::rent(&mut pool, 16).unwrap();
        assert_eq!(&buf[..8], &[17, 18, 19, 20, 13, 14, 15, 16]);
    }

    #[test]
    fn a_refused_rent_is_an_error_not_a_panic() {
        let mut pool = SharedPool::<u64>::new();
        let e = RentBuffer::rent(&mut pool, usize::MAX / 2).unwrap_err();
        assert_eq!(e.requested, usize::MAX / 2);
        assert!(e.to_string().starts_with("could not rent"), "{e}");
    }
}

//! The Rust alternatives to `Chunk`: Rust's own `Vec` growth, one reused buffer, and the pieces
//! that feed them. (`slice::chunks`, the zero-copy one, needs nothing from us.)

use std::iter::FusedIterator;

use super::{ChunkError, Element, check_size};

/// An iterator that hides its length: its `size_hint` is always `(0, None)` and it is not
/// `TrustedLen`, so `collect` cannot allocate the exact size up front. The analogue of a C#
/// method with `yield return`.
///
/// ```
/// use course_pool::chunk::UnknownLen;
/// let it = UnknownLen(0..100);
/// assert_eq!(it.size_hint(), (0, None));
/// ```
#[derive(Clone, Debug)]
pub struct UnknownLen<I>(pub I);

impl<I: Iterator> Iterator for UnknownLen<I> {
    type Item = I::Item;

    fn next(&mut self) -> Option<I::Item> {
        self.0.next()
    }
}

// === impl CollectChunks ===

/// Each chunk collected into a fresh `Vec` from an iterator of unknown length: Rust's own growth
/// policy, the analogue of what `EnumerableChunkIterator` does by hand.
///
/// Unlike .NET's path, this applies to *every* chunk, grows with `realloc` (which may extend the
/// block in place instead of copying), and never trims: the `Vec`'s capacity may exceed its length.
/// With today's standard library a chunk of `k` elements starts at a capacity of 8 (1-byte
/// elements), 4 (up to 1 KiB) or 1, then doubles: `1` allocation and
/// `ceil(log2(k / start))` reallocations. That is std's implementation, not its promise;
/// the crate's tests pin it so a toolchain change is noticed.
///
/// ```
/// use course_pool::chunk::CollectChunks;
///
/// let chunks: Vec<Vec<i32>> = CollectChunks::new(0..5, 2).unwrap().collect();
/// assert_eq!(chunks, [vec![0, 1], vec![2, 3], vec![4]]);
/// assert_eq!(chunks[0].capacity(), 4); // Rust's first growth step for `i32`
/// ```
#[derive(Clone, Debug)]
pub struct CollectChunks<I> {
    source: I,
    size: usize,
    done: bool,
}

impl<I> CollectChunks<I> {
    /// Chunks the elements of `source` into `Vec`s of at most `size`.
    ///
    /// # Errors
    ///
    /// [`ChunkError::ZeroSize`] for `size == 0`.
    pub fn new(source: I, size: usize) -> Result<Self, ChunkError> {
        check_size(size)?;
        Ok(CollectChunks {
            source,
            size,
            done: false,
        })
    }

    /// Capacities a `Vec` passes through while `collect`ing `items` elements of `elem_size` bytes
    /// from an iterator of unknown length (the first is the allocation, the rest reallocations).
    pub fn growth(items: usize, elem_size: usize) -> Vec<usize> {
        if items == 0 {
            return Vec::new();
        }
        // `RawVec::MIN_NON_ZERO_CAP` in today's std.
        let start = match elem_size {
            1 => 8,
            2..=1024 => 4,
            _ => 1,
        };
        let mut caps = vec![start];
        let mut cap: usize = start;
        while cap < items {
            // Saturating: an absurd `items` ends the loop instead of overflowing.
            cap = cap.saturating_mul(2);
            caps.push(cap);
        }
        caps
    }
}

impl<I> Iterator for CollectChunks<I>
where
    I: Iterator,
{
    type Item = Vec<I::Item>;

    fn next(&mut self) -> Option<Vec<I::Item>> {
        if self.done {
            return None;
        }
        let chunk: Vec<I::Item> = UnknownLen(self.source.by_ref().take(self.size)).collect();
        if chunk.len() < self.size {
            self.done = true;
        }
        (!chunk.is_empty()).then_some(chunk)
    }
}

impl<I: Iterator> FusedIterator for CollectChunks<I> {}

// === Fill: where a buffer's contents come from ===

/// Copies a source's next elements into a buffer: memcpy from a slice, or element by element from
/// an iterator.
pub trait Fill<T> {
    /// Whether at least one more element exists (an iterator is peeked once).
    fn has_more(&mut self) -> bool;
    /// An upper bound on the elements left, if the source knows one.
    fn upper_len(&self) -> Option<usize>;
    /// Copies up to `dst.len()` next elements into `dst`; returns how many.
    fn fill(&mut self, dst: &mut [T]) -> usize;
}

/// [`Fill`] from a slice.
#[derive(Clone, Debug)]
pub struct SliceFill<'a, T>(pub &'a [T]);

impl<T: Copy> Fill<T> for SliceFill<'_, T> {
    fn has_more(&mut self) -> bool {
        !self.0.is_empty()
    }

    fn upper_len(&self) -> Option<usize> {
        Some(self.0.len())
    }

    fn fill(&mut self, dst: &mut [T]) -> usize {
        let n = dst.len().min(self.0.len());
        let (head, tail) = self.0.split_at(n);
        dst[..n].copy_from_slice(head);
        self.0 = tail;
        n
    }
}

/// [`Fill`] from an iterator. Its size hint is not trusted (a wrong hint must not move chunk
/// boundaries), so [`upper_len`](Fill::upper_len) is `None`.
#[derive(Clone, Debug)]
pub struct IterFill<I: Iterator> {
    iter: I,
    peeked: Option<I::Item>,
}

impl<I: Iterator> IterFill<I> {
    /// Feeds buffers from `iter`.
    pub fn new(iter: I) -> Self {
        IterFill { iter, peeked: None }
    }
}

impl<I: Iterator> Fill<I::Item> for IterFill<I> {
    fn has_more(&mut self) -> bool {
        if self.peeked.is_none() {
            self.peeked = self.iter.next();
        }
        self.peeked.is_some()
    }

    fn upper_len(&self) -> Option<usize> {
        None
    }

    fn fill(&mut self, dst: &mut [I::Item]) -> usize {
        let mut n = 0;
        for slot in dst.iter_mut() {
            let Some(item) = self.peeked.take().or_else(|| self.iter.next()) else {
                break;
            };
            *slot = item;
            n += 1;
        }
        n
    }
}

// === impl ReusedBuffer ===

/// One buffer, allocated once and refilled for every chunk. Each chunk is lent (`&[T]`) until the
/// next call: it cannot be kept, which is exactly this strategy's limit.
///
/// The buffer is allocated at the first chunk (an empty source costs nothing) and never holds
/// more than has been read: from a source that reports how many elements are left (a slice),
/// exactly `min(size, left)`; from one that does not (an iterator), [`growth_steps`] as elements
/// arrive, so ten elements in chunks of `usize::MAX` ask for 16, not for the chunk size (.NET's
/// `ChunkTests.DoesNotPrematurelyAllocateHugeArray`). Allocation failure is an error, not an
/// abort.
///
/// ```
/// use course_pool::chunk::{ReusedBuffer, SliceFill};
///
/// let mut chunks = ReusedBuffer::new(SliceFill(&[1, 2, 3, 4, 5]), 2).unwrap();
/// let mut seen = Vec::new();
/// while let Some(chunk) = chunks.next_chunk().unwrap() {
///     seen.push(chunk.to_vec());
/// }
/// assert_eq!(seen, [vec![1, 2], vec![3, 4], vec![5]]);
/// ```
#[derive(Debug)]
pub struct ReusedBuffer<F, T> {
    feed: F,
    size: usize,
    buf: Vec<T>,
}

impl<F: Fill<T>, T: Element> ReusedBuffer<F, T> {
    /// Chunks of at most `size` from `feed`.
    ///
    /// # Errors
    ///
    /// [`ChunkError::ZeroSize`] for `size == 0`.
    pub fn new(feed: F, size: usize) -> Result<Self, ChunkError> {
        check_size(size)?;
        Ok(ReusedBuffer {
            feed,
            size,
            buf: Vec::new(),
        })
    }

    /// The next chunk, lent until the next call.
    ///
    /// # Errors
    ///
    /// [`ChunkError::OutOfMemory`] if the buffer cannot be allocated.
    pub fn next_chunk(&mut self) -> Result<Option<&[T]>, ChunkError> {
        if !self.feed.has_more() {
            return Ok(None);
        }
        let mut n = 0;
        loop {
            if n == self.buf.len() {
                // The buffer is full: the chunk is complete, or the source has more of it.
                if n == self.size || !self.feed.has_more() {
                    break;
                }
                let len = match self.feed.upper_len() {
                    Some(left) => n + left.min(self.size - n),
                    None => next_step(n, self.size),
                };
                grow(&mut self.buf, len)?;
            }
            n += self.feed.fill(&mut self.buf[n..]);
            if n < self.buf.len() {
                break; // the source ended
            }
        }
        Ok(Some(&self.buf[..n]))
    }
}

/// The first length a buffer of unknown final length starts at: the pool's smallest bucket.
pub const FIRST_STEP: usize = 16;

/// The buffer length after `len` when more elements keep coming, in chunks of `size`: the first
/// step, then doubling, never past `size`.
pub(crate) fn next_step(len: usize, size: usize) -> usize {
    len.saturating_mul(2).max(FIRST_STEP).min(size)
}

/// The lengths a chunker's buffer passes through to hold `items` elements of a chunk of `size`
/// read from a source that does not say how many are left: [`FIRST_STEP`] (or `size`, if
/// smaller), doubling, capped at `size`. Never more than twice what was read, or the first step.
///
/// ```
/// use course_pool::chunk::growth_steps;
/// assert_eq!(growth_steps(10, usize::MAX), [16]);
/// assert_eq!(growth_steps(100, 70), [16, 32, 64, 70]);
/// assert_eq!(growth_steps(3, 2), [2]);
/// assert!(growth_steps(0, 8).is_empty());
/// ```
pub fn growth_steps(items: usize, size: usize) -> Vec<usize> {
    let items = items.min(size);
    let mut steps = Vec::new();
    if items == 0 {
        return steps;
    }
    let mut len = next_step(0, size);
    steps.push(len);
    while len < items {
        len = next_step(len, size);
        steps.push(len);
    }
    steps
}

/// Grows `buf` to exactly `len` default elements (a reallocation once it has a block), or an error
/// instead of an abort.
fn grow<T: Element>(buf: &mut Vec<T>, len: usize) -> Result<(), ChunkError> {
    buf.try_reserve_exact(len.saturating_sub(buf.len()))
        .map_err(|_| ChunkError::OutOfMemory {
            bytes: (len as u64).saturating_mul(size_of::<T>() as u64),
        })?;
    buf.resize(len, T::default());
    Ok(())
}

/// A zero-filled `Vec` of exactly `len` elements, or an error instead of an abort.
pub(crate) fn try_buffer<T: Element>(len: usize) -> Result<Vec<T>, ChunkError> {
    let mut v = Vec::new();
    v.try_reserve_exact(len)
        .map_err(|_| ChunkError::OutOfMemory {
            bytes: (len as u64).saturating_mul(size_of::<T>() as u64),
        })?;
    v.resize(len, T::default());
    Ok(v)
}

//! The chunker: .NET's `Enumerable.Chunk` and its Rust alternatives, all yielding the same chunks,
//! each with a different allocation bill.
//!
//! Splitting a sequence into batches of `size` looks free. It is not: .NET's `Chunk` allocates an
//! array per chunk, and for sources that are not arrays it builds the *first* chunk by doubling,
//! so the first chunk of 20,000 `int` costs 14 arrays. This module ports both .NET paths exactly
//! and sets the Rust alternatives beside them, so the course can count, not guess:
//!
//! | [`Strategy`] | what it allocates per chunk |
//! |---|---|
//! | [`DotnetChunk`](Strategy::DotnetChunk) | whatever path .NET picks for the source ([`dotnet::chunk`]) |
//! | [`DotnetArrayPath`](Strategy::DotnetArrayPath) | one array of the chunk's exact length |
//! | [`DotnetEnumerablePath`](Strategy::DotnetEnumerablePath) | first chunk `min(size, 4)`, doubling to `size`; later chunks one array |
//! | [`SliceChunks`](Strategy::SliceChunks) | nothing: `slice::chunks` borrows (.NET's `Span.Slice`) |
//! | [`CollectVec`](Strategy::CollectVec) | a `Vec` grown by Rust's own policy, for every chunk |
//! | [`ReusedBuffer`](Strategy::ReusedBuffer) | one buffer for the whole run, refilled |
//! | [`Pooled`](Strategy::Pooled) | a buffer rented from a pool ([`RentBuffer`]) and given back |
//!
//! # Sources: the path depends on what you really pass
//!
//! .NET decides by the argument's run-time type: only a `T[]` gets the array path; a `List<T>`
//! passed as `IEnumerable<T>` and a `yield return` method get the enumerable path. [`Source`]
//! names the three: [`Slice`](Source::Slice) (the array), [`Vec`](Source::Vec) (the `List<T>`) and
//! [`Yielded`](Source::Yielded) (elements handed out one by one, length unknown). Rust itself makes
//! no such hidden choice: a `Vec` derefs to a slice, so `slice::chunks`, a reused buffer or a pool
//! work on it as on a slice (the `CollectionsMarshal.AsSpan` analogue). Only an iterator of unknown
//! length rules out the zero-copy strategy.
//!
//! # Bytes: Rust versus .NET
//!
//! A .NET array carries a 24-byte header on x64 (method table, sync block, length), so a chunk of
//! 20,000 `int` is 80,024 B and the enumerable path's first chunk is 211,056 B of elements + 14 ×
//! 24 B of headers + 112 B of iterator objects = 211,504 B. Rust's `Box<[i32]>` has no header: the
//! length lives in the (fat) pointer and the iterator lives on the stack, so the same first chunk
//! requests 211,056 B in 14 blocks and a later chunk 80,000 B. What the system allocator adds per
//! block (glibc: 8 B, rounded up to 16) is invisible to a `GlobalAlloc` and not counted; see
//! [`blocks`] for the full report.
//!
//! # Holding chunks
//!
//! [`Mode::Drop`] processes each chunk and lets it go; [`Mode::Hold`] keeps every chunk until the
//! run ends, as batching code that passes chunks on does. Only held chunks pile up, which is what
//! turns a chunk size above an allocator threshold into a cliff (.NET's large-object heap, glibc's
//! mmap threshold). A reused buffer cannot be held: that is a [`ChunkError::CannotHold`].
//!
//! # Examples
//!
//! ```
//! use course_pool::chunk::{run, Mode, Plan, Source, Strategy};
//!
//! let data: Vec<i32> = (0..10).collect();
//! let mut chunks = Vec::new();
//! let plan = Plan { strategy: Strategy::DotnetChunk, size: 4, mode: Mode::Drop, max_chunks: None };
//! let summary = run(plan, Source::Vec(&data), None, &mut |c| chunks.push(c.to_vec())).unwrap();
//! assert_eq!(summary.path, "EnumerableChunkIterator"); // a `List<int>` in .NET
//! assert_eq!(chunks, [vec![0, 1, 2, 3], vec![4, 5, 6, 7], vec![8, 9]]);
//!
//! // Chunk size 0 is an error, never a panic or an endless loop.
//! let zero = Plan { size: 0, ..plan };
//! assert!(run(zero, Source::Slice(&data), None, &mut |_| ()).is_err());
//! ```

mod alternatives;
mod blocks;
pub mod dotnet;
mod rent;

use std::fmt;
use std::iter::Copied;

use serde::{Deserialize, Serialize};

pub use alternatives::{
    CollectChunks, FIRST_STEP, Fill, IterFill, ReusedBuffer, SliceFill, UnknownLen, growth_steps,
};
pub use blocks::{Block, BlocksReport, BlocksRow, ChunkCost, blocks, predict_blocks};
pub use rent::{FreeList, RentBuffer, RentError};

/// What the chunkers chunk: plain data that is copied, defaulted (`new T[n]` is zeroed) and
/// compared. Implemented for every such type (the course uses `i32` and `u8`).
pub trait Element: Copy + Default + PartialEq + fmt::Debug + 'static {}

impl<T: Copy + Default + PartialEq + fmt::Debug + 'static> Element for T {}

/// Why a chunking request was refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ChunkError {
    /// Chunk size 0 (.NET: `ArgumentOutOfRangeException` for `size < 1`).
    ZeroSize,
    /// The strategy cannot read this source (`slice::chunks` needs contiguous data).
    Unsupported {
        /// The strategy asked for.
        strategy: Strategy,
        /// The source it was given.
        source: SourceKind,
    },
    /// The strategy lends each chunk until the next one, so chunks cannot be held.
    CannotHold {
        /// The strategy asked for.
        strategy: Strategy,
    },
    /// [`Strategy::Pooled`] without a pool.
    NoPool,
    /// The pool refused a rent.
    Rent(RentError),
    /// A buffer of this many bytes could not be allocated.
    OutOfMemory {
        /// Bytes requested.
        bytes: u64,
    },
    /// A measured report was asked for but the counting allocator is not installed.
    NotInstalled,
}

impl fmt::Display for ChunkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChunkError::ZeroSize => f.write_str("chunk size must be at least 1"),
            ChunkError::Unsupported { strategy, source } => write!(
                f,
                "{} cannot chunk {}: it needs contiguous data",
                strategy.name(),
                source.name()
            ),
            ChunkError::CannotHold { strategy } => write!(
                f,
                "{} lends each chunk until the next one, so chunks cannot be held",
                strategy.name()
            ),
            ChunkError::NoPool => f.write_str("the pooled strategy needs a pool"),
            ChunkError::Rent(e) => write!(f, "{e}"),
            ChunkError::OutOfMemory { bytes } => write!(f, "could not allocate {bytes} bytes"),
            ChunkError::NotInstalled => {
                f.write_str("allocation counts need the counting allocator as the global allocator")
            }
        }
    }
}

impl std::error::Error for ChunkError {}

impl From<RentError> for ChunkError {
    fn from(e: RentError) -> Self {
        ChunkError::Rent(e)
    }
}

impl From<crate::alloc_count::NotInstalled> for ChunkError {
    fn from(_: crate::alloc_count::NotInstalled) -> Self {
        ChunkError::NotInstalled
    }
}

pub(crate) fn check_size(size: usize) -> Result<(), ChunkError> {
    if size == 0 {
        Err(ChunkError::ZeroSize)
    } else {
        Ok(())
    }
}

// === sources ===

/// The data to chunk, and what kind of thing it is (which decides .NET's path).
#[derive(Clone, Copy, Debug)]
pub enum Source<'a, T> {
    /// A slice: .NET's `T[]`, which gets `ArrayChunkIterator`.
    Slice(&'a [T]),
    /// A `Vec`: .NET's `List<T>` passed as `IEnumerable<T>`, which gets `EnumerableChunkIterator`.
    Vec(&'a Vec<T>),
    /// These elements handed out one at a time by an iterator of unknown length: a C# method with
    /// `yield return`. Only iterator-based strategies can read it.
    Yielded(&'a [T]),
}

/// The kind of a [`Source`], for reports and errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SourceKind {
    /// [`Source::Slice`].
    Slice,
    /// [`Source::Vec`].
    Vec,
    /// [`Source::Yielded`].
    Yielded,
}

impl SourceKind {
    /// All kinds, in report order.
    pub const ALL: [SourceKind; 3] = [SourceKind::Slice, SourceKind::Vec, SourceKind::Yielded];

    /// A short description naming the .NET counterpart.
    pub fn name(self) -> &'static str {
        match self {
            SourceKind::Slice => "a slice (.NET array)",
            SourceKind::Vec => "a Vec (.NET List<T>)",
            SourceKind::Yielded => "an iterator of unknown length (.NET yield return)",
        }
    }
}

/// The elements of a [`Source`] as an iterator of unknown length.
pub type SourceElements<'a, T> = UnknownLen<Copied<std::slice::Iter<'a, T>>>;

impl<'a, T: Element> Source<'a, T> {
    /// Wraps `data` as a source of the given kind.
    #[allow(clippy::ptr_arg)] // `Source::Vec` stands for a `List<T>`: it needs the `Vec` itself
    pub fn of(kind: SourceKind, data: &'a Vec<T>) -> Self {
        match kind {
            SourceKind::Slice => Source::Slice(data),
            SourceKind::Vec => Source::Vec(data),
            SourceKind::Yielded => Source::Yielded(data),
        }
    }

    /// Which kind of source this is.
    pub fn kind(&self) -> SourceKind {
        match self {
            Source::Slice(_) => SourceKind::Slice,
            Source::Vec(_) => SourceKind::Vec,
            Source::Yielded(_) => SourceKind::Yielded,
        }
    }

    /// Number of elements (known to us even for [`Source::Yielded`], whose iterator hides it).
    pub fn len(&self) -> usize {
        self.data().len()
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The elements as contiguous memory, unless the source is an iterator.
    pub fn contiguous(&self) -> Option<&'a [T]> {
        match *self {
            Source::Slice(s) => Some(s),
            Source::Vec(v) => Some(v.as_slice()),
            Source::Yielded(_) => None,
        }
    }

    /// The elements one by one, with no length information.
    pub fn elements(&self) -> SourceElements<'a, T> {
        UnknownLen(self.data().iter().copied())
    }

    fn data(&self) -> &'a [T] {
        match *self {
            Source::Slice(s) | Source::Yielded(s) => s,
            Source::Vec(v) => v.as_slice(),
        }
    }
}

// === strategies ===

/// A way to chunk. Every strategy yields the same chunks from the same source and size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Strategy {
    /// .NET's `Enumerable.Chunk`: the array path for a slice, the enumerable path otherwise.
    DotnetChunk,
    /// .NET's `ArrayChunkIterator`, on any contiguous source.
    DotnetArrayPath,
    /// .NET's `EnumerableChunkIterator`, on any source.
    DotnetEnumerablePath,
    /// `slice::chunks`: borrowed sub-slices, no copy, no allocation.
    SliceChunks,
    /// Each chunk `collect`ed into a `Vec` from an iterator of unknown length ([`CollectChunks`]).
    CollectVec,
    /// One buffer refilled for each chunk ([`ReusedBuffer`]).
    ReusedBuffer,
    /// A buffer rented from a [`RentBuffer`] for each chunk and given back after it.
    Pooled,
}

impl Strategy {
    /// All strategies, in report order.
    pub const ALL: [Strategy; 7] = [
        Strategy::DotnetChunk,
        Strategy::DotnetArrayPath,
        Strategy::DotnetEnumerablePath,
        Strategy::SliceChunks,
        Strategy::CollectVec,
        Strategy::ReusedBuffer,
        Strategy::Pooled,
    ];

    /// A short, stable name.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::DotnetChunk => "Enumerable.Chunk",
            Strategy::DotnetArrayPath => "ArrayChunkIterator",
            Strategy::DotnetEnumerablePath => "EnumerableChunkIterator",
            Strategy::SliceChunks => "slice::chunks",
            Strategy::CollectVec => "collect::<Vec<_>>",
            Strategy::ReusedBuffer => "reused buffer",
            Strategy::Pooled => "pooled buffer",
        }
    }

    /// Whether this strategy can chunk `source` in `mode`.
    ///
    /// # Errors
    ///
    /// [`ChunkError::Unsupported`] or [`ChunkError::CannotHold`].
    pub fn check(self, source: SourceKind, mode: Mode) -> Result<(), ChunkError> {
        let contiguous_only = matches!(self, Strategy::DotnetArrayPath | Strategy::SliceChunks);
        if contiguous_only && source == SourceKind::Yielded {
            return Err(ChunkError::Unsupported {
                strategy: self,
                source,
            });
        }
        if self == Strategy::ReusedBuffer && mode == Mode::Hold {
            return Err(ChunkError::CannotHold { strategy: self });
        }
        Ok(())
    }
}

/// What happens to each chunk after it is visited.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Each chunk is dropped (or given back) as soon as it has been visited.
    Drop,
    /// Every chunk is kept until the run ends. The chunks' handles are kept in one `Vec`
    /// allocated up front (one more allocation, `ceil(len / size)` handles).
    Hold,
}

/// One chunking run: how, how big, what happens to chunks, and optionally how many to take.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plan {
    /// How to chunk.
    pub strategy: Strategy,
    /// Elements per chunk (the last chunk may be shorter); must be at least 1.
    pub size: usize,
    /// Drop or hold chunks.
    pub mode: Mode,
    /// Stop after this many chunks (`None`: all). `blocks` uses 1 and 2.
    pub max_chunks: Option<usize>,
}

/// What a run did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RunSummary {
    /// The implementation that ran (for `DotnetChunk`, the path .NET picked).
    pub path: &'static str,
    /// Chunks visited.
    pub chunks: usize,
    /// Elements visited.
    pub elements: usize,
}

/// Chunks `source` as `plan` says, calling `visit` with each chunk in order.
///
/// `pool` is used only by [`Strategy::Pooled`]. Wrap the call in
/// [`alloc_count::measure`](crate::alloc_count::measure) to see what it allocates.
///
/// # Errors
///
/// [`ChunkError::ZeroSize`], [`ChunkError::Unsupported`], [`ChunkError::CannotHold`],
/// [`ChunkError::NoPool`], and allocation or rent failures; none of them panics.
///
/// # Examples
///
/// ```
/// use course_pool::chunk::{run, FreeList, Mode, Plan, Source, Strategy};
///
/// let data = [1u8, 2, 3, 4, 5];
/// let mut pool = FreeList::with_capacity(4);
/// let plan = Plan { strategy: Strategy::Pooled, size: 2, mode: Mode::Hold, max_chunks: None };
/// let mut lens = Vec::new();
/// let s = run(plan, Source::Yielded(&data), Some(&mut pool), &mut |c| lens.push(c.len())).unwrap();
/// assert_eq!((s.chunks, s.elements, lens), (3, 5, vec![2, 2, 1]));
/// assert_eq!(pool.kept(), 3); // all three given back at the end
/// ```
pub fn run<T: Element>(
    plan: Plan,
    source: Source<'_, T>,
    pool: Option<&mut dyn RentBuffer<T>>,
    visit: &mut dyn FnMut(&[T]),
) -> Result<RunSummary, ChunkError> {
    let size = plan.size;
    check_size(size)?;
    plan.strategy.check(source.kind(), plan.mode)?;
    let limit = plan.max_chunks.unwrap_or(usize::MAX);
    let expected = source.len().div_ceil(size).min(limit);
    let mut out = Visitor {
        visit,
        mode: plan.mode,
        limit,
        expected,
        summary: RunSummary {
            path: plan.strategy.name(),
            chunks: 0,
            elements: 0,
        },
    };
    match plan.strategy {
        Strategy::DotnetChunk => {
            let chunks = dotnet::chunk(source, size)?;
            out.summary.path = chunks.path().name();
            out.owned(chunks);
        }
        Strategy::DotnetArrayPath => {
            let data = source.contiguous().unwrap_or_default();
            out.owned(dotnet::ArrayChunkIterator::new(data, size)?);
        }
        Strategy::DotnetEnumerablePath => {
            out.owned(dotnet::EnumerableChunkIterator::new(
                source.elements(),
                size,
            )?);
        }
        Strategy::SliceChunks => out.owned(source.contiguous().unwrap_or_default().chunks(size)),
        Strategy::CollectVec => out.owned(CollectChunks::new(source.elements(), size)?),
        Strategy::ReusedBuffer => match source.contiguous() {
            Some(data) => out.reused(ReusedBuffer::new(SliceFill(data), size)?)?,
            None => out.reused(ReusedBuffer::new(IterFill::new(source.elements()), size)?)?,
        },
        Strategy::Pooled => {
            let pool = pool.ok_or(ChunkError::NoPool)?;
            match source.contiguous() {
                Some(data) => out.pooled(SliceFill(data), size, pool)?,
                None => out.pooled(IterFill::new(source.elements()), size, pool)?,
            }
        }
    }
    Ok(out.summary)
}

/// Visits chunks, counts them, and holds them when asked.
struct Visitor<'v, T> {
    visit: &'v mut dyn FnMut(&[T]),
    mode: Mode,
    limit: usize,
    expected: usize,
    summary: RunSummary,
}

impl<T: Element> Visitor<'_, T> {
    fn seen(&mut self, chunk: &[T]) {
        (self.visit)(chunk);
        self.summary.chunks += 1;
        self.summary.elements += chunk.len();
    }

    fn owned<C: AsRef<[T]>>(&mut self, chunks: impl Iterator<Item = C>) {
        let chunks = chunks.take(self.limit);
        match self.mode {
            Mode::Drop => chunks.for_each(|c| self.seen(c.as_ref())),
            Mode::Hold => {
                let mut held = Vec::with_capacity(self.expected);
                for c in chunks {
                    self.seen(c.as_ref());
                    held.push(c);
                }
                drop(held);
            }
        }
    }

    fn reused<F: Fill<T>>(&mut self, mut chunks: ReusedBuffer<F, T>) -> Result<(), ChunkError> {
        while self.summary.chunks < self.limit {
            match chunks.next_chunk()? {
                Some(c) => self.seen(c),
                None => break,
            }
        }
        Ok(())
    }

    fn pooled<F: Fill<T>>(
        &mut self,
        mut feed: F,
        size: usize,
        pool: &mut dyn RentBuffer<T>,
    ) -> Result<(), ChunkError> {
        let mut held: Vec<Box<[T]>> = match self.mode {
            Mode::Hold => Vec::with_capacity(self.expected),
            Mode::Drop => Vec::new(),
        };
        let mut result = Ok(());
        // Elements of the previous chunk: once a chunk of unknown length has been read, the next
        // one starts at that length instead of growing again (every chunk but the last is full).
        let mut previous = 0;
        while self.summary.chunks < self.limit && feed.has_more() {
            match fill_pooled(&mut feed, size, previous, pool) {
                Ok((buf, n)) => {
                    self.seen(&buf[..n]);
                    previous = n;
                    match self.mode {
                        Mode::Hold => held.push(buf),
                        Mode::Drop => pool.give_back(buf),
                    }
                }
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        for buf in held {
            pool.give_back(buf);
        }
        result
    }
}

/// Rents a buffer of at least `want` elements, or explains why the pool's answer is unusable.
fn rent_at_least<T>(pool: &mut dyn RentBuffer<T>, want: usize) -> Result<Box<[T]>, ChunkError> {
    let buf = pool.rent(want)?;
    if buf.len() >= want {
        return Ok(buf);
    }
    let got = buf.len();
    pool.give_back(buf);
    Err(ChunkError::Rent(RentError {
        requested: want,
        reason: format!("the pool returned only {got} elements"),
    }))
}

/// Reads one chunk of at most `size` into buffers rented from `pool`; returns the buffer and how
/// many elements it holds. From a source that says how many elements are left (a slice), one
/// rent of exactly what the chunk needs; from one that does not, a rent of the previous chunk's
/// length (or the first growth step), then, while elements keep coming, a rent of the next step
/// into which the elements read so far are copied, the smaller buffer going back to the pool. So
/// no rent asks for more than has been read, doubled, or the first step — except the first rent
/// of a chunk after a full one, which asks for the full chunk's length before knowing whether the
/// source has that many left, as .NET's `Chunk` allocates `size` for every chunk after the first
/// (its `arraySize` carries over).
fn fill_pooled<T: Element, F: Fill<T>>(
    feed: &mut F,
    size: usize,
    previous: usize,
    pool: &mut dyn RentBuffer<T>,
) -> Result<(Box<[T]>, usize), ChunkError> {
    let known = feed.upper_len();
    let mut want = match known {
        Some(left) => left.min(size),
        None => previous.max(alternatives::next_step(0, size)).min(size),
    };
    let mut buf = rent_at_least(pool, want)?;
    let mut n = feed.fill(&mut buf[..want]);
    while n == want && want < size && known.is_none() && feed.has_more() {
        want = alternatives::next_step(want, size);
        if buf.len() < want {
            let mut bigger = match rent_at_least(pool, want) {
                Ok(b) => b,
                Err(e) => {
                    pool.give_back(buf);
                    return Err(e);
                }
            };
            bigger[..n].copy_from_slice(&buf[..n]);
            pool.give_back(std::mem::replace(&mut buf, bigger));
        }
        n += feed.fill(&mut buf[n..want]);
    }
    Ok((buf, n))
}

//! The `blocks` report: what the first chunk and a later chunk cost, per strategy and source.
//!
//! Measured the way the article's `blocks` report measures .NET: count what taking *one* chunk
//! allocates, then *two*; the difference is the second (a later) chunk. Beside each measurement
//! stands the prediction from the documented formulas ([`predict_blocks`]) and, for the .NET paths,
//! what .NET itself allocates for the same arrays (24-byte header each, see
//! [`dotnet::dotnet_array_bytes`]).
//!
//! For 20,000 `i32` in chunks of 20,000 from a `Vec` (.NET's `List<int>`):
//!
//! | | Rust | .NET |
//! |---|---|---|
//! | first chunk | 14 blocks, 211,056 B | 14 arrays, 211,504 B (incl. 14 × 24 B headers, 112 B iterator) |
//! | later chunk | 1 block, 80,000 B | 1 array, 80,024 B |
//!
//! ```
//! use std::alloc::System;
//! use course_pool::alloc_count::CountingAlloc;
//! use course_pool::chunk::{blocks, SourceKind, Strategy};
//!
//! #[global_allocator]
//! static A: CountingAlloc<System> = CountingAlloc::new(System);
//!
//! let report = blocks::<i32>(40_000, 20_000).unwrap();
//! let row = report.row(Strategy::DotnetChunk, SourceKind::Vec).unwrap();
//! assert_eq!((row.first.allocations, row.first.bytes), (14, 211_056));
//! assert_eq!(row.dotnet_first_bytes, Some(211_504));
//! let later = row.later.unwrap();
//! assert_eq!((later.allocations, later.bytes), (1, 80_000));
//! assert_eq!(row.dotnet_later_bytes, Some(80_024));
//! assert_eq!(row.first, row.predicted_first); // measured = formula
//! ```

use std::fmt;

use serde::Serialize;

use super::dotnet::{self, DOTNET_ENUMERABLE_ITERATOR_BYTES, EnumerableChunkIterator};
use super::{
    ChunkError, CollectChunks, Element, FreeList, Mode, Plan, Source, SourceKind, Strategy, run,
};
use crate::alloc_count::{self, AllocStats};

/// One block a strategy asks the allocator for, in elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "len", rename_all = "snake_case")]
pub enum Block {
    /// A fresh allocation of this many elements.
    Alloc(usize),
    /// A `realloc` to this many elements (may grow in place).
    Realloc(usize),
}

impl Block {
    /// Elements requested.
    pub fn len(self) -> usize {
        match self {
            Block::Alloc(n) | Block::Realloc(n) => n,
        }
    }

    /// Whether the block has no elements.
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }
}

/// What producing one chunk asked of the allocator.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ChunkCost {
    /// Fresh blocks (for the .NET paths: arrays).
    pub allocations: u64,
    /// Blocks resized with `realloc`.
    pub reallocations: u64,
    /// Bytes requested (`alloc` sizes plus `realloc` new sizes); no headers: Rust has none.
    pub bytes: u64,
}

impl ChunkCost {
    fn from_blocks(blocks: &[Block], elem_size: usize) -> Self {
        let mut c = ChunkCost::default();
        for b in blocks {
            match b {
                Block::Alloc(_) => c.allocations += 1,
                Block::Realloc(_) => c.reallocations += 1,
            }
            c.bytes = c
                .bytes
                .saturating_add((b.len() as u64).saturating_mul(elem_size as u64));
        }
        c
    }

    fn from_stats(s: &AllocStats) -> Self {
        ChunkCost {
            allocations: s.allocations,
            reallocations: s.reallocations,
            bytes: s.bytes_requested,
        }
    }

    fn minus(self, earlier: ChunkCost) -> Self {
        ChunkCost {
            allocations: self.allocations - earlier.allocations,
            reallocations: self.reallocations - earlier.reallocations,
            bytes: self.bytes - earlier.bytes,
        }
    }
}

/// One strategy on one kind of source.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BlocksRow {
    /// The strategy.
    pub strategy: Strategy,
    /// The source kind.
    pub source: SourceKind,
    /// The implementation that ran (for `DotnetChunk`: the path .NET picks for this source).
    pub path: &'static str,
    /// Measured cost of the first chunk.
    pub first: ChunkCost,
    /// Measured cost of the second chunk (`None` if there is only one chunk).
    pub later: Option<ChunkCost>,
    /// The first chunk's cost by formula.
    pub predicted_first: ChunkCost,
    /// The second chunk's cost by formula.
    pub predicted_later: Option<ChunkCost>,
    /// The largest single block of the first chunk, in bytes (what meets an allocator threshold).
    pub largest_block_bytes: u64,
    /// For the .NET paths: bytes .NET allocates for the first chunk (arrays with headers, plus
    /// the iterator objects on the enumerable path).
    pub dotnet_first_bytes: Option<u64>,
    /// For the .NET paths: bytes .NET allocates for the second chunk.
    pub dotnet_later_bytes: Option<u64>,
    /// For the .NET paths: whether the first chunk's array lands in .NET's large-object heap.
    pub dotnet_first_chunk_in_loh: Option<bool>,
}

/// The `blocks` report for one element type, source length and chunk size.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BlocksReport {
    /// Element type name.
    pub element: &'static str,
    /// Bytes per element.
    pub element_size: usize,
    /// Elements in the source.
    pub len: usize,
    /// Chunk size.
    pub size: usize,
    /// Every applicable strategy × source kind, in [`Strategy::ALL`] × [`SourceKind::ALL`] order.
    pub rows: Vec<BlocksRow>,
}

impl BlocksReport {
    /// The row for `strategy` on `source`, if that combination applies.
    pub fn row(&self, strategy: Strategy, source: SourceKind) -> Option<&BlocksRow> {
        self.rows
            .iter()
            .find(|r| r.strategy == strategy && r.source == source)
    }
}

impl fmt::Display for BlocksReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} × {} in chunks of {} ({} B per element)",
            self.len, self.element, self.size, self.element_size
        )?;
        writeln!(
            f,
            "{:<24} {:<8} {:<24} {:>7} {:>7} {:>12} {:>7} {:>7} {:>12} {:>12} {:>12}",
            "strategy",
            "source",
            "path",
            "1st al",
            "1st re",
            "1st B",
            "2nd al",
            "2nd re",
            "2nd B",
            ".NET 1st B",
            ".NET 2nd B"
        )?;
        let opt = |v: Option<u64>| v.map_or_else(|| "-".to_owned(), |v| v.to_string());
        for r in &self.rows {
            let source = match r.source {
                SourceKind::Slice => "slice",
                SourceKind::Vec => "vec",
                SourceKind::Yielded => "yielded",
            };
            writeln!(
                f,
                "{:<24} {:<8} {:<24} {:>7} {:>7} {:>12} {:>7} {:>7} {:>12} {:>12} {:>12}",
                r.strategy.name(),
                source,
                r.path,
                r.first.allocations,
                r.first.reallocations,
                r.first.bytes,
                opt(r.later.map(|c| c.allocations)),
                opt(r.later.map(|c| c.reallocations)),
                opt(r.later.map(|c| c.bytes)),
                opt(r.dotnet_first_bytes),
                opt(r.dotnet_later_bytes),
            )?;
        }
        Ok(())
    }
}

/// The blocks that producing chunk number `index` (0-based) allocates, by formula, when chunks are
/// dropped as they go and [`Strategy::Pooled`] uses a fresh [`FreeList`]. Empty if there is no
/// such chunk or it costs nothing.
///
/// # Errors
///
/// [`ChunkError::ZeroSize`] and [`ChunkError::Unsupported`], as [`run`] would.
///
/// ```
/// use course_pool::chunk::{predict_blocks, Block, SourceKind, Strategy};
///
/// let b = predict_blocks(Strategy::DotnetEnumerablePath, SourceKind::Vec, 10, 100, 4, 0).unwrap();
/// assert_eq!(b, [Block::Alloc(4), Block::Alloc(8), Block::Alloc(16), Block::Alloc(10)]);
/// ```
pub fn predict_blocks(
    strategy: Strategy,
    source: SourceKind,
    len: usize,
    size: usize,
    elem_size: usize,
    index: usize,
) -> Result<Vec<Block>, ChunkError> {
    super::check_size(size)?;
    strategy.check(source, Mode::Drop)?;
    let start = index.saturating_mul(size);
    if start >= len {
        return Ok(Vec::new());
    }
    let items = size.min(len - start);
    let allocs = |lens: Vec<usize>| lens.into_iter().map(Block::Alloc).collect();
    // The one buffer of the reused and pooled strategies, made at the first chunk: to the chunk
    // size, or less if the source is a slice that is shorter; from a source of unknown length,
    // grown in steps as elements arrive (reallocated in place for the reused buffer, rented anew
    // for the pooled one).
    let buffer = match source {
        SourceKind::Slice | SourceKind::Vec => vec![size.min(len)],
        SourceKind::Yielded => super::growth_steps(items, size),
    };
    Ok(match strategy {
        Strategy::DotnetChunk if source == SourceKind::Slice => vec![Block::Alloc(items)],
        Strategy::DotnetArrayPath => vec![Block::Alloc(items)],
        Strategy::DotnetChunk | Strategy::DotnetEnumerablePath => {
            type E = EnumerableChunkIterator<std::iter::Empty<u8>>;
            if index == 0 {
                allocs(E::first_chunk_arrays(items, size))
            } else {
                allocs(E::later_chunk_arrays(items, size))
            }
        }
        Strategy::SliceChunks => Vec::new(),
        Strategy::CollectVec => {
            type C = CollectChunks<std::iter::Empty<u8>>;
            let caps = C::growth(items, elem_size);
            caps.iter()
                .enumerate()
                .map(|(i, &c)| {
                    if i == 0 {
                        Block::Alloc(c)
                    } else {
                        Block::Realloc(c)
                    }
                })
                .collect()
        }
        Strategy::ReusedBuffer if index == 0 => buffer
            .iter()
            .enumerate()
            .map(|(i, &b)| {
                if i == 0 {
                    Block::Alloc(b)
                } else {
                    Block::Realloc(b)
                }
            })
            .collect(),
        Strategy::Pooled if index == 0 => allocs(buffer),
        Strategy::ReusedBuffer | Strategy::Pooled => Vec::new(),
    })
}

/// The path name [`run`] reports for `strategy` on `source`.
fn path_of(strategy: Strategy, source: SourceKind, len: usize) -> &'static str {
    match (strategy, source) {
        (Strategy::DotnetChunk, SourceKind::Slice) if len == 0 => dotnet::Path::EmptyArray.name(),
        (Strategy::DotnetChunk, SourceKind::Slice) => dotnet::Path::Array.name(),
        (Strategy::DotnetChunk, _) => dotnet::Path::Enumerable.name(),
        _ => strategy.name(),
    }
}

/// Bytes .NET allocates for these arrays (each with its 24-byte header).
fn dotnet_bytes(blocks: &[Block], elem_size: usize) -> u64 {
    blocks
        .iter()
        .map(|b| dotnet::dotnet_array_bytes(b.len(), elem_size))
        .sum()
}

/// Measures the `blocks` report for a source of `len` elements of `T` in chunks of `size`, over
/// every strategy and source kind that apply.
///
/// # Errors
///
/// [`ChunkError::NotInstalled`] unless the counting allocator is the global allocator;
/// [`ChunkError::ZeroSize`]; allocation failures.
pub fn blocks<T: Element>(len: usize, size: usize) -> Result<BlocksReport, ChunkError> {
    super::check_size(size)?;
    if !alloc_count::installed() {
        return Err(ChunkError::NotInstalled);
    }
    let data: Vec<T> = super::alternatives::try_buffer(len)?;
    let elem = size_of::<T>();
    let mut rows = Vec::new();
    for strategy in Strategy::ALL {
        for kind in SourceKind::ALL {
            if strategy.check(kind, Mode::Drop).is_err() {
                continue;
            }
            let source = Source::of(kind, &data);
            let take = |n: usize| -> Result<ChunkCost, ChunkError> {
                let plan = Plan {
                    strategy,
                    size,
                    mode: Mode::Drop,
                    max_chunks: Some(n),
                };
                // Room for a buffer per growth step (at most one per bit of a length), so the
                // free list's own stack never grows inside the measurement.
                let mut pool = FreeList::with_capacity(usize::BITS as usize);
                let (result, stats) =
                    alloc_count::measure(|| run(plan, source, Some(&mut pool), &mut |_| ()))?;
                result?;
                Ok(ChunkCost::from_stats(&stats))
            };
            let one = take(1)?;
            let has_later = len > size;
            let later = if has_later {
                Some(take(2)?.minus(one))
            } else {
                None
            };
            let first_blocks = predict_blocks(strategy, kind, len, size, elem, 0)?;
            let later_blocks = predict_blocks(strategy, kind, len, size, elem, 1)?;
            let is_dotnet = matches!(
                strategy,
                Strategy::DotnetChunk | Strategy::DotnetArrayPath | Strategy::DotnetEnumerablePath
            );
            let enumerable = path_of(strategy, kind, len) == dotnet::Path::Enumerable.name();
            let iterator_bytes = if enumerable && len > 0 {
                DOTNET_ENUMERABLE_ITERATOR_BYTES
            } else {
                0
            };
            let chunk_array = first_blocks.last().map_or(0, |b| b.len());
            rows.push(BlocksRow {
                strategy,
                source: kind,
                path: path_of(strategy, kind, len),
                first: one,
                later,
                predicted_first: ChunkCost::from_blocks(&first_blocks, elem),
                predicted_later: has_later.then(|| ChunkCost::from_blocks(&later_blocks, elem)),
                largest_block_bytes: first_blocks
                    .iter()
                    .map(|b| (b.len() as u64).saturating_mul(elem as u64))
                    .max()
                    .unwrap_or(0),
                dotnet_first_bytes: is_dotnet
                    .then(|| dotnet_bytes(&first_blocks, elem) + iterator_bytes),
                dotnet_later_bytes: (is_dotnet && has_later)
                    .then(|| dotnet_bytes(&later_blocks, elem)),
                dotnet_first_chunk_in_loh: is_dotnet
                    .then(|| dotnet::in_loh(chunk_array as u64, elem as u64)),
            });
        }
    }
    Ok(BlocksReport {
        element: std::any::type_name::<T>(),
        element_size: elem,
        len,
        size,
        rows,
    })
}

//! Chunking (chapter 7), the scenario: what each chunk costs, by strategy and source kind,
//! computed by the chunker ([`course_pool::chunk`]) and, for the pooled strategy, by the real shared
//! pool.
//!
//! [`table`] is what the `chunking` widget (`web/chunking.rs`) shows: the chunker's `blocks`
//! report for one source kind, with the pooled row measured through [`SharedPool`] (the chunker's
//! `RentBuffer` seam, wired to the real pool) instead of the report's minimal free list. The
//! chapter's quiz ([`crate::chapter::chunking::quiz`]) grades its answers with the functions below.
//!
//! The pooled strategy runs on a pool *already used on this thread* ([`used_pool`]): a pool's
//! first use on a thread also makes its slot table for that thread (336 bytes in the wasm build),
//! a one-off cost of the pool, not of a chunk. The widget shows it on a line of its own
//! ([`Table::pool_first_use`]), and the quiz's first chunk is the widget's first chunk.
//!
//! ```
//! use wasm_lab::chapter::chunking::scenario::{first_chunk_arrays, later_chunk_dotnet_bytes, pooled_first_bytes};
//! assert_eq!(first_chunk_arrays(20_000), 14);          // 4, 8, …, 16,384, 20,000
//! assert_eq!(later_chunk_dotnet_bytes(20_000), 80_024); // header included
//! assert_eq!(later_chunk_dotnet_bytes(25_000), 100_024);
//! assert_eq!(pooled_first_bytes(20_000).unwrap(), 131_072); // the 32,768-element bucket
//! ```

use serde::Serialize;

use bufpool::bucket;
use bufpool::pool::SharedPool;
use course_pool::alloc_count;
use course_pool::chunk::dotnet::{self, dotnet_array_bytes};
use course_pool::chunk::{
    Block, ChunkCost, ChunkError, Mode, Plan, Source, SourceKind, Strategy, blocks, growth_steps,
    predict_blocks, run,
};
use lab_text::{group_digits, n, t, tf};

/// Most elements the widget chunks (16 MB of `i32`).
pub const MAX_LEN: u64 = 4_000_000;
/// Largest chunk size the widget takes.
pub const MAX_SIZE: u64 = 4_194_304;

/// One row of the widget's table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Row {
    pub strategy: Strategy,
    /// What ran (for `Enumerable.Chunk`: the path .NET picks for this source).
    pub path: &'static str,
    /// Measured cost of the first chunk.
    pub first: ChunkCost,
    /// Measured cost of the second chunk (`None` with a single chunk).
    pub later: Option<ChunkCost>,
    /// What .NET allocates for the first and a later chunk (headers included), .NET paths only.
    pub dotnet_first_bytes: Option<u64>,
    pub dotnet_later_bytes: Option<u64>,
    /// Whether .NET's chunk array lands in the LOH (on the unaligned size, see [`crate::chapter::cliff::scenario`]).
    pub dotnet_chunk_in_loh: Option<bool>,
}

/// The widget's table for one source kind, plus the chosen strategy's first-chunk blocks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Table {
    pub len: u64,
    pub size: u64,
    pub source: SourceKind,
    pub rows: Vec<Row>,
    /// The chosen strategy's first-chunk blocks by formula (for the pooled strategy: the pool's
    /// bucket-length buffer).
    pub first_blocks: Vec<Block>,
    /// What the pooled strategy's pool cost on its first use on this thread (its slot table),
    /// before the first chunk: measured, `None` when no pooled row ran.
    pub pool_first_use: Option<ChunkCost>,
}

/// Why a widget setting cannot run.
pub fn check(len: u64, size: u64) -> Result<(), String> {
    if size == 0 {
        // `ChunkError::ZeroSize`'s words, with .NET's side: one sentence to translate.
        return Err(t!(
            "chunk size must be at least 1 (.NET throws ArgumentOutOfRangeException for size < 1)"
        )
        .into_owned());
    }
    if len > MAX_LEN {
        return Err(tf!(
            "{} elements is more than this page chunks (at most {})",
            group_digits(len),
            group_digits(MAX_LEN)
        ));
    }
    if size > MAX_SIZE {
        return Err(tf!(
            "a chunk of {} elements is more than this page allocates (at most {})",
            group_digits(size),
            group_digits(MAX_SIZE)
        ));
    }
    Ok(())
}

/// A [`SharedPool`] of `i32` already used on this thread, holding no buffer: the pool the pooled
/// strategy chunks with, in the widget and in the quiz.
///
/// A pool makes its slot table for a thread on its first return there (as .NET's
/// `t_tlsBuckets`); here that return is of a foreign 16-element buffer, which is then trimmed
/// away, so the pool's statistics count no buffer and a chunk finds nothing to reuse. What that
/// first use cost (the slot table) comes back beside the pool, measured by the counting
/// allocator (`None` without it).
pub fn used_pool() -> (SharedPool<i32>, Option<ChunkCost>) {
    let pool = SharedPool::<i32>::new();
    let foreign: Box<[i32]> = vec![0; bucket::bucket_length(0)].into_boxed_slice();
    let first_use = || {
        // A bucket's length is always accepted (the check is on the length alone).
        let _ = pool.return_boxed(foreign, false);
    };
    let cost = if alloc_count::installed() {
        alloc_count::measure(first_use)
            .ok()
            .map(|((), stats)| ChunkCost {
                allocations: stats.allocations,
                reallocations: stats.reallocations,
                bytes: stats.bytes_requested,
            })
    } else {
        first_use();
        None
    };
    pool.trim_all();
    (pool, cost)
}

/// The pooled strategy run through a [`SharedPool`] already used on this thread ([`used_pool`]),
/// measured by the counting allocator: the first chunk, then the second, and the pool's first
/// use on this thread before them.
///
/// # Errors
///
/// [`ChunkError::NotInstalled`] without the counting allocator; chunking errors.
pub fn shared_pool_costs(
    len: usize,
    size: usize,
    kind: SourceKind,
) -> Result<(ChunkCost, Option<ChunkCost>, ChunkCost), ChunkError> {
    let data: Vec<i32> = vec![0; len];
    let mut first_use = None;
    let mut take = |n: usize| -> Result<ChunkCost, ChunkError> {
        let (mut pool, cost) = used_pool();
        first_use = first_use.or(cost);
        let plan = Plan {
            strategy: Strategy::Pooled,
            size,
            mode: Mode::Drop,
            max_chunks: Some(n),
        };
        let source = Source::of(kind, &data);
        let (result, stats) =
            alloc_count::measure(|| run(plan, source, Some(&mut pool), &mut |_| ()))?;
        result?;
        Ok(ChunkCost {
            allocations: stats.allocations,
            reallocations: stats.reallocations,
            bytes: stats.bytes_requested,
        })
    };
    let one = take(1)?;
    let later = if len > size {
        let two = take(2)?;
        Some(ChunkCost {
            allocations: two.allocations - one.allocations,
            reallocations: two.reallocations - one.reallocations,
            bytes: two.bytes - one.bytes,
        })
    } else {
        None
    };
    Ok((one, later, first_use.ok_or(ChunkError::NotInstalled)?))
}

/// The widget's table: `len` `i32`s of `source` kind in chunks of `size`, every strategy that
/// applies, measured live; `strategy` picks the blocks shown in detail.
///
/// # Errors
///
/// A message for the reader: bad settings, a strategy that cannot read this source, or a
/// measurement that could not run.
pub fn table(len: u64, size: u64, source: SourceKind, strategy: Strategy) -> Result<Table, String> {
    check(len, size)?;
    strategy
        .check(source, Mode::Drop)
        .map_err(|e| crate::pool_words::chunk_error(&e))?;
    let (ulen, usize_) = (len as usize, size as usize);
    let report = blocks::<i32>(ulen, usize_).map_err(|e| crate::pool_words::chunk_error(&e))?;
    let mut rows = Vec::new();
    let mut pool_first_use = None;
    for r in report.rows.iter().filter(|r| r.source == source) {
        let (first, later) = if r.strategy == Strategy::Pooled {
            let (first, later, first_use) =
                shared_pool_costs(ulen, usize_, source).map_err(|e| e.to_string())?;
            pool_first_use = Some(first_use);
            (first, later)
        } else {
            (r.first, r.later)
        };
        let chunk_len = size.min(len) as usize;
        let is_dotnet = r.dotnet_first_bytes.is_some();
        rows.push(Row {
            strategy: r.strategy,
            path: if r.strategy == Strategy::Pooled {
                n!("pooled buffer (a SharedPool already used on this thread)")
            } else {
                r.path
            },
            first,
            later,
            dotnet_first_bytes: r.dotnet_first_bytes,
            dotnet_later_bytes: r.dotnet_later_bytes,
            dotnet_chunk_in_loh: is_dotnet
                .then(|| crate::chapter::cliff::scenario::in_loh(chunk_len as u64, 4)),
        });
    }
    let first_blocks = if strategy == Strategy::Pooled {
        if len == 0 {
            Vec::new()
        } else {
            // A source of unknown length grows the first chunk's buffer a bucket at a time
            // (course_pool::chunk::growth_steps); a slice asks once for what the chunk needs.
            let wants = match source {
                SourceKind::Yielded => growth_steps(usize_.min(ulen), usize_),
                _ => vec![usize_.min(ulen)],
            };
            wants
                .into_iter()
                .map(|want| Block::Alloc(bucket::round(want).length()))
                .collect()
        }
    } else {
        predict_blocks(strategy, source, ulen, usize_, 4, 0).map_err(|e| e.to_string())?
    };
    Ok(Table {
        len,
        size,
        source,
        rows,
        first_blocks,
        pool_first_use,
    })
}

/// Arrays .NET's enumerable path allocates for a first chunk of `size` (a full one).
pub fn first_chunk_arrays(size: u64) -> u64 {
    enumerable_first(size).len() as u64
}

/// The arrays .NET's enumerable path allocates for a first, full chunk of `size` `i32`s.
pub(crate) fn enumerable_first(size: u64) -> Vec<Block> {
    enumerable_chunk(size, 0)
}

/// The arrays .NET's enumerable path allocates for chunk number `index` (0 = the first) of a
/// source twice `size` long, chunks of `size` `i32`s.
fn enumerable_chunk(size: u64, index: usize) -> Vec<Block> {
    let size = size.max(1) as usize;
    predict_blocks(
        Strategy::DotnetEnumerablePath,
        SourceKind::Vec,
        size.saturating_mul(2),
        size,
        4,
        index,
    )
    .unwrap_or_default()
}

/// Bytes of `i32` elements a Rust port of the enumerable path requests for a first chunk of
/// `size` (no headers).
pub fn first_chunk_bytes(size: u64) -> u64 {
    enumerable_first(size)
        .iter()
        .map(|b| b.len() as u64 * 4)
        .sum()
}

/// Bytes .NET allocates for a later, full chunk of `size` `int`s (header included).
pub fn later_chunk_dotnet_bytes(size: u64) -> u64 {
    enumerable_chunk(size, 1)
        .iter()
        .map(|b| dotnet_array_bytes(b.len(), 4))
        .sum()
}

/// The path .NET's `Chunk` takes for a non-empty source of this kind.
pub fn path_for(kind: SourceKind) -> &'static str {
    let data: Vec<i32> = (0..10).collect();
    dotnet::chunk(Source::of(kind, &data), 4).map_or("error", |c| c.path().name())
}

/// Bytes the pooled strategy allocates for the first chunk of `size` `i32`s through a
/// [`SharedPool`] already used on this thread ([`used_pool`], the widget's pool), read from the
/// pool's statistics (buffers it allocated × their length × 4).
///
/// # Errors
///
/// The chunker's error, e.g. for size 0.
pub fn pooled_first_bytes(size: u64) -> Result<u64, ChunkError> {
    let size = size as usize;
    let data: Vec<i32> = vec![1; size];
    let (mut pool, _) = used_pool();
    let plan = Plan {
        strategy: Strategy::Pooled,
        size,
        mode: Mode::Drop,
        max_chunks: Some(1),
    };
    run(plan, Source::Slice(&data), Some(&mut pool), &mut |_| ())?;
    let stats = pool.stats();
    Ok(stats
        .buckets
        .iter()
        .map(|b| b.allocated * b.length as u64 * 4)
        .sum())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_articles_numbers() {
        assert_eq!(first_chunk_arrays(20_000), 14);
        assert_eq!(first_chunk_bytes(20_000), 211_056);
        assert_eq!(later_chunk_dotnet_bytes(20_000), 80_024);
        assert_eq!(first_chunk_arrays(3), 1);
        assert_eq!(first_chunk_arrays(5), 2);
        for s in 1..5_000u64 {
            let want = 1 + (s as f64 / s.min(4) as f64).log2().ceil() as u64;
            assert_eq!(first_chunk_arrays(s), want, "{s}");
        }
        assert_eq!(path_for(SourceKind::Slice), "ArrayChunkIterator");
        assert_eq!(path_for(SourceKind::Vec), "EnumerableChunkIterator");
        assert_eq!(path_for(SourceKind::Yielded), "EnumerableChunkIterator");
    }

    #[test]
    fn bad_settings_are_explained() {
        assert!(check(10, 0).unwrap_err().contains("at least 1"));
        assert!(
            check(MAX_LEN + 1, 10)
                .unwrap_err()
                .contains("at most 4,000,000")
        );
        assert!(
            check(10, MAX_SIZE + 1)
                .unwrap_err()
                .contains("at most 4,194,304")
        );
        let e = table(10, 4, SourceKind::Yielded, Strategy::SliceChunks).unwrap_err();
        assert!(e.contains("needs contiguous data"), "{e}");
        // Natively the unit tests have no counting allocator: said, not zeros.
        let e = table(10, 4, SourceKind::Vec, Strategy::DotnetChunk).unwrap_err();
        assert!(e.contains("counting allocator"), "{e}");
    }
}

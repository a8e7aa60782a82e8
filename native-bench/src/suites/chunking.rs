//! Chapter 7: chunking strategies and sources at chunk sizes around glibc's mmap threshold
//! (20,000 `i32` = 80,000 B is below it; 40,000 `i32` = 160,000 B is above it), with chunks held
//! until the end of the run or dropped one by one. Time per run over the same source, bytes and
//! allocations per run (exact), and the `blocks` report's first-chunk figures.

use anyhow::{Result, anyhow};
use bench_data::Unit;
use bufpool::alloc_count::measure;
use bufpool::chunk::{
    self, Mode, Plan, RentBuffer, RentError, Source, SourceKind, Strategy, blocks,
};
use bufpool::pool::SharedPool;

use crate::measure::Session;
use crate::paired::Group;

/// Elements in the source: 10 chunks of 20,000.
pub const SOURCE_LEN: usize = 200_000;
pub const CHUNK_SIZES: &[usize] = &[20_000, 25_000, 40_000];

/// (strategy, source, key name) pairs that the suite times.
pub const COMBOS: &[(Strategy, SourceKind, &str)] = &[
    (Strategy::DotnetChunk, SourceKind::Slice, "dotnet_array"),
    (Strategy::DotnetChunk, SourceKind::Vec, "dotnet_enumerable"),
    (Strategy::SliceChunks, SourceKind::Slice, "slice_chunks"),
    (Strategy::CollectVec, SourceKind::Vec, "collect_vec"),
    (
        Strategy::CollectVec,
        SourceKind::Yielded,
        "collect_vec_iter",
    ),
    (Strategy::ReusedBuffer, SourceKind::Vec, "reused_buffer"),
    (Strategy::Pooled, SourceKind::Vec, "pooled"),
];
/// The strategies compared with each other at one chunk size (20,000 `i32`, chunks dropped), as
/// the chunk article compares them: `slice_chunks` is `Span.Slice`'s counterpart (a borrowed
/// window, no copy) beside .NET's `Chunk` on an array, and on a source that yields its elements
/// one by one, one reused buffer beside a new array per chunk.
pub const SIDE_BY_SIDE: &[(Strategy, SourceKind, &str)] = &[
    (Strategy::DotnetChunk, SourceKind::Slice, "dotnet_array"),
    (Strategy::SliceChunks, SourceKind::Slice, "slice_chunks"),
    (Strategy::DotnetChunk, SourceKind::Yielded, "dotnet_yielded"),
    (
        Strategy::ReusedBuffer,
        SourceKind::Yielded,
        "reused_yielded",
    ),
];
/// One paired group per strategy and mode (one combination has no `hold` mode), and the
/// strategies side by side.
pub const STEPS: usize = 2 * COMBOS.len();

/// The crate's shared pool behind the chunker's [`RentBuffer`] seam.
pub struct PoolRent<'p>(pub &'p SharedPool<i32>);

impl RentBuffer<i32> for PoolRent<'_> {
    fn rent(&mut self, min_len: usize) -> Result<Box<[i32]>, RentError> {
        self.0.rent_boxed(min_len).map_err(|e| RentError {
            requested: min_len,
            reason: e.to_string(),
        })
    }
    fn give_back(&mut self, buf: Box<[i32]>) {
        // Pool-rented buffers always have a bucket length: never refused.
        drop(self.0.return_boxed(buf, false));
    }
}

/// [`SIDE_BY_SIDE`] in one paired group, and the two ratios the chunk article reports:
/// `Span.Slice`'s time ÷ `Chunk`'s on an array, and a new array per chunk ÷ one reused buffer on a
/// yielded source (how many times faster the reused buffer is).
fn side_by_side(s: &mut Session, data: &Vec<i32>) -> Result<()> {
    let size = 20_000;
    let mut g = Group::new("chunking.side_by_side");
    for &(strategy, source, name) in SIDE_BY_SIDE {
        let plan = Plan {
            strategy,
            size,
            mode: Mode::Drop,
            max_chunks: None,
        };
        // Every chunk is read (its elements summed), as the article's benchmark processes each:
        // a borrowed window that nobody reads would cost nothing at all.
        let once = move || {
            chunk::run(plan, Source::of(source, data), None, &mut |c| {
                std::hint::black_box(c.iter().fold(0i32, |a, &x| a.wrapping_add(x)));
            })
        };
        once().map_err(|e| anyhow!("{e}"))?;
        g.time(
            &format!("chunking.side_by_side.{name}"),
            &format!(
                "time per run: {SOURCE_LEN} i32 in chunks of {size} from {}, {}, each chunk summed, then dropped",
                source.name(),
                strategy.name()
            ),
            move || once().map(|r| r.chunks),
        );
    }
    s.compare(g)?;
    s.ratio_of(
        "chunking.side_by_side.slice_vs_chunk",
        "time per run, slice::chunks ÷ .NET's Chunk on a slice (the article's Span.Slice ÷ Chunk)",
        "chunking.side_by_side.slice_chunks",
        "chunking.side_by_side.dotnet_array",
    );
    s.ratio_of(
        "chunking.side_by_side.new_vs_reused_yielded",
        "time per run on a yielded source, a new array per chunk ÷ one reused buffer",
        "chunking.side_by_side.dotnet_yielded",
        "chunking.side_by_side.reused_yielded",
    );
    Ok(())
}

fn snake<T: serde::Serialize>(v: T) -> String {
    serde_json::to_value(v)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_else(|| "unknown".into())
}

pub fn run(s: &mut Session) -> Result<()> {
    let data: Vec<i32> = (0..SOURCE_LEN as i32).collect();
    let pool = SharedPool::<i32>::new();
    for mode in [Mode::Drop, Mode::Hold] {
        let m = snake(mode);
        for &(strategy, source, name) in COMBOS {
            if strategy.check(source, mode).is_err() {
                continue;
            }
            // One paired group per strategy and mode: its three chunk sizes take turns, so the
            // ratios across the threshold compare runs made milliseconds apart.
            let mut g = Group::new(format!("chunking.{m}.{name}"));
            for &size in CHUNK_SIZES {
                let plan = Plan {
                    strategy,
                    size,
                    mode,
                    max_chunks: None,
                };
                let mut rent = PoolRent(&pool);
                let data = &data;
                let mut once = move || {
                    let pool: Option<&mut dyn RentBuffer<i32>> =
                        (strategy == Strategy::Pooled).then_some(&mut rent as _);
                    chunk::run(plan, Source::of(source, data), pool, &mut |c| {
                        std::hint::black_box(c);
                    })
                };
                once().map_err(|e| anyhow!("{e}"))?; // warm the pool
                let (r, st) = measure(&mut once)?;
                r.map_err(|e| anyhow!("{e}"))?;
                let key = format!("chunking.{size}.{m}.{name}");
                let desc = format!(
                    "{SOURCE_LEN} i32 in chunks of {size} from {}, {}, chunks {}",
                    source.name(),
                    strategy.name(),
                    if mode == Mode::Hold {
                        "held"
                    } else {
                        "dropped"
                    }
                );
                g.time(&key, &format!("time per run: {desc}"), move || {
                    once().map(|r| r.chunks)
                });
                s.exact(
                    &format!("{key}.bytes"),
                    &format!("bytes allocated per run: {desc}"),
                    Unit::Bytes,
                    st.bytes_requested as f64,
                )?;
                s.exact(
                    &format!("{key}.allocations"),
                    &format!("allocations per run: {desc}"),
                    Unit::Count,
                    (st.allocations + st.reallocations) as f64,
                )?;
            }
            s.compare(g)?;
            for (big, title) in [(25_000, "25,000"), (40_000, "40,000")] {
                s.ratio_of(
                    &format!("chunking.{m}.{name}.{big}_vs_20000"),
                    &format!(
                        "time per run, chunks of {title} ÷ 20,000 i32 ({} on {}, chunks {})",
                        strategy.name(),
                        source.name(),
                        if mode == Mode::Hold {
                            "held"
                        } else {
                            "dropped"
                        }
                    ),
                    &format!("chunking.{big}.{m}.{name}"),
                    &format!("chunking.20000.{m}.{name}"),
                );
            }
        }
    }
    side_by_side(s, &data)?;
    let report = blocks::<i32>(40_000, 20_000).map_err(|e| anyhow!("{e}"))?;
    for row in &report.rows {
        let key = format!(
            "chunking.blocks.{}.{}",
            snake(row.strategy),
            snake(row.source)
        );
        let what = format!(
            "{} from {} (20,000 i32 per chunk)",
            row.strategy.name(),
            row.source.name()
        );
        s.exact(
            &format!("{key}.first.bytes"),
            &format!("bytes requested for the first chunk: {what}"),
            Unit::Bytes,
            row.first.bytes as f64,
        )?;
        s.exact(
            &format!("{key}.first.blocks"),
            &format!("blocks (allocations + reallocations) for the first chunk: {what}"),
            Unit::Count,
            (row.first.allocations + row.first.reallocations) as f64,
        )?;
        if let Some(later) = row.later {
            s.exact(
                &format!("{key}.later.bytes"),
                &format!("bytes requested for a later chunk: {what}"),
                Unit::Bytes,
                later.bytes as f64,
            )?;
        }
    }
    Ok(())
}

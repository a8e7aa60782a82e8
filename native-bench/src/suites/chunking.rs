//! Chapter 7: chunking strategies and sources at chunk sizes around glibc's mmap threshold
//! (20,000 `i32` = 80,000 B is below it; 40,000 `i32` = 160,000 B is above it), with chunks held
//! until the end of the run or dropped one by one. Time per run over the same source, bytes and
//! allocations per run (exact), and the `blocks` report's first-chunk figures.

use anyhow::{Result, anyhow};
use bench_data::Unit;
use bufpool::pool::SharedPool;
use course_pool::alloc_count::measure;
use course_pool::chunk::{self, Mode, Plan, RentBuffer, Source, SourceKind, Strategy, blocks};

use crate::measure::Session;
use crate::paired::Group;

pub use wasm_bench::groups::{CHUNK_SIZES, PoolRent, SOURCE_LEN};

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
/// One paired group per strategy and mode (one combination has no `hold` mode), and the
/// strategies side by side.
pub const STEPS: usize = 2 * COMBOS.len();

/// [`wasm_bench::groups::SIDE_BY_SIDE`] in one paired group, and the two ratios the chunk article reports:
/// `Span.Slice`'s time ÷ `Chunk`'s on an array, and a new array per chunk ÷ one reused buffer on a
/// yielded source (how many times faster the reused buffer is).
fn side_by_side(s: &mut Session, data: &Vec<i32>) -> Result<()> {
    // The group is wasm-bench's, so both runtimes time the same operations.
    let (g, ratios) = wasm_bench::groups::side_by_side_group(data, bench_paired::system_clock)
        .map_err(|e| anyhow!("{e}"))?;
    s.compare(g)?;
    for (key, title, numerator, denominator) in ratios {
        s.ratio_of(&key, &title, &numerator, &denominator);
    }
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

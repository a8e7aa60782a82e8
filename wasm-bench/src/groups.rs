//! The groups the browser times, with the native suites' keys and titles
//! (`native-bench/src/suites/`): rent + return, clearing, the chunk strategies, and big blocks on
//! either side of glibc's mmap threshold.
//!
//! Each group's state (the pool, the source data) lives for one call of [`run`], as in the native
//! suites, so a group's first rounds pay for the pool's warm-up in both runtimes alike.

use bench_paired::{Clock, Group, Plan};
use bufpool::pool::SharedPool;
use course_pool::chunk::{
    self, Mode, Plan as ChunkPlan, RentBuffer, RentError, Source, SourceKind, Strategy,
};

use crate::{GroupSamples, MemberSamples, Ratio, clock};

/// The rent + return sizes (`native-bench`'s `suites::SIZES`).
pub const RENT_SIZES: &[usize] = &[16, 1024, 4096, 16_384, 81_920, 1_048_576];
/// The clearing sizes (`native-bench`'s `suites::clearing::SIZES`).
pub const CLEAR_SIZES: &[usize] = &[16, 1024, 16_384, 81_920, 1_048_576];
/// The chunking suite's source length (10 chunks of 20,000) and chunk sizes around glibc's mmap
/// threshold (20,000 `i32` = 80,000 B is below it; 40,000 `i32` = 160,000 B is above it): one
/// definition for both runtimes, `native-bench`'s chunking suite uses these.
pub const SOURCE_LEN: usize = 200_000;
pub const CHUNK_SIZES: &[usize] = &[20_000, 25_000, 40_000];
/// The strategies timed at every chunk size, chunks dropped (a subset of the native `COMBOS`:
/// one per way of getting a chunk's buffer — a new array, a new `Vec`, the pool).
pub const CHUNK_COMBOS: &[(Strategy, SourceKind, &str)] = &[
    (Strategy::DotnetChunk, SourceKind::Slice, "dotnet_array"),
    (Strategy::CollectVec, SourceKind::Vec, "collect_vec"),
    (Strategy::Pooled, SourceKind::Vec, "pooled"),
];
/// The strategies compared with each other at one chunk size (20,000 `i32`, chunks dropped), as
/// the chunk article compares them: `slice_chunks` is `Span.Slice`'s counterpart (a borrowed
/// window, no copy) beside .NET's `Chunk` on an array, and on a source that yields its elements
/// one by one, one reused buffer beside a new array per chunk. Both runtimes time these.
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
/// The requests on either side of glibc's default 128 KiB threshold: the largest a 64-bit glibc
/// serves from its heap (128 KiB − 24, the native `cliff.*.below`), and 8 bytes over 128 KiB.
pub const CLIFF_BELOW: usize = 131_048;
pub const CLIFF_ABOVE: usize = 131_080;

const BYTE: u8 = 0xA5;

/// Every group, in the order the page runs them.
pub const NAMES: &[&str] = &[
    "rent_return.16",
    "rent_return.1024",
    "rent_return.4096",
    "rent_return.16384",
    "rent_return.81920",
    "rent_return.1048576",
    "clearing.16",
    "clearing.1024",
    "clearing.16384",
    "clearing.81920",
    "clearing.1048576",
    "chunking.drop.dotnet_array",
    "chunking.drop.collect_vec",
    "chunking.drop.pooled",
    "chunking.side_by_side",
    "cliff.wasm",
];

/// Measures group `index` of [`NAMES`] with `plan`.
pub fn run(index: usize, plan: Plan) -> Option<GroupSamples> {
    let name = *NAMES.get(index)?;
    let (kind, rest) = name.split_once('.')?;
    Some(match kind {
        "rent_return" => rent_return(rest.parse().ok()?, plan),
        "clearing" => clearing(rest.parse().ok()?, plan),
        "chunking" if rest == "side_by_side" => side_by_side(plan),
        "chunking" => {
            let combo = CHUNK_COMBOS
                .iter()
                .find(|c| rest.strip_prefix("drop.") == Some(c.2))?;
            chunk_sizes(*combo, plan)
        }
        "cliff" => cliff(plan),
        _ => return None,
    })
}

/// A ratio of two members of a group: (key, title, numerator's key, denominator's key).
pub type RatioDef = (String, String, String, String);

/// Measures `g` and collects its samples and `ratios`.
fn finish(mut g: Group<'_>, plan: Plan, ratios: Vec<RatioDef>) -> GroupSamples {
    let samples = bench_paired::measure(&mut g, plan);
    GroupSamples {
        name: g.name.clone(),
        members: g
            .members
            .iter()
            .zip(samples)
            .map(|(m, samples)| MemberSamples {
                key: m.key.clone(),
                title: m.title.clone(),
                samples,
            })
            .collect(),
        ratios: ratios
            .into_iter()
            .map(|(key, title, numerator, denominator)| Ratio {
                key,
                title,
                numerator,
                denominator,
            })
            .collect(),
    }
}

fn rent_return(n: usize, plan: Plan) -> GroupSamples {
    let pool = SharedPool::<u8>::new();
    let key = |v: &str| format!("rent_return.{n}.{v}");
    let mut g = Group::new(format!("rent_return.{n}"));
    g.time_on(
        clock,
        &key("pool"),
        &format!("rent + return of {n} B through the shared pool (ownership API)"),
        || drop(pool.rent(n)),
    );
    g.time_on(
        clock,
        &key("pool_write"),
        &format!("rent + fill {n} B + return (ownership API)"),
        || {
            if let Ok(mut b) = pool.try_rent(n) {
                b.fill(BYTE);
                std::hint::black_box(&*b);
            }
        },
    );
    g.time_on(
        clock,
        &key("fresh_vec"),
        &format!("allocate and drop a zeroed Vec<u8> of {n} B"),
        || vec![0u8; n],
    );
    g.time_on(
        clock,
        &key("fresh_vec_write"),
        &format!("allocate a zeroed Vec<u8> of {n} B, fill it, drop it"),
        || {
            let mut v = vec![0u8; n];
            v.fill(BYTE);
            v
        },
    );
    let mut ready = vec![0u8; n];
    g.time_on(
        clock,
        &key("lower_bound"),
        &format!("fill a ready {n}-byte buffer (the lower bound: no rent, no allocation)"),
        move || {
            ready.fill(BYTE);
            std::hint::black_box(&ready);
        },
    );
    let ratio = |k: &str, title: String, a: &str, b: &str| (key(k), title, key(a), key(b));
    let ratios = vec![
        ratio(
            "pool_write_vs_lower_bound",
            format!("rent + fill + return ÷ fill of a ready buffer, {n} B"),
            "pool_write",
            "lower_bound",
        ),
        ratio(
            "pool_vs_fresh_vec",
            format!("pool rent+return ÷ fresh Vec, {n} B"),
            "pool",
            "fresh_vec",
        ),
        ratio(
            "pool_write_vs_fresh_vec_write",
            format!("pool rent + fill + return ÷ fresh Vec + fill, {n} B"),
            "pool_write",
            "fresh_vec_write",
        ),
    ];
    finish(g, plan, ratios)
}

fn clearing(n: usize, plan: Plan) -> GroupSamples {
    let pool = SharedPool::<u8>::new();
    let (g, ratios) = clearing_group(&pool, n, clock);
    finish(g, plan, ratios)
}

/// Rent + return of `n` bytes cleared on return against not cleared, and their ratio: the
/// native `clearing` suite's group too (with the system clock).
pub fn clearing_group(pool: &SharedPool<u8>, n: usize, clock: Clock) -> (Group<'_>, Vec<RatioDef>) {
    let key = |v: &str| format!("clearing.{n}.{v}");
    let mut g = Group::new(format!("clearing.{n}"));
    g.time_on(
        clock,
        &key("uncleared"),
        &format!("rent + return of {n} B, not cleared (ownership API)"),
        move || drop(pool.rent(n)),
    );
    g.time_on(
        clock,
        &key("cleared"),
        &format!("rent + return of {n} B, cleared on return (whole bucket buffer)"),
        move || {
            if let Ok(b) = pool.try_rent(n) {
                b.return_cleared();
            }
        },
    );
    let ratios = vec![(
        key("cleared_vs_uncleared"),
        format!("return with clear ÷ without, {n} B"),
        key("cleared"),
        key("uncleared"),
    )];
    (g, ratios)
}

/// The crate's shared pool behind the chunker's [`RentBuffer`] seam (both runtimes' `pooled`
/// strategy).
pub struct PoolRent<'p>(pub &'p SharedPool<i32>);

impl RentBuffer<i32> for PoolRent<'_> {
    fn rent(&mut self, min_len: usize) -> Result<Box<[i32]>, RentError> {
        self.0.try_rent_boxed(min_len).map_err(|e| RentError {
            requested: min_len,
            reason: e.to_string(),
        })
    }
    fn give_back(&mut self, buf: Box<[i32]>) {
        // Pool-rented buffers always have a bucket length: never refused.
        drop(self.0.return_boxed(buf, false));
    }
}

/// One strategy at the three chunk sizes, chunks dropped (the native `chunking.drop.<name>`).
fn chunk_sizes((strategy, source, name): (Strategy, SourceKind, &str), plan: Plan) -> GroupSamples {
    let data: Vec<i32> = (0..SOURCE_LEN as i32).collect();
    let pool = SharedPool::<i32>::new();
    let mut g = Group::new(format!("chunking.drop.{name}"));
    for &size in CHUNK_SIZES {
        let plan = ChunkPlan {
            strategy,
            size,
            mode: Mode::Drop,
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
        let _ = once(); // warm the pool
        let desc = format!(
            "{SOURCE_LEN} i32 in chunks of {size} from {}, {}, chunks dropped",
            source.name(),
            strategy.name()
        );
        g.time_on(
            clock,
            &format!("chunking.{size}.drop.{name}"),
            &format!("time per run: {desc}"),
            move || once().map(|r| r.chunks),
        );
    }
    let ratios = [(25_000, "25,000"), (40_000, "40,000")]
        .iter()
        .map(|(big, title)| {
            (
                format!("chunking.drop.{name}.{big}_vs_20000"),
                format!(
                    "time per run, chunks of {title} ÷ 20,000 i32 ({} on {}, chunks dropped)",
                    strategy.name(),
                    source.name()
                ),
                format!("chunking.{big}.drop.{name}"),
                format!("chunking.20000.drop.{name}"),
            )
        })
        .collect();
    // The group borrows `data` and `pool`: measure before they go.
    let out = finish(g, plan, ratios);
    drop((data, pool));
    out
}

fn side_by_side(plan: Plan) -> GroupSamples {
    let data: Vec<i32> = (0..SOURCE_LEN as i32).collect();
    // The strategies are the crate's own: none refuses this plan.
    let Ok((g, ratios)) = side_by_side_group(&data, clock) else {
        return finish(Group::new("chunking.side_by_side"), plan, Vec::new());
    };
    finish(g, plan, ratios)
}

/// [`SIDE_BY_SIDE`] in one paired group over `data`, each chunk summed (a borrowed window that
/// nobody reads would cost nothing), and the two ratios the chunk article reports: the native
/// chunking suite's group too. An error names a strategy that refused the plan.
pub fn side_by_side_group(
    data: &Vec<i32>,
    clock: Clock,
) -> Result<(Group<'_>, Vec<RatioDef>), String> {
    let size = 20_000;
    let mut g = Group::new("chunking.side_by_side");
    for &(strategy, source, name) in SIDE_BY_SIDE {
        let chunk_plan = ChunkPlan {
            strategy,
            size,
            mode: Mode::Drop,
            max_chunks: None,
        };
        let once = move || {
            chunk::run(chunk_plan, Source::of(source, data), None, &mut |c| {
                std::hint::black_box(c.iter().fold(0i32, |a, &x| a.wrapping_add(x)));
            })
        };
        once().map_err(|e| format!("{name}: {e}"))?;
        g.time_on(
            clock,
            &format!("chunking.side_by_side.{name}"),
            &format!(
                "time per run: {SOURCE_LEN} i32 in chunks of {size} from {}, {}, each chunk summed, then dropped",
                source.name(),
                strategy.name()
            ),
            move || once().map(|r| r.chunks),
        );
    }
    let ratios = vec![
        (
            "chunking.side_by_side.slice_vs_chunk".into(),
            "time per run, slice::chunks ÷ .NET's Chunk on a slice (the article's Span.Slice ÷ Chunk)".into(),
            "chunking.side_by_side.slice_chunks".into(),
            "chunking.side_by_side.dotnet_array".into(),
        ),
        (
            "chunking.side_by_side.new_vs_reused_yielded".into(),
            "time per run on a yielded source, a new array per chunk ÷ one reused buffer".into(),
            "chunking.side_by_side.dotnet_yielded".into(),
            "chunking.side_by_side.reused_yielded".into(),
        ),
    ];
    Ok((g, ratios))
}

/// A big block on either side of glibc's threshold: in wasm32 both come from the same allocator
/// path (dlmalloc over one linear memory), so the ratio is the measurement of "no cliff".
fn cliff(plan: Plan) -> GroupSamples {
    let mut g = Group::new("cliff.wasm");
    for (name, n, side) in [
        ("below", CLIFF_BELOW, "under"),
        ("above", CLIFF_ABOVE, "over"),
    ] {
        g.time_on(
            clock,
            &format!("cliff.wasm.{name}"),
            &format!(
                "malloc + write + free of {n} B, {side} glibc's default 128 KiB mmap threshold, in wasm32 (dlmalloc: one path for every size)"
            ),
            move || {
                let mut v = vec![0u8; n];
                v.fill(BYTE);
                v
            },
        );
    }
    let ratios = vec![(
        "cliff.wasm.above_vs_below".into(),
        "wasm32: malloc + write + free just over glibc's 128 KiB threshold ÷ just under it".into(),
        "cliff.wasm.above".into(),
        "cliff.wasm.below".into(),
    )];
    finish(g, plan, ratios)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> Plan {
        Plan {
            rounds: 2,
            batch: std::time::Duration::from_micros(200),
            warm_up: std::time::Duration::ZERO,
        }
    }

    /// Every group runs, its ratios name its own members, and its keys are the group's.
    #[test]
    fn every_group_runs_and_its_ratios_pair_its_members() {
        for (i, name) in NAMES.iter().enumerate() {
            let g = run(i, tiny()).unwrap_or_else(|| panic!("group {name} did not run"));
            assert_eq!(g.name, *name);
            assert!(!g.members.is_empty(), "{name}");
            for m in &g.members {
                assert_eq!(m.samples.len(), 2, "{}", m.key);
                assert!(
                    m.samples.iter().all(|x| x.is_finite() && *x >= 0.0),
                    "{}",
                    m.key
                );
            }
            let has = |k: &str| g.members.iter().any(|m| m.key == k);
            for r in &g.ratios {
                assert!(has(&r.numerator) && has(&r.denominator), "{}", r.key);
            }
        }
        assert!(run(NAMES.len(), tiny()).is_none());
    }

    /// A figure the native bench also measures has the native title, so the book shows both as
    /// one row: the keys and titles are compared with the committed native data.
    #[test]
    fn keys_the_native_bench_measures_have_its_titles() {
        let data = concat!(env!("CARGO_MANIFEST_DIR"), "/../book/data");
        let mut native = std::collections::BTreeMap::new();
        for entry in std::fs::read_dir(data).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            if !name.ends_with(".json") || name.contains(".wasm32.") {
                continue;
            }
            let file: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            for (k, f) in file["figures"].as_object().unwrap() {
                native.insert(k.clone(), f["title"].as_str().unwrap().to_string());
            }
        }
        let mut shared = 0;
        for (i, _) in NAMES.iter().enumerate() {
            let g = run(i, tiny()).unwrap();
            let titles = g
                .members
                .iter()
                .map(|m| (&m.key, &m.title))
                .chain(g.ratios.iter().map(|r| (&r.key, &r.title)));
            for (key, title) in titles {
                match native.get(key) {
                    Some(t) => {
                        assert_eq!(t, title, "{key}: the native title differs");
                        shared += 1;
                    }
                    None => assert!(key.starts_with("cliff.wasm."), "{key}: not a native key"),
                }
            }
        }
        assert!(
            shared > 40,
            "only {shared} keys shared with the native data"
        );
    }
}

//! `cargo xtask crate-docs`: writes the bench's ratios into `bufpool/README.md`, the crate's
//! docs (issue 39), between `<!-- ratios:begin -->` and `<!-- ratios:end -->`.
//!
//! The numbers are never typed: the block is rendered from the data file the book would cite
//! first, chosen as the book chooses it (`mdbook_lab::data::Data`: the newest system-allocator
//! file at the current code's fingerprint, else the newest system file), and names that file's
//! machine, date and fingerprint. `cargo xtask bench` rewrites it after measuring into
//! `book/data`; the test `committed_block_is_what_the_committed_data_renders` fails when the
//! committed block differs from what the committed data renders.

use std::path::Path;

use anyhow::{Context, Result, bail};
use bench_data::{Figure, RunFile, Unit, citable, format_value};

/// The README, relative to the workspace root.
pub const README: &str = "bufpool/README.md";
const BEGIN: &str = "<!-- ratios:begin -->";
const END: &str = "<!-- ratios:end -->";

/// What the block says while the data has no `read_buffer` figures (a new suite, before the next
/// full run): the comparison is not measured, and no other number stands in for it.
pub const NOT_MEASURED: &str = "The side-by-side comparison with `object-pool`, \
`lockfree-object-pool`, `opool` and plain `Vec`s (a server's 4 KiB read buffer, the bench's \
`read_buffer` suite) has not been measured on this code yet: this data file has none of its \
figures. The next full `cargo xtask bench` measures it and writes its ratios here.";

/// The peers of the `read_buffer` suite: key id and the name a reader knows.
const READ_BUFFER_PEERS: &[(&str, &str)] = &[
    ("configurable", "bufpool's `ConfigurablePool`"),
    ("object_pool", "`object-pool` (`Pool<Vec<u8>>`)"),
    (
        "lockfree_object_pool",
        "`lockfree-object-pool` (`LinearObjectPool<Vec<u8>>`)",
    ),
    ("opool", "`opool` (`Pool<_, Vec<u8>>`)"),
    ("vec_reuse", "one `Vec` per thread, cleared and refilled"),
    ("vec_fresh", "`Vec::with_capacity` per request"),
];

/// The ratios the data has had longer that a user weighing the crate cares about: key and what
/// it divides.
const OTHER_RATIOS: &[(&str, &str)] = &[
    (
        "rent_return.4096.pool_vs_fresh_vec",
        "rent + return of 4 KiB ÷ `vec![0u8; 4096]` and drop",
    ),
    (
        "rent_return.4096.pool_write_vs_fresh_vec_write",
        "the same, each filling the 4 KiB",
    ),
    (
        "peers.1024.pool_vs_object_pool_write",
        "get, fill and give back 1 KiB: bufpool ÷ `object-pool`",
    ),
    (
        "peers.1024.pool_vs_lockfree_object_pool_write",
        "the same: bufpool ÷ `lockfree-object-pool`",
    ),
    (
        "peers.1024.pool_vs_opool_write",
        "the same: bufpool ÷ `opool`",
    ),
    (
        "peers.1024.pool_vs_system_write",
        "the same: bufpool ÷ `malloc` + `free` (glibc)",
    ),
    (
        "shared_accessor.1.per_call_vs_held",
        "`SharedPool::<u8>::shared()` per rent ÷ a reference held, 1 thread (1: the accessor is free)",
    ),
    (
        "shared_accessor.2.per_call_vs_held",
        "the same on 2 threads",
    ),
    (
        "threads.shared_vs_private.throughput",
        "throughput of 2 threads on one shared pool ÷ on a pool each (1: sharing costs nothing)",
    ),
    (
        "clearing.16384.cleared_vs_uncleared",
        "rent + return of 16 KiB cleared on return ÷ not cleared",
    ),
];

/// `cargo xtask crate-docs`: rewrites the README's block from the committed data.
pub fn run(root: &Path) -> Result<()> {
    let path = root.join(README);
    let readme = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let block = block_for(root)?;
    if committed_block(&readme) == Some(block.as_str()) {
        println!("{README}: the ratios block is up to date");
        return Ok(());
    }
    let new = replace_block(&readme, &block)?;
    std::fs::write(&path, new).with_context(|| format!("cannot write {}", path.display()))?;
    println!("{README}: the ratios block rewritten from the bench data");
    Ok(())
}

/// The block the data in `root/book/data` renders (the file the book cites first).
pub fn block_for(root: &Path) -> Result<String> {
    let data = mdbook_lab::data::Data::load_with_root(&root.join("book/data"), None, Some(root))?;
    let file = data.primary().map_err(anyhow::Error::msg)?;
    Ok(render(file))
}

/// The README with its block (between the markers, exclusive) replaced by `block`.
pub fn replace_block(readme: &str, block: &str) -> Result<String> {
    let (Some(b), Some(e)) = (readme.find(BEGIN), readme.find(END)) else {
        bail!("{README} has no {BEGIN} … {END} block for the bench's ratios")
    };
    if e < b {
        bail!("{README}: {END} comes before {BEGIN}");
    }
    Ok(format!(
        "{}\n{block}{}",
        &readme[..b + BEGIN.len()],
        &readme[e..]
    ))
}

/// The README's current block (between the markers, exclusive).
pub fn committed_block(readme: &str) -> Option<&str> {
    let b = readme.find(BEGIN)? + BEGIN.len();
    let e = readme.find(END)?;
    readme.get(b..e).map(|s| s.strip_prefix('\n').unwrap_or(s))
}

/// The block for `file`: where it was measured, the `read_buffer` comparison (or [`NOT_MEASURED`])
/// and the other ratios, each as the median of its per-round ratios with its 95 % interval.
pub fn render(file: &RunFile) -> String {
    let m = &file.machine;
    let r = &file.run;
    let mut out = format!(
        "Measured by the course's `native-bench` on `{}` ({}, {} logical cores, {}, global \
         allocator: {}), {}, {} run; code fingerprint `{}`. Generated by `cargo xtask crate-docs` \
         from `book/data/{}.json`. Each ratio is the median of the ratios of batches measured \
         side by side, with its 95 % interval.\n\n",
        m.id,
        m.cpu_model.trim(),
        m.logical_cores,
        m.libc,
        r.runtime,
        r.date.get(..10).unwrap_or(&r.date),
        r.mode,
        r.fingerprint.as_deref().unwrap_or("none"),
        file.stem(),
    );
    let measured = file.figures.keys().any(|k| k.starts_with("read_buffer."));
    if measured {
        out.push_str(
            "A server's read buffer: get 4 KiB, copy a 4 KiB request into it, give it back; \
             bufpool's time ÷ the other's (below 1: bufpool takes less time).\n\n\
             | bufpool's `SharedPool` ÷ | 1 thread | 2 threads |\n|---|---|---|\n",
        );
        for (id, name) in READ_BUFFER_PEERS {
            let cell = |t: u32| cell(file.figures.get(&format!("read_buffer.{t}.shared_vs_{id}")));
            out.push_str(&format!("| {name} | {} | {} |\n", cell(1), cell(2)));
        }
    } else {
        out.push_str(NOT_MEASURED);
        out.push('\n');
    }
    out.push_str("\nFrom the course's other suites:\n\n| what is divided | ratio |\n|---|---|\n");
    for (key, what) in OTHER_RATIOS {
        out.push_str(&format!("| {what} | {} |\n", cell(file.figures.get(*key))));
    }
    out
}

/// A ratio as the block prints it: `0.865× (0.864–0.871)`; a figure the noise gate refuses or the
/// data lacks says so instead of a number.
fn cell(f: Option<&Figure>) -> String {
    let Some(f) = f else {
        return "not in this data file".into();
    };
    if !citable(f) {
        return format!("too noisy to cite (noise {:.0} %)", f.cv * 100.0);
    }
    let value = format_value(f.unit, f.value);
    if f.unit != Unit::Ratio || f.low == f.high {
        return value;
    }
    let bare = |v: f64| {
        format_value(Unit::Ratio, v)
            .trim_end_matches('×')
            .to_string()
    };
    format!("{value} ({}–{})", bare(f.low), bare(f.high))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root() -> std::path::PathBuf {
        crate::root()
    }

    #[test]
    fn committed_block_is_what_the_committed_data_renders() {
        let readme = std::fs::read_to_string(root().join(README)).unwrap();
        let committed = committed_block(&readme).expect("the README has a ratios block");
        let rendered = block_for(&root()).unwrap();
        assert!(
            committed == rendered,
            "{README}'s ratios block is not what book/data renders: run `cargo xtask crate-docs`\n\
             --- committed\n{committed}\n--- rendered\n{rendered}"
        );
    }

    /// A data file with a `read_buffer` figure or none, and one ratio the block reads.
    fn file(read_buffer: bool) -> RunFile {
        let ratio = |key: &str, v: f64| {
            format!(
                r#""{key}": {{"title": "t", "unit": "ratio", "value": {v}, "low": {lo},
                "high": {hi}, "samples": 400, "cv": 0.02, "cv_plain": 0.03,
                "verdict": "ratio_only", "gate_note": ""}}"#,
                lo = v - 0.01,
                hi = v + 0.01
            )
        };
        let mut figures = vec![ratio("rent_return.4096.pool_vs_fresh_vec", 0.25)];
        if read_buffer {
            figures.push(ratio("read_buffer.1.shared_vs_vec_fresh", 0.5));
        }
        RunFile::parse(&format!(
            r#"{{"schema_version": {v},
            "machine": {{"id": "test-cpu-2c", "cpu_model": "Test CPU", "logical_cores": 2,
                "memory_bytes": 1, "os": "o", "kernel": "k", "libc": "l"}},
            "run": {{"date": "2026-01-02T03:04:05Z", "rustc": "r", "commit": "c",
                "allocator": "system", "mode": "full", "load_before": [0, 0, 0],
                "load_after": [0, 0, 0], "duration_seconds": 1, "fingerprint": "fnv1a64:1"}},
            "figures": {{{}}}}}"#,
            figures.join(","),
            v = bench_data::SCHEMA_VERSION
        ))
        .unwrap()
    }

    #[test]
    fn data_without_the_suite_says_it_is_not_measured() {
        let block = render(&file(false));
        assert!(block.contains(&format!("\n\n{NOT_MEASURED}\n")), "{block}");
        assert!(!block.contains("1 thread |"), "{block}");
        assert!(block.contains("`test-cpu-2c`") && block.contains("2026-01-02"));
        assert!(block.contains("`fnv1a64:1`"));
        assert!(block.contains("| 0.250× (0.240–0.260) |"), "{block}");
        assert!(block.contains("| not in this data file |"), "{block}");
    }

    #[test]
    fn data_with_the_suite_renders_its_ratios() {
        let block = render(&file(true));
        assert!(!block.contains(NOT_MEASURED), "{block}");
        assert!(
            block.contains("| `Vec::with_capacity` per request | 0.500× (0.490–0.510) | not in this data file |"),
            "{block}"
        );
    }

    #[test]
    fn the_block_is_replaced_between_its_markers_only() {
        let readme = format!("a\n{BEGIN}\nold\n{END}\nb\n");
        let new = replace_block(&readme, "new\n").unwrap();
        assert_eq!(new, format!("a\n{BEGIN}\nnew\n{END}\nb\n"));
        assert_eq!(committed_block(&new), Some("new\n"));
        assert!(replace_block("no markers", "x").is_err());
        assert!(replace_block(&format!("{END}{BEGIN}"), "x").is_err());
    }
}

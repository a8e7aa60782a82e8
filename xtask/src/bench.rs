//! `cargo xtask bench`: measures this machine under every runtime the book compares.
//!
//! Builds the lab for wasm as readers get it (chapter 8 reads its code sizes from that build,
//! `wasm_size.*` the shipped files), then runs the bench once per global allocator, each its own
//! build of `native-bench` (features `alloc-mimalloc`, `alloc-jemalloc`; the system allocator
//! without either): the system build runs every suite and writes `book/data/<machine-id>.json`,
//! the others run the suites where the allocator matters and write
//! `book/data/<machine-id>.<runtime>.json`. A full run repeats the whole run three times (each
//! figure keeps every repetition) and counts the instructions of the hot loops under callgrind.
//! Progress (`[suite i/n] name: j/k`) goes to stderr as it runs.

use std::path::Path;

use anyhow::Result;

use crate::{cmd, site};

/// The runtimes, as (name, cargo features of native-bench).
pub const RUNTIMES: &[(&str, Option<&str>)] = &[
    ("system", None),
    ("mimalloc", Some("alloc-mimalloc")),
    ("jemalloc", Some("alloc-jemalloc")),
];

pub fn bench(root: &Path, quick: bool, out: Option<&str>) -> Result<()> {
    let started = std::time::Instant::now();
    // The same build as `site.rs` makes, so the sizes are those of the module readers get. Always
    // run (a no-op when up to date): a stale artifact would report an older pool's code size.
    site::build_wasm(root)?;
    for (runtime, feature) in RUNTIMES {
        site::step(&format!("running the bench: {runtime}"));
        let mut args = vec!["run", "--release", "--package", "native-bench"];
        if let Some(feature) = feature {
            args.extend(["--features", feature]);
        }
        args.extend(["--", "run"]);
        if quick {
            args.push("--quick");
        }
        if let Some(out) = out {
            args.extend(["--out", out]);
        }
        cmd::cargo(&args).run()?;
    }
    println!(
        "\nbench finished in {:.0} s (builds included)",
        started.elapsed().as_secs_f64()
    );
    println!(
        "Rebuild the book with the new data: cargo xtask serve\n\
         \n\
         Instructors: your machine's files are book/data/<machine-id>.json and\n\
         <machine-id>.<runtime>.json (runtimes: {}). Keep the other machines' files: each records\n\
         the fingerprint of the code it measured, and the book shows the files at the current\n\
         fingerprint side by side and lists the others as older code. Commit yours to add your\n\
         machine as a column; `cargo xtask lint` (a strict build) then names every sentence of the\n\
         book your machine does not support.",
        RUNTIMES
            .iter()
            .map(|(r, _)| *r)
            .collect::<Vec<_>>()
            .join(", ")
    );
    Ok(())
}

//! `cargo xtask bench`: measures this machine under every runtime the book compares.
//!
//! Builds the lab for wasm as readers get it (chapter 8 reads its code sizes from that build,
//! `wasm_size.*` the shipped files), then runs the bench once per global allocator, each its own
//! build of `native-bench` (features `alloc-mimalloc`, `alloc-jemalloc`; the system allocator
//! without either): the system build runs every suite and writes `book/data/<machine-id>.json`,
//! the others run the suites where the allocator matters and write
//! `book/data/<machine-id>.<runtime>.json`. A full run repeats the whole run three times (each
//! figure keeps every repetition) and counts the instructions of the hot loops under callgrind.
//! Last, the `wasm32` runtime: `wasm-bench` built as the lab is for readers, timed in headless
//! Chromium by `native-bench wasm32` (three fresh browser processes in a full run), written as
//! `book/data/<machine-id>.wasm32.json`.
//! Progress (`[suite i/n] name: j/k`) goes to stderr as it runs. Measured into `book/data`, the
//! bench's ratios in `bufpool/README.md` are rewritten from it last (`crate_docs.rs`).
//!
//! The machine id names the CPU (`native-bench/src/machine.rs`: the model string when it names
//! the part, else the microarchitecture, as in `amd-zen3-2c`). Before measuring, the output
//! folder's files of older benches are renamed to their CPU's id (`native-bench migrate-ids`),
//! and the bench refuses to overwrite a file measured on another CPU (`--out DIR` or
//! `--machine-id ID` then).

use std::path::Path;

use anyhow::{Context, Result, bail};

use crate::{cmd, site, tools};

/// The runtimes, as (name, cargo features of native-bench).
pub const RUNTIMES: &[(&str, Option<&str>)] = &[
    ("system", None),
    ("mimalloc", Some("alloc-mimalloc")),
    ("jemalloc", Some("alloc-jemalloc")),
];

/// What `cargo xtask bench` was asked to do.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Args<'a> {
    pub quick: bool,
    pub out: Option<&'a str>,
    /// The machine's id, instead of the one the bench derives from the CPU.
    pub machine_id: Option<&'a str>,
    /// One runtime only (a name of [`RUNTIMES`] or `wasm32`).
    pub runtime: Option<&'a str>,
}

impl<'a> Args<'a> {
    pub fn parse(args: &[&'a str]) -> Result<Args<'a>> {
        let mut a = Args::default();
        let mut rest = args.iter();
        while let Some(&arg) = rest.next() {
            match arg {
                "--quick" => a.quick = true,
                "--out" => a.out = Some(rest.next().copied().context("--out needs a folder")?),
                "--machine-id" => {
                    a.machine_id = Some(rest.next().copied().context("--machine-id needs an id")?);
                }
                "--runtime" => {
                    let r = rest.next().copied().context("--runtime needs a name")?;
                    if r != WASM32 && !RUNTIMES.iter().any(|(n, _)| *n == r) {
                        bail!(
                            "no runtime {r:?}: the runtimes are {}, {WASM32}",
                            RUNTIMES
                                .iter()
                                .map(|(n, _)| *n)
                                .collect::<Vec<_>>()
                                .join(", ")
                        );
                    }
                    a.runtime = Some(r);
                }
                _ => bail!("bench: unknown argument {arg:?} (see `cargo xtask help`)"),
            }
        }
        Ok(a)
    }
}

/// The browser's runtime (`native-bench wasm32`).
pub const WASM32: &str = "wasm32";

pub fn bench(root: &Path, a: &Args<'_>) -> Result<()> {
    let (quick, out) = (a.quick, a.out);
    let wanted = |r: &str| a.runtime.is_none_or(|w| w == r);
    let started = std::time::Instant::now();
    // The same build as `site.rs` makes, so the sizes are those of the module readers get. Always
    // run (a no-op when up to date): a stale artifact would report an older pool's code size.
    site::build_wasm(root)?;
    // Files of benches before the id named the CPU get their CPU's id first, so this run lands
    // on its own CPU's file (or beside another CPU's, never over it).
    site::step("naming older data files by their CPU (native-bench migrate-ids)");
    cmd::cargo(&[
        "run",
        "--release",
        "--package",
        "native-bench",
        "--",
        "migrate-ids",
        "--data",
        out.unwrap_or("book/data"),
    ])
    .run()?;
    for (runtime, feature) in RUNTIMES.iter().filter(|(r, _)| wanted(r)) {
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
        if let Some(id) = a.machine_id {
            args.extend(["--machine-id", id]);
        }
        cmd::cargo(&args).run()?;
    }
    if wanted(WASM32) {
        site::step("running the bench: wasm32 (headless Chromium)");
        tools::chromium()?;
        let dir = build_wasm_bench(root)?;
        let dir = dir.to_string_lossy();
        let mut args = vec![
            "run",
            "--release",
            "--package",
            "native-bench",
            "--",
            "wasm32",
            &dir,
        ];
        if quick {
            args.push("--quick");
        }
        if let Some(out) = out {
            args.extend(["--out", out]);
        }
        if let Some(id) = a.machine_id {
            args.extend(["--machine-id", id]);
        }
        cmd::cargo(&args).run()?;
    }
    if out.is_none() {
        // The crate's docs cite the ratios of the data the book cites first.
        site::step("writing the bench's ratios into bufpool/README.md (crate-docs)");
        crate::crate_docs::run(root)?;
    }
    println!(
        "\nbench finished in {:.0} s (builds included)",
        started.elapsed().as_secs_f64()
    );
    println!(
        "Rebuild the book with the new data: cargo xtask serve\n\
         \n\
         Instructors: your machine's files are book/data/<machine-id>.json and\n\
         <machine-id>.<runtime>.json (runtimes: {}), the id naming your CPU (e.g. amd-zen3-2c).\n\
         Keep the other machines' files (the bench never overwrites another CPU's): each records\n\
         the fingerprint of the code it measured, and the book shows the files at the current\n\
         fingerprint side by side and lists the others as older code. Commit yours to add your\n\
         machine as a column; `cargo xtask lint` (a strict build) then names every sentence of the\n\
         book your machine does not support.",
        RUNTIMES
            .iter()
            .map(|(r, _)| *r)
            .chain([WASM32])
            .collect::<Vec<_>>()
            .join(", ")
    );
    Ok(())
}

/// `wasm-bench` compiled as the lab is for readers (`wasm-release`, then wasm-bindgen and
/// `wasm-opt -Oz`), bound for the web into `target/wasm-bench/`; that folder.
fn build_wasm_bench(root: &Path) -> Result<std::path::PathBuf> {
    tools::wasm_target()?;
    tools::wasm_bindgen_cli(root)?;
    cmd::cargo(&[
        "build",
        "--package",
        "wasm-bench",
        "--lib",
        "--target",
        tools::WASM_TARGET,
        "--profile",
        "wasm-release",
    ])
    .run()?;
    let raw = site::target_dir(root)
        .join(tools::WASM_TARGET)
        .join("wasm-release")
        .join("wasm_bench.wasm");
    let dir = site::target_dir(root).join("wasm-bench");
    site::bind_and_shrink(&raw, &dir, "wasm_bench", tools::wasm_opt(root).as_deref())?;
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments() {
        assert_eq!(Args::parse(&[]).unwrap(), Args::default());
        let a = Args::parse(&["--runtime", "wasm32", "--quick", "--out", "/tmp/x"]).unwrap();
        assert_eq!(
            a,
            Args {
                quick: true,
                out: Some("/tmp/x"),
                machine_id: None,
                runtime: Some("wasm32")
            }
        );
        let a = Args::parse(&["--machine-id", "lab-box-2c"]).unwrap();
        assert_eq!(a.machine_id, Some("lab-box-2c"));
        assert!(Args::parse(&["--machine-id"]).is_err());
        assert!(Args::parse(&["--runtime", "v8"]).is_err());
        assert!(Args::parse(&["--out"]).is_err());
        assert!(Args::parse(&["--fast"]).is_err());
    }
}

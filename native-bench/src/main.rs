//! `native-bench`: measures the lab on this machine and writes `book/data/<machine-id>.json`.
//!
//! `cargo xtask bench` runs it; see `--help`. Reports (`report buckets …`) print what the lab
//! computes, as the source articles' report modes did.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand};

mod child;
mod floor;
mod glibc;
mod icount;
mod machine;
mod measure;
mod migrate;
mod only;
mod overwrite;
mod paired;
mod probes;
mod report;
mod stats;
mod suites;
mod wasm32;
mod wasm_code;
mod words;

use measure::{Mode, Session};

/// Every allocation of the bench is counted, so suites can report exact bytes and allocations
/// (`course_pool::alloc_count::measure`). It forwards to the build's allocator: `System` (glibc's
/// malloc) by default — which the glibc probes (`glibc::vec_is_mmapped` and its callers, `unsafe`
/// for this reason) rely on, so a build with another allocator runs only [`suites::ALLOCATOR`]'s
/// suites — or mimalloc / jemalloc with the features `alloc-mimalloc` / `alloc-jemalloc`.
#[global_allocator]
static ALLOC: course_pool::alloc_count::CountingAlloc<Inner> =
    course_pool::alloc_count::CountingAlloc::new(INNER);

#[cfg(feature = "alloc-mimalloc")]
type Inner = mimalloc::MiMalloc;
#[cfg(feature = "alloc-mimalloc")]
const INNER: Inner = mimalloc::MiMalloc;
#[cfg(feature = "alloc-mimalloc")]
pub const RUNTIME: (&str, &str) = (
    "mimalloc",
    "mimalloc (the mimalloc crate's global allocator)",
);

#[cfg(all(feature = "alloc-jemalloc", not(feature = "alloc-mimalloc")))]
type Inner = tikv_jemallocator::Jemalloc;
#[cfg(all(feature = "alloc-jemalloc", not(feature = "alloc-mimalloc")))]
const INNER: Inner = tikv_jemallocator::Jemalloc;
#[cfg(all(feature = "alloc-jemalloc", not(feature = "alloc-mimalloc")))]
pub const RUNTIME: (&str, &str) = (
    "jemalloc",
    "jemalloc (tikv-jemallocator's global allocator)",
);

#[cfg(not(any(feature = "alloc-mimalloc", feature = "alloc-jemalloc")))]
type Inner = std::alloc::System;
#[cfg(not(any(feature = "alloc-mimalloc", feature = "alloc-jemalloc")))]
const INNER: Inner = std::alloc::System;
/// The runtime this build measures (the data's `run.runtime`) and its allocator in words.
#[cfg(not(any(feature = "alloc-mimalloc", feature = "alloc-jemalloc")))]
pub const RUNTIME: (&str, &str) = (
    bench_data::SYSTEM_RUNTIME,
    "system (Rust's System: the C library's malloc)",
);

#[derive(Parser)]
#[command(about = "Measures the Pools & Chunks lab and writes the book's data")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Runs the suites and writes OUT/MACHINE-ID.json.
    Run {
        /// A shorter run for a first look (the data says `quick`).
        #[arg(long)]
        quick: bool,
        /// Where the data file goes.
        #[arg(long, default_value = "book/data")]
        out: PathBuf,
        /// Name the file for this machine yourself (default: the CPU and core count; see
        /// `machine.rs`). The bench refuses to overwrite a file of another CPU.
        #[arg(long)]
        machine_id: Option<String>,
        /// Run only these suites (default: all). A partial run never merges into an existing
        /// file and refuses to replace one that holds other suites' figures: use --out.
        #[arg(long)]
        only: Vec<String>,
        /// Repeat the whole run this many times (default: 3 for a full run, 1 for --quick); each
        /// figure keeps every repetition and a claim must hold in each.
        #[arg(long)]
        repetitions: Option<u32>,
        /// Skip counting the instructions of hot loops (callgrind).
        #[arg(long)]
        no_instructions: bool,
    },
    /// Times the browser's bench (wasm-bench bound for the web into DIR) in headless Chromium and
    /// writes OUT/MACHINE-ID.wasm32.json.
    Wasm32 {
        /// The folder with wasm_bench.js and wasm_bench_bg.wasm.
        dir: PathBuf,
        #[arg(long)]
        quick: bool,
        #[arg(long, default_value = "book/data")]
        out: PathBuf,
        #[arg(long)]
        machine_id: Option<String>,
        /// Fresh browser processes, one per repetition (default: 3 for a full run, 1 for --quick).
        #[arg(long)]
        repetitions: Option<u32>,
    },
    /// Gives the data files written before the machine id named the CPU (issue 41) their CPU
    /// facts, from what each already records, and renames them (with their runtime siblings) to
    /// the id this bench gives that CPU; rewrites only `machine.id` and `machine.cpu`.
    MigrateIds {
        /// The data folder.
        #[arg(long, default_value = "book/data")]
        data: PathBuf,
        /// Say what would change, change nothing.
        #[arg(long)]
        dry_run: bool,
    },
    /// Prints what the lab computes, as a table or JSON.
    Report {
        #[command(subcommand)]
        report: report::Report,
        /// JSON instead of a table.
        #[arg(long, global = true)]
        json: bool,
    },
    /// Lists the suites.
    Suites,
    /// A measurement that must start in a fresh process (run by the bench itself).
    #[command(name = "__child", hide = true)]
    Child { probe: String, args: Vec<String> },
    /// Runs one paired group's member `key` for `iters` iterations inside the function callgrind
    /// counts (run under valgrind by the bench itself).
    #[command(name = "__icount", hide = true)]
    Icount { key: String, iters: u64 },
}

fn main() -> Result<()> {
    match Cli::parse().command {
        Command::Run {
            quick,
            out,
            machine_id,
            only,
            repetitions,
            no_instructions,
        } => run(
            quick,
            out,
            machine_id,
            only,
            repetitions.unwrap_or(if quick { 1 } else { 3 }).max(1),
            !no_instructions,
        ),
        Command::Wasm32 {
            dir,
            quick,
            out,
            machine_id,
            repetitions,
        } => {
            let mode = if quick { Mode::Quick } else { Mode::Full };
            let reps = repetitions.unwrap_or(if quick { 1 } else { 3 }).max(1);
            wasm32::run(&dir, mode, &out, machine_id.as_deref(), reps).map(drop)
        }
        Command::MigrateIds { data, dry_run } => migrate::run(&data, dry_run),
        Command::Icount { key, iters } => icount::child(&key, iters),
        Command::Report { report, json } => report::print(&report, json),
        Command::Child { probe, args } => probes::child(&probe, &args),
        Command::Suites => {
            for s in suites::SUITES {
                println!("{:<14} {}", s.name, s.about);
            }
            Ok(())
        }
    }
}

fn run(
    quick: bool,
    out: PathBuf,
    machine_id: Option<String>,
    only: Vec<String>,
    repetitions: u32,
    instructions: bool,
) -> Result<()> {
    let (runtime, allocator) = RUNTIME;
    let system = runtime == bench_data::SYSTEM_RUNTIME;
    for name in &only {
        if !suites::SUITES.iter().any(|s| s.name == name) {
            bail!("no suite named {name:?} (see `native-bench suites`)");
        }
        if !system && !suites::ALLOCATOR.contains(&name.as_str()) {
            bail!(
                "suite {name:?} does not depend on the global allocator or needs glibc's: a {runtime} build runs only {}",
                suites::ALLOCATOR.join(", ")
            );
        }
    }
    let chosen: Vec<_> = suites::SUITES
        .iter()
        .filter(|s| {
            if only.is_empty() {
                system || suites::ALLOCATOR.contains(&s.name)
            } else {
                only.iter().any(|o| o == s.name)
            }
        })
        .collect();
    let machine = machine::machine(machine_id.as_deref());
    let stem = if system {
        machine.id.clone()
    } else {
        format!("{}.{runtime}", machine.id)
    };
    let path = out.join(format!("{stem}.json"));
    overwrite::check(&path, &machine)?;
    let fingerprint = measure::fingerprint()?;
    eprintln!("measuring {runtime} ({allocator}), code {fingerprint}, {repetitions} repetition(s)");
    if !only.is_empty() {
        let names: Vec<&str> = chosen.iter().map(|s| s.name).collect();
        only::check(&path, &names)?;
    }
    let mode = if quick { Mode::Quick } else { Mode::Full };
    let mut runs = Vec::new();
    for rep in 1..=repetitions {
        let mut session = Session::new(mode);
        let mut durations = Vec::new();
        for (i, suite) in chosen.iter().enumerate() {
            let started = std::time::Instant::now();
            if repetitions > 1 {
                eprintln!("[repetition {rep}/{repetitions}]");
            }
            session.begin_suite(i + 1, chosen.len(), suite.name, suite.steps);
            eprintln!("    {}", suite.about);
            (suite.run)(&mut session).with_context(|| format!("suite {}", suite.name))?;
            durations.push((suite.name, started.elapsed().as_secs_f64()));
        }
        eprintln!("suite durations (repetition {rep}/{repetitions}):");
        for (name, secs) in &durations {
            eprintln!("  {name:<18} {secs:>6.1} s");
        }
        runs.push(session.finish(machine.clone()));
    }
    if !only.is_empty() {
        // Again: the file may have appeared while the suites ran.
        let names: Vec<&str> = chosen.iter().map(|s| s.name).collect();
        only::check(&path, &names)?;
    }
    let mut file = measure::merge(runs).context("no repetition ran")?;
    file.run.fingerprint = Some(fingerprint);
    file.run.runtime = runtime.to_string();
    file.run.allocator = allocator.to_string();
    if instructions {
        icount::count(
            &mut file,
            &chosen.iter().map(|s| s.name).collect::<Vec<_>>(),
        )?;
    }
    record_clock(&mut file);
    measure::write(&file, &path)
}

/// Records in the CPU facts the clock dependent adds ran at: the instruction check's when it ran
/// (its clock is the run's), else measured now (a fraction of a second), for the facts alone.
fn record_clock(file: &mut bench_data::RunFile) {
    let Some(cpu) = file.machine.cpu.as_mut() else {
        return;
    };
    let clock = file.run.clock.clone().unwrap_or_else(|| icount::clock().0);
    cpu.measured_ghz = bench_data::cpu::measured_ghz(&clock.source, clock.max_ghz);
}

#[cfg(test)]
mod tests {
    use bench_data::RunFile;

    /// A small valid data file (one exact figure) of a test machine.
    pub fn sample_file() -> RunFile {
        RunFile::parse(&format!(
            r#"{{"schema_version": {v},
            "machine": {{"id": "test-cpu-2c", "cpu_model": "Test CPU", "logical_cores": 2,
                "memory_bytes": 1, "os": "o", "kernel": "k", "libc": "l"}},
            "run": {{"date": "2026-01-01T00:00:00Z", "rustc": "r", "commit": "c",
                "allocator": "a", "mode": "quick", "load_before": [0, 0, 0],
                "load_after": [0, 0, 0], "duration_seconds": 1}},
            "figures": {{"why_pool.1.pool.bytes": {{"title": "t", "unit": "bytes", "value": 1,
                "low": 1, "high": 1, "samples": 1, "cv": 0, "cv_plain": 0,
                "verdict": "absolute", "gate_note": ""}}}}}}"#,
            v = bench_data::SCHEMA_VERSION
        ))
        .unwrap()
    }
}

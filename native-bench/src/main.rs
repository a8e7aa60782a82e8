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
mod machine;
mod measure;
mod only;
mod paired;
mod probes;
mod report;
mod stats;
mod suites;
mod wasm_code;
mod words;

use measure::{Mode, Session};

/// Every allocation of the bench is counted, so suites can report exact bytes and allocations
/// (`bufpool::alloc_count::measure`). It forwards to `System`, i.e. glibc's malloc — which the
/// glibc probes (`glibc::vec_is_mmapped` and its callers, `unsafe` for this reason) rely on.
#[global_allocator]
static ALLOC: bufpool::alloc_count::CountingAlloc<std::alloc::System> =
    bufpool::alloc_count::CountingAlloc::new(std::alloc::System);

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
        /// Name the file for this machine yourself (default: CPU model and core count).
        #[arg(long)]
        machine_id: Option<String>,
        /// Run only these suites (default: all). A partial run never merges into an existing
        /// file and refuses to replace one that holds other suites' figures: use --out.
        #[arg(long)]
        only: Vec<String>,
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
}

fn main() -> Result<()> {
    match Cli::parse().command {
        Command::Run {
            quick,
            out,
            machine_id,
            only,
        } => run(quick, out, machine_id, only),
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

fn run(quick: bool, out: PathBuf, machine_id: Option<String>, only: Vec<String>) -> Result<()> {
    for name in &only {
        if !suites::SUITES.iter().any(|s| s.name == name) {
            bail!("no suite named {name:?} (see `native-bench suites`)");
        }
    }
    let chosen: Vec<_> = suites::SUITES
        .iter()
        .filter(|s| only.is_empty() || only.iter().any(|o| o == s.name))
        .collect();
    let machine = machine::machine(machine_id.as_deref());
    let path = out.join(format!("{}.json", machine.id));
    if !only.is_empty() {
        let names: Vec<&str> = chosen.iter().map(|s| s.name).collect();
        only::check(&path, &names)?;
    }
    let mode = if quick { Mode::Quick } else { Mode::Full };
    let mut session = Session::new(mode);
    let mut durations = Vec::new();
    for (i, suite) in chosen.iter().enumerate() {
        let started = std::time::Instant::now();
        session.begin_suite(i + 1, chosen.len(), suite.name, suite.steps);
        eprintln!("    {}", suite.about);
        (suite.run)(&mut session).with_context(|| format!("suite {}", suite.name))?;
        durations.push((suite.name, started.elapsed().as_secs_f64()));
    }
    eprintln!("suite durations:");
    for (name, secs) in &durations {
        eprintln!("  {name:<18} {secs:>6.1} s");
    }
    if !only.is_empty() {
        // Again: the file may have appeared while the suites ran.
        let names: Vec<&str> = chosen.iter().map(|s| s.name).collect();
        only::check(&path, &names)?;
    }
    let file = session.finish(machine);
    std::fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
    // Refuse to write what the book could not read back.
    bench_data::RunFile::parse(&file.to_json())
        .map_err(|e| anyhow::anyhow!("bench produced bad data for {}: {e}", path.display()))?;
    std::fs::write(&path, file.to_json())
        .with_context(|| format!("cannot write {}", path.display()))?;
    eprintln!(
        "wrote {} ({} figures, {:.0} s, load {:.2} → {:.2})",
        path.display(),
        file.figures.len(),
        file.run.duration_seconds,
        file.run.load_before[0],
        file.run.load_after[0]
    );
    Ok(())
}

//! The instruction check: how much work one iteration of a measured loop does, and whether its
//! time is possible on this core.
//!
//! Hardware counters are not available on the VMs this book is measured on, so the bench counts
//! with callgrind, on its own loop: it re-executes itself as `__icount KEY ITERS` under
//! `valgrind --tool=callgrind --collect-atstart=no --toggle-collect=native_bench_icount_window
//! --dump-instr=yes`. The child runs the suite of `KEY` with every paired group skipped but the
//! one holding `KEY`, warms that member up, and runs `ITERS` iterations of exactly the closure
//! the timing ran inside [`crate::paired::native_bench_icount_window`], the one function
//! callgrind counts. Instructions per iteration are the count ÷ `ITERS` (the two clock reads of
//! the call add ~100 instructions to millions).
//!
//! Macro-ops are what a core's front end hands on: one per instruction, except that a compare
//! directly followed by its conditional jump enters as one ([`fusion`]). The bench disassembles
//! every function the window executed (objdump, over the addresses callgrind saw run) and takes
//! each fused pair as often as it ran ([`callgrind`]'s per-instruction counts): macro-ops per
//! iteration are the instructions less those pairs. An instruction that decodes to several
//! macro-ops still counts as one, so the count never overstates.
//!
//! The implied rate is macro-ops per iteration ÷ (ns per iteration × the core's clock). The clock
//! is measured during the run: a chain of dependent register adds, one cycle each, timed at its
//! best of many tries ([`clock`]); it is the clock the core ran the bench at, turbo included. The
//! bound is the core's sustained width ([`width`]): the most macro-ops per cycle its narrowest
//! stage passes. A figure over it cannot be right as a time (the loop measured is not the loop
//! counted, or the clock is wrong): it is not citable as an absolute value. Every assumption leans
//! towards a possible time: the fastest clock seen, the widest published width, every pair the
//! core may fuse.

mod callgrind;
mod fusion;
mod width;

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;
use std::sync::OnceLock;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use bench_data::{Clock, Instructions, Listing, RunFile, Unit, Verdict};

/// Timings under this (ns per iteration) are the hot path the check covers.
pub const HOT_NS: f64 = 5.0;
/// Iterations counted per figure.
const ITERS: u64 = 200_000;
/// The loop whose machine code the Method chapter shows.
pub const LISTED: &str = "rent_return.16.pool";

static TARGET: OnceLock<(String, u64)> = OnceLock::new();

/// In a `__icount` child: the member to count and its iterations.
pub fn target() -> Option<(String, u64)> {
    TARGET.get().cloned()
}

/// The `__icount` child: runs the suite of `key` until its group runs the window (which exits).
pub fn child(key: &str, iters: u64) -> Result<()> {
    let _ = TARGET.set((key.to_string(), iters));
    let suite = crate::only::suite_of(key);
    let Some(s) = crate::suites::SUITES.iter().find(|s| s.name == suite) else {
        bail!("no suite {suite:?} for {key}");
    };
    let mut session = crate::measure::Session::new(crate::measure::Mode::Quick);
    (s.run)(&mut session)?;
    bail!("{key} is not a member of a paired group of {suite}")
}

/// Counts the hot figures of `file` (suites `suites`), records the clock and the bound, and
/// marks the impossible ones; adds the listing of [`LISTED`]. Without valgrind, says so and
/// records nothing.
pub fn count(file: &mut RunFile, suites: &[&str]) -> Result<()> {
    if Command::new("valgrind").arg("--version").output().is_err() {
        eprintln!("instruction check skipped: valgrind is not installed");
        return Ok(());
    }
    let exe = std::env::current_exe().context("cannot find the bench binary")?;
    let (clock, fusion) = clock();
    eprintln!(
        "instruction check: clock {:.2} GHz ({}); bound {} macro-ops per cycle ({}); {}",
        clock.max_ghz,
        clock.source,
        clock.sustained_width,
        clock.sustained_width_source,
        fusion.words()
    );
    let keys: Vec<String> = file
        .figures
        .iter()
        .filter(|(k, f)| {
            f.unit == Unit::Nanoseconds
                && f.value < HOT_NS
                && suites.contains(&crate::only::suite_of(k))
        })
        .map(|(k, _)| k.clone())
        .collect();
    let dir = std::env::temp_dir().join(format!("native-bench-icount-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let mut code = Code::default();
    for (i, key) in keys.iter().enumerate() {
        let out = dir.join(format!("{key}.callgrind"));
        let status = Command::new("valgrind")
            .args([
                "--tool=callgrind",
                "--collect-atstart=no",
                "--toggle-collect=native_bench_icount_window",
                "--demangle=no",
                "--dump-instr=yes",
            ])
            .arg(format!("--callgrind-out-file={}", out.display()))
            .arg(&exe)
            .args(["__icount", key, &ITERS.to_string()])
            .output()
            .with_context(|| format!("cannot run valgrind for {key}"))?;
        let Ok(text) = std::fs::read_to_string(&out) else {
            eprintln!("  {key}: no callgrind output (not a paired member?)");
            continue;
        };
        if !status.status.success() {
            eprintln!("  {key}: the child failed; not counted");
            continue;
        }
        let costs = callgrind::costs(&text);
        let total: u64 = costs.iter().map(|c| c.count).sum();
        if total == 0 {
            eprintln!("  {key}: nothing counted");
            continue;
        }
        let (fused, unread) = code.fused(&costs, fusion);
        if unread > 0 {
            eprintln!(
                "  {key}: {unread} executed instructions in code objdump could not read (counted unfused)"
            );
        }
        let per_iteration = total as f64 / ITERS as f64;
        let macro_ops = (total - fused.min(total)) as f64 / ITERS as f64;
        let f = file.figures.get_mut(key).expect("key from the file");
        let cycles = f.value * clock.max_ghz;
        f.instructions = Some(Instructions {
            per_iteration,
            implied_ipc: per_iteration / cycles,
            macro_ops_per_iteration: Some(macro_ops),
            implied_mops_per_cycle: Some(macro_ops / cycles),
        });
        let over = f.over_bound(Some(&clock));
        eprintln!(
            "  [{}/{}] {key}: {per_iteration:.1} instructions, {macro_ops:.1} macro-ops, {:.3} ns → {:.2} macro-ops per cycle (bound {}){}",
            i + 1,
            keys.len(),
            f.value,
            macro_ops / cycles,
            clock.sustained_width,
            if over { ": OVER" } else { "" }
        );
        if over {
            f.verdict = f.verdict.min(Verdict::RatioOnly);
            let check = lab_text::tr::fill(
                bench_data::CHECK_MOPS,
                &[
                    &format!("{macro_ops:.1}"),
                    &format!("{per_iteration:.1}"),
                    &format!("{:.3}", f.value),
                    &format!("{:.1}", macro_ops / cycles),
                    &format!("{:.2}", clock.max_ghz),
                    &clock.sustained_width,
                ],
            );
            f.gate_note = format!("{}; instruction check: {check}", f.gate_note);
        }
        if key == LISTED
            && let Some((symbol, cost)) = callgrind::per_function(&costs)
                .into_iter()
                .max_by_key(|(_, c)| *c)
            && let Some(listing) = disassemble(&exe, &symbol, cost as f64 / total as f64)
        {
            file.listings.insert(key.clone(), listing);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    file.run.clock = Some(clock);
    Ok(())
}

/// A stretch of code as objdump read it: runs of adjacent instructions (None: unreadable).
type Disassembly = Option<Vec<Vec<fusion::Insn>>>;

/// The disassemblies the check has read, by object and address range: the windows of many
/// figures run the same functions (the clock reads, the group's routine).
#[derive(Default)]
struct Code {
    read: HashMap<(String, u64, u64), Disassembly>,
}

impl Code {
    /// Executions of fused pairs among `costs` (one window's per-instruction counts), and how
    /// many executed instructions lay in code objdump could not read (counted unfused).
    fn fused(&mut self, costs: &[callgrind::Cost], rule: width::Fusion) -> (u64, u64) {
        let mut functions: HashMap<(&str, &str), Vec<&callgrind::Cost>> = HashMap::new();
        for c in costs {
            functions
                .entry((&c.object, &c.function))
                .or_default()
                .push(c);
        }
        let (mut fused, mut unread) = (0, 0);
        for ((object, _), run) in functions {
            let lo = run.iter().map(|c| c.address).min().unwrap_or(0);
            let hi = run.iter().map(|c| c.address).max().unwrap_or(0);
            let code = self
                .read
                .entry((object.to_string(), lo, hi))
                .or_insert_with(|| objdump_range(object, lo, hi + 1));
            let counts: HashMap<u64, u64> = run.iter().map(|c| (c.address, c.count)).collect();
            match code {
                Some(runs) => fused += fusion::fused_pairs(runs, &counts, rule),
                None => unread += counts.values().sum::<u64>(),
            }
        }
        (fused, unread)
    }
}

/// objdump's instructions of `object` from `start` to before `stop` (addresses relative to the
/// object, as callgrind gives them); None when objdump cannot read it (`[vdso]`, `???`).
fn objdump_range(object: &str, start: u64, stop: u64) -> Disassembly {
    if !Path::new(object).is_file() {
        return None;
    }
    let out = Command::new("objdump")
        .args(["-d", "--no-show-raw-insn", "-M", "intel"])
        .arg(format!("--start-address={start:#x}"))
        .arg(format!("--stop-address={stop:#x}"))
        .arg(object)
        .output()
        .ok()?;
    let runs = fusion::parse_objdump(&String::from_utf8_lossy(&out.stdout));
    (out.status.success() && !runs.is_empty()).then_some(runs)
}

/// objdump's disassembly of `symbol` (mangled) in `exe`.
fn disassemble(exe: &Path, symbol: &str, share: f64) -> Option<Listing> {
    let out = Command::new("objdump")
        .args(["-d", "--no-show-raw-insn", "-M", "intel"])
        .arg(format!("--disassemble={symbol}"))
        .arg(exe)
        .output()
        .ok()?;
    let text = demangle(&String::from_utf8_lossy(&out.stdout));
    let mut function = String::new();
    let mut lines = Vec::new();
    for line in text.lines() {
        if line.ends_with(">:") {
            function = line
                .split_once('<')
                .map_or(line, |(_, n)| n.trim_end_matches(">:"))
                .to_string();
        } else if !function.is_empty() && line.starts_with(' ') && line.contains(':') {
            lines.push(line.trim().replace('\t', " "));
        }
    }
    (!lines.is_empty()).then_some(Listing {
        function,
        share,
        lines,
    })
}

/// Rust's legacy symbols in `text` demangled by `c++filt` (binutils), when it is there.
fn demangle(text: &str) -> String {
    use std::io::Write;
    let child = Command::new("c++filt")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn();
    let Ok(mut child) = child else {
        return text.to_string();
    };
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(text.as_bytes());
    }
    match child.wait_with_output() {
        Ok(out) if out.status.success() => String::from_utf8_lossy(&out.stdout).into_owned(),
        _ => text.to_string(),
    }
}

/// The core's clock during the run, its sustained width (the bound) and the pairs it fuses.
pub fn clock() -> (Clock, width::Fusion) {
    use bench_data::bound::{
        CLOCK_MEASURED, CLOCK_MEASURED_NOMINAL, CLOCK_NOMINAL, CLOCK_NOMINAL_FASTER, CLOCK_UNKNOWN,
    };
    use lab_text::tr::fill;
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let nominal = cpuinfo
        .lines()
        .find(|l| l.starts_with("cpu MHz"))
        .and_then(|l| l.split_once(':'))
        .and_then(|(_, v)| v.trim().parse::<f64>().ok())
        .map(|mhz| mhz / 1000.0);
    let measured = measured_ghz();
    let ghz = |x: f64| format!("{x:.2}");
    let (max_ghz, source) = match (measured, nominal) {
        (Some(m), Some(n)) if m >= n => (m, fill(CLOCK_MEASURED_NOMINAL, &[&ghz(n)])),
        (Some(m), Some(n)) => (n, fill(CLOCK_NOMINAL_FASTER, &[&ghz(n), &ghz(m)])),
        (Some(m), None) => (m, CLOCK_MEASURED.into()),
        (None, Some(n)) => (n, CLOCK_NOMINAL.into()),
        (None, None) => (5.0, CLOCK_UNKNOWN.into()),
    };
    let core = width::sustained_width(&cpuinfo);
    let clock = Clock {
        max_ghz,
        source,
        sustained_width: core.width,
        sustained_width_source: core.source,
        fusion: Some(core.fusion.words().to_string()),
    };
    (clock, core.fusion)
}

#[cfg(target_arch = "x86_64")]
fn measured_ghz() -> Option<f64> {
    const ROUNDS: u64 = 20_000;
    let mut best = f64::INFINITY;
    for _ in 0..200 {
        let t = Instant::now();
        let mut x: u64 = 0;
        let one: u64 = std::hint::black_box(1);
        for _ in 0..ROUNDS {
            // SAFETY: 100 register-only adds into `x`; no memory, no stack.
            unsafe {
                std::arch::asm!(
                    ".rept 100",
                    "add {x}, {one}",
                    ".endr",
                    x = inout(reg) x,
                    one = in(reg) one,
                    options(nomem, nostack),
                );
            }
        }
        std::hint::black_box(x);
        let ns = t.elapsed().as_nanos() as f64;
        best = best.min(ns);
    }
    let cycles = (ROUNDS * 100) as f64;
    (best > 0.0).then(|| cycles / best)
}

#[cfg(not(target_arch = "x86_64"))]
fn measured_ghz() -> Option<f64> {
    None
}

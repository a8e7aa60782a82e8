//! The instruction check: how many instructions one iteration of a measured loop executes, and
//! whether its time is possible on this core.
//!
//! Hardware counters are not available on the VMs this book is measured on, so the bench counts
//! with callgrind, on its own loop: it re-executes itself as `__icount KEY ITERS` under
//! `valgrind --tool=callgrind --collect-atstart=no --toggle-collect=native_bench_icount_window`.
//! The child runs the suite of `KEY` with every paired group skipped but the one holding `KEY`,
//! warms that member up, and runs `ITERS` iterations of exactly the closure the timing ran inside
//! [`crate::paired::native_bench_icount_window`], the one function callgrind counts. Instructions
//! per iteration are the count ÷ `ITERS` (the two clock reads of the call add ~100 instructions
//! to millions).
//!
//! The implied rate is instructions per iteration ÷ (ns per iteration × the core's clock). The
//! clock is measured during the run: a chain of dependent register adds, one cycle each, timed
//! at its best of many tries ([`clock`]); it is the clock the core ran the bench at, turbo
//! included. A figure whose implied rate is over the core's retire width ([`retire_width`]) cannot
//! be right as a time (the loop does less than counted, or the clock lies): it is not citable as an
//! absolute value.

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

/// Counts the hot figures of `file` (suites `suites`), records the clock, and marks the
/// impossible ones; adds the listing of [`LISTED`]. Without valgrind, says so and records nothing.
pub fn count(file: &mut RunFile, suites: &[&str]) -> Result<()> {
    if Command::new("valgrind").arg("--version").output().is_err() {
        eprintln!("instruction check skipped: valgrind is not installed");
        return Ok(());
    }
    let exe = std::env::current_exe().context("cannot find the bench binary")?;
    let clock = clock();
    eprintln!(
        "instruction check: clock {:.2} GHz ({}), retire width {} ({})",
        clock.max_ghz, clock.source, clock.max_ipc, clock.max_ipc_source
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
    for (i, key) in keys.iter().enumerate() {
        let out = dir.join(format!("{key}.callgrind"));
        let status = Command::new("valgrind")
            .args([
                "--tool=callgrind",
                "--collect-atstart=no",
                "--toggle-collect=native_bench_icount_window",
                "--demangle=no",
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
        let costs = self_costs(&text);
        let total: u64 = costs.iter().map(|(_, c)| c).sum();
        if total == 0 {
            eprintln!("  {key}: nothing counted");
            continue;
        }
        let per_iteration = total as f64 / ITERS as f64;
        let f = file.figures.get_mut(key).expect("key from the file");
        let implied_ipc = per_iteration / (f.value * clock.max_ghz);
        eprintln!(
            "  [{}/{}] {key}: {per_iteration:.1} instructions, {:.3} ns → IPC {implied_ipc:.2}",
            i + 1,
            keys.len(),
            f.value
        );
        f.instructions = Some(Instructions {
            per_iteration,
            implied_ipc,
        });
        if implied_ipc > clock.max_ipc {
            f.verdict = f.verdict.min(Verdict::RatioOnly);
            f.gate_note = format!(
                "{}; instruction check: {per_iteration:.1} instructions per iteration in {:.3} ns need {implied_ipc:.1} per cycle at {:.2} GHz, over the core's {}: not citable as a time",
                f.gate_note, f.value, clock.max_ghz, clock.max_ipc
            );
        }
        if key == LISTED
            && let Some((symbol, cost)) = costs.iter().max_by_key(|(_, c)| *c)
            && let Some(listing) = disassemble(&exe, symbol, *cost as f64 / total as f64)
        {
            file.listings.insert(key.clone(), listing);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    file.run.clock = Some(clock);
    Ok(())
}

/// Self cost (instructions) per function of a callgrind output file (`--demangle=no`): cost
/// lines count for the current `fn=`, except the inclusive cost line after each `calls=`.
pub fn self_costs(text: &str) -> Vec<(String, u64)> {
    let mut names: std::collections::HashMap<String, String> = Default::default();
    let mut costs: std::collections::BTreeMap<String, u64> = Default::default();
    let mut current = String::new();
    let mut skip = false;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("fn=") {
            current = compressed_name(rest, &mut names);
            continue;
        }
        if let Some(rest) = line.strip_prefix("cfn=") {
            // Names a callee (and may define its id); the cost line after `calls=` is skipped.
            compressed_name(rest, &mut names);
            continue;
        }
        if line.starts_with("calls=") {
            skip = true;
            continue;
        }
        let first = line.bytes().next();
        if matches!(first, Some(b'0'..=b'9' | b'+' | b'-' | b'*')) {
            if skip {
                skip = false;
                continue;
            }
            if let Some(ir) = line
                .split_whitespace()
                .nth(1)
                .and_then(|x| x.parse::<u64>().ok())
            {
                *costs.entry(current.clone()).or_default() += ir;
            }
        }
    }
    costs.into_iter().filter(|(_, c)| *c > 0).collect()
}

/// `(12) name` defines id 12; `(12)` refers to it.
fn compressed_name(field: &str, names: &mut std::collections::HashMap<String, String>) -> String {
    let field = field.trim();
    match field.strip_prefix('(').and_then(|r| r.split_once(')')) {
        Some((id, name)) if !name.trim().is_empty() => {
            names.insert(id.to_string(), name.trim().to_string());
            name.trim().to_string()
        }
        Some((id, _)) => names.get(id).cloned().unwrap_or_default(),
        None => field.to_string(),
    }
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

/// The core's clock during the run and its retire width.
pub fn clock() -> Clock {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let nominal = cpuinfo
        .lines()
        .find(|l| l.starts_with("cpu MHz"))
        .and_then(|l| l.split_once(':'))
        .and_then(|(_, v)| v.trim().parse::<f64>().ok())
        .map(|mhz| mhz / 1000.0);
    let measured = measured_ghz();
    let (max_ghz, source) = match (measured, nominal) {
        (Some(m), Some(n)) if m >= n => (
            m,
            format!(
                "measured: dependent register adds, best of 200 tries; /proc/cpuinfo says {n:.2} GHz"
            ),
        ),
        (Some(m), Some(n)) => (
            n,
            format!("/proc/cpuinfo's {n:.2} GHz (dependent adds ran at {m:.2} GHz)"),
        ),
        (Some(m), None) => (
            m,
            "measured: dependent register adds, best of 200 tries".into(),
        ),
        (None, Some(n)) => (n, "/proc/cpuinfo's cpu MHz".into()),
        (None, None) => (5.0, "unknown: 5 GHz assumed".into()),
    };
    let (max_ipc, max_ipc_source) = retire_width(&cpuinfo);
    Clock {
        max_ghz,
        source,
        max_ipc,
        max_ipc_source,
    }
}

/// The retire width (instructions per cycle at most) of the CPU `/proc/cpuinfo` describes.
/// Counted in macro-ops: a fused compare-and-branch retires as one, so a loop may exceed the
/// width by its fused pairs; the widths are the published ones, not lowered for it.
pub fn retire_width(cpuinfo: &str) -> (f64, String) {
    let field = |name: &str| {
        cpuinfo
            .lines()
            .find(|l| l.split(':').next().is_some_and(|k| k.trim() == name))
            .and_then(|l| l.split_once(':'))
            .map(|(_, v)| v.trim().to_string())
            .unwrap_or_default()
    };
    let family: u32 = field("cpu family").parse().unwrap_or(0);
    let model: u32 = field("model").parse().unwrap_or(0);
    match field("vendor_id").as_str() {
        "AuthenticAMD" if family >= 23 => (
            8.0,
            format!("AMD Zen (family {family}): retires up to 8 macro-ops per cycle"),
        ),
        "GenuineIntel" if family == 6 && matches!(model, 85 | 79 | 63) => (
            4.0,
            format!("Intel Skylake-SP class (model {model}): retires 4 fused µops per cycle"),
        ),
        "GenuineIntel" if family == 6 && matches!(model, 106 | 108 | 140 | 141) => (
            5.0,
            format!("Intel Sunny/Willow Cove (model {model}): 5 per cycle"),
        ),
        vendor => (
            8.0,
            format!(
                "{vendor} family {family} model {model}: 8 per cycle assumed (the widest x86 core)"
            ),
        ),
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn callgrind_self_costs() {
        let text = "events: Ir\nfn=(1) outer\n0 10\ncfn=(2) inner\ncalls=1 0\n0 500\n+2 5\nfn=(2)\n* 500\nfn=(1)\n0 1\n";
        let costs = self_costs(text);
        assert_eq!(costs, vec![("inner".into(), 500), ("outer".into(), 16)]);
    }

    #[test]
    fn retire_widths() {
        let amd = "vendor_id\t: AuthenticAMD\ncpu family\t: 26\nmodel\t\t: 2\n";
        assert_eq!(retire_width(amd).0, 8.0);
        let skx = "vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 85\n";
        assert_eq!(retire_width(skx).0, 4.0);
    }
}

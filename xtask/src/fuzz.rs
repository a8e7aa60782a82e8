//! `cargo xtask fuzz [--seconds N] [--fast] [--minimize] [TARGET]`: the coverage-guided
//! fuzz targets of `fuzz/` (cargo-fuzz, libFuzzer, nightly), one target at a time, each for N
//! seconds (default [`DEFAULT_SECONDS`]: about three minutes for all nine).
//!
//! - `--fast` builds without the address sanitizer (`cargo fuzz -s none`): several times the
//!   executions per second. The parsers themselves are safe Rust; the sanitizer watches the
//!   `unsafe` of `bufpool` that the widget and quiz targets run through, so the default build
//!   keeps it. Without it, the contracts' assertions, panics, hangs and the memory limit are
//!   still caught: for long runs that grow the corpus, which a sanitized run then replays.
//! - `--no-trace-compares` builds without libFuzzer's comparison tracing (`cargo fuzz
//!   --no-trace-compares`): on the directive and quiz targets, whose coverage had stopped growing,
//!   several times the executions per second, at the cost of the guidance that finds magic
//!   values in comparisons. For long runs on a corpus that a traced run grew.
//! - `--minimize` first merges each target's corpus into its smallest set with the same coverage
//!   (`cargo fuzz cmin`), so the committed corpora and the replay step stay small.
//!
//! Each target grows its corpus in `fuzz/corpus/<target>/`; a crash, hang (`-timeout`) or memory blow-up (`-rss_limit_mb`) is
//! saved in `fuzz/artifacts/<target>/` and minimized (`cargo fuzz tmin`), for the replay test
//! (`fuzz-contracts/tests/replay.rs`, a step of `cargo xtask test`) to keep fixed once committed.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, bail};

use crate::{cmd, tools};

/// Seconds per target when none is given.
pub const DEFAULT_SECONDS: u64 = 20;

/// A run longer than this per input is a hang.
const TIMEOUT_SECONDS: u64 = 10;

/// What one target's run did.
struct Run {
    target: String,
    executions: u64,
    coverage: String,
    corpus: usize,
    seconds: f64,
    failure: Option<PathBuf>,
}

/// What `cargo xtask fuzz` was asked to do.
#[derive(Debug, PartialEq, Eq)]
struct Args<'a> {
    seconds: u64,
    only: Option<&'a str>,
    fast: bool,
    no_trace_compares: bool,
    minimize: bool,
}

pub fn run(root: &Path, args: &[&str]) -> Result<()> {
    let a = parse_args(args)?;
    let (seconds, only) = (a.seconds, a.only);
    let fuzz = root.join("fuzz");
    let mut targets: Vec<String> = std::fs::read_dir(fuzz.join("fuzz_targets"))
        .context("cannot list fuzz/fuzz_targets")?
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().to_string();
            name.strip_suffix(".rs").map(str::to_string)
        })
        .collect();
    targets.sort();
    if let Some(t) = only {
        if !targets.iter().any(|x| x == t) {
            bail!(
                "no fuzz target `{t}`: the targets are {}",
                targets.join(", ")
            );
        }
        targets.retain(|x| x == t);
    }
    tools::cargo_fuzz()?;
    // The build options every cargo-fuzz command of this run takes, so they share one build.
    let mut flags: Vec<&str> = Vec::new();
    if a.fast {
        flags.extend(["-s", "none"]);
    }
    if a.no_trace_compares {
        flags.push("--no-trace-compares");
    }
    let build_flags: &[&str] = &flags;
    crate::site::step(if a.fast {
        "building the fuzz targets (nightly, libFuzzer, no sanitizer: --fast)"
    } else {
        "building the fuzz targets (nightly, libFuzzer, address sanitizer)"
    });
    let mut build = vec!["+nightly", "fuzz", "build", "-O"];
    build.extend(build_flags);
    cmd::new("cargo", &build).run()?;
    if a.minimize {
        for t in &targets {
            let before = files(&fuzz.join("corpus").join(t)).len();
            crate::site::step(&format!("minimizing the corpus of `{t}` ({before} files)"));
            let mut cmin = vec!["+nightly", "fuzz", "cmin", "-O"];
            cmin.extend(build_flags);
            cmin.push(t);
            cmd::new("cargo", &cmin).run()?;
            println!(
                "{t}: {before} → {} files",
                files(&fuzz.join("corpus").join(t)).len()
            );
        }
    }
    let logs = crate::site::target_dir(root).join("fuzz-logs");
    std::fs::create_dir_all(&logs)?;
    let mut runs = Vec::new();
    for t in &targets {
        crate::site::step(&format!("fuzzing `{t}` for {seconds} s"));
        runs.push(one(&fuzz, &logs, t, seconds, build_flags)?);
    }
    println!(
        "\n{:<12} {:>14} {:>8} {:>10} {:>8}  result",
        "target", "executions", "seconds", "coverage", "corpus"
    );
    for r in &runs {
        println!(
            "{:<12} {:>14} {:>8.0} {:>10} {:>8}  {}",
            r.target,
            r.executions,
            r.seconds,
            r.coverage,
            r.corpus,
            r.failure
                .as_ref()
                .map_or("no crash, no hang".into(), |p| format!(
                    "FAILED: {}",
                    p.display()
                ))
        );
    }
    let failed: Vec<&Run> = runs.iter().filter(|r| r.failure.is_some()).collect();
    if !failed.is_empty() {
        bail!(
            "{} target(s) broke their contract; the minimized inputs are in fuzz/artifacts/ (commit them with the fix: the replay test keeps them fixed). Logs: {}",
            failed.len(),
            logs.display()
        );
    }
    Ok(())
}

fn parse_args<'a>(args: &[&'a str]) -> Result<Args<'a>> {
    let mut a = Args {
        seconds: DEFAULT_SECONDS,
        only: None,
        fast: false,
        no_trace_compares: false,
        minimize: false,
    };
    let number = |flag: &str, n: Option<&&str>| -> Result<u64> {
        let n = n.with_context(|| format!("{flag} needs a number"))?;
        n.parse()
            .with_context(|| format!("{flag} {n}: not a whole number"))
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match *arg {
            "--seconds" => a.seconds = number("--seconds", it.next())?,
            "--fast" => a.fast = true,
            "--no-trace-compares" => a.no_trace_compares = true,
            "--minimize" => a.minimize = true,
            t if !t.starts_with('-') && a.only.is_none() => a.only = Some(t),
            other => bail!(
                "cargo xtask fuzz [--seconds N] [--fast] [--no-trace-compares] [--minimize] [TARGET]: unknown argument {other:?}"
            ),
        }
    }
    Ok(a)
}

/// Fuzzes `target` for `seconds`; on a failure, minimizes the input it saved.
///
/// A `timeout-…` is run again alone first: one that finishes within [`TIMEOUT_SECONDS`] was
/// starved by the machine's load, not hung (the widget run of 2026-12-02 beside two other
/// fuzzers stopped at a capacity input that takes 0.66 s alone). It is moved out of the
/// artifacts into the logs' `slow/` folder, said, and the run goes on for the time left.
fn one(fuzz: &Path, logs: &Path, target: &str, seconds: u64, build_flags: &[&str]) -> Result<Run> {
    let artifacts = fuzz.join("artifacts").join(target);
    let started = Instant::now();
    let mut executions = 0;
    let mut coverage = "?".to_string();
    let mut part = 0;
    let failure = loop {
        let before = files(&artifacts);
        let left = seconds.saturating_sub(started.elapsed().as_secs()).max(1);
        let err = logs.join(format!("{target}.err"));
        let status = fuzz_run(fuzz, build_flags)
            .args([target, "--"])
            .arg(format!("-max_total_time={left}"))
            .arg(format!("-timeout={TIMEOUT_SECONDS}"))
            .args(["-rss_limit_mb=2048", "-print_final_stats=1"])
            .stdout(std::fs::File::create(logs.join(format!("{target}.log")))?)
            .stderr(std::fs::File::create(&err)?)
            .status()
            .context("cannot start cargo fuzz run")?;
        let text = std::fs::read_to_string(&err).unwrap_or_default();
        if part > 0 || !status.success() {
            // Each part's log is kept: the next part's run writes over `<target>.err`.
            std::fs::copy(&err, logs.join(format!("{target}.{part}.err")))?;
        }
        part += 1;
        let (n, cov) = stats(&text);
        executions += n;
        if cov != "?" {
            coverage = cov;
        }
        let (slow, new): (Vec<PathBuf>, Vec<PathBuf>) = files(&artifacts)
            .into_iter()
            .filter(|p| !before.contains(p))
            .partition(|p| is_slow_unit(p));
        // libFuzzer saves an input that took over 10 s as `slow-unit-…` and goes on: it finished,
        // so it broke no contract (a hang is a `timeout-…`). Said, not failed; `.gitignore`
        // keeps them out.
        for p in &slow {
            eprintln!(
                "{target}: {} took long (libFuzzer's slow unit, not a contract break; on a loaded machine \
                 any input can): time it with `cargo run --release -p fuzz-contracts --example slowest {target}`",
                p.display()
            );
        }
        if status.success() && new.is_empty() {
            break None;
        }
        let Some(input) = new.first() else {
            bail!(
                "`cargo fuzz run {target}` failed ({status}) without saving an input: see {}",
                err.display()
            );
        };
        if new.len() == 1
            && is_timeout(input)
            && let Some(alone) = finishes_alone(fuzz, target, input, build_flags)?
        {
            let slow_dir = logs.join("slow");
            std::fs::create_dir_all(&slow_dir)?;
            let kept = slow_dir.join(input.file_name().unwrap_or_default());
            std::fs::rename(input, &kept)?;
            eprintln!(
                "{target}: {} hit the {TIMEOUT_SECONDS}-s limit under the machine's load but takes \
                     {alone:.2} s alone: not a hang (kept in {}); going on",
                input.display(),
                kept.display()
            );
            if started.elapsed().as_secs() + 5 < seconds {
                continue;
            }
            break None;
        }
        eprintln!(
            "{target}: {} breaks the contract; minimizing it",
            input.display()
        );
        // `tmin` saves `minimized-from-<hash>` beside the input; with the run's build flags
        // setting, so it reuses the build instead of making another.
        let input_path = input.to_string_lossy();
        let timeout = format!("-timeout={TIMEOUT_SECONDS}");
        let mut tmin = vec!["+nightly", "fuzz", "tmin", "-O"];
        tmin.extend(build_flags);
        tmin.extend([target, &*input_path, "--", &*timeout]);
        let _ = cmd::new("cargo", &tmin).run();
        break Some(input.clone());
    };
    Ok(Run {
        target: target.to_string(),
        executions,
        coverage,
        corpus: files(&fuzz.join("corpus").join(target)).len(),
        seconds: started.elapsed().as_secs_f64(),
        failure,
    })
}

/// `cargo +nightly fuzz run -O` with the run's build flags, from the workspace root.
fn fuzz_run(fuzz: &Path, build_flags: &[&str]) -> std::process::Command {
    let mut run = std::process::Command::new("cargo");
    run.args(["+nightly", "fuzz", "run", "-O"])
        .args(build_flags)
        .current_dir(fuzz.parent().unwrap_or(fuzz));
    run
}

/// Runs `input` once through `target`'s built binary; its wall time if it finished within
/// [`TIMEOUT_SECONDS`] and broke no contract.
fn finishes_alone(
    fuzz: &Path,
    target: &str,
    input: &Path,
    build_flags: &[&str],
) -> Result<Option<f64>> {
    let started = Instant::now();
    let status = fuzz_run(fuzz, build_flags)
        .arg(target)
        .arg(input)
        .args(["--", &format!("-timeout={TIMEOUT_SECONDS}")])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .context("cannot start cargo fuzz run")?;
    let took = started.elapsed().as_secs_f64();
    Ok((status.success() && took < TIMEOUT_SECONDS as f64).then_some(took))
}

/// Whether `path` is libFuzzer's report of an input that ran past `-timeout` (`timeout-<sha1>`).
fn is_timeout(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| n.to_string_lossy().starts_with("timeout-"))
}

/// Whether `path` is libFuzzer's report of a slow input (`slow-unit-<sha1>`), not a failure.
fn is_slow_unit(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| n.to_string_lossy().starts_with("slow-unit-"))
}

/// The executions (`stat::number_of_executed_units`) and the last coverage (`cov: N`) of a
/// libFuzzer log.
fn stats(log: &str) -> (u64, String) {
    let executions = log
        .lines()
        .find_map(|l| l.strip_prefix("stat::number_of_executed_units:"))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(0);
    let coverage = log
        .lines()
        .rev()
        .find_map(|l| l.split("cov: ").nth(1))
        .and_then(|c| c.split_whitespace().next())
        .unwrap_or("?")
        .to_string();
    (executions, coverage)
}

fn files(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file())
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments() {
        let a = parse_args(&["--seconds", "900", "--fast", "--minimize", "link"]).unwrap();
        assert_eq!(
            a,
            Args {
                seconds: 900,
                only: Some("link"),
                fast: true,
                no_trace_compares: false,
                minimize: true,
            }
        );
        assert!(
            parse_args(&["--no-trace-compares"])
                .unwrap()
                .no_trace_compares
        );
        let e = |args: &[&str]| parse_args(args).unwrap_err().to_string();
        assert!(e(&["--jobs", "2"]).contains("unknown argument"));
        assert!(e(&["--seconds", "ten"]).contains("not a whole number"));
        assert!(e(&["--sanitize"]).contains("unknown argument"));
    }

    #[test]
    fn stats_of_a_log() {
        let log = "#1024 pulse cov: 12 ft: 30\n#2048 DONE cov: 17 ft: 40\nstat::number_of_executed_units: 2048\n";
        assert_eq!(stats(log), (2048, "17".to_string()));
        assert_eq!(stats(""), (0, "?".to_string()));
    }

    /// A slow input is reported, not counted as a break: the widget run of 2026-12-02 wrote one
    /// on a loaded machine and was then "minimized" as if it had crashed.
    #[test]
    fn slow_units_are_not_failures() {
        let p = |name: &str| Path::new("fuzz/artifacts/widget").join(name);
        assert!(is_slow_unit(&p(
            "slow-unit-4302601e5c4776b767a29a12846927b172f05ce1"
        )));
        for failure in ["crash-01", "timeout-f8d0", "oom-7c77", "minimized-from-ab"] {
            assert!(!is_slow_unit(&p(failure)), "{failure}");
        }
        // A timeout is run again alone before it counts (`finishes_alone`).
        assert!(is_timeout(&p("timeout-49f97c51")));
        assert!(!is_timeout(&p("slow-unit-4302")) && !is_timeout(&p("crash-01")));
    }
}

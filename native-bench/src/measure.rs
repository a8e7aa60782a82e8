//! One bench session: it runs the paired groups ([`crate::paired`]), turns their samples into what
//! the book needs (median, 95 % interval, noise; ratios of paired rounds) and applies the noise
//! gate's verdicts at the end.
//!
//! An earlier version timed each operation with criterion, one after another; on this course's
//! shared 2-core machine the same operation then differed by 1.6× within one run, and ratios of
//! such timings carried the change of load between them. Paired rounds cancel it out; criterion
//! has no mode that interleaves benchmarks, so the bench does its own timing (warm-up, calibrated
//! batches, 400 samples per operation in a full run) and its own statistics (`stats.rs`, with
//! unit tests).

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use bench_data::{Figure, Machine, Repeat, Run, RunFile, SCHEMA_VERSION, Unit, Verdict, gate};

use crate::machine;
use crate::paired::{self, Group};

/// How long to measure: `quick` for a first look, `full` for the data the book cites.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Quick,
    Full,
}

/// A timing's statistics, per iteration, in nanoseconds.
#[derive(Clone, Copy, Debug)]
pub struct Stats {
    pub median: f64,
    pub low: f64,
    pub high: f64,
    pub samples: u32,
    /// Robust coefficient of variation (see [`crate::stats`]): what the gate judges.
    pub cv: f64,
    /// Plain standard deviation ÷ mean, recorded beside it.
    pub cv_plain: f64,
}

pub struct Session {
    mode: Mode,
    figures: BTreeMap<String, Figure>,
    load_before: [f64; 3],
    started: Instant,
    progress: Progress,
    /// Per-round samples of figures measured in a paired group: (group number, ns per round).
    paired: BTreeMap<String, (usize, Vec<f64>)>,
    groups: usize,
}

/// Where the run is, for the progress lines on stderr.
#[derive(Default)]
struct Progress {
    suite: usize,
    suites: usize,
    name: &'static str,
    step: usize,
    steps: usize,
}

impl Session {
    pub fn new(mode: Mode) -> Session {
        Session {
            mode,
            figures: BTreeMap::new(),
            load_before: machine::load_average(),
            started: Instant::now(),
            progress: Progress::default(),
            paired: BTreeMap::new(),
            groups: 0,
        }
    }

    /// Whether this is a quick run (suites may measure fewer points, never other keys' meaning).
    pub fn quick(&self) -> bool {
        self.mode == Mode::Quick
    }

    /// Starts suite `index` (1-based) of `of`, which will make about `steps` timed measurements.
    pub fn begin_suite(&mut self, index: usize, of: usize, name: &'static str, steps: usize) {
        self.progress = Progress {
            suite: index,
            suites: of,
            name,
            step: 0,
            steps,
        };
        eprintln!("[suite {index}/{of}] {name}: 0/{steps}");
    }

    /// Reports one timed step of the current suite on stderr.
    pub fn step(&mut self, what: &str) {
        let p = &mut self.progress;
        p.step += 1;
        eprintln!(
            "[suite {}/{}] {}: {}/{} {what}",
            p.suite,
            p.suites,
            p.name,
            p.step,
            p.steps.max(p.step)
        );
    }

    /// Starts a progress line for one paired group; [`Session::compare`] completes it.
    pub(crate) fn begin_step(&mut self, what: &str) {
        let p = &mut self.progress;
        p.step += 1;
        eprint!(
            "[suite {}/{}] {}: {}/{} {what} … ",
            p.suite,
            p.suites,
            p.name,
            p.step,
            p.steps.max(p.step)
        );
    }

    /// Measures the operations of `group` in alternating batches ([`crate::paired`]) and records
    /// each as a figure; [`Session::ratio_of`] then pairs their rounds.
    pub fn compare(&mut self, mut group: Group<'_>) -> Result<()> {
        for m in &group.members {
            check_key(&m.key)?;
        }
        if let Some((key, iters)) = crate::icount::target() {
            // A child under callgrind: run only that member, then exit (crate::icount).
            if paired::count_window(&mut group, &key, iters) {
                std::process::exit(0);
            }
            return Ok(());
        }
        let plan = match self.mode {
            Mode::Quick => paired::Plan {
                rounds: 60,
                batch: Duration::from_micros(500),
                warm_up: Duration::from_millis(60),
            },
            Mode::Full => paired::Plan {
                rounds: 400,
                batch: Duration::from_millis(1),
                warm_up: Duration::from_millis(250),
            },
        };
        self.begin_step(&format!(
            "{} ({} side by side)",
            group.name,
            group.members.len()
        ));
        let samples = paired::measure(&mut group, plan);
        let members = group
            .members
            .iter()
            .zip(samples)
            .map(|(m, xs)| (m.key.clone(), m.title.clone(), xs))
            .collect();
        self.record_group(&group.name, members)
    }

    /// Records one paired group's samples, measured here or elsewhere (the browser's bench,
    /// `crate::wasm32`): per member its key, title and per-round ns, in round order. Each becomes
    /// a figure; [`Session::ratio_of`] then pairs their rounds.
    pub fn record_group(
        &mut self,
        name: &str,
        members: Vec<(String, String, Vec<f64>)>,
    ) -> Result<()> {
        self.groups += 1;
        let mut line = Vec::new();
        for (key, title, xs) in members {
            check_key(&key)?;
            let stats = crate::stats::summarize(&xs)
                .with_context(|| format!("no usable samples for {key}"))?;
            self.record(&key, &title, Unit::Nanoseconds, stats);
            let short = key
                .strip_prefix(name)
                .map_or(&*key, |k| k.trim_start_matches('.'));
            line.push(format!("{short} {}", describe(&stats)));
            self.paired.insert(key.clone(), (self.groups, xs));
        }
        eprintln!("{}", line.join("; "));
        Ok(())
    }

    /// Records per-iteration timings (ns) measured elsewhere, e.g. in fresh processes.
    pub fn sampled(&mut self, key: &str, title: &str, samples: &[f64]) -> Result<Stats> {
        check_key(key)?;
        let stats = crate::stats::summarize(samples)
            .with_context(|| format!("no usable samples for {key}"))?;
        self.record(key, title, Unit::Nanoseconds, stats);
        Ok(stats)
    }

    /// Records an exact figure (bytes or a count): no noise, always citable.
    pub fn exact(&mut self, key: &str, title: &str, unit: Unit, value: f64) -> Result<()> {
        check_key(key)?;
        if !value.is_finite() || value < 0.0 {
            bail!("figure {key}: exact value {value} is not a finite number ≥ 0");
        }
        let s = Stats {
            median: value,
            low: value,
            high: value,
            samples: 1,
            cv: 0.0,
            cv_plain: 0.0,
        };
        self.record(key, title, unit, s);
        Ok(())
    }

    /// Records `numerator / denominator` when both keys were measured in this run: the median
    /// of the per-round ratios when both were measured in one paired group, else the ratio of
    /// the two medians.
    pub fn ratio_of(&mut self, key: &str, title: &str, numerator: &str, denominator: &str) {
        if let (Some((gn, n)), Some((gd, d))) =
            (self.paired.get(numerator), self.paired.get(denominator))
            && gn == gd
            && n.len() == d.len()
        {
            let per_round: Vec<f64> = n
                .iter()
                .zip(d)
                .filter(|(_, d)| **d > 0.0)
                .map(|(n, d)| n / d)
                .collect();
            if let Some(stats) = crate::stats::summarize(&per_round) {
                self.record(key, title, Unit::Ratio, stats);
                return;
            }
        }
        if let (Some(n), Some(d)) = (self.stats_of(numerator), self.stats_of(denominator)) {
            self.ratio(key, title, n, d);
        }
    }

    /// The statistics recorded for `key` in this run.
    pub fn stats_of(&self, key: &str) -> Option<Stats> {
        self.figures.get(key).map(|f| Stats {
            median: f.value,
            low: f.low,
            high: f.high,
            samples: f.samples,
            cv: f.cv,
            cv_plain: f.cv_plain,
        })
    }

    /// Records `numerator / denominator`, two timings measured side by side in this session.
    pub fn ratio(&mut self, key: &str, title: &str, numerator: Stats, denominator: Stats) -> Stats {
        let div = |a: f64, b: f64| if b > 0.0 { a / b } else { 0.0 };
        let stats = Stats {
            median: div(numerator.median, denominator.median),
            low: div(numerator.low, denominator.high),
            high: div(numerator.high, denominator.low),
            samples: numerator.samples.min(denominator.samples),
            // Both sides' noise adds up in the ratio.
            cv: numerator.cv.hypot(denominator.cv),
            cv_plain: numerator.cv_plain.hypot(denominator.cv_plain),
        };
        self.record(key, title, Unit::Ratio, stats);
        stats
    }

    fn record(&mut self, key: &str, title: &str, unit: Unit, s: Stats) {
        self.figures.insert(
            key.to_string(),
            Figure {
                title: title.to_string(),
                unit,
                value: s.median,
                low: s.low.min(s.median),
                high: s.high.max(s.median),
                samples: s.samples,
                cv: s.cv,
                cv_plain: s.cv_plain,
                // Decided in `finish`, once the load after the run is known.
                verdict: Verdict::Unfit,
                gate_note: String::new(),
                repeats: Vec::new(),
                instructions: None,
            },
        );
    }

    /// Applies the noise gate with the machine's load over the whole run and builds the data file.
    pub fn finish(mut self, machine: Machine) -> RunFile {
        let load_after = machine::load_average();
        let load = self.load_before[0].max(load_after[0]) / f64::from(machine.logical_cores.max(1));
        for f in self.figures.values_mut() {
            let (verdict, note) = gate(f.unit, f.cv, load);
            f.verdict = verdict;
            f.gate_note = note;
        }
        RunFile {
            schema_version: SCHEMA_VERSION,
            machine,
            run: Run {
                date: machine::now_rfc3339(),
                rustc: env!("BENCH_RUSTC_VERSION").to_string(),
                commit: machine::commit(),
                allocator: "system (Rust's System: the C library's malloc)".into(),
                mode: match self.mode {
                    Mode::Quick => "quick",
                    Mode::Full => "full",
                }
                .into(),
                load_before: self.load_before,
                load_after,
                duration_seconds: self.started.elapsed().as_secs_f64(),
                fingerprint: None,
                runtime: bench_data::SYSTEM_RUNTIME.into(),
                repetitions: 1,
                clock: None,
            },
            figures: self.figures,
            listings: BTreeMap::new(),
        }
    }
}

/// One file from the repetitions of a run: each figure is the repetition with the median value
/// (its interval is that repetition's 95 % interval), keeps every repetition's statistics in
/// `repeats` (omitted when all are equal, as exact figures are) and the most cautious verdict of
/// them. A figure missing from some repetition keeps the ones it has.
pub fn merge(mut runs: Vec<RunFile>) -> Option<RunFile> {
    let n = runs.len();
    let last = runs.pop()?;
    if runs.is_empty() {
        return Some(last);
    }
    let first = &runs[0];
    let mut out = RunFile {
        run: Run {
            load_before: first.run.load_before,
            duration_seconds: runs.iter().map(|r| r.run.duration_seconds).sum::<f64>()
                + last.run.duration_seconds,
            repetitions: n as u32,
            ..last.run.clone()
        },
        figures: BTreeMap::new(),
        ..last.clone()
    };
    runs.push(last);
    let keys: std::collections::BTreeSet<&String> =
        runs.iter().flat_map(|r| r.figures.keys()).collect();
    for key in keys {
        let mut all: Vec<&Figure> = runs.iter().filter_map(|r| r.figures.get(key)).collect();
        let repeats: Vec<Repeat> = all
            .iter()
            .map(|f| Repeat {
                value: f.value,
                low: f.low,
                high: f.high,
                cv: f.cv,
            })
            .collect();
        let verdict = all
            .iter()
            .map(|f| f.verdict)
            .min()
            .unwrap_or(Verdict::Unfit);
        all.sort_by(|a, b| a.value.total_cmp(&b.value));
        let mut f = all[all.len() / 2].clone();
        if verdict < f.verdict {
            let why = all
                .iter()
                .find(|g| g.verdict == verdict)
                .map_or(String::new(), |g| g.gate_note.clone());
            f.verdict = verdict;
            f.gate_note = format!("{why} (in one of {n} repetitions)");
        }
        if repeats.iter().any(|r| *r != repeats[0]) {
            f.repeats = repeats;
        }
        out.figures.insert(key.clone(), f);
    }
    Some(out)
}

/// The fingerprint of the code this bench measures (`bench_data::fingerprint`), from the workspace
/// it was built in.
pub fn fingerprint() -> Result<String> {
    let root = bench_data::fingerprint::workspace_root(std::path::Path::new(env!(
        "CARGO_MANIFEST_DIR"
    )))
    .context("cannot find the workspace root (Cargo.lock) to fingerprint the measured code")?;
    bench_data::fingerprint::compute(&root).map_err(|e| anyhow::anyhow!("fingerprint: {e}"))
}

/// Writes `file` to `path` (its folder made if missing), refusing what the book could not read
/// back and a file of another CPU at `path` (`overwrite.rs`), and says so on stderr.
pub fn write(file: &RunFile, path: &std::path::Path) -> Result<()> {
    crate::overwrite::check(path, &file.machine)?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    bench_data::RunFile::parse(&file.to_json())
        .map_err(|e| anyhow::anyhow!("bench produced bad data for {}: {e}", path.display()))?;
    std::fs::write(path, file.to_json())
        .with_context(|| format!("cannot write {}", path.display()))?;
    eprintln!(
        "wrote {} ({} figures, {} repetition(s), {:.0} s, load {:.2} → {:.2})",
        path.display(),
        file.figures.len(),
        file.run.repetitions,
        file.run.duration_seconds,
        file.run.load_before[0],
        file.run.load_after[0]
    );
    Ok(())
}

/// The end of a progress line: the median and its noise.
pub fn describe(s: &Stats) -> String {
    let (value, unit) = if s.median >= 1e6 {
        (s.median / 1e6, "ms")
    } else if s.median >= 1e3 {
        (s.median / 1e3, "µs")
    } else {
        (s.median, "ns")
    };
    let digits = if value >= 100.0 {
        0
    } else if value >= 10.0 {
        1
    } else {
        2
    };
    format!("median {value:.digits$} {unit} (cv {:.1} %)", s.cv * 100.0)
}

/// A figure key: lower-case ASCII letters, digits, `_` and `.`, as `{{#fig key}}` cites it.
pub fn check_key(key: &str) -> Result<()> {
    let ok = !key.is_empty()
        && !key.starts_with('.')
        && !key.ends_with('.')
        && !key.contains("..")
        && key
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'.');
    if !ok {
        bail!("figure key {key:?}: use lower-case letters, digits, `_` and `.`");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The load changes from round to round (each round's batches slow down together): each side
    /// is noisy on its own, the per-round ratio is not.
    #[test]
    fn ratios_of_one_group_pair_their_rounds() {
        let mut s = Session::new(Mode::Quick);
        let load: Vec<f64> = (0..40).map(|i| 1.0 + f64::from(i % 7) * 0.3).collect();
        let a: Vec<f64> = load.iter().map(|l| 3.0 * l).collect();
        let b: Vec<f64> = load.iter().map(|l| 4.0 * l).collect();
        for (key, xs, group) in [("g.a", &a, 1), ("g.b", &b, 1), ("h.b", &b, 2)] {
            let stats = crate::stats::summarize(xs).unwrap();
            assert!(stats.cv > 0.25, "{key} should be noisy on its own");
            s.record(key, key, Unit::Nanoseconds, stats);
            s.paired.insert(key.into(), (group, xs.clone()));
        }
        s.ratio_of("g.a_vs_b", "t", "g.a", "g.b");
        let r = s.stats_of("g.a_vs_b").unwrap();
        assert!((r.median - 0.75).abs() < 1e-12 && r.cv < 1e-12, "{r:?}");
        // Not one group: the ratio of medians, with both sides' noise.
        s.ratio_of("x.a_vs_b", "t", "g.a", "h.b");
        let r = s.stats_of("x.a_vs_b").unwrap();
        assert!((r.median - 0.75).abs() < 1e-12 && r.cv > 0.25, "{r:?}");
    }

    #[test]
    fn progress_line_ends() {
        let s = |median| Stats {
            median,
            low: median,
            high: median,
            samples: 15,
            cv: 0.0123,
            cv_plain: 0.2,
        };
        assert_eq!(describe(&s(3.456)), "median 3.46 ns (cv 1.2 %)");
        assert_eq!(describe(&s(45.67)), "median 45.7 ns (cv 1.2 %)");
        assert_eq!(describe(&s(81_920.0)), "median 81.9 µs (cv 1.2 %)");
        assert_eq!(describe(&s(2_500_000.0)), "median 2.50 ms (cv 1.2 %)");
    }

    #[test]
    fn keys() {
        assert!(check_key("rent_return.4096.pool").is_ok());
        for bad in ["", "a..b", ".a", "a.", "Rent", "a b", "a/b"] {
            assert!(check_key(bad).is_err(), "{bad:?}");
        }
    }
}

//! One bench session: criterion for the timing statistics, this module for what the book needs
//! from them (median, 95 % interval, noise) and for the noise gate's verdicts.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use bench_data::{Figure, Machine, Run, RunFile, SCHEMA_VERSION, Unit, Verdict, gate};
use criterion::Criterion;
use serde::Deserialize;

use crate::machine;

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
    pub cv: f64,
}

pub struct Session {
    criterion: Criterion,
    criterion_dir: PathBuf,
    mode: Mode,
    figures: BTreeMap<String, Figure>,
    load_before: [f64; 3],
    started: Instant,
}

#[derive(Deserialize)]
struct Sample {
    iters: Vec<f64>,
    times: Vec<f64>,
}

#[derive(Deserialize)]
struct Estimates {
    median: Estimate,
}

#[derive(Deserialize)]
struct Estimate {
    point_estimate: f64,
    confidence_interval: Interval,
}

#[derive(Deserialize)]
struct Interval {
    lower_bound: f64,
    upper_bound: f64,
}

impl Session {
    pub fn new(mode: Mode, criterion_dir: PathBuf) -> Session {
        let (samples, warm_up, measure) = match mode {
            Mode::Quick => (20, Duration::from_millis(200), Duration::from_millis(800)),
            Mode::Full => (60, Duration::from_millis(800), Duration::from_secs(3)),
        };
        let criterion = Criterion::default()
            .sample_size(samples)
            .warm_up_time(warm_up)
            .measurement_time(measure)
            .without_plots()
            .with_output_color(false)
            .output_directory(&criterion_dir);
        Session {
            criterion,
            criterion_dir,
            mode,
            figures: BTreeMap::new(),
            load_before: machine::load_average(),
            started: Instant::now(),
        }
    }

    /// Times `routine` per call with criterion and records it as figure `key` (nanoseconds).
    pub fn time<R>(
        &mut self,
        key: &str,
        title: &str,
        mut routine: impl FnMut() -> R,
    ) -> Result<Stats> {
        self.criterion
            .bench_function(key, |b| b.iter(|| std::hint::black_box(routine())));
        let stats = self.read_stats(key)?;
        self.record(key, title, Unit::Nanoseconds, stats);
        Ok(stats)
    }

    /// Records `numerator / denominator`, two timings measured side by side in this session.
    pub fn ratio(&mut self, key: &str, title: &str, numerator: Stats, denominator: Stats) -> Stats {
        let stats = Stats {
            median: numerator.median / denominator.median,
            low: numerator.low / denominator.high,
            high: numerator.high / denominator.low,
            samples: numerator.samples.min(denominator.samples),
            // Both sides' noise adds up in the ratio.
            cv: numerator.cv.hypot(denominator.cv),
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
                // Decided in `finish`, once the load after the run is known.
                verdict: Verdict::Unfit,
                gate_note: String::new(),
            },
        );
    }

    fn read_stats(&self, key: &str) -> Result<Stats> {
        let dir = self.criterion_dir.join(key).join("new");
        let read = |name: &str| {
            let path = dir.join(name);
            std::fs::read_to_string(&path)
                .with_context(|| format!("criterion wrote no {}", path.display()))
        };
        let sample: Sample =
            serde_json::from_str(&read("sample.json")?).context("criterion's sample.json")?;
        let estimates: Estimates =
            serde_json::from_str(&read("estimates.json")?).context("criterion's estimates.json")?;
        let per_iter: Vec<f64> = sample
            .iters
            .iter()
            .zip(&sample.times)
            .map(|(i, t)| t / i)
            .collect();
        if per_iter.is_empty() {
            bail!("criterion recorded no samples for {key}");
        }
        let mean = per_iter.iter().sum::<f64>() / per_iter.len() as f64;
        let var = per_iter.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / per_iter.len() as f64;
        let m = &estimates.median;
        Ok(Stats {
            median: m.point_estimate,
            low: m.confidence_interval.lower_bound,
            high: m.confidence_interval.upper_bound,
            samples: per_iter.len() as u32,
            cv: if mean > 0.0 { var.sqrt() / mean } else { 0.0 },
        })
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
            },
            figures: self.figures,
        }
    }
}

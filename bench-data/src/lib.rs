//! The schema of `book/data/<machine-id>.json`: the only way a measured number reaches the book.
//!
//! `native-bench` writes one [`RunFile`] per machine; the book's preprocessor reads every file in
//! `book/data/` and cites [`Figure`]s by key. Both sides use these types, so the schema cannot
//! drift between writer and reader. Reading is strict: a truncated file, a missing field or a
//! schema version from the future is an error naming the file and the field, never a default.
//!
//! Each figure carries a [`Verdict`] from the noise gate ([`gate`]), decided when it was measured:
//! the book prints a figure as an absolute value only when the verdict allows it.

#![forbid(unsafe_code)]

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

pub mod bound;
pub mod claim;
pub mod cpu;
pub mod fingerprint;
mod format;
mod note;

pub use cpu::CpuFacts;
pub use format::{citable, format_value, format_with_interval};
pub use note::{CHECK_MOPS, note_words};

/// The schema version this code writes and reads. Bump it when a field changes meaning.
pub const SCHEMA_VERSION: u32 = 4;
// Version 2: `cv` became the robust coefficient of variation (1.4826 × MAD ÷ median) and the
// plain one moved to `cv_plain`; version 1 files gate on the plain one and must be remeasured.
// Version 3 adds, without changing any version 2 field's meaning: the fingerprint of the measured
// code, the runtime (global allocator or wasm32), the number of repetitions and each figure's
// repetitions, the clock and the instructions per iteration of hot loops. A version 2 file is
// read as it is: no fingerprint (so it is shown as older code), the system allocator, one
// repetition, no instruction counts — what it measured, nothing more.
// Version 4 (issue 35) changes what the instruction check's bound means: the clock records the
// core's sustained width (macro-ops per cycle, a fused compare-and-jump counted as one:
// `sustained_width`, `fusion`) and each hot figure its macro-ops per iteration. A version 3 file
// recorded the retire width it assumed as `max_ipc` (read as `sustained_width`) and no macro-ops:
// it is read as it is, its bound checked with instructions, which can only overstate the rate.
// `machine.cpu` (issue 41) is optional in every version and changes no other field's meaning, so
// it came without a version: `native-bench migrate-ids` adds it to a file of any version, from
// what the file already records, and touches nothing else.
/// The oldest schema version this code still reads (see above).
pub const OLDEST_READ_VERSION: u32 = 2;

/// The runtime of a run without a `runtime` field (schema 2): the system allocator.
pub const SYSTEM_RUNTIME: &str = "system";

/// One bench run on one machine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunFile {
    pub schema_version: u32,
    pub machine: Machine,
    pub run: Run,
    /// Figures by key, e.g. `spine.rent_return.4096.ratio_vs_vec`.
    pub figures: BTreeMap<String, Figure>,
    /// Disassembly of measured loops, by figure key (the instruction check's evidence).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub listings: BTreeMap<String, Listing>,
}

/// The machine code of one measured loop: the function callgrind found executing most of the
/// loop's instructions, as objdump prints it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Listing {
    /// The function's (demangled) name.
    pub function: String,
    /// Its share of the loop's instructions (0–1).
    pub share: f64,
    /// objdump's lines: address, instruction.
    pub lines: Vec<String>,
}

/// What the numbers were measured on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Machine {
    /// File stem in `book/data/`; stable for one kind of machine: its CPU and core count. The
    /// model string when it names the part (`amd-epyc-7b13-2c`), else the microarchitecture
    /// (`amd-zen3-2c`) or vendor, family and model (`amd-f25m1-2c`): see `native-bench`'s
    /// `machine.rs`.
    pub id: String,
    pub cpu_model: String,
    pub logical_cores: u32,
    pub memory_bytes: u64,
    /// e.g. `Debian GNU/Linux 12 (bookworm)`.
    pub os: String,
    pub kernel: String,
    /// C library version when known (the system allocator is glibc's malloc on Linux).
    pub libc: String,
    /// What tells this CPU from another of the same model string ([`cpu`]); none in files
    /// written before it was recorded whose facts could not be recovered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu: Option<CpuFacts>,
}

/// How and when the run was made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Run {
    /// UTC, RFC 3339.
    pub date: String,
    pub rustc: String,
    pub commit: String,
    /// The global allocator of the bench binary.
    pub allocator: String,
    /// `quick` or `full`.
    pub mode: String,
    /// `/proc/loadavg`'s 1, 5 and 15 minute averages before and after the run.
    pub load_before: [f64; 3],
    pub load_after: [f64; 3],
    pub duration_seconds: f64,
    /// The fingerprint of the measured code and its build settings ([`fingerprint::compute`]);
    /// `None` in schema 2 files, which are older code by definition.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fingerprint: Option<String>,
    /// What ran the code: `system` (glibc's malloc), `mimalloc`, `jemalloc` (the global
    /// allocator of a native build) or `wasm32` (the browser). A file of another runtime than
    /// `system` is named `<machine-id>.<runtime>.json`.
    #[serde(default = "system_runtime")]
    pub runtime: String,
    /// How many times the whole run was repeated (each figure keeps every repetition).
    #[serde(default = "one")]
    pub repetitions: u32,
    /// The clock the instruction check assumes, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<Clock>,
}

fn system_runtime() -> String {
    SYSTEM_RUNTIME.to_string()
}

fn one() -> u32 {
    1
}

/// The clock a time per iteration is turned into cycles with, and the most work per cycle the
/// core sustains: the instruction check's bound.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Clock {
    /// The highest clock the core may run at, GHz (a higher clock only lowers the implied rate).
    pub max_ghz: f64,
    /// Where `max_ghz` comes from, in words ([`bound`]'s `CLOCK_*` shapes).
    pub source: String,
    /// The bound: the most macro-ops per cycle the core sustains, its dispatch (AMD) or rename
    /// and allocation (Intel) width, where a fused compare-and-jump is one. Schema 3 files
    /// recorded the retire width they were checked against as `max_ipc`, read here.
    #[serde(alias = "max_ipc")]
    pub sustained_width: f64,
    /// Which core, and where its width is published ([`bound::WIDTH`]), in words.
    #[serde(alias = "max_ipc_source")]
    pub sustained_width_source: String,
    /// The pairs the macro-op counts fused ([`bound::FUSION_CMP_TEST`], [`bound::FUSION_ALU`]);
    /// none in files before the fusion count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fusion: Option<String>,
}

/// The work one iteration of a measured loop does (callgrind on the bench's own loop) and the
/// rate it implies at the machine's highest clock.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Instructions {
    pub per_iteration: f64,
    /// `per_iteration ÷ (ns per iteration × max GHz)`: the lowest instructions per cycle the
    /// time allows.
    pub implied_ipc: f64,
    /// Macro-ops per iteration: the instructions less the fused pairs executed, counted from the
    /// loop's own disassembly ([`Clock::fusion`] says which pairs). An instruction that decodes
    /// to several macro-ops counts as one, so this never overstates. None in files before the
    /// fusion count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub macro_ops_per_iteration: Option<f64>,
    /// `macro_ops_per_iteration ÷ (ns per iteration × max GHz)`, what the bound is checked with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub implied_mops_per_cycle: Option<f64>,
}

impl Instructions {
    /// What the bound is checked with: the macro-ops per iteration, or, in a file before the
    /// fusion count, the instructions (which can only overstate the rate).
    pub fn ops(&self) -> f64 {
        self.macro_ops_per_iteration.unwrap_or(self.per_iteration)
    }
}

/// One repetition's statistics of a figure.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Repeat {
    pub value: f64,
    pub low: f64,
    pub high: f64,
    pub cv: f64,
}

/// One measured number with its statistics and its noise-gate verdict.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Figure {
    /// What was measured, in words a reader understands.
    pub title: String,
    pub unit: Unit,
    /// The median (or the exact value for counts and bytes).
    pub value: f64,
    /// Confidence interval of the median (95 %), or min/max; equal to `value` for exact figures.
    pub low: f64,
    pub high: f64,
    pub samples: u32,
    /// The noise the gate judges: the robust coefficient of variation of the samples,
    /// 1.4826 × median absolute deviation ÷ median (0 for exact figures). For a ratio measured in
    /// paired rounds, that of the per-round ratios.
    pub cv: f64,
    /// The plain coefficient of variation (standard deviation ÷ mean) of the same samples, kept
    /// for the record: one preempted sample dominates it, so the gate does not use it.
    pub cv_plain: f64,
    pub verdict: Verdict,
    /// Why the gate decided as it did.
    pub gate_note: String,
    /// Every repetition of the run, in order (the figure itself is the repetition with the
    /// median value); empty for a run of one repetition. A claim holds only if it holds in each.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub repeats: Vec<Repeat>,
    /// Instructions per iteration of the measured loop, for hot-path timings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<Instructions>,
}

impl Figure {
    /// The figure as each repetition measured it (itself alone for one repetition).
    pub fn repetitions(&self) -> Vec<Figure> {
        if self.repeats.is_empty() {
            return vec![self.clone()];
        }
        self.repeats
            .iter()
            .map(|r| Figure {
                value: r.value,
                low: r.low,
                high: r.high,
                cv: r.cv,
                repeats: Vec::new(),
                ..self.clone()
            })
            .collect()
    }

    /// The lowest and highest median over the repetitions.
    pub fn spread(&self) -> (f64, f64) {
        self.repeats
            .iter()
            .fold((self.value, self.value), |(lo, hi), r| {
                (lo.min(r.value), hi.max(r.value))
            })
    }

    /// The macro-ops per cycle this figure's time implies at the run's clock ([`Instructions::ops`]
    /// ÷ (its value × the clock)); instructions per cycle in a file before the fusion count.
    /// Computed from the figure's own value, so each repetition is checked with its own time.
    pub fn implied_rate(&self, clock: Option<&Clock>) -> Option<f64> {
        let (i, c) = (self.instructions.as_ref()?, clock?);
        Some(i.ops() / (self.value * c.max_ghz))
    }

    /// Whether the instruction check finds the time impossible for this core: the work counted
    /// needs more per cycle than the core's sustained width. The time is then too short for the
    /// work: the loop measured is not the loop counted, or the clock is wrong.
    pub fn over_bound(&self, clock: Option<&Clock>) -> bool {
        match (self.implied_rate(clock), clock) {
            (Some(rate), Some(c)) => rate > c.sustained_width,
            _ => false,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    Nanoseconds,
    Bytes,
    Count,
    /// A ratio of two figures measured side by side in the same run.
    Ratio,
}

/// The noise gate's decision on how a figure may be cited.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Too noisy to cite at all; kept for the record.
    Unfit,
    /// Fit only as a ratio or a direction ("faster", "about 3×"), not as an absolute value.
    RatioOnly,
    /// Fit to cite as an absolute value.
    Absolute,
}

/// Coefficient of variation above which a timing is not cited as an absolute value.
pub const ABSOLUTE_MAX_CV: f64 = 0.05;
/// Coefficient of variation above which a figure is not cited at all.
pub const RATIO_MAX_CV: f64 = 0.25;
/// Load average per logical core above which the machine is too busy for absolute timings.
pub const MAX_LOAD_PER_CORE: f64 = 0.75;

/// The noise gate: how a figure with this unit, noise and machine load may be cited.
///
/// Exact figures (bytes, counts) are always citable. A timing needs low noise *and* a quiet
/// machine to be cited as an absolute value; a ratio of two timings measured side by side
/// survives a busy machine (both sides slow down together) but not high noise.
///
/// ```
/// use bench_data::{gate, Unit, Verdict};
/// assert_eq!(gate(Unit::Nanoseconds, 0.02, 0.1).0, Verdict::Absolute);
/// assert_eq!(gate(Unit::Nanoseconds, 0.02, 1.5).0, Verdict::RatioOnly);
/// assert_eq!(gate(Unit::Ratio, 0.12, 1.5).0, Verdict::RatioOnly);
/// assert_eq!(gate(Unit::Nanoseconds, 0.40, 0.1).0, Verdict::Unfit);
/// ```
pub fn gate(unit: Unit, cv: f64, load_per_core: f64) -> (Verdict, String) {
    use lab_text::tr::fill;
    use note::{BUSY, EXACT, NOISE, OVER, OVER_ABSOLUTE, SIDE_BY_SIDE};
    let pct = |x: f64| format!("{:.1} %", x * 100.0);
    match unit {
        Unit::Bytes | Unit::Count => (Verdict::Absolute, EXACT.into()),
        _ if !cv.is_finite() || cv > RATIO_MAX_CV => {
            (Verdict::Unfit, fill(OVER, &[&pct(cv), &pct(RATIO_MAX_CV)]))
        }
        Unit::Ratio => (Verdict::RatioOnly, fill(SIDE_BY_SIDE, &[&pct(cv)])),
        Unit::Nanoseconds if cv > ABSOLUTE_MAX_CV => (
            Verdict::RatioOnly,
            fill(OVER_ABSOLUTE, &[&pct(cv), &pct(ABSOLUTE_MAX_CV)]),
        ),
        Unit::Nanoseconds if load_per_core > MAX_LOAD_PER_CORE => (
            Verdict::RatioOnly,
            fill(BUSY, &[&format!("{load_per_core:.2}")]),
        ),
        Unit::Nanoseconds => (Verdict::Absolute, fill(NOISE, &[&pct(cv)])),
    }
}

/// A data file that cannot be trusted, naming the file and the field.
#[derive(Debug)]
pub struct DataError {
    pub file: PathBuf,
    pub message: String,
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.file.display(), self.message)
    }
}

impl std::error::Error for DataError {}

impl RunFile {
    /// Reads and checks one data file.
    pub fn load(path: &Path) -> Result<RunFile, DataError> {
        let err = |message: String| DataError {
            file: path.to_path_buf(),
            message,
        };
        let text = std::fs::read_to_string(path).map_err(|e| err(format!("cannot read: {e}")))?;
        RunFile::parse(&text).map_err(err)
    }

    /// Parses and checks a data file's text; the error names the offending field.
    pub fn parse(text: &str) -> Result<RunFile, String> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| format!("not valid JSON ({e})"))?;
        match value.get("schema_version").map(|v| v.as_u64()) {
            None => return Err("missing field `schema_version`".into()),
            Some(Some(v))
                if (u64::from(OLDEST_READ_VERSION)..=u64::from(SCHEMA_VERSION)).contains(&v) => {}
            Some(Some(v)) if v > u64::from(SCHEMA_VERSION) => {
                return Err(format!(
                    "field `schema_version` is {v}, newer than this book understands ({SCHEMA_VERSION}); update the book"
                ));
            }
            Some(v) => {
                return Err(format!(
                    "field `schema_version` is {}, this book reads versions {OLDEST_READ_VERSION} to {SCHEMA_VERSION}; rerun `cargo xtask bench`",
                    v.map_or("not a number".into(), |v| v.to_string())
                ));
            }
        }
        let file: RunFile = serde_path_to_error::deserialize(value)
            .map_err(|e| format!("field `{}`: {}", e.path(), e.inner()))?;
        file.check()?;
        Ok(file)
    }

    /// Checks what the types cannot: finite numbers, ordered intervals, verdicts the gate allows.
    fn check(&self) -> Result<(), String> {
        if self.machine.id.is_empty()
            || !self
                .machine
                .id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-')
        {
            return Err(format!(
                "field `machine.id` is {:?}: use [a-z0-9-]",
                self.machine.id
            ));
        }
        if self.run.runtime.is_empty()
            || !self
                .run
                .runtime
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        {
            return Err(format!(
                "field `run.runtime` is {:?}: use [a-z0-9]",
                self.run.runtime
            ));
        }
        if let Some(cpu) = &self.machine.cpu {
            if cpu.vendor.is_empty() {
                return Err(
                    "field `machine.cpu.vendor` is empty: write the CPU's vendor_id".into(),
                );
            }
            if let Some(x) = cpu.measured_ghz
                && (!x.is_finite() || x <= 0.0)
            {
                return Err(format!(
                    "field `machine.cpu.measured_ghz` is {x}: must be a finite number > 0"
                ));
            }
        }
        if let Some(c) = &self.run.clock {
            for (name, x) in [
                ("max_ghz", c.max_ghz),
                ("sustained_width", c.sustained_width),
            ] {
                if !x.is_finite() || x <= 0.0 {
                    return Err(format!(
                        "field `run.clock.{name}` is {x}: must be a finite number > 0"
                    ));
                }
            }
        }
        for (key, f) in &self.figures {
            let field = |name: &str| format!("field `figures.{key}.{name}`");
            if let Some(i) = &f.instructions {
                for (name, x) in [
                    ("per_iteration", Some(i.per_iteration)),
                    ("implied_ipc", Some(i.implied_ipc)),
                    ("macro_ops_per_iteration", i.macro_ops_per_iteration),
                    ("implied_mops_per_cycle", i.implied_mops_per_cycle),
                ] {
                    if let Some(x) = x
                        && (!x.is_finite() || x < 0.0)
                    {
                        return Err(format!(
                            "{} is {x}: must be a finite number ≥ 0",
                            field(&format!("instructions.{name}"))
                        ));
                    }
                }
                if let Some(m) = i.macro_ops_per_iteration
                    && m > i.per_iteration
                {
                    return Err(format!(
                        "{} is {m}, more than the {} instructions per iteration (a fused pair is one macro-op, never more)",
                        field("instructions.macro_ops_per_iteration"),
                        i.per_iteration
                    ));
                }
            }
            for (i, r) in f.repeats.iter().enumerate() {
                let finite = [r.value, r.low, r.high, r.cv]
                    .iter()
                    .all(|x| x.is_finite() && *x >= 0.0);
                let inside = r.low <= r.value && r.value <= r.high;
                if !(finite && inside) {
                    return Err(format!(
                        "{}: repetition {} is not a finite median inside its interval",
                        field("repeats"),
                        i + 1
                    ));
                }
            }
            for (name, x) in [
                ("value", f.value),
                ("low", f.low),
                ("high", f.high),
                ("cv", f.cv),
                ("cv_plain", f.cv_plain),
            ] {
                if !x.is_finite() || x < 0.0 {
                    return Err(format!(
                        "{} is {x}: must be a finite number ≥ 0",
                        field(name)
                    ));
                }
            }
            if !(f.low <= f.value && f.value <= f.high) {
                return Err(format!(
                    "{} is {}, outside its interval [{}, {}]",
                    field("value"),
                    f.value,
                    f.low,
                    f.high
                ));
            }
            let load = self.run.load_before[0].max(self.run.load_after[0])
                / f64::from(self.machine.logical_cores.max(1));
            let (mut allowed, _) = gate(f.unit, f.cv, load);
            if f.over_bound(self.run.clock.as_ref()) {
                allowed = allowed.min(Verdict::RatioOnly);
            }
            if f.verdict > allowed {
                return Err(format!(
                    "{} says {:?} but the noise gate allows at most {allowed:?}",
                    field("verdict"),
                    f.verdict
                ));
            }
        }
        Ok(())
    }

    /// The file's name in `book/data` without `.json`: the machine id, and the runtime unless it
    /// is the system allocator (`amd-zen5-2c`, `amd-zen5-2c.mimalloc`).
    pub fn stem(&self) -> String {
        if self.run.runtime == SYSTEM_RUNTIME {
            self.machine.id.clone()
        } else {
            format!("{}.{}", self.machine.id, self.run.runtime)
        }
    }

    /// A column's name: the machine, and the runtime unless it is the system allocator.
    pub fn label(&self) -> String {
        if self.run.runtime == SYSTEM_RUNTIME {
            self.machine.id.clone()
        } else {
            format!("{} · {}", self.machine.id, self.run.runtime)
        }
    }

    pub fn to_json(&self) -> String {
        // Plain data with finite numbers: serialization cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }
}

/// Every data file in `dir` (`*.json`), sorted by file name.
pub fn load_dir(dir: &Path) -> Result<Vec<RunFile>, DataError> {
    let err = |message: String| DataError {
        file: dir.to_path_buf(),
        message,
    };
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| err(format!("cannot list: {e}")))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    let files = paths
        .iter()
        .map(|p| RunFile::load(p))
        .collect::<Result<Vec<_>, _>>()?;
    for (file, path) in files.iter().zip(&paths) {
        if path.file_stem().and_then(|s| s.to_str()) != Some(file.stem().as_str()) {
            return Err(DataError {
                file: path.clone(),
                message: format!(
                    "fields `machine.id` and `run.runtime` are {:?} and {:?}: the file should be named {}.json",
                    file.machine.id,
                    file.run.runtime,
                    file.stem()
                ),
            });
        }
    }
    Ok(files)
}

#[cfg(test)]
mod tests;

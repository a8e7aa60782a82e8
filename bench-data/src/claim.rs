//! Claims and verdicts: what a sentence of the book says about the data, decided by the data.
//!
//! A sentence that compares measured things carries a [`Claim`] (`{{#claim KEY OP VALUE}}` in a
//! chapter) or renders its conclusion with a [`Direction`] (`{{#verdict KEY}}`). Both are decided
//! here, once, for the book's preprocessor and for the end-to-end tests that read the built pages:
//! two copies of the comparison could disagree about what a page should show.
//!
//! ## Operators
//!
//! | claim | holds when |
//! |---|---|
//! | `KEY < V`, `<=`, `>`, `>=` | the median compares so with `V` |
//! | `KEY == V`, `!=` | an exact figure (bytes, count) equals `V` (or not) |
//! | `KEY below V` / `above V` | the whole 95 % interval is under / over `V` |
//! | `KEY includes V` / `excludes V` | the 95 % interval contains `V` / does not |
//! | `KEY citable` / `not-citable` | the noise gate lets the book print it (or not) |
//! | `KEY less` / `more` / `same` | the verdict rule gives that direction (a ratio against 1) |
//!
//! `V` is a number or another figure's key (its median; for `below`/`above`, its interval's far
//! end). `KEY` may name several figures — `peers.*.pool_vs_{system,mimalloc}` (`*` matches within
//! one dot-separated part, `{a,b}` lists alternatives) — and then the claim holds only when it holds
//! for every one of them ("the pool beats every peer at every size").
//!
//! ## Repetitions
//!
//! A full run repeats the whole suite (`run.repetitions`, each figure's `repeats`); a claim holds
//! only if it holds in every repetition: the mark is the worst over them, and what the data shows
//! names the repetition that broke it.
//!
//! ## Marks
//!
//! [`Mark::Holds`] ✓, [`Mark::Contradicted`] ⚠, [`Mark::Open`] ? (a figure the noise gate found
//! too noisy: nothing can be concluded), [`Mark::Missing`] ? (the file has no such figure).
//!
//! ## The verdict rule
//!
//! A ratio's conclusion comes from its 95 % interval against 1 and a band of practical
//! equivalence, ±[`EQUIVALENCE_BAND`] (5 %) around 1 ([`direction`], over
//! [`lab_text::verdict::reading`], which the lab's quizzes read their ratios with too, so a quiz
//! and the text cannot disagree about a figure). [`Direction::Less`] needs
//! both: the whole interval under 1 (the difference is measurable) *and* the median under
//! 1 − 5 % (it is large enough to matter); [`Direction::More`] likewise above 1 + 5 %. Everything
//! else is [`Direction::Same`]: either the interval includes 1 ("no measurable difference"), or
//! the difference is measurable but inside the band ("the same for practice", 0.982× is 1.8 %
//! less and says so). A figure the gate rejected is [`Direction::Unfit`]. A median alone never
//! decides a difference: 0.90 with an interval of 0.85–1.03 is "no measurable difference".
//!
//! Why 5 %: it is what a rerun moves a ratio by on the machines this book is measured on (the
//! spread across repetitions recorded in the data, and a rerun under other load), and it is the
//! articles' own reading: .NET's rent at 0.985–1.035× of the lower bound is "at the lower bound".

use std::fmt;

use lab_text::tr::localize_figure;
use lab_text::{t, tf};

use crate::format::{citable, format_value, format_with_interval};

use crate::{Figure, RunFile, Unit, Verdict};
/// The band of practical equivalence of the verdict rule: a ratio whose median is within ±5 % of
/// 1 reads "the same for practice" even when its interval excludes 1. The rule itself is
/// [`lab_text::verdict`], which the lab's quizzes read their ratios with too.
pub use lab_text::verdict::EQUIVALENCE_BAND;
use lab_text::verdict::{Reading, reading};

/// A comparison a sentence makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    Below,
    Above,
    Includes,
    Excludes,
    Citable,
    NotCitable,
    /// The verdict rule gives this direction (against 1).
    Is(Direction),
}

impl Op {
    pub const ALL: [Op; 15] = [
        Op::Lt,
        Op::Le,
        Op::Gt,
        Op::Ge,
        Op::Eq,
        Op::Ne,
        Op::Below,
        Op::Above,
        Op::Includes,
        Op::Excludes,
        Op::Citable,
        Op::NotCitable,
        Op::Is(Direction::Less),
        Op::Is(Direction::More),
        Op::Is(Direction::Same),
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Ge => ">=",
            Op::Eq => "==",
            Op::Ne => "!=",
            Op::Below => "below",
            Op::Above => "above",
            Op::Includes => "includes",
            Op::Excludes => "excludes",
            Op::Citable => "citable",
            Op::NotCitable => "not-citable",
            Op::Is(d) => d.as_str(),
        }
    }

    fn takes_bound(self) -> bool {
        !matches!(self, Op::Citable | Op::NotCitable | Op::Is(_))
    }
}

/// What a figure is compared with.
#[derive(Clone, Debug, PartialEq)]
pub enum Bound {
    Number(f64),
    /// Another figure of the same machine.
    Figure(String),
}

/// Which machines a claim speaks for (`machines=every`, `machines=any`, `machine=ID`): the
/// book's data may come from several CPUs at the current code, and a sentence must hold on the
/// machines it speaks for ([`Claim::check_machines`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Scope {
    /// "On every machine": the default; contradicted on one machine is contradicted.
    #[default]
    Every,
    /// "On at least one machine": holds when one machine supports it.
    Any,
    /// On the named machine only ("on amd-zen3-2c").
    Machine(String),
}

/// One claim: `KEY OP [VALUE] [on=RUNTIME] [machines=every|any | machine=ID]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Claim {
    /// A key, or a pattern naming several (`*`, `{a,b}`).
    pub keys: String,
    pub op: Op,
    pub bound: Option<Bound>,
    /// The runtime whose data decides it (`on=wasm32`): that runtime's file of the primary's
    /// machine ([`Claim::file`]). `None`: the primary file itself.
    pub runtime: Option<String>,
    /// The machines the sentence speaks for.
    pub scope: Scope,
}

/// What a claim's check found on one machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mark {
    Holds,
    /// A figure is too noisy to decide.
    Open,
    /// The file has no such figure.
    Missing,
    Contradicted,
}

impl Mark {
    /// ✓, ⚠ or ?, as the book shows it.
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Holds => "✓",
            Mark::Contradicted => "⚠",
            Mark::Open | Mark::Missing => "?",
        }
    }
}

/// A claim's check: the mark and what the data shows, in words: in this thread's language
/// (`lab_text::tr`: the words, the numbers, the gate's notes), English byte for byte in English.
#[derive(Clone, Debug, PartialEq)]
pub struct Check {
    pub mark: Mark,
    pub shows: String,
}

impl Claim {
    /// Parses the words of `{{#claim …}}`: `KEY OP VALUE`, or `KEY citable` / `KEY not-citable`.
    pub fn parse(words: &[&str]) -> Result<Claim, String> {
        let known = || {
            Op::ALL
                .iter()
                .map(|o| o.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let (runtime, words) = runtime_option(words)?;
        let (scope, words) = scope_option(&words)?;
        let (keys, op, bound) = match words.as_slice() {
            [keys, op] => (keys, op, None),
            [keys, op, bound] => (keys, op, Some(*bound)),
            _ => {
                return Err(
                    "a claim is `KEY OP VALUE`, `KEY citable` or `KEY less|more|same`, and may end with `on=RUNTIME` and `machines=every|any` or `machine=ID`".into(),
                );
            }
        };
        let Some(op) = Op::ALL.into_iter().find(|o| o.as_str() == *op) else {
            return Err(format!(
                "`{op}` is not a comparison (use one of {})",
                known()
            ));
        };
        let bound = match (op.takes_bound(), bound) {
            (false, None) => None,
            (false, Some(_)) => return Err(format!("`{}` takes no value", op.as_str())),
            (true, None) => return Err(format!("`{}` needs a value", op.as_str())),
            (true, Some(b)) => Some(match b.parse::<f64>() {
                Ok(v) if v.is_finite() => Bound::Number(v),
                _ if b.contains('.') => Bound::Figure(b.to_string()),
                _ => {
                    return Err(format!("`{b}` is not a number or a figure to compare with"));
                }
            }),
        };
        if expand_braces(keys).is_none() {
            return Err(format!(
                "`{keys}` names too many keys: its `{{a,b}}` groups may expand to at most {MAX_ALTERNATIVES}"
            ));
        }
        Ok(Claim {
            keys: keys.to_string(),
            op,
            bound,
            runtime: runtime.map(str::to_string),
            scope,
        })
    }

    /// The same claim, decided by `runtime`'s data (`None`: the primary file's).
    pub fn on(mut self, runtime: Option<&str>) -> Claim {
        self.runtime = runtime.map(str::to_string);
        self
    }

    /// The file that decides this claim, among `files`, when `primary` is the book's primary
    /// file: the primary itself, or the file of the claim's runtime measured on the primary's
    /// machine (`None` when that machine has no such file).
    pub fn file<'a>(&self, primary: &'a RunFile, files: &'a [RunFile]) -> Option<&'a RunFile> {
        match &self.runtime {
            None => Some(primary),
            Some(r) if primary.run.runtime == *r => Some(primary),
            Some(r) => files
                .iter()
                .find(|f| f.machine.id == primary.machine.id && f.run.runtime == *r),
        }
    }

    /// [`Claim::check`] on [`Claim::file`]; a machine without the claim's runtime is
    /// [`Mark::Missing`].
    pub fn check_among(&self, primary: &RunFile, files: &[RunFile]) -> Result<Check, String> {
        match self.file(primary, files) {
            Some(f) => self.check(f),
            None => Ok(Check {
                mark: Mark::Missing,
                shows: tf!(
                    "no {} data of {}",
                    self.runtime.as_deref().unwrap_or("?"),
                    primary.machine.id
                ),
            }),
        }
    }

    /// The claim on every machine it speaks for ([`Scope`]): each machine's file of `primary`'s
    /// runtime among `files` (the book's columns at the current code; `primary`'s machine first)
    /// is checked with [`Claim::check_among`], and the marks combine. For [`Scope::Every`] one
    /// contradicting machine contradicts the sentence, a noisy one leaves it open, and a machine
    /// without the figure does not decide; for [`Scope::Any`] one supporting machine is enough.
    /// With one machine this is [`Claim::check_among`]; with several, what the data shows names
    /// each machine.
    pub fn check_machines(&self, primary: &RunFile, files: &[RunFile]) -> Result<Check, String> {
        let mut checks = Vec::new();
        for m in machines(primary, files) {
            if let Scope::Machine(id) = &self.scope
                && m.machine.id != *id
            {
                continue;
            }
            checks.push((m.machine.id.as_str(), self.check_among(m, files)?));
        }
        if checks.is_empty() {
            let id = match &self.scope {
                Scope::Machine(id) => id.as_str(),
                _ => primary.machine.id.as_str(),
            };
            return Ok(Check {
                mark: Mark::Missing,
                shows: tf!("no data of {} at the current code", id),
            });
        }
        if checks.len() == 1 {
            return Ok(checks.remove(0).1);
        }
        let has = |m: Mark| checks.iter().any(|(_, c)| c.mark == m);
        let mark = match self.scope {
            Scope::Any if has(Mark::Holds) => Mark::Holds,
            Scope::Any if has(Mark::Open) => Mark::Open,
            Scope::Any if has(Mark::Contradicted) => Mark::Contradicted,
            Scope::Any => Mark::Missing,
            _ if has(Mark::Contradicted) => Mark::Contradicted,
            _ if has(Mark::Open) => Mark::Open,
            _ if has(Mark::Holds) => Mark::Holds,
            _ => Mark::Missing,
        };
        let shows = checks
            .iter()
            .map(|(id, c)| format!("{id}: {}", c.shows))
            .collect::<Vec<_>>()
            .join("; ");
        Ok(Check { mark, shows })
    }

    /// Parses a claim written out as by [`Claim`]'s `Display` (`a.b below 1`).
    pub fn parse_text(text: &str) -> Result<Claim, String> {
        Claim::parse(&text.split_whitespace().collect::<Vec<_>>())
    }

    /// Whether the claim is about several figures ("every one of these").
    pub fn is_every(&self) -> bool {
        self.keys.contains(['*', '{'])
    }

    /// Checks the claim against one machine's data. An error is a claim no data can decide
    /// (equality of two timings); a missing figure is a [`Mark::Missing`], since another machine
    /// may lack what the primary one has.
    pub fn check(&self, file: &RunFile) -> Result<Check, String> {
        let keys = matching_keys(&self.keys, file);
        if keys.is_empty() {
            return Ok(Check {
                mark: Mark::Missing,
                shows: tf!("no figure `{}` on {}", self.keys, file.machine.id),
            });
        }
        let mut checks = Vec::with_capacity(keys.len());
        for key in &keys {
            checks.push((key, self.check_one(key, file)?));
        }
        if !self.is_every() {
            return Ok(checks.remove(0).1);
        }
        let worst = checks
            .iter()
            .map(|(_, c)| c.mark)
            .max()
            .unwrap_or(Mark::Missing);
        let shows = if worst == Mark::Holds {
            tf!("all {} hold", checks.len())
        } else {
            let bad: Vec<String> = checks
                .iter()
                .filter(|(_, c)| c.mark == worst)
                .map(|(k, c)| format!("{k}: {}", c.shows))
                .collect();
            tf!(
                "{} of {} hold; {}",
                checks.iter().filter(|(_, c)| c.mark == Mark::Holds).count(),
                checks.len(),
                bad.join("; ")
            )
        };
        Ok(Check { mark: worst, shows })
    }

    /// One figure's check: in each repetition, the worst mark wins.
    fn check_one(&self, key: &str, file: &RunFile) -> Result<Check, String> {
        let Some(f) = file.figures.get(key) else {
            return Ok(Check {
                mark: Mark::Missing,
                shows: tf!("no figure `{}` on {}", key, file.machine.id),
            });
        };
        let other = match &self.bound {
            Some(Bound::Figure(k)) => match file.figures.get(k) {
                Some(o) => Some(o),
                None => {
                    return Ok(Check {
                        mark: Mark::Missing,
                        shows: tf!("no figure `{}` on {}", k, file.machine.id),
                    });
                }
            },
            _ => None,
        };
        let main = self.check_figure(key, f, other, file)?;
        let reps = f.repetitions();
        if reps.len() < 2 {
            return Ok(main);
        }
        let others = other.map(Figure::repetitions);
        let mut worst: Option<(usize, Check)> = None;
        for (i, rep) in reps.iter().enumerate() {
            let o = others.as_ref().map(|os| os.get(i).unwrap_or(&os[0]));
            let check = self.check_figure(key, rep, o, file)?;
            if worst.as_ref().is_none_or(|(_, w)| check.mark > w.mark) {
                worst = Some((i, check));
            }
        }
        Ok(match worst {
            Some((i, w)) if w.mark > main.mark || w.mark != Mark::Holds => Check {
                mark: w.mark.max(main.mark),
                shows: tf!("repetition {} of {}: {}", i + 1, reps.len(), w.shows),
            },
            _ => Check {
                mark: main.mark,
                shows: tf!("{} (in all {} repetitions)", main.shows, reps.len()),
            },
        })
    }

    fn check_figure(
        &self,
        key: &str,
        f: &Figure,
        other: Option<&Figure>,
        file: &RunFile,
    ) -> Result<Check, String> {
        let measured = localize_figure(&format_with_interval(f));
        let done = |holds: bool, shows: String| {
            Ok(Check {
                mark: if holds {
                    Mark::Holds
                } else {
                    Mark::Contradicted
                },
                shows,
            })
        };
        match self.op {
            Op::Is(want) => {
                if f.unit != Unit::Ratio {
                    return Err(format!(
                        "`{}` is a ratio's verdict; `{key}` is not a ratio",
                        self.op.as_str()
                    ));
                }
                let got = direction(f, 1.0);
                if got == Direction::Unfit {
                    return Ok(Check {
                        mark: Mark::Open,
                        shows: tf!("{} too noisy to say ({})", key, note(f)),
                    });
                }
                let words = verdict_words(f, &t!("less"), &t!("more"));
                return done(got == want, localize_figure(&words));
            }
            Op::Citable | Op::NotCitable => {
                let is = citable(f);
                let shows = format!(
                    "{} ({:?}: {})",
                    if is { t!("citable") } else { t!("not citable") },
                    f.verdict,
                    note(f)
                );
                return done(is == (self.op == Op::Citable), shows);
            }
            _ => {}
        }
        let _ = file;
        let limit = match (&self.bound, other) {
            (Some(Bound::Number(v)), _) => *v,
            (Some(Bound::Figure(_)), Some(o)) => o.value,
            _ => return Err(format!("`{}` needs a value", self.op.as_str())),
        };
        if matches!(self.op, Op::Eq | Op::Ne) {
            let exact = |f: &Figure| matches!(f.unit, Unit::Bytes | Unit::Count);
            if !exact(f) || other.is_some_and(|o| !exact(o)) {
                return Err(format!(
                    "`{}` compares exact figures (bytes, counts); `{key}` is measured with noise: use below, above, includes or excludes",
                    self.op.as_str()
                ));
            }
        }
        if f.verdict == Verdict::Unfit || other.is_some_and(|o| o.verdict == Verdict::Unfit) {
            let noisy = if f.verdict == Verdict::Unfit {
                (key, f)
            } else {
                (
                    match &self.bound {
                        Some(Bound::Figure(k)) => k.as_str(),
                        _ => key,
                    },
                    other.unwrap_or(f),
                )
            };
            return Ok(Check {
                mark: Mark::Open,
                shows: tf!("{} too noisy to say ({})", noisy.0, note(noisy.1)),
            });
        }
        let against = match other {
            Some(o) => format!(
                "{} ({})",
                localize_figure(&format_with_interval(o)),
                self.bound_text()
            ),
            None if f.unit == Unit::Ratio => localize_figure(&limit.to_string()),
            None => localize_figure(&format_value(f.unit, limit)),
        };
        let (lo, hi) = match other {
            Some(o) => (o.low, o.high),
            None => (limit, limit),
        };
        let holds = match self.op {
            Op::Lt => f.value < limit,
            Op::Le => f.value <= limit,
            Op::Gt => f.value > limit,
            Op::Ge => f.value >= limit,
            Op::Eq => f.value == limit,
            Op::Ne => f.value != limit,
            Op::Below => f.high < lo,
            Op::Above => f.low > hi,
            Op::Includes => f.low <= limit && limit <= f.high,
            Op::Excludes => !(f.low <= limit && limit <= f.high),
            Op::Citable | Op::NotCitable | Op::Is(_) => unreachable!("decided above"),
        };
        let relation = match (self.op, holds) {
            (Op::Below | Op::Above | Op::Includes | Op::Excludes, _) => {
                if f.high < lo {
                    tf!("interval wholly below {}", against)
                } else if f.low > hi {
                    tf!("interval wholly above {}", against)
                } else {
                    tf!("interval includes {}", against)
                }
            }
            (op, true) => format!("{} {against}", op.as_str()),
            (op, false) => tf!("not {} {}", op.as_str(), against),
        };
        done(holds, format!("{measured}: {relation}"))
    }

    fn bound_text(&self) -> String {
        match &self.bound {
            Some(Bound::Number(v)) => v.to_string(),
            Some(Bound::Figure(k)) => k.clone(),
            None => String::new(),
        }
    }
}

impl fmt::Display for Claim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.keys, self.op.as_str())?;
        if self.bound.is_some() {
            write!(f, " {}", self.bound_text())?;
        }
        if let Some(r) = &self.runtime {
            write!(f, " on={r}")?;
        }
        match &self.scope {
            Scope::Every => {}
            Scope::Any => write!(f, " machines=any")?,
            Scope::Machine(id) => write!(f, " machine={id}")?,
        }
        Ok(())
    }
}

/// At most this many alternatives a key pattern's `{a,b}` groups expand to (and at most
/// [`MAX_EXPANSION_BYTES`] of text written expanding them); [`Claim::parse`] refuses a pattern
/// past either. The groups multiply: `a{b,c}` twenty times over is a million keys, each matched
/// against every figure (the `directive` fuzz target: 42 bytes of a chapter took seconds and
/// gigabytes, exponentially more with each group).
pub const MAX_ALTERNATIVES: usize = 1000;

/// See [`MAX_ALTERNATIVES`].
pub const MAX_EXPANSION_BYTES: usize = 1 << 20;

/// The figures `pattern` names in `file`, in key order. A plain key (or `{a,b}` alternative)
/// names itself even when missing, so the check reports it missing; `*` names whatever matches,
/// possibly nothing. A pattern past [`MAX_ALTERNATIVES`] (which [`Claim::parse`] refuses) names
/// itself.
pub fn matching_keys(pattern: &str, file: &RunFile) -> Vec<String> {
    let Some(alternatives) = expand_braces(pattern) else {
        return vec![pattern.to_string()];
    };
    let mut out = Vec::new();
    for alternative in alternatives {
        if alternative.contains('*') {
            let glob = Glob::new(&alternative);
            out.extend(
                file.figures
                    .keys()
                    .filter(|k| glob.matches(k.as_bytes()))
                    .cloned(),
            );
        } else {
            out.push(alternative);
        }
    }
    out.sort();
    out.dedup();
    out
}

/// `a.{b,c}.d` → `a.b.d`, `a.c.d` (nested groups are not needed and not supported); `None` past
/// [`MAX_ALTERNATIVES`] or [`MAX_EXPANSION_BYTES`].
fn expand_braces(pattern: &str) -> Option<Vec<String>> {
    let mut out = Vec::new();
    let mut budget = MAX_EXPANSION_BYTES;
    expand_into(pattern, &mut out, &mut budget).then_some(out)
}

/// Pushes `pattern`'s expansion onto `out`; `false` once past a limit.
fn expand_into(pattern: &str, out: &mut Vec<String>, budget: &mut usize) -> bool {
    let (Some(open), Some(close)) = (pattern.find('{'), pattern.find('}')) else {
        out.push(pattern.to_string());
        return out.len() <= MAX_ALTERNATIVES;
    };
    if close < open {
        out.push(pattern.to_string());
        return out.len() <= MAX_ALTERNATIVES;
    }
    let (head, tail) = (&pattern[..open], &pattern[close + 1..]);
    for alt in pattern[open + 1..close].split(',') {
        let next = format!("{head}{alt}{tail}");
        let Some(left) = budget.checked_sub(next.len()) else {
            return false;
        };
        *budget = left;
        if !expand_into(&next, out, budget) {
            return false;
        }
    }
    true
}

/// `*` matches any run of characters other than `.`.
#[cfg(test)]
fn glob(pattern: &[u8], text: &[u8]) -> bool {
    Glob::new_bytes(pattern).matches(text)
}

/// A `*` pattern, ready to match many keys.
///
/// In time proportional to pattern × text: the backtracking version took exponential time in
/// the number of `*`s (the `directive` fuzz target hung on `{{#claim ****…x below 1}}`). A run
/// of `*`s is one `*`, and a key whose dots or literal start and end differ from the pattern's
/// is refused before that.
struct Glob {
    /// The pattern, runs of `*` as one.
    pattern: Vec<u8>,
    /// Its literal start (before the first `*`) and end (after the last).
    prefix: usize,
    suffix: usize,
    /// Its `.`s: a `*` matches none, so a key matches only with as many.
    dots: usize,
    /// Its bytes other than `*`: a key matches only with at least as many.
    literal: usize,
}

impl Glob {
    fn new(pattern: &str) -> Glob {
        Glob::new_bytes(pattern.as_bytes())
    }

    fn new_bytes(pattern: &[u8]) -> Glob {
        let mut p = Vec::with_capacity(pattern.len());
        for &c in pattern {
            if !(c == b'*' && p.last() == Some(&b'*')) {
                p.push(c);
            }
        }
        let prefix = p.iter().position(|&c| c == b'*').unwrap_or(p.len());
        let suffix = p.iter().rev().position(|&c| c == b'*').unwrap_or(p.len());
        Glob {
            prefix,
            suffix,
            dots: p.iter().filter(|&&c| c == b'.').count(),
            literal: p.iter().filter(|&&c| c != b'*').count(),
            pattern: p,
        }
    }

    fn matches(&self, text: &[u8]) -> bool {
        let p = &self.pattern;
        if text.len() < self.literal
            || !text.starts_with(&p[..self.prefix])
            || !text.ends_with(&p[p.len() - self.suffix..])
            || text.iter().filter(|&&c| c == b'.').count() != self.dots
        {
            return false;
        }
        // `can[j]`: the pattern so far matches `text[..j]`.
        let mut can = vec![false; text.len() + 1];
        let mut next = vec![false; text.len() + 1];
        can[0] = true;
        for &c in p {
            for j in 0..=text.len() {
                next[j] = if c == b'*' {
                    can[j] || (j > 0 && next[j - 1] && text[j - 1] != b'.')
                } else {
                    j > 0 && can[j - 1] && text[j - 1] == c
                };
            }
            std::mem::swap(&mut can, &mut next);
        }
        can[text.len()]
    }
}

/// What a ratio's interval says against a reference (1 for "the same").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// The whole interval is under the reference.
    Less,
    /// The whole interval is over it.
    More,
    /// The interval includes it: no measurable difference.
    Same,
    /// The noise gate rejected the figure: nothing to conclude.
    Unfit,
}

impl Direction {
    pub fn as_str(self) -> &'static str {
        match self {
            Direction::Less => "less",
            Direction::More => "more",
            Direction::Same => "same",
            Direction::Unfit => "unfit",
        }
    }

    /// `less`, `more` or `same` (what a sentence may expect; never `unfit`).
    pub fn parse(word: &str) -> Result<Direction, String> {
        match word {
            "less" => Ok(Direction::Less),
            "more" => Ok(Direction::More),
            "same" => Ok(Direction::Same),
            _ => Err(format!(
                "`{word}` is not a direction (use less, more or same)"
            )),
        }
    }

    /// The claim a sentence makes when it expects this direction of `key` (against 1).
    pub fn claim(self, key: &str) -> Claim {
        let want = match self {
            Direction::Unfit => Direction::Same,
            d => d,
        };
        Claim {
            keys: key.to_string(),
            op: Op::Is(want),
            bound: None,
            runtime: None,
            scope: Scope::Every,
        }
    }
}

/// Takes a directive's `on=RUNTIME` word out of `words` (a runtime name is lower-case letters,
/// digits, `_` and `-`); at most one.
pub fn runtime_option<'a>(words: &[&'a str]) -> Result<(Option<&'a str>, Vec<&'a str>), String> {
    let mut runtime = None;
    let mut rest = Vec::with_capacity(words.len());
    for &w in words {
        match w.strip_prefix("on=") {
            Some(r) => {
                let ok = !r.is_empty()
                    && r.bytes().all(|b| {
                        b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-'
                    });
                if !ok {
                    return Err(format!("`{w}`: a runtime is named like `on=wasm32`"));
                }
                if runtime.replace(r).is_some() {
                    return Err("a claim names one runtime (`on=` twice)".into());
                }
            }
            None => rest.push(w),
        }
    }
    Ok((runtime, rest))
}

/// The file of each machine among `files` measured with `primary`'s runtime, `primary` first:
/// the machines a claim is checked on, one file each (the newest when a machine has several).
pub fn machines<'a>(primary: &'a RunFile, files: &'a [RunFile]) -> Vec<&'a RunFile> {
    let mut out = vec![primary];
    for f in files {
        if f.run.runtime != primary.run.runtime {
            continue;
        }
        match out.iter_mut().find(|o| o.machine.id == f.machine.id) {
            Some(o) if o.machine.id != primary.machine.id && f.run.date > o.run.date => *o = f,
            Some(_) => {}
            None => out.push(f),
        }
    }
    out
}

/// Takes a claim's `machines=every|any` or `machine=ID` word out of `words`; at most one.
pub fn scope_option<'a>(words: &[&'a str]) -> Result<(Scope, Vec<&'a str>), String> {
    let mut scope = None;
    let mut rest = Vec::with_capacity(words.len());
    for &w in words {
        let s = match (w.strip_prefix("machines="), w.strip_prefix("machine=")) {
            (Some("every"), _) => Scope::Every,
            (Some("any"), _) => Scope::Any,
            (Some(_), _) => {
                return Err(format!(
                    "`{w}`: a claim speaks for `machines=every`, `machines=any` or `machine=ID`"
                ));
            }
            (None, Some(id)) => {
                let ok = !id.is_empty()
                    && id.bytes().all(|b| {
                        b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'.'
                    });
                if !ok {
                    return Err(format!(
                        "`{w}`: a machine is named like `machine=amd-zen3-2c`"
                    ));
                }
                Scope::Machine(id.to_string())
            }
            (None, None) => {
                rest.push(w);
                continue;
            }
        };
        if scope.replace(s).is_some() {
            return Err("a claim names its machines once".into());
        }
    }
    Ok((scope.unwrap_or_default(), rest))
}

/// The verdict rule: where the figure's 95 % interval and its median lie against `reference`
/// and the band of practical equivalence around it (module docs).
///
/// ```
/// use bench_data::claim::{direction, Direction};
/// # let mut f = bench_data::Figure { title: String::new(), unit: bench_data::Unit::Ratio,
/// #     value: 0.865, low: 0.864, high: 0.871, samples: 400, cv: 0.03, cv_plain: 0.03,
/// #     verdict: bench_data::Verdict::RatioOnly, gate_note: String::new(), repeats: vec![],
/// #     instructions: None };
/// assert_eq!(direction(&f, 1.0), Direction::Less);
/// f.high = 1.01;
/// assert_eq!(direction(&f, 1.0), Direction::Same);
/// // Measurably less, but by 1.8 %: the same for practice.
/// (f.value, f.low, f.high) = (0.982, 0.975, 0.99);
/// assert_eq!(direction(&f, 1.0), Direction::Same);
/// ```
pub fn direction(f: &Figure, reference: f64) -> Direction {
    if f.verdict == Verdict::Unfit {
        return Direction::Unfit;
    }
    match reading(f.value, f.low, f.high, reference) {
        Reading::Less => Direction::Less,
        Reading::More => Direction::More,
        Reading::WithinBand | Reading::NoDifference => Direction::Same,
    }
}

/// A figure's gate note in this thread's words and numbers (`crate::note_words`).
fn note(f: &Figure) -> String {
    localize_figure(&crate::note_words(&f.gate_note))
}

/// The words a verdict renders: `0.865× [0.864–0.871]: less time`. `less` and `more` are the
/// sentence's words for each side (default "less time", "more time").
pub fn verdict_words(f: &Figure, less: &str, more: &str) -> String {
    let measured = format_with_interval(f);
    if f.verdict == Verdict::Unfit {
        return tf!("not citable ({}): too noisy to say which way", f.gate_note);
    }
    match reading(f.value, f.low, f.high, 1.0) {
        Reading::Less => format!("{measured}: {less}"),
        Reading::More => format!("{measured}: {more}"),
        Reading::WithinBand => {
            let (pct, side) = if f.value < 1.0 {
                ((1.0 - f.value) * 100.0, t!("less"))
            } else {
                ((f.value - 1.0) * 100.0, t!("more"))
            };
            format!(
                "{measured}: {}",
                tf!(
                    "the same for practice ({} % {}, inside the ±{} % band)",
                    format!("{pct:.1}"),
                    side,
                    format!("{:.0}", EQUIVALENCE_BAND * 100.0)
                )
            )
        }
        Reading::NoDifference => {
            format!(
                "{measured}: {}",
                t!("no measurable difference (the 95 % interval includes 1)")
            )
        }
    }
}

#[cfg(test)]
mod tests;

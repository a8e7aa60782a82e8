//! `{{#claim KEY OP [VALUE]}}`: a sentence's promise, checked against the data of every machine
//! it speaks for (`machines=every`, the default; `machines=any`; `machine=ID`).
//!
//! A chapter says "the pool is cheaper than a fresh allocation" and backs it with
//! `{{#claim rent_return.4096.pool_vs_fresh_vec below 1}}`. When the data supports it, a small ✓
//! marks the sentence; when an instructor's machine does not (⚠), or its figure is too noisy to say
//! (?), the page says so next to the sentence and the build lists the claim, so nobody teaches a
//! sentence their own numbers contradict. The operators and the check are `bench_data::claim`'s
//! (one implementation, shared with the end-to-end tests); this module only renders.

use bench_data::RunFile;
use bench_data::claim::{Bound, Check, Claim, Mark, Op, matching_keys};
use lab_text::{n, t, tf};

use super::{citable, format_value};

use super::{escape, popover};
use crate::data::Data;

/// Renders the claim's mark; an unknown key or a malformed claim is an error.
pub fn claim(words: &[&str], data: &Data) -> Result<String, String> {
    let claim = Claim::parse(words)?;
    let primary = data.primary()?;
    // A claim on another runtime (`on=wasm32`) that this machine did not measure stays open.
    let Some(file) = claim.file(primary, data.files()) else {
        let check = claim.check_machines(primary, data.files())?;
        return Ok(mark(&claim, &check, data));
    };
    // A figure the deciding file lacks is a broken chapter, not an open question.
    if claim.is_every() {
        if matching_keys(&claim.keys, file)
            .iter()
            .all(|k| !file.figures.contains_key(k))
        {
            return Err(format!(
                "no figure matches `{}` in {}.json: rerun `cargo xtask bench`, or fix the pattern",
                claim.keys,
                file.label()
            ));
        }
    } else {
        data.figure_in(file, &claim.keys)?;
    }
    if let Some(bench_data::claim::Bound::Figure(other)) = &claim.bound {
        data.figure_in(file, other)?;
    }
    // Decided on every machine the sentence speaks for, not only on the primary.
    let check = claim.check_machines(primary, data.files())?;
    Ok(mark(&claim, &check, data))
}

/// What a claim's comparison says, in words a reader reads ("at most", "wholly under").
fn relation(op: Op) -> String {
    match op {
        Op::Lt => t!("under"),
        Op::Le => t!("at most"),
        Op::Gt => t!("over"),
        Op::Ge => t!("at least"),
        Op::Eq => t!("exactly"),
        Op::Ne => t!("not"),
        Op::Below => t!("wholly under (its 95 % interval)"),
        Op::Above => t!("wholly over (its 95 % interval)"),
        Op::Includes => t!("an interval that includes"),
        Op::Excludes => t!("an interval that excludes"),
        Op::Citable => t!("citable"),
        Op::NotCitable => t!("not citable"),
        Op::Is(bench_data::claim::Direction::Less) => t!("less than 1 by more than the ±5 % band"),
        Op::Is(bench_data::claim::Direction::More) => t!("more than 1 by more than the ±5 % band"),
        Op::Is(_) => t!("the same as 1 for practice (within ±5 %, or the interval includes 1)"),
    }
    .into_owned()
}

/// The figure a key names, as a reader reads it: its title and its value, or that the gate
/// keeps it back.
fn figure_words(key: &str, file: &RunFile) -> Option<(String, String)> {
    let f = file.figures.get(key)?;
    let value = if citable(f) {
        lab_text::tr::localize_figure(&format_value(f.unit, f.value))
    } else {
        t!("too noisy to print").into_owned()
    };
    Some((lab_text::tr::get_dynamic(&f.title), value))
}

/// The claim in words ("Holds: return with clear ÷ without, 1048576 B is 7,287×, wholly over
/// return with clear ÷ without, 16 B (4.61×)"), without keys: the keys stay in the mark's
/// `data-claim` for the instructors' page and the tests.
pub fn words(claim: &Claim, check: &Check, file: &RunFile) -> String {
    let verdict = verdict_word(check.mark);
    let keys = matching_keys(&claim.keys, file);
    let bound = match (&claim.op, &claim.bound) {
        (Op::Citable | Op::NotCitable | Op::Is(_), _) => relation(claim.op).to_string(),
        (op, Some(Bound::Number(v))) => {
            let unit = file
                .figures
                .get(keys.first().map(String::as_str).unwrap_or(""));
            let v = match unit {
                Some(f) if f.unit != bench_data::Unit::Ratio => {
                    lab_text::tr::localize_figure(&format_value(f.unit, *v))
                }
                _ => lab_text::tr::localize_figure(&format!("{v}×")),
            };
            format!("{} {v}", relation(*op))
        }
        (op, Some(Bound::Figure(k))) => match figure_words(k, file) {
            Some((title, value)) => format!("{} {title} ({value})", relation(*op)),
            None => tf!("{} a figure not measured here", relation(*op)),
        },
        (_, None) => String::new(),
    };
    let mut shown: Vec<String> = keys
        .iter()
        .take(4)
        .filter_map(|k| figure_words(k, file))
        .map(|(title, value)| tf!("{} is {}", title, value))
        .collect();
    if keys.len() > 4 {
        shown.push(tf!("and {} more", keys.len() - 4));
    }
    let bound = if keys.len() > 1 {
        tf!("each {}", bound)
    } else {
        bound
    };
    tf!(
        "{}: {}, {}. (Measured on {}, run of {}.)",
        verdict,
        shown.join("; "),
        bound,
        file.label(),
        file.run.date.get(..10).unwrap_or(&file.run.date)
    )
}

/// A mark in words: "Holds", "Does not hold", …
fn verdict_word(mark: Mark) -> String {
    match mark {
        Mark::Holds => t!("Holds"),
        Mark::Contradicted => t!("Does not hold"),
        Mark::Open => t!("Cannot be checked (too noisy)"),
        Mark::Missing => t!("Cannot be checked (not measured)"),
    }
    .into_owned()
}

/// The ✓ / ⚠ / ? mark of a checked claim: a small button whose popover says in words what the
/// data shows (so keyboards and touch screens reach it, not only a mouse hovering).
pub fn mark(claim: &Claim, check: &Check, data: &Data) -> String {
    let Ok(file) = data.primary() else {
        return String::new();
    };
    let file_id = file.label();
    let (class, shown, note) = match check.mark {
        Mark::Holds => (
            "lab-claim-ok",
            "✓".into(),
            n!("supported by this machine's data"),
        ),
        Mark::Contradicted => (
            "lab-claim-broken",
            t!("⚠ not supported by this machine's data"),
            n!("contradicted"),
        ),
        Mark::Open => (
            "lab-claim-open",
            "?".into(),
            n!("too noisy on this machine to check"),
        ),
        Mark::Missing => (
            "lab-claim-open",
            "?".into(),
            n!("not measured on this machine"),
        ),
    };
    if check.mark != Mark::Holds {
        data.warn(format!(
            "claim {claim} on {file_id}: {note}: {}",
            check.shows
        ));
    }
    if data.story() {
        return story_mark(claim, check);
    }
    popover(
        data,
        &format!(
            "class=\"lab-claim {class}\" data-claim=\"{}\" data-holds=\"{}\" aria-label=\"{}\"",
            escape(&claim.to_string()),
            check.mark == Mark::Holds,
            escape(&tf!("claim: {}", lab_text::tr::get_dynamic(note))),
        ),
        &shown,
        &escape(
            &if bench_data::claim::machines(file, data.files()).len() > 1 {
                // Several machines decided it: what each one shows, by name.
                format!("{}: {}", verdict_word(check.mark), check.shows)
            } else {
                words(claim, check, file)
            },
        ),
    )
}

/// A claim's mark in a story chapter: nothing while the data supports the sentence or cannot
/// decide it (the mark and its words are on the instructors' page, and the build lists it); a ⚠ linking there when it does not, so
/// an instructor reading a normal build still sees the sentence their data contradicts.
fn story_mark(claim: &Claim, check: &Check) -> String {
    let attrs = format!(
        "data-claim=\"{}\" data-holds=\"{}\"",
        escape(&claim.to_string()),
        check.mark == Mark::Holds
    );
    if check.mark == Mark::Contradicted {
        format!(
            "<a class=\"lab-claim lab-claim-broken\" {attrs} href=\"{}#every-claim-of-the-book\" title=\"{}\">⚠</a>",
            crate::ledger::PAGE,
            escape(&words_for_title(check))
        )
    } else {
        String::new()
    }
}

fn words_for_title(check: &Check) -> String {
    tf!("not supported by this machine's data: {}", check.shows)
}

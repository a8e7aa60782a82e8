//! `{{#claim KEY OP [VALUE]}}`: a sentence's promise, checked against the primary machine's data.
//!
//! A chapter says "the pool is cheaper than a fresh allocation" and backs it with
//! `{{#claim rent_return.4096.pool_vs_fresh_vec below 1}}`. When the data supports it, a small ✓
//! marks the sentence; when an instructor's machine does not (⚠), or its figure is too noisy to say
//! (?), the page says so next to the sentence and the build lists the claim, so nobody teaches a
//! sentence their own numbers contradict. The operators and the check are `bench_data::claim`'s
//! (one implementation, shared with the end-to-end tests); this module only renders.

use bench_data::RunFile;
use bench_data::claim::{Bound, Check, Claim, Mark, Op, matching_keys};

use super::{citable, format_value};

use super::{escape, popover};
use crate::data::Data;

/// Renders the claim's mark; an unknown key or a malformed claim is an error.
pub fn claim(words: &[&str], data: &Data) -> Result<String, String> {
    let claim = Claim::parse(words)?;
    let file = data.primary()?;
    // A figure the primary machine lacks is a broken chapter, not an open question.
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
        data.figure(&claim.keys)?;
    }
    if let Some(bench_data::claim::Bound::Figure(other)) = &claim.bound {
        data.figure(other)?;
    }
    let check = claim.check(file)?;
    Ok(mark(&claim, &check, data))
}

/// What a claim's comparison says, in words a reader reads ("at most", "wholly under").
fn relation(op: Op) -> &'static str {
    match op {
        Op::Lt => "under",
        Op::Le => "at most",
        Op::Gt => "over",
        Op::Ge => "at least",
        Op::Eq => "exactly",
        Op::Ne => "not",
        Op::Below => "wholly under (its 95 % interval)",
        Op::Above => "wholly over (its 95 % interval)",
        Op::Includes => "an interval that includes",
        Op::Excludes => "an interval that excludes",
        Op::Citable => "citable",
        Op::NotCitable => "not citable",
        Op::Is(bench_data::claim::Direction::Less) => "less than 1 by more than the ±5 % band",
        Op::Is(bench_data::claim::Direction::More) => "more than 1 by more than the ±5 % band",
        Op::Is(_) => "the same as 1 for practice (within ±5 %, or the interval includes 1)",
    }
}

/// The figure a key names, as a reader reads it: its title and its value, or that the gate
/// keeps it back.
fn figure_words(key: &str, file: &RunFile) -> Option<(String, String)> {
    let f = file.figures.get(key)?;
    let value = if citable(f) {
        format_value(f.unit, f.value)
    } else {
        "too noisy to print".to_string()
    };
    Some((f.title.clone(), value))
}

/// The claim in words ("Holds: return with clear ÷ without, 1048576 B is 7,287×, wholly over
/// return with clear ÷ without, 16 B (4.61×)"), without keys: the keys stay in the mark's
/// `data-claim` for the instructors' page and the tests.
pub fn words(claim: &Claim, check: &Check, file: &RunFile) -> String {
    let verdict = match check.mark {
        Mark::Holds => "Holds",
        Mark::Contradicted => "Does not hold",
        Mark::Open => "Cannot be checked (too noisy)",
        Mark::Missing => "Cannot be checked (not measured)",
    };
    let keys = matching_keys(&claim.keys, file);
    let bound = match (&claim.op, &claim.bound) {
        (Op::Citable | Op::NotCitable | Op::Is(_), _) => relation(claim.op).to_string(),
        (op, Some(Bound::Number(v))) => {
            let unit = file
                .figures
                .get(keys.first().map(String::as_str).unwrap_or(""));
            let v = match unit {
                Some(f) if f.unit != bench_data::Unit::Ratio => format_value(f.unit, *v),
                _ => format!("{v}×"),
            };
            format!("{} {v}", relation(*op))
        }
        (op, Some(Bound::Figure(k))) => match figure_words(k, file) {
            Some((title, value)) => format!("{} {title} ({value})", relation(*op)),
            None => format!("{} a figure not measured here", relation(*op)),
        },
        (_, None) => String::new(),
    };
    let mut shown: Vec<String> = keys
        .iter()
        .take(4)
        .filter_map(|k| figure_words(k, file))
        .map(|(title, value)| format!("{title} is {value}"))
        .collect();
    if keys.len() > 4 {
        shown.push(format!("and {} more", keys.len() - 4));
    }
    let each = if keys.len() > 1 { "each " } else { "" };
    format!(
        "{verdict}: {}, {each}{bound}. (Measured on {}, run of {}.)",
        shown.join("; "),
        file.label(),
        file.run.date.get(..10).unwrap_or(&file.run.date)
    )
}

/// The ✓ / ⚠ / ? mark of a checked claim: a small button whose popover says in words what the
/// data shows (so keyboards and touch screens reach it, not only a mouse hovering).
pub fn mark(claim: &Claim, check: &Check, data: &Data) -> String {
    let Ok(file) = data.primary() else {
        return String::new();
    };
    let file_id = file.label();
    let (class, shown, note) = match check.mark {
        Mark::Holds => ("lab-claim-ok", "✓", "supported by this machine's data"),
        Mark::Contradicted => (
            "lab-claim-broken",
            "⚠ not supported by this machine's data",
            "contradicted",
        ),
        Mark::Open => ("lab-claim-open", "?", "too noisy on this machine to check"),
        Mark::Missing => ("lab-claim-open", "?", "not measured on this machine"),
    };
    if check.mark != Mark::Holds {
        data.warn(format!(
            "claim {claim} on {file_id}: {note}: {}",
            check.shows
        ));
    }
    popover(
        data,
        &format!(
            "class=\"lab-claim {class}\" data-claim=\"{}\" data-holds=\"{}\" aria-label=\"claim: {note}\"",
            escape(&claim.to_string()),
            check.mark == Mark::Holds,
        ),
        shown,
        &escape(&words(claim, check, file)),
    )
}

//! `{{#claim KEY OP VALUE}}` (VALUE: a number or another figure's key): a sentence's promise,
//! checked against the primary machine's data.
//!
//! A chapter says "the pool is cheaper than a fresh allocation" and backs it with
//! `{{#claim rent_return.4096.pool_vs_fresh_vec < 1}}`. When the data supports it, a small ✓ marks
//! the sentence; when an instructor's machine does not (or its figure is too noisy to say), the
//! page says so next to the sentence and the build lists the claim, so nobody teaches a sentence
//! their own numbers contradict.

use bench_data::Verdict;

use super::{escape, format_value};
use crate::data::Data;

/// Renders the claim's marker; an unknown key or a malformed claim is an error.
pub fn claim(key: &str, op: &str, bound: &str, data: &Data) -> Result<String, String> {
    let (file, f) = data.figure(key)?;
    // The bound is a number, or another figure of the same machine (`a.bytes > b.bytes`).
    let (limit, other_unfit) = match bound.parse::<f64>() {
        Ok(limit) => (limit, false),
        Err(_) if bound.contains('.') => {
            let (_, other) = data.figure(bound)?;
            (other.value, other.verdict == Verdict::Unfit)
        }
        Err(_) => {
            return Err(format!(
                "`{bound}` is not a number or a figure to compare with"
            ));
        }
    };
    let holds = match op {
        "<" => f.value < limit,
        "<=" => f.value <= limit,
        ">" => f.value > limit,
        ">=" => f.value >= limit,
        _ => return Err(format!("`{op}` is not a comparison (use <, <=, > or >=)")),
    };
    let shown = format_value(f.unit, f.value);
    let what = format!(
        "{key} {op} {bound} on {}: measured {shown}",
        file.machine.id
    );
    let unfit = f.verdict == Verdict::Unfit || other_unfit;
    let (class, mark, note) = match (unfit, holds) {
        (true, _) => (
            "lab-claim lab-claim-open",
            "?",
            "too noisy on this machine to check",
        ),
        (_, true) => (
            "lab-claim lab-claim-ok",
            "✓",
            "supported by this machine's data",
        ),
        (false, false) => (
            "lab-claim lab-claim-broken",
            "⚠ not supported by this machine's data",
            "contradicted",
        ),
    };
    if unfit || !holds {
        data.warn(format!("claim {what}: {note}"));
    }
    Ok(format!(
        "<span class=\"{class}\" data-claim=\"{}\" data-holds=\"{}\" title=\"{}\">{mark}</span>",
        escape(&format!("{key} {op} {bound}")),
        holds && !unfit,
        escape(&format!("{what} ({note})"))
    ))
}

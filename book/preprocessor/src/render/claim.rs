//! `{{#claim KEY OP [VALUE]}}`: a sentence's promise, checked against the primary machine's data.
//!
//! A chapter says "the pool is cheaper than a fresh allocation" and backs it with
//! `{{#claim rent_return.4096.pool_vs_fresh_vec below 1}}`. When the data supports it, a small ✓
//! marks the sentence; when an instructor's machine does not (⚠), or its figure is too noisy to say
//! (?), the page says so next to the sentence and the build lists the claim, so nobody teaches a
//! sentence their own numbers contradict. The operators and the check are `bench_data::claim`'s
//! (one implementation, shared with the end-to-end tests); this module only renders.

use bench_data::claim::{Check, Claim, Mark, matching_keys};

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

/// The ✓ / ⚠ / ? mark of a checked claim: a button whose popover says what the data shows (so
/// keyboards and touch screens reach it, not only a mouse hovering).
pub fn mark(claim: &Claim, check: &Check, data: &Data) -> String {
    let file_id = data.primary().map(|f| f.label()).unwrap_or_default();
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
        &escape(&format!(
            "{shown} {claim} on {file_id}: {} ({note})",
            check.shows
        )),
    )
}

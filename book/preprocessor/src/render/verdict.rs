//! `{{#verdict KEY [expect=less|more|same] [less=WORDS] [more=WORDS] [on=RUNTIME]}}`: a ratio's conclusion in
//! words the data decides, e.g. "0.865× [0.864–0.871]: less time", or "no measurable difference
//! (the 95 % interval includes 1)".
//!
//! The rule is `bench_data::claim::direction` (the whole 95 % interval against 1). `less=` and
//! `more=` give the sentence's words for each side (`_` for a space; default "less time" and
//! "more time"). With `expect=`, the sentence also depends on the direction (its other words say
//! which way it goes): the verdict then carries a claim mark, and a strict build fails when the
//! data goes the other way.

use bench_data::Unit;
use bench_data::claim::{Direction, direction, verdict_words};

use super::{claim, escape};
use crate::data::Data;

pub fn verdict(key: &str, options: &[&str], data: &Data) -> Result<String, String> {
    // `on=wasm32`: the verdict of that runtime's file of the primary's machine.
    let on = options.iter().find_map(|o| o.strip_prefix("on="));
    if let Some(runtime) = on {
        let primary = data.primary()?;
        let probe = Direction::Same.claim(key).on(on);
        if probe.file(primary, data.files()).is_none() {
            // This machine has no such runtime's file: the sentence stays open, not broken.
            data.warn(format!(
                "verdict on `{key}` on={runtime}: {} has no {runtime} data",
                primary.label()
            ));
            let mut html = format!(
                "<span class=\"lab-data-verdict\" data-verdict=\"{}\" data-direction=\"missing\">{}</span>",
                escape(key),
                escape(&lab_text::tf!("not measured on this machine ({})", runtime))
            );
            if let Some(w) = options.iter().find_map(|o| o.strip_prefix("expect=")) {
                let claim = Direction::parse(w)?.claim(key).on(on);
                let check = claim.check_machines(primary, data.files())?;
                html.push_str(&claim::mark(&claim, &check, data));
            }
            return Ok(html);
        }
    }
    let (file, f) = data.figure_on(on, key)?;
    if f.unit != Unit::Ratio {
        return Err(format!(
            "`{key}` is not a ratio: a verdict compares a ratio with 1 (use a claim for other figures)"
        ));
    }
    // The words in the page's language: the defaults are the lab's messages, a directive's own
    // words are looked up in the lab's catalog (`cargo xtask i18n` extracts them from the book).
    let (mut less, mut more, mut expect) = (
        lab_text::t!("less time").into_owned(),
        lab_text::t!("more time").into_owned(),
        None,
    );
    for option in options {
        match option.split_once('=') {
            Some(("less", w)) => less = lab_text::tr::get_dynamic(&w.replace('_', " ")),
            Some(("more", w)) => more = lab_text::tr::get_dynamic(&w.replace('_', " ")),
            Some(("expect", w)) => expect = Some(Direction::parse(w)?),
            Some(("on", _)) => {}
            _ => {
                return Err(format!(
                    "unknown verdict option `{option}` (known: expect=less|more|same, less=WORDS, more=WORDS, on=RUNTIME)"
                ));
            }
        }
    }
    let dir = direction(f, 1.0);
    if data.story() {
        let words = lab_text::tr::localize_figure(&story_words(f, &less, &more));
        let (href, id) = crate::ledger::link(data, key);
        let id = id.map(|id| format!(" id=\"{id}\"")).unwrap_or_default();
        let mut html = format!(
            "<a class=\"lab-data-verdict\" href=\"{}\"{id} data-verdict=\"{}\" data-machine=\"{}\" data-direction=\"{}\">{}</a>",
            escape(&href),
            escape(key),
            escape(&file.stem()),
            dir.as_str(),
            escape(&words)
        );
        if let Some(expect) = expect {
            let claim = expect.claim(key).on(on);
            let check = claim.check(file)?;
            html.push_str(&claim::mark(&claim, &check, data));
        }
        return Ok(html);
    }
    let words = lab_text::tr::localize_figure(&verdict_words(f, &less, &more));
    let mut html = format!(
        "<span class=\"lab-data-verdict\" data-verdict=\"{}\" data-machine=\"{}\" data-direction=\"{}\">{}</span>",
        escape(key),
        escape(&file.stem()),
        dir.as_str(),
        escape(&words)
    );
    if dir == Direction::Unfit {
        data.warn(format!(
            "verdict on `{key}` on {}: too noisy to say ({})",
            file.label(),
            f.gate_note
        ));
    }
    if let Some(expect) = expect {
        let claim = expect.claim(key).on(on);
        let check = claim.check_machines(data.primary()?, data.files())?;
        html.push_str(&claim::mark(&claim, &check, data));
    }
    Ok(html)
}

/// A verdict in a story chapter: the ratio and what it means, without its interval or the
/// gate's words (both are in the ledger, a click away).
fn story_words(f: &bench_data::Figure, less: &str, more: &str) -> String {
    use lab_text::verdict::{Reading, reading};
    if !super::citable(f) {
        return lab_text::t!("no steady difference either way").into_owned();
    }
    let value = super::format_value(f.unit, f.value);
    match reading(f.value, f.low, f.high, 1.0) {
        Reading::Less => format!("{value}: {less}"),
        Reading::More => format!("{value}: {more}"),
        Reading::WithinBand => format!("{value}: {}", lab_text::t!("the same for practice")),
        Reading::NoDifference => lab_text::t!("no measurable difference").into_owned(),
    }
}

//! `{{#instructions}}`, `{{#listing KEY}}` and `{{#instr KEY}}`: the instruction check's evidence.
//!
//! `{{#instructions}}` is a table of every hot-path figure of the primary file that the bench
//! counted (callgrind, on the bench's own loop): instructions and macro-ops per iteration, the
//! time, the clock, the macro-ops per cycle that time implies, and the bound they are checked
//! against (the core's sustained width, with its source), with whether each figure meets it. A
//! figure over the bound is not citable as a time, and the table says what that means. Files
//! from before the fusion count have no macro-ops: their bound is checked with instructions,
//! which can only overstate the rate. `{{#listing KEY}}` shows the machine code of the loop
//! behind `KEY` next to its time; `{{#instr KEY}}` its instructions per iteration in prose.

use bench_data::bound::{clock_words, fusion_words, width_words};
use bench_data::format_value;
use lab_text::tr::localize_figure;
use lab_text::{f, t, tf, tp};

use super::{cell_compact, escape};
use crate::data::Data;

/// `x` with `digits` decimals, as the page's language writes numbers.
fn number(x: f64, digits: usize) -> String {
    localize_figure(&format!("{x:.digits$}"))
}

pub fn table(data: &Data) -> Result<String, String> {
    let file = data.primary()?;
    let Some(clock) = &file.run.clock else {
        return Ok(format!(
            "\n\n<p class=\"lab-note\">{}</p>\n\n",
            escape(&tf!(
                "{} has no instruction counts (valgrind was not installed, or the data predates the check).",
                file.label()
            ))
        ));
    };
    let fusion = match &clock.fusion {
        Some(rule) => tf!("Fused pairs: {}.", fusion_words(rule)),
        None => t!(
            "Macro-ops were not counted in this file (it predates the fusion count): each figure is checked with its instructions, which can only overstate the rate."
        )
        .to_string(),
    };
    // A file from before the fusion count has no macro-ops at all: its table leaves the column
    // out (every cell would say "not counted") and its rate is in instructions, as the note says.
    let counted = file.figures.values().any(|f| {
        f.instructions
            .as_ref()
            .is_some_and(|i| i.macro_ops_per_iteration.is_some())
    });
    let mut heads = vec![t!("figure"), t!("instructions per iteration")];
    if counted {
        heads.push(t!("macro-ops per iteration"));
    }
    heads.push(t!("time per iteration"));
    heads.push(if counted {
        t!("implied macro-ops per cycle")
    } else {
        t!("implied instructions per cycle")
    });
    heads.push(t!("meets the bound?"));
    let mut html = format!(
        "\n\n<p class=\"lab-note lab-bound\">{} {} {}</p>\n\n\
         <table class=\"lab-instructions\"><thead><tr>{}</tr></thead><tbody>",
        escape(&tf!(
            "Clock: {} GHz ({}).",
            number(clock.max_ghz, 2),
            clock_words(&clock.source)
        )),
        escape(&tf!(
            "Bound: {} macro-ops per cycle ({}).",
            number(clock.sustained_width, 0),
            width_words(&clock.sustained_width_source)
        )),
        escape(&fusion),
        heads
            .iter()
            .map(|h| format!("<th>{}</th>", escape(h)))
            .collect::<String>(),
    );
    let mut over_any = false;
    for (key, f) in &file.figures {
        let Some(i) = &f.instructions else { continue };
        let rate = f.implied_rate(Some(clock)).unwrap_or(f64::INFINITY);
        let over = f.over_bound(Some(clock));
        over_any |= over;
        // In a file with macro-ops, a figure without them (not counted in that run) says so.
        let (macro_ops, rate) = match (counted, i.macro_ops_per_iteration) {
            (false, _) => (String::new(), number(rate, 2)),
            (true, Some(m)) => (f!("<td>{}</td>", number(m, 1)), number(rate, 2)),
            (true, None) => (
                f!("<td>{}</td>", escape(&t!("not counted"))),
                tf!("{} (instructions)", number(rate, 2)),
            ),
        };
        html.push_str(&format!(
            "<tr data-key=\"{}\"{}><td><code>{}</code></td><td>{}</td>{}<td>{}</td>\
             <td>{}</td><td{}>{}</td></tr>",
            escape(key),
            if over {
                " class=\"lab-over-bound\""
            } else {
                ""
            },
            escape(key),
            number(i.per_iteration, 1),
            macro_ops,
            cell_compact(key, f, file, data),
            escape(&rate),
            if over {
                " class=\"lab-claim-broken\""
            } else {
                ""
            },
            if over {
                t!("no: not citable as a time")
            } else {
                t!("yes")
            }
        ));
    }
    html.push_str("</tbody></table>\n\n");
    html.push_str(&format!(
        "<p class=\"lab-note\">{}</p>\n\n",
        escape(&t!(
            "A figure over the bound is not citable as a time: the time is too short for the work counted, so either the loop measured is not the loop counted or the clock is wrong. Ratios of such a figure may still be cited."
        ))
    ));
    if over_any {
        data.warn(format!(
            "{}: a figure is over the instruction check's bound (see the {{{{#instructions}}}} table)",
            file.label()
        ));
    }
    Ok(html)
}

pub fn listing(key: &str, data: &Data) -> Result<String, String> {
    let (file, f) = data.figure(key)?;
    let Some(l) = file.listings.get(key) else {
        return Err(format!(
            "{}.json has no listing of `{key}` (the bench keeps one, for rent_return.16.pool)",
            file.stem()
        ));
    };
    let share = number(l.share * 100.0, 1);
    let counted = match &f.instructions {
        Some(i) => match i.macro_ops_per_iteration {
            Some(m) => tf!(
                "{} instructions and {} macro-ops per iteration (callgrind); the function below executes {} % of the loop's instructions:",
                number(i.per_iteration, 1),
                number(m, 1),
                share
            ),
            None => tf!(
                "{} instructions per iteration (callgrind); the function below executes {} % of the loop's instructions:",
                number(i.per_iteration, 1),
                share
            ),
        },
        None => tf!(
            "the function below executes {} % of the loop's instructions:",
            share
        ),
    };
    Ok(format!(
        "\n\n<figure class=\"lab-listing\" data-key=\"{}\"><figcaption><code>{}</code>: {}; {} \
         <code>{}</code></figcaption><pre><code>{}</code></pre></figure>\n\n",
        escape(key),
        escape(key),
        escape(&localize_figure(&format_value(f.unit, f.value))),
        escape(&counted),
        escape(&l.function),
        escape(&l.lines.join("\n"))
    ))
}

/// `{{#instr KEY}}`: the instructions per iteration of the loop behind `KEY` (callgrind).
pub fn instr(key: &str, data: &Data) -> Result<String, String> {
    let (file, f) = data.figure(key)?;
    let Some(i) = &f.instructions else {
        return Err(format!(
            "`{key}` on {} has no instruction count (only timings under 5 ns are counted)",
            file.label()
        ));
    };
    let n = i.per_iteration.round() as u64;
    Ok(format!(
        "<span class=\"lab-instr\" data-key=\"{}\" data-machine=\"{}\">{}</span>",
        escape(key),
        escape(&file.stem()),
        escape(&localize_figure(&tp!(
            n,
            "{} instruction",
            "{} instructions"
        )))
    ))
}

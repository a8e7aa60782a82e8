//! Turning directives into HTML.

use bench_data::{Figure, RunFile};
pub use bench_data::{citable, format_value};
use lab_text::group_digits;
use lab_text::html::escape;

use crate::data::Data;
use crate::directive::{self, Directive};

pub(crate) mod chart;
mod claim;
mod instructions;
mod machine;
mod quiz;
mod report;
mod verdict;
mod widget;

/// The chapter with every directive replaced, or every problem found in it.
pub fn chapter(content: &str, data: &Data) -> Result<String, Vec<String>> {
    // The sentence forms the data chooses between (`{{#when}}`), before any figure renders.
    let chosen = crate::ledger::choose_forms(content, data).map_err(|e| vec![e])?;
    let content = chosen.as_str();
    let mut out = String::with_capacity(content.len());
    let mut errors = Vec::new();
    let mut last = 0;
    let mut key = quiz::Key::default();
    for (line, name) in directive::unknown(content) {
        errors.push(format!(
            "line {line}: {{{{#{name}}}}} is no directive of this book or of mdBook (known: {}); it would reach the reader as text",
            directive::NAMES.join(", ")
        ));
    }
    for d in directive::find(content) {
        out.push_str(&directive::unescape(&content[last..d.start]));
        match one(&d, data, &mut key) {
            // A mark a story chapter does not show leaves no space before the punctuation
            // after it ("… 0 B ✓." becomes "… 0 B.", not "… 0 B .").
            Ok(html) if html.is_empty() && starts_with_punctuation(&content[d.end..]) => {
                out.truncate(out.trim_end().len());
            }
            Ok(html) => out.push_str(&html),
            Err(e) => errors.push(format!(
                "line {}: {{{{#{} {}}}}}: {e}",
                directive::line_of(content, d.start),
                d.name,
                d.args.join(" ")
            )),
        }
        last = d.end;
    }
    out.push_str(&directive::unescape(&content[last..]));
    if data.story() {
        out.push_str(&crate::ledger::footer(data));
    }
    out.push_str(&quiz::answer_key(&key));
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// Whether `text` goes on with punctuation that closes a sentence or a clause.
pub(crate) fn starts_with_punctuation(text: &str) -> bool {
    text.starts_with(['.', ',', ';', ':', ')', '!', '?'])
}

fn one(d: &Directive<'_>, data: &Data, key: &mut quiz::Key) -> Result<String, String> {
    match (d.name, d.args.as_slice()) {
        ("fig", [key]) => fig(key, data),
        ("fig", [key, on]) if on.starts_with("on=") => fig_on(key, &on[3..], data),
        ("fig-table", keys) if !keys.is_empty() => fig_table(keys, data),
        ("claim", words) => claim::claim(words, data),
        ("verdict", [key, options @ ..]) => verdict::verdict(key, options, data),
        ("machine", [fact]) => machine::fact(fact, data),
        ("claims-report", []) => Ok(report::claims_report(data)),
        ("chart", [name]) => chart::chart(name, data),
        ("machines", []) => Ok(machine::table(data)),
        ("instructions", []) => instructions::table(data),
        ("listing", [key]) => instructions::listing(key, data),
        ("instr", [key]) => instructions::instr(key, data),
        ("provenance", []) if data.story() => Ok(String::new()),
        ("provenance", []) => provenance(data),
        ("ledger", []) => crate::ledger::ledger(data),
        ("when" | "or-when" | "otherwise" | "end-when", _) => {
            Err("outside a `{{#when}} … {{#end-when}}` block".into())
        }
        ("bucket-table", sizes) if !sizes.is_empty() => bucket_table(sizes),
        ("lab-widget", [name, options @ ..]) => widget::widget(name, options),
        ("lab-quiz", [id, options @ ..]) => quiz::quiz(id, options, data, key),
        ("lab-progress", []) => Ok(quiz::progress()),
        _ => Err("wrong arguments (see book/preprocessor/src/lib.rs for the forms)".into()),
    }
}

fn date(file: &RunFile) -> &str {
    file.run.date.get(..10).unwrap_or(&file.run.date)
}

pub(crate) fn details(key: &str, f: &Figure, file: &RunFile, data: &Data) -> String {
    use lab_text::{t, tf, tp};
    let spread = if f.samples > 1 {
        tp!(
            u64::from(f.samples),
            "median of {} sample, 95 % interval {} – {}, noise {} %; ",
            "median of {} samples, 95 % interval {} – {}, noise {} %; ",
            format_value(f.unit, f.low),
            format_value(f.unit, f.high),
            format!("{:.1}", f.cv * 100.0)
        )
    } else {
        String::new()
    };
    let repeats = if f.repeats.len() > 1 {
        let (lo, hi) = f.spread();
        tf!(
            "the interval is that of one repetition (the median one); the medians of {} repetitions of the whole run spread over {} – {}; ",
            f.repeats.len(),
            format_value(f.unit, lo),
            format_value(f.unit, hi)
        )
    } else {
        String::new()
    };
    let instructions = match (&f.instructions, &file.run.clock) {
        (Some(i), Some(c)) => {
            let rate = format!("{:.2}", f.implied_rate(Some(c)).unwrap_or(f64::INFINITY));
            let counted = match i.macro_ops_per_iteration {
                Some(m) => tf!(
                    "{} instructions, {} macro-ops per iteration (callgrind, the bench's own loop): {} macro-ops per cycle at {} GHz, the core sustains at most {}; ",
                    format!("{:.1}", i.per_iteration),
                    format!("{m:.1}"),
                    rate,
                    format!("{:.2}", c.max_ghz),
                    c.sustained_width
                ),
                None => tf!(
                    "{} instructions per iteration (callgrind, the bench's own loop; macro-ops not counted): {} per cycle at {} GHz, against the bound of {} this file records; ",
                    format!("{:.1}", i.per_iteration),
                    rate,
                    format!("{:.2}", c.max_ghz),
                    c.sustained_width
                ),
            };
            if f.over_bound(Some(c)) {
                format!(
                    "{counted}{}",
                    t!(
                        "over the bound, so not citable as a time: the loop measured is not the loop counted, or the clock is wrong; "
                    )
                )
            } else {
                counted
            }
        }
        _ => String::new(),
    };
    let across = across(key, data);
    // The gate's note comes from the data file, in English (`note_words` reads it in the page's
    // language); the title is in the lab's catalog.
    let text = format!(
        "{}: {spread}{repeats}{instructions}{across}{}",
        lab_text::tr::get_dynamic(&f.title),
        tf!(
            "gate: {}. {} on {} ({} logical cores, {}), {}",
            bench_data::note_words(&f.gate_note),
            key,
            file.machine.cpu_model,
            file.machine.logical_cores,
            file.run.runtime,
            file.run.date
        )
    );
    escape(&lab_text::tr::localize_figure(&text))
}

/// The range of `key` over the book's columns (machines and runtimes at the current code) whose
/// figure the noise gate lets the book print, as the articles give theirs ("1.56–1.65× across four
/// machines"); empty when fewer than two columns can say.
fn across(key: &str, data: &Data) -> String {
    let values: Vec<(&RunFile, &Figure)> = data
        .files()
        .iter()
        .filter_map(|file| file.figures.get(key).map(|f| (file, f)))
        .filter(|(_, f)| citable(f))
        .collect();
    if values.len() < 2 {
        return String::new();
    }
    let (lo, hi) = values
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), (_, f)| {
            (lo.min(f.value), hi.max(f.value))
        });
    let unit = values[0].1.unit;
    let who: Vec<String> = values.iter().map(|(file, _)| file.label()).collect();
    lab_text::tp!(
        values.len() as u64,
        "across the {} column that measured it ({}): {} – {}; ",
        "across the {} columns that measured it ({}): {} – {}; ",
        who.join(", "),
        format_value(unit, lo),
        format_value(unit, hi)
    )
}

fn cell(key: &str, f: &Figure, file: &RunFile, data: &Data) -> String {
    cell_with(key, f, file, data, Shown::Value)
}

/// What a figure's button shows.
#[derive(Clone, Copy, PartialEq)]
enum Shown {
    /// Its value (a table's cell: one machine per column).
    Value,
    /// Its value, or "noisy here" when the gate keeps it back ([`cell_compact`]).
    Compact,
    /// In running prose: the range across the machines at the current code when more than one
    /// measured it ([`machine_range`]), else its value.
    Prose,
}

/// The range of `key` across the machines whose `file.run.runtime` file at the current code
/// can print it (`1.56–1.65×`, as the articles give theirs across machines); `None` when fewer
/// than two machines can say.
fn machine_range(key: &str, file: &RunFile, data: &Data) -> Option<String> {
    let values: Vec<&Figure> = bench_data::claim::machines(file, data.files())
        .into_iter()
        .filter_map(|m| m.figures.get(key))
        .filter(|f| citable(f))
        .collect();
    if values.len() < 2 {
        return None;
    }
    let (lo, hi) = values
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), f| {
            (lo.min(f.value), hi.max(f.value))
        });
    let unit = values[0].unit;
    let (lo, hi) = (format_value(unit, lo), format_value(unit, hi));
    Some(lab_text::tr::localize_figure(&if lo == hi {
        lo
    } else {
        // "1.56× – 1.65×" reads as "1.56–1.65×": the unit once, after the second number.
        let (number, unit) = split_unit(&lo);
        if split_unit(&hi).1 == unit {
            format!("{number}–{hi}")
        } else {
            format!("{lo} – {hi}")
        }
    }))
}

/// A formatted value's number and unit (`"12.3 ns"` → `("12.3", " ns")`, `"1.56×"` →
/// `("1.56", "×")`).
fn split_unit(value: &str) -> (&str, &str) {
    let at = value
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == ',' || c == '-'))
        .unwrap_or(value.len());
    value.split_at(at)
}

/// [`cell`] for a table with many rows of times: a figure the gate does not let the book print
/// says only "noisy here" in its cell, and why in its popover (the gate's note, a sentence long,
/// would make every such row a column of words).
fn cell_compact(key: &str, f: &Figure, file: &RunFile, data: &Data) -> String {
    cell_with(key, f, file, data, Shown::Compact)
}

fn cell_with(key: &str, f: &Figure, file: &RunFile, data: &Data, mode: Shown) -> String {
    if data.story() {
        return story_cell(key, f, file, data, mode);
    }
    let details = details(key, f, file, data);
    let attrs = format!(
        "class=\"lab-fig{}\" data-fig=\"{}\" data-machine=\"{}\"",
        if citable(f) { "" } else { " lab-unfit" },
        escape(key),
        escape(&file.stem())
    );
    if citable(f) {
        // The value as the page's language writes numbers (`lab_text::tr::localize_figure`).
        let shown = (mode == Shown::Prose)
            .then(|| machine_range(key, file, data))
            .flatten()
            .unwrap_or_else(|| lab_text::tr::localize_figure(&format_value(f.unit, f.value)));
        popover(data, &attrs, &shown, &details)
    } else {
        data.warn(format!(
            "`{key}` on {} is not printed: the noise gate says {:?} ({})",
            file.label(),
            f.verdict,
            f.gate_note
        ));
        let note = bench_data::note_words(&f.gate_note);
        let shown = if mode == Shown::Compact {
            lab_text::t!("noisy here").into_owned()
        } else {
            lab_text::tf!("not citable on this machine ({})", escape(&note))
        };
        let shown = lab_text::tr::localize_figure(&shown);
        popover(data, &attrs, &shown, &details)
    }
}

/// A figure in a story chapter: the number alone, a link to its row in the ledger. A figure the
/// gate keeps back is a dash here (the chapter's sentences choose a form without it, `{{#when}}`;
/// a table keeps its row), and the gate's reason is in the ledger.
fn story_cell(key: &str, f: &Figure, file: &RunFile, data: &Data, mode: Shown) -> String {
    let shown = if citable(f) {
        // In running prose, the range across machines when several measured it (issue 41).
        escape(
            &(mode == Shown::Prose)
                .then(|| machine_range(key, file, data))
                .flatten()
                .unwrap_or_else(|| lab_text::tr::localize_figure(&format_value(f.unit, f.value))),
        )
    } else {
        data.warn(format!(
            "`{key}` on {} is shown as a dash: the noise gate says {:?} ({})",
            file.label(),
            f.verdict,
            f.gate_note
        ));
        "—".to_string()
    };
    crate::ledger::figure_link(data, key, file, f, &shown)
}

/// A button showing `shown` whose popover holds `details` (HTML-escaped already): statistics and
/// claim checks open on a click, a tap or Enter, not only under a hovering mouse. Chromium,
/// Firefox and Safari support the `popover` attribute natively; without it the details stay in
/// the button's accessible description.
pub fn popover(data: &Data, attrs: &str, shown: &str, details: &str) -> String {
    let id = data.next_id();
    format!(
        "<button type=\"button\" {attrs} popovertarget=\"{id}\" aria-describedby=\"{id}\">{shown}</button>\
         <span class=\"lab-pop\" id=\"{id}\" popover>{details}</span>"
    )
}

fn fig(key: &str, data: &Data) -> Result<String, String> {
    let (file, f) = data.figure(key)?;
    // The machine and date are said once per page (`{{#provenance}}`) and in the popover.
    Ok(cell_with(key, f, file, data, Shown::Prose))
}

/// `{{#fig KEY on=RUNTIME}}`: the figure of another runtime's file of the primary's machine
/// (`on=wasm32`); where the machine has none, the page says so and the build warns.
fn fig_on(key: &str, runtime: &str, data: &Data) -> Result<String, String> {
    let primary = data.primary()?;
    let probe = bench_data::claim::Direction::Same
        .claim(key)
        .on(Some(runtime));
    if probe.file(primary, data.files()).is_none() {
        data.warn(format!(
            "`{key}` on={runtime}: {} has no {runtime} data",
            primary.label()
        ));
        return Ok(format!(
            "<span class=\"lab-fig-missing\">{}</span>",
            escape(&lab_text::tf!("not measured on this machine ({})", runtime))
        ));
    }
    let (file, f) = data.figure_on(Some(runtime), key)?;
    Ok(cell_with(key, f, file, data, Shown::Prose))
}

/// `{{#provenance}}`: once per page, the machine and run the page's Rust figures come from, so
/// that a figure in running prose reads as a number, not as a number plus its source.
fn provenance(data: &Data) -> Result<String, String> {
    let file = data.primary()?;
    let m = &file.machine;
    let others = data.files().len().saturating_sub(1);
    let also = if others > 0 {
        format!(
            " {}",
            lab_text::tp!(
                others as u64,
                "Tables show {} more machine or runtime as a column.",
                "Tables show {} more machines or runtimes as columns."
            )
        )
    } else {
        String::new()
    };
    Ok(format!(
        "\n\n<p class=\"lab-prov lab-provenance\" data-machine=\"{}\">{}{also}</p>\n\n",
        escape(&file.stem()),
        escape(&lab_text::tf!(
            "Rust figures on this page: {} ({}, {} logical cores, {}), run of {}. Select a figure for its statistics.",
            m.id,
            m.cpu_model,
            m.logical_cores,
            machine::allocator_words(&file.run.allocator),
            date(file)
        ))
    ))
}

fn fig_table(keys: &[&str], data: &Data) -> Result<String, String> {
    if data.story() {
        return story_table(keys, data);
    }
    let primary = data.primary()?;
    // A column for each file that measured any of the table's figures (a runtime that does not
    // run the suite, or the browser for glibc's threshold, would be a column of "not measured").
    let files: Vec<&RunFile> = data
        .files()
        .iter()
        .filter(|f| f.stem() == primary.stem() || keys.iter().any(|k| f.figures.contains_key(*k)))
        .collect();
    let mut html = format!(
        "\n\n<table class=\"lab-fig-table\"><thead><tr><th>{}</th>",
        lab_text::t!("figure")
    );
    for file in &files {
        html.push_str(&format!(
            "<th>{} <small>({})</small></th>",
            escape(&file.label()),
            lab_text::tp!(
                u64::from(file.machine.logical_cores),
                "{} core, {}",
                "{} cores, {}",
                date(file)
            )
        ));
    }
    html.push_str("</tr></thead><tbody>");
    for key in keys {
        let Some(title) = files
            .iter()
            .find_map(|f| f.figures.get(*key))
            .map(|f| &f.title)
        else {
            return Err(format!("figure `{key}` is in no file of book/data"));
        };
        html.push_str(&format!(
            "<tr><td>{}</td>",
            escape(&lab_text::tr::get_dynamic(title))
        ));
        for file in &files {
            match file.figures.get(*key) {
                Some(f) => html.push_str(&format!("<td>{}</td>", cell(key, f, file, data))),
                None => html.push_str(&format!("<td>{}</td>", lab_text::t!("not measured"))),
            }
        }
        html.push_str("</tr>");
    }
    html.push_str("</tbody></table>\n\n");
    Ok(html)
}

/// Whether `other` says something else than `primary` for practice: both printable and apart by
/// more than the verdict rule's band (`lab_text::verdict::EQUIVALENCE_BAND`, ±5 %). A figure the
/// gate keeps back on either side shows no difference.
pub(crate) fn differs(primary: &Figure, other: &Figure) -> bool {
    if !citable(primary) || !citable(other) {
        return false;
    }
    let band = lab_text::verdict::EQUIVALENCE_BAND;
    if primary.value == 0.0 {
        return other.value != 0.0;
    }
    (other.value / primary.value - 1.0).abs() > band
}

/// `{{#fig-table}}` in a story chapter: the primary's column, and another column only where it
/// differs from the primary's by more than the band (else a quiet "the same on …" under it); no
/// dates, no machine in the headers unless the column is another machine's.
fn story_table(keys: &[&str], data: &Data) -> Result<String, String> {
    let primary = data.primary()?;
    for key in keys {
        if !data.files().iter().any(|f| f.figures.contains_key(*key)) {
            return Err(format!("figure `{key}` is in no file of book/data"));
        }
    }
    let others: Vec<&RunFile> = data
        .files()
        .iter()
        .filter(|f| f.stem() != primary.stem() && keys.iter().any(|k| f.figures.contains_key(*k)))
        .collect();
    let differs_on = |file: &RunFile| {
        keys.iter()
            .any(|k| match (primary.figures.get(*k), file.figures.get(*k)) {
                (Some(p), Some(o)) => differs(p, o),
                (None, Some(_)) => true,
                _ => false,
            })
    };
    // "The same" only where every figure both sides print agrees (a figure kept back on one
    // side says nothing either way: that column goes to the ledger alone).
    let same_on = |file: &RunFile| {
        keys.iter()
            .all(|k| match (primary.figures.get(*k), file.figures.get(*k)) {
                (Some(p), Some(o)) => citable(p) && citable(o),
                (None, None) => true,
                _ => false,
            })
    };
    let shown: Vec<&RunFile> = others.iter().copied().filter(|f| differs_on(f)).collect();
    let same: Vec<&RunFile> = others
        .iter()
        .copied()
        .filter(|f| !differs_on(f) && same_on(f))
        .collect();
    let columns: Vec<&RunFile> = std::iter::once(primary).chain(shown).collect();
    let mut html = format!(
        "\n\n<table class=\"lab-fig-table\"><thead><tr><th>{}</th>",
        lab_text::t!("figure")
    );
    for file in &columns {
        let name = if columns.len() > 1 {
            crate::ledger::column_name(file, primary)
        } else {
            lab_text::t!("measured").into_owned()
        };
        html.push_str(&format!("<th>{}</th>", escape(&name)));
    }
    html.push_str("</tr></thead><tbody>");
    for key in keys {
        let title = data
            .files()
            .iter()
            .find_map(|f| f.figures.get(*key))
            .map(|f| lab_text::tr::get_dynamic(&f.title))
            .unwrap_or_default();
        html.push_str(&format!("<tr><td>{}</td>", escape(&title)));
        for file in &columns {
            match file.figures.get(*key) {
                Some(f) => html.push_str(&format!(
                    "<td>{}</td>",
                    story_cell(key, f, file, data, Shown::Value)
                )),
                None => html.push_str(&format!("<td>{}</td>", lab_text::t!("not measured"))),
            }
        }
        html.push_str("</tr>");
    }
    html.push_str("</tbody></table>\n\n");
    if !same.is_empty() {
        let names: Vec<String> = same
            .iter()
            .map(|f| crate::ledger::column_name(f, primary))
            .collect();
        html.push_str(&format!(
            "<p class=\"lab-same\">{}</p>\n\n",
            escape(&lab_text::tf!(
                "The same on {}.",
                crate::ledger::and_list(&names)
            ))
        ));
    }
    Ok(html)
}

/// The shared pool's rounding of each request, computed by the lab at build time.
fn bucket_table(sizes: &[&str]) -> Result<String, String> {
    let mut html = format!(
        "\n\n<table class=\"lab-bucket-table\"><thead><tr><th>{}</th><th>{}</th>\
         <th>{}</th><th>{}</th></tr></thead><tbody>",
        escape(&lab_text::t!("request")),
        escape(&lab_text::t!("bucket")),
        escape(&lab_text::t!("buffer length")),
        escape(&lab_text::t!("excess (of the request)")),
    );
    for size in sizes {
        let request = wasm_lab::input::parse_size(size).map_err(|e| e.to_string())?;
        let c = wasm_lab::calc::calculate(request);
        let index = c.index.map_or_else(|| "—".to_string(), |i| i.to_string());
        let share = if c.wasted > 0 {
            lab_text::tr::localize_figure(&format!(" ({:.1} %)", c.excess_percent))
        } else {
            String::new()
        };
        html.push_str(&format!(
            "<tr><td>{}</td><td>{index}</td><td>{}</td><td>{}{share}</td></tr>",
            group_digits(request),
            group_digits(c.length),
            group_digits(c.wasted),
        ));
    }
    html.push_str("</tbody></table>\n\n");
    Ok(html)
}

#[cfg(test)]
mod tests;

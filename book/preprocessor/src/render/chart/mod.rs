//! `{{#chart NAME}}`: a chart of bench figures, drawn at build time as inline SVG.
//!
//! The chart's figures come from every machine file in `book/data` (one series per machine, so
//! an instructor's rerun appears beside the committed run); a figure the noise gate rejects is a
//! gap in its line with a note, never a value; a ratio carries its 95 % interval as a bar. The
//! SVG is drawn by plotters (`svg.rs`) and recoloured with CSS classes, so it follows the reader's
//! theme; a collapsed table under it holds the same numbers for screen readers and for copying.
//! Which figures each chart draws is in `specs.rs`; the .NET figures drawn beside them, in
//! `reference.rs`.

use bench_data::{RunFile, Unit};

use super::{citable, date, escape, format_value};
use crate::data::Data;

mod reference;
mod specs;
mod svg;

pub use specs::{CHARTS, Chart, Mark, Scale};

/// The name of every chart a chapter can draw.
pub fn names() -> Vec<&'static str> {
    CHARTS.iter().map(|c| c.name).collect()
}

/// One point of a drawn line.
#[derive(Clone, Debug, PartialEq)]
enum Point {
    /// A citable figure: value and 95 % interval (equal to the value for exact figures).
    Value { v: f64, low: f64, high: f64 },
    /// The noise gate rejected it: drawn as a gap, with the gate's reason.
    Gated(String),
    /// This machine's file has no such figure (an instructor's partial rerun).
    Missing,
}

/// One series of the spec on one machine.
struct Line<'a> {
    series: usize,
    machine: usize,
    file: &'a RunFile,
    /// Per x of the spec, with the figure key.
    points: Vec<(String, Option<Unit>, Point)>,
    /// In a story chapter, the line's name in the legend (the series it stands for, and the
    /// columns it is the same on); `None` elsewhere.
    name: Option<String>,
}

/// A vertical line on the chart: its short label on the chart, its longer one in the legend.
struct VLine {
    x: f64,
    label: String,
    legend: String,
}

/// Renders chart `name` from `data`; an unknown chart or a figure missing from the primary
/// machine's file is an error naming it.
pub fn chart(name: &str, data: &Data) -> Result<String, String> {
    let Some(spec) = specs::find(name) else {
        let known: Vec<&str> = CHARTS.iter().map(|c| c.name).collect();
        return Err(format!(
            "there is no chart `{name}` (charts: {})",
            known.join(", ")
        ));
    };
    let primary = data.primary()?;
    let files = data.files();
    let mut lines = Vec::new();
    for (s, series) in spec.series.iter().enumerate() {
        for (m, file) in files.iter().enumerate() {
            let mut points = Vec::new();
            for x in spec.xs {
                let key = series.key.replace("{x}", x.key);
                let point = lookup(&key, file, primary, data, name)?;
                points.push((key, point.0, point.1));
            }
            // A runtime that did not run this suite (another allocator runs only the suites
            // where the allocator matters) draws no line, rather than a line of gaps.
            if file.stem() != primary.stem()
                && points.iter().all(|(_, _, p)| matches!(p, Point::Missing))
            {
                continue;
            }
            lines.push(Line {
                series: s,
                machine: m,
                file,
                points,
                name: None,
            });
        }
    }
    let mut vlines = Vec::new();
    for mark in spec.marks {
        match mark {
            Mark::Reference(edge) => vlines.push(VLine {
                x: edge.x,
                label: lab_text::tr::get_dynamic(edge.label),
                legend: if data.story() {
                    lab_text::tf!(
                        "{} (a .NET reference result)",
                        lab_text::tr::get_dynamic(edge.label)
                    )
                } else {
                    lab_text::tf!(
                        "{} ({}; a .NET reference, not measured here)",
                        lab_text::tr::get_dynamic(edge.label),
                        lab_text::tr::dynamic(edge.source)
                    )
                },
            }),
            Mark::Figure { key, label } => {
                // A story chapter marks the primary's figure only: its label says no column.
                let story = data.story();
                for file in files
                    .iter()
                    .filter(|f| !story || f.stem() == primary.stem())
                {
                    if let (Some(unit), Point::Value { v, .. }) =
                        lookup(key, file, primary, data, name)?
                    {
                        let shown = format_value(unit, v);
                        let shown = shown.trim_end_matches(" B");
                        let who = if files.len() > 1 && !story {
                            format!(" ({})", file.label())
                        } else {
                            String::new()
                        };
                        let label = lab_text::tr::get_dynamic(label);
                        let legend = if story {
                            format!("{label} = {shown}")
                        } else {
                            lab_text::tf!(
                                "{} = {}: measured, {} on {}",
                                label,
                                shown,
                                key,
                                file.label()
                            )
                        };
                        vlines.push(VLine {
                            x: v,
                            label: format!("{label} = {shown}{who}"),
                            legend,
                        });
                    }
                }
            }
        }
    }
    let mut same = Vec::new();
    if data.story() {
        (lines, same) = merge(spec, lines, primary);
    }
    let svg = svg::draw(spec, &lines, &vlines)?;
    Ok(html(
        spec,
        &lines,
        &vlines,
        files,
        &svg,
        data.story(),
        &same,
    ))
}

/// Whether two lines draw the same for practice: at every x both are values within the verdict
/// rule's band of each other (`super::differs`), or both are gaps; at least one value.
fn coincide(a: &Line<'_>, b: &Line<'_>) -> bool {
    let mut values = 0;
    for ((_, _, p), (_, _, q)) in a.points.iter().zip(&b.points) {
        match (p, q) {
            (Point::Value { v, .. }, Point::Value { v: w, .. }) => {
                let band = lab_text::verdict::EQUIVALENCE_BAND;
                let apart = if *v == 0.0 {
                    *w != 0.0
                } else {
                    (w / v - 1.0).abs() > band
                };
                if apart {
                    return false;
                }
                values += 1;
            }
            (Point::Value { .. }, _) | (_, Point::Value { .. }) => return false,
            _ => {}
        }
    }
    values > 0
}

/// A story chapter's lines: a line that coincides with another is drawn once and named with it
/// ("pool and floor"; "… (the same on mimalloc and jemalloc)"), so every legend entry is a line
/// the reader can see. Another column's line stays a line of its own only where it differs from
/// the primary's line of its series.
///
/// When every line is the same on the same columns, that is said once, in the chart's note (the
/// returned names), not after each line.
fn merge<'a>(
    spec: &Chart,
    lines: Vec<Line<'a>>,
    primary: &RunFile,
) -> (Vec<Line<'a>>, Vec<String>) {
    struct Kept<'a> {
        line: Line<'a>,
        series: Vec<usize>,
        columns: Vec<String>,
        same_on: Vec<String>,
    }
    let (mine, others): (Vec<Line<'a>>, Vec<Line<'a>>) = lines
        .into_iter()
        .partition(|l| l.file.stem() == primary.stem());
    let mut kept: Vec<Kept<'a>> = Vec::new();
    for line in mine {
        match kept.iter_mut().find(|k| coincide(&k.line, &line)) {
            Some(k) => k.series.push(line.series),
            None => kept.push(Kept {
                series: vec![line.series],
                columns: Vec::new(),
                same_on: Vec::new(),
                line,
            }),
        }
    }
    let primaries = kept.len();
    for line in others {
        let column = crate::ledger::column_name(line.file, primary);
        let same = kept[..primaries]
            .iter()
            .position(|k| k.series.contains(&line.series) && coincide(&k.line, &line));
        if let Some(i) = same {
            if !kept[i].same_on.contains(&column) {
                kept[i].same_on.push(column);
            }
            continue;
        }
        // Several other columns that agree with each other (and not with the primary) share a line.
        match kept[primaries..]
            .iter_mut()
            .find(|k| k.series.contains(&line.series) && coincide(&k.line, &line))
        {
            Some(k) => k.columns.push(column),
            None => kept.push(Kept {
                series: vec![line.series],
                columns: vec![column],
                same_on: Vec::new(),
                line,
            }),
        }
    }
    let common = match kept.first() {
        Some(first)
            if primaries > 1
                && !first.same_on.is_empty()
                && kept[..primaries].iter().all(|k| k.same_on == first.same_on) =>
        {
            first.same_on.clone()
        }
        _ => Vec::new(),
    };
    if !common.is_empty() {
        for k in &mut kept[..primaries] {
            k.same_on.clear();
        }
    }
    let lines = kept
        .into_iter()
        .map(|k| {
            let names: Vec<String> = k
                .series
                .iter()
                .map(|s| lab_text::tr::get_dynamic(spec.series[*s].label))
                .collect();
            let mut name = crate::ledger::and_list(&names);
            if !k.columns.is_empty() {
                name = format!("{name} — {}", crate::ledger::and_list(&k.columns));
            }
            if !k.same_on.is_empty() {
                name = lab_text::tf!(
                    "{} (the same on {})",
                    name,
                    crate::ledger::and_list(&k.same_on)
                );
            }
            Line {
                name: Some(name),
                ..k.line
            }
        })
        .collect::<Vec<_>>();
    // The primary's lines are drawn solid (`lab-m0`), another column's dashed, in the order they
    // appear: the file's place in `book/data` would make the primary dashed when it sorts second.
    let mut order: Vec<String> = vec![primary.stem()];
    let lines = lines
        .into_iter()
        .map(|mut l| {
            let stem = l.file.stem();
            l.machine = match order.iter().position(|s| *s == stem) {
                Some(i) => i,
                None => {
                    order.push(stem);
                    order.len() - 1
                }
            };
            l
        })
        .collect();
    (lines, common)
}

/// A figure of one machine as a point; missing from the primary file is an error.
fn lookup(
    key: &str,
    file: &RunFile,
    primary: &RunFile,
    data: &Data,
    chart: &str,
) -> Result<(Option<Unit>, Point), String> {
    let Some(f) = file.figures.get(key) else {
        if file.stem() == primary.stem() {
            let (_, _) = data
                .figure(key)
                .map_err(|e| format!("chart `{chart}`: {e}"))?;
        }
        return Ok((None, Point::Missing));
    };
    if citable(f) {
        Ok((
            Some(f.unit),
            Point::Value {
                v: f.value,
                low: f.low,
                high: f.high,
            },
        ))
    } else {
        data.warn(format!(
            "chart `{chart}`: `{key}` on {} is drawn as a gap: the noise gate says {:?} ({})",
            file.label(),
            f.verdict,
            f.gate_note
        ));
        Ok((
            Some(f.unit),
            // In the page's words and numbers (a decimal comma on a Russian page).
            Point::Gated(lab_text::tr::localize_figure(&bench_data::note_words(
                &f.gate_note,
            ))),
        ))
    }
}

/// How an x position is named in the table and the notes.
fn x_name(spec: &Chart, x: &specs::X) -> String {
    if !x.name.is_empty() {
        return lab_text::tr::get_dynamic(x.name);
    }
    match spec.x.scale {
        Scale::Bytes => bytes(x.at),
        Scale::Count | Scale::Ratio => lab_text::group_digits(x.at as u64),
    }
}

/// A size in bytes as the page's language writes it (`16,384 B`, `16 384 Б`).
fn bytes(at: f64) -> String {
    lab_text::tr::localize_figure(&format!("{} B", lab_text::group_digits(at as u64)))
}

fn swatch(class: &str) -> String {
    format!(
        "<svg class=\"lab-swatch\" viewBox=\"0 0 28 10\" aria-hidden=\"true\">\
         <line x1=\"1\" y1=\"5\" x2=\"27\" y2=\"5\" class=\"{class}\" stroke=\"currentColor\"/></svg>"
    )
}

fn html(
    spec: &Chart,
    lines: &[Line<'_>],
    vlines: &[VLine],
    files: &[RunFile],
    svg: &str,
    story: bool,
    same: &[String],
) -> String {
    // The caption names the files that draw a line (another allocator runs only some suites).
    let drawn: Vec<&RunFile> = files
        .iter()
        .filter(|f| lines.iter().any(|l| l.file.stem() == f.stem()))
        .collect();
    let many = drawn.len() > 1;
    let line_name = |l: &Line<'_>| {
        if let Some(name) = &l.name {
            name.clone()
        } else if many {
            format!(
                "{} — {}",
                lab_text::tr::get_dynamic(spec.series[l.series].label),
                l.file.label()
            )
        } else {
            lab_text::tr::get_dynamic(spec.series[l.series].label)
        }
    };
    let machines: Vec<String> = drawn
        .iter()
        .map(|f| {
            lab_text::tf!(
                "{} ({}, {} logical cores), measured {}",
                escape(&f.label()),
                escape(&f.machine.cpu_model),
                f.machine.logical_cores,
                date(f)
            )
        })
        .collect();
    // A story chapter's caption is the chart's title: where the numbers come from is said once,
    // at the chapter's end.
    let prov = if story {
        String::new()
    } else {
        format!(
            " <span class=\"lab-prov\">{}</span>",
            lab_text::tf!("Rust, measured on {}", machines.join("; "))
        )
    };
    let mut out = format!(
        "\n\n<figure class=\"lab-chart\" data-chart=\"{name}\" data-testid=\"chart-{name}\">\
         <figcaption><span class=\"lab-chart-title\">{title}</span>{prov}</figcaption>",
        name = spec.name,
        title = escape(&lab_text::tr::get_dynamic(spec.title)),
    );
    out.push_str(svg);
    // The legend, in HTML so it wraps on a narrow screen.
    out.push_str("<ul class=\"lab-chart-legend\">");
    // Only lines the plot draws: a series whose every point is a gap is named in the note below,
    // not by a swatch for a line the reader cannot find.
    for l in lines.iter().filter(|l| {
        l.points
            .iter()
            .any(|(_, _, p)| matches!(p, Point::Value { .. }))
    }) {
        out.push_str(&format!(
            "<li>{}{}</li>",
            swatch(&format!("lab-s{} lab-m{}", l.series, l.machine)),
            escape(&line_name(l))
        ));
    }
    if let Some(band) = spec.band {
        // A story chapter names the article in its prose; the legend says only what the band is.
        let words = if story {
            lab_text::tf!(
                "{} (.NET reference results)",
                lab_text::tr::get_dynamic(band.label)
            )
        } else {
            lab_text::tf!(
                "{} ({}; .NET reference results, not measured here)",
                lab_text::tr::get_dynamic(band.label),
                lab_text::tr::dynamic(band.source)
            )
        };
        out.push_str(&format!(
            "<li><span class=\"lab-swatch-band\" aria-hidden=\"true\"></span>{}</li>",
            escape(&words)
        ));
    }
    for v in vlines {
        out.push_str(&format!(
            "<li>{}{}</li>",
            swatch("lab-mark"),
            escape(&v.legend)
        ));
    }
    if let Some((_, meaning)) = spec.level {
        out.push_str(&format!(
            "<li>{}{}</li>",
            swatch("lab-level"),
            escape(&lab_text::tr::get_dynamic(meaning))
        ));
    }
    out.push_str("</ul>");
    // Notes: what is not drawn, and why.
    let mut notes = Vec::new();
    for l in lines {
        for ((key, _, point), x) in l.points.iter().zip(spec.xs) {
            let at = x_name(spec, x);
            match point {
                Point::Gated(_) | Point::Missing if story => notes.push(lab_text::tf!(
                    "a gap at {} in “{}”: not measured steadily enough to draw (the ledger on the instructors' page says why)",
                    at,
                    escape(&line_name(l)),
                )),
                Point::Gated(why) => notes.push(lab_text::tf!(
                    "a gap at {} in “{}” on {}: the noise gate found <code>{}</code> too noisy to draw ({})",
                    at,
                    escape(&lab_text::tr::get_dynamic(spec.series[l.series].label)),
                    escape(&l.file.label()),
                    escape(key),
                    escape(why)
                )),
                Point::Missing => notes.push(lab_text::tf!(
                    "a gap at {} in “{}”: {} has no <code>{}</code> (not measured in that run)",
                    at,
                    escape(&lab_text::tr::get_dynamic(spec.series[l.series].label)),
                    escape(&l.file.label()),
                    escape(key)
                )),
                Point::Value { .. } => {}
            }
        }
    }
    if !same.is_empty() {
        notes.push(lab_text::tf!(
            "every line is the same on {}",
            escape(&crate::ledger::and_list(same))
        ));
    }
    let zero = lines
        .iter()
        .flat_map(|l| &l.points)
        .any(|(_, _, p)| matches!(p, Point::Value { v, .. } if *v <= 0.0));
    if spec.y.log && zero {
        notes.push(
            lab_text::t!("a log scale has no 0: a 0 is drawn on the bottom line, marked 0")
                .into_owned(),
        );
    }
    if let Some((x, y, why)) = spec.origin {
        notes.push(lab_text::tf!(
            "every line starts at x = {}, y = {}: {}",
            svg::tick(spec.x.scale, x),
            svg::tick(spec.y.scale, y),
            escape(&lab_text::tr::get_dynamic(why))
        ));
    }
    if !notes.is_empty() {
        out.push_str("<p class=\"lab-chart-note\" data-testid=\"chart-note\">");
        let notes = notes.join("; ");
        let mut chars = notes.chars();
        // A capital in every script that has one («Пропуск», not «пропуск»).
        if let Some(first) = chars.next() {
            out.extend(first.to_uppercase());
            out.push_str(chars.as_str());
        }
        out.push_str(".</p>");
    }
    out.push_str(&table(spec, lines, &line_name, story));
    out.push_str("</figure>\n\n");
    out
}

/// The table mirror: the same numbers as the chart, collapsed.
fn table(
    spec: &Chart,
    lines: &[Line<'_>],
    line_name: &dyn Fn(&Line<'_>) -> String,
    story: bool,
) -> String {
    let mut out = format!(
        "<details class=\"lab-chart-table\"><summary>{}</summary>\
         <div class=\"lab-scroll\"><table><thead><tr><th>x</th><th>{}</th><th>{}</th>\
         <th>{}</th></tr></thead><tbody>",
        lab_text::html::escape(&lab_text::t!("The numbers behind this chart")),
        lab_text::html::escape(&lab_text::t!("series")),
        lab_text::html::escape(&lab_text::t!("value")),
        lab_text::html::escape(&lab_text::t!("95 % interval")),
    );
    for l in lines {
        for ((key, unit, point), x) in l.points.iter().zip(spec.xs) {
            let (value, interval) = match (point, unit) {
                (Point::Value { v, low, high }, Some(unit)) => (
                    lab_text::tr::localize_figure(&format_value(*unit, *v)),
                    if high > low {
                        lab_text::tr::localize_figure(&format!(
                            "{} – {}",
                            format_value(*unit, *low),
                            format_value(*unit, *high)
                        ))
                    } else {
                        lab_text::t!("exact").into_owned()
                    },
                ),
                (Point::Gated(_), _) if story => ("—".to_string(), String::new()),
                (Point::Gated(why), _) => (
                    lab_text::tf!("not citable ({})", escape(why)),
                    String::new(),
                ),
                _ => (lab_text::t!("not measured").into_owned(), String::new()),
            };
            out.push_str(&format!(
                "<tr data-key=\"{}\" data-machine=\"{}\"><td>{}</td><td>{}</td>\
                 <td class=\"lab-chart-value\">{value}</td><td>{interval}</td></tr>",
                escape(key),
                escape(&l.file.stem()),
                escape(&x_name(spec, x)),
                escape(&line_name(l)),
            ));
        }
    }
    if let Some(band) = spec.band {
        for (x, low, high) in band.points {
            let unit = Unit::Ratio;
            out.push_str(&format!(
                "<tr class=\"lab-chart-reference\"><td>{}</td><td>{} (.NET, {})</td>\
                 <td>{} – {}</td><td>{}</td></tr>",
                match spec.x.scale {
                    Scale::Bytes => bytes(*x),
                    _ => lab_text::group_digits(*x as u64),
                },
                escape(&lab_text::tr::get_dynamic(band.label)),
                escape(lab_text::tr::dynamic(band.source)),
                lab_text::tr::localize_figure(&format_value(unit, *low)),
                lab_text::tr::localize_figure(&format_value(unit, *high)),
                escape(&lab_text::t!("reference result"))
            ));
        }
    }
    out.push_str("</tbody></table></div></details>");
    out
}

#[cfg(test)]
mod tests;

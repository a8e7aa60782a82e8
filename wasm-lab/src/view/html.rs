//! The one renderer: a widget's form and view as HTML. The live widget (`web/widget.rs`) and the
//! book's static default (the preprocessor) both draw with these functions, so a reader without
//! scripts sees exactly what the script draws first.

use super::pool::{BufView, PoolView};
use super::{Form, Kind, Part, Predict, Slot, Spans, Steps, Table, Verdict, View, predict_key};
use lab_text::f;

/// The lab's one HTML escaper (text and quoted attribute values), re-exported for the renderer.
pub use lab_text::html::escape;

/// Text with `code` between backticks, escaped.
pub fn inline(text: &str) -> String {
    text.split('`')
        .enumerate()
        .map(|(i, piece)| {
            if i % 2 == 1 {
                f!("<code>{}</code>", escape(piece))
            } else {
                escape(piece)
            }
        })
        .collect()
}

/// The text of some markup: tags dropped, entities decoded (for tests and announcements).
pub fn text(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                out.push(' ');
            }
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    let out = out
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&");
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The whole widget: the form, each group followed by its result slot, and the live region.
pub fn widget(name: &str, form: &Form, view: &View) -> String {
    let mut html = String::new();
    for g in &form.groups {
        let inner: String = g.fields.iter().map(field).collect();
        let intro = g.intro.map_or(String::new(), |t| {
            f!("<p class=\"lab-intro\">{}</p>", inline(t))
        });
        let note = g.note.map_or(String::new(), |t| {
            f!("<p class=\"lab-why\">{}</p>", inline(t))
        });
        match g.legend {
            Some(legend) => html.push_str(&f!(
                "<fieldset class=\"lab-group\" data-testid=\"group-{}\"><legend>{}</legend>{intro}<div class=\"lab-fields\">{inner}</div>{note}",
                g.slot,
                inline(legend)
            )),
            None => html.push_str(&f!(
                "{intro}<div class=\"lab-fields\">{inner}</div>{note}"
            )),
        }
        if !g.slot.is_empty() {
            let slot = view.slots.iter().find(|s| s.id == g.slot);
            html.push_str(&f!(
                "<div class=\"lab-slot\" data-slot=\"{}\" data-testid=\"{}-result\">{}</div>",
                g.slot,
                g.slot,
                slot.map_or(String::new(), self::slot)
            ));
        }
        if g.legend.is_some() {
            html.push_str("</fieldset>");
        }
    }
    html.push_str(&f!(
        "<p class=\"lab-announce\" aria-live=\"polite\" data-testid=\"{name}-announce\">{}</p>",
        escape(&view.announce)
    ));
    html
}

fn field(f: &super::Field) -> String {
    let (id, label, value) = (f.id, inline(f.label), escape(&f.value));
    let text = |class: &str, mode: &str| {
        f!(
            "<label class=\"lab-field{class}\">{label} <input type=\"text\"{mode} autocomplete=\"off\" spellcheck=\"false\" data-field data-testid=\"{id}\" value=\"{value}\"></label>"
        )
    };
    match f.kind {
        Kind::Number => text("", " inputmode=\"numeric\""),
        Kind::Text => text(" lab-line", ""),
        Kind::Wide => text(" lab-wide", ""),
        Kind::Check => f!(
            "<label class=\"lab-check\"><input type=\"checkbox\" data-field data-testid=\"{id}\"{}> {label}</label>",
            if f.value == "true" { " checked" } else { "" }
        ),
        Kind::Select(options) => {
            let chosen = if options.iter().any(|(v, _)| *v == f.value) {
                f.value.as_str()
            } else {
                options.first().map_or("", |(v, _)| v)
            };
            let options: String = options
                .iter()
                .map(|(v, l)| {
                    f!(
                        "<option value=\"{}\"{}>{}</option>",
                        escape(v),
                        if *v == chosen { " selected" } else { "" },
                        escape(l)
                    )
                })
                .collect();
            f!(
                "<label class=\"lab-field\">{label} <select data-field data-testid=\"{id}\">{options}</select></label>"
            )
        }
    }
}

/// A result slot's content: its error (hidden when there is none), then its parts.
pub fn slot(s: &Slot) -> String {
    let mut html = match &s.error {
        Some(e) => f!(
            "<p class=\"lab-error\" data-testid=\"{}-error\">{}</p>",
            s.id,
            escape(e)
        ),
        None => f!(
            "<p class=\"lab-error\" data-testid=\"{}-error\" hidden></p>",
            s.id
        ),
    };
    for p in &s.parts {
        html.push_str(&part(s.id, p));
    }
    html
}

fn part(slot: &str, p: &Part) -> String {
    match p {
        Part::Pairs(pairs) => {
            let mut html = String::from("<dl class=\"lab-calc-result\">");
            for p in pairs {
                html.push_str(&f!(
                    "<dt>{}</dt><dd data-testid=\"{}\">{}</dd>",
                    inline(p.label),
                    p.id,
                    escape(&p.value)
                ));
            }
            html + "</dl>"
        }
        Part::Table(t) => table(t),
        Part::Note { id, text } => f!(
            "<p class=\"lab-why\"{}>{}</p>",
            id.map_or(String::new(), |id| f!(" data-testid=\"{id}\"")),
            inline(text)
        ),
        Part::Spans(s) => spans(s),
        Part::Steps(s) => steps(slot, s),
        Part::Predict(p) => predict(slot, p),
        Part::Verdict(v) => verdict(slot, v),
    }
}

fn table(t: &Table) -> String {
    let head: String = t
        .head
        .iter()
        .map(|h| f!("<th>{}</th>", inline(h)))
        .collect();
    let mut rows = String::new();
    for r in &t.rows {
        rows.push_str("<tr");
        if let Some(id) = &r.id {
            rows.push_str(&f!(" data-testid=\"{}\"", escape(id)));
        }
        if let Some((name, value)) = &r.data {
            rows.push_str(&f!(" data-{name}=\"{}\"", escape(value)));
        }
        if r.selected {
            rows.push_str(" class=\"lab-selected\"");
        }
        rows.push('>');
        for c in &r.cells {
            match &c.id {
                Some(id) => rows.push_str(&f!(
                    "<td data-testid=\"{}\">{}</td>",
                    escape(id),
                    escape(&c.text)
                )),
                None => rows.push_str(&f!("<td>{}</td>", escape(&c.text))),
            }
        }
        rows.push_str("</tr>");
    }
    f!(
        "<div class=\"lab-scroll\"><table class=\"lab-table\"><thead><tr>{head}</tr></thead><tbody data-testid=\"{}\">{rows}</tbody></table></div>",
        t.id
    )
}

fn spans(s: &Spans) -> String {
    let inner: String = s
        .spans
        .iter()
        .map(|sp| {
            let tag = if sp.class == "lab-leak" && s.class == "lab-text" {
                "mark"
            } else {
                "span"
            };
            f!(
                "<{tag} class=\"{}\"{}{}>{}</{tag}>",
                sp.class,
                sp.id
                    .map_or(String::new(), |id| f!(" data-testid=\"{id}\"")),
                sp.title
                    .as_ref()
                    .map_or(String::new(), |t| f!(" title=\"{}\"", escape(t))),
                escape(&sp.text)
            )
        })
        .collect::<Vec<_>>()
        .join(if s.class == "lab-bytes" { " " } else { "" });
    let tag = if s.class == "lab-text" { "p" } else { "div" };
    f!(
        "<{tag} class=\"{}\" data-testid=\"{}\">{}{inner}</{tag}>",
        s.class,
        s.id,
        s.lead.map_or(String::new(), |l| f!("{} ", escape(l)))
    )
}

/// Every element that acts carries `data-for`, its slot, so the DOM layer needs no lookup.
fn steps(slot: &str, s: &Steps) -> String {
    let n = s.steps.len();
    let at = s.at.min(n.saturating_sub(1));
    let id = s.id;
    let button = |action: &str, label: &str, name: &str, off: bool| {
        f!(
            "<button type=\"button\" data-action=\"{action}\" data-for=\"{slot}\" data-testid=\"{id}-{action}\" aria-label=\"{name}\"{}>{label}</button>",
            if off { " aria-disabled=\"true\"" } else { "" }
        )
    };
    let log: String = s.steps[..=at.min(n.saturating_sub(1))]
        .iter()
        .enumerate()
        .map(|(i, st)| {
            f!(
                "<li{}><code>{}</code> <span>{}</span></li>",
                if i == at {
                    " class=\"lab-now\" aria-current=\"step\""
                } else {
                    ""
                },
                escape(&st.code),
                escape(&st.text)
            )
        })
        .collect();
    let pool = s
        .steps
        .get(at)
        .and_then(|st| st.pool.as_ref())
        .map_or(String::new(), pool_view);
    f!(
        "<div class=\"lab-stepper\" data-for=\"{slot}\" data-testid=\"{id}\" data-at=\"{at}\" data-steps=\"{n}\" tabindex=\"0\" aria-label=\"Step-through, step {} of {n}: use the buttons, or ← and → while it has focus\">\
         <div class=\"lab-step-controls\">{}{}{}{}{}\
         <input type=\"range\" min=\"0\" max=\"{}\" value=\"{at}\" data-action=\"scrub\" data-for=\"{slot}\" data-testid=\"{id}-scrub\" aria-label=\"Step\">\
         <span data-testid=\"{id}-count\">Step {} of {n}</span></div>\
         <ol class=\"lab-steps\" data-testid=\"{id}-log\">{log}</ol>{pool}</div>",
        at + 1,
        button("first", "|◀", "First step", at == 0),
        button("prev", "◀ Back", "Step back", at == 0),
        button("play", "▶ Play", "Play the steps", at + 1 >= n),
        button("next", "Forward ▶", "Step forward", at + 1 >= n),
        button("last", "▶|", "Last step", at + 1 >= n),
        n.saturating_sub(1),
        at + 1,
    )
}

fn predict(slot: &str, p: &Predict) -> String {
    let id = p.id;
    let choices: String = if p.choices.is_empty() {
        f!(
            "<label class=\"lab-field\">Your prediction <input type=\"text\" inputmode=\"numeric\" autocomplete=\"off\" spellcheck=\"false\" data-testid=\"{id}-value\"></label>"
        )
    } else {
        p.choices
            .iter()
            .map(|(v, l)| {
                f!(
                    "<label class=\"lab-choice\"><input type=\"radio\" name=\"{}\" value=\"{}\" data-testid=\"{id}-{}\"> {}</label>",
                    predict_key(slot),
                    escape(v),
                    escape(v),
                    inline(l)
                )
            })
            .collect()
    };
    let problem = p.problem.as_ref().map_or(String::new(), |e| {
        f!(
            "<p class=\"lab-error\" data-testid=\"{id}-problem\">{}</p>",
            escape(e)
        )
    });
    f!(
        "<fieldset class=\"lab-predict\" data-testid=\"{id}\"><legend>Predict first</legend><p>{}</p>{choices}\
         <button type=\"button\" data-action=\"predict\" data-for=\"{slot}\" data-testid=\"{id}-run\">Run it</button>{problem}\
         <p class=\"lab-why\">The outcome shows once you have committed to a prediction.</p></fieldset>",
        inline(&p.question)
    )
}

fn verdict(slot: &str, v: &Verdict) -> String {
    f!(
        "<p class=\"lab-verdict {}\" data-testid=\"{}\" data-held=\"{}\">{} \
         <button type=\"button\" data-action=\"repredict\" data-for=\"{slot}\" data-testid=\"{}-again\">Predict again</button></p>",
        if v.held { "lab-ok" } else { "lab-bad" },
        v.id,
        v.held,
        inline(&v.text),
        v.id
    )
}

fn buf(b: &BufView) -> String {
    f!(
        "<span class=\"lab-buf lab-buf-{}\" data-buf=\"{}\">{}</span>",
        b.colour % 6,
        escape(&b.label),
        escape(&b.label)
    )
}

/// The pool drawn: per bucket, the thread slot and each partition, then who holds what.
pub fn pool_view(p: &PoolView) -> String {
    let mut html = f!(
        "<div class=\"lab-pool\" data-testid=\"pool\" data-state=\"{}\">",
        escape(&p.signature())
    );
    for b in &p.buckets {
        html.push_str(&f!(
            "<div class=\"lab-pool-bucket\" data-testid=\"pool-bucket\" data-length=\"{}\"><span class=\"lab-pool-name\">bucket of {} B</span>",
            b.length,
            lab_text::group_digits(b.length)
        ));
        html.push_str(&f!(
            "<span class=\"lab-pool-place\" data-testid=\"pool-slot\"><span class=\"lab-pool-where\">thread slot</span>{}</span>",
            b.slot.as_ref().map_or("<span class=\"lab-buf lab-empty\">empty</span>".into(), buf)
        ));
        for (i, part) in b.partitions.iter().enumerate() {
            let boxes: String = part.buffers.iter().map(buf).collect();
            let more = if part.more > 0 {
                f!(
                    "<span class=\"lab-more\">+{}</span>",
                    lab_text::group_digits(part.more)
                )
            } else {
                String::new()
            };
            html.push_str(&f!(
                "<span class=\"lab-pool-place\" data-testid=\"pool-partition\"><span class=\"lab-pool-where\">partition {i} ({} of {})</span>{boxes}{more}</span>",
                lab_text::group_digits(part.count),
                lab_text::group_digits(b.per_partition),
            ));
        }
        if b.more_partitions > 0 {
            html.push_str(&f!(
                "<span class=\"lab-more\">… and {} more partitions</span>",
                lab_text::group_digits(b.more_partitions as u64)
            ));
        }
        html.push_str("</div>");
    }
    if !p.holders.is_empty() {
        html.push_str("<div class=\"lab-pool-holders\" data-testid=\"pool-holders\"><span class=\"lab-pool-where\">held by</span>");
        for h in &p.holders {
            html.push_str(&f!(
                "<span class=\"lab-holder\" data-testid=\"holder\" data-name=\"{}\"><code>{}</code> {}</span>",
                escape(&h.name),
                escape(&h.name),
                h.buf.as_ref().map_or_else(|| escape(&h.note), buf)
            ));
        }
        html.push_str("</div>");
    }
    if !p.dropped.is_empty() {
        html.push_str(&f!(
            "<p class=\"lab-pool-dropped\" data-testid=\"pool-dropped\">{}</p>",
            escape(&p.dropped)
        ));
    }
    for row in &p.bytes {
        html.push_str(&f!(
            "<div class=\"lab-bytes\" data-testid=\"pool-bytes\">{} ",
            buf(&row.buf)
        ));
        for (i, (b, class)) in row.cells.iter().enumerate() {
            html.push_str(&f!(
                "<span class=\"{class}\" title=\"offset {i}\">{b:02x}</span> "
            ));
        }
        if row.more > 0 {
            html.push_str(&f!(
                "<span class=\"lab-more\">… {} more bytes</span>",
                lab_text::group_digits(row.more)
            ));
        }
        html.push_str("</div>");
    }
    html + "</div>"
}

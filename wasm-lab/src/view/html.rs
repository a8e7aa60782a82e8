//! The one renderer: a widget's form and view as HTML. The live widget (`web/widget.rs`) and the
//! book's static default (the preprocessor) both draw with these functions, so a reader without
//! scripts sees exactly what the script draws first.

use super::pool::{BufView, Hand, MAX_BOXES, PoolView};
use super::{Form, Kind, Part, Predict, Slot, Spans, Steps, Table, Verdict, View, predict_key};
use lab_text::{f, t, tf};

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
        let mut inner: String = g.fields.iter().map(field).collect();
        if g.fields.iter().any(|f| f.commit) {
            inner.push_str(&f!(
                "<button type=\"button\" class=\"lab-run\" data-action=\"commit\" data-for=\"{}\" data-testid=\"{}-run\">{}</button>",
                g.slot,
                g.slot,
                escape(&t!("Run"))
            ));
        }
        let intro = g.intro.map_or(String::new(), |t| {
            f!("<p class=\"lab-intro\">{}</p>", inline(tr(t)))
        });
        let note = g.note.map_or(String::new(), |t| {
            f!("<p class=\"lab-why\">{}</p>", inline(tr(t)))
        });
        match g.legend {
            Some(legend) => html.push_str(&f!(
                "<fieldset class=\"lab-group\" data-testid=\"group-{}\"><legend>{}</legend>{intro}<div class=\"lab-fields\">{inner}</div>{note}",
                g.slot,
                inline(tr(legend))
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

/// A static label of the view model (`n!` marks it for the catalog) in the page's language.
fn tr(label: &str) -> &str {
    lab_text::tr::dynamic(label)
}

fn field(f: &super::Field) -> String {
    let (id, label, value) = (f.id, inline(tr(f.label)), escape(&f.value));
    let commit = if f.commit { " data-commit" } else { "" };
    let text = |class: &str, mode: &str| {
        f!(
            "<label class=\"lab-field{class}\">{label} <input type=\"text\"{mode}{commit} autocomplete=\"off\" spellcheck=\"false\" data-field data-testid=\"{id}\" value=\"{value}\"></label>"
        )
    };
    if let (Kind::Number, Some(slider)) = (f.kind, f.slider) {
        // The slider sets the field (`web/widget.rs`); the field stays the exact way in.
        let at = crate::input::parse_number(&f.value).map_or(0, |v| slider.position(v));
        return f!(
            "<span class=\"lab-slide\">{}<input type=\"range\" class=\"lab-slider\" min=\"0\" max=\"{}\" step=\"1\" value=\"{at}\" data-slider-for=\"{id}\" data-testid=\"{id}-slider\" aria-label=\"{} ({})\"></span>",
            text("", " inputmode=\"numeric\""),
            slider.last(),
            escape(&tr(f.label).replace('`', "")),
            if slider.log {
                t!("drag; log scale")
            } else {
                t!("drag")
            }
        );
    }
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
                        escape(tr(l))
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
                    inline(tr(p.label)),
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
        Part::Drawing(d) => super::drawing::svg(d),
        // Closed, so the page without scripts keeps the live page's order: the question first,
        // the outcome when the reader asks for it.
        Part::NoScript(parts) => f!(
            "<details class=\"lab-unscripted\" data-testid=\"{slot}-outcome\"><summary>{}</summary>{}</details>",
            escape(&t!("Show the outcome")),
            parts.iter().map(|p| part(slot, p)).collect::<String>()
        ),
    }
}

fn table(t: &Table) -> String {
    let head: String = t
        .head
        .iter()
        .map(|h| f!("<th>{}</th>", inline(tr(h))))
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
        for (i, c) in r.cells.iter().enumerate() {
            // Its column's heading, which a narrow screen shows beside the cell when the rows
            // are stacked (lab-screens.css).
            let label = t
                .head
                .get(i)
                .map_or(String::new(), |h| tr(h).replace('`', ""));
            let label = f!(" data-label=\"{}\"", escape(&label));
            match &c.id {
                Some(id) => rows.push_str(&f!(
                    "<td data-testid=\"{}\"{label}>{}</td>",
                    escape(id),
                    escape(&c.text)
                )),
                None => rows.push_str(&f!("<td{label}>{}</td>", escape(&c.text))),
            }
        }
        rows.push_str("</tr>");
    }
    f!(
        "<div class=\"lab-scroll\"><table class=\"lab-table{}\"><thead><tr>{head}</tr></thead><tbody data-testid=\"{}\">{rows}</tbody></table></div>",
        // Wide tables stack their rows on a narrow screen, each cell under its heading.
        if t.head.len() > 3 { " lab-stack" } else { "" },
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
                if s.class == "lab-text" {
                    glyphs(&sp.text)
                } else {
                    escape(&sp.text)
                }
            )
        })
        .collect::<Vec<_>>()
        .join(if s.class == "lab-bytes" { " " } else { "" });
    let tag = if s.class == "lab-text" { "p" } else { "div" };
    f!(
        "<{tag} class=\"{}\" data-testid=\"{}\">{}{inner}</{tag}>",
        s.class,
        s.id,
        s.lead.map_or(String::new(), |l| f!("{} ", escape(tr(l))))
    )
}

/// Text with the marks of invisible bytes (`⏎`, `⇥`, `␀`, the cut character `�`) drawn in
/// letters every font has: the mark stays in the text (copied, read by tests), transparent, and
/// a label over it says what it is. The book's fonts have none of these marks.
fn glyphs(text: &str) -> String {
    let mut out = String::new();
    let mut plain = String::new();
    for c in text.chars() {
        let (show, name) = match c {
            '⏎' => ("LF", t!("line break")),
            '⇥' => ("TAB", t!("tab")),
            '␀' => ("00", t!("zero byte")),
            '\u{FFFD}' => ("?", t!("half of a character cut by the read")),
            _ => {
                plain.push(c);
                continue;
            }
        };
        out.push_str(&escape(&plain));
        plain.clear();
        out.push_str(&f!(
            "<span class=\"lab-glyph\" data-show=\"{show}\" title=\"{}\">{c}</span>",
            escape(&name)
        ));
    }
    out + &escape(&plain)
}

/// "Step 3 of 6", in the page's language (the DOM layer writes it again as the reader steps).
pub fn step_count(at: usize, n: usize) -> String {
    tf!("Step {} of {}", at, n)
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
    let prev = at
        .checked_sub(1)
        .and_then(|i| s.steps.get(i))
        .and_then(|st| st.pool.as_ref());
    let pool = s
        .steps
        .get(at)
        .and_then(|st| st.pool.as_ref())
        .map_or(String::new(), |p| pool_moved(p, prev));
    f!(
        "<div class=\"lab-stepper\" data-for=\"{slot}\" data-testid=\"{id}\" data-at=\"{at}\" data-steps=\"{n}\" tabindex=\"0\" aria-label=\"{}\">\
         <div class=\"lab-step-controls\">{}{}{}{}{}\
         <input type=\"range\" min=\"0\" max=\"{}\" value=\"{at}\" data-action=\"scrub\" data-for=\"{slot}\" data-testid=\"{id}-scrub\" aria-label=\"{}\">\
         <span data-testid=\"{id}-count\">{}</span></div>\
         <ol class=\"lab-steps\" data-testid=\"{id}-log\">{log}</ol>{pool}</div>",
        escape(&tf!(
            "Step-through, step {} of {}: use the buttons, or ← and → while it has focus",
            at + 1,
            n
        )),
        button("first", "|◀", &t!("First step"), at == 0),
        button("prev", &t!("◀ Back"), &t!("Step back"), at == 0),
        button("play", &t!("▶ Play"), &t!("Play the steps"), at + 1 >= n),
        button("next", &t!("Forward ▶"), &t!("Step forward"), at + 1 >= n),
        button("last", "▶|", &t!("Last step"), at + 1 >= n),
        n.saturating_sub(1),
        escape(&t!("Step")),
        escape(&step_count(at + 1, n)),
    )
}

fn predict(slot: &str, p: &Predict) -> String {
    let id = p.id;
    let choices: String = if p.choices.is_empty() {
        f!(
            "<label class=\"lab-field\">{} <input type=\"text\" inputmode=\"numeric\" autocomplete=\"off\" spellcheck=\"false\" data-testid=\"{id}-value\"></label>",
            escape(&t!("Your prediction"))
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
    let (legend, button, nudge) = match &p.nudge {
        Some(n) => (
            t!("Not yet: one more try"),
            t!("Try again"),
            f!(
                "<p class=\"lab-nudge\" data-testid=\"{id}-nudge\">{}</p>",
                inline(n)
            ),
        ),
        None => (t!("Predict first"), t!("Run it"), String::new()),
    };
    f!(
        "<fieldset class=\"lab-predict\" data-testid=\"{id}\" data-prefix=\"{}\"><legend>{legend}</legend><p>{}</p>{nudge}{choices}\
         <button type=\"button\" data-action=\"predict\" data-for=\"{slot}\" data-testid=\"{id}-run\">{button}</button>{problem}\
         <p class=\"lab-why\">{}</p></fieldset>",
        escape(&p.prefix),
        inline(&p.question),
        escape(&t!(
            "The outcome shows once you have committed to a prediction."
        ))
    )
}

fn verdict(slot: &str, v: &Verdict) -> String {
    f!(
        "<p class=\"lab-verdict {}\" data-testid=\"{}\" data-held=\"{}\"><span class=\"lab-said\" data-testid=\"{}-said\">{}</span> {} \
         <button type=\"button\" data-action=\"repredict\" data-for=\"{slot}\" data-testid=\"{}-again\">{}</button></p>",
        if v.held { "lab-ok" } else { "lab-bad" },
        v.id,
        v.held,
        v.id,
        inline(&tf!("You predicted: {}.", v.said)),
        inline(&v.text),
        v.id,
        escape(&t!("Predict again"))
    )
}

/// Buffers held, drawn as boxes (those allocated at this step marked new), and the buffers the
/// pool dropped at this step, drawn struck out.
fn hand(h: &Hand) -> String {
    let boxes = |n: u64, class: &str, label: &str| {
        let drawn = n.min(MAX_BOXES as u64);
        let mut out: String = (0..drawn)
            .map(|_| f!("<span class=\"lab-buf {class}\" aria-hidden=\"true\">{label}</span>"))
            .collect();
        if n > drawn {
            out.push_str(&f!(
                "<span class=\"lab-more\">+{}</span>",
                lab_text::group_digits(n - drawn)
            ));
        }
        out
    };
    let old = h.held.saturating_sub(h.fresh);
    let mut html = f!(
        "<div class=\"lab-pool-holders lab-hand\" data-testid=\"pool-hand\" data-held=\"{}\" data-fresh=\"{}\" data-dropped=\"{}\"><span class=\"lab-pool-where\">{}</span>",
        h.held,
        h.fresh,
        h.dropped,
        escape(&lab_text::tf!(
            "{} holds {}",
            h.who,
            lab_text::group_digits(h.held)
        ))
    );
    if h.held == 0 {
        html.push_str(&f!(
            "<span class=\"lab-buf lab-empty\">{}</span>",
            escape(&t!("nothing"))
        ));
    }
    html.push_str(&boxes(old, "lab-buf-0", ""));
    if h.fresh > 0 {
        html.push_str(&f!(
            "<span class=\"lab-tag\">{}</span>{}",
            escape(&lab_text::tp!(h.fresh, "{} new:", "{} new:")),
            boxes(h.fresh, "lab-new", &t!("new"))
        ));
    }
    html.push_str("</div>");
    if h.dropped > 0 {
        html.push_str(&f!(
            "<div class=\"lab-pool-holders lab-gone\" data-testid=\"pool-gone\"><span class=\"lab-pool-where\">{}</span>{}</div>",
            escape(&lab_text::tf!("dropped ({})", lab_text::group_digits(h.dropped))),
            boxes(h.dropped, "lab-dropped", "✕")
        ));
    }
    html
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
    pool_moved(p, None)
}

/// Where each named buffer sits in a drawn pool: `(label, place)`.
fn places(p: &PoolView) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for b in &p.buckets {
        if let Some(s) = &b.slot {
            out.push((s.label.clone(), f!("{} slot", b.length)));
        }
        for (i, part) in b.partitions.iter().enumerate() {
            for (j, x) in part.buffers.iter().enumerate() {
                out.push((x.label.clone(), f!("{} p{i} {j}", b.length)));
            }
        }
    }
    for h in &p.holders {
        if let Some(x) = &h.buf {
            out.push((x.label.clone(), f!("held {}", h.name)));
        }
    }
    out
}

/// The pool drawn after a step; what moved since `prev` (a buffer into a slot, a partition or
/// a renter's hands, a byte overwritten) carries a class the theme animates (and does not,
/// under `prefers-reduced-motion`).
pub fn pool_moved(p: &PoolView, prev: Option<&PoolView>) -> String {
    let before = prev.map(places);
    let moved = |b: &BufView, place: &str| match &before {
        Some(was) => !was.iter().any(|(l, w)| *l == b.label && w == place),
        None => false,
    };
    let buf = |b: &BufView, place: &str| {
        let html = buf(b);
        if moved(b, place) {
            html.replacen("class=\"lab-buf ", "class=\"lab-buf lab-arrived ", 1)
        } else {
            html
        }
    };
    let mut html = f!(
        "<div class=\"lab-pool\" data-testid=\"pool\" data-state=\"{}\">",
        escape(&p.signature())
    );
    for b in &p.buckets {
        html.push_str(&f!(
            "<div class=\"lab-pool-bucket\" data-testid=\"pool-bucket\" data-length=\"{}\"><span class=\"lab-pool-name\">{}</span>",
            b.length,
            escape(&tf!("bucket of {} B", lab_text::group_digits(b.length)))
        ));
        html.push_str(&f!(
            "<span class=\"lab-pool-place\" data-testid=\"pool-slot\"><span class=\"lab-pool-where\">{}</span>{}</span>",
            escape(&t!("thread slot")),
            b.slot.as_ref().map_or_else(
                || f!("<span class=\"lab-buf lab-empty\">{}</span>", escape(&t!("empty"))),
                |x| buf(x, &f!("{} slot", b.length))
            )
        ));
        for (i, part) in b.partitions.iter().enumerate() {
            let boxes: String = part
                .buffers
                .iter()
                .enumerate()
                .map(|(j, x)| buf(x, &f!("{} p{i} {j}", b.length)))
                .collect();
            let more = if part.more > 0 {
                f!(
                    "<span class=\"lab-more\">+{}</span>",
                    lab_text::group_digits(part.more)
                )
            } else {
                String::new()
            };
            html.push_str(&f!(
                "<span class=\"lab-pool-place\" data-testid=\"pool-partition\"><span class=\"lab-pool-where\">{}</span>{boxes}{more}</span>",
                escape(&tf!(
                    "partition {} ({} of {})",
                    i,
                    lab_text::group_digits(part.count),
                    lab_text::group_digits(b.per_partition)
                )),
            ));
        }
        if b.more_partitions > 0 {
            html.push_str(&f!(
                "<span class=\"lab-more\">{}</span>",
                escape(&lab_text::tp!(
                    b.more_partitions as u64,
                    "… and {} more partition",
                    "… and {} more partitions"
                ))
            ));
        }
        html.push_str("</div>");
    }
    if !p.holders.is_empty() {
        html.push_str(&f!(
            "<div class=\"lab-pool-holders\" data-testid=\"pool-holders\"><span class=\"lab-pool-where\">{}</span>",
            escape(&t!("held by"))
        ));
        for h in &p.holders {
            html.push_str(&f!(
                "<span class=\"lab-holder\" data-testid=\"holder\" data-name=\"{}\"><code>{}</code> {}</span>",
                escape(&h.name),
                escape(&h.name),
                h.buf
                    .as_ref()
                    .map_or_else(|| escape(&h.note), |x| buf(x, &f!("held {}", h.name)))
            ));
        }
        html.push_str("</div>");
    }
    if let Some(h) = &p.hand {
        html.push_str(&hand(h));
    }
    if !p.dropped.is_empty() {
        html.push_str(&f!(
            "<p class=\"lab-pool-dropped\" data-testid=\"pool-dropped\">{}</p>",
            escape(&p.dropped)
        ));
    }
    for row in &p.bytes {
        let was = prev.and_then(|q| q.bytes.iter().find(|r| r.buf.label == row.buf.label));
        html.push_str(&f!(
            "<div class=\"lab-bytes\" data-testid=\"pool-bytes\">{} ",
            self::buf(&row.buf)
        ));
        for (i, (b, class)) in row.cells.iter().enumerate() {
            let changed = was.is_some_and(|w| w.cells.get(i).is_some_and(|c| c.0 != *b));
            html.push_str(&f!(
                "<span class=\"{class}{}\" title=\"offset {i}\">{b:02x}</span> ",
                if changed { " lab-changed" } else { "" }
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

//! The stale-data widget's view (chapter 3): the story stepped through on a real handle pool,
//! the buffer drawn with the first renter's bytes marked, after the reader predicts how many of
//! them the next renter reads.

use crate::chapter::stale_data::scenario::{
    MAX_READ, ORDER_LINE, Outcome, SECOND_LINE, Scenario, Snap, escape_line, lab_config,
    parse_line, run_traced, visible,
};
use crate::input::{InputError, field_number, field_size, parse_number};
use crate::view::pool::{BucketView, BytesRow, Holder, Names, PoolView};
use crate::view::{
    Env, Field, Form, Gate, Gated, Graded, Group, Inputs, Kind, Part, Span, Spans, Step, Steps,
    View, Widget, pair,
};
use lab_text::f;
use lab_text::group_digits;
use lab_text::{n, t, tf, tp};

pub const WIDGET: Widget = Widget {
    name: "stale-data",
    form,
    view,
};

const SLOT: &str = "stale";

pub fn form(_initial: &str) -> Form {
    let d = Scenario::default();
    Form {
        groups: vec![
            Group {
                slot: "",
                legend: Some(n!("First renter")),
                intro: None,
                fields: vec![
                    Field::new(
                        "stale-size1",
                        n!("rents (bytes)"),
                        Kind::Number,
                        d.first_size.to_string(),
                    ),
                    Field::new(
                        "stale-line1",
                        n!("writes"),
                        Kind::Wide,
                        escape_line(ORDER_LINE),
                    ),
                    Field::new(
                        "stale-clear",
                        n!("returns with `clearArray: true`"),
                        Kind::Check,
                        "false",
                    ),
                ],
                note: None,
            },
            Group {
                slot: SLOT,
                legend: Some(n!("Next renter")),
                intro: None,
                fields: vec![
                    Field::new(
                        "stale-size2",
                        n!("rents (bytes)"),
                        Kind::Number,
                        d.second_size.to_string(),
                    ),
                    Field::new(
                        "stale-line2",
                        n!("writes"),
                        Kind::Wide,
                        escape_line(SECOND_LINE),
                    ),
                    Field::new(
                        "stale-read",
                        n!("reads (bytes)"),
                        Kind::Number,
                        d.read.to_string(),
                    ),
                ],
                note: Some(n!(
                    "Type `\\n` for a line break. Sizes are whole numbers (group digits with commas: 1,024). Every change reruns the story on a fresh pool."
                )),
            },
        ],
    }
}

fn scenario(inputs: &Inputs) -> Result<Scenario, String> {
    let line = |id: &str, who: &str| parse_line(inputs.get(id)).map_err(|e| f!("{who}: {e}"));
    Ok(Scenario {
        first_size: field_size(&t!("First renter's size"), inputs.get("stale-size1"))?,
        first: line("stale-line1", &t!("First renter's line"))?,
        clear: inputs.checked("stale-clear"),
        second_size: field_size(&t!("Next renter's size"), inputs.get("stale-size2"))?,
        second: line("stale-line2", &t!("Next renter's line"))?,
        read: read_field(inputs.get("stale-read"))?,
    })
}

/// The bytes to read: a number field whose limit is what this widget shows.
fn read_field(text: &str) -> Result<u64, String> {
    let name = t!("Bytes to read");
    match parse_number(text) {
        Ok(n) if n > MAX_READ => {}
        Err(InputError::TooLarge(_)) => {}
        _ => return field_number(&name, text, MAX_READ),
    }
    Err(tf!(
        "{}: “{}” is more than this widget shows (at most {})",
        name,
        text.trim().chars().take(40).collect::<String>(),
        group_digits(MAX_READ)
    ))
}

pub fn view(inputs: &Inputs, env: &Env) -> View {
    View::one(SLOT, result(inputs, env))
}

fn result(inputs: &Inputs, env: &Env) -> Result<(Vec<Part>, String), String> {
    let s = scenario(inputs)?;
    let (o, snaps) = run_traced(&s).map_err(|e| e.to_string())?;
    let question = tf!(
        "The next renter writes {} and reads {}. How many of the bytes it reads are the first renter's order (not its own bytes, not zeros)?",
        bytes(s.second.len() as u64),
        bytes(s.read)
    );
    let leaked = o.leaked as u64;
    let gate = Gate {
        slot: SLOT,
        id: "stale-predict",
        verdict: "stale-verdict",
        question,
        choices: Vec::new(),
        // Every field: `clearArray` changes the outcome though the question does not name it.
        setting: f!("{s:?}"),
    };
    let grade = |t: &str| {
        let n = parse_number(t).map_err(|e| e.to_string())?;
        let held = n == leaked;
        Ok(Graded {
            held,
            // "Reads 0 bytes it did not write" would contradict the picture when the pool
            // cleared the buffer: it reads zeros it did not write, but none of the first renter's.
            verdict: if held && leaked == 0 {
                let foreign = s.read.saturating_sub(o.own as u64);
                if foreign == 0 {
                    t!("Your prediction held: the next renter reads only bytes it wrote itself, none of the first renter's.").into_owned()
                } else {
                    tf!(
                        "Your prediction held: the next renter reads no byte of the first renter's; past its own bytes it reads {} of zeros.",
                        bytes(foreign)
                    )
                }
            } else if held {
                tf!(
                    "Your prediction held: the next renter reads {} of the first renter's order.",
                    bytes(leaked)
                )
            } else {
                tf!(
                    "Your prediction did not hold: you said {}, the lab's pool leaks {}.",
                    group_digits(n),
                    bytes(leaked)
                )
            },
            nudge: nudge(n, &s),
        })
    };
    let steps = Steps::new("stale-steps", SLOT, inputs, steps(&snaps, &s), 0);
    let mut parts = match gate.decide(inputs, grade) {
        Gated::Ask(ask, announce) => {
            let mut parts = vec![ask];
            if !env.live {
                // Readers without scripts cannot commit: they get the story at its end.
                let mut end = steps;
                end.at = end.steps.len().saturating_sub(1);
                let mut hidden = vec![Part::Steps(end)];
                hidden.extend(outcome(&o));
                parts.push(Part::NoScript(hidden));
            }
            return Ok((parts, announce));
        }
        Gated::Told(v) => vec![Part::Verdict(v)],
    };
    let announce = steps.announce();
    let at_end = steps.at_end();
    parts.push(Part::Steps(steps));
    if at_end {
        parts.extend(outcome(&o));
    } else {
        parts.push(Part::Note {
            id: Some("stale-outcome-later"),
            text: t!("Step to the end to see what the next renter reads.").into_owned(),
        });
    }
    Ok((parts, announce))
}

/// A hint after a wrong first try that points at the arithmetic, not at the answer.
fn nudge(n: u64, s: &Scenario) -> String {
    let (written, read) = (s.second.len() as u64, s.read);
    if s.clear {
        t!("The first renter returned with `clearArray: true`: what does the pool do to the bytes before the next rent?").into_owned()
    } else if n > read {
        tf!(
            "It reads only {}: the answer cannot be more than that.",
            bytes(read)
        )
    } else if read <= written {
        tf!(
            "It reads {} and wrote {}: which of the bytes it reads did it not write itself?",
            bytes(read),
            bytes(written)
        )
    } else {
        tf!(
            "It wrote its first {} and reads {}: what is in the buffer past its own bytes, where the first renter wrote {}?",
            bytes(written),
            bytes(read),
            bytes(s.first.len() as u64)
        )
    }
}

fn bytes(n: u64) -> String {
    tp!(n, "{} byte", "{} bytes")
}

/// The story's steps, each with the pool drawn after it.
pub fn steps(snaps: &[Snap], s: &Scenario) -> Vec<Step> {
    let mut names = Names::default();
    let m = lab_config().arrays_per_partition as u64;
    snaps
        .iter()
        .map(|snap| {
            let buckets = snap
                .buckets
                .iter()
                .map(|(length, layout)| {
                    BucketView::from_layout(*length, m, layout, |id| names.of(*id))
                })
                .collect();
            let holders = snap
                .holders
                .iter()
                .map(|&(name, id, returned)| Holder {
                    name: name.to_string(),
                    buf: id.map(|id| names.of(id)),
                    note: match (id, returned) {
                        (None, _) => t!("not rented yet").into_owned(),
                        (Some(_), true) => {
                            t!("(returned; the variable still points at it)").into_owned()
                        }
                        (Some(_), false) => String::new(),
                    },
                })
                .collect();
            let bytes = snap
                .bytes
                .iter()
                .map(|(id, holder, data)| {
                    let own = match holder {
                        Some("a1") => snap.written[0],
                        Some(_) => snap.written[1],
                        None => 0,
                    };
                    let shown = data.len().min(shown_bytes(s));
                    BytesRow {
                        buf: names.of(*id),
                        cells: data[..shown]
                            .iter()
                            .enumerate()
                            .map(|(i, &b)| (b, class(i, b, own)))
                            .collect(),
                        more: (data.len() - shown) as u64,
                    }
                })
                .collect();
            Step {
                code: snap.code.clone(),
                text: snap.text.clone(),
                pool: Some(PoolView {
                    buckets,
                    holders,
                    dropped: String::new(),
                    bytes,
                    hand: None,
                }),
            }
        })
        .collect()
}

/// Bytes of each buffer drawn: enough for both lines and the read, in rows of 16.
fn shown_bytes(s: &Scenario) -> usize {
    let want = s.first.len().max(s.second.len()).max(s.read as usize);
    want.div_ceil(16).max(1) * 16
}

fn class(i: usize, b: u8, own: usize) -> &'static str {
    if i < own {
        "lab-own"
    } else if b != 0 {
        "lab-leak"
    } else {
        "lab-zero"
    }
}

fn outcome(o: &Outcome) -> Vec<Part> {
    let yes_no = |b: bool| if b { t!("yes") } else { t!("no") };
    let mut hex = Vec::with_capacity(o.bytes.len());
    for (i, &b) in o.bytes.iter().enumerate() {
        hex.push(Span {
            class: class(i, b, o.own),
            id: None,
            text: f!("{b:02x}"),
            title: Some(tf!("offset {}", i)),
        });
    }
    vec![
        Part::Pairs(vec![
            pair(n!("Next renter got the same buffer"), "stale-same", yes_no(o.same_buffer)),
            pair(
                n!("Non-zero bytes it found before writing"),
                "stale-arrival",
                group_digits(o.nonzero_on_arrival as u64),
            ),
            pair(
                n!("Non-zero bytes among the bytes read"),
                "stale-nonzero",
                group_digits(o.nonzero_read as u64),
            ),
            pair(
                n!("Bytes of the first renter's it read (leaked)"),
                "stale-leaked",
                group_digits(o.leaked as u64),
            ),
        ]),
        Part::Spans(Spans {
            id: "stale-as-text",
            class: "lab-text",
            lead: Some(n!("As text:")),
            spans: vec![
                Span {
                    class: "lab-own",
                    id: Some("stale-own-text"),
                    text: o.own_text(),
                    title: None,
                },
                Span {
                    class: "lab-leak",
                    id: Some("stale-leak-text"),
                    text: o.leaked_text(),
                    title: None,
                },
                Span {
                    class: "lab-zeros",
                    id: Some("stale-zeros"),
                    text: visible(&vec![0; o.trailing_zeros()]),
                    title: None,
                },
            ],
        }),
        Part::Spans(Spans {
            id: "stale-hex",
            class: "lab-bytes",
            lead: None,
            spans: hex,
        }),
        Part::Note {
            id: None,
            text: t!("Bytes it wrote are plain, leaked bytes are marked, zeros are faint. LF is a line break, ? half of a character cut by the read, 00 a zero byte.").into_owned(),
        },
    ]
}

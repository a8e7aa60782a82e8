//! The stale-data widget's view (chapter 3): the story stepped through on a real handle pool,
//! the buffer drawn with the bytes the next renter did not write marked, after the reader
//! predicts how many such bytes it reads.

use crate::chapter::stale_data::scenario::{
    MAX_READ, ORDER_LINE, Outcome, SECOND_LINE, Scenario, Snap, escape_line, parse_line,
    run_traced, visible,
};
use crate::input::{field_number, field_size, group_digits, parse_number};
use crate::view::f;
use crate::view::pool::{BucketView, BytesRow, Holder, Names, PoolView};
use crate::view::{
    Env, Field, Form, Group, Inputs, Kind, Part, Predict, Span, Spans, Step, Steps, Verdict, View,
    Widget, pair, predict_key, step_at,
};
use bufpool::pool::SharedConfig;

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
                legend: Some("First renter"),
                intro: None,
                fields: vec![
                    Field::new(
                        "stale-size1",
                        "rents (bytes)",
                        Kind::Number,
                        d.first_size.to_string(),
                    ),
                    Field::new("stale-line1", "writes", Kind::Text, escape_line(ORDER_LINE)),
                    Field::new(
                        "stale-clear",
                        "returns with `clearArray: true`",
                        Kind::Check,
                        "false",
                    ),
                ],
                note: None,
            },
            Group {
                slot: SLOT,
                legend: Some("Next renter"),
                intro: None,
                fields: vec![
                    Field::new(
                        "stale-size2",
                        "rents (bytes)",
                        Kind::Number,
                        d.second_size.to_string(),
                    ),
                    Field::new(
                        "stale-line2",
                        "writes",
                        Kind::Text,
                        escape_line(SECOND_LINE),
                    ),
                    Field::new(
                        "stale-read",
                        "reads (bytes)",
                        Kind::Number,
                        d.read.to_string(),
                    ),
                ],
                note: Some(
                    "Type `\\n` for a line break. Sizes are whole numbers (group digits with commas: 1,024). Every change reruns the story on a fresh pool.",
                ),
            },
        ],
    }
}

fn scenario(inputs: &Inputs) -> Result<Scenario, String> {
    let line = |id: &str, who: &str| parse_line(inputs.get(id)).map_err(|e| f!("{who}: {e}"));
    Ok(Scenario {
        first_size: field_size("First renter's size", inputs.get("stale-size1"))?,
        first: line("stale-line1", "First renter's line")?,
        clear: inputs.checked("stale-clear"),
        second_size: field_size("Next renter's size", inputs.get("stale-size2"))?,
        second: line("stale-line2", "Next renter's line")?,
        read: field_number("Bytes to read", inputs.get("stale-read"), MAX_READ)
            .map_err(|e| e.replace("this field takes", "this widget shows"))?,
    })
}

pub fn view(inputs: &Inputs, env: &Env) -> View {
    View::one(SLOT, result(inputs, env))
}

fn result(inputs: &Inputs, env: &Env) -> Result<(Vec<Part>, String), String> {
    let s = scenario(inputs)?;
    let (o, snaps) = run_traced(&s).map_err(|e| e.to_string())?;
    let question = f!(
        "The next renter writes {} and reads {}. How many of the bytes it reads did it *not* write — bytes of the first renter's order?",
        bytes(s.second.len() as u64),
        bytes(s.read)
    )
    .replace('*', "");
    let predicted = inputs.get(&predict_key(SLOT));
    if env.live && predicted.is_empty() {
        return Ok((
            vec![Part::Predict(Predict {
                id: "stale-predict",
                question: question.clone(),
                choices: Vec::new(),
                problem: None,
            })],
            f!("Predict first: {question}"),
        ));
    }
    let mut parts = Vec::new();
    if !predicted.is_empty() {
        match parse_number(predicted) {
            Ok(n) => parts.push(Part::Verdict(verdict(n, &o))),
            Err(e) => {
                return Ok((
                    vec![Part::Predict(Predict {
                        id: "stale-predict",
                        question,
                        choices: Vec::new(),
                        problem: Some(f!("Your prediction: {e}")),
                    })],
                    f!("Your prediction could not be read: {e}."),
                ));
            }
        }
    }
    let steps = steps(&snaps, &s);
    let at = step_at(inputs, SLOT, steps.len()).max(if inputs.has(&crate::view::step_key(SLOT)) {
        0
    } else {
        steps.len() - 1
    });
    let announce = f!("Step {} of {}: {}.", at + 1, steps.len(), steps[at].text);
    parts.push(Part::Steps(Steps {
        id: "stale-steps",
        steps,
        at,
    }));
    parts.extend(outcome(&o));
    Ok((parts, announce))
}

fn bytes(n: u64) -> String {
    f!("{} byte{}", group_digits(n), if n == 1 { "" } else { "s" })
}

fn verdict(n: u64, o: &Outcome) -> Verdict {
    let leaked = o.leaked as u64;
    let held = n == leaked;
    let text = if held {
        f!(
            "Your prediction held: the next renter reads {} it did not write.",
            bytes(leaked)
        )
    } else {
        f!(
            "Your prediction did not hold: you said {}, the lab's pool leaks {}.",
            group_digits(n),
            bytes(leaked)
        )
    };
    Verdict {
        id: "stale-verdict",
        held,
        text,
    }
}

/// The story's steps, each with the pool drawn after it.
pub fn steps(snaps: &[Snap], s: &Scenario) -> Vec<Step> {
    let mut names = Names::default();
    let m = SharedConfig {
        partitions: 1,
        ..SharedConfig::default()
    }
    .arrays_per_partition as u64;
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
                        (None, _) => "not rented yet".into(),
                        (Some(_), true) => "(returned; the variable still points at it)".into(),
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
    let yes_no = |b: bool| if b { "yes" } else { "no" };
    let mut hex = Vec::with_capacity(o.bytes.len());
    for (i, &b) in o.bytes.iter().enumerate() {
        hex.push(Span {
            class: class(i, b, o.own),
            id: None,
            text: f!("{b:02x}"),
            title: Some(f!("offset {i}")),
        });
    }
    vec![
        Part::Pairs(vec![
            pair("Next renter got the same buffer", "stale-same", yes_no(o.same_buffer)),
            pair(
                "Non-zero bytes it found before writing",
                "stale-arrival",
                group_digits(o.nonzero_on_arrival as u64),
            ),
            pair(
                "Non-zero bytes among the bytes read",
                "stale-nonzero",
                group_digits(o.nonzero_read as u64),
            ),
            pair(
                "Bytes read that it did not write (leaked)",
                "stale-leaked",
                group_digits(o.leaked as u64),
            ),
        ]),
        Part::Spans(Spans {
            id: "stale-as-text",
            class: "lab-text",
            lead: Some("As text:"),
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
            text: "Bytes it wrote are plain, leaked bytes are marked, zeros are faint. ⏎ is a line break, � half of a character cut by the read.".into(),
        },
    ]
}

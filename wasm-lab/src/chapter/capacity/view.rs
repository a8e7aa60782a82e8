//! The capacity widget's view (chapter 5): P, M, K and a size → a real `SharedPool` run round
//! by round, stepped through with the bucket drawn: partitions filling, the spill past
//! `1 + P × M`, the trims dropping buffers.

use crate::chapter::capacity::quiz::{BytesPerRound, Held};
use crate::chapter::capacity::scenario::{Setup, Snap, buffer_length, run_rounds_traced};
use crate::input::{field_number, field_size};
use crate::quiz::{Kind as _, Page, Solution};
use crate::view::pool::{BucketView, BufView, Hand, Holder, PoolView};
use crate::view::{
    Env, Field, Form, Hold, Inputs, Kind, Part, Row, Step, Steps, Table, View, Widget, cell,
    initial_parts, or, pair,
};
use lab_text::{f, group_digits, n, t, tf, tp};

/// Rounds the widget runs.
pub const ROUNDS: u32 = 3;

pub const WIDGET: Widget = Widget {
    name: "capacity",
    form,
    view,
};

/// `initial=P/M/K/SIZE`, e.g. `initial=8/32/258/128` (the Thai article's 8-core machine).
pub fn form(initial: &str) -> Form {
    let v = initial_parts(initial, 4);
    Form::single(
        "cap",
        vec![
            Field::new("cap-p", n!("P, partitions"), Kind::Number, or(&v[0], "8")),
            Field::new(
                "cap-m",
                n!("M, per partition"),
                Kind::Number,
                or(&v[1], "32"),
            ),
            Field::new(
                "cap-k",
                n!("K, held at once"),
                Kind::Number,
                or(&v[2], "258"),
            )
            .with_slider(0, 600, false),
            Field::new(
                "cap-size",
                n!("Size (bytes)"),
                Kind::Number,
                or(&v[3], "128"),
            ),
        ],
        Some(GRAMMAR_NOTE),
    )
}

const GRAMMAR_NOTE: &str = n!(
    "Every field takes one whole number (group digits with commas: 1,024); the slider sets K by dragging."
);

fn setup(inputs: &Inputs) -> Result<Setup, String> {
    Ok(Setup {
        partitions: field_number("P", inputs.get("cap-p"), u64::MAX)?,
        arrays_per_partition: field_number("M", inputs.get("cap-m"), u64::MAX)?,
        held: field_number("K", inputs.get("cap-k"), u64::MAX)?,
        size: field_size(&t!("Size"), inputs.get("cap-size"))?,
    })
}

pub fn view(inputs: &Inputs, env: &Env) -> View {
    View::one("cap", result(inputs, env))
}

fn result(inputs: &Inputs, env: &Env) -> Result<(Vec<Part>, String), String> {
    let s = setup(inputs)?;
    let (run, snaps) = run_rounds_traced(s, ROUNDS).map_err(|e| e.to_string())?;
    let capacity = group_digits(run.capacity);
    let formula = f!(
        "1 + {} × {} = {capacity}",
        group_digits(s.partitions),
        group_digits(s.arrays_per_partition)
    );
    let length = if run.buffer_length == 0 {
        t!("0 (the empty buffer, never pooled)").into_owned()
    } else if run.pooled {
        group_digits(run.buffer_length)
    } else {
        tf!(
            "{} (over the largest bucket: exact length, never pooled)",
            group_digits(run.buffer_length)
        )
    };
    // The widget opens after round 1's return: the partitions full, the spill dropped.
    let steps = Steps::new(
        "cap-steps",
        "cap",
        inputs,
        steps(&snaps, &s, run.buffer_length),
        1,
    );
    let rows = run
        .rounds
        .iter()
        .map(|r| {
            let n = r.round;
            Row {
                id: Some(f!("cap-round-{n}")),
                cells: vec![
                    cell("", n.to_string()),
                    cell(f!("cap-r{n}-new"), group_digits(r.allocated_buffers)),
                    cell(f!("cap-r{n}-bytes"), group_digits(r.allocated_bytes)),
                    cell(
                        f!("cap-r{n}-counted"),
                        r.counted_bytes
                            .map_or(t!("(not counted)").into_owned(), group_digits),
                    ),
                    cell(f!("cap-r{n}-kept"), group_digits(r.kept_after_return)),
                    cell(f!("cap-r{n}-kept-bytes"), group_digits(r.retained_bytes)),
                ],
                ..Row::default()
            }
        })
        .collect();
    let create = match run.create_keeps {
        None => t!("nothing to keep (empty buffer)").into_owned(),
        Some(true) => t!("yes (within its default 1,048,576)").into_owned(),
        Some(false) => t!("no (over its default 1,048,576)").into_owned(),
    };
    let later = run.rounds.get(1).map_or(0, |r| r.allocated_buffers);
    let why = if !run.pooled {
        t!("Buffers of this size never go back into the pool: every round allocates all K.")
            .into_owned()
    } else if later == 0 {
        tf!(
            "K = {} fits in {}: after the first round every rent is served from the pool.",
            group_digits(s.held),
            formula
        )
    } else {
        tf!(
            "K = {} is over {}: {}",
            group_digits(s.held),
            formula,
            tp!(
                later,
                "each round, {} buffer is dropped on return and allocated again on the next rent.",
                "each round, {} buffers are dropped on return and allocated again on the next rent."
            )
        )
    };
    let announce = tf!(
        "Kept per size {}; round 2 allocates {}.",
        formula,
        tp!(later, "{} new buffer", "{} new buffers")
    );
    let outcome = vec![
        Part::Pairs(vec![
            pair(n!("Kept per size, 1 + P × M"), "cap-capacity", capacity),
            pair(n!("Buffer length (bucket)"), "cap-length", length),
        ]),
        Part::Steps(steps),
        Part::Table(Table {
            id: "cap-rounds",
            head: vec![
                n!("Round"),
                n!("New buffers"),
                n!("Bytes of new buffers"),
                n!("Bytes counted by the allocator"),
                n!("Kept after return"),
                n!("Bytes kept"),
            ],
            rows,
        }),
        Part::Pairs(vec![
            pair(
                n!("Kept after a High-pressure trim"),
                "cap-trim1",
                group_digits(run.kept_after_first_trim),
            ),
            pair(
                n!("… and another 11 s later"),
                "cap-trim2",
                group_digits(run.kept_after_second_trim),
            ),
            pair(n!("Would `Create()` keep this size?"), "cap-create", create),
        ]),
        Part::Note {
            id: Some("cap-why"),
            text: why,
        },
    ];
    let bytes = run.rounds.get(1).map_or(0, |r| r.allocated_bytes);
    Ok(hold(&s, run.pooled, bytes).decide(inputs, env, outcome, announce))
}

/// The question the rounds wait for: the bytes a round allocates from the second on, graded
/// by the quiz's [`BytesPerRound`] (whose mistakes include the forgotten thread slot) when
/// some buffers spill, else by the run itself.
fn hold(s: &Setup, pooled: bool, bytes: u64) -> Hold {
    let held = Held {
        partitions: s.partitions,
        per_partition: s.arrays_per_partition,
        held: s.held,
        size: s.size,
    };
    let quiz = (pooled && s.held > s.capacity())
        .then(|| BytesPerRound.solve(&held, &Page::default()).ok())
        .flatten()
        .filter(|q| q.is_answer(&bytes.to_string()));
    let solution = quiz.unwrap_or_else(|| {
        Solution::number(bytes, String::new())
            .hint(t!(
                "The pool serves what it kept; the rest are new buffers of the bucket's length"
            ))
            .mistake(
                s.held.saturating_mul(buffer_length(s.size)),
                t!("From the second round on, the buffers the pool kept are reused"),
            )
    });
    Hold {
        slot: "cap",
        id: "cap-predict",
        verdict: "cap-verdict",
        question: tf!(
            "P = {}, M = {}. Each round rents K = {} buffers of {} bytes, holds them all, then returns them all. From the second round on, how many bytes does each round allocate?",
            group_digits(s.partitions),
            group_digits(s.arrays_per_partition),
            group_digits(s.held),
            group_digits(s.size)
        ),
        choices: Vec::new(),
        solution,
        found: tf!(
            "from the second round on, each round allocates {} bytes",
            group_digits(bytes)
        ),
    }
}

/// The run's steps, the bucket drawn after each.
pub fn steps(snaps: &[Snap], s: &Setup, length: u64) -> Vec<Step> {
    snaps
        .iter()
        .map(|snap| Step {
            code: snap.code.clone(),
            text: snap.text.clone(),
            pool: Some(PoolView {
                buckets: snap
                    .layout
                    .iter()
                    .map(|l| {
                        BucketView::from_layout(length, s.arrays_per_partition, l, |_| BufView {
                            label: String::new(),
                            colour: 0,
                        })
                    })
                    .collect(),
                holders: vec![Holder {
                    name: t!("your code").into_owned(),
                    buf: None,
                    note: tp!(snap.held, "holds {} buffer", "holds {} buffers"),
                }],
                dropped: if snap.dropped > 0 {
                    tp!(
                        snap.dropped,
                        "{} buffer dropped at this step",
                        "{} buffers dropped at this step"
                    )
                } else {
                    String::new()
                },
                bytes: Vec::new(),
                hand: Some(Hand {
                    who: t!("your code").into_owned(),
                    held: snap.held,
                    fresh: snap.fresh,
                    dropped: snap.dropped,
                }),
            }),
        })
        .collect()
}

//! The bucket calculator's view (chapter 2): a request → the bucket, its length and the waste.

use crate::calc::calculate;
use crate::chapter::bucket_rounding::quiz::BufferLength;
use crate::input::field_size;
use crate::quiz::{Kind as _, Page, Solution};
use crate::view::{Env, Field, Form, Hold, Inputs, Kind, Part, View, Widget, or, pair, sentence};
use lab_text::decimal::fixed;
use lab_text::f;
use lab_text::group_digits;
use lab_text::{n, t, tf};

pub const WIDGET: Widget = Widget {
    name: "bucket-rounding",
    form,
    view,
};

/// `initial=N`.
pub fn form(initial: &str) -> Form {
    Form::single(
        "calc",
        vec![
            Field::new(
                "calc-input",
                n!("Request size (bytes)"),
                Kind::Number,
                or(initial, "100"),
            )
            .with_slider(1, bufpool::bucket::MAX_BUCKET_LEN as u64, true),
        ],
        Some(n!(
            "One whole number (group digits with commas: 1,048,576), or drag the slider: a log scale, a power of two every 16 steps."
        )),
    )
}

pub fn view(inputs: &Inputs, env: &Env) -> View {
    View::one(
        "calc",
        field_size(&t!("Request size"), inputs.get("calc-input")).map(|request| {
            let c = calculate(request);
            let index = match (c.kind, c.index) {
                (_, Some(i)) => i.to_string(),
                ("empty", None) => t!("none (empty buffer)").into_owned(),
                _ => t!("none (not pooled)").into_owned(),
            };
            let announce = tf!(
                "{} bytes: a buffer of {}, {} wasted.",
                group_digits(request),
                group_digits(c.length),
                group_digits(c.wasted)
            );
            let outcome = vec![
                Part::Pairs(vec![
                    pair(n!("Bucket index"), "calc-index", index),
                    pair(n!("Buffer length"), "calc-length", group_digits(c.length)),
                    pair(n!("Wasted bytes"), "calc-wasted", group_digits(c.wasted)),
                    pair(
                        n!("Share of the buffer wasted"),
                        "calc-percent",
                        f!("{} %", fixed(c.wasted_percent, 1)),
                    ),
                    pair(
                        n!("Excess over the request"),
                        "calc-excess",
                        f!("{} %", fixed(c.excess_percent, 1)),
                    ),
                ]),
                Part::Note {
                    id: Some("calc-why"),
                    text: sentence(&c.why),
                },
            ];
            hold(request, c.length).decide(inputs, env, outcome, announce)
        }),
    )
}

/// The question the calculator asks before it answers: the buffer's length, picked among the
/// right one and the quiz's misconceptions ([`BufferLength`]), shortest first.
fn hold(request: u64, length: u64) -> Hold {
    let solution = BufferLength
        .solve(&request, &Page::default())
        .unwrap_or_else(|why| Solution::number(length, why));
    let mut lengths: Vec<String> = std::iter::once(&solution.answer)
        .chain(solution.mistakes.iter().map(|m| &m.answer))
        .cloned()
        .collect();
    lengths.sort_by_key(|l| digits(l));
    Hold {
        slot: "calc",
        id: "calc-predict",
        verdict: "calc-verdict",
        question: tf!(
            "You rent {} bytes: how long is the buffer the pool hands you?",
            group_digits(request)
        ),
        choices: lengths
            .into_iter()
            .map(|l| (digits(&l).to_string(), l))
            .collect(),
        solution,
        found: tf!(
            "a request of {} bytes gets a buffer of {} bytes",
            group_digits(request),
            group_digits(length)
        ),
    }
}

/// A length as the quiz shows it (`2,048`, `2 048`), read back as a number.
fn digits(shown: &str) -> u64 {
    shown.bytes().filter(u8::is_ascii_digit).fold(0u64, |v, b| {
        v.saturating_mul(10).saturating_add(u64::from(b - b'0'))
    })
}

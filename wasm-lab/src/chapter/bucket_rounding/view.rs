//! The bucket calculator's view (chapter 2): a request → the bucket, its length and the waste.

use crate::calc::calculate;
use crate::input::field_size;
use crate::view::{Env, Field, Form, Inputs, Kind, Part, View, Widget, or, pair, sentence};
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

pub fn view(inputs: &Inputs, _env: &Env) -> View {
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
            (
                vec![
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
                ],
                announce,
            )
        }),
    )
}

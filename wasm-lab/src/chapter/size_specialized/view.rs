//! The size-specialized rent's view (chapter 8): a list of constant sizes → the bucket each
//! `rent::<N>()` resolves at compile time, and how many specialized copies that compiles.

use crate::chapter::size_specialized::quiz::BucketRoutines;
use crate::chapter::size_specialized::scenario::{go_specializes, monomorphize, parse_sizes};
use crate::quiz::{Kind as _, Page, Solution};
use crate::view::{
    Env, Field, Form, Hold, Inputs, Kind, Part, Row, Table, View, Widget, cell, or, pair,
};
use lab_text::group_digits;
use lab_text::{n, t, tf, tp};

pub const WIDGET: Widget = Widget {
    name: "size-specialized",
    form,
    view,
};

/// `initial=24;41;64`.
pub fn form(initial: &str) -> Form {
    Form::single(
        "spec",
        vec![Field::new(
            "spec-input",
            n!("Sizes of `rent::<N>()` call sites (bytes)"),
            Kind::Wide,
            or(initial, "24;41;64;100;128;4096;81920").replace(';', "; "),
        )],
        Some(n!(
            "Separate sizes with spaces or semicolons (24; 64; 4096); commas only group digits inside one size (1,048,576)."
        )),
    )
}

pub fn view(inputs: &Inputs, env: &Env) -> View {
    let yes_no = |b: bool| if b { t!("yes") } else { t!("no") };
    View::one(
        "spec",
        parse_sizes(inputs.get("spec-input"))
            .map_err(|e| tf!("Sizes: {}", e))
            .and_then(|sizes| {
                let m = monomorphize(&sizes).map_err(|e| tf!("Sizes: {}", e))?;
                Ok((sizes, m))
            })
            .map(|(sizes, m)| {
                let rows = m
                    .rows
                    .iter()
                    .map(|r| Row {
                        id: Some("spec-row".into()),
                        data: Some(("size", r.size.to_string())),
                        selected: false,
                        cells: vec![
                            cell("", group_digits(r.size)),
                            cell(
                                "spec-index",
                                r.index
                                    .map_or(t!("none (run time)").into_owned(), |i| i.to_string()),
                            ),
                            cell("spec-length", group_digits(r.length)),
                            cell("spec-go", yes_no(go_specializes(r.size))),
                        ],
                    })
                    .collect();
                let announce = tf!(
                    "{} sizes, {} bucket-specialized paths.",
                    m.distinct_sizes,
                    m.distinct_buckets
                );
                let outcome = vec![
                    Part::Table(Table {
                        id: "spec-rows",
                        head: vec![
                            "N",
                            n!("Bucket index (compile time)"),
                            n!("Buffer length"),
                            n!("Go 1.27 would specialize `new(T)` of N bytes?"),
                        ],
                        rows,
                    }),
                    Part::Pairs(vec![
                        pair(
                            n!("`rent::<N>` wrappers (distinct N)"),
                            "spec-sizes",
                            m.distinct_sizes.to_string(),
                        ),
                        pair(
                            n!("Bucket-specialized paths (distinct buckets)"),
                            "spec-buckets",
                            m.distinct_buckets.to_string(),
                        ),
                        pair(
                            n!("Sizes left to the run-time path"),
                            "spec-runtime",
                            m.runtime_only.to_string(),
                        ),
                        pair(
                            n!("Run-time rent: paths compiled"),
                            "spec-runtime-copies",
                            m.runtime_copies.to_string(),
                        ),
                    ]),
                ];
                hold(&sizes, m.distinct_buckets as u64).decide(inputs, env, outcome, announce)
            }),
    )
}

/// The question the copies wait for, graded by the quiz's [`BucketRoutines`]: how many copies
/// of the bucket-specialized path these call sites compile.
fn hold(sizes: &[u64], buckets: u64) -> Hold {
    let solution = BucketRoutines
        .solve(&sizes.to_vec(), &Page::default())
        .unwrap_or_else(|why| Solution::number(buckets, why));
    let shown: Vec<String> = sizes.iter().copied().map(group_digits).collect();
    Hold {
        slot: "spec",
        id: "spec-predict",
        verdict: "spec-verdict",
        question: tf!(
            "Call sites `rent::<N>()` with N = {}: if the const-generic rent forwards to one specialized path per bucket, how many copies of that path are compiled?",
            shown.join("; ")
        ),
        choices: Vec::new(),
        solution,
        found: tp!(
            buckets,
            "these call sites compile {} copy of the bucket path",
            "these call sites compile {} copies of the bucket path"
        ),
    }
}

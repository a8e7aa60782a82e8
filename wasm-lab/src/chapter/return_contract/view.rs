//! The return-contract widget's view (chapter 4): the double return stepped through on a real
//! handle pool (the same buffer in the pool twice, then handed to two renters) after the reader
//! predicts whether `r1` and `r2` share a buffer; use after return, foreign return and the
//! missing `finally` beside it.

use crate::chapter::return_contract::scenario::{
    Forgotten, MAX_ROUNDS, Snap, check_foreign_length, double_return_traced, foreign_return,
    forgotten_return, use_after_return,
};
use crate::input::{field_byte, field_number, field_size, group_digits};
use crate::view::f;
use crate::view::pool::{BucketView, Holder, Names, PoolView};
use crate::view::{
    Env, Field, Form, Group, Inputs, Kind, Part, Predict, Slot, Step, Steps, Verdict, View, Widget,
    pair, predict_key, sentence, step_at, step_key,
};
use bufpool::pool::SharedConfig;

pub const WIDGET: Widget = Widget {
    name: "return-contract",
    form,
    view,
};

pub fn form(_initial: &str) -> Form {
    let group = |slot, legend, intro, fields| Group {
        slot,
        legend: Some(legend),
        intro: Some(intro),
        fields,
        note: None,
    };
    Form {
        groups: vec![
            Group {
                slot: "",
                legend: None,
                intro: None,
                fields: vec![Field::new(
                    "contract-checked",
                    "checked mode (beyond .NET: the pool reports misuse as errors)",
                    Kind::Check,
                    "false",
                )],
                note: None,
            },
            group(
                "dr",
                "Double return",
                "`x = pool.Rent(64); pool.Return(x);` then, if ticked, `pool.Return(x);` again; then `r1 = pool.Rent(64); r2 = pool.Rent(64); r1[0] = …`",
                vec![
                    Field::new("dr-twice", "`pool.Return(x);` again", Kind::Check, "true"),
                    Field::new("dr-value", "`r1[0] =`", Kind::Number, "11"),
                ],
            ),
            group(
                "uar",
                "Use after return",
                "`stale = pool.Rent(64); pool.Return(stale); fresh = pool.Rent(64);`",
                vec![
                    Field::new("uar-fresh", "`fresh[0] =`", Kind::Number, "200"),
                    Field::new("uar-stale", "`stale[0] =`", Kind::Number, "99"),
                ],
            ),
            group(
                "fr",
                "Foreign return",
                "`mine = new byte[length]; mine[0] = …; pool.Return(mine); got = pool.Rent(mine.Length);`",
                vec![
                    Field::new("fr-length", "`length`", Kind::Number, "128"),
                    Field::new("fr-value", "`mine[0] =`", Kind::Number, "77"),
                ],
            ),
            group(
                "mf",
                "The missing `finally`",
                "The pool starts with its full stock of 128-byte buffers; each round rents 128 bytes and fails.",
                vec![Field::new("mf-rounds", "rounds", Kind::Number, "10")],
            ),
        ],
    }
}

fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

fn accepted(outcome: &Option<String>, ok: &str) -> String {
    outcome
        .as_ref()
        .map_or(ok.to_string(), |e| f!("error: {e}"))
}

pub fn view(inputs: &Inputs, env: &Env) -> View {
    let checked = inputs.checked("contract-checked");
    let (dr, announce) = match double(inputs, env, checked) {
        Ok((parts, announce)) => (Slot::ok("dr", parts), announce),
        Err(e) => (Slot::error("dr", e.clone()), sentence(&e)),
    };
    let mut slots = vec![dr];
    slots.push(match uar(inputs, checked) {
        Ok(parts) => Slot::ok("uar", parts),
        Err(e) => Slot::error("uar", e),
    });
    slots.push(match foreign(inputs, checked) {
        Ok(parts) => Slot::ok("fr", parts),
        Err(e) => Slot::error("fr", e),
    });
    slots.push(match finally(inputs) {
        Ok(parts) => Slot::ok("mf", parts),
        Err(e) => Slot::error("mf", e),
    });
    // One sentence for screen readers: the first problem, else the double return's step.
    let announce = slots
        .iter()
        .skip(1)
        .find_map(|s| s.error.as_deref().map(sentence))
        .unwrap_or(announce);
    View { announce, slots }
}

fn double(inputs: &Inputs, env: &Env, checked: bool) -> Result<(Vec<Part>, String), String> {
    let twice = inputs.checked("dr-twice");
    let value = field_byte("r1[0]", inputs.get("dr-value"))?;
    let (r, snaps) = double_return_traced(value, twice, checked).map_err(|e| e.to_string())?;
    let question = f!(
        "{}`r1 = pool.Rent(64); r2 = pool.Rent(64);` — do `r1` and `r2` share one buffer?",
        if twice {
            "After the second `Return(x)`, "
        } else {
            "After one `Return(x)`, "
        }
    );
    let predicted = inputs.get(&predict_key("dr"));
    let choices = vec![
        ("yes".to_string(), "yes, the same buffer".to_string()),
        ("no".to_string(), "no, two buffers".to_string()),
    ];
    if env.live && !matches!(predicted, "yes" | "no") {
        return Ok((
            vec![Part::Predict(Predict {
                id: "dr-predict",
                question: question.clone(),
                choices,
                problem: (!predicted.is_empty())
                    .then(|| "Your prediction: choose yes or no".to_string()),
            })],
            f!("Predict first: {}", question.replace('`', "")),
        ));
    }
    let mut parts = Vec::new();
    if matches!(predicted, "yes" | "no") {
        let said = predicted == "yes";
        let held = said == r.same_buffer;
        parts.push(Part::Verdict(Verdict {
            id: "dr-verdict",
            held,
            text: f!(
                "Your prediction {}: `r1` and `r2` {}.",
                if held { "held" } else { "did not hold" },
                if r.same_buffer {
                    "are the same buffer"
                } else {
                    "are two buffers"
                }
            ),
        }));
    }
    let steps = steps(&snaps);
    let at = if inputs.has(&step_key("dr")) {
        step_at(inputs, "dr", steps.len())
    } else {
        steps.len() - 1
    };
    let announce = f!("Step {} of {}: {}.", at + 1, steps.len(), steps[at].text);
    parts.push(Part::Steps(Steps {
        id: "dr-steps",
        steps,
        at,
    }));
    parts.push(Part::Pairs(vec![
        pair(
            "Second return",
            "dr-second",
            if twice {
                accepted(&r.second_return, "accepted, no error")
            } else {
                "not made".into()
            },
        ),
        pair(
            "`ReferenceEquals(r1, r2)`",
            "dr-same",
            yes_no(r.same_buffer),
        ),
        pair("`r2[0]` reads", "dr-r2", r.r2_reads.to_string()),
    ]));
    Ok((parts, announce))
}

/// The double return's steps, the 64-byte bucket drawn after each.
pub fn steps(snaps: &[Snap]) -> Vec<Step> {
    let mut names = Names::default();
    let m = SharedConfig {
        partitions: 1,
        ..SharedConfig::default()
    }
    .arrays_per_partition as u64;
    snaps
        .iter()
        .map(|snap| Step {
            code: snap.code.clone(),
            text: snap.text.clone(),
            pool: Some(PoolView {
                buckets: vec![BucketView::from_layout(64, m, &snap.layout, |id| {
                    names.of(*id)
                })],
                holders: snap
                    .holders
                    .iter()
                    .map(|&(name, id, returned)| Holder {
                        name: name.to_string(),
                        buf: id.map(|id| names.of(id)),
                        note: if returned {
                            "(returned; the variable still points at it)".into()
                        } else {
                            String::new()
                        },
                    })
                    .collect(),
                dropped: String::new(),
                bytes: Vec::new(),
            }),
        })
        .collect()
}

fn uar(inputs: &Inputs, checked: bool) -> Result<Vec<Part>, String> {
    let fresh = field_byte("fresh[0]", inputs.get("uar-fresh"))?;
    let stale = field_byte("stale[0]", inputs.get("uar-stale"))?;
    let r = use_after_return(fresh, stale, checked).map_err(|e| e.to_string())?;
    Ok(vec![Part::Pairs(vec![
        pair(
            "`ReferenceEquals(fresh, stale)`",
            "uar-same",
            yes_no(r.same_buffer),
        ),
        pair(
            "The stale write",
            "uar-write",
            accepted(&r.stale_write, "went through, no error"),
        ),
        pair("`fresh[0]` reads", "uar-reads", r.fresh_reads.to_string()),
    ])])
}

fn foreign(inputs: &Inputs, checked: bool) -> Result<Vec<Part>, String> {
    let length = field_size("length", inputs.get("fr-length")).and_then(check_foreign_length)?;
    let value = field_byte("mine[0]", inputs.get("fr-value"))?;
    let r = foreign_return(length, value, checked).map_err(|e| e.to_string())?;
    Ok(vec![Part::Pairs(vec![
        pair(
            "The return",
            "fr-return",
            accepted(&r.refused, "accepted, no error"),
        ),
        pair(
            "`ReferenceEquals(got, mine)`",
            "fr-same",
            yes_no(r.next_is_mine),
        ),
        pair(
            "`got[0]` reads",
            "fr-reads",
            r.next_reads
                .map_or("nothing (an empty buffer)".into(), |x| x.to_string()),
        ),
    ])])
}

fn finally(inputs: &Inputs) -> Result<Vec<Part>, String> {
    let n = field_number("Rounds", inputs.get("mf-rounds"), MAX_ROUNDS).map_err(|e| {
        e.replace(
            "is more than this field takes",
            "is more than this widget runs in your browser",
        )
    })?;
    let with = forgotten_return(n, true).map_err(|e| e.to_string())?;
    let without = forgotten_return(n, false).map_err(|e| e.to_string())?;
    let bytes = |f: &Forgotten| {
        f.alloc.map_or("—".into(), |a| {
            f!("{} B", group_digits(a.bytes_allocated))
        })
    };
    Ok(vec![Part::Pairs(vec![
        pair(
            "Spare buffers at the start",
            "mf-stock",
            with.stock.to_string(),
        ),
        pair(
            "New buffers, return in `finally`",
            "mf-with",
            group_digits(with.new_buffers),
        ),
        pair(
            "New buffers, return forgotten on the error path",
            "mf-without",
            group_digits(without.new_buffers),
        ),
        pair(
            "Bytes allocated, `finally` / forgotten",
            "mf-bytes",
            f!("{} / {}", bytes(&with), bytes(&without)),
        ),
    ])])
}

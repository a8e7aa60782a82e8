//! The return-contract widget's view (chapter 4): the double return stepped through on a real
//! handle pool (the same buffer in the pool twice, then handed to two renters) after the reader
//! predicts whether `r1` and `r2` share a buffer; use after return, foreign return and the
//! missing `finally` beside it.

use crate::chapter::return_contract::quiz::ForgottenReturn;
use crate::chapter::return_contract::scenario::{
    DoubleReturn, Forgotten, MAX_ROUNDS, Snap, check_foreign_length, double_return_traced,
    foreign_return, forgotten_return, use_after_return,
};
use crate::chapter::stale_data::scenario::lab_config;
use crate::input::{InputError, field_byte, field_number, field_size, parse_number};
use crate::quiz::{Kind as _, Page, Solution};
use crate::view::pool::{BucketView, Holder, Names, PoolView};
use crate::view::{
    Env, Field, Form, Gate, Gated, Graded, Group, Hold, Inputs, Kind, Part, Slot, Step, Steps,
    View, Widget, pair, sentence,
};
use lab_text::f;
use lab_text::group_digits;
use lab_text::{n, t, tf, tp};

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
                    n!("checked mode (beyond .NET: the pool reports misuse as errors)"),
                    Kind::Check,
                    "false",
                )],
                note: None,
            },
            group(
                "dr",
                n!("Double return"),
                n!(
                    "`x = pool.Rent(64); pool.Return(x);` then, if ticked, `pool.Return(x);` again; then `r1 = pool.Rent(64); r2 = pool.Rent(64); r1[0] = …`"
                ),
                vec![
                    Field::new(
                        "dr-twice",
                        n!("`pool.Return(x);` again"),
                        Kind::Check,
                        "true",
                    ),
                    Field::new("dr-value", "`r1[0] =`", Kind::Number, "11"),
                ],
            ),
            group(
                "uar",
                n!("Use after return"),
                "`stale = pool.Rent(64); pool.Return(stale); fresh = pool.Rent(64);`",
                vec![
                    Field::new("uar-fresh", "`fresh[0] =`", Kind::Number, "200"),
                    Field::new("uar-stale", "`stale[0] =`", Kind::Number, "99"),
                ],
            ),
            group(
                "fr",
                n!("Foreign return"),
                "`mine = new byte[length]; mine[0] = …; pool.Return(mine); got = pool.Rent(mine.Length);`",
                vec![
                    Field::new("fr-length", "`length`", Kind::Number, "128"),
                    Field::new("fr-value", "`mine[0] =`", Kind::Number, "77"),
                ],
            ),
            group(
                "mf",
                n!("The missing `finally`"),
                n!(
                    "The pool starts with its full stock of 128-byte buffers; each round rents 128 bytes and fails."
                ),
                // More rounds than the stock of 33: the forgotten return shows once the stock is gone.
                vec![Field::new("mf-rounds", n!("rounds"), Kind::Number, "100")],
            ),
        ],
    }
}

fn yes_no(b: bool) -> String {
    if b { t!("yes") } else { t!("no") }.into_owned()
}

fn accepted(outcome: &Option<String>, ok: &str) -> String {
    outcome
        .as_ref()
        .map_or(ok.to_string(), |e| tf!("error: {}", e))
}

pub fn view(inputs: &Inputs, env: &Env) -> View {
    let checked = inputs.checked("contract-checked");
    let (dr, announce) = match double(inputs, env, checked) {
        Ok((parts, announce)) => (Slot::ok("dr", parts), announce),
        Err(e) => (Slot::error("dr", e.clone()), sentence(&e)),
    };
    let mut slots = vec![dr];
    slots.push(match uar(inputs, env, checked) {
        Ok(parts) => Slot::ok("uar", parts),
        Err(e) => Slot::error("uar", e),
    });
    slots.push(match foreign(inputs, env, checked) {
        Ok(parts) => Slot::ok("fr", parts),
        Err(e) => Slot::error("fr", e),
    });
    slots.push(match finally(inputs, env) {
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
    let (r, snaps) = double_return_traced(value, twice, checked)
        .map_err(|e| crate::pool_words::pool_error(&e))?;
    let question = if twice {
        t!("After the second `Return(x)`, `r1 = pool.Rent(64); r2 = pool.Rent(64);` — do `r1` and `r2` share one buffer?")
    } else {
        t!("After one `Return(x)`, `r1 = pool.Rent(64); r2 = pool.Rent(64);` — do `r1` and `r2` share one buffer?")
    }
    .into_owned();
    let gate = Gate {
        slot: "dr",
        id: "dr-predict",
        verdict: "dr-verdict",
        question,
        choices: vec![
            ("yes".to_string(), t!("yes, the same buffer").into_owned()),
            ("no".to_string(), t!("no, two buffers").into_owned()),
        ],
        // Checked mode changes the outcome though the question does not name it.
        setting: f!("{twice} {value} {checked}"),
    };
    let grade = |t: &str| {
        let said = match t {
            "yes" => true,
            "no" => false,
            _ => return Err(t!("choose yes or no").into_owned()),
        };
        let held = said == r.same_buffer;
        Ok(Graded {
            held,
            verdict: match (held, r.same_buffer) {
                (true, true) => t!("Your prediction held: `r1` and `r2` are the same buffer."),
                (true, false) => t!("Your prediction held: `r1` and `r2` are two buffers."),
                (false, true) => {
                    t!("Your prediction did not hold: `r1` and `r2` are the same buffer.")
                }
                (false, false) => {
                    t!("Your prediction did not hold: `r1` and `r2` are two buffers.")
                }
            }
            .into_owned(),
            nudge: if !twice {
                t!("One `Return(x)` puts `x` in the pool once, and the first `Rent` takes it: where can the second `Rent`'s buffer come from?")
            } else if checked {
                t!("Checked mode is on: what does this pool do with a second `Return(x)` of a buffer it already holds?")
            } else {
                t!("The .NET pool does not look at what it already holds: after two `Return(x)`, how many times is `x` in the pool, and what do two `Rent` calls take out?")
            }
            .into_owned(),
        })
    };
    let mut parts = match gate.decide(inputs, grade) {
        Gated::Ask(ask, announce) => {
            let mut parts = vec![ask];
            if !env.live {
                parts.push(Part::NoScript(outcome(&r, twice, steps(&snaps), inputs)));
            }
            return Ok((parts, announce));
        }
        Gated::Told(v) => vec![Part::Verdict(v)],
    };
    let out = outcome(&r, twice, steps(&snaps), inputs);
    let announce = match out.first() {
        Some(Part::Steps(s)) => s.announce(),
        _ => String::new(),
    };
    parts.extend(out);
    Ok((parts, announce))
}

/// The story (opening at its start) and what the renters found.
fn outcome(r: &DoubleReturn, twice: bool, steps: Vec<Step>, inputs: &Inputs) -> Vec<Part> {
    vec![
        Part::Steps(Steps::new("dr-steps", "dr", inputs, steps, 0)),
        Part::Pairs(vec![
            pair(
                n!("Second return"),
                "dr-second",
                if twice {
                    accepted(&r.second_return, &t!("accepted, no error"))
                } else {
                    t!("not made").into_owned()
                },
            ),
            pair(
                "`ReferenceEquals(r1, r2)`",
                "dr-same",
                yes_no(r.same_buffer),
            ),
            pair(n!("`r2[0]` reads"), "dr-r2", r.r2_reads.to_string()),
        ]),
    ]
}

/// The double return's steps, the 64-byte bucket drawn after each.
pub fn steps(snaps: &[Snap]) -> Vec<Step> {
    let mut names = Names::default();
    let m = lab_config().arrays_per_partition as u64;
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
                            t!("(returned; the variable still points at it)").into_owned()
                        } else {
                            String::new()
                        },
                    })
                    .collect(),
                dropped: String::new(),
                bytes: Vec::new(),
                hand: None,
            }),
        })
        .collect()
}

fn uar(inputs: &Inputs, env: &Env, checked: bool) -> Result<Vec<Part>, String> {
    let fresh = field_byte("fresh[0]", inputs.get("uar-fresh"))?;
    let stale = field_byte("stale[0]", inputs.get("uar-stale"))?;
    let r =
        use_after_return(fresh, stale, checked).map_err(|e| crate::pool_words::pool_error(&e))?;
    // Whether the write through the returned `stale` landed in `fresh`'s buffer.
    let landed = r.same_buffer && r.stale_write.is_none();
    let (right, wrong) = if landed {
        ("stale", "fresh")
    } else {
        ("fresh", "stale")
    };
    let solution = Solution::choice(right, String::new()).mistake(
        wrong,
        if landed {
            t!("Returning does not take the buffer away from `stale`: which buffer does the next `Rent(64)` hand out?")
        } else {
            t!("Checked mode is on: what does this pool do with a write through a handle already returned?")
        },
    );
    let hold = Hold {
        slot: "uar",
        id: "uar-predict",
        verdict: "uar-verdict",
        question: tf!(
            "After `fresh[0] = {}; stale[0] = {};`, what does `fresh[0]` read?",
            fresh,
            stale
        ),
        choices: vec![
            ("fresh".to_string(), tf!("{}, its own write", fresh)),
            (
                "stale".to_string(),
                tf!("{}, the write through `stale`", stale),
            ),
        ],
        solution,
        found: tf!("`fresh[0]` reads {}", r.fresh_reads),
    };
    let outcome = vec![Part::Pairs(vec![
        pair(
            "`ReferenceEquals(fresh, stale)`",
            "uar-same",
            yes_no(r.same_buffer),
        ),
        pair(
            n!("The stale write"),
            "uar-write",
            accepted(&r.stale_write, &t!("went through, no error")),
        ),
        pair(
            n!("`fresh[0]` reads"),
            "uar-reads",
            r.fresh_reads.to_string(),
        ),
    ])];
    Ok(hold.decide(inputs, env, outcome, String::new()).0)
}

fn foreign(inputs: &Inputs, env: &Env, checked: bool) -> Result<Vec<Part>, String> {
    // The field's name leads every message of the field, this limit's too (found by fuzzing).
    let length = field_size("length", inputs.get("fr-length"))
        .and_then(|n| check_foreign_length(n).map_err(|e| f!("length: {e}")))?;
    let value = field_byte("mine[0]", inputs.get("fr-value"))?;
    let r =
        foreign_return(length, value, checked).map_err(|e| crate::pool_words::pool_error(&e))?;
    // The quiz's hint (`ForeignAccepted`); checked mode is this widget's own setting.
    let solution = Solution::yes_no(
        r.refused.is_none(),
        String::new(),
        if checked {
            t!("Checked mode is on: does this pool know which buffers it handed out?")
        } else {
            t!(
                "The pool cannot know where an array came from: what is the one thing it checks on a return"
            )
        },
    );
    let hold = Hold {
        slot: "fr",
        id: "fr-predict",
        verdict: "fr-verdict",
        question: tf!(
            "`mine` is a `new byte[{}]` that never came from the pool: does `pool.Return(mine)` accept it?",
            group_digits(length as u64)
        ),
        choices: vec![
            ("yes".to_string(), t!("yes").into_owned()),
            ("no".to_string(), t!("no").into_owned()),
        ],
        solution,
        found: if r.refused.is_none() {
            t!("the pool accepted it").into_owned()
        } else {
            t!("the pool refused it").into_owned()
        },
    };
    let outcome = vec![Part::Pairs(vec![
        pair(
            n!("The return"),
            "fr-return",
            accepted(&r.refused, &t!("accepted, no error")),
        ),
        pair(
            "`ReferenceEquals(got, mine)`",
            "fr-same",
            yes_no(r.next_is_mine),
        ),
        pair(
            n!("`got[0]` reads"),
            "fr-reads",
            r.next_reads.map_or_else(
                || t!("nothing (an empty buffer)").into_owned(),
                |x| x.to_string(),
            ),
        ),
    ])];
    Ok(hold.decide(inputs, env, outcome, String::new()).0)
}

fn finally(inputs: &Inputs, env: &Env) -> Result<Vec<Part>, String> {
    let n = rounds_field(inputs.get("mf-rounds"))?;
    let with = forgotten_return(n, true).map_err(|e| crate::pool_words::pool_error(&e))?;
    let without = forgotten_return(n, false).map_err(|e| crate::pool_words::pool_error(&e))?;
    let bytes = |f: &Forgotten| f!("{} B", group_digits(f.new_buffer_bytes));
    let solution = ForgottenReturn
        .solve(&n, &Page::default())
        .unwrap_or_else(|why| Solution::number(without.new_buffers, why));
    let hold = Hold {
        slot: "mf",
        id: "mf-predict",
        verdict: "mf-verdict",
        question: tf!(
            "{} rounds that each rent 128 bytes and fail before their return (no `finally`): how many new buffers does the pool allocate?",
            group_digits(n)
        ),
        choices: Vec::new(),
        solution,
        found: tp!(
            without.new_buffers,
            "the pool allocates {} new buffer",
            "the pool allocates {} new buffers"
        ),
    };
    let outcome = vec![Part::Pairs(vec![
        pair(
            n!("Spare buffers at the start"),
            "mf-stock",
            with.stock.to_string(),
        ),
        pair(
            n!("New buffers, return in `finally`"),
            "mf-with",
            group_digits(with.new_buffers),
        ),
        pair(
            n!("New buffers, return forgotten on the error path"),
            "mf-without",
            group_digits(without.new_buffers),
        ),
        pair(
            n!("Bytes of new buffers, `finally` / forgotten"),
            "mf-bytes",
            f!("{} / {}", bytes(&with), bytes(&without)),
        ),
    ])];
    Ok(hold.decide(inputs, env, outcome, String::new()).0)
}

/// The rounds: a number field whose limit is what this widget runs in the reader's browser.
fn rounds_field(text: &str) -> Result<u64, String> {
    let name = t!("Rounds");
    match parse_number(text) {
        Ok(n) if n > MAX_ROUNDS => {}
        Err(InputError::TooLarge(_)) => {}
        _ => return field_number(&name, text, MAX_ROUNDS),
    }
    Err(tf!(
        "{}: “{}” is more than this widget runs in your browser (at most {})",
        name,
        text.trim().chars().take(40).collect::<String>(),
        group_digits(MAX_ROUNDS)
    ))
}

//! The why-pool widget's view (chapter 1): N rounds with a fresh `Vec` against N rounds of rent +
//! return, counted by the counting allocator.

use crate::chapter::why_pool::scenario::{Counted, LINE_BUFFER, MAX_ROUNDS, check, run};
use crate::input::{field_number, field_size, group_digits};
use crate::view::f;
use crate::view::{Env, Field, Form, Inputs, Kind, Part, Row, Table, View, Widget, cell, or, pair};

pub const WIDGET: Widget = Widget {
    name: "why-pool",
    form,
    view,
};

/// `initial=ROUNDS`.
pub fn form(initial: &str) -> Form {
    Form::single(
        "why",
        vec![
            Field::new(
                "why-rounds",
                "Rounds (order lines)",
                Kind::Number,
                or(initial, "1000"),
            ),
            Field::new(
                "why-size",
                "Buffer size (bytes)",
                Kind::Number,
                LINE_BUFFER.to_string(),
            ),
        ],
        Some("Whole numbers; group digits with commas (1,000,000)."),
    )
}

pub fn view(inputs: &Inputs, env: &Env) -> View {
    View::one("why", result(inputs, env))
}

fn result(inputs: &Inputs, env: &Env) -> Result<(Vec<Part>, String), String> {
    let rounds = field_number("Rounds", inputs.get("why-rounds"), MAX_ROUNDS).map_err(|e| {
        e.replace(
            "is more than this field takes",
            "is more than this widget runs in your browser",
        )
    })?;
    let size = field_size("Buffer size", inputs.get("why-size"))?;
    check(rounds, size)?;
    let r = run(rounds, size).map_err(|e| e.to_string())?;
    let dash = || "—".to_string();
    let count = |c: Option<Counted>| {
        c.map_or((dash(), dash()), |c| {
            (
                group_digits(c.allocations),
                f!("{} B", group_digits(c.bytes)),
            )
        })
    };
    let pooled = match (r.pool_setup, r.first_round, r.later_rounds) {
        (Some(a), Some(b), Some(c)) => Some(Counted {
            allocations: a.allocations + b.allocations + c.allocations,
            bytes: a.bytes + b.bytes + c.bytes,
            measured: true,
        }),
        _ => None,
    };
    let names = [
        ("Fresh `vec![0u8; size]` every round", "fresh"),
        ("Pool: creating it", "setup"),
        ("Pool: round 1 (rent + return)", "first"),
        ("Pool: rounds 2 to N", "later"),
        ("Pool: total", "pool"),
    ];
    let values = [
        count(Some(r.fresh)),
        count(r.pool_setup),
        count(r.first_round),
        count(r.later_rounds),
        count(pooled),
    ];
    let rows = names
        .iter()
        .zip(values)
        .map(|((name, key), (allocs, bytes))| Row {
            cells: vec![
                cell("", name.replace('`', "")),
                cell(f!("why-{key}-allocs"), allocs),
                cell(f!("why-{key}-bytes"), bytes),
            ],
            ..Row::default()
        })
        .collect();
    let break_even = match (rounds, r.break_even()) {
        (0, _) => "no rounds run: nothing to compare".to_string(),
        (_, Some(n)) => f!(
            "{} (first use {} B ÷ {} B per fresh buffer, rounded up)",
            group_digits(n),
            group_digits(r.first_use_bytes().unwrap_or(0)),
            group_digits(r.size)
        ),
        (_, None) if size == 0 => "never (a fresh buffer of 0 bytes costs nothing)".into(),
        (_, None) => "not measured here (no counting allocator)".into(),
    };
    let note = if !r.fresh.measured {
        "Computed when the book was built, without the counting allocator: the fresh loop's numbers are its formula, the pool's are not measured. In your browser the lab counts them."
    } else if env.live {
        "Counted by the lab's counting allocator in this page (requested bytes, as Rust asks for them; the allocator's own headers are not included)."
    } else {
        "Counted by the lab's counting allocator when the book was built (requested bytes; the allocator's own headers are not included). In your browser the lab counts again."
    };
    let announce = f!(
        "{} fresh rounds allocate {}; the pool allocates {} buffer{}.",
        group_digits(rounds),
        values_bytes(&r.fresh),
        group_digits(r.pool_buffers),
        if r.pool_buffers == 1 { "" } else { "s" }
    );
    Ok((
        vec![
            Part::Table(Table {
                id: "why-result",
                head: vec!["", "allocations", "bytes"],
                rows,
            }),
            Part::Pairs(vec![
                pair(
                    "Buffers the pool allocated (its statistics)",
                    "why-pool-buffers",
                    group_digits(r.pool_buffers),
                ),
                pair("Pooling pays off from round", "why-break-even", break_even),
            ]),
            Part::Note {
                id: Some("why-note"),
                text: note.into(),
            },
        ],
        announce,
    ))
}

fn values_bytes(c: &Counted) -> String {
    f!("{} bytes", group_digits(c.bytes))
}

//! The why-pool widget's view (chapter 1): N rounds with a fresh `Vec` against N rounds of rent +
//! return, counted by the counting allocator.

use crate::chapter::why_pool::scenario::{Counted, LINE_BUFFER, MAX_ROUNDS, Rounds, check, run};
use crate::input::{InputError, field_number, field_size, parse_number, shown};
use crate::view::drawing::{Anchor, Drawing, Ink, Shape, dashed, label, line, scale};
use crate::view::{
    Env, Field, Form, Gate, Graded, Inputs, Kind, Part, Row, Table, View, Widget, cell, or, pair,
};
use lab_text::f;
use lab_text::group_digits;
use lab_text::tr::get_dynamic;
use lab_text::{n, t, tf, tp};

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
                n!("Rounds (order lines)"),
                Kind::Number,
                or(initial, "1000"),
            ),
            Field::new(
                "why-size",
                n!("Buffer size (bytes)"),
                Kind::Number,
                LINE_BUFFER.to_string(),
            ),
        ],
        Some(n!("Whole numbers; group digits with commas (1,000,000).")),
    )
}

pub fn view(inputs: &Inputs, env: &Env) -> View {
    View::one("why", result(inputs, env))
}

fn result(inputs: &Inputs, env: &Env) -> Result<(Vec<Part>, String), String> {
    let typed = inputs.get("why-rounds");
    let rounds = match parse_number(typed) {
        Ok(n) if n > MAX_ROUNDS => Err(()),
        Err(InputError::TooLarge(_)) => Err(()),
        _ => Ok(field_number(&t!("Rounds"), typed, MAX_ROUNDS)?),
    }
    .map_err(|()| {
        tf!(
            "Rounds: “{}” is more than this widget runs in your browser (at most {})",
            shown(typed),
            group_digits(MAX_ROUNDS)
        )
    })?;
    let size = field_size(&t!("Buffer size"), inputs.get("why-size"))?;
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
        (n!("Fresh `vec![0u8; size]` every round"), "fresh"),
        (n!("Pool: creating it"), "setup"),
        (n!("Pool: round 1 (rent + return)"), "first"),
        (n!("Pool: rounds 2 to N"), "later"),
        (n!("Pool: total"), "pool"),
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
                cell("", get_dynamic(name).replace('`', "")),
                cell(f!("why-{key}-allocs"), allocs),
                cell(f!("why-{key}-bytes"), bytes),
            ],
            ..Row::default()
        })
        .collect();
    let break_even = match (rounds, r.break_even()) {
        (0, _) => t!("no rounds run: nothing to compare").into_owned(),
        (_, Some(n)) => tf!(
            "{} (first use {} B ÷ {} B per fresh buffer, rounded up)",
            group_digits(n),
            group_digits(r.first_use_bytes().unwrap_or(0)),
            group_digits(r.size)
        ),
        (_, None) if size == 0 => {
            t!("never (a fresh buffer of 0 bytes costs nothing)").into_owned()
        }
        (_, None) => t!("not measured here (no counting allocator)").into_owned(),
    };
    let note = if !r.fresh.measured {
        t!(
            "Computed when the book was built, without the counting allocator: the fresh loop's numbers are its formula, the pool's are not measured. In your browser the lab counts them."
        )
    } else if env.live {
        t!(
            "Counted by the lab's counting allocator in this page (requested bytes, as Rust asks for them; the allocator's own headers are not included). This pool keeps one stack per bucket and, in WebAssembly, 4-byte pointers: the default pool of the text below keeps one stack per core, costs more at first use and pays off later."
        )
    } else {
        t!(
            "Counted by the lab's counting allocator in the native (64-bit) build when the book was built (requested bytes; the allocator's own headers are not included). In your browser the WebAssembly build counts again: its pointers are 4 bytes, so the pool's tables cost fewer bytes and pooling pays off earlier."
        )
    };
    let announce = tf!(
        "{} fresh rounds allocate {}; the pool allocates {}.",
        group_digits(rounds),
        values_bytes(&r.fresh),
        tp!(r.pool_buffers, "{} buffer", "{} buffers")
    );
    let mut parts = Vec::new();
    if let Some(d) = drawing(&r) {
        parts.push(Part::Drawing(d));
    }
    parts.extend([
        Part::Table(Table {
            id: "why-result",
            head: vec!["", n!("allocations"), n!("bytes")],
            rows,
        }),
        Part::Pairs(vec![
            pair(
                n!("Buffers the pool allocated (its statistics)"),
                "why-pool-buffers",
                group_digits(r.pool_buffers),
            ),
            pair(
                n!("Bytes of those buffers (its statistics, not its own bookkeeping)"),
                "why-pool-buffer-bytes",
                group_digits(r.pool_buffer_bytes),
            ),
            pair(
                n!("Pooling pays off from round"),
                "why-break-even",
                break_even,
            ),
        ]),
        Part::Note {
            id: Some("why-note"),
            text: note.into_owned(),
        },
    ]);
    gated(inputs, env, &r, parts, announce)
}

/// The choices of the prediction: which side allocates fewer bytes in all.
const CHOICES: [(&str, &str); 3] = [
    ("fresh", n!("a fresh buffer every round")),
    ("pool", n!("the pool, its first use included")),
    ("same", n!("the same")),
];

/// Before the reader predicts which side allocates less over these rounds, the widget shows the
/// question only (readers without scripts get the outcome too). Without measured counts (no
/// counting allocator) there is nothing to grade and the outcome shows at once.
fn gated(
    inputs: &Inputs,
    env: &Env,
    r: &Rounds,
    outcome: Vec<Part>,
    announce: String,
) -> Result<(Vec<Part>, String), String> {
    let Some(pooled) = r.pooled_bytes() else {
        return Ok((outcome, announce));
    };
    let less = match pooled.cmp(&r.fresh.bytes) {
        std::cmp::Ordering::Less => "pool",
        std::cmp::Ordering::Greater => "fresh",
        std::cmp::Ordering::Equal => "same",
    };
    let rounds = group_digits(r.rounds);
    let gate = Gate {
        slot: "why",
        id: "why-predict",
        verdict: "why-verdict",
        question: tf!(
            "Over {} rounds of a {}-byte buffer, which allocates fewer bytes in all?",
            rounds,
            group_digits(r.size)
        ),
        choices: CHOICES
            .iter()
            .map(|(v, l)| (v.to_string(), get_dynamic(l)))
            .collect(),
        setting: f!("{}/{}", r.rounds, r.size),
    };
    let found = tf!(
        "over {} rounds fresh buffers allocated {} B, the pool {} B with its first use",
        rounds,
        group_digits(r.fresh.bytes),
        group_digits(pooled)
    );
    let grade = |t: &str| {
        let t = t.trim();
        if !CHOICES.iter().any(|(v, _)| *v == t) {
            return Err(t!("pick one of the three answers first").into_owned());
        }
        let held = t == less;
        Ok(Graded {
            held,
            verdict: if held {
                tf!("Your prediction held: {}.", found)
            } else {
                tf!("Your prediction did not hold: {}.", found)
            },
            nudge: tf!(
                "Weigh what the pool pays once, for itself and its first buffer, against {} B that a fresh buffer costs in every one of the {} rounds",
                group_digits(r.size),
                rounds
            ),
        })
    };
    Ok(gate
        .decide(inputs, grade)
        .parts(outcome, announce, env.live))
}

/// The rounds a drawing shows: enough to see the break-even well before the right edge, at
/// least 10, never more than were run.
pub fn window(rounds: u64, break_even: Option<u64>) -> u64 {
    let wanted = break_even.map_or(10, |b| b.saturating_mul(2).max(10));
    wanted.min(rounds)
}

/// Bytes allocated in all after each round, fresh against pooled, over the first rounds: the
/// pool's line jumps at round 1 (its first use) and then stays flat, the fresh line climbs by one
/// buffer a round, and they cross at the break-even round. `None` without measured counts.
pub fn drawing(r: &Rounds) -> Option<Drawing> {
    let (setup, first, later) = (r.pool_setup?, r.first_round?, r.later_rounds?);
    let n = window(r.rounds, r.break_even());
    if n == 0 {
        return None;
    }
    let fresh_at = |k: u64| (r.fresh.bytes as u128 * k as u128 / r.rounds as u128) as u64;
    let later_at = |k: u64| match r.rounds {
        0 | 1 => 0,
        all => (later.bytes as u128 * (k - 1) as u128 / (all - 1) as u128) as u64,
    };
    let pool_at = |k: u64| {
        if k == 0 {
            0
        } else {
            setup.bytes + first.bytes + later_at(k)
        }
    };
    let top = fresh_at(n).max(pool_at(n)).max(1);
    let (x0, x1, y0, y1) = (64, 388, 22, 150);
    let x = |k: u64| scale(k, n, x0, x1);
    let y = |b: u64| scale(b, top, y1, y0);
    let stairs = |at: &dyn Fn(u64) -> u64| -> Vec<(u32, u32)> {
        // A step per round: the bytes arrive with the round.
        let mut pts = vec![(x(0), y(0))];
        for k in 1..=n {
            pts.push((x(k - 1), y(at(k))));
            pts.push((x(k), y(at(k))));
        }
        pts
    };
    let mut shapes = vec![
        line((x0, y1), (x1, y1), Ink::Axis),
        line((x0, y0), (x0, y1), Ink::Axis),
        label((x0 - 6, y0 + 4), f!("{} B", group_digits(top)), Anchor::End),
        label((x0 - 6, y1 + 4), "0", Anchor::End),
        label((x0, y1 + 18), tf!("round {}", 0), Anchor::Start),
        label((x1, y1 + 18), tf!("round {}", group_digits(n)), Anchor::End),
        label(
            ((x0 + x1) / 2, y1 + 36),
            t!("bytes allocated in all, after each round"),
            Anchor::Middle,
        ),
    ];
    if let Some(b) = r.break_even().filter(|&b| b <= n) {
        shapes.push(dashed((x(b), y0), (x(b), y1), Ink::Mark));
        // Beside the dashed line, just above the axis: the fresh line is there only left of it.
        shapes.push(label(
            (x(b) + 4, y1 - 6),
            tf!("pays off: round {}", group_digits(b)),
            Anchor::Start,
        ));
    }
    shapes.push(Shape::Path {
        points: stairs(&fresh_at),
        ink: Ink::Fresh,
        id: Some("why-draw-fresh"),
    });
    shapes.push(Shape::Path {
        points: stairs(&pool_at),
        ink: Ink::Pool,
        id: Some("why-draw-pool"),
    });
    // The legend under the axis, one line each, so no label ever sits on a line.
    for (i, (ink, text)) in [
        (Ink::Fresh, t!("a fresh Vec every round")),
        (Ink::Pool, t!("the pool: first use, then reuse")),
    ]
    .into_iter()
    .enumerate()
    {
        let y = y1 + 58 + 18 * i as u32;
        shapes.push(Shape::Line {
            from: (x0, y - 4),
            to: (x0 + 22, y - 4),
            ink,
            dashed: false,
        });
        shapes.push(Shape::Label {
            at: (x0 + 30, y),
            text: text.into_owned(),
            ink,
            anchor: Anchor::Start,
        });
    }
    Some(Drawing {
        id: "why-drawing",
        title: match r.break_even() {
            Some(b) => tf!(
                "Bytes allocated in all over the first {} rounds: a fresh buffer adds {} B every round; the pool pays {} B in round 1 and {} B after; fresh has cost as much by round {}.",
                group_digits(n),
                group_digits(r.size),
                group_digits(setup.bytes + first.bytes),
                group_digits(later_at(n)),
                group_digits(b)
            ),
            None => tf!(
                "Bytes allocated in all over the first {} rounds: a fresh buffer adds {} B every round; the pool pays {} B in round 1 and {} B after.",
                group_digits(n),
                group_digits(r.size),
                group_digits(setup.bytes + first.bytes),
                group_digits(later_at(n))
            ),
        },
        width: 400,
        height: 232,
        shapes,
    })
}

fn values_bytes(c: &Counted) -> String {
    tf!("{} bytes", group_digits(c.bytes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::drawing::svg;

    fn counted(allocations: u64, bytes: u64) -> Option<Counted> {
        Some(Counted {
            allocations,
            bytes,
            measured: true,
        })
    }

    /// 1,000 rounds of 128 B against a first use of 4,124 B: the pool pays off from round 33, so
    /// the drawing shows 66 rounds, the fresh line ends on top and the pool's stays flat.
    #[test]
    fn the_drawing_shows_the_break_even() {
        let r = Rounds {
            rounds: 1_000,
            size: 128,
            fresh: counted(1_000, 128_000).unwrap(),
            pool_setup: counted(32, 3_556),
            first_round: counted(2, 568),
            later_rounds: counted(0, 0),
            pool_buffers: 1,
            pool_buffer_bytes: 128,
        };
        assert_eq!(r.break_even(), Some(33));
        assert_eq!(window(r.rounds, r.break_even()), 66);
        let d = drawing(&r).unwrap();
        assert!(d.title.contains("first 66 rounds"), "{}", d.title);
        assert!(d.title.contains("by round 33"), "{}", d.title);
        let path = |id: &str| {
            d.shapes
                .iter()
                .find_map(|s| match s {
                    Shape::Path {
                        points,
                        id: Some(i),
                        ..
                    } if *i == id => Some(points.clone()),
                    _ => None,
                })
                .unwrap()
        };
        let (fresh, pool) = (path("why-draw-fresh"), path("why-draw-pool"));
        // Fresh ends at the top of the plot; the pool is flat from round 1 on.
        assert_eq!(fresh.last().unwrap().1, 22);
        assert!(pool[1..].windows(2).all(|w| w[0].1 == w[1].1), "{pool:?}");
        assert!(svg(&d).contains("pays off: round 33"));
        // Without measured counts (no counting allocator) there is nothing to draw.
        assert!(
            drawing(&Rounds {
                pool_setup: None,
                ..r
            })
            .is_none()
        );
    }

    #[test]
    fn the_window_is_at_least_ten_rounds_and_never_more_than_ran() {
        assert_eq!(window(1_000_000, Some(6)), 12);
        assert_eq!(window(1_000_000, Some(2)), 10);
        assert_eq!(window(3, Some(6)), 3);
        assert_eq!(window(50, None), 10);
        assert_eq!(window(0, Some(1)), 0);
    }
}

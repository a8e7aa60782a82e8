//! The large-allocation cliff's view (chapter 6): a request → .NET's LOH, the pool's bucket,
//! glibc's chunk and mmap threshold, and what this page's own wasm memory does.

use crate::chapter::cliff::scenario::{
    Cliff, Elem, GLIBC_MMAP_THRESHOLD, Served, cliff, dotnet_object_bytes,
};
use crate::input::field_size;
use crate::quiz::Solution;
use crate::view::drawing::{Anchor, Drawing, Ink, Shape, dashed, label, line, log2_16ths, scale};
use crate::view::{
    Env, Field, Form, Hold, Inputs, Kind, Part, View, Widget, initial_parts, or, pair,
};
use course_pool::chunk::dotnet::DOTNET_LOH_THRESHOLD_BYTES;
use lab_text::{f, group_digits, n, t, tf};

/// Largest allocation the widget tries in the page itself.
pub const MAX_TRY_BYTES: u64 = 64 << 20;
/// Bytes in one wasm page.
pub const WASM_PAGE: u64 = 65_536;

pub const WIDGET: Widget = Widget {
    name: "cliff",
    form,
    view,
};

const ELEMS: &[(&str, &str)] = &[
    ("byte", n!("byte / u8 (1 B)")),
    ("int", n!("int / i32 (4 B)")),
    ("reference", n!("reference / long / u64 (8 B)")),
];

/// `initial=N` or `initial=N/int`.
pub fn form(initial: &str) -> Form {
    let v = initial_parts(initial, 2);
    Form::single(
        "cliff",
        vec![
            Field::new(
                "cliff-input",
                n!("Request (elements)"),
                Kind::Number,
                or(&v[0], "81920"),
            )
            .on_commit(),
            Field::new(
                "cliff-elem",
                n!("Element"),
                Kind::Select(ELEMS),
                or(&v[1], "byte"),
            ),
        ],
        Some(n!(
            "One whole number; group digits with commas (1,048,576). Runs on Enter, on leaving the field, or with Run: each run allocates in this page."
        )),
    )
}

pub fn view(inputs: &Inputs, env: &Env) -> View {
    View::one("cliff", result(inputs, env))
}

fn result(inputs: &Inputs, env: &Env) -> Result<(Vec<Part>, String), String> {
    let yes_no = |b: bool| if b { t!("yes") } else { t!("no") };
    let elem = Elem::from_key(inputs.get("cliff-elem")).unwrap_or(Elem::Byte);
    let n = field_size(&t!("Request"), inputs.get("cliff-input"))?;
    let c = cliff(n, elem);
    let pool_bucket = match (c.pool_index, c.pool_length) {
        (Some(i), Some(l)) => f!("{i}, {}", group_digits(l)),
        (None, Some(l)) => tf!("none: exact {} (not pooled)", group_digits(l)),
        _ => t!("none: the empty array").into_owned(),
    };
    let pool_loh = if c.pool_pushes_into_loh {
        t!("yes — pushed there by the rounding").into_owned()
    } else {
        yes_no(c.pool_in_loh).into_owned()
    };
    let glibc_mmap = if c.glibc_at_threshold {
        tf!(
            "yes (≥ {}): mmap unless the heap can serve it",
            group_digits(GLIBC_MMAP_THRESHOLD)
        )
    } else {
        tf!(
            "no (< {}): served from the heap",
            group_digits(GLIBC_MMAP_THRESHOLD)
        )
    };
    let chunk = match c.glibc_served {
        Served::Heap { chunk } => group_digits(chunk),
        Served::Mapped { chunk } => tf!(
            "{} when mapped (whole pages); {} if the heap serves it",
            group_digits(chunk),
            group_digits(c.glibc_chunk)
        ),
    };
    let after = match c.glibc_threshold_after_free {
        Some(t) => tf!("raised to {}", group_digits(t)),
        None => t!("unchanged").into_owned(),
    };
    let rust_pool = match c.rust_pool_bytes {
        Some(b) if c.rust_pool_at_threshold => tf!("{} bytes: mmap side", group_digits(b)),
        Some(b) => tf!("{} bytes: heap side", group_digits(b)),
        None => "—".to_string(),
    };
    let pages = match env.wasm_pages {
        Some(probe) if c.rust_bytes <= MAX_TRY_BYTES => probe(c.rust_bytes),
        _ => None,
    };
    let wasm = match env.wasm_pages {
        None => t!("measured only in your browser").into_owned(),
        Some(_) if c.rust_bytes > MAX_TRY_BYTES => {
            tf!("not tried (over {} bytes)", group_digits(MAX_TRY_BYTES))
        }
        Some(_) => match pages {
            Some((a, b, d)) => tf!(
                "{} → {} → {} pages of 64 KiB ({} → {} → {} bytes)",
                a,
                b,
                d,
                group_digits(a as u64 * WASM_PAGE),
                group_digits(b as u64 * WASM_PAGE),
                group_digits(d as u64 * WASM_PAGE)
            ),
            None => t!("not tried (the allocator refused)").into_owned(),
        },
    };
    let why = if c.pool_pushes_into_loh {
        tf!(
            "new {}[{}] is {} bytes and stays in gen 0, but the pool allocates a {}-element array: {} bytes with the header, in the LOH.",
            elem.key(),
            group_digits(n),
            group_digits(c.dotnet_bytes),
            group_digits(c.pool_length.unwrap_or(0)),
            group_digits(dotnet_object_bytes(c.pool_length.unwrap_or(0), elem.size()))
        )
    } else {
        tf!(
            ".NET counts the 24-byte header: {} + 24 = {} bytes against the 85,000-byte threshold. glibc adds its 8-byte size word and rounds to 16.",
            group_digits(c.rust_bytes),
            group_digits(c.dotnet_bytes)
        )
    };
    let (key, length, bytes) = (elem.key(), group_digits(n), group_digits(c.dotnet_bytes));
    // The pool's array is never shorter than the request: where `new` is in the LOH, so is it.
    let announce = if c.dotnet_new_in_loh {
        tf!(
            "new {}[{}]: {} bytes, in the large-object heap; the pool's array is in it.",
            key,
            length,
            bytes
        )
    } else if c.pool_in_loh {
        tf!(
            "new {}[{}]: {} bytes, not in the large-object heap; the pool's array is in it.",
            key,
            length,
            bytes
        )
    } else {
        tf!(
            "new {}[{}]: {} bytes, not in the large-object heap; the pool's array is not.",
            key,
            length,
            bytes
        )
    };
    let outcome = vec![
            Part::Drawing(drawing(&c, pages)),
            Part::Pairs(vec![
                pair(n!(".NET: `new T[n]`, header included"), "cliff-dotnet-bytes", group_digits(c.dotnet_bytes)),
                pair(n!(".NET: in the large-object heap?"), "cliff-dotnet-loh", yes_no(c.dotnet_new_in_loh)),
                pair(n!(".NET: first length in the LOH for this type"), "cliff-first-loh", group_digits(c.first_loh_length)),
                pair(n!("Pool: bucket (index, length)"), "cliff-pool-bucket", pool_bucket),
                pair(n!("Pool: its array in the LOH?"), "cliff-pool-loh", pool_loh),
                pair(n!("Rust: bytes a `Vec` asks for"), "cliff-rust-bytes", group_digits(c.rust_bytes)),
                pair(n!("glibc: chunk size"), "cliff-glibc-chunk", chunk),
                pair(n!("glibc: at or over the default mmap threshold?"), "cliff-glibc-mmap", glibc_mmap),
                pair(n!("glibc: threshold after freeing that block"), "cliff-glibc-after", after),
                pair(n!("glibc: the Rust pool's bucket buffer"), "cliff-rust-pool", rust_pool),
                pair(
                    n!("This page (wasm): linear memory before → holding it → after free"),
                    "cliff-wasm",
                    wasm,
                ),
            ]),
            Part::Note {
                id: Some("cliff-why"),
                text: why,
            },
            Part::Note {
                id: Some("cliff-wasm-note"),
                text: t!("Linear memory only grows and is never given back: the wasm line depends on everything this page allocated before, earlier requests included. Reload the page for a fresh start.").into_owned(),
            },
        ];
    Ok(hold(&c, n, elem).decide(inputs, env, outcome, announce))
}

/// The question every line waits for: is the array the pool allocates for this request in the
/// large-object heap? Graded with the quiz's hint ([`PoolInLoh`](crate::chapter::cliff::quiz::PoolInLoh)).
fn hold(c: &Cliff, n: u64, elem: Elem) -> Hold {
    let solution = Solution::yes_no(
        c.pool_in_loh,
        String::new(),
        t!(
            "The pool does not allocate your request: round it up to its bucket first, then add the header"
        ),
    );
    let found = match (c.pool_in_loh, c.pool_length) {
        (true, Some(l)) => tf!(
            "the pool allocates {}[{}] for it, in the large-object heap",
            elem.key(),
            group_digits(l)
        ),
        (false, Some(l)) => tf!(
            "the pool allocates {}[{}] for it, not in the large-object heap",
            elem.key(),
            group_digits(l)
        ),
        (_, None) => t!("the pool allocates no array for it").into_owned(),
    };
    Hold {
        slot: "cliff",
        id: "cliff-predict",
        verdict: "cliff-verdict",
        question: tf!(
            "`ArrayPool<{}>.Shared.Rent({})` on a pool with nothing to hand out: is the array it allocates in the large-object heap?",
            elem.key(),
            group_digits(n)
        ),
        choices: vec![
            ("yes".to_string(), t!("yes").into_owned()),
            ("no".to_string(), t!("no").into_owned()),
        ],
        solution,
        found,
    }
}

/// The drawing's size axis: 1 KiB to 64 MiB, doubling at equal steps.
const AXIS: (u32, u32) = (10, 26);
const X0: u32 = 118;
const X1: u32 = 390;

/// Where `bytes` sits on the size axis (clamped to its ends).
fn x_of(bytes: u64) -> u32 {
    let sixteenths = log2_16ths(bytes).clamp(AXIS.0 * 16, AXIS.1 * 16) - AXIS.0 * 16;
    scale(sixteenths as u64, ((AXIS.1 - AXIS.0) * 16) as u64, X0, X1)
}

/// A lane: `name` at the left, then the small side up to `border` and the large side after it.
fn lane(shapes: &mut Vec<Shape>, y: u32, name: &str, border: u64, small: &str, large: &str) {
    let xb = x_of(border);
    shapes.push(label((X0 - 8, y + 13), name, Anchor::End));
    shapes.push(Shape::Rect {
        x: X0,
        y,
        w: xb - X0,
        h: 18,
        ink: Ink::Pool,
        id: None,
    });
    shapes.push(Shape::Rect {
        x: xb,
        y,
        w: X1 - xb,
        h: 18,
        ink: Ink::Fresh,
        id: None,
    });
    shapes.push(label((X0 + 4, y + 13), small, Anchor::Start));
    shapes.push(label((X1 - 4, y + 13), large, Anchor::End));
}

/// The request against the borders it meets: .NET's 85,000-byte LOH border, glibc's mmap
/// threshold before and after the block is freed (it rises to the block's size), and, measured
/// in this page, wasm's linear memory before, while holding and after freeing it, which only grows.
pub fn drawing(c: &Cliff, pages: Option<(usize, usize, usize)>) -> Drawing {
    let mut shapes = Vec::new();
    lane(
        &mut shapes,
        26,
        ".NET",
        DOTNET_LOH_THRESHOLD_BYTES,
        "gen 0",
        "LOH",
    );
    lane(
        &mut shapes,
        52,
        "glibc",
        GLIBC_MMAP_THRESHOLD,
        &t!("heap"),
        "mmap",
    );
    let after = c.glibc_threshold_after_free.unwrap_or(GLIBC_MMAP_THRESHOLD);
    let heap_after = match c.glibc_threshold_after_free {
        Some(t) => tf!("heap, up to {} B", group_digits(t)),
        None => t!("heap").into_owned(),
    };
    lane(
        &mut shapes,
        78,
        &t!("after a free"),
        after,
        &heap_after,
        "mmap",
    );
    if let Some(t) = c.glibc_threshold_after_free {
        let (from, to) = (x_of(GLIBC_MMAP_THRESHOLD), x_of(t));
        shapes.push(dashed((from, 74), (to, 74), Ink::Mark));
        shapes.push(Shape::Rect {
            x: to.saturating_sub(2),
            y: 71,
            w: 4,
            h: 6,
            ink: Ink::Mark,
            id: Some("cliff-draw-raised"),
        });
    }
    // The axis.
    let axis_y = 108;
    shapes.push(line((X0, axis_y), (X1, axis_y), Ink::Axis));
    for (power, name) in [(10, "1 KiB"), (15, "32 KiB"), (20, "1 MiB"), (25, "32 MiB")] {
        let x = x_of(1u64 << power);
        shapes.push(line((x, axis_y), (x, axis_y + 4), Ink::Axis));
        let anchor = match power {
            10 => Anchor::Start,
            _ => Anchor::Middle,
        };
        shapes.push(label((x, axis_y + 17), name, anchor));
    }
    // The request, in .NET's bytes on the .NET lane and Rust's on glibc's.
    let (xd, xr) = (x_of(c.dotnet_bytes), x_of(c.rust_bytes));
    shapes.push(line((xd, 22), (xd, 48), Ink::Mark));
    shapes.push(line((xr, 48), (xr, axis_y), Ink::Mark));
    let anchor = if xr > (X0 + X1) / 2 {
        Anchor::End
    } else {
        Anchor::Start
    };
    shapes.push(Shape::Label {
        at: (xd, 16),
        text: tf!("your request: {} B", group_digits(c.rust_bytes)),
        ink: Ink::Mark,
        anchor,
    });
    let mut height = axis_y + 26;
    if let Some((before, holding, after)) = pages {
        let top = before.max(holding).max(after).max(1) as u64;
        shapes.push(label((X0 - 8, height + 10), t!("wasm memory"), Anchor::End));
        for (i, (name, p)) in [
            (t!("before"), before),
            (t!("holding it"), holding),
            (t!("after free"), after),
        ]
        .into_iter()
        .enumerate()
        {
            let y = height + i as u32 * 16;
            let w = scale(p as u64, top, 0, X1 - X0 - 152).max(1);
            shapes.push(Shape::Rect {
                x: X0,
                y,
                w,
                h: 11,
                ink: Ink::Pool,
                id: None,
            });
            shapes.push(label(
                (X0 + w + 6, y + 10),
                tf!("{}: {} pages", name, group_digits(p as u64)),
                Anchor::Start,
            ));
        }
        height += 3 * 16 + 4;
    }
    let axis = if c.dotnet_new_in_loh {
        tf!(
            "{} B on a size axis from 1 KiB to 64 MiB: in .NET's large-object heap (85,000 B with the header)",
            group_digits(c.rust_bytes)
        )
    } else {
        tf!(
            "{} B on a size axis from 1 KiB to 64 MiB: below .NET's large-object heap (85,000 B with the header)",
            group_digits(c.rust_bytes)
        )
    };
    let glibc = if c.glibc_at_threshold {
        t!("glibc maps it")
    } else {
        t!("glibc serves it from the heap")
    };
    let freeing = match c.glibc_threshold_after_free {
        Some(t) => tf!(
            "freeing it raises glibc's threshold to {} B",
            group_digits(t)
        ),
        None => t!("freeing it leaves glibc's threshold where it was").into_owned(),
    };
    Drawing {
        id: "cliff-drawing",
        // Clauses joined by `; `, each one message.
        title: match pages {
            Some((a, b, d)) => f!(
                "{axis}; {glibc}; {freeing}; {}",
                tf!(
                    "this page's linear memory went {} → {} → {} pages and never shrinks.",
                    a,
                    b,
                    d
                )
            ),
            None => f!("{axis}; {glibc}; {freeing}."),
        },
        width: 400,
        height,
        shapes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::drawing::svg;

    #[test]
    fn the_axis_doubles_at_equal_steps() {
        assert_eq!(x_of(0), X0);
        assert_eq!(x_of(1024), X0);
        assert_eq!(x_of(64 << 20), X1);
        assert_eq!(x_of(u64::MAX), X1);
        let step = x_of(4096) - x_of(2048);
        assert_eq!(x_of(8192) - x_of(4096), step);
        assert!(
            (1024..1 << 26)
                .step_by(997)
                .all(|b| x_of(b) <= x_of(b + 997))
        );
    }

    #[test]
    fn the_drawing_follows_the_request() {
        let over = drawing(&cliff(200_000, Elem::Byte), None);
        let raised = |d: &Drawing| svg(d).contains("cliff-draw-raised");
        assert!(raised(&over), "{}", over.title);
        assert!(
            over.title.contains("raises glibc's threshold"),
            "{}",
            over.title
        );
        let under = drawing(&cliff(1_000, Elem::Byte), None);
        assert!(
            !raised(&under) && under.title.contains("below .NET's"),
            "{}",
            under.title
        );
        assert!(!svg(&under).contains("holding it:"));
        let live = drawing(&cliff(1_000, Elem::Byte), Some((20, 20, 20)));
        assert!(svg(&live).contains("holding it: 20 pages"));
        assert!(live.height > under.height);
    }
}

//! The large-allocation cliff's view (chapter 6): a request → .NET's LOH, the pool's bucket,
//! glibc's chunk and mmap threshold, and what this page's own wasm memory does.

use crate::chapter::cliff::scenario::{Elem, GLIBC_MMAP_THRESHOLD, cliff, dotnet_object_bytes};
use crate::input::{field_size, group_digits};
use crate::view::f;
use crate::view::{Env, Field, Form, Inputs, Kind, Part, View, Widget, initial_parts, or, pair};

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
    ("byte", "byte / u8 (1 B)"),
    ("int", "int / i32 (4 B)"),
    ("reference", "reference / long / u64 (8 B)"),
];

/// `initial=N` or `initial=N/int`.
pub fn form(initial: &str) -> Form {
    let v = initial_parts(initial, 2);
    Form::single(
        "cliff",
        vec![
            Field::new(
                "cliff-input",
                "Request (elements)",
                Kind::Number,
                or(&v[0], "81920"),
            ),
            Field::new(
                "cliff-elem",
                "Element",
                Kind::Select(ELEMS),
                or(&v[1], "byte"),
            ),
        ],
        Some("One whole number; group digits with commas (1,048,576)."),
    )
}

pub fn view(inputs: &Inputs, env: &Env) -> View {
    View::one("cliff", result(inputs, env))
}

fn result(inputs: &Inputs, env: &Env) -> Result<(Vec<Part>, String), String> {
    let yes_no = |b: bool| if b { "yes" } else { "no" };
    let elem = Elem::from_key(inputs.get("cliff-elem")).unwrap_or(Elem::Byte);
    let n = field_size("Request", inputs.get("cliff-input"))?;
    let c = cliff(n, elem);
    let pool_bucket = match (c.pool_index, c.pool_length) {
        (Some(i), Some(l)) => f!("{i}, {}", group_digits(l)),
        (None, Some(l)) => f!("none: exact {} (not pooled)", group_digits(l)),
        _ => "none: the empty array".to_string(),
    };
    let pool_loh = if c.pool_pushes_into_loh {
        "yes — pushed there by the rounding".to_string()
    } else {
        yes_no(c.pool_in_loh).to_string()
    };
    let glibc_mmap = if c.glibc_at_threshold {
        f!(
            "yes (≥ {}): mmap unless the heap can serve it",
            group_digits(GLIBC_MMAP_THRESHOLD)
        )
    } else {
        f!(
            "no (< {}): served from the heap",
            group_digits(GLIBC_MMAP_THRESHOLD)
        )
    };
    let after = match c.glibc_threshold_after_free {
        Some(t) => f!("raised to {}", group_digits(t)),
        None => "unchanged".to_string(),
    };
    let rust_pool = match c.rust_pool_bytes {
        Some(b) => f!(
            "{} bytes: {}",
            group_digits(b),
            if c.rust_pool_at_threshold {
                "mmap side"
            } else {
                "heap side"
            }
        ),
        None => "—".to_string(),
    };
    let wasm = match env.wasm_pages {
        None => "measured only in your browser".to_string(),
        Some(_) if c.rust_bytes > MAX_TRY_BYTES => {
            f!("not tried (over {} bytes)", group_digits(MAX_TRY_BYTES))
        }
        Some(probe) => match probe(c.rust_bytes) {
            Some((a, b, d)) => f!(
                "{a} → {b} → {d} pages of 64 KiB ({} → {} → {} bytes)",
                group_digits(a as u64 * WASM_PAGE),
                group_digits(b as u64 * WASM_PAGE),
                group_digits(d as u64 * WASM_PAGE)
            ),
            None => "not tried (the allocator refused)".to_string(),
        },
    };
    let why = if c.pool_pushes_into_loh {
        f!(
            "new {}[{}] is {} bytes and stays in gen 0, but the pool allocates a {}-element array: {} bytes with the header, in the LOH.",
            elem.key(),
            group_digits(n),
            group_digits(c.dotnet_bytes),
            group_digits(c.pool_length.unwrap_or(0)),
            group_digits(dotnet_object_bytes(c.pool_length.unwrap_or(0), elem.size()))
        )
    } else {
        f!(
            ".NET counts the 24-byte header: {} + 24 = {} bytes against the 85,000-byte threshold. glibc adds its 8-byte size word and rounds to 16.",
            group_digits(c.rust_bytes),
            group_digits(c.dotnet_bytes)
        )
    };
    let announce = f!(
        "new {}[{}]: {} bytes, {} the large-object heap; the pool's array {}.",
        elem.key(),
        group_digits(n),
        group_digits(c.dotnet_bytes),
        if c.dotnet_new_in_loh { "in" } else { "not in" },
        if c.pool_in_loh { "is in it" } else { "is not" }
    );
    Ok((
        vec![
            Part::Pairs(vec![
                pair(".NET: `new T[n]`, header included", "cliff-dotnet-bytes", group_digits(c.dotnet_bytes)),
                pair(".NET: in the large-object heap?", "cliff-dotnet-loh", yes_no(c.dotnet_new_in_loh)),
                pair(".NET: first length in the LOH for this type", "cliff-first-loh", group_digits(c.first_loh_length)),
                pair("Pool: bucket (index, length)", "cliff-pool-bucket", pool_bucket),
                pair("Pool: its array in the LOH?", "cliff-pool-loh", pool_loh),
                pair("Rust: bytes a `Vec` asks for", "cliff-rust-bytes", group_digits(c.rust_bytes)),
                pair("glibc: chunk size", "cliff-glibc-chunk", group_digits(c.glibc_chunk)),
                pair("glibc: at or over the default mmap threshold?", "cliff-glibc-mmap", glibc_mmap),
                pair("glibc: threshold after freeing that block", "cliff-glibc-after", after),
                pair("glibc: the Rust pool's bucket buffer", "cliff-rust-pool", rust_pool),
                pair(
                    "This page (wasm): linear memory before → holding it → after free",
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
                text: "Linear memory only grows and is never given back: the wasm line depends on everything this page allocated before, earlier requests included. Reload the page for a fresh start.".into(),
            },
        ],
        announce,
    ))
}

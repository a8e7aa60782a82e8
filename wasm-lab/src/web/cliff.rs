//! The large-allocation cliff widget (chapter 6): a request → .NET's LOH, the pool's bucket,
//! glibc's chunk and mmap threshold, and what this page's own wasm memory does.

use web_sys::Element;

use super::dom;
use super::fields::{self, yes_no};
use crate::input::group_digits;
use crate::scenario::cliff::{Elem, GLIBC_MMAP_THRESHOLD, cliff};

/// Largest allocation the widget tries in the page itself.
pub const MAX_TRY_BYTES: u64 = 64 << 20;
/// Bytes in one wasm page.
pub const WASM_PAGE: u64 = 65_536;

const TEMPLATE: &str = r#"
<div class="lab-fields">
  <label class="lab-field">Request (elements) <input type="text" inputmode="numeric" autocomplete="off" spellcheck="false" data-testid="cliff-input"></label>
  <label class="lab-field">Element <select data-testid="cliff-elem">
    <option value="byte">byte / u8 (1 B)</option>
    <option value="int">int / i32 (4 B)</option>
    <option value="reference">reference / long / u64 (8 B)</option>
  </select></label>
</div>
<dl class="lab-calc-result">
  <dt>.NET: new T[n], header included</dt><dd data-testid="cliff-dotnet-bytes"></dd>
  <dt>.NET: in the large-object heap?</dt><dd data-testid="cliff-dotnet-loh"></dd>
  <dt>.NET: first length in the LOH for this type</dt><dd data-testid="cliff-first-loh"></dd>
  <dt>Pool: bucket (index, length)</dt><dd data-testid="cliff-pool-bucket"></dd>
  <dt>Pool: its array in the LOH?</dt><dd data-testid="cliff-pool-loh"></dd>
  <dt>Rust: bytes a Vec asks for</dt><dd data-testid="cliff-rust-bytes"></dd>
  <dt>glibc: chunk size</dt><dd data-testid="cliff-glibc-chunk"></dd>
  <dt>glibc: at or over the default mmap threshold?</dt><dd data-testid="cliff-glibc-mmap"></dd>
  <dt>glibc: threshold after freeing that block</dt><dd data-testid="cliff-glibc-after"></dd>
  <dt>glibc: the Rust pool's bucket buffer</dt><dd data-testid="cliff-rust-pool"></dd>
  <dt>This page (wasm): linear memory before → holding it → after free</dt><dd data-testid="cliff-wasm"></dd>
</dl>
<p class="lab-why" data-testid="cliff-why"></p>
<p class="lab-error" role="alert" data-testid="cliff-error" hidden></p>
"#;

const OUTPUTS: [&str; 11] = [
    "cliff-dotnet-bytes",
    "cliff-dotnet-loh",
    "cliff-first-loh",
    "cliff-pool-bucket",
    "cliff-pool-loh",
    "cliff-rust-bytes",
    "cliff-glibc-chunk",
    "cliff-glibc-mmap",
    "cliff-glibc-after",
    "cliff-rust-pool",
    "cliff-wasm",
];

pub fn mount(root: &Element) -> Result<(), String> {
    // `initial=N` or `initial=N/int`.
    let initial = root
        .get_attribute("data-initial")
        .unwrap_or_else(|| "81920".into());
    let (n, elem) = initial.split_once('/').unwrap_or((&initial, "byte"));
    root.set_inner_html(TEMPLATE);
    dom::input(root, "cliff-input")?.set_value(n.trim());
    fields::select(root, "cliff-elem", elem.trim())?;
    fields::live(root, render)
}

/// Linear memory in pages: before, while holding `bytes`, after freeing them (`None` when not
/// tried, or when the allocator refused).
fn wasm_pages(bytes: u64) -> Option<(usize, usize, usize)> {
    use core::arch::wasm32::memory_size;
    if bytes > MAX_TRY_BYTES {
        return None;
    }
    let before = memory_size(0);
    let mut block: Vec<u8> = Vec::new();
    block.try_reserve_exact(bytes as usize).ok()?;
    std::hint::black_box(&mut block);
    let during = memory_size(0);
    drop(block);
    Some((before, during, memory_size(0)))
}

fn render(root: &Element) -> Result<(), String> {
    let elem = Elem::from_key(&fields::selected(root, "cliff-elem")?).unwrap_or(Elem::Byte);
    let n = match fields::number(root, "cliff-input", "Request")? {
        Ok(n) => n,
        Err(e) => {
            fields::error(root, "cliff-error", Some(&e))?;
            for id in OUTPUTS {
                dom::set_text(root, id, "—")?;
            }
            return dom::set_text(root, "cliff-why", "");
        }
    };
    fields::error(root, "cliff-error", None)?;
    let c = cliff(n, elem);
    let pool_bucket = match (c.pool_index, c.pool_length) {
        (Some(i), Some(l)) => format!("{i}, {}", group_digits(l)),
        (None, Some(l)) => format!("none: exact {} (not pooled)", group_digits(l)),
        _ => "none: the empty array".to_string(),
    };
    let pool_loh = if c.pool_pushes_into_loh {
        "yes — pushed there by the rounding".to_string()
    } else {
        yes_no(c.pool_in_loh).to_string()
    };
    let glibc_mmap = if c.glibc_at_threshold {
        format!(
            "yes (≥ {}): mmap unless the heap can serve it",
            group_digits(GLIBC_MMAP_THRESHOLD)
        )
    } else {
        format!(
            "no (< {}): served from the heap",
            group_digits(GLIBC_MMAP_THRESHOLD)
        )
    };
    let after = match c.glibc_threshold_after_free {
        Some(t) => format!("raised to {}", group_digits(t)),
        None => "unchanged".to_string(),
    };
    let rust_pool = match c.rust_pool_bytes {
        Some(b) => format!(
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
    let wasm = match wasm_pages(c.rust_bytes) {
        Some((a, b, d)) => format!(
            "{a} → {b} → {d} pages of 64 KiB ({} → {} → {} bytes)",
            group_digits(a as u64 * WASM_PAGE),
            group_digits(b as u64 * WASM_PAGE),
            group_digits(d as u64 * WASM_PAGE)
        ),
        None => format!(
            "not tried (over {} bytes, or refused)",
            group_digits(MAX_TRY_BYTES)
        ),
    };
    let why = if c.pool_pushes_into_loh {
        format!(
            "new {}[{}] is {} bytes and stays in gen 0, but the pool allocates a {}-element array: {} bytes with the header, in the LOH.",
            elem.key(),
            group_digits(n),
            group_digits(c.dotnet_bytes),
            group_digits(c.pool_length.unwrap_or(0)),
            group_digits(crate::scenario::cliff::dotnet_object_bytes(
                c.pool_length.unwrap_or(0),
                elem.size()
            ))
        )
    } else {
        format!(
            ".NET counts the 24-byte header: {} + 24 = {} bytes against the 85,000-byte threshold. glibc adds its 8-byte size word and rounds to 16.",
            group_digits(c.rust_bytes),
            group_digits(c.dotnet_bytes)
        )
    };
    fields::texts(
        root,
        &[
            ("cliff-dotnet-bytes", group_digits(c.dotnet_bytes)),
            ("cliff-dotnet-loh", yes_no(c.dotnet_new_in_loh).to_string()),
            ("cliff-first-loh", group_digits(c.first_loh_length)),
            ("cliff-pool-bucket", pool_bucket),
            ("cliff-pool-loh", pool_loh),
            ("cliff-rust-bytes", group_digits(c.rust_bytes)),
            ("cliff-glibc-chunk", group_digits(c.glibc_chunk)),
            ("cliff-glibc-mmap", glibc_mmap),
            ("cliff-glibc-after", after),
            ("cliff-rust-pool", rust_pool),
            ("cliff-wasm", wasm),
            ("cliff-why", why),
        ],
    )
}

//! The why-pool widget (chapter 1): N rounds with a fresh `Vec` against N rounds of rent +
//! return, counted by the counting allocator in the reader's browser.

use web_sys::Element;

use super::{dom, fields};
use crate::input::{group_digits, parse_size};
use crate::scenario::why_pool::{Counted, LINE_BUFFER, check, run};

const TEMPLATE: &str = r#"
<p><label class="lab-field">Rounds (order lines)
  <input type="text" inputmode="numeric" autocomplete="off" spellcheck="false" data-testid="why-rounds"></label>
<label class="lab-field">Buffer size (bytes)
  <input type="text" inputmode="numeric" autocomplete="off" spellcheck="false" data-testid="why-size"></label></p>
<p class="lab-error" role="alert" data-testid="why-error" hidden></p>
<table class="lab-why-table" data-testid="why-result">
  <thead><tr><th></th><th>allocations</th><th>bytes</th></tr></thead>
  <tbody>
    <tr><th>Fresh <code>vec![0u8; size]</code> every round</th><td data-testid="why-fresh-allocs"></td><td data-testid="why-fresh-bytes"></td></tr>
    <tr><th>Pool: creating it</th><td data-testid="why-setup-allocs"></td><td data-testid="why-setup-bytes"></td></tr>
    <tr><th>Pool: round 1 (rent + return)</th><td data-testid="why-first-allocs"></td><td data-testid="why-first-bytes"></td></tr>
    <tr><th>Pool: rounds 2 to N</th><td data-testid="why-later-allocs"></td><td data-testid="why-later-bytes"></td></tr>
    <tr><th>Pool: total</th><td data-testid="why-pool-allocs"></td><td data-testid="why-pool-bytes"></td></tr>
  </tbody>
</table>
<dl class="lab-calc-result">
  <dt>Buffers the pool allocated (its statistics)</dt><dd data-testid="why-pool-buffers"></dd>
  <dt>Pooling pays off from round</dt><dd data-testid="why-break-even"></dd>
</dl>
<p class="lab-why" data-testid="why-note"></p>
"#;

const CELLS: [&str; 12] = [
    "why-fresh-allocs",
    "why-fresh-bytes",
    "why-setup-allocs",
    "why-setup-bytes",
    "why-first-allocs",
    "why-first-bytes",
    "why-later-allocs",
    "why-later-bytes",
    "why-pool-allocs",
    "why-pool-bytes",
    "why-pool-buffers",
    "why-break-even",
];

pub fn mount(root: &Element) -> Result<(), String> {
    let initial = root
        .get_attribute("data-initial")
        .unwrap_or_else(|| "1000".into());
    root.set_inner_html(TEMPLATE);
    dom::input(root, "why-rounds")?.set_value(&initial);
    dom::input(root, "why-size")?.set_value(&LINE_BUFFER.to_string());
    fields::live(root, render)
}

fn values(root: &Element) -> Result<Result<(u64, u64), String>, String> {
    let rounds =
        parse_size(&dom::input(root, "why-rounds")?.value()).map_err(|e| format!("Rounds: {e}"));
    let size =
        parse_size(&dom::input(root, "why-size")?.value()).map_err(|e| format!("Buffer size: {e}"));
    Ok(rounds
        .and_then(|r| size.map(|s| (r, s)))
        .and_then(|(r, s)| check(r, s).map(|()| (r, s))))
}

fn render(root: &Element) -> Result<(), String> {
    let error = dom::find(root, "why-error")?;
    let result = values(root)?.and_then(|(r, s)| run(r, s).map_err(|e| e.to_string()));
    let r = match result {
        Ok(r) => r,
        Err(message) => {
            error.set_text_content(Some(&message));
            dom::set_hidden(&error, false);
            for id in CELLS {
                dom::set_text(root, id, "—")?;
            }
            dom::set_text(root, "why-note", "")?;
            return Ok(());
        }
    };
    dom::set_hidden(&error, true);
    let dash = || "—".to_string();
    let count = |c: Option<Counted>| {
        c.map_or((dash(), dash()), |c| {
            (
                group_digits(c.allocations),
                format!("{} B", group_digits(c.bytes)),
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
    let rows = [
        count(Some(r.fresh)),
        count(r.pool_setup),
        count(r.first_round),
        count(r.later_rounds),
        count(pooled),
    ];
    for (i, (allocs, bytes)) in rows.iter().enumerate() {
        dom::set_text(root, CELLS[2 * i], allocs)?;
        dom::set_text(root, CELLS[2 * i + 1], bytes)?;
    }
    dom::set_text(root, "why-pool-buffers", &group_digits(r.pool_buffers))?;
    let break_even = match r.break_even() {
        Some(n) => format!(
            "{} (first use {} B ÷ {} B per fresh buffer, rounded up)",
            group_digits(n),
            group_digits(r.first_use_bytes().unwrap_or(0)),
            group_digits(r.size)
        ),
        None => "never (a fresh buffer of 0 bytes costs nothing)".into(),
    };
    dom::set_text(root, "why-break-even", &break_even)?;
    let note = if r.fresh.measured {
        "Counted by the lab's counting allocator in this page (requested bytes, as Rust asks for them; the allocator's own headers are not included)."
    } else {
        "The counting allocator is not installed here: the fresh loop's numbers are its formula."
    };
    dom::set_text(root, "why-note", note)
}

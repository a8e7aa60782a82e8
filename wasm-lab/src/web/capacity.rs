//! The capacity widget (chapter 5): P, M, K and a size → a real `SharedPool` run round by round.

use web_sys::Element;

use super::{dom, fields};
use crate::input::group_digits;
use crate::scenario::capacity::{Setup, run_rounds};

/// Rounds the widget runs.
pub const ROUNDS: u32 = 3;

const TEMPLATE: &str = r#"
<div class="lab-fields">
  <label class="lab-field">P, partitions <input type="text" inputmode="numeric" autocomplete="off" spellcheck="false" data-testid="cap-p"></label>
  <label class="lab-field">M, per partition <input type="text" inputmode="numeric" autocomplete="off" spellcheck="false" data-testid="cap-m"></label>
  <label class="lab-field">K, held at once <input type="text" inputmode="numeric" autocomplete="off" spellcheck="false" data-testid="cap-k"></label>
  <label class="lab-field">Size (bytes) <input type="text" inputmode="numeric" autocomplete="off" spellcheck="false" data-testid="cap-size"></label>
</div>
<dl class="lab-calc-result">
  <dt>Kept per size, 1 + P × M</dt><dd data-testid="cap-capacity"></dd>
  <dt>Buffer length (bucket)</dt><dd data-testid="cap-length"></dd>
</dl>
<table class="lab-table">
  <thead><tr><th>Round</th><th>New buffers</th><th>Bytes of new buffers</th><th>Bytes counted by the allocator</th><th>Kept after return</th><th>Bytes kept</th></tr></thead>
  <tbody data-testid="cap-rounds"></tbody>
</table>
<dl class="lab-calc-result">
  <dt>Kept after a High-pressure trim</dt><dd data-testid="cap-trim1"></dd>
  <dt>… and another 11 s later</dt><dd data-testid="cap-trim2"></dd>
  <dt>Would <code>Create()</code> keep this size?</dt><dd data-testid="cap-create"></dd>
</dl>
<p class="lab-why" data-testid="cap-why"></p>
<p class="lab-error" role="alert" data-testid="cap-error" hidden></p>
"#;

const FIELDS: [(&str, &str); 4] = [
    ("cap-p", "P"),
    ("cap-m", "M"),
    ("cap-k", "K"),
    ("cap-size", "Size"),
];

pub fn mount(root: &Element) -> Result<(), String> {
    // `initial=P/M/K/SIZE`, e.g. `initial=8/32/258/128` (the Thai article's 8-core machine).
    let initial = root
        .get_attribute("data-initial")
        .unwrap_or_else(|| "8/32/258/128".into());
    let mut values: Vec<&str> = initial.split('/').collect();
    values.resize(4, "");
    root.set_inner_html(TEMPLATE);
    for ((id, _), value) in FIELDS.iter().zip(values) {
        dom::input(root, id)?.set_value(value.trim());
    }
    fields::live(root, render)
}

fn render(root: &Element) -> Result<(), String> {
    let mut numbers = [0u64; 4];
    let mut problem = None;
    for (slot, (id, label)) in numbers.iter_mut().zip(FIELDS) {
        match fields::number(root, id, label)? {
            Ok(n) => *slot = n,
            Err(e) => {
                problem = Some(e);
                break;
            }
        }
    }
    let [partitions, arrays_per_partition, held, size] = numbers;
    let setup = Setup {
        partitions,
        arrays_per_partition,
        held,
        size,
    };
    let run = match problem {
        Some(e) => Err(e),
        None => run_rounds(setup, ROUNDS).map_err(|e| e.to_string()),
    };
    let run = match run {
        Ok(run) => run,
        Err(e) => {
            fields::error(root, "cap-error", Some(&e))?;
            let dash = || "—".to_string();
            dom::find(root, "cap-rounds")?.set_inner_html("");
            return fields::texts(
                root,
                &[
                    ("cap-capacity", dash()),
                    ("cap-length", dash()),
                    ("cap-trim1", dash()),
                    ("cap-trim2", dash()),
                    ("cap-create", dash()),
                    ("cap-why", String::new()),
                ],
            );
        }
    };
    fields::error(root, "cap-error", None)?;
    let mut rows = String::new();
    for r in &run.rounds {
        let n = r.round;
        let counted = r
            .counted_bytes
            .map_or("(not counted)".to_string(), group_digits);
        rows.push_str(&format!(
            "<tr data-testid=\"cap-round-{n}\"><td>{n}</td>\
             <td data-testid=\"cap-r{n}-new\">{}</td>\
             <td data-testid=\"cap-r{n}-bytes\">{}</td>\
             <td data-testid=\"cap-r{n}-counted\">{counted}</td>\
             <td data-testid=\"cap-r{n}-kept\">{}</td>\
             <td data-testid=\"cap-r{n}-kept-bytes\">{}</td></tr>",
            group_digits(r.allocated_buffers),
            group_digits(r.allocated_bytes),
            group_digits(r.kept_after_return),
            group_digits(r.retained_bytes),
        ));
    }
    dom::find(root, "cap-rounds")?.set_inner_html(&rows);
    let length = if run.buffer_length == 0 {
        "0 (the empty buffer, never pooled)".to_string()
    } else if run.pooled {
        group_digits(run.buffer_length)
    } else {
        format!(
            "{} (over the largest bucket: exact length, never pooled)",
            group_digits(run.buffer_length)
        )
    };
    let create = match run.create_keeps {
        None => "nothing to keep (empty buffer)".to_string(),
        Some(true) => "yes (within its default 1,048,576)".to_string(),
        Some(false) => "no (over its default 1,048,576)".to_string(),
    };
    let later = run.rounds.get(1).map_or(0, |r| r.allocated_buffers);
    let why = if !run.pooled {
        "Buffers of this size never go back into the pool: every round allocates all K.".to_string()
    } else if later == 0 {
        format!(
            "K = {} fits in 1 + {} × {} = {}: after the first round every rent is served from the pool.",
            group_digits(held),
            group_digits(partitions),
            group_digits(arrays_per_partition),
            group_digits(run.capacity)
        )
    } else {
        format!(
            "K = {} is over 1 + {} × {} = {}: each round, {} buffers are dropped on return and allocated again on the next rent.",
            group_digits(held),
            group_digits(partitions),
            group_digits(arrays_per_partition),
            group_digits(run.capacity),
            group_digits(later)
        )
    };
    fields::texts(
        root,
        &[
            ("cap-capacity", group_digits(run.capacity)),
            ("cap-length", length),
            ("cap-trim1", group_digits(run.kept_after_first_trim)),
            ("cap-trim2", group_digits(run.kept_after_second_trim)),
            ("cap-create", create),
            ("cap-why", why),
        ],
    )
}

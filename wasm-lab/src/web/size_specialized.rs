//! The size-specialized rent widget (chapter 8): a list of constant sizes → the bucket each
//! `rent::<N>()` resolves at compile time, and how many specialized copies that compiles.

use web_sys::Element;

use super::dom;
use super::fields::{self, yes_no};
use crate::input::group_digits;
use crate::scenario::size_specialized::{go_specializes, monomorphize, parse_sizes};

const TEMPLATE: &str = r#"
<label class="lab-field">Sizes of rent::&lt;N&gt;() call sites (bytes, separated by ; or spaces)
  <input type="text" autocomplete="off" spellcheck="false" class="lab-wide" data-testid="spec-input">
</label>
<table class="lab-table">
  <thead><tr><th>N</th><th>Bucket index (compile time)</th><th>Buffer length</th><th>Go 1.27 would specialize new(T) of N bytes?</th></tr></thead>
  <tbody data-testid="spec-rows"></tbody>
</table>
<dl class="lab-calc-result">
  <dt>rent::&lt;N&gt; wrappers (distinct N)</dt><dd data-testid="spec-sizes"></dd>
  <dt>Bucket-specialized paths (distinct buckets)</dt><dd data-testid="spec-buckets"></dd>
  <dt>Sizes left to the run-time path</dt><dd data-testid="spec-runtime"></dd>
  <dt>Run-time rent: paths compiled</dt><dd data-testid="spec-runtime-copies"></dd>
</dl>
<p class="lab-error" role="alert" data-testid="spec-error" hidden></p>
"#;

pub fn mount(root: &Element) -> Result<(), String> {
    let initial = root
        .get_attribute("data-initial")
        .unwrap_or_else(|| "24;41;64;100;128;4096;81920".into());
    root.set_inner_html(TEMPLATE);
    dom::input(root, "spec-input")?.set_value(&initial.replace(';', "; "));
    fields::live(root, render)
}

fn render(root: &Element) -> Result<(), String> {
    let text = dom::input(root, "spec-input")?.value();
    let result = parse_sizes(&text).and_then(|sizes| monomorphize(&sizes));
    let m = match result {
        Ok(m) => m,
        Err(e) => {
            fields::error(root, "spec-error", Some(&e))?;
            dom::find(root, "spec-rows")?.set_inner_html("");
            for id in [
                "spec-sizes",
                "spec-buckets",
                "spec-runtime",
                "spec-runtime-copies",
            ] {
                dom::set_text(root, id, "—")?;
            }
            return Ok(());
        }
    };
    fields::error(root, "spec-error", None)?;
    let mut rows = String::new();
    for r in &m.rows {
        rows.push_str(&format!(
            "<tr data-testid=\"spec-row\" data-size=\"{}\"><td>{}</td><td data-testid=\"spec-index\">{}</td>\
             <td data-testid=\"spec-length\">{}</td><td data-testid=\"spec-go\">{}</td></tr>",
            r.size,
            group_digits(r.size),
            r.index.map_or("none (run time)".to_string(), |i| i.to_string()),
            group_digits(r.length),
            yes_no(go_specializes(r.size)),
        ));
    }
    dom::find(root, "spec-rows")?.set_inner_html(&rows);
    fields::texts(
        root,
        &[
            ("spec-sizes", m.distinct_sizes.to_string()),
            ("spec-buckets", m.distinct_buckets.to_string()),
            ("spec-runtime", m.runtime_only.to_string()),
            ("spec-runtime-copies", m.runtime_copies.to_string()),
        ],
    )
}

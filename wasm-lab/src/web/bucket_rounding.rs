//! The bucket calculator widget (chapter 2): type a request, see the bucket, length and waste.

use web_sys::Element;

use super::dom;
use crate::calc::calculate;
use crate::input::{group_digits, parse_size};

const TEMPLATE: &str = r#"
<label class="lab-field">Request size (bytes)
  <input type="text" inputmode="numeric" autocomplete="off" spellcheck="false" data-testid="calc-input">
</label>
<dl class="lab-calc-result" data-testid="calc-result">
  <dt>Bucket index</dt><dd data-testid="calc-index"></dd>
  <dt>Buffer length</dt><dd data-testid="calc-length"></dd>
  <dt>Wasted bytes</dt><dd data-testid="calc-wasted"></dd>
  <dt>Share of the buffer wasted</dt><dd data-testid="calc-percent"></dd>
  <dt>Excess over the request</dt><dd data-testid="calc-excess"></dd>
</dl>
<p class="lab-why" data-testid="calc-why"></p>
<p class="lab-error" role="alert" data-testid="calc-error" hidden></p>
"#;

pub fn mount(root: &Element) -> Result<(), String> {
    let initial = root
        .get_attribute("data-initial")
        .unwrap_or_else(|| "100".into());
    root.set_inner_html(TEMPLATE);
    let input = dom::input(root, "calc-input")?;
    input.set_value(&initial);
    render(root, &initial)?;
    dom::keep_keys(root)?;
    let widget = root.clone();
    let field = input.clone();
    dom::on(&input, "input", move |_| {
        if let Err(message) = render(&widget, &field.value()) {
            dom::show_failure(&widget, &message);
        }
    })
}

fn render(root: &Element, text: &str) -> Result<(), String> {
    let error = dom::find(root, "calc-error")?;
    let (index, length, wasted, percent, excess, why) = match parse_size(text) {
        Ok(request) => {
            dom::set_hidden(&error, true);
            let c = calculate(request);
            let index = match (c.kind, c.index) {
                (_, Some(i)) => i.to_string(),
                ("empty", None) => "none (empty buffer)".into(),
                _ => "none (not pooled)".into(),
            };
            (
                index,
                group_digits(c.length),
                group_digits(c.wasted),
                format!("{:.1} %", c.wasted_percent),
                format!("{:.1} %", c.excess_percent),
                c.why,
            )
        }
        Err(e) => {
            error.set_text_content(Some(&e.to_string()));
            dom::set_hidden(&error, false);
            let dash = || "—".to_string();
            (dash(), dash(), dash(), dash(), dash(), String::new())
        }
    };
    dom::set_text(root, "calc-index", &index)?;
    dom::set_text(root, "calc-length", &length)?;
    dom::set_text(root, "calc-wasted", &wasted)?;
    dom::set_text(root, "calc-percent", &percent)?;
    dom::set_text(root, "calc-excess", &excess)?;
    dom::set_text(root, "calc-why", &why)
}

//! Form helpers shared by the widgets: live re-rendering, numeric fields, selects, small tables.

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlSelectElement};

use super::dom;
use crate::input::parse_size;

/// The value of the numeric field `id`, or a message naming the field (`label`).
pub fn number(root: &Element, id: &str, label: &str) -> Result<Result<u64, String>, String> {
    let input = dom::input(root, id)?;
    Ok(parse_size(&input.value()).map_err(|e| format!("{label}: {e}")))
}

/// The selected value of the `<select>` `id`.
pub fn selected(root: &Element, id: &str) -> Result<String, String> {
    dom::find(root, id)?
        .dyn_into::<HtmlSelectElement>()
        .map(|s| s.value())
        .map_err(|_| format!("“{id}” is not a select"))
}

/// Sets the value of the `<select>` `id` (ignored if no option has it).
pub fn select(root: &Element, id: &str, value: &str) -> Result<(), String> {
    let s = dom::find(root, id)?
        .dyn_into::<HtmlSelectElement>()
        .map_err(|_| format!("“{id}” is not a select"))?;
    s.set_value(value);
    if s.value().is_empty() {
        s.set_selected_index(0);
    }
    Ok(())
}

/// Re-renders the widget on every `input` or `change` inside it; a failure replaces the widget
/// with its message instead of leaving it dead.
pub fn live(root: &Element, render: fn(&Element) -> Result<(), String>) -> Result<(), String> {
    dom::keep_keys(root)?;
    for event in ["input", "change"] {
        let widget = root.clone();
        dom::on(root, event, move |_| {
            if let Err(message) = render(&widget) {
                dom::show_failure(&widget, &message);
            }
        })?;
    }
    render(root)
}

/// Shows `message` in the error element `id`, or hides it for `None`.
pub fn error(root: &Element, id: &str, message: Option<&str>) -> Result<(), String> {
    let el = dom::find(root, id)?;
    el.set_text_content(message);
    dom::set_hidden(&el, message.is_none());
    Ok(())
}

/// Sets several `data-testid` texts at once.
pub fn texts(root: &Element, pairs: &[(&str, String)]) -> Result<(), String> {
    for (id, text) in pairs {
        dom::set_text(root, id, text)?;
    }
    Ok(())
}

/// `<option>`s for a select, with the first selected.
pub fn options(pairs: &[(&str, &str)]) -> String {
    pairs
        .iter()
        .map(|(value, label)| {
            format!(
                "<option value=\"{}\">{}</option>",
                dom::escape(value),
                dom::escape(label)
            )
        })
        .collect()
}

pub fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

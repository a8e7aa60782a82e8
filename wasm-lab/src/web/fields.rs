//! Form helpers of the `method` widget (the one widget outside `view/`): selects, texts, errors.

use lab_text::tf;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlSelectElement};

use super::dom;

/// The selected value of the `<select>` `id`.
pub fn selected(root: &Element, id: &str) -> Result<String, String> {
    dom::find(root, id)?
        .dyn_into::<HtmlSelectElement>()
        .map(|s| s.value())
        .map_err(|_| tf!("“{}” is not a select", id))
}

/// Sets the value of the `<select>` `id` (ignored if no option has it).
pub fn select(root: &Element, id: &str, value: &str) -> Result<(), String> {
    let s = dom::find(root, id)?
        .dyn_into::<HtmlSelectElement>()
        .map_err(|_| tf!("“{}” is not a select", id))?;
    s.set_value(value);
    if s.value().is_empty() {
        s.set_selected_index(0);
    }
    Ok(())
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

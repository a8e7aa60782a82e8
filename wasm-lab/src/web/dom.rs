//! Small DOM helpers: find by `data-testid`, listen, escape. Everything returns `Result<_, String>`
//! so a widget can show the message to the reader.

use lab_text::{t, tf};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{Document, Element, Event, HtmlInputElement};

pub fn document() -> Result<Document, JsValue> {
    web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(|| JsValue::from_str(&t!("no document: the lab runs in a browser page")))
}

/// A JS exception as text.
pub fn describe(e: &JsValue) -> String {
    e.as_string()
        .or_else(|| {
            e.dyn_ref::<js_sys::Error>()
                .map(|e| String::from(e.message()))
        })
        .unwrap_or_else(|| format!("{e:?}"))
}

/// Every element matching `selector` in `document`.
pub fn all(document: &Document, selector: &str) -> Vec<Element> {
    let Ok(list) = document.query_selector_all(selector) else {
        return Vec::new();
    };
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| n.dyn_into::<Element>().ok())
        .collect()
}

/// The element under `root` with `data-testid="{id}"`.
pub fn find(root: &Element, id: &str) -> Result<Element, String> {
    root.query_selector(&format!("[data-testid=\"{id}\"]"))
        .map_err(|e| describe(&e))?
        .ok_or_else(|| tf!("the widget lost its “{}” element", id))
}

pub fn input(root: &Element, id: &str) -> Result<HtmlInputElement, String> {
    find(root, id)?
        .dyn_into::<HtmlInputElement>()
        .map_err(|_| tf!("“{}” is not an input", id))
}

pub fn set_text(root: &Element, id: &str, text: &str) -> Result<(), String> {
    find(root, id)?.set_text_content(Some(text));
    Ok(())
}

/// Shows or hides an element by its `hidden` attribute.
pub fn set_hidden(el: &Element, hidden: bool) {
    let _ = if hidden {
        el.set_attribute("hidden", "")
    } else {
        el.remove_attribute("hidden")
    };
}

/// Calls `f` on every `event` at `target`, for the life of the page.
pub fn on(target: &Element, event: &str, f: impl FnMut(Event) + 'static) -> Result<(), String> {
    let closure = Closure::<dyn FnMut(Event)>::new(f);
    target
        .add_event_listener_with_callback(event, closure.as_ref().unchecked_ref())
        .map_err(|e| describe(&e))?;
    // Page-lifetime listeners are right here, and so is `forget` (which leaks the closure on
    // purpose): a mount point is mounted once per page load (`data-lab-live` makes a second
    // `mountAll` skip it), no widget or quiz is ever unmounted while the page lives, and each
    // mount registers a fixed handful of listeners (one delegating listener per quiz, a few per
    // widget), so nothing accumulates. Leaving the page frees the whole wasm instance with them.
    // Keeping the handles (as wasm-bindgen's todomvc example does) would pay for a removal that
    // never happens.
    closure.forget();
    Ok(())
}

/// Keeps keys typed into a widget from reaching mdBook's shortcuts (←, →, S).
pub fn keep_keys(root: &Element) -> Result<(), String> {
    on(root, "keydown", |e| e.stop_propagation())
}

/// Replaces a widget's content with a message saying it could not start.
pub fn show_failure(root: &Element, message: &str) {
    root.set_inner_html(&format!(
        "<p class=\"lab-error\" role=\"alert\" data-testid=\"lab-failure\">{}</p>",
        escape(&tf!("This widget could not start: {}", message))
    ));
}

/// The lab's one HTML escaper.
pub use lab_text::html::escape;

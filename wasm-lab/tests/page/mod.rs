//! A page to mount widgets in, and a reader's hands: shared by the wasm browser tests.
#![allow(dead_code)]

use wasm_bindgen::JsCast;
use web_sys::{Element, Event, EventInit, HtmlInputElement};

pub fn page() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

/// Puts `html` (mount points) into the page and lets the lab mount it, from a link without
/// widget state (an earlier test's edits live in the link).
pub fn mount(html: &str) -> Element {
    web_sys::window()
        .unwrap()
        .history()
        .unwrap()
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("#"))
        .unwrap();
    mount_linked(html)
}

/// Mounts `html` with the link as it is (a test of linked state sets it first).
pub fn mount_linked(html: &str) -> Element {
    let host = page().create_element("div").unwrap();
    host.set_inner_html(html);
    page().body().unwrap().append_child(&host).unwrap();
    wasm_lab::web::mount_all().unwrap();
    host
}

pub fn by_id(root: &Element, id: &str) -> Element {
    root.query_selector(&format!("[data-testid=\"{id}\"]"))
        .unwrap()
        .unwrap_or_else(|| panic!("no {id}"))
}

pub fn text(root: &Element, id: &str) -> String {
    by_id(root, id).text_content().unwrap_or_default()
}

/// A bubbling event, as the browser fires it for a reader's input.
pub fn event(name: &str) -> Event {
    let init = EventInit::new();
    init.set_bubbles(true);
    Event::new_with_event_init_dict(name, &init).unwrap()
}

/// Sets an input's text and fires `input`, as typing does.
pub fn type_into(root: &Element, id: &str, value: &str) {
    let input: HtmlInputElement = by_id(root, id).dyn_into().unwrap();
    input.set_value(value);
    input.dispatch_event(&event("input")).unwrap();
}

/// Sets an input's text, fires `input`, then commits it (`change`, as Enter or leaving the field
/// does): a field that runs on commit (the cliff widget's request) redraws only then.
pub fn commit_into(root: &Element, id: &str, value: &str) {
    type_into(root, id, value);
    by_id(root, id).dispatch_event(&event("change")).unwrap();
}

pub fn click(root: &Element, id: &str) {
    by_id(root, id)
        .dyn_into::<web_sys::HtmlElement>()
        .unwrap()
        .click();
}

/// Whether the widget shows no element `id` (a result withdrawn for an error).
pub fn absent(root: &Element, id: &str) -> bool {
    root.query_selector(&format!("[data-testid=\"{id}\"]"))
        .unwrap()
        .is_none()
}

/// Commits a prediction, as a reader does: a choice (`{id}-{value}`) or a typed number, then
/// "Run it".
pub fn predict(root: &Element, id: &str, value: &str) {
    let choice = format!("{id}-{value}");
    if absent(root, &choice) {
        let input: HtmlInputElement = by_id(root, &format!("{id}-value")).dyn_into().unwrap();
        input.set_value(value);
    } else {
        click(root, &choice);
    }
    click(root, &format!("{id}-run"));
}

/// Presses `key` on the element `id`, as a keyboard does; returns whether the page saw it
/// (whether it propagated to the document).
pub fn press(root: &Element, id: &str, key: &str) -> bool {
    use std::cell::Cell;
    use std::rc::Rc;
    use wasm_bindgen::closure::Closure;
    let seen = Rc::new(Cell::new(false));
    let flag = seen.clone();
    let listener = Closure::<dyn FnMut(Event)>::new(move |_| flag.set(true));
    page()
        .add_event_listener_with_callback("keydown", listener.as_ref().unchecked_ref())
        .unwrap();
    let init = web_sys::KeyboardEventInit::new();
    init.set_key(key);
    init.set_bubbles(true);
    init.set_cancelable(true);
    let e = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    by_id(root, id).dispatch_event(&e).unwrap();
    page()
        .remove_event_listener_with_callback("keydown", listener.as_ref().unchecked_ref())
        .unwrap();
    seen.get()
}

/// The widget shows its error element `id`, and it says `says`.
pub fn error_says(root: &Element, id: &str, says: &str) {
    let e = by_id(root, id);
    assert!(!e.has_attribute("hidden"), "{id}: error hidden");
    let t = e.text_content().unwrap_or_default();
    assert!(t.contains(says), "{id}: {t:?} does not say {says:?}");
}

/// The widget shows no error in `id`.
pub fn no_error(root: &Element, id: &str) {
    assert!(
        by_id(root, id).has_attribute("hidden"),
        "{}",
        text(root, id)
    );
}

/// Whether the element `id` is hidden.
pub fn hidden(root: &Element, id: &str) -> bool {
    by_id(root, id).has_attribute("hidden")
}

/// Commits `right`, the lab's own answer, when the slot's question `id` is asked (issue 37: a
/// slot that answers its page's question shows nothing before a prediction); nothing when the
/// earlier prediction still holds for this answer.
pub fn reveal(root: &Element, id: &str, right: &str) {
    if !absent(root, id) {
        predict(root, id, right);
        assert!(absent(root, id), "{id}: still asked after {right}");
    }
}

//! A page to mount widgets in, and a reader's hands: shared by the wasm browser tests.
#![allow(dead_code)]

use wasm_bindgen::JsCast;
use web_sys::{Element, Event, EventInit, HtmlInputElement};

pub fn page() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

/// Puts `html` (mount points) into the page and lets the lab mount it.
pub fn mount(html: &str) -> Element {
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

pub fn click(root: &Element, id: &str) {
    by_id(root, id)
        .dyn_into::<web_sys::HtmlElement>()
        .unwrap()
        .click();
}

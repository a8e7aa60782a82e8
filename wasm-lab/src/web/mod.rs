//! The web bindings: widgets and live quizzes mounted into the book's pages (wasm build only).
//!
//! The book's preprocessor leaves mount points such as
//! `<div class="lab-widget" data-lab-widget="bucket-rounding">` and
//! `<div class="lab-quiz" data-lab-quiz="bucket-rounding">` in the chapter HTML; the page's loader
//! (`book/theme/lab-loader.js`) imports this module and calls [`mount_all`]. Each mount point is
//! mounted on its own: a failure is shown inside that widget and never stops the others.

use wasm_bindgen::prelude::*;
use web_sys::Element;

mod dom;
mod fields;
pub(crate) mod json;
pub mod language;
mod method;
mod progress;
mod quiz;
mod widget;

/// Mounts every widget and quiz in the page; returns how many were mounted.
///
/// Safe to call twice: a mount point that is already live is skipped.
pub fn mount_all() -> Result<u32, JsError> {
    mount(None)
}

/// Mounts the page's widgets, quizzes and progress table of one module: `module` is a chapter's
/// name (its widget and quiz) or `progress`, as the loader imports one module per name found in
/// the page (see `Cargo.toml`'s chapter features); without it, everything this build has.
/// Mount points of other modules are left alone for their own module.
#[wasm_bindgen(js_name = mountAll)]
pub fn mount(module: Option<String>) -> Result<u32, JsError> {
    install_panic_hook();
    let document = dom::document().map_err(|e| JsError::new(&dom::describe(&e)))?;
    let mut mounted = 0;
    for (selector, mount) in [
        (
            "[data-lab-widget]",
            mount_widget as fn(&Element) -> Result<(), String>,
        ),
        ("[data-lab-quiz]", quiz::mount),
        #[cfg(feature = "progress")]
        ("[data-lab-progress]", progress::mount),
    ] {
        for root in dom::all(&document, selector) {
            if root.get_attribute("data-lab-live").is_some() {
                continue;
            }
            if module.as_deref().is_some_and(|m| m != module_of(&root)) {
                continue;
            }
            match mount(&root) {
                Ok(()) => {
                    let _ = root.set_attribute("data-lab-live", "");
                    mounted += 1;
                }
                Err(message) => dom::show_failure(&root, &message),
            }
        }
    }
    Ok(mounted)
}

/// The module a mount point belongs to: its chapter, or `progress`.
fn module_of(root: &Element) -> String {
    root.get_attribute("data-lab-widget")
        .or_else(|| root.get_attribute("data-lab-quiz"))
        .unwrap_or_else(|| "progress".into())
}

fn mount_widget(root: &Element) -> Result<(), String> {
    // Every widget is a view model (`crate::view`) drawn by the one DOM layer (`widget.rs`).
    match root.get_attribute("data-lab-widget").as_deref() {
        #[cfg(feature = "method")]
        Some("method") => method::mount(root),
        Some(name) => match widget::find(name) {
            Some(w) => widget::mount(root, w),
            None => Err(lab_text::tf!(
                "this version of the lab has no widget “{}”",
                name
            )),
        },
        None => Err(lab_text::t!("mount point without a widget name").into_owned()),
    }
}

/// A panic is a bug in the lab: say so plainly in the console instead of an opaque trap.
fn install_panic_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            web_sys::console::error_1(&format!("Pools & Chunks lab bug: {info}").into());
        }));
    });
}

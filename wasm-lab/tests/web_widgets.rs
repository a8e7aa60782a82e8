//! The widgets mounted into a real page, in headless Chromium.
//!
//! Run by `cargo xtask test` (or `cargo test -p wasm-lab --target wasm32-unknown-unknown`).
#![cfg(target_arch = "wasm32")]

use wasm_bindgen_test::*;

mod page;
use page::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn calculator_shows_the_bucket_and_waste() {
    let w = mount(r#"<div data-lab-widget="bucket-rounding" data-initial="100"></div>"#);
    // Nothing before the reader's prediction (issue 37).
    assert!(absent(&w, "calc-length") && !absent(&w, "calc-predict"));
    reveal(&w, "calc-predict", "128");
    assert_eq!(text(&w, "calc-index"), "3");
    assert_eq!(text(&w, "calc-length"), "128");
    assert_eq!(text(&w, "calc-wasted"), "28");
    assert_eq!(text(&w, "calc-percent"), "21.9 %");
    type_into(&w, "calc-input", "1,048,577");
    reveal(&w, "calc-predict", "2097152");
    assert_eq!(text(&w, "calc-index"), "17");
    assert_eq!(text(&w, "calc-length"), "2,097,152");
    assert!(by_id(&w, "calc-error").has_attribute("hidden"));
}

#[wasm_bindgen_test]
fn calculator_explains_bad_input_and_recovers() {
    let w = mount(r#"<div data-lab-widget="bucket-rounding"></div>"#);
    for &(typed, says) in wasm_lab::calc::UNREADABLE_REQUESTS {
        type_into(&w, "calc-input", typed);
        error_says(&w, "calc-error", says);
        assert!(absent(&w, "calc-length"));
    }
    type_into(&w, "calc-input", "1073741825");
    reveal(&w, "calc-predict", "1073741825");
    assert_eq!(text(&w, "calc-index"), "none (not pooled)");
    assert!(text(&w, "calc-why").contains("over the largest bucket"));
    type_into(&w, "calc-input", "16");
    reveal(&w, "calc-predict", "16");
    assert_eq!(text(&w, "calc-length"), "16");
}

#[wasm_bindgen_test]
fn unknown_widget_says_so_in_place() {
    let w = mount(r#"<div data-lab-widget="no-such-widget"></div>"#);
    assert!(text(&w, "lab-failure").contains("no widget “no-such-widget”"));
}

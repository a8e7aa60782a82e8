//! The widgets and quizzes mounted into a real page, in headless Chromium.
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
    assert_eq!(text(&w, "calc-index"), "3");
    assert_eq!(text(&w, "calc-length"), "128");
    assert_eq!(text(&w, "calc-wasted"), "28");
    assert_eq!(text(&w, "calc-percent"), "21.9 %");
    type_into(&w, "calc-input", "1,048,577");
    assert_eq!(text(&w, "calc-index"), "17");
    assert_eq!(text(&w, "calc-length"), "2,097,152");
    assert!(by_id(&w, "calc-error").has_attribute("hidden"));
}

#[wasm_bindgen_test]
fn calculator_explains_bad_input_and_recovers() {
    let w = mount(r#"<div data-lab-widget="bucket-rounding"></div>"#);
    for (typed, says) in [
        ("", "type a whole number"),
        ("-5", "cannot be negative"),
        ("abc", "not a number"),
        ("1e20", "larger than any .NET array"),
        ("1.5", "not a whole number"),
        ("24,41,64", "not one number"),
        ("99999999999", "larger than any .NET array"),
    ] {
        type_into(&w, "calc-input", typed);
        let error = by_id(&w, "calc-error");
        assert!(!error.has_attribute("hidden"), "{typed}: error hidden");
        assert!(
            text(&w, "calc-error").contains(says),
            "{typed}: {}",
            text(&w, "calc-error")
        );
        assert!(absent(&w, "calc-length"));
    }
    type_into(&w, "calc-input", "1073741825");
    assert_eq!(text(&w, "calc-index"), "none (not pooled)");
    assert!(text(&w, "calc-why").contains("over the largest bucket"));
    type_into(&w, "calc-input", "16");
    assert_eq!(text(&w, "calc-length"), "16");
}

#[wasm_bindgen_test]
fn unknown_widget_says_so_in_place() {
    let w = mount(r#"<div data-lab-widget="no-such-widget"></div>"#);
    assert!(text(&w, "lab-failure").contains("no widget “no-such-widget”"));
}

#[wasm_bindgen_test]
fn quiz_grades_with_the_lab_and_keeps_progress() {
    let storage = web_sys::window().unwrap().local_storage().unwrap().unwrap();
    storage
        .set_item(wasm_lab::progress::STORAGE_KEY, "{not json")
        .unwrap();
    let q = mount(r#"<div data-lab-quiz="bucket-rounding"></div>"#);
    assert!(text(&q, "quiz-notice").contains("unreadable"));
    assert_eq!(
        storage
            .get_item(&format!("{}.unreadable", wasm_lab::progress::STORAGE_KEY))
            .unwrap()
            .as_deref(),
        Some("{not json")
    );
    let item = q
        .query_selector("[data-kind=\"buffer-length\"]")
        .unwrap()
        .unwrap();
    let request: u64 = item.get_attribute("data-value").unwrap().parse().unwrap();
    let right = wasm_lab::calc::calculate(request).length;
    type_into(&item, "answer", &(right + 1).to_string());
    click(&item, "check");
    assert!(text(&item, "feedback").starts_with("✘ Not quite"));
    type_into(&item, "answer", &right.to_string());
    click(&item, "check");
    assert!(
        text(&item, "feedback").starts_with("✔ Correct"),
        "{}",
        text(&item, "feedback")
    );
    assert_eq!(text(&q, "quiz-score"), "Solved 1 of 4 · 2 attempts");
    let saved = storage
        .get_item(wasm_lab::progress::STORAGE_KEY)
        .unwrap()
        .unwrap();
    let progress = wasm_lab::progress::Progress::from_json(&saved).unwrap();
    assert_eq!(
        progress.tally("bucket-rounding", "buffer-length").attempts,
        2
    );
    click(&item, "next");
    assert_eq!(text(&item, "feedback"), "");
    click(&q, "quiz-reset");
    assert_eq!(text(&q, "quiz-score"), "Solved 0 of 4 · 0 attempts");
}

/// The step shown by a stepper.
fn at(w: &web_sys::Element, id: &str) -> usize {
    by_id(w, id)
        .get_attribute("data-at")
        .unwrap()
        .parse()
        .unwrap()
}

#[wasm_bindgen_test]
fn steps_move_by_buttons_and_keys_without_reaching_the_book() {
    let w = mount(r#"<div data-lab-widget="return-contract"></div>"#);
    predict(&w, "dr-predict", "no");
    assert_eq!(
        by_id(&w, "dr-verdict")
            .get_attribute("data-held")
            .as_deref(),
        Some("false")
    );
    // Predicting starts the story at its first step.
    assert_eq!(at(&w, "dr-steps"), 0);
    click(&w, "dr-steps-next");
    click(&w, "dr-steps-next");
    assert_eq!(at(&w, "dr-steps"), 2);
    // The same buffer, twice in the pool: the slot and partition 0 both hold A.
    let state = by_id(&w, "pool").get_attribute("data-state").unwrap();
    assert_eq!(state, "64: slot A | p0 [A] ; x=A");
    // → and ← step while the stepper has focus, and mdBook never sees them.
    assert!(!press(&w, "dr-steps", "ArrowRight"));
    assert_eq!(at(&w, "dr-steps"), 3);
    assert!(!press(&w, "dr-steps", "ArrowLeft"));
    assert!(!press(&w, "dr-steps", "ArrowLeft"));
    assert_eq!(at(&w, "dr-steps"), 1);
    // In a text field the arrows move the caret: no step.
    assert!(!press(&w, "dr-value", "ArrowRight"));
    assert_eq!(at(&w, "dr-steps"), 1);
    click(&w, "dr-steps-last");
    assert_eq!(at(&w, "dr-steps"), 5);
    // The state is in the link.
    let url = page().url().unwrap();
    let hash = &url[url.find('#').unwrap()..];
    assert!(hash.starts_with("#return-contract:"), "{hash}");
    assert!(
        hash.contains("dr-step=5") && hash.contains("dr-predict=no"),
        "{hash}"
    );
    // Predict again: the outcome hides until the next prediction; the right one holds.
    click(&w, "dr-verdict-again");
    assert!(absent(&w, "dr-same"));
    predict(&w, "dr-predict", "yes");
    assert_eq!(
        by_id(&w, "dr-verdict")
            .get_attribute("data-held")
            .as_deref(),
        Some("true")
    );
    assert!(text(&w, "return-contract-announce").starts_with("Step 1 of 6"));
    web_sys::window()
        .unwrap()
        .history()
        .unwrap()
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("#"))
        .unwrap();
}

#[wasm_bindgen_test]
fn a_link_restores_a_state_and_hostile_links_get_messages() {
    let history = web_sys::window().unwrap().history().unwrap();
    history
        .replace_state_with_url(
            &wasm_bindgen::JsValue::NULL,
            "",
            Some("#stale-data:stale-clear=true&stale-predict=0&stale-step=3"),
        )
        .unwrap();
    let w = mount_linked(r#"<div data-lab-widget="stale-data"></div>"#);
    assert_eq!(at(&w, "stale-steps"), 3);
    assert_eq!(text(&w, "stale-leaked"), "0");
    assert_eq!(
        by_id(&w, "stale-verdict")
            .get_attribute("data-held")
            .as_deref(),
        Some("true")
    );
    history
        .replace_state_with_url(
            &wasm_bindgen::JsValue::NULL,
            "",
            Some("#stale-data:stale-read=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E&stale-step=zz"),
        )
        .unwrap();
    let w = mount_linked(r#"<div data-lab-widget="stale-data"></div>"#);
    // The hostile value is shown as text, with the field's usual message.
    let e = text(&w, "stale-error");
    assert!(e.starts_with("Bytes to read: “<img src=x"), "{e}");
    assert!(e.contains("has a space inside"), "{e}");
    assert!(w.query_selector("img").unwrap().is_none());
    history
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("#"))
        .unwrap();
}

//! The Method chapter's widget — the reader's own timings — mounted in headless Chromium and run
//! as a reader runs it. Its numbers are the machine's, so the test checks what it shows, never
//! how large a time is.
#![cfg(target_arch = "wasm32")]

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

mod page;
use page::*;

wasm_bindgen_test_configure!(run_in_browser);

/// Lets the page run its tasks (the widget schedules its run) for `ms` milliseconds.
async fn pause(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(resolve.unchecked_ref(), ms);
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
}

#[wasm_bindgen_test]
async fn reader_timing_runs_on_a_click_and_says_whose_numbers_they_are() {
    let w = mount(r#"<div data-lab-widget="method"></div>"#);
    assert!(by_id(&w, "timing-result").has_attribute("hidden"));
    assert_eq!(text(&w, "timing-status"), "");
    click(&w, "timing-run");
    assert!(text(&w, "timing-status").starts_with("measuring"));
    for _ in 0..600 {
        if text(&w, "timing-status") == "done" {
            break;
        }
        pause(50).await;
    }
    assert_eq!(text(&w, "timing-status"), "done");
    assert!(!by_id(&w, "timing-result").has_attribute("hidden"));
    for id in ["timing-pool-ratio", "timing-clear-ratio"] {
        let ratio = text(&w, id);
        let value: f64 = ratio.trim_end_matches('×').parse().unwrap_or(-1.0);
        assert!(value > 0.0, "{id}: {ratio:?}");
    }
    for id in [
        "timing-pool-ns",
        "timing-fresh-ns",
        "timing-clear-ns",
        "timing-noclear-ns",
    ] {
        assert!(text(&w, id).ends_with(" ns"), "{id}: {:?}", text(&w, id));
    }
    assert!(text(&w, "timing-pool-noise").ends_with(" %"));
    let note = text(&w, "timing-note");
    assert!(note.contains("your machine"), "{note}");
    assert!(note.contains("timer step"), "{note}");
}

//! The hazard chapters' widgets (why pool, stale data, return contract) mounted into
//! a real page, in headless Chromium. Expected values come from the lab's own functions.
//!
//! Run by `cargo xtask test` (or `cargo test -p wasm-lab --target wasm32-unknown-unknown`).
#![cfg(target_arch = "wasm32")]

use wasm_bindgen_test::*;
use web_sys::Element;

mod page;
use page::*;

wasm_bindgen_test_configure!(run_in_browser);

/// Commits the right prediction `answer` for the setting on screen and steps the story to its end,
/// where the outcome is drawn (a changed setting asks for a new prediction).
fn see(root: &Element, predict_id: &str, steps: &str, answer: &str) {
    predict(root, predict_id, answer);
    if !absent(root, &format!("{steps}-last")) {
        click(root, &format!("{steps}-last"));
    }
}

fn no_failure(root: &Element) {
    assert!(
        root.query_selector("[data-testid=\"lab-failure\"]")
            .unwrap()
            .is_none(),
        "the widget died: {}",
        root.text_content().unwrap_or_default()
    );
}

// === stale data ===

#[wasm_bindgen_test]
fn stale_widget_shows_the_articles_leak() {
    use wasm_lab::chapter::stale_data::scenario::{Scenario, run};
    let w = mount(r#"<div data-lab-widget="stale-data"></div>"#);
    no_failure(&w);
    // The outcome waits for the reader's prediction.
    assert!(absent(&w, "stale-leaked"));
    see(&w, "stale-predict", "stale-steps", "16");
    assert_eq!(
        by_id(&w, "stale-verdict")
            .get_attribute("data-held")
            .as_deref(),
        Some("true")
    );
    let o = run(&Scenario::default()).unwrap();
    assert_eq!(text(&w, "stale-same"), "yes");
    assert_eq!(text(&w, "stale-arrival"), "41");
    assert_eq!(text(&w, "stale-leaked"), "16");
    assert_eq!(text(&w, "stale-nonzero"), "41");
    assert_eq!(text(&w, "stale-own-text"), o.own_text());
    assert_eq!(text(&w, "stale-leak-text"), "\u{FFFD}้ง|2|18000⏎");
    let hex = by_id(&w, "stale-hex");
    assert_eq!(hex.query_selector_all("span").unwrap().length(), 41);
    assert_eq!(
        hex.query_selector_all("span.lab-leak").unwrap().length(),
        16
    );
    assert!(hex.text_content().unwrap().starts_with("37 7c")); // "7|"

    // Clearing: same buffer, nothing leaks, the tail reads as zeros.
    click(&w, "stale-clear");
    see(&w, "stale-predict", "stale-steps", "0");
    let hex = by_id(&w, "stale-hex");
    assert_eq!(text(&w, "stale-same"), "yes");
    assert_eq!(text(&w, "stale-arrival"), "0");
    assert_eq!(text(&w, "stale-leaked"), "0");
    assert_eq!(text(&w, "stale-leak-text"), "");
    assert_eq!(
        hex.query_selector_all("span.lab-zero").unwrap().length(),
        16
    );
    click(&w, "stale-clear");

    // Another size in the same bucket: still the same buffer; the next bucket: another one.
    type_into(&w, "stale-size2", "33");
    see(&w, "stale-predict", "stale-steps", "16");
    assert_eq!(text(&w, "stale-same"), "yes");
    assert_eq!(text(&w, "stale-leaked"), "16");
    type_into(&w, "stale-size2", "65");
    see(&w, "stale-predict", "stale-steps", "0");
    assert_eq!(text(&w, "stale-same"), "no");
    assert_eq!(text(&w, "stale-arrival"), "0");
    assert!(hidden(&w, "stale-error"));
}

#[wasm_bindgen_test]
fn stale_widget_explains_bad_input_and_recovers() {
    let w = mount(r#"<div data-lab-widget="stale-data"></div>"#);
    predict(&w, "stale-predict", "0");
    for (id, typed, says) in [
        ("stale-size1", "-1", "cannot be negative"),
        ("stale-size1", "abc", "not a number"),
        (
            "stale-size1",
            "16",
            "line is 41 bytes but its buffer is only 16 bytes",
        ),
        ("stale-size1", "2000000", "at most 1,048,576"),
        ("stale-read", "65", "runs past the end"),
        ("stale-read", "99999", "at most 4,096"),
        ("stale-read", "", "type a whole number"),
        ("stale-line2", "x\\q", "not an escape"),
    ] {
        type_into(&w, id, typed);
        error_says(&w, "stale-error", says);
        assert!(
            absent(&w, "stale-leaked"),
            "{id}={typed}: stale result shown"
        );
        no_failure(&w);
        // Back to the default for the next case.
        let default = match id {
            "stale-size1" => "64",
            "stale-read" => "41",
            _ => "7|x\\n",
        };
        type_into(&w, id, default);
        assert!(hidden(&w, "stale-error"), "{id}: error stays after a fix");
    }
    see(&w, "stale-predict", "stale-steps", "37");
    assert_eq!(text(&w, "stale-leaked"), "37"); // "7|x\n" is 4 bytes: 41 − 4 leak
}

// === return contract ===

#[wasm_bindgen_test]
fn contract_widget_shows_each_breach_live() {
    let w = mount(r#"<div data-lab-widget="return-contract"></div>"#);
    no_failure(&w);
    see(&w, "dr-predict", "dr-steps", "yes");
    // Double return, .NET rules: accepted, one buffer for two renters, 11 read through r2.
    assert_eq!(text(&w, "dr-second"), "accepted, no error");
    assert_eq!(text(&w, "dr-same"), "yes");
    assert_eq!(text(&w, "dr-r2"), "11");
    type_into(&w, "dr-value", "203");
    see(&w, "dr-predict", "dr-steps", "yes");
    assert_eq!(text(&w, "dr-r2"), "203");
    // Use after return: the stale write lands in the new renter's price (each misuse asks
    // first, issue 37).
    assert!(absent(&w, "uar-same") && absent(&w, "fr-return") && absent(&w, "mf-without"));
    reveal(&w, "uar-predict", "stale");
    assert_eq!(text(&w, "uar-same"), "yes");
    assert_eq!(text(&w, "uar-write"), "went through, no error");
    assert_eq!(text(&w, "uar-reads"), "99");
    // Foreign return: 128 accepted with its 77; 100 refused with .NET's message.
    reveal(&w, "fr-predict", "yes");
    assert_eq!(text(&w, "fr-return"), "accepted, no error");
    assert_eq!(text(&w, "fr-same"), "yes");
    assert_eq!(text(&w, "fr-reads"), "77");
    type_into(&w, "fr-length", "100");
    reveal(&w, "fr-predict", "no");
    assert!(
        text(&w, "fr-return")
            .contains("The buffer is not associated with this pool and may not be returned to it")
    );
    assert_eq!(text(&w, "fr-same"), "no");
    assert_eq!(text(&w, "fr-reads"), "0");
    // The missing finally: it opens at 100 rounds, one new buffer per round past the stock.
    reveal(&w, "mf-predict", "67");
    assert_eq!(text(&w, "mf-stock"), "33");
    assert_eq!(text(&w, "mf-with"), "0");
    assert_eq!(text(&w, "mf-without"), "67");
    type_into(&w, "mf-rounds", "10000");
    reveal(&w, "mf-predict", "9967");
    assert_eq!(text(&w, "mf-with"), "0");
    assert_eq!(text(&w, "mf-without"), "9,967");
    let bytes = text(&w, "mf-bytes");
    assert!(bytes.starts_with("0 B / "), "{bytes}");
    let forgotten: u64 = bytes["0 B / ".len()..]
        .trim_end_matches(" B")
        .replace(',', "")
        .parse()
        .unwrap();
    assert!(forgotten >= 9_967 * 128, "{bytes}");

    // Checked mode turns each breach into an error.
    click(&w, "contract-checked");
    see(&w, "dr-predict", "dr-steps", "no");
    assert!(text(&w, "dr-second").contains("returned twice"));
    assert_eq!(text(&w, "dr-same"), "no");
    assert_eq!(text(&w, "dr-r2"), "0");
    reveal(&w, "uar-predict", "fresh");
    assert!(text(&w, "uar-write").contains("used after it was returned"));
    assert_eq!(text(&w, "uar-reads"), "200");
    type_into(&w, "fr-length", "128");
    reveal(&w, "fr-predict", "no");
    assert!(text(&w, "fr-return").contains("never rented from this pool"));
    click(&w, "dr-twice");
    see(&w, "dr-predict", "dr-steps", "no");
    assert_eq!(text(&w, "dr-second"), "not made");
    no_failure(&w);
}

#[wasm_bindgen_test]
fn contract_widget_explains_bad_input() {
    let w = mount(r#"<div data-lab-widget="return-contract"></div>"#);
    predict(&w, "dr-predict", "no");
    for (id, error, typed, says) in [
        ("dr-value", "dr-error", "256", "does not fit in a byte"),
        ("dr-value", "dr-error", "-1", "is negative"),
        ("uar-stale", "uar-error", "x", "not a number"),
        ("fr-length", "fr-error", "99999999", "at most 1,048,576"),
        ("fr-value", "fr-error", "", "type a whole number"),
        ("mf-rounds", "mf-error", "100001", "at most 100,000"),
        ("mf-rounds", "mf-error", "1.5", "not a whole number"),
    ] {
        type_into(&w, id, typed);
        error_says(&w, error, says);
        no_failure(&w);
        type_into(&w, id, "64");
        assert!(hidden(&w, error), "{id}: error stays after a fix");
    }
    // A zero-length foreign buffer is ignored by the pool, and the widget says what Rent(0) gives.
    type_into(&w, "fr-length", "0");
    reveal(&w, "fr-predict", "yes");
    assert_eq!(text(&w, "fr-return"), "accepted, no error");
    assert_eq!(text(&w, "fr-reads"), "nothing (an empty buffer)");
}

// === why pool ===

fn bytes_of(shown: &str) -> u64 {
    shown
        .trim_end_matches(" B")
        .replace(',', "")
        .parse()
        .unwrap_or_else(|_| panic!("not a byte count: {shown:?}"))
}

#[wasm_bindgen_test]
fn why_widget_counts_with_the_allocator() {
    let w = mount(r#"<div data-lab-widget="why-pool" data-initial="1000"></div>"#);
    no_failure(&w);
    // Predict first: nothing of the outcome shows before the reader commits.
    assert!(absent(&w, "why-fresh-bytes") && absent(&w, "why-drawing"));
    predict(&w, "why-predict", "pool");
    assert!(text(&w, "why-verdict").contains("Your prediction held"));
    assert!(!absent(&w, "why-drawing"));
    assert_eq!(text(&w, "why-fresh-allocs"), "1,000");
    assert_eq!(text(&w, "why-fresh-bytes"), "128,000 B");
    assert_eq!(text(&w, "why-later-allocs"), "0");
    assert_eq!(text(&w, "why-later-bytes"), "0 B");
    assert_eq!(text(&w, "why-pool-buffers"), "1");
    // The first use is measured here, and the break-even follows from it.
    let first = bytes_of(&text(&w, "why-setup-bytes")) + bytes_of(&text(&w, "why-first-bytes"));
    assert!(first >= 128, "first use {first}");
    let even = wasm_lab::chapter::why_pool::scenario::break_even(first, 128).unwrap();
    assert!(
        text(&w, "why-break-even").starts_with(&even.to_string()),
        "{}",
        text(&w, "why-break-even")
    );
    assert_eq!(bytes_of(&text(&w, "why-pool-bytes")), first);
    assert!(text(&w, "why-note").contains("counting allocator in this page"));

    // The lab's run agrees with what the page shows, and a non-bucket size rounds up in the pool.
    type_into(&w, "why-size", "100");
    type_into(&w, "why-rounds", "50");
    // A new setting asks again.
    assert!(absent(&w, "why-fresh-bytes"));
    predict(&w, "why-predict", "pool");
    let r = wasm_lab::chapter::why_pool::scenario::run(50, 100).unwrap();
    assert!(r.fresh.measured);
    assert_eq!(text(&w, "why-fresh-bytes"), "5,000 B");
    assert_eq!(text(&w, "why-later-allocs"), "0");
    assert_eq!(r.pool_buffer_bytes, 128);
    assert!(hidden(&w, "why-error"));
}

#[wasm_bindgen_test]
fn why_widget_explains_bad_input() {
    let w = mount(r#"<div data-lab-widget="why-pool"></div>"#);
    for (id, typed, says) in [
        ("why-rounds", "-3", "is negative"),
        ("why-rounds", "2000000", "at most 1,000,000"),
        ("why-rounds", "ten", "not a number"),
        ("why-size", "100000", "at most 65,536"),
        ("why-size", "", "type a whole number"),
    ] {
        type_into(&w, id, typed);
        error_says(&w, "why-error", says);
        assert!(absent(&w, "why-fresh-bytes"));
        no_failure(&w);
        type_into(&w, id, if id == "why-rounds" { "10" } else { "128" });
        assert!(hidden(&w, "why-error"));
    }
    type_into(&w, "why-rounds", "1000000");
    type_into(&w, "why-size", "65536");
    assert!(text(&w, "why-error").contains("rounds × size"));
    type_into(&w, "why-size", "0");
    // Fresh buffers of 0 bytes cost nothing: the pool's first use is all the bytes there are.
    predict(&w, "why-predict", "pool");
    assert!(text(&w, "why-predict-nudge").contains("0 B"));
    predict(&w, "why-predict", "pool");
    assert!(text(&w, "why-verdict").contains("Your prediction did not hold"));
    assert_eq!(text(&w, "why-fresh-allocs"), "0");
    assert!(text(&w, "why-break-even").starts_with("never"));
}

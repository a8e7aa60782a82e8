//! The hazard chapters' widgets and quizzes (why pool, stale data, return contract) mounted into
//! a real page, in headless Chromium. Expected values come from the lab's own functions.
//!
//! Run by `cargo xtask test` (or `cargo test -p wasm-lab --target wasm32-unknown-unknown`).
#![cfg(target_arch = "wasm32")]

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, Event, HtmlInputElement};

use wasm_lab::quiz::{Question, quiz};

wasm_bindgen_test_configure!(run_in_browser);

fn page() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

fn mount(html: &str) -> Element {
    let host = page().create_element("div").unwrap();
    host.set_inner_html(html);
    page().body().unwrap().append_child(&host).unwrap();
    wasm_lab::web::mount_all().unwrap();
    host
}

fn by_id(root: &Element, id: &str) -> Element {
    root.query_selector(&format!("[data-testid=\"{id}\"]"))
        .unwrap()
        .unwrap_or_else(|| panic!("no {id}"))
}

fn text(root: &Element, id: &str) -> String {
    by_id(root, id).text_content().unwrap_or_default()
}

fn type_into(root: &Element, id: &str, value: &str) {
    let input: HtmlInputElement = by_id(root, id).dyn_into().unwrap();
    input.set_value(value);
    input.dispatch_event(&Event::new("input").unwrap()).unwrap();
}

fn click(root: &Element, id: &str) {
    by_id(root, id)
        .dyn_into::<web_sys::HtmlElement>()
        .unwrap()
        .click();
}

fn hidden(root: &Element, id: &str) -> bool {
    by_id(root, id).has_attribute("hidden")
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

/// Answers every question of a mounted quiz wrong, then right, as the lab computes it.
fn answer_all(q: &Element, id: &str) {
    let spec = quiz(id).unwrap();
    let items = q.query_selector_all("[data-testid=\"question\"]").unwrap();
    assert_eq!(items.length() as usize, spec.kinds.len());
    for i in 0..items.length() {
        let item: Element = items.item(i).unwrap().dyn_into().unwrap();
        let kind = spec
            .kind(&item.get_attribute("data-kind").unwrap())
            .unwrap();
        let value: u64 = item.get_attribute("data-value").unwrap().parse().unwrap();
        let right = Question::new(kind, value).expected();
        let wrong = if kind.choices().is_empty() {
            (right.parse::<u64>().unwrap() + 1).to_string()
        } else {
            kind.choices()
                .iter()
                .find(|c| **c != right)
                .unwrap()
                .to_string()
        };
        for (given, prefix) in [(&wrong, "✘ Not quite"), (&right, "✔ Correct")] {
            if kind.choices().is_empty() {
                type_into(&item, "answer", given);
            } else {
                click(&item, &format!("choice-{given}"));
            }
            click(&item, "check");
            let feedback = text(&item, "feedback");
            assert!(
                feedback.starts_with(prefix),
                "{} ({value}) answered {given}: {feedback}",
                kind.name()
            );
        }
        click(&item, "next");
        assert_eq!(text(&item, "feedback"), "");
    }
    let n = items.length();
    assert_eq!(
        text(q, "quiz-score"),
        format!("Solved {n} of {n} · {} attempts", 2 * n)
    );
    click(q, "quiz-reset");
}

// === stale data ===

#[wasm_bindgen_test]
fn stale_widget_shows_the_articles_leak() {
    use wasm_lab::quiz::stale::{Scenario, run};
    let w = mount(r#"<div data-lab-widget="stale-data"></div>"#);
    no_failure(&w);
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
    assert_eq!(text(&w, "stale-same"), "yes");
    assert_eq!(text(&w, "stale-leaked"), "16");
    type_into(&w, "stale-size2", "65");
    assert_eq!(text(&w, "stale-same"), "no");
    assert_eq!(text(&w, "stale-arrival"), "0");
    assert!(hidden(&w, "stale-error"));
}

#[wasm_bindgen_test]
fn stale_widget_explains_bad_input_and_recovers() {
    let w = mount(r#"<div data-lab-widget="stale-data"></div>"#);
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
        ("stale-read", "", "Type a request size"),
        ("stale-line2", "x\\q", "not an escape"),
    ] {
        type_into(&w, id, typed);
        assert!(!hidden(&w, "stale-error"), "{id}={typed}: no error");
        assert!(
            text(&w, "stale-error").contains(says),
            "{id}={typed}: {}",
            text(&w, "stale-error")
        );
        assert!(
            hidden(&w, "stale-result"),
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
    assert_eq!(text(&w, "stale-leaked"), "37"); // "7|x\n" is 4 bytes: 41 − 4 leak
}

#[wasm_bindgen_test]
fn stale_quiz_grades_with_the_pool() {
    let q = mount(r#"<div data-lab-quiz="stale-data"></div>"#);
    answer_all(&q, "stale-data");
}

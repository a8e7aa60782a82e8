//! Every quiz mounted into a real page, in headless Chromium: each question answered as a reader
//! does (a mistake, the same mistake again, then the lab's answer), the reveal after two misses,
//! progress kept strictly in `localStorage`, and the progress page reading the same store.
//!
//! Run by `cargo xtask test` (or `cargo test -p wasm-lab --target wasm32-unknown-unknown`).
#![cfg(target_arch = "wasm32")]

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlInputElement};

use wasm_lab::progress::{Progress, STORAGE_KEY};
use wasm_lab::quiz::{Page, Question, quiz, quizzes};

mod page;
use page::*;

wasm_bindgen_test_configure!(run_in_browser);

fn storage() -> web_sys::Storage {
    web_sys::window().unwrap().local_storage().unwrap().unwrap()
}

/// Mounts the quiz `id` with a page carrying [`Page::sample`]'s figures and verdicts.
fn mount_quiz(id: &str, kinds: Option<&str>) -> Element {
    let host = page().create_element("div").unwrap();
    let div = page().create_element("div").unwrap();
    div.set_attribute("data-lab-quiz", id).unwrap();
    div.set_attribute("data-page", &Page::sample().to_json())
        .unwrap();
    if let Some(k) = kinds {
        div.set_attribute("data-kinds", k).unwrap();
    }
    host.append_child(&div).unwrap();
    page().body().unwrap().append_child(&host).unwrap();
    wasm_lab::web::mount_all().unwrap();
    host
}

fn items(q: &Element) -> Vec<Element> {
    let list = q.query_selector_all("[data-testid=\"question\"]").unwrap();
    (0..list.length())
        .map(|i| list.item(i).unwrap().dyn_into().unwrap())
        .collect()
}

/// The question shown in `item`, replayed natively from its parameters.
fn replay(id: &str, item: &Element) -> Question {
    let kind = quiz(id)
        .unwrap()
        .kind(&item.get_attribute("data-kind").unwrap())
        .unwrap();
    kind.replay(&item.get_attribute("data-params").unwrap(), &Page::sample())
        .unwrap()
}

/// Types or picks `given` and clicks Check; returns the feedback.
fn answer(item: &Element, q: &Question, given: &str) -> String {
    if q.solution.numeric {
        type_into(item, "answer", given);
    } else {
        let radios = item.query_selector_all("input[type=radio]").unwrap();
        let mut found = false;
        for i in 0..radios.length() {
            let r: HtmlInputElement = radios.item(i).unwrap().dyn_into().unwrap();
            if r.value() == given {
                r.set_checked(true);
                found = true;
            }
        }
        assert!(found, "{q:?}: no option {given}");
    }
    click(item, "check");
    text(item, "feedback")
}

#[wasm_bindgen_test]
fn every_quiz_grades_with_the_lab() {
    storage().remove_item(STORAGE_KEY).unwrap();
    for spec in quizzes() {
        let id = spec.id;
        let q = mount_quiz(id, None);
        let items = items(&q);
        assert_eq!(items.len(), spec.kinds.len(), "{id}");
        for item in &items {
            let question = replay(id, item);
            // Labelled by the question: a legend for options, aria-labelledby for a typed answer.
            if question.solution.numeric {
                let input = by_id(item, "answer");
                let label = input.get_attribute("aria-labelledby").unwrap();
                assert_eq!(by_id(item, "prompt").id(), label);
            } else {
                let legend = item.query_selector("fieldset > legend").unwrap();
                assert!(legend.is_some(), "{id}: options without a legend");
            }
            let wrong = question.wrong_answer();
            let first = answer(item, &question, &wrong);
            assert!(first.starts_with("✘ Not quite"), "{id}: {first}");
            assert!(!first.contains("The answer is"), "{id}: {first}");
            let again = answer(item, &question, &wrong);
            assert!(again.starts_with("You already tried"), "{id}: {again}");
            let right = answer(item, &question, &question.right_answer());
            assert!(right.starts_with("✔ Correct"), "{id}: {right}");
            click(item, "next");
            assert_eq!(text(item, "feedback"), "");
            assert!(!by_id(item, "solved-mark").has_attribute("hidden"));
        }
        let n = items.len();
        assert_eq!(
            text(&q, "quiz-score"),
            format!("Solved {n} of {n} · {} attempts · 0 answers shown", 2 * n),
            "{id}"
        );
    }
}

#[wasm_bindgen_test]
fn second_miss_reveals_and_progress_records_it() {
    storage().remove_item(STORAGE_KEY).unwrap();
    let q = mount_quiz("bucket-rounding", Some("wasted-bytes,buffer-length"));
    let item = q
        .query_selector("[data-kind=\"wasted-bytes\"]")
        .unwrap()
        .unwrap();
    let question = replay("bucket-rounding", &item);
    let right: u64 = question.right_answer().parse().unwrap();
    // Unreadable input is explained and not counted.
    assert!(answer(&item, &question, "abc").contains("could not be read"));
    assert_eq!(
        text(&q, "quiz-score"),
        "Solved 0 of 2 · 0 attempts · 0 answers shown"
    );
    let first = answer(&item, &question, &(right + 1).to_string());
    assert!(!first.contains("The answer is"), "{first}");
    let second = answer(&item, &question, &(right + 2).to_string());
    assert!(
        second.contains(&format!("The answer is {}", question.solution.shown())),
        "{second}"
    );
    assert_eq!(
        text(&q, "quiz-score"),
        "Solved 0 of 2 · 2 attempts · 1 answer shown"
    );
    // Show answer on the other question.
    let other = q
        .query_selector("[data-kind=\"buffer-length\"]")
        .unwrap()
        .unwrap();
    click(&other, "reveal");
    assert!(text(&other, "feedback").starts_with("The answer is"));
    let saved = Progress::from_json(&storage().get_item(STORAGE_KEY).unwrap().unwrap()).unwrap();
    // A mount with `kinds=` is a short check: it keeps its own record, apart from the chapter's.
    let check = wasm_lab::progress::record_key("bucket-rounding", true);
    assert_eq!(saved.tally(&check, "buffer-length").revealed, 1);
    assert_eq!(saved.tally(&check, "wasted-bytes").attempts, 2);
    assert_eq!(saved.tally("bucket-rounding", "wasted-bytes").attempts, 0);
}

#[wasm_bindgen_test]
fn corrupt_progress_is_set_aside_in_a_readers_words() {
    storage()
        .set_item(STORAGE_KEY, "{\"version\":1,\"quizzes\":7}")
        .unwrap();
    let q = mount_quiz("bucket-rounding", None);
    let notice = text(&q, "quiz-notice");
    assert!(notice.contains("could not be read"), "{notice}");
    assert!(!notice.contains("expected"), "parser words: {notice}");
    assert_eq!(
        storage()
            .get_item(&format!("{STORAGE_KEY}.unreadable"))
            .unwrap()
            .as_deref(),
        Some("{\"version\":1,\"quizzes\":7}")
    );
}

#[wasm_bindgen_test]
fn solved_questions_show_so_after_a_reload_and_reset_asks_first() {
    storage().remove_item(STORAGE_KEY).unwrap();
    let q = mount_quiz("capacity", None);
    let item = q
        .query_selector("[data-kind=\"capacity\"]")
        .unwrap()
        .unwrap();
    let question = replay("capacity", &item);
    answer(&item, &question, &question.right_answer());
    // A second mount reads the same store, as a reload does.
    let again = mount_quiz("capacity", None);
    let item = again
        .query_selector("[data-kind=\"capacity\"]")
        .unwrap()
        .unwrap();
    assert_eq!(item.get_attribute("data-solved").as_deref(), Some("true"));
    assert!(text(&item, "solved-mark").contains("solved this question before"));
    // Reset asks first; "Keep it" keeps.
    click(&again, "quiz-reset");
    assert!(!by_id(&again, "quiz-reset-confirm").has_attribute("hidden"));
    click(&again, "quiz-reset-no");
    assert!(text(&again, "quiz-score").starts_with("Solved 1 of"));
    click(&again, "quiz-reset");
    click(&again, "quiz-reset-yes");
    assert!(text(&again, "quiz-score").starts_with("Solved 0 of"));
    assert_eq!(item.get_attribute("data-solved").as_deref(), Some("false"));
}

#[wasm_bindgen_test]
fn progress_page_lists_every_quiz() {
    storage().remove_item(STORAGE_KEY).unwrap();
    let mut p = Progress::default();
    p.record("cliff", "glibc-chunk", false);
    p.record("cliff", "glibc-chunk", true);
    p.reveal("cliff", "new-in-loh");
    storage().set_item(STORAGE_KEY, &p.to_json()).unwrap();
    let host = mount(r#"<div data-lab-progress></div>"#);
    for spec in quizzes() {
        by_id(&host, &format!("progress-{}", spec.id));
    }
    let row = by_id(&host, "progress-cliff");
    assert_eq!(
        text(&row, "solved"),
        format!("1 of {}", quiz("cliff").unwrap().kinds.len())
    );
    assert_eq!(text(&row, "attempts"), "2");
    assert_eq!(text(&row, "revealed"), "1");
    click(&row, "reset");
    click(&row, "reset-yes");
    assert_eq!(text(&row, "attempts"), "0");
    // Reset all asks first too.
    let mut p = Progress::default();
    p.record("capacity", "capacity", true);
    storage().set_item(STORAGE_KEY, &p.to_json()).unwrap();
    let host = mount(r#"<div data-lab-progress></div>"#);
    let row = by_id(&host, "progress-capacity");
    assert_eq!(text(&row, "attempts"), "1");
    click(&host, "reset-all");
    assert!(!by_id(&host, "reset-all-confirm").has_attribute("hidden"));
    assert_eq!(text(&row, "attempts"), "1");
    click(&host, "reset-all-yes");
    assert_eq!(text(&row, "attempts"), "0");
    assert!(
        Progress::from_json(&storage().get_item(STORAGE_KEY).unwrap().unwrap())
            .unwrap()
            .tally("cliff", "glibc-chunk")
            .attempts
            == 0
    );
}

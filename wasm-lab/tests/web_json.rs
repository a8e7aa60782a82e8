//! The wasm build's own JSON reading (`JSON.parse` and a walk, where natively `serde_json`
//! reads): as strict as the native reader on the same texts, and reading back what is written.
//!
//! Run by `cargo xtask test` (or `cargo test -p wasm-lab --features replay --target
//! wasm32-unknown-unknown`).
#![cfg(target_arch = "wasm32")]

use wasm_bindgen_test::*;

use wasm_lab::progress::{Progress, Tally, UNTRUSTED};
use wasm_lab::quiz::Page;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn progress_refuses_what_it_cannot_trust() {
    for bad in UNTRUSTED {
        let e = Progress::from_json(bad).expect_err(bad);
        assert!(!e.0.is_empty(), "{bad}: no reason");
    }
}

#[wasm_bindgen_test]
fn progress_reads_what_it_writes_and_version_one() {
    let mut p = Progress::default();
    p.record("q", "k", false);
    p.record("q", "k", true);
    p.reveal("q", "k");
    p.record("r\"", "é", false);
    assert_eq!(Progress::from_json(&p.to_json()), Ok(p));
    let old = Progress::from_json(
        "{\"version\":1,\"quizzes\":{\"q\":{\"k\":{\"attempts\":2,\"correct\":1}}}}",
    )
    .unwrap();
    assert_eq!(
        old.tally("q", "k"),
        Tally {
            attempts: 2,
            correct: 1,
            revealed: 0
        }
    );
}

#[wasm_bindgen_test]
fn page_reads_what_the_preprocessor_writes_and_refuses_the_rest() {
    // `to_json` is `serde_json`'s, as the preprocessor writes it.
    let page = Page::sample();
    assert_eq!(Page::from_json(&page.to_json()), Ok(page));
    assert_eq!(Page::from_json(""), Ok(Page::default()));
    assert_eq!(Page::from_json("{}"), Ok(Page::default()));
    for bad in Page::UNREADABLE {
        let e = Page::from_json(bad).expect_err(bad);
        assert!(e.starts_with("the page's quiz data is unreadable"), "{e}");
    }
}

//! Widget views that measure with the counting allocator, natively: the static default the
//! book's build prints for them, and their wording at the edges.
//!
//! Native only: the wasm build registers the counting allocator itself.
#![cfg(not(target_arch = "wasm32"))]

use bufpool::alloc_count::CountingAlloc;
use wasm_lab::view::{self, Env, Inputs};

#[global_allocator]
static GLOBAL: CountingAlloc<std::alloc::System> = CountingAlloc::new(std::alloc::System);

fn view_of(name: &str, edits: &[(&str, &str)]) -> view::View {
    let w = view::widget(name).unwrap();
    let mut inputs = Inputs::from_form(&(w.form)(""));
    for (k, v) in edits {
        inputs.set(k, *v);
    }
    (w.view)(&inputs, &Env::default())
}

#[test]
fn every_widget_has_a_static_default() {
    for w in view::widgets() {
        let v = view_of(w.name, &[]);
        assert!(
            v.slots.iter().all(|s| s.error.is_none()),
            "{}: {:?}",
            w.name,
            v.slots
        );
    }
    let v = view_of("chunking", &[]);
    assert!(v.text().contains("EnumerableChunkIterator"), "{}", v.text());
}

#[test]
fn chunking_with_no_elements_says_there_are_no_chunks() {
    let v = view_of("chunking", &[("chunk-len", "0")]);
    assert!(v.slots[0].error.is_none(), "{:?}", v.slots[0].error);
    assert!(
        v.text().contains("an empty source has no chunks"),
        "{}",
        v.text()
    );
    let v = view_of("chunking", &[("chunk-size", "0")]);
    assert!(v.slots[0].error.as_deref().unwrap().contains("at least 1"));
}

#[test]
fn why_pool_counts_when_built() {
    let v = view_of("why-pool", &[]);
    assert!(v.text().contains("when the book was built"), "{}", v.text());
    // The question first; readers without scripts get the outcome and its drawing under it.
    let html = view::html::slot(&v.slots[0]);
    let (ask, unscripted, drawn) = (
        html.find("data-testid=\"why-predict\""),
        html.find("lab-unscripted"),
        html.find("data-testid=\"why-drawing\""),
    );
    assert!(
        ask < unscripted && unscripted < drawn && ask.is_some(),
        "{html}"
    );
    // Committed, the verdict comes first, then the outcome.
    let v = view_of("why-pool", &[("why-predict", "pool")]);
    let html = view::html::slot(&v.slots[0]);
    assert!(
        html.contains("Your prediction held") && !html.contains("lab-unscripted"),
        "{html}"
    );
}

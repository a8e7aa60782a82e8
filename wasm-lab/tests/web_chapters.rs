//! The chapter 5–8 widgets mounted into a real page, in headless Chromium: values
//! against the lab, bad input explained (their quizzes: `web_quizzes.rs`).
#![cfg(target_arch = "wasm32")]

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlSelectElement};

use lab_text::group_digits;

mod page;
use page::*;

wasm_bindgen_test_configure!(run_in_browser);

fn choose(root: &Element, id: &str, value: &str) {
    let select: HtmlSelectElement = by_id(root, id).dyn_into().unwrap();
    select.set_value(value);
    assert_eq!(select.value(), value, "{id} has no option {value}");
    select.dispatch_event(&event("change")).unwrap();
}

#[wasm_bindgen_test]
fn capacity_widget_runs_the_pool() {
    let w = mount(r#"<div data-lab-widget="capacity" data-initial="8/32/258/128"></div>"#);
    no_error(&w, "cap-error");
    // Nothing before the reader's prediction (issue 37): one 128-byte buffer a round.
    assert!(absent(&w, "cap-capacity"));
    reveal(&w, "cap-predict", "128");
    assert_eq!(text(&w, "cap-capacity"), "257");
    assert_eq!(text(&w, "cap-length"), "128");
    assert_eq!(text(&w, "cap-r1-new"), "258");
    assert_eq!(text(&w, "cap-r2-new"), "1");
    assert_eq!(text(&w, "cap-r2-bytes"), "128");
    // The counting allocator is installed in the wasm build: one 128-byte buffer per round.
    assert_eq!(text(&w, "cap-r2-counted"), "128");
    assert_eq!(text(&w, "cap-r3-kept"), "257");
    assert_eq!(text(&w, "cap-trim2"), "0");
    assert!(text(&w, "cap-create").starts_with("yes"));
    // The override of the Thai article: P = 2, M = 32 → 65.
    type_into(&w, "cap-p", "2");
    reveal(&w, "cap-predict", &(193 * 128).to_string());
    assert_eq!(text(&w, "cap-capacity"), "65");
    assert_eq!(text(&w, "cap-r2-new"), "193");
    assert_eq!(text(&w, "cap-r2-bytes"), group_digits(193 * 128));
    type_into(&w, "cap-size", "1,048,577");
    type_into(&w, "cap-k", "3");
    reveal(&w, "cap-predict", "0");
    assert_eq!(text(&w, "cap-length"), "2,097,152");
    assert!(text(&w, "cap-create").starts_with("no"));
    for (id, typed, says) in [
        ("cap-p", "0", "out of range"),
        ("cap-p", "-1", "is negative"),
        ("cap-m", "0", "at least 1"),
        ("cap-k", "abc", "not a number"),
        ("cap-k", "100001", "at most 100,000"),
        ("cap-k", "100", "64 MiB"),
    ] {
        type_into(&w, "cap-p", "2");
        type_into(&w, "cap-m", "32");
        type_into(&w, id, typed);
        error_says(&w, "cap-error", says);
        assert!(absent(&w, "cap-capacity"));
    }
    type_into(&w, "cap-k", "2");
    no_error(&w, "cap-error");
}

#[wasm_bindgen_test]
fn cliff_widget_computes_each_edge() {
    let w = mount(r#"<div data-lab-widget="cliff" data-initial="81920"></div>"#);
    no_error(&w, "cliff-error");
    let loh = |n: u64| {
        use wasm_lab::chapter::cliff::scenario::{Elem, cliff};
        if cliff(n, Elem::Byte).pool_in_loh {
            "yes"
        } else {
            "no"
        }
    };
    assert!(absent(&w, "cliff-pool-loh"));
    reveal(&w, "cliff-predict", loh(81_920));
    assert_eq!(text(&w, "cliff-dotnet-loh"), "no");
    assert_eq!(text(&w, "cliff-pool-bucket"), "13, 131,072");
    assert!(text(&w, "cliff-pool-loh").starts_with("yes — pushed"));
    assert_eq!(text(&w, "cliff-glibc-chunk"), "81,936");
    assert!(text(&w, "cliff-glibc-mmap").starts_with("no"));
    assert!(text(&w, "cliff-rust-pool").contains("mmap side"));
    assert!(
        text(&w, "cliff-wasm").contains("pages of 64 KiB"),
        "{}",
        text(&w, "cliff-wasm")
    );
    commit_into(&w, "cliff-input", "84976");
    reveal(&w, "cliff-predict", loh(84_976));
    assert_eq!(text(&w, "cliff-dotnet-loh"), "yes");
    assert_eq!(text(&w, "cliff-first-loh"), "84,976");
    choose(&w, "cliff-elem", "int");
    assert_eq!(text(&w, "cliff-first-loh"), "21,244");
    choose(&w, "cliff-elem", "reference");
    assert_eq!(text(&w, "cliff-first-loh"), "10,622");
    choose(&w, "cliff-elem", "byte");
    commit_into(&w, "cliff-input", "131049");
    reveal(&w, "cliff-predict", loh(131_049));
    assert!(text(&w, "cliff-glibc-mmap").starts_with("yes"));
    // At the threshold: mapped in whole pages, or the heap's chunk if the heap serves it.
    assert_eq!(
        text(&w, "cliff-glibc-chunk"),
        "135,168 when mapped (whole pages); 131,072 if the heap serves it"
    );
    commit_into(&w, "cliff-input", "200000");
    reveal(&w, "cliff-predict", loh(200_000));
    assert_eq!(text(&w, "cliff-glibc-after"), "raised to 200,704");
    for (typed, says) in [
        ("", "type a whole number"),
        ("-3", "negative"),
        ("2.5", "whole"),
    ] {
        commit_into(&w, "cliff-input", typed);
        error_says(&w, "cliff-error", says);
        assert!(absent(&w, "cliff-pool-bucket"));
    }
    commit_into(&w, "cliff-input", "2147483591");
    no_error(&w, "cliff-error");
    reveal(&w, "cliff-predict", loh(2_147_483_591));
    assert!(text(&w, "cliff-wasm").starts_with("not tried"));
}

#[wasm_bindgen_test]
fn chunk_widget_measures_blocks_live() {
    let w = mount(
        r#"<div data-lab-widget="chunking" data-initial="100000/20000/vec/dotnet-chunk"></div>"#,
    );
    no_error(&w, "chunk-error");
    assert!(absent(&w, "chunk-path"));
    reveal(&w, "chunk-predict", "14");
    assert_eq!(text(&w, "chunk-path"), "EnumerableChunkIterator");
    assert_eq!(text(&w, "chunk-first"), "14, 211,056");
    assert_eq!(text(&w, "chunk-later"), "1, 80,000");
    assert_eq!(text(&w, "chunk-dotnet"), "211,504, 80,024");
    assert_eq!(text(&w, "chunk-loh"), "no");
    assert!(text(&w, "chunk-blocks").starts_with("14 blocks: 4, 8, 16, …, 16,384, 20,000"));
    choose(&w, "chunk-source", "slice");
    reveal(&w, "chunk-predict", "1");
    assert_eq!(text(&w, "chunk-path"), "ArrayChunkIterator");
    assert_eq!(text(&w, "chunk-first"), "1, 80,000");
    choose(&w, "chunk-strategy", "slice-chunks");
    reveal(&w, "chunk-predict", "0");
    assert_eq!(text(&w, "chunk-first"), "0, 0");
    choose(&w, "chunk-strategy", "pooled");
    reveal(&w, "chunk-predict", "1");
    let row = by_id(&w, "row-pooled");
    assert_eq!(text(&row, "later-bytes"), "0");
    assert!(text(&w, "chunk-blocks").contains("32,768"));
    // A pool already used on this thread: the bucket buffer alone, the quiz's answer for the
    // same size; the pool's first use (its slot table) is a line of its own.
    let first: u64 = text(&row, "first-bytes").replace(',', "").parse().unwrap();
    let quiz = wasm_lab::chapter::chunking::scenario::pooled_first_bytes(20_000).unwrap();
    assert_eq!((first, quiz), (131_072, 131_072));
    let first_use = text(&w, "chunk-pool-first-use");
    let slot_table: u64 = first_use
        .rsplit(", ")
        .next()
        .unwrap()
        .replace(',', "")
        .parse()
        .unwrap();
    assert!(slot_table > 0, "{first_use}");
    type_into(&w, "chunk-size", "25000");
    choose(&w, "chunk-strategy", "dotnet-array-path");
    reveal(&w, "chunk-predict", "1");
    assert_eq!(text(&w, "chunk-loh"), "yes");
    choose(&w, "chunk-source", "iterator");
    error_says(&w, "chunk-error", "needs contiguous data");
    choose(&w, "chunk-strategy", "reused-buffer");
    no_error(&w, "chunk-error");
    for (id, typed, says) in [
        ("chunk-size", "0", "at least 1"),
        ("chunk-size", "99999999", "at most"),
        ("chunk-len", "x", "not a number"),
        ("chunk-len", "5000000", "at most 4,000,000"),
    ] {
        type_into(&w, "chunk-len", "1000");
        type_into(&w, "chunk-size", "100");
        type_into(&w, id, typed);
        error_says(&w, "chunk-error", says);
        assert!(absent(&w, "chunk-first"));
    }
}

#[wasm_bindgen_test]
fn const_rent_widget_counts_copies() {
    let w = mount(r#"<div data-lab-widget="size-specialized"></div>"#);
    no_error(&w, "spec-error");
    type_into(&w, "spec-input", "100; 128 64 4,096; 100; 0");
    reveal(&w, "spec-predict", "3");
    assert_eq!(text(&w, "spec-sizes"), "4");
    assert_eq!(text(&w, "spec-buckets"), "3");
    assert_eq!(text(&w, "spec-runtime"), "1");
    let rows = w.query_selector_all("[data-testid=\"spec-row\"]").unwrap();
    assert_eq!(rows.length(), 6);
    let first: Element = rows.item(0).unwrap().dyn_into().unwrap();
    assert_eq!(text(&first, "spec-index"), "3");
    assert_eq!(text(&first, "spec-go"), "no");
    for (typed, says) in [
        ("", "Type one or more"),
        ("12; -4", "negative"),
        ("1x", "not a number"),
    ] {
        type_into(&w, "spec-input", typed);
        error_says(&w, "spec-error", says);
        assert!(absent(&w, "spec-buckets"));
    }
}

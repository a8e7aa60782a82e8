//! The counting allocator in the browser: the wasm build registers it in `lib.rs`, and its numbers
//! must be the hand-computable ones (Rust requests the same bytes on wasm32 as natively; only
//! pointer-sized things are smaller).
//!
//! Run with
//! `CHROMEDRIVER=/usr/bin/chromedriver WASM_BINDGEN_TEST_TIMEOUT=120 cargo test -p wasm-lab --target wasm32-unknown-unknown --test wasm_alloc`.

#![cfg(target_arch = "wasm32")]

// The lab registers the counting allocator as the wasm build's global allocator (its lib.rs):
// linked here, though this test names only the pool's modules.
extern crate wasm_lab;

use course_pool::alloc_count::{self, measure};
use course_pool::chunk::dotnet::EnumerableChunkIterator;
use course_pool::chunk::{
    Mode, Plan, Source, SourceKind, Strategy, UnknownLen, blocks, predict_blocks, run,
};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn the_wasm_build_registers_the_counting_allocator() {
    assert!(alloc_count::installed());
}

#[wasm_bindgen_test]
fn one_vec_with_capacity_1000_is_one_block_of_1000_bytes() {
    let (v, s) = measure(|| Vec::<u8>::with_capacity(1000)).unwrap();
    assert_eq!(v.capacity(), 1000);
    assert_eq!((s.allocations, s.deallocations, s.reallocations), (1, 0, 0));
    assert_eq!(
        (s.bytes_allocated, s.peak_live_bytes, s.net_live_bytes),
        (1000, 1000, 1000)
    );
    let (_, s) = measure(|| drop(v)).unwrap();
    assert_eq!(
        (s.deallocations, s.bytes_freed, s.net_live_bytes),
        (1, 1000, -1000)
    );
}

#[wasm_bindgen_test]
fn pushing_five_i32_allocates_4_then_reallocates_to_8() {
    let (_, s) = measure(|| {
        let mut v = Vec::new();
        for i in 0..5_i32 {
            v.push(i);
        }
        v.len()
    })
    .unwrap();
    assert_eq!((s.allocations, s.reallocations), (1, 1));
    assert_eq!((s.bytes_allocated, s.bytes_reallocated), (16, 32));
}

#[wasm_bindgen_test]
fn enumerable_path_first_chunk_of_20000_i32_is_14_arrays() {
    let mut it = EnumerableChunkIterator::new(UnknownLen(0..40_000_i32), 20_000).unwrap();
    let (first, s) = measure(|| it.next().unwrap()).unwrap();
    assert_eq!(first.len(), 20_000);
    assert_eq!((s.allocations, s.deallocations), (14, 13));
    assert_eq!(s.bytes_allocated, 211_056);
    assert_eq!(s.peak_live_bytes, (16_384 + 20_000) * 4);
    let (_, s) = measure(|| it.next().unwrap()).unwrap();
    assert_eq!((s.allocations, s.bytes_allocated), (1, 80_000));
}

#[wasm_bindgen_test]
fn ten_items_at_size_100_cost_4_8_16_then_10() {
    let data: Vec<i32> = (1..=10).collect();
    let plan = Plan {
        strategy: Strategy::DotnetChunk,
        size: 100,
        mode: Mode::Drop,
        max_chunks: None,
    };
    let (r, s) = measure(|| run(plan, Source::Vec(&data), None, &mut |_| ())).unwrap();
    assert_eq!(r.unwrap().path, "EnumerableChunkIterator");
    assert_eq!(s.allocations, 4);
    assert_eq!(s.bytes_allocated, (4 + 8 + 16 + 10) * 4);
    // The same call on a slice takes the array path: one exact array.
    let (r, s) = measure(|| run(plan, Source::Slice(&data), None, &mut |_| ())).unwrap();
    assert_eq!(r.unwrap().path, "ArrayChunkIterator");
    assert_eq!((s.allocations, s.bytes_allocated), (1, 40));
    // And an empty source allocates nothing.
    let empty: Vec<i32> = Vec::new();
    let (_, s) = measure(|| run(plan, Source::Yielded(&empty), None, &mut |_| ())).unwrap();
    assert_eq!(s.allocations, 0);
}

#[wasm_bindgen_test]
fn blocks_report_in_wasm_matches_the_formulas() {
    for (len, size) in [(40_000, 20_000), (10, 100), (1_000, 7)] {
        let report = blocks::<i32>(len, size).unwrap();
        for row in &report.rows {
            assert_eq!(row.first, row.predicted_first, "{row:?}");
            assert_eq!(row.later, row.predicted_later, "{row:?}");
        }
    }
    let report = blocks::<u8>(300, 100).unwrap();
    let row = report
        .row(Strategy::CollectVec, SourceKind::Yielded)
        .unwrap();
    // `collect` into a `Vec<u8>`: 8, 16, 32, 64, 128 = 1 allocation + 4 reallocations.
    assert_eq!((row.first.allocations, row.first.reallocations), (1, 4));
    assert_eq!(
        predict_blocks(Strategy::CollectVec, SourceKind::Yielded, 300, 100, 1, 0)
            .unwrap()
            .len(),
        5
    );
}

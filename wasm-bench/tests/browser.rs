//! The browser's groups on the page's own clock (`performance.now()`), in headless Chromium
//! (`cargo xtask test`'s wasm step): every group runs, every sample is a time, and the clock
//! moves. This checks behaviour only; the timings themselves are the bench's.

#![cfg(target_arch = "wasm32")]

use std::time::Duration;

use wasm_bench::groups::{NAMES, run};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn every_group_runs_on_the_page_clock() {
    let plan = bench_paired::Plan {
        rounds: 2,
        batch: Duration::from_micros(500),
        warm_up: Duration::ZERO,
    };
    let started = wasm_bench::clock();
    for (i, name) in NAMES.iter().enumerate() {
        let g = run(i, plan).unwrap_or_else(|| panic!("group {name} did not run"));
        assert_eq!(g.name, *name);
        for m in &g.members {
            assert_eq!(m.samples.len(), 2, "{}", m.key);
            assert!(
                m.samples.iter().all(|x| x.is_finite() && *x >= 0.0),
                "{}: {:?}",
                m.key,
                m.samples
            );
        }
    }
    assert!(
        wasm_bench::clock() > started,
        "performance.now() did not move"
    );
    // The samples travel to the native bench as JSON: they read back as the same groups.
    let g = run(0, plan).unwrap();
    let text = serde_json::to_string(&g).unwrap();
    let back: wasm_bench::GroupSamples = serde_json::from_str(&text).unwrap();
    assert_eq!((&back.name, back.members.len()), (&g.name, g.members.len()));
    assert_eq!(back.ratios, g.ratios);
}

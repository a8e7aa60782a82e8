//! The bench's `wasm32` runtime: the operations the native bench times where the runtime matters
//! — rent + return against a fresh `Vec`, clearing by size, the chunk strategies, and a big
//! block on either side of glibc's mmap threshold — compiled as the lab is for readers
//! (`wasm32-unknown-unknown`, the `wasm-release` profile, `wasm-opt -Oz`) and timed in headless
//! Chromium with the bench's own method: paired rounds ([`bench_paired`]), batches long enough for
//! the page's `performance.now()`.
//!
//! The page (`native-bench`'s `wasm32` command writes it, see `native-bench/src/wasm32.rs`) calls
//! `group_count()` and then `run_group(i, quick)` once per group (the wasm32 build's exports),
//! yielding to the browser between groups, and posts the samples back. The numbers become figures in `native-bench`, with the same
//! statistics and noise gate as every other runtime: this crate only times.
//!
//! The groups' keys and titles are the native suites' (a test compares them with the committed
//! data), so the book's tables and charts show `wasm32` as one more column or series.

#![forbid(unsafe_code)]

pub mod groups;

use serde::{Deserialize, Serialize};

/// One paired group's samples: what `native-bench` turns into figures.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct GroupSamples {
    /// The group's name (the progress line's).
    pub name: String,
    /// Each member's key, title and per-round time per iteration (ns), in round order.
    pub members: Vec<MemberSamples>,
    /// Ratios of two members, paired round by round.
    pub ratios: Vec<Ratio>,
}

/// One operation's samples.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct MemberSamples {
    pub key: String,
    pub title: String,
    pub samples: Vec<f64>,
}

/// A ratio figure `key` = `numerator` ÷ `denominator` (member keys of the same group).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Ratio {
    pub key: String,
    pub title: String,
    pub numerator: String,
    pub denominator: String,
}

/// How long to measure, as the native bench's modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Quick,
    Full,
}

impl Mode {
    /// The browser's plan: batches ten times the native ones, since `performance.now()` ticks in
    /// 5 µs on a cross-origin isolated page (100 µs otherwise, plus jitter); a 10 ms batch keeps
    /// a tick under 0.1 % of it. Half the native rounds, so a full run stays within minutes.
    pub fn plan(self) -> bench_paired::Plan {
        use std::time::Duration;
        match self {
            Mode::Quick => bench_paired::Plan {
                rounds: 30,
                batch: Duration::from_millis(2),
                warm_up: Duration::from_millis(50),
            },
            Mode::Full => bench_paired::Plan {
                rounds: 200,
                batch: Duration::from_millis(10),
                warm_up: Duration::from_millis(250),
            },
        }
    }
}

/// The clock: `performance.now()` in the browser (window or worker), the system's natively (the
/// tests).
#[cfg(target_arch = "wasm32")]
pub fn clock() -> std::time::Duration {
    use wasm_bindgen::JsCast;
    thread_local! {
        static PERFORMANCE: Option<web_sys::Performance> = {
            let global = js_sys::global();
            match global.dyn_ref::<web_sys::Window>() {
                Some(w) => w.performance(),
                None => global
                    .dyn_ref::<web_sys::WorkerGlobalScope>()
                    .and_then(|w| w.performance()),
            }
        };
    }
    let ms = PERFORMANCE.with(|p| p.as_ref().map_or(0.0, |p| p.now()));
    std::time::Duration::from_secs_f64(ms.max(0.0) / 1e3)
}

/// The clock: `performance.now()` in the browser, the system's natively (the tests).
#[cfg(not(target_arch = "wasm32"))]
pub fn clock() -> std::time::Duration {
    bench_paired::system_clock()
}

/// Measures group `index` of [`groups::NAMES`]; `None` past the end.
pub fn measure(index: usize, mode: Mode) -> Option<GroupSamples> {
    groups::run(index, mode.plan())
}

#[cfg(target_arch = "wasm32")]
mod web {
    use wasm_bindgen::prelude::*;

    /// How many groups [`run_group`] takes.
    #[wasm_bindgen]
    pub fn group_count() -> usize {
        super::groups::NAMES.len()
    }

    /// Group `index`'s name (for the page's progress line).
    #[wasm_bindgen]
    pub fn group_name(index: usize) -> String {
        super::groups::NAMES
            .get(index)
            .map_or(String::new(), |n| n.to_string())
    }

    /// Measures group `index` and returns its samples as JSON (`GroupSamples`), or an error.
    #[wasm_bindgen]
    pub fn run_group(index: usize, quick: bool) -> Result<String, JsValue> {
        let mode = if quick {
            super::Mode::Quick
        } else {
            super::Mode::Full
        };
        let samples = super::measure(index, mode)
            .ok_or_else(|| JsValue::from_str(&format!("no group {index}")))?;
        serde_json::to_string(&samples).map_err(|e| JsValue::from_str(&e.to_string()))
    }
}

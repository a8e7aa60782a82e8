//! The course's live part: each chapter's runs of the pool and chunker (the `bufpool` crate), its
//! widgets and its quizzes.
//!
//! The same code runs in two places. Natively it is tested, and the book's build draws each
//! widget's default state and prints each quiz from it; compiled to `wasm32-unknown-unknown` it
//! powers the widgets and live quizzes in the book (see `web`, present only in the wasm build).
//! Nothing here talks to the outside world, so nothing here can fail for reasons other than its
//! input: every misuse is a typed error, never a panic.
//!
//! - [`calc`]: the bucket calculator's full answer for one request, with the formula's steps.
//! - [`decimal`]: floats as fixed-point text, without core's float formatter.
//! - [`html`]: the workspace's one HTML escaper (widgets and the book's preprocessor).
//! - [`input`]: parsing what a reader types into a widget, with messages a reader understands.
//! - [`progress`]: a student's quiz progress as the browser stores it, read strictly.
//! - [`quiz`]: live quiz questions whose answers are computed by the lab itself.
//! - [`scenario`]: each chapter's runs of the real pool and chunker, shared by its widget, its quiz
//!   and the tests.

// A chapter page's module (built without `all-chapters`, see `Cargo.toml`) leaves the other
// chapters' code unreached on purpose: the linker drops it, and the compiler need not say so.
#![cfg_attr(not(feature = "all-chapters"), allow(dead_code, unused_imports))]

pub mod calc;
pub mod decimal;
pub mod html;
pub mod input;
mod json;
pub mod progress;
pub mod quiz;
pub mod scenario;
pub mod view;

#[cfg(target_arch = "wasm32")]
mod code_probe;
#[cfg(target_arch = "wasm32")]
pub mod web;

/// The wasm modules the book ships, one per kind of page, each built with its own Cargo feature
/// only: each chapter with a live part (its widget and quiz) and `progress` (the progress page's
/// table, no chapter's code). `theme/lab-loader.js` imports `wasm/<module>/` for each module the
/// page's mount points name, and `mountAll(module)` mounts that module's own mount points.
pub const MODULES: &[&str] = &[
    "why-pool",
    "bucket-rounding",
    "stale-data",
    "return-contract",
    "capacity",
    "cliff",
    "chunking",
    "size-specialized",
    "method",
    "progress",
];

/// The widgets the wasm build can mount, by the name used in `{{#lab-widget NAME}}`.
pub const WIDGETS: &[&str] = &[
    "bucket-rounding",
    "stale-data",
    "return-contract",
    "why-pool",
    "capacity",
    "cliff",
    "chunking",
    "size-specialized",
    "method",
];

// The widgets report allocation counts, so the wasm build counts. Natively, binaries and tests
// register the allocator themselves (see `alloc_count`).
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static GLOBAL: bufpool::alloc_count::CountingAlloc<std::alloc::System> =
    bufpool::alloc_count::CountingAlloc::new(std::alloc::System);

#[cfg(test)]
mod tests {
    /// Every widget and quiz lives in a module of its own name, and every chapter module has the
    /// Cargo feature that builds it (and `all-chapters` includes it).
    #[test]
    fn every_live_part_has_its_module_and_feature() {
        let manifest = include_str!("../Cargo.toml");
        let names = super::WIDGETS
            .iter()
            .copied()
            .chain(super::quiz::LISTING.iter().map(|q| q.id));
        for name in names {
            assert!(super::MODULES.contains(&name), "no module for {name}");
        }
        for &module in super::MODULES {
            assert!(
                manifest.contains(&format!("\n{module} = []")),
                "no feature `{module}` in wasm-lab/Cargo.toml"
            );
            assert!(
                manifest.contains(&format!("    \"{module}\",\n")),
                "`all-chapters` lacks `{module}`"
            );
        }
    }
}

//! The lab: the pool, the chunker and the quiz engine that the course *Pools & Chunks* teaches.
//!
//! The same code runs in two places. Natively it is tested and measured by `native-bench`; compiled
//! to `wasm32-unknown-unknown` it powers the widgets and live quizzes in the book (see `web`,
//! present only in the wasm build). Nothing here talks to the outside world, so nothing here can
//! fail for reasons other than its input: every misuse is a typed error, never a panic.
//!
//! - [`bucket`]: which power-of-two bucket serves a request (.NET's `SharedArrayPool` rounding).
//! - [`calc`]: the bucket calculator's full answer for one request, with the formula's steps.
//! - [`html`]: the workspace's one HTML escaper (widgets and the book's preprocessor).
//! - [`input`]: parsing what a reader types into a widget, with messages a reader understands.
//! - [`progress`]: a student's quiz progress as the browser stores it, read strictly.
//! - [`quiz`]: live quiz questions whose answers are computed by the lab itself.
//! - [`scenario`]: each chapter's runs of the real pool and chunker, shared by its widget, its quiz
//!   and the tests.
//! - [`alloc_count`]: a counting global allocator and `measure(|| work)`, natively and in wasm
//!   (registered as the global allocator only in the wasm build).
//! - [`chunk`]: .NET's `Enumerable.Chunk` (both paths) and the Rust alternatives, with the `blocks`
//!   report of what each chunk allocates.
//! - [`pool`]: the shared and configurable pools, with an ownership API and a handle API.

pub mod alloc_count;
pub mod bucket;
pub mod calc;
pub mod chunk;
pub mod decimal;
pub mod html;
pub mod input;
mod json;
pub mod pool;
pub mod progress;
pub mod quiz;
pub mod scenario;
pub mod stats;
pub mod view;

#[cfg(target_arch = "wasm32")]
mod code_probe;
#[cfg(target_arch = "wasm32")]
pub mod web;

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
static GLOBAL: alloc_count::CountingAlloc<std::alloc::System> =
    alloc_count::CountingAlloc::new(std::alloc::System);

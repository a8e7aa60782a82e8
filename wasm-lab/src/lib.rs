//! The lab: the pool, the chunker and the quiz engine that the course *Pools & Chunks* teaches.
//!
//! The same code runs in two places. Natively it is tested and measured by `native-bench`; compiled
//! to `wasm32-unknown-unknown` it powers the widgets and live quizzes in the book (see `web`,
//! present only in the wasm build). Nothing here talks to the outside world, so nothing here can
//! fail for reasons other than its input: every misuse is a typed error, never a panic.
//!
//! - [`bucket`]: which power-of-two bucket serves a request (.NET's `SharedArrayPool` rounding).
//! - [`pool`]: the shared and configurable pools, with an ownership API and a handle API.

pub mod bucket;
pub mod pool;

//! The chapters' scenarios: for each chapter with a widget, the constants, types and functions
//! that run the real pool, chunker or counting allocator (or the chapter's formulas) for that
//! chapter's story.
//!
//! They live apart from [`crate::quiz`] because the same runs serve four callers: the chapter's
//! widget (`web/`, wasm only), the chapter's quiz (which grades every answer by calling them), the
//! unit and browser tests, and the end-to-end tests (which compute their expected values with the
//! same calls). A module here holds no questions; a quiz module holds nothing but its questions.
//!
//! - [`why_pool`]: fresh `Vec`s against rent + return, counted (chapter 1, `why-pool`).
//! - [`stale_data`]: the stale-data run on the handle API (chapter 3, `stale-data`).
//! - [`return_contract`]: double return, use after return, foreign return, the missing `finally`
//!   (chapter 4, `return-contract`).
//! - [`capacity`]: rounds of `K` rents on a pool of `1 + P × M` (chapter 5, `capacity`).
//! - [`cliff`]: .NET's large-object heap and glibc's mmap threshold for one request (chapter 6,
//!   `cliff`).
//! - [`chunking`]: what each chunk costs, by strategy and source kind (chapter 7, `chunking`).
//! - [`size_specialized`]: what a const-generic rent resolves at compile time (chapter 8, `size-specialized`).
//! - [`method`]: the bench's paired-round method on the wasm pool, timed in the reader's browser
//!   (Method chapter, `method`).

pub mod capacity;
pub mod chunking;
pub mod cliff;
pub mod method;
pub mod return_contract;
pub mod size_specialized;
pub mod stale_data;
pub mod why_pool;

//! The chapters' scenarios: for each chapter with a widget, the constants, types and functions
//! that run the real pool, chunker or counting allocator (or the chapter's formulas) for that
//! chapter's story.
//!
//! They live apart from [`crate::quiz`] because the same runs serve four callers: the chapter's
//! widget (`web/`, wasm only), the chapter's quiz (which grades every answer by calling them), the
//! unit and browser tests, and the end-to-end tests (which compute their expected values with the
//! same calls). A module here holds no questions; a quiz module holds nothing but its questions.
//!
//! - [`why`]: fresh `Vec`s against rent + return, counted (chapter 1, `why-pool`).
//! - [`stale`]: the stale-data run on the handle API (chapter 3, `stale-data`).
//! - [`contract`]: double return, use after return, foreign return, the missing `finally`
//!   (chapter 4, `return-contract`).
//! - [`capacity`]: rounds of `K` rents on a pool of `1 + P × M` (chapter 5, `capacity-rounds`).
//! - [`cliff`]: .NET's large-object heap and glibc's mmap threshold for one request (chapter 6,
//!   `large-allocation-cliff`).
//! - [`chunking`]: what each chunk costs, by strategy and source kind (chapter 7, `chunk-blocks`).
//! - [`specialized`]: what a const-generic rent resolves at compile time (chapter 8, `const-rent`).

pub mod capacity;
pub mod chunking;
pub mod cliff;
pub mod contract;
pub mod specialized;
pub mod stale;
pub mod why;

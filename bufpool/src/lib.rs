#![doc = include_str!("../README.md")]
//!
//! ## Modules
//!
//! - [`pool`]: [`SharedPool`](pool::SharedPool) (.NET's `ArrayPool<T>.Shared`) and
//!   [`ConfigurablePool`](pool::ConfigurablePool) (`ArrayPool<T>.Create()`), each with an
//!   ownership API (a [`Rented`](pool::Rented) guard that returns itself on drop, so double return
//!   and use after return do not compile); [`BufferPool`](pool::BufferPool), the one trait generic
//!   code takes for either pool; [`pool::engine`], the storage engines under them, for
//!   a front end that keeps another buffer type.
//! - [`bucket`]: which bucket serves a request (`log2((n - 1) | 15) - 3`, length `16 << index`).
//!
//! ## Configuration
//!
//! [`SharedConfig`](pool::SharedConfig) sets partitions and buffers per partition (and reads
//! .NET's own environment overrides when asked to:
//! [`SharedConfig::from_env`](pool::SharedConfig::from_env), given to
//! [`SharedPool::init_shared`](pool::SharedPool::init_shared)); [`ConfigurableConfig`](pool::ConfigurableConfig) the
//! configurable pool's maximum length and buffers per bucket. See [`pool`]'s "Configuration".
//!
//! ## Safety and correctness
//!
//! `unsafe` lives in three places of [`pool`] (the per-thread cache, a thread's slots and the
//! table of shared pools, each with its SAFETY argument; see [`pool`]'s "Safety and
//! correctness"). Every misuse is a typed error with a message. Renting follows `Vec`: `rent`
//! panics when no buffer can be allocated, `try_rent` returns the error; no input makes a `try_`
//! method, a return or a configuration panic.
//! Tests: unit tests, a model-based proptest (in `course-pool`, whose handle API drives both
//! engines: `course-pool/tests/pool_model.rs`), loom models
//! (`tests/pool_loom.rs` under `--cfg loom`), a stress test, Miri over the pool's unit tests, the
//! articles' scenarios, and `compile_fail` doc tests for the guard.
//!
//! ## Performance
//!
//! The ownership API's rent and return on the calling thread's slot take no lock and no atomic
//! read-modify-write; they are inlined into the caller. See [`pool`]'s "Performance", and the
//! ratios above ("Measured"), which `cargo xtask crate-docs` writes from the bench's data.
//!
//! ## Implementation notes
//!
//! Where this port differs from .NET and why: [`pool`]'s "Differences from .NET".

pub mod bucket;
pub mod pool;

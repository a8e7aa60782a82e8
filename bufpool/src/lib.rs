//! A buffer pool, ported from .NET's `ArrayPool<T>`.
//!
//! A buffer pool hands out buffers of power-of-two *bucket* lengths and takes them back for the
//! next renter, so code that needs a buffer per request allocates once instead of every time.
//! This crate is the pool the course *Pools & Chunks* teaches: its widgets and quizzes run it (in
//! WebAssembly), its bench measures it and its tests check it. The course's own parts (the handle
//! API that reproduces .NET's hazards, the `Chunk` port, the counting allocator, the bench's
//! statistics) are the crate `course-pool`, a front end over [`pool::engine`].
//!
//! # Usage
//!
//! - [`pool`]: [`SharedPool`](pool::SharedPool) (.NET's `ArrayPool<T>.Shared`) and
//!   [`ConfigurablePool`](pool::ConfigurablePool) (`ArrayPool<T>.Create()`), each with an
//!   ownership API (a [`Rented`](pool::Rented) guard that returns itself on drop, so double return
//!   and use after return do not compile); [`BufferPool`](pool::BufferPool), the one trait generic
//!   code takes for either pool; [`pool::engine`], the storage engines under them, for
//!   a front end that keeps another buffer type.
//! - [`bucket`]: which bucket serves a request (`log2((n - 1) | 15) - 3`, length `16 << index`).
//!
//! # Examples
//!
//! ```
//! use bufpool::pool::SharedPool;
//!
//! let pool = SharedPool::<u8>::new();
//! for _ in 0..1_000 {
//!     let mut line = pool.rent(100); // a 128-byte bucket, back in the pool each time
//!     assert_eq!((line.len(), line.capacity()), (100, 128));
//!     line.append(b"1042|...").unwrap();
//! }
//! assert_eq!(pool.stats().allocated(), 1); // one buffer was ever allocated
//! ```
//!
//! More in each module.
//!
//! # Configuration
//!
//! [`SharedConfig`](pool::SharedConfig) sets partitions and buffers per partition (and reads
//! .NET's own environment overrides when asked to:
//! [`SharedConfig::from_env`](pool::SharedConfig::from_env), given to
//! [`SharedPool::init_shared`](pool::SharedPool::init_shared)); [`ConfigurableConfig`](pool::ConfigurableConfig) the
//! configurable pool's maximum length and buffers per bucket. See [`pool`]'s "Configuration".
//!
//! # Comparison with similar crates
//!
//! General object pools (`object-pool`, `opool`, `lockfree-object-pool`) keep objects of one
//! kind and hand back whichever is free; this pool keeps buffers by size class, as .NET's does,
//! so a request is rounded to its bucket and any buffer of that bucket serves it. A general
//! allocator (glibc's malloc, mimalloc, jemalloc) does the same rounding into size classes, but
//! gives a freed block back to whoever asks next, without a per-thread slot per size.
//!
//! # Safety and correctness
//!
//! `unsafe` lives in three places of [`pool`] (the per-thread cache, a thread's slots and the
//! table of shared pools, each with its SAFETY argument; see [`pool`]'s "Safety and
//! correctness"). Every misuse is a typed error with a message; no input makes the pool panic.
//! Tests: unit tests, a model-based proptest (in `course-pool`, whose handle API drives both
//! engines: `course-pool/tests/pool_model.rs`), loom models
//! (`tests/pool_loom.rs` under `--cfg loom`), a stress test, Miri over the pool's unit tests, the
//! articles' scenarios, and `compile_fail` doc tests for the guard.
//!
//! # Performance
//!
//! The ownership API's rent and return on the calling thread's slot take no lock and no atomic
//! read-modify-write; they are inlined into the caller. See [`pool`]'s "Performance".
//!
//! # Implementation notes
//!
//! Where this port differs from .NET and why: [`pool`]'s "Differences from .NET".

pub mod bucket;
pub mod pool;

/// The README's example, compiled and run as a doc test so it cannot drift.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

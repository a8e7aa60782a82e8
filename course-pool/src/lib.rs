//! The course's side of the pool: what *Pools & Chunks* teaches with, built on [`bufpool`].
//!
//! [`bufpool`] is the pool a Rust program could depend on. This crate holds what the course needs
//! beside it: the widgets, quizzes, exercises and bench run it.
//!
//! - [`handle`]: the handle API ([`HandlePool`](handle::HandlePool), [`Handle`](handle::Handle)),
//!   buffers as clonable references like C# arrays, which reproduces .NET's hazards (double
//!   return, use after return) on purpose, with a checked mode that reports them. A front end
//!   over [`bufpool::pool::engine`].
//! - [`chunk`]: both paths of .NET's `Enumerable.Chunk` and the Rust alternatives (slices, a
//!   reused buffer, a pooled buffer), with the [`blocks`](chunk::blocks) report of what each chunk
//!   allocates.
//! - [`alloc_count`]: a counting global allocator and [`measure`](alloc_count::measure), natively
//!   and in wasm.
//! - [`stats`]: the median and the robust noise of a sample, defined once for every measurement.
//!
//! # Safety
//!
//! `unsafe` only in [`alloc_count`]'s `GlobalAlloc` (it forwards to the wrapped allocator).

pub mod alloc_count;
pub mod chunk;
pub mod handle;
pub mod stats;

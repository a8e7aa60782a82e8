//! The pool: a Rust port of .NET's `ArrayPool<T>`, faithful where the course teaches a
//! behaviour and Rust-like where Rust can do better.
//!
//! A buffer pool hands out buffers of power-of-two *bucket* lengths and takes them back for the
//! next renter, so a program that needs a buffer per request allocates once instead of every time.
//!
//! ```
//! use bufpool::pool::SharedPool;
//!
//! let pool = SharedPool::<u8>::new();
//! for _ in 0..1_000 {
//!     let mut line = pool.rent(128); // back in the pool at the end of each iteration
//!     line.append(b"1042|...").unwrap();
//! }
//! assert_eq!(pool.stats().allocated(), 1); // only a single 128-byte buffer was ever allocated
//! ```
//!
//! # Usage
//!
//! Two pools, as in .NET, over two storage engines ([`engine`]):
//!
//! | .NET | this crate |
//! |---|---|
//! | `ArrayPool<T>.Shared` | [`SharedPool`] |
//! | `ArrayPool<T>.Create()` | [`ConfigurablePool`] |
//!
//! [`SharedPool::rent`] (or [`SharedPool::try_rent`], which returns an error where `rent`
//! panics: as `Vec::with_capacity` and `Vec::try_reserve`) returns a [`Rented`] guard that
//! derefs to the requested length, shows the
//! bucket length as [`capacity`](Rented::capacity), carries how much was
//! [`written`](Rented::written), and returns itself on drop: on every path, including `?` and a
//! panic that unwinds (a build with `panic = "abort"`, such as the course's wasm, never unwinds:
//! nothing is returned then). Double return and use after return do not compile (see
//! [`Rented`]). Stale data is still possible: a buffer returned without clearing keeps its bytes.
//! [`SharedPool::rent_boxed`] and [`SharedPool::return_boxed`] are .NET's raw `Rent` and
//! `Return`, for code ported as it was written.
//!
//! The course's handle API (crate `course-pool`: buffers as clonable references like C# arrays,
//! which reproduces .NET's double return and use after return on purpose, with a checked mode
//! that reports them) is another front end over the same [`engine`]s.
//!
//! # Examples
//!
//! Stale data, then clearing (course chapter 3):
//!
//! ```
//! use bufpool::pool::SharedPool;
//! let pool = SharedPool::<u8>::new();
//! let order = "1042|ต้มยำกุ้ง|2|18000\n".as_bytes();
//! assert_eq!(order.len(), 41);
//! let mut a = pool.rent(41);
//! a.append(order).unwrap();
//! drop(a); // returned without clearing
//! let b = pool.rent(41);
//! assert_eq!(&b[..], order); // the next renter sees all 41 bytes
//! b.return_cleared();
//! assert!(pool.rent(41).iter().all(|&x| x == 0));
//! ```
//!
//! The foreign-buffer rule: a length check, not an origin check.
//!
//! ```
//! use bufpool::pool::{PoolError, SharedPool};
//! let pool = SharedPool::<u8>::new();
//! assert!(pool.return_boxed(vec![0; 128].into_boxed_slice(), false).is_ok());
//! let refused = pool.return_boxed(vec![0; 100].into_boxed_slice(), false).unwrap_err();
//! assert_eq!(refused.error, PoolError::NotAssociated { length: 100 });
//! ```
//!
//! # Configuration
//!
//! [`SharedConfig`] sets the partition count `P` (default: logical processors, 1 in wasm), the
//! buffers per partition per bucket `M` (default 32) and a default clear-on-return policy; with
//! every buffer of one size returned the pool keeps `1 + P × M` of them.
//! [`SharedConfig::from_env`] reads .NET's own overrides, [`ENV_MAX_PARTITION_COUNT`] (capped at
//! the processor count) and [`ENV_MAX_ARRAYS_PER_PARTITION`], trimming spaces as .NET does;
//! [`parse_env_count`] is the pure parser. Nothing reads the environment unasked: the
//! process-wide [`SharedPool::shared`] uses the defaults unless
//! [`SharedPool::init_shared`] gave it settings first (`init_shared(SharedConfig::from_env())`
//! to follow .NET's variables). [`ConfigurableConfig`] sets the configurable pool's maximum length (default 1,048,576,
//! clamped to 16 … 2^30 and rounded up to a bucket) and buffers per bucket (default 50).
//!
//! Trimming ([`SharedPool::trim`]) takes a [`MemoryPressure`] and an explicit clock, following
//! .NET's rules (module [`trim`]); [`SharedPool::stats`] shows what is kept and allocated, and
//! counts rents, returns, drops and trims over every thread ([`PoolStats`]).
//!
//! # Safety and correctness
//!
//! `unsafe` in three places, each with its SAFETY argument. In `registry.rs`: the table behind
//! [`SharedPool::shared`] hands out the pool it made for a type id as that type. In `sync/`: the
//! per-thread store (`sync/thread_store.rs`: a table of buckets that never move, indexed by a
//! small thread id from `sync/thread_id.rs`, reused after its thread exits) and the one-entry
//! per-thread cache in front of it dereference the pointer they remembered; the one destructor
//! that frees a thread's id turns that thread's cache off first, so the argument rests on no
//! order of `std`'s thread-exit destructors and on no other crate. A thread's slots for boxed
//! buffers (`BoxSlots`, `sync/box_slots.rs`) keep a bare pointer per bucket and rebuild the box
//! with the bucket's length. In `owned.rs` and `shared/`: a guard's `Back` is the one made for
//! its buffer, so the shared pool's return trusts the bucket it names instead of checking the
//! length again (`ReturnTo::give_back`, `guard_with`, `put_local` state the promise). Each
//! assumption of the per-thread store and of `BoxSlots` is a test in `pool::sync::tests`
//! (entries never move, live threads never share one, `&mut` access turns cached pointers stale,
//! the cache stops answering once its thread began exiting, an id is reused only after its
//! thread finished, crowds of exiting threads). Miri runs the unit tests through all of it,
//! including pools used in turn, `clear_all_threads` and exiting threads.
//! Every misuse is a [`PoolError`] with a message that names the value and the rule it broke.
//! Renting follows `Vec`: [`SharedPool::rent`] (and `rent_const`, `rent_boxed`, on both pools and
//! in [`BufferPool`]) panics when no buffer can be allocated, with the error's message, and its
//! `try_` twin ([`SharedPool::try_rent`]) returns the error instead; no input makes a `try_`
//! method, a return or a configuration panic. Code that must not panic (a WebAssembly page, a
//! length from a request) calls the `try_` forms. Tests: a model-based
//! proptest against a reference model (in `course-pool`: `course-pool/tests/pool_model.rs`),
//! loom models of the partition logic (`tests/pool_loom.rs`, `--cfg loom`), a
//! multi-threaded stress test, Miri over the unit tests, the article's scenarios
//! (`tests/pool_scenarios.rs`), and `compile_fail` doc tests for the ownership guard.
//!
//! **What loom checks, and what only Miri does.** Under `--cfg loom` the partitions' mutexes and
//! the counters are loom's, so loom explores the interleavings of the partition logic as it ships
//! (rent and return through partitions, spills into full partitions, the counts of
//! [`PoolStats`]). The per-thread
//! storage is not the shipped code there: a thread's slot (`SlotCell`), its trimming stamp
//! (`StampCell`) and its slots of boxes (`BoxSlots`) become mutex-backed stand-ins, and the
//! per-thread store (`ThreadStore`: its bucket table, thread ids and cached pointer) becomes a
//! locked list keyed by loom's thread id. So the unsafe code that ships — the store's table and
//! cached pointer, the bare pointers of `BoxSlots`, the trusted bucket of a guard's return (under
//! loom only asserted), the table of [`SharedPool::shared`] (not built under loom) — is never
//! model-checked by loom. Only Miri checks it, over the unit tests: `pool::sync::tests` (each
//! assumption of the store and of `BoxSlots`, threads exiting in crowds while the store is
//! iterated) and `pool::tests` (the thread-exit stress test
//! `threads_exit_while_others_rent_and_return`, pools used from other thread-locals'
//! destructors, `clear_all_threads`). Commands:
//!
//! ```text
//! cargo test -p bufpool
//! RUSTFLAGS="--cfg loom" cargo test -p bufpool --test pool_loom --release
//! cargo +nightly miri test -p bufpool --lib pool
//! ```
//!
//! # Performance
//!
//! The ownership API's hot path — rent from and return to the calling thread's slot — takes no
//! lock, no atomic read-modify-write and no borrow flag, and is inlined into the caller (the rest
//! is out of line): one read of a const-initialized `std` thread-local that remembers the pool
//! this thread used last and where its slots are (a compare with the pool's key), then a
//! [`Cell::take`](std::cell::Cell::take) / [`Cell::replace`](std::cell::Cell::replace) on the
//! bucket's slot, and one bump of the thread's own rent or return count (an atomic load and
//! store of a counter no other thread writes, for [`PoolStats`]: 35 → 37 instructions per
//! rent and return, callgrind; 2.92 → 3.20 ns on one thread and 1.11× on two, in one paired run
//! on the course's machine against the pool without counts). A thread that alternates between pools falls back to the per-pool table
//! (the thread's id from a thread-local, then a few plain loads) on each switch. Partitions (one mutex each) are touched only when the slot is empty on rent or
//! occupied on return. A pool that clears on return skips the inlined rent (its returns go
//! out of line for the clearing anyway), so that the guard of a pool that does not clear
//! carries a bucket the compiler knows and its inlined return skips the bucket test.
//!
//! # Differences from .NET
//!
//! - "Current core": .NET asks for the current processor id on each call; here each thread keeps
//!   a stable index given round robin at first use (`index % P` is its home partition).
//! - Thread slots are per pool instance, not per element type, and other threads' slots are not
//!   visible to [`SharedPool::trim`] or [`SharedPool::stats`] (they are plain cells only their
//!   thread touches); [`SharedPool::clear_all_threads`] (`&mut self`) reaches them all.
//! - New buffers are always initialized with `T::default()` (.NET leaves large primitive arrays
//!   uninitialized).
//! - Trimming is an explicit call, not a GC callback.

mod buffer_pool;
mod config;
mod configurable;
mod element;
pub mod engine;
mod error;
mod layout;
mod owned;
mod owned_rented;
#[cfg(not(loom))]
mod registry;
mod shared;
mod stats;
mod sync;
pub mod trim;

pub use buffer_pool::BufferPool;
pub use config::{
    ConfigurableConfig, DEFAULT_ARRAYS_PER_BUCKET, DEFAULT_ARRAYS_PER_PARTITION,
    DEFAULT_CONFIGURABLE_MAX_LENGTH, ENV_MAX_ARRAYS_PER_PARTITION, ENV_MAX_PARTITION_COUNT,
    MAX_PARTITIONS, SharedConfig, kept_per_bucket, parse_env_count, processor_count,
};
pub use configurable::ConfigurablePool;
pub use element::Element;
pub use error::{PoolError, checked_len};
pub use layout::BucketLayout;
pub use owned::{Rejected, Rented};
pub use owned_rented::OwnedRented;
pub use shared::SharedPool;
pub use stats::{BucketStats, PoolStats};
pub use trim::MemoryPressure;

/// The pools, their settings and their guard cross threads as a user expects: checked at compile
/// time, so a change that loses `Send` or `Sync` fails the build instead of a user's.
const _: () = {
    const fn send_sync<T: Send + Sync>() {}
    const fn send<T: Send>() {}
    send_sync::<SharedPool<u8>>();
    send_sync::<SharedPool<String>>();
    send_sync::<ConfigurablePool<u8>>();
    send_sync::<SharedConfig>();
    send_sync::<ConfigurableConfig>();
    send_sync::<PoolStats>();
    send_sync::<PoolError>();
    send::<Rented<'static, u8>>();
    send_sync::<Rented<'static, u8>>();
    send_sync::<Rented<'static, u8, ConfigurablePool<u8>>>();
    send_sync::<OwnedRented<u8>>();
    send_sync::<OwnedRented<String, ConfigurablePool<String>>>();
    // An owned guard is `'static`, so it can go to `std::thread::spawn`.
    const fn owned<T: Send + 'static>() {}
    owned::<OwnedRented<u8>>();
};

#[cfg(test)]
mod tests;

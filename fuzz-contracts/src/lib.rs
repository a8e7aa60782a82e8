//! The contract of every parser a reader or an instructor feeds, as one function per fuzz target.
//!
//! Each function takes the fuzzer's bytes and panics when the parser breaks its contract: not
//! only "no panic", but
//! - an accepted input round-trips: printed back (or re-encoded) and parsed again, it is the same
//!   value;
//! - a refused input gets a message naming what was wrong (the field, or the quoted input);
//! - the progress reader never turns a readable entry into a lost one.
//!
//! `fuzz/fuzz_targets/<target>.rs` wraps each in `fuzz_target!` (nightly, libFuzzer:
//! `cargo xtask fuzz`); `tests/replay.rs` runs them on every committed corpus and crash input with
//! stable Rust, inside `cargo xtask test`. Hangs are libFuzzer's `-timeout` (see xtask/src/fuzz.rs).

#![forbid(unsafe_code)]

mod book;
mod lab;
mod quiz;

pub use book::{bench_data, directive, lab_machine};
pub use lab::{input, link, page, progress, widget};
pub use quiz::quiz;

// The why-pool and chunking widgets count allocations, as in the browser: the counting allocator
// must be the global one wherever these contracts run (fuzz binaries, the replay test).
#[global_allocator]
static GLOBAL: course_pool::alloc_count::CountingAlloc<std::alloc::System> =
    course_pool::alloc_count::CountingAlloc::new(std::alloc::System);

/// A target's contract: panics when the parser breaks it.
pub type Contract = fn(&[u8]);

/// Every target: its name (`fuzz/fuzz_targets/<name>.rs`, `fuzz/corpus/<name>/`) and contract.
pub const TARGETS: &[(&str, Contract)] = &[
    ("input", input),
    ("widget", widget),
    ("link", link),
    ("progress", progress),
    ("page", page),
    ("quiz", quiz),
    ("bench_data", bench_data),
    ("directive", directive),
    ("lab_machine", lab_machine),
];

/// The fuzzer's bytes as text (readers and instructors type text; invalid UTF-8 never reaches
/// these parsers, the browser and `read_to_string` refuse it first).
pub(crate) fn text(data: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(data)
}

//! The bench suites, one per story of the book. Each records figures under its own key prefix
//! (its name); `native-bench/FIGURES.md` lists every key.

use anyhow::Result;

use crate::measure::Session;

mod capacity;
mod chunking;
mod clearing;
mod cliff;
mod peers;
mod read_buffer;
mod rent_return;
mod shared_accessor;
mod size_specialized;
mod threads;
mod uninit;
mod wasm_size;
mod why_pool;

/// A suite: its name (also its key prefix), about how many timed steps it makes (for progress),
/// and the function that measures it.
pub struct Suite {
    pub name: &'static str,
    pub about: &'static str,
    pub steps: usize,
    pub run: fn(&mut Session) -> Result<()>,
}

/// The suites a build with another global allocator runs: where the allocator matters (fresh
/// allocation against the pool, why-pool's loops, chunking, uninit, threads). The others measure
/// the pool alone, glibc itself (the cliff's mmap threshold: glibc only) or files.
pub const ALLOCATOR: &[&str] = &["why_pool", "rent_return", "uninit", "chunking", "threads"];

/// The sizes (bytes) the timing suites share: 16 B, 1 KiB, 4 KiB, 16 KiB, 80 KiB, 1 MiB.
pub const SIZES: &[usize] = &[16, 1024, 4096, 16_384, 81_920, 1_048_576];

pub const SUITES: &[Suite] = &[
    Suite {
        name: "why_pool",
        about: "bytes and allocations per order line, fresh Vec vs pool; first use; break-even (chapter 1)",
        steps: 0,
        run: why_pool::run,
    },
    Suite {
        name: "rent_return",
        about: "rent+return time by size: ownership, handle, checked, configurable, fresh Vec, lower bound, the floor (chapters 1, 2, method)",
        steps: rent_return::STEPS,
        run: rent_return::run,
    },
    Suite {
        name: "shared_accessor",
        about: "rent+return with SharedPool::shared() per call vs a held reference, 1 and 2 threads",
        steps: 1,
        run: shared_accessor::run,
    },
    Suite {
        name: "clearing",
        about: "return with clear vs without, by size (chapter 3)",
        steps: clearing::STEPS,
        run: clearing::run,
    },
    Suite {
        name: "uninit",
        about: "allocation without zeroing (with_capacity + spare_capacity_mut) vs zeroed, with and without a write (chapter 3)",
        steps: uninit::STEPS,
        run: uninit::run,
    },
    Suite {
        name: "capacity",
        about: "bytes per round vs buffers held at once, default and overridden partitions (chapter 5)",
        steps: 0,
        run: capacity::run,
    },
    Suite {
        name: "cliff",
        about: "glibc's mmap threshold: where, what it costs, dynamic vs fixed (chapter 6; fresh processes)",
        steps: 0,
        run: cliff::run,
    },
    Suite {
        name: "chunking",
        about: "chunk strategies and sources around the threshold, held and not held; blocks (chapter 7)",
        steps: chunking::STEPS,
        run: chunking::run,
    },
    Suite {
        name: "size_specialized",
        about: "const-generic vs runtime bucket selection: time and code size (chapter 8)",
        steps: size_specialized::STEPS,
        run: size_specialized::run,
    },
    Suite {
        name: "threads",
        about: "rent/return throughput with 1 and 2 threads (chapter 5)",
        steps: 1,
        run: threads::run,
    },
    Suite {
        name: "peers",
        about: "the same rent/write/return work through System malloc, mimalloc and pool crates (chapters 1, 9)",
        steps: peers::STEPS,
        run: peers::run,
    },
    Suite {
        name: "read_buffer",
        about: "a server's 4 KiB read buffer through bufpool, object-pool, lockfree-object-pool, opool, a reused Vec and a fresh Vec, 1 and 2 threads (the crate's docs)",
        steps: read_buffer::STEPS,
        run: read_buffer::run,
    },
    Suite {
        name: "wasm_size",
        about: "what readers download: the shipped wasm module and JS glue, raw and gzipped",
        steps: 0,
        run: wasm_size::run,
    },
];

pub use capacity::{HELD as CAPACITY_HELD, measure_round as capacity_round};
pub use cliff::rows as threshold_rows;

#![allow(
    unused_variables,
    reason = "the skeleton's bodies are todo!(): your code uses them"
)]
// ANCHOR: exercise
//! # Exercise 7: where the allocator's path changes
//!
//! Chapter: The large-allocation cliff (`book/src/cliff.md`).
//!
//! Two runtimes, two edges. .NET puts an object into the large-object heap when its whole size
//! reaches 85,000 bytes, and an array's size includes a 24-byte header. glibc's malloc, by its
//! size rule, serves a request with fresh `mmap`ed pages when its chunk (the request plus an
//! 8-byte size word, rounded up to 16, at least 32) reaches the mmap threshold, 128 KiB at
//! start; and when an mmapped block is freed, it raises the threshold to that block's size, if
//! that is above the threshold and at most 32 MiB. Write both rules:
//!
//! - `first_loh_length(elem_size)`: the shortest .NET array of `elem_size`-byte elements that
//!   goes to the LOH (21,244 `int`s).
//! - `chunk_size(request)`: `max(32, (request + 8) rounded up to 16)`.
//! - `Malloc::uses_mmap(request)`: whether the size rule sends the request to `mmap`.
//! - `Malloc::free_mmapped(request)`: a block that `uses_mmap` served is freed. Its size is the
//!   chunk plus 8, rounded up to whole 4,096-byte pages; raise the threshold as glibc does.
//!
//! Grade it: `cargo xtask exercises` (or `cargo test -p exercises --test ex07_cliff`).

/// .NET x64: an array's header (method table, sync block, length).
pub const DOTNET_ARRAY_HEADER: usize = 24;
/// .NET: objects of this many bytes or more go to the large-object heap.
pub const LOH_THRESHOLD: usize = 85_000;
/// glibc: the mmap threshold a process starts with.
pub const DEFAULT_MMAP_THRESHOLD: usize = 128 * 1024;
/// glibc (64-bit): the threshold is never raised above this.
pub const MAX_MMAP_THRESHOLD: usize = 32 * 1024 * 1024;
/// The page size of an mmapped block.
pub const PAGE: usize = 4_096;

/// The shortest .NET array of `elem_size`-byte elements that is allocated in the LOH.
pub fn first_loh_length(elem_size: usize) -> usize {
    todo!()
}

/// glibc's chunk for a request: `max(32, (request + 8) rounded up to 16)`.
pub fn chunk_size(request: usize) -> usize {
    todo!()
}

/// glibc's decision between its heap and fresh pages, by the size rule.
pub struct Malloc {
    /// Chunks of this size or more are served by `mmap`.
    pub mmap_threshold: usize,
}

impl Malloc {
    /// A process's allocator at start.
    pub fn new() -> Malloc {
        Malloc {
            mmap_threshold: DEFAULT_MMAP_THRESHOLD,
        }
    }

    /// Whether a request of `request` bytes is served with fresh mmapped pages.
    pub fn uses_mmap(&self, request: usize) -> bool {
        todo!()
    }

    /// Frees an mmapped block that served `request` bytes: the threshold may move.
    pub fn free_mmapped(&mut self, request: usize) {
        todo!()
    }
}

impl Default for Malloc {
    fn default() -> Malloc {
        Malloc::new()
    }
}
// ANCHOR_END: exercise

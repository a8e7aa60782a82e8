//! Exercise 7, the reference solution: where the allocator's path changes.

// ANCHOR: solution
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
    // The smallest `len` with 24 + len × elem_size >= 85,000.
    (LOH_THRESHOLD - DOTNET_ARRAY_HEADER).div_ceil(elem_size)
}

/// glibc's chunk for a request: `max(32, (request + 8) rounded up to 16)`.
pub fn chunk_size(request: usize) -> usize {
    ((request + 8).next_multiple_of(16)).max(32)
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
        chunk_size(request) >= self.mmap_threshold
    }

    /// Frees an mmapped block that served `request` bytes: the threshold may move.
    pub fn free_mmapped(&mut self, request: usize) {
        let block = (chunk_size(request) + 8).next_multiple_of(PAGE);
        if block > self.mmap_threshold && block <= MAX_MMAP_THRESHOLD {
            self.mmap_threshold = block;
        }
    }
}

impl Default for Malloc {
    fn default() -> Malloc {
        Malloc::new()
    }
}
// ANCHOR_END: solution

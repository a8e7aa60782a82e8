//! glibc malloc's large-allocation path, observed from inside: which requests it serves with
//! fresh `mmap`ed pages, and what that costs before and after its threshold moves.
//!
//! glibc (2.36 here) keeps a size word just before every chunk's user memory (`ptr - 8` on 64-bit).
//! Its low three bits are flags; bit 1, `IS_MMAPPED`, is set for chunks served by `mmap`. Rust's
//! `System` allocator calls `malloc` for alignments ≤ 16 (and `posix_memalign` above), so a
//! `Vec<u8>`, `Vec<i32>` or `Vec<u64>` buffer is a malloc chunk whose flag tells where it came
//! from. The threshold is *measured* this way, never computed from the documented default.

use std::time::Instant;

use serde::{Deserialize, Serialize};

/// glibc's chunk flag for memory served by `mmap`.
pub const IS_MMAPPED: usize = 0b10;
/// glibc's three flag bits in a chunk's size word.
pub const FLAG_BITS: usize = 0b111;
/// glibc's documented default mmap threshold (128 KiB), for comparison with the measurement.
pub const DEFAULT_MMAP_THRESHOLD: usize = 128 * 1024;
/// The tunable that fixes the threshold (and turns its dynamic adjustment off).
pub const FIXED_TUNABLES: &str = "glibc.malloc.mmap_threshold=131072";

/// Whether a chunk size word says the chunk was served by `mmap`.
pub fn is_mmapped_word(word: usize) -> bool {
    word & IS_MMAPPED != 0
}

/// The chunk size a size word records (flags masked off).
pub fn chunk_size_of_word(word: usize) -> usize {
    word & !FLAG_BITS
}

/// glibc's chunk size for a heap request of `request` bytes on 64-bit: `max(32, (request + 23) & !15)`.
pub fn heap_chunk_size(request: usize) -> usize {
    (request.saturating_add(23) & !15).max(32)
}

/// The smallest request (bytes) whose heap chunk reaches `threshold` — what glibc's rule
/// predicts; the measurement may differ when the heap's top chunk can still serve it.
pub fn predicted_first_request(threshold: usize) -> usize {
    threshold.saturating_sub(23).max(1)
}

/// Whether this platform lets us read glibc's chunk header.
pub const SUPPORTED: bool = cfg!(all(
    target_os = "linux",
    target_env = "gnu",
    target_pointer_width = "64"
));

/// The size word of the malloc chunk whose user memory starts at `ptr`.
///
/// # Safety
///
/// `ptr` must be a live allocation returned by glibc's `malloc` (Rust's `System` allocator with
/// alignment ≤ 16 and a non-zero size), on a 64-bit glibc target. glibc places the chunk's size
/// field in the 8 bytes immediately before the user pointer, inside memory glibc itself mapped
/// for the chunk (heap or mmap region), so the read is in bounds of a mapped, initialized word.
/// It is read-only and volatile, so the compiler neither elides it nor assumes anything about
/// memory outside the Rust allocation.
#[cfg(all(target_os = "linux", target_env = "gnu", target_pointer_width = "64"))]
pub unsafe fn size_word(ptr: *const u8) -> usize {
    // SAFETY: see the function's contract: the caller guarantees `ptr` is a live glibc malloc
    // chunk's user pointer, so `ptr - 8` is that chunk's `mchunk_size` word, mapped and aligned.
    unsafe { std::ptr::read_volatile(ptr.cast::<usize>().sub(1)) }
}

/// Whether a live `Vec` buffer (non-empty capacity, element alignment ≤ 16) is an mmapped chunk.
///
/// # Safety
///
/// The program's global allocator must hand `Vec`s memory from glibc's `malloc`: `System`, or a
/// wrapper that forwards to it unchanged, as the bench's `CountingAlloc<System>` (`main.rs`).
/// Under any other allocator (mimalloc, jemalloc, a bump allocator) the word before the buffer
/// is not a chunk header and may not even be mapped. This cannot be checked from here: a Rust
/// program cannot ask which global allocator it was linked with.
#[cfg(all(target_os = "linux", target_env = "gnu", target_pointer_width = "64"))]
pub unsafe fn vec_is_mmapped<T>(v: &Vec<T>) -> bool {
    assert!(std::mem::align_of::<T>() <= 16 && v.capacity() * std::mem::size_of::<T>() >= 16);
    // SAFETY: a Vec with non-zero byte capacity owns a live allocation from the global allocator,
    // which (this function's contract) is glibc malloc for alignment ≤ 16 and size ≥ 16.
    is_mmapped_word(unsafe { size_word(v.as_ptr().cast()) })
}

/// Always `false`: no glibc chunk headers to read on this platform.
///
/// # Safety
///
/// None needed here; `unsafe` to match the glibc version's contract.
#[cfg(not(all(target_os = "linux", target_env = "gnu", target_pointer_width = "64")))]
pub unsafe fn vec_is_mmapped<T>(_v: &Vec<T>) -> bool {
    false
}

/// One row of the `threshold` report: the first length of one element type served by `mmap`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ThresholdRow {
    pub element: String,
    pub element_size: usize,
    /// First length (elements) whose buffer was an mmapped chunk; `None` when none was seen.
    pub first_len: Option<usize>,
    /// The same in bytes.
    pub first_bytes: Option<usize>,
    /// The chunk size glibc recorded for it.
    pub chunk_bytes: Option<usize>,
    /// The heap chunk the first mmapped length would have had (request + 8 rounded up to 16).
    pub heap_rule_chunk: Option<usize>,
    /// What the documented rule (128 KiB, chunk = request + 8 rounded up to 16) predicts.
    pub predicted_len: usize,
    /// `GLIBC_TUNABLES` in force for the probe (empty: defaults).
    pub tunables: String,
}

/// Finds the first length of `T` served by mmap by scanning upward; buffers served by the heap
/// are freed at once, the first mmapped one is leaked (freeing it would move the threshold).
/// Run it in a fresh process.
///
/// # Safety
///
/// As [`vec_is_mmapped`]: the global allocator must be glibc's `malloc` (or forward to it).
pub unsafe fn probe_threshold<T: Copy + Default>(name: &str) -> ThresholdRow {
    let size = std::mem::size_of::<T>();
    let tunables = std::env::var("GLIBC_TUNABLES").unwrap_or_default();
    let mut row = ThresholdRow {
        element: name.into(),
        element_size: size,
        first_len: None,
        first_bytes: None,
        chunk_bytes: None,
        heap_rule_chunk: None,
        predicted_len: predicted_first_request(DEFAULT_MMAP_THRESHOLD).div_ceil(size),
        tunables,
    };
    // SAFETY: this function's contract is `scan_first_mmapped`'s.
    if let Some((len, chunk)) = unsafe { scan_first_mmapped::<T>() } {
        row.first_len = Some(len);
        row.first_bytes = Some(len * size);
        row.chunk_bytes = Some(chunk);
        row.heap_rule_chunk = Some(heap_chunk_size(len * size));
    }
    row
}

/// The first length of `T` (and its chunk size) that malloc serves with mmap, scanning upward
/// from 16 KiB to 64 MiB. Heap-served buffers are freed at once; the first mmapped one is leaked,
/// because freeing it would move the threshold. `None` off glibc or when nothing was mmapped.
///
/// # Safety
///
/// As [`vec_is_mmapped`]: the global allocator must be glibc's `malloc` (or forward to it).
pub unsafe fn scan_first_mmapped<T: Copy + Default>() -> Option<(usize, usize)> {
    if !SUPPORTED {
        return None;
    }
    let size = std::mem::size_of::<T>();
    let mmapped_at = |len: usize| -> Option<usize> {
        let v: Vec<T> = Vec::with_capacity(len);
        // SAFETY: the global allocator is glibc's (this function's contract).
        if !unsafe { vec_is_mmapped(&v) } {
            return None;
        }
        #[cfg(all(target_os = "linux", target_env = "gnu", target_pointer_width = "64"))]
        // SAFETY: `v` is live with a non-zero capacity, so its buffer is a glibc malloc chunk
        // (the global allocator is glibc's: this function's contract).
        let word = unsafe { size_word(v.as_ptr().cast()) };
        #[cfg(not(all(target_os = "linux", target_env = "gnu", target_pointer_width = "64")))]
        let word = 0;
        std::mem::forget(v);
        Some(chunk_size_of_word(word))
    };
    // Coarse: one step per 16-byte chunk granule; then the exact length in the last step.
    let step = (16 / size).max(1);
    let (lo, hi) = (16 * 1024 / size, 64 * 1024 * 1024 / size);
    let mut len = lo;
    while len <= hi {
        if mmapped_at(len).is_some() {
            let start = len.saturating_sub(step).max(1);
            for exact in start..=len {
                if let Some(chunk) = mmapped_at(exact) {
                    return Some((exact, chunk));
                }
            }
        }
        len += step;
    }
    None
}

/// What one fresh process measured on both sides of the threshold (child probe `threshold-cost`).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct CostProbe {
    /// This process's edge: the first `u8` length served by mmap (bytes).
    pub edge: usize,
    /// The heap-side size timed (bytes).
    pub below: usize,
    /// ns per malloc + full write + free just below the threshold, per batch.
    pub below_ns: Vec<f64>,
    /// The first allocation at the threshold: ns, and whether it was mmapped.
    pub first_above_ns: f64,
    pub first_above_mmapped: bool,
    /// The next allocation of the same size, after the first was freed: mmapped again?
    pub after_free_mmapped: bool,
    /// ns per malloc + full write + free at the threshold after the first free, per batch.
    pub after_free_ns: Vec<f64>,
}

/// # Safety
///
/// As [`vec_is_mmapped`].
unsafe fn touch_cycle(bytes: usize) -> (f64, bool) {
    let t = Instant::now();
    let mut v: Vec<u8> = Vec::with_capacity(bytes);
    // SAFETY: this function's contract.
    let mmapped = unsafe { vec_is_mmapped(&v) };
    v.resize(bytes, 1);
    std::hint::black_box(&v);
    drop(v);
    (t.elapsed().as_nanos() as f64, mmapped)
}

fn batches(bytes: usize, batches: usize, per_batch: usize) -> Vec<f64> {
    (0..batches)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..per_batch {
                let mut v: Vec<u8> = Vec::with_capacity(bytes);
                v.resize(bytes, 1);
                std::hint::black_box(&v);
            }
            t.elapsed().as_nanos() as f64 / per_batch as f64
        })
        .collect()
}

/// The `threshold-cost` probe, in a fresh process: find this process's edge (the first `u8`
/// length served by mmap, leaked so nothing moves), then time one allocation at the edge (mmap),
/// free it (the dynamic threshold rises), and time the heap side just below the default
/// threshold and the edge again.
///
/// # Safety
///
/// As [`vec_is_mmapped`]: the global allocator must be glibc's `malloc` (or forward to it).
pub unsafe fn probe_cost(n_batches: usize, per_batch: usize) -> CostProbe {
    // SAFETY: this function's contract is `scan_first_mmapped`'s.
    let edge = unsafe { scan_first_mmapped::<u8>() };
    let Some((edge, _)) = edge else {
        return CostProbe::default();
    };
    // SAFETY: as above.
    let (first_above_ns, first_above_mmapped) = unsafe { touch_cycle(edge) };
    let probe: Vec<u8> = Vec::with_capacity(edge);
    // SAFETY: as above.
    let after_free_mmapped = unsafe { vec_is_mmapped(&probe) };
    drop(probe);
    // Largest request whose chunk stays under the default threshold: always the heap.
    let below = predicted_first_request(DEFAULT_MMAP_THRESHOLD).min(edge) - 1;
    let below_ns = batches(below, n_batches, per_batch);
    let after_free_ns = batches(edge, n_batches, per_batch);
    CostProbe {
        edge,
        below,
        below_ns,
        first_above_ns,
        first_above_mmapped,
        after_free_mmapped,
        after_free_ns,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_chunk_layouts() {
        // A 128 KiB heap chunk whose previous chunk is in use: size | PREV_INUSE.
        assert!(!is_mmapped_word(0x2_0000 | 0b001));
        assert_eq!(chunk_size_of_word(0x2_0000 | 0b001), 131_072);
        // An mmapped chunk of 132 KiB: size | IS_MMAPPED (PREV_INUSE is never set for them).
        assert!(is_mmapped_word(0x2_1000 | 0b010));
        assert_eq!(chunk_size_of_word(0x2_1000 | 0b010), 135_168);
        // A chunk from a non-main arena: NON_MAIN_ARENA (bit 2) is not IS_MMAPPED.
        assert!(!is_mmapped_word(0x40 | 0b101));
    }

    #[test]
    fn chunk_rule() {
        assert_eq!(heap_chunk_size(1), 32);
        assert_eq!(heap_chunk_size(24), 32);
        assert_eq!(heap_chunk_size(25), 48);
        assert_eq!(heap_chunk_size(131_049), 131_072);
        assert_eq!(heap_chunk_size(131_048), 131_056);
        assert_eq!(predicted_first_request(DEFAULT_MMAP_THRESHOLD), 131_049);
    }

    // The unit tests run in the bench binary, whose global allocator is `main.rs`'s
    // `CountingAlloc<System>`: glibc's malloc, as `vec_is_mmapped` requires.

    #[test]
    fn small_buffers_are_heap_chunks() {
        let v: Vec<u8> = Vec::with_capacity(64);
        // SAFETY: the global allocator forwards to glibc's malloc (see above).
        assert!(!unsafe { vec_is_mmapped(&v) });
    }

    #[test]
    fn huge_buffers_are_mmapped() {
        // 64 MiB is far above any threshold glibc moves to (at most 32 MiB).
        let v: Vec<u8> = Vec::with_capacity(64 << 20);
        // SAFETY: the global allocator forwards to glibc's malloc (see above).
        assert_eq!(unsafe { vec_is_mmapped(&v) }, SUPPORTED);
    }
}

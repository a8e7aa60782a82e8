//! Allocation accounting: a counting global allocator and a region API around it.
//!
//! The course cites what an operation *allocates* (how many blocks, how many bytes, how much was
//! alive at once) next to what it costs in time. [`CountingAlloc`] wraps any [`GlobalAlloc`]
//! (normally [`System`](std::alloc::System)) and [`measure`] reports what one closure asked of it:
//!
//! ```
//! use std::alloc::System;
//! use course_pool::alloc_count::{self, CountingAlloc};
//!
//! #[global_allocator]
//! static A: CountingAlloc<System> = CountingAlloc::new(System);
//!
//! let (v, stats) = alloc_count::measure(|| Vec::<u8>::with_capacity(1000)).unwrap();
//! assert_eq!((stats.allocations, stats.bytes_allocated), (1, 1000));
//! drop(v);
//! ```
//!
//! # Who registers it
//!
//! Natively the library does **not** register a global allocator: a library that did would impose
//! it on every binary that links it. Binaries, benches and tests register it themselves with the
//! one line shown above. The wasm build registers it in `lib.rs`, because the widgets in the book
//! report counts and nothing else would.
//!
//! If the counting allocator is not the registered global allocator, every count would silently
//! stay at zero. [`measure`] refuses instead: it returns [`NotInstalled`]. [`installed`] answers
//! the question directly.
//!
//! # Threads: what a region counts
//!
//! A region counts **only the allocations made by the thread that opened it**. The counters are
//! const-initialised thread-locals (a [`Cell`], no destructor), so the allocator never allocates
//! to count and the native test harness, which runs tests on several threads at once, cannot
//! leak one test's allocations into another's numbers. The price: work that a region hands to
//! another thread (a thread pool, `std::thread::scope`) is not counted. Everything the course
//! measures (pool rents, chunkers) runs on the calling thread.
//!
//! # Cost when off
//!
//! Outside a region the allocator forwards each call after reading one thread-local depth counter.
//! Inside a region it also updates a handful of integers. It never locks and never allocates.
//!
//! # What "bytes" means
//!
//! Bytes are the sizes the program *requested* (`Layout::size()`), as Rust sees them. The system
//! allocator adds its own bookkeeping on top (glibc: an 8-byte size word per block, rounded up to
//! 16 bytes, at least 32), which no `GlobalAlloc` wrapper can see; .NET's "allocated bytes", by
//! contrast, include each array's 24-byte object header (see [`crate::chunk`]).

use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;
use std::fmt;
use std::sync::atomic::{AtomicU8, Ordering};

use serde::Serialize;

/// A [`GlobalAlloc`] that forwards to `A` and counts, per thread, what happens inside
/// [`measure`] regions.
///
/// Const-constructible, so it can be the `#[global_allocator]`:
///
/// ```
/// use std::alloc::System;
/// use course_pool::alloc_count::CountingAlloc;
///
/// #[global_allocator]
/// static A: CountingAlloc<System> = CountingAlloc::new(System);
///
/// assert!(course_pool::alloc_count::installed());
/// ```
///
/// All instances share the same per-thread counters (there is only one global allocator anyway).
#[derive(Debug, Default)]
pub struct CountingAlloc<A> {
    inner: A,
}

impl<A> CountingAlloc<A> {
    /// Wraps `inner`; counting is off until a [`measure`] region opens on a thread.
    pub const fn new(inner: A) -> Self {
        CountingAlloc { inner }
    }

    /// The wrapped allocator.
    pub const fn inner(&self) -> &A {
        &self.inner
    }
}

// === per-thread counters ===

/// Running totals of the current thread. Only changed while `depth > 0`.
#[derive(Clone, Copy, Debug, Default)]
struct Totals {
    depth: u32,
    allocations: u64,
    deallocations: u64,
    reallocations: u64,
    bytes_allocated: u64,
    bytes_reallocated: u64,
    bytes_freed: u64,
    /// Live bytes since counting began on this thread (may go negative: memory allocated outside a
    /// region and freed inside one).
    live: i64,
    /// Highest `live` seen since the innermost open region began.
    peak: i64,
}

impl Totals {
    const ZERO: Totals = Totals {
        depth: 0,
        allocations: 0,
        deallocations: 0,
        reallocations: 0,
        bytes_allocated: 0,
        bytes_reallocated: 0,
        bytes_freed: 0,
        live: 0,
        peak: 0,
    };

    fn grow(&mut self, bytes: usize) {
        self.live += bytes as i64;
        if self.live > self.peak {
            self.peak = self.live;
        }
    }
}

thread_local! {
    // `const` and `Copy` without `Drop`: no lazy initialisation and no destructor registration,
    // hence no allocation when the allocator touches it.
    static TOTALS: Cell<Totals> = const { Cell::new(Totals::ZERO) };
}

/// Applies `f` to this thread's totals if a region is open. Never allocates, never panics (during
/// thread teardown `try_with` fails and the call is simply not counted).
#[inline]
fn record(f: impl FnOnce(&mut Totals)) {
    let _ = TOTALS.try_with(|cell| {
        let mut t = cell.get();
        if t.depth > 0 {
            f(&mut t);
            cell.set(t);
        }
    });
}

// SAFETY: every method forwards to `self.inner` with exactly the arguments it received, so the
// caller's contract for `GlobalAlloc` is passed on unchanged; the bookkeeping around each call only
// touches a thread-local `Cell` and never allocates, so it cannot re-enter the allocator.
unsafe impl<A: GlobalAlloc> GlobalAlloc for CountingAlloc<A> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract for `layout`.
        let p = unsafe { self.inner.alloc(layout) };
        if !p.is_null() {
            record(|t| {
                t.allocations += 1;
                t.bytes_allocated += layout.size() as u64;
                t.grow(layout.size());
            });
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let p = unsafe { self.inner.alloc_zeroed(layout) };
        if !p.is_null() {
            record(|t| {
                t.allocations += 1;
                t.bytes_allocated += layout.size() as u64;
                t.grow(layout.size());
            });
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller guarantees `ptr` was allocated by this allocator with `layout`, and
        // this allocator's blocks are `inner`'s blocks.
        unsafe { self.inner.dealloc(ptr, layout) };
        record(|t| {
            t.deallocations += 1;
            t.bytes_freed += layout.size() as u64;
            t.live -= layout.size() as i64;
        });
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller upholds `GlobalAlloc::realloc`'s contract; `ptr` is `inner`'s block.
        let p = unsafe { self.inner.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            record(|t| {
                t.reallocations += 1;
                t.bytes_reallocated += new_size as u64;
                t.live -= layout.size() as i64;
                t.grow(new_size);
            });
        }
        p
    }
}

// === regions ===

/// What one [`measure`] region asked of the allocator, on the calling thread.
///
/// `bytes_*` are requested sizes (`Layout::size()`), not what the system allocator really reserved.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct AllocStats {
    /// Blocks allocated (`alloc` and `alloc_zeroed`).
    pub allocations: u64,
    /// Blocks freed (`dealloc`), including blocks allocated before the region.
    pub deallocations: u64,
    /// Blocks resized (`realloc`), whether the allocator moved them or grew them in place.
    pub reallocations: u64,
    /// Bytes requested by `alloc` and `alloc_zeroed`.
    pub bytes_allocated: u64,
    /// Bytes requested by `realloc` (the new sizes).
    pub bytes_reallocated: u64,
    /// Bytes freed by `dealloc`.
    pub bytes_freed: u64,
    /// `bytes_allocated + bytes_reallocated`: every byte the region asked for.
    pub bytes_requested: u64,
    /// The most bytes allocated in the region and alive at the same time (never below 0).
    pub peak_live_bytes: u64,
    /// Bytes allocated in the region and still alive at its end (negative if the region freed
    /// more than it allocated).
    pub net_live_bytes: i64,
}

/// [`measure`] was called but [`CountingAlloc`] is not the registered global allocator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct NotInstalled;

impl fmt::Display for NotInstalled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "the counting allocator is not the global allocator: register \
             `#[global_allocator] static A: CountingAlloc<System> = CountingAlloc::new(System);`",
        )
    }
}

impl std::error::Error for NotInstalled {}

const UNKNOWN: u8 = 0;
const YES: u8 = 1;
const NO: u8 = 2;
static INSTALLED: AtomicU8 = AtomicU8::new(UNKNOWN);

/// Whether a [`CountingAlloc`] is the registered global allocator.
///
/// Found out once, by allocating one byte with counting on and seeing whether it was counted; the
/// answer is cached (the global allocator cannot change while a program runs). The probe leaves
/// the counters as they were.
///
/// ```
/// // No `#[global_allocator]` in this program: counts would be zeros, so `measure` refuses.
/// assert!(!course_pool::alloc_count::installed());
/// assert!(course_pool::alloc_count::measure(|| vec![1u8]).is_err());
/// ```
pub fn installed() -> bool {
    match INSTALLED.load(Ordering::Relaxed) {
        YES => return true,
        NO => return false,
        _ => {}
    }
    let before = TOTALS.with(Cell::get);
    TOTALS.with(|c| {
        c.set(Totals {
            depth: 1,
            ..Totals::ZERO
        })
    });
    let probe: Vec<u8> = Vec::with_capacity(1);
    std::hint::black_box(&probe);
    drop(probe);
    let seen = TOTALS.with(Cell::get).allocations > 0;
    TOTALS.with(|c| c.set(before));
    INSTALLED.store(if seen { YES } else { NO }, Ordering::Relaxed);
    seen
}

/// An open region; closing it (also on unwind) restores the enclosing region's state.
struct Region {
    start: Totals,
    outer_peak: i64,
    closed: bool,
}

impl Region {
    fn open() -> Region {
        TOTALS.with(|c| {
            let mut t = c.get();
            let outer_peak = t.peak;
            t.depth += 1;
            t.peak = t.live;
            c.set(t);
            Region {
                start: t,
                outer_peak,
                closed: false,
            }
        })
    }

    fn close(mut self) -> AllocStats {
        self.closed = true;
        TOTALS.with(|c| {
            let mut t = c.get();
            let s = &self.start;
            let stats = AllocStats {
                allocations: t.allocations - s.allocations,
                deallocations: t.deallocations - s.deallocations,
                reallocations: t.reallocations - s.reallocations,
                bytes_allocated: t.bytes_allocated - s.bytes_allocated,
                bytes_reallocated: t.bytes_reallocated - s.bytes_reallocated,
                bytes_freed: t.bytes_freed - s.bytes_freed,
                bytes_requested: (t.bytes_allocated - s.bytes_allocated)
                    + (t.bytes_reallocated - s.bytes_reallocated),
                peak_live_bytes: (t.peak - s.live).max(0) as u64,
                net_live_bytes: t.live - s.live,
            };
            t.depth -= 1;
            t.peak = t.peak.max(self.outer_peak);
            c.set(t);
            stats
        })
    }
}

impl Drop for Region {
    fn drop(&mut self) {
        if !self.closed {
            let _ = TOTALS.try_with(|c| {
                let mut t = c.get();
                t.depth = t.depth.saturating_sub(1);
                t.peak = t.peak.max(self.outer_peak);
                c.set(t);
            });
        }
    }
}

/// Runs `work` and reports what it allocated on this thread.
///
/// Regions nest: an inner region's allocations also count in the outer one. The value `work`
/// returns is moved out, not dropped, so memory it owns shows up in
/// [`net_live_bytes`](AllocStats::net_live_bytes).
///
/// # Errors
///
/// [`NotInstalled`] (without running `work`) if [`CountingAlloc`] is not the global allocator.
///
/// # Examples
///
/// ```
/// use std::alloc::System;
/// use course_pool::alloc_count::{measure, CountingAlloc};
///
/// #[global_allocator]
/// static A: CountingAlloc<System> = CountingAlloc::new(System);
///
/// // Pushing 5 `i32`s one by one: Rust's growth policy allocates 4, then grows to 8 in place or not.
/// let (_, stats) = measure(|| {
///     let mut v = Vec::new();
///     for i in 0..5_i32 {
///         v.push(i);
///     }
///     v.len()
/// })
/// .unwrap();
/// assert_eq!((stats.allocations, stats.reallocations), (1, 1));
/// assert_eq!((stats.bytes_allocated, stats.bytes_reallocated), (16, 32));
/// assert_eq!((stats.peak_live_bytes, stats.net_live_bytes), (32, 0));
/// ```
pub fn measure<R>(work: impl FnOnce() -> R) -> Result<(R, AllocStats), NotInstalled> {
    if !installed() {
        return Err(NotInstalled);
    }
    let region = Region::open();
    let out = work();
    Ok((out, region.close()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::alloc::System;

    // The unit-test binary has no counting global allocator: drive one by hand.
    static C: CountingAlloc<System> = CountingAlloc::new(System);

    #[test]
    fn not_installed_is_reported_not_zero() {
        assert!(!installed());
        assert_eq!(measure(|| vec![0u8; 10]).unwrap_err(), NotInstalled);
        assert!(NotInstalled.to_string().contains("#[global_allocator]"));
    }

    #[test]
    fn counts_a_direct_instance_inside_a_region() {
        let l = Layout::from_size_align(100, 8).unwrap();
        let region = Region::open();
        // SAFETY: `l` has non-zero size; the block is freed with the same layout below.
        unsafe {
            let p = C.alloc(l);
            let p = C.realloc(p, l, 300);
            C.dealloc(p, Layout::from_size_align(300, 8).unwrap());
        }
        let s = region.close();
        assert_eq!(
            s,
            AllocStats {
                allocations: 1,
                deallocations: 1,
                reallocations: 1,
                bytes_allocated: 100,
                bytes_reallocated: 300,
                bytes_freed: 300,
                bytes_requested: 400,
                peak_live_bytes: 300,
                net_live_bytes: 0,
            }
        );
    }

    #[test]
    fn outside_a_region_nothing_is_counted_and_nesting_adds_up() {
        let l = Layout::from_size_align(64, 8).unwrap();
        let before = TOTALS.with(Cell::get).allocations;
        // SAFETY: non-zero layout, freed with the same layout.
        unsafe { C.dealloc(C.alloc(l), l) };
        assert_eq!(TOTALS.with(Cell::get).allocations, before);

        let outer = Region::open();
        // SAFETY: as above.
        let a = unsafe { C.alloc(l) };
        let inner = Region::open();
        // SAFETY: as above.
        unsafe { C.dealloc(C.alloc(l), l) };
        let si = inner.close();
        // SAFETY: `a` came from `C.alloc(l)`.
        unsafe { C.dealloc(a, l) };
        let so = outer.close();
        assert_eq!((si.allocations, si.peak_live_bytes), (1, 64));
        assert_eq!(
            (so.allocations, so.peak_live_bytes, so.net_live_bytes),
            (2, 128, 0)
        );
        assert_eq!(TOTALS.with(Cell::get).depth, 0);
    }
}

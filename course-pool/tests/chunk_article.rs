//! The article's numbers, checked against the counting allocator, block by block.
//!
//! The counting allocator wraps a recorder that logs each block size the current thread requests
//! while recording is on, so "14 arrays of 4, 8, …, 16,384, 20,000" is checked literally.

#![cfg(not(target_arch = "wasm32"))] // native only: uses proptest/serde_json and 64-bit sizes

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use course_pool::alloc_count::{self, AllocStats, CountingAlloc};
use course_pool::chunk::dotnet::{self, ArrayChunkIterator, EnumerableChunkIterator, Path};
use course_pool::chunk::{
    ChunkError, CollectChunks, FreeList, Mode, Plan, Source, SourceKind, Strategy, UnknownLen,
    blocks, run,
};

// === a recorder under the counting allocator ===

const LOG: usize = 64;
thread_local! {
    static RECORDING: Cell<bool> = const { Cell::new(false) };
    static SIZES: Cell<[usize; LOG]> = const { Cell::new([0; LOG]) };
    static COUNT: Cell<usize> = const { Cell::new(0) };
}

struct Recorder;

impl Recorder {
    fn note(size: usize) {
        let _ = RECORDING.try_with(|on| {
            if on.get() {
                let n = COUNT.with(Cell::get);
                if n < LOG {
                    SIZES.with(|s| {
                        let mut a = s.get();
                        a[n] = size;
                        s.set(a);
                    });
                }
                COUNT.with(|c| c.set(n + 1));
            }
        });
    }
}

// SAFETY: forwards every call to `System` unchanged; the logging touches only thread-local cells
// and never allocates.
unsafe impl GlobalAlloc for Recorder {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        Recorder::note(layout.size());
        // SAFETY: the caller's contract is passed on.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        Recorder::note(layout.size());
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        Recorder::note(new_size);
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static A: CountingAlloc<Recorder> = CountingAlloc::new(Recorder);

/// Runs `work`, returning its counts and the sizes (bytes) of the blocks it requested, in order.
fn blocks_of<R>(work: impl FnOnce() -> R) -> (R, AllocStats, Vec<usize>) {
    assert!(alloc_count::installed()); // its one-time probe allocates: keep it out of the log
    COUNT.with(|c| c.set(0));
    RECORDING.with(|r| r.set(true));
    let (out, stats) = alloc_count::measure(work).expect("counting allocator installed");
    RECORDING.with(|r| r.set(false));
    let n = COUNT.with(Cell::get).min(LOG);
    let sizes = SIZES.with(Cell::get)[..n].to_vec();
    (out, stats, sizes)
}

fn plan(strategy: Strategy, size: usize, mode: Mode) -> Plan {
    Plan {
        strategy,
        size,
        mode,
        max_chunks: None,
    }
}

// === the article ===

#[test]
fn first_chunk_of_20000_i32_is_14_arrays() {
    let mut it = EnumerableChunkIterator::new(UnknownLen(0..40_000_i32), 20_000).unwrap();
    let (first, stats, sizes) = blocks_of(|| it.next().unwrap());
    let lengths: Vec<usize> = sizes.iter().map(|b| b / 4).collect();
    let mut expected: Vec<usize> = (2..=14).map(|e| 1 << e).collect(); // 4 … 16,384
    expected.push(20_000);
    assert_eq!(lengths, expected);
    assert_eq!(stats.allocations, 14);
    assert_eq!(stats.deallocations, 13); // the 13 outgrown arrays
    assert_eq!(stats.bytes_allocated, 211_056); // .NET: + 14 × 24 B + 112 B = 211,504 B
    assert_eq!(stats.net_live_bytes, 80_000);
    // The last resize holds the 16,384-element array and the 20,000-element one at once.
    assert_eq!(stats.peak_live_bytes, (16_384 + 20_000) * 4);
    assert_eq!(first.len(), 20_000);
    assert!(first.iter().copied().eq(0..20_000));

    let (second, stats, sizes) = blocks_of(|| it.next().unwrap());
    assert_eq!(sizes, [80_000]); // .NET: 80,024 B
    assert_eq!(stats.allocations, 1);
    assert!(second.iter().copied().eq(20_000..40_000));
    assert!(it.next().is_none());
    assert_eq!(dotnet::dotnet_array_bytes(20_000, 4), 80_024);
}

#[test]
fn ten_items_at_size_100_grow_then_trim() {
    let mut it = EnumerableChunkIterator::new(UnknownLen(1..=10_i32), 100).unwrap();
    let (chunk, stats, sizes) = blocks_of(|| it.next());
    assert_eq!(sizes, [4 * 4, 8 * 4, 16 * 4, 10 * 4]);
    assert_eq!((stats.allocations, stats.deallocations), (4, 3));
    assert_eq!(&*chunk.unwrap(), &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    let (none, stats, _) = blocks_of(|| it.next());
    assert!(none.is_none());
    assert_eq!(stats.allocations, 0);
}

#[test]
fn a_partial_later_chunk_is_trimmed_with_one_more_array() {
    let mut it = EnumerableChunkIterator::new(UnknownLen(0..10_u8), 4).unwrap();
    let (all, _, sizes) = blocks_of(|| it.by_ref().collect::<Vec<_>>());
    // size <= 4: every chunk starts at full size; the last (2 items) is trimmed. (The 64 B block
    // is `collect`'s holder for 4 chunk pointers, allocated after the first chunk.)
    assert_eq!(sizes, [4, 64, 4, 4, 2]);
    assert_eq!(all.len(), 3);
}

#[test]
fn empty_sources_allocate_nothing() {
    let empty: Vec<i32> = Vec::new();
    let (n, stats, _) = blocks_of(|| {
        EnumerableChunkIterator::new(UnknownLen(std::iter::empty::<i32>()), 100)
            .unwrap()
            .count()
    });
    assert_eq!((n, stats.allocations), (0, 0));
    let c = dotnet::chunk(Source::Slice(&empty), 5).unwrap();
    assert_eq!(c.path(), Path::EmptyArray);

    let mut pool = FreeList::with_capacity(1);
    for strategy in Strategy::ALL {
        for kind in SourceKind::ALL {
            for mode in [Mode::Drop, Mode::Hold] {
                if strategy.check(kind, mode).is_err() {
                    continue;
                }
                let (r, stats, _) = blocks_of(|| {
                    run(
                        plan(strategy, 7, mode),
                        Source::of(kind, &empty),
                        Some(&mut pool),
                        &mut |_| panic!("no chunk expected"),
                    )
                });
                assert_eq!(r.unwrap().chunks, 0);
                assert_eq!(stats.allocations, 0, "{strategy:?} on {kind:?} ({mode:?})");
            }
        }
    }
}

#[test]
fn array_path_allocates_each_chunk_once_at_its_exact_size() {
    let data: Vec<i32> = (0..10).collect();
    let (chunks, stats, sizes) = blocks_of(|| {
        ArrayChunkIterator::new(&data, 4)
            .unwrap()
            .collect::<Vec<_>>()
    });
    // `collect` pulls the first chunk, then sizes its holder for 4 fat pointers (Rust's minimum).
    assert_eq!(sizes, [16, 4 * 16, 16, 8]);
    assert_eq!(stats.allocations, 4);
    assert_eq!(chunks.len(), 3);
}

#[test]
fn rust_collect_grows_by_doubling_with_realloc() {
    let (chunk, stats, sizes) = blocks_of(|| {
        CollectChunks::new(UnknownLen(0..20_000_i32), 20_000)
            .unwrap()
            .next()
            .unwrap()
    });
    let caps: Vec<usize> = sizes.iter().map(|b| b / 4).collect();
    let expected: Vec<usize> = (2..=15).map(|e| 1 << e).collect(); // 4 … 32,768
    assert_eq!(caps, expected);
    assert_eq!((stats.allocations, stats.reallocations), (1, 13));
    assert_eq!((chunk.len(), chunk.capacity()), (20_000, 32_768));
    assert_eq!(CollectChunks::<()>::growth(20_000, 4), expected);
    assert_eq!(CollectChunks::<()>::growth(9, 1), [8, 16]);
}

#[test]
fn the_path_depends_on_the_source_kind() {
    let data: Vec<i32> = (0..100).collect();
    let path = |s| dotnet::chunk(s, 10).unwrap().path();
    assert_eq!(path(Source::Slice(&data)), Path::Array);
    assert_eq!(path(Source::Vec(&data)), Path::Enumerable);
    assert_eq!(path(Source::Yielded(&data)), Path::Enumerable);
}

#[test]
fn zero_size_is_a_typed_error_everywhere() {
    let data = [1_u8, 2, 3];
    assert_eq!(
        ArrayChunkIterator::new(&data, 0).unwrap_err(),
        ChunkError::ZeroSize
    );
    assert!(EnumerableChunkIterator::new(data.iter().copied(), 0).is_err());
    assert!(CollectChunks::new(data.iter().copied(), 0).is_err());
    assert!(dotnet::chunk(Source::Slice(&data), 0).is_err());
    let mut pool = FreeList::with_capacity(1);
    for strategy in Strategy::ALL {
        let r = run(
            plan(strategy, 0, Mode::Drop),
            Source::Slice(&data),
            Some(&mut pool),
            &mut |_| (),
        );
        assert_eq!(r.unwrap_err(), ChunkError::ZeroSize);
    }
    assert_eq!(
        ChunkError::ZeroSize.to_string(),
        "chunk size must be at least 1"
    );
    assert_eq!(blocks::<u8>(10, 0).unwrap_err(), ChunkError::ZeroSize);
}

#[test]
fn misuse_is_reported_not_panicked() {
    let data = vec![1_i32; 10];
    let r = run(
        plan(Strategy::SliceChunks, 3, Mode::Drop),
        Source::Yielded(&data),
        None,
        &mut |_| (),
    );
    assert!(matches!(r, Err(ChunkError::Unsupported { .. })));
    let r = run(
        plan(Strategy::ReusedBuffer, 3, Mode::Hold),
        Source::Slice(&data),
        None,
        &mut |_| (),
    );
    assert!(r.unwrap_err().to_string().contains("cannot be held"));
    let r = run(
        plan(Strategy::Pooled, 3, Mode::Drop),
        Source::Slice(&data),
        None,
        &mut |_| (),
    );
    assert_eq!(r.unwrap_err(), ChunkError::NoPool);
    // An absurd size is the one short chunk, from every strategy that reads an iterator: none
    // allocates the chunk size before reading (.NET's `DoesNotPrematurelyAllocateHugeArray`).
    for (strategy, mode) in [
        (Strategy::DotnetChunk, Mode::Hold),
        (Strategy::DotnetEnumerablePath, Mode::Hold),
        (Strategy::CollectVec, Mode::Hold),
        (Strategy::ReusedBuffer, Mode::Drop),
        (Strategy::Pooled, Mode::Hold),
    ] {
        let mut n = 0;
        let mut pool = FreeList::<i32>::default();
        let r = run(
            plan(strategy, usize::MAX, mode),
            Source::Yielded(&data),
            Some(&mut pool),
            &mut |c| n += c.len(),
        );
        assert_eq!((r.unwrap().chunks, n), (1, 10), "{strategy:?}");
    }
}

#[test]
fn holding_chunks_keeps_them_all_alive() {
    let data: Vec<i32> = (0..40_000).collect();
    let live = |mode| {
        let (r, stats, _) = blocks_of(|| {
            run(
                plan(Strategy::DotnetArrayPath, 10_000, mode),
                Source::Slice(&data),
                None,
                &mut |_| (),
            )
        });
        assert_eq!(r.unwrap().chunks, 4);
        stats
    };
    let dropped = live(Mode::Drop);
    let held = live(Mode::Hold);
    assert_eq!(dropped.peak_live_bytes, 40_000);
    assert_eq!(held.peak_live_bytes, 160_000 + 4 * 16); // four chunks + the holder
    assert_eq!(held.allocations, dropped.allocations + 1);
}

#[test]
fn blocks_report_matches_its_formulas_and_the_article() {
    let report = blocks::<i32>(40_000, 20_000).unwrap();
    for row in &report.rows {
        assert_eq!(row.first, row.predicted_first, "{row:?}");
        assert_eq!(row.later, row.predicted_later, "{row:?}");
    }
    let row = report
        .row(Strategy::DotnetEnumerablePath, SourceKind::Yielded)
        .unwrap();
    assert_eq!(row.dotnet_first_bytes, Some(211_504));
    assert_eq!(row.dotnet_later_bytes, Some(80_024));
    assert_eq!(row.largest_block_bytes, 80_000);
    let slice = report
        .row(Strategy::DotnetChunk, SourceKind::Slice)
        .unwrap();
    assert_eq!(slice.path, "ArrayChunkIterator");
    assert_eq!((slice.first.allocations, slice.first.bytes), (1, 80_000));
    let zero_copy = report.row(Strategy::SliceChunks, SourceKind::Vec).unwrap();
    assert_eq!(
        zero_copy.first.allocations + zero_copy.later.unwrap().allocations,
        0
    );
    assert!(
        report
            .row(Strategy::SliceChunks, SourceKind::Yielded)
            .is_none()
    );
    // 25,000 `int` crosses .NET's large-object threshold, 20,000 does not.
    let big = blocks::<i32>(25_000, 25_000).unwrap();
    let r = big.row(Strategy::DotnetChunk, SourceKind::Slice).unwrap();
    assert_eq!(r.dotnet_first_chunk_in_loh, Some(true));
    assert_eq!(r.dotnet_first_bytes, Some(100_024));
    assert_eq!(slice.dotnet_first_chunk_in_loh, Some(false));
    let text = report.to_string();
    assert!(text.contains("EnumerableChunkIterator"));
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["rows"][0]["strategy"], "dotnet_chunk");
    assert_eq!(json["rows"][0]["first"]["allocations"], 1);
}

#[test]
fn absurd_sizes_give_finite_predictions() {
    use course_pool::chunk::predict_blocks;
    for strategy in Strategy::ALL {
        let b = predict_blocks(strategy, SourceKind::Vec, usize::MAX, usize::MAX, 8, 0).unwrap();
        assert!(b.len() <= 70, "{strategy:?}");
    }
    let arrays =
        EnumerableChunkIterator::<std::iter::Empty<u8>>::first_chunk_arrays(usize::MAX, usize::MAX);
    assert_eq!(arrays.len(), 63); // 2^2 … 2^63, then usize::MAX
    assert_eq!(dotnet::dotnet_array_bytes(usize::MAX, 8), !7_u64);
}

/// The LOH edge of the `blocks` report is the article's: 21,243 `int` stay in gen 0, 21,244 do not.
#[test]
fn blocks_report_places_the_loh_edge_where_dotnet_does() {
    for (size, in_loh) in [(21_243, false), (21_244, true)] {
        let report = course_pool::chunk::blocks::<i32>(2 * size, size).unwrap();
        let row = report
            .row(Strategy::DotnetArrayPath, SourceKind::Slice)
            .expect("the array path has a row for slices");
        assert_eq!(
            row.dotnet_first_chunk_in_loh,
            Some(in_loh),
            "chunk of {size} int"
        );
    }
}

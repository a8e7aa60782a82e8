//! Properties of the chunkers: every strategy yields the same chunks, and every strategy allocates
//! exactly what its documented formula says.

#![cfg(not(target_arch = "wasm32"))] // native only: proptest

use std::alloc::System;

use bufpool::pool::SharedPool;
use course_pool::alloc_count::{self, AllocStats, CountingAlloc};
use course_pool::chunk::{
    Element, FIRST_STEP, FreeList, Mode, Plan, RentBuffer, RunSummary, Source, SourceKind,
    Strategy, growth_steps, predict_blocks, run,
};
use proptest::prelude::*;

#[global_allocator]
static A: CountingAlloc<System> = CountingAlloc::new(System);

fn config() -> ProptestConfig {
    // Two shared cores: a few hundred small cases keep this file under a second or two.
    ProptestConfig {
        cases: 200,
        ..ProptestConfig::default()
    }
}

fn plan(strategy: Strategy, size: usize, mode: Mode) -> Plan {
    Plan {
        strategy,
        size,
        mode,
        max_chunks: None,
    }
}

/// Runs every applicable strategy × source × mode and returns the chunks each produced.
fn all_chunkings<T: Element>(data: &Vec<T>, size: usize) -> Vec<(String, Vec<Vec<T>>)> {
    let mut out = Vec::new();
    for strategy in Strategy::ALL {
        for kind in SourceKind::ALL {
            for mode in [Mode::Drop, Mode::Hold] {
                if strategy.check(kind, mode).is_err() {
                    continue;
                }
                let mut chunks = Vec::new();
                let mut pool = FreeList::with_capacity(4);
                let s = run(
                    plan(strategy, size, mode),
                    Source::of(kind, data),
                    Some(&mut pool),
                    &mut |c| chunks.push(c.to_vec()),
                )
                .unwrap();
                assert_eq!(s.chunks, chunks.len());
                out.push((format!("{strategy:?}/{kind:?}/{mode:?}"), chunks));
            }
        }
    }
    out
}

fn check_same_chunks<T: Element>(data: &Vec<T>, size: usize) {
    let reference: Vec<Vec<T>> = data.chunks(size).map(<[T]>::to_vec).collect();
    for (name, chunks) in all_chunkings(data, size) {
        assert_eq!(chunks, reference, "{name}");
    }
}

/// Measured allocations of a full drop-mode run.
fn measured<T: Element>(
    strategy: Strategy,
    kind: SourceKind,
    data: &Vec<T>,
    size: usize,
) -> (RunSummary, AllocStats) {
    // Room for a buffer per growth step, so the free list's own stack never grows.
    let mut pool = FreeList::with_capacity(usize::BITS as usize);
    let (r, stats) = alloc_count::measure(|| {
        run(
            plan(strategy, size, Mode::Drop),
            Source::of(kind, data),
            Some(&mut pool),
            &mut |_| (),
        )
    })
    .unwrap();
    (r.unwrap(), stats)
}

/// Sum of the formula's blocks over every chunk: (allocations, reallocations, bytes).
fn predicted(
    strategy: Strategy,
    kind: SourceKind,
    len: usize,
    size: usize,
    elem: usize,
) -> (u64, u64, u64) {
    let mut total = (0, 0, 0);
    for index in 0..len.div_ceil(size) {
        for b in predict_blocks(strategy, kind, len, size, elem, index).unwrap() {
            match b {
                course_pool::chunk::Block::Alloc(_) => total.0 += 1,
                course_pool::chunk::Block::Realloc(_) => total.1 += 1,
            }
            total.2 += (b.len() * elem) as u64;
        }
    }
    total
}

fn check_counts<T: Element>(data: &Vec<T>, size: usize) {
    let len = data.len();
    let elem = size_of::<T>();
    let chunks = len.div_ceil(size) as u64;
    for strategy in Strategy::ALL {
        for kind in SourceKind::ALL {
            if strategy.check(kind, Mode::Drop).is_err() {
                continue;
            }
            let (summary, stats) = measured(strategy, kind, data, size);
            assert_eq!(summary.chunks as u64, chunks);
            let got = (
                stats.allocations,
                stats.reallocations,
                stats.bytes_requested,
            );
            assert_eq!(
                got,
                predicted(strategy, kind, len, size, elem),
                "{strategy:?} on {kind:?}, len {len}, size {size}"
            );
            // Drop mode leaves nothing behind, except the buffer kept by the pool.
            let kept = if strategy == Strategy::Pooled {
                got.2 as i64
            } else {
                0
            };
            assert_eq!(stats.net_live_bytes, kept, "{strategy:?} on {kind:?}");
        }
    }
}

/// The enumerable path's first full chunk: `1 + ceil(log2(size / min(size, 4)))` arrays.
fn enumerable_first_chunk_arrays(size: usize) -> u64 {
    let start = size.min(4) as f64;
    1 + (size as f64 / start).log2().ceil() as u64
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn every_strategy_yields_the_same_chunks_i32(
        data in prop::collection::vec(any::<i32>(), 0..300),
        size in 1usize..64,
    ) {
        check_same_chunks(&data, size);
    }

    #[test]
    fn every_strategy_yields_the_same_chunks_u8(
        data in prop::collection::vec(any::<u8>(), 0..300),
        size in prop_oneof![1usize..40, 250usize..400],
    ) {
        check_same_chunks(&data, size);
    }

    #[test]
    fn counts_match_the_formulas_i32(len in 0usize..600, size in 1usize..300) {
        let data = vec![7_i32; len];
        check_counts(&data, size);
    }

    #[test]
    fn counts_match_the_formulas_u8(len in 0usize..600, size in 1usize..300) {
        let data = vec![7_u8; len];
        check_counts(&data, size);
    }

    #[test]
    fn dotnet_formulas_in_closed_form(chunks in 1usize..5, size in 1usize..2_000, tail in 0usize..2_000) {
        let tail = tail % size; // a partial last chunk of `tail` items, or none
        let len = chunks * size + tail;
        let data = vec![1_i32; len];
        let n_chunks = (chunks + usize::from(tail > 0)) as u64;

        // Enumerable path: first full chunk 1 + ceil(log2(size / min(size, 4))) arrays, later
        // chunks 1 each, a partial last chunk 1 more (the trim), unless it is the first chunk.
        let (_, s) = measured(Strategy::DotnetEnumerablePath, SourceKind::Vec, &data, size);
        let trim = u64::from(tail > 0);
        let expected = enumerable_first_chunk_arrays(size) + (n_chunks - 1) + trim;
        prop_assert_eq!(s.allocations, expected);
        prop_assert_eq!(s.reallocations, 0);

        // Array path: one array per chunk, bytes = the data.
        let (_, s) = measured(Strategy::DotnetArrayPath, SourceKind::Slice, &data, size);
        prop_assert_eq!((s.allocations, s.bytes_requested), (n_chunks, (len * 4) as u64));

        // `Enumerable.Chunk` picks by source kind.
        let (_, on_slice) = measured(Strategy::DotnetChunk, SourceKind::Slice, &data, size);
        prop_assert_eq!(on_slice.allocations, n_chunks);
        let (_, on_iter) = measured(Strategy::DotnetChunk, SourceKind::Yielded, &data, size);
        prop_assert_eq!(on_iter.allocations, expected);

        // Zero-copy: nothing at all. Reused buffer: one buffer, from an iterator grown in steps
        // to the first chunk's length (never to more than it read, doubled).
        let (_, s) = measured(Strategy::SliceChunks, SourceKind::Vec, &data, size);
        prop_assert_eq!(s.allocations + s.reallocations, 0);
        let (_, s) = measured(Strategy::ReusedBuffer, SourceKind::Yielded, &data, size);
        let steps = growth_steps(len.min(size), size);
        let step_bytes = (steps.iter().sum::<usize>() * 4) as u64;
        prop_assert_eq!(
            (s.allocations, s.reallocations, s.bytes_requested),
            (u64::from(len > 0), steps.len().saturating_sub(1) as u64, step_bytes)
        );
    }

    #[test]
    fn holding_keeps_every_chunk_alive(len in 1usize..2_000, size in 1usize..500) {
        let data = vec![3_i32; len];
        let peak = |mode| {
            let (r, s) = alloc_count::measure(|| {
                run(plan(Strategy::DotnetArrayPath, size, mode), Source::Slice(&data), None, &mut |_| ())
            }).unwrap();
            r.unwrap();
            s.peak_live_bytes
        };
        let holder = (len.div_ceil(size) * size_of::<Box<[i32]>>()) as u64;
        prop_assert_eq!(peak(Mode::Hold), (len * 4) as u64 + holder);
        prop_assert_eq!(peak(Mode::Drop), (size.min(len) * 4) as u64);
    }
}

#[test]
fn regions_on_other_threads_do_not_interfere() {
    // The harness runs tests on several threads; regions count only their own thread.
    let handles: Vec<_> = (0..4)
        .map(|i| {
            std::thread::spawn(move || {
                let mut total = 0;
                for _ in 0..50 {
                    let (_, s) =
                        alloc_count::measure(|| Vec::<u8>::with_capacity(100 + i)).unwrap();
                    total += s.bytes_allocated;
                    assert_eq!(s.allocations, 1);
                }
                total
            })
        })
        .collect();
    for (i, h) in handles.into_iter().enumerate() {
        assert_eq!(h.join().unwrap(), 50 * (100 + i as u64));
    }
}

/// Bytes a run of the reused or pooled chunker may request: what it read, rounded up to a growth
/// step or a bucket (each at most twice what it rounds, or the first step), for every buffer a
/// chunk passed through (their lengths double, so their sum is at most twice the last), plus the
/// holder of held chunks (a pointer and a length per chunk).
///
/// Plus, after a full chunk, one rent of the full chunk's length (bucket-rounded: twice) for a
/// last chunk that may turn out shorter: a chunk after a full one starts at that length, as
/// .NET's `Chunk` allocates `size` for every chunk after the first once it has read one element
/// (`arraySize` carries over, `Chunk.cs`). Found by this property (1,088 ints in chunks of
/// 1,025, held, from a shared pool: the last chunk of 63 rents the 2,048 bucket).
fn read_bound(read: usize, chunks: usize, size: usize, elem: usize) -> u64 {
    let per_chunk_floor = chunks * FIRST_STEP;
    let carried = if chunks > 1 { 2 * size.min(read) } else { 0 };
    ((4 * (read + per_chunk_floor) + carried) * elem + chunks * size_of::<Box<[u8]>>()) as u64
}

/// A chunk size: small, around the data's length, or absurd up to `usize::MAX`.
fn any_size() -> impl proptest::strategy::Strategy<Value = usize> {
    prop_oneof![
        1usize..64,
        1usize..5_000,
        Just(usize::MAX),
        Just(usize::MAX / 2),
        (1usize << 20)..usize::MAX,
    ]
}

fn check_reads_before_allocating<T: Element + bufpool::pool::Element>(
    data: &Vec<T>,
    size: usize,
    kind: SourceKind,
) -> Result<(), TestCaseError> {
    let elem = size_of::<T>();
    let cases = [
        (Strategy::ReusedBuffer, Mode::Drop, false),
        (Strategy::Pooled, Mode::Drop, false),
        (Strategy::Pooled, Mode::Hold, false),
        (Strategy::Pooled, Mode::Drop, true),
        (Strategy::Pooled, Mode::Hold, true),
    ];
    for (strategy, mode, shared) in cases {
        let mut free = FreeList::<T>::with_capacity(usize::BITS as usize);
        let mut bucketed = SharedPool::<T>::new();
        // The pool's own bookkeeping (this thread's slots) is made before the measured run.
        let warm = RentBuffer::rent(&mut bucketed, 1).unwrap();
        RentBuffer::give_back(&mut bucketed, warm);
        let pool: &mut dyn RentBuffer<T> = if shared { &mut bucketed } else { &mut free };
        let plan = Plan {
            strategy,
            size,
            mode,
            max_chunks: None,
        };
        let (r, stats) =
            alloc_count::measure(|| run(plan, Source::of(kind, data), Some(pool), &mut |_| ()))
                .unwrap();
        let r = r.map_err(|e| TestCaseError::fail(format!("{strategy:?} {mode:?}: {e}")))?;
        prop_assert_eq!(r.elements, data.len());
        // A shared pool's partitions grow their stacks on give-back: a few words per bucket.
        let bookkeeping = if shared {
            64 * size_of::<usize>() as u64 * 4
        } else {
            0
        };
        let bound = read_bound(r.elements, r.chunks, size, elem) + bookkeeping;
        prop_assert!(
            stats.bytes_requested <= bound,
            "{:?} {:?} (shared pool: {}) on {:?}: {} elements of {} B in chunks of {} requested {} B, more than the {} B they round to",
            strategy,
            mode,
            shared,
            kind,
            data.len(),
            elem,
            size,
            stats.bytes_requested,
            bound
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// No chunker allocates more than it has read, rounded to its growth step or bucket, for
    /// any source, length and chunk size up to `usize::MAX` (.NET's
    /// `ChunkTests.DoesNotPrematurelyAllocateHugeArray`: ten elements in chunks of
    /// `int.MaxValue` are one short chunk, not an out-of-memory error).
    #[test]
    fn chunkers_allocate_no_more_than_they_read(
        len in prop_oneof![0usize..40, 0usize..3_000],
        size in any_size(),
        kind in prop::sample::select(SourceKind::ALL.to_vec()),
    ) {
        let bytes: Vec<u8> = (0..len).map(|i| i as u8).collect();
        check_reads_before_allocating(&bytes, size, kind)?;
        let ints: Vec<i32> = (0..len as i32).collect();
        check_reads_before_allocating(&ints, size, kind)?;
    }
}

/// The case this property found: the last chunk after a full one is rented at the full length.
#[test]
fn a_short_last_chunk_after_a_full_one_stays_within_the_bound() {
    let ints: Vec<i32> = (0..1088).collect();
    check_reads_before_allocating(&ints, 1025, SourceKind::Yielded).unwrap();
}

/// The .NET test itself: ten elements in chunks of the largest size are one chunk of ten, from
/// every strategy that reads a yielded source, with no block near the chunk size.
#[test]
fn does_not_prematurely_allocate_huge_array() {
    let data: Vec<i32> = (0..10).collect();
    for strategy in Strategy::ALL {
        for mode in [Mode::Drop, Mode::Hold] {
            if strategy.check(SourceKind::Yielded, mode).is_err() {
                continue;
            }
            let mut pool = FreeList::<i32>::with_capacity(usize::BITS as usize);
            let mut chunks = Vec::new();
            let (r, stats) = alloc_count::measure(|| {
                run(
                    plan(strategy, usize::MAX, mode),
                    Source::Yielded(&data),
                    Some(&mut pool),
                    &mut |c| chunks.push(c.len()),
                )
            })
            .unwrap();
            assert_eq!(r.unwrap().chunks, 1, "{strategy:?} {mode:?}");
            assert_eq!(chunks, [10], "{strategy:?} {mode:?}");
            assert!(
                stats.bytes_requested <= 1024,
                "{strategy:?} {mode:?}: {} B for ten ints",
                stats.bytes_requested
            );
        }
    }
}

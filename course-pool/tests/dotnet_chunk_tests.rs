//! .NET's own `Enumerable.Chunk` tests, translated: `ChunkTests.cs` of dotnet/runtime
//! (`src/libraries/System.Linq/tests/ChunkTests.cs`, 12 tests), against the port
//! ([`dotnet::chunk`] and its two iterators) and, since every strategy of [`run`] promises the
//! same chunks, against every strategy, source kind and mode that applies.
//!
//! These are a peer's tests: where one fails, the port is wrong unless .NET's source (`Chunk.cs`)
//! says otherwise. Each Rust test is named after the .NET test (snake case) and says which one it
//! is. .NET's theory rows are the source's type (`TestReadOnlyCollection<int>`,
//! `TestCollection<int>`, `TestEnumerable<int>`; in later versions `IdentityTransforms`: the array
//! itself, `ToArray`, `ToList`, `Select`, `ForceNotCollection`, …). What decides `Chunk`'s path is
//! whether the source is an array, a list or an enumerable, so the rows here are
//! [`SourceKind::ALL`]: [`Source::Slice`] (an array), [`Source::Vec`] (a `List<T>`) and
//! [`Source::Yielded`] (an enumerable that is no collection).
//!
//! # Counts (12 .NET tests)
//!
//! **Translated: 8** — `Empty`, `ChunkSourceLazily` (`FastInfiniteEnumerator<int>` is an endless
//! iterator of zeros, through the three chunkers that take an iterator), `ChunkSourceRepeatCalls`,
//! `ChunkSourceEvenly`, `ChunkSourceUnevenly`, `ChunkSourceSmallerThanMaxSize`,
//! `EmptySourceYieldsNoChunks`, `DoesNotPrematurelyAllocateHugeArray` (chunk sizes `int.MaxValue`
//! as in .NET and `usize::MAX`; beyond .NET, which only needs no `OutOfMemoryException`, the
//! counting allocator bounds what each run asks for).
//!
//! **Adapted: 3** —
//! - `ThrowsWhenSizeIsNonPositive`: row 0 as in .NET ([`ChunkError::ZeroSize`] at the call, before
//!   any iteration); row -1 cannot be written, the size is a `usize`.
//! - `RemovingFromSourceBeforeIterating`, `AddingToSourceBeforeIterating`: a `Vec` cannot change
//!   while a chunker borrows it, so the `List<int>` is a `RefCell<Vec<i32>>` read by an enumerator
//!   that looks at the list at each step, as `List<T>.Enumerator` does; the chunkers are made
//!   before the change and iterated after it (.NET's deferred execution).
//!
//! **Not applicable: 1** — `ThrowsOnNullSource`: there is no null slice or iterator in Rust.

#![cfg(not(target_arch = "wasm32"))] // the counting allocator as the global allocator

use std::alloc::System;
use std::cell::RefCell;

use bufpool::pool::SharedPool;
use course_pool::alloc_count::{self, AllocStats, CountingAlloc};
use course_pool::chunk::{
    ChunkError, CollectChunks, FreeList, IterFill, Mode, Plan, RentBuffer, ReusedBuffer, Source,
    SourceKind, Strategy, UnknownLen, dotnet, run,
};

#[global_allocator]
static A: CountingAlloc<System> = CountingAlloc::new(System);

/// One run of [`run`]: its chunks, copied, or its error; and what it allocated.
struct Chunking {
    name: String,
    chunks: Result<Vec<Vec<i32>>, ChunkError>,
    alloc: AllocStats,
}

/// Every way the crate chunks `data` by `size`, each measured: every strategy × source kind ×
/// mode that the strategy accepts ([`Strategy::check`]), the pooled strategy once with a
/// [`FreeList`] and once with a [`SharedPool`].
fn every_chunking(data: &Vec<i32>, size: usize) -> Vec<Chunking> {
    let mut out = Vec::new();
    for strategy in Strategy::ALL {
        for kind in SourceKind::ALL {
            for mode in [Mode::Drop, Mode::Hold] {
                if strategy.check(kind, mode).is_err() {
                    continue;
                }
                let plan = Plan {
                    strategy,
                    size,
                    mode,
                    max_chunks: None,
                };
                let mut free_list = FreeList::<i32>::with_capacity(4);
                let mut shared = SharedPool::<i32>::new();
                // The pool's first return on this thread makes its thread slots: not the run's.
                shared.return_boxed(shared.rent_boxed(1), false).unwrap();
                let pools: Vec<(&str, Option<&mut dyn RentBuffer<i32>>)> =
                    if strategy == Strategy::Pooled {
                        vec![
                            ("FreeList", Some(&mut free_list as &mut dyn RentBuffer<i32>)),
                            ("SharedPool", Some(&mut shared as &mut dyn RentBuffer<i32>)),
                        ]
                    } else {
                        vec![("", None)]
                    };
                for (pool_name, pool) in pools {
                    let source = Source::of(kind, data);
                    let (chunks, alloc) = alloc_count::measure(|| {
                        let mut chunks = Vec::new();
                        let ran = run(plan, source, pool, &mut |c| chunks.push(c.to_vec()));
                        ran.map(|_| chunks)
                    })
                    .unwrap();
                    out.push(Chunking {
                        name: format!("{strategy:?}/{kind:?}/{mode:?} {pool_name}"),
                        chunks,
                        alloc,
                    });
                }
            }
        }
    }
    out
}

/// `data` chunked by `size` gives exactly `expected`: through .NET's `Chunk` port for each source
/// kind, `MoveNext` by `MoveNext` (and no chunk after the last), then through every chunking.
#[track_caller]
fn check_every_chunking(data: &[i32], size: usize, expected: &[&[i32]]) {
    let data = data.to_vec();
    for kind in SourceKind::ALL {
        let mut chunks = dotnet::chunk(Source::of(kind, &data), size).unwrap();
        for (i, want) in expected.iter().enumerate() {
            assert_eq!(chunks.next().as_deref(), Some(*want), "{kind:?}: chunk {i}");
        }
        assert!(chunks.next().is_none(), "{kind:?}: a chunk after the last");
    }
    let expected: Vec<Vec<i32>> = expected.iter().map(|c| c.to_vec()).collect();
    for c in every_chunking(&data, size) {
        assert_eq!(c.chunks.as_ref(), Ok(&expected), "{}", c.name);
    }
}

/// `ChunkTests.cs`, `Empty`: `Enumerable.Empty<int>()` as an empty array (for which .NET's
/// `Chunk` returns `[]` and makes no iterator), then as every other kind of empty source.
#[test]
fn empty() {
    let empty: [i32; 0] = [];
    let chunks = dotnet::chunk(Source::Slice(&empty), 4).unwrap();
    assert_eq!(chunks.path(), dotnet::Path::EmptyArray);
    assert_eq!(chunks.count(), 0);
    check_every_chunking(&empty, 4, &[]);
}

/// `ChunkTests.cs`, `ThrowsWhenSizeIsNonPositive` (`[InlineData(0)]`; the row -1 is not a
/// `usize`): refused when `Chunk` is called, before any iteration.
#[test]
fn throws_when_size_is_non_positive() {
    for size in [0] {
        let source = vec![1];
        for kind in SourceKind::ALL {
            assert!(
                matches!(
                    dotnet::chunk(Source::of(kind, &source), size),
                    Err(ChunkError::ZeroSize)
                ),
                "{kind:?}"
            );
        }
        assert!(dotnet::ArrayChunkIterator::new(&source, size).is_err());
        assert!(dotnet::EnumerableChunkIterator::new(source.iter().copied(), size).is_err());
        assert!(CollectChunks::new(source.iter().copied(), size).is_err());
        assert!(ReusedBuffer::<_, i32>::new(IterFill::new(source.iter().copied()), size).is_err());
        for c in every_chunking(&source, size) {
            assert_eq!(c.chunks, Err(ChunkError::ZeroSize), "{}", c.name);
        }
    }
}

/// .NET's `FastInfiniteEnumerator<int>`: `default(int)` for ever, of unknown length.
fn fast_infinite_enumerator() -> UnknownLen<std::iter::Repeat<i32>> {
    UnknownLen(std::iter::repeat(0))
}

/// `ChunkTests.cs`, `ChunkSourceLazily`: an endless source gives its first chunk and has another.
#[test]
fn chunk_source_lazily() {
    let mut chunks = dotnet::EnumerableChunkIterator::new(fast_infinite_enumerator(), 5).unwrap();
    assert_eq!(chunks.next().as_deref(), Some(&[0, 0, 0, 0, 0][..]));
    assert!(chunks.next().is_some());

    let mut chunks = CollectChunks::new(fast_infinite_enumerator(), 5).unwrap();
    assert_eq!(chunks.next(), Some(vec![0, 0, 0, 0, 0]));
    assert!(chunks.next().is_some());

    let mut chunks = ReusedBuffer::new(IterFill::new(fast_infinite_enumerator()), 5).unwrap();
    assert_eq!(chunks.next_chunk(), Ok(Some(&[0, 0, 0, 0, 0][..])));
    assert!(chunks.next_chunk().unwrap().is_some());
}

/// `ChunkTests.cs`, `ChunkSourceRepeatCalls`: chunking the same source twice gives the same chunks.
#[test]
fn chunk_source_repeat_calls() {
    let array = vec![9999, 0, 888, -1, 66, -777, 1, 2, -12345];
    for kind in SourceKind::ALL {
        let source = Source::of(kind, &array);
        assert!(
            dotnet::chunk(source, 3)
                .unwrap()
                .eq(dotnet::chunk(source, 3).unwrap()),
            "{kind:?}"
        );
    }
    let first = every_chunking(&array, 3);
    let second = every_chunking(&array, 3);
    for (a, b) in first.iter().zip(&second) {
        assert!(a.chunks.is_ok(), "{}", a.name);
        assert_eq!(a.chunks, b.chunks, "{}", a.name);
    }
}

/// `ChunkTests.cs`, `ChunkSourceEvenly`.
#[test]
fn chunk_source_evenly() {
    check_every_chunking(
        &[9999, 0, 888, -1, 66, -777, 1, 2, -12345],
        3,
        &[&[9999, 0, 888], &[-1, 66, -777], &[1, 2, -12345]],
    );
}

/// `ChunkTests.cs`, `ChunkSourceUnevenly`.
#[test]
fn chunk_source_unevenly() {
    check_every_chunking(
        &[9999, 0, 888, -1, 66, -777, 1, 2],
        3,
        &[&[9999, 0, 888], &[-1, 66, -777], &[1, 2]],
    );
}

/// `ChunkTests.cs`, `ChunkSourceSmallerThanMaxSize`.
#[test]
fn chunk_source_smaller_than_max_size() {
    check_every_chunking(&[9999, 0], 3, &[&[9999, 0]]);
}

/// `ChunkTests.cs`, `EmptySourceYieldsNoChunks`.
#[test]
fn empty_source_yields_no_chunks() {
    check_every_chunking(&[], 3, &[]);
}

/// A `List<int>`'s enumerator: it reads the list at each step, so the chunks are of what the
/// list holds when iteration runs, not when `Chunk` was called.
struct ListEnumerator<'a> {
    list: &'a RefCell<Vec<i32>>,
    index: usize,
}

impl<'a> ListEnumerator<'a> {
    fn new(list: &'a RefCell<Vec<i32>>) -> Self {
        ListEnumerator { list, index: 0 }
    }
}

impl Iterator for ListEnumerator<'_> {
    type Item = i32;

    fn next(&mut self) -> Option<i32> {
        let item = self.list.borrow().get(self.index).copied()?;
        self.index += 1;
        Some(item)
    }
}

/// `list.Chunk(3)` made before `change`, iterated after it, through each chunker that takes an
/// iterator (.NET runs `EnumerableChunkIterator` for a `List<T>`).
#[track_caller]
fn chunk_then_change(change: impl Fn(&mut Vec<i32>), expected: &[&[i32]]) {
    let expected: Vec<Vec<i32>> = expected.iter().map(|c| c.to_vec()).collect();
    let new_list = || RefCell::new(vec![9999, 0, 888, -1, 66, -777, 1, 2, -12345]);

    let list = new_list();
    let chunks = dotnet::EnumerableChunkIterator::new(ListEnumerator::new(&list), 3).unwrap();
    change(&mut list.borrow_mut());
    let got: Vec<Vec<i32>> = chunks.map(|c| c.to_vec()).collect();
    assert_eq!(got, expected, "EnumerableChunkIterator");

    let list = new_list();
    let chunks = CollectChunks::new(ListEnumerator::new(&list), 3).unwrap();
    change(&mut list.borrow_mut());
    assert_eq!(chunks.collect::<Vec<_>>(), expected, "CollectChunks");

    let list = new_list();
    let mut chunks = ReusedBuffer::new(IterFill::new(ListEnumerator::new(&list)), 3).unwrap();
    change(&mut list.borrow_mut());
    let mut got = Vec::new();
    while let Some(c) = chunks.next_chunk().unwrap() {
        got.push(c.to_vec());
    }
    assert_eq!(got, expected, "ReusedBuffer");
}

/// `ChunkTests.cs`, `RemovingFromSourceBeforeIterating`, adapted (see the module docs).
#[test]
fn removing_from_source_before_iterating() {
    chunk_then_change(
        |list| {
            // `List<T>.Remove`: the first occurrence.
            let at = list.iter().position(|&x| x == 66).unwrap();
            list.remove(at);
        },
        &[&[9999, 0, 888], &[-1, -777, 1], &[2, -12345]],
    );
}

/// `ChunkTests.cs`, `AddingToSourceBeforeIterating`, adapted (see the module docs).
#[test]
fn adding_to_source_before_iterating() {
    chunk_then_change(
        |list| list.push(10),
        &[&[9999, 0, 888], &[-1, 66, -777], &[1, 2, -12345], &[10]],
    );
}

/// `ChunkTests.cs`, `DoesNotPrematurelyAllocateHugeArray` (dotnet/runtime#67132):
/// `Enumerable.Range(0, 10).Chunk(int.MaxValue)` is the one chunk `0..10`, for `int.MaxValue`
/// and for `usize::MAX`. `Enumerable.Range` is no array (`EnumerableChunkIterator`), but every
/// source kind is run. Each run asks for at most 1 KiB: the ten elements, rounded up to a
/// growth step or a bucket, and the test's own copies, where the chunk size would be 8 GiB and
/// more.
#[test]
fn does_not_prematurely_allocate_huge_array() {
    const LIMIT_BYTES: u64 = 1024;
    let range: Vec<i32> = (0..10).collect();
    for size in [i32::MAX as usize, usize::MAX] {
        let chunks = dotnet::chunk(Source::Yielded(&range), size).unwrap();
        let chunks: Vec<Box<[i32]>> = chunks.collect();
        assert_eq!(chunks, [range.clone().into_boxed_slice()], "size {size}");

        for c in every_chunking(&range, size) {
            assert_eq!(c.chunks, Ok(vec![range.clone()]), "size {size}: {}", c.name);
            assert!(
                c.alloc.bytes_requested <= LIMIT_BYTES,
                "size {size}: {} asked for {} bytes",
                c.name,
                c.alloc.bytes_requested
            );
        }
    }
}

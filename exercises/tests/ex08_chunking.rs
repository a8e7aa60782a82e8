//! Grades exercise 8 (`src/ex08_chunking.rs`): the arrays of .NET's enumerable path, checked
//! against the lab's `EnumerableChunkIterator` and counted by the counting allocator.

mod support;

#[cfg_attr(not(feature = "solutions"), path = "../src/ex08_chunking.rs")]
#[cfg_attr(feature = "solutions", path = "../solutions/ex08_chunking.rs")]
#[allow(
    dead_code,
    reason = "a skeleton's given items may be unused until it is done"
)]
mod ex;

use std::alloc::System;

use course_pool::alloc_count::{AllocStats, CountingAlloc, measure};
use course_pool::chunk::dotnet::EnumerableChunkIterator;
use ex::{ZeroSize, chunk_like_dotnet, first_chunk_arrays};

#[global_allocator]
static A: CountingAlloc<System> = CountingAlloc::new(System);

/// Chunks `0..len` with the student's chunker: the chunks' contents, and what it allocated
/// (the chunks are dropped as they come, so only the chunker's own allocations count).
fn student(len: i32, size: usize) -> (Vec<Vec<i32>>, AllocStats) {
    let mut contents = Vec::new();
    let mut firsts = Vec::with_capacity(len as usize + 1);
    let (result, stats) = measure(|| {
        chunk_like_dotnet(0..len, size, &mut |chunk| {
            firsts.push(chunk.first().copied())
        })
    })
    .expect("the counting allocator is this test's global allocator");
    assert_eq!(result, Ok(()), "chunk_like_dotnet(0..{len}, {size})");
    // The contents, from a second run outside the measured region.
    chunk_like_dotnet(0..len, size, &mut |chunk| contents.push(chunk.to_vec())).unwrap();
    (contents, stats)
}

/// The same run with the lab's port of .NET's iterator.
fn lab(len: i32, size: usize) -> (Vec<Vec<i32>>, AllocStats) {
    let ((), stats) = measure(|| {
        for chunk in EnumerableChunkIterator::new(0..len, size).unwrap() {
            drop(chunk);
        }
    })
    .unwrap();
    let contents = EnumerableChunkIterator::new(0..len, size)
        .unwrap()
        .map(|c| c.to_vec())
        .collect();
    (contents, stats)
}

#[test]
fn step1_the_first_chunks_arrays() {
    let doubling: Vec<usize> = (2..=14).map(|k| 1 << k).collect(); // 4 … 16,384
    let mut want = doubling.clone();
    want.push(20_000);
    assert_eq!(
        first_chunk_arrays(20_000, 20_000),
        want,
        "first_chunk_arrays(20000, 20000)"
    );
    assert_eq!(
        first_chunk_arrays(20_000, 20_000).len(),
        14,
        "arrays for 20,000 ints"
    );
    for (items, size) in [
        (1, 1),
        (3, 3),
        (1, 100),
        (4, 100),
        (5, 100),
        (10, 100),
        (64, 64),
    ] {
        assert_eq!(
            first_chunk_arrays(items, size),
            EnumerableChunkIterator::<std::ops::Range<i32>>::first_chunk_arrays(items, size),
            "first_chunk_arrays({items}, {size})"
        );
    }
}

#[test]
fn step2_the_chunks_are_right() {
    assert_eq!(
        chunk_like_dotnet(0..10, 0, &mut |_| ()),
        Err(ZeroSize),
        "chunk size 0"
    );
    for (len, size) in [(0, 3), (1, 3), (10, 4), (10, 100), (12, 4)] {
        assert_eq!(
            student(len, size).0,
            lab(len, size).0,
            "the chunks of 0..{len} by {size}"
        );
    }
}

#[test]
fn step3_the_first_20000_int_chunk_allocates_14_arrays() {
    let (_, stats) = student(20_000, 20_000);
    assert_eq!(
        stats.reallocations, 0,
        "reallocations: grow by a new box and a copy"
    );
    assert_eq!(
        stats.allocations, 14,
        "arrays allocated for the first 20,000-int chunk"
    );
    assert_eq!(
        stats.bytes_allocated, 211_056,
        "bytes allocated: 4 × (4 + 8 + … + 20,000)"
    );
}

#[test]
fn step4_later_chunks_allocate_once_and_short_ones_twice() {
    let (_, first) = student(20_000, 20_000);
    let (_, two) = student(40_000, 20_000);
    assert_eq!(
        two.allocations - first.allocations,
        1,
        "arrays for a second full chunk"
    );
    assert_eq!(
        two.bytes_allocated - first.bytes_allocated,
        80_000,
        "its bytes"
    );
    let (_, short) = student(25_000, 20_000);
    assert_eq!(
        short.allocations - first.allocations,
        2,
        "arrays for a second chunk of 5,000: one of 20,000, then its trimmed copy"
    );
}

#[test]
fn step5_every_case_allocates_what_dotnets_path_does() {
    for (len, size) in [
        (1, 1),
        (3, 4),
        (5, 4),
        (10, 3),
        (100, 7),
        (1_000, 1_000),
        (1_001, 64),
    ] {
        let (_, mine) = student(len, size);
        let (_, theirs) = lab(len, size);
        assert_eq!(
            (mine.allocations, mine.bytes_allocated, mine.reallocations),
            (
                theirs.allocations,
                theirs.bytes_allocated,
                theirs.reallocations
            ),
            "(allocations, bytes, reallocations) chunking 0..{len} by {size}"
        );
    }
}

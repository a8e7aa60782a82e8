//! Grades exercise 7 (`src/ex07_cliff.rs`): .NET's LOH edge (checked against
//! `course_pool::chunk::dotnet::in_loh`) and glibc's size rule with its moving threshold.

mod support;

#[cfg_attr(not(feature = "solutions"), path = "../src/ex07_cliff.rs")]
#[cfg_attr(feature = "solutions", path = "../solutions/ex07_cliff.rs")]
#[allow(
    dead_code,
    reason = "a skeleton's given items may be unused until it is done"
)]
mod ex;

use course_pool::chunk::dotnet::in_loh;
use ex::{Malloc, chunk_size, first_loh_length};

#[test]
fn step1_the_first_array_in_the_loh() {
    assert_eq!(first_loh_length(4), 21_244, "first_loh_length(4): int[]");
    assert_eq!(
        first_loh_length(8),
        10_622,
        "first_loh_length(8): references, long[]"
    );
    assert_eq!(first_loh_length(1), 84_976, "first_loh_length(1): byte[]");
    for elem in [1, 2, 3, 4, 8, 12, 16] {
        let n = first_loh_length(elem);
        assert!(
            in_loh(n as u64, elem as u64) && !in_loh(n as u64 - 1, elem as u64),
            "first_loh_length({elem}) = {n}: the lab says the edge is elsewhere"
        );
    }
}

#[test]
fn step2_glibcs_chunk_for_a_request() {
    for (request, chunk) in [
        (0, 32),
        (1, 32),
        (24, 32),
        (25, 48),
        (100, 112),
        (81_920, 81_936),
        (131_072, 131_088),
    ] {
        assert_eq!(chunk_size(request), chunk, "chunk_size({request})");
    }
}

#[test]
fn step3_the_size_rules_edge_at_start() {
    let malloc = Malloc::new();
    assert!(
        !malloc.uses_mmap(131_048),
        "uses_mmap(131,048): its chunk is 131,056"
    );
    assert!(
        malloc.uses_mmap(131_049),
        "uses_mmap(131,049): its chunk is 131,072"
    );
    assert!(
        !malloc.uses_mmap(81_920),
        "a Vec of 81,920 bytes stays on the heap"
    );
    assert!(
        malloc.uses_mmap(131_072),
        "the pool's 131,072-byte bucket buffer (for an 81,920-byte request) is mmapped"
    );
}

#[test]
fn step4_freeing_an_mmapped_block_raises_the_threshold() {
    let mut malloc = Malloc::new();
    assert!(malloc.uses_mmap(200_000), "the first 200,000-byte buffer");
    malloc.free_mmapped(200_000);
    assert_eq!(
        malloc.mmap_threshold, 200_704,
        "the threshold after freeing it: its block, 49 pages"
    );
    assert!(
        !malloc.uses_mmap(200_000),
        "the next 200,000-byte buffer is served by the heap"
    );
    assert!(malloc.uses_mmap(300_000), "a larger one still is not");

    malloc.free_mmapped(150_000);
    assert_eq!(
        malloc.mmap_threshold, 200_704,
        "a smaller block never lowers the threshold"
    );

    malloc.free_mmapped(40 << 20);
    assert_eq!(
        malloc.mmap_threshold, 200_704,
        "a block over 32 MiB leaves the threshold where it is"
    );
}

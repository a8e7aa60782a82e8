//! Grades exercise 1 (`src/ex01_why_pool.rs`): a pool of one size that allocates once.

mod support;

#[cfg_attr(not(feature = "solutions"), path = "../src/ex01_why_pool.rs")]
#[cfg_attr(feature = "solutions", path = "../solutions/ex01_why_pool.rs")]
#[allow(
    dead_code,
    reason = "a skeleton's given items may be unused until it is done"
)]
mod ex;

use std::alloc::System;

use course_pool::alloc_count::{CountingAlloc, measure};
use ex::OnePool;

#[global_allocator]
static A: CountingAlloc<System> = CountingAlloc::new(System);

#[test]
fn step1_rent_allocates_a_zeroed_buffer_of_the_pools_length() {
    let mut pool = OnePool::new(128, 4);
    let buffer = pool.rent();
    assert_eq!(buffer.len(), 128, "the length of a rented buffer");
    assert!(buffer.iter().all(|&b| b == 0), "a new buffer is zeroed");
}

#[test]
fn step2_a_buffer_given_back_is_rented_again() {
    let mut pool = OnePool::new(128, 4);
    let buffer = pool.rent();
    let address = buffer.as_ptr();
    pool.give_back(buffer)
        .expect("a buffer of the pool's length is kept");
    assert_eq!(pool.kept(), 1, "buffers kept after one give_back");
    let again = pool.rent();
    assert_eq!(
        again.as_ptr(),
        address,
        "rent hands out the kept buffer, not a new one"
    );
    assert_eq!(pool.kept(), 0, "buffers kept once it is rented again");
}

#[test]
fn step3_a_thousand_rounds_allocate_one_buffer() {
    let mut pool = OnePool::new(128, 4);
    let ((), stats) = measure(|| {
        for i in 0..1_000 {
            let mut line = pool.rent();
            line[0] = i as u8;
            pool.give_back(line).expect("the pool's own buffer");
        }
    })
    .expect("the counting allocator is this test's global allocator");
    assert_eq!(
        stats.allocations, 1,
        "allocations in 1,000 rounds of rent and give_back"
    );
    assert_eq!(
        stats.bytes_allocated, 128,
        "bytes allocated in 1,000 rounds"
    );
}

#[test]
fn step4_a_buffer_of_another_length_is_refused() {
    let mut pool = OnePool::new(128, 4);
    let foreign = vec![7u8; 100].into_boxed_slice();
    let refused = pool
        .give_back(foreign)
        .expect_err("a 100-byte buffer given to a 128-byte pool must be refused");
    assert_eq!(refused.expected, 128, "WrongLength::expected");
    assert_eq!(refused.buffer.len(), 100, "the refused buffer comes back");
    assert_eq!(pool.kept(), 0, "buffers kept after a refused give_back");
}

#[test]
fn step5_the_pool_keeps_at_most_keep_buffers() {
    let mut pool = OnePool::new(64, 3);
    let held: Vec<_> = (0..5).map(|_| pool.rent()).collect();
    for buffer in held {
        pool.give_back(buffer)
            .expect("over the limit a buffer is dropped, not refused");
    }
    assert_eq!(
        pool.kept(),
        3,
        "buffers kept after giving back 5 to a pool that keeps 3"
    );
}

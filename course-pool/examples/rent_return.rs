//! Rent, write, return: what a pool saves, counted by the counting allocator.
//!
//! `cargo run -p course-pool --example rent_return`

use bufpool::pool::SharedPool;
use course_pool::alloc_count::{CountingAlloc, measure};

#[global_allocator]
static GLOBAL: CountingAlloc<std::alloc::System> = CountingAlloc::new(std::alloc::System);

fn main() {
    let pool = SharedPool::<u8>::new();
    let rounds = 1_000;
    let ((), pooled) = measure(|| {
        for _ in 0..rounds {
            let mut line = pool.rent(100);
            line.append(b"1042|order")
                .expect("the line fits its buffer");
        }
    })
    .expect("the counting allocator is installed");
    let ((), fresh) = measure(|| {
        for _ in 0..rounds {
            let mut line = Vec::with_capacity(100);
            line.extend_from_slice(b"1042|order");
            std::hint::black_box(&line);
        }
    })
    .expect("the counting allocator is installed");
    println!("{rounds} rounds of a 100-byte line");
    println!("  fresh Vec each round: {} allocations", fresh.allocations);
    println!("  rented from the pool: {} allocations", pooled.allocations);
    println!("  buffers the pool ever made: {}", pool.stats().allocated());
}

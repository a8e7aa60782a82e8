//! Multi-threaded stress test of the ownership API: no buffer is ever held by two renters at
//! once, under real threads, several partitions and full partitions that drop buffers.
#![cfg(not(target_arch = "wasm32"))]

use bufpool::pool::{SharedConfig, SharedPool};
use std::collections::HashSet;
use std::sync::Mutex;

#[test]
#[cfg_attr(miri, ignore)] // thousands of rounds over real threads: too slow under Miri
fn no_buffer_is_held_by_two_renters_at_once() {
    const THREADS: usize = 4;
    const ROUNDS: usize = 3_000;
    let pool = SharedPool::<u64>::with_config(
        SharedConfig::new()
            .with_partitions(2)
            .with_arrays_per_partition(2)
            .with_clear_on_return(false),
    )
    .unwrap();
    let held: Mutex<HashSet<usize>> = Mutex::new(HashSet::new());
    std::thread::scope(|s| {
        for t in 0..THREADS {
            let (pool, held) = (&pool, &held);
            s.spawn(move || {
                let mut mine = Vec::new();
                for round in 0..ROUNDS {
                    let len = [16, 17, 64][(round + t) % 3];
                    let mut r = pool.rent(len);
                    let addr = r.as_capacity().as_ptr() as usize;
                    assert!(
                        held.lock().unwrap().insert(addr),
                        "buffer {addr:#x} handed to two renters"
                    );
                    let mark = (t as u64) << 32 | round as u64;
                    r.fill(mark);
                    // Hold a few at once so buffers flow through slots and partitions.
                    mine.push((r, addr, mark));
                    if mine.len() > round % 4 {
                        for (r, addr, mark) in mine.drain(..) {
                            assert!(
                                r.iter().all(|&v| v == mark),
                                "someone wrote into a rented buffer"
                            );
                            assert!(held.lock().unwrap().remove(&addr));
                            drop(r);
                        }
                    }
                }
                for (r, addr, _) in mine.drain(..) {
                    held.lock().unwrap().remove(&addr);
                    drop(r);
                }
            });
        }
    });
    assert!(held.lock().unwrap().is_empty());
}

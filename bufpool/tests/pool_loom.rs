//! loom models of the shared pool's partition logic and its counts.
//!
//! Run: `RUSTFLAGS="--cfg loom" cargo test -p bufpool --test pool_loom --release`
//! Under `--cfg loom` the pool's mutexes and atomics are loom's, so loom explores every
//! interleaving of two threads renting and returning through the partitions as they ship. The
//! per-thread storage (thread store, cache, slots) is a mutex-backed stand-in here, not the
//! shipped unsafe code: that is checked by Miri (`pool::sync::tests`, `pool::tests`).
#![cfg(loom)]

use bufpool::pool::{SharedConfig, SharedPool};
use loom::sync::Arc;
use loom::thread;

fn config(partitions: usize, arrays_per_partition: usize) -> SharedConfig {
    SharedConfig::new()
        .with_partitions(partitions)
        .with_arrays_per_partition(arrays_per_partition)
        .with_clear_on_return(false)
}

fn model(f: impl Fn() + Sync + Send + 'static) {
    let mut builder = loom::model::Builder::new();
    if builder.preemption_bound.is_none() {
        builder.preemption_bound = Some(3);
    }
    builder.check(f);
}

/// Two threads rent, mark, check and return: no buffer is ever seen by both at once, and
/// nothing is lost — every buffer allocated is either kept or was dropped because all
/// partitions were full.
#[test]
fn two_threads_never_share_a_buffer() {
    model(|| {
        let pool = Arc::new(SharedPool::<usize>::with_config(config(2, 1)).unwrap());
        let worker = |me: usize, pool: Arc<SharedPool<usize>>| {
            move || {
                let mut r = pool.rent(16);
                r[0] = me;
                thread::yield_now();
                assert_eq!(r[0], me, "another renter wrote into my buffer");
            }
        };
        let a = thread::spawn(worker(1, pool.clone()));
        let b = thread::spawn(worker(2, pool.clone()));
        a.join().unwrap();
        b.join().unwrap();
        let s = pool.stats().buckets[0].clone();
        assert!((1..=2).contains(&s.allocated));
        // The main thread has no slot; the two buffers went to the workers' slots.
        assert_eq!(s.in_thread_slot, 0);
        // Each worker's counts, written by it alone, summed here.
        let st = pool.stats();
        assert_eq!((st.rented, st.returned, st.dropped), (2, 2, 0));
    });
}

/// Concurrent pushes to full partitions drop exactly the overflow.
#[test]
fn full_partitions_drop_exactly_the_overflow() {
    model(|| {
        let pool = Arc::new(SharedPool::<u8>::with_config(config(1, 1)).unwrap());
        let run = |pool: Arc<SharedPool<u8>>| {
            move || {
                let a = pool.rent(16);
                let b = pool.rent(16);
                drop(a);
                drop(b); // slot holds b, a goes to the single partition (or is dropped)
            }
        };
        let t1 = thread::spawn(run(pool.clone()));
        let t2 = thread::spawn(run(pool.clone()));
        t1.join().unwrap();
        t2.join().unwrap();
        let s = pool.stats().buckets[0].clone();
        assert_eq!(s.in_partitions, 1, "one partition of one buffer");
        assert!((2..=4).contains(&s.allocated));
        // Four rents and returns; what is not kept (two slots, one partition) was dropped.
        let st = pool.stats();
        assert_eq!((st.rented, st.returned), (4, 4));
        assert_eq!(st.dropped, s.allocated - 3);
    });
}

//! loom models of the shared engine's partitions and thread slots, driven through the handle API
//! (whose buffers have an identity to compare).
//!
//! Run: `RUSTFLAGS="--cfg loom" cargo test -p course-pool --test handle_loom --release`
//! Under `--cfg loom` bufpool's mutexes, atomics and per-thread slots are loom's, so loom
//! explores every interleaving of two threads renting and returning. The handle's own buffer
//! lock and lease counter are std's: loom does not model them.
#![cfg(loom)]

use bufpool::pool::SharedConfig;
use course_pool::handle::HandlePool;
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

/// A thread whose slot is occupied pushes the older buffer into the partitions; another thread
/// finds it there (rent: own slot → home partition → the others).
#[test]
fn a_pushed_buffer_is_found_by_another_thread() {
    model(|| {
        let pool = Arc::new(HandlePool::<u8>::with_shared(config(2, 1)).unwrap());
        let p = pool.clone();
        let producer = thread::spawn(move || {
            let a = p.rent(16).unwrap();
            let b = p.rent(16).unwrap();
            p.return_handle(&a, false).unwrap();
            p.return_handle(&b, false).unwrap(); // a → a partition, b stays in the slot
            a
        });
        let p = pool.clone();
        let consumer = thread::spawn(move || p.rent(16).unwrap());
        let a = producer.join().unwrap();
        let got = consumer.join().unwrap();
        // Either the consumer ran first (allocated a fresh one) or it found `a`.
        let s = pool.stats().buckets[0].clone();
        if got.ptr_eq(&a) {
            assert_eq!((s.allocated, s.in_partitions), (2, 0));
        } else {
            assert_eq!(s.allocated, 3);
        }
    });
}

//! Rent/return throughput with one and two threads on one shared pool (1 KiB buffers).
//! Each thread works from its own thread slot, so the hot path shares nothing.

use std::sync::mpsc;
use std::time::Instant;

use anyhow::Result;
use wasm_lab::pool::SharedPool;

use crate::measure::Session;

const SIZE: usize = 1024;

fn work(pool: &SharedPool<u8>, ops: u64) {
    for _ in 0..ops {
        drop(std::hint::black_box(pool.rent(std::hint::black_box(SIZE))));
    }
}

pub fn run(s: &mut Session) -> Result<()> {
    let pool: &'static SharedPool<u8> = Box::leak(Box::new(SharedPool::new()));
    let one = s.time_custom(
        "threads.1.ns_per_op",
        "wall-clock ns per rent+return of 1 KiB, 1 thread (throughput = 1e9 / value ops/s)",
        |iters| {
            let t = Instant::now();
            work(pool, iters);
            t.elapsed()
        },
    )?;
    // A persistent second thread, so no spawn is timed: it takes a share, the caller the other.
    let (to_worker, jobs) = mpsc::channel::<u64>();
    let (done, finished) = mpsc::channel::<()>();
    let worker = std::thread::spawn(move || {
        while let Ok(ops) = jobs.recv() {
            work(pool, ops);
            if done.send(()).is_err() {
                break;
            }
        }
    });
    let two = s.time_custom(
        "threads.2.ns_per_op",
        "wall-clock ns per rent+return of 1 KiB over 2 threads (throughput = 1e9 / value ops/s)",
        |iters| {
            let theirs = iters / 2;
            let t = Instant::now();
            let shared = to_worker.send(theirs).is_ok();
            work(pool, iters - theirs);
            if !shared || finished.recv().is_err() {
                // The worker is gone: do its share here (the figure then shows no speed-up).
                work(pool, theirs);
            }
            t.elapsed()
        },
    )?;
    drop(to_worker);
    let _ = worker.join();
    s.ratio(
        "threads.2_vs_1.throughput",
        "throughput with 2 threads ÷ with 1 thread (rent+return of 1 KiB)",
        one,
        two,
    );
    Ok(())
}

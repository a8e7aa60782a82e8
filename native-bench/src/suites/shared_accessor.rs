//! `SharedPool::<T>::shared()` called per rent against a reference held once (issue 39): code
//! written as .NET code is written (`ArrayPool<byte>.Shared.Rent(n)` in the loop) should pay
//! nothing for the accessor.
//!
//! Four timings take turns in one paired group ([`crate::paired`], 10 ms batches, as in
//! [`threads`](super::threads): a two-thread batch hands half its iterations to a waiting worker):
//! a rent + return of 1 KiB through `SharedPool::<u8>::shared()` per call, and through the same
//! pool's `&'static` reference taken once, each on one thread and on two.

use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::Result;
use bufpool::pool::SharedPool;

use crate::measure::Session;
use crate::paired::Group;

const SIZE: usize = 1024;

/// How a loop reaches the pool.
#[derive(Clone, Copy)]
enum Access {
    /// `SharedPool::<u8>::shared()` on every rent.
    PerCall,
    /// A reference taken once, before the loop.
    Held,
}

fn work(access: Access, ops: u64) {
    match access {
        Access::PerCall => {
            for _ in 0..ops {
                drop(std::hint::black_box(
                    SharedPool::<u8>::shared().rent(std::hint::black_box(SIZE)),
                ));
            }
        }
        Access::Held => {
            let pool = SharedPool::<u8>::shared();
            for _ in 0..ops {
                drop(std::hint::black_box(pool.rent(std::hint::black_box(SIZE))));
            }
        }
    }
}

pub fn run(s: &mut Session) -> Result<()> {
    // A persistent second thread, so no spawn is timed (see `threads`).
    let (to_worker, jobs) = mpsc::channel::<(u64, Access)>();
    let (done, finished) = mpsc::channel::<()>();
    let worker = std::thread::spawn(move || {
        while let Ok((ops, access)) = jobs.recv() {
            work(access, ops);
            if done.send(()).is_err() {
                break;
            }
        }
    });
    let one = |iters: u64, access: Access| {
        let t = Instant::now();
        work(access, iters);
        t.elapsed()
    };
    let two = |iters: u64, access: Access| {
        let half = iters / 2;
        let t = Instant::now();
        let sent = to_worker.send((half, access)).is_ok();
        work(access, iters - half);
        if !sent || finished.recv().is_err() {
            // The worker is gone: do its share here.
            work(access, half);
        }
        t.elapsed()
    };
    let mut g = Group::new("shared_accessor").with_batch(Duration::from_millis(10));
    g.time_custom(
        "shared_accessor.1.held.ns_per_op",
        "wall-clock ns per rent+return of 1 KiB through SharedPool::shared()'s reference held once, 1 thread",
        |iters| one(iters, Access::Held),
    );
    g.time_custom(
        "shared_accessor.1.per_call.ns_per_op",
        "wall-clock ns per rent+return of 1 KiB with SharedPool::shared() called per rent, 1 thread",
        |iters| one(iters, Access::PerCall),
    );
    g.time_custom(
        "shared_accessor.2.held.ns_per_op",
        "wall-clock ns per rent+return of 1 KiB through the held reference, 2 threads",
        |iters| two(iters, Access::Held),
    );
    g.time_custom(
        "shared_accessor.2.per_call.ns_per_op",
        "wall-clock ns per rent+return of 1 KiB with SharedPool::shared() per rent, 2 threads",
        |iters| two(iters, Access::PerCall),
    );
    s.compare(g)?;
    drop(to_worker);
    let _ = worker.join();
    s.ratio_of(
        "shared_accessor.1.per_call_vs_held",
        "time with SharedPool::shared() per rent ÷ through a held reference, 1 thread (1 = the accessor costs nothing)",
        "shared_accessor.1.per_call.ns_per_op",
        "shared_accessor.1.held.ns_per_op",
    );
    s.ratio_of(
        "shared_accessor.2.per_call_vs_held",
        "time with SharedPool::shared() per rent ÷ through a held reference, 2 threads",
        "shared_accessor.2.per_call.ns_per_op",
        "shared_accessor.2.held.ns_per_op",
    );
    Ok(())
}

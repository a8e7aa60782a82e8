//! Rent/return throughput with one and two threads (1 KiB buffers).
//!
//! Three timings take turns in one paired group ([`crate::paired`], 10 ms batches: a two-thread
//! batch hands half its iterations to a waiting worker thread, and waking it costs tens of
//! microseconds, which a 10 ms batch makes negligible):
//! - one thread on the shared pool;
//! - two threads on the same shared pool — each works from its own thread slot, so the hot path
//!   should share nothing;
//! - two threads each on a pool of its own: nothing shared by construction, the same code. This is
//!   the machine's own ceiling: on a virtual machine whose two vCPUs the host may place on one
//!   physical core's two hyperthreads, two threads of this loop get about 1× there, whatever the
//!   pool does. The shared pool's scaling is judged against it.

use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::Result;
use bufpool::pool::SharedPool;

use crate::measure::Session;
use crate::paired::Group;

const SIZE: usize = 1024;

type Pool = &'static SharedPool<u8>;

fn work(pool: Pool, ops: u64) {
    for _ in 0..ops {
        drop(std::hint::black_box(pool.rent(std::hint::black_box(SIZE))));
    }
}

fn leak() -> Pool {
    Box::leak(Box::new(SharedPool::new()))
}

pub fn run(s: &mut Session) -> Result<()> {
    let shared = leak();
    let (mine, theirs) = (leak(), leak());
    // A persistent second thread, so no spawn is timed: it takes half of a batch on the pool it
    // is sent, the caller does the other half.
    let (to_worker, jobs) = mpsc::channel::<(u64, Pool)>();
    let (done, finished) = mpsc::channel::<()>();
    let worker = std::thread::spawn(move || {
        while let Ok((ops, pool)) = jobs.recv() {
            work(pool, ops);
            if done.send(()).is_err() {
                break;
            }
        }
    });
    let two = |iters: u64, here: Pool, there: Pool| {
        let half = iters / 2;
        let t = Instant::now();
        let sent = to_worker.send((half, there)).is_ok();
        work(here, iters - half);
        if !sent || finished.recv().is_err() {
            // The worker is gone: do its share here (the figure then shows no speed-up).
            work(there, half);
        }
        t.elapsed()
    };
    let mut g = Group::new("threads").with_batch(Duration::from_millis(10));
    g.time_custom(
        "threads.1.ns_per_op",
        "wall-clock ns per rent+return of 1 KiB, 1 thread (throughput = 1e9 / value ops/s)",
        |iters| {
            let t = Instant::now();
            work(shared, iters);
            t.elapsed()
        },
    );
    g.time_custom(
        "threads.2.ns_per_op",
        "wall-clock ns per rent+return of 1 KiB, 2 threads on one shared pool",
        |iters| two(iters, shared, shared),
    );
    g.time_custom(
        "threads.2_private.ns_per_op",
        "wall-clock ns per rent+return of 1 KiB, 2 threads each on a pool of its own",
        |iters| two(iters, mine, theirs),
    );
    s.compare(g)?;
    drop(to_worker);
    let _ = worker.join();
    s.ratio_of(
        "threads.2_vs_1.throughput",
        "throughput with 2 threads on one shared pool ÷ with 1 thread (rent+return of 1 KiB)",
        "threads.1.ns_per_op",
        "threads.2.ns_per_op",
    );
    s.ratio_of(
        "threads.2_private_vs_1.throughput",
        "throughput with 2 threads on a pool each ÷ with 1 thread: this machine's ceiling",
        "threads.1.ns_per_op",
        "threads.2_private.ns_per_op",
    );
    s.ratio_of(
        "threads.shared_vs_private.throughput",
        "2-thread throughput on one shared pool ÷ on a pool each (1 = sharing costs nothing)",
        "threads.2_private.ns_per_op",
        "threads.2.ns_per_op",
    );
    Ok(())
}

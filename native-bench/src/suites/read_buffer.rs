//! A server's read buffer through each choice a Rust user has (issue 39): get a 4 KiB `u8`
//! buffer, read a request into it (a copy of 4 KiB, as `read` from a socket copies), give it
//! back. The choices: this crate's two pools, the three pool crates a user would pick instead
//! (`object-pool`, `lockfree-object-pool`, `opool`, each keeping `Vec<u8>`s of 4 KiB), one `Vec`
//! kept by the thread and cleared before each use, and a `Vec::with_capacity` per use.
//!
//! Two paired groups ([`crate::paired`]): every choice on one thread (the session's batches),
//! then every choice on two threads at once, each thread doing half of a batch (as in
//! [`threads`](super::threads): a persistent worker takes half of each batch; the reused `Vec`
//! is then one per thread, as a server keeps one per connection or worker). The two-thread
//! batches are 5 ms, not `threads`' 10 ms, to keep the suite short (about 12 s per repetition of
//! a full run here): waking the worker costs tens of microseconds, which each member pays alike,
//! so it pulls the two-thread ratios a little towards 1. With 2 ms batches, the ratios of the
//! pools that lock or share a queue (contention comes in bursts) had noise of 25–45 % in a full
//! run; with 5 ms, at most 22 %. The two-thread ratios depend on both cores being free: on a
//! busy machine the two threads take turns and contend less. The ratios are this crate's shared
//! pool ÷ each other choice, per round.

use std::cell::RefCell;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::Result;
use bufpool::pool::{ConfigurablePool, SharedPool};

use crate::measure::Session;
use crate::paired::Group;

/// The buffer's length: a common socket read size.
const LEN: usize = 4096;
/// What a request reads into the buffer.
static REQUEST: [u8; LEN] = [0x5A; LEN];

/// The ways to get a read buffer, in the groups' order (the first is the ratios' numerator).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Choice {
    Shared,
    Configurable,
    ObjectPool,
    LockfreeObjectPool,
    Opool,
    VecReuse,
    VecFresh,
}

const CHOICES: [Choice; 7] = [
    Choice::Shared,
    Choice::Configurable,
    Choice::ObjectPool,
    Choice::LockfreeObjectPool,
    Choice::Opool,
    Choice::VecReuse,
    Choice::VecFresh,
];

/// The ids of the members of a suite run, in [`CHOICES`]' order (`read_buffer.{t}.{id}`).
pub const IDS: [&str; 7] = [
    "shared",
    "configurable",
    "object_pool",
    "lockfree_object_pool",
    "opool",
    "vec_reuse",
    "vec_fresh",
];

/// Two paired groups.
pub const STEPS: usize = 2;

impl Choice {
    fn id(self) -> &'static str {
        IDS[CHOICES.iter().position(|c| *c == self).unwrap_or(0)]
    }

    fn title(self) -> &'static str {
        match self {
            Choice::Shared => {
                "bufpool's SharedPool (a reference held; rent, guard returns on drop)"
            }
            Choice::Configurable => "bufpool's ConfigurablePool (default config; rent, guard)",
            Choice::ObjectPool => "object-pool crate, Pool<Vec<u8>> (pull + drop)",
            Choice::LockfreeObjectPool => {
                "lockfree-object-pool crate, LinearObjectPool<Vec<u8>> (pull + drop)"
            }
            Choice::Opool => "opool crate, Pool<_, Vec<u8>> (get + drop)",
            Choice::VecReuse => "one Vec per thread, cleared and refilled",
            Choice::VecFresh => "Vec::with_capacity per request, dropped after",
        }
    }
}

struct VecAlloc;

impl opool::PoolAllocator<Vec<u8>> for VecAlloc {
    fn allocate(&self) -> Vec<u8> {
        vec![0u8; LEN]
    }
}

/// The pools every thread shares, made once and kept for the process (the worker borrows them).
struct Pools {
    shared: SharedPool<u8>,
    configurable: ConfigurablePool<u8>,
    object_pool: object_pool::Pool<Vec<u8>>,
    lockfree: lockfree_object_pool::LinearObjectPool<Vec<u8>>,
    opool: opool::Pool<VecAlloc, Vec<u8>>,
}

/// The one place this suite rents from bufpool: a 4 KiB buffer from the shared pool (the
/// infallible `rent`, as a server would write it), filled with the request.
#[inline(always)]
fn read_shared(pool: &SharedPool<u8>, request: &[u8]) {
    let mut b = pool.rent(std::hint::black_box(LEN));
    b.copy_from_slice(request);
    std::hint::black_box(&*b);
}

/// The same from the configurable pool.
#[inline(always)]
fn read_configurable(pool: &ConfigurablePool<u8>, request: &[u8]) {
    let mut b = pool.rent(std::hint::black_box(LEN));
    b.copy_from_slice(request);
    std::hint::black_box(&*b);
}

/// `ops` requests read through `choice`; `mine` is the calling thread's kept `Vec`.
fn work(choice: Choice, ops: u64, pools: &Pools, mine: &mut Vec<u8>) {
    let request = std::hint::black_box(&REQUEST[..]);
    match choice {
        Choice::Shared => {
            for _ in 0..ops {
                read_shared(&pools.shared, request);
            }
        }
        Choice::Configurable => {
            for _ in 0..ops {
                read_configurable(&pools.configurable, request);
            }
        }
        Choice::ObjectPool => {
            for _ in 0..ops {
                let mut b = pools.object_pool.pull(|| vec![0u8; LEN]);
                b.copy_from_slice(request);
                std::hint::black_box(&*b);
            }
        }
        Choice::LockfreeObjectPool => {
            for _ in 0..ops {
                let mut b = pools.lockfree.pull();
                b.copy_from_slice(request);
                std::hint::black_box(&*b);
            }
        }
        Choice::Opool => {
            for _ in 0..ops {
                let mut b = pools.opool.get();
                b.copy_from_slice(request);
                std::hint::black_box(&*b);
            }
        }
        Choice::VecReuse => {
            for _ in 0..ops {
                mine.clear();
                mine.extend_from_slice(request);
                std::hint::black_box(&*mine);
            }
        }
        Choice::VecFresh => {
            for _ in 0..ops {
                let mut b = Vec::with_capacity(std::hint::black_box(LEN));
                b.extend_from_slice(request);
                std::hint::black_box(&b);
            }
        }
    }
}

pub fn run(s: &mut Session) -> Result<()> {
    let pools: &'static Pools = Box::leak(Box::new(Pools {
        shared: SharedPool::new(),
        configurable: ConfigurablePool::new(),
        object_pool: object_pool::Pool::new(4, || vec![0u8; LEN]),
        lockfree: lockfree_object_pool::LinearObjectPool::new(|| vec![0u8; LEN], |_| {}),
        opool: opool::Pool::new_prefilled(4, VecAlloc),
    }));
    // The calling thread's kept Vec, borrowed by one member at a time.
    let mine = RefCell::new(Vec::with_capacity(LEN));
    let mine = &mine;

    let mut one = Group::new("read_buffer.1");
    for choice in CHOICES {
        one.time_custom(
            &format!("read_buffer.1.{}", choice.id()),
            &format!(
                "ns per 4 KiB read buffer (get, fill, give back), 1 thread: {}",
                choice.title()
            ),
            move |iters| {
                let mut mine = mine.borrow_mut();
                let t = Instant::now();
                work(choice, iters, pools, &mut mine);
                t.elapsed()
            },
        );
    }
    s.compare(one)?;
    ratios(s, 1);

    // A persistent second thread with its own kept Vec, so no spawn is timed.
    let (to_worker, jobs) = mpsc::channel::<(u64, Choice)>();
    let (done, finished) = mpsc::channel::<()>();
    let worker = std::thread::spawn(move || {
        let mut theirs = Vec::with_capacity(LEN);
        while let Ok((ops, choice)) = jobs.recv() {
            work(choice, ops, pools, &mut theirs);
            if done.send(()).is_err() {
                break;
            }
        }
    });
    let two = |iters: u64, choice: Choice| {
        let mut mine = mine.borrow_mut();
        let half = iters / 2;
        let t = Instant::now();
        let sent = to_worker.send((half, choice)).is_ok();
        work(choice, iters - half, pools, &mut mine);
        if !sent || finished.recv().is_err() {
            // The worker is gone: do its share here (the figure then shows no speed-up).
            work(choice, half, pools, &mut mine);
        }
        t.elapsed()
    };
    let mut both = Group::new("read_buffer.2").with_batch(Duration::from_millis(5));
    for choice in CHOICES {
        let two = &two;
        both.time_custom(
            &format!("read_buffer.2.{}", choice.id()),
            &format!(
                "wall-clock ns per 4 KiB read buffer (get, fill, give back), 2 threads: {}",
                choice.title()
            ),
            move |iters| two(iters, choice),
        );
    }
    s.compare(both)?;
    drop(to_worker);
    let _ = worker.join();
    ratios(s, 2);
    Ok(())
}

/// This crate's shared pool ÷ each other choice, on `threads` threads.
fn ratios(s: &mut Session, threads: usize) {
    let shared = format!("read_buffer.{threads}.shared");
    for choice in &CHOICES[1..] {
        s.ratio_of(
            &format!("read_buffer.{threads}.shared_vs_{}", choice.id()),
            &format!(
                "4 KiB read buffer on {threads} thread(s): bufpool's SharedPool ÷ {} (< 1: the pool takes less time)",
                choice.title()
            ),
            &shared,
            &format!("read_buffer.{threads}.{}", choice.id()),
        );
    }
}

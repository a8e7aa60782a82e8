//! Unit tests of the pool; small enough to run under Miri
//! (`cargo +nightly miri test -p bufpool --lib pool`).

use super::*;
use std::time::Duration;

fn small(p: usize, m: usize) -> SharedConfig {
    SharedConfig {
        partitions: p,
        arrays_per_partition: m,
        clear_on_return: false,
    }
}

#[test]
fn rent_rounds_up_and_derefs_to_the_request() {
    let pool = SharedPool::<u8>::new();
    let r = pool.rent(100);
    assert_eq!((r.len(), r.capacity()), (100, 128));
    let e = pool.rent(0);
    assert_eq!((e.len(), e.capacity()), (0, 0));
}

#[test]
fn returned_buffer_is_rented_again_from_the_thread_slot() {
    let pool = SharedPool::<i32>::with_config(small(1, 2)).unwrap();
    let mut r = pool.rent(20);
    r[0] = 5;
    let p = r.as_capacity().as_ptr();
    drop(r);
    let s = pool.stats();
    assert_eq!(s.buckets[1].in_thread_slot, 1);
    let r = pool.rent(32);
    assert_eq!(r.as_capacity().as_ptr(), p);
    assert_eq!(r[0], 5);
    assert_eq!(pool.stats().allocated(), 1);
}

#[test]
fn capacity_is_one_plus_p_times_m() {
    let pool = SharedPool::<u8>::with_config(small(2, 3)).unwrap();
    let held: Vec<_> = (0..10).map(|_| pool.rent(16)).collect();
    drop(held);
    let b = &pool.stats().buckets[0];
    assert_eq!(
        (b.in_thread_slot, b.in_partitions, b.retained_buffers),
        (1, 6, 7)
    );
    assert_eq!(b.allocated, 10);
}

#[test]
fn written_tracks_appends() {
    let pool = SharedPool::<u8>::new();
    let mut r = pool.rent(4);
    r.append(b"ab").unwrap();
    r.append(b"cd").unwrap();
    assert_eq!(r.written(), b"abcd");
    assert!(r.append(&[0; 13]).is_err()); // capacity 16
    assert!(r.set_written(17).is_err());
    r.set_written(16).unwrap();
}

#[test]
fn detach_keeps_the_buffer_out_of_the_pool() {
    let pool = SharedPool::<u8>::new();
    let b = pool.rent(16).detach();
    assert_eq!(b.len(), 16);
    assert_eq!(pool.stats().retained_buffers(), 0);
}

#[test]
fn oversize_is_exact_and_never_kept() {
    let pool = ConfigurablePool::<u8>::with_config(ConfigurableConfig {
        max_array_length: 16,
        ..Default::default()
    })
    .unwrap();
    let r = pool.rent(17);
    assert_eq!(r.capacity(), 17);
    drop(r);
    assert_eq!(pool.stats().retained_buffers(), 0);
    assert_eq!(pool.stats().oversize_allocated, 1);
}

#[test]
fn return_clears_before_checking_the_length() {
    let pool = SharedPool::<u8>::new();
    let rejected = pool
        .return_boxed(vec![9u8; 20].into_boxed_slice(), true)
        .unwrap_err();
    assert_eq!(rejected.error, PoolError::NotAssociated { length: 20 });
    assert!(rejected.buffer.iter().all(|&b| b == 0));
    // Not cleared when not asked.
    let rejected = pool
        .return_boxed(vec![9u8; 20].into_boxed_slice(), false)
        .unwrap_err();
    assert!(rejected.buffer.iter().all(|&b| b == 9));
}

#[test]
fn absurd_requests_are_errors_from_every_try_rent() {
    let absurd = PoolError::AllocationFailed {
        length: usize::MAX,
        element_size: 8,
    };
    let shared = SharedPool::<u64>::new();
    assert_eq!(shared.try_rent(usize::MAX).unwrap_err(), absurd);
    assert_eq!(shared.try_rent_boxed(usize::MAX).unwrap_err(), absurd);
    assert_eq!(
        shared.try_rent_const::<{ usize::MAX }>().unwrap_err(),
        absurd
    );
    // Above the largest bucket but below `isize::MAX` bytes: still too much for any allocator
    // here, and still an error rather than an abort.
    let huge = (isize::MAX as usize) / 8 + 1;
    assert!(matches!(
        shared.try_rent(huge),
        Err(PoolError::AllocationFailed { length, element_size: 8 }) if length == huge
    ));
    let configurable = ConfigurablePool::<u64>::new();
    assert_eq!(configurable.try_rent(usize::MAX).unwrap_err(), absurd);
    assert_eq!(configurable.try_rent_boxed(usize::MAX).unwrap_err(), absurd);
    // Nothing was allocated or kept by the refusals.
    assert_eq!(shared.stats().allocated(), 0);
    drop(shared.rent(1));
    assert_eq!(shared.stats().allocated(), 1);
    assert_eq!(
        checked_len(-5),
        Err(PoolError::NegativeLength { requested: -5 })
    );
}

#[test]
fn configurable_tries_the_next_bucket_then_allocates() {
    let pool = ConfigurablePool::<u8>::with_config(ConfigurableConfig {
        max_array_length: 64,
        max_arrays_per_bucket: 1,
        clear_on_return: false,
    })
    .unwrap();
    let a = pool.rent(16);
    let b = pool.rent(16); // bucket 0 exhausted → bucket 1, allocated lazily at 32
    let c = pool.rent(16); // both exhausted → a bucket-0 buffer
    assert_eq!((a.capacity(), b.capacity(), c.capacity()), (16, 32, 16));
    drop((a, b, c));
    let s = pool.stats();
    assert_eq!(s.buckets[0].retained_buffers, 1); // one slot: the second 16 is dropped
    assert_eq!(s.buckets[1].retained_buffers, 1);
}

#[test]
fn owning_values_live_until_cleared() {
    use std::sync::Arc;
    let pool = SharedPool::<Option<Arc<()>>>::new();
    let token = Arc::new(());
    let mut r = pool.rent(16);
    r[0] = Some(token.clone());
    drop(r);
    assert_eq!(Arc::strong_count(&token), 2); // kept alive by the pool
    pool.rent(16).return_cleared();
    assert_eq!(Arc::strong_count(&token), 1);
}

#[test]
fn trim_follows_the_clock() {
    let pool = SharedPool::<u8>::with_config(small(1, 8)).unwrap();
    drop((0..4).map(|_| pool.rent(16)).collect::<Vec<_>>());
    let kept = |p: &SharedPool<u8>| p.stats().buckets[0].clone();
    assert_eq!(kept(&pool).in_partitions, 3);
    pool.trim(MemoryPressure::Low, Duration::from_secs(1)); // stamps
    assert_eq!(kept(&pool).retained_buffers, 4);
    pool.trim(MemoryPressure::Low, Duration::from_secs(61)); // 60 s: not yet (strictly more)
    assert_eq!(kept(&pool).in_partitions, 3);
    pool.trim(MemoryPressure::Low, Duration::from_millis(61_001));
    assert_eq!(kept(&pool).in_partitions, 2);
    // The slot was stamped at 1 s; 30 s later a Low trim drops it.
    assert_eq!(kept(&pool).in_thread_slot, 0);
    pool.trim(MemoryPressure::High, Duration::from_secs(1_000));
    assert_eq!(pool.stats().retained_buffers(), 0);
}

#[test]
fn trim_all_and_clear_all_threads_empty_the_pool() {
    let mut pool = SharedPool::<u8>::new();
    drop((0..3).map(|_| pool.rent(16)).collect::<Vec<_>>());
    pool.trim_all();
    assert_eq!(pool.stats().retained_buffers(), 0);
    drop((0..3).map(|_| pool.rent(16)).collect::<Vec<_>>());
    pool.clear_all_threads();
    assert_eq!(pool.stats().retained_buffers(), 0);
}

#[test]
fn shared_instance_is_per_type() {
    let a = SharedPool::<u8>::shared();
    assert_eq!(a.id(), SharedPool::<u8>::shared().id());
}

/// Threads that ask for the shared pools of several types at once, each type first on a
/// different thread, agree on one pool per type (the registry's copy-on-write publication).
#[test]
fn shared_instances_are_one_per_type_across_threads() {
    #[derive(Clone, Default)]
    struct A;
    #[derive(Clone, Default)]
    struct B(#[allow(dead_code, reason = "a distinct element type")] u32);
    fn ids() -> [u64; 4] {
        [
            SharedPool::<A>::shared().id(),
            SharedPool::<B>::shared().id(),
            SharedPool::<u16>::shared().id(),
            SharedPool::<String>::shared().id(),
        ]
    }
    let threads: Vec<_> = (0..3).map(|_| std::thread::spawn(ids)).collect();
    let here = ids();
    for t in threads {
        assert_eq!(t.join().unwrap(), here);
    }
    let mut distinct = here.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), 4, "one pool per element type");
    let pool = SharedPool::<u16>::shared();
    drop(pool.rent(10));
    assert_eq!(pool.stats().retained_buffers(), 1);
}

#[test]
fn threads_have_their_own_slots() {
    let pool = SharedPool::<u8>::with_config(small(2, 4)).unwrap();
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                for _ in 0..3 {
                    let mut r = pool.rent(16);
                    r[0] = 1;
                }
            });
        }
    });
    // Each thread left its buffer in its own slot; this thread sees none of them.
    assert_eq!(pool.stats().buckets[0].in_thread_slot, 0);
}

#[test]
fn rent_const_is_rent_with_the_bucket_known_at_compile_time() {
    let pool = SharedPool::<u8>::with_config(small(1, 2)).unwrap();
    let mut a = pool.rent_const::<100>();
    assert_eq!((a.len(), a.capacity()), (100, 128));
    a[0] = 7;
    let p = a.as_capacity().as_ptr();
    drop(a);
    let b = pool.rent(128);
    assert_eq!((b.as_capacity().as_ptr(), b[0]), (p, 7)); // the same buffer, from the slot
    drop(b);
    let c = pool.rent_const::<65>();
    assert_eq!(c.as_capacity().as_ptr(), p);
    drop(c);
    let e = pool.rent_const::<0>();
    assert_eq!((e.len(), e.capacity()), (0, 0));
    assert_eq!(pool.stats().allocated(), 1);
}

#[test]
fn two_pools_used_in_turn_on_one_thread_keep_their_own_slots() {
    // The per-thread cache remembers one pool at a time: alternating must stay correct.
    let a = SharedPool::<u8>::with_config(small(1, 1)).unwrap();
    let b = SharedPool::<u8>::with_config(small(1, 1)).unwrap();
    for round in 0..4u8 {
        let mut x = a.rent(16);
        x[0] = round;
        drop(x);
        let mut y = b.rent(16);
        y[0] = 100 + round;
        drop(y);
        assert_eq!(a.rent(16)[0], round);
        assert_eq!(b.rent(16)[0], 100 + round);
    }
    assert_eq!((a.stats().allocated(), b.stats().allocated()), (1, 1));
}

#[test]
fn clear_all_threads_then_the_hot_path_allocates_afresh() {
    let mut pool = SharedPool::<u8>::with_config(small(1, 1)).unwrap();
    drop(pool.rent(16));
    drop(pool.rent(16)); // from the slot, through the per-thread cache
    pool.clear_all_threads();
    assert_eq!(pool.stats().retained_buffers(), 0);
    drop(pool.rent(16)); // a new buffer: the cleared slot is empty
    assert_eq!(pool.stats().allocated(), 2);
    assert_eq!(pool.stats().retained_buffers(), 1);
}

#[test]
fn a_thread_that_exits_leaves_its_buffers_to_later_threads_only() {
    let pool = SharedPool::<u8>::with_config(small(1, 1)).unwrap();
    std::thread::scope(|s| {
        s.spawn(|| {
            let mut x = pool.rent(16);
            x[0] = 1;
        });
    });
    // A new thread gets fresh slots or the dead thread's (a recycled id): either way one
    // buffer serves it and nothing is shared between live threads.
    std::thread::scope(|s| {
        s.spawn(|| drop(pool.rent(16)));
        s.spawn(|| drop(pool.rent(16)));
    });
    assert!(pool.stats().allocated() <= 3);
}

/// A pool used from a thread-local's destructor, after the thread's slots are gone: the return
/// must neither abort the process (it did: creating slots then panics inside a TLS destructor)
/// nor use the dead thread's slots; the buffer goes to a partition.
#[test]
fn a_return_from_a_late_tls_destructor_goes_to_a_partition() {
    use std::cell::RefCell;
    use std::sync::Arc;
    struct Late(Arc<SharedPool<u8>>);
    impl Drop for Late {
        fn drop(&mut self) {
            drop(self.0.rent(16));
        }
    }
    thread_local! {
        static LATE: RefCell<Option<Late>> = const { RefCell::new(None) };
    }
    let pool = Arc::new(SharedPool::<u8>::with_config(small(1, 4)).unwrap());
    let p = pool.clone();
    std::thread::spawn(move || {
        // Registered before the pool's first use on this thread: dropped after its slots.
        LATE.with(|l| *l.borrow_mut() = Some(Late(p.clone())));
        drop(p.rent(16));
    })
    .join()
    .unwrap();
    let b = &pool.stats().buckets[0];
    assert_eq!((b.in_partitions, b.allocated), (1, 2));
}

/// Threads exiting while others rent and return: each wave of short-lived threads fills its own
/// slots (the per-thread cache on), rents and returns from a thread-local's destructor while it
/// exits, and the next wave inherits the dead threads' recycled ids and slots; meanwhile two
/// long-lived threads keep renting and returning. No buffer is ever held by two renters at once
/// and no renter sees another's writes. Run under Miri too (`cargo xtask test`), which also
/// reports any data race on the slots' unsynchronized cells.
#[test]
fn threads_exit_while_others_rent_and_return() {
    use std::cell::RefCell;
    use std::collections::HashSet;
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    use std::sync::{Arc, Mutex};

    const WAVES: usize = if cfg!(miri) { 3 } else { 60 };
    const LEAVERS: usize = if cfg!(miri) { 2 } else { 4 };
    const ROUNDS: u64 = if cfg!(miri) { 6 } else { 100 };

    struct Shared {
        pool: SharedPool<u64>,
        held: Mutex<HashSet<usize>>,
        marks: AtomicU64,
    }

    /// One renter's turn: rent, check nobody else holds it, write a unique mark, hold `keep`
    /// more, then check the marks survived and return them all.
    fn turn(s: &Shared, round: u64) {
        let mut mine = Vec::new();
        for i in 0..=round % 3 {
            let len = [16, 17, 64][((round + i) % 3) as usize];
            let mut r = s.pool.rent(len);
            let addr = r.as_capacity().as_ptr() as usize;
            assert!(
                s.held.lock().unwrap().insert(addr),
                "buffer {addr:#x} handed to two renters"
            );
            let mark = s.marks.fetch_add(1, Ordering::Relaxed);
            r.fill(mark);
            mine.push((r, addr, mark));
        }
        for (r, addr, mark) in mine {
            assert!(
                r.iter().all(|&v| v == mark),
                "someone wrote into a rented buffer"
            );
            assert!(s.held.lock().unwrap().remove(&addr));
            drop(r);
        }
    }

    struct AtExit(Arc<Shared>);
    impl Drop for AtExit {
        fn drop(&mut self) {
            turn(&self.0, 2);
        }
    }
    thread_local! {
        static AT_EXIT: RefCell<Option<AtExit>> = const { RefCell::new(None) };
    }

    let shared = Arc::new(Shared {
        pool: SharedPool::with_config(small(2, 2)).unwrap(),
        held: Mutex::new(HashSet::new()),
        marks: AtomicU64::new(1),
    });
    let stop = Arc::new(AtomicBool::new(false));
    let stayers: Vec<_> = (0..2)
        .map(|_| {
            let (s, stop) = (shared.clone(), stop.clone());
            std::thread::spawn(move || {
                let mut round = 0;
                while !stop.load(Ordering::Relaxed) {
                    turn(&s, round);
                    round += 1;
                }
            })
        })
        .collect();
    // Each wave starts before the previous one is joined: a new thread may be given an id that
    // an exiting thread has just freed while that thread still runs its TLS destructors.
    let mut previous: Vec<std::thread::JoinHandle<()>> = Vec::new();
    for wave in 0..WAVES {
        let leavers: Vec<_> = (0..LEAVERS)
            .map(|t| {
                let s = shared.clone();
                std::thread::spawn(move || {
                    // Before the pool's first use on this thread, so it runs after the slots
                    // are gone; every other leaver registers it after, so it runs before.
                    if t % 2 == 0 {
                        AT_EXIT.with(|a| *a.borrow_mut() = Some(AtExit(s.clone())));
                    }
                    for round in 0..ROUNDS {
                        turn(&s, round + wave as u64);
                    }
                    if t % 2 == 1 {
                        AT_EXIT.with(|a| *a.borrow_mut() = Some(AtExit(s.clone())));
                    }
                })
            })
            .collect();
        for l in std::mem::replace(&mut previous, leavers) {
            l.join().unwrap();
        }
    }
    for l in previous {
        l.join().unwrap();
    }
    stop.store(true, Ordering::Relaxed);
    for s in stayers {
        s.join().unwrap();
    }
    assert!(shared.held.lock().unwrap().is_empty());
}

/// Under the `serde` feature a configuration survives a round trip (what a program that keeps
/// its pool settings in a file relies on).
#[cfg(feature = "serde")]
#[test]
fn configs_round_trip_through_serde() {
    let shared = SharedConfig::new()
        .with_partitions(3)
        .with_arrays_per_partition(5)
        .with_clear_on_return(true);
    let text = serde_json::to_string(&shared).unwrap();
    assert_eq!(
        text,
        r#"{"partitions":3,"arrays_per_partition":5,"clear_on_return":true}"#
    );
    assert_eq!(serde_json::from_str::<SharedConfig>(&text).unwrap(), shared);
    let configurable = ConfigurableConfig::new()
        .with_max_array_length(4096)
        .with_max_arrays_per_bucket(7);
    let text = serde_json::to_string(&configurable).unwrap();
    assert_eq!(
        serde_json::from_str::<ConfigurableConfig>(&text).unwrap(),
        configurable
    );
}

#[test]
#[should_panic(
    expected = "could not allocate 18446744073709551615 elements of 8 bytes: the size exceeds isize::MAX bytes"
)]
fn rent_panics_with_the_errors_message() {
    let pool = SharedPool::<u64>::new();
    drop(pool.rent(usize::MAX));
}

#[test]
#[should_panic(
    expected = "could not allocate 18446744073709551615 elements of 1 bytes: the size exceeds isize::MAX bytes"
)]
fn rent_boxed_of_the_configurable_pool_panics_with_the_errors_message() {
    let pool = ConfigurablePool::<u8>::new();
    drop(pool.rent_boxed(usize::MAX));
}

#[test]
#[should_panic(
    expected = "could not allocate 18446744073709551615 elements of 8 bytes: the size exceeds isize::MAX bytes"
)]
fn rent_const_panics_with_the_errors_message() {
    let pool = SharedPool::<u64>::new();
    drop(pool.rent_const::<{ usize::MAX }>());
}

/// Generic code over [`BufferPool`], given each pool: the same answers from both.
#[test]
fn the_trait_serves_generic_code_over_both_pools() {
    fn cycle<P: BufferPool<u32>>(pool: &P) -> (usize, usize, bool, bool) {
        let mut a = pool.rent(20);
        a[0] = 7;
        let capacity = a.capacity();
        drop(a);
        let raw = pool.rent_boxed(20);
        let raw_len = raw.len();
        let back = pool.return_boxed(raw, true).is_ok();
        let refused =
            pool.try_rent(usize::MAX).is_err() && pool.try_rent_boxed(usize::MAX).is_err();
        (capacity, raw_len, back, refused)
    }
    assert_eq!(cycle(&SharedPool::<u32>::new()), (32, 32, true, true));
    assert_eq!(cycle(&ConfigurablePool::<u32>::new()), (32, 32, true, true));
}

/// The owned guard goes back exactly as `Rented` does: into the calling thread's slot (the next
/// rent gets the same buffer), cleared when the pool or the guard says so.
#[test]
fn an_owned_guard_returns_as_rented_does() {
    use std::sync::Arc;
    let pool = Arc::new(SharedPool::<u8>::new());
    let mut a = pool.rent_owned(41);
    assert_eq!((a.len(), a.capacity()), (41, 64));
    a.append(b"1042|").unwrap();
    let address = a.as_ptr();
    drop(a);
    let b = pool.rent(50);
    assert_eq!((b.as_ptr(), &b[..5]), (address, &b"1042|"[..]));
    drop(b);
    let mut c = pool.rent_owned(16);
    c[0] = 9;
    c.return_cleared();
    assert_eq!(pool.rent(16)[0], 0);
    assert_eq!(pool.stats().allocated(), 2);

    let clearing = Arc::new(
        ConfigurablePool::<u8>::with_config(ConfigurableConfig::new().with_clear_on_return(true))
            .unwrap(),
    );
    let mut d = clearing.rent_owned(16);
    assert!(d.clears_on_return());
    d.fill(7);
    drop(d);
    assert!(clearing.rent(16).iter().all(|&x| x == 0));
    assert_eq!(clearing.rent_owned(16).detach().len(), 16);
}

/// An owned guard moved into `std::thread::spawn` outlives the caller's `Arc` and goes back
/// to the pool from the other thread, which then reuses it.
#[test]
fn an_owned_guard_crosses_threads() {
    use std::sync::Arc;
    let pool = Arc::new(SharedPool::<u64>::new());
    let guards: Vec<_> = (0..4).map(|_| pool.rent_owned(100)).collect();
    let weak = Arc::downgrade(&pool);
    drop(pool); // only the guards keep the pool alive now
    let workers: Vec<_> = guards
        .into_iter()
        .enumerate()
        .map(|(i, mut g)| {
            std::thread::spawn(move || {
                g.fill(i as u64);
                let sum: u64 = g.iter().sum();
                let pool = Arc::clone(g.pool());
                drop(g); // into this thread's slot
                let again = pool.rent(100); // the same buffer, from the slot
                (sum, again[0], pool.stats().allocated())
            })
        })
        .collect();
    for (i, w) in workers.into_iter().enumerate() {
        let (sum, first, allocated) = w.join().unwrap();
        assert_eq!((sum, first), (100 * i as u64, i as u64));
        assert_eq!(allocated, 4); // each thread reused its own buffer
    }
    assert!(
        weak.upgrade().is_none(),
        "the last guard's drop freed the pool"
    );
}

//! The assumptions the unsafe code of `pool::sync` rests on, one test each (natively and under
//! Miri): the thread store's entries never move, live threads never share one, `&mut` access
//! turns every cached pointer stale, the cache stops answering once its thread began exiting,
//! an id is reused only after its thread gave it back (also asserted on every id handed out in
//! a test build: `thread_id::owners`), threads exiting in crowds; and `BoxSlots` rebuilds the
//! boxes it was given.

use super::thread_id::{self, owners};
use super::*;
use crate::bucket::{BUCKET_COUNT, bucket_length};
use std::cell::{Cell, RefCell};
use std::sync::{Arc, Barrier, Mutex as StdMutex};

type Store = ThreadStore<Cell<u64>>;

fn addr(s: &Cell<u64>) -> usize {
    std::ptr::from_ref(s) as usize
}

/// Many threads alive at once (so the store makes several buckets).
const CROWD: usize = if cfg!(miri) { 5 } else { 40 };

#[test]
fn an_entry_never_moves_while_its_store_lives() {
    let store = Store::new(true);
    let mine = store.get_or(|| Cell::new(7)).unwrap().own();
    let before = addr(mine);
    let barrier = Barrier::new(CROWD);
    std::thread::scope(|s| {
        for i in 0..CROWD {
            let (store, barrier) = (&store, &barrier);
            s.spawn(move || {
                store.get_or(|| Cell::new(i as u64));
                // All alive together: every one holds its own thread id.
                barrier.wait();
            });
        }
    });
    // Past the cache: through this thread's id and its bucket.
    let e = store
        .get_uncached()
        .expect("this thread's entry is still there");
    assert_eq!(addr(e.own()), before, "an entry moved");
    assert_eq!(e.own().get(), 7);
}

#[test]
fn the_buckets_double_and_cover_every_id() {
    assert_eq!(super::thread_store::locate(0), (0, 0));
    assert_eq!(super::thread_store::locate(1), (1, 0));
    assert_eq!(super::thread_store::locate(2), (1, 1));
    assert_eq!(super::thread_store::locate(3), (2, 0));
    assert_eq!(super::thread_store::locate(6), (2, 3));
    assert_eq!(super::thread_store::locate(7), (3, 0));
    let last = super::thread_store::locate(usize::MAX - 1);
    assert_eq!(
        last,
        (usize::BITS as usize - 1, (1 << (usize::BITS - 1)) - 1)
    );
}

#[test]
fn live_threads_never_share_an_entry() {
    let store = Store::new(true);
    let seen = StdMutex::new(Vec::new());
    let barrier = Barrier::new(CROWD);
    std::thread::scope(|s| {
        for i in 0..CROWD {
            let (store, seen, barrier) = (&store, &seen, &barrier);
            s.spawn(move || {
                let e = store.get_or(|| Cell::new(i as u64)).unwrap();
                seen.lock().unwrap().push(addr(e.own()));
                barrier.wait();
                // Still this thread's value after every other thread wrote its own.
                assert_eq!(store.get().map(|e| e.own().get()), Some(i as u64));
            });
        }
    });
    let mut seen = seen.into_inner().unwrap();
    seen.sort_unstable();
    seen.dedup();
    assert_eq!(seen.len(), CROWD, "two live threads were given one entry");
}

#[test]
fn exclusive_access_turns_every_cached_pointer_stale() {
    let mut store = Store::new(true);
    store.get_or(|| Cell::new(1));
    assert!(store.get_cached().is_some());
    store.for_each_mut(|c| c.set(2));
    assert!(
        store.get_cached().is_none(),
        "a cached pointer survived &mut"
    );
    assert_eq!(store.get().map(|e| e.own().get()), Some(2));
    assert!(store.get_cached().is_some(), "the lookup refills the cache");
}

/// An id goes back only when its thread exits, and never to two live threads at once (the
/// latter is asserted on every id handed out: `owners::acquire`).
#[test]
fn an_id_is_reused_only_after_its_thread_finished() {
    let store = Arc::new(Store::new(true));
    let barrier = Arc::new(Barrier::new(CROWD + 1));
    let (s, b) = (store.clone(), barrier.clone());
    let first = std::thread::spawn(move || {
        s.get_or(|| Cell::new(1));
        let id = thread_id::current().expect("the first use took an id");
        let holding = owners::holding(id).expect("held");
        b.wait(); // The crowd takes its ids while this thread holds its own.
        b.wait();
        (id, holding)
    });
    let crowd: Vec<_> = (0..CROWD)
        .map(|_| {
            let (s, b) = (store.clone(), barrier.clone());
            std::thread::spawn(move || {
                b.wait();
                s.get_or(|| Cell::new(2));
                let id = thread_id::current().unwrap();
                b.wait();
                id
            })
        })
        .collect();
    let ids: Vec<usize> = crowd.into_iter().map(|t| t.join().unwrap()).collect();
    let (id, holding) = first.join().unwrap();
    assert!(
        !ids.contains(&id),
        "a live thread's id was given to another"
    );
    assert_ne!(
        owners::holding(id),
        Some(holding),
        "the thread exited and still holds its id"
    );
}

/// What the unsafe block needs at thread exit: in every TLS destructor the thread runs, the
/// cache answers only while the thread still holds its id (once the id is freed, another thread
/// may be given the same entry), and once the id is freed no entry is made for the thread.
/// Destructors registered before the thread's first use of a store, inside the entry's
/// constructor and after it are all checked; whatever order `std` runs them in.
#[test]
fn the_cache_answers_no_more_once_its_thread_began_exiting() {
    /// Per destructor: (where it was registered, the thread still holds an id, the cache
    /// answers, `get_or` made or found an entry).
    type Seen = Arc<StdMutex<Vec<(&'static str, bool, bool, bool)>>>;
    struct Probe {
        name: &'static str,
        store: Arc<Store>,
        seen: Seen,
    }
    impl Drop for Probe {
        fn drop(&mut self) {
            let id_held = thread_id::current().is_some();
            let cache_answers = self.store.get_cached().is_some();
            let entry = self.store.get_or(|| Cell::new(9)).is_some();
            self.seen
                .lock()
                .unwrap()
                .push((self.name, id_held, cache_answers, entry));
        }
    }
    thread_local! {
        static BEFORE: RefCell<Option<Probe>> = const { RefCell::new(None) };
        static INSIDE: RefCell<Option<Probe>> = const { RefCell::new(None) };
        static AFTER: RefCell<Option<Probe>> = const { RefCell::new(None) };
    }
    let store = Arc::new(Store::new(true));
    let seen = Arc::new(StdMutex::new(Vec::new()));
    let probe = |name| Probe {
        name,
        store: store.clone(),
        seen: seen.clone(),
    };
    let (before, inside, after) = (probe("before"), probe("inside"), probe("after"));
    let s = store.clone();
    std::thread::spawn(move || {
        BEFORE.with(|p| *p.borrow_mut() = Some(before));
        s.get_or(|| {
            INSIDE.with(|p| *p.borrow_mut() = Some(inside));
            Cell::new(1)
        });
        assert!(s.get_cached().is_some(), "the first use fills the cache");
        AFTER.with(|p| *p.borrow_mut() = Some(after));
    })
    .join()
    .unwrap();
    let seen = seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 3, "{seen:?}");
    for &(name, id_held, cache_answers, entry) in &seen {
        assert!(
            id_held || !cache_answers,
            "in the destructor registered {name} the first use, the cache answered after the thread's id was freed: {seen:?}"
        );
        assert_eq!(
            entry, id_held,
            "in the destructor registered {name} the first use: an entry without an id, or none with one: {seen:?}"
        );
    }
    // The hazard is real: on today's `std` (destructors run last-registered first) the probe
    // registered before the first use runs after the id was freed. Not relied on by the code;
    // this only says the case above was exercised.
    assert!(seen.iter().any(|&(_, id_held, _, _)| !id_held), "{seen:?}");
}

/// Waves of threads that take an entry, use it and exit, while this thread takes `&mut` of the
/// store as soon as each wave's scope ends (its threads may still be running their destructors,
/// which free their ids) and the next wave reuses those ids and entries. Miri checks every
/// access for a data race.
#[test]
fn threads_exit_in_crowds_while_the_store_is_iterated() {
    let waves = if cfg!(miri) { 3 } else { 50 };
    let mut store = Store::new(true);
    let mut total = 0;
    for wave in 0..waves {
        std::thread::scope(|s| {
            for i in 0..CROWD {
                let store = &store;
                s.spawn(move || {
                    let e = store.get_or(|| Cell::new(0)).unwrap();
                    e.own().set(e.own().get() + 1);
                    assert!(store.get_cached().is_some());
                    let _ = (wave, i);
                });
            }
        });
        let mut sum = 0;
        store.for_each_mut(|c| sum += c.get());
        total += CROWD as u64;
        assert_eq!(sum, total, "wave {wave}: a use was lost or counted twice");
    }
}

/// `BoxSlots` keeps bare pointers and rebuilds each box with its bucket's length; Miri
/// checks every rebuild against the allocation (and that dropping the slots frees them).
#[test]
fn box_slots_give_back_the_boxes_they_took() {
    let slots = BoxSlots::<u32>::new();
    let mut a = vec![0u32; bucket_length(2)].into_boxed_slice();
    a[63] = 7;
    let a_ptr = a.as_ptr();
    assert_eq!(slots.replace(2, a).ok(), Some(None));
    assert!(slots.is_some(2) && !slots.is_some(1));
    // A buffer of another length, or a bucket out of range, is refused untouched.
    let odd = vec![1u32; 100].into_boxed_slice();
    assert_eq!(slots.replace(2, odd).map_err(|b| b.len()), Err(100));
    let big = vec![1u32; 16].into_boxed_slice();
    assert!(slots.replace(BUCKET_COUNT, big).is_err());
    // SAFETY: 32 elements is bucket 1's length, and 1 is a bucket.
    let none = unsafe { slots.replace_unchecked(1, vec![3u32; 32].into_boxed_slice()) };
    assert!(none.is_none());
    let b = vec![2u32; 64].into_boxed_slice();
    let prev = slots
        .replace(2, b)
        .unwrap()
        .expect("the first box comes back");
    assert_eq!((prev.as_ptr(), prev.len(), prev[63]), (a_ptr, 64, 7));
    let b = slots.take(2).expect("the second box");
    assert_eq!((b.len(), b[0]), (64, 2));
    assert!(slots.take(2).is_none());
    // Slot 1 still holds a box: dropping the slots frees it.
    drop(slots);
    // Zero-sized elements: no allocation, any length.
    let zst = BoxSlots::<()>::new();
    assert!(zst.replace(0, vec![(); 16].into_boxed_slice()).is_ok());
    assert_eq!(zst.take(0).map(|b| b.len()), Some(16));
}

#[test]
fn a_stamp_cell_reads_back_what_it_was_given() {
    let cell = StampCell::new();
    assert_eq!(cell.take(), None);
    for stamp in [0, 1, 30_000, u64::MAX - 1] {
        cell.set(Some(stamp));
        assert_eq!(cell.take(), Some(stamp));
        assert_eq!(cell.take(), None, "take empties it");
    }
    // The one stamp that cannot be kept exactly reads back 1 ms earlier.
    cell.set(Some(u64::MAX));
    assert_eq!(cell.take(), Some(u64::MAX - 1));
    cell.set(Some(5));
    cell.set(None);
    assert_eq!(cell.take(), None);
}

#[test]
fn the_fast_lookup_answers_only_for_a_fast_store_and_follows_renewed_keys() {
    for fast in [true, false] {
        let mut store = Store::new(fast);
        store.get_or(|| Cell::new(1));
        assert!(store.get_cached().is_some());
        assert_eq!(store.get_cached_fast().is_some(), fast);
        store.for_each_mut(|c| c.set(2));
        assert!(
            store.get_cached_fast().is_none(),
            "a cached pointer survived &mut"
        );
        assert_eq!(
            store.get().map(|e| e.own().get()),
            Some(2),
            "the lookup refills the cache"
        );
        assert_eq!(
            store.get_cached_fast().map(|e| e.own().get()),
            fast.then_some(2)
        );
    }
}

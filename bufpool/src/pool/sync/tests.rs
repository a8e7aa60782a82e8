//! The assumptions the unsafe block in [`ThreadStore::get_cached`] rests on, one test each, so a
//! new `thread_local` version or a new `std` that breaks one fails here (natively and under
//! Miri) instead of turning the cache into a data race.

use super::*;
use crate::bucket::{BUCKET_COUNT, bucket_length};
use std::cell::{Cell, RefCell};
use std::sync::{Arc, Barrier, Mutex as StdMutex};

type Store = ThreadStore<Cell<u64>>;

fn addr(s: &Cell<u64>) -> usize {
    std::ptr::from_ref(s) as usize
}

/// Many threads alive at once (so the crate allocates new buckets).
const CROWD: usize = if cfg!(miri) { 5 } else { 40 };

#[test]
fn an_entry_never_moves_while_its_store_lives() {
    let store = Store::new(true);
    let mine = store.get_or(|| Cell::new(7)).unwrap();
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
    let table = store
        .table
        .get()
        .expect("this thread's entry is still there");
    assert_eq!(addr(table), before, "the crate moved an entry");
    assert_eq!(table.get(), 7);
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
                seen.lock().unwrap().push(addr(e));
                barrier.wait();
                // Still this thread's value after every other thread wrote its own.
                assert_eq!(store.get().map(Cell::get), Some(i as u64));
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
    assert_eq!(store.get().map(Cell::get), Some(2));
    assert!(store.get_cached().is_some(), "the lookup refills the cache");
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
            store.get().map(Cell::get),
            Some(2),
            "the lookup refills the cache"
        );
        assert_eq!(store.get_cached_fast().map(Cell::get), fast.then_some(2));
    }
}

/// The order `cache` relies on: `std` runs a thread's TLS destructors last-registered first.
/// `std` documents no order; this is what it does today (its destructor list is a stack).
#[test]
fn std_runs_tls_destructors_last_registered_first() {
    struct Note(&'static str);
    impl Drop for Note {
        fn drop(&mut self) {
            ORDER.lock().unwrap().push(self.0);
        }
    }
    static ORDER: StdMutex<Vec<&'static str>> = StdMutex::new(Vec::new());
    thread_local! {
        // Lazily initialized on purpose: both kinds of thread-local are checked.
        #[allow(clippy::missing_const_for_thread_local)]
        static A: Note = Note("a");
        static B: Note = const { Note("b") };
        static C: RefCell<Option<Note>> = const { RefCell::new(None) };
    }
    std::thread::spawn(|| {
        B.with(|_| ());
        C.with(|c| *c.borrow_mut() = Some(Note("c")));
        A.with(|_| ());
    })
    .join()
    .unwrap();
    assert_eq!(*ORDER.lock().unwrap(), ["a", "c", "b"]);
}

/// What the unsafe block needs at thread exit: in every TLS destructor the thread runs, the
/// cache answers only while the crate still holds this thread's id (once the id is freed,
/// another thread may be given the same entry). Destructors registered before the thread's
/// first use of a store, inside the entry's constructor and after it are all checked.
#[test]
fn the_cache_stops_answering_before_the_thread_id_is_freed() {
    /// Per destructor: (where it was registered, the crate still holds the id, the cache
    /// answers).
    type Seen = Arc<StdMutex<Vec<(&'static str, bool, bool)>>>;
    struct Probe {
        name: &'static str,
        store: Arc<Store>,
        seen: Seen,
    }
    impl Drop for Probe {
        fn drop(&mut self) {
            // The crate answers `None` once it has freed this thread's id.
            let id_held = self.store.table.get().is_some();
            let cache_answers = self.store.get_cached().is_some();
            self.seen
                .lock()
                .unwrap()
                .push((self.name, id_held, cache_answers));
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
    for &(name, id_held, cache_answers) in &seen {
        assert!(
            id_held || !cache_answers,
            "in the destructor registered {name} the first use, the cache answered after the thread's id was freed: {seen:?}"
        );
    }
    // The hazard is real: some destructor did run after the id was freed.
    assert!(seen.iter().any(|&(_, id_held, _)| !id_held), "{seen:?}");
}

//! The articles' scenarios, with their values: stale data (the 41-byte order line, then the
//! 25-byte one), the return contract (double return, use after return, foreign return, the
//! missing `finally`) and capacity (`1 + P × M`), as the chapters stale-data, return-contract and
//! capacity tell them.

use bufpool::pool::{SharedConfig, SharedPool};
use std::cell::Cell;

const ORDER: &str = "1042|ต้มยำกุ้ง|2|18000\n";
const SHORT: &str = "7|ส้มตำ|1|6000\n";

fn nonzero(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b != 0).count()
}

#[test]
fn the_next_renter_sees_the_41_byte_order_line() {
    assert_eq!(ORDER.len(), 41);
    let pool = SharedPool::<u8>::new();
    let mut first = pool.rent(ORDER.len());
    first.append(ORDER.as_bytes()).unwrap();
    drop(first); // Return without clearArray

    let next = pool.rent(ORDER.len());
    assert_eq!(nonzero(&next), 41);
    assert_eq!(&next[..], ORDER.as_bytes());
}

#[test]
fn a_shorter_write_read_at_41_leaks_the_previous_tail() {
    assert_eq!(SHORT.len(), 25);
    let pool = SharedPool::<u8>::new();
    let mut first = pool.rent(41);
    first.append(ORDER.as_bytes()).unwrap();
    drop(first);

    let mut second = pool.rent(41);
    second.append(SHORT.as_bytes()).unwrap();
    assert_eq!(second.written(), SHORT.as_bytes()); // what `written` says is yours
    let all41 = &second[..41]; // what reading the requested length shows
    assert_eq!(&all41[..25], SHORT.as_bytes());
    assert_eq!(&all41[25..], &ORDER.as_bytes()[25..]); // the previous order's tail
    assert_eq!(nonzero(&all41[25..]), 16);
}

#[test]
fn clearing_leaves_no_nonzero_byte() {
    let pool = SharedPool::<u8>::new();
    let mut first = pool.rent(41);
    first.append(ORDER.as_bytes()).unwrap();
    first.return_cleared();
    let next = pool.rent(41);
    assert_eq!(nonzero(next.as_capacity()), 0);
}

#[test]
fn a_pool_wide_clear_policy_clears_every_return() {
    let pool =
        SharedPool::<u8>::with_config(SharedConfig::new().with_clear_on_return(true)).unwrap();
    let mut first = pool.rent(41);
    first.append(ORDER.as_bytes()).unwrap();
    drop(first);
    assert_eq!(nonzero(&pool.rent(41)), 0);
}

#[test]
fn capacity_is_min_of_k_and_one_plus_p_times_m() {
    for (p, m) in [(1, 1), (2, 3), (3, 2), (2, 8), (8, 8)] {
        let config = SharedConfig::new()
            .with_partitions(p)
            .with_arrays_per_partition(m)
            .with_clear_on_return(false);
        let cap = 1 + p * m;
        for k in [1, cap - 1, cap, cap + 1, 2 * cap + 3] {
            let pool = SharedPool::<u8>::with_config(config).unwrap();
            let held: Vec<_> = (0..k).map(|_| pool.rent(1024)).collect();
            drop(held);
            let kept = pool.stats().buckets[6].retained_buffers;
            assert_eq!(kept, k.min(cap), "P={p} M={m} K={k}");
            // The next round of K rents allocates only what was not kept.
            let held: Vec<_> = (0..k).map(|_| pool.rent(1024)).collect();
            assert_eq!(pool.stats().allocated() as usize, k + (k - k.min(cap)));
            drop(held);
        }
    }
}

#[test]
fn the_course_numbers_for_eight_and_two_cores() {
    let on = |p| SharedConfig::new().with_partitions(p);
    assert_eq!(on(8).capacity_per_bucket(), 257);
    assert_eq!(on(2).capacity_per_bucket(), 65);
    // The article's override: MAXARRAYSPERPARTITION=8 on 8 cores, or MAXPARTITIONCOUNT=2.
    let a = SharedConfig::from_env_values(None, Some("8"), 8);
    let b = SharedConfig::from_env_values(Some("2"), None, 8);
    assert_eq!((a.capacity_per_bucket(), b.capacity_per_bucket()), (65, 65));
}

thread_local! {
    static DROPS: Cell<usize> = const { Cell::new(0) };
}

/// An owning element: counts how many of its non-empty values were dropped.
#[derive(Clone, Default)]
struct Owned(Option<Box<u32>>);

impl Drop for Owned {
    fn drop(&mut self) {
        if self.0.is_some() {
            DROPS.with(|d| d.set(d.get() + 1));
        }
    }
}

#[test]
fn a_pool_of_owning_values_keeps_them_alive_until_cleared() {
    let drops = || DROPS.with(|d| d.get());
    let pool = SharedPool::<Owned>::new();
    let mut r = pool.rent(16);
    for v in r.iter_mut() {
        *v = Owned(Some(Box::new(1)));
    }
    let before = drops();
    drop(r); // returned without clearing: 16 values stay alive inside the pool
    assert_eq!(drops(), before);
    pool.rent(16).return_cleared();
    assert_eq!(drops(), before + 16);
}

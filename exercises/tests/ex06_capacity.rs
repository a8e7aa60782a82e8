//! Grades exercise 6 (`src/ex06_capacity.rs`): `1 + P × 32` as the course states it, checked
//! against `bufpool`'s `SharedConfig`, and what holding more than that costs each round.

mod support;

#[cfg_attr(not(feature = "solutions"), path = "../src/ex06_capacity.rs")]
#[cfg_attr(feature = "solutions", path = "../solutions/ex06_capacity.rs")]
#[allow(
    dead_code,
    reason = "a skeleton's given items may be unused until it is done"
)]
mod ex;

use bufpool::pool::SharedConfig;
use ex::BucketModel;

fn lab_capacity(partitions: usize, per_partition: usize) -> usize {
    SharedConfig::new()
        .with_partitions(partitions)
        .with_arrays_per_partition(per_partition)
        .capacity_per_bucket()
}

/// One round: rent `held` buffers on `core`, all held at once, then give them all back.
fn round(model: &mut BucketModel, core: usize, held: usize) {
    let buffers: Vec<_> = (0..held).map(|_| model.rent(core)).collect();
    for buffer in buffers {
        model.give_back(core, buffer);
    }
}

#[test]
fn step1_capacity_is_one_plus_p_times_m() {
    for (p, m) in [(8, 32), (2, 32), (1, 32), (20, 32), (4, 1)] {
        assert_eq!(
            BucketModel::new(p, m).capacity(),
            lab_capacity(p, m),
            "capacity with {p} partitions of {m}"
        );
    }
    assert_eq!(BucketModel::new(8, 32).capacity(), 257, "8 logical cores");
    assert_eq!(BucketModel::new(2, 32).capacity(), 65, "2 logical cores");
}

#[test]
fn step2_the_newest_stays_local_and_rents_come_back_lifo() {
    let mut model = BucketModel::new(2, 32);
    let a = model.rent(0);
    let b = model.rent(0);
    assert_eq!(
        (a, b, model.allocated()),
        (0, 1, 2),
        "two rents of an empty bucket"
    );
    model.give_back(0, a);
    model.give_back(0, b);
    assert_eq!(model.kept(), 2, "buffers kept after two returns");
    assert_eq!(
        model.rent(0),
        b,
        "the first rent takes the thread slot: the newest"
    );
    assert_eq!(
        model.rent(1),
        a,
        "the next one finds the other in a partition"
    );
    assert_eq!(model.allocated(), 2, "no new buffer was needed");
}

#[test]
fn step3_holding_n_and_returning_all_keeps_at_most_the_capacity() {
    for p in [1, 2, 8] {
        let capacity = lab_capacity(p, 32);
        for held in [1, 32, 33, capacity - 1, capacity, capacity + 1, 300] {
            let mut model = BucketModel::new(p, 32);
            round(&mut model, 0, held);
            assert_eq!(
                model.kept(),
                held.min(capacity),
                "kept after holding {held} on {p} partitions (capacity {capacity})"
            );
        }
    }
}

#[test]
fn step4_beyond_the_capacity_every_round_allocates_the_difference() {
    let capacity = lab_capacity(2, 32);
    for held in [10, capacity, capacity + 1, 100] {
        let mut model = BucketModel::new(2, 32);
        round(&mut model, 0, held);
        let first = model.allocated() as usize;
        assert_eq!(
            first, held,
            "the first round of {held} allocates each buffer"
        );
        for rounds in 1..=3 {
            round(&mut model, rounds % 2, held);
            assert_eq!(
                model.allocated() as usize - first,
                rounds * held.saturating_sub(capacity),
                "buffers allocated in {rounds} later rounds of {held} (capacity {capacity})"
            );
        }
    }
}

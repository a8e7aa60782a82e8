//! Grades exercise 2 (`src/ex02_bucket.rs`): bucket index, length and waste, checked against the
//! course's own `bufpool::bucket`.

mod support;

#[cfg_attr(not(feature = "solutions"), path = "../src/ex02_bucket.rs")]
#[cfg_attr(feature = "solutions", path = "../solutions/ex02_bucket.rs")]
#[allow(
    dead_code,
    reason = "a skeleton's given items may be unused until it is done"
)]
mod ex;

use bufpool::bucket as lab;
use ex::{BUCKET_COUNT, MAX_BUCKET_LEN, Rounding, bucket_index, bucket_length, round, wasted};

/// The chapter's 18 requests (the Thai article's table).
const TABLE: [usize; 18] = [
    0, 1, 7, 15, 16, 17, 100, 128, 129, 1_000, 1_024, 1_025, 10_000, 65_536, 100_000, 1_000_000,
    1_048_576, 1_048_577,
];

/// Requests around every bucket edge, and the edges of the whole range.
fn edges() -> Vec<usize> {
    let mut sizes = vec![1, 2, 15, 16, 17, MAX_BUCKET_LEN - 1, MAX_BUCKET_LEN];
    for i in 0..BUCKET_COUNT {
        let len = lab::bucket_length(i);
        sizes.extend([len - 1, len, len + 1]);
    }
    sizes
}

fn lab_round(n: usize) -> Rounding {
    match lab::round(n) {
        lab::Rounding::Empty => Rounding::Empty,
        lab::Rounding::Bucket { index, length } => Rounding::Bucket { index, length },
        lab::Rounding::Oversize { length } => Rounding::Oversize { length },
    }
}

#[test]
fn step1_index_of_the_small_requests() {
    for (n, want) in [(1, 0), (7, 0), (15, 0), (16, 0), (17, 1), (32, 1), (33, 2)] {
        assert_eq!(bucket_index(n), want, "bucket_index({n})");
    }
}

#[test]
fn step2_index_at_every_bucket_edge() {
    for n in edges() {
        assert_eq!(
            bucket_index(n),
            lab::select_bucket_index(n),
            "bucket_index({n})"
        );
    }
    assert_eq!(
        bucket_index(MAX_BUCKET_LEN),
        26,
        "bucket_index(2^30), the largest bucket"
    );
}

#[test]
fn step3_length_of_every_bucket() {
    for index in 0..BUCKET_COUNT {
        assert_eq!(bucket_length(index), 16 << index, "bucket_length({index})");
    }
}

#[test]
fn step4_round_the_chapters_18_requests() {
    for n in TABLE {
        assert_eq!(round(n), lab_round(n), "round({n})");
    }
}

#[test]
fn step5_round_zero_and_over_the_largest_bucket() {
    assert_eq!(
        round(0),
        Rounding::Empty,
        "round(0): the shared empty buffer"
    );
    let over = MAX_BUCKET_LEN + 1;
    assert_eq!(
        round(over),
        Rounding::Oversize { length: over },
        "round(2^30 + 1)"
    );
    assert_eq!(
        round(usize::MAX),
        Rounding::Oversize { length: usize::MAX },
        "round(usize::MAX)"
    );
    for n in edges() {
        assert_eq!(round(n), lab_round(n), "round({n})");
    }
}

#[test]
fn step6_waste_of_a_request() {
    assert_eq!(wasted(100), 28, "wasted(100): a 128-element bucket");
    assert_eq!(wasted(1_025), 1_023, "wasted(1025): one past an edge");
    assert_eq!(wasted(0), 0, "wasted(0): nothing is handed out");
    assert_eq!(
        wasted(MAX_BUCKET_LEN + 1),
        0,
        "wasted(2^30 + 1): exact length"
    );
    for n in TABLE.into_iter().chain(edges()) {
        assert_eq!(wasted(n), lab::round(n).wasted(n), "wasted({n})");
    }
}

//! Grades exercise 9 (`src/ex09_const_rent.rs`): the index in a `const`, the `const` rent's
//! buffers, and the sizes that must not compile.

mod support;

#[cfg_attr(not(feature = "solutions"), path = "../src/ex09_const_rent.rs")]
#[cfg_attr(feature = "solutions", path = "../solutions/ex09_const_rent.rs")]
#[allow(
    dead_code,
    reason = "a skeleton's given items may be unused until it is done"
)]
mod ex;

use bufpool::bucket as lab;
use ex::{Pool, select_bucket_index};
use support::{must_compile, must_not_compile};

const STEM: &str = "ex09_const_rent";

/// A correct use of the `const` rent, the control of the compile-fail checks.
const RENT_100: &str =
    "pub fn correct(pool: &mut Pool) -> usize { pool.rent_const::<100>().len() }";

#[test]
fn step1_the_index_at_run_time() {
    for n in [
        1,
        15,
        16,
        17,
        100,
        128,
        129,
        1_025,
        65_536,
        1_048_577,
        1 << 30,
    ] {
        assert_eq!(
            select_bucket_index(n),
            lab::select_bucket_index(n),
            "select_bucket_index({n})"
        );
    }
}

#[test]
fn step2_the_index_at_compile_time() {
    must_compile(
        STEM,
        "select_bucket_index in a const",
        "const _: () = assert!(select_bucket_index(100) == 3);
         const _: () = assert!(select_bucket_index(16) == 0);
         const _: () = assert!(select_bucket_index(17) == 1);
         const _: () = assert!(select_bucket_index(1 << 30) == 26);",
    );
}

#[test]
fn step3_the_const_rent_gives_the_buckets_buffer() {
    let mut pool = Pool::new();
    for (got, want) in [
        (pool.rent_const::<1>().len(), 16),
        (pool.rent_const::<16>().len(), 16),
        (pool.rent_const::<17>().len(), 32),
        (pool.rent_const::<100>().len(), 128),
        (pool.rent_const::<1_025>().len(), 2_048),
    ] {
        assert_eq!(got, want, "the length of a const rent");
    }
    let line = pool.rent_const::<100>();
    let address = line.as_ptr();
    pool.give_back(line);
    let again = pool.rent_const::<128>();
    assert_eq!(
        again.as_ptr(),
        address,
        "a const rent of the same bucket reuses the buffer given back"
    );
    let from_runtime = pool.rent(100).unwrap();
    let address = from_runtime.as_ptr();
    pool.give_back(from_runtime);
    let shared = pool.rent_const::<120>();
    assert_eq!(
        shared.as_ptr(),
        address,
        "the const and the run-time rent share the bucket"
    );
}

#[test]
fn step4_a_const_rent_of_zero_does_not_compile() {
    must_not_compile(
        STEM,
        "rent_const::<0>()",
        RENT_100,
        "pub fn misuse(pool: &mut Pool) -> usize { pool.rent_const::<0>().len() }",
        &["E0080"],
    );
}

#[test]
fn step5_a_const_rent_over_the_largest_bucket_does_not_compile() {
    must_not_compile(
        STEM,
        "rent_const::<{ (1 << 30) + 1 }>()",
        RENT_100,
        "pub fn misuse(pool: &mut Pool) -> usize { pool.rent_const::<{ (1 << 30) + 1 }>().len() }",
        &["E0080"],
    );
}

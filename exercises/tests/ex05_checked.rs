//! Grades exercise 5 (`src/ex05_checked.rs`): .NET's hazards reproduced unchecked, and reported
//! as errors in checked mode.

mod support;

#[cfg_attr(not(feature = "solutions"), path = "../src/ex05_checked.rs")]
#[cfg_attr(feature = "solutions", path = "../solutions/ex05_checked.rs")]
#[allow(
    dead_code,
    reason = "a skeleton's given items may be unused until it is done"
)]
mod ex;

use ex::{Handle, HandlePool, ReturnError};

const UNCHECKED: bool = false;
const CHECKED: bool = true;

#[test]
fn step1_rent_gives_a_bucket_length_and_reuses_it() {
    for checked in [UNCHECKED, CHECKED] {
        let pool = HandlePool::new(checked);
        let line = pool.rent(100);
        assert_eq!(
            line.len(),
            128,
            "the length of rent(100) (checked: {checked})"
        );
        assert_eq!(
            pool.give_back(&line),
            Ok(()),
            "the first return (checked: {checked})"
        );
        let again = pool.rent(100);
        assert!(
            again.same_buffer(&line),
            "the next rent reuses it (checked: {checked})"
        );
        assert_eq!(
            pool.give_back(&again),
            Ok(()),
            "a re-rented buffer's return"
        );
    }
}

#[test]
fn step2_unchecked_a_double_return_gives_two_renters_one_buffer() {
    let pool = HandlePool::new(UNCHECKED);
    let line = pool.rent(100);
    assert_eq!(pool.give_back(&line), Ok(()), "the first return");
    assert_eq!(
        pool.give_back(&line),
        Ok(()),
        "the second return: .NET accepts it"
    );
    let a = pool.rent(100);
    let b = pool.rent(100);
    assert!(
        a.same_buffer(&b),
        "two renters after a double return share one buffer"
    );
}

#[test]
fn step3_checked_a_double_return_is_an_error() {
    let pool = HandlePool::new(CHECKED);
    let line = pool.rent(100);
    assert_eq!(pool.give_back(&line), Ok(()), "the first return");
    assert_eq!(
        pool.give_back(&line),
        Err(ReturnError::Double),
        "the second return"
    );
    let a = pool.rent(100);
    let b = pool.rent(100);
    assert!(
        !a.same_buffer(&b),
        "after a refused double return, two renters get two buffers"
    );
}

#[test]
fn step4_a_foreign_buffer_of_a_bucket_length() {
    let stranger = Handle::from_vec(vec![0; 128]);
    assert_eq!(
        HandlePool::new(UNCHECKED).give_back(&stranger),
        Ok(()),
        "unchecked: a 128-byte buffer the pool never saw is accepted, as in .NET"
    );
    let checked = HandlePool::new(CHECKED);
    assert_eq!(
        checked.give_back(&Handle::from_vec(vec![0; 128])),
        Err(ReturnError::Foreign),
        "checked: a buffer the pool never handed out"
    );
    let other = HandlePool::new(CHECKED);
    let theirs = other.rent(100);
    assert_eq!(
        checked.give_back(&theirs),
        Err(ReturnError::Foreign),
        "checked: a buffer another pool handed out"
    );
}

#[test]
fn step5_a_wrong_length_is_refused_in_both_modes() {
    for checked in [UNCHECKED, CHECKED] {
        let pool = HandlePool::new(checked);
        for len in [0, 8, 100, 129] {
            assert_eq!(
                pool.give_back(&Handle::from_vec(vec![0; len])),
                Err(ReturnError::WrongLength { len }),
                "returning a {len}-byte buffer (checked: {checked})"
            );
        }
    }
}

//! Grades exercise 4 (`src/ex04_guard.rs`): the guard's behaviour at run time, and the misuses
//! that must not compile (each program compiled against the graded file; the same use without
//! the mistake must compile, so the error is the intended one).

mod support;

#[cfg_attr(not(feature = "solutions"), path = "../src/ex04_guard.rs")]
#[cfg_attr(feature = "solutions", path = "../solutions/ex04_guard.rs")]
#[allow(
    dead_code,
    reason = "a skeleton's given items may be unused until it is done"
)]
mod ex;

use ex::Pool;
use support::must_not_compile;

const STEM: &str = "ex04_guard";

/// The correct use the compile checks start from.
const RENT_WRITE_RETURN: &str = "
pub fn correct(pool: &Pool) -> u8 {
    let mut line = pool.rent(100);
    line[0] = 42;
    let first = line[0];
    line.give_back();
    first
}";

#[test]
fn step1_the_guard_derefs_to_the_requested_length() {
    let pool = Pool::new();
    let mut line = pool.rent(100);
    assert_eq!(line.len(), 100, "the guard's length: the request's");
    assert_eq!(line.capacity(), 128, "the guard's capacity: the bucket's");
    line[99] = 7;
    line.copy_from_slice(&[1; 100]);
    assert!(
        line.iter().all(|&b| b == 1),
        "writes through the guard are read back"
    );
}

#[test]
fn step2_dropping_the_guard_returns_the_buffer() {
    let pool = Pool::new();
    let address = {
        let line = pool.rent(100);
        assert_eq!(pool.kept(), 0, "buffers kept while the guard is held");
        line.as_ptr()
    };
    assert_eq!(pool.kept(), 1, "buffers kept after the guard is dropped");
    let again = pool.rent(120);
    assert_eq!(
        again.as_ptr(),
        address,
        "the next rent of that bucket reuses the buffer"
    );
    assert_eq!(
        again.len(),
        120,
        "the reused buffer's length: the new request's"
    );
    assert_eq!(pool.kept(), 0, "buffers kept while it is rented again");
}

#[test]
fn step3_give_back_returns_once() {
    let pool = Pool::new();
    let line = pool.rent(10);
    line.give_back();
    assert_eq!(
        pool.kept(),
        1,
        "buffers kept after give_back (and the drop after it)"
    );
}

#[test]
fn step4_early_exits_and_panics_return_the_buffer() {
    let pool = Pool::new();
    let parse = |pool: &Pool, text: &str| -> Result<usize, std::num::ParseIntError> {
        let mut scratch = pool.rent(text.len());
        scratch.copy_from_slice(text.as_bytes());
        let n: usize = text.parse()?; // returns early on bad input: the guard still goes back
        Ok(n)
    };
    assert!(parse(&pool, "12x").is_err());
    assert_eq!(
        pool.kept(),
        1,
        "buffers kept after an early return through `?`"
    );

    let line = pool.rent(10);
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
        let _line = line;
        panic!("a renter panicked while holding the guard");
    }));
    assert!(result.is_err());
    assert_eq!(
        pool.kept(),
        1,
        "buffers kept after a panic while the guard was held"
    );
}

#[test]
fn step5_a_use_after_return_does_not_compile() {
    must_not_compile(
        STEM,
        "writing through the guard after give_back",
        RENT_WRITE_RETURN,
        "pub fn misuse(pool: &Pool) {
            let mut line = pool.rent(100);
            line.give_back();
            line[0] = 42;
        }",
        &["E0382"],
    );
}

#[test]
fn step6_a_double_return_does_not_compile() {
    must_not_compile(
        STEM,
        "calling give_back twice",
        RENT_WRITE_RETURN,
        "pub fn misuse(pool: &Pool) {
            let line = pool.rent(100);
            line.give_back();
            line.give_back();
        }",
        &["E0382"],
    );
}

#[test]
fn step7_a_slice_cannot_outlive_the_return() {
    must_not_compile(
        STEM,
        "keeping a slice of the buffer across give_back",
        RENT_WRITE_RETURN,
        "pub fn misuse(pool: &Pool) -> u8 {
            let line = pool.rent(100);
            let bytes: &[u8] = &line;
            line.give_back();
            bytes[0]
        }",
        &["E0505"],
    );
}

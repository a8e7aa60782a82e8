//! Grades exercise 3 (`src/ex03_stale_data.rs`): the chapter's two order lines in one 64-byte
//! buffer, returned with and without clearing.

mod support;

#[cfg_attr(not(feature = "solutions"), path = "../src/ex03_stale_data.rs")]
#[cfg_attr(feature = "solutions", path = "../solutions/ex03_stale_data.rs")]
#[allow(
    dead_code,
    reason = "a skeleton's given items may be unused until it is done"
)]
mod ex;

use ex::{Clear, clear_on_return, leaked, leftover};

/// The first renter's order line: 41 UTF-8 bytes.
const FIRST: &str = "1042|ต้มยำกุ้ง|2|18000\n";
/// The second renter's: 25 bytes.
const SECOND: &str = "7|ส้มตำ|1|6000\n";

/// A 64-byte bucket buffer holding the first renter's line.
fn after_first_renter() -> Vec<u8> {
    let mut buffer = vec![0u8; 64];
    buffer[..FIRST.len()].copy_from_slice(FIRST.as_bytes());
    buffer
}

#[test]
fn step1_without_clearing_the_next_renter_sees_every_byte() {
    assert_eq!((FIRST.len(), SECOND.len()), (41, 25));
    let mut buffer = after_first_renter();
    assert_eq!(
        clear_on_return(&mut buffer, 41, Clear::Keep),
        0,
        "bytes zeroed by Keep"
    );
    assert_eq!(leftover(&buffer), 41, "non-zero bytes the next renter sees");
}

#[test]
fn step2_reading_past_what_you_wrote_leaks_the_previous_tail() {
    let mut buffer = after_first_renter();
    clear_on_return(&mut buffer, 41, Clear::Keep);
    buffer[..SECOND.len()].copy_from_slice(SECOND.as_bytes());
    assert_eq!(
        leaked(&buffer, SECOND.len(), 41),
        &FIRST.as_bytes()[25..41],
        "the 16 bytes after the second line are the first line's tail"
    );
    assert_eq!(
        leaked(&buffer, 25, 25),
        b"",
        "reading only what you wrote leaks nothing"
    );
    assert_eq!(
        leaked(&buffer, 25, 10),
        b"",
        "reading less than you wrote leaks nothing"
    );
    assert_eq!(
        leaked(&buffer, 60, 100).len(),
        4,
        "reading past the end stops at the end"
    );
}

#[test]
fn step3_clearing_the_whole_buffer_costs_its_length() {
    let mut buffer = after_first_renter();
    assert_eq!(
        clear_on_return(&mut buffer, 41, Clear::Whole),
        64,
        "bytes zeroed by Whole: the bucket's length, not the 41 written"
    );
    assert_eq!(leftover(&buffer), 0, "non-zero bytes after clearing");
}

#[test]
fn step4_clearing_what_you_wrote_trusts_your_count() {
    let mut buffer = after_first_renter();
    assert_eq!(
        clear_on_return(&mut buffer, 41, Clear::Written),
        41,
        "bytes zeroed"
    );
    assert_eq!(
        leftover(&buffer),
        0,
        "non-zero bytes after clearing the 41 written"
    );

    let mut buffer = after_first_renter();
    clear_on_return(&mut buffer, 25, Clear::Written);
    assert_eq!(
        leftover(&buffer),
        16,
        "a renter that says 25 when it wrote 41 leaves 16 bytes behind"
    );

    let mut buffer = after_first_renter();
    assert_eq!(
        clear_on_return(&mut buffer, 1_000, Clear::Written),
        64,
        "a count over the buffer's length clears the buffer, no more"
    );
}

//! Chapter 3 (stale data): allocating without zeroing. .NET's `GC.AllocateUninitializedArray`
//! skips the zeroing that `new byte[n]` does; Rust's counterpart is `Vec::with_capacity(n)`,
//! written through `spare_capacity_mut()` before `set_len`, against `vec![0u8; n]` (which asks
//! the allocator for zeroed memory: glibc's `calloc`).
//!
//! Two comparisons per size, in one paired group ([`crate::paired`]): the allocation alone (what
//! skipping the zeroing saves when nothing is written yet) and allocation + a full write (what a
//! program that fills the buffer anyway saves — the Russian article's point: the write evens out
//! the three ways it compared). Each ratio is uninitialized ÷ zeroed: below 1, skipping the zeroing
//! took less time.

use std::mem::MaybeUninit;

use anyhow::Result;

use crate::measure::Session;
use crate::paired::Group;

/// 1 KiB, 16 KiB, the article's 81,920 B and 1 MiB.
pub const SIZES: &[usize] = &[1024, 16_384, 81_920, 1_048_576];
pub const STEPS: usize = SIZES.len();

const BYTE: u8 = 0xA5;

/// A `Vec<u8>` of length `n` whose bytes were written once, never zeroed first.
fn uninit_filled(n: usize) -> Vec<u8> {
    let mut v = Vec::<u8>::with_capacity(n);
    v.spare_capacity_mut()[..n].fill(MaybeUninit::new(BYTE));
    // SAFETY: the capacity is at least `n` and the line above initialized its first `n` bytes.
    unsafe { v.set_len(n) };
    v
}

pub fn run(s: &mut Session) -> Result<()> {
    for &n in SIZES {
        let key = |v: &str| format!("uninit.{n}.{v}");
        let mut g = Group::new(format!("uninit.{n}"));
        g.time(
            &key("zeroed"),
            &format!("vec![0u8; {n}] + drop (zeroed allocation, calloc)"),
            || vec![0u8; n],
        );
        g.time(
            &key("uninit"),
            &format!("Vec::with_capacity({n}) + drop (no zeroing, nothing written)"),
            || Vec::<u8>::with_capacity(n),
        );
        g.time(
            &key("zeroed_write"),
            &format!("vec![0u8; {n}] + fill {n} B + drop"),
            || {
                let mut v = vec![0u8; n];
                v.fill(BYTE);
                v
            },
        );
        g.time(
            &key("uninit_write"),
            &format!("Vec::with_capacity({n}) + fill through spare_capacity_mut + set_len + drop"),
            || uninit_filled(n),
        );
        s.compare(g)?;
        s.ratio_of(
            &key("uninit_vs_zeroed"),
            &format!("with_capacity ÷ vec![0; n], allocation only, {n} B"),
            &key("uninit"),
            &key("zeroed"),
        );
        s.ratio_of(
            &key("uninit_write_vs_zeroed_write"),
            &format!("with_capacity + write ÷ vec![0; n] + write, {n} B"),
            &key("uninit_write"),
            &key("zeroed_write"),
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_uninitialized_vec_holds_exactly_the_written_bytes() {
        for &n in SIZES {
            let v = uninit_filled(n);
            assert_eq!(v.len(), n);
            assert!(
                v.iter().all(|&b| b == BYTE),
                "{n} B: a byte was not written"
            );
        }
    }
}

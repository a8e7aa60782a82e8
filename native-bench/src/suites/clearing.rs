//! Chapter 3: what clearing on return costs, by size (the article: 1.56× at 1 KiB … 3,002× at 1 MiB).

use anyhow::Result;
use wasm_lab::pool::SharedPool;

use crate::measure::Session;

pub const SIZES: &[usize] = &[16, 1024, 16_384, 81_920, 1_048_576];
pub const STEPS: usize = 2 * SIZES.len();

pub fn run(s: &mut Session) -> Result<()> {
    let pool = SharedPool::<u8>::new();
    for &n in SIZES {
        let plain = s.time(
            &format!("clearing.{n}.uncleared"),
            &format!("rent + return of {n} B, not cleared (ownership API)"),
            || drop(pool.rent(n)),
        )?;
        let cleared = s.time(
            &format!("clearing.{n}.cleared"),
            &format!("rent + return of {n} B, cleared on return (whole bucket buffer)"),
            || {
                if let Ok(b) = pool.rent(n) {
                    b.return_cleared();
                }
            },
        )?;
        s.ratio(
            &format!("clearing.{n}.cleared_vs_uncleared"),
            &format!("return with clear ÷ without, {n} B"),
            cleared,
            plain,
        );
    }
    Ok(())
}

//! Chapter 3: what clearing on return costs, by size (the article: 1.56× at 1 KiB … 3,002× at 1 MiB).

use anyhow::Result;
use bufpool::pool::SharedPool;

use crate::measure::Session;
use crate::paired::Group;

pub const SIZES: &[usize] = &[16, 1024, 16_384, 81_920, 1_048_576];
pub const STEPS: usize = SIZES.len();

pub fn run(s: &mut Session) -> Result<()> {
    let pool = SharedPool::<u8>::new();
    for &n in SIZES {
        let key = |v: &str| format!("clearing.{n}.{v}");
        let mut g = Group::new(format!("clearing.{n}"));
        g.time(
            &key("uncleared"),
            &format!("rent + return of {n} B, not cleared (ownership API)"),
            || drop(pool.rent(n)),
        );
        g.time(
            &key("cleared"),
            &format!("rent + return of {n} B, cleared on return (whole bucket buffer)"),
            || {
                if let Ok(b) = pool.rent(n) {
                    b.return_cleared();
                }
            },
        );
        s.compare(g)?;
        s.ratio_of(
            &key("cleared_vs_uncleared"),
            &format!("return with clear ÷ without, {n} B"),
            &key("cleared"),
            &key("uncleared"),
        );
    }
    Ok(())
}

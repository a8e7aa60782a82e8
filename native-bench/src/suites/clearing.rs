//! Chapter 3: what clearing on return costs, by size (the article: 1.56× at 1 KiB … 3,002× at 1 MiB).

use anyhow::Result;
use bufpool::pool::SharedPool;

use crate::measure::Session;

pub const SIZES: &[usize] = &[16, 1024, 16_384, 81_920, 1_048_576];
pub const STEPS: usize = SIZES.len();

pub fn run(s: &mut Session) -> Result<()> {
    let pool = SharedPool::<u8>::new();
    for &n in SIZES {
        // The group is wasm-bench's, so both runtimes time the same operations.
        let (g, ratios) = wasm_bench::groups::clearing_group(&pool, n, bench_paired::system_clock);
        s.compare(g)?;
        for (key, title, numerator, denominator) in ratios {
            s.ratio_of(&key, &title, &numerator, &denominator);
        }
    }
    Ok(())
}

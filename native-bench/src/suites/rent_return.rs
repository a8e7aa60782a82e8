//! Rent+return through the pool against allocating a fresh buffer of the same size.

use anyhow::Result;
use wasm_lab::pool::SharedPool;

use crate::measure::Session;

pub fn run(s: &mut Session) -> Result<()> {
    let size = 4096;
    let pool = SharedPool::<u8>::new();
    let pooled = s.time(
        &format!("rent_return.{size}.pool"),
        &format!("rent + return of {size} B through the shared pool (ownership API)"),
        || drop(pool.rent(size)),
    )?;
    let fresh = s.time(
        &format!("rent_return.{size}.fresh_vec"),
        &format!("allocate and drop a zeroed Vec<u8> of {size} B"),
        || vec![0u8; size],
    )?;
    s.ratio(
        &format!("rent_return.{size}.pool_vs_fresh_vec"),
        &format!("pool rent+return ÷ fresh Vec, {size} B"),
        pooled,
        fresh,
    );
    Ok(())
}

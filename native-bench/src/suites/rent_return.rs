//! Rent+return through every pool API against a fresh allocation and against the lower bound
//! (a ready buffer): the article's claim that renting stays at the lower bound (0.985–1.035).
//!
//! All variants of one size take turns in one paired group ([`crate::paired`]), so each ratio
//! compares batches measured a millisecond apart. "Write" means filling the requested length, so
//! every variant touches the same bytes.

use anyhow::Result;
use bufpool::pool::{ConfigurablePool, SharedPool};
use course_pool::handle::HandlePool;

use super::SIZES;
use crate::floor::Floor;
use crate::measure::Session;
use crate::paired::Group;

/// One paired group of all variants per size.
pub const STEPS: usize = SIZES.len();

const BYTE: u8 = 0xA5;

pub fn run(s: &mut Session) -> Result<()> {
    let pool = SharedPool::<u8>::new();
    let handles = HandlePool::<u8>::new();
    let checked = HandlePool::<u8>::new().with_checked(true);
    let configurable = ConfigurablePool::<u8>::new();
    let floor = Floor::<false, false>::new();
    let floor_instances = Floor::<true, false>::new();
    let floor_instances_trim = Floor::<true, true>::new();
    for &n in SIZES {
        let key = |v: &str| format!("rent_return.{n}.{v}");
        let mut g = Group::new(format!("rent_return.{n}"));
        g.time(
            &key("pool"),
            &format!("rent + return of {n} B through the shared pool (ownership API)"),
            || drop(pool.rent(n)),
        );
        // The floor's loop is short enough that its timing depends on where the linker puts it:
        // the same floor code ran at 0.79 ns in some builds and 0.88-0.91 ns in others (quick
        // runs, AMD EPYC 2 cores), which moves `pool_vs_floor` by ~12 % with no change in either
        // loop's instructions. Compare that ratio across builds with this in mind.
        g.time(
            &key("floor"),
            &format!("rent + return of {n} B through the floor: one thread-local slot per bucket, nothing else"),
            || drop(floor.rent(n)),
        );
        g.time(
            &key("floor_instances"),
            &format!("the floor plus the check that this thread's slots belong to this pool instance, {n} B"),
            || drop(floor_instances.rent(n)),
        );
        g.time(
            &key("floor_instances_trim"),
            &format!(
                "the floor plus the instance check and the trimming stamp reset on return, {n} B"
            ),
            || drop(floor_instances_trim.rent(n)),
        );
        g.time(
            &key("pool_write"),
            &format!("rent + fill {n} B + return (ownership API)"),
            || {
                if let Ok(mut b) = pool.try_rent(n) {
                    b.fill(BYTE);
                    std::hint::black_box(&*b);
                }
            },
        );
        g.time(
            &key("handle"),
            &format!("rent + return of {n} B through the handle API (unchecked, .NET rules)"),
            || {
                if let Ok(h) = handles.rent(n) {
                    let _ = handles.return_handle(&h, false);
                }
            },
        );
        g.time(
            &key("handle_checked"),
            &format!("rent + return of {n} B through the handle API in checked mode"),
            || {
                if let Ok(h) = checked.rent(n) {
                    let _ = checked.return_handle(&h, false);
                }
            },
        );
        g.time(
            &key("configurable"),
            &format!("rent + return of {n} B through the configurable pool (ArrayPool.Create)"),
            || drop(configurable.rent(n)),
        );
        g.time(
            &key("fresh_vec"),
            &format!("allocate and drop a zeroed Vec<u8> of {n} B"),
            || vec![0u8; n],
        );
        g.time(
            &key("fresh_vec_write"),
            &format!("allocate a zeroed Vec<u8> of {n} B, fill it, drop it"),
            || {
                let mut v = vec![0u8; n];
                v.fill(BYTE);
                v
            },
        );
        let mut ready = vec![0u8; n];
        g.time(
            &key("lower_bound"),
            &format!("fill a ready {n}-byte buffer (the lower bound: no rent, no allocation)"),
            move || {
                ready.fill(BYTE);
                std::hint::black_box(&ready);
            },
        );
        s.compare(g)?;
        s.ratio_of(
            &key("pool_write_vs_lower_bound"),
            &format!("rent + fill + return ÷ fill of a ready buffer, {n} B"),
            &key("pool_write"),
            &key("lower_bound"),
        );
        s.ratio_of(
            &key("pool_vs_floor"),
            &format!("pool rent+return ÷ the floor's, {n} B"),
            &key("pool"),
            &key("floor"),
        );
        s.ratio_of(
            &key("floor_instances_vs_floor"),
            &format!(
                "what several pool instances cost: floor with the instance check ÷ floor, {n} B"
            ),
            &key("floor_instances"),
            &key("floor"),
        );
        s.ratio_of(
            &key("floor_instances_trim_vs_floor"),
            &format!("what instances and trimming cost: floor with both ÷ floor, {n} B"),
            &key("floor_instances_trim"),
            &key("floor"),
        );
        s.ratio_of(
            &key("pool_vs_floor_instances_trim"),
            &format!(
                "the rest of the gap: pool ÷ floor with instance check and trimming stamp, {n} B"
            ),
            &key("pool"),
            &key("floor_instances_trim"),
        );
        s.ratio_of(
            &key("pool_vs_fresh_vec"),
            &format!("pool rent+return ÷ fresh Vec, {n} B"),
            &key("pool"),
            &key("fresh_vec"),
        );
        s.ratio_of(
            &key("pool_write_vs_fresh_vec_write"),
            &format!("pool rent + fill + return ÷ fresh Vec + fill, {n} B"),
            &key("pool_write"),
            &key("fresh_vec_write"),
        );
        s.ratio_of(
            &key("handle_vs_pool"),
            &format!("handle API ÷ ownership API, rent+return of {n} B"),
            &key("handle"),
            &key("pool"),
        );
        s.ratio_of(
            &key("handle_checked_vs_handle"),
            &format!("checked mode ÷ unchecked handle API, rent+return of {n} B"),
            &key("handle_checked"),
            &key("handle"),
        );
    }
    Ok(())
}

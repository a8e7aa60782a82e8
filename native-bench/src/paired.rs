//! Paired measurement ([`bench_paired`], shared with the browser's bench) and the window
//! callgrind counts one member's iterations in.

pub use bench_paired::{Group, Plan, measure};

/// The function callgrind counts (`--toggle-collect`): one call of a routine, `iters` iterations.
/// Not inlined and not mangled, so its name is stable.
#[inline(never)]
#[unsafe(no_mangle)]
pub fn native_bench_icount_window(
    member: &mut bench_paired::Member<'_>,
    iters: u64,
) -> std::time::Duration {
    member.run(iters)
}

/// Runs member `key` of `group` once to warm up, then `iters` iterations inside
/// [`native_bench_icount_window`]; false when the group has no such member.
pub fn count_window(group: &mut Group<'_>, key: &str, iters: u64) -> bool {
    let Some(m) = group.members.iter_mut().find(|m| m.key == key) else {
        return false;
    };
    m.run((iters / 10).max(1));
    std::hint::black_box(native_bench_icount_window(m, iters));
    true
}

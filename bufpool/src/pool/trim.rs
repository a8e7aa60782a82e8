//! Trimming: how kept buffers are dropped over time, following .NET's `SharedArrayPool.Trim`.
//!
//! .NET runs `Trim` after every full (gen2) garbage collection and measures time with
//! `Environment.TickCount`. Rust has no GC, so here trimming is an explicit call that takes the
//! pressure level and the current time; a caller (a test, a simulation) can replay "60 seconds later" instantly.
//!
//! The rules (see `SharedArrayPool.cs`):
//! - A partition that holds buffers is only time-stamped by the first trim that sees it. A later
//!   trim more than 60 s after that stamp (10 s under [`MemoryPressure::High`]) drops 1 (Low),
//!   2 (Medium) or all (High) of its buffers; if some remain, the stamp moves forward by a quarter
//!   of the period. A partition that goes from empty to non-empty loses its stamp.
//! - Thread slots are emptied at once under High pressure. Otherwise a slot's buffer is stamped by
//!   the first trim that sees it and dropped by a trim at least 30 s (Low) / 15 s (Medium) later.
//!   A return into the slot clears its stamp.
//!
//! Differences from .NET: .NET uses the stamp value 0 to mean "not seen yet" (a trim at tick 0
//! needs one more call); here "not seen" is a separate state. Time that goes backwards counts as
//! no time (.NET's tick counter wraps instead).

use std::time::Duration;

/// How hard the memory pressure is, as .NET's `Utilities.GetMemoryPressure` classifies it.
///
/// Exhaustive on purpose: these are .NET's three levels, which the trimming rules are written
/// against; a fourth would change the rules, not only add a case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum MemoryPressure {
    /// Below 70 % of the high-load threshold.
    Low,
    /// At least 70 % of the high-load threshold.
    Medium,
    /// At least 90 % of the high-load threshold.
    High,
}

impl MemoryPressure {
    /// Classifies a memory load against the GC's high-load threshold (same unit for both).
    ///
    /// ```
    /// use bufpool::pool::MemoryPressure;
    /// assert_eq!(MemoryPressure::from_load(95, 100), MemoryPressure::High);
    /// assert_eq!(MemoryPressure::from_load(70, 100), MemoryPressure::Medium);
    /// assert_eq!(MemoryPressure::from_load(69, 100), MemoryPressure::Low);
    /// ```
    pub fn from_load(memory_load: u64, high_load_threshold: u64) -> Self {
        // load >= threshold × 0.9, in integers without overflow.
        let load = u128::from(memory_load) * 100;
        let threshold = u128::from(high_load_threshold);
        if load >= threshold * 90 {
            MemoryPressure::High
        } else if load >= threshold * 70 {
            MemoryPressure::Medium
        } else {
            MemoryPressure::Low
        }
    }

    /// How long a partition must hold buffers (after its first trim) before a trim drops some.
    pub fn partition_period(self) -> Duration {
        match self {
            MemoryPressure::High => Duration::from_secs(10),
            _ => Duration::from_secs(60),
        }
    }

    /// How many buffers one partition trim drops (`usize::MAX`: all of them).
    pub fn partition_drop_count(self) -> usize {
        match self {
            MemoryPressure::Low => 1,
            MemoryPressure::Medium => 2,
            MemoryPressure::High => usize::MAX,
        }
    }

    /// How long a thread slot's buffer must have been seen before a trim drops it
    /// (`None`: dropped at once).
    pub fn slot_period(self) -> Option<Duration> {
        match self {
            MemoryPressure::Low => Some(Duration::from_secs(30)),
            MemoryPressure::Medium => Some(Duration::from_secs(15)),
            MemoryPressure::High => None,
        }
    }
}

/// Milliseconds of a clock reading, saturating.
pub fn millis(now: Duration) -> u64 {
    u64::try_from(now.as_millis()).unwrap_or(u64::MAX)
}

/// One partition's trim decision. `stamp` is the partition's time stamp, `count` how many
/// buffers it holds; returns how many to drop from the top of its stack.
pub(crate) fn partition_trim(
    stamp: &mut Option<u64>,
    count: usize,
    pressure: MemoryPressure,
    now_ms: u64,
) -> usize {
    if count == 0 {
        return 0;
    }
    let Some(seen) = *stamp else {
        *stamp = Some(now_ms);
        return 0;
    };
    let period = millis(pressure.partition_period());
    if now_ms.saturating_sub(seen) <= period {
        return 0;
    }
    let drop = pressure.partition_drop_count().min(count);
    *stamp = if drop < count {
        Some(seen.saturating_add(period / 4))
    } else {
        None
    };
    drop
}

/// One thread slot's trim decision: `true` to drop the slot's buffer.
pub(crate) fn slot_trim(stamp: &mut Option<u64>, pressure: MemoryPressure, now_ms: u64) -> bool {
    let Some(period) = pressure.slot_period() else {
        return true;
    };
    match *stamp {
        None => {
            *stamp = Some(now_ms);
            false
        }
        Some(seen) => now_ms.saturating_sub(seen) >= millis(period),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partition_is_stamped_then_trimmed_after_sixty_seconds() {
        let mut stamp = None;
        assert_eq!(partition_trim(&mut stamp, 5, MemoryPressure::Low, 1_000), 0);
        assert_eq!(stamp, Some(1_000));
        assert_eq!(
            partition_trim(&mut stamp, 5, MemoryPressure::Low, 61_000),
            0
        );
        assert_eq!(
            partition_trim(&mut stamp, 5, MemoryPressure::Low, 61_001),
            1
        );
        assert_eq!(stamp, Some(16_000));
        assert_eq!(
            partition_trim(&mut stamp, 4, MemoryPressure::Medium, 76_001),
            2
        );
        assert_eq!(
            partition_trim(&mut stamp, 2, MemoryPressure::High, 200_000),
            2
        );
        assert_eq!(stamp, None);
    }

    #[test]
    fn slots_go_at_once_under_high_pressure() {
        let mut stamp = None;
        assert!(!slot_trim(&mut stamp, MemoryPressure::Low, 0));
        assert!(!slot_trim(&mut stamp, MemoryPressure::Low, 29_999));
        assert!(slot_trim(&mut stamp, MemoryPressure::Low, 30_000));
        assert!(slot_trim(&mut None, MemoryPressure::High, 0));
        let mut seen = Some(0);
        assert!(slot_trim(&mut seen, MemoryPressure::Medium, 15_000));
    }
}

//! Checked mode (beyond .NET): leases with generation counters.
//!
//! Each buffer of a checked pool counts its leases. A rent starts lease `g + 1` and stamps it on
//! the handle; a return ends the lease only if the handle's stamp is the current lease and it is
//! still running. A handle from an earlier lease is therefore detected on use
//! ([`PoolError::UseAfterReturn`]) and on return ([`PoolError::DoubleReturn`]).
//!
//! Cost when off: one `bool` test per access and no atomic operation at all.

use bufpool::pool::PoolError;
use std::sync::atomic::{AtomicU64, Ordering};

/// Lease state of one buffer: the current generation, odd while lent (`2g + 1`), even while in
/// the pool.
pub(crate) struct Lease {
    checked: bool,
    state: AtomicU64,
}

impl Lease {
    pub(crate) fn new(checked: bool) -> Self {
        Self {
            checked,
            state: AtomicU64::new(0),
        }
    }

    /// Starts a lease; returns the ticket to stamp on the handle (0 when unchecked).
    pub(crate) fn begin(&self) -> u64 {
        if !self.checked {
            return 0;
        }
        // even (in the pool) → next odd (lent)
        self.state.fetch_add(1, Ordering::AcqRel) + 1
    }

    /// Ends the lease `ticket`, or explains why it cannot.
    pub(crate) fn end(&self, ticket: u64, buffer: u64) -> Result<(), PoolError> {
        if !self.checked {
            return Ok(());
        }
        // Only an odd ticket names a lease; 0 means "never lent under checking".
        let ended = ticket % 2 == 1
            && self
                .state
                .compare_exchange(ticket, ticket + 1, Ordering::AcqRel, Ordering::Acquire)
                .is_ok();
        if ended {
            Ok(())
        } else {
            Err(PoolError::DoubleReturn { buffer })
        }
    }

    /// Whether a handle with `ticket` may still touch the buffer.
    #[inline]
    pub(crate) fn check_use(&self, ticket: u64, buffer: u64) -> Result<(), PoolError> {
        if !self.checked || self.state.load(Ordering::Acquire) == ticket {
            Ok(())
        } else {
            Err(PoolError::UseAfterReturn { buffer })
        }
    }
}

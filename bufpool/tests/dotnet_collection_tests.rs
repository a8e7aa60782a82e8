//! .NET's own `ArrayPool<T>` trimming tests, translated: `CollectionTests.cs` of dotnet/runtime
//! (`src/libraries/System.Runtime/tests/System.Buffers.Tests/ArrayPool/CollectionTests.cs`).
//!
//! .NET trims the shared pool from a callback after each full (gen2) garbage collection and reads
//! the time from `Environment.TickCount`; the tests force collections, sleep 61 seconds and push
//! memory pressure up. Here trimming is an explicit call with the pressure and the time
//! ([`SharedPool::trim`]), so "a gen2 GC" is a `trim` at the current time, "wait a minute" is a
//! later time given to the next `trim`, and "high memory pressure" is [`MemoryPressure::High`]. A
//! test run by `RemoteExecutor` in a fresh process gets a fresh pool ([`SharedPool::new`]). A "new
//! buffer" is a new allocation in the pool's statistics: after a trim has freed a buffer, a new
//! one may sit at the old address, so addresses cannot tell. (The same tests with .NET's reference
//! identity, through handles: `course-pool/tests/dotnet_handle_tests.rs`.)
//!
//! # Counts (4 .NET tests)
//!
//! **Translated: 0.**
//!
//! **Adapted: 3** — `BuffersAreCollectedWhenStale`, `ThreadLocalIsCollectedUnderHighPressure`
//! (a `[ConditionalFact]` of .NET's stress mode: it allocates native memory until
//! `GetMemoryPressure`, read by reflection, says high), `ThreadLocalIsCollectedUnderNormalPressure`:
//! explicit trims with a clock instead of forced collections, sleeps and real memory pressure.
//!
//! **Not applicable: 1** — `PollingEventFires` (`[ActiveIssue]`, disabled in .NET too): it
//! listens for the `BufferTrimPoll` event of `ArrayPoolEventSource`, which has no counterpart;
//! and trimming here is never polled, so "not hooked up until the first return" has no meaning.

use bufpool::pool::{MemoryPressure, SharedPool};
use std::collections::HashSet;
use std::time::Duration;

/// When the tests' first collection happens (any time will do).
const T0: Duration = Duration::from_secs(1_000);

/// "Thread.Sleep(61 * 1000)".
const A_LITTLE_OVER_A_MINUTE: Duration = Duration::from_secs(61);

/// `CollectionTests.cs`, `BuffersAreCollectedWhenStale`, adapted (see the module docs).
#[test]
fn buffers_are_collected_when_stale() {
    const BUFFER_COUNT: usize = 8;
    const BUFFER_SIZE: usize = 1025;
    let pool = SharedPool::<i32>::new();

    // Rent and return a set of buffers
    let rented_buffers: Vec<_> = (0..BUFFER_COUNT).map(|_| pool.rent(BUFFER_SIZE)).collect();
    let addresses: HashSet<_> = rented_buffers
        .iter()
        .map(|b| b.as_capacity().as_ptr())
        .collect();
    assert_eq!(addresses.len(), BUFFER_COUNT);
    drop(rented_buffers);

    // Rent what we returned and ensure they are the same
    let again: Vec<_> = (0..BUFFER_COUNT).map(|_| pool.rent(BUFFER_SIZE)).collect();
    for buffer in &again {
        assert!(addresses.contains(&buffer.as_capacity().as_ptr()));
    }
    drop(again);
    assert_eq!(pool.stats().allocated(), BUFFER_COUNT as u64);

    // Trigger a few Gen2 GCs to make sure the pool has appropriately time stamped buffers.
    for _ in 0..2 {
        pool.trim(MemoryPressure::Low, T0);
    }

    // Now wait a little over a minute and force a GC to get some buffers returned
    pool.trim(MemoryPressure::Low, T0 + A_LITTLE_OVER_A_MINUTE);
    let after: Vec<_> = (0..BUFFER_COUNT).map(|_| pool.rent(BUFFER_SIZE)).collect();
    let found_new_buffer = pool.stats().allocated() > BUFFER_COUNT as u64;
    assert!(found_new_buffer);
    drop(after);
}

/// `CollectionTests.cs`, `ThreadLocalIsCollectedUnderHighPressure`, adapted: one trim under high
/// pressure instead of filling memory until .NET reports it high.
#[test]
fn thread_local_is_collected_under_high_pressure() {
    // Create our buffer, return it, re-rent it and ensure we have the same one
    const BUFFER_SIZE: usize = 4097;
    let pool = SharedPool::<u8>::new();
    let buffer = pool.rent(BUFFER_SIZE);
    let at = buffer.as_capacity().as_ptr();
    drop(buffer);
    let buffer = pool.rent(BUFFER_SIZE);
    assert_eq!(buffer.as_capacity().as_ptr(), at);
    assert_eq!(pool.stats().allocated(), 1);

    // Return it and put memory pressure on to get it cleared
    drop(buffer);
    pool.trim(MemoryPressure::High, T0);

    // Should have a new buffer now
    let _new = pool.rent(BUFFER_SIZE);
    assert_eq!(pool.stats().allocated(), 2);
}

/// `CollectionTests.cs`, `ThreadLocalIsCollectedUnderNormalPressure`, adapted: two trims to stamp
/// the buffer, then one 61 seconds later.
#[test]
fn thread_local_is_collected_under_normal_pressure() {
    // Create our buffer, return it, re-rent it and ensure we have the same one
    const BUFFER_SIZE: usize = 4097;
    let pool = SharedPool::<u8>::new();
    let buffer = pool.rent(BUFFER_SIZE);
    let at = buffer.as_capacity().as_ptr();
    drop(buffer);
    let buffer = pool.rent(BUFFER_SIZE);
    assert_eq!(buffer.as_capacity().as_ptr(), at);

    // Return it and put memory pressure on to get it cleared
    drop(buffer);

    // Make sure buffer gets time stamped
    for _ in 0..2 {
        pool.trim(MemoryPressure::Low, T0);
    }
    assert_eq!(
        pool.stats().retained_buffers(),
        1,
        "stamped, not dropped yet"
    );

    // Now wait for enough time to pass and force a GC to get buffers dropped
    pool.trim(MemoryPressure::Low, T0 + A_LITTLE_OVER_A_MINUTE);

    // Should have a new buffer now
    let _new = pool.rent(BUFFER_SIZE);
    assert_eq!(pool.stats().allocated(), 2);
}

//! .NET's own `ArrayPool<T>` tests that rest on its by-value return contract, translated through
//! the handle API: from `UnitTests.cs` and `CollectionTests.cs` of dotnet/runtime
//! (`src/libraries/System.Runtime/tests/System.Buffers.Tests/ArrayPool/`).
//!
//! In C#, `Return(array)` leaves `array` in the caller's variable: the tests read an array after
//! returning it, compare arrays by reference (`Assert.Same`, `GetHashCode`, `ReferenceEquals`),
//! and return arrays the pool never handed out. The ownership API of `bufpool` rules the first out
//! and has no identity that outlives a buffer; a [`Handle`] is a C# array reference, so here these
//! tests run as .NET wrote them. `bufpool/tests/dotnet_unit_tests.rs` and
//! `bufpool/tests/dotnet_collection_tests.rs` hold every test of the two files through the
//! ownership API (adapted where they need what is here).
//!
//! Mapping: `ArrayPool<T>.Create(maxArrayLength, maxArraysPerBucket)` is
//! [`HandlePool::with_configurable`]; `ArrayPool<T>.Shared` is a fresh [`HandlePool::new`] over the
//! shared engine with the default settings (handle pools have no process-wide instance); an
//! array's identity is [`Handle::ptr_eq`] or [`Handle::id`] (ids are never reused, so they tell a
//! new buffer from a freed one); C#'s `string` (nullable) is `Option<String>`. Each test is named
//! after the .NET test (snake case) and says which one it is.
//!
//! # Counts (15 .NET tests that need the contract)
//!
//! **Translated: 11** (`UnitTests.cs`) — `Renting0LengthArrayReturnsSingleton`,
//! `CallingReturnWithoutClearingDoesNotClearTheBuffer`, `CallingReturnWithClearingDoesClearTheBuffer`,
//! `CallingReturnOnReferenceTypeArrayDoesNotClearTheArray`,
//! `CallingReturnOnReferenceTypeArrayAndClearingSetsTypesToNull`,
//! `CallingReturnOnValueTypeWithInternalReferenceTypesAndClearingSetsValueTypeToDefault`,
//! `TakingAllBuffersFromABucketPlusAnAllocatedOneShouldAllowReturningAllBuffers`,
//! `ReturningToCreatePoolABufferGreaterThanMaxSizeDoesNotThrow`,
//! `RentingReturningThenRentingABufferShouldNotAllocate`,
//! `ReturningANonPooledBufferOfDifferentSizeToThePoolThrows` (a foreign array:
//! [`Handle::from_vec`]), `RentAndReturnManyOfTheSameSize_NoneAreSame`.
//!
//! **Adapted: 3** (`CollectionTests.cs`) — `BuffersAreCollectedWhenStale`,
//! `ThreadLocalIsCollectedUnderHighPressure`, `ThreadLocalIsCollectedUnderNormalPressure`: .NET
//! trims after a forced gen2 collection, after sleeping 61 s or under real memory pressure; here a
//! trim is an explicit call with the pressure and the time ([`HandlePool::trim`]).
//!
//! **Not applicable: 1** (`CollectionTests.cs`) — `PollingEventFires` (`[ActiveIssue]` in .NET):
//! an `ArrayPoolEventSource` event of a polling trimmer; there is neither here.
//!
//! The other 32 tests of `UnitTests.cs` need nothing of the by-value contract: they are in
//! `bufpool/tests/dotnet_unit_tests.rs` only.

use bufpool::pool::{ConfigurableConfig, MemoryPressure, PoolError};
use course_pool::handle::{Handle, HandlePool};
use std::collections::HashSet;
use std::time::Duration;

/// `ArrayPool<T>.Create(maxArrayLength, maxArraysPerBucket)`.
fn create<T: bufpool::pool::Element>(
    max_array_length: usize,
    max_arrays_per_bucket: usize,
) -> HandlePool<T> {
    HandlePool::with_configurable(
        ConfigurableConfig::new()
            .with_max_array_length(max_array_length)
            .with_max_arrays_per_bucket(max_arrays_per_bucket),
    )
    .unwrap()
}

/// `ArrayPool<T>.Create()`.
fn create_default<T: bufpool::pool::Element>() -> HandlePool<T> {
    HandlePool::with_configurable(ConfigurableConfig::default()).unwrap()
}

/// .NET's `BytePoolInstances`: `Create()`, `Create(1024 * 1024, 50)`, `Create(1024 * 1024, 1)`,
/// `Shared`.
fn byte_pool_instances() -> Vec<(&'static str, HandlePool<u8>)> {
    vec![
        ("Create()", create_default()),
        ("Create(1024 * 1024, 50)", create(1024 * 1024, 50)),
        ("Create(1024 * 1024, 1)", create(1024 * 1024, 1)),
        ("Shared", HandlePool::new()),
    ]
}

/// .NET's `FillArray`: element `i` is `i`.
fn fill_array(buffer: &Handle<u8>) {
    buffer
        .with_mut(|b| {
            for (i, x) in b.iter_mut().enumerate() {
                *x = i as u8;
            }
        })
        .unwrap();
}

/// .NET's `CheckFilledArray`: `assert(buffer[i], i)` for every element.
fn check_filled_array(buffer: &Handle<u8>, assert: impl Fn(u8, u8)) {
    for (i, b) in buffer.to_vec().unwrap().into_iter().enumerate() {
        assert(b, i as u8);
    }
}

/// `UnitTests.cs`, `Renting0LengthArrayReturnsSingleton`.
#[test]
fn renting_0_length_array_returns_singleton() {
    for (name, pool) in byte_pool_instances() {
        let zero0 = pool.rent(0).unwrap();
        let zero1 = pool.rent(0).unwrap();
        let zero2 = pool.rent(0).unwrap();
        let one = pool.rent(1).unwrap();

        assert!(zero0.ptr_eq(&zero1), "{name}");
        assert!(zero1.ptr_eq(&zero2), "{name}");
        assert!(!zero2.ptr_eq(&one), "{name}");

        for returned in [&zero0, &zero1, &zero2, &one] {
            assert_eq!(pool.return_handle(returned, false), Ok(()), "{name}");
        }

        assert!(zero0.ptr_eq(&pool.rent(0).unwrap()), "{name}");
    }
}

/// `UnitTests.cs`, `CallingReturnWithoutClearingDoesNotClearTheBuffer`.
#[test]
fn calling_return_without_clearing_does_not_clear_the_buffer() {
    for (name, pool) in byte_pool_instances() {
        let buffer = pool.rent(4).unwrap();
        fill_array(&buffer);
        pool.return_handle(&buffer, false).unwrap();
        check_filled_array(&buffer, |b1, b2| assert_eq!(b1, b2, "{name}"));
    }
}

/// `UnitTests.cs`, `CallingReturnWithClearingDoesClearTheBuffer`.
#[test]
fn calling_return_with_clearing_does_clear_the_buffer() {
    for (name, pool) in byte_pool_instances() {
        let buffer = pool.rent(4).unwrap();
        fill_array(&buffer);

        // Note - yes this is bad to hold on to the old instance but we need to validate the contract
        pool.return_handle(&buffer, true).unwrap();
        check_filled_array(&buffer, |b1, _| assert_eq!(b1, 0, "{name}"));
    }
}

/// `UnitTests.cs`, `CallingReturnOnReferenceTypeArrayDoesNotClearTheArray`.
#[test]
fn calling_return_on_reference_type_array_does_not_clear_the_array() {
    let pool = create_default::<Option<String>>();
    let array = pool.rent(2).unwrap();
    array.write(0, Some("foo".into())).unwrap();
    array.write(1, Some("bar".into())).unwrap();
    pool.return_handle(&array, false).unwrap();
    assert!(array.read(0).unwrap().is_some());
    assert!(array.read(1).unwrap().is_some());
}

/// `UnitTests.cs`, `CallingReturnOnReferenceTypeArrayAndClearingSetsTypesToNull`.
#[test]
fn calling_return_on_reference_type_array_and_clearing_sets_types_to_null() {
    let pool = create_default::<Option<String>>();
    let array = pool.rent(2).unwrap();
    array.write(0, Some("foo".into())).unwrap();
    array.write(1, Some("bar".into())).unwrap();
    pool.return_handle(&array, true).unwrap();
    assert!(array.read(0).unwrap().is_none());
    assert!(array.read(1).unwrap().is_none());
}

/// .NET's `TestStruct`: a value type holding a reference.
#[derive(Clone, Debug, Default, PartialEq)]
struct TestStruct {
    internal_ref: Option<String>,
}

/// `UnitTests.cs`,
/// `CallingReturnOnValueTypeWithInternalReferenceTypesAndClearingSetsValueTypeToDefault`.
#[test]
fn calling_return_on_value_type_with_internal_reference_types_and_clearing_sets_value_type_to_default()
 {
    let pool = create_default::<TestStruct>();
    let array = pool.rent(2).unwrap();
    array
        .with_mut(|a| {
            a[0].internal_ref = Some("foo".into());
            a[1].internal_ref = Some("bar".into());
        })
        .unwrap();
    pool.return_handle(&array, true).unwrap();
    assert_eq!(array.read(0), Ok(TestStruct::default()));
    assert_eq!(array.read(1), Ok(TestStruct::default()));
}

/// `UnitTests.cs`, `TakingAllBuffersFromABucketPlusAnAllocatedOneShouldAllowReturningAllBuffers`.
#[test]
fn taking_all_buffers_from_a_bucket_plus_an_allocated_one_should_allow_returning_all_buffers() {
    let pool = create::<u8>(16, 1);
    let rented = pool.rent(16).unwrap();
    let allocated = pool.rent(16).unwrap();
    assert_eq!(pool.return_handle(&rented, false), Ok(()));
    assert_eq!(pool.return_handle(&allocated, false), Ok(()));
}

/// `UnitTests.cs`, `ReturningToCreatePoolABufferGreaterThanMaxSizeDoesNotThrow`.
#[test]
fn returning_to_create_pool_a_buffer_greater_than_max_size_does_not_throw() {
    let pool = create::<u8>(16, 1);
    let rented = pool.rent(32).unwrap();
    assert_eq!(pool.return_handle(&rented, false), Ok(()));
}

/// `UnitTests.cs`, `RentingReturningThenRentingABufferShouldNotAllocate`.
#[test]
fn renting_returning_then_renting_a_buffer_should_not_allocate() {
    let pool = create::<u8>(16, 1);
    let bt = pool.rent(16).unwrap();
    let id = bt.id();
    pool.return_handle(&bt, false).unwrap();
    let bt = pool.rent(16).unwrap();
    assert_eq!(id, bt.id());
}

/// `UnitTests.cs`, `ReturningANonPooledBufferOfDifferentSizeToThePoolThrows`.
#[test]
fn returning_a_non_pooled_buffer_of_different_size_to_the_pool_throws() {
    for (name, pool) in byte_pool_instances() {
        let foreign = Handle::from_vec(vec![0u8; 1]);
        assert_eq!(
            pool.return_handle(&foreign, false),
            Err(PoolError::NotAssociated { length: 1 }),
            "{name}"
        );
    }
}

/// `UnitTests.cs`, `RentAndReturnManyOfTheSameSize_NoneAreSame`.
#[test]
fn rent_and_return_many_of_the_same_size_none_are_same() {
    for (name, pool) in byte_pool_instances() {
        for length in [1, 16, 32, 64, 127, 4096, 4097] {
            for _iter in 0..2 {
                let buffers: Vec<_> = (0..100).map(|_| pool.rent(length).unwrap()).collect();
                let ids: HashSet<u64> = buffers.iter().map(Handle::id).collect();
                assert_eq!(ids.len(), 100, "{name}: rent({length})");
                for buffer in &buffers {
                    pool.return_handle(buffer, false).unwrap();
                }
            }
        }
    }
}

/// When the tests' first collection happens (any time will do).
const T0: Duration = Duration::from_secs(1_000);

/// "Thread.Sleep(61 * 1000)".
const A_LITTLE_OVER_A_MINUTE: Duration = Duration::from_secs(61);

/// `CollectionTests.cs`, `BuffersAreCollectedWhenStale`, adapted: explicit trims with a clock.
#[test]
fn buffers_are_collected_when_stale() {
    const BUFFER_COUNT: usize = 8;
    const BUFFER_SIZE: usize = 1025;
    let pool = HandlePool::<i32>::new();

    // Rent and return a set of buffers
    let rented_buffers: Vec<_> = (0..BUFFER_COUNT)
        .map(|_| pool.rent(BUFFER_SIZE).unwrap())
        .collect();
    for buffer in &rented_buffers {
        pool.return_handle(buffer, false).unwrap();
    }

    // Rent what we returned and ensure they are the same
    for _ in 0..BUFFER_COUNT {
        let buffer = pool.rent(BUFFER_SIZE).unwrap();
        assert!(rented_buffers.iter().any(|item| item.ptr_eq(&buffer)));
    }
    for buffer in &rented_buffers {
        pool.return_handle(buffer, false).unwrap();
    }

    // Trigger a few Gen2 GCs to make sure the pool has appropriately time stamped buffers.
    for _ in 0..2 {
        pool.trim(MemoryPressure::Low, T0);
    }

    // Now wait a little over a minute and force a GC to get some buffers returned
    pool.trim(MemoryPressure::Low, T0 + A_LITTLE_OVER_A_MINUTE);
    let mut found_new_buffer = false;
    for _ in 0..BUFFER_COUNT {
        let buffer = pool.rent(BUFFER_SIZE).unwrap();
        if !rented_buffers.iter().any(|item| item.ptr_eq(&buffer)) {
            found_new_buffer = true;
        }
    }

    assert!(found_new_buffer);
}

/// `CollectionTests.cs`, `ThreadLocalIsCollectedUnderHighPressure`, adapted: one trim under high
/// pressure instead of filling memory until .NET reports it high.
#[test]
fn thread_local_is_collected_under_high_pressure() {
    // Create our buffer, return it, re-rent it and ensure we have the same one
    const BUFFER_SIZE: usize = 4097;
    let pool = HandlePool::<u8>::new();
    let buffer = pool.rent(BUFFER_SIZE).unwrap();
    pool.return_handle(&buffer, false).unwrap();
    assert!(buffer.ptr_eq(&pool.rent(BUFFER_SIZE).unwrap()));

    // Return it and put memory pressure on to get it cleared
    pool.return_handle(&buffer, false).unwrap();
    pool.trim(MemoryPressure::High, T0);

    // Should have a new buffer now
    assert!(!buffer.ptr_eq(&pool.rent(BUFFER_SIZE).unwrap()));
}

/// `CollectionTests.cs`, `ThreadLocalIsCollectedUnderNormalPressure`, adapted: two trims to stamp
/// the buffer, then one 61 seconds later.
#[test]
fn thread_local_is_collected_under_normal_pressure() {
    // Create our buffer, return it, re-rent it and ensure we have the same one
    const BUFFER_SIZE: usize = 4097;
    let pool = HandlePool::<u8>::new();
    let buffer = pool.rent(BUFFER_SIZE).unwrap();
    pool.return_handle(&buffer, false).unwrap();
    assert!(buffer.ptr_eq(&pool.rent(BUFFER_SIZE).unwrap()));

    // Return it and put memory pressure on to get it cleared
    pool.return_handle(&buffer, false).unwrap();

    // Make sure buffer gets time stamped
    for _ in 0..2 {
        pool.trim(MemoryPressure::Low, T0);
    }

    // Now wait for enough time to pass and force a GC to get buffers dropped
    pool.trim(MemoryPressure::Low, T0 + A_LITTLE_OVER_A_MINUTE);

    // Should have a new buffer now
    assert!(!buffer.ptr_eq(&pool.rent(BUFFER_SIZE).unwrap()));
}

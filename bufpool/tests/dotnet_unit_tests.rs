//! .NET's own `ArrayPool<T>` unit tests, translated: `UnitTests.cs` of dotnet/runtime
//! (`src/libraries/System.Runtime/tests/System.Buffers.Tests/ArrayPool/UnitTests.cs`), through
//! this crate's Rust-shaped API (the [`Rented`](bufpool::pool::Rented) guard, and
//! `rent_boxed`/`return_boxed` where .NET's test needs a raw `Return` result).
//!
//! These are a peer's tests: where one fails, the port is wrong unless .NET's source
//! (`ConfigurableArrayPool.cs`, `SharedArrayPool.cs`) says otherwise. Each Rust test is named after
//! the .NET test (snake case) and says which one it is; a `[Theory]`'s `InlineData` rows are a table
//! inside the test, and .NET's `BytePoolInstances` (`Create()`, `Create(1024 * 1024, 50)`,
//! `Create(1024 * 1024, 1)`, `Shared`) is [`for_each_byte_pool!`].
//!
//! Mapping: `ArrayPool<T>.Shared` is [`SharedPool::shared`], `ArrayPool<T>.Create(maxArrayLength,
//! maxArraysPerBucket)` is [`ConfigurablePool::with_config`]; an array's `Length` is the guard's
//! [`capacity`](bufpool::pool::Rented::capacity); `Assert.Same` on arrays compares the buffers'
//! addresses while both are alive; after a return, the address plus, for a pool of the test's
//! own, its allocation count (an address alone could be a new buffer at a freed one's place); C#'s `string` (nullable) is
//! `Option<String>`; a test run by `RemoteExecutor` in a fresh process gets a fresh pool
//! ([`SharedPool::new`]), or, where the process environment is the point, a child process of this
//! test binary.
//!
//! # Counts (43 .NET tests)
//!
//! **Translated: 25** — the same steps and assertions: `SharedInstanceCreatesAnInstanceOnFirstCall`,
//! `SharedInstanceOnlyCreatesOneInstanceOfOneTypep`, `CreateWillCreateMultipleInstancesOfTheSameType`,
//! `CreatingAPoolWithValidMaximumArraySizeSucceeds`, `RentingGiganticArraySucceedsOrOOMs`,
//! `RentingMultipleArraysGivesBackDifferentInstances`,
//! `RentingMoreArraysThanSpecifiedInCreateWillStillSucceed`,
//! `RentCanReturnBiggerArraySizeThanRequested`,
//! `RentingAnArrayWithLengthGreaterThanSpecifiedInCreateStillSucceeds`,
//! `TakingAllBuffersFromABucketPlusAnAllocatedOneShouldAllowReturningAllBuffers`,
//! `NewDefaultArrayPoolWithSmallBufferSizeRoundsToOurSmallestSupportedSize`,
//! `ReturningToCreatePoolABufferGreaterThanMaxSizeDoesNotThrow`,
//! `RentingAllBuffersAndCallingRentAgainWillAllocateBufferAndReturnIt`,
//! `RentingReturningThenRentingABufferShouldNotAllocate`, `CanRentManySizedBuffers`,
//! `RentingSpecificLengthsYieldsExpectedLengths` (.NET's `char` is `u16`, `string` is
//! `Option<String>`), the three `RentingAfterPoolExhaustionReturnsSizeForCorrespondingBucket_*`,
//! `ReturningANonPooledBufferOfDifferentSizeToThePoolThrows`,
//! `RentAndReturnManyOfTheSameSize_NoneAreSame`, `UsePoolInParallel` (`Parallel.For` is four
//! scoped threads sharing the 250,000 iterations), and
//! `ConfigurablePool_AllocatedArraysAreCleared_{string,byte,DateTime}` (`DateTime` is
//! `Duration`, another plain value type whose default is not a number's).
//!
//! **Adapted: 17** —
//! - `CreatingAPoolWithInvalidArrayCountThrows`, `CreatingAPoolWithInvalidMaximumArraySizeThrows`:
//!   row 0 as in .NET (a typed error naming the setting); row -1 cannot be written, the settings
//!   are `usize`.
//! - `RentingWithInvalidLengthThrows`: `rent` takes a `usize`; -1 goes through the crate's signed
//!   entry point [`checked_len`], which refuses it with [`PoolError::NegativeLength`].
//! - `Renting0LengthArrayReturnsSingleton`: an empty `Box<[T]>` has no identity to compare (every
//!   empty box has the same dangling address); what remains is that `rent(0)` is empty, allocates
//!   nothing, and its return is ignored. The identity itself is checked through the handle API
//!   (`course-pool/tests/dotnet_handle_tests.rs`).
//! - `CallingReturnWithoutClearingDoesNotClearTheBuffer`, `CallingReturnWithClearingDoesClearTheBuffer`,
//!   `CallingReturnOnReferenceTypeArrayDoesNotClearTheArray`,
//!   `CallingReturnOnReferenceTypeArrayAndClearingSetsTypesToNull`,
//!   `CallingReturnOnValueTypeWithInternalReferenceTypesAndClearingSetsValueTypeToDefault`: .NET
//!   reads the array after returning it; a returned guard cannot be read here, so the test rents
//!   again, checks it got the same buffer, and reads that. (Read after return, as .NET does: the
//!   handle API file.)
//! - `RentingGiganticArraySucceeds` (`[OuterLoop]` in .NET: 1 to 2 GiB per row): a fresh pool per
//!   row instead of a fresh process, identity as address plus allocation count; `#[ignore]`d like
//!   an outer-loop test, run with `--ignored`.
//! - The six event tests (`RentBufferFiresRentedDiagnosticEvent`,
//!   `ReturnBufferWhenFullFiresDroppedDiagnosticEvent`, `ReturnBufferFiresDiagnosticEvent`,
//!   `RentingNonExistentBufferFiresAllocatedDiagnosticEvent`,
//!   `RentingBufferOverConfiguredMaximumSizeFiresDiagnosticEvent`,
//!   `RentingManyBuffersFiresExpectedDiagnosticEvents`): there is no `ArrayPoolEventSource`; each
//!   checks the same fact in [`PoolStats`](bufpool::pool::PoolStats) (an allocation, an oversize allocation, a kept or
//!   handed-out buffer, a full pool). The stats count allocations but not rents, returns or drops,
//!   so the event counts of rents (30) and returns (10) in the last one are not checked.
//! - `SharedPool_SetEnvironmentVariables_ValuesRespected`: `RemoteExecutor` is a child process of
//!   this test binary with the two variables set; the reflection on `SharedArrayPoolStatics` is
//!   [`SharedPool::config`]; and the shared pool takes the environment only when asked
//!   (`init_shared(SharedConfig::from_env())`, this crate's documented opt-in).
//!
//! **Not applicable: 1** — `CallingReturnBufferWithNullBufferThrows`: there is no null buffer in
//! Rust (a guard or a `Box` always holds one).

#![cfg(not(target_arch = "wasm32"))] // threads and child processes

use bufpool::pool::{
    ConfigurableConfig, ConfigurablePool, ENV_MAX_ARRAYS_PER_PARTITION, ENV_MAX_PARTITION_COUNT,
    Element, PoolError, SharedConfig, SharedPool, checked_len, processor_count,
};
use std::collections::HashSet;
use std::time::Duration;

/// `ArrayPool<T>.Create(maxArrayLength, maxArraysPerBucket)`.
fn create<T: Element>(
    max_array_length: usize,
    max_arrays_per_bucket: usize,
) -> ConfigurablePool<T> {
    ConfigurablePool::with_config(
        ConfigurableConfig::new()
            .with_max_array_length(max_array_length)
            .with_max_arrays_per_bucket(max_arrays_per_bucket),
    )
    .unwrap()
}

/// .NET's `BytePoolInstances`: runs `$body` with `$pool` bound to each of `Create()`,
/// `Create(1024 * 1024, 50)`, `Create(1024 * 1024, 1)` and `Shared`, in turn (the pools are of
/// different types, so the body is expanded once per pool). Messages name the pool with `{pool:?}`.
/// The optional second binding says whether the pool is private to the test: the process-wide
/// `Shared` pool is used by other tests at the same time, so its statistics are not this test's.
macro_rules! for_each_byte_pool {
    (|$pool:ident| $body:block) => {
        for_each_byte_pool!(|$pool, _| $body)
    };
    (|$pool:ident, $private:pat_param| $body:block) => {{
        {
            let $pool = &ConfigurablePool::<u8>::new();
            let $private = true;
            $body
        }
        {
            let $pool = &create::<u8>(1024 * 1024, 50);
            let $private = true;
            $body
        }
        {
            let $pool = &create::<u8>(1024 * 1024, 1);
            let $private = true;
            $body
        }
        {
            let $pool = SharedPool::<u8>::shared();
            let $private = false;
            $body
        }
    }};
}

/// .NET's `FillArray`: element `i` is `i`.
fn fill_array(buffer: &mut [u8]) {
    for (i, b) in buffer.iter_mut().enumerate() {
        *b = i as u8;
    }
}

/// .NET's `CheckFilledArray`: `assert(buffer[i], i)` for every element.
fn check_filled_array(buffer: &[u8], assert: impl Fn(u8, u8)) {
    for (i, &b) in buffer.iter().enumerate() {
        assert(b, i as u8);
    }
}

/// The address of a buffer, for `Assert.Same` between buffers that are alive.
fn addr<T>(buffer: &[T]) -> *const T {
    buffer.as_ptr()
}

/// `UnitTests.cs`, `SharedInstanceCreatesAnInstanceOnFirstCall`.
#[test]
fn shared_instance_creates_an_instance_on_first_call() {
    let pool = SharedPool::<u8>::shared();
    assert_ne!(pool.id(), 0);
}

/// `UnitTests.cs`, `SharedInstanceOnlyCreatesOneInstanceOfOneTypep`.
#[test]
fn shared_instance_only_creates_one_instance_of_one_typep() {
    let instance = SharedPool::<u8>::shared();
    assert!(std::ptr::eq(instance, SharedPool::<u8>::shared()));
    assert_eq!(instance.id(), SharedPool::<u8>::shared().id());
}

/// `UnitTests.cs`, `CreateWillCreateMultipleInstancesOfTheSameType`.
#[test]
fn create_will_create_multiple_instances_of_the_same_type() {
    let (a, b) = (ConfigurablePool::<u8>::new(), ConfigurablePool::<u8>::new());
    assert_ne!(a.id(), b.id());
    assert!(!std::ptr::eq(&a, &b));
}

/// `UnitTests.cs`, `CreatingAPoolWithInvalidArrayCountThrows` (`[InlineData(0)]`; the row -1 is
/// not a `usize`).
#[test]
#[expect(
    clippy::single_element_loop,
    reason = "the theory's rows: the other one, -1, is not a usize"
)]
fn creating_a_pool_with_invalid_array_count_throws() {
    for length in [0] {
        let created = ConfigurablePool::<u8>::with_config(
            ConfigurableConfig::new()
                .with_max_arrays_per_bucket(length)
                .with_max_array_length(16),
        );
        assert!(
            matches!(
                created,
                Err(PoolError::InvalidConfig {
                    setting: "max_arrays_per_bucket",
                    ..
                })
            ),
            "maxArraysPerBucket {length}: {created:?}"
        );
    }
}

/// `UnitTests.cs`, `CreatingAPoolWithInvalidMaximumArraySizeThrows` (`[InlineData(0)]`; the row -1
/// is not a `usize`).
#[test]
#[expect(
    clippy::single_element_loop,
    reason = "the theory's rows: the other one, -1, is not a usize"
)]
fn creating_a_pool_with_invalid_maximum_array_size_throws() {
    for length in [0] {
        let created = ConfigurablePool::<u8>::with_config(
            ConfigurableConfig::new()
                .with_max_array_length(length)
                .with_max_arrays_per_bucket(1),
        );
        assert!(
            matches!(
                created,
                Err(PoolError::InvalidConfig {
                    setting: "max_array_length",
                    ..
                })
            ),
            "maxArrayLength {length}: {created:?}"
        );
    }
}

/// `UnitTests.cs`, `CreatingAPoolWithValidMaximumArraySizeSucceeds`.
#[test]
fn creating_a_pool_with_valid_maximum_array_size_succeeds() {
    for length in [1, 16, 0x4000_0000, 0x7FFF_FFFF] {
        let pool = create::<u8>(length, 1);
        let rented = pool.rent(1);
        assert!(rented.capacity() >= 1, "maxArrayLength {length}");
    }
}

/// `UnitTests.cs`, `RentingWithInvalidLengthThrows` (`rent(-1)` through [`checked_len`]).
#[test]
fn renting_with_invalid_length_throws() {
    for_each_byte_pool!(|pool| {
        let rented = checked_len(-1).and_then(|n| pool.try_rent(n).map(|b| b.capacity()));
        assert_eq!(
            rented,
            Err(PoolError::NegativeLength { requested: -1 }),
            "{pool:?}"
        );
    });
}

/// `UnitTests.cs`, `RentingGiganticArraySucceedsOrOOMs`: a rent of `0x70000000` bytes either
/// succeeds or is an allocation error (.NET: `OutOfMemoryException`), never a crash.
#[test]
fn renting_gigantic_array_succeeds_or_ooms() {
    let len = 0x7000_0000;
    match SharedPool::<u8>::shared().try_rent(len) {
        Ok(buffer) => assert!(buffer.capacity() >= len),
        Err(e) => assert!(
            matches!(&e, PoolError::AllocationFailed { length, .. } if *length == len),
            "{e}"
        ),
    }
}

/// `UnitTests.cs`, `Renting0LengthArrayReturnsSingleton`, adapted: an empty box has no identity,
/// so what is checked is that `rent(0)` is empty, allocates nothing, and its returns are ignored
/// (the identity: `course-pool/tests/dotnet_handle_tests.rs`).
#[test]
fn renting_0_length_array_returns_singleton() {
    for_each_byte_pool!(|pool, private| {
        let zero0 = pool.rent_boxed(0);
        let zero1 = pool.rent_boxed(0);
        let zero2 = pool.rent_boxed(0);
        let one = pool.rent_boxed(1);

        assert_eq!(
            (zero0.len(), zero1.len(), zero2.len()),
            (0, 0, 0),
            "{pool:?}"
        );
        assert_eq!(one.len(), 16, "{pool:?}");
        assert_ne!(addr(&zero2), addr(&one), "{pool:?}");

        for zero in [zero0, zero1, zero2] {
            assert!(pool.return_boxed(zero, false).is_ok(), "{pool:?}");
        }
        assert!(pool.return_boxed(one, false).is_ok(), "{pool:?}");

        assert_eq!(pool.rent(0).capacity(), 0, "{pool:?}");
        if private {
            // Only `one` was ever allocated: the empty rents cost nothing and were not kept.
            let stats = pool.stats();
            assert_eq!(
                (stats.allocated(), stats.retained_buffers()),
                (1, 1),
                "{pool:?}"
            );
        }
    });
}

/// `UnitTests.cs`, `RentingMultipleArraysGivesBackDifferentInstances`.
#[test]
fn renting_multiple_arrays_gives_back_different_instances() {
    let instance = create::<u8>(16, 2);
    let (a, b) = (instance.rent(100), instance.rent(100));
    assert_ne!(addr(a.as_capacity()), addr(b.as_capacity()));
}

/// `UnitTests.cs`, `RentingMoreArraysThanSpecifiedInCreateWillStillSucceed`.
#[test]
fn renting_more_arrays_than_specified_in_create_will_still_succeed() {
    let instance = create::<u8>(16, 1);
    let a = instance.rent(100);
    let b = instance.rent(100);
    assert!(a.capacity() >= 100 && b.capacity() >= 100);
}

/// `UnitTests.cs`, `RentCanReturnBiggerArraySizeThanRequested`.
#[test]
fn rent_can_return_bigger_array_size_than_requested() {
    let pool = create::<u8>(32, 1);
    let rented = pool.rent(27);
    assert_eq!(rented.capacity(), 32);
    assert_eq!(rented.len(), 27); // the guard derefs to the request
}

/// `UnitTests.cs`, `RentingAnArrayWithLengthGreaterThanSpecifiedInCreateStillSucceeds`.
#[test]
fn renting_an_array_with_length_greater_than_specified_in_create_still_succeeds() {
    let rented = create::<u8>(100, 1).try_rent(200).map(|b| b.capacity());
    assert!(matches!(rented, Ok(n) if n >= 200), "{rented:?}");
}

/// `UnitTests.cs`, `CallingReturnWithoutClearingDoesNotClearTheBuffer`, adapted: instead of
/// reading the array after `Return`, the next rent gets the same buffer and reads it.
#[test]
fn calling_return_without_clearing_does_not_clear_the_buffer() {
    for_each_byte_pool!(|pool, private| {
        let mut buffer = pool.rent(4);
        fill_array(buffer.as_capacity_mut());
        let at = addr(buffer.as_capacity());
        buffer.return_uncleared();

        let again = pool.rent(4);
        assert_eq!(
            addr(again.as_capacity()),
            at,
            "{pool:?}: not the returned buffer"
        );
        if private {
            assert_eq!(pool.stats().allocated(), 1, "{pool:?}: a second buffer");
        }
        check_filled_array(again.as_capacity(), |b1, b2| assert_eq!(b1, b2, "{pool:?}"));
    });
}

/// `UnitTests.cs`, `CallingReturnWithClearingDoesClearTheBuffer`, adapted as the test above.
#[test]
fn calling_return_with_clearing_does_clear_the_buffer() {
    for_each_byte_pool!(|pool, private| {
        let mut buffer = pool.rent(4);
        fill_array(buffer.as_capacity_mut());
        let at = addr(buffer.as_capacity());
        buffer.return_cleared();

        let again = pool.rent(4);
        assert_eq!(
            addr(again.as_capacity()),
            at,
            "{pool:?}: not the returned buffer"
        );
        if private {
            assert_eq!(pool.stats().allocated(), 1, "{pool:?}: a second buffer");
        }
        check_filled_array(again.as_capacity(), |b1, _| assert_eq!(b1, 0, "{pool:?}"));
    });
}

/// `UnitTests.cs`, `CallingReturnOnReferenceTypeArrayDoesNotClearTheArray` (`string` is
/// `Option<String>`), adapted: read through the next rent of the same buffer.
#[test]
fn calling_return_on_reference_type_array_does_not_clear_the_array() {
    let pool = ConfigurablePool::<Option<String>>::new();
    let mut array = pool.rent(2);
    array[0] = Some("foo".into());
    array[1] = Some("bar".into());
    let at = addr(array.as_capacity());
    array.return_uncleared();

    let again = pool.rent(2);
    assert_eq!(addr(again.as_capacity()), at);
    assert!(again[0].is_some());
    assert!(again[1].is_some());
    assert_eq!(pool.stats().allocated(), 1);
}

/// `UnitTests.cs`, `CallingReturnOnReferenceTypeArrayAndClearingSetsTypesToNull`, adapted as the
/// test above.
#[test]
fn calling_return_on_reference_type_array_and_clearing_sets_types_to_null() {
    let pool = ConfigurablePool::<Option<String>>::new();
    let mut array = pool.rent(2);
    array[0] = Some("foo".into());
    array[1] = Some("bar".into());
    let at = addr(array.as_capacity());
    array.return_cleared();

    let again = pool.rent(2);
    assert_eq!(addr(again.as_capacity()), at);
    assert!(again[0].is_none());
    assert!(again[1].is_none());
    assert_eq!(pool.stats().allocated(), 1);
}

/// .NET's `TestStruct`: a value type holding a reference.
#[derive(Clone, Debug, Default, PartialEq)]
struct TestStruct {
    internal_ref: Option<String>,
}

/// `UnitTests.cs`,
/// `CallingReturnOnValueTypeWithInternalReferenceTypesAndClearingSetsValueTypeToDefault`, adapted
/// as the tests above.
#[test]
fn calling_return_on_value_type_with_internal_reference_types_and_clearing_sets_value_type_to_default()
 {
    let pool = ConfigurablePool::<TestStruct>::new();
    let mut array = pool.rent(2);
    array[0].internal_ref = Some("foo".into());
    array[1].internal_ref = Some("bar".into());
    let at = addr(array.as_capacity());
    array.return_cleared();

    let again = pool.rent(2);
    assert_eq!(addr(again.as_capacity()), at);
    assert_eq!(again[0], TestStruct::default());
    assert_eq!(again[1], TestStruct::default());
    assert_eq!(pool.stats().allocated(), 1);
}

/// `UnitTests.cs`, `TakingAllBuffersFromABucketPlusAnAllocatedOneShouldAllowReturningAllBuffers`.
#[test]
fn taking_all_buffers_from_a_bucket_plus_an_allocated_one_should_allow_returning_all_buffers() {
    let pool = create::<u8>(16, 1);
    let rented = pool.rent_boxed(16);
    let allocated = pool.rent_boxed(16);
    assert!(pool.return_boxed(rented, false).is_ok());
    assert!(pool.return_boxed(allocated, false).is_ok());
    // `ConfigurableArrayPool.Bucket.Return`: a full bucket drops the second one.
    assert_eq!(pool.stats().retained_buffers(), 1);
}

/// `UnitTests.cs`, `NewDefaultArrayPoolWithSmallBufferSizeRoundsToOurSmallestSupportedSize`.
#[test]
fn new_default_array_pool_with_small_buffer_size_rounds_to_our_smallest_supported_size() {
    let pool = create::<u8>(8, 1);
    let rented = pool.rent(8);
    assert_eq!(rented.capacity(), 16);
}

/// `UnitTests.cs`, `ReturningToCreatePoolABufferGreaterThanMaxSizeDoesNotThrow`.
#[test]
fn returning_to_create_pool_a_buffer_greater_than_max_size_does_not_throw() {
    let pool = create::<u8>(16, 1);
    let rented = pool.rent_boxed(32);
    assert!(pool.return_boxed(rented, false).is_ok());
}

/// `UnitTests.cs`, `RentingAllBuffersAndCallingRentAgainWillAllocateBufferAndReturnIt`.
#[test]
fn renting_all_buffers_and_calling_rent_again_will_allocate_buffer_and_return_it() {
    let pool = create::<u8>(16, 1);
    let rented1 = pool.rent(16);
    let rented2 = pool.rent(16);
    assert_eq!((rented1.capacity(), rented2.capacity()), (16, 16));
}

/// `UnitTests.cs`, `RentingReturningThenRentingABufferShouldNotAllocate` (.NET compares
/// `GetHashCode()`, the array's identity: here its address and the allocation count).
#[test]
fn renting_returning_then_renting_a_buffer_should_not_allocate() {
    let pool = create::<u8>(16, 1);
    let bt = pool.rent(16);
    let id = addr(bt.as_capacity());
    drop(bt);
    let bt = pool.rent(16);
    assert_eq!(id, addr(bt.as_capacity()));
    assert_eq!(pool.stats().allocated(), 1);
}

/// `UnitTests.cs`, `CanRentManySizedBuffers`.
#[test]
fn can_rent_many_sized_buffers() {
    for_each_byte_pool!(|pool| {
        for i in 1..10_000usize {
            let buffer = pool.rent(i);
            let expected = if i <= 16 { 16 } else { i.next_power_of_two() };
            assert_eq!(buffer.capacity(), expected, "{pool:?}: rent({i})");
        }
    });
}

/// One pool type of `RentingSpecificLengthsYieldsExpectedLengths`: two rents, each of the expected
/// length, not the same buffer; returned in the order .NET returns them.
macro_rules! two_rents_of {
    ($pool:expr, $requested:expr, $expected:expr) => {{
        let pool = $pool;
        let buffer1 = pool.rent($requested);
        let buffer2 = pool.rent($requested);
        assert_eq!(buffer1.capacity(), $expected, "{pool:?}");
        assert_eq!(buffer2.capacity(), $expected, "{pool:?}");
        assert_ne!(
            addr(buffer1.as_capacity()),
            addr(buffer2.as_capacity()),
            "{pool:?}"
        );
        drop(buffer2);
        drop(buffer1);
    }};
}

/// `UnitTests.cs`, `RentingSpecificLengthsYieldsExpectedLengths` (`byte`, `char` as `u16`,
/// `string` as `Option<String>`; each through `Create(RoundUpToPowerOf2(requested), 1)` and
/// `Shared`).
#[test]
fn renting_specific_lengths_yields_expected_lengths() {
    let rows: [(usize, usize); 9] = [
        (1, 16),
        (15, 16),
        (16, 16),
        (1023, 1024),
        (1024, 1024),
        (4096, 4096),
        (1024 * 1024, 1024 * 1024),
        (1024 * 1024 + 1, 1024 * 1024 * 2),
        (1024 * 1024 * 2, 1024 * 1024 * 2),
    ];
    for (requested_minimum, expected_length) in rows {
        let max = requested_minimum.next_power_of_two();
        two_rents_of!(&create::<u8>(max, 1), requested_minimum, expected_length);
        two_rents_of!(
            SharedPool::<u8>::shared(),
            requested_minimum,
            expected_length
        );
        two_rents_of!(&create::<u16>(max, 1), requested_minimum, expected_length);
        two_rents_of!(
            SharedPool::<u16>::shared(),
            requested_minimum,
            expected_length
        );
        two_rents_of!(
            &create::<Option<String>>(max, 1),
            requested_minimum,
            expected_length
        );
        two_rents_of!(
            SharedPool::<Option<String>>::shared(),
            requested_minimum,
            expected_length
        );
    }
}

/// `UnitTests.cs`, `RentingGiganticArraySucceeds` (`[OuterLoop]`, run by `RemoteExecutor`):
/// a fresh pool per row; `expectPooled` is whether the rent after the return is the same buffer
/// (address, and no second allocation).
#[test]
#[ignore = "outer loop, as in .NET ([OuterLoop]): rents 1 to 2 GiB per row; run with --ignored"]
fn renting_gigantic_array_succeeds() {
    let rows: [(usize, bool); 4] = [
        (1024 * 1024 * 1024 - 1, true),
        (1024 * 1024 * 1024, true),
        (1024 * 1024 * 1024 + 1, false),
        (0x7FFF_FFC7, false), // Array.MaxLength
    ];
    for (length, expect_pooled) in rows {
        let pool = SharedPool::<u8>::new();
        let array = match pool.try_rent(length) {
            Ok(array) => array,
            Err(PoolError::AllocationFailed { .. }) => continue, // .NET: OutOfMemoryException
            Err(e) => panic!("rent({length}): {e}"),
        };
        assert!(array.capacity() >= length, "rent({length})");
        let at = addr(array.as_capacity());
        drop(array);
        let again = pool.rent(length);
        let same = addr(again.as_capacity()) == at && pool.stats().allocated() == 1;
        assert_eq!(same, expect_pooled, "rent({length})");
    }
}

/// `UnitTests.cs`, `RentingAfterPoolExhaustionReturnsSizeForCorrespondingBucket_SmallerThanLimit`.
#[test]
fn renting_after_pool_exhaustion_returns_size_for_corresponding_bucket_smaller_than_limit() {
    let pool = create::<u8>(64, 2);
    let mut held = Vec::new();
    for expected in [16, 16, 32, 32, 16] {
        // initial bucket twice, one more level twice, then the original size again
        let b = pool.rent(15);
        assert_eq!(b.capacity(), expected);
        held.push(b);
    }
}

/// `UnitTests.cs`, `RentingAfterPoolExhaustionReturnsSizeForCorrespondingBucket_JustBelowLimit`.
#[test]
fn renting_after_pool_exhaustion_returns_size_for_corresponding_bucket_just_below_limit() {
    let pool = create::<u8>(64, 2);
    let mut held = Vec::new();
    for expected in [32, 32, 64, 64, 32] {
        let b = pool.rent(31);
        assert_eq!(b.capacity(), expected);
        held.push(b);
    }
}

/// `UnitTests.cs`, `RentingAfterPoolExhaustionReturnsSizeForCorrespondingBucket_AtLimit`.
#[test]
fn renting_after_pool_exhaustion_returns_size_for_corresponding_bucket_at_limit() {
    let pool = create::<u8>(64, 2);
    let mut held = Vec::new();
    for expected in [64, 64, 64] {
        // the last bucket: no level above it, still the original size
        let b = pool.rent(63);
        assert_eq!(b.capacity(), expected);
        held.push(b);
    }
}

/// `UnitTests.cs`, `RentBufferFiresRentedDiagnosticEvent`, adapted: the `BufferRented` event's
/// payload (the returned buffer's id, its length, the pool) is the same buffer, of length 16,
/// handed out by this pool with no new allocation.
#[test]
fn rent_buffer_fires_rented_diagnostic_event() {
    let pool = create::<u8>(16, 1);
    let buffer = pool.rent(16);
    let at = addr(buffer.as_capacity());
    drop(buffer);

    let rented = pool.rent(16);
    assert_eq!(addr(rented.as_capacity()), at);
    assert_eq!(rented.capacity(), 16);
    let bucket = pool.stats().buckets[0].clone();
    assert_eq!((bucket.allocated, bucket.handed_out), (1, Some(1)));
}

/// `UnitTests.cs`, `ReturnBufferWhenFullFiresDroppedDiagnosticEvent`, adapted: 1,000 buffers of
/// one size returned to a fresh shared pool; it keeps `1 + P × M` of them (the slot and the full
/// partitions) and drops the rest, where .NET fires `BufferDropped`.
#[test]
fn return_buffer_when_full_fires_dropped_diagnostic_event() {
    let pool = SharedPool::<u8>::new();
    let buffers: Vec<_> = (0..1000).map(|_| pool.rent(1)).collect();
    drop(buffers);
    let kept = pool.stats().bucket(0).unwrap().retained_buffers;
    assert_eq!(kept, pool.config().capacity_per_bucket());
    assert!(kept < 1000, "nothing was dropped: {kept} kept");
}

/// `UnitTests.cs`, `ReturnBufferFiresDiagnosticEvent`, adapted: the return (.NET's
/// `BufferReturned`, with the buffer's length 16) shows in the stats: kept, no longer handed out.
#[test]
fn return_buffer_fires_diagnostic_event() {
    let pool = create::<u8>(16, 1);
    let buffer = pool.rent(16);
    assert_eq!(pool.stats().buckets[0].handed_out, Some(1));
    drop(buffer);
    let bucket = pool.stats().buckets[0].clone();
    assert_eq!(
        (bucket.length, bucket.retained_buffers, bucket.handed_out),
        (16, 1, Some(0))
    );
}

/// `UnitTests.cs`, `RentingNonExistentBufferFiresAllocatedDiagnosticEvent`, adapted: one
/// allocation (.NET's one `BufferAllocated` event), in bucket 0.
#[test]
fn renting_non_existent_buffer_fires_allocated_diagnostic_event() {
    let pool = create::<u8>(16, 1);
    let _rented = pool.rent(16);
    let stats = pool.stats();
    assert_eq!(stats.allocated(), 1);
    assert_eq!(stats.buckets[0].allocated, 1);
}

/// `UnitTests.cs`, `RentingBufferOverConfiguredMaximumSizeFiresDiagnosticEvent`, adapted: one
/// allocation, counted as over the maximum size (.NET's `BufferAllocated`, reason
/// `OverMaximumSize`).
#[test]
fn renting_buffer_over_configured_maximum_size_fires_diagnostic_event() {
    let pool = create::<u8>(16, 1);
    let _rented = pool.rent(64);
    let stats = pool.stats();
    assert_eq!((stats.allocated(), stats.oversize_allocated), (1, 1));
}

/// `UnitTests.cs`, `RentingManyBuffersFiresExpectedDiagnosticEvents`, adapted: of .NET's 60
/// events (30 rents, 20 allocations, 10 returns), the 20 allocations are what the stats count.
#[test]
fn renting_many_buffers_fires_expected_diagnostic_events() {
    let pool = create::<u8>(16, 10);
    for _ in 0..10 {
        drop(pool.rent(16)); // one allocation, then the same buffer each time
    }
    for _ in 0..10 {
        drop(pool.rent(0)); // nothing for empty buffers
    }
    let mut held = Vec::new();
    for _ in 0..10 {
        held.push(pool.rent(16)); // the kept buffer, then 9 allocations
    }
    for _ in 0..10 {
        held.push(pool.rent(16)); // the bucket is exhausted: 10 allocations
    }
    let stats = pool.stats();
    assert_eq!(stats.allocated(), 20);
    assert_eq!(stats.buckets[0].handed_out, Some(10));
}

/// `UnitTests.cs`, `ReturningANonPooledBufferOfDifferentSizeToThePoolThrows`.
#[test]
fn returning_a_non_pooled_buffer_of_different_size_to_the_pool_throws() {
    for_each_byte_pool!(|pool| {
        let refused = pool.return_boxed(vec![0u8; 1].into_boxed_slice(), false);
        let error = refused.map_err(|r| r.error);
        assert_eq!(
            error,
            Err(PoolError::NotAssociated { length: 1 }),
            "{pool:?}"
        );
    });
}

/// `UnitTests.cs`, `RentAndReturnManyOfTheSameSize_NoneAreSame`.
#[test]
fn rent_and_return_many_of_the_same_size_none_are_same() {
    for_each_byte_pool!(|pool| {
        for length in [1, 16, 32, 64, 127, 4096, 4097] {
            for _iter in 0..2 {
                let buffers: Vec<_> = (0..100).map(|_| pool.rent(length)).collect();
                let distinct: HashSet<_> = buffers.iter().map(|b| addr(b.as_capacity())).collect();
                assert_eq!(distinct.len(), 100, "{pool:?}: rent({length})");
                drop(buffers);
            }
        }
    });
}

/// `UnitTests.cs`, `UsePoolInParallel` (`Parallel.For(0, 250000, …)`: four threads share the
/// iterations).
#[test]
fn use_pool_in_parallel() {
    const ITERATIONS: usize = 250_000;
    const THREADS: usize = 4;
    for_each_byte_pool!(|pool| {
        std::thread::scope(|s| {
            for t in 0..THREADS {
                s.spawn(move || {
                    for _ in (t..ITERATIONS).step_by(THREADS) {
                        for size in [16, 32, 64, 128] {
                            let array = pool.rent(size);
                            assert!(array.capacity() >= size, "{pool:?}");
                        }
                    }
                });
            }
        });
    });
}

/// `ConfigurablePool_AllocatedArraysAreCleared<T>`: every element of a new rent is the default
/// (the arrays are never returned, as in .NET).
fn configurable_pool_allocated_arrays_are_cleared<T: Element + PartialEq + std::fmt::Debug>() {
    let pool = ConfigurablePool::<T>::new();
    let mut rented = Vec::new();
    for size in 1..=1000 {
        let arr = pool.rent_boxed(size);
        for (i, x) in arr.iter().enumerate() {
            assert_eq!(*x, T::default(), "rent({size})[{i}]");
        }
        rented.push(arr);
    }
}

/// `UnitTests.cs`, `ConfigurablePool_AllocatedArraysAreCleared_string` (`Option<String>`).
#[test]
fn configurable_pool_allocated_arrays_are_cleared_string() {
    configurable_pool_allocated_arrays_are_cleared::<Option<String>>();
}

/// `UnitTests.cs`, `ConfigurablePool_AllocatedArraysAreCleared_byte`.
#[test]
fn configurable_pool_allocated_arrays_are_cleared_byte() {
    configurable_pool_allocated_arrays_are_cleared::<u8>();
}

/// `UnitTests.cs`, `ConfigurablePool_AllocatedArraysAreCleared_DateTime` (`Duration`).
#[test]
fn configurable_pool_allocated_arrays_are_cleared_date_time() {
    configurable_pool_allocated_arrays_are_cleared::<Duration>();
}

/// The variable that tells this test binary, started again as a child, which row to check.
const CHILD_ROW: &str = "BUFPOOL_DOTNET_TESTS_CHILD_ROW";

/// .NET's `MaxArraysPerPartitionDefault`.
const MAX_ARRAYS_PER_PARTITION_DEFAULT: &str = "32";

/// The `InlineData` rows of `SharedPool_SetEnvironmentVariables_ValuesRespected`:
/// `(partitionCount, maxArraysPerPartition, expectedPartitionCount, expectedMaxArraysPerPartition)`.
fn environment_rows() -> Vec<(String, String, &'static str, &'static str)> {
    let spaces = " ".repeat(117);
    vec![
        (
            "".into(),
            "".into(),
            "2147483647",
            MAX_ARRAYS_PER_PARTITION_DEFAULT,
        ),
        (
            "0".into(),
            "0".into(),
            "2147483647",
            MAX_ARRAYS_PER_PARTITION_DEFAULT,
        ),
        ("1".into(), "2".into(), "1", "2"),
        ("2".into(), "1".into(), "2", "1"),
        ("4".into(), "123".into(), "4", "123"),
        ("1000".into(), "123".into(), "1000", "123"),
        ("   1    ".into(), "   2   ".into(), "1", "2"),
        (
            format!("{}1 ", " ".repeat(89)),
            format!("{}2{}", spaces.repeat(6), spaces.repeat(14)),
            "2147483647",
            MAX_ARRAYS_PER_PARTITION_DEFAULT,
        ),
    ]
}

/// `UnitTests.cs`, `SharedPool_SetEnvironmentVariables_ValuesRespected`, adapted: each row runs in
/// a child process of this test binary (.NET's `RemoteExecutor`) with the two variables set; the
/// child checks the configuration .NET's rules give ([`SharedPool::config`] where .NET reflects on
/// `SharedArrayPoolStatics`), makes the process-wide pool with it (`init_shared(SharedConfig::from_env())`:
/// the environment is opt-in here) and rents from it.
#[test]
fn shared_pool_set_environment_variables_values_respected() {
    const NAME: &str = "shared_pool_set_environment_variables_values_respected";
    let rows = environment_rows();
    if let Ok(row) = std::env::var(CHILD_ROW) {
        let (_, _, expected_partitions, expected_arrays) = &rows[row.parse::<usize>().unwrap()];
        check_environment_in_child(expected_partitions, expected_arrays);
        return;
    }
    let exe = std::env::current_exe().unwrap();
    for (row, (partition_count, max_arrays, ..)) in rows.iter().enumerate() {
        let out = std::process::Command::new(&exe)
            .args(["--exact", NAME, "--test-threads=1"])
            .env(CHILD_ROW, row.to_string())
            .env(ENV_MAX_PARTITION_COUNT, partition_count)
            .env(ENV_MAX_ARRAYS_PER_PARTITION, max_arrays)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && stdout.contains("test result: ok. 1 passed"),
            "row {row} ({partition_count:?}, {max_arrays:?}):\n{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// The child's side of `shared_pool_set_environment_variables_values_respected`.
fn check_environment_in_child(expected_partition_count: &str, expected_max_arrays: &str) {
    let processors = processor_count();
    let expected_partitions: u64 = expected_partition_count.parse().unwrap();
    let expected_partitions = if expected_partitions > 0 {
        expected_partitions.min(processors as u64) as usize
    } else {
        processors
    };
    let expected_arrays: usize = match expected_max_arrays.parse().unwrap() {
        0 => MAX_ARRAYS_PER_PARTITION_DEFAULT.parse().unwrap(),
        n => n,
    };

    let pool = SharedPool::<u8>::init_shared(SharedConfig::from_env()).unwrap();
    assert!(std::ptr::eq(pool, SharedPool::<u8>::shared()));
    let config = SharedPool::<u8>::shared().config();
    assert_eq!(config.partitions, expected_partitions);
    assert_eq!(config.arrays_per_partition, expected_arrays);

    // Make sure the pool is still usable
    for _ in 0..2 {
        let array = SharedPool::<u8>::shared().rent(123);
        assert!(array.capacity() >= 123);
    }
}

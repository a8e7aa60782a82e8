//! The articles' scenarios through the handle API: stale data (the 41-byte order line), use
//! after return and foreign returns, as the chapters stale-data and return-contract tell them
//! (the ownership API's are `bufpool/tests/pool_scenarios.rs`).

use bufpool::pool::{PoolError, SharedPool};
use course_pool::handle::{Handle, HandlePool};

const ORDER: &str = "1042|ต้มยำกุ้ง|2|18000\n";

fn nonzero(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b != 0).count()
}

#[test]
fn the_handle_api_shows_stale_data_too() {
    let pool = HandlePool::<u8>::new();
    let a = pool.rent(41).unwrap();
    a.write_slice(0, ORDER.as_bytes()).unwrap();
    pool.return_handle(&a, false).unwrap();
    let b = pool.rent(41).unwrap();
    assert_eq!(b.read_range(0, 41).unwrap(), ORDER.as_bytes());
    pool.return_handle(&b, true).unwrap();
    let c = pool.rent(41).unwrap();
    assert_eq!(nonzero(&c.to_vec().unwrap()), 0);
}

#[test]
fn a_handle_kept_after_return_overwrites_the_next_renter() {
    let pool = HandlePool::<u8>::new();
    let stale = pool.rent(64).unwrap();
    pool.return_handle(&stale, false).unwrap();
    let fresh = pool.rent(64).unwrap();
    fresh.write(0, 200).unwrap();
    stale.write(0, 99).unwrap();
    assert_eq!(fresh.read(0), Ok(99));
}

#[test]
fn a_foreign_buffer_of_bucket_length_is_accepted_with_its_value() {
    let pool = HandlePool::<u8>::new();
    let mine = Handle::from_vec(vec![0u8; 128]);
    mine.write(0, 77).unwrap();
    pool.return_handle(&mine, false).unwrap();
    let got = pool.rent(128).unwrap();
    assert!(got.ptr_eq(&mine));
    assert_eq!(got.read(0), Ok(77));

    // The ownership API has the same rule for raw buffers.
    let owned = SharedPool::<u8>::new();
    let mut foreign = vec![0u8; 128].into_boxed_slice();
    foreign[0] = 77;
    owned.return_boxed(foreign, false).unwrap();
    assert_eq!(owned.rent(128)[0], 77);
}

#[test]
fn a_foreign_buffer_of_another_length_is_refused_with_the_dotnet_message() {
    let pool = HandlePool::<u8>::new();
    let err = pool
        .return_handle(&Handle::from_vec(vec![0u8; 100]), false)
        .unwrap_err();
    assert_eq!(err, PoolError::NotAssociated { length: 100 });
    assert!(
        err.to_string()
            .contains("is not associated with this pool and may not be returned to it")
    );
}

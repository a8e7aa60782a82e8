//! Unit tests of the handle API and checked mode.

use super::*;

#[test]
fn absurd_requests_are_errors_not_panics() {
    let h = HandlePool::<u64>::new();
    assert!(h.rent(usize::MAX / 2).is_err());
}

#[test]
fn handle_double_return_shares_one_buffer() {
    let pool = HandlePool::<u8>::new();
    let x = pool.rent(64).unwrap();
    pool.return_handle(&x, false).unwrap();
    pool.return_handle(&x, false).unwrap();
    let r1 = pool.rent(64).unwrap();
    let r2 = pool.rent(64).unwrap();
    assert!(r1.ptr_eq(&r2));
    assert_eq!(r1.id(), r2.id());
    r1.write(0, 11).unwrap();
    assert_eq!(r2.read(0), Ok(11));
    assert_eq!(
        r1.read(64),
        Err(PoolError::OutOfBounds {
            start: 64,
            count: 1,
            length: 64
        })
    );
}

#[test]
fn checked_mode_reports_each_misuse() {
    let pool = HandlePool::<u8>::new().with_checked(true);
    let a = pool.rent(16).unwrap();
    a.write(0, 1).unwrap();
    pool.return_handle(&a, false).unwrap();
    assert_eq!(
        a.write(0, 2),
        Err(PoolError::UseAfterReturn { buffer: a.id() })
    );
    assert_eq!(
        pool.return_handle(&a, false),
        Err(PoolError::DoubleReturn { buffer: a.id() })
    );
    let b = pool.rent(16).unwrap();
    assert!(b.ptr_eq(&a));
    b.write(0, 3).unwrap();
    assert_eq!(
        pool.return_handle(&a, false),
        Err(PoolError::DoubleReturn { buffer: a.id() })
    );
    assert_eq!(b.read(0), Ok(3));
    let foreign = Handle::from_vec(vec![0u8; 16]);
    assert_eq!(
        pool.return_handle(&foreign, false),
        Err(PoolError::NotRented {
            buffer: foreign.id()
        })
    );
    let other = HandlePool::<u8>::new().with_checked(true);
    let c = other.rent(16).unwrap();
    assert_eq!(
        pool.return_handle(&c, false),
        Err(PoolError::NotRented { buffer: c.id() })
    );
}

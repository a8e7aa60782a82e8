let pool = bufpool::pool::SharedPool::<u8>::new();
let mut a = pool.rent(16);
a[0] = 42;
drop(a);                                   // returned without clearing
assert_eq!(pool.rent(16)[0], 42); // the next renter sees it

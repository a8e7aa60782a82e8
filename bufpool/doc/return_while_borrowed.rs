// Returning while a borrow of the data is alive: does not compile (E0505).
let pool = bufpool::pool::SharedPool::<u8>::new();
let buf = pool.rent(16);
let view: &[u8] = &buf;
drop(buf);        // cannot return while a borrow of the data is alive…
let _ = view[0];  // …because the borrow is still used here

// Double return: does not compile (E0382, use of moved value).
let pool = bufpool::pool::SharedPool::<u8>::new();
let buf = pool.rent(16);
drop(buf);
drop(buf); // double return: `buf` was moved by the first return

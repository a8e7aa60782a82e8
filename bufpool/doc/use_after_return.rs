// Use after return: does not compile (E0382).
let pool = bufpool::pool::SharedPool::<u8>::new();
let mut buf = pool.rent(16);
buf.return_cleared();
buf[0] = 1; // use after return

//! A server's read buffer: each request is read into a buffer rented from the shared pool and
//! handed back when the handler is done, so a steady stream of requests allocates once per
//! bucket instead of once per request.
//!
//! `cargo run -p bufpool --example read_buffer` — reads three "connections" (in-memory readers
//! standing in for sockets) on two threads and prints what the pool allocated.

use std::io::{self, Cursor, Read};
use std::thread;

use bufpool::pool::{PoolError, SharedPool};

/// Reads one request body (up to `max` bytes) into a pooled buffer and returns its checksum; the
/// buffer goes back to the pool when `body` drops at the end of the function, on every path.
fn handle(conn: &mut impl Read, max: usize) -> io::Result<u32> {
    let pool = SharedPool::<u8>::shared();
    let mut body = pool.try_rent(max).map_err(to_io)?;
    let mut filled = 0;
    while filled < body.len() {
        let n = conn.read(&mut body[filled..])?;
        if n == 0 {
            break;
        }
        filled += n;
    }
    // Only `filled` bytes are this request's: the rest of the bucket may hold an earlier
    // request's bytes (the course's "stale data" chapter), so never read past `filled`.
    Ok(body[..filled].iter().map(|&b| u32::from(b)).sum())
}

fn to_io(e: PoolError) -> io::Error {
    io::Error::other(e.to_string())
}

fn main() -> io::Result<()> {
    let workers: Vec<_> = (0..2)
        .map(|worker| {
            thread::spawn(move || -> io::Result<u32> {
                let mut total = 0;
                for request in 0..1_000u32 {
                    let text = format!("worker {worker} request {request}: GET /orders/{request}");
                    total += handle(&mut Cursor::new(text.into_bytes()), 4096)?;
                }
                Ok(total)
            })
        })
        .collect();
    for (i, w) in workers.into_iter().enumerate() {
        let sum = w.join().expect("a worker panicked")?;
        println!("worker {i}: 1,000 requests read, checksum {sum}");
    }
    let stats = SharedPool::<u8>::shared().stats();
    println!(
        "the shared pool allocated {} buffer(s) for 2,000 requests (one 4 KiB bucket per thread, \
         at most)",
        stats.allocated()
    );
    Ok(())
}

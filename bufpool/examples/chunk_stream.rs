//! Chunking a stream: numbers arrive one by one (here, lines of a reader), and each chunk of up to
//! `CHUNK` of them is processed in a buffer rented once and reused for every chunk, the way the
//! course's "Chunking" chapter reuses one buffer instead of allocating a new array per chunk as
//! .NET's `Enumerable.Chunk` does.
//!
//! `cargo run -p bufpool --example chunk_stream`

use std::io::{BufRead, Cursor};

use bufpool::pool::SharedPool;

const CHUNK: usize = 20_000;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // A stream of 1,000,000 numbers, one per line, as a file or a socket would deliver them.
    let text: String = (0..1_000_000).map(|i| format!("{}\n", i % 1_000)).collect();
    let mut lines = Cursor::new(text).lines();

    let pool = SharedPool::<i32>::shared();
    // One buffer for every chunk: the pool rounds 20,000 up to its 32,768-element bucket, and the
    // guard gives back exactly the 20,000 asked for.
    let mut chunk = pool.rent(CHUNK);
    let (mut chunks, mut largest) = (0, i32::MIN);
    loop {
        let mut filled = 0;
        while filled < CHUNK {
            match lines.next() {
                Some(line) => {
                    chunk[filled] = line?.trim().parse()?;
                    filled += 1;
                }
                None => break,
            }
        }
        if filled == 0 {
            break;
        }
        // Only `chunk[..filled]` is this chunk: a short last chunk leaves the previous
        // chunk's numbers after it.
        largest = largest.max(chunk[..filled].iter().copied().max().unwrap_or(i32::MIN));
        chunks += 1;
    }
    drop(chunk);
    println!(
        "{chunks} chunks of up to {CHUNK} numbers, largest {largest}; the pool allocated {} buffer",
        pool.stats().allocated()
    );
    Ok(())
}

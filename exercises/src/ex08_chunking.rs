#![allow(
    unused_variables,
    reason = "the skeleton's bodies are todo!(): your code uses them"
)]
// ANCHOR: exercise
//! # Exercise 8: the enumerable chunker's growth, counted
//!
//! Chapter: Chunking (`book/src/chunking.md`).
//!
//! .NET's `Chunk` on a source that is not an array does not know how long the first chunk will
//! be: it starts with an array of `min(size, 4)` and, each time that is full, allocates one
//! twice as long (capped at `size`) and copies. A chunk that ends short is copied once more into
//! an array of its exact length. Later chunks start at `size` at once. So the first chunk of
//! 20,000 `int`s costs 14 arrays: 4, 8, …, 16,384 and 20,000. Write it:
//!
//! - `first_chunk_arrays(items, size)`: the lengths of the arrays allocated for a first chunk
//!   that ends with `items` elements (`1 <= items <= size`), in order.
//! - `chunk_like_dotnet(source, size, each)`: hands each chunk to `each` as a `Box<[i32]>`,
//!   allocating exactly those arrays (grow by allocating a new box and copying, as
//!   `Array.Resize` does: no `Vec` growth, no `realloc`). A later chunk allocates an array of
//!   `size`, and a trimmed copy if it ends short. Size 0 is `Err(ZeroSize)`.
//!
//! The tests count what your chunker allocates with the course's counting allocator and compare
//! it with the lab's port of .NET's `EnumerableChunkIterator`.
//!
//! Grade it: `cargo xtask exercises` (or `cargo test -p exercises --test ex08_chunking`).

/// A chunk size of 0: .NET throws `ArgumentOutOfRangeException`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ZeroSize;

/// The lengths of the arrays .NET allocates for a first chunk of `items` elements.
pub fn first_chunk_arrays(items: usize, size: usize) -> Vec<usize> {
    todo!()
}

/// Chunks `source` into arrays of `size` as .NET's enumerable path does.
pub fn chunk_like_dotnet(
    source: impl Iterator<Item = i32>,
    size: usize,
    each: &mut dyn FnMut(Box<[i32]>),
) -> Result<(), ZeroSize> {
    todo!()
}
// ANCHOR_END: exercise

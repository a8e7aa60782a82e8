//! Exercise 8, the reference solution: the enumerable chunker's growth, counted.

// ANCHOR: solution
/// A chunk size of 0: .NET throws `ArgumentOutOfRangeException`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ZeroSize;

/// The lengths of the arrays .NET allocates for a first chunk of `items` elements.
pub fn first_chunk_arrays(items: usize, size: usize) -> Vec<usize> {
    let mut cap = size.min(4);
    let mut lengths = vec![cap];
    while cap < items {
        cap = (cap * 2).min(size);
        lengths.push(cap);
    }
    if cap != items {
        lengths.push(items);
    }
    lengths
}

/// `Array.Resize`: a new array of `len`, the old elements copied in.
fn resize(old: &[i32], len: usize) -> Box<[i32]> {
    let mut new = vec![0; len].into_boxed_slice();
    let n = old.len().min(len);
    new[..n].copy_from_slice(&old[..n]);
    new
}

/// Chunks `source` into arrays of `size` as .NET's enumerable path does.
pub fn chunk_like_dotnet(
    mut source: impl Iterator<Item = i32>,
    size: usize,
    each: &mut dyn FnMut(Box<[i32]>),
) -> Result<(), ZeroSize> {
    if size == 0 {
        return Err(ZeroSize);
    }
    let mut start = size.min(4);
    // `MoveNext` before anything is allocated: an empty source costs nothing.
    while let Some(first) = source.next() {
        let mut array = vec![0; start].into_boxed_slice();
        array[0] = first;
        let mut n = 1;
        while n < size {
            let Some(item) = source.next() else { break };
            if n == array.len() {
                let grown = (array.len() * 2).min(size);
                array = resize(&array, grown);
            }
            array[n] = item;
            n += 1;
        }
        if n != array.len() {
            array = resize(&array, n);
        }
        each(array);
        start = size;
    }
    Ok(())
}
// ANCHOR_END: solution

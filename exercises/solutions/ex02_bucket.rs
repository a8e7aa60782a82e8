//! Exercise 2, the reference solution: bucket index, length and waste.

// ANCHOR: solution
/// Number of buckets: 16, 32, …, 2^30 elements.
pub const BUCKET_COUNT: usize = 27;

/// The largest bucket's length; longer requests are never pooled.
pub const MAX_BUCKET_LEN: usize = 1 << 30;

/// What the shared pool does with a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rounding {
    /// `rent(0)`: the shared empty buffer.
    Empty,
    /// Served from bucket `index`, whose buffers have `length` elements.
    Bucket { index: usize, length: usize },
    /// Over the largest bucket: an exact-length buffer, never pooled.
    Oversize { length: usize },
}

/// The bucket index of a request of `n >= 1` elements: `log2((n - 1) | 15) - 3`.
pub fn bucket_index(n: usize) -> usize {
    // `| 15` folds 1 ..= 16 into one value whose log2 is 3; `ilog2` of a non-zero value is total.
    ((n - 1) | 15).ilog2() as usize - 3
}

/// The length of bucket `index`'s buffers: `16 << index`.
pub fn bucket_length(index: usize) -> usize {
    16 << index
}

/// The full decision for a request of `n` elements.
pub fn round(n: usize) -> Rounding {
    match n {
        0 => Rounding::Empty,
        n if n > MAX_BUCKET_LEN => Rounding::Oversize { length: n },
        n => {
            let index = bucket_index(n);
            Rounding::Bucket {
                index,
                length: bucket_length(index),
            }
        }
    }
}

/// Elements handed out beyond the request: the part of the buffer that is not your data.
pub fn wasted(n: usize) -> usize {
    match round(n) {
        Rounding::Bucket { length, .. } => length - n,
        Rounding::Empty | Rounding::Oversize { .. } => 0,
    }
}
// ANCHOR_END: solution

//! Bucket arithmetic of the shared pool: which power-of-two bucket serves a request.
//!
//! This is .NET's `SharedArrayPool` rounding, reproduced exactly because the course teaches it:
//! a request of `n` elements is served from bucket `log2((n - 1) | 15) - 3`, whose buffers are
//! `16 << index` elements long. There are [`BUCKET_COUNT`] buckets, from 16 elements up to
//! 2^30 ([`MAX_BUCKET_LEN`]).
//!
//! ```
//! use bufpool::bucket::{self, Rounding};
//!
//! // A 100-byte request is served by the 128-byte bucket: 28 bytes are never yours.
//! let r = bucket::round(100);
//! assert_eq!(r, Rounding::Bucket { index: 3, length: 128 });
//! assert_eq!(r.wasted(100), 28);
//! ```

/// Number of buckets in the shared pool: 16, 32, …, 2^30 elements.
pub const BUCKET_COUNT: usize = 27;

/// Length of the smallest bucket, in elements.
pub const MIN_BUCKET_LEN: usize = 16;

/// Length of the largest bucket (2^30 elements); larger requests are never pooled.
pub const MAX_BUCKET_LEN: usize = MIN_BUCKET_LEN << (BUCKET_COUNT - 1);

const _: () = assert!(MAX_BUCKET_LEN == 1 << 30);

/// What the shared pool does with a request of a given length.
///
/// Exhaustive on purpose: every length is empty, in a bucket or above the largest one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(tag = "kind", rename_all = "snake_case"))]
pub enum Rounding {
    /// `rent(0)`: the shared empty buffer, never pooled.
    Empty,
    /// Served from bucket `index`, whose buffers have `length` elements.
    Bucket { index: usize, length: usize },
    /// Longer than the largest bucket: an exact-length buffer that is never pooled.
    Oversize { length: usize },
}

impl Rounding {
    /// Length of the buffer handed out, in elements.
    pub fn length(self) -> usize {
        match self {
            Rounding::Empty => 0,
            Rounding::Bucket { length, .. } | Rounding::Oversize { length } => length,
        }
    }

    /// Elements handed out beyond the `request` (the part of the buffer that is not your data).
    pub fn wasted(self, request: usize) -> usize {
        self.length().saturating_sub(request)
    }

    /// Whether a buffer from this request goes back into the pool on return.
    pub fn is_pooled(self) -> bool {
        matches!(self, Rounding::Bucket { .. })
    }
}

/// Bucket index for a request of `n >= 1` elements: `log2((n - 1) | 15) - 3`.
///
/// Returns an index of [`BUCKET_COUNT`] or more for requests above [`MAX_BUCKET_LEN`], exactly as
/// .NET's `SelectBucketIndex` does; use [`round`] for the full decision including `0`.
///
/// ```
/// use bufpool::bucket::select_bucket_index;
/// assert_eq!(select_bucket_index(1), 0);
/// assert_eq!(select_bucket_index(16), 0);
/// assert_eq!(select_bucket_index(17), 1);
/// assert_eq!(select_bucket_index(1 << 30), 26);
/// ```
pub fn select_bucket_index(n: usize) -> usize {
    debug_assert!(n >= 1, "select_bucket_index(0) is not a pool request");
    // `| 15` folds every request of 1..=16 into bucket 0; `ilog2` of a non-zero value cannot fail.
    let folded = (n.wrapping_sub(1) | 15) as u64;
    folded.ilog2() as usize - 3
}

/// Length of the buffers in bucket `index`: `16 << index`.
///
/// ```
/// assert_eq!(bufpool::bucket::bucket_length(3), 128);
/// ```
pub const fn bucket_length(index: usize) -> usize {
    MIN_BUCKET_LEN << index
}

/// The bucket a buffer of exactly `len` elements belongs to, if `len` is a bucket length.
///
/// This is the check a return makes: only buffers of a bucket length are accepted.
///
/// ```
/// use bufpool::bucket::bucket_of_length;
/// assert_eq!(bucket_of_length(128), Some(3));
/// assert_eq!(bucket_of_length(100), None);
/// ```
pub fn bucket_of_length(len: usize) -> Option<usize> {
    if !(MIN_BUCKET_LEN..=MAX_BUCKET_LEN).contains(&len) || !len.is_power_of_two() {
        return None;
    }
    Some(select_bucket_index(len))
}

/// The full rounding decision for a request of `n` elements, as .NET's shared pool makes it.
///
/// ```
/// use bufpool::bucket::{round, Rounding};
/// assert_eq!(round(0), Rounding::Empty);
/// assert_eq!(round(1_048_577), Rounding::Bucket { index: 17, length: 2_097_152 });
/// assert_eq!(round((1 << 30) + 1), Rounding::Oversize { length: (1 << 30) + 1 });
/// ```
pub fn round(n: usize) -> Rounding {
    if n == 0 {
        return Rounding::Empty;
    }
    if n > MAX_BUCKET_LEN {
        return Rounding::Oversize { length: n };
    }
    let index = select_bucket_index(n);
    Rounding::Bucket {
        index,
        length: bucket_length(index),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn check(request: usize, expect: Rounding) {
        assert_eq!(round(request), expect, "request {request}");
    }

    /// The 18 requests of the Thai article's table, which the bucket-rounding chapter shows
    /// (0, 1, 7, 15, 16, 17, 100, 128, 129, 1,000, 1,024, 1,025, 10,000, 65,536, 100,000,
    /// 1,000,000, 1,048,576 and 1,048,577 elements).
    #[test]
    fn course_table() {
        use Rounding::*;
        check(0, Empty);
        for n in [1, 7, 15, 16] {
            check(
                n,
                Bucket {
                    index: 0,
                    length: 16,
                },
            );
        }
        check(
            17,
            Bucket {
                index: 1,
                length: 32,
            },
        );
        check(
            100,
            Bucket {
                index: 3,
                length: 128,
            },
        );
        check(
            128,
            Bucket {
                index: 3,
                length: 128,
            },
        );
        check(
            129,
            Bucket {
                index: 4,
                length: 256,
            },
        );
        check(
            1_000,
            Bucket {
                index: 6,
                length: 1_024,
            },
        );
        check(
            1_024,
            Bucket {
                index: 6,
                length: 1_024,
            },
        );
        check(
            1_025,
            Bucket {
                index: 7,
                length: 2_048,
            },
        );
        check(
            10_000,
            Bucket {
                index: 10,
                length: 16_384,
            },
        );
        check(
            65_536,
            Bucket {
                index: 12,
                length: 65_536,
            },
        );
        check(
            100_000,
            Bucket {
                index: 13,
                length: 131_072,
            },
        );
        check(
            1_000_000,
            Bucket {
                index: 16,
                length: 1_048_576,
            },
        );
        check(
            1_048_576,
            Bucket {
                index: 16,
                length: 1_048_576,
            },
        );
        check(
            1_048_577,
            Bucket {
                index: 17,
                length: 2_097_152,
            },
        );
    }

    #[test]
    fn edges_of_the_largest_bucket() {
        check(
            MAX_BUCKET_LEN,
            Rounding::Bucket {
                index: 26,
                length: MAX_BUCKET_LEN,
            },
        );
        check(
            MAX_BUCKET_LEN + 1,
            Rounding::Oversize {
                length: MAX_BUCKET_LEN + 1,
            },
        );
        check(usize::MAX, Rounding::Oversize { length: usize::MAX });
    }

    #[test]
    fn every_bucket_length_maps_back_to_its_bucket() {
        for index in 0..BUCKET_COUNT {
            assert_eq!(bucket_of_length(bucket_length(index)), Some(index));
            assert_eq!(bucket_of_length(bucket_length(index) + 1), None);
        }
        assert_eq!(bucket_of_length(0), None);
        assert_eq!(bucket_of_length(8), None);
        assert_eq!(bucket_of_length(MAX_BUCKET_LEN * 2), None);
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The bucket is the smallest power of two of at least 16 that holds the request.
        #[test]
        fn bucket_is_the_tightest_fit(n in 1usize..=MAX_BUCKET_LEN) {
            let Rounding::Bucket { index, length } = round(n) else {
                panic!("request {n} in range must be pooled");
            };
            prop_assert!(index < BUCKET_COUNT);
            prop_assert!(length >= n);
            prop_assert_eq!(length, n.next_power_of_two().max(MIN_BUCKET_LEN));
            prop_assert!(index == 0 || bucket_length(index - 1) < n);
        }

        #[test]
        fn oversize_is_exact(n in (MAX_BUCKET_LEN + 1)..usize::MAX) {
            prop_assert_eq!(round(n), Rounding::Oversize { length: n });
            prop_assert_eq!(round(n).wasted(n), 0);
        }
    }
}

//! Every way a pool call can be refused, as one typed error.

use std::fmt;

/// Why a pool refused a call. Every misuse of the pool is one of these; the `try_` methods
/// return it and never panic (the infallible `rent` panics with its message, as `Vec` does).
///
/// The [`Display`](fmt::Display) text is for the programmer using the crate, in the style of
/// Rust's standard errors (lowercase, no trailing period): the value, and the rule it broke.
/// Where .NET throws for the same case, the text keeps .NET's words, so that code ported from
/// .NET reads the error it expects. A program that shows errors to its own users words them
/// itself from the variant's fields (the course's pages do, in three languages).
///
/// `#[non_exhaustive]`: a later version may refuse a call for a new reason; match with a
/// wildcard arm.
///
/// ```
/// use bufpool::pool::PoolError;
/// let e = PoolError::NotAssociated { length: 100 };
/// assert_eq!(
///     e.to_string(),
///     "buffer of length 100 is not associated with this pool and may not be returned to it: \
///      it is not a bucket length"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PoolError {
    /// A returned buffer's length is not the length of any bucket (.NET's `ArgumentException`).
    NotAssociated {
        /// Length of the refused buffer, in elements.
        length: usize,
    },
    /// A negative request size, from [`checked_len`]: for a length that arrives signed (code
    /// ported from C#, where lengths are `int`, or a number typed into a form).
    NegativeLength {
        /// The request as given.
        requested: i64,
    },
    /// No buffer of this many elements could be allocated: its size in bytes exceeds
    /// `isize::MAX` (as `Vec`'s capacity overflow), or the allocator had no memory for it.
    AllocationFailed {
        /// Requested length, in elements.
        length: usize,
        /// Size of one element, in bytes.
        element_size: usize,
    },
    /// A pool configuration value is out of range.
    InvalidConfig {
        /// Which setting.
        setting: &'static str,
        /// The value given.
        value: usize,
        /// What is accepted.
        expected: &'static str,
    },
    /// An index or range outside the buffer.
    OutOfBounds {
        /// First element asked for.
        start: usize,
        /// Number of elements asked for.
        count: usize,
        /// Length that was available.
        length: usize,
    },
    /// [`SharedPool::init_shared`](super::SharedPool::init_shared) after the process-wide pool
    /// for the element type was made.
    SharedExists {
        /// The existing pool's id.
        pool: u64,
    },
    /// Reported by a front end that tracks its buffers (such as a handle API built over
    /// [`engine`](super::engine)); this crate's own pools never return it, since a guard cannot
    /// be returned twice. This buffer was returned already and not rented since.
    DoubleReturn {
        /// The buffer's id.
        buffer: u64,
    },
    /// A tracking front end (see [`DoubleReturn`](Self::DoubleReturn)): this buffer was used
    /// after its return, while a later renter may hold it.
    UseAfterReturn {
        /// The buffer's id.
        buffer: u64,
    },
    /// A tracking front end (see [`DoubleReturn`](Self::DoubleReturn)): this buffer was never
    /// handed out by this pool.
    NotRented {
        /// The buffer's id.
        buffer: u64,
    },
}

impl fmt::Display for PoolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PoolError::NotAssociated { length } => write!(
                f,
                "buffer of length {length} is not associated with this pool and may not be \
                 returned to it: it is not a bucket length"
            ),
            PoolError::NegativeLength { requested } => {
                write!(
                    f,
                    "length {requested} is negative: a buffer's length is 0 or more"
                )
            }
            PoolError::AllocationFailed {
                length,
                element_size,
            } => write!(
                f,
                "could not allocate {length} elements of {element_size} bytes: the size \
                 exceeds isize::MAX bytes or the allocator is out of memory"
            ),
            PoolError::InvalidConfig {
                setting,
                value,
                expected,
            } => write!(
                f,
                "{setting} = {value} is out of range: expected {expected}"
            ),
            PoolError::OutOfBounds {
                start,
                count,
                length,
            } => write!(
                f,
                "elements {start}..{} are outside the buffer of length {length}",
                start.saturating_add(count)
            ),
            PoolError::SharedExists { pool } => write!(
                f,
                "the shared pool for this element type already exists (pool #{pool}): \
                 init_shared must come before the first shared()"
            ),
            PoolError::DoubleReturn { buffer } => write!(
                f,
                "buffer #{buffer} was returned twice: two later renters would share it"
            ),
            PoolError::UseAfterReturn { buffer } => write!(
                f,
                "buffer #{buffer} was used after it was returned: the write would land in the next renter's data"
            ),
            PoolError::NotRented { buffer } => write!(
                f,
                "buffer #{buffer} was never rented from this pool and may not be returned to it"
            ),
        }
    }
}

impl std::error::Error for PoolError {}

/// Converts a signed request size (as code ported from C# or a form passes it) into a length:
/// a negative one is [`PoolError::NegativeLength`], one above `usize::MAX` (on a 32-bit target)
/// [`PoolError::AllocationFailed`], since no buffer could be that long.
///
/// ```
/// use bufpool::pool::{checked_len, PoolError};
/// assert_eq!(checked_len(41), Ok(41));
/// assert_eq!(checked_len(-1), Err(PoolError::NegativeLength { requested: -1 }));
/// ```
pub fn checked_len(requested: i64) -> Result<usize, PoolError> {
    usize::try_from(requested).map_err(|_| {
        if requested < 0 {
            PoolError::NegativeLength { requested }
        } else {
            PoolError::AllocationFailed {
                length: usize::MAX,
                element_size: 1,
            }
        }
    })
}

//! Every way a pool call can be refused, as one typed error.

use std::fmt;

/// Why a pool refused a call. Every misuse of the pool is one of these, never a panic.
///
/// The [`Display`](fmt::Display) text is written for a reader of the course: it says what happened
/// and, where .NET has a message for the same case, it is .NET's message.
///
/// ```
/// use bufpool::pool::PoolError;
/// let e = PoolError::NotAssociated { length: 100 };
/// assert_eq!(
///     e.to_string(),
///     "The buffer is not associated with this pool and may not be returned to it. (length 100 is not a bucket length)"
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
    /// A negative request size (possible only through [`checked_len`]: widgets take signed input).
    NegativeLength {
        /// The request as given.
        requested: i64,
    },
    /// The allocator could not provide a buffer of this many elements.
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
    /// A checking front end (the course's handle API): this buffer was returned already and not rented since.
    DoubleReturn {
        /// The buffer's id.
        buffer: u64,
    },
    /// A checking front end: this handle's lease ended (it was returned) and a later lease may be running.
    UseAfterReturn {
        /// The buffer's id.
        buffer: u64,
    },
    /// A checking front end: this buffer was never handed out by this pool.
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
                "The buffer is not associated with this pool and may not be returned to it. \
                 (length {length} is not a bucket length)"
            ),
            PoolError::NegativeLength { requested } => {
                write!(f, "a buffer cannot have a negative length ({requested})")
            }
            PoolError::AllocationFailed {
                length,
                element_size,
            } => write!(
                f,
                "could not allocate a buffer of {length} elements of {element_size} bytes"
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

/// Converts a signed request size (as a widget or a C# port passes it) into a length.
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

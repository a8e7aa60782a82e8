//! The pool's and the chunker's errors in the page's language (issue 24). `bufpool` speaks
//! English to a programmer and depends on nothing of the course (its `Display` is the library's
//! own message); the lab tells readers the same facts in its own words, through its catalog. Where
//! .NET throws for the same case, the reader reads .NET's message, as the chapter quotes it. The
//! chunker's English is `course-pool`'s `Display`, word for word (a test checks every variant).

use bufpool::pool::PoolError;
use course_pool::chunk::ChunkError;
use lab_text::{t, tf};

/// `e` as a reader reads it, in the page's language.
pub fn pool_error(e: &PoolError) -> String {
    match *e {
        PoolError::NotAssociated { length } => tf!(
            "The buffer is not associated with this pool and may not be returned to it. (length {} is not a bucket length)",
            length
        ),
        PoolError::NegativeLength { requested } => {
            tf!("a buffer cannot have a negative length ({})", requested)
        }
        PoolError::AllocationFailed {
            length,
            element_size,
        } => tf!(
            "could not allocate a buffer of {} elements of {} bytes",
            length,
            element_size
        ),
        PoolError::InvalidConfig {
            setting,
            value,
            expected,
        } => tf!(
            "{} = {} is out of range: expected {}",
            setting,
            value,
            expected
        ),
        PoolError::OutOfBounds {
            start,
            count,
            length,
        } => tf!(
            "elements {}..{} are outside the buffer of length {}",
            start,
            start.saturating_add(count),
            length
        ),
        PoolError::DoubleReturn { buffer } => tf!(
            "buffer #{} was returned twice: two later renters would share it",
            buffer
        ),
        PoolError::UseAfterReturn { buffer } => tf!(
            "buffer #{} was used after it was returned: the write would land in the next renter's data",
            buffer
        ),
        PoolError::NotRented { buffer } => tf!(
            "buffer #{} was never rented from this pool and may not be returned to it",
            buffer
        ),
        // A variant added to the library later: its own English until the lab words it.
        _ => e.to_string(),
    }
}

/// `e` as a reader reads it, in the page's language (the strategy and source names are API
/// names and stay as they are).
pub fn chunk_error(e: &ChunkError) -> String {
    match e {
        ChunkError::ZeroSize => t!("chunk size must be at least 1").into_owned(),
        ChunkError::Unsupported { strategy, source } => tf!(
            "{} cannot chunk {}: it needs contiguous data",
            strategy.name(),
            source.name()
        ),
        ChunkError::CannotHold { strategy } => tf!(
            "{} lends each chunk until the next one, so chunks cannot be held",
            strategy.name()
        ),
        ChunkError::NoPool => t!("the pooled strategy needs a pool").into_owned(),
        ChunkError::Rent(e) => tf!("could not rent {} elements: {}", e.requested, e.reason),
        ChunkError::OutOfMemory { bytes } => tf!("could not allocate {} bytes", bytes),
        ChunkError::NotInstalled => {
            t!("allocation counts need the counting allocator as the global allocator").into_owned()
        }
        #[allow(unreachable_patterns, reason = "the enum may grow in the library")]
        _ => e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use course_pool::chunk::RentError;
    use course_pool::chunk::{SourceKind, Strategy};

    #[test]
    fn every_error_has_the_readers_english() {
        let pool = [
            PoolError::NotAssociated { length: 100 },
            PoolError::NegativeLength { requested: -1 },
            PoolError::AllocationFailed {
                length: 5,
                element_size: 8,
            },
            PoolError::InvalidConfig {
                setting: "max",
                value: 0,
                expected: "1 or more",
            },
            PoolError::OutOfBounds {
                start: 3,
                count: 9,
                length: 4,
            },
            PoolError::DoubleReturn { buffer: 7 },
            PoolError::UseAfterReturn { buffer: 7 },
            PoolError::NotRented { buffer: 7 },
        ];
        // The reader's English, which the catalogs translate: every variant has its own
        // wording (none falls back to the library's message).
        let reader = [
            "The buffer is not associated with this pool and may not be returned to it. (length 100 is not a bucket length)",
            "a buffer cannot have a negative length (-1)",
            "could not allocate a buffer of 5 elements of 8 bytes",
            "max = 0 is out of range: expected 1 or more",
            "elements 3..12 are outside the buffer of length 4",
            "buffer #7 was returned twice: two later renters would share it",
            "buffer #7 was used after it was returned: the write would land in the next renter's data",
            "buffer #7 was never rented from this pool and may not be returned to it",
        ];
        for (e, words) in pool.iter().zip(reader) {
            assert_eq!(pool_error(e), words);
        }
        let chunk = [
            ChunkError::ZeroSize,
            ChunkError::Unsupported {
                strategy: Strategy::SliceChunks,
                source: SourceKind::Yielded,
            },
            ChunkError::CannotHold {
                strategy: Strategy::SliceChunks,
            },
            ChunkError::NoPool,
            ChunkError::Rent(RentError {
                requested: 9,
                reason: "none left".into(),
            }),
            ChunkError::OutOfMemory { bytes: 12 },
            ChunkError::NotInstalled,
        ];
        for e in &chunk {
            assert_eq!(chunk_error(e), e.to_string());
        }
    }
}

//! The large-allocation cliff (chapter 6), the scenario: where .NET's large-object heap starts,
//! which pool requests the bucket rounding pushes into it, and the Rust analogue, glibc malloc's
//! mmap threshold.
//!
//! [`cliff`] is what the `cliff` widget (`web/cliff.rs`) shows for one request;
//! the chapter's quiz ([`crate::chapter::cliff::quiz`]) asks the same questions about fresh sizes.
//!
//! ```
//! use wasm_lab::chapter::cliff::scenario::{cliff, first_loh_length, Elem};
//! assert_eq!(first_loh_length(1), 84_976);
//! assert_eq!(first_loh_length(4), 21_244);
//! assert_eq!(first_loh_length(8), 10_622);
//! let c = cliff(81_920, Elem::Byte); // Stream.CopyTo's buffer
//! assert!(!c.dotnet_new_in_loh);    // new byte[81,920] stays in gen 0 …
//! assert_eq!(c.pool_length, Some(131_072));
//! assert!(c.pool_in_loh);           // … the pool's 131,072-byte bucket array does not
//! assert!(c.pool_pushes_into_loh);
//! ```

use serde::Serialize;

use bufpool::bucket::{self, Rounding};
use course_pool::chunk::dotnet::{DOTNET_ARRAY_HEADER_BYTES, DOTNET_LOH_THRESHOLD_BYTES};

/// glibc's default mmap threshold (`M_MMAP_THRESHOLD`, 128 KiB).
pub const GLIBC_MMAP_THRESHOLD: u64 = 128 * 1024;
/// The largest mmapped chunk whose free still raises the threshold (`DEFAULT_MMAP_THRESHOLD_MAX`
/// on 64-bit: 32 MiB).
pub const GLIBC_MMAP_THRESHOLD_MAX: u64 = 32 << 20;
/// glibc's smallest chunk on 64-bit (`MINSIZE`).
pub const GLIBC_MIN_CHUNK: u64 = 32;
/// Page size assumed for mmapped chunks (x86-64 Linux).
pub const PAGE: u64 = 4096;

/// Element types the chapter compares (.NET's `threshold` report rows).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Elem {
    /// `byte` / `u8`.
    Byte,
    /// `int` / `i32`.
    Int,
    /// A reference (or `long`): 8 bytes on x64.
    Reference,
}

impl Elem {
    pub const ALL: [Elem; 3] = [Elem::Byte, Elem::Int, Elem::Reference];

    pub fn size(self) -> u64 {
        match self {
            Elem::Byte => 1,
            Elem::Int => 4,
            Elem::Reference => 8,
        }
    }

    /// The name used in the widget's selector (`data-testid` values too).
    pub fn key(self) -> &'static str {
        match self {
            Elem::Byte => "byte",
            Elem::Int => "int",
            Elem::Reference => "reference",
        }
    }

    pub fn from_key(key: &str) -> Option<Elem> {
        Elem::ALL.into_iter().find(|e| e.key() == key)
    }
}

/// Bytes .NET asks the GC for an array of `len` elements of `elem_size` bytes, before alignment:
/// the 24-byte header plus the elements. This is what the LOH check compares (84,976 + 24 =
/// 85,000 is the first `byte[]` in the LOH; 84,975 stays in gen 0, as the Russian article measured).
pub fn dotnet_object_bytes(len: u64, elem_size: u64) -> u64 {
    DOTNET_ARRAY_HEADER_BYTES.saturating_add(len.saturating_mul(elem_size))
}

pub use course_pool::chunk::dotnet::in_loh;

/// The first array length that lands in the LOH, for elements of `elem_size` bytes.
pub fn first_loh_length(elem_size: u64) -> u64 {
    let elem_size = elem_size.max(1);
    (DOTNET_LOH_THRESHOLD_BYTES - DOTNET_ARRAY_HEADER_BYTES).div_ceil(elem_size)
}

/// glibc's chunk for `malloc(request)` on 64-bit: the request plus the 8-byte size word, rounded
/// up to 16, at least 32 (`request2size`: `max(32, (request + 23) & !15)`).
pub fn glibc_chunk(request: u64) -> u64 {
    (request.saturating_add(23) & !15).max(GLIBC_MIN_CHUNK)
}

/// The size of the mapping glibc makes when it serves `request` with mmap: chunk plus one more
/// size word, rounded up to a page. Freeing it raises the mmap threshold to this size (if it is
/// over the current threshold and at most 32 MiB).
pub fn glibc_mmapped_size(request: u64) -> u64 {
    glibc_chunk(request)
        .saturating_add(8)
        .div_ceil(PAGE)
        .saturating_mul(PAGE)
}

/// How glibc serves `malloc(request)` by the chapter's rule, and in how large a chunk: from the
/// heap under the default mmap threshold, by mmap at or over it (when the heap has no room to
/// spare, as in the chapter's table of the first mapped buffers: 133,993 bytes in a chunk of
/// 135,168). The widget's chunk line and the quiz's `glibc-chunk` answer both read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Served {
    /// A heap chunk: [`glibc_chunk`].
    Heap { chunk: u64 },
    /// A mapped chunk, whole pages: [`glibc_mmapped_size`].
    Mapped { chunk: u64 },
}

impl Served {
    /// The chunk's size in bytes.
    pub fn chunk(self) -> u64 {
        match self {
            Served::Heap { chunk } | Served::Mapped { chunk } => chunk,
        }
    }
}

/// The chapter's rule for `malloc(request)` ([`Served`]).
///
/// ```
/// use wasm_lab::chapter::cliff::scenario::{glibc_served, Served};
/// assert_eq!(glibc_served(100), Served::Heap { chunk: 112 });
/// assert_eq!(glibc_served(133_993), Served::Mapped { chunk: 135_168 });
/// assert_eq!(glibc_served(672_242), Served::Mapped { chunk: 675_840 });
/// ```
pub fn glibc_served(request: u64) -> Served {
    let chunk = glibc_chunk(request);
    if chunk >= GLIBC_MMAP_THRESHOLD {
        Served::Mapped {
            chunk: glibc_mmapped_size(request),
        }
    } else {
        Served::Heap { chunk }
    }
}

/// Everything the widget shows for one request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Cliff {
    /// Elements requested.
    pub request: u64,
    pub elem: Elem,
    /// `24 + request × size`.
    pub dotnet_bytes: u64,
    /// `new T[request]` goes to the LOH.
    pub dotnet_new_in_loh: bool,
    /// The first length of this element type in the LOH.
    pub first_loh_length: u64,
    /// The shared pool's bucket index (`None`: empty or oversize).
    pub pool_index: Option<usize>,
    /// Length of the array the pool hands out (`None` for a request of 0).
    pub pool_length: Option<u64>,
    /// The pool's array (bucket length) goes to the LOH when the pool has to allocate it.
    pub pool_in_loh: bool,
    /// The pool puts into the LOH what `new` would have kept out of it.
    pub pool_pushes_into_loh: bool,
    /// Bytes a Rust `Vec<T>` of `request` elements asks the allocator for (no header).
    pub rust_bytes: u64,
    /// glibc's chunk for those bytes, by the heap's rule.
    pub glibc_chunk: u64,
    /// The chunk reaches the default mmap threshold (served by mmap when the heap cannot serve it).
    pub glibc_at_threshold: bool,
    /// How glibc serves those bytes by the chapter's rule, and the chunk's size.
    pub glibc_served: Served,
    /// After freeing such an mmapped block, the threshold glibc moves to (`None`: unchanged).
    pub glibc_threshold_after_free: Option<u64>,
    /// The Rust pool's bucket buffer (bucket length × size) and whether its chunk reaches the
    /// threshold.
    pub rust_pool_bytes: Option<u64>,
    pub rust_pool_at_threshold: bool,
}

/// The cliff for a request of `request` elements of `elem`.
pub fn cliff(request: u64, elem: Elem) -> Cliff {
    let size = elem.size();
    let rounding = usize::try_from(request).map(bucket::round).ok();
    let (pool_index, pool_length) = match rounding {
        Some(Rounding::Bucket { index, length }) => (Some(index), Some(length as u64)),
        Some(Rounding::Empty) => (None, None),
        Some(Rounding::Oversize { length }) => (None, Some(length as u64)),
        None => (None, Some(request)),
    };
    let dotnet_new_in_loh = in_loh(request, size);
    let pool_in_loh = pool_length.is_some_and(|l| in_loh(l, size));
    let rust_bytes = request.saturating_mul(size);
    let chunk = glibc_chunk(rust_bytes);
    let glibc_served = glibc_served(rust_bytes);
    let glibc_at_threshold = matches!(glibc_served, Served::Mapped { .. });
    let rust_pool_bytes = pool_length.map(|l| l.saturating_mul(size));
    Cliff {
        request,
        elem,
        dotnet_bytes: dotnet_object_bytes(request, size),
        dotnet_new_in_loh,
        first_loh_length: first_loh_length(size),
        pool_index,
        pool_length,
        pool_in_loh,
        pool_pushes_into_loh: pool_in_loh && !dotnet_new_in_loh,
        rust_bytes,
        glibc_chunk: chunk,
        glibc_at_threshold,
        glibc_served,
        glibc_threshold_after_free: match glibc_served {
            Served::Mapped { chunk } => {
                (chunk > GLIBC_MMAP_THRESHOLD && chunk <= GLIBC_MMAP_THRESHOLD_MAX).then_some(chunk)
            }
            Served::Heap { .. } => None,
        },
        rust_pool_bytes,
        rust_pool_at_threshold: rust_pool_bytes
            .is_some_and(|b| glibc_chunk(b) >= GLIBC_MMAP_THRESHOLD),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use course_pool::chunk::dotnet::dotnet_array_bytes;

    #[test]
    fn the_russian_articles_edges() {
        assert!(!in_loh(84_975, 1) && in_loh(84_976, 1));
        assert!(!in_loh(21_243, 4) && in_loh(21_244, 4));
        assert!(!in_loh(10_621, 8) && in_loh(10_622, 8));
        // Aligned size is 85,000 for 84,975 bytes too: the LOH check is on the unaligned size.
        assert_eq!(dotnet_array_bytes(84_975, 1), 85_000);
        // The pool pushes 65,537 … 84,975 into the LOH.
        let pushes: Vec<u64> = (60_000..90_000)
            .filter(|&n| cliff(n, Elem::Byte).pool_pushes_into_loh)
            .collect();
        assert_eq!(
            (pushes.first(), pushes.last(), pushes.len()),
            (Some(&65_537), Some(&84_975), 84_975 - 65_537 + 1)
        );
        // The raised threshold of the article (0x30000 = 196,608) moves the same 24 bytes.
        assert_eq!(196_608 - DOTNET_ARRAY_HEADER_BYTES, 196_584);
    }

    #[test]
    fn glibc_formula() {
        assert_eq!(glibc_chunk(0), 32);
        assert_eq!(glibc_chunk(24), 32);
        assert_eq!(glibc_chunk(25), 48);
        assert_eq!(glibc_chunk(131_048), 131_056);
        assert_eq!(glibc_chunk(131_049), 131_072);
        assert!(!cliff(131_048, Elem::Byte).glibc_at_threshold);
        assert!(cliff(131_049, Elem::Byte).glibc_at_threshold);
        assert_eq!(glibc_mmapped_size(200_000), 200_704);
        assert_eq!(
            cliff(200_000, Elem::Byte).glibc_threshold_after_free,
            Some(200_704)
        );
        assert_eq!(cliff(64 << 20, Elem::Byte).glibc_threshold_after_free, None);
        // The Rust pool's 131,072-byte bucket is on the mmap side; a Vec of 81,920 bytes is not.
        let c = cliff(81_920, Elem::Byte);
        assert!(!c.glibc_at_threshold && c.rust_pool_at_threshold);
        // The requests the Rust pool's rounding pushes across glibc's default threshold.
        let pushed: Vec<u64> = (60_000..140_000)
            .filter(|&n| {
                let c = cliff(n, Elem::Byte);
                c.rust_pool_at_threshold && !c.glibc_at_threshold
            })
            .collect();
        assert_eq!(
            (pushed.first(), pushed.last(), pushed.len()),
            (Some(&65_537), Some(&131_048), 131_048 - 65_537 + 1)
        );
    }

    #[test]
    fn empty_and_oversize_requests() {
        let c = cliff(0, Elem::Byte);
        assert_eq!(
            (c.pool_length, c.pool_in_loh, c.glibc_chunk),
            (None, false, 32)
        );
        let c = cliff((1 << 30) + 1, Elem::Int);
        assert_eq!(c.pool_index, None);
        assert!(c.pool_in_loh && c.dotnet_new_in_loh && !c.pool_pushes_into_loh);
        let c = cliff(u64::MAX, Elem::Reference);
        assert!(c.dotnet_new_in_loh);
    }
}

//! A port of .NET's `Enumerable.Chunk` (`System.Linq/Chunk.cs`, .NET 9 and later).
//!
//! .NET picks one of two implementations by the argument's *run-time* type:
//!
//! ```text
//! if (source is TSource[] array)
//!     return array.Length != 0 ? ArrayChunkIterator(array, size) : [];
//! return EnumerableChunkIterator(source, size);
//! ```
//!
//! The parameter is declared `IEnumerable<TSource>`, so two calls that read the same pick
//! different paths: an `int[]` gets [`ArrayChunkIterator`], a `List<int>` or a `yield return`
//! method gets [`EnumerableChunkIterator`]. [`chunk`] reproduces that choice with
//! [`Source`]: a slice stands for the array, a `Vec` for the `List<T>`, and
//! [`Source::Yielded`] for the `yield return` method.
//!
//! Every .NET array is modelled as a `Box<[T]>` of exactly its length, allocated zeroed as
//! `new T[n]` is, and `Array.Resize` as allocate-new + copy + free-old ([`array_resize`]), never
//! as `realloc`, which could grow a block in place: so the allocation counts equal .NET's array
//! counts.
//!
//! ```
//! use course_pool::chunk::{dotnet, Source};
//!
//! let data: Vec<i32> = (0..10).collect();
//! let from_array = dotnet::chunk(Source::Slice(&data), 4).unwrap();
//! assert_eq!(from_array.path(), dotnet::Path::Array);
//! let from_list = dotnet::chunk(Source::Vec(&data), 4).unwrap();
//! assert_eq!(from_list.path(), dotnet::Path::Enumerable);
//! assert!(from_array.eq(from_list)); // same chunks, different allocations
//! ```

use std::iter::FusedIterator;

use serde::Serialize;

use super::{ChunkError, Element, Source, SourceElements, check_size};

/// `new T[len]`: one zeroed allocation of exactly `len` elements (none for `len == 0`).
pub fn new_array<T: Element>(len: usize) -> Box<[T]> {
    vec![T::default(); len].into_boxed_slice()
}

/// `Array.Resize(ref array, new_len)`: allocate a new zeroed array, copy the common prefix, free the
/// old one. Always one allocation and one deallocation, as in .NET (where the old array becomes
/// garbage), whether the array grows or shrinks.
pub fn array_resize<T: Element>(old: Box<[T]>, new_len: usize) -> Box<[T]> {
    let mut new = new_array(new_len);
    let n = old.len().min(new_len);
    new[..n].copy_from_slice(&old[..n]);
    drop(old);
    new
}

/// Which implementation .NET's `Chunk` runs for a source.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Path {
    /// An empty array: .NET returns an empty `T[][]` and creates no iterator.
    EmptyArray,
    /// `ArrayChunkIterator`: each chunk copied once at its exact size.
    Array,
    /// `EnumerableChunkIterator`: the first chunk grows 4, 8, 16, …; later chunks at full size.
    Enumerable,
}

impl Path {
    /// The .NET name of the implementation (the article's `blocks` report prints the compiler's
    /// names, ``<ArrayChunkIterator>d__39`1`` and ``<EnumerableChunkIterator>d__40`1``).
    pub fn name(self) -> &'static str {
        match self {
            Path::EmptyArray => "empty array (no iterator)",
            Path::Array => "ArrayChunkIterator",
            Path::Enumerable => "EnumerableChunkIterator",
        }
    }
}

/// .NET's `Enumerable.Chunk(source, size)`: picks the path from the source's kind.
///
/// # Errors
///
/// [`ChunkError::ZeroSize`] for `size == 0` (.NET throws `ArgumentOutOfRangeException` for
/// `size < 1`).
///
/// # Examples
///
/// ```
/// use course_pool::chunk::{dotnet, Source};
///
/// let empty: [u8; 0] = [];
/// let c = dotnet::chunk(Source::Slice(&empty), 3).unwrap();
/// assert_eq!(c.path(), dotnet::Path::EmptyArray);
/// assert_eq!(c.count(), 0);
/// assert!(dotnet::chunk(Source::Slice(&[1u8]), 0).is_err());
/// ```
pub fn chunk<'a, T: Element>(
    source: Source<'a, T>,
    size: usize,
) -> Result<DotnetChunk<'a, T>, ChunkError> {
    check_size(size)?;
    Ok(match source {
        Source::Slice([]) => DotnetChunk::Empty,
        Source::Slice(s) => DotnetChunk::Array(ArrayChunkIterator::new(s, size)?),
        Source::Vec(_) | Source::Yielded(_) => {
            DotnetChunk::Enumerable(EnumerableChunkIterator::new(source.elements(), size)?)
        }
    })
}

/// What [`chunk`] returns: one of .NET's two iterators, or nothing for an empty array.
#[derive(Debug)]
pub enum DotnetChunk<'a, T> {
    /// An empty array source.
    Empty,
    /// An array (slice) source.
    Array(ArrayChunkIterator<'a, T>),
    /// Any other source.
    Enumerable(EnumerableChunkIterator<SourceElements<'a, T>>),
}

impl<T> DotnetChunk<'_, T> {
    /// The path .NET would take for this source.
    pub fn path(&self) -> Path {
        match self {
            DotnetChunk::Empty => Path::EmptyArray,
            DotnetChunk::Array(_) => Path::Array,
            DotnetChunk::Enumerable(_) => Path::Enumerable,
        }
    }
}

impl<T: Element> Iterator for DotnetChunk<'_, T> {
    type Item = Box<[T]>;

    fn next(&mut self) -> Option<Box<[T]>> {
        match self {
            DotnetChunk::Empty => None,
            DotnetChunk::Array(it) => it.next(),
            DotnetChunk::Enumerable(it) => it.next(),
        }
    }
}

impl<T: Element> FusedIterator for DotnetChunk<'_, T> {}

// === impl ArrayChunkIterator ===

/// .NET's `ArrayChunkIterator`: each chunk is one allocation of exactly its length, a copy of
/// `source[i..i + min(size, len - i)]`.
///
/// ```
/// use course_pool::chunk::dotnet::ArrayChunkIterator;
///
/// let chunks: Vec<Box<[u8]>> = ArrayChunkIterator::new(&[1, 2, 3, 4, 5], 2).unwrap().collect();
/// assert_eq!(chunks, [vec![1, 2].into(), vec![3, 4].into(), vec![5].into()]);
/// ```
#[derive(Clone, Debug)]
pub struct ArrayChunkIterator<'a, T> {
    source: &'a [T],
    size: usize,
    index: usize,
}

impl<'a, T> ArrayChunkIterator<'a, T> {
    /// Chunks `source` into copies of `size` elements (the last may be shorter).
    ///
    /// # Errors
    ///
    /// [`ChunkError::ZeroSize`] for `size == 0`.
    pub fn new(source: &'a [T], size: usize) -> Result<Self, ChunkError> {
        check_size(size)?;
        Ok(ArrayChunkIterator {
            source,
            size,
            index: 0,
        })
    }
}

impl<T: Element> Iterator for ArrayChunkIterator<'_, T> {
    type Item = Box<[T]>;

    fn next(&mut self) -> Option<Box<[T]>> {
        let rest = self.source.get(self.index..).filter(|r| !r.is_empty())?;
        let n = self.size.min(rest.len());
        self.index += n;
        // `new ReadOnlySpan<T>(source, i, n).ToArray()`: one allocation of exactly `n` elements.
        Some(Box::from(&rest[..n]))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.source.len() - self.index).div_ceil(self.size);
        (n, Some(n))
    }
}

impl<T: Element> ExactSizeIterator for ArrayChunkIterator<'_, T> {}
impl<T: Element> FusedIterator for ArrayChunkIterator<'_, T> {}

// === impl EnumerableChunkIterator ===

/// .NET's `EnumerableChunkIterator`: for sources that are not arrays.
///
/// Nothing is allocated before the first element exists. The first chunk starts in an array of
/// `min(size, 4)` elements that doubles (capped at `size`) whenever it is full, each growth a new
/// array and a copy; the array that reaches `size` is the chunk, and every later chunk is allocated
/// once at `size`. A chunk that ends early (the source ran out) is trimmed to its length with one
/// more `Array.Resize`.
///
/// So a first chunk of `size` elements costs `1 + ceil(log2(size / min(size, 4)))` arrays:
///
/// ```
/// use course_pool::chunk::dotnet::EnumerableChunkIterator;
///
/// // 20,000 `i32`: 4, 8, …, 16,384, then 20,000; 14 arrays for the first chunk.
/// let lengths = EnumerableChunkIterator::<std::iter::Empty<i32>>::first_chunk_arrays(20_000, 20_000);
/// assert_eq!(lengths.len(), 14);
/// assert_eq!(lengths.iter().sum::<usize>(), 52_764); // × 4 bytes = 211,056 B
///
/// // 10 items at size 100: 4, 8, 16, then trimmed to 10.
/// let mut it = EnumerableChunkIterator::new(1..=10_i32, 100).unwrap();
/// assert_eq!(it.next().unwrap().len(), 10);
/// assert!(it.next().is_none());
/// ```
#[derive(Clone, Debug)]
pub struct EnumerableChunkIterator<I> {
    source: I,
    size: usize,
    /// .NET's `arraySize` local: the length of the next array to allocate.
    array_size: usize,
    done: bool,
}

impl<I> EnumerableChunkIterator<I> {
    /// Chunks the elements of `source` into arrays of `size`.
    ///
    /// # Errors
    ///
    /// [`ChunkError::ZeroSize`] for `size == 0`.
    pub fn new(source: I, size: usize) -> Result<Self, ChunkError> {
        check_size(size)?;
        Ok(EnumerableChunkIterator {
            source,
            size,
            array_size: size.min(4),
            done: false,
        })
    }

    /// Lengths of the arrays .NET allocates for a *first* chunk that ends up with `items` elements
    /// (`1 <= items <= size`), in order; the last one is the chunk.
    pub fn first_chunk_arrays(items: usize, size: usize) -> Vec<usize> {
        let mut lengths = vec![size.min(4)];
        let mut cap = size.min(4);
        while cap < items {
            cap = size.min(cap.saturating_mul(2));
            lengths.push(cap);
        }
        if cap != items {
            lengths.push(items);
        }
        lengths
    }

    /// Lengths of the arrays .NET allocates for a *later* chunk with `items` elements: one at
    /// `size`, plus a trimmed copy if the chunk is partial.
    pub fn later_chunk_arrays(items: usize, size: usize) -> Vec<usize> {
        if items == size {
            vec![size]
        } else {
            vec![size, items]
        }
    }
}

impl<I> Iterator for EnumerableChunkIterator<I>
where
    I: Iterator,
    I::Item: Element,
{
    type Item = Box<[I::Item]>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        // `e.MoveNext()` before anything is allocated: an empty source costs nothing.
        let Some(first) = self.source.next() else {
            self.done = true;
            return None;
        };
        let size = self.size;
        let mut array = new_array(self.array_size);
        array[0] = first;
        let mut i = 1;
        if size != array.len() {
            // The first chunk: grow as it fills.
            while i < size {
                let Some(item) = self.source.next() else {
                    break;
                };
                if i >= array.len() {
                    self.array_size = size.min(array.len().saturating_mul(2));
                    array = array_resize(array, self.array_size);
                }
                array[i] = item;
                i += 1;
            }
        } else {
            // Later chunks (and every chunk when size <= 4): already at full size.
            while i < array.len() {
                let Some(item) = self.source.next() else {
                    break;
                };
                array[i] = item;
                i += 1;
            }
        }
        if i != array.len() {
            array = array_resize(array, i);
        }
        if i < size {
            self.done = true;
        }
        Some(array)
    }
}

impl<I> FusedIterator for EnumerableChunkIterator<I>
where
    I: Iterator,
    I::Item: Element,
{
}

// === .NET object sizes ===

/// .NET's array header on x64: method-table pointer, sync block and length.
pub const DOTNET_ARRAY_HEADER_BYTES: u64 = 24;

/// .NET's large-object-heap threshold: objects of this many bytes or more (header included).
pub const DOTNET_LOH_THRESHOLD_BYTES: u64 = 85_000;

/// Bytes .NET allocates for the iterator objects of `Chunk` on the enumerable path (the article's
/// count: 211,504 B = 211,056 B of elements + 14 × 24 B headers + 112 B). Quoted, not computed.
pub const DOTNET_ENUMERABLE_ITERATOR_BYTES: u64 = 112;

/// Whether .NET allocates an array of `len` elements of `elem_size` bytes in the large-object
/// heap: the GC compares the *unaligned* size (header + elements) with 85,000, so 84,975 bytes
/// (+ 24 = 84,999) stay in gen 0 while 84,976 bytes go to the LOH, as the Russian article measured.
///
/// ```
/// use course_pool::chunk::dotnet::in_loh;
/// assert!(in_loh(21_244, 4) && !in_loh(21_243, 4));
/// assert!(in_loh(84_976, 1) && !in_loh(84_975, 1));
/// ```
pub fn in_loh(len: u64, elem_size: u64) -> bool {
    DOTNET_ARRAY_HEADER_BYTES.saturating_add(len.saturating_mul(elem_size))
        >= DOTNET_LOH_THRESHOLD_BYTES
}

/// Size of a .NET x64 array of `len` elements of `elem_size` bytes: 24-byte header plus the
/// elements, rounded up to 8 bytes.
///
/// ```
/// use course_pool::chunk::dotnet::dotnet_array_bytes;
/// assert_eq!(dotnet_array_bytes(20_000, 4), 80_024);
/// assert_eq!(dotnet_array_bytes(25_000, 4), 100_024);
/// assert_eq!(dotnet_array_bytes(21_244, 4), 85_000); // the first `int[]` in the LOH
/// ```
pub fn dotnet_array_bytes(len: usize, elem_size: usize) -> u64 {
    let data = (len as u64).saturating_mul(elem_size as u64);
    DOTNET_ARRAY_HEADER_BYTES
        .saturating_add(data)
        .saturating_add(7)
        & !7
}

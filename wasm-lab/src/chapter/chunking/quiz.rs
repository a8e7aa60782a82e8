//! The chunking quiz (chapter 7): fresh chunk sizes and source kinds. Every answer comes from
//! [`crate::chapter::chunking::scenario`], the chunker and pool runs behind the `chunking` widget.

use crate::chapter::chunking::scenario::{
    enumerable_first, first_chunk_arrays, first_chunk_bytes, later_chunk_dotnet_bytes, path_for,
    pooled_first_bytes,
};
use crate::chapter::cliff::scenario::in_loh;
use crate::quiz::{Kind, Page, Quiz, Rng, Solution};
use bufpool::bucket;
use course_pool::chunk::SourceKind;
use lab_text::{group_digits, n, t, tf};

pub const QUIZ: Quiz = Quiz {
    id: "chunking",
    title: n!("Chunking"),
    kinds: &[
        &FirstChunkArrays,
        &FirstChunkBytes,
        &LaterChunkBytes,
        &ChunkPath,
        &PooledFirstBytes,
    ],
    figures: &[],
    snippets: false,
};

fn draw_size(rng: &mut Rng) -> u64 {
    match rng.below(4) {
        0 => [1_000, 10_000, 20_000, 21_243, 21_244, 25_000][rng.below(6) as usize],
        1 => 1 + rng.below(64),
        _ => 1 + rng.below(200_000),
    }
}

/// "First chunk of S on the enumerable path: how many arrays?" — a number.
pub struct FirstChunkArrays;
/// "… and how many bytes of `i32` in Rust?" — a number.
pub struct FirstChunkBytes;
/// "A later chunk of S `int`s on .NET: how many bytes with the header?" — a number.
pub struct LaterChunkBytes;
/// "Which iterator runs for this source?" — a choice.
pub struct ChunkPath;
/// "The pooled strategy on a `SharedPool` already used on this thread: bytes for the first
/// chunk?" — a number, the widget's pooled first chunk for the same size.
pub struct PooledFirstBytes;

impl Kind for FirstChunkArrays {
    type Params = u64;
    fn name(&self) -> &'static str {
        "first-chunk-arrays"
    }
    fn draw(&self, rng: &mut Rng, _: &Page) -> Result<u64, String> {
        Ok(draw_size(rng))
    }
    fn prompt(&self, s: &u64) -> String {
        tf!(
            "A List<int> of a million items, Chunk({}): how many arrays does the first chunk cost?",
            group_digits(*s)
        )
    }
    fn solve(&self, &s: &u64, _: &Page) -> Result<Solution, String> {
        let lens: Vec<String> = enumerable_first(s)
            .iter()
            .map(|b| group_digits(b.len() as u64))
            .collect();
        let why = tf!(
            "The enumerable path starts at min({}, 4) and doubles, copying each time, until the chunk is full: {} — that is 1 + ceil(log2(S / min(S, 4))) = {} arrays",
            group_digits(s),
            lens.join(", "),
            lens.len()
        );
        let n = first_chunk_arrays(s);
        Ok(Solution::number(n, why)
            .hint(t!("A List passed as IEnumerable does not tell Chunk its length: how does the first chunk's array grow"))
            .mistake(1, t!("One array per chunk is the array path; this source takes the enumerable path, which grows the first chunk"))
            .mistake(n.saturating_sub(1), t!("Count the starting array as well as every doubling")))
    }
}

impl Kind for FirstChunkBytes {
    type Params = u64;
    fn name(&self) -> &'static str {
        "first-chunk-bytes"
    }
    fn draw(&self, rng: &mut Rng, _: &Page) -> Result<u64, String> {
        Ok(draw_size(rng))
    }
    fn prompt(&self, s: &u64) -> String {
        tf!(
            "The lab's port of that enumerable path in Rust, chunks of {} i32: how many bytes does the first chunk request in total (Rust arrays have no header)?",
            group_digits(*s)
        )
    }
    fn solve(&self, &s: &u64, _: &Page) -> Result<Solution, String> {
        let blocks = enumerable_first(s);
        let elems: u64 = blocks.iter().map(|b| b.len() as u64).sum();
        let why = tf!(
            "{} arrays of {} elements in all, × 4 bytes = {} bytes; every array but the last is copied and freed",
            blocks.len(),
            group_digits(elems),
            group_digits(elems * 4)
        );
        Ok(Solution::number(first_chunk_bytes(s), why)
            .hint(t!(
                "Add up every array the growing chunk goes through, not only the last one"
            ))
            .mistake(
                s * 4,
                t!("That is only the final array: the smaller ones before it were allocated too"),
            ))
    }
}

impl Kind for LaterChunkBytes {
    type Params = u64;
    fn name(&self) -> &'static str {
        "later-chunk-bytes"
    }
    fn draw(&self, rng: &mut Rng, _: &Page) -> Result<u64, String> {
        Ok(draw_size(rng))
    }
    fn prompt(&self, s: &u64) -> String {
        tf!(
            "On .NET (x64), Chunk({}) of a List<int>: how many bytes does a later (second, full) chunk allocate, header included?",
            group_digits(*s)
        )
    }
    fn solve(&self, &s: &u64, _: &Page) -> Result<Solution, String> {
        let bytes = later_chunk_dotnet_bytes(s);
        let why = if in_loh(s, 4) {
            tf!(
                "Later chunks are allocated once at full size: 24 header bytes + {} × 4, rounded up to 8 = {} bytes — at or over {}: every such chunk goes to the large-object heap",
                group_digits(s),
                group_digits(bytes),
                group_digits(85_000)
            )
        } else {
            tf!(
                "Later chunks are allocated once at full size: 24 header bytes + {} × 4, rounded up to 8 = {} bytes",
                group_digits(s),
                group_digits(bytes)
            )
        };
        Ok(Solution::number(bytes, why)
            .hint(t!("A later chunk is one array of the full size: elements × 4, plus .NET's array header, in steps of 8"))
            .mistake(s * 4, t!("The elements alone: a .NET array also carries a 24-byte header"))
            .mistake(first_chunk_bytes(s), t!("Later chunks do not grow: they are allocated once at full size")))
    }
}

impl Kind for ChunkPath {
    type Params = u64;
    fn name(&self) -> &'static str {
        "chunk-path"
    }
    fn draw(&self, rng: &mut Rng, _: &Page) -> Result<u64, String> {
        Ok(rng.below(SourceKind::ALL.len() as u64))
    }
    fn prompt(&self, &v: &u64) -> String {
        let what = match source_of(v) {
            SourceKind::Slice => t!("an int[] (a Rust slice)"),
            SourceKind::Vec => t!("a List<int> passed as IEnumerable<int> (a Rust Vec)"),
            SourceKind::Yielded => t!("a method with yield return (a Rust iterator)"),
        };
        tf!(
            "On .NET 9 or later, source.Chunk(1000) where source is {}: which iterator runs?",
            what
        )
    }
    fn solve(&self, &v: &u64, _: &Page) -> Result<Solution, String> {
        let kind = source_of(v);
        let path = path_for(kind);
        let why = tf!(
            "Chunk checks the argument's run-time type (source is TSource[]): {} gets {}. Only a real array takes the array path, even though every call looks the same in code",
            source_name(kind),
            path
        );
        let other = if path == "ArrayChunkIterator" {
            "EnumerableChunkIterator"
        } else {
            "ArrayChunkIterator"
        };
        Ok(Solution::choice(path, why).mistake(
            other,
            t!("Chunk cannot see the static type you wrote, only what the object is at run time: is it a real array"),
        ))
    }
}

/// [`SourceKind::name`] in the page's language.
fn source_name(kind: SourceKind) -> String {
    match kind {
        SourceKind::Slice => t!("a slice (.NET array)"),
        SourceKind::Vec => t!("a Vec (.NET List<T>)"),
        SourceKind::Yielded => t!("an iterator of unknown length (.NET yield return)"),
    }
    .into_owned()
}

fn source_of(v: u64) -> SourceKind {
    SourceKind::ALL[(v % SourceKind::ALL.len() as u64) as usize]
}

impl Kind for PooledFirstBytes {
    type Params = u64;
    fn name(&self) -> &'static str {
        "pooled-first-bytes"
    }
    fn draw(&self, rng: &mut Rng, _: &Page) -> Result<u64, String> {
        Ok(draw_size(rng))
    }
    fn prompt(&self, s: &u64) -> String {
        tf!(
            "The pooled strategy with the lab's SharedPool<i32>, already used on this thread but holding no buffer: chunks of {} i32. How many bytes does the first chunk allocate?",
            group_digits(*s)
        )
    }
    fn solve(&self, &s: &u64, _: &Page) -> Result<Solution, String> {
        let bytes = pooled_first_bytes(s).map_err(|e| crate::pool_words::chunk_error(&e))?;
        let length = bucket::round(s as usize).length() as u64;
        let why = tf!(
            "The pool rounds {} up to its {}-element bucket and allocates that once: {} × 4 = {} bytes. Later chunks reuse it and allocate nothing. (A pool's very first use on a thread also makes its slot table there, once; the widget shows that cost on a line of its own)",
            group_digits(s),
            group_digits(length),
            group_digits(length),
            group_digits(length * 4)
        );
        Ok(Solution::number(bytes, why)
            .hint(t!(
                "A pool holding no buffer has nothing to hand out, and it allocates whole buckets"
            ))
            .mistake(
                s * 4,
                t!("The pool allocates its bucket's length, not the chunk size you asked for"),
            )
            .mistake(
                0,
                t!("The pool holds no buffer yet: the first rent allocates"),
            ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quiz::Ask;

    #[test]
    fn quiz_grades() {
        let page = Page::default();
        let q = |k: &dyn Ask, p: &str| k.replay(p, &page).unwrap();
        assert!(q(&FirstChunkArrays, "20000").accepts("14"));
        assert!(q(&LaterChunkBytes, "25000").accepts("100,024"));
        assert!(q(&ChunkPath, "1").accepts("enumerablechunkiterator"));
        assert!(q(&PooledFirstBytes, "1").accepts("64"));
    }
}

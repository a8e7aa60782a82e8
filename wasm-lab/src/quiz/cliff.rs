//! The large-allocation cliff quiz (chapter 6): fresh sizes near the chapter's edges. Every
//! answer comes from [`crate::scenario::cliff`], the same formulas the `cliff`
//! widget shows.

use super::{Kind, Quiz, Rng};
use crate::input::group_digits;
use crate::scenario::cliff::{
    Elem, GLIBC_MIN_CHUNK, cliff, dotnet_object_bytes, first_loh_length, glibc_chunk,
};

pub const QUIZ: Quiz = Quiz {
    id: "cliff",
    title: "The large-allocation cliff",
    kinds: &[
        &NewInLoh,
        &PoolInLoh,
        &FirstLohLength,
        &GlibcChunk,
        &GlibcMmap,
    ],
};

fn yes_no(b: bool) -> String {
    if b { "yes" } else { "no" }.into()
}

/// A size near one of the chapter's edges, or anywhere from 30,000 to 300,000.
fn near_edges(rng: &mut Rng, edges: &[u64]) -> u64 {
    let edge = edges[rng.below(edges.len() as u64) as usize];
    match rng.below(3) {
        0 => edge - rng.below(40),
        1 => edge + rng.below(40),
        _ => 30_000 + rng.below(270_000),
    }
}

/// "Is `new byte[N]` in the LOH?" — yes or no.
pub struct NewInLoh;
/// "`ArrayPool<byte>.Shared.Rent(N)` on an empty pool: is the array it allocates in the LOH?"
pub struct PoolInLoh;
/// "First length of a `T[]` in the LOH?" — a number.
pub struct FirstLohLength;
/// "glibc's chunk for `malloc(N)`?" — a number.
pub struct GlibcChunk;
/// "Does `malloc(N)`'s chunk reach the default mmap threshold?" — yes or no.
pub struct GlibcMmap;

impl Kind for NewInLoh {
    fn name(&self) -> &'static str {
        "new-in-loh"
    }
    fn choices(&self) -> &'static [&'static str] {
        &["yes", "no"]
    }
    fn draw(&self, rng: &mut Rng) -> u64 {
        near_edges(rng, &[84_976, 85_000])
    }
    fn prompt(&self, n: u64) -> String {
        format!(
            "On .NET (x64), is new byte[{}] allocated in the large-object heap?",
            group_digits(n)
        )
    }
    fn expected(&self, n: u64) -> String {
        yes_no(cliff(n, Elem::Byte).dotnet_new_in_loh)
    }
    fn explain(&self, n: u64) -> String {
        let c = cliff(n, Elem::Byte);
        format!(
            "The array is {} + 24 header bytes = {} bytes, {} the 85,000-byte threshold: the first byte[] in the LOH is {} long",
            group_digits(n),
            group_digits(c.dotnet_bytes),
            if c.dotnet_new_in_loh {
                "at or over"
            } else {
                "under"
            },
            group_digits(c.first_loh_length)
        )
    }
}

impl Kind for PoolInLoh {
    fn name(&self) -> &'static str {
        "pool-in-loh"
    }
    fn choices(&self) -> &'static [&'static str] {
        &["yes", "no"]
    }
    fn draw(&self, rng: &mut Rng) -> u64 {
        near_edges(rng, &[65_536, 65_537, 81_920, 84_976])
    }
    fn prompt(&self, n: u64) -> String {
        format!(
            "ArrayPool<byte>.Shared.Rent({}) on a pool with nothing to hand out: is the array it allocates in the large-object heap?",
            group_digits(n)
        )
    }
    fn expected(&self, n: u64) -> String {
        yes_no(cliff(n, Elem::Byte).pool_in_loh)
    }
    fn explain(&self, n: u64) -> String {
        let c = cliff(n, Elem::Byte);
        let length = c.pool_length.unwrap_or(0);
        let mut why = format!(
            "The pool rounds {} up to its {}-byte bucket, {} + 24 = {} bytes: {}",
            group_digits(n),
            group_digits(length),
            group_digits(length),
            group_digits(length + 24),
            if c.pool_in_loh {
                "in the LOH"
            } else {
                "under 85,000, not in the LOH"
            }
        );
        if c.pool_pushes_into_loh {
            why.push_str(", although new byte[…] of the same request would stay in gen 0");
        }
        why
    }
}

impl Kind for FirstLohLength {
    fn name(&self) -> &'static str {
        "first-loh-length"
    }
    fn draw(&self, rng: &mut Rng) -> u64 {
        [1, 2, 4, 8, 16][rng.below(5) as usize]
    }
    fn prompt(&self, size: u64) -> String {
        let what = match size {
            1 => "byte",
            2 => "char",
            4 => "int",
            8 => "long (or a reference)",
            _ => "a 16-byte struct",
        };
        format!(
            "On .NET (x64), what is the shortest {what}[] that is allocated in the large-object heap?"
        )
    }
    fn expected(&self, size: u64) -> String {
        first_loh_length(size).to_string()
    }
    fn explain(&self, size: u64) -> String {
        let n = first_loh_length(size);
        format!(
            "The threshold counts the 24-byte header: 24 + {} × {size} = {} ≥ 85,000, while {} elements make {} bytes",
            group_digits(n),
            group_digits(dotnet_object_bytes(n, size)),
            group_digits(n - 1),
            group_digits(dotnet_object_bytes(n - 1, size))
        )
    }
}

impl Kind for GlibcChunk {
    fn name(&self) -> &'static str {
        "glibc-chunk"
    }
    fn draw(&self, rng: &mut Rng) -> u64 {
        match rng.below(3) {
            0 => rng.below(40),
            1 => near_edges(rng, &[131_049, 131_072]),
            _ => 1 + rng.below(1 << 20),
        }
    }
    fn prompt(&self, n: u64) -> String {
        format!(
            "glibc malloc on x86-64: how large is the chunk that serves malloc({})?",
            group_digits(n)
        )
    }
    fn expected(&self, n: u64) -> String {
        glibc_chunk(n).to_string()
    }
    fn explain(&self, n: u64) -> String {
        let chunk = glibc_chunk(n);
        if (n + 23) & !15 < GLIBC_MIN_CHUNK {
            format!(
                "The request plus the 8-byte size word, rounded up to 16, is below glibc's smallest chunk, so it gets {GLIBC_MIN_CHUNK} bytes"
            )
        } else {
            format!(
                "The request plus the 8-byte size word, rounded up to 16: ({} + 8) rounded up to 16 = {}",
                group_digits(n),
                group_digits(chunk)
            )
        }
    }
}

impl Kind for GlibcMmap {
    fn name(&self) -> &'static str {
        "glibc-mmap"
    }
    fn choices(&self) -> &'static [&'static str] {
        &["yes", "no"]
    }
    fn draw(&self, rng: &mut Rng) -> u64 {
        near_edges(rng, &[81_920, 131_049, 131_072])
    }
    fn prompt(&self, n: u64) -> String {
        format!(
            "A fresh process, glibc's default threshold (128 KiB): does the chunk for malloc({}) reach the mmap threshold?",
            group_digits(n)
        )
    }
    fn expected(&self, n: u64) -> String {
        yes_no(cliff(n, Elem::Byte).glibc_at_threshold)
    }
    fn explain(&self, n: u64) -> String {
        let c = cliff(n, Elem::Byte);
        format!(
            "Its chunk is {} bytes, {} 131,072: the first request that reaches it is 131,049 (131,049 + 8 rounded up to 16 = 131,072). At or over the threshold, glibc maps fresh pages when its heap cannot serve the request; in a fresh process the heap can still serve requests a little over it, so the first mmapped buffer is somewhat larger (the chapter cites the measured edge)",
            group_digits(c.glibc_chunk),
            if c.glibc_at_threshold {
                "at or over"
            } else {
                "under"
            }
        )
    }
}

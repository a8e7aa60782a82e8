//! The large-allocation cliff quiz (chapter 6): fresh sizes near the chapter's edges, graded by
//! [`crate::chapter::cliff::scenario`] (the same formulas the `cliff` widget shows), and two questions the
//! chapter's bench data answers: where a fresh process's first mmapped buffer was, and whether
//! the cliff survives the first free.

use crate::chapter::cliff::scenario::{
    Elem, GLIBC_MIN_CHUNK, GLIBC_MMAP_THRESHOLD, PAGE, Served, cliff, dotnet_object_bytes,
    first_loh_length, glibc_chunk, glibc_served,
};
use crate::quiz::data::{LessTime, Ratio};
use crate::quiz::{Kind, Page, Quiz, Rng, Solution};
use lab_text::{group_digits, n, t, tf};

/// The figure a [`FreshEdge`] question is graded from.
pub const FRESH_EDGE_KEY: &str = "cliff.u8.first_len";
/// The chunk glibc mapped for it (a distractor taken from the same data).
pub const FRESH_CHUNK_KEY: &str = "cliff.u8.chunk_bytes";

/// After the first free at the edge, against just below the threshold: fixed and dynamic.
pub const AFTER_FREE: LessTime = LessTime {
    name: "after-free",
    ratios: &[
        Ratio {
            key: "cliff.fixed.after_free_vs_below",
            a: n!("malloc + write + free at the edge after the first one was freed"),
            b: n!("the same just below the 128 KiB threshold"),
            at: n!("with the threshold fixed by GLIBC_TUNABLES"),
        },
        Ratio {
            key: "cliff.dynamic.after_free_vs_below",
            a: n!("malloc + write + free at the edge after the first one was freed"),
            b: n!("the same just below the 128 KiB threshold"),
            at: n!("with glibc's default, dynamic threshold"),
        },
    ],
};

pub const QUIZ: Quiz = Quiz {
    id: "cliff",
    title: n!("The large-allocation cliff"),
    kinds: &[
        &NewInLoh,
        &PoolInLoh,
        &FirstLohLength,
        &GlibcChunk,
        &GlibcMmap,
        &FreshEdge,
        &AFTER_FREE,
    ],
    figures: &[
        FRESH_EDGE_KEY,
        FRESH_CHUNK_KEY,
        "cliff.fixed.after_free_vs_below",
        "cliff.dynamic.after_free_vs_below",
    ],
    snippets: false,
};

/// A size near one of the chapter's edges, or anywhere from 30,000 to 300,000.
fn near_edges(rng: &mut Rng, edges: &[u64]) -> u64 {
    let edge = rng.pick(edges);
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
/// "glibc's chunk for `malloc(N)`?" — a number, by the chapter's rule: the heap's chunk under the
/// mmap threshold, whole pages once glibc maps it ([`glibc_served`], the widget's chunk line).
pub struct GlibcChunk;
/// "Does `malloc(N)`'s chunk reach the default mmap threshold?" — yes or no, by the size rule.
pub struct GlibcMmap;
/// "In a fresh process, where was the first `Vec<u8>` served by mmap?" — from the bench data.
pub struct FreshEdge;

impl Kind for NewInLoh {
    type Params = u64;
    fn name(&self) -> &'static str {
        "new-in-loh"
    }
    fn draw(&self, rng: &mut Rng, _: &Page) -> Result<u64, String> {
        Ok(near_edges(rng, &[84_976, 85_000]))
    }
    fn prompt(&self, n: &u64) -> String {
        tf!(
            "On .NET (x64), is new byte[{}] allocated in the large-object heap?",
            group_digits(*n)
        )
    }
    fn solve(&self, &n: &u64, _: &Page) -> Result<Solution, String> {
        let c = cliff(n, Elem::Byte);
        let why = if c.dotnet_new_in_loh {
            tf!(
                "The array is {} + 24 header bytes = {} bytes, at or over the 85,000-byte threshold: the first byte[] in the LOH is {} long",
                group_digits(n),
                group_digits(c.dotnet_bytes),
                group_digits(c.first_loh_length)
            )
        } else {
            tf!(
                "The array is {} + 24 header bytes = {} bytes, under the 85,000-byte threshold: the first byte[] in the LOH is {} long",
                group_digits(n),
                group_digits(c.dotnet_bytes),
                group_digits(c.first_loh_length)
            )
        };
        Ok(Solution::yes_no(
            c.dotnet_new_in_loh,
            why,
            t!(
                "The threshold counts the whole object, not only its elements: add the array's header before comparing"
            ),
        ))
    }
}

impl Kind for PoolInLoh {
    type Params = u64;
    fn name(&self) -> &'static str {
        "pool-in-loh"
    }
    fn draw(&self, rng: &mut Rng, _: &Page) -> Result<u64, String> {
        Ok(near_edges(rng, &[65_536, 65_537, 81_920, 84_976]))
    }
    fn prompt(&self, n: &u64) -> String {
        tf!(
            "ArrayPool<byte>.Shared.Rent({}) on a pool with nothing to hand out: is the array it allocates in the large-object heap?",
            group_digits(*n)
        )
    }
    fn solve(&self, &n: &u64, _: &Page) -> Result<Solution, String> {
        let c = cliff(n, Elem::Byte);
        let length = c.pool_length.unwrap_or(0);
        let (n, bucket, bytes) = (
            group_digits(n),
            group_digits(length),
            group_digits(length + 24),
        );
        // The pool pushes a request into the LOH only when its array is there.
        let why = if c.pool_pushes_into_loh {
            tf!(
                "The pool rounds {} up to its {}-byte bucket, {} + 24 = {} bytes: in the LOH, although new byte[…] of the same request would stay in gen 0",
                n,
                bucket,
                bucket,
                bytes
            )
        } else if c.pool_in_loh {
            tf!(
                "The pool rounds {} up to its {}-byte bucket, {} + 24 = {} bytes: in the LOH",
                n,
                bucket,
                bucket,
                bytes
            )
        } else {
            tf!(
                "The pool rounds {} up to its {}-byte bucket, {} + 24 = {} bytes: under 85,000, not in the LOH",
                n,
                bucket,
                bucket,
                bytes
            )
        };
        Ok(Solution::yes_no(
            c.pool_in_loh,
            why,
            t!(
                "The pool does not allocate your request: round it up to its bucket first, then add the header"
            ),
        ))
    }
}

fn element_name(size: u64) -> &'static str {
    match size {
        1 => "byte",
        2 => "char",
        4 => "int",
        8 => t!("long (or a reference)").0,
        _ => t!("a 16-byte struct").0,
    }
}

impl Kind for FirstLohLength {
    type Params = u64;
    fn name(&self) -> &'static str {
        "first-loh-length"
    }
    fn draw(&self, rng: &mut Rng, _: &Page) -> Result<u64, String> {
        Ok(rng.pick(&[1, 2, 4, 8, 16]))
    }
    fn prompt(&self, size: &u64) -> String {
        tf!(
            "On .NET (x64), what is the shortest {}[] that is allocated in the large-object heap?",
            element_name(*size)
        )
    }
    fn solve(&self, &size: &u64, _: &Page) -> Result<Solution, String> {
        let n = first_loh_length(size);
        Ok(Solution::number(
            n,
            tf!(
                "The threshold counts the 24-byte header: 24 + {} × {} = {} ≥ 85,000, while {} elements make {} bytes",
                group_digits(n),
                size,
                group_digits(dotnet_object_bytes(n, size)),
                group_digits(n - 1),
                group_digits(dotnet_object_bytes(n - 1, size))
            ),
        )
        .hint(t!("Solve header + length × element size ≥ 85,000 for the smallest length"))
        .mistake(85_000u64.div_ceil(size), t!("That forgets the array's 24-byte header, which counts towards the threshold"))
        .mistake(85_000, t!("That is the threshold in bytes; the question asks for a length in elements, header included")))
    }
}

impl Kind for GlibcChunk {
    type Params = u64;
    fn name(&self) -> &'static str {
        "glibc-chunk"
    }
    fn draw(&self, rng: &mut Rng, _: &Page) -> Result<u64, String> {
        Ok(match rng.below(4) {
            0 => rng.below(40),
            1 => near_edges(rng, &[131_049, 131_072]),
            // The heap's side of the threshold, …
            2 => 1 + rng.below(GLIBC_MMAP_THRESHOLD - 24),
            // … and anywhere up to 1 MiB, mostly mapped.
            _ => 1 + rng.below(1 << 20),
        })
    }
    fn prompt(&self, n: &u64) -> String {
        match glibc_served(*n) {
            Served::Heap { .. } => tf!(
                "glibc malloc on x86-64: how large is the chunk that serves malloc({})?",
                group_digits(*n)
            ),
            Served::Mapped { .. } => tf!(
                "glibc malloc on x86-64 with the default threshold of {} bytes: malloc({}) reaches it and the heap has no room to spare, so glibc maps it. How large is the mapped chunk?",
                group_digits(GLIBC_MMAP_THRESHOLD),
                group_digits(*n)
            ),
        }
    }
    fn solve(&self, &n: &u64, _: &Page) -> Result<Solution, String> {
        // The chapter's rule, as its widget and its table read it.
        let served = glibc_served(n);
        let heap = glibc_chunk(n);
        let why = match served {
            Served::Heap { .. } if (n + 23) & !15 < GLIBC_MIN_CHUNK => tf!(
                "The request plus the 8-byte size word, rounded up to 16, is below glibc's smallest chunk, so it gets {} bytes",
                GLIBC_MIN_CHUNK
            ),
            Served::Heap { .. } => tf!(
                "The request plus the 8-byte size word, rounded up to 16: ({} + 8) rounded up to 16 = {}",
                group_digits(n),
                group_digits(heap)
            ),
            Served::Mapped { chunk } => tf!(
                "({} + 8) rounded up to 16 = {} reaches the threshold, so glibc maps it: that chunk plus one more 8-byte size word, rounded up to whole pages of {} bytes = {} bytes. The chapter's table shows the same for the first mapped buffer: a chunk of whole pages",
                group_digits(n),
                group_digits(heap),
                group_digits(PAGE),
                group_digits(chunk)
            ),
        };
        let solution = Solution::number(served.chunk(), why);
        Ok(match served {
            Served::Heap { .. } => solution
                .hint(t!("A chunk holds the request plus glibc's size word, in steps of 16, and never less than the smallest chunk"))
                .mistake(n, t!("The chunk is more than the request: glibc keeps a size word in front of it"))
                .mistake(n + 8, t!("Right parts, but chunks come in steps of 16 bytes"))
                .mistake(n.div_ceil(16) * 16, t!("Rounded, but the 8-byte size word is missing")),
            Served::Mapped { .. } => solution
                .hint(t!("A mapped chunk is whole pages: work out the heap's chunk first, then what a mapping adds and rounds to"))
                .mistake(heap, t!("That is the chunk by the heap's rule; a mapped chunk is whole pages"))
                .mistake(n, t!("The chunk is more than the request: glibc keeps a size word in front of it"))
                .mistake(n.div_ceil(PAGE) * PAGE, t!("Whole pages, but the size words are missing: count them before rounding")),
        })
    }
}

impl Kind for GlibcMmap {
    type Params = u64;
    fn name(&self) -> &'static str {
        "glibc-mmap"
    }
    fn draw(&self, rng: &mut Rng, _: &Page) -> Result<u64, String> {
        Ok(near_edges(rng, &[81_920, 131_049, 131_072]))
    }
    fn prompt(&self, n: &u64) -> String {
        tf!(
            "glibc's size rule with the default threshold of {} bytes (128 KiB): does the chunk for malloc({}) reach the mmap threshold?",
            group_digits(GLIBC_MMAP_THRESHOLD),
            group_digits(*n)
        )
    }
    fn solve(&self, &n: &u64, _: &Page) -> Result<Solution, String> {
        let c = cliff(n, Elem::Byte);
        let why = if c.glibc_at_threshold {
            tf!(
                "Its chunk is {} bytes, at or over 131,072: the first request whose chunk reaches it is 131,049 (131,049 + 8 rounded up to 16 = 131,072). Reaching the threshold makes a request eligible for mmap; whether a fresh process really maps it also depends on its heap, which is why the bench measured that edge separately",
                group_digits(c.glibc_chunk)
            )
        } else {
            tf!(
                "Its chunk is {} bytes, under 131,072: the first request whose chunk reaches it is 131,049 (131,049 + 8 rounded up to 16 = 131,072). Reaching the threshold makes a request eligible for mmap; whether a fresh process really maps it also depends on its heap, which is why the bench measured that edge separately",
                group_digits(c.glibc_chunk)
            )
        };
        Ok(Solution::yes_no(
            c.glibc_at_threshold,
            why,
            t!("Compare the chunk, not the request: add the size word and round up to 16 first"),
        ))
    }
}

impl Kind for FreshEdge {
    type Params = ();
    fn name(&self) -> &'static str {
        "fresh-edge"
    }
    fn draw(&self, _: &mut Rng, page: &Page) -> Result<(), String> {
        page.figure(FRESH_EDGE_KEY).map(|_| ())
    }
    fn prompt(&self, _: &()) -> String {
        t!("The bench started fresh processes and grew a Vec<u8> until glibc served it by mmap (the IS_MMAPPED bit). What was the shortest such Vec on the machine this book's data comes from?").into_owned()
    }
    fn solve(&self, _: &(), page: &Page) -> Result<Solution, String> {
        let f = page.figure(FRESH_EDGE_KEY)?;
        let measured = f.value.round() as u64;
        let chunk = page.figure(FRESH_CHUNK_KEY)?.value.round() as u64;
        // The size rule's edge: the first request whose chunk, (n + 8) rounded up to 16, reaches it.
        let rule = GLIBC_MMAP_THRESHOLD - 8 - 15;
        Ok(Solution::choice(
            group_digits(measured),
            tf!(
                "Measured on {}: {} ({}). The size rule alone says {}, but in a fresh process the heap's top can still serve requests a little over the threshold, so the first mmapped buffer comes later",
                page.machine,
                group_digits(measured),
                f.title,
                group_digits(rule)
            ),
        )
        .mistake(
            group_digits(rule),
            t!("That is the size rule's edge; a fresh process's heap can still serve requests a little past it"),
        )
        .mistake(
            group_digits(GLIBC_MMAP_THRESHOLD),
            t!("That is the threshold itself, a chunk size; the question asks what a fresh process really mapped"),
        )
        .mistake(
            group_digits(chunk),
            t!("That is a whole mapped chunk, page-rounded; the question asks for the Vec's length"),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quiz::{Ask, Fig, Gate};

    #[test]
    fn size_rule_and_prompt_agree() {
        let page = Page::default();
        let q = GlibcMmap.replay("131049", &page).unwrap();
        assert!(q.accepts("yes"));
        assert!(!q.prompt.contains("fresh process"), "{}", q.prompt);
        assert!(GlibcMmap.replay("131048", &page).unwrap().accepts("no"));
        assert!(GlibcChunk.replay("100", &page).unwrap().accepts("112"));
    }

    /// glibc's chunk for `malloc(n)`, as the quiz answers it and as the widget shows it for the
    /// same request, follows the chapter's rule on both sides of the threshold: the heap's chunk
    /// under 128 KiB, whole pages (size words included) once glibc maps it, as the chapter's
    /// table shows for its first mapped buffer (133,993 B in a chunk of 135,168 B). The quiz once
    /// answered malloc(672,242) with the heap's 672,256.
    #[test]
    fn widget_and_quiz_agree_on_glibc_chunks() {
        use crate::chapter::cliff::scenario::{GLIBC_MMAP_THRESHOLD, PAGE, glibc_chunk};
        use crate::quiz::Ask;
        let page = Page::default();
        // The rule, stated here on its own: the oracle for both.
        let rule = |n: u64| {
            let chunk = glibc_chunk(n);
            if chunk >= GLIBC_MMAP_THRESHOLD {
                (chunk + 8).div_ceil(PAGE) * PAGE
            } else {
                chunk
            }
        };
        let q = |n: u64| GlibcChunk.replay(&n.to_string(), &page).unwrap();
        assert!(q(672_242).accepts("675,840"), "{}", q(672_242).solution.why);
        assert!(q(133_993).accepts("135,168"));
        assert!(q(100).accepts("112"));
        let mut mapped = 0;
        for seed in 0..500 {
            let q = GlibcChunk.pose(&mut Rng::new(seed), &page).unwrap();
            let n: u64 = q.params.parse().unwrap();
            let answer: u64 = q.right_answer().parse().unwrap();
            assert_eq!(answer, rule(n), "malloc({n}): {}", q.prompt);
            mapped += u64::from(glibc_chunk(n) >= GLIBC_MMAP_THRESHOLD);
            let v = crate::view::view_with("cliff", &[("cliff-input", &n.to_string())]);
            let shown = v.value("cliff-glibc-chunk").unwrap();
            let first = shown.split(' ').next().unwrap().replace(',', "");
            assert_eq!(
                first.parse::<u64>().ok(),
                Some(answer),
                "malloc({n}): the widget shows “{shown}”, the quiz wants {answer}"
            );
        }
        // Both sides of the threshold were drawn.
        assert!(
            (50..450).contains(&mapped),
            "{mapped} of 500 over the threshold"
        );
    }

    /// The widget and the quiz read .NET's LOH and glibc's threshold alike for the same request:
    /// `new byte[n]` in the LOH, the pool's array in it, the first LOH length of an element type
    /// the widget offers (1, 4 and 8 bytes; the quiz's 2- and 16-byte types are not in its
    /// selector), and whether the chunk reaches the threshold.
    #[test]
    fn widget_and_quiz_agree_on_the_borders() {
        use crate::quiz::Ask;
        use crate::view::view_with;
        let page = Page::default();
        for seed in 0..500 {
            let mut rng = Rng::new(seed);
            for (kind, id) in [
                (&NewInLoh as &dyn Ask, "cliff-dotnet-loh"),
                (&PoolInLoh, "cliff-pool-loh"),
                (&GlibcMmap, "cliff-glibc-mmap"),
            ] {
                let q = kind.pose(&mut rng, &page).unwrap();
                let v = view_with("cliff", &[("cliff-input", &q.params)]);
                let shown = v.value(id).unwrap();
                // "yes", "no", "yes — pushed there by the rounding", "no (< 131,072): …".
                let word = shown.split([' ', '(']).next().unwrap();
                assert_eq!(
                    word,
                    q.right_answer(),
                    "{} {}: {shown}",
                    kind.name(),
                    q.params
                );
            }
            let q = FirstLohLength.pose(&mut rng, &page).unwrap();
            let size: u64 = q.params.parse().unwrap();
            if let Some(elem) = Elem::ALL.into_iter().find(|e| e.size() == size) {
                let v = view_with("cliff", &[("cliff-elem", elem.key())]);
                let shown = v.value("cliff-first-loh").unwrap().replace(',', "");
                assert_eq!(shown, q.right_answer(), "{elem:?}");
            }
        }
    }

    /// The fresh-process edge is the data's: change the figure and the answer moves with it.
    #[test]
    fn fresh_edge_follows_the_data() {
        let fig = |v: f64| Fig {
            title: "first Vec<u8> length served by mmap".into(),
            unit: "count".into(),
            value: v,
            low: v,
            high: v,
            noise: 0.0,
            gate: Gate::Absolute,
            note: "exact count".into(),
        };
        let mut page = Page::default();
        page.figures.insert(FRESH_CHUNK_KEY.into(), fig(143_360.0));
        page.figures.insert(FRESH_EDGE_KEY.into(), fig(140_000.0));
        assert!(FreshEdge.replay("null", &page).unwrap().accepts("140,000"));
        page.figures.insert(FRESH_EDGE_KEY.into(), fig(133_000.0));
        let q = FreshEdge.replay("null", &page).unwrap();
        assert!(q.accepts("133,000") && !q.accepts("140,000"));
        assert!(FreshEdge.replay("null", &Page::default()).is_err());
    }
}

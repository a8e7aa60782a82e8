//! The chunking widget's view (chapter 7): source length, chunk size, source kind and strategy →
//! the chunker's blocks table, measured by the counting allocator.

use crate::chapter::chunking::scenario::{MAX_LEN, MAX_SIZE, table};
use crate::input::{InputError, field_number, parse_number};
use crate::quiz::Solution;
use crate::view::{
    Env, Field, Form, Hold, Inputs, Kind, Part, Row, Span, Spans, Table, View, Widget, cell,
    initial_parts, or, pair,
};
use course_pool::chunk::{ChunkCost, SourceKind, Strategy};
use lab_text::group_digits;
use lab_text::{f, n, t, tf, tp};

pub const WIDGET: Widget = Widget {
    name: "chunking",
    form,
    view,
};

/// A stable key per strategy, for the select, for `data-testid`s and for links.
pub fn strategy_key(s: Strategy) -> &'static str {
    match s {
        Strategy::DotnetChunk => "dotnet-chunk",
        Strategy::DotnetArrayPath => "dotnet-array-path",
        Strategy::DotnetEnumerablePath => "dotnet-enumerable-path",
        Strategy::SliceChunks => "slice-chunks",
        Strategy::CollectVec => "collect-vec",
        Strategy::ReusedBuffer => "reused-buffer",
        Strategy::Pooled => "pooled",
    }
}

pub fn source_key(k: SourceKind) -> &'static str {
    match k {
        SourceKind::Slice => "slice",
        SourceKind::Vec => "vec",
        SourceKind::Yielded => "iterator",
    }
}

const SOURCES: &[(&str, &str)] = &[
    ("slice", n!("a slice (.NET int[])")),
    ("vec", n!("a Vec (.NET List<int>)")),
    ("iterator", n!("an iterator (.NET yield return)")),
];

/// The strategies' keys and names (a test checks them against [`Strategy::ALL`]).
pub const STRATEGIES: &[(&str, &str)] = &[
    ("dotnet-chunk", "Enumerable.Chunk"),
    ("dotnet-array-path", "ArrayChunkIterator"),
    ("dotnet-enumerable-path", "EnumerableChunkIterator"),
    ("slice-chunks", "slice::chunks"),
    ("collect-vec", "collect::<Vec<_>>"),
    ("reused-buffer", n!("reused buffer")),
    ("pooled", n!("pooled buffer")),
];

/// `initial=LEN/SIZE/SOURCE/STRATEGY`, e.g. `initial=100000/20000/vec/dotnet-chunk`.
pub fn form(initial: &str) -> Form {
    let v = initial_parts(initial, 4);
    Form::single(
        "chunk",
        vec![
            Field::new(
                "chunk-len",
                n!("Elements (i32)"),
                Kind::Number,
                or(&v[0], "100000"),
            ),
            Field::new(
                "chunk-size",
                n!("Chunk size"),
                Kind::Number,
                or(&v[1], "20000"),
            ),
            Field::new(
                "chunk-source",
                n!("Source"),
                Kind::Select(SOURCES),
                or(&v[2], "vec"),
            ),
            Field::new(
                "chunk-strategy",
                n!("Strategy"),
                Kind::Select(STRATEGIES),
                or(&v[3], "dotnet-chunk"),
            ),
        ],
        Some(n!("Whole numbers; group digits with commas (100,000).")),
    )
}

fn cost(c: Option<ChunkCost>) -> (String, String) {
    match c {
        Some(c) => (
            group_digits(c.allocations + c.reallocations),
            group_digits(c.bytes),
        ),
        None => ("—".into(), "—".into()),
    }
}

/// A strategy's or a path's name as the reader sees it: API names as they are, the lab's own
/// words (`reused buffer`, bufpool's `empty array (no iterator)`) in the page's language.
fn named(name: &str) -> String {
    match name {
        "empty array (no iterator)" => t!("empty array (no iterator)").into_owned(),
        other => lab_text::tr::get_dynamic(other),
    }
}

/// A number field of this widget, read as [`field_number`] reads it, except that a number over
/// `max` is more than this page chunks.
fn chunk_number(name: &str, text: &str, max: u64) -> Result<u64, String> {
    let too_much = match parse_number(text) {
        Ok(v) => v > max,
        Err(e) => matches!(e, InputError::TooLarge(_)),
    };
    if too_much {
        let shown: String = text.trim().chars().take(40).collect();
        return Err(tf!(
            "{}: “{}” is more than this page chunks (at most {})",
            name,
            shown,
            group_digits(max)
        ));
    }
    field_number(name, text, max)
}

pub fn view(inputs: &Inputs, env: &Env) -> View {
    View::one("chunk", result(inputs, env))
}

fn result(inputs: &Inputs, env: &Env) -> Result<(Vec<Part>, String), String> {
    let source = SourceKind::ALL
        .into_iter()
        .find(|&k| source_key(k) == inputs.get("chunk-source"))
        .unwrap_or(SourceKind::Vec);
    let strategy = Strategy::ALL
        .into_iter()
        .find(|&s| strategy_key(s) == inputs.get("chunk-strategy"))
        .unwrap_or(Strategy::DotnetChunk);
    let len = chunk_number(&t!("Elements"), inputs.get("chunk-len"), MAX_LEN)?;
    let size = chunk_number(&t!("Chunk size"), inputs.get("chunk-size"), MAX_SIZE)?;
    let t = table(len, size, source, strategy)?;
    let mut rows = Vec::new();
    for r in &t.rows {
        let (fa, fb) = cost(Some(r.first));
        let (la, lb) = cost(r.later);
        let opt = |v: Option<u64>| v.map_or("—".to_string(), group_digits);
        rows.push(Row {
            id: Some(f!("row-{}", strategy_key(r.strategy))),
            data: None,
            selected: r.strategy == strategy,
            cells: vec![
                cell("", named(r.strategy.name())),
                cell("", named(r.path)),
                cell("first-allocs", fa),
                cell("first-bytes", fb),
                cell("later-allocs", la),
                cell("later-bytes", lb),
                cell("dotnet-first", opt(r.dotnet_first_bytes)),
                cell("dotnet-later", opt(r.dotnet_later_bytes)),
            ],
        });
    }
    let Some(row) = t.rows.iter().find(|r| r.strategy == strategy) else {
        return Err(t!("the chosen strategy has no row").into_owned());
    };
    let lens: Vec<String> = t
        .first_blocks
        .iter()
        .map(|b| group_digits(b.len() as u64))
        .collect();
    let blocks = if len == 0 {
        t!("none: an empty source has no chunks").into_owned()
    } else if lens.is_empty() {
        t!("none (borrowed, no copy)").into_owned()
    } else {
        let listed = if lens.len() > 8 {
            f!(
                "{}, …, {}",
                lens[..3].join(", "),
                lens[lens.len() - 2..].join(", ")
            )
        } else {
            lens.join(", ")
        };
        tp!(lens.len() as u64, "{} block: {}", "{} blocks: {}", listed)
    };
    let (fa, fb) = cost(Some(row.first));
    let (la, lb) = cost(row.later);
    let dotnet = match (row.dotnet_first_bytes, row.dotnet_later_bytes) {
        _ if len == 0 => t!("— (no chunks)").into_owned(),
        (Some(f), Some(l)) => f!("{}, {}", group_digits(f), group_digits(l)),
        (Some(f), None) => tf!("{}, — (one chunk)", group_digits(f)),
        _ => t!("— (not a .NET path)").into_owned(),
    };
    // The first chunk's arrays drawn as boxes, widest last: the growth a reader should see.
    let widest = t
        .first_blocks
        .iter()
        .map(|b| b.len())
        .max()
        .unwrap_or(1)
        .max(1);
    let drawn = Spans {
        id: "chunk-drawn",
        class: "lab-blocks",
        lead: Some(n!("First chunk's arrays:")),
        spans: t
            .first_blocks
            .iter()
            .take(24)
            .map(|b| Span {
                class: "lab-block",
                id: None,
                text: group_digits(b.len() as u64),
                title: Some(tf!(
                    "{} elements, {}% of the largest",
                    group_digits(b.len() as u64),
                    (b.len() * 100).div_ceil(widest)
                )),
            })
            .collect(),
    };
    let announce = tf!(
        "{}: first chunk {} allocations, {} bytes.",
        named(row.strategy.name()),
        fa,
        fb
    );
    let mut parts = vec![Part::Pairs(vec![
        pair(n!("What runs"), "chunk-path", named(row.path)),
        pair(n!("First chunk: blocks (elements)"), "chunk-blocks", blocks),
        pair(
            n!("First chunk: allocations, bytes"),
            "chunk-first",
            f!("{fa}, {fb}"),
        ),
        pair(
            n!("Later chunk: allocations, bytes"),
            "chunk-later",
            f!("{la}, {lb}"),
        ),
        pair(
            n!(".NET: first, later chunk bytes (headers included)"),
            "chunk-dotnet",
            dotnet,
        ),
        pair(
            n!(".NET: chunk array in the LOH?"),
            "chunk-loh",
            row.dotnet_chunk_in_loh.map_or("—".to_string(), |b| {
                if b { t!("yes") } else { t!("no") }.into_owned()
            }),
        ),
    ])];
    // The pooled row runs on a pool already used on this thread: its first use there (the slot
    // table it makes once) is a cost of the pool, shown apart from the chunks.
    if let (Strategy::Pooled, Some(first_use), Some(Part::Pairs(pairs))) =
        (strategy, t.pool_first_use, parts.first_mut())
    {
        let (a, b) = cost(Some(first_use));
        pairs.push(pair(
            n!("The pool's first use on this thread, before any chunk (its slot table, once): allocations, bytes"),
            "chunk-pool-first-use",
            f!("{a}, {b}"),
        ));
    }
    if !t.first_blocks.is_empty() {
        parts.push(Part::Spans(drawn));
    }
    parts.push(Part::Table(Table {
        id: "chunk-rows",
        head: vec![
            n!("Strategy"),
            n!("Runs as"),
            n!("1st: allocs"),
            n!("1st: bytes"),
            n!("later: allocs"),
            n!("later: bytes"),
            n!(".NET 1st"),
            n!(".NET later"),
        ],
        rows,
    }));
    parts.push(Part::Note {
        id: None,
        text: t!("Measured by the lab's counting allocator (bytes requested; reallocations count as allocations here). Rust arrays carry no header.").into_owned(),
    });
    let blocks = t.first_blocks.len() as u64;
    let question = tf!(
        "{} elements from {}, chunks of {}, {}: how many blocks does the first chunk allocate?",
        group_digits(len),
        named(
            SOURCES
                .iter()
                .find(|(k, _)| *k == source_key(source))
                .map_or("", |s| s.1)
        ),
        group_digits(size),
        named(row.strategy.name())
    );
    Ok(hold(question, blocks).decide(inputs, env, parts, announce))
}

/// The question the table waits for: the first chunk's blocks, graded with the quiz's
/// mistakes for a growing chunk ([`FirstChunkArrays`](crate::chapter::chunking::quiz::FirstChunkArrays)) and its
/// hint about the array path.
fn hold(question: String, blocks: u64) -> Hold {
    let solution = match blocks {
        0 => Solution::number(0, String::new())
            .hint(t!("A slice's chunks are views into it: nothing is copied"))
            .mistake(1, t!("A slice's chunks are views into it: nothing is copied")),
        1 => Solution::number(1, String::new()).hint(t!(
            "Chunk cannot see the static type you wrote, only what the object is at run time: is it a real array"
        )),
        n => Solution::number(n, String::new())
            .hint(t!("A List passed as IEnumerable does not tell Chunk its length: how does the first chunk's array grow"))
            .mistake(1, t!("One array per chunk is the array path; this source takes the enumerable path, which grows the first chunk"))
            .mistake(n - 1, t!("Count the starting array as well as every doubling")),
    };
    Hold {
        slot: "chunk",
        id: "chunk-predict",
        verdict: "chunk-verdict",
        question,
        choices: Vec::new(),
        solution,
        found: tp!(
            blocks,
            "the first chunk allocates {} block",
            "the first chunk allocates {} blocks"
        ),
    }
}

//! Widget views that measure with the counting allocator, natively: the static default the
//! book's build prints for them, and their wording at the edges.
//!
//! Native only: the wasm build registers the counting allocator itself.
#![cfg(not(target_arch = "wasm32"))]

use course_pool::alloc_count::CountingAlloc;
use wasm_lab::view::{self, Env, Inputs};

#[global_allocator]
static GLOBAL: CountingAlloc<std::alloc::System> = CountingAlloc::new(std::alloc::System);

fn view_of(name: &str, edits: &[(&str, &str)]) -> view::View {
    let w = view::widget(name).unwrap();
    let mut inputs = Inputs::from_form(&(w.form)(""));
    for (k, v) in edits {
        inputs.set(k, *v);
    }
    (w.view)(&inputs, &Env::default())
}

#[test]
fn every_widget_has_a_static_default() {
    for w in view::widgets() {
        let v = view_of(w.name, &[]);
        assert!(
            v.slots.iter().all(|s| s.error.is_none()),
            "{}: {:?}",
            w.name,
            v.slots
        );
    }
    let v = view_of("chunking", &[]);
    assert!(v.text().contains("EnumerableChunkIterator"), "{}", v.text());
}

#[test]
fn chunking_with_no_elements_says_there_are_no_chunks() {
    let v = view_of("chunking", &[("chunk-len", "0")]);
    assert!(v.slots[0].error.is_none(), "{:?}", v.slots[0].error);
    assert!(
        v.text().contains("an empty source has no chunks"),
        "{}",
        v.text()
    );
    let v = view_of("chunking", &[("chunk-size", "0")]);
    assert!(v.slots[0].error.as_deref().unwrap().contains("at least 1"));
}

#[test]
fn why_pool_counts_when_built() {
    let v = view_of("why-pool", &[]);
    assert!(v.text().contains("when the book was built"), "{}", v.text());
    // The question first; readers without scripts get the outcome and its drawing under it.
    let html = view::html::slot(&v.slots[0]);
    let (ask, unscripted, drawn) = (
        html.find("data-testid=\"why-predict\""),
        html.find("lab-unscripted"),
        html.find("data-testid=\"why-drawing\""),
    );
    assert!(
        ask < unscripted && unscripted < drawn && ask.is_some(),
        "{html}"
    );
    // Committed, the verdict comes first, then the outcome.
    let v = view_of("why-pool", &[("why-predict", "pool")]);
    let html = view::html::slot(&v.slots[0]);
    assert!(
        html.contains("Your prediction held") && !html.contains("lab-unscripted"),
        "{html}"
    );
}

/// A number as the widget prints it (`1,048,576`), in English.
fn number(text: &str) -> u64 {
    text.replace(',', "")
        .parse()
        .unwrap_or_else(|e| panic!("not a number: {text:?} ({e})"))
}

/// The view of widget `name` with its defaults and `edits`.
fn view_with(name: &str, edits: &[(&str, String)]) -> view::View {
    let edits: Vec<(&str, &str)> = edits.iter().map(|(k, v)| (*k, v.as_str())).collect();
    view_of(name, &edits)
}

/// Chunking, the pooled strategy: the widget's first chunk (measured by the counting allocator)
/// and the quiz's `pooled-first-bytes` answer (read from the pool's statistics) are one number
/// for the same chunk size, from a slice or a `Vec` (from an iterator, the growth steps'
/// buckets): the quiz once wanted 1,048,576 where the
/// widget showed 1,048,912, the pool's first-use slot table included.
#[test]
fn chunking_widget_and_quiz_agree_on_the_pooled_first_chunk() {
    use wasm_lab::chapter::chunking::quiz::PooledFirstBytes;
    use wasm_lab::quiz::{Ask, Page, Rng};
    let page = Page::default();
    for seed in 0..500u64 {
        let q = PooledFirstBytes.pose(&mut Rng::new(seed), &page).unwrap();
        let size: u64 = q.params.parse().unwrap();
        let source = ["slice", "vec", "iterator"][seed as usize % 3];
        let v = view_with(
            "chunking",
            &[
                ("chunk-len", (size + 1).to_string()),
                ("chunk-size", size.to_string()),
                ("chunk-source", source.to_string()),
                ("chunk-strategy", "pooled".to_string()),
            ],
        );
        let shown = v
            .cell("row-pooled", "first-bytes")
            .unwrap_or_else(|| panic!("{size}: no pooled row: {}", v.text()));
        // The quiz's chunk comes from a source that reports its length (a slice or a `Vec`):
        // one rent of the chunk's bucket. From an iterator the pooled chunker grows its buffer a
        // bucket at a time (course_pool::chunk::growth_steps), so it never rents more than it
        // has read.
        let expected = if source == "iterator" {
            course_pool::chunk::growth_steps(size as usize, size as usize)
                .into_iter()
                .map(|step| bufpool::bucket::round(step).length() as u64 * 4)
                .sum()
        } else {
            q.right_answer().parse::<u64>().unwrap()
        };
        assert_eq!(
            number(shown),
            expected,
            "chunks of {size} from a {source}: the widget shows {shown}, the quiz asks “{}”",
            q.prompt
        );
    }
    // The pool's first use is not hidden: it is a line of its own, measured.
    let v = view_of("chunking", &[("chunk-strategy", "pooled")]);
    let first_use = v
        .value("chunk-pool-first-use")
        .unwrap_or_else(|| panic!("{}", v.text()));
    let bytes = first_use.rsplit(", ").next().unwrap();
    assert!(number(bytes) > 0, "{first_use}");
}

/// Chunking, the .NET paths and their Rust port: the quiz's arrays, bytes, later-chunk bytes
/// and iterator are the widget's, for the same chunk size and source (a source as long as the
/// chunks asked about: the quiz's first and second chunks do not depend on the rest of the
/// million). 200 draws of each: every view runs the chunker's whole report, a few tens of
/// milliseconds each in a debug build.
#[test]
fn chunking_widget_and_quiz_agree_on_the_dotnet_paths() {
    use wasm_lab::chapter::chunking::quiz::{
        ChunkPath, FirstChunkArrays, FirstChunkBytes, LaterChunkBytes,
    };
    use wasm_lab::quiz::{Ask, Page, Rng};
    let page = Page::default();
    let on_a_vec = |len: u64, size: u64| {
        view_with(
            "chunking",
            &[
                ("chunk-len", len.to_string()),
                ("chunk-size", size.to_string()),
                ("chunk-source", "vec".to_string()),
                ("chunk-strategy", "dotnet-chunk".to_string()),
            ],
        )
    };
    for seed in 0..200u64 {
        let mut rng = Rng::new(seed);
        // The chunks a question is about, and one element more: a later chunk is full only in
        // a source two chunks long.
        for (kind, chunks, cell) in [
            (&FirstChunkArrays as &dyn Ask, 1, "first-allocs"),
            (&FirstChunkBytes, 1, "first-bytes"),
            (&LaterChunkBytes, 2, "dotnet-later"),
        ] {
            let q = kind.pose(&mut rng, &page).unwrap();
            let size: u64 = q.params.parse().unwrap();
            let v = on_a_vec(chunks * size + 1, size);
            let row = "row-dotnet-chunk";
            let shown = v
                .cell(row, cell)
                .unwrap_or_else(|| panic!("{size}: {}", v.text()));
            assert_eq!(
                number(shown).to_string(),
                q.right_answer(),
                "{} for chunks of {size}: the widget shows {shown}",
                kind.name()
            );
        }
        let q = ChunkPath.pose(&mut rng, &page).unwrap();
        let kind = course_pool::chunk::SourceKind::ALL[q.params.parse::<usize>().unwrap() % 3];
        let source = wasm_lab::chapter::chunking::view::source_key(kind);
        let v = view_with(
            "chunking",
            &[
                ("chunk-len", "2000".to_string()),
                ("chunk-size", "1000".to_string()),
                ("chunk-source", source.to_string()),
                ("chunk-strategy", "dotnet-chunk".to_string()),
            ],
        );
        assert_eq!(
            v.value("chunk-path"),
            Some(q.right_answer().as_str()),
            "{source}"
        );
    }
}

/// Issue 37: chunking's table waits for the reader's count of the first chunk's blocks.
#[test]
fn chunking_asks_for_the_first_chunks_blocks_first() {
    let w = view::widget("chunking").unwrap();
    let live = Env {
        live: true,
        wasm_pages: None,
    };
    let mut inputs = Inputs::from_form(&(w.form)(""));
    let html = view::html::slot(&(w.view)(&inputs, &live).slots[0]);
    assert!(
        html.contains("chunk-predict") && !html.contains("chunk-rows"),
        "{html}"
    );
    // At build time the table follows the question, behind a disclosure.
    let built = view_of("chunking", &[]);
    let html = view::html::slot(&built.slots[0]);
    assert!(
        html.find("chunk-predict") < html.find("<details") && html.contains("chunk-rows"),
        "{html}"
    );
    let blocks: String = built
        .value("chunk-blocks")
        .unwrap()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    // A bare value in the link is a final prediction: graded at once.
    inputs.set("chunk-predict", blocks.as_str());
    let v = (w.view)(&inputs, &live);
    let html = view::html::slot(&v.slots[0]);
    assert!(
        html.contains("data-held=\"true\"") && html.contains("chunk-rows"),
        "{html}"
    );
    // One block, the array path's count, is the quiz's first mistake for this source.
    inputs.set("chunk-predict", "1");
    let text = (w.view)(&inputs, &live).text();
    assert!(
        text.contains("did not hold") && text.contains("array path"),
        "{text}"
    );
}

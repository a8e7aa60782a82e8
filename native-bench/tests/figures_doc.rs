//! `FIGURES.md` documents every key the bench writes: checked against the keys of the committed
//! data file (what the last full run wrote), both ways, so the page cannot drift from the bench.
//! A key the bench writes but the page does not describe fails, and so does a documented key
//! pattern no figure matches.

use std::path::Path;

/// The line that marks a section of a suite no full run has measured yet (a new suite, until the
/// next full run): its patterns may match no key, and must not once a run wrote them.
const PENDING: &str = "Not in the committed data yet";

/// The key patterns of FIGURES.md's tables: the first cell of each row, where `{x}` stands for one
/// part of a key (possibly empty, as `{w}`), and "`a.b.bytes` / `.allocations`" documents two.
fn patterns(doc: &str) -> Vec<String> {
    sections(doc).into_iter().flat_map(|(_, p)| p).collect()
}

/// The patterns of the sections marked [`PENDING`].
fn pending(doc: &str) -> Vec<String> {
    sections(doc)
        .into_iter()
        .filter(|(pending, _)| *pending)
        .flat_map(|(_, p)| p)
        .collect()
}

/// Per `## ` section: whether it is marked [`PENDING`], and its patterns.
fn sections(doc: &str) -> Vec<(bool, Vec<String>)> {
    let mut all = vec![(false, Vec::new())];
    for line in doc.lines() {
        if line.starts_with("## ") {
            all.push((false, Vec::new()));
            continue;
        }
        let (pending, out) = all.last_mut().expect("one section at least");
        if line.starts_with(PENDING) {
            *pending = true;
            continue;
        }
        let Some(cell) = line.strip_prefix("| `") else {
            continue;
        };
        let first = cell.split(" |").next().unwrap_or_default();
        let mut names = first.split(" / ").map(|n| n.trim_matches('`'));
        let Some(main) = names.next() else { continue };
        out.push(main.to_string());
        for other in names {
            if let Some(suffix) = other.strip_prefix('.') {
                let stem = main.rsplit_once('.').map_or(main, |(s, _)| s);
                out.push(format!("{stem}.{suffix}"));
            }
        }
    }
    all
}

/// Whether `key` matches `pattern` (`{…}` = any run of characters without a dot).
fn matches(pattern: &str, key: &str) -> bool {
    match pattern.find('{') {
        None => pattern == key,
        Some(open) => {
            let Some(close) = pattern[open..].find('}').map(|c| open + c) else {
                return false;
            };
            let (head, tail) = (&pattern[..open], &pattern[close + 1..]);
            let Some(rest) = key.strip_prefix(head) else {
                return false;
            };
            (0..=rest.len())
                .take_while(|&i| i == 0 || rest.as_bytes()[i - 1] != b'.')
                .filter(|&i| rest.is_char_boundary(i))
                .any(|i| matches(tail, &rest[i..]))
        }
    }
}

#[test]
fn figures_md_documents_exactly_the_keys_the_bench_writes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("FIGURES.md")).unwrap();
    let patterns = patterns(&doc);
    assert!(patterns.len() > 50, "only {} patterns read", patterns.len());
    let files = bench_data::load_dir(&root.join("../book/data")).unwrap();
    let full = files
        .iter()
        .filter(|f| f.run.mode == "full")
        .collect::<Vec<_>>();
    assert!(!full.is_empty(), "book/data holds no full run");
    for file in &full {
        let undocumented: Vec<&String> = file
            .figures
            .keys()
            .filter(|k| !patterns.iter().any(|p| matches(p, k)))
            .collect();
        assert!(
            undocumented.is_empty(),
            "{}: keys FIGURES.md does not describe: {undocumented:?}",
            file.machine.id
        );
    }
    let written = |p: &String| full.iter().any(|f| f.figures.keys().any(|k| matches(p, k)));
    let pending = pending(&doc);
    let unused: Vec<&String> = patterns
        .iter()
        .filter(|p| !pending.contains(p) && !written(p))
        .collect();
    assert!(
        unused.is_empty(),
        "FIGURES.md documents keys no full run wrote: {unused:?}"
    );
    let measured: Vec<&String> = pending.iter().filter(|p| written(p)).collect();
    assert!(
        measured.is_empty(),
        "FIGURES.md marks as not measured yet (\"{PENDING}\") keys a full run wrote: remove the mark \
         from their section: {measured:?}"
    );
}

#[test]
fn patterns_match_one_key_part_per_placeholder() {
    assert!(matches("peers.{n}.pool{w}", "peers.16.pool"));
    assert!(matches("peers.{n}.pool{w}", "peers.16.pool_write"));
    assert!(!matches("peers.{n}.pool{w}", "peers.16.pool.x"));
    assert!(matches(
        "chunking.blocks.{strategy}.{source}.first.bytes",
        "chunking.blocks.collect_vec.vec.first.bytes"
    ));
    assert!(!matches("a.{n}.b", "a.1.2.b"));
    let p = patterns("| `a.b.bytes` / `.allocations` | B |\n| `c.{n}` | ns |\n| key | unit |");
    assert_eq!(p, ["a.b.bytes", "a.b.allocations", "c.{n}"]);
    let doc = "## a\n| `a.x` | ns |\n## b\nNot in the committed data yet: …\n| `b.{t}.y` | ns |\n## c\n| `c.z` | ns |";
    assert_eq!(patterns(doc), ["a.x", "b.{t}.y", "c.z"]);
    assert_eq!(pending(doc), ["b.{t}.y"]);
}

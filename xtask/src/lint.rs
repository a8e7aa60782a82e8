//! The book's prose lint: a sentence that compares measured things carries its evidence.
//!
//! A sentence in `book/src` that says something is faster, slower, cheaper, within a margin, not
//! citable, … must carry a `{{#claim …}}` or a `{{#verdict …}}` (so the data decides it and a
//! strict build fails when the data disagrees), or be marked as a source article's reference
//! result (it says "reference" or "article", or it is an item of a list introduced by a sentence
//! that says "reference result"). Quoted or italic words are mentions, not statements ("no
//! measurable difference" names a verdict, *not citable* a label).
//! Offenders are listed as `file:line: sentence`. Words are matched whole and case-insensitively;
//! code spans, code blocks, HTML comments and headings are not prose, and a chapter's "What this
//! chapter does not claim" section only denies claims.
//!
//! Then the strict build: the committed data must not contradict any claim (`LAB_STRICT=1`; the
//! preprocessor names chapter, line and sentence of each contradicted one).

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::{Context, Result, bail};

/// Words and phrases that compare measured things.
pub const COMPARING: &[&str] = &[
    "faster",
    "slower",
    "cheaper",
    "costlier",
    "quicker",
    "more than",
    "less than",
    "fewer than",
    "more time",
    "less time",
    "within",
    "no measurable",
    "no difference",
    "measurable difference",
    "beat",
    "beats",
    "outperforms",
    "grows",
    "grew",
    "citable",
    "a gain",
    "gains",
    "smaller than",
    "larger than",
    "as fast as",
    "disappears",
];

/// One sentence that compares without evidence.
#[derive(Debug, PartialEq, Eq)]
pub struct Offense {
    pub line: usize,
    pub sentence: String,
}

/// The lint over every chapter, the translation report's check, then the strict build of the
/// committed data.
pub fn run(root: &Path) -> Result<()> {
    let src = root.join("book/src");
    let paths = crate::site::chapters(root)?;
    let mut found = Vec::new();
    for path in &paths {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let name = path
            .strip_prefix(root)
            .unwrap_or(path)
            .display()
            .to_string();
        for o in lint(&text) {
            found.push(format!("{name}:{}: {}", o.line, o.sentence));
        }
    }
    let mut uncompiled = Vec::new();
    for path in &paths {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let dir = path.parent().unwrap_or(&src);
        for (line, problem) in rust_blocks_not_included(&text, dir) {
            uncompiled.push(format!("{}:{line}: {problem}", path.display()));
        }
    }
    if !uncompiled.is_empty() {
        bail!(
            "the book shows Rust code that no test compiles: a Rust block in book/src must be one \
             {{{{#include FILE}}}} of a file a test compiles (bufpool/doc/, the exercises):\n  {}",
            uncompiled.join("\n  ")
        );
    }
    if !found.is_empty() {
        bail!(
            "{} sentence(s) in book/src compare measured things without a {{{{#claim}}}} or {{{{#verdict}}}} \
             (or a mark as an article's reference result):\n  {}",
            found.len(),
            found.join("\n  ")
        );
    }
    println!(
        "lint: every comparing sentence of {} chapters carries its evidence",
        paths.len()
    );
    // Every shipped language complete, its translations carrying the English's directives (so
    // its claims are the same claims).
    let report = crate::i18n::report(root)?;
    print!("{}", report.text());
    report.check()?;
    strict_build(root, &root.join("book/data"))
        .context("the strict build (LAB_STRICT) of the committed data failed")
}

/// The Rust code blocks of a chapter (in `dir`) that are not a single `{{#include FILE[:anchor]}}`
/// of an existing file, by line: the book shows compiled code only (`bufpool/doc/` holds the
/// snippets its doc tests compile, the exercises crate its skeletons and solutions).
pub fn rust_blocks_not_included(text: &str, dir: &Path) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut open: Option<(usize, Vec<&str>)> = None;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        match &mut open {
            None if trimmed.starts_with("```rust") => open = Some((i + 1, Vec::new())),
            None => {}
            Some((start, body)) if trimmed.starts_with("```") => {
                let lines: Vec<&str> = body
                    .iter()
                    .copied()
                    .filter(|l| !l.trim().is_empty())
                    .collect();
                let include = match lines.as_slice() {
                    [one] => one
                        .trim()
                        .strip_prefix("{{#include ")
                        .and_then(|r| r.strip_suffix("}}")),
                    _ => None,
                };
                match include {
                    None => out.push((*start, "a Rust block typed into the page".to_string())),
                    Some(target) => {
                        let file = target.split(':').next().unwrap_or(target).trim();
                        if !dir.join(file).is_file() {
                            out.push((*start, format!("{{{{#include {file}}}}}: no such file")));
                        }
                    }
                }
                open = None;
            }
            Some((_, body)) => body.push(line),
        }
    }
    out
}

/// Builds the book with the data in `data_dir` in strict mode (the preprocessor in-process, so its
/// error — chapter, line and sentence of each contradicted claim — is this function's error).
pub fn strict_build(root: &Path, data_dir: &Path) -> Result<()> {
    static BUILDS: AtomicUsize = AtomicUsize::new(0);
    let out = std::env::temp_dir().join(format!(
        "lab-strict-{}-{}",
        std::process::id(),
        BUILDS.fetch_add(1, Ordering::Relaxed)
    ));
    let result = (|| {
        let mut book =
            mdbook_driver::MDBook::load(root.join("book")).context("cannot load book/book.toml")?;
        book.config.set("preprocessor.lab.strict", true)?;
        book.config
            .set("preprocessor.lab.data-dir", data_dir.display().to_string())?;
        book.config.build.build_dir = out.clone();
        book.with_preprocessor(mdbook_lab::Lab);
        book.build()
    })();
    let _ = std::fs::remove_dir_all(&out);
    result.map_err(|e| anyhow::anyhow!("{e:#}"))
}

/// The offending sentences of one chapter's Markdown.
pub fn lint(text: &str) -> Vec<Offense> {
    let mut out = Vec::new();
    let mut reference_list = false;
    for block in blocks(text) {
        if block.disclaimer {
            continue;
        }
        let is_item = block.text.trim_start().starts_with("- ");
        let lower = block.text.to_lowercase();
        if !is_item {
            reference_list = lower.contains("reference result");
        }
        // A paragraph labelled as reference results, or an item of a list it introduces.
        if reference_list {
            continue;
        }
        for (line, sentence) in sentences(&block) {
            let lower = sentence.to_lowercase();
            let evidence = lower.contains("{{#claim")
                || lower.contains("{{#verdict")
                || lower.contains("reference")
                || lower.contains("article");
            let prose = without_mentions(&without_directives(&lower));
            if !evidence && COMPARING.iter().any(|w| has_word(&prose, w)) {
                out.push(Offense {
                    line,
                    sentence: strip_directives(&sentence),
                });
            }
        }
    }
    out
}

/// A paragraph or list item, with the line it starts on.
struct Block {
    line: usize,
    text: String,
    /// Under a "What this chapter does not claim" heading: every sentence there denies a claim.
    disclaimer: bool,
}

/// Prose blocks: paragraphs and list items, without code blocks, comments, headings, tables and
/// HTML lines.
fn blocks(text: &str) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    let (mut fence, mut comment, mut open, mut disclaimer) = (false, false, false, false);
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.starts_with("```") {
            fence = !fence;
            open = false;
            continue;
        }
        if line.starts_with("<!--") {
            comment = !line.contains("-->");
            open = false;
            continue;
        }
        if comment {
            comment = !line.contains("-->");
            continue;
        }
        if !fence && line.starts_with('#') {
            disclaimer = line.to_lowercase().contains("does not claim");
        }
        let not_prose = fence
            || line.is_empty()
            || line.starts_with('#')
            || line.starts_with('|')
            || line.starts_with('<');
        if not_prose {
            open = false;
            continue;
        }
        if open && !line.starts_with("- ") {
            if let Some(b) = out.last_mut() {
                b.text.push('\n');
                b.text.push_str(line);
            }
        } else {
            out.push(Block {
                line: i + 1,
                text: line.to_string(),
                disclaimer,
            });
            open = true;
        }
    }
    out
}

/// The block's sentences with the line each starts on; ends inside `{{#…}}` and code spans do
/// not count.
fn sentences(block: &Block) -> Vec<(usize, String)> {
    let text = &block.text;
    let mut out = Vec::new();
    let (mut start, mut depth, mut code) = (0, false, false);
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i..].starts_with(b"{{#") {
            depth = true;
        } else if depth && bytes[i..].starts_with(b"}}") {
            depth = false;
        } else if bytes[i] == b'`' {
            code = !code;
        } else if !depth
            && !code
            && matches!(bytes[i], b'.' | b'?' | b'!')
            && bytes.get(i + 1).is_none_or(|b| b.is_ascii_whitespace())
        {
            let line = block.line + text[..start].matches('\n').count();
            out.push((line, text[start..=i].trim().to_string()));
            start = i + 1;
        }
        i += 1;
    }
    if !text[start..].trim().is_empty() {
        let line = block.line + text[..start].matches('\n').count();
        out.push((line, text[start..].trim().to_string()));
    }
    out.into_iter()
        .map(|(l, s)| (l, without_code(&s)))
        .collect()
}

/// Code spans are names, not prose (`ratio_only` is not a comparison).
fn without_code(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for (i, part) in s.split('`').enumerate() {
        if i % 2 == 0 {
            out.push_str(part);
        } else {
            out.push_str("`…`");
        }
    }
    out
}

/// The sentence without quoted or italic mentions: "no measurable difference" and *not citable*
/// name a verdict or a label, they do not state one.
fn without_mentions(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut quoted = false;
    let chars: Vec<char> = s.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let prev = i.checked_sub(1).map(|j| chars[j]);
        let next = chars.get(i + 1).copied();
        let italic = c == '*' && prev != Some('*') && next != Some('*');
        if c == '"' || c == '“' || c == '”' || italic {
            quoted = !quoted;
            continue;
        }
        if !quoted {
            out.push(c);
        }
    }
    out
}

/// The words of a sentence without its directives (`{{#fig a.faster}}` names a key).
fn without_directives(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(open) = rest.find("{{#") {
        out.push_str(&rest[..open]);
        match rest[open..].find("}}") {
            Some(close) => rest = &rest[open + close + 2..],
            None => {
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

fn has_word(lower: &str, word: &str) -> bool {
    let word_char = |c: char| c.is_alphanumeric() || c == '-' || c == '_';
    lower.match_indices(word).any(|(i, _)| {
        let before = lower[..i].chars().next_back();
        let after = lower[i + word.len()..].chars().next();
        !before.is_some_and(word_char) && !after.is_some_and(word_char)
    })
}

fn strip_directives(s: &str) -> String {
    let mut out = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if out.chars().count() > 120 {
        out = out.chars().take(119).collect::<String>() + "…";
    }
    out
}

#[cfg(test)]
mod tests {

    #[test]
    fn rust_blocks_must_be_includes_of_real_files() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../book/src");
        let typed = "Text\n\n```rust,ignore\nlet x = 1;\n```\n";
        assert_eq!(rust_blocks_not_included(typed, &dir).len(), 1);
        let missing = "```rust\n{{#include ../../bufpool/doc/nothing.rs}}\n```\n";
        assert!(
            rust_blocks_not_included(missing, &dir)[0]
                .1
                .contains("no such file")
        );
        let good = "```rust,ignore\n{{#include ../../bufpool/doc/double_return.rs}}\n```\n```text\nnot rust\n```\n";
        assert!(rust_blocks_not_included(good, &dir).is_empty());
    }

    use super::*;

    #[test]
    fn a_comparing_sentence_without_evidence_is_found() {
        let text = "# Title\n\nThe pool is faster than a fresh `Vec`. It is red.\n\
                    The const rent took less time {{#claim a.b below 1}}.\n";
        let found = lint(text);
        assert_eq!(
            found,
            vec![Offense {
                line: 3,
                sentence: "The pool is faster than a fresh `…`.".into()
            }]
        );
    }

    #[test]
    fn evidence_and_reference_results_pass() {
        let text = "\
Sizes gain at every size {{#verdict a.b expect=less}}; more below.

.NET was 2× faster (.NET reference result).

**Go reference results** (the article):

- 12 % faster on JSON.
- Binary size grew by 41,658 bytes.

Plain prose.
- but this item is faster.

## What this chapter does not claim

- That the pool is faster everywhere.

## Next

Slower again.
";
        let found = lint(text);
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!((found[0].line, found[1].line), (11, 19));
    }

    #[test]
    fn code_comments_headings_and_directive_dots_are_not_prose() {
        let text = "\
## Faster than ever

```rust
// faster
```

<!-- slower -->

`faster_path` is a name. {{#fig a.faster}} is a key.
The run-time one is within {{#claim x.y < 1.1}} noise.
";
        assert_eq!(lint(text), vec![]);
    }

    /// The committed data, copied, with one verdict the text relies on flipped: the strict build
    /// must fail and name the chapter, the line and the sentence.
    #[test]
    fn the_strict_build_fails_when_the_data_flips_a_verdict() {
        let root = crate::root();
        // Every committed file, the book's primary one (the most recent run) with the flip.
        let mut files = bench_data::load_dir(&root.join("book/data")).unwrap();
        let primary = (0..files.len())
            .filter(|&i| files[i].run.runtime == bench_data::SYSTEM_RUNTIME)
            .max_by(|&a, &b| files[a].run.date.cmp(&files[b].run.date))
            .expect("book/data holds a data file");
        let key = "size_specialized.16.const_vs_runtime";
        let f = files[primary]
            .figures
            .get_mut(key)
            .expect("the chapter cites this figure");
        (f.value, f.low, f.high) = (0.80, 0.78, 0.82);
        f.repeats.clear();
        let dir = std::env::temp_dir().join(format!("lab-flip-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for file in &files {
            let name = format!("{}.json", file.stem());
            std::fs::write(dir.join(name), file.to_json()).unwrap();
        }
        let result = strict_build(&root, &dir);
        std::fs::remove_dir_all(&dir).unwrap();
        let e = result
            .expect_err("the strict build accepted a contradicted claim")
            .to_string();
        assert!(e.contains("strict build"), "{e}");
        assert!(e.contains("size-specialized.md:"), "{e}");
        assert!(e.contains(key) && e.contains("0.800×"), "{e}");
        assert!(
            e.contains("“At 16 bytes, the const-generic rent never"),
            "no sentence named: {e}"
        );
    }

    #[test]
    fn mentions_are_not_statements() {
        assert!(lint("A figure is shown as *not citable*. It reads \"faster\".").is_empty());
        assert_eq!(lint("The pool is **faster**.").len(), 1);
    }

    #[test]
    fn words_are_matched_whole() {
        assert!(has_word("it beats them", "beats"));
        assert!(!has_word("heartbeats", "beats"));
        assert!(!has_word("within-chunk", "within"));
        assert!(has_word("(within noise)", "within"));
    }
}

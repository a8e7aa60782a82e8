//! Every internal link and anchor of the built book, checked on the HTML mdBook wrote.
//!
//! A chapter that says "see [Capacity](capacity.md#two-ceilings-two-pools)" is only as good as
//! the heading it points at, and headings get renamed. mdBook does not check anchors, so this
//! module reads every page of the built site, collects every `href` and `src`, resolves it against
//! the page's own path, and fails, naming page and link, when the file or the `#id` is missing.
//! Links with a scheme (`https:`, `mailto:`) leave the book and are not followed: the build must
//! work offline.
//!
//! The HTML is read with html5ever's tokenizer (the parser mdBook's own dependencies already
//! bring in) rather than with a regular expression: attributes may be quoted either way, and
//! entities (`&amp;`) in an `href` must be decoded before it is resolved.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{
    BufferQueue, TagKind, TagToken, Token, TokenSink, TokenSinkResult, Tokenizer,
};

/// Pages mdBook generates whose links are not the book's own: `404.html` resolves its links
/// against the site's root URL (`site-url`), not against its own path.
const NOT_CHECKED: &[&str] = &["404.html"];

/// What one page holds: the ids it defines and the links it makes.
#[derive(Default)]
struct Page {
    ids: BTreeSet<String>,
    links: Vec<String>,
}

/// Collects ids and link targets as the tokenizer finds tags.
#[derive(Default)]
struct Collector(RefCell<Page>);

impl TokenSink for Collector {
    type Handle = ();

    fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
        if let TagToken(tag) = token
            && tag.kind == TagKind::StartTag
        {
            let mut page = self.0.borrow_mut();
            for attr in &tag.attrs {
                match &*attr.name.local {
                    "id" => {
                        page.ids.insert(attr.value.to_string());
                    }
                    "name" if &*tag.name == "a" => {
                        page.ids.insert(attr.value.to_string());
                    }
                    "href" | "src" => page.links.push(attr.value.to_string()),
                    _ => {}
                }
            }
        }
        TokenSinkResult::Continue
    }
}

fn read_page(path: &Path) -> Result<Page> {
    let html = std::fs::read_to_string(path).with_context(|| format!("{}", path.display()))?;
    Ok(tokenize(html, Collector::default()).0.take())
}

/// Runs html5ever's tokenizer over `html` into `sink` and returns the sink (also the search
/// text's reader, `search.rs`).
pub fn tokenize<S: TokenSink>(html: String, sink: S) -> S {
    let queue = BufferQueue::default();
    queue.push_back(StrTendril::from(html));
    let tokenizer = Tokenizer::new(sink, Default::default());
    let _ = tokenizer.feed(&queue);
    tokenizer.end();
    tokenizer.sink
}

/// Checks every `.html` page under `site`; the error lists every broken link.
pub fn check(site: &Path) -> Result<()> {
    let broken = broken_links(site)?;
    if !broken.is_empty() {
        bail!(
            "{} broken internal link(s) or anchor(s) in the built book:\n  {}",
            broken.len(),
            broken.join("\n  ")
        );
    }
    Ok(())
}

/// Every broken link, as "page: link (why)", sorted.
pub fn broken_links(site: &Path) -> Result<Vec<String>> {
    let mut pages = BTreeMap::new();
    for file in html_files(site)? {
        pages.insert(file.clone(), read_page(&file)?);
    }
    if pages.is_empty() {
        bail!(
            "{} holds no HTML page: build the book first",
            site.display()
        );
    }
    let mut broken = Vec::new();
    for (file, page) in &pages {
        let rel = file.strip_prefix(site).unwrap_or(file).to_string_lossy();
        if NOT_CHECKED.contains(&rel.as_ref()) {
            continue;
        }
        for link in &page.links {
            if let Some(why) = problem(site, file, link, &pages) {
                broken.push(format!("{rel}: {link} ({why})"));
            }
        }
    }
    broken.sort();
    broken.dedup();
    Ok(broken)
}

/// Why `link`, found in `from`, does not resolve, or `None` when it does (or leaves the book).
fn problem(
    site: &Path,
    from: &Path,
    link: &str,
    pages: &BTreeMap<PathBuf, Page>,
) -> Option<String> {
    let link = link.trim();
    if link.is_empty() || leaves_the_book(link) {
        return None;
    }
    let (path, fragment) = link.split_once('#').unwrap_or((link, ""));
    let path = path.split_once('?').map_or(path, |(p, _)| p);
    let target = if path.is_empty() {
        from.to_path_buf()
    } else {
        let decoded = percent_encoding::percent_decode_str(path).decode_utf8_lossy();
        let base = if decoded.starts_with('/') {
            site.to_path_buf()
        } else {
            from.parent().unwrap_or(site).to_path_buf()
        };
        let mut joined = normalize(&base.join(decoded.trim_start_matches('/')));
        if path.ends_with('/') || joined.is_dir() {
            joined = joined.join("index.html");
        }
        joined
    };
    if !target.starts_with(site) {
        return Some("points outside the book".into());
    }
    if !target.is_file() {
        return Some(format!(
            "no file {}",
            target.strip_prefix(site).unwrap_or(&target).display()
        ));
    }
    if fragment.is_empty() {
        return None;
    }
    let id = percent_encoding::percent_decode_str(fragment).decode_utf8_lossy();
    match pages.get(&target) {
        Some(page) if page.ids.contains(id.as_ref()) => None,
        Some(_) => Some(format!("no element with id {id:?}")),
        None => Some("an anchor into a file that is not an HTML page".into()),
    }
}

/// A link with a scheme (`https:`, `mailto:`, `data:`, `javascript:`) or protocol-relative.
fn leaves_the_book(link: &str) -> bool {
    if link.starts_with("//") {
        return true;
    }
    let scheme_end = link.find(':');
    let path_start = link.find(['/', '#', '?']).unwrap_or(link.len());
    matches!(scheme_end, Some(i) if i < path_start && i > 0)
}

/// `a/./b/../c` → `a/c`, without touching the file system (the target may not exist).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

fn html_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).with_context(|| format!("{}", d.display()))? {
            let path = entry?.path();
            if path.is_dir() {
                todo.push(path);
            } else if path.extension().is_some_and(|e| e == "html") {
                out.push(path);
            }
        }
    }
    out.sort();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(files: &[(&str, &str)]) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "xtask-links-{}-{}",
            std::process::id(),
            files.len()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        for (name, html) in files {
            let path = dir.join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, html).unwrap();
        }
        dir
    }

    #[test]
    fn good_links_pass_and_every_kind_of_broken_link_is_named() {
        let dir = site(&[
            (
                "a.html",
                r##"<h2 id="top">A</h2>
                <a href="b.html#two">ok</a> <a href='b.html'>ok</a> <a href="#top">ok</a>
                <a href="sub/c.html">ok</a> <a href="https://example.org/x#y">external</a>
                <a href="mailto:x@example.org">mail</a> <img src="img/i.svg">
                <a href="missing.html">file</a> <a href="b.html#nope">anchor</a>
                <a href="#gone">own anchor</a> <a href="b.html?x=1&amp;y=2#two">query</a>"##,
            ),
            (
                "b.html",
                r#"<p><a name="one"></a><span id="two">B</span></p>"#,
            ),
            (
                "sub/c.html",
                r#"<a href="../a.html#top">up</a> <a href="../../out.html">out</a>
                <a href="./d.html">missing here</a>"#,
            ),
            ("img/i.svg", "<svg/>"),
            ("404.html", r#"<a href="/nowhere.html">not checked</a>"#),
        ]);
        let broken = broken_links(&dir).unwrap();
        assert_eq!(
            broken,
            [
                "a.html: #gone (no element with id \"gone\")",
                "a.html: b.html#nope (no element with id \"nope\")",
                "a.html: missing.html (no file missing.html)",
                "sub/c.html: ../../out.html (points outside the book)",
                "sub/c.html: ./d.html (no file sub/d.html)",
            ]
        );
        let err = check(&dir).unwrap_err().to_string();
        assert!(err.starts_with("5 broken internal link(s)"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_empty_directory_is_an_error_not_a_pass() {
        let dir = site(&[]);
        std::fs::create_dir_all(&dir).unwrap();
        assert!(check(&dir).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn schemes_leave_the_book_and_paths_do_not() {
        assert!(leaves_the_book("https://x.org/a"));
        assert!(leaves_the_book("mailto:a@b"));
        assert!(leaves_the_book("//cdn.example/x.js"));
        assert!(!leaves_the_book("a.html#x:y"));
        assert!(!leaves_the_book("dir/a:b.html"));
    }
}

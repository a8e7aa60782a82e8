//! The built site as a static host serves it (issue 40: a chapter live in two seconds on a
//! phone): what runs over every page after mdBook. Each
//! language's site (`book/build`, `book/build/<code>`) in turn:
//!
//! - code blocks highlighted at build time (`highlight.rs`), and highlight.js left out: a
//!   three-line stand-in for the two calls mdBook's `book.js` makes to it;
//! - the page's stylesheets as one file (`lab-site-<hash>.css`, the print sheet inside as
//!   `@media print`), mdBook's three highlight sheets inside too, each under the themes it
//!   serves (`slim.rs`; `book.js` still finds an empty `<style>` by each id to switch);
//! - the printed quiz and its answer key only on the print page, the template's indentation
//!   gone (`slim.rs`);
//! - mdBook's search (elasticlunr, mark, searcher: 60 kB before gzip) loaded on the first use
//!   of search, not by every page;
//! - the page's wasm module and its `.wasm` requested from the head (`modulepreload`,
//!   `preload`), so they download while the page parses; its strings file too on a translated
//!   page;
//! - one icon (the SVG) instead of two;
//! - the contributors' page's table of `cargo xtask bench-site`'s reports ([`site_bench`]);
//! - [`compress`]: a `.gz` sibling for every text asset (HTML, CSS, JS, JSON, SVG, text) and the
//!   wasm modules, which `cargo xtask serve` (`serve.rs`) sends with `Content-Encoding: gzip`, as
//!   static hosts do. No `.br`: the brotli crate is not in the lock file, and gzip is what the
//!   issue's target is measured with.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};

/// Runs every step over the built `site` (all languages).
pub fn finish(site: &Path) -> Result<()> {
    let mut dirs = vec![(site.to_path_buf(), "en".to_string())];
    for language in lab_text::lang::LANGUAGES.iter().filter(|l| l.code != "en") {
        dirs.push((site.join(language.code), language.code.to_string()));
    }
    let root = site
        .parent()
        .and_then(Path::parent)
        .context("the site is not book/build")?;
    let reports = site_reports(root)?;
    for (dir, code) in &dirs {
        site_bench(dir, code, &reports)?;
        let (pages, blocks) = rewrite(dir, code)?;
        println!("{code}: {pages} pages rewritten for the phone, {blocks} code blocks highlighted");
    }
    let (files, raw, zipped) = compress(site)?;
    println!("precompressed {files} files: {raw} B → {zipped} B gzipped");
    Ok(())
}

/// One `<link rel="stylesheet">` or `<script src>` tag of a page: where it is and what it says.
struct Tag {
    range: std::ops::Range<usize>,
    href: String,
    id: Option<String>,
    media: Option<String>,
}

fn attr(tag: &str, name: &str) -> Option<String> {
    let key = format!(" {name}=\"");
    let start = tag.find(&key)? + key.len();
    let end = tag[start..].find('"')? + start;
    Some(tag[start..end].to_string())
}

/// Every tag starting with `open` (through its `>`; a script through its `</script>`).
fn tags(page: &str, open: &str, src: &str) -> Vec<Tag> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(i) = page[from..].find(open).map(|i| from + i) {
        let Some(end) = page[i..].find('>').map(|e| i + e + 1) else {
            break;
        };
        let mut end = end;
        if page[end..].starts_with("</script>") {
            end += "</script>".len();
        }
        let tag = &page[i..end];
        if let Some(href) = attr(tag, src) {
            found.push(Tag {
                range: i..end,
                href,
                id: attr(tag, "id"),
                media: attr(tag, "media"),
            });
        }
        from = end;
    }
    found
}

/// `url(…)`s of a stylesheet at `css_dir` (relative to the site's root), rewritten relative to
/// the root, where the bundle is.
fn rebase_urls(css: &str, css_dir: &str) -> String {
    let mut out = String::with_capacity(css.len());
    let mut rest = css;
    while let Some(i) = rest.find("url(") {
        out.push_str(&rest[..i + 4]);
        rest = &rest[i + 4..];
        let end = rest.find(')').unwrap_or(rest.len());
        let raw = rest[..end].trim();
        let quote = raw.chars().next().filter(|c| *c == '\'' || *c == '"');
        let inner = quote.map_or(raw, |q| raw.trim_matches(q));
        let keep = inner.starts_with("data:")
            || inner.starts_with('/')
            || inner.starts_with('#')
            || inner.contains("://");
        if keep || css_dir.is_empty() {
            out.push_str(&rest[..end]);
        } else {
            let mut parts: Vec<&str> = css_dir.split('/').filter(|p| !p.is_empty()).collect();
            for part in inner.split('/') {
                match part {
                    ".." => {
                        parts.pop();
                    }
                    "." => {}
                    p => parts.push(p),
                }
            }
            let q = quote.map(String::from).unwrap_or_default();
            out.push_str(&format!("{q}{}{q}", parts.join("/")));
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

fn fnv(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5u32, |h, b| {
        (h ^ u32::from(*b)).wrapping_mul(0x0100_0193)
    })
}

/// The inline stand-in for highlight.js: `book.js` configures it and calls it per code block;
/// the blocks are highlighted already.
const HLJS_STANDIN: &str = "<script>window.hljs={configure(){},highlightBlock(){}};</script>";

/// Loads mdBook's search scripts (`{SRCS}`) on the first click of the search button or the first
/// `s` or `/`, or at once when the address carries a search; then hands the click or key to
/// the search itself.
const LAZY_SEARCH: &str = r#"<script>(function(){
const srcs={SRCS};const t=document.getElementById("mdbook-search-toggle");if(!t)return;
let loading=null;function load(){if(!loading){loading=srcs.reduce((p,s)=>p.then(()=>new Promise((ok,no)=>{const e=document.createElement("script");e.src=s;e.onload=ok;e.onerror=no;document.body.append(e);})),Promise.resolve());}return loading;}
function off(){t.removeEventListener("click",click,true);document.removeEventListener("keydown",key,true);}
function click(e){e.preventDefault();e.stopImmediatePropagation();off();load().then(()=>t.click());}
function key(e){if(e.altKey||e.ctrlKey||e.metaKey||e.shiftKey)return;const n=e.target.nodeName;if(n==="INPUT"||n==="TEXTAREA")return;
if(e.key==="s"||e.key==="S"||e.key==="/"){e.preventDefault();off();load().then(()=>t.click());}}
if(/[?&](search|highlight)=/.test(location.search)){off();load();}else{t.addEventListener("click",click,true);document.addEventListener("keydown",key,true);}
})();</script>"#;

/// The search scripts mdBook's template loads on every page.
const SEARCH_SCRIPTS: &[&str] = &["elasticlunr", "mark", "searcher"];

/// Rewrites every page of one language's site `dir`; returns (pages, code blocks highlighted).
fn rewrite(dir: &Path, code: &str) -> Result<(usize, usize)> {
    let mut pages = Vec::new();
    // And mdBook's script (`book-<hash>.js`), which reads the icon templates a page keeps.
    let mut script = String::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        if path.extension().is_some_and(|x| x == "html") {
            pages.push(path);
        } else if name.starts_with("book-") && name.ends_with(".js") {
            script = std::fs::read_to_string(&path)?;
        }
    }
    pages.sort();
    let mut bundles: std::collections::BTreeMap<Vec<String>, String> = Default::default();
    let (mut rewritten, mut blocks) = (0, 0);
    for path in pages {
        let html = std::fs::read_to_string(&path)?;
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        let (html, n) = crate::highlight::page(&html);
        blocks += n;
        let (html, _) = crate::slim::unused_templates(&html, &script);
        let (html, broken) = crate::slim::print_only(&html, name == "print.html");
        anyhow::ensure!(
            broken == 0,
            "{}: {broken} print-only block(s) without their markers (see xtask/src/slim.rs)",
            path.display()
        );
        let Some(html) = page(dir, code, &name, &html, &mut bundles)? else {
            std::fs::write(&path, html)?;
            continue;
        };
        std::fs::write(&path, html)?;
        rewritten += 1;
    }
    Ok((rewritten, blocks))
}

/// One page's head and scripts; `None` when its resources are not where this site keeps them
/// (mdBook's 404 page, whose links are absolute), and it stays as it is.
fn page(
    dir: &Path,
    code: &str,
    name: &str,
    html: &str,
    bundles: &mut std::collections::BTreeMap<Vec<String>, String>,
) -> Result<Option<String>> {
    let links = tags(html, "<link rel=\"stylesheet\"", "href");
    if links.is_empty() || links.iter().any(|l| !dir.join(&l.href).is_file()) {
        return Ok(None);
    }
    // Edits as (range, replacement), applied from the end.
    let mut edits: Vec<(std::ops::Range<usize>, String)> = Vec::new();
    let bundled: Vec<&Tag> = links.iter().filter(|l| l.id.is_none()).collect();
    let key: Vec<String> = links.iter().map(|l| l.href.clone()).collect();
    let bundle = match bundles.get(&key) {
        Some(b) => b.clone(),
        None => {
            let mut css = String::new();
            for l in &bundled {
                let text = std::fs::read_to_string(dir.join(&l.href))?;
                let css_dir = l.href.rsplit_once('/').map_or("", |(d, _)| d);
                let text = rebase_urls(&text, css_dir);
                match &l.media {
                    Some(media) => css.push_str(&format!("@media {media} {{\n{text}\n}}\n")),
                    None => {
                        css.push_str(&text);
                        css.push('\n');
                    }
                }
            }
            // mdBook's highlight sheets, each under the themes that use it (`slim.rs`).
            for l in links.iter().filter(|l| l.id.is_some()) {
                let id = l.id.as_deref().unwrap_or_default();
                let Some((_, themes)) =
                    crate::slim::HIGHLIGHT_THEMES.iter().find(|(i, _)| *i == id)
                else {
                    anyhow::bail!(
                        "a stylesheet with the unknown id {id:?}: book.js switches only mdBook's highlight sheets (xtask/src/slim.rs)"
                    );
                };
                let text = std::fs::read_to_string(dir.join(&l.href))?;
                css.push_str(&crate::slim::scope_highlight(&text, themes));
            }
            let file = format!("lab-site-{:08x}.css", fnv(css.as_bytes()));
            std::fs::write(dir.join(&file), css)?;
            bundles.insert(key, file.clone());
            file
        }
    };
    for (i, l) in links.iter().enumerate() {
        let replacement = match &l.id {
            // Empty: `book.js` toggles these by id; their rules are in the bundle, by theme.
            Some(id) => format!("<style id=\"{id}\"></style>"),
            None if i == links.iter().position(|l| l.id.is_none()).unwrap_or(0) => {
                format!("<link rel=\"stylesheet\" href=\"{bundle}\">")
            }
            None => String::new(),
        };
        edits.push((l.range.clone(), replacement));
    }
    let scripts = tags(html, "<script src=\"", "src");
    let mut search = Vec::new();
    for s in &scripts {
        let file = s.href.rsplit('/').next().unwrap_or("");
        if file.starts_with("highlight-") && file.ends_with(".js") {
            edits.push((s.range.clone(), HLJS_STANDIN.to_string()));
        } else if SEARCH_SCRIPTS
            .iter()
            .any(|n| file.starts_with(&format!("{n}-")))
        {
            search.push(s.href.clone());
            let replacement = if search.len() == SEARCH_SCRIPTS.len() {
                LAZY_SEARCH.replace("{SRCS}", &serde_json::to_string(&search)?)
            } else {
                String::new()
            };
            edits.push((s.range.clone(), replacement));
        }
    }
    // One icon: the SVG (every browser the book supports reads it).
    for icon in tags(html, "<link rel=\"shortcut icon\"", "href") {
        edits.push((icon.range, String::new()));
    }
    // The page's lab modules, requested from the head (not on print.html, which loads all).
    if name != "print.html" {
        let mut preload = String::new();
        let mut seen = Vec::new();
        for attr_name in [
            "data-lab-widget=\"",
            "data-lab-quiz=\"",
            "data-lab-progress",
        ] {
            for (i, _) in html.match_indices(attr_name) {
                let module = if attr_name == "data-lab-progress" {
                    "progress".to_string()
                } else {
                    let rest = &html[i + attr_name.len()..];
                    rest[..rest.find('"').unwrap_or(0)].to_string()
                };
                let ok = !module.is_empty()
                    && module.chars().all(|c| c.is_ascii_lowercase() || c == '-')
                    && dir.join("wasm").join(&module).is_dir();
                if ok && !seen.contains(&module) {
                    preload.push_str(&format!(
                        "<link rel=\"modulepreload\" href=\"wasm/{module}/wasm_lab.js\">\
                         <link rel=\"preload\" href=\"wasm/{module}/wasm_lab_bg.wasm\" as=\"fetch\" type=\"application/wasm\" crossorigin>"
                    ));
                    if code != "en" {
                        preload.push_str(&format!(
                            "<link rel=\"preload\" href=\"wasm/{module}/strings.{code}.txt\" as=\"fetch\" crossorigin>"
                        ));
                    }
                    seen.push(module);
                }
            }
        }
        if let Some(i) = html.find("</head>") {
            edits.push((i..i, preload));
        }
    }
    edits.sort_by_key(|(r, _)| std::cmp::Reverse(r.start));
    let mut out = html.to_string();
    for (range, text) in edits {
        out.replace_range(range, &text);
    }
    Ok(Some(crate::slim::squeeze(&out)))
}

/// Extensions of the files worth compressing.
const COMPRESSED: &[&str] = &["html", "css", "js", "json", "svg", "txt", "wasm", "map"];

/// Writes `<file>.gz` beside every file of [`COMPRESSED`] kinds under `dir` whose gzip is
/// smaller; returns (files, bytes before, bytes after).
pub fn compress(dir: &Path) -> Result<(usize, u64, u64)> {
    let mut totals = (0, 0, 0);
    for entry in std::fs::read_dir(dir).with_context(|| format!("cannot list {}", dir.display()))? {
        let path = entry?.path();
        if path.is_dir() {
            let (f, r, z) = compress(&path)?;
            totals = (totals.0 + f, totals.1 + r, totals.2 + z);
            continue;
        }
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        if !COMPRESSED.contains(&ext) {
            continue;
        }
        let bytes = std::fs::read(&path)?;
        let zipped = gzip(&bytes)?;
        let mut name = path.file_name().context("no name")?.to_os_string();
        name.push(".gz");
        let gz = path.with_file_name(name);
        if zipped.len() < bytes.len() {
            std::fs::write(&gz, &zipped).with_context(|| format!("{}", gz.display()))?;
            totals = (
                totals.0 + 1,
                totals.1 + bytes.len() as u64,
                totals.2 + zipped.len() as u64,
            );
        } else if gz.exists() {
            std::fs::remove_file(&gz)?;
        }
    }
    Ok(totals)
}

/// `bytes` gzipped at the best level, without a time in the header (the same input gives the
/// same file).
pub fn gzip(bytes: &[u8]) -> Result<Vec<u8>> {
    let mut gz = flate2::GzBuilder::new()
        .mtime(0)
        .write(Vec::new(), flate2::Compression::best());
    gz.write_all(bytes)?;
    Ok(gz.finish()?)
}

/// The contributors' page's table of `cargo xtask bench-site`'s reports
/// (`book/data/site/*.json`): rows filled in after the `<div class="lab-site-bench">` mark,
/// numbers written the way the page's language writes them.
fn site_bench(dir: &Path, code: &str, reports: &[serde_json::Value]) -> Result<()> {
    let page = dir.join("contributors.html");
    let html = std::fs::read_to_string(&page)?;
    let mark = html.find("class=\"lab-site-bench\"").context(
        "contributors.html lost its <div class=\"lab-site-bench\"> (the site bench's table)",
    )?;
    let at = html[mark..]
        .find("</thead>")
        .map(|i| mark + i + "</thead>".len())
        .context("contributors.html has no table after the site bench's mark")?;
    lab_text::tr::set_catalogs(mdbook_lab::translate::CATALOGS);
    lab_text::tr::set_language(code);
    let mut rows = String::from("<tbody>");
    for report in reports {
        let machine = report["machine"]["id"].as_str().unwrap_or_default();
        for p in report["pages"].as_array().into_iter().flatten() {
            let name = p["page"].as_str().unwrap_or_default();
            let stem = name.trim_end_matches(".html");
            let num = |v: &serde_json::Value| {
                v.as_f64().map_or_else(
                    || "—".to_string(),
                    |n| lab_text::group_digits(n.round() as u64),
                )
            };
            let who = if reports.len() > 1 {
                format!(" <small>({})</small>", lab_text::html::escape(machine))
            } else {
                String::new()
            };
            rows.push_str(&format!(
                "<tr><td><a href=\"{name}\">{stem}</a>{who}</td><td style=\"text-align: right\">{}</td><td style=\"text-align: right\">{}</td><td style=\"text-align: right\">{}</td></tr>",
                num(&p["bytes"]),
                num(&p["requests"]),
                num(&p["live_ms"]),
            ));
        }
    }
    rows.push_str("</tbody>");
    lab_text::tr::set_language("en");
    let mut out = html;
    out.insert_str(at, &rows);
    std::fs::write(&page, out)?;
    Ok(())
}

/// The site bench's reports, `book/data/site/*.json`, sorted by file name.
fn site_reports(root: &Path) -> Result<Vec<serde_json::Value>> {
    let dir = root.join("book/data/site");
    let mut files: Vec<_> = match std::fs::read_dir(&dir) {
        Ok(entries) => entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect(),
        Err(_) => Vec::new(),
    };
    files.sort();
    files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f)?;
            serde_json::from_str(&text).with_context(|| format!("{}", f.display()))
        })
        .collect()
}

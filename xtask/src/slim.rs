//! What a chapter's HTML need not carry on every page (issue 36: the eight story chapters' HTML
//! at most 60 % of 791,688 B), run by `pages.rs` over each built page:
//!
//! - [`print_only`]: the printed quiz and its answer key, which only the book's print page
//!   (`print.html`) shows, leave the chapter pages; in their place a line that only prints,
//!   pointing to the print page (the preprocessor writes both, between `mdbook_lab::PRINT_ONLY`
//!   markers);
//! - [`scope_highlight`]: mdBook's three highlight sheets go into the site's one stylesheet,
//!   each under the themes that use it, instead of inline in every page;
//! - [`unused_templates`]: the icon templates `book.js` would copy into code blocks the page does
//!   not have (a playground's run button, hidden lines' eye), and the one it never reads;
//! - [`squeeze`]: the template's indentation (a line's leading spaces) and its comments,
//!   outside `<pre>`, `<textarea>`, `<script>` and `<style>`, where they render as nothing. Of
//!   the icons' license comments (`<!--! Font Awesome Free … License … -->`, one per icon, 20 a
//!   page) the first stays: the page's attribution for all its icons, as CC BY 4.0 asks.

use mdbook_lab::PRINT_ONLY;

/// Keeps the printed part of every [`PRINT_ONLY`] block when `print` (the print page), else the
/// note; the markers go. A block without its closing markers is left as it is (and counted in
/// the second value), so a change to the preprocessor's output shows in the build's report, not
/// as a page that lost its text.
pub fn print_only(html: &str, print: bool) -> (String, usize) {
    let [start, middle, end] = PRINT_ONLY;
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    let mut broken = 0;
    while let Some(i) = rest.find(start) {
        out.push_str(&rest[..i]);
        let block = &rest[i + start.len()..];
        let (Some(m), Some(e)) = (block.find(middle), block.find(end)) else {
            broken += 1;
            out.push_str(&rest[i..i + start.len()]);
            rest = block;
            continue;
        };
        if m > e {
            broken += 1;
            out.push_str(&rest[i..i + start.len()]);
            rest = block;
            continue;
        }
        out.push_str(if print {
            &block[..m]
        } else {
            &block[m + middle.len()..e]
        });
        rest = &block[e + end.len()..];
    }
    out.push_str(rest);
    (out, broken)
}

/// mdBook's highlight sheets by the `<style>`/`<link>` id `book.js` switches, with the themes
/// each one serves (`book.js`'s `set_theme`).
pub const HIGHLIGHT_THEMES: &[(&str, &[&str])] = &[
    ("mdbook-highlight-css", &["light", "rust"]),
    ("mdbook-tomorrow-night-css", &["coal", "navy"]),
    ("mdbook-ayu-highlight-css", &["ayu"]),
];

/// `css` with every rule's selectors under `:where(.theme, …)`: the sheet applies only on those
/// themes, and at its own specificity (`:where` adds none), so the course's contrast fixes
/// (`lab-contrast.css`) still win as before. Comments go; at-rules are kept unscoped (the three
/// sheets have none).
pub fn scope_highlight(css: &str, themes: &[&str]) -> String {
    let scope = format!(
        ":where({})",
        themes
            .iter()
            .map(|t| format!(".{t}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let mut plain = String::with_capacity(css.len());
    let mut rest = css;
    while let Some(i) = rest.find("/*") {
        plain.push_str(&rest[..i]);
        rest = rest[i..].find("*/").map_or("", |e| &rest[i + e + 2..]);
    }
    plain.push_str(rest);
    let mut out = String::with_capacity(plain.len() + plain.len() / 2);
    for rule in plain.split_inclusive('}') {
        let Some((selectors, body)) = rule.split_once('{') else {
            out.push_str(rule.trim());
            continue;
        };
        let selectors = selectors.trim();
        if selectors.starts_with('@') {
            out.push_str(rule.trim());
            out.push('\n');
            continue;
        }
        let scoped: Vec<String> = selectors
            .split(',')
            .map(|s| format!("{scope} {}", s.trim()))
            .collect();
        out.push_str(&scoped.join(", "));
        out.push_str(" { ");
        out.push_str(&body.split_whitespace().collect::<Vec<_>>().join(" "));
        out.push('\n');
    }
    out
}

/// The icon templates mdBook's template writes into every page, with the markup in a page that
/// makes `book.js` use each: the run and reset buttons of a playground block, the eye of a
/// block with hidden lines.
const TEMPLATE_USES: &[(&str, &str)] = &[
    ("fa-play", "<pre class=\"playground\""),
    ("fa-clock-rotate-left", "<pre class=\"playground\""),
    ("fa-eye", "class=\"boring\""),
    ("fa-eye-slash", "class=\"boring\""),
];

/// `html` without the icon templates (`<template id=fa-…>`) that nothing on the page uses: one
/// [`TEMPLATE_USES`] names goes when the page lacks its markup; any other goes when `script`
/// (mdBook's `book.js`) does not name it (mdBook 0.5 writes `fa-copy` and never reads it).
/// Returns the page and the templates removed.
pub fn unused_templates(html: &str, script: &str) -> (String, usize) {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    let mut removed = 0;
    while let Some(i) = rest.find("<template id=") {
        out.push_str(&rest[..i]);
        let tag = &rest[i..];
        let Some(end) = tag.find("</template>").map(|e| e + "</template>".len()) else {
            break;
        };
        let id: String = tag["<template id=".len()..]
            .trim_start_matches('"')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect();
        let used = match TEMPLATE_USES.iter().find(|(t, _)| *t == id) {
            Some((_, markup)) => html.contains(markup),
            None => script.contains(&format!("'{id}'")) || script.contains(&format!("\"{id}\"")),
        };
        if used {
            out.push_str(&tag[..end]);
        } else {
            removed += 1;
        }
        rest = &tag[end..];
    }
    out.push_str(rest);
    (out, removed)
}

/// Elements whose text keeps its whitespace (or is code).
const KEEP: &[&str] = &["pre", "textarea", "script", "style"];

/// `html` without the leading spaces and tabs of its lines, except inside [`KEEP`] elements: a
/// line break stays, so the text renders the same (HTML collapses the run either way).
pub fn squeeze(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    let mut license = false;
    loop {
        // The next element whose content is kept as it is.
        let next = KEEP
            .iter()
            .filter_map(|tag| find_open(rest, tag).map(|i| (i, *tag)))
            .min_by_key(|(i, _)| *i);
        let Some((i, tag)) = next else {
            out.push_str(&strip_indent(&strip_comments(rest, &mut license)));
            return out;
        };
        out.push_str(&strip_indent(&strip_comments(&rest[..i], &mut license)));
        let close = format!("</{tag}>");
        let end = rest[i..]
            .find(&close)
            .map_or(rest.len(), |e| i + e + close.len());
        out.push_str(&rest[i..end]);
        rest = &rest[end..];
    }
}

/// Where `<tag` opens an element (`<pre>` or `<pre class…`, not `<prefix`).
fn find_open(html: &str, tag: &str) -> Option<usize> {
    let open = format!("<{tag}");
    let mut from = 0;
    while let Some(i) = html[from..].find(&open).map(|i| from + i) {
        let after = html[i + open.len()..].chars().next();
        if matches!(after, Some('>' | ' ' | '\n' | '\t' | '/')) {
            return Some(i);
        }
        from = i + open.len();
    }
    None
}

/// `text` without its comments, but for the first license comment (`<!--!`) of the page, kept
/// when `license` is still false.
fn strip_comments(text: &str, license: &mut bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("<!--") {
        out.push_str(&rest[..i]);
        let Some(e) = rest[i..].find("-->").map(|e| i + e + 3) else {
            out.push_str(&rest[i..]);
            return out;
        };
        if rest[i..].starts_with("<!--!") && !*license {
            *license = true;
            out.push_str(&rest[i..e]);
        }
        rest = &rest[e..];
    }
    out.push_str(rest);
    out
}

fn strip_indent(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
            out.push_str(line.trim_start_matches([' ', '\t']));
        } else {
            out.push_str(line);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_print_page_keeps_the_printed_quiz_and_a_chapter_keeps_the_note() {
        let [s, m, e] = PRINT_ONLY;
        let page = format!("<p>a</p>{s}<div>Q1</div>{m}<p>note</p>{e}<p>b</p>{s}K{m}N{e}");
        assert_eq!(
            print_only(&page, true),
            ("<p>a</p><div>Q1</div><p>b</p>K".to_string(), 0)
        );
        assert_eq!(
            print_only(&page, false),
            ("<p>a</p><p>note</p><p>b</p>N".to_string(), 0)
        );
    }

    #[test]
    fn a_block_without_its_markers_is_kept_and_counted() {
        let [s, m, e] = PRINT_ONLY;
        let page = format!("x{s}printed, no else{e}y");
        assert_eq!(print_only(&page, false), (page.clone(), 1));
        let reversed = format!("x{s}a{e}b{m}c");
        assert_eq!(print_only(&reversed, true).1, 1);
    }

    #[test]
    fn a_highlight_sheet_applies_only_on_its_themes() {
        let css = "/* Tomorrow */\n.hljs-comment,\n.hljs-quote {\n  color: #969896;\n}\n\n.hljs { display: block; }\n";
        let scoped = scope_highlight(css, &["coal", "navy"]);
        assert_eq!(
            scoped,
            ":where(.coal, .navy) .hljs-comment, :where(.coal, .navy) .hljs-quote { color: #969896; }\n\
             :where(.coal, .navy) .hljs { display: block; }\n"
        );
    }

    #[test]
    fn indentation_goes_but_not_inside_code() {
        let html = "<div>\n    <p>a\n\t\tb</p>\n</div>\n<pre><code>fn f() {\n    x\n}</code></pre>\n  <prefix>\n  <script>\n  if (a) {}\n</script>\n  <textarea>\n  kept</textarea>";
        assert_eq!(
            squeeze(html),
            "<div>\n<p>a\nb</p>\n</div>\n<pre><code>fn f() {\n    x\n}</code></pre>\n<prefix>\n<script>\n  if (a) {}\n</script>\n<textarea>\n  kept</textarea>"
        );
    }

    #[test]
    fn comments_go_but_the_first_license_and_code_stay() {
        let html = "<p>a<!-- populated by js --></p><i><!--! Font Awesome Free, License --></i>\
                    <i><!--! Font Awesome Free, License --></i><pre><!-- in code --></pre><!-- open";
        assert_eq!(
            squeeze(html),
            "<p>a</p><i><!--! Font Awesome Free, License --></i><i></i><pre><!-- in code --></pre><!-- open"
        );
    }

    #[test]
    fn an_icon_template_stays_only_where_something_uses_it() {
        let page = "<template id=fa-eye><svg>e</svg></template><template id=fa-copy><svg>c</svg></template>\
                    <template id=fa-play><svg>p</svg></template><template id=fa-x><svg>x</svg></template>";
        let script = "document.getElementById('fa-x')";
        assert_eq!(
            unused_templates(page, script),
            ("<template id=fa-x><svg>x</svg></template>".to_string(), 3)
        );
        let with_code = format!("{page}<pre class=\"playground\"><code class=\"boring\">");
        let (kept, removed) = unused_templates(&with_code, script);
        assert_eq!(removed, 1, "{kept}");
        assert!(kept.contains("fa-eye") && kept.contains("fa-play") && !kept.contains("fa-copy"));
    }

    #[test]
    fn an_unclosed_pre_keeps_the_rest() {
        assert_eq!(squeeze("  a\n  <pre>\n  b"), "  a\n<pre>\n  b");
    }
}

//! The page's language (issue 24): each chapter translated from `po/<lang>.po` before the lab's
//! directives are replaced, so the figures they splice in are never translatable text and a new
//! bench run never makes a translation outdated.
//!
//! Translation is Comprehensive Rust's `mdbook-gettext`, run here as a library so that it runs
//! first (mdBook orders its own preprocessors, not ours). A translated heading keeps the English
//! heading's id (`{#id}` added where the translation has none): every `page.md#section` link of
//! the book and the language picker's jump to the same section work in every language.

use std::collections::HashMap;

use anyhow::Result;
use mdbook_preprocessor::book::{Book, BookItem};
use mdbook_preprocessor::{Preprocessor, PreprocessorContext};
use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};

/// The lab's catalogs (`lab-text/po`), compiled in by `build.rs`.
pub static CATALOGS: lab_text::tr::Catalogs = catalogs::TABLES;

mod catalogs {
    include!(concat!(env!("OUT_DIR"), "/catalogs.rs"));
}

/// The book's language code (`book.language`), English when unset.
pub fn language(ctx: &PreprocessorContext) -> String {
    ctx.config
        .book
        .language
        .clone()
        .unwrap_or_else(|| "en".into())
}

/// Translates `book` into the context's language; a no-op for English (there is no `po/en.po`).
pub fn translate(ctx: &PreprocessorContext, book: Book) -> Result<Book> {
    if language(ctx) == "en" {
        return Ok(book);
    }
    let mut ids: HashMap<String, Vec<Option<String>>> = HashMap::new();
    for item in book.iter() {
        if let BookItem::Chapter(chapter) = item {
            ids.insert(
                key(chapter),
                headings(&chapter.content)
                    .into_iter()
                    .map(|h| h.id)
                    .collect(),
            );
        }
    }
    let po = ctx.root.join("po").join(format!("{}.po", language(ctx)));
    let catalog = polib::po_file::parse(&po).ok();
    let mut book = mdbook_i18n_helpers::preprocessors::Gettext.run(ctx, book)?;
    book.for_each_chapter_mut(|chapter| {
        chapter.content = unescape_directives(&chapter.content);
        if let Some(catalog) = &catalog {
            chapter.content = replace_html_texts(&chapter.content, |t| catalog_text(catalog, t));
        }
        if let Some(english) = ids.get(&key(chapter)) {
            chapter.content = keep_ids(&chapter.content, english);
        }
    });
    Ok(book)
}

/// The lab's directives as written: the translation writes the chapter back as Markdown, which
/// escapes `<`, `_`, `*` and other punctuation (`{{#claim a \\< 1}}`); no directive holds a
/// backslash of its own, so inside `{{#…}}` every backslash escape is undone.
fn unescape_directives(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("{{#") {
        let Some(len) = rest[start..].find("}}") else {
            break;
        };
        out.push_str(&rest[..start]);
        let mut chars = rest[start..start + len + 2].chars().peekable();
        while let Some(c) = chars.next() {
            if c == '\\' && chars.peek().is_some_and(|n| n.is_ascii_punctuation()) {
                continue;
            }
            out.push(c);
        }
        rest = &rest[start + len + 2..];
    }
    out.push_str(rest);
    out
}

/// The elements of a chapter's raw HTML whose text readers read (`<summary>` of a folded
/// section, and the `<title>`, `<desc>`, `<text>` and `<tspan>` of an inline SVG drawing; a
/// screen reader reads the `<desc>`): mdbook-xgettext
/// extracts only Markdown, so `cargo xtask i18n` adds these to the template and [`translate`]
/// puts their translations in place.
const HTML_TEXT: &[&str] = &["summary", "figcaption", "title", "desc", "text", "tspan"];

/// The inline elements a translatable text may hold (`Show the solution (<code>…</code>)`): the
/// message keeps them, and the translation puts them where its language needs them.
const INLINE: &[&str] = &["code", "em", "strong"];

/// Each translatable text inside the `HTML_TEXT` elements (summary, figcaption, title, desc,
/// text, tspan) of `markdown`: its byte range and its text (trimmed; an element holding
/// elements other than the `INLINE` ones, or only digits and punctuation, is skipped).
pub fn html_texts(markdown: &str) -> Vec<(std::ops::Range<usize>, String)> {
    let mut out = Vec::new();
    for tag in HTML_TEXT {
        let open = format!("<{tag}");
        let close = format!("</{tag}>");
        let mut from = 0;
        while let Some(i) = markdown[from..].find(&open) {
            let at = from + i;
            from = at + open.len();
            // `<text` must not match `<textarea`: the name ends at a space or `>`.
            if !markdown[from..].starts_with([' ', '>']) {
                continue;
            }
            let Some(gt) = markdown[from..].find('>') else {
                break;
            };
            let start = from + gt + 1;
            let Some(end) = inline_end(&markdown[start..], &close).map(|e| start + e) else {
                continue;
            };
            let text = markdown[start..end].trim();
            if text.chars().any(char::is_alphabetic) {
                let lead = markdown[start..end].len() - markdown[start..end].trim_start().len();
                let begin = start + lead;
                out.push((begin..begin + text.len(), text.to_string()));
            }
        }
    }
    out.sort_by_key(|(r, _)| r.start);
    out
}

/// Where `close` ends the text at the start of `html`, if nothing but [`INLINE`] elements
/// stands between.
fn inline_end(html: &str, close: &str) -> Option<usize> {
    let mut at = 0;
    loop {
        let lt = at + html[at..].find('<')?;
        if html[lt..].starts_with(close) {
            return Some(lt);
        }
        let after = &html[lt + 1..];
        let (slash, tag) = after.strip_prefix('/').map_or((0, after), |t| (1, t));
        let name = INLINE
            .iter()
            .find(|n| tag.starts_with(**n) && tag[n.len()..].starts_with('>'))?;
        at = lt + 1 + slash + name.len() + 1;
    }
}

/// `markdown` with each of its [`html_texts`] replaced by `translate`'s answer (kept when it has
/// none).
pub fn replace_html_texts(markdown: &str, translate: impl Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(markdown.len());
    let mut at = 0;
    for (range, text) in html_texts(markdown) {
        out.push_str(&markdown[at..range.start]);
        match translate(&text) {
            Some(t) => out.push_str(&t),
            None => out.push_str(&text),
        }
        at = range.end;
    }
    out.push_str(&markdown[at..]);
    out
}

/// The translated book catalog's message for `text`, if translated and not fuzzy.
fn catalog_text(catalog: &polib::catalog::Catalog, text: &str) -> Option<String> {
    let m = catalog.find_message(None, text, None)?;
    (m.is_translated() && !m.is_fuzzy()).then(|| m.msgstr().unwrap_or_default().to_string())
}

fn key(chapter: &mdbook_preprocessor::book::Chapter) -> String {
    chapter
        .source_path
        .as_ref()
        .map_or_else(|| chapter.name.clone(), |p| p.display().to_string())
}

/// One heading of a chapter's Markdown: where its line ends, its explicit id if it has one, and
/// the id mdBook gives it (its explicit one, or one made from its text).
#[derive(Debug, PartialEq)]
struct Heading {
    line_end: usize,
    explicit: bool,
    id: Option<String>,
}

/// The headings below the page title (level 2 and deeper), in order. Generated ids are made
/// unique as mdBook does (`-1`, `-2`, … in page order, the title's id included).
fn headings(markdown: &str) -> Vec<Heading> {
    let mut out = Vec::new();
    let mut used = std::collections::HashSet::new();
    let mut title: Option<String> = None;
    let mut open: Option<(usize, bool, Option<String>, String)> = None;
    let parser = Parser::new_ext(markdown, Options::ENABLE_HEADING_ATTRIBUTES).into_offset_iter();
    for (event, range) in parser {
        match event {
            Event::Start(Tag::Heading {
                level: HeadingLevel::H1,
                ..
            }) => title = Some(String::new()),
            Event::End(TagEnd::Heading(HeadingLevel::H1)) => {
                if let Some(text) = title.take() {
                    unique(&id_from_content(&text), &mut used);
                }
            }
            Event::Start(Tag::Heading { id, .. }) => {
                let line_end = markdown[range.start..]
                    .find('\n')
                    .map_or(markdown.len(), |i| range.start + i);
                open = Some((
                    line_end,
                    id.is_some(),
                    id.map(|s| s.to_string()),
                    String::new(),
                ));
            }
            Event::Text(t) | Event::Code(t) => {
                if let Some((_, _, _, text)) = open.as_mut() {
                    text.push_str(&t);
                } else if let Some(text) = title.as_mut() {
                    text.push_str(&t);
                }
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some((line_end, explicit, id, text)) = open.take() {
                    let id = id.or_else(|| Some(unique(&id_from_content(&text), &mut used)));
                    out.push(Heading {
                        line_end,
                        explicit,
                        id,
                    });
                }
            }
            _ => {}
        }
    }
    out
}

/// `id`, or `id-1`, `id-2`, … when taken (`mdbook-html`'s `unique_id`).
fn unique(id: &str, used: &mut std::collections::HashSet<String>) -> String {
    if used.insert(id.to_string()) {
        return id.to_string();
    }
    (1..)
        .map(|n| format!("{id}-{n}"))
        .find(|candidate| used.insert(candidate.clone()))
        .unwrap_or_default()
}

/// mdBook's id for a heading's text (`mdbook-html`'s `id_from_content`, which is private).
fn id_from_content(content: &str) -> String {
    content
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|ch| {
            if ch.is_alphanumeric() || ch == '_' || ch == '-' {
                Some(ch)
            } else if ch.is_whitespace() {
                Some('-')
            } else {
                None
            }
        })
        .collect()
}

/// The translated Markdown with each heading given the English heading's id, heading by heading
/// (the translation keeps the document's structure, so the n-th heading is the n-th heading).
/// A translated heading that already has an explicit id keeps it.
fn keep_ids(translated: &str, english: &[Option<String>]) -> String {
    let mut out = String::with_capacity(translated.len() + 32 * english.len());
    let mut at = 0;
    for (heading, id) in headings(translated).iter().zip(english) {
        let Some(id) = id else { continue };
        if heading.explicit || heading.line_end < at {
            continue;
        }
        let line = &translated[at..heading.line_end];
        // An ATX heading may close with #s: the id goes before them.
        let trimmed = line.trim_end_matches([' ', '#', '\r']);
        out.push_str(trimmed);
        out.push_str(&format!(" {{#{id}}}"));
        at = heading.line_end;
    }
    out.push_str(&translated[at..]);
    out
}

/// The language picker at the top of a chapter: each language's name in itself, linking to this
/// chapter in that language (plain links: it works without scripts; `theme/lab-lang.js` carries
/// the reader's `#section` along). `path` is the chapter's source path (`capacity.md`).
pub fn picker(language: &str, path: &str) -> String {
    let depth = path.matches('/').count();
    let page = path.strip_suffix(".md").unwrap_or(path);
    let page = if page == "README" || page.ends_with("/README") {
        format!("{}index", &page[..page.len() - "README".len()])
    } else {
        page.to_string()
    };
    // From this page to the English root: up the page's folders, and out of `<code>/`.
    let mut to_english = "../".repeat(depth);
    if language != "en" {
        to_english.push_str("../");
    }
    // The picker's name in the page's language (the lab's catalog; the chapter's language is
    // not yet this thread's while the chapters are translated).
    let was = lab_text::tr::language().code;
    lab_text::tr::set_catalogs(CATALOGS);
    lab_text::tr::set_language(language);
    let name = lab_text::html::escape(lab_text::tr::dynamic(lab_text::n!("Language")));
    lab_text::tr::set_language(was);
    let mut html = format!(
        "<nav class=\"lab-lang\" aria-label=\"{name}\" data-testid=\"language-picker\"><ul>"
    );
    for l in lab_text::lang::LANGUAGES {
        let folder = if l.code == "en" {
            String::new()
        } else {
            format!("{}/", l.code)
        };
        let current = if l.code == language {
            " aria-current=\"page\""
        } else {
            ""
        };
        html.push_str(&format!(
            "<li><a href=\"{to_english}{folder}{page}.html\" lang=\"{code}\" hreflang=\"{code}\"{current}>{name}</a></li>",
            code = l.code,
            name = lab_text::html::escape(l.name),
        ));
    }
    html.push_str("</ul></nav>\n\n");
    html
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_get_the_english_ids() {
        let english = "# Title\n\n## Try it\n\ntext\n\n### The `Rent` call\n\n## Terms {#terms}\n";
        let ids: Vec<_> = headings(english).into_iter().map(|h| h.id).collect();
        assert_eq!(
            ids,
            [
                Some("try-it".into()),
                Some("the-rent-call".into()),
                Some("terms".into())
            ]
        );
        let russian =
            "# Заголовок\n\n## Попробуйте\n\nтекст\n\n### Вызов `Rent` ##\n\n## Термины {#terms}\n";
        assert_eq!(
            keep_ids(russian, &ids),
            "# Заголовок\n\n## Попробуйте {#try-it}\n\nтекст\n\n### Вызов `Rent` {#the-rent-call}\n\n## Термины {#terms}\n"
        );
    }

    #[test]
    fn the_picker_links_the_same_page_in_every_language() {
        let en = picker("en", "capacity.md");
        assert!(
            en.contains("href=\"capacity.html\" lang=\"en\" hreflang=\"en\" aria-current=\"page\"")
        );
        assert!(en.contains("href=\"ru/capacity.html\" lang=\"ru\""));
        let th = picker("th", "capacity.md");
        assert!(th.contains("href=\"../capacity.html\" lang=\"en\""));
        assert!(th.contains("href=\"../ru/capacity.html\""));
        assert!(
            th.contains("href=\"../th/capacity.html\" lang=\"th\" hreflang=\"th\" aria-current")
        );
        assert!(picker("ru", "README.md").contains("href=\"../index.html\""));
        // Named in the page's language; English as before.
        assert!(en.contains("aria-label=\"Language\""), "{en}");
        assert!(!th.contains("aria-label=\"Language\""), "{th}");
        assert_eq!(lab_text::tr::language().code, "en");
    }

    #[test]
    fn repeated_headings_are_numbered_as_mdbook_does() {
        let ids: Vec<_> = headings("# Notes\n\n## Notes\n\n## Notes\n")
            .into_iter()
            .map(|h| h.id)
            .collect();
        assert_eq!(ids, [Some("notes-1".into()), Some("notes-2".into())]);
    }

    #[test]
    fn directives_lose_the_escapes_markdown_gave_them() {
        let written = "Less {{#claim a.b\\_c \\< 1}} and \\* kept, {{#claim x.\\*.y below 2}}.";
        assert_eq!(
            unescape_directives(written),
            "Less {{#claim a.b_c < 1}} and \\* kept, {{#claim x.*.y below 2}}."
        );
    }

    #[test]
    fn html_texts_are_the_summaries_and_the_drawings_words() {
        let md = "<details><summary>Instructor notes</summary>\n<textarea>no</textarea>\n\
                  <svg><title id=\"t\">The life of a buffer</title><desc id=\"d\">Rent, then return.</desc>\
                  <text x=\"1\"><tspan x=\"1\">Rent it</tspan>\
                  <tspan dy=\"15\">then return</tspan></text><text>12</text></svg>";
        let texts: Vec<String> = html_texts(md).into_iter().map(|t| t.1).collect();
        assert_eq!(
            texts,
            [
                "Instructor notes",
                "The life of a buffer",
                "Rent, then return.",
                "Rent it",
                "then return"
            ]
        );
        let ru = replace_html_texts(md, |t| (t == "Rent it").then(|| "Арендуйте".to_string()));
        assert!(
            ru.contains(">Арендуйте</tspan>") && ru.contains("<summary>Instructor notes</summary>")
        );
    }

    #[test]
    fn a_summary_or_caption_may_hold_code_and_emphasis_but_no_other_element() {
        let md = "<summary>Show the solution (<code>ex01.rs</code>)</summary>\n\
                  <figure><svg></svg><figcaption>One <em>rented</em> buffer:\n\
                  <code>new byte[128]</code>.</figcaption></figure>\n\
                  <summary>A <a href=\"x\">link</a></summary><summary>Left <b>bold</b></summary>";
        let texts: Vec<String> = html_texts(md).into_iter().map(|t| t.1).collect();
        assert_eq!(
            texts,
            [
                "Show the solution (<code>ex01.rs</code>)",
                "One <em>rented</em> buffer:\n<code>new byte[128]</code>.",
            ]
        );
        let ru = replace_html_texts(md, |t| {
            t.starts_with("Show")
                .then(|| "Решение (<code>ex01.rs</code>)".to_string())
        });
        assert!(ru.starts_with("<summary>Решение (<code>ex01.rs</code>)</summary>\n"));
        assert!(ru.contains("<summary>A <a href=\"x\">link</a></summary>"));
    }

    #[test]
    fn mdbook_ids_keep_letters_of_every_script() {
        assert_eq!(id_from_content("What you just saw"), "what-you-just-saw");
        assert_eq!(
            id_from_content("`MemoryPool` rounds too"),
            "memorypool-rounds-too"
        );
        assert_eq!(id_from_content("Бакеты"), "бакеты");
    }
}

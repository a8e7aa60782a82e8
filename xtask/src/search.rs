//! The search text of a translated site (issue 24): `book/build/<lang>/lab-search.json`.
//!
//! mdBook's search index keeps only ASCII letters of a word, so Russian and Thai pages use the
//! lab's search (`book/theme/lab-search.js`) instead. Its data is written here from the built
//! HTML, so it holds the text as readers see it (figures, verdicts and widget defaults included):
//! one entry per section (a page's `h1`, `h2` or `h3` with an id, and the text up to the next),
//! `{"u": "capacity.html#id", "h": "Capacity — Two ceilings", "x": "…"}`. No word index: the
//! browser matches the query's words as substrings (Thai is not written with spaces, and a
//! Russian stem must find its endings), which for a book of this size is instant.

use std::cell::RefCell;
use std::path::Path;

use anyhow::{Context, Result};
use html5ever::tokenizer::{CharacterTokens, TagKind, TagToken, Token, TokenSink, TokenSinkResult};
use serde_json::json;

/// Pages that are not chapters: mdBook's copies and indexes.
const SKIPPED: &[&str] = &["print.html", "404.html", "toc.html", "index.html"];

/// One section of a page.
#[derive(Debug, Default, PartialEq)]
pub struct Section {
    pub id: String,
    pub heading: String,
    pub text: String,
}

/// Elements whose text is not prose a reader searches for.
const SILENT: &[&str] = &["script", "style", "svg", "nav", "button", "template"];

#[derive(Default)]
struct State {
    in_main: bool,
    silent: usize,
    heading: Option<String>,
    sections: Vec<Section>,
}

#[derive(Default)]
struct Sink(RefCell<State>);

impl TokenSink for Sink {
    type Handle = ();

    fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
        let mut s = self.0.borrow_mut();
        match token {
            TagToken(tag) => {
                let name = &*tag.name;
                match tag.kind {
                    TagKind::StartTag if name == "main" => s.in_main = true,
                    TagKind::EndTag if name == "main" => s.in_main = false,
                    _ if !s.in_main => {}
                    TagKind::StartTag if SILENT.contains(&name) && !tag.self_closing => {
                        s.silent += 1
                    }
                    TagKind::EndTag if SILENT.contains(&name) => {
                        s.silent = s.silent.saturating_sub(1)
                    }
                    TagKind::StartTag if matches!(name, "h1" | "h2" | "h3") => {
                        if let Some(id) = tag.attrs.iter().find(|a| &*a.name.local == "id") {
                            s.sections.push(Section {
                                id: id.value.to_string(),
                                ..Section::default()
                            });
                            s.heading = Some(String::new());
                        }
                    }
                    TagKind::EndTag if matches!(name, "h1" | "h2" | "h3") => {
                        if let Some(heading) = s.heading.take()
                            && let Some(last) = s.sections.last_mut()
                        {
                            last.heading = squash(&heading);
                        }
                    }
                    // Block ends separate words that the HTML does not separate with spaces.
                    _ if matches!(name, "p" | "li" | "td" | "th" | "div" | "br" | "dt" | "dd") => {
                        if let Some(last) = s.sections.last_mut() {
                            last.text.push(' ');
                        }
                    }
                    _ => {}
                }
            }
            CharacterTokens(text) if s.in_main && s.silent == 0 => {
                if let Some(heading) = s.heading.as_mut() {
                    heading.push_str(&text);
                } else if let Some(last) = s.sections.last_mut() {
                    last.text.push_str(&text);
                }
            }
            _ => {}
        }
        TokenSinkResult::Continue
    }
}

/// Runs of white space as one space, trimmed.
fn squash(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The sections of one page's HTML.
pub fn sections(html: &str) -> Vec<Section> {
    let mut out = crate::links::tokenize(html.to_string(), Sink::default())
        .0
        .take()
        .sections;
    for s in &mut out {
        s.text = squash(&s.text);
    }
    out
}

/// Writes `lab-search.json` into the site folder `dir`; returns the number of sections.
pub fn write(dir: &Path) -> Result<usize> {
    let mut pages: Vec<_> = std::fs::read_dir(dir)
        .with_context(|| format!("{}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "html"))
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| !SKIPPED.contains(&n.to_string_lossy().as_ref()))
        })
        .collect();
    pages.sort();
    let mut entries = Vec::new();
    for page in pages {
        let html = std::fs::read_to_string(&page).with_context(|| format!("{}", page.display()))?;
        let name = page
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let found = sections(&html);
        let title = found.first().map(|s| s.heading.clone()).unwrap_or_default();
        for (i, s) in found.iter().enumerate() {
            let heading = if i == 0 || title.is_empty() {
                s.heading.clone()
            } else {
                format!("{title} — {}", s.heading)
            };
            let url = if i == 0 {
                name.clone()
            } else {
                format!("{name}#{}", s.id)
            };
            entries.push(json!({"u": url, "h": heading, "x": s.text}));
        }
    }
    let path = dir.join("lab-search.json");
    std::fs::write(&path, serde_json::to_string(&entries)?)
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(entries.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_becomes_its_sections_without_scripts_or_navigation() {
        let html = r##"<html><body><nav>Оглавление</nav><main>
            <nav class="lab-lang"><a>English</a></nav>
            <h1 id="бакеты"><a class="header" href="#бакеты">Бакеты</a></h1>
            <p>Пул округляет <code>1025</code> до 2048.</p><script>var x = 1;</script>
            <h2 id="try-it"><a href="#try-it">ลองดู</a></h2><p>บัฟเฟอร์</p><p>ยาว</p>
            <h2>No id</h2><p>more</p></main><footer>end</footer></body></html>"##;
        let s = sections(html);
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].id, "бакеты");
        assert_eq!(s[0].heading, "Бакеты");
        assert_eq!(s[0].text, "Пул округляет 1025 до 2048.");
        assert_eq!(s[1].heading, "ลองดู");
        // Paragraphs stay apart, headings without an id stay in their section's text.
        assert_eq!(s[1].text, "บัฟเฟอร์ ยาว No id more");
    }
}

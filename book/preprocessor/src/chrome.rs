//! mdBook's own words on a translated page (issue 24): the labels, tooltips and texts its
//! template (mdbook-html's `index.hbs`, and its default 404 page) writes in English, written in
//! the page's language when the site is built (`xtask/src/site.rs` runs [`page`] over every
//! page of a translated site), so they read right without scripts; and the few its script
//! writes (code blocks' buttons, [`script`], run over the site's `book-<hash>.js`). The words are the lab's
//! messages (`lab-text/po`), each found where the template puts it: an attribute's value or an
//! element's whole text, so a chapter's prose that happens to use the same words is left alone.
//! English pages are never rewritten.

use lab_text::n;

/// Where a text stands in the built HTML: the markup right before and right after it.
struct Place {
    before: &'static str,
    after: &'static str,
}

const TITLE: Place = Place {
    before: "title=\"",
    after: "\"",
};
const LABEL: Place = Place {
    before: "aria-label=\"",
    after: "\"",
};
const BUTTON: Place = Place {
    before: "\">",
    after: "</button>",
};
const HEADING: Place = Place {
    before: "<h2 class=\"mdbook-help-title\">",
    after: "</h2>",
};
const PARAGRAPH: Place = Place {
    before: "<p>",
    after: "</p>",
};
const LINK: Place = Place {
    before: "\">",
    after: "</a></h1>",
};

/// The template's texts (their English as mdBook writes it, already HTML), and where each
/// stands. Not its search's: the translated sites use the lab's (`theme/lab-search.js`).
const TEXTS: &[(&str, &[Place])] = &[
    (n!("Toggle Table of Contents"), &[TITLE, LABEL]),
    (n!("Table of contents"), &[LABEL]),
    (n!("Change theme"), &[TITLE, LABEL]),
    (n!("Themes"), &[LABEL]),
    (n!("Auto"), &[BUTTON]),
    (n!("Light"), &[BUTTON]),
    (n!("Rust"), &[BUTTON]),
    (n!("Coal"), &[BUTTON]),
    (n!("Navy"), &[BUTTON]),
    (n!("Ayu"), &[BUTTON]),
    (n!("Print this book"), &[TITLE, LABEL]),
    (n!("Page navigation"), &[LABEL]),
    (n!("Previous chapter"), &[TITLE, LABEL]),
    (n!("Next chapter"), &[TITLE, LABEL]),
    (n!("Keyboard shortcuts"), &[HEADING]),
    (
        n!("Press <kbd>←</kbd> or <kbd>→</kbd> to navigate between chapters"),
        &[PARAGRAPH],
    ),
    (n!("Press <kbd>?</kbd> to show this help"), &[PARAGRAPH]),
    (n!("Press <kbd>Esc</kbd> to hide this help"), &[PARAGRAPH]),
    (n!("Document not found (404)"), &[LINK]),
    (
        n!("This URL is invalid, sorry. Please use the navigation bar or search to continue."),
        &[PARAGRAPH],
    ),
];

/// The texts mdBook's script (`book.js`) writes into a page: code blocks' buttons and the
/// clipboard's tooltip. Each stands in the script as a quoted literal, and the script compares
/// some of them with what it wrote (`this.title === 'Hide lines'`): every occurrence changes
/// together, so the comparisons still hold.
const SCRIPT_TEXTS: &[&str] = &[
    n!("Copy to clipboard"),
    n!("Copied!"),
    n!("Show hidden lines"),
    n!("Hide lines"),
    n!("Run this code"),
    n!("Undo changes"),
    n!("Running..."),
    n!("No output"),
];

/// The English of every text of mdBook's script that [`script`] translates.
pub fn script_texts() -> impl Iterator<Item = &'static str> {
    SCRIPT_TEXTS.iter().copied()
}

/// mdBook's script (`book-<hash>.js` of a translated site) with its texts in this thread's
/// language; `found[i]` counts where `script_texts()`'s `i`-th text stood, quoted (`'…'`, or
/// `"…"` in the markup it writes). A translation holding a quote, a backslash or markup stays
/// English, so it cannot break the script. In English the script is returned as it is.
pub fn script(js: &str, found: &mut [usize]) -> String {
    if lab_text::tr::language().code == "en" {
        return js.to_string();
    }
    let mut out = js.to_string();
    for (i, english) in SCRIPT_TEXTS.iter().enumerate() {
        let words = lab_text::tr::dynamic(english);
        let safe = !words.contains(['\'', '"', '\\', '<', '>', '&', '\n']);
        for quote in ['\'', '"'] {
            let from = format!("{quote}{english}{quote}");
            if let Some(slot) = found.get_mut(i) {
                *slot += out.matches(&from).count();
            }
            if safe && words != *english {
                out = out.replace(&from, &format!("{quote}{words}{quote}"));
            }
        }
    }
    out
}

/// The English of every template text this module translates.
pub fn texts() -> impl Iterator<Item = &'static str> {
    TEXTS.iter().map(|(text, _)| *text)
}

/// `html` (one built page) with the template's texts in this thread's language
/// (`lab_text::tr::set_language`); `found[i]` counts the places where `texts()`'s `i`-th text
/// stood, so a caller can tell when mdBook's template has changed its words. A text without a
/// translation stays English. In English, the page is returned as it is.
pub fn page(html: &str, found: &mut [usize]) -> String {
    if lab_text::tr::language().code == "en" {
        return html.to_string();
    }
    let mut out = html.to_string();
    for (i, (english, places)) in TEXTS.iter().enumerate() {
        let words = lab_text::tr::dynamic(english);
        // Translations are plain text; the template's own markup (`<kbd>`) is HTML already.
        let words = if english.contains('<') {
            words.to_string()
        } else {
            lab_text::html::escape(words)
        };
        for place in *places {
            let from = format!("{}{english}{}", place.before, place.after);
            if let Some(slot) = found.get_mut(i) {
                *slot += out.matches(&from).count();
            }
            if words != *english {
                out = out.replace(&from, &format!("{}{words}{}", place.before, place.after));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// mdBook's template as mdbook-html 0.5.4 writes a chapter's menu bar and navigation.
    const BUILT: &str = r#"<h2 class="mdbook-help-title">Keyboard shortcuts</h2><p>Press <kbd>?</kbd> to show this help</p><nav id="mdbook-sidebar" class="sidebar" aria-label="Table of contents"><label id="mdbook-sidebar-toggle" class="icon-button" for="mdbook-sidebar-toggle-anchor" title="Toggle Table of Contents" aria-label="Toggle Table of Contents" aria-controls="mdbook-sidebar"><ul id="mdbook-theme-list" class="theme-popup" aria-label="Themes" role="menu"><li role="none"><button role="menuitem" class="theme" id="mdbook-theme-light">Light</button></li><a rel="next prefetch" href="../x.html" class="nav-chapters next" title="Next chapter" aria-label="Next chapter" aria-keyshortcuts="Right"><main><p>Light</p><p>Next chapter</p></main>"#;

    #[test]
    fn a_russian_page_gets_the_templates_words_and_its_prose_is_left_alone() {
        lab_text::tr::set_catalogs(crate::translate::CATALOGS);
        let mut found = vec![0; TEXTS.len()];
        let english = page(BUILT, &mut found);
        assert_eq!(english, BUILT);
        lab_text::tr::set_language("ru");
        let ru = page(BUILT, &mut found);
        let words = |e: &str| lab_text::tr::dynamic(e).to_string();
        let toc = words("Toggle Table of Contents");
        let light = words("Light");
        lab_text::tr::set_language("en");
        assert_ne!(toc, "Toggle Table of Contents");
        assert!(
            ru.contains(&format!("title=\"{toc}\" aria-label=\"{toc}\"")),
            "{ru}"
        );
        assert!(ru.contains(&format!(">{light}</button>")), "{ru}");
        for english in [
            "Toggle Table of Contents",
            "Keyboard shortcuts",
            "\"Themes\"",
            "\"Next chapter\"",
            "to show this help",
        ] {
            assert!(!ru.contains(english), "{english}: {ru}");
        }
        // The chapter's own text is the translation's business, not the template's.
        assert!(
            ru.contains("<main><p>Light</p><p>Next chapter</p></main>"),
            "{ru}"
        );
        let at = |e: &str| found[texts().position(|t| t == e).unwrap()];
        assert_eq!(
            (at("Toggle Table of Contents"), at("Light"), at("Ayu")),
            (2, 1, 0)
        );
    }

    #[test]
    fn the_script_keeps_its_comparisons() {
        lab_text::tr::set_catalogs(crate::translate::CATALOGS);
        let js = "b.innerHTML = '<button title=\"Show hidden lines\"></button>'; \
                  if (this.title === 'Show hidden lines') { this.title = 'Hide lines'; } \
                  c.title = 'Copy to clipboard'; say('Copied!');";
        let mut found = vec![0; SCRIPT_TEXTS.len()];
        assert_eq!(script(js, &mut found), js);
        lab_text::tr::set_language("ru");
        let ru = script(js, &mut found);
        let show = lab_text::tr::dynamic("Show hidden lines").to_string();
        lab_text::tr::set_language("en");
        assert!(ru.contains(&format!("title=\"{show}\"")), "{ru}");
        assert!(ru.contains(&format!("this.title === '{show}'")), "{ru}");
        for english in [
            "Show hidden lines",
            "Hide lines",
            "Copy to clipboard",
            "Copied!",
        ] {
            assert!(!ru.contains(english), "{english}: {ru}");
        }
        let at = |e: &str| found[script_texts().position(|t| t == e).unwrap()];
        assert_eq!((at("Show hidden lines"), at("Undo changes")), (2, 0));
    }

    #[test]
    fn every_text_is_translated_in_every_language() {
        lab_text::tr::set_catalogs(crate::translate::CATALOGS);
        for language in lab_text::lang::translated() {
            lab_text::tr::set_language(language.code);
            let missing: Vec<&str> = texts()
                .chain(script_texts())
                .filter(|e| lab_text::tr::dynamic(e) == *e && !matches!(*e, "Rust" | "Ayu"))
                .collect();
            let unsafe_words: Vec<&str> = script_texts()
                .map(lab_text::tr::dynamic)
                .filter(|w| w.contains(['\'', '"', '\\', '<', '>', '&', '\n']))
                .collect();
            assert!(unsafe_words.is_empty(), "{unsafe_words:?}");
            lab_text::tr::set_language("en");
            assert!(missing.is_empty(), "{}: {missing:?}", language.code);
        }
    }
}

//! Syntax highlighting at build time (issue 40): every code block of the built pages is
//! highlighted here with syntect (the grammars Sublime Text ships; already a dependency of the
//! translation tools), into the `hljs-*` classes mdBook's three highlight stylesheets colour, so
//! no page loads highlight.js (138 kB) to do it in the browser.

use std::sync::OnceLock;

use syntect::easy::ScopeRangeIterator;
use syntect::parsing::{ParseState, Scope, ScopeStack, SyntaxSet};

fn syntaxes() -> &'static SyntaxSet {
    static SET: OnceLock<SyntaxSet> = OnceLock::new();
    SET.get_or_init(SyntaxSet::load_defaults_newlines)
}

/// highlight.js's class for a syntect scope, by the scope's leading atoms (the first match in
/// this order wins).
const CLASSES: &[(&str, &str)] = &[
    ("comment", "hljs-comment"),
    ("string", "hljs-string"),
    ("constant.numeric", "hljs-number"),
    ("constant.character.escape", "hljs-string"),
    ("constant.language", "hljs-literal"),
    ("meta.annotation", "hljs-meta"),
    ("support.macro", "hljs-built_in"),
    ("entity.name.macro", "hljs-built_in"),
    ("storage.type", "hljs-keyword"),
    ("storage.modifier", "hljs-keyword"),
    ("keyword.operator", ""),
    ("keyword", "hljs-keyword"),
    ("entity.name.function", "hljs-title"),
    ("support.function", "hljs-built_in"),
    ("entity.name.type", "hljs-type"),
    ("entity.name.struct", "hljs-type"),
    ("entity.name.enum", "hljs-type"),
    ("entity.name.trait", "hljs-type"),
    ("support.type", "hljs-type"),
    ("variable.language", "hljs-keyword"),
    ("variable.parameter", "hljs-params"),
];

fn class_of(stack: &ScopeStack) -> &'static str {
    for scope in stack.as_slice().iter().rev() {
        for (prefix, class) in CLASSES {
            if let Ok(p) = Scope::new(prefix)
                && p.is_prefix_of(*scope)
            {
                return class;
            }
        }
    }
    ""
}

/// `code` (plain text) of language `lang` as HTML with `hljs-*` spans; `None` for a language
/// the grammars do not know (the block stays as it is).
pub fn html(lang: &str, code: &str) -> Option<String> {
    let set = syntaxes();
    let syntax = set.find_syntax_by_token(lang)?;
    let mut state = ParseState::new(syntax);
    let mut stack = ScopeStack::new();
    // Runs of text with one class, adjacent runs of the same class joined.
    let mut runs: Vec<(&'static str, String)> = Vec::new();
    for line in code.split_inclusive('\n') {
        let ops = state.parse_line(line, set).ok()?;
        // Each op applies before the text range it comes with.
        for (range, op) in ScopeRangeIterator::new(&ops, line) {
            stack.apply(op).ok()?;
            let text = &line[range];
            if text.is_empty() {
                continue;
            }
            let class = class_of(&stack);
            match runs.last_mut() {
                Some((c, t)) if *c == class => t.push_str(text),
                _ => runs.push((class, text.to_string())),
            }
        }
    }
    let mut out = String::with_capacity(code.len() * 2);
    for (class, text) in runs {
        let escaped = lab_text::html::escape(&text);
        if class.is_empty() {
            out.push_str(&escaped);
        } else {
            out.push_str(&format!("<span class=\"{class}\">{escaped}</span>"));
        }
    }
    Some(out)
}

/// Every `<pre><code class="language-…">` block of `page` whose content is plain text,
/// highlighted; returns the page and how many blocks were.
pub fn page(page: &str) -> (String, usize) {
    let mut out = String::with_capacity(page.len() + page.len() / 4);
    let mut rest = page;
    let mut count = 0;
    while let Some(start) = rest.find("<pre><code class=\"language-") {
        // The `>` that ends `<code …>` (the first one ends `<pre>`).
        let code = start + "<pre>".len();
        let open_end = match rest[code..].find('>') {
            Some(i) => code + i + 1,
            None => break,
        };
        let Some(close) = rest[open_end..].find("</code></pre>").map(|i| open_end + i) else {
            break;
        };
        let open = &rest[start..open_end];
        let lang = open["<pre><code class=\"language-".len()..]
            .split(['"', ' ', ','])
            .next()
            .unwrap_or("");
        let inner = &rest[open_end..close];
        out.push_str(&rest[..open_end]);
        match (!inner.contains('<'))
            .then(|| html(lang, &unescape(inner)))
            .flatten()
        {
            Some(lit) => {
                out.push_str(&lit);
                count += 1;
            }
            None => out.push_str(inner),
        }
        rest = &rest[close..];
    }
    out.push_str(rest);
    (out, count)
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    #[test]
    fn rust_is_highlighted_into_hljs_classes_and_stays_escaped() {
        let page = "<pre><code class=\"language-rust ignore\">// a &lt;b&gt;\nfn main() { let x = 1; }\n</code></pre>";
        let (html, n) = super::page(page);
        assert_eq!(n, 1);
        assert!(
            html.contains("<span class=\"hljs-comment\">// a &lt;b&gt;"),
            "{html}"
        );
        assert!(
            html.contains("<span class=\"hljs-keyword\">fn</span>"),
            "{html}"
        );
        assert!(
            html.contains("<span class=\"hljs-number\">1</span>"),
            "{html}"
        );
        // The text is the same as before.
        let text: String = html
            .split('<')
            .map(|p| p.split_once('>').map_or(p, |(_, t)| t))
            .collect();
        assert!(
            text.contains("// a &lt;b&gt;\nfn main() { let x = 1; }\n"),
            "{text}"
        );
    }

    #[test]
    fn unknown_languages_and_marked_up_blocks_stay_as_they_are() {
        let page = "<pre><code class=\"language-nosuch\">x</code></pre><pre><code class=\"language-rust\"><span class=\"boring\">x</span></code></pre>";
        assert_eq!(super::page(page), (page.to_string(), 0));
    }
}

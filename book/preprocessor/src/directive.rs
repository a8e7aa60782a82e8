//! Finding `{{#name args…}}` directives in Markdown.

/// One directive found in the text.
#[derive(Debug, PartialEq, Eq)]
pub struct Directive<'a> {
    /// Byte range of the whole `{{#…}}` in the text.
    pub start: usize,
    pub end: usize,
    pub name: &'a str,
    pub args: Vec<&'a str>,
}

/// Names this preprocessor owns; other `{{#…}}` (mdBook's `include`, `playground`, …) are left alone.
pub const NAMES: &[&str] = &[
    "fig",
    "fig-table",
    "claim",
    "verdict",
    "machine",
    "claims-report",
    "chart",
    "machines",
    "provenance",
    "bucket-table",
    "instructions",
    "listing",
    "instr",
    "lab-widget",
    "lab-quiz",
    "lab-progress",
    "ledger",
    "when",
    "or-when",
    "otherwise",
    "end-when",
];

/// mdBook's own directives (its `links` preprocessor runs before ours and leaves an escaped one as
/// text): a name that is neither these nor [`NAMES`] is a typo or a directive nobody renders, and
/// would reach the reader as `{{#name …}}`.
pub const MDBOOK_NAMES: &[&str] = &["include", "rustdoc_include", "playground", "title"];

/// Every `{{#name` in `text` whose name is neither ours nor mdBook's, with its line (1-based):
/// the build refuses them rather than print directive text on the page. `\{{#…` is an escape.
pub fn unknown(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(offset) = text[from..].find("{{#") {
        let start = from + offset;
        from = start + 3;
        if text[..start].ends_with('\\') {
            continue;
        }
        let name = text[start + 3..]
            .split(|c: char| c.is_whitespace() || c == '}')
            .next()
            .unwrap_or("");
        if !NAMES.contains(&name) && !MDBOOK_NAMES.contains(&name) {
            out.push((line_of(text, start), name));
        }
    }
    out
}

/// The 1-based line of byte `at` in `text`.
pub fn line_of(text: &str, at: usize) -> usize {
    text[..at].bytes().filter(|&b| b == b'\n').count() + 1
}

/// Every directive of ours in `text`, in order. `\{{#…}}` is an escape and is skipped.
pub fn find(text: &str) -> Vec<Directive<'_>> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(offset) = text[from..].find("{{#") {
        let start = from + offset;
        let Some(close) = text[start..].find("}}") else {
            break;
        };
        let end = start + close + 2;
        from = end;
        if text[..start].ends_with('\\') {
            continue;
        }
        let mut words = text[start + 3..end - 2].split_whitespace();
        let Some(name) = words.next() else { continue };
        if NAMES.contains(&name) {
            out.push(Directive {
                start,
                end,
                name,
                args: words.collect(),
            });
        }
    }
    out
}

/// Removes the backslash from escaped directives of ours: `\{{#fig x}}` → `{{#fig x}}`.
pub fn unescape(text: &str) -> String {
    let mut out = text.to_string();
    for name in NAMES {
        out = out.replace(&format!("\\{{{{#{name}"), &format!("{{{{#{name}"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_ours_and_skips_others_and_escapes() {
        let text = "a {{#fig x.y}} b {{#include f.rs}} \\{{#fig z}} {{#lab-quiz q }}";
        let found = find(text);
        assert_eq!(found.len(), 2);
        assert_eq!((found[0].name, found[0].args.clone()), ("fig", vec!["x.y"]));
        assert_eq!(&text[found[0].start..found[0].end], "{{#fig x.y}}");
        assert_eq!(
            (found[1].name, found[1].args.clone()),
            ("lab-quiz", vec!["q"])
        );
        assert_eq!(unescape("\\{{#fig z}}"), "{{#fig z}}");
    }

    #[test]
    fn unknown_names_are_found_with_their_line() {
        let text = "a {{#fig x}}\n{{#figg y}} {{#include z}}\n\\{{#nope}} {{#}}";
        assert_eq!(unknown(text), vec![(2, "figg"), (3, "")]);
        // The names the render dispatch knows are all ours: none is "unknown".
        for name in ["instructions", "listing", "instr"] {
            assert!(unknown(&format!("{{{{#{name} k}}}}")).is_empty(), "{name}");
        }
    }

    #[test]
    fn names_are_listed_once() {
        let mut names = NAMES.to_vec();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), NAMES.len());
    }

    #[test]
    fn unclosed_directive_is_not_a_directive() {
        assert!(find("{{#fig x").is_empty());
    }
}

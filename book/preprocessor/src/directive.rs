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
];

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
    fn unclosed_directive_is_not_a_directive() {
        assert!(find("{{#fig x").is_empty());
    }
}

//! Quoted labels (issue 38): a page that quotes a label the book prints — a claim's mark
//! (**⚠ not supported by this machine's data**), a verdict (_less time_), _not citable_ — must
//! quote it as the reader's page shows it, in the page's language, not the English the page
//! never shows. The labels are the lab's messages that the book's preprocessor and the bench's
//! data write into the pages (`book/preprocessor`, `bench-data`), of two words or more (a single
//! word quoted in prose is emphasis more often than a label).

/// The labels the pages print: `(English, translation)`, from the lab catalog of one language.
pub struct Labels(Vec<(String, String)>);

impl Labels {
    /// From the lab's `(msgid, places, translation)`.
    pub fn new<'a>(messages: impl Iterator<Item = (&'a str, &'a str, &'a str)>) -> Labels {
        let printed = |places: &str| {
            places
                .split_whitespace()
                .any(|p| p.starts_with("book/preprocessor/") || p.starts_with("bench-data/"))
        };
        Labels(
            messages
                .filter(|(msgid, places, text)| {
                    printed(places)
                        && !text.is_empty()
                        && msgid.split_whitespace().count() >= 2
                        && !msgid.contains('{')
                })
                .map(|(msgid, _, text)| (msgid.to_lowercase(), text.to_string()))
                .collect(),
        )
    }

    fn find(&self, quoted: &str) -> Option<&(String, String)> {
        let quoted = quoted.to_lowercase();
        self.0.iter().find(|(en, _)| *en == quoted)
    }
}

/// The quoted spans of a text: `**…**`, `*…*`, `_…_`, `“…”`, `"…"`; for a quote that ends in
/// `: label` (a verdict as printed, “0.865× [0.864–0.871]: less time”), that label too.
fn quotes(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for (open, close) in [
        ("**", "**"),
        ("“", "”"),
        ("\"", "\""),
        ("_", "_"),
        ("*", "*"),
    ] {
        let mut rest = text;
        while let Some(at) = rest.find(open) {
            let after = &rest[at + open.len()..];
            // `_` and `*` open only at a word's start (not `snake_case`, not `**`).
            let starts_word = !rest[..at]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '*' || c == '_');
            let Some(end) = after.find(close) else {
                break;
            };
            let inside = &after[..end];
            if (open.len() > 1 || starts_word) && !inside.is_empty() && !inside.starts_with(open) {
                out.push(inside);
                if let Some((_, last)) = inside.rsplit_once(": ") {
                    out.push(last);
                }
            }
            rest = &after[end + close.len()..];
        }
    }
    out
}

/// The labels a message's English quotes that its translation `texts` do not show as the page
/// shows them: the label's translation is missing, or the English label is quoted instead.
pub fn otherwise(labels: &Labels, msgid: &str, texts: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for quoted in quotes(msgid) {
        let Some((english, translation)) = labels.find(quoted) else {
            continue;
        };
        for text in texts {
            let lower = text.to_lowercase();
            let shown = lower.contains(&translation.to_lowercase());
            let english_quoted =
                *english != translation.to_lowercase() && lower.contains(english.as_str());
            if !shown || english_quoted {
                out.push(format!(
                    "quotes “{quoted}”, which the page shows as «{translation}»{}",
                    if english_quoted { ", in English" } else { "" }
                ));
            }
        }
    }
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels() -> Labels {
        Labels::new(
            [
                (
                    "less time",
                    "book/preprocessor/src/render/verdict.rs:51",
                    "ใช้เวลาน้อยกว่า",
                ),
                ("not citable", "bench-data/src/claim.rs:400", "อ้างไม่ได้"),
                ("Show answer", "wasm-lab/src/quiz/html.rs:89", "ดูคำตอบ"),
                ("not", "book/preprocessor/src/x.rs:1", "ไม่"),
            ]
            .into_iter(),
        )
    }

    #[test]
    fn quoted_spans_are_found() {
        assert_eq!(
            quotes("a **bold** _it_ snake_case_x “q: less time” \"d\""),
            ["bold", "q: less time", "less time", "d", "it"]
        );
    }

    #[test]
    fn a_label_quoted_in_english_is_found() {
        let l = labels();
        let t = |s: &str| vec![s.to_string()];
        let en = "prints it as _not citable_; a verdict “0.865×: less time”";
        assert!(
            otherwise(
                &l,
                en,
                &t("แสดงเป็น _อ้างไม่ได้_ คำตัดสิน “0.865×: ใช้เวลาน้อยกว่า”")
            )
            .is_empty()
        );
        assert_eq!(
            otherwise(
                &l,
                en,
                &t("แสดงเป็น _not citable_ (อ้างไม่ได้) “0.865×: less time”")
            ),
            [
                "quotes “less time”, which the page shows as «ใช้เวลาน้อยกว่า», in English",
                "quotes “not citable”, which the page shows as «อ้างไม่ได้», in English",
            ]
        );
        // Not labels the pages print, or a single word.
        assert!(otherwise(&l, "use **Show answer**, *not* this", &t("ใช้ปุ่ม")).is_empty());
    }
}

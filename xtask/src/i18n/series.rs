//! Label series (issue 38): the lab's generated labels repeat one English pattern with other
//! numbers or other subjects (`get 16 B and give it back: this pool ÷ mimalloc`, `… 4096 B …`,
//! `… ÷ opool`), and a reader sees them side by side in tables and popovers. A series is
//! translated with one wording, so [`splits`] groups the messages two ways and reports a group
//! whose translations differ:
//!
//! - messages whose English is the same but for its numbers: their translations must be the
//!   same but for the numbers (and, in Russian, the form a counted noun takes after them);
//! - messages whose English starts with the same label before `: ` (at least [`SERIES`] of
//!   them): their translations must start with the same words before their `: `.

use std::collections::BTreeMap;

/// How many messages sharing a label before `: ` make a series.
pub const SERIES: usize = 4;

/// `text` with every number written as `N` (digits with their grouping and decimal marks, in
/// any language's notation) and no-break spaces as plain ones; in Russian, a counted noun after a
/// number in its first form (`2 раздела`, `1 раздел` → `N раздел`).
pub fn normalize(text: &str, code: &str) -> String {
    let chars: Vec<char> = text
        .chars()
        .map(|c| {
            if c == '\u{a0}' || c == '\u{202f}' {
                ' '
            } else {
                c
            }
        })
        .collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        if !chars[i].is_ascii_digit() {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        while i < chars.len() {
            let c = chars[i];
            let digit_after = chars.get(i + 1).is_some_and(char::is_ascii_digit);
            // A group of three digits after a space is the same number (`1 048 576`).
            let group_after = c == ' '
                && chars.len() >= i + 4
                && chars[i + 1..i + 4].iter().all(char::is_ascii_digit)
                && !chars.get(i + 4).is_some_and(char::is_ascii_digit);
            if c.is_ascii_digit() || (matches!(c, ',' | '.') && digit_after) || group_after {
                i += 1;
            } else {
                break;
            }
        }
        out.push('N');
    }
    if code != "ru" {
        return out;
    }
    // `N <noun form>` → `N <nominative singular>`, and an adjective between them → `~`.
    let noun = |word: &str| super::russian::nouns().iter().find(|n| n.has_form(word));
    let word_end = |s: &str| s.find(|c: char| !c.is_alphabetic()).unwrap_or(s.len());
    let mut result = String::with_capacity(out.len());
    let mut rest = out.as_str();
    while let Some(at) = rest.find("N ") {
        result.push_str(&rest[..at + 2]);
        rest = &rest[at + 2..];
        let end = word_end(rest);
        let word = &rest[..end];
        let next = rest[end..].strip_prefix(' ').map(|r| &r[..word_end(r)]);
        match (noun(word), next.and_then(noun)) {
            (Some(n), _) => {
                result.push_str(&n.sg[0]);
                rest = &rest[end..];
            }
            (None, Some(n)) if super::russian::adjective_like(word) => {
                result.push_str("~ ");
                result.push_str(&n.sg[0]);
                rest = &rest[end + 1 + next.map_or(0, str::len)..];
            }
            _ => {
                result.push_str(word);
                rest = &rest[end..];
            }
        }
    }
    result.push_str(rest);
    result
}

/// The label of a text: what comes before its first `: `, or all of it.
fn label(text: &str) -> &str {
    text.split_once(": ").map_or(text, |(l, _)| l)
}

/// The series whose translations differ: per group, the English pattern and each wording with
/// how many messages use it. `messages` are `(msgid, translation)` of one catalog in language
/// `code` (plural messages left out: their forms differ by design).
pub fn splits(messages: &[(String, String)], code: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (whole, min) in [(true, 2), (false, SERIES)] {
        let mut groups: BTreeMap<String, Vec<(&str, String)>> = BTreeMap::new();
        for (msgid, text) in messages {
            let (en, tr) = if whole {
                (normalize(msgid, "en"), normalize(text, code))
            } else {
                (normalize(label(msgid), "en"), normalize(label(text), code))
            };
            groups.entry(en).or_default().push((msgid, tr));
        }
        for (english, members) in groups {
            let distinct: std::collections::BTreeSet<&str> = members.iter().map(|m| m.0).collect();
            if distinct.len() < min {
                continue;
            }
            let mut wordings: BTreeMap<&str, usize> = BTreeMap::new();
            for (_, tr) in &members {
                *wordings.entry(tr.as_str()).or_default() += 1;
            }
            if wordings.len() > 1 {
                let mut list: Vec<(&str, usize)> = wordings.into_iter().collect();
                list.sort_by_key(|w| std::cmp::Reverse(w.1));
                let shown: Vec<String> = list
                    .iter()
                    .map(|(w, n)| format!("«{}» ×{n}", short(w)))
                    .collect();
                let kind = if whole { "" } else { "label " };
                out.push(format!(
                    "{kind}“{}” ({} messages): {}",
                    short(&english),
                    members.len(),
                    shown.join(", ")
                ));
            }
        }
    }
    out
}

fn short(text: &str) -> String {
    let mut s: String = text.chars().take(60).collect();
    if s.len() < text.len() {
        s.push('…');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    #[test]
    fn numbers_and_counted_nouns_are_normalized() {
        assert_eq!(
            normalize(
                "получение и возврат 1\u{a0}048\u{a0}576 Б, 2 раздела × 32",
                "ru"
            ),
            "получение и возврат N Б, N раздел × N"
        );
        assert_eq!(
            normalize("41 ненулевой байт и 0 ненулевых байтов", "ru"),
            normalize("1 ненулевой байт и 2 ненулевых байта", "ru")
        );
        assert_eq!(normalize("get 1,048,576 B, 0.5×", "en"), "get N B, N×");
        assert_eq!(normalize("1 048 576 ไบต์", "th"), "N ไบต์");
    }

    #[test]
    fn a_series_with_two_wordings_is_found() {
        let one = pairs(&[
            (
                "get 16 B and give it back: this pool ÷ opool",
                "получение и возврат 16 Б: этот пул ÷ opool",
            ),
            (
                "get 4096 B and give it back: this pool ÷ opool",
                "получение и возврат 4096\u{a0}Б: этот пул ÷ opool",
            ),
            (
                "get 16 B and give it back: this pool ÷ mimalloc",
                "получение и возврат 16 Б: этот пул ÷ mimalloc",
            ),
            (
                "get 64 B and give it back: this pool ÷ mimalloc",
                "получение и возврат 64 Б: этот пул ÷ mimalloc",
            ),
            (
                "1 buffer held, 1 partition",
                "удерживается 1 буфер, 1 раздел",
            ),
            (
                "64 buffers held, 2 partitions",
                "удерживается 64 буфера, 2 раздела",
            ),
            (
                "128 buffers held, 4 partitions",
                "удерживается 128 буферов, 4 раздела",
            ),
        ]);
        assert!(splits(&one, "ru").is_empty(), "{:?}", splits(&one, "ru"));
        let mut two = one.clone();
        two[1].1 = "взять 4096 Б и отдать обратно: этот пул ÷ opool".into();
        let found = splits(&two, "ru");
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].contains("«взять N Б и отдать обратно: этот пул ÷ opool» ×1"));
        assert!(found[1].starts_with("label “get N B and give it back” (4 messages)"));
    }
}

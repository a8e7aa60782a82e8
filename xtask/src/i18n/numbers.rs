//! The numbers of a translation against its English (the translation report's
//! "with a number the English does not have"): a figure a translator mistyped, or a fact the
//! English does not state, is a claim of its own, so the report lists it and `cargo xtask test`
//! fails on it. A number the English has in digits and the translation in words is not counted:
//! only numbers the translation adds are.
//!
//! Both sides are compared as plain numbers: each language's grouping (`1,048,576`,
//! `1 048 576`) and decimal mark (`1.56`, `1,56`) are read the way that language writes them; a
//! number the translation keeps exactly as the English writes it (an input such as `1,048,576`
//! on a Russian page) is taken as it is. Directives, code spans, HTML tags, link targets and
//! `{}` placeholders are not prose and are skipped.

/// The numbers of `translation` that `english` does not have, in the order they appear.
pub fn added(english: &str, translation: &str, code: &str) -> Vec<String> {
    let (en_raw, en) = numbers(english, "en");
    let (raw, normal) = numbers(translation, code);
    let mut out = Vec::new();
    for (raw, normal) in raw.iter().zip(&normal) {
        if !en_raw.contains(raw) && !en.contains(normal) && !out.contains(normal) {
            out.push(normal.clone());
        }
    }
    out
}

/// The numbers of `text` (prose of language `code`): each as written, and as a plain number.
fn numbers(text: &str, code: &str) -> (Vec<String>, Vec<String>) {
    let prose = prose(text, false);
    let chars: Vec<char> = prose.chars().collect();
    let (mut raw, mut normal) = (Vec::new(), Vec::new());
    let mut i = 0;
    while i < chars.len() {
        if !chars[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        // A number runs on through a separator followed by a digit.
        while i < chars.len()
            && (chars[i].is_ascii_digit()
                || (is_separator(chars[i]) && chars.get(i + 1).is_some_and(char::is_ascii_digit)))
        {
            i += 1;
        }
        let token: String = chars[start..i].iter().collect();
        normal.extend(plain(&token, code));
        raw.push(token);
        while normal.len() > raw.len() {
            raw.push(raw[raw.len() - 1].clone());
        }
    }
    (raw, normal)
}

fn is_separator(c: char) -> bool {
    matches!(c, ',' | '.' | '\u{a0}' | '\u{202f}' | ' ')
}

/// A written number as plain numbers: grouping removed, the decimal mark a point. A separator
/// that is neither (`24; 64`, `1–2`, a list's `, `) splits it.
fn plain(token: &str, code: &str) -> Vec<String> {
    // Russian writes a version with a point (Go 1.27) and a decimal with a comma.
    let (group, decimal): (&[char], &[char]) = match code {
        "ru" => (&['\u{a0}', '\u{202f}', ' '], &[',', '.']),
        _ => (&[','], &['.']),
    };
    let mut out = Vec::new();
    let mut current = String::new();
    let parts: Vec<&str> = token.split(|c: char| !c.is_ascii_digit()).collect();
    let seps: Vec<char> = token.chars().filter(|c| !c.is_ascii_digit()).collect();
    current.push_str(parts[0]);
    let mut decimals = false;
    for (sep, part) in seps.iter().zip(&parts[1..]) {
        if group.contains(sep) && part.len() == 3 && !decimals {
            current.push_str(part);
        } else if decimal.contains(sep) && !decimals {
            current.push('.');
            current.push_str(part);
            decimals = true;
        } else {
            out.push(std::mem::take(&mut current));
            current.push_str(part);
            decimals = false;
        }
    }
    out.push(current);
    out
}

/// `text` without what is not prose: `{{#…}}` directives, `{…}` placeholders, code spans, HTML
/// tags and link targets (each replaced by a space, so numbers on either side stay apart).
fn prose(text: &str, keep_placeholders: bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let skip_to = |open: &str, close: &str| -> Option<usize> {
            rest.strip_prefix(open)?;
            rest[open.len()..]
                .find(close)
                .map(|e| open.len() + e + close.len())
        };
        let placeholder = keep_placeholders && is_placeholder(rest);
        let skip = skip_to("{{#", "}}")
            .or_else(|| skip_to("{", "}").filter(|_| !placeholder))
            .or_else(|| skip_to("`", "`"))
            .or_else(|| skip_to("<", ">"))
            .or_else(|| skip_to("](", ")").map(|n| n.max(1)));
        match skip {
            Some(n) => {
                out.push(' ');
                rest = &rest[n..];
            }
            None => {
                out.push(c);
                rest = &rest[c.len_utf8()..];
            }
        }
    }
    out
}

/// [`prose`] that keeps the `{}` and `{N}` placeholders, for checks that read what stands next
/// to a number the code fills in.
pub fn prose_keeping_placeholders(text: &str) -> String {
    prose(text, true)
}

/// Whether `text` starts with a `{}` or `{N}` placeholder.
fn is_placeholder(text: &str) -> bool {
    text.strip_prefix('{').is_some_and(|r| {
        let digits = r.bytes().take_while(u8::is_ascii_digit).count();
        r[digits..].starts_with('}')
    })
}

/// The distinct numbers of an English text (for tests and the report's examples).
#[cfg(test)]
fn english(text: &str) -> std::collections::BTreeSet<String> {
    numbers(text, "en").1.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_language_groups_and_marks_decimals_its_own_way() {
        let en = "Rent 1,048,576 bytes: 1.56–1.65×, 24; 64 and {{#fig a.b}} with `1025`.";
        assert_eq!(
            english(en),
            ["1.56", "1.65", "1048576", "24", "64"]
                .map(String::from)
                .into()
        );
        let ru = "Арендуйте 1\u{a0}048\u{a0}576 байт: 1,56–1,65×, 24; 64 и {{#fig a.b}} с `1025`.";
        assert!(added(en, ru, "ru").is_empty(), "{:?}", added(en, ru, "ru"));
        // An input written the English way on a Russian page.
        let input = "commas only group digits in threes (1,048,576)";
        assert!(added(input, "запятые группируют цифры (1,048,576)", "ru").is_empty());
    }

    #[test]
    fn a_number_the_english_does_not_have_is_found() {
        let en = "The Russian Go article ([source](sources.md#ru-go)) paid +41,658 bytes.";
        assert_eq!(
            added(
                en,
                "Русская статья о Go 1.27 заплатила +41\u{a0}658 байт.",
                "ru"
            ),
            ["1.27"]
        );
        assert_eq!(added(en, "จ่าย +41,685 byte", "th"), ["41685"]);
        // A number in words, a placeholder by index, a link target: not numbers it adds.
        assert!(
            added(
                "on two machines of four",
                "на двух машинах из четырёх",
                "ru"
            )
            .is_empty()
        );
        assert!(added("{} of {}", "{1} из {0}", "ru").is_empty());
        assert!(added("see [this](a.md#x-2)", "см. [это](a.md#x-2)", "th").is_empty());
    }
}

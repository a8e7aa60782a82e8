//! The lab's own words in the page's language (issue 24): every message a widget, quiz, verdict
//! or error shows goes through [`t!`](crate::t), [`tf!`](crate::tf) or [`tp!`](crate::tp), whose
//! English text is the message's id in the lab's catalogs (`lab-text/po/<lang>.po`, extracted
//! by `cargo xtask i18n`).
//!
//! Where the translations come from:
//! - natively (the book's preprocessor, which draws every widget's default state and every
//!   printed quiz at build time), the catalogs are compiled into the preprocessor (its
//!   `build.rs`), which hands them over with [`set_catalogs`]. Not here: this crate is part of
//!   what the bench builds, and its fingerprint must not change with the translations' tools;`
//! - in the browser, the page's module carries no catalog: the page loads its language's
//!   strings for its own module (`wasm/<module>/strings.<lang>.json`, written at build time,
//!   keyed by [`key`]) and hands them to [`install`]. So a page downloads only its language's
//!   words, and no PO parser ships in the wasm.
//!
//! The language is per thread ([`set_language`]): a page, or one build of the book, has one;
//! tests in parallel threads do not see each other's.
//!
//! Numbers follow the language too ([`crate::group_digits`], [`crate::decimal`]): English and
//! Thai group with `,` and write a decimal point; Russian groups with a no-break space and
//! writes a decimal comma, as the browser's `Intl.NumberFormat("ru")` does.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::fmt::Display;

use crate::lang::{LANGUAGES, Language};

/// A page's own number and plural rules (the browser's `Intl`), installed by the wasm build.
pub struct Rules {
    /// A whole number grouped as the language groups it (`Intl.NumberFormat`).
    pub group: Box<dyn Fn(u64) -> String>,
    /// The plural form of a count (`Intl.PluralRules`), as an index into a message's forms.
    pub plural: Box<dyn Fn(u64) -> usize>,
}

thread_local! {
    static LANGUAGE: Cell<usize> = const { Cell::new(0) };
    // Sorted by key: a binary search, so the shipped wasm carries no hash map for it.
    static INSTALLED: RefCell<Vec<(u64, Vec<String>)>> = const { RefCell::new(Vec::new()) };
    static RULES: RefCell<Option<Rules>> = const { RefCell::new(None) };
    static CATALOGS: Cell<Catalogs> = const { Cell::new(&[]) };
}

/// Compiled catalogs: per language code, `(key, forms)` sorted by key.
pub type Catalogs = &'static [(&'static str, &'static [(u64, &'static [&'static str])])];

/// Hands this thread compiled catalogs (the preprocessor's, for the build-time render).
pub fn set_catalogs(catalogs: Catalogs) {
    CATALOGS.with(|c| c.set(catalogs));
}

/// Installs the browser's rules for this thread's language (`None`: the built-in ones, which
/// the build-time render uses and a wasm test compares with the browser's).
pub fn set_rules(rules: Option<Rules>) {
    RULES.with(|r| *r.borrow_mut() = rules);
}

/// `n` grouped by the installed rules, if any.
pub(crate) fn grouped_by_rules(n: u64) -> Option<String> {
    RULES.with(|r| r.borrow().as_ref().map(|rules| (rules.group)(n)))
}

/// Sets this thread's language by its code; an unknown code leaves English and returns false.
pub fn set_language(code: &str) -> bool {
    let index = LANGUAGES.iter().position(|l| l.code == code);
    LANGUAGE.with(|c| c.set(index.unwrap_or(0)));
    index.is_some()
}

/// This thread's language.
pub fn language() -> &'static Language {
    &LANGUAGES[LANGUAGE.with(Cell::get)]
}

/// Whether this thread writes numbers the Russian way (no-break space groups, decimal comma).
pub fn russian_numbers() -> bool {
    language().code == "ru"
}

/// The separator between groups of three digits: `,`, or U+00A0 in Russian.
pub fn group_separator() -> &'static str {
    if russian_numbers() { "\u{a0}" } else { "," }
}

/// The decimal separator: `.`, or `,` in Russian.
pub fn decimal_separator() -> char {
    if russian_numbers() { ',' } else { '.' }
}

/// The key of a message in a page's strings: 64-bit FNV-1a of its English text.
pub const fn key(msgid: &str) -> u64 {
    let bytes = msgid.as_bytes();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut i = 0;
    while i < bytes.len() {
        hash ^= bytes[i] as u64;
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        i += 1;
    }
    hash
}

/// Installs a page's strings (the browser's build): `(key, forms)` per message, forms in the
/// language's plural order (one form for a message without plurals).
pub fn install(strings: impl IntoIterator<Item = (u64, Vec<String>)>) {
    INSTALLED.with(|m| {
        let mut m = m.borrow_mut();
        m.clear();
        m.extend(strings);
        m.sort_unstable_by_key(|e| e.0);
        m.dedup_by_key(|e| e.0);
    });
}

/// The translation of `msgid` in this thread's language (plural form `form`), or `None`.
fn lookup(msgid: &str, form: usize) -> Option<Cow<'static, str>> {
    if language().code == "en" {
        return None;
    }
    let k = key(msgid);
    if let Some(s) = INSTALLED.with(|m| {
        let m = m.borrow();
        let i = m.binary_search_by_key(&k, |e| e.0).ok()?;
        let forms = &m[i].1;
        forms.get(form).or(forms.first()).cloned()
    }) {
        return Some(Cow::Owned(s));
    }
    compiled(language().code, k, form).map(Cow::Borrowed)
}

fn compiled(code: &str, key: u64, form: usize) -> Option<&'static str> {
    let table = CATALOGS.with(Cell::get).iter().find(|(c, _)| *c == code)?.1;
    let i = table.binary_search_by_key(&key, |(k, _)| *k).ok()?;
    let forms = table[i].1;
    forms.get(form).or(forms.first()).copied()
}

/// `msgid` in this thread's language (English when there is no translation).
pub fn get(msgid: &'static str) -> Cow<'static, str> {
    lookup(msgid, 0).unwrap_or(Cow::Borrowed(msgid))
}

/// A text that is not a literal of the code (a verdict's words from a book directive) in this
/// thread's language; its catalog entry comes from where it is written (`cargo xtask i18n` reads
/// the directives of `book/src`).
pub fn get_dynamic(msgid: &str) -> String {
    lookup(msgid, 0).map_or_else(|| msgid.to_string(), Cow::into_owned)
}

/// A figure as the book prints it (`1,048,576 B`, `0.865× [0.864–0.871]`, `12.3 ns`), written
/// the way this thread's language writes numbers and units. The figure formatter itself stays
/// in one notation, which the claims and tests read back; this is its last step for a reader.
/// English and Thai (whose articles write `1,048,576` and `ns`) are unchanged; Russian gets
/// no-break-space groups, a decimal comma and its unit abbreviations (нс, мкс, мс, Б).
pub fn localize_figure(text: &str) -> String {
    if !russian_numbers() {
        return text.to_string();
    }
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() + 8);
    for (i, &c) in chars.iter().enumerate() {
        let between_digits = i > 0
            && chars[i - 1].is_ascii_digit()
            && chars.get(i + 1).is_some_and(char::is_ascii_digit);
        match c {
            ',' if between_digits => out.push_str(group_separator()),
            '.' if between_digits => out.push(decimal_separator()),
            _ => out.push(c),
        }
    }
    let mut words: Vec<String> = Vec::new();
    for word in out.split(' ') {
        let unit_char = |c: char| c.is_alphanumeric() || c == 'µ';
        let start = word.find(unit_char).unwrap_or(word.len());
        let (head, rest) = word.split_at(start);
        let (core, tail) = match rest.find(|c: char| !unit_char(c)) {
            Some(i) => rest.split_at(i),
            None => (rest, ""),
        };
        let unit = match core {
            "ns" => Some("нс"),
            "µs" => Some("мкс"),
            "ms" => Some("мс"),
            "B" => Some("Б"),
            "KiB" => Some("КиБ"),
            "MiB" => Some("МиБ"),
            "GiB" => Some("ГиБ"),
            _ => None,
        };
        words.push(match unit {
            Some(u) => format!("{head}{u}{tail}"),
            None => word.to_string(),
        });
    }
    words.join(" ")
}

/// The plural form of `n` in this thread's language (CLDR's integer rules, as gettext's
/// `Plural-Forms` in [`crate::lang`] and the browser's `Intl.PluralRules`): English 0 = one,
/// 1 = other; Russian 0 = one, 1 = few, 2 = many; Thai has one form.
pub fn plural_form(n: u64) -> usize {
    if let Some(form) = RULES.with(|r| r.borrow().as_ref().map(|rules| (rules.plural)(n))) {
        return form;
    }
    builtin_plural_form(language().code, n)
}

/// CLDR's integer plural rules of `code`, without any data: what [`plural_form`] uses natively.
pub fn builtin_plural_form(code: &str, n: u64) -> usize {
    match code {
        "ru" => {
            let (m10, m100) = (n % 10, n % 100);
            if m10 == 1 && m100 != 11 {
                0
            } else if (2..=4).contains(&m10) && !(12..=14).contains(&m100) {
                1
            } else {
                2
            }
        }
        "th" => 0,
        _ => usize::from(n != 1),
    }
}

/// `one` or `other` (their translation's form for `n`), filled with `args`.
pub fn plural(n: u64, one: &'static str, other: &'static str) -> Cow<'static, str> {
    let form = plural_form(n);
    lookup(one, form).unwrap_or(Cow::Borrowed(if n == 1 { one } else { other }))
}

/// Fills a message's placeholders: `{}` takes the next argument, `{0}`, `{1}`, … a given one
/// (a translation may reorder), `{{` and `}}` are braces. A placeholder without its argument
/// stays as written: a wrong translation shows, it does not panic.
pub fn fill(template: &str, args: &[&dyn Display]) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(template.len() + 16 * args.len());
    let mut next = 0;
    let mut rest = template;
    while let Some(i) = rest.find(['{', '}']) {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        if tail.starts_with("{{") || tail.starts_with("}}") {
            out.push_str(&tail[..1]);
            rest = &tail[2..];
            continue;
        }
        if let Some(end) = tail.find('}').filter(|_| tail.starts_with('{')) {
            let inside = &tail[1..end];
            let index = if inside.is_empty() {
                next += 1;
                Some(next - 1)
            } else {
                inside.parse::<usize>().ok()
            };
            match index.and_then(|i| args.get(i)) {
                Some(arg) => {
                    let _ = write!(out, "{arg}");
                }
                None => out.push_str(&tail[..=end]),
            }
            rest = &tail[end + 1..];
        } else {
            out.push_str(&tail[..1]);
            rest = &tail[1..];
        }
    }
    out.push_str(rest);
    out
}

/// Marks a static label for the catalog without translating it here (gettext's `N_`): the
/// label stays a `&'static str` in the view model and its one renderer translates it
/// (`tr::get_dynamic`). `n!("Request size (bytes)")` is `"Request size (bytes)"`.
#[macro_export]
macro_rules! n {
    ($msgid:literal) => {
        $msgid
    };
}

/// A message without placeholders, in the page's language: `t!("Bucket index")`.
#[macro_export]
macro_rules! t {
    ($msgid:literal) => {
        $crate::tr::get($msgid)
    };
}

/// A message with placeholders, in the page's language, filled:
/// `tf!("{} bytes: a buffer of {}.", a, b)`. Only `{}` (or `{N}` in a translation): format
/// the arguments first.
#[macro_export]
macro_rules! tf {
    ($msgid:literal $(, $arg:expr)* $(,)?) => {
        $crate::tr::fill(&$crate::tr::get($msgid), &[$(&$arg as &dyn ::std::fmt::Display),*])
    };
}

/// A message whose words depend on a count, in the page's language, filled with the count and
/// then `args`: `tp!(n, "{} buffer", "{} buffers")`.
#[macro_export]
macro_rules! tp {
    ($n:expr, $one:literal, $other:literal $(, $arg:expr)* $(,)?) => {{
        let n: u64 = $n;
        $crate::tr::fill(
            &$crate::tr::plural(n, $one, $other),
            &[&$crate::group_digits(n) as &dyn ::std::fmt::Display $(, &$arg as &dyn ::std::fmt::Display)*],
        )
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_fill_in_order_or_by_index() {
        assert_eq!(fill("{} of {}", &[&1, &"two"]), "1 of two");
        assert_eq!(fill("{1} — {0}", &[&"a", &"b"]), "b — a");
        assert_eq!(fill("{{literal}} {}", &[&5]), "{literal} 5");
        // Missing arguments and stray braces show as written.
        assert_eq!(fill("{} {} {9}", &[&1]), "1 {} {9}");
        assert_eq!(fill("a } b { c", &[]), "a } b { c");
    }

    #[test]
    fn russian_plurals_follow_cldr() {
        set_language("ru");
        let forms: Vec<usize> = [1, 2, 5, 11, 12, 21, 22, 25, 101, 111, 1_000_001]
            .iter()
            .map(|&n| plural_form(n))
            .collect();
        assert_eq!(forms, [0, 1, 2, 2, 2, 0, 1, 2, 0, 2, 0]);
        set_language("th");
        assert_eq!(plural_form(5), 0);
        set_language("en");
        assert_eq!((plural_form(1), plural_form(0), plural_form(2)), (0, 1, 1));
    }

    #[test]
    fn installed_strings_translate_and_english_is_the_fallback() {
        set_language("ru");
        install([(key("Bucket index"), vec!["Номер бакета".to_string()])]);
        assert_eq!(crate::t!("Bucket index"), "Номер бакета");
        assert_eq!(crate::t!("Not translated"), "Not translated");
        set_language("en");
        assert_eq!(crate::t!("Bucket index"), "Bucket index");
        install([]);
    }

    #[test]
    fn the_language_sets_the_separators() {
        set_language("ru");
        assert_eq!((group_separator(), decimal_separator()), ("\u{a0}", ','));
        assert!(!set_language("xx"));
        assert_eq!(language().code, "en");
        assert_eq!((group_separator(), decimal_separator()), (",", '.'));
    }

    #[test]
    fn figures_read_the_russian_way_on_a_russian_page() {
        set_language("ru");
        assert_eq!(localize_figure("1,048,576 B"), "1\u{a0}048\u{a0}576 Б");
        assert_eq!(
            localize_figure("0.865× [0.864–0.871]"),
            "0,865× [0,864–0,871]"
        );
        assert_eq!(localize_figure("12.3 ns, 4 µs (B)"), "12,3 нс, 4 мкс (Б)");
        assert_eq!(localize_figure("Bytes, 1.5"), "Bytes, 1,5");
        set_language("th");
        assert_eq!(localize_figure("1,048,576 B"), "1,048,576 B");
        set_language("en");
    }

    #[test]
    fn keys_are_fnv1a() {
        assert_eq!(key(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(key("a"), 0xaf63_dc4c_8601_ec8c);
    }
}

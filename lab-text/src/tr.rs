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
//!   strings for its own module (`wasm/<module>/strings.<lang>.txt`, written at build time by
//!   [`strings_file`], keyed by [`key`], holding only the messages whose English that module's
//!   code holds) and hands them to [`install_file`]. So a page downloads only its language's
//!   words for what it can show, and no PO or JSON parser ships in the wasm.
//!
//! What the lab pays for this in every language, English too, is kept small on purpose (issue
//! 24 allows a module 10 %): a message site is one call ([`get`], [`format()`], [`plural`]) that
//! hands back a `&'static str` ([`Msg`]), so no site carries drop code; the state is one `Copy`
//! value behind one thread-local; the browser's `Intl` rules are plain functions.
//!
//! The language is per thread ([`set_language`]): a page, or one build of the book, has one;
//! tests in parallel threads do not see each other's.
//!
//! Numbers follow the language too ([`crate::group_digits`], [`crate::decimal`]): English and
//! Thai group with `,` and write a decimal point; Russian groups with a no-break space and
//! writes a decimal comma, as the browser's `Intl.NumberFormat("ru")` does.

use std::cell::Cell;
use std::fmt::Display;

use crate::lang::{LANGUAGES, Language};

/// A page's own number and plural rules (the browser's `Intl`), installed by the wasm build.
/// Plain functions (the browser objects they call live in the wasm build's own state), so the
/// state below stays `Copy` and the shipped module carries no drop code for it.
#[derive(Clone, Copy)]
pub struct Rules {
    /// A whole number grouped as the language groups it (`Intl.NumberFormat`).
    pub group: fn(u64) -> String,
    /// The plural form of a count (`Intl.PluralRules`), as an index into a message's forms.
    pub plural: fn(u64) -> usize,
}

/// One thread's language state: which language, the page's installed strings, the browser's
/// rules, the compiled catalogs. One `Copy` value behind one thread-local, read whole and
/// written whole: every access is the same small code.
#[derive(Clone, Copy)]
struct State {
    language: usize,
    // Sorted by key: a binary search, so the shipped wasm carries no hash map for it. The
    // strings live as long as the page (installed once, leaked), so a lookup hands out a
    // `&'static str` and no message site carries code to drop what it was given.
    installed: Table,
    rules: Option<Rules>,
    catalogs: Catalogs,
}

thread_local! {
    static STATE: Cell<State> = const {
        Cell::new(State { language: 0, installed: &[], rules: None, catalogs: &[] })
    };
}

fn state() -> State {
    STATE.with(Cell::get)
}

fn set_state(s: State) {
    STATE.with(|c| c.set(s));
}

/// One language's messages: `(key, forms)` sorted by key, a message's plural forms joined by
/// tabs (as a strings file's line holds them), so the installed and the compiled tables are one
/// type and one lookup.
pub type Table = &'static [(Key, &'static str)];

/// Compiled catalogs: per language code, its [`Table`].
pub type Catalogs = &'static [(&'static str, Table)];

/// Hands this thread compiled catalogs (the preprocessor's, for the build-time render).
pub fn set_catalogs(catalogs: Catalogs) {
    set_state(State {
        catalogs,
        ..state()
    });
}

/// Installs the browser's rules for this thread's language (`None`: the built-in ones, which
/// the build-time render uses and a wasm test compares with the browser's).
pub fn set_rules(rules: Option<Rules>) {
    set_state(State { rules, ..state() });
}

/// `n` grouped by the installed rules, if any.
pub(crate) fn grouped_by_rules(n: u64) -> Option<String> {
    state().rules.map(|rules| (rules.group)(n))
}

/// Sets this thread's language by its code; an unknown code leaves English and returns false.
pub fn set_language(code: &str) -> bool {
    let index = LANGUAGES.iter().position(|l| l.code == code);
    set_state(State {
        language: index.unwrap_or(0),
        ..state()
    });
    index.is_some()
}

/// This thread's language.
pub fn language() -> &'static Language {
    &LANGUAGES[state().language]
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

/// A message's key: 32-bit FNV-1a of its English text. 32 bits keep a page's strings file
/// small (a key is random to gzip: 8 bytes of a 64-bit key cost as much as a short message);
/// `cargo xtask i18n` and the preprocessor's build refuse a catalog in which two messages share
/// a key, so a collision is a build error, never a wrong message.
pub type Key = u32;

/// The key of a message in a page's strings: [`Key`] of its English text.
pub const fn key(msgid: &str) -> Key {
    let bytes = msgid.as_bytes();
    let mut hash: u32 = 0x811c_9dc5;
    let mut i = 0;
    while i < bytes.len() {
        hash ^= bytes[i] as u32;
        hash = hash.wrapping_mul(0x0100_0193);
        i += 1;
    }
    hash
}

/// A page's strings file (`wasm/<module>/strings.<lang>.txt`) from `(key, forms)` entries: a
/// line per message, `key` in hex, then each form, separated by tabs, in ascending key order.
/// Plain text rather than JSON: the page hands it to the module as one string and the module
/// splits it, so neither side carries a JSON walk. A form with a tab or a line break is refused.
pub fn strings_file(entries: &[(Key, Vec<String>)]) -> Result<String, String> {
    let mut sorted: Vec<&(Key, Vec<String>)> = entries.iter().collect();
    sorted.sort_by_key(|e| e.0);
    let mut out = String::new();
    for (i, (k, forms)) in sorted.iter().enumerate() {
        if i > 0 && sorted[i - 1].0 == *k {
            return Err(format!("two messages share the key {k:08x}"));
        }
        if forms.is_empty() {
            return Err(format!("the message {k:08x} has no forms"));
        }
        if let Some(bad) = forms.iter().find(|f| f.contains(['\t', '\n', '\r'])) {
            return Err(format!(
                "a translation holds a tab or a line break: {bad:?}"
            ));
        }
        out.push_str(&format!("{k:08x}"));
        for f in forms {
            out.push('\t');
            out.push_str(f);
        }
        out.push('\n');
    }
    Ok(out)
}

/// Installs a page's strings file (the browser's build; see [`strings_file`]), replacing what
/// was installed. A line out of key order (or with a repeated key) would break the binary
/// search, and a line without a key or forms is unreadable: each is left out and its message
/// stays English. Returns how many lines were left out. The text is kept for the life of the
/// page (leaked; a page installs its language once), so a message is a slice of it.
pub fn install_file(text: &str) -> usize {
    let text: &'static str = text.to_string().leak();
    let mut table: Vec<(Key, &'static str)> = Vec::new();
    let mut left_out = 0;
    for line in text.split('\n').filter(|l| !l.is_empty()) {
        let entry = line.split_once('\t').and_then(|(k, forms)| {
            let k = Key::from_str_radix(k, 16).ok()?;
            table
                .last()
                .is_none_or(|last| last.0 < k)
                .then_some((k, forms))
        });
        match entry {
            Some(e) => table.push(e),
            None => left_out += 1,
        }
    }
    set_state(State {
        installed: table.leak(),
        ..state()
    });
    left_out
}

/// The translation of `msgid` in this thread's language (plural form `form`), or `None`.
fn lookup(msgid: &str, form: usize) -> Option<&'static str> {
    let code = language().code;
    if code == "en" {
        return None;
    }
    let k = key(msgid);
    let s = state();
    let find = |table: Table| {
        table
            .binary_search_by_key(&k, |e| e.0)
            .ok()
            .map(|i| table[i].1)
    };
    let forms = find(s.installed).or_else(|| {
        let (_, table) = s.catalogs.iter().find(|(c, _)| *c == code)?;
        find(table)
    })?;
    forms.split('\t').nth(form).or(forms.split('\t').next())
}

/// `msgid` in this thread's language (English when there is no translation).
#[inline(never)]
pub fn get(msgid: &'static str) -> Msg {
    Msg(lookup(msgid, 0).unwrap_or(msgid))
}

/// A message in the page's language, as [`t!`](crate::t) gives it: a `&'static str` (a copy,
/// nothing to drop at the message site) that reads like the `Cow` a caller might expect —
/// `&*m`, `m.to_string()`, `m.into_owned()`, `String::from(m)`, `{m}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Msg(pub &'static str);

impl Msg {
    /// The message as an owned `String`.
    pub fn into_owned(self) -> String {
        self.0.to_string()
    }
}

impl std::ops::Deref for Msg {
    type Target = str;
    fn deref(&self) -> &str {
        self.0
    }
}

impl AsRef<str> for Msg {
    fn as_ref(&self) -> &str {
        self.0
    }
}

impl Display for Msg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

impl From<&'static str> for Msg {
    fn from(s: &'static str) -> Msg {
        Msg(s)
    }
}

impl From<Msg> for String {
    fn from(m: Msg) -> String {
        m.0.to_string()
    }
}

impl PartialEq<&str> for Msg {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl PartialEq<str> for Msg {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

/// A text that is not a literal of the code (a verdict's words from a book directive) in this
/// thread's language; its catalog entry comes from where it is written (`cargo xtask i18n` reads
/// the directives of `book/src`).
pub fn get_dynamic(msgid: &str) -> String {
    dynamic(msgid).to_string()
}

/// [`get_dynamic`] without the copy, for a renderer that only reads the words.
pub fn dynamic(msgid: &str) -> &str {
    lookup(msgid, 0).unwrap_or(msgid)
}

/// A figure as the book prints it (`1,048,576 B`, `0.865× [0.864–0.871]`, `12.3 ns`), written
/// the way this thread's language writes numbers and units. The figure formatter itself stays
/// in one notation, which the claims and tests read back; this is its last step for a reader.
/// English and Thai (whose articles write `1,048,576` and `ns`) are unchanged; Russian gets
/// no-break-space groups, a decimal comma and its unit abbreviations (нс, мкс, мс, Б, КиБ, and
/// the decimal кБ, МБ, ГБ of the charts' axes), each (and `%`) joined to its number by a
/// no-break space, so a line never breaks between them.
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
    let mut result = String::with_capacity(out.len() + 8);
    let mut previous = "";
    for (i, word) in out.split(' ').enumerate() {
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
            "kB" => Some("кБ"),
            "MB" => Some("МБ"),
            "GB" => Some("ГБ"),
            _ => None,
        };
        // A unit (or a percent sign) stays on the line of its number: a no-break space.
        if i > 0 {
            let unit_after_number = (unit.is_some() && head.is_empty() || word.starts_with('%'))
                && previous.ends_with(|c: char| c.is_ascii_digit());
            result.push(if unit_after_number { '\u{a0}' } else { ' ' });
        }
        match unit {
            Some(u) => result.push_str(&format!("{head}{u}{tail}")),
            None => result.push_str(word),
        }
        previous = word;
    }
    result
}

/// The plural form of `n` in this thread's language (CLDR's integer rules, as gettext's
/// `Plural-Forms` in [`crate::lang`] and the browser's `Intl.PluralRules`): English 0 = one,
/// 1 = other; Russian 0 = one, 1 = few, 2 = many; Thai has one form.
pub fn plural_form(n: u64) -> usize {
    if let Some(form) = state().rules.map(|rules| (rules.plural)(n)) {
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

/// `one` or `other` (their translation's form for `n`), filled with the count grouped and then
/// `args`: what [`tp!`](crate::tp) calls.
#[inline(never)]
pub fn plural(n: u64, one: &'static str, other: &'static str, args: &[&dyn Display]) -> String {
    let form = plural_form(n);
    let template = lookup(one, form).unwrap_or(if n == 1 { one } else { other });
    let count = crate::group_digits(n);
    let mut all: Vec<&dyn Display> = Vec::with_capacity(args.len() + 1);
    all.push(&count);
    all.extend_from_slice(args);
    fill(template, &all)
}

/// `msgid` in this thread's language, filled with `args`: what [`tf!`](crate::tf) calls, so a
/// message site is one call.
#[inline(never)]
pub fn format(msgid: &'static str, args: &[&dyn Display]) -> String {
    fill(get(msgid).0, args)
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
        rest = &rest[i..];
        // `{{` or `}}`: one brace. `{}` or `{N}`: an argument. Anything else: as written.
        let doubled = rest.len() > 1 && rest.as_bytes()[1] == rest.as_bytes()[0];
        let inside = rest.strip_prefix('{').and_then(|r| r.split_once('}'));
        let taken = match inside {
            _ if doubled => {
                out.push_str(&rest[..1]);
                2
            }
            Some((index, _)) => {
                let arg = if index.is_empty() {
                    next += 1;
                    args.get(next - 1)
                } else {
                    index.parse::<usize>().ok().and_then(|i| args.get(i))
                };
                match arg {
                    Some(arg) => drop(write!(out, "{arg}")),
                    None => out.push_str(&rest[..index.len() + 2]),
                }
                index.len() + 2
            }
            None => {
                out.push_str(&rest[..1]);
                1
            }
        };
        rest = &rest[taken..];
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
        $crate::tr::format($msgid, &[$(&$arg as &dyn ::std::fmt::Display),*])
    };
}

/// A message whose words depend on a count, in the page's language, filled with the count and
/// then `args`: `tp!(n, "{} buffer", "{} buffers")`.
#[macro_export]
macro_rules! tp {
    ($n:expr, $one:literal, $other:literal $(, $arg:expr)* $(,)?) => {
        $crate::tr::plural($n, $one, $other, &[$(&$arg as &dyn ::std::fmt::Display),*])
    };
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
        install_file(
            &strings_file(&[(key("Bucket index"), vec!["Номер бакета".to_string()])]).unwrap(),
        );
        assert_eq!(crate::t!("Bucket index"), "Номер бакета");
        assert_eq!(crate::t!("Not translated"), "Not translated");
        set_language("en");
        assert_eq!(crate::t!("Bucket index"), "Bucket index");
        install_file("");
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
        assert_eq!(localize_figure("1,048,576 B"), "1\u{a0}048\u{a0}576\u{a0}Б");
        assert_eq!(
            localize_figure("0.865× [0.864–0.871]"),
            "0,865× [0,864–0,871]"
        );
        assert_eq!(
            localize_figure("12.3 ns, 4 µs (B), 7.5 %"),
            "12,3\u{a0}нс, 4\u{a0}мкс (Б), 7,5\u{a0}%"
        );
        assert_eq!(localize_figure("Bytes, 1.5"), "Bytes, 1,5");
        assert_eq!(
            localize_figure("1 kB, 2 MB, 4 GB, 8 KiB"),
            "1\u{a0}кБ, 2\u{a0}МБ, 4\u{a0}ГБ, 8\u{a0}КиБ"
        );
        set_language("th");
        assert_eq!(localize_figure("1,048,576 B"), "1,048,576 B");
        assert_eq!(localize_figure("1 kB, 2 MB"), "1 kB, 2 MB");
        set_language("en");
    }

    #[test]
    fn keys_are_fnv1a() {
        assert_eq!(key(""), 0x811c_9dc5);
        assert_eq!(key("a"), 0xe40c_292c);
    }

    #[test]
    fn a_strings_file_round_trips_and_bad_lines_stay_english() {
        let file = strings_file(&[
            (key("Run it"), vec!["Запустить".into()]),
            (
                key("{} buffer"),
                vec!["{} буфер".into(), "{} буфера".into(), "{} буферов".into()],
            ),
        ])
        .unwrap();
        assert_eq!(file.lines().count(), 2);
        set_language("ru");
        assert_eq!(install_file(&file), 0);
        assert_eq!(crate::t!("Run it"), "Запустить");
        assert_eq!(crate::tp!(22, "{} buffer", "{} buffers"), "22 буфера");
        // Out of order, no forms, not a key: each left out, the rest installed.
        let broken = format!("ffffffff\tz\n{}\nzz\tx\n00000001\n", file.trim_end());
        assert_eq!(install_file(&broken), 4);
        assert_eq!(crate::t!("Run it"), "Run it");
        set_language("en");
        install_file("");
        assert!(strings_file(&[(1, vec!["a\tb".into()])]).is_err());
        assert!(strings_file(&[(1, vec!["a".into()]), (1, vec!["b".into()])]).is_err());
    }
}

//! Contracts of the parsers readers feed: number and size fields, size lists, text lines, the
//! widgets' forms, the state in a link, stored progress, and a quiz mount point's page data.

use std::collections::BTreeMap;

use lab_text::group_digits;
use serde::de::{Deserializer, MapAccess, Visitor};
use wasm_lab::chapter::size_specialized::scenario::parse_sizes;
use wasm_lab::chapter::stale_data::scenario::{escape_line, parse_line};
use wasm_lab::input::{
    self, InputError, MAX_ARRAY_LENGTH, field_byte, field_number, field_size, parse_number,
    parse_size,
};
use wasm_lab::progress::{Progress, Tally};
use wasm_lab::quiz::Page;
use wasm_lab::view::{self, Env, Inputs, url};

use crate::text;

/// Numbers, sizes, bytes, size lists and text lines, each read from the same text.
pub fn input(data: &[u8]) {
    let text = text(data);
    let text = text.as_ref();

    // A number: accepted → printed (plain and grouped) it reads back the same; refused → the
    // message quotes what was typed (or asks for a number when nothing was).
    let number = parse_number(text);
    match &number {
        Ok(n) => {
            assert_eq!(parse_number(&n.to_string()), Ok(*n), "{text:?}");
            assert_eq!(parse_number(&group_digits(*n)), Ok(*n), "{text:?}");
            assert_eq!(parse_number(&format!(" +{n} ")), Ok(*n), "{text:?}");
        }
        Err(e) => {
            let message = e.to_string();
            assert!(!message.is_empty() && !message.ends_with('.'), "{message}");
            if *e != InputError::Empty {
                assert!(message.contains('“'), "{text:?}: {message}");
            }
        }
    }

    // A size is a number of at most .NET's Array.MaxLength, with the same refusals otherwise.
    match (parse_size(text), &number) {
        (Ok(s), Ok(n)) => assert!(s == *n && s <= MAX_ARRAY_LENGTH, "{text:?}"),
        (Err(InputError::TooLarge(_)), Ok(n)) => assert!(*n > MAX_ARRAY_LENGTH, "{text:?}"),
        (Err(e), Err(f)) => assert_eq!(&e, f, "{text:?}"),
        (got, _) => panic!("{text:?}: parse_size {got:?} but parse_number {number:?}"),
    }

    // A field's message always starts with the field's name.
    let name = "Field name";
    let named = |r: Result<String, String>| {
        if let Err(m) = r {
            assert!(m.starts_with("Field name: "), "{text:?}: {m}");
            assert!(!m.ends_with('.'), "{m}");
        }
    };
    for max in [0, 255, 100_000, MAX_ARRAY_LENGTH, u64::MAX] {
        let got = field_number(name, text, max);
        match (&got, &number) {
            (Ok(v), Ok(n)) => assert!(v == n && *n <= max, "{text:?}"),
            (Err(_), Ok(n)) => assert!(*n > max, "{text:?} refused under {max}"),
            (Ok(_), Err(_)) => panic!("{text:?}: field_number accepted a refused number"),
            (Err(_), Err(_)) => {}
        }
        named(got.map(|n| n.to_string()));
    }
    let size = field_size(name, text);
    assert_eq!(
        size.as_ref().ok(),
        parse_size(text).as_ref().ok(),
        "{text:?}"
    );
    named(size.map(|n| n.to_string()));
    let byte = field_byte(name, text);
    assert_eq!(
        byte.as_ref().ok().map(|b| u64::from(*b)),
        number.as_ref().ok().copied().filter(|n| *n <= 255),
        "{text:?}"
    );
    named(byte.map(|n| n.to_string()));

    // A size list: accepted → printed grouped, separated by "; ", it reads back the same.
    match parse_sizes(text) {
        Ok(sizes) => {
            let printed: Vec<String> = sizes.iter().map(|n| group_digits(*n)).collect();
            assert_eq!(
                parse_sizes(&printed.join("; ")),
                Ok(sizes.clone()),
                "{text:?}"
            );
            let plain: Vec<String> = sizes.iter().map(u64::to_string).collect();
            assert_eq!(parse_sizes(&plain.join("\n")), Ok(sizes), "{text:?}");
        }
        Err(m) => assert!(m.contains('“') && !m.is_empty(), "{text:?}: {m}"),
    }

    // A text line (`\n`, `\t`, `\\` escapes): accepted → shown escaped, it reads back the same.
    match parse_line(text) {
        Ok(bytes) => {
            let line = String::from_utf8(bytes.clone()).expect("parse_line keeps UTF-8");
            assert_eq!(parse_line(&escape_line(&line)), Ok(bytes), "{text:?}");
        }
        Err(m) => assert!(!m.is_empty() && !m.ends_with('.'), "{text:?}: {m}"),
    }

    // The digits printer agrees with the reader on every value.
    if let Ok(n) = &number {
        assert_eq!(input::parse_number(&group_digits(n / 7)), Ok(n / 7));
    }
}

/// The fuzzer's bytes as one widget's inputs: the first byte picks the widget, the rest is its
/// fields' values (then its steps and predictions), separated by NUL.
fn widget_inputs(data: &[u8]) -> Option<(&'static view::Widget, view::Form, Inputs, Vec<String>)> {
    let (&pick, rest) = data.split_first()?;
    let all: Vec<&view::Widget> = view::widgets().collect();
    let w = all[usize::from(pick) % all.len()];
    let form = (w.form)("");
    let mut inputs = Inputs::from_form(&form);
    let mut keys: Vec<String> = form.fields().map(|f| f.id.to_string()).collect();
    for g in &form.groups {
        if !g.slot.is_empty() {
            keys.push(view::step_key(g.slot));
            keys.push(view::predict_key(g.slot));
        }
    }
    let text = text(rest);
    for (key, value) in keys.iter().zip(text.split('\0')) {
        inputs.set(key, value);
    }
    Some((w, form, inputs, keys))
}

/// Every widget's view of any field values: no panic, and every error a slot shows names one
/// of the widget's fields (its label or its letter) and has no trailing period.
pub fn widget(data: &[u8]) {
    let Some((w, form, inputs, _)) = widget_inputs(data) else {
        return;
    };
    let v = (w.view)(
        &inputs,
        &Env {
            live: true,
            wasm_pages: None,
        },
    );
    // A field is named by its label or by its group's legend (`First renter` → “First renter's
    // size: …”), as a word of the message: `reads` → “Bytes to read: …”.
    let names: Vec<String> = form
        .groups
        .iter()
        .flat_map(|g| g.legend.into_iter().chain(g.fields.iter().map(|f| f.label)))
        .map(label_name)
        .collect();
    for slot in &v.slots {
        if let Some(e) = &slot.error {
            assert!(!e.is_empty() && !e.ends_with('.'), "{}: {e}", w.name);
            assert!(
                names.iter().any(|n| e.to_lowercase().contains(n.as_str())),
                "{}: the message names none of the fields {names:?}: {e}",
                w.name
            );
        }
    }
    let _ = view::html::widget(w.name, &form, &v);
}

/// A label as its field's messages name it: its first word, without backticks, `=` or a comma,
/// in lower case (messages start with it: `Request size (bytes)` → “Request size: …”).
fn label_name(label: &str) -> String {
    let plain = label.replace('`', "");
    let first = plain.split_whitespace().next().unwrap_or("");
    let first = first.trim_end_matches([',', '=']).to_lowercase();
    first
        .strip_suffix('s')
        .filter(|s| s.len() > 2)
        .map_or(first.clone(), str::to_string)
}

/// The state in a link: for its own widget a hash always decodes (never `None`, never a panic),
/// keeps only the form's keys with values of at most `MAX_VALUE` characters, and the decoded
/// state, encoded again, decodes to itself. Another widget's hash is not read.
pub fn link(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let all: Vec<&view::Widget> = view::widgets().collect();
    let w = all[usize::from(pick) % all.len()];
    let form = (w.form)("");
    let start = Inputs::from_form(&form);
    let raw = text(rest);
    for hash in [format!("#{}:{raw}", w.name), format!("{}:{raw}", w.name)] {
        let got = url::decode(w.name, &hash, &form, &start)
            .unwrap_or_else(|| panic!("{hash:?} not read as {}'s", w.name));
        for (k, v) in got.pairs() {
            assert!(v.chars().count() <= url::MAX_VALUE, "{k} too long");
            let known = form.field(k).is_some()
                || form.groups.iter().any(|g| {
                    !g.slot.is_empty()
                        && (*k == view::step_key(g.slot) || *k == view::predict_key(g.slot))
                });
            assert!(known, "{hash:?}: unknown key {k:?} kept");
        }
        let again = url::encode(w.name, &got);
        assert_eq!(
            url::decode(w.name, &again, &form, &start).as_ref(),
            Some(&got),
            "{hash:?} → {again:?}"
        );
    }
    // The raw text as a whole hash: read only when it names this widget.
    if let Some(got) = url::decode(w.name, &raw, &form, &start) {
        let rest = raw.strip_prefix('#').unwrap_or(&raw);
        assert!(rest.starts_with(&format!("{}:", w.name)), "{raw:?}");
        let _ = got;
    }
}

/// Every `quiz → kind → tally` entry a stored text holds, duplicates included (a JSON object may
/// repeat a key; `serde_json` and the browser's `JSON.parse` keep the last).
struct Entries(Vec<(String, String, Tally)>);

impl<'de> serde::Deserialize<'de> for Entries {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(serde::Deserialize)]
        struct Stored {
            #[serde(rename = "quizzes")]
            quizzes: Quizzes,
        }
        struct Quizzes(Vec<(String, String, Tally)>);
        impl<'de> serde::Deserialize<'de> for Quizzes {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl<'de> Visitor<'de> for V {
                    type Value = Quizzes;
                    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                        f.write_str("quizzes")
                    }
                    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Quizzes, A::Error> {
                        let mut out = Vec::new();
                        while let Some((quiz, kinds)) = m.next_entry::<String, Pairs<Tally>>()? {
                            out.extend(kinds.0.into_iter().map(|(k, t)| (quiz.clone(), k, t)));
                        }
                        Ok(Quizzes(out))
                    }
                }
                d.deserialize_map(V)
            }
        }
        Stored::deserialize(d).map(|s| Entries(s.quizzes.0))
    }
}

/// A JSON object's entries in order, duplicates included.
struct Pairs<T>(Vec<(String, T)>);

impl<'de, T: serde::Deserialize<'de>> serde::Deserialize<'de> for Pairs<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: serde::Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Pairs<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Pairs<T>, A::Error> {
                let mut out = Vec::new();
                while let Some(e) = m.next_entry()? {
                    out.push(e);
                }
                Ok(Pairs(out))
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}

/// Stored progress. Read: every entry the text holds is in the result with its own counts (none
/// lost to another), and what it writes back reads back the same, also after one more answer
/// (`web/progress.rs`'s `update`). Refused: the reason is given (the page then keeps the raw text
/// aside under `<key>.unreadable`, so a refusal loses nothing).
pub fn progress(data: &[u8]) {
    let text = text(data);
    match Progress::from_json(&text) {
        Ok(p) => {
            let entries = serde_json::from_str::<Entries>(&text)
                .expect("an accepted text has quizzes of kinds of tallies")
                .0;
            let mut seen = BTreeMap::new();
            for (quiz, kind, t) in &entries {
                assert_eq!(p.tally(quiz, kind), *t, "{quiz}/{kind} lost in {text:?}");
                assert!(seen.insert((quiz, kind), t).is_none_or(|old| old == t));
            }
            let written = p.to_json();
            let back = Progress::from_json(&written).expect("written progress reads back");
            assert_eq!(back.to_json(), written, "{text:?}");
            for (quiz, kind, t) in &entries {
                assert_eq!(back.tally(quiz, kind), *t, "{quiz}/{kind} lost by writing");
            }
            // One more answer to an entry the text holds (or a new one): nothing else changes.
            let (quiz, kind) = entries
                .first()
                .map_or(("q", "k"), |(q, k, _)| (q.as_str(), k.as_str()));
            let mut more = back.clone();
            more.record(quiz, kind, data.len().is_multiple_of(2));
            more.reveal(quiz, kind);
            let more = Progress::from_json(&more.to_json()).expect("updated progress reads back");
            for (q, k, t) in &entries {
                if (q.as_str(), k.as_str()) != (quiz, kind) {
                    assert_eq!(more.tally(q, k), *t, "{q}/{k} lost by an update");
                }
            }
        }
        Err(e) => assert!(!e.0.is_empty(), "{text:?}"),
    }
}

/// A quiz mount point's `data-page`: accepted → written back, it reads back the same; refused →
/// the message says the page's quiz data is unreadable and why.
pub fn page(data: &[u8]) {
    let text = text(data);
    match Page::from_json(&text) {
        Ok(page) => {
            let written = page.to_json();
            assert_eq!(Page::from_json(&written), Ok(page), "{text:?} → {written}");
        }
        Err(e) => {
            let why = e
                .strip_prefix("the page's quiz data is unreadable: ")
                .unwrap_or_else(|| panic!("{e}"));
            assert!(!why.is_empty(), "{e}");
        }
    }
}

//! The lab's own words (widgets, quizzes, verdicts, errors): their catalog `lab-text/po/`.
//!
//! Every message is a string literal in a `t!`, `tf!`, `tp!` or `n!` call (`lab_text::tr`) in the
//! crates that write what readers see: `lab-text`, `wasm-lab`, `bench-data` and the book's
//! preprocessor. [`extract`] finds them (tests left out: a test's strings are not the lab's
//! words), [`template`] writes `lab-text/po/messages.pot`, and the catalogs are merged like the
//! book's. [`strings`] writes, for one wasm module and one language, the page's strings:
//! the messages of that module's chapter and of the shared code, keyed by `tr::key`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use polib::catalog::Catalog;
use polib::message::Message;

/// The source folders whose `t!`/`tf!`/`tp!` messages are the lab's.
pub const SOURCES: &[&str] = &[
    "lab-text/src",
    "wasm-lab/src",
    "bench-data/src",
    "book/preprocessor/src",
];

/// One message found in the sources.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub msgid: String,
    pub plural: Option<String>,
    /// Every place it is used, `path:line`.
    pub places: Vec<String>,
}

/// The catalogs' folder.
pub fn po_dir(root: &Path) -> PathBuf {
    root.join("lab-text/po")
}

/// Every message of the sources under `root`, in order of first use.
pub fn extract(root: &Path) -> Result<Vec<Found>> {
    let mut files = Vec::new();
    for dir in SOURCES {
        collect(&root.join(dir), &mut files)?;
    }
    files.sort();
    let mut out: Vec<Found> = Vec::new();
    let mut index: BTreeMap<String, usize> = BTreeMap::new();
    for file in files {
        let text = std::fs::read_to_string(&file).with_context(|| format!("{}", file.display()))?;
        let rel = file
            .strip_prefix(root)
            .unwrap_or(&file)
            .to_string_lossy()
            .replace('\\', "/");
        for (line, msgid, plural) in messages(&text).map_err(|e| anyhow::anyhow!("{rel}: {e}"))? {
            add(&mut out, &mut index, msgid, plural, format!("{rel}:{line}"));
        }
    }
    // The figures' titles, written by the bench into book/data: the preprocessor shows them in
    // figure tables, popovers and claims, and gives them to the quizzes graded from the data.
    let mut data: Vec<PathBuf> = std::fs::read_dir(root.join("book/data"))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    data.sort();
    for file in data {
        let text = std::fs::read_to_string(&file)?;
        let json: serde_json::Value =
            serde_json::from_str(&text).with_context(|| format!("{}", file.display()))?;
        let name = file
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        if let Some(figures) = json.get("figures").and_then(|f| f.as_object()) {
            for (key, figure) in figures {
                if let Some(title) = figure.get("title").and_then(|t| t.as_str()) {
                    let place = format!("book/data/{name}:{key}");
                    add(&mut out, &mut index, title.to_string(), None, place);
                }
            }
        }
    }
    // A verdict's own words, written in the chapters' directives (`less=fewer_bytes`): the
    // preprocessor translates them with the lab's catalog.
    for page in crate::site::chapters(root)? {
        let text = std::fs::read_to_string(&page)?;
        let rel = page
            .strip_prefix(root)
            .unwrap_or(&page)
            .to_string_lossy()
            .replace('\\', "/");
        for (n, line) in text.lines().enumerate() {
            for directive in line.split("{{#verdict ").skip(1) {
                let inside = directive.split("}}").next().unwrap_or("");
                for option in inside.split_whitespace() {
                    if let Some(words) = option
                        .strip_prefix("less=")
                        .or_else(|| option.strip_prefix("more="))
                    {
                        let place = format!("{rel}:{}", n + 1);
                        add(&mut out, &mut index, words.replace('_', " "), None, place);
                    }
                }
            }
        }
    }
    distinct_keys(&out)?;
    Ok(out)
}

/// Refuses two messages with one key (`lab_text::tr::key`): a page's strings file and the
/// preprocessor's tables find a message by its key, so a collision would show one message's
/// words for the other. Rewording either message resolves it.
fn distinct_keys(found: &[Found]) -> Result<()> {
    let mut seen: BTreeMap<lab_text::tr::Key, &str> = BTreeMap::new();
    for f in found {
        if let Some(other) = seen.insert(lab_text::tr::key(&f.msgid), &f.msgid) {
            bail!(
                "the lab messages {other:?} and {:?} share the key {:08x} (lab_text::tr::key): \
                 reword one of them",
                f.msgid,
                lab_text::tr::key(&f.msgid)
            );
        }
    }
    Ok(())
}

/// Adds a message's use at `place`: to its entry when the message is known, else a new entry.
fn add(
    out: &mut Vec<Found>,
    index: &mut BTreeMap<String, usize>,
    msgid: String,
    plural: Option<String>,
    place: String,
) {
    match index.get(&msgid) {
        Some(&i) => out[i].places.push(place),
        None => {
            index.insert(msgid.clone(), out.len());
            out.push(Found {
                msgid,
                plural,
                places: vec![place],
            });
        }
    }
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>) -> Result<()> {
    if !dir.is_dir() {
        return Ok(());
    }
    for entry in std::fs::read_dir(dir).with_context(|| format!("{}", dir.display()))? {
        let path = entry?.path();
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        if path.is_dir() {
            collect(&path, files)?;
        } else if name.ends_with(".rs") && name != "tests.rs" && !name.ends_with("_tests.rs") {
            files.push(path);
        }
    }
    Ok(())
}

/// The messages of one file's text: `(line, msgid, plural)`, up to its `#[cfg(test)]` module.
pub fn messages(text: &str) -> Result<Vec<(usize, String, Option<String>)>, String> {
    let end = text
        .match_indices("#[cfg(test)]")
        .find(|(i, m)| text[i + m.len()..].trim_start().starts_with("mod "))
        .map_or(text.len(), |(i, _)| i);
    let text = &text[..end];
    let mut out = Vec::new();
    for (macro_name, plural) in [
        ("t!(", false),
        ("n!(", false),
        ("tf!(", false),
        ("tp!(", true),
    ] {
        let mut from = 0;
        while let Some(i) = text[from..].find(macro_name) {
            let at = from + i;
            from = at + macro_name.len();
            let before = text[..at].chars().next_back();
            // `assert!(` ends in `t!(`: only a whole macro name counts (`lab_text::t!(` does).
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            // Skip comments: a `//` earlier on the same line.
            let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
            if text[line_start..at].contains("//") {
                continue;
            }
            let line = text[..at].matches('\n').count() + 1;
            let mut rest = &text[from..];
            if plural {
                // `tp!(count, "one", "other", …)`: the count is an expression up to the first
                // comma at depth 0.
                let comma =
                    top_level_comma(rest).ok_or(format!("line {line}: tp! without text"))?;
                rest = &rest[comma + 1..];
            }
            let (one, after) =
                literal(rest.trim_start()).map_err(|e| format!("line {line}: {e}"))?;
            let other = if plural {
                let after = after
                    .trim_start()
                    .strip_prefix(',')
                    .ok_or(format!("line {line}: tp! needs two texts"))?;
                Some(
                    literal(after.trim_start())
                        .map_err(|e| format!("line {line}: {e}"))?
                        .0,
                )
            } else {
                None
            };
            out.push((line, one, other));
        }
    }
    out.sort_by_key(|m| m.0);
    Ok(out)
}

fn top_level_comma(s: &str) -> Option<usize> {
    let mut depth = 0i32;
    for (i, c) in s.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => return Some(i),
            _ => {}
        }
    }
    None
}

/// A Rust string literal at the start of `s` (plain `"…"` with escapes, or raw `r"…"`/`r#"…"#`):
/// its value and the text after it.
pub fn literal(s: &str) -> Result<(String, &str), String> {
    if let Some(raw) = s.strip_prefix('r') {
        let hashes = raw.len() - raw.trim_start_matches('#').len();
        let body = raw[hashes..]
            .strip_prefix('"')
            .ok_or("a message must be a string literal")?;
        let close = format!("\"{}", "#".repeat(hashes));
        let end = body.find(&close).ok_or("unterminated raw string")?;
        return Ok((body[..end].to_string(), &body[end + close.len()..]));
    }
    let body = s
        .strip_prefix('"')
        .ok_or("a message must be a string literal (the English text is its id)")?;
    let mut out = String::new();
    let mut chars = body.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Ok((out, &body[i + 1..])),
            '\\' => match chars.next().map(|(_, c)| c) {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('\\') => out.push('\\'),
                Some('"') => out.push('"'),
                Some('\'') => out.push('\''),
                Some('0') => out.push('\0'),
                Some('u') => {
                    let rest = &body[i + 2..];
                    let end = rest.find('}').ok_or("bad \\u escape")?;
                    let hex = rest.get(1..end).ok_or("bad \\u escape")?;
                    let c = u32::from_str_radix(hex, 16)
                        .ok()
                        .and_then(char::from_u32)
                        .ok_or("bad \\u escape")?;
                    out.push(c);
                    for _ in 0..=end {
                        chars.next();
                    }
                }
                // A line continuation: the newline and the next line's indentation vanish.
                Some('\n') => {
                    let rest = &body[i + 2..];
                    let skip = rest.len() - rest.trim_start().len();
                    for _ in rest[..skip].chars() {
                        chars.next();
                    }
                }
                other => return Err(format!("unknown escape {other:?}")),
            },
            c => out.push(c),
        }
    }
    Err("unterminated string".into())
}

/// Writes `lab-text/po/messages.pot` from the sources.
pub fn template(root: &Path) -> Result<Catalog> {
    let found = extract(root)?;
    let mut bad = Vec::new();
    // Only code's messages are templates; a figure's title is plain text.
    for f in found
        .iter()
        .filter(|f| !f.places[0].starts_with("book/data/"))
    {
        for text in std::iter::once(&f.msgid).chain(f.plural.as_ref()) {
            if let Some(p) = bad_placeholder(text) {
                bad.push(format!("{}: `{p}` in {text:?}", f.places[0]));
            }
        }
    }
    if !bad.is_empty() {
        bail!(
            "lab messages may only use `{{}}` placeholders (format the argument first):\n  {}",
            bad.join("\n  ")
        );
    }
    let mut metadata = polib::metadata::CatalogMetadata::new();
    metadata.project_id_version = "Pools & Chunks lab".into();
    metadata.mime_version = "1.0".into();
    metadata.content_type = "text/plain; charset=UTF-8".into();
    metadata.content_transfer_encoding = "8bit".into();
    metadata.language = "en".into();
    let mut catalog = Catalog::new(metadata);
    for f in found {
        let message = match f.plural {
            Some(plural) => Message::build_plural()
                .with_msgid(f.msgid)
                .with_msgid_plural(plural)
                .with_msgstr_plural(vec![String::new(), String::new()])
                .with_source(f.places.join(" "))
                .done(),
            None => Message::build_singular()
                .with_msgid(f.msgid)
                .with_source(f.places.join(" "))
                .done(),
        };
        catalog.append_or_update(message);
    }
    std::fs::create_dir_all(po_dir(root))?;
    let pot = po_dir(root).join("messages.pot");
    polib::po_file::write(&catalog, &pot).with_context(|| format!("{}", pot.display()))?;
    Ok(catalog)
}

/// A placeholder other than `{}`, `{{` or `}}` (`{:>5}`, `{name}`), if the text has one.
fn bad_placeholder(text: &str) -> Option<String> {
    let mut rest = text;
    while let Some(i) = rest.find('{') {
        let tail = &rest[i..];
        if let Some(after) = tail.strip_prefix("{{") {
            rest = after;
            continue;
        }
        let end = tail.find('}')?;
        if end != 1 {
            return Some(tail[..=end].to_string());
        }
        rest = &tail[end + 1..];
    }
    None
}

/// The page's strings for `module` in one language (`lab_text::tr::strings_file`): only what the
/// catalog translates and the module can show. A message of the code is looked up by its English
/// literal, so a module can show it only if its shipped code (`wasm`, the module's bytes) holds
/// that English text: what the linker dropped from this module is not downloaded with it either.
/// The progress page also gets every quiz's title (`titles`), which it lists from data.
pub fn strings(
    found: &[Found],
    catalog: &Catalog,
    module: &str,
    wasm: &[u8],
    titles: &[String],
) -> Result<String> {
    let mut out = Vec::new();
    for f in found {
        // The progress page lists every chapter's quiz by its title.
        let title = module == "progress" && titles.contains(&f.msgid);
        let in_code = f.places.iter().any(|p| p.contains(".rs:"));
        let used = title || (in_code && memchr::memmem::find(wasm, f.msgid.as_bytes()).is_some());
        if !used {
            continue;
        }
        let Some(m) = catalog.find_message(None, &f.msgid, f.plural.as_deref()) else {
            continue;
        };
        if m.is_fuzzy() || !m.is_translated() {
            continue;
        }
        out.push((lab_text::tr::key(&f.msgid), super::forms(m)));
    }
    lab_text::tr::strings_file(&out)
        .map_err(|e| anyhow::anyhow!("the {module} module's strings: {e}"))
}

/// Writes every module's strings in every translated language into `wasm` (`book/src/wasm`):
/// `<module>/strings.<lang>.txt`. Returns the largest file's size in bytes, per language.
pub fn write_strings(root: &Path, wasm: &Path) -> Result<Vec<(&'static str, u64)>> {
    let found = extract(root)?;
    let titles: Vec<String> = wasm_lab::quiz::quizzes()
        .map(|q| q.title.to_string())
        .collect();
    // Each module's shipped code, read once: the messages it can show (`strings`). And a strings
    // file of an earlier layout (or language) must not linger and be served.
    let names: Vec<String> = lab_text::lang::translated()
        .map(|l| format!("strings.{}.txt", l.code))
        .collect();
    let mut modules = Vec::new();
    for module in wasm_lab::modules() {
        let dir = wasm.join(module);
        for entry in std::fs::read_dir(&dir)?.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with("strings.") && !names.contains(&name) {
                std::fs::remove_file(entry.path())?;
            }
        }
        let code = dir.join("wasm_lab_bg.wasm");
        let code = std::fs::read(&code).with_context(|| format!("{}", code.display()))?;
        modules.push((module, dir, code));
    }
    let mut sizes = Vec::new();
    for language in lab_text::lang::translated() {
        let path = po_dir(root).join(format!("{}.po", language.code));
        let catalog = if path.is_file() {
            super::read(&path)?
        } else {
            Catalog::new(polib::metadata::CatalogMetadata::new())
        };
        let mut largest = 0;
        for (module, dir, code) in &modules {
            let text = strings(&found, &catalog, module, code, &titles)?;
            largest = largest.max(text.len() as u64);
            let file = dir.join(format!("strings.{}.txt", language.code));
            std::fs::write(&file, text).with_context(|| format!("{}", file.display()))?;
        }
        sizes.push((language.code, largest));
    }
    Ok(sizes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_messages_with_one_key_are_refused() {
        let found = |msgid: &str| Found {
            msgid: msgid.to_string(),
            plural: None,
            places: vec![],
        };
        assert!(distinct_keys(&[found("Run it"), found("Step")]).is_ok());
        let err = distinct_keys(&[found("Run it"), found("Run it")]).unwrap_err();
        assert!(err.to_string().contains("share the key"), "{err}");
    }

    #[test]
    fn messages_are_found_in_macros_only() {
        let src = r#"
            let a = t!("Bucket index");
            assert!(x, "not a message");
            let b = lab_text::tf!("{} bytes: a buffer of {}.", n, m);
            // t!("commented out")
            let c = tp!(count(a, b), "{} buffer", "{} buffers");
            let d = t!("two \
                       lines, \"quoted\"");
            #[cfg(test)]
            mod tests { fn f() { t!("test only"); } }
        "#;
        let found: Vec<_> = messages(src)
            .unwrap()
            .into_iter()
            .map(|m| (m.1, m.2))
            .collect();
        assert_eq!(
            found,
            [
                ("Bucket index".to_string(), None),
                ("{} bytes: a buffer of {}.".to_string(), None),
                ("{} buffer".to_string(), Some("{} buffers".to_string())),
                ("two lines, \"quoted\"".to_string(), None),
            ]
        );
        assert!(messages("t!(name)").is_err());
    }

    #[test]
    fn only_plain_placeholders_are_allowed() {
        assert_eq!(bad_placeholder("{} of {} {{x}}"), None);
        assert_eq!(bad_placeholder("{:>5} B"), Some("{:>5}".into()));
        assert_eq!(bad_placeholder("{name}"), Some("{name}".into()));
    }
}

//! Contracts of the parsers instructors feed: a bench data file, `LAB_MACHINE`, and the
//! preprocessor's directives (with the claims they carry).

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use bench_data::RunFile;
use bench_data::claim::Claim;
use mdbook_lab::Data;
use mdbook_lab::directive::{self, NAMES};

use crate::text;

/// The committed bench data (`book/data`).
fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../book/data")
}

/// The committed data files, read once.
fn committed() -> &'static [RunFile] {
    static FILES: OnceLock<Vec<RunFile>> = OnceLock::new();
    FILES.get_or_init(|| bench_data::load_dir(&data_dir()).expect("book/data reads"))
}

/// A data file's text: accepted → written back (`to_json`, as the bench writes it), it reads back
/// the same file; refused → the message names the field (or says the text is not JSON).
pub fn bench_data(data: &[u8]) {
    let text = text(data);
    match RunFile::parse(&text) {
        Ok(file) => {
            let written = file.to_json();
            assert_eq!(RunFile::parse(&written).as_ref(), Ok(&file), "{written}");
        }
        Err(m) => assert!(
            m.starts_with("not valid JSON (")
                || m.starts_with("missing field `schema_version`")
                || m.starts_with("field `"),
            "{m}"
        ),
    }
}

/// The committed data files without their figures and listings, made once: what
/// `Data::choose` reads of a file is its stem, machine and run (it never looks at figures), so
/// the choice among these is the choice among the whole files, without cloning six files of
/// figures per input (which held `lab_machine` to a few hundred inputs a second).
fn skeletons() -> &'static [RunFile] {
    static FILES: OnceLock<Vec<RunFile>> = OnceLock::new();
    FILES.get_or_init(|| {
        committed()
            .iter()
            .map(|f| RunFile {
                figures: Default::default(),
                listings: Default::default(),
                ..f.clone()
            })
            .collect()
    })
}

/// `LAB_MACHINE`: a machine the data has becomes the primary one (and every file is kept, as a
/// column or as older code); any other value fails the build with a message naming
/// `LAB_MACHINE`, the value and the directory.
pub fn lab_machine(data: &[u8]) {
    let id = text(data);
    let dir = data_dir();
    // `Data::load` is this after reading the directory and hashing the workspace, which the
    // replay test does once (`committed`); the choice itself is what the reader's value reaches.
    let named = |f: &RunFile| f.stem() == id.as_ref();
    match Data::choose(&dir, skeletons().to_vec(), Some(&id), None) {
        Ok(d) => {
            let primary = d.primary().expect("a chosen machine is the primary one");
            assert_eq!(primary.stem(), id.as_ref());
            assert!(committed().iter().any(named));
            assert_eq!(d.files().len() + d.older().len(), committed().len());
        }
        Err(e) => {
            let m = e.to_string();
            assert!(m.starts_with(&format!("LAB_MACHINE={id}, but ")), "{m}");
            assert!(m.contains(&dir.display().to_string()), "{m}");
            assert!(!committed().iter().any(named), "{m}");
        }
    }
}

/// Chapter text: every directive found is ours, whole (`{{#` … `}}`), unescaped, in order and
/// apart, with the words between; a claim's words that parse print back to the same claim, and
/// checking it against the committed data ends (a hang is libFuzzer's `-timeout`).
pub fn directive(data: &[u8]) {
    let text = text(data);
    let found = directive::find(&text);
    let mut after = 0;
    for d in &found {
        assert!(d.start >= after && d.start < d.end, "{d:?}");
        after = d.end;
        let whole = &text[d.start..d.end];
        assert!(
            whole.starts_with("{{#") && whole.ends_with("}}"),
            "{whole:?}"
        );
        assert!(!text[..d.start].ends_with('\\'), "{whole:?} is escaped");
        assert!(NAMES.contains(&d.name), "{d:?}");
        let inner = &whole[3..whole.len() - 2];
        assert!(!inner.contains("}}"), "{whole:?} runs past its end");
        let words: Vec<&str> = inner.split_whitespace().collect();
        assert_eq!(words.first(), Some(&d.name), "{whole:?}");
        assert_eq!(&words[1..], d.args.as_slice(), "{whole:?}");
        if d.name == "claim" {
            claim(&d.args);
        }
    }
    // An unescaped text holds the same directives, none of them escaped any more.
    let unescaped = directive::unescape(&text);
    assert!(directive::find(&unescaped).len() >= found.len(), "{text:?}");
    let _ = mdbook_lab::claims::collect("fuzz", &text);
    // The whole text as a claim's words.
    claim(&text.split_whitespace().collect::<Vec<_>>());
}

fn claim(words: &[&str]) {
    match Claim::parse(words) {
        Ok(c) => {
            let printed = c.to_string();
            assert_eq!(Claim::parse_text(&printed).as_ref(), Ok(&c), "{printed:?}");
            // One file is enough to show the check ends; all of them would be six times slower.
            if let Some(file) = committed().first() {
                let _ = c.check(file);
            }
        }
        Err(m) => assert!(!m.is_empty() && !m.ends_with('.'), "{m}"),
    }
}

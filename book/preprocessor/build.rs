//! Compiles the lab's catalogs, `lab-text/po/<lang>.po`, into sorted tables of `(key, forms)`
//! that the preprocessor hands to `lab_text::tr::set_catalogs`, so the widgets and quizzes it
//! draws at build time speak the page's language.

use std::fmt::Write;
use std::path::Path;

fn main() {
    let po = Path::new("../../lab-text/po");
    println!("cargo::rerun-if-changed={}", po.display());
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let mut code = String::from("pub static TABLES: lab_text::tr::Catalogs = &[\n");
    {
        let mut files: Vec<_> = std::fs::read_dir(po)
            .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        files.retain(|p: &std::path::PathBuf| p.extension().is_some_and(|x| x == "po"));
        files.sort();
        for file in files {
            table(&file, &mut code);
        }
    }
    code.push_str("];\n");
    std::fs::write(Path::new(&out).join("catalogs.rs"), code).expect("cannot write catalogs.rs");
}

/// One language's table: translated, not fuzzy messages, sorted by key.
fn table(file: &Path, code: &mut String) {
    let lang = file.file_stem().unwrap_or_default().to_string_lossy();
    let catalog = polib::po_file::parse(file)
        .unwrap_or_else(|e| panic!("{}: not a PO file: {e}", file.display()));
    let mut rows: Vec<(lab_text::tr::Key, Vec<String>)> = Vec::new();
    for m in catalog.messages() {
        if m.is_fuzzy() || !m.is_translated() {
            continue;
        }
        let forms = if m.is_plural() {
            m.msgstr_plural().cloned().unwrap_or_default()
        } else {
            vec![m.msgstr().unwrap_or_default().to_string()]
        };
        rows.push((lab_text::tr::key(m.msgid()), forms));
    }
    rows.sort_by_key(|r| r.0);
    if let Some(pair) = rows.windows(2).find(|w| w[0].0 == w[1].0) {
        panic!(
            "{}: two messages share the key {:08x} ({:?} and {:?}): reword one",
            file.display(),
            pair[0].0,
            pair[0].1,
            pair[1].1
        );
    }
    let _ = writeln!(code, "    ({lang:?}, &[");
    for (k, forms) in rows {
        let _ = writeln!(code, "        ({k}, {:?}),", forms.join("\t"));
    }
    code.push_str("    ]),\n");
}

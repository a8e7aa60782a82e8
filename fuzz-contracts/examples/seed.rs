//! Seeds `fuzz/corpus/<target>/` with the inputs the tests already use: the hostile field values
//! of the view tests, the progress blobs `progress::UNTRUSTED`, the page data `Page::sample` and
//! `Page::UNREADABLE`, the committed bench data, the chapters' Markdown, each widget's defaults
//! and links. `cargo run -p fuzz-contracts --example seed` (then `cargo fuzz cmin` keeps the ones
//! that add coverage; `cargo xtask fuzz` grows the corpora).

use std::path::Path;

use wasm_lab::progress::{Progress, UNTRUSTED};
use wasm_lab::quiz::{Page, quizzes};
use wasm_lab::view::{self, Inputs, url};

/// Field values the tests (view, input, size list, text line) type, hostile ones included.
const TYPED: &[&str] = &[
    "100",
    "0",
    "1_048_577",
    "+16",
    "2147483591",
    "2147483592",
    "   ",
    "",
    "-5",
    "-0",
    "−3",
    "abc",
    "1e20",
    "12.5",
    "NaN",
    "inf",
    "99999999999999999999999",
    "1,024",
    " 1,024 ",
    "24,41,64",
    "1 000",
    "1e3",
    "2.5e1",
    "1e-3",
    "0e-3",
    "1.5",
    "300",
    "-1",
    "99999999999",
    "3000000000",
    "5000000",
    "2000000",
    "24; 1,024\n4096",
    "24; -1",
    "24; x",
    "0 0",
    "1 000",
    "a\\\\b\\tc",
    "x\\q",
    "x\\",
    "1042|ต้มยำกุ้ง|2|18000\\n",
    "a&b=c #ü",
    "%ZZ%",
    "1e",
    "1e+",
    "1.e3",
    ".5e1",
    "1__000",
    "1,00",
    ",100",
    "1,000.5e1",
    "٣",
    "１２",
    "0x10",
    "1e400",
    "18446744073709551615",
    "18446744073709551616",
    "true",
    "false",
    "<script>",
    "\u{0}",
];

fn main() {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut n = 0;
    let mut put = |target: &str, name: String, bytes: &[u8]| {
        let dir = fuzz.join(target);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("seed-{name}")), bytes).unwrap();
        n += 1;
    };

    for (i, t) in TYPED.iter().enumerate() {
        put("input", format!("{i:02}"), t.as_bytes());
    }

    for (w, widget) in view::widgets().enumerate() {
        let form = (widget.form)("");
        let defaults: Vec<String> = form.fields().map(|f| f.value.clone()).collect();
        let mut bytes = vec![w as u8];
        bytes.extend(defaults.join("\0").as_bytes());
        put("widget", format!("{}-defaults", widget.name), &bytes);
        for (i, t) in TYPED.iter().enumerate().step_by(5) {
            let mut bytes = vec![w as u8];
            bytes.extend(vec![*t; defaults.len()].join("\0").as_bytes());
            put("widget", format!("{}-{i:02}", widget.name), &bytes);
        }
        let mut inputs = Inputs::from_form(&form);
        if let Some(f) = form.fields().next() {
            inputs.set(f.id, "a&b=c #ü");
        }
        let hash = url::encode(widget.name, &inputs);
        let rest = hash.strip_prefix(&format!("#{}:", widget.name)).unwrap();
        let mut bytes = vec![w as u8];
        bytes.extend(rest.as_bytes());
        put("link", widget.name.to_string(), &bytes);
    }
    let hostile = format!(
        "evil=1&stale-read=%ZZ%&stale-size1={}&stale-step=-9",
        "9".repeat(500)
    );
    let stale = view::widgets()
        .position(|w| w.name == "stale-data")
        .unwrap();
    put(
        "link",
        "hostile".into(),
        &[&[stale as u8], hostile.as_bytes()].concat(),
    );

    for (i, t) in UNTRUSTED.iter().enumerate() {
        put("progress", format!("untrusted-{i:02}"), t.as_bytes());
    }
    let mut p = Progress::default();
    p.record("bucket-rounding", "bucket-index", true);
    p.record("q", "k", false);
    p.reveal("q", "k");
    p.record("r\"", "é", false);
    put("progress", "written".into(), p.to_json().as_bytes());
    put(
        "progress",
        "version-one".into(),
        b"{\"version\":1,\"quizzes\":{\"q\":{\"k\":{\"attempts\":2,\"correct\":1}}}}",
    );

    put("page", "sample".into(), Page::sample().to_json().as_bytes());
    put("page", "empty".into(), b"{}");
    for (i, t) in Page::UNREADABLE.iter().enumerate() {
        put("page", format!("unreadable-{i:02}"), t.as_bytes());
    }

    for (qi, quiz) in quizzes().enumerate() {
        for (ki, kind) in quiz.kinds.iter().enumerate() {
            let mut bytes = vec![qi as u8, ki as u8, 1, 2, 3, 4, 5, 6, 7, 8];
            bytes.extend(b"\0-1\0abc\0 \0yes\0no\x004096\x001,024\0");
            put("quiz", format!("{}-{}", quiz.id, kind.name()), &bytes);
        }
    }

    for entry in std::fs::read_dir(root.join("book/data")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|x| x == "json") {
            let name = path.file_stem().unwrap().to_string_lossy().to_string();
            put("bench_data", name.clone(), &std::fs::read(&path).unwrap());
            put("lab_machine", name.clone(), name.as_bytes());
        }
    }
    put("bench_data", "truncated".into(), b"{\"schema_version\":");
    for (i, id) in [
        "",
        "nope",
        "../data",
        "amd-zen5-2c ",
        "AMD-ZEN5-2C",
        "amd-epyc-2c",
    ]
    .iter()
    .enumerate()
    {
        put("lab_machine", format!("other-{i}"), id.as_bytes());
    }

    for entry in std::fs::read_dir(root.join("book/src")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|x| x == "md") {
            let name = path.file_stem().unwrap().to_string_lossy().to_string();
            let text = std::fs::read_to_string(&path).unwrap();
            // Chapters run to tens of KB: the paragraphs with directives are what matters.
            for (i, para) in text
                .split("\n\n")
                .filter(|p| p.contains("{{#"))
                .enumerate()
                .take(20)
            {
                put("directive", format!("{name}-{i:02}"), para.as_bytes());
            }
        }
    }
    put(
        "directive",
        "escapes".into(),
        b"a {{#fig x.y}} b {{#include f.rs}} \\{{#fig z}} {{#lab-quiz q }} {{#fig x",
    );
    eprintln!("wrote {n} seeds under {}", fuzz.display());
}

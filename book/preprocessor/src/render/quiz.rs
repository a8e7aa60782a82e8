//! `{{#lab-quiz ID [kinds=A,B]}}` and `{{#lab-progress}}`: quiz mount points with the data their
//! questions are graded from, and the printed form of each quiz.
//!
//! The mount point carries a [`Page`] as JSON in `data-page`: the bench figures the quiz's data
//! questions need (from the primary machine's file in `book/data`) and, for quizzes with "does
//! this compile?" questions, rustc's verdicts captured by [`crate::snippets`]. The wasm grades
//! from those, so a rerun of the bench or a change to the pool's API changes the answers.
//!
//! For print (`print.html`), the same questions are drawn natively with a fixed seed and rendered
//! as static markup, hidden on screen; their answers go into a key at the chapter's end.

use wasm_lab::quiz::view::{Mode, QuestionView};
use wasm_lab::quiz::{Fig, Gate, Page, Quiz, Rng, html};

use super::escape;
use crate::data::Data;

/// The answers of the printed questions of one chapter, in order.
#[derive(Default)]
pub struct Key {
    entries: Vec<String>,
}

/// The mount point (live quiz) and its printed form.
pub fn quiz(id: &str, options: &[&str], data: &Data, key: &mut Key) -> Result<String, String> {
    let spec = wasm_lab::quiz::quiz(id).ok_or_else(|| {
        let known: Vec<&str> = wasm_lab::quiz::quizzes().map(|q| q.id).collect();
        format!("the lab has no quiz `{id}` (it has: {})", known.join(", "))
    })?;
    let mut kinds = None;
    for option in options {
        match option.split_once('=') {
            Some(("kinds", names)) => {
                for n in names.split(',') {
                    if spec.kind(n).is_none() {
                        return Err(format!("the quiz `{id}` has no question `{n}`"));
                    }
                }
                kinds = Some(names.to_string());
            }
            _ => return Err(format!("unknown quiz option `{option}` (known: kinds=A,B)")),
        }
    }
    let page = page(spec, data)?;
    let (testid, attr) = match &kinds {
        Some(k) => (
            format!("quiz-{id}-check"),
            format!(" data-kinds=\"{}\"", escape(k)),
        ),
        None => (format!("quiz-{id}"), String::new()),
    };
    let [start, middle, end] = crate::PRINT_ONLY;
    let printed = format!(
        "{start}{}{middle}{end}",
        printed(spec, kinds.as_deref(), &page, key)?
    );
    Ok(format!(
        "\n\n<div class=\"lab-quiz\" data-lab-quiz=\"{id}\" data-testid=\"{testid}\"{attr} data-page=\"{}\">\
         <p class=\"lab-loading\">{}</p></div>\n{printed}\n\n",
        escape(&page.to_json()),
        escape(&lab_text::t!(
            "Loading the quiz… (it needs JavaScript and WebAssembly)"
        ))
    ))
}

/// What the quiz's questions are graded from, taken from the book's data and rustc.
pub fn page(spec: &Quiz, data: &Data) -> Result<Page, String> {
    let mut page = Page::default();
    if !spec.figures.is_empty() {
        page.machine = data
            .primary()
            .map_err(|e| format!("the quiz `{}` is graded from book/data: {e}", spec.id))?
            .machine
            .id
            .clone();
    }
    for key in spec.figures {
        let (_, f) = data
            .figure(key)
            .map_err(|e| format!("the quiz `{}` is graded from `{key}`: {e}", spec.id))?;
        page.figures.insert(
            key.to_string(),
            Fig {
                // In the page's language: the quiz shows it as it is.
                title: lab_text::tr::get_dynamic(&f.title),
                unit: serde_json::to_value(f.unit)
                    .ok()
                    .and_then(|v| v.as_str().map(String::from))
                    .unwrap_or_default(),
                value: f.value,
                low: f.low,
                high: f.high,
                noise: f.cv,
                gate: match f.verdict {
                    bench_data::Verdict::Absolute => Gate::Absolute,
                    bench_data::Verdict::RatioOnly => Gate::RatioOnly,
                    bench_data::Verdict::Unfit => Gate::Unfit,
                },
                note: bench_data::note_words(&f.gate_note),
            },
        );
    }
    if spec.snippets {
        page.compiled = crate::snippets::verdicts()?
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
    }
    Ok(page)
}

/// A seed per quiz, so the printed questions stay the same from build to build.
fn print_seed(id: &str) -> u64 {
    id.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// The quiz's questions as [`wasm_lab::quiz::html`] prints them (numbered on from the chapter's
/// earlier quizzes), their answers added to the chapter's key.
fn printed(spec: &Quiz, kinds: Option<&str>, page: &Page, key: &mut Key) -> Result<String, String> {
    let mut rng = Rng::new(print_seed(spec.id));
    let mut questions = Vec::new();
    for kind in spec.kinds {
        if kinds.is_some_and(|k| !k.split(',').any(|n| n == kind.name())) {
            continue;
        }
        questions.push(kind.pose(&mut rng, page)?);
    }
    let start = key.entries.len() + 1;
    let views: Vec<QuestionView> = questions
        .iter()
        .enumerate()
        .map(|(i, q)| {
            let number = start + i;
            let id = format!("lab-print-{}-{number}", spec.id);
            QuestionView::new(q, number, id, Mode::Printed)
        })
        .collect();
    key.entries.extend(
        questions
            .iter()
            .map(|q| format!("<li>{}</li>", html::revealed(&q.solution))),
    );
    Ok(html::printed_quiz(spec.id, spec.title, &views))
}

/// The chapter's answer key for print, empty when the chapter has no quiz.
pub fn answer_key(key: &Key) -> String {
    if key.entries.is_empty() {
        return String::new();
    }
    let [start, middle, end] = crate::PRINT_ONLY;
    format!(
        "\n\n{start}<div class=\"lab-answer-key\" data-testid=\"answer-key\"><p><strong>{}</strong> {}</p><ol>{}</ol></div>\
         {middle}<p class=\"lab-print-note\" data-testid=\"print-note\">{}</p>{end}\n\n",
        lab_text::html::escape(&lab_text::t!("Answer key")),
        lab_text::html::escape(&lab_text::t!(
            "(for the printed questions above; computed by the lab when the book was built)"
        )),
        key.entries.concat(),
        lab_text::f!(
            "{} <a href=\"print.html\">print.html</a>",
            lab_text::html::escape(&lab_text::t!(
                "This chapter's quiz questions and their answer key print with the whole book:"
            ))
        )
    )
}

/// `{{#lab-progress}}`: the progress page's mount point.
pub fn progress() -> String {
    format!(
        "\n\n<div class=\"lab-progress\" data-lab-progress=\"\" data-testid=\"progress\">\
         <p class=\"lab-loading\">{}</p></div>\n\n",
        escape(&lab_text::t!(
            "Loading your progress… (it needs JavaScript and WebAssembly)"
        ))
    )
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use wasm_lab::chapter::why_pool::quiz::AT_1_MIB;
    use wasm_lab::quiz::{Ask, Page};

    /// The line a mount point shows until the lab loads (or for good, without scripts) is in
    /// the page's language.
    #[test]
    fn the_loading_line_is_in_the_pages_language() {
        lab_text::tr::set_catalogs(crate::translate::CATALOGS);
        lab_text::tr::set_language("ru");
        let ru = progress();
        lab_text::tr::set_language("en");
        assert!(
            progress().contains(">Loading your progress… (it needs JavaScript and WebAssembly)<")
        );
        assert!(!ru.contains("Loading") && ru.contains("JavaScript"), "{ru}");
    }

    const KEY: &str = "rent_return.1048576.pool_write_vs_fresh_vec_write";

    /// The committed data file, with `KEY`'s ratio set to `value [low–high]`, in a fresh dir.
    fn mutated(name: &str, value: f64, low: f64, high: f64) -> Data {
        let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data");
        let dir = std::env::temp_dir().join(format!("lab-quiz-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for entry in std::fs::read_dir(&committed).unwrap().flatten() {
            let path = entry.path();
            if path.extension().is_some_and(|e| e == "json") {
                let mut v: serde_json::Value =
                    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
                let f = &mut v["figures"][KEY];
                f["value"] = value.into();
                f["low"] = low.into();
                f["high"] = high.into();
                std::fs::write(dir.join(path.file_name().unwrap()), v.to_string()).unwrap();
            }
        }
        Data::load(&dir, None).unwrap()
    }

    /// The `data-page` of the rendered quiz, read back as the wasm reads it.
    fn page_of(html: &str) -> Page {
        let start = html.find("data-page=\"").unwrap() + "data-page=\"".len();
        let end = start + html[start..].find('"').unwrap();
        let json = html[start..end]
            .replace("&quot;", "\"")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&amp;", "&");
        Page::from_json(&json).unwrap()
    }

    fn answer(data: &Data) -> String {
        let html = quiz("why-pool", &[], data, &mut Key::default()).unwrap();
        let page = page_of(&html);
        let q = AT_1_MIB.pose(&mut Rng::new(1), &page).unwrap();
        q.right_answer()
    }

    /// Every verdict word a quiz shows is the text's: for the same figure of the primary data
    /// file, the "which took less time" answer drawn from the page this preprocessor writes is
    /// what `{{#verdict}}` renders beside it (`bench_data::claim`, over `lab_text::verdict`). The
    /// text reads a ratio within ±5 % of 1 as "the same for practice" even when its interval
    /// excludes 1; the quiz once called 0.989× "took less time". Ratios around the band's
    /// edges (0.95, 0.989, 1.0, 1.049, 1.051 among them), tight and wide intervals, and a figure
    /// the gate rejects.
    #[test]
    fn quiz_verdicts_are_the_texts() {
        let committed =
            Data::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../data"), None).unwrap();
        let base = committed.primary().unwrap().clone();
        let band = lab_text::decimal::fixed(lab_text::verdict::EQUIVALENCE_BAND * 100.0, 0);
        let same_for_practice =
            format!("the same for practice: a measurable difference inside the ±{band} % band");
        let ratios = [
            0.5, 0.9, 0.94, 0.949, 0.95, 0.951, 0.96, 0.982, 0.989, 0.999, 1.0, 1.001, 1.011, 1.04,
            1.049, 1.05, 1.051, 1.06, 1.2, 2.0,
        ];
        let mut seen = std::collections::BTreeSet::new();
        for value in ratios {
            for width in [0.0005, 0.002, 0.01, 0.03, 0.08] {
                for unfit in [false, true] {
                    let mut file = base.clone();
                    let f = file.figures.get_mut(KEY).unwrap();
                    (f.value, f.low, f.high) = (value, value - width, value + width);
                    f.verdict = if unfit {
                        bench_data::Verdict::Unfit
                    } else {
                        bench_data::Verdict::RatioOnly
                    };
                    let data = Data::from_files(vec![file]);
                    let text = crate::render::verdict::verdict(KEY, &[], &data).unwrap();
                    let direction = text
                        .split("data-direction=\"")
                        .nth(1)
                        .and_then(|rest| rest.split('"').next())
                        .unwrap();
                    let quiz = answer(&data);
                    let agrees = match direction {
                        "less" => quiz.starts_with("renting 1 MiB from the pool"),
                        "more" => quiz.starts_with("allocating a fresh zeroed Vec"),
                        "same" if text.contains("the same for practice") => {
                            quiz == same_for_practice
                        }
                        "same" => quiz == "no measurable difference",
                        "unfit" => quiz.contains("too noisy"),
                        other => panic!("a direction this test does not know: {other}"),
                    };
                    assert!(
                        agrees,
                        "{value}× ±{width}, unfit: {unfit}: the text says {text}, the quiz “{quiz}”"
                    );
                    seen.insert(if text.contains("the same for practice") {
                        "within the band".to_string()
                    } else {
                        direction.to_string()
                    });
                }
            }
        }
        // Every reading of the rule occurred.
        assert_eq!(seen.len(), 5, "{seen:?}");
    }

    /// Rerun the bench with another outcome and the data question's answer follows it.
    #[test]
    fn data_questions_follow_a_mutated_data_file() {
        let faster = answer(&mutated("faster", 0.5, 0.49, 0.51));
        assert!(
            faster.starts_with("renting 1 MiB from the pool"),
            "{faster}"
        );
        let slower = answer(&mutated("slower", 1.5, 1.4, 1.6));
        assert!(
            slower.starts_with("allocating a fresh zeroed Vec"),
            "{slower}"
        );
        let same = answer(&mutated("same", 1.0, 0.98, 1.02));
        assert_eq!(same, "no measurable difference");
    }

    #[test]
    fn quizzes_print_with_an_answer_key() {
        let data = mutated("print", 0.5, 0.49, 0.51);
        let out = crate::render::chapter(
            "Text.\n\n{{#lab-quiz why-pool kinds=fresh-bytes}}\n\nMore.\n\n{{#lab-quiz why-pool}}\n",
            &data,
        )
        .unwrap();
        assert!(out.contains("data-testid=\"quiz-why-pool-check\""), "{out}");
        assert!(out.contains("data-kinds=\"fresh-bytes\""));
        assert!(
            out.contains("<ol class=\"lab-questions\" start=\"2\">"),
            "{out}"
        );
        // The printed questions are the lab's own markup, numbered with the key, nothing enabled.
        assert!(out.contains("aria-hidden=\"true\">2.</span>"), "{out}");
        assert!(out.contains("id=\"lab-print-why-pool-2\""), "{out}");
        let printed = &out[out.find("quiz-print-why-pool").unwrap()..];
        assert!(
            printed.contains("<input") && !printed.contains("<button"),
            "{out}"
        );
        assert!(
            printed
                .split("<input")
                .skip(1)
                .all(|tag| tag[..tag.find('>').unwrap()].ends_with(" disabled")),
            "{out}"
        );
        let key_at = out.find("data-testid=\"answer-key\"").unwrap();
        assert!(key_at > out.rfind("quiz-print-why-pool").unwrap());
        assert_eq!(out[key_at..].matches("<li>").count(), 5);
        assert!(out.contains("fixed seed"));
        let err = crate::render::chapter("{{#lab-quiz why-pool kinds=nope}}", &data).unwrap_err();
        assert!(err[0].contains("no question `nope`"), "{err:?}");
    }

    #[test]
    fn progress_page_mount_point() {
        let out = crate::render::chapter(
            "# Progress\n\n{{#lab-progress}}\n",
            &Data::from_files(Vec::new()),
        )
        .unwrap();
        assert!(out.contains("data-lab-progress"), "{out}");
    }

    #[test]
    fn a_quiz_without_its_figures_fails_the_build() {
        let empty = Data::from_files(Vec::new());
        let err = quiz("why-pool", &[], &empty, &mut Key::default()).unwrap_err();
        assert!(err.contains("graded from"), "{err}");
    }
}

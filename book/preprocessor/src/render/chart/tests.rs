//! The chart directive on synthetic data.

use bench_data::RunFile;

use super::super::chapter;
use crate::data::Data;

fn file(id: &str, date: &str, figures: &[(String, String)]) -> RunFile {
    let figures: Vec<String> = figures
        .iter()
        .map(|(k, f)| format!("\"{k}\":{f}"))
        .collect();
    super::super::tests::run_file(id, date, 4, &figures.join(","))
}

fn ratio(value: f64, cv: f64, verdict: &str) -> String {
    format!(
        r#"{{"title":"t","unit":"ratio","value":{value},"low":{},"high":{},"samples":40,"cv":{cv},"cv_plain":{cv},"verdict":"{verdict}","gate_note":"noise {:.1} %"}}"#,
        value * 0.98,
        value * 1.03,
        cv * 100.0
    )
}

const SIZES: [u32; 5] = [16, 1024, 16384, 81920, 1048576];

/// The clearing chart's figures, `scale` times a made-up growth; `unfit` sizes gated.
fn clearing(scale: f64, unfit: &[u32]) -> Vec<(String, String)> {
    SIZES
        .iter()
        .map(|n| {
            let value = scale * (1.0 + f64::from(*n) / 200.0);
            let f = if unfit.contains(n) {
                ratio(value, 0.4, "unfit")
            } else {
                ratio(value, 0.02, "ratio_only")
            };
            (format!("clearing.{n}.cleared_vs_uncleared"), f)
        })
        .collect()
}

/// The `data-key`, `data-machine` and value cell of each row of the table mirror.
fn rows(html: &str) -> Vec<(String, String, String)> {
    html.split("<tr data-key=\"")
        .skip(1)
        .map(|row| {
            let key = row.split('"').next().unwrap().to_string();
            let machine = row.split("data-machine=\"").nth(1).unwrap();
            let machine = machine.split('"').next().unwrap().to_string();
            let value = row.split("<td class=\"lab-chart-value\">").nth(1).unwrap();
            let value = value.split("</td>").next().unwrap().to_string();
            (key, machine, value)
        })
        .collect()
}

#[test]
fn one_machine_draws_svg_and_mirrors_every_value() {
    let data = Data::from_files(vec![file(
        "m-one",
        "2026-11-30T10:00:00Z",
        &clearing(1.0, &[]),
    )]);
    let html = chapter("Before.\n\n{{#chart clearing}}\n\nAfter.", &data).unwrap();
    assert!(html.contains("<svg class=\"lab-chart-svg\""), "{html}");
    // One line of markup: a blank line would end Markdown's HTML block.
    let figure = html.split("<figure").nth(1).unwrap();
    assert!(!figure.contains('\n') || figure.find('\n') > figure.find("</figure>"));
    // Text is SVG text; colours are classes, none baked in.
    assert!(html.contains("<text"), "{html}");
    assert!(
        !html.contains("fill=\"#") && !html.contains("stroke=\"#"),
        "{html}"
    );
    assert!(html.contains("class=\"lab-s0 lab-m0\""), "{html}");
    assert!(html.contains("class=\"lab-band\""), "{html}");
    // Axis ticks name the sizes; the machine and date are named.
    for tick in ["16 B", "1 KiB", "16 KiB", "80 KiB", "1 MiB"] {
        assert!(
            html.contains(&format!(">{tick} <")) || html.contains(&format!(">{tick}<")),
            "{tick}"
        );
    }
    assert!(
        html.contains("m-one (Test CPU, 4 logical cores), measured 2026-11-30"),
        "{html}"
    );
    // The mirror holds every figure, formatted as the book formats it.
    let rows = rows(&html);
    assert_eq!(rows.len(), 5);
    for (key, machine, value) in &rows {
        let f = &data.files()[0].figures[key];
        assert_eq!(machine, "m-one");
        assert_eq!(value, &crate::format_value(f.unit, f.value));
    }
    // The .NET band is labelled as such, with its source, and mirrored too.
    assert!(
        html.contains(".NET reference results, not measured here"),
        "{html}"
    );
    assert!(html.contains("<td>1,015× – 3,003×</td>"), "{html}");
    assert!(data.warnings().is_empty());
}

#[test]
fn two_machines_draw_one_series_each() {
    let data = Data::from_files(vec![
        file("m-one", "2026-11-30T10:00:00Z", &clearing(1.0, &[])),
        file("m-two", "2026-12-01T10:00:00Z", &clearing(2.0, &[])),
    ]);
    let html = chapter("{{#chart clearing}}", &data).unwrap();
    assert!(
        html.contains("lab-s0 lab-m0") && html.contains("lab-s0 lab-m1"),
        "{html}"
    );
    assert!(
        html.contains("Rust, shared pool — m-one") && html.contains("Rust, shared pool — m-two")
    );
    assert!(html.contains("measured 2026-12-01"), "{html}");
    let rows = rows(&html);
    assert_eq!(rows.len(), 10);
    assert_eq!(rows.iter().filter(|r| r.1 == "m-two").count(), 5);
    // A machine whose run lacks a figure draws a gap there instead of failing the build.
    let partial = clearing(2.0, &[]).into_iter().skip(1).collect::<Vec<_>>();
    let data = Data::from_files(vec![
        file("m-one", "2026-11-30T10:00:00Z", &clearing(1.0, &[])),
        file("m-two", "2026-12-01T10:00:00Z", &partial),
    ]);
    let html = chapter("{{#chart clearing}}", &data).unwrap();
    assert!(
        html.contains("m-two has no <code>clearing.16.cleared_vs_uncleared</code>"),
        "{html}"
    );
}

#[test]
fn a_gated_figure_is_a_gap_with_a_note_never_a_value() {
    let data = Data::from_files(vec![file(
        "m-one",
        "2026-11-30T10:00:00Z",
        &clearing(1.0, &[16384]),
    )]);
    let html = chapter("{{#chart clearing}}", &data).unwrap();
    let gated = 1.0 + 16384.0 / 200.0;
    let shown = crate::format_value(bench_data::Unit::Ratio, gated);
    assert!(!html.contains(&shown), "{shown} is printed: {html}");
    assert!(html.contains("A gap at 16,384 B"), "{html}");
    assert!(html.contains("not citable (noise 40.0 %)"), "{html}");
    // The line breaks at the gap: two pieces, 1 KiB–16 B and 80 KiB–1 MiB.
    let line = "<polyline class=\"lab-s0 lab-m0\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"3\"";
    assert_eq!(html.matches(line).count(), 2, "{html}");
    assert_eq!(data.warnings().len(), 1, "{:?}", data.warnings());
}

#[test]
fn a_missing_key_fails_naming_chapter_and_key() {
    let data = Data::from_files(vec![file(
        "m-one",
        "2026-11-30T10:00:00Z",
        &clearing(1.0, &[])[1..],
    )]);
    let errors = crate::render_chapter("stale-data.md", "{{#chart clearing}}", &data).unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].starts_with("stale-data.md: "), "{errors:?}");
    assert!(
        errors[0].contains("`clearing.16.cleared_vs_uncleared`"),
        "{errors:?}"
    );
    assert!(errors[0].contains("chart `clearing`"), "{errors:?}");
    let errors = chapter("{{#chart nope}}", &data).unwrap_err();
    assert!(
        errors[0].contains("no chart `nope`") && errors[0].contains("clearing"),
        "{errors:?}"
    );
}

#[test]
fn every_chart_draws_from_the_committed_data() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../data");
    let data = Data::load(&dir, None).unwrap();
    for spec in super::CHARTS {
        let html = chapter(&format!("{{{{#chart {}}}}}", spec.name), &data)
            .unwrap_or_else(|e| panic!("{}: {e:?}", spec.name));
        assert!(html.contains("<svg"), "{}", spec.name);
        assert!(
            !html.contains("fill=\"#") && !html.contains("stroke=\"#"),
            "{}",
            spec.name
        );
    }
}

/// An axis reads in the page's numbers and units: a decimal comma and `Б` on a Russian page.
#[test]
fn ticks_follow_the_pages_language() {
    use super::specs::Scale;
    use super::svg::tick;
    assert_eq!(tick(Scale::Ratio, 0.5), "0.5×");
    assert_eq!(tick(Scale::Bytes, 1_048_576.0), "1 MiB");
    lab_text::tr::set_language("ru");
    let ru = (
        tick(Scale::Ratio, 0.5),
        tick(Scale::Bytes, 16.0),
        tick(Scale::Bytes, 1_048_576.0),
        tick(Scale::Count, 65_536.0),
    );
    lab_text::tr::set_language("en");
    assert_eq!(
        ru,
        (
            "0,5×".to_string(),
            "16\u{a0}Б".to_string(),
            "1\u{a0}МиБ".to_string(),
            "65\u{a0}536".to_string()
        )
    );
}

/// Decimal sizes read as the page's language writes them: `кБ`, `МБ`, `ГБ` on a Russian page;
/// Thai keeps the Latin abbreviations, as its catalog does for `KiB`.
#[test]
fn decimal_byte_ticks_follow_the_pages_language() {
    use super::specs::Scale;
    use super::svg::tick;
    let ticks = || [1e3, 1e6, 1e9].map(|v| tick(Scale::Bytes, v));
    assert_eq!(ticks(), ["1 kB", "1 MB", "1 GB"]);
    lab_text::tr::set_language("ru");
    let ru = ticks();
    lab_text::tr::set_language("th");
    let th = ticks();
    lab_text::tr::set_language("en");
    assert_eq!(ru, ["1\u{a0}кБ", "1\u{a0}МБ", "1\u{a0}ГБ"]);
    assert_eq!(th, ["1 kB", "1 MB", "1 GB"]);
}

/// On a Russian page a gap's note and the table mirror write the page's numbers (a decimal
/// comma, `Б`), a categorical axis names its positions and a .NET band its source in the
/// page's words.
#[test]
fn notes_tables_and_named_positions_follow_the_pages_language() {
    lab_text::tr::set_catalogs(crate::translate::CATALOGS);
    let data = Data::from_files(vec![file(
        "m-one",
        "2026-11-30T10:00:00Z",
        &clearing(1.0, &[16384]),
    )]);
    lab_text::tr::set_language("ru");
    let ru = chapter("{{#chart clearing}}", &data);
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../data");
    let committed = Data::load(&dir, None).unwrap();
    let cliff = chapter("{{#chart cliff}}", &committed);
    lab_text::tr::set_language("en");
    let (ru, cliff) = (ru.unwrap(), cliff.unwrap());
    assert!(ru.contains("шум 40,0\u{a0}%"), "{ru}");
    assert!(ru.contains("data-testid=\"chart-note\">Пропуск"), "{ru}");
    assert!(!ru.contains("40.0"), "{ru}");
    assert!(ru.contains("16\u{a0}384\u{a0}Б"), "{ru}");
    // The .NET band's source is named in the page's language too.
    assert!(!ru.contains("the Russian article"), "{ru}");
    for (_, _, value) in rows(&ru) {
        assert!(!value.contains('.'), "{value}");
    }
    for english in ["the first one", "again, after a free", ">exact<"] {
        assert!(!cliff.contains(english), "{english}: {cliff}");
    }
    let en = chapter("{{#chart cliff}}", &committed).unwrap();
    assert!(en.contains("the first one") && en.contains("again, after a free"));
}

/// The committed data: the cliff chart draws the system allocator's line only (the other
/// runtimes do not run glibc's threshold), so its caption names that file and no other; and a
/// Russian page's long y title is drawn smaller, so it stays inside the drawing.
#[test]
fn a_caption_names_the_files_that_draw_and_a_long_title_fits() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../data");
    let data = Data::load(&dir, None).unwrap();
    assert!(
        data.files().len() > 1,
        "the committed data has several runtimes"
    );
    let html = chapter("{{#chart cliff}}", &data).unwrap();
    let caption = html.split("</figcaption>").next().unwrap();
    let primary = data.primary().unwrap().label();
    assert!(caption.contains(&primary), "{caption}");
    for f in data.files().iter().filter(|f| f.label() != primary) {
        assert!(!caption.contains(&f.label()), "{} in {caption}", f.label());
    }
    let size = |title: &str| super::svg::title_font(title);
    assert_eq!(size("cost ÷ just below (×, log scale)"), 19.0);
    let long = "стоимость ÷ чуть ниже порога (×, логарифмическая шкала)";
    let shrunk = size(long);
    assert!(shrunk < 19.0, "{shrunk}");
    assert!(long.chars().count() as f64 * 0.55 * shrunk / 1.24 <= 380.0 + 1e-9);
}

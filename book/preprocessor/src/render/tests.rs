use super::*;

fn file(id: &str, date: &str, figures: &str) -> RunFile {
    let text = format!(
        r#"{{"schema_version":2,
        "machine":{{"id":"{id}","cpu_model":"Test CPU","logical_cores":2,"memory_bytes":1073741824,
                   "os":"Linux","kernel":"6.1","libc":"glibc 2.36"}},
        "run":{{"date":"{date}","rustc":"rustc 1.95.0","commit":"0123456789abcdef","allocator":"system",
               "mode":"full","load_before":[0.1,0.1,0.1],"load_after":[0.2,0.1,0.1],"duration_seconds":1.0}},
        "figures":{{{figures}}}}}"#
    );
    RunFile::parse(&text).unwrap()
}

fn figure(unit: &str, value: f64, cv: f64, verdict: &str) -> String {
    format!(
        r#"{{"title":"t","unit":"{unit}","value":{value},"low":{value},"high":{value},"samples":50,"cv":{cv},"cv_plain":{cv},"verdict":"{verdict}","gate_note":"note"}}"#
    )
}

fn data() -> Data {
    let figs = format!(
        r#""a.ns":{},"a.ratio":{},"a.noisy":{},"a.bytes":{}"#,
        figure("nanoseconds", 12.34, 0.01, "absolute"),
        figure("ratio", 0.9876, 0.1, "ratio_only"),
        figure("nanoseconds", 40.0, 0.1, "ratio_only"),
        figure("bytes", 152000000.0, 0.0, "absolute"),
    );
    Data::from_files(vec![file("m-one", "2026-11-30T10:00:00Z", &figs)])
}

#[test]
fn cites_figures_with_provenance() {
    let out = chapter("It costs {{#fig a.ns}} and {{#fig a.bytes}}.", &data()).unwrap();
    assert!(out.contains(">12.3 ns</span>"), "{out}");
    assert!(out.contains(">152,000,000 B</span>"), "{out}");
    assert!(out.contains("(m-one, 2026-11-30)"), "{out}");
}

#[test]
fn the_gate_decides_what_is_printed() {
    let d = data();
    let out = chapter("{{#fig a.ratio}} / {{#fig a.noisy}}", &d).unwrap();
    assert!(out.contains(">0.988×</span>"), "{out}");
    assert!(out.contains("not citable on this machine"), "{out}");
    assert!(!out.contains("40.0 ns<"), "{out}");
    assert_eq!(d.warnings().len(), 1);
}

#[test]
fn missing_figure_fails_naming_it() {
    let errors = chapter("{{#fig a.ns}} {{#fig no.such}}", &data()).unwrap_err();
    assert_eq!(errors.len(), 1);
    assert!(
        errors[0].contains("`no.such`") && errors[0].contains("m-one.json"),
        "{errors:?}"
    );
    let empty = Data::from_files(Vec::new());
    let errors = chapter("{{#fig a.ns}}", &empty).unwrap_err();
    assert!(errors[0].contains("cargo xtask bench"), "{errors:?}");
}

#[test]
fn widgets_and_quizzes_must_exist() {
    let out = chapter("{{#lab-widget bucket-rounding initial=100}}", &data()).unwrap();
    assert!(out.contains("data-lab-widget=\"bucket-rounding\""));
    assert!(out.contains("data-initial=\"100\""));
    // The default state, drawn at build time by the lab's renderer, with the no-script line.
    assert!(
        out.contains("<dd data-testid=\"calc-length\">128</dd>"),
        "{out}"
    );
    assert!(out.contains("needs JavaScript to change it"));
    assert!(out.contains("aria-live=\"polite\""));
    assert_eq!(out.trim().lines().count(), 1, "one HTML block: {out}");
    let e = chapter("{{#lab-widget bucket-rounding initial=-5}}", &data()).unwrap_err();
    assert!(e[0].contains("default state does not run"), "{e:?}");
    assert!(chapter("{{#lab-widget nope}}", &data()).unwrap_err()[0].contains("no widget `nope`"));
    assert!(
        chapter("{{#lab-quiz bucket-rounding}}", &data())
            .unwrap()
            .contains("data-lab-quiz")
    );
    assert!(chapter("{{#lab-quiz nope}}", &data()).unwrap_err()[0].contains("no quiz `nope`"));
}

#[test]
fn tables_show_every_machine() {
    let d = Data::from_files(vec![
        file(
            "m-one",
            "2026-11-30T10:00:00Z",
            &format!(r#""k":{}"#, figure("count", 3.0, 0.0, "absolute")),
        ),
        file("m-two", "2026-11-29T10:00:00Z", ""),
    ]);
    let out = chapter("{{#fig-table k}}\n{{#machines}}", &d).unwrap();
    assert!(
        out.contains("m-one") && out.contains("m-two") && out.contains("not measured"),
        "{out}"
    );
    assert!(chapter("{{#fig-table nope}}", &d).unwrap_err()[0].contains("in no file"));
}

#[test]
fn formats_like_the_course() {
    assert_eq!(format_value(Unit::Nanoseconds, 8.04), "8.04 ns");
    assert_eq!(format_value(Unit::Nanoseconds, 1234.0), "1.23 µs");
    assert_eq!(format_value(Unit::Ratio, 3002.97), "3,003×");
    assert_eq!(format_value(Unit::Count, 1048576.0), "1,048,576");
    assert_eq!(format_value(Unit::Ratio, 0.98765), "0.988×");
    assert_eq!(format_value(Unit::Ratio, 0.0042), "0.00420×");
    assert_eq!(format_value(Unit::Ratio, 0.0), "0.00×");
}

#[test]
fn bucket_table_is_computed_by_the_lab() {
    let out = chapter("{{#bucket-table 0 100 1025 abc}}", &data()).unwrap_err();
    assert!(out[0].contains("not a number"), "{out:?}");
    let out = chapter("{{#bucket-table 0 100 1,025}}", &data()).unwrap();
    assert!(
        out.contains("<td>100</td><td>3</td><td>128</td><td>28 (28.0 %)</td>"),
        "{out}"
    );
    assert!(
        out.contains("<td>1,025</td><td>7</td><td>2,048</td><td>1,023 (99.8 %)</td>"),
        "{out}"
    );
}

#[test]
fn claims_are_checked_against_the_data() {
    let d = data();
    let ok = chapter("cheaper {{#claim a.ratio < 1}}", &d).unwrap();
    assert!(
        ok.contains("data-holds=\"true\"") && ok.contains("✓"),
        "{ok}"
    );
    assert!(d.warnings().is_empty());
    let broken = chapter("{{#claim a.ratio > 1}}", &d).unwrap();
    assert!(broken.contains("not supported by this machine"), "{broken}");
    assert_eq!(d.warnings().len(), 1);
    assert!(
        d.warnings()[0].contains("a.ratio > 1"),
        "{:?}",
        d.warnings()
    );
    assert!(chapter("{{#claim a.ratio ~ 1}}", &d).unwrap_err()[0].contains("not a comparison"));
    assert!(chapter("{{#claim a.ratio < x}}", &d).unwrap_err()[0].contains("not a number"));
    let vs = chapter("{{#claim a.bytes > a.ns}}", &d).unwrap();
    assert!(vs.contains("data-holds=\"true\""), "{vs}");
    assert!(chapter("{{#claim a.bytes > a.nope}}", &d).unwrap_err()[0].contains("`a.nope`"));
    assert!(chapter("{{#claim no.key < 1}}", &d).unwrap_err()[0].contains("`no.key`"));
}

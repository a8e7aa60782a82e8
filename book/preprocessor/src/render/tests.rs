use super::*;
use bench_data::Unit;

fn file(id: &str, date: &str, figures: &str) -> RunFile {
    run_file(id, date, 2, figures)
}

/// A data file of machine `id` ("Test CPU", `cores` logical cores) run at `date`, with `figures`
/// (the inside of the JSON object, `"key":{…},…`); the chart tests build theirs with it too.
pub(super) fn run_file(id: &str, date: &str, cores: u32, figures: &str) -> RunFile {
    let text = format!(
        r#"{{"schema_version":2,
        "machine":{{"id":"{id}","cpu_model":"Test CPU","logical_cores":{cores},"memory_bytes":1073741824,
                   "os":"Linux","kernel":"6.1","libc":"glibc 2.36"}},
        "run":{{"date":"{date}","rustc":"rustc 1.95.0","commit":"0123456789abcdef","allocator":"system",
               "mode":"full","load_before":[0.1,0.1,0.1],"load_after":[0.2,0.1,0.1],"duration_seconds":1.0}},
        "figures":{{{figures}}}}}"#
    );
    RunFile::parse(&text).unwrap()
}

/// `markdown` rendered as on a Russian page (the language is set back to English after).
fn russian(markdown: &str, d: &Data) -> String {
    lab_text::tr::set_catalogs(crate::translate::CATALOGS);
    lab_text::tr::set_language("ru");
    let ru = chapter(markdown, d);
    lab_text::tr::set_language("en");
    ru.unwrap()
}

fn figure(unit: &str, value: f64, cv: f64, verdict: &str) -> String {
    spread(unit, value, value, value, cv, verdict)
}

fn spread(unit: &str, value: f64, low: f64, high: f64, cv: f64, verdict: &str) -> String {
    format!(
        r#"{{"title":"t","unit":"{unit}","value":{value},"low":{low},"high":{high},"samples":50,"cv":{cv},"cv_plain":{cv},"verdict":"{verdict}","gate_note":"note"}}"#
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
    assert!(out.contains(">12.3 ns</button>"), "{out}");
    assert!(out.contains(">152,000,000 B</button>"), "{out}");
    assert!(
        !out.contains("(m-one, 2026-11-30)"),
        "no provenance after each figure: {out}"
    );
    assert!(
        out.contains("m-one"),
        "the popover names the machine: {out}"
    );
    let once = chapter("{{#provenance}}", &data()).unwrap();
    assert!(
        once.contains("m-one") && once.contains("2026-11-30"),
        "{once}"
    );
}

#[test]
fn the_gate_decides_what_is_printed() {
    let d = data();
    let out = chapter("{{#fig a.ratio}} / {{#fig a.noisy}}", &d).unwrap();
    assert!(out.contains(">0.988×</button>"), "{out}");
    assert!(out.contains("not citable on this machine"), "{out}");
    assert!(!out.contains(">40.0 ns<"), "{out}");
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
        file(
            "m-three",
            "2026-11-29T11:00:00Z",
            &format!(r#""j":{}"#, figure("count", 4.0, 0.0, "absolute")),
        ),
        file("m-two", "2026-11-29T10:00:00Z", ""),
    ]);
    let out = chapter("{{#fig-table k j}}\n{{#machines}}", &d).unwrap();
    assert!(
        out.contains("m-one") && out.contains("m-two") && out.contains("not measured"),
        "{out}"
    );
    // A file that measured none of a table's figures gets no column of "not measured".
    let table = chapter("{{#fig-table k j}}", &d).unwrap();
    assert!(
        table.contains("m-three") && !table.contains("m-two"),
        "{table}"
    );
    assert!(chapter("{{#fig-table nope}}", &d).unwrap_err()[0].contains("in no file"));
    assert!(out.contains("<th>load before → after</th>"), "{out}");
    // A Russian page: the machines' table's headings and numbers (a decimal comma, ГиБ).
    let ru = russian("{{#machines}}", &d);
    assert!(
        !ru.contains("load before") && !ru.contains(">memory<"),
        "{ru}"
    );
    assert!(ru.contains("\u{a0}ГиБ</td>") && !ru.contains("GiB"), "{ru}");
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
    assert!(out.contains("<th>excess (of the request)</th>"), "{out}");
    // A Russian page: its headings and its numbers (no-break-space groups, a decimal comma).
    let ru = russian("{{#bucket-table 1025}}", &data());
    assert!(!ru.contains("request") && !ru.contains("bucket<"), "{ru}");
    assert!(ru.contains("<td>1\u{a0}023 (99,8\u{a0}%)</td>"), "{ru}");
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

fn ratios() -> Data {
    let figs = format!(
        r#""r.less":{},"r.same":{},"r.unfit":{},"c.n":{}"#,
        spread("ratio", 0.865, 0.864, 0.871, 0.03, "ratio_only"),
        spread("ratio", 0.95, 0.91, 1.01, 0.16, "ratio_only"),
        spread("ratio", 0.5, 0.1, 0.9, 0.4, "unfit"),
        figure("count", 7.0, 0.0, "absolute"),
    );
    Data::from_files(vec![file("m-one", "2026-11-30T10:00:00Z", &figs)])
}

#[test]
fn verdicts_say_what_the_interval_says() {
    let d = ratios();
    let out = chapter("{{#verdict r.less}}", &d).unwrap();
    assert!(
        out.contains(">0.865× [0.864–0.871]: less time</span>")
            && out.contains("data-direction=\"less\""),
        "{out}"
    );
    let out = chapter("{{#verdict r.same less=faster}}", &d).unwrap();
    assert!(
        out.contains("no measurable difference (the 95 % interval includes 1)"),
        "{out}"
    );
    let out = chapter("{{#verdict r.less less=the_const_rent_is_faster}}", &d).unwrap();
    assert!(out.contains(": the const rent is faster<"), "{out}");
    assert!(
        chapter("{{#verdict r.unfit}}", &d)
            .unwrap()
            .contains("too noisy to say")
    );
    assert_eq!(d.warnings().len(), 1);
    // An expectation makes it a claim, with its mark.
    let out = chapter("{{#verdict r.less expect=less}}", &d).unwrap();
    assert!(out.contains("data-holds=\"true\""), "{out}");
    let out = chapter("{{#verdict r.same expect=less}}", &d).unwrap();
    assert!(
        out.contains("data-holds=\"false\"") && out.contains("⚠"),
        "{out}"
    );
    for (bad, says) in [
        ("{{#verdict c.n}}", "not a ratio"),
        ("{{#verdict r.less expect=faster}}", "not a direction"),
        ("{{#verdict r.less color=red}}", "unknown verdict option"),
        ("{{#verdict no.such}}", "`no.such`"),
    ] {
        let e = chapter(bad, &d).unwrap_err();
        assert!(e[0].contains(says), "{bad}: {e:?}");
    }
}

#[test]
fn claims_use_every_operator_of_bench_data() {
    let d = ratios();
    for (text, holds) in [
        ("{{#claim r.less below 1}}", true),
        ("{{#claim r.same excludes 1}}", false),
        ("{{#claim r.{less,same} < 1}}", true),
        ("{{#claim r.* citable}}", false),
        ("{{#claim c.n == 7}}", true),
    ] {
        let out = chapter(text, &d).unwrap();
        assert!(
            out.contains(&format!("data-holds=\"{holds}\"")),
            "{text}: {out}"
        );
    }
    let e = chapter("{{#claim nothing.* below 1}}", &d).unwrap_err();
    assert!(e[0].contains("no figure matches"), "{e:?}");
    let e = chapter("{{#claim r.less == 1}}", &d).unwrap_err();
    assert!(e[0].contains("exact figures"), "{e:?}");
}

#[test]
fn statistics_and_marks_open_without_a_mouse() {
    let d = data();
    let out = chapter("{{#fig a.ns}} {{#claim a.ratio < 1}}", &d).unwrap();
    // Buttons take focus and open their popover on Enter, a click or a tap; no `title` tooltip.
    assert_eq!(out.matches("<button type=\"button\"").count(), 2, "{out}");
    assert!(
        out.contains("popovertarget=\"lab-pop-1\"") && out.contains("id=\"lab-pop-1\" popover>"),
        "{out}"
    );
    assert!(out.contains("id=\"lab-pop-2\" popover>Holds: "), "{out}");
    // In words, not keys: the figure's title and value, and what the sentence needs.
    assert!(
        out.contains(", under 1×. (Measured on m-one, run of 2026-11-30.)"),
        "{out}"
    );
    assert!(!out.contains("popover>✓ a.ratio"), "{out}");
    assert!(out.contains("median of 50 samples"), "{out}");
    assert!(!out.contains("title="), "{out}");
}

#[test]
fn machine_facts_come_from_the_data() {
    let d = data();
    let out = chapter(
        "glibc here is {{#machine libc}} on {{#machine cores}} cores",
        &d,
    )
    .unwrap();
    assert!(
        out.contains(">glibc 2.36</span>") && out.contains(">2</span>"),
        "{out}"
    );
    assert!(chapter("{{#machine colour}}", &d).unwrap_err()[0].contains("not a machine fact"));
}

#[test]
fn the_instructors_report_lists_every_claim_on_every_machine() {
    let one = format!(
        r#""r.x":{}"#,
        spread("ratio", 0.8, 0.7, 0.9, 0.03, "ratio_only")
    );
    let two = format!(
        r#""r.x":{}"#,
        spread("ratio", 1.2, 1.1, 1.3, 0.03, "ratio_only")
    );
    let d = Data::from_files(vec![
        file("m-one", "2026-11-30T10:00:00Z", &one),
        file("m-two", "2026-11-29T10:00:00Z", &two),
        file("m-three", "2026-11-28T10:00:00Z", ""),
    ]);
    let text = "# C\n\nThe pool is faster {{#claim r.x below 1}}.\n";
    d.add_sites(crate::claims::collect("c.md", text));
    let out = chapter("{{#claims-report}}", &d).unwrap();
    assert!(
        out.contains("c.md:3") && out.contains("The pool is faster."),
        "{out}"
    );
    assert_eq!(out.matches("data-mark=").count(), 3, "{out}");
    assert!(
        out.contains("data-mark=\"✓\"")
            && out.contains("data-mark=\"⚠\"")
            && out.contains("data-mark=\"?\""),
        "{out}"
    );
    let sites = d.sites();
    let table = crate::claims::table(&sites, &d.files()[1], d.files());
    assert!(
        table.contains("⚠  c.md:3") && table.contains("1 claims: 0 ✓, 1 ⚠"),
        "{table}"
    );
    let broken = crate::claims::contradicted(&sites, &d.files()[1], d.files());
    assert!(
        broken[0].contains("c.md:3") && broken[0].contains("The pool is faster"),
        "{broken:?}"
    );
    // m-one supports it, but m-two is a current machine too: the strict build names it from
    // either primary (issue 41); with m-one's data alone it would pass.
    let from_one = crate::claims::contradicted(&sites, &d.files()[0], d.files());
    assert!(from_one[0].contains("m-two: 1.20×"), "{from_one:?}");
    assert!(crate::claims::contradicted(&sites, &d.files()[0], &d.files()[..1]).is_empty());
}

#[test]
fn figure_keys_are_escaped_in_attributes_too() {
    // Machine ids are restricted to [a-z0-9-] by bench-data; figure keys are whatever a data file
    // and a chapter spell, so the attribute that carries them is escaped.
    let figs = format!(
        r#""a.x'<b>&":{}"#,
        figure("nanoseconds", 1.0, 0.01, "absolute")
    );
    let d = Data::from_files(vec![file("m-one", "2026-11-30T10:00:00Z", &figs)]);
    let out = chapter("{{#fig a.x'<b>&}}", &d).unwrap();
    assert!(
        out.contains(r#"data-fig="a.x&#39;&lt;b&gt;&amp;""#),
        "{out}"
    );
    assert!(!out.contains("<b>"), "{out}");
}

/// On a translated page a figure's popover gives the noise gate's note in that language (the
/// data file holds it in English), with the page's numbers.
#[test]
fn the_gates_note_reads_in_the_pages_language() {
    let note = "noise 7.5 % over the 5.0 % limit for absolute times";
    let figs = format!(
        r#""a.noisy":{}"#,
        figure("nanoseconds", 40.0, 0.075, "ratio_only").replace("\"note\"", &format!("{note:?}"))
    );
    let d = Data::from_files(vec![file("m-one", "2026-11-30T10:00:00Z", &figs)]);
    let en = chapter("It costs {{#fig a.noisy}}.", &d).unwrap();
    let ru = russian("It costs {{#fig a.noisy}}.", &d);
    assert!(en.contains(note), "{en}");
    assert!(
        ru.contains("шум 7,5\u{a0}% выше предела 5,0\u{a0}% для абсолютных времён"),
        "{ru}"
    );
    assert!(!ru.contains("over the"), "{ru}");
}

/// `on=wasm32`: a claim or verdict decided by the primary machine's wasm32 file; where the
/// machine has none, the sentence is open (a warning), never an error or another machine's data.
#[test]
fn claims_and_verdicts_on_another_runtime() {
    let system = format!(
        r#""w.ratio":{}"#,
        spread("ratio", 75.0, 70.0, 80.0, 0.03, "ratio_only")
    );
    let wasm = format!(
        r#""w.ratio":{}"#,
        spread("ratio", 1.004, 0.99, 1.02, 0.03, "ratio_only")
    );
    let mut browser = file("m-one", "2026-11-30T11:00:00Z", &wasm);
    browser.run.runtime = "wasm32".into();
    let mut elsewhere = browser.clone();
    elsewhere.machine.id = "m-two".into();
    let d = Data::from_files(vec![
        file("m-one", "2026-11-30T10:00:00Z", &system),
        browser,
        elsewhere.clone(),
    ]);
    let holds = chapter("{{#verdict w.ratio expect=same on=wasm32}}", &d).unwrap();
    assert!(
        holds.contains("data-holds=\"true\"") && holds.contains("data-direction=\"same\""),
        "{holds}"
    );
    let broken = chapter("{{#claim w.ratio below 2 on=wasm32}}", &d).unwrap();
    assert!(broken.contains("data-holds=\"true\""), "{broken}");
    let primary = chapter("{{#claim w.ratio below 2}}", &d).unwrap();
    assert!(primary.contains("data-holds=\"false\""), "{primary}");
    let cited = chapter("{{#fig w.ratio on=wasm32}}", &d).unwrap();
    assert!(
        cited.contains(">1.00×</button>") && cited.contains("data-machine=\"m-one.wasm32\""),
        "{cited}"
    );
    // The build's table and the strict build check the claim on the wasm32 file.
    let sites = crate::claims::collect(
        "c.md",
        "It is flat {{#verdict w.ratio expect=same on=wasm32}}.",
    );
    assert!(crate::claims::contradicted(&sites, &d.files()[0], d.files()).is_empty());
    // Only another machine measured wasm32: open here.
    let d = Data::from_files(vec![
        file("m-one", "2026-11-30T10:00:00Z", &system),
        elsewhere,
    ]);
    let open = chapter("{{#fig w.ratio on=wasm32}}", &d).unwrap();
    assert!(
        open.contains("not measured on this machine (wasm32)"),
        "{open}"
    );
    let open = chapter("{{#verdict w.ratio expect=same on=wasm32}}", &d).unwrap();
    assert!(
        open.contains("data-direction=\"missing\"") && !open.contains("data-holds=\"true\""),
        "{open}"
    );
    assert!(
        d.warnings().iter().any(|w| w.contains("wasm32")),
        "{:?}",
        d.warnings()
    );
}

/// A figure's popover gives its range over the book's columns that can print it, as the articles
/// give theirs across machines; a column the gate rejects is left out of the range.
#[test]
fn popovers_give_the_range_across_columns() {
    let k = |v: f64, verdict: &str| format!(r#""k":{}"#, figure("ratio", v, 0.01, verdict));
    let mut wasm = file("m-one", "2026-11-30T11:00:00Z", &k(0.39, "ratio_only"));
    wasm.run.runtime = "wasm32".into();
    let mut noisy = file("m-one", "2026-11-30T12:00:00Z", &k(9.0, "unfit"));
    noisy.run.runtime = "jemalloc".into();
    let d = Data::from_files(vec![
        file("m-one", "2026-11-30T10:00:00Z", &k(0.02, "ratio_only")),
        wasm,
        noisy,
    ]);
    let out = chapter("{{#fig k}}", &d).unwrap();
    assert!(
        out.contains(
            "across the 2 columns that measured it (m-one, m-one · wasm32): 0.0200× – 0.390×"
        ),
        "{out}"
    );
    let alone = chapter(
        "{{#fig k}}",
        &Data::from_files(vec![file(
            "m-one",
            "2026-11-30T10:00:00Z",
            &k(0.02, "ratio_only"),
        )]),
    )
    .unwrap();
    assert!(!alone.contains("across the"), "{alone}");
}

/// What a bench records in words (the mode, the runtime's allocator, its browser and clock step)
/// reads in the page's language; a description the lab does not know is shown as recorded.
#[test]
fn the_machines_table_says_the_recorded_words_in_the_pages_language() {
    let described = |runtime: &str, allocator: &str| {
        let mut f = file("m-one", "2026-11-30T10:00:00Z", "");
        f.run.runtime = runtime.into();
        f.run.allocator = allocator.into();
        f
    };
    let d = Data::from_files(vec![
        described("system", "system (Rust's System: the C library's malloc)"),
        described(
            "wasm32",
            "wasm32-unknown-unknown, Rust's default allocator (dlmalloc over the module's linear \
             memory), the lab's wasm-release build in Chromium 156.0.8078.114; performance.now() \
             steps of 5.0 µs (cross-origin isolated)",
        ),
        described("bespoke", "a hand-rolled arena"),
    ]);
    let en = chapter("{{#machines}}", &d).unwrap();
    assert!(en.contains("<td>full</td>"), "{en}");
    let ru = russian("{{#machines}}", &d);
    assert!(
        ru.contains("<td>полный</td>") && !ru.contains(">full<"),
        "{ru}"
    );
    assert!(
        ru.contains("system (System из Rust: malloc библиотеки C)"),
        "{ru}"
    );
    assert!(
        ru.contains("в Chromium 156.0.8078.114; шаг performance.now() — 5,0\u{a0}мкс"),
        "{ru}"
    );
    assert!(
        !ru.contains("Rust's") && !ru.contains("no fingerprint"),
        "{ru}"
    );
    assert!(ru.contains("bespoke (a hand-rolled arena)"), "{ru}");
}

/// A hot figure's JSON: `value` ns, `instructions` per iteration and, when counted, `macro_ops`.
fn hot_figure(value: f64, verdict: &str, instructions: f64, macro_ops: Option<f64>) -> String {
    let counted = macro_ops.map_or(String::new(), |m| {
        format!(
            r#","macro_ops_per_iteration":{m},"implied_mops_per_cycle":{}"#,
            m / (value * 4.0)
        )
    });
    format!(
        r#"{{"title":"t","unit":"nanoseconds","value":{value},"low":{value},"high":{value},"samples":50,"cv":0.01,"cv_plain":0.01,"verdict":"{verdict}","gate_note":"noise 1.0 %","instructions":{{"per_iteration":{instructions},"implied_ipc":{}{counted}}}}}"#,
        instructions / (value * 4.0)
    )
}

/// A file of `figures` measured at 4 GHz on a core of `width` (its clock as `clock_fields`
/// writes the bound: this schema's names, or schema 3's `max_ipc`).
fn hot_file(schema: u32, clock_fields: &str, figures: &str) -> RunFile {
    let text = format!(
        r#"{{"schema_version":{schema},
        "machine":{{"id":"m-hot","cpu_model":"Test CPU","logical_cores":2,"memory_bytes":1073741824,
                   "os":"Linux","kernel":"6.1","libc":"glibc 2.36"}},
        "run":{{"date":"2026-12-04T10:00:00Z","rustc":"rustc 1.95.0","commit":"0123456789abcdef","allocator":"system",
               "mode":"full","load_before":[0.1,0.1,0.1],"load_after":[0.2,0.1,0.1],"duration_seconds":1.0,
               "clock":{{"max_ghz":4.0,"source":"measured: dependent register adds, best of 200 tries; /proc/cpuinfo says 2.45 GHz",{clock_fields}}}}},
        "figures":{{{figures}}}}}"#
    );
    RunFile::parse(&text).unwrap()
}

fn zen3() -> String {
    let source = lab_text::tr::fill(
        bench_data::bound::WIDTH,
        &[&"AMD Zen 3", &25, &1, &6, &bench_data::bound::AMD_19H],
    );
    format!(
        r#""sustained_width":6.0,"sustained_width_source":"{source}","fusion":"{}""#,
        bench_data::bound::FUSION_CMP_TEST
    )
}

/// 28 instructions (23 macro-ops) in 1 ns at 4 GHz are 5.75 macro-ops per cycle, under Zen 3's 6;
/// in 0.5 ns, 11.5: over it, so that figure is marked not citable as a time, and the page says
/// what that means.
#[test]
fn the_instruction_table_checks_macro_ops_against_the_sustained_width() {
    let figs = format!(
        r#""h.fits":{},"h.over":{}"#,
        hot_figure(1.0, "absolute", 28.0, Some(23.0)),
        hot_figure(0.5, "ratio_only", 28.0, Some(23.0)),
    );
    let d = Data::from_files(vec![hot_file(4, &zen3(), &figs)]);
    let out = chapter("{{#instructions}}", &d).unwrap();
    for says in [
        "Clock: 4.00 GHz (measured: dependent register adds",
        "Bound: 6 macro-ops per cycle (AMD Zen 3 (family 25 model 1): at most 6 macro-ops per cycle, its dispatch width in AMD&#39;s Software Optimization Guide for family 19h).",
        "Fused pairs: a cmp or test directly followed by a conditional jump is one macro-op.",
        "<th>macro-ops per iteration</th>",
        "<td>28.0</td><td>23.0</td>",
        "<td>5.75</td><td>yes</td>",
        "<td>11.50</td><td class=\"lab-claim-broken\">no: not citable as a time</td>",
        "either the loop measured is not the loop counted or the clock is wrong",
    ] {
        assert!(out.contains(says), "{says:?} not in {out}");
    }
    assert_eq!(out.matches("class=\"lab-over-bound\"").count(), 1, "{out}");
    assert!(
        out.contains("<tr data-key=\"h.over\" class=\"lab-over-bound\">"),
        "{out}"
    );
    // The figure's popover says the same in short.
    let fig = chapter("{{#fig h.over}}", &d).unwrap();
    assert!(
        fig.contains("28.0 instructions, 23.0 macro-ops per iteration")
            && fig.contains("11.50 macro-ops per cycle at 4.00 GHz, the core sustains at most 6")
            && fig.contains("over the bound, so not citable as a time"),
        "{fig}"
    );
    let fits = chapter("{{#fig h.fits}}", &d).unwrap();
    assert!(!fits.contains("over the bound"), "{fits}");
    // A Russian page reads all of it in Russian, numbers with a decimal comma.
    let ru = russian("{{#instructions}}", &d);
    for says in [
        "Частота: 4,00\u{a0}ГГц (измерено: зависимые сложения регистров, лучшая из 200 попыток; /proc/cpuinfo говорит 2,45\u{a0}ГГц).",
        "Предел макроопераций за такт: 6 (AMD Zen 3 (семейство 25, модель 1): макроопераций за такт — не больше 6; ширина диспетчеризации",
        "<td>28,0</td><td>23,0</td>",
        "<td>5,75</td><td>да</td>",
        "нет: как время не для цитирования",
    ] {
        assert!(ru.contains(says), "{says:?} not in {ru}");
    }
    assert!(!ru.contains("macro-ops"), "{ru}");
    // An absolute verdict on a figure over the bound is refused when the file is read.
    let bad = format!(
        r#""h.over":{}"#,
        hot_figure(0.5, "absolute", 28.0, Some(23.0))
    );
    let text = hot_file(4, &zen3(), r#""h.x":{"title":"t","unit":"count","value":1,"low":1,"high":1,"samples":1,"cv":0,"cv_plain":0,"verdict":"absolute","gate_note":"exact count"}"#)
        .to_json()
        .replace(
            r#""h.x": {"#,
            &format!("{},\n\"h.x\": {{", bad),
        );
    let e = RunFile::parse(&text).unwrap_err();
    assert!(e.contains("allows at most RatioOnly"), "{e}");
}

/// A schema 3 file recorded the retire width it assumed (`max_ipc`) and no macro-ops: each
/// figure is checked with its instructions, which can only overstate the rate, and says so.
#[test]
fn files_before_the_fusion_count_are_checked_with_instructions() {
    let clock = r#""max_ipc":8.0,"max_ipc_source":"AMD Zen (family 26): retires up to 8 macro-ops per cycle""#;
    let figs = format!(r#""h.old":{}"#, hot_figure(1.0, "absolute", 28.0, None));
    let d = Data::from_files(vec![hot_file(3, clock, &figs)]);
    let out = chapter("{{#instructions}}", &d).unwrap();
    for says in [
        "Bound: 8 macro-ops per cycle (AMD Zen (family 26): retires up to 8 macro-ops per cycle).",
        "it predates the fusion count",
        "<th>implied instructions per cycle</th>",
        "<td>28.0</td><td><button",
        "<td>7.00</td><td>yes</td>",
    ] {
        assert!(out.contains(says), "{says:?} not in {out}");
    }
    let fig = chapter("{{#fig h.old}}", &d).unwrap();
    assert!(
        fig.contains("macro-ops not counted") && fig.contains("against the bound of 8"),
        "{fig}"
    );
}

/// The three directives of the instruction check render (they were missing from `NAMES`, so a
/// page showed them as written).
#[test]
fn the_listing_and_instruction_counts_render() {
    let figs = format!(
        r#""h.fits":{}"#,
        hot_figure(1.0, "absolute", 28.0, Some(23.0))
    );
    let mut file = hot_file(4, &zen3(), &figs);
    file.listings.insert(
        "h.fits".into(),
        bench_data::Listing {
            function: "bench_paired::Group::time_on::{{closure}}".into(),
            share: 0.99997,
            lines: vec![
                "13d250: mov    rdx,QWORD PTR [r13+0x0]".into(),
                "13d2cb: jne    13d250".into(),
            ],
        },
    );
    let d = Data::from_files(vec![file]);
    let out = chapter("{{#listing h.fits}} and {{#instr h.fits}}.", &d).unwrap();
    assert!(!out.contains("{{#"), "{out}");
    assert!(
        out.contains("<code>h.fits</code>: 1.00 ns; 28.0 instructions and 23.0 macro-ops per iteration (callgrind); the function below executes 100.0 % of the loop&#39;s instructions: <code>bench_paired::Group::time_on::{{closure}}</code>"),
        "{out}"
    );
    assert!(out.contains("13d2cb: jne    13d250"), "{out}");
    assert!(out.contains(">28 instructions</span>."), "{out}");
    assert!(chapter("{{#listing a.ns}}", &data()).is_err());
    assert!(chapter("{{#instr a.ns}}", &data()).is_err());
}

/// A directive name nobody renders fails the build with its line, instead of reaching the reader
/// as `{{#name …}}` (issue 35: `{{#instructions}}` did, for want of a line in `NAMES`).
#[test]
fn an_unknown_directive_fails_with_its_line() {
    let errors = chapter("text\n\nmore {{#instrs h.fits}} text", &data()).unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].starts_with("line 3: {{#instrs}} is no directive"),
        "{errors:?}"
    );
    // mdBook's own and escaped ones are not ours to refuse.
    assert!(chapter("{{#include x.rs}} \\{{#instrs}}", &data()).is_ok());
}

/// Two CPUs at the current code (issue 41): a claim speaks for every machine unless it says
/// otherwise, the strict build names a sentence one machine contradicts, and a figure in prose
/// gives the range across the machines, as the articles give theirs.
#[test]
fn claims_hold_on_every_machine_and_prose_gives_the_range() {
    let zen3 = format!(
        r#""w.ratio":{},"w.ns":{}"#,
        spread("ratio", 1.09, 1.07, 1.11, 0.01, "ratio_only"),
        figure("nanoseconds", 12.0, 0.01, "absolute")
    );
    let zen5 = format!(
        r#""w.ratio":{},"w.ns":{}"#,
        spread("ratio", 0.97, 0.96, 0.98, 0.01, "ratio_only"),
        figure("nanoseconds", 9.5, 0.01, "absolute")
    );
    let d = Data::from_files(vec![
        file("amd-zen3-2c", "2026-12-04T10:00:00Z", &zen3),
        file("amd-zen5-2c", "2026-12-02T10:00:00Z", &zen5),
    ]);
    // Holds on Zen 5, not on Zen 3 (the primary): not supported.
    let every = chapter("{{#claim w.ratio < 1.05}}", &d).unwrap();
    assert!(every.contains("data-holds=\"false\""), "{every}");
    assert!(
        every.contains("amd-zen3-2c: ") && every.contains("amd-zen5-2c: "),
        "what each machine shows, by name: {every}"
    );
    let any = chapter("{{#claim w.ratio < 1.05 machines=any}}", &d).unwrap();
    assert!(any.contains("data-holds=\"true\""), "{any}");
    let named = chapter("{{#claim w.ratio < 1.05 machine=amd-zen5-2c}}", &d).unwrap();
    assert!(named.contains("data-holds=\"true\""), "{named}");
    let absent = chapter("{{#claim w.ratio < 1.05 machine=intel-x-2c}}", &d).unwrap();
    assert!(
        absent.contains("data-holds=\"false\"") && absent.contains('?'),
        "{absent}"
    );
    // Contradicted on the other machine only: the strict build still names the sentence.
    let sites = crate::claims::collect(
        "why-pool.md",
        "# P\n\nThe write stays within 5 % of its floor {{#claim w.ratio < 1.05}}.\n\
         On Zen 5 it does {{#claim w.ratio < 1.05 machine=amd-zen5-2c}}.\n",
    );
    let broken = crate::claims::contradicted(&sites, &d.files()[0], d.files());
    assert_eq!(broken.len(), 1, "{broken:?}");
    assert!(
        broken[0].starts_with("why-pool.md:3: ") && broken[0].contains("amd-zen3-2c, amd-zen5-2c"),
        "{}",
        broken[0]
    );
    // The range in prose; one value per column in a table.
    let prose = chapter("It takes {{#fig w.ns}}, {{#fig w.ratio}} of its floor.", &d).unwrap();
    assert!(prose.contains(">9.50–12.0 ns</button>"), "{prose}");
    assert!(prose.contains(">0.970–1.09×</button>"), "{prose}");
    let table = chapter("{{#fig-table w.ns}}", &d).unwrap();
    assert!(!table.contains("9.50–12.0"), "{table}");
    // One machine: its value, as before.
    let one = Data::from_files(vec![file("amd-zen3-2c", "2026-12-04T10:00:00Z", &zen3)]);
    let prose = chapter("It takes {{#fig w.ns}}.", &one).unwrap();
    assert!(prose.contains(">12.0 ns</button>"), "{prose}");
}

/// Story chapters (issue 36): a figure is a number linking to its ledger row, the first one per
/// key carries the id the row's back link returns to, no popover, no banner, one line at the end.
#[test]
fn a_story_chapter_cites_numbers_as_links_to_the_ledger() {
    let d = data();
    d.set_chapter("why-pool.md");
    let out = chapter(
        "# Why\n\n{{#provenance}}\n\nIt costs {{#fig a.ns}}, again {{#fig a.ns}} {{#claim a.ns < 20}}.",
        &d,
    )
    .unwrap();
    assert!(
        out.contains(
            r#"<a class="lab-fig" href="instructors.html#why-pool:a.ns" id="r-a.ns">12.3 ns</a>"#
        ),
        "{out}"
    );
    assert_eq!(out.matches("id=\"r-a.ns\"").count(), 1, "{out}");
    assert!(!out.contains("popover"), "{out}");
    // The supported claim shows nothing and leaves no space before the full stop.
    assert!(out.contains("12.3 ns</a>."), "{out}");
    // Where the numbers come from: once, at the end, with the way to the chapter's ledger.
    assert_eq!(out.matches("lab-provenance").count(), 1, "{out}");
    assert!(out.trim_end().ends_with("</p>"), "{out}");
    assert!(out.contains("instructors.html#ledger-why-pool"), "{out}");
    assert!(
        !visible(&out).contains("m-one"),
        "no machine id in the story: {out}"
    );
}

/// A sentence whose number the gate keeps back is written in another form, chosen by the data,
/// never with the gate's reason inside it.
#[test]
fn the_data_chooses_the_form_of_a_sentence() {
    let d = data();
    d.set_chapter("cliff.md");
    let text = "A{{#when a.noisy}} took {{#fig a.noisy}}{{#or-when a.ratio}}, {{#fig a.ratio}} of B{{#otherwise}} is quick{{#end-when}}.";
    let out = chapter(text, &d).unwrap();
    assert!(out.starts_with("A, <a class=\"lab-fig\""), "{out}");
    assert!(out.contains(">0.988×</a> of B."), "{out}");
    assert!(
        !out.contains("not citable") && !out.contains("note"),
        "{out}"
    );
    let out = chapter("A{{#when a.noisy}} took {{#fig a.noisy}}{{#end-when}}.", &d).unwrap();
    assert!(
        out.starts_with("A."),
        "an empty form leaves the sentence whole: {out}"
    );
    assert!(chapter("{{#when a.ns}} open", &d).is_err());
    assert!(chapter("{{#when nope}}x{{#end-when}}", &d).is_err());
    assert!(chapter("{{#otherwise}}", &d).is_err());
}

/// A story table shows another column only where it differs by more than the ±5 % band; the
/// columns that agree are named under it.
#[test]
fn a_story_table_shows_only_the_columns_that_differ() {
    let p = run_file(
        "m-one",
        "2026-11-30T10:00:00Z",
        2,
        &format!(r#""b.x":{}"#, figure("bytes", 1000.0, 0.0, "absolute")),
    );
    let mut same = run_file(
        "m-one",
        "2026-11-30T10:00:00Z",
        2,
        &format!(r#""b.x":{}"#, figure("bytes", 1040.0, 0.0, "absolute")),
    );
    same.run.runtime = "mimalloc".into();
    let mut other = same.clone();
    other.run.runtime = "jemalloc".into();
    other.figures.get_mut("b.x").unwrap().value = 1200.0;
    let d = Data::from_files(vec![p, same, other]);
    d.set_chapter("capacity.md");
    let out = chapter("{{#fig-table b.x}}", &d).unwrap();
    assert!(out.contains("<th>jemalloc</th>"), "{out}");
    assert!(!out.contains("<th>mimalloc</th>"), "{out}");
    assert!(out.contains("The same on mimalloc."), "{out}");
    assert!(!visible(&out).contains("m-one"), "{out}");
}

/// The text of `html` a reader sees (tags and their attributes removed).
fn visible(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}

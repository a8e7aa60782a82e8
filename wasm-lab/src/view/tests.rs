//! The view models, natively: inputs → steps, rows, texts, or a reader-facing error.

use super::*;

/// The view of widget `name` with its defaults, `edits` applied, as the browser computes it
/// (`live`) or as the book's build does.
/// The outcome a slot holds behind its prediction, as the page without scripts draws it (in
/// the closed disclosure after the question).
fn held_outcome<'a>(v: &'a View, slot: &str) -> &'a [Part] {
    let parts = &v.slot(slot).unwrap().parts;
    assert!(
        matches!(parts.first(), Some(Part::Predict(_))),
        "{slot}: no question first"
    );
    match parts.get(1) {
        Some(Part::NoScript(inner)) => inner,
        other => panic!("{slot}: no outcome behind the question: {other:?}"),
    }
}

fn view_of(name: &str, edits: &[(&str, &str)], live: bool) -> View {
    let w = widget(name).unwrap();
    let mut inputs = Inputs::from_form(&(w.form)(""));
    for (k, v) in edits {
        inputs.set(k, *v);
    }
    (w.view)(
        &inputs,
        &Env {
            live,
            wasm_pages: None,
        },
    )
}

#[track_caller]
fn check_error(name: &str, edits: &[(&str, &str)], slot: &str, says: &str) {
    let v = view_of(name, edits, false);
    let e = v
        .slot(slot)
        .and_then(|s| s.error.clone())
        .unwrap_or_else(|| panic!("{name} {edits:?}: no error in {slot}"));
    assert_eq!(e, says, "{name} {edits:?}");
    assert!(!e.ends_with('.'), "errors have no trailing period: {e}");
}

/// The edge inputs of issue #16, with the exact message each gets.
#[test]
fn edge_inputs_get_messages_about_their_field() {
    type Case<'a> = (&'a str, &'a [(&'a str, &'a str)], &'a str, &'a str);
    let cases: &[Case] = &[
        (
            "return-contract",
            &[("dr-value", "-1")],
            "dr",
            "r1[0]: “-1” is negative: a byte holds 0 to 255",
        ),
        (
            "return-contract",
            &[("dr-value", "300")],
            "dr",
            "r1[0]: 300 does not fit in a byte (0 to 255)",
        ),
        (
            "return-contract",
            &[("mf-rounds", "99999999999")],
            "mf",
            "Rounds: “99999999999” is more than this widget runs in your browser (at most 100,000)",
        ),
        (
            "return-contract",
            &[("mf-rounds", "-5")],
            "mf",
            "Rounds: “-5” is negative: type 0 or more",
        ),
        (
            "return-contract",
            &[("fr-length", "3000000000")],
            "fr",
            "length: “3000000000” is larger than any .NET array can be (Array.MaxLength = 2,147,483,591)",
        ),
        (
            "return-contract",
            &[("fr-length", "2000000")],
            "fr",
            "length: This widget allocates the foreign buffer in your browser: choose at most 1,048,576 elements",
        ),
        (
            "capacity",
            &[("cap-m", "3000000000")],
            "cap",
            "M = 3,000,000,000 is more than .NET takes: it reads M as an int, at most 2,147,483,647",
        ),
        (
            "capacity",
            &[("cap-p", "0")],
            "cap",
            "P = 0 partitions is out of range: the lab's pool takes 1 to 4,096",
        ),
        (
            "capacity",
            &[("cap-k", "24,41,64")],
            "cap",
            "K: “24,41,64” is not one number: commas only group digits in threes (1,048,576)",
        ),
        (
            // The widget's work bound (a page froze at P = 1,000, K = 100,000: found by fuzzing).
            "capacity",
            &[("cap-p", "1000"), ("cap-m", "3"), ("cap-k", "100000")],
            "cap",
            "K = 100,000 buffers on P = 1,000 partitions is 100,000,000 partition visits a round; this page runs at most 10,000,000: lower K or P",
        ),
        (
            // One buffer too large even with K = 0 (a 2 GB rent: found by fuzzing).
            "capacity",
            &[("cap-k", "0"), ("cap-size", "2120310281")],
            "cap",
            "Size: one buffer of 2,120,310,281 bytes is more than this page allocates (at most 67,108,864, 64 MiB)",
        ),
        (
            "capacity",
            &[("cap-k", "1 000")],
            "cap",
            "K: “1 000” has a space inside: type one number, grouping digits with commas (1,000)",
        ),
        (
            "bucket-rounding",
            &[("calc-input", "1.5")],
            "calc",
            "Request size: “1.5” is not a whole number: type it in digits, e.g. 100000",
        ),
        (
            "bucket-rounding",
            &[("calc-input", "")],
            "calc",
            "Request size: type a whole number, e.g. 100",
        ),
        (
            "bucket-rounding",
            &[("calc-input", "-3")],
            "calc",
            "Request size: a size cannot be negative (“-3”): .NET's Rent throws ArgumentOutOfRangeException",
        ),
        (
            "size-specialized",
            &[("spec-input", "24,41,64")],
            "spec",
            "Sizes: “24,41,64” is ambiguous: commas only group digits in threes (1,048,576); separate sizes with spaces or semicolons (24; 41; 64)",
        ),
        (
            "size-specialized",
            &[("spec-input", "1 000")],
            "spec",
            "Sizes: “1 000” is ambiguous: a space separates sizes, so this reads as 1 and 000; for one size group digits with commas (1,000), for two drop the leading zero",
        ),
        (
            "chunking",
            &[("chunk-len", "5000000")],
            "chunk",
            "Elements: “5000000” is more than this page chunks (at most 4,000,000)",
        ),
        (
            "stale-data",
            &[("stale-read", "abc")],
            "stale",
            "Bytes to read: “abc” is not a number: type digits, e.g. 4096",
        ),
        (
            "why-pool",
            &[("why-rounds", "2000000")],
            "why",
            "Rounds: “2000000” is more than this widget runs in your browser (at most 1,000,000)",
        ),
    ];
    for (name, edits, slot, says) in cases {
        check_error(name, edits, slot, says);
    }
}

#[test]
fn exact_numbers_are_read_as_typed() {
    // `1e3` is a whole number, `-0` is zero: both run.
    let v = view_of("bucket-rounding", &[("calc-input", "1e3")], false);
    assert!(v.text().contains("1,024"), "{}", v.text());
    let v = view_of("bucket-rounding", &[("calc-input", "-0")], false);
    assert!(v.slots[0].error.is_none());
    let v = view_of(
        "size-specialized",
        &[("spec-input", "24 41;64 1,048,576")],
        false,
    );
    assert!(v.slots[0].error.is_none() && v.text().contains("1,048,576"));
}

#[test]
fn capacity_arithmetic_is_exact() {
    // The 1 + 8 × 1,073,741,825 saturated to 4,294,967,295 in 32-bit wasm.
    let s = crate::chapter::capacity::scenario::Setup {
        partitions: 8,
        arrays_per_partition: 1_073_741_825,
        held: 2,
        size: 16,
    };
    assert_eq!(s.capacity(), 8_589_934_601);
    let v = view_of(
        "capacity",
        &[("cap-m", "1,073,741,825"), ("cap-k", "2")],
        false,
    );
    assert!(v.text().contains("8,589,934,601"), "{}", v.text());
}

#[test]
fn small_wording() {
    let v = view_of(
        "capacity",
        &[("cap-p", "1"), ("cap-m", "1"), ("cap-k", "3")],
        false,
    );
    assert!(v.text().contains("1 buffer is dropped"), "{}", v.text());
    let v = view_of("why-pool", &[("why-rounds", "0")], false);
    assert!(v.text().contains("no rounds run"), "{}", v.text());
    assert!(!v.text().contains("0 bytes costs nothing"));
    // Chunking with 0 elements: in `tests/view_measured.rs`, which has the counting allocator.
    let v = view_of("cliff", &[], false);
    assert!(
        v.text()
            .contains("depends on everything this page allocated before")
    );
}

/// With clearing on, the next renter reads zeros it did not write: the verdict must not say it
/// reads "0 bytes it did not write" next to a picture of 16 (issue 35), but that none of the
/// bytes are the first renter's, and how many zeros it reads past its own.
#[test]
fn stale_data_cleared_verdict_says_what_the_picture_shows() {
    let v = view_of(
        "stale-data",
        &[
            ("stale-clear", "true"),
            ("stale-predict", "0"),
            ("stale-step", "9"),
        ],
        true,
    );
    let Part::Verdict(verdict) = &v.slots[0].parts[0] else {
        panic!("{:?}", v.slots[0].parts)
    };
    assert!(verdict.held, "{}", verdict.text);
    assert!(!verdict.text.contains("0 bytes"), "{}", verdict.text);
    assert!(
        verdict.text.contains("no byte of the first renter's"),
        "{}",
        verdict.text
    );
    assert!(
        verdict.text.contains("16 bytes of zeros"),
        "{}",
        verdict.text
    );
}

#[test]
fn stale_data_predict_then_step() {
    // In the browser the outcome waits for a prediction.
    let v = view_of("stale-data", &[], true);
    assert!(matches!(v.slots[0].parts[..], [Part::Predict(_)]));
    assert!(!v.text().contains("leaked"));
    // Wrong, then right; then stepping.
    let v = view_of(
        "stale-data",
        &[("stale-predict", "0"), ("stale-step", "0")],
        true,
    );
    let Part::Verdict(verdict) = &v.slots[0].parts[0] else {
        panic!()
    };
    assert!(
        !verdict.held && verdict.text.contains("16 bytes"),
        "{}",
        verdict.text
    );
    let v = view_of(
        "stale-data",
        &[("stale-predict", "16"), ("stale-step", "2")],
        true,
    );
    let Part::Verdict(verdict) = &v.slots[0].parts[0] else {
        panic!()
    };
    assert!(verdict.held);
    let Part::Steps(steps) = &v.slots[0].parts[1] else {
        panic!()
    };
    assert_eq!((steps.at, steps.steps.len()), (2, 6));
    // After the return the buffer sits in the thread slot; a1 still points at it.
    let pool = steps.steps[2].pool.as_ref().unwrap();
    assert_eq!(pool.signature(), "64: slot A | p0 [] ; a1=A a2=-");
    let last = steps.steps[5].pool.as_ref().unwrap();
    assert_eq!(last.signature(), "64: slot - | p0 [] ; a1=A a2=A");
    // The bytes past a2's own 25 that are not zero are a1's: marked as leaked.
    let row = &last.bytes[0];
    assert_eq!(row.cells.iter().filter(|c| c.1 == "lab-leak").count(), 16);
    assert!(
        v.announce.starts_with("Step 3 of 6: pool.Return(a1"),
        "{}",
        v.announce
    );
    // A hostile prediction gets a message, not a verdict.
    let v = view_of("stale-data", &[("stale-predict", "<script>")], true);
    let Part::Predict(p) = &v.slots[0].parts[0] else {
        panic!()
    };
    assert!(p.problem.as_deref().unwrap().contains("not a number"));
    assert!(!html::slot(&v.slots[0]).contains("<script>"));
}

#[test]
fn double_return_puts_one_buffer_in_the_pool_twice() {
    let v = view_of("return-contract", &[("dr-predict", "no")], true);
    let dr = v.slot("dr").unwrap();
    let Part::Verdict(verdict) = &dr.parts[0] else {
        panic!()
    };
    assert!(!verdict.held);
    let Part::Steps(steps) = &dr.parts[1] else {
        panic!()
    };
    let sig: Vec<String> = steps
        .steps
        .iter()
        .map(|s| s.pool.as_ref().unwrap().signature())
        .collect();
    assert_eq!(
        sig,
        [
            "64: slot - | p0 [] ; x=A",
            "64: slot A | p0 [] ; x=A",
            "64: slot A | p0 [A] ; x=A",
            "64: slot - | p0 [A] ; x=A r1=A",
            "64: slot - | p0 [] ; x=A r1=A r2=A",
            "64: slot - | p0 [] ; x=A r1=A r2=A",
        ]
    );
    // Checked mode refuses the second return: two renters, two buffers.
    let v = view_of(
        "return-contract",
        &[("dr-predict", "no"), ("contract-checked", "true")],
        true,
    );
    let Part::Verdict(verdict) = &v.slot("dr").unwrap().parts[0] else {
        panic!()
    };
    assert!(verdict.held);
}

#[test]
fn capacity_steps_fill_spill_and_trim() {
    let v = view_of(
        "capacity",
        &[
            ("cap-p", "2"),
            ("cap-m", "2"),
            ("cap-k", "7"),
            ("cap-size", "100"),
        ],
        false,
    );
    let Part::Steps(steps) = &held_outcome(&v, "cap")[1] else {
        panic!()
    };
    assert_eq!(steps.steps.len(), 8);
    let after_return = steps.steps[1].pool.as_ref().unwrap();
    assert_eq!(
        after_return.signature(),
        "128: slot  | p0 [ ] | p1 [ ] ; your code=- ; 2 buffers dropped at this step"
    );
    assert!(
        steps.steps[1]
            .text
            .contains("keeps 5 (at most 1 + P × M = 5), 2 dropped")
    );
    let last = steps.steps[7].pool.as_ref().unwrap();
    assert_eq!(
        last.buckets[0]
            .partitions
            .iter()
            .map(|p| p.count)
            .sum::<u64>(),
        0
    );
}

#[test]
fn static_default_of_every_widget() {
    for w in widgets() {
        assert!(crate::widget_names().any(|n| n == w.name), "{}", w.name);
        let form = (w.form)("");
        let v = (w.view)(&Inputs::from_form(&form), &Env::default());
        let page = html::widget(w.name, &form, &v);
        // Natively without the counting allocator chunking says so; the book's build has it
        // (`tests/view_measured.rs` renders chunking with it).
        let measured_only = w.name == "chunking"
            && v.slots[0]
                .error
                .as_deref()
                .is_some_and(|e| e.contains("counting allocator"));
        assert!(
            measured_only || v.slots.iter().all(|s| s.error.is_none()),
            "{}: {:?}",
            w.name,
            v.slots
        );
        assert!(page.contains("aria-live=\"polite\""), "{}", w.name);
        // Sentences under the results end with their period (errors do not, by convention).
        for part in v.slots.iter().flat_map(|s| &s.parts) {
            if let Part::Note { text, .. } = part {
                assert!(text.ends_with('.'), "{}: {text:?}", w.name);
            }
        }
        assert!(!v.announce.is_empty(), "{}", w.name);
    }
    // Every widget has a view model but the reader-timing one (`web/method.rs`), which measures
    // the reader's browser and has no default result to draw.
    let without_view: Vec<&str> = crate::widget_names()
        .filter(|n| !widgets().any(|w| w.name == *n))
        .collect();
    assert_eq!(without_view, ["method"]);
}

#[test]
fn chunking_strategy_names_are_the_chunkers() {
    for s in course_pool::chunk::Strategy::ALL {
        let key = crate::chapter::chunking::view::strategy_key(s);
        assert!(
            crate::chapter::chunking::view::STRATEGIES.contains(&(key, s.name())),
            "{key}"
        );
    }
}

#[test]
fn links_restore_and_refuse_nothing_silently() {
    let w = widget("stale-data").unwrap();
    let form = (w.form)("");
    let mut inputs = Inputs::from_form(&form);
    inputs.set("stale-clear", "true");
    inputs.set("stale-step", "3");
    inputs.set("stale-line2", "a&b=c #ü");
    let hash = url::encode(w.name, &inputs);
    let back = url::decode(w.name, &hash, &form, &Inputs::from_form(&form)).unwrap();
    assert_eq!(back, inputs);
    assert!(url::decode("capacity", &hash, &form, &inputs).is_none());
    // Hostile links: unknown keys dropped, values cut, bad escapes kept as text.
    let hostile = format!(
        "#stale-data:evil=1&stale-read=%ZZ%&stale-size1={}&stale-step=-9",
        "9".repeat(500)
    );
    let got = url::decode(w.name, &hostile, &form, &Inputs::from_form(&form)).unwrap();
    assert!(!got.has("evil"));
    assert_eq!(got.get("stale-read"), "%ZZ%");
    assert_eq!(got.get("stale-size1").len(), url::MAX_VALUE);
    let v = (w.view)(&got, &Env::default());
    assert!(v.slots[0].error.is_some());
    // A bad step shows the first step, not a crash.
    let mut ok = Inputs::from_form(&form);
    ok.set("stale-predict", "16");
    ok.set("stale-step", "-9");
    let v = (w.view)(&ok, &Env::default());
    let Part::Steps(s) = &v.slots[0].parts[1] else {
        panic!()
    };
    assert_eq!(s.at, 0);
}

/// The parts a reader with scripts sees (not the ones drawn for readers without).
fn shown(v: &View) -> String {
    let mut v = v.clone();
    for s in &mut v.slots {
        s.parts.retain(|p| !matches!(p, Part::NoScript(_)));
    }
    v.text()
}

/// The stored prediction the DOM layer writes: the question's prefix, then the value.
fn commit(name: &str, edits: &[(&str, &str)], slot: &str, value: &str) -> Vec<(String, String)> {
    let v = view_of(name, edits, true);
    let Some(Part::Predict(p)) = v.slot(slot).and_then(|s| s.parts.first()) else {
        panic!("{name}: no question in {slot}")
    };
    let mut out: Vec<(String, String)> = edits
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    out.retain(|(k, _)| *k != predict_key(slot));
    out.push((predict_key(slot), f!("{}{value}", p.prefix)));
    out
}

fn edits(pairs: &[(String, String)]) -> Vec<(&str, &str)> {
    pairs
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect()
}

#[test]
fn predict_first_gives_nothing_away_then_nudges_once() {
    for (name, slot, wrong, right, secret) in [
        ("stale-data", "stale", "0", "16", "leaked"),
        ("return-contract", "dr", "no", "yes", "ReferenceEquals(r1"),
    ] {
        // Before the commit, live and at build time, nothing of the outcome shows.
        for live in [true, false] {
            let v = view_of(name, &[], live);
            let text = shown(&v);
            assert!(!text.contains(secret), "{name} live={live}: {text}");
            assert!(!text.contains("Step 1 of"), "{name} live={live}: {text}");
        }
        // A wrong first try: a nudge and a second try, still no outcome.
        let once = commit(name, &[], slot, wrong);
        let v = view_of(name, &edits(&once), true);
        let Some(Part::Predict(p)) = v.slot(slot).unwrap().parts.first() else {
            panic!("{name}: the outcome shows after one wrong try")
        };
        assert!(p.nudge.is_some(), "{name}");
        assert!(!shown(&v).contains(secret), "{name}");
        // The second try is graded and the story shows.
        let twice = commit(name, &edits(&once), slot, right);
        let v = view_of(name, &edits(&twice), true);
        let Some(Part::Verdict(verdict)) = v.slot(slot).unwrap().parts.first() else {
            panic!("{name}: no verdict after the second try")
        };
        assert!(verdict.held, "{name}");
        // Right the first time: graded at once.
        let v = view_of(name, &edits(&commit(name, &[], slot, right)), true);
        assert!(
            matches!(v.slot(slot).unwrap().parts[0], Part::Verdict(_)),
            "{name}"
        );
    }
}

#[test]
fn a_prediction_belongs_to_its_setting() {
    for (name, slot, right, field) in [
        ("stale-data", "stale", "16", "stale-clear"),
        ("return-contract", "dr", "yes", "contract-checked"),
    ] {
        let mut made = commit(name, &[], slot, right);
        let v = view_of(name, &edits(&made), true);
        assert!(matches!(v.slot(slot).unwrap().parts[0], Part::Verdict(_)));
        // Ticking a field the question does not name asks again, it does not re-grade.
        made.push((field.to_string(), "true".to_string()));
        let v = view_of(name, &edits(&made), true);
        let Some(Part::Predict(p)) = v.slot(slot).unwrap().parts.first() else {
            panic!("{name}: the old prediction was graded against a new setting")
        };
        assert!(
            p.problem.as_deref().unwrap().contains("setting changed"),
            "{name}"
        );
        assert!(!v.text().contains("did not hold"), "{name}");
        // Unticking brings the setting, and the prediction, back.
        made.pop();
        let v = view_of(name, &edits(&made), true);
        assert!(matches!(v.slot(slot).unwrap().parts[0], Part::Verdict(_)));
    }
}

#[test]
fn defaults_show_the_lesson() {
    // Capacity opens after round 1's return: a full pool and the spill, not an empty pool.
    let v = view_of("capacity", &[], false);
    let Part::Steps(s) = &held_outcome(&v, "cap")[1] else {
        panic!()
    };
    assert_eq!(s.at, 1);
    let pool = s.steps[s.at].pool.as_ref().unwrap();
    let kept: u64 = pool.buckets[0].partitions.iter().map(|p| p.count).sum();
    assert_eq!(kept, 256);
    assert_eq!(pool.hand.as_ref().unwrap().dropped, 1);
    // The missing finally opens past the stock, where the forgotten return costs.
    let v = view_of("return-contract", &[], false);
    let mf = html::slot(v.slot("mf").unwrap());
    assert!(!mf.contains("0 B / 0 B"), "{mf}");
    assert!(
        html::text(&mf).contains("New buffers, return forgotten on the error path 67"),
        "{mf}"
    );
}

#[test]
fn one_step_rule() {
    let mut inputs = Inputs::default();
    assert_eq!(step_shown(&inputs, "s", 8, 1), 1);
    assert_eq!(step_shown(&inputs, "s", 8, 99), 7);
    assert_eq!(step_shown(&inputs, "s", 0, 3), 0);
    inputs.set("s-step", "5");
    assert_eq!(step_shown(&inputs, "s", 8, 1), 5);
    inputs.set("s-step", "8");
    assert_eq!(step_shown(&inputs, "s", 8, 1), 0);
    inputs.set("s-step", "99999999999999999999999");
    assert_eq!(step_shown(&inputs, "s", 8, 1), 0);
}

#[test]
fn sliders_set_their_fields_on_a_log_or_linear_scale() {
    let log = Slider {
        min: 1,
        max: 1 << 30,
        log: true,
    };
    assert_eq!(log.last(), 480);
    assert_eq!((log.value(0), log.value(480)), (1, 1 << 30));
    assert_eq!(log.value(log.position(4096)), 4096);
    assert_eq!(log.position(0), 0);
    assert_eq!(log.position(u64::MAX), 480);
    assert_eq!(log.value(9_999), 1 << 30);
    let linear = Slider {
        min: 0,
        max: 600,
        log: false,
    };
    assert_eq!(
        (linear.last(), linear.value(258), linear.position(900)),
        (600, 258, 600)
    );
    // The calculator and the capacity explorer carry one, drawn beside the field.
    let form = (widget("bucket-rounding").unwrap().form)("100");
    assert_eq!(form.slider("calc-input"), Some(log));
    let html = html::widget(
        "bucket-rounding",
        &form,
        &view_of("bucket-rounding", &[], false),
    );
    assert!(
        html.contains("data-slider-for=\"calc-input\"") && html.contains("value=\"105\""),
        "{html}"
    );
    let form = (widget("capacity").unwrap().form)("");
    assert_eq!(form.slider("cap-k"), Some(linear));
}

/// Issue 37: every result slot that answers a question the page asks holds its outcome until
/// the reader predicts; a right prediction holds, a wrong one is told which misconception it
/// matches, and the page without scripts keeps the outcome after the question.
#[test]
fn every_question_holds_its_outcome_until_predicted() {
    let digits = |s: &str| s.chars().filter(char::is_ascii_digit).collect::<String>();
    // (widget, slot, the outcome's value that answers the question, a right and a wrong answer
    // read from it).
    type Answers = fn(&View) -> (String, String);
    let cases: [(&str, &str, &str, Answers); 7] = [
        ("bucket-rounding", "calc", "calc-length", |v| {
            let len = v.value("calc-length").unwrap().replace(',', "");
            (len, "100".into())
        }),
        ("capacity", "cap", "cap-r2-bytes", |v| {
            let bytes: u64 = v
                .value("cap-r2-bytes")
                .unwrap()
                .replace(',', "")
                .parse()
                .unwrap();
            // The forgotten thread slot: one buffer of 128 bytes more.
            (bytes.to_string(), (bytes + 128).to_string())
        }),
        ("cliff", "cliff", "cliff-pool-loh", |v| {
            let yes = v.value("cliff-pool-loh").unwrap().starts_with("yes");
            let (r, w) = if yes { ("yes", "no") } else { ("no", "yes") };
            (r.into(), w.into())
        }),
        ("size-specialized", "spec", "spec-buckets", |v| {
            let sizes: u64 = v.value("spec-sizes").unwrap().parse().unwrap();
            (
                v.value("spec-buckets").unwrap().to_string(),
                sizes.to_string(),
            )
        }),
        ("return-contract", "uar", "uar-reads", |v| {
            let landed = v.value("uar-reads") == Some("99");
            let (r, w) = if landed {
                ("stale", "fresh")
            } else {
                ("fresh", "stale")
            };
            (r.into(), w.into())
        }),
        ("return-contract", "fr", "fr-return", |v| {
            let accepted = !v.value("fr-return").unwrap().starts_with("error");
            let (r, w) = if accepted {
                ("yes", "no")
            } else {
                ("no", "yes")
            };
            (r.into(), w.into())
        }),
        ("return-contract", "mf", "mf-without", |v| {
            (
                v.value("mf-without").unwrap().replace(',', ""),
                "100".into(),
            )
        }),
    ];
    for (name, slot, secret, answers) in cases {
        // Nothing of the outcome before a prediction, live or at build time; at build time
        // the outcome waits behind the question.
        for live in [true, false] {
            let v = view_of(name, &[], live);
            let drawn = html::slot(v.slot(slot).unwrap());
            let visible = html::slot(&Slot {
                parts: v.slot(slot).unwrap().parts[..1].to_vec(),
                ..v.slot(slot).unwrap().clone()
            });
            assert!(
                !visible.contains(secret),
                "{name}/{slot} live={live}: {visible}"
            );
            assert!(drawn.contains(secret) != live, "{name}/{slot} live={live}");
            if !live {
                held_outcome(&v, slot);
                assert!(
                    drawn.contains("<details class=\"lab-unscripted\""),
                    "{drawn}"
                );
            }
        }
        let (right, wrong) = answers(&view_of(name, &[], false));
        assert_ne!(digits(&right).len() + right.len(), 0);
        // Right: held, the prediction repeated, the outcome after the verdict.
        let v = view_of(name, &edits(&commit(name, &[], slot, &right)), true);
        let parts = &v.slot(slot).unwrap().parts;
        let Part::Verdict(verdict) = &parts[0] else {
            panic!("{name}/{slot}: no verdict for {right}")
        };
        assert!(verdict.held, "{name}/{slot}: {right} did not hold");
        assert!(!verdict.said.is_empty(), "{name}/{slot}");
        assert!(html::slot(v.slot(slot).unwrap()).contains(secret));
        // Wrong twice: a nudge, then the verdict naming the mistake.
        let once = commit(name, &[], slot, &wrong);
        let v = view_of(name, &edits(&once), true);
        let Some(Part::Predict(p)) = v.slot(slot).unwrap().parts.first() else {
            panic!("{name}/{slot}: graded after one wrong try")
        };
        assert!(p.nudge.is_some(), "{name}/{slot}");
        let twice = commit(name, &edits(&once), slot, &wrong);
        let v = view_of(name, &edits(&twice), true);
        let Some(Part::Verdict(verdict)) = v.slot(slot).unwrap().parts.first() else {
            panic!("{name}/{slot}: no verdict after two wrong tries")
        };
        assert!(!verdict.held, "{name}/{slot}: {wrong} held");
        assert!(
            verdict.text.contains("did not hold") && verdict.text.contains("common mistake"),
            "{name}/{slot}: {}",
            verdict.text
        );
    }
}

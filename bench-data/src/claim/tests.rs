//! Every operator and the verdict rule on synthetic data: holds, contradicted, missing key, unfit
//! figure.

use super::*;
use crate::tests::sample;

fn fig(unit: Unit, value: f64, low: f64, high: f64, verdict: Verdict) -> Figure {
    Figure {
        title: "t".into(),
        unit,
        value,
        low,
        high,
        samples: 50,
        cv: 0.01,
        cv_plain: 0.01,
        verdict,
        gate_note: "note".into(),
        repeats: Vec::new(),
        instructions: None,
    }
}

/// A machine with a ratio under 1 (`r.less`), one straddling 1 (`r.same`), one over 1
/// (`r.more`), a noisy one (`r.unfit`), two counts and a timing the gate keeps as ratio-only.
fn file() -> RunFile {
    let mut f = sample();
    let figures = [
        (
            "r.less",
            fig(Unit::Ratio, 0.865, 0.864, 0.871, Verdict::RatioOnly),
        ),
        (
            "r.same",
            fig(Unit::Ratio, 0.95, 0.91, 1.01, Verdict::RatioOnly),
        ),
        (
            "r.more",
            fig(Unit::Ratio, 62.0, 61.2, 62.7, Verdict::RatioOnly),
        ),
        ("r.unfit", fig(Unit::Ratio, 0.5, 0.1, 0.9, Verdict::Unfit)),
        (
            "c.seven",
            fig(Unit::Count, 7.0, 7.0, 7.0, Verdict::Absolute),
        ),
        ("c.nine", fig(Unit::Bytes, 9.0, 9.0, 9.0, Verdict::Absolute)),
        (
            "t.busy",
            fig(Unit::Nanoseconds, 40.0, 39.0, 41.0, Verdict::RatioOnly),
        ),
    ];
    for (k, v) in figures {
        f.figures.insert(k.into(), v);
    }
    f
}

#[track_caller]
fn mark(claim: &str) -> Mark {
    let c = Claim::parse_text(claim).unwrap_or_else(|e| panic!("{claim}: {e}"));
    c.check(&file())
        .unwrap_or_else(|e| panic!("{claim}: {e}"))
        .mark
}

#[track_caller]
fn marks(cases: &[(&str, Mark)]) {
    for (claim, want) in cases {
        assert_eq!(mark(claim), *want, "{claim}");
    }
}

use Mark::{Contradicted as No, Holds as Yes, Missing, Open};

#[test]
fn value_comparisons() {
    marks(&[
        ("r.less < 1", Yes),
        ("r.less < 0.8", No),
        ("r.less <= 0.865", Yes),
        ("r.less > 0.9", No),
        ("r.more > 50", Yes),
        ("r.more >= 62", Yes),
        ("r.more >= 63", No),
        ("c.nine > c.seven", Yes),
        ("c.seven > c.nine", No),
    ]);
}

#[test]
fn equality_is_for_exact_figures() {
    marks(&[
        ("c.seven == 7", Yes),
        ("c.seven == 8", No),
        ("c.seven != 8", Yes),
        ("c.seven != 7", No),
        ("c.seven == c.nine", No),
    ]);
    let e = Claim::parse_text("r.less == 1")
        .unwrap()
        .check(&file())
        .unwrap_err();
    assert!(e.contains("exact figures"), "{e}");
}

#[test]
fn interval_operators() {
    marks(&[
        ("r.less below 1", Yes),
        ("r.same below 1", No),
        ("r.more below 1", No),
        ("r.more above 1", Yes),
        ("r.same above 1", No),
        ("r.same includes 1", Yes),
        ("r.less includes 1", No),
        ("r.less excludes 1", Yes),
        ("r.same excludes 1", No),
        // Against another figure: wholly under its interval.
        ("r.less below r.more", Yes),
        ("r.more above r.same", Yes),
    ]);
}

#[test]
fn citable_and_not() {
    marks(&[
        ("r.less citable", Yes),
        ("r.unfit citable", No),
        ("r.unfit not-citable", Yes),
        ("c.seven not-citable", No),
        // A ratio-only timing cannot be printed as an absolute value.
        ("t.busy citable", No),
        ("t.busy not-citable", Yes),
    ]);
}

#[test]
fn unfit_figures_leave_the_claim_open() {
    marks(&[
        ("r.unfit < 1", Open),
        ("r.unfit below 1", Open),
        ("r.less < r.unfit", Open),
    ]);
    let c = Claim::parse_text("r.unfit below 1").unwrap();
    assert!(c.check(&file()).unwrap().shows.contains("too noisy"));
}

#[test]
fn missing_keys_are_reported_missing() {
    marks(&[
        ("no.such < 1", Missing),
        ("r.less < no.such", Missing),
        ("nothing.* below 1", Missing),
        ("r.{less,nope} below 1", Missing),
    ]);
    let c = Claim::parse_text("no.such < 1").unwrap();
    assert!(c.check(&file()).unwrap().shows.contains("`no.such`"));
}

#[test]
fn every_one_of_these_keys() {
    marks(&[
        ("r.{less,same} < 1", Yes),
        ("r.{less,same} below 1", No),
        ("r.{less,more} citable", Yes),
        ("c.* == 7", No),
        ("c.* >= 7", Yes),
        ("r.* citable", No),
        ("r.{less,unfit} < 1", Open),
    ]);
    let c = Claim::parse_text("r.{less,same} below 1").unwrap();
    let shows = c.check(&file()).unwrap().shows;
    assert!(
        shows.contains("1 of 2 hold") && shows.contains("r.same"),
        "{shows}"
    );
    // `*` stays within one part of the key.
    assert_eq!(matching_keys("r*", &file()), Vec::<String>::new());
    assert_eq!(matching_keys("c.*", &file()), vec!["c.nine", "c.seven"]);
}

#[test]
fn malformed_claims_are_refused() {
    for (text, says) in [
        ("r.less ~ 1", "not a comparison"),
        ("r.less < x", "not a number"),
        ("r.less <", "needs a value"),
        ("r.less citable 1", "takes no value"),
        ("r.less", "KEY OP VALUE"),
    ] {
        let e = Claim::parse_text(text).unwrap_err();
        assert!(e.contains(says), "{text}: {e}");
    }
    // Display writes what parse reads.
    for text in ["a.b below 1", "a.* citable", "a.b > c.d"] {
        assert_eq!(Claim::parse_text(text).unwrap().to_string(), text);
    }
}

#[test]
fn the_verdict_rule() {
    let f = file();
    let d = |k: &str| direction(&f.figures[k], 1.0);
    assert_eq!(d("r.less"), Direction::Less);
    assert_eq!(d("r.more"), Direction::More);
    assert_eq!(d("r.same"), Direction::Same);
    assert_eq!(d("r.unfit"), Direction::Unfit);
    let words = |k: &str| verdict_words(&f.figures[k], "less time", "more time");
    assert_eq!(words("r.less"), "0.865× [0.864–0.871]: less time");
    assert_eq!(words("r.more"), "62.0× [61.2–62.7]: more time");
    assert_eq!(
        words("r.same"),
        "0.950× [0.910–1.01]: no measurable difference (the 95 % interval includes 1)"
    );
    assert!(words("r.unfit").starts_with("not citable"));
    // A bound next to 1 keeps the digits that show its side of 1.
    let near = fig(Unit::Ratio, 0.9378, 0.9356, 0.99991, Verdict::RatioOnly);
    assert_eq!(
        verdict_words(&near, "less", "more"),
        "0.938× [0.936–0.99991]: less"
    );
    // What a sentence expects, as a claim: holds exactly when the rule gives that direction.
    for key in ["r.less", "r.more", "r.same"] {
        for want in [Direction::Less, Direction::More, Direction::Same] {
            let check = want.claim(key).check(&f).unwrap();
            assert_eq!(check.mark == Mark::Holds, d(key) == want, "{key} {want:?}");
        }
    }
    assert_eq!(
        Direction::Less.claim("r.unfit").check(&f).unwrap().mark,
        Mark::Open
    );
    assert!(Direction::parse("faster").is_err());
}

/// Many `*`s match in pattern × text time (the backtracking match hung: found by fuzzing).
#[test]
fn many_stars_match_quickly() {
    let stars = "*".repeat(40);
    assert_eq!(
        matching_keys(&format!("c.{stars}"), &file()),
        vec!["c.nine", "c.seven"]
    );
    assert!(matching_keys(&format!("{stars}x"), &file()).is_empty());
    assert!(glob(b"a*b*c", b"axxbyyc") && !glob(b"a*c", b"a.c") && glob(b"*", b""));
}

/// `{a,b}` groups multiply: twenty of them are a million keys, each matched against every
/// figure; the pattern is refused past `MAX_ALTERNATIVES` (found by fuzzing: 42 bytes of a
/// chapter took seconds and gigabytes).
#[test]
fn too_many_alternatives_are_refused() {
    let digits = "{0,1,2,3,4,5,6,7,8,9}";
    let three = format!("c.x{}", digits.repeat(3));
    assert_eq!(
        expand_braces(&three).map(|a| a.len()),
        Some(MAX_ALTERNATIVES)
    );
    assert!(Claim::parse_text(&format!("{three} < 1")).is_ok());
    let four = format!("c.x{}", digits.repeat(4));
    assert_eq!(expand_braces(&four), None);
    let e = Claim::parse_text(&format!("{four} < 1")).unwrap_err();
    assert!(e.contains("too many keys") && e.contains(&four), "{e}");
    let many = format!("a{}", "{b,c}".repeat(40));
    assert!(Claim::parse_text(&format!("{many} below 1")).is_err());
    assert_eq!(matching_keys(&many, &file()), vec![many.clone()]);
    // A long chain of single alternatives is text to write, not keys: bounded too.
    let chain = "{x}".repeat(2000);
    assert!(Claim::parse_text(&format!("{chain} citable")).is_err());
    // The book's patterns.
    let ok = "rent_return.{16,1024,4096,16384,81920,1048576}.handle_checked_vs_handle";
    assert_eq!(expand_braces(ok).map(|a| a.len()), Some(6));
}

/// The quick refusals (dots, literal start and end, length) and the merged `*`s change no
/// answer: the same as a plain backtracking match on every short pattern and key.
#[test]
fn glob_is_the_plain_match() {
    fn plain(p: &[u8], t: &[u8]) -> bool {
        match p.split_first() {
            None => t.is_empty(),
            Some((b'*', rest)) => (0..=t.len())
                .take_while(|&i| i == 0 || t[i - 1] != b'.')
                .any(|i| plain(rest, &t[i..])),
            Some((c, rest)) => t.first() == Some(c) && plain(rest, &t[1..]),
        }
    }
    fn all(alphabet: &[u8], n: usize) -> Vec<Vec<u8>> {
        let mut out = vec![Vec::new()];
        let mut last = vec![Vec::new()];
        for _ in 0..n {
            last = last
                .iter()
                .flat_map(|w: &Vec<u8>| {
                    alphabet.iter().map(move |&c| [w.as_slice(), &[c]].concat())
                })
                .collect();
            out.extend(last.clone());
        }
        out
    }
    let texts = all(b"ab.", 5);
    for p in all(b"a.*", 5) {
        for t in &texts {
            assert_eq!(
                glob(&p, t),
                plain(&p, t),
                "{:?} on {:?}",
                String::from_utf8_lossy(&p),
                String::from_utf8_lossy(t)
            );
        }
    }
}

/// The band of practical equivalence: a measurable difference inside ±5 % reads "the same for
/// practice", and the interval is still shown.
#[test]
fn the_equivalence_band() {
    let r = |v, lo, hi| fig(Unit::Ratio, v, lo, hi, Verdict::RatioOnly);
    assert_eq!(direction(&r(0.982, 0.975, 0.99), 1.0), Direction::Same);
    assert_eq!(direction(&r(1.02, 1.01, 1.03), 1.0), Direction::Same);
    assert_eq!(direction(&r(0.94, 0.93, 0.99), 1.0), Direction::Less);
    assert_eq!(direction(&r(1.06, 1.01, 1.10), 1.0), Direction::More);
    // Outside the band but not measurable: the interval includes 1.
    assert_eq!(direction(&r(0.90, 0.80, 1.02), 1.0), Direction::Same);
    assert_eq!(
        verdict_words(&r(0.982, 0.975, 0.99), "less", "more"),
        "0.982× [0.975–0.990]: the same for practice (1.8 % less, inside the ±5 % band)"
    );
}

/// A claim holds only if it holds in every repetition.
#[test]
fn every_repetition_must_hold() {
    let mut f = file();
    let rep = |value: f64| crate::Repeat {
        value,
        low: value * 0.99,
        high: value * 1.01,
        cv: 0.01,
    };
    let less = f.figures.get_mut("r.less").unwrap();
    less.repeats = vec![rep(0.865), rep(0.87), rep(0.99)];
    let check = Claim::parse_text("r.less below 0.9")
        .unwrap()
        .check(&f)
        .unwrap();
    assert_eq!(check.mark, Mark::Contradicted);
    assert!(
        check.shows.starts_with("repetition 3 of 3"),
        "{}",
        check.shows
    );
    let check = Claim::parse_text("r.less below 1.1")
        .unwrap()
        .check(&f)
        .unwrap();
    assert_eq!(check.mark, Mark::Holds);
    assert!(
        check.shows.ends_with("(in all 3 repetitions)"),
        "{}",
        check.shows
    );
    // The verdict rule too: repetition 3 is inside the band.
    let check = Direction::Less.claim("r.less").check(&f).unwrap();
    assert_eq!(check.mark, Mark::Contradicted, "{}", check.shows);
}

/// `on=RUNTIME` hands the claim to that runtime's file of the primary's machine; a machine
/// without it leaves the claim open, and the option round-trips through `Display`.
#[test]
fn a_claim_on_a_runtime_is_decided_by_that_runtimes_file() {
    let primary = file();
    let mut wasm = file();
    wasm.run.runtime = "wasm32".into();
    let f = wasm.figures.get_mut("r.less").unwrap();
    (f.value, f.low, f.high) = (1.5, 1.4, 1.6);
    let mut other = wasm.clone();
    other.machine.id = "elsewhere-2c".into();
    let c = Claim::parse_text("r.less below 1 on=wasm32").unwrap();
    assert_eq!(c.runtime.as_deref(), Some("wasm32"));
    assert_eq!(c.to_string(), "r.less below 1 on=wasm32");
    assert_eq!(Claim::parse_text(&c.to_string()).unwrap(), c);
    let files = [primary.clone(), other.clone(), wasm.clone()];
    assert_eq!(
        c.check_among(&primary, &files).unwrap().mark,
        Mark::Contradicted
    );
    let plain = Claim::parse_text("r.less below 1").unwrap();
    assert_eq!(
        plain.check_among(&primary, &files).unwrap().mark,
        Mark::Holds
    );
    // Only another machine's wasm32 file: not this machine's evidence.
    let only_other = [primary.clone(), other];
    let missing = c.check_among(&primary, &only_other).unwrap();
    assert_eq!(missing.mark, Mark::Missing);
    assert!(missing.shows.contains("wasm32"), "{}", missing.shows);
    for bad in [
        "r.less below 1 on=",
        "r.less below 1 on=Wasm",
        "r.less below 1 on=a on=b",
    ] {
        assert!(Claim::parse_text(bad).is_err(), "{bad}");
    }
    let d = Direction::Same.claim("r.same").on(Some("wasm32"));
    assert_eq!(d.to_string(), "r.same same on=wasm32");
}

/// What the data shows reads in the page's language (the instructors' claims report): its
/// words from the catalog, its numbers with a decimal comma on a Russian page; English stays
/// as it was.
#[test]
fn what_the_data_shows_follows_the_pages_language() {
    use lab_text::tr;
    let shows = |claim: &str| {
        Claim::parse_text(claim)
            .unwrap()
            .check(&file())
            .unwrap()
            .shows
    };
    let english = [
        shows("r.less below 0.9"),
        shows("r.more < 2"),
        shows("r.{less,same} below 1"),
        shows("no.such < 1"),
    ];
    assert_eq!(
        english[0],
        "0.865× [0.864–0.871]: interval wholly below 0.9"
    );
    assert_eq!(english[1], "62.0× [61.2–62.7]: not < 2");
    tr::set_language("ru");
    let pairs: &[(&str, &str)] = &[
        ("interval wholly above {}", "интервал целиком выше {}"),
        ("interval wholly below {}", "интервал целиком ниже {}"),
        ("not {} {}", "не {} {}"),
        ("{} of {} hold; {}", "выполняются {} из {}; {}"),
        ("no figure `{}` on {}", "нет показателя `{}` на {}"),
    ];
    let entries: Vec<_> = pairs
        .iter()
        .map(|(en, ru)| (tr::key(en), vec![ru.to_string()]))
        .collect();
    tr::install_file(&tr::strings_file(&entries).unwrap());
    let russian = [
        shows("r.less below 0.9"),
        shows("r.more < 2"),
        shows("r.{less,same} below 1"),
        shows("no.such < 1"),
    ];
    tr::install_file("");
    tr::set_language("en");
    assert_eq!(
        russian[0],
        "0,865× [0,864–0,871]: интервал целиком ниже 0,9"
    );
    assert_eq!(russian[1], "62,0× [61,2–62,7]: не < 2");
    assert!(
        russian[2].starts_with("выполняются 1 из 2; r.same: "),
        "{}",
        russian[2]
    );
    assert!(
        russian[2].contains(": 0,950× [0,910–1,01]: "),
        "{}",
        russian[2]
    );
    assert_eq!(
        russian[3],
        format!("нет показателя `no.such` на {}", file().machine.id)
    );
    // English again, as before the Russian page.
    assert_eq!(english[0], shows("r.less below 0.9"));
}

/// `machines=any` and `machine=ID` round-trip through `Display`; a scope given twice, or a
/// machine named otherwise than ids are, is refused.
#[test]
fn a_claims_machines_parse_and_print() {
    for text in [
        "r.less below 1 machines=any",
        "r.less below 1 on=wasm32 machine=amd-zen3-2c",
    ] {
        let c = Claim::parse_text(text).unwrap();
        assert_eq!(c.to_string(), text);
    }
    assert_eq!(
        Claim::parse_text("r.less below 1 machines=every").unwrap(),
        Claim::parse_text("r.less below 1").unwrap()
    );
    for bad in [
        "r.less below 1 machines=some",
        "r.less below 1 machine=",
        "r.less below 1 machine=AMD",
        "r.less below 1 machines=any machine=x",
    ] {
        assert!(Claim::parse_text(bad).is_err(), "{bad}");
    }
}

/// The combination over machines: every (one contradiction breaks it, noise leaves it open),
/// any (one support is enough), a named machine (only it decides).
#[test]
fn a_claim_is_decided_on_the_machines_it_speaks_for() {
    let one = file();
    let mut two = file();
    two.machine.id = "other-2c".into();
    let f = two.figures.get_mut("r.less").unwrap();
    (f.value, f.low, f.high) = (1.2, 1.1, 1.3);
    let files = [one.clone(), two.clone()];
    let mark = |text: &str| {
        Claim::parse_text(text)
            .unwrap()
            .check_machines(&one, &files)
            .unwrap()
            .mark
    };
    assert_eq!(mark("r.less below 1"), Mark::Contradicted);
    assert_eq!(mark("r.less below 1 machines=any"), Mark::Holds);
    assert_eq!(mark("r.less below 1 machine=other-2c"), Mark::Contradicted);
    assert_eq!(mark("r.less below 1 machine=sample-2c-x"), Mark::Missing);
    assert_eq!(mark("r.less above 1 machines=any"), Mark::Holds);
    assert_eq!(mark("r.unfit < 1"), Mark::Open);
    // Alone, the primary decides as `check_among` does.
    let alone = Claim::parse_text("r.less below 1").unwrap();
    assert_eq!(
        alone
            .check_machines(&one, std::slice::from_ref(&one))
            .unwrap(),
        alone.check_among(&one, std::slice::from_ref(&one)).unwrap()
    );
    assert_eq!(machines(&one, &files).len(), 2);
}

//! The engine's rules, checked on every kind of every quiz with many fresh draws.

use super::*;

/// Whether `text` gives away `q`'s answer (long enough to tell, and not already in the prompt).
fn gives_away(q: &Question, text: &str) -> bool {
    let shown = q.solution.shown();
    shown.len() >= 3 && !q.prompt.contains(&shown) && text.contains(&shown)
}

/// `per_kind` fresh questions of every kind of every quiz, drawn from `seed` on the sample page.
pub(super) fn drawn(seed: u64, per_kind: usize) -> Vec<Question> {
    let page = Page::sample();
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for quiz in quizzes() {
        for &kind in quiz.kinds {
            for _ in 0..per_kind {
                out.push(kind.pose(&mut rng, &page).unwrap());
            }
        }
    }
    out
}

/// Every kind of every quiz: the lab's answer is accepted; each mistake is rejected with its own
/// hint that does not give the answer away; the second miss reveals it; parameters replay.
#[test]
fn every_kind_grades_with_the_lab() {
    let page = Page::sample();
    let mut rng = Rng::new(7);
    for quiz in quizzes() {
        assert!(
            quiz.kinds.len() >= 3,
            "{} has fewer than three questions",
            quiz.id
        );
        for &kind in quiz.kinds {
            assert_eq!(quiz.kind(kind.name()).map(|k| k.name()), Some(kind.name()));
            for _ in 0..50 {
                let q = kind.pose(&mut rng, &page).unwrap();
                assert!(q.accepts(&q.right_answer()), "{q:?}");
                assert!(q.solution.why.len() > 20, "{q:?}: {}", q.solution.why);
                assert_eq!(
                    kind.replay(&q.params, &page).unwrap().right_answer(),
                    q.right_answer()
                );
                if !q.solution.numeric {
                    assert!(q.options.len() >= 2, "{q:?}");
                    assert!(q.options.contains(&q.right_answer()));
                }
                let wrong = q.wrong_answer();
                assert!(!q.accepts(&wrong), "{q:?} accepted {wrong}");
                for m in &q.solution.mistakes {
                    assert!(
                        !q.accepts(&m.answer),
                        "{q:?} accepted the mistake {}",
                        m.answer
                    );
                    assert_eq!(q.solution.hint_for(&m.answer), m.hint);
                    let mut a = Attempt::new(q.clone());
                    let r = a.submit(&m.answer);
                    assert_eq!(r.tone, Tone::Hint, "{q:?}: {r:?}");
                    assert_eq!(r.record, Record::Attempt { correct: false });
                    assert!(!r.text.contains("The answer is"), "{r:?}");
                    assert!(
                        !gives_away(&q, &r.text),
                        "{q:?}: the hint gives it away: {}",
                        r.text
                    );
                }
                assert!(!q.solution.hint.is_empty() || !q.solution.numeric, "{q:?}");
            }
        }
    }
}

#[test]
fn misconceptions_have_their_own_hints() {
    for q in drawn(3, 1) {
        let hints: std::collections::BTreeSet<_> =
            q.solution.mistakes.iter().map(|m| &m.hint).collect();
        assert_eq!(hints.len(), q.solution.mistakes.len(), "{q:?}");
    }
}

#[test]
fn reveal_after_two_misses_and_not_before() {
    let page = Page::default();
    let q = crate::chapter::bucket_rounding::quiz::BufferLength
        .replay("1025", &page)
        .unwrap();
    let mut a = Attempt::new(q.clone());
    // Unreadable or empty input and repeated answers are not attempts.
    assert_eq!(a.submit("  ").record, Record::Nothing);
    let first = a.submit("1,025");
    assert_eq!(first.tone, Tone::Hint);
    assert!(first.text.contains("your request"), "{}", first.text);
    assert!(!first.text.contains("2,048"), "{}", first.text);
    let again = a.submit("1,025");
    assert_eq!((again.tone, again.record), (Tone::Note, Record::Nothing));
    let second = a.submit("0");
    assert_eq!(
        (second.tone, second.record),
        (Tone::Revealed, Record::MissAndReveal)
    );
    assert!(
        second.text.contains("The answer is 2,048"),
        "{}",
        second.text
    );
    assert_eq!(a.state, State::Revealed);
    assert_eq!(a.submit("2,048").record, Record::Nothing);

    let typed = crate::chapter::bucket_rounding::quiz::WastedBytes
        .replay("100", &page)
        .unwrap();
    let mut a = Attempt::new(typed.clone());
    let r = a.submit("abc");
    assert_eq!((r.tone, r.record), (Tone::Note, Record::Nothing));
    assert!(r.text.contains("could not be read"), "{}", r.text);
    let r = a.submit("28");
    assert_eq!(
        (r.tone, r.record),
        (Tone::Right, Record::Attempt { correct: true })
    );
    assert_eq!(
        a.submit("28").record,
        Record::Nothing,
        "a second click is not an attempt"
    );

    let mut a = Attempt::new(typed);
    let r = a.reveal();
    assert_eq!((r.tone, r.record), (Tone::Revealed, Record::Reveal));
    assert!(r.text.contains("28"));
    assert_eq!(a.reveal().record, Record::Nothing);
}

#[test]
fn options_are_shuffled() {
    let page = Page::default();
    let mut rng = Rng::new(11);
    let orders: std::collections::BTreeSet<Vec<String>> = (0..20)
        .map(|_| {
            let mut q = crate::chapter::bucket_rounding::quiz::BufferLength
                .pose(&mut rng, &page)
                .unwrap();
            // Same question every time: only the order may change.
            q = Question {
                options: {
                    let mut o = crate::chapter::bucket_rounding::quiz::BufferLength
                        .replay("5", &page)
                        .unwrap()
                        .options;
                    rng.shuffle(&mut o);
                    o
                },
                ..q
            };
            q.options
        })
        .collect();
    assert!(orders.len() > 1);
}

#[test]
fn draws_vary_and_stay_in_range() {
    let mut rng = Rng::new(1);
    let draws: Vec<u64> = (0..100).map(|_| rng.request()).collect();
    assert!(
        draws
            .iter()
            .all(|&n| (1..=(1 << 21) + (1 << 20) + 1).contains(&n))
    );
    let distinct: std::collections::BTreeSet<_> = draws.iter().collect();
    assert!(distinct.len() > 80);
}

#[test]
fn unknown_quiz_is_none() {
    assert!(quiz("no-such-quiz").is_none());
}

#[test]
fn data_kinds_need_their_figures() {
    let q = quiz("why-pool").unwrap();
    let kind = q.kind("less-time-1mib").unwrap();
    assert!(kind.pose(&mut Rng::new(1), &Page::default()).is_err());
}

/// "Which took less time" follows the ratio's interval and the gate, whatever the numbers are.
#[test]
fn less_time_follows_the_interval_and_the_gate() {
    let key = "rent_return.1048576.pool_write_vs_fresh_vec_write";
    let answer = |value: f64, low: f64, high: f64, gate: Gate| {
        let mut page = Page::sample();
        let f = page.figures.get_mut(key).unwrap();
        (f.value, f.low, f.high, f.gate) = (value, low, high, gate);
        let q = crate::chapter::why_pool::quiz::AT_1_MIB
            .pose(&mut Rng::new(5), &page)
            .unwrap();
        for m in &q.solution.mistakes {
            assert!(!q.accepts(&m.answer));
        }
        q.right_answer()
    };
    assert!(answer(0.5, 0.49, 0.51, Gate::RatioOnly).starts_with("renting"));
    assert!(answer(1.5, 1.4, 1.6, Gate::RatioOnly).starts_with("allocating"));
    assert_eq!(
        answer(1.0, 0.99, 1.01, Gate::RatioOnly),
        "no measurable difference"
    );
    assert!(answer(0.5, 0.1, 0.9, Gate::Unfit).contains("too noisy"));
}

/// The progress page's listing names every quiz, in order, with its kinds as [`quizzes`] has
/// them (on failure, the message is the listing to paste).
#[test]
fn the_listing_matches_the_quizzes() {
    let want: Vec<Listed> = quizzes()
        .map(|q| Listed {
            id: q.id,
            title: q.title,
            kinds: q.kinds.iter().map(|k| k.name()).collect::<Vec<_>>().leak(),
        })
        .collect();
    let paste: String = quizzes()
        .zip(&want)
        .map(|(q, l)| {
            let module = q.id.replace('-', "_");
            format!(
                "chapter/{module}/mod.rs: listed: Some(Listed::of(&quiz::QUIZ, &{:?})),\n",
                l.kinds
            )
        })
        .collect();
    assert_eq!(
        listing().collect::<Vec<_>>(),
        want.iter().collect::<Vec<_>>(),
        "\n{paste}"
    );
}

/// A revealed answer reads as written by a person: no phrase of three words (numbers and
/// arithmetic aside) comes back three times in it, as a template that pasted an option's label
/// into every clause did ("the same just below the 128 KiB threshold", three times).
#[test]
fn revealed_answers_do_not_repeat_themselves() {
    for q in drawn(11, 10) {
        let text = Attempt::new(q.clone()).reveal().text;
        let words: Vec<&str> = text.split_whitespace().collect();
        let mut seen = std::collections::BTreeMap::new();
        for w in words.windows(3) {
            if w.iter().all(|w| w.chars().any(char::is_alphabetic)) {
                *seen.entry(w.join(" ")).or_insert(0) += 1;
            }
        }
        let repeated: Vec<_> = seen.iter().filter(|&(_, &n)| n >= 3).collect();
        assert!(repeated.is_empty(), "{}: {repeated:?} in {text}", q.kind);
    }
}

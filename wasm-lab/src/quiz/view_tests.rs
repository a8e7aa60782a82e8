//! The question view and its one renderer, checked on every kind of every quiz, live and printed.

use super::html::{live_quiz, printed_quiz, question, revealed};
use super::view::{
    AnswerForm, COMPILES, FAILS, Mode, QuestionView, feedback_class, score, solved_mark,
};
use super::*;

/// Every question of every quiz, drawn a few times each (so every snippet and option set shows).
fn drawn() -> Vec<Question> {
    super::tests::drawn(21, 8)
}

/// The start tags of `html` named `tag` (`<input …>`), whole.
fn tags<'h>(html: &'h str, tag: &str) -> Vec<&'h str> {
    let open = format!("<{tag}");
    html.match_indices(&open)
        .filter(|(i, _)| {
            html[i + open.len()..]
                .chars()
                .next()
                .is_some_and(|c| c == ' ' || c == '>')
        })
        .map(|(i, _)| &html[i..i + html[i..].find('>').unwrap() + 1])
        .collect()
}

/// The content of the element whose start tag carries `attr` (no nested element of its name).
fn content<'h>(html: &'h str, tag: &str, attr: &str) -> &'h str {
    let at = html
        .find(attr)
        .unwrap_or_else(|| panic!("no {attr} in {html}"));
    let start = at + html[at..].find('>').unwrap() + 1;
    let end = start + html[start..].find(&format!("</{tag}>")).unwrap();
    &html[start..end]
}

#[test]
fn every_kind_renders_live_and_printed() {
    let mut forms = std::collections::BTreeSet::new();
    for (i, q) in drawn().iter().enumerate() {
        let id = format!("q{i}");
        for mode in [Mode::Live, Mode::Printed] {
            let v = QuestionView::new(q, i + 1, id.clone(), mode);
            forms.insert(format!("{:?}", v.form));
            let html = question(&v);
            let live = mode == Mode::Live;
            // The prompt carries the id, and starts with the question's number.
            let prompt = content(
                &html,
                if v.form == AnswerForm::Number {
                    "p"
                } else {
                    "legend"
                },
                "data-testid=\"prompt\"",
            );
            assert!(
                prompt.starts_with(&format!(
                    "<span class=\"lab-qnum\" aria-hidden=\"true\">{}.</span> ",
                    i + 1
                )),
                "{q:?}: {prompt}"
            );
            assert!(
                prompt.ends_with(&lab_text::html::escape(&q.prompt)),
                "{prompt}"
            );
            assert!(html.contains(&format!("data-testid=\"prompt\" id=\"{id}\"")));
            // Code is a highlighted block, after the prompt, inside the question.
            match &q.code {
                Some(c) => {
                    let code = content(&html, "code", "class=\"language-rust noplayground\"");
                    assert_eq!(code, lab_text::html::escape(c).replace('\n', "&#10;"));
                    // One line of HTML, whatever the code (see `html::question`).
                    assert!(!html.contains('\n'), "{html}");
                    assert!(html.contains("<pre class=\"lab-code\" data-testid=\"code\"><code"));
                    assert!(
                        html.find("data-testid=\"code\"") > html.find("data-testid=\"prompt\"")
                    );
                }
                None => assert!(!html.contains("<pre"), "{html}"),
            }
            let inputs = tags(&html, "input");
            match v.form {
                AnswerForm::Number => {
                    assert_eq!(inputs.len(), 1, "{html}");
                    assert!(
                        inputs[0].contains("type=\"text\"")
                            && inputs[0].contains("data-testid=\"answer\"")
                    );
                    assert!(inputs[0].contains(&format!("aria-labelledby=\"{id}\"")));
                    assert!(!html.contains("<fieldset"));
                }
                AnswerForm::Choice | AnswerForm::Compiles => {
                    // One radio per option, in the order shown, in a fieldset the prompt labels.
                    assert_eq!(inputs.len(), v.options.len(), "{html}");
                    assert!(v.options.len() >= 2);
                    assert!(v.options.contains(&q.right_answer().as_str()), "{q:?}");
                    for (input, o) in inputs.iter().zip(&v.options) {
                        assert!(input.contains("type=\"radio\""), "{input}");
                        assert!(input.contains(&format!("name=\"{id}\"")), "{input}");
                        assert!(
                            input.contains(&format!("value=\"{}\"", lab_text::html::escape(o))),
                            "{input}"
                        );
                    }
                    assert!(html.starts_with("<fieldset class=\"lab-fieldset\""));
                    assert!(html.contains("</legend>"));
                }
            }
            if v.form == AnswerForm::Compiles {
                assert_eq!(v.options, [COMPILES, FAILS]);
            }
            // Live: every input enabled, the buttons and the feedback line. Printed: nothing to
            // press, no input enabled, no feedback.
            for input in &inputs {
                assert_eq!(input.contains(" disabled"), !live, "{mode:?}: {input}");
            }
            let buttons: Vec<_> = tags(&html, "button")
                .iter()
                .map(|b| {
                    b.split("data-testid=\"")
                        .nth(1)
                        .unwrap()
                        .split('"')
                        .next()
                        .unwrap()
                })
                .collect();
            if live {
                assert_eq!(buttons, ["check", "reveal", "next"], "{html}");
                assert!(html.contains("data-testid=\"feedback\" aria-live=\"polite\""));
                assert!(html.contains("data-testid=\"solved-mark\" hidden"));
            } else {
                assert!(buttons.is_empty(), "{html}");
                assert!(!html.contains("feedback") && !html.contains("solved-mark"));
            }
            // Every element opened is closed.
            for tag in [
                "p", "div", "fieldset", "legend", "label", "pre", "code", "span",
            ] {
                assert_eq!(
                    tags(&html, tag).len(),
                    html.matches(&format!("</{tag}>")).count(),
                    "{tag} in {html}"
                );
            }
        }
    }
    // Every form the quizzes use today is drawn.
    assert_eq!(forms.len(), 3, "{forms:?}");
}

#[test]
fn the_form_follows_the_solution() {
    for q in drawn() {
        assert_eq!(
            q.solution.numeric,
            q.solution.form == AnswerForm::Number,
            "{q:?}"
        );
        if q.solution.form == AnswerForm::Compiles {
            assert!(q.code.is_some(), "{q:?}: a compile question without code");
        }
    }
    let compile = quiz("return-contract")
        .unwrap()
        .kind("does-it-compile")
        .unwrap()
        .pose(&mut Rng::new(2), &Page::sample())
        .unwrap();
    assert_eq!(compile.solution.form, AnswerForm::Compiles);
    let s = Solution::compiles(false, "moved", "look at the move");
    assert_eq!(
        (s.answer.as_str(), s.mistakes[0].answer.as_str()),
        (FAILS, COMPILES)
    );
}

#[test]
fn text_is_escaped_everywhere() {
    let evil = "<b>\"x\" & 'y'</b>";
    let options = [evil.to_string(), "plain".to_string()];
    let q = Question {
        kind: "evil",
        params: "{}".into(),
        prompt: evil.into(),
        code: Some(evil.into()),
        options: options.to_vec(),
        solution: Solution::choice(evil, evil).mistake("plain", evil),
    };
    for mode in [Mode::Live, Mode::Printed] {
        let html = question(&QuestionView::new(&q, 1, "e".into(), mode));
        assert!(!html.contains("<b>"), "{html}");
        assert!(!html.contains("\"x\""), "{html}");
    }
    assert!(!revealed(&q.solution).contains("<b>"));
    let shell = live_quiz(&["a\"b"], "<button>reset</button>");
    assert!(shell.contains("data-kind=\"a&quot;b\""), "{shell}");
    let printed = printed_quiz("id\"", evil, &[]);
    assert!(
        !printed.contains("<b>") && !printed.contains("id\""),
        "{printed}"
    );
}

#[test]
fn printed_quizzes_number_on_from_their_first_question() {
    let qs: Vec<Question> = drawn().into_iter().take(3).collect();
    let views: Vec<QuestionView> = qs
        .iter()
        .enumerate()
        .map(|(i, q)| QuestionView::new(q, 4 + i, format!("p{i}"), Mode::Printed))
        .collect();
    let html = printed_quiz("why-pool", "Why pool", &views);
    assert!(
        html.contains("<ol class=\"lab-questions\" start=\"4\">"),
        "{html}"
    );
    assert_eq!(html.matches("<li class=\"lab-question\">").count(), 3);
    for n in 4..7 {
        assert!(html.contains(&format!("lab-qnum\" aria-hidden=\"true\">{n}.</span>")));
    }
    assert!(html.contains("data-testid=\"quiz-print-why-pool\""));
    assert!(tags(&html, "input").iter().all(|i| i.contains(" disabled")));
}

#[test]
fn the_live_frame_holds_one_empty_item_per_kind() {
    let html = live_quiz(&["b", "a"], "<span>reset</span>");
    assert!(html.contains(
        "<li class=\"lab-question\" data-testid=\"question\" data-index=\"0\" data-kind=\"b\"></li>\
         <li class=\"lab-question\" data-testid=\"question\" data-index=\"1\" data-kind=\"a\"></li></ol>"
    ));
    for testid in ["quiz-score", "quiz-notice"] {
        assert!(html.contains(&format!("data-testid=\"{testid}\"")));
    }
    assert!(html.contains("<span>reset</span>"));
}

#[test]
fn feedback_marks_and_score_read_as_sentences() {
    assert_eq!(feedback_class(None), "lab-feedback");
    assert_eq!(
        feedback_class(Some(Tone::Right)),
        "lab-feedback lab-correct"
    );
    assert_eq!(feedback_class(Some(Tone::Hint)), "lab-feedback lab-hint");
    assert_eq!(
        feedback_class(Some(Tone::Revealed)),
        "lab-feedback lab-wrong"
    );
    assert_eq!(feedback_class(Some(Tone::Note)), "lab-feedback lab-note");
    assert_eq!(solved_mark(false, 0), "");
    assert!(solved_mark(true, 0).contains("solved this question before"));
    assert!(solved_mark(true, 2).contains("answer shown 2×"));
    assert_eq!(
        solved_mark(false, 1),
        "Answer shown 1× so far, not solved yet."
    );
    assert_eq!(
        score(0, 2, 0, 0),
        "Solved 0 of 2 · 0 attempts · 0 answers shown"
    );
    assert_eq!(
        score(1, 4, 1, 1),
        "Solved 1 of 4 · 1 attempt · 1 answer shown"
    );
}

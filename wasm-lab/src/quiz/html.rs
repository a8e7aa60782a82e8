//! The one renderer of quiz markup: a [`QuestionView`] as HTML, for the live quiz
//! (`web/quiz.rs`, [`Mode::Live`]) and the printed page (the preprocessor, [`Mode::Printed`]).
//!
//! The markup the tests and the stylesheet rely on: each question is an `li.lab-question` of an
//! `ol.lab-questions`; the prompt (`data-testid="prompt"`, the element [`QuestionView::id`] names)
//! starts with the question's number (`span.lab-qnum`, so the number sits with the prompt, not
//! beside the first option or the code); options are radios (`data-testid="choice"`) in a
//! `fieldset.lab-fieldset` whose legend is the prompt; a typed answer is `data-testid="answer"`,
//! labelled by the prompt; code is `pre.lab-code > code.language-rust`, which mdBook's
//! highlight.js colours (the live quiz asks it again for the code it inserts; `noplayground`
//! keeps mdBook from turning the printed block into a playground, which would drop `lab-code`
//! for its own `pre` class). Live questions
//! add the buttons (`check`, `reveal`, `next`), the feedback line (`feedback`, `aria-live`) and
//! the mark of earlier progress (`solved-mark`); printed ones have every input disabled.

use lab_text::f;
use lab_text::html::escape;

use super::Solution;
use super::view::{AnswerForm, Mode, QuestionView};

/// One question's markup (the content of its `li.lab-question`).
pub fn question(v: &QuestionView) -> String {
    let live = v.mode == Mode::Live;
    let disabled = if live { "" } else { " disabled" };
    let id = &v.id;
    let prompt = f!(
        "<span class=\"lab-qnum\" aria-hidden=\"true\">{}.</span> {}",
        v.number,
        escape(v.prompt)
    );
    let code = v.code.map_or(String::new(), |c| {
        f!(
            "<pre class=\"lab-code\" data-testid=\"code\"><code class=\"language-rust noplayground\">{}</code></pre>",
            // Newlines as references: the printed quiz is one line of HTML in a Markdown page,
            // where a blank line would end the HTML block and turn the rest into paragraphs.
            escape(c).replace('\n', "&#10;")
        )
    });
    let mut html = match v.form {
        AnswerForm::Number => f!(
            "<p class=\"lab-prompt\" data-testid=\"prompt\" id=\"{id}\">{prompt}</p>{code}\
             <div class=\"lab-answer\"><input type=\"text\" inputmode=\"numeric\" autocomplete=\"off\" \
             data-testid=\"answer\" aria-labelledby=\"{id}\"{disabled}>"
        ),
        AnswerForm::Choice | AnswerForm::Compiles => {
            let options: String = v
                .options
                .iter()
                .map(|o| {
                    // The two "does it compile" options and yes / no are the lab's words; the
                    // value a reader picks stays the English one the answer check compares.
                    let label = if v.form == AnswerForm::Compiles || matches!(*o, "yes" | "no") {
                        escape(&lab_text::tr::get_dynamic(o))
                    } else {
                        escape(o)
                    };
                    let o = escape(o);
                    f!(
                        "<label class=\"lab-choice\"><input type=\"radio\" name=\"{id}\" value=\"{o}\" \
                         data-testid=\"choice\"{disabled}> {label}</label>"
                    )
                })
                .collect();
            let row = if v.form == AnswerForm::Compiles {
                " lab-options-row"
            } else {
                ""
            };
            f!(
                "<fieldset class=\"lab-fieldset\"{disabled}><legend class=\"lab-prompt\" data-testid=\"prompt\" \
                 id=\"{id}\">{prompt}</legend>{code}<div class=\"lab-options{row}\">{options}</div></fieldset>{}",
                if live {
                    "<div class=\"lab-answer\">"
                } else {
                    ""
                }
            )
        }
    };
    if live {
        html.push_str(&f!(
            " <button type=\"button\" data-testid=\"check\">{}</button> \
             <button type=\"button\" data-testid=\"reveal\">{}</button> \
             <button type=\"button\" data-testid=\"next\">{}</button></div>\
             <p class=\"lab-feedback\" data-testid=\"feedback\" aria-live=\"polite\"></p>\
             <p class=\"lab-mark\" data-testid=\"solved-mark\" hidden></p>",
            escape(&lab_text::t!("Check")),
            escape(&lab_text::t!("Show answer")),
            escape(&lab_text::t!("New values"))
        ));
    } else if v.form == AnswerForm::Number {
        html.push_str("</div>");
    }
    html
}

/// The live quiz's frame: its head (score, `reset` — the reset control's markup), the notice
/// line and one empty `li.lab-question` per kind, in the order shown; [`question`] fills each.
pub fn live_quiz(kinds: &[&str], reset: &str) -> String {
    let mut html = f!(
        "<div class=\"lab-quiz-head\"><strong>{}</strong> \
         <span class=\"lab-score\" data-testid=\"quiz-score\" role=\"status\"></span> {reset}</div>\
         <p class=\"lab-notice\" data-testid=\"quiz-notice\" role=\"status\" hidden></p><ol class=\"lab-questions\">",
        escape(&lab_text::t!("Quiz"))
    );
    for (i, k) in kinds.iter().enumerate() {
        html.push_str(&f!(
            "<li class=\"lab-question\" data-testid=\"question\" data-index=\"{i}\" data-kind=\"{}\"></li>",
            escape(k)
        ));
    }
    html.push_str("</ol>");
    html
}

/// A quiz's printed form (hidden on screen, shown in print): its questions, numbered from the
/// first one's [`QuestionView::number`], each [`Mode::Printed`].
pub fn printed_quiz(id: &str, title: &str, questions: &[QuestionView]) -> String {
    let start = questions.first().map_or(1, |q| q.number);
    let items: String = questions
        .iter()
        .map(|q| f!("<li class=\"lab-question\">{}</li>", question(q)))
        .collect();
    f!(
        "<div class=\"lab-quiz-print\" data-testid=\"quiz-print-{}\"><p><strong>{}</strong> {}</p><ol class=\"lab-questions\" start=\"{start}\">{items}</ol></div>",
        escape(id),
        escape(&lab_text::tf!("Quiz: {}", lab_text::tr::get_dynamic(title))),
        escape(&lab_text::t!(
            "(printed with values drawn from a fixed seed; the live quiz draws fresh values on every attempt. The answers are at the end of the chapter.)"
        ))
    )
}

/// A question's answer as the printed page reveals it (in the chapter's key): the answer as the
/// reader would give it, and why.
pub fn revealed(s: &Solution) -> String {
    f!(
        "<strong>{}</strong>: {}",
        escape(&s.shown()),
        escape(&s.why)
    )
}

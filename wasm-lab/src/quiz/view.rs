//! A question as the page shows it, native and browser-free: the quizzes' view model, as
//! [`crate::view`] is the widgets'.
//!
//! A [`QuestionView`] is what one drawn [`Question`] looks like on the page: its number, prompt,
//! code, the [`AnswerForm`] the reader answers in, and the [`Mode`] it is shown in (the live quiz,
//! whose inputs are enabled and which answers with feedback, or the printed page, which is static
//! and leaves its answer to the chapter's key). [`super::html`] is the one renderer, used by the
//! live quiz (`web/quiz.rs`) and by the book's printed form (the preprocessor), so the two differ
//! only where their state does.
//!
//! A new answer form is one [`AnswerForm`] variant, its rendering in [`super::html::question`]
//! and, when it is graded differently, its case in [`super::Solution`]'s normalisation.

use super::{Question, Tone};

/// How the reader answers a question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnswerForm {
    /// A whole number, typed (`4096`, `4,096` and `4 KiB` all read; see [`crate::input`]).
    Number,
    /// One of the question's options, picked (the answer and the mistakes readers make, shuffled).
    Choice,
    /// Whether the question's code compiles: [`COMPILES`] or [`FAILS`], always in that order.
    Compiles,
}

/// The option of an [`AnswerForm::Compiles`] question for a program rustc accepts.
pub const COMPILES: &str = lab_text::n!("compiles");
/// The option of an [`AnswerForm::Compiles`] question for a program rustc refuses.
pub const FAILS: &str = lab_text::n!("does not compile");

/// Where a question is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The live quiz: inputs enabled, Check / Show answer / New values, a feedback line and the
    /// mark of earlier progress (both filled in as the reader answers).
    Live,
    /// The printed page: the same question with its inputs disabled and no buttons or feedback;
    /// its answer is in the chapter's key ([`super::html::revealed`]).
    Printed,
}

/// One question as the page shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuestionView<'a> {
    /// Its number on the page, from 1 (printed questions continue across a chapter's quizzes,
    /// as its answer key does).
    pub number: usize,
    /// The prompt's element id, unique on the page; the options' radio group is named by it and
    /// a typed answer is labelled by it.
    pub id: String,
    pub prompt: &'a str,
    /// Rust code the question is about, shown as a highlighted block under the prompt.
    pub code: Option<&'a str>,
    pub form: AnswerForm,
    /// The options to pick from, in the order shown (empty for [`AnswerForm::Number`]).
    pub options: Vec<&'a str>,
    pub mode: Mode,
}

impl<'a> QuestionView<'a> {
    /// Question `q` shown as number `number`, its prompt's element id `id`, in `mode`.
    pub fn new(q: &'a Question, number: usize, id: String, mode: Mode) -> QuestionView<'a> {
        let form = q.solution.form;
        let options = match form {
            AnswerForm::Number => Vec::new(),
            AnswerForm::Choice => q.options.iter().map(String::as_str).collect(),
            AnswerForm::Compiles => vec![COMPILES, FAILS],
        };
        QuestionView {
            number,
            id,
            prompt: &q.prompt,
            code: q.code.as_deref(),
            form,
            options,
            mode,
        }
    }
}

/// The class of the feedback line: plain before any response, then the response's tone.
pub fn feedback_class(tone: Option<Tone>) -> &'static str {
    match tone {
        None => "lab-feedback",
        Some(Tone::Right) => "lab-feedback lab-correct",
        Some(Tone::Hint) => "lab-feedback lab-hint",
        Some(Tone::Revealed) => "lab-feedback lab-wrong",
        Some(Tone::Note) => "lab-feedback lab-note",
    }
}

/// What stored progress says under a question (empty: nothing to say, the mark stays hidden).
pub fn solved_mark(solved: bool, revealed: u32) -> String {
    match (solved, revealed) {
        (true, 0) => {
            lab_text::t!("✔ You have solved this question before; new values are here to practise.")
                .into_owned()
        }
        (true, r) => lab_text::tf!(
            "✔ You have solved this question before (answer shown {}×).",
            r
        ),
        (false, 0) => String::new(),
        (false, r) => lab_text::tf!("Answer shown {}× so far, not solved yet.", r),
    }
}

/// The quiz's score line: `Solved 1 of 4 · 2 attempts · 1 answer shown`.
pub fn score(solved: u32, questions: usize, attempts: u32, revealed: u32) -> String {
    lab_text::tf!(
        "Solved {} of {} · {} · {}",
        solved,
        questions,
        lab_text::tp!(u64::from(attempts), "{} attempt", "{} attempts"),
        lab_text::tp!(u64::from(revealed), "{} answer shown", "{} answers shown")
    )
}

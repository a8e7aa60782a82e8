//! Live quizzes whose answers the lab computes: nothing here is an answer key.
//!
//! A question is a [`Kind`] plus freshly drawn, typed parameters (a request size, a partition
//! count, a snippet, a figure key, …). [`Kind::solve`] asks the lab (the pool, the calculator, the
//! chunker, the page's bench figures, rustc's verdicts captured at build time) for the answer,
//! the explanation, and the *mistakes readers make* with a hint aimed at each, so a wrong answer
//! gets help about that answer without giving the right one away.
//!
//! An [`Attempt`] applies the course's rules for feedback: unreadable input and repeated clicks
//! are not attempts, the first miss gets a hint, the second (or "Show answer") reveals the answer
//! and says why, and [`Record`] tells the page what to store in progress.
//!
//! This module is the engine; a chapter's quiz is `chapter/<name>/quiz.rs` and holds only the
//! [`Quiz`] constant and its kinds. The runs that compute the answers are the chapter's
//! `scenario.rs`, where its widget and the tests call them too (the bucket quiz asks
//! [`crate::calc`] directly).
//!
//! ```
//! use wasm_lab::chapter::bucket_rounding::quiz as bucket_rounding;
//! use wasm_lab::quiz::{Page, Rng, Ask};
//! let q = bucket_rounding::BucketIndex.replay("100", &Page::default()).unwrap();
//! assert!(q.accepts("3"));
//! assert!(!q.accepts(&q.wrong_answer()));
//! ```
//!
//! To add a quiz: `chapter/<name>/quiz.rs` with unit structs implementing [`Kind`] and a [`Quiz`]
//! constant, named in the chapter's [`Chapter`](crate::chapter::Chapter) (`quiz` and `listed`);
//! the book mounts it with `{{#lab-quiz NAME}}`.

use lab_text::{t, tf};
use std::fmt;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::input::parse_size;
use lab_text::group_digits;

pub mod data;
pub mod html;
mod page;
pub mod snippets;
pub mod view;

pub use page::{Compiled, Fig, Gate, Page};
pub use view::AnswerForm;

/// Every quiz this build can mount, in the book's order (a chapter's module has its own only).
pub fn quizzes() -> impl Iterator<Item = &'static Quiz> {
    use crate::chapter::{ANY_QUIZ, CHAPTERS};
    CHAPTERS[..if ANY_QUIZ { CHAPTERS.len() } else { 0 }]
        .iter()
        .filter_map(|c| c.quiz)
}

/// Every quiz in the book's order by id, title and question kinds, in every build: the progress
/// page lists all of them, while a chapter page's module carries only its own chapter's quiz
/// ([`quizzes`] follows the chapter features, see `Cargo.toml`). Ids and titles are read from the
/// quizzes' constants (no code comes with them); a test checks the kind names against [`quizzes`].
pub fn listing() -> impl Iterator<Item = &'static Listed> {
    crate::chapter::CHAPTERS
        .iter()
        .filter_map(|c| c.listed.as_ref())
}

/// A quiz as the progress page lists it.
#[derive(Debug, PartialEq)]
pub struct Listed {
    pub id: &'static str,
    pub title: &'static str,
    /// The names of its question kinds ([`Ask::name`]), as progress stores them.
    pub kinds: &'static [&'static str],
}

impl Listed {
    /// The listing of quiz `q` (its id and title, no code) with the names of its kinds.
    pub const fn of(q: &Quiz, kinds: &'static [&'static str]) -> Listed {
        Listed {
            id: q.id,
            title: q.title,
            kinds,
        }
    }
}

/// A quiz: an id (as in `{{#lab-quiz ID}}`), a title, its questions' kinds, and what the page
/// must carry for them (bench figures, rustc's verdicts on the snippets).
pub struct Quiz {
    pub id: &'static str,
    pub title: &'static str,
    pub kinds: &'static [&'static dyn Ask],
    /// Keys of `book/data` figures its data questions are graded from; the preprocessor puts
    /// them on the mount point (see [`Page`]).
    pub figures: &'static [&'static str],
    /// Whether its questions need rustc's verdict on [`snippets::SNIPPETS`].
    pub snippets: bool,
}

/// The quiz with this id.
pub fn quiz(id: &str) -> Option<&'static Quiz> {
    quizzes().find(|q| q.id == id)
}

impl Quiz {
    /// The question kind of this quiz with this name (`data-kind` in the page).
    pub fn kind(&self, name: &str) -> Option<&'static dyn Ask> {
        self.kinds.iter().copied().find(|k| k.name() == name)
    }
}

/// What a question asks. Implementations compute every answer with the lab.
pub trait Kind: Sync {
    /// The values one question is about, kept on the page (`data-params`) so a test can replay it.
    type Params: Serialize + DeserializeOwned;

    /// Stable name used in the page (`data-kind`) and in saved progress.
    fn name(&self) -> &'static str;

    /// Fresh values to ask about; fails only when the page lacks what the kind needs.
    fn draw(&self, rng: &mut Rng, page: &Page) -> Result<Self::Params, String>;

    /// The question, for these values.
    fn prompt(&self, p: &Self::Params) -> String;

    /// A code snippet shown under the prompt, if the question is about code.
    fn code(&self, _p: &Self::Params) -> Option<String> {
        None
    }

    /// The lab's answer, why, and the mistakes readers make (each with its own hint).
    fn solve(&self, p: &Self::Params, page: &Page) -> Result<Solution, String>;
}

/// A [`Kind`] with its parameter type erased, so a quiz can list kinds of different types.
pub trait Ask: Sync {
    fn name(&self) -> &'static str;
    /// A fresh question, its options shuffled.
    fn pose(&self, rng: &mut Rng, page: &Page) -> Result<Question, String>;
    /// The question for parameters read back from a page (`data-params`), options unshuffled.
    /// For tests and the preprocessor: the wasm build the book ships leaves it out (about 45 KB of
    /// deserializers), unless built with the `replay` feature as the browser tests are.
    #[cfg(any(not(target_arch = "wasm32"), feature = "replay"))]
    fn replay(&self, params: &str, page: &Page) -> Result<Question, String>;
}

impl<K: Kind> Ask for K {
    fn name(&self) -> &'static str {
        Kind::name(self)
    }

    fn pose(&self, rng: &mut Rng, page: &Page) -> Result<Question, String> {
        let p = self.draw(rng, page)?;
        let mut q = posed(self, &p, page)?;
        rng.shuffle(&mut q.options);
        Ok(q)
    }

    #[cfg(any(not(target_arch = "wasm32"), feature = "replay"))]
    fn replay(&self, params: &str, page: &Page) -> Result<Question, String> {
        let p: K::Params = serde_json::from_str(params)
            .map_err(|e| format!("unreadable parameters for {}: {e}", Kind::name(self)))?;
        posed(self, &p, page)
    }
}

fn posed<K: Kind>(kind: &K, p: &K::Params, page: &Page) -> Result<Question, String> {
    let solution = kind.solve(p, page)?;
    let options = if solution.numeric {
        Vec::new()
    } else {
        std::iter::once(solution.answer.clone())
            .chain(solution.mistakes.iter().map(|m| m.answer.clone()))
            .collect()
    };
    Ok(Question {
        kind: Kind::name(kind),
        // `crate::json`'s writer rather than `serde_json`, which the shipped wasm leaves out: the
        // same text (`replay` reads it with `serde_json`), and a serializer per kind that is a
        // fraction of `serde_json`'s.
        params: lab_text::json::to_string(p).map_err(|e| e.to_string())?,
        prompt: kind.prompt(p),
        code: kind.code(p),
        options,
        solution,
    })
}

/// A wrong answer readers give, and the hint it gets (which never states the right answer).
#[derive(Clone, Debug, PartialEq)]
pub struct Mistake {
    pub answer: String,
    pub hint: String,
}

/// The lab's answer to one question.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// As the reader types it (digits) or picks it (the option's label).
    pub answer: String,
    /// How the reader answers: typed as a number, or picked from options (the answer and the
    /// mistakes).
    pub form: AnswerForm,
    /// Whether the answer is typed as a number (`form` is [`AnswerForm::Number`]): how it is read
    /// and compared.
    pub numeric: bool,
    /// Why the answer is what it is; shown once solved or revealed.
    pub why: String,
    /// Hint for a wrong answer that is none of the known mistakes.
    pub hint: String,
    pub mistakes: Vec<Mistake>,
}

impl Solution {
    /// A number to type.
    pub fn number(n: u64, why: impl Into<String>) -> Solution {
        Solution {
            answer: n.to_string(),
            form: AnswerForm::Number,
            numeric: true,
            why: why.into(),
            hint: "Work it through again with the chapter's rule".into(),
            mistakes: Vec::new(),
        }
    }

    /// An option to pick; add the wrong options with [`Solution::mistake`].
    pub fn choice(right: impl Into<String>, why: impl Into<String>) -> Solution {
        Solution {
            answer: right.into(),
            form: AnswerForm::Choice,
            numeric: false,
            why: why.into(),
            hint: String::new(),
            mistakes: Vec::new(),
        }
    }

    /// "yes" or "no", with the hint the other option gets.
    pub fn yes_no(yes: bool, why: impl Into<String>, hint: impl Into<String>) -> Solution {
        let (right, wrong) = if yes { ("yes", "no") } else { ("no", "yes") };
        Solution::choice(right, why).mistake(wrong, hint)
    }

    /// Whether the question's code compiles ([`view::COMPILES`] or [`view::FAILS`]), with the
    /// hint the other answer gets.
    pub fn compiles(compiles: bool, why: impl Into<String>, hint: impl Into<String>) -> Solution {
        let (right, wrong) = if compiles {
            (view::COMPILES, view::FAILS)
        } else {
            (view::FAILS, view::COMPILES)
        };
        Solution {
            form: AnswerForm::Compiles,
            ..Solution::choice(right, why)
        }
        .mistake(wrong, hint)
    }

    /// The hint for wrong answers that are none of the known mistakes.
    pub fn hint(mut self, hint: impl Into<String>) -> Solution {
        self.hint = hint.into();
        self
    }

    /// A mistake readers make; ignored when it equals the answer or an earlier mistake (a
    /// computed misconception can coincide with the truth for some values).
    pub fn mistake(mut self, answer: impl ToString, hint: impl Into<String>) -> Solution {
        let answer = answer.to_string();
        let same = |a: &str| self.normalize(a) == self.normalize(&answer);
        if !same(&self.answer.clone()) && !self.mistakes.iter().any(|m| same(&m.answer)) {
            self.mistakes.push(Mistake {
                answer,
                hint: hint.into(),
            });
        }
        self
    }

    /// The answer as the reader sees it (numbers grouped: `2,048`).
    pub fn shown(&self) -> String {
        if self.numeric {
            self.answer
                .parse::<u64>()
                .map_or(self.answer.clone(), group_digits)
        } else {
            self.answer.clone()
        }
    }

    fn normalize(&self, answer: &str) -> Option<String> {
        if self.numeric {
            parse_size(answer).ok().map(|n| n.to_string())
        } else {
            Some(answer.trim().to_ascii_lowercase())
        }
    }

    /// Whether `answer` is this answer (numbers read as the reader types them: `2,048`).
    pub fn is_answer(&self, answer: &str) -> bool {
        let given = self.normalize(answer);
        given.is_some() && given == self.normalize(&self.answer)
    }

    /// The known mistake `answer` is, if it is one.
    pub fn mistake_for(&self, answer: &str) -> Option<&Mistake> {
        let given = self.normalize(answer)?;
        self.mistakes
            .iter()
            .find(|m| self.normalize(&m.answer).as_ref() == Some(&given))
    }

    /// The hint a wrong answer gets: its mistake's own, or the general one.
    pub fn hint_for(&self, answer: &str) -> &str {
        let given = self.normalize(answer);
        self.mistakes
            .iter()
            .find(|m| self.normalize(&m.answer) == given)
            .map_or(self.hint.as_str(), |m| m.hint.as_str())
    }
}

/// One drawn question: everything the page shows and grades, computed when it was drawn.
#[derive(Clone, PartialEq)]
pub struct Question {
    /// The kind's name.
    pub kind: &'static str,
    /// The drawn parameters as JSON, to replay the question ([`Ask::replay`]).
    pub params: String,
    pub prompt: String,
    pub code: Option<String>,
    /// The options to pick from, in the order shown; empty when the answer is typed.
    pub options: Vec<String>,
    pub solution: Solution,
}

impl fmt::Debug for Question {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Question({} {}: {:?})",
            self.kind, self.params, self.prompt
        )
    }
}

impl Question {
    /// The lab's answer, as the reader types or picks it.
    pub fn right_answer(&self) -> String {
        self.solution.answer.clone()
    }

    /// A wrong answer, for tests: the first known mistake, else the next number.
    /// (The one place tests derive a wrong answer.)
    pub fn wrong_answer(&self) -> String {
        if let Some(m) = self.solution.mistakes.first() {
            return m.answer.clone();
        }
        let n: u64 = self.solution.answer.parse().unwrap_or(0);
        n.wrapping_add(1).to_string()
    }

    /// Whether `answer` is the lab's answer.
    pub fn accepts(&self, answer: &str) -> bool {
        let s = &self.solution;
        s.normalize(answer).is_some() && s.normalize(answer) == s.normalize(&s.answer)
    }
}

/// What the page should store after a response.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Record {
    /// Nothing: the input was not an attempt.
    Nothing,
    /// One attempt, right or wrong.
    Attempt { correct: bool },
    /// A wrong attempt that revealed the answer.
    MissAndReveal,
    /// The reader asked for the answer.
    Reveal,
}

/// How a response looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    Right,
    Hint,
    Revealed,
    /// Not an attempt (unreadable, empty, repeated, already answered).
    Note,
}

/// The page's reply to one check or reveal.
#[derive(Clone, Debug, PartialEq)]
pub struct Response {
    pub tone: Tone,
    pub text: String,
    pub record: Record,
}

/// Where a question stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    Open,
    Solved,
    Revealed,
}

/// A reader working on one drawn question: the misses so far and whether it is settled.
#[derive(Clone, Debug)]
pub struct Attempt {
    pub question: Question,
    misses: Vec<Option<String>>,
    pub state: State,
}

impl Attempt {
    pub fn new(question: Question) -> Attempt {
        Attempt {
            question,
            misses: Vec::new(),
            state: State::Open,
        }
    }

    /// Grades `answer`: the first miss gets a hint aimed at it, the second reveals the answer.
    pub fn submit(&mut self, answer: &str) -> Response {
        let note = |text: String| Response {
            tone: Tone::Note,
            text,
            record: Record::Nothing,
        };
        let s = &self.question.solution;
        if self.state != State::Open {
            return note(t!("Already answered: draw new values for another try.").into_owned());
        }
        if answer.trim().is_empty() {
            return note(t!("Type or pick an answer first.").into_owned());
        }
        if s.numeric
            && let Err(e) = parse_size(answer)
        {
            return note(tf!(
                "Your answer could not be read ({}): type a whole number, such as {}. It does not count as an attempt.",
                e,
                lab_text::group_digits(4096)
            ));
        }
        let given = s.normalize(answer);
        if self.misses.contains(&given) {
            return note(tf!(
                "You already tried that: {} Try another answer, or use Show answer.",
                sentence(s.hint_for(answer))
            ));
        }
        if self.question.accepts(answer) {
            self.state = State::Solved;
            return Response {
                tone: Tone::Right,
                text: tf!("✔ Correct. {}", sentence(&s.why)),
                record: Record::Attempt { correct: true },
            };
        }
        self.misses.push(given);
        if self.misses.len() < 2 {
            return Response {
                tone: Tone::Hint,
                text: tf!(
                    "✘ Not quite. {} Try again, or use Show answer.",
                    sentence(s.hint_for(answer))
                ),
                record: Record::Attempt { correct: false },
            };
        }
        self.state = State::Revealed;
        Response {
            tone: Tone::Revealed,
            text: tf!(
                "✘ Not quite. {} The answer is {}: {}",
                sentence(s.hint_for(answer)),
                s.shown(),
                sentence(&s.why)
            ),
            record: Record::MissAndReveal,
        }
    }

    /// Shows the answer on request.
    pub fn reveal(&mut self) -> Response {
        if self.state != State::Open {
            return Response {
                tone: Tone::Note,
                text: t!("Already answered: draw new values for another try.").into_owned(),
                record: Record::Nothing,
            };
        }
        self.state = State::Revealed;
        let s = &self.question.solution;
        Response {
            tone: Tone::Revealed,
            text: tf!("The answer is {}: {}", s.shown(), sentence(&s.why)),
            record: Record::Reveal,
        }
    }
}

/// `text` ending in a full stop (explanations are written without one).
fn sentence(text: &str) -> String {
    let t = text.trim_end();
    if t.ends_with(['.', '!', '?', ')', '”']) {
        t.to_string()
    } else {
        format!("{t}.")
    }
}

/// "yes" or "no".
pub fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

/// A small deterministic generator (SplitMix64), seeded by the page, so quizzes need no crate
/// and tests can replay any draw.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A value in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    /// One of `items` (which must not be empty).
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }

    /// Shuffles `items` in place (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }

    /// A request size worth asking about: near a power of two, or anywhere up to 2^21.
    pub fn request(&mut self) -> u64 {
        let power = 1u64 << (4 + self.below(17));
        match self.below(4) {
            0 => power + 1,
            1 => power - 1 - self.below(power / 4),
            2 => power + 1 + self.below(power / 2),
            _ => 1 + self.below(1 << 21),
        }
    }
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod view_tests;

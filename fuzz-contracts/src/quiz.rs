//! Each quiz kind's answer check, fed any answers.

use std::sync::LazyLock;

use wasm_lab::quiz::{Attempt, Page, Quiz, Record, Rng, State, Tone, quizzes};

use crate::text;

/// The page data the quizzes draw from (`Page::sample`: every quiz's figures), made once.
static PAGE: LazyLock<Page> = LazyLock::new(Page::sample);

/// The first byte picks a quiz, the second one of its kinds, the next eight seed the draw; the
/// rest is the reader's answers, separated by NUL. The lab's own answer is accepted; the answer
/// check follows the feedback rules (`quiz::Attempt`): an unreadable, empty or repeated answer
/// is no attempt, the first miss gets a hint, the second reveals, a settled question takes no
/// more; replayed from its parameters, the question is the same.
pub fn quiz(data: &[u8]) {
    let [q, k, seed @ ..] = data else { return };
    let all: Vec<&Quiz> = quizzes().collect();
    let quiz = all[usize::from(*q) % all.len()];
    let kind = quiz.kinds[usize::from(*k) % quiz.kinds.len()];
    let (seed, answers) = seed.split_at(seed.len().min(8));
    let mut bytes = [0u8; 8];
    bytes[..seed.len()].copy_from_slice(seed);
    let page = &*PAGE;
    let question = kind
        .pose(&mut Rng::new(u64::from_le_bytes(bytes)), page)
        .unwrap_or_else(|e| panic!("{}/{}: {e}", quiz.id, kind.name()));
    assert!(question.accepts(&question.right_answer()), "{question:?}");
    assert!(!question.accepts(&question.wrong_answer()), "{question:?}");

    let replayed = kind
        .replay(&question.params, page)
        .unwrap_or_else(|e| panic!("{question:?}: {e}"));
    assert_eq!(replayed.solution, question.solution, "{question:?}");
    assert_eq!(replayed.prompt, question.prompt, "{question:?}");

    let mut attempt = Attempt::new(question.clone());
    let mut misses = 0;
    let answers = text(answers);
    for answer in answers.split('\0') {
        let before = attempt.state;
        let accepted = question.accepts(answer);
        let r = attempt.submit(answer);
        assert!(!r.text.is_empty(), "{answer:?}");
        match r.record {
            Record::Nothing => {
                assert_eq!(r.tone, Tone::Note, "{answer:?}");
                assert_eq!(attempt.state, before, "{answer:?}");
                assert!(
                    before != State::Open || !accepted,
                    "{answer:?}: right yet ignored"
                );
            }
            Record::Attempt { correct: true } => {
                assert!(before == State::Open && accepted, "{answer:?}");
                assert_eq!((r.tone, attempt.state), (Tone::Right, State::Solved));
            }
            Record::Attempt { correct: false } => {
                misses += 1;
                assert!(
                    before == State::Open && !accepted && misses == 1,
                    "{answer:?}"
                );
                assert_eq!((r.tone, attempt.state), (Tone::Hint, State::Open));
            }
            Record::MissAndReveal => {
                misses += 1;
                assert!(
                    before == State::Open && !accepted && misses == 2,
                    "{answer:?}"
                );
                assert_eq!((r.tone, attempt.state), (Tone::Revealed, State::Revealed));
            }
            Record::Reveal => panic!("{answer:?}: submit never reveals on request"),
        }
    }
    let r = attempt.reveal();
    match attempt.state {
        State::Revealed if r.record == Record::Reveal => assert_eq!(r.tone, Tone::Revealed),
        _ => assert_eq!(r.record, Record::Nothing),
    }
}

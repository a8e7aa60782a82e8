//! The live quiz widget: fresh values and a fresh order on each load, graded by [`crate::quiz`].
//!
//! The questions' order and each question's options are shuffled; the rules for feedback (hint
//! first, answer after a second miss or on "Show answer", unreadable input and repeated clicks
//! not counted) are [`Attempt`]'s, so they are tested natively. Clicks and keys are handled by
//! one listener per quiz (event delegation), so redrawing a question needs no new listeners.
//! The markup is [`crate::quiz::html`]'s, the renderer the printed page uses too: this module
//! only puts it in the page, updates the feedback line and the marks, and asks highlight.js to
//! colour a question's code.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use lab_text::{t, tf};
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlInputElement};

use super::dom;
use super::progress::{Store, confirm_html, wire_confirm};
use crate::quiz::view::{self, Mode, QuestionView};
use crate::quiz::{self, Ask, Attempt, Page, Record, Rng, State, html};

thread_local! {
    /// Numbers mounts, so element ids stay unique when a page has several quizzes.
    static MOUNTS: Cell<u32> = const { Cell::new(0) };
}

/// One question on the page: its kind and where the reader stands.
struct Slot {
    kind: &'static dyn Ask,
    attempt: Option<Attempt>,
}

/// Everything a mounted quiz needs in its event handlers.
struct Quiz {
    id: String,
    prefix: String,
    root: Element,
    rng: Rng,
    page: Page,
    store: Store,
    slots: Vec<Slot>,
}

pub fn mount(root: &Element) -> Result<(), String> {
    let id = root
        .get_attribute("data-lab-quiz")
        .ok_or_else(|| t!("mount point without a quiz id").into_owned())?;
    let spec =
        quiz::quiz(&id).ok_or_else(|| tf!("this version of the lab has no quiz “{}”", id))?;
    let page = Page::from_json(&root.get_attribute("data-page").unwrap_or_default())?;
    let seed =
        (js_sys::Math::random() * 9_007_199_254_740_992.0) as u64 ^ js_sys::Date::now() as u64;
    let mut rng = Rng::new(seed);
    let mut kinds: Vec<&'static dyn Ask> = match root.get_attribute("data-kinds") {
        Some(names) => names
            .split(',')
            .map(|n| {
                spec.kind(n.trim())
                    .ok_or_else(|| tf!("the quiz “{}” has no question “{}”", id, n))
            })
            .collect::<Result<_, _>>()?,
        None => spec.kinds.to_vec(),
    };
    rng.shuffle(&mut kinds);
    let n = MOUNTS.with(|m| {
        m.set(m.get() + 1);
        m.get()
    });
    let prefix = format!("lab-quiz-{n}");

    let names: Vec<&str> = kinds.iter().map(|k| k.name()).collect();
    let reset = confirm_html(
        "quiz-reset",
        &t!("Reset my progress"),
        &t!("Forget your answers to this quiz?"),
    );
    root.set_inner_html(&html::live_quiz(&names, &reset));
    dom::keep_keys(root)?;

    let (store, notice) = Store::open();
    let state = Rc::new(RefCell::new(Quiz {
        // A short check keeps its own record (`progress::record_key`).
        id: crate::progress::record_key(&id, root.get_attribute("data-kinds").is_some()),
        prefix,
        root: root.clone(),
        rng,
        page,
        store,
        slots: kinds
            .into_iter()
            .map(|kind| Slot {
                kind,
                attempt: None,
            })
            .collect(),
    }));
    if let Some(notice) = notice {
        let el = dom::find(root, "quiz-notice")?;
        el.set_text_content(Some(&notice));
        dom::set_hidden(&el, false);
    }
    {
        let mut q = state.borrow_mut();
        for i in 0..q.slots.len() {
            q.draw(i)?;
        }
        q.show_score();
    }

    let s = state.clone();
    dom::on(root, "click", move |e| {
        let Some(target) = e.target().and_then(|t| t.dyn_into::<Element>().ok()) else {
            return;
        };
        let Ok(Some(button)) = target.closest("button[data-testid]") else {
            return;
        };
        let Ok(Some(item)) = button.closest("li.lab-question") else {
            return;
        };
        let action: fn(&mut Quiz, usize) -> Result<(), String> =
            match button.get_attribute("data-testid").as_deref() {
                Some("check") => Quiz::check,
                Some("reveal") => Quiz::reveal,
                Some("next") => Quiz::draw,
                _ => return,
            };
        act(&s, &item, action);
    })?;
    // Enter in a typed answer checks it, as a reader expects.
    let s = state.clone();
    dom::on(root, "keydown", move |e| {
        let enter = e
            .dyn_ref::<web_sys::KeyboardEvent>()
            .is_some_and(|k| k.key() == "Enter");
        let Some(target) = e
            .target()
            .and_then(|t| t.dyn_into::<HtmlInputElement>().ok())
        else {
            return;
        };
        if !enter || target.type_() != "text" {
            return;
        }
        if let Ok(Some(item)) = target.closest("li.lab-question") {
            e.prevent_default();
            act(&s, &item, Quiz::check);
        }
    })?;
    let s = state.clone();
    wire_confirm(root, "quiz-reset", move || {
        let mut q = s.borrow_mut();
        let id = q.id.clone();
        q.store.update(|p| p.reset(&id));
        for i in 0..q.slots.len() {
            let _ = q.mark(i);
        }
        q.show_score();
    })?;
    Ok(())
}

/// Runs `action` on the question `item`; a failure replaces that question with its message.
fn act(
    state: &Rc<RefCell<Quiz>>,
    item: &Element,
    action: fn(&mut Quiz, usize) -> Result<(), String>,
) {
    let Some(i) = item
        .get_attribute("data-index")
        .and_then(|i| i.parse::<usize>().ok())
    else {
        return;
    };
    if let Err(message) = action(&mut state.borrow_mut(), i) {
        dom::show_failure(item, &message);
    }
}

/// Asks mdBook's highlight.js, when the page has it, to colour the code of a question just drawn
/// (mdBook highlights the code that is on the page when it loads, not what the lab inserts).
fn highlight(item: &Element) {
    let Ok(Some(code)) = item.query_selector("pre.lab-code > code") else {
        return;
    };
    let Ok(hljs) = js_sys::Reflect::get(&js_sys::global(), &"hljs".into()) else {
        return;
    };
    // `highlightElement` from highlight.js 10.7, `highlightBlock` before (mdBook ships 10.1).
    for name in ["highlightElement", "highlightBlock"] {
        if let Ok(f) = js_sys::Reflect::get(&hljs, &name.into())
            && let Some(f) = f.dyn_ref::<js_sys::Function>()
        {
            let _ = f.call1(&hljs, &code);
            return;
        }
    }
}

impl Quiz {
    fn item(&self, i: usize) -> Result<Element, String> {
        self.root
            .query_selector(&format!("li.lab-question[data-index=\"{i}\"]"))
            .map_err(|e| dom::describe(&e))?
            .ok_or_else(|| t!("a question vanished from the page").into_owned())
    }

    /// Draws fresh values for question `i` and shows it.
    fn draw(&mut self, i: usize) -> Result<(), String> {
        let item = self.item(i)?;
        let q = self.slots[i].kind.pose(&mut self.rng, &self.page)?;
        let _ = item.set_attribute("data-params", &q.params);
        let id = lab_text::f!("{}-q{i}", self.prefix);
        item.set_inner_html(&html::question(&QuestionView::new(
            &q,
            i + 1,
            id,
            Mode::Live,
        )));
        highlight(&item);
        self.slots[i].attempt = Some(Attempt::new(q));
        self.mark(i)
    }

    /// Shows what the stored progress says about question `i` (solved before, answer shown).
    fn mark(&self, i: usize) -> Result<(), String> {
        let item = self.item(i)?;
        let mark = dom::find(&item, "solved-mark")?;
        let t = self
            .store
            .current()
            .tally(&self.id, self.slots[i].kind.name());
        let text = view::solved_mark(t.solved(), t.revealed);
        let _ = item.set_attribute("data-solved", if t.solved() { "true" } else { "false" });
        mark.set_text_content(Some(&text));
        dom::set_hidden(&mark, text.is_empty());
        Ok(())
    }

    fn answer(item: &Element) -> Result<String, String> {
        if let Ok(input) = dom::input(item, "answer") {
            return Ok(input.value());
        }
        let picked = item
            .query_selector("input[type=radio]:checked")
            .map_err(|e| dom::describe(&e))?
            .and_then(|el| el.dyn_into::<HtmlInputElement>().ok());
        Ok(picked.map(|r| r.value()).unwrap_or_default())
    }

    fn check(&mut self, i: usize) -> Result<(), String> {
        let item = self.item(i)?;
        let given = Quiz::answer(&item)?;
        let attempt = self.slots[i]
            .attempt
            .as_mut()
            .ok_or_else(|| t!("no question drawn").into_owned())?;
        let response = attempt.submit(&given);
        self.respond(i, &item, response)
    }

    fn reveal(&mut self, i: usize) -> Result<(), String> {
        let item = self.item(i)?;
        let attempt = self.slots[i]
            .attempt
            .as_mut()
            .ok_or_else(|| t!("no question drawn").into_owned())?;
        let response = attempt.reveal();
        self.respond(i, &item, response)
    }

    fn respond(&mut self, i: usize, item: &Element, r: quiz::Response) -> Result<(), String> {
        let feedback = dom::find(item, "feedback")?;
        feedback.set_class_name(view::feedback_class(Some(r.tone)));
        feedback.set_text_content(Some(&r.text));
        let (quiz, kind) = (self.id.clone(), self.slots[i].kind.name());
        match r.record {
            Record::Nothing => {}
            Record::Attempt { correct } => self.store.update(|p| p.record(&quiz, kind, correct)),
            Record::MissAndReveal => self.store.update(|p| {
                p.record(&quiz, kind, false);
                p.reveal(&quiz, kind);
            }),
            Record::Reveal => self.store.update(|p| p.reveal(&quiz, kind)),
        }
        let settled = self.slots[i]
            .attempt
            .as_ref()
            .is_some_and(|a| a.state != State::Open);
        let _ = item.set_attribute("data-state", if settled { "settled" } else { "open" });
        self.mark(i)?;
        self.show_score();
        Ok(())
    }

    fn show_score(&self) {
        let (mut solved, mut attempts, mut revealed) = (0, 0, 0);
        for s in &self.slots {
            let t = self.store.current().tally(&self.id, s.kind.name());
            solved += u32::from(t.solved());
            attempts += t.attempts;
            revealed += t.revealed;
        }
        let text = view::score(solved, self.slots.len(), attempts, revealed);
        let _ = dom::set_text(&self.root, "quiz-score", &text);
    }
}

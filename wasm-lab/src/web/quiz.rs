//! The live quiz widget: fresh values on each attempt, graded by [`crate::quiz`].

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlInputElement};

use super::dom::{self, escape};
use super::progress::Store;
use crate::quiz::{self, Kind, Question, Rng};

/// Everything a mounted quiz needs in its event handlers.
struct Quiz {
    id: String,
    root: Element,
    rng: Rng,
    store: Store,
    questions: Vec<Question>,
}

pub fn mount(root: &Element) -> Result<(), String> {
    let id = root
        .get_attribute("data-lab-quiz")
        .ok_or("mount point without a quiz id")?;
    let spec =
        quiz::quiz(&id).ok_or_else(|| format!("this version of the lab has no quiz “{id}”"))?;
    let seed =
        (js_sys::Math::random() * 9_007_199_254_740_992.0) as u64 ^ js_sys::Date::now() as u64;
    let mut rng = Rng::new(seed);
    let questions: Vec<Question> = spec
        .kinds
        .iter()
        .map(|&k| Question::draw(k, &mut rng))
        .collect();

    let mut html = String::from(
        "<div class=\"lab-quiz-head\"><strong>Quiz</strong> \
         <span class=\"lab-score\" data-testid=\"quiz-score\"></span> \
         <button type=\"button\" data-testid=\"quiz-reset\">Reset my progress</button></div>\
         <p class=\"lab-notice\" data-testid=\"quiz-notice\" hidden></p><ol class=\"lab-questions\">",
    );
    for (i, q) in questions.iter().enumerate() {
        html.push_str(&question_html(&id, i, q.kind));
    }
    html.push_str("</ol>");
    root.set_inner_html(&html);
    dom::keep_keys(root)?;

    let (store, notice) = Store::open();
    let state = Rc::new(RefCell::new(Quiz {
        id,
        root: root.clone(),
        rng,
        store,
        questions,
    }));
    if let Some(notice) = notice {
        let el = dom::find(root, "quiz-notice")?;
        el.set_text_content(Some(&notice));
        dom::set_hidden(&el, false);
    }
    let items = root
        .query_selector_all("li.lab-question")
        .map_err(|e| dom::describe(&e))?;
    for i in 0..items.length() {
        let item: Element = items
            .item(i)
            .and_then(|n| n.dyn_into().ok())
            .ok_or("a question vanished while mounting")?;
        state.borrow().show(i as usize, &item)?;
        wire(&state, i as usize, &item)?;
    }
    let reset = dom::find(root, "quiz-reset")?;
    let s = state.clone();
    dom::on(&reset, "click", move |_| {
        let mut q = s.borrow_mut();
        let id = q.id.clone();
        q.store.update(|p| p.reset(&id));
        q.show_score();
    })?;
    state.borrow().show_score();
    Ok(())
}

fn question_html(quiz: &str, i: usize, kind: &dyn Kind) -> String {
    let answer = if kind.choices().is_empty() {
        "<input type=\"text\" inputmode=\"numeric\" autocomplete=\"off\" data-testid=\"answer\" \
         aria-label=\"Your answer\">"
            .to_string()
    } else {
        kind.choices()
            .iter()
            .map(|c| {
                let c = escape(c);
                format!(
                    "<label class=\"lab-choice\"><input type=\"radio\" name=\"{}-{i}\" value=\"{c}\" \
                     data-testid=\"choice-{c}\"> {c}</label>",
                    escape(quiz)
                )
            })
            .collect()
    };
    format!(
        "<li class=\"lab-question\" data-testid=\"question\" data-kind=\"{}\">\
         <p class=\"lab-prompt\" data-testid=\"prompt\"></p>\
         <div class=\"lab-answer\">{answer} \
         <button type=\"button\" data-testid=\"check\">Check</button> \
         <button type=\"button\" data-testid=\"next\">New values</button></div>\
         <p class=\"lab-feedback\" data-testid=\"feedback\" aria-live=\"polite\"></p></li>",
        kind.name()
    )
}

/// What a question's controls do.
type Action = fn(&mut Quiz, usize, &Element) -> Result<(), String>;

/// Runs `action` on question `i`; a failure replaces the question with its message.
fn act(
    state: &Rc<RefCell<Quiz>>,
    i: usize,
    item: &Element,
    action: Action,
) -> impl FnMut() + 'static {
    let (state, item) = (state.clone(), item.clone());
    move || {
        let result = action(&mut state.borrow_mut(), i, &item);
        if let Err(message) = result {
            dom::show_failure(&item, &message);
        }
    }
}

fn wire(state: &Rc<RefCell<Quiz>>, i: usize, item: &Element) -> Result<(), String> {
    let mut check = act(state, i, item, Quiz::check);
    dom::on(&dom::find(item, "check")?, "click", move |_| check())?;
    let mut next = act(state, i, item, Quiz::next);
    dom::on(&dom::find(item, "next")?, "click", move |_| next())?;
    // Enter in a numeric answer checks it, as a reader expects.
    if let Ok(input) = dom::input(item, "answer") {
        let mut check = act(state, i, item, Quiz::check);
        dom::on(&input, "keydown", move |e| {
            if e.dyn_ref::<web_sys::KeyboardEvent>()
                .is_some_and(|k| k.key() == "Enter")
            {
                check();
            }
        })?;
    }
    Ok(())
}

impl Quiz {
    fn show(&self, i: usize, item: &Element) -> Result<(), String> {
        let question = &self.questions[i];
        let _ = item.set_attribute("data-value", &question.value.to_string());
        dom::set_text(item, "prompt", &question.prompt)?;
        let feedback = dom::find(item, "feedback")?;
        feedback.set_text_content(None);
        feedback.set_class_name("lab-feedback");
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

    fn check(&mut self, i: usize, item: &Element) -> Result<(), String> {
        let answer = Quiz::answer(item)?;
        let feedback_el = dom::find(item, "feedback")?;
        if answer.trim().is_empty() {
            feedback_el.set_class_name("lab-feedback lab-hint");
            feedback_el.set_text_content(Some("Type or pick an answer first."));
            return Ok(());
        }
        let question = &self.questions[i];
        let kind = question.kind;
        let f = question.check(&answer);
        let text = if f.correct {
            format!("✔ Correct. {}", f.explanation)
        } else {
            format!(
                "✘ Not quite: the answer is {}. {} Try again, or draw new values.",
                f.expected, f.explanation
            )
        };
        feedback_el.set_class_name(if f.correct {
            "lab-feedback lab-correct"
        } else {
            "lab-feedback lab-wrong"
        });
        feedback_el.set_text_content(Some(&text));
        let (quiz, kind) = (self.id.clone(), kind.name());
        self.store.update(|p| p.record(&quiz, kind, f.correct));
        self.show_score();
        Ok(())
    }

    fn next(&mut self, i: usize, item: &Element) -> Result<(), String> {
        let kind = self.questions[i].kind;
        self.questions[i] = Question::draw(kind, &mut self.rng);
        if let Ok(input) = dom::input(item, "answer") {
            input.set_value("");
        }
        if let Ok(Some(picked)) = item.query_selector("input[type=radio]:checked")
            && let Ok(radio) = picked.dyn_into::<HtmlInputElement>()
        {
            radio.set_checked(false);
        }
        self.show(i, item)
    }

    fn show_score(&self) {
        let (mut solved, mut attempts) = (0, 0);
        for q in &self.questions {
            let t = self.store.current().tally(&self.id, q.kind.name());
            solved += u32::from(t.correct > 0);
            attempts += t.attempts;
        }
        let text = format!(
            "Solved {solved} of {} · {attempts} attempt{}",
            self.questions.len(),
            if attempts == 1 { "" } else { "s" }
        );
        let _ = dom::set_text(&self.root, "quiz-score", &text);
    }
}

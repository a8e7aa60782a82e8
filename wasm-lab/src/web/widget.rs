//! The one DOM layer for every widget: builds a widget's form and result slots from its view
//! model (`crate::view`), reads the fields on every edit, redraws the slots, steps a story
//! forward and back (buttons, a slider, ← / → while the widget has focus, play), takes the
//! reader's prediction, announces each change in one sentence, and keeps the state in the link.
//!
//! Nothing here knows a widget: what to show is the view function's, computed natively.

use lab_text::f;
use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{Element, Event, HtmlElement, HtmlInputElement, HtmlSelectElement, KeyboardEvent};

// Every browser call here adds to the JS glue each reader downloads: the layer uses few of
// them (attributes instead of typed getters, the document's URL instead of `location`).

use super::dom;
use crate::view::{self, Env, Form, Inputs, Widget, html, predict_key, step_key, url};

/// Milliseconds between steps while playing.
const PLAY_MS: i32 = 900;

struct State {
    widget: &'static Widget,
    form: Form,
    inputs: Inputs,
    /// Bumped by every action, so a running play stops when the reader acts.
    generation: u32,
}

type Shared = Rc<RefCell<State>>;

fn env() -> Env {
    Env {
        live: true,
        wasm_pages: Some(wasm_pages),
    }
}

/// Linear memory in pages: before, while holding `bytes`, after freeing them (`None` when the
/// allocator refused).
fn wasm_pages(bytes: u64) -> Option<(usize, usize, usize)> {
    use core::arch::wasm32::memory_size;
    let before = memory_size(0);
    let mut block: Vec<u8> = Vec::new();
    block.try_reserve_exact(usize::try_from(bytes).ok()?).ok()?;
    std::hint::black_box(&mut block);
    let during = memory_size(0);
    drop(block);
    Some((before, during, memory_size(0)))
}

/// Mounts `widget` into `root`: the state a link carries, else the directive's `initial=…`.
pub fn mount(root: &Element, widget: &'static Widget) -> Result<(), String> {
    let initial = root.get_attribute("data-initial").unwrap_or_default();
    let mut form = (widget.form)(&initial);
    let mut inputs = Inputs::from_form(&form);
    let url = dom::document()
        .ok()
        .and_then(|d| d.url().ok())
        .unwrap_or_default();
    let hash = url.find('#').map_or("", |i| &url[i..]);
    if let Some(linked) = url::decode(widget.name, hash, &form, &inputs) {
        inputs = linked;
    }
    for g in &mut form.groups {
        for f in &mut g.fields {
            f.value = inputs.get(f.id).to_string();
        }
    }
    let v = (widget.view)(&inputs, &env());
    root.set_inner_html(&html::widget(widget.name, &form, &v));
    let state: Shared = Rc::new(RefCell::new(State {
        widget,
        form,
        inputs,
        generation: 0,
    }));
    for event in ["input", "change"] {
        let (s, r) = (state.clone(), root.clone());
        dom::on(root, event, move |e| guard(&r, edited(&s, &r, &e)))?;
    }
    let (s, r) = (state.clone(), root.clone());
    dom::on(root, "click", move |e| guard(&r, clicked(&s, &r, &e)))?;
    let (s, r) = (state, root.clone());
    dom::on(root, "keydown", move |e| {
        // Keys typed into a widget never reach mdBook's shortcuts (←, →, S).
        e.stop_propagation();
        guard(&r, key(&s, &r, &e))
    })
}

/// A broken widget says so in place instead of going dead.
fn guard(root: &Element, r: Result<(), String>) {
    if let Err(message) = r {
        dom::show_failure(root, &message);
    }
}

fn target(e: &Event) -> Option<Element> {
    e.target().and_then(|t| t.dyn_into::<Element>().ok())
}

/// A field or the step slider changed.
fn edited(s: &Shared, root: &Element, e: &Event) -> Result<(), String> {
    let Some(t) = target(e) else { return Ok(()) };
    if t.get_attribute("data-field").is_some() {
        // A field that runs on commit waits for `change` (Enter, leaving it) or its Run button.
        if t.get_attribute("data-commit").is_some() && e.type_() == "input" {
            return Ok(());
        }
        return if take(s, &t) {
            follow_slider(s, root, &t)?;
            draw(s, root, true)
        } else {
            Ok(())
        };
    }
    if let Some(id) = t.get_attribute("data-slider-for")
        && let Some(i) = t.dyn_ref::<HtmlInputElement>()
    {
        return slid(s, root, &id, &i.value());
    }
    if t.get_attribute("data-action").as_deref() == Some("scrub")
        && let (Some(slot), Some(i)) = (slot_of(&t), t.dyn_ref::<HtmlInputElement>())
    {
        s.borrow_mut().inputs.set(&step_key(&slot), i.value());
        return draw(s, root, true);
    }
    Ok(())
}

/// The slider of field `id` moved to `position`: the field shows the slider's value and the
/// widget redraws, as if the reader had typed it.
fn slid(s: &Shared, root: &Element, id: &str, position: &str) -> Result<(), String> {
    let Some(slider) = s.borrow().form.slider(id) else {
        return Ok(());
    };
    let at = crate::input::parse_number(position).map_or(0, |p| u32::try_from(p).unwrap_or(0));
    let value = lab_text::group_digits(slider.value(at));
    if let Some(field) = root
        .query_selector(&f!("[data-testid=\"{id}\"]"))
        .map_err(|e| dom::describe(&e))?
        .and_then(|el| el.dyn_into::<HtmlInputElement>().ok())
    {
        field.set_value(&value);
    }
    s.borrow_mut().inputs.set(id, value);
    draw(s, root, true)
}

/// A typed number moves its field's slider along (a value it cannot show leaves it be).
fn follow_slider(s: &Shared, root: &Element, t: &Element) -> Result<(), String> {
    let id = t.get_attribute("data-testid").unwrap_or_default();
    let Some(slider) = s.borrow().form.slider(&id) else {
        return Ok(());
    };
    if let Ok(v) = crate::input::parse_number(s.borrow().inputs.get(&id))
        && let Some(range) = root
            .query_selector(&f!("[data-slider-for=\"{id}\"]"))
            .map_err(|e| dom::describe(&e))?
            .and_then(|el| el.dyn_into::<HtmlInputElement>().ok())
    {
        range.set_value(&slider.position(v).to_string());
    }
    Ok(())
}

/// Puts field `t`'s value into the inputs; `false` when it did not change.
fn take(s: &Shared, t: &Element) -> bool {
    let id = t.get_attribute("data-testid").unwrap_or_default();
    let value = if let Some(i) = t.dyn_ref::<HtmlInputElement>() {
        if t.get_attribute("type").as_deref() == Some("checkbox") {
            i.checked().to_string()
        } else {
            i.value()
        }
    } else if let Some(sel) = t.dyn_ref::<HtmlSelectElement>() {
        sel.value()
    } else {
        return false;
    };
    if s.borrow().inputs.get(&id) == value {
        return false;
    }
    s.borrow_mut().inputs.set(&id, value);
    true
}

/// Takes every commit field of the widget and redraws (Enter in one, or the Run button).
fn commit(s: &Shared, root: &Element) -> Result<(), String> {
    let fields = root
        .query_selector_all("[data-commit]")
        .map_err(|e| dom::describe(&e))?;
    for i in 0..fields.length() {
        if let Some(el) = fields.item(i).and_then(|n| n.dyn_into::<Element>().ok()) {
            take(s, &el);
        }
    }
    draw(s, root, true)
}

/// The slot an acting element (a step button, the slider, the story) belongs to.
fn slot_of(el: &Element) -> Option<String> {
    el.get_attribute("data-for")
}

/// A button was pressed.
fn clicked(s: &Shared, root: &Element, e: &Event) -> Result<(), String> {
    // Buttons hold only text, so the target is the button itself.
    let Some(button) = target(e).filter(|t| t.get_attribute("data-action").is_some()) else {
        return Ok(());
    };
    let Some(slot) = slot_of(&button) else {
        return Ok(());
    };
    match button.get_attribute("data-action").as_deref() {
        Some("predict") => {
            let value = prediction(root, &slot)?.replace([':', ';'], " ");
            // The view put the setting's fingerprint and the earlier tries on the question.
            let prefix = root
                .query_selector(&f!("[data-slot=\"{slot}\"] .lab-predict"))
                .map_err(|e| dom::describe(&e))?
                .and_then(|q| q.get_attribute("data-prefix"))
                .unwrap_or_default();
            let mut st = s.borrow_mut();
            st.inputs.set(&predict_key(&slot), f!("{prefix}{value}"));
            // The story starts where the view opens it (capacity: after round 1's return).
            st.inputs.remove(&step_key(&slot));
            drop(st);
            draw(s, root, true)?;
            // The reader goes on with the steps: focus the story, not a vanished button; in a
            // slot without a story, the verdict's button, or the question asked again.
            let first = [".lab-stepper", ".lab-verdict button", ".lab-predict input"]
                .iter()
                .map(|sel| f!("[data-slot=\"{slot}\"] {sel}"))
                .find(|sel| root.query_selector(sel).ok().flatten().is_some());
            if let Some(sel) = first {
                focus(root, &sel);
            }
            Ok(())
        }
        Some("repredict") => {
            let mut st = s.borrow_mut();
            st.inputs.remove(&predict_key(&slot));
            st.inputs.remove(&step_key(&slot));
            drop(st);
            draw(s, root, true)
        }
        Some("play") => play(s, root, &slot),
        Some("commit") => commit(s, root),
        Some(action @ ("first" | "prev" | "next" | "last")) => step(s, root, &slot, action),
        _ => Ok(()),
    }
}

/// The prediction made in slot `slot` (`" "` when none is given, which the view turns into its
/// message).
fn prediction(root: &Element, slot: &str) -> Result<String, String> {
    let pick = |what: &str| {
        root.query_selector(&f!("[data-slot=\"{slot}\"] .lab-predict {what}"))
            .map_err(|e| dom::describe(&e))
    };
    let chosen = pick("input[type=radio]:checked")?.or(pick("input[type=text]")?);
    Ok(chosen
        .and_then(|i| i.dyn_into::<HtmlInputElement>().ok())
        .map(|i| i.value())
        .filter(|v| !v.trim().is_empty())
        .unwrap_or_else(|| " ".into()))
}

/// Moves slot `slot`'s story: `first`, `prev`, `next` or `last`.
fn step(s: &Shared, root: &Element, slot: &str, action: &str) -> Result<(), String> {
    let Some((at, n)) = stepper(root, slot) else {
        return Ok(());
    };
    let to = match action {
        "first" => 0,
        "prev" => at.saturating_sub(1),
        "next" => (at + 1).min(n.saturating_sub(1)),
        _ => n.saturating_sub(1),
    };
    if to == at {
        return Ok(());
    }
    let mut st = s.borrow_mut();
    st.generation += 1;
    st.inputs.set(&step_key(slot), to.to_string());
    drop(st);
    draw(s, root, true)
}

/// The step shown and the number of steps of slot `slot`'s story.
fn stepper(root: &Element, slot: &str) -> Option<(usize, usize)> {
    let el = root
        .query_selector(&f!("[data-slot=\"{slot}\"] .lab-stepper"))
        .ok()
        .flatten()?;
    // Numbers this layer wrote itself: read them with the lab's own reader.
    let read = |name: &str| {
        crate::input::parse_number(&el.get_attribute(name)?)
            .ok()
            .and_then(|v| usize::try_from(v).ok())
    };
    let (at, n) = (read("data-at")?, read("data-steps")?);
    Some((at, n))
}

/// Plays slot `slot`'s story from the step shown to the end, one step every [`PLAY_MS`]; any
/// other action stops it.
fn play(s: &Shared, root: &Element, slot: &str) -> Result<(), String> {
    let generation = {
        let mut st = s.borrow_mut();
        st.generation += 1;
        st.generation
    };
    if let Some((at, n)) = stepper(root, slot)
        && at + 1 >= n
    {
        // At the end: play from the start.
        s.borrow_mut().inputs.set(&step_key(slot), "0");
        draw(s, root, true)?;
    }
    tick(s.clone(), root.clone(), slot.to_string(), generation);
    Ok(())
}

fn tick(s: Shared, root: Element, slot: String, generation: u32) {
    let Some(window) = web_sys::window() else {
        return;
    };
    // The listeners' closure type, so the timer needs no glue of its own (its argument is
    // unused).
    let callback = Closure::<dyn FnMut(Event)>::new(move |_| {
        if s.borrow().generation != generation {
            return;
        }
        let Some((at, n)) = stepper(&root, &slot) else {
            return;
        };
        if at + 1 >= n {
            return;
        }
        s.borrow_mut()
            .inputs
            .set(&step_key(&slot), (at + 1).to_string());
        guard(&root, draw(&s, &root, true));
        tick(s.clone(), root.clone(), slot.clone(), generation);
    })
    .into_js_value();
    let _ = window
        .set_timeout_with_callback_and_timeout_and_arguments_0(callback.unchecked_ref(), PLAY_MS);
}

/// ← / → step the story while the widget has focus (not while typing in a field).
fn key(s: &Shared, root: &Element, e: &Event) -> Result<(), String> {
    // Only `keydown` listens here: the event is a keyboard event (no `instanceof` glue).
    let k = e.unchecked_ref::<KeyboardEvent>();
    if k.key() == "Enter"
        && let Some(t) = target(e)
        && t.get_attribute("data-commit").is_some()
    {
        return commit(s, root);
    }
    let action = match k.key().as_str() {
        "ArrowLeft" => "prev",
        "ArrowRight" => "next",
        _ => return Ok(()),
    };
    let Some(t) = target(e) else { return Ok(()) };
    let typing = matches!(
        t.get_attribute("type").as_deref(),
        Some("text" | "range" | "number")
    ) || t.dyn_ref::<HtmlSelectElement>().is_some();
    if typing {
        return Ok(());
    }
    let slot = slot_of(&t)
        .filter(|slot| stepper(root, slot).is_some())
        .or_else(|| {
            root.query_selector(".lab-stepper")
                .ok()
                .flatten()
                .and_then(|el| slot_of(&el))
        });
    let Some(slot) = slot else { return Ok(()) };
    e.prevent_default();
    step(s, root, &slot, action)
}

/// Recomputes the view and redraws every slot; keeps focus on the element the reader was on;
/// announces the change; puts the state in the link when the reader changed it.
fn draw(s: &Shared, root: &Element, linked: bool) -> Result<(), String> {
    let st = s.borrow();
    let v = (st.widget.view)(&st.inputs, &env());
    let document = dom::document().map_err(|e| dom::describe(&e))?;
    // Draws follow the reader's own actions in this widget, so the focus is in it.
    let testid = |d: &web_sys::Document| {
        d.active_element()
            .and_then(|a| a.get_attribute("data-testid"))
    };
    let focused = testid(&document);
    for slot in &v.slots {
        if let Some(el) = root
            .query_selector(&f!("[data-slot=\"{}\"]", slot.id))
            .map_err(|e| dom::describe(&e))?
        {
            el.set_inner_html(&html::slot(slot));
        }
    }
    if let Some(a) = root
        .query_selector("[aria-live]")
        .map_err(|e| dom::describe(&e))?
    {
        a.set_text_content(Some(&v.announce));
    }
    if let Some(id) = focused
        && testid(&document).as_deref() != Some(id.as_str())
    {
        focus(root, &f!("[data-testid=\"{id}\"]"));
    }
    if linked {
        let hash = url::encode(st.widget.name, &st.inputs);
        if let Some(w) = web_sys::window()
            && let Ok(history) = w.history()
        {
            let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&hash));
        }
    }
    let _ = &st.form;
    Ok(())
}

fn focus(root: &Element, selector: &str) {
    if let Some(el) = root.query_selector(selector).ok().flatten() {
        // Every element the layer focuses is an HTML element (a field, a button, the story).
        let _ = el.unchecked_into::<HtmlElement>().focus();
    }
}

/// The names of the widgets this layer mounts (all of them).
pub fn find(name: &str) -> Option<&'static Widget> {
    view::widget(name)
}

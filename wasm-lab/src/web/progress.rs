//! Quiz progress in `localStorage`, read strictly (see [`crate::progress`]), and the progress
//! page (`{{#lab-progress}}`) that lists every chapter's quiz from the same store.
//!
//! Unreadable progress is moved aside under `<key>.unreadable` (never silently dropped) and the
//! page says so in a reader's words; without storage (private windows, blocked cookies) progress
//! lives for the page.

use std::cell::RefCell;
use std::rc::Rc;

use lab_text::{t, tf};
use web_sys::Element;

use super::dom::{self, escape};
use crate::progress::{Progress, STORAGE_KEY};
use crate::quiz::listing;

thread_local! {
    /// The notice about progress set aside, kept for the page's life: the first quiz to open
    /// the store moves the unreadable text aside, and every quiz of the page must still say so.
    static SET_ASIDE: RefCell<Option<String>> = const { RefCell::new(None) };
}

pub struct Store {
    storage: Option<web_sys::Storage>,
    /// The last progress seen; the only copy when the browser gives no storage.
    current: Progress,
}

impl Store {
    /// Opens the store, with a notice for the reader when saved progress had to be set aside.
    pub fn open() -> (Store, Option<String>) {
        let storage = web_sys::window().and_then(|w| w.local_storage().ok().flatten());
        let mut store = Store {
            storage,
            current: Progress::default(),
        };
        let (current, notice) = store.load();
        store.current = current;
        if let Some(n) = &notice {
            SET_ASIDE.with(|s| *s.borrow_mut() = Some(n.clone()));
        }
        (
            store,
            notice.or_else(|| SET_ASIDE.with(|s| s.borrow().clone())),
        )
    }

    pub fn current(&self) -> &Progress {
        &self.current
    }

    fn load(&self) -> (Progress, Option<String>) {
        let Some(storage) = &self.storage else {
            return (
                Progress::default(),
                Some(
                    t!("This browser does not let the page store progress: it lasts until you leave the page.")
                        .into_owned(),
                ),
            );
        };
        let text = match storage.get_item(STORAGE_KEY) {
            Ok(Some(text)) => text,
            _ => return (Progress::default(), None),
        };
        match Progress::from_json(&text) {
            Ok(p) => (p, None),
            Err(_) => {
                let aside = format!("{STORAGE_KEY}.unreadable");
                let kept = storage.set_item(&aside, &text).is_ok();
                let _ = storage.remove_item(STORAGE_KEY);
                let notice = if kept {
                    tf!(
                        "Your saved quiz progress could not be read: it was changed outside this book or saved by a version it does not know. A copy of it is kept in this browser's storage under “{}”, and your progress starts fresh.",
                        aside
                    )
                } else {
                    t!("Your saved quiz progress could not be read: it was changed outside this book or saved by a version it does not know. It could not be copied aside, and your progress starts fresh.").into_owned()
                };
                (Progress::default(), Some(notice))
            }
        }
    }

    /// Changes progress after re-reading it, so two tabs add up instead of overwriting each other.
    pub fn update(&mut self, f: impl FnOnce(&mut Progress)) {
        if let Some(storage) = &self.storage {
            let (stored, _) = self.load();
            self.current = stored;
            f(&mut self.current);
            let _ = storage.set_item(STORAGE_KEY, &self.current.to_json());
        } else {
            f(&mut self.current);
        }
    }
}

/// A "Reset" button that asks before it acts: the first click shows a question with "Yes,
/// reset" and "Keep it"; only "Yes, reset" calls `reset`.
pub fn confirm_html(id: &str, label: &str, question: &str) -> String {
    format!(
        "<span class=\"lab-reset\"><button type=\"button\" data-testid=\"{id}\">{label}</button>\
         <span class=\"lab-confirm\" data-testid=\"{id}-confirm\" role=\"group\" aria-label=\"{q}\" hidden>\
         {q} <button type=\"button\" data-testid=\"{id}-yes\">{yes}</button> \
         <button type=\"button\" data-testid=\"{id}-no\">{no}</button></span></span>",
        label = escape(label),
        q = escape(question),
        yes = escape(&t!("Yes, reset")),
        no = escape(&t!("Keep it"))
    )
}

/// Wires a [`confirm_html`] group found under `root`.
pub fn wire_confirm(root: &Element, id: &str, reset: impl FnMut() + 'static) -> Result<(), String> {
    let button = dom::find(root, id)?;
    let group = dom::find(root, &format!("{id}-confirm"))?;
    let (yes, no) = (
        dom::find(root, &format!("{id}-yes"))?,
        dom::find(root, &format!("{id}-no"))?,
    );
    let g = group.clone();
    let y = yes.clone();
    dom::on(&button, "click", move |_| {
        dom::set_hidden(&g, false);
        if let Some(el) = wasm_bindgen::JsCast::dyn_ref::<web_sys::HtmlElement>(&y) {
            let _ = el.focus();
        }
    })?;
    let g = group.clone();
    let mut reset = reset;
    dom::on(&yes, "click", move |_| {
        dom::set_hidden(&g, true);
        reset();
    })?;
    let g = group;
    let b = button;
    dom::on(&no, "click", move |_| {
        dom::set_hidden(&g, true);
        if let Some(el) = wasm_bindgen::JsCast::dyn_ref::<web_sys::HtmlElement>(&b) {
            let _ = el.focus();
        }
    })
}

/// Mounts the progress page: one row per chapter's quiz, with a reset per chapter and for all
/// (only in the progress page's module: chapter pages store progress but never list it).
#[cfg(feature = "progress")]
pub fn mount(root: &Element) -> Result<(), String> {
    let (store, notice) = Store::open();
    let store = Rc::new(RefCell::new(store));
    let mut html = format!(
        "<p class=\"lab-notice\" data-testid=\"progress-notice\" role=\"status\" hidden></p>\
         <table class=\"lab-progress-table\"><thead><tr><th scope=\"col\">{}</th>\
         <th scope=\"col\">{}</th><th scope=\"col\">{}</th><th scope=\"col\">{}</th>\
         <th scope=\"col\"></th></tr></thead><tbody>",
        escape(&t!("chapter")),
        escape(&t!("solved")),
        escape(&t!("attempts")),
        escape(&t!("answers shown"))
    );
    for q in listing() {
        // The quiz's title is marked for the catalog where it is written (`n!`).
        let title = lab_text::tr::get_dynamic(q.title);
        html.push_str(&format!(
            "<tr data-testid=\"progress-{id}\"><th scope=\"row\"><a href=\"{id}.html\">{title}</a></th>\
             <td data-testid=\"solved\"></td><td data-testid=\"attempts\"></td><td data-testid=\"revealed\"></td><td>{reset}</td></tr>",
            id = q.id,
            title = escape(&title),
            reset = confirm_html(
                "reset",
                &t!("Reset"),
                &tf!("Forget your answers to “{}”?", title)
            )
        ));
    }
    html.push_str("</tbody></table>");
    html.push_str(&confirm_html(
        "reset-all",
        &t!("Reset all my progress"),
        &t!("Forget your answers to every quiz?"),
    ));
    root.set_inner_html(&html);
    if let Some(notice) = notice {
        let el = dom::find(root, "progress-notice")?;
        el.set_text_content(Some(&notice));
        dom::set_hidden(&el, false);
    }
    for q in listing() {
        let row = dom::find(root, &format!("progress-{}", q.id))?;
        let (s, r) = (store.clone(), root.clone());
        wire_confirm(&row, "reset", move || {
            s.borrow_mut().update(|p| {
                // The chapter's quiz and its short check.
                p.reset(q.id);
                p.reset(&crate::progress::record_key(q.id, true));
            });
            let _ = show(&r, &s.borrow());
        })?;
    }
    let (s, r) = (store.clone(), root.clone());
    wire_confirm(root, "reset-all", move || {
        s.borrow_mut().update(|p| p.reset_all());
        let _ = show(&r, &s.borrow());
    })?;
    show(root, &store.borrow())
}

#[cfg(feature = "progress")]
fn show(root: &Element, store: &Store) -> Result<(), String> {
    for q in listing() {
        let row = dom::find(root, &format!("progress-{}", q.id))?;
        let (mut solved, mut attempts, mut revealed) = (0, 0, 0);
        for k in q.kinds {
            let t = store.current().tally(q.id, k);
            solved += u32::from(t.solved());
            attempts += t.attempts;
            revealed += t.revealed;
        }
        dom::set_text(&row, "solved", &tf!("{} of {}", solved, q.kinds.len()))?;
        dom::set_text(&row, "attempts", &attempts.to_string())?;
        dom::set_text(&row, "revealed", &revealed.to_string())?;
    }
    Ok(())
}

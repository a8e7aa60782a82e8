//! Widget view models: what each widget shows, computed natively from what the reader typed.
//!
//! A widget is a [`Form`] (its fields, built once) and a function from the fields' values
//! ([`Inputs`]) to a [`View`]: result slots holding label/value pairs, tables, notes, a
//! step-through of the real pool's states ([`Steps`]), a prediction to commit first
//! ([`Predict`]), or a reader-facing error. Nothing here touches the browser, so every widget's
//! logic is unit-tested natively; [`html`] turns a view into markup, and that one renderer serves
//! both the live widget (`web/widget.rs`, wasm only) and the book's build, which prints each
//! widget's default state as static HTML for readers without scripts.
//!
//! ```
//! use wasm_lab::view::{self, Env, Inputs};
//! let w = view::widget("bucket-rounding").unwrap();
//! let inputs = Inputs::from_form(&(w.form)("100"));
//! let v = (w.view)(&inputs, &Env::default());
//! assert!(view::html::slot(&v.slots[0]).contains(">128<"));
//! ```

/// `format!` through one shared, non-inlined call: `format!` inlines its fast path at every
/// call site, and the wasm build is shipped to every reader.
macro_rules! f {
    ($($t:tt)*) => {
        $crate::view::fmt(format_args!($($t)*))
    };
}
pub(crate) use f;

#[doc(hidden)]
#[inline(never)]
pub fn fmt(args: std::fmt::Arguments<'_>) -> String {
    std::fmt::format(args)
}

pub mod html;
pub mod pool;
pub mod url;

/// One widget: its form and its view function.
pub struct Widget {
    /// The name in `{{#lab-widget NAME}}`.
    pub name: &'static str,
    /// The fields, filled from the directive's `initial=…` (empty: the widget's defaults).
    pub form: fn(initial: &str) -> Form,
    /// What the widget shows for these inputs.
    pub view: fn(&Inputs, &Env) -> View,
}

/// Every widget view model this build has (a chapter's module has its own only).
pub fn widgets() -> impl Iterator<Item = &'static Widget> {
    crate::chapter::CHAPTERS.iter().filter_map(|c| c.view)
}

/// The widget called `name`.
pub fn widget(name: &str) -> Option<&'static Widget> {
    widgets().find(|w| w.name == name)
}

/// Where a view is computed.
#[derive(Clone, Copy, Debug, Default)]
pub struct Env {
    /// `true` in the reader's browser; `false` when the book is built (the static default).
    pub live: bool,
    /// Linear memory in wasm pages before, while holding, and after freeing `bytes` (the cliff
    /// widget); `None` where it cannot be measured.
    pub wasm_pages: Option<WasmPages>,
}

/// Measures linear memory around holding `bytes`: pages before, during, after.
pub type WasmPages = fn(u64) -> Option<(usize, usize, usize)>;

// === Form ===

/// A widget's fields, in groups; each group is followed by the result slot it feeds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Form {
    pub groups: Vec<Group>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// The result slot after this group (`data-slot`; its error is `{slot}-error`).
    pub slot: &'static str,
    /// A heading for the group (a `fieldset` legend), if any.
    pub legend: Option<&'static str>,
    /// A line above the fields; text between backticks is code.
    pub intro: Option<&'static str>,
    pub fields: Vec<Field>,
    /// A line below the fields (the grammar of a field, what an edit does).
    pub note: Option<&'static str>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// Its `data-testid`, and its key in [`Inputs`] and in a link.
    pub id: &'static str,
    /// Its label; text between backticks is code.
    pub label: &'static str,
    pub kind: Kind,
    /// The value it starts with (`"true"` / `"false"` for a check box).
    pub value: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A whole number.
    Number,
    /// A line of text.
    Text,
    /// A line of text across the widget.
    Wide,
    /// A check box.
    Check,
    /// A choice among `(value, label)`.
    Select(&'static [(&'static str, &'static str)]),
}

impl Field {
    pub fn new(
        id: &'static str,
        label: &'static str,
        kind: Kind,
        value: impl Into<String>,
    ) -> Self {
        Field {
            id,
            label,
            kind,
            value: value.into(),
        }
    }
}

impl Form {
    /// One group feeding slot `slot`.
    pub fn single(slot: &'static str, fields: Vec<Field>, note: Option<&'static str>) -> Self {
        Form {
            groups: vec![Group {
                slot,
                legend: None,
                intro: None,
                fields,
                note,
            }],
        }
    }

    pub fn fields(&self) -> impl Iterator<Item = &Field> {
        self.groups.iter().flat_map(|g| g.fields.iter())
    }

    pub fn field(&self, id: &str) -> Option<&Field> {
        self.fields().find(|f| f.id == id)
    }
}

/// `initial=A/B/C` split into its parts, padded with `""` to `n`.
pub fn initial_parts(initial: &str, n: usize) -> Vec<String> {
    let mut v: Vec<String> = if initial.is_empty() {
        Vec::new()
    } else {
        initial.split('/').map(|s| s.trim().to_string()).collect()
    };
    v.resize(n, String::new());
    v
}

/// `value` unless it is empty.
pub fn or(value: &str, default: &str) -> String {
    if value.is_empty() {
        default.to_string()
    } else {
        value.to_string()
    }
}

// === Inputs ===

/// The values of a widget's fields and its state (a step, a prediction), by id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Inputs(Vec<(String, String)>);

impl Inputs {
    /// The form's starting values.
    pub fn from_form(form: &Form) -> Self {
        Inputs(
            form.fields()
                .map(|f| (f.id.to_string(), f.value.clone()))
                .collect(),
        )
    }

    /// The value of `id` (`""` when unset).
    pub fn get(&self, id: &str) -> &str {
        self.0
            .iter()
            .find(|(k, _)| k == id)
            .map_or("", |(_, v)| v.as_str())
    }

    pub fn has(&self, id: &str) -> bool {
        self.0.iter().any(|(k, _)| k == id)
    }

    /// A check box's state.
    pub fn checked(&self, id: &str) -> bool {
        self.get(id) == "true"
    }

    pub fn set(&mut self, id: &str, value: impl Into<String>) {
        let value = value.into();
        match self.0.iter_mut().find(|(k, _)| k == id) {
            Some((_, v)) => *v = value,
            None => self.0.push((id.to_string(), value)),
        }
    }

    pub fn remove(&mut self, id: &str) {
        self.0.retain(|(k, _)| k != id);
    }

    pub fn pairs(&self) -> &[(String, String)] {
        &self.0
    }
}

/// The state key of slot `slot`'s step.
pub fn step_key(slot: &str) -> String {
    f!("{slot}-step")
}

/// The state key of slot `slot`'s prediction.
pub fn predict_key(slot: &str) -> String {
    f!("{slot}-predict")
}

// === View ===

/// What a widget shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    /// One sentence for screen readers (`aria-live`): what changed, not the whole table.
    pub announce: String,
    pub slots: Vec<Slot>,
}

/// One result region.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slot {
    pub id: &'static str,
    /// What the reader typed that the lab cannot run; the parts are then empty.
    pub error: Option<String>,
    pub parts: Vec<Part>,
}

impl Slot {
    pub fn ok(id: &'static str, parts: Vec<Part>) -> Self {
        Slot {
            id,
            error: None,
            parts,
        }
    }

    pub fn error(id: &'static str, message: impl Into<String>) -> Self {
        Slot {
            id,
            error: Some(message.into()),
            parts: Vec::new(),
        }
    }
}

impl View {
    /// A view of one slot: its parts, or its error (announced).
    pub fn one(id: &'static str, result: Result<(Vec<Part>, String), String>) -> Self {
        match result {
            Ok((parts, announce)) => View {
                announce,
                slots: vec![Slot::ok(id, parts)],
            },
            Err(e) => View {
                announce: sentence(&e),
                slots: vec![Slot::error(id, e)],
            },
        }
    }

    /// Every text the view shows, for tests and for searching a view natively.
    pub fn text(&self) -> String {
        html::text(&self.slots.iter().map(html::slot).collect::<String>())
    }

    pub fn slot(&self, id: &str) -> Option<&Slot> {
        self.slots.iter().find(|s| s.id == id)
    }
}

/// A message as a sentence: with its final period (errors are shown without one).
pub fn sentence(text: &str) -> String {
    if text.ends_with(['.', '!', '?', ':']) {
        text.to_string()
    } else {
        f!("{text}.")
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Part {
    /// Label/value pairs (a `dl`).
    Pairs(Vec<Pair>),
    Table(Table),
    /// A sentence under the results.
    Note {
        id: Option<&'static str>,
        text: String,
    },
    /// Text in marked runs (bytes, leaked text).
    Spans(Spans),
    /// A story the reader steps through.
    Steps(Steps),
    /// A question to answer before the outcome shows.
    Predict(Predict),
    /// Whether the reader's prediction held.
    Verdict(Verdict),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pair {
    /// Text between backticks is code.
    pub label: &'static str,
    pub id: &'static str,
    pub value: String,
}

/// A label/value pair.
pub fn pair(label: &'static str, id: &'static str, value: impl Into<String>) -> Pair {
    Pair {
        label,
        id,
        value: value.into(),
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// The `data-testid` of its body.
    pub id: &'static str,
    pub head: Vec<&'static str>,
    pub rows: Vec<Row>,
}

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Row {
    pub id: Option<String>,
    /// One more attribute (`data-NAME="value"`).
    pub data: Option<(&'static str, String)>,
    pub selected: bool,
    pub cells: Vec<Cell>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    pub id: Option<String>,
    pub text: String,
}

/// A table cell, with a `data-testid` if `id` is not empty.
pub fn cell(id: impl Into<String>, text: impl Into<String>) -> Cell {
    let id = id.into();
    Cell {
        id: (!id.is_empty()).then_some(id),
        text: text.into(),
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spans {
    pub id: &'static str,
    /// `lab-text` (a line) or `lab-bytes` (hex).
    pub class: &'static str,
    /// Words before the spans.
    pub lead: Option<&'static str>,
    pub spans: Vec<Span>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    /// `lab-own`, `lab-leak` or `lab-zero`.
    pub class: &'static str,
    pub id: Option<&'static str>,
    pub text: String,
    pub title: Option<String>,
}

/// A story the reader steps through: each step a pool call, a sentence and the pool after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Steps {
    pub id: &'static str,
    pub steps: Vec<Step>,
    /// The step shown (0-based, within `steps`).
    pub at: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The C# line of this step.
    pub code: String,
    /// What happened, as one sentence (also what a screen reader hears).
    pub text: String,
    /// The pool after this step.
    pub pool: Option<pool::PoolView>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Predict {
    /// Its `data-testid`; the choices are `{id}-{value}`, the button `{id}-run`.
    pub id: &'static str,
    pub question: String,
    /// `(value, label)`; empty for a number typed in `{id}-value`.
    pub choices: Vec<(String, String)>,
    /// Why the last prediction could not be read.
    pub problem: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub id: &'static str,
    pub held: bool,
    pub text: String,
}

/// The step to show: the stored step if it is a number within `n` steps, else the first.
pub fn step_at(inputs: &Inputs, slot: &str, n: usize) -> usize {
    inputs
        .get(&step_key(slot))
        .bytes()
        .try_fold(0usize, |v, b| {
            b.is_ascii_digit()
                .then(|| v.checked_mul(10)?.checked_add(usize::from(b - b'0')))
                .flatten()
        })
        .filter(|&s| s < n)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests;

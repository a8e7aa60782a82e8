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

use crate::quiz::Solution;
use lab_text::{f, group_digits, t, tf};

pub mod drawing;
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
    use crate::chapter::{ANY_VIEW, CHAPTERS};
    CHAPTERS[..if ANY_VIEW { CHAPTERS.len() } else { 0 }]
        .iter()
        .filter_map(|c| c.view)
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
    /// Runs on commit (Enter, leaving the field, the group's Run button), not on every
    /// keystroke: for a field whose run has a lasting cost (the cliff allocates in the page).
    pub commit: bool,
    /// A slider beside a number field, for setting it by dragging.
    pub slider: Option<Slider>,
}

/// A slider that sets a number field: linear, or on a log scale (16 positions per doubling, so
/// every power of two is one position and dragging crosses a decade in about 53).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slider {
    pub min: u64,
    pub max: u64,
    pub log: bool,
}

impl Slider {
    /// Its last position (positions are `0..=last`).
    pub fn last(self) -> u32 {
        self.position(self.max)
    }

    /// The position that shows `value` (clamped to the slider's ends).
    pub fn position(self, value: u64) -> u32 {
        let v = value.clamp(self.min, self.max.max(self.min));
        if self.log {
            drawing::log2_16ths(v) - drawing::log2_16ths(self.min)
        } else {
            u32::try_from(v - self.min).unwrap_or(u32::MAX)
        }
    }

    /// The value at position `pos`.
    pub fn value(self, pos: u32) -> u64 {
        let pos = pos.min(self.last());
        let v = if self.log {
            drawing::exp2_16ths(drawing::log2_16ths(self.min) + pos)
        } else {
            self.min + pos as u64
        };
        v.clamp(self.min, self.max.max(self.min))
    }
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
            commit: false,
            slider: None,
        }
    }

    /// A slider beside the field, from `min` to `max`.
    pub fn with_slider(mut self, min: u64, max: u64, log: bool) -> Self {
        self.slider = Some(Slider { min, max, log });
        self
    }

    /// The field runs on commit only.
    pub fn on_commit(mut self) -> Self {
        self.commit = true;
        self
    }
}

impl Form {
    /// The slider of field `id`, if it has one.
    pub fn slider(&self, id: &str) -> Option<Slider> {
        self.groups
            .iter()
            .flat_map(|g| &g.fields)
            .find(|f| f.id == id)
            .and_then(|f| f.slider)
    }

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

    /// The value of the pair, or the text of the first table cell, whose `data-testid` is `id`,
    /// wherever it is (also among the parts drawn for readers without scripts): what a test
    /// reads to compare a widget with the lab.
    pub fn value(&self, id: &str) -> Option<&str> {
        self.parts().find_map(|p| match p {
            Part::Pairs(pairs) => pairs
                .iter()
                .find(|pair| pair.id == id)
                .map(|pair| pair.value.as_str()),
            Part::Table(t) => t
                .rows
                .iter()
                .flat_map(|r| &r.cells)
                .find(|c| c.id.as_deref() == Some(id))
                .map(|c| c.text.as_str()),
            _ => None,
        })
    }

    /// The text of cell `cell` in the table row whose `data-testid` is `row`.
    pub fn cell(&self, row: &str, cell: &str) -> Option<&str> {
        self.parts().find_map(|p| match p {
            Part::Table(t) => t
                .rows
                .iter()
                .filter(|r| r.id.as_deref() == Some(row))
                .flat_map(|r| &r.cells)
                .find(|c| c.id.as_deref() == Some(cell))
                .map(|c| c.text.as_str()),
            _ => None,
        })
    }

    /// Every part of every slot, those drawn for readers without scripts included.
    fn parts(&self) -> impl Iterator<Item = &Part> {
        fn walk<'a>(parts: &'a [Part], out: &mut Vec<&'a Part>) {
            for p in parts {
                out.push(p);
                if let Part::NoScript(inner) = p {
                    walk(inner, out);
                }
            }
        }
        let mut out = Vec::new();
        for s in &self.slots {
            walk(&s.parts, &mut out);
        }
        out.into_iter()
    }
}

/// The view of widget `name` with its form's defaults and `edits` applied, as the book's build
/// computes it: what the tests that hold a widget to its chapter's quiz read
/// (`widget_and_quiz_agree_*` in each chapter's `quiz.rs`).
#[cfg(test)]
pub(crate) fn view_with(name: &str, edits: &[(&str, &str)]) -> View {
    let w = widget(name).unwrap_or_else(|| panic!("no widget {name}"));
    let mut inputs = Inputs::from_form(&(w.form)(""));
    for (k, v) in edits {
        inputs.set(k, *v);
    }
    (w.view)(&inputs, &Env::default())
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
    /// Parts drawn only for readers without scripts (the outcome a live widget gates).
    NoScript(Vec<Part>),
    /// A picture of the numbers beside it.
    Drawing(drawing::Drawing),
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
    /// Why the last prediction could not be read, or why it is asked again.
    pub problem: Option<String>,
    /// After a wrong first try: a hint, and a second try.
    pub nudge: Option<String>,
    /// What the DOM layer puts before the reader's value in `{slot}-predict` (the setting's
    /// fingerprint and the tries so far).
    pub prefix: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub id: &'static str,
    pub held: bool,
    /// What the reader predicted, as the question offered it (a choice's label, a number).
    pub said: String,
    pub text: String,
}

/// The step a story shows: the reader's stored step if it is a number within `n` steps, else
/// `opening` (the step the widget opens on, which shows the chapter's point). The one place
/// every step-through decides its position.
pub fn step_shown(inputs: &Inputs, slot: &str, n: usize, opening: usize) -> usize {
    let last = n.saturating_sub(1);
    if !inputs.has(&step_key(slot)) {
        return opening.min(last);
    }
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

impl Steps {
    /// A story in slot `slot`, at the step [`step_shown`] picks.
    pub fn new(
        id: &'static str,
        slot: &str,
        inputs: &Inputs,
        steps: Vec<Step>,
        opening: usize,
    ) -> Self {
        let at = step_shown(inputs, slot, steps.len(), opening);
        Steps { id, steps, at }
    }

    /// The step shown.
    pub fn current(&self) -> Option<&Step> {
        self.steps.get(self.at)
    }

    /// Whether the story is at its last step (where the outcome is).
    pub fn at_end(&self) -> bool {
        self.at + 1 >= self.steps.len()
    }

    /// "Step 3 of 6: what happened." for screen readers.
    pub fn announce(&self) -> String {
        self.current().map_or(String::new(), |s| {
            tf!("Step {} of {}: {}.", self.at + 1, self.steps.len(), s.text)
        })
    }
}

// === Predict first ===

/// A prediction the reader commits before the outcome shows. It is stored in the slot's
/// `{slot}-predict` state as `SETTING:TRY` or `SETTING:TRY;TRY`, where `SETTING` is a short
/// fingerprint of what the prediction was made for: a change to any value of the setting (a
/// field the question does not even name, like `clearArray` or checked mode) makes the stored
/// prediction belong to another setting, and the widget asks again instead of grading it.
pub struct Gate {
    pub slot: &'static str,
    /// The `data-testid` of the question.
    pub id: &'static str,
    /// The `data-testid` of the verdict.
    pub verdict: &'static str,
    pub question: String,
    /// `(value, label)`; empty for a typed number.
    pub choices: Vec<(String, String)>,
    /// Every value the outcome depends on, in one string.
    pub setting: String,
}

/// A prediction graded by the lab.
pub struct Graded {
    pub held: bool,
    /// What the lab found, as the verdict says it (shown once the outcome is).
    pub verdict: String,
    /// After a first wrong try: a hint that does not give the outcome away.
    pub nudge: String,
}

/// What a gated slot shows: the question (nothing of the outcome), or the verdict.
pub enum Gated {
    Ask(Part, String),
    Told(Verdict),
}

impl Gated {
    /// The slot's parts and its announcement: the question (with the `outcome` behind a
    /// disclosure on the static page), or the verdict followed by the `outcome`.
    pub fn parts(self, outcome: Vec<Part>, announce: String, live: bool) -> (Vec<Part>, String) {
        match self {
            Gated::Ask(ask, asked) => {
                let mut parts = vec![ask];
                if !live {
                    parts.push(Part::NoScript(outcome));
                }
                (parts, asked)
            }
            Gated::Told(v) => {
                let mut parts = vec![Part::Verdict(v)];
                parts.extend(outcome);
                (parts, announce)
            }
        }
    }
}

/// Most tries a prediction gets: a wrong first one gets a nudge and a second try.
pub const TRIES: usize = 2;

/// FNV-1a of `s`, as 8 hex digits: the fingerprint of a setting.
pub fn fingerprint(s: &str) -> String {
    let h = s.bytes().fold(0x811c_9dc5_u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    });
    f!("{h:08x}")
}

impl Gate {
    /// A try as the question offered it: the choice's label, or the number grouped.
    fn said(&self, try_: &str) -> String {
        match self.choices.iter().find(|(v, _)| v == try_) {
            Some((_, label)) => label.clone(),
            None => crate::input::parse_number(try_).map_or(try_.to_string(), group_digits),
        }
    }

    /// Reads the stored prediction and decides what the slot shows. `grade` reads one try (an
    /// unreadable one is a message, not a try).
    pub fn decide(self, inputs: &Inputs, grade: impl Fn(&str) -> Result<Graded, String>) -> Gated {
        let raw = inputs.get(&predict_key(self.slot));
        let fp = fingerprint(&self.setting);
        // A link written by hand may carry a bare prediction: it is taken as the final one.
        let (made_for, tries) = match raw.split_once(':') {
            Some((for_fp, tries)) => (for_fp == fp, tries),
            None => (true, raw),
        };
        let bare = !raw.contains(':');
        let tries: Vec<&str> = if raw.is_empty() || !made_for {
            Vec::new()
        } else {
            tries.split(';').take(TRIES).collect()
        };
        let mut notice = (!raw.is_empty() && !made_for).then(|| {
            t!("The setting changed since your prediction: predict again for this one").into_owned()
        });
        let mut kept = Vec::new();
        let mut last = None;
        let mut said = String::new();
        for t in &tries {
            match grade(t.trim()) {
                Ok(g) => {
                    kept.push(*t);
                    said = self.said(t.trim());
                    last = Some(g);
                }
                Err(e) => {
                    notice = Some(tf!("Your prediction: {}", e));
                    last = None;
                    break;
                }
            }
        }
        let nudge = match last {
            Some(g) if g.held || kept.len() >= TRIES || bare => {
                return Gated::Told(Verdict {
                    id: self.verdict,
                    held: g.held,
                    said,
                    text: g.verdict,
                });
            }
            Some(g) => Some(g.nudge),
            None => None,
        };
        let prefix = if kept.is_empty() || bare {
            f!("{fp}:")
        } else {
            f!("{fp}:{};", kept.join(";"))
        };
        let announce = match (&nudge, &notice) {
            (Some(n), _) => tf!("Not yet: {}", sentence(n)),
            (None, Some(p)) => sentence(p),
            (None, None) => tf!("Predict first: {}", self.question.replace('`', "")),
        };
        Gated::Ask(
            Part::Predict(Predict {
                id: self.id,
                question: self.question,
                choices: self.choices,
                problem: notice,
                nudge,
                prefix,
            }),
            announce,
        )
    }
}

/// A result slot whose outcome waits for the reader's prediction, graded by the same
/// [`Solution`] the chapter's quiz grades with: a wrong prediction is told which of the quiz's
/// mistakes it matches, in the quiz's words, so the widget and the quiz name a misconception
/// once.
pub struct Hold {
    pub slot: &'static str,
    /// The `data-testid` of the question.
    pub id: &'static str,
    /// The `data-testid` of the verdict.
    pub verdict: &'static str,
    pub question: String,
    /// `(value, label)`, each label one of the solution's answers (its answer or a mistake's);
    /// empty when the prediction is a typed number.
    pub choices: Vec<(String, String)>,
    pub solution: Solution,
    /// What the lab found, as a clause ("a request of 3,000 bytes gets a 4,096-byte buffer").
    pub found: String,
}

impl Hold {
    /// The question alone (and, for readers without scripts, the outcome behind a disclosure),
    /// or the verdict followed by the outcome. A prediction belongs to the answer, not to the
    /// inputs: an edit that leaves the answer as it was keeps it, so the reader explores freely.
    pub fn decide(
        self,
        inputs: &Inputs,
        env: &Env,
        outcome: Vec<Part>,
        announce: String,
    ) -> (Vec<Part>, String) {
        let Hold {
            slot,
            id,
            verdict,
            question,
            choices,
            solution,
            found,
        } = self;
        let gate = Gate {
            slot,
            id,
            verdict,
            question,
            choices: choices.clone(),
            setting: solution.answer.clone(),
        };
        let grade = |t: &str| -> Result<Graded, String> {
            let said = if choices.is_empty() {
                crate::input::parse_size(t).map_err(|e| e.to_string())?;
                t.to_string()
            } else {
                // A choice is graded by its value when the solution names it so (`yes`), else
                // by its label (a length as the quiz shows it).
                let (v, l) = choices
                    .iter()
                    .find(|(v, _)| v == t)
                    .ok_or_else(|| t!("pick one of the answers first").into_owned())?;
                if solution.is_answer(v) || solution.mistake_for(v).is_some() {
                    v.clone()
                } else {
                    l.clone()
                }
            };
            let held = solution.is_answer(&said);
            let mistake = solution.mistake_for(&said);
            let hint = mistake.map_or(solution.hint.as_str(), |m| m.hint.as_str());
            Ok(Graded {
                held,
                verdict: match (held, mistake) {
                    (true, _) => tf!("Your prediction held: {}.", found),
                    (false, Some(_)) => tf!(
                        "Your prediction did not hold: {}. It is a common mistake: {}",
                        found,
                        sentence(hint)
                    ),
                    (false, None) => {
                        tf!(
                            "Your prediction did not hold: {}. {}",
                            found,
                            sentence(hint)
                        )
                    }
                },
                nudge: hint.to_string(),
            })
        };
        gate.decide(inputs, grade)
            .parts(outcome, announce, env.live)
    }
}

#[cfg(test)]
mod tests;

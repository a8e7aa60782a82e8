//! The stale-data widget (chapter 3): rent, write, return (cleared or not), re-rent, write, read —
//! on a real handle pool, with the bytes shown and the leaked tail highlighted.

use web_sys::Element;

use super::dom::{self, escape};
use super::fields;
use crate::input::{group_digits, parse_size};
use crate::scenario::stale_data::{
    ORDER_LINE, Outcome, SECOND_LINE, Scenario, escape_line, parse_line, run, visible,
};

const TEMPLATE: &str = r#"
<div class="lab-form">
  <fieldset><legend>First renter</legend>
    <label class="lab-field">rents (bytes)
      <input type="text" inputmode="numeric" autocomplete="off" spellcheck="false" data-testid="stale-size1"></label>
    <label class="lab-field lab-line">writes
      <input type="text" autocomplete="off" spellcheck="false" data-testid="stale-line1"></label>
    <label class="lab-check"><input type="checkbox" data-testid="stale-clear"> returns with clearArray: true</label>
  </fieldset>
  <fieldset><legend>Next renter</legend>
    <label class="lab-field">rents (bytes)
      <input type="text" inputmode="numeric" autocomplete="off" spellcheck="false" data-testid="stale-size2"></label>
    <label class="lab-field lab-line">writes
      <input type="text" autocomplete="off" spellcheck="false" data-testid="stale-line2"></label>
    <label class="lab-field">reads (bytes)
      <input type="text" inputmode="numeric" autocomplete="off" spellcheck="false" data-testid="stale-read"></label>
  </fieldset>
  <p class="lab-why">Type <code>\n</code> for a line break. Every change reruns the story on a fresh pool.</p>
</div>
<p class="lab-error" role="alert" data-testid="stale-error" hidden></p>
<div data-testid="stale-result">
<ol class="lab-steps" data-testid="stale-steps"></ol>
<dl class="lab-calc-result">
  <dt>Next renter got the same buffer</dt><dd data-testid="stale-same"></dd>
  <dt>Non-zero bytes it found before writing</dt><dd data-testid="stale-arrival"></dd>
  <dt>Non-zero bytes among the bytes read</dt><dd data-testid="stale-nonzero"></dd>
  <dt>Bytes read that it did not write (leaked)</dt><dd data-testid="stale-leaked"></dd>
</dl>
<p class="lab-text">As text: <span class="lab-own" data-testid="stale-own-text"></span><mark class="lab-leak" data-testid="stale-leak-text"></mark><span class="lab-zeros" data-testid="stale-zeros"></span></p>
<div class="lab-bytes" data-testid="stale-hex"></div>
<p class="lab-why">Bytes it wrote are plain, <mark class="lab-leak">leaked bytes</mark> are marked, zeros are faint. <code>⏎</code> is a line break, <code>�</code> half of a character cut by the read.</p>
</div>
"#;

pub fn mount(root: &Element) -> Result<(), String> {
    root.set_inner_html(TEMPLATE);
    let defaults = Scenario::default();
    for (id, value) in [
        ("stale-size1", defaults.first_size.to_string()),
        ("stale-line1", escape_line(ORDER_LINE)),
        ("stale-size2", defaults.second_size.to_string()),
        ("stale-line2", escape_line(SECOND_LINE)),
        ("stale-read", defaults.read.to_string()),
    ] {
        dom::input(root, id)?.set_value(&value);
    }
    fields::live(root, render)
}

/// Why the fields do not describe a scenario.
enum Fault {
    /// The widget itself is broken (an element vanished).
    Widget(String),
    /// The reader typed something the lab cannot run.
    Input(String),
}

impl From<String> for Fault {
    fn from(e: String) -> Self {
        Fault::Widget(e)
    }
}

/// The scenario the fields describe.
fn read_fields(root: &Element) -> Result<Scenario, Fault> {
    let value = |id: &str| dom::input(root, id).map(|i| i.value());
    let size = |id: &str, what: &str| -> Result<u64, Fault> {
        parse_size(&value(id)?).map_err(|e| Fault::Input(format!("{what}: {e}")))
    };
    let line = |id: &str, what: &str| -> Result<Vec<u8>, Fault> {
        parse_line(&value(id)?).map_err(|e| Fault::Input(format!("{what}: {e}")))
    };
    Ok(Scenario {
        first_size: size("stale-size1", "First renter's size")?,
        first: line("stale-line1", "First renter's line")?,
        clear: dom::input(root, "stale-clear")?.checked(),
        second_size: size("stale-size2", "Next renter's size")?,
        second: line("stale-line2", "Next renter's line")?,
        read: size("stale-read", "Bytes to read")?,
    })
}

fn render(root: &Element) -> Result<(), String> {
    let error = dom::find(root, "stale-error")?;
    let result = dom::find(root, "stale-result")?;
    let outcome = match read_fields(root) {
        Ok(s) => run(&s).map_err(|e| e.to_string()),
        Err(Fault::Input(message)) => Err(message),
        Err(Fault::Widget(message)) => return Err(message),
    };
    match outcome {
        Ok(o) => {
            dom::set_hidden(&error, true);
            dom::set_hidden(&result, false);
            show(root, &o)
        }
        Err(message) => {
            error.set_text_content(Some(&message));
            dom::set_hidden(&error, false);
            dom::set_hidden(&result, true);
            Ok(())
        }
    }
}

fn show(root: &Element, o: &Outcome) -> Result<(), String> {
    let steps: String = o
        .steps
        .iter()
        .map(|s| format!("<li><code>{}</code></li>", escape(s)))
        .collect();
    dom::find(root, "stale-steps")?.set_inner_html(&steps);
    dom::set_text(root, "stale-same", if o.same_buffer { "yes" } else { "no" })?;
    dom::set_text(
        root,
        "stale-arrival",
        &group_digits(o.nonzero_on_arrival as u64),
    )?;
    dom::set_text(root, "stale-nonzero", &group_digits(o.nonzero_read as u64))?;
    dom::set_text(root, "stale-leaked", &group_digits(o.leaked as u64))?;
    dom::set_text(root, "stale-own-text", &o.own_text())?;
    dom::set_text(root, "stale-leak-text", &o.leaked_text())?;
    let zeros = o.trailing_zeros();
    dom::set_text(root, "stale-zeros", &visible(&vec![0; zeros]))?;
    let mut hex = String::with_capacity(o.bytes.len() * 40);
    for (i, &b) in o.bytes.iter().enumerate() {
        let class = if i < o.own {
            "lab-own"
        } else if b != 0 {
            "lab-leak"
        } else {
            "lab-zero"
        };
        hex.push_str(&format!(
            "<span class=\"{class}\" title=\"offset {i}\">{b:02x}</span> "
        ));
    }
    dom::find(root, "stale-hex")?.set_inner_html(&hex);
    Ok(())
}

//! The reader's own numbers (Method chapter): the wasm pool timed in this browser with the
//! bench's method (`scenario::method`), on a button press. The clock is `performance.now()`;
//! the numbers are labelled as the reader's machine and never cited by the book's text.

use lab_text::decimal::fixed;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::Element;

use super::{dom, fields};
use crate::chapter::method::scenario::{
    BATCH_MS, Comparison, ROUNDS, SIZES, Summary, reader_runs, timer_step_ms,
};
use lab_text::{group_digits, t, tf};

/// The widget's markup, its words in the page's language.
fn template() -> String {
    let e = |text: lab_text::tr::Msg| dom::escape(&text);
    format!(
        r#"
<p><label class="lab-field">{}
  <select data-testid="timing-size"></select></label>
<button type="button" data-testid="timing-run">{}</button>
<span data-testid="timing-status"></span></p>
<p class="lab-error" role="alert" data-testid="timing-error" hidden></p>
<table class="lab-table" data-testid="timing-result" hidden>
  <thead><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr></thead>
  <tbody>
    <tr><th>{}</th><td data-testid="timing-pool-ns"></td><td data-testid="timing-fresh-ns"></td><td data-testid="timing-pool-ratio"></td><td data-testid="timing-pool-noise"></td></tr>
    <tr><th>{}</th><td data-testid="timing-clear-ns"></td><td data-testid="timing-noclear-ns"></td><td data-testid="timing-clear-ratio"></td><td data-testid="timing-clear-noise"></td></tr>
  </tbody>
</table>
<p class="lab-why" data-testid="timing-note"></p>
"#,
        e(t!("Buffer size")),
        e(t!("Time it in this browser")),
        e(t!("Comparison (your machine, this browser)")),
        e(t!("A per call")),
        e(t!("B per call")),
        e(t!("A ÷ B (median of per-round ratios)")),
        e(t!("noise of the ratio")),
        e(t!("A: pool rent + return; B: fresh zeroed allocation")),
        e(t!("A: return with clearing; B: without")),
    )
}

pub fn mount(root: &Element) -> Result<(), String> {
    root.set_inner_html(&template());
    let labels: Vec<(String, String)> = SIZES
        .iter()
        .map(|&n| (n.to_string(), format!("{} B", group_digits(n as u64))))
        .collect();
    let pairs: Vec<(&str, &str)> = labels
        .iter()
        .map(|(v, l)| (v.as_str(), l.as_str()))
        .collect();
    dom::find(root, "timing-size")?.set_inner_html(&fields::options(&pairs));
    fields::select(root, "timing-size", "1024")?;
    dom::keep_keys(root)?;
    let widget = root.clone();
    dom::on(&dom::find(root, "timing-run")?, "click", move |_| {
        if let Err(message) = start(&widget) {
            dom::show_failure(&widget, &message);
        }
    })?;
    Ok(())
}

/// Says the run started, then runs it on the next task so the page can show that first.
fn start(root: &Element) -> Result<(), String> {
    dom::set_text(root, "timing-status", &t!("measuring… (about a second)"))?;
    let widget = root.clone();
    let later = Closure::once_into_js(move || {
        if let Err(message) = run(&widget) {
            dom::show_failure(&widget, &message);
        }
    });
    web_sys::window()
        .ok_or_else(|| t!("no window: the lab runs in a browser page").into_owned())?
        .set_timeout_with_callback_and_timeout_and_arguments_0(later.unchecked_ref(), 30)
        .map_err(|e| dom::describe(&e))?;
    Ok(())
}

fn run(root: &Element) -> Result<(), String> {
    let size: usize = fields::selected(root, "timing-size")?
        .parse()
        .map_err(|_| t!("choose a buffer size from the list").into_owned())?;
    let performance = web_sys::window()
        .and_then(|w| w.performance())
        .ok_or_else(|| t!("this browser has no performance.now() timer").into_owned())?;
    let mut now = || performance.now();
    let step = timer_step_ms(&mut now, 10_000);
    let Some((vs_fresh, clearing)) = reader_runs(&mut now, size, ROUNDS, BATCH_MS) else {
        fields::error(
            root,
            "timing-error",
            Some(&t!(
                "this browser's timer did not advance during the run: nothing to show"
            )),
        )?;
        return dom::set_text(root, "timing-status", "");
    };
    fields::error(root, "timing-error", None)?;
    show(root, "pool", "fresh", &vs_fresh)?;
    show(root, "clear", "noclear", &clearing)?;
    dom::set_hidden(&dom::find(root, "timing-result")?, false);
    dom::set_text(root, "timing-status", &t!("done"))?;
    dom::set_text(
        root,
        "timing-note",
        &tf!(
            "Measured just now in your browser: {} paired rounds per comparison, each side \
             a batch of about {} ms ({} and {} calls for the first comparison), so this \
             browser's timer step ({}) is a small part of each batch. These are your machine's \
             numbers; the book's text cites only its own bench.",
            ROUNDS,
            fixed(BATCH_MS, 0),
            group_digits(vs_fresh.iters.0),
            group_digits(vs_fresh.iters.1),
            describe_step(step),
        ),
    )
}

fn show(root: &Element, a: &str, b: &str, c: &Comparison) -> Result<(), String> {
    let a_id = format!("timing-{a}-ns");
    let b_id = format!("timing-{b}-ns");
    let ratio_id = format!("timing-{a}-ratio");
    let noise_id = format!("timing-{a}-noise");
    fields::texts(
        root,
        &[
            (a_id.as_str(), ns(&c.a_ns)),
            (b_id.as_str(), ns(&c.b_ns)),
            (ratio_id.as_str(), format!("{}×", fixed(c.ratio.median, 2))),
            (
                noise_id.as_str(),
                format!("{} %", fixed(c.ratio.robust_cv * 100.0, 1)),
            ),
        ],
    )
}

fn ns(s: &Summary) -> String {
    if s.median >= 100.0 {
        format!("{} ns", fixed(s.median, 0))
    } else {
        format!("{} ns", fixed(s.median, 1))
    }
}

fn describe_step(ms: f64) -> String {
    if ms <= 0.0 {
        t!("not seen to advance").into_owned()
    } else if ms >= 1.0 {
        format!("{} ms", fixed(ms, 1))
    } else {
        format!("{} µs", fixed(ms * 1000.0, 0))
    }
}

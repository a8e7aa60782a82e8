//! `{{#lab-widget NAME [initial=…]}}`: the mount point, holding the widget's default state drawn
//! at build time from the lab's own view model (`wasm_lab::view`), so a reader without scripts
//! sees the default result; the wasm build then replaces it with the live widget, drawn by the
//! same renderer (no layout shift, no "Loading…" forever).

use wasm_lab::view::{self, Env, Inputs, html};

/// The line a reader without scripts sees under the static widget.
pub const NO_SCRIPT: &str = lab_text::n!(
    "This widget needs JavaScript to change it: what you see is its default result, computed when the book was built."
);

pub fn widget(name: &str, options: &[&str]) -> Result<String, String> {
    let Some(w) = view::widget(name) else {
        if wasm_lab::widget_names().any(|n| n == name) {
            // A widget with no default result to draw: it measures the reader's own browser.
            return Ok(format!(
                "\n\n<div class=\"lab-widget\" data-lab-widget=\"{name}\" data-testid=\"widget-{name}\">\
                 <noscript><p class=\"lab-noscript\" data-testid=\"lab-noscript\">{}</p></noscript>\
                 <p class=\"lab-loading\">{}</p></div>\n\n",
                html::escape(&lab_text::t!(
                    "This widget times the lab in your browser: it needs JavaScript to change it, and to run at all."
                )),
                html::escape(&lab_text::t!(
                    "Loading the timing widget… (it needs JavaScript and WebAssembly)"
                ))
            ));
        }
        return Err(format!(
            "the lab has no widget `{name}` (it has: {})",
            wasm_lab::widget_names().collect::<Vec<_>>().join(", ")
        ));
    };
    let mut attrs = String::new();
    let mut initial = "";
    for option in options {
        match option.split_once('=') {
            Some(("initial", v)) => {
                initial = v;
                attrs.push_str(&format!(" data-initial=\"{}\"", html::escape(v)));
            }
            _ => {
                return Err(format!(
                    "unknown widget option `{option}` (known: initial=…)"
                ));
            }
        }
    }
    let form = (w.form)(initial);
    let v = (w.view)(&Inputs::from_form(&form), &Env::default());
    if let Some(e) = v.slots.iter().find_map(|s| s.error.as_deref()) {
        return Err(format!("its default state does not run: {e}"));
    }
    // One line of HTML: a blank line would end Markdown's HTML block.
    let body = html::widget(name, &form, &v).replace('\n', " ");
    Ok(format!(
        "\n\n<div class=\"lab-widget lab-static\" data-lab-widget=\"{name}\" data-testid=\"widget-{name}\"{attrs}>\
         <noscript><p class=\"lab-noscript\" data-testid=\"lab-noscript\">{}</p></noscript>{body}</div>\n\n",
        html::escape(&lab_text::tr::get_dynamic(NO_SCRIPT))
    ))
}

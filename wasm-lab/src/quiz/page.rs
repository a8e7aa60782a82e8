//! What the book's page gives a quiz beyond the lab itself: the bench figures its data questions
//! are graded from and rustc's verdicts on the "does this compile?" snippets, both written by the
//! preprocessor at build time into the mount point's `data-page` attribute (JSON). An
//! instructor's rerun of the bench therefore changes the answers together with the text.

use litemap::LiteMap;

use serde::{Deserialize, Serialize};

/// Everything a quiz's mount point carries.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Page {
    /// The machine the figures were measured on (`book/data/<machine>.json`).
    #[serde(default)]
    pub machine: String,
    #[serde(
        default,
        serialize_with = "crate::json::object::write",
        deserialize_with = "crate::json::object::map"
    )]
    pub figures: LiteMap<String, Fig>,
    /// rustc's verdict per snippet name ([`super::snippets::SNIPPETS`]).
    #[serde(
        default,
        serialize_with = "crate::json::object::write",
        deserialize_with = "crate::json::object::map"
    )]
    pub compiled: LiteMap<String, Compiled>,
}

/// One bench figure as the data file holds it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fig {
    pub title: String,
    /// `nanoseconds`, `bytes`, `count` or `ratio`.
    pub unit: String,
    pub value: f64,
    /// The 95 % interval of the median.
    pub low: f64,
    pub high: f64,
    /// The noise the gate judged, as a fraction (0.05 = 5 %).
    pub noise: f64,
    pub gate: Gate,
    /// The gate's reason, as the data file words it.
    pub note: String,
}

/// The noise gate's verdict on a figure (`bench_data::Verdict`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Gate {
    Absolute,
    RatioOnly,
    Unfit,
}

/// What rustc said about one snippet, compiled against the lab at build time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Compiled {
    pub compiles: bool,
    /// rustc's error lines (`error[E0382]: use of moved value: ...`), first first.
    pub errors: Vec<String>,
}

impl Page {
    /// A page with made-up figures for every key a quiz lists (spread so that every verdict and
    /// every direction occurs) and rustc's verdicts as the snippets expect them.
    #[doc(hidden)]
    pub fn sample() -> Page {
        let mut page = Page {
            machine: "test-machine".into(),
            ..Page::default()
        };
        let gates = [Gate::Absolute, Gate::RatioOnly, Gate::Unfit];
        for (i, key) in super::quizzes().flat_map(|q| q.figures).enumerate() {
            let ratio = key.contains("_vs_");
            let (value, low, high) = if ratio {
                [(0.8, 0.78, 0.82), (1.3, 1.2, 1.4), (1.0, 0.97, 1.03)][i % 3]
            } else {
                let v = 100_000.0 + i as f64;
                (v, v, v)
            };
            let gate = if ratio && i % 5 != 0 {
                Gate::RatioOnly
            } else {
                gates[i % 3]
            };
            page.figures.insert(
                key.to_string(),
                Fig {
                    title: format!("figure {key}"),
                    unit: if ratio { "ratio" } else { "nanoseconds" }.into(),
                    value,
                    low,
                    high,
                    noise: 0.03,
                    gate,
                    note: "a note".into(),
                },
            );
        }
        for s in super::snippets::SNIPPETS {
            page.compiled.insert(
                s.name.into(),
                Compiled {
                    compiles: s.compiles,
                    errors: if s.compiles {
                        Vec::new()
                    } else {
                        vec!["error[E0382]: use of moved value".into()]
                    },
                },
            );
        }
        page
    }

    /// Texts [`Page::from_json`] must refuse, for the native tests and the browser's (which read
    /// with a different parser).
    #[doc(hidden)]
    pub const UNREADABLE: &[&str] = &[
        "{",
        "null",
        "\"page\"",
        "{\"machine\":\"m\",\"extra\":1}",
        "{\"machine\":7}",
        "{\"figures\":[]}",
        "{\"figures\":{\"f\":null}}",
        "{\"figures\":{\"f\":{\"title\":\"t\",\"unit\":\"ratio\",\"value\":1,\"low\":1,\"high\":1,\"noise\":0,\"gate\":\"absolute\"}}}",
        "{\"figures\":{\"f\":{\"title\":\"t\",\"unit\":\"ratio\",\"value\":\"1\",\"low\":1,\"high\":1,\"noise\":0,\"gate\":\"absolute\",\"note\":\"\"}}}",
        "{\"figures\":{\"f\":{\"title\":\"t\",\"unit\":\"ratio\",\"value\":1e400,\"low\":1,\"high\":1,\"noise\":0,\"gate\":\"absolute\",\"note\":\"\"}}}",
        "{\"figures\":{\"f\":{\"title\":\"t\",\"unit\":\"ratio\",\"value\":1,\"low\":1,\"high\":1,\"noise\":0,\"gate\":\"Absolute\",\"note\":\"\"}}}",
        "{\"figures\":{\"f\":{\"title\":\"t\",\"unit\":\"ratio\",\"value\":1,\"low\":1,\"high\":1,\"noise\":0,\"gate\":\"absolute\",\"note\":\"\",\"x\":1}}}",
        "{\"compiled\":{\"s\":{\"compiles\":true}}}",
        "{\"compiled\":{\"s\":{\"compiles\":1,\"errors\":[]}}}",
        "{\"compiled\":{\"s\":{\"compiles\":false,\"errors\":\"E0382\"}}}",
        "{\"compiled\":{\"s\":{\"compiles\":false,\"errors\":[1]}}}",
    ];

    /// Reads a mount point's `data-page`; an absent attribute is an empty page.
    ///
    /// Natively with `serde_json`; in wasm with the browser's `JSON.parse` and `Page::from_js`
    /// (see `src/json.rs` for the bytes that saves).
    pub fn from_json(text: &str) -> Result<Page, String> {
        if text.trim().is_empty() {
            return Ok(Page::default());
        }
        #[cfg(not(target_arch = "wasm32"))]
        let page = serde_json::from_str(text).map_err(|e| e.to_string());
        #[cfg(target_arch = "wasm32")]
        let page = crate::json::js::parse(text).and_then(|v| Page::from_js(&v));
        page.map_err(|e| format!("the page's quiz data is unreadable: {e}"))
    }

    /// The page as the preprocessor writes it. In wasm only for the browser tests (`replay`): the
    /// shipped module never writes a page.
    #[cfg(any(not(target_arch = "wasm32"), feature = "replay"))]
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// [`Page::from_json`]'s walk in wasm, as strict as the derived `Deserialize` is natively.
    #[cfg(target_arch = "wasm32")]
    fn from_js(v: &wasm_bindgen::JsValue) -> Result<Page, String> {
        use crate::json::js;
        let o = js::object(v, "the page", &["machine", "figures", "compiled"])?;
        let mut page = Page::default();
        if let Some(m) = js::get(&o, "machine") {
            page.machine = js::string(&m, "machine")?;
        }
        if let Some(f) = js::get(&o, "figures") {
            page.figures = js::map(&f, "figures", |v, key| {
                let what = format!("figure `{key}`");
                let o = js::object(
                    v,
                    &what,
                    &[
                        "title", "unit", "value", "low", "high", "noise", "gate", "note",
                    ],
                )?;
                let field = |name: &str| js::required(&o, &what, name);
                let number = |name: &str| js::number(&field(name)?, &format!("{what}.{name}"));
                let text = |name: &str| js::string(&field(name)?, &format!("{what}.{name}"));
                Ok(Fig {
                    title: text("title")?,
                    unit: text("unit")?,
                    value: number("value")?,
                    low: number("low")?,
                    high: number("high")?,
                    noise: number("noise")?,
                    gate: match text("gate")?.as_str() {
                        "absolute" => Gate::Absolute,
                        "ratio_only" => Gate::RatioOnly,
                        "unfit" => Gate::Unfit,
                        other => return Err(format!("{what}.gate: unknown verdict `{other}`")),
                    },
                    note: text("note")?,
                })
            })?;
        }
        if let Some(c) = js::get(&o, "compiled") {
            page.compiled = js::map(&c, "compiled", |v, key| {
                let what = format!("snippet `{key}`");
                let o = js::object(v, &what, &["compiles", "errors"])?;
                Ok(Compiled {
                    compiles: js::boolean(&js::required(&o, &what, "compiles")?, &what)?,
                    errors: js::array(&js::required(&o, &what, "errors")?, &what, |e| {
                        js::string(e, &what)
                    })?,
                })
            })?;
        }
        Ok(page)
    }

    /// The figure `key`, or a message saying the page lacks it.
    pub fn figure(&self, key: &str) -> Result<&Fig, String> {
        self.figures
            .get(key)
            .ok_or_else(|| format!("this page carries no bench figure `{key}` (rebuild the book)"))
    }

    /// rustc's verdict on the snippet `name`, or a message saying the page lacks it.
    pub fn compiled(&self, name: &str) -> Result<&Compiled, String> {
        self.compiled.get(name).ok_or_else(|| {
            format!(
                "this page carries no compiler verdict for the snippet `{name}` (rebuild the book)"
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_it_writes_and_refuses_the_rest() {
        let page = Page::sample();
        assert_eq!(Page::from_json(&page.to_json()), Ok(page));
        assert_eq!(Page::from_json(" "), Ok(Page::default()));
        assert_eq!(Page::from_json("{}"), Ok(Page::default()));
        for bad in Page::UNREADABLE {
            let e = Page::from_json(bad).expect_err(bad);
            assert!(e.starts_with("the page's quiz data is unreadable"), "{e}");
        }
    }
}

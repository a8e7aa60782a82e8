//! Reading JSON in the wasm build: the browser's `JSON.parse`, then a strict walk of the result.
//!
//! The walk is as strict as `serde_json` with `deny_unknown_fields` is natively: an object must
//! be one (not an array or `null`), carry no field it does not know and every field it
//! requires; integers must be whole and in range; strings and booleans must be those. The
//! differences: a number written `1.0` reads as the integer 1, and of a field given twice the
//! last wins (both from `JSON.parse`; `serde_json` refuses them); a struct written as an array
//! (serde's sequence form, `[2, {}]`, which nothing writes) is refused here.

use litemap::LiteMap;

use crate::progress::{Progress, Tally};
use crate::quiz::{Compiled, Fig, Gate, Page};

use js_sys::{Array, JSON, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};

/// `text` parsed by the browser; the error is the browser's message.
pub fn parse(text: &str) -> Result<JsValue, String> {
    JSON::parse(text).map_err(|e| {
        e.dyn_ref::<js_sys::Error>()
            .map_or_else(|| "not JSON".into(), |e| String::from(e.message()))
    })
}

/// A JSON object whose fields are all among `fields`; `what` names it in errors.
pub fn object(v: &JsValue, what: &str, fields: &[&str]) -> Result<Object, String> {
    let obj = as_object(v, what)?;
    for key in Object::keys(&obj) {
        let key = key.as_string().unwrap_or_default();
        if !fields.contains(&key.as_str()) {
            return Err(format!("{what}: unknown field `{key}`"));
        }
    }
    Ok(obj)
}

fn as_object(v: &JsValue, what: &str) -> Result<Object, String> {
    if v.is_object() && !Array::is_array(v) {
        Ok(v.clone().unchecked_into())
    } else {
        Err(format!("{what}: expected an object"))
    }
}

/// The field `key` of `obj`, `None` when absent.
pub fn get(obj: &Object, key: &str) -> Option<JsValue> {
    Reflect::get(obj, &JsValue::from_str(key))
        .ok()
        .filter(|v| !v.is_undefined())
}

/// The field `key` of `obj`, which must be there.
pub fn required(obj: &Object, what: &str, key: &str) -> Result<JsValue, String> {
    get(obj, key).ok_or_else(|| format!("{what}: missing field `{key}`"))
}

/// An object read as a map, each value read by `read` (given the value and its key).
pub fn map<T>(
    v: &JsValue,
    what: &str,
    mut read: impl FnMut(&JsValue, &str) -> Result<T, String>,
) -> Result<LiteMap<String, T>, String> {
    let obj = as_object(v, what)?;
    let mut out = LiteMap::new();
    for entry in Object::entries(&obj) {
        let entry: Array = entry.unchecked_into();
        let key = entry.get(0).as_string().unwrap_or_default();
        let value = read(&entry.get(1), &key)?;
        out.insert(key, value);
    }
    Ok(out)
}

/// An array, each element read by `read`.
pub fn array<T>(
    v: &JsValue,
    what: &str,
    mut read: impl FnMut(&JsValue) -> Result<T, String>,
) -> Result<Vec<T>, String> {
    if !Array::is_array(v) {
        return Err(format!("{what}: expected an array"));
    }
    let array: &Array = v.unchecked_ref();
    array.iter().map(|e| read(&e)).collect()
}

pub fn string(v: &JsValue, what: &str) -> Result<String, String> {
    v.as_string()
        .ok_or_else(|| format!("{what}: expected a string"))
}

pub fn boolean(v: &JsValue, what: &str) -> Result<bool, String> {
    v.as_bool()
        .ok_or_else(|| format!("{what}: expected a boolean"))
}

/// A finite number (`JSON.parse` reads `1e400` as infinity, which `serde_json` refuses).
pub fn number(v: &JsValue, what: &str) -> Result<f64, String> {
    v.as_f64()
        .filter(|x| x.is_finite())
        .ok_or_else(|| format!("{what}: expected a number"))
}

/// A whole number from 0 to `u32::MAX`.
pub fn u32(v: &JsValue, what: &str) -> Result<u32, String> {
    let x = number(v, what)?;
    if x.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&x) {
        Ok(x as u32)
    } else {
        Err(format!(
            "{what}: expected a whole number from 0 to {}",
            u32::MAX
        ))
    }
}

/// A quiz mount point's `data-page`, walked as strictly as the derived `Deserialize` reads it
/// natively ([`Page::from_json`]).
pub fn page(text: &str) -> Result<Page, String> {
    let v = &parse(text)?;
    let o = object(v, "the page", &["machine", "figures", "compiled"])?;
    let mut page = Page::default();
    if let Some(m) = get(&o, "machine") {
        page.machine = string(&m, "machine")?;
    }
    if let Some(f) = get(&o, "figures") {
        page.figures = map(&f, "figures", |v, key| {
            let what = format!("figure `{key}`");
            let o = object(
                v,
                &what,
                &[
                    "title", "unit", "value", "low", "high", "noise", "gate", "note",
                ],
            )?;
            let field = |name: &str| required(&o, &what, name);
            let number = |name: &str| number(&field(name)?, &format!("{what}.{name}"));
            let text = |name: &str| string(&field(name)?, &format!("{what}.{name}"));
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
    if let Some(c) = get(&o, "compiled") {
        page.compiled = map(&c, "compiled", |v, key| {
            let what = format!("snippet `{key}`");
            let o = object(v, &what, &["compiles", "errors"])?;
            Ok(Compiled {
                compiles: boolean(&required(&o, &what, "compiles")?, &what)?,
                errors: array(&required(&o, &what, "errors")?, &what, |e| string(e, &what))?,
            })
        })?;
    }
    Ok(page)
}

/// Stored progress, walked as strictly as the derived `Deserialize` reads it natively; its
/// consistency is checked by [`Progress::from_json`].
pub fn progress(text: &str) -> Result<Progress, String> {
    let v = &parse(text)?;
    let o = object(v, "progress", &["version", "quizzes"])?;
    let version = u32(&required(&o, "progress", "version")?, "version")?;
    let quizzes = map(
        &required(&o, "progress", "quizzes")?,
        "quizzes",
        |v, quiz| {
            map(v, quiz, |v, kind| {
                let what = format!("{quiz}/{kind}");
                let o = object(v, &what, &["attempts", "correct", "revealed"])?;
                let count = |name: &str| u32(&required(&o, &what, name)?, &what);
                Ok(Tally {
                    attempts: count("attempts")?,
                    correct: count("correct")?,
                    revealed: match get(&o, "revealed") {
                        Some(r) => u32(&r, &what)?,
                        None => 0,
                    },
                })
            })
        },
    )?;
    Ok(Progress::from_parts(version, quizzes))
}

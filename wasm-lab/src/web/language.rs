//! The page's language (issue 24): `setLanguage(code, strings)`, called by the loader before
//! `mountAll` on a translated page. `strings` is the page's module's messages in that language
//! (`wasm/<module>/strings.<lang>.json`, parsed by the browser: no PO parser in the wasm), and the
//! numbers and plurals come from the browser's `Intl`, so the module carries no locale data.

use js_sys::{Array, Intl, Object, Reflect};
use wasm_bindgen::prelude::*;

/// Sets the lab's language and installs the page's strings and the browser's number rules.
#[wasm_bindgen(js_name = setLanguage)]
pub fn set_language(code: &str, strings: JsValue) -> Result<(), JsError> {
    if lab_text::lang::find(code).is_none() {
        return Err(JsError::new(&format!("the lab has no language “{code}”")));
    }
    let Some(object) = strings.dyn_ref::<Object>() else {
        return Err(JsError::new("the page's strings are not an object"));
    };
    lab_text::tr::set_language(code);
    let mut table = Vec::new();
    for entry in Object::entries(object).iter() {
        let pair = Array::from(&entry);
        let key = pair.get(0).as_string().and_then(|k| k.parse::<u64>().ok());
        let forms: Option<Vec<String>> = pair
            .get(1)
            .dyn_into::<Array>()
            .ok()
            .map(|forms| forms.iter().filter_map(|f| f.as_string()).collect());
        // A malformed entry is left out: its message shows in English, nothing breaks.
        if let (Some(key), Some(forms)) = (key, forms)
            && !forms.is_empty()
        {
            table.push((key, forms));
        }
    }
    lab_text::tr::install(table);
    lab_text::tr::set_rules(rules(code));
    Ok(())
}

/// The browser's `Intl.NumberFormat` (whole numbers) and `Intl.PluralRules` for `code`.
fn rules(code: &str) -> Option<lab_text::tr::Rules> {
    let locales = Array::of1(&JsValue::from_str(code));
    let options = Object::new();
    Reflect::set(&options, &"maximumFractionDigits".into(), &0.into()).ok()?;
    let number = Intl::NumberFormat::new(&locales, &options);
    let plural = Intl::PluralRules::new(&locales, &Object::new());
    let format = number.format();
    let code = code.to_string();
    Some(lab_text::tr::Rules {
        group: Box::new(move |n| {
            format
                .call1(&JsValue::NULL, &JsValue::from_f64(n as f64))
                .ok()
                .and_then(|s| s.as_string())
                .unwrap_or_else(|| n.to_string())
        }),
        plural: Box::new(move |n| {
            let category = plural.select(n as f64);
            form_of(&code, &String::from(category))
        }),
    })
}

/// A CLDR plural category as the index of a message's forms in `code`'s catalog order.
pub fn form_of(code: &str, category: &str) -> usize {
    match (code, category) {
        ("ru", "one") => 0,
        ("ru", "few") => 1,
        ("ru", _) => 2,
        ("th", _) => 0,
        (_, "one") => 0,
        _ => 1,
    }
}

//! The page's language (issue 24): `setLanguage(code, strings)`, called by the loader before
//! `mountAll` on a translated page. `strings` is the text of the page's module's strings file in
//! that language (`wasm/<module>/strings.<lang>.txt`, a line per message: see
//! `lab_text::tr::strings_file`), so the module carries no PO or JSON parser for it, and the
//! numbers and plurals come from the browser's `Intl`, so it carries no locale data either.

use js_sys::{Array, Intl, Object};
use wasm_bindgen::prelude::*;

/// Sets the lab's language and installs the page's strings and the browser's number rules. A
/// malformed line of `strings` is left out (its message shows in English); nothing breaks.
#[wasm_bindgen(js_name = setLanguage)]
pub fn set_language(code: &str, strings: &str) -> Result<(), JsError> {
    if lab_text::lang::find(code).is_none() {
        return Err(JsError::new(&format!("the lab has no language “{code}”")));
    }
    lab_text::tr::set_language(code);
    lab_text::tr::install_file(strings);
    lab_text::tr::set_rules(Some(rules(code)));
    Ok(())
}

thread_local! {
    // The page's `Intl` objects, made once by `setLanguage`; the rules below call them.
    static INTL: std::cell::RefCell<Option<(Intl::NumberFormat, Intl::PluralRules)>> =
        const { std::cell::RefCell::new(None) };
}

/// The browser's `Intl.NumberFormat` and `Intl.PluralRules` for `code`, as the lab's rules. Only
/// whole numbers go through them (the lab formats its decimals itself), so the default options
/// serve.
fn rules(code: &str) -> lab_text::tr::Rules {
    let locales = Array::of1(&JsValue::from_str(code));
    let number = Intl::NumberFormat::new(&locales, &Object::new());
    let plural = Intl::PluralRules::new(&locales, &Object::new());
    INTL.with(|i| *i.borrow_mut() = Some((number, plural)));
    lab_text::tr::Rules {
        group: group_by_intl,
        plural: plural_by_intl,
    }
}

fn group_by_intl(n: u64) -> String {
    INTL.with(|i| {
        let i = i.borrow();
        let (number, _) = i.as_ref()?;
        let text = number
            .format()
            .call1(&JsValue::NULL, &JsValue::from_f64(n as f64));
        text.ok()?.as_string()
    })
    .unwrap_or_else(|| n.to_string())
}

fn plural_by_intl(n: u64) -> usize {
    let category = INTL.with(|i| {
        i.borrow()
            .as_ref()
            .map(|(_, p)| String::from(p.select(n as f64)))
    });
    form_of(
        lab_text::tr::language().code,
        category.as_deref().unwrap_or("other"),
    )
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

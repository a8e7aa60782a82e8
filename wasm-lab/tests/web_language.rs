//! The page's language in the browser (issue 24): the browser's `Intl` agrees with the rules the
//! build-time render uses (plural forms, digit grouping), and `setLanguage` installs a page's
//! strings and the browser's number rules, refusing what it cannot use without breaking.
//!
//! Run by `cargo xtask test` (or `cargo test -p wasm-lab --target wasm32-unknown-unknown`).
#![cfg(target_arch = "wasm32")]

use js_sys::{Array, Intl, Object};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

use wasm_lab::web::language::{form_of, set_language};

wasm_bindgen_test_configure!(run_in_browser);

fn locales(code: &str) -> Array {
    Array::of1(&JsValue::from_str(code))
}

fn intl_group(code: &str, n: u64) -> String {
    Intl::NumberFormat::new(&locales(code), &Object::new())
        .format()
        .call1(&JsValue::NULL, &JsValue::from_f64(n as f64))
        .unwrap()
        .as_string()
        .unwrap()
}

#[wasm_bindgen_test]
fn the_built_in_rules_are_the_browsers() {
    for code in ["en", "ru", "th"] {
        lab_text::tr::set_language(code);
        lab_text::tr::set_rules(None);
        let plural = Intl::PluralRules::new(&locales(code), &Object::new());
        for n in (0..1200).chain([9_999, 10_000, 65_536, 1_048_576, 21_000_001, 1_073_741_824]) {
            let category = String::from(plural.select(n as f64));
            assert_eq!(
                lab_text::tr::builtin_plural_form(code, n),
                form_of(code, &category),
                "{code}: the plural form of {n} ({category})"
            );
            assert_eq!(
                lab_text::group_digits(n),
                intl_group(code, n),
                "{code}: {n}"
            );
        }
    }
    lab_text::tr::set_language("en");
}

#[wasm_bindgen_test]
fn set_language_installs_the_strings_and_the_browsers_numbers() {
    let strings = lab_text::tr::strings_file(&[(
        lab_text::tr::key("Predict first"),
        vec!["Сначала предскажите".to_string()],
    )])
    .unwrap();
    // A malformed line is skipped, not fatal.
    set_language("ru", &format!("not a key\t1\n{strings}")).unwrap();
    assert_eq!(lab_text::t!("Predict first"), "Сначала предскажите");
    assert_eq!(
        lab_text::t!("Run it"),
        "Run it",
        "an untranslated message shows in English"
    );
    assert_eq!(lab_text::group_digits(2_097_152), "2\u{a0}097\u{a0}152");
    assert_eq!(lab_text::tp!(3, "{} buffer", "{} buffers"), "3 buffers");
    assert!(set_language("xx", "").is_err());
    set_language("en", "").unwrap();
    lab_text::tr::set_rules(None);
    assert_eq!(lab_text::group_digits(2_097_152), "2,097,152");
}

//! The languages the course ships (issue 24): one list, read by the book's build (one site per
//! language), the language picker, the catalogs' headers and the lab's number and plural rules.
//!
//! English is the source: its site is the book's root, the others are at `<code>/`.

/// One language of the course.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Language {
    /// The BCP 47 code: `<html lang>`, the site's folder, the catalog `book/po/<code>.po`.
    pub code: &'static str,
    /// The language's name in itself, as the picker shows it.
    pub name: &'static str,
    /// The gettext `Plural-Forms` header (CLDR's integer rules).
    pub plural_forms: &'static str,
}

/// Every language, English first.
pub const LANGUAGES: &[Language] = &[
    Language {
        code: "en",
        name: "English",
        plural_forms: "nplurals=2; plural=(n != 1);",
    },
    Language {
        code: "ru",
        name: "Русский",
        plural_forms: "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && \
                       (n%100<10 || n%100>=20) ? 1 : 2);",
    },
    Language {
        code: "th",
        name: "ไทย",
        plural_forms: "nplurals=1; plural=0;",
    },
];

/// The languages translated from English.
pub fn translated() -> impl Iterator<Item = &'static Language> {
    LANGUAGES.iter().skip(1)
}

/// The language of `code`, if the course ships it.
pub fn find(code: &str) -> Option<&'static Language> {
    LANGUAGES.iter().find(|l| l.code == code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_is_first_and_codes_are_unique() {
        assert_eq!(LANGUAGES[0].code, "en");
        assert_eq!(translated().count(), LANGUAGES.len() - 1);
        for l in LANGUAGES {
            assert_eq!(find(l.code), Some(l));
        }
        assert_eq!(find("de"), None);
    }
}

//! The Russian checks of the translation report (issue 38): counts agree with their noun, and a
//! number stands apart from its unit by a no-break space.
//!
//! - **Counts.** Russian puts a noun after a number in one of three forms (1 байт, 2 байта,
//!   5 байт; 21 like 1, 22 like 2, 11 like 5), so a count is a plural message (`tp!`, with
//!   `msgid_plural` and three Russian forms), or a unit symbol that does not inflect («3 Б»).
//!   [`count_before_noun`] finds a placeholder that a non-plural message puts straight before a
//!   counted noun («Вы арендуете {} байт» prints «3 байт»); [`agreement`] renders a plural
//!   message with 1, 2, 5, 11, 21 and 22 and checks that the words after the count take the
//!   forms Russian gives them after those numbers. Both know the nouns of [`nouns`].
//! - **Units.** [`unit_spaces`] finds a plain space between a number (or a `{}` placeholder) and
//!   a unit symbol (Б, КиБ, нс, ГГц, %, …): a line break there separates a number from its unit,
//!   so Russian typography writes a no-break space (U+00A0), as `lab_text::tr::localize_figure`
//!   does for the figures.

use std::sync::OnceLock;

/// A counted noun: its singular and plural forms, each in the order nominative, genitive,
/// dative, accusative, instrumental, prepositional. A form may list alternatives (`байт|байтов`).
pub struct Noun {
    pub sg: [String; 6],
    pub pl: [String; 6],
}

const NOM: usize = 0;
const GEN: usize = 1;
const DAT: usize = 2;
const ACC: usize = 3;
const INS: usize = 4;
const PREP: usize = 5;

impl Noun {
    fn new(sg: [&str; 6], pl: [&str; 6]) -> Noun {
        Noun {
            sg: sg.map(String::from),
            pl: pl.map(String::from),
        }
    }

    /// A masculine noun of the hard declension (`буфер`), or with a velar stem (`блок`: `блоки`).
    fn masculine(stem: &str) -> Noun {
        let y = if stem.ends_with(['к', 'г', 'х']) {
            "и"
        } else {
            "ы"
        };
        let s = |end: &str| format!("{stem}{end}");
        Noun {
            sg: [s(""), s("а"), s("у"), s(""), s("ом"), s("е")],
            pl: [s(y), s("ов"), s("ам"), s(y), s("ами"), s("ах")],
        }
    }

    /// A feminine noun in `-ция` (`инструкция`), from its stem in `-ци`.
    fn in_tsiya(stem: &str) -> Noun {
        let s = |end: &str| format!("{stem}{end}");
        Noun {
            sg: [s("я"), s("и"), s("и"), s("ю"), s("ей"), s("и")],
            pl: [s("и"), s("й"), s("ям"), s("и"), s("ями"), s("ях")],
        }
    }

    /// The forms after a count, per case: `(after 1, after 2, after 5)`. After 2–4 the
    /// nominative and accusative take the genitive singular; the other cases the plural.
    fn rows(&self) -> Vec<[&str; 3]> {
        let (sg, pl) = (&self.sg, &self.pl);
        vec![
            [&sg[NOM], &sg[GEN], &pl[GEN]],
            [&sg[ACC], &sg[GEN], &pl[GEN]],
            [&sg[GEN], &pl[GEN], &pl[GEN]],
            [&sg[DAT], &pl[DAT], &pl[DAT]],
            [&sg[INS], &pl[INS], &pl[INS]],
            [&sg[PREP], &pl[PREP], &pl[PREP]],
        ]
    }

    /// Whether `word` is one of this noun's forms.
    pub fn has_form(&self, word: &str) -> bool {
        self.sg
            .iter()
            .chain(&self.pl)
            .any(|f| f.split('|').any(|f| f == word))
    }

    /// Whether `(one, few, many)` are the forms this noun takes after 1, 2 and 5 in one case.
    fn agrees(&self, words: [&str; 3]) -> bool {
        self.rows().iter().any(|row| {
            row.iter()
                .zip(words)
                .all(|(forms, w)| forms.split('|').any(|f| f == w))
        })
    }
}

/// The nouns the lab counts. A count before one of them must agree with it; add a noun here when
/// a message counts a new one (the plural check names a word it does not know).
pub fn nouns() -> &'static [Noun] {
    static NOUNS: OnceLock<Vec<Noun>> = OnceLock::new();
    NOUNS.get_or_init(|| {
        let mut out: Vec<Noun> = [
            "буфер",
            "раунд",
            "элемент",
            "массив",
            "раздел",
            "блок",
            "поток",
            "чанк",
            "вызов",
            "бакет",
            "повтор",
            "замер",
            "прогон",
            "рантайм",
            "ответ",
            "запрос",
            "процессор",
            "такт",
            "слот",
            "стек",
            "вопрос",
        ]
        .into_iter()
        .map(Noun::masculine)
        .collect();
        out.extend(
            ["инструк", "макроопера", "итера"]
                .into_iter()
                .map(|s| Noun::in_tsiya(&format!("{s}ци"))),
        );
        out.extend([
            Noun::new(
                ["байт", "байта", "байту", "байт", "байтом", "байте"],
                [
                    "байты",
                    "байт|байтов",
                    "байтам",
                    "байты",
                    "байтами",
                    "байтах",
                ],
            ),
            Noun::new(
                [
                    "столбец",
                    "столбца",
                    "столбцу",
                    "столбец",
                    "столбцом",
                    "столбце",
                ],
                [
                    "столбцы",
                    "столбцов",
                    "столбцам",
                    "столбцы",
                    "столбцами",
                    "столбцах",
                ],
            ),
            Noun::new(
                [
                    "арендатор",
                    "арендатора",
                    "арендатору",
                    "арендатора",
                    "арендатором",
                    "арендаторе",
                ],
                [
                    "арендаторы",
                    "арендаторов",
                    "арендаторам",
                    "арендаторов",
                    "арендаторами",
                    "арендаторах",
                ],
            ),
            Noun::new(
                ["машина", "машины", "машине", "машину", "машиной", "машине"],
                [
                    "машины",
                    "машин",
                    "машинам",
                    "машины",
                    "машинами",
                    "машинах",
                ],
            ),
            Noun::new(
                [
                    "попытка",
                    "попытки",
                    "попытке",
                    "попытку",
                    "попыткой",
                    "попытке",
                ],
                [
                    "попытки",
                    "попыток",
                    "попыткам",
                    "попытки",
                    "попытками",
                    "попытках",
                ],
            ),
            Noun::new(
                [
                    "страница",
                    "страницы",
                    "странице",
                    "страницу",
                    "страницей",
                    "странице",
                ],
                [
                    "страницы",
                    "страниц",
                    "страницам",
                    "страницы",
                    "страницами",
                    "страницах",
                ],
            ),
            Noun::new(
                [
                    "секунда",
                    "секунды",
                    "секунде",
                    "секунду",
                    "секундой",
                    "секунде",
                ],
                [
                    "секунды",
                    "секунд",
                    "секундам",
                    "секунды",
                    "секундами",
                    "секундах",
                ],
            ),
            Noun::new(
                ["копия", "копии", "копии", "копию", "копией", "копии"],
                ["копии", "копий", "копиям", "копии", "копиями", "копиях"],
            ),
            Noun::new(
                ["ядро", "ядра", "ядру", "ядро", "ядром", "ядре"],
                ["ядра", "ядер", "ядрам", "ядра", "ядрами", "ядрах"],
            ),
            Noun::new(
                [
                    "выделение",
                    "выделения",
                    "выделению",
                    "выделение",
                    "выделением",
                    "выделении",
                ],
                [
                    "выделения",
                    "выделений",
                    "выделениям",
                    "выделения",
                    "выделениями",
                    "выделениях",
                ],
            ),
            Noun::new(
                ["раз", "раза", "разу", "раз", "разом", "разе"],
                ["разы", "раз", "разам", "разы", "разами", "разах"],
            ),
        ]);
        out
    })
}

/// The noun `word` is a form of, if the lab counts it.
fn noun(word: &str) -> Option<&'static Noun> {
    let word = word.to_lowercase();
    nouns().iter().find(|n| n.has_form(&word))
}

/// An adjective's (or participle's) endings after 1, 2 and 5, per gender and case: `новый`,
/// `новых`, `новых`.
const ADJECTIVE_ROWS: &[[&[&str]; 3]] = &[
    // Nominative (and inanimate accusative): masculine, feminine, neuter.
    [&["ый", "ий", "ой"], &["ых", "их"], &["ых", "их"]],
    [&["ая", "яя"], &["ые", "ие", "ых", "их"], &["ых", "их"]],
    [&["ое", "ее"], &["ых", "их"], &["ых", "их"]],
    // Feminine accusative.
    [&["ую", "юю"], &["ые", "ие", "ых", "их"], &["ых", "их"]],
    // Genitive, dative, instrumental, prepositional.
    [&["ого", "его", "ой", "ей"], &["ых", "их"], &["ых", "их"]],
    [&["ому", "ему", "ой", "ей"], &["ым", "им"], &["ым", "им"]],
    [&["ым", "им", "ой", "ей"], &["ыми", "ими"], &["ыми", "ими"]],
    [&["ом", "ем", "ой", "ей"], &["ых", "их"], &["ых", "их"]],
];

/// Whether `word` looks like an adjective or a participle (its ending).
pub fn adjective_like(word: &str) -> bool {
    let word = word.to_lowercase();
    word.chars().count() > 3
        && ADJECTIVE_ROWS
            .iter()
            .flat_map(|row| row.iter().flat_map(|e| e.iter()))
            .any(|e| word.ends_with(e))
}

/// Whether `(one, few, many)` are one adjective's forms after 1, 2 and 5.
fn adjective_agrees(words: [&str; 3]) -> bool {
    let words = words.map(str::to_lowercase);
    ADJECTIVE_ROWS.iter().any(|row| {
        row[0].iter().any(|e0| {
            let Some(stem) = words[0].strip_suffix(e0) else {
                return false;
            };
            (1..3).all(|i| {
                row[i]
                    .iter()
                    .any(|e| words[i].strip_suffix(e) == Some(stem))
            })
        })
    })
}

/// The words of `text` from its start: runs of letters (and `-`), up to the first character
/// that ends a phrase (punctuation other than a hyphen, a placeholder, a digit).
fn words_after(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    loop {
        let trimmed = rest.trim_start_matches([' ', '\u{a0}']);
        let end = trimmed
            .find(|c: char| !(c.is_alphabetic() || c == '-'))
            .unwrap_or(trimmed.len());
        if end == 0 || (trimmed.len() == rest.len() && !out.is_empty()) {
            break;
        }
        out.push(&trimmed[..end]);
        rest = &trimmed[end..];
    }
    out
}

/// The placeholders of a template: `(start, end)` of each `{}` or `{N}` (not `{{`).
fn placeholders(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'{' {
            if bytes.get(i + 1) == Some(&b'{') {
                i += 2;
                continue;
            }
            let digits = text[i + 1..].bytes().take_while(u8::is_ascii_digit).count();
            if bytes.get(i + 1 + digits) == Some(&b'}') {
                out.push((i, i + digits + 2));
                i += digits + 2;
                continue;
            }
        }
        i += 1;
    }
    out
}

/// In a Russian non-plural message, each placeholder that stands straight before a counted noun
/// (after at most two adjectives): «{} байт», «{} ненулевых байт». Such a count prints a fixed
/// form whatever the number («3 байт», «21 буферов»): it must be a plural message, or write a
/// unit symbol, or name the noun first («буферов: {}»).
pub fn count_before_noun(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (start, end) in placeholders(text) {
        let after = &text[end..];
        if !after.starts_with([' ', '\u{a0}']) {
            continue;
        }
        let words = words_after(after);
        // A capital letter starts a sentence: the placeholder ended the one before.
        if words
            .first()
            .is_some_and(|w| w.chars().next().is_some_and(char::is_uppercase))
        {
            continue;
        }
        for (i, w) in words.iter().enumerate().take(3) {
            if noun(w).is_some() {
                out.push(format!("«{} {}»", &text[start..end], words[..=i].join(" ")));
                break;
            }
            if !adjective_like(w) {
                break;
            }
        }
    }
    out
}

/// The counts a Russian plural message is checked with: 1 and 21 take one form, 2 and 22
/// another, 5 and 11 the third.
pub const COUNTS: [u64; 6] = [1, 2, 5, 11, 21, 22];

/// Renders a Russian plural message (`forms`, one per plural form) with each of [`COUNTS`]
/// (the other placeholders filled with `…`), and checks that the words after the count take the
/// forms Russian gives them: the same after 1 and 21, after 2 and 22, after 5 and 11, and a
/// known noun's (or an adjective's) forms of one case. Returns what is wrong.
pub fn agreement(forms: &[String]) -> Vec<String> {
    if forms.len() != 3 {
        return vec![format!(
            "has {} forms, Russian needs 3 (1, 2, 5)",
            forms.len()
        )];
    }
    let mut problems = Vec::new();
    // The words after the count, per count.
    let mut after: Vec<(u64, String, Vec<String>)> = Vec::new();
    for n in COUNTS {
        let form = &forms[lab_text::tr::builtin_plural_form("ru", n)];
        let args: Vec<&dyn std::fmt::Display> = std::iter::once(&n as &dyn std::fmt::Display)
            .chain(std::iter::repeat_n(&"…" as &dyn std::fmt::Display, 8))
            .collect();
        let text = lab_text::tr::fill(form, &args);
        // Where the count is: the placeholder `{0}`, or the first `{}`.
        let at = placeholders(form)
            .into_iter()
            .enumerate()
            .find_map(|(i, (s, e))| {
                let inside = &form[s + 1..e - 1];
                (inside == "0" || (inside.is_empty() && i == 0)).then_some(e)
            });
        let words = match at {
            Some(end) => words_after(&form[end..])
                .into_iter()
                .map(str::to_string)
                .collect(),
            None => {
                problems.push(format!("«{text}» does not show the count"));
                Vec::new()
            }
        };
        after.push((n, text, words));
    }
    for (a, b) in [(0, 4), (1, 5), (2, 3)] {
        if after[a].2 != after[b].2 {
            problems.push(format!(
                "«{}» and «{}» should take the same form",
                after[a].1, after[b].1
            ));
        }
    }
    let (one, few, many) = (&after[0].2, &after[1].2, &after[2].2);
    for i in 0..one.len().min(few.len()).min(many.len()).min(3) {
        let words = [one[i].as_str(), few[i].as_str(), many[i].as_str()];
        if let Some(n) = noun(words[0]).or_else(|| noun(words[2])) {
            let lower = words.map(str::to_lowercase);
            if !n.agrees([&lower[0], &lower[1], &lower[2]]) {
                problems.push(format!(
                    "«{}», «{}», «{}»: not the forms of «{}» after 1, 2 and 5 in one case",
                    after[0].1, after[1].1, after[2].1, n.sg[NOM]
                ));
            }
            break;
        }
        if words[0] == words[1] && words[1] == words[2] {
            // A word that does not change (a preposition, a symbol): nothing agrees past it.
            break;
        }
        if adjective_like(words[0]) && adjective_agrees(words) {
            continue;
        }
        problems.push(format!(
            "«{}», «{}», «{}»: the count's word «{}» is not a noun the check knows (add it to \
             xtask/src/i18n/russian.rs) or does not take the forms after 1, 2 and 5",
            after[0].1, after[1].1, after[2].1, words[2]
        ));
        break;
    }
    problems
}

/// The unit symbols that follow a number in Russian text.
pub const UNITS: &[&str] = &[
    "Б", "КиБ", "МиБ", "ГиБ", "ТиБ", "кБ", "КБ", "МБ", "ГБ", "нс", "мкс", "мс", "ГГц", "МГц", "%",
];

/// Each place where a plain space stands between a number (or a `{}` placeholder) and a unit
/// symbol: `{} Б`, `16 КиБ`, `5 %`. The prose only (`numbers::prose`: not code, directives, links).
pub fn unit_spaces(text: &str) -> Vec<String> {
    let prose = super::numbers::prose_keeping_placeholders(text);
    let mut out = Vec::new();
    for (i, _) in prose.match_indices(' ') {
        let before = prose[..i].chars().next_back();
        if !before.is_some_and(|c| c.is_ascii_digit() || c == '}') {
            continue;
        }
        let after = &prose[i + 1..];
        let Some(unit) = UNITS.iter().find(|u| {
            after.strip_prefix(**u).is_some_and(|rest| {
                !rest
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_alphanumeric() || c == '_')
            })
        }) else {
            continue;
        };
        let number: String = prose[..i]
            .chars()
            .rev()
            .take_while(|c| c.is_ascii_digit() || matches!(c, '{' | '}' | ',' | '\u{a0}'))
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        out.push(format!("«{} {unit}»", number.trim_start_matches('\u{a0}')));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn forms(f: impl IntoIterator<Item = &'static str>) -> Vec<String> {
        f.into_iter().map(String::from).collect()
    }

    #[test]
    fn a_count_before_a_noun_in_a_plain_message_is_found() {
        assert_eq!(
            count_before_noun("Вы арендуете {} байт из общего пула"),
            ["«{} байт»"]
        );
        assert_eq!(
            count_before_noun("в нём {} ненулевых байт, {1} буферов"),
            ["«{} ненулевых байт»", "«{1} буферов»"]
        );
        // A symbol, a label before the count, a word that is not counted: fine.
        assert!(count_before_noun("Вы арендуете {}\u{a0}Б; раундов: {}").is_empty());
        assert!(count_before_noun("{} числа, которое здесь не измерялось").is_empty());
        assert!(count_before_noun("{}-ядерной машине, {} стр.").is_empty());
        assert!(count_before_noun("меньше {} и больше").is_empty());
        assert!(count_before_noun("Не совсем. {} Правильный ответ — {}").is_empty());
        assert_eq!(
            count_before_noun("{} инструкций за такт"),
            ["«{} инструкций»"]
        );
    }

    #[test]
    fn plural_forms_agree_with_their_noun() {
        assert!(agreement(&forms(["{} байт", "{} байта", "{} байт"])).is_empty());
        assert!(
            agreement(&forms([
                "не больше {} байта",
                "не больше {} байт",
                "не больше {} байт"
            ]))
            .is_empty()
        );
        assert!(
            agreement(&forms([
                "{} новый буфер",
                "{} новых буфера",
                "{} новых буферов"
            ]))
            .is_empty()
        );
        assert!(agreement(&forms(["{} новый:", "{} новых:", "{} новых:"])).is_empty());
        assert!(
            agreement(&forms([
                "ещё {} машину или рантайм",
                "ещё {} машины",
                "ещё {} машин"
            ]))
            .is_empty()
        );
        assert!(
            agreement(&forms([
                "по {} столбцу: {}",
                "по {} столбцам: {}",
                "по {} столбцам: {}"
            ]))
            .is_empty()
        );
        // The count after its label: nothing to agree.
        assert!(agreement(&forms(["раундов: {}", "раундов: {}", "раундов: {}"])).is_empty());
        // By index, after another placeholder.
        assert!(agreement(&forms(["{1}: {0} ядро", "{1}: {0} ядра", "{1}: {0} ядер"])).is_empty());
    }

    #[test]
    fn wrong_plural_forms_are_found() {
        // One form for every count: «3 байт».
        let p = agreement(&forms(["{} байт", "{} байт", "{} байт"]));
        assert!(p.iter().any(|p| p.contains("«2 байт»")), "{p:?}");
        // Forms in the wrong slots.
        assert!(!agreement(&forms(["{} буферов", "{} буфер", "{} буфера"])).is_empty());
        assert!(!agreement(&forms(["{} буфер", "{} буфера"])).is_empty());
        // A word the check does not know, changing with the count.
        let p = agreement(&forms(["{} штука", "{} штуки", "{} штук"]));
        assert!(p.iter().any(|p| p.contains("штук")), "{p:?}");
    }

    #[test]
    fn a_plain_space_before_a_unit_is_found() {
        assert_eq!(
            unit_spaces("{} Б из 16 КиБ, шум 5 %, 12,5 нс"),
            ["«{} Б»", "«16 КиБ»", "«5 %»", "«12,5 нс»"]
        );
        assert!(unit_spaces("{}\u{a0}Б из 16\u{a0}КиБ, 5%, 2 Бакета, `16 Б`").is_empty());
        // A word starting like a unit is not one.
        assert!(unit_spaces("2 мсек, 3 Бит").is_empty());
    }
}

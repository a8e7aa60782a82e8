//! The noise gate's notes in the reader's language (issue 24). A data file keeps each figure's
//! note as the bench wrote it, in English (`gate`, the repetitions' rule, the instruction
//! check); a translated page shows it through [`note_words`], which reads the note's known
//! shapes (the templates below, which `gate` writes with) and writes them with the lab's
//! catalog. A note of another shape (a future bench's)
//! stays as written: English, never lost.

use lab_text::tr;

/// `note` (a figure's `gate_note`) in this thread's language.
pub fn note_words(note: &str) -> String {
    if tr::language().code == "en" {
        return note.to_string();
    }
    let (base, check) = match note.split_once("; instruction check: ") {
        Some((base, check)) => (base, Some(check)),
        None => (note, None),
    };
    let (base, reps) = match base
        .strip_suffix(" repetitions)")
        .and_then(|b| b.rsplit_once(" (in one of "))
    {
        Some((base, n)) => (base, Some(n)),
        None => (base, None),
    };
    let mut out = base_words(base).unwrap_or_else(|| base.to_string());
    if let Some(n) = reps {
        out = lab_text::tf!("{} (in one of {} repetitions)", out, n);
    }
    if let Some(check) = check {
        let words = if let Some([m, i, ns, rate, ghz, width]) = fields::<6>(CHECK_MOPS, check) {
            tr::format(CHECK_MOPS, &[&m, &i, &ns, &rate, &ghz, &width])
        } else if let Some([i, ns, ipc, ghz, max]) = fields::<5>(CHECK, check) {
            tr::format(CHECK, &[&i, &ns, &ipc, &ghz, &max])
        } else {
            check.to_string()
        };
        out = lab_text::tf!("{}; instruction check: {}", out, words);
    }
    out
}

/// The instruction check's note on a figure over the bound, after `; instruction check: `:
/// macro-ops and instructions per iteration, ns, the implied macro-ops per cycle, GHz and the
/// core's sustained width (`native-bench`'s `icount` writes it).
pub const CHECK_MOPS: &str = lab_text::n!(
    "{} macro-ops per iteration ({} instructions) in {} ns need {} per cycle at {} GHz, over the core's sustained {}: not citable as a time"
);
/// The same note in schema 3 files, checked with instructions against a retire width.
const CHECK: &str = lab_text::n!(
    "{} instructions per iteration in {} ns need {} per cycle at {} GHz, over the core's {}: not citable as a time"
);
pub(crate) const EXACT: &str = lab_text::n!("exact count");
pub(crate) const SIDE_BY_SIDE: &str = lab_text::n!("ratio measured side by side; noise {}");
pub(crate) const OVER_ABSOLUTE: &str =
    lab_text::n!("noise {} over the {} limit for absolute times");
pub(crate) const OVER: &str = lab_text::n!("noise {} over the {} limit");
pub(crate) const BUSY: &str = lab_text::n!("machine busy: load {} per core");
pub(crate) const NOISE: &str = lab_text::n!("noise {}");

/// One gate note of `gate`'s shapes, translated; `None` for another shape.
fn base_words(note: &str) -> Option<String> {
    if note == EXACT {
        return Some(tr::dynamic(EXACT).to_string());
    }
    for two in [OVER_ABSOLUTE, OVER] {
        if let Some([a, b]) = fields::<2>(two, note) {
            return Some(tr::format(two, &[&a, &b]));
        }
    }
    for one in [SIDE_BY_SIDE, BUSY, NOISE] {
        if let Some([a]) = fields::<1>(one, note) {
            return Some(tr::format(one, &[&a]));
        }
    }
    None
}

/// The `N` texts standing for `template`'s `{}`s in `text`, if `text` has that shape and each
/// text is a number (with its `%`, if any): `fields::<1>("noise {}", "noise 2.0 %")`.
fn fields<'a, const N: usize>(template: &str, text: &'a str) -> Option<[&'a str; N]> {
    let literals: Vec<&str> = template.split("{}").collect();
    if literals.len() != N + 1 {
        return None;
    }
    let mut rest = text.strip_prefix(literals[0])?;
    let mut out = [""; N];
    for (i, literal) in literals[1..].iter().enumerate() {
        let end = if i + 1 == N && literal.is_empty() {
            rest.len()
        } else if i + 1 == N {
            rest.len()
                .checked_sub(literal.len())
                .filter(|&e| rest[e..] == **literal)?
        } else {
            rest.find(literal)?
        };
        let value = &rest[..end];
        let number = value.trim_end_matches(" %");
        if number.is_empty() || !number.chars().all(|c| c.is_ascii_digit() || c == '.') {
            return None;
        }
        out[i] = value;
        rest = &rest[end + literal.len()..];
    }
    rest.is_empty().then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gates_shapes_are_read() {
        assert_eq!(fields::<1>(NOISE, "noise 2.0 %"), Some(["2.0 %"]));
        assert_eq!(
            fields::<2>(
                OVER_ABSOLUTE,
                "noise 7.5 % over the 5.0 % limit for absolute times"
            ),
            Some(["7.5 %", "5.0 %"])
        );
        // `noise {}` must not swallow a longer note, nor a word where a number stands.
        assert_eq!(fields::<1>(NOISE, "noise 7.5 % over the 5.0 % limit"), None);
        assert_eq!(fields::<1>(BUSY, "machine busy: load high per core"), None);
        assert_eq!(
            fields::<1>(SIDE_BY_SIDE, "ratio measured side by side; noise 1.2 %"),
            Some(["1.2 %"])
        );
    }

    #[test]
    fn every_note_the_gate_writes_has_a_known_shape() {
        use crate::{Unit, gate};
        for (unit, cv, load) in [
            (Unit::Bytes, 0.0, 0.1),
            (Unit::Nanoseconds, 0.4, 0.1),
            (Unit::Nanoseconds, f64::NAN, 0.1),
            (Unit::Ratio, 0.12, 1.5),
            (Unit::Nanoseconds, 0.07, 0.1),
            (Unit::Nanoseconds, 0.02, 1.5),
            (Unit::Nanoseconds, 0.02, 0.1),
        ] {
            let note = gate(unit, cv, load).1;
            assert!(
                base_words(&note).is_some() || note.contains("NaN"),
                "{note}"
            );
        }
    }

    #[test]
    fn a_translated_page_reads_every_part() {
        tr::set_language("en");
        let note = "machine busy: load 0.91 per core (in one of 3 repetitions)";
        assert_eq!(note_words(note), note);
        tr::set_language("ru");
        let strings = |pairs: &[(&str, &str)]| {
            let entries: Vec<_> = pairs
                .iter()
                .map(|(en, ru)| (tr::key(en), vec![ru.to_string()]))
                .collect();
            tr::strings_file(&entries).unwrap()
        };
        tr::install_file(&strings(&[
            (BUSY, "машина занята: нагрузка {} на ядро"),
            (
                "{} (in one of {} repetitions)",
                "{} (в одном из {} повторов)",
            ),
            ("{}; instruction check: {}", "{}; проверка инструкций: {}"),
            (
                CHECK,
                "{} инструкций за {} нс: {} за такт при {} ГГц, больше {} ядра",
            ),
        ]));
        assert_eq!(
            note_words(note),
            "машина занята: нагрузка 0.91 на ядро (в одном из 3 повторов)"
        );
        let check = "machine busy: load 0.80 per core; instruction check: 28.0 instructions per iteration in 0.757 ns need 9.9 per cycle at 3.75 GHz, over the core's 8: not citable as a time";
        assert_eq!(
            note_words(check),
            "машина занята: нагрузка 0.80 на ядро; проверка инструкций: 28.0 инструкций за 0.757 нс: 9.9 за такт при 3.75 ГГц, больше 8 ядра"
        );
        tr::install_file(&strings(&[
            ("{}; instruction check: {}", "{}; проверка инструкций: {}"),
            (
                CHECK_MOPS,
                "{} макроопераций ({} инструкций) за {} нс: {} за такт при {} ГГц, больше {} ядра",
            ),
        ]));
        let check = "noise 2.0 %; instruction check: 23.0 macro-ops per iteration (28.0 instructions) in 0.757 ns need 8.1 per cycle at 3.75 GHz, over the core's sustained 6: not citable as a time";
        assert_eq!(
            note_words(check),
            "noise 2.0 %; проверка инструкций: 23.0 макроопераций (28.0 инструкций) за 0.757 нс: 8.1 за такт при 3.75 ГГц, больше 6 ядра"
        );
        // A shape this code does not know stays as written; an untranslated one stays English.
        assert_eq!(
            note_words("a note of some future shape"),
            "a note of some future shape"
        );
        assert_eq!(note_words("noise 2.0 %"), "noise 2.0 %");
        tr::install_file("");
        tr::set_language("en");
    }
}

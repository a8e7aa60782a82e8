//! The Thai check of the translation report (issue 38): Thai ends a sentence without a full
//! stop. Thai writing has no `.`; a space separates sentences, and the end of a text needs no mark
//! (the Thai article writes none after Thai words). So an ASCII full stop straight after a Thai
//! character (or after a quote or bracket that closes Thai text) is the English's punctuation
//! carried over: [`full_stops`] finds it. A full stop after
//! Latin text, a number or code (`1.5`, `e.g.`, `Vec.`) is not Thai text and is left alone.

/// Whether `c` is a Thai character (the Thai block, U+0E00–U+0E7F).
pub fn is_thai(c: char) -> bool {
    ('\u{0e00}'..='\u{0e7f}').contains(&c)
}

/// Each full stop straight after a Thai character, shown with the Thai text before it.
pub fn full_stops(text: &str) -> Vec<String> {
    let prose = super::numbers::prose_keeping_placeholders(text);
    let chars: Vec<char> = prose.chars().collect();
    let mut out = Vec::new();
    for (i, &c) in chars.iter().enumerate() {
        // The character before, past closing quotes and brackets: “ดูคำตอบ”. is after Thai text.
        let before = chars[..i]
            .iter()
            .rev()
            .find(|c| !matches!(c, '”' | '’' | ')' | '»' | '"'));
        if c == '.' && before.is_some_and(|&c| is_thai(c)) {
            // Not an ellipsis written as dots, which is not a full stop.
            if chars.get(i + 1) == Some(&'.') {
                continue;
            }
            let start = chars[..i]
                .iter()
                .rposition(|c| c.is_whitespace())
                .map_or(0, |p| p + 1);
            let word: String = chars[start..=i].iter().collect();
            out.push(format!("«{word}»"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_stop_after_thai_text_is_found() {
        assert_eq!(
            full_stops("ลองอีกครั้ง หรือกด “ดูคำตอบ”. จองใหม่ครบทั้ง K ใบ."),
            ["«“ดูคำตอบ”.»", "«ใบ.»"]
        );
        assert_eq!(full_stops("ทุกรอบ buffer {} ใบถูกทิ้ง."), ["«ใบถูกทิ้ง.»"]);
        assert_eq!(full_stops("หรือกด “แสดงคำตอบ”."), ["«“แสดงคำตอบ”.»"]);
        // After Latin text, a number, a placeholder or in code: not Thai punctuation.
        assert!(full_stops("ใช้ Vec. ค่า 1.5 และ {}. `ไทย.` (100,000).").is_empty());
        assert!(full_stops("ไทย...").is_empty());
    }
}

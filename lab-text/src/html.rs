//! The one HTML escaper of the workspace: the wasm widgets (`web::dom`) and the book's
//! preprocessor (`mdbook-lab`) both write reader-visible text and attribute values with it.
//!
//! Hand-written rather than a crate: five replacements, needed by two crates that both already
//! depend on this one, and no new dependency in the wasm build readers download.

/// `text` made safe for HTML element content *and* for a quoted attribute value (single or
/// double quotes): `&`, `<`, `>`, `"` and `'` become character references.
///
/// ```
/// use lab_text::html::escape;
/// assert_eq!(escape(r#"<b class="x">Tom & Jerry's</b>"#),
///            "&lt;b class=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/b&gt;");
/// ```
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn nothing_can_close_an_attribute_or_open_a_tag() {
        for attack in [
            r#"m1" onmouseover="alert(1)"#,
            "m1' onmouseover='alert(1)",
            "</span><script>alert(1)</script>",
            "&quot;",
        ] {
            let e = escape(attack);
            assert!(!e.contains(['"', '\'', '<', '>']), "{e}");
            // Every `&` left starts one of the five references.
            for (i, _) in e.match_indices('&') {
                let rest = &e[i..];
                assert!(
                    ["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"]
                        .iter()
                        .any(|r| rest.starts_with(r)),
                    "{e}"
                );
            }
        }
        assert_eq!(escape("ต้มยำกุ้ง 1,024 B"), "ต้มยำกุ้ง 1,024 B");
    }
}

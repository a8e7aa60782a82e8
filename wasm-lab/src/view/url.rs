//! A widget's state in a link: `#NAME:key=value&key=value`, percent-encoded. Decoding never
//! fails: whatever a link holds becomes field text, which the widget then reads with its usual
//! messages; unknown keys are ignored and every value is cut to [`MAX_VALUE`] characters.

use super::{Form, Inputs};
use lab_text::f;

/// The longest value a link may set.
pub const MAX_VALUE: usize = 200;

/// The hash for `inputs` of widget `name`.
pub fn encode(name: &str, inputs: &Inputs) -> String {
    let pairs: Vec<String> = inputs
        .pairs()
        .iter()
        .map(|(k, v)| f!("{}={}", escape(k), escape(v)))
        .collect();
    f!("#{name}:{}", pairs.join("&"))
}

fn escape(text: &str) -> String {
    let mut out = String::new();
    for b in text.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b',' | b';' => {
                out.push(b as char)
            }
            b => out.push_str(&f!("%{b:02x}")),
        }
    }
    out
}

fn unescape(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        match (bytes[i], bytes.get(i + 1), bytes.get(i + 2)) {
            (b'%', Some(&a), Some(&b)) if hex(a).is_some() && hex(b).is_some() => {
                out.push((hex(a).unwrap_or(0) * 16 + hex(b).unwrap_or(0)) as u8);
                i += 3;
            }
            (b'+', _, _) => {
                out.push(b' ');
                i += 1;
            }
            (c, _, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The inputs a hash sets for widget `name`, applied over `inputs`: only the form's fields and
/// the state keys (`*-step`, `*-predict`) are taken. `None` when the hash is not this widget's.
pub fn decode(name: &str, hash: &str, form: &Form, inputs: &Inputs) -> Option<Inputs> {
    let rest = hash.strip_prefix('#').unwrap_or(hash);
    let rest = rest.strip_prefix(name)?.strip_prefix(':')?;
    let mut out = inputs.clone();
    for pair in rest.split('&').take(64) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let (k, v) = (unescape(k), unescape(v));
        let known = form.field(&k).is_some()
            || form.groups.iter().any(|g| {
                !g.slot.is_empty()
                    && (k == super::step_key(g.slot) || k == super::predict_key(g.slot))
            });
        if known {
            out.set(&k, v.chars().take(MAX_VALUE).collect::<String>());
        }
    }
    Some(out)
}

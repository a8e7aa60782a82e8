//! JSON without `serde_json` in the wasm build: a small writer for the lab's own values (the
//! strict reader of what the browser's `JSON.parse` returns is the course crate's `web/json.rs`).
//!
//! Why: in the shipped module `serde_json` cost about 35 KB of code (its parser, its error
//! machinery, `std::io` error strings), and serde's deserialization errors
//! (`Unexpected::Float`) kept core's float formatter linked (another 14 KB plus its helpers),
//! though the lab prints no float with `core::fmt` (see [`crate::decimal`]). The wasm build
//! reads JSON in two places, both small fixed shapes: the page's quiz data
//! (`wasm_lab::quiz::Page::from_json`) and the reader's progress
//! (`wasm_lab::progress::Progress::from_json`). The browser parses JSON already, so the wasm
//! build lets it (`js::parse`) and walks the result by hand into those two structs.
//!
//! Measured on the shipped module (wasm-opt -Oz; wasm + JS glue, raw / gzipped), from
//! 512,505 / 204,148 B with `serde_json`:
//! - `serde-wasm-bindgen` (`JSON.parse` + `from_value`, `to_value` + `JSON.stringify`):
//!   505,771 / 196,747 B. Its deserializer is still serde's, so the float formatter stays, and
//!   its JS glue adds 6.7 KB.
//! - this module: 457,224 / 178,928 B (wasm 487,162 → 429,848; JS glue 25,343 → 27,376). No
//!   serde deserializer and no float formatter is left in the shipped module.
//!
//! Maintained crates, read but not built (from their sources): `nanoserde` 0.2 parses every
//! float with `str::parse::<f64>` and its errors print tokens with `{:?}`, f64 included, which
//! links both core's float parser and its formatter; `miniserde` 0.1 has its own small parser,
//! but its derive ignores unknown fields and knows no field defaults, so the strict progress
//! reader (and version 1's missing `revealed`) would need hand-written visitors, more code than
//! the walk below (about 150 lines for two structs), on top of a crate.
//!
//! [`to_string`] writes what `serde_json::to_string` writes, for the values the lab serializes:
//! integers, booleans, strings, sequences, structs, enums and maps with string keys. It refuses
//! floats (nothing it writes has any; printing one would link the formatter) and non-string map
//! keys. The tests below check it against `serde_json` natively, where both exist.

use std::fmt::{self, Display, Write as _};

use serde::Serialize;
use serde::ser;

/// A value [`to_string`] does not write, named.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsupported(pub &'static str);

impl Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot write {} as JSON here", self.0)
    }
}

impl std::error::Error for Unsupported {}

impl ser::Error for Unsupported {
    // The message is dropped: keeping it would format arbitrary `Display`s (and, through serde's
    // own messages, floats) into the wasm build. No type the lab writes raises custom errors.
    fn custom<T: Display>(_msg: T) -> Self {
        Unsupported("a value whose Serialize impl failed")
    }
}

/// `value` as compact JSON, as `serde_json::to_string` writes it.
pub fn to_string<T: Serialize + ?Sized>(value: &T) -> Result<String, Unsupported> {
    let mut out = String::new();
    value.serialize(Writer { out: &mut out })?;
    Ok(out)
}

/// Writes `s` as a JSON string, escaping as `serde_json` does (quotes, backslashes and control
/// characters only; everything else as is).
fn write_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if c < ' ' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

struct Writer<'a> {
    out: &'a mut String,
}

impl Writer<'_> {
    fn int(self, v: impl Display) -> Result<(), Unsupported> {
        let _ = write!(self.out, "{v}");
        Ok(())
    }
}

/// An array or object being written; `close` ends it (`]`, `}`, or those of an enum variant's
/// `{"Variant":…}` wrapper).
struct Compound<'a> {
    out: &'a mut String,
    first: bool,
    close: &'static str,
}

impl<'a> Compound<'a> {
    fn open(out: &'a mut String, open: &str, close: &'static str) -> Compound<'a> {
        out.push_str(open);
        Compound {
            out,
            first: true,
            close,
        }
    }

    fn comma(&mut self) {
        if !self.first {
            self.out.push(',');
        }
        self.first = false;
    }

    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
        self.comma();
        value.serialize(Writer { out: self.out })
    }

    fn field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Unsupported> {
        self.comma();
        write_str(self.out, key);
        self.out.push(':');
        value.serialize(Writer { out: self.out })
    }

    fn close(self) -> Result<(), Unsupported> {
        self.out.push_str(self.close);
        Ok(())
    }
}

/// `{"variant":` opened; the caller writes the value and closes with `}`.
fn variant(out: &mut String, name: &str) {
    out.push('{');
    write_str(out, name);
    out.push(':');
}

impl<'a> ser::Serializer for Writer<'a> {
    type Ok = ();
    type Error = Unsupported;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    fn serialize_bool(self, v: bool) -> Result<(), Unsupported> {
        self.out.push_str(if v { "true" } else { "false" });
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<(), Unsupported> {
        self.int(v)
    }
    fn serialize_i16(self, v: i16) -> Result<(), Unsupported> {
        self.int(v)
    }
    fn serialize_i32(self, v: i32) -> Result<(), Unsupported> {
        self.int(v)
    }
    fn serialize_i64(self, v: i64) -> Result<(), Unsupported> {
        self.int(v)
    }
    fn serialize_u8(self, v: u8) -> Result<(), Unsupported> {
        self.int(v)
    }
    fn serialize_u16(self, v: u16) -> Result<(), Unsupported> {
        self.int(v)
    }
    fn serialize_u32(self, v: u32) -> Result<(), Unsupported> {
        self.int(v)
    }
    fn serialize_u64(self, v: u64) -> Result<(), Unsupported> {
        self.int(v)
    }
    fn serialize_f32(self, _v: f32) -> Result<(), Unsupported> {
        Err(Unsupported("a float"))
    }
    fn serialize_f64(self, _v: f64) -> Result<(), Unsupported> {
        Err(Unsupported("a float"))
    }
    fn serialize_char(self, v: char) -> Result<(), Unsupported> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, v: &str) -> Result<(), Unsupported> {
        write_str(self.out, v);
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Unsupported> {
        let mut seq = Compound::open(self.out, "[", "]");
        for b in v {
            seq.element(b)?;
        }
        seq.close()
    }
    fn serialize_none(self) -> Result<(), Unsupported> {
        self.serialize_unit()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Unsupported> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Unsupported> {
        self.out.push_str("null");
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Unsupported> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), Unsupported> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), Unsupported> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        name: &'static str,
        value: &T,
    ) -> Result<(), Unsupported> {
        variant(self.out, name);
        value.serialize(Writer { out: self.out })?;
        self.out.push('}');
        Ok(())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Compound<'a>, Unsupported> {
        Ok(Compound::open(self.out, "[", "]"))
    }
    fn serialize_tuple(self, _len: usize) -> Result<Compound<'a>, Unsupported> {
        Ok(Compound::open(self.out, "[", "]"))
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Compound<'a>, Unsupported> {
        Ok(Compound::open(self.out, "[", "]"))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        name: &'static str,
        _len: usize,
    ) -> Result<Compound<'a>, Unsupported> {
        variant(self.out, name);
        Ok(Compound::open(self.out, "[", "]}"))
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Compound<'a>, Unsupported> {
        Ok(Compound::open(self.out, "{", "}"))
    }
    fn serialize_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Compound<'a>, Unsupported> {
        Ok(Compound::open(self.out, "{", "}"))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        name: &'static str,
        _len: usize,
    ) -> Result<Compound<'a>, Unsupported> {
        variant(self.out, name);
        Ok(Compound::open(self.out, "{", "}}"))
    }
}

/// The four sequence-like serializers (`[a, b]`): each writes its elements the same way, under
/// serde's name for its trait and for the method that writes an element.
macro_rules! sequence {
    ($($serializer:ident :: $method:ident),*) => {$(
        impl ser::$serializer for Compound<'_> {
            type Ok = ();
            type Error = Unsupported;
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
                self.element(value)
            }
            fn end(self) -> Result<(), Unsupported> {
                self.close()
            }
        }
    )*};
}

sequence!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = Unsupported;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Unsupported> {
        self.comma();
        // JSON keys are strings: a key must write as one (`serde_json` also quotes integer
        // keys, which nothing here uses).
        let start = self.out.len();
        key.serialize(Writer { out: self.out })?;
        if !self.out[start..].starts_with('"') {
            self.out.truncate(start);
            return Err(Unsupported("a map key that is not a string"));
        }
        self.out.push(':');
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
        value.serialize(Writer { out: self.out })
    }
    fn end(self) -> Result<(), Unsupported> {
        self.close()
    }
}

impl ser::SerializeStruct for Compound<'_> {
    type Ok = ();
    type Error = Unsupported;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Unsupported> {
        self.field(key, value)
    }
    fn end(self) -> Result<(), Unsupported> {
        self.close()
    }
}

impl ser::SerializeStructVariant for Compound<'_> {
    type Ok = ();
    type Error = Unsupported;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Unsupported> {
        self.field(key, value)
    }
    fn end(self) -> Result<(), Unsupported> {
        self.close()
    }
}
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use std::collections::BTreeMap;

    use litemap::LiteMap;

    use serde::Serialize;

    use super::*;

    #[derive(Serialize)]
    struct Fields {
        n: u64,
        i: i32,
        b: bool,
        s: String,
        v: Vec<u64>,
        o: Option<u8>,
        none: Option<u8>,
        unit: (),
        pair: (u8, char),
        e: Vec<Variants>,
    }

    #[derive(Serialize)]
    enum Variants {
        Unit,
        Newtype(u32),
        Tuple(u8, u8),
        Struct { x: u8 },
    }

    #[derive(Serialize)]
    #[serde(tag = "kind", rename_all = "snake_case")]
    enum Tagged {
        A { x: u8 },
        B,
    }

    fn same<T: Serialize + ?Sized>(value: &T) {
        assert_eq!(
            to_string(value).unwrap(),
            serde_json::to_string(value).unwrap()
        );
    }

    #[test]
    fn writes_what_serde_json_writes() {
        same(&0u64);
        same(&u64::MAX);
        same(&i64::MIN);
        same(&true);
        same(&());
        same("quote \" backslash \\ newline \n tab \t bell \u{7} nul \0 é ✔ / \u{7f}");
        same(&vec![1u64, 2, 3]);
        same(&Vec::<u64>::new());
        same(&Fields {
            n: 1 << 40,
            i: -3,
            b: false,
            s: "x".into(),
            v: vec![4, 5],
            o: Some(9),
            none: None,
            unit: (),
            pair: (1, '"'),
            e: vec![
                Variants::Unit,
                Variants::Newtype(7),
                Variants::Tuple(1, 2),
                Variants::Struct { x: 3 },
            ],
        });
        same(&[Tagged::A { x: 1 }, Tagged::B]);
        let mut map: LiteMap<String, LiteMap<&str, u32>> = LiteMap::new();
        map.insert("a\"b".to_string(), [("k", 1u32)].into_iter().collect());
        map.insert(String::new(), LiteMap::new());
        same(&map);
    }

    #[test]
    fn refuses_floats_and_other_keys() {
        assert!(to_string(&1.5f64).is_err());
        assert!(to_string(&BTreeMap::from([(1u8, 2u8)])).is_err());
    }
}

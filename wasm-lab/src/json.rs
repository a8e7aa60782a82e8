//! JSON without `serde_json` in the wasm build: a small writer for the lab's own values, and (in
//! wasm) a strict reader of what the browser's `JSON.parse` returns.
//!
//! Why: in the shipped module `serde_json` cost about 35 KB of code (its parser, its error
//! machinery, `std::io` error strings), and serde's deserialization errors
//! (`Unexpected::Float`) kept core's float formatter linked (another 14 KB plus its helpers),
//! though the lab prints no float with `core::fmt` (see [`crate::decimal`]). The wasm build
//! reads JSON in two places, both small fixed shapes: the page's quiz data
//! ([`crate::quiz::Page::from_json`]) and the reader's progress
//! ([`crate::progress::Progress::from_json`]). The browser parses JSON already, so the wasm
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

impl ser::SerializeSeq for Compound<'_> {
    type Ok = ();
    type Error = Unsupported;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
        self.element(value)
    }
    fn end(self) -> Result<(), Unsupported> {
        self.close()
    }
}

impl ser::SerializeTuple for Compound<'_> {
    type Ok = ();
    type Error = Unsupported;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
        self.element(value)
    }
    fn end(self) -> Result<(), Unsupported> {
        self.close()
    }
}

impl ser::SerializeTupleStruct for Compound<'_> {
    type Ok = ();
    type Error = Unsupported;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
        self.element(value)
    }
    fn end(self) -> Result<(), Unsupported> {
        self.close()
    }
}

impl ser::SerializeTupleVariant for Compound<'_> {
    type Ok = ();
    type Error = Unsupported;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
        self.element(value)
    }
    fn end(self) -> Result<(), Unsupported> {
        self.close()
    }
}

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

/// Reading JSON in the wasm build: the browser's `JSON.parse`, then a strict walk of the result.
///
/// The walk is as strict as `serde_json` with `deny_unknown_fields` is natively: an object must
/// be one (not an array or `null`), carry no field it does not know and every field it
/// requires; integers must be whole and in range; strings and booleans must be those. The
/// differences: a number written `1.0` reads as the integer 1, and of a field given twice the
/// last wins (both from `JSON.parse`; `serde_json` refuses them); a struct written as an array
/// (serde's sequence form, `[2, {}]`, which nothing writes) is refused here.
#[cfg(target_arch = "wasm32")]
pub mod js {
    use litemap::LiteMap;

    use js_sys::{Array, JSON, Object, Reflect};
    use wasm_bindgen::{JsCast, JsValue};

    /// `text` parsed by the browser; the error is the browser's message.
    pub fn parse(text: &str) -> Result<JsValue, String> {
        JSON::parse(text).map_err(|e| {
            e.dyn_ref::<js_sys::Error>()
                .map_or_else(|| "not JSON".into(), |e| String::from(e.message()))
        })
    }

    /// A JSON object whose fields are all among `fields`; `what` names it in errors.
    pub fn object(v: &JsValue, what: &str, fields: &[&str]) -> Result<Object, String> {
        let obj = as_object(v, what)?;
        for key in Object::keys(&obj) {
            let key = key.as_string().unwrap_or_default();
            if !fields.contains(&key.as_str()) {
                return Err(format!("{what}: unknown field `{key}`"));
            }
        }
        Ok(obj)
    }

    fn as_object(v: &JsValue, what: &str) -> Result<Object, String> {
        if v.is_object() && !Array::is_array(v) {
            Ok(v.clone().unchecked_into())
        } else {
            Err(format!("{what}: expected an object"))
        }
    }

    /// The field `key` of `obj`, `None` when absent.
    pub fn get(obj: &Object, key: &str) -> Option<JsValue> {
        Reflect::get(obj, &JsValue::from_str(key))
            .ok()
            .filter(|v| !v.is_undefined())
    }

    /// The field `key` of `obj`, which must be there.
    pub fn required(obj: &Object, what: &str, key: &str) -> Result<JsValue, String> {
        get(obj, key).ok_or_else(|| format!("{what}: missing field `{key}`"))
    }

    /// An object read as a map, each value read by `read` (given the value and its key).
    pub fn map<T>(
        v: &JsValue,
        what: &str,
        mut read: impl FnMut(&JsValue, &str) -> Result<T, String>,
    ) -> Result<LiteMap<String, T>, String> {
        let obj = as_object(v, what)?;
        let mut out = LiteMap::new();
        for entry in Object::entries(&obj) {
            let entry: Array = entry.unchecked_into();
            let key = entry.get(0).as_string().unwrap_or_default();
            let value = read(&entry.get(1), &key)?;
            out.insert(key, value);
        }
        Ok(out)
    }

    /// An array, each element read by `read`.
    pub fn array<T>(
        v: &JsValue,
        what: &str,
        mut read: impl FnMut(&JsValue) -> Result<T, String>,
    ) -> Result<Vec<T>, String> {
        if !Array::is_array(v) {
            return Err(format!("{what}: expected an array"));
        }
        let array: &Array = v.unchecked_ref();
        array.iter().map(|e| read(&e)).collect()
    }

    pub fn string(v: &JsValue, what: &str) -> Result<String, String> {
        v.as_string()
            .ok_or_else(|| format!("{what}: expected a string"))
    }

    pub fn boolean(v: &JsValue, what: &str) -> Result<bool, String> {
        v.as_bool()
            .ok_or_else(|| format!("{what}: expected a boolean"))
    }

    /// A finite number (`JSON.parse` reads `1e400` as infinity, which `serde_json` refuses).
    pub fn number(v: &JsValue, what: &str) -> Result<f64, String> {
        v.as_f64()
            .filter(|x| x.is_finite())
            .ok_or_else(|| format!("{what}: expected a number"))
    }

    /// A whole number from 0 to `u32::MAX`.
    pub fn u32(v: &JsValue, what: &str) -> Result<u32, String> {
        let x = number(v, what)?;
        if x.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&x) {
            Ok(x as u32)
        } else {
            Err(format!(
                "{what}: expected a whole number from 0 to {}",
                u32::MAX
            ))
        }
    }
}

/// String-keyed [`LiteMap`]s through serde exactly as std's maps go: always a JSON object.
/// litemap's own impls differ in two ways the page and progress must not: its `Serialize` writes
/// an *empty* map as `[]` (it looks at the first key to decide), and its `Deserialize` also takes
/// a list of pairs, which the strict readers refuse.
pub(crate) mod object {
    use litemap::LiteMap;
    use serde::de::{Error as _, MapAccess, Visitor};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    /// Writes the map as an object, empty or not.
    pub fn write<S: Serializer, V: Serialize>(
        map: &LiteMap<String, V>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.collect_map(map.iter())
    }

    /// Writes a map of maps as objects, empty or not.
    pub fn write_maps<S: Serializer, V: Serialize>(
        map: &LiteMap<String, LiteMap<String, V>>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        struct Inner<'a, V>(&'a LiteMap<String, V>);
        impl<V: Serialize> Serialize for Inner<'_, V> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                write(self.0, s)
            }
        }
        s.collect_map(map.iter().map(|(k, v)| (k, Inner(v))))
    }

    /// A map of `V`. A key written twice is refused: serde's maps keep the last value, which
    /// silently lost an entry of stored progress (found by the `progress` fuzz target).
    pub fn map<'de, D: Deserializer<'de>, V: Deserialize<'de>>(
        d: D,
    ) -> Result<LiteMap<String, V>, D::Error> {
        Ok(Unique::deserialize(d)?.0)
    }

    /// A map of maps of `V`, keys unique at both levels.
    pub fn map_of_maps<'de, D: Deserializer<'de>, V: Deserialize<'de>>(
        d: D,
    ) -> Result<LiteMap<String, LiteMap<String, V>>, D::Error> {
        let outer = Unique::<Unique<V>>::deserialize(d)?.0;
        Ok(outer.into_iter().map(|(k, inner)| (k, inner.0)).collect())
    }

    /// A JSON object with each key once.
    struct Unique<V>(LiteMap<String, V>);

    impl<'de, V: Deserialize<'de>> Deserialize<'de> for Unique<V> {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct Entries<V>(std::marker::PhantomData<V>);
            impl<'de, V: Deserialize<'de>> Visitor<'de> for Entries<V> {
                type Value = Unique<V>;
                fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                    f.write_str("a map")
                }
                fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Unique<V>, A::Error> {
                    let mut out = LiteMap::new();
                    while let Some((k, v)) = m.next_entry::<String, V>()? {
                        if out.contains_key(&k) {
                            return Err(A::Error::custom(format_args!("key `{k}` twice")));
                        }
                        out.insert(k, v);
                    }
                    Ok(Unique(out))
                }
            }
            d.deserialize_map(Entries(std::marker::PhantomData))
        }
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

    /// An empty map is an object, as the strict readers (native and the browser's) require:
    /// litemap's own `Serialize` would write `[]`, and a page without figures stopped mounting.
    #[test]
    fn empty_maps_are_objects() {
        let page = serde_json::to_string(&crate::quiz::Page::default()).unwrap();
        assert!(
            page.contains("\"figures\":{}") && page.contains("\"compiled\":{}"),
            "{page}"
        );
        assert!(crate::quiz::Page::from_json(&page).is_ok());
        let progress = crate::progress::Progress::default().to_json();
        assert!(progress.ends_with(",\"quizzes\":{}}"), "{progress}");
        assert!(crate::progress::Progress::from_json(&progress).is_ok());
    }
}

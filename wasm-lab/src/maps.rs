//! The page's and the progress's string-keyed maps through serde.

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

//! A settings file's JSON as the reader walks it: the same tree as `serde_json::Value`, for
//! reading only. Every hook call reads every settings file, and `Value`'s objects are `IndexMap`s
//! (a table, a hash of every key, owned copies of every key and string): most of the cost of
//! reading a file. Here an object is its members in a vector and a string borrows the file's
//! text unless it has escapes. Objects keep what `Value` keeps: members in file order, a repeated
//! key in its first place with its last value.

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::{Number, Value};
use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

#[derive(Debug)]
pub(super) enum Json<'a> {
    Null,
    Bool(bool),
    Number(Number),
    String(Cow<'a, str>),
    Array(Vec<Json<'a>>),
    Object(Object<'a>),
}

/// An object's members, in file order, each key once.
#[derive(Debug, Default)]
pub(super) struct Object<'a> {
    members: Vec<(Cow<'a, str>, Json<'a>)>,
}

/// Past this many members, a repeated key is found by hash rather than by comparing every key.
const SCAN: usize = 16;

impl<'a> Json<'a> {
    pub(super) fn parse(text: &'a str) -> serde_json::Result<Json<'a>> {
        let mut reader = serde_json::Deserializer::from_str(text);
        let json = Json::deserialize(&mut reader)?;
        reader.end()?;
        Ok(json)
    }

    pub(super) fn as_array(&self) -> Option<&Vec<Json<'a>>> {
        match self {
            Json::Array(items) => Some(items),
            _ => None,
        }
    }

    pub(super) fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(text) => Some(text),
            _ => None,
        }
    }

    pub(super) fn is_string(&self) -> bool {
        matches!(self, Json::String(_))
    }

    /// `null`, `boolean`, … as `hookmux_sdk::json_kind` names a `Value`'s.
    pub(super) fn kind(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool(_) => "boolean",
            Json::Number(_) => "number",
            Json::String(_) => "string",
            Json::Array(_) => "array",
            Json::Object(_) => "object",
        }
    }

    /// The `Value` `serde_json` would have read, for what is kept as JSON (an `mcp_tool` input).
    pub(super) fn to_value(&self) -> Value {
        match self {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(*b),
            Json::Number(n) => Value::Number(n.clone()),
            Json::String(text) => Value::String(text.to_string()),
            Json::Array(items) => Value::Array(items.iter().map(Json::to_value).collect()),
            Json::Object(object) => {
                Value::Object(object.iter().map(|(key, value)| (key.to_string(), value.to_value())).collect())
            }
        }
    }
}

impl<'a> Object<'a> {
    pub(super) fn get(&self, key: &str) -> Option<&Json<'a>> {
        self.members.iter().find(|(name, _)| name == key).map(|(_, value)| value)
    }

    pub(super) fn iter(&self) -> impl Iterator<Item = (&str, &Json<'a>)> {
        self.members.iter().map(|(key, value)| (&**key, value))
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Json<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Json<'a>, D::Error> {
        deserializer.deserialize_any(JsonVisitor)
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Json<'de>, E> {
        Ok(Json::Bool(b))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Json<'de>, E> {
        Ok(Json::Number(n.into()))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Json<'de>, E> {
        Ok(Json::Number(n.into()))
    }

    fn visit_f64<E>(self, n: f64) -> Result<Json<'de>, E> {
        // As `Value` reads it: a number JSON cannot hold is null.
        Ok(Number::from_f64(n).map_or(Json::Null, Json::Number))
    }

    fn visit_borrowed_str<E>(self, text: &'de str) -> Result<Json<'de>, E> {
        Ok(Json::String(Cow::Borrowed(text)))
    }

    fn visit_str<E>(self, text: &str) -> Result<Json<'de>, E> {
        Ok(Json::String(Cow::Owned(text.to_string())))
    }

    fn visit_string<E>(self, text: String) -> Result<Json<'de>, E> {
        Ok(Json::String(Cow::Owned(text)))
    }

    fn visit_none<E>(self) -> Result<Json<'de>, E> {
        Ok(Json::Null)
    }

    fn visit_unit<E>(self) -> Result<Json<'de>, E> {
        Ok(Json::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Json<'de>, D::Error> {
        Json::deserialize(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json<'de>, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json<'de>, A::Error> {
        let mut members: Vec<(Cow<'de, str>, Json<'de>)> = Vec::new();
        let mut index: Option<HashMap<Cow<'de, str>, usize>> = None;
        while let Some(Key(key)) = map.next_key_seed(KeySeed)? {
            let value: Json<'de> = map.next_value()?;
            let seen = match &index {
                Some(index) => index.get(&key).copied(),
                None => members.iter().position(|(name, _)| *name == key),
            };
            match seen {
                Some(at) => members[at].1 = value,
                None => {
                    if let Some(index) = &mut index {
                        index.insert(key.clone(), members.len());
                    }
                    members.push((key, value));
                    if index.is_none() && members.len() > SCAN {
                        index = Some(members.iter().enumerate().map(|(at, (name, _))| (name.clone(), at)).collect());
                    }
                }
            }
        }
        Ok(Json::Object(Object { members }))
    }
}

/// An object's key, borrowed from the text when it has no escapes.
struct Key<'a>(Cow<'a, str>);

struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Key<'de>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Key<'de>, D::Error> {
        deserializer.deserialize_str(KeyVisitor)
    }
}

struct KeyVisitor;

impl<'de> Visitor<'de> for KeyVisitor {
    type Value = Key<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string key")
    }

    fn visit_borrowed_str<E: de::Error>(self, text: &'de str) -> Result<Key<'de>, E> {
        Ok(Key(Cow::Borrowed(text)))
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Key<'de>, E> {
        Ok(Key(Cow::Owned(text.to_string())))
    }

    fn visit_string<E: de::Error>(self, text: String) -> Result<Key<'de>, E> {
        Ok(Key(Cow::Owned(text)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Read the way `serde_json::Value` reads it, whatever the text.
    #[test]
    fn reads_what_value_reads() {
        for text in [
            r#"{"b": 1, "a": [true, null, -2, 3.5, 1e300, "x\"y", {}], "b": {"c": "d"}, "é\n": "\u00e9"}"#,
            r#"[1, 18446744073709551615, -9223372036854775808, 0.1, "", []]"#,
            r#""text""#,
            "3",
            "null",
            r#"{"k": 1, "k": 2, "k": 3}"#,
        ] {
            let value: Value = serde_json::from_str(text).unwrap();
            assert_eq!(Json::parse(text).unwrap().to_value(), value, "{text}");
        }
        let many: String = (0..100).map(|i| format!("\"k{}\": {i}", i % 40)).collect::<Vec<_>>().join(",");
        let text = format!("{{{many}}}");
        let value: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(Json::parse(&text).unwrap().to_value(), value);
        assert_eq!(serde_json::to_string(&Json::parse(&text).unwrap().to_value()).unwrap(), value.to_string());
    }

    /// The same errors, at the same place.
    #[test]
    fn fails_where_value_fails() {
        let deep = "[".repeat(200) + &"]".repeat(200);
        for text in ["{", "{\"a\": }", "[1,]", "{} x", "", "   ", "\"\\ud800\"", "1e999", &deep] {
            let expected = serde_json::from_str::<Value>(text).unwrap_err();
            let got = Json::parse(text).unwrap_err();
            assert_eq!(got.to_string(), expected.to_string(), "{text}");
            assert_eq!((got.line(), got.column()), (expected.line(), expected.column()), "{text}");
        }
    }
}

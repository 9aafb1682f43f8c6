//! JavaScript's rules where brewcode's behaviour depends on them.
//!
//! brewcode's hooks are Node scripts, and what they write follows from JavaScript semantics: a
//! value is "missing" when it is falsy, `${x}` prints `undefined` or `[object Object]`, string
//! lengths and cuts count UTF-16 code units, numbers print as `1e+21`, a failed property access
//! throws a `TypeError` that the hook logs and survives. A user replacing brewcode with hookmux
//! sees the same answers and files only if these rules are followed where they show; this module
//! holds them, and nothing brewcode-specific.

pub mod date;
pub mod errno;
pub mod path;
pub mod text;

use serde_json::{Map, Value};
use std::fmt;

/// A JavaScript exception as a brewcode hook would have caught it: only its message matters,
/// because the hooks log `Error: <message>` and answer as if they had nothing to say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsError(pub String);

impl fmt::Display for JsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl JsError {
    pub fn new(message: impl Into<String>) -> JsError {
        JsError(message.into())
    }
}

/// A step that may throw, as the hooks' helpers do.
pub type Js<T> = Result<T, JsError>;

/// JavaScript truthiness of a property that may be absent (`undefined`).
pub fn truthy(value: Option<&Value>) -> bool {
    match value {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_f64().is_some_and(|x| x != 0.0 && !x.is_nan()),
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Array(_) | Value::Object(_)) => true,
    }
}

/// `value || undefined`: the value when it is truthy.
pub fn or_none(value: Option<&Value>) -> Option<&Value> {
    value.filter(|v| truthy(Some(v)))
}

/// `obj?.[key]`: a property of an object; any other value (a string, a number) has none that
/// JSON could give it.
pub fn prop<'v>(value: Option<&'v Value>, key: &str) -> Option<&'v Value> {
    value.and_then(Value::as_object).and_then(|map| map.get(key))
}

/// `String(value)`, which is also what a template literal `${value}` prints.
pub fn string_of(value: Option<&Value>) -> String {
    match value {
        None => "undefined".to_string(),
        Some(value) => string_of_value(value),
    }
}

fn string_of_value(value: &Value) -> String {
    match value {
        Value::Null => "null".to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => number_of(n),
        Value::String(s) => s.clone(),
        // `[a, b].toString()` joins the elements, with null and undefined as empty strings.
        Value::Array(items) => items
            .iter()
            .map(|item| if item.is_null() { String::new() } else { string_of_value(item) })
            .collect::<Vec<_>>()
            .join(","),
        Value::Object(_) => "[object Object]".to_string(),
    }
}

/// A JSON number as JavaScript prints it.
pub fn number_of(n: &serde_json::Number) -> String {
    match (n.as_i64(), n.as_u64()) {
        (Some(i), _) if i.unsigned_abs() < (1 << 53) => i.to_string(),
        (_, Some(u)) if u < (1 << 53) => u.to_string(),
        _ => format_number(n.as_f64().unwrap_or(f64::NAN)),
    }
}

/// `Number.prototype.toString()` for a finite number: the shortest digits that read back the same
/// value, in plain notation from 1e-6 up to 1e21 and in exponent notation (`1e+21`) outside.
pub fn format_number(x: f64) -> String {
    if x.is_nan() {
        return "NaN".to_string();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Infinity" } else { "-Infinity" }.to_string();
    }
    if x == 0.0 {
        return "0".to_string();
    }
    if x < 0.0 {
        return format!("-{}", format_number(-x));
    }
    // Rust's `{:e}` gives the same shortest round-trip digits as JavaScript, as `d.ddde±x`.
    let exp_form = format!("{x:e}");
    let (mantissa, exponent) = exp_form.split_once('e').unwrap_or((&exp_form, "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let exponent: i64 = exponent.parse().unwrap_or(0);
    let k = digits.len() as i64;
    let n = exponent + 1;
    if k <= n && n <= 21 {
        format!("{digits}{}", "0".repeat((n - k) as usize))
    } else if 0 < n && n <= 21 {
        format!("{}.{}", &digits[..n as usize], &digits[n as usize..])
    } else if -6 < n && n <= 0 {
        format!("0.{}{digits}", "0".repeat((-n) as usize))
    } else {
        let sign = if n > 0 { '+' } else { '-' };
        let rest = if k > 1 { format!(".{}", &digits[1..]) } else { String::new() };
        format!("{}{rest}e{sign}{}", &digits[..1], (n - 1).abs())
    }
}

/// A JSON number for a JavaScript number: integers stay integers (JavaScript prints `2`, not
/// `2.0`), everything else is a float.
pub fn number_value(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 9_007_199_254_740_992.0 {
        Value::from(x as i64)
    } else {
        serde_json::Number::from_f64(x).map(Value::Number).unwrap_or(Value::Null)
    }
}

/// A JSON number as a JavaScript number (a double).
pub fn as_number(value: Option<&Value>) -> Option<f64> {
    value.and_then(Value::as_f64)
}

/// `Number.isInteger(value) && value >= 1`: how brewcode validates its numeric settings.
pub fn is_positive_integer(value: Option<&Value>) -> bool {
    as_number(value).is_some_and(|x| x.is_finite() && x.fract() == 0.0 && x >= 1.0)
}

/// `a === b` for two JSON values: objects and arrays are never identical, since each was parsed
/// on its own.
pub fn strict_equals(a: Option<&Value>, b: Option<&Value>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(Value::Null), Some(Value::Null)) => true,
        (Some(Value::Bool(x)), Some(Value::Bool(y))) => x == y,
        (Some(Value::Number(x)), Some(Value::Number(y))) => x.as_f64() == y.as_f64(),
        (Some(Value::String(x)), Some(Value::String(y))) => x == y,
        _ => false,
    }
}

/// `typeof value` for the primitives a TypeError message names.
pub fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) | Value::Object(_) => "object",
    }
}

/// The TypeError strict-mode code throws when it sets a property on a primitive.
pub fn cannot_create_property(key: &str, on: &Value) -> JsError {
    match on {
        Value::Null => JsError(format!("Cannot set properties of null (setting '{key}')")),
        primitive => JsError(format!(
            "Cannot create property '{key}' on {} '{}'",
            type_name(primitive),
            string_of_value(primitive)
        )),
    }
}

/// Reorders an object's keys as JavaScript keeps them: integer-like keys ("0", "12") first in
/// ascending order, then the others in insertion order. `JSON.stringify` writes them that way,
/// so files brewcode rewrites have that order. Nested values are reordered too, and integral
/// floats become integers (`1.0` prints as `1`).
pub fn js_order(value: Value) -> Value {
    match value {
        Value::Object(map) => {
            if !map.keys().any(|key| array_index(key).is_some()) {
                return Value::Object(map.into_iter().map(|(k, v)| (k, js_order(v))).collect());
            }
            let mut indexed: Vec<(u32, String, Value)> = Vec::new();
            let mut named: Map<String, Value> = Map::new();
            for (key, item) in map {
                match array_index(&key) {
                    Some(index) => indexed.push((index, key, js_order(item))),
                    None => {
                        named.insert(key, js_order(item));
                    }
                }
            }
            indexed.sort_by_key(|(index, _, _)| *index);
            let mut out: Map<String, Value> = indexed.into_iter().map(|(_, k, v)| (k, v)).collect();
            out.extend(named);
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.into_iter().map(js_order).collect()),
        Value::Number(n) if n.is_f64() => n.as_f64().map(number_value).unwrap_or(Value::Number(n)),
        other => other,
    }
}

/// A canonical array index ("0", "17", not "017", below 2^32 - 1).
pub fn array_index(key: &str) -> Option<u32> {
    if key.is_empty() || (key.len() > 1 && key.starts_with('0')) || !key.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    key.parse::<u32>().ok().filter(|&index| index != u32::MAX)
}

/// A JSON value serialized in JavaScript's key order (see [`js_order`]), without copying it.
pub struct Ordered<'v>(pub &'v Value);

impl serde::Serialize for Ordered<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        match self.0 {
            Value::Object(map) => {
                let mut out = serializer.serialize_map(Some(map.len()))?;
                let mut indexed: Vec<(u32, &String)> =
                    map.keys().filter_map(|k| array_index(k).map(|i| (i, k))).collect();
                indexed.sort_by_key(|(index, _)| *index);
                for (_, key) in &indexed {
                    out.serialize_entry(key, &Ordered(&map[key.as_str()]))?;
                }
                for (key, value) in map.iter().filter(|(k, _)| indexed.is_empty() || array_index(k).is_none()) {
                    out.serialize_entry(key, &Ordered(value))?;
                }
                out.end()
            }
            Value::Array(items) => {
                let mut out = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    out.serialize_element(&Ordered(item))?;
                }
                out.end()
            }
            Value::Number(n) if n.is_f64() => number_value(n.as_f64().unwrap_or(f64::NAN)).serialize(serializer),
            other => other.serialize(serializer),
        }
    }
}

/// `JSON.stringify(value)`.
pub fn stringify(value: &Value) -> String {
    serde_json::to_string(&Ordered(value)).unwrap_or_default()
}

/// `JSON.stringify(value, null, 2)`.
pub fn stringify_pretty(value: &Value) -> String {
    serde_json::to_string_pretty(&Ordered(value)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_print_as_javascript_does() {
        for (x, expected) in [
            (2.0, "2"),
            (0.5, "0.5"),
            (1e21, "1e+21"),
            (1e-7, "1e-7"),
            (123e-20, "1.23e-18"),
            (0.000001, "0.000001"),
            (1.5e300, "1.5e+300"),
            (100.0, "100"),
            (-2.5, "-2.5"),
            (1e20, "100000000000000000000"),
        ] {
            assert_eq!(format_number(x), expected, "{x}");
        }
    }

    #[test]
    fn string_of_follows_template_literals() {
        assert_eq!(string_of(None), "undefined");
        assert_eq!(string_of(Some(&json!(null))), "null");
        assert_eq!(string_of(Some(&json!([1, null, [2, 3]]))), "1,,2,3");
        assert_eq!(string_of(Some(&json!({"a": 1}))), "[object Object]");
        assert_eq!(string_of(Some(&json!(2.5))), "2.5");
    }

    #[test]
    fn truthiness() {
        for v in [json!(0), json!(""), json!(null), json!(false), json!(0.0)] {
            assert!(!truthy(Some(&v)), "{v}");
        }
        for v in [json!(1), json!("0"), json!([]), json!({}), json!(true)] {
            assert!(truthy(Some(&v)), "{v}");
        }
        assert!(!truthy(None));
    }

    #[test]
    fn key_order_puts_integer_keys_first() {
        let v: Value =
            serde_json::from_str(r#"{"b":1,"2":2,"a":3,"1":4,"01":5,"4294967295":6,"4294967294":7}"#).unwrap();
        assert_eq!(stringify(&v), r#"{"1":4,"2":2,"4294967294":7,"b":1,"a":3,"01":5,"4294967295":6}"#);
        assert_eq!(stringify(&json!({"x": 1.0})), r#"{"x":1}"#);
    }

    #[test]
    fn type_errors_name_the_primitive() {
        assert_eq!(cannot_create_property("t", &json!(5)).0, "Cannot create property 't' on number '5'");
        assert_eq!(cannot_create_property("ts", &json!("")).0, "Cannot create property 'ts' on string ''");
        assert_eq!(
            cannot_create_property("lastHandoff", &json!(null)).0,
            "Cannot set properties of null (setting 'lastHandoff')"
        );
    }
}

//! Values on the pipe to the host. Plain JSON where JSON can say it;
//! everything else as `{"__ptype": KIND, "__pvalue": DATA}`, so that a
//! value makes the round trip through Ruby unchanged: default, regexes,
//! Sensitive, timespans and timestamps (nanoseconds), binaries (base64),
//! versions, deferred calls, hashes whose keys are not all strings (as a
//! flat list of keys and values), and types.
//!
//! A type travels as its text and as a number into a table kept by the
//! host's owner ([`Types`]): the text is what Ruby shows, the number gives
//! back the very type (aliases and all) when the value returns.

use marionette_values::{
    Deferred, PHash, PType, Regex, SemVer, SemVerRange, Timespan, Timestamp, Value,
};
use serde_json::{Map, Value as Json, json};

const KIND: &str = "__ptype";
const DATA: &str = "__pvalue";

/// The types sent to the host during one conversation.
#[derive(Default)]
pub(crate) struct Types(Vec<PType>);

impl Types {
    pub(crate) fn clear(&mut self) {
        self.0.clear();
    }
}

/// How values are shaped for the function receiving them.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// As 4.x functions and templates receive them.
    Plain,
    /// As 3.x functions receive them: a type naming a resource is a
    /// reference (`Puppet::Resource`).
    ThreeX,
}

pub(crate) fn encode(value: &Value, types: &mut Types, shape: Shape) -> Json {
    match value {
        Value::Undef => Json::Null,
        Value::Default => rich("Default", Json::Null),
        Value::Boolean(b) => Json::Bool(*b),
        Value::Integer(i) => json!(i),
        Value::Float(f) => serde_json::Number::from_f64(*f).map_or(Json::Null, Json::Number),
        Value::String(s) => Json::String(s.to_string()),
        Value::Regexp(regex) => rich("Regexp", Json::String(regex.source().to_string())),
        Value::Array(items) => Json::Array(items.iter().map(|v| encode(v, types, shape)).collect()),
        Value::Iterator(items) => {
            Json::Array(items.iter().map(|v| encode(v, types, shape)).collect())
        }
        Value::Hash(hash) => encode_hash(hash, types, shape),
        Value::Type(t) => {
            if shape == Shape::ThreeX
                && let Some((type_name, title)) = resource_reference(t)
            {
                return rich("ResourceRef", json!([type_name, title]));
            }
            types.0.push((**t).clone());
            json!({KIND: "Type", DATA: t.to_string(), "id": types.0.len() - 1})
        }
        Value::Sensitive(inner) => rich("Sensitive", encode(inner, types, shape)),
        Value::Timespan(t) => rich("Timespan", json!(t.0)),
        Value::Timestamp(t) => rich("Timestamp", json!(t.0)),
        Value::SemVer(v) => rich("SemVer", Json::String(v.to_string())),
        Value::SemVerRange(r) => rich("SemVerRange", Json::String(r.to_string())),
        Value::Binary(bytes) => rich(
            "Binary",
            Json::String(marionette_values::binary::encode(bytes)),
        ),
        Value::Deferred(d) => rich(
            "Deferred",
            json!({
                "name": d.name,
                "arguments": d.arguments.iter().map(|v| encode(v, types, shape)).collect::<Vec<_>>(),
            }),
        ),
    }
}

fn encode_hash(hash: &PHash, types: &mut Types, shape: Shape) -> Json {
    let plain = hash
        .keys()
        .all(|k| matches!(k, Value::String(s) if &**s != KIND));
    if plain {
        let map: Map<String, Json> = hash
            .iter()
            .map(|(k, v)| {
                let Value::String(key) = k else {
                    unreachable!("checked above")
                };
                (key.to_string(), encode(v, types, shape))
            })
            .collect();
        return Json::Object(map);
    }
    let pairs = hash
        .iter()
        .flat_map(|(k, v)| [encode(k, types, shape), encode(v, types, shape)])
        .collect();
    rich("Hash", Json::Array(pairs))
}

/// `File['/x']` as `('file', '/x')`, `Class['a']` as `('class', 'a')`.
fn resource_reference(t: &PType) -> Option<(String, String)> {
    match t {
        PType::Resource {
            type_name: Some(type_name),
            title: Some(title),
        } => Some((type_name.to_lowercase(), title.to_string())),
        PType::Class(Some(name)) => Some(("class".into(), name.to_string())),
        _ => None,
    }
}

fn rich(kind: &str, data: Json) -> Json {
    json!({KIND: kind, DATA: data})
}

/// A value the host sent; an error says what was wrong with it.
pub(crate) fn decode(data: &Json, types: &Types) -> Result<Value, String> {
    Ok(match data {
        Json::Null => Value::Undef,
        Json::Bool(b) => Value::Boolean(*b),
        Json::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => Value::Integer(i),
            (None, Some(_)) if n.is_u64() => {
                return Err(format!("an Integer out of Puppet's range, got {n}"));
            }
            (None, Some(f)) => Value::Float(f),
            (None, None) => return Err(format!("a number out of range: {n}")),
        },
        Json::String(s) => Value::string(s.as_str()),
        Json::Array(items) => Value::array(
            items
                .iter()
                .map(|v| decode(v, types))
                .collect::<Result<_, _>>()?,
        ),
        Json::Object(map) => match map.get(KIND).and_then(Json::as_str) {
            Some(kind) => decode_rich(kind, map, types)?,
            None => {
                let mut hash = PHash::default();
                for (k, v) in map {
                    hash.insert(Value::string(k.as_str()), decode(v, types)?);
                }
                Value::hash(hash)
            }
        },
    })
}

fn decode_rich(kind: &str, map: &Map<String, Json>, types: &Types) -> Result<Value, String> {
    let data = map.get(DATA).unwrap_or(&Json::Null);
    let text = || {
        data.as_str()
            .ok_or_else(|| format!("a {kind} without its text"))
    };
    let nanos = || {
        data.as_i64()
            .ok_or_else(|| format!("a {kind} without its nanoseconds"))
    };
    Ok(match kind {
        "Default" => Value::Default,
        "Hash" => {
            let items = data.as_array().ok_or("a Hash without its entries")?;
            let mut hash = PHash::default();
            for pair in items.chunks(2) {
                let [k, v] = pair else {
                    return Err("a Hash with a key but no value".into());
                };
                hash.insert(decode(k, types)?, decode(v, types)?);
            }
            Value::hash(hash)
        }
        "Sensitive" => Value::Sensitive(Box::new(decode(data, types)?)),
        "Regexp" => Value::Regexp(Regex::new(text()?)?),
        "Timespan" => Value::Timespan(Timespan(nanos()?)),
        "Timestamp" => Value::Timestamp(Timestamp(nanos()?)),
        "Binary" => Value::Binary(std::sync::Arc::new(
            marionette_values::binary::decode(text()?).ok_or("a Binary that is not base64")?,
        )),
        "SemVer" => Value::SemVer(std::sync::Arc::new(
            SemVer::parse(text()?).ok_or("a version that does not parse")?,
        )),
        "SemVerRange" => Value::SemVerRange(std::sync::Arc::new(
            SemVerRange::parse(text()?).ok_or("a version range that does not parse")?,
        )),
        "Type" => {
            let kept = map
                .get("id")
                .and_then(Json::as_u64)
                .and_then(|id| types.0.get(usize::try_from(id).ok()?));
            let t = match kept {
                Some(t) => t.clone(),
                None => marionette_values::parse_type(text()?)?,
            };
            Value::Type(Box::new(t))
        }
        "ResourceRef" => {
            let parts = data
                .as_array()
                .ok_or("a resource reference without its parts")?;
            let part = |i: usize| parts.get(i).and_then(Json::as_str).unwrap_or_default();
            let t = if part(0) == "class" {
                PType::Class(Some(part(1).into()))
            } else {
                PType::Resource {
                    type_name: Some(part(0).into()),
                    title: Some(part(1).into()),
                }
            };
            Value::Type(Box::new(t))
        }
        "Deferred" => {
            let name = data
                .get("name")
                .and_then(Json::as_str)
                .ok_or("a Deferred without its function's name")?;
            let arguments = match data.get("arguments") {
                Some(Json::Array(items)) => items
                    .iter()
                    .map(|v| decode(v, types))
                    .collect::<Result<_, _>>()?,
                _ => Vec::new(),
            };
            Value::Deferred(std::sync::Arc::new(Deferred {
                name: name.to_string(),
                arguments,
            }))
        }
        other => return Err(format!("a value of an unknown kind '{other}'")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(value: Value) {
        let mut types = Types::default();
        let data = encode(&value, &mut types, Shape::Plain);
        let text = data.to_string();
        let back = decode(&serde_json::from_str(&text).unwrap(), &types).unwrap();
        assert_eq!(back, value, "through {text}");
    }

    #[test]
    fn values_survive_the_pipe() {
        let mut odd = PHash::default();
        odd.insert(Value::Integer(1), Value::string("one"));
        odd.insert(Value::Undef, Value::Default);
        let mut named = PHash::default();
        named.insert(Value::string("__ptype"), Value::string("not a kind"));
        for value in [
            Value::Undef,
            Value::Default,
            Value::Integer(i64::MAX),
            Value::Integer(i64::MIN),
            Value::Float(1.0),
            Value::Float(-2.5e300),
            Value::string("é\n\u{0}"),
            Value::Regexp(Regex::new("^a.b$").unwrap()),
            Value::Sensitive(Box::new(Value::string("s3cret"))),
            Value::Timespan(Timespan(-1_500_000_000)),
            Value::Timestamp(Timestamp(1_700_000_000_123_456_789)),
            Value::Binary(std::sync::Arc::new(vec![0, 255, 10])),
            Value::hash(odd),
            Value::hash(named),
            Value::Type(Box::new(
                marionette_values::parse_type("Array[Integer[1, 3]]").unwrap(),
            )),
            Value::array(vec![Value::Undef, Value::array(vec![])]),
        ] {
            round_trip(value);
        }
    }

    #[test]
    fn three_x_functions_get_references() {
        let mut types = Types::default();
        let file = Value::Type(Box::new(PType::Resource {
            type_name: Some("File".into()),
            title: Some("/tmp/x".into()),
        }));
        assert_eq!(
            encode(&file, &mut types, Shape::ThreeX),
            json!({"__ptype": "ResourceRef", "__pvalue": ["file", "/tmp/x"]})
        );
    }

    #[test]
    fn out_of_range_numbers_are_refused() {
        let types = Types::default();
        let big: Json = serde_json::from_str("18446744073709551615").unwrap();
        assert!(
            decode(&big, &types)
                .unwrap_err()
                .contains("out of Puppet's range")
        );
    }
}

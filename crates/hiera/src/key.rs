//! Lookup keys: `a::b.c.0` is the root key `a::b`, then the segments `c`
//! and `0` that dig into the value found.

use marionette_values::Value;

use crate::error::{ErrorKind, HieraError, Result};

/// One step into a value: a hash key, or an index when the segment is a
/// number and the value an array.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Segment {
    Name(String),
    Index(i64),
}

impl std::fmt::Display for Segment {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Segment::Name(name) => f.write_str(name),
            Segment::Index(i) => write!(f, "{i}"),
        }
    }
}

/// A parsed key.
#[derive(Clone, Debug)]
pub(crate) struct LookupKey {
    pub(crate) text: String,
    pub(crate) root: String,
    pub(crate) segments: Vec<Segment>,
    /// The module a qualified root key belongs to (`ntp` for `ntp::servers`).
    pub(crate) module: Option<String>,
}

impl LookupKey {
    pub(crate) fn parse(text: &str) -> Result<LookupKey> {
        let mut segments = split(text).ok_or_else(|| {
            HieraError::new(ErrorKind::Syntax, format!("Syntax error in key: '{text}'"))
        })?;
        let root = match segments.remove(0) {
            Segment::Name(name) => name,
            Segment::Index(i) => i.to_string(),
        };
        let module = root.find("::").map(|i| root[..i].to_string());
        Ok(LookupKey {
            text: text.to_string(),
            root,
            segments,
            module,
        })
    }
}

/// Splits a key on dots outside quotes; quoted segments lose their quotes,
/// unquoted numbers become indexes. `None` for a key that is not well
/// formed (an empty segment, an unclosed quote).
pub(crate) fn split(text: &str) -> Option<Vec<Segment>> {
    if !text.contains(['.', '"', '\'']) {
        return Some(vec![Segment::Name(text.to_string())]);
    }
    let mut segments = Vec::new();
    let mut rest = text;
    loop {
        let trimmed = rest.trim_start();
        let (segment, after) = match trimmed.as_bytes().first() {
            Some(&q @ (b'"' | b'\'')) => {
                let end = trimmed[1..].find(q as char)? + 1;
                if end == 1 {
                    return None;
                }
                let inner = &trimmed[1..end];
                (
                    Segment::Name(inner.to_string()),
                    trimmed[end + 1..].trim_start(),
                )
            }
            _ => {
                let end = rest.find(['.', '"', '\'']).unwrap_or(rest.len());
                let raw = &rest[..end];
                if raw.is_empty() {
                    return None;
                }
                let word = raw.trim();
                let segment = match word.parse::<i64>() {
                    Ok(i) if !segments.is_empty() => Segment::Index(i),
                    _ => Segment::Name(word.to_string()),
                };
                (segment, &rest[end..])
            }
        };
        segments.push(segment);
        match after.as_bytes().first() {
            None => return Some(segments),
            Some(b'.') => rest = &after[1..],
            Some(_) => return None,
        }
    }
}

/// What digging one segment into a value found.
pub(crate) enum Dug {
    Found(Value),
    NotFound,
}

/// One step of digging, with Puppet's type error for values that cannot be
/// dug into.
pub(crate) fn dig_one(value: &Value, segment: &Segment, key: &str) -> Result<Dug> {
    match (value, segment) {
        (Value::Undef, _) => Ok(Dug::NotFound),
        (Value::Array(items), Segment::Index(i)) => Ok(usize::try_from(*i)
            .ok()
            .and_then(|i| items.get(i))
            .map_or(Dug::NotFound, |v| Dug::Found(v.clone()))),
        (Value::Hash(hash), segment) => {
            let k = match segment {
                Segment::Name(name) => Value::string(name.as_str()),
                Segment::Index(i) => Value::Integer(*i),
            };
            Ok(hash
                .get(&k)
                .map_or(Dug::NotFound, |v| Dug::Found(v.clone())))
        }
        (other, segment) => Err(HieraError::new(
            ErrorKind::Type,
            format!(
                "Data Provider type mismatch: Got {} when a hash-like object was expected to access value using '{segment}' from key '{key}'",
                marionette_values::format::ruby_class(other)
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_split_on_dots_outside_quotes() {
        let key = LookupKey::parse("mod::a.'b.c'.0").unwrap();
        assert_eq!(key.root, "mod::a");
        assert_eq!(key.module.as_deref(), Some("mod"));
        assert_eq!(
            key.segments,
            vec![Segment::Name("b.c".into()), Segment::Index(0)]
        );
        assert!(LookupKey::parse("a..b").is_err());
        assert!(LookupKey::parse("a.'b").is_err());
        assert_eq!(LookupKey::parse("plain").unwrap().segments, vec![]);
    }
}

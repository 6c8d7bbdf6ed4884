//! One row of an entity's answer, as the store reads it and the query
//! engine filters, projects and writes it.
//!
//! A row has a score of fields at most, named mostly by the store's own
//! words: a list of pairs, searched in order, costs less to build, read
//! and drop than a JSON object's hashed map, and a fleet's answer is
//! tens of thousands of rows. Fields whose names start with `_` are the
//! store's own (a node's state, its facts for a `facts` subquery) and are
//! never answered.

use std::borrow::Cow;
use std::cell::OnceCell;
use std::io::Write;

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Map, Value};

/// A field's name: the store's words, or (read from a document, or
/// named by a query's `extract`) owned.
pub(crate) type Key = Cow<'static, str>;

/// A row's fields, in the order they are answered.
#[derive(Clone, Debug, Default)]
pub(crate) struct Row(Vec<(Key, Cell)>);

/// A field's value; a document the store keeps as JSON text (a
/// resource's parameters, a fact's value) stays that text until a
/// query's condition reads into it, and is answered as it is kept.
#[derive(Clone, Debug)]
enum Cell {
    Value(Value),
    Json(Box<(Box<str>, OnceCell<Value>)>),
}

impl Cell {
    fn json(json: Option<&str>) -> Cell {
        match json {
            Some(json) => Cell::Json(Box::new((json.into(), OnceCell::new()))),
            None => Cell::Value(Value::Null),
        }
    }

    fn value(&self) -> &Value {
        match self {
            Cell::Value(value) => value,
            Cell::Json(json) => json.1.get_or_init(|| {
                // What no command stored (the store writes what it read
                // as JSON) reads as nothing, as PuppetDB's null.
                serde_json::from_str(&json.0).unwrap_or(Value::Null)
            }),
        }
    }

    fn into_value(self) -> Value {
        match self {
            Cell::Value(value) => value,
            Cell::Json(json) => {
                json.1
                    .get_or_init(|| serde_json::from_str(&json.0).unwrap_or(Value::Null));
                json.1.into_inner().unwrap_or(Value::Null)
            }
        }
    }

    /// The JSON text kept, when nothing has read it yet, checked to be
    /// JSON: what the answer holds as it is.
    fn unread(&self) -> Option<&serde_json::value::RawValue> {
        match self {
            Cell::Json(json) if json.1.get().is_none() => raw_json(&json.0),
            _ => None,
        }
    }

    /// The JSON text kept, when nothing has read it yet, as an answer
    /// written straight holds it ([`kept_json`]).
    fn unread_text(&self) -> Option<&str> {
        match self {
            Cell::Json(json) if json.1.get().is_none() => kept_json(&json.0),
            _ => None,
        }
    }
}

impl From<Value> for Cell {
    fn from(value: Value) -> Cell {
        Cell::Value(value)
    }
}

impl Row {
    pub(crate) fn new() -> Row {
        Row(Vec::new())
    }

    pub(crate) fn with_capacity(fields: usize) -> Row {
        Row(Vec::with_capacity(fields))
    }

    /// Adds the field `key`, which the row does not have yet, last.
    pub(crate) fn push(&mut self, key: &'static str, value: Value) {
        self.0.push((Key::Borrowed(key), Cell::Value(value)));
    }

    /// Adds the field `key`, which the row does not have yet, last, as a
    /// JSON document (null when there is none), read only when a
    /// condition asks what it holds.
    pub(crate) fn push_json(&mut self, key: &'static str, json: Option<&str>) {
        self.0.push((Key::Borrowed(key), Cell::json(json)));
    }

    pub(crate) fn get(&self, key: &str) -> Option<&Value> {
        self.0
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.value())
    }

    /// Sets the field `key`: in its place when the row has it, else last.
    pub(crate) fn insert(&mut self, key: impl Into<Key>, value: Value) {
        self.put(key.into(), Cell::from(value));
    }

    fn put(&mut self, key: Key, cell: Cell) {
        match self.0.iter_mut().find(|(k, _)| *k == key) {
            Some((_, old)) => *old = cell,
            None => self.0.push((key, cell)),
        }
    }

    /// Sets each of `fields` ([`Row::insert`]).
    pub(crate) fn extend<K: Into<Key>>(&mut self, fields: impl IntoIterator<Item = (K, Value)>) {
        for (key, value) in fields {
            self.insert(key, value);
        }
    }

    /// Takes the field `key` out, the others keeping their order.
    pub(crate) fn remove(&mut self, key: &str) -> Option<Value> {
        let at = self.0.iter().position(|(k, _)| k == key)?;
        Some(self.0.remove(at).1.into_value())
    }

    /// Keeps the fields whose names `keep` answers true for.
    pub(crate) fn retain(&mut self, mut keep: impl FnMut(&str) -> bool) {
        self.0.retain(|(k, _)| keep(k));
    }

    /// The row as the JSON object it is answered as.
    pub(crate) fn into_value(self) -> Value {
        Value::Object(
            self.0
                .into_iter()
                .map(|(k, v)| (k.into_owned(), v.into_value()))
                .collect(),
        )
    }
}

impl<K: Into<Key>> FromIterator<(K, Value)> for Row {
    fn from_iter<I: IntoIterator<Item = (K, Value)>>(fields: I) -> Row {
        Row(fields
            .into_iter()
            .map(|(k, v)| (k.into(), Cell::from(v)))
            .collect())
    }
}

impl From<Map<String, Value>> for Row {
    fn from(map: Map<String, Value>) -> Row {
        Row::from_iter(map)
    }
}

impl Serialize for Row {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (key, cell) in &self.0 {
            // A document nothing read is written as it is kept, once
            // checked to be JSON.
            match cell.unread() {
                Some(raw) => map.serialize_entry(key.as_ref(), raw)?,
                None => map.serialize_entry(key.as_ref(), cell.value())?,
            }
        }
        map.end()
    }
}

/// What is written into an answer's JSON list.
pub(crate) trait WriteJson {
    fn write_json<W: Write>(&self, out: &mut W) -> std::io::Result<()>;
}

impl WriteJson for Value {
    fn write_json<W: Write>(&self, out: &mut W) -> std::io::Result<()> {
        Ok(serde_json::to_writer(out, self)?)
    }
}

/// As its [`Serialize`] writes it, with the text most fields are (names,
/// times, hashes: nothing to escape) written as it is: a fleet's answer
/// is megabytes of such text.
impl WriteJson for Row {
    fn write_json<W: Write>(&self, out: &mut W) -> std::io::Result<()> {
        out.write_all(b"{")?;
        for (index, (key, cell)) in self.0.iter().enumerate() {
            if index > 0 {
                out.write_all(b",")?;
            }
            write_str(out, key)?;
            out.write_all(b":")?;
            match cell.unread_text() {
                Some(raw) => out.write_all(raw.as_bytes())?,
                None => match cell.value() {
                    Value::String(text) => write_str(out, text)?,
                    value => serde_json::to_writer(&mut *out, value)?,
                },
            }
        }
        out.write_all(b"}")
    }
}

/// A document the store kept, checked to be JSON: what an answer holds
/// as it is (what is not JSON is answered as null).
pub(crate) fn raw_json(text: &str) -> Option<&serde_json::value::RawValue> {
    serde_json::from_str(text).ok()
}

/// A document the store kept, as an answer written straight (not through
/// serde) holds it. The store keeps only JSON it wrote itself, with
/// serde_json, so an object or an array is not parsed again: for a
/// fleet's resources (their tags and parameters) that was a tenth of
/// the answer's time. One that does not end as it starts (cut short, or
/// another writer's), and any other document, is checked ([`raw_json`]).
pub(crate) fn kept_json(text: &str) -> Option<&str> {
    match (text.as_bytes().first(), text.as_bytes().last()) {
        (Some(b'{'), Some(b'}')) | (Some(b'['), Some(b']')) if text.len() > 1 => Some(text),
        _ => raw_json(text).map(|raw| raw.get()),
    }
}

/// A JSON string: as it is when nothing in it needs escaping.
pub(crate) fn write_str<W: Write>(out: &mut W, text: &str) -> std::io::Result<()> {
    if needs_escaping(text.as_bytes()) {
        return Ok(serde_json::to_writer(out, text)?);
    }
    out.write_all(b"\"")?;
    out.write_all(text.as_bytes())?;
    out.write_all(b"\"")
}

/// A JSON string of text the database holds, its bytes not yet read as
/// UTF-8: written as it is when it is ASCII with nothing to escape (one
/// look at it, where reading it as UTF-8 first would be two); else read
/// as UTF-8 (what is not, as the lossy decoding reads it) and escaped.
pub(crate) fn write_str_bytes<W: Write>(out: &mut W, bytes: &[u8]) -> std::io::Result<()> {
    if !escaped_or_wide(bytes, true) {
        out.write_all(b"\"")?;
        out.write_all(bytes)?;
        return out.write_all(b"\"");
    }
    write_str(out, &String::from_utf8_lossy(bytes))
}

/// Whether JSON must escape a byte of `bytes` (a control character, a
/// quote or a backslash).
fn needs_escaping(bytes: &[u8]) -> bool {
    escaped_or_wide(bytes, false)
}

/// Whether a byte of `bytes` is one JSON escapes, or (when `wide`) one
/// outside ASCII, looked at eight bytes a step: a fleet's answer is
/// megabytes of text with none.
fn escaped_or_wide(bytes: &[u8], wide: bool) -> bool {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
    // A byte of `word` is zero (its high bit set in the result, which
    // can also be set above a zero byte, never without one).
    let zero_in = |word: u64| word.wrapping_sub(ONES) & !word & HIGHS;
    let high = if wide { HIGHS } else { 0 };
    let mut words = bytes.chunks_exact(8);
    for chunk in &mut words {
        let word = u64::from_ne_bytes(chunk.try_into().unwrap_or([0; 8]));
        // A byte below 0x20 is one whose top three bits are all clear.
        let control = zero_in(word & u64::from_ne_bytes([0xe0; 8]));
        let quote = zero_in(word ^ u64::from_ne_bytes([b'"'; 8]));
        let backslash = zero_in(word ^ u64::from_ne_bytes([b'\\'; 8]));
        if control | quote | backslash | (word & high) != 0 {
            return true;
        }
    }
    words
        .remainder()
        .iter()
        .any(|&b| b < 0x20 || b == b'"' || b == b'\\' || (wide && b >= 0x80))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_documents_are_written_as_kept_and_what_is_cut_short_as_nothing() {
        for kept in [
            r#"{"a":[1,"}"]}"#,
            r#"["x","y"]"#,
            "{}",
            "[]",
            r#""text""#,
            "7",
            "true",
        ] {
            assert_eq!(kept_json(kept), Some(kept), "{kept}");
        }
        for broken in ["{", "[", r#"{"a":1"#, r#"["x""#, "not json", "", r#""cut"#] {
            assert_eq!(kept_json(broken), None, "{broken}");
        }
    }

    #[test]
    fn a_row_keeps_its_order_and_answers_as_an_object() {
        let mut row = Row::from_iter([("b", Value::from(1)), ("a", Value::from(2))]);
        row.insert("b", Value::from(3));
        row.insert(String::from("c"), Value::Null);
        assert_eq!(row.get("b"), Some(&Value::from(3)));
        assert_eq!(
            serde_json::to_string(&row).unwrap(),
            r#"{"b":3,"a":2,"c":null}"#
        );
        assert_eq!(row.remove("a"), Some(Value::from(2)));
        row.retain(|k| k != "c");
        row.push_json("d", Some(r#"{"p": [1, "x"]}"#));
        row.push_json("e", Some("not json"));
        row.push_json("f", None);
        assert_eq!(
            serde_json::to_string(&row).unwrap(),
            r#"{"b":3,"d":{"p": [1, "x"]},"e":null,"f":null}"#
        );
        assert_eq!(
            row.get("d").and_then(|d| d.get("p")),
            Some(&serde_json::json!([1, "x"]))
        );
        row.insert("g", Value::from("quote \" back \\ tab \t é"));
        let mut written = Vec::new();
        row.write_json(&mut written).unwrap();
        assert_eq!(
            String::from_utf8(written).unwrap(),
            serde_json::to_string(&row).unwrap()
        );
        row.retain(|k| k == "b");
        for text in ["", "plain text, long enough for two words", "é日本"] {
            assert!(!needs_escaping(text.as_bytes()), "{text}");
        }
        for escaped in ['"', '\\', '\n', '\u{1f}', '\0'] {
            for at in 0..20 {
                let text = format!("{}{escaped}{}", "a".repeat(at), "b".repeat(20 - at));
                assert!(needs_escaping(text.as_bytes()), "{text:?}");
            }
        }
        for text in [
            "plain text, long enough for two words",
            "é日本 and more",
            "tab\there",
        ] {
            let mut written = Vec::new();
            write_str_bytes(&mut written, text.as_bytes()).unwrap();
            assert_eq!(written, serde_json::to_vec(text).unwrap(), "{text}");
        }
        for at in 0..20 {
            let text = format!("{}é{}", "a".repeat(at), "b".repeat(20 - at));
            assert!(escaped_or_wide(text.as_bytes(), true), "{text:?}");
            assert!(!needs_escaping(text.as_bytes()), "{text:?}");
        }
        let mut written = Vec::new();
        write_str_bytes(&mut written, b"not \xff UTF-8").unwrap();
        assert_eq!(written, serde_json::to_vec("not \u{fffd} UTF-8").unwrap());
        assert_eq!(row.clone().into_value(), serde_json::json!({"b": 3}));
        assert_eq!(
            Row::from(serde_json::json!({"x": 1}).as_object().unwrap().clone()).get("x"),
            Some(&Value::from(1))
        );
    }
}

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

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Map, Value};

/// A field's name: the store's words, or (read from a document, or
/// named by a query's `extract`) owned.
pub(crate) type Key = Cow<'static, str>;

/// A row's fields, in the order they are answered.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Row(Vec<(Key, Value)>);

impl Row {
    pub(crate) fn new() -> Row {
        Row(Vec::new())
    }

    pub(crate) fn get(&self, key: &str) -> Option<&Value> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    pub(crate) fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.0.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// Sets the field `key`: in its place when the row has it, else last.
    pub(crate) fn insert(&mut self, key: impl Into<Key>, value: Value) {
        let key = key.into();
        match self.get_mut(&key) {
            Some(old) => *old = value,
            None => self.0.push((key, value)),
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
        Some(self.0.remove(at).1)
    }

    pub(crate) fn retain(&mut self, mut keep: impl FnMut(&str, &Value) -> bool) {
        self.0.retain(|(k, v)| keep(k, v));
    }

    /// The row as the JSON object it is answered as.
    pub(crate) fn into_value(self) -> Value {
        Value::Object(
            self.0
                .into_iter()
                .map(|(k, v)| (k.into_owned(), v))
                .collect(),
        )
    }
}

impl<K: Into<Key>> FromIterator<(K, Value)> for Row {
    fn from_iter<I: IntoIterator<Item = (K, Value)>>(fields: I) -> Row {
        Row(fields.into_iter().map(|(k, v)| (k.into(), v)).collect())
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
        for (key, value) in &self.0 {
            map.serialize_entry(key.as_ref(), value)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        row.retain(|k, _| k != "c");
        assert_eq!(row.clone().into_value(), serde_json::json!({"b": 3}));
        assert_eq!(
            Row::from(serde_json::json!({"x": 1}).as_object().unwrap().clone()).get("x"),
            Some(&Value::from(1))
        );
    }
}

//! Sensitive values in Puppet's rich-data form.
//!
//! The engine wraps a value Puppet keeps secret as
//! `{"__ptype": "Sensitive", "__pvalue": VALUE}` wherever it occurs in a
//! request, and redacts values a plugin returns in that form. States are
//! plain JSON, so their `Debug` output shows such values in full: print
//! what a plugin needs, not whole states.

use std::fmt;

use serde::de::Error as _;
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

const PTYPE: &str = "__ptype";
const PVALUE: &str = "__pvalue";

/// A secret value. Printing it (`{}` or `{:?}`) shows only `Sensitive
/// [value redacted]`, as Puppet does, so it cannot leak into a log
/// message by accident; [`Sensitive::reveal`] is the deliberate way in.
///
/// It serializes to the rich-data form and deserializes from it, so a
/// provider can read states into typed structs with `Sensitive` fields,
/// and put `Sensitive::new(x).to_json()` in a state it returns.
#[derive(Clone, PartialEq)]
pub struct Sensitive(Value);

impl Sensitive {
    pub fn new(value: impl Into<Value>) -> Sensitive {
        Sensitive(value.into())
    }

    /// The secret inside a value in the rich-data form, or None for any
    /// other value.
    pub fn from_json(value: &Value) -> Option<Sensitive> {
        let object = value.as_object()?;
        if object.get(PTYPE)?.as_str()? != "Sensitive" {
            return None;
        }
        Some(Sensitive(object.get(PVALUE)?.clone()))
    }

    /// The rich-data form, to send back to the engine.
    pub fn to_json(&self) -> Value {
        let mut object = serde_json::Map::new();
        object.insert(PTYPE.into(), "Sensitive".into());
        object.insert(PVALUE.into(), self.0.clone());
        Value::Object(object)
    }

    pub fn reveal(&self) -> &Value {
        &self.0
    }

    pub fn into_inner(self) -> Value {
        self.0
    }
}

impl fmt::Debug for Sensitive {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Sensitive [value redacted]")
    }
}

impl fmt::Display for Sensitive {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

impl Serialize for Sensitive {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(2))?;
        map.serialize_entry(PTYPE, "Sensitive")?;
        map.serialize_entry(PVALUE, &self.0)?;
        map.end()
    }
}

impl<'de> Deserialize<'de> for Sensitive {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Sensitive, D::Error> {
        let value = Value::deserialize(deserializer)?;
        Sensitive::from_json(&value)
            .ok_or_else(|| D::Error::custom("expected a Sensitive value (__ptype, __pvalue)"))
    }
}

/// The secret inside a value in the rich-data form, or the value itself:
/// for reading an attribute that may or may not be marked sensitive.
pub fn reveal(value: &Value) -> &Value {
    match value.as_object() {
        Some(object) if object.get(PTYPE).and_then(Value::as_str) == Some("Sensitive") => {
            object.get(PVALUE).unwrap_or(&Value::Null)
        }
        _ => value,
    }
}

/// Whether a value is in the rich-data form of a Sensitive.
pub fn is_sensitive(value: &Value) -> bool {
    Sensitive::from_json(value).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_rich_data_form_round_trips_and_never_prints() {
        let wire = json!({"__ptype": "Sensitive", "__pvalue": "s3cret"});
        let secret: Sensitive = serde_json::from_value(wire.clone()).unwrap();
        assert_eq!(secret.reveal(), "s3cret");
        assert_eq!(secret.to_json(), wire);
        assert_eq!(serde_json::to_value(&secret).unwrap(), wire);
        assert_eq!(
            format!("{secret} {secret:?}"),
            "Sensitive [value redacted] Sensitive [value redacted]"
        );
        assert_eq!(reveal(&wire), "s3cret");
        assert_eq!(reveal(&json!("plain")), "plain");
        assert!(is_sensitive(&wire));
        assert!(!is_sensitive(&json!({"__ptype": "Other", "__pvalue": 1})));
        assert!(serde_json::from_value::<Sensitive>(json!("plain")).is_err());
    }
}

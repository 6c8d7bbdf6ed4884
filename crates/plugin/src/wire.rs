//! Values on the wire: plain JSON, with sensitive values wrapped as
//! Puppet's rich data wraps them, so a plugin knows what not to log.

use marionette_ral::PropertyHash;
use marionette_values::Value;
use serde_json::{Map, Value as Json, json};

/// A value as a plugin receives it.
pub(crate) fn to_wire(value: &Value) -> Json {
    match value {
        Value::Sensitive(inner) => sensitive(to_wire(inner)),
        Value::Array(items) => Json::Array(items.iter().map(to_wire).collect()),
        Value::Hash(hash) => Json::Object(
            hash.iter()
                .map(|(k, v)| (marionette_values::format::to_s(k), to_wire(v)))
                .collect(),
        ),
        other => marionette_catalog::to_data(other),
    }
}

fn sensitive(inner: Json) -> Json {
    json!({"__ptype": "Sensitive", "__pvalue": inner})
}

/// A value a plugin sent.
pub(crate) fn from_wire(data: &Json) -> Value {
    match data {
        Json::Object(map) if map.get("__ptype").and_then(Json::as_str) == Some("Sensitive") => {
            Value::Sensitive(Box::new(from_wire(
                map.get("__pvalue").unwrap_or(&Json::Null),
            )))
        }
        Json::Array(items) => Value::array(items.iter().map(from_wire).collect()),
        Json::Object(map) => Value::hash(
            map.iter()
                .map(|(k, v)| (Value::string(k.as_str()), from_wire(v)))
                .collect(),
        ),
        other => marionette_catalog::from_data(other),
    }
}

/// A state or desired state, with the sensitive attributes wrapped.
pub(crate) fn hash_to_wire(hash: &PropertyHash, sensitive: &[String]) -> Json {
    Json::Object(
        hash.iter()
            .map(|(name, value)| {
                let data = to_wire(value);
                let data = if sensitive.contains(name) && !matches!(value, Value::Sensitive(_)) {
                    self::sensitive(data)
                } else {
                    data
                };
                (name.clone(), data)
            })
            .collect::<Map<String, Json>>(),
    )
}

/// A state a plugin sent. Sensitive values are unwrapped: the resource
/// layer knows which attributes are sensitive and redacts them itself.
pub(crate) fn hash_from_wire(data: &Json) -> Option<PropertyHash> {
    let map = data.as_object()?;
    Some(
        map.iter()
            .map(|(name, value)| {
                let value = match from_wire(value) {
                    Value::Sensitive(inner) => *inner,
                    other => other,
                };
                (name.clone(), value)
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sensitive_values_are_wrapped_both_ways() {
        let secret = Value::Sensitive(Box::new(Value::string("s3cret")));
        let wire = to_wire(&Value::array(vec![Value::Integer(1), secret.clone()]));
        assert_eq!(
            wire,
            json!([1, {"__ptype": "Sensitive", "__pvalue": "s3cret"}])
        );
        assert_eq!(
            from_wire(&wire),
            Value::array(vec![Value::Integer(1), secret])
        );
    }

    #[test]
    fn sensitive_attributes_are_marked_in_states() {
        let hash = PropertyHash::from([
            ("name".to_string(), Value::string("a")),
            ("token".to_string(), Value::string("t")),
        ]);
        let wire = hash_to_wire(&hash, &["token".to_string()]);
        assert_eq!(
            wire,
            json!({"name": "a", "token": {"__ptype": "Sensitive", "__pvalue": "t"}})
        );
        assert_eq!(hash_from_wire(&wire), Some(hash));
    }
}

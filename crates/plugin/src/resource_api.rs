//! Types written with Puppet's Resource API, checked natively. Their
//! definition gives each attribute a Puppet data type, a behaviour and a
//! default, read from the file without Ruby (`marionette_ruby::ApiType`):
//! values are checked against their data types, defaults filled and
//! automatic relationships found here, so Ruby runs only the provider's
//! `get` and `set`.

use std::sync::Arc;

use marionette_ral::{DefaultValue, Resource, TypeDef};
use marionette_ruby::{ApiType, Behaviour, TypeSpec};
use marionette_values::{PType, Value};
use serde_json::{Value as Json, json};

/// The type's data for the registry, as `marionette_ral::type_from_data`
/// reads it.
pub(crate) fn type_data(spec: &TypeSpec, api: &ApiType, doc: String) -> Json {
    let attributes: Vec<Json> = api
        .attributes
        .iter()
        .filter(|a| a.name != "ensure" && !marionette_ral::metaparams::is_metaparameter(&a.name))
        .map(|a| {
            let kind = match a.behaviour {
                Behaviour::Property | Behaviour::InitOnly => "property",
                Behaviour::Namevar | Behaviour::Parameter | Behaviour::ReadOnly => "parameter",
            };
            let doc = spec
                .attributes
                .iter()
                .find(|s| s.name == a.name)
                .map(|s| s.doc.clone())
                .unwrap_or_default();
            json!({
                "name": a.name,
                "doc": doc,
                "kind": kind,
                "namevar": a.behaviour == Behaviour::Namevar,
            })
        })
        .collect();
    let title_patterns: Vec<Json> = spec
        .title_patterns
        .iter()
        .map(|(pattern, attributes)| json!({"pattern": pattern, "attributes": attributes}))
        .collect();
    json!({
        "name": spec.name,
        "doc": doc,
        "ensurable": spec.ensurable,
        "attributes": attributes,
        "features": spec.features.iter().map(|f| json!({"name": f})).collect::<Vec<_>>(),
        "title_patterns": title_patterns,
    })
}

/// The type with the Resource API's checks: each value against its data
/// type (a string that reads as the type's value is taken as that value,
/// as the Resource API does), read-only attributes refused, defaults,
/// mandatory attributes, `ensure` worded as a plain property, and the
/// automatic relationships the definition declares.
pub(crate) fn checked(mut def: TypeDef, api: &ApiType) -> TypeDef {
    let type_name = def.name.clone();
    def.listing = marionette_ral::Listing::Declared {
        read_only: api
            .attributes
            .iter()
            .filter(|a| a.behaviour == Behaviour::ReadOnly)
            .map(|a| a.name.clone())
            .collect(),
    };
    // The attributes a resource must give: (name, whether a parameter).
    let mut mandatory: Vec<(String, bool)> = Vec::new();
    for declared in &api.attributes {
        let Some(attr) = def.attributes.iter_mut().find(|a| a.name == declared.name) else {
            continue;
        };
        let name = declared.name.clone();
        if declared.behaviour == Behaviour::ReadOnly {
            attr.validate = Some(Arc::new(move |_, value| {
                Err(format!(
                    "Attempting to set `{name}` read_only attribute value to `{}`",
                    marionette_values::format::to_s(value)
                ))
            }));
            continue;
        }
        if let Some(default) = &declared.default {
            attr.default = Some(DefaultValue::Value(marionette_catalog::from_data(default)));
        }
        if declared.sensitive {
            attr.sensitive = true;
        }
        attr.whole_value = true;
        attr.array_matching = marionette_ral::ArrayMatching::All;
        let Ok(data_type) = marionette_values::parse_type(&declared.data_type) else {
            continue;
        };
        if declared.default.is_none()
            && declared.behaviour != Behaviour::Namevar
            && !matches!(data_type, PType::Optional(_))
        {
            mandatory.push((name.clone(), declared.behaviour == Behaviour::Parameter));
        }
        let data_type = Arc::new(data_type);
        let (checked_type, label) = (data_type.clone(), format!("{type_name}.{name}"));
        attr.validate = Some(Arc::new(move |_, value| {
            if checked_type.is_instance(value) || converted(&checked_type, value).is_some() {
                return Ok(());
            }
            Err(format!(
                "{label} {}",
                marionette_eval::mismatch_text(&checked_type, value)
            ))
        }));
        attr.munge = Some(Arc::new(move |_, value| {
            Ok(if data_type.is_instance(&value) {
                value
            } else {
                converted(&data_type, &value).unwrap_or(value)
            })
        }));
        if name == "ensure" {
            attr.change_message = Some(Arc::new(|_, current, desired| {
                let text = |v: &Value| format!("'{}'", marionette_values::format::to_s(v));
                if matches!(current, Value::String(s) if &**s == "absent")
                    || *current == Value::Undef
                {
                    format!("defined 'ensure' as {}", text(desired))
                } else if matches!(desired, Value::String(s) if &**s == "absent") {
                    format!("undefined 'ensure' from {}", text(current))
                } else {
                    format!("ensure changed {} to {}", text(current), text(desired))
                }
            }));
        }
    }
    if !mandatory.is_empty() {
        let previous = def.validate.take();
        def.validate = Some(Arc::new(move |resource: &Resource| {
            if let Some(previous) = &previous {
                previous(resource)?;
            }
            missing(resource, &mandatory)
        }));
    }
    for (kind, target, values) in &api.autorelations {
        let kind = match kind.as_str() {
            "before" => marionette_ral::AutoKind::Before,
            "notify" => marionette_ral::AutoKind::Notify,
            "subscribe" => marionette_ral::AutoKind::Subscribe,
            _ => marionette_ral::AutoKind::Require,
        };
        let values = values.clone();
        def.autorelations
            .push(marionette_ral::typedef::AutoRelation {
                kind,
                target_type: target.clone(),
                titles: marionette_ral::Titles::Computed(Arc::new(move |resource| {
                    values
                        .iter()
                        .flat_map(|v| match v.strip_prefix('$') {
                            Some(attr) => match resource.get(attr) {
                                Some(Value::Array(items)) => {
                                    items.iter().map(marionette_values::format::to_s).collect()
                                }
                                Some(Value::Undef) | None => Vec::new(),
                                Some(one) => vec![marionette_values::format::to_s(one)],
                            },
                            None => vec![v.clone()],
                        })
                        .collect()
                })),
                first_found: false,
            });
    }
    def
}

/// The attributes a resource must give and does not: parameters always,
/// properties unless the resource is to be absent.
fn missing(resource: &Resource, mandatory: &[(String, bool)]) -> Result<(), String> {
    let absent = matches!(resource.get("ensure"), Some(Value::String(s)) if &**s == "absent");
    let unset = |name: &str| matches!(resource.get(name), None | Some(Value::Undef));
    let parameters: Vec<&str> = mandatory
        .iter()
        .filter(|(name, parameter)| *parameter && unset(name))
        .map(|(name, _)| name.as_str())
        .collect();
    if !parameters.is_empty() {
        return Err(format!(
            "The following mandatory parameters were not provided:\n    *  {}",
            parameters.join(", \n    *  ")
        ));
    }
    let attributes: Vec<&str> = mandatory
        .iter()
        .filter(|(name, parameter)| !*parameter && name != "ensure" && unset(name))
        .map(|(name, _)| name.as_str())
        .collect();
    if absent || attributes.is_empty() {
        return Ok(());
    }
    Err(format!(
        "The following mandatory attributes were not provided:\n    *  {}",
        attributes.join(", \n    *  ")
    ))
}

/// A string given for a value of another type (`'true'` for a Boolean,
/// `'5'` for an Integer), as that value when it fits the type.
fn converted(data_type: &PType, value: &Value) -> Option<Value> {
    let Value::String(text) = value else {
        return None;
    };
    let candidate = match &**text {
        "true" => Value::Boolean(true),
        "false" => Value::Boolean(false),
        other => match other.parse::<i64>() {
            Ok(i) => Value::Integer(i),
            Err(_) => Value::Float(other.parse::<f64>().ok()?),
        },
    };
    data_type.is_instance(&candidate).then_some(candidate)
}

//! Resources as `marionette resource` prints them: Puppet manifest syntax
//! (`ensure` first, the rest by name, arrows aligned) or JSON.

use marionette_values::Value;
use marionette_values::format::quote;
use marionette_values::types::capitalize_segments;

use crate::attribute::display_value;
use crate::provider::PropertyHash;

/// One resource in manifest syntax. Sensitive attributes print as
/// `'[redacted]'`.
pub fn manifest(
    type_name: &str,
    title: &str,
    state: &PropertyHash,
    provider: Option<&str>,
    is_sensitive: &dyn Fn(&str) -> bool,
) -> String {
    let mut entries: Vec<(String, String)> = state
        .iter()
        .filter(|(name, _)| name.as_str() != "name" && name.as_str() != "title")
        .map(|(name, value)| {
            let text = if is_sensitive(name) || matches!(value, Value::Sensitive(_)) {
                quote("[redacted]")
            } else {
                display_value(value)
            };
            (name.clone(), text)
        })
        .collect();
    if let Some(provider) = provider {
        entries.push(("provider".to_string(), quote(provider)));
    }
    entries.sort_by(|(a, _), (b, _)| (a != "ensure", a).cmp(&(b != "ensure", b)));
    let width = entries
        .iter()
        .map(|(name, _)| name.len())
        .max()
        .unwrap_or(0);
    let mut out = format!("{} {{ {}:\n", type_name.to_ascii_lowercase(), quote(title));
    for (name, text) in entries {
        out.push_str(&format!("  {name:<width$} => {text},\n"));
    }
    out.push_str("}\n");
    out
}

/// One resource as the Resource API prints it (`Listing::Declared`): the
/// attributes in the order the provider gave them, identity and unset ones left out,
/// read-only ones commented out, arrows not aligned.
pub fn declared_manifest(
    type_def: &crate::TypeDef,
    title: &str,
    state: &PropertyHash,
    read_only: &[String],
    is_sensitive: &dyn Fn(&str) -> bool,
) -> String {
    let mut out = format!("{} {{ {}: \n", type_def.name, quote(title));
    for (name, value) in state {
        let Some(attr) = type_def.attribute(name) else {
            continue;
        };
        if attr.namevar || matches!(value, Value::Undef) {
            continue;
        }
        let text = if is_sensitive(&attr.name) || matches!(value, Value::Sensitive(_)) {
            quote("[redacted]")
        } else {
            display_value(value)
        };
        if read_only.contains(&attr.name) {
            out.push_str(&format!("# {} => {text}, # Read Only\n", attr.name));
        } else {
            out.push_str(&format!("  {} => {text},\n", attr.name));
        }
    }
    out.push_str("}\n");
    out
}

/// One resource as JSON data in the catalog's resource shape.
pub fn json(
    type_name: &str,
    title: &str,
    state: &PropertyHash,
    provider: Option<&str>,
    is_sensitive: &dyn Fn(&str) -> bool,
) -> serde_json::Value {
    let mut parameters = serde_json::Map::new();
    for (name, value) in state {
        if name == "name" || name == "title" {
            continue;
        }
        let data = if is_sensitive(name) {
            serde_json::Value::String("[redacted]".into())
        } else {
            marionette_catalog::to_data(value)
        };
        parameters.insert(name.clone(), data);
    }
    if let Some(provider) = provider {
        parameters.insert(
            "provider".into(),
            serde_json::Value::String(provider.into()),
        );
    }
    serde_json::json!({
        "type": capitalize_segments(type_name),
        "title": title,
        "parameters": parameters,
    })
}

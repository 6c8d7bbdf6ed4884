//! Types declared as data: a [`TypeDef`] read from a JSON (or YAML, once
//! parsed) description, so a module can ship a type without code. Every
//! declarative part of a type is available; hooks are not (a data type
//! validates through allowed values, patterns and Puppet type constraints).
//!
//! ```json
//! {
//!   "name": "kv_entry",
//!   "doc": "A key in an INI-like file.",
//!   "ensurable": true,
//!   "features": [{"name": "comments", "doc": "Keeps comments."}],
//!   "title_patterns": [{"pattern": "\\A([^:]+):(.+)\\z", "attributes": ["path", "key"]}],
//!   "attributes": [
//!     {"name": "path", "namevar": true, "doc": "The file."},
//!     {"name": "key", "namevar": true, "patterns": ["\\A\\w+\\z"]},
//!     {"name": "value", "kind": "property", "type": "String[1]"},
//!     {"name": "mode", "kind": "property", "values": ["strict", "loose"], "default": "strict"}
//!   ],
//!   "autorelations": [{"kind": "require", "type": "file", "attribute": "path"}]
//! }
//! ```
//!
//! Unknown keys are errors, so a misspelt key is caught, not ignored.

use serde_json::{Map, Value as Json};

use crate::typedef::{ArrayMatching, AttrDef, AttrKind, AutoKind, Titles, TypeDef};

type Object = Map<String, Json>;

/// Reads a type description. The error names the key at fault.
pub fn type_from_data(data: &Json) -> Result<TypeDef, String> {
    let object = data
        .as_object()
        .ok_or("a type description must be an object")?;
    known_keys(
        object,
        "the type",
        &[
            "name",
            "doc",
            "ensurable",
            "self_refresh",
            "features",
            "title_patterns",
            "attributes",
            "autorelations",
        ],
    )?;
    let name = string(object, "name", "the type")?.ok_or("the type needs a 'name'")?;
    let mut type_def = TypeDef::new(&name);
    if let Some(doc) = string(object, "doc", &name)? {
        type_def = type_def.doc(&doc);
    }
    if boolean(object, "ensurable", &name)? {
        type_def = type_def.ensurable();
    }
    if boolean(object, "self_refresh", &name)? {
        type_def = type_def.self_refresh();
    }
    for feature in array(object, "features", &name)? {
        let feature = feature
            .as_object()
            .ok_or(format!("{name}: each feature must be an object"))?;
        known_keys(feature, "a feature", &["name", "doc", "methods"])?;
        let feature_name =
            string(feature, "name", &name)?.ok_or(format!("{name}: a feature needs a 'name'"))?;
        let doc = string(feature, "doc", &feature_name)?.unwrap_or_default();
        let methods = strings(feature, "methods", &feature_name)?;
        let methods: Vec<&str> = methods.iter().map(String::as_str).collect();
        type_def = type_def.feature(&feature_name, &doc, &methods);
    }
    for attribute in array(object, "attributes", &name)? {
        let attr = attribute_from_data(attribute, &name)?;
        if attr.name == "ensure" && type_def.ensurable {
            return Err(format!(
                "{name}: 'ensure' comes from 'ensurable' and cannot be declared"
            ));
        }
        // A declared `ensure` property is still the one that says
        // whether the thing exists, without `ensurable`'s default.
        type_def.ensurable |= attr.name == "ensure" && attr.kind.is_property();
        type_def = type_def.attr(attr);
    }
    for pattern in array(object, "title_patterns", &name)? {
        let pattern = pattern
            .as_object()
            .ok_or(format!("{name}: each title pattern must be an object"))?;
        known_keys(pattern, "a title pattern", &["pattern", "attributes"])?;
        let regex = string(pattern, "pattern", &name)?
            .ok_or(format!("{name}: a title pattern needs a 'pattern'"))?;
        marionette_values::Regex::new(&regex)
            .map_err(|e| format!("{name}: bad title pattern /{regex}/: {e}"))?;
        let attributes = strings(pattern, "attributes", &name)?;
        let attributes: Vec<&str> = attributes.iter().map(String::as_str).collect();
        type_def = type_def.title_pattern(&regex, &attributes);
    }
    for relation in array(object, "autorelations", &name)? {
        let relation = relation
            .as_object()
            .ok_or(format!("{name}: each autorelation must be an object"))?;
        known_keys(
            relation,
            "an autorelation",
            &["kind", "type", "attribute", "titles"],
        )?;
        let kind = match string(relation, "kind", &name)?.as_deref() {
            Some("require") => AutoKind::Require,
            Some("before") => AutoKind::Before,
            Some("notify") => AutoKind::Notify,
            Some("subscribe") => AutoKind::Subscribe,
            other => {
                return Err(format!(
                    "{name}: an autorelation's kind must be require, before, notify or subscribe, not {other:?}"
                ));
            }
        };
        let target = string(relation, "type", &name)?
            .ok_or(format!("{name}: an autorelation needs a 'type'"))?;
        let titles = match (
            string(relation, "attribute", &name)?,
            relation.get("titles"),
        ) {
            (Some(attribute), None) => Titles::Attribute(attribute),
            (None, Some(_)) => Titles::Fixed(strings(relation, "titles", &name)?),
            _ => {
                return Err(format!(
                    "{name}: an autorelation needs either 'attribute' or 'titles'"
                ));
            }
        };
        type_def = type_def.auto(kind, &target, titles);
    }
    type_def.check()?;
    Ok(type_def)
}

fn attribute_from_data(data: &Json, type_name: &str) -> Result<AttrDef, String> {
    let object = data
        .as_object()
        .ok_or(format!("{type_name}: each attribute must be an object"))?;
    known_keys(
        object,
        "an attribute",
        &[
            "name",
            "kind",
            "doc",
            "namevar",
            "values",
            "patterns",
            "aliases",
            "type",
            "default",
            "required",
            "boolean",
            "array_matching",
            "sensitive",
            "required_features",
        ],
    )?;
    let name = string(object, "name", type_name)?
        .ok_or(format!("{type_name}: an attribute needs a 'name'"))?;
    let at = format!("{type_name}.{name}");
    let mut attr = match string(object, "kind", &at)?.as_deref() {
        None | Some("parameter") => AttrDef::param(&name),
        Some("property") => AttrDef::property(&name),
        Some("read_only") => AttrDef::read_only(&name),
        Some("create_only") => AttrDef::create_only(&name),
        Some(other) => {
            return Err(format!(
                "{at}: kind must be parameter, property, read_only or create_only, not {other:?}"
            ));
        }
    };
    if let Some(doc) = string(object, "doc", &at)? {
        attr = attr.doc(&doc);
    }
    if boolean(object, "namevar", &at)? {
        attr = attr.namevar();
    }
    if boolean(object, "boolean", &at)? {
        attr = attr.boolean();
    }
    let values = strings(object, "values", &at)?;
    attr = attr.values(&values.iter().map(String::as_str).collect::<Vec<_>>());
    for pattern in strings(object, "patterns", &at)? {
        attr = attr
            .try_pattern(&pattern)
            .map_err(|e| format!("{at}: bad pattern /{pattern}/: {e}"))?;
    }
    if let Some(aliases) = object.get("aliases") {
        let aliases = aliases
            .as_object()
            .ok_or(format!("{at}: 'aliases' must map aliases to values"))?;
        for (alias, target) in aliases {
            let target = target
                .as_str()
                .ok_or(format!("{at}: the alias {alias} must name a value"))?;
            attr = attr.alias_value(alias, target);
        }
    }
    if let Some(text) = string(object, "type", &at)? {
        attr = attr
            .constraint(marionette_values::parse_type(&text).map_err(|e| format!("{at}: {e}"))?);
    }
    if let Some(default) = object.get("default") {
        attr = attr.default_value(marionette_catalog::from_data(default));
    }
    if boolean(object, "required", &at)? {
        attr = attr.required();
    }
    match string(object, "array_matching", &at)?.as_deref() {
        None | Some("first") => {}
        Some("all") => attr = attr.array_matching(ArrayMatching::All),
        Some(other) => {
            return Err(format!(
                "{at}: array_matching must be first or all, not {other:?}"
            ));
        }
    }
    if boolean(object, "sensitive", &at)? {
        attr = attr.sensitive();
    }
    let features = strings(object, "required_features", &at)?;
    attr = attr.requires_features(&features.iter().map(String::as_str).collect::<Vec<_>>());
    if attr.kind == AttrKind::ReadOnly && attr.default.is_some() {
        return Err(format!("{at}: a read-only property cannot have a default"));
    }
    Ok(attr)
}

fn known_keys(object: &Object, what: &str, known: &[&str]) -> Result<(), String> {
    match object.keys().find(|k| !known.contains(&k.as_str())) {
        Some(key) => Err(format!(
            "unknown key '{key}' in {what}; known keys: {}",
            known.join(", ")
        )),
        None => Ok(()),
    }
}

fn string(object: &Object, key: &str, at: &str) -> Result<Option<String>, String> {
    match object.get(key) {
        None | Some(Json::Null) => Ok(None),
        Some(Json::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(format!("{at}: '{key}' must be a string, not {other}")),
    }
}

fn boolean(object: &Object, key: &str, at: &str) -> Result<bool, String> {
    match object.get(key) {
        None | Some(Json::Null) => Ok(false),
        Some(Json::Bool(b)) => Ok(*b),
        Some(other) => Err(format!("{at}: '{key}' must be true or false, not {other}")),
    }
}

fn array<'a>(object: &'a Object, key: &str, at: &str) -> Result<&'a [Json], String> {
    match object.get(key) {
        None | Some(Json::Null) => Ok(&[]),
        Some(Json::Array(items)) => Ok(items),
        Some(other) => Err(format!("{at}: '{key}' must be a list, not {other}")),
    }
}

fn strings(object: &Object, key: &str, at: &str) -> Result<Vec<String>, String> {
    array(object, key, at)?
        .iter()
        .map(|item| {
            item.as_str().map(str::to_string).ok_or(format!(
                "{at}: every element of '{key}' must be a string, not {item}"
            ))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Origin, Resource};
    use std::sync::Arc;

    fn example() -> Json {
        serde_json::json!({
            "name": "kv_entry",
            "doc": "A key in an INI-like file.",
            "ensurable": true,
            "title_patterns": [{"pattern": "\\A([^:]+):(.+)\\z", "attributes": ["path", "key"]}],
            "attributes": [
                {"name": "path", "namevar": true, "doc": "The file."},
                {"name": "key", "namevar": true, "patterns": ["\\A\\w+\\z"]},
                {"name": "value", "kind": "property", "type": "String[1]"},
                {"name": "mode", "kind": "property", "values": ["strict", "loose"], "default": "strict"},
                {"name": "secret", "kind": "property", "sensitive": true}
            ],
            "autorelations": [{"kind": "require", "type": "file", "attribute": "path"}]
        })
    }

    #[test]
    fn a_type_from_data_behaves_like_one_from_code() {
        let type_def = Arc::new(type_from_data(&example()).unwrap());
        let params = [(
            "value".to_string(),
            marionette_values::Value::String("1".into()),
        )];
        let resource = Resource::new(
            type_def.clone(),
            "/etc/app.ini:port",
            params,
            Origin::default(),
        )
        .unwrap();
        assert_eq!(resource.text("path").as_deref(), Some("/etc/app.ini"));
        assert_eq!(resource.text("key").as_deref(), Some("port"));
        assert_eq!(resource.text("mode").as_deref(), Some("strict"));
        assert_eq!(resource.auto_relations()[0].2, "/etc/app.ini");
        let empty = [(
            "value".to_string(),
            marionette_values::Value::String("".into()),
        )];
        let error =
            Resource::new(type_def, "/etc/app.ini:port", empty, Origin::default()).unwrap_err();
        assert_eq!(
            error.to_string(),
            "Parameter value failed on Kv_entry[/etc/app.ini:port]: expects a value of type String[1], got String"
        );
    }

    #[test]
    fn mistakes_in_descriptions_are_named() {
        let mut typo = example();
        typo["attributes"][0]["namevr"] = Json::Bool(true);
        assert!(
            type_from_data(&typo)
                .unwrap_err()
                .starts_with("unknown key 'namevr' in an attribute")
        );
        let mut kind = example();
        kind["attributes"][2]["kind"] = Json::String("propery".into());
        assert_eq!(
            type_from_data(&kind).unwrap_err(),
            "kv_entry.value: kind must be parameter, property, read_only or create_only, not \"propery\""
        );
        let mut ptype = example();
        ptype["attributes"][2]["type"] = Json::String("Strin[1]".into());
        assert!(
            type_from_data(&ptype)
                .unwrap_err()
                .contains("unknown type Strin")
        );
    }
}

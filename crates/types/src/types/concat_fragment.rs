//! `concat_fragment` (puppetlabs-concat): one piece of a file that a
//! `concat_file` assembles. A fragment changes nothing itself; the
//! `concat_file` it targets gathers it when it generates its file.

use marionette_ral::attribute::value_text;
use marionette_ral::{
    AttrDef, GenerateError, Generated, Generation, PropertyProvider, ProviderDef, RalError,
    Registry, Resource, TypeDef,
};
use marionette_values::Value;

/// The `tag` a concat resource was given. Like concat's types, which
/// declare `tag` as a parameter of their own, only a single tag counts.
pub(crate) fn concat_tag(resource: &Resource) -> Option<&str> {
    match resource.meta("tag") {
        Some(Value::String(tag)) => Some(tag),
        _ => None,
    }
}

/// Whether a fragment belongs to a `concat_file`: its target is the file's
/// path or title, or both carry the same tag.
pub(crate) fn belongs_to(fragment: &Resource, file: &Resource) -> bool {
    let target = fragment.str("target");
    target.is_some_and(|target| target == file.name() || target == file.title())
        || concat_tag(file).is_some_and(|tag| concat_tag(fragment) == Some(tag))
}

/// A parameter that only takes a string, with concat's message.
fn string_param(name: &str, doc: &str, message: &'static str) -> AttrDef {
    AttrDef::param(name)
        .doc(doc)
        .validate(move |_, value| match value {
            Value::String(_) => Ok(()),
            _ => Err(message.into()),
        })
}

/// Warns, as concat's autorequire does, when no `concat_file` of the
/// catalog takes the fragment: its content then goes nowhere.
fn find_target(resource: &Resource, run: &dyn Generation) -> Result<Vec<Generated>, GenerateError> {
    let found = run
        .resources_of("concat_file")
        .iter()
        .any(|file| belongs_to(resource, file));
    if !found {
        let tag = concat_tag(resource)
            .map(|tag| format!("or tag '{tag} "))
            .unwrap_or_default();
        run.warn_about(
            resource,
            &format!(
                "Target Concat_file with path or title '{}' {tag}not found in the catalog",
                resource.text("target").unwrap_or_default()
            ),
        );
    }
    Ok(Vec::new())
}

pub fn definition() -> TypeDef {
    TypeDef::new("concat_fragment")
        .doc(
            "One fragment of a file assembled by a `concat_file`: its `content`, or the
            content of the first of its `source` files that exists. The fragment
            belongs to the `concat_file` whose path or title is its `target`, or that
            has the same `tag`; fragments are ordered by `order`, then by name.",
        )
        .attr(
            AttrDef::param("name")
                .doc("The name of the fragment.")
                .namevar(),
        )
        .attr(string_param(
            "target",
            "The path or title of the `concat_file` the fragment belongs to.",
            "Target must be a String",
        ))
        .attr(string_param(
            "content",
            "The fragment's text. Either this or `source` must be given.",
            "Content must be a String",
        ))
        .attr(
            AttrDef::param("source")
                .doc(
                    "A file to read the fragment from (an absolute path, a `file:` URI or
                    `puppet:///modules/MODULE/PATH`), or a list of them: the first that
                    exists is read.",
                )
                .validate(|_, value| match value {
                    Value::String(_) | Value::Array(_) => Ok(()),
                    _ => Err("Content must be a String or Array".into()),
                }),
        )
        .attr(
            AttrDef::param("order")
                .doc(
                    "Where the fragment goes in the file: fragments are sorted by order,
                    then by name (as numbers or as text, as the `concat_file` says).",
                )
                .default_value(Value::String("10".into()))
                .validate(|_, value| {
                    if !matches!(value, Value::String(_) | Value::Integer(_)) {
                        return Err("$order is not a string or integer.".into());
                    }
                    if value_text(value).contains([':', '\n', '/']) {
                        return Err("Order cannot contain '/', ':', or '\\n'.".into());
                    }
                    Ok(())
                }),
        )
        .validate(|resource| {
            if resource.get("target").is_none() && concat_tag(resource).is_none() {
                return Err("No 'target' or 'tag' set".into());
            }
            match (resource.get("source"), resource.get("content")) {
                (None, None) => Err("Set either 'source' or 'content'".into()),
                (Some(_), Some(_)) => {
                    Err("Can't use 'source' and 'content' at the same time".into())
                }
                _ => Ok(()),
            }
        })
        .generate(find_target)
}

/// A fragment is gathered by its file; on its own it does nothing.
struct Piece;

impl PropertyProvider for Piece {}

pub fn implementation() -> ProviderDef {
    ProviderDef::properties("concat_fragment", "concat_fragment", Piece).implicit()
}

pub fn register(registry: &mut Registry) -> Result<(), RalError> {
    registry.add_type(definition())?;
    registry.add_provider(implementation())
}

//! `file_line`: one line of a text file, from puppetlabs-stdlib. The type
//! exists only where a `stdlib` module ships it (see
//! [`crate::MODULE_TYPES`]); its attributes are those of stdlib's
//! `lib/puppet/type/file_line.rb`.

use marionette_ral::attribute::value_text;
use marionette_ral::{AttrDef, AutoKind, RalError, Registry, Titles, TypeDef};
use marionette_values::Value;

/// Adds the type and its provider.
pub fn register(registry: &mut Registry) -> Result<(), RalError> {
    registry.add_type(definition())?;
    registry.add_provider(crate::providers::file_line::ruby::definition())
}

/// A parameter taking `true` or `false` (Puppet's `newvalues(true,
/// false)`: no other spellings), kept as the strings `true` and `false`.
pub(crate) fn true_false(name: &str, doc: &str) -> AttrDef {
    AttrDef::param(name).doc(doc).values(&["true", "false"])
}

/// Whether a `true_false` parameter is `true`; Ruby's `to_s == 'true'`.
pub(crate) fn is_true(value: Option<&Value>) -> bool {
    value.is_some_and(|v| value_text(v) == "true")
}

/// Puppet's check of a `path` parameter.
pub(crate) fn absolute_path(attr: &str) -> AttrDef {
    AttrDef::param(attr).validate(|_, value| {
        let text = value_text(value);
        if text.starts_with('/') {
            Ok(())
        } else {
            Err(format!("File paths must be fully qualified, not '{text}'"))
        }
    })
}

pub fn definition() -> TypeDef {
    TypeDef::new("file_line")
        .doc(
            "Ensures that a given line is contained within a file. The line is
            matched whole, whitespace included; when it is missing it is appended,
            or it replaces the lines that `match` finds, or it is inserted after
            the line that `after` finds. With `ensure => absent`, the lines equal
            to `line`, or with `match_for_absence` those that `match` finds, are
            removed.",
        )
        .ensurable()
        .attr(
            AttrDef::param("name")
                .doc("An arbitrary name used as the identity of the resource.")
                .namevar(),
        )
        .attr(AttrDef::param("match").doc(
            "A Ruby regular expression run against the lines of the file; the
            line replaces what it matches.",
        ))
        .attr(
            true_false(
                "match_for_absence",
                "Whether `match` chooses the lines removed with `ensure => absent`.",
            )
            .default_value("false"),
        )
        .attr(true_false(
            "multiple",
            "Whether `match` and `after` may find several lines.",
        ))
        .attr(AttrDef::param("after").doc(
            "A Ruby regular expression: new lines are inserted after the line it
            matches.",
        ))
        .attr(
            AttrDef::property("line")
                .doc("The line to ensure, or to replace the lines `match` finds with.")
                // The line is what the resource manages through `ensure`:
                // it never changes by itself, so it is never out of sync.
                .insync(|_, _, _| true),
        )
        .attr(absolute_path("path").doc("The file that holds the line."))
        .attr(
            true_false(
                "replace",
                "Whether the line replaces what `match` finds; when false, nothing
                is written if a line matches.",
            )
            .default_value("true"),
        )
        .attr(
            true_false(
                "replace_all_matches_not_matching_line",
                "Whether every line `match` finds is replaced, even when the line is
                already in the file.",
            )
            .default_value("false"),
        )
        .attr(
            AttrDef::param("encoding")
                .doc("The encoding of the file, for files that are not UTF-8.")
                .default_value("UTF-8"),
        )
        .attr(
            true_false(
                "append_on_no_match",
                "Whether the line is appended when `match` finds nothing.",
            )
            .default_value("true"),
        )
        .validate(|resource| {
            let replace_all = is_true(resource.get("replace_all_matches_not_matching_line"));
            let text = |name: &str| resource.get(name).map(value_text);
            if replace_all && text("multiple").as_deref() == Some("false") {
                return Err(
                    "multiple must be true when replace_all_matches_not_matching_line is true"
                        .into(),
                );
            }
            if replace_all && text("replace").as_deref() == Some("false") {
                return Err(
                    "replace must be true when replace_all_matches_not_matching_line is true"
                        .into(),
                );
            }
            if resource.get("line").is_none()
                && !(text("ensure").as_deref() == Some("absent")
                    && is_true(resource.get("match_for_absence"))
                    && resource.get("match").is_some())
            {
                return Err("line is a required attribute".into());
            }
            if resource.get("path").is_none() {
                return Err("path is a required attribute".into());
            }
            Ok(())
        })
        .auto(AutoKind::Require, "file", Titles::Attribute("path".into()))
}

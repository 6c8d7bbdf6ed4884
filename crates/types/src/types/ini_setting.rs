//! `ini_setting`: one setting of an INI file, from puppetlabs-inifile.
//! The type exists only where an `inifile` module ships it (see
//! [`crate::MODULE_TYPES`]); its attributes are those of inifile's
//! `lib/puppet/type/ini_setting.rb`.

use marionette_ral::attribute::value_text;
use marionette_ral::{AttrDef, RalError, Registry, Resource, TypeDef};
use marionette_values::Value;

use super::file_line::absolute_path;

/// Adds the type and its provider.
pub fn register(registry: &mut Registry) -> Result<(), RalError> {
    registry.add_type(definition())?;
    registry.add_provider(crate::providers::ini_setting::ruby::definition())
}

/// inifile's `show_diff`: `true`, `md5` or `false`.
pub(crate) fn show_diff() -> AttrDef {
    AttrDef::param("show_diff")
        .doc("Whether changes of the value are shown (`true`), as an MD5 sum (`md5`), or hidden (`false`).")
        .values(&["true", "md5", "false"])
        .default_value("true")
}

/// How inifile shows a value: it shows it only when Puppet's own
/// `show_diff` setting is on, which `puppet apply` leaves off, so values
/// are always hidden, unquoted.
pub(crate) fn hidden_value(_: &Value) -> String {
    "[redacted sensitive information]".to_string()
}

fn refreshonly(resource: &Resource) -> bool {
    resource.get("refreshonly") == Some(&Value::Boolean(true))
}

pub fn definition() -> TypeDef {
    TypeDef::new("ini_setting")
        .doc("Manages a single setting in an INI file.")
        .ensurable()
        .ensure_values(|ensure| {
            ensure
                .default_value("present")
                // A refreshonly setting changes only when refreshed.
                .insync(|resource, current, desired| refreshonly(resource) || current == desired)
        })
        .attr(
            AttrDef::param("name")
                .doc("An arbitrary name used as the identity of the resource.")
                .namevar(),
        )
        .attr(
            AttrDef::param("section")
                .doc("The section of the setting; `''` for settings before any section.")
                .default_value(""),
        )
        .attr(
            AttrDef::param("setting")
                .doc("The name of the setting.")
                .validate(|_, value| {
                    // inifile means to warn of blanks around the name, through
                    // a method Puppet does not have: the value is refused.
                    let text = value_text(value);
                    if text.trim() != text {
                        Err(format!(
                            "Munging failed for value {} in class setting: private method `warn' called for Puppet:Module",
                            marionette_ral::attribute::inspect(value)
                        ))
                    } else {
                        Ok(())
                    }
                }),
        )
        .attr(
            AttrDef::param("force_new_section_creation")
                .doc("Whether a missing section is created for the setting.")
                .boolean()
                .default_value(Value::Boolean(true)),
        )
        .attr(absolute_path("path").doc("The INI file."))
        .attr(show_diff())
        .attr(
            AttrDef::param("key_val_separator")
                .doc("The separator between a new setting's name and value.")
                .default_value(" = "),
        )
        .attr(
            AttrDef::property("value")
                .doc("The value of the setting.")
                .munge(|_, value| {
                    Ok(match value {
                        Value::String(text) => Value::String(text.trim().into()),
                        Value::Sensitive(inner) => Value::String(value_text(&inner).trim().into()),
                        other => Value::String(value_text(&other).into()),
                    })
                })
                .insync(|resource, current, desired| refreshonly(resource) || current == desired)
                .format(hidden_value),
        )
        .attr(
            AttrDef::param("section_prefix")
                .doc("What starts a section's header.")
                .default_value("["),
        )
        .attr(
            AttrDef::param("section_suffix")
                .doc("What ends a section's header.")
                .default_value("]"),
        )
        .attr(
            AttrDef::param("indent_char")
                .doc("The character new settings are indented with.")
                .default_value(" "),
        )
        .attr(AttrDef::param("indent_width").doc(
            "How many `indent_char` new settings are indented with; by default as
            many as the section's least indented setting.",
        ))
        .attr(
            AttrDef::param("refreshonly")
                .doc("Whether the setting is changed only when the resource is refreshed.")
                .boolean()
                .default_value(Value::Boolean(false)),
        )
        .refreshable()
        // The directory the file is in.
        .autorequire("file", |resource| {
            let path = resource.text("path").unwrap_or_default();
            let parent = std::path::Path::new(&path)
                .parent()
                .map(|p| p.display().to_string())
                .unwrap_or(path);
            vec![parent]
        })
}

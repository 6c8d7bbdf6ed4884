//! `ini_subsetting`: one item of a setting's list of values in an INI
//! file (`args = "-Xmx1g -Xms512m"`), from puppetlabs-inifile. The type
//! exists only where an `inifile` module ships it (see
//! [`crate::MODULE_TYPES`]); its attributes are those of inifile's
//! `lib/puppet/type/ini_subsetting.rb`.

use marionette_ral::attribute::value_text;
use marionette_ral::{AttrDef, RalError, Registry, TypeDef};

use super::file_line::absolute_path;
use super::ini_setting::{hidden_value, show_diff};

/// Adds the type and its provider.
pub fn register(registry: &mut Registry) -> Result<(), RalError> {
    registry.add_type(definition())?;
    registry.add_provider(crate::providers::ini_subsetting::ruby::definition())
}

pub fn definition() -> TypeDef {
    TypeDef::new("ini_subsetting")
        .doc("Manages one of the values listed in a setting of an INI file.")
        .ensurable()
        .ensure_values(|ensure| ensure.default_value("present"))
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
        .attr(AttrDef::param("setting").doc("The name of the setting."))
        .attr(AttrDef::param("subsetting").doc("The name of the subsetting."))
        .attr(
            AttrDef::param("subsetting_separator")
                .doc("What separates the subsettings.")
                .default_value(" "),
        )
        .attr(
            AttrDef::param("subsetting_key_val_separator")
                .doc("What separates a subsetting's name from its value.")
                .default_value(""),
        )
        .attr(absolute_path("path").doc("The INI file."))
        .attr(show_diff())
        .attr(
            AttrDef::param("key_val_separator")
                .doc("The separator between a new setting's name and value.")
                .default_value(" = "),
        )
        .attr(
            AttrDef::param("quote_char")
                .doc("The character quoting the whole value: none, `\"` or `'`.")
                .default_value("")
                .validate(|_, value| {
                    if matches!(value_text(value).as_str(), "" | "\"" | "'") {
                        Ok(())
                    } else {
                        Err(":quote_char valid values are '', '\"' and \"'\"".into())
                    }
                }),
        )
        .attr(
            AttrDef::param("use_exact_match")
                .doc("Whether subsettings are found by their whole text rather than their name.")
                .values(&["true", "false"])
                .default_value("false"),
        )
        .attr(
            AttrDef::property("value")
                .doc("The value of the subsetting.")
                .format(hidden_value),
        )
        .attr(
            AttrDef::param("insert_type")
                .doc(
                    "Where a new subsetting goes: `start`, `end`, `before` or `after`
                    the subsetting `insert_value` names, or at the index it gives.",
                )
                .values(&["start", "end", "before", "after", "index"])
                .default_value("end"),
        )
        .attr(AttrDef::param("insert_value").doc("The subsetting or index `insert_type` needs."))
        .attr(
            AttrDef::param("delete_if_empty")
                .doc("Whether the setting is removed when its last subsetting is.")
                .values(&["true", "false"])
                .default_value("false"),
        )
}

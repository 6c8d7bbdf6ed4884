//! `ini_setting` as inifile's `ruby` provider does it: the file is read
//! for each question and written back whole after each change.

use marionette_ral::attribute::value_text;
use marionette_ral::{Context, Instance, PropertyProvider, ProviderDef, ProviderError};
use marionette_values::Value;

use super::{IniFile, IniStyle};

/// The resource's file, read with its style.
fn ini_file(instance: &Instance<'_>) -> Result<IniFile, ProviderError> {
    let resource = instance.resource;
    let text = |name: &str, default: &str| resource.text(name).unwrap_or_else(|| default.into());
    let style = IniStyle {
        key_val_separator: text("key_val_separator", "="),
        section_prefix: text("section_prefix", "["),
        section_suffix: text("section_suffix", "]"),
        indent_char: text("indent_char", " "),
        // Ruby's `to_i`: leading digits, else zero.
        indent_width: resource.text("indent_width").map(|width| {
            let digits: String = width
                .trim_start()
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            digits.parse().unwrap_or(0)
        }),
    };
    IniFile::read(&text("path", ""), style, instance.resource.reference_str())
}

fn section(instance: &Instance<'_>) -> String {
    instance.resource.text("section").unwrap_or_default()
}

/// Whether the setting's section is missing and may not be created: the
/// resource is then left as it is, whatever it asks.
fn section_refused(instance: &Instance<'_>, file: &IniFile) -> bool {
    instance.resource.get("force_new_section_creation") == Some(&Value::Boolean(false))
        && !file.has_section(&section(instance))
}

/// Sets the resource's value (or only adds its section, when it names no
/// setting and no value) and writes the file.
fn write_value(instance: &Instance<'_>, value: Option<&Value>) -> Result<(), ProviderError> {
    let mut file = ini_file(instance)?;
    let resource = instance.resource;
    let setting = resource.text("setting");
    if setting.is_none() && value.is_none() {
        file.add_section(&section(instance));
    } else {
        let separator = resource
            .text("key_val_separator")
            .unwrap_or_else(|| "=".into());
        file.set_value(
            &section(instance),
            setting.as_deref().unwrap_or_default(),
            &separator,
            &value.map(value_text).unwrap_or_default(),
        );
    }
    file.save()
}

struct IniSetting;

impl PropertyProvider for IniSetting {
    fn stages_files(&self) -> bool {
        true
    }

    fn exists(&self, _cx: &Context, instance: &Instance<'_>) -> Result<bool, ProviderError> {
        let file = ini_file(instance)?;
        if section_refused(instance, &file) {
            // As the desired state: nothing to do.
            return Ok(instance.resource.text("ensure").as_deref() != Some("absent"));
        }
        Ok(match instance.resource.text("setting") {
            None => file.has_section(&section(instance)),
            Some(setting) => file.get_value(&section(instance), &setting).is_some(),
        })
    }

    fn create(&self, _cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        write_value(instance, instance.resource.get("value"))
    }

    fn destroy(&self, _cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        let mut file = ini_file(instance)?;
        let setting = instance.resource.text("setting").unwrap_or_default();
        file.remove_setting(&section(instance), &setting);
        file.save()
    }

    fn get(
        &self,
        cx: &Context,
        instance: &Instance<'_>,
        attr: &str,
    ) -> Result<Option<Value>, ProviderError> {
        match attr {
            "ensure" => Ok(Some(marionette_ral::provider::presence(
                self.exists(cx, instance)?,
            ))),
            "value" => {
                let file = ini_file(instance)?;
                if section_refused(instance, &file) {
                    return Ok(instance.resource.get("value").cloned());
                }
                let setting = instance.resource.text("setting").unwrap_or_default();
                Ok(file
                    .get_value(&section(instance), &setting)
                    .map(|value| Value::String(value.into())))
            }
            _ => Ok(None),
        }
    }

    fn set(
        &self,
        _cx: &Context,
        instance: &mut Instance<'_>,
        attr: &str,
        value: &Value,
    ) -> Result<(), ProviderError> {
        if attr == "value" {
            write_value(instance, Some(value))?;
        }
        Ok(())
    }

    /// A refreshonly setting is written when refreshed: removed when it
    /// should be absent, else set to its value.
    fn refresh(&self, _cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        if instance.resource.get("refreshonly") != Some(&Value::Boolean(true)) {
            return Ok(());
        }
        if instance.resource.text("ensure").as_deref() == Some("absent") {
            let mut file = ini_file(instance)?;
            let setting = instance.resource.text("setting").unwrap_or_default();
            file.remove_setting(&section(instance), &setting);
            return file.save();
        }
        write_value(instance, instance.resource.get("value"))
    }
}

pub fn definition() -> ProviderDef {
    ProviderDef::properties("ini_setting", "ruby", IniSetting).doc(
        "Reads the INI file for each resource and writes it back whole after
        each change, keeping every line it does not manage.",
    )
}

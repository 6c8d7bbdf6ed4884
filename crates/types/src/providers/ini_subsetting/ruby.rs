//! `ini_subsetting` as inifile's `ruby` provider does it: the setting is
//! read from the file, its list changed, and the file written back whole.

use marionette_ral::attribute::value_text;
use marionette_ral::{Context, Instance, PropertyProvider, ProviderDef, ProviderError};
use marionette_values::Value;

use super::SettingValue;
use crate::providers::ini_setting::{IniFile, IniStyle};

/// The resource's file and setting, read.
struct Subsetting<'a> {
    instance: &'a Instance<'a>,
    file: IniFile,
    setting: SettingValue,
}

impl<'a> Subsetting<'a> {
    fn read(instance: &'a Instance<'a>) -> Result<Subsetting<'a>, ProviderError> {
        let text = |name: &str| instance.resource.text(name).unwrap_or_default();
        // Only the separator is this resource's; the rest of the style is
        // inifile's default.
        let style = IniStyle {
            key_val_separator: instance
                .resource
                .text("key_val_separator")
                .unwrap_or_else(|| "=".into()),
            ..IniStyle::default()
        };
        let file = IniFile::read(&text("path"), style, instance.resource.reference_str())?;
        let setting = SettingValue::new(
            file.get_value(&text("section"), &text("setting")),
            &text("subsetting_separator"),
            &text("quote_char"),
            &text("subsetting_key_val_separator"),
        )?;
        Ok(Subsetting {
            instance,
            file,
            setting,
        })
    }

    fn text(&self, name: &str) -> String {
        self.instance.resource.text(name).unwrap_or_default()
    }

    fn exact(&self) -> bool {
        self.text("use_exact_match") == "true"
    }

    /// Sets the subsetting to a value and writes the file.
    fn set(mut self, value: Option<&str>) -> Result<(), ProviderError> {
        let exact = self.exact();
        let insert_value = self.instance.resource.get("insert_value").map(value_text);
        self.setting.add(
            &self.text("subsetting"),
            value,
            exact,
            &self.text("insert_type"),
            insert_value.as_deref(),
        );
        self.write_setting()
    }

    fn write_setting(mut self) -> Result<(), ProviderError> {
        let separator = self.text("key_val_separator");
        let value = self.setting.value();
        self.file.set_value(
            &self.text("section"),
            &self.text("setting"),
            &separator,
            &value,
        );
        self.file.save()
    }
}

struct IniSubsetting;

impl PropertyProvider for IniSubsetting {
    fn stages_files(&self) -> bool {
        true
    }

    fn exists(&self, _cx: &Context, instance: &Instance<'_>) -> Result<bool, ProviderError> {
        let read = Subsetting::read(instance)?;
        Ok(read.setting.has(&read.text("subsetting"), read.exact()))
    }

    fn create(&self, _cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        let value = instance.resource.get("value").map(value_text);
        Subsetting::read(instance)?.set(value.as_deref())
    }

    fn destroy(&self, _cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        let mut read = Subsetting::read(instance)?;
        let exact = read.exact();
        read.setting.remove(&read.text("subsetting"), exact);
        // inifile tests `delete_if_empty` as a Ruby symbol, which is true
        // even when it is `:false`: an emptied setting always goes.
        if read.setting.value().is_empty() {
            let (section, setting) = (read.text("section"), read.text("setting"));
            read.file.remove_setting(&section, &setting);
            return read.file.save();
        }
        read.write_setting()
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
                let read = Subsetting::read(instance)?;
                Ok(read
                    .setting
                    .get(&read.text("subsetting"))
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
            Subsetting::read(instance)?.set(Some(&value_text(value)))?;
        }
        Ok(())
    }
}

pub fn definition() -> ProviderDef {
    ProviderDef::properties("ini_subsetting", "ruby", IniSubsetting).doc(
        "Reads the setting from the INI file for each resource and writes the
        file back whole after each change.",
    )
}

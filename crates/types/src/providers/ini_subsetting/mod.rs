//! Providers of the `ini_subsetting` type, and the list of subsettings in
//! a setting's value (inifile's `Puppet::Util::SettingValue`).

pub mod ruby;

use marionette_ral::ProviderError;
use marionette_values::regex::Regex;

/// A setting's value as a list of subsettings, with its quotes.
pub struct SettingValue {
    items: Vec<String>,
    separator: String,
    quote_char: String,
    key_val_separator: String,
}

impl SettingValue {
    /// Splits a setting's value (`None` when the setting is missing).
    pub fn new(
        value: Option<&str>,
        separator: &str,
        quote_char: &str,
        key_val_separator: &str,
    ) -> Result<SettingValue, ProviderError> {
        let mut setting = SettingValue {
            items: Vec::new(),
            separator: separator.to_string(),
            quote_char: quote_char.to_string(),
            key_val_separator: key_val_separator.to_string(),
        };
        let Some(value) = value else {
            return Ok(setting);
        };
        let quote = ['"', '\''].into_iter().find(|&q| {
            value.len() >= 2 && value.starts_with(q) && value.ends_with(q)
                || value.len() == 1 && value.starts_with(q)
        });
        let unquoted = match quote {
            Some(q) => {
                setting.quote_char = q.to_string();
                value
                    .get(1..value.len().saturating_sub(1).max(1))
                    .unwrap_or("")
            }
            None => value,
        };
        // inifile's pattern: runs of characters other than the separator
        // (the `\.` alternative only ever matches a dot).
        let items =
            Regex::new(&format!("(?:(?:[^\\{separator}]|\\.)+)")).map_err(ProviderError::new)?;
        setting.items = items
            .captures_all(unquoted)
            .into_iter()
            .filter_map(|captures| captures.into_iter().next().flatten())
            .map(|item| item.trim().to_string())
            .collect();
        Ok(setting)
    }

    /// The value written back: the subsettings joined, quoted.
    pub fn value(&self) -> String {
        format!(
            "{}{}{}",
            self.quote_char,
            self.items.join(&self.separator),
            self.quote_char
        )
    }

    fn matches(&self, item: &str, subsetting: &str, exact: bool) -> bool {
        if exact {
            item == subsetting
        } else {
            item.starts_with(&format!("{subsetting}{}", self.key_val_separator))
        }
    }

    fn find(&self, subsetting: &str, exact: bool) -> Option<usize> {
        self.items
            .iter()
            .position(|item| self.matches(item, subsetting, exact))
    }

    /// Whether the subsetting is there.
    pub fn has(&self, subsetting: &str, exact: bool) -> bool {
        self.find(subsetting, exact).is_some()
    }

    /// The subsetting's value: what follows its name and separator.
    pub fn get(&self, subsetting: &str) -> Option<String> {
        let item = &self.items[self.find(subsetting, false)?];
        let skip = subsetting.len() + self.key_val_separator.len();
        Some(item.get(skip..).unwrap_or_default().to_string())
    }

    /// Sets the subsetting: every item it names changes, or a new item
    /// goes where `insert_type` says.
    pub fn add(
        &mut self,
        subsetting: &str,
        value: Option<&str>,
        exact: bool,
        insert_type: &str,
        insert_value: Option<&str>,
    ) {
        let item = format!(
            "{subsetting}{}{}",
            self.key_val_separator,
            value.unwrap_or_default()
        );
        if self.find(subsetting, exact).is_some() {
            let found: Vec<bool> = self
                .items
                .iter()
                .map(|existing| self.matches(existing, subsetting, exact))
                .collect();
            for (existing, found) in self.items.iter_mut().zip(found) {
                if found {
                    *existing = item.clone();
                }
            }
            return;
        }
        let near = |this: &SettingValue| insert_value.and_then(|v| this.find(v, exact));
        let at = match insert_type {
            "start" => 0,
            "before" => near(self).unwrap_or(self.items.len()),
            "after" => near(self).map_or(self.items.len(), |i| i + 1),
            // Ruby's `to_i`: leading digits, else zero.
            "index" => insert_value
                .map(|v| {
                    v.trim_start()
                        .chars()
                        .take_while(char::is_ascii_digit)
                        .collect::<String>()
                })
                .and_then(|digits| digits.parse::<usize>().ok())
                .unwrap_or(0)
                .min(self.items.len()),
            _ => self.items.len(),
        };
        self.items.insert(at, item);
    }

    /// Removes every item the subsetting names.
    pub fn remove(&mut self, subsetting: &str, exact: bool) {
        let keep: Vec<bool> = self
            .items
            .iter()
            .map(|item| !self.matches(item, subsetting, exact))
            .collect();
        let mut keep = keep.into_iter();
        self.items.retain(|_| keep.next().unwrap_or(true));
    }
}

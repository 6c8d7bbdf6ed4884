//! octocatalog-diff's `--ignore` rules: `Type[Title]` or
//! `Type[Title]attribute`, `*` as a wildcard in the title, `::` between
//! the levels of an attribute (`File[*]::parameters::content`), and an
//! attribute prefixed with `+` or `-` matching only what was added or
//! removed; an attribute `Name=>VALUE` (`=+>`, `=->`) matches only a
//! change from or to that value.

use crate::DiffError;
use crate::compare::{Change, DiffType};

/// One ignore rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ignore {
    type_name: String,
    title: String,
    /// Empty for a whole resource (any change of it).
    attribute: String,
}

/// octocatalog-diff's separator of an attribute's levels.
const LEVEL: char = '\u{c}';

impl Ignore {
    /// Reads a rule as octocatalog-diff's `--ignore` takes it.
    pub fn parse(text: &str) -> Result<Ignore, DiffError> {
        let bad = || DiffError::BadIgnore(text.to_string());
        let open = text.find('[').ok_or_else(bad)?;
        let close = text.rfind(']').ok_or_else(bad)?;
        if open == 0 || close <= open + 1 {
            return Err(bad());
        }
        Ok(Ignore {
            type_name: text[..open].to_string(),
            title: text[open + 1..close].to_string(),
            attribute: text[close + 1..].replace("::", &LEVEL.to_string()),
        })
    }

    /// Whether the rule leaves `change` out.
    pub(crate) fn matches(&self, change: &Change) -> bool {
        if self.type_name != "*" && !self.type_name.eq_ignore_ascii_case(&change.type_name) {
            return false;
        }
        if self.title != "*" && !wildcard(&self.title, &change.title) {
            return false;
        }
        let attribute = self.attribute.as_str();
        if attribute.is_empty() || attribute == "*" {
            return true;
        }
        if attribute.chars().all(|c| "+-~!".contains(c)) {
            return attribute.contains(change.diff_type.symbol());
        }
        if matches!(change.diff_type, DiffType::Added | DiffType::Removed) {
            return false;
        }
        let mut attribute = attribute;
        if let Some(rest) = attribute.strip_prefix('+') {
            if change.old_value.is_some() {
                return false;
            }
            attribute = rest;
        } else if let Some(rest) = attribute.strip_prefix('-') {
            if change.new_value.is_some() {
                return false;
            }
            attribute = rest;
        }
        let (attribute, value_matches) = match value_condition(attribute) {
            Some((name, operator, value)) => {
                let is = |v: &Option<serde_json::Value>| {
                    v.as_ref().is_some_and(|v| {
                        v.as_str().map_or_else(|| v.to_string(), str::to_string) == value
                    })
                };
                let ok = match operator {
                    "=>" => is(&change.old_value) || is(&change.new_value),
                    "=+>" => is(&change.new_value),
                    _ => is(&change.old_value),
                };
                (name, ok)
            }
            None => (attribute, true),
        };
        let path: Vec<String> = change.structure.iter().map(|s| s.to_lowercase()).collect();
        let wanted: Vec<String> = attribute
            .trim_start_matches(LEVEL)
            .split(LEVEL)
            .map(str::to_lowercase)
            .collect();
        let found = if attribute.starts_with(LEVEL) {
            path.starts_with(&wanted)
        } else {
            path.windows(wanted.len()).any(|w| w == wanted.as_slice())
        };
        found && value_matches
    }
}

/// `name=>value`, `name=+>value`, `name=->value`.
fn value_condition(attribute: &str) -> Option<(&str, &'static str, &str)> {
    for operator in ["=+>", "=->", "=>"] {
        if let Some((name, value)) = attribute.split_once(operator) {
            return Some((name, operator, value));
        }
    }
    None
}

/// `pattern` with `*` for any text matches all of `text`, ignoring case.
fn wildcard(pattern: &str, text: &str) -> bool {
    let pattern = pattern.to_lowercase();
    let text = text.to_lowercase();
    let parts: Vec<&str> = pattern.split('*').collect();
    let [first, middle @ .., last] = parts.as_slice() else {
        return pattern == text;
    };
    let Some(mut rest) = text.strip_prefix(first) else {
        return false;
    };
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.ends_with(last)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(structure: &[&str]) -> Change {
        Change {
            diff_type: DiffType::Changed,
            type_name: "File".into(),
            title: "/etc/ntp.conf".into(),
            structure: structure.iter().map(|s| s.to_string()).collect(),
            old_value: Some("a".into()),
            new_value: Some("b".into()),
            sensitive: false,
            old_location: None,
            new_location: None,
        }
    }

    #[test]
    fn rules_match_as_octocatalog_diff_reads_them() {
        let content = change(&["parameters", "content"]);
        let cases = [
            ("File[/etc/ntp.conf]", true),
            ("file[/ETC/NTP.CONF]", true),
            ("File[/etc/*.conf]", true),
            ("File[/etc/*.cnf]", false),
            ("File[*ntp*]", true),
            ("Service[*]", false),
            ("*[*]content", true),
            ("File[*]mode", false),
            ("File[*]::parameters::content", true),
            ("File[*]::content", false),
            ("File[*]~", true),
            ("File[*]+-", false),
            ("File[*]content=>b", true),
            ("File[*]content=->b", false),
            ("File[*]+content", false),
        ];
        for (rule, expected) in cases {
            let read = Ignore::parse(rule).expect(rule);
            assert_eq!(read.matches(&content), expected, "{rule}");
        }
    }

    #[test]
    fn malformed_rules_are_refused() {
        for rule in ["File", "[x]", "File[]", "File]x["] {
            assert!(Ignore::parse(rule).is_err(), "{rule}");
        }
    }
}

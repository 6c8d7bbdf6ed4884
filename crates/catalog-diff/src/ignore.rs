//! octocatalog-diff's `--ignore` rules: `Type[Title]` or
//! `Type[Title]attribute`, `*` as a wildcard in the title, `::` between
//! the levels of an attribute (`File[*]::parameters::content`), and an
//! attribute prefixed with `+` or `-` matching only what was added or
//! removed; an attribute `Name=>VALUE` (`=+>`, `=->`) matches only a
//! change from or to that value, `Name=~>REGEX` a change of text one of
//! whose changed lines matches (`=&>`: every changed line does), and
//! `Name=s>=` a change of an array that keeps the same members. Regexes
//! are Ruby's (Onigmo), matched ignoring case, as octocatalog-diff's.

use std::collections::BTreeSet;

use marionette_values::Regex;
use serde_json::Value;

use crate::DiffError;
use crate::compare::{Change, DiffType};

/// One ignore rule.
#[derive(Clone, Debug, PartialEq)]
pub struct Ignore {
    type_name: String,
    title: String,
    /// Empty for a whole resource (any change of it); without its value
    /// condition.
    attribute: String,
    condition: Option<Condition>,
}

/// What a change's values must be for an attribute rule to match it.
#[derive(Clone, Debug, PartialEq)]
enum Condition {
    /// `=>`: either value is this.
    Either(String),
    /// `=+>`: the new value is this.
    New(String),
    /// `=->`: the old value is this.
    Old(String),
    /// `=~>`: a changed line matches.
    AnyLine(Regex),
    /// `=&>`: every changed line matches.
    EveryLine(Regex),
    /// `=s>=`: both are arrays with the same members.
    SameSet,
}

/// The attribute and its condition: `name`, then an operator
/// `=[-+~&s]?>` at its first place, then the value.
fn split_condition(attribute: &str) -> Option<(&str, &str, &str)> {
    let bytes = attribute.as_bytes();
    for at in 1..bytes.len() {
        if bytes[at] != b'=' {
            continue;
        }
        let (operator_len, ok) = match bytes.get(at + 1) {
            Some(b'>') => (2, true),
            Some(b'-' | b'+' | b'~' | b'&' | b's') => (3, bytes.get(at + 2) == Some(&b'>')),
            _ => (0, false),
        };
        if ok && at + operator_len < bytes.len() {
            return Some((
                &attribute[..at],
                &attribute[at..at + operator_len],
                &attribute[at + operator_len..],
            ));
        }
    }
    None
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
        let attribute = text[close + 1..].replace("::", &LEVEL.to_string());
        let (attribute, condition) = match split_condition(&attribute) {
            None => (attribute.clone(), None),
            Some((name, operator, value)) => {
                let regex = || {
                    Regex::with_flags(value, true, false, false).map_err(|problem| {
                        DiffError::BadIgnoreRegex {
                            rule: text.to_string(),
                            problem,
                        }
                    })
                };
                let condition = match operator {
                    "=>" => Condition::Either(value.to_string()),
                    "=+>" => Condition::New(value.to_string()),
                    "=->" => Condition::Old(value.to_string()),
                    "=~>" => Condition::AnyLine(regex()?),
                    "=&>" => Condition::EveryLine(regex()?),
                    _ if value == "=" => Condition::SameSet,
                    _ => return Err(bad()),
                };
                (name.to_string(), Some(condition))
            }
        };
        Ok(Ignore {
            type_name: text[..open].to_string(),
            title: text[open + 1..close].to_string(),
            attribute,
            condition,
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
        let value_matches = match &self.condition {
            None => true,
            Some(condition) => condition.holds(change),
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

impl Condition {
    fn holds(&self, change: &Change) -> bool {
        let text = |v: &Option<Value>| -> Option<String> {
            v.as_ref()
                .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
        };
        let (old, new) = (text(&change.old_value), text(&change.new_value));
        match self {
            Condition::Either(value) => old.as_ref() == Some(value) || new.as_ref() == Some(value),
            Condition::New(value) => new.as_ref() == Some(value),
            Condition::Old(value) => old.as_ref() == Some(value),
            Condition::AnyLine(regex) => {
                changed_lines(&old, &new).iter().any(|l| regex.is_match(l))
            }
            Condition::EveryLine(regex) => {
                changed_lines(&old, &new).iter().all(|l| regex.is_match(l))
            }
            Condition::SameSet => match (&change.old_value, &change.new_value) {
                (Some(Value::Array(a)), Some(Value::Array(b))) => {
                    let set = |items: &[Value]| -> BTreeSet<String> {
                        items.iter().map(Value::to_string).collect()
                    };
                    set(a) == set(b)
                }
                _ => false,
            },
        }
    }
}

/// The lines a change of text removes and adds, each with its `-` or `+`
/// and without surrounding blanks, as octocatalog-diff matches them.
fn changed_lines(old: &Option<String>, new: &Option<String>) -> Vec<String> {
    let (old, new) = (old.as_deref().unwrap_or(""), new.as_deref().unwrap_or(""));
    similar::TextDiff::from_lines(old, new)
        .iter_all_changes()
        .filter_map(|change| {
            let sign = match change.tag() {
                similar::ChangeTag::Delete => '-',
                similar::ChangeTag::Insert => '+',
                similar::ChangeTag::Equal => return None,
            };
            Some(format!("{sign}{}", change.value()).trim().to_string())
        })
        .collect()
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
            ("File[*]content=~>^\\+b$", true),
            ("File[*]content=~>^\\+c$", false),
            ("File[*]content=&>^(-|\\+)(a|b)$", true),
            ("File[*]content=&>^\\+", false),
            ("File[*]content=s>=", false),
        ];
        for (rule, expected) in cases {
            let read = Ignore::parse(rule).expect(rule);
            assert_eq!(read.matches(&content), expected, "{rule}");
        }
    }

    #[test]
    fn arrays_with_the_same_members_match_the_set_rule() {
        let mut reordered = change(&["parameters", "require"]);
        reordered.old_value = Some(serde_json::json!(["a", "b"]));
        reordered.new_value = Some(serde_json::json!(["b", "a"]));
        let rule = Ignore::parse("*[*]require=s>=").unwrap();
        assert!(rule.matches(&reordered));
        reordered.new_value = Some(serde_json::json!(["b", "c"]));
        assert!(!rule.matches(&reordered));
    }

    #[test]
    fn malformed_rules_are_refused() {
        for rule in [
            "File",
            "[x]",
            "File[]",
            "File]x[",
            "File[x]a=~>(",
            "File[x]a=s>x",
        ] {
            assert!(Ignore::parse(rule).is_err(), "{rule}");
        }
    }
}

//! Attribute behaviour shared by every type: validation, munging,
//! comparison and display of values.

use std::panic::{AssertUnwindSafe, catch_unwind};

use marionette_values::format::{quote, to_s};
use marionette_values::{PType, Value};

use crate::typedef::{ArrayMatching, AttrDef, AttrKind, Hooked};

/// Puppet's spellings of the two booleans.
pub fn parse_boolean(value: &Value) -> Option<bool> {
    match value {
        Value::Boolean(b) => Some(*b),
        Value::String(s) => match s.to_ascii_lowercase().as_str() {
            "true" | "yes" => Some(true),
            "false" | "no" => Some(false),
            _ => None,
        },
        _ => None,
    }
}

/// The text a value is compared as when matched against allowed values.
pub fn value_text(value: &Value) -> String {
    to_s(value)
}

/// [`value_text`] without a copy when the value is a string: for the
/// comparisons made for every resource of a run.
pub fn value_str(value: &Value) -> std::borrow::Cow<'_, str> {
    match value {
        Value::String(text) => std::borrow::Cow::Borrowed(text),
        other => std::borrow::Cow::Owned(to_s(other)),
    }
}

/// The default validation: the type constraint, then the allowed values
/// (literals first, then patterns).
pub fn default_validate(attr: &AttrDef, value: &Value) -> Result<(), String> {
    check_constraint(attr, value)?;
    validate_values(attr, value)
}

/// The attribute's type constraint.
fn check_constraint(attr: &AttrDef, value: &Value) -> Result<(), String> {
    match &attr.constraint {
        Some(ptype) if !ptype.is_instance(value) => Err(format!(
            "expects a value of type {}, got {}",
            ptype,
            actual_type(value)
        )),
        _ => Ok(()),
    }
}

/// The allowed values (literals first, then patterns).
pub(crate) fn validate_values(attr: &AttrDef, value: &Value) -> Result<(), String> {
    if attr.values.is_empty() {
        return Ok(());
    }
    if matches!(value, Value::Array(_) | Value::Hash(_)) {
        return Err(invalid_value(attr, value));
    }
    let text = value_str(value);
    let literal = attr
        .literals()
        .any(|l| l == text || (attr.boolean && l.eq_ignore_ascii_case(&text)));
    let aliased = attr.aliases.iter().any(|(alias, _)| *alias == text);
    if literal || aliased || attr.patterns().any(|p| p.is_match(&text)) {
        Ok(())
    } else {
        Err(invalid_value(attr, value))
    }
}

fn actual_type(value: &Value) -> String {
    PType::infer(value).generalize().to_string()
}

/// Puppet's wording for a value outside the allowed ones.
fn invalid_value(attr: &AttrDef, value: &Value) -> String {
    let mut message = format!("Invalid value {}.", inspect(value));
    let literals: Vec<&str> = attr.literals().collect();
    if !literals.is_empty() {
        message.push_str(&format!(" Valid values are {}.", literals.join(", ")));
    }
    let patterns: Vec<String> = attr.patterns().map(|p| ruby_regexp(p.source())).collect();
    if !patterns.is_empty() {
        message.push_str(&format!(" Valid values match {}.", patterns.join(", ")));
    }
    message
}

/// A pattern as Ruby's `Regexp#inspect` shows it: between slashes, with
/// the slashes inside escaped (`/\A\//`).
fn ruby_regexp(source: &str) -> String {
    let mut text = String::with_capacity(source.len() + 2);
    text.push('/');
    let mut escaped = false;
    for c in source.chars() {
        if c == '/' && !escaped {
            text.push('\\');
        }
        escaped = c == '\\' && !escaped;
        text.push(c);
    }
    text.push('/');
    text
}

/// A value as Ruby's `inspect` shows it in error messages: strings in
/// double quotes.
pub fn inspect(value: &Value) -> String {
    match value {
        Value::String(s) => format!("{s:?}"),
        other => marionette_values::format::ruby_inspect(other),
    }
}

/// The default munging: booleans to `true`/`false`, aliases to their
/// target, literal matches to the literal's spelling, anything else as is.
pub fn default_munge(attr: &AttrDef, value: Value) -> Value {
    if attr.boolean {
        return parse_boolean(&value).map(Value::Boolean).unwrap_or(value);
    }
    if attr.values.is_empty() && attr.aliases.is_empty() {
        return value;
    }
    if matches!(
        value,
        Value::Array(_) | Value::Hash(_) | Value::Sensitive(_)
    ) {
        return value;
    }
    let text = value_str(&value);
    if let Some((_, target)) = attr.aliases.iter().find(|(alias, _)| *alias == text) {
        return Value::String(target.as_str().into());
    }
    // A string already spelled as the literal is kept as it is.
    if !matches!(value, Value::String(_))
        && let Some(literal) = attr.literals().find(|l| *l == text)
    {
        return Value::String(literal.into());
    }
    value
}

/// Validates then munges one value through the attribute's hooks, or the
/// defaults. A hook that panics is reported as an error of this attribute,
/// never as a crash.
pub fn process(attr: &AttrDef, value: Value) -> Result<Value, String> {
    process_checked(attr, value, false)
}

/// [`process`], told whether the value (or the array it is an element of)
/// already passed the type constraint, which is then not checked again.
fn process_checked(
    attr: &AttrDef,
    value: Value,
    constraint_checked: bool,
) -> Result<Value, String> {
    let hooked = Hooked {
        attr,
        constraint_checked,
    };
    guarded(&attr.name, "validate", || match &attr.validate {
        Some(hook) => hook(&hooked, &value),
        None => hooked.default_validate(&value),
    })?;
    guarded(&attr.name, "munge", move || match &attr.munge {
        Some(hook) => hook(&hooked, value),
        None => Ok(default_munge(attr, value)),
    })
}

/// Properties validate and munge each element of an array (Puppet keeps a
/// property's desired values as a list); parameters take the value whole.
pub fn process_value(attr: &AttrDef, value: Value) -> Result<Value, String> {
    // The constraint is checked on the whole value; the elements are not
    // checked against it again.
    check_constraint(attr, &value)?;
    if let Some(check) = &attr.validate_whole {
        guarded(&attr.name, "validate", || check(&value))?;
    }
    process_elements(attr, value)
}

fn process_elements(attr: &AttrDef, value: Value) -> Result<Value, String> {
    let per_element = attr.kind != AttrKind::Parameter && !attr.whole_value;
    match value {
        Value::Array(items) if per_element => {
            let munged = items
                .iter()
                .map(|item| process_checked(attr, item.clone(), true))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Value::Array(munged.into()))
        }
        Value::Sensitive(inner) => Ok(Value::Sensitive(Box::new(process_elements(attr, *inner)?))),
        other => process_checked(attr, other, true),
    }
}

/// Runs a hook, turning a panic into an error message.
pub fn guarded<T>(
    attr: &str,
    what: &str,
    f: impl FnOnce() -> Result<T, String>,
) -> Result<T, String> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(result) => result,
        Err(panic) => {
            let detail = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_string());
            Err(format!(
                "internal error in the {what} hook of '{attr}': {detail}"
            ))
        }
    }
}

/// A list attribute's values as names: the elements of an array, or a
/// comma-separated string split (Puppet accepts `groups => 'a,b'`).
pub fn names(value: &Value) -> Vec<String> {
    match value {
        Value::Array(items) => items.iter().map(value_text).collect(),
        Value::Undef => Vec::new(),
        other => value_text(other)
            .split(',')
            .map(|name| name.trim().to_string())
            .filter(|name| !name.is_empty())
            .collect(),
    }
}

/// Whether a list of members is in sync: every desired name present and,
/// when `inclusive`, no other (user `groups`, group `members`).
pub fn membership_insync(current: &Value, desired: &Value, inclusive: bool) -> bool {
    // A thing without the property reports it `absent`: no members.
    let have: std::collections::BTreeSet<String> = match current {
        Value::String(s) if &**s == "absent" => Default::default(),
        other => names(other).into_iter().collect(),
    };
    let want: std::collections::BTreeSet<String> = names(desired).into_iter().collect();
    if inclusive {
        have == want
    } else {
        want.is_subset(&have)
    }
}

/// Whether two single values are the same: equal, or equal as text, so
/// `86400` and `"86400"` match (the seed's nsupdate provider stumbled on
/// exactly this in Puppet).
pub fn values_match(current: &Value, desired: &Value) -> bool {
    let current = unwrap_sensitive(current);
    let desired = unwrap_sensitive(desired);
    current == desired || value_str(current) == value_str(desired)
}

fn unwrap_sensitive(value: &Value) -> &Value {
    match value {
        Value::Sensitive(inner) => unwrap_sensitive(inner),
        other => other,
    }
}

/// Whether a property's current value satisfies the desired one: the
/// attribute's own test, or the default one.
pub fn insync(
    attr: &AttrDef,
    resource: &crate::resource::Resource,
    current: &Value,
    desired: &Value,
) -> bool {
    match &attr.insync {
        Some(hook) => guarded(&attr.name, "insync", || {
            Ok(hook(resource, current, desired))
        })
        .unwrap_or(false),
        None => default_insync(attr, current, desired),
    }
}

/// The default test: equal values (or equal text), with `array_matching`
/// deciding how an array of desired values counts.
pub fn default_insync(attr: &AttrDef, current: &Value, desired: &Value) -> bool {
    let (Value::Array(wanted), Value::Array(have)) = (desired, current) else {
        return match (desired, attr.array_matching) {
            (Value::Array(wanted), _) if wanted.is_empty() => *current == Value::Undef,
            // One current value: any desired value will do with `first`,
            // only a single equal one with `all`.
            (Value::Array(wanted), ArrayMatching::First) => {
                wanted.iter().any(|w| values_match(current, w))
            }
            (Value::Array(wanted), ArrayMatching::All) => {
                wanted.len() == 1 && values_match(current, &wanted[0])
            }
            (single, _) => values_match(current, single),
        };
    };
    have.len() == wanted.len()
        && have
            .iter()
            .zip(wanted.iter())
            .all(|(h, w)| values_match(h, w))
}

/// The value a property syncs to: the first of several with
/// `array_matching => first`, else the whole value.
pub fn sync_value(attr: &AttrDef, desired: &Value) -> Value {
    match (desired, attr.array_matching) {
        (Value::Array(items), ArrayMatching::First) if !items.is_empty() => items[0].clone(),
        (other, _) => other.clone(),
    }
}

/// A value as logs show it: strings quoted, sensitive values redacted.
pub fn display(attr: &AttrDef, value: &Value) -> String {
    if attr.sensitive || matches!(value, Value::Sensitive(_)) {
        return "[redacted]".to_string();
    }
    if let Some(hook) = &attr.format {
        return guarded(&attr.name, "format", || Ok(hook(value))).unwrap_or_else(|e| e);
    }
    // A value of nothing (a module getter's nil) shows as nothing, as
    // Puppet's parameter format writes undef; inside a list or hash it
    // is `undef`.
    if *value == Value::Undef {
        return String::new();
    }
    display_value(value)
}

/// A desired value as Puppet's `should_to_s` shows it: a property that
/// keeps every value holds a list even when given one (wait_for's
/// `exit_code => 0` should be `[0]`), where the current value is shown as
/// found.
pub fn display_desired_for(
    attr: &AttrDef,
    resource: &crate::resource::Resource,
    value: &Value,
) -> String {
    // (A Resource API type's attribute is compared whole, and shown as
    // given.)
    if attr.array_matching == ArrayMatching::All
        && !attr.whole_value
        && attr.format.is_none()
        && !matches!(value, Value::Array(_) | Value::Undef)
    {
        return display_for(attr, resource, &Value::Array(vec![value.clone()].into()));
    }
    display_for(attr, resource, value)
}

/// A value of one resource as logs show it: redacted also when the
/// manifest gave it as `Sensitive` to an attribute that is not sensitive
/// by itself (a file's `content`, say).
pub fn display_for(attr: &AttrDef, resource: &crate::resource::Resource, value: &Value) -> String {
    if resource.is_sensitive(&attr.name) {
        return "[redacted]".to_string();
    }
    display(attr, value)
}

/// Puppet's display form of a value: strings in single quotes, floats
/// with six decimals, arrays inline, hashes one entry per line.
pub fn display_value(value: &Value) -> String {
    display_indented(value, 0)
}

fn display_indented(value: &Value, depth: usize) -> String {
    match value {
        Value::String(s) => quote(s),
        Value::Undef => "undef".to_string(),
        Value::Float(f) => format!("{f:.6}"),
        Value::Sensitive(_) => "[redacted]".to_string(),
        Value::Array(items) => format!(
            "[{}]",
            items
                .iter()
                .map(|item| display_indented(item, depth))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Value::Hash(hash) => {
            let inner = "  ".repeat(depth + 1);
            let entries: Vec<String> = hash
                .iter()
                .map(|(k, v)| {
                    let key = display_indented(k, depth + 1);
                    format!("{inner}{key} => {}", display_indented(v, depth + 1))
                })
                .collect();
            format!("{{\n{}\n{}}}", entries.join(",\n"), "  ".repeat(depth))
        }
        other => to_s(other),
    }
}

/// The log message of a property change, as Puppet words it.
pub fn change_message(
    attr: &AttrDef,
    resource: &crate::resource::Resource,
    current: &Value,
    desired: &Value,
) -> String {
    if let Some(hook) = &attr.change_message {
        return guarded(&attr.name, "change message", || {
            Ok(hook(resource, current, desired))
        })
        .unwrap_or_else(|e| e);
    }
    puppets_change_message(attr, resource, current, desired)
}

/// What a noop run says of a change, in Puppet's own words, whatever hook
/// the attribute has.
pub fn puppets_noop_message(
    attr: &AttrDef,
    resource: &crate::resource::Resource,
    current: &Value,
    desired: &Value,
) -> String {
    format!(
        "current_value {}, should be {} (noop)",
        display_for(attr, resource, current),
        display_desired_for(attr, resource, desired)
    )
}

/// [`change_message`] in Puppet's own words, whatever hook the attribute
/// has.
pub fn puppets_change_message(
    attr: &AttrDef,
    resource: &crate::resource::Resource,
    current: &Value,
    desired: &Value,
) -> String {
    if attr.name == "ensure" {
        let is_absent =
            matches!(current, Value::String(s) if &**s == "absent") || *current == Value::Undef;
        let to_absent = matches!(desired, Value::String(s) if &**s == "absent");
        if is_absent && !to_absent {
            return "created".to_string();
        }
        if to_absent {
            return "removed".to_string();
        }
    }
    property_change_message(attr, resource, current, desired)
}

/// A change in the words of Puppet's plain property, which an `ensure`
/// declared as one (mount's) also uses: `defined 'x' as ...`, `x changed
/// ... to ...`.
pub fn property_change_message(
    attr: &AttrDef,
    resource: &crate::resource::Resource,
    current: &Value,
    desired: &Value,
) -> String {
    if attr.sensitive || resource.is_sensitive(&attr.name) {
        return "changed [redacted] to [redacted]".to_string();
    }
    // A property whose value is all the values given shows one as a list
    // of one, as Puppet's `should` gives it.
    let wrapped;
    let desired = match desired {
        Value::Array(_) => desired,
        single if attr.array_matching == ArrayMatching::All && !attr.whole_value => {
            wrapped = Value::array(vec![single.clone()]);
            &wrapped
        }
        single => single,
    };
    if *current == Value::Undef || matches!(current, Value::String(s) if &**s == "absent") {
        return format!("defined '{}' as {}", attr.name, display(attr, desired));
    }
    let absent = |v: &Value| matches!(v, Value::String(s) if &**s == "absent");
    if absent(desired)
        || matches!(desired, Value::Array(items) if items.len() == 1 && absent(&items[0]))
    {
        return format!("undefined '{}' from {}", attr.name, display(attr, current));
    }
    format!(
        "{} changed {} to {}",
        attr.name,
        display(attr, current),
        display(attr, desired)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_are_shown_as_ruby_shows_them() {
        assert_eq!(ruby_regexp(r"\A/"), r"/\A\//");
        assert_eq!(ruby_regexp(r"a\/b"), r"/a\/b/");
        assert_eq!(ruby_regexp(r"^[0-9]+$"), r"/^[0-9]+$/");
    }

    fn s(text: &str) -> Value {
        Value::String(text.into())
    }

    #[test]
    fn literals_become_their_spelling_and_patterns_keep_the_value() {
        let color = AttrDef::param("color")
            .values(&["blue", "red"])
            .pattern(".+");
        assert_eq!(process(&color, s("blue")).unwrap(), s("blue"));
        assert_eq!(process(&color, s("green")).unwrap(), s("green"));
        let strict = AttrDef::param("color").values(&["blue", "red"]);
        assert_eq!(
            process(&strict, s("green")).unwrap_err(),
            "Invalid value \"green\". Valid values are blue, red."
        );
    }

    #[test]
    fn nothing_shows_as_nothing_except_inside_a_value() {
        let path = AttrDef::property("path");
        assert_eq!(display(&path, &Value::Undef), "");
        assert_eq!(display(&path, &s("/usr/bin/vim")), "'/usr/bin/vim'");
        assert_eq!(
            display(&path, &Value::Array(vec![Value::Undef, s("a")].into())),
            "[undef, 'a']"
        );
    }

    #[test]
    fn booleans_accept_puppet_spellings() {
        let force = AttrDef::param("force").boolean();
        assert_eq!(process(&force, s("yes")).unwrap(), Value::Boolean(true));
        assert_eq!(
            process(&force, Value::Boolean(false)).unwrap(),
            Value::Boolean(false)
        );
        assert_eq!(process(&force, s("No")).unwrap(), Value::Boolean(false));
        assert!(process(&force, s("maybe")).is_err());
    }

    #[test]
    fn numbers_and_their_text_are_the_same_value() {
        let ttl = AttrDef::property("ttl");
        assert!(default_insync(&ttl, &Value::Integer(86400), &s("86400")));
        assert!(!default_insync(&ttl, &Value::Integer(86400), &s("3600")));
    }

    #[test]
    fn array_matching_first_accepts_any_all_needs_the_whole_array() {
        let first = AttrDef::property("shell");
        let all = AttrDef::property("minute").array_matching(ArrayMatching::All);
        let wanted = Value::Array(vec![s("a"), s("b")].into());
        assert!(default_insync(&first, &s("b"), &wanted));
        assert!(!default_insync(&all, &s("b"), &wanted));
        assert!(default_insync(&all, &wanted, &wanted));
    }

    #[test]
    fn a_panicking_hook_is_an_error_not_a_crash() {
        let bad = AttrDef::param("x").validate(|_, _| panic!("boom"));
        let error = process(&bad, s("v")).unwrap_err();
        assert!(error.contains("boom") && error.contains("'x'"), "{error}");
    }
}

//! How values print.
//!
//! Puppet has two text forms. Interpolation and the logging functions use the
//! plain form, where strings nested in collections are bare and hashes use
//! `=>` without quotes (`{a => [1, b]}`). `String(value)` uses the quoted
//! form (`{'a' => [1, 'b']}`).

use std::fmt::Write;

use crate::types::PType;
use crate::value::Value;

/// The plain form, used by interpolation and `notice`.
pub fn to_s(value: &Value) -> String {
    let mut out = String::new();
    write_value(&mut out, value, false, true);
    out
}

/// The quoted form, used by `String(value)`.
pub fn to_quoted_s(value: &Value) -> String {
    let mut out = String::new();
    write_value(&mut out, value, true, true);
    out
}

fn write_value(out: &mut String, value: &Value, quoted: bool, top: bool) {
    match value {
        Value::Undef => {
            if !top || quoted {
                out.push_str(if quoted && !top { "undef" } else { "" });
            }
        }
        Value::Default => out.push_str("default"),
        Value::Boolean(b) => {
            let _ = write!(out, "{b}");
        }
        Value::Integer(i) => {
            let _ = write!(out, "{i}");
        }
        Value::Float(f) => out.push_str(&float_to_string(*f)),
        Value::String(s) => {
            if quoted && !top {
                out.push_str(&quote(s));
            } else {
                out.push_str(s);
            }
        }
        Value::Regexp(r) => {
            let _ = write!(out, "/{}/", r.source());
        }
        Value::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push_str(", ");
                }
                write_value(out, item, quoted, false);
            }
            out.push(']');
        }
        Value::Hash(hash) => {
            out.push('{');
            for (index, (key, item)) in hash.iter().enumerate() {
                if index > 0 {
                    out.push_str(", ");
                }
                write_value(out, key, quoted, false);
                out.push_str(" => ");
                write_value(out, item, quoted, false);
            }
            out.push('}');
        }
        // A type alias shows what it stands for when printed on its own.
        Value::Type(t) => match &**t {
            crate::types::PType::Alias { name, target } if top => {
                let _ = write!(out, "{name} = {target}");
            }
            _ => {
                let _ = write!(out, "{t}");
            }
        },
        Value::Sensitive(_) => out.push_str("Sensitive [value redacted]"),
        Value::Timespan(t) => {
            let _ = write!(out, "{t}");
        }
        Value::Timestamp(t) => {
            let _ = write!(out, "{t}");
        }
        Value::SemVer(v) => {
            let _ = write!(out, "{v}");
        }
        Value::SemVerRange(r) => {
            let _ = write!(out, "{r}");
        }
        Value::Binary(bytes) => out.push_str(&crate::binary::encode(bytes)),
        // As Puppet prints an Object: its attributes, quoted.
        Value::Deferred(deferred) => {
            out.push_str("Deferred({'name' => ");
            out.push_str(&quote(&deferred.name));
            if !deferred.arguments.is_empty() {
                out.push_str(", 'arguments' => ");
                write_value(out, &Value::array(deferred.arguments.clone()), true, false);
            }
            out.push_str("})");
        }
        Value::Iterator(items) => {
            let element = PType::infer(&Value::array(items.clone()));
            let element = match element {
                PType::Tuple { types, .. } => {
                    types.first().map(PType::generalize).unwrap_or(PType::Unit)
                }
                other => other,
            };
            let _ = write!(out, "Iterator[{element}]-Value");
        }
    }
}

/// Ruby's `inspect` form (`{"a"=>1}`, `[1, "a"]`, `nil`), which Puppet
/// shows where it hands a value to Ruby's own formatting: `join` of nested
/// hashes, `sprintf` with `%s` or `%p` of collections.
pub fn ruby_inspect(value: &Value) -> String {
    match value {
        Value::Undef => "nil".into(),
        Value::String(s) => ruby_string(s),
        Value::Float(f) => ruby_float(*f),
        Value::Array(items) => format!(
            "[{}]",
            items
                .iter()
                .map(ruby_inspect)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Value::Hash(hash) => {
            format!(
                "{{{}}}",
                hash.iter()
                    .map(|(k, v)| format!("{}=>{}", ruby_inspect(k), ruby_inspect(v)))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
        other => to_s(other),
    }
}

/// The name of the Ruby class that holds a value, as messages of Ruby code
/// (stdlib's, Hiera's) name it.
pub fn ruby_class(value: &Value) -> &'static str {
    match value {
        Value::String(_) => "String",
        Value::Integer(_) => "Integer",
        Value::Float(_) => "Float",
        Value::Boolean(true) => "TrueClass",
        Value::Boolean(false) => "FalseClass",
        Value::Array(_) => "Array",
        Value::Hash(_) => "Hash",
        Value::Undef => "NilClass",
        _ => "Object",
    }
}

/// Ruby's `inspect` of a string: double quotes, `\"`, `\\`, `\n`, `\t`,
/// `\e` and the like, `\#` before `{`, `$` and `@`, other control
/// characters in hex.
pub fn ruby_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\u{1b}' => out.push_str("\\e"),
            '#' if matches!(chars.peek(), Some('{' | '$' | '@')) => out.push_str("\\#"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\x{:02X}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Ruby's `to_s` of a float: the shortest form that reads back, with a
/// `.0` for whole numbers, exponents from 1e16 and below 1e-4, and
/// `Infinity` and `NaN`.
pub fn ruby_float(f: f64) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    let abs = f.abs();
    if abs != 0.0 && !(1e-4..1e16).contains(&abs) {
        let s = format!("{f:e}");
        let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
        let mantissa = if mantissa.contains('.') {
            mantissa.to_string()
        } else {
            format!("{mantissa}.0")
        };
        let exp: i32 = exp.parse().unwrap_or(0);
        return format!(
            "{mantissa}e{}{:02}",
            if exp < 0 { '-' } else { '+' },
            exp.abs()
        );
    }
    let s = format!("{f}");
    if s.contains('.') { s } else { format!("{s}.0") }
}

/// A string quoted as Puppet prints strings inside types and quoted
/// values: in single quotes with `'` escaped, a backslash kept with the
/// character after it; in double quotes, with
/// escapes, when it holds a control character (a line break).
pub fn quote(text: &str) -> String {
    if text.chars().any(|c| (c as u32) < 0x20) {
        return double_quote(text);
    }
    let mut out = String::with_capacity(text.len() + 2);
    out.push('\'');
    let mut escaped = false;
    for ch in text.chars() {
        if escaped {
            out.push('\\');
            out.push(ch);
            escaped = false;
        } else if ch == '\'' {
            out.push_str("\\'");
        } else if ch == '\\' {
            escaped = true;
        } else {
            out.push(ch);
        }
    }
    // Puppet's own output for a final backslash: one, unescaped.
    if escaped {
        out.push('\\');
    }
    out.push('\'');
    out
}

/// A string in double quotes with Puppet's escapes.
fn double_quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for ch in text.chars() {
        match ch {
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '"' => out.push_str("\\\""),
            '$' => out.push_str("\\$"),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{{{:X}}}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Ruby's `Float#to_s`: the shortest text that reads back as the same
/// number, with `.0` on whole numbers and an exponent below 1e-4 and from
/// 1e16 on (`1.0e+16`, `1.0e-05`).
pub fn float_to_string(value: f64) -> String {
    if value.is_nan() {
        return "NaN".into();
    }
    if value.is_infinite() {
        return if value > 0.0 {
            "Infinity".into()
        } else {
            "-Infinity".into()
        };
    }
    if value == 0.0 {
        return if value.is_sign_negative() {
            "-0.0".into()
        } else {
            "0.0".into()
        };
    }
    let scientific = format!("{value:e}");
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    if (-4..16).contains(&exponent) {
        let plain = format!("{value}");
        if plain.contains('.') {
            plain
        } else {
            format!("{plain}.0")
        }
    } else {
        let mantissa = if mantissa.contains('.') {
            mantissa.to_string()
        } else {
            format!("{mantissa}.0")
        };
        let sign = if exponent < 0 { '-' } else { '+' };
        format!("{mantissa}e{sign}{:02}", exponent.abs())
    }
}

/// The short type name Puppet uses for a value in messages ("got String").
pub fn type_label(value: &Value) -> String {
    match value {
        Value::Undef => "Undef".into(),
        Value::Default => "Default".into(),
        Value::Boolean(_) => "Boolean".into(),
        Value::Integer(_) => "Integer".into(),
        Value::Float(_) => "Float".into(),
        Value::String(_) => "String".into(),
        Value::Regexp(_) => "Regexp".into(),
        Value::Array(_) => "Array".into(),
        Value::Hash(_) => "Hash".into(),
        Value::Type(t) => format!("Type[{}]", t.name()),
        Value::Sensitive(_) => "Sensitive".into(),
        Value::Iterator(_) => "Iterator".into(),
        Value::Timespan(_) => "Timespan".into(),
        Value::Timestamp(_) => "Timestamp".into(),
        Value::SemVer(_) => "SemVer".into(),
        Value::SemVerRange(_) => "SemVerRange".into(),
        Value::Binary(_) => "Binary".into(),
        Value::Deferred(_) => "Deferred".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_print_as_ruby_does() {
        assert_eq!(float_to_string(3.0), "3.0");
        assert_eq!(float_to_string(0.1 + 0.2), "0.30000000000000004");
        assert_eq!(float_to_string(1.5e10), "15000000000.0");
        assert_eq!(float_to_string(1e16), "1.0e+16");
        assert_eq!(float_to_string(0.0001), "0.0001");
        assert_eq!(float_to_string(0.00001), "1.0e-05");
        assert_eq!(float_to_string(-2.5), "-2.5");
    }

    /// As Puppet's string converter quotes them (recorded with Puppet 7's
    /// `StringConverter#convert(s, '%p')`).
    #[test]
    fn strings_quote_as_puppet_quotes_them() {
        for (text, quoted) in [
            ("a\\b", "'a\\b'"),
            ("a\\\\b", "'a\\\\b'"),
            ("a\\", "'a\\'"),
            ("it's", "'it\\'s'"),
            ("x\ny", "\"x\\ny\""),
            ("a$b\n\"q\"\\z", "\"a\\$b\\n\\\"q\\\"\\\\z\""),
            ("\\'", "'\\''"),
        ] {
            assert_eq!(quote(text), quoted, "{text:?}");
        }
    }

    #[test]
    fn plain_and_quoted_forms() {
        let mut hash = crate::value::PHash::new();
        hash.insert(
            Value::string("a"),
            Value::array(vec![Value::Integer(1), Value::string("b")]),
        );
        let value = Value::hash(hash);
        assert_eq!(to_s(&value), "{a => [1, b]}");
        assert_eq!(to_quoted_s(&value), "{'a' => [1, 'b']}");
    }
}

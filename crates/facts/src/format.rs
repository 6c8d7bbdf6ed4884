//! Facts as text, the way `facter` prints them: JSON as Ruby's
//! `JSON.pretty_generate` writes it, Facter's `key => value` form for
//! queries, and YAML.
//!
//! These return strings; printing is the command's business.

use serde_json::{Map, Value};

use crate::units::ruby_float_to_s;

/// JSON as Ruby pretty-prints it, which is what `facter --json` shows: two
/// spaces of indentation, floats as Ruby prints them (`1.0`), and Ruby's
/// quirky empty containers (`{` and `}` on two lines, `[` and `]` with an
/// empty line between).
pub fn to_json(value: &Value) -> String {
    let mut out = String::new();
    write_json(&mut out, value, 0);
    out
}

fn indent(out: &mut String, depth: usize) {
    for _ in 0..depth {
        out.push_str("  ");
    }
}

fn write_json(out: &mut String, value: &Value, depth: usize) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(flag) => out.push_str(if *flag { "true" } else { "false" }),
        Value::Number(number) => out.push_str(&number_text(number)),
        Value::String(text) => write_json_string(out, text),
        Value::Array(items) => {
            out.push_str("[\n");
            if items.is_empty() {
                out.push('\n');
            }
            for (index, item) in items.iter().enumerate() {
                indent(out, depth + 1);
                write_json(out, item, depth + 1);
                if index + 1 < items.len() {
                    out.push(',');
                }
                out.push('\n');
            }
            indent(out, depth);
            out.push(']');
        }
        Value::Object(map) => {
            out.push_str("{\n");
            let count = map.len();
            for (index, (key, item)) in map.iter().enumerate() {
                indent(out, depth + 1);
                write_json_string(out, key);
                out.push_str(": ");
                write_json(out, item, depth + 1);
                if index + 1 < count {
                    out.push(',');
                }
                out.push('\n');
            }
            indent(out, depth);
            out.push('}');
        }
    }
}

fn number_text(number: &serde_json::Number) -> String {
    if number.is_f64() {
        ruby_float_to_s(number.as_f64().unwrap_or(0.0))
    } else {
        number.to_string()
    }
}

fn write_json_string(out: &mut String, text: &str) {
    out.push('"');
    for character in text.chars() {
        match character {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Facter's `key => value` form of a JSON text: keys lose their quotes and
/// `": "` becomes `" => "`, and doubled backslashes are shown single.
fn arrows(json: &str) -> String {
    json.lines()
        .map(|line| {
            let trimmed = line.trim_start();
            let leading = &line[..line.len() - trimmed.len()];
            let rewritten = match trimmed.strip_prefix('"').and_then(|rest| split_key(rest)) {
                Some((key, rest)) => format!("{leading}{key} =>{rest}"),
                None => line.to_string(),
            };
            rewritten.replace("\\\\", "\\")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Splits `key": rest` (the text after a key's opening quote) at the end of
/// the key, honouring escaped quotes inside it.
fn split_key(text: &str) -> Option<(&str, &str)> {
    let mut escaped = false;
    for (index, character) in text.char_indices() {
        match character {
            '\\' if !escaped => escaped = true,
            '"' if !escaped => {
                let rest = text[index + 1..].strip_prefix(':')?;
                return Some((&text[..index], rest));
            }
            _ => escaped = false,
        }
    }
    None
}

/// What `facter QUERY` prints for one query: a string bare, nothing for a
/// missing fact, anything else in the `key => value` form.
pub fn to_legacy_single(value: Option<&Value>) -> String {
    match value {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(text)) => text.clone(),
        Some(other) => arrows(&to_json(other)),
    }
}

/// What `facter Q1 Q2 ...` prints for several queries: one `query => value`
/// entry per query in name order, top-level strings bare, missing facts
/// empty.
pub fn to_legacy_multiple(values: &[(String, Option<Value>)]) -> String {
    let mut sorted: Vec<&(String, Option<Value>)> = values.iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    sorted.dedup_by(|a, b| a.0 == b.0);
    let mut out = Vec::new();
    for (query, value) in sorted {
        let text = match value {
            None | Some(Value::Null) => String::new(),
            Some(Value::String(text)) => text.clone(),
            Some(other) => {
                // Nested lines keep their indentation from the top level;
                // Facter drops empty lines in this form.
                arrows(&to_json(other))
                    .lines()
                    .filter(|line| !line.trim().is_empty())
                    .collect::<Vec<_>>()
                    .join("\n")
            }
        };
        out.push(format!("{query} => {text}"));
    }
    out.join("\n")
}

/// Strings Facter's YAML output puts in double quotes: those with a `y`, `n`
/// or a colon (so YAML 1.1 readers cannot take them for booleans or keys),
/// unless they contain `true` or `false` or are all digits; and those with
/// no letters that do not look like decimal numbers.
fn facter_quotes(text: &str) -> bool {
    if text.contains("true") || text.contains("false") {
        return false;
    }
    if !text.is_empty() && text.chars().all(|c| c.is_ascii_digit()) {
        return false;
    }
    if text.contains(['y', 'Y', 'n', 'N', ':']) {
        return true;
    }
    if text.chars().any(|c| c.is_ascii_alphabetic()) {
        return false;
    }
    let looks_decimal = text.split('.').count() >= 2 && {
        let bytes = text.as_bytes();
        bytes
            .windows(3)
            .any(|w| w[0].is_ascii_digit() && w[1] == b'.' && w[2].is_ascii_digit())
    };
    !looks_decimal
}

/// Whether a string must be quoted for a YAML reader to read it back as the
/// same string.
fn yaml_needs_quotes(text: &str) -> bool {
    if text.is_empty() || text != text.trim() {
        return true;
    }
    let lower = text.to_lowercase();
    let reserved = [
        "~", "null", "true", "false", "yes", "no", "on", "off", "y", "n", ".nan", ".inf", "-.inf",
    ];
    if reserved.contains(&lower.as_str()) {
        return true;
    }
    let body = text.trim_start_matches(['-', '+']);
    let radix_number = |prefix: &str, radix: u32| {
        body.strip_prefix(prefix)
            .is_some_and(|digits| !digits.is_empty() && digits.chars().all(|c| c.is_digit(radix)))
    };
    let number_like = text.parse::<f64>().is_ok()
        || radix_number("0x", 16)
        || radix_number("0o", 8)
        || (body.contains('_')
            && body.chars().any(|c| c.is_ascii_digit())
            && body
                .chars()
                .all(|c| c.is_ascii_digit() || c == '_' || c == '.'));
    if number_like {
        return true;
    }
    let first = text.chars().next().unwrap_or(' ');
    if "-?:,[]{}#&*!|>'\"%@`".contains(first) {
        return true;
    }
    text.contains(": ")
        || text.contains(" #")
        || text.ends_with(':')
        || text.chars().any(|c| c.is_control())
}

fn yaml_double_quoted(text: &str) -> String {
    let mut out = String::from("\"");
    for character in text.chars() {
        match character {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn yaml_scalar(value: &Value) -> String {
    match value {
        Value::Null => "null".to_string(),
        Value::Bool(flag) => flag.to_string(),
        Value::Number(number) => number_text(number),
        Value::String(text) => {
            if facter_quotes(text) || yaml_needs_quotes(text) {
                yaml_double_quoted(text)
            } else {
                text.clone()
            }
        }
        Value::Array(_) => "[]".to_string(),
        Value::Object(_) => "{}".to_string(),
    }
}

fn yaml_key(key: &str) -> String {
    if yaml_needs_quotes(key) && key.parse::<f64>().is_err() {
        yaml_double_quoted(key)
    } else {
        key.to_string()
    }
}

fn write_yaml_map(out: &mut String, map: &Map<String, Value>, depth: usize) {
    for (key, value) in map {
        indent(out, depth);
        out.push_str(&yaml_key(key));
        out.push(':');
        write_yaml_value(out, value, depth);
    }
}

/// Writes what follows `key:`. A sequence inside a mapping starts at the
/// key's own indentation, as Ruby's YAML writes it.
fn write_yaml_value(out: &mut String, value: &Value, depth: usize) {
    match value {
        Value::Object(map) if !map.is_empty() => {
            out.push('\n');
            write_yaml_map(out, map, depth + 1);
        }
        Value::Array(items) if !items.is_empty() => {
            out.push('\n');
            write_yaml_list(out, items, depth);
        }
        other => {
            out.push(' ');
            out.push_str(&yaml_scalar(other));
            out.push('\n');
        }
    }
}

fn write_yaml_list(out: &mut String, items: &[Value], depth: usize) {
    for item in items {
        indent(out, depth);
        out.push('-');
        match item {
            Value::Object(map) if !map.is_empty() => {
                // The first key goes on the dash's line, the others under it.
                let mut nested = String::new();
                write_yaml_map(&mut nested, map, depth + 1);
                out.push(' ');
                out.push_str(nested.trim_start());
            }
            Value::Array(inner) if !inner.is_empty() => {
                let mut nested = String::new();
                write_yaml_list(&mut nested, inner, depth + 1);
                out.push(' ');
                out.push_str(nested.trim_start());
            }
            other => {
                out.push(' ');
                out.push_str(&yaml_scalar(other));
                out.push('\n');
            }
        }
    }
}

/// Facts as YAML, in the layout `facter --yaml` uses (no `---` line).
pub fn to_yaml(facts: &Map<String, Value>) -> String {
    let mut out = String::new();
    write_yaml_map(&mut out, facts, 0);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn json_is_written_as_ruby_writes_it() {
        let cases = [
            (json!({}), "{\n}"),
            (json!([]), "[\n\n]"),
            (
                json!({"a": 1.0, "b": [1, "x"]}),
                "{\n  \"a\": 1.0,\n  \"b\": [\n    1,\n    \"x\"\n  ]\n}",
            ),
            (json!({"k": {}}), "{\n  \"k\": {\n  }\n}"),
            (json!({"e": []}), "{\n  \"e\": [\n\n  ]\n}"),
            (json!("a\"b\\c\n\u{1}"), "\"a\\\"b\\\\c\\n\\u0001\""),
            (json!(0.59), "0.59"),
            (json!(null), "null"),
        ];
        for (value, expected) in cases {
            assert_eq!(to_json(&value), expected, "{value}");
        }
    }

    #[test]
    fn single_queries_print_as_facter_prints_them() {
        let cases = [
            (None, ""),
            (Some(json!("Debian")), "Debian"),
            (Some(json!(25276510208u64)), "25276510208"),
            (Some(json!(false)), "false"),
            (Some(json!({"kvm": {}})), "{\n  kvm => {\n  }\n}"),
            (
                Some(json!({"15m": 1.32, "1m": 0.59})),
                "{\n  15m => 1.32,\n  1m => 0.59\n}",
            ),
            (Some(json!(["a", 1])), "[\n  \"a\",\n  1\n]"),
            (Some(json!({"s": "a\"b\\c"})), "{\n  s => \"a\\\"b\\c\"\n}"),
        ];
        for (value, expected) in cases {
            assert_eq!(to_legacy_single(value.as_ref()), expected, "{value:?}");
        }
    }

    #[test]
    fn several_queries_print_as_facter_prints_them() {
        let values = vec![
            ("os.family".to_string(), Some(json!("Debian"))),
            ("networking.ip".to_string(), Some(json!("192.0.2.2"))),
            ("nonexist".to_string(), None),
            (
                "os.release".to_string(),
                Some(json!({"full": "12.11", "major": "12"})),
            ),
            ("e".to_string(), Some(json!({"x": []}))),
        ];
        let expected = "e => {\n  x => [\n  ]\n}\nnetworking.ip => 192.0.2.2\nnonexist => \nos.family => Debian\nos.release => {\n  full => \"12.11\",\n  major => \"12\"\n}";
        assert_eq!(to_legacy_multiple(&values), expected);
    }

    #[test]
    fn yaml_is_laid_out_as_facter_lays_it_out() {
        let facts = json!({
            "hypervisors": {"kvm": {}},
            "load_averages": {"15m": 1.11, "1m": 0.23},
            "os": {"family": "Debian", "hardware": "x86_64", "release": {"full": "12.11", "major": "12"}},
            "bindings": [{"address": "::1", "netmask": "255.0.0.0", "flags": ["permanent"]}],
            "nested": [[2], {"z": 1}, null, "x", ""],
            "options": [],
            "path": "/usr/bin:/bin",
            "text": "a: b",
            "yes": "true-ish",
        });
        let expected = "\
hypervisors:
  kvm: {}
load_averages:
  15m: 1.11
  1m: 0.23
os:
  family: \"Debian\"
  hardware: x86_64
  release:
    full: \"12.11\"
    major: \"12\"
bindings:
- address: \"::1\"
  netmask: 255.0.0.0
  flags:
  - \"permanent\"
nested:
- - 2
- z: 1
- null
- x
- \"\"
options: []
path: \"/usr/bin:/bin\"
text: \"a: b\"
\"yes\": true-ish
";
        let facts = facts.as_object().cloned().unwrap_or_default();
        assert_eq!(to_yaml(&facts), expected);
    }
}

//! Values as Ruby's `json` library (2.6, the one Puppet 7 runs with)
//! writes them with `JSON.generate` and `JSON.pretty_generate`: the text
//! stdlib's `to_json` and `to_json_pretty` give, byte for byte, including
//! the generator's peculiar layout of empty collections when pretty.

use crate::format::{ruby_float, to_s};
use crate::value::Value;

/// The generator's layout settings, as Ruby's `JSON::State` holds them.
#[derive(Clone, Debug)]
pub struct JsonStyle {
    pub indent: String,
    pub space: String,
    pub space_before: String,
    pub object_nl: String,
    pub array_nl: String,
    /// The deepest nesting allowed, `None` for no limit (Ruby's `false`).
    pub max_nesting: Option<i64>,
    /// Whether NaN and the infinities are written rather than refused.
    pub allow_nan: bool,
}

impl JsonStyle {
    /// `JSON.generate`'s compact layout.
    pub fn compact() -> Self {
        JsonStyle {
            indent: String::new(),
            space: String::new(),
            space_before: String::new(),
            object_nl: String::new(),
            array_nl: String::new(),
            max_nesting: Some(100),
            allow_nan: false,
        }
    }

    /// `JSON.pretty_generate`'s layout: two spaces, a line per element.
    pub fn pretty() -> Self {
        JsonStyle {
            indent: "  ".into(),
            space: " ".into(),
            object_nl: "\n".into(),
            array_nl: "\n".into(),
            ..JsonStyle::compact()
        }
    }
}

/// Why the generator refused a value, in Ruby's words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JsonError {
    /// `JSON::NestingError`.
    Nesting(String),
    /// `JSON::GeneratorError`.
    Generator(String),
}

impl std::fmt::Display for JsonError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            JsonError::Nesting(m) | JsonError::Generator(m) => f.write_str(m),
        }
    }
}

/// A value as JSON text in the given layout.
pub fn generate(value: &Value, style: &JsonStyle) -> Result<String, JsonError> {
    let mut out = String::new();
    write(&mut out, value, style, 0)?;
    Ok(out)
}

fn indent(out: &mut String, style: &JsonStyle, depth: i64) {
    for _ in 0..depth {
        out.push_str(&style.indent);
    }
}

fn write(out: &mut String, value: &Value, style: &JsonStyle, depth: i64) -> Result<(), JsonError> {
    match value {
        Value::Undef => out.push_str("null"),
        Value::Boolean(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Integer(i) => out.push_str(&i.to_string()),
        Value::Float(f) if !f.is_finite() && !style.allow_nan => {
            return Err(JsonError::Generator(format!(
                "{} not allowed in JSON",
                ruby_float(*f)
            )));
        }
        Value::Float(f) => out.push_str(&ruby_float(*f)),
        Value::String(s) => string(out, s),
        Value::Array(items) => {
            let depth = nest(style, depth)?;
            out.push('[');
            out.push_str(&style.array_nl);
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                    out.push_str(&style.array_nl);
                }
                indent(out, style, depth);
                write(out, item, style, depth)?;
            }
            // Ruby closes the array on a line of its own even when it is
            // empty, which gives `[`, two line breaks and `]` when pretty;
            // the indentation is written even without line breaks.
            out.push_str(&style.array_nl);
            indent(out, style, depth - 1);
            out.push(']');
        }
        Value::Hash(hash) => {
            let depth = nest(style, depth)?;
            out.push('{');
            for (i, (k, v)) in hash.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&style.object_nl);
                indent(out, style, depth);
                string(out, &key_text(k));
                out.push_str(&style.space_before);
                out.push(':');
                out.push_str(&style.space);
                write(out, v, style, depth)?;
            }
            out.push_str(&style.object_nl);
            indent(out, style, depth - 1);
            out.push('}');
        }
        // Other values reach Ruby as objects whose JSON is their `to_s`.
        other => string(out, &ruby_to_s(other)),
    }
    Ok(())
}

/// One level deeper, refused past the maximum as Ruby refuses it.
fn nest(style: &JsonStyle, depth: i64) -> Result<i64, JsonError> {
    let depth = depth + 1;
    match style.max_nesting {
        Some(max) if max != 0 && depth > max => Err(JsonError::Nesting(format!(
            "nesting of {depth} is too deep"
        ))),
        _ => Ok(depth),
    }
}

/// A hash key as Ruby makes it a string: its `to_s`.
fn key_text(key: &Value) -> String {
    match key {
        Value::String(s) => s.to_string(),
        Value::Undef => String::new(),
        Value::Float(f) => ruby_float(*f),
        Value::Array(_) | Value::Hash(_) => crate::format::ruby_inspect(key),
        other => ruby_to_s(other),
    }
}

/// Ruby's `to_s` of the values Puppet hands over as Ruby objects: the
/// default value is the symbol `default`, a regexp prints with its flags.
fn ruby_to_s(value: &Value) -> String {
    match value {
        Value::Regexp(r) => format!("(?-mix:{})", r.source()),
        Value::Sensitive(_) => "Sensitive [value redacted]".into(),
        other => to_s(other),
    }
}

/// A JSON string: quotes, backslashes and control characters escaped,
/// everything else (`/` and non-ASCII text too) as it is, as Ruby's JSON
/// writes strings.
pub fn string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn hash(pairs: Vec<(&str, Value)>) -> Value {
        Value::hash(
            pairs
                .into_iter()
                .map(|(k, v)| (Value::string(k), v))
                .collect(),
        )
    }

    #[test]
    fn compact_as_ruby_generates() {
        let v = hash(vec![
            (
                "a",
                Value::array(vec![Value::Integer(1), Value::Float(2.5), Value::Undef]),
            ),
            ("b", Value::string("x\"y\n/\u{1}")),
        ]);
        assert_eq!(
            generate(&v, &JsonStyle::compact()).unwrap(),
            r#"{"a":[1,2.5,null],"b":"x\"y\n/\u0001"}"#
        );
    }

    #[test]
    fn pretty_lays_out_empty_collections_as_ruby_does() {
        let v = hash(vec![("a", Value::array(vec![])), ("b", hash(vec![]))]);
        assert_eq!(
            generate(&v, &JsonStyle::pretty()).unwrap(),
            "{\n  \"a\": [\n\n  ],\n  \"b\": {\n  }\n}"
        );
        assert_eq!(
            generate(&Value::array(vec![]), &JsonStyle::pretty()).unwrap(),
            "[\n\n]"
        );
    }
}

//! Values as Ruby's YAML writer (Psych 4 on libyaml, as Puppet 7 runs
//! it) dumps them: what `puppet lookup` prints and stdlib's `to_yaml`
//! returns. Psych quotes a string whenever reading it back would give
//! something else, which this module decides with the parser beside it.

use marionette_values::Value;
use marionette_values::format::{ruby_float, to_s};

/// A value as Ruby's YAML writer (Psych) dumps it: `---` then the value.
pub fn dump(value: &Value) -> String {
    let mut out = String::from("---");
    match value {
        Value::Array(items) if !items.is_empty() => {
            out.push('\n');
            yaml_block(&mut out, value, 0);
        }
        Value::Hash(hash) if !hash.is_empty() => {
            out.push('\n');
            yaml_block(&mut out, value, 0);
        }
        other => push_scalar(&mut out, other, 0),
    }
    out
}

fn yaml_block(out: &mut String, value: &Value, indent: usize) {
    let pad = " ".repeat(indent);
    match value {
        Value::Array(items) => {
            for item in items.iter() {
                out.push_str(&pad);
                out.push('-');
                yaml_child(out, item, indent, true);
            }
        }
        Value::Hash(hash) => {
            for (k, v) in hash.iter() {
                out.push_str(&pad);
                out.push_str(&yaml_scalar(k));
                out.push(':');
                yaml_child(out, v, indent, false);
            }
        }
        _ => {}
    }
}

fn yaml_child(out: &mut String, value: &Value, indent: usize, in_list: bool) {
    match value {
        Value::Array(items) if !items.is_empty() => {
            out.push('\n');
            // Psych writes a list inside a hash at the hash's indentation.
            yaml_block(out, value, if in_list { indent + 2 } else { indent });
        }
        Value::Hash(hash) if !hash.is_empty() => {
            if in_list {
                // The first key goes on the dash's line.
                let mut inner = String::new();
                yaml_block(&mut inner, value, indent + 2);
                out.push(' ');
                out.push_str(inner.trim_start());
            } else {
                out.push('\n');
                yaml_block(out, value, indent + 2);
            }
        }
        Value::Array(_) => out.push_str(" []\n"),
        Value::Hash(_) => out.push_str(" {}\n"),
        Value::String(s) if literal(s) => {
            // A literal block, indented under its key or dash.
            let body = s.trim_end_matches('\n');
            let trailing = s.len() - body.len();
            out.push_str(match trailing {
                0 => " |-\n",
                1 => " |\n",
                _ => " |+\n",
            });
            let pad = " ".repeat(indent + 2);
            for line in body.split('\n') {
                if !line.is_empty() {
                    out.push_str(&pad);
                    out.push_str(line);
                }
                out.push('\n');
            }
            for _ in 1..trailing {
                out.push('\n');
            }
        }
        other => push_scalar(out, other, indent),
    }
}

/// A scalar after its key, dash or `---`, and the end of its line. Like
/// libyaml, a plain or single-quoted scalar that runs past 80 columns is
/// folded at a space onto lines indented under the block at `indent`.
fn push_scalar(out: &mut String, value: &Value, indent: usize) {
    let scalar = yaml_scalar(value);
    if !scalar.is_empty() {
        out.push(' ');
        if scalar.starts_with('"') {
            out.push_str(&scalar);
        } else if scalar.starts_with('\'') && scalar.contains('\n') {
            single_over_lines(out, &scalar, indent + 2);
        } else {
            // libyaml counts characters, not bytes.
            let column = out[out.rfind('\n').map_or(0, |i| i + 1)..].chars().count();
            fold(out, &scalar, column, indent + 2);
        }
    }
    out.push('\n');
}

/// A single-quoted scalar with line breaks as libyaml writes it: a break
/// doubled where a run of them starts, the text after a break indented.
fn single_over_lines(out: &mut String, quoted: &str, indent: usize) {
    let mut after_break = false;
    for c in quoted.chars() {
        if c == '\n' {
            if !after_break {
                out.push('\n');
            }
            out.push('\n');
            after_break = true;
        } else {
            if after_break {
                out.push_str(&" ".repeat(indent));
            }
            out.push(c);
            after_break = false;
        }
    }
}

/// The width past which libyaml folds a scalar.
const BEST_WIDTH: usize = 80;

/// libyaml's folding of a plain or single-quoted scalar: at a lone space
/// once the line is past the best width (never at the quoted text's first
/// or last character), the line breaks and the rest is indented.
fn fold(out: &mut String, scalar: &str, mut column: usize, indent: usize) {
    let quoted = scalar.starts_with('\'');
    let chars: Vec<char> = scalar.chars().collect();
    let mut after_space = false;
    for (i, &c) in chars.iter().enumerate() {
        if c == ' ' {
            let inner = !quoted || (i != 1 && i + 2 != chars.len());
            let next_is_space = chars.get(i + 1) == Some(&' ');
            if !after_space && column > BEST_WIDTH && inner && !next_is_space {
                out.push('\n');
                out.push_str(&" ".repeat(indent));
                column = indent;
            } else {
                out.push(c);
                column += 1;
            }
            after_space = true;
        } else {
            out.push(c);
            column += 1;
            after_space = false;
        }
    }
}

/// Psych writes text with a line break before its end as a literal block.
fn literal(s: &str) -> bool {
    s.match_indices('\n')
        .any(|(i, _)| !matches!(&s[i + 1..], "" | "\n"))
}

/// A scalar as Psych writes it: a string that would read back as
/// something else is single-quoted; one that starts with a character that
/// is not a word character (and has no double quote), or a lone `y` or
/// `n`, is double-quoted; text over lines is a literal block.
fn yaml_scalar(value: &Value) -> String {
    match value {
        Value::Undef => String::new(),
        Value::Boolean(b) => b.to_string(),
        Value::Integer(i) => i.to_string(),
        Value::Float(f) if f.is_nan() => ".nan".into(),
        Value::Float(f) if f.is_infinite() => if *f > 0.0 { ".inf" } else { "-.inf" }.into(),
        Value::Float(f) => ruby_float(*f),
        Value::String(s) => yaml_string(s, value),
        other => ruby_to_s(other),
    }
}

/// Psych's `/^[^[:word:]][^"]*$/`: some line starts with a character
/// that is not a word character and has no double quote after it before
/// the line's end.
fn non_word_line(s: &str) -> bool {
    let starts = std::iter::once(0).chain(s.match_indices('\n').map(|(i, _)| i + 1));
    starts.filter(|&p| p < s.len()).any(|p| {
        let mut chars = s[p..].chars();
        let first = chars.next().unwrap_or('a');
        let rest = chars.as_str();
        let line = rest.split('\n').next().unwrap_or("");
        let word = first.is_alphanumeric() || first == '_';
        !word && !line.contains('"')
    })
}

fn yaml_string(s: &str, value: &Value) -> String {
    let double = |s: &str| {
        let mut out = String::from("\"");
        for c in s.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                '\t' => out.push_str("\\t"),
                '\r' => out.push_str("\\r"),
                c if (c as u32) < 0x20 => out.push_str(&format!("\\x{:02X}", c as u32)),
                c => out.push(c),
            }
        }
        out.push('"');
        out
    };
    let single = |s: &str| format!("'{}'", s.replace('\'', "''"));
    // Psych 4 (Ruby 3.1's) quotes only the lower-case letters, which
    // YAML 1.1 would read as booleans.
    if matches!(s, "y" | "n") {
        return double(s);
    }
    if non_word_line(s) {
        return double(s);
    }
    if s.contains('\n') {
        // libyaml writes no plain scalar over lines: it single-quotes it.
        return single(s);
    }
    let reads_back = matches!(
        super::parse(&format!("k: {s}\n")),
        Ok(Value::Hash(ref h)) if h.get(&Value::string("k")) == Some(value)
    );
    // What the emitter cannot write plain.
    let unsafe_plain = s.is_empty()
        || s.starts_with([
            '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%',
            '@', '`',
        ])
        || s.starts_with(' ')
        || s.ends_with(' ')
        || s.contains(": ")
        || s.contains(" #")
        || s.ends_with(':');
    if reads_back && !unsafe_plain {
        s.to_string()
    } else {
        single(s)
    }
}

/// Ruby's `to_s` of a value that is not YAML data of its own.
fn ruby_to_s(value: &Value) -> String {
    match value {
        Value::Sensitive(_) => "Sensitive [value redacted]".to_string(),
        other => to_s(other),
    }
}

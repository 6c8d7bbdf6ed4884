//! stdlib's functions of strings: `stdlib::start_with`,
//! `stdlib::end_with` and `shell_escape`.

use std::collections::HashMap;

use marionette_values::Value;
use marionette_values::format::to_s;

use crate::error::EvalResult;
use crate::evaluator::Evaluator;
use crate::functions::{Builtin, Call};

pub(super) fn register(map: &mut HashMap<&'static str, Builtin>) {
    map.insert("stdlib::start_with", start_with);
    map.insert("stdlib::end_with", end_with);
    map.insert("shell_escape", shell_escape);
}

/// The string and the prefixes or suffixes to test it with.
fn affixes(call: &Call<'_, '_>, parameter: &str) -> EvalResult<(String, Vec<String>)> {
    call.arity(2, Some(2))?;
    let text = call.string(0, "test_string")?;
    let affixes = match &call.args[1] {
        Value::String(s) if !s.is_empty() => vec![s.to_string()],
        Value::Array(items) if !items.is_empty() => {
            let mut out = Vec::new();
            for item in items.iter() {
                match item {
                    Value::String(s) if !s.is_empty() => out.push(s.to_string()),
                    _ => {
                        return call.mismatch(
                            parameter,
                            "Variant[String[1], Array[String[1], 1]]",
                            1,
                        );
                    }
                }
            }
            out
        }
        _ => return call.mismatch(parameter, "Variant[String[1], Array[String[1], 1]]", 1),
    };
    Ok((text, affixes))
}

fn start_with(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    let (text, prefixes) = affixes(call, "prefixes")?;
    Ok(Value::Boolean(
        prefixes.iter().any(|p| text.starts_with(p.as_str())),
    ))
}

fn end_with(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    let (text, suffixes) = affixes(call, "suffixes")?;
    Ok(Value::Boolean(
        suffixes.iter().any(|s| text.ends_with(s.as_str())),
    ))
}

/// A value's text made safe for a POSIX shell, as Ruby's
/// `Shellwords.escape`: every character outside a safe set gets a
/// backslash, a line break becomes `'\n'` and the empty string `''`.
fn shell_escape(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    call.arity(1, Some(1))?;
    let text = match &call.args[0] {
        Value::Undef => String::new(),
        other => to_s(other),
    };
    Ok(Value::string(escape(&text)))
}

pub(crate) fn escape(text: &str) -> String {
    if text.is_empty() {
        return "''".to_string();
    }
    let mut out = String::with_capacity(text.len() * 2);
    for c in text.chars() {
        match c {
            'A'..='Z' | 'a'..='z' | '0'..='9' | '_' | '-' | '.' | ',' | ':' | '+' | '/' | '@' => {
                out.push(c)
            }
            '\n' => out.push_str("'\n'"),
            c => {
                out.push('\\');
                out.push(c);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn escapes_as_shellwords_does() {
        assert_eq!(super::escape(""), "''");
        assert_eq!(super::escape("a b'c"), "a\\ b\\'c");
        assert_eq!(super::escape("/usr/bin:x,y@z+1"), "/usr/bin:x,y@z+1");
        assert_eq!(super::escape("a\nb"), "a'\n'b");
    }
}

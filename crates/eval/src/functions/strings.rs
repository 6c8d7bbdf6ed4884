//! String functions: case and whitespace (`upcase`, `downcase`,
//! `capitalize`, `camelcase`, `strip`, `lstrip`, `rstrip`, `chomp`, `chop`),
//! `split`, `join`, `regsubst`, `match`, `sprintf`, `shellquote`.
//!
//! The case and whitespace functions also take arrays and hashes and apply
//! themselves to every string inside, as Puppet's do.

use std::collections::HashMap;

use marionette_values::format::{float_to_string, to_s};
use marionette_values::{PHash, PType, Regex, Value};

use super::{Builtin, Call};
use crate::error::EvalResult;
use crate::evaluator::Evaluator;

pub(super) fn register(map: &mut HashMap<&'static str, Builtin>) {
    map.insert("upcase", |e, c| transform(e, c, |s| s.to_uppercase()));
    map.insert("downcase", |e, c| transform(e, c, |s| s.to_lowercase()));
    map.insert("capitalize", |e, c| transform(e, c, capitalize));
    map.insert("camelcase", |e, c| {
        transform(e, c, |s| s.split('_').map(capitalize).collect())
    });
    map.insert("strip", |e, c| transform(e, c, |s| s.trim().to_string()));
    map.insert("lstrip", |e, c| {
        transform(e, c, |s| s.trim_start().to_string())
    });
    map.insert("rstrip", |e, c| {
        transform(e, c, |s| s.trim_end().to_string())
    });
    map.insert("chomp", |e, c| transform(e, c, chomp));
    map.insert("chop", |e, c| transform(e, c, chop));
    map.insert("split", split);
    map.insert("join", join);
    map.insert("regsubst", regsubst);
    map.insert("match", match_fn);
    map.insert("sprintf", sprintf);
    map.insert("shellquote", shellquote);
}

fn capitalize(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first
            .to_uppercase()
            .chain(chars.flat_map(char::to_lowercase))
            .collect(),
        None => String::new(),
    }
}

fn chomp(text: &str) -> String {
    text.strip_suffix("\r\n")
        .or_else(|| text.strip_suffix('\n'))
        .or_else(|| text.strip_suffix('\r'))
        .unwrap_or(text)
        .to_string()
}

fn chop(text: &str) -> String {
    if let Some(rest) = text.strip_suffix("\r\n") {
        return rest.to_string();
    }
    let mut chars = text.chars();
    chars.next_back();
    chars.as_str().to_string()
}

fn apply(value: &Value, f: fn(&str) -> String) -> Option<Value> {
    match value {
        Value::String(s) => Some(Value::string(f(s))),
        Value::Array(items) => items
            .iter()
            .map(|v| apply(v, f))
            .collect::<Option<Vec<_>>>()
            .map(Value::array),
        Value::Hash(hash) => hash
            .iter()
            .map(|(k, v)| Some((apply(k, f)?, apply(v, f)?)))
            .collect::<Option<PHash>>()
            .map(Value::hash),
        Value::Integer(_) | Value::Float(_) | Value::Boolean(_) | Value::Undef => {
            Some(value.clone())
        }
        _ => None,
    }
}

fn transform(
    _eval: &mut Evaluator<'_>,
    call: &mut Call<'_, '_>,
    f: fn(&str) -> String,
) -> EvalResult<Value> {
    call.arity(1, Some(1))?;
    // Values that are not strings pass through unchanged, as in Puppet.
    match apply(&call.args[0], f) {
        Some(value) => Ok(value),
        None => call.mismatch("arg", "String", 0),
    }
}

/// A pattern argument: a regex, a type `Regexp[/x/]`, or a string taken as
/// a regex (as Puppet's `split` and `regsubst` do).
fn pattern(call: &Call<'_, '_>, index: usize, flags: (bool, bool, bool)) -> EvalResult<Regex> {
    let source = match call.args.get(index) {
        Some(Value::Regexp(r)) if flags == (false, false, false) => return Ok(r.clone()),
        Some(Value::Regexp(r)) => r.source().to_string(),
        Some(Value::String(s)) => s.to_string(),
        Some(Value::Type(t)) => match t.resolved() {
            PType::Regexp(Some(r)) => r.source().to_string(),
            _ => return call.mismatch("pattern", "String, Regexp, or Type[Regexp]", index),
        },
        _ => return call.mismatch("pattern", "String, Regexp, or Type[Regexp]", index),
    };
    match Regex::with_flags(&source, flags.0, flags.1, flags.2) {
        Ok(regex) => Ok(regex),
        Err(message) => call.error(format_args!("{message}: /{source}/")),
    }
}

fn split(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    call.arity(2, Some(2))?;
    let text = call.string(0, "str")?;
    let regex = pattern(call, 1, (false, false, false))?;
    Ok(Value::array(
        regex.split(&text).into_iter().map(Value::string).collect(),
    ))
}

fn join(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    call.arity(1, Some(2))?;
    let separator = match call.args.get(1) {
        Some(Value::String(s)) => s.to_string(),
        Some(_) => return call.mismatch("delimiter", "String", 1),
        None => String::new(),
    };
    fn flatten(value: &Value, out: &mut Vec<String>) {
        match value {
            Value::Array(items) => items.iter().for_each(|v| flatten(v, out)),
            // A hash inside is shown the way Ruby's `join` shows it.
            Value::Hash(_) => out.push(marionette_values::format::ruby_inspect(value)),
            other => out.push(to_s(other)),
        }
    }
    match &call.args[0] {
        Value::Array(items) => {
            let mut parts = Vec::new();
            items.iter().for_each(|v| flatten(v, &mut parts));
            Ok(Value::string(parts.join(&separator)))
        }
        _ => call.mismatch("arg", "Array", 0),
    }
}

fn regsubst(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    call.arity(3, Some(5))?;
    let replacement = call.string(2, "replacement")?;
    let flags = match call.args.get(3) {
        Some(Value::String(s)) => s.to_string(),
        Some(Value::Undef) | None => String::new(),
        Some(_) => return call.mismatch("flags", "String", 3),
    };
    let mut global = false;
    let mut regex_flags = (false, false, false);
    for flag in flags.chars() {
        match flag {
            'G' => global = true,
            'I' => regex_flags.0 = true,
            'M' => regex_flags.1 = true,
            'E' => regex_flags.2 = true,
            other => return call.error(format_args!("regsubst(): bad flag `{other}`")),
        }
    }
    let regex = pattern(call, 1, regex_flags)?;
    match &call.args[0] {
        Value::String(text) => Ok(Value::string(regex.replace(text, &replacement, global))),
        Value::Array(items) => items
            .iter()
            .map(|item| match item {
                Value::String(text) => Ok(Value::string(regex.replace(text, &replacement, global))),
                _ => call.mismatch("target", "Array or String", 0),
            })
            .collect::<EvalResult<Vec<_>>>()
            .map(Value::array),
        _ => call.mismatch("target", "Array or String", 0),
    }
}

fn match_fn(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    call.arity(2, Some(2))?;
    // A Pattern type tries its regexes in order.
    if let Value::Type(t) = &call.args[1]
        && let PType::Pattern(patterns) = t.resolved()
        && let Value::String(text) = &call.args[0]
    {
        let found = patterns.iter().find_map(|regex| regex.captures(text));
        return Ok(found.map_or(Value::Undef, |groups| {
            Value::array(
                groups
                    .into_iter()
                    .map(|g| g.map_or(Value::Undef, Value::string))
                    .collect(),
            )
        }));
    }
    let regex = pattern(call, 1, (false, false, false))?;
    let one = |text: &str| match regex.captures(text) {
        Some(groups) => Value::array(
            groups
                .into_iter()
                .map(|g| g.map_or(Value::Undef, Value::string))
                .collect(),
        ),
        None => Value::Undef,
    };
    match &call.args[0] {
        Value::String(text) => Ok(one(text)),
        Value::Array(items) => items
            .iter()
            .map(|item| match item {
                Value::String(text) => Ok(one(text)),
                _ => call.mismatch("string", "String or Array", 0),
            })
            .collect::<EvalResult<Vec<_>>>()
            .map(Value::array),
        _ => call.mismatch("string", "String or Array", 0),
    }
}

fn shellquote(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    const SAFE: &str = "@%_+=:,./-";
    const DANGEROUS: &str = "!\"`$\\";
    let mut words = Vec::new();
    fn flatten(value: &Value, out: &mut Vec<String>) {
        match value {
            Value::Array(items) => items.iter().for_each(|v| flatten(v, out)),
            other => out.push(to_s(other)),
        }
    }
    call.args.iter().for_each(|v| flatten(v, &mut words));
    let quoted: Vec<String> = words
        .into_iter()
        .map(|word| {
            if !word.is_empty()
                && word
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || SAFE.contains(c))
            {
                word
            } else if !word.chars().any(|c| DANGEROUS.contains(c)) {
                format!("\"{word}\"")
            } else if !word.contains('\'') {
                format!("'{word}'")
            } else {
                let mut out = String::from("\"");
                for c in word.chars() {
                    if DANGEROUS.contains(c) {
                        out.push('\\');
                    }
                    out.push(c);
                }
                out.push('"');
                out
            }
        })
        .collect();
    Ok(Value::string(quoted.join(" ")))
}

/// Ruby's `format`: `%[flags][width][.precision]type` with `%<name>s` and
/// `%{name}` taking values from a hash argument.
fn sprintf(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    call.arity(1, None)?;
    call.string(0, "format")?;
    match format_values(&call.args) {
        Ok(text) => Ok(Value::string(text)),
        Err(message) => call.error(message),
    }
}

/// Formats `values[1..]` with the format string `values[0]`.
pub(crate) fn format_values(values: &[Value]) -> Result<String, String> {
    let format = match values.first() {
        Some(Value::String(format)) => format.clone(),
        _ => return Err("the format must be a String".into()),
    };
    let args = &values[1..];
    let mut out = String::new();
    let mut next_arg = 0;
    let mut chars = format.chars().peekable();
    while let Some(ch) = chars.next() {
        if ch != '%' {
            out.push(ch);
            continue;
        }
        if chars.peek() == Some(&'%') {
            chars.next();
            out.push('%');
            continue;
        }
        let mut spec = Spec::default();
        let mut named: Option<Value> = None;
        loop {
            match chars.peek() {
                Some('-') => spec.left = true,
                Some('+') => spec.plus = true,
                Some(' ') => spec.space = true,
                Some('0') => spec.zero = true,
                Some('#') => spec.alternate = true,
                Some('<') | Some('{') => {
                    let close = if chars.peek() == Some(&'<') { '>' } else { '}' };
                    let braces = close == '}';
                    chars.next();
                    let name: String = chars.by_ref().take_while(|c| *c != close).collect();
                    let value = match args.first() {
                        Some(Value::Hash(hash)) => hash.get(&Value::string(name.clone())).cloned(),
                        _ => None,
                    };
                    let Some(value) = value else {
                        return Err(format!("key<{name}> not found"));
                    };
                    if braces {
                        out.push_str(&to_s(&value));
                        named = None;
                        spec.done = true;
                        break;
                    }
                    named = Some(value);
                    continue;
                }
                _ => break,
            }
            chars.next();
        }
        if spec.done {
            continue;
        }
        // `*` takes the width (or, after `.`, the precision) from the
        // next argument; a negative width left-justifies.
        let star = |next_arg: &mut usize| -> Result<i64, String> {
            let value = args.get(*next_arg).ok_or("too few arguments")?;
            *next_arg += 1;
            integer_arg(value)
        };
        let mut width = String::new();
        if chars.peek() == Some(&'*') {
            chars.next();
            let given = star(&mut next_arg)?;
            spec.left |= given < 0;
            width = given.unsigned_abs().to_string();
        }
        while let Some(c) = chars.peek().filter(|c| c.is_ascii_digit()) {
            width.push(*c);
            chars.next();
        }
        spec.width = format_size(&width, "width")?;
        let mut precision = None;
        if chars.peek() == Some(&'.') {
            chars.next();
            let mut digits = String::new();
            while let Some(c) = chars.peek().filter(|c| c.is_ascii_digit()) {
                digits.push(*c);
                chars.next();
            }
            precision = Some(format_size(&digits, "precision")?);
            if digits.is_empty() && chars.peek() == Some(&'*') {
                chars.next();
                // A negative precision counts as none.
                precision = match u64::try_from(star(&mut next_arg)?) {
                    Ok(given) => Some(format_size(&given.to_string(), "precision")?),
                    Err(_) => None,
                };
            }
        }
        let Some(conversion) = chars.next() else {
            return Err("incomplete format specifier; use %% (double %) instead".into());
        };
        let value = match named {
            Some(value) => value,
            None => {
                let Some(value) = args.get(next_arg) else {
                    return Err("too few arguments".into());
                };
                next_arg += 1;
                value.clone()
            }
        };
        spec.precision = precision;
        let body = format_one(conversion, &value, &spec)?;
        out.push_str(&pad(
            body,
            &spec,
            matches!(
                conversion,
                'd' | 'i' | 'f' | 'e' | 'E' | 'g' | 'G' | 'x' | 'X' | 'o' | 'b' | 'B'
            ),
        ));
    }
    Ok(out)
}

/// The widest field and the longest precision a format may ask for, in
/// characters: Ruby formats up to 2^31 - 1 ("width too big" beyond), which
/// takes gigabytes and aborts a smaller machine's process. Ten million is
/// far beyond any real use.
const MAX_FORMAT_SIZE: usize = 10_000_000;

/// A width or precision written as `digits` (empty for none), refused past
/// [`MAX_FORMAT_SIZE`] in Ruby's words ("width too big").
fn format_size(digits: &str, what: &str) -> Result<usize, String> {
    // Leading zeros are flags, already taken: the digits are the number.
    match digits.parse::<usize>() {
        Ok(size) if size <= MAX_FORMAT_SIZE => Ok(size),
        Err(_) if digits.is_empty() => Ok(0),
        _ => Err(format!("{what} too big")),
    }
}

#[derive(Default)]
struct Spec {
    left: bool,
    plus: bool,
    space: bool,
    zero: bool,
    alternate: bool,
    width: usize,
    precision: Option<usize>,
    done: bool,
}

fn integer_arg(value: &Value) -> Result<i64, String> {
    match value {
        Value::Integer(i) => Ok(*i),
        Value::Float(f) => Ok(f.floor() as i64),
        Value::String(s) => crate::operators::parse_number(s)
            .map(|n| match n {
                crate::operators::Number::Integer(i) => i,
                crate::operators::Number::Float(f) => f as i64,
            })
            .ok_or_else(|| format!("invalid value for Integer(): \"{s}\"")),
        other => Err(format!(
            "can't convert {} into Integer",
            marionette_values::format::type_label(other)
        )),
    }
}

fn float_arg(value: &Value) -> Result<f64, String> {
    match value {
        Value::Integer(i) => Ok(*i as f64),
        Value::Float(f) => Ok(*f),
        Value::String(s) => s
            .trim()
            .parse::<f64>()
            .map_err(|_| format!("invalid value for Float(): \"{s}\"")),
        other => Err(format!(
            "can't convert {} into Float",
            marionette_values::format::type_label(other)
        )),
    }
}

fn signed(number: String, negative: bool, spec: &Spec) -> String {
    if negative {
        format!("-{number}")
    } else if spec.plus {
        format!("+{number}")
    } else if spec.space {
        format!(" {number}")
    } else {
        number
    }
}

fn format_one(conversion: char, value: &Value, spec: &Spec) -> Result<String, String> {
    Ok(match conversion {
        'd' | 'i' | 'u' => {
            let i = integer_arg(value)?;
            signed(i.unsigned_abs().to_string(), i < 0, spec)
        }
        'x' | 'X' | 'o' | 'b' | 'B' => {
            let i = integer_arg(value)?;
            let magnitude = i.unsigned_abs();
            let (digits, prefix) = match conversion {
                'x' => (format!("{magnitude:x}"), "0x"),
                'X' => (format!("{magnitude:X}"), "0X"),
                'o' => (format!("{magnitude:o}"), "0"),
                'b' => (format!("{magnitude:b}"), "0b"),
                _ => (format!("{magnitude:b}"), "0B"),
            };
            let digits = if spec.alternate {
                format!("{prefix}{digits}")
            } else {
                digits
            };
            signed(digits, i < 0, spec)
        }
        'f' => {
            let f = float_arg(value)?;
            signed(
                fixed(f.abs(), spec.precision.unwrap_or(6)),
                f.is_sign_negative() && f != 0.0,
                spec,
            )
        }
        'e' | 'E' => {
            let f = float_arg(value)?;
            let text = ruby_exponent(f.abs(), spec.precision.unwrap_or(6));
            let text = if conversion == 'E' {
                text.to_uppercase()
            } else {
                text
            };
            signed(text, f.is_sign_negative() && f != 0.0, spec)
        }
        'g' | 'G' => {
            let f = float_arg(value)?;
            let precision = spec.precision.unwrap_or(6).max(1);
            let exponent = if f == 0.0 {
                0
            } else {
                f.abs().log10().floor() as i32
            };
            let text = if exponent < -4 || exponent >= precision as i32 {
                let mut text = ruby_exponent(f.abs(), precision - 1);
                if !spec.alternate
                    && let Some(e) = text.find('e')
                {
                    let (mantissa, exp) = text.split_at(e);
                    let mantissa = if mantissa.contains('.') {
                        mantissa.trim_end_matches('0').trim_end_matches('.')
                    } else {
                        mantissa
                    };
                    text = format!("{mantissa}{exp}");
                }
                text
            } else {
                let decimals = (precision as i32 - 1 - exponent).max(0) as usize;
                let text = fixed(f.abs(), decimals);
                if text.contains('.') && !spec.alternate {
                    text.trim_end_matches('0').trim_end_matches('.').to_string()
                } else {
                    text
                }
            };
            let text = if conversion == 'G' {
                text.to_uppercase()
            } else {
                text
            };
            signed(text, f.is_sign_negative() && f != 0.0, spec)
        }
        's' => {
            let text = match value {
                Value::Array(_) | Value::Hash(_) => marionette_values::format::ruby_inspect(value),
                other => to_s(other),
            };
            match spec.precision {
                Some(p) => text.chars().take(p).collect(),
                None => text,
            }
        }
        'p' => match value {
            Value::Float(f) => float_to_string(*f),
            other => marionette_values::format::ruby_inspect(other),
        },
        'c' => match value {
            Value::Integer(i) => u32::try_from(*i)
                .ok()
                .and_then(char::from_u32)
                .map(String::from)
                .unwrap_or_default(),
            Value::String(text) if text.chars().count() == 1 => text.to_string(),
            _ => return Err("%c requires a character".into()),
        },
        other => return Err(format!("malformed format string - %{other}")),
    })
}

/// Rust's formatting panics past a precision of 65,535; a float has no
/// nonzero digit after its 1,074th decimal (767th significant digit), so
/// the digits past those are zeros written here.
const FLOAT_DIGITS: usize = 1100;

/// `value` with `precision` decimals, as `%.*f`.
fn fixed(value: f64, precision: usize) -> String {
    let mut text = format!("{:.*}", precision.min(FLOAT_DIGITS), value);
    text.extend(std::iter::repeat_n(
        '0',
        precision.saturating_sub(FLOAT_DIGITS),
    ));
    text
}

fn ruby_exponent(value: f64, precision: usize) -> String {
    let mut text = format!("{:.*e}", precision.min(FLOAT_DIGITS), value);
    if let Some(e) = text.find('e') {
        let zeros = "0".repeat(precision.saturating_sub(FLOAT_DIGITS));
        text.insert_str(e, &zeros);
    }
    match text.split_once('e') {
        Some((mantissa, exponent)) => {
            let exponent: i32 = exponent.parse().unwrap_or(0);
            format!(
                "{mantissa}e{}{:02}",
                if exponent < 0 { '-' } else { '+' },
                exponent.abs()
            )
        }
        None => text,
    }
}

fn pad(body: String, spec: &Spec, numeric: bool) -> String {
    let length = body.chars().count();
    if length >= spec.width {
        return body;
    }
    let fill = spec.width - length;
    if spec.left {
        format!("{body}{}", " ".repeat(fill))
    } else if spec.zero && numeric {
        let (sign, digits) = match body.chars().next() {
            Some(c @ ('-' | '+' | ' ')) => (c.to_string(), body[1..].to_string()),
            _ => (String::new(), body),
        };
        format!("{sign}{}{digits}", "0".repeat(fill))
    } else {
        format!("{}{body}", " ".repeat(fill))
    }
}

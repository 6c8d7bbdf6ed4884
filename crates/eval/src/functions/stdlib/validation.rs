//! stdlib's deprecation warnings and its legacy validators: `deprecation`,
//! `validate_legacy`, the `validate_*` functions that fail compilation
//! on a bad value and the `is_*` functions that test one. stdlib wraps
//! each old validator in a newer function that first warns that it is
//! deprecated; `validate_legacy` runs the old one without that warning.

use std::collections::HashMap;

use marionette_values::format::{ruby_class, ruby_inspect, ruby_string};
use marionette_values::{PType, Regex, Value};

use super::collections::ruby_to_s;
use super::formats::typed;
use crate::error::EvalResult;
use crate::evaluator::{Evaluator, Level, LogEntry, mismatch_text};
use crate::functions::{Builtin, Call};

pub(super) fn register(map: &mut HashMap<&'static str, Builtin>) {
    map.insert("deprecation", deprecation);
    map.insert("validate_legacy", validate_legacy);
    map.insert("validate_absolute_path", |e, c| {
        wrapped(e, c, "Stdlib::Compat::Absolute_Path")
    });
    map.insert("validate_array", |e, c| {
        wrapped(e, c, "Stdlib::Compat::Array")
    });
    map.insert("validate_bool", |e, c| {
        wrapped(e, c, "Stdlib::Compat::Bool")
    });
    map.insert("validate_hash", |e, c| {
        wrapped(e, c, "Stdlib::Compat::Hash")
    });
    map.insert("validate_integer", |e, c| {
        wrapped(e, c, "Stdlib::Compat::Integer")
    });
    map.insert("validate_re", |e, c| wrapped(e, c, "Pattern[]"));
    map.insert("validate_string", |e, c| {
        wrapped(e, c, "Stdlib::Compat::String")
    });
    map.insert("is_absolute_path", |e, c| {
        wrapped(e, c, "Stdlib::Compat::Absolute_Path")
    });
    map.insert("is_array", |e, c| wrapped(e, c, "Stdlib::Compat::Array"));
    map.insert("is_bool", |e, c| wrapped(e, c, "Stdlib::Compat::Bool"));
    map.insert("is_numeric", |e, c| {
        wrapped(e, c, "Stdlib::Compat::Numeric")
    });
    map.insert("is_string", |e, c| wrapped(e, c, "Stdlib::Compat::String"));
    // Only the old function exists for these two, and it warns only when
    // STDLIB_LOG_DEPRECATIONS asks for it, which nobody sets.
    map.insert("is_hash", old_only);
    map.insert("is_integer", old_only);
}

/// A warning, once per key, that something is deprecated, naming the two
/// innermost frames of Puppet's stack as stdlib does (`at ["f.pp",
/// 3]:["f.pp", 0]`). Puppet prints where in stdlib's Ruby it was warned
/// on the next line.
///
/// stdlib 9's takes a third argument, whether Puppet's `strict` setting
/// rules the warning; under Puppet 7's default (`warning`) it warns
/// either way. Older ones take two.
fn deprecation(eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    let takes_strict = deprecation_file(eval)
        .and_then(|file| std::fs::read_to_string(file).ok())
        .is_some_and(|text| text.contains("use_strict_setting"));
    call.arity(2, Some(if takes_strict { 3 } else { 2 }))?;
    let key = call.string(0, "key")?;
    let message = call.string(1, "message")?;
    deprecate(eval, &key, &message);
    Ok(Value::Undef)
}

pub(crate) fn deprecate(eval: &mut Evaluator<'_>, key: &str, message: &str) {
    let frame = |index: usize| {
        let stack = &eval.puppet_stack;
        let (file, span) = stack.get(stack.len().checked_sub(index + 1)?)?;
        let line = span.map_or(0, |span| file.line_col(span.start).line);
        Some(format!("[{}, {line}]", ruby_string(file.name())))
    };
    let message = format!(
        "{message} at {}:{}",
        frame(0).unwrap_or_default(),
        frame(1).unwrap_or_default()
    );
    if std::env::var("STDLIB_LOG_DEPRECATIONS").as_deref() == Ok("false")
        || !eval.deprecations.insert(key.to_string())
    {
        return;
    }
    let location = deprecation_file(eval)
        .and_then(|file| {
            let text = std::fs::read_to_string(&file).ok()?;
            let line = text
                .lines()
                .position(|l| l.contains("Puppet.deprecation_warning("))?;
            Some(format!(
                "\n   (location: {}:{}:in `deprecation')",
                file.display(),
                line + 1
            ))
        })
        .unwrap_or_default();
    eval.logs.push(LogEntry {
        level: Level::Warning,
        source: String::new(),
        message: format!("{message}{location}"),
    });
}

/// stdlib's `deprecation` function, in the stdlib on the module path.
fn deprecation_file(eval: &Evaluator<'_>) -> Option<std::path::PathBuf> {
    eval.loader
        .as_ref()
        .and_then(|loader| loader.module_dir(super::MODULE))
        .map(|dir| dir.join("lib/puppet/functions/deprecation.rb"))
}

/// The newer function around an old validator: the deprecation warning
/// that names the type to use instead, then the old function.
fn wrapped(eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>, instead: &str) -> EvalResult<Value> {
    let name = call.name;
    let message = if name.starts_with("is_") {
        format!(
            "This method is deprecated, please use match expressions with {instead} instead. They are described at https://docs.puppet.com/puppet/latest/reference/lang_data_type.html#match-expressions."
        )
    } else {
        format!(
            "This method is deprecated, please use the stdlib validate_legacy function,\n                    with {instead}. There is further documentation for validate_legacy function in the README."
        )
    };
    deprecate(eval, name, &message);
    old_only(eval, call)
}

fn old_only(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    match old(call.name, &call.args) {
        Some(Ok(value)) => Ok(value),
        Some(Err(message)) => call.error(message),
        None => call.error(format!("Unknown function: '{}'.", call.name)),
    }
}

/// stdlib's old (Puppet 3 API) validator or test of that name on the
/// arguments: its answer, or the message it fails with; `None` for a name
/// it does not have.
fn old(name: &str, args: &[Value]) -> Option<Result<Value, String>> {
    let count = args.len();
    let all = |test: fn(&Value) -> bool, what: &str| {
        if count == 0 {
            return Err(format!(
                "{name}(): wrong number of arguments (0; must be > 0)"
            ));
        }
        match args.iter().find(|v| !test(v)) {
            Some(bad) => Err(format!(
                "{} is not {what}.  It looks to be a {}",
                ruby_inspect(bad),
                ruby_class(bad)
            )),
            None => Ok(Value::Undef),
        }
    };
    let one = |wanted_text: &str| -> Result<&Value, String> {
        match args {
            [value] => Ok(value),
            _ => Err(format!(
                "{name}(): Wrong number of arguments given {wanted_text}"
            )),
        }
    };
    Some(match name {
        "validate_string" => all(|v| matches!(v, Value::String(_) | Value::Undef), "a string"),
        "validate_array" => all(|v| matches!(v, Value::Array(_)), "an Array"),
        "validate_hash" => all(|v| matches!(v, Value::Hash(_)), "a Hash"),
        "validate_bool" => all(|v| matches!(v, Value::Boolean(_)), "a boolean"),
        "validate_absolute_path" => validate_absolute_path(args),
        "validate_integer" => validate_integer(args),
        "validate_re" => validate_re(args),
        "is_string" if count == 0 => {
            Err("is_string(): Wrong number of arguments given (0 for 1)".into())
        }
        "is_string" => Ok(Value::Boolean(match &args[0] {
            Value::Undef => true,
            // A string that reads as a number is not one.
            Value::String(s) => !(ruby_float_to_s_matches(s) || ruby_int_to_s_matches(s)),
            _ => false,
        })),
        "is_array" if count == 0 => {
            Err("is_array(): Wrong number of arguments given (0 for 1)".into())
        }
        "is_array" => Ok(Value::Boolean(matches!(args[0], Value::Array(_)))),
        "is_hash" | "is_bool" if count != 1 => Err(format!(
            "{name}(): Wrong number of arguments given ({count} for 1)"
        )),
        "is_hash" => Ok(Value::Boolean(matches!(args[0], Value::Hash(_)))),
        "is_bool" => Ok(Value::Boolean(matches!(args[0], Value::Boolean(_)))),
        "is_integer" => one(&format!("{count} for 1")).map(|v| {
            Value::Boolean(match v {
                Value::Integer(_) => true,
                Value::String(s) => any_line(s, integer_text),
                _ => false,
            })
        }),
        "is_numeric" => one(&format!("{count} for 1")).map(|v| {
            Value::Boolean(match v {
                Value::Integer(_) | Value::Float(_) => true,
                Value::String(s) => any_line(s, numeric_text),
                _ => false,
            })
        }),
        // Puppet's function takes exactly one argument.
        "is_absolute_path" if count != 1 => Err(format!(
            "is_absolute_path(): Wrong number of arguments given ({count} for 1)"
        )),
        "is_absolute_path" => Ok(Value::Boolean(absolute_path(&args[0]))),
        _ => return None,
    })
}

/// Whether some line of the text matches, as Ruby's `^...$` patterns do.
fn any_line(text: &str, test: fn(&str) -> bool) -> bool {
    text.split('\n').any(test)
}

/// `-?(0|[1-9][0-9]*)`.
fn integer_text(s: &str) -> bool {
    let digits = s.strip_prefix('-').unwrap_or(s);
    digits == "0"
        || (!digits.is_empty()
            && !digits.starts_with('0')
            && digits.bytes().all(|b| b.is_ascii_digit()))
}

/// An integer, then maybe a fraction and an exponent (`-1.5e-3`).
fn numeric_text(s: &str) -> bool {
    let (mantissa, exponent) = match s.find(['e', 'E']) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let (whole, fraction) = match mantissa.split_once('.') {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => (mantissa, None),
    };
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    integer_text(whole)
        && fraction.is_none_or(digits)
        && exponent.is_none_or(|e| digits(e.strip_prefix('-').unwrap_or(e)))
}

/// Whether a string equals Ruby's `to_s` of its `to_i`: the canonical
/// text of an integer.
fn ruby_int_to_s_matches(s: &str) -> bool {
    integer_text(s) && s != "-0"
}

/// Whether a string equals Ruby's `to_s` of its `to_f`, the canonical
/// text of a float (`1.5`, `0.0`).
fn ruby_float_to_s_matches(s: &str) -> bool {
    s.parse::<f64>()
        .is_ok_and(|f| marionette_values::format::ruby_float(f) == s)
}

/// Puppet's test for an absolute path on either POSIX or Windows: a
/// leading `/`, a drive (`C:\`), a share (`\\host\share`) or `\\?\`.
fn absolute_path(value: &Value) -> bool {
    let Value::String(path) = value else {
        return false;
    };
    // Ruby's `^` matches at the start of any line.
    path.split('\n').any(|line| {
        let slash = |c: char| c == '/' || c == '\\';
        let mut chars = line.chars();
        let first = chars.next();
        if first == Some('/') {
            return true;
        }
        let rest: Vec<char> = line.chars().collect();
        let drive =
            rest.len() >= 3 && rest[0].is_ascii_alphabetic() && rest[1] == ':' && slash(rest[2]);
        let unc = rest.len() >= 2 && slash(rest[0]) && slash(rest[1]) && {
            let tail: String = rest[2..].iter().collect();
            let mut parts = tail.splitn(2, ['/', '\\']);
            let host = parts.next().unwrap_or("");
            let share = parts.next();
            (!host.is_empty()
                && share.is_some_and(|s| !s.is_empty() && !slash(s.chars().next().unwrap_or('/'))))
                || (host == "?"
                    && share
                        .is_some_and(|s| !s.is_empty() && !slash(s.chars().next().unwrap_or('/'))))
        };
        drive || unc
    })
}

fn validate_absolute_path(args: &[Value]) -> Result<Value, String> {
    if args.is_empty() {
        return Err("validate_absolute_path(): wrong number of arguments (0; must be > 0)".into());
    }
    for arg in args {
        let candidates = match arg {
            Value::Array(items) => items.to_vec(),
            other => vec![other.clone()],
        };
        if let Some(bad) = candidates.iter().find(|path| !absolute_path(path)) {
            return Err(format!("{} is not an absolute path.", ruby_inspect(bad)));
        }
    }
    Ok(Value::Undef)
}

/// Ruby's `Integer(text)`: an optional sign, then digits in base 10 or
/// with a `0x`, `0b`, `0o` or `0` prefix, single underscores between
/// digits, blanks around.
fn ruby_integer(text: &str) -> Option<i64> {
    let t = text.trim();
    let (negative, t) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let lower = t.to_ascii_lowercase();
    let (radix, digits) = if let Some(d) = lower.strip_prefix("0x") {
        (16, d)
    } else if let Some(d) = lower.strip_prefix("0b") {
        (2, d)
    } else if let Some(d) = lower.strip_prefix("0o") {
        (8, d)
    } else if lower.len() > 1 && lower.starts_with('0') {
        (8, &lower[1..])
    } else {
        (10, lower.as_str())
    };
    if digits.is_empty()
        || digits.starts_with('_')
        || digits.ends_with('_')
        || digits.contains("__")
    {
        return None;
    }
    let value = i64::from_str_radix(&digits.replace('_', ""), radix).ok()?;
    Some(if negative { -value } else { value })
}

fn validate_integer(args: &[Value]) -> Result<Value, String> {
    if args.is_empty() || args.len() > 3 {
        return Err(format!(
            "validate_integer(): Wrong number of arguments; must be 1, 2 or 3, got {}",
            args.len()
        ));
    }
    let input = &args[0];
    let max = match args.get(1) {
        None => None,
        Some(max) => {
            let text = ruby_to_s(max);
            if args.len() > 2 && text.is_empty() {
                None
            } else {
                Some(ruby_integer(&text).ok_or_else(|| {
                    format!("validate_integer(): Expected second argument to be unset or an Integer, got {text}:String")
                })?)
            }
        }
    };
    let min = match args.get(2) {
        None => None,
        Some(min) => Some(ruby_integer(&ruby_to_s(min)).ok_or_else(|| {
            format!(
                "validate_integer(): Expected third argument to be unset or an Integer, got {}:{}",
                ruby_to_s(min),
                ruby_class(min)
            )
        })?),
    };
    if let (Some(min), Some(max)) = (min, max)
        && min > max
    {
        return Err(format!(
            "validate_integer(): Expected second argument to be larger than third argument, got {max} < {min}"
        ));
    }
    let within = |number: i64, shown: &str| {
        if let Some(max) = max.filter(|max| number > *max) {
            return Err(format!(
                "validate_integer(): Expected {shown} to be smaller or equal to {max}, got {shown}."
            ));
        }
        if let Some(min) = min.filter(|min| number < *min) {
            return Err(format!(
                "validate_integer(): Expected {shown} to be greater or equal to {min}, got {shown}."
            ));
        }
        Ok(())
    };
    match input {
        Value::Array(items) => {
            for (position, item) in items.iter().enumerate() {
                let number = match item {
                    Value::Hash(_) => None,
                    other => ruby_integer(&ruby_to_s(other)),
                };
                let Some(number) = number else {
                    return Err(format!(
                        "validate_integer(): Expected element at array position {position} to be an Integer, got {}",
                        ruby_class(item)
                    ));
                };
                within(number, &ruby_inspect(input))?;
            }
        }
        other => {
            let number = match other {
                Value::Hash(_) => None,
                other => ruby_integer(&ruby_to_s(other)),
            };
            let Some(number) = number else {
                return Err(format!(
                    "validate_integer(): Expected first argument to be an Integer or Array, got {}",
                    ruby_class(other)
                ));
            };
            within(number, &number.to_string())?;
        }
    }
    Ok(Value::Undef)
}

fn validate_re(args: &[Value]) -> Result<Value, String> {
    if args.len() < 2 || args.len() > 3 {
        return Err(format!(
            "validate_re(): wrong number of arguments ({}; must be 2 or 3)",
            args.len()
        ));
    }
    let Value::String(text) = &args[0] else {
        return Err(format!(
            "validate_re(): input needs to be a String, not a {}",
            ruby_class(&args[0])
        ));
    };
    let patterns = match &args[1] {
        Value::Array(items) => items.to_vec(),
        other => vec![other.clone()],
    };
    let mut matched = false;
    for pattern in &patterns {
        let regex = match pattern {
            Value::Regexp(r) => Regex::new(r.source()),
            other => Regex::new(&ruby_to_s(other)),
        }
        .map_err(|e| e.to_string())?;
        if regex.is_match(text) {
            matched = true;
            break;
        }
    }
    if matched {
        return Ok(Value::Undef);
    }
    Err(match args.get(2) {
        Some(message) if !message.is_undef() => ruby_to_s(message),
        _ => format!(
            "validate_re(): {} does not match {}",
            ruby_inspect(&args[0]),
            ruby_inspect(&args[1])
        ),
    })
}

/// Checks a value against a type, and against the old validator the
/// code used before: a value both accept passes, one only the type
/// accepts is noticed, one only the validator accepts is a deprecation
/// warning, one neither accepts fails.
fn validate_legacy(eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    call.arity(3, None)?;
    let target = match &call.args[0] {
        Value::Type(t) => (**t).clone(),
        Value::String(text) => type_from_text(eval, call, text)?,
        _ => return call.mismatch("target_type", "Type", 0),
    };
    typed(eval, call, 1, "function_name", "String")?;
    let function = call.string(1, "function_name")?;
    let value = call.args[2].clone();
    let mut old_args = vec![value.clone()];
    old_args.extend(call.args[3..].iter().cloned());
    // The old validator passes unless it fails; one stdlib does not have
    // would fail in Puppet with a Ruby error, which is not a validation.
    let passed_before = !matches!(old(&function, &old_args), Some(Err(_)));
    if target.is_instance(&value) {
        if !passed_before {
            eval.logs.push(LogEntry {
                level: Level::Notice,
                source: String::new(),
                message: format!("Accepting previously invalid value for target type '{target}'"),
            });
        }
        return Ok(Value::Undef);
    }
    let message = format!(
        "validate_legacy({function}) {}",
        mismatch_text(&target, &value)
    );
    if passed_before {
        deprecate(eval, "validate_legacy", &message);
        Ok(Value::Undef)
    } else {
        call.error(message)
    }
}

/// A type written as text (`'Stdlib::Compat::String'`, `'Integer[1]'`);
/// a name alone may be an alias a module defines.
fn type_from_text(eval: &mut Evaluator<'_>, call: &Call<'_, '_>, text: &str) -> EvalResult<PType> {
    let qualified_name = text.split("::").all(|part| {
        part.starts_with(|c: char| c.is_ascii_uppercase())
            && part.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    });
    if qualified_name {
        return eval.resolve_type_name(text, call.span);
    }
    match marionette_values::parse_type(text) {
        Ok(t) => Ok(t),
        Err(_) => call.mismatch("type_string", "Type", 0),
    }
}

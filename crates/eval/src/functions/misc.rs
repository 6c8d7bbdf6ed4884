//! Control flow (`break`, `next`, `return`), `call`, `getvar`,
//! `versioncmp`, `unwrap`, `convert_to`, EPP (`inline_epp`), `generate`
//! (running a command on the compiling host), and the ERB functions, which
//! Marionette refuses with a clear message.

use std::cmp::Ordering;
use std::collections::HashMap;

use marionette_values::Value;

use super::{Builtin, Call};
use crate::error::{EvalResult, Stop};
use crate::evaluator::Evaluator;

pub(super) fn register(map: &mut HashMap<&'static str, Builtin>) {
    map.insert("break", |_, c| Err(Stop::Break(c.span)));
    map.insert("next", |_, c| {
        Err(Stop::Next(
            c.args.first().cloned().unwrap_or(Value::Undef),
            c.span,
        ))
    });
    map.insert("return", |_, c| {
        Err(Stop::Return(
            c.args.first().cloned().unwrap_or(Value::Undef),
            c.span,
        ))
    });
    map.insert("call", call_fn);
    map.insert("getvar", getvar);
    map.insert("versioncmp", versioncmp);
    map.insert("unwrap", unwrap);
    map.insert("convert_to", convert_to);
    map.insert("inline_epp", inline_epp);
    map.insert("strftime", strftime);
    map.insert("template", erb);
    map.insert("inline_template", erb);
    map.insert("annotate", annotate);
    map.insert("generate", generate);
}

fn call_fn<'p>(eval: &mut Evaluator<'p>, call: &mut Call<'_, 'p>) -> EvalResult<Value> {
    call.arity(1, None)?;
    let name = call.string(0, "function")?;
    if !eval.is_function(&name) {
        return call.error(format_args!("Unknown function '{name}'"));
    }
    let args = call.args[1..].to_vec();
    eval.call_function(&name, args, call.lambda, call.span)
}

/// What `getvar` accepts, as Puppet prints it in errors.
const GETVAR_PATTERN: &str = r"Pattern[/\A(?:::)?(?:[a-z]\w*::)*[a-z_]\w*(?:\.|\Z)/]";

/// Whether `text` starts with a variable name (optionally qualified, with a
/// leading `::`) followed by the end or a `.` and a navigation path.
fn is_variable_path(text: &str) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let mut rest = text.strip_prefix("::").unwrap_or(text);
    loop {
        let first = rest.chars().next();
        let length = rest.find(|c: char| !word(c)).unwrap_or(rest.len());
        let (name, after) = rest.split_at(length);
        if let Some(next) = after.strip_prefix("::")
            && first.is_some_and(|c| c.is_ascii_lowercase())
        {
            rest = next;
            continue;
        }
        return !name.is_empty()
            && first.is_some_and(|c| c.is_ascii_lowercase() || c == '_')
            && (after.is_empty() || after.starts_with('.'));
    }
}

fn getvar(eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    call.arity(1, Some(2))?;
    let path = match &call.args[0] {
        Value::String(text) if is_variable_path(text) => text.to_string(),
        Value::String(_) => {
            return call
                .error("'getvar' The given string does not start with a valid variable name");
        }
        other => {
            return call.error(format_args!(
                "'getvar' parameter 'get_string' expects a match for {GETVAR_PATTERN}, got {}",
                marionette_values::PType::infer(other).generalize().name()
            ));
        }
    };
    let default = call.args.get(1).cloned().unwrap_or(Value::Undef);
    let mut segments = path.split('.');
    let name = segments.next().unwrap_or_default().trim_start_matches('$');
    let Some(mut value) = eval.lookup_quietly(name) else {
        return Ok(default);
    };
    for segment in segments {
        let next = match (&value, segment.parse::<usize>()) {
            (Value::Array(items), Ok(i)) => items.get(i).cloned(),
            (Value::Hash(hash), _) => hash.get(&Value::string(segment.to_string())).cloned(),
            _ => None,
        };
        match next {
            Some(next) => value = next,
            None => return Ok(default),
        }
    }
    Ok(value)
}

/// Puppet's version comparison: dots and dashes separate segments, numeric
/// segments compare as numbers (unless zero-padded), others as upper-case
/// text.
pub fn compare_versions(a: &str, b: &str) -> Ordering {
    fn segments(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut chars = text.chars().peekable();
        while let Some(&c) = chars.peek() {
            if c == '-' || c == '.' {
                out.push(c.to_string());
                chars.next();
            } else if c.is_ascii_digit() {
                let mut run = String::new();
                while let Some(&d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                    run.push(d);
                    chars.next();
                }
                out.push(run);
            } else {
                let mut run = String::new();
                while let Some(&d) = chars
                    .peek()
                    .filter(|d| !d.is_ascii_digit() && **d != '-' && **d != '.')
                {
                    run.push(d);
                    chars.next();
                }
                out.push(run);
            }
        }
        out
    }
    let (sa, sb) = (segments(a), segments(b));
    for (x, y) in sa.iter().zip(&sb) {
        if x == y {
            continue;
        }
        let ordering = match (x.as_str(), y.as_str()) {
            ("-", _) => Ordering::Less,
            (_, "-") => Ordering::Greater,
            (".", _) => Ordering::Less,
            (_, ".") => Ordering::Greater,
            _ if x.bytes().all(|c| c.is_ascii_digit()) && y.bytes().all(|c| c.is_ascii_digit()) => {
                if x.starts_with('0') || y.starts_with('0') {
                    x.to_uppercase().cmp(&y.to_uppercase())
                } else {
                    x.len().cmp(&y.len()).then_with(|| x.cmp(y))
                }
            }
            _ => x.to_uppercase().cmp(&y.to_uppercase()),
        };
        return ordering;
    }
    a.cmp(b)
}

fn versioncmp(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    call.arity(2, Some(3))?;
    let a = call.string(0, "a")?;
    let b = call.string(1, "b")?;
    Ok(Value::Integer(compare_versions(&a, &b) as i64))
}

fn unwrap<'p>(eval: &mut Evaluator<'p>, call: &mut Call<'_, 'p>) -> EvalResult<Value> {
    call.arity(1, Some(1))?;
    let inner = match &call.args[0] {
        Value::Sensitive(inner) => (**inner).clone(),
        other => other.clone(),
    };
    match call.lambda {
        Some(closure) => eval.call_lambda(&closure, vec![inner], call.span),
        None => Ok(inner),
    }
}

fn convert_to<'p>(eval: &mut Evaluator<'p>, call: &mut Call<'_, 'p>) -> EvalResult<Value> {
    call.arity(2, None)?;
    let target = match &call.args[1] {
        Value::Type(t) => (**t).clone(),
        _ => return call.mismatch("type", "Type", 1),
    };
    let mut args = vec![call.args[0].clone()];
    args.extend(call.args[2..].iter().cloned());
    let value = super::types::new_value(eval, &target, args, call.span)?;
    match call.lambda {
        Some(closure) => eval.call_lambda(&closure, vec![value], call.span),
        None => Ok(value),
    }
}

fn inline_epp(eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    call.arity(1, Some(2))?;
    let text = call.string(0, "template")?;
    let arguments = match call.args.get(1) {
        Some(Value::Hash(hash)) => Some((**hash).clone()),
        None | Some(Value::Undef) => None,
        Some(_) => return call.mismatch("parameters", "Hash", 1),
    };
    let program = match super::leaked_program(
        &text,
        marionette_syntax::SourceKind::Epp,
        "inlined-epp-text",
    ) {
        Ok(program) => program,
        Err(message) => {
            return call.error(format_args!("inline_epp(): Invalid EPP: {message}"));
        }
    };
    eval.render_epp(program, arguments, call.span)
}

/// `strftime(timestamp, format[, timezone])` and `strftime(timespan,
/// format)`. Only UTC is known (there is no time zone database).
fn strftime(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    call.arity(2, Some(3))?;
    let format = call.string(1, "format")?;
    match &call.args[0] {
        Value::Timestamp(t) => {
            if let Some(Value::String(zone)) = call.args.get(2)
                && !matches!(&**zone, "UTC" | "utc" | "Z" | "GMT")
            {
                return call.error(format_args!("Illegal timezone '{zone}'"));
            }
            Ok(Value::string(t.format(&format)))
        }
        Value::Timespan(t) => Ok(Value::string(format_timespan(t.0, &format))),
        _ => call.mismatch("time_object", "Timestamp or Timespan", 0),
    }
}

/// Timespan directives: `%D` days, `%H` `%M` `%S` within their unit (two
/// digits), `%L` milliseconds, `%N` nanoseconds, `%%`.
fn format_timespan(nanos: i64, format: &str) -> String {
    let total = nanos.unsigned_abs();
    let seconds = total / 1_000_000_000;
    let mut out = String::new();
    if nanos < 0 {
        out.push('-');
    }
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('D') => out.push_str(&(seconds / 86_400).to_string()),
            Some('H') => out.push_str(&format!("{:02}", seconds / 3600 % 24)),
            Some('M') => out.push_str(&format!("{:02}", seconds / 60 % 60)),
            Some('S') => out.push_str(&format!("{:02}", seconds % 60)),
            Some('L') => out.push_str(&format!("{:03}", total % 1_000_000_000 / 1_000_000)),
            Some('N') => out.push_str(&format!("{:09}", total % 1_000_000_000)),
            Some('%') => out.push('%'),
            Some(other) => {
                out.push('%');
                out.push(other);
            }
            None => out.push('%'),
        }
    }
    out
}

/// `annotate` attaches annotations, which are instances of Object types,
/// to values; Marionette has no Object types, so no annotation can exist.
fn annotate(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    call.error(
        "'annotate' attaches instances of Object types, and Marionette does not support Object types",
    )
}

/// `template()` and `inline_template()`: ERB, which the Ruby host renders.
fn erb(eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    call.no_lambda()?;
    if call.args.is_empty() {
        return call.error(format_args!(
            "{}(): Wrong number of arguments given (0 for minimum 1)",
            call.name
        ));
    }
    eval.render_erb(call.name, &call.args, call.span)
}

/// `generate('/path/to/command', args...)`: runs a command, without a
/// shell, from the command's directory, and returns what it printed on
/// its output and error streams. Puppet's checks come first: the command
/// must be an absolute path of plain characters without `..`.
fn generate(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    let count = call.args.len();
    if count < 1 {
        return call.error(format_args!(
            "generate(): Wrong number of arguments given ({count} for minimum 1)"
        ));
    }
    let args: Vec<String> = call
        .args
        .iter()
        .map(marionette_values::format::to_s)
        .collect();
    let command = &args[0];
    if !std::path::Path::new(command).is_absolute() {
        return call.error("Generators must be fully qualified");
    }
    let plain = command
        .chars()
        .all(|c| c.is_alphanumeric() || c == '_' || matches!(c, '-' | '/' | '.' | '+'));
    if !plain {
        return call
            .error("Generators can only contain alphanumerics, file separators, and dashes");
    }
    if command.contains("..") {
        return call.error("Can not use generators with '..' in them.");
    }
    let dir = std::path::Path::new(command)
        .parent()
        .unwrap_or(std::path::Path::new("/"));
    // Puppet changes to the directory first and reports its failure as
    // Ruby words it.
    if !dir.is_dir() {
        return call.error(format_args!(
            "No such file or directory @ dir_chdir - {}",
            dir.display()
        ));
    }
    let failed = |detail: String| {
        call.error(format_args!(
            "Failed to execute generator {command}: {detail}"
        ))
    };
    // One pipe for both streams keeps their output in the order printed.
    let (mut reader, writer) = match std::io::pipe() {
        Ok(pipe) => pipe,
        Err(error) => return failed(error.to_string()),
    };
    let spawned = writer.try_clone().and_then(|error_writer| {
        std::process::Command::new(command)
            .args(&args[1..])
            .current_dir(dir)
            .stdin(std::process::Stdio::null())
            .stdout(writer)
            .stderr(error_writer)
            .spawn()
    });
    let mut child = match spawned {
        Ok(child) => child,
        Err(error) => {
            let reason = match error.kind() {
                std::io::ErrorKind::NotFound => "No such file or directory".to_string(),
                std::io::ErrorKind::PermissionDenied => "Permission denied".to_string(),
                _ => error.to_string(),
            };
            return failed(format!(
                "Execution of '{}' returned 1: Error: Could not execute posix command: {reason} - {command}",
                args.join(" ")
            ));
        }
    };
    let mut output = Vec::new();
    let read = std::io::Read::read_to_end(&mut reader, &mut output);
    let status = child.wait();
    let output = String::from_utf8_lossy(&output).into_owned();
    match (read, status) {
        (Ok(_), Ok(status)) if status.success() => Ok(Value::string(output.as_str())),
        (Ok(_), Ok(status)) => {
            let code = status.code().unwrap_or(1);
            failed(format!(
                "Execution of '{}' returned {code}: {}",
                args.join(" "),
                output.trim_end()
            ))
        }
        (Err(error), _) | (_, Err(error)) => failed(error.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_compare_segment_by_segment() {
        assert_eq!(compare_versions("1.2.10", "1.2.9"), Ordering::Greater);
        assert_eq!(compare_versions("1.0", "1.0"), Ordering::Equal);
        assert_eq!(compare_versions("1.0-rc1", "1.0.1"), Ordering::Less);
        assert_eq!(compare_versions("2.a", "2.B"), Ordering::Less);
    }
}

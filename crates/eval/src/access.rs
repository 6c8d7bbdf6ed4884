//! The access operator `[]` on strings, arrays, hashes and types.

use marionette_diagnostics::Span;
use marionette_values::format::type_label;
use marionette_values::{PType, Value};

use crate::error::{EvalResult, fail};

pub(crate) fn access(
    target: Value,
    keys: Vec<Value>,
    span: Span,
    key_span: Span,
) -> EvalResult<Value> {
    match target {
        Value::String(text) => {
            if let Some(key) = keys.iter().find(|k| !matches!(k, Value::Integer(_))) {
                return fail(
                    format!(
                        "A substring operation does not accept {} as a character index. Expected an Integer",
                        a_label(key)
                    ),
                    key_span,
                );
            }
            let chars: Vec<char> = text.chars().collect();
            match slice_range(chars.len(), &keys, span)? {
                Some((start, count)) => Ok(Value::string(
                    chars[start..start + count].iter().collect::<String>(),
                )),
                None if keys.len() == 1 => Ok(Value::Undef),
                None => Ok(Value::string(String::new())),
            }
        }
        Value::Array(items) => {
            match slice_range(items.len(), &numeric_keys(keys.clone(), key_span)?, span)? {
                Some((start, count)) if keys.len() == 1 => Ok(items
                    .get(start)
                    .cloned()
                    .filter(|_| count == 1)
                    .unwrap_or(Value::Undef)),
                Some((start, count)) => Ok(Value::array(
                    items.iter().skip(start).take(count).cloned().collect(),
                )),
                None if keys.len() == 1 => Ok(Value::Undef),
                None => Ok(Value::array(Vec::new())),
            }
        }
        Value::Hash(hash) => {
            if keys.is_empty() {
                return fail("Hash[] requires at least one key", span);
            }
            if keys.len() == 1 {
                return Ok(hash.get(&keys[0]).cloned().unwrap_or(Value::Undef));
            }
            Ok(Value::array(
                keys.iter().filter_map(|k| hash.get(k).cloned()).collect(),
            ))
        }
        // `File[$list]` names a reference per element, as `File[a, b]` does.
        Value::Type(t)
            if matches!(
                &*t,
                PType::Resource {
                    type_name: Some(_),
                    title: None
                } | PType::Class(None)
            ) && keys.iter().any(|k| matches!(k, Value::Array(_))) =>
        {
            let mut titles = Vec::new();
            flatten_into(&keys, &mut titles);
            let mut references = Vec::new();
            for title in &titles {
                match t.parameterize(std::slice::from_ref(title)) {
                    Ok(p) => references.push(Value::Type(Box::new(p))),
                    Err(m) => {
                        return fail(
                            format!("Error while evaluating a '[]' expression, {}", m.message),
                            span,
                        );
                    }
                }
            }
            Ok(Value::array(references))
        }
        Value::Type(t) => match t.parameterize(&keys) {
            Ok(parameterized) => {
                // `File[a, b]` makes several references at once.
                Ok(Value::Type(Box::new(parameterized)))
            }
            Err(message) => match (&*t, keys.as_slice()) {
                (
                    PType::Resource {
                        type_name: Some(_),
                        title: None,
                    }
                    | PType::Class(None),
                    many,
                ) if many.len() > 1 => Ok(Value::array(
                    many.iter()
                        .map(|k| {
                            t.parameterize(std::slice::from_ref(k))
                                .map(|p| Value::Type(Box::new(p)))
                        })
                        .collect::<Result<_, _>>()
                        .or_else(|m| {
                            fail(
                                format!("Error while evaluating a '[]' expression, {}", m.message),
                                span,
                            )
                        })?,
                )),
                _ if message.standalone => fail(message.message, key_span),
                _ => fail(
                    format!(
                        "Error while evaluating a '[]' expression, {}",
                        message.message
                    ),
                    span,
                ),
            },
        },
        other => fail(
            format!("Operator '[]' is not applicable to {}.", a_label(&other)),
            span,
        ),
    }
}

fn flatten_into(values: &[Value], out: &mut Vec<Value>) {
    for value in values {
        match value {
            Value::Array(items) => flatten_into(items, out),
            other => out.push(other.clone()),
        }
    }
}

fn a_label(value: &Value) -> String {
    let label = match value {
        Value::Undef => "Undef Value".to_string(),
        other => type_label(other),
    };
    let article = if label.starts_with(['A', 'E', 'I', 'O', 'U']) {
        "an"
    } else {
        "a"
    };
    format!("{article} {label}")
}

/// Resolves `[index]` or `[start, count]` with negative positions counting
/// from the end. Returns the start and the number of elements, or `None`
/// when the range is entirely outside.
fn slice_range(length: usize, keys: &[Value], span: Span) -> EvalResult<Option<(usize, usize)>> {
    let index = |value: &Value| -> EvalResult<i64> {
        match value {
            Value::Integer(i) => Ok(*i),
            other => fail(
                format!("The index must be an Integer, got {}", type_label(other)),
                span,
            ),
        }
    };
    let length = length as i64;
    let (start, count) = match keys {
        [start] => (index(start)?, 1),
        [start, count] => (index(start)?, index(count)?),
        _ => {
            return fail(
                format!("Access expects 1 or 2 keys, got {}", keys.len()),
                span,
            );
        }
    };
    let start = if start < 0 { start + length } else { start };
    if start < 0 || start >= length {
        return Ok(None);
    }
    // A negative count means "up to that position from the end".
    let end = if count < 0 {
        length + count + 1
    } else {
        start.saturating_add(count).min(length)
    };
    if end <= start {
        return Ok(Some((start as usize, 0)));
    }
    Ok(Some((start as usize, (end - start) as usize)))
}

/// Array indexes: integers, or strings that hold one (Puppet converts them
/// like an arithmetic operand).
fn numeric_keys(keys: Vec<Value>, span: Span) -> EvalResult<Vec<Value>> {
    keys.into_iter()
        .map(|key| match key {
            Value::String(text) => match crate::operators::parse_number(&text) {
                Some(crate::operators::Number::Integer(i)) => Ok(Value::Integer(i)),
                _ => fail(
                    format!("The value '{text}' cannot be converted to Numeric."),
                    span,
                ),
            },
            other => Ok(other),
        })
        .collect()
}

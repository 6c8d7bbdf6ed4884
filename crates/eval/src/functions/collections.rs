//! Collection functions: `size`/`length`, `empty`, `keys`, `values`,
//! `flatten`, `unique`, `sort`, `dig`, `get`, `min`, `max`, `compare`.

use std::cmp::Ordering;
use std::collections::HashMap;

use marionette_values::format::type_label;
use marionette_values::{PHash, Value};

use super::{Builtin, Call};
use crate::error::{EvalResult, Stop};
use crate::evaluator::Evaluator;

pub(super) fn register(map: &mut HashMap<&'static str, Builtin>) {
    map.insert("size", size);
    map.insert("length", size);
    map.insert("empty", empty);
    map.insert("keys", keys);
    map.insert("values", values);
    map.insert("flatten", flatten);
    map.insert("unique", unique);
    map.insert("sort", sort);
    map.insert("dig", dig);
    map.insert("get", get);
    map.insert("min", |e, c| extreme(e, c, Ordering::Less));
    map.insert("max", |e, c| extreme(e, c, Ordering::Greater));
    map.insert("compare", compare);
}

fn size(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    call.arity(1, Some(1))?;
    match &call.args[0] {
        Value::String(s) => Ok(Value::Integer(s.chars().count() as i64)),
        Value::Array(items) => Ok(Value::Integer(items.len() as i64)),
        Value::Iterator(items) => Ok(Value::Integer(items.len() as i64)),
        Value::Hash(hash) => Ok(Value::Integer(hash.len() as i64)),
        Value::Binary(bytes) => Ok(Value::Integer(bytes.len() as i64)),
        _ => call.mismatch("arg", "Collection, String, or Binary", 0),
    }
}

fn empty(eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    call.arity(1, Some(1))?;
    if matches!(call.args[0], Value::Integer(_) | Value::Float(_)) {
        eval.warn_plain(
            "Calling function empty() with Numeric value is deprecated.",
            Some(call.span),
        );
    }
    Ok(Value::Boolean(match &call.args[0] {
        Value::String(s) => s.is_empty(),
        Value::Array(items) => items.is_empty(),
        Value::Hash(hash) => hash.is_empty(),
        Value::Binary(bytes) => bytes.is_empty(),
        Value::Undef => true,
        Value::Integer(_) | Value::Float(_) => false,
        _ => return call.mismatch("coll", "Collection", 0),
    }))
}

fn hash_arg(call: &Call<'_, '_>) -> EvalResult<PHash> {
    call.arity(1, Some(1))?;
    match &call.args[0] {
        Value::Hash(hash) => Ok((**hash).clone()),
        _ => call.mismatch("hsh", "Hash", 0),
    }
}

fn keys(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    Ok(Value::array(hash_arg(call)?.into_keys().collect()))
}

fn values(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    Ok(Value::array(hash_arg(call)?.into_values().collect()))
}

fn flatten(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    fn walk(value: &Value, out: &mut Vec<Value>) {
        match value {
            Value::Array(items) => items.iter().for_each(|v| walk(v, out)),
            other => out.push(other.clone()),
        }
    }
    let mut out = Vec::new();
    call.args.iter().for_each(|v| walk(v, &mut out));
    Ok(Value::array(out))
}

fn unique<'p>(eval: &mut Evaluator<'p>, call: &mut Call<'_, 'p>) -> EvalResult<Value> {
    call.arity(1, Some(1))?;
    match &call.args[0] {
        Value::String(s) => {
            let mut seen = String::new();
            for c in s.chars() {
                if !seen.contains(c) {
                    seen.push(c);
                }
            }
            Ok(Value::string(seen))
        }
        Value::Hash(hash) => {
            // Keys with equal values merge: the result maps the keys that
            // had a value to that value.
            let mut grouped: PHash = PHash::new();
            for (k, v) in hash.iter() {
                match grouped
                    .entry(v.clone())
                    .or_insert_with(|| Value::array(Vec::new()))
                {
                    Value::Array(keys) => std::sync::Arc::make_mut(keys).push(k.clone()),
                    _ => unreachable!("entries are arrays"),
                }
            }
            Ok(Value::hash(
                grouped
                    .into_iter()
                    .map(|(v, keys)| (keys, Value::array(vec![v])))
                    .collect(),
            ))
        }
        other => {
            let items = super::iterable(call, other)?;
            // With a block, elements are the same when the block gives the
            // same value for them; the first one is kept.
            let mut keys: Vec<Value> = Vec::new();
            let mut kept = Vec::new();
            for item in items {
                let key = match call.lambda {
                    Some(closure) => eval.call_lambda(&closure, vec![item.clone()], call.span)?,
                    None => item.clone(),
                };
                if !keys.contains(&key) {
                    keys.push(key);
                    kept.push(item);
                }
            }
            Ok(Value::array(kept))
        }
    }
}

/// The natural order of two values for `sort`, `min` and `max`.
fn natural_order(a: &Value, b: &Value) -> Option<Ordering> {
    match (a, b) {
        (Value::Integer(x), Value::Integer(y)) => Some(x.cmp(y)),
        (Value::Integer(_) | Value::Float(_), Value::Integer(_) | Value::Float(_)) => {
            as_f64(a).partial_cmp(&as_f64(b))
        }
        (Value::String(x), Value::String(y)) => Some(x.cmp(y)),
        (Value::Timespan(x), Value::Timespan(y)) => Some(x.cmp(y)),
        (Value::Timestamp(x), Value::Timestamp(y)) => Some(x.cmp(y)),
        (Value::SemVer(x), Value::SemVer(y)) => Some(x.cmp(y)),
        // Arrays compare element by element, then by length, as Ruby's
        // arrays do for Puppet; an incomparable pair makes them
        // incomparable.
        (Value::Array(x), Value::Array(y)) => {
            for (a, b) in x.iter().zip(y.iter()) {
                match natural_order(a, b)? {
                    Ordering::Equal => continue,
                    other => return Some(other),
                }
            }
            Some(x.len().cmp(&y.len()))
        }
        _ => None,
    }
}

fn as_f64(value: &Value) -> f64 {
    match value {
        Value::Integer(i) => *i as f64,
        Value::Float(f) => *f,
        _ => f64::NAN,
    }
}

fn sort<'p>(eval: &mut Evaluator<'p>, call: &mut Call<'_, 'p>) -> EvalResult<Value> {
    call.arity(1, Some(1))?;
    let (mut items, is_string) = match &call.args[0] {
        Value::Array(items) => (items.to_vec(), false),
        Value::String(s) => (
            s.chars().map(|c| Value::string(c.to_string())).collect(),
            true,
        ),
        _ => return call.mismatch("arg", "Array", 0),
    };
    let mut failure: Option<Stop> = None;
    match call.lambda {
        Some(closure) => {
            let span = call.span;
            items.sort_by(|a, b| {
                if failure.is_some() {
                    return Ordering::Equal;
                }
                match eval.call_lambda(&closure, vec![a.clone(), b.clone()], span) {
                    Ok(Value::Integer(i)) => i.cmp(&0),
                    Ok(_) => Ordering::Equal,
                    Err(stop) => {
                        failure = Some(stop);
                        Ordering::Equal
                    }
                }
            });
        }
        None => {
            if let Some(pair) = items
                .windows(2)
                .find(|w| natural_order(&w[0], &w[1]).is_none())
            {
                return call.error(format_args!(
                    "comparison of {} with {} failed",
                    type_label(&pair[0]),
                    type_label(&pair[1])
                ));
            }
            items.sort_by(|a, b| natural_order(a, b).unwrap_or(Ordering::Equal));
        }
    }
    if let Some(stop) = failure {
        return Err(stop);
    }
    if is_string {
        return Ok(Value::string(
            items
                .iter()
                .map(marionette_values::format::to_s)
                .collect::<String>(),
        ));
    }
    Ok(Value::array(items))
}

fn step_into(value: &Value, key: &Value) -> Option<Value> {
    match (value, key) {
        (Value::Array(items), Value::Integer(i)) => {
            let index = if *i < 0 { items.len() as i64 + i } else { *i };
            usize::try_from(index)
                .ok()
                .and_then(|i| items.get(i))
                .cloned()
        }
        (Value::Hash(hash), key) => hash.get(key).cloned(),
        _ => None,
    }
}

fn dig(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    call.arity(1, None)?;
    let mut current = call.args[0].clone();
    let mut path: Vec<String> = Vec::new();
    for key in &call.args[1..] {
        if current.is_undef() {
            return Ok(Value::Undef);
        }
        if !matches!(current, Value::Array(_) | Value::Hash(_)) {
            // Puppet shows the path walked so far as Ruby prints an array.
            return call.error(format_args!(
                "The given data does not contain a Collection at [{}], got '{}'",
                path.join(", "),
                marionette_values::format::type_label(&current)
            ));
        }
        path.push(match key {
            Value::String(s) => format!("{s:?}"),
            other => marionette_values::format::to_s(other),
        });
        current = step_into(&current, key).unwrap_or(Value::Undef);
    }
    Ok(current)
}

/// `get($data, 'a.b.0', $default)`: a dotted path; numeric segments index
/// arrays; quoted segments may contain dots.
fn get<'p>(eval: &mut Evaluator<'p>, call: &mut Call<'_, 'p>) -> EvalResult<Value> {
    call.arity(2, Some(3))?;
    let path = call.string(1, "key")?;
    let default = call.args.get(2).cloned().unwrap_or(Value::Undef);
    let mut segments = Vec::new();
    let mut current = String::new();
    let mut quote: Option<char> = None;
    for c in path.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => current.push(c),
            (None, '"' | '\'') => quote = Some(c),
            (None, '.') => segments.push(std::mem::take(&mut current)),
            (None, c) => current.push(c),
        }
    }
    if !path.is_empty() {
        segments.push(current);
    }
    let mut value = call.args[0].clone();
    let mut walked: Vec<String> = Vec::new();
    for segment in segments {
        if !value.is_undef() && !matches!(value, Value::Array(_) | Value::Hash(_)) {
            // Stepping into a scalar is an error, reported with the path
            // walked so far as Ruby prints an array.
            return call.error(format_args!(
                "The given data does not contain a Collection at [{}], got '{}'",
                walked.join(", "),
                marionette_values::format::type_label(&value)
            ));
        }
        walked.push(format!("{segment:?}"));
        let key = match (&value, segment.parse::<i64>()) {
            (Value::Array(_), Ok(i)) => Value::Integer(i),
            _ => Value::string(segment),
        };
        match step_into(&value, &key) {
            Some(next) => value = next,
            None => {
                if let Some(closure) = call.lambda {
                    return eval.call_lambda(&closure, vec![Value::Undef], call.span);
                }
                return Ok(default);
            }
        }
    }
    Ok(if value.is_undef() { default } else { value })
}

fn extreme<'p>(
    eval: &mut Evaluator<'p>,
    call: &mut Call<'_, 'p>,
    wanted: Ordering,
) -> EvalResult<Value> {
    if call.args.is_empty() {
        return call.error(format_args!(
            "{}(): Wrong number of arguments need at least one",
            call.name
        ));
    }
    let mut values = match call.args.as_slice() {
        [Value::Array(items)] => items.to_vec(),
        other => other.to_vec(),
    };
    // Strings that all hold numbers are compared as numbers, with Puppet's
    // deprecation warning.
    let numeric: Option<Vec<Value>> = values
        .iter()
        .map(|v| match v {
            Value::String(s) => crate::operators::parse_number(s).map(|n| match n {
                crate::operators::Number::Integer(i) => Value::Integer(i),
                crate::operators::Number::Float(f) => Value::Float(f),
            }),
            other => Some(other.clone()),
        })
        .collect();
    if call.lambda.is_none()
        && values.iter().any(|v| matches!(v, Value::String(_)))
        && let Some(numbers) = numeric
    {
        eval.warn_once(&format!(
            "The {}() function's auto conversion of String to Numeric is deprecated - change to convert input before calling, or use lambda",
            call.name
        ));
        // Keep the original values, chosen by their numeric order.
        let order: Vec<(Value, Value)> = numbers.into_iter().zip(values.drain(..)).collect();
        let chosen = order
            .into_iter()
            .reduce(|best, next| match natural_order(&next.0, &best.0) {
                Some(o) if o == wanted => next,
                _ => best,
            });
        return Ok(chosen.map_or(Value::Undef, |(_, original)| original));
    }
    let mut best: Option<Value> = None;
    for value in values {
        best = Some(match best {
            None => value,
            Some(current) => {
                let ordering = match call.lambda {
                    Some(closure) => match eval.call_lambda(
                        &closure,
                        vec![value.clone(), current.clone()],
                        call.span,
                    )? {
                        Value::Integer(i) => i.cmp(&0),
                        _ => Ordering::Equal,
                    },
                    None => match natural_order(&value, &current) {
                        Some(ordering) => ordering,
                        // Values of different kinds compare as their
                        // texts, case-sensitively, as Puppet still does.
                        None => {
                            eval.warn_once(&format!(
                                "The {}() function's auto conversion of Any to String is deprecated - change to convert input before calling, or use lambda",
                                call.name
                            ));
                            marionette_values::format::to_s(&value)
                                .cmp(&marionette_values::format::to_s(&current))
                        }
                    },
                };
                if ordering == wanted { value } else { current }
            }
        });
    }
    Ok(best.unwrap_or(Value::Undef))
}

fn compare(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    call.arity(2, Some(3))?;
    let ignore_case = !matches!(call.args.get(2), Some(Value::Boolean(false)));
    let ordering = match (&call.args[0], &call.args[1]) {
        (Value::String(a), Value::String(b)) if ignore_case => {
            Some(a.to_lowercase().cmp(&b.to_lowercase()))
        }
        (a, b) => natural_order(a, b),
    };
    match ordering {
        Some(o) => Ok(Value::Integer(o as i64)),
        None => call.error(format_args!(
            "'compare' compare(): Can only compare values of the same type (or for Timestamp/Timespan also against Numeric). Got {} and {}",
            type_label(&call.args[0]),
            type_label(&call.args[1])
        )),
    }
}

//! stdlib's functions of arrays and hashes: `any2array`,
//! `delete_undef_values`, `member`, `prefix`, `suffix`, `union`,
//! `difference`, `concat`, `join_keys_to_values`, `merge`, `deep_merge`,
//! `has_key`, `delete`, `delete_at` and `flatten`.

use std::collections::HashMap;

use marionette_values::format::{ruby_class, ruby_inspect, to_s};
use marionette_values::{PHash, Value};

use crate::error::EvalResult;
use crate::evaluator::Evaluator;
use crate::functions::{Builtin, Call};

pub(super) fn register(map: &mut HashMap<&'static str, Builtin>) {
    map.insert("any2array", any2array);
    map.insert("delete_undef_values", delete_undef_values);
    map.insert("member", member);
    map.insert("prefix", prefix);
    map.insert("suffix", suffix);
    map.insert("union", union);
    map.insert("difference", difference);
    map.insert("concat", concat);
    map.insert("join_keys_to_values", join_keys_to_values);
    map.insert("merge", merge);
    map.insert("deep_merge", deep_merge);
    map.insert("has_key", has_key);
    map.insert("delete", delete);
    map.insert("delete_at", delete_at);
    map.insert("flatten", flatten);
    map.insert("zip", zip);
    map.insert("values_at", values_at);
    map.insert("range", range);
}

/// The elements of two arrays paired, undef where the second runs out;
/// flattened when the third argument reads as true.
fn zip(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    if call.args.len() < 2 {
        return call.error(format!(
            "zip(): Wrong number of arguments given ({} for 2)",
            call.args.len()
        ));
    }
    let (Value::Array(first), Value::Array(second)) = (&call.args[0], &call.args[1]) else {
        return call.error("zip(): Requires array to work with");
    };
    let flat = match call.args.get(2) {
        None | Some(Value::Undef | Value::Boolean(false)) => false,
        Some(Value::Boolean(true)) => true,
        Some(Value::String(s)) => match super::values::text_bool(s) {
            Some(b) => b,
            None => return call.error("str2bool(): Unknown type of boolean given"),
        },
        Some(_) => return call.error("str2bool(): Requires string to work with"),
    };
    let pairs: Vec<Value> = first
        .iter()
        .enumerate()
        .map(|(i, a)| {
            Value::array(vec![
                a.clone(),
                second.get(i).cloned().unwrap_or(Value::Undef),
            ])
        })
        .collect();
    if !flat {
        return Ok(Value::array(pairs));
    }
    let mut out = Vec::new();
    flatten_into(&pairs, &mut out);
    Ok(Value::array(out))
}

/// `start-stop`, `start..stop` or `start...stop` (end excluded) as the
/// numbers and the separator, when the text has that form.
fn numeric_span(text: &str) -> Option<(&str, &str, &str)> {
    let split = |sep: &'static str| {
        let (a, b) = text.split_once(sep)?;
        Some((a, sep, b))
    };
    let (start, sep, stop) = split("...")
        .or_else(|| split(".."))
        .or_else(|| split("-"))?;
    Some((start, sep, stop))
}

/// The elements at the indices given: numbers, `start-stop` ranges, or
/// an array of them; undef elements are left out.
fn values_at(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    if call.args.len() < 2 {
        return call.error(format!(
            "values_at(): Wrong number of arguments given ({} for 2)",
            call.args.len()
        ));
    }
    let Value::Array(array) = &call.args[0] else {
        return call.error("values_at(): Requires array to work with");
    };
    let mut given = Vec::new();
    flatten_into(std::slice::from_ref(&call.args[1]), &mut given);
    if given.is_empty() {
        return call.error("values_at(): You must provide at least one positive index to collect");
    }
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    let size = array.len() as i128;
    let mut indices: Vec<i128> = Vec::new();
    for index in &given {
        let text = ruby_to_s(index);
        match numeric_span(&text) {
            Some((start, sep, stop)) if digits(start) && digits(stop) => {
                let start: i128 = start.parse().unwrap_or(i128::MAX);
                let stop: i128 = stop.parse().unwrap_or(i128::MAX);
                if start > stop {
                    return call.error("values_at(): Stop index in given indices range is smaller than the start index");
                }
                if stop > size - 1 {
                    return call.error(
                        "values_at(): Stop index in given indices range exceeds array size",
                    );
                }
                let end = if sep == "..." { stop } else { stop + 1 };
                indices.extend(start..end);
            }
            _ => {
                if !digits(&text) {
                    return call.error("values_at(): Unknown format of given index");
                }
                let i: i128 = text.parse().unwrap_or(i128::MAX);
                if i > size - 1 {
                    return call.error("values_at(): Given index exceeds array size");
                }
                indices.push(i);
            }
        }
    }
    Ok(Value::array(
        indices
            .into_iter()
            .filter_map(|i| array.get(i as usize).filter(|v| !v.is_undef()).cloned())
            .collect(),
    ))
}

/// At most this many elements, as stdlib takes the first million.
const RANGE_LIMIT: usize = 1_000_000;

/// The values from a start to a stop: integers when the start is
/// digits, otherwise strings counted on as Ruby's `String#succ` counts
/// (`'host01'` to `'host03'`), every step-th of them.
fn range(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    let (start, stop, step, exclusive) = match call.args.as_slice() {
        [] => return call.error("range(): Wrong number of arguments given (0 for 1)"),
        [single] => {
            let text = ruby_to_s(single);
            let word =
                |t: &str| !t.is_empty() && t.chars().all(|c| c.is_alphanumeric() || c == '_');
            match numeric_span(&text) {
                Some((start, sep, stop)) if word(start) && word(stop) => {
                    (start.to_string(), stop.to_string(), 1, sep == "...")
                }
                _ if !text.is_empty() => {
                    return call.error(format!(
                        "range(): Unable to compute range from the value: {text}"
                    ));
                }
                _ => return call.error(format!("range(): Unknown range format: {text}")),
            }
        }
        [start, stop, rest @ ..] => {
            let step = match rest.first() {
                None => 1,
                Some(step) => ruby_to_i(step).unsigned_abs(),
            };
            if step == 0 {
                return call.error(
                    "range(): 3rd arg (step size) must be a non zero integer (e.g. 1 or -1)",
                );
            }
            (ruby_to_s(start), ruby_to_s(stop), step, false)
        }
    };
    let step = usize::try_from(step).unwrap_or(usize::MAX);
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    let values: Vec<Value> = if digits(&start) {
        let from = ruby_to_i(&Value::string(start.as_str()));
        let to = ruby_to_i(&Value::string(stop.as_str()));
        let to = if exclusive { to.saturating_sub(1) } else { to };
        if from > to {
            Vec::new()
        } else {
            (from..=to)
                .step_by(step)
                .take(RANGE_LIMIT)
                .map(Value::Integer)
                .collect()
        }
    } else {
        string_upto(&start, &stop, exclusive)
            .into_iter()
            .step_by(step)
            .map(Value::string)
            .collect()
    };
    Ok(Value::array(values))
}

/// Ruby's `to_i`: the leading integer of a text, 0 without one.
fn ruby_to_i(value: &Value) -> i64 {
    match value {
        Value::Integer(i) => *i,
        Value::Float(f) => *f as i64,
        other => {
            let text = ruby_to_s(other);
            let text = text.trim_start();
            let (sign, rest) = match text.strip_prefix('-') {
                Some(rest) => (-1, rest),
                None => (1, text.strip_prefix('+').unwrap_or(text)),
            };
            let digits: String = rest
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '_')
                .filter(|c| *c != '_')
                .collect();
            digits.parse::<i64>().map_or(0, |n| sign * n)
        }
    }
}

/// Ruby's `String#upto`: single characters by code point; otherwise each
/// `succ` from the start until the stop, or until the text grows longer
/// than the stop.
fn string_upto(start: &str, stop: &str, exclusive: bool) -> Vec<String> {
    let mut out = Vec::new();
    let (mut a, mut b) = (start.chars(), stop.chars());
    if let (Some(x), None, Some(y), None) = (a.next(), a.next(), b.next(), b.next())
        && x.is_ascii()
        && y.is_ascii()
    {
        let end = if exclusive { y as u32 } else { y as u32 + 1 };
        return (x as u32..end)
            .filter_map(char::from_u32)
            .map(String::from)
            .collect();
    }
    if start > stop || (exclusive && start == stop) {
        return out;
    }
    let after_end = succ(stop);
    let mut current = start.to_string();
    while current != after_end && out.len() < RANGE_LIMIT {
        if exclusive && current == stop {
            break;
        }
        let last = current == stop;
        let next = succ(&current);
        out.push(current);
        if last {
            break;
        }
        current = next;
        if current.chars().count() > stop.chars().count() || current.is_empty() {
            break;
        }
    }
    out
}

/// Ruby's `String#succ`: the rightmost letter or digit counts up, carrying
/// to the next one on its left (`az` to `ba`, `a9` to `b0`, `zz` to
/// `aaa`); a text without any counts up its last character.
fn succ(text: &str) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    if chars.is_empty() {
        return String::new();
    }
    let alnum = |c: char| c.is_ascii_alphanumeric();
    let Some(mut i) = chars.iter().rposition(|c| alnum(*c)) else {
        let last = chars.len() - 1;
        chars[last] = char::from_u32(chars[last] as u32 + 1).unwrap_or(chars[last]);
        return chars.into_iter().collect();
    };
    loop {
        let (next, carry, first) = match chars[i] {
            'z' => ('a', true, 'a'),
            'Z' => ('A', true, 'A'),
            '9' => ('0', true, '1'),
            c => (char::from_u32(c as u32 + 1).unwrap_or(c), false, c),
        };
        chars[i] = next;
        if !carry {
            break;
        }
        match chars[..i].iter().rposition(|c| alnum(*c)) {
            Some(left) => i = left,
            None => {
                chars.insert(i, first);
                break;
            }
        }
    }
    chars.into_iter().collect()
}

/// The arguments as an array: an array as it is, a hash as its keys and
/// values in turn, anything else wrapped.
fn any2array(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    Ok(match call.args.as_slice() {
        [Value::Array(items)] => Value::Array(items.clone()),
        // Undef reaches stdlib as an empty string, which gives nothing.
        [Value::Undef] => Value::array(Vec::new()),
        [Value::String(s)] if s.is_empty() => Value::array(Vec::new()),
        [Value::Hash(hash)] => Value::array(
            hash.iter()
                .flat_map(|(k, v)| [k.clone(), v.clone()])
                .collect(),
        ),
        args => Value::array(args.to_vec()),
    })
}

fn delete_undef_values(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    let Some(collection) = call.args.first() else {
        return call.error("delete_undef_values(): Wrong number of arguments given (0)");
    };
    match collection {
        Value::Array(items) => Ok(Value::array(
            items.iter().filter(|v| !v.is_undef()).cloned().collect(),
        )),
        Value::Hash(hash) => Ok(Value::hash(
            hash.iter()
                .filter(|(_, v)| !v.is_undef())
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        )),
        other => call.error(format!(
            "delete_undef_values(): expected an array or hash, got {} type  {} ",
            to_s(other),
            ruby_class(other)
        )),
    }
}

/// Whether an array holds an item, or all of an array of items.
fn member(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    if call.args.len() < 2 {
        return call.error(format!(
            "member(): Wrong number of arguments given ({} for 2)",
            call.args.len()
        ));
    }
    let Value::Array(array) = &call.args[0] else {
        return call.error("member(): Requires array to work with");
    };
    let items = match &call.args[1] {
        item @ (Value::String(_) | Value::Integer(_)) => vec![item.clone()],
        Value::Array(items) => items.to_vec(),
        _ => {
            return call.error("member(): Item to search for must be a string, fixnum, or array");
        }
    };
    if items.is_empty() {
        return call.error("member(): You must provide item to search for within array given");
    }
    Ok(Value::Boolean(
        items.iter().all(|item| array.contains(item)),
    ))
}

fn prefix(eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    affix(eval, call, "prefix", |affix, text| format!("{affix}{text}"))
}

fn suffix(eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    affix(eval, call, "suffix", |affix, text| format!("{text}{affix}"))
}

/// `prefix` and `suffix`: each element of an array, or each key of a
/// hash, made a string and given the affix.
fn affix(
    _eval: &mut Evaluator<'_>,
    call: &mut Call<'_, '_>,
    name: &str,
    join: fn(&str, &str) -> String,
) -> EvalResult<Value> {
    let Some(collection) = call.args.first() else {
        return call.error(format!(
            "{name}(): Wrong number of arguments given (0 for 1)"
        ));
    };
    if !matches!(collection, Value::Array(_) | Value::Hash(_)) {
        return call.error(format!(
            "{name}(): expected first argument to be an Array or a Hash, got {}",
            ruby_inspect(collection)
        ));
    }
    let affix = match call.args.get(1) {
        None | Some(Value::Undef) => String::new(),
        Some(Value::String(s)) => s.to_string(),
        Some(other) => {
            return call.error(format!(
                "{name}(): expected second argument to be a String, got {}",
                ruby_inspect(other)
            ));
        }
    };
    let text = |v: &Value| Value::string(join(&affix, &ruby_to_s(v)));
    Ok(match collection {
        Value::Array(items) => Value::array(items.iter().map(text).collect()),
        Value::Hash(hash) => Value::hash(
            hash.iter()
                .map(|(k, v)| (text(k), v.clone()))
                .collect::<PHash>(),
        ),
        _ => unreachable!("checked above"),
    })
}

/// The arrays united, each element once, in order.
fn union(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    if call.args.len() < 2 {
        return call.error(format!(
            "union(): Wrong number of arguments given ({} for < 2)",
            call.args.len()
        ));
    }
    let mut out: Vec<Value> = Vec::new();
    for arg in &call.args {
        let Value::Array(items) = arg else {
            return call.error("union(): Every parameter must be an array");
        };
        for item in items.iter() {
            if !out.contains(item) {
                out.push(item.clone());
            }
        }
    }
    Ok(Value::array(out))
}

fn difference(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    if call.args.len() != 2 {
        return call.error(format!(
            "difference(): Wrong number of arguments given ({} for 2)",
            call.args.len()
        ));
    }
    match (&call.args[0], &call.args[1]) {
        (Value::Array(first), Value::Array(second)) => Ok(Value::array(
            first
                .iter()
                .filter(|v| !second.contains(v))
                .cloned()
                .collect(),
        )),
        _ => call.error("difference(): Requires 2 arrays"),
    }
}

/// The first array with the others' elements, or the other values,
/// appended.
fn concat(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    if call.args.len() < 2 {
        return call.error(format!(
            "concat(): Wrong number of arguments given ({} for < 2)",
            call.args.len()
        ));
    }
    let Value::Array(first) = &call.args[0] else {
        return call.error("concat(): Requires array to work with");
    };
    let mut out = first.to_vec();
    for arg in &call.args[1..] {
        match arg {
            Value::Array(items) => out.extend(items.iter().cloned()),
            other => out.push(other.clone()),
        }
    }
    Ok(Value::array(out))
}

/// `key<separator>value` for each pair, one for each element of an array
/// value.
fn join_keys_to_values(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    if call.args.len() != 2 {
        return call.error(format!(
            "join_keys_to_values(): Takes exactly two arguments, but {} given.",
            call.args.len()
        ));
    }
    let Value::Hash(hash) = &call.args[0] else {
        return call.error(format!(
            "join_keys_to_values(): The first argument must be a hash, but a {} was given.",
            ruby_class(&call.args[0])
        ));
    };
    let Value::String(separator) = &call.args[1] else {
        return call.error(format!(
            "join_keys_to_values(): The second argument must be a string, but a {} was given.",
            ruby_class(&call.args[1])
        ));
    };
    let mut out = Vec::new();
    for (k, v) in hash.iter() {
        let key = ruby_to_s(k);
        match v {
            Value::Array(items) => {
                for item in items.iter() {
                    out.push(Value::string(format!(
                        "{key}{separator}{}",
                        ruby_to_s(item)
                    )));
                }
            }
            other => out.push(Value::string(format!(
                "{key}{separator}{}",
                ruby_to_s(other)
            ))),
        }
    }
    Ok(Value::array(out))
}

/// Hashes merged, later keys winning in the earlier keys' places; undef
/// and empty strings are skipped. With a block, the block's answer for
/// each element (or pair) of one iterable is merged in turn.
fn merge<'p>(eval: &mut Evaluator<'p>, call: &mut Call<'_, 'p>) -> EvalResult<Value> {
    let mut merged = PHash::new();
    if let Some(lambda) = call.lambda {
        let elements =
            crate::functions::iterable(call, call.args.first().unwrap_or(&Value::Undef))?;
        let hash_style = matches!(call.args.first(), Some(Value::Hash(_)));
        let params = lambda.lambda.params.len();
        for (index, element) in elements.into_iter().enumerate() {
            let accumulator = Value::hash(merged.clone());
            let args = match (params, hash_style, element) {
                (3, true, Value::Array(pair)) if pair.len() == 2 => {
                    vec![accumulator, pair[0].clone(), pair[1].clone()]
                }
                (3, _, element) => vec![accumulator, Value::Integer(index as i64), element],
                (_, _, element) => vec![accumulator, element],
            };
            if let Value::Hash(answer) = eval.call_lambda(&lambda, args, call.span)? {
                for (k, v) in answer.iter() {
                    merged.insert(k.clone(), v.clone());
                }
            }
        }
        return Ok(Value::hash(merged));
    }
    for arg in call.args.iter() {
        match arg {
            Value::Hash(hash) => {
                for (k, v) in hash.iter() {
                    merged.insert(k.clone(), v.clone());
                }
            }
            Value::Undef => {}
            Value::String(s) if s.is_empty() => {}
            other => {
                // No signature of stdlib's accepts it; Puppet lists them.
                return call.error(format!(
                    "The function 'merge' was called with arguments it does not accept. It expects one of:\n  (Variant[Hash[Scalar, Any], Undef, String[0, 0]] args*)\n    rejected: parameter 'args' expects a value of type Undef, Hash, or String, got {}\n  (Iterable args*, Callable[3, 3] block)\n    rejected: expects a block\n  (Iterable args*, Callable[2, 2] block)\n    rejected: expects a block",
                    marionette_values::PType::infer(other).name()
                ));
            }
        }
    }
    Ok(Value::hash(merged))
}

/// Hashes merged recursively: where both hold a hash under a key, those
/// merge too; otherwise the later value wins.
fn deep_merge(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    if call.args.len() < 2 {
        return call.error(format!(
            "deep_merge(): wrong number of arguments ({}; must be at least 2)",
            call.args.len()
        ));
    }
    fn merge_into(into: &mut PHash, from: &PHash) {
        for (k, v) in from.iter() {
            match (into.get_mut(k), v) {
                (Some(Value::Hash(old)), Value::Hash(new)) => {
                    let mut inner = (**old).clone();
                    merge_into(&mut inner, new);
                    *old = std::sync::Arc::new(inner);
                }
                _ => {
                    into.insert(k.clone(), v.clone());
                }
            }
        }
    }
    let mut merged = PHash::new();
    for arg in &call.args {
        match arg {
            Value::Hash(hash) => merge_into(&mut merged, hash),
            // Undef reaches stdlib as an empty string, which is skipped.
            Value::Undef => {}
            Value::String(s) if s.is_empty() => {}
            other => {
                return call.error(format!(
                    "deep_merge: unexpected argument type {}, only expects hash arguments",
                    ruby_class(other)
                ));
            }
        }
    }
    Ok(Value::hash(merged))
}

fn has_key(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    if call.args.len() != 2 {
        return call.error(format!(
            "has_key(): wrong number of arguments ({}; must be 2)",
            call.args.len()
        ));
    }
    match &call.args[0] {
        Value::Hash(hash) => Ok(Value::Boolean(hash.contains_key(&call.args[1]))),
        other => call.error(format!(
            "has_key(): expects the first argument to be a hash, got {} which is of type {}",
            ruby_inspect(other),
            ruby_class(other)
        )),
    }
}

/// A collection without the items given (an item or an array of them):
/// array elements and hash keys removed, text cut out of a string.
fn delete(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    if call.args.len() != 2 {
        return call.error(format!(
            "delete(): Wrong number of arguments given {} for 2",
            call.args.len()
        ));
    }
    let items = match &call.args[1] {
        Value::Array(items) => items.to_vec(),
        Value::Undef => Vec::new(),
        other => vec![other.clone()],
    };
    match &call.args[0] {
        Value::Array(array) => Ok(Value::array(
            array.iter().filter(|v| !items.contains(v)).cloned().collect(),
        )),
        Value::Hash(hash) => Ok(Value::hash(
            hash.iter()
                .filter(|(k, _)| !items.contains(k))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        )),
        Value::String(text) => {
            let mut text = text.to_string();
            for item in &items {
                let cut = ruby_to_s(item);
                if !cut.is_empty() {
                    text = text.replace(&cut, "");
                }
            }
            Ok(Value::string(text))
        }
        other => call.error(format!(
            "delete(): First argument must be an Array, String, or Hash. Given an argument of class {}.",
            ruby_class(other)
        )),
    }
}

fn delete_at(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    if call.args.len() < 2 {
        return call.error(format!(
            "delete_at(): Wrong number of arguments given ({} for 2)",
            call.args.len()
        ));
    }
    let Value::Array(array) = &call.args[0] else {
        return call.error("delete_at(): Requires array to work with");
    };
    let index = match &call.args[1] {
        Value::Integer(i) => *i,
        Value::String(s) if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => {
            s.parse().unwrap_or(i64::MAX)
        }
        Value::String(_) => {
            return call.error("delete_at(): You must provide non-negative numeric index");
        }
        _ => 0,
    };
    if index > array.len() as i64 - 1 {
        return call.error("delete_at(): Given index exceeds size of array given");
    }
    let mut out = array.to_vec();
    // Ruby counts a negative index from the end.
    let at = if index < 0 {
        array.len() as i64 + index
    } else {
        index
    };
    if at >= 0 {
        out.remove(at as usize);
    }
    Ok(Value::array(out))
}

fn flatten(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    if call.args.len() != 1 {
        return call.error(format!(
            "flatten(): Wrong number of arguments given ({} for 1)",
            call.args.len()
        ));
    }
    let Value::Array(array) = &call.args[0] else {
        return call.error("flatten(): Requires array to work with");
    };
    let mut out = Vec::new();
    flatten_into(array, &mut out);
    Ok(Value::array(out))
}

/// The elements of nested arrays, in order, as Ruby's `flatten` gives.
fn flatten_into(items: &[Value], out: &mut Vec<Value>) {
    for item in items {
        match item {
            Value::Array(inner) => flatten_into(inner, out),
            other => out.push(other.clone()),
        }
    }
}

/// Ruby's `to_s` of a value handed to stdlib: undef is empty.
pub(super) fn ruby_to_s(value: &Value) -> String {
    match value {
        Value::String(s) => s.to_string(),
        Value::Undef => String::new(),
        Value::Float(f) => marionette_values::format::ruby_float(*f),
        Value::Array(_) | Value::Hash(_) => ruby_inspect(value),
        other => to_s(other),
    }
}

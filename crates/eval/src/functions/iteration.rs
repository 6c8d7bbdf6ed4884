//! Iteration: `each`, `map`, `filter`, `reduce`, `any`, `all`, `partition`,
//! `group_by`, `reverse_each`, `step`, `slice`, `index`, `tree_each`, and
//! the block helpers `with`, `then`, `lest`.
//!
//! A block with one parameter gets each element (for a hash, a `[key,
//! value]` pair); with two it gets the index (or key) and the element.
//! `break()` ends the iteration early.

use std::collections::HashMap;

use marionette_values::format::to_s;
use marionette_values::{PHash, PType, Value};

use super::{Builtin, Call, iterable};
use crate::error::{EvalResult, Stop};
use crate::evaluator::{Closure, Evaluator};

pub(super) fn register(map: &mut HashMap<&'static str, Builtin>) {
    map.insert("each", each);
    map.insert("map", map_fn);
    map.insert("filter", filter);
    map.insert("reduce", reduce);
    map.insert("any", |e, c| any_all(e, c, true));
    map.insert("all", |e, c| any_all(e, c, false));
    map.insert("partition", partition);
    map.insert("group_by", group_by);
    map.insert("reverse_each", reverse_each);
    map.insert("step", step);
    map.insert("slice", slice);
    map.insert("index", index);
    map.insert("tree_each", tree_each);
    map.insert("with", with);
    map.insert("then", then);
    map.insert("lest", lest);
}

/// One element of a collection with its position: the index for arrays,
/// the key for hashes.
struct Element {
    position: Value,
    value: Value,
    /// For hashes: the pair `[key, value]` a one-parameter block receives.
    pair: Option<Value>,
}

fn elements(call: &Call<'_, '_>, collection: &Value) -> EvalResult<Vec<Element>> {
    match collection {
        Value::Hash(hash) => Ok(hash
            .iter()
            .map(|(k, v)| Element {
                position: k.clone(),
                value: v.clone(),
                pair: Some(Value::array(vec![k.clone(), v.clone()])),
            })
            .collect()),
        other => Ok(iterable(call, other)?
            .into_iter()
            .enumerate()
            .map(|(i, value)| Element {
                position: Value::Integer(i as i64),
                value,
                pair: None,
            })
            .collect()),
    }
}

fn block_args(closure: &Closure<'_>, element: &Element) -> Vec<Value> {
    if closure.lambda.params.len() >= 2 {
        vec![element.position.clone(), element.value.clone()]
    } else {
        vec![
            element
                .pair
                .clone()
                .unwrap_or_else(|| element.value.clone()),
        ]
    }
}

/// Runs the block over the elements; `visit` gets each result and returns
/// whether to go on. A `break()` in the block stops the loop quietly.
fn iterate<'p>(
    eval: &mut Evaluator<'p>,
    call: &Call<'_, 'p>,
    elements: &[Element],
    mut visit: impl FnMut(&Element, Value) -> bool,
) -> EvalResult<()> {
    let closure = call.lambda()?;
    let declared = closure.lambda.params.len();
    if declared > 2 {
        return call.error(format_args!(
            "'{}' block expects between 1 and 2 arguments, got {declared}",
            call.name
        ));
    }
    for element in elements {
        match eval.call_lambda(&closure, block_args(&closure, element), call.span) {
            Ok(result) => {
                if !visit(element, result) {
                    break;
                }
            }
            Err(Stop::Break(_)) => break,
            Err(other) => return Err(other),
        }
    }
    Ok(())
}

fn collection_arg(call: &Call<'_, '_>, min: usize, max: usize) -> EvalResult<Value> {
    call.arity(min, Some(max))?;
    Ok(call.args[0].clone())
}

fn each<'p>(eval: &mut Evaluator<'p>, call: &mut Call<'_, 'p>) -> EvalResult<Value> {
    let collection = collection_arg(call, 1, 1)?;
    let elements = elements(call, &collection)?;
    iterate(eval, call, &elements, |_, _| true)?;
    Ok(collection)
}

fn map_fn<'p>(eval: &mut Evaluator<'p>, call: &mut Call<'_, 'p>) -> EvalResult<Value> {
    let collection = collection_arg(call, 1, 1)?;
    let elements = elements(call, &collection)?;
    let mut results = Vec::with_capacity(elements.len());
    iterate(eval, call, &elements, |_, result| {
        results.push(result);
        true
    })?;
    Ok(Value::array(results))
}

fn filter<'p>(eval: &mut Evaluator<'p>, call: &mut Call<'_, 'p>) -> EvalResult<Value> {
    let collection = collection_arg(call, 1, 1)?;
    let elements = elements(call, &collection)?;
    let mut kept = Vec::new();
    iterate(eval, call, &elements, |element, result| {
        if result.is_truthy() {
            kept.push((element.position.clone(), element.value.clone()));
        }
        true
    })?;
    Ok(match collection {
        Value::Hash(_) => Value::hash(kept.into_iter().collect::<PHash>()),
        _ => Value::array(kept.into_iter().map(|(_, v)| v).collect()),
    })
}

fn reduce<'p>(eval: &mut Evaluator<'p>, call: &mut Call<'_, 'p>) -> EvalResult<Value> {
    let collection = collection_arg(call, 1, 2)?;
    let closure = call.lambda()?;
    let mut items: Vec<Value> = elements(call, &collection)?
        .into_iter()
        .map(|e| e.pair.unwrap_or(e.value))
        .collect();
    let mut memo = match call.args.get(1) {
        Some(start) => start.clone(),
        None if items.is_empty() => return Ok(Value::Undef),
        None => items.remove(0),
    };
    // The memo is handed over rather than shared, so that a lambda adding
    // to it can extend it in place (see `moves`); a lambda that may `break`
    // gets a copy, since reduce then returns the memo it had.
    let may_break = crate::moves::may_break(closure.lambda);
    for item in items {
        let given = if may_break {
            memo.clone()
        } else {
            std::mem::replace(&mut memo, Value::Undef)
        };
        match eval.call_lambda(&closure, vec![given, item], call.span) {
            Ok(result) => memo = result,
            Err(Stop::Break(_)) => break,
            Err(other) => return Err(other),
        }
    }
    Ok(memo)
}

fn any_all<'p>(eval: &mut Evaluator<'p>, call: &mut Call<'_, 'p>, any: bool) -> EvalResult<Value> {
    let collection = collection_arg(call, 1, 1)?;
    let elements = elements(call, &collection)?;
    let mut outcome = !any;
    iterate(eval, call, &elements, |_, result| {
        if result.is_truthy() == any {
            outcome = any;
            return false;
        }
        true
    })?;
    Ok(Value::Boolean(outcome))
}

fn partition<'p>(eval: &mut Evaluator<'p>, call: &mut Call<'_, 'p>) -> EvalResult<Value> {
    let collection = collection_arg(call, 1, 1)?;
    let elements = elements(call, &collection)?;
    let (mut yes, mut no) = (Vec::new(), Vec::new());
    iterate(eval, call, &elements, |element, result| {
        let item = element
            .pair
            .clone()
            .unwrap_or_else(|| element.value.clone());
        if result.is_truthy() {
            yes.push(item)
        } else {
            no.push(item)
        }
        true
    })?;
    Ok(Value::array(vec![Value::array(yes), Value::array(no)]))
}

fn group_by<'p>(eval: &mut Evaluator<'p>, call: &mut Call<'_, 'p>) -> EvalResult<Value> {
    let collection = collection_arg(call, 1, 1)?;
    let elements = elements(call, &collection)?;
    let mut groups = PHash::new();
    iterate(eval, call, &elements, |element, key| {
        let item = element
            .pair
            .clone()
            .unwrap_or_else(|| element.value.clone());
        match groups
            .entry(key)
            .or_insert_with(|| Value::array(Vec::new()))
        {
            Value::Array(items) => std::sync::Arc::make_mut(items).push(item),
            _ => unreachable!("groups hold arrays"),
        }
        true
    })?;
    Ok(Value::hash(groups))
}

fn reverse_each<'p>(eval: &mut Evaluator<'p>, call: &mut Call<'_, 'p>) -> EvalResult<Value> {
    let collection = collection_arg(call, 1, 1)?;
    let mut items = iterable(call, &collection)?;
    items.reverse();
    iterator_or_each(eval, call, items, collection)
}

fn step<'p>(eval: &mut Evaluator<'p>, call: &mut Call<'_, 'p>) -> EvalResult<Value> {
    let collection = collection_arg(call, 2, 2)?;
    let step = call.integer(1, "step")?;
    if step < 1 {
        return call.error(format_args!(
            "'step' parameter 'step' expects an Integer[1] value, got Integer[{step}, {step}]"
        ));
    }
    let items: Vec<Value> = iterable(call, &collection)?
        .into_iter()
        .step_by(step as usize)
        .collect();
    iterator_or_each(eval, call, items, collection)
}

/// Without a block, the items as an iterator; with one, the block runs
/// over them and the original collection is returned.
fn iterator_or_each<'p>(
    eval: &mut Evaluator<'p>,
    call: &Call<'_, 'p>,
    items: Vec<Value>,
    collection: Value,
) -> EvalResult<Value> {
    if call.lambda.is_none() {
        return Ok(Value::Iterator(items));
    }
    let elements: Vec<Element> = items
        .into_iter()
        .enumerate()
        .map(|(i, value)| Element {
            position: Value::Integer(i as i64),
            value,
            pair: None,
        })
        .collect();
    iterate(eval, call, &elements, |_, _| true)?;
    Ok(collection)
}

fn slice<'p>(eval: &mut Evaluator<'p>, call: &mut Call<'_, 'p>) -> EvalResult<Value> {
    let collection = collection_arg(call, 2, 2)?;
    let size = call.integer(1, "slice_size")?;
    if size < 1 {
        return call.error("'slice' expects a slice size greater than 0");
    }
    let items: Vec<Value> = elements(call, &collection)?
        .into_iter()
        .map(|e| e.pair.unwrap_or(e.value))
        .collect();
    let slices: Vec<Value> = items
        .chunks(size as usize)
        .map(|chunk| Value::array(chunk.to_vec()))
        .collect();
    let Some(closure) = call.lambda else {
        return Ok(Value::array(slices));
    };
    for chunk in slices {
        let args = match (&chunk, closure.lambda.params.len()) {
            (Value::Array(items), n) if n > 1 => {
                let mut args = items.to_vec();
                args.resize(n, Value::Undef);
                args
            }
            _ => vec![chunk],
        };
        match eval.call_lambda(&closure, args, call.span) {
            Ok(_) => {}
            Err(Stop::Break(_)) => break,
            Err(other) => return Err(other),
        }
    }
    Ok(collection)
}

fn index<'p>(eval: &mut Evaluator<'p>, call: &mut Call<'_, 'p>) -> EvalResult<Value> {
    let collection = collection_arg(call, 1, 2)?;
    if let Some(wanted) = call.args.get(1).cloned() {
        return Ok(match (&collection, &wanted) {
            (Value::String(haystack), Value::String(needle)) => {
                haystack.find(&**needle).map_or(Value::Undef, |byte| {
                    Value::Integer(haystack[..byte].chars().count() as i64)
                })
            }
            (Value::Hash(hash), _) => hash
                .iter()
                .find(|(_, v)| **v == wanted)
                .map_or(Value::Undef, |(k, _)| k.clone()),
            _ => iterable(call, &collection)?
                .iter()
                .position(|v| *v == wanted)
                .map_or(Value::Undef, |i| Value::Integer(i as i64)),
        });
    }
    let mut elements = elements(call, &collection)?;
    // Here a one-parameter block gets a hash's values, not its pairs.
    for element in &mut elements {
        element.pair = None;
    }
    let mut found = Value::Undef;
    iterate(eval, call, &elements, |element, result| {
        if result.is_truthy() {
            found = element.position.clone();
            return false;
        }
        true
    })?;
    Ok(found)
}

/// Depth first over nested arrays and hashes, giving the block the path
/// (an array of keys and indexes) and the value, containers included.
fn tree_each<'p>(eval: &mut Evaluator<'p>, call: &mut Call<'_, 'p>) -> EvalResult<Value> {
    let tree = collection_arg(call, 1, 2)?;
    let tree_items = match &tree {
        Value::Array(_) | Value::Hash(_) => tree.clone(),
        Value::Iterator(items) => Value::array(items.clone()),
        other => {
            return call.error(format_args!(
                "'tree_each' parameter 'tree' expects a value of type Iterator, Array, Hash, or Object, got {}",
                PType::infer(other).generalize().name()
            ));
        }
    };
    let options = TreeOptions::read(call)?;
    let mut visits = Vec::new();
    if options.breadth_first {
        let mut level = vec![(Vec::new(), tree_items)];
        while !level.is_empty() {
            let mut next = Vec::new();
            for (path, value) in level {
                next.extend(tree_children(&path, &value));
                visits.push((path, value));
            }
            level = next;
        }
    } else {
        collect_tree(&tree_items, Vec::new(), &mut visits);
    }
    visits.retain(|(path, value)| {
        let container = matches!(value, Value::Array(_) | Value::Hash(_));
        (options.include_root || !path.is_empty())
            && if container {
                options.include_containers
            } else {
                options.include_values
            }
    });
    let Some(closure) = call.lambda else {
        return Ok(Value::Iterator(
            visits
                .into_iter()
                .map(|(path, value)| Value::array(vec![Value::array(path), value]))
                .collect(),
        ));
    };
    for (path, value) in visits {
        // One parameter receives the value alone, two the path and value.
        let args = if closure.lambda.params.len() >= 2 {
            vec![Value::array(path), value]
        } else {
            vec![value]
        };
        match eval.call_lambda(&closure, args, call.span) {
            Ok(_) => {}
            Err(Stop::Break(_)) => break,
            Err(other) => return Err(other),
        }
    }
    Ok(tree)
}

/// `tree_each`'s options hash.
struct TreeOptions {
    breadth_first: bool,
    include_containers: bool,
    include_values: bool,
    include_root: bool,
}

impl TreeOptions {
    fn read(call: &Call<'_, '_>) -> EvalResult<TreeOptions> {
        let mut options = TreeOptions {
            breadth_first: false,
            include_containers: true,
            include_values: true,
            include_root: true,
        };
        let Some(given) = call.args.get(1) else {
            return Ok(options);
        };
        let Value::Hash(given) = given else {
            return call.mismatch("options", "Hash", 1);
        };
        for (key, value) in given.iter() {
            let flag = |value: &Value| match value {
                Value::Boolean(b) => Ok(*b),
                _ => call.error(format_args!(
                    "'tree_each' option '{}' expects a Boolean value, got {}",
                    to_s(key),
                    PType::infer(value).generalize().name()
                )),
            };
            match (to_s(key).as_str(), value) {
                ("order", Value::String(order)) if &**order == "depth_first" => {
                    options.breadth_first = false
                }
                ("order", Value::String(order)) if &**order == "breadth_first" => {
                    options.breadth_first = true
                }
                ("include_containers", v) => options.include_containers = flag(v)?,
                ("include_values", v) => options.include_values = flag(v)?,
                ("include_root", v) => options.include_root = flag(v)?,
                (name, _) => {
                    return call.error(format_args!(
                        "'tree_each' does not accept the option '{name}' with value {}",
                        to_s(value)
                    ));
                }
            }
        }
        Ok(options)
    }
}

/// The direct children of a container, with their paths.
fn tree_children(path: &[Value], value: &Value) -> Vec<(Vec<Value>, Value)> {
    let child = |key: Value, item: &Value| {
        let mut child_path = path.to_vec();
        child_path.push(key);
        (child_path, item.clone())
    };
    match value {
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, item)| child(Value::Integer(i as i64), item))
            .collect(),
        Value::Hash(hash) => hash.iter().map(|(k, v)| child(k.clone(), v)).collect(),
        _ => Vec::new(),
    }
}

fn collect_tree(value: &Value, path: Vec<Value>, out: &mut Vec<(Vec<Value>, Value)>) {
    let children = tree_children(&path, value);
    out.push((path, value.clone()));
    for (child_path, child) in children {
        collect_tree(&child, child_path, out);
    }
}

fn with<'p>(eval: &mut Evaluator<'p>, call: &mut Call<'_, 'p>) -> EvalResult<Value> {
    let closure = call.lambda()?;
    let args = std::mem::take(&mut call.args);
    eval.call_lambda(&closure, args, call.span)
}

fn then<'p>(eval: &mut Evaluator<'p>, call: &mut Call<'_, 'p>) -> EvalResult<Value> {
    call.arity(1, Some(1))?;
    let closure = call.lambda()?;
    if call.args[0].is_undef() {
        return Ok(Value::Undef);
    }
    eval.call_lambda(&closure, vec![call.args[0].clone()], call.span)
}

fn lest<'p>(eval: &mut Evaluator<'p>, call: &mut Call<'_, 'p>) -> EvalResult<Value> {
    call.arity(1, Some(1))?;
    let closure = call.lambda()?;
    if call.args[0].is_undef() {
        return eval.call_lambda(&closure, Vec::new(), call.span);
    }
    Ok(call.args[0].clone())
}

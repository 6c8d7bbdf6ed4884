//! stdlib's functions that write values as JSON or YAML: `to_json`,
//! `to_json_pretty` and `to_yaml`, with the text Ruby's `json` and Psych
//! give (values::json and hiera's YAML writer).

use std::collections::HashMap;

use marionette_values::json::{JsonStyle, generate};
use marionette_values::{PHash, Value};

use crate::error::EvalResult;
use crate::evaluator::Evaluator;
use crate::functions::{Builtin, Call};

pub(super) fn register(map: &mut HashMap<&'static str, Builtin>) {
    map.insert("to_json", to_json);
    map.insert("to_json_pretty", to_json_pretty);
    map.insert("to_yaml", to_yaml);
}

/// Checks argument `index` against the type stdlib's signature declares,
/// failing with Puppet's message for the parameter.
pub(super) fn typed(
    eval: &Evaluator<'_>,
    call: &Call<'_, '_>,
    index: usize,
    parameter: &str,
    declared: &str,
) -> EvalResult<()> {
    let Some(value) = call.args.get(index) else {
        return Ok(());
    };
    // The declared types are stdlib's own and always parse.
    let expected = marionette_values::parse_type(declared).unwrap_or(marionette_values::PType::Any);
    eval.check_type(
        &expected,
        value,
        &format!("'{}' parameter '{parameter}'", call.name),
        call.span,
    )
}

fn to_json(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    call.arity(1, Some(1))?;
    Ok(Value::string(json(
        call,
        &call.args[0],
        &JsonStyle::compact(),
    )?))
}

fn json(call: &Call<'_, '_>, value: &Value, style: &JsonStyle) -> EvalResult<String> {
    match generate(value, style) {
        Ok(text) => Ok(text),
        Err(error) => call.error(error),
    }
}

/// The layout options `to_json_pretty` accepts, each optional.
const PRETTY_OPTIONS: &str = "Struct[{indent => Optional[String], space => Optional[String], space_before => Optional[String], object_nl => Optional[String], array_nl => Optional[String], allow_nan => Optional[Boolean], max_nesting => Optional[Integer[-1, default]]}]";

/// `JSON.pretty_generate` of a hash or array, undef elements left out
/// when asked, with a final line break.
fn to_json_pretty(eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    call.arity(1, Some(3))?;
    typed(eval, call, 0, "data", "Variant[Hash, Array]")?;
    typed(eval, call, 1, "skip_undef", "Optional[Boolean]")?;
    // The options may be left out, but not given as undef.
    typed(eval, call, 2, "opts", PRETTY_OPTIONS)?;
    let mut style = JsonStyle::pretty();
    if let Some(Value::Hash(opts)) = call.args.get(2) {
        for (key, value) in opts.iter() {
            let Value::String(key) = key else { continue };
            let text = match value {
                Value::String(s) => s.to_string(),
                _ => String::new(),
            };
            match (&**key, value) {
                // An undef option leaves the layout as it is.
                (_, Value::Undef) => {}
                ("indent", _) => style.indent = text,
                ("space", _) => style.space = text,
                ("space_before", _) => style.space_before = text,
                ("object_nl", _) => style.object_nl = text,
                ("array_nl", _) => style.array_nl = text,
                ("allow_nan", Value::Boolean(b)) => style.allow_nan = *b,
                // -1 lifts the limit, as stdlib turns it into Ruby's false.
                ("max_nesting", Value::Integer(-1)) => style.max_nesting = None,
                ("max_nesting", Value::Integer(n)) => style.max_nesting = Some(*n),
                _ => {}
            }
        }
    }
    let data = match (&call.args[0], call.args.get(1)) {
        (Value::Array(items), Some(Value::Boolean(true))) => {
            Value::array(items.iter().filter(|v| !v.is_undef()).cloned().collect())
        }
        (Value::Hash(hash), Some(Value::Boolean(true))) => Value::hash(
            hash.iter()
                .filter(|(_, v)| !v.is_undef())
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect::<PHash>(),
        ),
        (data, _) => data.clone(),
    };
    let text = json(call, &data, &style)?;
    Ok(Value::string(format!("{text}\n")))
}

/// Psych's YAML of a value: `---`, then the value.
fn to_yaml(eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    call.arity(1, Some(2))?;
    typed(eval, call, 1, "options", "Hash")?;
    Ok(Value::string(marionette_hiera::yaml::emit::dump(
        &call.args[0],
    )))
}

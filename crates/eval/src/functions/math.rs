//! `abs`, `ceiling`, `floor`, `round`.

use std::collections::HashMap;

use marionette_values::Value;

use super::{Builtin, Call};
use crate::error::EvalResult;
use crate::evaluator::Evaluator;
use crate::operators::{Number, parse_number};

pub(super) fn register(map: &mut HashMap<&'static str, Builtin>) {
    map.insert("abs", abs);
    map.insert("ceiling", |e, c| rounding(e, c, f64::ceil));
    map.insert("floor", |e, c| rounding(e, c, f64::floor));
    map.insert("round", |e, c| rounding(e, c, f64::round));
}

/// The numeric argument. Strings are still converted, with the deprecation
/// warning Puppet gives (`target` names what the string becomes).
fn number(eval: &mut Evaluator<'_>, call: &Call<'_, '_>, target: &str) -> EvalResult<Number> {
    call.arity(1, Some(1))?;
    match &call.args[0] {
        Value::Integer(i) => Ok(Number::Integer(*i)),
        Value::Float(f) => Ok(Number::Float(*f)),
        // `round` takes numbers only; the others still convert strings.
        Value::String(_) if call.name == "round" => call.mismatch("val", "Numeric", 0),
        Value::String(s) => match parse_number(s) {
            Some(number) => {
                eval.warn_plain(&format!(
                    "The {}() function's auto conversion of String to {target} is deprecated - change to convert input before calling",
                    call.name
                ), None);
                Ok(number)
            }
            None => {
                eval.warn_plain(&format!(
                    "The {}() function's auto conversion of String to {target} is deprecated - change to convert input before calling",
                    call.name
                ), None);
                let what = if target == "Float" {
                    "a floating point value"
                } else {
                    "a numeric value"
                };
                call.error(format_args!(
                    "{}(): cannot convert given value to {what}.",
                    call.name
                ))
            }
        },
        _ => call.mismatch("val", "Numeric or String", 0),
    }
}

fn abs(eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    match number(eval, call, "Numeric")? {
        Number::Integer(i) => match i.checked_abs() {
            Some(a) => Ok(Value::Integer(a)),
            None => call.error("Integer overflow in abs"),
        },
        Number::Float(f) => Ok(Value::Float(f.abs())),
    }
}

fn rounding(
    eval: &mut Evaluator<'_>,
    call: &mut Call<'_, '_>,
    op: fn(f64) -> f64,
) -> EvalResult<Value> {
    match number(eval, call, "Float")? {
        Number::Integer(i) => Ok(Value::Integer(i)),
        Number::Float(f) => {
            let rounded = op(f);
            if rounded.abs() < 9.2e18 {
                Ok(Value::Integer(rounded as i64))
            } else {
                call.error("The result is out of Integer range")
            }
        }
    }
}

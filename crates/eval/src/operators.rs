//! The binary and unary operators on values.
//!
//! Arithmetic converts numeric strings (`'10' + 1` is `11`), integer
//! division and modulo round as Ruby does (`-7 / 2` is `-4`, `-7 % 2` is
//! `1`), and overflow is an error rather than a wrap.

use std::cmp::Ordering;
use std::sync::Arc;

use marionette_diagnostics::Span;
use marionette_syntax::ast::BinaryOp;
use marionette_values::format::{to_s, type_label};
use marionette_values::{PHash, Timespan, Timestamp, Value};

use crate::error::{EvalResult, fail};

/// A number, after converting a numeric string.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Number {
    Integer(i64),
    Float(f64),
}

impl Number {
    fn as_f64(self) -> f64 {
        match self {
            Number::Integer(i) => i as f64,
            Number::Float(f) => f,
        }
    }
}

/// Parses Puppet's number syntax in a string: decimal, `0x` hex, `0` octal,
/// floats with exponents, an optional sign.
pub(crate) fn parse_number(text: &str) -> Option<Number> {
    let trimmed = text.trim();
    let (negative, digits) = match trimmed.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, trimmed.strip_prefix('+').unwrap_or(trimmed)),
    };
    let sign = |i: i64| if negative { -i } else { i };
    if let Some(hex) = digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        return i64::from_str_radix(hex, 16)
            .ok()
            .map(|i| Number::Integer(sign(i)));
    }
    if digits.len() > 1 && digits.starts_with('0') && digits.bytes().all(|b| b.is_ascii_digit()) {
        return i64::from_str_radix(&digits[1..], 8)
            .ok()
            .map(|i| Number::Integer(sign(i)));
    }
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        return digits.parse::<i64>().ok().map(|i| Number::Integer(sign(i)));
    }
    let looks_float = digits.bytes().next().is_some_and(|b| b.is_ascii_digit())
        && digits
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'-' | b'+'));
    if looks_float {
        return digits
            .parse::<f64>()
            .ok()
            .map(|f| Number::Float(if negative { -f } else { f }));
    }
    None
}

/// Where an operator and its operands are, for messages.
#[derive(Clone, Copy)]
pub(crate) struct Places {
    pub(crate) operator: Span,
    pub(crate) left: Span,
    pub(crate) right: Span,
}

/// Warnings raised while applying an operator (numeric strings coerced).
pub(crate) type Warnings = Vec<(String, Span)>;

pub(crate) fn to_number(value: &Value, span: Span, warnings: &mut Warnings) -> EvalResult<Number> {
    match value {
        Value::Integer(i) => Ok(Number::Integer(*i)),
        Value::Float(f) => Ok(Number::Float(*f)),
        Value::String(s) => {
            match parse_number(s) {
                Some(number) => {
                    let shown = match number {
                        Number::Integer(i) => i.to_string(),
                        Number::Float(f) => marionette_values::format::float_to_string(f),
                    };
                    warnings.push((format!("The string '{s}' was automatically coerced to the numerical value {shown}"), span));
                    Ok(number)
                }
                None => fail(
                    format!("The value '{s}' cannot be converted to Numeric."),
                    span,
                ),
            }
        }
        other => fail(
            format!(
                "The value '{}' cannot be converted to Numeric.",
                to_s(other)
            ),
            span,
        ),
    }
}

pub(crate) fn negate(value: Value, span: Span, warnings: &mut Warnings) -> EvalResult<Value> {
    match to_number(&value, span, warnings)? {
        Number::Integer(i) => match i.checked_neg() {
            Some(n) => Ok(Value::Integer(n)),
            None => fail("Integer overflow in negation", span),
        },
        Number::Float(f) => Ok(Value::Float(-f)),
    }
}

fn arithmetic(op: BinaryOp, left: Number, right: Number, at: &Places) -> EvalResult<Value> {
    let symbol = op.text();
    match (left, right) {
        (Number::Integer(a), Number::Integer(b)) => {
            if matches!(op, BinaryOp::Div | BinaryOp::Mod) && b == 0 {
                return fail("Division by 0", at.right);
            }
            let (a, b) = (i128::from(a), i128::from(b));
            let exact = match op {
                BinaryOp::Add => a + b,
                BinaryOp::Sub => a - b,
                BinaryOp::Mul => a * b,
                BinaryOp::Div => a.div_euclid(b) - i128::from(b < 0 && a.rem_euclid(b) != 0),
                // Ruby's modulo takes the sign of the divisor.
                BinaryOp::Mod => {
                    let r = a % b;
                    if r != 0 && (r < 0) != (b < 0) {
                        r + b
                    } else {
                        r
                    }
                }
                _ => unreachable!("only arithmetic operators reach here"),
            };
            match i64::try_from(exact) {
                Ok(value) => Ok(Value::Integer(value)),
                Err(_) => {
                    let (sign, bound) = if exact < 0 {
                        ('-', "min")
                    } else {
                        ('+', "max")
                    };
                    fail(
                        format!(
                            "A '{symbol}' expression resulted in a value outside of Puppet Integer {bound} range, got '{sign}0x{:x}'",
                            exact.unsigned_abs()
                        ),
                        at.operator,
                    )
                }
            }
        }
        (left, right) => {
            if op == BinaryOp::Mod {
                return fail("Operator '%' is not applicable to a Float.", at.left);
            }
            let (a, b) = (left.as_f64(), right.as_f64());
            let result = match op {
                BinaryOp::Add => a + b,
                BinaryOp::Sub => a - b,
                BinaryOp::Mul => a * b,
                BinaryOp::Div => a / b,
                _ => unreachable!("only arithmetic operators reach here"),
            };
            if result.is_infinite() || result.is_nan() {
                let what = if result.is_nan() { "NaN" } else { "Infinity" };
                return fail(
                    format!("The result of the {symbol} expression is {what}"),
                    at.left,
                );
            }
            Ok(Value::Float(result))
        }
    }
}

/// `==`: a type on the left equals a type with the same instances (only
/// there: types inside arrays compare as written, as in Puppet); other
/// values compare as Puppet's values do.
fn equals(left: &Value, right: &Value) -> bool {
    match (left, right) {
        (Value::Type(a), Value::Type(b)) => a.is_equivalent(b),
        _ => left.puppet_equals(right),
    }
}

pub(crate) fn binary(
    op: BinaryOp,
    left: Value,
    right: Value,
    at: &Places,
    warnings: &mut Warnings,
) -> EvalResult<Value> {
    match op {
        BinaryOp::Eq => Ok(Value::Boolean(equals(&left, &right))),
        BinaryOp::NotEq => Ok(Value::Boolean(!equals(&left, &right))),
        BinaryOp::Lt | BinaryOp::Gt | BinaryOp::Le | BinaryOp::Ge => {
            let ordering = compare(&left, &right, op.text(), at.operator)?;
            Ok(Value::Boolean(match op {
                BinaryOp::Lt => ordering == Some(Ordering::Less),
                BinaryOp::Gt => ordering == Some(Ordering::Greater),
                BinaryOp::Le => matches!(ordering, Some(Ordering::Less | Ordering::Equal)),
                _ => matches!(ordering, Some(Ordering::Greater | Ordering::Equal)),
            }))
        }
        BinaryOp::In => Ok(Value::Boolean(is_in(&left, &right))),
        BinaryOp::Add | BinaryOp::Sub
            if matches!(left, Value::Timespan(_) | Value::Timestamp(_))
                || matches!(right, Value::Timespan(_) | Value::Timestamp(_)) =>
        {
            time_arithmetic(op, &left, &right, at)
        }
        BinaryOp::Add => match (left, right) {
            (Value::Array(mut a), Value::Array(b)) => {
                Arc::make_mut(&mut a).extend(b.iter().cloned());
                Ok(Value::Array(a))
            }
            (Value::Array(mut a), Value::Hash(h)) => {
                Arc::make_mut(&mut a).extend(
                    h.iter()
                        .map(|(k, v)| Value::array(vec![k.clone(), v.clone()])),
                );
                Ok(Value::Array(a))
            }
            (Value::Array(mut a), other) => {
                Arc::make_mut(&mut a).push(other);
                Ok(Value::Array(a))
            }
            (Value::Hash(mut a), Value::Hash(b)) => {
                let merged = Arc::make_mut(&mut a);
                for (k, v) in b.iter() {
                    merged.insert(k.clone(), v.clone());
                }
                Ok(Value::Hash(a))
            }
            (Value::Hash(mut a), Value::Array(pairs)) => {
                if !extend_from_pairs(Arc::make_mut(&mut a), &pairs) {
                    return fail(
                        "Error while evaluating a '+' expression, odd number of arguments for Hash",
                        at.operator,
                    );
                }
                Ok(Value::Hash(a))
            }
            (Value::Hash(_), other) => fail(
                format!(
                    "Error while evaluating a '+' expression, {} cannot be added to a Hash",
                    a_label(&other)
                ),
                at.operator,
            ),
            (left, right) => {
                let (a, b) = (
                    to_number(&left, at.left, warnings)?,
                    to_number(&right, at.right, warnings)?,
                );
                arithmetic(BinaryOp::Add, a, b, at)
            }
        },
        BinaryOp::Sub => match (left, right) {
            (Value::Array(a), Value::Array(b)) => Ok(Value::array(
                a.iter()
                    .filter(|x| !b.iter().any(|y| x.puppet_equals(y)))
                    .cloned()
                    .collect(),
            )),
            (Value::Array(a), Value::Hash(h)) => {
                let pairs: Vec<Value> = h
                    .iter()
                    .map(|(k, v)| Value::array(vec![k.clone(), v.clone()]))
                    .collect();
                Ok(Value::array(
                    a.iter()
                        .filter(|x| !pairs.iter().any(|y| x.puppet_equals(y)))
                        .cloned()
                        .collect(),
                ))
            }
            (Value::Array(a), other) => Ok(Value::array(
                a.iter()
                    .filter(|x| !x.puppet_equals(&other))
                    .cloned()
                    .collect(),
            )),
            (Value::Hash(a), Value::Hash(b)) => Ok(Value::hash(
                a.iter()
                    .filter(|(k, _)| !b.contains_key(*k))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect(),
            )),
            (Value::Hash(a), Value::Array(keys)) => Ok(Value::hash(
                a.iter()
                    .filter(|(k, _)| !keys.contains(k))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect(),
            )),
            (Value::Hash(mut a), other) => {
                Arc::make_mut(&mut a).shift_remove(&other);
                Ok(Value::Hash(a))
            }
            (left, right) => {
                let (a, b) = (
                    to_number(&left, at.left, warnings)?,
                    to_number(&right, at.right, warnings)?,
                );
                arithmetic(BinaryOp::Sub, a, b, at)
            }
        },
        BinaryOp::Mul | BinaryOp::Div | BinaryOp::Mod => {
            let (a, b) = (
                to_number(&left, at.left, warnings)?,
                to_number(&right, at.right, warnings)?,
            );
            arithmetic(op, a, b, at)
        }
        BinaryOp::LShift => match left {
            Value::Array(mut a) => {
                Arc::make_mut(&mut a).push(right);
                Ok(Value::Array(a))
            }
            left => shift(left, right, true, at, warnings),
        },
        BinaryOp::RShift => shift(left, right, false, at, warnings),
        BinaryOp::And | BinaryOp::Or | BinaryOp::Match | BinaryOp::NoMatch => {
            unreachable!("handled by the evaluator, which short-circuits")
        }
    }
}

fn shift(
    left: Value,
    right: Value,
    leftwards: bool,
    at: &Places,
    warnings: &mut Warnings,
) -> EvalResult<Value> {
    match (
        to_number(&left, at.left, warnings)?,
        to_number(&right, at.right, warnings)?,
    ) {
        (Number::Integer(a), Number::Integer(b)) => {
            // A negative amount shifts the other way, as in Ruby.
            let leftwards = leftwards == (b >= 0);
            let amount = u32::try_from(b.unsigned_abs().min(63)).unwrap_or(63);
            Ok(Value::Integer(if leftwards {
                a.checked_shl(amount).unwrap_or(0)
            } else {
                a >> amount
            }))
        }
        _ => fail(
            format!(
                "Operator '{}' is not applicable to a Float.",
                if leftwards { "<<" } else { ">>" }
            ),
            at.operator,
        ),
    }
}

fn a_label(value: &Value) -> String {
    let label = type_label(value);
    let article = if label.starts_with(['A', 'E', 'I', 'O', 'U']) {
        "an"
    } else {
        "a"
    };
    format!("{article} {label}")
}

/// Orders two values for `<` and friends: numbers, strings (ignoring
/// case), types (by assignability), timespans. `None` means unordered.
pub(crate) fn compare(
    left: &Value,
    right: &Value,
    op: &str,
    span: Span,
) -> EvalResult<Option<Ordering>> {
    let numeric = |v: &Value| matches!(v, Value::Integer(_) | Value::Float(_));
    match (left, right) {
        (Value::Integer(a), Value::Integer(b)) => Ok(Some(a.cmp(b))),
        (Value::Integer(_) | Value::Float(_), Value::Integer(_) | Value::Float(_)) => {
            let (a, b) = (number_f64(left), number_f64(right));
            Ok(a.partial_cmp(&b))
        }
        (Value::String(a), Value::String(b)) => Ok(Some(a.to_lowercase().cmp(&b.to_lowercase()))),
        (Value::Timespan(a), Value::Timespan(b)) => Ok(Some(a.cmp(b))),
        (Value::Timestamp(a), Value::Timestamp(b)) => Ok(Some(a.cmp(b))),
        (Value::SemVer(a), Value::SemVer(b)) => Ok(Some(a.cmp(b))),
        (Value::Type(a), Value::Type(b)) => Ok(if a.is_equivalent(b) {
            Some(Ordering::Equal)
        } else if b.is_assignable(a) {
            Some(Ordering::Less)
        } else if a.is_assignable(b) {
            Some(Ordering::Greater)
        } else {
            None
        }),
        _ => {
            let cause = if numeric(left) {
                "A Numeric is not comparable to non Numeric"
            } else if matches!(left, Value::String(_)) {
                "A String is not comparable to a non String"
            } else {
                "Only Strings, Numbers, Timespans, Timestamps, and Versions are comparable"
            };
            fail(
                format!(
                    "Comparison of: {} {op} {}, is not possible. Caused by '{cause}'.",
                    value_label(left),
                    value_label(right)
                ),
                span,
            )
        }
    }
}

/// Adds entries given as an array: either `[key, value]` pairs or a flat
/// `key, value, ...` list. Returns false for a flat list of odd length.
pub(crate) fn extend_from_pairs(hash: &mut PHash, items: &[Value]) -> bool {
    if items
        .iter()
        .all(|item| matches!(item, Value::Array(pair) if pair.len() == 2))
    {
        for item in items {
            if let Value::Array(pair) = item {
                hash.insert(pair[0].clone(), pair[1].clone());
            }
        }
    } else if items.len().is_multiple_of(2) {
        for pair in items.chunks(2) {
            hash.insert(pair[0].clone(), pair[1].clone());
        }
    } else {
        return false;
    }
    true
}

/// `+` and `-` on timestamps and timespans; plain numbers count seconds.
fn time_arithmetic(op: BinaryOp, left: &Value, right: &Value, at: &Places) -> EvalResult<Value> {
    let nanos = |value: &Value| -> Option<i64> {
        match value {
            Value::Timespan(t) => Some(t.0),
            Value::Integer(i) => i.checked_mul(1_000_000_000),
            Value::Float(f) => Timespan::from_seconds(*f).map(|t| t.0),
            _ => None,
        }
    };
    let subtract = op == BinaryOp::Sub;
    let result = match (left, right) {
        (Value::Timestamp(a), Value::Timestamp(b)) if subtract => {
            a.0.checked_sub(b.0).map(|n| Value::Timespan(Timespan(n)))
        }
        (Value::Timestamp(a), other) => nanos(other)
            .and_then(|n| {
                if subtract {
                    a.0.checked_sub(n)
                } else {
                    a.0.checked_add(n)
                }
            })
            .map(|n| Value::Timestamp(Timestamp(n))),
        (other, Value::Timestamp(b)) if !subtract => nanos(other)
            .and_then(|n| b.0.checked_add(n))
            .map(|n| Value::Timestamp(Timestamp(n))),
        (a, b) => match (nanos(a), nanos(b)) {
            (Some(x), Some(y)) => (if subtract {
                x.checked_sub(y)
            } else {
                x.checked_add(y)
            })
            .map(|n| Value::Timespan(Timespan(n))),
            _ => None,
        },
    };
    match result {
        Some(value) => Ok(value),
        None => fail(
            format!(
                "Operator '{}' is not applicable to {} and {}",
                op.text(),
                a_label(left),
                a_label(right)
            ),
            at.operator,
        ),
    }
}

/// The type name Puppet uses for a value in operator messages.
pub(crate) fn value_label(value: &Value) -> String {
    match value {
        Value::Undef => "Undef Value".to_string(),
        other => type_label(other),
    }
}

fn number_f64(value: &Value) -> f64 {
    match value {
        Value::Integer(i) => *i as f64,
        Value::Float(f) => *f,
        _ => f64::NAN,
    }
}

/// The `in` operator.
pub(crate) fn is_in(needle: &Value, haystack: &Value) -> bool {
    match (needle, haystack) {
        (Value::String(n), Value::String(h)) => h.to_lowercase().contains(&n.to_lowercase()),
        (Value::Regexp(r), Value::String(h)) => r.is_match(h),
        (Value::Regexp(r), Value::Array(items)) => items
            .iter()
            .any(|item| matches!(item, Value::String(s) if r.is_match(s))),
        (Value::Type(t), Value::Array(items)) => items.iter().any(|item| t.is_instance(item)),
        (Value::Type(t), Value::Hash(hash)) => hash.keys().any(|key| t.is_instance(key)),
        (Value::Regexp(r), Value::Hash(hash)) => hash
            .keys()
            .any(|key| matches!(key, Value::String(s) if r.is_match(s))),
        (_, Value::Array(items)) => items.iter().any(|item| needle.puppet_equals(item)),
        (_, Value::Hash(hash)) => hash.keys().any(|key| needle.puppet_equals(key)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn here() -> Places {
        Places {
            operator: Span::default(),
            left: Span::default(),
            right: Span::default(),
        }
    }

    fn int(op: BinaryOp, a: i64, b: i64) -> Value {
        binary(
            op,
            Value::Integer(a),
            Value::Integer(b),
            &here(),
            &mut Vec::new(),
        )
        .unwrap()
    }

    #[test]
    fn integer_division_and_modulo_round_like_ruby() {
        assert_eq!(int(BinaryOp::Div, -7, 2), Value::Integer(-4));
        assert_eq!(int(BinaryOp::Mod, -7, 2), Value::Integer(1));
        assert_eq!(int(BinaryOp::Div, 7, -2), Value::Integer(-4));
        assert_eq!(int(BinaryOp::Mod, 7, -2), Value::Integer(-1));
        assert_eq!(int(BinaryOp::Div, 17, 4), Value::Integer(4));
    }

    #[test]
    fn overflow_is_an_error() {
        assert!(
            binary(
                BinaryOp::Add,
                Value::Integer(i64::MAX),
                Value::Integer(1),
                &here(),
                &mut Vec::new()
            )
            .is_err()
        );
    }

    #[test]
    fn numeric_strings_take_part_in_arithmetic_with_a_warning() {
        let mut warnings = Vec::new();
        let sum = binary(
            BinaryOp::Add,
            Value::string("0x10"),
            Value::Integer(1),
            &here(),
            &mut warnings,
        )
        .unwrap();
        assert_eq!(sum, Value::Integer(17));
        assert_eq!(warnings.len(), 1);
        assert!(
            binary(
                BinaryOp::Add,
                Value::string("count"),
                Value::Integer(1),
                &here(),
                &mut warnings
            )
            .is_err()
        );
    }
}

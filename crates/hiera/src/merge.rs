//! Merge strategies: how the values found at several places become one.
//!
//! `first` takes the first value found; `unique` flattens arrays and keeps
//! each element once, in the order found; `hash` merges the top-level keys
//! of hashes, the first found winning; `deep` merges hashes recursively and
//! unites arrays, with a knockout prefix that removes values. Earlier
//! values have priority; a merged hash lists the keys of the later (lower
//! priority) value first, as Puppet's does.

use marionette_values::{PHash, Value};

use crate::error::{ErrorKind, HieraError, Result};

#[derive(Clone, Debug, Default, PartialEq)]
pub struct DeepOptions {
    pub knockout_prefix: Option<String>,
    pub sort_merged_arrays: bool,
    pub merge_hash_arrays: bool,
    /// The options as given, for the explanation.
    pub given: PHash,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Merge {
    First,
    Unique,
    Hash,
    Deep(DeepOptions),
    /// Hiera 3's `merge_behavior: deep`: the later value wins.
    ReverseDeep(DeepOptions),
}

impl Merge {
    /// A strategy as `lookup()` and `lookup_options` give it: a name, or a
    /// hash with `strategy` and options.
    pub fn from_value(value: &Value) -> Result<Option<Merge>> {
        let (name, options) = match value {
            Value::Undef => return Ok(None),
            Value::String(name) => (name.to_string(), None),
            Value::Hash(hash) => match hash.get(&Value::string("strategy")) {
                Some(Value::String(name)) => (name.to_string(), Some(hash)),
                _ => {
                    return Err(HieraError::new(
                        ErrorKind::Merge,
                        "The hash given as 'merge' must contain the name of a strategy in string form for the key 'strategy'",
                    ));
                }
            },
            other => {
                return Err(HieraError::new(
                    ErrorKind::Merge,
                    format!(
                        "Unknown merge strategy: '{}'",
                        marionette_values::format::to_s(other)
                    ),
                ));
            }
        };
        let deep_options = |options: Option<&std::sync::Arc<PHash>>| -> Result<DeepOptions> {
            let mut deep = DeepOptions::default();
            let Some(options) = options else {
                return Ok(deep);
            };
            for (k, v) in options.iter() {
                if marionette_values::format::to_s(k) != "strategy" {
                    deep.given.insert(k.clone(), v.clone());
                }
                match (marionette_values::format::to_s(k).as_str(), v) {
                    ("strategy", _) | ("merge_debug", _) => {}
                    ("knockout_prefix", Value::String(p)) => {
                        deep.knockout_prefix = Some(p.to_string())
                    }
                    ("knockout_prefix", Value::Undef) => {}
                    ("sort_merged_arrays", Value::Boolean(b)) => deep.sort_merged_arrays = *b,
                    ("merge_hash_arrays", Value::Boolean(b)) => deep.merge_hash_arrays = *b,
                    (other, _) => {
                        return Err(HieraError::new(
                            ErrorKind::Merge,
                            format!("The merge options has wrong type, unrecognized key '{other}'"),
                        ));
                    }
                }
            }
            if deep.knockout_prefix.as_deref() == Some("") {
                return Err(HieraError::new(
                    ErrorKind::Merge,
                    "knockout_prefix cannot be an empty string in deep_merge!",
                ));
            }
            Ok(deep)
        };
        let merge = match name.as_str() {
            "first" | "default" => Merge::First,
            "unique" => Merge::Unique,
            "hash" => Merge::Hash,
            "deep" => Merge::Deep(deep_options(options)?),
            "reverse_deep" => Merge::ReverseDeep(deep_options(options)?),
            other => {
                return Err(HieraError::new(
                    ErrorKind::Merge,
                    format!("Unknown merge strategy: '{other}'"),
                ));
            }
        };
        Ok(Some(merge))
    }

    /// The name `--explain` shows.
    pub fn name(&self) -> &'static str {
        match self {
            Merge::First => "first",
            Merge::Unique => "unique",
            Merge::Hash => "hash",
            Merge::Deep(_) => "deep",
            Merge::ReverseDeep(_) => "reverse_deep",
        }
    }

    /// The options besides the strategy, as given, for `--explain`.
    pub fn options(&self) -> Option<PHash> {
        let (Merge::Deep(options) | Merge::ReverseDeep(options)) = self else {
            return None;
        };
        (!options.given.is_empty()).then(|| options.given.clone())
    }

    /// Whether this strategy looks at more than the first value found.
    pub fn is_first(&self) -> bool {
        matches!(self, Merge::First)
    }

    /// The first value found, before anything is merged into it.
    pub fn convert_first(&self, value: Value) -> Value {
        match self {
            Merge::Unique => Value::array(flatten(&value)),
            _ => value,
        }
    }

    /// The value when only one place could have answered.
    pub fn single(&self, value: Value) -> Value {
        match (self, &value) {
            (Merge::Unique, Value::Array(items)) => Value::array(unique(items.iter().cloned())),
            _ => value,
        }
    }

    /// Merges `lower` (found later) into `higher` (found earlier).
    pub fn merge(&self, higher: Value, lower: Value) -> Result<Value> {
        match self {
            Merge::First => Ok(higher),
            Merge::Unique => {
                check_unique("first", &higher)?;
                check_unique("second", &lower)?;
                let all = flatten(&higher).into_iter().chain(flatten(&lower));
                Ok(Value::array(unique(all)))
            }
            Merge::Hash => {
                let (Value::Hash(h), Value::Hash(l)) = (&higher, &lower) else {
                    let (which, bad) = if matches!(higher, Value::Hash(_)) {
                        ("second", &lower)
                    } else {
                        ("first", &higher)
                    };
                    return Err(HieraError::new(
                        ErrorKind::Type,
                        format!(
                            "The {which} element of the merge expects a Hash value, got {}",
                            type_name(bad)
                        ),
                    ));
                };
                let mut merged = (**l).clone();
                for (k, v) in h.iter() {
                    merged.insert(k.clone(), v.clone());
                }
                Ok(Value::hash(merged))
            }
            Merge::Deep(options) => Ok(deep_merge(higher, lower, options)),
            Merge::ReverseDeep(options) => Ok(deep_merge(lower, higher, options)),
        }
    }
}

fn check_unique(which: &str, value: &Value) -> Result<()> {
    if let Value::Hash(_) = value {
        return Err(HieraError::new(
            ErrorKind::Type,
            format!(
                "The {which} element of the merge expects a value of type Scalar or Array[Data], got Hash"
            ),
        ));
    }
    Ok(())
}

/// Puppet's short type name for messages.
pub(crate) fn type_name(value: &Value) -> String {
    match value {
        Value::Array(_) => "Array".into(),
        Value::Hash(_) => "Hash".into(),
        Value::String(_) => "String".into(),
        Value::Integer(_) => "Integer".into(),
        Value::Float(_) => "Float".into(),
        Value::Boolean(_) => "Boolean".into(),
        Value::Undef => "Undef".into(),
        other => marionette_values::PType::infer(other).name(),
    }
}

fn flatten(value: &Value) -> Vec<Value> {
    match value {
        Value::Array(items) => items.iter().flat_map(flatten).collect(),
        other => vec![other.clone()],
    }
}

fn unique(values: impl Iterator<Item = Value>) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    for value in values {
        if !out.contains(&value) {
            out.push(value);
        }
    }
    out
}

/// Ruby's truth: only `nil` and `false` are false.
fn present(value: &Value) -> bool {
    !matches!(value, Value::Undef | Value::Boolean(false))
}

/// The deep_merge gem's merge of `source` into `dest`, source winning.
fn deep_merge(source: Value, dest: Value, options: &DeepOptions) -> Value {
    if source.is_undef() {
        return dest;
    }
    if !present(&dest) {
        return source;
    }
    match source {
        Value::Hash(src) => {
            let Value::Hash(dst) = dest else {
                return overwrite(Value::Hash(src), dest, options);
            };
            let mut merged = (*dst).clone();
            for (k, v) in src.iter() {
                let new = match merged.get(k) {
                    Some(existing) if present(existing) => {
                        deep_merge(v.clone(), existing.clone(), options)
                    }
                    _ => deep_merge(v.clone(), v.clone(), options),
                };
                merged.insert(k.clone(), new);
            }
            Value::hash(merged)
        }
        Value::Array(src) => {
            let mut src: Vec<Value> = src.to_vec();
            let mut dest = dest;
            if let Some(prefix) = &options.knockout_prefix
                && let Some(i) = src
                    .iter()
                    .position(|v| v == &Value::string(prefix.as_str()))
            {
                // The bare prefix clears what came before.
                dest = match dest {
                    Value::Array(_) => Value::array(Vec::new()),
                    Value::Hash(_) => Value::hash(PHash::new()),
                    Value::String(_) => Value::string(""),
                    _ => Value::Undef,
                };
                src.remove(i);
            }
            match dest {
                Value::Array(dst) => {
                    let mut dst: Vec<Value> = dst.to_vec();
                    if let Some(prefix) = &options.knockout_prefix {
                        src.retain(|item| {
                            let Value::String(s) = item else {
                                return true;
                            };
                            match s.strip_prefix(prefix.as_str()) {
                                Some(stripped) => {
                                    let stripped = Value::string(stripped);
                                    dst.retain(|d| d != &stripped && d != item);
                                    false
                                }
                                None => true,
                            }
                        });
                    }
                    let all_hashes =
                        |items: &[Value]| items.iter().all(|i| matches!(i, Value::Hash(_)));
                    let mut merged =
                        if options.merge_hash_arrays && all_hashes(&src) && all_hashes(&dst) {
                            let mut list: Vec<Value> = dst
                                .iter()
                                .enumerate()
                                .map(|(i, d)| {
                                    let s = src
                                        .get(i)
                                        .cloned()
                                        .unwrap_or_else(|| Value::hash(PHash::new()));
                                    deep_merge(s, d.clone(), options)
                                })
                                .collect();
                            if src.len() > dst.len() {
                                list.extend(src[dst.len()..].iter().cloned());
                            }
                            list
                        } else {
                            unique(dst.into_iter().chain(src))
                        };
                    if options.sort_merged_arrays {
                        merged.sort_by(compare);
                    }
                    Value::array(merged)
                }
                other => overwrite(Value::array(src), other, options),
            }
        }
        source => overwrite(source, dest, options),
    }
}

/// A value that cannot be merged replaces the one before it; with a
/// knockout prefix, a prefixed value removes it instead.
fn overwrite(source: Value, dest: Value, options: &DeepOptions) -> Value {
    let _ = dest;
    let Some(prefix) = &options.knockout_prefix else {
        return source;
    };
    match &source {
        Value::String(s) if s.starts_with(prefix.as_str()) => Value::string(""),
        Value::Array(items) => {
            let kept: Vec<Value> = items
                .iter()
                .filter(|i| !matches!(i, Value::String(s) if s.starts_with(prefix.as_str())))
                .cloned()
                .collect();
            if kept.len() == items.len() {
                source
            } else {
                Value::string("")
            }
        }
        _ => source,
    }
}

/// Ruby's `sort` of mixed scalars, as far as data allows: numbers by value,
/// strings by bytes, numbers before strings.
fn compare(a: &Value, b: &Value) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    match (a, b) {
        (Value::Integer(x), Value::Integer(y)) => x.cmp(y),
        (Value::Float(x), Value::Float(y)) => x.partial_cmp(y).unwrap_or(Ordering::Equal),
        (Value::Integer(x), Value::Float(y)) => {
            (*x as f64).partial_cmp(y).unwrap_or(Ordering::Equal)
        }
        (Value::Float(x), Value::Integer(y)) => {
            x.partial_cmp(&(*y as f64)).unwrap_or(Ordering::Equal)
        }
        (Value::String(x), Value::String(y)) => x.as_bytes().cmp(y.as_bytes()),
        (Value::Integer(_) | Value::Float(_), _) => Ordering::Less,
        (_, Value::Integer(_) | Value::Float(_)) => Ordering::Greater,
        _ => Ordering::Equal,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(text: &str) -> Value {
        Value::string(text)
    }

    fn h(pairs: &[(&str, Value)]) -> Value {
        Value::hash(pairs.iter().map(|(k, v)| (s(k), v.clone())).collect())
    }

    #[test]
    fn unique_flattens_and_keeps_first_occurrence() {
        let merged = Merge::Unique
            .merge(
                Value::array(vec![s("a"), Value::array(vec![s("b")])]),
                Value::array(vec![s("b"), s("c")]),
            )
            .unwrap();
        assert_eq!(merged, Value::array(vec![s("a"), s("b"), s("c")]));
    }

    #[test]
    fn hash_merge_keeps_lower_order_and_higher_values() {
        let merged = Merge::Hash
            .merge(
                h(&[("b", s("high")), ("c", s("new"))]),
                h(&[("a", s("low")), ("b", s("low"))]),
            )
            .unwrap();
        let Value::Hash(m) = merged else { panic!() };
        let keys: Vec<_> = m.keys().cloned().collect();
        assert_eq!(keys, vec![s("a"), s("b"), s("c")]);
        assert_eq!(m.get(&s("b")), Some(&s("high")));
    }

    #[test]
    fn deep_merge_with_knockout() {
        let options = DeepOptions {
            knockout_prefix: Some("--".into()),
            ..Default::default()
        };
        let merged = Merge::Deep(options)
            .merge(
                h(&[("list", Value::array(vec![s("--x"), s("z")]))]),
                h(&[("list", Value::array(vec![s("x"), s("y")]))]),
            )
            .unwrap();
        assert_eq!(merged, h(&[("list", Value::array(vec![s("y"), s("z")]))]));
    }
}

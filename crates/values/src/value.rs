//! Puppet values.

use std::hash::{Hash, Hasher};
use std::sync::Arc;

use indexmap::IndexMap;

use crate::regex::Regex;
use crate::semver::{SemVer, SemVerRange};
use crate::time::{Timespan, Timestamp};
use crate::types::PType;

/// An insertion-ordered hash, as Puppet's hashes are.
pub type PHash = IndexMap<Value, Value>;

#[derive(Clone, Debug)]
pub enum Value {
    Undef,
    Default,
    Boolean(bool),
    Integer(i64),
    Float(f64),
    /// Shared, like arrays and hashes: copying a string value is cheap.
    String(Arc<str>),
    Regexp(Regex),
    /// Arrays and hashes are shared: copying a value is cheap, and changing
    /// one copies its elements only when another holder exists.
    Array(Arc<Vec<Value>>),
    Hash(Arc<PHash>),
    Type(Box<PType>),
    /// A value whose text is never shown.
    Sensitive(Box<Value>),
    /// A lazy sequence (`step`, `reverse_each` without a block), held
    /// already expanded.
    Iterator(Vec<Value>),
    Timespan(Timespan),
    Timestamp(Timestamp),
    SemVer(Arc<SemVer>),
    SemVerRange(Arc<SemVerRange>),
    Binary(Arc<Vec<u8>>),
    /// A function call left for the agent to make just before applying
    /// (`Deferred('vault_lookup', [...])`).
    Deferred(Arc<Deferred>),
}

/// A deferred function call: the function's name and its arguments, which
/// may themselves hold deferred calls (made first).
#[derive(Clone, Debug, PartialEq, Hash)]
pub struct Deferred {
    pub name: String,
    pub arguments: Vec<Value>,
}

/// Puppet's `eql?`: the equality of hash keys and of `unique`. Strings are
/// compared exactly and `1` differs from `1.0`; `==` in the language is
/// looser, see [`Value::puppet_equals`].
impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Undef, Value::Undef) | (Value::Default, Value::Default) => true,
            (Value::Boolean(a), Value::Boolean(b)) => a == b,
            (Value::Integer(a), Value::Integer(b)) => a == b,
            (Value::Float(a), Value::Float(b)) => a.to_bits() == b.to_bits(),
            (Value::String(a), Value::String(b)) => a == b,
            (Value::Regexp(a), Value::Regexp(b)) => a == b,
            (Value::Array(a), Value::Array(b)) => a == b,
            (Value::Iterator(a), Value::Iterator(b)) => a == b,
            (Value::Hash(a), Value::Hash(b)) => {
                a.len() == b.len() && a.iter().all(|(k, v)| b.get(k) == Some(v))
            }
            (Value::Type(a), Value::Type(b)) => a == b,
            (Value::Sensitive(a), Value::Sensitive(b)) => a == b,
            (Value::Timespan(a), Value::Timespan(b)) => a == b,
            (Value::Timestamp(a), Value::Timestamp(b)) => a == b,
            (Value::SemVer(a), Value::SemVer(b)) => a == b,
            (Value::SemVerRange(a), Value::SemVerRange(b)) => a == b,
            (Value::Binary(a), Value::Binary(b)) => a == b,
            (Value::Deferred(a), Value::Deferred(b)) => a == b,
            _ => false,
        }
    }
}

impl Eq for Value {}

impl Hash for Value {
    fn hash<H: Hasher>(&self, state: &mut H) {
        std::mem::discriminant(self).hash(state);
        match self {
            Value::Undef | Value::Default => {}
            Value::Boolean(b) => b.hash(state),
            Value::Integer(i) => i.hash(state),
            Value::Float(f) => f.to_bits().hash(state),
            Value::String(s) => s.hash(state),
            Value::Regexp(r) => r.hash(state),
            Value::Array(items) => items.hash(state),
            Value::Iterator(items) => items.hash(state),
            // Order-insensitive, to agree with `eq`.
            Value::Hash(hash) => hash.len().hash(state),
            Value::Type(t) => t.to_string().hash(state),
            Value::Sensitive(inner) => inner.hash(state),
            Value::Timespan(t) => t.hash(state),
            Value::Timestamp(t) => t.hash(state),
            Value::SemVer(v) => v.hash(state),
            Value::SemVerRange(r) => r.hash(state),
            Value::Binary(b) => b.hash(state),
            Value::Deferred(d) => d.hash(state),
        }
    }
}

impl Value {
    pub fn array(items: Vec<Value>) -> Value {
        Value::Array(Arc::new(items))
    }

    pub fn hash(hash: PHash) -> Value {
        Value::Hash(Arc::new(hash))
    }

    pub fn string(text: impl Into<Arc<str>>) -> Value {
        Value::String(text.into())
    }

    pub fn is_undef(&self) -> bool {
        matches!(self, Value::Undef)
    }

    /// Whether collections nest deeper than `limit` in this value (`[]`
    /// is 1 deep, `[[]]` 2, a scalar 0). Looks no deeper than `limit + 1`
    /// and does not recurse, so it is safe on a value whose depth would
    /// overflow the stack of anything that recurses through it.
    pub fn nested_deeper_than(&self, limit: usize) -> bool {
        // Each value with the number of collections around it.
        let mut pending: Vec<(&Value, usize)> = vec![(self, 0)];
        while let Some((value, around)) = pending.pop() {
            let inside = around + 1;
            match value {
                Value::Array(items) => pending.extend(items.iter().map(|v| (v, inside))),
                Value::Iterator(items) => pending.extend(items.iter().map(|v| (v, inside))),
                Value::Hash(hash) => {
                    pending.extend(hash.iter().flat_map(|(k, v)| [(k, inside), (v, inside)]))
                }
                Value::Sensitive(inner) => pending.push((inner, inside)),
                Value::Deferred(deferred) => {
                    pending.extend(deferred.arguments.iter().map(|v| (v, inside)))
                }
                _ => continue,
            }
            if inside > limit {
                return true;
            }
        }
        false
    }

    /// Puppet's truthiness: only `undef` and `false` are false.
    pub fn is_truthy(&self) -> bool {
        !matches!(self, Value::Undef | Value::Boolean(false))
    }

    /// The language's `==`: strings compare case-insensitively, numbers by
    /// value across Integer and Float, collections element by element.
    pub fn puppet_equals(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::String(a), Value::String(b)) => {
                a.len() == b.len() && a.to_lowercase() == b.to_lowercase()
            }
            (Value::Integer(a), Value::Float(b)) | (Value::Float(b), Value::Integer(a)) => {
                (*a as f64) == *b
            }
            (Value::Float(a), Value::Float(b)) => a == b,
            (Value::Array(a), Value::Array(b)) => {
                a.len() == b.len() && a.iter().zip(b.iter()).all(|(x, y)| x.puppet_equals(y))
            }
            (Value::Hash(a), Value::Hash(b)) => {
                a.len() == b.len()
                    && a.iter().all(|(key, value)| {
                        b.iter().any(|(other_key, other_value)| {
                            key.puppet_equals(other_key) && value.puppet_equals(other_value)
                        })
                    })
            }
            _ => self == other,
        }
    }
}

impl From<bool> for Value {
    fn from(value: bool) -> Value {
        Value::Boolean(value)
    }
}

impl From<i64> for Value {
    fn from(value: i64) -> Value {
        Value::Integer(value)
    }
}

impl From<&str> for Value {
    fn from(value: &str) -> Value {
        Value::String(value.into())
    }
}

impl From<String> for Value {
    fn from(value: String) -> Value {
        Value::String(value.into())
    }
}

impl From<PType> for Value {
    fn from(value: PType) -> Value {
        Value::Type(Box::new(value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nesting_is_measured_in_collections_and_bounded() {
        let scalar = Value::Integer(1);
        assert!(!scalar.nested_deeper_than(0));
        let mut deep = Value::array(Vec::new());
        assert!(!deep.nested_deeper_than(1) && deep.nested_deeper_than(0));
        for _ in 0..9 {
            deep = Value::array(vec![Value::Integer(1), deep]);
        }
        // Ten arrays, the deepest in a hash's value: eleven.
        let mut hash = PHash::default();
        hash.insert(Value::string("k"), deep.clone());
        let hash = Value::hash(hash);
        assert!(!deep.nested_deeper_than(10) && deep.nested_deeper_than(9));
        assert!(!hash.nested_deeper_than(11) && hash.nested_deeper_than(10));
        // Far deeper than a recursive walk would survive.
        for _ in 0..1_000_000 {
            deep = Value::array(vec![deep]);
        }
        assert!(deep.nested_deeper_than(1000));
        // Dropping it recurses as deep as it nests: leaked instead.
        std::mem::forget(deep);
    }
}

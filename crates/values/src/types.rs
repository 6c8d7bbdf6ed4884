//! The Pcore type system: types as values, their parameters, how they
//! print, which values are instances of them, and what type a value has.

use std::fmt::{self, Write};

use crate::format::{float_to_string, quote};
use crate::regex::Regex;
use crate::semver::SemVerRange;
use crate::value::Value;

/// Bounds use the extreme values for "unbounded" (`default` in Puppet).
/// Why `Type[args]` failed.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamError {
    pub message: String,
    /// Puppet reports it on its own, at the first argument, rather than as
    /// an error of the `[]` expression.
    pub standalone: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum PType {
    Any,
    Undef,
    Default,
    Unit,
    Boolean(Option<bool>),
    Integer {
        min: i64,
        max: i64,
    },
    Float {
        min: f64,
        max: f64,
    },
    Numeric,
    Scalar,
    ScalarData,
    Data,
    RichData,
    String {
        min: i64,
        max: i64,
    },
    Enum {
        values: Vec<String>,
        case_insensitive: bool,
    },
    Pattern(Vec<Regex>),
    Regexp(Option<Regex>),
    Array {
        element: Box<PType>,
        min: i64,
        max: i64,
    },
    Hash {
        key: Box<PType>,
        value: Box<PType>,
        min: i64,
        max: i64,
    },
    /// Element types, then the size range (which defaults to their count).
    Tuple {
        types: Vec<PType>,
        min: i64,
        max: i64,
    },
    Struct(Vec<StructMember>),
    Collection {
        min: i64,
        max: i64,
    },
    Variant(Vec<PType>),
    Optional(Option<Box<PType>>),
    NotUndef(Option<Box<PType>>),
    Type(Option<Box<PType>>),
    Iterable(Option<Box<PType>>),
    Iterator(Option<Box<PType>>),
    Callable(Vec<PType>),
    Sensitive(Option<Box<PType>>),
    Runtime(Option<String>),
    /// The type of deferred function calls, an Object type in Puppet.
    Deferred,
    CatalogEntry,
    /// `Resource`, `File` (a resource type), `File['/x']` (a reference).
    Resource {
        type_name: Option<String>,
        title: Option<String>,
    },
    /// `Class` or `Class['name']`.
    Class(Option<String>),
    Init(Option<Box<PType>>),
    /// Versions, optionally limited to ranges.
    SemVer(Vec<SemVerRange>),
    SemVerRange,
    /// Bounds in nanoseconds.
    Timespan {
        min: i64,
        max: i64,
    },
    /// Bounds in nanoseconds since the epoch.
    Timestamp {
        min: i64,
        max: i64,
    },
    Binary,
    /// A type alias (`type Port = Integer[1, 65535]`): prints its name.
    Alias {
        name: String,
        target: Box<PType>,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct StructMember {
    pub key: String,
    /// Written `Optional['key']`, or the value type accepts undef.
    pub optional: bool,
    pub value: PType,
}

const MIN: i64 = i64::MIN;
const MAX: i64 = i64::MAX;

impl PType {
    pub fn integer() -> PType {
        PType::Integer { min: MIN, max: MAX }
    }

    pub fn float() -> PType {
        PType::Float {
            min: f64::NEG_INFINITY,
            max: f64::INFINITY,
        }
    }

    pub fn string() -> PType {
        PType::String { min: 0, max: MAX }
    }

    pub fn array_of(element: PType) -> PType {
        PType::Array {
            element: Box::new(element),
            min: 0,
            max: MAX,
        }
    }

    pub fn hash_of(key: PType, value: PType) -> PType {
        PType::Hash {
            key: Box::new(key),
            value: Box::new(value),
            min: 0,
            max: MAX,
        }
    }

    /// The type a name denotes, for the built-in type names. Other
    /// capitalized names are resource types; the evaluator handles those
    /// and user aliases.
    pub fn from_name(name: &str) -> Option<PType> {
        let found = match name {
            "Any" => PType::Any,
            "Undef" => PType::Undef,
            "Default" => PType::Default,
            "Unit" => PType::Unit,
            "Boolean" => PType::Boolean(None),
            "Integer" => PType::integer(),
            "Float" => PType::float(),
            "Numeric" => PType::Numeric,
            "Scalar" => PType::Scalar,
            "ScalarData" => PType::ScalarData,
            "Data" => PType::Data,
            "RichData" => PType::RichData,
            "String" => PType::string(),
            "Enum" => PType::Enum {
                values: Vec::new(),
                case_insensitive: false,
            },
            "Pattern" => PType::Pattern(Vec::new()),
            "Regexp" => PType::Regexp(None),
            "Array" => PType::array_of(PType::Any),
            "Hash" => PType::hash_of(PType::Any, PType::Any),
            "Tuple" => PType::Tuple {
                types: Vec::new(),
                min: 0,
                max: MAX,
            },
            "Struct" => PType::Struct(Vec::new()),
            "Collection" => PType::Collection { min: 0, max: MAX },
            "Variant" => PType::Variant(Vec::new()),
            "Optional" => PType::Optional(None),
            "NotUndef" => PType::NotUndef(None),
            "Type" => PType::Type(None),
            "Iterable" => PType::Iterable(None),
            "Iterator" => PType::Iterator(None),
            "Callable" => PType::Callable(Vec::new()),
            "Sensitive" => PType::Sensitive(None),
            "Runtime" => PType::Runtime(None),
            "Deferred" => PType::Deferred,
            "CatalogEntry" => PType::CatalogEntry,
            "Resource" => PType::Resource {
                type_name: None,
                title: None,
            },
            "Class" => PType::Class(None),
            "Init" => PType::Init(None),
            "SemVer" => PType::SemVer(Vec::new()),
            "SemVerRange" => PType::SemVerRange,
            "Timespan" => PType::Timespan { min: MIN, max: MAX },
            "Timestamp" => PType::Timestamp { min: MIN, max: MAX },
            "Binary" => PType::Binary,
            _ => return None,
        };
        Some(found)
    }

    /// The name without parameters.
    pub fn name(&self) -> String {
        match self {
            PType::Any => "Any".into(),
            PType::Undef => "Undef".into(),
            PType::Default => "Default".into(),
            PType::Unit => "Unit".into(),
            PType::Boolean(_) => "Boolean".into(),
            PType::Integer { .. } => "Integer".into(),
            PType::Float { .. } => "Float".into(),
            PType::Numeric => "Numeric".into(),
            PType::Scalar => "Scalar".into(),
            PType::ScalarData => "ScalarData".into(),
            PType::Data => "Data".into(),
            PType::RichData => "RichData".into(),
            PType::String { .. } => "String".into(),
            PType::Enum { .. } => "Enum".into(),
            PType::Pattern(_) => "Pattern".into(),
            PType::Regexp(_) => "Regexp".into(),
            PType::Array { .. } => "Array".into(),
            PType::Hash { .. } => "Hash".into(),
            PType::Tuple { .. } => "Tuple".into(),
            PType::Struct(_) => "Struct".into(),
            PType::Collection { .. } => "Collection".into(),
            PType::Variant(_) => "Variant".into(),
            PType::Optional(_) => "Optional".into(),
            PType::NotUndef(_) => "NotUndef".into(),
            PType::Type(_) => "Type".into(),
            PType::Iterable(_) => "Iterable".into(),
            PType::Iterator(_) => "Iterator".into(),
            PType::Callable(_) => "Callable".into(),
            PType::Sensitive(_) => "Sensitive".into(),
            PType::Runtime(_) => "Runtime".into(),
            PType::Deferred => "Deferred".into(),
            PType::CatalogEntry => "CatalogEntry".into(),
            PType::Resource {
                type_name: Some(name),
                ..
            } => capitalize_segments(name),
            PType::Resource { .. } => "Resource".into(),
            PType::Class(_) => "Class".into(),
            PType::Init(_) => "Init".into(),
            PType::SemVer(_) => "SemVer".into(),
            PType::SemVerRange => "SemVerRange".into(),
            PType::Timespan { .. } => "Timespan".into(),
            PType::Timestamp { .. } => "Timestamp".into(),
            PType::Binary => "Binary".into(),
            PType::Alias { name, .. } => name.clone(),
        }
    }

    /// Follows aliases to the type they stand for.
    pub fn resolved(&self) -> &PType {
        match self {
            PType::Alias { target, .. } => target.resolved(),
            other => other,
        }
    }

    // ---- instances ----------------------------------------------------

    /// Whether `value` is an instance of this type (`value =~ Type`).
    pub fn is_instance(&self, value: &Value) -> bool {
        match self {
            PType::Any => true,
            PType::Alias { target, .. } => target.is_instance(value),
            PType::Undef => value.is_undef(),
            PType::Default => matches!(value, Value::Default),
            PType::Unit => true,
            PType::Boolean(expected) => {
                matches!(value, Value::Boolean(b) if expected.is_none_or(|e| e == *b))
            }
            PType::Integer { min, max } => {
                matches!(value, Value::Integer(i) if min <= i && i <= max)
            }
            PType::Float { min, max } => matches!(value, Value::Float(f) if min <= f && f <= max),
            PType::Numeric => matches!(value, Value::Integer(_) | Value::Float(_)),
            PType::String { min, max } => {
                matches!(value, Value::String(s) if in_range(s.chars().count(), *min, *max))
            }
            PType::Enum {
                values,
                case_insensitive,
            } => match value {
                Value::String(s) => {
                    values.is_empty()
                        || values.iter().any(|v| {
                            if *case_insensitive {
                                v.to_lowercase() == s.to_lowercase()
                            } else {
                                v.as_str() == &**s
                            }
                        })
                }
                _ => false,
            },
            PType::Pattern(patterns) => {
                matches!(value, Value::String(s) if patterns.is_empty() || patterns.iter().any(|p| p.is_match(s)))
            }
            PType::Regexp(pattern) => {
                matches!(value, Value::Regexp(r) if pattern.as_ref().is_none_or(|p| p.source() == r.source()))
            }
            PType::Scalar => is_scalar(value),
            PType::ScalarData => matches!(
                value,
                Value::Integer(_) | Value::Float(_) | Value::String(_) | Value::Boolean(_)
            ),
            PType::Data => is_data(value),
            PType::RichData => is_rich_data(value),
            PType::Array { element, min, max } => {
                matches!(value, Value::Array(items) if in_range(items.len(), *min, *max) && items.iter().all(|v| element.is_instance(v)))
            }
            PType::Hash {
                key,
                value: value_type,
                min,
                max,
            } => match value {
                Value::Hash(hash) => {
                    in_range(hash.len(), *min, *max)
                        && hash
                            .iter()
                            .all(|(k, v)| key.is_instance(k) && value_type.is_instance(v))
                }
                _ => false,
            },
            PType::Tuple { types, min, max } => match value {
                Value::Array(items) => {
                    in_range(items.len(), *min, *max)
                        && items.iter().enumerate().all(|(i, item)| {
                            match types.get(i).or(types.last()) {
                                Some(t) => t.is_instance(item),
                                None => true,
                            }
                        })
                }
                _ => false,
            },
            PType::Struct(members) => {
                match value {
                    Value::Hash(hash) => hash.keys().all(
                        |k| matches!(k, Value::String(s) if members.iter().any(|m| m.key.as_str() == &**s)),
                    ) && members.iter().all(|member| {
                        match hash.get(&Value::string(member.key.as_str())) {
                            Some(v) => member.value.is_instance(v),
                            None => member.optional || member.value.is_instance(&Value::Undef),
                        }
                    }),
                    _ => false,
                }
            }
            PType::Collection { min, max } => match value {
                Value::Array(items) => in_range(items.len(), *min, *max),
                Value::Hash(hash) => in_range(hash.len(), *min, *max),
                _ => false,
            },
            PType::Variant(types) => types.iter().any(|t| t.is_instance(value)),
            PType::Optional(inner) => {
                value.is_undef() || inner.as_ref().is_none_or(|t| t.is_instance(value))
            }
            PType::NotUndef(inner) => {
                !value.is_undef() && inner.as_ref().is_none_or(|t| t.is_instance(value))
            }
            PType::Type(inner) => match value {
                Value::Type(t) => inner.as_ref().is_none_or(|expected| {
                    // `Type[Variant]` names the kind: any variant type.
                    match (expected.resolved(), t.resolved()) {
                        (PType::Variant(wanted), PType::Variant(_)) if wanted.is_empty() => true,
                        _ => expected.is_assignable(t),
                    }
                }),
                _ => false,
            },
            PType::Iterable(inner) => match value {
                Value::Array(items) => inner
                    .as_ref()
                    .is_none_or(|t| items.iter().all(|v| t.is_instance(v))),
                Value::Iterator(items) => inner
                    .as_ref()
                    .is_none_or(|t| items.iter().all(|v| t.is_instance(v))),
                Value::Hash(_) | Value::String(_) => true,
                Value::Integer(i) => *i >= 0,
                Value::Type(t) => {
                    matches!(**t, PType::Integer { min, max } if min != MIN && max != MAX)
                        || matches!(**t, PType::Enum { .. })
                }
                _ => false,
            },
            PType::Iterator(_) => matches!(value, Value::Iterator(_)),
            PType::Sensitive(inner) => match value {
                Value::Sensitive(v) => inner.as_ref().is_none_or(|t| t.is_instance(v)),
                _ => false,
            },
            PType::CatalogEntry => {
                matches!(&value, Value::Type(t) if matches!(**t, PType::Resource { .. } | PType::Class(_)))
            }
            PType::Resource { type_name, title } => match value {
                Value::Type(t) => match &**t {
                    PType::Resource {
                        type_name: tn,
                        title: tt,
                    } => {
                        tt.is_some()
                            && type_name.as_ref().is_none_or(|n| tn.as_ref() == Some(n))
                            && title.as_ref().is_none_or(|x| tt.as_ref() == Some(x))
                    }
                    PType::Class(Some(_)) => {
                        type_name.is_none() || type_name.as_deref() == Some("class")
                    }
                    _ => false,
                },
                _ => false,
            },
            PType::Class(name) => match value {
                Value::Type(t) => {
                    matches!(&**t, PType::Class(Some(n)) if name.as_ref().is_none_or(|x| x == n))
                }
                _ => false,
            },
            PType::Init(inner) => inner.as_ref().is_none_or(|t| t.is_instance(value)),
            PType::Timespan { min, max } => {
                matches!(value, Value::Timespan(t) if *min <= t.0 && t.0 <= *max)
            }
            PType::Timestamp { min, max } => {
                matches!(value, Value::Timestamp(t) if *min <= t.0 && t.0 <= *max)
            }
            PType::SemVer(ranges) => {
                matches!(value, Value::SemVer(v) if ranges.is_empty() || ranges.iter().any(|r| r.includes(v)))
            }
            PType::SemVerRange => matches!(value, Value::SemVerRange(_)),
            PType::Binary => matches!(value, Value::Binary(_)),
            PType::Deferred => matches!(value, Value::Deferred(_)),
            PType::Callable(_) | PType::Runtime(_) => false,
        }
    }

    // ---- assignability ------------------------------------------------

    /// Whether two types have the same instances: equal, or each
    /// assignable to the other (`Optional[T]` and `Variant[T, Undef]`), as
    /// Puppet's `==` on types decides.
    pub fn is_equivalent(&self, other: &PType) -> bool {
        self == other || (self.is_assignable(other) && other.is_assignable(self))
    }

    /// Whether every instance of `other` is an instance of `self`.
    pub fn is_assignable(&self, other: &PType) -> bool {
        let other = other.resolved();
        match (self.resolved(), other) {
            (PType::Any, _) => true,
            (_, PType::Variant(types)) => {
                !types.is_empty() && types.iter().all(|t| self.is_assignable(t))
            }
            // `Optional[T]` is `T` or undef, and `NotUndef[T]` is `T` when
            // `T` has no undef: a type other than these takes them when it
            // takes those.
            (this, PType::Optional(inner)) => {
                this.is_assignable(&PType::Undef)
                    && inner.as_ref().is_none_or(|t| this.is_assignable(t))
            }
            (this, PType::NotUndef(Some(inner))) if !inner.is_assignable(&PType::Undef) => {
                this.is_assignable(inner)
            }
            (PType::Variant(types), _) => types.iter().any(|t| t.is_assignable(other)),
            (PType::Optional(inner), _) => {
                matches!(other, PType::Undef)
                    || inner.as_ref().is_none_or(|t| t.is_assignable(other))
                    || matches!(other, PType::Optional(Some(o)) if inner.as_ref().is_some_and(|t| t.is_assignable(o)))
            }
            (PType::NotUndef(inner), _) => {
                !matches!(other, PType::Undef | PType::Optional(_))
                    && inner.as_ref().is_none_or(|t| t.is_assignable(other))
            }
            (PType::Undef, PType::Undef) | (PType::Default, PType::Default) => true,
            (PType::Boolean(None), PType::Boolean(_)) => true,
            (PType::Boolean(Some(a)), PType::Boolean(Some(b))) => a == b,
            (
                PType::Integer { min, max },
                PType::Integer {
                    min: omin,
                    max: omax,
                },
            ) => min <= omin && omax <= max,
            (
                PType::Float { min, max },
                PType::Float {
                    min: omin,
                    max: omax,
                },
            ) => min <= omin && omax <= max,
            (PType::Numeric, PType::Integer { .. } | PType::Float { .. } | PType::Numeric) => true,
            (
                PType::String { min, max },
                PType::String {
                    min: omin,
                    max: omax,
                },
            ) => min <= omin && omax <= max,
            (PType::String { min, max }, PType::Enum { values, .. }) => {
                !values.is_empty()
                    && values
                        .iter()
                        .all(|v| in_range(v.chars().count(), *min, *max))
            }
            (PType::String { min, max }, PType::Pattern(_)) => *min == 0 && *max == MAX,
            (
                PType::Enum {
                    values,
                    case_insensitive,
                },
                PType::Enum {
                    values: other_values,
                    ..
                },
            ) => {
                values.is_empty()
                    || (!other_values.is_empty()
                        && other_values.iter().all(|o| {
                            values.iter().any(|v| {
                                if *case_insensitive {
                                    v.eq_ignore_ascii_case(o)
                                } else {
                                    v == o
                                }
                            })
                        }))
            }
            (PType::Enum { values, .. }, PType::String { .. } | PType::Pattern(_)) => {
                values.is_empty()
            }
            (PType::Pattern(patterns), PType::Enum { values, .. }) => {
                patterns.is_empty()
                    || (!values.is_empty()
                        && values
                            .iter()
                            .all(|v| patterns.iter().any(|p| p.is_match(v))))
            }
            // A pattern takes another whose regular expressions are all
            // among its own.
            (PType::Pattern(patterns), PType::Pattern(others)) => {
                patterns.is_empty()
                    || (!others.is_empty()
                        && others.iter().all(|o| patterns.iter().any(|p| p == o)))
            }
            (PType::Pattern(patterns), PType::String { .. }) => patterns.is_empty(),
            (PType::Regexp(None), PType::Regexp(_)) => true,
            (PType::Regexp(Some(a)), PType::Regexp(Some(b))) => a == b,
            (PType::Scalar, t) => matches!(
                t,
                PType::Scalar
                    | PType::ScalarData
                    | PType::Numeric
                    | PType::Integer { .. }
                    | PType::Float { .. }
                    | PType::String { .. }
                    | PType::Enum { .. }
                    | PType::Pattern(_)
                    | PType::Boolean(_)
                    | PType::Regexp(_)
                    | PType::SemVer(_)
                    | PType::Timespan { .. }
                    | PType::Timestamp { .. }
            ),
            (PType::ScalarData, t) => matches!(
                t,
                PType::ScalarData
                    | PType::Numeric
                    | PType::Integer { .. }
                    | PType::Float { .. }
                    | PType::String { .. }
                    | PType::Enum { .. }
                    | PType::Pattern(_)
                    | PType::Boolean(_)
            ),
            (PType::Data, t) => {
                PType::ScalarData.is_assignable(t)
                    || matches!(t, PType::Undef | PType::Data)
                    || matches!(t, PType::Array { element, .. } if PType::Data.is_assignable(element))
                    || matches!(t, PType::Hash { key, value, .. } if PType::string().is_assignable(key) && PType::Data.is_assignable(value))
                    || matches!(t, PType::Tuple { types, .. } if types.iter().all(|e| PType::Data.is_assignable(e)))
                    || matches!(t, PType::Optional(Some(inner)) if PType::Data.is_assignable(inner))
            }
            (PType::RichData, t) => !matches!(
                t,
                PType::Callable(_) | PType::Iterator(_) | PType::Runtime(_) | PType::Any
            ),
            (
                PType::Array { element, min, max },
                PType::Array {
                    element: oe,
                    min: omin,
                    max: omax,
                },
            ) => min <= omin && omax <= max && element.is_assignable(oe),
            (
                PType::Array { element, min, max },
                PType::Tuple {
                    types,
                    min: omin,
                    max: omax,
                },
            ) => min <= omin && omax <= max && types.iter().all(|t| element.is_assignable(t)),
            (
                PType::Hash {
                    key,
                    value,
                    min,
                    max,
                },
                PType::Hash {
                    key: ok,
                    value: ov,
                    min: omin,
                    max: omax,
                },
            ) => min <= omin && omax <= max && key.is_assignable(ok) && value.is_assignable(ov),
            (
                PType::Hash {
                    key,
                    value,
                    min,
                    max,
                },
                PType::Struct(members),
            ) => {
                in_range(members.len(), *min, *max)
                    && members.iter().all(|m| {
                        key.is_instance(&Value::string(m.key.as_str()))
                            && value.is_assignable(&m.value)
                    })
            }
            // A tuple takes the arrays whose size it accepts and whose
            // element type each of its types takes.
            (
                PType::Tuple { types, min, max },
                PType::Array {
                    element,
                    min: omin,
                    max: omax,
                },
            ) => min <= omin && omax <= max && types.iter().all(|t| t.is_assignable(element)),
            // A struct takes the hashes with string keys whose values each
            // required member takes, sized between its required members and
            // all of them.
            (
                PType::Struct(members),
                PType::Hash {
                    key,
                    value,
                    min: omin,
                    max: omax,
                },
            ) => {
                let required = members.iter().filter(|m| !m.optional).count() as i64;
                members
                    .iter()
                    .filter(|m| !m.optional)
                    .all(|m| m.value.is_assignable(value) && PType::string().is_assignable(key))
                    && required <= *omin
                    && *omax <= members.len() as i64
            }
            (
                PType::Tuple { types, min, max },
                PType::Tuple {
                    types: others,
                    min: omin,
                    max: omax,
                },
            ) => {
                min <= omin
                    && omax <= max
                    && others.iter().enumerate().all(|(i, o)| {
                        types
                            .get(i)
                            .or(types.last())
                            .is_none_or(|t| t.is_assignable(o))
                    })
            }
            (PType::Struct(members), PType::Struct(others)) => {
                others.iter().all(|o| {
                    members
                        .iter()
                        .any(|m| m.key == o.key && m.value.is_assignable(&o.value))
                }) && members
                    .iter()
                    .all(|m| m.optional || others.iter().any(|o| o.key == m.key))
            }
            (
                PType::Collection { min, max },
                PType::Array {
                    min: omin,
                    max: omax,
                    ..
                }
                | PType::Hash {
                    min: omin,
                    max: omax,
                    ..
                }
                | PType::Tuple {
                    min: omin,
                    max: omax,
                    ..
                }
                | PType::Collection {
                    min: omin,
                    max: omax,
                },
            ) => min <= omin && omax <= max,
            (PType::Collection { .. }, PType::Struct(_)) => true,
            (PType::Type(None), PType::Type(_)) => true,
            (PType::Type(Some(a)), PType::Type(Some(b))) => a.is_assignable(b),
            (
                PType::Iterable(_),
                PType::Array { .. }
                | PType::Hash { .. }
                | PType::String { .. }
                | PType::Iterator(_)
                | PType::Iterable(_)
                | PType::Tuple { .. }
                | PType::Struct(_),
            ) => true,
            (PType::Sensitive(None), PType::Sensitive(_)) => true,
            (PType::Sensitive(Some(a)), PType::Sensitive(Some(b))) => a.is_assignable(b),
            (
                PType::CatalogEntry,
                PType::Resource { .. } | PType::Class(_) | PType::CatalogEntry,
            ) => true,
            (
                PType::Resource { type_name, title },
                PType::Resource {
                    type_name: otn,
                    title: ot,
                },
            ) => {
                type_name.as_ref().is_none_or(|n| otn.as_ref() == Some(n))
                    && title.as_ref().is_none_or(|t| ot.as_ref() == Some(t))
            }
            (
                PType::Resource {
                    type_name: None,
                    title: None,
                },
                PType::Class(_),
            ) => true,
            (PType::Class(None), PType::Class(_)) => true,
            (PType::Class(Some(a)), PType::Class(Some(b))) => a == b,
            (a, b) => a == b,
        }
    }

    // ---- parameters ---------------------------------------------------

    /// Applies `Type[args]`. The error says what was wrong with the
    /// arguments, in Puppet's words where they are known.
    pub fn parameterize(&self, args: &[Value]) -> Result<PType, ParamError> {
        // Puppet words these two without naming the `[]` expression, and
        // places them at the first argument.
        if let PType::Integer { .. } = self
            && let Some(bad) = args
                .iter()
                .find(|a| !matches!(a, Value::Integer(_) | Value::Default))
        {
            return Err(ParamError {
                message: format!(
                    "Integer-Type [] requires all arguments to be integers (or default). Got {}",
                    crate::format::type_label(bad)
                ),
                standalone: true,
            });
        }
        if let (PType::Boolean(_), [bad]) = (self, args)
            && !matches!(bad, Value::Boolean(_))
        {
            return Err(ParamError {
                message: format!(
                    "Error creating type specialization of a Boolean-Type, Cannot use {} where TrueClass or FalseClass is expected",
                    crate::format::type_label(bad)
                ),
                standalone: true,
            });
        }
        self.parameterize_checked(args)
            .map_err(|message| ParamError {
                message,
                standalone: false,
            })
    }

    fn parameterize_checked(&self, args: &[Value]) -> Result<PType, String> {
        let base = self.name();
        let bound = |value: &Value, default: i64| -> Result<i64, String> {
            match value {
                Value::Integer(i) => Ok(*i),
                Value::Default => Ok(default),
                other => Err(format!(
                    "{base}[] arguments must be Integer or Default, got {}",
                    crate::format::type_label(other)
                )),
            }
        };
        let count_error =
            |expected: &str| format!("{base}[] accepts {expected} arguments, got {}", args.len());
        let inner_type = |value: &Value| -> Result<PType, String> {
            match value {
                Value::Type(t) => Ok((**t).clone()),
                other => Err(format!(
                    "{base}[] arguments must be types, got {}",
                    crate::format::type_label(other)
                )),
            }
        };
        match self {
            PType::Integer { .. } => match args {
                [min] => Ok(PType::Integer {
                    min: bound(min, MIN)?,
                    max: MAX,
                }),
                [min, max] => {
                    let (min, max) = (bound(min, MIN)?, bound(max, MAX)?);
                    Ok(if min <= max {
                        PType::Integer { min, max }
                    } else {
                        PType::Integer { min: max, max: min }
                    })
                }
                _ => Err(count_error("1 to 2")),
            },
            PType::Float { .. } => {
                let float_bound = |value: &Value, default: f64| -> Result<f64, String> {
                    match value {
                        Value::Integer(i) => Ok(*i as f64),
                        Value::Float(f) => Ok(*f),
                        Value::Default => Ok(default),
                        other => Err(format!(
                            "Float[] arguments must be Float, Integer or Default, got {}",
                            crate::format::type_label(other)
                        )),
                    }
                };
                match args {
                    [min] => Ok(PType::Float {
                        min: float_bound(min, f64::NEG_INFINITY)?,
                        max: f64::INFINITY,
                    }),
                    [min, max] => Ok(PType::Float {
                        min: float_bound(min, f64::NEG_INFINITY)?,
                        max: float_bound(max, f64::INFINITY)?,
                    }),
                    _ => Err(count_error("1 to 2")),
                }
            }
            PType::String { .. } | PType::Collection { .. } => {
                let (min, max) = match args {
                    [min] => (bound(min, 0)?, MAX),
                    [min, max] => (bound(min, 0)?, bound(max, MAX)?),
                    _ => return Err(count_error("1 to 2")),
                };
                if min > max {
                    return Err(format!(
                        "'from' must be less or equal to 'to'. Got ({min}, {max}"
                    ));
                }
                Ok(if matches!(self, PType::String { .. }) {
                    PType::String { min, max }
                } else {
                    PType::Collection { min, max }
                })
            }
            PType::Boolean(_) => match args {
                [Value::Boolean(b)] => Ok(PType::Boolean(Some(*b))),
                _ => Err(count_error("1")),
            },
            PType::Enum { .. } => {
                let mut values = Vec::new();
                let mut case_insensitive = false;
                for arg in args {
                    match arg {
                        Value::String(s) => values.push(s.to_string()),
                        Value::Array(items) => {
                            for item in items.iter() {
                                if let Value::String(s) = item {
                                    values.push(s.to_string());
                                }
                            }
                        }
                        Value::Boolean(b) => case_insensitive = *b,
                        other => {
                            return Err(format!(
                                "Enum[] arguments must be String, got {}",
                                crate::format::type_label(other)
                            ));
                        }
                    }
                }
                Ok(PType::Enum {
                    values,
                    case_insensitive,
                })
            }
            PType::Pattern(_) => {
                let mut patterns = Vec::new();
                for arg in args {
                    match arg {
                        Value::Regexp(r) => patterns.push(r.clone()),
                        Value::String(s) => patterns.push(Regex::new(s)?),
                        Value::Type(t) => match &**t {
                            PType::Regexp(Some(r)) => patterns.push(r.clone()),
                            PType::Pattern(ps) => patterns.extend(ps.iter().cloned()),
                            _ => {
                                return Err(
                                    "Pattern[] arguments must be String, Regexp or Pattern".into(),
                                );
                            }
                        },
                        _ => {
                            return Err(
                                "Pattern[] arguments must be String, Regexp or Pattern".into()
                            );
                        }
                    }
                }
                Ok(PType::Pattern(patterns))
            }
            PType::Regexp(_) => match args {
                [Value::Regexp(r)] => Ok(PType::Regexp(Some(r.clone()))),
                [Value::String(s)] => Ok(PType::Regexp(Some(Regex::new(s)?))),
                _ => Err(count_error("1")),
            },
            PType::Array { .. } => match args {
                [] => Ok(self.clone()),
                [Value::Integer(_) | Value::Default, ..] if args.len() <= 2 => {
                    let min = bound(&args[0], 0)?;
                    let max = args.get(1).map_or(Ok(MAX), |v| bound(v, MAX))?;
                    Ok(PType::Array {
                        element: Box::new(PType::Any),
                        min,
                        max,
                    })
                }
                [element, rest @ ..] if rest.len() <= 2 => {
                    let min = rest.first().map_or(Ok(0), |v| bound(v, 0))?;
                    let max = rest.get(1).map_or(Ok(MAX), |v| bound(v, MAX))?;
                    Ok(PType::Array {
                        element: Box::new(inner_type(element)?),
                        min,
                        max,
                    })
                }
                _ => Err(count_error("1 to 3")),
            },
            PType::Hash { .. } => match args {
                [] => Ok(self.clone()),
                [Value::Integer(_) | Value::Default, ..] if args.len() <= 2 => {
                    let min = bound(&args[0], 0)?;
                    let max = args.get(1).map_or(Ok(MAX), |v| bound(v, MAX))?;
                    Ok(PType::Hash {
                        key: Box::new(PType::Any),
                        value: Box::new(PType::Any),
                        min,
                        max,
                    })
                }
                [key, value, rest @ ..] if rest.len() <= 2 => {
                    let min = rest.first().map_or(Ok(0), |v| bound(v, 0))?;
                    let max = rest.get(1).map_or(Ok(MAX), |v| bound(v, MAX))?;
                    Ok(PType::Hash {
                        key: Box::new(inner_type(key)?),
                        value: Box::new(inner_type(value)?),
                        min,
                        max,
                    })
                }
                _ => Err(count_error("2 to 4")),
            },
            PType::Tuple { .. } => {
                let mut types = Vec::new();
                let mut bounds = Vec::new();
                for arg in args {
                    match arg {
                        Value::Type(t) if bounds.is_empty() => types.push((**t).clone()),
                        Value::Integer(_) | Value::Default => bounds.push(arg.clone()),
                        other => {
                            return Err(format!(
                                "Tuple[] arguments must be types or size bounds, got {}",
                                crate::format::type_label(other)
                            ));
                        }
                    }
                }
                let count = types.len() as i64;
                let min = bounds.first().map_or(Ok(count), |v| bound(v, 0))?;
                let max = bounds
                    .get(1)
                    .map_or(Ok(if bounds.is_empty() { count } else { MAX }), |v| {
                        bound(v, MAX)
                    })?;
                Ok(PType::Tuple { types, min, max })
            }
            PType::Struct(_) => match args {
                [Value::Hash(hash)] => {
                    let mut members = Vec::new();
                    for (key, value) in hash.iter() {
                        let (key, optional) = match key {
                            Value::String(s) => (s.to_string(), false),
                            Value::Type(t) => match &**t {
                                PType::Optional(Some(inner)) => match &**inner {
                                    PType::Enum { values, .. } if values.len() == 1 => {
                                        (values[0].clone(), true)
                                    }
                                    _ => {
                                        return Err(
                                            "Struct[] keys must be String or Optional[String]"
                                                .into(),
                                        );
                                    }
                                },
                                PType::Enum { values, .. } if values.len() == 1 => {
                                    (values[0].clone(), false)
                                }
                                PType::NotUndef(Some(inner)) => match &**inner {
                                    PType::Enum { values, .. } if values.len() == 1 => {
                                        (values[0].clone(), false)
                                    }
                                    _ => {
                                        return Err(
                                            "Struct[] keys must be String or Optional[String]"
                                                .into(),
                                        );
                                    }
                                },
                                _ => {
                                    return Err(
                                        "Struct[] keys must be String or Optional[String]".into()
                                    );
                                }
                            },
                            _ => {
                                return Err(
                                    "Struct[] keys must be String or Optional[String]".into()
                                );
                            }
                        };
                        let value = inner_type(value)?;
                        let optional = optional || value.is_instance(&Value::Undef);
                        members.push(StructMember {
                            key,
                            optional,
                            value,
                        });
                    }
                    Ok(PType::Struct(members))
                }
                _ => Err(count_error("1")),
            },
            PType::Variant(_) => Ok(PType::Variant(
                args.iter().map(inner_type).collect::<Result<_, _>>()?,
            )),
            PType::Optional(_) | PType::NotUndef(_) => {
                let inner = match args {
                    [Value::String(s)] => PType::Enum {
                        values: vec![s.to_string()],
                        case_insensitive: false,
                    },
                    [other] => inner_type(other)?,
                    _ => return Err(count_error("1")),
                };
                Ok(if matches!(self, PType::Optional(_)) {
                    PType::Optional(Some(Box::new(inner)))
                } else {
                    PType::NotUndef(Some(Box::new(inner)))
                })
            }
            PType::Type(_)
            | PType::Iterable(_)
            | PType::Iterator(_)
            | PType::Sensitive(_)
            | PType::Init(_) => {
                let inner = match args {
                    [one] => Box::new(inner_type(one)?),
                    _ => return Err(count_error("1")),
                };
                Ok(match self {
                    PType::Type(_) => PType::Type(Some(inner)),
                    PType::Iterable(_) => PType::Iterable(Some(inner)),
                    PType::Iterator(_) => PType::Iterator(Some(inner)),
                    PType::Sensitive(_) => PType::Sensitive(Some(inner)),
                    _ => PType::Init(Some(inner)),
                })
            }
            PType::Timespan { .. } | PType::Timestamp { .. } => {
                let timespan = matches!(self, PType::Timespan { .. });
                let point = |value: &Value, open: i64| -> Result<i64, String> {
                    match value {
                        Value::Default => Ok(open),
                        Value::Timespan(t) if timespan => Ok(t.0),
                        Value::Timestamp(t) if !timespan => Ok(t.0),
                        Value::Integer(i) => Ok(i.saturating_mul(1_000_000_000)),
                        Value::Float(f) => Ok((f * 1e9) as i64),
                        Value::String(text) if timespan => crate::time::Timespan::parse(text)
                            .map(|t| t.0)
                            .ok_or_else(|| format!("Unable to parse '{text}' as Timespan")),
                        Value::String(text) => crate::time::Timestamp::parse(text)
                            .map(|t| t.0)
                            .ok_or_else(|| format!("Unable to parse '{text}' as Timestamp")),
                        other => Err(format!(
                            "{base}[] arguments must be {base}, Numeric, String or Default, got {}",
                            crate::format::type_label(other)
                        )),
                    }
                };
                let (min, max) = match args {
                    [min] => (point(min, MIN)?, MAX),
                    [min, max] => (point(min, MIN)?, point(max, MAX)?),
                    _ => return Err(count_error("1 to 2")),
                };
                Ok(if timespan {
                    PType::Timespan { min, max }
                } else {
                    PType::Timestamp { min, max }
                })
            }
            PType::SemVer(_) => args
                .iter()
                .map(|arg| match arg {
                    Value::String(text) => SemVerRange::parse(text)
                        .ok_or_else(|| format!("Unable to parse '{text}' as a version range")),
                    Value::SemVerRange(range) => Ok((**range).clone()),
                    other => Err(format!(
                        "SemVer[] arguments must be version ranges, got {}",
                        crate::format::type_label(other)
                    )),
                })
                .collect::<Result<Vec<_>, _>>()
                .map(PType::SemVer),
            PType::Callable(_) => Ok(PType::Callable(
                args.iter().filter_map(|a| inner_type(a).ok()).collect(),
            )),
            PType::Runtime(_) => Ok(PType::Runtime(args.iter().find_map(|a| match a {
                Value::String(s) => Some(s.to_string()),
                _ => None,
            }))),
            PType::Resource {
                type_name: None, ..
            } => match args {
                [Value::String(name)] => Ok(PType::Resource {
                    type_name: Some(name.to_lowercase()),
                    title: None,
                }),
                // A reference (`Resource[Notify['x']]`) stays itself.
                [Value::Type(t)] if matches!(&**t, PType::Resource { title: Some(_), .. }) => {
                    Ok((**t).clone())
                }
                [Value::Type(t)] => Ok(PType::Resource {
                    type_name: resource_type_name(t),
                    title: None,
                }),
                [first, title] => {
                    let type_name = match first {
                        Value::String(name) => Some(name.to_lowercase()),
                        Value::Type(t) => resource_type_name(t),
                        _ => None,
                    };
                    Ok(PType::Resource {
                        type_name,
                        title: Some(title_text(title)),
                    })
                }
                _ => Err(count_error("1 to 2")),
            },
            PType::Resource {
                type_name: Some(name),
                title: None,
            } => match args {
                [title] => Ok(PType::Resource {
                    type_name: Some(name.clone()),
                    title: Some(title_text(title)),
                }),
                _ => Err(count_error("1")),
            },
            PType::Class(None) => match args {
                [Value::String(name)] => Ok(PType::Class(Some(
                    name.trim_start_matches("::").to_lowercase(),
                ))),
                _ => Err(count_error("1")),
            },
            _ => Err(format!("{base} is not a parameterized type")),
        }
    }

    /// The least specific type of the same kind: `Integer[1, 1]` becomes
    /// `Integer`, tuples and structs become arrays and hashes of the common
    /// type of their elements (`type(x, generalized)`).
    pub fn generalize(&self) -> PType {
        match self {
            PType::Boolean(_) => PType::Boolean(None),
            PType::Integer { .. } => PType::integer(),
            PType::Float { .. } => PType::float(),
            PType::String { .. } | PType::Enum { .. } | PType::Pattern(_) => PType::string(),
            PType::Array { element, .. } => PType::array_of(element.generalize()),
            PType::Hash { key, value, .. } => PType::hash_of(key.generalize(), value.generalize()),
            PType::Tuple { types, .. } => {
                PType::array_of(common_of(types.iter().map(PType::generalize)))
            }
            PType::Struct(members) => {
                if members.is_empty() {
                    PType::hash_of(PType::Unit, PType::Unit)
                } else {
                    PType::hash_of(
                        PType::string(),
                        common_of(members.iter().map(|m| m.value.generalize())),
                    )
                }
            }
            PType::Variant(types) => PType::Variant(types.iter().map(PType::generalize).collect()),
            PType::Optional(Some(inner)) => PType::Optional(Some(Box::new(inner.generalize()))),
            PType::Type(Some(inner)) => PType::Type(Some(Box::new(inner.generalize()))),
            PType::Sensitive(Some(inner)) => PType::Sensitive(Some(Box::new(inner.generalize()))),
            PType::Timespan { .. } => PType::Timespan { min: MIN, max: MAX },
            PType::Timestamp { .. } => PType::Timestamp { min: MIN, max: MAX },
            PType::SemVer(_) => PType::SemVer(Vec::new()),
            other => other.clone(),
        }
    }

    /// Collections as arrays and hashes of the common type of their
    /// elements, keeping sizes and ranges (`type(x, reduced)`).
    pub fn reduce(&self) -> PType {
        match self {
            PType::Tuple { types, min, max } => {
                let element = if types.is_empty() {
                    PType::Unit
                } else {
                    common_of(types.iter().map(PType::reduce))
                };
                PType::Array {
                    element: Box::new(element),
                    min: *min,
                    max: *max,
                }
            }
            PType::Struct(members) => {
                let count = members.len() as i64;
                let (key, value) = if members.is_empty() {
                    (PType::Unit, PType::Unit)
                } else {
                    (
                        PType::string(),
                        common_of(members.iter().map(|m| m.value.reduce())),
                    )
                };
                PType::Hash {
                    key: Box::new(key),
                    value: Box::new(value),
                    min: count,
                    max: count,
                }
            }
            other => other.clone(),
        }
    }

    /// The most specific type both `self` and `other` are assignable to, as
    /// Puppet computes it for collections of mixed values.
    pub fn common(&self, other: &PType) -> PType {
        if self == other {
            return self.clone();
        }
        match (self, other) {
            (PType::Unit, t) | (t, PType::Unit) => t.clone(),
            (
                PType::Integer { min, max },
                PType::Integer {
                    min: omin,
                    max: omax,
                },
            ) => PType::Integer {
                min: (*min).min(*omin),
                max: (*max).max(*omax),
            },
            (
                PType::Float { min, max },
                PType::Float {
                    min: omin,
                    max: omax,
                },
            ) => PType::Float {
                min: min.min(*omin),
                max: max.max(*omax),
            },
            (
                PType::Integer { .. } | PType::Float { .. } | PType::Numeric,
                PType::Integer { .. } | PType::Float { .. } | PType::Numeric,
            ) => PType::Numeric,
            (
                PType::String { min, max },
                PType::String {
                    min: omin,
                    max: omax,
                },
            ) => PType::String {
                min: (*min).min(*omin),
                max: (*max).max(*omax),
            },
            (PType::Boolean(_), PType::Boolean(_)) => PType::Boolean(None),
            (PType::Regexp(_), PType::Regexp(_)) => PType::Regexp(None),
            (
                PType::Array { element, min, max },
                PType::Array {
                    element: oe,
                    min: omin,
                    max: omax,
                },
            ) => PType::Array {
                element: Box::new(element.common(oe)),
                min: (*min).min(*omin),
                max: (*max).max(*omax),
            },
            (
                PType::Hash {
                    key,
                    value,
                    min,
                    max,
                },
                PType::Hash {
                    key: ok,
                    value: ov,
                    min: omin,
                    max: omax,
                },
            ) => PType::Hash {
                key: Box::new(key.common(ok)),
                value: Box::new(value.common(ov)),
                min: (*min).min(*omin),
                max: (*max).max(*omax),
            },
            (a, b) if PType::ScalarData.is_assignable(a) && PType::ScalarData.is_assignable(b) => {
                PType::ScalarData
            }
            (a, b) if PType::Scalar.is_assignable(a) && PType::Scalar.is_assignable(b) => {
                PType::Scalar
            }
            (a, b) if PType::Data.is_assignable(a) && PType::Data.is_assignable(b) => PType::Data,
            (a, b) if PType::RichData.is_assignable(a) && PType::RichData.is_assignable(b) => {
                PType::RichData
            }
            _ => PType::Any,
        }
    }

    /// The type of a value, as `type(value)` reports it.
    pub fn infer(value: &Value) -> PType {
        match value {
            Value::Undef => PType::Undef,
            Value::Default => PType::Default,
            Value::Boolean(b) => PType::Boolean(Some(*b)),
            Value::Integer(i) => PType::Integer { min: *i, max: *i },
            Value::Float(f) => PType::Float { min: *f, max: *f },
            Value::String(_) => PType::string(),
            Value::Regexp(r) => PType::Regexp(Some(r.clone())),
            Value::Array(items) if items.is_empty() => PType::Array {
                element: Box::new(PType::Unit),
                min: 0,
                max: 0,
            },
            Value::Hash(hash) if hash.is_empty() => PType::Hash {
                key: Box::new(PType::Unit),
                value: Box::new(PType::Unit),
                min: 0,
                max: 0,
            },
            Value::Array(items) => PType::Tuple {
                types: items.iter().map(PType::infer).collect(),
                min: items.len() as i64,
                max: items.len() as i64,
            },
            Value::Hash(hash) if hash.keys().all(|k| matches!(k, Value::String(_))) => {
                PType::Struct(
                    hash.iter()
                        .map(|(k, v)| StructMember {
                            key: match k {
                                Value::String(s) => s.to_string(),
                                _ => unreachable!("all keys are strings"),
                            },
                            optional: false,
                            value: PType::infer(v),
                        })
                        .collect(),
                )
            }
            Value::Hash(hash) => PType::Hash {
                key: Box::new(common_type(hash.keys())),
                value: Box::new(common_type(hash.values())),
                min: hash.len() as i64,
                max: hash.len() as i64,
            },
            Value::Type(t) => PType::Type(Some(t.clone())),
            Value::Sensitive(inner) => PType::Sensitive(Some(Box::new(PType::infer(inner)))),
            Value::Iterator(items) => PType::Iterator(Some(Box::new(common_type(items.iter())))),
            Value::Timespan(t) => PType::Timespan { min: t.0, max: t.0 },
            Value::Timestamp(t) => PType::Timestamp { min: t.0, max: t.0 },
            Value::SemVer(v) => PType::SemVer(vec![SemVerRange::exact(v)]),
            Value::SemVerRange(_) => PType::SemVerRange,
            Value::Binary(_) => PType::Binary,
            Value::Deferred(_) => PType::Deferred,
        }
    }
}

impl PType {
    /// `type(value, 'reduced')`: collections as arrays and hashes of the
    /// common type of their elements, sizes kept; the strings of an array
    /// are an `Enum` of their values.
    pub fn infer_reduced(value: &Value) -> PType {
        match value {
            Value::Array(items) if !items.is_empty() => PType::Array {
                element: Box::new(common_reduced(items.iter())),
                min: items.len() as i64,
                max: items.len() as i64,
            },
            // Hashes reduce as their inferred struct does (`Hash[String,
            // Integer[1, 1], 1, 1]`).
            other => PType::infer(other).reduce(),
        }
    }

    /// `type(value, 'generalized')`: the least specific types, except that
    /// the strings of collections keep the range of their lengths when
    /// there are several (`Array[String[4, 6]]`): Puppet takes the common
    /// type of collections with their strings as `Enum`s, then generalizes.
    pub fn infer_generalized(value: &Value) -> PType {
        generalize_enums(&with_enums(value))
    }
}

/// A value's type with every string an `Enum` of itself and collections
/// as arrays and hashes of their elements' common type.
fn with_enums(value: &Value) -> PType {
    match value {
        Value::String(s) => PType::Enum {
            values: vec![s.to_string()],
            case_insensitive: false,
        },
        Value::Array(items) if !items.is_empty() => {
            PType::array_of(common_enums(items.iter().map(with_enums)))
        }
        Value::Hash(hash) if !hash.is_empty() => PType::hash_of(
            common_enums(hash.keys().map(with_enums)),
            common_enums(hash.values().map(with_enums)),
        ),
        other => PType::infer(other),
    }
}

/// The common type of types made by [`with_enums`]: enums unite, arrays
/// and hashes combine element by element, anything else is generalized
/// first.
fn common_enums(types: impl Iterator<Item = PType>) -> PType {
    types.fold(PType::Unit, |common, t| match (common, t) {
        (PType::Unit, t) => t,
        // Undef is absorbed by the other elements' type, as in Puppet.
        (t, PType::Undef) | (PType::Undef, t) => t,
        (PType::Enum { values: mut a, .. }, PType::Enum { values: b, .. }) => {
            for value in b {
                if !a.contains(&value) {
                    a.push(value);
                }
            }
            PType::Enum {
                values: a,
                case_insensitive: false,
            }
        }
        (PType::Array { element: a, .. }, PType::Array { element: b, .. }) => {
            PType::array_of(common_enums([*a, *b].into_iter()))
        }
        (
            PType::Hash {
                key: ka, value: va, ..
            },
            PType::Hash {
                key: kb, value: vb, ..
            },
        ) => PType::hash_of(
            common_enums([*ka, *kb].into_iter()),
            common_enums([*va, *vb].into_iter()),
        ),
        (a, b) => generalize_enums(&a).common(&generalize_enums(&b)),
    })
}

/// An `Enum` of several strings becomes `String[shortest, longest]`, of
/// one string `String`; the rest generalizes as usual.
fn generalize_enums(t: &PType) -> PType {
    match t {
        PType::Enum { values, .. } if values.len() > 1 => {
            let lengths = values.iter().map(|s| s.chars().count() as i64);
            PType::String {
                min: lengths.clone().min().unwrap_or(0),
                max: lengths.max().unwrap_or(0),
            }
        }
        PType::Enum { .. } => PType::string(),
        PType::Array { element, .. } => PType::array_of(generalize_enums(element)),
        PType::Hash { key, value, .. } => {
            PType::hash_of(generalize_enums(key), generalize_enums(value))
        }
        other => other.generalize(),
    }
}

/// The distinct strings of `values`, sorted, when all of them are strings.
fn all_strings<'a>(values: impl Iterator<Item = &'a Value>) -> Option<Vec<&'a str>> {
    let mut strings = Vec::new();
    for value in values {
        match value {
            Value::String(s) => strings.push(&**s),
            _ => return None,
        }
    }
    strings.sort_unstable();
    strings.dedup();
    Some(strings)
}

fn common_reduced<'a>(values: impl Iterator<Item = &'a Value> + Clone) -> PType {
    match all_strings(values.clone()) {
        Some(strings) => PType::Enum {
            values: strings.into_iter().map(str::to_string).collect(),
            case_insensitive: false,
        },
        None => common_of(values.map(PType::infer_reduced)),
    }
}

/// The common type of several types; `Unit` when there are none.
fn common_of(types: impl Iterator<Item = PType>) -> PType {
    types.fold(PType::Unit, |common, t| common.common(&t))
}

/// The common generalized type of several values.
fn common_type<'a>(values: impl Iterator<Item = &'a Value>) -> PType {
    common_of(values.map(|v| PType::infer(v).generalize()))
}

fn resource_type_name(t: &PType) -> Option<String> {
    match t {
        PType::Resource { type_name, .. } => type_name.clone(),
        PType::Class(_) => Some("class".into()),
        _ => None,
    }
}

fn title_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.to_string(),
        other => crate::format::to_s(other),
    }
}

fn in_range(length: usize, min: i64, max: i64) -> bool {
    let length = length as i64;
    min <= length && length <= max
}

fn is_scalar(value: &Value) -> bool {
    matches!(
        value,
        Value::Integer(_)
            | Value::Timespan(_)
            | Value::Timestamp(_)
            | Value::SemVer(_)
            | Value::Float(_)
            | Value::String(_)
            | Value::Boolean(_)
            | Value::Regexp(_)
    )
}

fn is_data(value: &Value) -> bool {
    match value {
        Value::Undef
        | Value::Integer(_)
        | Value::Float(_)
        | Value::String(_)
        | Value::Boolean(_) => true,
        Value::Array(items) => items.iter().all(is_data),
        Value::Hash(hash) => hash
            .iter()
            .all(|(k, v)| matches!(k, Value::String(_)) && is_data(v)),
        _ => false,
    }
}

fn is_rich_data(value: &Value) -> bool {
    match value {
        Value::Array(items) => items.iter().all(is_rich_data),
        Value::Hash(hash) => hash.iter().all(|(k, v)| is_rich_data(k) && is_rich_data(v)),
        Value::Iterator(_) => false,
        _ => true,
    }
}

/// `apache::vhost` to `Apache::Vhost`.
pub fn capitalize_segments(name: &str) -> String {
    name.split("::")
        .map(|segment| {
            let mut chars = segment.chars();
            match chars.next() {
                Some(first) => first.to_uppercase().chain(chars).collect(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join("::")
}

/// `['a']` for a single point, `['a', 'b']` for a range, none when
/// unbounded; open ends print as `default`.
fn bounds_text(min: i64, max: i64, show: impl Fn(i64) -> String) -> Option<String> {
    let end = |n: i64, open: i64| {
        if n == open {
            "default".to_string()
        } else {
            quote(&show(n))
        }
    };
    match (min, max) {
        (MIN, MAX) => None,
        (a, b) if a == b => Some(quote(&show(a))),
        (a, MAX) => Some(end(a, MIN)),
        (a, b) => Some(format!("{}, {}", end(a, MIN), end(b, MAX))),
    }
}

fn write_bound(out: &mut String, value: i64, unbounded: i64) {
    if value == unbounded {
        out.push_str("default");
    } else {
        let _ = write!(out, "{value}");
    }
}

fn size_params(min: i64, max: i64) -> Option<String> {
    if min == 0 && max == MAX {
        return None;
    }
    let mut out = String::new();
    let _ = write!(out, "{min}");
    if max != MAX {
        out.push_str(", ");
        write_bound(&mut out, max, MAX);
    }
    Some(out)
}

impl fmt::Display for PType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let PType::Deferred = self {
            // Puppet defines Deferred as an Object type and prints it whole.
            return f.write_str(
                "Object[{name => 'Deferred', attributes => {'name' => Pattern[/\\A[$]?[a-z][a-z0-9_]*(?:::[a-z][a-z0-9_]*)*\\z/], 'arguments' => {type => Optional[Array], value => undef}}}]",
            );
        }
        let name = self.name();
        let params: Option<String> = match self {
            PType::Boolean(Some(b)) => Some(b.to_string()),
            PType::Integer { min, max } => {
                if *min == MIN && *max == MAX {
                    None
                } else {
                    let mut out = String::new();
                    write_bound(&mut out, *min, MIN);
                    if *max != MAX {
                        out.push_str(", ");
                        write_bound(&mut out, *max, MAX);
                    }
                    Some(out)
                }
            }
            PType::Float { min, max } => {
                if min.is_infinite() && max.is_infinite() {
                    None
                } else {
                    let min_text = if min.is_infinite() {
                        "default".to_string()
                    } else {
                        float_to_string(*min)
                    };
                    if max.is_infinite() {
                        Some(min_text)
                    } else {
                        Some(format!("{min_text}, {}", float_to_string(*max)))
                    }
                }
            }
            PType::String { min, max } | PType::Collection { min, max } => size_params(*min, *max),
            PType::Enum {
                values,
                case_insensitive,
            } => {
                if values.is_empty() {
                    None
                } else {
                    let mut out = values
                        .iter()
                        .map(|v| quote(v))
                        .collect::<Vec<_>>()
                        .join(", ");
                    if *case_insensitive {
                        out.push_str(", true");
                    }
                    Some(out)
                }
            }
            PType::Pattern(patterns) => (!patterns.is_empty()).then(|| {
                patterns
                    .iter()
                    .map(|p| format!("/{}/", p.source()))
                    .collect::<Vec<_>>()
                    .join(", ")
            }),
            PType::Regexp(Some(r)) => Some(format!("/{}/", r.source())),
            PType::Array { element, min, max } => {
                let size = size_params(*min, *max);
                match (&**element, size) {
                    (PType::Any, None) => None,
                    (PType::Unit, Some(size)) => Some(size),
                    (element, None) => Some(element.to_string()),
                    (element, Some(size)) => Some(format!("{element}, {size}")),
                }
            }
            PType::Hash {
                key,
                value,
                min,
                max,
            } => {
                let size = size_params(*min, *max);
                match (&**key, &**value, size) {
                    (PType::Any, PType::Any, None) => None,
                    (PType::Unit, PType::Unit, Some(size)) => Some(size),
                    (key, value, None) => Some(format!("{key}, {value}")),
                    (key, value, Some(size)) => Some(format!("{key}, {value}, {size}")),
                }
            }
            PType::Tuple { types, min, max } => {
                let mut parts: Vec<String> = types.iter().map(ToString::to_string).collect();
                let count = types.len() as i64;
                if *min != count || *max != count {
                    parts.push(min.to_string());
                    if *max != MAX {
                        parts.push(max.to_string());
                    }
                }
                (!parts.is_empty()).then(|| parts.join(", "))
            }
            PType::Struct(members) => {
                if members.is_empty() {
                    None
                } else {
                    let entries: Vec<String> = members
                        .iter()
                        .map(|m| {
                            let undef = m.value.is_instance(&Value::Undef);
                            let key = if m.optional && !undef {
                                format!("Optional[{}]", quote(&m.key))
                            } else if !m.optional && undef {
                                // An inferred key that holds undef (Puppet's
                                // infer_set): present, its value undef.
                                format!("NotUndef[{}]", quote(&m.key))
                            } else {
                                quote(&m.key)
                            };
                            format!("{key} => {}", m.value)
                        })
                        .collect();
                    Some(format!("{{{}}}", entries.join(", ")))
                }
            }
            PType::Variant(types) | PType::Callable(types) => (!types.is_empty()).then(|| {
                types
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            }),
            PType::Optional(Some(inner))
            | PType::NotUndef(Some(inner))
            | PType::Type(Some(inner))
            | PType::Iterable(Some(inner))
            | PType::Iterator(Some(inner))
            | PType::Sensitive(Some(inner))
            | PType::Init(Some(inner)) => Some(match &**inner {
                PType::Enum { values, .. }
                    if values.len() == 1
                        && matches!(self, PType::Optional(_) | PType::NotUndef(_)) =>
                {
                    quote(&values[0])
                }
                other => other.to_string(),
            }),
            PType::Runtime(Some(name)) => Some(quote(name)),
            PType::Timespan { min, max } => {
                bounds_text(*min, *max, |n| crate::time::Timespan(n).to_string())
            }
            PType::Timestamp { min, max } => {
                bounds_text(*min, *max, |n| crate::time::Timestamp(n).to_string())
            }
            PType::SemVer(ranges) => (!ranges.is_empty()).then(|| {
                ranges
                    .iter()
                    .map(|r| quote(&r.to_string()))
                    .collect::<Vec<_>>()
                    .join(", ")
            }),
            PType::Resource {
                title: Some(title), ..
            } => Some(quote(title)),
            PType::Class(Some(name)) => Some(name.clone()),
            _ => None,
        };
        match params {
            Some(params) => write!(f, "{name}[{params}]"),
            None => f.write_str(&name),
        }
    }
}

//! Custom facts compiled into the program: the Rust counterpart of
//! `Facter.add` in Puppet's custom-fact documentation.
//!
//! A [`CustomFact`] has one or more [`Resolution`]s. A resolution is
//! *suitable* when all its confines hold; among the suitable ones the one
//! with the highest weight is tried first, and the first to give a value
//! (not `None`) wins. A resolution's weight defaults to its number of
//! confines, as in Facter, so a more specific resolution beats a general
//! one. Resolutions may ask for other facts through [`FactContext::value`];
//! custom facts are resolved on demand, and a circle of facts asking for
//! each other is reported as [`FactError::Cycle`] instead of looping.
//!
//! ```
//! use marionette_facts::custom::{CustomFact, Resolution, any_of};
//! use serde_json::json;
//!
//! let role = CustomFact::new("role")
//!     // Weight 1 (one confine): tried before the fallback.
//!     .resolution(Resolution::value("webserver").confine("kernel", "linux"))
//!     // Weight 0: used when nothing more specific is suitable.
//!     .resolution(Resolution::value("generic"));
//! let greeting = CustomFact::new("greeting").resolution(
//!     Resolution::new(|facts| {
//!         let role = facts.value("role")?;
//!         Ok(role.map(|role| json!(format!("hello from a {}", role.as_str().unwrap_or("?")))))
//!     })
//!     .confine("os.family", any_of(["Debian", "RedHat"])),
//! );
//! # let _ = (role, greeting);
//! ```

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::error::FactError;
use crate::query::query;

/// How a resolution computes its value. `Ok(None)` means "no value here":
/// the next suitable resolution is tried.
pub type ResolveFn = dyn Fn(&mut FactContext<'_>) -> Result<Option<Value>, FactError> + Send + Sync;

/// A confine's own test, which may look at any facts.
type ConfineTest = dyn Fn(&mut FactContext<'_>) -> Result<bool, FactError> + Send + Sync;

/// A test a confine applies to a fact's value.
#[derive(Clone)]
pub enum Matcher {
    /// The value equals this one. Strings compare without regard to case,
    /// as Facter's confines do (`"linux"` matches `"Linux"`).
    Equals(Value),
    /// The value equals one of these.
    AnyOf(Vec<Value>),
    /// The value passes this test.
    Predicate(Arc<dyn Fn(&Value) -> bool + Send + Sync>),
}

impl std::fmt::Debug for Matcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Matcher::Equals(value) => write!(f, "Equals({value})"),
            Matcher::AnyOf(values) => write!(f, "AnyOf({values:?})"),
            Matcher::Predicate(_) => write!(f, "Predicate(..)"),
        }
    }
}

impl From<&str> for Matcher {
    fn from(value: &str) -> Matcher {
        Matcher::Equals(Value::from(value))
    }
}

impl From<String> for Matcher {
    fn from(value: String) -> Matcher {
        Matcher::Equals(Value::from(value))
    }
}

impl From<bool> for Matcher {
    fn from(value: bool) -> Matcher {
        Matcher::Equals(Value::from(value))
    }
}

impl From<i64> for Matcher {
    fn from(value: i64) -> Matcher {
        Matcher::Equals(Value::from(value))
    }
}

impl From<Value> for Matcher {
    fn from(value: Value) -> Matcher {
        Matcher::Equals(value)
    }
}

/// A matcher for any of several values: `any_of(["Debian", "RedHat"])`.
pub fn any_of<T: Into<Value>>(values: impl IntoIterator<Item = T>) -> Matcher {
    Matcher::AnyOf(values.into_iter().map(Into::into).collect())
}

/// A matcher that runs a test on the value: `predicate(|v| v.as_u64() > Some(2))`.
pub fn predicate(test: impl Fn(&Value) -> bool + Send + Sync + 'static) -> Matcher {
    Matcher::Predicate(Arc::new(test))
}

/// Facter's comparison: strings without regard to case, the rest exactly.
fn same(expected: &Value, actual: &Value) -> bool {
    match (expected, actual) {
        (Value::String(expected), Value::String(actual)) => {
            expected.to_lowercase() == actual.to_lowercase()
        }
        _ => expected == actual,
    }
}

impl Matcher {
    fn matches(&self, value: &Value) -> bool {
        match self {
            Matcher::Equals(expected) => same(expected, value),
            Matcher::AnyOf(values) => values.iter().any(|expected| same(expected, value)),
            Matcher::Predicate(test) => test(value),
        }
    }
}

/// A condition for a resolution to be suitable.
#[derive(Clone)]
enum Confine {
    /// A fact (dotted paths allowed) must have a value that matches.
    Fact { name: String, matcher: Matcher },
    /// A test of its own, which may look at any facts.
    Test(Arc<ConfineTest>),
}

/// One way of computing a custom fact.
#[derive(Clone)]
pub struct Resolution {
    confines: Vec<Confine>,
    weight: Option<i64>,
    resolve: Arc<ResolveFn>,
}

impl Resolution {
    /// A resolution computed by `resolve`.
    pub fn new(
        resolve: impl Fn(&mut FactContext<'_>) -> Result<Option<Value>, FactError>
        + Send
        + Sync
        + 'static,
    ) -> Resolution {
        Resolution {
            confines: Vec::new(),
            weight: None,
            resolve: Arc::new(resolve),
        }
    }

    /// A resolution that always gives `value`.
    pub fn value(value: impl Into<Value>) -> Resolution {
        let value = value.into();
        Resolution::new(move |_| Ok(Some(value.clone())))
    }

    /// Suitable only when fact `name` (a dotted path like `os.family` is
    /// allowed) has a value that `matcher` accepts: a value (`"Linux"`, `true`,
    /// `2`), [`any_of`] several, or a [`predicate`]. A fact without a value
    /// never matches.
    pub fn confine(mut self, name: &str, matcher: impl Into<Matcher>) -> Resolution {
        self.confines.push(Confine::Fact {
            name: name.to_lowercase(),
            matcher: matcher.into(),
        });
        self
    }

    /// Suitable only when `test` says so; it may look at any facts.
    pub fn confine_with(
        mut self,
        test: impl Fn(&mut FactContext<'_>) -> Result<bool, FactError> + Send + Sync + 'static,
    ) -> Resolution {
        self.confines.push(Confine::Test(Arc::new(test)));
        self
    }

    /// Sets the weight; without one, the weight is the number of confines.
    pub fn weight(mut self, weight: i64) -> Resolution {
        self.weight = Some(weight);
        self
    }

    /// The weight used to order suitable resolutions.
    pub fn effective_weight(&self) -> i64 {
        self.weight
            .unwrap_or_else(|| i64::try_from(self.confines.len()).unwrap_or(i64::MAX))
    }
}

/// A fact computed by code compiled into the program.
#[derive(Clone)]
pub struct CustomFact {
    name: String,
    resolutions: Vec<Resolution>,
}

impl CustomFact {
    /// A fact called `name` (fact names are case-insensitive and kept in
    /// lower case, as Facter keeps them), with no resolutions yet.
    pub fn new(name: impl Into<String>) -> CustomFact {
        CustomFact {
            name: name.into().to_lowercase(),
            resolutions: Vec::new(),
        }
    }

    /// Adds a resolution. Among suitable resolutions of equal weight, the one
    /// added first is tried first.
    pub fn resolution(mut self, resolution: Resolution) -> CustomFact {
        self.resolutions.push(resolution);
        self
    }

    /// The fact's name, in lower case.
    pub fn name(&self) -> &str {
        &self.name
    }
}

/// What resolutions see: every other fact, by name or dotted path.
pub struct FactContext<'a> {
    // A trait object hides the resolver's own lifetime, which a context
    // made for one call must not have to name.
    resolver: &'a mut dyn Lookup,
}

/// Looking up facts by name: what a [`FactContext`] delegates to.
trait Lookup {
    fn value(&mut self, name: &str) -> Result<Option<Value>, FactError>;
}

impl Lookup for Resolver<'_> {
    fn value(&mut self, name: &str) -> Result<Option<Value>, FactError> {
        Resolver::value(self, name)
    }
}

impl FactContext<'_> {
    /// The value of a fact, or `None` when it has none. Custom facts are
    /// resolved on demand; external facts come before custom ones, custom
    /// before built-in ones, as in Facter. Asking for a fact that is being
    /// resolved further up gives [`FactError::Cycle`]: return it (with `?`)
    /// so the circle is reported.
    pub fn value(&mut self, name: &str) -> Result<Option<Value>, FactError> {
        self.resolver.value(name)
    }
}

/// The facts custom facts are resolved against.
pub(crate) struct Sources<'a> {
    pub(crate) external: &'a Map<String, Value>,
    pub(crate) builtin: &'a Map<String, Value>,
    pub(crate) legacy: &'a Map<String, Value>,
}

/// How many custom facts may wait on each other at once. Each waiting fact
/// holds a few stack frames; the limit keeps a long chain from exhausting
/// the stack of the thread that collects.
const MAX_DEPTH: usize = 128;

/// Resolves custom facts on demand, remembering results and the chain of
/// facts being resolved (to catch cycles).
pub(crate) struct Resolver<'a> {
    sources: Sources<'a>,
    facts: HashMap<&'a str, Vec<&'a Resolution>>,
    resolved: HashMap<String, Option<Value>>,
    stack: Vec<String>,
    /// Errors of single resolutions: reported, and the next resolution tried.
    pub(crate) errors: Vec<FactError>,
}

impl<'a> Resolver<'a> {
    pub(crate) fn new(sources: Sources<'a>, custom: &'a [CustomFact]) -> Resolver<'a> {
        let mut facts: HashMap<&'a str, Vec<&'a Resolution>> = HashMap::new();
        for fact in custom {
            facts
                .entry(fact.name.as_str())
                .or_default()
                .extend(fact.resolutions.iter());
        }
        Resolver {
            sources,
            facts,
            resolved: HashMap::new(),
            stack: Vec::new(),
            errors: Vec::new(),
        }
    }

    /// Any fact by name or dotted path.
    pub(crate) fn value(&mut self, name: &str) -> Result<Option<Value>, FactError> {
        let name = name.to_lowercase();
        if let Some(value) = query(self.sources.external, &name) {
            return Ok(Some(value.clone()));
        }
        let head = name.split('.').next().unwrap_or_default();
        let custom = if self.facts.contains_key(name.as_str()) {
            Some((name.as_str(), ""))
        } else if self.facts.contains_key(head) {
            Some((head, name.get(head.len() + 1..).unwrap_or_default()))
        } else {
            None
        };
        if let Some((fact, rest)) = custom
            && let Some(value) = self.custom(fact)?
        {
            if rest.is_empty() {
                return Ok(Some(value));
            }
            let mut wrapper = Map::new();
            wrapper.insert(fact.to_string(), value);
            return Ok(query(&wrapper, &name).cloned());
        }
        Ok(query(self.sources.builtin, &name)
            .or_else(|| query(self.sources.legacy, &name))
            .cloned())
    }

    /// A custom fact's value, resolved once.
    pub(crate) fn custom(&mut self, name: &str) -> Result<Option<Value>, FactError> {
        if let Some(value) = self.resolved.get(name) {
            return Ok(value.clone());
        }
        if let Some(start) = self.stack.iter().position(|entry| entry == name) {
            let mut chain: Vec<String> = self.stack[start..].to_vec();
            chain.push(name.to_string());
            return Err(FactError::Cycle { chain });
        }
        let Some(resolutions) = self.facts.get(name).cloned() else {
            return Ok(None);
        };
        if self.stack.len() >= MAX_DEPTH {
            return Err(FactError::TooDeep {
                fact: name.to_string(),
                limit: MAX_DEPTH,
            });
        }
        self.stack.push(name.to_string());
        let outcome = self.first_value(name, resolutions);
        self.stack.pop();
        let value = match &outcome {
            Ok(value) => value.clone(),
            Err(_) => None,
        };
        self.resolved.insert(name.to_string(), value);
        outcome
    }

    fn first_value(
        &mut self,
        name: &str,
        mut resolutions: Vec<&'a Resolution>,
    ) -> Result<Option<Value>, FactError> {
        // A stable sort keeps the order of definition among equal weights.
        resolutions.sort_by_key(|resolution| std::cmp::Reverse(resolution.effective_weight()));
        for resolution in resolutions {
            if !self.suitable(resolution)? {
                continue;
            }
            let outcome = (resolution.resolve)(&mut FactContext { resolver: self });
            match outcome {
                Ok(Some(value)) => return Ok(Some(value)),
                Ok(None) => {}
                Err(error @ (FactError::Cycle { .. } | FactError::TooDeep { .. })) => {
                    return Err(error);
                }
                Err(FactError::Custom { message, .. }) => self.errors.push(FactError::Custom {
                    fact: name.to_string(),
                    message,
                }),
                Err(error) => self.errors.push(FactError::Custom {
                    fact: name.to_string(),
                    message: error.to_string(),
                }),
            }
        }
        Ok(None)
    }

    fn suitable(&mut self, resolution: &'a Resolution) -> Result<bool, FactError> {
        for confine in &resolution.confines {
            let holds = match confine {
                Confine::Fact { name, matcher } => match self.value(name)? {
                    Some(value) => matcher.matches(&value),
                    None => false,
                },
                Confine::Test(test) => test(&mut FactContext { resolver: self })?,
            };
            if !holds {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

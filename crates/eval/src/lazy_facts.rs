//! Facts resolved only when the code first reads them. Puppet resolves
//! every custom fact of every module on the module path before it
//! compiles, whatever the code reads: on a machine with Debian's Forge
//! modules that is seconds of commands (apt's facts simulate an upgrade).
//! Here a compile is given the names of such facts, and each is resolved
//! at its first read: `$name`, `$::name`, `$facts['name']`, `%{facts.name}`
//! in Hiera, a template's `@name`, `getvar`, `fact()`. A read of `$facts`
//! as a whole (iterated, passed on, dug into by a key computed later)
//! resolves them all, so no code can tell the difference.

use std::collections::HashSet;
use std::sync::Arc;

use marionette_values::Value;

use crate::evaluator::Evaluator;
use crate::scope::{ScopeId, TOP_SCOPE};

/// Facts a compile resolves on demand (modules' custom facts).
pub trait LazyFacts: Send + Sync {
    /// The names of the facts it may resolve; those already set when the
    /// compile starts are not asked for.
    fn names(&self) -> Vec<String>;
    /// One fact's value, as plain data; `None` when it has none here.
    fn resolve(&self, name: &str) -> Option<serde_json::Value>;
}

/// The facts of a compile not resolved yet.
pub(crate) struct Pending {
    names: HashSet<String>,
    source: Arc<dyn LazyFacts>,
}

impl<'p> Evaluator<'p> {
    /// Makes the facts of `source` top-scope variables and keys of
    /// `$facts`, each resolved at its first read. Facts already set
    /// (collected natively) keep their values.
    pub fn set_lazy_facts(&mut self, source: Arc<dyn LazyFacts>) {
        let top = &self.scopes.get(TOP_SCOPE).variables;
        let names: HashSet<String> = source
            .names()
            .into_iter()
            .filter(|name| !top.contains_key(name))
            .collect();
        self.pending_facts = (!names.is_empty()).then_some(Pending { names, source });
    }

    /// The fact `name` if it is still to be resolved: resolved now and set,
    /// as a variable and in `$facts`. `None` when it is not such a fact,
    /// or has no value.
    pub(crate) fn lazy_fact(&mut self, name: &str) -> Option<Value> {
        let pending = self.pending_facts.as_mut()?;
        if !pending.names.remove(name) {
            return None;
        }
        let source = pending.source.clone();
        if pending.names.is_empty() {
            self.pending_facts = None;
        }
        let value = marionette_catalog::from_data(&source.resolve(name)?);
        self.add_fact(name, value.clone());
        Some(value)
    }

    /// Resolves every fact still to be resolved: the code reads `$facts`
    /// as a whole.
    pub(crate) fn all_facts(&mut self) {
        let Some(pending) = self.pending_facts.take() else {
            return;
        };
        let mut names: Vec<String> = pending.names.into_iter().collect();
        names.sort();
        for name in names {
            if let Some(data) = pending.source.resolve(&name) {
                self.add_fact(&name, marionette_catalog::from_data(&data));
            }
        }
    }

    fn add_fact(&mut self, name: &str, value: Value) {
        let top = &mut self.scopes.get_mut(TOP_SCOPE).variables;
        if let Some(Value::Hash(facts)) = top.get_mut("facts") {
            Arc::make_mut(facts).insert(Value::string(name), value.clone());
        }
        top.insert(name.to_string(), value);
    }

    /// The top-scope variable `name`, a fact resolved for it if need be.
    pub(crate) fn top_variable(&mut self, name: &str) -> Option<Value> {
        if name == "facts" {
            self.all_facts();
        }
        match self.scopes.get(TOP_SCOPE).variables.get(name) {
            Some(value) => Some(value.clone()),
            None => self.lazy_fact(name),
        }
    }

    /// The variable `name` as the scope `scope` sees it, a fact resolved
    /// for it if need be.
    pub(crate) fn visible_variable(&mut self, scope: ScopeId, name: &str) -> Option<Value> {
        if name == "facts" {
            self.all_facts();
        }
        match self.scopes.lookup(scope, name) {
            Some(value) => Some(value.clone()),
            None => self.lazy_fact(name),
        }
    }

    /// `$facts` for a read of its key `key` (`$facts['name']`): only that
    /// fact is resolved.
    pub(crate) fn facts_for_key(&mut self, key: &str) -> Value {
        self.lazy_fact(key);
        self.scopes
            .get(TOP_SCOPE)
            .variables
            .get("facts")
            .cloned()
            .unwrap_or(Value::Undef)
    }
}

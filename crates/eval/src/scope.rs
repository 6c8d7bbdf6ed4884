//! Variable scopes.
//!
//! Scopes live in an arena and point to their parent, so that class scopes
//! outlive the evaluation of the class body (for `$class::var`) and lambdas
//! can close over the scope they were written in.

use std::rc::Rc;

use marionette_values::Value;
use marionette_values::fasthash::FastMap;

use crate::compiler::{ResId, ResourceDefault};

pub(crate) type ScopeId = usize;

pub(crate) const TOP_SCOPE: ScopeId = 0;

pub(crate) type Variables = FastMap<String, Value>;

#[derive(Debug)]
pub(crate) struct Scope {
    pub(crate) variables: Variables,
    pub(crate) parent: Option<ScopeId>,
    /// What log lines name as the source, e.g. `Class[main]`.
    pub(crate) label: Rc<str>,
    /// `$0`, `$1`, ... from the last successful match in this scope.
    pub(crate) matches: Option<Vec<Value>>,
    /// The catalog resource whose code runs in this scope (a class, a
    /// defined-type instance, the node, or `Class[main]`); resources
    /// declared here are contained in it and take its tags. Local scopes
    /// leave it unset and use their parent's.
    pub(crate) resource: Option<ResId>,
    /// Where resource defaults are looked up after this scope: the scope
    /// that declared the class or defined type (Puppet's dynamic scoping
    /// of defaults), while variables follow `parent`.
    pub(crate) defaults_parent: Option<ScopeId>,
    /// Resource defaults set in this scope (`File { mode => '0644' }`).
    pub(crate) defaults: Vec<ResourceDefault>,
    /// A resource declared here refers to this scope (for defaults), so
    /// it must outlive the call that created it.
    pub(crate) pinned: bool,
    /// In a lambda's scope, the parameters that may be moved out at their
    /// single use (see `moves`).
    pub(crate) movable: Option<Rc<[String]>>,
}

#[derive(Debug)]
pub(crate) struct Scopes {
    arena: Vec<Scope>,
}

impl Default for Scopes {
    fn default() -> Scopes {
        Scopes::new()
    }
}

impl Scopes {
    pub(crate) fn new() -> Scopes {
        let top = Scope {
            variables: Variables::default(),
            parent: None,
            label: Rc::from("Class[main]"),
            matches: None,
            resource: None,
            defaults_parent: None,
            defaults: Vec::new(),
            pinned: false,
            movable: None,
        };
        Scopes { arena: vec![top] }
    }

    pub(crate) fn create(&mut self, parent: ScopeId, label: Option<Rc<str>>) -> ScopeId {
        let label = label.unwrap_or_else(|| self.arena[parent].label.clone());
        self.arena.push(Scope {
            variables: Variables::default(),
            parent: Some(parent),
            label,
            matches: None,
            resource: None,
            defaults_parent: None,
            defaults: Vec::new(),
            pinned: false,
            movable: None,
        });
        self.arena.len() - 1
    }

    /// Drops a scope that is no longer needed, when it is the newest one
    /// (scopes of calls end in the order they began; class scopes created
    /// meanwhile keep older ones alive).
    pub(crate) fn release(&mut self, id: ScopeId) {
        if id + 1 == self.arena.len() && id != TOP_SCOPE && !self.arena[id].pinned {
            self.arena.pop();
        }
    }

    pub(crate) fn get(&self, id: ScopeId) -> &Scope {
        &self.arena[id]
    }

    pub(crate) fn get_mut(&mut self, id: ScopeId) -> &mut Scope {
        &mut self.arena[id]
    }

    /// Looks a variable up from `id` outwards.
    pub(crate) fn lookup(&self, mut id: ScopeId, name: &str) -> Option<&Value> {
        loop {
            let scope = &self.arena[id];
            if let Some(value) = scope.variables.get(name) {
                return Some(value);
            }
            id = scope.parent?;
        }
    }

    /// Every variable visible from `id`, the nearest of each name.
    pub(crate) fn visible(&self, mut id: ScopeId) -> Vec<(String, Value)> {
        let mut seen = std::collections::HashSet::new();
        let mut all = Vec::new();
        loop {
            let scope = &self.arena[id];
            for (name, value) in &scope.variables {
                if seen.insert(name.clone()) {
                    all.push((name.clone(), value.clone()));
                }
            }
            match scope.parent {
                Some(parent) => id = parent,
                None => return all,
            }
        }
    }

    /// The resource whose code runs in scope `id`: its own, or the nearest
    /// enclosing scope's.
    pub(crate) fn resource(&self, mut id: ScopeId) -> Option<ResId> {
        loop {
            let scope = &self.arena[id];
            if scope.resource.is_some() {
                return scope.resource;
            }
            id = scope.parent?;
        }
    }

    /// The scope whose defaults apply after `id`'s own.
    pub(crate) fn defaults_parent(&self, id: ScopeId) -> Option<ScopeId> {
        let scope = &self.arena[id];
        scope.defaults_parent.or(scope.parent)
    }

    /// The nearest match data from `id` outwards.
    pub(crate) fn match_data(&self, mut id: ScopeId) -> Option<&Vec<Value>> {
        loop {
            let scope = &self.arena[id];
            if let Some(matches) = &scope.matches {
                return Some(matches);
            }
            id = scope.parent?;
        }
    }
}

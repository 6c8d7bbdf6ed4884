//! Compilation: turning evaluation into a catalog.
//!
//! The evaluator calls into this module when code declares resources,
//! classes, defaults, overrides, collectors and relationships. The state
//! here mirrors Puppet's compiler: resources in declaration order with
//! their containment edges, defined-type instances evaluated lazily after
//! the main code (`evaluate_generators`), collectors re-run until nothing
//! new is found, and a `finish` step that applies pending overrides,
//! defaults and scope tags, resolves relationships and propagates
//! metaparameters down containment.
//!
//! - `resources.rs`: resource statements, classes, defined types, nodes.
//! - `defaults.rs`: resource defaults and overrides.
//! - `params.rs`: a resource's parameters.
//! - `collect.rs`: collectors, `realize` and relationships.
//! - `output.rs`: finishing and the catalog in Puppet's wire format.
//! - `builtin_types.rs`: the resource types Puppet knows without modules.

use std::borrow::Cow;
use std::sync::Arc;

use indexmap::IndexSet;
use marionette_syntax::ast::AttributeOperation;
use marionette_values::Value;
use marionette_values::fasthash::{FastBuild, FastMap};

use crate::scope::ScopeId;

pub(crate) mod builtin_types;
pub(crate) mod collect;
pub(crate) mod defaults;
mod module_types;
pub(crate) mod output;
mod params;
pub(crate) mod resources;

/// An index into the compiler's resource list.
pub(crate) type ResId = usize;

/// What a catalog resource is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A type the agent manages (`file`, `notify`, `stage`).
    Builtin,
    /// An instance of a defined type, expanded by the compiler.
    Defined,
    Class,
    Node,
}

impl Kind {
    /// The `kind` field of Puppet's catalog JSON.
    pub(crate) fn label(self) -> &'static str {
        match self {
            Kind::Builtin => "compilable_type",
            Kind::Defined => "defined_type",
            Kind::Class | Kind::Node => "unknown",
        }
    }
}

/// Where a parameter value came from: the class, defined type or node
/// whose code set it. Puppet uses this to decide whether an override may
/// replace a value (only code in a subclass may).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Source {
    Main,
    Class(String),
    Define(String),
    Node(String),
    /// Collector overrides may override anything.
    Anywhere,
}

/// One parameter value of a resource.
#[derive(Clone, Debug)]
pub(crate) struct Param {
    pub(crate) value: Value,
    pub(crate) source: Source,
    pub(crate) file: Arc<str>,
    pub(crate) line: u32,
    /// Written with `+>`: appended to the existing value by an override.
    pub(crate) append: bool,
}

/// A resource's parameters by name, in the order set.
pub(crate) use params::Params;
/// A resource's tags, in the order added.
pub(crate) type Tags = IndexSet<String, FastBuild>;

/// A resource in the catalog being built.
#[derive(Debug)]
pub(crate) struct Res {
    /// The type in lower case without a leading `::` (`file`, `class`,
    /// `mymod::thing`).
    pub(crate) type_name: String,
    /// The title; lower case for classes.
    pub(crate) title: String,
    pub(crate) params: Params,
    pub(crate) tags: Tags,
    pub(crate) file: Option<Arc<str>>,
    pub(crate) line: Option<u32>,
    pub(crate) kind: Kind,
    /// Declared with `@` or `@@` and not realized or collected yet.
    pub(crate) is_virtual: bool,
    pub(crate) exported: bool,
    /// The scope the resource was declared in.
    pub(crate) scope: ScopeId,
    /// The resource whose code declared it (it takes its tags).
    pub(crate) container: ResId,
    /// The code the declaration was in, for override checks.
    pub(crate) source: Source,
    /// Classes and defined types run once.
    pub(crate) evaluated: bool,
    /// Defaults and scope tags have been added.
    pub(crate) finished: bool,
    /// Its title was not a string (a function declared it): the catalog
    /// shows its `name` even though it reads as the title, as Puppet's
    /// does.
    pub(crate) keep_name: bool,
}

impl Res {
    /// The reference as the catalog writes it: `File[/tmp/x]`,
    /// `Class[Foo::Bar]`.
    pub(crate) fn reference(&self) -> String {
        let title = if self.kind == Kind::Class && self.title != "main" {
            marionette_values::types::capitalize_segments(&self.title)
        } else {
            self.title.clone()
        };
        format!(
            "{}[{title}]",
            marionette_values::types::capitalize_segments(&self.type_name)
        )
    }

    /// Adds a tag the way Puppet does: lower-cased, and a name with `::`
    /// also adds each of its segments. Invalid tags are reported by the
    /// caller; here they are skipped.
    pub(crate) fn tag(&mut self, name: &str) {
        add_tag(&mut self.tags, name);
    }
}

/// Whether `name` is a valid tag: word characters, then also `.`, `:`
/// and `-`.
pub(crate) fn valid_tag(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_alphanumeric() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || matches!(c, '_' | ':' | '.' | '-'))
}

pub(crate) fn add_tag(tags: &mut Tags, name: &str) {
    if !valid_tag(name) {
        return;
    }
    let name = lower(name);
    // A tag already there brought its segments with it; one that is not
    // is copied once, into the set.
    if tags.contains(&*name) {
        return;
    }
    tags.insert(name.to_string());
    if name.contains("::") {
        for segment in name.split("::").filter(|s| !s.is_empty()) {
            if !tags.contains(segment) {
                tags.insert(segment.to_string());
            }
        }
    }
}

/// `File { mode => '0644' }` as recorded in a scope.
#[derive(Clone, Debug)]
pub(crate) struct ResourceDefault {
    pub(crate) type_name: String,
    pub(crate) params: Vec<(String, Param)>,
}

/// An override waiting for its resource: `File['x'] { ... }` before
/// `File['x']` exists.
#[derive(Debug)]
pub(crate) struct PendingOverride {
    pub(crate) type_name: String,
    pub(crate) title: String,
    pub(crate) params: Vec<(String, Param)>,
    pub(crate) source: Source,
    pub(crate) file: Arc<str>,
    pub(crate) line: u32,
}

/// A collector `Type <| query |>`, evaluated again each time new
/// resources may have appeared.
#[derive(Debug)]
pub(crate) struct Collector<'p> {
    pub(crate) type_name: String,
    pub(crate) exported: bool,
    /// An exported collector has asked storage for other nodes' exports.
    pub(crate) searched: bool,
    /// The scope the collector is in: what it collects from other nodes
    /// is declared there.
    pub(crate) scope: ScopeId,
    pub(crate) query: collect::Query,
    /// Overrides written as `Type <| |> { ... }`, with the scope to
    /// evaluate them in.
    pub(crate) overrides: Option<(&'p [AttributeOperation], ScopeId)>,
    /// Resources collected so far, in the order found.
    pub(crate) collected: IndexSet<ResId>,
    /// In a chain (`A -> Type <| |> -> B`), what stood left of the
    /// collector: the source of its next arrow when it collects nothing,
    /// so that the chain holds (A before B), as Puppet's empty
    /// alternative does.
    pub(crate) empty_alternative: Option<Operand>,
    pub(crate) file: Arc<str>,
    pub(crate) line: u32,
}

/// One side of a relationship: references, or a collector whose
/// resources are known only at the end.
#[derive(Clone, Debug)]
pub(crate) enum Operand {
    References(Vec<(String, String)>),
    Collector(usize),
}

#[derive(Debug)]
pub(crate) struct Relationship {
    pub(crate) source: Operand,
    pub(crate) target: Operand,
    /// `before` for `->`, `notify` for `~>`.
    pub(crate) param: &'static str,
    pub(crate) file: Arc<str>,
    pub(crate) line: u32,
}

/// Everything compilation has built so far.
#[derive(Default)]
pub(crate) struct Compiler<'p> {
    pub(crate) resources: Vec<Res>,
    /// Type, then title, to resource (see [`key`]): looked up by `&str`,
    /// without making a key for each of thousands of declarations.
    pub(crate) index: FastMap<String, FastMap<String, ResId>>,
    /// Containment: `(container, contained)` in the order added.
    pub(crate) edges: Vec<(ResId, ResId)>,
    /// Classes (and the node) in the order evaluated, as the catalog's
    /// `classes` list has them.
    pub(crate) classes: Vec<String>,
    pub(crate) overrides: Vec<PendingOverride>,
    pub(crate) collectors: Vec<Collector<'p>>,
    /// References given to `realize` before their resources were
    /// declared; each must exist by the end.
    pub(crate) unrealized: Vec<(String, String)>,
    /// Resources collected from other nodes, with the node, type and
    /// title they came as (Puppet's `collector_id`): collecting the same
    /// one again is no duplicate.
    pub(crate) collected_from: std::collections::HashMap<ResId, String>,
    pub(crate) relationships: Vec<Relationship>,
    /// Defined-type instances are evaluated in this order.
    pub(crate) next_unevaluated: usize,
}

/// `(type, title)` as the index keys a reference: lower-case type without
/// a leading `::`, and a lower-case class name.
pub(crate) fn key(type_name: &str, title: &str) -> (String, String) {
    let (type_name, title) = key_parts(type_name, title);
    (type_name.into_owned(), title.into_owned())
}

/// [`key`], borrowing what needs no change (most names are lower case
/// already).
fn key_parts<'a>(type_name: &'a str, title: &'a str) -> (Cow<'a, str>, Cow<'a, str>) {
    let type_name = lower(type_name.trim_start_matches("::"));
    let title = if type_name == "class" {
        lower(title.trim_start_matches("::"))
    } else {
        Cow::Borrowed(title)
    };
    (type_name, title)
}

fn lower(text: &str) -> Cow<'_, str> {
    if text.is_ascii() && !text.bytes().any(|b| b.is_ascii_uppercase()) {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(text.to_lowercase())
    }
}

impl<'p> Compiler<'p> {
    pub(crate) fn find(&self, type_name: &str, title: &str) -> Option<ResId> {
        let (type_name, title) = key_parts(type_name, title);
        let titles = self.index.get(&*type_name)?;
        titles.get(&*title).copied().or_else(|| {
            // A file is the same file with or without trailing slashes.
            let trimmed = title.trim_end_matches('/');
            (type_name == "file" && trimmed.len() < title.len() && !trimmed.is_empty())
                .then(|| titles.get(trimmed).copied())
                .flatten()
        })
    }

    /// Makes `type_name[title]` find resource `id`.
    pub(crate) fn index_as(&mut self, type_name: &str, title: &str, id: ResId) {
        let (type_name, title) = key_parts(type_name, title);
        match self.index.get_mut(&*type_name) {
            Some(titles) => {
                titles.insert(title.into_owned(), id);
            }
            None => {
                let mut titles = FastMap::default();
                titles.insert(title.into_owned(), id);
                self.index.insert(type_name.into_owned(), titles);
            }
        }
    }
}

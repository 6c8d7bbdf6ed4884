//! The relationship graph of a catalog.
//!
//! Every managed resource is a node. Every container (stage, class, node,
//! defined-type instance) becomes two anchors, a start and an end, so that
//! "before the class" means before its start and "after the class" means
//! after its end, with every contained resource between them. Edges come
//! from containment, from the relationship metaparameters (`before`,
//! `require`, `notify`, `subscribe`, which chaining arrows also become) and
//! from the types' automatic relationships. An edge may carry refresh
//! events: notify/subscribe edges and containment edges do.

use std::borrow::Cow;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};
use std::fmt::Write;
use std::sync::Arc;

use marionette_catalog::{Catalog, Data};
use marionette_ral::{AutoKind, Resource, Titles};
use marionette_values::fasthash::FastMap;

/// What a node stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// A managed resource: the index into the run's RAL resources.
    Resource(usize),
    /// The start of a container.
    Start,
    /// The end of a container.
    End,
    /// The completion of a resource whose `eval_generate` made resources
    /// (see [`Graph::complete`]).
    Completion,
}

/// A generator whose `eval_generate` made resources: its catalog position,
/// and theirs, each with whether `generate` made it too (and so it is also
/// an ordinary resource of the generator's container).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completion {
    pub generator: usize,
    pub made: Vec<(usize, bool)>,
}

#[derive(Clone, Debug)]
pub struct Node {
    pub kind: NodeKind,
    /// The catalog resource this node comes from; its reference is written
    /// from there only when a message needs it ([`Graph::reference`]).
    pub catalog_index: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edge {
    pub from: usize,
    pub to: usize,
    /// How many of the relationships it stands for carry refresh events:
    /// none for an order alone. A relationship written twice
    /// (`notify => [X, X]`, or `notify` beside the target's `subscribe`)
    /// is two of Puppet's edges, and each carries every event, which
    /// Puppet's "from N events" counts.
    pub refreshes: u32,
}

/// The graph of a catalog, with the edges indexed both ways.
#[derive(Debug)]
pub struct Graph<'c> {
    catalog: &'c Catalog,
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
    pub outgoing: Vec<Vec<usize>>,
    pub incoming: Vec<Vec<usize>>,
    /// Where generated resources come in the catalog's order, by catalog
    /// position: right after their generator, in the order made (see
    /// [`Graph::place_generated`]).
    placed: FastMap<usize, (usize, usize)>,
}

/// A catalog problem that stops the run before anything is applied.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GraphError {
    #[error("Could not find dependency {target} for {source_ref}{origin}")]
    MissingDependency {
        target: String,
        source_ref: String,
        origin: String,
    },
    #[error("Invalid relationship value {value} on {source_ref}: expected a resource reference")]
    BadReference { value: String, source_ref: String },
    #[error("Found {count} dependency cycle{}:\n{}\nTry the '--graph' option and opening the resulting '.dot' file in OmniGraffle or GraphViz", if *.count == 1 { "" } else { "s" }, .cycles.join("\n"))]
    Cycles { count: usize, cycles: Vec<String> },
}

/// A walk of a [`Graph`] (see [`Graph::traversal`]): the caller takes the
/// next ready node, and finishes it (its dependents may become ready) or
/// puts it back for later ([`Traversal::retry`]), as Puppet defers a
/// resource whose provider is not suitable yet.
pub struct Traversal<'g, 'c> {
    graph: &'g Graph<'c>,
    remaining: Vec<usize>,
    ready: BinaryHeap<Reverse<(usize, usize, u8, usize)>>,
}

impl Traversal<'_, '_> {
    /// The next ready node, `None` when none is.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Option<usize> {
        self.ready.pop().map(|Reverse((_, _, _, n))| n)
    }

    /// Marks a node done: what waited only for it becomes ready.
    pub fn finish(&mut self, node: usize) {
        for &e in &self.graph.outgoing[node] {
            let to = self.graph.edges[e].to;
            self.remaining[to] -= 1;
            if self.remaining[to] == 0 {
                self.ready.push(self.graph.priority(to));
            }
        }
    }

    /// Makes a node taken and not finished ready again.
    pub fn retry(&mut self, node: usize) {
        self.ready.push(self.graph.priority(node));
    }
}

/// Splits `Type[title]` into its type (as written) and its title.
fn split_reference(text: &str) -> Option<(&str, &str)> {
    let open = text.find('[')?;
    let title = text[open + 1..].strip_suffix(']')?;
    let type_name = &text[..open];
    if type_name.is_empty() {
        return None;
    }
    Some((type_name, title))
}

/// Catalog resources by type and title. Types are found in any case and
/// classes by their name in any case, with or without a leading `::`.
/// Titles are borrowed from the catalog: indexing thousands of resources
/// and looking up each containment edge copies nothing but class names.
#[derive(Default)]
struct ReferenceIndex<'c> {
    /// Each type in lower case with its titles. A catalog has few types,
    /// so they are compared in turn, in any case, without lowering the
    /// name looked up.
    types: Vec<(String, FastMap<Cow<'c, str>, usize>)>,
}

impl<'c> ReferenceIndex<'c> {
    fn lower(text: &str) -> Cow<'_, str> {
        if text.bytes().any(|b| b.is_ascii_uppercase()) {
            Cow::Owned(text.to_ascii_lowercase())
        } else {
            Cow::Borrowed(text)
        }
    }

    fn is_class(type_name: &str) -> bool {
        type_name.eq_ignore_ascii_case("class")
    }

    /// Where the type's titles are in `types`.
    fn type_at(&self, type_name: &str) -> Option<usize> {
        self.types
            .iter()
            .position(|(name, _)| name.eq_ignore_ascii_case(type_name))
    }

    fn get(&self, type_name: &str, title: &str) -> Option<usize> {
        let titles = &self.types[self.type_at(type_name)?].1;
        if Self::is_class(type_name) {
            titles.get(&*Self::lower(title.trim_start_matches("::")))
        } else {
            titles.get(title)
        }
        .copied()
    }

    /// The resources of a type whose titles start with `prefix` and go
    /// on past it.
    fn titles_below<'a>(
        &'a self,
        type_name: &str,
        prefix: &'a str,
    ) -> impl Iterator<Item = usize> + 'a {
        self.type_at(type_name)
            .into_iter()
            .flat_map(|at| self.types[at].1.iter())
            .filter(move |(title, _)| title.len() > prefix.len() && title.starts_with(prefix))
            .map(|(_, &n)| n)
    }

    /// The resource a reference (`Type[title]`) names.
    fn find(&self, reference: &str) -> Option<usize> {
        let (type_name, title) = split_reference(reference)?;
        self.get(type_name, title)
    }

    /// Adds a resource; an earlier one under the same key is kept when
    /// `keep_first`, replaced otherwise.
    fn insert(&mut self, type_name: &str, title: Cow<'c, str>, i: usize, keep_first: bool) {
        let title = if Self::is_class(type_name) {
            let trimmed = title.trim_start_matches("::");
            Cow::Owned(Self::lower(trimmed).into_owned())
        } else {
            title
        };
        let at = match self.type_at(type_name) {
            Some(at) => at,
            None => {
                self.types
                    .push((type_name.to_ascii_lowercase(), FastMap::default()));
                self.types.len() - 1
            }
        };
        let titles = &mut self.types[at].1;
        if keep_first {
            titles.entry(title).or_insert(i);
        } else {
            titles.insert(title, i);
        }
    }
}

/// The key a resource's identity is indexed under: its key attributes'
/// values, joined by a character no title holds.
fn identity_key(identity: &[String]) -> String {
    format!("\u{0}{}", identity.join("\u{0}"))
}

/// Whether a catalog resource is a container rather than something to
/// manage.
pub fn is_container(resource: &marionette_catalog::Resource, has_children: bool) -> bool {
    matches!(resource.type_name.as_str(), "Class" | "Stage" | "Node")
        || resource.kind.as_deref() == Some("defined_type")
        || has_children
}

fn references(value: &Data) -> Vec<String> {
    match value {
        Data::Array(items) => items.iter().flat_map(references).collect(),
        Data::String(s) => vec![s.clone()],
        other => vec![other.to_string()],
    }
}

impl<'c> Graph<'c> {
    /// Builds the graph. `ral` holds the managed resources in catalog
    /// order, and `indices` the catalog position each came from.
    pub fn build(
        catalog: &'c Catalog,
        indices: &[usize],
        ral: &[Resource],
    ) -> Result<Graph<'c>, GraphError> {
        Graph::build_in(catalog, indices, ral, Containment::of(catalog))
    }

    /// [`Graph::build`] with the catalog's [`Containment`] already known.
    pub fn build_in(
        catalog: &'c Catalog,
        indices: &[usize],
        ral: &[Resource],
        containment: Containment<'c>,
    ) -> Result<Graph<'c>, GraphError> {
        let count = catalog.resources.len();
        let Containment {
            mut index,
            parents: parent,
            others,
        } = containment;
        let children = has_children(&parent);
        // A node for each resource (containers have two), and about three
        // edges: into and out of its container, and one automatic.
        let mut graph = Graph {
            catalog,
            nodes: Vec::with_capacity(count),
            edges: Vec::with_capacity(3 * count),
            outgoing: Vec::with_capacity(count),
            incoming: Vec::with_capacity(count),
            placed: FastMap::default(),
        };
        // The types with title patterns, by lower-case name.
        let mut patterned: FastMap<String, Arc<marionette_ral::TypeDef>> = FastMap::default();
        // The node (or anchors) of each catalog resource.
        let mut entry: Vec<Option<usize>> = vec![None; count];
        let mut exit: Vec<Option<usize>> = vec![None; count];
        let mut managed: Vec<Option<usize>> = vec![None; count];
        for (n, &i) in indices.iter().enumerate() {
            managed[i] = Some(n);
        }
        for (i, resource) in catalog.resources.iter().enumerate() {
            if let Some(n) = managed[i] {
                let node = graph.add_node(NodeKind::Resource(n), i);
                entry[i] = Some(node);
                exit[i] = Some(node);
                // A resource is also found by its name and its aliases.
                let name = ral[n].name_str();
                if *name != *resource.title {
                    index.insert(&resource.type_name, Cow::Owned(name.into_owned()), i, true);
                }
                if let Some(alias) = resource.parameters.get("alias") {
                    for alias in references(alias) {
                        index.insert(&resource.type_name, Cow::Owned(alias), i, true);
                    }
                }
                // A type with title patterns also finds its resources by
                // their identity, as Puppet's catalog does by uniqueness
                // key (`admin::Default` for the tenant titled `admin` in
                // domain `Default`).
                let def = ral[n].type_def();
                if !def.title_patterns.is_empty()
                    && let Some(identity) = ral[n].identity()
                {
                    index.insert(
                        &resource.type_name,
                        Cow::Owned(identity_key(&identity)),
                        i,
                        true,
                    );
                    patterned
                        .entry(resource.type_name.to_ascii_lowercase())
                        .or_insert_with(|| def.clone());
                }
            } else if is_container(resource, children[i]) {
                entry[i] = Some(graph.add_node(NodeKind::Start, i));
                exit[i] = Some(graph.add_node(NodeKind::End, i));
            }
        }
        let containers = parent
            .iter()
            .enumerate()
            .filter_map(|(i, container)| Some((i, (*container)?)))
            .chain(others);
        let mut filled = vec![false; count];
        for (i, p) in containers {
            let (Some(child_in), Some(child_out)) = (entry[i], exit[i]) else {
                continue;
            };
            if let (Some(start), Some(end)) = (entry[p], exit[p])
                && start != end
            {
                graph.add_edge(start, child_in, true);
                graph.add_edge(child_out, end, true);
                filled[p] = true;
            }
        }
        // An empty container still ends after it starts, as Puppet's
        // completed whit depends on its admissible one (no events pass):
        // its end is not ready before whatever its start waits for.
        for i in 0..count {
            if let (Some(start), Some(end)) = (entry[i], exit[i])
                && start != end
                && !filled[i]
            {
                graph.add_edge(start, end, false);
            }
        }
        for (i, resource) in catalog.resources.iter().enumerate() {
            let (Some(own_in), Some(own_out)) = (entry[i], exit[i]) else {
                continue;
            };
            // Most resources have none: one pass over their few parameters
            // says so, where four lookups would hash four names.
            let relates = resource
                .parameters
                .keys()
                .any(|name| matches!(name.as_str(), "before" | "notify" | "require" | "subscribe"));
            if !relates {
                continue;
            }
            for (param, forward, refresh) in [
                ("before", true, false),
                ("notify", true, true),
                ("require", false, false),
                ("subscribe", false, true),
            ] {
                let Some(value) = resource.parameters.get(param) else {
                    continue;
                };
                for target in references(value) {
                    let found = index
                        .find(&target)
                        .and_then(|t| Some((entry[t]?, exit[t]?)));
                    let Some((target_in, target_out)) = found else {
                        return Err(if split_reference(&target).is_none() {
                            GraphError::BadReference {
                                value: target,
                                source_ref: resource.reference(),
                            }
                        } else {
                            GraphError::MissingDependency {
                                target,
                                source_ref: resource.reference(),
                                origin: origin_text(resource),
                            }
                        });
                    };
                    if forward {
                        graph.add_edge(own_out, target_in, refresh);
                    } else {
                        graph.add_edge(target_out, own_in, refresh);
                    }
                }
            }
        }
        // Automatic relationships, only to resources in the catalog, and
        // never beside a relationship either way. Each
        // resource's are found independently, on several threads.
        let index = &index;
        let automatic = marionette_values::parallel::map(ral.len(), |n| {
            let mut found = Vec::new();
            for (relation, titles) in ral[n].auto_relation_titles() {
                if let Titles::Below(_) = relation.titles {
                    for directory in &titles {
                        let prefix = format!("{}/", directory.trim_end_matches('/'));
                        // In catalog order, whatever the index's order.
                        let mut below: Vec<usize> =
                            index.titles_below(&relation.target_type, &prefix).collect();
                        below.sort_unstable();
                        found.extend(below.into_iter().map(|t| (relation.kind, t)));
                    }
                    continue;
                }
                for title in &titles {
                    let target = index.get(&relation.target_type, title).or_else(|| {
                        let def = patterned.get(&relation.target_type)?;
                        let identity = def.title_identity(title)?;
                        index.get(&relation.target_type, &identity_key(&identity))
                    });
                    if let Some(t) = target {
                        found.push((relation.kind, t));
                        if relation.first_found {
                            break;
                        }
                    }
                }
            }
            found
        });
        for (n, (i, relations)) in indices.iter().zip(automatic).enumerate() {
            let Some(own) = entry[*i] else { continue };
            debug_assert_eq!(graph.nodes[own].kind, NodeKind::Resource(n));
            for (kind, t) in relations {
                let (Some(target_in), Some(target_out)) = (entry[t], exit[t]) else {
                    continue;
                };
                if target_in == own {
                    continue;
                }
                let (from, to, refresh) = match kind {
                    AutoKind::Require => (target_out, own, false),
                    AutoKind::Subscribe => (target_out, own, true),
                    AutoKind::Before => (own, target_in, false),
                    AutoKind::Notify => (own, target_in, true),
                };
                // As Puppet's: an edge already there, either way, wins.
                if !graph.has_edge(to, from) && !graph.has_edge(from, to) {
                    graph.add_edge(from, to, refresh);
                }
            }
        }
        graph.order_incoming_as_puppet();
        Ok(graph)
    }

    /// Orders each node's incoming edges as Puppet's relationship graph
    /// holds them, which is the order a resource names its failed
    /// dependencies in: first the edges between two resources, as made;
    /// then those of containers, which Puppet puts in place of its
    /// containers after all others, container by container in the
    /// catalog's order.
    fn order_incoming_as_puppet(&mut self) {
        let nodes = &self.nodes;
        let edges = &self.edges;
        let container = |node: usize| {
            (!matches!(nodes[node].kind, NodeKind::Resource(_)))
                .then_some(nodes[node].catalog_index)
        };
        for incoming in &mut self.incoming {
            incoming.sort_by_key(|&e| {
                let Edge { from, to, .. } = edges[e];
                match (container(from), container(to)) {
                    (None, None) => None,
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                }
            });
        }
    }

    /// How messages name a node: `File[/tmp/x]`, or an anchor's container
    /// (`Class[Foo]`).
    pub fn reference(&self, node: usize) -> String {
        display_reference(&self.catalog.resources[self.nodes[node].catalog_index])
    }

    /// The generator whose `eval_generate` made the catalog resource at
    /// `catalog_index`, if one did.
    pub fn generator_of(&self, catalog_index: usize) -> Option<usize> {
        self.placed
            .get(&catalog_index)
            .map(|&(generator, _)| generator)
    }

    /// Whether the generator at `catalog_index` has a completion: whether
    /// its `eval_generate` made resources before the run.
    pub fn completes(&self, catalog_index: usize) -> bool {
        self.nodes
            .iter()
            .any(|node| node.kind == NodeKind::Completion && node.catalog_index == catalog_index)
    }

    /// The title of the catalog resource a node comes from.
    pub fn title(&self, node: usize) -> &str {
        &self.catalog.resources[self.nodes[node].catalog_index].title
    }

    /// Puts generated resources (`(generated, generator)` catalog
    /// positions, in the order made) right after their generator in the
    /// order of resources that do not depend on each other, as Puppet adds
    /// them to its catalog after their generator.
    pub fn place_generated(&mut self, generated: &[(usize, usize)]) {
        let mut made: FastMap<usize, usize> = FastMap::default();
        for &(child, generator) in generated {
            let count = made.entry(generator).or_default();
            *count += 1;
            self.placed.insert(child, (generator, *count));
        }
    }

    /// Adds Puppet's completion of each generator whose `eval_generate`
    /// made resources: a node after the generator and those resources,
    /// which takes over the generator's edges to what follows it. Their
    /// events reach the generator's dependents and container through it,
    /// as one event (Puppet's completed whit), and those only
    /// `eval_generate` made send none to the container directly.
    pub fn complete(&mut self, completions: &[Completion]) {
        if completions.is_empty() {
            return;
        }
        let mut node_of: FastMap<usize, usize> = FastMap::default();
        for (n, node) in self.nodes.iter().enumerate() {
            if let NodeKind::Resource(_) = node.kind {
                node_of.insert(node.catalog_index, n);
            }
        }
        for completion in completions {
            let Some(&generator) = node_of.get(&completion.generator) else {
                continue;
            };
            let made: Vec<(usize, bool)> = completion
                .made
                .iter()
                .filter_map(|(i, contained)| Some((*node_of.get(i)?, *contained)))
                .collect();
            if made.is_empty() {
                continue;
            }
            let done = self.add_node(NodeKind::Completion, completion.generator);
            for e in std::mem::take(&mut self.outgoing[generator]) {
                let to = self.edges[e].to;
                if made.iter().any(|(m, _)| *m == to) {
                    self.outgoing[generator].push(e);
                } else {
                    self.edges[e].from = done;
                    self.outgoing[done].push(e);
                }
            }
            self.add_edge(generator, done, true);
            for (m, contained) in made {
                if !contained {
                    for &e in &self.outgoing[m] {
                        if self.nodes[self.edges[e].to].kind == NodeKind::End {
                            self.edges[e].refreshes = 0;
                        }
                    }
                }
                self.add_edge(m, done, true);
            }
        }
    }

    fn add_node(&mut self, kind: NodeKind, catalog_index: usize) -> usize {
        self.nodes.push(Node {
            kind,
            catalog_index,
        });
        self.outgoing.push(Vec::new());
        self.incoming.push(Vec::new());
        self.nodes.len() - 1
    }

    /// The edge from `from` to `to`, if there is one. Found among the
    /// fewer of the one's outgoing and the other's incoming edges: a stage
    /// or class start has an edge to each of its thousands of resources,
    /// but each of those has an edge or two of its own.
    fn find_edge(&self, from: usize, to: usize) -> Option<usize> {
        let (outgoing, incoming) = (&self.outgoing[from], &self.incoming[to]);
        if outgoing.len() <= incoming.len() {
            outgoing.iter().copied().find(|&e| self.edges[e].to == to)
        } else {
            incoming
                .iter()
                .copied()
                .find(|&e| self.edges[e].from == from)
        }
    }

    fn has_edge(&self, from: usize, to: usize) -> bool {
        self.find_edge(from, to).is_some()
    }

    fn add_edge(&mut self, from: usize, to: usize, refresh: bool) {
        let refreshes = u32::from(refresh);
        if let Some(existing) = self.find_edge(from, to) {
            self.edges[existing].refreshes += refreshes;
            return;
        }
        self.edges.push(Edge {
            from,
            to,
            refreshes,
        });
        let e = self.edges.len() - 1;
        self.outgoing[from].push(e);
        self.incoming[to].push(e);
    }

    /// The order to apply nodes in: dependencies first, otherwise the
    /// catalog's (manifest) order. A cycle is an error that names every
    /// node of each cycle.
    pub fn order(&self) -> Result<Vec<usize>, GraphError> {
        let mut traversal = self.traversal();
        let mut order = Vec::with_capacity(self.nodes.len());
        while let Some(n) = traversal.next() {
            order.push(n);
            traversal.finish(n);
        }
        if order.len() == self.nodes.len() {
            return Ok(order);
        }
        let cycles = self.cycles();
        Err(GraphError::Cycles {
            count: cycles.len(),
            cycles,
        })
    }

    /// A walk of the graph as Puppet's: a node is ready once everything
    /// it depends on is finished, and of the ready nodes the first in the
    /// catalog's order comes next.
    pub fn traversal(&self) -> Traversal<'_, 'c> {
        let remaining: Vec<usize> = self.incoming.iter().map(Vec::len).collect();
        let ready = (0..self.nodes.len())
            .filter(|&n| remaining[n] == 0)
            .map(|n| self.priority(n))
            .collect();
        Traversal {
            graph: self,
            remaining,
            ready,
        }
    }

    /// Where a node comes among ready ones: its catalog position (a
    /// generated resource's is right after its generator), a container's
    /// start before its resources and its end after them.
    fn priority(&self, n: usize) -> Reverse<(usize, usize, u8, usize)> {
        let node = &self.nodes[n];
        let rank = match node.kind {
            NodeKind::Start => 0,
            NodeKind::Resource(_) => 1,
            NodeKind::End | NodeKind::Completion => 2,
        };
        // Most runs generate nothing: no lookup then.
        let placed = (!self.placed.is_empty())
            .then(|| self.placed.get(&node.catalog_index).copied())
            .flatten();
        let (at, after) = placed.unwrap_or((node.catalog_index, 0));
        Reverse((at, after, rank, n))
    }

    /// Each cycle as Puppet prints it: `(Exec[b] => File[a] => Exec[b])`,
    /// anchors shown as their container, starting from the alphabetically
    /// first resource.
    fn cycles(&self) -> Vec<String> {
        let mut found = Vec::new();
        for component in self.strongly_connected() {
            let members: HashSet<usize> = component.iter().copied().collect();
            let start = *component
                .iter()
                .min_by_key(|&&n| {
                    let anchor = !matches!(self.nodes[n].kind, NodeKind::Resource(_));
                    (anchor, self.reference(n), n)
                })
                .expect("components are not empty");
            let path = self.path_within(start, &members);
            let mut names: Vec<String> = Vec::new();
            for n in path.iter().chain(std::iter::once(&start)) {
                let name = self.reference(*n);
                if names.last() != Some(&name) {
                    names.push(name);
                }
            }
            found.push(format!("({})", names.join(" => ")));
        }
        found.sort();
        found
    }

    /// A path from `start` back to itself inside one component
    /// (breadth-first, so it is the shortest).
    fn path_within(&self, start: usize, members: &HashSet<usize>) -> Vec<usize> {
        let mut previous: FastMap<usize, usize> = FastMap::default();
        let mut queue = std::collections::VecDeque::from([start]);
        while let Some(n) = queue.pop_front() {
            for &e in &self.outgoing[n] {
                let to = self.edges[e].to;
                if !members.contains(&to) {
                    continue;
                }
                if to == start {
                    let mut path = vec![n];
                    let mut at = n;
                    while at != start {
                        at = previous[&at];
                        path.push(at);
                    }
                    path.reverse();
                    return path;
                }
                if let std::collections::hash_map::Entry::Vacant(slot) = previous.entry(to) {
                    slot.insert(n);
                    queue.push_back(to);
                }
            }
        }
        vec![start]
    }

    /// Tarjan's strongly connected components with more than one node (or
    /// a node with an edge to itself), iteratively so deep graphs cannot
    /// overflow the stack.
    fn strongly_connected(&self) -> Vec<Vec<usize>> {
        let count = self.nodes.len();
        let mut index = vec![usize::MAX; count];
        let mut low = vec![0; count];
        let mut on_stack = vec![false; count];
        let mut stack = Vec::new();
        let mut next = 0;
        let mut components = Vec::new();
        for root in 0..count {
            if index[root] != usize::MAX {
                continue;
            }
            let mut work: Vec<(usize, usize)> = vec![(root, 0)];
            while let Some(&mut (n, ref mut edge_at)) = work.last_mut() {
                if *edge_at == 0 && index[n] == usize::MAX {
                    index[n] = next;
                    low[n] = next;
                    next += 1;
                    stack.push(n);
                    on_stack[n] = true;
                }
                if let Some(&e) = self.outgoing[n].get(*edge_at) {
                    *edge_at += 1;
                    let to = self.edges[e].to;
                    if index[to] == usize::MAX {
                        work.push((to, 0));
                    } else if on_stack[to] {
                        low[n] = low[n].min(index[to]);
                    }
                    continue;
                }
                work.pop();
                if let Some(&(up, _)) = work.last() {
                    low[up] = low[up].min(low[n]);
                }
                if low[n] == index[n] {
                    let mut component = Vec::new();
                    while let Some(m) = stack.pop() {
                        on_stack[m] = false;
                        component.push(m);
                        if m == n {
                            break;
                        }
                    }
                    let self_loop = self.has_edge(n, n);
                    if component.len() > 1 || self_loop {
                        components.push(component);
                    }
                }
            }
        }
        components
    }

    /// The graph in Graphviz DOT.
    pub fn dot(&self) -> String {
        let mut out = String::from("digraph Relationships {\n  label = \"Relationships\"\n");
        for (n, node) in self.nodes.iter().enumerate() {
            let reference = self.reference(n);
            let label = match node.kind {
                NodeKind::Resource(_) => reference,
                NodeKind::Start => format!("Admissible_{reference}"),
                NodeKind::End => format!("Completed_{reference}"),
                NodeKind::Completion => format!("Whit[completed_{}]", self.title(n)),
            };
            let _ = writeln!(out, "  n{n} [label = {label:?}, shape = box];");
        }
        for edge in &self.edges {
            let style = if edge.refreshes > 0 {
                " [style = bold]"
            } else {
                ""
            };
            let _ = writeln!(out, "  n{} -> n{}{style};", edge.from, edge.to);
        }
        out.push_str("}\n");
        out
    }
}

/// A resource as Puppet names it in messages: class names capitalized
/// (`Class[Main]`), other titles as they are.
fn display_reference(resource: &marionette_catalog::Resource) -> String {
    if resource.type_name == "Class" {
        format!(
            "Class[{}]",
            marionette_values::types::capitalize_segments(&resource.title)
        )
    } else {
        resource.reference()
    }
}

fn origin_text(resource: &marionette_catalog::Resource) -> String {
    match (&resource.file, resource.line) {
        (Some(file), Some(line)) => format!(" (file: {file}, line: {line})"),
        _ => String::new(),
    }
}

/// Each catalog resource's position, by type and title.
fn reference_index(catalog: &Catalog) -> ReferenceIndex<'_> {
    let mut index = ReferenceIndex::default();
    for (i, resource) in catalog.resources.iter().enumerate() {
        index.insert(
            &resource.type_name,
            Cow::Borrowed(&resource.title),
            i,
            false,
        );
    }
    index
}

/// Each resource's container (the last containment edge's source), and
/// the other containers of the few resources that have several (a class
/// both `contain`ed by another and included in its stage), as `(child,
/// container)`.
fn containment(catalog: &Catalog, index: &ReferenceIndex<'_>) -> ContainedBy {
    let mut parent = vec![None; catalog.resources.len()];
    let mut others = Vec::new();
    for edge in &catalog.edges {
        if let (Some(source), Some(target)) = (index.find(&edge.source), index.find(&edge.target))
            && let Some(earlier) = parent[target].replace(source)
            && earlier != source
        {
            others.push((target, earlier));
        }
    }
    (parent, others)
}

type ContainedBy = (Vec<Option<usize>>, Vec<(usize, usize)>);

/// Each catalog resource found by type and title, and its container.
/// Reading them means parsing every reference of the catalog, so a run
/// reads them once and shares them (conversion, the graph).
pub struct Containment<'c> {
    index: ReferenceIndex<'c>,
    pub parents: Vec<Option<usize>>,
    /// The other containers of resources that have several, `(child,
    /// container)`: in Puppet each of them waits for the child, and
    /// receives its events.
    others: Vec<(usize, usize)>,
}

impl<'c> Containment<'c> {
    pub fn of(catalog: &'c Catalog) -> Containment<'c> {
        let index = reference_index(catalog);
        let (parents, others) = containment(catalog, &index);
        Containment {
            index,
            parents,
            others,
        }
    }
}

/// The container of each catalog resource, from the containment edges.
pub fn parents(catalog: &Catalog) -> Vec<Option<usize>> {
    Containment::of(catalog).parents
}

/// Which catalog resources contain others.
pub fn has_children(parents: &[Option<usize>]) -> Vec<bool> {
    let mut children = vec![false; parents.len()];
    for parent in parents.iter().flatten() {
        children[*parent] = true;
    }
    children
}

/// The [`containment_path`] of every catalog resource. The few containers'
/// paths are found first; every other resource's path is its container's
/// and its own reference, written into one string, on several threads for
/// a large catalog.
pub fn containment_paths(catalog: &Catalog, parents: &[Option<usize>]) -> Vec<Arc<str>> {
    let children = has_children(parents);
    let containers: FastMap<usize, Arc<str>> = (0..catalog.resources.len())
        .filter(|&i| children[i])
        .map(|i| (i, containment_path(catalog, parents, i).into()))
        .collect();
    marionette_values::parallel::map(catalog.resources.len(), |i| {
        if let Some(path) = containers.get(&i) {
            return path.clone();
        }
        let resource = &catalog.resources[i];
        let prefix = match parents[i] {
            // A class is placed by its stage, not by what declared it.
            _ if resource.type_name == "Class" => {
                return containment_path(catalog, parents, i).into();
            }
            Some(parent) => containers.get(&parent).map_or("", |path| path),
            None => "",
        };
        // Written into a buffer kept by the thread: the shared path is
        // then the one allocation a resource costs.
        thread_local! {
            static BUFFER: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
        }
        BUFFER.with_borrow_mut(|path| {
            path.clear();
            path.push_str(prefix);
            path.push('/');
            path.push_str(&resource.type_name);
            path.push('[');
            path.push_str(&resource.title);
            path.push(']');
            Arc::from(path.as_str())
        })
    })
}

/// Puppet's path of a resource through its containers: a class shows as
/// its name and sits directly under its stage (class names are unique, so
/// the classes containing it are left out); a stage and a defined-type
/// instance show as their reference.
pub fn containment_path(catalog: &Catalog, parent: &[Option<usize>], i: usize) -> String {
    let mut segments = Vec::new();
    let mut at = Some(i);
    let mut guard = 0;
    while let Some(n) = at {
        let resource = &catalog.resources[n];
        at = parent[n];
        if resource.type_name == "Class" {
            segments.push(marionette_values::types::capitalize_segments(
                &resource.title,
            ));
            while let Some(up) = at
                && catalog.resources[up].type_name != "Stage"
            {
                at = parent[up];
            }
        } else {
            segments.push(resource.reference());
        }
        guard += 1;
        if guard > catalog.resources.len() {
            break;
        }
    }
    segments.reverse();
    format!("/{}", segments.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn containment_paths_reuse_their_containers_paths_and_match_each_path_found_alone() {
        let resource = |kind: &str, title: &str| serde_json::json!({"type": kind, "title": title, "tags": [], "exported": false});
        let edge =
            |source: &str, target: &str| serde_json::json!({"source": source, "target": target});
        let catalog: Catalog = serde_json::from_value(serde_json::json!({
            "tags": [], "name": "n", "environment": "production", "classes": [],
            "resources": [
                resource("Stage", "main"),
                resource("Class", "Settings"),
                resource("Class", "main"),
                resource("Class", "Web::Site"),
                resource("Web::Vhost", "a/b"),
                resource("File", "/srv/a/b"),
                resource("Notify", "top"),
                resource("Stage", "late"),
                resource("Class", "Later"),
                resource("Exec", "last"),
            ],
            "edges": [
                edge("Stage[main]", "Class[Settings]"),
                edge("Stage[main]", "Class[main]"),
                edge("Stage[main]", "Class[Web::Site]"),
                edge("Class[Web::Site]", "Web::Vhost[a/b]"),
                edge("Web::Vhost[a/b]", "File[/srv/a/b]"),
                edge("Class[main]", "Notify[top]"),
                edge("Stage[late]", "Class[Later]"),
                edge("Class[Later]", "Exec[last]"),
            ],
        }))
        .unwrap();
        let parents = parents(&catalog);
        let paths = containment_paths(&catalog, &parents);
        for (i, path) in paths.iter().enumerate() {
            assert_eq!(
                **path,
                containment_path(&catalog, &parents, i),
                "resource {i}"
            );
        }
        assert_eq!(
            &*paths[5],
            "/Stage[main]/Web::Site/Web::Vhost[a/b]/File[/srv/a/b]"
        );
        assert_eq!(&*paths[6], "/Stage[main]/Main/Notify[top]");
        assert_eq!(&*paths[9], "/Stage[late]/Later/Exec[last]");
    }
}

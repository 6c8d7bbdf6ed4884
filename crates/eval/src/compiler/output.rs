//! Finishing a compilation and writing the catalog.

use std::collections::{HashMap, HashSet};

use indexmap::IndexSet;
use marionette_catalog::{Catalog, Data, Edge, Resource};
use marionette_values::Value;

use super::builtin_types::{self, METAPARAMETERS, RELATIONSHIP_PARAMETERS};
use super::defaults::collect_references;
use super::{Kind, Operand, Param, ResId};
use crate::error::{EvalError, EvalResult, Located, Stop};
use crate::evaluator::Evaluator;

/// Puppet gives up when generators keep producing new work.
const MAX_GENERATOR_ROUNDS: usize = 1000;

impl<'p> Evaluator<'p> {
    /// Evaluates collectors and defined types until neither finds
    /// anything new.
    pub(crate) fn evaluate_generators(&mut self) -> EvalResult<()> {
        for _ in 0..MAX_GENERATOR_ROUNDS {
            let collected = self.evaluate_collections()?;
            let defined = self.evaluate_definitions()?;
            if !collected && !defined {
                return Ok(());
            }
        }
        Err(Stop::Error(
            EvalError::new(
                "Somehow looped more than 1000 times while evaluating host catalog",
                Default::default(),
            )
            .without_location(),
        ))
    }

    /// The last steps: relationships, leftover overrides and
    /// realizations, scope tags, relationship targets, and metaparameters
    /// passed down containment.
    pub(crate) fn finish_catalog(&mut self) -> EvalResult<()> {
        self.title_parameters()?;
        self.evaluate_relationships()?;
        if let Some(pending) = self.compiler.overrides.first() {
            let names: Vec<String> = self
                .compiler
                .overrides
                .iter()
                .map(|o| {
                    format!(
                        "{}[{}]",
                        marionette_values::types::capitalize_segments(&o.type_name),
                        o.title
                    )
                })
                .collect();
            let _ = pending;
            return Err(Stop::Error(
                EvalError::new(
                    format!(
                        "Could not find resource(s) {} for overriding",
                        names.join(", ")
                    ),
                    Default::default(),
                )
                .without_location(),
            ));
        }
        let unrealized: Vec<String> = self
            .compiler
            .unrealized
            .iter()
            .map(|(kind, title)| {
                format!(
                    "{}[{title}]",
                    marionette_values::types::capitalize_segments(kind)
                )
            })
            .collect();
        if !unrealized.is_empty() {
            return Err(Stop::Error(
                EvalError::new(
                    format!(
                        "Failed to realize virtual resources {}",
                        unrealized.join(", ")
                    ),
                    Default::default(),
                )
                .without_location(),
            ));
        }
        for id in 0..self.compiler.resources.len() {
            if !self.compiler.resources[id].finished {
                self.compiler.resources[id].finished = true;
                if self.compiler.resources[id].kind == Kind::Builtin {
                    self.add_scope_tags(id);
                }
            }
        }
        self.check_relationship_targets()?;
        self.propagate_metaparameters();
        Ok(())
    }

    fn operand_resources(&self, operand: &Operand) -> Result<Vec<ResId>, (String, String)> {
        match operand {
            Operand::Collector(index) => Ok(self.compiler.collectors[*index]
                .collected
                .iter()
                .copied()
                .filter(|&id| !self.compiler.resources[id].is_virtual)
                .collect()),
            Operand::References(refs) => refs
                .iter()
                .map(|(kind, title)| {
                    self.compiler
                        .find(kind, title)
                        .ok_or((kind.clone(), title.clone()))
                })
                .collect(),
        }
    }

    /// Gives each resource of a module type with title patterns of its own
    /// the attributes its title gives, as Puppet's catalog shows them:
    /// first, unless given, and the namevar not when it is the title.
    fn title_parameters(&mut self) -> EvalResult<()> {
        if self.ruby.titled_types.is_empty() {
            return Ok(());
        }
        for id in 0..self.compiler.resources.len() {
            let res = &self.compiler.resources[id];
            let Some(file) = self.ruby.titled_types.get(&res.type_name).cloned() else {
                continue;
            };
            if res.is_virtual {
                continue;
            }
            let (type_name, title) = (res.type_name.clone(), res.title.clone());
            let place = (res.file.clone(), res.line);
            let values =
                crate::ruby::parse_title(self, (&type_name, &file), &title, Default::default())
                    .map_err(|message| {
                        let at = match &place {
                            (Some(file), Some(line)) => format!(" (file: {file}, line: {line})"),
                            _ => String::new(),
                        };
                        Stop::Error(
                            EvalError::new(format!("{message}{at}"), Default::default())
                                .without_location(),
                        )
                    })?;
            let namevar = super::builtin_types::namevar(&type_name);
            let res = &mut self.compiler.resources[id];
            let given = std::mem::replace(&mut res.params, super::Params::with_capacity(0));
            let mut params = super::Params::with_capacity(given.iter().count() + values.len());
            for (attr, value) in values {
                let the_title = attr == namevar && value == Value::string(title.as_str());
                if given.contains_key(&attr) || the_title {
                    continue;
                }
                params.insert(
                    attr,
                    Param {
                        value,
                        source: super::Source::Anywhere,
                        file: place.0.clone().unwrap_or_else(|| "".into()),
                        line: place.1.unwrap_or(0),
                        append: false,
                    },
                );
            }
            for (name, param) in given.into_iter() {
                params.insert(name, param);
            }
            res.params = params;
        }
        Ok(())
    }

    /// The resources of an arrow's source: a collector that collected
    /// nothing stands for what stood left of it in its chain.
    fn source_resources(&self, operand: &Operand) -> Result<Vec<ResId>, (String, String)> {
        let found = self.operand_resources(operand)?;
        match operand {
            Operand::Collector(index) if found.is_empty() => {
                match &self.compiler.collectors[*index].empty_alternative {
                    Some(alternative) => self.source_resources(alternative),
                    None => Ok(found),
                }
            }
            _ => Ok(found),
        }
    }

    /// Adds `before`/`notify` to the source side of each arrow.
    fn evaluate_relationships(&mut self) -> EvalResult<()> {
        let relationships = std::mem::take(&mut self.compiler.relationships);
        for relationship in &relationships {
            let text = |operand: &Operand| -> String {
                match operand {
                    Operand::References(refs) => refs
                        .iter()
                        .map(|(kind, title)| {
                            format!(
                                "{}[{title}]",
                                marionette_values::types::capitalize_segments(kind)
                            )
                        })
                        .collect::<Vec<_>>()
                        .join(", "),
                    Operand::Collector(_) => "collector".into(),
                }
            };
            let located = |message: String| -> Stop {
                Stop::Error(EvalError::new(message, Default::default()).without_location())
            };
            let sources = self
                .source_resources(&relationship.source)
                .map_err(|(k, t)| {
                    located(format!(
                        "Could not find resource '{}[{t}]' for relationship on '{}'",
                        marionette_values::types::capitalize_segments(&k),
                        text(&relationship.target)
                    ))
                })?;
            let targets = self
                .operand_resources(&relationship.target)
                .map_err(|(k, t)| {
                    located(format!(
                        "Could not find resource '{}[{t}]' for relationship from '{}'",
                        marionette_values::types::capitalize_segments(&k),
                        text(&relationship.source)
                    ))
                })?;
            for &source in &sources {
                for &target in &targets {
                    let reference = Value::string(self.compiler.resources[target].reference());
                    let res = &mut self.compiler.resources[source];
                    let param = res.params.get_or_insert_with(relationship.param, || Param {
                        value: Value::array(Vec::new()),
                        source: super::Source::Anywhere,
                        file: relationship.file.clone(),
                        line: relationship.line,
                        append: false,
                    });
                    let mut items = match std::mem::replace(&mut param.value, Value::Undef) {
                        Value::Array(items) => std::sync::Arc::unwrap_or_clone(items),
                        Value::Undef => Vec::new(),
                        other => vec![other],
                    };
                    items.push(reference);
                    param.value = Value::array(items);
                }
            }
        }
        Ok(())
    }

    /// Every `require`, `before`, `notify` and `subscribe` must name a
    /// resource in the catalog.
    fn check_relationship_targets(&self) -> EvalResult<()> {
        for res in &self.compiler.resources {
            if res.is_virtual {
                continue;
            }
            for name in RELATIONSHIP_PARAMETERS {
                let Some(param) = res.params.get(name) else {
                    continue;
                };
                let mut refs = Vec::new();
                collect_references(&param.value, &mut refs);
                for (kind, title) in refs {
                    if self.compiler.find(&kind, &title).is_none() {
                        let mut error = EvalError::new(
                            format!(
                                "Could not find resource '{}[{}]' in parameter '{name}'",
                                marionette_values::types::capitalize_segments(&kind),
                                if kind == "class" {
                                    marionette_values::types::capitalize_segments(&title)
                                } else {
                                    title.clone()
                                }
                            ),
                            Default::default(),
                        );
                        error.plain = true;
                        error.located = Some(Located {
                            file: param.file.to_string(),
                            line: param.line,
                            column: None,
                        });
                        return Err(Stop::Error(error));
                    }
                }
            }
        }
        Ok(())
    }

    /// Puppet's last step: starting at `Class[main]`, contained resources
    /// take the non-relationship metaparameters (`noop`, `loglevel`,
    /// `schedule`, ...) of their containers when they have none of their
    /// own, and all of their containers' tags.
    fn propagate_metaparameters(&mut self) {
        let mut children: HashMap<ResId, Vec<ResId>> = HashMap::new();
        for &(source, target) in &self.compiler.edges {
            children.entry(source).or_default().push(target);
        }
        let inherited_names: Vec<&str> = METAPARAMETERS
            .iter()
            .copied()
            .filter(|name| !RELATIONSHIP_PARAMETERS.contains(name))
            .collect();
        let own = |res: &super::Res| -> Vec<(String, Param)> {
            inherited_names
                .iter()
                .filter_map(|name| {
                    res.params
                        .get(name)
                        .filter(|p| !matches!(p.value, Value::Undef))
                        .map(|p| (name.to_string(), p.clone()))
                })
                .collect()
        };
        // Breadth first from Class[main], each resource expanded once, as
        // Puppet's catalog walk goes: what a resource passes on is what it
        // has when it is expanded, so a class contained by several defined
        // types gets all their tags before passing them down.
        let main = self.main_class();
        let mut data: HashMap<ResId, Vec<(String, Param)>> = HashMap::new();
        let mut queue = std::collections::VecDeque::from([main]);
        let mut expanded = HashSet::new();
        while let Some(source) = queue.pop_front() {
            if expanded.contains(&source) {
                continue;
            }
            let Some(targets) = children.get(&source) else {
                expanded.insert(source);
                continue;
            };
            // What the source passes on is read once: its own expansion
            // changes neither its tags nor its metaparameters.
            let passed = match data.remove(&source) {
                Some(passed) => Some(passed),
                None => Some(own(&self.compiler.resources[source])).filter(|d| !d.is_empty()),
            };
            let source_tags: Vec<String> = self.compiler.resources[source]
                .tags
                .iter()
                .cloned()
                .collect();
            for &target in targets {
                let res = &mut self.compiler.resources[target];
                if let Some(passed) = &passed {
                    for (name, param) in passed {
                        if !res.params.contains_key(name) {
                            res.params.insert(name.clone(), param.clone());
                        }
                    }
                    let mut merged = passed.clone();
                    for (name, param) in own(res) {
                        merged.retain(|(n, _)| *n != name);
                        merged.push((name, param));
                    }
                    data.insert(target, merged);
                }
                for tag in &source_tags {
                    if !res.tags.contains(tag) {
                        res.tags.insert(tag.clone());
                    }
                }
            }
            queue.extend(targets.iter().copied());
            expanded.insert(source);
        }
    }

    /// The catalog in Puppet's wire format. The compiler's resources are
    /// moved into it, one at a time, so that a large catalog is not held
    /// twice; the evaluator has no catalog afterwards.
    pub fn take_catalog(&mut self) -> Catalog {
        let visible = |res: &super::Res| !res.is_virtual;
        // A container is the source of an edge to each resource in it:
        // its reference is written once.
        let mut references: Vec<Option<String>> = vec![None; self.compiler.resources.len()];
        let mut reference = |id: usize| {
            references[id]
                .get_or_insert_with(|| self.compiler.resources[id].reference())
                .clone()
        };
        // With storeconfigs, what the node exports and does not collect
        // goes to storage instead of the agent.
        let storing = self.exported_store.is_some();
        let stored = |res: &super::Res| storing && res.is_virtual && res.exported;
        let mut edges = Vec::new();
        let mut exported_edges = Vec::new();
        for &(s, t) in &self.compiler.edges {
            let (source, target) = (&self.compiler.resources[s], &self.compiler.resources[t]);
            if visible(source) && visible(target) {
                edges.push(Edge {
                    source: reference(s),
                    target: reference(t),
                });
            } else if (visible(source) || stored(source)) && stored(target) {
                exported_edges.push(Edge {
                    source: reference(s),
                    target: reference(t),
                });
            }
        }
        let mut kept = Vec::with_capacity(self.compiler.resources.len());
        let mut exported = Vec::new();
        let mut tags: IndexSet<String> = IndexSet::new();
        for res in std::mem::take(&mut self.compiler.resources) {
            if stored(&res) {
                exported.push(res);
                continue;
            }
            if !visible(&res) {
                continue;
            }
            if matches!(res.kind, Kind::Class | Kind::Node) {
                tags.extend(res.tags.iter().cloned());
            }
            kept.push(res);
        }
        // Each resource is written independently (those of a large catalog
        // on several threads) and freed once written.
        let namevars = builtin_types::Namevars::here();
        let resources =
            marionette_values::parallel::map_owned(kept, |res| Self::resource_data(res, &namevars));
        self.exported_out = exported
            .into_iter()
            .map(|res| Self::resource_data(res, &namevars))
            .collect();
        self.exported_edges_out = exported_edges;
        self.compiler.index.clear();
        Catalog {
            tags: tags.into_iter().collect(),
            name: self.node_name.clone(),
            version: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
            code_id: None,
            catalog_uuid: marionette_values::uuid::random_v4(),
            catalog_format: 2,
            environment: self.environment.clone(),
            resources,
            edges,
            classes: std::mem::take(&mut self.compiler.classes),
        }
    }

    /// A compiler resource as the catalog holds it. The resource is
    /// consumed: its names and title move into the catalog uncopied.
    fn resource_data(res: super::Res, namevars: &builtin_types::Namevars) -> Resource {
        let is_main = res.title == "main" && matches!(res.type_name.as_str(), "class" | "stage");
        let namevar = match res.kind {
            Kind::Builtin => namevars.get(&res.type_name),
            _ => "name",
        };
        let mut parameters = serde_json::Map::new();
        let mut sensitive = Vec::new();
        // A file's identity drops trailing slashes; Puppet then shows it.
        if matches!(res.type_name.as_str(), "file" | "tidy")
            && res.title.len() > 1
            && res.title.ends_with('/')
            && !res.params.contains_key("path")
        {
            let trimmed = res.title.trim_end_matches('/');
            parameters.insert(
                "path".into(),
                Data::String(if trimmed.is_empty() { "/" } else { trimmed }.to_string()),
            );
        }
        for (name, param) in res.params {
            let value = match param.value {
                Value::Undef => continue,
                Value::Sensitive(inner) => {
                    sensitive.push(name.clone());
                    *inner
                }
                other => other,
            };
            let data = marionette_catalog::to_data(&value);
            if !is_main
                && !res.keep_name
                && name == namevar
                && matches!(&data, Data::String(text) if *text == res.title)
            {
                continue;
            }
            let data = if RELATIONSHIP_PARAMETERS.contains(&name.as_str()) {
                flatten_references(data)
            } else {
                data
            };
            parameters.insert(name, data);
        }
        Resource {
            type_name: marionette_values::types::capitalize_segments(&res.type_name),
            title: if res.kind == Kind::Class && res.title != "main" {
                marionette_values::types::capitalize_segments(&res.title)
            } else {
                res.title
            },
            file: res.file,
            line: res.line,
            exported: res.exported,
            kind: Some(res.kind.label().to_string()),
            tags: res.tags.into_iter().collect(),
            parameters,
            sensitive_parameters: sensitive,
        }
    }
}

/// Relationship parameters hold a reference or a flat list of them.
fn flatten_references(data: Data) -> Data {
    fn walk(data: Data, out: &mut Vec<Data>) {
        match data {
            Data::Array(items) => items.into_iter().for_each(|d| walk(d, out)),
            Data::Null => {}
            other => out.push(other),
        }
    }
    match data {
        Data::Array(items) => {
            let mut out = Vec::new();
            items.into_iter().for_each(|d| walk(d, &mut out));
            Data::Array(out)
        }
        other => other,
    }
}

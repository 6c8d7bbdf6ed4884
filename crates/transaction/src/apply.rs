//! Applying a catalog: convert it, build the graph, run the pre-run
//! checks, then evaluate every resource in graph order (each provider
//! prefetching when its first resource comes) with
//! refresh events, failure isolation, noop and tag selection, and record
//! it all in a report.

use std::cell::OnceCell;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use indexmap::IndexMap;
use marionette_catalog::Catalog;
use marionette_ral::attribute::value_text;
use marionette_ral::schedule::Schedule;
use marionette_ral::{
    EventStatus, Facts, Filebucket, GenerateError, GeneratedBy, Level, Logger, Outcome, RalError,
    Registry, Resource, Session,
};
use marionette_values::Value;
use marionette_values::types::capitalize_segments;

use crate::graph::{Completion, Containment, Graph, GraphError, NodeKind};
use crate::report::{self, Counts, EventReport, Log, Report, ResourceStatus};

/// Told, before each resource, how many are done, of how many, and which
/// one comes (its reference); then once more with no resource at the end.
pub type Progress = Arc<dyn Fn(usize, usize, Option<&str>) + Send + Sync>;

/// How to apply.
#[derive(Clone, Default)]
pub struct Options {
    /// Report what would change without changing anything.
    pub noop: bool,
    /// Only apply resources with one of these tags (all when empty).
    pub tags: Vec<String>,
    /// Never apply resources with one of these tags.
    pub skip_tags: Vec<String>,
    /// The node name for the report.
    pub host: String,
    /// Where file contents are saved before changes.
    pub filebucket: Option<Filebucket>,
    /// The server's bucket (`filebucket { ...: path => false }`), when the
    /// run has a server.
    pub remote_filebucket: Option<Filebucket>,
    /// Seconds spent compiling, for the report's `config_retrieval`.
    pub config_retrieval: Option<f64>,
    /// Told how far the run is, for a progress line.
    pub progress: Option<Progress>,
    /// Show content changes as unified diffs.
    pub show_diff: bool,
    /// Where providers keep what they learn from run to run (see
    /// `marionette_ral::Context::state_dir`); nothing is kept when `None`.
    pub state_dir: Option<std::path::PathBuf>,
    /// Apply resources whatever their schedules say (`--ignoreschedules`).
    pub ignore_schedules: bool,
    /// Log, at info level, when each resource starts and how long it took
    /// (`--evaltrace`).
    pub evaltrace: bool,
}

/// The signal that asked the run to stop (`SIGINT`, `SIGTERM`), 0 when
/// none did. A signal handler sets it (see [`request_stop`]); the run
/// finishes the resource it is applying, applies no other, and reports.
static STOP: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(0);

/// Whether a run is applying resources, for a signal handler to know
/// whether stopping is the run's business or the process's.
static RUNNING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Asks the run under way to stop after its current resource; `false`
/// when no run is applying resources. Safe to call from a signal handler.
pub fn request_stop(signal: i32) -> bool {
    STOP.store(signal, std::sync::atomic::Ordering::SeqCst);
    RUNNING.load(std::sync::atomic::Ordering::SeqCst)
}

/// Whether a signal asked a run to stop.
pub fn stop_requested() -> bool {
    STOP.load(std::sync::atomic::Ordering::SeqCst) != 0
}

/// Why a catalog was not applied at all. Nothing was changed.
#[derive(Debug, thiserror::Error)]
pub enum ApplyError {
    /// Resources that cannot be converted (unknown types, invalid values).
    #[error("{}", listed(.0))]
    Invalid(Vec<RalError>),
    #[error(transparent)]
    Graph(#[from] GraphError),
    /// Pre-run checks failed.
    #[error("{}", .0.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n"))]
    PreRun(Vec<RalError>),
    /// Resources name schedules the run does not have: each reference,
    /// the schedule's name and where the resource was declared.
    #[error("{}", .0.iter().map(|(resource, name, origin)| format!("{resource} names schedule '{name}', which is neither declared nor one every run has{origin}")).collect::<Vec<_>>().join("\n"))]
    MissingSchedules(Vec<(String, String, marionette_ral::Origin)>),
}

/// How many resources refused for one same reason are named one by one;
/// the others are counted.
const SAME_ERROR_SHOWN: usize = 3;

/// The refusals of invalid resources, a line each, except that a reason
/// many resources share (a value a thousand resources give, a module
/// type's file that cannot be run) is shown for the first few and the
/// others counted, rather than repeated a thousand times.
fn listed(errors: &[RalError]) -> String {
    let reason = |error: &RalError| match error {
        RalError::Attribute { attr, message, .. } => Some((attr.clone(), message.clone())),
        _ => None,
    };
    let mut lines: Vec<String> = Vec::new();
    // Each reason: how many were shown, the last line showing it, and how
    // many were left out.
    let mut reasons: Vec<((String, String), usize, usize, usize)> = Vec::new();
    for error in errors {
        if let Some(reason) = reason(error) {
            match reasons.iter_mut().find(|(r, ..)| *r == reason) {
                Some((_, shown, _, left)) if *shown >= SAME_ERROR_SHOWN => {
                    *left += 1;
                    continue;
                }
                Some((_, shown, last, _)) => {
                    *shown += 1;
                    *last = lines.len();
                }
                None => reasons.push((reason, 1, lines.len(), 0)),
            }
        }
        lines.push(error.to_string());
    }
    // The counts go after their reason's last line, the latest first so
    // that the earlier places stay where they are.
    reasons.sort_by_key(|(_, _, last, _)| std::cmp::Reverse(*last));
    for ((attr, _), _, last, left) in reasons {
        if left > 0 {
            let resources = if left == 1 { "resource" } else { "resources" };
            lines.insert(
                last + 1,
                format!("Parameter {attr} failed the same way on {left} more {resources}"),
            );
        }
    }
    lines.join("\n")
}

impl ApplyError {
    /// The closing line Puppet prints after the details.
    pub fn summary(&self) -> std::borrow::Cow<'static, str> {
        match self {
            ApplyError::Invalid(_) => "Failed to apply catalog: invalid resources".into(),
            ApplyError::Graph(GraphError::Cycles { .. }) => {
                "Failed to apply catalog: One or more resource dependency cycles detected in graph"
                    .into()
            }
            ApplyError::Graph(_) => "Failed to apply catalog: missing dependencies".into(),
            ApplyError::PreRun(_) => "Failed to apply catalog: Some pre-run checks failed".into(),
            // Puppet's words; it stops when it reaches the resource, after
            // applying those before it.
            ApplyError::MissingSchedules(missing) => format!(
                "Failed to apply catalog: Could not find schedule {}",
                missing.first().map_or("", |(_, name, _)| name.as_str())
            )
            .into(),
        }
    }
}

/// What auditing added to a resource's evaluation, for its report.
#[derive(Default)]
struct AuditNotes {
    /// Notices of values recorded for the first time: each with the number
    /// of events logged before it, and the property.
    recorded: Vec<(usize, String, String)>,
    /// Each audited property and the value the last run recorded.
    historical: Vec<(String, Option<Value>)>,
}

/// What happened to a node, as its dependents see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Pending,
    Done,
    Failed,
}

/// Whether a resource is being removed (Puppet's `deleting?`: it manages
/// `ensure` and wants it `absent`).
fn deleting(resource: &Resource) -> bool {
    resource
        .get("ensure")
        .is_some_and(|v| value_text(v) == "absent")
}

/// Events a node received: real ones, and those that would have been sent
/// in noop.
#[derive(Clone, Copy, Debug, Default)]
struct Received {
    events: usize,
    noop_events: usize,
}

/// The catalog resources this registry manages, converted; all conversion
/// errors together.
pub fn convert(
    catalog: &Catalog,
    registry: &Registry,
) -> Result<Vec<(usize, Resource)>, ApplyError> {
    convert_in(catalog, registry, &crate::graph::parents(catalog))
}

/// [`convert`] with the container of each catalog resource known.
fn convert_in(
    catalog: &Catalog,
    registry: &Registry,
    parents: &[Option<usize>],
) -> Result<Vec<(usize, Resource)>, ApplyError> {
    let children = crate::graph::has_children(parents);
    let mut indices = Vec::new();
    let mut declared = Vec::new();
    for (i, resource) in catalog.resources.iter().enumerate() {
        if crate::graph::is_container(resource, children[i]) {
            continue;
        }
        let type_def = registry
            .type_def(&resource.type_name)
            .cloned()
            .ok_or_else(|| RalError::UnknownType(resource.type_name.to_ascii_lowercase()));
        indices.push(i);
        declared.push((resource, type_def));
    }
    let mut results = Resource::from_catalog_all(&declared);
    // A provider the type does not have is refused with the resource, as
    // Puppet refuses the `provider` parameter's value.
    for result in results.iter_mut() {
        let Ok(resource) = result else { continue };
        let Some(name) = resource.provider() else {
            continue;
        };
        let type_name = resource.type_def().name.clone();
        if registry.has_providers(&type_name) && registry.provider(&type_name, name).is_none() {
            *result = Err(RalError::Attribute {
                resource: resource.reference(),
                attr: "provider".into(),
                message: format!("Invalid {type_name} provider '{name}'"),
                origin: resource.origin().clone(),
            });
        }
    }
    if results.iter().any(Result::is_err) {
        let errors = results.into_iter().filter_map(Result::err);
        return Err(ApplyError::Invalid(errors.collect()));
    }
    Ok(indices
        .into_iter()
        .zip(results.into_iter().flatten())
        .collect())
}

/// The deprecation warnings of the values the manifests give, each place
/// in the manifests warned of once, as Puppet warns when it turns the
/// catalog into resources.
fn warn_deprecated(resources: &[Resource], logger: &Logger) {
    let mut warned = HashSet::new();
    for resource in resources {
        for attr in &resource.type_def().attributes {
            let Some(hook) = &attr.deprecated else {
                continue;
            };
            if !resource.is_given(&attr.name) {
                continue;
            }
            let Some(message) = resource.get(&attr.name).and_then(|value| hook(value)) else {
                continue;
            };
            // Puppet warns only for a resource written at a file and line:
            // children a generator made (a recursive file's) have neither.
            let origin = resource.origin();
            if origin.file.is_none() || origin.line.is_none() {
                continue;
            }
            if warned.insert((origin.file.clone(), origin.line)) {
                let place = origin.with_unknowns();
                logger.log(Level::Warning, "", &format!("{message}\n   {place}"));
            }
        }
    }
}

/// The relationship graph of a catalog in DOT, for `--graph`; written even
/// when it has cycles, which is when it helps most.
pub fn graph_dot(catalog: &Catalog, registry: &Registry) -> Result<String, ApplyError> {
    let resources = convert(catalog, registry)?;
    let (indices, list): (Vec<usize>, Vec<Resource>) = resources.into_iter().unzip();
    Ok(Graph::build(catalog, &indices, &list)?.dot())
}

/// What generators may ask: instances through a provider session, and
/// what the catalog already manages (by title, name or alias).
///
/// Every `file` is a generator (for `recurse`), and most never ask
/// anything: the indexes below are built on first use.
struct Generator<'a> {
    session: Session,
    registry: &'a Registry,
    catalog: &'a Catalog,
    resources: &'a [(usize, Resource)],
    /// Type and title or name of everything managed.
    managed: OnceCell<HashSet<(String, String)>>,
    /// What generators made so far (concat's files): managed too, when a
    /// recursive file's purge asks.
    generated: std::cell::RefCell<HashSet<(String, String)>>,
    /// Catalog positions of the generators, by reference.
    positions: OnceCell<std::collections::HashMap<String, usize>>,
    /// The container of each catalog resource, for the generators' paths.
    parents: OnceCell<Vec<Option<usize>>>,
    logger: Logger,
}

impl Generator<'_> {
    /// Where a generator's messages come from: its containment path.
    fn source_of(&self, resource: &Resource) -> String {
        let positions = self.positions.get_or_init(|| {
            self.resources
                .iter()
                .filter(|(_, r)| r.type_def().generate.is_some())
                .map(|(i, r)| (r.reference(), *i))
                .collect()
        });
        match positions.get(&resource.reference()) {
            Some(&i) => {
                let parents = self
                    .parents
                    .get_or_init(|| crate::graph::parents(self.catalog));
                crate::graph::containment_path(self.catalog, parents, i)
            }
            None => resource.reference(),
        }
    }
}

impl marionette_ral::Generation for Generator<'_> {
    fn instances(
        &self,
        type_name: &str,
    ) -> Result<Vec<marionette_ral::PropertyHash>, marionette_ral::RalError> {
        self.session
            .instances(type_name)
            .map(|found| found.into_iter().map(|(_, hash)| hash).collect())
    }

    fn manages(&self, type_name: &str, title: &str) -> bool {
        self.managed
            .get_or_init(|| {
                managed_by(
                    self.catalog,
                    self.resources.iter().map(|(_, resource)| resource),
                )
            })
            .contains(&(type_name.to_ascii_lowercase(), title.to_string()))
            || self
                .generated
                .borrow()
                .contains(&(type_name.to_ascii_lowercase(), title.to_string()))
    }

    fn type_def(&self, type_name: &str) -> Option<Arc<marionette_ral::TypeDef>> {
        self.registry.type_def(type_name).cloned()
    }

    fn notice(&self, resource: &Resource, message: &str) {
        self.logger
            .log(Level::Notice, &self.source_of(resource), message);
    }

    fn warn_about(&self, resource: &Resource, message: &str) {
        self.logger
            .log(Level::Warning, &self.source_of(resource), message);
    }

    fn resources_of(&self, type_name: &str) -> Vec<&Resource> {
        self.resources
            .iter()
            .map(|(_, resource)| resource)
            .filter(|resource| resource.type_name() == type_name)
            .collect()
    }

    fn warning(&self, message: &str) {
        self.logger.log(Level::Warning, "", message);
    }
}

/// The type and title, and the type and name, of everything a run
/// manages, which a generator leaves to it.
fn managed_by<'r>(
    catalog: &Catalog,
    resources: impl Iterator<Item = &'r Resource>,
) -> HashSet<(String, String)> {
    let mut managed = HashSet::new();
    for resource in &catalog.resources {
        managed.insert((
            resource.type_name.to_ascii_lowercase(),
            resource.title.clone(),
        ));
    }
    for resource in resources {
        managed.insert((resource.type_name().to_string(), resource.name()));
    }
    managed
}

/// Metaparameters a generated resource takes from its generator (so
/// `resources { 'user': purge => true, noop => true }` only reports).
const INHERITED_METAPARAMETERS: &[&str] = &["noop", "loglevel", "schedule", "audit", "tag"];

/// A generator that failed: the catalog position of its resource and why.
/// As in Puppet, the run goes on without what it would have added, and
/// the resource itself is still evaluated; the run counts as failed.
type GenerateFailure = (usize, &'static str, String);

/// What [`extend`] makes: the extended catalog (`None` when no generator
/// added anything), the generators that failed, the completion of each
/// generator whose `eval_generate` made resources, and each generated
/// resource with its generator (catalog positions), in the order made.
type Extended = (
    Option<Catalog>,
    Vec<GenerateFailure>,
    Vec<Completion>,
    Vec<(usize, usize)>,
);

/// Makes a generated resource require its generator, unless one of its
/// relationships names the generator already.
fn require_generator(parameters: &mut serde_json::Map<String, serde_json::Value>, generator: &str) {
    let names = |value: &serde_json::Value| match value {
        serde_json::Value::String(text) => text == generator,
        serde_json::Value::Array(items) => {
            items.iter().any(|item| item.as_str() == Some(generator))
        }
        _ => false,
    };
    if ["require", "before", "notify", "subscribe"]
        .iter()
        .any(|name| parameters.get(*name).is_some_and(names))
    {
        return;
    }
    let reference = serde_json::Value::String(generator.to_string());
    match parameters.remove("require") {
        None => {
            parameters.insert("require".into(), reference);
        }
        Some(serde_json::Value::Array(mut items)) => {
            items.push(reference);
            parameters.insert("require".into(), serde_json::Value::Array(items));
        }
        Some(other) => {
            parameters.insert(
                "require".into(),
                serde_json::Value::Array(vec![other, reference]),
            );
        }
    }
}

/// The catalog with every generator's resources added, each contained
/// where its generator is, and the generators that failed; an error when
/// a generator found its resource invalid.
fn extend(
    catalog: &Catalog,
    resources: &[(usize, Resource)],
    registry: &Arc<Registry>,
    facts: &Arc<Facts>,
    logger: &Logger,
) -> Result<Extended, ApplyError> {
    let generator = Generator {
        session: Session::new(registry.clone(), facts.clone(), logger.clone()),
        registry,
        catalog,
        resources,
        managed: OnceCell::new(),
        generated: std::cell::RefCell::new(HashSet::new()),
        positions: OnceCell::new(),
        parents: OnceCell::new(),
        logger: logger.clone(),
    };
    let mut extended: Option<Catalog> = None;
    let mut known: Option<HashSet<String>> = None;
    let mut errors = Vec::new();
    let mut failures = Vec::new();
    let mut completions: Vec<Completion> = Vec::new();
    let mut placed = Vec::new();
    // Puppet runs every `generate` (concat's file, `resources`, `tidy`)
    // before the run, and a recursive file's `eval_generate` when the run
    // reaches it: a file's entries come last, so that its purge spares
    // what the others made.
    let ordered = resources
        .iter()
        .filter(|(_, r)| r.type_name() != "file")
        .chain(resources.iter().filter(|(_, r)| r.type_name() == "file"));
    for (i, resource) in ordered {
        let Some(hook) = &resource.type_def().generate else {
            continue;
        };
        let source = &catalog.resources[*i];
        // A panicking hook is an invalid resource, never a crash.
        let generated = match marionette_ral::attribute::guarded("generate", "generate", || {
            Ok(hook(resource, &generator))
        })
        .unwrap_or_else(|panic| Err(GenerateError::Invalid(panic)))
        {
            Ok(generated) => generated,
            Err(GenerateError::Invalid(message)) => {
                errors.push(RalError::Validation {
                    resource: resource.reference(),
                    message,
                    origin: resource.origin().clone(),
                });
                continue;
            }
            Err(GenerateError::Failed(message)) => {
                failures.push((*i, "eval_generate", message));
                continue;
            }
            Err(GenerateError::FailedInGenerate(message)) => {
                failures.push((*i, "generate", message));
                continue;
            }
            Err(GenerateError::Incomplete(generated, message)) => {
                failures.push((*i, "eval_generate", message));
                generated
            }
        };
        // Most generators (every `file` without `recurse`) add nothing, so
        // the copy of the catalog, the container lookup and the index of
        // known references are only made when something was generated: a
        // scan per resource would make large catalogs quadratic.
        if generated.is_empty() {
            continue;
        }
        let source_reference = source.reference();
        let container = catalog
            .edges
            .iter()
            .find(|edge| edge.target == source_reference)
            .map(|edge| edge.source.clone());
        let extended = extended.get_or_insert_with(|| catalog.clone());
        let known = known.get_or_insert_with(|| {
            extended
                .resources
                .iter()
                .map(marionette_catalog::Resource::reference)
                .collect::<HashSet<String>>()
        });
        let mut completion = Completion {
            generator: *i,
            made: Vec::new(),
        };
        for new in generated {
            let type_name = capitalize_segments(&new.type_name);
            let reference = format!("{type_name}[{}]", new.title);
            if !known.insert(reference.clone()) {
                continue;
            }
            generator
                .generated
                .borrow_mut()
                .insert((new.type_name.to_ascii_lowercase(), new.title.clone()));
            placed.push((extended.resources.len(), *i));
            if new.by != GeneratedBy::Generate {
                completion
                    .made
                    .push((extended.resources.len(), new.by == GeneratedBy::Both));
            }
            let mut parameters = serde_json::Map::new();
            for (name, value) in &new.params {
                parameters.insert(name.clone(), marionette_catalog::to_data(value));
            }
            for name in INHERITED_METAPARAMETERS {
                if let Some(value) = source.parameters.get(*name)
                    && !parameters.contains_key(*name)
                {
                    parameters.insert(name.to_string(), value.clone());
                }
            }
            // What `generate` makes comes after its generator, as Puppet
            // orders it unless the made resource names its generator (a
            // module type's file waits for the type's `eval_generate` to
            // give it content); a depth-first type (`tidy`) orders its own.
            if new.by != GeneratedBy::EvalGenerate && !resource.type_def().depth_first {
                require_generator(&mut parameters, &source_reference);
            }
            extended.resources.push(marionette_catalog::Resource {
                type_name,
                title: new.title.clone(),
                tags: [new.type_name.to_ascii_lowercase()].into(),
                // Made by Ruby's `Type.new` in Puppet, not declared in a
                // manifest: their errors name no file or line.
                file: None,
                line: None,
                exported: false,
                kind: Some("compilable_type".into()),
                parameters,
                sensitive_parameters: Vec::new(),
            });
            if let Some(container) = &container {
                extended.edges.push(marionette_catalog::Edge {
                    source: container.clone(),
                    target: reference,
                });
            }
        }
        if !completion.made.is_empty() {
            completions.push(completion);
        }
    }
    if errors.is_empty() {
        Ok((extended, failures, completions, placed))
    } else {
        Err(ApplyError::Invalid(errors))
    }
}

/// Applies a catalog. Progress goes to `logger` as it happens; the report
/// holds everything.
pub fn apply(
    catalog: &Catalog,
    registry: Arc<Registry>,
    facts: Arc<Facts>,
    logger: Logger,
    options: &Options,
) -> Result<Report, ApplyError> {
    let started = Instant::now();
    let mut containment = Containment::of(catalog);
    let mut resources = convert_in(catalog, &registry, &containment.parents)?;
    // Generators (`resources`, `tidy`) add resources first; the extended
    // catalog is then converted and ordered like any other.
    let extended;
    let mut generate_failures = Vec::new();
    let mut completions = Vec::new();
    let mut placed = Vec::new();
    let catalog = if resources
        .iter()
        .any(|(_, r)| r.type_def().generate.is_some())
    {
        (extended, generate_failures, completions, placed) =
            extend(catalog, &resources, &registry, &facts, &logger)?;
        match &extended {
            Some(extended) => {
                containment = Containment::of(extended);
                resources = convert_in(extended, &registry, &containment.parents)?;
                extended
            }
            None => catalog,
        }
    } else {
        catalog
    };
    let mut paths = crate::graph::containment_paths(catalog, &containment.parents);
    for (i, resource) in &mut resources {
        if let Some(shown) = &resource.type_def().shown_title
            && let Some(title) = shown(resource)
        {
            // The path ends with the resource's reference, written with
            // the title its type shows.
            let reference = catalog.resources[*i].reference();
            if let Some(container) = paths[*i].strip_suffix(reference.as_str()) {
                let type_name = resource.type_def().reference_name();
                paths[*i] = format!("{container}{type_name}[{title}]").into();
            }
        }
        resource.set_path(paths[*i].clone());
    }
    // Shared with the providers' context rather than copied: a run of
    // thousands of resources would otherwise hold them twice. Collected
    // straight into the shared slice, with no list in between.
    let indices: Vec<usize> = resources.iter().map(|(i, _)| *i).collect();
    let ral: Arc<[Resource]> = resources.into_iter().map(|(_, r)| r).collect();
    let logs: Arc<Mutex<Vec<Log>>> = Arc::default();
    let recorder = recorder(&logger, &logs);
    warn_deprecated(&ral, &recorder);
    let mut session = Session::new(registry, facts, recorder.clone());
    session.set_catalog(ral.clone());
    if let Some(bucket) = &options.filebucket {
        session.set_filebucket(bucket.clone());
    }
    if let Some(bucket) = &options.remote_filebucket {
        session.set_remote_filebucket(bucket.clone());
    }
    session.set_show_diff(options.show_diff);
    session.set_noop(options.noop);
    if let Some(dir) = &options.state_dir {
        session.set_state_dir(dir.clone());
    }
    let selected: Vec<usize> = indices
        .iter()
        .enumerate()
        .filter(|(_, i)| selected(catalog, options, **i))
        .map(|(position, _)| position)
        .collect();
    // Resources are checked on other threads while the graph is built;
    // their prefetches wait for their first evaluation.
    session.plan(&selected);
    let mut graph = Graph::build_in(catalog, &indices, &ral, containment)?;
    graph.complete(&completions);
    graph.place_generated(&placed);
    // A cycle stops the run before anything is applied.
    graph.order()?;
    let checks = Session::pre_run_checks(&ral);
    if !checks.is_empty() {
        return Err(ApplyError::PreRun(checks));
    }
    let schedules = if options.ignore_schedules {
        HashMap::new()
    } else {
        schedules(&ral)?
    };
    let mut run = Run::new(
        catalog,
        (&graph, &paths),
        &indices,
        ral.clone(),
        session,
        (recorder, logs),
        options,
    );
    run.schedules = schedules;
    for (position, hook, message) in generate_failures {
        // Puppet's exit code leaves out a failed `generate` (firewall's
        // purge without iptables-save, recorded in the Forge corpus's
        // real-apply stage); a failed `eval_generate` (a directory over
        // `max_files`) counts, and is said when its resource is reached.
        if hook == "generate" {
            run.logger.log(
                Level::Err,
                &paths[position],
                &format!("Failed to generate additional resources using 'generate': {message}"),
            );
            run.failed_to_generate = true;
        } else {
            run.eval_generate_failures.insert(position, message);
        }
    }
    let total = ral.len();
    marionette_ral::cancel::clear();
    RUNNING.store(true, std::sync::atomic::Ordering::SeqCst);
    // Puppet's walk: a resource no provider can manage yet is put aside
    // until nothing else is ready (something applied meanwhile, a package,
    // may make its provider suitable); put aside again while others made
    // progress, and failed once nothing did.
    run.initial_defaults = ral
        .iter()
        .map(|r| r.type_def().name.as_str())
        .collect::<HashSet<&str>>()
        .into_iter()
        .map(|type_name| {
            let default = run.session.selector().default_provider(type_name).ok();
            (type_name.to_string(), default.map(|p| p.name.clone()))
        })
        .collect();
    let mut traversal = graph.traversal();
    let mut deferred: Vec<usize> = Vec::new();
    let mut progressed = false;
    loop {
        let Some(node) = traversal.next() else {
            if deferred.is_empty() {
                break;
            }
            for node in deferred.drain(..) {
                if progressed {
                    traversal.retry(node);
                } else {
                    run.overly_deferred(node);
                    traversal.finish(node);
                }
            }
            progressed = false;
            continue;
        };
        if run.deferrable(node) {
            deferred.push(node);
            continue;
        }
        progressed = true;
        let signal = STOP.load(std::sync::atomic::Ordering::SeqCst);
        if signal != 0 {
            // Puppet's words; the resources not reached are left alone and
            // the run is reported as failed.
            let name = match signal {
                libc::SIGINT => "INT",
                libc::SIGTERM => "TERM",
                _ => "signal",
            };
            run.logger.log(
                Level::Warning,
                "",
                &format!(
                    "Caught {name}; stopping the run after {} of {total} resources",
                    run.counts.total
                ),
            );
            run.failed_after = true;
            run.interrupted = true;
            break;
        }
        if let Some(progress) = &options.progress
            && let NodeKind::Resource(n) = run.graph.nodes[node].kind
        {
            progress(
                run.counts.total,
                total,
                Some(run.resources[n].reference_str()),
            );
        }
        let traced = options.evaltrace.then(|| run.trace_start(node, total));
        run.process(node);
        if let Some(Some((path, started))) = traced {
            run.logger.log(
                Level::Info,
                &path,
                &format!(
                    "Evaluated in {:.2} seconds",
                    started.elapsed().as_secs_f64()
                ),
            );
        }
        traversal.finish(node);
    }
    // A generator the run never reached (left out by tags) still failed.
    let mut unsaid: Vec<(usize, String)> = run.eval_generate_failures.drain().collect();
    unsaid.sort();
    for (position, message) in unsaid {
        run.eval_generate_failed(position, &message);
    }
    // Once per type, as Puppet says it at the end of its walk.
    for type_name in std::mem::take(&mut run.providerless) {
        run.logger.log(
            Level::Err,
            "",
            &format!("Could not find a suitable provider for {type_name}"),
        );
    }
    if let Some(progress) = &options.progress {
        progress(run.counts.total, total, None);
    }
    RUNNING.store(false, std::sync::atomic::Ordering::SeqCst);
    run.post_evaluation();
    run.store_state();
    let application = started.elapsed().as_secs_f64();
    let report = run.finish(application);
    // The run's resources are freed on another thread: thousands of them
    // take milliseconds, and what follows (writing the report) needs
    // little new memory.
    marionette_values::parallel::drop_aside(ral);
    Ok(report)
}

/// The schedules the resources name, by name: declared `schedule`
/// resources and the implicit ones. Every name is checked here, so that a
/// missing schedule stops the run before anything is changed.
fn schedules(resources: &[Resource]) -> Result<HashMap<String, Schedule>, ApplyError> {
    let mut named = HashMap::new();
    let mut missing = Vec::new();
    for resource in resources {
        let Some(name) = resource.meta("schedule").map(value_text) else {
            continue;
        };
        if named.contains_key(&name) {
            continue;
        }
        let declared = resources
            .iter()
            .find(|r| r.type_name() == "schedule" && r.title() == name)
            .map(Schedule::of);
        match declared.or_else(|| Schedule::implicit(&name)) {
            Some(schedule) => {
                named.insert(name, schedule);
            }
            None => missing.push((resource.reference(), name, resource.origin().clone())),
        }
    }
    if missing.is_empty() {
        Ok(named)
    } else {
        Err(ApplyError::MissingSchedules(missing))
    }
}

/// A logger that sends every message to `outer` and into the report's
/// logs.
fn recorder(outer: &Logger, logs: &Arc<Mutex<Vec<Log>>>) -> Logger {
    let logs = logs.clone();
    let outer = outer.clone();
    Logger::with_sink(move |entry| {
        outer.log(entry.level, &entry.source, &entry.message);
        logs.lock().unwrap_or_else(|e| e.into_inner()).push(Log {
            level: level_name(entry.level).to_string(),
            message: entry.message.clone(),
            source: if entry.source.is_empty() {
                "Puppet".into()
            } else {
                entry.source.clone()
            },
            tags: vec![level_name(entry.level).to_string()],
            time: report::now_text(),
            file: None,
            line: None,
        });
    })
}

/// Whether the run's tags select a catalog resource.
fn selected(catalog: &Catalog, options: &Options, catalog_index: usize) -> bool {
    let tags = &catalog.resources[catalog_index].tags;
    let has = |wanted: &[String]| {
        wanted
            .iter()
            .any(|w| tags.iter().any(|t| t.eq_ignore_ascii_case(w)))
    };
    (options.tags.is_empty() || has(&options.tags)) && !has(&options.skip_tags)
}

struct Run<'a> {
    catalog: &'a Catalog,
    graph: &'a Graph<'a>,
    /// The containment path of each catalog resource.
    paths: &'a [Arc<str>],
    /// The catalog position of each managed resource.
    indices: &'a [usize],
    resources: Arc<[Resource]>,
    session: Session,
    options: &'a Options,
    logger: Logger,
    logs: Arc<Mutex<Vec<Log>>>,
    state: Vec<State>,
    received: Vec<Received>,
    statuses: report::Statuses,
    counts: Counts,
    times: IndexMap<String, f64>,
    /// A provider failed after evaluation without naming the resources
    /// concerned, or a generator failed: the run failed though no
    /// resource did.
    failed_after: bool,
    /// A generator failed: the run failed, though no resource did (Puppet's
    /// `resources_failed_to_generate`, which its exit code leaves out).
    failed_to_generate: bool,
    /// The `eval_generate` failures, by catalog position, said when the
    /// run reaches their resource, as Puppet asks `eval_generate` then.
    eval_generate_failures: HashMap<usize, String>,
    /// A signal stopped the run before every resource was evaluated: the
    /// report says so with `transaction_completed: false`, Puppet's field
    /// for a transaction that did not run to its end.
    interrupted: bool,
    /// When resources with a schedule or audited properties were last
    /// checked, and the audited values: read when the first such resource
    /// comes, written at the end of the run.
    storage: Option<crate::state::Storage>,
    /// The schedules the resources name, by name (see [`schedules`]);
    /// none with `--ignoreschedules`.
    schedules: HashMap<String, Schedule>,
    /// For each node skipped (or container left) because of failures
    /// before it, the resources whose own failure that was, as Puppet
    /// hands them on through skipped resources and containers.
    failed_roots: HashMap<usize, Vec<usize>>,
    /// The failed resources already named in a "Dependency ... has
    /// failures" notice: Puppet names each once per run.
    named_failures: std::collections::HashSet<usize>,
    /// The types of the resources failed for want of a suitable provider
    /// (naming none), in the order met.
    providerless: Vec<String>,
    /// Each type's default provider when the run started, which Puppet
    /// gives its resources that name none as it makes them.
    initial_defaults: HashMap<String, Option<String>>,
    /// The type and title or name of everything the run manages, for a
    /// directory listed again ([`Run::purge_late`]); made on first use.
    managed: OnceCell<HashSet<(String, String)>>,
    /// The new entries of directories listed again, waiting for their
    /// place among the entries made before the run, by the directory's
    /// catalog position.
    late: HashMap<usize, std::collections::VecDeque<LateEntry>>,
}

/// A new entry of a directory listed again during the run, to be removed
/// (`run` says in noop or not) or, its directory skipped, skipped (`None`).
struct LateEntry {
    entry: Resource,
    path: Arc<str>,
    run: Option<bool>,
    origin: (Option<Arc<str>>, Option<u32>),
}

/// What a directory listed again during the run may ask: whether the run
/// manages an entry. Its messages come from the directory.
struct Late<'r> {
    managed: &'r HashSet<(String, String)>,
    resources: &'r [Resource],
    logger: &'r Logger,
    path: &'r str,
    /// The directory is skipped: every entry is named.
    skipped: bool,
}

impl marionette_ral::Generation for Late<'_> {
    fn instances(
        &self,
        _type_name: &str,
    ) -> Result<Vec<marionette_ral::PropertyHash>, marionette_ral::RalError> {
        Ok(Vec::new())
    }

    fn manages(&self, type_name: &str, title: &str) -> bool {
        self.managed
            .contains(&(type_name.to_ascii_lowercase(), title.to_string()))
    }

    fn type_def(&self, _type_name: &str) -> Option<Arc<marionette_ral::TypeDef>> {
        None
    }

    fn notice(&self, _resource: &Resource, message: &str) {
        self.logger.log(Level::Notice, self.path, message);
    }

    fn warn_about(&self, _resource: &Resource, message: &str) {
        self.logger.log(Level::Warning, self.path, message);
    }

    fn every_entry(&self) -> bool {
        self.skipped
    }

    fn resources_of(&self, type_name: &str) -> Vec<&Resource> {
        self.resources
            .iter()
            .filter(|resource| resource.type_name() == type_name)
            .collect()
    }

    fn warning(&self, message: &str) {
        self.logger.log(Level::Warning, "", message);
    }
}

impl<'a> Run<'a> {
    fn new(
        catalog: &'a Catalog,
        (graph, paths): (&'a Graph<'a>, &'a [Arc<str>]),
        indices: &'a [usize],
        resources: Arc<[Resource]>,
        session: Session,
        (logger, logs): (Logger, Arc<Mutex<Vec<Log>>>),
        options: &'a Options,
    ) -> Run<'a> {
        Run {
            statuses: report::Statuses::with_capacity_and_hasher(
                resources.len(),
                Default::default(),
            ),
            catalog,
            graph,
            paths,
            indices,
            resources,
            session,
            options,
            logger,
            logs,
            state: vec![State::Pending; graph.nodes.len()],
            received: vec![Received::default(); graph.nodes.len()],
            counts: Counts::default(),
            times: IndexMap::new(),
            failed_after: false,
            failed_to_generate: false,
            interrupted: false,
            storage: None,
            schedules: HashMap::new(),
            failed_roots: HashMap::new(),
            named_failures: std::collections::HashSet::new(),
            providerless: Vec::new(),
            initial_defaults: HashMap::new(),
            managed: OnceCell::new(),
            late: HashMap::new(),
            eval_generate_failures: HashMap::new(),
        }
    }

    /// Whether a node is a resource, selected by the run's tags, that no
    /// provider can manage now: Puppet puts it aside (see [`apply`]).
    fn deferrable(&self, node: usize) -> bool {
        let NodeKind::Resource(n) = self.graph.nodes[node].kind else {
            return false;
        };
        selected(self.catalog, self.options, self.indices[n])
            && self.session.unsuitable(&self.resources[n]).is_some()
    }

    /// Fails a resource put aside until nothing else could be done, as
    /// Puppet does: "Provider NAME is not functional on this host" when it
    /// has a provider (the one it names, or its type's default when the
    /// run started); otherwise its type is named once at the end of the
    /// run.
    fn overly_deferred(&mut self, node: usize) {
        let NodeKind::Resource(n) = self.graph.nodes[node].kind else {
            return;
        };
        let resources = self.resources.clone();
        let resource = &resources[n];
        let mut status = self.new_status(n);
        self.counts.total += 1;
        let type_name = &resource.type_def().name;
        let provider = resource.provider().map(str::to_string).or_else(|| {
            self.initial_defaults
                .get(type_name.as_str())
                .cloned()
                .flatten()
        });
        match provider {
            Some(provider) => self.logger.log(
                Level::Err,
                &self.paths[self.indices[n]],
                &format!("Provider {provider} is not functional on this host"),
            ),
            None if !self.providerless.contains(type_name) => {
                self.providerless.push(type_name.clone());
            }
            None => {}
        }
        status.failed = true;
        self.counts.failed += 1;
        self.state[node] = State::Failed;
        self.statuses.insert(status.resource.clone(), status);
    }

    /// A resource's status before anything is known of it.
    fn new_status(&self, n: usize) -> ResourceStatus {
        let (catalog_index, resource) = (self.indices[n], &self.resources[n]);
        let catalog_resource = &self.catalog.resources[catalog_index];
        ResourceStatus::new(
            resource.shared_reference(),
            resource.shared_title(),
            resource.type_def().shared_reference_name().clone(),
            report::ContainmentPath(self.paths[catalog_index].clone()),
            (catalog_resource.file.clone(), catalog_resource.line),
            catalog_resource.tags.clone(),
        )
    }

    fn process(&mut self, node: usize) {
        let failed = |from: &usize| self.state[*from] == State::Failed;
        let sources = self.graph.incoming[node]
            .iter()
            .map(|&e| self.graph.edges[e].from);
        // Most nodes have no failed dependency: nothing is collected then.
        // A dependency skipped for failures before it hands on those; one
        // that failed itself hands on itself.
        let mut failed_dependencies: Vec<usize> = Vec::new();
        if sources.clone().any(|from| failed(&from)) {
            for from in sources.filter(failed) {
                let itself = [from];
                let roots = self
                    .failed_roots
                    .get(&from)
                    .map_or(&itself[..], Vec::as_slice);
                for &root in roots {
                    if !failed_dependencies.contains(&root) {
                        failed_dependencies.push(root);
                    }
                }
            }
        }
        let kind = self.graph.nodes[node].kind;
        if kind == NodeKind::Completion && !self.late.is_empty() {
            self.late_before(self.graph.nodes[node].catalog_index, None);
        }
        match kind {
            NodeKind::Start | NodeKind::End | NodeKind::Completion => {
                if !failed_dependencies.is_empty() {
                    self.state[node] = State::Failed;
                    self.failed_roots.insert(node, failed_dependencies);
                    return;
                }
                self.state[node] = State::Done;
                let received = self.received[node];
                // In noop, Puppet reports the events a container (or a
                // completion) would have passed on: noop events, and in a
                // noop run the real events of audits too.
                let total = received.events + received.noop_events;
                // A container's start receives the events sent to the
                // container (`notify => Class[x]`), and says so as its end
                // does.
                if total > 0 && (received.events == 0 || self.options.noop) {
                    // A completion speaks as its generator's title, as
                    // Puppet's whit hides what it is.
                    let source = match kind {
                        NodeKind::Completion => self.graph.title(node).to_string(),
                        _ => self.graph.reference(node),
                    };
                    self.logger.log(
                        Level::Notice,
                        &source,
                        &format!(
                            "Would have triggered 'refresh' from {}",
                            plural(total, "event")
                        ),
                    );
                }
                // A container passes on one event of its own: a real one
                // when it received any.
                if total > 0 {
                    let real = usize::from(received.events > 0);
                    self.send(
                        node,
                        Received {
                            events: real,
                            noop_events: 1 - real,
                        },
                    );
                }
            }
            NodeKind::Resource(n) => self.process_resource(node, n, &failed_dependencies),
        }
    }

    /// Passes a node's events along each refresh edge, real and noop ones
    /// alike. Puppet counts events, not senders: a file whose content and
    /// mode would both change makes its class "Would have triggered
    /// 'refresh' from 2 events".
    fn send(&mut self, node: usize, sent: Received) {
        if sent.events + sent.noop_events == 0 {
            return;
        }
        for &e in &self.graph.outgoing[node] {
            let edge = self.graph.edges[e];
            let copies = edge.refreshes as usize;
            let received = &mut self.received[edge.to];
            received.events += sent.events * copies;
            received.noop_events += sent.noop_events * copies;
        }
    }

    /// Says that a resource's evaluation starts, as Puppet's `--evaltrace`
    /// does; its path and the time, for saying how long it took.
    fn trace_start(&self, node: usize, total: usize) -> Option<(Arc<str>, Instant)> {
        let NodeKind::Resource(n) = self.graph.nodes[node].kind else {
            return None;
        };
        let path = self.paths[self.indices[n]].clone();
        self.logger.log(
            Level::Info,
            &path,
            &format!(
                "Starting to evaluate the resource ({} of {total})",
                self.counts.total + 1
            ),
        );
        Some((path, Instant::now()))
    }

    /// Says that the generator at catalog `position` failed its
    /// `eval_generate`: the run has failed.
    fn eval_generate_failed(&mut self, position: usize, message: &str) {
        self.failed_after = true;
        self.logger.log(
            Level::Err,
            &self.paths[position],
            &format!("Failed to generate additional resources using 'eval_generate': {message}"),
        );
    }

    fn process_resource(&mut self, node: usize, n: usize, failed_dependencies: &[usize]) {
        let resources = self.resources.clone();
        let (catalog_index, resource) = (&self.indices[n], &resources[n]);
        if resource.type_def().fills_late && failed_dependencies.is_empty() {
            self.fill_late(resource, *catalog_index);
        }
        if let Some(message) = self.eval_generate_failures.remove(catalog_index) {
            self.eval_generate_failed(*catalog_index, &message);
        }
        // What a provider set on it earlier in the run (datacat's
        // collector, its file's content), validated as its type takes it.
        let overridden;
        let resource = match self
            .session
            .context()
            .overrides
            .take(resource.reference_str())
        {
            taken if taken.is_empty() => resource,
            taken => {
                let mut changed = resource.clone();
                for (name, value) in taken {
                    if let Err(e) = changed.set(&name, value) {
                        self.logger
                            .log(Level::Err, &self.paths[*catalog_index], &e.to_string());
                    }
                }
                overridden = changed;
                &overridden
            }
        };
        if !self.late.is_empty()
            && let Some(generator) = self.graph.generator_of(*catalog_index)
        {
            self.late_before(generator, Some(resource.title()));
        }
        let paths = self.paths;
        let path = &paths[*catalog_index];
        let started = Instant::now();
        let mut status = self.new_status(n);
        self.counts.total += 1;
        // A provider canceled the run (reboot's `apply => immediately`):
        // Puppet's transaction evaluates nothing more, each resource left
        // skipped with a word at debug level.
        if marionette_ral::cancel::canceled() {
            self.logger
                .log(Level::Debug, path, "Transaction canceled, skipping");
            status.skipped = true;
            self.counts.skipped += 1;
            self.state[node] = State::Done;
            self.statuses.insert(status.resource.clone(), status);
            return;
        }
        // As in Puppet: resources left out by tags, then those outside
        // their schedule, are skipped quietly before failed dependencies
        // are looked at.
        if !selected(self.catalog, self.options, *catalog_index) {
            status.skipped = true;
            self.counts.skipped += 1;
            self.state[node] = State::Done;
            self.statuses.insert(status.resource.clone(), status);
            return;
        }
        let schedule = resource.meta("schedule").map(value_text);
        if let Some(name) = &schedule
            && !self.due(resource, name)
        {
            self.logger.log(Level::Debug, path, "Not scheduled");
            status.skipped = true;
            self.counts.skipped += 1;
            // Its pending refreshes are dropped, and it passes on nothing.
            self.state[node] = State::Done;
            self.statuses.insert(status.resource.clone(), status);
            return;
        }
        if !failed_dependencies.is_empty() {
            // Puppet prefetches its provider all the same, first; when
            // that fails, the resource has failed too, and its dependents
            // name it among their failed dependencies.
            let prefetch_failed = self.session.prefetch_only(resource);
            for &dependency in failed_dependencies {
                if !self.named_failures.insert(dependency) {
                    continue;
                }
                let name = self.dependency_name(dependency);
                self.logger.log(
                    Level::Notice,
                    path,
                    &format!("Dependency {name} has failures: true"),
                );
            }
            self.logger.log(
                Level::Warning,
                path,
                "Skipping because of failed dependencies",
            );
            status.skipped = true;
            self.counts.skipped += 1;
            self.state[node] = State::Failed;
            let mut roots = failed_dependencies.to_vec();
            if prefetch_failed {
                status.failed = true;
                self.counts.failed += 1;
                roots.push(node);
            }
            self.failed_roots.insert(node, roots);
            self.statuses.insert(status.resource.clone(), status);
            self.purge_late((resource, *catalog_index), path, None);
            return;
        }
        let audited = resource.audited();
        if schedule.is_some() || !audited.is_empty() {
            self.storage()
                .check(resource.reference_str(), crate::state::now());
        }
        let mut outcome = if audited.is_empty() {
            self.session.evaluate(resource, self.options.noop)
        } else {
            self.session
                .evaluate_audited(resource, self.options.noop, &audited)
        };
        let notes = self.audit(resource, &mut outcome);
        let noop = self.options.noop || resource.noop();
        self.record(resource, path, &outcome, &notes, &mut status);
        if !status.failed {
            self.purge_late((resource, *catalog_index), path, Some(noop));
        }
        // What the resource passes on along its refresh edges, as Puppet's
        // event manager queues it: each of its own events (changes and
        // audits as real events, so a subscriber is refreshed when a
        // watched file changed behind the run's back; noop changes as noop
        // ones), then one event for the refresh it made or would have made
        // (`restarted` or `noop_restart`).
        let mut sent = Received::default();
        for event in &outcome.events {
            match event.status {
                EventStatus::Success | EventStatus::Audit => sent.events += 1,
                EventStatus::Noop => sent.noop_events += 1,
                EventStatus::Failure => {}
            }
        }
        // What it received is processed even when its own change failed
        // (a service that could not start is still told to restart, as
        // Puppet's event manager does); a failed resource's own events
        // are not queued, so they neither refresh it nor unschedule that.
        {
            let failed = outcome.failed.is_some();
            let mut received = self.received[node];
            let type_def = resource.type_def();
            // A type that refreshes itself (Puppet's `self_refresh`: the
            // mount type remounting) also receives its own events, unless
            // it is being removed. Puppet queues one of them per event
            // name, and a resource's events are named after their
            // properties, one each.
            if type_def.self_refresh && !deleting(resource) && !failed {
                received.events += sent.events;
                received.noop_events += sent.noop_events;
            }
            // A change such as starting a service makes the refresh it was
            // due pointless; Puppet says so whether one was due or not.
            let unscheduled = !failed && outcome.events.iter().any(|e| e.invalidate_refreshes);
            if unscheduled {
                self.logger.log(
                    Level::Info,
                    path,
                    &format!("Unscheduling refresh on {}", resource.reference()),
                );
            }
            // Puppet counts every event queued for the refresh, noop ones
            // too, whether it refreshes or only says it would have.
            let total = received.events + received.noop_events;
            if total > 0 && type_def.refreshable && !unscheduled {
                if noop || received.events == 0 {
                    self.logger.log(
                        Level::Notice,
                        path,
                        &format!(
                            "Would have triggered 'refresh' from {}",
                            plural(total, "event")
                        ),
                    );
                    sent.noop_events += 1;
                } else {
                    match self.session.refresh(resource) {
                        Ok(()) => {
                            self.logger.log(
                                Level::Notice,
                                path,
                                &format!("Triggered 'refresh' from {}", plural(total, "event")),
                            );
                            self.counts.restarted += 1;
                            sent.events += 1;
                        }
                        // A failed refresh passes nothing on. Puppet says
                        // so, then logs the error itself (without the
                        // resource's name, which the line has already);
                        // the resource has failed, with an event saying
                        // why, and its dependents are skipped.
                        Err(e) => {
                            let detail = match e {
                                RalError::Provider { message, .. } => message,
                                other => other.to_string(),
                            };
                            let message = format!("Failed to call refresh: {detail}");
                            self.logger.log(Level::Err, path, &message);
                            self.logger.log(Level::Err, path, &detail);
                            status.failed_to_restart = true;
                            self.counts.failed_to_restart += 1;
                            fail_with_event(&mut status, &mut self.counts, message);
                        }
                    }
                }
            }
        }
        status.evaluation_time = started.elapsed().as_secs_f64();
        match self.times.get_mut(resource.type_name()) {
            Some(seconds) => *seconds += status.evaluation_time,
            None => {
                self.times
                    .insert(resource.type_name().to_string(), status.evaluation_time);
            }
        }
        self.state[node] = if status.failed {
            State::Failed
        } else {
            State::Done
        };
        self.send(node, sent);
        self.statuses.insert(status.resource.clone(), status);
    }

    /// A recursive, purging directory is listed again when the run reaches
    /// it, as Puppet's `eval_generate` lists it only then: what earlier
    /// resources of the run put there (a package's files in apache's
    /// `sites-available`) and nothing manages is removed now, each entry
    /// a resource of its own, contained where the directory is. The
    /// entries there before the run were made resources with the catalog.
    /// So is a recursive directory with a source: the entries of a source
    /// an earlier resource made (openvpn's easy-rsa, from a package) are
    /// copied now. A recursive directory skipped for failed dependencies,
    /// purging or not, has every entry listed and skipped too (those it
    /// would leave alone included), as Puppet's generated children are.
    fn purge_late(&mut self, (directory, at): (&Resource, usize), path: &str, run: Option<bool>) {
        let entries = self.late_entries(directory, path, run.is_none());
        if entries.is_empty() {
            return;
        }
        let origin = (
            directory.origin().file.as_deref().map(Arc::from),
            directory.origin().line,
        );
        let late = entries.into_iter().map(|(entry, entry_path)| LateEntry {
            entry,
            path: entry_path,
            run,
            origin: origin.clone(),
        });
        // With entries made before the run, Puppet evaluates them all in
        // the order of their paths: each new one waits for its place among
        // them (see `late_before`).
        if self.graph.completes(at) {
            self.late.entry(at).or_default().extend(late);
        } else {
            for entry in late {
                self.evaluate_late(entry);
            }
        }
    }

    /// Evaluates the new entries of the directory at catalog position
    /// `generator` whose paths come before `title`, the next of its older
    /// entries (all of them with `None`, at the directory's completion).
    fn late_before(&mut self, generator: usize, title: Option<&str>) {
        let Some(pending) = self.late.get_mut(&generator) else {
            return;
        };
        let due: Vec<LateEntry> = match title {
            Some(title) => {
                let count = pending
                    .iter()
                    .take_while(|late| late.entry.title().as_bytes() < title.as_bytes())
                    .count();
                pending.drain(..count).collect()
            }
            None => pending.drain(..).collect(),
        };
        if pending.is_empty() {
            self.late.remove(&generator);
        }
        for entry in due {
            self.evaluate_late(entry);
        }
    }

    /// Removes (or, when its directory was skipped, skips) one new entry.
    fn evaluate_late(&mut self, late: LateEntry) {
        let LateEntry {
            entry,
            path: entry_path,
            run,
            origin,
        } = late;
        let started = Instant::now();
        let mut status = ResourceStatus::new(
            entry.shared_reference(),
            entry.shared_title(),
            entry.type_def().shared_reference_name().clone(),
            report::ContainmentPath(entry_path.clone()),
            origin,
            ["file".to_string()].into(),
        );
        self.counts.total += 1;
        match run {
            Some(noop) => {
                let outcome = self.session.evaluate(&entry, noop);
                self.record(
                    &entry,
                    &entry_path,
                    &outcome,
                    &AuditNotes::default(),
                    &mut status,
                );
            }
            None => {
                self.logger.log(
                    Level::Warning,
                    &entry_path,
                    "Skipping because of failed dependencies",
                );
                status.skipped = true;
                self.counts.skipped += 1;
            }
        }
        status.evaluation_time = started.elapsed().as_secs_f64();
        self.statuses.insert(status.resource.clone(), status);
    }

    /// Asks a generator's hook again while the run goes on, its messages
    /// under `path` (see [`Run::fill_late`] and [`Run::late_entries`]);
    /// `None` when its type has none. A panic in the hook is an error.
    fn generate_again(
        &self,
        generator: &Resource,
        path: &str,
        skipped: bool,
    ) -> Option<Result<Result<Vec<marionette_ral::Generated>, GenerateError>, String>> {
        let hook = generator.type_def().generate.clone()?;
        let resources = self.resources.clone();
        let managed = self
            .managed
            .get_or_init(|| managed_by(self.catalog, resources.iter()));
        let late = Late {
            managed,
            resources: &resources,
            logger: &self.logger,
            path,
            skipped,
        };
        Some(marionette_ral::attribute::guarded(
            "generate",
            "generate",
            || Ok(hook(generator, &late)),
        ))
    }

    /// Asks the generator of a type whose `eval_generate` fills in what its
    /// `generate` made again, now that the run reaches it, as Puppet asks
    /// `eval_generate` only then: concat's file takes its fragments'
    /// sources as earlier resources left them (openvpn's client
    /// certificates, made by an `exec`). What differs from what was made
    /// before the run is set on those resources, which come after their
    /// generator; a failure now replaces the one found before the run, and
    /// success clears it. While the run has changed nothing, what was made
    /// before it stands. Resources the hook did not make before the run
    /// are not added.
    fn fill_late(&mut self, generator: &Resource, at: usize) {
        if self.session.context().generation.current() == 0 {
            return;
        }
        let Some(asked) = self.generate_again(generator, &self.paths[at], false) else {
            return;
        };
        let made = match asked {
            Ok(Ok(made)) => {
                self.eval_generate_failures.remove(&at);
                made
            }
            Ok(Err(GenerateError::Incomplete(made, message))) => {
                self.eval_generate_failures.insert(at, message);
                made
            }
            Ok(Err(error)) => {
                self.eval_generate_failures.insert(at, error.to_string());
                return;
            }
            Err(panic) => {
                self.eval_generate_failures.insert(at, panic);
                return;
            }
        };
        let overrides = &self.session.context().overrides;
        for new in made
            .into_iter()
            .filter(|new| new.by != GeneratedBy::Generate)
        {
            let reference = format!("{}[{}]", capitalize_segments(&new.type_name), new.title);
            let Some(before) = self
                .resources
                .iter()
                .find(|r| r.reference_str() == reference)
            else {
                continue;
            };
            // Relationships (`require` on its generator) were made with the
            // run's graph and stay as they are.
            for (name, value) in new.params {
                if !marionette_ral::metaparams::is_metaparameter(&name)
                    && before.get(&name) != Some(&value)
                {
                    overrides.set(&reference, &name, value);
                }
            }
        }
    }

    /// The entries of a recursive, purging directory that nothing manages
    /// and that were not there before the run, as resources removing
    /// them, each with its containment path; of a recursive directory
    /// `skipped`, every entry nothing manages and the run has not made a
    /// resource of.
    fn late_entries(
        &mut self,
        directory: &Resource,
        path: &str,
        skipped: bool,
    ) -> Vec<(Resource, Arc<str>)> {
        // A source's entries are copied as the run finds them then: an
        // earlier resource may have made the source (openvpn's easy-rsa,
        // which a package installs).
        let sourced = directory.get("source").is_some();
        if directory.type_name() != "file"
            || (directory.get("purge") != Some(&Value::Boolean(true)) && !skipped && !sourced)
            || directory.get("recurse") != Some(&Value::Boolean(true))
        {
            return Vec::new();
        }
        // While the run has changed nothing, the directory and its source
        // hold what was listed with the catalog: converged runs walk each
        // tree once.
        if !skipped && self.session.context().generation.current() == 0 {
            return Vec::new();
        }
        let Some(Ok(Ok(generated))) = self.generate_again(directory, path, skipped) else {
            // Listing the directory again failed: what was listed before
            // the run stands.
            return Vec::new();
        };
        let container = path
            .strip_suffix(&format!("/{}", directory.reference()))
            .unwrap_or(path);
        let removing = |params: &[(String, Value)]| {
            params.iter().any(|(name, value)| {
                name == "ensure" && matches!(value, Value::String(text) if &**text == "absent")
            })
        };
        generated
            .into_iter()
            .filter(|new| skipped || sourced || removing(&new.params))
            .filter_map(|new| {
                let entry = Resource::new(
                    directory.type_def().clone(),
                    &new.title,
                    new.params,
                    // As the entries the run's generation made: no file or
                    // line (see `extend`).
                    marionette_ral::Origin::default(),
                )
                .ok()?;
                let entry_path: Arc<str> = format!("{container}/{}", entry.reference()).into();
                Some((entry, entry_path))
            })
            .collect()
    }

    /// The run's record of when resources were checked, read on first use.
    fn storage(&mut self) -> &mut crate::state::Storage {
        let (dir, logger) = (&self.options.state_dir, &self.logger);
        self.storage.get_or_insert_with(|| match dir {
            Some(dir) => {
                let (storage, problem) = crate::state::Storage::load(dir);
                if let Some(problem) = problem {
                    logger.log(Level::Warning, "", &problem);
                }
                storage
            }
            None => crate::state::Storage::default(),
        })
    }

    /// Whether a resource is due by the schedule it names.
    fn due(&mut self, resource: &Resource, name: &str) -> bool {
        if self.options.ignore_schedules {
            return true;
        }
        let previous = self.storage().checked(resource.reference_str());
        // Every name was found before the run (see `schedules`).
        self.schedules
            .get(name)
            .is_none_or(|schedule| schedule.due(previous, crate::state::now()))
    }

    /// Compares the audited properties' values (read before anything was
    /// changed) with those recorded by the last run, and records them for
    /// the next, as Puppet does: a changed property that the run synced
    /// says what was recorded; one it did not sync gets an audit event; one
    /// never recorded before gets a notice.
    fn audit(&mut self, resource: &Resource, outcome: &mut Outcome) -> AuditNotes {
        let mut notes = AuditNotes::default();
        if outcome.audited.is_empty() {
            return notes;
        }
        let reference = resource.reference_str();
        let audited = std::mem::take(&mut outcome.audited);
        for (property, current) in &audited {
            let Some(attr) = resource.type_def().attribute(property) else {
                continue;
            };
            let storage = self.storage();
            let recorded = storage
                .audited(reference, property)
                .map(marionette_catalog::from_data);
            storage.audit(reference, property, marionette_catalog::to_data(current));
            let Some(recorded) = recorded else {
                notes.recorded.push((
                    outcome.events.len(),
                    property.clone(),
                    format!(
                        "audit change: newly-recorded value {}",
                        if resource.is_sensitive(property) {
                            "[redacted]".to_string()
                        } else {
                            value_text(current)
                        }
                    ),
                ));
                notes.historical.push((property.clone(), None));
                continue;
            };
            notes
                .historical
                .push((property.clone(), Some(recorded.clone())));
            if recorded == *current {
                continue;
            }
            let was = marionette_ral::attribute::display_for(attr, resource, &recorded);
            match outcome.events.iter_mut().find(|e| e.property == *property) {
                Some(event) => {
                    event
                        .message
                        .push_str(&format!(" (previously recorded value was {was})"));
                }
                None => outcome.events.push(marionette_ral::Event {
                    property: property.clone(),
                    previous: current.clone(),
                    desired: Value::Undef,
                    message: format!(
                        "audit change: previously recorded value {was} has been changed to {}",
                        marionette_ral::attribute::display_for(attr, resource, current)
                    ),
                    status: EventStatus::Audit,
                    invalidate_refreshes: false,
                }),
            }
        }
        notes
    }

    /// Writes what the run recorded of its resources, if it recorded
    /// anything.
    fn store_state(&mut self) {
        if let Some(storage) = self.storage.take()
            && self.options.state_dir.is_some()
            && let Err(e) = storage.store(crate::state::now())
        {
            self.logger.log(
                Level::Warning,
                "",
                &format!("Could not write the state file: {e}"),
            );
        }
    }

    /// Lets providers apply what they deferred to the end of the run, and
    /// fails the resources whose changes were lost.
    fn post_evaluation(&mut self) {
        for (provider, failure) in self.session.finish() {
            if failure.resources.is_empty() {
                self.logger.log(
                    Level::Err,
                    &format!("Provider {}", provider.name),
                    &failure.message,
                );
                self.failed_after = true;
            }
            for reference in &failure.resources {
                self.fail_after(reference, &failure.message);
            }
        }
    }

    /// Marks a resource failed after its evaluation: its change was
    /// deferred and then not applied. The notices of its events were
    /// printed already and its dependents were evaluated as if it had
    /// succeeded (Puppet has the same limitation); the report at least
    /// tells the truth: its successful events become failures, and it
    /// counts as failed rather than changed.
    fn fail_after(&mut self, reference: &str, message: &str) {
        let Some(status) = self.statuses.get_mut(reference) else {
            self.logger.log(Level::Err, reference, message);
            self.failed_after = true;
            return;
        };
        let path = status.containment_path.0.clone();
        self.logger.log(
            Level::Err,
            &path,
            &format!("Could not apply the deferred change: {message}"),
        );
        for event in &mut status.events {
            if event.status != "success" {
                continue;
            }
            event.status = "failure".into();
            event.message = format!("{} (not applied: {message})", event.message);
            self.counts.events_success -= 1;
            self.counts.events_failure += 1;
            status.change_count -= 1;
            self.counts.changes -= 1;
        }
        if status.changed && status.change_count == 0 {
            status.changed = false;
            self.counts.changed -= 1;
        }
        if !status.failed {
            status.failed = true;
            self.counts.failed += 1;
        }
    }

    /// The name of a failed dependency as Puppet prints it: the resource,
    /// or the container of an anchor.
    fn dependency_name(&self, node: usize) -> String {
        self.graph.reference(node)
    }

    /// Logs an outcome and adds it to the resource's status and the counts.
    fn record(
        &mut self,
        resource: &Resource,
        path: &str,
        outcome: &Outcome,
        notes: &AuditNotes,
        status: &mut ResourceStatus,
    ) {
        status.provider_used = outcome.provider.clone();
        // Events are rare in a run that finds the system as it should be.
        let time = if outcome.events.is_empty() {
            String::new()
        } else {
            report::now_text()
        };
        // Exactly: a report entry is a few hundred bytes, and a vector
        // grown by pushing holds room for four, most of a first run's
        // memory when each of thousands of resources has one change.
        status.events.reserve_exact(outcome.events.len());
        let log_notes = |logger: &Logger, before: usize| {
            for (_, property, message) in notes.recorded.iter().filter(|(at, ..)| *at == before) {
                logger.log(Level::Notice, &format!("{path}/{property}"), message);
            }
        };
        for (index, event) in outcome.events.iter().enumerate() {
            log_notes(&self.logger, index);
            let source = format!("{path}/{}", event.property);
            let (level, status_name) = match event.status {
                EventStatus::Success => (Level::Notice, "success"),
                EventStatus::Noop => (Level::Notice, "noop"),
                EventStatus::Failure => (Level::Err, "failure"),
                EventStatus::Audit => (Level::Notice, "audit"),
            };
            self.logger.log(level, &source, &event.message);
            match event.status {
                EventStatus::Success => {
                    self.counts.events_success += 1;
                    status.change_count += 1;
                }
                EventStatus::Noop => self.counts.events_noop += 1,
                EventStatus::Failure => self.counts.events_failure += 1,
                EventStatus::Audit => self.counts.events_audit += 1,
            }
            // Puppet does not count an audit event as out of sync.
            if event.status != EventStatus::Audit {
                status.out_of_sync_count += 1;
            }
            let historical = notes
                .historical
                .iter()
                .find(|(name, _)| *name == event.property);
            let sensitive = resource.is_sensitive(&event.property)
                || resource
                    .type_def()
                    .attribute(&event.property)
                    .is_some_and(|a| a.sensitive);
            let reported = resource
                .type_def()
                .attribute(&event.property)
                .and_then(|a| a.report.clone());
            let data = |value: &marionette_values::Value| {
                if sensitive {
                    serde_json::Value::String("[redacted]".into())
                } else if let Some(report) = &reported
                    && !matches!(value, marionette_values::Value::Undef)
                    && !matches!(value, marionette_values::Value::String(s) if &**s == "absent")
                {
                    serde_json::Value::String(report(value))
                } else {
                    marionette_catalog::to_data(value)
                }
            };
            status.events.push(EventReport {
                audited: historical.is_some(),
                property: event.property.clone(),
                previous_value: data(&event.previous),
                desired_value: data(&event.desired),
                historical_value: match historical {
                    Some((_, Some(value))) => data(value),
                    _ => serde_json::Value::Null,
                },
                message: event.message.clone(),
                name: event_name(&status.resource_type, &event.property, &event.message),
                status: status_name.to_string(),
                time: time.clone(),
                redacted: sensitive.then_some(true),
                corrective_change: false,
            });
        }
        log_notes(&self.logger, outcome.events.len());
        for entry in &outcome.flush_logs {
            self.logger.log(entry.level, &entry.source, &entry.message);
        }
        if let Some(reason) = &outcome.failed
            && outcome
                .events
                .iter()
                .all(|e| e.status != EventStatus::Failure)
        {
            if outcome.skipped {
                self.logger.log(
                    Level::Warning,
                    path,
                    "Skipping because provider prefetch failed",
                );
            } else if outcome.worded {
                self.logger.log(Level::Err, path, reason);
            } else {
                self.logger
                    .log(Level::Err, path, &format!("Could not evaluate: {reason}"));
            }
        }
        status.failed = outcome.failed.is_some();
        if outcome.skipped {
            status.skipped = true;
            self.counts.skipped += 1;
        }
        status.changed = status.change_count > 0;
        status.out_of_sync = status.out_of_sync_count > 0;
        self.counts.changes += status.change_count;
        self.counts.failed += usize::from(status.failed);
        self.counts.changed += usize::from(status.changed);
        self.counts.out_of_sync += usize::from(status.out_of_sync);
    }

    fn finish(mut self, application: f64) -> Report {
        self.times.sort_keys();
        let total: f64 =
            self.times.values().sum::<f64>() + self.options.config_retrieval.unwrap_or(0.0);
        self.times.insert("catalog_application".into(), application);
        if let Some(seconds) = self.options.config_retrieval {
            self.times.insert("config_retrieval".into(), seconds);
        }
        self.times.insert("total".into(), total.max(application));
        let noop_pending = self.counts.events_noop > 0;
        let failures =
            self.counts.failed > 0 || self.counts.failed_to_restart > 0 || self.failed_after;
        let status = if failures || self.failed_to_generate {
            "failed"
        } else if self.counts.changed > 0 || self.counts.restarted > 0 {
            "changed"
        } else {
            "unchanged"
        };
        let logs = std::mem::take(&mut *self.logs.lock().unwrap_or_else(|e| e.into_inner()));
        let mut report = Report {
            host: self.options.host.clone(),
            time: report::now_text(),
            configuration_version: self.catalog.version,
            transaction_uuid: self.catalog.catalog_uuid.clone(),
            report_format: 12,
            puppet_version: format!("marionette {}", env!("CARGO_PKG_VERSION")),
            status: status.to_string(),
            transaction_completed: !self.interrupted,
            noop: self.options.noop,
            noop_pending,
            environment: self.catalog.environment.clone(),
            logs,
            metrics: serde_json::Value::Null,
            resource_statuses: self.statuses,
            corrective_change: false,
            cached_catalog_status: "not_used".into(),
            catalog_uuid: self.catalog.catalog_uuid.clone(),
            code_id: self.catalog.code_id.clone(),
            job_id: None,
            master_used: None,
            server_used: None,
            kind: "apply".into(),
            counts: self.counts,
            failures,
            times: self.times,
        };
        report.finish_metrics();
        report
    }
}

/// Puppet's event names: `file_created`, `file_removed`, `mode_changed`.
fn event_name(resource_type: &str, property: &str, message: &str) -> String {
    if property == "ensure" {
        let type_name = resource_type.to_ascii_lowercase();
        if message == "removed" {
            return format!("{type_name}_removed");
        }
        if message == "created" || message.starts_with("defined content") {
            return format!("{type_name}_created");
        }
    }
    format!("{property}_changed")
}

fn plural(count: usize, word: &str) -> String {
    if count == 1 {
        format!("1 {word}")
    } else {
        format!("{count} {word}s")
    }
}

fn level_name(level: Level) -> &'static str {
    match level {
        Level::Debug => "debug",
        Level::Info => "info",
        Level::Notice => "notice",
        Level::Warning => "warning",
        Level::Err => "err",
    }
}

/// Fails a resource after its changes were recorded, as Puppet's
/// `fail_with_event` does: a `resource_error` event of the resource
/// itself, out of sync, failed.
fn fail_with_event(status: &mut ResourceStatus, counts: &mut Counts, message: String) {
    status.events.push(EventReport {
        audited: false,
        property: String::new(),
        previous_value: serde_json::Value::Null,
        desired_value: serde_json::Value::Null,
        historical_value: serde_json::Value::Null,
        message,
        name: "resource_error".into(),
        status: "failure".into(),
        time: report::now_text(),
        redacted: None,
        corrective_change: false,
    });
    counts.events_failure += 1;
    status.out_of_sync_count += 1;
    if !status.out_of_sync {
        status.out_of_sync = true;
        counts.out_of_sync += 1;
    }
    if !status.failed {
        status.failed = true;
        counts.failed += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(resource: &str, attr: &str, message: &str) -> RalError {
        RalError::Attribute {
            resource: resource.into(),
            attr: attr.into(),
            message: message.into(),
            origin: marionette_ral::Origin {
                file: None,
                line: Some(1),
            },
        }
    }

    /// A reason many resources share is shown for the first three and
    /// counted after them; other reasons keep their places.
    #[test]
    fn a_shared_refusal_is_counted_after_its_first_three() {
        let mut errors: Vec<RalError> = (1..=6)
            .map(|i| refused(&format!("Notify[n{i}]"), "loglevel", "Invalid value \"x\"."))
            .collect();
        errors.insert(2, refused("File[/f]", "ensure", "Invalid value \"y\"."));
        errors.push(refused("File[/g]", "ensure", "Invalid value \"y\"."));
        assert_eq!(
            listed(&errors),
            [
                "Parameter loglevel failed on Notify[n1]: Invalid value \"x\". (line: 1)",
                "Parameter loglevel failed on Notify[n2]: Invalid value \"x\". (line: 1)",
                "Parameter ensure failed on File[/f]: Invalid value \"y\". (line: 1)",
                "Parameter loglevel failed on Notify[n3]: Invalid value \"x\". (line: 1)",
                "Parameter loglevel failed the same way on 3 more resources",
                "Parameter ensure failed on File[/g]: Invalid value \"y\". (line: 1)",
            ]
            .join("\n")
        );
        // Three or fewer: each its line, nothing counted.
        assert_eq!(listed(&errors[..3]).lines().count(), 3);
    }

    /// A generated resource comes after its generator, keeping what it
    /// requires, unless it names the generator itself (which would make
    /// a cycle with `before`).
    #[test]
    fn a_generated_resource_requires_its_generator_unless_it_names_it() {
        let made = |pairs: serde_json::Value| {
            let mut parameters = pairs.as_object().cloned().unwrap_or_default();
            require_generator(&mut parameters, "Concat_file[/x]");
            serde_json::Value::Object(parameters)
        };
        assert_eq!(
            made(serde_json::json!({"mode": "0600"})),
            serde_json::json!({"mode": "0600", "require": "Concat_file[/x]"})
        );
        assert_eq!(
            made(serde_json::json!({"require": "Package[p]"})),
            serde_json::json!({"require": ["Package[p]", "Concat_file[/x]"]})
        );
        assert_eq!(
            made(serde_json::json!({"require": ["Package[p]"]})),
            serde_json::json!({"require": ["Package[p]", "Concat_file[/x]"]})
        );
        let before = serde_json::json!({"before": ["Concat_file[/x]"]});
        assert_eq!(made(before.clone()), before);
    }
}

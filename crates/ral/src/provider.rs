//! Providers: how a type is managed on a platform.
//!
//! A [`ProviderDef`] declares a provider (its type, name, docs, parent,
//! shared source, required commands, confines, `defaultfor` facts and
//! features) and holds its implementation in one of two styles:
//!
//! - [`PropertyProvider`], Puppet's classic style: `exists`/`create`/
//!   `destroy`, a getter and setter per property, an optional `flush` after
//!   the setters, and `instances`/`prefetch` that fill a cached property
//!   hash. Every method has a default that reads or writes that hash (the
//!   equivalent of `mk_resource_methods`), so a prefetch/flush provider
//!   writes only `instances` and `flush`.
//! - [`BatchProvider`], the style of Puppet's Resource API: `get` returns
//!   current states and `set` receives is/should pairs. [`Crud`] adapts a
//!   simpler create/update/delete provider to it.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use indexmap::IndexMap;
use marionette_values::Value;

use crate::command::{CommandError, CommandSpec, Output, Runner};
use crate::error::ProviderError;
use crate::log::Logger;
use crate::resource::Resource;

/// Attribute values as a provider sees them: the namevar under its own
/// name, `ensure`, and one entry per property.
pub type PropertyHash = IndexMap<String, Value>;

/// Facts as plain data, legacy names included.
pub type Facts = serde_json::Map<String, serde_json::Value>;

/// What a provider may use: facts, the command runner, a logger, and a
/// read-only view of the other resources in the run.
#[derive(Clone, Default)]
pub struct Context {
    pub facts: Arc<Facts>,
    pub runner: Runner,
    pub logger: Logger,
    pub catalog: Arc<[Resource]>,
    /// Where file contents are saved before they are changed or removed;
    /// `None` when the run keeps no backups.
    pub filebucket: Option<crate::filebucket::Filebucket>,
    /// The server's bucket, for `filebucket` resources with `path =>
    /// false`; `None` when the run has no server (`apply`).
    pub remote_filebucket: Option<crate::filebucket::Filebucket>,
    /// Whether content changes are shown as diffs (`--show_diff`).
    pub show_diff: bool,
    /// Whether the whole run is a rehearsal (`--noop`). Providers that
    /// read the system differently then ask it: `file_line` takes a
    /// missing file for an empty one in noop, as Puppet does, and fails
    /// otherwise. A resource's own `noop` is `Resource::noop`.
    pub noop: bool,
    /// Where providers may keep what they learn about the system from one
    /// run to the next (the file provider's checksums); `None` when they
    /// keep nothing, as outside runs.
    pub state_dir: Option<std::path::PathBuf>,
    /// Parameters that scope a listing (`marionette resource dns_resource
    /// zone=example.com`): what `instances` needs to know that the system
    /// cannot tell it, such as which server and zone to list. Empty in runs.
    pub listing: PropertyHash,
    /// How often the run has changed the system so far.
    pub generation: ChangeCount,
    /// Parameters providers set on other resources of the run.
    pub overrides: Overrides,
    /// The run's types and providers, for a module's Ruby that drives a
    /// core type's provider itself (rabbitmq stops its service through
    /// `Puppet::Type.type(:service).new(...).provider.stop`); `None`
    /// outside a run.
    pub registry: Option<Arc<crate::Registry>>,
    /// What a provider's flush logged as it wrote a resource's changes,
    /// held until those changes' own messages are logged: Puppet logs
    /// each change as its property syncs and flushes after them all (a
    /// Resource API provider's "Creating: ..." follows "defined 'ensure'
    /// as 'present'"). Taken into [`crate::Outcome::flush_logs`] when the
    /// resource's evaluation ends; shared by every copy of a run's
    /// context.
    pub flush_logs: crate::log::Logger,
}

/// Parameters a provider set on another resource of the run, which that
/// resource takes when it is evaluated: datacat's collector gives its
/// file the content it rendered, as a Puppet type may set any resource of
/// the catalog it applies. Shared by every copy of a run's [`Context`].
#[derive(Clone, Debug, Default)]
pub struct Overrides(Arc<std::sync::Mutex<Vec<(String, String, Value)>>>);

impl Overrides {
    /// Sets `name` of the resource `reference` (`File[/etc/x]`) to `value`.
    pub fn set(&self, reference: &str, name: &str, value: Value) {
        let mut set = self.0.lock().unwrap_or_else(|e| e.into_inner());
        set.retain(|(r, n, _)| !(r == reference && n == name));
        set.push((reference.to_string(), name.to_string(), value));
    }

    /// What was set on the resource `reference`, taken away.
    pub fn take(&self, reference: &str) -> Vec<(String, Value)> {
        let mut set = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if set.is_empty() {
            return Vec::new();
        }
        let (taken, kept) = std::mem::take(&mut *set)
            .into_iter()
            .partition::<Vec<_>, _>(|(r, _, _)| r == reference);
        *set = kept;
        taken.into_iter().map(|(_, n, v)| (n, v)).collect()
    }
}

/// A count of the changes a run made to the system, shared by every copy
/// of its [`Context`]. A provider that looked at the system ahead of time
/// (on another thread, or in one pass for many resources) may use what it
/// saw only while the count is the one it started from: any change since,
/// by any resource, may have made it stale.
#[derive(Clone, Debug, Default)]
pub struct ChangeCount(Arc<AtomicU64>);

impl ChangeCount {
    /// The number of changes so far.
    pub fn current(&self) -> u64 {
        self.0.load(Ordering::Acquire)
    }

    /// Records that the system changed, or may have.
    pub fn advance(&self) {
        self.0.fetch_add(1, Ordering::AcqRel);
    }

    /// Whether two handles count the changes of the same run.
    pub fn same_run(&self, other: &ChangeCount) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Context {
    pub fn new(facts: Arc<Facts>, logger: Logger) -> Context {
        Context {
            facts,
            runner: Runner::new(logger.clone()),
            logger,
            catalog: Arc::from(Vec::new()),
            filebucket: None,
            remote_filebucket: None,
            show_diff: false,
            noop: false,
            state_dir: None,
            listing: PropertyHash::new(),
            generation: ChangeCount::default(),
            overrides: Overrides::default(),
            registry: None,
            flush_logs: Logger::default(),
        }
    }

    /// Runs a command through the runner.
    pub fn run(&self, spec: &CommandSpec) -> Result<Output, CommandError> {
        self.runner.run(spec)
    }

    /// Runs `argv` and returns its standard output; a non-zero exit is an
    /// error.
    pub fn output<S: AsRef<str>>(&self, argv: &[S]) -> Result<String, ProviderError> {
        Ok(self.runner.run(&CommandSpec::new(argv))?.stdout)
    }

    /// Another resource of the run, by type and title.
    pub fn find(&self, type_name: &str, title: &str) -> Option<&Resource> {
        self.catalog
            .iter()
            .find(|r| r.type_name() == type_name && r.title() == title)
    }

    /// A fact as text, by legacy name or dotted path (`os.family`).
    pub fn fact(&self, name: &str) -> Option<String> {
        fact_text(&self.facts, name)
    }
}

/// A fact's value as text: a top-level name, or a dotted path into
/// structured facts.
pub fn fact_text(facts: &Facts, name: &str) -> Option<String> {
    let mut parts = name.split('.');
    let mut current = facts.get(parts.next()?)?;
    for part in parts {
        current = current.get(part)?;
    }
    Some(match current {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    })
}

/// One resource as a classic provider manages it: the resource and the
/// property hash that `prefetch` filled and setters update.
pub struct Instance<'a> {
    pub resource: &'a Resource,
    pub property_hash: PropertyHash,
}

impl Instance<'_> {
    /// The desired value of an attribute.
    pub fn should(&self, attr: &str) -> Option<&Value> {
        self.resource.get(attr)
    }

    /// Whether the property hash says the thing exists.
    pub fn present_in_hash(&self) -> bool {
        match self.property_hash.get("ensure") {
            None => false,
            Some(Value::String(s)) => &**s != "absent" && &**s != "purged",
            Some(_) => true,
        }
    }
}

/// `ensure`'s current value from whether the thing exists: `present` or
/// `absent`.
pub fn presence(exists: bool) -> Value {
    if exists { present() } else { absent() }
}

fn present() -> Value {
    Value::String("present".into())
}

fn absent() -> Value {
    Value::String("absent".into())
}

/// Puppet's classic provider interface. Every method has a default that
/// works on the property hash, so a provider implements only what it
/// needs.
pub trait PropertyProvider: Send + Sync {
    /// Every instance on the system, each a property hash with the namevar
    /// and `ensure` (Puppet's `self.instances`). `Err` when the system
    /// cannot be listed.
    fn instances(&self, cx: &Context) -> Result<Vec<PropertyHash>, ProviderError> {
        let _ = cx;
        Err(ProviderError::unsupported("instances"))
    }

    /// Whether the run may call `get` (and `exists`) for this provider's
    /// resources on other threads, before they are evaluated and before
    /// the prefetch, to find out ahead of time which are in sync (see
    /// [`Session::plan`](crate::sync::Session::plan)). Only
    /// for providers whose reads need nothing from the prefetch, change
    /// nothing, log nothing and may run concurrently. The default is no.
    fn reads_ahead(&self) -> bool {
        false
    }

    /// Makes what the provider keeps of each of the run's resources it
    /// manages, before any resource is evaluated: Puppet makes every
    /// resource's provider instance when the catalog becomes its run, so
    /// what a provider's constructor logs (reboot's deprecated `linux`)
    /// comes before the run's changes. A failure here is the resource's
    /// own when it is evaluated. The default keeps nothing.
    fn instantiate(&self, _cx: &Context, _resources: &[&Resource]) {}

    /// Fills the property hashes of the resources about to be managed, in
    /// one pass (Puppet's `self.prefetch`). The default matches
    /// `instances` by name and marks the others absent.
    fn prefetch(&self, cx: &Context, instances: &mut [Instance<'_>]) -> Result<(), ProviderError> {
        let found = match self.instances(cx) {
            Ok(found) => found,
            Err(_) => return Ok(()),
        };
        for instance in instances {
            instance.property_hash = found
                .iter()
                .find(|hash| instance.resource.matches(hash))
                .cloned()
                .unwrap_or_else(|| PropertyHash::from([("ensure".to_string(), absent())]));
        }
        Ok(())
    }

    /// Whether the managed thing exists. The default reads the property
    /// hash.
    fn exists(&self, cx: &Context, instance: &Instance<'_>) -> Result<bool, ProviderError> {
        let _ = cx;
        Ok(instance.present_in_hash())
    }

    /// Creates the thing with the resource's desired values. The default
    /// records `ensure => present` for `flush` to act on.
    fn create(&self, cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        let _ = cx;
        instance.property_hash.insert("ensure".into(), present());
        Ok(())
    }

    /// Removes the thing. The default records `ensure => absent` for
    /// `flush`.
    fn destroy(&self, cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        let _ = cx;
        instance.property_hash.insert("ensure".into(), absent());
        Ok(())
    }

    /// The current value of a property; `None` when it has none. The
    /// default answers `ensure` through `exists` and reads other
    /// properties from the property hash.
    fn get(
        &self,
        cx: &Context,
        instance: &Instance<'_>,
        attr: &str,
    ) -> Result<Option<Value>, ProviderError> {
        if attr == "ensure" {
            return Ok(Some(presence(self.exists(cx, instance)?)));
        }
        Ok(instance.property_hash.get(attr).cloned())
    }

    /// Changes a property. The default records the value in the property
    /// hash for `flush`.
    fn set(
        &self,
        cx: &Context,
        instance: &mut Instance<'_>,
        attr: &str,
        value: &Value,
    ) -> Result<(), ProviderError> {
        let _ = cx;
        instance
            .property_hash
            .insert(attr.to_string(), value.clone());
        Ok(())
    }

    /// Persists what the setters recorded, once per resource after them.
    fn flush(&self, cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        let _ = (cx, instance);
        Ok(())
    }

    /// Reacts to a refresh event (a service restarts).
    fn refresh(&self, cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        let _ = (cx, instance);
        Ok(())
    }

    /// What the provider's own code now wants of `property`, when it
    /// changed that while reading the thing (a module's provider setting
    /// `resource[:ensure]` in `exists?`); `None` when the resource's value
    /// stands.
    fn wanted(&self, _cx: &Context, _instance: &Instance<'_>, _property: &str) -> Option<Value> {
        None
    }

    /// In a noop run, shows what setting `property` to `desired` would do
    /// beyond the change's own message (a file's content diff, with
    /// `--show_diff`). Nothing by default; it must change nothing.
    fn preview(&self, cx: &Context, instance: &Instance<'_>, property: &str, desired: &Value) {
        let _ = (cx, instance, property, desired);
    }

    /// Runs once after every resource of the run has been evaluated
    /// (Puppet's `post_resource_eval`), for providers that batch: their
    /// `flush` records each resource's change, and this applies them all
    /// in one request. Nothing is recorded in noop, since `flush` does not
    /// run then.
    ///
    /// The resources were reported as changed when they were evaluated, and
    /// their dependents saw that; a failure here cannot undo it. Each
    /// failure names the resources whose changes it lost, so that the run
    /// can mark them failed in the report.
    fn post_resource_eval(&self, cx: &Context) -> Result<(), Vec<DeferredFailure>> {
        let _ = cx;
        Ok(())
    }

    /// Whether the provider stages the files it edits
    /// ([`crate::parsedfile::stage`]) instead of writing them: the session
    /// writes staged files before it evaluates a resource of a provider
    /// that does not, and when it ends.
    fn stages_files(&self) -> bool {
        false
    }
}

/// Changes a provider deferred to the end of the run that could not be
/// applied: the resources they belonged to (references such as
/// `Dnsrr[www.example.com]`; empty when no resource can be blamed) and
/// why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeferredFailure {
    pub resources: Vec<String>,
    pub message: String,
}

/// The namevar of a property hash: `name`, or the single text value
/// `title` when a provider keys by title.
pub fn hash_name(hash: &PropertyHash) -> Option<String> {
    hash.get("name")
        .or_else(|| hash.get("title"))
        .map(crate::attribute::value_text)
}

/// A requested change for a batch provider: the current state (`ensure`
/// absent when the thing does not exist) and the desired one.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    pub name: String,
    /// The resource's reference (`Kv_entry[/etc/app.ini:port]`), for
    /// messages and for failures reported after the fact.
    pub resource: String,
    pub is: PropertyHash,
    pub should: PropertyHash,
    /// The parameters the resource gives (not properties: those are in
    /// `should`), for providers that need them to act.
    pub parameters: PropertyHash,
    /// The attributes whose values are sensitive, in `should` and
    /// `parameters` alike.
    pub sensitive: Vec<String>,
}

/// The Resource API style: states in, changes out, in batches.
pub trait BatchProvider: Send + Sync {
    /// Current states: of everything (`wanted` is `None`), or of the given
    /// resources when [`BatchProvider::simple_get_filter`] is true (each
    /// resource tells its whole identity, which its title need not spell).
    /// Missing things are simply absent from the result.
    fn get(
        &self,
        cx: &Context,
        wanted: Option<&[&Resource]>,
    ) -> Result<Vec<PropertyHash>, ProviderError>;

    /// Applies changes; one result per change, in order. Called with
    /// `noop` only when [`BatchProvider::supports_noop`] is true.
    fn set(
        &self,
        cx: &Context,
        changes: &[Change],
        noop: bool,
    ) -> Result<Vec<Result<(), String>>, ProviderError>;

    /// Brings desired states into the form `get` returns, so comparing
    /// them is meaningful (case, trailing dots, defaults).
    fn canonicalize(&self, cx: &Context, states: &mut [PropertyHash]) -> Result<(), ProviderError> {
        let _ = (cx, states);
        Ok(())
    }

    /// Whether `get` can filter by name itself.
    fn simple_get_filter(&self) -> bool {
        false
    }

    /// Whether `set` can report what it would do without doing it.
    fn supports_noop(&self) -> bool {
        false
    }

    /// Runs once after every resource of the run has been evaluated, like
    /// [`PropertyProvider::post_resource_eval`]: a provider whose `set`
    /// only recorded changes applies them here, together.
    fn post_resource_eval(&self, cx: &Context) -> Result<(), Vec<DeferredFailure>> {
        let _ = cx;
        Ok(())
    }
}

/// A create/update/delete provider, adapted to the batch style by [`Crud`].
pub trait CrudProvider: Send + Sync {
    fn get(
        &self,
        cx: &Context,
        names: Option<&[String]>,
    ) -> Result<Vec<PropertyHash>, ProviderError>;
    fn create(&self, cx: &Context, name: &str, should: &PropertyHash) -> Result<(), ProviderError>;
    fn update(&self, cx: &Context, name: &str, should: &PropertyHash) -> Result<(), ProviderError>;
    /// Removes the thing; `is` is its current state, with every identity
    /// attribute (a composite identity needs more than the name).
    fn delete(&self, cx: &Context, name: &str, is: &PropertyHash) -> Result<(), ProviderError>;
    fn canonicalize(&self, cx: &Context, states: &mut [PropertyHash]) -> Result<(), ProviderError> {
        let _ = (cx, states);
        Ok(())
    }
    fn simple_get_filter(&self) -> bool {
        false
    }
}

/// Adapts a [`CrudProvider`]: each change becomes a create, an update or a
/// delete by its ensure values.
pub struct Crud<T>(pub T);

impl<T: CrudProvider> BatchProvider for Crud<T> {
    fn get(
        &self,
        cx: &Context,
        wanted: Option<&[&Resource]>,
    ) -> Result<Vec<PropertyHash>, ProviderError> {
        let names: Option<Vec<String>> =
            wanted.map(|resources| resources.iter().map(|r| r.provider_name()).collect());
        self.0.get(cx, names.as_deref())
    }

    fn set(
        &self,
        cx: &Context,
        changes: &[Change],
        _noop: bool,
    ) -> Result<Vec<Result<(), String>>, ProviderError> {
        Ok(changes
            .iter()
            .map(|change| {
                let exists = is_present(change.is.get("ensure"));
                let wanted = is_present(change.should.get("ensure"));
                let result = match (exists, wanted) {
                    (false, true) => self.0.create(cx, &change.name, &change.should),
                    (true, false) => self.0.delete(cx, &change.name, &change.is),
                    (true, true) => self.0.update(cx, &change.name, &change.should),
                    (false, false) => Ok(()),
                };
                result.map_err(|e| e.0)
            })
            .collect())
    }

    fn canonicalize(&self, cx: &Context, states: &mut [PropertyHash]) -> Result<(), ProviderError> {
        self.0.canonicalize(cx, states)
    }

    fn simple_get_filter(&self) -> bool {
        self.0.simple_get_filter()
    }
}

/// Whether an `ensure` value means the thing exists (a missing `ensure`
/// counts as present: a state that lists the thing says it exists).
pub fn is_present(ensure: Option<&Value>) -> bool {
    match ensure {
        None => true,
        Some(Value::String(s)) => !matches!(&**s, "absent" | "purged"),
        Some(_) => true,
    }
}

/// A provider's implementation.
#[derive(Clone)]
pub enum Implementation {
    Properties(Arc<dyn PropertyProvider>),
    Batch(Arc<dyn BatchProvider>),
}

/// A confine: one condition for a provider to be suitable.
#[derive(Clone)]
pub enum Confine {
    /// The file must exist.
    Exists(PathBuf),
    /// A check that must hold, with a description for the debug log.
    True(String, Arc<dyn Fn() -> bool + Send + Sync>),
    /// A check that must not hold.
    False(String, Arc<dyn Fn() -> bool + Send + Sync>),
    /// The fact must equal one of the values, case-insensitively.
    Fact { name: String, values: Vec<String> },
    /// A system feature (`posix`, `root`) must be present.
    Feature(String),
    /// Never suitable, for the reason given: a provider that could not be
    /// loaded stays listed, so that choosing it says why it cannot work.
    Broken(String),
}

/// A provider declaration.
#[derive(Clone)]
pub struct ProviderDef {
    pub type_name: String,
    pub name: String,
    pub doc: String,
    /// The provider this one extends (for docs and inherited declarations).
    pub parent: Option<String>,
    /// Providers with the same source list the same things: `instances`
    /// asks only the first suitable one.
    pub source: String,
    /// `(name, program)`: the program is an absolute path that must exist,
    /// or a name searched on `PATH`.
    pub commands: Vec<(String, String)>,
    /// `(name, program)` of commands the provider uses when they are
    /// there (Puppet's `optional_commands`): documented, never required.
    pub optional_commands: Vec<(String, String)>,
    pub confines: Vec<Confine>,
    /// Each entry is a set of facts that must all match; the provider is a
    /// default where any entry matches.
    pub defaultfor: Vec<Vec<(String, Vec<String>)>>,
    /// Features declared outright (`has_feature`).
    pub features: Vec<String>,
    /// Optional methods the provider implements, for features defined by
    /// methods.
    pub methods: Vec<String>,
    /// A stand-in for types that manage themselves (no providers to
    /// document or choose between).
    pub implicit: bool,
    /// Its prefetch only reads ahead what each resource would read at its
    /// turn (a Ruby Resource API provider's `get`: Puppet's Resource API
    /// has no prefetch). When it fails, nothing is said and no resource
    /// is skipped: each reads its own state, and fails with that error.
    pub reads_ahead: bool,
    pub implementation: Implementation,
}

impl ProviderDef {
    pub fn new(type_name: &str, name: &str, implementation: Implementation) -> ProviderDef {
        ProviderDef {
            type_name: type_name.to_string(),
            name: name.to_string(),
            doc: String::new(),
            parent: None,
            source: name.to_string(),
            commands: Vec::new(),
            optional_commands: Vec::new(),
            confines: Vec::new(),
            defaultfor: Vec::new(),
            features: Vec::new(),
            methods: Vec::new(),
            implicit: false,
            reads_ahead: false,
            implementation,
        }
    }

    /// The facts the provider's suitability reads: its `confine` facts
    /// and those of its `defaultfor` entries.
    pub fn fact_names(&self) -> impl Iterator<Item = &str> {
        let confined = self.confines.iter().filter_map(|confine| match confine {
            Confine::Fact { name, .. } => Some(name.as_str()),
            _ => None,
        });
        let defaults = self
            .defaultfor
            .iter()
            .flatten()
            .map(|(name, _)| name.as_str());
        confined.chain(defaults)
    }

    /// A classic provider.
    pub fn properties(
        type_name: &str,
        name: &str,
        provider: impl PropertyProvider + 'static,
    ) -> ProviderDef {
        ProviderDef::new(
            type_name,
            name,
            Implementation::Properties(Arc::new(provider)),
        )
    }

    /// A batch (Resource API) provider.
    pub fn batch(
        type_name: &str,
        name: &str,
        provider: impl BatchProvider + 'static,
    ) -> ProviderDef {
        ProviderDef::new(type_name, name, Implementation::Batch(Arc::new(provider)))
    }

    /// A provider that extends `parent`: it inherits its commands, confines,
    /// features, methods and source, and names it as parent.
    pub fn child_of(
        parent: &ProviderDef,
        name: &str,
        implementation: Implementation,
    ) -> ProviderDef {
        ProviderDef {
            name: name.to_string(),
            doc: String::new(),
            parent: Some(parent.name.clone()),
            defaultfor: Vec::new(),
            implicit: false,
            implementation,
            ..parent.clone()
        }
    }

    pub fn doc(mut self, doc: &str) -> ProviderDef {
        self.doc = crate::typedef::trim_doc(doc);
        self
    }

    pub fn command(mut self, name: &str, program: &str) -> ProviderDef {
        self.commands.push((name.to_string(), program.to_string()));
        self
    }

    pub fn confine(mut self, confine: Confine) -> ProviderDef {
        self.confines.push(confine);
        self
    }

    pub fn confine_fact(self, name: &str, values: &[&str]) -> ProviderDef {
        self.confine(Confine::Fact {
            name: name.to_string(),
            values: values.iter().map(|v| v.to_string()).collect(),
        })
    }

    pub fn defaultfor(mut self, facts: &[(&str, &[&str])]) -> ProviderDef {
        self.defaultfor.push(
            facts
                .iter()
                .map(|(fact, values)| {
                    (
                        fact.to_string(),
                        values.iter().map(|v| v.to_string()).collect(),
                    )
                })
                .collect(),
        );
        self
    }

    pub fn has_features(mut self, features: &[&str]) -> ProviderDef {
        self.features.extend(features.iter().map(|f| f.to_string()));
        self
    }

    pub fn methods(mut self, methods: &[&str]) -> ProviderDef {
        self.methods.extend(methods.iter().map(|m| m.to_string()));
        self
    }

    pub fn source(mut self, source: &str) -> ProviderDef {
        self.source = source.to_string();
        self
    }

    pub fn implicit(mut self) -> ProviderDef {
        self.implicit = true;
        self
    }

    /// The path of one of the provider's commands, when it is installed.
    pub fn command_path(&self, name: &str) -> Option<PathBuf> {
        let program = self
            .commands
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, p)| p.as_str())
            .unwrap_or(name);
        crate::command::which(program)
    }

    /// Whether the provider has a feature of `type_def`: declared, or
    /// implied by implementing every method the feature lists.
    pub fn has_feature(&self, type_def: &crate::typedef::TypeDef, feature: &str) -> bool {
        if self.features.iter().any(|f| f == feature) {
            return true;
        }
        type_def.feature_def(feature).is_some_and(|def| {
            !def.methods.is_empty() && def.methods.iter().all(|m| self.methods.contains(m))
        })
    }

    /// Every feature of `type_def` this provider has.
    pub fn feature_list(&self, type_def: &crate::typedef::TypeDef) -> Vec<String> {
        type_def
            .features
            .iter()
            .filter(|f| self.has_feature(type_def, &f.name))
            .map(|f| f.name.clone())
            .collect()
    }
}

impl std::fmt::Debug for ProviderDef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProviderDef")
            .field("type_name", &self.type_name)
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_parameter_set_on_another_resource_is_taken_once_by_that_resource() {
        let overrides = Overrides::default();
        let shared = overrides.clone();
        shared.set("File[/a]", "content", Value::string("first"));
        shared.set("File[/b]", "mode", Value::string("0600"));
        shared.set("File[/a]", "content", Value::string("second"));
        assert_eq!(
            overrides.take("File[/a]"),
            vec![("content".to_string(), Value::string("second"))]
        );
        assert!(overrides.take("File[/a]").is_empty());
        assert_eq!(overrides.take("File[/b]").len(), 1);
    }
}

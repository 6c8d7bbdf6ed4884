//! Bringing one resource in line: retrieve its current state through the
//! provider, compare each property in declaration order, sync what
//! differs, flush, and record an event per change. The transaction calls
//! this for each resource in graph order; `marionette resource` calls it
//! for one.
//!
//! Rules kept from Puppet: when `ensure` is out of sync only `ensure` is
//! synced (creating a thing sets its properties); `flush` runs once after
//! the setters; a create-only property that differs on an existing thing is
//! an error, not a change; in noop nothing is changed and each difference
//! is reported as `current_value X, should be Y (noop)`.
//!
//! After the last resource, [`Session::finish`] lets providers that batch
//! apply what their `flush` deferred (Puppet's `post_resource_eval`).

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use indexmap::IndexMap;
use marionette_values::Value;

use crate::attribute::{change_message, display_for, insync, sync_value};
use crate::error::{ProviderError, RalError};
use crate::log::Logger;
use crate::provider::{
    BatchProvider, Change, Context, DeferredFailure, Facts, Implementation, Instance, PropertyHash,
    PropertyProvider, ProviderDef, hash_name,
};
use crate::registry::Registry;
use crate::resource::{Resource, hash_identity};
use crate::select::Selector;
use crate::typedef::{AttrDef, AttrKind};

/// What happened to one property.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventStatus {
    Success,
    Noop,
    Failure,
    /// An audited property found changed since the last run recorded it
    /// (see the `audit` metaparameter); nothing was changed.
    Audit,
}

/// One property change (or would-be change, or failed change).
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    pub property: String,
    pub previous: Value,
    pub desired: Value,
    pub message: String,
    pub status: EventStatus,
    /// The change cancels the resource's pending refresh (a service that
    /// was just started is not restarted as well).
    pub invalidate_refreshes: bool,
}

/// The result of evaluating one resource.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outcome {
    /// The resource's reference, shared with it.
    pub resource: Arc<str>,
    pub provider: Option<String>,
    pub events: Vec<Event>,
    /// Why the resource failed, if it did.
    pub failed: Option<String>,
    /// The failure is a whole sentence of Puppet's, logged as it is
    /// rather than after "Could not evaluate:".
    pub worded: bool,
    /// Failed without being evaluated, because its provider's prefetch
    /// failed: Puppet warns "Skipping because provider prefetch failed".
    pub skipped: bool,
    /// The values the properties asked for by
    /// [`Session::evaluate_audited`] had before anything was changed.
    pub audited: Vec<(String, Value)>,
    /// What the provider's flush logged, to be logged after the events
    /// (see [`crate::Context::flush_logs`]).
    pub flush_logs: Vec<crate::log::Entry>,
}

impl Outcome {
    /// Whether anything was changed on the system.
    pub fn changed(&self) -> bool {
        self.events.iter().any(|e| e.status == EventStatus::Success)
    }

    /// Whether anything would change (or did).
    pub fn out_of_sync(&self) -> bool {
        self.events
            .iter()
            .any(|e| !matches!(e.status, EventStatus::Failure | EventStatus::Audit))
    }
}

/// A run's view of the resource layer: the selector, the provider context
/// and what prefetching found.
pub struct Session {
    selector: Selector,
    cx: Context,
    /// Providers (`type/name`) already prefetched.
    prefetched: HashSet<String>,
    /// Providers whose prefetch failed: as in Puppet, their resources
    /// fail without being evaluated, for the rest of the run.
    prefetch_failed: HashSet<String>,
    /// Property hashes from prefetching, by resource reference.
    hashes: HashMap<String, PropertyHash>,
    /// Batch providers' current states, by provider.
    states: HashMap<String, Prefetched>,
    /// Resources of the catalog (by position) waiting for their provider's
    /// prefetch, by provider.
    deferred: HashMap<String, Vec<usize>>,
    /// Providers that evaluated a resource since the last
    /// [`Session::finish`], in the order first used.
    used: IndexMap<String, Arc<ProviderDef>>,
    /// Resources checked ahead of their evaluation.
    ahead: Option<Arc<crate::ahead::Ahead>>,
    /// The provider of the last resource evaluated, which is in `used`
    /// and `prefetched`; cleared whenever either loses a provider.
    settled: Option<Arc<ProviderDef>>,
    /// The last provider that staged files (see
    /// [`PropertyProvider::stages_files`]), and the failures of writing
    /// staged files so far, reported by [`Session::finish`].
    staging: Option<Arc<ProviderDef>>,
    staged_failures: Vec<(Arc<ProviderDef>, crate::provider::DeferredFailure)>,
}

impl Drop for Session {
    /// Whatever providers read ahead (see [`Session::plan`]) is
    /// stale once the session is gone, finished or not: a run that stops
    /// early (a dependency cycle) must not leave readers behind; and the
    /// files providers replaced are synced to disk.
    fn drop(&mut self) {
        self.cx.generation.advance();
        // A session that ends without `finish` still writes what was
        // staged; there is no one left to tell of a failure.
        let _ = crate::parsedfile::write_staged();
        // What providers replaced and left to sync reaches the disk now.
        crate::parsedfile::sync_written();
    }
}

/// What a batch provider's prefetch found, by identity, and what it was
/// asked about: a resource it was asked about and did not report does not
/// exist, with no need to ask again.
struct Prefetched {
    found: HashMap<Vec<String>, PropertyHash>,
    /// `None` when the provider listed everything.
    asked: Option<HashSet<Vec<String>>>,
}

/// `ensure` and its desired value, when the resource's type is ensurable
/// and the resource manages it.
fn managed_ensure(resource: &Resource) -> Option<(&AttrDef, &Value)> {
    let type_def = resource.type_def();
    if !type_def.ensurable {
        return None;
    }
    Some((type_def.attribute("ensure")?, resource.get("ensure")?))
}

/// A property's current value, and whether it is in sync.
fn property_state(
    provider: &dyn PropertyProvider,
    cx: &Context,
    instance: &Instance<'_>,
    attr: &AttrDef,
    desired: &Value,
) -> Result<(Value, bool), ProviderError> {
    let current = provider
        .get(cx, instance, &attr.name)?
        .unwrap_or_else(absent);
    let in_sync = insync(attr, instance.resource, &current, desired);
    Ok((current, in_sync))
}

/// `ensure`'s current value and whether it is in sync, compared with what
/// the provider's own code wants of it now when it changed that while
/// reading (see [`PropertyProvider::wanted`]), which is returned too.
fn ensure_state(
    provider: &dyn PropertyProvider,
    cx: &Context,
    instance: &Instance<'_>,
    attr: &AttrDef,
    desired: &Value,
) -> Result<(Value, bool, Option<Value>), ProviderError> {
    let (current, in_sync) = property_state(provider, cx, instance, attr, desired)?;
    Ok(match provider.wanted(cx, instance, "ensure") {
        Some(wanted) => {
            let in_sync = insync(attr, instance.resource, &current, &wanted);
            (current, in_sync, Some(wanted))
        }
        None => (current, in_sync, None),
    })
}

/// Whether a resource is in sync, read and compared as
/// [`Session::evaluate`] does before it changes anything: `ensure` first
/// (a resource found absent as it should be has nothing more to compare),
/// then every other managed property. Changes nothing.
pub(crate) fn in_sync(
    provider: &dyn PropertyProvider,
    cx: &Context,
    instance: &Instance<'_>,
) -> Result<bool, ProviderError> {
    let resource = instance.resource;
    if let Some((attr, desired)) = managed_ensure(resource) {
        let (current, in_sync, wanted) = ensure_state(provider, cx, instance, attr, desired)?;
        let desired = wanted.as_ref().unwrap_or(desired);
        if !in_sync {
            return Ok(false);
        }
        if is_absent(desired) || is_absent(&current) {
            return Ok(true);
        }
    } else if resource.type_def().ensurable && resource.managed_properties().next().is_none() {
        // Its `exists?` is asked when it is evaluated (see sync_instance).
        return Ok(false);
    } else if resource.type_def().ensurable
        && resource.managed_properties().next().is_some()
        && !provider.exists(cx, instance)?
    {
        // Nothing to manage: no ensure, and the thing does not exist.
        return Ok(true);
    }
    for (attr, desired) in resource.managed_properties() {
        if attr.name != "ensure" && !property_state(provider, cx, instance, attr, desired)?.1 {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Puppet reports a property the thing does not have as `absent`.
fn absent() -> Value {
    Value::String("absent".into())
}

fn is_absent(value: &Value) -> bool {
    matches!(value, Value::String(s) if &**s == "absent") || *value == Value::Undef
}

fn provider_key(provider: &ProviderDef) -> String {
    format!("{}/{}", provider.type_name, provider.name)
}

impl Session {
    pub fn new(registry: Arc<Registry>, facts: Arc<Facts>, logger: Logger) -> Session {
        let mut cx = Context::new(facts.clone(), logger.clone());
        cx.registry = Some(registry.clone());
        Session {
            selector: Selector::new(registry, facts, logger),
            cx,
            prefetched: HashSet::new(),
            prefetch_failed: HashSet::new(),
            hashes: HashMap::new(),
            states: HashMap::new(),
            deferred: HashMap::new(),
            used: IndexMap::new(),
            ahead: None,
            settled: None,
            staging: None,
            staged_failures: Vec::new(),
        }
    }

    /// Ends the evaluation of a run: every provider that evaluated a
    /// resource applies what it deferred (see
    /// [`PropertyProvider::post_resource_eval`]), once. Returns what could
    /// not be applied, with the provider that failed; the caller reports
    /// it, since by now the resources' own outcomes are settled.
    pub fn finish(&mut self) -> Vec<(Arc<ProviderDef>, DeferredFailure)> {
        // Deferred changes are applied now.
        self.cx.generation.advance();
        let mut failures = std::mem::take(&mut self.staged_failures);
        self.write_staged();
        failures.append(&mut self.staged_failures);
        self.settled = None;
        for (_, provider) in std::mem::take(&mut self.used) {
            let result = match &provider.implementation {
                Implementation::Properties(p) => p.post_resource_eval(&self.cx),
                Implementation::Batch(b) => b.post_resource_eval(&self.cx),
            };
            if let Err(found) = result {
                failures.extend(found.into_iter().map(|f| (provider.clone(), f)));
            }
        }
        failures
    }

    /// Writes the files providers staged, keeping the failures for
    /// [`Session::finish`].
    fn write_staged(&mut self) {
        let Some(provider) = self.staging.take() else {
            return;
        };
        for failure in crate::parsedfile::write_staged() {
            self.staged_failures.push((provider.clone(), failure));
        }
    }

    pub fn selector(&self) -> &Selector {
        &self.selector
    }

    pub fn context(&self) -> &Context {
        &self.cx
    }

    /// Scopes listings with parameters the system cannot tell (which
    /// server and zone to list DNS records of).
    pub fn set_listing(&mut self, listing: PropertyHash) {
        self.cx.listing = listing;
    }

    /// Shows content changes as unified diffs.
    pub fn set_show_diff(&mut self, show: bool) {
        self.cx.show_diff = show;
    }

    /// Tells providers that the whole run is a rehearsal.
    pub fn set_noop(&mut self, noop: bool) {
        self.cx.noop = noop;
    }

    /// Keeps file contents in this bucket before changing or removing them.
    pub fn set_filebucket(&mut self, bucket: crate::filebucket::Filebucket) {
        self.cx.filebucket = Some(bucket);
    }

    /// Sends the backups of `path => false` buckets to this server's
    /// bucket.
    pub fn set_remote_filebucket(&mut self, bucket: crate::filebucket::Filebucket) {
        self.cx.remote_filebucket = Some(bucket);
    }

    /// Lets providers keep what they learn from run to run in `dir` (see
    /// [`Context::state_dir`]).
    pub fn set_state_dir(&mut self, dir: std::path::PathBuf) {
        self.cx.state_dir = Some(dir);
    }

    /// Gives providers a read-only view of every resource in the run.
    pub fn set_catalog(&mut self, resources: Arc<[Resource]>) {
        self.cx.catalog = resources;
    }

    /// Runs every type's pre-run check on every resource; all failures are
    /// returned together so the run can abort before any change.
    pub fn pre_run_checks(resources: &[Resource]) -> Vec<RalError> {
        resources
            .iter()
            .filter_map(|resource| {
                let check = resource.type_def().pre_run_check.as_ref()?;
                let result =
                    crate::attribute::guarded("pre_run_check", "pre-run check", || check(resource));
                result.err().map(|message| RalError::PreRunCheck {
                    path: resource.path(),
                    message,
                })
            })
            .collect()
    }

    /// Plans the run of the catalog's resources at these positions (in
    /// the order the run will probably take them), selecting each one's
    /// provider once:
    ///
    /// - Their prefetch is deferred: each provider prefetches all of its
    ///   resources when the first of them is evaluated, as Puppet does, not
    ///   before. Resources applied earlier may be what makes the state
    ///   readable: a name server started, a package that brings a command,
    ///   an entry in /etc/hosts.
    /// - Other threads start checking whether they are in sync, for the
    ///   providers that allow it ([`PropertyProvider::reads_ahead`]);
    ///   evaluating a resource found in sync then costs nothing while the
    ///   run has changed nothing. See `ahead.rs`.
    pub fn plan(&mut self, positions: &[usize]) {
        let catalog = self.cx.catalog.clone();
        let mut chosen: Vec<Option<Arc<ProviderDef>>> = vec![None; catalog.len()];
        // Neighbours mostly share a provider: its key is made once per run
        // of them.
        let mut group: Option<(Arc<ProviderDef>, String)> = None;
        let mut providers: IndexMap<String, Arc<ProviderDef>> = IndexMap::new();
        for &position in positions {
            let Some(resource) = catalog.get(position) else {
                continue;
            };
            let Ok(provider) = self.selector.select(resource) else {
                continue;
            };
            let key = match &group {
                Some((same, key)) if Arc::ptr_eq(same, &provider) => key,
                _ => &group.insert((provider.clone(), provider_key(&provider))).1,
            };
            match self.deferred.get_mut(key) {
                Some(members) => members.push(position),
                None => {
                    self.deferred.insert(key.clone(), vec![position]);
                    providers.insert(key.clone(), provider.clone());
                }
            }
            chosen[position] = Some(provider);
        }
        for (key, provider) in &providers {
            if let Implementation::Properties(p) = &provider.implementation {
                let members: Vec<&Resource> = self.deferred[key]
                    .iter()
                    .filter_map(|&position| catalog.get(position))
                    .collect();
                p.instantiate(&self.cx, &members);
            }
        }
        self.ahead = crate::ahead::Ahead::start(&self.cx, positions, |position| {
            chosen.get(position).cloned().flatten()
        });
    }

    /// Prefetches the deferred group of `resource`'s provider, with the
    /// resource itself in it whatever the group holds.
    fn prefetch_for(&mut self, key: &str, resource: &Resource) {
        let catalog = self.cx.catalog.clone();
        let mut members: Vec<&Resource> = self
            .deferred
            .remove(key)
            .unwrap_or_default()
            .into_iter()
            .filter_map(|position| catalog.get(position))
            .collect();
        if !members.iter().any(|m| std::ptr::eq(*m, resource)) {
            members.push(resource);
        }
        self.prefetch(&members);
    }

    /// Whether no provider can manage the resource now, as Puppet asks
    /// before evaluating it (`suitable?`): `Some(true)` when the provider
    /// it names is not functional, `Some(false)` when none of its type's
    /// is suitable; `None` when one can manage it.
    pub fn unsuitable(&self, resource: &Resource) -> Option<bool> {
        match self.selector.select(resource) {
            Err(RalError::Unsuitable { .. }) => Some(true),
            Err(RalError::NoSuitableProvider { .. }) => Some(false),
            _ => None,
        }
    }

    /// Prefetches the provider of a resource that is not evaluated
    /// (skipped for failed dependencies), as Puppet prefetches for every
    /// resource it comes to; says whether that provider's prefetch failed,
    /// which fails the resource too.
    pub fn prefetch_only(&mut self, resource: &Resource) -> bool {
        let Ok(provider) = self.selector.select(resource) else {
            return false;
        };
        let key = provider_key(&provider);
        if !self.prefetched.contains(&key) {
            self.prefetch_for(&key, resource);
        }
        self.prefetch_failed.contains(&key)
    }

    /// Prefetches, once per provider, the current state of the given
    /// resources. A failed prefetch is logged; a property provider's
    /// resources then fail for the rest of the run, as in Puppet, and a
    /// batch provider's are retrieved one by one.
    pub fn prefetch(&mut self, resources: &[&Resource]) {
        let mut groups: IndexMap<String, (Arc<ProviderDef>, Vec<&Resource>)> = IndexMap::new();
        // Neighbours mostly share a provider: its group is looked up once
        // per run of them, not once for each of thousands of resources.
        let mut last: Option<(Arc<ProviderDef>, usize)> = None;
        for resource in resources {
            if let Ok(provider) = self.selector.select(resource) {
                let at = match &last {
                    Some((same, at)) if Arc::ptr_eq(same, &provider) => *at,
                    _ => {
                        let entry = groups.entry(provider_key(&provider));
                        let at = entry.index();
                        entry.or_insert_with(|| (provider.clone(), Vec::new()));
                        last = Some((provider, at));
                        at
                    }
                };
                groups[at].1.push(resource);
            }
        }
        for (key, (provider, members)) in groups {
            if !self.prefetched.insert(key.clone()) {
                continue;
            }
            match &provider.implementation {
                Implementation::Properties(p) => {
                    let mut instances: Vec<Instance<'_>> = members
                        .iter()
                        .map(|resource| Instance {
                            resource,
                            property_hash: PropertyHash::new(),
                        })
                        .collect();
                    match p.prefetch(&self.cx, &mut instances) {
                        Ok(()) => {
                            // An empty hash is what a resource without one
                            // gets anyway; providers that prefetch nothing
                            // (files) leave thousands of them.
                            for instance in instances {
                                if !instance.property_hash.is_empty() {
                                    self.hashes.insert(
                                        instance.resource.reference(),
                                        instance.property_hash,
                                    );
                                }
                            }
                        }
                        Err(_) if provider.reads_ahead => {}
                        Err(e) => {
                            self.prefetch_failed(&provider, &e);
                            self.prefetch_failed.insert(key);
                        }
                    }
                }
                Implementation::Batch(b) => match self.batch_get(b.as_ref(), &members) {
                    Ok(states) => {
                        let type_def = members[0].type_def();
                        let found = states
                            .into_iter()
                            .filter_map(|h| Some((hash_identity(type_def, &h)?, h)))
                            .collect();
                        let asked = b
                            .simple_get_filter()
                            .then(|| members.iter().filter_map(|r| r.identity()).collect());
                        self.states.insert(key, Prefetched { found, asked });
                    }
                    Err(e) => self.prefetch_failed(&provider, &e),
                },
            }
        }
    }

    fn prefetch_failed(&self, provider: &ProviderDef, error: &ProviderError) {
        self.cx.logger.log(
            crate::log::Level::Err,
            "",
            &format!(
                "Could not prefetch {} provider '{}': {error}",
                provider.type_name, provider.name
            ),
        );
    }

    fn batch_get(
        &self,
        provider: &dyn BatchProvider,
        wanted: &[&Resource],
    ) -> Result<Vec<PropertyHash>, ProviderError> {
        let mut found = if provider.simple_get_filter() {
            provider.get(&self.cx, Some(wanted))?
        } else {
            provider.get(&self.cx, None)?
        };
        provider.canonicalize(&self.cx, &mut found)?;
        Ok(found)
    }

    /// The current state of a resource from a batch provider: from the
    /// prefetched states, else asked for now.
    fn batch_state(
        &mut self,
        provider: &dyn BatchProvider,
        key: &str,
        resource: &Resource,
    ) -> Result<Option<PropertyHash>, ProviderError> {
        if let Some(prefetched) = self.states.get_mut(key)
            && let Some(identity) = resource.identity()
        {
            if let Some(state) = prefetched.found.remove(&identity) {
                return Ok(Some(state));
            }
            if prefetched
                .asked
                .as_ref()
                .is_none_or(|asked| asked.contains(&identity))
            {
                return Ok(None);
            }
        }
        let found = self.batch_get(provider, &[resource])?;
        Ok(found.into_iter().find(|h| resource.matches(h)))
    }

    /// What the prefetch found for `resource`, taken out; most runs have
    /// nothing prefetched, and then nothing is looked up.
    fn take_hash(&mut self, resource: &Resource) -> PropertyHash {
        if self.hashes.is_empty() {
            return PropertyHash::new();
        }
        self.hashes
            .remove(resource.reference_str())
            .unwrap_or_default()
    }

    /// Brings one resource in line with its desired state (or, in noop,
    /// reports what would change).
    pub fn evaluate(&mut self, resource: &Resource, noop: bool) -> Outcome {
        self.evaluate_audited(resource, noop, &[])
    }

    /// [`Session::evaluate`], also reading the current values of the
    /// properties named in `audit` before anything is changed, into
    /// [`Outcome::audited`]; a property of a thing that does not exist is
    /// `absent`.
    pub fn evaluate_audited(
        &mut self,
        resource: &Resource,
        noop: bool,
        audit: &[String],
    ) -> Outcome {
        let noop = noop || resource.noop();
        let mut outcome = Outcome {
            resource: resource.shared_reference(),
            ..Outcome::default()
        };
        let provider = match self.selector.select(resource) {
            Ok(provider) => provider,
            Err(e) => {
                outcome.worded = matches!(e, RalError::Unsuitable { .. });
                outcome.failed = Some(e.to_string());
                return outcome;
            }
        };
        outcome.provider = Some(provider.name.clone());
        let stages = match &provider.implementation {
            Implementation::Properties(p) => p.stages_files(),
            Implementation::Batch(_) => false,
        };
        if stages {
            self.staging = Some(provider.clone());
        } else if self.staging.is_some() {
            self.write_staged();
        }
        // Consecutive resources mostly share a provider, already marked
        // used and prefetched: nothing to look up for them.
        let settled = self
            .settled
            .as_ref()
            .is_some_and(|p| Arc::ptr_eq(p, &provider));
        if !settled {
            let key = provider_key(&provider);
            self.used
                .entry(key.clone())
                .or_insert_with(|| provider.clone());
            if !self.prefetched.contains(&key) {
                self.prefetch_for(&key, resource);
            }
            self.settled = Some(provider.clone());
        }
        if !self.prefetch_failed.is_empty()
            && self.prefetch_failed.contains(&provider_key(&provider))
        {
            outcome.failed = Some(format!(
                "Prefetch failed for {} provider '{}'",
                provider.type_name, provider.name
            ));
            outcome.skipped = true;
            return outcome;
        }
        let result = match &provider.implementation {
            Implementation::Properties(p) => {
                self.evaluate_properties(p.as_ref(), resource, (noop, audit), &mut outcome)
            }
            Implementation::Batch(b) => {
                let key = provider_key(&provider);
                self.evaluate_batch(b.as_ref(), &key, resource, (noop, audit), &mut outcome)
            }
        };
        if let Err(e) = result {
            outcome.failed = Some(e.0);
        }
        outcome.flush_logs = self.cx.flush_logs.take();
        if outcome.changed() {
            // The system changed: a provider unsuitable so far may now work.
            self.selector.invalidate();
        }
        if outcome.changed() || outcome.failed.is_some() {
            // A failed change may have done part of its work.
            self.cx.generation.advance();
        }
        outcome
    }

    fn evaluate_properties(
        &mut self,
        provider: &dyn PropertyProvider,
        resource: &Resource,
        (noop, audit): (bool, &[String]),
        outcome: &mut Outcome,
    ) -> Result<(), ProviderError> {
        // Found in sync ahead of time, and nothing has changed since
        // (audited properties are read whatever the check found).
        if audit.is_empty()
            && self
                .ahead
                .as_ref()
                .is_some_and(|ahead| ahead.in_sync(resource))
        {
            return Ok(());
        }
        let cx = self.cx.clone();
        let mut instance = Instance {
            resource,
            property_hash: self.take_hash(resource),
        };
        let result = sync_instance(provider, &cx, &mut instance, (noop, audit), outcome);
        // A refresh later in the run (a subscription, or a mount refreshing
        // itself) sees what the evaluation left, as Puppet's provider keeps
        // its property hash: a mount just mounted is remounted.
        if resource.type_def().refreshable && !instance.property_hash.is_empty() {
            self.hashes
                .insert(resource.reference(), instance.property_hash);
        }
        result
    }

    fn evaluate_batch(
        &mut self,
        provider: &dyn BatchProvider,
        key: &str,
        resource: &Resource,
        (noop, audit): (bool, &[String]),
        outcome: &mut Outcome,
    ) -> Result<(), ProviderError> {
        let name = resource.provider_name();
        let mut is = self
            .batch_state(provider, key, resource)?
            .unwrap_or_default();
        if !is.contains_key("ensure") {
            let value = if is.is_empty() {
                absent()
            } else {
                Value::String("present".into())
            };
            is.insert("ensure".into(), value);
        }
        for name in audit {
            let value = is.get(name).cloned().unwrap_or_else(absent);
            outcome.audited.push((name.clone(), value));
        }
        let mut should = desired_state(resource);
        if !should.contains_key("ensure") {
            should.insert("ensure".into(), is["ensure"].clone());
        }
        provider.canonicalize(&self.cx, std::slice::from_mut(&mut should))?;
        let type_def = resource.type_def().clone();
        let mut pending: Vec<(&AttrDef, Value, Value)> = Vec::new();
        let ensure_attr = type_def.attribute("ensure");
        let ensure_changes = ensure_attr
            .is_some_and(|attr| !insync(attr, resource, &is["ensure"], &should["ensure"]));
        if let (true, Some(attr)) = (ensure_changes, ensure_attr) {
            pending.push((attr, is["ensure"].clone(), should["ensure"].clone()));
        } else if !is_absent(&should["ensure"]) {
            for (attr, _) in resource.managed_properties() {
                if attr.name == "ensure" {
                    continue;
                }
                let current = is.get(&attr.name).cloned().unwrap_or_else(absent);
                let Some(desired) = should.get(&attr.name) else {
                    continue;
                };
                if !insync(attr, resource, &current, desired) {
                    if attr.kind == AttrKind::CreateOnly {
                        return Err(ProviderError(format!(
                            "{} cannot be changed after creation (is {}, should be {})",
                            attr.name,
                            display_for(attr, resource, &current),
                            display_for(attr, resource, desired)
                        )));
                    }
                    pending.push((attr, current, desired.clone()));
                }
            }
        }
        if pending.is_empty() {
            return Ok(());
        }
        let apply = !noop || provider.supports_noop();
        let result = if apply {
            let change = Change {
                name,
                resource: resource.reference(),
                is,
                should,
                parameters: given_parameters(resource),
                sensitive: type_def
                    .attributes
                    .iter()
                    .filter(|a| resource.is_sensitive(&a.name))
                    .map(|a| a.name.clone())
                    .collect(),
            };
            provider
                .set(&self.cx, std::slice::from_ref(&change), noop)?
                .into_iter()
                .next()
                .unwrap_or(Ok(()))
        } else {
            Ok(())
        };
        for (attr, current, desired) in pending {
            let message = if noop {
                noop_message(attr, resource, &current, &desired)
            } else {
                change_message(attr, resource, &current, &desired)
            };
            let status = match (&result, noop) {
                (Err(_), _) => EventStatus::Failure,
                (Ok(()), true) => EventStatus::Noop,
                (Ok(()), false) => EventStatus::Success,
            };
            outcome.events.push(Event {
                property: attr.name.clone(),
                invalidate_refreshes: invalidates_refresh(attr, &desired),
                previous: current,
                desired,
                message,
                status,
            });
        }
        if let Err(message) = result {
            outcome.failed = Some(message);
        }
        Ok(())
    }

    /// The current state of one resource: `ensure` and, when it exists,
    /// every property the provider reports.
    pub fn retrieve(
        &mut self,
        resource: &Resource,
    ) -> Result<(Arc<ProviderDef>, PropertyHash), RalError> {
        let provider = self.selector.select(resource)?;
        // Always read afresh: an earlier evaluation may have changed it.
        self.settled = None;
        self.prefetched.remove(&provider_key(&provider));
        self.states.remove(&provider_key(&provider));
        self.prefetch(&[resource]);
        let failed = |e: ProviderError| RalError::Provider {
            resource: resource.reference(),
            message: e.0,
        };
        let type_def = resource.type_def().clone();
        let mut state = PropertyHash::new();
        match &provider.implementation {
            Implementation::Properties(p) => {
                let instance = Instance {
                    resource,
                    property_hash: self
                        .hashes
                        .remove(&resource.reference())
                        .unwrap_or_default(),
                };
                // A type without `ensure` (alternatives) is not asked
                // whether its thing exists: its properties are read.
                let exists = type_def.ensurable && p.exists(&self.cx, &instance).map_err(failed)?;
                if type_def.ensurable {
                    state.insert(
                        "ensure".into(),
                        p.get(&self.cx, &instance, "ensure")
                            .map_err(failed)?
                            .unwrap_or_else(absent),
                    );
                }
                if exists || !type_def.ensurable {
                    for attr in type_def
                        .attributes
                        .iter()
                        .filter(|a| a.kind.is_property() && a.name != "ensure")
                    {
                        if let Some(value) =
                            p.get(&self.cx, &instance, &attr.name).map_err(failed)?
                        {
                            state.insert(attr.name.clone(), value);
                        }
                    }
                }
            }
            Implementation::Batch(b) => {
                let key = provider_key(&provider);
                let found = self
                    .batch_state(b.as_ref(), &key, resource)
                    .map_err(failed)?;
                match found {
                    Some(mut found) => {
                        found.shift_remove("name");
                        found.shift_remove("title");
                        if !found.contains_key("ensure") && type_def.ensurable {
                            found.shift_insert(0, "ensure".into(), Value::String("present".into()));
                        }
                        state = found;
                    }
                    None if type_def.ensurable => {
                        state.insert("ensure".into(), absent());
                    }
                    None => {}
                }
            }
        }
        Ok((provider, state))
    }

    /// Every instance of a type on this system, from each suitable provider
    /// (one per shared source), sorted by name.
    pub fn instances(
        &self,
        type_name: &str,
    ) -> Result<Vec<(Arc<ProviderDef>, PropertyHash)>, RalError> {
        let registry = self.selector.registry().clone();
        let type_def = registry.require_type(type_name)?.clone();
        let mut sources = HashSet::new();
        let mut names = HashSet::new();
        let mut found = Vec::new();
        let mut errors = Vec::new();
        let mut listed = false;
        let mut providers = self.selector.suitable(&type_def.name);
        // As in Puppet, the default provider is asked first: providers
        // sharing a source (`apt` and `dpkg`) then list under the default.
        if let Ok(default) = self.selector.default_provider(&type_def.name)
            && let Some(position) = providers.iter().position(|p| p.name == default.name)
        {
            let default = providers.remove(position);
            providers.insert(0, default);
        }
        for provider in providers {
            if !sources.insert(provider.source.clone()) {
                continue;
            }
            let result = match &provider.implementation {
                Implementation::Properties(p) => p.instances(&self.cx),
                Implementation::Batch(b) => b.get(&self.cx, None),
            };
            match result {
                Ok(hashes) => {
                    listed = true;
                    // A thing two providers find is listed once, with the
                    // first (a child provider reads what its parent does).
                    let earlier = names.clone();
                    for hash in hashes {
                        let name = hash_name(&hash);
                        if name.as_ref().is_none_or(|n| !earlier.contains(n)) {
                            names.extend(name);
                            found.push((provider.clone(), hash));
                        }
                    }
                }
                Err(e) => errors.push((provider.name.clone(), e.to_string())),
            }
        }
        if !listed {
            if !errors.is_empty() {
                return Err(RalError::Listing {
                    type_name: type_name.to_string(),
                    errors,
                });
            }
            let detail = self
                .selector
                .default_provider(&type_def.name)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_else(|| "no provider can list them".to_string());
            return Err(RalError::Provider {
                resource: format!("Listing {type_name} instances"),
                message: detail,
            });
        }
        found.sort_by_key(|(_, hash)| hash_name(hash).unwrap_or_default());
        Ok(found)
    }

    /// Sends a refresh to a resource's provider (a service restarts).
    pub fn refresh(&mut self, resource: &Resource) -> Result<(), RalError> {
        let provider = self.selector.select(resource)?;
        // A restart or a refreshed command may change anything.
        self.cx.generation.advance();
        if let Implementation::Properties(p) = &provider.implementation {
            let mut instance = Instance {
                resource,
                property_hash: self
                    .hashes
                    .get(&resource.reference())
                    .cloned()
                    .unwrap_or_default(),
            };
            p.refresh(&self.cx, &mut instance)
                .map_err(|e| RalError::Provider {
                    resource: resource.reference(),
                    message: e.0,
                })?;
        }
        Ok(())
    }
}

/// The desired state of a resource as a batch provider sees it: the
/// namevar, then each managed property.
pub fn desired_state(resource: &Resource) -> PropertyHash {
    let mut should = PropertyHash::new();
    should.insert("name".into(), Value::String(resource.name().into()));
    for key in resource.type_def().key_attributes() {
        if let Some(value) = resource.get(&key.name) {
            should.insert(key.name.clone(), value.clone());
        }
    }
    for (attr, desired) in resource.managed_properties() {
        should.insert(attr.name.clone(), sync_value(attr, desired));
    }
    should
}

/// The parameters a resource gives, identity attributes left out (they are
/// in the desired state already).
fn given_parameters(resource: &Resource) -> PropertyHash {
    resource
        .type_def()
        .attributes
        .iter()
        .filter(|a| a.kind == AttrKind::Parameter && !a.namevar && resource.is_given(&a.name))
        .filter_map(|a| Some((a.name.clone(), resource.get(&a.name)?.clone())))
        .collect()
}

/// Puppet's noop wording.
fn noop_message(attr: &AttrDef, resource: &Resource, current: &Value, desired: &Value) -> String {
    match &attr.noop_message {
        Some(hook) => hook(resource, current, desired),
        None => crate::attribute::puppets_noop_message(attr, resource, current, desired),
    }
}

/// Whether syncing to this value cancels the pending refresh.
fn invalidates_refresh(attr: &AttrDef, desired: &Value) -> bool {
    !attr.invalidates_refresh.is_empty()
        && attr
            .invalidates_refresh
            .contains(&crate::attribute::value_text(&sync_value(attr, desired)))
}

/// Syncs one property (unless noop) and returns its event.
fn run_change(
    attr: &AttrDef,
    resource: &Resource,
    current: &Value,
    desired: &Value,
    noop: bool,
    sync: impl FnOnce() -> Result<(), ProviderError>,
) -> Event {
    let (message, status) = if noop {
        (
            noop_message(attr, resource, current, desired),
            EventStatus::Noop,
        )
    } else {
        match sync() {
            Ok(()) => (
                change_message(attr, resource, current, desired),
                EventStatus::Success,
            ),
            Err(e) => (
                format!(
                    "change from {} to {} failed: {}",
                    display_for(attr, resource, current),
                    crate::attribute::display_desired_for(attr, resource, desired),
                    e.0
                ),
                EventStatus::Failure,
            ),
        }
    };
    Event {
        property: attr.name.clone(),
        invalidate_refreshes: invalidates_refresh(attr, desired),
        previous: current.clone(),
        desired: desired.clone(),
        message,
        status,
    }
}

/// Brings a properties provider's instance in line with its resource (see
/// [`Session::evaluate_audited`]): `ensure` alone when it is out of sync,
/// else each property out of sync in order, then one flush.
fn sync_instance(
    provider: &dyn PropertyProvider,
    cx: &Context,
    instance: &mut Instance<'_>,
    (noop, audit): (bool, &[String]),
    outcome: &mut Outcome,
) -> Result<(), ProviderError> {
    let resource = instance.resource;
    let type_def = resource.type_def().clone();
    // Whether the thing exists: asked before reading audited values,
    // and otherwise only for a create-only property out of sync (for a
    // file it is one more `lstat`). Nothing before that changes it.
    let ask_exists = |instance: &Instance<'_>| -> Result<bool, ProviderError> {
        Ok(!type_def.ensurable || provider.exists(cx, instance)?)
    };
    let mut exists = None;
    if !audit.is_empty() {
        let exists = *exists.insert(ask_exists(instance)?);
        for name in audit {
            let value = if exists || name == "ensure" {
                provider.get(cx, instance, name)?.unwrap_or_else(absent)
            } else {
                absent()
            };
            outcome.audited.push((name.clone(), value));
        }
    }
    if let Some((attr, desired)) = managed_ensure(resource) {
        let (current, in_sync, wanted) = ensure_state(provider, cx, instance, attr, desired)?;
        let desired = wanted.as_ref().unwrap_or(desired);
        if !in_sync {
            let target = sync_value(attr, desired);
            let text = crate::attribute::value_text(&target);
            let event = run_change(attr, resource, &current, &target, noop, || {
                match text.as_str() {
                    "present" => provider.create(cx, instance),
                    "absent" => provider.destroy(cx, instance),
                    _ => provider.set(cx, instance, "ensure", &target),
                }?;
                provider.flush(cx, instance)
            });
            return finish(outcome, event);
        }
        // In sync and absent: there is nothing whose properties could be
        // managed (Puppet's "nothing to manage: no ensure and the
        // resource doesn't exist", reached when a type's own in-sync
        // test accepts a missing thing).
        if is_absent(desired) || is_absent(&current) {
            return Ok(());
        }
    } else if type_def.ensurable && resource.managed_properties().next().is_none() {
        // Nothing managed: Puppet asks whether the thing exists all the
        // same (its `retrieve` reads every ensurable type's `ensure`), and
        // a module's `exists?` may do the resource's work there (datacat's
        // collector renders its file's content).
        if exists.is_none() {
            ask_exists(instance)?;
        }
        return Ok(());
    } else if type_def.ensurable
        && resource.managed_properties().next().is_some()
        && !match exists {
            Some(known) => known,
            None => *exists.insert(ask_exists(instance)?),
        }
    {
        // Puppet's "nothing to manage: no ensure and the resource doesn't
        // exist": the other properties of a missing thing are not synced
        // (a file's mode alone never creates the file).
        return Ok(());
    }
    let mut changed = false;
    for (attr, desired) in resource.managed_properties() {
        if attr.name == "ensure" {
            continue;
        }
        let (current, in_sync) = property_state(provider, cx, instance, attr, desired)?;
        if in_sync {
            continue;
        }
        if attr.kind == AttrKind::CreateOnly
            && match exists {
                Some(known) => known,
                None => *exists.insert(ask_exists(instance)?),
            }
        {
            return Err(ProviderError(format!(
                "{} cannot be changed after creation (is {}, should be {})",
                attr.name,
                display_for(attr, resource, &current),
                display_for(attr, resource, desired)
            )));
        }
        let target = sync_value(attr, desired);
        if noop {
            provider.preview(cx, instance, &attr.name, &target);
        }
        let event = run_change(attr, resource, &current, &target, noop, || {
            provider.set(cx, instance, &attr.name, &target)
        });
        changed |= event.status == EventStatus::Success;
        // A property that fails fails the resource, and the others are
        // still synced, as Puppet's harness syncs each on its own (sshd's
        // validate_cmd refuses a file's content; its mode still changes).
        if event.status == EventStatus::Failure && outcome.failed.is_none() {
            outcome.failed = Some(event.message.clone());
        }
        outcome.events.push(event);
    }
    if changed {
        // Setters of a prefetch/flush provider only record changes:
        // when writing them fails, none of them happened, and the
        // events must not say otherwise.
        if let Err(e) = provider.flush(cx, instance) {
            for event in outcome
                .events
                .iter_mut()
                .filter(|event| event.status == EventStatus::Success)
            {
                if let Some(attr) = type_def.attribute(&event.property) {
                    event.message = format!(
                        "change from {} to {} failed: {}",
                        display_for(attr, resource, &event.previous),
                        crate::attribute::display_desired_for(attr, resource, &event.desired),
                        e.0
                    );
                    event.status = EventStatus::Failure;
                }
            }
            outcome.failed = Some(e.0);
            return Ok(());
        }
    }
    Ok(())
}

fn finish(outcome: &mut Outcome, event: Event) -> Result<(), ProviderError> {
    if event.status == EventStatus::Failure {
        outcome.failed = Some(event.message.clone());
    }
    outcome.events.push(event);
    Ok(())
}

//! The modules' custom facts (`lib/facter/*.rb`) on this machine. An
//! agent sends them all to its server, and `facts -p` prints them all, so
//! both resolve every one; a compile here (`apply`, `catalog compile`,
//! `lookup`) resolves each only when the code reads it
//! (`marionette_eval::LazyFacts`), so a run whose code reads none starts no
//! Ruby, and a fact costly to resolve (apt's simulate an upgrade) costs
//! only the runs that read it.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

use marionette_plugin::Problem;

type Facts = serde_json::Map<String, serde_json::Value>;

/// stdlib's facts that name a type's default provider, which it asks of
/// Puppet's resource layer: Marionette's resource layer answers them.
const NATIVE_PROVIDER_FACTS: &[(&str, &str)] = &[
    ("package_provider", "package"),
    ("service_provider", "service"),
];

/// Facter's fact cache, as `facter.conf` configures it (see
/// `marionette_facts::cache`); a configuration that cannot be read is said
/// once and caches nothing.
fn fact_cache() -> Option<&'static marionette_facts::cache::FactCache> {
    static CACHE: std::sync::OnceLock<Option<marionette_facts::cache::FactCache>> =
        std::sync::OnceLock::new();
    CACHE
        .get_or_init(|| {
            marionette_facts::cache::FactCache::configured(&crate::config::sysconfdir())
                .unwrap_or_else(|error| {
                    errln!("Error: Facter: {error}");
                    None
                })
        })
        .as_ref()
}

/// The cached values of the modules' custom facts `names`: those of fresh
/// cache files that name no fact collected natively (which Marionette
/// always resolves). A cached fact no module here adds is not one of this
/// environment's, as Facter returns only the facts it loaded.
fn cached_values(facts: &Facts, names: &BTreeSet<String>) -> Facts {
    let mut cached = fact_cache().map(|c| c.fresh()).unwrap_or_default();
    cached.retain(|name, _| names.contains(name) && !facts.contains_key(name));
    cached
}

/// Keeps in the cache those of `resolved` it covers, saying why it could
/// not, as Facter does.
fn keep_cached(resolved: &Facts) {
    if let Some(cache) = fact_cache()
        && let Err(error) = cache.store(resolved)
    {
        errln!("Warning: Facter: Could not write cache: {error}");
    }
}

/// Adds every custom fact of the modules to `facts` (collected natively,
/// which they never replace), as Puppet's agent and `facter -p` add them;
/// a fact Facter's cache holds is taken from it.
pub(crate) fn resolve_all(facts: &mut Facts) {
    let plugins = crate::environment::plugins();
    let cached = cached_values(facts, &plugins.custom_fact_names().0);
    let names: Vec<String> = cached.keys().cloned().collect();
    let host = crate::environment::ruby();
    let (added, problems) =
        crate::progress::while_doing(doing(&host), || plugins.custom_facts(&host, facts, &names));
    keep_cached(&added);
    let native: Vec<(&str, String)> = NATIVE_PROVIDER_FACTS
        .iter()
        .filter(|(fact, _)| {
            added.contains_key(*fact) || problems.iter().any(|p| names_fact(p, fact))
        })
        .filter_map(|(fact, type_name)| Some((*fact, default_provider(type_name, facts)?)))
        .collect();
    report(
        problems
            .iter()
            .filter(|p| !native.iter().any(|(fact, _)| names_fact(p, fact))),
    );
    facts.extend(added);
    for (fact, provider) in native {
        facts.insert(fact.to_string(), serde_json::Value::String(provider));
    }
    for (name, value) in cached {
        facts.entry(name).or_insert(value);
    }
}

/// What a host resolving custom facts is at, for the progress line: the
/// fact it resolves, or the file it loads.
fn doing(host: &marionette_ruby::RubyHost) -> impl Fn() -> Option<String> + Sync + '_ {
    || {
        host.running_fact().map(|(file, fact)| match fact {
            Some(fact) => format!("Resolving fact {fact}"),
            None => format!("Loading {}", file.display()),
        })
    }
}

/// The custom facts of the environment's modules, to be resolved when a
/// compile with `native` facts first reads them; `None` when the modules
/// ship none. The facts of a file that names them in a way only Ruby can
/// tell are resolved now, into `native`, in a host of their own: the
/// other files' facts stay on demand (apt's, which simulate an upgrade,
/// cost only the runs that read them).
pub(crate) fn on_demand(native: &mut Facts) -> Option<Arc<OnDemand>> {
    let plugins = crate::environment::plugins();
    if plugins.fact_files().is_empty() {
        return None;
    }
    let (names, opaque) = plugins.custom_fact_names();
    let cached = cached_values(native, &names);
    if !opaque.is_empty() {
        let environment = crate::environment::current();
        let mut settings = crate::environment::ruby_settings(environment);
        settings.fact_files = opaque;
        let host = marionette_ruby::RubyHost::new(settings);
        let skipped: Vec<String> = cached.keys().cloned().collect();
        let (added, problems) = crate::progress::while_doing(doing(&host), || {
            plugins.custom_facts(&host, native, &skipped)
        });
        keep_cached(&added);
        report(problems.iter());
        for (name, value) in added {
            native.entry(name).or_insert(value);
        }
    }
    Some(Arc::new(OnDemand {
        native: native.clone(),
        names,
        resolved: Mutex::new(cached),
    }))
}

/// This machine's facts for applying resources of `types` without a
/// compile (`catalog apply`, `resource`): those collected natively, and
/// the custom facts the suitability of the types' providers reads.
pub(crate) fn for_types(types: BTreeSet<String>) -> Facts {
    let mut facts = crate::catalog::local_facts();
    if let Some(custom) = on_demand(&mut facts) {
        custom.for_types(types, &mut facts);
    }
    facts
}

/// This machine's facts for applying `catalog` without compiling it: see
/// [`for_types`].
pub(crate) fn for_catalog(catalog: &marionette_catalog::Catalog) -> Facts {
    for_types(catalog_types(catalog))
}

fn catalog_types(catalog: &marionette_catalog::Catalog) -> BTreeSet<String> {
    catalog
        .resources
        .iter()
        .map(|r| r.type_name.to_lowercase())
        .collect()
}

/// Custom facts resolved one at a time, as a compile reads them.
pub(crate) struct OnDemand {
    /// The facts collected natively, which the custom facts' code reads.
    native: Facts,
    names: BTreeSet<String>,
    /// What was resolved so far, for applying the catalog.
    resolved: Mutex<Facts>,
}

impl OnDemand {
    /// Adds to `facts`, for applying `catalog`, the custom facts the
    /// compile resolved, and those that the suitability of the catalog's
    /// types' providers reads (their `confine` and `defaultfor` facts),
    /// resolved now. (Deferred calls get these too: a custom fact only they
    /// read is not resolved for them.)
    pub(crate) fn for_applying(&self, catalog: &marionette_catalog::Catalog, facts: &mut Facts) {
        self.for_types(catalog_types(catalog), facts);
    }

    /// Adds to `facts` the custom facts resolved so far, and those that
    /// the suitability of the providers of `types` reads.
    fn for_types(&self, types: BTreeSet<String>, facts: &mut Facts) {
        let registry = crate::environment::registry();
        for type_name in types.iter().filter(|t| registry.type_def(t).is_some()) {
            for provider in registry.providers(type_name) {
                for name in provider.fact_names() {
                    if self.names.contains(name) && !facts.contains_key(name) {
                        marionette_eval::LazyFacts::resolve(self, name);
                    }
                }
            }
        }
        let resolved = self.resolved.lock().unwrap_or_else(|e| e.into_inner());
        for (name, value) in resolved.iter() {
            facts.entry(name.clone()).or_insert_with(|| value.clone());
        }
    }
}

impl marionette_eval::LazyFacts for OnDemand {
    fn names(&self) -> Vec<String> {
        self.names.iter().cloned().collect()
    }

    fn resolve(&self, name: &str) -> Option<serde_json::Value> {
        if let Some(value) = self
            .resolved
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(name)
        {
            return Some(value.clone());
        }
        let value = match NATIVE_PROVIDER_FACTS.iter().find(|(fact, _)| *fact == name) {
            Some((_, type_name)) => default_provider(type_name, &self.native).map(Into::into),
            None => {
                let plugins = crate::environment::plugins();
                let (value, problems) =
                    plugins.custom_fact(&crate::environment::ruby(), &self.native, name);
                // A fact whose code reads stdlib's provider facts fails
                // them in Ruby: the resource layer answers those.
                report(problems.iter().filter(|p| {
                    !NATIVE_PROVIDER_FACTS
                        .iter()
                        .any(|(fact, _)| names_fact(p, fact))
                }));
                value
            }
        }?;
        let mut one = Facts::new();
        one.insert(name.to_string(), value.clone());
        keep_cached(&one);
        self.resolved
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(name.to_string(), value.clone());
        Some(value)
    }
}

fn names_fact(problem: &Problem, fact: &str) -> bool {
    problem.message.contains(&format!("fact='{fact}'"))
}

/// Prints what went wrong as Facter does: a file that failed to load by
/// its name, an error of a fact's code as the fact logged it.
fn report<'a>(problems: impl Iterator<Item = &'a Problem>) {
    for problem in problems {
        if problem.file.as_os_str() == "Facter" {
            errln!("Error: {}", problem.message);
        } else {
            errln!(
                "Error: Facter: error while resolving custom facts in {}: {}",
                problem.file.display(),
                problem.message
            );
        }
    }
}

/// The provider the resource layer chooses by default for a type on this
/// machine.
fn default_provider(type_name: &str, facts: &Facts) -> Option<String> {
    let selector = marionette_ral::Selector::new(
        crate::environment::registry(),
        Arc::new(facts.clone()),
        marionette_ral::Logger::default(),
    );
    selector
        .default_provider(type_name)
        .ok()
        .map(|p| p.name.clone())
}

//! Facts about a machine, with the names and shapes of Facter 4: the
//! built-in facts (`os`, `networking`, `memory`, ... and the legacy flat
//! names such as `osfamily`), external facts from `facts.d` directories, and
//! custom facts compiled into the program ([`custom`]).
//!
//! Built-in facts are read from `/proc`, `/sys`, `/etc` and a few system
//! calls, never by running commands, and always through a [`System`], so
//! that a captured machine (a test fixture) can stand in for the real one.
//!
//! ```no_run
//! let collection = marionette_facts::collect(&marionette_facts::Options::default());
//! let family = collection.value("os.family");
//! for error in &collection.errors {
//!     eprintln!("Error: {error}");
//! }
//! # let _ = family;
//! ```
//!
//! `DIFFERENCES.md` beside this crate lists where the values cannot equal
//! Facter's, and why.

mod builtin;
pub mod cache;
pub mod custom;
mod error;
mod external;
mod facts_file;
pub mod format;
mod query;
pub mod system;
mod units;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::{Map, Value};

pub use error::FactError;
pub use external::default_external_dirs;
pub use facts_file::load_facts_file;
pub use query::query;
pub use system::{System, SystemRoot};

/// What to collect, and from where.
#[derive(Clone)]
pub struct Options {
    /// The machine looked at: the running one, or a captured fixture.
    pub system: System,
    /// Whether to read external facts.
    pub external: bool,
    /// Directories of external facts, searched in order; a fact found in a
    /// later directory replaces one of the same name found earlier. Module
    /// `facts.d` directories go here.
    pub external_dirs: Vec<PathBuf>,
    /// How long an executable external fact may run before it is killed.
    pub external_timeout: Duration,
    /// Custom facts compiled into the program.
    pub custom: Vec<custom::CustomFact>,
    /// Whether `FACTER_name=value` environment variables give facts (they
    /// win over every other source, as in Facter).
    pub environment_facts: bool,
}

impl Default for Options {
    /// This machine, the default external directories, a 30-second limit
    /// for executables, and facts from the environment.
    fn default() -> Options {
        Options {
            system: System::live(),
            external: true,
            external_dirs: default_external_dirs(),
            external_timeout: Duration::from_secs(30),
            custom: Vec::new(),
            environment_facts: true,
        }
    }
}

impl std::fmt::Debug for Options {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Options")
            .field("system", &self.system)
            .field("external", &self.external)
            .field("external_dirs", &self.external_dirs)
            .field("external_timeout", &self.external_timeout)
            .field("custom", &self.custom.len())
            .field("environment_facts", &self.environment_facts)
            .finish()
    }
}

/// How long one group of facts took to resolve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Timing {
    /// The group: `os`, `networking`, ..., `external`, `custom`.
    pub group: String,
    pub elapsed: Duration,
}

/// The facts found, with what went wrong on the way.
#[derive(Clone, Debug, Default)]
pub struct Collection {
    /// The facts as `facter --json` prints them, keys sorted at every level
    /// (entries of arrays keep their order).
    pub facts: Map<String, Value>,
    /// The legacy flat facts `facter --show-legacy` adds (`osfamily`,
    /// `ipaddress_eth0`, ...), sorted.
    pub legacy: Map<String, Value>,
    /// Problems with external and custom facts. Warnings are among them
    /// (see [`FactError::is_warning`]).
    pub errors: Vec<FactError>,
    /// The time each group took, in the order they ran.
    pub timings: Vec<Timing>,
}

impl Collection {
    /// The facts together with the legacy ones, sorted: what
    /// `facter --json --show-legacy` prints.
    pub fn with_legacy(&self) -> Map<String, Value> {
        let mut all = self.facts.clone();
        for (name, value) in &self.legacy {
            all.entry(name.clone()).or_insert_with(|| value.clone());
        }
        all.sort_keys();
        all
    }

    /// A fact by name or dotted path (`os.family`, `processors.models.0`),
    /// legacy names included.
    pub fn value(&self, path: &str) -> Option<&Value> {
        query(&self.facts, path).or_else(|| query(&self.legacy, path))
    }
}

/// Sorts the keys of every object, as Facter prints them; objects inside
/// arrays keep their order, as Facter leaves them.
fn sort_deep(map: &mut Map<String, Value>) {
    map.sort_keys();
    for value in map.values_mut() {
        if let Value::Object(inner) = value {
            sort_deep(inner);
        }
    }
}

/// Collects every fact: built-in ones, then external ones (which replace
/// built-in facts of the same name), then custom ones (which replace
/// built-in ones but yield to external ones), then `FACTER_` variables.
pub fn collect(options: &Options) -> Collection {
    let mut collection = Collection::default();
    let probe = builtin::Probe::new(&options.system);
    let mut found = builtin::Facts::default();
    for group in builtin::GROUPS {
        let start = Instant::now();
        (group.collect)(&probe, &mut found);
        collection.timings.push(Timing {
            group: group.name.to_string(),
            elapsed: start.elapsed(),
        });
    }
    let builtin::Facts {
        mut facts,
        mut legacy,
    } = found;

    let mut external_facts = Map::new();
    if options.external {
        let start = Instant::now();
        let (loaded, errors) = external::load(&options.external_dirs, options.external_timeout);
        external_facts = loaded;
        collection.errors.extend(errors);
        collection.timings.push(Timing {
            group: "external".to_string(),
            elapsed: start.elapsed(),
        });
    }
    if options.environment_facts {
        for (key, value) in std::env::vars_os() {
            let (Some(key), Some(value)) = (key.to_str(), value.to_str()) else {
                continue;
            };
            if let Some(name) = key
                .get(..7)
                .filter(|prefix| prefix.eq_ignore_ascii_case("FACTER_"))
                .and_then(|_| key.get(7..))
                .filter(|name| !name.is_empty())
            {
                external_facts.insert(name.to_lowercase(), Value::String(value.to_string()));
            }
        }
    }

    if !options.custom.is_empty() {
        let start = Instant::now();
        let mut resolved = Vec::new();
        {
            let sources = custom::Sources {
                external: &external_facts,
                builtin: &facts,
                legacy: &legacy,
            };
            let mut resolver = custom::Resolver::new(sources, &options.custom);
            let mut seen_cycles: Vec<Vec<String>> = Vec::new();
            for fact in &options.custom {
                if external_facts.contains_key(fact.name()) {
                    continue;
                }
                match resolver.custom(fact.name()) {
                    Ok(Some(value)) => resolved.push((fact.name().to_string(), value)),
                    Ok(None) => {}
                    Err(FactError::Cycle { chain }) => {
                        let mut members = chain.clone();
                        members.sort();
                        members.dedup();
                        if !seen_cycles.contains(&members) {
                            seen_cycles.push(members);
                            collection.errors.push(FactError::Cycle { chain });
                        }
                    }
                    // One report is enough for a long chain.
                    Err(error @ FactError::TooDeep { .. }) => {
                        if !collection
                            .errors
                            .iter()
                            .any(|e| matches!(e, FactError::TooDeep { .. }))
                        {
                            collection.errors.push(error);
                        }
                    }
                    Err(error) => collection.errors.push(error),
                }
            }
            collection.errors.append(&mut resolver.errors);
        }
        for (name, value) in resolved {
            legacy.shift_remove(&name);
            facts.insert(name, value);
        }
        collection.timings.push(Timing {
            group: "custom".to_string(),
            elapsed: start.elapsed(),
        });
    }

    for (name, value) in external_facts {
        legacy.shift_remove(&name);
        facts.insert(name, value);
    }
    sort_deep(&mut facts);
    sort_deep(&mut legacy);
    collection.facts = facts;
    collection.legacy = legacy;
    collection
}

//! Extensions shipped in modules, loaded at run time: resource types
//! declared as data, and providers and functions as executables of any
//! language speaking the plugin protocol (`docs/plugin-protocol.md`).
//!
//! [`Plugins::discover`] reads an environment's module path once; the
//! command line then adds the types and providers to that environment's
//! registry ([`Plugins::extend`]), gives the compiler the functions
//! ([`Plugins::functions`]), the fact collector the `facts.d` directories,
//! and finds subcommands. Nothing is started while discovering: a
//! provider's process starts when a resource of its type first needs a
//! provider, a function's when a manifest first calls it, and each serves
//! the rest of the run ([`process`]).
//!
//! Everything is per environment: a [`Plugins`] value knows only the
//! modules of its own module path, so two environments shipping different
//! versions of a type or provider never see each other's.

mod core_call;
mod function;
mod process;
mod provider;
mod resource_api;
mod ruby;
mod wire;

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use marionette_ral::{Registry, TypeDef};

pub use function::FunctionHost;
pub use provider::ProviderFile;

use crate::process::Process;
use crate::provider::is_executable;

/// The protocol version this engine speaks.
pub const PROTOCOL: u32 = 1;

/// The time a plugin has to answer its handshake.
pub(crate) const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// Why a plugin could not do what was asked. Every message names the
/// plugin file, since that is what its author has to fix.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PluginError {
    #[error("could not start plugin {}: {message}", plugin.display())]
    Start { plugin: PathBuf, message: String },
    #[error("plugin {} answered its handshake badly: {message}", plugin.display())]
    Handshake { plugin: PathBuf, message: String },
    #[error("plugin {} failed '{method}': {message}", plugin.display())]
    Failed {
        plugin: PathBuf,
        method: String,
        message: String,
    },
    #[error("plugin {} {message} (while answering '{method}')", plugin.display())]
    Broken {
        plugin: PathBuf,
        method: String,
        message: String,
    },
}

/// An environment: its name and where its modules are.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Environment {
    pub name: String,
    pub modulepath: Vec<PathBuf>,
}

/// A type file that could not be read, with the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub file: PathBuf,
    pub message: String,
}

/// What the modules of one environment ship.
pub struct Plugins {
    environment: Environment,
    /// Module directories, the first of each name only, in module-path
    /// order.
    modules: Vec<PathBuf>,
    types: Vec<TypeDef>,
    providers: Vec<ProviderFile>,
    /// Types and providers written in Ruby (`lib/puppet/type`).
    ruby_types: Vec<ruby::RubyType>,
    /// Ruby providers for Puppet's core types (`lib/puppet/provider`).
    core_providers: Vec<ruby::RubyType>,
    /// Custom fact files (`lib/facter/*.rb`).
    fact_files: Vec<PathBuf>,
    problems: Vec<Problem>,
    processes: Arc<Processes>,
}

/// Every plugin process started for an environment, so that they can be
/// stopped together at the end.
#[derive(Default)]
pub(crate) struct Processes {
    started: Mutex<Vec<Arc<Process>>>,
}

impl Processes {
    pub(crate) fn start(&self, path: &Path) -> Arc<Process> {
        let process = Arc::new(Process::new(path));
        self.started
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(process.clone());
        process
    }

    fn shutdown(&self) {
        let started = std::mem::take(&mut *self.started.lock().unwrap_or_else(|e| e.into_inner()));
        for process in started {
            process.shutdown();
        }
    }
}

/// A message from a plugin or a module's Ruby, made safe to print: its
/// control characters (line breaks and escape sequences included) are
/// escaped, so it cannot forge console or report lines of its own.
pub(crate) fn printable(text: &str) -> String {
    if !text.chars().any(char::is_control) {
        return text.to_string();
    }
    text.chars()
        .map(|c| match c {
            '\n' => "\\n".to_string(),
            '\r' => "\\r".to_string(),
            '\t' => "\t".to_string(),
            c if c.is_control() => c.escape_unicode().to_string(),
            c => c.to_string(),
        })
        .collect()
}

fn valid_module_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// The entries of a directory, sorted by name so that discovery does not
/// depend on the file system's order; nothing when it cannot be read.
fn entries(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|list| list.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    found.sort();
    found
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

impl Plugins {
    /// Reads what the modules of `environment` ship. Type files are read
    /// and checked now (a broken one is a [`Problem`]); executables are
    /// only noted.
    pub fn discover(environment: Environment) -> Plugins {
        let mut seen = HashSet::new();
        let mut modules = Vec::new();
        for dir in &environment.modulepath {
            for module in entries(dir) {
                let name = file_name(&module);
                if module.is_dir() && valid_module_name(&name) && seen.insert(name) {
                    modules.push(module);
                }
            }
        }
        let mut plugins = Plugins {
            environment,
            modules,
            types: Vec::new(),
            providers: Vec::new(),
            ruby_types: Vec::new(),
            core_providers: Vec::new(),
            fact_files: Vec::new(),
            problems: Vec::new(),
            processes: Arc::default(),
        };
        plugins.read_types();
        plugins.find_providers();
        plugins.ruby_types = ruby::discover(&plugins.modules);
        plugins.core_providers = ruby::discover_core(&plugins.modules, &plugins.ruby_types);
        plugins.fact_files = ruby::fact_files(&plugins.modules);
        plugins
    }

    fn read_types(&mut self) {
        let mut names = HashSet::new();
        for module in &self.modules {
            for file in entries(&module.join("lib/marionette/types")) {
                let Some(stem) = file.file_stem().map(|s| s.to_string_lossy().into_owned()) else {
                    continue;
                };
                let format = file
                    .extension()
                    .and_then(|e| e.to_str())
                    .unwrap_or_default();
                if !matches!(format, "yaml" | "yml" | "json") {
                    continue;
                }
                let problem = |message: String| Problem {
                    file: file.clone(),
                    message,
                };
                match read_type(&file, format) {
                    Ok(type_def) if type_def.name != stem => self.problems.push(problem(format!(
                        "the type is named '{}' but its file '{stem}'",
                        type_def.name
                    ))),
                    Ok(type_def) => {
                        if names.insert(type_def.name.clone()) {
                            self.types.push(type_def);
                        }
                    }
                    Err(message) => self.problems.push(problem(message)),
                }
            }
        }
    }

    fn find_providers(&mut self) {
        let mut names = HashSet::new();
        for module in &self.modules {
            for type_dir in entries(&module.join("lib/marionette/providers")) {
                let type_name = file_name(&type_dir);
                for path in entries(&type_dir) {
                    if !is_executable(&path) {
                        continue;
                    }
                    let file = file_name(&path);
                    let name = file.split('.').next().unwrap_or_default().to_string();
                    if name.is_empty() || !names.insert((type_name.clone(), name.clone())) {
                        continue;
                    }
                    self.providers.push(ProviderFile {
                        type_name: type_name.clone(),
                        name,
                        path,
                        module: module.clone(),
                    });
                }
            }
        }
    }

    /// The environment the plugins belong to.
    pub fn environment(&self) -> &Environment {
        &self.environment
    }

    /// The modules, the first of each name, in module-path order.
    pub fn modules(&self) -> &[PathBuf] {
        &self.modules
    }

    /// The types read from modules.
    pub fn types(&self) -> &[TypeDef] {
        &self.types
    }

    /// The provider executables found.
    pub fn providers(&self) -> &[ProviderFile] {
        &self.providers
    }

    /// Type files that could not be used.
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }

    /// Adds the modules' types and providers to a registry: types replace
    /// built-in ones of the same name, and providers are declared lazily,
    /// each started for its handshake only when its type's providers are
    /// first needed. Returns providers for types that do not exist.
    pub fn extend(&self, registry: &mut Registry) -> Vec<Problem> {
        let mut problems = Vec::new();
        for type_def in &self.types {
            if let Err(error) = registry.add_type(type_def.clone()) {
                problems.push(Problem {
                    file: PathBuf::from(&type_def.name),
                    message: error.to_string(),
                });
            }
        }
        let mut by_type: Vec<(Arc<TypeDef>, Vec<ProviderFile>)> = Vec::new();
        for file in &self.providers {
            let Some(type_def) = registry.type_def(&file.type_name).cloned() else {
                problems.push(Problem {
                    file: file.path.clone(),
                    message: format!("a provider for the unknown type '{}'", file.type_name),
                });
                continue;
            };
            match by_type.iter_mut().find(|(t, _)| t.name == type_def.name) {
                Some((_, files)) => files.push(file.clone()),
                None => by_type.push((type_def, vec![file.clone()])),
            }
        }
        for (type_def, files) in by_type {
            let environment = self.environment.name.clone();
            let processes = self.processes.clone();
            let name = type_def.name.clone();
            registry.add_provider_loader(
                &name,
                Arc::new(move || load_all(&files, &type_def, &environment, &processes)),
            );
        }
        problems
    }

    /// Adds the modules' Ruby types to a registry, where no native type of
    /// the name wins, and their Ruby providers for native types; their
    /// Ruby providers run in `host`, started only when a resource of such
    /// a type needs its provider.
    pub fn extend_ruby(
        &self,
        registry: &mut Registry,
        host: &Arc<marionette_ruby::RubyHost>,
    ) -> Vec<Problem> {
        let problems = ruby::extend(&self.ruby_types, registry, host);
        ruby::extend_core(&self.core_providers, registry, host);
        problems
    }

    /// The node's facts, for modules' Ruby that reads them (`Facter.value`)
    /// outside a run's providers: a type's file as it loads (firewall's
    /// reads the OS), its values' checks, its defaults. Set before the
    /// catalog's resources are made; replaced by each run.
    pub fn set_node_facts(facts: Arc<marionette_ral::Facts>) {
        ruby::set_node_facts(facts);
    }

    /// Whether `name` is a module's classic Ruby type that defines title
    /// patterns of its own (`def self.title_patterns`), which only running
    /// it tells in full: keystone's build theirs with a helper, and their
    /// procs are Ruby.
    pub fn is_titled_ruby_type(&self, name: &str) -> bool {
        ruby::titled(&self.ruby_types, name)
    }

    /// The type `name` as a module's Ruby declares it, for `describe`
    /// (its docs and values as running its DSL gives them, which reading
    /// it cannot always tell); `None` when no module ships a classic Ruby
    /// type of that name.
    pub fn ruby_type_reference(
        &self,
        name: &str,
        host: &Arc<marionette_ruby::RubyHost>,
    ) -> Option<Result<TypeDef, String>> {
        ruby::reference(&self.ruby_types, name, host)
    }

    /// The modules' custom fact files (`lib/facter/*.rb`), in module path
    /// order: what a Ruby host's `Settings::fact_files` should name.
    pub fn fact_files(&self) -> &[PathBuf] {
        &self.fact_files
    }

    /// The names of the facts the custom fact files add, read without
    /// Ruby, and the files that name theirs in a way only Ruby can tell
    /// (vswitch's, one fact for each PCI driver present).
    pub fn custom_fact_names(&self) -> (std::collections::BTreeSet<String>, Vec<PathBuf>) {
        ruby::fact_names(&self.fact_files)
    }

    /// Resolves every custom fact in `host` (whose settings name the fact
    /// files) but the `cached` ones, with the facts collected natively; the
    /// facts they add, and the files that failed.
    pub fn custom_facts(
        &self,
        host: &marionette_ruby::RubyHost,
        facts: &marionette_ral::Facts,
        cached: &[String],
    ) -> (marionette_ral::Facts, Vec<Problem>) {
        ruby::custom_facts(host, facts, cached)
    }

    /// Resolves the one custom fact `name` in `host`, as
    /// [`Plugins::custom_facts`] resolves them all.
    pub fn custom_fact(
        &self,
        host: &marionette_ruby::RubyHost,
        facts: &marionette_ral::Facts,
        name: &str,
    ) -> (Option<serde_json::Value>, Vec<Problem>) {
        ruby::custom_fact(host, facts, name)
    }

    /// Runs the functions modules ship as executables, for the compiler;
    /// their log messages go to `logger`.
    pub fn functions(&self, logger: marionette_ral::Logger) -> Arc<FunctionHost> {
        Arc::new(FunctionHost::new(
            &self.environment.name,
            self.processes.clone(),
            logger,
        ))
    }

    /// The modules' external fact directories (`MODULE/facts.d`).
    pub fn fact_dirs(&self) -> Vec<PathBuf> {
        self.modules
            .iter()
            .map(|m| m.join("facts.d"))
            .filter(|d| d.is_dir())
            .collect()
    }

    /// The subcommands modules ship (`MODULE/bin/marionette-NAME`), by name,
    /// the first of each name.
    pub fn subcommands(&self) -> Vec<(String, PathBuf)> {
        let mut seen = HashSet::new();
        let mut found = Vec::new();
        for module in &self.modules {
            for path in entries(&module.join("bin")) {
                if let Some(name) = file_name(&path).strip_prefix("marionette-")
                    && !name.is_empty()
                    && is_executable(&path)
                    && seen.insert(name.to_string())
                {
                    found.push((name.to_string(), path.clone()));
                }
            }
        }
        found
    }

    /// Stops every plugin process of the environment (each is asked to
    /// shut down, and killed if it does not).
    pub fn shutdown(&self) {
        self.processes.shutdown();
    }
}

impl Drop for Plugins {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// Loads the providers of one type, their handshakes in parallel: every
/// provider has to be asked before one can be chosen, and a run should wait
/// for the slowest to start, not for all of them in turn.
fn load_all(
    files: &[ProviderFile],
    type_def: &TypeDef,
    environment: &str,
    processes: &Processes,
) -> Vec<marionette_ral::ProviderDef> {
    std::thread::scope(|scope| {
        let handles: Vec<_> = files
            .iter()
            .map(|file| scope.spawn(move || provider::load(file, type_def, environment, processes)))
            .collect();
        handles
            .into_iter()
            .zip(files)
            .map(|(handle, file)| {
                handle
                    .join()
                    .unwrap_or_else(|_| provider::broken(file, "its handshake could not be made"))
            })
            .collect()
    })
}

/// Reads one type file: YAML or JSON, the same structure.
fn read_type(path: &Path, format: &str) -> Result<TypeDef, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("could not read it: {e}"))?;
    type_from_text(&text, format)
}

/// A type definition from its text, in `format` (`json`, else YAML).
fn type_from_text(text: &str, format: &str) -> Result<TypeDef, String> {
    let data: serde_json::Value = if format == "json" {
        serde_json::from_str(text).map_err(|e| format!("invalid JSON: {e}"))?
    } else {
        serde_saphyr::from_str(text).map_err(|e| format!("invalid YAML: {e}"))?
    };
    marionette_ral::type_from_data(&data)
}

/// The readers of what plugins send, without a process, for the fuzz
/// driver (`crates/fuzz`): not an interface for anything else.
#[cfg(feature = "fuzzing")]
#[doc(hidden)]
pub mod fuzzing {
    use std::sync::Arc;

    use marionette_ral::Logger;
    use serde_json::Value as Json;

    use crate::process::{Launch, Process};
    use crate::provider::{ProviderFile, declare, states};

    /// A type definition, as a module's `types/NAME.yaml` (or `.json`)
    /// holds it.
    pub fn read_type(text: &str, json: bool) {
        let _ = crate::type_from_text(text, if json { "json" } else { "yaml" });
    }

    /// Lines as a plugin's standard output would carry them, each read as
    /// the engine reads one: a log message, a handshake answer for a
    /// provider of `type_def` (given as the YAML of a type definition),
    /// resource states, a value.
    pub fn read_output(type_yaml: &str, text: &str) {
        let Ok(type_def) = crate::type_from_text(type_yaml, "yaml") else {
            return;
        };
        let logger = Logger::default();
        let path = std::path::Path::new("/fuzz/provider");
        let file = ProviderFile {
            type_name: type_def.name.to_string(),
            name: "fuzz".into(),
            path: path.to_path_buf(),
            module: path.to_path_buf(),
        };
        for line in text.lines() {
            let message: Json = match serde_json::from_str(line) {
                Ok(message) => message,
                Err(_) => {
                    let _ = marionette_child::quote(line);
                    continue;
                }
            };
            if let Some(params) = message.get("params") {
                crate::process::forward_log(path, Some(params), &logger, &|name| name.into());
            }
            if let Some(result) = message.get("result") {
                let _ = states(path, "get", result);
                let _ = crate::wire::from_wire(result);
                let _ = declare(
                    &file,
                    &type_def,
                    result,
                    Arc::new(Process::new(path)),
                    Launch::default(),
                );
            }
        }
    }
}

#[cfg(test)]
mod printable_tests {
    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(
            super::printable("a\nNotice: forged\x1b[0m\tb"),
            "a\\nNotice: forged\\u{1b}[0m\tb"
        );
        assert_eq!(super::printable("plain"), "plain");
    }
}

//! The lookup itself: layers, hierarchies, locations, `lookup_options`,
//! interpolation and digging, in Puppet's order and with its explanation.
//!
//! A key is looked up in the global layer, then the environment, then the
//! module its name is qualified with; in each, through the hierarchy's
//! entries in order; in each entry, through its locations in order. The
//! merge strategy decides whether the first value found is the answer or
//! whether every value found is merged (`Merge::merge`). "Not found" is
//! `Ok(None)` all the way up.
//!
//! - `providers.rs`: what answers for one location of an entry;
//! - `options.rs`: `lookup_options` and a module's `default_hierarchy`;
//! - `interpolate.rs`: `%{...}`.

use std::cell::RefCell;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use marionette_values::fasthash::{FastBuild, FastMap};
use marionette_values::{PHash, Regex, Value};

use crate::config::{Config, Entry, FunctionKind, LayerKind, Locations};
use crate::data::Format;
use crate::error::{ErrorKind, HieraError, Result};
use crate::explain::{Explainer, Kind};
use crate::key::{Dug, LookupKey, Segment, dig_one};
use crate::merge::Merge;
use crate::{FunctionOutcome, Hiera, Scope};

mod interpolate;
mod options;
mod providers;

use options::CompiledOptions;
use providers::Memo;

const LOOKUP_OPTIONS: &str = "lookup_options";

/// How many lookups may be under way inside one another.
const MAX_NESTING: usize = 100;

/// One layer as the search walks them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Layer {
    Global,
    Environment,
    Module,
}

/// A location of an entry, resolved.
#[derive(Clone, Debug)]
enum Location {
    /// An entry whose function needs no location.
    None,
    Path {
        original: String,
        path: PathBuf,
        exists: bool,
    },
    Uri {
        original: String,
        uri: String,
    },
}

#[derive(Default)]
struct State {
    global: Option<Option<Arc<Config>>>,
    environment: Option<Option<Arc<Config>>>,
    modules: FastMap<String, Option<Arc<Config>>>,
    options: FastMap<Option<String>, Option<Arc<CompiledOptions>>>,
    global_options: Option<Option<Value>>,
    env_options: Option<Option<Value>>,
    warnings: Vec<crate::Warning>,
    warned: HashSet<String, FastBuild>,
    eyaml_keys: FastMap<(PathBuf, PathBuf), std::result::Result<Arc<crate::eyaml::Keys>, String>>,
    /// What data provider functions written outside Hiera answered, per
    /// entry and location, as Puppet keeps it: a `data_hash` function's
    /// hash, a `lookup_key` or `data_dig` function's values by key.
    functions: FastMap<String, Memo>,
    /// Each entry's locations as last resolved, with the variables their
    /// interpolation read: reused while those variables keep their values.
    locations: FastMap<usize, Resolved>,
}

/// An entry's locations, with the variables (and their values) their
/// interpolation read.
type Resolved = (Vec<(String, Option<Value>)>, Arc<Vec<Location>>);

/// The lookups of one compile: configurations and `lookup_options` are
/// read once, data files once (through the [`Hiera`] it came from).
pub struct Session {
    hiera: Arc<Hiera>,
    state: RefCell<State>,
}

/// What travels down one lookup: the scope, the explanation, the keys
/// being looked up (to find loops) and the module of the key.
struct Inv<'a> {
    scope: &'a mut dyn Scope,
    explain: Option<&'a mut Explainer>,
    names: Vec<String>,
    module: Option<String>,
    /// The lookup comes from a legacy `hiera_*` function.
    legacy: bool,
    /// While resolving locations: the variables interpolation read.
    reads: Option<Vec<(String, Option<Value>)>>,
}

impl Inv<'_> {
    fn push(&mut self, kind: impl FnOnce() -> Kind) {
        if let Some(e) = self.explain.as_deref_mut() {
            e.push(kind());
        }
    }

    fn pop(&mut self) {
        if let Some(e) = self.explain.as_deref_mut() {
            e.pop();
        }
    }

    fn explain(&mut self, f: impl FnOnce(&mut Explainer)) {
        if let Some(e) = self.explain.as_deref_mut() {
            f(e);
        }
    }

    /// Runs `f` inside a node of the explanation.
    fn within<T>(&mut self, kind: impl FnOnce() -> Kind, f: impl FnOnce(&mut Self) -> T) -> T {
        self.push(kind);
        let result = f(self);
        self.pop();
        result
    }

    /// Runs `f` without explaining it (what Puppet computes once per
    /// configuration rather than per lookup).
    fn unexplained<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        let explain = self.explain.take();
        let result = f(self);
        self.explain = explain;
        result
    }

    /// Runs `f` with `name` on the stack of keys being looked up; a name
    /// already there is a loop.
    fn check<T>(&mut self, name: &str, f: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        // Interpolation that nests lookups deeper than any real data
        // does would exhaust the stack: it is refused instead.
        if self.names.len() >= MAX_NESTING {
            return Err(HieraError::new(
                ErrorKind::Recursion,
                format!(
                    "Lookups nested more than {MAX_NESTING} levels deep, from '{}'",
                    self.names[0]
                ),
            ));
        }
        if self.names.iter().any(|n| n == name) {
            return Err(HieraError::new(
                ErrorKind::Recursion,
                format!("Recursive lookup detected in [{}]", self.names.join(", ")),
            ));
        }
        self.names.push(name.to_string());
        let result = f(self);
        self.names.pop();
        result
    }
}

/// A lookup request as `lookup()` makes it.
pub struct Request<'a> {
    pub key: &'a str,
    /// `None`: the strategy `lookup_options` give, else `first`.
    pub merge: Option<Merge>,
    /// A legacy `hiera`, `hiera_array`, `hiera_hash` or `hiera_include`
    /// call (Hiera 3's `merge_behavior` applies).
    pub legacy: bool,
}

impl Session {
    pub(crate) fn new(hiera: Arc<Hiera>) -> Session {
        hiera.files.next_generation();
        Session {
            hiera,
            state: RefCell::new(State::default()),
        }
    }

    /// Warnings met so far (deprecated configurations, data files that
    /// hold no hash), each given once; taken by the caller to print.
    pub fn take_warnings(&self) -> Vec<crate::Warning> {
        std::mem::take(&mut self.state.borrow_mut().warnings)
    }

    /// A warning given once per compile.
    fn warn(&self, message: String, file: Option<&Path>) {
        let mut state = self.state.borrow_mut();
        if state.warned.insert(message.clone()) {
            state.warnings.push(crate::Warning {
                message,
                file: file.map(Path::to_path_buf),
            });
        }
    }

    /// A warning Puppet gives twice, once a compile: it logs the
    /// warnings of data providers on two destinations.
    fn warn_twice(&self, message: String) {
        let mut state = self.state.borrow_mut();
        if state.warned.insert(message.clone()) {
            for _ in 0..2 {
                state.warnings.push(crate::Warning {
                    message: message.clone(),
                    file: None,
                });
            }
        }
    }

    /// Looks up one key: `Ok(None)` when no layer has it.
    pub fn lookup(
        &self,
        request: &Request<'_>,
        scope: &mut dyn Scope,
        explain: Option<&mut Explainer>,
    ) -> Result<Option<Value>> {
        let mut inv = Inv {
            scope,
            explain,
            names: Vec::new(),
            module: None,
            legacy: request.legacy,
            reads: None,
        };
        self.lookup_in(&mut inv, request.key, request.merge.clone())
    }

    fn lookup_in(
        &self,
        inv: &mut Inv<'_>,
        text: &str,
        merge: Option<Merge>,
    ) -> Result<Option<Value>> {
        if text == LOOKUP_OPTIONS || text.starts_with("lookup_options.") {
            inv.explain(|e| e.leaf(Kind::InvalidKey(LOOKUP_OPTIONS.into())));
            return Ok(None);
        }
        let key = LookupKey::parse(text)?;
        let saved_module = std::mem::replace(&mut inv.module, key.module.clone());
        let result = self.lookup_key(inv, &key, merge);
        inv.module = saved_module;
        result
    }

    fn lookup_key(
        &self,
        inv: &mut Inv<'_>,
        key: &LookupKey,
        merge: Option<Merge>,
    ) -> Result<Option<Value>> {
        if inv.explain.as_ref().is_some_and(|e| e.only_options) {
            // `--explain-options` alone: the search for the options, merged
            // over the layers, and nothing else.
            let options_key = LookupKey::parse(LOOKUP_OPTIONS)?;
            self.do_lookup(inv, &options_key, Some(Merge::Hash))?;
            return Ok(None);
        }
        let options = self.options_for(inv, key)?;
        let option = |name: &str| {
            options.as_ref().and_then(|o| match o {
                Value::Hash(h) => h.get(&Value::string(name)).cloned(),
                _ => None,
            })
        };
        let merge = match merge {
            Some(merge) => Some(merge),
            None => match option("merge") {
                Some(value) => {
                    let merge = Merge::from_value(&value)?;
                    if merge.is_some() {
                        inv.explain(|e| e.leaf(Kind::MergeSource(LOOKUP_OPTIONS.into())));
                    }
                    merge
                }
                None => None,
            },
        };
        inv.push(|| Kind::Top(key.text.clone()));
        let found = match self.do_lookup(inv, key, merge) {
            Ok(None) => self.default_in_module(inv, key),
            other => other,
        };
        inv.pop();
        let Some(value) = found? else {
            return Ok(None);
        };
        match option("convert_to") {
            Some(convert) => self.convert(inv, &key.text, &convert, value).map(Some),
            None => Ok(Some(value)),
        }
    }

    /// `convert_to`: a type, or a type and arguments, given to `new`.
    fn convert(
        &self,
        inv: &mut Inv<'_>,
        key: &str,
        convert: &Value,
        value: Value,
    ) -> Result<Value> {
        let (type_value, args): (Value, Vec<Value>) = match convert {
            Value::Array(items) if !items.is_empty() => (items[0].clone(), items[1..].to_vec()),
            other => (other.clone(), Vec::new()),
        };
        let type_text = marionette_values::format::to_s(&type_value);
        let converted = inv
            .scope
            .convert_to(&type_text, value, &args)
            .map_err(|message| {
                HieraError::new(
                    ErrorKind::Type,
                    format!("The convert_to lookup_option for key '{key}' raised error: {message}"),
                )
            })?;
        inv.explain(|e| {
            let mut shown = vec![type_value.clone()];
            shown.extend(args.iter().cloned());
            e.text(format!(
                "Applying convert_to lookup_option with arguments {}",
                marionette_values::format::to_s(&Value::array(shown))
            ))
        });
        Ok(converted)
    }

    /// The three layers, merged with `merge`, then dug into.
    fn do_lookup(
        &self,
        inv: &mut Inv<'_>,
        key: &LookupKey,
        merge: Option<Merge>,
    ) -> Result<Option<Value>> {
        let strategy = merge.unwrap_or(Merge::First);
        let layers = [Layer::Global, Layer::Environment, Layer::Module];
        let value = self.merge_lookup(inv, &strategy, &layers, |this, inv, layer| {
            this.lookup_layer(inv, *layer, key, &strategy)
        })?;
        match value {
            Some(value) => self.dig(inv, key, value),
            None => Ok(None),
        }
    }

    /// Puppet's merge over several places: the first found for `first`,
    /// else every value found merged in order, explained as a merge.
    fn merge_lookup<T>(
        &self,
        inv: &mut Inv<'_>,
        strategy: &Merge,
        variants: &[T],
        mut each: impl FnMut(&Self, &mut Inv<'_>, &T) -> Result<Option<Value>>,
    ) -> Result<Option<Value>> {
        if strategy.is_first() {
            for variant in variants {
                if let Some(value) = each(self, inv, variant)? {
                    return Ok(Some(value));
                }
            }
            return Ok(None);
        }
        match variants {
            [] => Ok(None),
            [only] => Ok(each(self, inv, only)?.map(|v| strategy.single(v))),
            _ => {
                inv.push(|| Kind::Merge(strategy.name(), strategy.options()));
                let mut merged: Option<Value> = None;
                let mut failure = None;
                for variant in variants {
                    match each(self, inv, variant) {
                        Ok(Some(value)) => {
                            merged = Some(match merged.take() {
                                None => strategy.convert_first(value),
                                Some(memo) => match strategy.merge(memo, value) {
                                    Ok(v) => v,
                                    Err(e) => {
                                        failure = Some(e);
                                        break;
                                    }
                                },
                            });
                        }
                        Ok(None) => {}
                        Err(e) => {
                            failure = Some(e);
                            break;
                        }
                    }
                }
                if let (Some(value), None) = (&merged, &failure) {
                    inv.explain(|e| e.result(value));
                }
                inv.pop();
                match failure {
                    Some(e) => Err(e),
                    None => Ok(merged),
                }
            }
        }
    }

    fn dig(&self, inv: &mut Inv<'_>, key: &LookupKey, value: Value) -> Result<Option<Value>> {
        self.dig_explained(inv, &key.text, &key.segments, value)
    }

    /// Digs `segments` into a value, explained as a sub key.
    fn dig_explained(
        &self,
        inv: &mut Inv<'_>,
        key: &str,
        segments: &[Segment],
        value: Value,
    ) -> Result<Option<Value>> {
        if segments.is_empty() {
            return Ok(Some(value));
        }
        inv.within(
            || {
                Kind::SubLookup(
                    segments
                        .iter()
                        .map(|s| s.to_string())
                        .collect::<Vec<_>>()
                        .join("."),
                )
            },
            |inv| self.dig_segments(inv, key, segments, value),
        )
    }

    fn dig_segments(
        &self,
        inv: &mut Inv<'_>,
        key: &str,
        segments: &[Segment],
        mut value: Value,
    ) -> Result<Option<Value>> {
        for segment in segments {
            inv.push(|| Kind::Segment);
            let step = dig_one(&value, segment, key);
            let outcome = match step {
                Ok(Dug::Found(found)) => {
                    inv.explain(|e| e.found(&segment.to_string(), &found));
                    value = found;
                    Ok(true)
                }
                Ok(Dug::NotFound) => {
                    inv.explain(|e| e.not_found(&segment.to_string()));
                    Ok(false)
                }
                Err(e) => Err(e),
            };
            inv.pop();
            if !outcome? {
                return Ok(None);
            }
        }
        Ok(Some(value))
    }

    fn layer_config(&self, inv: &mut Inv<'_>, layer: Layer) -> Result<Option<Arc<Config>>> {
        match layer {
            Layer::Global => {
                if let Some(config) = &self.state.borrow().global {
                    return Ok(config.clone());
                }
                // Without its file, the global layer has Puppet's default
                // hierarchy beside where the file would be.
                let config = match &self.hiera.settings.global {
                    Some(path) if self.hiera.files.exists(path) => {
                        self.load_config(path, LayerKind::Global)?
                    }
                    Some(path) => Some(Arc::new(Config::default_for(
                        path.parent().unwrap_or(Path::new("/")),
                    ))),
                    None => None,
                };
                self.state.borrow_mut().global = Some(config.clone());
                Ok(config)
            }
            Layer::Environment => {
                if let Some(config) = &self.state.borrow().environment {
                    return Ok(config.clone());
                }
                // Puppet 7 gives an environment without `hiera.yaml` no
                // data layer at all.
                let config = match &self.hiera.settings.environment {
                    Some(dir) => self.config_in(dir, LayerKind::Environment)?,
                    None => None,
                };
                self.state.borrow_mut().environment = Some(config.clone());
                Ok(config)
            }
            Layer::Module => {
                let Some(module) = inv.module.clone() else {
                    return Ok(None);
                };
                if let Some(config) = self.state.borrow().modules.get(&module) {
                    return Ok(config.clone());
                }
                let config = match inv.scope.module_dir(&module) {
                    Some(dir) => self.config_in(&dir, LayerKind::Module)?,
                    None => None,
                };
                self.state
                    .borrow_mut()
                    .modules
                    .insert(module, config.clone());
                Ok(config)
            }
        }
    }

    /// The configuration of a directory's `hiera.yaml`, if it has one.
    fn config_in(&self, dir: &Path, layer: LayerKind) -> Result<Option<Arc<Config>>> {
        let path = dir.join("hiera.yaml");
        if self.hiera.files.exists(&path) {
            self.load_config(&path, layer)
        } else {
            Ok(None)
        }
    }

    fn load_config(&self, path: &Path, layer: LayerKind) -> Result<Option<Arc<Config>>> {
        let text = self.hiera.files.text(path);
        let text = match &*text {
            Ok(text) => text,
            Err(e) => {
                return Err(HieraError::new(
                    ErrorKind::Config,
                    format!("Unable to read {}: {e}", path.display()),
                ));
            }
        };
        let (config, warnings) = Config::load(path, text, layer, &self.hiera.settings.codedir)?;
        for warning in warnings {
            self.warn(warning, Some(path));
        }
        Ok(config.map(Arc::new))
    }

    fn lookup_layer(
        &self,
        inv: &mut Inv<'_>,
        layer: Layer,
        key: &LookupKey,
        strategy: &Merge,
    ) -> Result<Option<Value>> {
        if layer == Layer::Module {
            let Some(module) = inv.module.clone() else {
                return Ok(None);
            };
            let config = self.layer_config(inv, layer)?;
            let Some(config) = config else {
                let known = inv.scope.module_dir(&module).is_some();
                inv.explain(|e| {
                    e.leaf(if known {
                        Kind::ModuleProviderNotFound(module.clone())
                    } else {
                        Kind::ModuleNotFound(module.clone())
                    })
                });
                return Ok(None);
            };
            return inv.check(&key.text, |inv| {
                self.provider_lookup(inv, layer, &config, &config.hierarchy, key, strategy)
            });
        }
        let Some(config) = self.layer_config(inv, layer)? else {
            return Ok(None);
        };
        // Hiera 3's merge behaviour applies to the legacy functions' merges.
        let strategy = match (&config.v3_merge, strategy) {
            (Some(v3), Merge::Hash) if inv.legacy => v3.clone(),
            _ => strategy.clone(),
        };
        let result = inv.check(&key.text, |inv| {
            self.provider_lookup(inv, layer, &config, &config.hierarchy, key, &strategy)
        });
        // Puppet names the key a lookup error in the global layer happened
        // for (issues of configurations and functions keep their words).
        match result {
            Err(mut error)
                if layer == Layer::Global
                    && !matches!(error.kind, ErrorKind::Config | ErrorKind::Function) =>
            {
                error.message = format!("Lookup of key '{}' failed: {}", key.text, error.message);
                error.of_the_call = true;
                Err(error)
            }
            // Leaving another layer's data provider, Puppet makes any error
            // a lookup error again, which a compile does not locate.
            Err(mut error) if layer != Layer::Global => {
                error.of_the_call = false;
                Err(error)
            }
            other => other,
        }
    }

    /// A layer's hierarchy, explained as its data provider.
    fn provider_lookup(
        &self,
        inv: &mut Inv<'_>,
        layer: Layer,
        config: &Config,
        entries: &[Entry],
        key: &LookupKey,
        strategy: &Merge,
    ) -> Result<Option<Value>> {
        // Named only for an explanation: this runs for every key.
        let module = match (layer, inv.explain.is_some()) {
            (Layer::Module, true) => inv.module.clone(),
            _ => None,
        };
        inv.within(
            || {
                let place = match layer {
                    Layer::Global => "Global Data Provider".to_string(),
                    Layer::Environment => "Environment Data Provider".to_string(),
                    Layer::Module => format!(
                        "Module \"{}\" Data Provider",
                        module.as_deref().unwrap_or_default()
                    ),
                };
                Kind::DataProvider(
                    format!("{place} ({})", config.label()),
                    config.path.as_ref().map(|p| p.display().to_string()),
                )
            },
            |inv| match &config.problem {
                Some(problem) => Err(problem.clone()),
                None => self.provider_entries(inv, layer, config, entries, key, strategy),
            },
        )
    }

    fn provider_entries(
        &self,
        inv: &mut Inv<'_>,
        layer: Layer,
        config: &Config,
        entries: &[Entry],
        key: &LookupKey,
        strategy: &Merge,
    ) -> Result<Option<Value>> {
        // Entries with their resolved locations; the default configuration
        // leaves out entries whose files do not exist.
        let mut resolved = Vec::with_capacity(entries.len());
        for entry in entries {
            let locations = self.locations(inv, config, entry)?;
            if config.path.is_none() && locations.is_empty() {
                continue;
            }
            resolved.push((entry, locations));
        }
        if resolved.is_empty() {
            inv.explain(|e| e.not_found(&key.text));
            return Ok(None);
        }
        self.merge_lookup(inv, strategy, &resolved, |this, inv, (entry, locations)| {
            inv.push(|| Kind::DataProvider(format!("Hierarchy entry \"{}\"", entry.name), None));
            let result = this.merge_lookup(
                inv,
                strategy,
                locations.as_slice(),
                |this, inv, location| this.entry_lookup(inv, layer, config, entry, location, key),
            );
            inv.pop();
            result
        })
    }

    /// An entry's locations, interpolated. Puppet resolves them once per
    /// configuration, outside the explanation, so they are not explained.
    fn locations(
        &self,
        inv: &mut Inv<'_>,
        config: &Config,
        entry: &Entry,
    ) -> Result<Arc<Vec<Location>>> {
        inv.unexplained(|inv| self.cached_locations(inv, config, entry))
    }

    /// The locations resolved before for this entry, if the variables
    /// their interpolation read still have the same values (as Puppet
    /// keeps a configuration's providers while its scope is stable); else
    /// resolved anew.
    fn cached_locations(
        &self,
        inv: &mut Inv<'_>,
        config: &Config,
        entry: &Entry,
    ) -> Result<Arc<Vec<Location>>> {
        // Entries live as long as the session, inside its configurations.
        let id = std::ptr::from_ref(entry) as usize;
        let cached = self.state.borrow().locations.get(&id).cloned();
        if let Some((reads, locations)) = cached {
            let mut stable = true;
            for (key, before) in &reads {
                let now = self.scope_value(inv, key, key)?;
                if !same(&now, before) {
                    stable = false;
                    break;
                }
            }
            if stable {
                return Ok(locations);
            }
        }
        let saved = inv.reads.replace(Vec::new());
        let result = self.resolve_locations(inv, config, entry);
        let reads = std::mem::replace(&mut inv.reads, saved).unwrap_or_default();
        let locations = Arc::new(result?);
        self.state
            .borrow_mut()
            .locations
            .insert(id, (reads, locations.clone()));
        Ok(locations)
    }

    fn resolve_locations(
        &self,
        inv: &mut Inv<'_>,
        config: &Config,
        entry: &Entry,
    ) -> Result<Vec<Location>> {
        // Hiera 3 data directories are taken as written (relative ones
        // from the working directory), later versions' from the
        // configuration's directory.
        let datadir = if config.version == 3 {
            PathBuf::from(&entry.datadir)
        } else {
            config.root.join(&entry.datadir)
        };
        let datadir =
            PathBuf::from(self.interpolate_text(inv, &datadir.display().to_string(), false)?);
        let is_default = config.path.is_none();
        let mut out = Vec::new();
        match &entry.locations {
            Locations::None => out.push(Location::None),
            Locations::Paths(paths) => {
                for declared in paths {
                    let mut path = self.interpolate_text(inv, declared, false)?;
                    if let Some(ext) = &entry.extension
                        && !path.ends_with(ext.as_str())
                    {
                        path.push_str(ext);
                    }
                    let path = datadir.join(path);
                    let exists = self.hiera.files.exists(&path);
                    if is_default && !exists {
                        continue;
                    }
                    out.push(Location::Path {
                        original: declared.clone(),
                        path,
                        exists,
                    });
                }
            }
            Locations::Globs(globs) => {
                for declared in globs {
                    let pattern = datadir.join(self.interpolate_text(inv, declared, false)?);
                    let pattern = pattern.display().to_string();
                    for path in crate::glob::expand(&pattern) {
                        out.push(Location::Path {
                            original: pattern.clone(),
                            path,
                            exists: true,
                        });
                    }
                }
            }
            Locations::Uris(uris) => {
                for declared in uris {
                    let uri = self.interpolate_text(inv, declared, false)?;
                    out.push(Location::Uri {
                        original: declared.clone(),
                        uri,
                    });
                }
            }
            Locations::Mapped(source, var, template) => {
                let values = self.scope_value(inv, source, "mapped_path[0]")?;
                if let Some(reads) = inv.reads.as_mut() {
                    reads.push((source.clone(), values.clone()));
                }
                let values = match values {
                    None | Some(Value::Undef) => Vec::new(),
                    Some(Value::String(s)) => vec![Value::String(s)],
                    Some(Value::Array(items)) => items.to_vec(),
                    // A hash maps each of its pairs, as a two-element array.
                    Some(Value::Hash(h)) => h
                        .iter()
                        .map(|(k, v)| Value::array(vec![k.clone(), v.clone()]))
                        .collect(),
                    Some(other) => vec![other],
                };
                for value in values {
                    let locals = [(var.as_str(), value)];
                    let path = self.interpolate_with(inv, template, false, &locals)?;
                    let path = datadir.join(path);
                    let exists = self.hiera.files.exists(&path);
                    out.push(Location::Path {
                        original: template.clone(),
                        path,
                        exists,
                    });
                }
            }
        }
        Ok(out)
    }

    /// One location of one entry.
    fn entry_lookup(
        &self,
        inv: &mut Inv<'_>,
        layer: Layer,
        config: &Config,
        entry: &Entry,
        location: &Location,
        key: &LookupKey,
    ) -> Result<Option<Value>> {
        match location {
            Location::None => self.function_lookup(inv, layer, config, entry, location, key),
            Location::Path {
                original,
                path,
                exists,
            } => inv.within(
                || Kind::Location {
                    uri: false,
                    location: path.display().to_string(),
                    original: original.clone(),
                },
                |inv| {
                    if *exists {
                        self.function_lookup(inv, layer, config, entry, location, key)
                    } else {
                        inv.explain(|e| e.location_not_found());
                        Ok(None)
                    }
                },
            ),
            Location::Uri { original, uri } => inv.within(
                || Kind::Location {
                    uri: true,
                    location: uri.clone(),
                    original: original.clone(),
                },
                |inv| self.function_lookup(inv, layer, config, entry, location, key),
            ),
        }
    }
}

/// Whether two variables read are the same, shared values compared by
/// address first (the facts hash is read for every path).
fn same(a: &Option<Value>, b: &Option<Value>) -> bool {
    match (a, b) {
        (Some(Value::Hash(x)), Some(Value::Hash(y))) if Arc::ptr_eq(x, y) => true,
        (Some(Value::Array(x)), Some(Value::Array(y))) if Arc::ptr_eq(x, y) => true,
        (x, y) => x == y,
    }
}

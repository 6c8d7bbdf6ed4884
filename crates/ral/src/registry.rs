//! The registry of types and providers. It is a value, not a global: each
//! environment builds its own (the built-in types plus what its modules
//! ship), so two environments can hold different versions of a type.

use std::sync::{Arc, OnceLock};

use indexmap::IndexMap;

use crate::error::RalError;
use crate::provider::ProviderDef;
use crate::typedef::TypeDef;

/// A check for a system feature that providers confine on.
pub type FeatureCheck = Arc<dyn Fn() -> bool + Send + Sync>;

/// Makes providers on demand: a provider shipped as an executable has to be
/// started to say what it is, which a run should pay for only when it
/// manages a resource of that type.
pub type ProviderLoader = Arc<dyn Fn() -> Vec<ProviderDef> + Send + Sync>;

/// Makes a type on demand: a module's type whose file alone does not tell
/// its attributes (a mixin's method declares them) is described by running
/// its Ruby, which a run should pay for only when it uses the type. Its
/// error says why the type cannot be used.
pub type TypeLoader = Arc<dyn Fn() -> Result<Arc<TypeDef>, String> + Send + Sync>;

/// A type still to be made, and what making it gave.
#[derive(Clone)]
struct LazyType {
    loader: TypeLoader,
    made: OnceLock<Result<Arc<TypeDef>, String>>,
}

impl LazyType {
    fn made(&self) -> &Result<Arc<TypeDef>, String> {
        self.made.get_or_init(|| {
            let made = (self.loader)()?;
            made.check()?;
            Ok(made)
        })
    }
}

/// The providers of one type: those added outright, and those still to be
/// made by loaders, resolved together the first time they are asked for.
#[derive(Clone, Default)]
struct TypeProviders {
    added: Vec<Arc<ProviderDef>>,
    loaders: Vec<ProviderLoader>,
    resolved: OnceLock<Vec<Arc<ProviderDef>>>,
    /// Providers made only when a resource names one of them.
    named: Vec<NamedLoader>,
}

/// A loader of providers that no platform takes by default, run the first
/// time a resource names one of `names`.
#[derive(Clone)]
struct NamedLoader {
    names: Vec<String>,
    loader: ProviderLoader,
    made: OnceLock<Vec<Arc<ProviderDef>>>,
}

#[derive(Clone)]
pub struct Registry {
    types: IndexMap<String, Arc<TypeDef>>,
    lazy_types: IndexMap<String, LazyType>,
    providers: IndexMap<String, TypeProviders>,
    features: IndexMap<String, FeatureCheck>,
}

impl Default for Registry {
    fn default() -> Registry {
        Registry::new()
    }
}

/// A loaded provider without the features its type does not define: such
/// a feature gives nothing, and the provider stays.
fn without_unknown_features(
    mut provider: ProviderDef,
    type_def: Option<&Arc<TypeDef>>,
) -> ProviderDef {
    provider
        .features
        .retain(|f| type_def.is_some_and(|t| t.feature_def(f).is_some()));
    provider
}

/// Whether systemd is the init system, asked as Puppet's service
/// providers ask it: by the name of process 1. In a chroot or an image
/// build on a systemd host, that is the host's systemd (Puppet then picks
/// the systemd provider, whatever `/run` holds); in a container whose
/// first process is a shell, it is not.
pub fn systemd_is_init() -> bool {
    std::fs::read_to_string("/proc/1/comm").is_ok_and(|comm| comm.contains("systemd"))
}

impl Registry {
    /// An empty registry that knows the system features `posix` and
    /// `root`.
    pub fn new() -> Registry {
        let mut registry = Registry {
            types: IndexMap::new(),
            lazy_types: IndexMap::new(),
            providers: IndexMap::new(),
            features: IndexMap::new(),
        };
        registry.add_feature("posix", || cfg!(unix));
        // SAFETY: geteuid(2) has no preconditions and cannot fail.
        registry.add_feature("root", || unsafe { libc::geteuid() } == 0);
        registry.add_feature("systemd", systemd_is_init);
        registry
    }

    /// Adds a type, or replaces one of the same name (a module may ship a
    /// type of its own under a name Marionette uses). A replaced type's
    /// providers go with it: they were written for the other type's
    /// attributes. Refuses a malformed definition.
    pub fn add_type(&mut self, type_def: TypeDef) -> Result<Arc<TypeDef>, RalError> {
        type_def.check().map_err(RalError::InvalidType)?;
        let type_def = Arc::new(type_def);
        self.lazy_types.shift_remove(&type_def.name);
        let replaced = self
            .types
            .insert(type_def.name.clone(), type_def.clone())
            .is_some();
        let providers = self.providers.entry(type_def.name.clone()).or_default();
        if replaced {
            *providers = TypeProviders::default();
        }
        Ok(type_def)
    }

    /// Adds a provider to its type, replacing one of the same name.
    pub fn add_provider(&mut self, provider: ProviderDef) -> Result<(), RalError> {
        let Some(type_def) = self.type_def(&provider.type_name) else {
            return Err(RalError::InvalidProvider(format!(
                "provider {} is for the unknown type {}",
                provider.name, provider.type_name
            )));
        };
        for feature in &provider.features {
            if type_def.feature_def(feature).is_none() {
                return Err(RalError::InvalidProvider(format!(
                    "provider {} declares the feature '{feature}', which type {} does not define",
                    provider.name, provider.type_name
                )));
            }
        }
        let list = self
            .providers
            .entry(provider.type_name.clone())
            .or_default();
        if let Some(parent) = &provider.parent
            && !list.added.iter().any(|p| &p.name == parent)
        {
            return Err(RalError::InvalidProvider(format!(
                "provider {} names the unknown parent provider {parent}",
                provider.name
            )));
        }
        list.resolved.take();
        match list.added.iter().position(|p| p.name == provider.name) {
            Some(index) => list.added[index] = Arc::new(provider),
            None => list.added.push(Arc::new(provider)),
        }
        Ok(())
    }

    /// Adds providers to a type that `loader` makes the first time the
    /// type's providers are needed. A loaded provider replaces an added
    /// one of the same name; one that declares a feature its type does not
    /// define is dropped, as [`Registry::add_provider`] would refuse it.
    pub fn add_provider_loader(&mut self, type_name: &str, loader: ProviderLoader) {
        let list = self
            .providers
            .entry(type_name.to_ascii_lowercase())
            .or_default();
        list.resolved.take();
        list.loaders.push(loader);
    }

    /// Adds providers of a type that `loader` makes the first time a
    /// resource names one of `names`: providers no platform takes by
    /// default (a module's Ruby provider for a native type, swift's
    /// `swiftinit` for `service`, which declares no `defaultfor`), so a
    /// run that names none of them never loads them. They are not listed
    /// among the type's providers, and a provider the type already has
    /// keeps its name.
    pub fn add_named_provider_loader(
        &mut self,
        type_name: &str,
        names: Vec<String>,
        loader: ProviderLoader,
    ) {
        self.providers
            .entry(type_name.to_ascii_lowercase())
            .or_default()
            .named
            .push(NamedLoader {
                names,
                loader,
                made: OnceLock::new(),
            });
    }

    /// Adds a type that `loader` makes the first time it is asked for,
    /// unless a type of that name is added outright.
    pub fn add_type_loader(&mut self, name: &str, loader: TypeLoader) {
        let name = name.to_ascii_lowercase();
        if self.types.contains_key(&name) {
            return;
        }
        self.providers.entry(name.clone()).or_default();
        self.lazy_types.insert(
            name,
            LazyType {
                loader,
                made: OnceLock::new(),
            },
        );
    }

    /// Adds a system feature for `confine :feature`.
    pub fn add_feature(&mut self, name: &str, check: impl Fn() -> bool + Send + Sync + 'static) {
        self.features.insert(name.to_string(), Arc::new(check));
    }

    /// A type; one made on demand is made now.
    pub fn type_def(&self, name: &str) -> Option<&Arc<TypeDef>> {
        let name = name.to_ascii_lowercase();
        self.types
            .get(&name)
            .or_else(|| self.lazy_types.get(&name)?.made().as_ref().ok())
    }

    /// A type, or the error naming it (and why, when it could not be
    /// made).
    pub fn require_type(&self, name: &str) -> Result<&Arc<TypeDef>, RalError> {
        let name = name.to_ascii_lowercase();
        if let Some(lazy) = self.lazy_types.get(&name) {
            return lazy
                .made()
                .as_ref()
                .map_err(|why| RalError::InvalidType(format!("type {name}: {why}")));
        }
        self.type_def(&name).ok_or(RalError::UnknownType(name))
    }

    /// Every type made so far, sorted by name: those made on demand are
    /// left out until something asks for them (a compile lists the types
    /// it may meet without starting Ruby to describe them).
    pub fn types(&self) -> Vec<&Arc<TypeDef>> {
        self.sorted(
            self.lazy_types
                .values()
                .filter_map(|lazy| lazy.made.get()?.as_ref().ok()),
        )
    }

    /// The names of every type, those not made yet included, without
    /// making any.
    pub fn names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self
            .types
            .keys()
            .chain(self.lazy_types.keys())
            .map(String::as_str)
            .collect();
        names.sort_unstable();
        names
    }

    /// Every type, sorted by name, those made on demand made now (and
    /// left out when they cannot be): what `describe --list` shows.
    pub fn all_types(&self) -> Vec<&Arc<TypeDef>> {
        self.sorted(
            self.lazy_types
                .values()
                .filter_map(|lazy| lazy.made().as_ref().ok()),
        )
    }

    fn sorted<'a>(&'a self, lazy: impl Iterator<Item = &'a Arc<TypeDef>>) -> Vec<&'a Arc<TypeDef>> {
        let mut types: Vec<&Arc<TypeDef>> = self.types.values().chain(lazy).collect();
        types.sort_by(|a, b| a.name.cmp(&b.name));
        types
    }

    /// The providers of a type, in declaration order (implicit ones
    /// included). The first call for a type runs its loaders.
    pub fn providers(&self, type_name: &str) -> &[Arc<ProviderDef>] {
        let Some(list) = self.providers.get(&type_name.to_ascii_lowercase()) else {
            return &[];
        };
        if list.loaders.is_empty() {
            return &list.added;
        }
        list.resolved.get_or_init(|| {
            let mut all = list.added.clone();
            let type_def = self.type_def(type_name);
            for loader in &list.loaders {
                for provider in loader() {
                    let provider = without_unknown_features(provider, type_def);
                    match all.iter().position(|p| p.name == provider.name) {
                        Some(index) => all[index] = Arc::new(provider),
                        None => all.push(Arc::new(provider)),
                    }
                }
            }
            all
        })
    }

    /// Whether a type has providers to choose between (not only an
    /// implicit stand-in), without running its loaders.
    pub fn has_providers(&self, type_name: &str) -> bool {
        self.providers
            .get(&type_name.to_ascii_lowercase())
            .is_some_and(|list| !list.loaders.is_empty() || list.added.iter().any(|p| !p.implicit))
    }

    /// The providers to document: not the implicit stand-ins.
    pub fn documented_providers(&self, type_name: &str) -> Vec<&Arc<ProviderDef>> {
        let mut list: Vec<&Arc<ProviderDef>> = self
            .providers(type_name)
            .iter()
            .filter(|p| !p.implicit)
            .collect();
        list.sort_by(|a, b| a.name.cmp(&b.name));
        list
    }

    /// The provider of a type named `name`, made now when a loader added
    /// with [`Registry::add_named_provider_loader`] makes it.
    pub fn provider(&self, type_name: &str, name: &str) -> Option<&Arc<ProviderDef>> {
        if let Some(found) = self.providers(type_name).iter().find(|p| p.name == name) {
            return Some(found);
        }
        let list = self.providers.get(&type_name.to_ascii_lowercase())?;
        let named = list
            .named
            .iter()
            .find(|n| n.names.iter().any(|n| n == name))?;
        let type_def = self.type_def(type_name);
        named
            .made
            .get_or_init(|| {
                (named.loader)()
                    .into_iter()
                    .map(|provider| Arc::new(without_unknown_features(provider, type_def)))
                    .collect()
            })
            .iter()
            .find(|p| p.name == name)
    }

    /// Whether a system feature is present (`None`: unknown feature).
    pub fn system_feature(&self, name: &str) -> Option<bool> {
        self.features.get(name).map(|check| check())
    }
}

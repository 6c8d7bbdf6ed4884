//! The registry of types and providers. It is a value, not a global: each
//! environment builds its own (the built-in types plus what its modules
//! ship), so two environments can hold different versions of a type.

use std::sync::Arc;

use indexmap::IndexMap;

use crate::error::RalError;
use crate::provider::ProviderDef;
use crate::typedef::TypeDef;

/// A check for a system feature that providers confine on.
pub type FeatureCheck = Arc<dyn Fn() -> bool + Send + Sync>;

#[derive(Clone)]
pub struct Registry {
    types: IndexMap<String, Arc<TypeDef>>,
    providers: IndexMap<String, Vec<Arc<ProviderDef>>>,
    features: IndexMap<String, FeatureCheck>,
}

impl Default for Registry {
    fn default() -> Registry {
        Registry::new()
    }
}

impl Registry {
    /// An empty registry that knows the system features `posix` and
    /// `root`.
    pub fn new() -> Registry {
        let mut registry = Registry {
            types: IndexMap::new(),
            providers: IndexMap::new(),
            features: IndexMap::new(),
        };
        registry.add_feature("posix", || cfg!(unix));
        // SAFETY: geteuid(2) has no preconditions and cannot fail.
        registry.add_feature("root", || unsafe { libc::geteuid() } == 0);
        registry.add_feature("systemd", || {
            std::path::Path::new("/run/systemd/system").is_dir()
        });
        registry
    }

    /// Adds a type, or replaces one of the same name (a module may ship a
    /// newer version of a type). Refuses a malformed definition.
    pub fn add_type(&mut self, type_def: TypeDef) -> Result<Arc<TypeDef>, RalError> {
        type_def.check().map_err(RalError::InvalidType)?;
        let type_def = Arc::new(type_def);
        self.types.insert(type_def.name.clone(), type_def.clone());
        self.providers.entry(type_def.name.clone()).or_default();
        Ok(type_def)
    }

    /// Adds a provider to its type, replacing one of the same name.
    pub fn add_provider(&mut self, provider: ProviderDef) -> Result<(), RalError> {
        let Some(type_def) = self.types.get(&provider.type_name) else {
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
        if let Some(parent) = &provider.parent
            && !self.providers[&provider.type_name]
                .iter()
                .any(|p| &p.name == parent)
        {
            return Err(RalError::InvalidProvider(format!(
                "provider {} names the unknown parent provider {parent}",
                provider.name
            )));
        }
        let list = self
            .providers
            .entry(provider.type_name.clone())
            .or_default();
        match list.iter().position(|p| p.name == provider.name) {
            Some(index) => list[index] = Arc::new(provider),
            None => list.push(Arc::new(provider)),
        }
        Ok(())
    }

    /// Adds a system feature for `confine :feature`.
    pub fn add_feature(&mut self, name: &str, check: impl Fn() -> bool + Send + Sync + 'static) {
        self.features.insert(name.to_string(), Arc::new(check));
    }

    pub fn type_def(&self, name: &str) -> Option<&Arc<TypeDef>> {
        self.types.get(&name.to_ascii_lowercase())
    }

    /// A type, or the error naming it.
    pub fn require_type(&self, name: &str) -> Result<&Arc<TypeDef>, RalError> {
        self.type_def(name)
            .ok_or_else(|| RalError::UnknownType(name.to_ascii_lowercase()))
    }

    /// Every type, sorted by name.
    pub fn types(&self) -> Vec<&Arc<TypeDef>> {
        let mut types: Vec<&Arc<TypeDef>> = self.types.values().collect();
        types.sort_by(|a, b| a.name.cmp(&b.name));
        types
    }

    /// The providers of a type, in declaration order (implicit ones
    /// included).
    pub fn providers(&self, type_name: &str) -> &[Arc<ProviderDef>] {
        self.providers
            .get(&type_name.to_ascii_lowercase())
            .map(Vec::as_slice)
            .unwrap_or(&[])
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

    pub fn provider(&self, type_name: &str, name: &str) -> Option<&Arc<ProviderDef>> {
        self.providers(type_name).iter().find(|p| p.name == name)
    }

    /// Whether a system feature is present (`None`: unknown feature).
    pub fn system_feature(&self, name: &str) -> Option<bool> {
        self.features.get(name).map(|check| check())
    }
}

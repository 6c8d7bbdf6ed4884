//! Provider suitability and selection, decided lazily: a provider is
//! checked when a resource first needs it, and checked again after the run
//! changed the system (a package that installs a provider's command makes
//! the provider usable later in the same run).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::error::RalError;
use crate::log::Logger;
use crate::provider::{Confine, Facts, ProviderDef, fact_text};
use crate::registry::Registry;
use crate::resource::Resource;
use marionette_values::fasthash::FastMap;

/// Chooses providers for resources.
pub struct Selector {
    registry: Arc<Registry>,
    facts: Arc<Facts>,
    logger: Logger,
    /// `(type, provider)` → `None` when suitable, or why not.
    cache: Mutex<HashMap<(String, String), Option<String>>>,
    /// Each type's default provider, found from the verdicts above: every
    /// resource of a type without a `provider` asks for it.
    defaults: Mutex<FastMap<String, Arc<ProviderDef>>>,
}

impl Selector {
    pub fn new(registry: Arc<Registry>, facts: Arc<Facts>, logger: Logger) -> Selector {
        Selector {
            registry,
            facts,
            logger,
            cache: Mutex::default(),
            defaults: Mutex::default(),
        }
    }

    pub fn registry(&self) -> &Arc<Registry> {
        &self.registry
    }

    /// Forgets every verdict: call after a change to the system.
    pub fn invalidate(&self) {
        self.cache.lock().unwrap_or_else(|e| e.into_inner()).clear();
        self.defaults
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
    }

    /// `None` when the provider is suitable, else the reason it is not. The
    /// verdict is logged at debug level the first time.
    pub fn unsuitable(&self, provider: &ProviderDef) -> Option<String> {
        let key = (provider.type_name.clone(), provider.name.clone());
        if let Some(verdict) = self
            .cache
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
        {
            return verdict.clone();
        }
        let verdict = self.check(provider);
        if let Some(reason) = &verdict {
            self.logger.debug(
                &format!("Provider {}", provider.name),
                &format!(
                    "Provider {} is not functional on this host: {reason}",
                    provider.name
                ),
            );
        }
        self.cache
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key, verdict.clone());
        verdict
    }

    fn check(&self, provider: &ProviderDef) -> Option<String> {
        for (name, program) in &provider.commands {
            if crate::command::which(program).is_none() {
                return Some(format!("command {name} is missing ({program} not found)"));
            }
        }
        for confine in &provider.confines {
            match confine {
                Confine::Exists(path) if !path.exists() => {
                    return Some(format!("file {} does not exist", path.display()));
                }
                Confine::True(what, check) if !check() => return Some(format!("{what} is false")),
                Confine::False(what, check) if check() => return Some(format!("{what} is true")),
                Confine::Broken(why) => return Some(why.clone()),
                Confine::Fact { name, values } => {
                    let actual = fact_text(&self.facts, name);
                    let matches = actual
                        .as_deref()
                        .is_some_and(|a| values.iter().any(|v| v.eq_ignore_ascii_case(a)));
                    if !matches {
                        return Some(format!(
                            "fact {name} is {}, not {}",
                            actual.map_or("unset".to_string(), |a| format!("'{a}'")),
                            values.join(" or ")
                        ));
                    }
                }
                Confine::Feature(feature) => match self.registry.system_feature(feature) {
                    Some(true) => {}
                    Some(false) => return Some(format!("feature {feature} is missing")),
                    None => return Some(format!("feature {feature} is unknown")),
                },
                _ => {}
            }
        }
        None
    }

    /// How specifically a provider is the default here: the size of the
    /// largest `defaultfor` entry whose facts all match, 0 when none does.
    pub fn specificity(&self, provider: &ProviderDef) -> usize {
        provider
            .defaultfor
            .iter()
            .filter(|entry| {
                entry.iter().all(|(fact, values)| {
                    fact_text(&self.facts, fact).is_some_and(|actual| {
                        values.iter().any(|v| v.eq_ignore_ascii_case(&actual))
                    })
                })
            })
            .map(Vec::len)
            .max()
            .unwrap_or(0)
    }

    /// The suitable providers of a type, in declaration order.
    pub fn suitable(&self, type_name: &str) -> Vec<Arc<ProviderDef>> {
        self.registry
            .providers(type_name)
            .iter()
            .filter(|p| self.unsuitable(p).is_none())
            .cloned()
            .collect()
    }

    /// The default provider of a type: the most specific `defaultfor`
    /// match among the suitable ones, else the first suitable one.
    pub fn default_provider(&self, type_name: &str) -> Result<Arc<ProviderDef>, RalError> {
        if let Some(found) = self
            .defaults
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(type_name)
        {
            return Ok(found.clone());
        }
        let found = self.find_default(type_name)?;
        self.defaults
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(type_name.to_string(), found.clone());
        Ok(found)
    }

    fn find_default(&self, type_name: &str) -> Result<Arc<ProviderDef>, RalError> {
        let suitable = self.suitable(type_name);
        let best = suitable
            .iter()
            .enumerate()
            .max_by_key(|(index, p)| (self.specificity(p), std::cmp::Reverse(*index)))
            .map(|(_, p)| p.clone());
        best.ok_or_else(|| RalError::NoSuitableProvider {
            type_name: type_name.to_string(),
            reasons: self
                .registry
                .providers(type_name)
                .iter()
                .map(|p| (p.name.clone(), self.unsuitable(p).unwrap_or_default()))
                .collect(),
        })
    }

    /// The provider for a resource: the one it names, or the default; then
    /// checks that it has every feature the resource's attributes need.
    pub fn select(&self, resource: &Resource) -> Result<Arc<ProviderDef>, RalError> {
        let type_name = resource.type_name();
        let provider = match resource.provider() {
            Some(name) => {
                let Some(provider) = self.registry.provider(type_name, name) else {
                    let known: Vec<&str> = self
                        .registry
                        .documented_providers(type_name)
                        .iter()
                        .map(|p| p.name.as_str())
                        .collect();
                    return Err(RalError::BadProvider {
                        resource: resource.reference(),
                        provider: name.to_string(),
                        detail: format!(
                            "no such provider; {type_name} has {}",
                            list_or_none(&known)
                        ),
                        origin: resource.origin().clone(),
                    });
                };
                if self.unsuitable(provider).is_some() {
                    return Err(RalError::Unsuitable {
                        provider: name.to_string(),
                    });
                }
                provider.clone()
            }
            None => self.default_provider(type_name)?,
        };
        self.leave_unsupported(resource, &provider);
        Ok(provider)
    }

    /// As Puppet: an attribute that needs features the provider lacks is
    /// not managed (its docs say it is an error; Puppet 7 only says so in
    /// its debug output).
    fn leave_unsupported(&self, resource: &Resource, provider: &ProviderDef) {
        let type_def = resource.type_def();
        for (attr, missing) in resource.leave_unsupported(|f| provider.has_feature(type_def, f)) {
            self.logger.log(
                crate::log::Level::Debug,
                &resource.path(),
                &format!(
                    "Provider {} does not support features {}; not managing attribute {}",
                    provider.name,
                    missing.join(", "),
                    attr.name
                ),
            );
        }
    }
}

fn list_or_none(names: &[&str]) -> String {
    if names.is_empty() {
        "no providers".to_string()
    } else {
        names.join(", ")
    }
}

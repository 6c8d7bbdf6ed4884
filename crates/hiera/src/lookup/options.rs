//! `lookup_options`: read once per module and compile from the global,
//! environment and module layers (merged as hashes, the earlier layer
//! winning), split into exact keys and regexp patterns; and a module's
//! `default_hierarchy`, searched when nothing else answered.

use super::*;

impl Session {
    /// The `lookup_options` that apply to `key`.
    pub(super) fn options_for(&self, inv: &mut Inv<'_>, key: &LookupKey) -> Result<Option<Value>> {
        let module = key.module.clone();
        let cached = self.state.borrow().options.get(&module).cloned();
        let compiled = match cached {
            Some(compiled) => compiled,
            None => {
                let compiled = self.retrieve_options(inv, module.as_deref())?;
                self.state
                    .borrow_mut()
                    .options
                    .insert(module, compiled.clone());
                compiled
            }
        };
        Ok(compiled.and_then(|c| extract(&c, &key.root)))
    }

    pub(super) fn retrieve_options(
        &self,
        inv: &mut Inv<'_>,
        module: Option<&str>,
    ) -> Result<Option<Arc<CompiledOptions>>> {
        // A lookup of its own, with its own stack of keys.
        let saved_names = std::mem::take(&mut inv.names);
        inv.push(|| Kind::Top(LOOKUP_OPTIONS.into()));
        let result = self.retrieve_options_in(inv, module);
        inv.pop();
        inv.names = saved_names;
        result
    }

    pub(super) fn retrieve_options_in(
        &self,
        inv: &mut Inv<'_>,
        module: Option<&str>,
    ) -> Result<Option<Arc<CompiledOptions>>> {
        let options_key = LookupKey::parse(LOOKUP_OPTIONS)?;
        let mut options = self.env_options(inv, &options_key)?;
        if let Some(module) = module {
            let has_env = self.state.borrow().options.contains_key(&None);
            if !has_env {
                let compiled = compile_options(options.clone())?;
                self.state.borrow_mut().options.insert(None, compiled);
            }
            let module_options =
                self.lookup_layer(inv, Layer::Module, &options_key, &Merge::Hash)?;
            if let Some(module_options) = module_options {
                validate_options(&module_options, Some(module))?;
                options = match options {
                    None => Some(module_options),
                    Some(env) => {
                        let parts = [
                            ("Global and Environment".to_string(), env),
                            (format!("Module {module}"), module_options),
                        ];
                        self.merge_lookup(inv, &Merge::Hash, &parts, |_, inv, (name, value)| {
                            inv.push(|| Kind::Scope(name.clone()));
                            inv.explain(|e| e.found(LOOKUP_OPTIONS, value));
                            inv.pop();
                            Ok(Some(value.clone()))
                        })?
                    }
                };
            }
        }
        compile_options(options)
    }

    /// The global and environment layers' `lookup_options`, merged.
    pub(super) fn env_options(
        &self,
        inv: &mut Inv<'_>,
        options_key: &LookupKey,
    ) -> Result<Option<Value>> {
        if let Some(options) = &self.state.borrow().env_options {
            return Ok(options.clone());
        }
        let cached = self.state.borrow().global_options.clone();
        let global = match cached {
            Some(global) => global,
            None => {
                let g = self.lookup_layer(inv, Layer::Global, options_key, &Merge::Hash)?;
                if let Some(g) = &g {
                    validate_options(g, None)?;
                }
                self.state.borrow_mut().global_options = Some(g.clone());
                g
            }
        };
        let env = self.lookup_layer(inv, Layer::Environment, options_key, &Merge::Hash)?;
        if let Some(env) = &env {
            validate_options(env, None)?;
        }
        let merged = match (global, env) {
            (None, env) => env,
            (global, None) => global,
            (Some(global), Some(env)) => Some(Merge::Hash.merge(global, env)?),
        };
        self.state.borrow_mut().env_options = Some(merged.clone());
        Ok(merged)
    }

    /// A module's `default_hierarchy`, searched when nothing else answered.
    pub(super) fn default_in_module(
        &self,
        inv: &mut Inv<'_>,
        key: &LookupKey,
    ) -> Result<Option<Value>> {
        let Some(module) = inv.module.clone() else {
            return Ok(None);
        };
        let Some(config) = self.layer_config(inv, Layer::Module)? else {
            return Ok(None);
        };
        if config.default_hierarchy.is_empty() {
            return Ok(None);
        }
        inv.push(|| {
            Kind::Scope(format!(
                "Searching default_hierarchy of module \"{module}\""
            ))
        });
        let result = (|| {
            let options_key = LookupKey::parse(LOOKUP_OPTIONS)?;
            inv.push(|| Kind::Scope(format!("Searching for \"{LOOKUP_OPTIONS}\"")));
            let options = self.provider_lookup(
                inv,
                Layer::Module,
                &config,
                &config.default_hierarchy,
                &options_key,
                &Merge::Hash,
            );
            inv.pop();
            let options = compile_options(options?)?;
            let merge = match options.and_then(|o| extract(&o, &key.root)) {
                Some(Value::Hash(h)) => match h.get(&Value::string("merge")) {
                    Some(m) => Merge::from_value(m)?,
                    None => None,
                },
                _ => None,
            };
            inv.push(|| Kind::Scope(format!("Searching for \"{}\"", key.text)));
            let strategy = merge.unwrap_or(Merge::First);
            let found = inv.check(&key.text, |inv| {
                self.provider_lookup(
                    inv,
                    Layer::Module,
                    &config,
                    &config.default_hierarchy,
                    key,
                    &strategy,
                )
            });
            inv.pop();
            match found? {
                Some(value) => self.dig(inv, key, value),
                None => Ok(None),
            }
        })();
        inv.pop();
        result
    }
}

/// `lookup_options` with exact keys apart from patterns.
#[derive(Debug, Default)]
pub(super) struct CompiledOptions {
    keys: PHash,
    patterns: Vec<(Regex, Value)>,
}

pub(super) fn validate_options(options: &Value, module: Option<&str>) -> Result<()> {
    let Value::Hash(hash) = options else {
        return Err(HieraError::new(
            ErrorKind::Type,
            "value of lookup_options must be a hash",
        ));
    };
    let Some(module) = module else {
        return Ok(());
    };
    let prefix = format!("{module}::");
    for k in hash.keys() {
        let k = marionette_values::format::to_s(k);
        if let Some(pattern) = k.strip_prefix('^') {
            if !pattern.starts_with(&prefix) {
                return Err(HieraError::new(
                    ErrorKind::Syntax,
                    format!(
                        "all lookup_options patterns must match a key starting with module name '{module}'"
                    ),
                ));
            }
        } else if !k.starts_with(&prefix) {
            return Err(HieraError::new(
                ErrorKind::Syntax,
                format!("all lookup_options keys must start with module name '{module}'"),
            ));
        }
    }
    Ok(())
}

pub(super) fn compile_options(options: Option<Value>) -> Result<Option<Arc<CompiledOptions>>> {
    let Some(Value::Hash(hash)) = options else {
        return Ok(None);
    };
    let mut compiled = CompiledOptions::default();
    for (k, v) in hash.iter() {
        let name = marionette_values::format::to_s(k);
        if name.starts_with('^') {
            let regex = Regex::new(&name).map_err(|e| {
                HieraError::new(
                    ErrorKind::Syntax,
                    format!("Invalid lookup_options pattern '{name}': {e}"),
                )
            })?;
            compiled.patterns.push((regex, v.clone()));
        } else {
            compiled.keys.insert(k.clone(), v.clone());
        }
    }
    Ok(Some(Arc::new(compiled)))
}

pub(super) fn extract(options: &CompiledOptions, root: &str) -> Option<Value> {
    if let Some(value) = options.keys.get(&Value::string(root)) {
        return Some(value.clone());
    }
    options
        .patterns
        .iter()
        .find(|(regex, _)| regex.is_match(root))
        .map(|(_, v)| v.clone())
}

//! The data providers of hierarchy entries: the native `yaml_data`,
//! `json_data`, `hocon_data` and `eyaml_lookup_key`, and functions written
//! in Puppet or as plugins, whose answers are kept per entry and location.

use super::*;

impl Session {
    pub(super) fn function_lookup(
        &self,
        inv: &mut Inv<'_>,
        layer: Layer,
        config: &Config,
        entry: &Entry,
        location: &Location,
        key: &LookupKey,
    ) -> Result<Option<Value>> {
        let root = key.root.as_str();
        let fail = |message: String| HieraError::new(ErrorKind::Function, message);
        let raw = match (entry.kind, entry.function.as_str()) {
            (FunctionKind::DataHash, name @ ("yaml_data" | "json_data" | "hocon_data")) => {
                let Location::Path { path, .. } = location else {
                    return Err(fail(format!(
                        "'{name}' one of 'path', 'paths' 'glob', 'globs' or 'mapped_paths' must be declared in hiera.yaml when using this data_hash function"
                    )));
                };
                let format = match name {
                    "yaml_data" => Format::Yaml,
                    "json_data" => Format::Json,
                    _ => Format::Hocon,
                };
                let parsed = self.hiera.files.parsed(path, format);
                let parsed = match &*parsed {
                    Ok(parsed) => parsed,
                    Err(e) => return Err(e.clone()),
                };
                if let Some(warning) = &parsed.warning {
                    self.warn(warning.clone(), None);
                }
                let hash = &parsed.hash;
                if layer == Layer::Module {
                    self.check_module_keys(inv, hash, name, path);
                }
                match hash.get(&Value::string(root)) {
                    Some(value) => {
                        check_data(value).map_err(|got| {
                            HieraError::new(
                                ErrorKind::Type,
                                format!(
                                    "Value for key '{root}', in hash returned from data_hash function '{name}', when using location '{}', has wrong type, expects Puppet::LookupValue, got {got}",
                                    path.display()
                                ),
                            )
                        })?;
                        value.clone()
                    }
                    None => {
                        inv.explain(|e| e.not_found(root));
                        return Ok(None);
                    }
                }
            }
            (FunctionKind::LookupKey, "eyaml_lookup_key") => {
                match self.eyaml(inv, entry, location, root)? {
                    Some(value) => {
                        inv.explain(|e| e.found(root, &value));
                        return Ok(Some(value));
                    }
                    None => {
                        inv.explain(|e| e.not_found(root));
                        return Ok(None);
                    }
                }
            }
            (kind, name) => {
                let memo_key = format!(
                    "{}\u{0}{}\u{0}{}",
                    config
                        .path
                        .as_ref()
                        .map(|p| p.display().to_string())
                        .unwrap_or_default(),
                    entry.name,
                    match location {
                        Location::None => String::new(),
                        Location::Path { path, .. } => path.display().to_string(),
                        Location::Uri { uri, .. } => uri.clone(),
                    }
                );
                let full_key = match kind {
                    FunctionKind::DataDig => key.text.as_str(),
                    _ => root,
                };
                let remembered = {
                    let state = self.state.borrow();
                    state.functions.get(&memo_key).and_then(|memo| match kind {
                        FunctionKind::DataHash => memo.hash.clone(),
                        _ => memo.keys.get(full_key).cloned(),
                    })
                };
                let value = match remembered {
                    Some(value) => value,
                    None => {
                        let options = Value::hash(self.options(inv, entry, location)?);
                        let args = match kind {
                            FunctionKind::DataHash => vec![options],
                            FunctionKind::LookupKey => vec![Value::string(root), options],
                            FunctionKind::DataDig => {
                                let mut segments = vec![Value::string(root)];
                                segments.extend(key.segments.iter().map(|s| match s {
                                    Segment::Name(n) => Value::string(n.as_str()),
                                    Segment::Index(i) => Value::Integer(*i),
                                }));
                                vec![Value::array(segments), options]
                            }
                        };
                        let module = match layer {
                            Layer::Module => inv.module.clone(),
                            _ => None,
                        };
                        let value =
                            match inv
                                .scope
                                .call_function(kind.tag(), name, module.as_deref(), args)
                            {
                                FunctionOutcome::Unknown => {
                                    // An issue of the configuration, located in it.
                                    let error = HieraError::new(
                                        ErrorKind::Config,
                                        format!(
                                            "Unable to find '{}' function named '{name}'",
                                            kind.tag()
                                        ),
                                    );
                                    return Err(match &config.path {
                                        Some(path) => error.in_file(path, None),
                                        None => error,
                                    });
                                }
                                FunctionOutcome::Failed(message) => return Err(fail(message)),
                                FunctionOutcome::Invalid(message) => {
                                    return Err(HieraError::new(ErrorKind::Data, message));
                                }
                                FunctionOutcome::NotFound => {
                                    inv.explain(|e| e.not_found(full_key));
                                    return Ok(None);
                                }
                                FunctionOutcome::Value(value) => value,
                            };
                        let mut state = self.state.borrow_mut();
                        let memo = state.functions.entry(memo_key).or_default();
                        match kind {
                            FunctionKind::DataHash => memo.hash = Some(value.clone()),
                            _ => {
                                memo.keys.insert(full_key.to_string(), value.clone());
                            }
                        }
                        value
                    }
                };
                match kind {
                    FunctionKind::DataHash => match value {
                        Value::Hash(hash) => match hash.get(&Value::string(root)) {
                            Some(v) => {
                                check_data(v).map_err(|got| {
                                    HieraError::new(
                                        ErrorKind::Type,
                                        format!(
                                            "Value for key '{root}', in hash returned from data_hash function '{name}' has wrong type, expects Puppet::LookupValue, got {got}"
                                        ),
                                    )
                                })?;
                                v.clone()
                            }
                            None => {
                                inv.explain(|e| e.not_found(root));
                                return Ok(None);
                            }
                        },
                        other => {
                            return Err(fail(format!(
                                "Value returned from data_hash function '{name}' has wrong type, expects a Hash value, got {}",
                                crate::merge::type_name(&other)
                            )));
                        }
                    },
                    FunctionKind::LookupKey => {
                        inv.explain(|e| e.found(root, &value));
                        return Ok(Some(value));
                    }
                    FunctionKind::DataDig => {
                        // The function dug already; the value is put back
                        // where the key's segments lead, since digging
                        // follows the merge.
                        inv.explain(|e| e.found(full_key, &value));
                        return Ok(Some(undig(value, &key.segments)));
                    }
                }
            }
        };
        let value = self.interpolate(inv, raw, true)?;
        inv.explain(|e| e.found(root, &value));
        Ok(Some(value))
    }

    /// Module data may only hold the module's own keys: others are left
    /// out, with a warning, as Puppet does.
    pub(super) fn check_module_keys(
        &self,
        inv: &mut Inv<'_>,
        hash: &PHash,
        function: &str,
        path: &Path,
    ) {
        let Some(module) = inv.module.clone() else {
            return;
        };
        let prefix = format!("{module}::");
        for k in hash.keys() {
            let k = marionette_values::format::to_s(k);
            if k != LOOKUP_OPTIONS && !k.starts_with(&prefix) {
                self.warn_twice(format!(
                    "Module '{module}': Value returned from data_hash function '{function}', when using location '{}', must use keys qualified with the name of the module",
                    path.display()
                ));
                return;
            }
        }
    }

    /// `eyaml_lookup_key`: a YAML file whose encrypted strings are
    /// decrypted with the entry's PEM keys. Once a decrypted value is
    /// met, the explanation shows no value in clear.
    pub(super) fn eyaml(
        &self,
        inv: &mut Inv<'_>,
        entry: &Entry,
        location: &Location,
        root: &str,
    ) -> Result<Option<Value>> {
        let Location::Path { path, .. } = location else {
            return Err(HieraError::new(
                ErrorKind::Function,
                "'eyaml_lookup_key': one of 'path', 'paths' 'glob', 'globs' or 'mapped_paths' must be declared in hiera.yaml when using this lookup_key function",
            ));
        };
        let parsed = self.hiera.files.parsed(path, Format::Yaml);
        let parsed = match &*parsed {
            Ok(parsed) => parsed,
            Err(e) => return Err(e.clone()),
        };
        if let Some(warning) = &parsed.warning {
            self.warn(warning.clone(), None);
        }
        let Some(raw) = parsed.hash.get(&Value::string(root)).cloned() else {
            return Ok(None);
        };
        let options = self.options(inv, entry, location)?;
        let value = self.decrypt(inv, &raw, &options, root, path)?;
        Ok(Some(value))
    }

    pub(super) fn decrypt(
        &self,
        inv: &mut Inv<'_>,
        value: &Value,
        options: &PHash,
        key: &str,
        path: &Path,
    ) -> Result<Value> {
        match value {
            Value::String(text) => {
                let text = if crate::eyaml::is_encrypted(text) {
                    let keys = self.eyaml_keys(options)?;
                    let plain = crate::eyaml::decrypt_str(text, &keys).map_err(|e| {
                        HieraError::new(
                            ErrorKind::Decrypt,
                            format!(
                                "hiera-eyaml backend error decrypting {text} when looking up {key} in {}. Error was {e}",
                                path.display()
                            ),
                        )
                    })?;
                    if let Some(e) = inv.explain.as_deref_mut() {
                        e.redact = true;
                    }
                    plain
                } else {
                    text.to_string()
                };
                Ok(self.interpolate(inv, Value::string(text), true)?)
            }
            Value::Array(items) => {
                let mut out = Vec::with_capacity(items.len());
                for item in items.iter() {
                    out.push(self.decrypt(inv, item, options, key, path)?);
                }
                Ok(Value::array(out))
            }
            Value::Hash(hash) => {
                let mut out = PHash::new();
                for (k, v) in hash.iter() {
                    let k = self.interpolate(inv, k.clone(), true)?;
                    out.insert(k, self.decrypt(inv, v, options, key, path)?);
                }
                Ok(Value::hash(out))
            }
            other => Ok(other.clone()),
        }
    }

    pub(super) fn eyaml_keys(&self, options: &PHash) -> Result<Arc<crate::eyaml::Keys>> {
        let option = |name: &str| {
            options
                .get(&Value::string(name))
                .map(marionette_values::format::to_s)
        };
        let private =
            option("pkcs7_private_key").unwrap_or_else(|| "./keys/private_key.pkcs7.pem".into());
        let public =
            option("pkcs7_public_key").unwrap_or_else(|| "./keys/public_key.pkcs7.pem".into());
        let pair = (PathBuf::from(private), PathBuf::from(public));
        let cached = self.state.borrow().eyaml_keys.get(&pair).cloned();
        let loaded = match cached {
            Some(loaded) => loaded,
            None => {
                let loaded = crate::eyaml::Keys::load(&pair.0, &pair.1)
                    .map(Arc::new)
                    .map_err(|e| e.to_string());
                self.state
                    .borrow_mut()
                    .eyaml_keys
                    .insert(pair, loaded.clone());
                loaded
            }
        };
        loaded.map_err(|message| HieraError::new(ErrorKind::Decrypt, message))
    }

    /// The entry's options, interpolated (unexplained, as Puppet does it
    /// once), with the location added.
    pub(super) fn options(
        &self,
        inv: &mut Inv<'_>,
        entry: &Entry,
        location: &Location,
    ) -> Result<PHash> {
        inv.unexplained(|inv| self.options_unexplained(inv, entry, location))
    }

    pub(super) fn options_unexplained(
        &self,
        inv: &mut Inv<'_>,
        entry: &Entry,
        location: &Location,
    ) -> Result<PHash> {
        let mut options = PHash::new();
        for (k, v) in entry.options.iter() {
            let v = self.interpolate(inv, v.clone(), false)?;
            options.insert(k.clone(), v);
        }
        match location {
            Location::Path { path, .. } => {
                options.insert(
                    Value::string("path"),
                    Value::string(path.display().to_string()),
                );
            }
            Location::Uri { uri, .. } => {
                options.insert(Value::string("uri"), Value::string(uri.as_str()));
            }
            Location::None => {}
        }
        Ok(options)
    }
}

/// A value put back inside the structure `segments` dig through.
pub(super) fn undig(value: Value, segments: &[Segment]) -> Value {
    segments
        .iter()
        .rev()
        .fold(value, |inner, segment| match segment {
            Segment::Index(i) => {
                let mut items = vec![Value::Undef; usize::try_from(*i).unwrap_or(0)];
                items.push(inner);
                Value::array(items)
            }
            Segment::Name(name) => {
                let mut hash = PHash::new();
                hash.insert(Value::string(name.as_str()), inner);
                Value::hash(hash)
            }
        })
}

/// Whether a value is Puppet data (`Puppet::LookupValue`): a Ruby symbol
/// is not, nor is a hash whose keys are neither strings nor numbers. The
/// error is the type found, as Puppet's message names it.
pub(super) fn check_data(value: &Value) -> std::result::Result<(), String> {
    let valid = is_lookup_value(value);
    if valid {
        return Ok(());
    }
    if crate::yaml::is_symbol(value) {
        return Err("Runtime[ruby, 'Symbol']".to_string());
    }
    Err(marionette_values::PType::infer(value).to_string())
}

pub(super) fn is_lookup_value(value: &Value) -> bool {
    match value {
        Value::Array(items) => items.iter().all(is_lookup_value),
        Value::Hash(hash) => hash.iter().all(|(k, v)| {
            matches!(k, Value::String(_) | Value::Integer(_) | Value::Float(_))
                && is_lookup_value(v)
        }),
        Value::Sensitive(inner) => is_lookup_value(inner),
        other => !crate::yaml::is_symbol(other),
    }
}

#[derive(Default)]
pub(super) struct Memo {
    hash: Option<Value>,
    keys: FastMap<String, Value>,
}

//! Providers shipped as executables: the handshake turns into a
//! [`ProviderDef`], and the provider answers as a [`BatchProvider`] whose
//! `get` and `set` are requests to the one process of the run.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use marionette_ral::{
    BatchProvider, Change, Confine, Context, DeferredFailure, PropertyHash, ProviderDef,
    ProviderError, Resource, TypeDef,
};
use serde_json::{Map, Value as Json, json};

use crate::process::{Launch, Process};
use crate::wire::{hash_from_wire, hash_to_wire, to_wire};
use crate::{HANDSHAKE_TIMEOUT, PROTOCOL, PluginError};

/// The default time allowed for a request after the handshake.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(300);

/// A provider file found in a module.
#[derive(Clone, Debug)]
pub struct ProviderFile {
    pub type_name: String,
    pub name: String,
    pub path: std::path::PathBuf,
    pub module: std::path::PathBuf,
}

/// What a provider said of itself that the engine acts on while running
/// it.
struct Behaviour {
    batch: bool,
    supports_noop: bool,
    timeout: Duration,
}

pub(crate) struct PluginProvider {
    process: Arc<Process>,
    launch: Launch,
    type_name: String,
    behaviour: Behaviour,
    /// Changes a batching provider has been given and not yet sent.
    pending: Mutex<Vec<Change>>,
}

/// Starts a provider, asks who it is, and declares it. A provider that
/// cannot be started or answers the handshake badly is declared anyway,
/// never suitable, with the reason, so that choosing it explains itself.
pub(crate) fn load(
    file: &ProviderFile,
    type_def: &TypeDef,
    environment: &str,
    processes: &crate::Processes,
) -> ProviderDef {
    let launch = Launch {
        environment: environment.to_string(),
        module: file.module.clone(),
    };
    let process = processes.start(&file.path);
    let params = json!({
        "protocol": PROTOCOL,
        "kind": "provider",
        "type": file.type_name,
        "provider": file.name,
        "environment": environment,
    });
    let logger = marionette_ral::Logger::default();
    let answer = process
        .request(
            &launch,
            "handshake",
            params,
            HANDSHAKE_TIMEOUT,
            &logger,
            &|n| n.to_string(),
        )
        .and_then(|answer| declare(file, type_def, &answer, process.clone(), launch.clone()));
    match answer {
        Ok(provider) => provider,
        Err(error) => broken(file, &error.to_string()),
    }
}

pub(crate) fn broken(file: &ProviderFile, why: &str) -> ProviderDef {
    ProviderDef::batch(&file.type_name, &file.name, Unusable)
        .doc(&format!(
            "Could not be loaded from {}.",
            file.path.display()
        ))
        .confine(Confine::Broken(why.to_string()))
}

/// Stands in for a provider that could not be loaded; never called, since
/// it is never suitable.
struct Unusable;

impl BatchProvider for Unusable {
    fn get(
        &self,
        _: &Context,
        _: Option<&[&Resource]>,
    ) -> Result<Vec<PropertyHash>, ProviderError> {
        Err(ProviderError("the provider could not be loaded".into()))
    }

    fn set(
        &self,
        _: &Context,
        _: &[Change],
        _: bool,
    ) -> Result<Vec<Result<(), String>>, ProviderError> {
        Err(ProviderError("the provider could not be loaded".into()))
    }
}

/// Reads a handshake answer into a declaration.
pub(crate) fn declare(
    file: &ProviderFile,
    type_def: &TypeDef,
    answer: &Json,
    process: Arc<Process>,
    launch: Launch,
) -> Result<ProviderDef, PluginError> {
    let bad = |message: String| PluginError::Handshake {
        plugin: file.path.clone(),
        message,
    };
    let answer = answer
        .as_object()
        .ok_or_else(|| bad("the answer must be an object".into()))?;
    check_protocol(answer).map_err(bad)?;
    let mut features = Vec::new();
    for feature in strings(answer, "features").map_err(bad)? {
        if type_def.feature_def(&feature).is_none() {
            return Err(bad(format!(
                "it declares the feature '{feature}', which type {} does not define",
                type_def.name
            )));
        }
        features.push(feature);
    }
    let timeout = crate::process::handshake_timeout(answer, DEFAULT_TIMEOUT).map_err(bad)?;
    let behaviour = Behaviour {
        batch: flag(answer, "batch").map_err(bad)?,
        supports_noop: flag(answer, "supports_noop").map_err(bad)?,
        timeout,
    };
    let provider = PluginProvider {
        process,
        launch,
        type_name: file.type_name.clone(),
        behaviour,
        pending: Mutex::new(Vec::new()),
    };
    let mut def = ProviderDef::batch(&file.type_name, &file.name, provider);
    let doc = answer.get("doc").and_then(Json::as_str).unwrap_or_default();
    def = def.doc(&format!("{doc}\n\nShipped as {}.", file.path.display()));
    let features: Vec<&str> = features.iter().map(String::as_str).collect();
    def = def.has_features(&features);
    if let Some(commands) = answer.get("commands") {
        let commands = commands
            .as_object()
            .ok_or_else(|| bad("'commands' must map names to programs".into()))?;
        for (name, program) in commands {
            let program = program
                .as_str()
                .ok_or_else(|| bad(format!("the command {name} must be a program name")))?;
            def = def.command(name, program);
        }
    }
    if let Some(confine) = answer.get("confine") {
        let confine = confine
            .as_object()
            .ok_or_else(|| bad("'confine' must be an object".into()))?;
        for (key, value) in confine {
            match key.as_str() {
                "exists" => {
                    for path in string_list(value, "confine.exists").map_err(bad)? {
                        def = def.confine(Confine::Exists(path.into()));
                    }
                }
                "features" => {
                    for feature in string_list(value, "confine.features").map_err(bad)? {
                        def = def.confine(Confine::Feature(feature));
                    }
                }
                "facts" => {
                    for (name, values) in fact_set(value).map_err(bad)? {
                        def = def.confine(Confine::Fact { name, values });
                    }
                }
                other => {
                    return Err(bad(format!(
                        "unknown confine '{other}' (exists, facts, features)"
                    )));
                }
            }
        }
    }
    if let Some(defaultfor) = answer.get("defaultfor") {
        let sets = defaultfor
            .as_array()
            .ok_or_else(|| bad("'defaultfor' must be a list of fact sets".into()))?;
        for set in sets {
            def.defaultfor.push(fact_set(set).map_err(bad)?);
        }
    }
    Ok(def)
}

fn check_protocol(answer: &Map<String, Json>) -> Result<(), String> {
    match answer.get("protocol").and_then(Json::as_u64) {
        Some(version) if version == u64::from(PROTOCOL) => Ok(()),
        Some(version) => Err(format!(
            "it speaks protocol version {version}; this marionette speaks version {PROTOCOL}"
        )),
        None => Err("the answer must give 'protocol'".into()),
    }
}

fn flag(answer: &Map<String, Json>, key: &str) -> Result<bool, String> {
    match answer.get(key) {
        None | Some(Json::Null) => Ok(false),
        Some(Json::Bool(b)) => Ok(*b),
        Some(other) => Err(format!("'{key}' must be true or false, not {other}")),
    }
}

fn strings(answer: &Map<String, Json>, key: &str) -> Result<Vec<String>, String> {
    match answer.get(key) {
        None | Some(Json::Null) => Ok(Vec::new()),
        Some(value) => string_list(value, key),
    }
}

fn string_list(value: &Json, key: &str) -> Result<Vec<String>, String> {
    let items = value
        .as_array()
        .ok_or(format!("'{key}' must be a list of strings"))?;
    items
        .iter()
        .map(|item| {
            item.as_str()
                .map(str::to_string)
                .ok_or(format!("'{key}' must be a list of strings"))
        })
        .collect()
}

/// `{"os.family": ["Debian"], "kernel": "Linux"}`: facts to allowed values.
fn fact_set(value: &Json) -> Result<Vec<(String, Vec<String>)>, String> {
    let facts = value
        .as_object()
        .ok_or("a fact set must map facts to values")?;
    facts
        .iter()
        .map(|(name, values)| {
            let values = match values {
                Json::String(one) => vec![one.clone()],
                Json::Array(_) => string_list(values, name)?,
                other => vec![other.to_string()],
            };
            Ok((name.clone(), values))
        })
        .collect()
}

impl PluginProvider {
    fn request(&self, cx: &Context, method: &str, params: Json) -> Result<Json, PluginError> {
        let type_name = marionette_values::types::capitalize_segments(&self.type_name);
        self.process.request(
            &self.launch,
            method,
            params,
            self.behaviour.timeout,
            &cx.logger,
            &|name| format!("{type_name}[{name}]"),
        )
    }

    /// Sends changes in one `set`, and reads one result per change.
    fn send(
        &self,
        cx: &Context,
        changes: &[Change],
        noop: bool,
    ) -> Result<Vec<Result<(), String>>, PluginError> {
        let wire: Vec<Json> = changes.iter().map(change_to_wire).collect();
        let answer = self.request(cx, "set", json!({"noop": noop, "changes": wire}))?;
        let results = answer.get("results").and_then(Json::as_array);
        // Each result must say plainly whether its change was made: an
        // `ok` that is not a boolean is a broken answer, not a failure
        // (nor a success) of one change.
        let results = match results {
            Some(results)
                if results.len() == changes.len()
                    && results
                        .iter()
                        .all(|r| r.get("ok").is_some_and(Json::is_boolean)) =>
            {
                results
            }
            _ => {
                return Err(PluginError::Failed {
                    plugin: self.process.path().to_path_buf(),
                    method: "set".into(),
                    message: format!(
                        "its answer must hold 'results', one for each of the {} changes, each with a boolean 'ok'",
                        changes.len()
                    ),
                });
            }
        };
        Ok(results
            .iter()
            .map(|result| match result.get("ok").and_then(Json::as_bool) {
                Some(true) => Ok(()),
                _ => Err(result
                    .get("message")
                    .and_then(Json::as_str)
                    .unwrap_or("the change failed (the provider gave no reason)")
                    .to_string()),
            })
            .collect())
    }
}

/// The states of a `get` or `instances` answer from the plugin at `path`.
pub(crate) fn states(
    path: &Path,
    method: &str,
    answer: &Json,
) -> Result<Vec<PropertyHash>, ProviderError> {
    let bad = || {
        ProviderError(format!(
            "{} answered '{method}' without a list of resources",
            path.display()
        ))
    };
    let list = answer
        .get("resources")
        .and_then(Json::as_array)
        .ok_or_else(bad)?;
    list.iter()
        .map(|state| hash_from_wire(state).ok_or_else(bad))
        .collect()
}

/// Every identity attribute of a resource, which a title such as
/// `kv_entry { 'port': path => ..., key => ... }` does not spell out.
fn identity_to_wire(resource: &Resource) -> Json {
    Json::Object(
        resource
            .type_def()
            .key_attributes()
            .iter()
            .filter_map(|key| Some((key.name.clone(), to_wire(resource.get(&key.name)?))))
            .collect(),
    )
}

fn change_to_wire(change: &Change) -> Json {
    let mut should = change.should.clone();
    for (name, value) in &change.parameters {
        should.entry(name.clone()).or_insert_with(|| value.clone());
    }
    json!({
        "name": change.name,
        "resource": change.resource,
        "is": hash_to_wire(&change.is, &change.sensitive),
        "should": hash_to_wire(&should, &change.sensitive),
    })
}

impl BatchProvider for PluginProvider {
    fn get(
        &self,
        cx: &Context,
        wanted: Option<&[&Resource]>,
    ) -> Result<Vec<PropertyHash>, ProviderError> {
        let (method, params) = match wanted {
            Some(resources) => (
                "get",
                json!({
                    "names": resources.iter().map(|r| r.provider_name()).collect::<Vec<_>>(),
                    "identities": resources.iter().map(|r| identity_to_wire(r)).collect::<Vec<_>>(),
                }),
            ),
            None => ("instances", json!({})),
        };
        let answer = self
            .request(cx, method, params)
            .map_err(|e| ProviderError(e.to_string()))?;
        states(self.process.path(), method, &answer)
    }

    fn set(
        &self,
        cx: &Context,
        changes: &[Change],
        noop: bool,
    ) -> Result<Vec<Result<(), String>>, ProviderError> {
        if self.behaviour.batch && !noop {
            self.pending
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .extend(changes.iter().cloned());
            return Ok(changes.iter().map(|_| Ok(())).collect());
        }
        self.send(cx, changes, noop)
            .map_err(|e| ProviderError(e.to_string()))
    }

    fn simple_get_filter(&self) -> bool {
        true
    }

    fn supports_noop(&self) -> bool {
        self.behaviour.supports_noop
    }

    fn post_resource_eval(&self, cx: &Context) -> Result<(), Vec<DeferredFailure>> {
        let changes = std::mem::take(&mut *self.pending.lock().unwrap_or_else(|e| e.into_inner()));
        if changes.is_empty() {
            return Ok(());
        }
        let failures: Vec<DeferredFailure> = match self.send(cx, &changes, false) {
            Ok(results) => changes
                .iter()
                .zip(results)
                .filter_map(|(change, result)| {
                    result.err().map(|message| DeferredFailure {
                        resources: vec![change.resource.clone()],
                        message,
                    })
                })
                .collect(),
            Err(error) => vec![DeferredFailure {
                resources: changes.iter().map(|c| c.resource.clone()).collect(),
                message: error.to_string(),
            }],
        };
        if failures.is_empty() {
            Ok(())
        } else {
            Err(failures)
        }
    }
}

/// Whether a path can be run: a file with an execute bit.
pub(crate) fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

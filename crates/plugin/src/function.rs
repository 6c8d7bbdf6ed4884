//! Functions shipped as executables: the compiler's
//! [`ExternalFunctions`], each function one process for the whole
//! compilation.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use marionette_eval::{ExternalFunctions, Parameter, Signature};
use marionette_ral::Logger;
use marionette_values::Value;
use serde_json::{Value as Json, json};

use crate::process::{Launch, Process};
use crate::wire::{from_wire, to_wire};
use crate::{HANDSHAKE_TIMEOUT, PROTOCOL, Processes};

/// The default time a call may take.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// Runs an environment's executable functions.
pub struct FunctionHost {
    environment: String,
    processes: Arc<Processes>,
    started: Mutex<HashMap<PathBuf, Started>>,
    /// Where the functions' log messages go.
    logger: Logger,
}

#[derive(Clone)]
struct Started {
    process: Arc<Process>,
    launch: Launch,
    timeout: Duration,
}

impl FunctionHost {
    pub(crate) fn new(
        environment: &str,
        processes: Arc<Processes>,
        logger: Logger,
    ) -> FunctionHost {
        FunctionHost {
            environment: environment.to_string(),
            processes,
            started: Mutex::default(),
            logger,
        }
    }
}

/// The module a function file belongs to: the directory above its
/// `lib/marionette/functions`.
fn module_of(path: &Path) -> PathBuf {
    path.ancestors()
        .find(|dir| path.starts_with(dir.join("lib/marionette/functions")))
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

impl ExternalFunctions for FunctionHost {
    fn signature(&self, name: &str, path: &Path) -> Result<Signature, String> {
        let launch = Launch {
            environment: self.environment.clone(),
            module: module_of(path),
        };
        let process = self.processes.start(path);
        let params = json!({
            "protocol": PROTOCOL,
            "kind": "function",
            "function": name,
            "environment": self.environment,
        });
        let answer = process
            .request(
                &launch,
                "handshake",
                params,
                HANDSHAKE_TIMEOUT,
                &self.logger,
                &|n| n.to_string(),
            )
            .map_err(|e| e.to_string())?;
        let bad = |message: String| {
            format!(
                "plugin {} answered its handshake badly: {message}",
                path.display()
            )
        };
        let (signature, timeout) = read_signature(&answer).map_err(bad)?;
        self.started
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(
                path.to_path_buf(),
                Started {
                    process,
                    launch,
                    timeout,
                },
            );
        Ok(signature)
    }

    fn call(&self, name: &str, path: &Path, arguments: &[Value]) -> Result<Value, String> {
        let started = self
            .started
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(path)
            .cloned()
            .ok_or_else(|| format!("the function {name} was called before its handshake"))?;
        let params = json!({"arguments": arguments.iter().map(to_wire).collect::<Vec<Json>>()});
        let answer = started
            .process
            .request(
                &started.launch,
                "call",
                params,
                started.timeout,
                &self.logger,
                &|n| n.to_string(),
            )
            .map_err(|e| e.to_string())?;
        match answer.get("value") {
            Some(value) => Ok(from_wire(value)),
            None => Err(format!(
                "plugin {} answered 'call' without a 'value'",
                path.display()
            )),
        }
    }
}

fn read_signature(answer: &Json) -> Result<(Signature, Duration), String> {
    let answer = answer.as_object().ok_or("the answer must be an object")?;
    match answer.get("protocol").and_then(Json::as_u64) {
        Some(version) if version == u64::from(PROTOCOL) => {}
        Some(version) => {
            return Err(format!(
                "it speaks protocol version {version}; this marionette speaks version {PROTOCOL}"
            ));
        }
        None => return Err("the answer must give 'protocol'".into()),
    }
    let mut parameters = Vec::new();
    if let Some(list) = answer.get("parameters") {
        let list = list.as_array().ok_or("'parameters' must be a list")?;
        for parameter in list {
            let name = parameter
                .get("name")
                .and_then(Json::as_str)
                .ok_or("each parameter needs a 'name'")?;
            let type_text = parameter
                .get("type")
                .and_then(Json::as_str)
                .unwrap_or("Any");
            let repeated = parameter
                .get("repeated")
                .and_then(Json::as_bool)
                .unwrap_or(false);
            parameters.push(Parameter {
                name: name.to_string(),
                type_text: type_text.to_string(),
                repeated,
            });
        }
    }
    let returns = match answer.get("returns") {
        None | Some(Json::Null) => None,
        Some(Json::String(text)) => Some(text.clone()),
        Some(other) => return Err(format!("'returns' must be a type, not {other}")),
    };
    let timeout = crate::process::handshake_timeout(answer, DEFAULT_TIMEOUT)?;
    Ok((
        Signature {
            parameters,
            returns,
        },
        timeout,
    ))
}

//! One plugin process: started once, then asked one request at a time
//! over its standard input and output (see `docs/plugin-protocol.md`).
//!
//! The process itself (lines read with deadlines, the end of its standard
//! error kept for messages, stopped with everything it started) is a
//! `marionette_child::Child`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use marionette_child::{Child, NoLine};
use marionette_ral::Logger;
use marionette_ral::log::Level;
use serde_json::{Map, Value as Json, json};

use crate::PluginError;

/// How many log messages one request may send; later ones are counted and
/// dropped, so that a plugin stuck in a loop cannot fill memory (and the
/// report) with its messages.
const LOGS_PER_REQUEST: usize = 10_000;

/// How much of one log message is kept, in characters.
const LOG_MESSAGE_CHARS: usize = 64 * 1024;

/// The `timeout` a handshake answer declares: `default` when it declares
/// none, at most `marionette_child::MAX_TIMEOUT`, and an error unless it
/// is a positive number of seconds.
pub(crate) fn handshake_timeout(
    answer: &Map<String, Json>,
    default: Duration,
) -> Result<Duration, String> {
    match answer.get("timeout") {
        None | Some(Json::Null) => Ok(default),
        Some(value) => match value.as_f64().and_then(marionette_child::timeout_of) {
            Some(timeout) => Ok(timeout),
            None => Err(format!(
                "'timeout' must be a positive number of seconds, not {value}"
            )),
        },
    }
}

/// A running plugin, or the reason it no longer runs.
pub(crate) struct Process {
    path: PathBuf,
    state: Mutex<State>,
}

enum State {
    /// Not started yet: plugins start when first needed.
    Idle,
    Running(Running),
    /// Stopped after a failure; every later request fails with it.
    Broken(PluginError),
    /// Shut down at the end of the run.
    Stopped,
}

struct Running {
    child: Child,
    next_id: u64,
}

/// What the engine tells every plugin about the run.
#[derive(Clone, Debug, Default)]
pub(crate) struct Launch {
    pub(crate) environment: String,
    pub(crate) module: PathBuf,
}

impl Process {
    pub(crate) fn new(path: &Path) -> Process {
        Process {
            path: path.to_path_buf(),
            state: Mutex::new(State::Idle),
        }
    }

    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// Sends one request and waits for its answer, passing the plugin's log
    /// messages to `logger` as they come. Starts the plugin first when it
    /// does not run yet. A failure that leaves the conversation in an
    /// unknown state (a timeout, a crash, a line that is not the
    /// protocol) stops the plugin for the rest of the run.
    pub(crate) fn request(
        &self,
        launch: &Launch,
        method: &str,
        params: Json,
        timeout: Duration,
        logger: &Logger,
        source: &dyn Fn(&str) -> String,
    ) -> Result<Json, PluginError> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if matches!(*state, State::Idle) {
            *state = match self.start(launch) {
                Ok(running) => State::Running(running),
                Err(error) => State::Broken(error),
            };
        }
        let running = match &mut *state {
            State::Running(running) => running,
            State::Broken(error) => return Err(error.clone()),
            State::Stopped | State::Idle => {
                return Err(self.error(method, "was already stopped".to_string()));
            }
        };
        match self.exchange(running, method, params, timeout, logger, source) {
            Ok(result) => Ok(result),
            Err(Fault::Answer(message)) => Err(PluginError::Failed {
                plugin: self.path.clone(),
                method: method.to_string(),
                message,
            }),
            Err(Fault::Fatal(message)) => {
                let error = self.error(method, message);
                if let State::Running(running) =
                    std::mem::replace(&mut *state, State::Broken(error.clone()))
                {
                    running.child.kill();
                }
                Err(error)
            }
        }
    }

    /// Asks a running plugin to stop, and makes sure it does.
    pub(crate) fn shutdown(&self) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if let State::Running(mut running) = std::mem::replace(&mut *state, State::Stopped) {
            let logger = Logger::default();
            let _ = self.exchange(
                &mut running,
                "shutdown",
                json!({}),
                Duration::from_secs(2),
                &logger,
                &|name| name.to_string(),
            );
            running.child.close_input();
            if !running.child.exits_within(Duration::from_secs(2)) {
                running.child.kill();
            }
        }
    }

    fn error(&self, method: &str, message: String) -> PluginError {
        PluginError::Broken {
            plugin: self.path.clone(),
            method: method.to_string(),
            message,
        }
    }

    fn start(&self, launch: &Launch) -> Result<Running, PluginError> {
        // The plugin starts in its module's directory: a module path given
        // relative to ours (`--modulepath modules`) must not be read from
        // there.
        let absolute =
            |path: &Path| std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        let module = absolute(&launch.module);
        let mut command = Command::new(absolute(&self.path));
        command
            .env("MARIONETTE_PROTOCOL", crate::PROTOCOL.to_string())
            .env("MARIONETTE_ENVIRONMENT", &launch.environment)
            .env("MARIONETTE_MODULE", &module);
        if module.is_dir() {
            command.current_dir(&module);
        }
        let child = Child::spawn(&mut command).map_err(|e| PluginError::Start {
            plugin: self.path.clone(),
            message: e.to_string(),
        })?;
        Ok(Running { child, next_id: 1 })
    }

    fn exchange(
        &self,
        running: &mut Running,
        method: &str,
        params: Json,
        timeout: Duration,
        logger: &Logger,
        source: &dyn Fn(&str) -> String,
    ) -> Result<Json, Fault> {
        let id = running.next_id;
        running.next_id += 1;
        logger.debug(
            &format!("Plugin {}", self.path.display()),
            &format!("request {id}: '{method}'"),
        );
        let request = json!({"id": id, "method": method, "params": params}).to_string();
        if running.child.write_line(&request).is_err() {
            return Err(Fault::Fatal(running.child.exit_reason()));
        }
        let deadline = Instant::now() + timeout;
        let mut logs = 0usize;
        let dropped = |logs: usize| {
            if logs > LOGS_PER_REQUEST {
                logger.log(
                    Level::Warning,
                    &format!("Plugin {}", self.path.display()),
                    &format!(
                        "{} more log messages of request {id} were dropped (at most {LOGS_PER_REQUEST} are kept)",
                        logs - LOGS_PER_REQUEST
                    ),
                );
            }
        };
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match running.child.read_line(left) {
                Ok(line) => line,
                Err(NoLine::Closed) => {
                    return Err(Fault::Fatal(running.child.exit_reason()));
                }
                Err(NoLine::TooLong) => return Err(Fault::Fatal(marionette_child::too_long())),
                Err(NoLine::Timeout) => {
                    return Err(Fault::Fatal(format!(
                        "did not answer within {}; it was stopped",
                        seconds(timeout)
                    )));
                }
            };
            let message: Map<String, Json> = match serde_json::from_str(line.trim_end()) {
                Ok(Json::Object(message)) => message,
                _ => return Err(Fault::Fatal(not_protocol(&line))),
            };
            if message.get("method").and_then(Json::as_str) == Some("log")
                && !message.contains_key("id")
            {
                logs += 1;
                if logs <= LOGS_PER_REQUEST {
                    forward_log(&self.path, message.get("params"), logger, source);
                }
                continue;
            }
            dropped(logs);
            if message.get("id").and_then(Json::as_u64) != Some(id) {
                return Err(Fault::Fatal(not_protocol(&line)));
            }
            if let Some(result) = message.get("result") {
                return Ok(result.clone());
            }
            if let Some(error) = message.get("error") {
                let text = error
                    .get("message")
                    .and_then(Json::as_str)
                    .map(str::to_string)
                    .unwrap_or_else(|| error.to_string());
                return Err(Fault::Answer(text));
            }
            return Err(Fault::Fatal(not_protocol(&line)));
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// How a request went wrong: the plugin answered with an error (the
/// conversation can go on), or the conversation itself broke.
enum Fault {
    Answer(String),
    Fatal(String),
}

fn not_protocol(line: &str) -> String {
    format!(
        "printed something that is not the plugin protocol: {}",
        marionette_child::quote(line)
    )
}

fn seconds(duration: Duration) -> String {
    let secs = duration.as_secs_f64();
    if secs == secs.trunc() {
        format!("{secs:.0} s")
    } else {
        format!("{secs:.1} s")
    }
}

/// Passes a plugin's `log` message on, under the resource it names
/// (`source` turns a name into what the log shows).
pub(crate) fn forward_log(
    path: &Path,
    params: Option<&Json>,
    logger: &Logger,
    source: &dyn Fn(&str) -> String,
) {
    let params = params.cloned().unwrap_or_default();
    let level = match params.get("level").and_then(Json::as_str) {
        Some("debug") => Level::Debug,
        Some("info") => Level::Info,
        Some("warning") => Level::Warning,
        Some("err" | "error") => Level::Err,
        _ => Level::Notice,
    };
    let message = params
        .get("message")
        .and_then(Json::as_str)
        .unwrap_or_default();
    let message = match message.char_indices().nth(LOG_MESSAGE_CHARS) {
        Some((end, _)) => std::borrow::Cow::Owned(format!("{}...", &message[..end])),
        None => std::borrow::Cow::Borrowed(message),
    };
    let source = match (
        params.get("resource").and_then(Json::as_str),
        params.get("name").and_then(Json::as_str),
    ) {
        (Some(reference), _) => reference.to_string(),
        (None, Some(name)) => source(name),
        (None, None) => format!("Plugin {}", path.display()),
    };
    logger.log(
        level,
        &crate::printable(&source),
        &crate::printable(&message),
    );
}

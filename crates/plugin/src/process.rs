//! One plugin process: started once, then asked one request at a time
//! over its standard input and output (see `docs/plugin-protocol.md`).
//!
//! Standard output is read by a thread that hands each line over a
//! channel, so that waiting for an answer can have a deadline; standard
//! error is read by another thread that keeps the last lines for error
//! messages. The process runs in a process group of its own, so a plugin
//! that times out is killed together with everything it started.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use marionette_ral::Logger;
use marionette_ral::log::Level;
use serde_json::{Map, Value as Json, json};

use crate::PluginError;

/// How many lines of standard error are kept for messages.
const STDERR_LINES: usize = 20;

/// A line read from the plugin's standard output, or the end of it.
enum Line {
    Text(String),
    Closed,
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
    stdin: ChildStdin,
    lines: Receiver<Line>,
    stderr: Arc<Mutex<VecDeque<String>>>,
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
                    kill(running);
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
            drop(running.stdin);
            let deadline = Instant::now() + Duration::from_secs(2);
            while Instant::now() < deadline {
                if let Ok(Some(_)) = running.child.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            kill_group(&mut running.child);
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
        let mut command = Command::new(&self.path);
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .env("MARIONETTE_PROTOCOL", crate::PROTOCOL.to_string())
            .env("MARIONETTE_ENVIRONMENT", &launch.environment)
            .env("MARIONETTE_MODULE", &launch.module)
            .process_group(0);
        if launch.module.is_dir() {
            command.current_dir(&launch.module);
        }
        let mut child = command.spawn().map_err(|e| PluginError::Start {
            plugin: self.path.clone(),
            message: e.to_string(),
        })?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            kill_group(&mut child);
            return Err(PluginError::Start {
                plugin: self.path.clone(),
                message: "its standard streams could not be opened".into(),
            });
        };
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut line = String::new();
                match reader.read_line(&mut line) {
                    Ok(0) | Err(_) => {
                        let _ = sender.send(Line::Closed);
                        return;
                    }
                    Ok(_) => {
                        if sender.send(Line::Text(line)).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        let kept = Arc::new(Mutex::new(VecDeque::new()));
        let tail = kept.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { return };
                let mut tail = tail.lock().unwrap_or_else(|e| e.into_inner());
                if tail.len() == STDERR_LINES {
                    tail.pop_front();
                }
                tail.push_back(line);
            }
        });
        Ok(Running {
            child,
            stdin,
            lines,
            stderr: kept,
            next_id: 1,
        })
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
        let mut request = json!({"id": id, "method": method, "params": params}).to_string();
        request.push('\n');
        if running
            .stdin
            .write_all(request.as_bytes())
            .and_then(|()| running.stdin.flush())
            .is_err()
        {
            return Err(Fault::Fatal(self.exited(running)));
        }
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match running.lines.recv_timeout(left) {
                Ok(Line::Text(line)) => line,
                Ok(Line::Closed) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(Fault::Fatal(self.exited(running)));
                }
                Err(RecvTimeoutError::Timeout) => {
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
                forward_log(&self.path, message.get("params"), logger, source);
                continue;
            }
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

    /// Why a plugin stopped answering: its exit status and the end of its
    /// standard error.
    fn exited(&self, running: &mut Running) -> String {
        // The plugin closed its output; give it a moment to finish exiting
        // and its last error lines a moment to arrive.
        let deadline = Instant::now() + Duration::from_millis(500);
        let mut status = None;
        while Instant::now() < deadline {
            if let Ok(Some(found)) = running.child.try_wait() {
                status = Some(found);
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        std::thread::sleep(Duration::from_millis(20));
        let how = match status {
            Some(status) => match status.code() {
                Some(code) => format!("exited with status {code}"),
                None => format!("was killed ({status})"),
            },
            None => "closed its output".to_string(),
        };
        let tail = running.stderr.lock().unwrap_or_else(|e| e.into_inner());
        let last: Vec<&str> = tail
            .iter()
            .map(String::as_str)
            .filter(|l| !l.trim().is_empty())
            .collect();
        if last.is_empty() {
            how
        } else {
            format!(
                "{how}: {}",
                last[last.len().saturating_sub(3)..].join(" / ")
            )
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
    let line = line.trim_end();
    let shown: String = line.chars().take(200).collect();
    let more = if shown.len() < line.len() { "..." } else { "" };
    format!("printed something that is not the plugin protocol: {shown:?}{more}")
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
fn forward_log(
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
    let source = match (
        params.get("resource").and_then(Json::as_str),
        params.get("name").and_then(Json::as_str),
    ) {
        (Some(reference), _) => reference.to_string(),
        (None, Some(name)) => source(name),
        (None, None) => format!("Plugin {}", path.display()),
    };
    logger.log(level, &source, message);
}

fn kill(mut running: Running) {
    kill_group(&mut running.child);
}

fn kill_group(child: &mut Child) {
    if let Ok(pid) = i32::try_from(child.id()) {
        // SAFETY: killpg(2) only sends a signal; the group is the child's
        // own (it was started with process_group(0)).
        unsafe {
            libc::killpg(pid, libc::SIGKILL);
        }
    }
    let _ = child.kill();
    let _ = child.wait();
}

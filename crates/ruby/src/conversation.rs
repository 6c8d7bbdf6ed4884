//! The pipe to the Ruby process: requests both ways, nested.
//!
//! The engine sends a request and reads lines until the answer with its
//! id arrives. Meanwhile the host may ask questions (lines with a
//! `method`); each is answered through the [`Engine`] at once, and
//! answering may itself send the host new requests, which nest: the
//! conversation is a stack, so the next answer always belongs to the
//! innermost request. No lock is held while the engine answers, so that
//! nesting cannot deadlock; a per-thread floor keeps another thread from
//! interleaving its own conversation.
//!
//! A line is read by a thread of its own and handed over a channel, so a
//! wait has a deadline; standard error is kept, its last lines quoted when
//! the process dies.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::ThreadId;
use std::time::{Duration, Instant};

use marionette_values::Value;
use serde_json::{Value as Json, json};

use crate::wire::{self, Shape, Types};
use crate::{Answer, Engine, HostError, Question};

/// How many lines of standard error are kept for messages.
const STDERR_LINES: usize = 20;

/// The time the host has to start and answer its handshake.
const START_TIMEOUT: Duration = Duration::from_secs(20);

enum Line {
    Text(String),
    Closed,
}

enum State {
    Idle,
    Running(Running),
}

struct Running {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Line>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    next_id: u64,
    /// Told apart from a later process, so that a request outliving the
    /// process it was sent to fails rather than read another's answers.
    generation: u64,
}

pub(crate) struct Conversation {
    ruby: PathBuf,
    timeout: Duration,
    state: Mutex<State>,
    generations: Mutex<u64>,
    floor: Floor,
    types: Mutex<Types>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

impl Conversation {
    pub(crate) fn new(ruby: PathBuf, timeout: Duration) -> Conversation {
        Conversation {
            ruby,
            timeout,
            state: Mutex::new(State::Idle),
            generations: Mutex::new(0),
            floor: Floor::default(),
            types: Mutex::default(),
        }
    }

    pub(crate) fn running(&self) -> bool {
        matches!(*lock(&self.state), State::Running(_))
    }

    pub(crate) fn encode_all(&self, values: &[Value], shape: Shape) -> Vec<Json> {
        let mut types = lock(&self.types);
        values
            .iter()
            .map(|v| wire::encode(v, &mut types, shape))
            .collect()
    }

    pub(crate) fn decode(&self, data: &Json) -> Result<Value, String> {
        wire::decode(data, &lock(&self.types))
    }

    /// Sends one request and waits for its answer, answering the host's
    /// questions meanwhile. Starts the host first when it does not run.
    pub(crate) fn request(
        &self,
        program: &str,
        handshake: &Json,
        method: &str,
        params: Json,
        engine: &mut dyn Engine,
    ) -> Result<Json, HostError> {
        let _floor = self.floor.enter();
        if !self.running() {
            self.start(program)?;
            self.exchange("handshake", handshake.clone(), engine, START_TIMEOUT)?;
        }
        if method == "reset" {
            lock(&self.types).clear();
        }
        self.exchange(method, params, engine, self.timeout)
    }

    fn start(&self, program: &str) -> Result<(), HostError> {
        let mut command = Command::new(&self.ruby);
        command
            // RubyGems is loaded only when a module's file needs a gem.
            .args(["--disable-gems", "-e", program])
            .env_remove("RUBYOPT")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        let mut child = command.spawn().map_err(|e| HostError::NoRuby {
            ruby: self.ruby.clone(),
            message: match e.kind() {
                std::io::ErrorKind::NotFound => format!("{} was not found", self.ruby.display()),
                _ => format!("{} could not be started: {e}", self.ruby.display()),
            },
        })?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            kill_group(&mut child);
            return Err(HostError::Broken(
                "the Ruby host's standard streams could not be opened".into(),
            ));
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
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let tail = stderr_tail.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { return };
                let mut tail = lock(&tail);
                if tail.len() == STDERR_LINES {
                    tail.pop_front();
                }
                tail.push_back(line);
            }
        });
        let generation = {
            let mut generations = lock(&self.generations);
            *generations += 1;
            *generations
        };
        *lock(&self.state) = State::Running(Running {
            child,
            stdin,
            lines,
            stderr: stderr_tail,
            next_id: 0,
            generation,
        });
        Ok(())
    }

    fn exchange(
        &self,
        method: &str,
        params: Json,
        engine: &mut dyn Engine,
        timeout: Duration,
    ) -> Result<Json, HostError> {
        let (id, generation) = {
            let mut state = lock(&self.state);
            let State::Running(running) = &mut *state else {
                return Err(HostError::Broken("the Ruby host is not running".into()));
            };
            running.next_id += 1;
            let id = running.next_id;
            let message = json!({"id": id, "method": method, "params": params});
            if let Err(e) = write_line(&mut running.stdin, &message) {
                drop(state);
                return Err(self.fail(format!("could not be written to: {e}")));
            }
            (id, running.generation)
        };
        let mut deadline = Instant::now() + timeout;
        loop {
            let line = {
                let state = lock(&self.state);
                let State::Running(running) = &*state else {
                    return Err(HostError::Broken(
                        "the Ruby host stopped while a request was under way".into(),
                    ));
                };
                if running.generation != generation {
                    return Err(HostError::Broken(
                        "the Ruby host was restarted while a request was under way".into(),
                    ));
                }
                running
                    .lines
                    .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            };
            let line = match line {
                Ok(Line::Text(line)) => line,
                Ok(Line::Closed) | Err(RecvTimeoutError::Disconnected) => {
                    let why = self.exit_reason();
                    return Err(self.fail(why));
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(self.fail(format!(
                        "did not answer '{method}' within {} s; it was stopped",
                        timeout.as_secs_f64()
                    )));
                }
            };
            let Ok(Json::Object(message)) = serde_json::from_str::<Json>(line.trim_end()) else {
                return Err(self.fail(not_protocol(&line)));
            };
            if let Some(asked) = message.get("method").and_then(Json::as_str) {
                let params = message.get("params").cloned().unwrap_or(Json::Null);
                if asked == "log" && !message.contains_key("id") {
                    let text =
                        |key: &str| params.get(key).and_then(Json::as_str).unwrap_or_default();
                    engine.log(text("level"), text("message"));
                    continue;
                }
                let reply = match self.answer(asked, &params, engine) {
                    Ok(result) => json!({"id": message.get("id"), "result": result}),
                    Err(error) => json!({"id": message.get("id"), "error": {"message": error}}),
                };
                let mut state = lock(&self.state);
                let State::Running(running) = &mut *state else {
                    return Err(HostError::Broken(
                        "the Ruby host stopped while a request was under way".into(),
                    ));
                };
                if let Err(e) = write_line(&mut running.stdin, &reply) {
                    drop(state);
                    return Err(self.fail(format!("could not be written to: {e}")));
                }
                // The engine's time does not count against the host.
                deadline = Instant::now() + timeout;
                continue;
            }
            if message.get("id").and_then(Json::as_u64) != Some(id) {
                return Err(self.fail(not_protocol(&line)));
            }
            if let Some(result) = message.get("result") {
                return Ok(result.clone());
            }
            if let Some(error) = message.get("error") {
                return Err(raised(error));
            }
            return Err(self.fail(not_protocol(&line)));
        }
    }

    /// Answers a question of the host through the engine.
    fn answer(&self, method: &str, params: &Json, engine: &mut dyn Engine) -> Result<Json, String> {
        let text = |key: &str| {
            params
                .get(key)
                .and_then(Json::as_str)
                .map(str::to_string)
                .ok_or_else(|| format!("'{method}' needs '{key}'"))
        };
        let value = |key: &str| self.decode(params.get(key).unwrap_or(&Json::Null));
        let values = |key: &str| -> Result<Vec<Value>, String> {
            match value(key)? {
                Value::Array(items) => Ok(items.to_vec()),
                Value::Undef => Ok(Vec::new()),
                other => Ok(vec![other]),
            }
        };
        let question = match method {
            "lookupvar" => Question::LookupVar(text("name")?),
            "setvar" => Question::SetVar(text("name")?, value("value")?),
            "variables" => Question::Variables,
            "call" => Question::Call {
                name: text("name")?,
                args: values("args")?,
            },
            "exists" => Question::Exists(text("name")?),
            "yield" => Question::Yield(values("args")?),
            "find_resource" => Question::FindResource {
                type_name: text("type")?,
                title: text("title")?,
            },
            "catalog_info" => Question::CatalogInfo,
            "instance" => Question::Instance {
                type_text: text("type")?,
                value: value("value")?,
            },
            "assignable" => Question::Assignable {
                type_text: text("type")?,
                other: text("other")?,
            },
            "infer" => Question::Infer(value("value")?),
            "format" => Question::Format(value("value")?),
            "compare_versions" => Question::CompareVersions(text("a")?, text("b")?),
            "setting" => Question::Setting(text("name")?),
            "module_directory" => Question::ModuleDirectory(text("name")?),
            other => return Err(format!("the engine does not answer '{other}'")),
        };
        let encode = |value: &Value| {
            self.encode_all(std::slice::from_ref(value), Shape::Plain)
                .remove(0)
        };
        Ok(match engine.answer(question)? {
            Answer::Value(value) => json!({"value": encode(&value)}),
            Answer::Variable(found) => match found {
                Some(value) => json!({"found": true, "value": encode(&value)}),
                None => json!({"found": false}),
            },
            Answer::Flag(flag) => match method {
                "exists" => json!({"found": flag}),
                _ => json!({"result": flag}),
            },
            Answer::Text(text) => match method {
                "infer" => json!({"type": text}),
                _ => json!({"text": text}),
            },
            Answer::Path(path) => json!({"path": path}),
            Answer::Resource(found) => match found {
                Some(parameters) => {
                    json!({"found": true, "parameters": encode(&Value::hash(parameters))})
                }
                None => json!({"found": false}),
            },
            Answer::Catalog { classes, tags } => json!({"classes": classes, "tags": tags}),
            Answer::Ordering(ordering) => json!({"result": ordering as i8}),
            Answer::Variables(variables) => json!({"variables": encode(&Value::hash(variables))}),
            Answer::Done => json!({}),
        })
    }

    /// Stops the process after a fault and says what happened; the next
    /// request starts a fresh one.
    fn fail(&self, message: String) -> HostError {
        if let State::Running(mut running) = std::mem::replace(&mut *lock(&self.state), State::Idle)
        {
            kill_group(&mut running.child);
        }
        HostError::Broken(format!("the Ruby host {message}"))
    }

    /// Why the host stopped answering: its exit status and the end of its
    /// standard error.
    fn exit_reason(&self) -> String {
        let mut state = lock(&self.state);
        let State::Running(running) = &mut *state else {
            return "stopped".into();
        };
        let deadline = Instant::now() + Duration::from_millis(500);
        let mut status = None;
        while Instant::now() < deadline {
            if let Ok(Some(found)) = running.child.try_wait() {
                status = Some(found);
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        // Its last lines of standard error may still be on their way.
        std::thread::sleep(Duration::from_millis(20));
        let how = match status.map(|s| (s.code(), s)) {
            Some((Some(code), _)) => format!("exited with status {code}"),
            Some((None, status)) => format!("was killed ({status})"),
            None => "closed its output".to_string(),
        };
        let tail = lock(&running.stderr);
        let last: Vec<&str> = tail
            .iter()
            .map(String::as_str)
            .filter(|l| !l.trim().is_empty())
            .collect();
        match last.len() {
            0 => how,
            n => format!("{how}: {}", last[n.saturating_sub(3)..].join(" / ")),
        }
    }
}

impl Drop for Conversation {
    fn drop(&mut self) {
        let state = std::mem::replace(&mut *lock(&self.state), State::Idle);
        if let State::Running(mut running) = state {
            let _ = write_line(
                &mut running.stdin,
                &json!({"id": 0, "method": "shutdown", "params": {}}),
            );
            drop(running.stdin);
            let deadline = Instant::now() + Duration::from_secs(1);
            while Instant::now() < deadline {
                if let Ok(Some(_)) = running.child.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(2));
            }
            kill_group(&mut running.child);
        }
    }
}

fn write_line(stdin: &mut ChildStdin, message: &Json) -> std::io::Result<()> {
    let mut text = message.to_string();
    text.push('\n');
    stdin.write_all(text.as_bytes())?;
    stdin.flush()
}

/// A Ruby exception, as the host describes it.
fn raised(error: &Json) -> HostError {
    let text = |key: &str| error.get(key).and_then(Json::as_str).map(str::to_string);
    let number = |key: &str| {
        error
            .get(key)
            .and_then(Json::as_u64)
            .and_then(|n| u32::try_from(n).ok())
    };
    let class = text("class").unwrap_or_default();
    HostError::Raised {
        message: text("message").unwrap_or_else(|| error.to_string()),
        from_engine: class == "Marionette::EngineError",
        class,
        file: text("file"),
        line: number("line"),
        template_line: number("template_line"),
    }
}

fn not_protocol(line: &str) -> String {
    let line = line.trim_end();
    let shown: String = line.chars().take(200).collect();
    let more = if shown.len() < line.len() { "..." } else { "" };
    format!("printed something that is not the protocol: {shown:?}{more}")
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

/// A lock a thread may take again while it holds it (a nested request),
/// which other threads wait for.
#[derive(Default)]
struct Floor {
    owner: Mutex<(Option<ThreadId>, usize)>,
    free: Condvar,
}

struct FloorGuard<'a>(&'a Floor);

impl Floor {
    fn enter(&self) -> FloorGuard<'_> {
        let me = std::thread::current().id();
        let mut owner = lock(&self.owner);
        loop {
            match owner.0 {
                None => {
                    *owner = (Some(me), 1);
                    break;
                }
                Some(holder) if holder == me => {
                    owner.1 += 1;
                    break;
                }
                Some(_) => owner = self.free.wait(owner).unwrap_or_else(|e| e.into_inner()),
            }
        }
        FloorGuard(self)
    }
}

impl Drop for FloorGuard<'_> {
    fn drop(&mut self) {
        let mut owner = lock(&self.0.owner);
        owner.1 -= 1;
        if owner.1 == 0 {
            owner.0 = None;
            self.0.free.notify_one();
        }
    }
}

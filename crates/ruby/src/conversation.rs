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
//! The process itself (lines read with deadlines, the end of its standard
//! error kept for messages) is a `marionette_child::Child`. A process
//! started after one that stopped is first given again what the stopped
//! one had registered (the [`Journal`]).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Condvar, Mutex, MutexGuard};
use std::thread::ThreadId;
use std::time::{Duration, Instant};

use marionette_child::{Child, NoLine};
use marionette_values::{PHash, Value};
use serde_json::{Value as Json, json};

use crate::journal::Journal;
use crate::wire::{self, Shape, Types};
use crate::{Answer, Engine, HostError, Question};

/// The time the host has to start and answer its handshake.
const START_TIMEOUT: Duration = Duration::from_secs(20);

/// A host process started ahead of need, for the first conversation
/// starting one with the same Ruby and cache.
struct Spare {
    ruby: PathBuf,
    cache: Option<PathBuf>,
    child: Child,
}

static SPARE: Mutex<Option<Spare>> = Mutex::new(None);

/// Starts a host process now, so that Ruby loads the host's program while
/// the caller does other work; the first conversation to start a host
/// with the same Ruby and cache greets it and goes on with it. One that
/// cannot start is left to that conversation to report; one no one takes
/// ends with the program (its input closes).
pub(crate) fn prestart(ruby: &Path, cache: Option<&Path>) {
    let mut spare = lock(&SPARE);
    if spare.is_none()
        && let Ok(child) = spawn(ruby, cache)
    {
        *spare = Some(Spare {
            ruby: ruby.to_path_buf(),
            cache: cache.map(Path::to_path_buf),
            child,
        });
    }
}

/// A new Ruby process on the host's program.
fn spawn(ruby: &Path, cache: Option<&Path>) -> Result<Child, HostError> {
    let mut command = Command::new(ruby);
    // RubyGems is loaded only when a module's file needs a gem.
    command.arg("--disable-gems");
    command.args(crate::boot::arguments(crate::HOST, cache));
    command.env_remove("RUBYOPT");
    Child::spawn_reporting(&mut command, ruby_crash).map_err(|e| HostError::NoRuby {
        ruby: ruby.to_path_buf(),
        message: match e.kind() {
            std::io::ErrorKind::NotFound => format!("{} was not found", ruby.display()),
            _ => format!("{} could not be started: {e}", ruby.display()),
        },
    })
}

enum State {
    Idle,
    Running(Running),
}

struct Running {
    child: Child,
    next_id: u64,
    /// Told apart from a later process, so that a request outliving the
    /// process it was sent to fails rather than read another's answers.
    generation: u64,
}

pub(crate) struct Conversation {
    ruby: PathBuf,
    /// Where the host's program is kept compiled (see `boot`).
    cache: Option<PathBuf>,
    timeout: Duration,
    state: Mutex<State>,
    generations: Mutex<u64>,
    floor: Floor,
    types: Mutex<Types>,
    journal: Mutex<Journal>,
    /// The custom fact file the host said it runs (and the fact it
    /// resolves, if it is not loading the file), for a message naming
    /// them if the host stops there.
    running_fact: Mutex<Option<(PathBuf, Option<String>)>>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

impl Conversation {
    pub(crate) fn new(ruby: PathBuf, cache: Option<PathBuf>, timeout: Duration) -> Conversation {
        Conversation {
            ruby,
            cache,
            timeout,
            state: Mutex::new(State::Idle),
            generations: Mutex::new(0),
            floor: Floor::default(),
            types: Mutex::default(),
            journal: Mutex::default(),
            running_fact: Mutex::default(),
        }
    }

    pub(crate) fn running(&self) -> bool {
        matches!(*lock(&self.state), State::Running(_))
    }

    pub(crate) fn running_fact(&self) -> Option<(PathBuf, Option<String>)> {
        lock(&self.running_fact).clone()
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
        handshake: &dyn Fn() -> Json,
        method: &str,
        params: Json,
        engine: &mut dyn Engine,
    ) -> Result<Json, HostError> {
        let _floor = self.floor.enter();
        if !self.running() {
            self.start()?;
            self.exchange("handshake", handshake(), engine, START_TIMEOUT)?;
            self.replay(engine)?;
        }
        if method == "reset" {
            lock(&self.types).clear();
        }
        let kept = Journal::keeps(method).then(|| params.clone());
        *lock(&self.running_fact) = None;
        let result = match self.exchange(method, params, engine, self.timeout) {
            Ok(result) => result,
            Err(HostError::Broken(message)) => {
                return Err(match lock(&self.running_fact).take() {
                    Some((file, fact)) => HostError::FactBroken {
                        message,
                        file,
                        fact,
                    },
                    None => HostError::Broken(message),
                });
            }
            Err(error) => return Err(error),
        };
        if let Some(params) = kept {
            lock(&self.journal).record(method, &params, &result);
        }
        Ok(result)
    }

    /// Makes again, in a host just started, the requests that registered
    /// something in the hosts before it. What the module's code refuses
    /// now (a file changed since) is left out: a request needing it fails
    /// on its own. A host that stops again fails the request that started
    /// it. What the code logs was logged the first time.
    fn replay(&self, engine: &mut dyn Engine) -> Result<(), HostError> {
        let entries = lock(&self.journal).entries();
        let mut quiet = Quiet(engine);
        for (method, params) in entries {
            match self.exchange(&method, params, &mut quiet, self.timeout) {
                Ok(_) | Err(HostError::Raised { .. }) => {}
                Err(error) => {
                    return Err(HostError::Broken(format!(
                        "{error} (while it was started again and given what the host before it had loaded)"
                    )));
                }
            }
        }
        Ok(())
    }

    /// Starts the host on its program, or takes the one [`prestart`]
    /// started for the same Ruby and cache.
    fn start(&self) -> Result<(), HostError> {
        let spare = lock(&SPARE)
            .take_if(|spare| spare.ruby == self.ruby && spare.cache == self.cache)
            .map(|spare| spare.child);
        let child = match spare {
            Some(child) => child,
            None => spawn(&self.ruby, self.cache.as_deref())?,
        };
        let generation = {
            let mut generations = lock(&self.generations);
            *generations += 1;
            *generations
        };
        *lock(&self.state) = State::Running(Running {
            child,
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
            if let Err(e) = running.child.write_line(&message.to_string()) {
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
                    .child
                    .read_line(deadline.saturating_duration_since(Instant::now()))
            };
            let line = match line {
                Ok(line) => line,
                Err(NoLine::Closed) => {
                    let why = self.exit_reason();
                    return Err(self.fail(why));
                }
                Err(NoLine::TooLong) => return Err(self.fail(marionette_child::too_long())),
                Err(NoLine::Timeout) => {
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
                if asked == "running" && !message.contains_key("id") {
                    let text = |key: &str| params.get(key).and_then(Json::as_str);
                    *lock(&self.running_fact) = text("file")
                        .map(|file| (PathBuf::from(file), text("fact").map(str::to_string)));
                    continue;
                }
                if asked == "log" && !message.contains_key("id") {
                    let text = |key: &str| params.get(key).and_then(Json::as_str);
                    engine.log(
                        text("level").unwrap_or_default(),
                        text("source"),
                        text("message").unwrap_or_default(),
                    );
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
                if let Err(e) = running.child.write_line(&reply.to_string()) {
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
                block: params
                    .get("block")
                    .and_then(|block| block.get("parameters"))
                    .and_then(Json::as_u64)
                    .map(|count| count as usize),
            },
            "exists" => Question::Exists(text("name")?),
            "stop_run" => Question::StopRun,
            "yield" => Question::Yield(values("args")?),
            "find_resource" => Question::FindResource {
                type_name: text("type")?,
                title: text("title")?,
            },
            "catalog_resources" => Question::CatalogResources(match value("types")? {
                Value::Array(types) => types
                    .iter()
                    .filter_map(|t| match t {
                        Value::String(name) => Some(name.to_string()),
                        _ => None,
                    })
                    .collect(),
                _ => Vec::new(),
            }),
            "set_parameter" => Question::SetParameter {
                type_name: text("type")?,
                title: text("title")?,
                name: text("name")?,
                value: value("value")?,
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
            "execute" => Question::Execute(crate::Execution {
                argv: values("argv")?
                    .iter()
                    .map(marionette_values::format::to_s)
                    .collect(),
                env: match value("env")? {
                    Value::Hash(env) => env
                        .iter()
                        .map(|(k, v)| {
                            (
                                marionette_values::format::to_s(k),
                                marionette_values::format::to_s(v),
                            )
                        })
                        .collect(),
                    _ => Vec::new(),
                },
                stdin: match value("stdin")? {
                    Value::String(text) => Some(text.to_string()),
                    _ => None,
                },
                combine: value("combine")?.is_truthy(),
                cwd: match value("cwd")? {
                    Value::String(dir) => Some(dir.to_string()),
                    _ => None,
                },
            }),
            "core_provider" => Question::CoreProvider(text("type")?),
            "core_call" => Question::CoreCall {
                type_name: text("type")?,
                title: text("title")?,
                values: match value("values")? {
                    Value::Hash(values) => values.as_ref().clone(),
                    _ => PHash::new(),
                },
                call: text("call")?,
            },
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
            Answer::Executed(Ok((output, status))) => json!({"output": output, "status": status}),
            Answer::Executed(Err(message)) => json!({"error": message}),
            Answer::Done => json!({}),
        })
    }

    /// Stops the process after a fault and says what happened; the next
    /// request starts a fresh one.
    fn fail(&self, message: String) -> HostError {
        if let State::Running(running) = std::mem::replace(&mut *lock(&self.state), State::Idle) {
            running.child.kill();
        }
        HostError::Broken(format!("the Ruby host {message}"))
    }

    /// Why the host stopped answering: its exit status and the end of its
    /// standard error.
    fn exit_reason(&self) -> String {
        match &mut *lock(&self.state) {
            State::Running(running) => running.child.exit_reason(),
            State::Idle => "stopped".into(),
        }
    }
}

impl Drop for Conversation {
    fn drop(&mut self) {
        let state = std::mem::replace(&mut *lock(&self.state), State::Idle);
        if let State::Running(mut running) = state {
            let _ = running
                .child
                .write_line(&json!({"id": 0, "method": "shutdown", "params": {}}).to_string());
            running.child.close_input();
            if !running.child.exits_within(Duration::from_secs(1)) {
                running.child.kill();
            }
        }
    }
}

/// The engine, with what the code logs left out.
struct Quiet<'a>(&'a mut dyn Engine);

impl Engine for Quiet<'_> {
    fn answer(&mut self, question: Question) -> Result<Answer, String> {
        self.0.answer(question)
    }

    fn log(&mut self, _level: &str, _source: Option<&str>, _message: &str) {}
}

/// A Ruby exception, as the host describes it.
pub(crate) fn raised(error: &Json) -> HostError {
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
        from_engine: matches!(
            class.as_str(),
            "Marionette::EngineError" | "Marionette::FunctionError"
        ),
        class,
        file: text("file"),
        line: number("line"),
        template_line: number("template_line"),
    }
}

/// The first line of Ruby's report of a fatal signal (`FILE:LINE: [BUG]
/// Segmentation fault at 0x...`), and the signal it reports: Ruby catches
/// SIGSEGV, SIGBUS and SIGILL, prints its state and memory map, and
/// aborts; its other `[BUG]`s end in that abort.
fn ruby_crash(line: &str) -> Option<i32> {
    let (_, bug) = line.split_once("[BUG] ")?;
    Some(if bug.starts_with("Segmentation fault") {
        libc::SIGSEGV
    } else if bug.starts_with("Bus Error") {
        libc::SIGBUS
    } else if bug.starts_with("Illegal instruction") {
        libc::SIGILL
    } else {
        libc::SIGABRT
    })
}

fn not_protocol(line: &str) -> String {
    format!(
        "printed something that is not the protocol: {}",
        marionette_child::quote(line)
    )
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

//! The Ruby host: where a module's Ruby runs when Marionette has no native
//! implementation of it. Marionette never links Ruby; a [`RubyHost`]
//! starts the system's `ruby` on first need (or ahead of it:
//! [`RubyHost::prestart`]), running a host program that
//! ships inside this crate (`host/*.rb`), and keeps it for the life of
//! the value (one per environment). The host speaks the plugin protocol,
//! extended both ways: while it answers, it asks the engine questions
//! ([`Question`]: variables, other functions, the lambda given to the
//! call, the catalog, types), and the engine may ask it to run more Ruby
//! while answering (`docs/ruby-host.md`).
//!
//! What runs here: 4.x functions (`lib/puppet/functions`), 3.x functions
//! (`lib/puppet/parser/functions`), ERB templates, and the description of
//! resource types (`lib/puppet/type`). The engine keeps the type system:
//! it is told each dispatcher's signature as text, picks the dispatcher
//! and checks values itself.
//!
//! A fault of the host (a crash, a hang past the time limit, output that
//! is not the protocol) fails the request that met it, names the module
//! file, and stops the process; the next request starts a fresh one,
//! given first what the stopped one had registered (functions, types and
//! providers, the run's resources under the same ids, prefetches), so
//! that one bad provider fails its own resources and no others.

mod apply;
mod boot;
mod conversation;
mod journal;
mod resource_api;
mod scan;
mod wire;

use std::path::{Path, PathBuf};
use std::time::Duration;

use marionette_values::{PHash, Value};
use serde_json::{Value as Json, json};

pub use crate::apply::{
    Asked, Built, CatalogEntry, Declared, GeneratedResource, LoadError, LoggedMessage,
    ProviderSpec, ResourceId, ResourceState,
};
use crate::conversation::Conversation;
pub use crate::resource_api::{ApiAttribute, ApiType, Behaviour};
pub use crate::scan::{defines_title_patterns, fact_names, scan_type, told_whole};
use crate::wire::Shape;

/// The host program, in load order: each part's name and source.
const HOST: &[(&str, &str)] = &[
    ("values", include_str!("../host/values.rb")),
    ("connection", include_str!("../host/connection.rb")),
    ("puppet", include_str!("../host/puppet.rb")),
    ("scope", include_str!("../host/scope.rb")),
    ("types", include_str!("../host/types.rb")),
    ("resources", include_str!("../host/resources.rb")),
    ("filesystem", include_str!("../host/filesystem.rb")),
    ("parsedfile", include_str!("../host/parsedfile.rb")),
    ("inifile", include_str!("../host/inifile.rb")),
    ("core", include_str!("../host/core.rb")),
    ("resource_api", include_str!("../host/resource_api.rb")),
    ("facts", include_str!("../host/facts.rb")),
    ("main", include_str!("../host/main.rb")),
];

/// What a host runs with.
#[derive(Clone, Debug)]
pub struct Settings {
    pub environment: String,
    pub modulepath: Vec<PathBuf>,
    /// The Ruby interpreter: `ruby` on `PATH` unless `MARIONETTE_RUBY`
    /// names another.
    pub ruby: PathBuf,
    /// How long one request may take, the engine's answers excluded.
    pub timeout: Duration,
    /// Puppet settings a module's Ruby may read (`Puppet[:strict]`); the
    /// host asks for any other by name.
    pub puppet_settings: Vec<(String, Value)>,
    /// The environment's custom fact files (`lib/facter/*.rb` of its
    /// modules), loaded when a fact of theirs is first asked for.
    pub fact_files: Vec<PathBuf>,
    /// A directory private to the user where the host's program is kept
    /// compiled, so that a host starts in about half the time (see
    /// `boot`); `None`: compiled at every start.
    pub cache: Option<PathBuf>,
}

/// How long one request may take unless `MARIONETTE_RUBY_TIMEOUT` says.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(300);

/// A setting of the environment the host cannot run with.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SettingsError {
    /// `MARIONETTE_RUBY_TIMEOUT` is not a positive number of seconds.
    #[error("MARIONETTE_RUBY_TIMEOUT must be a positive number of seconds, not '{0}'")]
    Timeout(String),
}

impl Settings {
    /// The settings from the process's environment (`MARIONETTE_RUBY`,
    /// `MARIONETTE_RUBY_TIMEOUT`). A time limit that is not a positive
    /// number of seconds is taken as the default here: a program checks
    /// it first with [`Settings::timeout_from_env`], to report it.
    pub fn new(environment: &str, modulepath: Vec<PathBuf>) -> Settings {
        let ruby = std::env::var_os("MARIONETTE_RUBY").map_or_else(|| "ruby".into(), PathBuf::from);
        let timeout = Settings::timeout_from_env().unwrap_or(DEFAULT_TIMEOUT);
        Settings {
            environment: environment.to_string(),
            modulepath,
            ruby,
            timeout,
            puppet_settings: Vec::new(),
            fact_files: Vec::new(),
            cache: None,
        }
    }
}

impl Settings {
    /// The time limit of a request `MARIONETTE_RUBY_TIMEOUT` gives in
    /// seconds, capped as a plugin's is (`marionette_child::timeout_of`:
    /// `1e19` is a day, not an overflow); five minutes when it is not set.
    pub fn timeout_from_env() -> Result<Duration, SettingsError> {
        let Some(text) = std::env::var_os("MARIONETTE_RUBY_TIMEOUT") else {
            return Ok(DEFAULT_TIMEOUT);
        };
        let text = text.to_string_lossy();
        text.trim()
            .parse::<f64>()
            .ok()
            .and_then(marionette_child::timeout_of)
            .ok_or_else(|| SettingsError::Timeout(text.into_owned()))
    }
}

/// Which of Puppet's function APIs a file uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Api {
    /// `Puppet::Functions.create_function`, in `lib/puppet/functions`.
    V4,
    /// `Puppet::Parser::Functions.newfunction`, in
    /// `lib/puppet/parser/functions`.
    V3,
}

/// A loaded function, as its file declares it.
#[derive(Clone, Debug, PartialEq)]
pub enum FunctionSpec {
    V4 {
        dispatchers: Vec<Dispatcher>,
        /// `local_types` assignments, `'Name = Definition'`.
        local_types: Vec<String>,
        /// The function defines its own `call`, which passes the calling
        /// scope as a first argument its dispatchers declare: the engine
        /// chooses among them as if that argument were given.
        scope_first: bool,
    },
    V3 {
        /// Whether it returns a value (`rvalue`) or is a statement.
        rvalue: bool,
        /// Puppet's arity: `n` exactly, or `-(n + 1)` for at least `n`.
        arity: i64,
    },
}

/// One `dispatch` (or `argument_mismatch`) of a 4.x function.
#[derive(Clone, Debug, PartialEq)]
pub struct Dispatcher {
    /// The Ruby method it calls.
    pub method: String,
    pub params: Vec<Param>,
    pub block: Option<BlockParam>,
    /// The declared return type, as text.
    pub returns: Option<String>,
    /// An `argument_mismatch` handler: its method returns the text of
    /// the error.
    pub mismatch: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: String,
    /// The type as the file writes it (it may name module type aliases).
    pub type_text: String,
    pub kind: ParamKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    Required,
    Optional,
    /// Any number, none included.
    Repeated,
    /// At least one.
    RequiredRepeated,
}

#[derive(Clone, Debug, PartialEq)]
pub struct BlockParam {
    pub name: String,
    pub type_text: String,
    pub optional: bool,
}

/// Where a call comes from: shown to the Ruby code as its scope.
#[derive(Clone, Debug, Default)]
pub struct Context {
    /// The module of the calling code (`scope.source.module_name`).
    pub module: Option<String>,
    /// The calling scope's name, for messages (`Class[apache]`).
    pub scope: String,
}

/// A call of a loaded function.
#[derive(Clone, Debug)]
pub struct Call<'a> {
    pub name: &'a str,
    pub api: Api,
    /// The index of the dispatcher the engine chose (4.x).
    pub dispatcher: usize,
    pub args: &'a [Value],
    /// The lambda given to the call, by its parameter count.
    pub block: Option<usize>,
    /// Whether that block is the Ruby block of the host's own call
    /// (`Question::Call`'s), rather than a Puppet lambda the engine runs.
    pub ruby_block: bool,
    pub context: Context,
}

/// A template to render: a file, or text given inline.
#[derive(Clone, Debug)]
pub enum Template<'a> {
    File(&'a Path),
    Inline(&'a str),
}

/// A rendered template.
#[derive(Clone, Debug, PartialEq)]
pub struct Rendered {
    pub text: String,
    /// The variables whose array or hash the template changed in place,
    /// with their new values: in Puppet such a change reaches the
    /// variable, and the parameter it holds.
    pub changed: Vec<(String, Value)>,
}

/// A module's resource type as the compiler needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeSpec {
    pub name: String,
    /// The type's `@doc`.
    pub doc: String,
    pub attributes: Vec<Attribute>,
    pub ensurable: bool,
    /// The type checks whole resources (`validate do`).
    pub validates: bool,
    /// The type reacts to events (`def refresh`).
    pub refreshable: bool,
    /// The type refreshes its resources after their own changes
    /// (`newtype(:mount, self_refresh: true)`).
    pub self_refresh: bool,
    /// The type defines its resources' `title` (sshkey's `HOST@TYPE`).
    pub titled: bool,
    /// The type adds resources to the run (`def generate`).
    pub generates: bool,
    /// The type has an `eval_generate`, which Puppet asks when the run
    /// reaches each resource (see `marionette_ral::TypeDef::fills_late`).
    pub fills_late: bool,
    /// The type checks each resource before a run changes anything
    /// (`def pre_run_check`).
    pub pre_run_checks: bool,
    pub features: Vec<String>,
    /// Regexes (Ruby syntax) and the attributes their groups fill.
    pub title_patterns: Vec<(String, Vec<String>)>,
    /// `(kind, target type)` of each `autorequire`, `autobefore`,
    /// `autonotify` and `autosubscribe` block.
    pub autorelations: Vec<(String, String)>,
    /// What a type written with the Resource API declares beyond a
    /// classic type: data types, behaviours, defaults.
    pub api: Option<ApiType>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attribute {
    pub name: String,
    pub property: bool,
    pub namevar: bool,
    pub boolean: bool,
    /// A property whose value is the whole array given
    /// (`array_matching: :all`).
    pub array_all: bool,
    /// It has a `defaultto`.
    pub default: bool,
    /// Its values are checked by its own code (`validate`, `newvalues`, a
    /// parent class).
    pub checked: bool,
    /// Its own `should=` (or `value=`) sees the value whole, and may
    /// refuse it (cs_colocation's `primitives`, anything but an array).
    pub whole_checked: bool,
    /// Its block words its own change messages (`def change_to_s`).
    pub describes_change: bool,
    /// Its `desc`.
    pub doc: String,
}

/// What the host asks the engine while it answers.
#[derive(Debug)]
pub enum Question {
    /// A variable as the calling scope sees it.
    LookupVar(String),
    SetVar(String, Value),
    /// Every variable the calling scope sees.
    Variables,
    /// Calls any function the engine knows.
    Call {
        name: String,
        args: Vec<Value>,
        /// A Ruby block given to the call (stdlib's `to_toml` giving one to
        /// `rewrap_sensitive_data`), by its parameter count: it stays in
        /// the host, for a Ruby function of the host to be given.
        block: Option<usize>,
    },
    /// Whether a function exists.
    Exists(String),
    /// Stop the run after the resource being applied
    /// (`Puppet::Application.stop!`: reboot's immediate reboot).
    StopRun,
    /// Calls the lambda given to the call being answered.
    Yield(Vec<Value>),
    FindResource {
        type_name: String,
        title: String,
    },
    /// The resources of the run being applied whose types are among
    /// `types` (those the host has loaded), each `[type, title, values]`:
    /// what a provider finds in `resource.catalog.resources`.
    CatalogResources(Vec<String>),
    /// Sets a parameter of another resource of the run being applied,
    /// before it is evaluated (datacat's collector, its file's content).
    SetParameter {
        type_name: String,
        title: String,
        name: String,
        value: Value,
    },
    CatalogInfo,
    /// Whether a value is an instance of a type (as text, aliases allowed).
    Instance {
        type_text: String,
        value: Value,
    },
    Assignable {
        type_text: String,
        other: String,
    },
    Infer(Value),
    /// A value's text as Puppet prints it.
    Format(Value),
    CompareVersions(String, String),
    Setting(String),
    ModuleDirectory(String),
    /// Runs a command for a provider or a fact (Puppet's `execute`): the
    /// engine starts processes faster than Ruby does.
    Execute(Execution),
    /// The name of the provider the engine gives a core type's resources
    /// that name none (`systemd` for `service` on most machines).
    CoreProvider(String),
    /// Has the engine's own provider of a core type do one thing for a
    /// resource a module's Ruby made (rabbitmq's
    /// `Puppet::Type.type(:service).new(name: ...).provider.stop`): `call`
    /// is one of the provider methods the host's proxy has (`start`,
    /// `stop`, `restart`, `status`, `enable`, `disable`, `enabled?`), and
    /// `values` the resource's parameters.
    CoreCall {
        type_name: String,
        title: String,
        values: PHash,
        call: String,
    },
}

/// A command a provider's or a fact's Ruby runs.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Execution {
    /// The program and its arguments (a shell command is `/bin/sh -c`'s).
    pub argv: Vec<String>,
    /// Variables set for it on top of the engine's environment.
    pub env: Vec<(String, String)>,
    pub stdin: Option<String>,
    /// Standard error joins standard output, in the order written.
    pub combine: bool,
    /// The directory it runs in: the host's own (a provider's
    /// `Dir.chdir` block) or the one its options name.
    pub cwd: Option<String>,
}

/// The engine's answer to a [`Question`].
#[derive(Debug)]
pub enum Answer {
    Value(Value),
    /// A variable, `None` when there is none.
    Variable(Option<Value>),
    Flag(bool),
    Text(String),
    Path(Option<PathBuf>),
    /// A resource's parameters, `None` when there is no such resource.
    Resource(Option<PHash>),
    Catalog {
        classes: Vec<String>,
        tags: Vec<String>,
    },
    Ordering(std::cmp::Ordering),
    Variables(PHash),
    /// What a command printed and how it ended (`None`: by a signal), or
    /// why it could not run.
    Executed(Result<(String, Option<i32>), String>),
    Done,
}

/// The engine, as the host reaches it while answering.
pub trait Engine {
    /// Answers a question; an error becomes a Ruby exception at the point
    /// the question was asked.
    fn answer(&mut self, question: Question) -> Result<Answer, String>;

    /// A message the Ruby code logged (`level` as Puppet names levels),
    /// with what logged it when that was a provider or a resource
    /// (`Mrtest_kv[a](provider=plain)`).
    fn log(&mut self, level: &str, source: Option<&str>, message: &str);
}

/// Why a request to the host failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HostError {
    /// No Ruby could be started.
    #[error("{message}")]
    NoRuby { ruby: PathBuf, message: String },
    /// The Ruby code raised an exception.
    #[error("{message}")]
    Raised {
        message: String,
        /// The exception's Ruby class.
        class: String,
        /// Where in a module's Ruby it was raised.
        file: Option<String>,
        line: Option<u32>,
        /// For a template, its line that failed.
        template_line: Option<u32>,
        /// The engine's own failure (a callback's), passed back through
        /// the Ruby code.
        from_engine: bool,
    },
    /// The host crashed, hung or broke the protocol; it was stopped.
    #[error("{0}")]
    Broken(String),
    /// The host stopped as for [`HostError::Broken`] while it ran a
    /// module's custom fact file: loading it, or resolving its fact
    /// `fact`. Hosts started after it leave that fact (or file) alone, so
    /// the other facts still resolve.
    #[error("{message}")]
    FactBroken {
        message: String,
        file: PathBuf,
        fact: Option<String>,
    },
}

/// One Ruby process for one environment, started on first need.
pub struct RubyHost {
    settings: Settings,
    conversation: Conversation,
    /// The custom fact files whose loading stopped a host, and the facts
    /// whose resolving did: not run again by the hosts after it.
    stopped_by: std::sync::Mutex<(
        std::collections::BTreeSet<PathBuf>,
        std::collections::BTreeSet<String>,
    )>,
    /// Types described so far, by file and digest.
    types: std::sync::Mutex<std::collections::HashMap<(PathBuf, u64), TypeSpec>>,
    /// Whether custom facts resolve one at a time: once a host stopped
    /// while several resolved, which of them stopped it is found so.
    facts_in_turn: std::sync::atomic::AtomicBool,
    /// Where the host keeps templates compiled, under the cache; made
    /// when a host is first greeted.
    template_cache: std::sync::OnceLock<Option<PathBuf>>,
}

fn lock<T>(mutex: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

impl RubyHost {
    pub fn new(settings: Settings) -> RubyHost {
        RubyHost {
            conversation: Conversation::new(
                settings.ruby.clone(),
                settings.cache.clone(),
                settings.timeout,
            ),
            stopped_by: std::sync::Mutex::default(),
            settings,
            types: std::sync::Mutex::default(),
            facts_in_turn: std::sync::atomic::AtomicBool::new(false),
            template_cache: std::sync::OnceLock::new(),
        }
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Whether the process runs (for tests and measurements).
    pub fn running(&self) -> bool {
        self.conversation.running()
    }

    /// Starts a host's Ruby now, for a caller that will most likely need
    /// one with these settings and has other work first: Ruby then loads
    /// the host's program (about 20 ms) beside that work instead of after
    /// it. The first host made with the same interpreter and cache takes
    /// the process; nothing is asked of it until that host's first
    /// request, which reports a process that could not start.
    pub fn prestart(settings: &Settings) {
        conversation::prestart(&settings.ruby, settings.cache.as_deref());
    }

    /// What the host says it runs now, while it resolves custom facts:
    /// the fact file, and the fact when it is not loading the file. For a
    /// progress line, read from another thread than the request's.
    pub fn running_fact(&self) -> Option<(PathBuf, Option<String>)> {
        self.conversation.running_fact()
    }

    /// Starts a new compilation: functions' instances (and what they keep
    /// between calls) are made afresh, as Puppet makes them per compile.
    pub fn reset(&self, engine: &mut dyn Engine) -> Result<(), HostError> {
        if self.running() {
            self.request("reset", json!({}), engine)?;
        }
        Ok(())
    }

    /// Loads the function `name` from `file` and says what it declares.
    pub fn load_function(
        &self,
        name: &str,
        file: &Path,
        api: Api,
        engine: &mut dyn Engine,
    ) -> Result<FunctionSpec, HostError> {
        let api_name = match api {
            Api::V4 => "v4",
            Api::V3 => "v3",
        };
        let answer = self.request(
            "load_function",
            json!({"name": name, "file": file, "api": api_name}),
            engine,
        )?;
        read_function_spec(&answer).map_err(|message| self.bad_answer("load_function", &message))
    }

    /// Calls a loaded function.
    pub fn call_function(
        &self,
        call: &Call<'_>,
        engine: &mut dyn Engine,
    ) -> Result<Value, HostError> {
        let shape = match call.api {
            Api::V4 => Shape::Plain,
            Api::V3 => Shape::ThreeX,
        };
        let args = self.conversation.encode_all(call.args, shape);
        let params = json!({
            "name": call.name,
            "api": if call.api == Api::V3 { "v3" } else { "v4" },
            "dispatcher": call.dispatcher,
            "args": args,
            "block": call.block.map(|count| json!({"parameters": count, "ruby": call.ruby_block})),
            "context": context(&call.context),
        });
        let answer = self.request("call", params, engine)?;
        self.conversation
            .decode(answer.get("value").unwrap_or(&Json::Null))
            .map_err(|message| HostError::Raised {
                message: format!("the function returned {message}"),
                class: "TypeError".into(),
                file: None,
                line: None,
                template_line: None,
                from_engine: false,
            })
    }

    /// Renders an ERB template with the given variables as instance
    /// variables.
    pub fn render(
        &self,
        template: Template<'_>,
        variables: &PHash,
        context: &Context,
        engine: &mut dyn Engine,
    ) -> Result<Rendered, HostError> {
        let variables = self
            .conversation
            .encode_all(&[Value::hash(variables.clone())], Shape::Plain);
        let mut params = json!({
            "variables": variables[0],
            "context": self::context(context),
        });
        match template {
            Template::File(path) => params["file"] = json!(path),
            Template::Inline(text) => params["text"] = json!(text),
        }
        let answer = self.request("render", params, engine)?;
        let Some(text) = answer.get("text").and_then(Json::as_str) else {
            return Err(self.bad_answer("render", "no text"));
        };
        let mut changed = Vec::new();
        if let Some(Json::Object(map)) = answer.get("changed") {
            for (name, data) in map {
                let value = self
                    .conversation
                    .decode(data)
                    .map_err(|message| self.bad_answer("render", &message))?;
                changed.push((name.clone(), value));
            }
        }
        Ok(Rendered {
            text: text.to_string(),
            changed,
        })
    }

    /// What `describe` shows of the resource type `name` declared in
    /// `file`, from running its DSL: the type's data as
    /// `marionette_ral::type_from_data` reads it (docs, features, each
    /// attribute's values, aliases, patterns and required features).
    pub fn type_reference(
        &self,
        name: &str,
        file: &Path,
        engine: &mut dyn Engine,
    ) -> Result<Json, HostError> {
        self.request(
            "type_reference",
            json!({"name": name, "file": file}),
            engine,
        )
    }

    /// The attributes `title` gives a resource of the type `name` (declared
    /// in `file`) through the type's title patterns, as Puppet parses a
    /// title: the first pattern matching, each group through its procs. An
    /// error when none matches.
    pub fn parse_title(
        &self,
        name: &str,
        file: &Path,
        title: &str,
        engine: &mut dyn Engine,
    ) -> Result<Vec<(String, Value)>, HostError> {
        let answer = self.request(
            "parse_title",
            json!({"name": name, "file": file, "title": title}),
            engine,
        )?;
        let values = self
            .conversation
            .decode(answer.get("values").unwrap_or(&Json::Null))
            .map_err(|message| self.bad_answer("parse_title", &message))?;
        Ok(match values {
            Value::Hash(hash) => hash
                .iter()
                .map(|(k, v)| (marionette_values::format::to_s(k), v.clone()))
                .collect(),
            _ => Vec::new(),
        })
    }

    /// Describes the resource type `name` declared in `file`. A
    /// description is kept for the life of the host, by the file's digest:
    /// a changed file is described again.
    pub fn describe_type(
        &self,
        name: &str,
        file: &Path,
        engine: &mut dyn Engine,
    ) -> Result<TypeSpec, HostError> {
        let digest = std::fs::read(file).map(|bytes| {
            use std::hash::{Hash, Hasher};
            let mut hasher = std::collections::hash_map::DefaultHasher::new();
            bytes.hash(&mut hasher);
            hasher.finish()
        });
        let key = digest.ok().map(|d| (file.to_path_buf(), d));
        if let Some(key) = &key
            && let Some(spec) = lock(&self.types).get(key)
        {
            return Ok(spec.clone());
        }
        let answer = self.request("describe_type", json!({"name": name, "file": file}), engine)?;
        let spec = read_type_spec(&answer)
            .map_err(|message| self.bad_answer("describe_type", &message))?;
        if let Some(key) = key {
            lock(&self.types).insert(key, spec.clone());
        }
        Ok(spec)
    }

    /// What a host is told when it starts (only then: made per request,
    /// it would cost every call).
    fn handshake(&self) -> Json {
        let (fact_files, skipped_facts) = {
            let stopped_by = lock(&self.stopped_by);
            let files: Vec<&PathBuf> = self
                .settings
                .fact_files
                .iter()
                .filter(|f| !stopped_by.0.contains(*f))
                .collect();
            (json!(files), json!(stopped_by.1))
        };
        json!({
            "protocol": 1,
            "environment": self.settings.environment,
            "modulepath": self.settings.modulepath,
            "fact_files": fact_files,
            "skipped_facts": skipped_facts,
            "template_cache": self.template_cache.get_or_init(|| {
                let cache = self.settings.cache.as_deref()?;
                boot::private_dir(cache, "templates")
            }),
            "settings": self.settings.puppet_settings.iter()
                .map(|(k, v)| (k.clone(), self.conversation.encode_all(std::slice::from_ref(v), Shape::Plain).remove(0)))
                .collect::<serde_json::Map<String, Json>>(),
        })
    }

    fn request(
        &self,
        method: &str,
        params: Json,
        engine: &mut dyn Engine,
    ) -> Result<Json, HostError> {
        // While several custom facts resolve at once, the one announced
        // is not surely the one that stopped the host (a signal may reach
        // another thread): they are resolved again one at a time, which
        // tells.
        let together = method == "custom_facts" && params["serial"] == Json::Bool(false);
        let result = self
            .conversation
            .request(&|| self.handshake(), method, params, engine);
        if together
            && matches!(
                &result,
                Err(HostError::FactBroken { fact: Some(_), .. } | HostError::Broken(_))
            )
        {
            self.facts_in_turn
                .store(true, std::sync::atomic::Ordering::Relaxed);
            return result;
        }
        if let Err(HostError::FactBroken { file, fact, .. }) = &result {
            let mut stopped_by = lock(&self.stopped_by);
            match fact {
                Some(fact) => stopped_by.1.insert(fact.clone()),
                None => stopped_by.0.insert(file.clone()),
            };
        }
        result
    }

    pub(crate) fn bad_answer(&self, method: &str, message: &str) -> HostError {
        HostError::Broken(format!(
            "the Ruby host answered '{method}' badly: {message}"
        ))
    }
}

fn context(context: &Context) -> Json {
    json!({"module": context.module, "scope": context.scope})
}

fn read_function_spec(answer: &Json) -> Result<FunctionSpec, String> {
    let text = |data: &Json, key: &str| data.get(key).and_then(Json::as_str).map(str::to_string);
    match answer.get("api").and_then(Json::as_str) {
        Some("v3") => Ok(FunctionSpec::V3 {
            rvalue: answer.get("type").and_then(Json::as_str) == Some("rvalue"),
            arity: answer.get("arity").and_then(Json::as_i64).unwrap_or(-1),
        }),
        Some("v4") => {
            let mut dispatchers = Vec::new();
            for d in answer
                .get("dispatchers")
                .and_then(Json::as_array)
                .ok_or("no dispatchers")?
            {
                let mut params = Vec::new();
                for p in d
                    .get("params")
                    .and_then(Json::as_array)
                    .into_iter()
                    .flatten()
                {
                    let kind = match p.get("kind").and_then(Json::as_str) {
                        Some("required") => ParamKind::Required,
                        Some("optional") => ParamKind::Optional,
                        Some("repeated") => ParamKind::Repeated,
                        Some("required_repeated") => ParamKind::RequiredRepeated,
                        other => return Err(format!("a parameter of kind {other:?}")),
                    };
                    params.push(Param {
                        name: text(p, "name").unwrap_or_default(),
                        type_text: text(p, "type").unwrap_or_else(|| "Any".into()),
                        kind,
                    });
                }
                let block = d
                    .get("block")
                    .filter(|b| b.is_object())
                    .map(|b| BlockParam {
                        name: text(b, "name").unwrap_or_else(|| "block".into()),
                        type_text: text(b, "type").unwrap_or_else(|| "Callable".into()),
                        optional: b.get("optional").and_then(Json::as_bool).unwrap_or(false),
                    });
                dispatchers.push(Dispatcher {
                    method: text(d, "method").ok_or("a dispatcher without its method")?,
                    params,
                    block,
                    returns: text(d, "returns"),
                    mismatch: d.get("mismatch").and_then(Json::as_bool).unwrap_or(false),
                });
            }
            let local_types = answer
                .get("local_types")
                .and_then(Json::as_array)
                .into_iter()
                .flatten()
                .filter_map(Json::as_str)
                .map(str::to_string)
                .collect();
            Ok(FunctionSpec::V4 {
                dispatchers,
                local_types,
                scope_first: answer
                    .get("scope_first")
                    .and_then(Json::as_bool)
                    .unwrap_or(false),
            })
        }
        other => Err(format!("an unknown function API {other:?}")),
    }
}

fn read_type_spec(answer: &Json) -> Result<TypeSpec, String> {
    let flag = |data: &Json, key: &str| data.get(key).and_then(Json::as_bool).unwrap_or(false);
    let name = answer
        .get("name")
        .and_then(Json::as_str)
        .ok_or("a type without its name")?;
    let attributes = answer
        .get("attributes")
        .and_then(Json::as_array)
        .into_iter()
        .flatten()
        .filter_map(|a| {
            Some(Attribute {
                name: a.get("name")?.as_str()?.to_string(),
                property: a.get("kind").and_then(Json::as_str) == Some("property"),
                namevar: flag(a, "namevar"),
                boolean: flag(a, "boolean"),
                array_all: flag(a, "array_all"),
                default: flag(a, "default"),
                checked: true,
                whole_checked: flag(a, "whole_checked"),
                describes_change: false,
                doc: String::new(),
            })
        })
        .collect();
    let title_patterns = answer
        .get("title_patterns")
        .and_then(Json::as_array)
        .into_iter()
        .flatten()
        .filter_map(|p| {
            Some((
                p.get("pattern")?.as_str()?.to_string(),
                strings(p.get("attributes")),
            ))
        })
        .collect();
    Ok(TypeSpec {
        name: name.to_string(),
        doc: String::new(),
        attributes,
        ensurable: flag(answer, "ensurable"),
        validates: true,
        refreshable: flag(answer, "refreshable"),
        self_refresh: flag(answer, "self_refresh"),
        titled: flag(answer, "titled"),
        generates: flag(answer, "generates"),
        fills_late: flag(answer, "fills_late"),
        pre_run_checks: flag(answer, "pre_run_checks"),
        features: strings(answer.get("features")),
        title_patterns,
        autorelations: answer
            .get("autorelations")
            .and_then(Json::as_array)
            .into_iter()
            .flatten()
            .filter_map(|pair| {
                let pair = strings(Some(pair));
                match pair.as_slice() {
                    [kind, target] => Some((kind.clone(), target.clone())),
                    _ => None,
                }
            })
            .collect(),
        api: None,
    })
}

/// The strings of a JSON list (nothing when it is not one).
pub(crate) fn strings(data: Option<&Json>) -> Vec<String> {
    data.and_then(Json::as_array)
        .into_iter()
        .flatten()
        .filter_map(Json::as_str)
        .map(str::to_string)
        .collect()
}

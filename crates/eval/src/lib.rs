//! The Puppet evaluator: computes the values of a manifest.
//!
//! [`Evaluator`] walks a syntax tree with scopes (top, class, local), calls
//! functions written in Puppet and the built-in library (`functions/`, one
//! file per family), and collects log lines. Turning evaluation into a
//! catalog is the compiler's job, which builds on this.
//!
//! [`run_manifest`] is what `marionette apply` does with a manifest today:
//! parse, validate, evaluate, and produce Puppet's output lines.

mod access;
mod compiler;
mod deferred;
pub use deferred::{DeferredContext, call_deferred};

pub use compiler::builtin_types::AgentType;
pub use compiler::resources::did_you_mean;
mod error;
mod evaluator;
mod external;
pub use external::{ExternalFunctions, Parameter, Signature};
/// Puppet's `versioncmp`: versions compared segment by segment.
pub use functions::misc::compare_versions;
pub(crate) mod functions;
mod lazy_facts;
pub use lazy_facts::LazyFacts;
mod loader;
mod moves;
mod operators;
mod ruby;
mod scope;

pub use error::{EvalError, Located};
pub use evaluator::{Evaluator, Level, LogEntry, mismatch_text};
pub use loader::{Loaded, Sources};
use marionette_diagnostics::SourceFile;

/// Where an output line goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    Stdout,
    Stderr,
}

/// The result of running a manifest: Puppet-style lines and success.
#[derive(Debug)]
pub struct Outcome {
    pub lines: Vec<(Stream, String)>,
    pub success: bool,
}

/// Options for [`run_manifest`].
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// The node name for node matching and messages (`--certname`).
    pub node_name: String,
    /// Fail on unknown variables instead of warning.
    pub strict_variables: bool,
    /// Show `debug` and `info` lines.
    pub verbose: bool,
}

/// Parses, validates and evaluates a manifest, producing the lines
/// `puppet apply` would print for its evaluation.
pub fn run_manifest(file: &SourceFile, options: &RunOptions) -> Outcome {
    with_deep_stack(|| run_manifest_here(file, options))
}

fn run_manifest_here(file: &SourceFile, options: &RunOptions) -> Outcome {
    let mut lines = Vec::new();
    let program = match parse_manifest(file, "production", &mut lines, false) {
        Ok(program) => program,
        Err(failure) => {
            lines.push((Stream::Stderr, format!("Error: {}", failure.message)));
            return Outcome {
                lines,
                success: false,
            };
        }
    };
    let mut evaluator = Evaluator::new(file);
    evaluator.strict_variables = options.strict_variables;
    let result = evaluator.evaluate_program(&program, &options.node_name);
    push_logs(&evaluator.logs, options.verbose, &mut lines);
    match result {
        Ok(_) => Outcome {
            lines,
            success: true,
        },
        Err(error) if error.plain => {
            lines.push((
                Stream::Stderr,
                format!(
                    "Error: {} {} on node {}",
                    error.message,
                    error.line_text(file),
                    options.node_name
                ),
            ));
            Outcome {
                lines,
                success: false,
            }
        }
        Err(error) => {
            lines.push((
                Stream::Stderr,
                format!(
                    "Error: Evaluation Error: {} {} on node {}",
                    error.message,
                    error.location_text(file),
                    options.node_name
                ),
            ));
            Outcome {
                lines,
                success: false,
            }
        }
    }
}

/// The version of Puppet whose language and agent Marionette reproduces,
/// as `$clientversion` gives it to manifests compiled for this machine.
pub const PUPPET_VERSION: &str = "7.23.0";

/// What to compile: a main manifest (a file, a directory of files read in
/// order, or code), modules, the node and its facts.
#[derive(Default)]
pub struct CompileOptions {
    /// Main manifests, evaluated in order as one.
    pub manifests: Vec<SourceFile>,
    pub modulepath: Vec<std::path::PathBuf>,
    pub node_name: String,
    pub environment: String,
    /// Facts as plain data; each becomes a top-scope variable too.
    pub facts: serde_json::Map<String, serde_json::Value>,
    /// Facts resolved only if the code reads them (modules' custom facts),
    /// beside `facts`, which win.
    pub lazy_facts: Option<std::sync::Arc<dyn LazyFacts>>,
    pub strict_variables: bool,
    /// The name of the machine compiling (`$server_facts['servername']`).
    pub server_name: String,
    /// Resource types the agent manages beyond Puppet's core ones (from
    /// the resource layer's registry), so manifests may declare them.
    pub agent_types: Vec<AgentType>,
    /// Compiling for this machine, as `puppet apply` does: the trusted
    /// data name the node (`$trusted['certname']`) and the facts hold
    /// `clientcert`. `puppet catalog compile` leaves both out.
    pub local: bool,
    /// Runs the functions modules ship as executables; without it, such
    /// functions are unknown.
    pub external_functions: Option<std::sync::Arc<dyn ExternalFunctions>>,
    /// Told the type and title of each resource of a core or agent type as
    /// it is declared, before the catalog is done: a caller that will apply
    /// the catalog may start looking at the system meanwhile. What it is
    /// told may still be overridden, or never reach the catalog (virtual
    /// resources).
    pub declared: Option<Declared>,
    /// The environment's Hiera data; without it, `lookup()` finds nothing
    /// and class parameters take their defaults.
    pub hiera: Option<std::sync::Arc<marionette_hiera::Hiera>>,
    /// Runs modules' Ruby (functions without a native implementation, ERB
    /// templates); without it, such functions are unknown and templates
    /// fail.
    pub ruby: Option<std::sync::Arc<marionette_ruby::RubyHost>>,
    /// `$trusted` as a server builds it from the node's verified
    /// certificate; without it, Puppet's local trusted data.
    pub trusted: Option<serde_json::Value>,
    /// What an external node classifier said of the node.
    pub classification: Option<Classification>,
    /// Syntax errors of the main manifests are followed by their source
    /// line with a caret under the mistake, for a person at a terminal.
    pub excerpts: bool,
    /// Where other nodes' exported resources are kept: Puppet's
    /// `storeconfigs`. With it, `@@` resources are kept for storage and
    /// `<<| |>>` collects what other nodes export; without it, exports are
    /// ignored with a warning and exported collectors find nothing.
    pub exported: Option<std::sync::Arc<dyn ExportedResources>>,
}

/// A store of what nodes export and the rest PuppetDB keeps.
pub trait ExportedResources: Send + Sync {
    /// The resources of type `type_name` (capitalized, `Sshkey`) that
    /// nodes other than `node` export and that match `filter`, a PuppetDB
    /// query condition made from the collector's query as Puppet's
    /// terminus makes it; `None` when the collector has no query. The
    /// error is said as the compile's failure.
    fn search(
        &self,
        type_name: &str,
        node: &str,
        filter: Option<serde_json::Value>,
    ) -> Result<Vec<CollectedResource>, String>;

    /// Answers a PuppetDB query (`["from", ENTITY, QUERY]`), for
    /// `puppetdb_query()`; the error is said as the call's failure.
    fn query(&self, query: serde_json::Value) -> Result<serde_json::Value, String>;
}

/// A resource another node exported.
#[derive(Clone, Debug)]
pub struct CollectedResource {
    /// The node that exported it.
    pub certname: String,
    pub type_name: String,
    pub title: String,
    pub parameters: serde_json::Map<String, serde_json::Value>,
}

/// An external node classifier's answer (Puppet's `external_nodes`
/// contract): classes to declare, with their parameters, once the node
/// definition is evaluated, and top-scope variables.
#[derive(Clone, Debug, Default)]
pub struct Classification {
    /// Class names and their parameters (empty for a plain `include`).
    pub classes: Vec<(String, serde_json::Map<String, serde_json::Value>)>,
    pub parameters: serde_json::Map<String, serde_json::Value>,
}

/// See [`CompileOptions::declared`].
pub type Declared = std::sync::Arc<dyn Fn(&str, &str) + Send + Sync>;

/// The catalog, or the errors; and what the code logged.
#[derive(Debug)]
pub struct Compiled {
    pub catalog: Option<marionette_catalog::Catalog>,
    /// With storeconfigs: the resources the node exports and does not
    /// collect itself, which storage keeps and the agent never sees, and
    /// the containment edges that lead to them.
    pub exported: Vec<marionette_catalog::Resource>,
    pub exported_edges: Vec<marionette_catalog::Edge>,
    /// For each type of the catalog's and the exported resources (as the
    /// catalog writes it, `File`), the attribute naming what each of its
    /// resources manages, when one alone does
    /// (`builtin_types::identifying_attribute`); a class or defined
    /// type's is `name`. PuppetDB's terminus makes an alias of it.
    pub namevars: std::collections::BTreeMap<String, String>,
    /// Log lines and errors as Puppet prints them.
    pub lines: Vec<(Stream, String)>,
}

/// The stack the evaluator runs on. Evaluation recurses as deep as the
/// code and its data nest (a sum of thousands of terms, a chain of
/// thousands of includes, data nested a hundred thousand deep); the
/// evaluator refuses to go deeper than `evaluator::MAX_DEPTH` levels,
/// and this stack holds that many in a debug build with room to spare.
/// Only the pages a compile touches are ever given memory.
const STACK_SIZE: usize = 1 << 30;

/// Runs `work` on a thread with the evaluator's deep stack (see
/// [`STACK_SIZE`]); on this thread if no such thread can be made.
fn with_deep_stack<T: Send>(work: impl FnOnce() -> T + Send) -> T {
    let slot = std::sync::Mutex::new(Some(work));
    let run = || {
        let work = slot
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
            .expect("the work runs once");
        work()
    };
    std::thread::scope(|scope| {
        let spawned = std::thread::Builder::new()
            .name("compile".into())
            .stack_size(STACK_SIZE)
            .spawn_scoped(scope, run);
        match spawned {
            Ok(handle) => match handle.join() {
                Ok(value) => value,
                Err(panic) => std::panic::resume_unwind(panic),
            },
            Err(_) => run(),
        }
    })
}

/// Compiles a catalog as `puppet catalog compile` does.
pub fn compile(options: &CompileOptions) -> Compiled {
    with_deep_stack(|| compile_here(options))
}

fn compile_here(options: &CompileOptions) -> Compiled {
    let _agent_types = compiler::builtin_types::AgentTypes::scope(options.agent_types.clone());
    let mut lines = Vec::new();
    let node = &options.node_name;
    let mut programs = Vec::new();
    for file in &options.manifests {
        let program = match parse_manifest(file, &options.environment, &mut lines, options.excerpts)
        {
            Ok(program) => program,
            Err(failure) => {
                push_error(
                    &mut lines,
                    &format!("{} on node {node}", failure.message),
                    options.local,
                );
                if let Some(excerpt) = failure.excerpt {
                    lines.push((Stream::Stderr, excerpt));
                }
                return Compiled {
                    catalog: None,
                    exported: Vec::new(),
                    exported_edges: Vec::new(),
                    namevars: Default::default(),
                    lines,
                };
            }
        };
        programs.push((file, program));
    }
    let sources = loader::Sources::new();
    let Some(main) = options.manifests.first() else {
        push_error(
            &mut lines,
            &format!("No manifest to compile on node {node}"),
            options.local,
        );
        return Compiled {
            catalog: None,
            exported: Vec::new(),
            exported_edges: Vec::new(),
            namevars: Default::default(),
            lines,
        };
    };
    let mut evaluator = prepare(main, &sources, options);
    let refs: Vec<_> = programs
        .iter()
        .map(|(file, program)| (*file, program))
        .collect();
    let result = evaluator.evaluate_programs(&refs, node);
    push_logs(&evaluator.logs, false, &mut lines);
    match result {
        Ok(_) => {
            let c = evaluator.take_catalog();
            let exported = std::mem::take(&mut evaluator.exported_out);
            let namevars =
                compiler::builtin_types::namevars_of(c.resources.iter().chain(&exported));
            Compiled {
                catalog: Some(c),
                exported,
                exported_edges: std::mem::take(&mut evaluator.exported_edges_out),
                namevars,
                lines,
            }
        }
        Err(error) => {
            let location = error.location_text(evaluator.file);
            let location = if error.plain || error.unlocated {
                if error.unlocated {
                    String::new()
                } else {
                    format!(" {}", error.line_text(evaluator.file))
                }
            } else {
                format!(" {location}")
            };
            let prefix = if error.plain || error.unlocated {
                ""
            } else {
                "Evaluation Error: "
            };
            if error.lookup {
                lines.push((Stream::Stderr, format!("Error: {}", error.message)));
            }
            // `puppet apply` says a failed lookup once, without the node.
            if !(options.local && error.lookup) {
                push_error(
                    &mut lines,
                    &format!("{prefix}{}{location} on node {node}", error.message),
                    options.local,
                );
            }
            Compiled {
                catalog: None,
                exported: Vec::new(),
                exported_edges: Vec::new(),
                namevars: Default::default(),
                lines,
            }
        }
    }
}

/// An evaluator set up to compile for the node of `options`: its facts,
/// `$trusted`, `$server_facts`, modules and data.
fn prepare<'p>(
    main: &'p SourceFile,
    sources: &'p loader::Sources,
    options: &CompileOptions,
) -> Evaluator<'p> {
    let node = &options.node_name;
    let mut evaluator = Evaluator::new(main);
    evaluator.hiera = options
        .hiera
        .as_ref()
        .map(|hiera| std::rc::Rc::new(hiera.session()));
    evaluator.strict_variables = options.strict_variables;
    evaluator.environment = options.environment.clone();
    evaluator.loader = Some(loader::Loader::new(sources, options.modulepath.clone()));
    evaluator.external = options.external_functions.clone();
    evaluator.exported_store = options.exported.clone();
    evaluator.ruby.host = options.ruby.clone();
    evaluator.declared = options.declared.clone();
    let mut fact_data = options.facts.clone();
    if options.local {
        fact_data.insert("clientcert".into(), serde_json::Value::String(node.clone()));
        // The agent's version, which modules compare with Puppet's
        // (concat's fragments choose their content's type by it): the
        // Puppet whose language and agent this one reproduces.
        fact_data
            .entry("clientversion")
            .or_insert_with(|| serde_json::Value::String(PUPPET_VERSION.into()));
    }
    evaluator.set_facts(marionette_catalog::from_data(&serde_json::Value::Object(
        fact_data,
    )));
    if let Some(lazy) = &options.lazy_facts {
        evaluator.set_lazy_facts(lazy.clone());
    }
    evaluator.set_top_variable(
        "environment",
        marionette_values::Value::string(options.environment.as_str()),
    );
    let server_facts = serde_json::json!({
        "serverversion": env!("CARGO_PKG_VERSION"),
        "servername": options.server_name,
        "environment": options.environment,
    });
    evaluator.set_top_variable("server_facts", marionette_catalog::from_data(&server_facts));
    let trusted = trusted_data(options);
    evaluator.set_top_variable("trusted", marionette_catalog::from_data(&trusted));
    if let Some(classification) = &options.classification {
        for (name, value) in &classification.parameters {
            evaluator.set_top_variable(name, marionette_catalog::from_data(value));
        }
        evaluator.node_classes = classification
            .classes
            .iter()
            .map(|(name, parameters)| {
                let parameters = parameters
                    .iter()
                    .map(|(k, v)| (k.clone(), marionette_catalog::from_data(v)))
                    .collect();
                (name.clone(), parameters)
            })
            .collect();
    }
    evaluator
}

/// Why a main manifest could not be parsed: the final error, and, for a
/// terminal, the source line with a caret under a single mistake.
struct ParseFailure {
    message: String,
    excerpt: Option<String>,
}

/// Parses and validates a main manifest. Warnings go to `lines`; on
/// errors, one is the reason parsing failed, while several are listed in
/// `lines` and then counted, as Puppet does; the returned message is the
/// final error. With `excerpts`, each error is shown with its source line.
fn parse_manifest(
    file: &SourceFile,
    environment: &str,
    lines: &mut Vec<(Stream, String)>,
    excerpts: bool,
) -> Result<marionette_syntax::ast::Program, ParseFailure> {
    let checked = marionette_syntax::check(file.text(), marionette_syntax::SourceKind::Manifest);
    for warning in checked.diagnostics.iter().filter(|d| !d.is_error()) {
        lines.push((
            Stream::Stderr,
            format!("Warning: {}", file.one_line(warning)),
        ));
    }
    let mut errors: Vec<_> = checked
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .collect();
    // Puppet's parser stops at its first syntax error (an unclosed quote
    // is the lexer's, and the parser would only add "end of input" after
    // it); the recovery that lists more is for `parser validate`.
    if let Some(first) = errors.iter().find(|d| d.code == "SYNTAX_ERROR") {
        errors = vec![*first];
    }
    match errors.as_slice() {
        [] => Ok(checked.program),
        [error] => Err(ParseFailure {
            message: format!(
                "Could not parse for environment {environment}: {}",
                file.one_line(error)
            ),
            // The snippet's first line is the one-line form, given above.
            excerpt: excerpts.then(|| {
                let snippet = file.snippet(error);
                snippet
                    .split_once('\n')
                    .map_or(String::new(), |(_, rest)| rest.to_string())
            }),
        }),
        several => {
            for error in several {
                let text = if excerpts {
                    file.snippet(error)
                } else {
                    file.one_line(error)
                };
                lines.push((Stream::Stderr, format!("Error: {text}")));
            }
            Err(ParseFailure {
                message: format!(
                    "Language validation logged {} errors. Giving up",
                    several.len()
                ),
                excerpt: None,
            })
        }
    }
}

/// What the code logged, as Puppet prints it; info and debug only when
/// `verbose`.
fn push_logs(logs: &[LogEntry], verbose: bool, lines: &mut Vec<(Stream, String)>) {
    for entry in logs {
        if !verbose && entry.level < Level::Notice {
            continue;
        }
        let stream = if entry.level >= Level::Warning {
            Stream::Stderr
        } else {
            Stream::Stdout
        };
        let line = if entry.source.is_empty() {
            format!("{}: {}", entry.level.label(), entry.message)
        } else {
            format!(
                "{}: {}: {}",
                entry.level.label(),
                entry.source,
                entry.message
            )
        };
        lines.push((stream, line));
    }
}

/// `puppet catalog compile` reports a failed compilation twice: as the
/// error, and as the reason the catalog could not be found; `puppet apply`
/// (a `local` compile) once.
fn push_error(lines: &mut Vec<(Stream, String)>, message: &str, local: bool) {
    lines.push((Stream::Stderr, format!("Error: {message}")));
    if !local {
        lines.push((
            Stream::Stderr,
            format!("Error: Could not call 'find' on 'catalog': {message}"),
        ));
    }
}

/// The namevar and attributes (Puppet 7's, `provider` included where the
/// type has providers) that compilation accepts for a core type. The
/// resource layer's built-in types are checked against this list, so the
/// compiler and the agent agree on what a type accepts.
pub fn core_type_attributes(type_name: &str) -> Option<(&'static str, &'static [&'static str])> {
    compiler::builtin_types::attributes(type_name)
}

/// What `marionette lookup` asks: keys and the options of `lookup()`.
#[derive(Clone, Debug, Default)]
pub struct LookupQuery {
    pub keys: Vec<String>,
    /// A strategy name, or a hash with `strategy` and its options.
    pub merge: Option<marionette_values::Value>,
    /// A Puppet type the value must match (`--type`).
    pub value_type: Option<String>,
    pub default: Option<marionette_values::Value>,
    pub explain: bool,
    pub explain_options: bool,
    /// Evaluate the main manifests first, so variables they set are seen.
    pub compile: bool,
}

/// Why a lookup failed: an error in data or configuration (`Quiet`),
/// which `--explain` reports inside its explanation as Puppet does, or
/// any other (`Loud`), which ends the command before any explanation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LookupFailure {
    Quiet(String),
    Loud(String),
}

impl LookupFailure {
    pub fn message(&self) -> &str {
        match self {
            LookupFailure::Quiet(m) | LookupFailure::Loud(m) => m,
        }
    }
}

/// What a lookup found, and how.
#[derive(Debug)]
pub struct LookupAnswer {
    /// The value; `Ok(None)` when nothing was found; `Err` for an error
    /// (with its message).
    pub value: Result<Option<marionette_values::Value>, LookupFailure>,
    /// The explanation, when asked for.
    pub explanation: Option<String>,
    /// What the code logged, warnings included.
    pub lines: Vec<(Stream, String)>,
}

/// What [`evaluate`] gave: the value of the code's last expression (or
/// why there is none) and what the code logged.
#[derive(Debug)]
pub struct Evaluated {
    pub value: Result<marionette_values::Value, String>,
    pub lines: Vec<(Stream, String)>,
}

/// Evaluates a piece of code in a node's top scope, its facts set, with
/// `variables` set there too, and gives the value of its last expression:
/// what `puppet epp render` does with its `--values` and its templates.
pub fn evaluate(
    options: &CompileOptions,
    code: &SourceFile,
    variables: &[(&str, marionette_values::Value)],
) -> Evaluated {
    with_deep_stack(|| {
        let _agent_types = compiler::builtin_types::AgentTypes::scope(options.agent_types.clone());
        let mut lines = Vec::new();
        let program = match parse_manifest(code, &options.environment, &mut lines, false) {
            Ok(program) => program,
            Err(failure) => {
                return Evaluated {
                    value: Err(failure.message),
                    lines,
                };
            }
        };
        let sources = loader::Sources::new();
        let mut evaluator = prepare(code, &sources, options);
        for (name, value) in variables {
            evaluator.set_top_variable(name, value.clone());
        }
        let value = evaluator
            .evaluate_program(&program, &options.node_name)
            .map_err(|error| error.message);
        push_logs(&evaluator.logs, false, &mut lines);
        Evaluated { value, lines }
    })
}

/// Looks keys up for a node as `puppet lookup` does: in the node's top
/// scope, its facts and trusted data set, after compiling its catalog when
/// `query.compile` says so.
pub fn lookup(options: &CompileOptions, query: &LookupQuery) -> LookupAnswer {
    with_deep_stack(|| lookup_here(options, query))
}

fn lookup_here(options: &CompileOptions, query: &LookupQuery) -> LookupAnswer {
    let _agent_types = compiler::builtin_types::AgentTypes::scope(options.agent_types.clone());
    let mut lines = Vec::new();
    let empty = SourceFile::new("", "");
    let mut programs = Vec::new();
    if query.compile {
        for file in &options.manifests {
            match parse_manifest(file, &options.environment, &mut lines, false) {
                Ok(program) => programs.push((file, program)),
                Err(failure) => {
                    return LookupAnswer {
                        value: Err(LookupFailure::Loud(failure.message)),
                        explanation: None,
                        lines,
                    };
                }
            }
        }
    }
    let sources = loader::Sources::new();
    let main = match (query.compile, options.manifests.first()) {
        (true, Some(main)) => main,
        _ => &empty,
    };
    let mut evaluator = prepare(main, &sources, options);
    // `puppet lookup` gives no server facts unless it compiles.
    if !query.compile {
        evaluator.set_top_variable(
            "server_facts",
            marionette_values::Value::hash(Default::default()),
        );
    }
    if query.compile {
        let refs: Vec<_> = programs.iter().map(|(f, p)| (*f, p)).collect();
        if let Err(error) = evaluator.evaluate_programs(&refs, &options.node_name) {
            push_logs(&evaluator.logs, false, &mut lines);
            return LookupAnswer {
                value: Err(LookupFailure::Loud(error.message)),
                explanation: None,
                lines,
            };
        }
    }
    let mut explainer = (query.explain || query.explain_options).then(|| {
        marionette_hiera::Explainer::new(
            query.explain_options,
            query.explain_options && !query.explain,
        )
    });
    let value = evaluator.lookup_query(query, explainer.as_mut());
    push_logs(&evaluator.logs, false, &mut lines);
    let explanation = explainer.map(|mut explainer| {
        match &value {
            Err(failure @ LookupFailure::Quiet(_)) => {
                explainer.report_text(failure.message().to_string())
            }
            Err(LookupFailure::Loud(_)) => {}
            Ok(None) if !explainer.only_options => {
                explainer.report_text(functions::lookup::not_found_message(&query.keys))
            }
            Ok(None) => {}
            Ok(Some(_)) => {}
        }
        explainer.render()
    });
    LookupAnswer {
        value,
        explanation,
        lines,
    }
}

/// The trusted data a compile gives `$trusted`: the certificate's, or for
/// a compilation without one, Puppet's "local" data, which names the node
/// when it compiles for itself, and else trusts the node's `clientcert`
/// fact.
pub fn trusted_data(options: &CompileOptions) -> serde_json::Value {
    if let Some(trusted) = &options.trusted {
        return trusted.clone();
    }
    let certname = if options.local {
        Some(options.node_name.as_str())
    } else {
        options
            .facts
            .get("clientcert")
            .and_then(serde_json::Value::as_str)
    };
    local_trusted(certname)
}

/// Puppet's "local" trusted data, naming the node when its name is known.
fn local_trusted(certname: Option<&str>) -> serde_json::Value {
    let (name, hostname, domain) = match certname {
        Some(name) => {
            let (host, domain) = name.split_once('.').unwrap_or((name, ""));
            (
                serde_json::json!(name),
                serde_json::json!(host),
                serde_json::json!(domain),
            )
        }
        None => Default::default(),
    };
    serde_json::json!({
        "authenticated": "local",
        "certname": name,
        "extensions": {},
        "hostname": hostname,
        "domain": domain,
        "external": {},
    })
}

//! Expression evaluation.

use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use marionette_diagnostics::{SourceFile, Span};
use marionette_syntax::ast::*;
use marionette_values::format::{to_s, type_label};
use marionette_values::{PHash, PType, Regex, Value};

use crate::compiler::Compiler;
use crate::error::{EvalError, EvalResult, Stop, fail, fail_in_call};
use crate::functions::{self, Builtin};
use crate::loader::Loader;
use crate::scope::{ScopeId, Scopes, TOP_SCOPE};

/// The level of a log line, as Puppet names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Debug,
    Info,
    Notice,
    Warning,
    Err,
    Alert,
    Emerg,
    Crit,
}

impl Level {
    /// The word Puppet prints in front of the line.
    pub fn label(self) -> &'static str {
        match self {
            Level::Debug => "Debug",
            Level::Info => "Info",
            Level::Notice => "Notice",
            Level::Warning => "Warning",
            Level::Err => "Error",
            Level::Alert => "Alert",
            Level::Emerg => "Emergency",
            Level::Crit => "Critical",
        }
    }
}

/// A line of output produced while evaluating.
#[derive(Clone, Debug, PartialEq)]
pub struct LogEntry {
    pub level: Level,
    /// `Scope(Class[main])` for the logging functions; empty for messages of
    /// the evaluator itself.
    pub source: String,
    pub message: String,
}

/// A class or defined type with the file it was written in.
#[derive(Clone)]
pub(crate) struct Def<'p> {
    pub(crate) def: &'p Definition,
    pub(crate) file: &'p SourceFile,
    /// The module it was loaded from (`$module_name`).
    pub(crate) module: Option<Rc<str>>,
}

/// A function Hiera calls as a data provider.
pub(crate) enum DataFunction {
    /// Written in Puppet: given the lookup context as its last argument;
    /// the return type it declares, if any.
    Puppet(Option<PType>),
    /// Built in or shipped as a plugin.
    Other,
    Unknown,
}

/// A lambda together with the scope it closes over.
#[derive(Clone, Copy)]
pub(crate) struct Closure<'p> {
    pub(crate) lambda: &'p Lambda,
    pub(crate) scope: ScopeId,
}

pub struct Evaluator<'p> {
    /// The file whose code is being evaluated; it changes when the code of
    /// a class, defined type or function from another file runs.
    pub(crate) file: &'p SourceFile,
    pub(crate) file_name: Arc<str>,
    pub(crate) scopes: Scopes,
    pub(crate) current: ScopeId,
    builtins: &'static HashMap<&'static str, Builtin>,
    functions: HashMap<String, (&'p FunctionDefinition, &'p SourceFile)>,
    pub(crate) classes: HashMap<String, Def<'p>>,
    pub(crate) defines: HashMap<String, Def<'p>>,
    /// Classes already evaluated, with their scopes.
    pub(crate) class_scopes: HashMap<String, ScopeId>,
    pub(crate) type_aliases: HashMap<String, (&'p Expr, &'p SourceFile)>,
    /// The catalog being built.
    pub(crate) compiler: Compiler<'p>,
    /// Finds classes, defined types, functions and type aliases in modules.
    pub(crate) loader: Option<Loader<'p>>,
    /// EPP templates loaded from files, by path.
    pub(crate) templates: HashMap<std::path::PathBuf, &'p crate::loader::Loaded>,
    /// The scope of the node definition that matched, once evaluated.
    pub(crate) node_scope: Option<ScopeId>,
    pub node_name: String,
    pub environment: String,
    resolving_aliases: Vec<String>,
    nodes: Vec<(&'p Node, &'p SourceFile)>,
    pub logs: Vec<LogEntry>,
    /// Unknown variables are errors rather than warnings.
    pub strict_variables: bool,
    /// Text rendered by an EPP template being evaluated.
    pub(crate) epp_output: Option<String>,
    /// Whether the template being rendered printed a Sensitive value
    /// (unwrapped): its whole text is then Sensitive, as in Puppet 7.
    pub(crate) epp_sensitive: bool,
    pub(crate) depth: usize,
    /// How deep `eval` is inside itself (see [`MAX_DEPTH`]).
    pub(crate) nesting: usize,
    /// Classes an external node classifier gave, with their parameters:
    /// declared after the node definition.
    pub(crate) node_classes: Vec<(String, Vec<(String, Value)>)>,
    /// Set while entering a conditional whose match data is being saved.
    in_match_frame: bool,
    /// Runs functions that modules ship as executables.
    pub(crate) external: Option<std::sync::Arc<dyn crate::external::ExternalFunctions>>,
    /// Storeconfigs: where other nodes' exports are found.
    pub(crate) exported_store: Option<std::sync::Arc<dyn crate::ExportedResources>>,
    /// What `take_catalog` set aside for storage: exports not collected
    /// here, and the containment edges to them.
    pub(crate) exported_out: Vec<marionette_catalog::Resource>,
    pub(crate) exported_edges_out: Vec<marionette_catalog::Edge>,
    /// Told of each resource of a core or agent type as it is declared
    /// (`CompileOptions::declared`).
    pub(crate) declared: Option<crate::Declared>,
    /// Executable functions found so far, by name.
    pub(crate) external_loaded: HashMap<String, std::sync::Arc<crate::external::Loaded>>,
    /// The movable parameters of each lambda called so far, by the
    /// lambda's place in the syntax tree (which outlives the evaluator).
    movable: HashMap<*const Lambda, Rc<[String]>>,
    /// The warnings given once, already given.
    warned: std::collections::HashSet<String>,
    /// Hiera's lookups for this compile, when the environment has data.
    pub(crate) hiera: Option<Rc<marionette_hiera::Session>>,
    /// What data provider functions cached through their lookup context,
    /// by function.
    pub(crate) lookup_caches: HashMap<String, PHash>,
    /// stdlib's directory on the module path, if any, asked once.
    stdlib_dir: Option<Option<std::path::PathBuf>>,
    /// Whether that stdlib ships each native function asked for.
    stdlib_ships: HashMap<String, functions::stdlib::Shipped>,
    /// Modules' Ruby functions and the host that runs them.
    pub(crate) ruby: crate::ruby::RubyState,
    /// Puppet's own stack of code under way, as `Puppet::Pops::PuppetStack`
    /// reports it to functions (stdlib's `deprecation` names its two
    /// innermost frames): each function call by its file and place,
    /// innermost last; the main manifest's code is a frame without a
    /// place, which Puppet reports as line 0.
    pub(crate) puppet_stack: Vec<(&'p SourceFile, Option<Span>)>,
    /// The keys stdlib's `deprecation` has warned about: once each.
    pub(crate) deprecations: std::collections::HashSet<String>,
    /// Facts resolved at their first read (`lazy_facts.rs`).
    pub(crate) pending_facts: Option<crate::lazy_facts::Pending>,
}

/// Calls nested deeper than this fail instead of overflowing the stack.
const MAX_CALL_DEPTH: usize = 100;

/// Expressions evaluated inside each other deeper than this fail instead
/// of overflowing the stack: the parser limits bracketed nesting, but a
/// chain of operators (`1 + 1 + ...` with thousands of terms) or of
/// includes nests as deep as it is long. The compile's stack (see
/// `STACK_SIZE` in `lib.rs`) holds this many levels in a debug build.
const MAX_DEPTH: usize = 20_000;

impl<'p> Evaluator<'p> {
    pub fn new(file: &'p SourceFile) -> Evaluator<'p> {
        let mut scopes = Scopes::new();
        for builtin in ["name", "title"] {
            scopes
                .get_mut(TOP_SCOPE)
                .variables
                .insert(builtin.to_string(), Value::string("main"));
        }
        // Code outside any module has an empty module name, which the
        // classes and defined types it declares see as their caller's.
        scopes
            .get_mut(TOP_SCOPE)
            .variables
            .insert("module_name".to_string(), Value::string(""));
        Evaluator {
            file,
            file_name: Arc::from(file.name()),
            scopes,
            current: TOP_SCOPE,
            builtins: functions::builtins(),
            functions: HashMap::new(),
            classes: HashMap::new(),
            defines: HashMap::new(),
            class_scopes: HashMap::new(),
            compiler: Compiler::default(),
            loader: None,
            templates: HashMap::new(),
            node_scope: None,
            node_name: String::new(),
            environment: "production".to_string(),
            type_aliases: HashMap::new(),
            resolving_aliases: Vec::new(),
            nodes: Vec::new(),
            logs: Vec::new(),
            strict_variables: false,
            epp_output: None,
            epp_sensitive: false,
            depth: 0,
            nesting: 0,
            node_classes: Vec::new(),
            in_match_frame: false,
            external: None,
            exported_store: None,
            exported_out: Vec::new(),
            exported_edges_out: Vec::new(),
            declared: None,
            external_loaded: HashMap::new(),
            movable: HashMap::new(),
            warned: std::collections::HashSet::new(),
            hiera: None,
            lookup_caches: HashMap::new(),
            ruby: crate::ruby::RubyState::default(),
            stdlib_dir: None,
            stdlib_ships: HashMap::new(),
            puppet_stack: Vec::new(),
            deprecations: std::collections::HashSet::new(),
            pending_facts: None,
        }
    }

    /// Sets a top-scope variable (facts, settings) before evaluation.
    /// Makes the facts (a hash) top-scope variables, each under its name
    /// and all of them as `$facts`.
    pub fn set_facts(&mut self, facts: Value) {
        if let Value::Hash(hash) = &facts {
            for (name, value) in hash.iter() {
                self.set_top_variable(&to_s(name), value.clone());
            }
        }
        self.set_top_variable("facts", facts);
    }

    pub fn set_top_variable(&mut self, name: &str, value: Value) {
        self.scopes
            .get_mut(TOP_SCOPE)
            .variables
            .insert(name.to_string(), value);
    }

    /// Evaluates a whole manifest: definitions are registered first, then
    /// the top-level code runs, then the node block that matches
    /// `node_name`, then defined types and collectors until nothing new
    /// appears; finally the catalog is finished.
    pub fn evaluate_program(
        &mut self,
        program: &'p Program,
        node_name: &str,
    ) -> Result<Value, EvalError> {
        let file = self.file;
        self.evaluate_programs(&[(file, program)], node_name)
    }

    /// Like [`Evaluator::evaluate_program`] for several files evaluated in
    /// order as one main manifest (an environment's `manifests/`).
    pub fn evaluate_programs(
        &mut self,
        programs: &[(&'p SourceFile, &'p Program)],
        node_name: &str,
    ) -> Result<Value, EvalError> {
        self.node_name = node_name.to_string();
        // The resource bodies at the top of the manifests are a floor on
        // the catalog's size. A catalog of thousands of resources reserved
        // up front is not copied again and again as it grows.
        let declared: usize = programs
            .iter()
            .flat_map(|(_, program)| &program.body)
            .map(|statement| match &statement.kind {
                ExprKind::Resource(resource) => resource.bodies.len(),
                _ => 0,
            })
            .sum();
        self.compiler.resources.reserve(declared + 3);
        self.compiler.edges.reserve(declared + 2);
        self.start_catalog();
        for (file, program) in programs {
            self.register_definitions(&program.body, file);
        }
        let mut value = Value::Undef;
        for (file, program) in programs {
            self.puppet_stack.push((file, None));
            let result = self.in_file(file, |this| this.statements(&program.body));
            self.puppet_stack.pop();
            value = self.finish(result)?;
        }
        if !self.nodes.is_empty() {
            let Some((node, title, file)) = self.select_node(node_name) else {
                return Err(EvalError::new(
                    format!("Could not find node statement with name 'default' or '{node_name}'"),
                    Span::default(),
                )
                .without_location());
            };
            let result = self.in_file(file, |this| this.evaluate_node(node, &title));
            self.finish(result.map(|()| Value::Undef))?;
        }
        for (name, parameters) in std::mem::take(&mut self.node_classes) {
            // A class given without parameters is included, so the node's
            // code may have declared it already; one with parameters is
            // declared resource-like, as Puppet declares the classifier's.
            let arguments = (!parameters.is_empty()).then(|| {
                parameters
                    .into_iter()
                    .map(|(k, v)| (k, v, Span::default(), false))
                    .collect()
            });
            let result = self.declare_class(&name, arguments, Span::default());
            self.finish(result.map(|_| Value::Undef))?;
        }
        let result = self.evaluate_generators();
        self.finish(result.map(|()| Value::Undef))?;
        let result = self.finish_catalog();
        self.finish(result.map(|()| Value::Undef))?;
        Ok(value)
    }

    /// Runs `body` as code of `file`: warnings and errors name that file.
    pub(crate) fn in_file<T>(
        &mut self,
        file: &'p SourceFile,
        body: impl FnOnce(&mut Self) -> EvalResult<T>,
    ) -> EvalResult<T> {
        if std::ptr::eq(file, self.file) {
            return body(self);
        }
        let saved = std::mem::replace(&mut self.file, file);
        let saved_name = std::mem::replace(&mut self.file_name, Arc::from(file.name()));
        let result = body(self);
        self.file = saved;
        self.file_name = saved_name;
        result.map_err(|stop| match stop {
            Stop::Error(mut error) if error.located.is_none() => {
                error.locate(file);
                Stop::Error(error)
            }
            other => other,
        })
    }

    fn finish(&mut self, result: EvalResult<Value>) -> Result<Value, EvalError> {
        let (function, span) = match result {
            Ok(value) => return Ok(value),
            Err(Stop::Error(error)) => return Err(error),
            Err(Stop::Break(span)) => ("break", span),
            Err(Stop::Next(_, span)) => ("next", span),
            Err(Stop::Return(_, span)) => ("return", span),
        };
        let mut error = EvalError::new(
            format!("{function}() from context where this is illegal"),
            span,
        );
        error.plain = true;
        Err(error)
    }

    pub(crate) fn register_definitions(&mut self, body: &'p [Expr], file: &'p SourceFile) {
        let module = self.module_of(file);
        self.register_nested(body, file, "", module);
    }

    /// Registers definitions; classes and defined types written inside a
    /// class get its name as a prefix (`outer::inner`).
    fn register_nested(
        &mut self,
        body: &'p [Expr],
        file: &'p SourceFile,
        namespace: &str,
        module: Option<Rc<str>>,
    ) {
        let qualified = |name: &str| {
            let name = strip_top(name).to_lowercase();
            if namespace.is_empty() {
                name
            } else {
                format!("{namespace}::{name}")
            }
        };
        for expr in body {
            match &expr.kind {
                ExprKind::Class(definition) => {
                    let name = qualified(&definition.name);
                    self.classes.insert(
                        name.clone(),
                        Def {
                            def: definition,
                            file,
                            module: module.clone(),
                        },
                    );
                    self.register_nested(&definition.body, file, &name, module.clone());
                }
                ExprKind::Define(definition) => {
                    self.defines.insert(
                        qualified(&definition.name),
                        Def {
                            def: definition,
                            file,
                            module: module.clone(),
                        },
                    );
                }
                ExprKind::Function(function) => {
                    self.functions
                        .insert(strip_top(&function.name).to_string(), (function, file));
                }
                ExprKind::TypeAlias { name, value } => {
                    self.type_aliases.insert(name.clone(), (value, file));
                }
                ExprKind::Node(node) => self.nodes.push((node, file)),
                _ => {}
            }
        }
    }

    /// The module a file belongs to: the directory under a module-path
    /// entry that holds it.
    fn module_of(&self, file: &SourceFile) -> Option<Rc<str>> {
        let path = std::path::Path::new(file.name());
        let loader = self.loader.as_ref()?;
        loader.modulepath.iter().find_map(|dir| {
            let rest = path.strip_prefix(dir).ok()?;
            let module = rest.components().next()?.as_os_str().to_str()?;
            Some(Rc::from(module))
        })
    }

    /// The node definition for `node_name`: an exact name first, then the
    /// first matching regex, then `default`; with the title of its
    /// `Node[...]` resource.
    fn select_node(&mut self, node_name: &str) -> Option<(&'p Node, String, &'p SourceFile)> {
        let wanted = node_name.to_lowercase();
        for &(node, file) in &self.nodes {
            for m in &node.matches {
                if let NodeMatch::Name(name) = m
                    && name.to_lowercase() == wanted
                {
                    return Some((node, name.to_lowercase(), file));
                }
            }
        }
        for &(node, file) in &self.nodes {
            for m in &node.matches {
                if let NodeMatch::Regex(pattern) = m
                    && let Ok(regex) = Regex::new(pattern)
                    && let Some(groups) = regex.captures(node_name)
                {
                    let matches = groups
                        .into_iter()
                        .map(|g| g.map_or(Value::Undef, Value::string))
                        .collect();
                    self.scopes.get_mut(TOP_SCOPE).matches = Some(matches);
                    // Puppet names the node after the pattern, keeping
                    // word characters, `-`, `:` and `.`.
                    let kept: String = pattern
                        .to_lowercase()
                        .chars()
                        .filter(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | ':' | '.'))
                        .collect();
                    let title = format!("__node_regexp__{}", kept.trim_start_matches('.'));
                    return Some((node, title, file));
                }
            }
        }
        self.nodes
            .iter()
            .find(|(node, _)| node.matches.contains(&NodeMatch::Default))
            .map(|&(node, file)| (node, "default".to_string(), file))
    }

    // ---- logging ------------------------------------------------------

    pub fn log(&mut self, level: Level, mut message: String) {
        // Puppet's log drops one line break at the end of a message.
        if message.ends_with('\n') {
            message.pop();
        }
        let source = format!("Scope({})", self.scopes.get(self.current).label);
        self.logs.push(LogEntry {
            level,
            source,
            message,
        });
    }

    /// A warning of the evaluator itself, with the location appended.
    /// A warning without a location (deprecations raised by functions).
    /// A deprecation warning as Puppet prints it: the message, then on the
    /// next line the file and line of the call, or that they are unknown.
    /// A deprecation warning given once per compilation, as Puppet's
    /// `warn_once` gives it (without a place).
    pub(crate) fn warn_once(&mut self, message: &str) {
        if self.warned.insert(message.to_string()) {
            self.warn_plain(message, None);
        }
    }

    /// A warning about a file other than code (a data configuration), as
    /// Puppet prints it: the message, then the file on the next line.
    pub(crate) fn warn_with_file(&mut self, message: &str, file: Option<&std::path::Path>) {
        let message = match file {
            Some(file) => format!("{message}\n   (file: {})", file.display()),
            None => message.to_string(),
        };
        self.logs.push(LogEntry {
            level: Level::Warning,
            source: String::new(),
            message,
        });
    }

    pub(crate) fn warn_plain(&mut self, message: &str, at: Option<Span>) {
        let place = match at {
            Some(span) => format!(
                "(file: {}, line: {})",
                self.file_name,
                self.file.line_col(span.start).line
            ),
            None => "(file & line not available)".to_string(),
        };
        self.logs.push(LogEntry {
            level: Level::Warning,
            source: String::new(),
            message: format!("{message}\n   {place}"),
        });
    }

    pub fn warn_at(&mut self, message: &str, span: Span) {
        let message = format!("{message} {}", self.file.location(span));
        self.logs.push(LogEntry {
            level: Level::Warning,
            source: String::new(),
            message,
        });
    }

    // ---- statements ---------------------------------------------------

    pub(crate) fn statements(&mut self, body: &'p [Expr]) -> EvalResult<Value> {
        let mut last = Value::Undef;
        for (at, expr) in body.iter().enumerate() {
            // Only the last statement gives the block its value: a resource
            // statement before it need not build its references, thousands
            // of them in a large manifest.
            if let ExprKind::Resource(resource) = &expr.kind
                && at + 1 < body.len()
            {
                self.resource(resource, expr.span, false)?;
                continue;
            }
            last = self.eval(expr)?;
        }
        Ok(last)
    }

    pub(crate) fn eval(&mut self, expr: &'p Expr) -> EvalResult<Value> {
        if self.nesting >= MAX_DEPTH {
            return fail(
                format!("Evaluation is nested more than {MAX_DEPTH} levels deep"),
                expr.span,
            );
        }
        self.nesting += 1;
        let result = self.eval_here(expr);
        self.nesting -= 1;
        result
    }

    fn eval_here(&mut self, expr: &'p Expr) -> EvalResult<Value> {
        let span = expr.span;
        match &expr.kind {
            ExprKind::Undef => Ok(Value::Undef),
            ExprKind::Default => Ok(Value::Default),
            ExprKind::Boolean(b) => Ok(Value::Boolean(*b)),
            ExprKind::Integer(i) => Ok(Value::Integer(*i)),
            ExprKind::Float(f) => Ok(Value::Float(*f)),
            ExprKind::String(s) => Ok(Value::string(s.as_str())),
            ExprKind::Interpolated(parts) => {
                let mut text = String::new();
                for part in parts {
                    match part {
                        StringPart::Text(t) => text.push_str(t),
                        StringPart::Expr(e) => {
                            let value = self.eval(e)?;
                            text.push_str(&to_s(&value));
                        }
                    }
                }
                Ok(Value::string(text))
            }
            ExprKind::Heredoc { text, .. } => self.eval(text),
            ExprKind::Regex(pattern) => match Regex::new(pattern) {
                Ok(regex) => Ok(Value::Regexp(regex)),
                Err(message) => fail(
                    format!("Invalid regular expression /{pattern}/: {message}"),
                    span,
                ),
            },
            ExprKind::Variable(name) => self.variable(name, span),
            ExprKind::Name(name) | ExprKind::Word(name) => Ok(Value::string(name.as_str())),
            ExprKind::TypeRef(name) => {
                let resolved = self.resolve_type_name(name, span)?;
                self.check_resource_type_found(name, &resolved, span)?;
                Ok(Value::Type(Box::new(resolved)))
            }
            ExprKind::Array(elements) => Ok(Value::array(self.eval_list(elements)?)),
            ExprKind::Hash(entries) => {
                let mut hash = PHash::with_capacity(entries.len());
                for entry in entries {
                    let key = self.eval(&entry.key)?;
                    let value = self.eval(&entry.value)?;
                    hash.insert(key, value);
                }
                Ok(Value::hash(hash))
            }
            ExprKind::Paren(inner) => self.eval(inner),
            ExprKind::Unary { op, operand } => {
                let value = self.eval(operand)?;
                match op {
                    UnaryOp::Not => Ok(Value::Boolean(!value.is_truthy())),
                    UnaryOp::Negate => {
                        let mut warnings = Vec::new();
                        let result = crate::operators::negate(value, span, &mut warnings);
                        self.emit_warnings(warnings);
                        result
                    }
                    UnaryOp::Splat => Ok(match value {
                        Value::Array(items) => Value::Array(items),
                        Value::Hash(hash) => Value::array(
                            hash.iter()
                                .map(|(k, v)| Value::array(vec![k.clone(), v.clone()]))
                                .collect(),
                        ),
                        other => Value::array(vec![other]),
                    }),
                }
            }
            ExprKind::Binary { op, lhs, rhs } => self.binary(*op, lhs, rhs, span),
            ExprKind::Assign { op, target, value } => {
                if *op != AssignOp::Assign {
                    return fail(
                        format!("The operator '{}' is no longer supported", op.text()),
                        span,
                    );
                }
                let value = self.eval(value)?;
                let at = self.next_token_span(target.span.end);
                self.assign(target, value.clone(), at)?;
                Ok(value)
            }
            ExprKind::Relationship { op, lhs, rhs } => {
                Ok(self.relationship(*op, lhs, rhs, span)?.1)
            }
            ExprKind::Access { target, keys } => {
                let key_span = keys.first().map_or(span, |k| k.span);
                if self.pending_facts.is_some()
                    && let ExprKind::Variable(name) = &target.kind
                    && strip_top(name) == "facts"
                {
                    // `$facts['name']` resolves that fact alone.
                    let keys = self.eval_list(keys)?;
                    let facts = match keys.first() {
                        Some(Value::String(key)) => self.facts_for_key(key),
                        _ => self.top_variable("facts").unwrap_or(Value::Undef),
                    };
                    return crate::access::access(facts, keys, span, key_span);
                }
                let target_value = self.eval(target)?;
                let keys = self.eval_list(keys)?;
                crate::access::access(target_value, keys, span, key_span)
            }
            ExprKind::Call(call) => {
                let args = self.eval_list(&call.args)?;
                self.call_expression(call, args, span, "Function Call", call.function.span)
            }
            ExprKind::MethodCall { receiver, call } => {
                let receiver_span = receiver.span;
                let receiver = self.eval(receiver)?;
                let mut args = Vec::with_capacity(call.args.len() + 1);
                args.push(receiver);
                args.extend(self.eval_list(&call.args)?);
                if let ExprKind::Name(method) = &call.function.kind
                    && let Some(result) =
                        crate::functions::lookup::context_method(self, method, &args, expr.span)
                {
                    return result;
                }
                // Puppet places a method call at its `(`, or at the `.` when
                // there are no parentheses.
                let place = if call.parenthesized {
                    self.next_token_span(call.function.span.end)
                } else {
                    self.next_token_span(receiver_span.end)
                };
                self.call_expression(
                    call,
                    args,
                    place,
                    "Method call",
                    self.next_token_span(receiver_span.end),
                )
            }
            ExprKind::If(_)
            | ExprKind::Unless(_)
            | ExprKind::Case { .. }
            | ExprKind::Selector { .. }
                if !self.in_match_frame =>
            {
                // Match variables set by the test live until the end of the
                // conditional.
                let saved = self.scopes.get(self.current).matches.clone();
                self.in_match_frame = true;
                let result = self.eval(expr);
                self.in_match_frame = false;
                self.scopes.get_mut(self.current).matches = saved;
                result
            }
            ExprKind::If(branch) => {
                self.in_match_frame = false;
                if self.eval(&branch.condition)?.is_truthy() {
                    self.statements(&branch.then_body)
                } else if let Some(else_body) = &branch.else_body {
                    self.statements(else_body)
                } else {
                    Ok(Value::Undef)
                }
            }
            ExprKind::Unless(branch) => {
                self.in_match_frame = false;
                if !self.eval(&branch.condition)?.is_truthy() {
                    self.statements(&branch.then_body)
                } else if let Some(else_body) = &branch.else_body {
                    self.statements(else_body)
                } else {
                    Ok(Value::Undef)
                }
            }
            ExprKind::Case { subject, options } => {
                self.in_match_frame = false;
                let subject = self.eval(subject)?;
                let mut default_body = None;
                for option in options {
                    for value_expr in &option.values {
                        if matches!(value_expr.kind, ExprKind::Default) {
                            default_body = Some(&option.body);
                            continue;
                        }
                        // `*$list:` offers each element as an option.
                        let candidates = match &value_expr.kind {
                            ExprKind::Unary {
                                op: UnaryOp::Splat, ..
                            } => self.eval_list(std::slice::from_ref(value_expr))?,
                            _ => vec![self.eval(value_expr)?],
                        };
                        for candidate in candidates {
                            if self.case_match(&subject, &candidate) {
                                return self.statements(&option.body);
                            }
                        }
                    }
                }
                match default_body {
                    Some(body) => self.statements(body),
                    None => Ok(Value::Undef),
                }
            }
            ExprKind::Selector { subject, entries } => {
                self.in_match_frame = false;
                let subject = self.eval(subject)?;
                let mut default_value = None;
                for entry in entries {
                    if matches!(entry.key.kind, ExprKind::Default) {
                        default_value = Some(&entry.value);
                        continue;
                    }
                    let candidate = self.eval(&entry.key)?;
                    if self.case_match(&subject, &candidate) {
                        return self.eval(&entry.value);
                    }
                }
                match default_value {
                    Some(value) => self.eval(value),
                    None => fail(
                        format!(
                            "No matching entry for selector parameter with value '{}'",
                            to_s(&subject)
                        ),
                        span,
                    ),
                }
            }
            ExprKind::Resource(resource) => self.resource(resource, expr.span, true),
            ExprKind::ResourceDefaults {
                type_ref,
                operations,
            } => self.resource_defaults(type_ref, operations),
            ExprKind::ResourceOverride { target, operations } => {
                self.resource_override(target, operations, span)
            }
            ExprKind::Collect { .. } => {
                // A collector is a value only as a relationship operand,
                // which `relationship` handles.
                self.collector(expr, None)?;
                Ok(Value::Undef)
            }
            ExprKind::Class(_)
            | ExprKind::Define(_)
            | ExprKind::Node(_)
            | ExprKind::Function(_)
            | ExprKind::TypeAlias { .. } => Ok(Value::Undef),
            ExprKind::RenderString(text) => {
                if let Some(output) = &mut self.epp_output {
                    output.push_str(text);
                }
                Ok(Value::Undef)
            }
            ExprKind::RenderExpr(inner) => {
                let value = self.eval(inner)?;
                if let Some(output) = &mut self.epp_output {
                    match &value {
                        Value::Sensitive(secret) => {
                            output.push_str(&to_s(secret));
                            self.epp_sensitive = true;
                        }
                        value => output.push_str(&to_s(value)),
                    }
                }
                Ok(Value::Undef)
            }
            ExprKind::Error => fail("Cannot evaluate an expression that failed to parse", span),
        }
    }

    /// Evaluates a list, unfolding `*value` splats into it.
    pub(crate) fn eval_list(&mut self, exprs: &'p [Expr]) -> EvalResult<Vec<Value>> {
        let mut values = Vec::with_capacity(exprs.len());
        for expr in exprs {
            if let ExprKind::Unary {
                op: UnaryOp::Splat,
                operand,
            } = &expr.kind
            {
                match self.eval(operand)? {
                    Value::Array(items) => values.extend(items.iter().cloned()),
                    Value::Hash(hash) => values.extend(
                        hash.iter()
                            .map(|(k, v)| Value::array(vec![k.clone(), v.clone()])),
                    ),
                    other => values.push(other),
                }
            } else {
                values.push(self.eval(expr)?);
            }
        }
        Ok(values)
    }

    // ---- variables ----------------------------------------------------

    fn variable(&mut self, name: &str, span: Span) -> EvalResult<Value> {
        if !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit()) {
            let index: usize = name.parse().unwrap_or(usize::MAX);
            return Ok(self
                .scopes
                .match_data(self.current)
                .and_then(|matches| matches.get(index).cloned())
                .unwrap_or(Value::Undef));
        }
        // Most names are plain; only names with a colon need the qualified
        // lookups below.
        let qualified = name.as_bytes().contains(&b':');
        if qualified
            && let Some(top_name) = name.strip_prefix("::")
            && !top_name.contains("::")
        {
            return Ok(self.top_variable(top_name).unwrap_or(Value::Undef));
        }
        if qualified && let Some((class, variable)) = strip_top(name).rsplit_once("::") {
            return match self.class_scopes.get(class) {
                Some(_) => Ok(self.class_variable(class, variable).unwrap_or(Value::Undef)),
                None if self.strict_variables => fail(format!("Unknown variable: '{name}'."), span),
                None => {
                    self.warn_at(&format!("Unknown variable: '{name}'."), span);
                    Ok(Value::Undef)
                }
            };
        }
        match self.visible_variable(self.current, name) {
            Some(value) => Ok(value),
            None if self.strict_variables => fail(format!("Unknown variable: '{name}'."), span),
            None => {
                self.warn_at(&format!("Unknown variable: '{name}'."), span);
                Ok(Value::Undef)
            }
        }
    }

    /// Assigns to a variable or destructures into several; `at` is where
    /// the `=` stands, where Puppet reports problems.
    fn assign(&mut self, target: &'p Expr, value: Value, at: Span) -> EvalResult<()> {
        match &target.kind {
            ExprKind::Variable(name) => self.set_variable(name, value, at),
            ExprKind::Array(targets) => match value {
                Value::Array(values) => {
                    if values.len() != targets.len() {
                        return fail(
                            format!(
                                "Mismatched number of assignable entries and values, expected {}, got {}",
                                targets.len(),
                                values.len()
                            ),
                            at,
                        );
                    }
                    for (t, v) in targets.iter().zip(values.iter().cloned()) {
                        self.assign(t, v, at)?;
                    }
                    Ok(())
                }
                Value::Hash(hash) => {
                    for t in targets {
                        let ExprKind::Variable(name) = &t.kind else {
                            return fail("Illegal assignment to non variable", t.span);
                        };
                        let Some(v) = hash.get(&Value::string(name.as_str())) else {
                            return fail(
                                format!(
                                    "No value for required key '{name}' in assignment to variables from hash"
                                ),
                                at,
                            );
                        };
                        self.set_variable(name, v.clone(), at)?;
                    }
                    Ok(())
                }
                _ => fail(
                    format!(
                        "Mismatched number of assignable entries and values, expected {}, got 1",
                        targets.len()
                    ),
                    at,
                ),
            },
            _ => fail("Illegal attempt to assign to a non-variable", target.span),
        }
    }

    pub(crate) fn set_variable(&mut self, name: &str, value: Value, span: Span) -> EvalResult<()> {
        if self.current == TOP_SCOPE {
            // A fact not resolved yet is still set, as Puppet sets them all.
            self.lazy_fact(name);
        }
        let scope = self.scopes.get_mut(self.current);
        if scope.variables.contains_key(name) {
            if name == "name" || name == "title" {
                return fail(
                    format!("Cannot reassign built in (or already assigned) variable '${name}'"),
                    span,
                );
            }
            return fail(format!("Cannot reassign variable '${name}'"), span);
        }
        scope.variables.insert(name.to_string(), value);
        Ok(())
    }

    // ---- operators ----------------------------------------------------

    fn binary(
        &mut self,
        op: BinaryOp,
        lhs: &'p Expr,
        rhs: &'p Expr,
        span: Span,
    ) -> EvalResult<Value> {
        match op {
            BinaryOp::And => {
                let left = self.eval(lhs)?.is_truthy();
                Ok(Value::Boolean(left && self.eval(rhs)?.is_truthy()))
            }
            BinaryOp::Or => {
                let left = self.eval(lhs)?.is_truthy();
                Ok(Value::Boolean(left || self.eval(rhs)?.is_truthy()))
            }
            BinaryOp::Match | BinaryOp::NoMatch => {
                let left = self.eval(lhs)?;
                let right = self.eval(rhs)?;
                let matched = self.match_value(&left, &right, span, rhs.span)?;
                Ok(Value::Boolean(if op == BinaryOp::Match {
                    matched
                } else {
                    !matched
                }))
            }
            _ => {
                let left = match self.movable_operand(op, lhs) {
                    Some(value) => value,
                    None => self.eval(lhs)?,
                };
                let right = self.eval(rhs)?;
                let places = crate::operators::Places {
                    operator: self.next_token_span(lhs.span.end),
                    left: lhs.span,
                    right: rhs.span,
                };
                let mut warnings = Vec::new();
                let result = crate::operators::binary(op, left, right, &places, &mut warnings);
                self.emit_warnings(warnings);
                result
            }
        }
    }

    /// The left operand of `+` or `<<` taken out of the lambda's scope when
    /// it is a parameter read nowhere else (see `moves`): the operator can
    /// then extend it in place instead of copying it.
    fn movable_operand(&mut self, op: BinaryOp, lhs: &Expr) -> Option<Value> {
        if !matches!(op, BinaryOp::Add | BinaryOp::LShift) {
            return None;
        }
        let mut operand = lhs;
        while let ExprKind::Paren(inner) = &operand.kind {
            operand = inner;
        }
        let ExprKind::Variable(name) = &operand.kind else {
            return None;
        };
        let scope = self.scopes.get_mut(self.current);
        if !scope.movable.as_ref()?.iter().any(|m| m == name) {
            return None;
        }
        scope.variables.remove(name.as_str())
    }

    fn emit_warnings(&mut self, warnings: crate::operators::Warnings) {
        for (message, span) in warnings {
            self.warn_at(&message, span);
        }
    }

    /// The span of the first character after `offset` that is not blank or
    /// a comment: where an operator or a `.` stands.
    pub(crate) fn next_token_span(&self, offset: u32) -> Span {
        let text = self.file.text();
        let bytes = text.as_bytes();
        let mut pos = (offset as usize).min(bytes.len());
        loop {
            while pos < bytes.len() && bytes[pos].is_ascii_whitespace() {
                pos += 1;
            }
            if bytes[pos..].starts_with(b"#") {
                pos = text[pos..].find('\n').map_or(bytes.len(), |i| pos + i);
            } else if bytes[pos..].starts_with(b"/*") {
                pos = text[pos + 2..]
                    .find("*/")
                    .map_or(bytes.len(), |i| pos + 2 + i + 2);
            } else {
                break;
            }
        }
        Span::new(pos, (pos + 1).min(bytes.len()))
    }

    /// `=~`: a string against a regex or pattern string, or any value
    /// against a type. A regex match sets `$0`..`$n`.
    fn match_value(
        &mut self,
        left: &Value,
        right: &Value,
        span: Span,
        right_span: Span,
    ) -> EvalResult<bool> {
        let regex = match right {
            Value::Type(t) => return Ok(t.is_instance(left)),
            Value::SemVerRange(range) => {
                return Ok(matches!(left, Value::SemVer(v) if range.includes(v)));
            }
            Value::Regexp(r) => r.clone(),
            Value::String(pattern) => match Regex::new(pattern) {
                Ok(r) => r,
                Err(message) => {
                    return fail(
                        format!(
                            "Can not convert right match operand to a regular expression. Caused by '{message}: /{pattern}/'."
                        ),
                        right_span,
                    );
                }
            },
            other => {
                return fail(
                    format!(
                        "Operator '=~' is not applicable to the right operand of type {}",
                        type_label(other)
                    ),
                    span,
                );
            }
        };
        let Value::String(text) = left else {
            let label = crate::operators::value_label(left);
            let article = if label.starts_with(['A', 'E', 'I', 'O', 'U']) {
                "an"
            } else {
                "a"
            };
            return fail(
                format!("Left match operand must result in a String value. Got {article} {label}."),
                span,
            );
        };
        Ok(self.regex_match(&regex, text))
    }

    fn regex_match(&mut self, regex: &Regex, text: &str) -> bool {
        match regex.captures(text) {
            Some(groups) => {
                let matches = groups
                    .into_iter()
                    .map(|g| g.map_or(Value::Undef, Value::string))
                    .collect();
                self.scopes.get_mut(self.current).matches = Some(matches);
                true
            }
            None => false,
        }
    }

    /// How `case` and selectors compare an option with the subject.
    fn case_match(&mut self, subject: &Value, candidate: &Value) -> bool {
        match candidate {
            Value::Regexp(regex) => match subject {
                Value::String(text) => self.regex_match(regex, text),
                _ => false,
            },
            Value::Type(t) => t.is_instance(subject),
            // An array option matches an array of the same length whose
            // elements match its elements (`[String, /x/]:`), a hash option
            // a hash whose values match its values under its keys, as in
            // Puppet.
            Value::Array(patterns) => match subject {
                Value::Array(items) => {
                    items.len() == patterns.len()
                        && items
                            .iter()
                            .zip(patterns.iter())
                            .all(|(item, pattern)| self.case_match(item, pattern))
                }
                _ => false,
            },
            Value::Hash(patterns) => match subject {
                Value::Hash(hash) => patterns.iter().all(|(key, pattern)| {
                    let item = hash.get(key).cloned().unwrap_or(Value::Undef);
                    self.case_match(&item, pattern)
                }),
                _ => false,
            },
            _ => subject.puppet_equals(candidate),
        }
    }

    // ---- types --------------------------------------------------------

    pub(crate) fn resolve_type_name(&mut self, name: &str, span: Span) -> EvalResult<PType> {
        // `::Tea::Unixpath` is `Tea::Unixpath` from the top.
        let name = name.strip_prefix("::").unwrap_or(name);
        if let Some(t) = PType::from_name(name) {
            return Ok(t);
        }
        // The context Hiera gives data provider functions written in
        // Puppet; it is passed as undef, so the parameter accepts anything.
        if name.eq_ignore_ascii_case("Puppet::LookupContext") {
            return Ok(PType::Any);
        }
        if !self.type_aliases.contains_key(name) && name.contains("::") {
            self.autoload(name, crate::loader::Kind::Type)?;
        }
        // Type names are case-insensitive: `Stdlib::AbsolutePath` is the
        // alias stdlib defines as `Stdlib::Absolutepath`.
        let name = match self.type_aliases.get_key_value(name) {
            Some((key, _)) => key.clone(),
            None => self
                .type_aliases
                .keys()
                .find(|k| k.eq_ignore_ascii_case(name))
                .cloned()
                .unwrap_or_else(|| name.to_string()),
        };
        let name = name.as_str();
        if let Some(&(expr, file)) = self.type_aliases.get(name) {
            if self.resolving_aliases.iter().any(|n| n == name) {
                return fail(format!("Type alias '{name}' refers to itself"), span);
            }
            self.resolving_aliases.push(name.to_string());
            let target = self.in_file(file, |this| this.eval(expr));
            self.resolving_aliases.pop();
            return match target? {
                Value::Type(target) => Ok(PType::Alias {
                    name: name.to_string(),
                    target,
                }),
                other => fail(
                    format!(
                        "The type alias '{name}' does not resolve to a type, got {}",
                        type_label(&other)
                    ),
                    span,
                ),
            };
        }
        Ok(PType::Resource {
            type_name: Some(strip_top(name).to_lowercase()),
            title: None,
        })
    }

    /// A type reference naming no type, alias, core resource type or
    /// defined type is an error where code evaluates it, as in Puppet;
    /// inside a type alias's definition it stays a reference that matches
    /// nothing, as Puppet resolves those lazily. Classes are not resource
    /// types (`Foo` for a class `foo` is not found either).
    fn check_resource_type_found(
        &mut self,
        name: &str,
        resolved: &PType,
        span: Span,
    ) -> EvalResult<()> {
        let PType::Resource {
            type_name: Some(type_name),
            title: None,
        } = resolved
        else {
            return Ok(());
        };
        if !self.resolving_aliases.is_empty()
            || type_name == "node"
            || crate::compiler::builtin_types::is_builtin(type_name)
            || self.find_define(type_name)?.is_some()
            || self.module_type(type_name, span)?
        {
            return Ok(());
        }
        fail(
            format!("Resource type not found: {}", strip_top(name)),
            span,
        )
    }

    /// Checks a value against a parameter type, with Puppet's message.
    pub(crate) fn check_type(
        &self,
        expected: &PType,
        value: &Value,
        what: &str,
        span: Span,
    ) -> EvalResult<()> {
        if expected.is_instance(value) {
            return Ok(());
        }
        fail_in_call(format!("{what} {}", mismatch_text(expected, value)), span)
    }

    // ---- calls --------------------------------------------------------

    /// Calls the function of a call expression. Errors raised by the call
    /// itself are described as Puppet does: "Error while evaluating a
    /// Function Call, ..." at the call's position.
    fn call_expression(
        &mut self,
        call: &'p Call,
        args: Vec<Value>,
        place: Span,
        form: &str,
        name_place: Span,
    ) -> EvalResult<Value> {
        let lambda = call.lambda.as_ref().map(|lambda| Closure {
            lambda,
            scope: self.current,
        });
        let result = match &call.function.kind {
            ExprKind::Name(name) => self.call_named(name, args, lambda, place, name_place),
            ExprKind::TypeRef(name) => {
                let target = self.resolve_type_name(name, call.function.span)?;
                functions::types::new_value(self, &target, args, place)
            }
            _ => fail("Illegal function name", call.function.span),
        };
        result.map_err(|stop| match stop {
            Stop::Error(mut error) if error.from_call => {
                error.message = format!("Error while evaluating a {form}, {}", error.message);
                error.span = place;
                error.located = None;
                error.from_call = false;
                Stop::Error(error)
            }
            other => other,
        })
    }

    /// Calls a function by the name a call gives: one written in Puppet
    /// (loaded from its module on first use), a built-in, or one a module
    /// ships as an executable.
    pub(crate) fn call_named(
        &mut self,
        name: &str,
        args: Vec<Value>,
        lambda: Option<Closure<'p>>,
        place: Span,
        name_place: Span,
    ) -> EvalResult<Value> {
        self.puppet_stack.push((self.file, Some(place)));
        let result = self.call_named_here(name, args, lambda, place, name_place);
        self.puppet_stack.pop();
        result
    }

    /// [`Evaluator::call_named`] once the call is on Puppet's stack; a
    /// call from a Ruby function adds no frame to it, as in Puppet, whose
    /// stack holds the Puppet code's calls only.
    pub(crate) fn call_named_here(
        &mut self,
        name: &str,
        args: Vec<Value>,
        lambda: Option<Closure<'p>>,
        place: Span,
        name_place: Span,
    ) -> EvalResult<Value> {
        let name = strip_top(name);
        if !self.functions.contains_key(name) && name.contains("::") {
            self.autoload(name, crate::loader::Kind::Function)?;
        }
        if !self.functions.contains_key(name) && !self.builtins.contains_key(name) {
            if let Some(native) = self.native_function(name) {
                let mut call = functions::Call {
                    name,
                    args,
                    lambda,
                    span: place,
                };
                return native(self, &mut call);
            }
            if !(name.contains("::") && self.load_external(name, place)?) {
                if let Some(function) = self.ruby_function(name, place)? {
                    return self.call_ruby(name, &function, args, lambda, place);
                }
                return fail(format!("Unknown function: '{name}'."), name_place);
            }
            if lambda.is_some() {
                return fail(format!("'{name}' does not expect a block"), place);
            }
            self.call_external(name, args, place)
        } else {
            self.call_function(name, args, lambda, place)
        }
    }

    /// What kind of function Hiera would call as a data provider.
    pub(crate) fn data_function(&mut self, name: &str, span: Span) -> EvalResult<DataFunction> {
        let name = strip_top(name);
        if !self.functions.contains_key(name) && name.contains("::") {
            self.autoload(name, crate::loader::Kind::Function)?;
        }
        if let Some(&(function, file)) = self.functions.get(name) {
            let declared = match &function.return_type {
                Some(expr) => match self.in_file(file, |this| this.eval(expr))? {
                    Value::Type(t) => Some(*t),
                    _ => None,
                },
                None => None,
            };
            return Ok(DataFunction::Puppet(declared));
        }
        if self.builtins.contains_key(name) {
            return Ok(DataFunction::Other);
        }
        if name.contains("::") && self.load_external(name, span)? {
            return Ok(DataFunction::Other);
        }
        Ok(DataFunction::Unknown)
    }

    /// A function of a module implemented natively (stdlib's), which
    /// exists only while the stdlib on the module path ships it, as the
    /// module's own would: stdlib 9 no longer has `validate_string`.
    /// A shim of stdlib 9 (`merge` for `stdlib::merge`) gives its
    /// deprecation warning first, as its Ruby would.
    fn native_function(&mut self, name: &str) -> Option<Builtin> {
        use functions::stdlib::Shipped;
        let native = *functions::stdlib::natives().get(name)?;
        let shipped = match self.stdlib_ships.get(name) {
            Some(shipped) => shipped.clone(),
            None => {
                let loader = &self.loader;
                let dir = self
                    .stdlib_dir
                    .get_or_insert_with(|| loader.as_ref()?.module_dir(functions::stdlib::MODULE));
                let shipped = dir
                    .as_ref()
                    .map_or(Shipped::No, |dir| functions::stdlib::shipped(dir, name));
                self.stdlib_ships.insert(name.to_string(), shipped.clone());
                shipped
            }
        };
        match shipped {
            Shipped::No => None,
            Shipped::Yes => Some(native),
            Shipped::Deprecated { key, message } => {
                functions::stdlib::deprecate(self, &key, &message);
                Some(native)
            }
        }
    }

    /// Calls a function by name: one written in Puppet, or a built-in.
    pub(crate) fn call_function(
        &mut self,
        name: &str,
        args: Vec<Value>,
        lambda: Option<Closure<'p>>,
        span: Span,
    ) -> EvalResult<Value> {
        let name = strip_top(name);
        if let Some(&(function, file)) = self.functions.get(name) {
            if lambda.is_some() {
                return fail_in_call(format!("'{name}' does not expect a block"), span);
            }
            return self.in_file(file, |this| this.call_puppet_function(function, args, span));
        }
        match self.builtins.get(name) {
            Some(builtin) => {
                let mut call = functions::Call {
                    name,
                    args,
                    lambda,
                    span,
                };
                builtin(self, &mut call)
            }
            None => fail(format!("Unknown function: '{name}'."), span),
        }
    }

    fn enter(&mut self, span: Span) -> EvalResult<()> {
        self.depth += 1;
        if self.depth > MAX_CALL_DEPTH {
            self.depth -= 1;
            return fail(
                format!("Calls are nested more than {MAX_CALL_DEPTH} levels deep"),
                span,
            );
        }
        Ok(())
    }

    fn call_puppet_function(
        &mut self,
        function: &'p FunctionDefinition,
        args: Vec<Value>,
        span: Span,
    ) -> EvalResult<Value> {
        self.enter(span)?;
        let scope = self.scopes.create(TOP_SCOPE, None);
        let saved = std::mem::replace(&mut self.current, scope);
        let what = format!("'{}'", function.name);
        let result = self
            .bind_params(&function.params, args, &what, span)
            .and_then(|()| self.statements(&function.body));
        self.current = saved;
        self.scopes.release(scope);
        self.depth -= 1;
        let value = match result {
            Ok(value) | Err(Stop::Return(value, _)) | Err(Stop::Next(value, _)) => value,
            Err(other) => return Err(other),
        };
        if let Some(return_type) = &function.return_type {
            let expected = match self.eval(return_type)? {
                Value::Type(t) => *t,
                _ => return fail("A return type must be a type", return_type.span),
            };
            if !expected.is_instance(&value) {
                return fail_in_call(
                    format!(
                        "value returned from {} has wrong type, expects {} value, got {}",
                        function.name,
                        a_type(&expected),
                        describe_actual(&expected, &value)
                    ),
                    span,
                );
            }
        }
        Ok(value)
    }

    /// Binds call arguments to parameters in the current scope: count,
    /// defaults, types and captures-rest, with Puppet's messages.
    fn bind_params(
        &mut self,
        params: &'p [Param],
        mut args: Vec<Value>,
        what: &str,
        span: Span,
    ) -> EvalResult<()> {
        if what == "block" {
            // A block ignores extra arguments and names the first missing one.
            let rest = params.last().is_some_and(|p| p.captures_rest);
            if !rest {
                args.truncate(params.len());
            }
            if let Some(missing) = params
                .iter()
                .skip(args.len())
                .find(|p| p.default.is_none() && !p.captures_rest)
            {
                return fail(
                    format!(
                        "Parameter ${} is required but no value was given",
                        missing.name
                    ),
                    missing.span,
                );
            }
        }
        let required = params
            .iter()
            .filter(|p| p.default.is_none() && !p.captures_rest)
            .count();
        let rest = params.last().is_some_and(|p| p.captures_rest);
        let max = if rest { usize::MAX } else { params.len() };
        if args.len() < required || args.len() > max {
            let expected = if rest {
                format!("at least {required}")
            } else if required == params.len() {
                required.to_string()
            } else {
                format!("between {required} and {}", params.len())
            };
            let noun = if expected == "1" {
                "argument"
            } else {
                "arguments"
            };
            return fail_in_call(
                format!("{what} expects {expected} {noun}, got {}", args.len()),
                span,
            );
        }
        let mut remaining = std::mem::take(&mut args).into_iter();
        for param in params {
            let param_type = match &param.type_expr {
                Some(type_expr) => match self.eval(type_expr)? {
                    Value::Type(t) => Some(*t),
                    _ => return fail("A parameter type must be a type", type_expr.span),
                },
                None => None,
            };
            let value = if param.captures_rest {
                let rest: Vec<Value> = remaining.by_ref().collect();
                if let Some(t) = &param_type {
                    for value in &rest {
                        self.check_type(
                            t,
                            value,
                            &format!("{what} parameter '{}'", param.name),
                            span,
                        )?;
                    }
                }
                Value::array(rest)
            } else if let Some(value) = remaining.next() {
                if let Some(t) = &param_type {
                    self.check_type(
                        t,
                        &value,
                        &format!("{what} parameter '{}'", param.name),
                        span,
                    )?;
                }
                value
            } else {
                match &param.default {
                    Some(default) => self.eval(default)?,
                    None => Value::Undef,
                }
            };
            self.scopes
                .get_mut(self.current)
                .variables
                .insert(param.name.clone(), value);
        }
        Ok(())
    }

    /// Calls a lambda with arguments. `next` ends the lambda with a value;
    /// `break` and `return` travel on to the caller.
    pub(crate) fn call_lambda(
        &mut self,
        closure: &Closure<'p>,
        args: Vec<Value>,
        span: Span,
    ) -> EvalResult<Value> {
        self.enter(span)?;
        let scope = self.scopes.create(closure.scope, None);
        let movable = self
            .movable
            .entry(std::ptr::from_ref(closure.lambda))
            .or_insert_with(|| Rc::from(crate::moves::movable_params(closure.lambda)))
            .clone();
        if !movable.is_empty() {
            self.scopes.get_mut(scope).movable = Some(movable);
        }
        let saved = std::mem::replace(&mut self.current, scope);
        let result = self
            .bind_params(&closure.lambda.params, args, "block", span)
            .and_then(|()| self.statements(&closure.lambda.body));
        self.current = saved;
        self.scopes.release(scope);
        self.depth -= 1;
        match result {
            Ok(value) | Err(Stop::Next(value, _)) => Ok(value),
            Err(other) => Err(other),
        }
    }
}

/// "an Integer", "a String", "a Small = Integer[0, 9]".
pub(crate) fn a_type(t: &PType) -> String {
    let text = match t {
        PType::Alias { name, target } => format!("{name} = {target}"),
        other => other.to_string(),
    };
    let article = if text.starts_with(['A', 'E', 'I', 'O', 'U']) {
        "an"
    } else {
        "a"
    };
    format!("{article} {text}")
}

/// The actual type in a mismatch message: as detailed as the expected type
/// is of the same kind, otherwise just its name.
pub(crate) fn describe_actual(expected: &PType, value: &Value) -> String {
    let actual = PType::infer(value);
    if actual.name() == expected.resolved().name() {
        actual.to_string()
    } else {
        actual.name()
    }
}

impl<'p> Evaluator<'p> {
    pub(crate) fn is_class_declared(&self, name: &str) -> bool {
        self.compiler.find("class", name).is_some()
    }

    /// Whether a class or type of that name exists (`defined('name')`).
    pub(crate) fn is_defined_name(&self, name: &str) -> bool {
        let name = strip_top(name).to_lowercase();
        self.classes.contains_key(&name)
            || self.defines.contains_key(&name)
            || crate::compiler::builtin_types::is_builtin(&name)
            || self
                .type_aliases
                .keys()
                .any(|alias| alias.eq_ignore_ascii_case(&name))
    }

    pub(crate) fn is_function(&self, name: &str) -> bool {
        let name = strip_top(name);
        self.functions.contains_key(name) || self.builtins.contains_key(name)
    }

    /// `$class::variable`: the class's own variable, else one of the classes
    /// it inherits from, as Puppet looks qualified names up.
    fn class_variable(&self, class: &str, variable: &str) -> Option<Value> {
        let mut scope = *self.class_scopes.get(class)?;
        loop {
            if let Some(value) = self.scopes.get(scope).variables.get(variable) {
                return Some(value.clone());
            }
            match self.scopes.get(scope).parent {
                Some(parent)
                    if parent != TOP_SCOPE && self.class_scopes.values().any(|&s| s == parent) =>
                {
                    scope = parent;
                }
                _ => return None,
            }
        }
    }

    /// A variable's value without the unknown-variable warning (`getvar`).
    pub(crate) fn lookup_quietly(&mut self, name: &str) -> Option<Value> {
        let name = strip_top(name);
        if let Some((class, variable)) = name.rsplit_once("::") {
            return self.class_variable(class, variable);
        }
        self.visible_variable(self.current, name)
    }

    /// Renders an EPP template with the given arguments, in a scope below
    /// the caller's.
    pub(crate) fn render_epp(
        &mut self,
        program: &'p Program,
        arguments: Option<PHash>,
        span: Span,
    ) -> EvalResult<Value> {
        let scope = self.scopes.create(self.current, None);
        let saved_scope = std::mem::replace(&mut self.current, scope);
        let saved_output = self.epp_output.replace(String::new());
        let saved_sensitive = std::mem::replace(&mut self.epp_sensitive, false);
        let result = self
            .bind_epp_params(program, arguments, span)
            .and_then(|()| self.statements(&program.body));
        let output = std::mem::replace(&mut self.epp_output, saved_output).unwrap_or_default();
        let sensitive = std::mem::replace(&mut self.epp_sensitive, saved_sensitive);
        self.current = saved_scope;
        match result {
            Ok(_) | Err(Stop::Return(..)) if sensitive => {
                Ok(Value::Sensitive(Box::new(Value::string(output))))
            }
            Ok(_) | Err(Stop::Return(..)) => Ok(Value::string(output)),
            Err(other) => Err(other),
        }
    }

    fn bind_epp_params(
        &mut self,
        program: &'p Program,
        arguments: Option<PHash>,
        span: Span,
    ) -> EvalResult<()> {
        let arguments = arguments.unwrap_or_default();
        let Some(params) = &program.epp_params else {
            for (key, value) in arguments {
                if let Value::String(name) = key {
                    self.scopes
                        .get_mut(self.current)
                        .variables
                        .insert(name.to_string(), value);
                }
            }
            return Ok(());
        };
        // Puppet reports template parameters as a lambda's.
        for (key, _) in &arguments {
            let known = matches!(key, Value::String(name) if params.iter().any(|p| p.name.as_str() == &**name));
            if !known {
                return fail_in_call(
                    format!("lambda: has no parameter named '{}'", to_s(key)),
                    span,
                );
            }
        }
        for param in params {
            let value = match arguments.get(&Value::string(param.name.as_str())) {
                Some(value) => value.clone(),
                None => match &param.default {
                    Some(default) => self.eval(default)?,
                    None => {
                        return fail_in_call(
                            format!("lambda: expects a value for parameter '{}'", param.name),
                            span,
                        );
                    }
                },
            };
            if let Some(type_expr) = &param.type_expr
                && let Value::Type(t) = self.eval(type_expr)?
            {
                self.check_type(
                    &t,
                    &value,
                    &format!("lambda: parameter '{}'", param.name),
                    span,
                )?;
            }
            self.scopes
                .get_mut(self.current)
                .variables
                .insert(param.name.clone(), value);
        }
        Ok(())
    }
}

/// What is wrong with `value` for `expected`, in Puppet's words: it names
/// the first failing entry or index of a collection ("entry 'a' expects an
/// Integer value, got String"), the alternatives of a variant, and the
/// text that did not match an enum or pattern.
pub fn mismatch_text(expected: &PType, value: &Value) -> String {
    // The expected type is shown in full when the value is of its kind (or
    // it is an alias); otherwise by its kind's name alone, as Puppet does.
    let plain = || {
        let kind = PType::from_name(&expected.resolved().name());
        let wanted = match &kind {
            Some(kind) if !matches!(expected, PType::Alias { .. }) && !kind.is_instance(value) => {
                a_type(kind)
            }
            _ => a_type(expected),
        };
        format!(
            "expects {wanted} value, got {}",
            describe_actual(expected, value)
        )
    };
    match (expected.resolved(), value) {
        (PType::Struct(members), Value::Hash(hash)) => {
            for member in members {
                match hash.get(&Value::string(member.key.as_str())) {
                    Some(v) if !member.value.is_instance(v) => {
                        return format!(
                            "entry '{}' {}",
                            member.key,
                            mismatch_text(&member.value, v)
                        );
                    }
                    None if !member.optional => {
                        return format!("expects a value for key '{}'", member.key);
                    }
                    _ => {}
                }
            }
            match hash
                .keys()
                .find(|k| !matches!(k, Value::String(s) if members.iter().any(|m| m.key.as_str() == &**s)))
            {
                Some(extra) => format!("unrecognized key '{}'", to_s(extra)),
                None => plain(),
            }
        }
        (
            PType::Hash {
                value: value_type,
                min,
                max,
                ..
            },
            Value::Hash(hash),
        ) if (*min..=*max).contains(&(hash.len() as i64)) => {
            match hash.iter().find(|(_, v)| !value_type.is_instance(v)) {
                Some((k, v)) => format!("entry '{}' {}", to_s(k), mismatch_text(value_type, v)),
                None => plain(),
            }
        }
        (PType::Array { element, min, max }, Value::Array(items))
            if (*min..=*max).contains(&(items.len() as i64)) =>
        {
            match items.iter().position(|v| !element.is_instance(v)) {
                Some(i) => format!("index {i} {}", mismatch_text(element, &items[i])),
                None => plain(),
            }
        }
        (PType::Tuple { types, .. }, Value::Array(items)) if items.len() == types.len() => {
            match items.iter().zip(types).position(|(v, t)| !t.is_instance(v)) {
                Some(i) => format!("index {i} {}", mismatch_text(&types[i], &items[i])),
                None => plain(),
            }
        }
        (PType::Enum { .. } | PType::Pattern(_), Value::String(text)) => {
            format!("expects a match for {expected}, got '{text}'")
        }
        (PType::Variant(types), _) => format!(
            "expects a value of type {}, got {}",
            alternatives(types.iter()),
            describe_actual(expected, value)
        ),
        (PType::Optional(Some(inner)), _) => {
            format!(
                "expects a value of type {}, got {}",
                alternatives([&PType::Undef, &**inner].into_iter()),
                describe_actual(inner, value)
            )
        }
        _ => plain(),
    }
}

/// "A or B", "A, B, or C".
fn alternatives<'a>(types: impl Iterator<Item = &'a PType>) -> String {
    let names: Vec<String> = types.map(ToString::to_string).collect();
    match names.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [a, b] => format!("{a} or {b}"),
        [rest @ .., last] => format!("{}, or {last}", rest.join(", ")),
    }
}

/// A name without its leading `::` (top scope marker).
pub(crate) fn strip_top(name: &str) -> &str {
    name.strip_prefix("::").unwrap_or(name)
}

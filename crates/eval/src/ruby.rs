//! Modules' Ruby, run through the Ruby host (`marionette-ruby`): 4.x and
//! 3.x functions, and ERB templates.
//!
//! The evaluator finds the files, keeps the type system and reports
//! errors; the host runs the Ruby. A function is looked for only when no
//! Puppet, built-in, native or executable function of the name exists, so
//! the usual compile starts no Ruby. While the host runs a function, it
//! asks the evaluator questions through [`Answers`]: variables of the
//! calling scope, other functions, the lambda given to the call, the
//! catalog, types.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use marionette_diagnostics::{SourceFile, Span};
use marionette_ruby::{
    Answer, Api, Context, Engine, FunctionSpec, HostError, ParamKind, Question, RubyHost, Template,
};
use marionette_syntax::ast::{Expr, ExprKind};
use marionette_values::format::to_s;
use marionette_values::{PHash, PType, Value};

use crate::error::{EvalResult, Stop, fail_in_call};
use crate::evaluator::{
    Closure, Evaluator, Level, LogEntry, a_type, describe_actual, mismatch_text,
};

/// What the evaluator keeps of modules' Ruby during one compile.
#[derive(Default)]
pub(crate) struct RubyState {
    pub(crate) host: Option<Arc<RubyHost>>,
    /// Functions looked for so far: `None` when no module has one.
    functions: HashMap<String, Option<Arc<RubyFunction>>>,
    /// Whether this compile told the host it began.
    reset: bool,
    /// Modules' resource types looked for so far: whether one exists.
    pub(crate) types: HashMap<String, bool>,
    /// The modules' types with title patterns of their own, and their
    /// files: a title gives their resources attributes
    /// (`keystone_service { 'nova::compute': }` is named `nova` of type
    /// `compute`).
    pub(crate) titled_types: HashMap<String, PathBuf>,
    /// Whether a namespaced function may be found in any module's `lib`,
    /// not only its own module's: so an agent finds the functions of its
    /// deferred calls, as Puppet's does in its libdir, where pluginsync
    /// merges every module's `lib` (Marionette's agent keeps them as the
    /// one module `plugins`).
    pub(crate) any_lib: bool,
}

/// A loaded Ruby function with its signatures' types resolved.
pub(crate) struct RubyFunction {
    file: PathBuf,
    api: Api,
    dispatchers: Vec<Dispatcher>,
    /// See `FunctionSpec::V4::scope_first`.
    scope_first: bool,
}

struct Dispatcher {
    /// The Ruby method it calls, which Puppet names in messages about the
    /// result.
    method: String,
    params: Vec<(String, PType, ParamKind)>,
    /// The block parameter: its name, type as the file writes it (the
    /// evaluator keeps no signature of callables), and whether it may be
    /// left out.
    block: Option<(String, String, bool)>,
    returns: Option<PType>,
    mismatch: bool,
}

/// The block a Ruby function is given.
enum Block<'p> {
    None,
    /// A Puppet lambda, which the host asks the engine to run.
    Lambda(Closure<'p>),
    /// The Ruby block of the host's own `call_function`, by its parameter
    /// count: it never leaves the host.
    Ruby(usize),
}

/// How many arguments a block takes: those without defaults, and at
/// most (none when it captures the rest).
#[derive(Clone, Copy)]
struct Arity {
    required: usize,
    most: Option<usize>,
}

impl Arity {
    fn of(params: &[marionette_syntax::ast::Param]) -> Self {
        Arity {
            required: params
                .iter()
                .filter(|p| p.default.is_none() && !p.captures_rest)
                .count(),
            most: (!params.iter().any(|p| p.captures_rest)).then_some(params.len()),
        }
    }
}

/// The argument counts of a block type written `Callable[min, max]`.
fn callable_counts(text: &str) -> Option<(usize, usize)> {
    let inner = text.trim().strip_prefix("Callable[")?.strip_suffix(']')?;
    let (min, max) = inner.split_once(',')?;
    Some((min.trim().parse().ok()?, max.trim().parse().ok()?))
}

impl Dispatcher {
    fn min(&self) -> usize {
        self.params
            .iter()
            .filter(|(_, _, kind)| {
                matches!(kind, ParamKind::Required | ParamKind::RequiredRepeated)
            })
            .count()
    }

    fn max(&self) -> Option<usize> {
        match self.params.last() {
            Some((_, _, ParamKind::Repeated | ParamKind::RequiredRepeated)) => None,
            _ => Some(self.params.len()),
        }
    }

    /// Why the call does not fit, or `None` when it does. `lambda` is the
    /// given block's arity, if any.
    fn reject(&self, args: &[Value], lambda: Option<Arity>) -> Option<Rejection> {
        let (min, max) = (self.min(), self.max());
        if args.len() < min || max.is_some_and(|max| args.len() > max) {
            return Some(Rejection::Count);
        }
        // A block given where none fits is described first, whatever the
        // arguments, as Puppet describes it; a missing one only after them.
        let block = match (&self.block, lambda) {
            (None, Some(_)) => Some(Rejection::Other("does not expect a block".into())),
            // `Callable[3, 3]` takes only a block that accepts three
            // arguments: stdlib's merge dispatches on the block's arity.
            (Some((_, declared, _)), Some(given)) => match callable_counts(declared) {
                Some((min, max)) if given.required > min || given.most.is_some_and(|m| m < max) => {
                    Some(Rejection::Other(format!(
                        "block expects {} arguments, got {}",
                        if min == max {
                            min.to_string()
                        } else {
                            format!("between {min} and {max}")
                        },
                        given.required
                    )))
                }
                _ => None,
            },
            _ => None,
        };
        if block.is_some() {
            return block;
        }
        for (index, arg) in args.iter().enumerate() {
            let (name, expected, _) = &self.params[index.min(self.params.len() - 1)];
            if !expected.is_instance(arg) {
                return Some(Rejection::Other(format!(
                    "parameter '{name}' {}",
                    mismatch_text(expected, arg)
                )));
            }
        }
        match (&self.block, lambda) {
            (Some((_, _, false)), None) => Some(Rejection::Other("expects a block".into())),
            _ => None,
        }
    }

    /// `String name, Integer count?, Any *rest, Callable block`, as
    /// Puppet lists a signature.
    fn signature(&self) -> String {
        let mut parts: Vec<String> = self
            .params
            .iter()
            .map(|(name, t, kind)| {
                let mark = match kind {
                    ParamKind::Required => "",
                    ParamKind::Optional => "?",
                    ParamKind::Repeated => "*",
                    ParamKind::RequiredRepeated => "+",
                };
                format!("{t} {name}{mark}")
            })
            .collect();
        if let Some((name, t, optional)) = &self.block {
            parts.push(format!("{t} {name}{}", if *optional { "?" } else { "" }));
        }
        parts.join(", ")
    }
}

enum Rejection {
    Count,
    Other(String),
}

/// `expects 2 arguments`, `expects between 1 and 3 arguments`, `expects
/// at least 1 argument`, then what was given.
pub(crate) fn count_text(min: usize, max: Option<usize>, got: usize) -> String {
    let expected = match max {
        None => format!("at least {min}"),
        Some(max) if max == min => min.to_string(),
        Some(max) => format!("between {min} and {max}"),
    };
    let noun = if expected == "1" || expected == "at least 1" {
        "argument"
    } else {
        "arguments"
    };
    let got = match got {
        0 => "none".to_string(),
        n => n.to_string(),
    };
    format!("expects {expected} {noun}, got {got}")
}

/// The conventional places of a function's Ruby file.
fn candidates(eval: &Evaluator<'_>, name: &str) -> Vec<(PathBuf, Api)> {
    let Some(loader) = &eval.loader else {
        return Vec::new();
    };
    let segments: Vec<&str> = name.split("::").collect();
    if segments
        .iter()
        .any(|s| s.is_empty() || !s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
    {
        return Vec::new();
    }
    if segments.len() > 1 {
        let in_lib = |dir: &Path| {
            let mut path = dir.join("lib/puppet/functions");
            path.extend(&segments);
            path.set_extension("rb");
            (path, Api::V4)
        };
        // The function's own module first.
        let own = loader.module_dir(segments[0]);
        let others = match eval.ruby.any_lib {
            true => loader.module_dirs(),
            false => Vec::new(),
        };
        return own.iter().chain(&others).map(|dir| in_lib(dir)).collect();
    }
    // A global name may live in any module, 4.x first.
    let modules = loader.module_dirs();
    let v4 = modules
        .iter()
        .map(|dir| (dir.join(format!("lib/puppet/functions/{name}.rb")), Api::V4));
    let v3 = modules.iter().map(|dir| {
        (
            dir.join(format!("lib/puppet/parser/functions/{name}.rb")),
            Api::V3,
        )
    });
    v4.chain(v3).collect()
}

impl<'p> Evaluator<'p> {
    /// The Ruby function `name` of a module, loaded; `None` when no module
    /// ships one.
    pub(crate) fn ruby_function(
        &mut self,
        name: &str,
        span: Span,
    ) -> EvalResult<Option<Arc<RubyFunction>>> {
        if let Some(found) = self.ruby.functions.get(name) {
            return Ok(found.clone());
        }
        let Some((file, api)) = candidates(self, name)
            .into_iter()
            .find(|(path, _)| path.is_file())
        else {
            self.ruby.functions.insert(name.to_string(), None);
            return Ok(None);
        };
        let spec = self.with_host(span, None, &file, name, |host, answers| {
            host.load_function(name, &file, api, answers)
        })?;
        let mut scope_first = false;
        let dispatchers = match spec {
            // The host checks a 3.x function's arity in its own words; here
            // it takes anything.
            FunctionSpec::V3 { .. } => {
                vec![Dispatcher {
                    method: name.to_string(),
                    params: vec![("args".into(), PType::Any, ParamKind::Repeated)],
                    block: None,
                    returns: None,
                    mismatch: false,
                }]
            }
            FunctionSpec::V4 {
                dispatchers,
                scope_first: first,
                local_types,
            } => {
                scope_first = first;
                // A function's local types name types of its signatures
                // only: they are known while those are resolved.
                let shadowed = self.define_local_types(&local_types, &file, span)?;
                let resolved = self.resolve_dispatchers(dispatchers, span);
                for (name, before) in shadowed.into_iter().rev() {
                    match before {
                        Some(before) => self.type_aliases.insert(name, before),
                        None => self.type_aliases.remove(&name),
                    };
                }
                resolved?
            }
        };
        let function = Arc::new(RubyFunction {
            file,
            api,
            dispatchers,
            scope_first,
        });
        self.ruby
            .functions
            .insert(name.to_string(), Some(function.clone()));
        Ok(Some(function))
    }

    fn resolve_dispatchers(
        &mut self,
        dispatchers: Vec<marionette_ruby::Dispatcher>,
        span: Span,
    ) -> EvalResult<Vec<Dispatcher>> {
        let mut resolved = Vec::new();
        for d in dispatchers {
            let mut params = Vec::new();
            for p in d.params {
                params.push((p.name, self.type_from_text(&p.type_text, span)?, p.kind));
            }
            let block = match d.block {
                Some(b) => {
                    let shown = b.type_text.replace(", ", ",").replace(',', ", ");
                    Some((b.name, shown, b.optional))
                }
                None => None,
            };
            let returns = match d.returns {
                Some(text) => Some(self.type_from_text(&text, span)?),
                None => None,
            };
            resolved.push(Dispatcher {
                method: d.method,
                params,
                block,
                returns,
                mismatch: d.mismatch,
            });
        }
        Ok(resolved)
    }

    /// Makes a function's `local_types` known, returning what they
    /// shadowed.
    fn define_local_types(
        &mut self,
        assignments: &[String],
        file: &Path,
        span: Span,
    ) -> EvalResult<Vec<(String, Option<AliasDefinition<'p>>)>> {
        let mut shadowed = Vec::new();
        for assignment in assignments {
            let source = format!("type {assignment}");
            let name = file.display().to_string();
            let program = match crate::functions::leaked_program(
                &source,
                marionette_syntax::SourceKind::Manifest,
                &name,
            ) {
                Ok(program) => program,
                Err(message) => {
                    return fail_in_call(
                        format!("Invalid local type '{assignment}': {message}"),
                        span,
                    );
                }
            };
            for expr in &program.body {
                if let ExprKind::TypeAlias { name, value } = &expr.kind {
                    let before = self
                        .type_aliases
                        .insert(name.clone(), (&**value, self.file));
                    shadowed.push((name.clone(), before));
                }
            }
        }
        Ok(shadowed)
    }

    /// Calls a loaded Ruby function: the dispatcher chosen and the
    /// arguments checked here, the result checked against its type.
    pub(crate) fn call_ruby(
        &mut self,
        name: &str,
        function: &RubyFunction,
        args: Vec<Value>,
        lambda: Option<Closure<'p>>,
        span: Span,
    ) -> EvalResult<Value> {
        let block = match lambda {
            Some(lambda) => Block::Lambda(lambda),
            None => Block::None,
        };
        self.call_ruby_with(name, function, args, block, span)
    }

    /// A call from a module's Ruby code with a Ruby block (stdlib's
    /// `to_toml` giving one to `rewrap_sensitive_data`): as in Puppet, the
    /// called function is given the block itself, so it must be a Ruby
    /// function of the host; Puppet code cannot run a Ruby block here.
    pub(crate) fn call_with_ruby_block(
        &mut self,
        name: &str,
        args: Vec<Value>,
        count: usize,
        span: Span,
    ) -> EvalResult<Value> {
        let name = crate::evaluator::strip_top(name);
        match self.ruby_function(name, span)? {
            Some(function) => self.call_ruby_with(name, &function, args, Block::Ruby(count), span),
            None => fail_in_call(
                format!(
                    "call_function('{name}') with a Ruby block: Marionette gives Ruby blocks to functions written in Ruby only, and '{name}' is not one"
                ),
                span,
            ),
        }
    }

    /// [`Evaluator::call_ruby`] given a Puppet lambda, the Ruby block of
    /// the host's own call, or no block.
    fn call_ruby_with(
        &mut self,
        name: &str,
        function: &RubyFunction,
        args: Vec<Value>,
        block: Block<'p>,
        span: Span,
    ) -> EvalResult<Value> {
        let probe: Vec<Value> = if function.scope_first {
            std::iter::once(Value::Undef)
                .chain(args.iter().cloned())
                .collect()
        } else {
            Vec::new()
        };
        let given = if function.scope_first { &probe } else { &args };
        let (arity, count, lambda) = match block {
            Block::None => (None, None, None),
            Block::Lambda(lambda) => {
                let params = &lambda.lambda.params;
                (Some(Arity::of(params)), Some(params.len()), Some(lambda))
            }
            Block::Ruby(count) => (
                Some(Arity {
                    required: count,
                    most: Some(count),
                }),
                Some(count),
                None,
            ),
        };
        let chosen = function
            .dispatchers
            .iter()
            .position(|d| d.reject(given, arity).is_none());
        let Some(index) = chosen else {
            return fail_in_call(self.mismatch_message(name, function, given, arity), span);
        };
        let dispatcher = &function.dispatchers[index];
        let context = self.ruby_context();
        let value = self.with_host(span, lambda, &function.file, name, |host, answers| {
            answers.closure_top = function.api == marionette_ruby::Api::V4;
            host.call_function(
                &marionette_ruby::Call {
                    name,
                    api: function.api,
                    dispatcher: index,
                    args: &args,
                    block: count,
                    ruby_block: matches!(block, Block::Ruby(_)),
                    context,
                },
                answers,
            )
        })?;
        if let Some(expected) = &dispatcher.returns
            && !dispatcher.mismatch
            && !expected.is_instance(&value)
        {
            return fail_in_call(
                format!(
                    "value returned from function '{}' has wrong type, expects {} value, got {}",
                    dispatcher.method,
                    a_type(expected),
                    describe_actual(expected, &value)
                ),
                span,
            );
        }
        Ok(value)
    }

    /// Puppet's description of a call no signature accepts.
    fn mismatch_message(
        &self,
        name: &str,
        function: &RubyFunction,
        args: &[Value],
        lambda: Option<Arity>,
    ) -> String {
        let signatures: Vec<&Dispatcher> = function
            .dispatchers
            .iter()
            .filter(|d| !d.mismatch)
            .collect();
        let rejections: Vec<Rejection> = signatures
            .iter()
            .map(|d| d.reject(args, lambda).unwrap_or(Rejection::Count))
            .collect();
        // Count mismatches alone merge into one range, as Puppet's do.
        if rejections.iter().all(|r| matches!(r, Rejection::Count)) {
            let min = signatures.iter().map(|d| d.min()).min().unwrap_or(0);
            let max = signatures
                .iter()
                .map(|d| d.max())
                .try_fold(0, |most, max| max.map(|m| most.max(m)));
            return format!("'{name}' {}", count_text(min, max, args.len()));
        }
        let reason = |d: &Dispatcher, r: &Rejection| match r {
            Rejection::Count => count_text(d.min(), d.max(), args.len()),
            Rejection::Other(text) => text.clone(),
        };
        if let [only] = signatures.as_slice() {
            return format!("'{name}' {}", reason(only, &rejections[0]));
        }
        let mut text = format!(
            "The function '{name}' was called with arguments it does not accept. It expects one of:"
        );
        for (d, r) in signatures.iter().zip(&rejections) {
            text.push_str(&format!(
                "\n  ({})\n    rejected: {}",
                d.signature(),
                reason(d, r)
            ));
        }
        text
    }

    /// `template()` and `inline_template()`: ERB in the Ruby host, each
    /// argument rendered and the results joined.
    pub(crate) fn render_erb(
        &mut self,
        function: &str,
        args: &[Value],
        span: Span,
    ) -> EvalResult<Value> {
        let mut output = String::new();
        for arg in args {
            let text = to_s(arg);
            let (file, source) = if function == "inline_template" {
                (None, text.clone())
            } else {
                let found = if Path::new(&text).is_absolute() {
                    Some(PathBuf::from(&text)).filter(|p| p.is_file())
                } else {
                    self.loader
                        .as_ref()
                        .and_then(|l| l.module_file(&text, "templates"))
                        .filter(|p| p.is_file())
                };
                let Some(file) = found else {
                    return fail_in_call(format!("Could not find template '{text}'"), span);
                };
                match std::fs::read_to_string(&file) {
                    Ok(source) => (Some(file), source),
                    Err(e) => {
                        return fail_in_call(
                            format!("Could not read template '{}': {e}", file.display()),
                            span,
                        );
                    }
                }
            };
            let variables = self.template_variables(&source);
            let context = self.ruby_context();
            let what = file
                .clone()
                .unwrap_or_else(|| PathBuf::from("inline template"));
            let template = match &file {
                Some(path) => Template::File(path),
                None => Template::Inline(&source),
            };
            let rendered = self.with_host_raw(span, None, |host, answers| {
                host.render(template.clone(), &variables, &context, answers)
            });
            match rendered {
                Ok(rendered) => {
                    output.push_str(&rendered.text);
                    for (name, value) in rendered.changed {
                        self.write_back(&name, value);
                    }
                }
                Err(RubyFailure::Stop(stop)) => return Err(stop),
                Err(RubyFailure::Host(HostError::Raised {
                    message,
                    template_line,
                    ..
                })) => {
                    let message = match &file {
                        Some(path) => format!(
                            "Failed to parse template {text}:\n  Filepath: {}\n  Line: {}\n  Detail: {message}\n",
                            path.display(),
                            template_line.map_or_else(String::new, |l| l.to_string())
                        ),
                        None => format!("Failed to parse inline template: {message}"),
                    };
                    return fail_in_call(message, span);
                }
                Err(RubyFailure::Host(error)) => {
                    return fail_in_call(host_failure(function, &what, error), span);
                }
            }
        }
        Ok(Value::string(output))
    }

    /// The variables a template's text names as `@name`, as the calling
    /// scope sees them: Puppet gives a template every visible variable,
    /// but only those it names can matter.
    fn template_variables(&mut self, source: &str) -> PHash {
        let mut variables = PHash::default();
        let bytes = source.as_bytes();
        let mut i = 0;
        while let Some(at) = source[i..].find('@') {
            let start = i + at + 1;
            let end = source[start..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .map_or(source.len(), |n| start + n);
            i = end.max(start);
            let preceded = start >= 2 && bytes[start - 2] == b'@';
            if end == start || preceded || bytes[start].is_ascii_digit() {
                continue;
            }
            let name = &source[start..end];
            let key = Value::string(name);
            if variables.contains_key(&key) {
                continue;
            }
            // As Puppet's `scope.to_hash`, variables whose value is undef
            // are left out: `defined?(@name)` is false for them.
            if let Some(value) = self.visible_variable(self.current, name)
                && !matches!(value, Value::Undef)
            {
                variables.insert(key, value);
            }
        }
        variables
    }

    /// A variable whose array or hash a template changed in place gets the
    /// new value, and so does the parameter of its scope's resource that
    /// held the same value: in Puppet both are the very object the
    /// template changed.
    fn write_back(&mut self, name: &str, value: Value) {
        let mut id = self.current;
        while !self.scopes.get(id).variables.contains_key(name) {
            match self.scopes.get(id).parent {
                Some(parent) => id = parent,
                None => return,
            }
        }
        let old = self
            .scopes
            .get_mut(id)
            .variables
            .insert(name.to_string(), value.clone());
        let (Some(old), Some(resource)) = (old, self.scopes.get(id).resource) else {
            return;
        };
        for param in self.compiler.resources[resource].params.values_mut() {
            let same = match (&param.value, &old) {
                (Value::Array(a), Value::Array(b)) => Arc::ptr_eq(a, b),
                (Value::Hash(a), Value::Hash(b)) => Arc::ptr_eq(a, b),
                _ => false,
            };
            if same {
                param.value = value.clone();
            }
        }
    }

    fn ruby_context(&self) -> Context {
        let module = self
            .scopes
            .lookup(self.current, "module_name")
            .map(to_s)
            .filter(|m| !m.is_empty());
        Context {
            module,
            scope: self.scopes.get(self.current).label.to_string(),
        }
    }

    /// Runs `request` against the host, reporting failures at `span` and
    /// naming the function and its file.
    fn with_host<T>(
        &mut self,
        span: Span,
        lambda: Option<Closure<'p>>,
        file: &Path,
        function: &str,
        request: impl FnOnce(&RubyHost, &mut Answers<'_, 'p>) -> Result<T, HostError>,
    ) -> EvalResult<T> {
        match self.with_host_raw(span, lambda, request) {
            Ok(value) => Ok(value),
            Err(RubyFailure::Stop(stop)) => Err(stop),
            Err(RubyFailure::Host(error)) => {
                fail_in_call(host_failure(function, file, error), span)
            }
        }
    }

    fn with_host_raw<T>(
        &mut self,
        span: Span,
        lambda: Option<Closure<'p>>,
        request: impl FnOnce(&RubyHost, &mut Answers<'_, 'p>) -> Result<T, HostError>,
    ) -> Result<T, RubyFailure> {
        let Some(host) = self.ruby.host.clone() else {
            return Err(RubyFailure::Host(HostError::NoRuby {
                ruby: PathBuf::from("ruby"),
                message: "this compile has no Ruby host".into(),
            }));
        };
        let mut answers = Answers {
            eval: self,
            span,
            lambda,
            failure: None,
            closure_top: false,
        };
        if !answers.eval.ruby.reset {
            answers.eval.ruby.reset = true;
            host.reset(&mut answers).map_err(RubyFailure::Host)?;
        }
        let result = request(&host, &mut answers);
        match (result, answers.failure.take()) {
            (Ok(value), _) => Ok(value),
            // The engine's own error, passed back through the Ruby code,
            // is reported as the engine made it, with its place.
            (
                Err(HostError::Raised {
                    from_engine: true, ..
                }),
                Some(failure),
            ) => Err(RubyFailure::Stop(failure)),
            (Err(error), _) => Err(RubyFailure::Host(error)),
        }
    }

    /// A type written as text in a Ruby file, module aliases resolved.
    fn type_from_text(&mut self, text: &str, span: Span) -> EvalResult<PType> {
        if let Ok(t) = marionette_values::parse_type(text)
            && !mentions_unknown_names(&t)
        {
            return Ok(t);
        }
        let program = match crate::functions::leaked_program(
            text,
            marionette_syntax::SourceKind::Manifest,
            "type",
        ) {
            Ok(program) => program,
            Err(message) => return fail_in_call(format!("Invalid type '{text}': {message}"), span),
        };
        match self.statements(&program.body)? {
            Value::Type(t) => Ok(*t),
            other => fail_in_call(
                format!(
                    "'{text}' is not a type, it is {}",
                    marionette_values::format::type_label(&other)
                ),
                span,
            ),
        }
    }
}

/// The description of a module's resource type, by the Ruby host.
pub(crate) fn describe_type(
    eval: &mut Evaluator<'_>,
    type_name: &str,
    file: &Path,
    span: Span,
) -> EvalResult<marionette_ruby::TypeSpec> {
    match eval.with_host_raw(span, None, |host, answers| {
        host.describe_type(type_name, file, answers)
    }) {
        Ok(spec) => Ok(spec),
        Err(RubyFailure::Stop(stop)) => Err(stop),
        Err(RubyFailure::Host(error)) => {
            let message = match error {
                HostError::NoRuby { message, .. } => format!(
                    "The resource type '{type_name}' is written in Ruby ({}), and reading it needs Ruby: {message}. Install Ruby 3.1 or later (apt-get install ruby), or set MARIONETTE_RUBY to the interpreter",
                    file.display()
                ),
                HostError::Raised { message, .. } => format!(
                    "Could not load the resource type '{type_name}' from {}: {message}",
                    file.display()
                ),
                HostError::Broken(message) | HostError::FactBroken { message, .. } => {
                    format!("{message} (while reading {})", file.display())
                }
            };
            crate::error::fail(message, span)
        }
    }
}

/// The attributes `title` gives a resource of the module type
/// `type_name` (declared in `file`) through its title patterns, by the
/// Ruby host (their procs are Ruby).
pub(crate) fn parse_title(
    eval: &mut Evaluator<'_>,
    (type_name, file): (&str, &Path),
    title: &str,
    span: Span,
) -> Result<Vec<(String, Value)>, String> {
    match eval.with_host_raw(span, None, |host, answers| {
        host.parse_title(type_name, file, title, answers)
    }) {
        Ok(values) => Ok(values),
        Err(RubyFailure::Stop(_)) => Err(format!("Could not parse the title '{title}'")),
        Err(RubyFailure::Host(HostError::Raised { message, .. })) => Err(message),
        Err(RubyFailure::Host(other)) => Err(other.to_string()),
    }
}

/// Whether a parsed type names something the plain parser could not
/// know (a resource type, or an alias it took for one).
fn mentions_unknown_names(t: &PType) -> bool {
    let text = t.to_string();
    text.contains("::") || matches!(t, PType::Resource { .. })
}

/// A type alias's definition and its file, as the evaluator keeps them.
type AliasDefinition<'p> = (&'p Expr, &'p SourceFile);

enum RubyFailure {
    Stop(Stop),
    Host(HostError),
}

/// A host failure in Puppet's place for errors: the message, and for a
/// failure of the host itself, the function and its file.
fn host_failure(function: &str, file: &Path, error: HostError) -> String {
    match error {
        HostError::Raised { message, .. } => message,
        HostError::NoRuby { message, .. } => format!(
            "The function '{function}' is written in Ruby ({}), and running it needs Ruby: {message}. Install Ruby 3.1 or later (apt-get install ruby), or set MARIONETTE_RUBY to the interpreter",
            file.display()
        ),
        HostError::Broken(message) | HostError::FactBroken { message, .. } => {
            format!(
                "{message} (while running '{function}' from {})",
                file.display()
            )
        }
    }
}

/// The evaluator answering the host's questions during one request.
pub(crate) struct Answers<'e, 'p> {
    eval: &'e mut Evaluator<'p>,
    span: Span,
    /// The lambda given to the call being answered.
    lambda: Option<Closure<'p>>,
    /// The engine's failure while answering, kept to be reported as it is
    /// if the Ruby code lets it through.
    failure: Option<Stop>,
    /// The request runs a 4.x function, whose `call_function` calls from
    /// its closure scope, the top scope, as in Puppet: what inifile's
    /// `create_ini_settings` declares through `create_resources` is in
    /// Class[main] with its tags, not in the calling class.
    closure_top: bool,
}

impl Answers<'_, '_> {
    fn fail(&mut self, stop: Stop) -> String {
        let message = match &stop {
            Stop::Error(error) => error.message.clone(),
            _ => "a control statement left the function".to_string(),
        };
        self.failure = Some(stop);
        message
    }
}

impl Engine for Answers<'_, '_> {
    fn answer(&mut self, question: Question) -> Result<Answer, String> {
        let span = self.span;
        Ok(match question {
            Question::LookupVar(name) => Answer::Variable(self.eval.lookup_quietly(&name)),
            Question::SetVar(name, value) => {
                let current = self.eval.current;
                self.eval
                    .scopes
                    .get_mut(current)
                    .variables
                    .insert(name, value);
                Answer::Done
            }
            Question::Variables => {
                self.eval.all_facts();
                let mut all = PHash::default();
                for (name, value) in self.eval.scopes.visible(self.eval.current) {
                    all.insert(Value::string(name), value);
                }
                Answer::Variables(all)
            }
            Question::Call { name, args, block } => {
                let saved = self.eval.current;
                if self.closure_top {
                    self.eval.current = crate::scope::TOP_SCOPE;
                }
                let called = match block {
                    None => self.eval.call_named_here(&name, args, None, span, span),
                    Some(count) => self.eval.call_with_ruby_block(&name, args, count, span),
                };
                self.eval.current = saved;
                match called {
                    Ok(value) => Answer::Value(value),
                    Err(stop) => return Err(self.fail(stop)),
                }
            }
            Question::Exists(name) => Answer::Flag(
                self.eval.is_function(&name)
                    || self
                        .eval
                        .ruby_function(&name, span)
                        .ok()
                        .flatten()
                        .is_some(),
            ),
            Question::Yield(args) => {
                let Some(lambda) = self.lambda else {
                    return Err("no block was given".into());
                };
                match self.eval.call_lambda(&lambda, args, span) {
                    Ok(value) => Answer::Value(value),
                    Err(stop) => return Err(self.fail(stop)),
                }
            }
            Question::FindResource { type_name, title } => {
                Answer::Resource(self.eval.compiler.find(&type_name, &title).map(|id| {
                    let mut params = PHash::default();
                    for (name, param) in self.eval.compiler.resources[id].params.iter() {
                        params.insert(Value::string(name.as_str()), param.value.clone());
                    }
                    params
                }))
            }
            Question::CatalogInfo => Answer::Catalog {
                classes: self.eval.compiler.classes.clone(),
                tags: Vec::new(),
            },
            Question::Instance { type_text, value } => {
                match self.eval.type_from_text(&type_text, span) {
                    Ok(t) => Answer::Flag(t.is_instance(&value)),
                    Err(stop) => return Err(self.fail(stop)),
                }
            }
            Question::Assignable { type_text, other } => {
                let a = self.eval.type_from_text(&type_text, span);
                let b = self.eval.type_from_text(&other, span);
                match (a, b) {
                    (Ok(a), Ok(b)) => Answer::Flag(a.is_assignable(&b)),
                    (Err(stop), _) | (_, Err(stop)) => return Err(self.fail(stop)),
                }
            }
            Question::Infer(value) => Answer::Text(PType::infer(&value).to_string()),
            Question::Format(value) => Answer::Text(to_s(&value)),
            Question::CompareVersions(a, b) => {
                Answer::Ordering(crate::functions::misc::compare_versions(&a, &b))
            }
            Question::Setting(name) => Answer::Value(match name.as_str() {
                "strict_variables" => Value::Boolean(self.eval.strict_variables),
                "strict" => Value::string("warning"),
                "environment" => Value::string(self.eval.environment.as_str()),
                "storeconfigs" => Value::Boolean(self.eval.exported_store.is_some()),
                "tasks" => Value::Boolean(false),
                _ => Value::Undef,
            }),
            Question::ModuleDirectory(name) => {
                Answer::Path(self.eval.loader.as_ref().and_then(|l| l.module_dir(&name)))
            }
            // A compile runs no commands for Ruby code: the host runs them
            // itself, as Puppet's compiler would.
            Question::Execute(_) => return Err("the compiler runs no commands".into()),
            Question::SetParameter { .. } | Question::CatalogResources(_) => {
                return Err("only a catalog being applied is read or set so".into());
            }
            // Nothing to stop: a compile is no run.
            Question::StopRun => Answer::Done,
            Question::CoreProvider(_) | Question::CoreCall { .. } => {
                return Err("a compile drives no provider".into());
            }
        })
    }

    fn log(&mut self, level: &str, _source: Option<&str>, message: &str) {
        let level = match level {
            "debug" => Level::Debug,
            "info" => Level::Info,
            "warning" => Level::Warning,
            "err" | "error" => Level::Err,
            "alert" => Level::Alert,
            "emerg" => Level::Emerg,
            "crit" => Level::Crit,
            _ => Level::Notice,
        };
        self.eval.logs.push(LogEntry {
            level,
            source: String::new(),
            message: message.to_string(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repeated(t: PType, block: Option<&str>) -> Dispatcher {
        Dispatcher {
            method: "m".into(),
            params: vec![("args".into(), t, ParamKind::Repeated)],
            block: block.map(|text| ("block".into(), text.into(), false)),
            returns: None,
            mismatch: false,
        }
    }

    fn text(rejection: Option<Rejection>) -> String {
        match rejection {
            None => "fits".into(),
            Some(Rejection::Count) => "count".into(),
            Some(Rejection::Other(text)) => text,
        }
    }

    /// stdlib 9's `merge`: its signatures differ by the block's arity, and
    /// a refused block is named before refused arguments, as Puppet does.
    #[test]
    fn a_block_is_chosen_by_its_arity_and_described_first() {
        let two = Arity {
            required: 2,
            most: Some(2),
        };
        let array = [Value::array(vec![Value::Integer(1)])];
        let iterable = PType::Iterable(None);
        assert_eq!(
            text(repeated(iterable.clone(), Some("Callable[2, 2]")).reject(&array, Some(two))),
            "fits"
        );
        assert_eq!(
            text(repeated(iterable, Some("Callable[3,3]")).reject(&array, Some(two))),
            "block expects 3 arguments, got 2"
        );
        assert_eq!(
            text(
                repeated(
                    PType::Integer {
                        min: i64::MIN,
                        max: i64::MAX
                    },
                    None
                )
                .reject(&array, Some(two))
            ),
            "does not expect a block"
        );
        // A missing block is named after the arguments (Puppet's
        // recording: tests/ruby/functions 0002).
        let integer = PType::Integer {
            min: i64::MIN,
            max: i64::MAX,
        };
        assert_eq!(
            text(repeated(integer.clone(), Some("Callable[1, 1]")).reject(&array, None)),
            format!("parameter 'args' {}", mismatch_text(&integer, &array[0]))
        );
        assert_eq!(
            text(repeated(PType::Iterable(None), Some("Callable[1, 1]")).reject(&array, None)),
            "expects a block"
        );
    }
}

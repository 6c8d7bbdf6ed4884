//! Resource statements, classes, defined types and nodes.

use super::Params;
use std::rc::Rc;
use std::sync::Arc;

use marionette_diagnostics::Span;
use marionette_syntax::ast::{AttributeOperation, ExprKind, Node, Resource, ResourceForm};
use marionette_values::format::{to_s, type_label};
use marionette_values::types::capitalize_segments;
use marionette_values::{PType, Value};

use super::builtin_types::{self, METAPARAMETERS};
use super::{Kind, Param, Res, ResId, Source};
use crate::error::{EvalError, EvalResult, Stop, fail};
use crate::evaluator::{Def, Evaluator, mismatch_text, strip_top};
use crate::scope::{ScopeId, TOP_SCOPE};

/// How deep collections may nest in a resource's parameter: far above
/// what real code writes, and far below what applying a catalog (parsing
/// it, showing a value, comparing it, writing the report, all recursive on
/// an ordinary stack) survives even in a debug build (about 3,000 levels).
pub(crate) const MAX_PARAMETER_DEPTH: usize = 1000;

/// Attribute values of one resource body, with where each was written.
pub(crate) type Attributes = Vec<(String, Value, Span, bool)>;

impl<'p> Evaluator<'p> {
    /// The file name and line of a span in the file being evaluated.
    pub(crate) fn place(&self, span: Span) -> (Arc<str>, u32) {
        (self.file_name.clone(), self.file.line(span.start) as u32)
    }

    /// The parameter `name` set to `value` by code from `source` at
    /// `span`. A value nested deeper than [`MAX_PARAMETER_DEPTH`] fails
    /// here, where its place is known: the catalog, the run and its report
    /// all walk parameters recursively, outside the compiler's deep stack.
    pub(crate) fn param(
        &self,
        name: &str,
        value: Value,
        source: Source,
        span: Span,
        append: bool,
    ) -> EvalResult<Param> {
        if value.nested_deeper_than(MAX_PARAMETER_DEPTH) {
            return fail(
                format!(
                    "The value of parameter '{name}' is nested more than {MAX_PARAMETER_DEPTH} levels deep"
                ),
                span,
            );
        }
        let (file, line) = self.place(span);
        Ok(Param {
            value,
            source,
            file,
            line,
            append,
        })
    }

    /// Attribute operations as parameters set by code from `source`.
    pub(crate) fn params_from(
        &self,
        attributes: Attributes,
        source: &Source,
    ) -> EvalResult<Vec<(String, Param)>> {
        attributes
            .into_iter()
            .map(|(name, value, span, append)| {
                let param = self.param(&name, value, source.clone(), span, append)?;
                Ok((name, param))
            })
            .collect()
    }

    /// The resource whose code is running.
    pub(crate) fn scope_resource(&self) -> ResId {
        self.scopes.resource(self.current).unwrap_or(0)
    }

    /// The code a scope belongs to, for override checks.
    pub(crate) fn source_of(&self, scope: ScopeId) -> Source {
        match self.scopes.resource(scope) {
            Some(id) => {
                let res = &self.compiler.resources[id];
                match res.kind {
                    Kind::Class if res.title == "main" => Source::Main,
                    Kind::Class => Source::Class(res.title.clone()),
                    Kind::Node => Source::Node(res.title.clone()),
                    Kind::Defined => Source::Define(res.type_name.clone()),
                    Kind::Builtin => Source::Main,
                }
            }
            None => Source::Main,
        }
    }

    /// Whether code in `child` may override values set by `parent`: the
    /// same code, or a class inheriting from it.
    pub(crate) fn source_child_of(&self, child: &Source, parent: &Source) -> bool {
        if *child == Source::Anywhere {
            return true;
        }
        let Source::Class(mut name) = child.clone() else {
            return false;
        };
        // Inheritance chains are short; the bound guards against a cycle.
        for _ in 0..100 {
            let Some(def) = self.classes.get(&name) else {
                return false;
            };
            let Some(parent_name) = &def.def.parent else {
                return false;
            };
            name = strip_top(parent_name).to_lowercase();
            if *parent == Source::Class(name.clone()) {
                return true;
            }
        }
        false
    }

    /// Starts the catalog the way Puppet does: `Stage[main]`, the empty
    /// `Class[Settings]` and `Class[main]`, whose scope is the top scope.
    pub(crate) fn start_catalog(&mut self) {
        if !self.compiler.resources.is_empty() {
            return;
        }
        let stage = self.new_res("stage", "main", Kind::Builtin, TOP_SCOPE, None);
        self.compiler.resources[stage].finished = true;
        self.compiler.resources[stage].tags.shift_remove("main");
        let name = |title: &str| Param {
            value: Value::string(title),
            source: Source::Main,
            file: Arc::from(""),
            line: 0,
            append: false,
        };
        self.compiler.resources[stage]
            .params
            .insert("name".into(), name("main"));
        let settings = self.new_res("class", "settings", Kind::Class, TOP_SCOPE, None);
        self.compiler.resources[settings].evaluated = true;
        self.compiler.edges.push((stage, settings));
        self.compiler.classes.push("settings".into());
        let main = self.new_res("class", "main", Kind::Class, TOP_SCOPE, None);
        let res = &mut self.compiler.resources[main];
        res.evaluated = true;
        res.tags.shift_remove("main");
        res.params.insert("name".into(), name("main"));
        self.compiler.edges.push((stage, main));
        self.scopes.get_mut(TOP_SCOPE).resource = Some(main);
        let settings_scope = self
            .scopes
            .create(TOP_SCOPE, Some(Rc::from("Class[Settings]")));
        self.scopes.get_mut(settings_scope).resource = Some(settings);
        self.class_scopes.insert("settings".into(), settings_scope);
    }

    /// Creates a resource and adds it to the index (not to containment).
    fn new_res(
        &mut self,
        type_name: &str,
        title: &str,
        kind: Kind,
        scope: ScopeId,
        at: Option<(Arc<str>, u32)>,
    ) -> ResId {
        let mut tags = super::Tags::default();
        super::add_tag(&mut tags, type_name);
        super::add_tag(&mut tags, title);
        let (file, line) = match at {
            Some((file, line)) => (Some(file), Some(line)),
            None => (None, None),
        };
        let id = self.compiler.resources.len();
        self.scopes.get_mut(scope).pinned = true;
        let container = self.scopes.resource(scope).unwrap_or(id);
        self.compiler.resources.push(Res {
            type_name: type_name.to_string(),
            title: title.to_string(),
            params: Params::default(),
            tags,
            file,
            line,
            kind,
            is_virtual: false,
            exported: false,
            scope,
            container,
            source: self.source_of(scope),
            evaluated: false,
            finished: false,
            keep_name: false,
        });
        self.compiler.index_as(type_name, title, id);
        if kind == Kind::Builtin
            && let Some(declared) = &self.declared
        {
            declared(type_name, title);
        }
        id
    }

    /// Evaluates a resource statement: each title of each body becomes a
    /// resource (or a class declaration), and the statement's value is the
    /// references (or undef when the caller does not `want` them).
    pub(crate) fn resource(
        &mut self,
        resource: &'p Resource,
        statement: Span,
        want: bool,
    ) -> EvalResult<Value> {
        // Without a store for exported resources (storeconfigs), Puppet
        // keeps them out of the catalog and says so.
        if resource.form == ResourceForm::Exported && self.exported_store.is_none() {
            self.warn_at(
                "You cannot collect exported resources without storeconfigs being set; the export is ignored",
                statement,
            );
        }
        let (type_name, shown) = self.resource_type_name(&resource.type_name)?;
        let at = resource.type_name.span;
        let kind = if type_name == "class" {
            Kind::Class
        } else if let Some(kind) = self.resource_kind(&type_name, at)? {
            kind
        } else {
            return fail(
                format!(
                    "Error while evaluating a Resource Statement, {}",
                    self.unknown_type_message(&shown)
                ),
                at,
            );
        };
        let mut references = Vec::new();
        // A body titled `default:` gives defaults to the other bodies.
        let mut body_defaults: Attributes = Vec::new();
        for body in &resource.bodies {
            if matches!(body.title.kind, ExprKind::Default) {
                body_defaults = self.attribute_list(&body.operations)?;
            }
        }
        for body in &resource.bodies {
            if matches!(body.title.kind, ExprKind::Default) {
                continue;
            }
            let title = self.eval(&body.title)?;
            let mut attributes = self.attribute_list(&body.operations)?;
            for default in &body_defaults {
                if !attributes.iter().any(|(name, ..)| *name == default.0) {
                    attributes.push(default.clone());
                }
            }
            let titles = match title {
                Value::Array(items) => std::sync::Arc::unwrap_or_clone(items),
                other => vec![other],
            };
            for title in titles {
                let title_text = match &title {
                    Value::String(text) => text.to_string(),
                    Value::Default => "default".to_string(),
                    other => {
                        return fail(
                            format!(
                                "Error while evaluating a Resource Statement, Illegal title type at index 0. Expected String, got {}",
                                type_label(other)
                            ),
                            body.title.span,
                        );
                    }
                };
                if kind == Kind::Class {
                    let arguments = attributes.clone();
                    self.declare_class(&title_text, Some(arguments), at)?;
                    if want {
                        references.push(Value::Type(Box::new(PType::Class(Some(
                            strip_top(&title_text).to_lowercase(),
                        )))));
                    }
                    continue;
                }
                self.declare_resource(
                    &type_name,
                    &title_text,
                    kind,
                    resource.form,
                    &attributes,
                    at,
                )?;
                if want {
                    references.push(Value::Type(Box::new(PType::Resource {
                        type_name: Some(type_name.clone()),
                        title: Some(title_text),
                    })));
                }
            }
        }
        Ok(if !want {
            Value::Undef
        } else if references.len() == 1 {
            references.pop().unwrap_or(Value::Undef)
        } else {
            Value::array(references)
        })
    }

    /// The type of a resource statement, lower case, and as an unknown
    /// type's message shows it. A name is the type itself; `Resource[...]`
    /// and `Class` are evaluated and must give an untitled resource type
    /// or `Class`; Puppet parses other expressions there (`$type { ... }`)
    /// but rejects them when evaluating.
    fn resource_type_name(
        &mut self,
        expr: &'p marionette_syntax::ast::Expr,
    ) -> EvalResult<(String, String)> {
        if let ExprKind::Name(name) | ExprKind::TypeRef(name) = &expr.kind {
            let name = strip_top(name).to_lowercase();
            return Ok((name.clone(), name));
        }
        let acceptable = matches!(
            &expr.kind,
            ExprKind::Access { target, .. } if matches!(target.kind, ExprKind::TypeRef(_))
        );
        let value = self.eval(expr)?;
        let illegal = |actual: String| {
            fail(
                format!(
                    "Illegal Resource Type expression, expected result to be a type name, or untitled Resource, got {actual}"
                ),
                expr.span,
            )
        };
        if !acceptable {
            return illegal(PType::infer(&value).generalize().to_string());
        }
        match &value {
            Value::Type(t) => match &**t {
                PType::Class(None) => Ok(("class".to_string(), "class".to_string())),
                PType::Resource {
                    type_name: Some(name),
                    title: None,
                } => Ok((name.clone(), capitalize_segments(name))),
                other => illegal(other.to_string()),
            },
            other => illegal(PType::infer(other).generalize().to_string()),
        }
    }

    /// What kind of resource a type declares: a core or agent type, a
    /// defined type, or a module's type (made known on first use); `None`
    /// when there is no such type.
    fn resource_kind(&mut self, type_name: &str, at: Span) -> EvalResult<Option<Kind>> {
        Ok(if builtin_types::is_builtin(type_name) {
            Some(Kind::Builtin)
        } else if self.find_define(type_name)?.is_some() {
            Some(Kind::Defined)
        } else if self.module_type(type_name, at)? {
            Some(Kind::Builtin)
        } else {
            None
        })
    }

    /// Declares one resource with the given values, as a resource
    /// statement in the current scope would (functions such as stdlib's
    /// `ensure_resource` declare resources so).
    pub(crate) fn declare_from_function(
        &mut self,
        type_name: &str,
        title: &Value,
        params: &marionette_values::PHash,
        at: Span,
    ) -> EvalResult<()> {
        self.declare_from_function_as(type_name, title, params, ResourceForm::Regular, at)
    }

    /// [`Self::declare_from_function`] for a resource of the given form
    /// (`create_resources('@type', ...)` declares virtual resources).
    pub(crate) fn declare_from_function_as(
        &mut self,
        type_name: &str,
        title: &Value,
        params: &marionette_values::PHash,
        form: ResourceForm,
        at: Span,
    ) -> EvalResult<()> {
        let type_name = strip_top(type_name).to_lowercase();
        let mut attributes: Attributes = params
            .iter()
            .map(|(k, v)| (to_s(k), v.clone(), at, false))
            .collect();
        // A title that is not a string (`create_resources('x', {80 =>
        // {}})`) becomes the text of the title and of `name`, as Puppet's
        // runtime makes it.
        let title_value = title;
        let title_text = to_s(title);
        if !matches!(title, Value::String(_))
            && type_name != "class"
            && !attributes.iter().any(|(name, ..)| name == "name")
        {
            attributes.push(("name".into(), Value::string(title_text.as_str()), at, false));
        }
        let title = title_text.as_str();
        let declared = if type_name == "class" {
            self.declare_class(title, Some(attributes), at).map(|_| ())
        } else {
            let Some(kind) = self.resource_kind(&type_name, at)? else {
                return crate::error::fail_in_call(self.unknown_type_message(&type_name), at);
            };
            self.declare_resource(&type_name, title, kind, form, &attributes, at)
                .map(|id| {
                    // Puppet tags a resource with its title only when the
                    // title is a string.
                    if !matches!(title_value, Value::String(_)) {
                        let res = &mut self.compiler.resources[id];
                        res.keep_name = true;
                        if !type_name.split("::").any(|segment| segment == title) {
                            res.tags.shift_remove(title);
                        }
                    }
                })
        };
        match declared {
            Ok(()) => Ok(()),
            // The failure is the function call's, as Puppet words it.
            Err(Stop::Error(mut error)) => {
                if let Some(rest) = error
                    .message
                    .strip_prefix("Error while evaluating a Resource Statement, ")
                {
                    error.message = rest.to_string();
                    error.from_call = true;
                }
                Err(Stop::Error(error))
            }
            Err(other) => Err(other),
        }
    }

    /// A declared resource's value of a parameter: `None` when no such
    /// resource exists, `Some(None)` when it does without that parameter.
    pub(crate) fn declared_param(
        &self,
        type_name: &str,
        title: &str,
        param: &str,
    ) -> Option<Option<Value>> {
        let id = self.compiler.find(type_name, title)?;
        Some(
            self.compiler.resources[id]
                .params
                .get(param)
                .map(|p| p.value.clone()),
        )
    }

    /// "Resource type not found", with a hint when a type of a similar
    /// name exists.
    fn unknown_type_message(&self, type_name: &str) -> String {
        let known = builtin_types::names()
            .into_iter()
            .chain(self.defines.keys().cloned());
        format!(
            "Unknown resource type: '{type_name}'{}",
            did_you_mean(type_name, known)
        )
    }

    /// Evaluates attribute operations into `(name, value, span, append)`
    /// in order (`* => $hash` contributes its entries).
    pub(crate) fn attribute_list(
        &mut self,
        operations: &'p [AttributeOperation],
    ) -> EvalResult<Attributes> {
        let mut values: Attributes = Vec::new();
        for operation in operations {
            match operation {
                AttributeOperation::Set {
                    name,
                    value,
                    append,
                    span,
                } => {
                    let value = self.eval(value)?;
                    values.push((name.clone(), value, *span, *append));
                }
                AttributeOperation::Splat { value, span } => match self.eval(value)? {
                    Value::Hash(hash) => {
                        for (k, v) in hash.iter() {
                            values.push((to_s(k), v.clone(), *span, false));
                        }
                    }
                    other => {
                        return fail(
                            format!(
                                "The value of '* =>' must be a Hash, got {}",
                                type_label(&other)
                            ),
                            value.span,
                        );
                    }
                },
            }
        }
        Ok(values)
    }

    /// Adds one resource of a core or defined type.
    fn declare_resource(
        &mut self,
        type_name: &str,
        title: &str,
        kind: Kind,
        form: ResourceForm,
        attributes: &Attributes,
        at: Span,
    ) -> EvalResult<ResId> {
        let statement = |message: String| -> EvalResult<ResId> {
            fail(
                format!("Error while evaluating a Resource Statement, {message}"),
                at,
            )
        };
        if title.is_empty() {
            return statement("Missing title. The title expression resulted in undef".into());
        }
        let place = self.place(at);
        // The namevar's name is looked up once, not per attribute: this
        // runs for every resource of a manifest.
        let namevar = (kind == Kind::Builtin && builtin_types::isomorphic(type_name))
            .then(|| builtin_types::namevar(type_name));
        let namevar_value = namevar
            .and_then(|namevar| {
                attributes
                    .iter()
                    .rev()
                    .find(|(name, ..)| **name == *namevar)
            })
            .and_then(|(_, value, ..)| match value {
                Value::String(text) if &**text != title => Some(text.to_string()),
                _ => None,
            });
        let by_title = self.compiler.find(type_name, title);
        let by_namevar = namevar_value
            .as_ref()
            .and_then(|v| self.compiler.find(type_name, v));
        if let Some(existing) = by_title.or(by_namevar) {
            let old = &self.compiler.resources[existing];
            let declared = match (&old.file, old.line) {
                (Some(file), Some(line)) => format!(" (file: {file}, line: {line})"),
                _ => String::new(),
            };
            let (file, line) = place;
            let type_ref = capitalize_segments(type_name);
            return statement(match (by_title, &namevar_value) {
                // Another title for what an earlier resource manages:
                // Puppet words it as a failed alias.
                (None, Some(value)) => format!(
                    "Cannot alias {type_ref}[{title}] to [\"{value}\"] at (file: {file}, line: {line}); resource [\"{type_ref}\", \"{value}\"] already declared{declared}"
                ),
                _ => {
                    let location = if declared.is_empty() {
                        String::new()
                    } else {
                        format!(" at{declared}")
                    };
                    let reference = match &namevar_value {
                        Some(value) => format!("{type_ref}[{value}]"),
                        None => format!("{type_ref}[{title}]"),
                    };
                    format!(
                        "Duplicate declaration: {reference} is already declared{location}; cannot redeclare (file: {file}, line: {line})"
                    )
                }
            });
        }
        let source = self.source_of(self.current);
        let mut params = Params::with_capacity(attributes.len());
        for (name, value, span, append) in attributes {
            if kind == Kind::Builtin && !builtin_types::accepts(type_name, name) {
                let mut error = EvalError::new(
                    format!(
                        "no parameter named '{name}'{} (file: {}, line: {}) on {}[{title}]",
                        did_you_mean(name, builtin_types::attribute_names(type_name)),
                        place.0,
                        place.1,
                        capitalize_segments(type_name)
                    ),
                    at,
                );
                error.plain = true;
                error.located = Some(crate::error::Located {
                    file: place.0.to_string(),
                    line: place.1,
                    column: None,
                });
                return Err(Stop::Error(error));
            }
            if params.contains_key(name) {
                return fail(
                    format!(
                        "Error while evaluating a Resource Statement, Duplicate parameter '{name}' for on {}[{title}]",
                        capitalize_segments(type_name)
                    ),
                    *span,
                );
            }
            params.insert(
                name.clone(),
                self.param(name, value.clone(), source.clone(), *span, *append)?,
            );
        }
        if kind == Kind::Defined {
            self.check_define_params(type_name, title, &params, at)?;
        }
        if params.contains_key("stage") {
            return statement(format!(
                "Only classes can set 'stage'; normal resources like {}[{title}] cannot change run stage",
                capitalize_segments(type_name)
            ));
        }
        let id = self.new_res(type_name, title, kind, self.current, Some(place));
        self.apply_defaults(id, &mut params);
        let res = &mut self.compiler.resources[id];
        if let Some(tags) = params.get("tag") {
            let value = tags.value.clone();
            for tag in flat_strings(&value) {
                if !super::valid_tag(&tag) {
                    let mut error = EvalError::new(format!("Invalid tag '{tag}'"), at);
                    error.plain = true;
                    return Err(Stop::Error(error));
                }
                res.tag(&tag);
            }
        }
        res.params = params;
        match form {
            ResourceForm::Regular => {}
            ResourceForm::Virtual => res.is_virtual = true,
            ResourceForm::Exported => {
                res.is_virtual = true;
                res.exported = true;
            }
        }
        if let Some(alias) = self.compiler.resources[id].params.get("alias") {
            for name in flat_strings(&alias.value.clone()) {
                // An alias may name the resource itself.
                if let Some(other) = self.compiler.find(type_name, &name)
                    && other != id
                {
                    let other = &self.compiler.resources[other];
                    let declared = match (&other.file, other.line) {
                        (Some(file), Some(line)) => format!(" (file: {file}, line: {line})"),
                        _ => String::new(),
                    };
                    let (file, line) = self.place(at);
                    return statement(format!(
                        "Cannot alias {}[{title}] to \"{name}\" at (file: {file}, line: {line}); resource [\"{}\", \"{name}\"] already declared{declared}",
                        capitalize_segments(type_name),
                        capitalize_segments(type_name),
                    ));
                }
                self.compiler.index_as(type_name, &name, id);
            }
        }
        if let Some(value) = namevar_value {
            self.compiler.index_as(type_name, &value, id);
        }
        // Stages are never contained.
        if type_name != "stage" {
            let container = self.scope_resource();
            self.compiler.edges.push((container, id));
        }
        self.add_scope_tags(id);
        self.apply_pending_overrides(id)?;
        Ok(id)
    }

    /// Unknown parameters of a defined type are reported where the
    /// instance is declared.
    fn check_define_params(
        &mut self,
        type_name: &str,
        title: &str,
        params: &Params,
        at: Span,
    ) -> EvalResult<()> {
        let Some(def) = self.find_define(type_name)? else {
            return Ok(());
        };
        for name in params.keys() {
            let known = accepts_param(&def.def.params, name);
            if !known {
                let mut error = EvalError::new(
                    format!(
                        "Error while evaluating a Resource Statement, {}[{title}]: has no parameter named '{name}'{}",
                        capitalize_segments(type_name),
                        did_you_mean(name, param_names(&def.def.params)),
                    ),
                    at,
                );
                let (file, line) = self.place(at);
                error.located = Some(crate::error::Located {
                    file: file.to_string(),
                    line,
                    column: None,
                });
                return Err(Stop::Error(error));
            }
        }
        Ok(())
    }

    // ---- classes ------------------------------------------------------

    pub(crate) fn include_class(&mut self, name: &str, span: Span) -> EvalResult<ResId> {
        self.declare_class(name, None, span)
    }

    /// Declares a class once: by `include` (no arguments) or by a
    /// resource-like declaration `class { 'name': param => value }`, and
    /// evaluates it at once, as Puppet does.
    pub(crate) fn declare_class(
        &mut self,
        name: &str,
        arguments: Option<Attributes>,
        span: Span,
    ) -> EvalResult<ResId> {
        let name = strip_top(name).to_lowercase();
        let display = format!("Class[{}]", capitalize_segments(&name));
        if let Some(existing) = self.compiler.find("class", &name) {
            if arguments.is_some() {
                let old = &self.compiler.resources[existing];
                let location = match (&old.file, old.line) {
                    (Some(file), Some(line)) => format!(" at (file: {file}, line: {line})"),
                    _ => String::new(),
                };
                let (file, line) = self.place(span);
                return fail(
                    format!(
                        "Error while evaluating a Resource Statement, Duplicate declaration: {display} is already declared{location}; cannot redeclare (file: {file}, line: {line})"
                    ),
                    span,
                );
            }
            return Ok(existing);
        }
        let Some(def) = self.find_class(&name)? else {
            let message = format!("Could not find class ::{name} for {}", self.node_name);
            return if arguments.is_some() {
                fail(
                    format!(
                        "Error while evaluating a Resource Statement, Could not find declared class {name}"
                    ),
                    span,
                )
            } else {
                crate::error::fail_in_call(message, span)
            };
        };
        let parent_scope = match &def.def.parent {
            Some(parent) => {
                let parent = strip_top(parent).to_lowercase();
                if self.find_class(&parent)?.is_none() {
                    return fail(
                        format!(
                            "Could not find parent resource type '{parent}' of type hostclass in {}",
                            self.environment
                        ),
                        span,
                    );
                }
                self.include_class(&parent, span)?;
                self.class_scopes.get(&parent).copied()
            }
            None => None,
        };
        let by_resource = arguments.is_some();
        let place = if by_resource {
            Some(self.place(span))
        } else {
            None
        };
        let declaring = self.current;
        let id = self.new_res("class", &name, Kind::Class, declaring, place);
        let source = self.source_of(declaring);
        let mut params: Params = self
            .params_from(arguments.unwrap_or_default(), &source)?
            .into_iter()
            .collect();
        self.apply_defaults(id, &mut params);
        if let Some(tags) = params.get("tag") {
            for tag in flat_strings(&tags.value.clone()) {
                self.compiler.resources[id].tag(&tag);
            }
        }
        self.compiler.resources[id].params = params;
        self.add_scope_tags(id);
        self.compiler.resources[id].evaluated = true;
        self.compiler.classes.push(name.clone());

        // Variables come from the parent class, else the node, else the
        // top scope; defaults follow the declaring scope.
        let variables_parent = parent_scope.or(self.node_scope).unwrap_or(TOP_SCOPE);
        let scope = self
            .scopes
            .create(variables_parent, Some(Rc::from(display.as_str())));
        {
            let scope = self.scopes.get_mut(scope);
            scope.resource = Some(id);
            scope.defaults_parent = Some(parent_scope.unwrap_or(declaring));
            let value = Value::string(name.as_str());
            for builtin in ["name", "title"] {
                scope.variables.insert(builtin.to_string(), value.clone());
            }
        }
        self.class_scopes.insert(name.clone(), scope);
        self.set_module_names(scope, declaring, def.module.as_deref());
        let saved = std::mem::replace(&mut self.current, scope);
        let declared_in = self.file;
        let result = self.in_file(def.file, |this| {
            this.bind_resource_params(id, &def.def.params, &display, by_resource, span)
                .map_err(|stop| match stop {
                    // The parameters are wrong where the class is declared,
                    // which may be another file than the class's.
                    Stop::Error(mut error)
                        if error.span == span && error.located.is_none() && !error.from_call =>
                    {
                        error.locate(declared_in);
                        Stop::Error(error)
                    }
                    other => other,
                })
        });
        let result = result.and_then(|()| self.add_edge_to_stage(id, declaring, by_resource, span));
        let result = result.and_then(|()| {
            self.in_file(def.file, |this| this.statements(&def.def.body).map(|_| ()))
        });
        self.current = saved;
        result.map(|()| id)
    }

    /// Binds the parameters of a class or defined-type instance from its
    /// resource's parameters: given values (not undef), else defaults, else
    /// an error. Defaults become resource parameters too, as in Puppet.
    pub(crate) fn bind_resource_params(
        &mut self,
        id: ResId,
        params: &'p [marionette_syntax::ast::Param],
        what: &str,
        by_resource: bool,
        span: Span,
    ) -> EvalResult<()> {
        // Puppet words one problem on the line, and several each on a
        // line of its own.
        let failures = |problems: &[String]| -> EvalResult<()> {
            let message = match problems {
                [one] => format!("{what}: {one}"),
                many => format!("{what}:\n  {}", many.join("\n  ")),
            };
            if by_resource {
                fail(
                    format!("Error while evaluating a Resource Statement, {message}"),
                    span,
                )
            } else {
                crate::error::fail_in_call(message, span)
            }
        };
        let failure = |message: String| failures(&[message]);
        for name in self.compiler.resources[id].params.keys() {
            let known = accepts_param(params, name);
            if !known {
                return failure(format!(
                    "has no parameter named '{name}'{}",
                    did_you_mean(name, param_names(params))
                ));
            }
        }
        // Class parameters not given come from Hiera when it has them
        // (automatic parameter lookup), all before any is bound, as in
        // Puppet: data interpolating a parameter of the class sees none.
        if self.compiler.resources[id].kind == Kind::Class {
            let class = self.compiler.resources[id].title.clone();
            for param in params {
                let given = self.compiler.resources[id]
                    .params
                    .get(&param.name)
                    .is_some_and(|p| !p.value.is_undef());
                if given {
                    continue;
                }
                // Data holding undef leaves the default to apply.
                if let Some(value) = self
                    .lookup_class_parameter(&class, &param.name, span)?
                    .filter(|v| !v.is_undef())
                {
                    let source = self.source_of(self.current);
                    let found = self.param(&param.name, value, source, param.span, false)?;
                    self.compiler.resources[id]
                        .params
                        .insert(param.name.clone(), found);
                }
            }
        }
        // Every missing or mismatched parameter is named, as Puppet
        // checks them all once the defaults are set.
        let mut problems = Vec::new();
        for param in params {
            let expected = match &param.type_expr {
                Some(type_expr) => match self.eval(type_expr)? {
                    Value::Type(t) => Some(*t),
                    _ => None,
                },
                None => None,
            };
            let given = self.compiler.resources[id]
                .params
                .get(&param.name)
                .map(|p| p.value.clone())
                .filter(|v| !matches!(v, Value::Undef));
            let value = match given {
                Some(value) => value,
                None => match &param.default {
                    Some(default) => {
                        let value = self.eval(default)?;
                        let source = self.source_of(self.current);
                        let default =
                            self.param(&param.name, value.clone(), source, param.span, false)?;
                        self.compiler.resources[id]
                            .params
                            .insert(param.name.clone(), default);
                        value
                    }
                    // A parameter whose type accepts undef is not required.
                    None if expected
                        .as_ref()
                        .is_none_or(|t| t.is_instance(&Value::Undef))
                        && self.compiler.resources[id].params.contains_key(&param.name) =>
                    {
                        Value::Undef
                    }
                    None if expected
                        .as_ref()
                        .is_some_and(|t| t.is_instance(&Value::Undef)) =>
                    {
                        Value::Undef
                    }
                    None => {
                        problems.push(format!("expects a value for parameter '{}'", param.name));
                        continue;
                    }
                },
            };
            if let Some(expected) = &expected
                && !expected.is_instance(&value)
            {
                problems.push(format!(
                    "parameter '{}' {}",
                    param.name,
                    mismatch_text(expected, &value)
                ));
                continue;
            }
            self.scopes
                .get_mut(self.current)
                .variables
                .insert(param.name.clone(), value);
        }
        if problems.is_empty() {
            Ok(())
        } else {
            failures(&problems)
        }
    }

    /// `$module_name` (the module of the running code) and
    /// `$caller_module_name` (the module of the code that declared it).
    fn set_module_names(&mut self, scope: ScopeId, declaring: ScopeId, module: Option<&str>) {
        let caller = self.scopes.lookup(declaring, "module_name").cloned();
        let variables = &mut self.scopes.get_mut(scope).variables;
        // Code outside any module (site.pp) has an empty module name.
        variables.insert("module_name".into(), Value::string(module.unwrap_or("")));
        if let Some(caller) = caller {
            variables.insert("caller_module_name".into(), caller);
        }
    }

    /// Puts a class in its run stage: the `stage` parameter, else the
    /// declaring resource's stage, else `main`.
    fn add_edge_to_stage(
        &mut self,
        id: ResId,
        declaring: ScopeId,
        by_resource: bool,
        span: Span,
    ) -> EvalResult<()> {
        let own = self.compiler.resources[id]
            .params
            .get("stage")
            .map(|p| to_s(&p.value));
        let inherited = || {
            let container = self.scopes.resource(declaring)?;
            self.compiler.resources[container]
                .params
                .get("stage")
                .map(|p| to_s(&p.value))
        };
        let stage = own.or_else(inherited).unwrap_or_else(|| "main".to_string());
        let Some(stage_id) = self.compiler.find("stage", &stage) else {
            let prefix = if by_resource {
                "Error while evaluating a Resource Statement, "
            } else {
                ""
            };
            return fail(
                format!(
                    "{prefix}Could not find stage {stage} specified by {}",
                    self.compiler.resources[id].reference()
                ),
                span,
            );
        };
        self.compiler.edges.push((stage_id, id));
        Ok(())
    }

    /// Adds the tags of the resource whose code declared `id`.
    pub(crate) fn add_scope_tags(&mut self, id: ResId) {
        let container = self.compiler.resources[id].container;
        if container != id {
            // Only those it lacks are copied: this runs again for every
            // resource when the catalog is finished.
            let own = &self.compiler.resources[id].tags;
            let missing: Vec<String> = self.compiler.resources[container]
                .tags
                .iter()
                .filter(|tag| !own.contains(*tag))
                .cloned()
                .collect();
            let res = &mut self.compiler.resources[id];
            for tag in missing {
                res.tags.insert(tag);
            }
        }
    }

    /// `contain`: includes the class and makes the current class or
    /// defined type contain it.
    pub(crate) fn contain_class(&mut self, name: &str, span: Span) -> EvalResult<()> {
        let id = self.include_class(name, span)?;
        let container = self.scope_resource();
        if !self.compiler.edges.contains(&(container, id)) {
            self.compiler.edges.push((container, id));
        }
        Ok(())
    }

    /// `require`: includes the class and makes the current class or
    /// defined type depend on it.
    pub(crate) fn require_class(&mut self, name: &str, span: Span) -> EvalResult<()> {
        let id = self.include_class(name, span)?;
        let reference = Value::Type(Box::new(PType::Class(Some(
            self.compiler.resources[id].title.clone(),
        ))));
        let container = self.scope_resource();
        let (file, line) = self.place(span);
        let source = self.source_of(self.current);
        let res = &mut self.compiler.resources[container];
        let value = match res.params.shift_remove("require") {
            Some(existing) => {
                let mut items = match existing.value {
                    Value::Array(items) => std::sync::Arc::unwrap_or_clone(items),
                    Value::Undef => Vec::new(),
                    other => vec![other],
                };
                items.push(reference);
                Value::array(items)
            }
            None => Value::array(vec![reference]),
        };
        res.params.insert(
            "require".into(),
            Param {
                value,
                source,
                file,
                line,
                append: false,
            },
        );
        Ok(())
    }

    // ---- nodes --------------------------------------------------------

    /// Evaluates the node definition that matches the node name, as
    /// `Node[name]` contained in `Class[main]`.
    pub(crate) fn evaluate_node(&mut self, node: &'p Node, title: &str) -> EvalResult<()> {
        let id = self.new_res("node", title, Kind::Node, TOP_SCOPE, None);
        self.add_scope_tags(id);
        self.compiler.resources[id].evaluated = true;
        let main = self.main_class();
        self.compiler.edges.push((main, id));
        self.compiler.classes.push(title.to_lowercase());
        let scope = self
            .scopes
            .create(TOP_SCOPE, Some(Rc::from(format!("Node[{title}]").as_str())));
        {
            // `$title` and `$name` in a node are its definition's name.
            let scope = self.scopes.get_mut(scope);
            scope.resource = Some(id);
            for builtin in ["title", "name"] {
                scope.variables.insert(builtin.into(), Value::string(title));
            }
        }
        self.node_scope = Some(scope);
        let saved = std::mem::replace(&mut self.current, scope);
        let result = self.statements(&node.body);
        self.current = saved;
        result.map(|_| ())
    }

    /// `Class[main]`, the container of the top-level code.
    pub(crate) fn main_class(&self) -> ResId {
        self.compiler.find("class", "main").unwrap_or(0)
    }

    // ---- defined types ------------------------------------------------

    /// Evaluates the defined-type instances not evaluated yet, in the
    /// order declared. Returns whether there were any.
    pub(crate) fn evaluate_definitions(&mut self) -> EvalResult<bool> {
        let mut any = false;
        let end = self.compiler.resources.len();
        for id in self.compiler.next_unevaluated..end {
            let res = &self.compiler.resources[id];
            if res.kind != Kind::Defined || res.evaluated || res.is_virtual {
                continue;
            }
            any = true;
            self.evaluate_defined(id)?;
        }
        // Virtual instances are evaluated once realized, so only move
        // past resources that are settled.
        let first_pending = (self.compiler.next_unevaluated..end).find(|&id| {
            let res = &self.compiler.resources[id];
            res.kind == Kind::Defined && !res.evaluated
        });
        self.compiler.next_unevaluated = first_pending.unwrap_or(end);
        Ok(any)
    }

    fn evaluate_defined(&mut self, id: ResId) -> EvalResult<()> {
        let res = &mut self.compiler.resources[id];
        res.evaluated = true;
        let type_name = res.type_name.clone();
        let title = res.title.clone();
        let declaring = res.scope;
        let declared_at = (res.file.clone(), res.line);
        // Where the instance was declared, for its errors.
        let declaration = || match &declared_at {
            (Some(file), Some(line)) => Some(crate::error::Located {
                file: file.to_string(),
                line: *line,
                column: None,
            }),
            _ => None,
        };
        let display = res.reference();
        self.add_scope_tags(id);
        let Some(def) = self.find_define(&type_name)? else {
            return Ok(());
        };
        let parent = self.node_scope.unwrap_or(TOP_SCOPE);
        let scope = self.scopes.create(parent, Some(Rc::from(display.as_str())));
        let name = self.compiler.resources[id]
            .params
            .get("name")
            .map_or_else(|| Value::string(title.as_str()), |p| p.value.clone());
        {
            let scope = self.scopes.get_mut(scope);
            scope.resource = Some(id);
            scope.defaults_parent = Some(declaring);
            scope
                .variables
                .insert("title".into(), Value::string(title.as_str()));
            scope.variables.insert("name".into(), name);
        }
        self.set_module_names(scope, declaring, def.module.as_deref());
        let saved = std::mem::replace(&mut self.current, scope);
        let result = self.in_file(def.file, |this| {
            this.bind_resource_params(id, &def.def.params, &display, true, Span::default())
                .map_err(|stop| match stop {
                    // A default its parameter's type refuses is wrong
                    // where the instance was declared, as Puppet says (an
                    // error with a place of its own keeps it).
                    Stop::Error(mut error)
                        if error.located.is_none() && error.span == Span::default() =>
                    {
                        if let Some(place) = declaration() {
                            error.located = Some(place);
                        }
                        Stop::Error(error)
                    }
                    other => other,
                })?;
            // An error in the body is reported as the failure of the
            // resource statement that declared the instance, as Puppet
            // does: the error with its own place, then the declaration's.
            this.statements(&def.def.body).map(|_| ()).map_err(|stop| match stop {
                Stop::Error(mut error) if !error.plain && !error.unlocated => {
                    if error.located.is_none() {
                        error.locate(def.file);
                    }
                    let place = error.location_text(def.file);
                    let mut wrapped = EvalError::new(
                        format!(
                            "Error while evaluating a Resource Statement, Evaluation Error: {} {place}",
                            error.message
                        ),
                        Span::default(),
                    );
                    wrapped.located = declaration();
                    Stop::Error(wrapped)
                }
                other => other,
            })
        });
        self.current = saved;
        // Errors binding parameters are reported at the declaration.
        result.map_err(|stop| match stop {
            Stop::Error(mut error) if error.span == Span::default() && error.located.is_none() => {
                if let Some(place) = declaration() {
                    error.located = Some(place);
                }
                Stop::Error(error)
            }
            other => other,
        })
    }

    /// Finds a defined type, loading it from its module when needed.
    pub(crate) fn find_define(&mut self, name: &str) -> EvalResult<Option<Def<'p>>> {
        if let Some(def) = self.defines.get(name) {
            return Ok(Some(def.clone()));
        }
        self.autoload(name, crate::loader::Kind::Manifest)?;
        Ok(self.defines.get(name).cloned())
    }

    /// Finds a class, loading it from its module when needed.
    pub(crate) fn find_class(&mut self, name: &str) -> EvalResult<Option<Def<'p>>> {
        if let Some(def) = self.classes.get(name) {
            return Ok(Some(def.clone()));
        }
        self.autoload(name, crate::loader::Kind::Manifest)?;
        Ok(self.classes.get(name).cloned())
    }
}

/// Whether a class or defined type takes an attribute: one of its
/// parameters, a metaparameter, or `name`.
fn accepts_param(params: &[marionette_syntax::ast::Param], name: &str) -> bool {
    params.iter().any(|p| p.name == name) || METAPARAMETERS.contains(&name) || name == "name"
}

/// The strings in a value, arrays flattened (tags, aliases).
pub(crate) fn flat_strings(value: &Value) -> Vec<String> {
    match value {
        Value::Array(items) => items.iter().flat_map(flat_strings).collect(),
        Value::Undef => Vec::new(),
        other => vec![to_s(other)],
    }
}

/// The names a class or defined type takes: its parameters and the
/// metaparameters.
fn param_names(params: &[marionette_syntax::ast::Param]) -> Vec<String> {
    params
        .iter()
        .map(|p| p.name.to_string())
        .chain(METAPARAMETERS.iter().map(|m| m.to_string()))
        .collect()
}

/// ` (did you mean 'NAME'?)` for the nearest of `known` within two edits
/// of `name`, else nothing. Short names need closer matches: any one-letter
/// name is one edit from any other.
pub fn did_you_mean(name: &str, known: impl IntoIterator<Item = String>) -> String {
    let length = name.chars().count();
    known
        .into_iter()
        .map(|candidate| (edit_distance(&candidate, name), candidate))
        .filter(|(distance, _)| *distance <= 2 && distance * 3 <= length)
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, close)| format!(" (did you mean '{close}'?)"))
        .unwrap_or_default()
}

/// Edit distance with adjacent transpositions counted as one edit (the
/// optimal string alignment distance), for "did you mean" hints: `fiel`
/// is one edit from `file`.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Three rows: two before the current one, for transpositions.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current: Vec<usize> = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        current[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (previous[j] + 1)
                .min(current[j - 1] + 1)
                .min(previous[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(before[j - 2] + 1);
            }
            current[j] = best;
        }
        std::mem::swap(&mut before, &mut previous);
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hints_name_close_names_only() {
        let known = || ["message", "file", "path", "a"].map(String::from);
        assert_eq!(edit_distance("fiel", "file"), 1);
        assert_eq!(edit_distance("mesage", "message"), 1);
        assert_eq!(did_you_mean("fiel", known()), " (did you mean 'file'?)");
        assert_eq!(
            did_you_mean("mesage", known()),
            " (did you mean 'message'?)"
        );
        assert_eq!(did_you_mean("pth", known()), " (did you mean 'path'?)");
        assert_eq!(did_you_mean("b", known()), "");
        assert_eq!(did_you_mean("zzzzzz", known()), "");
    }
}

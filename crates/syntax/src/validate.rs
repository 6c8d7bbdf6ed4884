//! Static validation: the checks `puppet parser validate` makes after the
//! grammar has accepted a file, such as where definitions may appear, what
//! may be assigned to, and statements whose value is thrown away.
//!
//! Messages follow Puppet's wording so that users recognize them.

use std::collections::{HashMap, HashSet};

use marionette_diagnostics::{Diagnostic, Span};

use crate::ast::*;

/// Returns the validation problems of a parsed program.
/// `source` is the text the program was parsed from; messages that refer
/// to a second place in the file give its line.
pub fn validate(program: &Program, source: &str) -> Vec<Diagnostic> {
    let mut validator = Validator {
        source,
        diagnostics: Vec::new(),
        containers: Vec::new(),
        nodes: HashMap::new(),
    };
    if let Some(params) = &program.epp_params {
        validator.params(params, ParamOwner::Epp);
    }
    validator.statements(&program.body, Container::Program);
    validator.diagnostics
}

/// What a statement list belongs to, innermost last.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Container {
    Program,
    Class,
    Define,
    Node,
    Function,
    Lambda,
    /// The body of `if`, `unless` or a case option.
    Conditional,
    /// Any other place an expression can sit (an argument, an operand).
    Expression,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum ParamOwner {
    Class,
    Define,
    Function,
    Lambda,
    Epp,
}

struct Validator<'s> {
    source: &'s str,
    diagnostics: Vec<Diagnostic>,
    containers: Vec<Container>,
    /// Node names and patterns seen so far, with where they were defined.
    nodes: HashMap<String, Span>,
}

const RESERVED_VARIABLES: &[&str] = &["trusted", "facts", "server_facts"];

/// Words reserved for future use: they parse as names but cannot be called.
const RESERVED_WORDS: &[&str] = &["attr", "private"];

impl Validator<'_> {
    fn error(&mut self, code: &'static str, message: impl Into<String>, span: Span) {
        self.diagnostics
            .push(Diagnostic::error(code, message, span));
    }

    fn statements(&mut self, body: &[Expr], container: Container) {
        self.containers.push(container);
        for (index, statement) in body.iter().enumerate() {
            let last = index + 1 == body.len();
            if !last && is_idempotent(statement) {
                self.error(
                    "IDEM_EXPRESSION_NOT_LAST",
                    format!(
                        "This {} has no effect. A value was produced and then forgotten (one or more preceding expressions may have the wrong form)",
                        statement.kind.puppet_label()
                    ),
                    statement.span,
                );
            }
            if last && is_idempotent(statement) {
                let owner = match container {
                    Container::Class => Some("Host Class Definition"),
                    Container::Define => Some("Resource Type Definition"),
                    Container::Node => Some("Node Definition"),
                    _ => None,
                };
                if let Some(owner) = owner {
                    self.error(
                        "IDEM_NOT_ALLOWED_LAST",
                        format!(
                            "This {} has no effect. A {owner} can not end with a value-producing expression without other effect",
                            statement.kind.puppet_label()
                        ),
                        statement.span,
                    );
                }
            }
            self.expr(statement, true);
        }
        self.containers.pop();
    }

    fn in_nested(&mut self, f: impl FnOnce(&mut Self)) {
        self.containers.push(Container::Expression);
        f(self);
        self.containers.pop();
    }

    /// Checks that a definition sits where Puppet allows it.
    fn placement(&mut self, expr: &Expr, statement: bool) {
        let absolute_top = matches!(
            expr.kind,
            ExprKind::Function(_) | ExprKind::TypeAlias { .. }
        );
        let container = if statement {
            self.containers.last().copied()
        } else {
            Some(Container::Expression)
        };
        let allowed = match container {
            Some(Container::Program) | None => true,
            Some(Container::Class) => !absolute_top,
            _ => false,
        };
        if allowed {
            return;
        }
        if absolute_top {
            self.error(
                "NOT_ABSOLUTE_TOP_LEVEL",
                format!("A {} may only appear at toplevel", expr.kind.puppet_label()),
                expr.span,
            );
        } else {
            self.error(
                "NOT_TOP_LEVEL",
                "Classes, definitions, and nodes may only appear at toplevel or inside other classes",
                expr.span,
            );
        }
    }

    /// Expressions whose value is used must produce one.
    fn rvalue(&mut self, expr: &Expr) {
        if matches!(
            expr.kind,
            ExprKind::Class(_)
                | ExprKind::Define(_)
                | ExprKind::Node(_)
                | ExprKind::Function(_)
                | ExprKind::TypeAlias { .. }
        ) {
            self.error(
                "NOT_RVALUE",
                format!(
                    "Invalid use of expression. A {} does not produce a value",
                    expr.kind.puppet_label()
                ),
                expr.span,
            );
        }
    }

    fn value(&mut self, expr: &Expr) {
        self.rvalue(expr);
        self.in_nested(|v| v.expr(expr, false));
    }

    fn body(&mut self, body: &[Expr], container: Container) {
        self.statements(body, container);
    }

    fn expr(&mut self, expr: &Expr, statement: bool) {
        match &expr.kind {
            ExprKind::Undef
            | ExprKind::Default
            | ExprKind::Boolean(_)
            | ExprKind::Integer(_)
            | ExprKind::Float(_)
            | ExprKind::String(_)
            | ExprKind::Regex(_)
            | ExprKind::Variable(_)
            | ExprKind::Word(_)
            | ExprKind::TypeRef(_)
            | ExprKind::RenderString(_)
            | ExprKind::Error => {}
            ExprKind::Name(name) => {
                if name == "import" && statement {
                    self.import(expr.span);
                }
            }
            ExprKind::Interpolated(parts) => {
                for part in parts {
                    if let StringPart::Expr(inner) = part {
                        self.value(inner);
                    }
                }
            }
            ExprKind::Heredoc { text, .. } => self.value(text),
            ExprKind::Array(elements) => elements.iter().for_each(|e| self.value(e)),
            ExprKind::Hash(entries) => self.hash_entries(entries, "key"),
            ExprKind::Paren(inner) => self.value(inner),
            ExprKind::Unary { operand, .. } => self.value(operand),
            ExprKind::Binary { lhs, rhs, .. } | ExprKind::Relationship { lhs, rhs, .. } => {
                self.value(lhs);
                self.value(rhs);
            }
            ExprKind::Assign { op, target, value } => {
                if *op != AssignOp::Assign {
                    let at = self.operator_span(target.span.end);
                    self.error(
                        "UNSUPPORTED_OPERATOR",
                        format!("The operator '{}' is no longer supported. See http://links.puppet.com/remove-plus-equals", op.text()),
                        at,
                    );
                }
                self.assignment_target(target);
                // A collector may be chained or overridden, but it is not a
                // value to keep.
                if matches!(value.kind, ExprKind::Collect { .. }) {
                    self.error(
                        "NOT_RVALUE",
                        format!(
                            "Invalid use of expression. A {} does not produce a value",
                            value.kind.puppet_label()
                        ),
                        value.span,
                    );
                }
                self.value(value);
            }
            ExprKind::Access { target, keys } => {
                self.value(target);
                keys.iter().for_each(|k| self.value(k));
            }
            ExprKind::Call(call) => {
                if let ExprKind::Name(name) = &call.function.kind {
                    if name == "import" {
                        self.import(expr.span);
                    } else if RESERVED_WORDS.contains(&name.as_str()) {
                        self.error(
                            "RESERVED_WORD",
                            format!("Illegal expression. A Reserved Word '{name}' is unacceptable as function name in a Function Call"),
                            call.function.span,
                        );
                    }
                }
                self.call(call);
            }
            ExprKind::MethodCall { receiver, call } => {
                self.value(receiver);
                self.call(call);
            }
            ExprKind::If(branch) | ExprKind::Unless(branch) => {
                self.value(&branch.condition);
                self.body(&branch.then_body, Container::Conditional);
                if let Some(else_body) = &branch.else_body {
                    self.body(else_body, Container::Conditional);
                }
            }
            ExprKind::Case { subject, options } => {
                self.value(subject);
                let mut seen_default = false;
                for option in options {
                    for value in &option.values {
                        if matches!(value.kind, ExprKind::Default) {
                            if seen_default {
                                self.error(
                                    "DUPLICATE_DEFAULT",
                                    "This 'case' statement already has a 'default' entry - this is a duplicate",
                                    value.span,
                                );
                            }
                            seen_default = true;
                        }
                        self.value(value);
                    }
                    self.body(&option.body, Container::Conditional);
                }
            }
            ExprKind::Selector { subject, entries } => {
                self.value(subject);
                let mut seen_default = false;
                for entry in entries {
                    if matches!(entry.key.kind, ExprKind::Default) {
                        if seen_default {
                            self.error(
                                "DUPLICATE_DEFAULT",
                                "This Selector Expression already has a 'default' entry - this is a duplicate",
                                entry.key.span,
                            );
                        }
                        seen_default = true;
                    }
                    self.value(&entry.key);
                    self.value(&entry.value);
                }
            }
            ExprKind::Resource(resource) => self.resource(resource, expr.span),
            ExprKind::ResourceDefaults {
                type_ref,
                operations,
            } => {
                self.value(type_ref);
                self.operations(operations, None);
            }
            ExprKind::ResourceOverride { target, operations } => {
                self.value(target);
                self.operations(operations, None);
            }
            ExprKind::Collect {
                query, type_ref, ..
            } => {
                if matches!(type_ref.kind, ExprKind::Name(_)) {
                    let article = if expr.kind.puppet_label().starts_with('E') {
                        "an"
                    } else {
                        "a"
                    };
                    self.error(
                        "ILLEGAL_EXPRESSION",
                        format!("Illegal expression. A Name is unacceptable as type name in {article} {}", expr.kind.puppet_label()),
                        expr.span,
                    );
                }
                if let Some(query) = query {
                    self.query(query);
                }
            }
            ExprKind::Class(definition) | ExprKind::Define(definition) => {
                self.placement(expr, statement);
                let class = matches!(expr.kind, ExprKind::Class(_));
                self.definition_name(&definition.name, expr);
                self.params(
                    &definition.params,
                    if class {
                        ParamOwner::Class
                    } else {
                        ParamOwner::Define
                    },
                );
                self.body(
                    &definition.body,
                    if class {
                        Container::Class
                    } else {
                        Container::Define
                    },
                );
            }
            ExprKind::Node(node) => {
                self.placement(expr, statement);
                if node.parent.is_some() {
                    self.error(
                        "NO_NODE_INHERITANCE",
                        "Node inheritance is not supported in Puppet >= 4.0.0. See http://links.puppet.com/puppet-node-inheritance-deprecation",
                        expr.span,
                    );
                }
                for node_match in &node.matches {
                    let key = match node_match {
                        NodeMatch::Name(name) => format!("'{}'", name.to_lowercase()),
                        NodeMatch::Regex(pattern) => format!("/{pattern}/"),
                        NodeMatch::Default => "'default'".to_string(),
                    };
                    if let Some(&first) = self.nodes.get(&key) {
                        self.error(
                            "DUPLICATE_NODE",
                            format!(
                                "Node {key} is already defined (line: {}); cannot redefine",
                                self.line_of(first)
                            ),
                            expr.span,
                        );
                    } else {
                        self.nodes.insert(key, expr.span);
                    }
                }
                self.body(&node.body, Container::Node);
            }
            ExprKind::Function(function) => {
                self.placement(expr, statement);
                self.definition_name(&function.name, expr);
                self.params(&function.params, ParamOwner::Function);
                if let Some(return_type) = &function.return_type {
                    self.value(return_type);
                }
                self.body(&function.body, Container::Function);
            }
            ExprKind::TypeAlias { value, .. } => {
                self.placement(expr, statement);
                self.value(value);
            }
            ExprKind::RenderExpr(inner) => self.value(inner),
        }
    }

    fn line_of(&self, span: Span) -> usize {
        let end = (span.start as usize).min(self.source.len());
        self.source.as_bytes()[..end]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1
    }

    /// A collector query allows only `==`, `!=`, `and`, `or` and
    /// parentheses.
    fn query(&mut self, query: &Expr) {
        match &query.kind {
            ExprKind::Paren(inner) => self.query(inner),
            ExprKind::Binary {
                op: BinaryOp::And | BinaryOp::Or,
                lhs,
                rhs,
            } => {
                self.query(lhs);
                self.query(rhs);
            }
            ExprKind::Binary {
                op: BinaryOp::Eq | BinaryOp::NotEq,
                lhs,
                rhs,
            } => {
                self.value(lhs);
                self.value(rhs);
            }
            ExprKind::Binary { op, lhs, .. } => {
                let at = self.operator_span(lhs.span.end);
                self.error(
                    "ILLEGAL_QUERY_EXPRESSION",
                    format!(
                        "Illegal query expression. A '{}' expression cannot be used in a query",
                        op.text()
                    ),
                    at,
                );
            }
            _ => self.error(
                "ILLEGAL_QUERY_EXPRESSION",
                format!(
                    "Illegal query expression. A {} cannot be used in a query",
                    query.kind.puppet_label()
                ),
                query.span,
            ),
        }
    }

    /// Where the operator after `offset` stands.
    fn operator_span(&self, offset: u32) -> Span {
        let bytes = self.source.as_bytes();
        let mut pos = (offset as usize).min(bytes.len());
        while pos < bytes.len() && bytes[pos].is_ascii_whitespace() {
            pos += 1;
        }
        Span::new(pos, (pos + 1).min(bytes.len()))
    }

    fn import(&mut self, span: Span) {
        self.error(
            "DISCONTINUED_IMPORT",
            "Use of 'import' has been discontinued in favor of a manifest directory. See http://links.puppet.com/puppet-import-deprecation",
            span,
        );
    }

    fn call(&mut self, call: &Call) {
        call.args.iter().for_each(|a| self.value(a));
        if let Some(lambda) = &call.lambda {
            self.params(&lambda.params, ParamOwner::Lambda);
            if let Some(return_type) = &lambda.return_type {
                self.value(return_type);
            }
            self.body(&lambda.body, Container::Lambda);
        }
    }

    fn hash_entries(&mut self, entries: &[HashEntry], what: &str) {
        let mut seen = HashSet::new();
        for entry in entries {
            if let ExprKind::String(key) = &entry.key.kind
                && !seen.insert(key.clone())
            {
                self.error(
                    "DUPLICATE_KEY",
                    format!("The {what} '{key}' is declared more than once"),
                    entry.key.span,
                );
            }
            self.value(&entry.key);
            self.value(&entry.value);
        }
    }

    fn assignment_target(&mut self, target: &Expr) {
        match &target.kind {
            ExprKind::Variable(name) => {
                if name.bytes().all(|b| b.is_ascii_digit()) {
                    self.error(
                        "ILLEGAL_NUMERIC_ASSIGNMENT",
                        format!("Illegal attempt to assign to the numeric match result variable '${name}'. Numeric variables are not assignable"),
                        target.span,
                    );
                } else if !is_variable_name(name) {
                    self.error(
                        "ILLEGAL_VAR_NAME",
                        format!("Illegal variable name, The given name '{name}' does not conform to the naming rule /^((::)?[a-z]\\w*)*((::)?[a-z_]\\w*)$/"),
                        target.span,
                    );
                } else if name.contains("::") {
                    self.error(
                        "CROSS_SCOPE_ASSIGNMENT",
                        format!("Illegal attempt to assign to '{name}'. Cannot assign to variables in other namespaces"),
                        target.span,
                    );
                } else if RESERVED_VARIABLES.contains(&name.as_str()) {
                    self.error(
                        "ASSIGNMENT_TO_RESERVED",
                        format!("Attempt to assign to a reserved variable name: '${name}'"),
                        target.span,
                    );
                }
            }
            ExprKind::Array(elements) => elements.iter().for_each(|e| self.assignment_target(e)),
            ExprKind::Access { .. } => self.error(
                "ILLEGAL_ASSIGNMENT",
                "Illegal attempt to assign via [index/key]. Not an assignable reference",
                target.span,
            ),
            ExprKind::Binary { op, .. } => {
                let at = self.operator_span(match &target.kind {
                    ExprKind::Binary { lhs, .. } => lhs.span.end,
                    _ => target.span.start,
                });
                self.error(
                    "ILLEGAL_ASSIGNMENT",
                    format!("Illegal attempt to assign to 'a '{}' expression'. Not an assignable reference", op.text()),
                    at,
                )
            }
            _ => self.error(
                "ILLEGAL_ASSIGNMENT",
                format!(
                    "Illegal attempt to assign to '{}'. Not an assignable reference",
                    a_or_an(target.kind.puppet_label())
                ),
                target.span,
            ),
        }
    }

    fn resource(&mut self, resource: &Resource, span: Span) {
        let is_class = matches!(&resource.type_name.kind, ExprKind::Name(name) if name == "class");
        if is_class && resource.form != ResourceForm::Regular {
            self.error("NOT_VIRTUALIZEABLE", "Classes are not virtualizable", span);
        }
        self.value(&resource.type_name);
        for body in &resource.bodies {
            self.value(&body.title);
            self.operations(&body.operations, Some("a Resource Instance Definition"));
        }
    }

    /// `appends_forbidden_in` names the expression where `+>` is illegal.
    fn operations(
        &mut self,
        operations: &[AttributeOperation],
        appends_forbidden_in: Option<&str>,
    ) {
        for operation in operations {
            match operation {
                AttributeOperation::Set {
                    name,
                    append,
                    value,
                    span,
                } => {
                    if *append && let Some(place) = appends_forbidden_in {
                        self.error(
                            "ILLEGAL_ATTRIBUTE_APPEND",
                            format!("Illegal +> operation on attribute {name}. This operator can not be used in {place}"),
                            *span,
                        );
                    }
                    self.value(value);
                }
                AttributeOperation::Splat { value, .. } => self.value(value),
            }
        }
    }

    fn definition_name(&mut self, name: &str, expr: &Expr) {
        let valid = crate::lexer::is_name(name) && !name.starts_with("::");
        if !valid {
            self.error(
                "ILLEGAL_DEFINITION_NAME",
                format!(
                    "Unacceptable name. The name '{name}' is unacceptable as the name of a {}",
                    expr.kind.puppet_label()
                ),
                expr.span,
            );
        }
    }

    fn params(&mut self, params: &[Param], owner: ParamOwner) {
        let mut seen = HashSet::new();
        for param in params {
            let name = param.name.as_str();
            if !is_parameter_name(name) {
                self.error(
                    "ILLEGAL_PARAM_NAME",
                    format!("Illegal parameter name. The given name '{name}' does not conform to the naming rule /^[a-z_]\\w*$/"),
                    param.span,
                );
            }
            // Lambdas may repeat a name (the last one wins).
            if owner != ParamOwner::Lambda && !seen.insert(name) {
                self.error(
                    "DUPLICATE_PARAMETER",
                    format!(
                        "The parameter '{name}' is declared more than once in the parameter list"
                    ),
                    param.span,
                );
            }
            if matches!(owner, ParamOwner::Class | ParamOwner::Define)
                && (name == "title" || name == "name")
            {
                let container = if owner == ParamOwner::Class {
                    "Host Class Definition"
                } else {
                    "'define' expression"
                };
                self.error(
                    "RESERVED_PARAMETER",
                    format!(
                        "The parameter ${name} redefines a built in parameter in the {container}"
                    ),
                    param.span,
                );
            }
            // Puppet checks neither the position of a captures-rest
            // parameter nor required-after-optional ordering here; calls
            // fail at run time instead.
            if param.captures_rest
                && owner == ParamOwner::Lambda
                && !std::ptr::eq(param, params.last().unwrap_or(param))
            {
                self.error(
                    "CAPTURES_REST_NOT_LAST",
                    format!("Parameter ${name} is not last, and has 'captures rest'"),
                    param.span,
                );
            }
            if param.captures_rest && !matches!(owner, ParamOwner::Function | ParamOwner::Lambda) {
                let container = match owner {
                    ParamOwner::Class => "Host Class Definition",
                    ParamOwner::Define => "'define' expression",
                    _ => "EPP template",
                };
                self.error(
                    "CAPTURES_REST_NOT_SUPPORTED",
                    format!(
                        "Parameter ${name} has 'captures rest' - not supported in a {container}"
                    ),
                    param.span,
                );
            }
            if let Some(type_expr) = &param.type_expr {
                self.value(type_expr);
            }
            if let Some(default) = &param.default {
                self.value(default);
            }
        }
    }
}

/// Puppet's rule for variable names: `^((::)?[a-z]\w*)*((::)?[a-z_]\w*)$`,
/// that is, segments starting with a lower-case letter, except that the
/// last may start with an underscore.
fn is_variable_name(name: &str) -> bool {
    let segments: Vec<&str> = name.trim_start_matches("::").split("::").collect();
    let last = segments.len() - 1;
    segments.iter().enumerate().all(|(i, segment)| {
        let mut bytes = segment.bytes();
        let first_ok = bytes
            .next()
            .is_some_and(|b| b.is_ascii_lowercase() || (i == last && b == b'_'));
        first_ok && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
    })
}

/// Puppet's rule for parameter names: `^[a-z_]\w*$`.
fn is_parameter_name(name: &str) -> bool {
    let mut bytes = name.bytes();
    bytes
        .next()
        .is_some_and(|b| b.is_ascii_lowercase() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// Whether a statement only produces a value, so that it is useless
/// anywhere but last.
fn is_idempotent(expr: &Expr) -> bool {
    match &expr.kind {
        ExprKind::Undef
        | ExprKind::Default
        | ExprKind::Boolean(_)
        | ExprKind::Integer(_)
        | ExprKind::Float(_)
        | ExprKind::String(_)
        | ExprKind::Regex(_)
        | ExprKind::Variable(_)
        | ExprKind::Name(_)
        | ExprKind::Word(_)
        | ExprKind::TypeRef(_)
        | ExprKind::Array(_)
        | ExprKind::Hash(_)
        | ExprKind::Paren(_)
        | ExprKind::Access { .. }
        | ExprKind::Selector { .. } => true,
        ExprKind::Unary { op, .. } => *op != UnaryOp::Splat,
        ExprKind::Binary { op, .. } => !matches!(op, BinaryOp::Match | BinaryOp::NoMatch),
        ExprKind::Heredoc { text, .. } => is_idempotent(text),
        ExprKind::If(branch) | ExprKind::Unless(branch) => {
            is_idempotent(&branch.condition)
                && branch.then_body.iter().all(is_idempotent)
                && branch
                    .else_body
                    .as_ref()
                    .is_none_or(|body| body.iter().all(is_idempotent))
        }
        _ => false,
    }
}

fn a_or_an(label: &str) -> String {
    let article = if label.starts_with(['A', 'E', 'I', 'O', 'U', '\'']) {
        "an"
    } else {
        "a"
    };
    format!("{article} {label}")
}

/// The checks Puppet adds for a file a module's autoloader reads (a
/// manifest, function or type file under `MODULE/manifests`, `functions`
/// or `types`): at its top level only definitions, and each class, defined
/// type and function named within `namespace`, the name the file's path
/// spells (`mod::a::b` for `mod/manifests/a/b.pp`, `mod` for its
/// `init.pp`). Puppet compares the lowercased name's start with the
/// namespace, so `mod::a::bc` passes in `a/b.pp` as it does there.
/// `file` is the path the messages name.
pub fn validate_module_file(program: &Program, namespace: &str, file: &str) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    for expr in &program.body {
        if !matches!(
            expr.kind,
            ExprKind::Class(_)
                | ExprKind::Define(_)
                | ExprKind::Function(_)
                | ExprKind::TypeAlias { .. }
        ) {
            diagnostics.push(Diagnostic::error(
                "illegal-top-construct-location",
                format!(
                    "This {} is unacceptable as a top level construct in this location",
                    expr.kind.puppet_label()
                ),
                expr.span,
            ));
        }
    }
    definitions_in_place(&program.body, namespace, file, &mut diagnostics);
    diagnostics
}

/// The definitions of `body` (and those nested in its classes) whose names
/// do not start with `namespace`.
fn definitions_in_place(
    body: &[Expr],
    namespace: &str,
    file: &str,
    diagnostics: &mut Vec<Diagnostic>,
) {
    for expr in body {
        let (name, inner) = match &expr.kind {
            ExprKind::Class(definition) => (&definition.name, Some(&definition.body)),
            ExprKind::Define(definition) => (&definition.name, None),
            ExprKind::Function(function) => (&function.name, None),
            _ => continue,
        };
        let name = name.strip_prefix("::").unwrap_or(name);
        if !name.to_lowercase().starts_with(namespace) {
            diagnostics.push(Diagnostic::error(
                "illegal-definition-location",
                format!(
                    "Unacceptable location. The name '{name}' is unacceptable in file '{file}'"
                ),
                expr.span,
            ));
        }
        if let Some(inner) = inner {
            definitions_in_place(inner, namespace, file, diagnostics);
        }
    }
}

//! A stable, indented text form of the tree, for `marionette parser dump` and
//! the corpus snapshots. With spans off (and parentheses dropped), two trees
//! that mean the same dump the same, which the round-trip tests rely on.

use std::fmt::Write;

use marionette_diagnostics::Span;

use crate::ast::*;

#[derive(Clone, Copy)]
pub struct DumpOptions {
    /// Print `@start..end` after every node.
    pub spans: bool,
    /// Print parenthesized expressions as their own nodes.
    pub parens: bool,
}

impl Default for DumpOptions {
    fn default() -> DumpOptions {
        DumpOptions {
            spans: true,
            parens: true,
        }
    }
}

pub fn dump(program: &Program, options: DumpOptions) -> String {
    let mut dumper = Dumper {
        out: String::new(),
        depth: 0,
        options,
    };
    dumper.line(None, "Program", Some(program.span), String::new());
    dumper.depth += 1;
    if let Some(params) = &program.epp_params {
        dumper.params("epp_params", params);
    }
    for expr in &program.body {
        dumper.expr(None, expr);
    }
    dumper.out
}

struct Dumper {
    out: String,
    depth: usize,
    options: DumpOptions,
}

impl Dumper {
    fn line(&mut self, field: Option<&str>, label: &str, span: Option<Span>, detail: String) {
        for _ in 0..self.depth {
            self.out.push_str("  ");
        }
        if let Some(field) = field {
            let _ = write!(self.out, "{field}: ");
        }
        self.out.push_str(label);
        if let (true, Some(span)) = (self.options.spans, span) {
            let _ = write!(self.out, "@{}..{}", span.start, span.end);
        }
        if !detail.is_empty() {
            self.out.push(' ');
            self.out.push_str(&detail);
        }
        self.out.push('\n');
    }

    fn nested(&mut self, f: impl FnOnce(&mut Self)) {
        self.depth += 1;
        f(self);
        self.depth -= 1;
    }

    fn body(&mut self, field: &str, body: &[Expr]) {
        self.line(
            Some(field),
            "Block",
            None,
            format!("({} statements)", body.len()),
        );
        self.nested(|d| body.iter().for_each(|e| d.expr(None, e)));
    }

    fn params(&mut self, field: &str, params: &[Param]) {
        if params.is_empty() {
            return;
        }
        self.line(Some(field), "Params", None, String::new());
        self.nested(|d| {
            for param in params {
                let detail = format!(
                    "${}{}",
                    param.name,
                    if param.captures_rest {
                        " captures_rest"
                    } else {
                        ""
                    }
                );
                d.line(None, "Param", Some(param.span), detail);
                d.nested(|d| {
                    if let Some(type_expr) = &param.type_expr {
                        d.expr(Some("type"), type_expr);
                    }
                    if let Some(default) = &param.default {
                        d.expr(Some("default"), default);
                    }
                });
            }
        });
    }

    fn call(&mut self, call: &Call) {
        self.expr(Some("function"), &call.function);
        for arg in &call.args {
            self.expr(Some("arg"), arg);
        }
        if let Some(lambda) = &call.lambda {
            self.line(Some("lambda"), "Lambda", Some(lambda.span), String::new());
            self.nested(|d| {
                d.params("params", &lambda.params);
                if let Some(return_type) = &lambda.return_type {
                    d.expr(Some("returns"), return_type);
                }
                d.body("body", &lambda.body);
            });
        }
    }

    fn operations(&mut self, operations: &[AttributeOperation]) {
        for operation in operations {
            match operation {
                AttributeOperation::Set {
                    name,
                    append,
                    value,
                    span,
                } => {
                    self.line(
                        None,
                        "Attribute",
                        Some(*span),
                        format!("{name} {}", if *append { "+>" } else { "=>" }),
                    );
                    self.nested(|d| d.expr(None, value));
                }
                AttributeOperation::Splat { value, span } => {
                    self.line(None, "AttributeSplat", Some(*span), String::new());
                    self.nested(|d| d.expr(None, value));
                }
            }
        }
    }

    fn expr(&mut self, field: Option<&str>, expr: &Expr) {
        let span = Some(expr.span);
        match &expr.kind {
            ExprKind::Undef => self.line(field, "Undef", span, String::new()),
            ExprKind::Default => self.line(field, "Default", span, String::new()),
            ExprKind::Boolean(value) => self.line(field, "Boolean", span, value.to_string()),
            ExprKind::Integer(value) => self.line(field, "Integer", span, value.to_string()),
            ExprKind::Float(value) => self.line(field, "Float", span, format!("{value:?}")),
            ExprKind::String(text) => self.line(field, "String", span, format!("{text:?}")),
            ExprKind::Interpolated(parts) => {
                self.line(field, "Interpolated", span, String::new());
                self.nested(|d| {
                    for part in parts {
                        match part {
                            StringPart::Text(text) => {
                                d.line(None, "Text", None, format!("{text:?}"))
                            }
                            StringPart::Expr(expr) => d.expr(None, expr),
                        }
                    }
                });
            }
            ExprKind::Heredoc { syntax, text } => {
                let detail = syntax
                    .as_ref()
                    .map_or(String::new(), |s| format!("syntax={s}"));
                self.line(field, "Heredoc", span, detail);
                self.nested(|d| d.expr(None, text));
            }
            ExprKind::Regex(pattern) => self.line(field, "Regex", span, format!("/{pattern}/")),
            ExprKind::Variable(name) => self.line(field, "Variable", span, format!("${name}")),
            ExprKind::Name(name) => self.line(field, "Name", span, name.clone()),
            ExprKind::Word(word) => self.line(field, "Word", span, word.clone()),
            ExprKind::TypeRef(name) => self.line(field, "TypeRef", span, name.clone()),
            ExprKind::Array(elements) => {
                self.line(field, "Array", span, String::new());
                self.nested(|d| elements.iter().for_each(|e| d.expr(None, e)));
            }
            ExprKind::Hash(entries) => {
                self.line(field, "Hash", span, String::new());
                self.nested(|d| d.entries(entries));
            }
            ExprKind::Paren(inner) => {
                if self.options.parens {
                    self.line(field, "Paren", span, String::new());
                    self.nested(|d| d.expr(None, inner));
                } else {
                    self.expr(field, inner);
                }
            }
            ExprKind::Unary { op, operand } => {
                self.line(field, "Unary", span, op.text().to_string());
                self.nested(|d| d.expr(None, operand));
            }
            ExprKind::Binary { op, lhs, rhs } => {
                self.line(field, "Binary", span, op.text().to_string());
                self.nested(|d| {
                    d.expr(None, lhs);
                    d.expr(None, rhs);
                });
            }
            ExprKind::Assign { op, target, value } => {
                self.line(field, "Assign", span, op.text().to_string());
                self.nested(|d| {
                    d.expr(None, target);
                    d.expr(None, value);
                });
            }
            ExprKind::Relationship { op, lhs, rhs } => {
                self.line(field, "Relationship", span, op.text().to_string());
                self.nested(|d| {
                    d.expr(None, lhs);
                    d.expr(None, rhs);
                });
            }
            ExprKind::Access { target, keys } => {
                self.line(field, "Access", span, String::new());
                self.nested(|d| {
                    d.expr(Some("target"), target);
                    keys.iter().for_each(|k| d.expr(Some("key"), k));
                });
            }
            ExprKind::Call(call) => {
                // The call style is not kept by the printer, so it is only
                // shown in the full form.
                let detail = if call.parenthesized || !self.options.spans {
                    ""
                } else {
                    "statement"
                };
                self.line(field, "Call", span, detail.to_string());
                self.nested(|d| d.call(call));
            }
            ExprKind::MethodCall { receiver, call } => {
                self.line(field, "MethodCall", span, String::new());
                self.nested(|d| {
                    d.expr(Some("receiver"), receiver);
                    d.call(call);
                });
            }
            ExprKind::If(branch) | ExprKind::Unless(branch) => {
                let label = if matches!(expr.kind, ExprKind::If(_)) {
                    "If"
                } else {
                    "Unless"
                };
                self.line(field, label, span, String::new());
                self.nested(|d| {
                    d.expr(Some("condition"), &branch.condition);
                    d.body("then", &branch.then_body);
                    if let Some(else_body) = &branch.else_body {
                        d.body("else", else_body);
                    }
                });
            }
            ExprKind::Case { subject, options } => {
                self.line(field, "Case", span, String::new());
                self.nested(|d| {
                    d.expr(Some("subject"), subject);
                    for option in options {
                        d.line(None, "CaseOption", Some(option.span), String::new());
                        d.nested(|d| {
                            option.values.iter().for_each(|v| d.expr(Some("value"), v));
                            d.body("body", &option.body);
                        });
                    }
                });
            }
            ExprKind::Selector { subject, entries } => {
                self.line(field, "Selector", span, String::new());
                self.nested(|d| {
                    d.expr(Some("subject"), subject);
                    d.entries(entries);
                });
            }
            ExprKind::Resource(resource) => {
                let form = match resource.form {
                    ResourceForm::Regular => "regular",
                    ResourceForm::Virtual => "virtual",
                    ResourceForm::Exported => "exported",
                };
                self.line(field, "Resource", span, form.to_string());
                self.nested(|d| {
                    d.expr(Some("type"), &resource.type_name);
                    for body in &resource.bodies {
                        d.line(None, "ResourceBody", Some(body.span), String::new());
                        d.nested(|d| {
                            d.expr(Some("title"), &body.title);
                            d.operations(&body.operations);
                        });
                    }
                });
            }
            ExprKind::ResourceDefaults {
                type_ref,
                operations,
            } => {
                self.line(field, "ResourceDefaults", span, String::new());
                self.nested(|d| {
                    d.expr(Some("type"), type_ref);
                    d.operations(operations);
                });
            }
            ExprKind::ResourceOverride { target, operations } => {
                self.line(field, "ResourceOverride", span, String::new());
                self.nested(|d| {
                    d.expr(Some("target"), target);
                    d.operations(operations);
                });
            }
            ExprKind::Collect {
                type_ref,
                exported,
                query,
            } => {
                self.line(
                    field,
                    "Collect",
                    span,
                    if *exported { "exported" } else { "virtual" }.to_string(),
                );
                self.nested(|d| {
                    d.expr(Some("type"), type_ref);
                    if let Some(query) = query {
                        d.expr(Some("query"), query);
                    }
                });
            }
            ExprKind::Class(definition) | ExprKind::Define(definition) => {
                let label = if matches!(expr.kind, ExprKind::Class(_)) {
                    "Class"
                } else {
                    "Define"
                };
                let mut detail = definition.name.clone();
                if let Some(parent) = &definition.parent {
                    let _ = write!(detail, " inherits {parent}");
                }
                self.line(field, label, span, detail);
                self.nested(|d| {
                    d.params("params", &definition.params);
                    d.body("body", &definition.body);
                });
            }
            ExprKind::Node(node) => {
                let names: Vec<String> = node.matches.iter().map(node_match_text).collect();
                let mut detail = names.join(", ");
                if let Some(parent) = &node.parent {
                    let _ = write!(detail, " inherits {}", node_match_text(parent));
                }
                self.line(field, "Node", span, detail);
                self.nested(|d| d.body("body", &node.body));
            }
            ExprKind::Function(function) => {
                self.line(field, "Function", span, function.name.clone());
                self.nested(|d| {
                    d.params("params", &function.params);
                    if let Some(return_type) = &function.return_type {
                        d.expr(Some("returns"), return_type);
                    }
                    d.body("body", &function.body);
                });
            }
            ExprKind::TypeAlias { name, value } => {
                self.line(field, "TypeAlias", span, name.clone());
                self.nested(|d| d.expr(None, value));
            }
            ExprKind::RenderString(text) => {
                self.line(field, "RenderString", span, format!("{text:?}"))
            }
            ExprKind::RenderExpr(inner) => {
                self.line(field, "RenderExpr", span, String::new());
                self.nested(|d| d.expr(None, inner));
            }
            ExprKind::Error => self.line(field, "Error", span, String::new()),
        }
    }

    fn entries(&mut self, entries: &[HashEntry]) {
        for entry in entries {
            self.line(None, "Entry", None, String::new());
            self.nested(|d| {
                d.expr(Some("key"), &entry.key);
                d.expr(Some("value"), &entry.value);
            });
        }
    }
}

fn node_match_text(node_match: &NodeMatch) -> String {
    match node_match {
        NodeMatch::Name(name) => format!("{name:?}"),
        NodeMatch::Regex(pattern) => format!("/{pattern}/"),
        NodeMatch::Default => "default".to_string(),
    }
}

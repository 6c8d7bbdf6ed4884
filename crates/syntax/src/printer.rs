//! Prints a tree back as Puppet source.
//!
//! The output favours being unambiguous over being pretty: operators are
//! fully parenthesized and every call is written with parentheses, so that
//! parsing the output gives the same tree again (apart from spans,
//! parentheses and the call style), which the round-trip tests check.

use crate::ast::*;

/// Prints a manifest. EPP render nodes are not supported and print nothing.
pub fn print(program: &Program) -> String {
    let mut printer = Printer {
        out: String::new(),
        indent: 0,
        heredocs: Vec::new(),
        heredoc_count: 0,
    };
    printer.statements(&program.body);
    printer.newline();
    printer.out
}

struct Printer {
    out: String,
    indent: usize,
    /// Heredoc bodies waiting for the end of the current line.
    heredocs: Vec<String>,
    heredoc_count: usize,
}

impl Printer {
    fn text(&mut self, text: &str) {
        self.out.push_str(text);
    }

    fn newline(&mut self) {
        self.out.push('\n');
        for body in std::mem::take(&mut self.heredocs) {
            self.out.push_str(&body);
        }
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
    }

    fn statements(&mut self, body: &[Expr]) {
        for (index, expr) in body.iter().enumerate() {
            if index > 0 {
                self.newline();
            }
            self.expr(expr);
        }
    }

    fn block(&mut self, body: &[Expr]) {
        self.text("{");
        self.indent += 1;
        if !body.is_empty() {
            self.newline();
            self.statements(body);
        }
        self.indent -= 1;
        self.newline();
        self.text("}");
    }

    fn list(&mut self, items: &[Expr]) {
        for (index, item) in items.iter().enumerate() {
            if index > 0 {
                self.text(", ");
            }
            self.expr(item);
        }
    }

    fn params(&mut self, params: &[Param]) {
        for (index, param) in params.iter().enumerate() {
            if index > 0 {
                self.text(", ");
            }
            if let Some(type_expr) = &param.type_expr {
                self.expr(type_expr);
                self.text(" ");
            }
            if param.captures_rest {
                self.text("*");
            }
            self.text("$");
            self.text(&param.name);
            if let Some(default) = &param.default {
                self.text(" = ");
                self.expr(default);
            }
        }
    }

    fn call(&mut self, call: &Call) {
        self.expr(&call.function);
        self.text("(");
        self.list(&call.args);
        self.text(")");
        if let Some(lambda) = &call.lambda {
            self.text(" |");
            self.params(&lambda.params);
            self.text("| ");
            if let Some(return_type) = &lambda.return_type {
                self.text(">> ");
                self.expr(return_type);
                self.text(" ");
            }
            self.block(&lambda.body);
        }
    }

    fn operations(&mut self, operations: &[AttributeOperation]) {
        self.indent += 1;
        for operation in operations {
            self.newline();
            match operation {
                AttributeOperation::Set {
                    name,
                    append,
                    value,
                    ..
                } => {
                    self.text(name);
                    self.text(if *append { " +> " } else { " => " });
                    self.expr(value);
                }
                AttributeOperation::Splat { value, .. } => {
                    self.text("* => ");
                    self.expr(value);
                }
            }
            self.text(",");
        }
        self.indent -= 1;
    }

    fn entries(&mut self, entries: &[HashEntry]) {
        for (index, entry) in entries.iter().enumerate() {
            if index > 0 {
                self.text(", ");
            }
            self.expr(&entry.key);
            self.text(" => ");
            self.expr(&entry.value);
        }
    }

    fn string_parts(&mut self, parts: &[StringPart], heredoc: bool) -> String {
        let (out, nested) = self.string_parts_nested(parts, heredoc);
        self.heredocs.extend(nested);
        out
    }

    /// A string's text, and the bodies of heredocs opened in its
    /// interpolations that are still to be placed. In a heredoc's body
    /// they go after the body's own line that opened them (and are placed
    /// here); elsewhere, after the line of the string (the caller's).
    fn string_parts_nested(
        &mut self,
        parts: &[StringPart],
        heredoc: bool,
    ) -> (String, Vec<String>) {
        let mut out = String::new();
        let mut nested: Vec<String> = Vec::new();
        for part in parts {
            match part {
                StringPart::Text(text) => {
                    for ch in text.chars() {
                        match ch {
                            '\\' => out.push_str("\\\\"),
                            '$' => out.push_str("\\$"),
                            '"' if !heredoc => out.push_str("\\\""),
                            '\r' => out.push_str("\\r"),
                            // A double-quoted string stays on one line: a
                            // heredoc opened in it takes its body from the
                            // lines after the one it is opened on, which
                            // must not be the string's own.
                            '\n' if !heredoc => out.push_str("\\n"),
                            _ => out.push(ch),
                        }
                        if heredoc && ch == '\n' {
                            for body in nested.drain(..) {
                                out.push_str(&body);
                            }
                        }
                    }
                }
                StringPart::Expr(expr) => {
                    let mut inner = Printer {
                        out: String::new(),
                        indent: 0,
                        heredocs: Vec::new(),
                        heredoc_count: self.heredoc_count,
                    };
                    inner.expr(expr);
                    out.push_str("${");
                    out.push_str(&inner.out);
                    out.push('}');
                    self.heredoc_count = inner.heredoc_count;
                    nested.append(&mut inner.heredocs);
                }
            }
        }
        (out, nested)
    }

    fn expr(&mut self, expr: &Expr) {
        match &expr.kind {
            ExprKind::Undef => self.text("undef"),
            ExprKind::Default => self.text("default"),
            ExprKind::Boolean(value) => self.text(if *value { "true" } else { "false" }),
            ExprKind::Integer(value) => self.text(&value.to_string()),
            ExprKind::Float(value) => self.text(&format!("{value:?}")),
            ExprKind::String(text) => {
                let quoted = format!("'{}'", text.replace('\\', "\\\\").replace('\'', "\\'"));
                self.text(&quoted);
            }
            ExprKind::Interpolated(parts) => {
                let body = self.string_parts(parts, false);
                self.text(&format!("\"{body}\""));
            }
            ExprKind::Heredoc { syntax, text } => {
                self.heredoc_count += 1;
                let tag = format!("MRT_END_{}", self.heredoc_count);
                let syntax = syntax.as_ref().map_or(String::new(), |s| format!(":{s}"));
                self.text(&format!("@(\"{tag}\"{syntax}/$r)"));
                let (body, nested) = match &text.kind {
                    ExprKind::String(plain) => {
                        self.string_parts_nested(&[StringPart::Text(plain.clone())], true)
                    }
                    ExprKind::Interpolated(parts) => self.string_parts_nested(parts, true),
                    _ => (String::new(), Vec::new()),
                };
                // Bodies of heredocs opened on the last line, which has no
                // line break of its own, go after the one the end tag's
                // `-` trims.
                let end = if body.ends_with('\n') {
                    format!("{tag}\n")
                } else {
                    format!("\n{}-{tag}\n", nested.concat())
                };
                self.heredocs.push(format!("{body}{end}"));
            }
            ExprKind::Regex(pattern) => self.text(&format!("(/{}/)", pattern.replace('/', "\\/"))),
            ExprKind::Variable(name) => self.text(&format!("${name}")),
            ExprKind::Name(name) | ExprKind::Word(name) | ExprKind::TypeRef(name) => {
                self.text(name)
            }
            ExprKind::Array(elements) => {
                self.text("[");
                self.list(elements);
                self.text("]");
            }
            ExprKind::Hash(entries) => {
                self.text("({");
                self.entries(entries);
                self.text("})");
            }
            ExprKind::Paren(inner) => {
                self.text("(");
                self.expr(inner);
                self.text(")");
            }
            ExprKind::Unary { op, operand } => {
                self.text("(");
                self.text(op.text());
                self.expr(operand);
                self.text(")");
            }
            ExprKind::Binary { op, lhs, rhs } => self.infix(lhs, op.text(), rhs),
            ExprKind::Assign { op, target, value } => self.infix(target, op.text(), value),
            ExprKind::Relationship { op, lhs, rhs } => self.infix(lhs, op.text(), rhs),
            ExprKind::Access { target, keys } => {
                self.expr(target);
                self.text("[");
                self.list(keys);
                self.text("]");
            }
            ExprKind::Call(call) => self.call(call),
            ExprKind::MethodCall { receiver, call } => {
                self.expr(receiver);
                self.text(".");
                self.call(call);
            }
            ExprKind::If(branch) => self.branch("if", branch),
            ExprKind::Unless(branch) => self.branch("unless", branch),
            ExprKind::Case { subject, options } => {
                self.text("case (");
                self.expr(subject);
                self.text(") {");
                self.indent += 1;
                for option in options {
                    self.newline();
                    self.list(&option.values);
                    self.text(": ");
                    self.block(&option.body);
                }
                self.indent -= 1;
                self.newline();
                self.text("}");
            }
            ExprKind::Selector { subject, entries } => {
                self.text("(");
                self.expr(subject);
                self.text(" ? {");
                self.entries(entries);
                self.text("})");
            }
            ExprKind::Resource(resource) => {
                self.text(match resource.form {
                    ResourceForm::Regular => "",
                    ResourceForm::Virtual => "@",
                    ResourceForm::Exported => "@@",
                });
                self.expr(&resource.type_name);
                self.text(" {");
                self.indent += 1;
                for (index, body) in resource.bodies.iter().enumerate() {
                    if index > 0 {
                        self.text(";");
                    }
                    self.newline();
                    self.expr(&body.title);
                    self.text(":");
                    self.operations(&body.operations);
                }
                self.indent -= 1;
                self.newline();
                self.text("}");
            }
            ExprKind::ResourceDefaults {
                type_ref: target,
                operations,
            }
            | ExprKind::ResourceOverride { target, operations } => {
                self.expr(target);
                self.text(" {");
                self.operations(operations);
                self.newline();
                self.text("}");
            }
            ExprKind::Collect {
                type_ref,
                exported,
                query,
            } => {
                self.expr(type_ref);
                self.text(if *exported { " <<| " } else { " <| " });
                if let Some(query) = query {
                    self.expr(query);
                }
                self.text(if *exported { " |>>" } else { " |>" });
            }
            ExprKind::Class(definition) | ExprKind::Define(definition) => {
                let keyword = if matches!(expr.kind, ExprKind::Class(_)) {
                    "class"
                } else {
                    "define"
                };
                self.text(&format!("{keyword} {}", definition.name));
                if !definition.params.is_empty() {
                    self.text("(");
                    self.params(&definition.params);
                    self.text(")");
                }
                if let Some(parent) = &definition.parent {
                    self.text(&format!(" inherits {parent}"));
                }
                self.text(" ");
                self.block(&definition.body);
            }
            ExprKind::Node(node) => {
                self.text("node ");
                for (index, node_match) in node.matches.iter().enumerate() {
                    if index > 0 {
                        self.text(", ");
                    }
                    self.node_match(node_match);
                }
                if let Some(parent) = &node.parent {
                    self.text(" inherits ");
                    self.node_match(parent);
                }
                self.text(" ");
                self.block(&node.body);
            }
            ExprKind::Function(function) => {
                self.text(&format!("function {}(", function.name));
                self.params(&function.params);
                self.text(") ");
                if let Some(return_type) = &function.return_type {
                    self.text(">> ");
                    self.expr(return_type);
                    self.text(" ");
                }
                self.block(&function.body);
            }
            ExprKind::TypeAlias { name, value } => {
                self.text(&format!("type {name} = "));
                self.expr(value);
            }
            ExprKind::RenderString(_) | ExprKind::RenderExpr(_) | ExprKind::Error => {}
        }
    }

    fn infix(&mut self, lhs: &Expr, op: &str, rhs: &Expr) {
        self.text("(");
        // After a `}` or the keywords `undef` and `default` a `/` starts a
        // regex, so such a left operand gets parentheses of its own.
        if ends_with_block(lhs) {
            self.text("(");
            self.expr(lhs);
            self.text(")");
        } else {
            self.expr(lhs);
        }
        self.text(&format!(" {op} "));
        self.expr(rhs);
        self.text(")");
    }

    fn branch(&mut self, keyword: &str, branch: &If) {
        self.text(keyword);
        self.text(" (");
        self.expr(&branch.condition);
        self.text(") ");
        self.block(&branch.then_body);
        if let Some(else_body) = &branch.else_body {
            self.text(" else ");
            self.block(else_body);
        }
    }

    fn node_match(&mut self, node_match: &NodeMatch) {
        match node_match {
            NodeMatch::Name(name) => {
                let quoted = format!("'{}'", name.replace('\\', "\\\\").replace('\'', "\\'"));
                self.text(&quoted);
            }
            NodeMatch::Regex(pattern) => self.text(&format!("/{}/", pattern.replace('/', "\\/"))),
            NodeMatch::Default => self.text("default"),
        }
    }
}

/// Whether the printed form of `expr` ends with a `}` or a keyword after
/// which `/` would start a regex.
fn ends_with_block(expr: &Expr) -> bool {
    match &expr.kind {
        ExprKind::Undef | ExprKind::Default => true,
        ExprKind::Call(call) | ExprKind::MethodCall { call, .. } => call.lambda.is_some(),
        ExprKind::If(_)
        | ExprKind::Unless(_)
        | ExprKind::Case { .. }
        | ExprKind::Resource(_)
        | ExprKind::ResourceDefaults { .. }
        | ExprKind::ResourceOverride { .. }
        | ExprKind::Class(_)
        | ExprKind::Define(_)
        | ExprKind::Node(_)
        | ExprKind::Function(_) => true,
        ExprKind::Assign { value, .. } => ends_with_block(value),
        _ => false,
    }
}

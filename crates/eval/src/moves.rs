//! Which lambda parameters may be moved out of their scope at their one use.
//!
//! Puppet values are immutable, so `$memo + { k => v }` builds a new hash.
//! Here arrays and hashes are shared behind reference counts and `+` and
//! `<<` extend the left operand in place when nothing else holds it. In the
//! most common accumulation, `reduce({}) |$memo, $x| { $memo + {...} }`,
//! the lambda's scope still holds `$memo` while `+` runs, so every step
//! copied the whole hash: quadratic in the number of entries.
//!
//! A parameter that the body reads exactly once, outside any nested lambda
//! and outside anything evaluated more than once per call, is dead after
//! that read. When that read is the left operand of `+` or `<<`, the
//! evaluator takes the value out of the scope instead of copying it. The
//! analysis is conservative: anything that can look a variable up by name
//! (`getvar`, `defined`, templates) keeps every parameter in place.

use marionette_syntax::ast::{
    AttributeOperation, Call, Expr, ExprKind, HashEntry, Lambda, Param, StringPart,
};

/// Functions that read variables by name, or evaluate code that may.
const NAME_READERS: &[&str] = &[
    "getvar",
    "defined",
    "epp",
    "inline_epp",
    "template",
    "inline_template",
];

/// The parameters of `lambda` that may be moved at their single use.
pub(crate) fn movable_params(lambda: &Lambda) -> Vec<String> {
    let mut uses = Uses::default();
    for expr in &lambda.body {
        uses.expr(expr, 1);
    }
    if let Some(return_type) = &lambda.return_type {
        uses.expr(return_type, 1);
    }
    if uses.reads_by_name {
        return Vec::new();
    }
    lambda
        .params
        .iter()
        .filter(|param| !param.captures_rest)
        .filter(|param| uses.count(&param.name) == 1)
        .map(|param| param.name.clone())
        .collect()
}

/// Whether `break()` appears anywhere in the lambda.
pub(crate) fn may_break(lambda: &Lambda) -> bool {
    let mut uses = Uses::default();
    for expr in &lambda.body {
        uses.expr(expr, 1);
    }
    uses.breaks
}

#[derive(Default)]
struct Uses {
    /// Each variable read, with a weight: 1 for a read evaluated at most once
    /// per call, 2 for one that may be evaluated again.
    reads: Vec<(String, u32)>,
    reads_by_name: bool,
    breaks: bool,
}

impl Uses {
    fn count(&self, name: &str) -> u32 {
        self.reads
            .iter()
            .filter(|(read, _)| read == name)
            .map(|(_, weight)| weight)
            .sum()
    }

    fn all(&mut self, exprs: &[Expr], weight: u32) {
        for expr in exprs {
            self.expr(expr, weight);
        }
    }

    fn entries(&mut self, entries: &[HashEntry], weight: u32) {
        for entry in entries {
            self.expr(&entry.key, weight);
            self.expr(&entry.value, weight);
        }
    }

    fn params(&mut self, params: &[Param], weight: u32) {
        for param in params {
            if let Some(t) = &param.type_expr {
                self.expr(t, weight);
            }
            if let Some(default) = &param.default {
                self.expr(default, weight);
            }
        }
    }

    fn operations(&mut self, operations: &[AttributeOperation], weight: u32) {
        for operation in operations {
            match operation {
                AttributeOperation::Set { value, .. } | AttributeOperation::Splat { value, .. } => {
                    self.expr(value, weight)
                }
            }
        }
    }

    fn call(&mut self, call: &Call, weight: u32) {
        if let ExprKind::Name(name) | ExprKind::Word(name) = &call.function.kind {
            let name = name.trim_start_matches("::");
            if NAME_READERS.contains(&name) {
                self.reads_by_name = true;
            }
            if name == "break" {
                self.breaks = true;
            }
        }
        self.expr(&call.function, weight);
        self.all(&call.args, weight);
        if let Some(lambda) = &call.lambda {
            // A lambda may run any number of times.
            self.params(&lambda.params, 2);
            self.all(&lambda.body, 2);
        }
    }

    fn expr(&mut self, expr: &Expr, weight: u32) {
        match &expr.kind {
            ExprKind::Variable(name) => self.reads.push((name.clone(), weight)),
            ExprKind::Undef
            | ExprKind::Default
            | ExprKind::Boolean(_)
            | ExprKind::Integer(_)
            | ExprKind::Float(_)
            | ExprKind::String(_)
            | ExprKind::Regex(_)
            | ExprKind::Name(_)
            | ExprKind::Word(_)
            | ExprKind::TypeRef(_)
            | ExprKind::Error => {}
            ExprKind::Interpolated(parts) => {
                for part in parts {
                    if let StringPart::Expr(e) = part {
                        self.expr(e, weight);
                    }
                }
            }
            ExprKind::Heredoc { text, .. } => self.expr(text, weight),
            ExprKind::Array(items) => self.all(items, weight),
            ExprKind::Hash(entries) => self.entries(entries, weight),
            ExprKind::Paren(inner) | ExprKind::Unary { operand: inner, .. } => {
                self.expr(inner, weight)
            }
            ExprKind::Binary { lhs, rhs, .. } | ExprKind::Relationship { lhs, rhs, .. } => {
                self.expr(lhs, weight);
                self.expr(rhs, weight);
            }
            ExprKind::Assign { target, value, .. } => {
                self.expr(target, weight);
                self.expr(value, weight);
            }
            ExprKind::Access { target, keys } => {
                self.expr(target, weight);
                self.all(keys, weight);
            }
            ExprKind::Call(call) => self.call(call, weight),
            ExprKind::MethodCall { receiver, call } => {
                self.expr(receiver, weight);
                self.call(call, weight);
            }
            ExprKind::If(branch) | ExprKind::Unless(branch) => {
                self.expr(&branch.condition, weight);
                self.all(&branch.then_body, weight);
                if let Some(body) = &branch.else_body {
                    self.all(body, weight);
                }
            }
            ExprKind::Case { subject, options } => {
                self.expr(subject, weight);
                for option in options {
                    self.all(&option.values, weight);
                    self.all(&option.body, weight);
                }
            }
            ExprKind::Selector { subject, entries } => {
                self.expr(subject, weight);
                self.entries(entries, weight);
            }
            // Resource bodies may be evaluated once per title, and
            // collectors and defaults later and repeatedly.
            ExprKind::Resource(resource) => {
                self.expr(&resource.type_name, 2);
                for body in &resource.bodies {
                    self.expr(&body.title, 2);
                    self.operations(&body.operations, 2);
                }
            }
            ExprKind::ResourceDefaults {
                type_ref,
                operations,
            }
            | ExprKind::ResourceOverride {
                target: type_ref,
                operations,
            } => {
                self.expr(type_ref, 2);
                self.operations(operations, 2);
            }
            ExprKind::Collect {
                type_ref, query, ..
            } => {
                self.expr(type_ref, 2);
                if let Some(query) = query {
                    self.expr(query, 2);
                }
            }
            // Definitions are not allowed in lambdas; whatever they read is
            // not this call's business, but stay safe.
            ExprKind::Class(_)
            | ExprKind::Define(_)
            | ExprKind::Node(_)
            | ExprKind::Function(_)
            | ExprKind::TypeAlias { .. }
            | ExprKind::RenderString(_)
            | ExprKind::RenderExpr(_) => self.reads_by_name = true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lambda_of(code: &str) -> Lambda {
        let parsed = marionette_syntax::parse(code);
        assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
        let ExprKind::MethodCall { call, .. } = &parsed.program.body[0].kind else {
            panic!("a method call: {:?}", parsed.program.body[0]);
        };
        call.lambda.clone().expect("a lambda")
    }

    #[test]
    fn a_parameter_read_once_is_movable() {
        let lambda = lambda_of("[1].reduce({}) |$memo, $x| { $memo + { $x => $x } }");
        assert_eq!(movable_params(&lambda), ["memo"]);
    }

    #[test]
    fn a_parameter_read_twice_or_in_a_nested_lambda_is_not() {
        let lambda = lambda_of("[1].reduce({}) |$memo, $x| { notice($memo) $memo + {} }");
        assert!(movable_params(&lambda).is_empty());
        let lambda = lambda_of("[1].reduce([]) |$memo, $x| { [1].map |$y| { $memo + [$y] } }");
        assert!(movable_params(&lambda).is_empty());
    }

    #[test]
    fn reading_by_name_keeps_every_parameter() {
        let lambda = lambda_of("[1].reduce({}) |$memo, $x| { $memo + { getvar('x') => 1 } }");
        assert!(movable_params(&lambda).is_empty());
    }

    #[test]
    fn resource_bodies_count_as_repeated() {
        let lambda =
            lambda_of("[1].reduce('') |$memo, $x| { file { ['/a', '/b']: content => $memo } }");
        assert!(movable_params(&lambda).is_empty());
    }

    #[test]
    fn break_is_found_anywhere() {
        assert!(may_break(&lambda_of(
            "[1].reduce(0) |$m, $x| { if $x > 1 { break() } $m + $x }"
        )));
        assert!(!may_break(&lambda_of("[1].reduce(0) |$m, $x| { $m + $x }")));
    }
}

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

use marionette_syntax::ast::{Call, Expr, ExprKind, Lambda};

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
        for arg in &call.args {
            self.expr(arg, weight);
        }
        if let Some(lambda) = &call.lambda {
            // A lambda may run any number of times: its whole text counts
            // as read again.
            for param in &lambda.params {
                for e in param.type_expr.iter().chain(&param.default) {
                    self.expr(e, 2);
                }
            }
            for e in &lambda.body {
                self.expr(e, 2);
            }
        }
    }

    fn children(&mut self, expr: &Expr, weight: u32) {
        expr.for_each_child(&mut |child| self.expr(child, weight));
    }

    fn expr(&mut self, expr: &Expr, weight: u32) {
        match &expr.kind {
            ExprKind::Variable(name) => self.reads.push((name.clone(), weight)),
            ExprKind::Call(call) => self.call(call, weight),
            ExprKind::MethodCall { receiver, call } => {
                self.expr(receiver, weight);
                self.call(call, weight);
            }
            // Resource bodies may be evaluated once per title, and
            // collectors and defaults later and repeatedly.
            ExprKind::Resource(_)
            | ExprKind::ResourceDefaults { .. }
            | ExprKind::ResourceOverride { .. }
            | ExprKind::Collect { .. } => self.children(expr, 2),
            // Definitions are not allowed in lambdas, and templates read
            // variables by name; either way, stay safe.
            ExprKind::Class(_)
            | ExprKind::Define(_)
            | ExprKind::Node(_)
            | ExprKind::Function(_)
            | ExprKind::TypeAlias { .. }
            | ExprKind::RenderString(_)
            | ExprKind::RenderExpr(_) => self.reads_by_name = true,
            _ => self.children(expr, weight),
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

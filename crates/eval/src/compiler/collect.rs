//! Collectors (`File <| tag == 'x' |>`), `realize`, and relationships
//! (`->`, `~>`, `<-`, `<~`).

use indexmap::IndexSet;
use marionette_diagnostics::Span;
use marionette_syntax::ast::{AttributeOperation, BinaryOp, Expr, ExprKind, RelationshipOp};
use marionette_values::format::to_s;
use marionette_values::{PHash, Value};

use super::defaults::collect_references;
use super::{Collector, Operand, PendingOverride, Relationship, ResId, Source};
use crate::error::{EvalError, EvalResult, Stop, fail};
use crate::evaluator::{Evaluator, strip_top};

/// A collector's query as the condition of a PuppetDB `resources`
/// query, as Puppet's terminus words it: tags compared in lower case,
/// `title` as itself, any other attribute as a parameter.
fn pdb_filter(query: &Query) -> Option<serde_json::Value> {
    use serde_json::json;
    let predicate = |attribute: &str, value: &Value| match attribute {
        "tag" => json!(["=", "tag", to_s(value).to_lowercase()]),
        "title" => json!(["=", "title", marionette_catalog::to_data(value)]),
        other => json!([
            "=",
            ["parameter", other],
            marionette_catalog::to_data(value)
        ]),
    };
    Some(match query {
        Query::All => return None,
        Query::Equal(attribute, value) => predicate(attribute, value),
        Query::NotEqual(attribute, value) => json!(["not", predicate(attribute, value)]),
        Query::And(a, b) => json!(["and", pdb_filter(a)?, pdb_filter(b)?]),
        Query::Or(a, b) => json!(["or", pdb_filter(a)?, pdb_filter(b)?]),
    })
}

/// A collector's query with its values already evaluated.
#[derive(Clone, Debug)]
pub(crate) enum Query {
    All,
    Equal(String, Value),
    NotEqual(String, Value),
    And(Box<Query>, Box<Query>),
    Or(Box<Query>, Box<Query>),
}

impl<'p> Evaluator<'p> {
    /// Registers a collector; it collects when generators run.
    pub(crate) fn collector(
        &mut self,
        expr: &'p Expr,
        overrides: Option<&'p [AttributeOperation]>,
    ) -> EvalResult<usize> {
        let ExprKind::Collect {
            type_ref,
            exported,
            query,
        } = &expr.kind
        else {
            return fail("Expected a collector", expr.span);
        };
        let type_name = match &type_ref.kind {
            ExprKind::TypeRef(name) | ExprKind::Name(name) => strip_top(name).to_lowercase(),
            _ => return fail("A collector needs a type", type_ref.span),
        };
        let query = match query {
            Some(query) => self.build_query(query)?,
            None => Query::All,
        };
        let (file, line) = self.place(expr.span);
        let id = self.compiler.collectors.len();
        self.compiler.collectors.push(Collector {
            type_name,
            exported: *exported,
            searched: false,
            scope: self.current,
            query,
            overrides: overrides.map(|ops| (ops, self.current)),
            collected: IndexSet::new(),
            empty_alternative: None,
            file,
            line,
        });
        Ok(id)
    }

    fn build_query(&mut self, expr: &'p Expr) -> EvalResult<Query> {
        match &expr.kind {
            ExprKind::Paren(inner) => self.build_query(inner),
            ExprKind::Binary { op, lhs, rhs } => match op {
                BinaryOp::And => Ok(Query::And(
                    Box::new(self.build_query(lhs)?),
                    Box::new(self.build_query(rhs)?),
                )),
                BinaryOp::Or => Ok(Query::Or(
                    Box::new(self.build_query(lhs)?),
                    Box::new(self.build_query(rhs)?),
                )),
                BinaryOp::Eq | BinaryOp::NotEq => {
                    let attribute = match &lhs.kind {
                        ExprKind::Name(name) | ExprKind::Word(name) => name.clone(),
                        _ => return fail("Expected an attribute name", lhs.span),
                    };
                    let value = self.eval(rhs)?;
                    Ok(if *op == BinaryOp::Eq {
                        Query::Equal(attribute, value)
                    } else {
                        Query::NotEqual(attribute, value)
                    })
                }
                _ => fail("Unsupported operator in a collector query", expr.span),
            },
            _ => fail("Unsupported expression in a collector query", expr.span),
        }
    }

    fn query_matches(&self, query: &Query, id: ResId) -> bool {
        let res = &self.compiler.resources[id];
        let equal = |attribute: &str, value: &Value| -> bool {
            let wanted = to_s(value);
            match attribute {
                "tag" => res.tags.contains(&wanted.to_lowercase()),
                "title" => res.title == wanted,
                _ => match res.params.get(attribute).map(|p| &p.value) {
                    Some(Value::Array(items)) => items
                        .iter()
                        .any(|item| item == value || to_s(item) == wanted),
                    Some(Value::Undef) | None => false,
                    Some(found) => found == value || to_s(found) == wanted,
                },
            }
        };
        match query {
            Query::All => true,
            Query::Equal(attribute, value) => equal(attribute, value),
            Query::NotEqual(attribute, value) => !equal(attribute, value),
            Query::And(a, b) => self.query_matches(a, id) && self.query_matches(b, id),
            Query::Or(a, b) => self.query_matches(a, id) || self.query_matches(b, id),
        }
    }

    /// Runs every collector over the resources declared so far; returns
    /// whether any found something new.
    pub(crate) fn evaluate_collections(&mut self) -> EvalResult<bool> {
        let mut found_any = false;
        // References from `realize` whose resources now exist.
        let unrealized = std::mem::take(&mut self.compiler.unrealized);
        for (type_name, title) in unrealized {
            match self.compiler.find(&type_name, &title) {
                Some(id) => {
                    found_any |= self.compiler.resources[id].is_virtual;
                    self.compiler.resources[id].is_virtual = false;
                }
                None => self.compiler.unrealized.push((type_name, title)),
            }
        }
        for index in 0..self.compiler.collectors.len() {
            let collector = &self.compiler.collectors[index];
            // Without storeconfigs, `<<| |>>` collects nothing.
            if collector.exported && self.exported_store.is_none() {
                continue;
            }
            let mut found = Vec::new();
            for (id, res) in self.compiler.resources.iter().enumerate() {
                if res.type_name != collector.type_name || collector.collected.contains(&id) {
                    continue;
                }
                // `<| |>` realizes exported resources declared here too;
                // `<<| |>>` takes only exported ones.
                if collector.exported && !res.exported {
                    continue;
                }
                if self.query_matches(&collector.query, id) {
                    found.push(id);
                }
            }
            if self.compiler.collectors[index].exported && !self.compiler.collectors[index].searched
            {
                self.compiler.collectors[index].searched = true;
                found.extend(self.collect_from_other_nodes(index)?);
            }
            if found.is_empty() {
                continue;
            }
            found_any = true;
            let overrides = self.compiler.collectors[index].overrides;
            let (file, line) = (
                self.compiler.collectors[index].file.clone(),
                self.compiler.collectors[index].line,
            );
            for id in found {
                self.compiler.collectors[index].collected.insert(id);
                self.compiler.resources[id].is_virtual = false;
                if let Some((operations, scope)) = overrides {
                    let saved = std::mem::replace(&mut self.current, scope);
                    let attributes = self.attribute_list(operations);
                    self.current = saved;
                    let params = self.params_from(attributes?, &Source::Anywhere)?;
                    let res = &self.compiler.resources[id];
                    let pending = PendingOverride {
                        type_name: res.type_name.clone(),
                        title: res.title.clone(),
                        params,
                        source: Source::Anywhere,
                        file: file.clone(),
                        line,
                    };
                    self.merge_override(id, pending, Span::default())?;
                }
            }
        }
        Ok(found_any)
    }

    /// Declares, in the collector's scope, what other nodes export that
    /// an exported collector asks for, as Puppet's exported collector
    /// does: a resource already in the catalog under that type and title
    /// is a duplicate unless it came from the same node's same export.
    fn collect_from_other_nodes(&mut self, index: usize) -> EvalResult<Vec<ResId>> {
        let Some(store) = self.exported_store.clone() else {
            return Ok(Vec::new());
        };
        let collector = &self.compiler.collectors[index];
        let type_name = marionette_values::types::capitalize_segments(&collector.type_name);
        let filter = pdb_filter(&collector.query);
        let scope = collector.scope;
        let unlocated = |message: String| {
            Stop::Error(EvalError::new(message, Span::default()).without_location())
        };
        let found = store
            .search(&type_name, &self.node_name, filter)
            .map_err(unlocated)?;
        let mut collected = Vec::new();
        for item in found {
            let collector_id = format!("{}|{}|{}", item.certname, item.type_name, item.title);
            let lower = item.type_name.to_lowercase();
            if let Some(existing) = self.compiler.find(&lower, &item.title) {
                if self.compiler.collected_from.get(&existing) != Some(&collector_id) {
                    return Err(unlocated(format!(
                        "A duplicate resource was found while collecting exported resources, with the type and title {}[{}]",
                        item.type_name, item.title
                    )));
                }
                continue;
            }
            let params: PHash = item
                .parameters
                .iter()
                .map(|(name, value)| {
                    (
                        Value::string(name.as_str()),
                        marionette_catalog::from_data(value),
                    )
                })
                .collect();
            let saved = std::mem::replace(&mut self.current, scope);
            let declared = self.declare_from_function(
                &item.type_name,
                &Value::string(item.title.as_str()),
                &params,
                Span::default(),
            );
            self.current = saved;
            declared?;
            if let Some(id) = self.compiler.find(&lower, &item.title) {
                // Puppet's collected resource carries no place of its own.
                let res = &mut self.compiler.resources[id];
                res.file = None;
                res.line = None;
                self.compiler.collected_from.insert(id, collector_id);
                collected.push(id);
            }
        }
        Ok(collected)
    }

    /// `realize(File['x'], ...)`: makes virtual resources real, now or
    /// when they are declared; missing ones are an error at the end.
    pub(crate) fn realize(&mut self, references: &[Value]) -> EvalResult<()> {
        let mut refs = Vec::new();
        for value in references {
            collect_references(value, &mut refs);
        }
        for (type_name, title) in refs {
            match self.compiler.find(&type_name, &title) {
                Some(id) => self.compiler.resources[id].is_virtual = false,
                None => self.compiler.unrealized.push((type_name, title)),
            }
        }
        Ok(())
    }

    /// Evaluates `lhs -> rhs` (and the other arrows) and records the
    /// relationship for the end of compilation. The value is the right
    /// side, so that chains link each pair.
    pub(crate) fn relationship(
        &mut self,
        op: RelationshipOp,
        lhs: &'p Expr,
        rhs: &'p Expr,
        span: Span,
    ) -> EvalResult<(Operand, Value)> {
        let (left, _) = self.operand(lhs)?;
        let (right, value) = self.operand(rhs)?;
        if let Operand::Collector(id) = right {
            self.compiler.collectors[id].empty_alternative = Some(left.clone());
        }
        let (source, target) = match op {
            RelationshipOp::Before | RelationshipOp::Notify => (left, right.clone()),
            RelationshipOp::Require | RelationshipOp::Subscribe => (right.clone(), left),
        };
        let param = match op {
            RelationshipOp::Before | RelationshipOp::Require => "before",
            RelationshipOp::Notify | RelationshipOp::Subscribe => "notify",
        };
        let (file, line) = self.place(span);
        self.compiler.relationships.push(Relationship {
            source,
            target,
            param,
            file,
            line,
        });
        Ok((right, value))
    }

    fn operand(&mut self, expr: &'p Expr) -> EvalResult<(Operand, Value)> {
        match &expr.kind {
            ExprKind::Collect { .. } => {
                let id = self.collector(expr, None)?;
                Ok((Operand::Collector(id), Value::Undef))
            }
            ExprKind::ResourceOverride { target, operations }
                if matches!(target.kind, ExprKind::Collect { .. }) =>
            {
                let id = self.collector(target, Some(operations))?;
                Ok((Operand::Collector(id), Value::Undef))
            }
            ExprKind::Relationship { op, lhs, rhs } => self.relationship(*op, lhs, rhs, expr.span),
            _ => {
                let value = self.eval(expr)?;
                let mut refs = Vec::new();
                collect_references(&value, &mut refs);
                Ok((Operand::References(refs), value))
            }
        }
    }
}

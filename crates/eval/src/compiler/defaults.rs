//! Resource defaults (`File { mode => '0644' }`) and overrides
//! (`File['x'] { mode => '0600' }`, `+>` appends).

use super::Params;
use marionette_diagnostics::Span;
use marionette_syntax::ast::{AttributeOperation, Expr, ExprKind};
use marionette_values::{PType, Value};

use super::{Param, PendingOverride, ResId, ResourceDefault, Source, key};
use crate::error::{EvalResult, fail};
use crate::evaluator::{Evaluator, strip_top};

impl<'p> Evaluator<'p> {
    /// `Type { attr => value }`: defaults for resources declared later in
    /// this scope and in the classes and defined types it declares.
    pub(crate) fn resource_defaults(
        &mut self,
        type_ref: &'p Expr,
        operations: &'p [AttributeOperation],
    ) -> EvalResult<Value> {
        let type_name = match &type_ref.kind {
            ExprKind::TypeRef(name) | ExprKind::Name(name) => strip_top(name).to_lowercase(),
            _ => return fail("Resource defaults need a type", type_ref.span),
        };
        let attributes = self.attribute_list(operations)?;
        let source = self.source_of(self.current);
        let params = self.params_from(attributes, &source)?;
        let scope = self.scopes.get_mut(self.current);
        match scope.defaults.iter_mut().find(|d| d.type_name == type_name) {
            Some(existing) => {
                for (name, param) in params {
                    existing.params.retain(|(n, _)| *n != name);
                    existing.params.push((name, param));
                }
            }
            None => scope.defaults.push(ResourceDefault { type_name, params }),
        }
        Ok(Value::Undef)
    }

    /// Adds the defaults that apply where resource `id` was declared to
    /// the parameters not set explicitly; closer scopes win.
    pub(crate) fn apply_defaults(&mut self, id: ResId, params: &mut Params) {
        let type_name = self.compiler.resources[id].type_name.clone();
        let mut chain = Vec::new();
        let mut scope = Some(self.compiler.resources[id].scope);
        while let Some(current) = scope {
            if chain.len() > 10_000 {
                break;
            }
            chain.push(current);
            scope = self.scopes.defaults_parent(current);
        }
        let mut found: Params = Params::default();
        for &scope in chain.iter().rev() {
            for default in &self.scopes.get(scope).defaults {
                if default.type_name == type_name {
                    for (name, param) in &default.params {
                        found.insert(name.clone(), param.clone());
                    }
                }
            }
        }
        for (name, param) in found {
            if !params.contains_key(&name) {
                if name == "tag" {
                    for tag in super::resources::flat_strings(&param.value) {
                        self.compiler.resources[id].tag(&tag);
                    }
                }
                params.insert(name, param);
            }
        }
    }

    /// `Type['title'] { attr => value }`: applied now when the resource
    /// exists, else when it is declared (or reported at the end).
    pub(crate) fn resource_override(
        &mut self,
        target: &'p Expr,
        operations: &'p [AttributeOperation],
        span: Span,
    ) -> EvalResult<Value> {
        if let ExprKind::Collect { .. } = &target.kind {
            self.collector(target, Some(operations))?;
            return Ok(Value::Undef);
        }
        let references = self.eval(target)?;
        let mut refs = Vec::new();
        collect_references(&references, &mut refs);
        let attributes = self.attribute_list(operations)?;
        let source = self.source_of(self.current);
        let (file, line) = self.place(span);
        for (type_name, title) in refs {
            let params = self.params_from(attributes.clone(), &source)?;
            let pending = PendingOverride {
                type_name,
                title,
                params,
                source: source.clone(),
                file: file.clone(),
                line,
            };
            match self.compiler.find(&pending.type_name, &pending.title) {
                Some(id) => self.merge_override(id, pending, span)?,
                None => self.compiler.overrides.push(pending),
            }
        }
        Ok(Value::Undef)
    }

    /// Applies the overrides that were waiting for resource `id`.
    pub(crate) fn apply_pending_overrides(&mut self, id: ResId) -> EvalResult<()> {
        if self.compiler.overrides.is_empty() {
            return Ok(());
        }
        let res_key = {
            let res = &self.compiler.resources[id];
            key(&res.type_name, &res.title)
        };
        let (matching, rest): (Vec<_>, Vec<_>) = std::mem::take(&mut self.compiler.overrides)
            .into_iter()
            .partition(|o| key(&o.type_name, &o.title) == res_key);
        self.compiler.overrides = rest;
        for pending in matching {
            self.merge_override(id, pending, Span::default())?;
        }
        Ok(())
    }

    /// Merges an override into a resource with Puppet's rules: only code in
    /// the declaring class or a subclass may override, and a value set by
    /// other code may be replaced only from a subclass.
    pub(crate) fn merge_override(
        &mut self,
        id: ResId,
        pending: PendingOverride,
        span: Span,
    ) -> EvalResult<()> {
        let fail_at = |message: String| -> EvalResult<()> {
            let mut error = crate::error::EvalError::new(message, span);
            error.plain = true;
            error.located = Some(crate::error::Located {
                file: pending.file.to_string(),
                line: pending.line,
                column: None,
            });
            Err(crate::error::Stop::Error(error))
        };
        let resource_source = self.compiler.resources[id].source.clone();
        if pending.source != resource_source
            && !self.source_child_of(&pending.source, &resource_source)
        {
            return fail_at("Only subclasses can override parameters".into());
        }
        for (name, param) in pending.params {
            let current = self.compiler.resources[id].params.get(&name).cloned();
            let value = match current {
                None => param.value.clone(),
                Some(current) => {
                    if !self.source_child_of(&param.source, &current.source) {
                        let reference = self.compiler.resources[id].reference();
                        let by = match &current.source {
                            Source::Class(name) => format!(
                                " by Class[{}]",
                                marionette_values::types::capitalize_segments(name)
                            ),
                            Source::Anywhere => String::new(),
                            // Puppet prints its internal object here.
                            _ => " by #<Puppet::Resource::Type>".to_string(),
                        };
                        return fail_at(format!(
                            "Parameter '{name}' is already set on {reference}{by} at (file: {}, line: {}); cannot redefine",
                            current.file, current.line
                        ));
                    }
                    if param.append {
                        let mut items = flatten(current.value);
                        items.extend(flatten(param.value.clone()));
                        Value::array(items)
                    } else {
                        param.value.clone()
                    }
                }
            };
            if name == "tag" {
                for tag in super::resources::flat_strings(&value) {
                    self.compiler.resources[id].tag(&tag);
                }
            }
            self.compiler.resources[id]
                .params
                .insert(name, Param { value, ..param });
        }
        Ok(())
    }
}

fn flatten(value: Value) -> Vec<Value> {
    match value {
        Value::Array(items) => items.iter().cloned().flat_map(flatten).collect(),
        other => vec![other],
    }
}

/// The `(type, title)` pairs named by a reference value: `File['x']`,
/// `Class['y']`, or arrays of them.
pub(crate) fn collect_references(value: &Value, out: &mut Vec<(String, String)>) {
    match value {
        Value::Array(items) => items.iter().for_each(|v| collect_references(v, out)),
        Value::Type(t) => match &**t {
            PType::Resource {
                type_name: Some(kind),
                title: Some(title),
            } => out.push((kind.to_lowercase(), title.clone())),
            PType::Class(Some(name)) => out.push(("class".into(), name.to_lowercase())),
            _ => {}
        },
        Value::String(text) => {
            // `'File[x]'` written as a string is accepted as a reference.
            if let Some((kind, rest)) = text.split_once('[')
                && let Some(title) = rest.strip_suffix(']')
            {
                // Quotes around the whole title are the reference's own;
                // a title may itself end with a quote.
                let title = ['\'', '"']
                    .iter()
                    .find_map(|q| title.strip_prefix(*q)?.strip_suffix(*q))
                    .unwrap_or(title);
                out.push((kind.to_lowercase(), title.to_string()));
            }
        }
        _ => {}
    }
}

//! Interpolation: `%{...}` in data, paths and options, with Puppet's
//! methods (`lookup`, `hiera`, `alias`, `literal`, `scope`), scope
//! variables dug into with dotted keys, and loops found by the stack of
//! keys being looked up.

use super::*;

impl Session {
    /// Interpolates `%{...}` in strings, arrays and hashes.
    pub(super) fn interpolate(
        &self,
        inv: &mut Inv<'_>,
        value: Value,
        methods: bool,
    ) -> Result<Value> {
        // Most data has nothing to interpolate: it is shared, not copied.
        if !needs_interpolation(&value) {
            return Ok(value);
        }
        match value {
            Value::String(s) if s.contains("%{") => self.interpolate_string(inv, &s, methods, &[]),
            Value::Array(items) => {
                let mut out = Vec::with_capacity(items.len());
                for item in items.iter() {
                    out.push(self.interpolate(inv, item.clone(), methods)?);
                }
                Ok(Value::array(out))
            }
            Value::Hash(hash) => {
                let mut out = PHash::with_capacity(hash.len());
                for (k, v) in hash.iter() {
                    let k = self.interpolate(inv, k.clone(), methods)?;
                    let v = self.interpolate(inv, v.clone(), methods)?;
                    out.insert(k, v);
                }
                Ok(Value::hash(out))
            }
            other => Ok(other),
        }
    }

    pub(super) fn interpolate_text(
        &self,
        inv: &mut Inv<'_>,
        text: &str,
        methods: bool,
    ) -> Result<String> {
        self.interpolate_with(inv, text, methods, &[])
    }

    pub(super) fn interpolate_with(
        &self,
        inv: &mut Inv<'_>,
        text: &str,
        methods: bool,
        locals: &[(&str, Value)],
    ) -> Result<String> {
        if !text.contains("%{") {
            return Ok(text.to_string());
        }
        match self.interpolate_string(inv, text, methods, locals)? {
            Value::String(s) => Ok(s.to_string()),
            other => Ok(ruby_to_s(&other)),
        }
    }

    pub(super) fn interpolate_string(
        &self,
        inv: &mut Inv<'_>,
        subject: &str,
        methods: bool,
        locals: &[(&str, Value)],
    ) -> Result<Value> {
        inv.within(
            || Kind::Interpolate(subject.to_string()),
            |inv| self.interpolate_parts(inv, subject, methods, locals),
        )
    }

    pub(super) fn interpolate_parts(
        &self,
        inv: &mut Inv<'_>,
        subject: &str,
        methods: bool,
        locals: &[(&str, Value)],
    ) -> Result<Value> {
        let mut out = String::with_capacity(subject.len());
        let mut rest = subject;
        while let Some(start) = rest.find("%{") {
            let Some(len) = rest[start + 2..].find('}') else {
                break;
            };
            out.push_str(&rest[..start]);
            let whole = &rest[start..start + 2 + len + 1];
            let expr = rest[start + 2..start + 2 + len].trim();
            rest = &rest[start + 2 + len + 1..];
            if matches!(expr, "" | "::" | "\"\"" | "''" | "\"::\"" | "'::'") {
                continue;
            }
            let (method, key) = method_and_key(expr);
            if method != "scope" && !methods {
                return Err(HieraError::new(
                    ErrorKind::Syntax,
                    "Interpolation using method syntax is not allowed in this context",
                ));
            }
            let value = match method {
                "literal" => Some(Value::string(key)),
                "scope" => match locals.iter().find(|(name, _)| *name == key) {
                    Some((_, value)) => Some(value.clone()),
                    None => {
                        let value = self.scope_value(inv, key, subject)?;
                        if let Some(reads) = inv.reads.as_mut() {
                            reads.push((key.to_string(), value.clone()));
                        }
                        value
                    }
                },
                "lookup" | "hiera" | "alias" => {
                    if method == "alias" && whole != subject {
                        return Err(HieraError::new(
                            ErrorKind::Syntax,
                            "'alias' interpolation is only permitted if the expression is equal to the entire string",
                        ));
                    }
                    let saved = std::mem::take(&mut inv.module);
                    let found = self.lookup_in(inv, key, None);
                    inv.module = saved;
                    let found = found?.unwrap_or_else(|| Value::string(""));
                    if method == "alias" {
                        return Ok(found);
                    }
                    Some(found)
                }
                other => {
                    return Err(HieraError::new(
                        ErrorKind::Syntax,
                        format!("Unknown interpolation method '{other}'"),
                    ));
                }
            };
            let value = match value {
                Some(value) => {
                    let name = if method == "scope" {
                        format!("scope:{key}")
                    } else {
                        key.to_string()
                    };
                    inv.check(&name, |inv| self.interpolate(inv, value, methods))?
                }
                None => Value::Undef,
            };
            match value {
                Value::Undef => {}
                Value::String(s) => out.push_str(&s),
                other => out.push_str(&ruby_to_s(&other)),
            }
        }
        out.push_str(rest);
        Ok(Value::string(out))
    }

    /// `%{name}` and `%{name.a.b}`: a variable of the scope, dug into.
    pub(super) fn scope_value(
        &self,
        inv: &mut Inv<'_>,
        key: &str,
        subject: &str,
    ) -> Result<Option<Value>> {
        let mut segments = crate::key::split(key).ok_or_else(|| {
            HieraError::new(
                ErrorKind::Syntax,
                format!("Syntax error in string: {subject}"),
            )
        })?;
        let root = match segments.remove(0) {
            Segment::Name(name) => name,
            Segment::Index(i) => i.to_string(),
        };
        inv.push(|| Kind::Scope("Global Scope".into()));
        let value = match segments.first() {
            Some(Segment::Name(key)) => inv.scope.variable_for_key(&root, key),
            _ => inv.scope.variable(&root),
        };
        if let Some(value) = &value {
            inv.explain(|e| e.found(&root, value));
        }
        inv.pop();
        let Some(value) = value else {
            return Ok(None);
        };
        self.dig_explained(inv, key, &segments, value)
    }
}

/// Whether a value holds a `%{` anywhere, keys included.
pub(super) fn needs_interpolation(value: &Value) -> bool {
    match value {
        Value::String(s) => s.contains("%{"),
        Value::Array(items) => items.iter().any(needs_interpolation),
        Value::Hash(hash) => hash
            .iter()
            .any(|(k, v)| needs_interpolation(k) || needs_interpolation(v)),
        _ => false,
    }
}

/// `lookup('k')` style expressions: the method and its quoted argument;
/// anything else is a scope variable.
pub(super) fn method_and_key(expr: &str) -> (&str, &str) {
    if let Some(open) = expr.find('(')
        && expr.ends_with(')')
    {
        let method = &expr[..open];
        let inner = &expr[open + 1..expr.len() - 1];
        let bytes = inner.as_bytes();
        if !method.is_empty()
            && method
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_')
            && bytes.len() >= 3
            && matches!(bytes[0], b'"' | b'\'')
            && bytes[bytes.len() - 1] == bytes[0]
            && !inner[1..inner.len() - 1].contains(bytes[0] as char)
        {
            return (method, &inner[1..inner.len() - 1]);
        }
    }
    ("scope", expr)
}

/// A value as Ruby's `to_s` writes it inside an interpolated string: a
/// collection in its `inspect` form.
pub(super) fn ruby_to_s(value: &Value) -> String {
    match value {
        Value::String(s) => s.to_string(),
        Value::Undef => String::new(),
        other => crate::explain::inspect(other),
    }
}

//! Reading a Puppet type from its text (`Integer[0, 10]`,
//! `Enum['a', 'b']`, `Optional[Pattern[/\A\d+\z/]]`,
//! `Struct[{name => String, Optional[port] => Integer}]`), for types that
//! come from data files rather than from manifests. Only built-in type
//! names are known here; aliases and resource types need the evaluator.

use std::sync::Arc;

use crate::value::PHash;
use crate::{PType, Regex, Value};

/// Parses a type expression made of built-in type names and literal
/// parameters.
pub fn parse_type(text: &str) -> Result<PType, String> {
    let mut parser = Parser { text, pos: 0 };
    let ptype = parser.ptype()?;
    parser.blank();
    if parser.pos != text.len() {
        return Err(parser.error("end of the type"));
    }
    Ok(ptype)
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
}

impl Parser<'_> {
    fn rest(&self) -> &str {
        &self.text[self.pos..]
    }

    fn blank(&mut self) {
        let rest = self.rest();
        self.pos += rest.len() - rest.trim_start().len();
    }

    fn error(&self, expected: &str) -> String {
        format!(
            "invalid type {:?}: expected {expected} at column {}",
            self.text,
            self.text[..self.pos].chars().count() + 1
        )
    }

    fn eat(&mut self, token: &str) -> bool {
        self.blank();
        if self.rest().starts_with(token) {
            self.pos += token.len();
            true
        } else {
            false
        }
    }

    fn name(&mut self) -> Option<String> {
        self.blank();
        let rest = self.rest();
        let len = rest
            .char_indices()
            .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_' || *c == ':'))
            .map_or(rest.len(), |(i, _)| i);
        if len == 0 {
            return None;
        }
        let name = rest[..len].to_string();
        self.pos += len;
        Some(name)
    }

    fn ptype(&mut self) -> Result<PType, String> {
        let start = self.pos;
        let name = self.name().ok_or_else(|| self.error("a type name"))?;
        let base = PType::from_name(&name).ok_or_else(|| {
            self.pos = start;
            self.error(&format!("a built-in type name (unknown type {name})"))
        })?;
        if !self.eat("[") {
            return Ok(base);
        }
        let mut args = Vec::new();
        if !self.eat("]") {
            loop {
                args.push(self.value()?);
                if self.eat("]") {
                    break;
                }
                if !self.eat(",") {
                    return Err(self.error("',' or ']'"));
                }
            }
        }
        base.parameterize(&args)
            .map_err(|e| e.message)
            .map_err(|e| format!("invalid type {:?}: {e}", self.text))
    }

    fn value(&mut self) -> Result<Value, String> {
        self.blank();
        let rest = self.rest();
        let first = rest
            .chars()
            .next()
            .ok_or_else(|| self.error("a parameter"))?;
        match first {
            '\'' | '"' => self.string(first).map(|s| Value::String(s.into())),
            '/' => self.regex(),
            '{' => self.hash(),
            '-' | '0'..='9' => self.number(),
            c if c.is_ascii_uppercase() => Ok(Value::Type(Box::new(self.ptype()?))),
            _ => {
                let start = self.pos;
                match self.name().as_deref() {
                    Some("default") => Ok(Value::Default),
                    Some("undef") => Ok(Value::Undef),
                    Some(bare)
                        if bare
                            .chars()
                            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_') =>
                    {
                        Ok(Value::String(bare.into()))
                    }
                    _ => {
                        self.pos = start;
                        Err(self.error("a parameter"))
                    }
                }
            }
        }
    }

    fn string(&mut self, quote: char) -> Result<String, String> {
        self.pos += 1;
        let mut out = String::new();
        let mut chars = self.rest().char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '\\' => {
                    if let Some((_, next)) = chars.next() {
                        if next != quote && next != '\\' {
                            out.push('\\');
                        }
                        out.push(next);
                    }
                }
                c if c == quote => {
                    self.pos += i + 1;
                    return Ok(out);
                }
                c => out.push(c),
            }
        }
        Err(self.error("the end of the string"))
    }

    fn regex(&mut self) -> Result<Value, String> {
        self.pos += 1;
        let rest = self.rest();
        let mut escaped = false;
        for (i, c) in rest.char_indices() {
            match c {
                '\\' if !escaped => escaped = true,
                '/' if !escaped => {
                    let source = rest[..i].to_string();
                    self.pos += i + 1;
                    return Regex::new(&source).map(Value::Regexp).map_err(|e| {
                        format!("invalid type {:?}: bad regex /{source}/: {e}", self.text)
                    });
                }
                _ => escaped = false,
            }
        }
        Err(self.error("the end of the regex"))
    }

    fn number(&mut self) -> Result<Value, String> {
        let rest = self.rest();
        let len = rest
            .char_indices()
            .skip(1)
            .find(|(_, c)| !(c.is_ascii_digit() || *c == '.' || *c == 'e' || *c == '_'))
            .map_or(rest.len(), |(i, _)| i);
        let text = &rest[..len];
        let value = if let Ok(i) = text.parse::<i64>() {
            Value::Integer(i)
        } else if let Ok(f) = text.parse::<f64>() {
            Value::Float(f)
        } else {
            return Err(self.error("a number"));
        };
        self.pos += len;
        Ok(value)
    }

    fn hash(&mut self) -> Result<Value, String> {
        self.pos += 1;
        let mut hash = PHash::default();
        if self.eat("}") {
            return Ok(Value::Hash(Arc::new(hash)));
        }
        loop {
            let key = self.value()?;
            if !self.eat("=>") {
                return Err(self.error("'=>'"));
            }
            let value = self.value()?;
            hash.insert(key, value);
            if self.eat("}") {
                break;
            }
            if !self.eat(",") {
                return Err(self.error("',' or '}'"));
            }
            if self.eat("}") {
                break;
            }
        }
        Ok(Value::Hash(Arc::new(hash)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(text: &str) -> String {
        parse_type(text).unwrap().to_string()
    }

    #[test]
    fn types_print_back_as_written() {
        for text in [
            "Integer[0, 10]",
            "String",
            "Enum['a', 'b']",
            "Optional[Pattern[/\\A\\d+\\z/]]",
            "Array[String, 1]",
            "Variant[Integer, Boolean]",
            "Hash[String, Integer]",
        ] {
            assert_eq!(round_trip(text), text);
        }
        assert_eq!(round_trip("Integer[0]"), "Integer[0]");
    }

    #[test]
    fn structs_take_a_hash() {
        let ptype = parse_type("Struct[{name => String, Optional[port] => Integer}]").unwrap();
        let PType::Struct(members) = ptype else {
            panic!("not a struct")
        };
        assert_eq!(members.len(), 2);
        assert!(members[1].optional);
    }

    #[test]
    fn errors_say_where() {
        assert_eq!(
            parse_type("Integer[0,").unwrap_err(),
            "invalid type \"Integer[0,\": expected a parameter at column 11"
        );
        assert!(
            parse_type("Port")
                .unwrap_err()
                .contains("unknown type Port")
        );
        assert!(
            parse_type("Integer['x']")
                .unwrap_err()
                .contains("requires all arguments to be integers")
        );
    }
}

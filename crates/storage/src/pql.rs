//! PQL, PuppetDB's string query language, read into the JSON query AST
//! the store answers: `nodes[certname] { facts { name = "os" } limit 1 }`
//! becomes `["from", "nodes", ["extract", ["certname"], ["subquery",
//! "facts", ["=", "name", "os"]]], ["limit", 1]]`.
//!
//! The grammar is PuppetDB 7's: an entity, an optional projection in
//! brackets (fields and the aggregate functions `count`, `avg`, `sum`,
//! `min`, `max`), and in braces an optional filter followed by either a
//! `group by` or paging clauses (`limit`, `offset`, `order by`). Filters
//! combine conditions with `!`, `and` and `or` (in that order of
//! precedence) and parentheses; conditions are `=`, `!=`, `~`, `!~`,
//! `~>`, `<`, `<=`, `>`, `>=`, `in` (a list or a query), `is null`,
//! `is not null`, and implicit subqueries (`nodes { facts { ... } }`).
//!
//! Nothing here panics on input: a query that is not PQL is a
//! [`StoreError::Query`] naming where it went wrong.

use serde_json::{Number, Value, json};

use crate::StoreError;

/// The entities PQL names (with underscores, as PuppetDB spells them in
/// PQL).
const ENTITIES: &[&str] = &[
    "facts",
    "reports",
    "catalogs",
    "packages",
    "package_inventory",
    "resources",
    "nodes",
    "environments",
    "factsets",
    "fact_paths",
    "fact_contents",
    "inventory",
    "edges",
    "events",
];

const FUNCTIONS: &[&str] = &["count", "avg", "sum", "min", "max", "to_string"];

/// Parses a PQL query into the AST of the root endpoint, `["from",
/// ENTITY, QUERY, PAGING...]`.
pub(crate) fn parse(text: &str) -> Result<Value, StoreError> {
    let tokens = lex(text)?;
    let mut parser = Parser {
        text,
        tokens,
        at: 0,
    };
    let query = parser.query()?;
    match parser.peek() {
        Token::End => Ok(query),
        _ => Err(parser.error("the end of the query")),
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Token {
    /// A bare word: an entity, a field, a keyword.
    Word(String),
    /// A field with a path: `facts.os.family`, `parameters.ensure`.
    Dotted(String),
    Text(String),
    Integer(i64),
    Real(f64),
    /// Punctuation and operators.
    Symbol(&'static str),
    End,
}

impl Token {
    fn describe(&self) -> String {
        match self {
            Token::Word(w) | Token::Dotted(w) => format!("'{w}'"),
            Token::Text(t) => format!("the string {}", json!(t)),
            Token::Integer(n) => format!("the number {n}"),
            Token::Real(n) => format!("the number {n}"),
            Token::Symbol(s) => format!("'{s}'"),
            Token::End => "the end of the query".into(),
        }
    }
}

/// Where a token starts in the text (a byte offset).
type Spanned = (Token, usize);

fn position(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// A parse error as PuppetDB words its first line, then the line of the
/// query with a caret under the place, then what was wrong.
fn parse_error(text: &str, offset: usize, message: impl std::fmt::Display) -> StoreError {
    let (line, column) = position(text, offset);
    let shown = text.lines().nth(line - 1).unwrap_or_default();
    let caret = " ".repeat(column - 1);
    StoreError::Query(format!(
        "PQL parse error at line {line}, column {column}:\n\n{shown}\n{caret}^\n\n{message}"
    ))
}

const SYMBOLS: &[&str] = &[
    "!=", "!~", "~>", "<=", ">=", "=", "~", "<", ">", "!", "[", "]", "{", "}", "(", ")", ",",
];

fn word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

fn lex(text: &str) -> Result<Vec<Spanned>, StoreError> {
    let mut tokens = Vec::new();
    let mut rest = text;
    let offset = |rest: &str| text.len() - rest.len();
    loop {
        rest = rest.trim_start();
        let start = offset(rest);
        let Some(first) = rest.chars().next() else {
            tokens.push((Token::End, start));
            return Ok(tokens);
        };
        if first == '"' || first == '\'' {
            let (value, len) = string(&rest[1..], first)
                .ok_or_else(|| parse_error(text, start, "this string is never closed"))?;
            let value = if first == '"' {
                // Double quotes escape as JSON strings do.
                serde_json::from_str::<String>(&format!("\"{value}\"")).map_err(|e| {
                    parse_error(text, start, format!("this string's escapes are wrong: {e}"))
                })?
            } else {
                value.replace("\\'", "'")
            };
            tokens.push((Token::Text(value), start));
            rest = &rest[len + 2..];
            continue;
        }
        let negative = first == '-' && rest[1..].starts_with(|c: char| c.is_ascii_digit());
        if first.is_ascii_digit() || negative {
            let (token, len) = number(rest)
                .ok_or_else(|| parse_error(text, start, "this number is not one PQL can read"))?;
            // A word that starts with digits (`123abc`) is a word.
            if !negative && rest[len..].starts_with(word_char) {
                let len = rest.find(|c: char| !word_char(c)).unwrap_or(rest.len());
                tokens.push((Token::Word(rest[..len].to_string()), start));
                rest = &rest[len..];
            } else {
                tokens.push((token, start));
                rest = &rest[len..];
            }
            continue;
        }
        if word_char(first) {
            let mut len = rest.find(|c: char| !word_char(c)).unwrap_or(rest.len());
            if rest[len..].starts_with('?') {
                len += 1;
            }
            let word = &rest[..len];
            if matches!(word, "facts" | "trusted" | "parameters") && rest[len..].starts_with('.') {
                let path_len = field_path(&rest[len..])
                    .ok_or_else(|| parse_error(text, start, "this field's path is malformed"))?;
                tokens.push((Token::Dotted(rest[..len + path_len].to_string()), start));
                rest = &rest[len + path_len..];
            } else {
                tokens.push((Token::Word(word.to_string()), start));
                rest = &rest[len..];
            }
            continue;
        }
        match SYMBOLS.iter().find(|s| rest.starts_with(**s)) {
            Some(symbol) => {
                tokens.push((Token::Symbol(symbol), start));
                rest = &rest[symbol.len()..];
            }
            None => {
                return Err(parse_error(
                    text,
                    start,
                    format!("'{first}' is not part of PQL"),
                ));
            }
        }
    }
}

/// The contents of a string whose opening `quote` is already read, up to
/// its closing quote (backslashes escape the next character), and their
/// length in bytes.
fn string(rest: &str, quote: char) -> Option<(&str, usize)> {
    let mut escaped = false;
    for (i, c) in rest.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            c if c == quote => return Some((&rest[..i], i)),
            _ => {}
        }
    }
    None
}

/// An integer or a real (`-12`, `4.1`, `4.1E-3`) and its length.
fn number(rest: &str) -> Option<(Token, usize)> {
    let bytes = rest.as_bytes();
    let digits = |from: usize| {
        bytes[from..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    };
    let mut len = usize::from(bytes.first() == Some(&b'-'));
    len += digits(len);
    let mut real = false;
    if bytes.get(len) == Some(&b'.') && bytes.get(len + 1).is_some_and(u8::is_ascii_digit) {
        real = true;
        len += 1 + digits(len + 1);
        if matches!(bytes.get(len), Some(b'e' | b'E')) {
            let mut at = len + 1;
            if matches!(bytes.get(at), Some(b'+' | b'-')) {
                at += 1;
            }
            let exponent = digits(at);
            if exponent == 0 {
                return None;
            }
            len = at + exponent;
        }
    }
    let text = &rest[..len];
    let token = if real {
        Token::Real(text.parse().ok()?)
    } else {
        Token::Integer(text.parse().ok()?)
    };
    Some((token, len))
}

/// The length of a dotted field's path (`.os."a.b".family`, `.disks[0]`,
/// `.match("sd.*")`), starting at its first dot.
fn field_path(rest: &str) -> Option<usize> {
    let mut len = 0;
    while rest[len..].starts_with('.') {
        let step = &rest[len + 1..];
        let step_len = if let Some(quoted) = step.strip_prefix('"') {
            // A quoted step ends at a quote followed by a dot or a space
            // (or the end).
            let mut end = None;
            for (i, c) in quoted.char_indices() {
                if c != '"' {
                    continue;
                }
                // The quote is one byte: what follows starts right after.
                let next = quoted[i + 1..].chars().next();
                if next.is_none_or(|n| n == '.' || n.is_whitespace() || "=!~<>".contains(n)) {
                    end = Some(i + 2);
                    break;
                }
            }
            end?
        } else if step.starts_with("match(") {
            step.find(')')? + 1
        } else {
            let plain = step
                .find(|c: char| c.is_whitespace() || ".\",[]!<=>~(){}".contains(c))
                .unwrap_or(step.len());
            let mut plain_len = plain;
            // An index: `[0]`.
            if let Some(index) = step[plain..].strip_prefix('[') {
                let digits = index.chars().take_while(char::is_ascii_digit).count();
                if digits > 0 && index[digits..].starts_with(']') {
                    plain_len += digits + 2;
                }
            }
            plain_len
        };
        if step_len == 0 {
            return None;
        }
        len += 1 + step_len;
    }
    Some(len)
}

struct Parser<'a> {
    text: &'a str,
    tokens: Vec<Spanned>,
    at: usize,
}

impl Parser<'_> {
    fn peek(&self) -> &Token {
        self.tokens.get(self.at).map_or(&Token::End, |(t, _)| t)
    }

    fn peek_at(&self, ahead: usize) -> &Token {
        self.tokens
            .get(self.at + ahead)
            .map_or(&Token::End, |(t, _)| t)
    }

    fn next(&mut self) -> Token {
        let token = self.peek().clone();
        if self.at < self.tokens.len() {
            self.at += 1;
        }
        token
    }

    /// Steps back over the token just read, to name it in an error.
    fn back(&mut self) {
        self.at = self.at.saturating_sub(1);
    }

    fn error(&self, expected: &str) -> StoreError {
        let offset = self
            .tokens
            .get(self.at)
            .map_or(self.text.len(), |(_, at)| *at);
        parse_error(
            self.text,
            offset,
            format!("expected {expected}, found {}", self.peek().describe()),
        )
    }

    fn is_symbol(&self, symbol: &str) -> bool {
        matches!(self.peek(), Token::Symbol(s) if *s == symbol)
    }

    fn is_word(&self, word: &str) -> bool {
        matches!(self.peek(), Token::Word(w) if w == word)
    }

    fn expect_symbol(&mut self, symbol: &'static str) -> Result<(), StoreError> {
        if self.is_symbol(symbol) {
            self.next();
            Ok(())
        } else {
            Err(self.error(&format!("'{symbol}'")))
        }
    }

    fn expect_word(&mut self, word: &str) -> Result<(), StoreError> {
        if self.is_word(word) {
            self.next();
            Ok(())
        } else {
            Err(self.error(&format!("'{word}'")))
        }
    }

    fn entity(&mut self) -> Result<String, StoreError> {
        match self.peek() {
            Token::Word(w) if ENTITIES.contains(&w.as_str()) => {
                let entity = w.clone();
                self.next();
                Ok(entity)
            }
            _ => Err(self.error(&format!("an entity ({})", ENTITIES.join(", ")))),
        }
    }

    /// `entity [projection] { filter clauses }`, as `["from", ...]`.
    fn query(&mut self) -> Result<Value, StoreError> {
        let entity = self.entity()?;
        let projection = if self.is_symbol("[") {
            self.next();
            let fields = if self.is_symbol("]") {
                Vec::new()
            } else {
                self.field_list()?
            };
            self.expect_symbol("]")?;
            Some(fields)
        } else {
            None
        };
        self.expect_symbol("{")?;
        let filter = if self.is_symbol("}") || self.at_clause() {
            None
        } else {
            Some(self.expression()?)
        };
        let mut group_by = None;
        let mut paging = Vec::new();
        while !self.is_symbol("}") {
            if self.is_word("group") {
                self.next();
                self.expect_word("by")?;
                if group_by.is_some() {
                    return Err(self.error("one 'group by'"));
                }
                let mut fields = vec![json!("group_by")];
                fields.extend(self.field_list()?);
                group_by = Some(Value::Array(fields));
            } else if self.is_word("limit") || self.is_word("offset") {
                let Token::Word(clause) = self.next() else {
                    return Err(self.error("'limit' or 'offset'"));
                };
                match self.next() {
                    Token::Integer(n) if n >= 0 => paging.push(json!([clause, n])),
                    _ => {
                        self.back();
                        return Err(self.error("a non-negative integer"));
                    }
                }
            } else if self.is_word("order") {
                self.next();
                self.expect_word("by")?;
                let mut fields = Vec::new();
                loop {
                    let field = self.field()?;
                    if self.is_word("asc") || self.is_word("desc") {
                        let Token::Word(direction) = self.next() else {
                            return Err(self.error("'asc' or 'desc'"));
                        };
                        fields.push(json!([field, direction]));
                    } else {
                        fields.push(field);
                    }
                    if !self.is_symbol(",") {
                        break;
                    }
                    self.next();
                }
                paging.push(json!(["order_by", fields]));
            } else {
                let expected = if filter.is_none() && group_by.is_none() && paging.is_empty() {
                    "a condition, 'group by', 'limit', 'offset', 'order by' or '}'"
                } else {
                    "'and', 'or', 'group by', 'limit', 'offset', 'order by' or '}'"
                };
                return Err(self.error(expected));
            }
        }
        self.expect_symbol("}")?;
        let mut from = vec![json!("from"), json!(entity)];
        match (projection.filter(|p| !p.is_empty()), filter, group_by) {
            (Some(fields), filter, group_by) => {
                let mut extract = vec![json!("extract"), Value::Array(fields)];
                extract.extend(filter);
                extract.extend(group_by);
                from.push(Value::Array(extract));
            }
            (None, _, Some(_)) => {
                return Err(parse_error(
                    self.text,
                    0,
                    "'group by' needs a projection: name the fields in brackets after the entity",
                ));
            }
            (None, filter, None) => from.extend(filter),
        }
        from.extend(paging);
        Ok(Value::Array(from))
    }

    fn at_clause(&self) -> bool {
        match self.peek() {
            Token::Word(w) => match w.as_str() {
                "limit" | "offset" => matches!(self.peek_at(1), Token::Integer(_)),
                "group" | "order" => matches!(self.peek_at(1), Token::Word(b) if b == "by"),
                _ => false,
            },
            _ => false,
        }
    }

    /// Fields and functions, separated by commas.
    fn field_list(&mut self) -> Result<Vec<Value>, StoreError> {
        let mut fields = Vec::new();
        loop {
            let is_function = matches!(self.peek(), Token::Word(w) if FUNCTIONS.contains(&w.as_str()))
                && matches!(self.peek_at(1), Token::Symbol("("));
            if is_function {
                let Token::Word(name) = self.next() else {
                    return Err(self.error("a function"));
                };
                self.expect_symbol("(")?;
                let mut call = vec![json!("function"), json!(name)];
                if !self.is_symbol(")") {
                    loop {
                        match self.peek().clone() {
                            Token::Text(text) => {
                                self.next();
                                call.push(json!(text));
                            }
                            _ => call.push(self.field()?),
                        }
                        if !self.is_symbol(",") {
                            break;
                        }
                        self.next();
                    }
                }
                self.expect_symbol(")")?;
                fields.push(Value::Array(call));
            } else {
                fields.push(self.field()?);
            }
            if !self.is_symbol(",") {
                return Ok(fields);
            }
            self.next();
        }
    }

    fn field(&mut self) -> Result<Value, StoreError> {
        match self.peek() {
            Token::Word(w) if !is_keyword(w) => {
                let field = json!(w);
                self.next();
                Ok(field)
            }
            Token::Dotted(path) => {
                let field = json!(path);
                self.next();
                Ok(field)
            }
            _ => Err(self.error("a field")),
        }
    }

    fn expression(&mut self) -> Result<Value, StoreError> {
        let mut parts = vec![self.conjunction()?];
        while self.is_word("or") {
            self.next();
            parts.push(self.conjunction()?);
        }
        Ok(combine("or", parts))
    }

    fn conjunction(&mut self) -> Result<Value, StoreError> {
        let mut parts = vec![self.negation()?];
        while self.is_word("and") {
            self.next();
            parts.push(self.negation()?);
        }
        Ok(combine("and", parts))
    }

    fn negation(&mut self) -> Result<Value, StoreError> {
        if self.is_symbol("!") {
            self.next();
            return Ok(json!(["not", self.negation()?]));
        }
        if self.is_symbol("(") {
            self.next();
            let inner = self.expression()?;
            self.expect_symbol(")")?;
            return Ok(inner);
        }
        let subquery = matches!(self.peek(), Token::Word(w) if ENTITIES.contains(&w.as_str()))
            && matches!(self.peek_at(1), Token::Symbol("{"));
        if subquery {
            let entity = self.entity()?;
            self.expect_symbol("{")?;
            if self.is_symbol("}") {
                self.next();
                return Ok(json!(["subquery", entity]));
            }
            let filter = self.expression()?;
            self.expect_symbol("}")?;
            return Ok(json!(["subquery", entity, filter]));
        }
        self.condition()
    }

    fn condition(&mut self) -> Result<Value, StoreError> {
        let field = if self.is_symbol("[") {
            self.next();
            let fields = self.field_list()?;
            self.expect_symbol("]")?;
            Value::Array(fields)
        } else {
            self.field()?
        };
        let operator = match self.peek() {
            Token::Symbol(s) => *s,
            Token::Word(w) if w == "in" => "in",
            Token::Word(w) if w == "is" => "is",
            _ => "",
        };
        if field.is_array() && operator != "in" {
            return Err(self.error("'in' after a list of fields"));
        }
        match operator {
            "=" | "!=" | "!~" => {
                self.next();
                let value = self.literal()?;
                Ok(match operator {
                    "=" => json!(["=", field, value]),
                    "!=" => json!(["not", ["=", field, value]]),
                    _ => json!(["not", ["~", field, value]]),
                })
            }
            "~" => {
                self.next();
                match self.next() {
                    Token::Text(pattern) => Ok(json!(["~", field, pattern])),
                    _ => {
                        self.back();
                        Err(self.error("a regular expression, as a string"))
                    }
                }
            }
            "~>" => {
                self.next();
                self.expect_symbol("[")?;
                let mut patterns = Vec::new();
                loop {
                    match self.next() {
                        Token::Text(pattern) => patterns.push(json!(pattern)),
                        _ => {
                            self.back();
                            return Err(self.error("a regular expression, as a string"));
                        }
                    }
                    if !self.is_symbol(",") {
                        break;
                    }
                    self.next();
                }
                self.expect_symbol("]")?;
                Ok(json!(["~>", field, patterns]))
            }
            "<" | "<=" | ">" | ">=" => {
                self.next();
                match self.next() {
                    token @ (Token::Integer(_) | Token::Real(_) | Token::Text(_)) => {
                        Ok(json!([operator, field, scalar(token)]))
                    }
                    _ => {
                        self.back();
                        Err(self.error("a number or a string"))
                    }
                }
            }
            "in" => {
                self.next();
                if self.is_symbol("[") {
                    self.next();
                    let mut values = Vec::new();
                    loop {
                        values.push(self.literal()?);
                        if !self.is_symbol(",") {
                            break;
                        }
                        self.next();
                    }
                    self.expect_symbol("]")?;
                    Ok(json!(["in", field, ["array", values]]))
                } else {
                    let query = self.query()?;
                    Ok(json!(["in", field, query]))
                }
            }
            "is" => {
                self.next();
                let is_null = if self.is_word("not") {
                    self.next();
                    false
                } else {
                    true
                };
                self.expect_word("null")?;
                Ok(json!(["null?", field, is_null]))
            }
            _ => Err(self
                .error("an operator (=, !=, ~, !~, ~>, <, <=, >, >=, in, is null, is not null)")),
        }
    }

    fn literal(&mut self) -> Result<Value, StoreError> {
        match self.next() {
            token @ (Token::Integer(_) | Token::Real(_) | Token::Text(_)) => Ok(scalar(token)),
            Token::Word(w) if w == "true" => Ok(json!(true)),
            Token::Word(w) if w == "false" => Ok(json!(false)),
            Token::Symbol("[") => {
                let mut values = Vec::new();
                loop {
                    values.push(self.literal()?);
                    if !self.is_symbol(",") {
                        break;
                    }
                    self.next();
                }
                self.expect_symbol("]")?;
                Ok(Value::Array(values))
            }
            _ => {
                self.back();
                Err(self.error("a value (a string, a number, true, false or a list)"))
            }
        }
    }
}

fn is_keyword(word: &str) -> bool {
    matches!(word, "and" | "or" | "in" | "is")
}

fn scalar(token: Token) -> Value {
    match token {
        Token::Integer(n) => json!(n),
        Token::Real(n) => Number::from_f64(n).map_or(Value::Null, Value::Number),
        Token::Text(t) => json!(t),
        _ => Value::Null,
    }
}

fn combine(operator: &str, mut parts: Vec<Value>) -> Value {
    if parts.len() == 1 {
        return parts.pop().unwrap_or(Value::Null);
    }
    let mut all = vec![json!(operator)];
    all.extend(parts);
    Value::Array(all)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ast(text: &str) -> Value {
        parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    fn fails(text: &str) -> String {
        match parse(text) {
            Ok(ast) => panic!("{text} parsed as {ast}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn entities_projections_and_filters() {
        assert_eq!(ast("nodes {}"), json!(["from", "nodes"]));
        assert_eq!(ast("  nodes[] { }  "), json!(["from", "nodes"]));
        assert_eq!(
            ast("nodes[certname] { certname ~ \"^web\" }"),
            json!([
                "from",
                "nodes",
                ["extract", ["certname"], ["~", "certname", "^web"]]
            ])
        );
        assert_eq!(
            ast("facts[name, count()] { group by name }"),
            json!([
                "from",
                "facts",
                [
                    "extract",
                    ["name", ["function", "count"]],
                    ["group_by", "name"]
                ]
            ])
        );
        assert_eq!(
            ast("facts[name, avg(value)] { name = 'uptime' group by name }"),
            json!([
                "from",
                "facts",
                [
                    "extract",
                    ["name", ["function", "avg", "value"]],
                    ["=", "name", "uptime"],
                    ["group_by", "name"]
                ]
            ])
        );
    }

    #[test]
    fn operators_and_precedence() {
        assert_eq!(
            ast("facts { !(name = 'a' and value < 3) or value >= -2.5 }"),
            json!([
                "from",
                "facts",
                [
                    "or",
                    ["not", ["and", ["=", "name", "a"], ["<", "value", 3]]],
                    [">=", "value", -2.5]
                ]
            ])
        );
        assert_eq!(
            ast("nodes { a = 1 or b = 2 and c = 3 }"),
            json!([
                "from",
                "nodes",
                ["or", ["=", "a", 1], ["and", ["=", "b", 2], ["=", "c", 3]]]
            ])
        );
        assert_eq!(
            ast("nodes { certname != 'x' and certname !~ 'y' }"),
            json!([
                "from",
                "nodes",
                [
                    "and",
                    ["not", ["=", "certname", "x"]],
                    ["not", ["~", "certname", "y"]]
                ]
            ])
        );
        assert_eq!(
            ast("nodes { deactivated is null and expired is not null }"),
            json!([
                "from",
                "nodes",
                [
                    "and",
                    ["null?", "deactivated", true],
                    ["null?", "expired", false]
                ]
            ])
        );
        assert_eq!(
            ast("resources { exported = true and line <= 10 and latest_report? = false }"),
            json!([
                "from",
                "resources",
                [
                    "and",
                    ["=", "exported", true],
                    ["<=", "line", 10],
                    ["=", "latest_report?", false]
                ]
            ])
        );
        assert_eq!(
            ast("fact_contents { path ~> ['disks', '.*', 'size'] }"),
            json!([
                "from",
                "fact_contents",
                ["~>", "path", ["disks", ".*", "size"]]
            ])
        );
    }

    #[test]
    fn strings_numbers_and_dotted_fields() {
        assert_eq!(
            ast(r#"facts { value = "a\n\"b\"\u00e9" or value = 'c\'d\n' }"#),
            json!([
                "from",
                "facts",
                ["or", ["=", "value", "a\n\"b\"é"], ["=", "value", "c'd\\n"]]
            ])
        );
        assert_eq!(
            ast("facts { value = 4.1E3 or value = 7 }"),
            json!([
                "from",
                "facts",
                ["or", ["=", "value", 4100.0], ["=", "value", 7]]
            ])
        );
        assert_eq!(
            ast(
                r#"inventory[certname] { facts.os.family = "Debian" and trusted.extensions.pp_role = 'web' }"#
            ),
            json!([
                "from",
                "inventory",
                [
                    "extract",
                    ["certname"],
                    [
                        "and",
                        ["=", "facts.os.family", "Debian"],
                        ["=", "trusted.extensions.pp_role", "web"]
                    ]
                ]
            ])
        );
        assert_eq!(
            ast(r#"resources { parameters.ensure = "file" and facts."a.b".c[0] = 1 }"#),
            json!([
                "from",
                "resources",
                [
                    "and",
                    ["=", "parameters.ensure", "file"],
                    ["=", "facts.\"a.b\".c[0]", 1]
                ]
            ])
        );
    }

    #[test]
    fn subqueries_in_and_paging() {
        assert_eq!(
            ast("nodes[certname] { facts { name = \"os\" } }"),
            json!([
                "from",
                "nodes",
                [
                    "extract",
                    ["certname"],
                    ["subquery", "facts", ["=", "name", "os"]]
                ]
            ])
        );
        assert_eq!(
            ast("nodes { certname in facts[certname] { value = 'foo' limit 2 } }"),
            json!([
                "from",
                "nodes",
                [
                    "in",
                    "certname",
                    [
                        "from",
                        "facts",
                        ["extract", ["certname"], ["=", "value", "foo"]],
                        ["limit", 2]
                    ]
                ]
            ])
        );
        assert_eq!(
            ast("facts { [certname, name] in fact_contents[certname, name] { value ~ 'a' } }"),
            json!([
                "from",
                "facts",
                [
                    "in",
                    ["certname", "name"],
                    [
                        "from",
                        "fact_contents",
                        ["extract", ["certname", "name"], ["~", "value", "a"]]
                    ]
                ]
            ])
        );
        assert_eq!(
            ast("nodes { certname in ['a', 'b'] }"),
            json!(["from", "nodes", ["in", "certname", ["array", ["a", "b"]]]])
        );
        assert_eq!(
            ast(
                "reports { certname ~ 'web' order by receive_time desc, certname limit 10 offset 5 }"
            ),
            json!([
                "from",
                "reports",
                ["~", "certname", "web"],
                ["order_by", [["receive_time", "desc"], "certname"]],
                ["limit", 10],
                ["offset", 5]
            ])
        );
        assert_eq!(
            ast("nodes { limit 1 }"),
            json!(["from", "nodes", ["limit", 1]])
        );
    }

    /// Every prefix of real queries, and each with any one character
    /// replaced or removed, parses or fails: it never panics.
    #[test]
    fn no_text_makes_it_panic() {
        let queries = [
            r#"nodes[certname, count()] { facts { name = "os" and value ~ "é" } and !(certname in ['a', "b"]) group by certname }"#,
            r#"inventory[facts."a.b".c[0], trusted.x] { facts.match("sd.*").size >= -1.5E-3 order by certname desc, facts.x asc limit 1 offset 2 }"#,
            r#"fact_contents { path ~> ["a", ''', "\d"] or [certname, name] in facts[certname, name] { value is not null } }"#,
        ];
        let replacements = [
            '"', '\'', '[', ']', '{', '}', '(', ')', '.', '!', '~', '=', '<', '-', '9', 'é', ' ',
            '\\', ',',
        ];
        for query in queries {
            let chars: Vec<char> = query.chars().collect();
            for end in 0..=chars.len() {
                let _ = parse(&chars[..end].iter().collect::<String>());
            }
            for at in 0..chars.len() {
                let mut removed = chars.clone();
                removed.remove(at);
                let _ = parse(&removed.iter().collect::<String>());
                for replacement in replacements {
                    let mut changed = chars.clone();
                    changed[at] = replacement;
                    let _ = parse(&changed.iter().collect::<String>());
                }
            }
        }
    }

    #[test]
    fn errors_say_where() {
        assert_eq!(
            fails("nodes { certname }"),
            "PQL parse error at line 1, column 18:\n\nnodes { certname }\n                 ^\n\nexpected an operator (=, !=, ~, !~, ~>, <, <=, >, >=, in, is null, is not null), found '}'"
        );
        assert!(fails("widgets {}").contains("column 1:\n\nwidgets {}\n^\n\nexpected an entity"));
        assert!(fails("nodes { certname = 'x' ").contains("found the end of the query"));
        assert!(fails("nodes { certname = \"x }").contains("never closed"));
        assert!(fails("nodes {} extra").contains("expected the end of the query"));
        assert!(fails("nodes { limit -1 }").contains("non-negative integer"));
        assert!(fails("nodes { certname ~ 1 }").contains("regular expression"));
        assert!(fails("nodes { group by certname }").contains("projection"));
        assert!(fails("nodes { a = 1 § }").contains("'§' is not part of PQL"));
        assert!(fails("nodes {\n a = }").contains("line 2, column 6:\n\n a = }\n     ^"));
        assert!(fails("nodes { [a, b] = 1 }").contains("'in'"));
        assert!(fails("").contains("expected an entity"));
        assert!(fails("nodes { a = \"\\x\" }").contains("escapes"));
    }
}

//! Types written with Puppet's Resource API (`Puppet::ResourceApi.register_type`)
//! read without Ruby. Such a type is data: a hash literal naming each
//! attribute's Puppet data type, behaviour and default. Reading that
//! literal here lets the compiler and the resource layer know the type,
//! check values against their data types and fill defaults natively;
//! Ruby starts only when the type's provider is needed.
//!
//! The reader takes Ruby's literal syntax (strings, heredocs, symbols,
//! numbers, `true`/`false`/`nil`, arrays, hashes in both key styles, and
//! `%r{}` or `/.../` patterns, read as `scan.rs` reads them). A definition that is not a plain literal
//! is not read here; the host describes it by running it.

use serde_json::Value as Json;

use crate::{Attribute, TypeSpec};

/// What the Resource API says of an attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Behaviour {
    /// A property: read from and synced to the system.
    Property,
    /// Part of the resource's identity.
    Namevar,
    /// Given to the provider, never compared.
    Parameter,
    /// Reported by the provider, never set in a manifest.
    ReadOnly,
    /// A property that may be set when the resource is created only.
    InitOnly,
}

/// A Resource API attribute.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiAttribute {
    pub name: String,
    /// The Puppet data type, as written (`Optional[Integer[0, 100]]`).
    pub data_type: String,
    pub behaviour: Behaviour,
    /// The default, as data.
    pub default: Option<Json>,
    pub sensitive: bool,
}

/// The parts of a Resource API type that a classic type does not have.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiType {
    pub attributes: Vec<ApiAttribute>,
    /// `(kind, target type, values)` of `autorequire:` and its kin; a
    /// value `$NAME` stands for the resource's attribute `NAME`.
    pub autorelations: Vec<(String, String, Vec<String>)>,
}

/// The type `name`, when `text` registers it with a plain literal.
pub(crate) fn scan(name: &str, text: &str) -> Option<TypeSpec> {
    let start = text.find("register_type")?;
    let mut reader = Reader::new(text, start + "register_type".len());
    reader.blank();
    let parens = reader.eat('(');
    reader.blank();
    let definition = if reader.peek() == Some('{') {
        reader.value()?
    } else {
        Lit::Hash(reader.entries(if parens { ')' } else { '\n' })?)
    };
    spec(name, &definition)
}

/// A Ruby literal.
#[derive(Clone, Debug, PartialEq)]
enum Lit {
    Str(String),
    Sym(String),
    Int(i64),
    Float(f64),
    Bool(bool),
    Nil,
    Regex(String),
    Array(Vec<Lit>),
    Hash(Vec<(Lit, Lit)>),
}

impl Lit {
    fn text(&self) -> Option<&str> {
        match self {
            Lit::Str(s) | Lit::Sym(s) => Some(s),
            _ => None,
        }
    }

    fn get(&self, key: &str) -> Option<&Lit> {
        match self {
            Lit::Hash(entries) => entries
                .iter()
                .find(|(k, _)| k.text() == Some(key))
                .map(|(_, v)| v),
            _ => None,
        }
    }

    fn data(&self) -> Json {
        match self {
            Lit::Str(s) | Lit::Sym(s) | Lit::Regex(s) => Json::String(s.clone()),
            Lit::Int(i) => Json::from(*i),
            Lit::Float(f) => serde_json::Number::from_f64(*f).map_or(Json::Null, Json::Number),
            Lit::Bool(b) => Json::Bool(*b),
            Lit::Nil => Json::Null,
            Lit::Array(items) => Json::Array(items.iter().map(Lit::data).collect()),
            Lit::Hash(entries) => Json::Object(
                entries
                    .iter()
                    .filter_map(|(k, v)| Some((k.text()?.to_string(), v.data())))
                    .collect(),
            ),
        }
    }
}

fn spec(name: &str, definition: &Lit) -> Option<TypeSpec> {
    let Some(Lit::Hash(declared)) = definition.get("attributes") else {
        return None;
    };
    let mut api = ApiType {
        attributes: Vec::new(),
        autorelations: Vec::new(),
    };
    let mut attributes = Vec::new();
    for (key, options) in declared {
        let attr = key.text()?.to_string();
        let behaviour = match options.get("behaviour").and_then(Lit::text) {
            None => Behaviour::Property,
            Some("namevar") => Behaviour::Namevar,
            Some("parameter") => Behaviour::Parameter,
            Some("read_only") => Behaviour::ReadOnly,
            Some("init_only") => Behaviour::InitOnly,
            Some(_) => return None,
        };
        let data_type = options.get("type").and_then(Lit::text)?.to_string();
        attributes.push(Attribute {
            name: attr.clone(),
            property: matches!(behaviour, Behaviour::Property | Behaviour::InitOnly),
            namevar: behaviour == Behaviour::Namevar,
            boolean: false,
            // Arrays are whole values here (`AttrDef::whole_value`).
            array_all: false,
            default: options.get("default").is_some(),
            checked: true,
            whole_checked: false,
            describes_change: false,
            doc: options
                .get("desc")
                .and_then(Lit::text)
                .unwrap_or_default()
                .trim()
                .to_string(),
        });
        api.attributes.push(ApiAttribute {
            name: attr,
            data_type,
            behaviour,
            default: options.get("default").map(Lit::data),
            sensitive: options.get("sensitive") == Some(&Lit::Bool(true)),
        });
    }
    // Without a namevar, `name` is one, as the Resource API has it.
    if !attributes.iter().any(|a| a.namevar)
        && let Some(named) = attributes.iter_mut().find(|a| a.name == "name")
    {
        named.namevar = true;
    }
    for kind in ["require", "before", "notify", "subscribe"] {
        let Some(Lit::Hash(targets)) = definition.get(&format!("auto{kind}")) else {
            continue;
        };
        for (target, values) in targets {
            let values = match values {
                Lit::Array(items) => items
                    .iter()
                    .filter_map(|v| Some(v.text()?.to_string()))
                    .collect(),
                one => one.text().map(|t| vec![t.to_string()]).unwrap_or_default(),
            };
            api.autorelations
                .push((kind.to_string(), target.text()?.to_lowercase(), values));
        }
    }
    let title_patterns = match definition.get("title_patterns") {
        Some(Lit::Array(patterns)) => patterns
            .iter()
            .filter_map(|p| match p.get("pattern")? {
                Lit::Regex(source) | Lit::Str(source) => {
                    Some((source.clone(), group_names(source)))
                }
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    let features = match definition.get("features") {
        Some(Lit::Array(items)) => items
            .iter()
            .filter_map(|f| Some(f.text()?.to_string()))
            .collect(),
        _ => Vec::new(),
    };
    let doc = definition
        .get("docs")
        .or_else(|| definition.get("desc"))
        .and_then(Lit::text)
        .unwrap_or_default()
        .trim()
        .to_string();
    Some(TypeSpec {
        name: name.to_string(),
        doc,
        ensurable: attributes.iter().any(|a| a.name == "ensure"),
        attributes,
        validates: false,
        refreshable: false,
        self_refresh: false,
        titled: false,
        generates: false,
        fills_late: false,
        pre_run_checks: false,
        features,
        title_patterns,
        autorelations: api
            .autorelations
            .iter()
            .map(|(kind, target, _)| (kind.clone(), target.clone()))
            .collect(),
        api: Some(api),
    })
}

/// The names of a pattern's named groups, in order.
fn group_names(pattern: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = pattern;
    while let Some(at) = rest.find("(?<") {
        let after = &rest[at + 3..];
        // `(?<=` and `(?<!` are look-behinds, not names.
        if let Some(end) = after.find('>')
            && !after.starts_with(['=', '!'])
        {
            names.push(after[..end].to_string());
        }
        rest = after;
    }
    names
}

/// Reads Ruby literals from a text, from an offset.
struct Reader<'t> {
    text: &'t str,
    at: usize,
    /// Heredocs opened on the current line: their terminators, in order.
    /// Their bodies follow the line, and are skipped when it ends.
    heredocs: Vec<(String, bool, usize)>,
    /// Bodies read, by the index of their heredoc.
    bodies: Vec<String>,
}

impl<'t> Reader<'t> {
    fn new(text: &'t str, at: usize) -> Reader<'t> {
        Reader {
            text,
            at,
            heredocs: Vec::new(),
            bodies: Vec::new(),
        }
    }

    fn peek(&self) -> Option<char> {
        self.text[self.at..].chars().next()
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.at += c.len_utf8();
            true
        } else {
            false
        }
    }

    /// Skips blanks, comments and line ends; at a line end, the bodies of
    /// the heredocs the line opened.
    fn blank(&mut self) {
        while let Some(c) = self.peek() {
            match c {
                ' ' | '\t' | '\r' => self.at += 1,
                '#' => {
                    let end = self.text[self.at..]
                        .find('\n')
                        .map_or(self.text.len(), |i| self.at + i);
                    self.at = end;
                }
                '\n' => {
                    self.at += 1;
                    self.read_heredoc_bodies();
                }
                _ => break,
            }
        }
    }

    fn read_heredoc_bodies(&mut self) {
        for (terminator, squiggly, index) in std::mem::take(&mut self.heredocs) {
            let mut lines = Vec::new();
            while self.at < self.text.len() {
                let end = self.text[self.at..]
                    .find('\n')
                    .map_or(self.text.len(), |i| self.at + i);
                let line = &self.text[self.at..end];
                self.at = (end + 1).min(self.text.len());
                if line.trim() == terminator {
                    break;
                }
                lines.push(line);
            }
            let indent = if squiggly {
                lines
                    .iter()
                    .filter(|l| !l.trim().is_empty())
                    .map(|l| l.len() - l.trim_start().len())
                    .min()
                    .unwrap_or(0)
            } else {
                0
            };
            let body: String = lines
                .iter()
                .map(|l| format!("{}\n", l.get(indent..).unwrap_or("")))
                .collect();
            if let Some(slot) = self.bodies.get_mut(index) {
                *slot = body;
            }
        }
    }

    /// `key: value, :key => value, 'key' => value` up to `close`.
    fn entries(&mut self, close: char) -> Option<Vec<(Lit, Lit)>> {
        let mut entries = Vec::new();
        loop {
            self.blank();
            if self.eat(close) || self.peek().is_none() {
                return Some(entries);
            }
            let key = self.key()?;
            self.blank();
            let value = self.value()?;
            entries.push((key, value));
            self.blank();
            if !self.eat(',') {
                self.blank();
                return self.eat(close).then_some(entries);
            }
        }
    }

    fn key(&mut self) -> Option<Lit> {
        let rest = &self.text[self.at..];
        let word: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !word.is_empty()
            && rest[word.len()..].starts_with(':')
            && !rest[word.len()..].starts_with("::")
        {
            self.at += word.len() + 1;
            return Some(Lit::Sym(word));
        }
        let key = self.value()?;
        self.blank();
        if self.text[self.at..].starts_with("=>") {
            self.at += 2;
            return Some(key);
        }
        // `'key': value`
        self.eat(':').then_some(key)
    }

    fn value(&mut self) -> Option<Lit> {
        self.blank();
        let value = self.atom()?;
        // A method called on a literal (`.freeze`, `.strip`) keeps it.
        while self.text[self.at..].starts_with('.') {
            self.at += 1;
            let word = self.text[self.at..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '?' || *c == '!')
                .count();
            if word == 0 {
                return None;
            }
            self.at += word;
        }
        Some(value)
    }

    fn atom(&mut self) -> Option<Lit> {
        let rest = &self.text[self.at..];
        let c = rest.chars().next()?;
        match c {
            '\'' | '"' => self.string(c).map(Lit::Str),
            ':' if rest[1..].starts_with(['\'', '"']) => {
                self.at += 1;
                let quote = self.peek()?;
                self.string(quote).map(Lit::Sym)
            }
            ':' => {
                let word: String = rest[1..]
                    .chars()
                    .take_while(|c| {
                        c.is_ascii_alphanumeric() || *c == '_' || *c == '?' || *c == '!'
                    })
                    .collect();
                self.at += 1 + word.len();
                (!word.is_empty()).then_some(Lit::Sym(word))
            }
            '[' => {
                self.at += 1;
                let mut items = Vec::new();
                loop {
                    self.blank();
                    if self.eat(']') {
                        return Some(Lit::Array(items));
                    }
                    items.push(self.value()?);
                    self.blank();
                    if !self.eat(',') {
                        self.blank();
                        return self.eat(']').then_some(Lit::Array(items));
                    }
                }
            }
            '{' => {
                self.at += 1;
                self.entries('}').map(Lit::Hash)
            }
            // `/.../` and `%r{...}`, flags kept inline, read as the
            // classic types' title patterns are.
            '/' | '%' if c == '/' || rest.starts_with("%r") => {
                let chars: Vec<char> = rest.chars().collect();
                let (source, after) = crate::scan::regex_literal(&chars, 0)?;
                self.at += chars[..after].iter().map(|c| c.len_utf8()).sum::<usize>();
                Some(Lit::Regex(source))
            }
            '%' if rest.starts_with("%w") || rest.starts_with("%i") => {
                let open = rest[2..].chars().next()?;
                let close = crate::scan::closing_delimiter(open)?;
                let symbols = rest.starts_with("%i");
                self.at += 2 + open.len_utf8();
                let words = self.delimited(open, close)?;
                Some(Lit::Array(
                    words
                        .split_whitespace()
                        .map(|w| {
                            if symbols {
                                Lit::Sym(w.into())
                            } else {
                                Lit::Str(w.into())
                            }
                        })
                        .collect(),
                ))
            }
            '<' if rest.starts_with("<<") => self.heredoc(),
            '-' | '0'..='9' => {
                let number: String = rest
                    .chars()
                    .enumerate()
                    .take_while(|(i, c)| {
                        c.is_ascii_digit() || *c == '_' || *c == '.' || (*i == 0 && *c == '-')
                    })
                    .map(|(_, c)| c)
                    .collect();
                self.at += number.len();
                let number = number.replace('_', "");
                if number.contains('.') {
                    number.parse().ok().map(Lit::Float)
                } else {
                    number.parse().ok().map(Lit::Int)
                }
            }
            _ => {
                let word: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                self.at += word.len();
                match word.as_str() {
                    "true" => Some(Lit::Bool(true)),
                    "false" => Some(Lit::Bool(false)),
                    "nil" => Some(Lit::Nil),
                    _ => None,
                }
            }
        }
    }

    /// A quoted string; escapes are kept as Ruby reads them.
    fn string(&mut self, quote: char) -> Option<String> {
        self.at += 1;
        let mut text = String::new();
        let mut chars = self.text[self.at..].char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                c if c == quote => {
                    self.at += i + 1;
                    return Some(text);
                }
                '\\' => {
                    let (_, next) = chars.next()?;
                    match (quote, next) {
                        ('"', 'n') => text.push('\n'),
                        ('"', 't') => text.push('\t'),
                        ('"', other) => text.push(other),
                        ('\'', '\\' | '\'') => text.push(next),
                        (_, other) => {
                            text.push('\\');
                            text.push(other);
                        }
                    }
                }
                '#' if quote == '"' && self.text[self.at + i..].starts_with("#{") => return None,
                c => text.push(c),
            }
        }
        None
    }

    /// Text up to `close`, nesting `open`..`close` pairs; escapes kept.
    fn delimited(&mut self, open: char, close: char) -> Option<String> {
        let mut depth = 0;
        let mut text = String::new();
        let mut chars = self.text[self.at..].char_indices();
        while let Some((i, c)) = chars.next() {
            if c == '\\' {
                let (_, next) = chars.next()?;
                text.push('\\');
                text.push(next);
                continue;
            }
            if c == close && depth == 0 {
                self.at += i + c.len_utf8();
                return Some(text);
            }
            if c == open && open != close {
                depth += 1;
            } else if c == close {
                depth -= 1;
            }
            text.push(c);
        }
        None
    }

    /// `<<-EOS`, `<<~EOS` or `<<EOS`: the body follows the current line.
    /// Its text is known only once the line has been read, so the body is
    /// read at once, ahead, and the line's end skips it later.
    fn heredoc(&mut self) -> Option<Lit> {
        let rest = &self.text[self.at + 2..];
        let squiggly = rest.starts_with('~');
        let skip = usize::from(rest.starts_with(['~', '-']));
        let rest = &rest[skip..];
        let quoted = rest.starts_with(['\'', '"']);
        let word: String = rest[usize::from(quoted)..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if word.is_empty() {
            return None;
        }
        self.at += 2 + skip + word.len() + 2 * usize::from(quoted);
        // Read the body now, from the next line, without moving.
        let line_end = self.text[self.at..].find('\n').map(|i| self.at + i + 1)?;
        let saved = self.at;
        let index = self.bodies.len();
        self.bodies.push(String::new());
        // Bodies of earlier heredocs of this line come first.
        let mut ahead = Reader::new(self.text, line_end);
        ahead.heredocs = self.heredocs.clone();
        ahead.bodies = self.bodies.clone();
        ahead.heredocs.push((word.clone(), squiggly, index));
        ahead.read_heredoc_bodies();
        let body = ahead.bodies.get(index).cloned().unwrap_or_default();
        self.heredocs.push((word, squiggly, index));
        self.at = saved;
        Some(Lit::Str(body))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TYPE: &str = r#"
require 'puppet/resource_api'

Puppet::ResourceApi.register_type(
  name: 'demo',
  docs: <<-EOS,
    A demo type.
  EOS
  features: ['canonicalize', 'simple_get_filter'],
  title_patterns: [
    { pattern: %r{^(?<path>/[^:]+):(?<line>.*)$}, desc: 'path:line' },
    { pattern: %r{^(?<line>.*)$}, desc: 'line' },
  ],
  attributes: {
    ensure: { type: 'Enum[present, absent]', desc: 'Whether.', default: 'present' },
    :path => { type: 'String', desc: "The file", behaviour: :namevar },
    'line' => { type: 'String', behaviour: :namevar, desc: 'The line.' },
    tags: { type: 'Array[String]', default: [], desc: <<~DESC.strip, },
      Tags, in
      any order.
    DESC
    count: { type: 'Optional[Integer[0, 9]]', behaviour: :read_only, desc: 'Read.' },
    secret: { type: 'Optional[String]', sensitive: true, behaviour: :parameter, desc: 's' },
  },
  autorequire: { file: '$path' },
)
"#;

    #[test]
    fn a_literal_definition_is_read() {
        let spec = scan("demo", TYPE).expect("read");
        assert_eq!(spec.doc, "A demo type.");
        assert!(spec.ensurable);
        assert_eq!(spec.features, ["canonicalize", "simple_get_filter"]);
        let names: Vec<(&str, bool, bool)> = spec
            .attributes
            .iter()
            .map(|a| (a.name.as_str(), a.property, a.namevar))
            .collect();
        assert_eq!(
            names,
            [
                ("ensure", true, false),
                ("path", false, true),
                ("line", false, true),
                ("tags", true, false),
                ("count", false, false),
                ("secret", false, false),
            ]
        );
        assert_eq!(spec.attributes[3].doc, "Tags, in\nany order.");
        assert_eq!(
            spec.title_patterns[0],
            (
                "^(?<path>/[^:]+):(?<line>.*)$".to_string(),
                vec!["path".to_string(), "line".to_string()]
            )
        );
        let api = spec.api.expect("the Resource API part");
        assert_eq!(api.attributes[0].default, Some(Json::from("present")));
        assert_eq!(api.attributes[3].default, Some(Json::Array(Vec::new())));
        assert_eq!(api.attributes[4].behaviour, Behaviour::ReadOnly);
        assert_eq!(api.attributes[4].data_type, "Optional[Integer[0, 9]]");
        assert!(api.attributes[5].sensitive);
        assert_eq!(
            api.autorelations,
            [(
                "require".to_string(),
                "file".to_string(),
                vec!["$path".to_string()]
            )]
        );
    }

    #[test]
    fn code_that_is_not_a_literal_is_left_to_the_host() {
        let text = "Puppet::ResourceApi.register_type(name: 'x', attributes: build_attributes)\n";
        assert_eq!(scan("x", text), None);
        let text =
            "Puppet::ResourceApi.register_type(name: 'x', attributes: { a: { type: \"#{t}\" } })\n";
        assert_eq!(scan("x", text), None);
    }
}

//! HOCON, the configuration language of Hiera's `hocon_data` backend.
//!
//! [`parse`] gives the hash that Puppet's backend gets from ruby-hocon 1.3
//! (`Hocon::ConfigFactory.parse_string(text).resolve.root.unwrapped`), and
//! follows that library where it departs from the HOCON specification: its
//! tokens (numbers as Ruby's `Integer()`/`Float()` read them, whole floats
//! made integers, `true`/`false`/`null` only), the order of merged keys
//! (newer keys first), unquoted text dropped after a list or an object, and
//! how it breaks (or fails on) cycles of substitutions.
//!
//! The work is done in three steps:
//!
//! - a lexer turns the text into tokens; whitespace is kept as a token only
//!   between two simple values (`a b` is the string "a b");
//! - a recursive-descent parser builds a tree of [`Node`]s, merging repeated
//!   keys as it goes (a later object is merged over an earlier one, a later
//!   resolved value replaces, anything else waits in a [`Node::Merge`]). A
//!   substitution of the field being defined or of something in it
//!   (`a = ${a} x`, `+=`) stands for the field's earlier value, found here;
//! - a resolver replaces the other substitutions by the value at their path,
//!   joins concatenations and merges, and builds the [`Value`]. Resolution is
//!   memoized and bounded (depth, steps, growth), so hostile input fails
//!   with an error rather than exhausting the stack or memory.
//!
//! Left out: environment variables as a fallback for substitutions (ruby-hocon
//! looks them up), and includes: `include "file"` is ignored, as ruby-hocon
//! ignores it when parsing a string, and `include file(...)`, `url(...)` and
//! `classpath(...)` are refused.

use std::cell::Cell;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::rc::Rc;

use indexmap::IndexMap;
use marionette_values::{PHash, Value};

/// An error in a HOCON document, where it was found (1-based, columns in
/// characters).
#[derive(Debug)]
pub struct HoconError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for HoconError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at line {}, column {}",
            self.message, self.line, self.column
        )
    }
}

impl std::error::Error for HoconError {}

/// Parses a HOCON document into a hash (the root object), as Puppet's
/// hocon_data backend (ruby-hocon,
/// `Hocon::ConfigFactory.parse_string(...).resolve.root.unwrapped`) sees it.
pub fn parse(text: &str) -> Result<Value, HoconError> {
    let limit = GROWTH_PER_BYTE * text.len() + (1 << 20);
    let tokens = Lexer::new(text).tokenize()?;
    let mut parser = Parser {
        tokens,
        index: 0,
        layers: Vec::new(),
        path: Vec::new(),
        lists: 0,
        appending: 0,
        nesting: 0,
        chains: 0,
        field_lists: 0,
        field_broken: None,
    };
    let root = parser.document()?;
    Resolver::new(root, limit).resolve_root()
}

/// Characters that end unquoted text and may not start it.
const RESERVED: &[char] = &[
    '$', '"', '{', '}', '[', ']', ':', '=', ',', '+', '#', '`', '^', '?', '!', '@', '*', '&', '\\',
];
/// Characters a number token is made of (after a digit or `-`).
const NUMBER_CHARS: &str = "0123456789eE+-.";
/// How deeply objects, lists and key paths may nest.
const MAX_NESTING: usize = 100;
/// How many self-references to unresolved values a document may hold.
const MAX_CHAINS: usize = 60;
/// How deeply the resolver may recurse (chains of substitutions).
const MAX_RESOLVE_DEPTH: usize = 400;
/// How much a document may expand through substitutions, for each byte of
/// it: the size of what concatenations make (string bytes, 8 for each list
/// element or field), the number of values in the result, and the number of
/// resolution steps.
const GROWTH_PER_BYTE: usize = 16;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pos {
    line: usize,
    column: usize,
}

fn error(pos: Pos, message: impl Into<String>) -> HoconError {
    HoconError {
        line: pos.line,
        column: pos.column,
        message: message.into(),
    }
}

fn fail<T>(pos: Pos, message: impl Into<String>) -> Result<T, HoconError> {
    Err(error(pos, message))
}

// ---------------------------------------------------------------------------
// Tokens

/// A substitution `${path}` or `${?path}`.
#[derive(Debug)]
struct Subst {
    path: Vec<String>,
    optional: bool,
    pos: Pos,
    /// For a self-reference in a list: set if the field's value is that
    /// list, where ruby-hocon fails to resolve it.
    broken: Option<Rc<Cell<bool>>>,
}

impl Subst {
    fn text(&self) -> String {
        format!(
            "${{{}{}}}",
            if self.optional { "?" } else { "" },
            render_path(&self.path)
        )
    }
}

#[derive(Clone, Debug)]
enum Tok {
    Eof,
    Newline,
    Comment,
    Comma,
    Colon,
    Equals,
    PlusEquals,
    OpenCurly,
    CloseCurly,
    OpenSquare,
    CloseSquare,
    /// Whitespace between two simple values: part of a concatenation.
    Ws(String),
    Quoted(String),
    Unquoted(String),
    /// A number with its text as written (used when it is concatenated).
    Int(i64, String),
    Float(f64, String),
    Bool(bool),
    Null,
    Subst(Rc<Subst>),
}

impl Tok {
    fn is_simple(&self) -> bool {
        matches!(
            self,
            Tok::Ws(_)
                | Tok::Quoted(_)
                | Tok::Unquoted(_)
                | Tok::Int(..)
                | Tok::Float(..)
                | Tok::Bool(_)
                | Tok::Null
                | Tok::Subst(_)
        )
    }

    fn starts_value(&self) -> bool {
        self.is_simple() || matches!(self, Tok::OpenCurly | Tok::OpenSquare)
    }

    /// The text this token adds to a path expression, and whether it was
    /// quoted (periods in quoted text do not separate elements).
    fn path_text(&self) -> Option<(String, bool)> {
        match self {
            Tok::Quoted(s) => Some((s.clone(), true)),
            Tok::Ws(s) | Tok::Unquoted(s) | Tok::Int(_, s) | Tok::Float(_, s) => {
                Some((s.clone(), false))
            }
            Tok::Bool(b) => Some((b.to_string(), false)),
            Tok::Null => Some(("null".to_string(), false)),
            _ => None,
        }
    }

    fn describe(&self) -> String {
        match self {
            Tok::Eof => "end of file".to_string(),
            Tok::Newline => "newline".to_string(),
            Tok::Comment => "comment".to_string(),
            Tok::Comma => "','".to_string(),
            Tok::Colon => "':'".to_string(),
            Tok::Equals => "'='".to_string(),
            Tok::PlusEquals => "'+='".to_string(),
            Tok::OpenCurly => "'{'".to_string(),
            Tok::CloseCurly => "'}'".to_string(),
            Tok::OpenSquare => "'['".to_string(),
            Tok::CloseSquare => "']'".to_string(),
            Tok::Quoted(s) => format!("{s:?}"),
            Tok::Ws(s) | Tok::Unquoted(s) | Tok::Int(_, s) | Tok::Float(_, s) => format!("'{s}'"),
            Tok::Bool(b) => format!("'{b}'"),
            Tok::Null => "'null'".to_string(),
            Tok::Subst(s) => format!("'{}'", s.text()),
        }
    }
}

#[derive(Clone, Debug)]
struct Token {
    tok: Tok,
    pos: Pos,
}

fn describe_char(c: Option<char>) -> String {
    match c {
        None => "end of file".to_string(),
        Some(c) => format!("'{}'", c.escape_default()),
    }
}

/// A path as HOCON writes it, quoting elements that need it.
fn render_path(path: &[String]) -> String {
    let plain = |s: &String| {
        !s.is_empty()
            && s.chars()
                .all(|c| !RESERVED.contains(&c) && !c.is_whitespace() && c != '.' && c != '/')
    };
    let parts: Vec<String> = path
        .iter()
        .map(|s| {
            if plain(s) {
                s.clone()
            } else {
                format!("{s:?}")
            }
        })
        .collect();
    parts.join(".")
}

/// Splits a path expression into elements: periods outside quotes separate
/// them, and an element may be empty only when written as `""`.
fn build_path(parts: &[(String, bool)], pos: Pos) -> Result<Vec<String>, HoconError> {
    if parts.is_empty() {
        return fail(pos, "Expecting a field name or path here, but got nothing");
    }
    let mut elements: Vec<(String, bool)> = vec![(String::new(), false)];
    for (text, quoted) in parts {
        if *quoted {
            if let Some(last) = elements.last_mut() {
                last.0.push_str(text);
                if last.0.is_empty() {
                    last.1 = true;
                }
            }
        } else {
            let mut segments = text.split('.');
            if let (Some(first), Some(last)) = (segments.next(), elements.last_mut()) {
                last.0.push_str(first);
            }
            elements.extend(segments.map(|s| (s.to_string(), false)));
        }
    }
    if elements
        .iter()
        .any(|(s, may_be_empty)| s.is_empty() && !may_be_empty)
    {
        return fail(
            pos,
            "path has a leading, trailing, or two adjacent period '.' \
             (use quoted \"\" empty string if you want an empty element)",
        );
    }
    Ok(elements.into_iter().map(|(s, _)| s).collect())
}

// ---------------------------------------------------------------------------
// Lexer

struct Lexer {
    chars: Vec<char>,
    index: usize,
    line: usize,
    column: usize,
}

impl Lexer {
    fn new(text: &str) -> Lexer {
        Lexer {
            chars: text.chars().collect(),
            index: 0,
            line: 1,
            column: 1,
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.index).copied()
    }

    fn peek_at(&self, n: usize) -> Option<char> {
        self.chars.get(self.index + n).copied()
    }

    fn pos(&self) -> Pos {
        Pos {
            line: self.line,
            column: self.column,
        }
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.index += 1;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    /// Skips whitespace other than newlines, returning it.
    fn skip_spaces(&mut self) -> String {
        let mut spaces = String::new();
        while let Some(c) = self.peek() {
            if c == '\n' || !c.is_whitespace() {
                break;
            }
            spaces.push(c);
            self.bump();
        }
        spaces
    }

    fn tokenize(mut self) -> Result<Vec<Token>, HoconError> {
        let mut out = Vec::new();
        let mut last_simple = false;
        loop {
            let space_pos = self.pos();
            let spaces = self.skip_spaces();
            let pos = self.pos();
            let tok = self.token(false)?;
            let simple = tok.is_simple();
            if simple && last_simple && !spaces.is_empty() {
                out.push(Token {
                    tok: Tok::Ws(spaces),
                    pos: space_pos,
                });
            }
            last_simple = simple;
            let eof = matches!(tok, Tok::Eof);
            out.push(Token { tok, pos });
            if eof {
                return Ok(out);
            }
        }
    }

    fn token(&mut self, in_substitution: bool) -> Result<Tok, HoconError> {
        let pos = self.pos();
        let Some(c) = self.peek() else {
            return Ok(Tok::Eof);
        };
        let single = match c {
            '\n' => Some(Tok::Newline),
            ':' => Some(Tok::Colon),
            ',' => Some(Tok::Comma),
            '=' => Some(Tok::Equals),
            '{' => Some(Tok::OpenCurly),
            '}' => Some(Tok::CloseCurly),
            '[' => Some(Tok::OpenSquare),
            ']' => Some(Tok::CloseSquare),
            _ => None,
        };
        if let Some(tok) = single {
            self.bump();
            return Ok(tok);
        }
        match c {
            '#' => Ok(self.comment()),
            '/' if self.peek_at(1) == Some('/') => Ok(self.comment()),
            '"' => self.quoted(),
            '$' if in_substitution => fail(
                pos,
                "Token not allowed in path expression: a substitution inside a substitution",
            ),
            '$' => self.substitution(),
            '+' => {
                self.bump();
                if self.peek() == Some('=') {
                    self.bump();
                    Ok(Tok::PlusEquals)
                } else {
                    fail(
                        pos,
                        format!(
                            "'+' not followed by =, {} not allowed after '+' \
                             (try enclosing the value in double quotes)",
                            describe_char(self.peek())
                        ),
                    )
                }
            }
            '0'..='9' | '-' => self.number(),
            c if RESERVED.contains(&c) => fail(
                pos,
                format!(
                    "Reserved character '{c}' is not allowed outside quotes \
                     (try enclosing the key or value in double quotes)"
                ),
            ),
            _ => Ok(self.unquoted()),
        }
    }

    fn comment(&mut self) -> Tok {
        while let Some(c) = self.peek() {
            if c == '\n' {
                break;
            }
            self.bump();
        }
        Tok::Comment
    }

    fn quoted(&mut self) -> Result<Tok, HoconError> {
        let pos = self.pos();
        self.bump();
        let mut s = String::new();
        loop {
            let char_pos = self.pos();
            match self.bump() {
                None => return fail(pos, "End of input but string quote was still open"),
                Some('"') => break,
                Some('\\') => self.escape(&mut s, char_pos)?,
                Some(c) if c.is_control() => {
                    return fail(
                        char_pos,
                        format!(
                            "JSON does not allow unescaped '{}' in quoted strings, \
                             use a backslash escape",
                            c.escape_default()
                        ),
                    );
                }
                Some(c) => s.push(c),
            }
        }
        if s.is_empty() && self.peek() == Some('"') {
            self.bump();
            return self.triple_quoted(pos);
        }
        Ok(Tok::Quoted(s))
    }

    /// After `"""`: everything up to the last three of a run of three or more
    /// quotes, taken literally.
    fn triple_quoted(&mut self, pos: Pos) -> Result<Tok, HoconError> {
        let mut s = String::new();
        let mut quotes = 0;
        loop {
            match self.peek() {
                Some('"') => {
                    quotes += 1;
                    s.push('"');
                    self.bump();
                }
                c => {
                    if quotes >= 3 {
                        s.truncate(s.len() - 3);
                        return Ok(Tok::Quoted(s));
                    }
                    quotes = 0;
                    match c {
                        None => {
                            return fail(
                                pos,
                                "End of input but triple-quoted string was still open",
                            );
                        }
                        Some(c) => {
                            s.push(c);
                            self.bump();
                        }
                    }
                }
            }
        }
    }

    fn escape(&mut self, s: &mut String, pos: Pos) -> Result<(), HoconError> {
        let Some(c) = self.bump() else {
            return fail(
                pos,
                "End of input but backslash in string had nothing after it",
            );
        };
        let unescaped = match c {
            '"' => '"',
            '\\' => '\\',
            '/' => '/',
            'b' => '\u{8}',
            'f' => '\u{c}',
            'n' => '\n',
            'r' => '\r',
            't' => '\t',
            'u' => {
                let high = self.hex4(pos)?;
                let code = if (0xD800..0xDC00).contains(&high) {
                    if self.peek() != Some('\\') || self.peek_at(1) != Some('u') {
                        return fail(pos, "\\u escape is a lone UTF-16 surrogate");
                    }
                    self.bump();
                    self.bump();
                    let low = self.hex4(pos)?;
                    if !(0xDC00..0xE000).contains(&low) {
                        return fail(pos, "\\u escape is a lone UTF-16 surrogate");
                    }
                    0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                } else {
                    high
                };
                match char::from_u32(code) {
                    Some(c) => c,
                    None => return fail(pos, "\\u escape is a lone UTF-16 surrogate"),
                }
            }
            other => {
                return fail(
                    pos,
                    format!(
                        "backslash followed by '{}', this is not a valid escape sequence \
                         (quoted strings use JSON escaping, so use double-backslash \\\\ \
                         for literal backslash)",
                        other.escape_default()
                    ),
                );
            }
        };
        s.push(unescaped);
        Ok(())
    }

    fn hex4(&mut self, pos: Pos) -> Result<u32, HoconError> {
        let mut value = 0;
        for _ in 0..4 {
            match self.bump() {
                None => {
                    return fail(
                        pos,
                        "End of input but expecting 4 hex digits for \\uXXXX escape",
                    );
                }
                Some(c) => match c.to_digit(16) {
                    Some(d) => value = value * 16 + d,
                    None => {
                        return fail(pos, "Malformed hex digits after \\u escape in string");
                    }
                },
            }
        }
        Ok(value)
    }

    fn substitution(&mut self) -> Result<Tok, HoconError> {
        let pos = self.pos();
        self.bump();
        if self.peek() != Some('{') {
            return fail(
                pos,
                format!(
                    "'$' not followed by {{, {} not allowed after '$' \
                     (try enclosing the value in double quotes)",
                    describe_char(self.peek())
                ),
            );
        }
        self.bump();
        let optional = self.peek() == Some('?');
        if optional {
            self.bump();
        }
        let mut parts = Vec::new();
        loop {
            let spaces = self.skip_spaces();
            let tok_pos = self.pos();
            let tok = self.token(true)?;
            match tok {
                Tok::CloseCurly => break,
                Tok::Eof => return fail(pos, "Substitution ${ was not closed with a }"),
                _ => match tok.path_text() {
                    Some(part) => {
                        if !parts.is_empty() && !spaces.is_empty() {
                            parts.push((spaces, false));
                        }
                        parts.push(part);
                    }
                    None => {
                        return fail(
                            tok_pos,
                            format!(
                                "Token not allowed in path expression: {} \
                                 (you can double-quote this token if you really want it here)",
                                tok.describe()
                            ),
                        );
                    }
                },
            }
        }
        let path = build_path(&parts, pos)?;
        Ok(Tok::Subst(Rc::new(Subst {
            path,
            optional,
            pos,
            broken: None,
        })))
    }

    /// A number as JSON starts one: digits (or `-`) and the characters a
    /// number may hold. What Ruby's `Integer()` (no `.`, `e`) or `Float()`
    /// rejects is unquoted text after all.
    fn number(&mut self) -> Result<Tok, HoconError> {
        let pos = self.pos();
        let mut text = String::new();
        while let Some(c) = self.peek() {
            if !NUMBER_CHARS.contains(c) || (text.is_empty() && !"0123456789-".contains(c)) {
                break;
            }
            text.push(c);
            self.bump();
        }
        if text.contains(['.', 'e', 'E']) {
            if let Some(f) = ruby_float(&text) {
                if !f.is_finite() {
                    return fail(pos, format!("number {text} is out of range"));
                }
                // ruby-hocon makes a float that is a whole number an integer.
                if f.fract() == 0.0
                    && (-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(&f)
                {
                    return Ok(Tok::Int(f as i64, text));
                }
                return Ok(Tok::Float(f, text));
            }
        } else {
            match ruby_integer(&text) {
                Some(Some(i)) => return Ok(Tok::Int(i, text)),
                Some(None) => {
                    return fail(pos, format!("integer {text} does not fit in 64 bits"));
                }
                None => {}
            }
        }
        if text.contains('+') {
            return fail(
                pos,
                "Reserved character '+' is not allowed outside quotes \
                 (try enclosing the key or value in double quotes)",
            );
        }
        Ok(Tok::Unquoted(text))
    }

    /// Unquoted text; `true`, `false` and `null` at its start are tokens of
    /// their own whatever follows them.
    fn unquoted(&mut self) -> Tok {
        let mut s = String::new();
        while let Some(c) = self.peek() {
            if RESERVED.contains(&c)
                || c.is_whitespace()
                || (c == '/' && self.peek_at(1) == Some('/'))
            {
                break;
            }
            s.push(c);
            self.bump();
            match s.as_str() {
                "true" => return Tok::Bool(true),
                "false" => return Tok::Bool(false),
                "null" => return Tok::Null,
                _ => {}
            }
        }
        Tok::Unquoted(s)
    }
}

/// Ruby's `Float(text)` for text made of number characters: an optional
/// `-`, digits with an optional fraction (or only a fraction), an optional
/// exponent.
fn ruby_float(text: &str) -> Option<f64> {
    let bytes = text.as_bytes();
    let mut i = 0;
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < bytes.len() && bytes[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start
    };
    if bytes.first() == Some(&b'-') {
        i += 1;
    }
    let whole = digits(&mut i);
    let mut fraction = 0;
    if bytes.get(i) == Some(&b'.') {
        i += 1;
        fraction = digits(&mut i);
        if fraction == 0 {
            return None;
        }
    }
    if whole == 0 && fraction == 0 {
        return None;
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(bytes.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return None;
        }
    }
    if i != bytes.len() {
        return None;
    }
    text.parse().ok()
}

/// Ruby's `Integer(text)` for text made of digits and `-`: `None` if it is
/// not an integer, `Some(None)` if it is one too large for 64 bits. A leading
/// `0` makes it octal, as in Ruby.
fn ruby_integer(text: &str) -> Option<Option<i64>> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let radix = if digits.len() > 1 && digits.starts_with('0') {
        8
    } else {
        10
    };
    if radix == 8 && digits.bytes().any(|b| b > b'7') {
        return None;
    }
    let mut value: i128 = 0;
    for b in digits.bytes() {
        match value
            .checked_mul(radix)
            .and_then(|v| v.checked_add(i128::from(b - b'0')))
        {
            Some(v) => value = v,
            None => return Some(None),
        }
    }
    if negative {
        value = -value;
    }
    Some(i64::try_from(value).ok())
}

// ---------------------------------------------------------------------------
// Nodes

type Map = IndexMap<String, Node>;

/// An object's fields. It is `sealed` once merged over something that is
/// not an object: ruby-hocon then merges nothing more under it.
#[derive(Clone, Debug, Default)]
struct Object {
    fields: Map,
    sealed: bool,
}

impl std::ops::Deref for Object {
    type Target = Map;
    fn deref(&self) -> &Map {
        &self.fields
    }
}

fn object(fields: Map) -> Node {
    Node::Obj(Rc::new(Object {
        fields,
        sealed: false,
    }))
}

fn sealed(object: &Object) -> Node {
    Node::Obj(Rc::new(Object {
        fields: object.fields.clone(),
        sealed: true,
    }))
}

/// A value as parsed, possibly not resolved yet. The "shaped" ones (scalars,
/// lists and objects) have a known type; their elements may still be
/// unresolved. The others are resolved by the [`Resolver`]. Nodes hold
/// absolute paths only, so they mean the same wherever they end up.
#[derive(Clone, Debug)]
enum Node {
    Null,
    Bool(bool),
    Int(i64, Rc<str>),
    Float(f64, Rc<str>),
    /// A quoted string, or one made by concatenation.
    Str(Rc<str>),
    /// Unquoted text (whitespace between values included): ruby-hocon drops
    /// it when it follows a list or an object.
    Unquoted(Rc<str>),
    Arr(Rc<Vec<Node>>),
    Obj(Rc<Object>),
    /// Values written next to each other.
    Concat(Rc<Vec<Node>>, Pos),
    /// Values given to the same key, oldest first: the newest wins, and
    /// objects on top merge with what is below them.
    Merge(Rc<Vec<Node>>),
    Subst(Rc<Subst>),
    /// An earlier value of the field being defined, standing for a
    /// self-referential substitution; kept apart so that errors in using it
    /// appear only when it is used, as in ruby-hocon.
    Prior(Rc<Prior>),
    /// A path inside an earlier value that is not resolved yet.
    Select(Rc<Select>),
    /// A self-referential substitution with no earlier value.
    Missing(Rc<Subst>),
}

#[derive(Debug)]
struct Prior {
    node: Node,
    subst: Rc<Subst>,
}

#[derive(Debug)]
struct Select {
    base: Node,
    path: Vec<String>,
    subst: Rc<Subst>,
}

impl Node {
    fn is_shaped(&self) -> bool {
        matches!(
            self,
            Node::Null
                | Node::Bool(_)
                | Node::Int(..)
                | Node::Float(..)
                | Node::Str(_)
                | Node::Unquoted(_)
                | Node::Arr(_)
                | Node::Obj(_)
        )
    }

    /// The identity of an unresolved node (its allocation), for memoizing
    /// and cycle detection; `None` for shaped nodes.
    fn id(&self) -> Option<usize> {
        match self {
            Node::Concat(parts, _) => Some(Rc::as_ptr(parts) as *const u8 as usize),
            Node::Merge(items) => Some(Rc::as_ptr(items) as *const u8 as usize),
            Node::Subst(s) | Node::Missing(s) => Some(Rc::as_ptr(s) as *const u8 as usize),
            Node::Prior(n) => Some(Rc::as_ptr(n) as *const u8 as usize),
            Node::Select(s) => Some(Rc::as_ptr(s) as *const u8 as usize),
            _ => None,
        }
    }

    fn pos(&self) -> Option<Pos> {
        match self {
            Node::Concat(_, pos) => Some(*pos),
            Node::Subst(s) | Node::Missing(s) => Some(s.pos),
            Node::Select(s) => Some(s.subst.pos),
            Node::Prior(p) => Some(p.subst.pos),
            Node::Merge(items) => items.iter().find_map(Node::pos),
            _ => None,
        }
    }

    fn kind(&self) -> &'static str {
        match self {
            Node::Obj(_) => "an object",
            Node::Arr(_) => "a list",
            Node::Null => "null",
            Node::Bool(_) => "a boolean",
            Node::Int(..) | Node::Float(..) => "a number",
            _ => "a string",
        }
    }

    /// The text of a scalar in a string concatenation.
    fn render(&self) -> String {
        match self {
            Node::Null => "null".to_string(),
            Node::Bool(b) => b.to_string(),
            Node::Int(_, text) | Node::Float(_, text) | Node::Str(text) | Node::Unquoted(text) => {
                text.to_string()
            }
            _ => String::new(),
        }
    }
}

/// `path.to.key = value` as nested objects.
fn wrap(path: &[String], value: Node) -> Node {
    path.iter().rev().fold(value, |inner, key| {
        let mut map = Map::new();
        map.insert(key.clone(), inner);
        object(map)
    })
}

/// `new` given to a key that held `old`: objects merge, anything else
/// replaces, and unresolved values wait for resolution.
fn merge_nodes(old: Node, new: Node) -> Node {
    match (old, new) {
        (Node::Obj(o), Node::Obj(n)) => merge_objects(&o, &n),
        (old, new) => {
            // As ruby-hocon: a value with substitutions somewhere in it is
            // merged when resolved (and the old one resolved too, errors
            // included); other values replace what is not an object.
            if is_resolved(&new) {
                match &new {
                    Node::Obj(n) if old.is_shaped() => return sealed(n),
                    Node::Obj(_) => {}
                    _ => return new,
                }
            }
            let mut items = match old {
                Node::Merge(items) => (*items).clone(),
                old => vec![old],
            };
            match new {
                Node::Merge(more) => items.extend(more.iter().cloned()),
                new => items.push(new),
            }
            Node::Merge(Rc::new(items))
        }
    }
}

/// A resolved value of a merge, with the next older value (resolved too)
/// under it.
fn merge_under(merged: Option<Node>, older: Node) -> Node {
    match merged {
        None => older,
        Some(Node::Obj(newer)) if !newer.sealed => match older {
            Node::Obj(older) => merge_objects(&older, &newer),
            _ => sealed(&newer),
        },
        Some(newer) => newer,
    }
}

/// Whether a node holds no substitution.
fn is_resolved(node: &Node) -> bool {
    match node {
        Node::Arr(items) => items.iter().all(is_resolved),
        Node::Obj(map) => map.values().all(is_resolved),
        other => other.is_shaped(),
    }
}

/// `new` merged over `old`, unless `new` is sealed; the result is sealed if
/// `old` was.
fn merge_objects(old: &Object, new: &Rc<Object>) -> Node {
    if new.sealed {
        return Node::Obj(new.clone());
    }
    Node::Obj(Rc::new(Object {
        fields: merge_maps(old, new),
        sealed: old.sealed,
    }))
}

/// `new`'s fields merged over `old`'s: the keys of `new` first, then those only in
/// `old` (the order ruby-hocon's merged hashes have).
fn merge_maps(old: &Map, new: &Map) -> Map {
    let mut out = Map::with_capacity(old.len() + new.len());
    for (key, value) in new {
        let merged = match old.get(key) {
            Some(o) => merge_nodes(o.clone(), value.clone()),
            None => value.clone(),
        };
        out.insert(key.clone(), merged);
    }
    for (key, value) in old {
        if !new.contains_key(key) {
            out.insert(key.clone(), value.clone());
        }
    }
    out
}

/// Two shaped values written next to each other.
fn join(left: &Node, right: &Node, pos: Pos) -> Result<Node, HoconError> {
    match (left, right) {
        (Node::Obj(l), Node::Obj(r)) => Ok(merge_objects(l, r)),
        (Node::Arr(l), Node::Arr(r)) => Ok(Node::Arr(Rc::new(
            l.iter().chain(r.iter()).cloned().collect(),
        ))),
        // ruby-hocon's test for "ignored whitespace" takes any unquoted text.
        (Node::Obj(_) | Node::Arr(_), Node::Unquoted(_)) => Ok(left.clone()),
        (Node::Obj(_) | Node::Arr(_), _) | (_, Node::Obj(_) | Node::Arr(_)) => fail(
            pos,
            format!(
                "Cannot concatenate object or list with a non-object-or-list, \
                 {} and {} are not compatible",
                left.kind(),
                right.kind()
            ),
        ),
        _ => Ok(Node::Str(
            format!("{}{}", left.render(), right.render()).into(),
        )),
    }
}

/// A concatenation as parsed. As in ruby-hocon, neighbours whose type is
/// known are joined now (so that errors show as they do there) and
/// substitutions stand between the others. When the substitutions are
/// self-references to values known now, the joining that resolution would
/// do is done now too, if it succeeds.
fn join_parts(parts: Vec<Node>, pos: Pos) -> Result<Node, HoconError> {
    let mut out: Vec<Node> = Vec::new();
    for part in parts {
        if let Some(last) = out.last()
            && last.is_shaped()
            && part.is_shaped()
        {
            let joined = join(last, &part, pos)?;
            out.pop();
            out.push(joined);
            continue;
        }
        out.push(part);
    }
    if out.len() == 1
        && let Some(node) = out.pop()
    {
        return Ok(node);
    }
    if let Some(joined) = join_known(&out, pos) {
        // Still a concatenation for ruby-hocon's merges, unless resolved.
        return Ok(if is_resolved(&joined) {
            joined
        } else {
            Node::Concat(Rc::new(vec![joined]), pos)
        });
    }
    Ok(Node::Concat(Rc::new(out), pos))
}

/// What [`join_parts`] joined, even if it is still marked as a
/// concatenation.
fn joined_value(node: &Node) -> &Node {
    match node {
        Node::Concat(parts, _) if parts.len() == 1 => &parts[0],
        node => node,
    }
}

/// The join of parts that are known, or self-references to lists or
/// resolved values, if it succeeds; `None` otherwise.
fn join_known(parts: &[Node], pos: Pos) -> Option<Node> {
    let mut joined: Option<Node> = None;
    for part in parts {
        let part = match part {
            Node::Missing(subst) if subst.optional => continue,
            // A self-reference in a list may turn out to be unresolvable.
            Node::Prior(prior) if prior.subst.broken.is_some() => return None,
            Node::Prior(prior) => joined_value(&prior.node),
            part => part,
        };
        if !(matches!(part, Node::Arr(_)) || is_resolved(part)) {
            return None;
        }
        joined = Some(match joined {
            None => part.clone(),
            Some(left) => join(&left, part, pos).ok()?,
        });
    }
    joined
}

// ---------------------------------------------------------------------------
// Parser

/// An object being parsed. `prefix` is its path in the document; a layer
/// that is a field's value directly continues the "group" of its parent, one
/// in a list or a concatenation starts a group of its own (self-references
/// look back only within their group).
struct Layer {
    prefix: Vec<String>,
    group_start: bool,
    map: Map,
}

struct Parser {
    tokens: Vec<Token>,
    index: usize,
    layers: Vec<Layer>,
    /// The path of the field whose value is being parsed.
    path: Vec<String>,
    /// Lists and `+=` values being parsed: `+=` is refused in either.
    lists: usize,
    appending: usize,
    nesting: usize,
    /// Self-references to values not resolved yet.
    chains: usize,
    /// The lists open when the current field's value began, and the flag
    /// of self-references in lists in it.
    field_lists: usize,
    field_broken: Option<Rc<Cell<bool>>>,
}

impl Parser {
    fn peek(&self) -> &Token {
        // The token list always ends with Eof, and `advance` never moves past it.
        &self.tokens[self.index.min(self.tokens.len() - 1)]
    }

    fn advance(&mut self) {
        if self.index + 1 < self.tokens.len() {
            self.index += 1;
        }
    }

    fn skip_newlines(&mut self) {
        while matches!(self.peek().tok, Tok::Newline | Tok::Comment) {
            self.advance();
        }
    }

    fn enter(&mut self, pos: Pos) -> Result<(), HoconError> {
        self.nesting += 1;
        if self.nesting > MAX_NESTING {
            return fail(pos, "objects and lists nest too deeply");
        }
        Ok(())
    }

    fn document(&mut self) -> Result<Node, HoconError> {
        self.skip_newlines();
        let first = self.peek().clone();
        let root = match first.tok {
            Tok::OpenCurly => {
                self.advance();
                self.object(true, true, Vec::new())?
            }
            Tok::OpenSquare => {
                return fail(first.pos, "the document root must be an object, not a list");
            }
            _ => self.object(false, true, Vec::new())?,
        };
        self.skip_newlines();
        let t = self.peek();
        if !matches!(t.tok, Tok::Eof) {
            return fail(
                t.pos,
                format!(
                    "Document has trailing tokens after first object or array: {}",
                    t.tok.describe()
                ),
            );
        }
        Ok(root)
    }

    fn object(
        &mut self,
        braced: bool,
        group_start: bool,
        prefix: Vec<String>,
    ) -> Result<Node, HoconError> {
        let pos = self.peek().pos;
        self.enter(pos)?;
        self.layers.push(Layer {
            prefix,
            group_start,
            map: Map::new(),
        });
        let result = self.object_body(braced);
        let map = self.layers.pop().map(|layer| layer.map).unwrap_or_default();
        self.nesting -= 1;
        result?;
        Ok(object(map))
    }

    fn object_body(&mut self, braced: bool) -> Result<(), HoconError> {
        loop {
            self.skip_newlines();
            let t = self.peek().clone();
            match &t.tok {
                Tok::CloseCurly => {
                    if !braced {
                        return fail(t.pos, "unbalanced close brace '}' with no open brace");
                    }
                    self.advance();
                    return Ok(());
                }
                Tok::Eof if !braced => return Ok(()),
                Tok::Unquoted(word) if word == "include" => {
                    self.advance();
                    self.include()?;
                }
                _ => self.field()?,
            }
            if self.separator() {
                continue;
            }
            let t = self.peek();
            match t.tok {
                Tok::CloseCurly if braced => {
                    self.advance();
                    return Ok(());
                }
                Tok::CloseCurly => {
                    return fail(t.pos, "unbalanced close brace '}' with no open brace");
                }
                Tok::Eof if !braced => return Ok(()),
                _ => {
                    return fail(
                        t.pos,
                        format!(
                            "Expecting close brace }} or a comma, got {} (if you intended it to be \
                             part of a key or string value, try enclosing the key or value in \
                             double quotes)",
                            t.tok.describe()
                        ),
                    );
                }
            }
        }
    }

    /// Skips what may follow a field or list element: a comma, or newlines
    /// (and comments) with perhaps a comma after them. True if any was seen.
    fn separator(&mut self) -> bool {
        let mut seen = false;
        loop {
            match self.peek().tok {
                Tok::Comment => self.advance(),
                Tok::Newline => {
                    seen = true;
                    self.advance();
                }
                Tok::Comma => {
                    self.advance();
                    return true;
                }
                _ => return seen,
            }
        }
    }

    fn include(&mut self) -> Result<(), HoconError> {
        while matches!(self.peek().tok, Tok::Newline | Tok::Comment | Tok::Ws(_)) {
            self.advance();
        }
        let t = self.peek().clone();
        match &t.tok {
            // ruby-hocon finds nothing to include for a string it parses.
            Tok::Quoted(_) => {
                self.advance();
                Ok(())
            }
            Tok::Unquoted(kind) if matches!(kind.as_str(), "file(" | "url(" | "classpath(") => {
                fail(
                    t.pos,
                    format!("include {kind}...) is not supported in Hiera data files"),
                )
            }
            Tok::Unquoted(_) => fail(
                t.pos,
                format!(
                    "expecting include parameter to be quoted filename, file(), classpath(), \
                     or url(). No spaces are allowed before the open paren. Not expecting: {}",
                    t.tok.describe()
                ),
            ),
            _ => fail(
                t.pos,
                format!(
                    "include keyword is not followed by a quoted string, but by: {}",
                    t.tok.describe()
                ),
            ),
        }
    }

    fn field(&mut self) -> Result<(), HoconError> {
        let key_pos = self.peek().pos;
        let mut parts = Vec::new();
        while let Some(part) = self.peek().tok.path_text() {
            parts.push(part);
            self.advance();
        }
        if parts.is_empty() {
            let t = self.peek();
            return fail(
                t.pos,
                format!(
                    "expecting a close brace or a field name here, got {}",
                    t.tok.describe()
                ),
            );
        }
        let key = build_path(&parts, key_pos)?;
        self.skip_newlines();
        let separator = self.peek().clone();
        if self.path.len() + key.len() > MAX_NESTING {
            return fail(key_pos, "objects and lists nest too deeply");
        }
        let outer = self.path.len();
        self.path.extend(key.iter().cloned());
        let outer_lists = std::mem::replace(&mut self.field_lists, self.lists);
        let outer_broken = self.field_broken.take();
        let value = match separator.tok {
            Tok::OpenCurly => {
                self.advance();
                self.object(true, false, self.path.clone())
            }
            Tok::Colon | Tok::Equals => {
                self.advance();
                let value = self.value(true);
                if let (Ok(Node::Arr(_)), Some(broken)) = (&value, &self.field_broken) {
                    broken.set(true);
                }
                value
            }
            Tok::PlusEquals => {
                self.advance();
                self.plus_equals(separator.pos)
            }
            _ => fail(
                separator.pos,
                format!(
                    "Key '{}' may not be followed by token: {}",
                    render_path(&key),
                    separator.tok.describe()
                ),
            ),
        };
        self.path.truncate(outer);
        self.field_lists = outer_lists;
        self.field_broken = outer_broken;
        let value = value?;
        let Some((first, rest)) = key.split_first() else {
            return Ok(());
        };
        let value = wrap(rest, value);
        if let Some(layer) = self.layers.last_mut() {
            match layer.map.get_mut(first) {
                Some(existing) => {
                    let old = std::mem::replace(existing, Node::Null);
                    *existing = merge_nodes(old, value);
                }
                None => {
                    layer.map.insert(first.clone(), value);
                }
            }
        }
        Ok(())
    }

    /// `key += value` is `key = ${?key} [value]`.
    fn plus_equals(&mut self, pos: Pos) -> Result<Node, HoconError> {
        if self.lists + self.appending > 0 {
            return fail(
                pos,
                "+= does not work nested inside a list (ruby-hocon cannot resolve it there)",
            );
        }
        self.appending += 1;
        let value = self.value(false);
        self.appending -= 1;
        let value = value?;
        let subst = Rc::new(Subst {
            path: self.path.clone(),
            optional: true,
            pos,
            broken: None,
        });
        let previous = self.lookback(&subst)?.unwrap_or(Node::Subst(subst));
        join_parts(vec![previous, Node::Arr(Rc::new(vec![value]))], pos)
    }

    /// A value, or several written next to each other (a concatenation).
    fn value(&mut self, field_value: bool) -> Result<Node, HoconError> {
        self.skip_newlines();
        let start = self.peek().pos;
        let mut parts = Vec::new();
        loop {
            let t = self.peek().clone();
            let node = match t.tok {
                Tok::Ws(s) | Tok::Unquoted(s) => Node::Unquoted(s.into()),
                Tok::Quoted(s) => Node::Str(s.into()),
                Tok::Int(i, s) => Node::Int(i, s.into()),
                Tok::Float(f, s) => Node::Float(f, s.into()),
                Tok::Bool(b) => Node::Bool(b),
                Tok::Null => Node::Null,
                Tok::Subst(s) => self.substitution(s)?,
                Tok::OpenCurly => {
                    self.advance();
                    let group_start = !(field_value && parts.is_empty());
                    parts.push(self.object(true, group_start, self.path.clone())?);
                    continue;
                }
                Tok::OpenSquare => {
                    self.advance();
                    parts.push(self.list()?);
                    continue;
                }
                _ => break,
            };
            self.advance();
            parts.push(node);
        }
        if parts.is_empty() {
            let t = self.peek();
            return fail(
                t.pos,
                format!(
                    "Expecting a value but got wrong token: {}",
                    t.tok.describe()
                ),
            );
        }
        join_parts(parts, start)
    }

    fn list(&mut self) -> Result<Node, HoconError> {
        let pos = self.peek().pos;
        self.enter(pos)?;
        self.lists += 1;
        let result = self.list_body();
        self.lists -= 1;
        self.nesting -= 1;
        result
    }

    fn list_body(&mut self) -> Result<Node, HoconError> {
        let mut items = Vec::new();
        self.skip_newlines();
        let t = self.peek();
        if matches!(t.tok, Tok::CloseSquare) {
            self.advance();
            return Ok(Node::Arr(Rc::new(items)));
        }
        if !t.tok.starts_value() {
            return fail(
                t.pos,
                format!(
                    "List should have ] or a first element after the open [, instead had token: {}",
                    t.tok.describe()
                ),
            );
        }
        items.push(self.value(false)?);
        loop {
            if self.separator() {
                self.skip_newlines();
                let t = self.peek();
                if matches!(t.tok, Tok::CloseSquare) {
                    self.advance();
                    break;
                }
                if !t.tok.starts_value() {
                    return fail(
                        t.pos,
                        format!(
                            "List should have had new element after a comma, instead had token: {}",
                            t.tok.describe()
                        ),
                    );
                }
                items.push(self.value(false)?);
            } else {
                let t = self.peek();
                if matches!(t.tok, Tok::CloseSquare) {
                    self.advance();
                    break;
                }
                return fail(
                    t.pos,
                    format!(
                        "List should have ended with ] or had a comma, instead had token: {}",
                        t.tok.describe()
                    ),
                );
            }
        }
        Ok(Node::Arr(Rc::new(items)))
    }

    /// A substitution whose path is the field being defined, or inside it,
    /// means the field's value so far; any other is resolved later.
    fn substitution(&mut self, subst: Rc<Subst>) -> Result<Node, HoconError> {
        let in_list = self.lists > self.field_lists;
        if !self.path.is_empty() && subst.path.starts_with(&self.path) {
            let subst = if in_list {
                let broken = self.field_broken.get_or_insert_with(Rc::default).clone();
                Rc::new(Subst {
                    path: subst.path.clone(),
                    optional: subst.optional,
                    pos: subst.pos,
                    broken: Some(broken),
                })
            } else {
                subst
            };
            return Ok(match self.lookback(&subst)? {
                Some(node) => node,
                None => Node::Subst(subst),
            });
        }
        Ok(Node::Subst(subst))
    }

    /// What the document defined at the substitution's path so far (within
    /// the current group), or `None` if the path lies outside the group.
    /// Earlier values that are not resolved yet make chains, which are
    /// limited to keep resolution shallow.
    fn lookback(&mut self, subst: &Rc<Subst>) -> Result<Option<Node>, HoconError> {
        let found = self.look_back(subst);
        if let Some(Node::Select(_)) | Some(Node::Prior(_)) = &found
            && !matches!(&found, Some(Node::Prior(p)) if joined_value(&p.node).is_shaped())
        {
            self.chains += 1;
            if self.chains > MAX_CHAINS {
                return fail(
                    subst.pos,
                    "too many self-referential substitutions of unresolved values",
                );
            }
        }
        Ok(found)
    }

    fn look_back(&self, subst: &Rc<Subst>) -> Option<Node> {
        let group = self.layers.iter().rposition(|layer| layer.group_start)?;
        let base = &self.layers[group].prefix;
        let relative = subst.path.strip_prefix(base.as_slice())?;
        // How deep the field is below each layer: an earlier value that is
        // not resolved yet can be looked into only at the field itself.
        let depth = |prefix: &[String]| self.path.len().saturating_sub(prefix.len());
        // What an inner object defines hides what outer ones do, unless it
        // is an object, to be merged with them.
        for layer in self.layers[group..].iter().rev() {
            let Some(inner) = subst.path.strip_prefix(layer.prefix.as_slice()) else {
                continue;
            };
            match select_in_map(&layer.map, inner, depth(&layer.prefix), subst) {
                None => continue,
                Some(Node::Prior(prior)) if matches!(joined_value(&prior.node), Node::Obj(_)) => {
                    break;
                }
                Some(found) => return Some(found),
            }
        }
        let merged = if group + 1 == self.layers.len() {
            None
        } else {
            let mut merged = object(self.layers[group].map.clone());
            for layer in &self.layers[group + 1..] {
                let at = layer.prefix.get(base.len()..).unwrap_or(&[]);
                merged = merge_nodes(merged, wrap(at, object(layer.map.clone())));
            }
            Some(merged)
        };
        let map = match &merged {
            None => &self.layers[group].map,
            Some(Node::Obj(map)) => &map.fields,
            Some(_) => return Some(Node::Missing(subst.clone())),
        };
        Some(
            select_in_map(map, relative, depth(base), subst)
                .unwrap_or(Node::Missing(subst.clone())),
        )
    }
}

/// The node at `path` in an object as parsed so far: `None` if an object on
/// the way lacks the key, else what stands for the substitution. `field` is
/// how deep the field being defined is.
fn select_in_map(map: &Map, path: &[String], field: usize, subst: &Rc<Subst>) -> Option<Node> {
    let prior = |node: Node| {
        Some(Node::Prior(Rc::new(Prior {
            node,
            subst: subst.clone(),
        })))
    };
    let Some((first, rest)) = path.split_first() else {
        return prior(object(map.clone()));
    };
    let mut current = map.get(first)?.clone();
    for (i, key) in rest.iter().enumerate() {
        let next = match &current {
            Node::Obj(m) => m.get(key)?.clone(),
            n if n.is_shaped() => return Some(Node::Missing(subst.clone())),
            // ruby-hocon sees into an earlier value that is not resolved
            // yet only for the field's own value; elsewhere it meets a cycle.
            n if i + 1 == field => {
                return Some(Node::Select(Rc::new(Select {
                    base: n.clone(),
                    path: rest[i..].to_vec(),
                    subst: subst.clone(),
                })));
            }
            _ => return Some(Node::Missing(subst.clone())),
        };
        current = next;
    }
    // Values merged under a list or a scalar are hidden by it.
    if let Node::Merge(items) = &current
        && let Some(last) = items.last()
    {
        let top = joined_value(last);
        if top.is_shaped() && !matches!(top, Node::Obj(_)) {
            current = last.clone();
        }
    }
    prior(current)
}

// ---------------------------------------------------------------------------
// Resolver

/// Why resolving stopped: an error, or a cycle of substitutions, which the
/// innermost substitution being resolved turns into "undefined" if it is
/// optional (`${?x}`) and into an error if not, as ruby-hocon does.
enum Fail {
    Error(HoconError),
    Cycle(Pos),
}

impl From<HoconError> for Fail {
    fn from(e: HoconError) -> Fail {
        Fail::Error(e)
    }
}

fn unresolved<T>(subst: &Subst) -> Result<T, Fail> {
    Err(Fail::Error(error(
        subst.pos,
        format!(
            "Could not resolve substitution to a value: {}",
            subst.text()
        ),
    )))
}

fn cycle_error(subst: &Subst) -> HoconError {
    error(
        subst.pos,
        format!(
            "Could not resolve substitution to a value: {} was part of a cycle of substitutions",
            subst.text()
        ),
    )
}

/// A memoized result, by its key.
enum Memo {
    Lookup(Vec<String>),
    Shallow(usize),
    Full(usize),
}

struct Resolver {
    root: Node,
    steps: usize,
    depth: usize,
    /// The size of what concatenations made, and its limit (also that of
    /// the number of values made).
    grown: usize,
    limit: usize,
    /// What was memoized, in order: a cycle turned into "undefined" makes
    /// the resolver forget what it memoized meanwhile, as ruby-hocon does.
    journal: Vec<Memo>,
    /// The values of merges being resolved: the merge and the value's index.
    active: Vec<(usize, usize)>,
    /// What lookups of substitution paths found.
    lookups: HashMap<Vec<String>, Option<Node>>,
    /// Results by node identity; the node is kept so that its allocation,
    /// and so the identity, stays unique.
    shallow_memo: HashMap<usize, (Node, Option<Node>)>,
    full_memo: HashMap<usize, (Node, Option<Node>)>,
    resolving: HashSet<usize>,
}

/// The substitution an unresolved node stands for, if any.
fn reference(node: &Node) -> Option<&Rc<Subst>> {
    match node {
        Node::Subst(s) | Node::Missing(s) => Some(s),
        Node::Select(select) => Some(&select.subst),
        Node::Prior(prior) => Some(&prior.subst),
        _ => None,
    }
}

fn is_broken(subst: &Subst) -> bool {
    subst.broken.as_ref().is_some_and(|b| b.get())
}

/// What a substitution gives when nothing is at its path.
fn nothing(subst: &Subst) -> Result<Option<Node>, Fail> {
    if subst.optional {
        Ok(None)
    } else {
        unresolved(subst)
    }
}

/// A resolved node as a value; `None` once more than `budget` values are
/// made (resolved nodes share parts, values do not).
fn to_value(node: &Node, budget: &mut usize) -> Option<Value> {
    *budget = budget.checked_sub(1)?;
    Some(match node {
        Node::Bool(b) => Value::Boolean(*b),
        Node::Int(i, _) => Value::Integer(*i),
        Node::Float(f, _) => Value::Float(*f),
        Node::Str(s) | Node::Unquoted(s) => Value::string(&**s),
        Node::Arr(items) => {
            let mut values = Vec::with_capacity(items.len());
            for item in items.iter() {
                values.push(to_value(item, budget)?);
            }
            Value::array(values)
        }
        Node::Obj(map) => {
            let mut hash = PHash::with_capacity(map.len());
            for (key, child) in map.iter() {
                hash.insert(Value::string(key.as_str()), to_value(child, budget)?);
            }
            Value::hash(hash)
        }
        _ => Value::Undef,
    })
}

impl Resolver {
    fn new(root: Node, limit: usize) -> Resolver {
        Resolver {
            root,
            limit,
            steps: 0,
            depth: 0,
            grown: 0,
            journal: Vec::new(),
            active: Vec::new(),
            lookups: HashMap::new(),
            shallow_memo: HashMap::new(),
            full_memo: HashMap::new(),
            resolving: HashSet::new(),
        }
    }

    /// The root object as a value.
    fn resolve_root(&mut self) -> Result<Value, HoconError> {
        let root = self.root.clone();
        match self.full_shaped(&root) {
            Ok(node) => match to_value(&node, &mut self.limit.clone()) {
                Some(value) => Ok(value),
                None => fail(
                    Pos { line: 1, column: 1 },
                    "the document expands to too many values",
                ),
            },
            Err(Fail::Error(e)) => Err(e),
            Err(Fail::Cycle(pos)) => fail(
                pos,
                "Could not resolve a value: it is part of a cycle of substitutions",
            ),
        }
    }

    fn enter(&mut self, pos: Pos) -> Result<(), Fail> {
        self.steps += 1;
        self.depth += 1;
        if self.depth > MAX_RESOLVE_DEPTH {
            return Err(Fail::Error(error(pos, "substitutions nest too deeply")));
        }
        if self.steps > self.limit {
            return Err(Fail::Error(error(
                pos,
                "substitutions take too long to resolve",
            )));
        }
        Ok(())
    }

    /// [`join`], within a limit on the size of what joins make.
    fn join(&mut self, left: &Node, right: &Node, pos: Pos) -> Result<Node, Fail> {
        let joined = join(left, right, pos)?;
        self.grown += match &joined {
            Node::Str(s) => s.len(),
            Node::Arr(items) => 8 * items.len(),
            Node::Obj(map) => 8 * map.len(),
            _ => 1,
        };
        if self.grown > self.limit {
            return Err(Fail::Error(error(pos, "the document expands too much")));
        }
        Ok(joined)
    }

    /// What a substitution's resolution gives when it meets a cycle.
    /// Results memoized since `journal` (the journal's length when the
    /// substitution began) are forgotten, as ruby-hocon forgets them.
    fn catch_cycle(
        &mut self,
        node: &Node,
        result: Result<Option<Node>, Fail>,
        journal: usize,
    ) -> Result<Option<Node>, Fail> {
        match (result, reference(node)) {
            (Err(Fail::Cycle(_)), Some(subst)) if subst.optional => {
                for memo in self.journal.drain(journal..) {
                    match memo {
                        Memo::Lookup(path) => {
                            self.lookups.remove(&path);
                        }
                        Memo::Shallow(id) => {
                            self.shallow_memo.remove(&id);
                        }
                        Memo::Full(id) => {
                            self.full_memo.remove(&id);
                        }
                    }
                }
                Ok(None)
            }
            (Err(Fail::Cycle(_)), Some(subst)) => Err(Fail::Error(cycle_error(subst))),
            (result, _) => result,
        }
    }

    /// The node at a substitution's path, found by resolving only the
    /// objects on the way to it.
    fn lookup(&mut self, subst: &Subst) -> Result<Option<Node>, Fail> {
        if let Some(found) = self.lookups.get(&subst.path) {
            return Ok(found.clone());
        }
        let found = self.walk(self.root.clone(), &subst.path)?;
        if self
            .lookups
            .insert(subst.path.clone(), found.clone())
            .is_none()
        {
            self.journal.push(Memo::Lookup(subst.path.clone()));
        }
        Ok(found)
    }

    /// The node at `path` under `start`.
    fn walk(&mut self, start: Node, path: &[String]) -> Result<Option<Node>, Fail> {
        let mut current = start;
        for key in path {
            let child = match self.shallow(&current)? {
                Some(Node::Obj(map)) => map.get(key).cloned(),
                _ => None,
            };
            match child {
                Some(child) => current = child,
                None => return Ok(None),
            }
        }
        Ok(Some(current))
    }

    /// A node's type and top level, to walk through it: `None` if it is
    /// undefined. As in ruby-hocon, only merges are resolved partly (objects
    /// in them are merged without resolving their fields); anything else
    /// that is not shaped is resolved fully.
    fn shallow(&mut self, node: &Node) -> Result<Option<Node>, Fail> {
        let Node::Merge(items) = node else {
            return if node.is_shaped() {
                Ok(Some(node.clone()))
            } else {
                self.full(node)
            };
        };
        let id = Rc::as_ptr(items) as *const u8 as usize;
        if let Some(count) = self.active_index(id) {
            return self.shallow_merge(items, count);
        }
        if let Some((_, result)) = self.shallow_memo.get(&id) {
            return Ok(result.clone());
        }
        self.enter(node.pos().unwrap_or(Pos { line: 1, column: 1 }))?;
        let result = self.shallow_merge(items, items.len());
        self.depth -= 1;
        let result = result?;
        if self
            .shallow_memo
            .insert(id, (node.clone(), result.clone()))
            .is_none()
        {
            self.journal.push(Memo::Shallow(id));
        }
        Ok(result)
    }

    /// A node fully resolved (shaped all the way down), `None` if it is
    /// undefined.
    fn full(&mut self, node: &Node) -> Result<Option<Node>, Fail> {
        let Some(id) = node.id() else {
            return self.full_shaped(node).map(Some);
        };
        if let Node::Merge(items) = node
            && let Some(count) = self.active_index(id)
        {
            return self.full_merge(items, count);
        }
        if let Some((_, value)) = self.full_memo.get(&id) {
            return Ok(value.clone());
        }
        let pos = node.pos().unwrap_or(Pos { line: 1, column: 1 });
        if !self.resolving.insert(id) {
            return Err(Fail::Cycle(pos));
        }
        self.enter(pos)?;
        let journal = self.journal.len();
        let result = self.full_uncached(node);
        self.depth -= 1;
        self.resolving.remove(&id);
        let result = self.catch_cycle(node, result, journal)?;
        if self
            .full_memo
            .insert(id, (node.clone(), result.clone()))
            .is_none()
        {
            self.journal.push(Memo::Full(id));
        }
        Ok(result)
    }

    fn full_uncached(&mut self, node: &Node) -> Result<Option<Node>, Fail> {
        match node {
            Node::Prior(prior) if is_broken(&prior.subst) => nothing(&prior.subst),
            Node::Select(select) if is_broken(&select.subst) => nothing(&select.subst),
            Node::Prior(prior) => match self.full(&prior.node)? {
                Some(value) => Ok(Some(value)),
                None => nothing(&prior.subst),
            },
            Node::Missing(subst) => nothing(subst),
            Node::Subst(subst) => match self.lookup(subst)? {
                Some(found) => match self.full(&found)? {
                    Some(value) => Ok(Some(value)),
                    None => nothing(subst),
                },
                None => nothing(subst),
            },
            Node::Select(select) => match self.walk(select.base.clone(), &select.path)? {
                Some(found) => match self.full(&found)? {
                    Some(value) => Ok(Some(value)),
                    None => nothing(&select.subst),
                },
                None => nothing(&select.subst),
            },
            Node::Concat(parts, pos) => {
                let mut joined: Option<Node> = None;
                for part in parts.iter() {
                    if let Some(right) = self.full(part)? {
                        joined = Some(match joined {
                            None => right,
                            Some(left) => self.join(&left, &right, *pos)?,
                        });
                    }
                }
                Ok(joined)
            }
            Node::Merge(items) => self.full_merge(items, items.len()),
            shaped => self.full_shaped(shaped).map(Some),
        }
    }

    /// For a merge one of whose values is being resolved, the index of that
    /// value: the merge then stands for the values before it.
    fn active_index(&mut self, id: usize) -> Option<usize> {
        let index = self.active.iter().rev().find(|(merge, _)| *merge == id)?.1;
        Some(index)
    }

    /// The first `count` values of a merge, merged, resolved only as far as
    /// needed to walk through them.
    fn shallow_merge(&mut self, items: &Rc<Vec<Node>>, count: usize) -> Result<Option<Node>, Fail> {
        let mut merged: Option<Node> = None;
        for item in items.iter().take(count).rev() {
            if let Some(Node::Obj(newer)) = &merged {
                if newer.sealed {
                    break;
                }
            } else if merged.is_some() {
                break;
            }
            let Some(older) = self.shallow(item)? else {
                continue;
            };
            merged = Some(merge_under(merged, older));
        }
        Ok(merged)
    }

    /// The first `count` values of a merge, resolved and merged. All are
    /// resolved, as in ruby-hocon, even those that end up hidden.
    fn full_merge(&mut self, items: &Rc<Vec<Node>>, count: usize) -> Result<Option<Node>, Fail> {
        let id = Rc::as_ptr(items) as *const u8 as usize;
        let mut merged: Option<Node> = None;
        for (index, item) in items.iter().enumerate().take(count).rev() {
            // As in ruby-hocon: while a value that is not shaped is resolved,
            // the merge stands for the values before it.
            let unshaped = !item.is_shaped();
            if unshaped {
                self.active.push((id, index));
            }
            let older = self.full(item);
            if unshaped {
                self.active.pop();
            }
            if let Some(older) = older? {
                merged = Some(merge_under(merged, older));
            }
        }
        Ok(merged)
    }

    /// A shaped node with its elements resolved, undefined ones left out.
    fn full_shaped(&mut self, node: &Node) -> Result<Node, Fail> {
        Ok(match node {
            Node::Arr(items) => {
                let mut out = Vec::with_capacity(items.len());
                for item in items.iter() {
                    if let Some(v) = self.full(item)? {
                        out.push(v);
                    }
                }
                Node::Arr(Rc::new(out))
            }
            Node::Obj(map) => {
                let mut fields = Map::with_capacity(map.len());
                for (key, child) in map.iter() {
                    if let Some(v) = self.full(child)? {
                        fields.insert(key.clone(), v);
                    }
                }
                Node::Obj(Rc::new(Object {
                    fields,
                    sealed: map.sealed,
                }))
            }
            other => other.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A value as Ruby's `JSON.generate` writes it.
    fn json(value: &Value, out: &mut String) {
        match value {
            Value::Undef => out.push_str("null"),
            Value::Boolean(b) => out.push_str(&b.to_string()),
            Value::Integer(i) => out.push_str(&i.to_string()),
            Value::Float(f) => {
                let text = f.to_string();
                out.push_str(&text);
                if !text.contains(['.', 'e', 'i', 'N']) {
                    out.push_str(".0");
                }
            }
            Value::String(s) => marionette_values::json::string(out, s),
            Value::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    json(item, out);
                }
                out.push(']');
            }
            Value::Hash(hash) => {
                out.push('{');
                for (i, (key, item)) in hash.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    json(key, out);
                    out.push(':');
                    json(item, out);
                }
                out.push('}');
            }
            other => out.push_str(&format!("{other:?}")),
        }
    }

    fn to_json(text: &str) -> Result<String, HoconError> {
        let value = parse(text)?;
        let mut out = String::new();
        json(&value, &mut out);
        Ok(out)
    }

    /// Documents and what ruby-hocon 1.3.1 makes of them
    /// (`Hocon::ConfigFactory.parse_string(doc).resolve.root.unwrapped`,
    /// printed with `JSON.generate`); `ERR n` is an error on line n.
    const CASES: &[(&str, &str)] = &[
        (
            r##"# Hiera data
// also a comment
a = 1 # trailing
b : two, c = three,
d = 4"##,
            r##"{"a":1,"b":"two","c":"three","d":4}"##,
        ),
        (
            r##"{
  "ntp::servers": ["0.pool.ntp.org", "1.pool.ntp.org"],
  "ntp::restrict": true
}
# after the root object"##,
            r##"{"ntp::servers":["0.pool.ntp.org","1.pool.ntp.org"],"ntp::restrict":true}"##,
        ),
        (r##"ntp::servers: [a, b]"##, r##"ERR 1"##),
        (
            r##"a = { x = 1 }
b : { x = 2 }
c { x = 3 }
d {}"##,
            r##"{"a":{"x":1},"b":{"x":2},"c":{"x":3},"d":{}}"##,
        ),
        (
            r##"list = [
  one
  two,
  three,
]
obj { a = 1, b = 2, }
empty = [
]"##,
            r##"{"list":["one","two","three"],"obj":{"a":1,"b":2},"empty":[]}"##,
        ),
        (
            r##"a = hello world
b = hello   "big"   world
c = foo"bar"baz
d = 1 2 3
e = true false
f = trueish
g = null x
h = /srv/www/html
i = "quoted "  tail	"##,
            r##"{"a":"hello world","b":"hello   big   world","c":"foobarbaz","d":"1 2 3","e":"true false","f":"trueish","g":"null x","h":"/srv/www/html","i":"quoted   tail"}"##,
        ),
        (
            r##"a = """line one
  line "two" """
b = """x""""
c = """"""
d = """no \n escape""""##,
            r##"{"a":"line one\n  line \"two\" ","b":"x\"","c":"","d":"no \\n escape"}"##,
        ),
        (
            r##"a = "tab\tnewline\nquote\"backslash\\slash\/"
b = "\u00e9\u20AC"
c = "caf\u00E9""##,
            r##"{"a":"tab\tnewline\nquote\"backslash\\slash/","b":"é€","c":"café"}"##,
        ),
        (
            r##"a = 1
b = -5
c = 1.5
d = 1.0
e = 1e3
f = 1.5e-3
g = 0777
h = 08
i = 10.0.0.1
j = 1.2.3
k = .5
l = 5.
m = -0
n = 0x1F
o = 2.50
p = 9223372036854775807
q = -1e-1"##,
            r##"{"a":1,"b":-5,"c":1.5,"d":1,"e":1000,"f":0.0015,"g":511,"h":"08","i":"10.0.0.1","j":"1.2.3","k":".5","l":"5.","m":0,"n":"0x1F","o":2.5,"p":9223372036854775807,"q":-0.1}"##,
        ),
        (
            r##"a = true
b = false
c = yes
d = no
e = on
f = off
g = null"##,
            r##"{"a":true,"b":false,"c":"yes","d":"no","e":"on","f":"off","g":null}"##,
        ),
        (
            r##"a.b.c = 1
a.b.d = 2
a.e = 3
"x.y" = 4
x."y.z" = 5
"" = 6"##,
            r##"{"a":{"e":3,"b":{"d":2,"c":1}},"x.y":4,"x":{"y.z":5},"":6}"##,
        ),
        (
            r##""profile::base::packages" = [vim, git]
"apache::port" = 8080
lookup_options {
  "profile::base::packages" { merge = unique }
}"##,
            r##"{"profile::base::packages":["vim","git"],"apache::port":8080,"lookup_options":{"profile::base::packages":{"merge":"unique"}}}"##,
        ),
        (
            r##"z = 1
a = 2
z = 3
m { y = 1, x = 2 }
m { a = 3, y = 4 }"##,
            r##"{"z":3,"a":2,"m":{"a":3,"y":4,"x":2}}"##,
        ),
        (
            r##"a = { b = 1 }
a = 5
a = { c = 2 }
d = { e = 1 }
d = null
d = { f = 2 }
g = [1, 2]
g = [3]"##,
            r##"{"a":{"c":2},"d":{"f":2},"g":[3]}"##,
        ),
        (
            r##"a += 1
a += 2
b = [x]
b += y
c { list = [1] }
c { list += 2 }"##,
            r##"{"a":[1,2],"b":["x","y"],"c":{"list":[1,2]}}"##,
        ),
        (
            r##"base = "/opt/app"
bin = ${base}/bin
lib = ${base}"/lib"
conf = { dir = ${base}/etc, port = 80 }
port = ${conf.port}
n = 1.50
v = "v"${n}
w = ${n}"##,
            r##"{"base":"/opt/app","bin":"/opt/app/bin","lib":"/opt/app/lib","conf":{"dir":"/opt/app/etc","port":80},"port":80,"n":1.5,"v":"v1.50","w":1.5}"##,
        ),
        (
            r##"a = ${?nope}
b = [${?nope}, 1]
c = x${?nope}y
d = 1
d = ${?nope}
e = ${?nope} ${?nope}
f = true${?nope}"##,
            r##"{"b":[1],"c":"xy","d":1,"e":" ","f":true}"##,
        ),
        (
            r##"path = /usr/bin
path = ${path}":/usr/local/bin"
o = { x = 1 }
o = ${o} { y = 2 }"##,
            r##"{"path":"/usr/bin:/usr/local/bin","o":{"y":2,"x":1}}"##,
        ),
        (
            r##"defaults { timeout = 30, retries = 3 }
service = ${defaults} { retries = 5, name = web }
defaults.timeout = 60"##,
            r##"{"defaults":{"timeout":60,"retries":3},"service":{"retries":5,"name":"web","timeout":60}}"##,
        ),
        (
            r##"a = [1, 2] [3]
x = [0]
b = ${x} [1] ${x}
c = { p = 1 } { q = 2 }"##,
            r##"{"a":[1,2,3],"x":[0],"b":[0,1,0],"c":{"q":2,"p":1}}"##,
        ),
        (
            r##"a = [1] foo
b = { x = 1 } bar"##,
            r##"{"a":[1],"b":{"x":1}}"##,
        ),
        (
            r##"a = ${b}
b = ${a}"##,
            r##"ERR 2"##,
        ),
        (
            r##"a = 1
b = ${missing}"##,
            r##"ERR 2"##,
        ),
        (
            r##"include "common.conf"
a = 1"##,
            r##"{"a":1}"##,
        ),
        (r##""##, r##"{}"##),
        (r##"# only a comment"##, r##"{}"##),
        (r##"{}"##, r##"{}"##),
        (
            r##"key with spaces = 1
a b.c d = 2
"q" r = 3"##,
            r##"{"key with spaces":1,"a b":{"c d":2},"q r":3}"##,
        ),
        (r##"a = { b = 1"##, r##"ERR 1"##),
        (r##"a = 1 b = 2"##, r##"ERR 1"##),
        (r##"[1, 2]"##, r##"ERR 1"##),
        (
            r##"a =
  1
b
  = 2
c = # comment
  3
d {
}"##,
            r##"{"a":1,"b":2,"c":3,"d":{}}"##,
        ),
        (
            r##"users = [
  { name = alice, groups = [admin, dev] }
  { name = bob }
]"##,
            r##"{"users":[{"name":"alice","groups":["admin","dev"]},{"name":"bob"}]}"##,
        ),
        (
            r##"a.b.c = 1
a.x = 2
a.b.d = 3"##,
            r##"{"a":{"b":{"d":3,"c":1},"x":2}}"##,
        ),
        (
            r##"a { c = ${?a} }
b { x = 1, y = ${b.x} }"##,
            r##"{"a":{},"b":{"x":1,"y":1}}"##,
        ),
        (
            r##"x = { a = { b = 1 } } { a = 5, a.c = 0 }"##,
            r##"{"x":{"a":{"c":0}}}"##,
        ),
        (r##"a = "abc"##, r##"ERR 1"##),
        (r##"a = x^y"##, r##"ERR 1"##),
        (
            r##"foo : { a : { c : 1 } }
foo : ${foo.a}
foo : { a : 2 }"##,
            r##"{"foo":{"a":2,"c":1}}"##,
        ),
        (
            r##"bar : { foo : 42, baz : ${bar.foo} }
bar : { foo : 43 }"##,
            r##"{"bar":{"foo":43,"baz":43}}"##,
        ),
        (
            r##"a = 5
a += 1"##,
            r##"ERR"##,
        ),
        (
            r##"a = [1] [2] ,b = c
"lookup_options": {
  "^profile::.*": { "merge": "deep" }
}"##,
            r##"{"a":[1,2],"b":"c","lookup_options":{"^profile::.*":{"merge":"deep"}}}"##,
        ),
        (
            r##"a = 1
a = [${?a}, 2]
b = [1]
b = ${x} [${b}]
x = [0]"##,
            r##"{"a":[2],"b":[0,[1]],"x":[0]}"##,
        ),
        (
            r##"defaults = ${b}
b: { port = [${?defaults.port}, yes] }"##,
            r##"{"defaults":{"port":["yes"]},"b":{"port":["yes"]}}"##,
        ),
        (
            r##"x = [1]
a += ${x}
a += ${x}
a += ${x}"##,
            r##"{"x":[1],"a":[[1],[1],[1]]}"##,
        ),
        (
            r##"b = {}
a = ${b}
a.c += 1
a.c += 2"##,
            r##"{"b":{},"a":{"c":[2]}}"##,
        ),
        (
            r##"a = 5
a += 1
a = 3
s = ${?HOME_NOT_SET_HERE}"##,
            r##"{"a":3}"##,
        ),
        (
            r##"a = 1
a = [${a}]
"##,
            r##"ERR"##,
        ),
    ];

    #[test]
    fn agrees_with_ruby_hocon() {
        for (doc, expected) in CASES {
            let result = to_json(doc);
            match expected.strip_prefix("ERR") {
                Some(line) => match result {
                    Ok(json) => panic!("expected an error for {doc:?}, got {json}"),
                    Err(e) => {
                        if let Ok(line) = line.trim().parse::<usize>() {
                            assert_eq!(e.line, line, "error line for {doc:?}: {e}");
                        }
                    }
                },
                None => match result {
                    Ok(json) => assert_eq!(&json, expected, "for {doc:?}"),
                    Err(e) => panic!("unexpected error for {doc:?}: {e}"),
                },
            }
        }
    }

    #[test]
    fn errors_have_positions() {
        let e = parse("a = 1\nb = [1, 2\nc = 3").unwrap_err();
        assert_eq!((e.line, e.column), (3, 3));
        assert_eq!(e.to_string(), format!("{} at line 3, column 3", e.message));
        let e = parse("a {\n  b = \"x\\q\"\n}").unwrap_err();
        assert_eq!((e.line, e.column), (2, 9));
        assert!(e.message.contains("not a valid escape"), "{e}");
        let e = parse("a = 1\nb = ${nope.x}").unwrap_err();
        assert_eq!((e.line, e.column), (2, 5));
        assert!(e.message.contains("${nope.x}"), "{e}");
    }

    #[test]
    fn include_of_files_is_refused() {
        for doc in [
            "include file(\"/etc/x.conf\")",
            "include url(\"http://x\")",
            "a { include classpath(\"x\") }",
        ] {
            let e = parse(doc).unwrap_err();
            assert!(e.message.contains("not supported"), "{e}");
        }
        assert!(parse("include = 1").is_err());
        assert_eq!(
            to_json("includes = 1\n\"include\" = 2").unwrap(),
            r#"{"includes":1,"include":2}"#
        );
    }

    #[test]
    fn surrogate_pairs_and_large_numbers() {
        assert_eq!(
            to_json(r#"a = "\ud83d\ude00""#).unwrap(),
            "{\"a\":\"\u{1F600}\"}"
        );
        assert!(parse(r#"a = "\ud83d""#).is_err());
        // ruby-hocon makes these Bignums; Puppet integers are 64-bit.
        assert!(parse("a = 9223372036854775808").is_err());
        assert_eq!(
            to_json("a = -9223372036854775808").unwrap(),
            r#"{"a":-9223372036854775808}"#
        );
        assert_eq!(
            to_json("a = 1e20").unwrap(),
            r#"{"a":100000000000000000000.0}"#
        );
        assert!(parse("a = 1e400").is_err());
    }

    #[test]
    fn values_have_puppet_types() {
        let value = parse("a = 1\nb = 1.5\nc = null\nd = [true]\ne { f = x }").unwrap();
        let Value::Hash(hash) = value else {
            panic!("not a hash")
        };
        assert!(matches!(
            hash.get(&Value::from("a")),
            Some(Value::Integer(1))
        ));
        assert!(matches!(hash.get(&Value::from("b")), Some(Value::Float(f)) if *f == 1.5));
        assert!(matches!(hash.get(&Value::from("c")), Some(Value::Undef)));
        assert_eq!(
            hash.get(&Value::from("d")),
            Some(&Value::array(vec![Value::Boolean(true)]))
        );
        let mut inner = PHash::new();
        inner.insert(Value::from("f"), Value::from("x"));
        assert_eq!(hash.get(&Value::from("e")), Some(&Value::hash(inner)));
    }

    #[test]
    fn deep_or_long_input_is_an_error_not_a_crash() {
        let deep = format!("a = {}", "[".repeat(100_000));
        assert!(parse(&deep).is_err());
        let deep = format!("a {}", "{".repeat(100_000));
        assert!(parse(&deep).is_err());
        let deep = format!("{} = 1", vec!["a"; 100_000].join("."));
        assert!(parse(&deep).is_err());
        let nested = format!("a = ${{{}}}", "${".repeat(1000));
        assert!(parse(&nested).is_err());
        let chain: String = (0..5000)
            .map(|i| format!("k{i} = ${{k{}}}\n", i + 1))
            .collect();
        assert!(parse(&(chain + "k5000 = 1")).is_err());
        let chain: String = (0..50)
            .map(|i| format!("k{i} = ${{k{}}}\n", i + 1))
            .collect();
        assert!(parse(&(chain + "k50 = 1")).is_ok());
        let appends: String = (0..3000).map(|i| format!("a += {i}\n")).collect();
        let value = parse(&appends).unwrap();
        let Value::Hash(hash) = value else {
            panic!("not a hash")
        };
        assert!(
            matches!(hash.get(&Value::from("a")), Some(Value::Array(items)) if items.len() == 3000)
        );
        let appends: String = (0..3000).map(|i| format!("a += {i}\n")).collect();
        assert!(parse(&format!("b = [0]\na = ${{b}}\n{appends}")).is_err());
        let appends: String = (1..50).map(|i| format!("a += {i}\n")).collect();
        let value = parse(&format!("b = [0]\na = ${{b}}\n{appends}")).unwrap();
        let Value::Hash(hash) = value else {
            panic!("not a hash")
        };
        assert!(
            matches!(hash.get(&Value::from("a")), Some(Value::Array(items)) if items.len() == 50)
        );
        let deep = format!("a {}", "{ a ".repeat(100_000));
        assert!(parse(&deep).is_err());
        // Each object refers twice to the next: fine when each is resolved once.
        let fan: String = (0..40)
            .map(|i| format!("k{i} = ${{k{}}} ${{k{}}}\n", i + 1, i + 1))
            .collect();
        let json = to_json(&(fan.clone() + "k40 = { x = 1 }")).unwrap();
        assert!(json.starts_with(r#"{"k0":{"x":1},"k1":{"x":1}"#), "{json}");
        // Documents that grow exponentially.
        assert!(parse(&(fan.clone() + "k40 = [1]")).is_err());
        assert!(parse(&(fan + "k40 = abc")).is_err());
        let fan: String = (0..40)
            .map(|i| format!("k{i} = [${{k{}}}, ${{k{}}}]\n", i + 1, i + 1))
            .collect();
        assert!(parse(&(fan + "k40 = 1")).is_err());
    }

    const SAMPLE: &str = r#"# sample
{
  "profile::base::packages" = [vim, "git", 1, 2.5, true, null]
  lookup_options { "^profile::.*" { merge = deep } }
  base = "/opt/app", bin = ${base}/bin
  o = { x = 1, y.z = [a b, "c"] } { w = ${?nope} }
  o += """tri "ple" """
  p = ${o.x} ${?o.y}
  q += 1, q += ${p}
  s = "esc \t \u00e9 \\ \/" // comment
  include "x.conf"
}
"#;

    #[test]
    fn never_panics_on_broken_input() {
        let chars: Vec<char> = SAMPLE.chars().collect();
        let text = |cs: &[char]| cs.iter().collect::<String>();
        for end in 0..=chars.len() {
            let _ = parse(&text(&chars[..end]));
            let _ = parse(&text(&chars[end..]));
        }
        let inserts = [
            '{', '}', '[', ']', '"', '$', '\\', '\n', '=', ',', '.', '+', '#', '?', ':', ' ', 'x',
            '1', '/',
        ];
        for i in 0..chars.len() {
            let mut deleted = chars.clone();
            deleted.remove(i);
            let _ = parse(&text(&deleted));
            for c in inserts {
                let mut changed = chars.clone();
                changed.insert(i, c);
                let _ = parse(&text(&changed));
                changed.remove(i);
                changed[i] = c;
                let _ = parse(&text(&changed));
            }
        }
        // Pseudo-random splices of pieces of the sample.
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for _ in 0..3000 {
            let mut doc = Vec::new();
            for _ in 0..1 + next(6) {
                let start = next(chars.len());
                let len = next(40);
                doc.extend_from_slice(&chars[start..(start + len).min(chars.len())]);
            }
            let _ = parse(&text(&doc));
        }
    }
}

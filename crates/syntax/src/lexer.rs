//! The lexer: source text to tokens, for manifests and for EPP templates.
//!
//! Puppet's lexical structure depends on context in a few places, and each is
//! decided here so that the parser can stay context-free:
//! - `/` starts a regex only where a value cannot end (after an operator, a
//!   keyword, an opening bracket, ...); after a name, number, variable,
//!   string or closing bracket it is a division.
//! - `[` right after a value (no blank before it) is an access; after a blank
//!   it always starts an array literal, so `$x` newline `[1]` is two
//!   expressions.
//! - `(` that is the first thing on its line never starts an argument list.
//! - Strings are split into segments; `${...}` is lexed in place, to any depth.
//! - A heredoc's body starts on the line after its `@(TAG)`; several heredocs
//!   opened on one line take consecutive bodies, and lexing resumes after the
//!   last one when that line ends.

use marionette_diagnostics::{Diagnostic, Span};
use std::sync::mpsc::Sender;

use crate::token::{Heredoc, Keyword, Punct, Segment, Token, TokenKind};

/// Tokens and the problems found while reading them.
#[derive(Debug, Default)]
pub struct Lexed {
    pub tokens: Vec<Token>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Lexes a manifest (`.pp`). The token list always ends with `Eof`.
pub fn lex(source: &str) -> Lexed {
    let mut lexer = Lexer::new(source);
    lexer.skip_byte_order_mark();
    let (mut tokens, _) = lexer.lex_sequence(Stop::EndOfInput);
    tokens.push(lexer.eof_token());
    Lexed {
        tokens,
        diagnostics: lexer.diagnostics,
    }
}

/// [`lex`] for a parser on another thread: the tokens are sent to `sink`
/// in chunks as they are read, the last chunk ending with `Eof`; the
/// problems found are returned at the end.
pub(crate) fn lex_into(source: &str, sink: Sender<Vec<Token>>) -> Vec<Diagnostic> {
    let mut lexer = Lexer::new(source);
    lexer.skip_byte_order_mark();
    lexer.sink = Some(sink);
    let (mut tokens, _) = lexer.lex_sequence(Stop::EndOfInput);
    tokens.push(lexer.eof_token());
    if let Some(sink) = lexer.sink.take() {
        // A parser that stopped early no longer wants them.
        let _ = sink.send(tokens);
    }
    lexer.diagnostics
}

/// Lexes an EPP template: text, `<% code %>`, `<%= expression %>`.
pub fn lex_epp(source: &str) -> Lexed {
    let mut lexer = Lexer::new(source);
    let mut tokens = lexer.lex_epp();
    tokens.push(lexer.eof_token());
    Lexed {
        tokens,
        diagnostics: lexer.diagnostics,
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Stop {
    EndOfInput,
    /// The `}` that closes `${`.
    InterpolationEnd,
    /// `%>` or `-%>` in an EPP template.
    EppTagEnd,
}

/// Which backslash escapes a string body understands.
#[derive(Clone, Copy, Default)]
struct Escapes {
    tab: bool,
    carriage_return: bool,
    newline: bool,
    space: bool,
    unicode: bool,
    line_continuation: bool,
    dollar: bool,
    double_quote: bool,
    single_quote: bool,
    /// Double-quoted strings warn about a backslash before a character it
    /// cannot escape; heredocs keep such a backslash silently, and the
    /// character after it means what it would mean without it.
    warn_unknown: bool,
}

impl Escapes {
    fn any(self) -> bool {
        self.tab
            || self.carriage_return
            || self.newline
            || self.space
            || self.unicode
            || self.line_continuation
            || self.dollar
            || self.double_quote
            || self.single_quote
    }
}

struct StringBody {
    interpolate: bool,
    escapes: Escapes,
    /// Blanks to strip from the start of each line (heredoc margin).
    margin: usize,
    /// The byte that ends the string (`"`), or none when `end` bounds it.
    terminator: Option<u8>,
    end: usize,
}

struct Lexer<'a> {
    source: &'a str,
    bytes: &'a [u8],
    pos: usize,
    diagnostics: Vec<Diagnostic>,
    /// Where lexing continues when the current line ends, because heredoc
    /// bodies opened on this line occupy the lines in between.
    heredoc_resume: Option<usize>,
    /// How many `${` are open around the current position.
    interpolation_depth: usize,
    /// How many more heredoc bodies may be read. A heredoc opened in an
    /// interpolation of a string that goes on below it has its body read
    /// again for each enclosing body that spans it, which doubles with
    /// each such line; a few readings per heredoc of the source are
    /// plenty for real code, and past them the input is refused instead
    /// of taking exponential time and memory. Counted at the first heredoc,
    /// so that code without any pays nothing.
    heredoc_budget: Option<usize>,
    /// Only blanks stand between the start of the line and `pos`.
    at_line_start: bool,
    /// Where the top-level tokens go in chunks as they are read, when a
    /// parser takes them on another thread (see [`lex_into`]).
    sink: Option<Sender<Vec<Token>>>,
}

/// The number of tokens [`lex_into`] sends at a time.
const CHUNK: usize = 4096;

/// Interpolations nested deeper than this are reported instead of risking
/// the stack.
const MAX_INTERPOLATION_DEPTH: usize = 64;

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

impl<'a> Lexer<'a> {
    fn new(source: &'a str) -> Lexer<'a> {
        Lexer {
            source,
            bytes: source.as_bytes(),
            pos: 0,
            diagnostics: Vec::new(),
            heredoc_resume: None,
            interpolation_depth: 0,
            heredoc_budget: None,
            at_line_start: true,
            sink: None,
        }
    }

    /// A byte-order mark opening the input is named as such (Puppet's
    /// words), then skipped, so that it is the only error it causes.
    fn skip_byte_order_mark(&mut self) {
        if self.source.starts_with('\u{feff}') {
            self.error(
                "Illegal UTF-8 Byte Order mark at beginning of input: [EF BB BF] - remove these from the puppet source",
                0,
                3,
            );
            self.pos = 3;
        }
    }

    fn eof_token(&self) -> Token {
        let end = self.source.len();
        Token {
            kind: TokenKind::Eof,
            span: Span::new(end, end),
            space_before: true,
            line_start: true,
        }
    }

    fn peek(&self, ahead: usize) -> u8 {
        self.bytes.get(self.pos + ahead).copied().unwrap_or(0)
    }

    fn starts_with(&self, text: &str) -> bool {
        self.bytes[self.pos..].starts_with(text.as_bytes())
    }

    fn error(&mut self, message: impl Into<String>, start: usize, end: usize) {
        self.diagnostics.push(Diagnostic::error(
            "SYNTAX_ERROR",
            message,
            Span::new(start, end),
        ));
    }

    /// Skips blanks and comments. Returns whether anything was skipped and
    /// whether the next token is the first on its line.
    fn skip_trivia(&mut self) -> (bool, bool) {
        let mut skipped = false;
        loop {
            match self.peek(0) {
                b' ' | b'\t' | b'\r' | 0x0c => self.pos += 1,
                b'\n' => {
                    self.pos += 1;
                    if let Some(resume) = self.heredoc_resume.take() {
                        self.pos = resume;
                    }
                    self.at_line_start = true;
                }
                b'#' => {
                    self.pos = self.source[self.pos..]
                        .find('\n')
                        .map_or(self.bytes.len(), |i| self.pos + i);
                }
                b'/' if self.peek(1) == b'*' => {
                    let start = self.pos;
                    match self.source[self.pos + 2..].find("*/") {
                        Some(end) => self.pos += 2 + end + 2,
                        None => {
                            self.error("Unclosed multiline comment", start, start + 2);
                            self.pos = self.bytes.len();
                        }
                    }
                    self.at_line_start = false;
                }
                _ => break,
            }
            skipped = true;
        }
        (skipped, self.at_line_start)
    }

    /// Lexes tokens until `stop`. Returns them and whether `stop` was found
    /// (the end of input always counts as found for `Stop::EndOfInput`).
    fn lex_sequence(&mut self, stop: Stop) -> (Vec<Token>, bool) {
        // Manifests average several bytes per token; reserving up front
        // avoids most reallocation of the main token list.
        let capacity = if stop == Stop::EndOfInput && self.sink.is_some() {
            CHUNK + 1
        } else if stop == Stop::EndOfInput {
            self.bytes.len() / 6
        } else {
            8
        };
        let mut tokens: Vec<Token> = Vec::with_capacity(capacity);
        let mut depth = 0usize;
        loop {
            let (space_before, line_start) = self.skip_trivia();
            if self.pos >= self.bytes.len() {
                return (tokens, stop == Stop::EndOfInput);
            }
            match stop {
                Stop::InterpolationEnd if depth == 0 && self.peek(0) == b'}' => {
                    self.pos += 1;
                    return (tokens, true);
                }
                Stop::EppTagEnd if self.starts_with("%>") || self.starts_with("-%>") => {
                    return (tokens, true);
                }
                _ => {}
            }
            let start = self.pos;
            let kind = self.next_kind(tokens.last(), line_start);
            self.at_line_start = false;
            match kind {
                TokenKind::Punct(Punct::LBrace) => depth += 1,
                TokenKind::Punct(Punct::RBrace) => depth = depth.saturating_sub(1),
                _ => {}
            }
            tokens.push(Token {
                kind,
                span: Span::new(start, self.pos),
                space_before,
                line_start,
            });
            if stop == Stop::EndOfInput
                && tokens.len() > CHUNK
                && let Some(sink) = &self.sink
            {
                // The last token stays: the next one is read in its light.
                let last = tokens.pop();
                let chunk = std::mem::replace(&mut tokens, Vec::with_capacity(CHUNK + 1));
                let _ = sink.send(chunk);
                tokens.extend(last);
            }
        }
    }

    fn next_kind(&mut self, previous: Option<&Token>, line_start: bool) -> TokenKind {
        let start = self.pos;
        let b = self.peek(0);
        match b {
            b'$' => self.variable(),
            b'"' => {
                self.pos += 1;
                let body = StringBody {
                    interpolate: true,
                    escapes: Escapes {
                        tab: true,
                        carriage_return: true,
                        newline: true,
                        space: true,
                        unicode: true,
                        // A backslash before a line's end joins the lines,
                        // as in heredocs with the `L` flag.
                        line_continuation: true,
                        dollar: true,
                        double_quote: true,
                        single_quote: true,
                        warn_unknown: true,
                    },
                    margin: 0,
                    terminator: Some(b'"'),
                    end: self.bytes.len(),
                };
                let segments = self.string_body(&body, start);
                string_token(segments)
            }
            b'\'' => self.single_quoted(),
            b'@' => {
                if self.peek(1) == b'@' {
                    self.pos += 2;
                    TokenKind::Punct(Punct::AtAt)
                } else if self.peek(1) == b'(' {
                    self.heredoc()
                } else {
                    self.pos += 1;
                    TokenKind::Punct(Punct::At)
                }
            }
            b'0'..=b'9' => self.number(),
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => self.word(),
            b':' if self.peek(1) == b':'
                && (self.peek(2).is_ascii_alphabetic() || self.peek(2) == b'_') =>
            {
                self.word()
            }
            b'/' if regex_acceptable(previous) => match self.regex() {
                Some(kind) => kind,
                None => {
                    self.pos = start + 1;
                    TokenKind::Punct(Punct::Slash)
                }
            },
            b'[' => {
                self.pos += 1;
                let after_blank =
                    start == 0 || matches!(self.bytes[start - 1], b' ' | b'\t' | b'\r' | b'\n');
                TokenKind::Punct(if after_blank {
                    Punct::ListStart
                } else {
                    Punct::LBrack
                })
            }
            b'(' => {
                self.pos += 1;
                TokenKind::Punct(if line_start {
                    Punct::WsLParen
                } else {
                    Punct::LParen
                })
            }
            _ => self.operator(),
        }
    }

    fn operator(&mut self) -> TokenKind {
        use Punct as P;
        let (b1, b2) = (self.peek(1), self.peek(2));
        // The longest operator that starts here, and its length.
        let found = match self.peek(0) {
            b'<' => match (b1, b2) {
                (b'<', b'|') => Some((P::LLCollect, 3)),
                (b'|', _) => Some((P::LCollect, 2)),
                (b'-', _) => Some((P::InEdge, 2)),
                (b'~', _) => Some((P::InEdgeSub, 2)),
                (b'<', _) => Some((P::LShift, 2)),
                (b'=', _) => Some((P::Le, 2)),
                _ => Some((P::Lt, 1)),
            },
            b'|' => match (b1, b2) {
                (b'>', b'>') => Some((P::RRCollect, 3)),
                (b'>', _) => Some((P::RCollect, 2)),
                _ => Some((P::Pipe, 1)),
            },
            b'-' => match b1 {
                b'>' => Some((P::OutEdge, 2)),
                b'=' => Some((P::MinusAssign, 2)),
                _ => Some((P::Minus, 1)),
            },
            b'~' if b1 == b'>' => Some((P::OutEdgeSub, 2)),
            b'>' => match b1 {
                b'>' => Some((P::RShift, 2)),
                b'=' => Some((P::Ge, 2)),
                _ => Some((P::Gt, 1)),
            },
            b'=' => match b1 {
                b'=' => Some((P::EqEq, 2)),
                b'~' => Some((P::Match, 2)),
                b'>' => Some((P::FatArrow, 2)),
                _ => Some((P::Assign, 1)),
            },
            b'!' => match b1 {
                b'=' => Some((P::NotEq, 2)),
                b'~' => Some((P::NoMatch, 2)),
                _ => Some((P::Not, 1)),
            },
            b'+' => match b1 {
                b'>' => Some((P::PlusArrow, 2)),
                b'=' => Some((P::PlusAssign, 2)),
                _ => Some((P::Plus, 1)),
            },
            b'{' => Some((P::LBrace, 1)),
            b'}' => Some((P::RBrace, 1)),
            b']' => Some((P::RBrack, 1)),
            b')' => Some((P::RParen, 1)),
            b',' => Some((P::Comma, 1)),
            b';' => Some((P::Semi, 1)),
            b':' => Some((P::Colon, 1)),
            b'.' => Some((P::Dot, 1)),
            b'?' => Some((P::Question, 1)),
            b'*' => Some((P::Star, 1)),
            b'/' => Some((P::Slash, 1)),
            b'%' => Some((P::Percent, 1)),
            _ => None,
        };
        if let Some((punct, length)) = found {
            self.pos += length;
            return TokenKind::Punct(punct);
        }
        let start = self.pos;
        let ch = self.source[start..].chars().next().unwrap_or('\0');
        self.pos += ch.len_utf8().max(1);
        self.error(format!("Syntax error at '{ch}'"), start, self.pos);
        TokenKind::Error
    }

    /// Scans `(::)?(\w+::)*\w+` at the current position; returns its end.
    fn dollar_name_end(&self, from: usize) -> Option<usize> {
        let bytes = self.bytes;
        let mut pos = from;
        if bytes[pos..].starts_with(b"::") {
            pos += 2;
        }
        let mut end = None;
        loop {
            let segment_start = pos;
            while pos < bytes.len() && is_word_byte(bytes[pos]) {
                pos += 1;
            }
            if pos == segment_start {
                return end;
            }
            end = Some(pos);
            if bytes[pos..].starts_with(b"::")
                && bytes.get(pos + 2).is_some_and(|&b| is_word_byte(b))
            {
                pos += 2;
            } else {
                return end;
            }
        }
    }

    fn variable(&mut self) -> TokenKind {
        let start = self.pos;
        match self.dollar_name_end(start + 1) {
            Some(end) => {
                self.pos = end;
                TokenKind::Variable(self.source[start + 1..end].to_string())
            }
            None => {
                self.pos += 1;
                self.error(
                    "Illegal variable name, The given name '' does not conform to the naming rule",
                    start,
                    start + 1,
                );
                TokenKind::Error
            }
        }
    }

    fn word(&mut self) -> TokenKind {
        let start = self.pos;
        let bytes = self.bytes;
        let mut pos = start;
        if bytes[pos..].starts_with(b"::") {
            pos += 2;
        }
        let upper = bytes[pos].is_ascii_uppercase();
        loop {
            // One segment: a letter or underscore, then word characters; a
            // lower-case segment may also hold inner hyphens (a bare word).
            let segment_start = pos;
            pos += 1;
            while pos < bytes.len() && (is_word_byte(bytes[pos]) || (!upper && bytes[pos] == b'-'))
            {
                pos += 1;
            }
            while pos > segment_start + 1 && bytes[pos - 1] == b'-' {
                pos -= 1;
            }
            let continues = bytes[pos..].starts_with(b"::")
                && bytes.get(pos + 2).is_some_and(|&b| {
                    if upper {
                        b.is_ascii_uppercase()
                    } else {
                        b.is_ascii_lowercase() || b == b'_'
                    }
                });
            if !continues {
                break;
            }
            pos += 2;
        }
        self.pos = pos;
        let text = &self.source[start..pos];
        if upper {
            return TokenKind::TypeRef(text.to_string());
        }
        if let Some(keyword) = Keyword::from_text(text) {
            return TokenKind::Keyword(keyword);
        }
        if is_name(text) {
            TokenKind::Name(text.to_string())
        } else {
            TokenKind::Word(text.to_string())
        }
    }

    fn number(&mut self) -> TokenKind {
        let start = self.pos;
        let bytes = self.bytes;
        let mut pos = start;
        let kind;
        if bytes[pos] == b'0' && matches!(bytes.get(pos + 1), Some(b'x' | b'X')) {
            pos += 2;
            let digits = pos;
            while pos < bytes.len() && bytes[pos].is_ascii_hexdigit() {
                pos += 1;
            }
            kind = if pos == digits {
                None
            } else {
                i64::from_str_radix(&self.source[digits..pos], 16)
                    .ok()
                    .map(TokenKind::Integer)
            };
        } else {
            while pos < bytes.len() && bytes[pos].is_ascii_digit() {
                pos += 1;
            }
            let mut float = false;
            if bytes.get(pos) == Some(&b'.') && bytes.get(pos + 1).is_some_and(u8::is_ascii_digit) {
                float = true;
                pos += 1;
                while pos < bytes.len() && bytes[pos].is_ascii_digit() {
                    pos += 1;
                }
            }
            if matches!(bytes.get(pos), Some(b'e' | b'E')) {
                let mut exponent = pos + 1;
                if bytes.get(exponent) == Some(&b'-') {
                    exponent += 1;
                }
                if bytes.get(exponent).is_some_and(u8::is_ascii_digit) {
                    float = true;
                    pos = exponent;
                    while pos < bytes.len() && bytes[pos].is_ascii_digit() {
                        pos += 1;
                    }
                }
            }
            let text = &self.source[start..pos];
            kind = if float {
                text.parse::<f64>().ok().map(TokenKind::Float)
            } else if text.len() > 1 && text.starts_with('0') {
                i64::from_str_radix(&text[1..], 8)
                    .ok()
                    .map(TokenKind::Integer)
            } else {
                text.parse::<i64>().ok().map(TokenKind::Integer)
            };
        }
        // A number glued to letters (`1a`, `0x1g`, `09`) is one bad token.
        let mut bad = kind.is_none();
        while pos < bytes.len() && is_word_byte(bytes[pos]) {
            pos += 1;
            bad = true;
        }
        self.pos = pos;
        if bad {
            let text = &self.source[start..pos];
            let digits_then_e = text.trim_end_matches(['e', 'E']);
            let message = if text.len() > 1
                && text.starts_with('0')
                && text.bytes().all(|b| b.is_ascii_digit())
            {
                format!("Not a valid octal number {text}")
            } else if text.starts_with("0x") || text.starts_with("0X") {
                format!("Not a valid hex number {text}")
            } else if digits_then_e.len() + 1 == text.len()
                && digits_then_e
                    .bytes()
                    .all(|b| b.is_ascii_digit() || b == b'.')
            {
                format!("Not a valid decimal number {text}")
            } else if let Some(big) = text
                .parse::<u128>()
                .ok()
                .filter(|_| text.bytes().all(|b| b.is_ascii_digit()))
            {
                format!(
                    "A Literal Integer resulted in a value outside of Puppet Integer max range, got '+{big:#x}'"
                )
            } else {
                format!("Illegal number '{text}'")
            };
            self.error(message, start, pos);
            return TokenKind::Error;
        }
        kind.unwrap_or(TokenKind::Error)
    }

    fn single_quoted(&mut self) -> TokenKind {
        let start = self.pos;
        self.pos += 1;
        let mut text = String::new();
        let mut chunk_start = self.pos;
        while self.pos < self.bytes.len() {
            match self.bytes[self.pos] {
                b'\'' => {
                    text.push_str(&self.source[chunk_start..self.pos]);
                    self.pos += 1;
                    return TokenKind::Str(text);
                }
                b'\\' if matches!(self.peek(1), b'\\' | b'\'') => {
                    text.push_str(&self.source[chunk_start..self.pos]);
                    text.push(self.peek(1) as char);
                    self.pos += 2;
                    chunk_start = self.pos;
                }
                _ => self.pos += 1,
            }
        }
        self.unclosed_quote(start);
        TokenKind::Error
    }

    /// Puppet's message: the quote, then the first five characters after it
    /// with control characters escaped.
    fn unclosed_quote(&mut self, start: usize) {
        let quote = if self.bytes[start] == b'\'' {
            "\"'\""
        } else {
            "'\"'"
        };
        self.unclosed_quote_after(quote, start + 1);
    }

    /// Puppet's message for a string left open at `at`, after `what` (the
    /// quote, or the last thing an interpolation matched, which is where
    /// Puppet's lexer was when it found the string open).
    fn unclosed_quote_after(&mut self, what: &str, at: usize) {
        let following: String = self.source[at..]
            .chars()
            .take(5)
            .flat_map(char::escape_debug)
            .collect();
        let following = if following.is_empty() {
            "<eof>".to_string()
        } else {
            format!("{following}...")
        };
        self.error(
            format!("Unclosed quote after {what} followed by '{following}'"),
            at,
            at,
        );
    }

    /// Reads a string body from `self.pos`: text, escapes and, when enabled,
    /// interpolation. Leaves `self.pos` after the terminator (or at `end`).
    fn string_body(&mut self, body: &StringBody, quote_start: usize) -> Vec<Segment> {
        let mut segments = Vec::new();
        // What the last interpolation matched last, and where it ended.
        let mut interpolated: Option<(String, usize)> = None;
        let mut text = String::new();
        let mut at_line_start = body.margin > 0;
        while self.pos < body.end {
            if at_line_start {
                at_line_start = false;
                let mut stripped = 0;
                while stripped < body.margin
                    && self.pos < body.end
                    && matches!(self.bytes[self.pos], b' ' | b'\t')
                {
                    self.pos += 1;
                    stripped += 1;
                }
                continue;
            }
            let b = self.bytes[self.pos];
            if Some(b) == body.terminator {
                self.pos += 1;
                push_text(&mut segments, &mut text);
                return segments;
            }
            match b {
                b'\\' if body.escapes.any() => {
                    // After a line continuation, the next line's margin is
                    // stripped like any other line's.
                    if self.escape(body, &mut text) {
                        at_line_start = body.margin > 0;
                    }
                }
                b'$' if body.interpolate => {
                    let dollar = self.pos;
                    if self.peek(1) == b'{' {
                        push_text(&mut segments, &mut text);
                        self.pos += 2;
                        if self.interpolation_depth >= MAX_INTERPOLATION_DEPTH {
                            self.error("Interpolations are nested too deeply", dollar, dollar + 2);
                            self.pos = body.end;
                            return segments;
                        }
                        self.interpolation_depth += 1;
                        let saved_resume = self.heredoc_resume.take();
                        self.at_line_start = false;
                        let (tokens, closed) = self.lex_sequence(Stop::InterpolationEnd);
                        // A heredoc opened inside the interpolation moves the
                        // resume point; otherwise keep the outer one.
                        self.heredoc_resume = self.heredoc_resume.or(saved_resume);
                        self.interpolation_depth -= 1;
                        if !closed {
                            self.error(
                                "Unclosed interpolation, '${' is missing its '}'",
                                dollar,
                                dollar + 2,
                            );
                        }
                        let last = tokens.last().map_or("", |t| {
                            &self.source[t.span.start as usize..t.span.end as usize]
                        });
                        // An interpolation left open ran to the end: the
                        // string's own quote is what is open.
                        interpolated = closed.then(|| (last.to_string(), self.pos));
                        segments.push(Segment::Expression {
                            tokens,
                            span: Span::new(dollar, self.pos),
                        });
                    } else if let Some(end) = self
                        .dollar_name_end(dollar + 1)
                        .filter(|&end| end <= body.end)
                    {
                        push_text(&mut segments, &mut text);
                        self.pos = end;
                        interpolated = Some((self.source[dollar + 1..end].to_string(), end));
                        segments.push(Segment::Variable {
                            name: self.source[dollar + 1..end].to_string(),
                            span: Span::new(dollar, end),
                        });
                    } else {
                        text.push('$');
                        self.pos += 1;
                    }
                }
                b'\n' => {
                    text.push('\n');
                    self.pos += 1;
                    at_line_start = body.margin > 0;
                }
                _ => {
                    let ch = self.source[self.pos..].chars().next().unwrap_or('\0');
                    text.push(ch);
                    self.pos += ch.len_utf8();
                }
            }
        }
        if body.terminator.is_some() {
            match interpolated {
                Some((last, at)) if last == "'" => self.unclosed_quote_after("\"'\"", at),
                Some((last, at)) => self.unclosed_quote_after(&format!("'{last}'"), at),
                None => self.unclosed_quote(quote_start),
            }
        }
        push_text(&mut segments, &mut text);
        segments
    }

    /// Reads the escape at `self.pos`; `true` when it joined two lines.
    fn escape(&mut self, body: &StringBody, text: &mut String) -> bool {
        let start = self.pos;
        let next = self.source[self.pos + 1..].chars().next();
        let escapes = body.escapes;
        let simple = match next {
            Some('\\') => Some('\\'),
            Some('n') if escapes.newline => Some('\n'),
            Some('t') if escapes.tab => Some('\t'),
            Some('r') if escapes.carriage_return => Some('\r'),
            Some('s') if escapes.space => Some(' '),
            Some('$') if escapes.dollar => Some('$'),
            Some('"') if escapes.double_quote => Some('"'),
            Some('\'') if escapes.single_quote => Some('\''),
            _ => None,
        };
        if let Some(ch) = simple {
            text.push(ch);
            self.pos += 2;
            return false;
        }
        match next {
            Some('u') if escapes.unicode => {
                self.pos += 2;
                if let Some(ch) = self.unicode_escape() {
                    text.push(ch);
                } else {
                    self.error(
                        "Illegal unicode escape sequence, expected \\uXXXX or \\u{X..XXXXXX}",
                        start,
                        self.pos,
                    );
                }
            }
            Some('\n') if escapes.line_continuation => {
                self.pos += 2;
                return true;
            }
            Some('\r') if escapes.line_continuation && self.peek(2) == b'\n' => {
                self.pos += 3;
                return true;
            }
            Some(other) if other == '\n' || Some(other as u32 as u8) == body.terminator => {
                // A backslash before the terminator or a newline that it
                // cannot escape stays literal; the terminator then ends the
                // string as usual.
                text.push('\\');
                self.pos += 1;
            }
            Some(_) if !escapes.warn_unknown => {
                text.push('\\');
                self.pos += 1;
            }
            Some(other) => {
                // Puppet keeps an unknown escape as written (and warns).
                self.diagnostics.push(Diagnostic::warning(
                    "UNRECOGNIZED_ESCAPE",
                    format!("Unrecognized escape sequence '\\{other}'"),
                    Span::new(start, start + 1 + other.len_utf8()),
                ));
                text.push('\\');
                text.push(other);
                self.pos += 1 + other.len_utf8();
            }
            None => {
                text.push('\\');
                self.pos += 1;
            }
        }
        false
    }

    fn unicode_escape(&mut self) -> Option<char> {
        if self.peek(0) == b'{' {
            let digits_start = self.pos + 1;
            let mut end = digits_start;
            while end < self.bytes.len()
                && self.bytes[end].is_ascii_hexdigit()
                && end - digits_start < 6
            {
                end += 1;
            }
            if end == digits_start || self.bytes.get(end) != Some(&b'}') {
                return None;
            }
            self.pos = end + 1;
            u32::from_str_radix(&self.source[digits_start..end], 16)
                .ok()
                .and_then(char::from_u32)
        } else {
            let digits = self.source.get(self.pos..self.pos + 4)?;
            if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
                return None;
            }
            self.pos += 4;
            u32::from_str_radix(digits, 16)
                .ok()
                .and_then(char::from_u32)
        }
    }

    fn regex(&mut self) -> Option<TokenKind> {
        let start = self.pos;
        let bytes = self.bytes;
        let mut pos = start + 1;
        // The first part must close on the same line; an escaped slash lets
        // the pattern go on to the next unescaped one, wherever it is.
        while pos < bytes.len() && bytes[pos] != b'/' {
            if bytes[pos] == b'\n' {
                return None;
            }
            pos += 1;
        }
        loop {
            if pos >= bytes.len() {
                return None;
            }
            let backslashes = bytes[start + 1..pos]
                .iter()
                .rev()
                .take_while(|&&b| b == b'\\')
                .count();
            if backslashes % 2 == 0 {
                break;
            }
            pos += 1;
            while pos < bytes.len() && bytes[pos] != b'/' {
                pos += 1;
            }
        }
        self.pos = pos + 1;
        Some(TokenKind::Regex(
            self.source[start + 1..pos].replace("\\/", "/"),
        ))
    }

    fn heredoc(&mut self) -> TokenKind {
        let start = self.pos;
        self.pos += 2;
        let line_end = self.source[self.pos..]
            .find('\n')
            .map_or(self.bytes.len(), |i| self.pos + i);
        let Some(close) = self.source[self.pos..line_end]
            .find(')')
            .map(|i| self.pos + i)
        else {
            self.error(
                "Unclosed parenthesis after '@(' followed by a heredoc tag",
                start,
                start + 2,
            );
            self.pos = line_end;
            return TokenKind::Error;
        };
        let spec = &self.source[self.pos..close];
        self.pos = close + 1;
        let after_spec = self.pos;

        let (tag_part, flags) = match spec.rfind('/') {
            Some(slash) => (&spec[..slash], Some(&spec[slash + 1..])),
            None => (spec, None),
        };
        let (tag_part, syntax) = match tag_part.find(':') {
            Some(colon) => (
                &tag_part[..colon],
                Some(tag_part[colon + 1..].trim().to_string()),
            ),
            None => (tag_part, None),
        };
        let tag_part = tag_part.trim();
        let (tag, interpolate) =
            if tag_part.len() >= 2 && tag_part.starts_with('"') && tag_part.ends_with('"') {
                (&tag_part[1..tag_part.len() - 1], true)
            } else {
                (tag_part, false)
            };
        if tag.is_empty() || tag.contains('"') {
            self.error(format!("Invalid heredoc tag '{spec}'"), start, after_spec);
            return TokenKind::Error;
        }
        let valid_syntax = |syntax: &str| {
            let mut bytes = syntax.bytes();
            bytes.next().is_some_and(|b| b.is_ascii_lowercase())
                && bytes
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'+' | b'.' | b'-'))
        };
        if let Some(syntax) = &syntax
            && !valid_syntax(syntax)
        {
            self.error(
                "Invalid syntax in heredoc expected @(endtag[:syntax][/escapes])",
                after_spec,
                after_spec,
            );
        }
        let mut escapes = Escapes::default();
        if let Some(flags) = flags {
            if flags.is_empty() {
                escapes = Escapes {
                    tab: true,
                    carriage_return: true,
                    newline: true,
                    space: true,
                    unicode: true,
                    line_continuation: true,
                    dollar: true,
                    ..Escapes::default()
                };
            }
            // One error for the whole flag string, as Puppet gives: a
            // repeated flag first (naming every flag), else the first
            // flag that is not one.
            let mut seen = std::collections::HashSet::new();
            let repeated = !flags.chars().all(|flag| seen.insert(flag));
            if repeated {
                let all: Vec<String> = flags.chars().map(String::from).collect();
                self.error(
                    format!(
                        "An escape char for @() may only appear once. Got '{}'",
                        all.join(", ")
                    ),
                    after_spec,
                    after_spec,
                );
            }
            for flag in flags.chars() {
                match flag {
                    't' => escapes.tab = true,
                    'r' => escapes.carriage_return = true,
                    'n' => escapes.newline = true,
                    's' => escapes.space = true,
                    'u' => escapes.unicode = true,
                    'L' => escapes.line_continuation = true,
                    '$' => escapes.dollar = true,
                    other => {
                        if !repeated {
                            self.error(
                                format!("Invalid heredoc escape char. Only t, r, n, s, u, L, $ allowed. Got '{other}'"),
                                after_spec,
                                after_spec,
                            );
                        }
                        break;
                    }
                }
            }
        }

        // Find the body and its end marker line.
        let body_start = self
            .heredoc_resume
            .unwrap_or(if line_end < self.bytes.len() {
                line_end + 1
            } else {
                line_end
            });
        let mut line = body_start;
        let mut found = None;
        while line < self.bytes.len() {
            let next = self.source[line..]
                .find('\n')
                .map_or(self.bytes.len(), |i| line + i);
            if let Some(marker) = end_marker(&self.source[line..next], tag) {
                found = Some((line, next, marker));
                break;
            }
            line = if next < self.bytes.len() {
                next + 1
            } else {
                next
            };
        }
        let Some((marker_line, marker_end, (margin, trim))) = found else {
            self.error("Heredoc without end-tagged line", body_start, body_start);
            self.pos = after_spec;
            self.heredoc_resume = Some(self.bytes.len());
            return TokenKind::Error;
        };
        let source = self.source;
        let budget = self
            .heredoc_budget
            .get_or_insert_with(|| 64 + 4 * source.matches("@(").count());
        if *budget == 0 {
            self.error(
                "Heredocs opened inside interpolations are nested too intricately to read",
                start,
                after_spec,
            );
            self.pos = after_spec;
            self.heredoc_resume = Some(self.bytes.len());
            return TokenKind::Error;
        }
        *budget -= 1;
        let mut body_end = marker_line;
        if trim && body_end > body_start {
            body_end -= 1;
            if body_end > body_start && self.bytes[body_end - 1] == b'\r' {
                body_end -= 1;
            }
        }
        self.pos = body_start;
        let body = StringBody {
            interpolate,
            escapes,
            margin,
            terminator: None,
            end: body_end,
        };
        let segments = self.string_body(&body, start);
        self.pos = after_spec;
        self.heredoc_resume = Some(if marker_end < self.bytes.len() {
            marker_end + 1
        } else {
            marker_end
        });
        TokenKind::Heredoc(Box::new(Heredoc {
            syntax: syntax.filter(|s| !s.is_empty()),
            segments,
        }))
    }

    fn lex_epp(&mut self) -> Vec<Token> {
        let mut tokens = Vec::new();
        let mut text = String::new();
        let mut text_start = 0;
        while self.pos < self.bytes.len() {
            if self.starts_with("<%%") {
                text.push_str("<%");
                self.pos += 3;
                continue;
            }
            if self.starts_with("%%>") {
                text.push_str("%>");
                self.pos += 3;
                continue;
            }
            if !self.starts_with("<%") {
                let ch = self.source[self.pos..].chars().next().unwrap_or('\0');
                text.push(ch);
                self.pos += ch.len_utf8();
                continue;
            }
            let tag_start = self.pos;
            self.pos += 2;
            let mut render = false;
            match self.peek(0) {
                b'#' => {
                    match self.source[self.pos..].find("%>") {
                        Some(end) => {
                            let trim_right = self.bytes[self.pos + end - 1] == b'-';
                            self.pos += end + 2;
                            if trim_right {
                                self.skip_newline();
                            }
                        }
                        None => {
                            self.error(
                                "Unbalanced embedded comment, reached <eof> without closing '%>'",
                                tag_start,
                                tag_start + 3,
                            );
                            self.pos = self.bytes.len();
                        }
                    }
                    continue;
                }
                b'-' => {
                    self.pos += 1;
                    // `<%-` removes the blanks that indent the tag.
                    let trimmed = text.trim_end_matches([' ', '\t']).len();
                    text.truncate(trimmed);
                }
                b'=' => {
                    self.pos += 1;
                    render = true;
                }
                _ => {}
            }
            if !text.is_empty() {
                tokens.push(Token {
                    kind: TokenKind::EppText(std::mem::take(&mut text)),
                    span: Span::new(text_start, tag_start),
                    space_before: false,
                    line_start: false,
                });
            }
            if render {
                tokens.push(Token {
                    kind: TokenKind::EppRenderStart,
                    span: Span::new(tag_start, self.pos),
                    space_before: false,
                    line_start: false,
                });
            }
            let (code, closed) = self.lex_sequence(Stop::EppTagEnd);
            tokens.extend(code);
            if !closed {
                self.error(
                    "Unbalanced epp tag, reached <eof> without closing tag.",
                    tag_start,
                    tag_start + 2,
                );
                break;
            }
            let end_start = self.pos;
            let trim_right = self.peek(0) == b'-';
            self.pos += if trim_right { 3 } else { 2 };
            if render {
                tokens.push(Token {
                    kind: TokenKind::EppRenderEnd,
                    span: Span::new(end_start, self.pos),
                    space_before: false,
                    line_start: false,
                });
            }
            if trim_right {
                self.skip_newline();
            }
            text_start = self.pos;
        }
        if !text.is_empty() {
            tokens.push(Token {
                kind: TokenKind::EppText(text),
                span: Span::new(text_start, self.pos),
                space_before: false,
                line_start: false,
            });
        }
        tokens
    }

    /// After `-%>`: the blanks that follow on the same line, and its line
    /// break, as Puppet trims them (the blanks even when no line break
    /// follows).
    fn skip_newline(&mut self) {
        while matches!(self.peek(0), b' ' | b'\t') {
            self.pos += 1;
        }
        if self.peek(0) == b'\r' {
            self.pos += 1;
        }
        if self.peek(0) == b'\n' {
            self.pos += 1;
        }
    }
}

fn push_text(segments: &mut Vec<Segment>, text: &mut String) {
    if !text.is_empty() {
        segments.push(Segment::Text(std::mem::take(text)));
    }
}

fn string_token(mut segments: Vec<Segment>) -> TokenKind {
    match segments.as_slice() {
        [] => TokenKind::Str(String::new()),
        [Segment::Text(_)] => match segments.pop() {
            Some(Segment::Text(text)) => TokenKind::Str(text),
            _ => unreachable!("the slice pattern matched a single text segment"),
        },
        _ => TokenKind::Interpolated(segments),
    }
}

/// Puppet's rule for a lower-case name: `(::)?[a-z]\w*(::[a-z]\w*)*`.
pub(crate) fn is_name(text: &str) -> bool {
    let text = text.strip_prefix("::").unwrap_or(text);
    let segment = |segment: &str| {
        let mut bytes = segment.bytes();
        bytes.next().is_some_and(|b| b.is_ascii_lowercase()) && bytes.all(is_word_byte)
    };
    // Most names have no `::`: checked without splitting (a split on a
    // string pattern builds a searcher for every word of a manifest).
    if !text.as_bytes().contains(&b':') {
        return segment(text);
    }
    !text.is_empty() && text.split("::").all(segment)
}

/// Whether `/` after `previous` starts a regex rather than a division.
fn regex_acceptable(previous: Option<&Token>) -> bool {
    let Some(previous) = previous else {
        return true;
    };
    // After something that ends a value, `/` divides.
    !matches!(
        &previous.kind,
        TokenKind::Punct(Punct::RParen | Punct::RBrack | Punct::RRCollect | Punct::RCollect)
            | TokenKind::Name(_)
            | TokenKind::Word(_)
            | TokenKind::TypeRef(_)
            | TokenKind::Integer(_)
            | TokenKind::Float(_)
            | TokenKind::Str(_)
            | TokenKind::Interpolated(_)
            | TokenKind::Heredoc(_)
            | TokenKind::Regex(_)
            | TokenKind::Variable(_)
            | TokenKind::Keyword(Keyword::True | Keyword::False)
    )
}

/// Recognizes a heredoc end line: blanks, an optional `|` margin marker,
/// blanks, an optional `-` trim marker, blanks, the tag, trailing blanks.
/// Returns the margin width and whether to trim the last line break.
fn end_marker(line: &str, tag: &str) -> Option<(usize, bool)> {
    let line = line.strip_suffix('\r').unwrap_or(line);
    let rest = line.trim_start_matches([' ', '\t']);
    let indent = line.len() - rest.len();
    let (margin, rest) = match rest.strip_prefix('|') {
        Some(after) => (indent, after.trim_start_matches([' ', '\t'])),
        None => (0, rest),
    };
    let (trim, rest) = match rest.strip_prefix('-') {
        Some(after) => (true, after.trim_start_matches([' ', '\t'])),
        None => (false, rest),
    };
    (rest.trim_end_matches([' ', '\t']) == tag).then_some((margin, trim))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(source: &str) -> Vec<TokenKind> {
        let lexed = lex(source);
        assert!(lexed.diagnostics.is_empty(), "{:?}", lexed.diagnostics);
        lexed
            .tokens
            .into_iter()
            .map(|t| t.kind)
            .filter(|k| *k != TokenKind::Eof)
            .collect()
    }

    #[test]
    fn slash_is_division_after_a_value_and_regex_elsewhere() {
        assert_eq!(
            kinds("$a / 2 / 3"),
            vec![
                TokenKind::Variable("a".into()),
                TokenKind::Punct(Punct::Slash),
                TokenKind::Integer(2),
                TokenKind::Punct(Punct::Slash),
                TokenKind::Integer(3)
            ]
        );
        assert_eq!(
            kinds("$a =~ /x\\/y/"),
            vec![
                TokenKind::Variable("a".into()),
                TokenKind::Punct(Punct::Match),
                TokenKind::Regex("x/y".into())
            ]
        );
    }

    #[test]
    fn bracket_after_blank_starts_a_list() {
        assert_eq!(kinds("$x[1]")[1], TokenKind::Punct(Punct::LBrack));
        assert_eq!(kinds("$x\n[1]")[1], TokenKind::Punct(Punct::ListStart));
    }

    #[test]
    fn numbers_in_every_base() {
        assert_eq!(
            kinds("0x1F 010 1.5e-3 42"),
            vec![
                TokenKind::Integer(31),
                TokenKind::Integer(8),
                TokenKind::Float(0.0015),
                TokenKind::Integer(42)
            ]
        );
        assert!(!lex("09").diagnostics.is_empty());
    }

    /// Heredocs opened in a string that goes on over the lines of their
    /// bodies have those bodies read once per enclosing body: forty such
    /// lines would take 2^40 readings. The reading stops at a budget with
    /// an error instead.
    #[test]
    fn heredocs_read_again_and_again_are_cut_off() {
        let mut source = String::from("notice(\"v\n");
        for n in 0..40 {
            source.push_str(&format!("${{@(\"E{n}\")}}-d\n"));
        }
        source.push_str("\")\n");
        for n in 0..40 {
            source.push_str(&format!("text\nE{n}\n"));
        }
        let lexed = lex(&source);
        assert!(
            lexed
                .diagnostics
                .iter()
                .any(|d| d.message.contains("nested too intricately")),
            "{:?}",
            lexed.diagnostics
        );
    }

    #[test]
    fn heredocs_on_one_line_take_consecutive_bodies() {
        let tokens = kinds("f(@(A), @(B))\none\nA\ntwo\nB\n$x");
        let bodies: Vec<_> = tokens
            .iter()
            .filter_map(|k| match k {
                TokenKind::Heredoc(heredoc) => Some(heredoc.segments.clone()),
                _ => None,
            })
            .collect();
        assert_eq!(
            bodies,
            vec![
                vec![Segment::Text("one\n".into())],
                vec![Segment::Text("two\n".into())]
            ]
        );
        assert_eq!(tokens.last(), Some(&TokenKind::Variable("x".into())));
    }
}

//! The parser: tokens to a syntax tree, by recursive descent with operator
//! precedence climbing for binary operators.
//!
//! Precedence, loosest first, as in Puppet's grammar: assignment (right
//! associative), relationship arrows, `or`, `and`, `< > <= >=`, `== !=`,
//! `<< >>`, `+ -`, `* / %`, `=~ !~`, `in`, then the prefix operators `-`, `*`
//! and `!`, and the postfix forms (collectors, selectors `? {}`, access `[]`,
//! method calls `.f()`), which bind tightest.
//!
//! The parser never stops at the first error: it reports it, skips to the next
//! statement and goes on, so one run shows every independent problem. Errors
//! that only follow from an earlier one are not reported.

use marionette_diagnostics::{Diagnostic, Span};

use crate::ast::*;
use crate::lexer::{self, Lexed};
use crate::token::{Keyword, Punct, Segment, Token, TokenKind};

/// A tree and every diagnostic found while building it.
#[derive(Debug)]
pub struct Parsed {
    pub program: Program,
    pub diagnostics: Vec<Diagnostic>,
}

/// Manifests at least this large are lexed on a second thread while they
/// are parsed: the two passes take about as long as each other.
const LEX_ASIDE_FROM: usize = 64 * 1024;

/// How many diagnostics one parse reports at most: past that, one more
/// says how many were left out. A broken file (or a hostile one) cannot
/// print a million lines.
pub const MAX_DIAGNOSTICS: usize = 100;

/// Keeps the first [`MAX_DIAGNOSTICS`] diagnostics and counts the rest in
/// one more, placed where the first one left out was.
fn capped(mut diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    if diagnostics.len() > MAX_DIAGNOSTICS {
        let more = diagnostics.len() - MAX_DIAGNOSTICS;
        let span = diagnostics[MAX_DIAGNOSTICS].span;
        diagnostics.truncate(MAX_DIAGNOSTICS);
        diagnostics.push(Diagnostic::error(
            "TOO_MANY_ERRORS",
            format!("{more} more problems were found and are not shown"),
            span,
        ));
    }
    diagnostics
}

/// Parses a manifest.
pub fn parse(source: &str) -> Parsed {
    if source.len() < LEX_ASIDE_FROM {
        return parse_tokens(source, lexer::lex(source), false);
    }
    std::thread::scope(|scope| {
        let (sink, incoming) = std::sync::mpsc::channel();
        let lexing = scope.spawn(move || lexer::lex_into(source, sink));
        let mut parser = Parser::new(source, Vec::new(), 0);
        parser.incoming = Some(incoming);
        parser.fill();
        let body = parser.statements(End::Input);
        match lexing.join() {
            Ok(mut diagnostics) => {
                // The lexer's problems first, as when it runs before.
                let lexed = diagnostics.len();
                diagnostics.append(&mut parser.diagnostics);
                without_consequences(&mut diagnostics, lexed);
                Parsed {
                    program: Program {
                        epp_params: None,
                        body,
                        span: Span::new(0, source.len()),
                    },
                    diagnostics: capped(diagnostics),
                }
            }
            // The lexer panicked: lexing again here lets the panic reach
            // the caller as it would without the thread.
            Err(_) => parse_tokens(source, lexer::lex(source), false),
        }
    })
}

/// Parses an EPP template.
pub fn parse_epp(source: &str) -> Parsed {
    parse_tokens(source, lexer::lex_epp(source), true)
}

fn parse_tokens(source: &str, lexed: Lexed, epp: bool) -> Parsed {
    let mut parser = Parser::new(source, lexed.tokens, 0);
    let lexed_count = lexed.diagnostics.len();
    parser.diagnostics = lexed.diagnostics;
    let epp_params = if epp { parser.epp_header() } else { None };
    let body = parser.statements(End::Input);
    let program = Program {
        epp_params,
        body,
        span: Span::new(0, source.len()),
    };
    without_consequences(&mut parser.diagnostics, lexed_count);
    Parsed {
        program,
        diagnostics: capped(parser.diagnostics),
    }
}

/// Drops what the parser found after a string the lexer found open: the
/// string ran to the end of the input, so those are its consequences
/// ("Syntax error at end of input"), which Puppet, stopping at the open
/// string, never reports. `lexed` diagnostics came from the lexer.
fn without_consequences(diagnostics: &mut Vec<Diagnostic>, lexed: usize) {
    let Some(open) = diagnostics[..lexed]
        .iter()
        .find(|d| d.message.starts_with("Unclosed quote"))
        .map(|d| d.span.start)
    else {
        return;
    };
    let mut index = 0;
    diagnostics.retain(|d| {
        index += 1;
        index <= lexed || d.span.start < open
    });
}

/// The names that may be called without parentheses, as statements:
/// `include a, b`, `notice 'x'`.
pub const STATEMENT_CALLS: &[&str] = &[
    "require", "realize", "include", "contain", "tag", "debug", "info", "notice", "warning", "err",
    "fail", "import", "break", "next", "return",
];

/// How many tokens past the current one the parser looks at, at most
/// (`nth_kind(2)`).
const LOOKAHEAD: usize = 2;

/// How many parsed tokens may pile up before those behind the previous
/// one are dropped, while tokens are received from a lexer thread.
const DROP_BEHIND: usize = 8192;

/// Nesting deeper than this is reported instead of risking the stack.
const MAX_DEPTH: usize = 200;

/// A failure whose diagnostic has already been recorded.
struct Reported;

type PResult<T> = Result<T, Reported>;

#[derive(Clone, Copy, PartialEq, Eq)]
enum End {
    Input,
    Brace,
}

struct Parser<'a> {
    source: &'a str,
    tokens: Vec<Token>,
    /// The rest of the tokens, when a lexer on another thread still sends
    /// them; [`Parser::fill`] keeps enough of them at hand.
    incoming: Option<std::sync::mpsc::Receiver<Vec<Token>>>,
    /// How many tokens from the start were dropped once parsed (only while
    /// tokens are received); `pos` counts from the first token all the same.
    dropped: usize,
    pos: usize,
    diagnostics: Vec<Diagnostic>,
    /// Inside a condition (`if`, `case`, `node`, ...) a `{` ends the
    /// expression instead of opening a resource body.
    no_brace: bool,
    depth: usize,
    /// Set after an error until a statement parses cleanly, so that errors
    /// caused by the first one are not reported.
    recovering: bool,
}

// Binding powers of the binary operators.
const ASSIGN: u8 = 10;
const RELATIONSHIP: u8 = 20;
const OR: u8 = 30;
const AND: u8 = 40;
/// The selector (`$x ? { ... }`) applies to all that binds tighter on its
/// left (`1 + 1 ? ...`, `$a in $b ? ...`, `$a == 1 ? ...`), and `and`/`or`
/// take it whole, as in Puppet.
const SELECTOR: u8 = 45;
const COMPARE: u8 = 50;
const EQUALITY: u8 = 60;
const SHIFT: u8 = 70;
const ADDITIVE: u8 = 80;
const MULTIPLICATIVE: u8 = 90;
const MATCH: u8 = 100;
const IN: u8 = 110;

enum Infix {
    Binary(BinaryOp),
    Assign(AssignOp),
    Relationship(RelationshipOp),
}

fn infix(kind: &TokenKind) -> Option<(u8, Infix)> {
    use BinaryOp as B;
    let found = match kind {
        TokenKind::Punct(punct) => match punct {
            Punct::Assign => (ASSIGN, Infix::Assign(AssignOp::Assign)),
            Punct::PlusAssign => (ASSIGN, Infix::Assign(AssignOp::Append)),
            Punct::MinusAssign => (ASSIGN, Infix::Assign(AssignOp::Delete)),
            Punct::OutEdge => (RELATIONSHIP, Infix::Relationship(RelationshipOp::Before)),
            Punct::OutEdgeSub => (RELATIONSHIP, Infix::Relationship(RelationshipOp::Notify)),
            Punct::InEdge => (RELATIONSHIP, Infix::Relationship(RelationshipOp::Require)),
            Punct::InEdgeSub => (RELATIONSHIP, Infix::Relationship(RelationshipOp::Subscribe)),
            Punct::Lt => (COMPARE, Infix::Binary(B::Lt)),
            Punct::Gt => (COMPARE, Infix::Binary(B::Gt)),
            Punct::Le => (COMPARE, Infix::Binary(B::Le)),
            Punct::Ge => (COMPARE, Infix::Binary(B::Ge)),
            Punct::EqEq => (EQUALITY, Infix::Binary(B::Eq)),
            Punct::NotEq => (EQUALITY, Infix::Binary(B::NotEq)),
            Punct::LShift => (SHIFT, Infix::Binary(B::LShift)),
            Punct::RShift => (SHIFT, Infix::Binary(B::RShift)),
            Punct::Plus => (ADDITIVE, Infix::Binary(B::Add)),
            Punct::Minus => (ADDITIVE, Infix::Binary(B::Sub)),
            Punct::Star => (MULTIPLICATIVE, Infix::Binary(B::Mul)),
            Punct::Slash => (MULTIPLICATIVE, Infix::Binary(B::Div)),
            Punct::Percent => (MULTIPLICATIVE, Infix::Binary(B::Mod)),
            Punct::Match => (MATCH, Infix::Binary(B::Match)),
            Punct::NoMatch => (MATCH, Infix::Binary(B::NoMatch)),
            _ => return None,
        },
        TokenKind::Keyword(Keyword::Or) => (OR, Infix::Binary(B::Or)),
        TokenKind::Keyword(Keyword::And) => (AND, Infix::Binary(B::And)),
        TokenKind::Keyword(Keyword::In) => (IN, Infix::Binary(B::In)),
        _ => return None,
    };
    Some(found)
}

impl<'a> Parser<'a> {
    fn new(source: &'a str, tokens: Vec<Token>, depth: usize) -> Parser<'a> {
        Parser {
            source,
            tokens,
            incoming: None,
            dropped: 0,
            pos: 0,
            diagnostics: Vec::new(),
            no_brace: false,
            depth,
            recovering: false,
        }
    }

    // ---- token access -------------------------------------------------

    /// Receives tokens from the lexer until the current one and the
    /// [`LOOKAHEAD`] after it are at hand, or all of them are. Every change
    /// of position ends with it, so the accessors below never see the end
    /// of the tokens received so far unless it is the end of the input.
    fn fill(&mut self) {
        while self.pos + LOOKAHEAD >= self.end() {
            let Some(incoming) = &self.incoming else {
                return;
            };
            // Tokens before the previous one are never looked at again:
            // dropped as parsing goes, the tokens of a large manifest are
            // never all held at once.
            let behind = self.pos.saturating_sub(1) - self.dropped;
            if behind >= DROP_BEHIND {
                self.tokens.drain(..behind);
                self.dropped += behind;
            }
            match incoming.recv() {
                Ok(chunk) => self.tokens.extend(chunk),
                Err(_) => {
                    self.incoming = None;
                    // Only a lexer that failed ends without `Eof`: the
                    // caller lexes again, and meanwhile the input ends here.
                    if !matches!(self.tokens.last(), Some(t) if t.kind == TokenKind::Eof) {
                        let end = u32::try_from(self.source.len()).unwrap_or(u32::MAX);
                        self.tokens.push(Token {
                            kind: TokenKind::Eof,
                            span: Span { start: end, end },
                            space_before: false,
                            line_start: false,
                        });
                    }
                }
            }
        }
    }

    fn token(&self) -> &Token {
        &self.tokens[self.pos.min(self.end() - 1) - self.dropped]
    }

    /// The position after the last token received.
    fn end(&self) -> usize {
        self.dropped + self.tokens.len()
    }

    fn kind(&self) -> &TokenKind {
        &self.token().kind
    }

    fn nth_kind(&self, ahead: usize) -> &TokenKind {
        &self.tokens[(self.pos + ahead).min(self.end() - 1) - self.dropped].kind
    }

    fn at(&self, punct: Punct) -> bool {
        self.kind().is_punct(punct)
    }

    fn at_keyword(&self, keyword: Keyword) -> bool {
        self.kind().is_keyword(keyword)
    }

    fn at_eof(&self) -> bool {
        matches!(self.kind(), TokenKind::Eof)
    }

    /// Consumes the current token and returns its span.
    fn bump(&mut self) -> Span {
        let span = self.token().span;
        if self.pos < self.end() - 1 {
            self.pos += 1;
            self.fill();
        }
        span
    }

    /// Consumes the current token and returns it, leaving a placeholder:
    /// tokens are read once, so moving out avoids copying strings.
    fn take(&mut self) -> Token {
        let index = self.pos.min(self.end() - 1) - self.dropped;
        let placeholder = Token {
            kind: TokenKind::Error,
            ..self.tokens[index].clone_without_kind()
        };
        let token = std::mem::replace(&mut self.tokens[index], placeholder);
        if self.pos < self.end() - 1 {
            self.pos += 1;
            self.fill();
        } else {
            // Never consume the final end-of-input token.
            self.tokens[index] = token.clone();
        }
        token
    }

    fn eat(&mut self, punct: Punct) -> Option<Span> {
        if self.at(punct) {
            Some(self.bump())
        } else {
            None
        }
    }

    fn expect(&mut self, punct: Punct) -> PResult<Span> {
        match self.eat(punct) {
            Some(span) => Ok(span),
            None => Err(self.syntax_error()),
        }
    }

    /// The end of the last consumed token.
    fn last_end(&self) -> u32 {
        if self.pos == 0 {
            0
        } else {
            self.tokens[self.pos - 1 - self.dropped].span.end
        }
    }

    fn span_from(&self, start: Span) -> Span {
        Span {
            start: start.start,
            end: self.last_end().max(start.start),
        }
    }

    // ---- diagnostics --------------------------------------------------

    /// Reports "Syntax error at 'TOKEN'" at the current token.
    fn syntax_error(&mut self) -> Reported {
        let token = self.token().clone();
        match token.kind {
            // The lexer already reported this token.
            TokenKind::Error => self.recovering = true,
            TokenKind::Eof => self.report(Diagnostic::error(
                "SYNTAX_ERROR",
                "Syntax error at end of input",
                token.span,
            )),
            _ => {
                let text = token_text(self.source, &token);
                self.report(Diagnostic::error(
                    "SYNTAX_ERROR",
                    format!("Syntax error at '{text}'"),
                    token.span,
                ));
            }
        }
        Reported
    }

    fn report(&mut self, diagnostic: Diagnostic) {
        if !self.recovering {
            self.diagnostics.push(diagnostic);
        }
        self.recovering = true;
    }

    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            let span = self.token().span;
            self.report(Diagnostic::error(
                "NESTING_TOO_DEEP",
                format!("Expressions are nested more than {MAX_DEPTH} levels deep"),
                span,
            ));
            self.depth -= 1;
            return Err(Reported);
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Runs `f` with `{` allowed (or not) to open a resource body.
    fn with_brace<T>(&mut self, allowed: bool, f: impl FnOnce(&mut Self) -> T) -> T {
        let saved = std::mem::replace(&mut self.no_brace, !allowed);
        let result = f(self);
        self.no_brace = saved;
        result
    }

    // ---- statements ---------------------------------------------------

    /// Parses statements until the end of input or (for `End::Brace`) an
    /// unconsumed `}`.
    fn statements(&mut self, end: End) -> Vec<Expr> {
        let mut items: Vec<(Vec<Expr>, Vec<Span>)> = Vec::new();
        let mut failed = false;
        loop {
            // A `;` separates two statements: it can neither start a list
            // nor end one, and two in a row are an error, as in Puppet.
            if !items.is_empty() && self.eat(Punct::Semi).is_some() {
                let at_end = self.at_eof()
                    || (end == End::Brace && self.at(Punct::RBrace))
                    || self.at(Punct::Semi);
                if at_end {
                    self.recovering = false;
                    let _ = self.syntax_error();
                    while self.eat(Punct::Semi).is_some() {}
                }
            }
            if self.at_eof() || (end == End::Brace && self.at(Punct::RBrace)) {
                break;
            }
            let start = self.pos;
            let first = self.token().clone_without_kind();
            // A statement that fails right after a failed one is part of
            // the same broken construct (100,000 stray `}` are one
            // mistake): only a statement that parsed reports anew.
            if !failed {
                self.recovering = false;
            }
            failed = false;
            match self.with_brace(true, |p| p.statement()) {
                Ok(item) => items.push(item),
                Err(Reported) => {
                    failed = true;
                    self.recover(end, &first);
                    if self.pos == start {
                        self.bump();
                    }
                }
            }
        }
        self.transform_calls(items)
    }

    /// One statement: an expression, or a comma-separated list of them,
    /// which must be the arguments of a preceding statement call.
    fn statement(&mut self) -> PResult<(Vec<Expr>, Vec<Span>)> {
        let mut list = vec![self.expression()?];
        let mut commas = Vec::new();
        while let Some(comma) = self.eat(Punct::Comma) {
            commas.push(comma);
            list.push(self.expression()?);
        }
        Ok((list, commas))
    }

    /// Skips to a point where a new statement can start. When the failed
    /// statement began its line, that is the next line indented no deeper
    /// (a `}` there closes the enclosing block); otherwise it is after a `;`,
    /// before a `}` that closes the current block, or at a token first on its
    /// line, counting brackets opened since the error.
    fn recover(&mut self, end: End, first: &Token) {
        let indent = first.line_start.then(|| self.column(first.span.start));
        let mut nesting = 0usize;
        let start = self.pos;
        loop {
            let token = self.token();
            if matches!(token.kind, TokenKind::Eof) {
                return;
            }
            if let Some(indent) = indent {
                if token.line_start && self.pos > start && self.column(token.span.start) <= indent {
                    return;
                }
                self.bump();
                continue;
            }
            match &token.kind {
                TokenKind::Punct(Punct::Semi) if nesting == 0 => {
                    self.bump();
                    return;
                }
                TokenKind::Punct(Punct::RBrace) if nesting == 0 && end == End::Brace => return,
                TokenKind::Punct(
                    Punct::LBrace
                    | Punct::LBrack
                    | Punct::ListStart
                    | Punct::LParen
                    | Punct::WsLParen,
                ) => nesting += 1,
                TokenKind::Punct(Punct::RBrace | Punct::RBrack | Punct::RParen) => {
                    nesting = nesting.saturating_sub(1)
                }
                _ if nesting == 0 && token.line_start && self.pos > start => return,
                _ => {}
            }
            self.bump();
        }
    }

    /// The 0-based character column of a byte offset.
    fn column(&self, offset: u32) -> usize {
        let offset = (offset as usize).min(self.source.len());
        let line_start = self.source[..offset].rfind('\n').map_or(0, |i| i + 1);
        self.source[line_start..offset].chars().count()
    }

    /// Turns `name arg, arg` sequences into calls for the statement-call
    /// names, as Puppet does after parsing.
    fn transform_calls(&mut self, items: Vec<(Vec<Expr>, Vec<Span>)>) -> Vec<Expr> {
        let mut out: Vec<Expr> = Vec::with_capacity(items.len());
        for (list, commas) in items {
            let previous_is_statement_call = matches!(out.last(), Some(Expr { kind: ExprKind::Name(name), .. }) if STATEMENT_CALLS.contains(&name.as_str()));
            if previous_is_statement_call {
                let Some(function) = out.pop() else {
                    unreachable!("checked above")
                };
                let span = function
                    .span
                    .cover(list.last().map_or(function.span, |e| e.span));
                let call = Call {
                    function,
                    args: list,
                    lambda: None,
                    parenthesized: false,
                };
                out.push(Expr::new(ExprKind::Call(Box::new(call)), span));
            } else {
                if let Some(&comma) = commas.first() {
                    self.recovering = false;
                    self.report(Diagnostic::error(
                        "SYNTAX_ERROR",
                        "Syntax error at ','",
                        comma,
                    ));
                    self.recovering = false;
                }
                out.extend(list);
            }
        }
        out
    }

    /// `{ statements }`.
    fn block(&mut self) -> PResult<Vec<Expr>> {
        self.expect(Punct::LBrace)?;
        let body = self.with_brace(true, |p| p.statements(End::Brace));
        self.expect(Punct::RBrace)?;
        Ok(body)
    }

    // ---- expressions --------------------------------------------------

    fn expression(&mut self) -> PResult<Expr> {
        self.expr_bp(0)
    }

    fn expr_bp(&mut self, min_bp: u8) -> PResult<Expr> {
        self.enter()?;
        let result = self.expr_bp_inner(min_bp);
        self.leave();
        result
    }

    fn expr_bp_inner(&mut self, min_bp: u8) -> PResult<Expr> {
        let mut lhs = self.prefix()?;
        loop {
            if self.at(Punct::Question) {
                if SELECTOR < min_bp {
                    break;
                }
                lhs = self.selector(lhs)?;
                continue;
            }
            let Some((bp, op)) = infix(self.kind()) else {
                break;
            };
            if bp < min_bp {
                break;
            }
            self.bump();
            // Assignment is right associative; everything else is left.
            let rhs = self.expr_bp(if bp == ASSIGN { bp } else { bp + 1 })?;
            let span = lhs.span.cover(rhs.span);
            let (lhs_box, rhs_box) = (Box::new(lhs), Box::new(rhs));
            let kind = match op {
                Infix::Binary(op) => ExprKind::Binary {
                    op,
                    lhs: lhs_box,
                    rhs: rhs_box,
                },
                Infix::Assign(op) => ExprKind::Assign {
                    op,
                    target: lhs_box,
                    value: rhs_box,
                },
                Infix::Relationship(op) => ExprKind::Relationship {
                    op,
                    lhs: lhs_box,
                    rhs: rhs_box,
                },
            };
            lhs = Expr::new(kind, span);
        }
        Ok(lhs)
    }

    /// `SUBJECT ? { a => 1, b => 2 }`, or a single entry without braces,
    /// the `?` current.
    fn selector(&mut self, subject: Expr) -> PResult<Expr> {
        self.bump();
        let entries = if self.eat(Punct::LBrace).is_some() {
            self.with_brace(true, |p| p.hash_entries(false))?
        } else {
            let key = self.expr_bp(IN)?;
            self.expect(Punct::FatArrow)?;
            let value = self.expr_bp(IN)?;
            vec![HashEntry { key, value }]
        };
        let span = self.span_from(subject.span);
        Ok(Expr::new(
            ExprKind::Selector {
                subject: Box::new(subject),
                entries,
            },
            span,
        ))
    }

    fn prefix(&mut self) -> PResult<Expr> {
        let op = match self.kind() {
            TokenKind::Punct(Punct::Not) => UnaryOp::Not,
            TokenKind::Punct(Punct::Minus) => UnaryOp::Negate,
            TokenKind::Punct(Punct::Star) => UnaryOp::Splat,
            TokenKind::Punct(Punct::At | Punct::AtAt) => return self.virtual_resource(),
            _ => {
                let primary = self.primary()?;
                return self.postfix(primary);
            }
        };
        let start = self.bump();
        self.enter()?;
        let operand = self.prefix();
        self.leave();
        let operand = operand?;
        let span = start.cover(operand.span);
        Ok(Expr::new(
            ExprKind::Unary {
                op,
                operand: Box::new(operand),
            },
            span,
        ))
    }

    fn postfix(&mut self, mut expr: Expr) -> PResult<Expr> {
        loop {
            match self.kind() {
                TokenKind::Punct(Punct::Dot) => expr = self.method_call(expr)?,
                TokenKind::Punct(Punct::LBrack) => {
                    self.bump();
                    if self.at(Punct::RBrack) {
                        return Err(self.syntax_error());
                    }
                    let keys = self.with_brace(true, |p| p.list_until(Punct::RBrack))?;
                    let span = self.span_from(expr.span);
                    expr = Expr::new(
                        ExprKind::Access {
                            target: Box::new(expr),
                            keys,
                        },
                        span,
                    );
                }
                TokenKind::Punct(punct @ (Punct::LCollect | Punct::LLCollect))
                    if matches!(expr.kind, ExprKind::TypeRef(_) | ExprKind::Name(_)) =>
                {
                    let exported = *punct == Punct::LLCollect;
                    expr = self.collector(expr, exported)?;
                }
                TokenKind::Punct(Punct::LBrace) if !self.no_brace => match &expr.kind {
                    ExprKind::Name(_) => {
                        return self.resource_bodies(expr, ResourceForm::Regular, None);
                    }
                    ExprKind::TypeRef(_) if self.brace_holds_operations() => {
                        let operations = self.operations_block()?;
                        let span = self.span_from(expr.span);
                        return Ok(Expr::new(
                            ExprKind::ResourceDefaults {
                                type_ref: Box::new(expr),
                                operations,
                            },
                            span,
                        ));
                    }
                    ExprKind::TypeRef(_) => {
                        return self.resource_bodies(expr, ResourceForm::Regular, None);
                    }
                    // `Resource[$type] { 'title': ... }` and `$type { 'title': ... }`:
                    // Puppet parses any expression before titled bodies as
                    // a resource type and checks its value when evaluating.
                    ExprKind::Access { .. } | ExprKind::Variable(_)
                        if !self.brace_holds_operations() =>
                    {
                        return self.resource_bodies(expr, ResourceForm::Regular, None);
                    }
                    ExprKind::Access { .. } | ExprKind::Collect { .. } => {
                        let operations = self.operations_block()?;
                        let span = self.span_from(expr.span);
                        return Ok(Expr::new(
                            ExprKind::ResourceOverride {
                                target: Box::new(expr),
                                operations,
                            },
                            span,
                        ));
                    }
                    ExprKind::Variable(_) => {
                        self.report(Diagnostic::error(
                            "INVALID_RESOURCE",
                            "Expression is not valid as a resource, resource-default, or resource-override",
                            expr.span,
                        ));
                        return Err(Reported);
                    }
                    _ => return Ok(expr),
                },
                _ => return Ok(expr),
            }
        }
    }

    /// After `Type {`: does the body hold attribute operations (defaults)
    /// rather than titled bodies?
    fn brace_holds_operations(&self) -> bool {
        matches!(
            (self.nth_kind(1), self.nth_kind(2)),
            (TokenKind::Punct(Punct::RBrace), _)
                | (
                    TokenKind::Punct(Punct::Star),
                    TokenKind::Punct(Punct::FatArrow)
                )
                | (
                    TokenKind::Name(_) | TokenKind::Keyword(_),
                    TokenKind::Punct(Punct::FatArrow | Punct::PlusArrow),
                )
        )
    }

    fn primary(&mut self) -> PResult<Expr> {
        let span = self.token().span;
        match self.kind() {
            TokenKind::Keyword(keyword) => {
                let keyword = *keyword;
                return self.keyword(keyword, span);
            }
            TokenKind::Punct(Punct::LParen | Punct::WsLParen) => {
                self.bump();
                let inner = self.with_brace(true, |p| p.expression())?;
                self.expect(Punct::RParen)?;
                return Ok(Expr::new(
                    ExprKind::Paren(Box::new(inner)),
                    self.span_from(span),
                ));
            }
            TokenKind::Punct(Punct::ListStart | Punct::LBrack) => {
                self.bump();
                let elements = self.with_brace(true, |p| p.arguments_until(Punct::RBrack))?;
                return Ok(Expr::new(ExprKind::Array(elements), self.span_from(span)));
            }
            TokenKind::Punct(Punct::LBrace) => {
                self.bump();
                let entries = self.with_brace(true, |p| p.hash_entries(true))?;
                return Ok(Expr::new(ExprKind::Hash(entries), self.span_from(span)));
            }
            TokenKind::EppRenderStart => {
                self.bump();
                let inner = self.with_brace(true, |p| p.expression())?;
                if !matches!(self.kind(), TokenKind::EppRenderEnd) {
                    return Err(self.syntax_error());
                }
                self.bump();
                return Ok(Expr::new(
                    ExprKind::RenderExpr(Box::new(inner)),
                    self.span_from(span),
                ));
            }
            TokenKind::Integer(_)
            | TokenKind::Float(_)
            | TokenKind::Str(_)
            | TokenKind::Interpolated(_)
            | TokenKind::Heredoc(_)
            | TokenKind::Regex(_)
            | TokenKind::Variable(_)
            | TokenKind::Word(_)
            | TokenKind::Name(_)
            | TokenKind::TypeRef(_)
            | TokenKind::EppText(_) => {}
            _ => return Err(self.syntax_error()),
        }
        let kind = match self.take().kind {
            TokenKind::Integer(value) => ExprKind::Integer(value),
            TokenKind::Float(value) => ExprKind::Float(value),
            TokenKind::Str(text) => ExprKind::String(text),
            TokenKind::Interpolated(segments) => self.interpolated(segments),
            TokenKind::Heredoc(heredoc) => {
                let crate::token::Heredoc { syntax, segments } = *heredoc;
                let text = match segments.as_slice() {
                    [] => ExprKind::String(String::new()),
                    [Segment::Text(text)] => ExprKind::String(text.clone()),
                    _ => self.interpolated(segments),
                };
                let text = Expr::new(text, span);
                ExprKind::Heredoc {
                    syntax,
                    text: Box::new(text),
                }
            }
            TokenKind::Regex(pattern) => ExprKind::Regex(pattern),
            TokenKind::Variable(name) => ExprKind::Variable(name),
            TokenKind::Word(word) => ExprKind::Word(word),
            TokenKind::Name(name) => return self.maybe_call(Expr::new(ExprKind::Name(name), span)),
            TokenKind::TypeRef(name) => {
                return self.maybe_call(Expr::new(ExprKind::TypeRef(name), span));
            }
            TokenKind::EppText(text) => ExprKind::RenderString(text),
            _ => unreachable!("the kinds were checked above"),
        };
        Ok(Expr::new(kind, span))
    }

    /// After a name: `name(args)` with an optional lambda is a call.
    fn maybe_call(&mut self, function: Expr) -> PResult<Expr> {
        if !self.at(Punct::LParen) {
            return Ok(function);
        }
        self.bump();
        let args = self.with_brace(true, |p| p.arguments_until(Punct::RParen))?;
        let lambda = self.optional_lambda()?;
        let span = self.span_from(function.span);
        let call = Call {
            function,
            args,
            lambda,
            parenthesized: true,
        };
        Ok(Expr::new(ExprKind::Call(Box::new(call)), span))
    }

    fn method_call(&mut self, receiver: Expr) -> PResult<Expr> {
        self.bump();
        let token = self.token().clone();
        let name = match &token.kind {
            TokenKind::Name(name) | TokenKind::Word(name) => name.clone(),
            TokenKind::Keyword(keyword) => keyword.text().to_string(),
            TokenKind::TypeRef(name) => name.clone(),
            _ => return Err(self.syntax_error()),
        };
        self.bump();
        let function = Expr::new(ExprKind::Name(name), token.span);
        let (args, parenthesized) = if self.at(Punct::LParen) {
            self.bump();
            (
                self.with_brace(true, |p| p.arguments_until(Punct::RParen))?,
                true,
            )
        } else {
            (Vec::new(), false)
        };
        let lambda = self.optional_lambda()?;
        let span = self.span_from(receiver.span);
        let call = Call {
            function,
            args,
            lambda,
            parenthesized,
        };
        Ok(Expr::new(
            ExprKind::MethodCall {
                receiver: Box::new(receiver),
                call: Box::new(call),
            },
            span,
        ))
    }

    fn optional_lambda(&mut self) -> PResult<Option<Lambda>> {
        if !self.at(Punct::Pipe) {
            return Ok(None);
        }
        let start = self.bump();
        let params = self.params_until(Punct::Pipe)?;
        let return_type = self.optional_return_type()?;
        let body = self.block()?;
        Ok(Some(Lambda {
            params,
            return_type,
            body,
            span: self.span_from(start),
        }))
    }

    fn optional_return_type(&mut self) -> PResult<Option<Expr>> {
        if self.eat(Punct::RShift).is_none() {
            return Ok(None);
        }
        let return_type = self.with_brace(false, |p| p.type_expression())?;
        Ok(Some(return_type))
    }

    /// A type in a parameter list or return type: `Type` or `Type[args]`.
    fn type_expression(&mut self) -> PResult<Expr> {
        let token = self.token().clone();
        let TokenKind::TypeRef(name) = token.kind else {
            return Err(self.syntax_error());
        };
        self.bump();
        let mut expr = Expr::new(ExprKind::TypeRef(name), token.span);
        while self.at(Punct::LBrack) {
            self.bump();
            let keys = self.with_brace(true, |p| p.list_until(Punct::RBrack))?;
            let span = self.span_from(expr.span);
            expr = Expr::new(
                ExprKind::Access {
                    target: Box::new(expr),
                    keys,
                },
                span,
            );
        }
        Ok(expr)
    }

    /// Comma-separated expressions up to `close`, which is consumed; a
    /// trailing comma is allowed.
    fn list_until(&mut self, close: Punct) -> PResult<Vec<Expr>> {
        let mut items = Vec::new();
        loop {
            if self.eat(close).is_some() {
                return Ok(items);
            }
            items.push(self.expression()?);
            if self.eat(Punct::Comma).is_none() {
                self.expect(close)?;
                return Ok(items);
            }
        }
    }

    /// Call arguments or array elements up to `close`, which is consumed.
    /// Puppet accepts `key => value` pairs among them, a hash without
    /// braces: adjacent pairs make one hash (`f('a', b => 1, c => 2)`
    /// passes two arguments).
    fn arguments_until(&mut self, close: Punct) -> PResult<Vec<Expr>> {
        let mut items: Vec<Expr> = Vec::new();
        // Whether the last item is a hash made of pairs, which the next
        // pair joins.
        let mut open_pairs = false;
        loop {
            if self.eat(close).is_some() {
                return Ok(items);
            }
            let item = self.hash_key()?;
            if self.eat(Punct::FatArrow).is_some() {
                let value = self.expression()?;
                let span = item.span.cover(value.span);
                let entry = HashEntry { key: item, value };
                match items.last_mut() {
                    Some(Expr {
                        kind: ExprKind::Hash(entries),
                        span: hash_span,
                        ..
                    }) if open_pairs => {
                        entries.push(entry);
                        *hash_span = hash_span.cover(span);
                    }
                    _ => items.push(Expr::new(ExprKind::Hash(vec![entry]), span)),
                }
                open_pairs = true;
            } else {
                items.push(item);
                open_pairs = false;
            }
            if self.eat(Punct::Comma).is_none() {
                self.expect(close)?;
                return Ok(items);
            }
        }
    }

    /// A hash key: an expression, or `type` or `function`, which Puppet
    /// takes as plain words there (it lexes them as keywords only where a
    /// definition can start).
    fn hash_key(&mut self) -> PResult<Expr> {
        if let TokenKind::Keyword(keyword @ (Keyword::Type | Keyword::Function)) = self.kind()
            && self.nth_kind(1).is_punct(Punct::FatArrow)
        {
            let keyword = *keyword;
            let span = self.bump();
            return Ok(Expr::new(ExprKind::Name(keyword.text().to_string()), span));
        }
        self.expression()
    }

    /// `key => value, ...}` after the opening brace; consumes the `}`.
    /// Selector options (`keyword_keys` false) cannot be `type` or
    /// `function`, hash keys can.
    fn hash_entries(&mut self, keyword_keys: bool) -> PResult<Vec<HashEntry>> {
        let mut entries = Vec::new();
        loop {
            if self.eat(Punct::RBrace).is_some() {
                return Ok(entries);
            }
            let key = if keyword_keys {
                self.hash_key()?
            } else {
                self.expression()?
            };
            self.expect(Punct::FatArrow)?;
            let value = self.expression()?;
            entries.push(HashEntry { key, value });
            if self.eat(Punct::Comma).is_none() {
                self.expect(Punct::RBrace)?;
                return Ok(entries);
            }
        }
    }

    fn interpolated(&mut self, segments: Vec<Segment>) -> ExprKind {
        let mut parts = Vec::with_capacity(segments.len());
        for segment in segments {
            match segment {
                Segment::Text(text) => parts.push(StringPart::Text(text)),
                Segment::Variable { name, span } => {
                    parts.push(StringPart::Expr(Expr::new(ExprKind::Variable(name), span)))
                }
                Segment::Expression { mut tokens, span } => {
                    let end = span.end as usize;
                    // `${class}` names the variable `$class`: a keyword alone,
                    // or at the base of an access or method call, is a name.
                    if let Some(TokenKind::Keyword(keyword)) = tokens.first().map(|t| &t.kind)
                        && matches!(
                            tokens.get(1).map(|t| &t.kind),
                            None | Some(TokenKind::Punct(Punct::LBrack | Punct::Dot))
                        )
                    {
                        tokens[0].kind = TokenKind::Name(keyword.text().to_string());
                    }
                    tokens.push(Token {
                        kind: TokenKind::Eof,
                        span: Span::new(end - 1, end),
                        space_before: true,
                        line_start: false,
                    });
                    // `${1}` names the match variable `$1`; other number
                    // literals cannot name a variable.
                    if let [
                        Token {
                            kind: TokenKind::Integer(_) | TokenKind::Float(_),
                            span: number,
                            ..
                        },
                        Token {
                            kind: TokenKind::Eof,
                            ..
                        },
                    ] = tokens.as_slice()
                    {
                        let text = &self.source[number.range()];
                        if !text.bytes().all(|b| b.is_ascii_digit()) {
                            self.diagnostics.push(Diagnostic::error(
                                "ILLEGAL_NUMERIC_VAR_NAME",
                                format!("Illegal numeric variable name, The given name '{text}' must be a decimal value if it starts with a digit 0-9"),
                                *number,
                            ));
                        }
                    }
                    let mut sub = Parser::new(self.source, tokens, self.depth);
                    let expr = if sub.at_eof() {
                        sub.report(Diagnostic::error(
                            "SYNTAX_ERROR",
                            "Syntax error at '}'",
                            Span::new(end - 1, end),
                        ));
                        Expr::new(ExprKind::Error, span)
                    } else {
                        match sub.expression() {
                            Ok(expr) if sub.at_eof() => interpolation_target(expr),
                            Ok(_) => {
                                let _ = sub.syntax_error();
                                Expr::new(ExprKind::Error, span)
                            }
                            Err(Reported) => Expr::new(ExprKind::Error, span),
                        }
                    };
                    self.diagnostics.append(&mut sub.diagnostics);
                    parts.push(StringPart::Expr(expr));
                }
            }
        }
        ExprKind::Interpolated(parts)
    }

    // ---- keywords -----------------------------------------------------

    fn keyword(&mut self, keyword: Keyword, span: Span) -> PResult<Expr> {
        let simple = match keyword {
            Keyword::True => Some(ExprKind::Boolean(true)),
            Keyword::False => Some(ExprKind::Boolean(false)),
            Keyword::Undef => Some(ExprKind::Undef),
            Keyword::Default => Some(ExprKind::Default),
            _ => None,
        };
        if let Some(kind) = simple {
            self.bump();
            return Ok(Expr::new(kind, span));
        }
        match keyword {
            Keyword::If => self.if_expression(),
            Keyword::Unless => self.unless_expression(),
            Keyword::Case => self.case_expression(),
            Keyword::Class if self.nth_kind(1).is_punct(Punct::LBrace) => {
                self.bump();
                let type_name = Expr::new(ExprKind::Name("class".to_string()), span);
                self.resource_bodies(type_name, ResourceForm::Regular, None)
            }
            Keyword::Class => self.definition(true),
            Keyword::Define => self.definition(false),
            Keyword::Node => self.node(),
            Keyword::Function => self.function_definition(),
            Keyword::Type if matches!(self.nth_kind(1), TokenKind::TypeRef(_)) => self.type_alias(),
            // Where no hash key is allowed (a selector option), Puppet
            // reports the `=>` after the keyword.
            Keyword::Type
                if matches!(self.nth_kind(1), TokenKind::Name(_))
                    || self.nth_kind(1).is_punct(Punct::FatArrow) =>
            {
                self.bump();
                Err(self.syntax_error())
            }
            Keyword::Attr | Keyword::Private if !self.nth_kind(1).is_punct(Punct::LParen) => {
                self.report(Diagnostic::error(
                    "RESERVED_WORD",
                    format!(
                        "Use of reserved word: {}, must be quoted if intended to be a String value",
                        keyword.text()
                    ),
                    span,
                ));
                Err(Reported)
            }
            // Reserved words that are also function names (`type(1)`) or an
            // `import`, which validation rejects with its own message.
            Keyword::Type | Keyword::Import | Keyword::Attr | Keyword::Private
                if self.nth_kind(1).is_punct(Punct::LParen) || keyword == Keyword::Import =>
            {
                self.bump();
                let name = Expr::new(ExprKind::Name(keyword.text().to_string()), span);
                self.maybe_call(name)
            }
            _ => Err(self.syntax_error()),
        }
    }

    fn condition(&mut self) -> PResult<Expr> {
        self.with_brace(false, |p| p.expression())
    }

    fn if_expression(&mut self) -> PResult<Expr> {
        let (branch, span) = self.conditional(true)?;
        Ok(Expr::new(ExprKind::If(Box::new(branch)), span))
    }

    fn unless_expression(&mut self) -> PResult<Expr> {
        let (branch, span) = self.conditional(false)?;
        Ok(Expr::new(ExprKind::Unless(Box::new(branch)), span))
    }

    /// `if`/`elsif`/`unless` after its keyword: the condition, the body and
    /// an `else` (or, for `if`, an `elsif` chain, kept as a nested `if`).
    fn conditional(&mut self, allow_elsif: bool) -> PResult<(If, Span)> {
        let start = self.bump();
        let condition = self.condition()?;
        let then_body = self.block()?;
        let else_body = if allow_elsif && self.at_keyword(Keyword::Elsif) {
            Some(vec![self.if_expression()?])
        } else if self.at_keyword(Keyword::Else) {
            self.bump();
            Some(self.block()?)
        } else {
            None
        };
        Ok((
            If {
                condition,
                then_body,
                else_body,
            },
            self.span_from(start),
        ))
    }

    fn case_expression(&mut self) -> PResult<Expr> {
        let start = self.bump();
        let subject = self.condition()?;
        self.expect(Punct::LBrace)?;
        let mut options = Vec::new();
        loop {
            if !options.is_empty() && self.eat(Punct::RBrace).is_some() {
                break;
            }
            let option_start = self.token().span;
            let mut values = vec![self.condition()?];
            while self.eat(Punct::Comma).is_some() {
                values.push(self.condition()?);
            }
            self.expect(Punct::Colon)?;
            let body = self.block()?;
            options.push(CaseOption {
                values,
                body,
                span: self.span_from(option_start),
            });
        }
        let span = self.span_from(start);
        Ok(Expr::new(
            ExprKind::Case {
                subject: Box::new(subject),
                options,
            },
            span,
        ))
    }

    fn definition(&mut self, class: bool) -> PResult<Expr> {
        let start = self.bump();
        let (name, name_span) = self.definition_name()?;
        let params = self.optional_params()?;
        let parent = if class && self.at_keyword(Keyword::Inherits) {
            self.bump();
            let token = self.token().clone();
            match token.kind {
                TokenKind::Name(parent) => {
                    self.bump();
                    Some(parent)
                }
                TokenKind::Str(_) => {
                    self.report(Diagnostic::error(
                        "QUOTED_NAME",
                        "A quoted string is not valid as a name here",
                        token.span,
                    ));
                    return Err(Reported);
                }
                TokenKind::Keyword(Keyword::Default) => {
                    self.bump();
                    Some("default".to_string())
                }
                _ => return Err(self.syntax_error()),
            }
        } else {
            None
        };
        let body = self.block()?;
        let definition = Definition {
            name,
            name_span,
            params,
            parent,
            body,
        };
        let kind = if class {
            ExprKind::Class(Box::new(definition))
        } else {
            ExprKind::Define(Box::new(definition))
        };
        Ok(Expr::new(kind, self.span_from(start)))
    }

    /// A class, define or function name. Capitalized or hyphenated names
    /// parse, and validation explains what is wrong with them.
    fn definition_name(&mut self) -> PResult<(String, Span)> {
        let token = self.token().clone();
        match token.kind {
            TokenKind::Name(name) | TokenKind::Word(name) | TokenKind::TypeRef(name) => {
                self.bump();
                Ok((name, token.span))
            }
            TokenKind::Str(_) | TokenKind::Interpolated(_) => {
                self.report(Diagnostic::error(
                    "QUOTED_NAME",
                    "A quoted string is not valid as a name here",
                    token.span,
                ));
                Err(Reported)
            }
            _ => Err(self.syntax_error()),
        }
    }

    fn optional_params(&mut self) -> PResult<Vec<Param>> {
        if self
            .eat(Punct::LParen)
            .or_else(|| self.eat(Punct::WsLParen))
            .is_some()
        {
            self.params_until(Punct::RParen)
        } else {
            Ok(Vec::new())
        }
    }

    /// Parameters up to `close`, which is consumed.
    fn params_until(&mut self, close: Punct) -> PResult<Vec<Param>> {
        let mut params = Vec::new();
        loop {
            if self.eat(close).is_some() {
                return Ok(params);
            }
            params.push(self.param()?);
            if self.eat(Punct::Comma).is_none() {
                self.expect(close)?;
                return Ok(params);
            }
        }
    }

    fn param(&mut self) -> PResult<Param> {
        let start = self.token().span;
        let type_expr = if matches!(self.kind(), TokenKind::TypeRef(_)) {
            Some(self.type_expression()?)
        } else {
            None
        };
        let captures_rest = self.eat(Punct::Star).is_some();
        let TokenKind::Variable(name) = self.kind().clone() else {
            return Err(self.syntax_error());
        };
        self.bump();
        let default = if self.eat(Punct::Assign).is_some() {
            Some(self.with_brace(true, |p| p.expr_bp(ASSIGN + 1))?)
        } else {
            None
        };
        Ok(Param {
            name,
            type_expr,
            default,
            captures_rest,
            span: self.span_from(start),
        })
    }

    fn node(&mut self) -> PResult<Expr> {
        let start = self.bump();
        let mut matches = vec![self.node_match()?];
        while self.eat(Punct::Comma).is_some() {
            if self.at(Punct::LBrace) {
                break;
            }
            matches.push(self.node_match()?);
        }
        let parent = if self.at_keyword(Keyword::Inherits) {
            self.bump();
            Some(self.node_match()?)
        } else {
            None
        };
        let body = self.block()?;
        let node = Node {
            matches,
            parent,
            body,
        };
        Ok(Expr::new(
            ExprKind::Node(Box::new(node)),
            self.span_from(start),
        ))
    }

    /// A node name: a string, a regex, `default`, or a dotted host name
    /// written without quotes (`web01.example.com`).
    fn node_match(&mut self) -> PResult<NodeMatch> {
        let token = self.token().clone();
        match token.kind {
            TokenKind::Str(name) => {
                self.bump();
                Ok(NodeMatch::Name(name))
            }
            TokenKind::Regex(pattern) => {
                self.bump();
                Ok(NodeMatch::Regex(pattern))
            }
            TokenKind::Keyword(Keyword::Default) => {
                self.bump();
                Ok(NodeMatch::Default)
            }
            TokenKind::Interpolated(segments) => {
                let at = segments
                    .iter()
                    .find_map(|segment| match segment {
                        Segment::Variable { span, .. } | Segment::Expression { span, .. } => {
                            Some(*span)
                        }
                        Segment::Text(_) => None,
                    })
                    .unwrap_or(token.span);
                self.report(Diagnostic::error(
                    "ILLEGAL_HOSTNAME",
                    "An interpolated expression is not allowed in a hostname of a node",
                    at,
                ));
                Err(Reported)
            }
            TokenKind::Name(_)
            | TokenKind::Word(_)
            | TokenKind::Integer(_)
            | TokenKind::Float(_) => {
                let begin = token.span.start as usize;
                let mut end = token.span.end as usize;
                self.bump();
                loop {
                    let next = self.token();
                    let glued = !next.space_before
                        && matches!(
                            next.kind,
                            TokenKind::Punct(Punct::Dot)
                                | TokenKind::Name(_)
                                | TokenKind::Word(_)
                                | TokenKind::Integer(_)
                                | TokenKind::Float(_)
                                | TokenKind::Keyword(_)
                        );
                    if !glued {
                        break;
                    }
                    end = next.span.end as usize;
                    self.bump();
                }
                Ok(NodeMatch::Name(self.source[begin..end].to_string()))
            }
            _ => Err(self.syntax_error()),
        }
    }

    fn function_definition(&mut self) -> PResult<Expr> {
        let start = self.bump();
        let (name, name_span) = self.definition_name()?;
        let params = self.optional_params()?;
        let return_type = self.optional_return_type()?;
        let body = self.block()?;
        let function = FunctionDefinition {
            name,
            name_span,
            params,
            return_type,
            body,
        };
        Ok(Expr::new(
            ExprKind::Function(Box::new(function)),
            self.span_from(start),
        ))
    }

    fn type_alias(&mut self) -> PResult<Expr> {
        let start = self.bump();
        let TokenKind::TypeRef(name) = self.take().kind else {
            unreachable!("checked by the caller")
        };
        self.expect(Punct::Assign)?;
        if !matches!(self.kind(), TokenKind::TypeRef(_)) {
            return Err(self.syntax_error());
        }
        // The value is a type with its parameters, not an expression: in
        // `type A = Int - B` the alias is the left operand of `-`, as in
        // Puppet's grammar, and validation refuses it.
        let primary = self.primary()?;
        let value = self.postfix(primary)?;
        Ok(Expr::new(
            ExprKind::TypeAlias {
                name,
                value: Box::new(value),
            },
            self.span_from(start),
        ))
    }

    // ---- resources ----------------------------------------------------

    fn virtual_resource(&mut self) -> PResult<Expr> {
        let at = self.take();
        let mut form = if at.kind.is_punct(Punct::AtAt) {
            ResourceForm::Exported
        } else {
            ResourceForm::Virtual
        };
        // Puppet accepts repeated markers (`@@@file`); any `@@` exports.
        while let TokenKind::Punct(punct @ (Punct::At | Punct::AtAt)) = self.kind() {
            if *punct == Punct::AtAt {
                form = ResourceForm::Exported;
            }
            self.bump();
        }
        let token = self.token().clone();
        let type_name = match token.kind {
            TokenKind::Name(name) => Expr::new(ExprKind::Name(name), token.span),
            TokenKind::TypeRef(name) => Expr::new(ExprKind::TypeRef(name), token.span),
            TokenKind::Keyword(Keyword::Class) => {
                Expr::new(ExprKind::Name("class".to_string()), token.span)
            }
            _ => {
                let which = if form == ResourceForm::Exported {
                    "Exported (@@)"
                } else {
                    "Virtual (@)"
                };
                self.report(Diagnostic::error(
                    "NOT_VIRTUALIZEABLE",
                    format!("{which} can only be applied to a Resource Expression"),
                    at.span,
                ));
                return Err(Reported);
            }
        };
        self.bump();
        if !self.at(Punct::LBrace) {
            return Err(self.syntax_error());
        }
        if matches!(type_name.kind, ExprKind::TypeRef(_)) && self.brace_holds_operations() {
            // `@File { ... }`: defaults cannot be virtual; keep the tree and
            // let validation say so.
            let operations = self.operations_block()?;
            let span = self.span_from(at.span);
            let defaults = ExprKind::ResourceDefaults {
                type_ref: Box::new(type_name),
                operations,
            };
            self.report_not_virtualizable(span);
            return Ok(Expr::new(defaults, span));
        }
        self.resource_bodies(type_name, form, Some(at.span))
    }

    fn report_not_virtualizable(&mut self, span: Span) {
        let saved = std::mem::replace(&mut self.recovering, false);
        self.report(Diagnostic::error(
            "NOT_VIRTUALIZEABLE",
            "Resource Defaults are not virtualizable",
            span,
        ));
        self.recovering = saved;
    }

    /// `{ title: operations; title: operations }` after the type.
    fn resource_bodies(
        &mut self,
        type_name: Expr,
        form: ResourceForm,
        start: Option<Span>,
    ) -> PResult<Expr> {
        let start = start.unwrap_or(type_name.span);
        self.expect(Punct::LBrace)?;
        // Nearly every statement has one body: room for one, where a list
        // grown by pushing would hold four, in each of thousands of
        // statements of a large manifest.
        let mut bodies = Vec::with_capacity(1);
        self.with_brace(true, |p| -> PResult<()> {
            loop {
                if p.at(Punct::RBrace) && !bodies.is_empty() {
                    break;
                }
                let looks_untitled = bodies.is_empty()
                    && (p.at(Punct::RBrace)
                        || matches!(
                            (p.nth_kind(0), p.nth_kind(1)),
                            (TokenKind::Name(_) | TokenKind::Keyword(_), TokenKind::Punct(Punct::FatArrow | Punct::PlusArrow))
                        ));
                if looks_untitled {
                    let name = match &type_name.kind {
                        ExprKind::Name(n) | ExprKind::TypeRef(n) => n.to_lowercase(),
                        _ => String::new(),
                    };
                    p.recovering = false;
                    p.report(Diagnostic::error(
                        "RESOURCE_WITHOUT_TITLE",
                        format!("This expression is invalid. Did you try declaring a '{name}' resource without a title?"),
                        start,
                    ));
                    return Err(Reported);
                }
                let title = p.expression()?;
                p.expect(Punct::Colon)?;
                let operations = p.attribute_operations()?;
                let span = title.span.cover(Span { start: title.span.start, end: p.last_end() });
                bodies.push(ResourceBody { title, operations, span });
                if p.eat(Punct::Semi).is_none() {
                    break;
                }
            }
            Ok(())
        })?;
        self.expect(Punct::RBrace)?;
        let resource = Resource {
            form,
            type_name,
            bodies,
        };
        Ok(Expr::new(
            ExprKind::Resource(Box::new(resource)),
            self.span_from(start),
        ))
    }

    /// `{ operations }` for defaults and overrides.
    fn operations_block(&mut self) -> PResult<Vec<AttributeOperation>> {
        self.expect(Punct::LBrace)?;
        let operations = self.with_brace(true, |p| p.attribute_operations())?;
        self.expect(Punct::RBrace)?;
        Ok(operations)
    }

    /// `name => value, name +> value, * => hash` up to `}` or `;`.
    fn attribute_operations(&mut self) -> PResult<Vec<AttributeOperation>> {
        let mut operations = Vec::new();
        loop {
            if self.at(Punct::RBrace) || self.at(Punct::Semi) {
                return Ok(operations);
            }
            let token = self.token().clone_without_kind();
            let operation = if self.at(Punct::Star) {
                self.bump();
                self.expect(Punct::FatArrow)?;
                let value = self.expression()?;
                AttributeOperation::Splat {
                    span: self.span_from(token.span),
                    value,
                }
            } else {
                let name = match self.kind() {
                    TokenKind::Name(_) => match self.take().kind {
                        TokenKind::Name(name) => name,
                        _ => unreachable!("checked above"),
                    },
                    TokenKind::Keyword(keyword)
                        if !matches!(keyword, Keyword::True | Keyword::False) =>
                    {
                        let name = keyword.text().to_string();
                        self.bump();
                        name
                    }
                    _ => return Err(self.syntax_error()),
                };
                let append = if self.eat(Punct::PlusArrow).is_some() {
                    true
                } else {
                    self.expect(Punct::FatArrow)?;
                    false
                };
                let value = self.expression()?;
                AttributeOperation::Set {
                    name,
                    append,
                    span: self.span_from(token.span),
                    value,
                }
            };
            operations.push(operation);
            if self.eat(Punct::Comma).is_none() {
                return Ok(operations);
            }
        }
    }

    fn collector(&mut self, type_ref: Expr, exported: bool) -> PResult<Expr> {
        self.bump();
        let close = if exported {
            Punct::RRCollect
        } else {
            Punct::RCollect
        };
        let query = if self.at(close) {
            None
        } else {
            Some(Box::new(self.with_brace(true, |p| p.expression())?))
        };
        self.expect(close)?;
        let span = self.span_from(type_ref.span);
        Ok(Expr::new(
            ExprKind::Collect {
                type_ref: Box::new(type_ref),
                exported,
                query,
            },
            span,
        ))
    }

    // ---- EPP ----------------------------------------------------------

    /// `<%| params |%>` at the start of a template (only blank text before).
    fn epp_header(&mut self) -> Option<Vec<Param>> {
        let mut ahead = 0;
        if matches!(self.nth_kind(0), TokenKind::EppText(text) if text.trim().is_empty()) {
            ahead = 1;
        }
        if !self.nth_kind(ahead).is_punct(Punct::Pipe) {
            return None;
        }
        self.pos += ahead + 1;
        self.fill();
        match self.params_until(Punct::Pipe) {
            Ok(params) => Some(params),
            Err(Reported) => {
                let first = self.token().clone_without_kind();
                self.recover(End::Input, &first);
                Some(Vec::new())
            }
        }
    }
}

/// Inside `${...}` a bare name means a variable (`${x}` is `$x`), and so does
/// a name at the base of an access or method call (`${x[0]}`, `${x.upcase}`).
fn interpolation_target(expr: Expr) -> Expr {
    let Expr { kind, span } = expr;
    let kind = match kind {
        ExprKind::Name(name) => ExprKind::Variable(name),
        // A name starting with an underscore lexes as a bare word; it names
        // a variable too (`"${_var}"`), unless a hyphen makes it no name.
        ExprKind::Word(name) if !name.contains('-') => ExprKind::Variable(name),
        ExprKind::Integer(value) if value >= 0 => ExprKind::Variable(value.to_string()),
        ExprKind::Access { target, keys } => ExprKind::Access {
            target: Box::new(interpolation_target(*target)),
            keys,
        },
        ExprKind::MethodCall { receiver, call } => ExprKind::MethodCall {
            receiver: Box::new(interpolation_target(*receiver)),
            call,
        },
        other => other,
    };
    Expr { kind, span }
}

/// The text Puppet shows for a token in "Syntax error at '...'": a
/// string's value, a variable's name, otherwise the source text, shortened.
fn token_text<'s>(source: &'s str, token: &Token) -> &'s str {
    let text = source.get(token.span.range()).unwrap_or("");
    let text = match &token.kind {
        TokenKind::Str(_) => text.get(1..text.len().saturating_sub(1)).unwrap_or(text),
        TokenKind::Variable(_) => text.trim_start_matches('$'),
        _ => text,
    };
    let line = text.lines().next().unwrap_or("");
    match line.char_indices().nth(40) {
        Some((cut, _)) => &line[..cut],
        None => line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every file of the corpus, accepted ones several times over, as one
    /// manifest large enough to be lexed on a second thread (and for the
    /// parser to drop tokens behind it).
    fn large_manifest(with_errors: bool) -> String {
        let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
        let read = |folder: &str| -> Vec<String> {
            let mut paths: Vec<_> = std::fs::read_dir(data.join(folder))
                .expect("the corpus is there")
                .map(|entry| entry.expect("readable").path())
                .filter(|path| path.extension().is_some_and(|e| e == "pp"))
                .collect();
            paths.sort();
            paths
                .iter()
                .map(|path| std::fs::read_to_string(path).expect("readable"))
                .collect()
        };
        let accepted = read("ok").join("\n");
        let mut text = String::new();
        for round in 0..8 {
            text.push_str(&accepted);
            text.push('\n');
            if with_errors && round == 4 {
                text.push_str(&read("err").join("\n"));
                text.push('\n');
            }
        }
        assert!(text.len() >= LEX_ASIDE_FROM, "{} bytes", text.len());
        text
    }

    #[test]
    fn lexing_on_a_second_thread_parses_the_same() {
        for with_errors in [false, true] {
            let text = large_manifest(with_errors);
            let streamed = parse(&text);
            let sequential = parse_tokens(&text, lexer::lex(&text), false);
            assert_eq!(streamed.program, sequential.program);
            assert_eq!(
                format!("{:?}", streamed.diagnostics),
                format!("{:?}", sequential.diagnostics)
            );
            assert_eq!(
                streamed.diagnostics.iter().any(Diagnostic::is_error),
                with_errors
            );
        }
    }
}

//! Tokens produced by the lexer.
//!
//! Strings arrive already split into segments: interpolated expressions carry
//! their own token list, lexed in place, so the parser never re-reads source
//! text and every span stays an absolute offset into the file.

use marionette_diagnostics::Span;

#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub kind: TokenKind,
    pub span: Span,
    /// Whitespace or a comment stands right before this token.
    pub space_before: bool,
    /// This token is the first one on its line (only blanks precede it).
    pub line_start: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TokenKind {
    /// A lower-case name, possibly qualified: `file`, `apache::vhost`, `::top`.
    Name(String),
    /// A bare word that is not a valid name (`_x`, `foo-bar`).
    Word(String),
    /// A capitalized, possibly qualified reference: `File`, `Apache::Vhost`.
    TypeRef(String),
    /// `$x`, `$::x`, `$a::b`, `$0`; the text without the dollar.
    Variable(String),
    Integer(i64),
    Float(f64),
    /// A string without interpolation, escapes already processed.
    Str(String),
    /// A double-quoted string with interpolation.
    Interpolated(Vec<Segment>),
    /// `@(TAG:syntax/flags)` with its body. Boxed, as it is rare: every
    /// token is as large as the largest kind, and a large manifest has a
    /// hundred thousand of them.
    Heredoc(Box<Heredoc>),
    /// `/.../` with the slashes removed and `\/` kept as written.
    Regex(String),
    /// Literal text of an EPP template.
    EppText(String),
    /// `<%=` in an EPP template.
    EppRenderStart,
    /// The `%>` that closes a `<%=` tag.
    EppRenderEnd,
    Keyword(Keyword),
    Punct(Punct),
    /// A character or construct the lexer could not read; a diagnostic was
    /// reported for it.
    Error,
    Eof,
}

/// A heredoc's syntax tag and body.
#[derive(Clone, Debug, PartialEq)]
pub struct Heredoc {
    pub syntax: Option<String>,
    pub segments: Vec<Segment>,
}

/// A piece of an interpolated string or heredoc.
#[derive(Clone, Debug, PartialEq)]
pub enum Segment {
    Text(String),
    /// `$name` inside a string.
    Variable {
        name: String,
        span: Span,
    },
    /// `${ ... }`: the tokens between the braces.
    Expression {
        tokens: Vec<Token>,
        span: Span,
    },
}

macro_rules! keywords {
    ($($variant:ident => $text:literal,)*) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Keyword { $($variant,)* }

        impl Keyword {
            pub fn from_text(text: &str) -> Option<Keyword> {
                match text { $($text => Some(Keyword::$variant),)* _ => None }
            }

            pub fn text(self) -> &'static str {
                match self { $(Keyword::$variant => $text,)* }
            }
        }
    };
}

keywords! {
    And => "and",
    Attr => "attr",
    Case => "case",
    Class => "class",
    Default => "default",
    Define => "define",
    Else => "else",
    Elsif => "elsif",
    False => "false",
    Function => "function",
    If => "if",
    Import => "import",
    In => "in",
    Inherits => "inherits",
    Node => "node",
    Or => "or",
    Private => "private",
    True => "true",
    Type => "type",
    Undef => "undef",
    Unless => "unless",
}

macro_rules! puncts {
    ($($(#[$meta:meta])* $variant:ident => $text:literal,)*) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Punct { $($(#[$meta])* $variant,)* }

        impl Punct {
            pub fn text(self) -> &'static str {
                match self { $(Punct::$variant => $text,)* }
            }
        }
    };
}

puncts! {
    LBrace => "{",
    RBrace => "}",
    /// `[` directly after a value: an access.
    LBrack => "[",
    /// `[` after whitespace or at the start: always an array literal.
    ListStart => "[",
    RBrack => "]",
    /// `(` that may start an argument list.
    LParen => "(",
    /// `(` first on its line: never an argument list.
    WsLParen => "(",
    RParen => ")",
    Comma => ",",
    Semi => ";",
    Colon => ":",
    Dot => ".",
    Question => "?",
    Pipe => "|",
    FatArrow => "=>",
    PlusArrow => "+>",
    Assign => "=",
    PlusAssign => "+=",
    MinusAssign => "-=",
    EqEq => "==",
    NotEq => "!=",
    Match => "=~",
    NoMatch => "!~",
    Lt => "<",
    Gt => ">",
    Le => "<=",
    Ge => ">=",
    LShift => "<<",
    RShift => ">>",
    Plus => "+",
    Minus => "-",
    Star => "*",
    Slash => "/",
    Percent => "%",
    Not => "!",
    At => "@",
    AtAt => "@@",
    InEdge => "<-",
    OutEdge => "->",
    InEdgeSub => "<~",
    OutEdgeSub => "~>",
    LCollect => "<|",
    RCollect => "|>",
    LLCollect => "<<|",
    RRCollect => "|>>",
}

impl Token {
    /// A copy of the position fields, with an empty kind.
    pub fn clone_without_kind(&self) -> Token {
        Token {
            kind: TokenKind::Eof,
            span: self.span,
            space_before: self.space_before,
            line_start: self.line_start,
        }
    }
}

impl TokenKind {
    pub fn is_punct(&self, punct: Punct) -> bool {
        matches!(self, TokenKind::Punct(p) if *p == punct)
    }

    pub fn is_keyword(&self, keyword: Keyword) -> bool {
        matches!(self, TokenKind::Keyword(k) if *k == keyword)
    }
}

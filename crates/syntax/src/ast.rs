//! The syntax tree.
//!
//! Everything in the Puppet language is an expression, including class and
//! resource declarations, so a program is a list of [`Expr`]. Each node keeps
//! the byte span it was parsed from; line and column are computed only when a
//! diagnostic is shown.

use marionette_diagnostics::Span;

/// A parsed manifest or EPP template.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    /// For EPP: the `<%| ... |%>` parameter header, when present.
    pub epp_params: Option<Vec<Param>>,
    pub body: Vec<Expr>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

impl Expr {
    pub fn new(kind: ExprKind, span: Span) -> Expr {
        Expr { kind, span }
    }

    /// Calls `visit` on each expression directly inside this one, in
    /// source order: operands, arguments, bodies, a lambda's parameter
    /// types, defaults and body, attribute values. Analyses that care about
    /// a few kinds of node match those and leave the rest to this.
    pub fn for_each_child(&self, visit: &mut dyn FnMut(&Expr)) {
        let all = |exprs: &[Expr], visit: &mut dyn FnMut(&Expr)| {
            for child in exprs {
                visit(child);
            }
        };
        let params = |params: &[Param], visit: &mut dyn FnMut(&Expr)| {
            for param in params {
                for child in param.type_expr.iter().chain(&param.default) {
                    visit(child);
                }
            }
        };
        let operations = |operations: &[AttributeOperation], visit: &mut dyn FnMut(&Expr)| {
            for operation in operations {
                match operation {
                    AttributeOperation::Set { value, .. }
                    | AttributeOperation::Splat { value, .. } => visit(value),
                }
            }
        };
        let call = |call: &Call, visit: &mut dyn FnMut(&Expr)| {
            visit(&call.function);
            all(&call.args, visit);
            if let Some(lambda) = &call.lambda {
                params(&lambda.params, visit);
                for child in lambda.return_type.iter() {
                    visit(child);
                }
                all(&lambda.body, visit);
            }
        };
        match &self.kind {
            ExprKind::Undef
            | ExprKind::Default
            | ExprKind::Boolean(_)
            | ExprKind::Integer(_)
            | ExprKind::Float(_)
            | ExprKind::String(_)
            | ExprKind::Regex(_)
            | ExprKind::Variable(_)
            | ExprKind::Name(_)
            | ExprKind::Word(_)
            | ExprKind::TypeRef(_)
            | ExprKind::RenderString(_)
            | ExprKind::Error => {}
            ExprKind::Interpolated(parts) => {
                for part in parts {
                    if let StringPart::Expr(e) = part {
                        visit(e);
                    }
                }
            }
            ExprKind::Heredoc { text: inner, .. }
            | ExprKind::Paren(inner)
            | ExprKind::Unary { operand: inner, .. }
            | ExprKind::RenderExpr(inner) => visit(inner),
            ExprKind::Array(items) => all(items, visit),
            ExprKind::Hash(entries) | ExprKind::Selector { entries, .. } => {
                if let ExprKind::Selector { subject, .. } = &self.kind {
                    visit(subject);
                }
                for entry in entries {
                    visit(&entry.key);
                    visit(&entry.value);
                }
            }
            ExprKind::Binary { lhs, rhs, .. } | ExprKind::Relationship { lhs, rhs, .. } => {
                visit(lhs);
                visit(rhs);
            }
            ExprKind::Assign { target, value, .. } => {
                visit(target);
                visit(value);
            }
            ExprKind::Access { target, keys } => {
                visit(target);
                all(keys, visit);
            }
            ExprKind::Call(c) => call(c, visit),
            ExprKind::MethodCall { receiver, call: c } => {
                visit(receiver);
                call(c, visit);
            }
            ExprKind::If(branch) | ExprKind::Unless(branch) => {
                visit(&branch.condition);
                all(&branch.then_body, visit);
                branch.else_body.iter().for_each(|body| all(body, visit));
            }
            ExprKind::Case { subject, options } => {
                visit(subject);
                for option in options {
                    all(&option.values, visit);
                    all(&option.body, visit);
                }
            }
            ExprKind::Resource(resource) => {
                visit(&resource.type_name);
                for body in &resource.bodies {
                    visit(&body.title);
                    operations(&body.operations, visit);
                }
            }
            ExprKind::ResourceDefaults {
                type_ref: target,
                operations: ops,
            }
            | ExprKind::ResourceOverride {
                target,
                operations: ops,
            } => {
                visit(target);
                operations(ops, visit);
            }
            ExprKind::Collect {
                type_ref, query, ..
            } => {
                visit(type_ref);
                for child in query.iter() {
                    visit(child);
                }
            }
            ExprKind::Class(definition) | ExprKind::Define(definition) => {
                params(&definition.params, visit);
                all(&definition.body, visit);
            }
            ExprKind::Node(node) => all(&node.body, visit),
            ExprKind::Function(function) => {
                params(&function.params, visit);
                for child in function.return_type.iter() {
                    visit(child);
                }
                all(&function.body, visit);
            }
            ExprKind::TypeAlias { value, .. } => visit(value),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Undef,
    Default,
    Boolean(bool),
    Integer(i64),
    Float(f64),
    /// A string without interpolation (single-quoted, or double-quoted
    /// without `$`).
    String(String),
    /// A double-quoted string with interpolation.
    Interpolated(Vec<StringPart>),
    /// `@(TAG:syntax)`: the body is a `String` or `Interpolated` expression.
    Heredoc {
        syntax: Option<String>,
        text: Box<Expr>,
    },
    Regex(String),
    Variable(String),
    /// A lower-case bare name: a function name, resource type, or bare word.
    Name(String),
    /// A bare word that is not a valid name (`_x`, `foo-bar`): a string.
    Word(String),
    /// A capitalized reference: `File`, `Integer`, `Apache::Vhost`.
    TypeRef(String),
    Array(Vec<Expr>),
    Hash(Vec<HashEntry>),
    Paren(Box<Expr>),
    Unary {
        op: UnaryOp,
        operand: Box<Expr>,
    },
    Binary {
        op: BinaryOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    Assign {
        op: AssignOp,
        target: Box<Expr>,
        value: Box<Expr>,
    },
    Relationship {
        op: RelationshipOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `target[keys]`.
    Access {
        target: Box<Expr>,
        keys: Vec<Expr>,
    },
    /// `name(args) |lambda|`, or a statement call such as `include a, b`.
    Call(Box<Call>),
    /// `receiver.name(args) |lambda|`.
    MethodCall {
        receiver: Box<Expr>,
        call: Box<Call>,
    },
    If(Box<If>),
    Unless(Box<If>),
    Case {
        subject: Box<Expr>,
        options: Vec<CaseOption>,
    },
    Selector {
        subject: Box<Expr>,
        entries: Vec<HashEntry>,
    },
    Resource(Box<Resource>),
    /// `File { mode => '0644' }`.
    ResourceDefaults {
        type_ref: Box<Expr>,
        operations: Vec<AttributeOperation>,
    },
    /// `File['x'] { mode => '0600' }` or a collector with a block.
    ResourceOverride {
        target: Box<Expr>,
        operations: Vec<AttributeOperation>,
    },
    /// `File <| query |>` or `File <<| query |>>`.
    Collect {
        type_ref: Box<Expr>,
        exported: bool,
        query: Option<Box<Expr>>,
    },
    Class(Box<Definition>),
    Define(Box<Definition>),
    Node(Box<Node>),
    Function(Box<FunctionDefinition>),
    /// `type Name = TypeExpression`.
    TypeAlias {
        name: String,
        value: Box<Expr>,
    },
    /// Literal text of an EPP template.
    RenderString(String),
    /// `<%= expression %>` in an EPP template.
    RenderExpr(Box<Expr>),
    /// Something that failed to parse; a diagnostic was reported for it.
    Error,
}

#[derive(Clone, Debug, PartialEq)]
pub enum StringPart {
    Text(String),
    Expr(Expr),
}

#[derive(Clone, Debug, PartialEq)]
pub struct HashEntry {
    pub key: Expr,
    pub value: Expr,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Not,
    Negate,
    Splat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    Or,
    And,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    NotEq,
    LShift,
    RShift,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Match,
    NoMatch,
    In,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssignOp {
    Assign,
    /// `+=`: parsed so that validation can say it is no longer supported.
    Append,
    /// `-=`: likewise.
    Delete,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RelationshipOp {
    /// `->`
    Before,
    /// `~>`
    Notify,
    /// `<-`
    Require,
    /// `<~`
    Subscribe,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Call {
    /// The function: a `Name` (or a `TypeRef` for `Integer('1')`).
    pub function: Expr,
    pub args: Vec<Expr>,
    pub lambda: Option<Lambda>,
    /// Written with parentheses (`f(x)`) rather than as a statement (`f x`).
    pub parenthesized: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Lambda {
    pub params: Vec<Param>,
    pub return_type: Option<Expr>,
    pub body: Vec<Expr>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: String,
    pub type_expr: Option<Expr>,
    pub default: Option<Expr>,
    pub captures_rest: bool,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct If {
    pub condition: Expr,
    pub then_body: Vec<Expr>,
    /// `else` body, or a single nested `If` for `elsif`.
    pub else_body: Option<Vec<Expr>>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CaseOption {
    pub values: Vec<Expr>,
    pub body: Vec<Expr>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResourceForm {
    Regular,
    /// `@type { ... }`
    Virtual,
    /// `@@type { ... }`
    Exported,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Resource {
    pub form: ResourceForm,
    /// The type: a `Name` (`file`, `class`) or a `TypeRef`.
    pub type_name: Expr,
    pub bodies: Vec<ResourceBody>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ResourceBody {
    pub title: Expr,
    pub operations: Vec<AttributeOperation>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum AttributeOperation {
    /// `name => value` or `name +> value`.
    Set {
        name: String,
        append: bool,
        value: Expr,
        span: Span,
    },
    /// `* => hash`.
    Splat { value: Expr, span: Span },
}

impl AttributeOperation {
    pub fn span(&self) -> Span {
        match self {
            AttributeOperation::Set { span, .. } | AttributeOperation::Splat { span, .. } => *span,
        }
    }
}

/// A class or defined type.
#[derive(Clone, Debug, PartialEq)]
pub struct Definition {
    pub name: String,
    pub name_span: Span,
    pub params: Vec<Param>,
    pub parent: Option<String>,
    pub body: Vec<Expr>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub matches: Vec<NodeMatch>,
    pub parent: Option<NodeMatch>,
    pub body: Vec<Expr>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum NodeMatch {
    Name(String),
    Regex(String),
    Default,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FunctionDefinition {
    pub name: String,
    pub name_span: Span,
    pub params: Vec<Param>,
    pub return_type: Option<Expr>,
    pub body: Vec<Expr>,
}

impl BinaryOp {
    pub fn text(self) -> &'static str {
        match self {
            BinaryOp::Or => "or",
            BinaryOp::And => "and",
            BinaryOp::Lt => "<",
            BinaryOp::Gt => ">",
            BinaryOp::Le => "<=",
            BinaryOp::Ge => ">=",
            BinaryOp::Eq => "==",
            BinaryOp::NotEq => "!=",
            BinaryOp::LShift => "<<",
            BinaryOp::RShift => ">>",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Mod => "%",
            BinaryOp::Match => "=~",
            BinaryOp::NoMatch => "!~",
            BinaryOp::In => "in",
        }
    }
}

impl UnaryOp {
    pub fn text(self) -> &'static str {
        match self {
            UnaryOp::Not => "!",
            UnaryOp::Negate => "-",
            UnaryOp::Splat => "*",
        }
    }
}

impl AssignOp {
    pub fn text(self) -> &'static str {
        match self {
            AssignOp::Assign => "=",
            AssignOp::Append => "+=",
            AssignOp::Delete => "-=",
        }
    }
}

impl RelationshipOp {
    pub fn text(self) -> &'static str {
        match self {
            RelationshipOp::Before => "->",
            RelationshipOp::Notify => "~>",
            RelationshipOp::Require => "<-",
            RelationshipOp::Subscribe => "<~",
        }
    }
}

impl ExprKind {
    /// The name Puppet uses for this kind of expression in messages such as
    /// "This Variable has no effect".
    pub fn puppet_label(&self) -> &'static str {
        match self {
            ExprKind::Undef => "Literal Undef",
            ExprKind::Default => "Literal Default",
            ExprKind::Boolean(_) => "Literal Boolean",
            ExprKind::Integer(_) => "Literal Integer",
            ExprKind::Float(_) => "Literal Float",
            ExprKind::String(_) | ExprKind::Heredoc { .. } => "String",
            ExprKind::Interpolated(_) => "String Expression",
            ExprKind::Regex(_) => "Regular Expression",
            ExprKind::Variable(_) => "Variable",
            ExprKind::Name(_) | ExprKind::Word(_) => "Name",
            ExprKind::TypeRef(_) => "Type-Name",
            ExprKind::Array(_) => "Array Expression",
            ExprKind::Hash(_) => "Hash Expression",
            ExprKind::Paren(_) => "Parenthesized Expression",
            ExprKind::Unary {
                op: UnaryOp::Not, ..
            } => "Not Expression",
            ExprKind::Unary {
                op: UnaryOp::Negate,
                ..
            } => "Negate Expression",
            ExprKind::Unary {
                op: UnaryOp::Splat, ..
            } => "Unfold Expression",
            ExprKind::Binary { op, .. } => match op {
                BinaryOp::Or => "'or' Expression",
                BinaryOp::And => "'and' Expression",
                BinaryOp::Lt
                | BinaryOp::Gt
                | BinaryOp::Le
                | BinaryOp::Ge
                | BinaryOp::Eq
                | BinaryOp::NotEq => "Comparison Expression",
                BinaryOp::Match | BinaryOp::NoMatch => "Match Expression",
                BinaryOp::In => "'in' Expression",
                _ => "Arithmetic Expression",
            },
            ExprKind::Assign { .. } => "Assignment",
            ExprKind::Relationship { .. } => "Relationship Expression",
            ExprKind::Access { .. } => "Access Expression",
            ExprKind::Call(_) => "Function Call",
            ExprKind::MethodCall { .. } => "Method call",
            ExprKind::If(_) => "'if' statement",
            ExprKind::Unless(_) => "'unless' Statement",
            ExprKind::Case { .. } => "'case' statement",
            ExprKind::Selector { .. } => "Selector Expression",
            ExprKind::Resource(_) => "Resource Statement",
            ExprKind::ResourceDefaults { .. } => "Resource Defaults Expression",
            ExprKind::ResourceOverride { .. } => "Resource Override",
            ExprKind::Collect {
                exported: false, ..
            } => "Virtual Query",
            ExprKind::Collect { exported: true, .. } => "Exported Query",
            ExprKind::Class(_) => "Host Class Definition",
            ExprKind::Define(_) => "'define' expression",
            ExprKind::Node(_) => "Node Definition",
            ExprKind::Function(_) => "Function Definition",
            ExprKind::TypeAlias { .. } => "Type Alias",
            ExprKind::RenderString(_) => "Render String",
            ExprKind::RenderExpr(_) => "Render Expression",
            ExprKind::Error => "Expression",
        }
    }
}

//! Property tests: no input makes the front end panic, and printing a tree
//! then parsing the text gives the same tree back.

use marionette_diagnostics::Span;
use marionette_syntax::ast::*;
use marionette_syntax::dump::{DumpOptions, dump};
use marionette_syntax::{SourceKind, check, parse, printer};
use proptest::prelude::*;

const STRUCTURE: DumpOptions = DumpOptions {
    spans: false,
    parens: false,
};

/// Fragments of Puppet source, glued at random: far likelier than random
/// characters to reach deep into the grammar.
const FRAGMENTS: &[&str] = &[
    "$x",
    "$::y",
    "$a::b",
    "$0",
    "foo",
    "::bar",
    "File",
    "Foo::Bar",
    "1",
    "0x1F",
    "017",
    "1.5e3",
    "'s'",
    "'\\''",
    "\"d\"",
    "\"${x}\"",
    "\"${$x + 1}\"",
    "\"${h['k'][0]}\"",
    "\"$y\"",
    "\"\\u{1F600}\"",
    "@(E)\nt\nE\n",
    "@(\"E\"/tn)\n  a\\t${x}\n  |-E\n",
    "/re/",
    "=",
    "+=",
    "==",
    "!=",
    "=~",
    "!~",
    "<",
    ">",
    "<=",
    ">=",
    "<<",
    ">>",
    "+",
    "-",
    "*",
    "/",
    "%",
    "!",
    "->",
    "~>",
    "<-",
    "<~",
    "<|",
    "|>",
    "<<|",
    "|>>",
    "=>",
    "+>",
    "?",
    ":",
    ",",
    ";",
    ".",
    "|",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "@",
    "@@",
    "if",
    "elsif",
    "else",
    "unless",
    "case",
    "default",
    "class",
    "define",
    "node",
    "function",
    "type",
    "inherits",
    "and",
    "or",
    "in",
    "undef",
    "true",
    "false",
    "include",
    "notice",
    "each",
    "map",
    "\n",
    " ",
    "# c\n",
    "/* c */",
    "<%",
    "%>",
    "<%=",
    "-%>",
];

fn fragment_soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(FRAGMENTS), 0..40).prop_map(|parts| parts.join(" "))
}

fn structure(program: &Program) -> String {
    dump(program, STRUCTURE)
}

fn expr(kind: ExprKind) -> Expr {
    Expr::new(kind, Span::default())
}

const NAMES: &[&str] = &["foo", "bar", "baz::qux", "upcase", "size"];
const TYPES: &[&str] = &["File", "Integer", "Foo::Bar"];
const BINARY_OPS: &[BinaryOp] = &[
    BinaryOp::Or,
    BinaryOp::And,
    BinaryOp::Lt,
    BinaryOp::Gt,
    BinaryOp::Le,
    BinaryOp::Ge,
    BinaryOp::Eq,
    BinaryOp::NotEq,
    BinaryOp::LShift,
    BinaryOp::RShift,
    BinaryOp::Add,
    BinaryOp::Sub,
    BinaryOp::Mul,
    BinaryOp::Div,
    BinaryOp::Mod,
    BinaryOp::Match,
    BinaryOp::NoMatch,
    BinaryOp::In,
];

fn leaf() -> impl Strategy<Value = Expr> {
    prop_oneof![
        (0i64..100_000).prop_map(|v| expr(ExprKind::Integer(v))),
        (0u32..100_000).prop_map(|v| expr(ExprKind::Float(f64::from(v) / 64.0))),
        "[ -~\n]{0,8}".prop_map(|s| expr(ExprKind::String(s))),
        "[a-z][a-z0-9_]{0,5}".prop_map(|s| expr(ExprKind::Variable(s))),
        prop::sample::select(NAMES).prop_map(|s| expr(ExprKind::Name(s.to_string()))),
        prop::sample::select(TYPES).prop_map(|s| expr(ExprKind::TypeRef(s.to_string()))),
        any::<bool>().prop_map(|b| expr(ExprKind::Boolean(b))),
        Just(expr(ExprKind::Undef)),
        // A pattern cannot start with `*`: `/*` opens a comment, in Puppet too.
        "[a-z.^$][a-z.*^$]{0,5}".prop_map(|s| expr(ExprKind::Regex(s))),
    ]
}

fn expression() -> impl Strategy<Value = Expr> {
    leaf().prop_recursive(4, 48, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(|v| expr(ExprKind::Array(v))),
            prop::collection::vec(("[a-z]{1,4}", inner.clone()), 0..3).prop_map(|entries| {
                expr(ExprKind::Hash(
                    entries
                        .into_iter()
                        .map(|(key, value)| HashEntry {
                            key: expr(ExprKind::String(key)),
                            value,
                        })
                        .collect(),
                ))
            }),
            (
                prop::sample::select(BINARY_OPS),
                inner.clone(),
                inner.clone()
            )
                .prop_map(|(op, lhs, rhs)| {
                    expr(ExprKind::Binary {
                        op,
                        lhs: Box::new(lhs),
                        rhs: Box::new(rhs),
                    })
                }),
            (
                prop::sample::select(&[UnaryOp::Not, UnaryOp::Negate][..]),
                inner.clone()
            )
                .prop_map(|(op, operand)| expr(ExprKind::Unary {
                    op,
                    operand: Box::new(operand)
                })),
            ("[a-z]{1,5}", prop::collection::vec(inner.clone(), 1..3)).prop_map(|(name, keys)| {
                expr(ExprKind::Access {
                    target: Box::new(expr(ExprKind::Variable(name))),
                    keys,
                })
            }),
            (
                prop::sample::select(NAMES),
                prop::collection::vec(inner.clone(), 0..3)
            )
                .prop_map(|(name, args)| {
                    let call = Call {
                        function: expr(ExprKind::Name(name.to_string())),
                        args,
                        lambda: None,
                        parenthesized: true,
                    };
                    expr(ExprKind::Call(Box::new(call)))
                }),
            (
                inner.clone(),
                prop::sample::select(NAMES),
                prop::collection::vec(inner.clone(), 0..2)
            )
                .prop_map(|(receiver, name, body)| {
                    let lambda = Lambda {
                        params: vec![Param {
                            name: "v".into(),
                            type_expr: None,
                            default: None,
                            captures_rest: false,
                            span: Span::default(),
                        }],
                        return_type: None,
                        body,
                        span: Span::default(),
                    };
                    let function = expr(ExprKind::Name(name.to_string()));
                    let call = Call {
                        function,
                        args: Vec::new(),
                        lambda: Some(lambda),
                        parenthesized: false,
                    };
                    expr(ExprKind::MethodCall {
                        receiver: Box::new(receiver),
                        call: Box::new(call),
                    })
                }),
            ("[a-z ]{1,4}", "[a-z]{1,4}").prop_map(|(text, variable)| {
                expr(ExprKind::Interpolated(vec![
                    StringPart::Text(text),
                    StringPart::Expr(expr(ExprKind::Variable(variable))),
                ]))
            }),
            (inner.clone(), inner.clone(), inner.clone()).prop_map(|(subject, value, fallback)| {
                expr(ExprKind::Selector {
                    subject: Box::new(subject),
                    entries: vec![
                        HashEntry {
                            key: expr(ExprKind::String("a".into())),
                            value,
                        },
                        HashEntry {
                            key: expr(ExprKind::Default),
                            value: fallback,
                        },
                    ],
                })
            }),
            (
                inner.clone(),
                prop::collection::vec(inner.clone(), 0..3),
                prop::collection::vec(inner, 0..2)
            )
                .prop_map(|(condition, then_body, else_body)| {
                    let else_body = if else_body.is_empty() {
                        None
                    } else {
                        Some(else_body)
                    };
                    expr(ExprKind::If(Box::new(If {
                        condition,
                        then_body,
                        else_body,
                    })))
                }),
        ]
    })
}

fn statement() -> impl Strategy<Value = Expr> {
    prop_oneof![
        expression(),
        ("[a-z]{1,4}", expression()).prop_map(|(name, value)| expr(ExprKind::Assign {
            op: AssignOp::Assign,
            target: Box::new(expr(ExprKind::Variable(name))),
            value: Box::new(value),
        })),
        ("[ -~]{0,10}", expression()).prop_map(|(title, value)| {
            let body = ResourceBody {
                title: expr(ExprKind::String(title)),
                operations: vec![AttributeOperation::Set {
                    name: "content".into(),
                    append: false,
                    value,
                    span: Span::default(),
                }],
                span: Span::default(),
            };
            let resource = Resource {
                form: ResourceForm::Regular,
                type_name: expr(ExprKind::Name("file".into())),
                bodies: vec![body],
            };
            expr(ExprKind::Resource(Box::new(resource)))
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
        let _ = check(&text, SourceKind::Manifest);
        let _ = check(&text, SourceKind::Epp);
    }

    #[test]
    fn fragment_soup_never_panics_and_round_trips_when_valid(text in fragment_soup()) {
        let parsed = check(&text, SourceKind::Manifest);
        let _ = check(&text, SourceKind::Epp);
        if parsed.diagnostics.iter().all(|d| !d.is_error()) {
            let printed = printer::print(&parsed.program);
            let reparsed = parse(&printed);
            prop_assert!(reparsed.diagnostics.iter().all(|d| !d.is_error()), "{printed}\n{:?}", reparsed.diagnostics);
            prop_assert_eq!(structure(&parsed.program), structure(&reparsed.program), "printed as:\n{}", printed);
        }
    }

    #[test]
    fn generated_trees_round_trip_through_the_printer(body in prop::collection::vec(statement(), 1..5)) {
        let program = Program { epp_params: None, body, span: Span::default() };
        let printed = printer::print(&program);
        let reparsed = parse(&printed);
        prop_assert!(reparsed.diagnostics.iter().all(|d| !d.is_error()), "{printed}\n{:?}", reparsed.diagnostics);
        prop_assert_eq!(structure(&program), structure(&reparsed.program), "printed as:\n{}", printed);
    }
}

#[test]
fn deep_nesting_is_reported_not_a_crash() {
    let deep = format!("$x = {}1{}", "(".repeat(5000), ")".repeat(5000));
    let parsed = parse(&deep);
    assert!(
        parsed
            .diagnostics
            .iter()
            .any(|d| d.code == "NESTING_TOO_DEEP"),
        "{:?}",
        parsed.diagnostics
    );
    let deep_strings = format!("$x = {}1{}", "\"${".repeat(3000), "}\"".repeat(3000));
    let parsed = parse(&deep_strings);
    assert!(parsed.diagnostics.iter().any(|d| d.is_error()));
}

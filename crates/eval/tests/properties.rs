//! Property test: evaluating any program built from Puppet fragments ends
//! with output or an error, never a panic.

use marionette_diagnostics::SourceFile;
use marionette_eval::{RunOptions, run_manifest};
use proptest::prelude::*;

/// Pieces of Puppet code glued at random. They reach the operators, the
/// conversions and the function library with values of every kind.
const FRAGMENTS: &[&str] = &[
    "$a",
    "$b",
    "$a = ",
    "$b = ",
    "1",
    "-7",
    "0x1F",
    "2.5",
    "'s'",
    "\"x${a}\"",
    "'2020-01-01'",
    "undef",
    "default",
    "true",
    "[1, 'a', [2]]",
    "{a => 1, 'b' => [2]}",
    "/(a)/",
    "Integer[1, 3]",
    "String",
    "Timespan(5)",
    "Timestamp('2020-01-01T00:00:00Z')",
    "SemVer('1.2.3')",
    "Binary('aGk=')",
    "Sensitive('x')",
    "+",
    "-",
    "*",
    "/",
    "%",
    "<<",
    ">>",
    "==",
    "!=",
    "<",
    ">=",
    "=~",
    "!~",
    "in",
    "and",
    "or",
    "!",
    "(",
    ")",
    "[",
    "]",
    ",",
    ".",
    "?",
    "{",
    "}",
    "=>",
    "notice(",
    "$a.map |$x| { $x }",
    ".each |$k, $v| { $v }",
    ".filter |$x| { $x }",
    "split(",
    "join(",
    "sprintf('%d %s %05.2f', ",
    "regsubst(",
    "type(",
    "String(",
    "Integer(",
    "Array(",
    "Hash(",
    "size(",
    "keys(",
    "dig(",
    "get(",
    "unique(",
    "sort(",
    "max(",
    "abs(",
    "strftime(",
    "with(1) |$z| { $z }",
    "if $a { 1 } else { 2 }",
    "case $a { 1: { 2 } default: { 3 } }",
    "$a ? { 1 => 2, default => 3 }",
    "function f($n) { if $n > 0 { f($n - 1) } else { 0 } } ",
    "f(3)",
    "class c($p = 1) { $q = $p } ",
    "include c",
    "$c::q",
    "[$a, $b] = [1, 2]",
    "\n",
];

/// Values of every kind, operators and functions, for programs that parse.
const VALUES: &[&str] = &[
    "1",
    "-7",
    "0",
    "9223372036854775807",
    "2.5",
    "0.0",
    "'s'",
    "'10'",
    "''",
    "undef",
    "default",
    "true",
    "[]",
    "[1, 'a']",
    "{}",
    "{a => 1}",
    "/(a)/",
    "Integer",
    "Integer[1, 3]",
    "String[1]",
    "Timespan(5)",
    "Timestamp('2020-01-01T00:00:00Z')",
    "SemVer('1.2.3')",
    "SemVerRange('>=1.0.0')",
    "Binary('aGk=')",
    "Sensitive('x')",
    "$a",
    "File['/x']",
];
const OPERATORS: &[&str] = &[
    "+", "-", "*", "/", "%", "<<", ">>", "==", "!=", "<", ">=", "=~", "!~", "in", "and", "or",
];
const FUNCTIONS: &[&str] = &[
    "abs",
    "ceiling",
    "round",
    "size",
    "empty",
    "keys",
    "values",
    "flatten",
    "unique",
    "sort",
    "min",
    "max",
    "type",
    "String",
    "Integer",
    "Float",
    "Boolean",
    "Array",
    "Hash",
    "Timespan",
    "SemVer",
    "split",
    "join",
    "upcase",
    "capitalize",
    "strip",
    "chomp",
    "md5",
    "sha256",
    "regsubst",
    "match",
    "sprintf",
    "shellquote",
    "dig",
    "get",
    "compare",
    "versioncmp",
    "unwrap",
    "reverse_each",
    "step",
    "slice",
    "index",
    "strftime",
    "assert_type",
    "new",
];

/// Statements that parse: calls and operators over values.
fn valid_program() -> impl Strategy<Value = String> {
    let value = prop::sample::select(VALUES);
    let statement = prop_oneof![
        (
            value.clone(),
            prop::sample::select(OPERATORS),
            value.clone()
        )
            .prop_map(|(a, op, b)| format!("notice({a} {op} {b})")),
        (
            prop::sample::select(FUNCTIONS),
            prop::collection::vec(value.clone(), 0..4)
        )
            .prop_map(|(f, args)| format!("notice({f}({}))", args.join(", "))),
        (value.clone(), prop::sample::select(FUNCTIONS))
            .prop_map(|(v, f)| format!("notice({v}.{f} |$x| {{ $x }})")),
        (value.clone(), value).prop_map(|(a, k)| format!("notice({a}[{k}])")),
    ];
    ("[ -~]{0,3}", prop::collection::vec(statement, 1..6))
        .prop_map(|(_, statements)| format!("$a = 3\n{}", statements.join("\n")))
}

fn program() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(FRAGMENTS), 0..30).prop_map(|parts| parts.join(" "))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn evaluation_never_panics(source in prop_oneof![program(), valid_program()]) {
        // Deep but legal recursion needs more stack than a test thread has
        // in a debug build; the `marionette` binary runs on the main thread.
        let outcome = std::thread::Builder::new()
            .stack_size(64 * 1024 * 1024)
            .spawn(move || {
                let file = SourceFile::new("fragments.pp", source);
                let options = RunOptions { node_name: "prop.example.com".into(), strict_variables: false, verbose: true };
                run_manifest(&file, &options).lines.len()
            })
            .expect("spawn the evaluation thread")
            .join();
        prop_assert!(outcome.is_ok(), "evaluation panicked");
    }
}

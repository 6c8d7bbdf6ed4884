//! The custom-fact API: weights, confines, structured values, dependencies
//! between facts, and cycles. Each case defines custom facts, collects on
//! the captured `vm` fixture (kernel Linux, os.family Debian, two
//! processors) and states the facts and errors that must come out.

use std::path::Path;

use marionette_facts::custom::{CustomFact, Resolution, any_of, predicate};
use marionette_facts::{FactError, Options, System, collect};
use serde_json::{Value, json};

struct Case {
    name: &'static str,
    facts: fn() -> Vec<CustomFact>,
    /// The facts expected (by dotted path), `null` for "absent".
    expected: &'static str,
    /// Fragments of the error messages expected, in order.
    errors: &'static [&'static str],
}

fn fixture() -> System {
    let directory = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/vm");
    System::fixture(directory).unwrap_or_else(|e| panic!("{e}"))
}

fn fact(name: &str, resolutions: Vec<Resolution>) -> CustomFact {
    resolutions
        .into_iter()
        .fold(CustomFact::new(name), CustomFact::resolution)
}

/// A resolution giving the value of another fact, wrapped.
fn echo(other: &'static str) -> Resolution {
    Resolution::new(move |facts| Ok(facts.value(other)?.map(|value| json!({ "from": value }))))
}

const CASES: &[Case] = &[
    Case {
        name: "the highest suitable weight wins",
        facts: || {
            vec![fact(
                "w",
                vec![
                    Resolution::value("low").weight(1),
                    Resolution::value("high").weight(50),
                    Resolution::value("unsuitable")
                        .weight(99)
                        .confine("kernel", "windows"),
                ],
            )]
        },
        expected: r#"{"w": "high"}"#,
        errors: &[],
    },
    Case {
        name: "more confines weigh more by default; ties go to the first added",
        facts: || {
            vec![
                fact(
                    "specific",
                    vec![
                        Resolution::value("none"),
                        Resolution::value("one").confine("kernel", "Linux"),
                        Resolution::value("two")
                            .confine("kernel", "Linux")
                            .confine("os.family", "Debian"),
                    ],
                ),
                fact(
                    "tie",
                    vec![Resolution::value("first"), Resolution::value("second")],
                ),
            ]
        },
        expected: r#"{"specific": "two", "tie": "first"}"#,
        errors: &[],
    },
    Case {
        name: "confines: case-insensitive values, lists, predicates, paths, legacy names",
        facts: || {
            vec![
                fact(
                    "lower",
                    vec![Resolution::value(true).confine("kernel", "linux")],
                ),
                fact(
                    "listed",
                    vec![Resolution::value(1).confine("osfamily", any_of(["RedHat", "debian"]))],
                ),
                fact(
                    "counted",
                    vec![
                        Resolution::value("two cpus")
                            .confine("processors.count", predicate(|v| v.as_u64() == Some(2))),
                    ],
                ),
                fact(
                    "absent_fact",
                    vec![Resolution::value("x").confine("no_such_fact", "anything")],
                ),
                fact(
                    "wrong",
                    vec![Resolution::value("x").confine("kernel", any_of(["Darwin", "windows"]))],
                ),
                fact(
                    "tested",
                    vec![Resolution::value("yes").confine_with(|facts| {
                        Ok(facts
                            .value("os.release.major")?
                            .is_some_and(|major| major == "12"))
                    })],
                ),
                fact(
                    "number",
                    vec![Resolution::value("n").confine("processorcount", 2)],
                ),
            ]
        },
        expected: r#"{"lower": true, "listed": 1, "counted": "two cpus", "absent_fact": null,
                      "wrong": null, "tested": "yes", "number": "n"}"#,
        errors: &[],
    },
    Case {
        name: "a resolution without a value falls through to the next",
        facts: || {
            vec![fact(
                "fallthrough",
                vec![
                    Resolution::new(|_| Ok(None)).weight(10),
                    Resolution::value("fallback"),
                ],
            )]
        },
        expected: r#"{"fallthrough": "fallback"}"#,
        errors: &[],
    },
    Case {
        name: "structured values, queried by path",
        facts: || {
            vec![fact(
                "role",
                vec![Resolution::value(
                    json!({"tier": "web", "ports": [80, 443]}),
                )],
            )]
        },
        expected: r#"{"role": {"tier": "web", "ports": [80, 443]}, "role.tier": "web", "role.ports.1": 443}"#,
        errors: &[],
    },
    Case {
        name: "facts depending on facts, in any order of definition",
        facts: || {
            vec![
                fact("top", vec![echo("middle")]),
                fact("middle", vec![echo("bottom.from")]),
                fact("bottom", vec![echo("kernel")]),
            ]
        },
        expected: r#"{"bottom": {"from": "Linux"}, "middle": {"from": "Linux"},
                      "top": {"from": {"from": "Linux"}}}"#,
        errors: &[],
    },
    Case {
        name: "a cycle is reported once; facts outside it still resolve, and facts using it see no value",
        facts: || {
            vec![
                fact("a", vec![echo("b")]),
                fact("b", vec![echo("c")]),
                fact("c", vec![echo("a")]),
                fact("self", vec![echo("self")]),
                fact("outside", vec![Resolution::value("fine")]),
                fact("user", vec![echo("a"), Resolution::value("fallback")]),
            ]
        },
        expected: r#"{"a": null, "b": null, "c": null, "self": null, "outside": "fine", "user": "fallback"}"#,
        errors: &[
            "Cycle in fact resolution: a -> b -> c -> a",
            "Cycle in fact resolution: self -> self",
        ],
    },
    Case {
        name: "a cycle through a confine",
        facts: || {
            vec![
                fact("p", vec![Resolution::value(1).confine("q", "1")]),
                fact("q", vec![Resolution::value("1").confine("p", 1)]),
            ]
        },
        expected: r#"{"p": null, "q": null}"#,
        errors: &["Cycle in fact resolution: p -> q -> p"],
    },
    Case {
        name: "a chain too long is cut, not a stack overflow",
        facts: || {
            let mut facts: Vec<CustomFact> = (0..1000)
                .map(|index| {
                    let next: &'static str =
                        Box::leak(format!("link{}", index + 1).into_boxed_str());
                    fact(&format!("link{index}"), vec![echo(next)])
                })
                .collect();
            facts.push(fact("link1000", vec![Resolution::value("end")]));
            facts
        },
        expected: r#"{"link0": null, "link1000": "end"}"#,
        errors: &["depends on a chain of more than 128 custom facts"],
    },
    Case {
        name: "an error in one resolution is reported and the next is tried",
        facts: || {
            vec![fact(
                "flaky",
                vec![
                    Resolution::new(|_| {
                        Err(FactError::Custom {
                            fact: String::new(),
                            message: "the service did not answer".into(),
                        })
                    })
                    .weight(5),
                    Resolution::value("from the fallback"),
                ],
            )]
        },
        expected: r#"{"flaky": "from the fallback"}"#,
        errors: &["Custom fact 'flaky' could not be resolved: the service did not answer"],
    },
    Case {
        name: "custom facts replace built-in ones, unless they have no value",
        facts: || {
            vec![
                fact("kernel", vec![Resolution::value("Custom")]),
                fact("timezone", vec![Resolution::new(|_| Ok(None))]),
                fact("osfamily", vec![Resolution::value("Legacyish")]),
                fact("MixedCase", vec![Resolution::value("lower")]),
            ]
        },
        expected: r#"{"kernel": "Custom", "timezone": "UTC", "osfamily": "Legacyish", "mixedcase": "lower"}"#,
        errors: &[],
    },
];

#[test]
fn custom_facts_resolve_as_facter_resolves_them() {
    let mut failures = Vec::new();
    for case in CASES {
        let options = Options {
            system: fixture(),
            external: false,
            environment_facts: false,
            custom: (case.facts)(),
            ..Options::default()
        };
        let collection = collect(&options);
        let expected: Value =
            serde_json::from_str(case.expected).unwrap_or_else(|e| panic!("{}: {e}", case.name));
        for (path, expected) in expected.as_object().into_iter().flatten() {
            let found = collection.value(path).cloned().unwrap_or(Value::Null);
            if &found != expected {
                failures.push(format!(
                    "{}: {path} is {found}, expected {expected}",
                    case.name
                ));
            }
        }
        let messages: Vec<String> = collection.errors.iter().map(ToString::to_string).collect();
        let matches = messages.len() == case.errors.len()
            && case
                .errors
                .iter()
                .zip(&messages)
                .all(|(fragment, message)| message.contains(fragment));
        if !matches {
            failures.push(format!(
                "{}: errors {messages:?}, expected {:?}",
                case.name, case.errors
            ));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn external_facts_win_over_custom_ones() {
    let directory = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(directory.path().join("role.txt"), "role=external\n")
        .unwrap_or_else(|e| panic!("{e}"));
    let options = Options {
        system: fixture(),
        external_dirs: vec![directory.path().to_path_buf()],
        environment_facts: false,
        custom: vec![
            fact("role", vec![Resolution::value("custom")]),
            fact("sees", vec![echo("role")]),
        ],
        ..Options::default()
    };
    let collection = collect(&options);
    assert_eq!(collection.value("role"), Some(&json!("external")));
    assert_eq!(collection.value("sees"), Some(&json!({"from": "external"})));
    assert!(collection.errors.is_empty(), "{:?}", collection.errors);
}

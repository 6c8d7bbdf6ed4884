//! Facts files saved from other nodes, in each form they come in.

use marionette_facts::{FactError, load_facts_file};
use serde_json::json;

/// (file name, contents, the `os.family` expected or the error kind).
const CASES: &[(&str, &str, Result<&str, &str>)] = &[
    (
        "plain.json",
        "{\"os\": {\"family\": \"Debian\"}, \"kernel\": \"Linux\"}",
        Ok("Debian"),
    ),
    (
        "wrapped.json",
        "{\"name\": \"web01\", \"values\": {\"os\": {\"family\": \"RedHat\"}}, \"timestamp\": \"2024-01-01\"}",
        Ok("RedHat"),
    ),
    (
        "plain.yaml",
        "os:\n  family: Suse\nkernel: Linux\n",
        Ok("Suse"),
    ),
    (
        "cache.yaml",
        "--- !ruby/object:Puppet::Node::Facts\nname: web01\nvalues:\n  os:\n    family: Gentoo\n  uptime_seconds: 12\nexpiration: 2024-01-01 00:00:00 +00:00\n",
        Ok("Gentoo"),
    ),
    (
        "no-extension",
        "{\"os\": {\"family\": \"Archlinux\"}}",
        Ok("Archlinux"),
    ),
    ("broken.json", "{\"os\": ", Err("parse")),
    ("broken.yaml", "os: [\n", Err("parse")),
    ("list.yaml", "- a\n- b\n", Err("parse")),
];

#[test]
fn facts_files_load_in_every_form() {
    let directory = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let mut failures = Vec::new();
    for (name, contents, expected) in CASES {
        let path = directory.path().join(name);
        std::fs::write(&path, contents).unwrap_or_else(|e| panic!("{e}"));
        let outcome = load_facts_file(&path);
        let found = match &outcome {
            Ok(facts) => Ok(facts
                .get("os")
                .and_then(|os| os.get("family"))
                .and_then(|f| f.as_str())
                .unwrap_or("")),
            Err(FactError::FactsFileParse { .. }) => Err("parse"),
            Err(FactError::FactsFileRead { .. }) => Err("read"),
            Err(_) => Err("other"),
        };
        if &found != expected {
            failures.push(format!("{name}: {outcome:?}"));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn a_missing_file_names_itself() {
    let error = load_facts_file("/nonexistent/facts.json").err();
    let message = error.map(|e| e.to_string()).unwrap_or_default();
    assert!(message.contains("/nonexistent/facts.json"), "{message}");
}

#[test]
fn the_wrapper_keeps_only_the_values() {
    let directory = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let path = directory.path().join("node.json");
    std::fs::write(&path, "{\"name\": \"n\", \"values\": {\"a\": 1}}")
        .unwrap_or_else(|e| panic!("{e}"));
    let facts = load_facts_file(&path).unwrap_or_default();
    assert_eq!(serde_json::Value::Object(facts), json!({"a": 1}));
}

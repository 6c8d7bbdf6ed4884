//! The differential test: our facts against `facter --json --show-legacy`
//! on this machine. Every fact both have must be equal, except the paths in
//! `facter-allowlist.txt` (values that change from one moment to the next);
//! facts only Facter has must be listed there too, so that a fact we lose
//! does not go unnoticed.
//!
//! Facter must be installed (`apt-get install -y facter`): this test fails
//! without it rather than pass without comparing anything.

use std::path::Path;
use std::process::Command;

use marionette_facts::{Options, collect};
use serde_json::{Map, Value};

struct Allowed {
    /// Paths whose values may differ (`*` matches any key).
    differ: Vec<Vec<String>>,
    /// Top-level facts only Facter has.
    only_facter: Vec<String>,
}

fn allowed() -> Allowed {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/facter-allowlist.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut allowed = Allowed {
        differ: Vec::new(),
        only_facter: Vec::new(),
    };
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match line.strip_prefix("only-facter ") {
            Some(name) => allowed.only_facter.push(name.trim().to_string()),
            None => allowed
                .differ
                .push(line.split('.').map(str::to_string).collect()),
        }
    }
    allowed
}

fn is_allowed(allowed: &Allowed, path: &[String]) -> bool {
    allowed.differ.iter().any(|pattern| {
        pattern.len() <= path.len()
            && pattern
                .iter()
                .zip(path)
                .all(|(expected, actual)| expected == "*" || expected == actual)
    })
}

fn compare(
    ours: &Value,
    theirs: &Value,
    path: &mut Vec<String>,
    allowed: &Allowed,
    differences: &mut Vec<String>,
) {
    if is_allowed(allowed, path) {
        return;
    }
    match (ours, theirs) {
        (Value::Object(ours), Value::Object(theirs)) => {
            let mut keys: Vec<&String> = ours.keys().chain(theirs.keys()).collect();
            keys.sort();
            keys.dedup();
            for key in keys {
                path.push(key.clone());
                match (ours.get(key), theirs.get(key)) {
                    (Some(ours), Some(theirs)) => compare(ours, theirs, path, allowed, differences),
                    (Some(ours), None) if !is_allowed(allowed, path) => {
                        differences.push(format!("{}: only ours has it ({ours})", path.join(".")))
                    }
                    (None, Some(theirs)) if !is_allowed(allowed, path) => differences
                        .push(format!("{}: only facter has it ({theirs})", path.join("."))),
                    _ => {}
                }
                path.pop();
            }
        }
        _ if ours == theirs => {}
        _ => differences.push(format!("{}: ours {ours}, facter {theirs}", path.join("."))),
    }
}

fn facter_facts() -> Map<String, Value> {
    let output = match Command::new("facter")
        .args(["--json", "--show-legacy", "--no-external-facts"])
        .output()
    {
        Ok(output) => output,
        Err(error) => panic!(
            "\n\nfacter could not be run ({error}).\nThe differential test needs Facter 4: apt-get install -y facter\n\n"
        ),
    };
    let text = String::from_utf8_lossy(&output.stdout);
    match serde_json::from_str(&text) {
        Ok(Value::Object(facts)) => facts,
        _ => panic!(
            "facter printed no JSON facts (status {}):\n{text}\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ),
    }
}

#[test]
fn our_facts_equal_facters() {
    let allowed = allowed();
    let theirs = facter_facts();
    let options = Options {
        external: false,
        ..Options::default()
    };
    let collection = collect(&options);
    let ours = collection.with_legacy();

    let mut differences = Vec::new();
    let mut compared = 0;
    for (name, their_value) in &theirs {
        match ours.get(name) {
            Some(our_value) => {
                compared += 1;
                compare(our_value, their_value, &mut vec![name.clone()], &allowed, &mut differences);
            }
            None if allowed.only_facter.contains(name) => {}
            None => differences.push(format!(
                "{name}: only facter has it ({their_value}); add it, or list it as only-facter in facter-allowlist.txt and DIFFERENCES.md"
            )),
        }
    }
    assert!(compared >= 20, "only {compared} facts compared: {theirs:?}");
    assert!(
        differences.is_empty(),
        "our facts differ from facter's on {} points:\n{}",
        differences.len(),
        differences.join("\n")
    );
}

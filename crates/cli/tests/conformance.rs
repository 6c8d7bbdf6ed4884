//! The catalog conformance corpus: every case in `tests/conformance/` is
//! compiled with `marionette catalog compile` and compared with what the
//! real Puppet 7 compiled for it (`expected.json`) or the error it gave
//! (`expected.err`).
//!
//! Catalogs are compared by meaning, as `catalog-diff` does: resources by
//! `Type[title]` with their parameters, exported flag and tags (as sets),
//! containment edges as a set, and the classes as a set; file, line,
//! version and the `Settings` class are ignored. Errors must match
//! Puppet's first error line exactly.
//!
//! Cases we do not match yet are listed, with a reason, in
//! `tests/conformance/known-differences.txt`; the test fails on any other
//! difference and when a listed case starts to match.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::meaning::{differences, meaning};
use serde_json::Value;

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance")
}

/// Compiles one case as the recording script ran Puppet on it.
fn run_case(dir: &Path) -> Result<(), String> {
    let args = std::fs::read_to_string(dir.join("args")).unwrap_or_default();
    let args: Vec<&str> = args.split_whitespace().collect();
    let mut command = Command::new(env!("CARGO_BIN_EXE_marionette"));
    command.current_dir(dir).args(["catalog", "compile"]);
    if !args.contains(&"--environment") {
        command.args(["--manifest", "site.pp"]);
    }
    if !args.contains(&"--certname") {
        command.args(["--certname", "mrtest.example.com"]);
    }
    let facts = if dir.join("facts.json").exists() {
        "facts.json"
    } else {
        "../default-facts.json"
    };
    command
        .args([
            "--modulepath",
            "modules",
            "--environmentpath",
            "environments",
        ])
        .args(["--facts", facts])
        .args(&args);
    let output = command
        .output()
        .map_err(|e| format!("could not run: {e}"))?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    let first_error = stderr.lines().find(|l| l.starts_with("Error: "));
    if let Ok(expected) = std::fs::read_to_string(dir.join("expected.err")) {
        let wanted = expected.lines().next().unwrap_or_default();
        return match first_error {
            _ if output.status.success() => Err(format!("compiled, but Puppet failed: {wanted}")),
            Some(line) if line == wanted => Ok(()),
            Some(line) => Err(format!(
                "error differs:\n  expected: {wanted}\n  actual:   {line}"
            )),
            None => Err("failed without an error line".into()),
        };
    }
    if !output.status.success() {
        return Err(format!("failed: {}", first_error.unwrap_or_default()));
    }
    let expected: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("expected.json")).map_err(|e| e.to_string())?,
    )
    .map_err(|e| format!("expected.json: {e}"))?;
    let actual: Value = serde_json::from_slice(&output.stdout)
        .map_err(|e| format!("our output is not JSON: {e}"))?;
    let problems = differences(&meaning(&expected), &meaning(&actual));
    common::outcome(problems)
}

#[test]
fn catalogs_match_puppet() {
    let root = corpus();
    let cases = common::case_dirs(&root, &["expected.json", "expected.err"]);
    assert!(cases.len() >= 150, "only {} cases", cases.len());
    let known_text =
        std::fs::read_to_string(root.join("known-differences.txt")).unwrap_or_default();
    let known: BTreeSet<&str> = known_text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let mut unexpected = Vec::new();
    let mut fixed = Vec::new();
    let mut passed = 0;
    for case in &cases {
        let name = case
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        match run_case(case) {
            Ok(()) if known.contains(name.as_str()) => fixed.push(name),
            Ok(()) => passed += 1,
            Err(_) if known.contains(name.as_str()) => {}
            Err(problem) => unexpected.push(format!("{name}:\n  {problem}")),
        }
    }
    eprintln!(
        "{passed} of {} cases match Puppet; {} known differences",
        cases.len(),
        known.len()
    );
    assert!(
        unexpected.is_empty() && fixed.is_empty(),
        "cases that differ from Puppet:\n{}\n\ncases listed in known-differences.txt that now match:\n{}",
        unexpected.join("\n"),
        fixed.join("\n")
    );
}

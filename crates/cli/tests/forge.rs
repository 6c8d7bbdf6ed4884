//! The Forge corpus: every case in `tests/forge/` declares classes and
//! defined types of real Forge modules, as their READMEs show them, with
//! the modules Debian packages install in /usr/share/puppet/modules on the
//! module path. Each is compiled with `marionette catalog compile` and
//! compared with what the real Puppet 7 compiled for it (`expected.json`,
//! by meaning, as the conformance corpus compares) or the error it gave
//! (`expected.err`), with the corpus's fixed facts (`tests/forge/facts.json`).
//!
//! Cases we do not match yet are listed in
//! `tests/forge/known-differences.txt`, grouped under a heading saying
//! why; the test fails on any other difference and when a listed case
//! starts to match. `UPDATE_KNOWN_DIFFERENCES=1` rewrites the list.

mod common;

use std::path::{Path, PathBuf};

use common::known::{KnownDifferences, Verdict};

/// Where Debian's puppet-module-* packages install their modules.
const MODULES: &str = "/usr/share/puppet/modules";

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/forge")
        .canonicalize()
        .expect("tests/forge exists")
}

/// The packages of `packages.txt` whose module is not installed.
fn missing_packages(root: &Path) -> Vec<String> {
    let list = std::fs::read_to_string(root.join("packages.txt")).expect("packages.txt");
    list.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let mut words = l.split_whitespace();
            let package = words.next()?;
            let module = words
                .next()
                .unwrap_or_else(|| panic!("packages.txt: {package} names no module"));
            (!Path::new(MODULES).join(module).join("manifests").is_dir()
                && !Path::new(MODULES).join(module).join("lib").is_dir())
            .then(|| package.to_string())
        })
        .collect()
}

/// The gist of a difference, for a new line of the list: the innermost
/// message of an error (without Puppet's "Evaluation Error:" wrappers and
/// the location), or the first difference between catalogs.
fn gist(problem: &str) -> String {
    let mut text = common::first_line(problem);
    if let Some(rest) = text.strip_prefix("failed: ") {
        text = rest;
    } else if text == "error differs:" {
        let actual = problem
            .lines()
            .find_map(|l| l.trim().strip_prefix("actual:"));
        return format!("error differs: {}", gist(actual.unwrap_or_default().trim()));
    }
    let mut text = text.strip_prefix("Error: ").unwrap_or(text);
    loop {
        if let Some(rest) = text.strip_prefix("Evaluation Error: ") {
            text = rest;
        } else if let Some(rest) = text
            .strip_prefix("Error while evaluating a ")
            .and_then(|rest| rest.split_once(", ").map(|(_, rest)| rest))
        {
            text = rest;
        } else {
            break;
        }
    }
    for end in [" (file: ", " on node ", "; "] {
        if let Some(at) = text.find(end) {
            text = &text[..at];
        }
    }
    // A resource whose parameters differ: its name says enough.
    if let Some((key, _)) = text.split_once(": expected (") {
        return format!("{key} differs");
    }
    text.to_string()
}

#[test]
fn forge_modules_compile_as_with_puppet() {
    let root = corpus();
    let missing = missing_packages(&root);
    assert!(
        missing.is_empty(),
        "the Forge corpus needs modules missing from {MODULES}; install them with\n  apt-get install -y {}",
        missing.join(" ")
    );
    let cases = common::case_dirs(&root, &["expected.json", "expected.err"]);
    assert!(cases.len() >= 50, "only {} cases", cases.len());
    let known = KnownDifferences::load(&root.join("known-differences.txt"), 1);
    let mut verdict = Verdict::new(&known);
    for case in &cases {
        let name = case
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        let outcome = common::compile_case(case, MODULES, "../facts.json");
        let why = outcome.as_ref().err().map(|p| gist(p)).unwrap_or_default();
        verdict.record(&name, &why, outcome);
    }
    verdict.finish("cases");
}

#[test]
fn gist_is_the_innermost_message() {
    assert_eq!(
        gist(
            "failed: Error: Evaluation Error: Error while evaluating a Resource Statement, \
             Unknown function: 'create_resources'. (file: /m/init.pp, line: 1) on node n"
        ),
        "Unknown function: 'create_resources'."
    );
    assert_eq!(
        gist("File[/etc/motd]: expected (false, \"{}\", {}), got (true, \"{}\", {})\n  more"),
        "File[/etc/motd] differs"
    );
    assert_eq!(
        gist("error differs:\n  expected: Error: a\n  actual:   Error: b (file: x)"),
        "error differs: b"
    );
    assert_eq!(
        gist("missing resource Class[Apt]"),
        "missing resource Class[Apt]"
    );
}

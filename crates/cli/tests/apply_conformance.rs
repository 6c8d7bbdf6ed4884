//! `marionette apply` against the real `puppet apply`: for every
//! conformance case with an `apply.out` (recorded by
//! `scripts/puppet-record-applies`: notify-only manifests, safe to run
//! anywhere), compile and apply the case's site.pp and compare the output
//! line by line, with the run times replaced by `N` on both sides. The
//! cases listed in `tests/conformance/apply-known-differences.txt` are
//! expected to differ, each for the reason given there.

mod common;
use common::timeless;

use std::path::{Path, PathBuf};
use std::process::Command;

#[test]
fn apply_prints_what_puppet_apply_prints() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&corpus)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("apply.out").exists())
        .collect();
    cases.sort();
    assert!(
        cases.len() >= 50,
        "expected the recorded apply cases, found {}",
        cases.len()
    );
    let known: Vec<String> = std::fs::read_to_string(corpus.join("apply-known-differences.txt"))
        .unwrap()
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| line.split('\t').next().unwrap_or("").to_string())
        .collect();
    let vardir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    let mut stale = Vec::new();
    for case in &cases {
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        let listed = known.contains(&name);
        let output = Command::new(env!("CARGO_BIN_EXE_marionette"))
            .args(["apply", "--certname", "mrtest.example.com", "--vardir"])
            .arg(vardir.path())
            .arg("site.pp")
            .current_dir(case)
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        let ours = timeless(&format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ));
        let theirs = timeless(&std::fs::read_to_string(case.join("apply.out")).unwrap());
        match (ours == theirs, listed) {
            (false, false) => failures.push(format!(
                "== {name}\n-- puppet\n{theirs}-- marionette\n{ours}"
            )),
            (true, true) => stale.push(name),
            _ => {}
        }
    }
    assert!(
        stale.is_empty(),
        "these cases now match; remove them from tests/conformance/apply-known-differences.txt: {stale:?}"
    );
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

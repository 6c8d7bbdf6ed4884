//! Golden tests: each `tests/data/NNNN_name.pp` is run as `marionette apply`
//! runs it, and its output must equal `NNNN_name.out`, which was recorded
//! from the real `puppet apply` (see scripts/puppet-record-eval).
//!
//! Cases the evaluator does not match yet are listed, one name a line with
//! the reason, in `tests/known-differences.txt`. The test fails when a case
//! outside that list differs, and also when a listed case starts to match,
//! so the list only ever shrinks.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use marionette_diagnostics::SourceFile;
use marionette_eval::{RunOptions, run_manifest};

const NODE: &str = "golden.example.com";

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

struct Expected {
    success: bool,
    lines: Vec<String>,
}

fn expected(path: &Path) -> Option<Expected> {
    let text = std::fs::read_to_string(path).ok()?;
    let mut lines = text.lines();
    let exit = lines.next()?.strip_prefix("# exit: ")?.trim().parse::<i32>().ok()?;
    Some(Expected { success: exit == 0, lines: lines.map(str::to_string).collect() })
}

/// Runs a case and returns its output lines as the recording filter keeps
/// them.
fn actual(path: &Path) -> (bool, Vec<String>) {
    let text = std::fs::read_to_string(path).expect("readable case");
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    let file = SourceFile::new(name, text);
    let options = RunOptions { node_name: NODE.to_string(), strict_variables: false, verbose: false };
    let outcome = run_manifest(&file, &options);
    let suffix = format!(" on node {NODE}");
    // A message with line breaks prints as several lines, as in Puppet.
    let lines = outcome
        .lines
        .into_iter()
        .flat_map(|(_, line)| line.lines().map(str::to_string).collect::<Vec<_>>())
        .map(|line| line.strip_suffix(&suffix).map(str::to_string).unwrap_or(line))
        .collect();
    (outcome.success, lines)
}

fn known_differences() -> BTreeMap<String, String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/known-differences.txt");
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| match line.split_once(char::is_whitespace) {
            Some((name, reason)) => (name.to_string(), reason.trim().to_string()),
            None => (line.trim().to_string(), String::new()),
        })
        .collect()
}

#[test]
fn evaluation_matches_puppet_apply() {
    let mut cases: Vec<PathBuf> = std::fs::read_dir(data_dir())
        .expect("tests/data exists")
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "pp"))
        .collect();
    cases.sort();
    assert!(cases.len() >= 400, "only {} golden cases", cases.len());
    let known = known_differences();
    let mut unexpected = Vec::new();
    let mut fixed = Vec::new();
    let mut matching = 0;
    for path in &cases {
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        let Some(expected) = expected(&path.with_extension("out")) else {
            unexpected.push(format!("{stem}: no recorded output (.out); record it with scripts/puppet-record-eval"));
            continue;
        };
        let (success, lines) = actual(path);
        let difference = if success != expected.success {
            Some(format!("puppet {} but marionette {}", verdict(expected.success), verdict(success)))
        } else {
            let first = (0..expected.lines.len().max(lines.len())).find(|&i| expected.lines.get(i) != lines.get(i));
            first.map(|i| {
                format!(
                    "line {}:\n    expected: {}\n    actual:   {}",
                    i + 1,
                    expected.lines.get(i).map_or("<none>", String::as_str),
                    lines.get(i).map_or("<none>", String::as_str)
                )
            })
        };
        match (difference, known.contains_key(&stem)) {
            (None, false) => matching += 1,
            (None, true) => fixed.push(stem),
            (Some(_), true) => {}
            (Some(difference), false) => unexpected.push(format!("{stem}: {difference}")),
        }
    }
    eprintln!("golden: {matching} of {} cases match puppet apply; {} known differences", cases.len(), known.len());
    let mut report = String::new();
    if !unexpected.is_empty() {
        report.push_str(&format!("{} cases differ from puppet apply:\n\n{}\n\n", unexpected.len(), unexpected.join("\n\n")));
    }
    if !fixed.is_empty() {
        report.push_str(&format!(
            "these cases now match: remove them from tests/known-differences.txt:\n{}\n",
            fixed.join("\n")
        ));
    }
    assert!(report.is_empty(), "{report}");
}

fn verdict(success: bool) -> &'static str {
    if success { "succeeds" } else { "fails" }
}

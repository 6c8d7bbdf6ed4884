//! Golden tests: each `tests/data/NNNN_name.pp` is run as `marionette apply`
//! runs it, and its output must equal `NNNN_name.out`, which was recorded
//! from the real `puppet apply` (see scripts/puppet-record-eval).
//!
//! Cases the evaluator does not match yet are listed, one name a line with
//! the reason, in `tests/known-differences.txt`. The test fails when a case
//! outside that list differs, and also when a listed case starts to match,
//! so the list only ever shrinks. `UPDATE_KNOWN_DIFFERENCES=1` rewrites the
//! list from the current results; review its diff like any other change.

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
    let exit = lines
        .next()?
        .strip_prefix("# exit: ")?
        .trim()
        .parse::<i32>()
        .ok()?;
    Some(Expected {
        success: exit == 0,
        lines: lines.map(str::to_string).collect(),
    })
}

/// Runs a case and returns its output lines as the recording filter keeps
/// them.
fn actual(path: &Path) -> (bool, Vec<String>) {
    let text = std::fs::read_to_string(path).expect("readable case");
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    let file = SourceFile::new(name, text);
    let options = RunOptions {
        node_name: NODE.to_string(),
        strict_variables: false,
        verbose: false,
    };
    let outcome = run_manifest(&file, &options);
    let suffix = format!(" on node {NODE}");
    // A message with line breaks prints as several lines, as in Puppet.
    let lines = outcome
        .lines
        .into_iter()
        .flat_map(|(_, line)| line.lines().map(str::to_string).collect::<Vec<_>>())
        .map(|line| {
            line.strip_suffix(&suffix)
                .map(str::to_string)
                .unwrap_or(line)
        })
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
    // Every difference, as "name<TAB>first differing expected line".
    let mut differences = Vec::new();
    let mut unexpected = Vec::new();
    let mut fixed = Vec::new();
    for path in &cases {
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        let difference = match expected(&path.with_extension("out")) {
            None => Some((
                "not recorded yet".to_string(),
                "no recorded output (.out); record it with scripts/puppet-record-eval".to_string(),
            )),
            Some(expected) => compare(&expected, actual(path)),
        };
        match (difference, known.contains_key(&stem)) {
            (None, true) => fixed.push(stem),
            (None, false) => {}
            (Some((reason, _)), true) => differences.push(format!("{stem}\t{reason}")),
            (Some((reason, detail)), false) => {
                differences.push(format!("{stem}\t{reason}"));
                unexpected.push(format!("{stem}: {detail}"));
            }
        }
    }
    let matching = cases.len() - differences.len();
    eprintln!(
        "golden: {matching} of {} cases match puppet apply",
        cases.len()
    );
    if std::env::var_os("UPDATE_KNOWN_DIFFERENCES").is_some() {
        let header = "# Golden cases whose output differs from puppet apply, with the first expected line that differs.\n\
                      # The golden test fails when a case not listed here differs, and when a listed case starts to match.\n";
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/known-differences.txt");
        std::fs::write(path, format!("{header}{}\n", differences.join("\n")))
            .expect("write the known differences");
        return;
    }
    let mut report = String::new();
    if !unexpected.is_empty() {
        report.push_str(&format!(
            "{} cases differ from puppet apply:\n\n{}\n\n",
            unexpected.len(),
            unexpected.join("\n\n")
        ));
    }
    if !fixed.is_empty() {
        report.push_str(&format!(
            "these cases now match: remove them from tests/known-differences.txt:\n{}\n",
            fixed.join("\n")
        ));
    }
    assert!(report.is_empty(), "{report}");
}

/// The first difference between Puppet's output and ours: a short reason
/// and a detailed description.
fn compare(expected: &Expected, (success, lines): (bool, Vec<String>)) -> Option<(String, String)> {
    if success != expected.success {
        let detail = format!(
            "puppet {} but marionette {}",
            verdict(expected.success),
            verdict(success)
        );
        return Some((detail.clone(), detail));
    }
    let i = (0..expected.lines.len().max(lines.len()))
        .find(|&i| expected.lines.get(i) != lines.get(i))?;
    let wanted = expected.lines.get(i).map_or("<none>", String::as_str);
    let got = lines.get(i).map_or("<none>", String::as_str);
    Some((
        wanted.to_string(),
        format!(
            "line {}:\n    expected: {wanted}\n    actual:   {got}",
            i + 1
        ),
    ))
}

fn verdict(success: bool) -> &'static str {
    if success { "succeeds" } else { "fails" }
}

//! Corpora of manifests applied with `marionette apply --noop` and compared
//! with what `puppet apply` printed (`scripts/puppet-record-eval`): the
//! exit status, then the log lines.

use std::path::{Path, PathBuf};
use std::process::Command;

/// What `marionette apply` printed, as the recording keeps Puppet's:
/// exit status, then the log lines without the catalog's own.
pub(crate) fn run(dir: &Path, file: &str, modulepath: &str) -> (i32, Vec<String>) {
    let vardir = tempfile::tempdir().expect("a temporary directory");
    let output = Command::new(env!("CARGO_BIN_EXE_marionette"))
        .current_dir(dir)
        .args([
            "apply",
            file,
            "--modulepath",
            modulepath,
            "--noop",
            "--vardir",
        ])
        .arg(vardir.path())
        .output()
        .expect("marionette runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    // A message's continuation lines go with it, as the recording keeps
    // them.
    let levels = ["Debug: ", "Info: ", "Notice: ", "Warning: ", "Error: "];
    let mut keep = false;
    let mut lines = Vec::new();
    for line in text.lines() {
        if levels.iter().any(|p| line.starts_with(p)) {
            keep = !line.starts_with("Debug: ")
                && !line.starts_with("Info: ")
                && !line.starts_with("Notice: Compiled catalog for ")
                && !line.starts_with("Notice: Applied catalog in ")
                && !line.starts_with("Error: Could not call 'find'");
        }
        if keep {
            lines.push(match line.rfind(" on node ") {
                Some(i) => line[..i].to_string(),
                None => line.to_string(),
            });
        }
    }
    (output.status.code().unwrap_or(-1), lines)
}

/// Applies each case and compares with its recorded `.out`; the
/// differences, one entry per case.
pub(crate) fn compare(dir: &Path, cases: &[PathBuf], modulepath: &str) -> Vec<String> {
    let mut problems = Vec::new();
    for case in cases {
        let name = case.file_name().unwrap().to_string_lossy().to_string();
        let recorded = std::fs::read_to_string(case.with_extension("out")).expect("recorded");
        let mut lines = recorded.lines();
        let exit: i32 = lines
            .next()
            .and_then(|l| l.strip_prefix("# exit: "))
            .and_then(|c| c.trim().parse().ok())
            .expect("an exit line");
        let expected: Vec<String> = lines.map(|l| l.trim_end().to_string()).collect();
        let (code, actual) = run(dir, &name, modulepath);
        let actual: Vec<String> = actual.iter().map(|l| l.trim_end().to_string()).collect();
        if (code == 0) != (exit == 0) || actual != expected {
            problems.push(format!(
                "{name}: exit {code} (Puppet's {exit})\n--- expected\n{}\n--- actual\n{}",
                expected.join("\n"),
                actual.join("\n")
            ));
        }
    }
    problems
}

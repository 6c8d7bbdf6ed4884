//! Corpora of manifests applied with `marionette apply --noop` and compared
//! with what `puppet apply` printed (`scripts/puppet-record-eval`): the
//! exit status, then the log lines.

use std::path::{Path, PathBuf};
use std::process::Command;

/// What `marionette apply` printed, as the recording keeps Puppet's:
/// exit status, then the log lines without the catalog's own.
pub(crate) fn run(dir: &Path, file: &str, modulepath: &str) -> (i32, Vec<String>) {
    let vardir = tempfile::tempdir().expect("a temporary directory");
    let both_path = tempfile::NamedTempFile::new().expect("a temporary file");
    let both = both_path.reopen().expect("the temporary file");
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
        // Both streams into one file, in the order they were written, as
        // the recordings keep Puppet's (`2>&1`).
        .stdout(both.try_clone().expect("a second handle"))
        .stderr(both.try_clone().expect("a second handle"))
        .status()
        .expect("marionette runs");
    let mut text = std::fs::read_to_string(both_path.path()).unwrap_or_default();
    text = super::without_dir(dir, &text);
    for linked in LINKED.lock().unwrap_or_else(|e| e.into_inner()).iter() {
        text = text.replace(&format!("{linked}/"), "/usr/share/puppet/modules/");
    }
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
                && !line.starts_with("Error: Could not call 'find'")
                // As the recordings drop Facter's complaints about the
                // machine (modules' custom facts included).
                && !line.starts_with("Error: Facter:");
        }
        if keep {
            lines.push(match line.rfind(" on node ") {
                Some(i) => line[..i].to_string(),
                None => line.to_string(),
            });
        }
    }
    (output.code().unwrap_or(-1), lines)
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

/// The module paths [`only_modules`] made, which output names as
/// `/usr/share/puppet/modules`, where their modules are.
static LINKED: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

/// A module path holding only the named modules of Debian's
/// `/usr/share/puppet/modules`, linked into a directory kept for the test
/// process: a corpus that needs stdlib alone does not resolve every
/// installed module's custom facts (apt's run `apt-get` for seconds) at
/// each case, as the full module path would make `marionette apply` do.
pub(crate) fn only_modules(names: &[&str]) -> String {
    static DIR: std::sync::OnceLock<tempfile::TempDir> = std::sync::OnceLock::new();
    let dir = DIR.get_or_init(|| tempfile::tempdir().expect("a temporary directory"));
    let path = dir.path().join(names.join("+"));
    LINKED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(path.display().to_string());
    if !path.exists() {
        std::fs::create_dir_all(&path).expect("a directory for the module path");
        for name in names {
            let _ = std::os::unix::fs::symlink(
                Path::new("/usr/share/puppet/modules").join(name),
                path.join(name),
            );
        }
    }
    path.display().to_string()
}

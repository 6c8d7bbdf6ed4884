//! stdlib's functions implemented natively: every `tests/stdlib/NNNN.pp`
//! is applied with `marionette apply`, with Debian's stdlib on the module
//! path, and its output must equal the `.out` recorded from the real
//! `puppet apply` with that stdlib and the corpus's own `modules/`
//! (`PUPPET_APPLY_ARGS="--modulepath modules:/usr/share/puppet/modules"
//! scripts/puppet-record-eval tests/stdlib/*.pp`). Without stdlib on the
//! module path the functions do not exist, as in Puppet.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// Where Debian's package `puppet-module-puppetlabs-stdlib` puts stdlib,
/// on Puppet's default module path.
const MODULES: &str = "/usr/share/puppet/modules";

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/stdlib")
}

fn require_stdlib() {
    assert!(
        Path::new(MODULES).join("stdlib/metadata.json").exists(),
        "stdlib is missing from {MODULES}: install it with `apt-get install -y puppet-module-puppetlabs-stdlib` (scripts/test does as root)"
    );
}

/// What `marionette apply` printed, as the recording keeps Puppet's:
/// exit status, then the log lines without the catalog's own.
fn run(dir: &Path, file: &str, modulepath: &str) -> (i32, Vec<String>) {
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

#[test]
fn native_functions_match_stdlib() {
    require_stdlib();
    let cases = common::case_files(&corpus(), "pp");
    assert!(cases.len() >= 15, "only {} cases", cases.len());
    let mut problems = Vec::new();
    for case in &cases {
        let name = case.file_name().unwrap().to_string_lossy().to_string();
        let recorded = std::fs::read_to_string(case.with_extension("out")).expect("recorded");
        let mut lines = recorded.lines();
        let exit: i32 = lines
            .next()
            .and_then(|l| l.strip_prefix("# exit: "))
            .and_then(|c| c.trim().parse().ok())
            .expect("an exit line");
        let expected: Vec<String> = lines.map(|l| l.trim_end().to_string()).collect();
        let modulepath = format!("modules:{MODULES}");
        let (code, actual) = run(&corpus(), &name, &modulepath);
        let actual: Vec<String> = actual.iter().map(|l| l.trim_end().to_string()).collect();
        if (code == 0) != (exit == 0) || actual != expected {
            problems.push(format!(
                "{name}: exit {code} (Puppet's {exit})\n--- expected\n{}\n--- actual\n{}",
                expected.join("\n"),
                actual.join("\n")
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn without_stdlib_its_functions_are_unknown() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::write(dir.path().join("site.pp"), "notice(pick(undef, 'a'))\n").unwrap();
    let empty = dir.path().join("modules");
    std::fs::create_dir_all(&empty).unwrap();
    let (code, lines) = run(dir.path(), "site.pp", &empty.display().to_string());
    assert_eq!(code, 1, "{lines:?}");
    assert!(
        lines.iter().any(|l| l.contains("Unknown function: 'pick'")),
        "{lines:?}"
    );
}

//! Helpers shared by the command-line tests.

// Each test binary includes this module and uses only part of it.
#![allow(dead_code)]

use std::path::Path;
use std::process::Command;

pub(crate) mod apart;
pub(crate) mod applied;
pub(crate) mod corpus;
pub(crate) mod known;
pub(crate) mod meaning;
pub(crate) mod runs;
pub(crate) mod stages;

/// `text` with the directory `dir` left out of file names: `apply` names
/// its manifest from the root, as Puppet does, and the recordings drop the
/// cases' directory, which depends on the checkout.
pub(crate) fn without_dir(dir: &Path, text: &str) -> String {
    match std::fs::canonicalize(dir) {
        Ok(root) => text.replace(&format!("{}/", root.display()), ""),
        Err(_) => text.to_string(),
    }
}

/// What a run of the `marionette` binary gave.
pub(crate) struct Run {
    pub(crate) code: i32,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

impl Run {
    /// Notices go to stdout and errors to stderr; tests often read both.
    pub(crate) fn output(&self) -> String {
        format!("{}{}", self.stdout, self.stderr)
    }
}

/// Runs the `marionette` binary built for the tests, with extra
/// environment variables, without colours.
pub(crate) fn marionette_with(args: &[&str], env: &[(&str, &str)]) -> Run {
    // A run that names no state directory gets one of its own: the
    // machine's would make two tests' runs refuse each other through
    // the run lock.
    let own_state = (args.first() == Some(&"apply") && !args.contains(&"--vardir"))
        .then(|| tempfile::tempdir().expect("a state directory"));
    let mut command = Command::new(env!("CARGO_BIN_EXE_marionette"));
    if let Some(state) = &own_state {
        command.arg("--vardir").arg(state.path());
    }
    let output = command
        .args(args)
        .envs(env.iter().copied())
        .env("NO_COLOR", "1")
        .output()
        .expect("marionette runs");
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// What a shell command prints on a terminal, without colours: `script`'s
/// pseudo-terminal (util-linux, in every Debian), line ends as written.
pub(crate) fn on_terminal(command: &str) -> String {
    let output = Command::new("script")
        .args(["-qec", command, "/dev/null"])
        .env("NO_COLOR", "1")
        .output()
        .expect("`script` runs (apt-get install -y bsdutils)");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// An example program of the Rust plugin SDK (`crates/plugin-sdk/examples`),
/// which `cargo test` builds with the workspace's other targets.
pub(crate) fn sdk_example(name: &str) -> std::path::PathBuf {
    let deps = std::env::current_exe().expect("the test's path");
    let binary = deps
        .parent()
        .and_then(Path::parent)
        .expect("the test binary is in target/PROFILE/deps")
        .join("examples")
        .join(name);
    assert!(
        binary.is_file(),
        "{} is missing: cargo build -p marionette-plugin-sdk --example {name}",
        binary.display()
    );
    binary
}

/// Runs the `marionette` binary.
pub(crate) fn marionette(args: &[&str]) -> Run {
    marionette_with(args, &[])
}

/// `marionette catalog compile` of one case of a catalog corpus as
/// scripts/puppet-record-catalogs ran Puppet on it: from the case's
/// directory, with `modulepath`, and its `facts.json` or else
/// `default_facts` (relative to the case's directory).
pub(crate) fn case_compile(dir: &Path, modulepath: &str, default_facts: &str) -> Command {
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
        default_facts
    };
    command
        .args([
            "--modulepath",
            modulepath,
            "--environmentpath",
            "environments",
        ])
        .args(["--facts", facts])
        .args(&args);
    command
}

/// Compiles one case of a catalog corpus as [`case_compile`] does, and
/// compares the outcome with the recorded one: the catalog by meaning
/// (`expected.json`), or Puppet's first error line (`expected.err`).
pub(crate) fn compile_case(
    dir: &Path,
    modulepath: &str,
    default_facts: &str,
) -> Result<(), String> {
    let output = case_compile(dir, modulepath, default_facts)
        .output()
        .map_err(|e| format!("could not run: {e}"))?;
    // Module files are named from the root, as Puppet names them; its
    // recording left the case's directory out of every string, as this
    // does.
    let prefix = dir
        .canonicalize()
        .map(|whole| format!("{}/", whole.display()))
        .unwrap_or_default();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let stderr = without(&stderr, &prefix);
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
    let expected: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("expected.json")).map_err(|e| e.to_string())?,
    )
    .map_err(|e| format!("expected.json: {e}"))?;
    let mut actual: serde_json::Value = serde_json::from_slice(&output.stdout)
        .map_err(|e| format!("our output is not JSON: {e}"))?;
    strip_strings(&mut actual, &prefix);
    let problems = meaning::differences(&meaning::meaning(&expected), &meaning::meaning(&actual));
    outcome(problems)
}

/// `text` without `prefix` anywhere (none when it is empty).
fn without(text: &str, prefix: &str) -> String {
    if prefix.is_empty() {
        text.to_string()
    } else {
        text.replace(prefix, "")
    }
}

/// Every string of `value` without `prefix`, as the recorder left it out.
fn strip_strings(value: &mut serde_json::Value, prefix: &str) {
    match value {
        serde_json::Value::String(text) if !prefix.is_empty() && text.contains(prefix) => {
            *text = without(text, prefix);
        }
        serde_json::Value::Array(items) => {
            items
                .iter_mut()
                .for_each(|item| strip_strings(item, prefix));
        }
        serde_json::Value::Object(map) => {
            map.values_mut()
                .for_each(|item| strip_strings(item, prefix));
        }
        _ => {}
    }
}

/// The first line of a text (a problem's headline).
pub(crate) fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or_default()
}

/// Replaces run times, which vary, by `N`: "Applied catalog in N seconds".
pub(crate) fn timeless(text: &str) -> String {
    text.lines()
        .map(|line| match line.rfind(" in ") {
            Some(at) if line.ends_with(" seconds") => format!("{} in N seconds", &line[..at]),
            _ => line.to_string(),
        })
        .map(|line| line + "\n")
        .collect()
}

/// The case directories under a corpus root that hold one of `files`, in
/// order.
/// Copies the files below `from` into `to`, merging directories.
pub(crate) fn copy_tree(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).expect("a directory");
    for entry in std::fs::read_dir(from)
        .expect("a readable directory")
        .flatten()
    {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("a copied file");
        }
    }
}

/// A case's name: its directory's.
pub(crate) fn case_name(case: &std::path::Path) -> String {
    case.file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .to_string()
}

pub(crate) fn case_dirs(root: &std::path::Path, files: &[&str]) -> Vec<std::path::PathBuf> {
    let mut cases: Vec<std::path::PathBuf> = std::fs::read_dir(root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| files.iter().any(|f| p.join(f).exists()))
        .collect();
    cases.sort();
    cases
}

/// A comparison's problems, one per line, or success when there are none.
pub(crate) fn outcome(problems: Vec<String>) -> Result<(), String> {
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n  "))
    }
}

/// The files with extension `ext` in a corpus directory, in order.
pub(crate) fn case_files(root: &std::path::Path, ext: &str) -> Vec<std::path::PathBuf> {
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    files.sort();
    files
}

/// `marionette agent -t` against a server on `localhost:port` as
/// `certname`, keeping its state in `vardir`; the test modules' code
/// writes its files into the directory the fact `mrtest_srv_dir` names.
pub(crate) fn marionette_agent(port: u16, certname: &str, vardir: &Path, out: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_marionette"));
    command
        .args([
            "agent",
            "-t",
            "--server",
            "localhost",
            "--certname",
            certname,
        ])
        .args(["--serverport", &port.to_string(), "--keylength", "2048"])
        .args(["--waitforcert", "0", "--no-color"])
        .arg("--vardir")
        .arg(vardir)
        .env("FACTER_mrtest_srv_dir", out);
    command
}

/// What a process printed, standard output then standard error.
pub(crate) fn printed(output: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// The names of the entries of `dir`, sorted; none when it does not exist.
pub(crate) fn entry_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// `work` done for each of `items`, `jobs` at a time (at least one), the
/// results in the items' order: a corpus's cases mostly wait (on a
/// module's retries, on dpkg), so they share the machine's cores.
pub(crate) fn in_parallel<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    work: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let done: std::sync::Mutex<Vec<Option<R>>> =
        std::sync::Mutex::new((0..items.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, items.len().max(1)) {
            scope.spawn(|| {
                loop {
                    let at = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(item) = items.get(at) else { break };
                    let result = work(item);
                    done.lock().unwrap_or_else(|e| e.into_inner())[at] = Some(result);
                }
            });
        }
    });
    done.into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(|result| {
            result.expect("every item's work is done (a worker that panicked says so above)")
        })
        .collect()
}

/// How many jobs a stage runs at a time: the environment variable `name`,
/// or `default`.
pub(crate) fn jobs(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|n| n.parse().ok())
        .filter(|n| *n > 0)
        .unwrap_or(default)
}

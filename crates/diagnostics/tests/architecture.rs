//! The invariants of ARCHITECTURE.md that concern the workspace's shape,
//! checked from the crates' manifests, `Cargo.lock` and the sources.
//!
//! They live in this crate because it depends on nothing and builds in
//! seconds, so the check costs the test run almost nothing. For the same
//! reason the manifests are read by hand rather than with a TOML library:
//! the rules need only the names of each crate's dependencies.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Normal,
    Build,
    Dev,
}

/// One dependency line of a manifest: the package it names (after
/// `package = "..."` renames) and the path it gives, if any.
#[derive(Debug)]
struct Dependency {
    key: String,
    package: String,
    path: Option<String>,
    workspace: bool,
    kind: Kind,
}

/// The string value of `field = "..."` inside a line, if the line has it.
fn field(line: &str, field: &str) -> Option<String> {
    let mut rest = line;
    while let Some(at) = rest.find(field) {
        let before = rest[..at].chars().next_back();
        let after = rest[at + field.len()..].trim_start();
        rest = &rest[at + field.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '-' || c == '_') {
            continue;
        }
        if let Some(value) = after.strip_prefix('=') {
            let value = value.trim_start().strip_prefix('"')?;
            return value.split('"').next().map(str::to_string);
        }
    }
    None
}

/// What a section header says of dependencies: their kind, and the name of
/// the one dependency when the header is a table of its own
/// (`[dependencies.foo]`, `[target.'cfg(unix)'.dev-dependencies.foo]`).
fn dependency_section(header: &str) -> Option<(Kind, Option<String>)> {
    let parts: Vec<&str> = header.split('.').collect();
    let at = parts.iter().position(|p| {
        matches!(
            *p,
            "dependencies" | "dev-dependencies" | "build-dependencies"
        )
    })?;
    // [workspace.dependencies] lists what members may inherit, not what
    // any crate depends on.
    if at > 0 && parts[at - 1] == "workspace" {
        return None;
    }
    let kind = match parts[at] {
        "dependencies" => Kind::Normal,
        "build-dependencies" => Kind::Build,
        _ => Kind::Dev,
    };
    let name = parts
        .get(at + 1)
        .map(|n| n.trim_matches(|c| c == '"' || c == '\'').to_string());
    Some((kind, name))
}

/// The dependencies a manifest declares, in every section that declares
/// some. Lines without `=` (the continuation of a multi-line array) are
/// skipped.
fn dependencies(manifest: &str) -> Vec<Dependency> {
    let mut found: Vec<Dependency> = Vec::new();
    // The current section: the kind of its dependencies, and whether it
    // is the table of one dependency (then its lines are that one's fields).
    let mut section: Option<(Kind, bool)> = None;
    for line in manifest.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if line.starts_with('[') {
            let header = line.trim_matches(|c| c == '[' || c == ']').trim();
            section = match dependency_section(header) {
                Some((kind, Some(name))) => {
                    found.push(Dependency {
                        key: name.clone(),
                        package: name,
                        path: None,
                        workspace: false,
                        kind,
                    });
                    Some((kind, true))
                }
                Some((kind, None)) => Some((kind, false)),
                None => None,
            };
            continue;
        }
        let Some((kind, table)) = section else {
            continue;
        };
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let key = key.trim().trim_matches('"');
        if table {
            let dependency = found.last_mut().expect("a table's dependency");
            match key {
                "package" => dependency.package = value.trim().trim_matches('"').to_string(),
                "path" => dependency.path = Some(value.trim().trim_matches('"').to_string()),
                "workspace" => dependency.workspace = value.trim() == "true",
                _ => {}
            }
            continue;
        }
        // `foo = "1"`, `foo = { path = "..", package = "bar" }` or
        // `foo.workspace = true`.
        let (name, dotted) = match key.split_once('.') {
            Some((name, rest)) => (name.trim_matches('"'), Some(rest)),
            None => (key, None),
        };
        found.push(Dependency {
            key: name.to_string(),
            package: field(value, "package").unwrap_or_else(|| name.to_string()),
            path: field(value, "path"),
            workspace: dotted == Some("workspace")
                || value.replace(' ', "").contains("workspace=true"),
            kind,
        });
    }
    found
}

/// The crates of this workspace, by directory name under `crates/`, with
/// their package names and the crates of ours each depends on.
struct Workspace {
    /// Directory name to package name.
    packages: BTreeMap<String, String>,
    /// Directory name to (crate of ours, kind) for every dependency on one.
    internal: BTreeMap<String, Vec<(String, Kind)>>,
}

fn read_workspace() -> Workspace {
    let root = workspace();
    let crates = root.join("crates");
    let mut manifests = BTreeMap::new();
    for entry in fs::read_dir(&crates).expect("crates/ is readable") {
        let dir = entry.unwrap().path();
        let manifest = dir.join("Cargo.toml");
        if manifest.is_file() {
            let name = dir.file_name().unwrap().to_string_lossy().into_owned();
            manifests.insert(name, fs::read_to_string(&manifest).unwrap());
        }
    }
    let mut packages = BTreeMap::new();
    for (dir, text) in &manifests {
        let mut in_package = false;
        for line in text.lines() {
            let line = line.trim();
            if line.starts_with('[') {
                in_package = line == "[package]";
            } else if in_package && let Some(name) = field(line, "name") {
                packages.insert(dir.clone(), name);
                break;
            }
        }
        assert!(packages.contains_key(dir), "crates/{dir}: no package name");
    }
    let by_package: BTreeMap<&str, &str> = packages
        .iter()
        .map(|(dir, package)| (package.as_str(), dir.as_str()))
        .collect();
    // Members inherit `foo.workspace = true` from the root's
    // [workspace.dependencies], which may rename or give a path.
    let root_manifest = fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let mut inherited = BTreeMap::new();
    let mut in_workspace_dependencies = false;
    for line in root_manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_workspace_dependencies = line == "[workspace.dependencies]";
        } else if in_workspace_dependencies && let Some((key, value)) = line.split_once('=') {
            let key = key.trim().trim_matches('"').to_string();
            let package = field(value, "package").unwrap_or_else(|| key.clone());
            inherited.insert(key, (package, field(value, "path")));
        }
    }
    // A path names a crate of ours by its directory, whatever the package
    // is called.
    let by_path = |path: &str| -> Option<String> {
        let name = Path::new(path).file_name()?.to_string_lossy().into_owned();
        packages.contains_key(&name).then_some(name)
    };
    let mut internal = BTreeMap::new();
    for (dir, text) in &manifests {
        let mut ours = Vec::new();
        for dependency in dependencies(text) {
            let (package, path) = if dependency.workspace {
                inherited
                    .get(&dependency.key)
                    .cloned()
                    .unwrap_or((dependency.package.clone(), None))
            } else {
                (dependency.package.clone(), dependency.path.clone())
            };
            let target = path
                .as_deref()
                .and_then(by_path)
                .or_else(|| by_package.get(package.as_str()).map(|d| d.to_string()));
            if let Some(target) = target {
                ours.push((target, dependency.kind));
            }
        }
        internal.insert(dir.clone(), ours);
    }
    Workspace { packages, internal }
}

/// The parser itself must find every spelling a manifest may use, or the
/// rules below would pass by seeing nothing.
#[test]
fn the_manifest_reader_finds_every_spelling_of_a_dependency() {
    let manifest = r#"
[package]
name = "x"

[dependencies]
plain = "1"
marionette-cli.workspace = true
renamed = { path = "../cli", package = "marionette-cli" }
features = { version = "1", features = [
    "a",
] }

[target.'cfg(unix)'.build-dependencies]
built = "1"

[dev-dependencies.tabled]
package = "marionette-cli"
"#;
    let found: Vec<(String, String, Option<String>, bool, Kind)> = dependencies(manifest)
        .into_iter()
        .map(|d| (d.key, d.package, d.path, d.workspace, d.kind))
        .collect();
    let s = |x: &str| x.to_string();
    assert_eq!(
        found,
        [
            (s("plain"), s("plain"), None, false, Kind::Normal),
            (
                s("marionette-cli"),
                s("marionette-cli"),
                None,
                true,
                Kind::Normal
            ),
            (
                s("renamed"),
                s("marionette-cli"),
                Some(s("../cli")),
                false,
                Kind::Normal
            ),
            (s("features"), s("features"), None, false, Kind::Normal),
            (s("built"), s("built"), None, false, Kind::Build),
            (s("tabled"), s("marionette-cli"), None, false, Kind::Dev),
        ]
    );
    // And the workspace itself: the command line depends on most crates.
    let workspace = read_workspace();
    assert_eq!(workspace.packages["cli"], "marionette-cli");
    let cli: Vec<&str> = workspace.internal["cli"]
        .iter()
        .map(|(dir, _)| dir.as_str())
        .collect();
    for expected in ["syntax", "eval", "transaction", "server", "agent"] {
        assert!(cli.contains(&expected), "cli's dependencies: {cli:?}");
    }
}

/// The binary is the top of the graph: what it does is reachable only
/// through it, and no library may reach back into it (dev-dependencies
/// included, so no crate's tests lean on it either).
#[test]
fn no_crate_depends_on_cli() {
    let workspace = read_workspace();
    for (dir, ours) in &workspace.internal {
        for (target, kind) in ours {
            assert_ne!(target, "cli", "crates/{dir} depends on cli ({kind:?})");
        }
    }
}

/// The foundations depend on no crate of ours, or only on the ones named:
/// `syntax` knows nothing of values, evaluation or catalogs; the server and
/// the agent speak Puppet's API and leave compiling and applying to their
/// caller; storage knows Puppet's documents only as JSON; catalog-diff
/// compares catalogs and never compiles them. Only what the library builds with counts: dev-dependencies
/// build tests alone.
#[test]
fn the_foundations_depend_on_nothing_above_them() {
    let allowed: &[(&str, &[&str])] = &[
        ("diagnostics", &[]),
        ("values", &[]),
        ("syntax", &["diagnostics"]),
        ("child", &[]),
        ("dns", &[]),
        ("facts", &[]),
        ("ca", &[]),
        ("plugin-sdk", &[]),
        ("server", &["ca", "diagnostics", "storage"]),
        ("agent", &["ca"]),
        ("storage", &["values"]),
        ("catalog-diff", &["catalog", "values"]),
    ];
    let workspace = read_workspace();
    for (dir, may) in allowed {
        let ours = workspace
            .internal
            .get(*dir)
            .unwrap_or_else(|| panic!("crates/{dir} is gone: update this rule"));
        for (target, kind) in ours {
            if *kind == Kind::Dev {
                continue;
            }
            assert!(
                may.contains(&target.as_str()),
                "crates/{dir} depends on {target}, which it must not"
            );
        }
    }
}

/// Applying never depends on compiling: the catalog is the only thing that
/// crosses, so a catalog compiled by Puppet applies the same way.
#[test]
fn applying_does_not_depend_on_the_compiler() {
    let workspace = read_workspace();
    for dir in ["ral", "transaction", "types"] {
        for (target, kind) in &workspace.internal[dir] {
            if *kind == Kind::Dev {
                continue;
            }
            assert!(
                !matches!(target.as_str(), "syntax" | "eval"),
                "crates/{dir} depends on {target}"
            );
        }
    }
}

/// Modules' Ruby runs in the system's `ruby`, as a child process: nothing
/// we build embeds or links a Ruby interpreter.
#[test]
fn no_crate_links_ruby() {
    // The crates that bind or embed libruby.
    const RUBY_BINDINGS: &[&str] = &[
        "magnus",
        "rb-sys",
        "rb-sys-build",
        "rb-sys-env",
        "rutie",
        "ruby-sys",
        "rosy",
        "artichoke",
    ];
    let root = workspace();
    let lock = fs::read_to_string(root.join("Cargo.lock")).expect("Cargo.lock is committed");
    for line in lock.lines() {
        if let Some(name) = field(line, "name") {
            assert!(
                !RUBY_BINDINGS.contains(&name.as_str()),
                "Cargo.lock holds {name}, which links Ruby"
            );
        }
    }
    for entry in fs::read_dir(root.join("crates")).unwrap() {
        let dir = entry.unwrap().path();
        let build = dir.join("build.rs");
        if let Ok(text) = fs::read_to_string(&build) {
            assert!(
                !text.to_lowercase().contains("ruby"),
                "{} mentions Ruby",
                build.display()
            );
        }
        let manifest = fs::read_to_string(dir.join("Cargo.toml")).unwrap_or_default();
        assert!(
            !manifest
                .lines()
                .any(|l| l.trim_start().starts_with("links")),
            "{} links a native library",
            dir.display()
        );
    }
}

/// Every `.rs` file below `dir`.
fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

/// The lines of a source file that the program is built from, with their
/// numbers: comments and test modules left out. Test modules come last in
/// a file in this project (`#[cfg(test)]` then `mod`), so the file is read
/// up to the first.
fn program_lines(text: &str) -> Vec<(usize, &str)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut kept = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim();
        if trimmed == "#[cfg(test)]"
            && lines
                .get(i + 1)
                .is_some_and(|next| next.trim_start().starts_with("mod "))
        {
            break;
        }
        if !trimmed.starts_with("//") {
            kept.push((i + 1, *line));
        }
    }
    kept
}

/// Every occurrence of one of `needles` in the crates' library and binary
/// sources, as `crates/DIR/src/...:LINE`.
fn occurrences(needles: &[&str]) -> Vec<String> {
    let root = workspace();
    let mut files = Vec::new();
    rust_files(&root.join("crates"), &mut files);
    let mut found = Vec::new();
    for file in files {
        let relative = file
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        // Only what the crates build from: not their tests, examples or
        // benches.
        if relative.split('/').nth(2) != Some("src") {
            continue;
        }
        let text = fs::read_to_string(&file).unwrap();
        for (number, line) in program_lines(&text) {
            if needles.iter().any(|n| line.contains(n)) {
                found.push(format!("{relative}:{number}"));
            }
        }
    }
    found
}

fn files_of(found: &[String]) -> Vec<&str> {
    let mut files: Vec<&str> = found
        .iter()
        .map(|at| at.rsplit_once(':').unwrap().0)
        .collect();
    files.dedup();
    files
}

/// No shell command is built from data. Programs run with an argument
/// vector; the one runner that can start `/bin/sh -c` is
/// `ral::CommandSpec::shell`, and only the commands users write as shell
/// code reach it: exec's `shell` provider, a service's string commands and
/// a file's `validate_cmd`, which Puppet hands to the shell as one string.
#[test]
fn only_the_users_own_shell_code_reaches_a_shell() {
    let shells = occurrences(&[
        "Command::new(\"sh\")",
        "Command::new(\"/bin/sh\")",
        "Command::new(\"bash\")",
        "Command::new(\"/bin/bash\")",
    ]);
    assert_eq!(
        files_of(&shells),
        ["crates/ral/src/command.rs"],
        "a shell is started outside the runner: {shells:?}"
    );
    let mut callers = occurrences(&["CommandSpec::shell("]);
    callers.sort();
    assert_eq!(
        files_of(&callers),
        [
            "crates/types/src/providers/exec/mod.rs",
            "crates/types/src/providers/file/posix.rs",
            "crates/types/src/providers/service/mod.rs",
        ],
        "a new caller of CommandSpec::shell: {callers:?}"
    );
}

/// Libraries return values and diagnostics; the binaries print. The one
/// exception is the server's own log, which goes to standard error when no
/// log file is set (`crates/server/src/server.rs`, `State::log`).
#[test]
fn libraries_do_not_print() {
    let printing = occurrences(&["println!(", "print!(", "eprintln!(", "eprint!("]);
    let offending: Vec<&String> = printing
        .iter()
        .filter(|at| {
            let file = at.rsplit_once(':').unwrap().0;
            !(file.starts_with("crates/cli/")
                || file.ends_with("/src/main.rs")
                || file.contains("/src/bin/")
                || file == "crates/server/src/server.rs")
        })
        .collect();
    assert!(
        offending.is_empty(),
        "libraries print at {offending:?}: return the text to the caller instead"
    );
}

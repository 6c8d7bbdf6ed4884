//! `marionette catalog diff` over the fixture control repository of
//! `tests/catalog-diff/`: the old code `from/`, the new code `to/` (a
//! parameter, an ERB and an EPP template, a new class for one role, a
//! Hiera value and a Sensitive one for one role, a relationship, a
//! whitespace-only change, and a change that breaks the app role's
//! compile), and the facts of six nodes in puppetserver's YAML cache
//! format (one in JSON).
//!
//! - `cases/NAME.args` (the arguments after `catalog diff`, `{fixture}`
//!   standing for the fixture's directory) each give `cases/NAME.out`,
//!   what is printed, and `cases/NAME.code`, the exit code;
//!   `UPDATE_GOLDEN=1` rewrites both.
//! - Each node's diff is compared by meaning with what octocatalog-diff
//!   reported over the real Puppet 7 (`octocatalog-diff/NODE.json`, or
//!   `NODE.error` for a compile failure), recorded by
//!   `scripts/octocatalog-diff-record`; the deliberate differences are
//!   listed, with why, in `known-differences.txt`, and a listed one that
//!   no longer occurs fails the test too.
//! - Git refs compare as the directories they hold.
//!
//! The fixture uses Debian's stdlib and ntp modules
//! (`apt-get install -y puppet-module-puppetlabs-stdlib
//! puppet-module-puppetlabs-ntp`) and, for its ERB template, Ruby.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

#[path = "../../storage/tests/cluster/mod.rs"]
mod cluster;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/catalog-diff")
        .canonicalize()
        .expect("tests/catalog-diff exists")
}

/// Fails, saying how to install them, when the Forge modules the fixture
/// uses are missing.
fn require_modules() {
    for module in ["stdlib", "ntp"] {
        assert!(
            Path::new("/usr/share/puppet/modules").join(module).is_dir(),
            "the catalog-diff fixture needs Debian's {module} module: \
             apt-get install -y puppet-module-puppetlabs-stdlib puppet-module-puppetlabs-ntp"
        );
    }
}

/// Runs `marionette catalog diff ARGS` away from this machine's Puppet
/// settings and code, with Debian's modules as the base module path.
fn run_diff(args: &[String]) -> Output {
    require_modules();
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let run = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let home =
        std::env::temp_dir().join(format!("mrtest-catalog-diff-{}-{run}", std::process::id()));
    std::fs::create_dir_all(&home).expect("a home");
    let mut command = Command::new(env!("CARGO_BIN_EXE_marionette"));
    command
        .args(["catalog", "diff"])
        .args(args)
        .args(["--basemodulepath", "/usr/share/puppet/modules"])
        .arg("--confdir")
        .arg(home.join("etc"))
        .arg("--codedir")
        .arg(home.join("code"));
    if !args.iter().any(|a| a == "--vardir") {
        command.arg("--vardir").arg(home.join("var"));
    }
    let output = command
        .env("HOME", &home)
        .env_remove("MARIONETTE_RUBY_TIMEOUT")
        .output()
        .expect("marionette runs");
    let _ = std::fs::remove_dir_all(&home);
    output
}

fn words(text: &str, fixture: &Path) -> Vec<String> {
    text.split_whitespace()
        .map(|w| w.replace("{fixture}", &fixture.display().to_string()))
        .collect()
}

#[test]
fn each_case_prints_its_golden_output_and_exits_with_its_code() {
    let fixture = fixture();
    let cases = fixture.join("cases");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&cases)
        .expect("tests/catalog-diff/cases")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "args"))
        .collect();
    names.sort();
    assert!(names.len() >= 5, "the cases are gone");
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut failures = Vec::new();
    for args_file in names {
        let name = args_file
            .file_stem()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let args = words(&std::fs::read_to_string(&args_file).unwrap(), &fixture);
        let output = run_diff(&args);
        let printed = String::from_utf8_lossy(&output.stdout).into_owned();
        let code = output.status.code().unwrap_or(-1).to_string();
        let out_file = cases.join(format!("{name}.out"));
        let code_file = cases.join(format!("{name}.code"));
        if update {
            std::fs::write(&out_file, &printed).unwrap();
            std::fs::write(&code_file, format!("{code}\n")).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&out_file).unwrap_or_default();
        let expected_code = std::fs::read_to_string(&code_file).unwrap_or_default();
        if printed != expected || code != expected_code.trim() {
            failures.push(format!(
                "case {name}: exit {code} (expected {}), printed:\n{printed}\nstderr:\n{}",
                expected_code.trim(),
                String::from_utf8_lossy(&output.stderr)
            ));
        }
        // Colour only when asked: standard output is a pipe here.
        let asked = args.iter().any(|a| a == "--color=true");
        assert_eq!(printed.contains('\x1b'), asked, "case {name}: colours");
        // The Sensitive password never shows, in any format.
        assert!(!printed.contains("s3cret"), "case {name} shows a secret");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// A change as both tools report it, for comparing by meaning: node,
/// symbol, resource, place, and the values (a Sensitive value as just
/// that: octocatalog-diff shows a checksum, Marionette the redaction).
fn entry(node: &str, change: &Value) -> String {
    let value = |key: &str| -> String {
        match &change[key] {
            Value::String(s) if s.starts_with("Sensitive [") => "Sensitive".to_string(),
            other => other.to_string(),
        }
    };
    let diff_type = change["diff_type"].as_str().unwrap_or("?");
    let structure: Vec<&str> = change["structure"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let resource = format!(
        "{}[{}]",
        change["type"].as_str().unwrap_or("?"),
        change["title"].as_str().unwrap_or("?")
    );
    if matches!(diff_type, "+" | "-") {
        return format!("{node} {diff_type} {resource}");
    }
    format!(
        "{node} {diff_type} {resource} {} {} => {}",
        structure.join("::"),
        value("old_value"),
        value("new_value")
    )
}

/// `known-differences.txt`: `NODE SYMBOL Type[Title] attribute  # why`,
/// `*` for every node; what Marionette reports and octocatalog-diff does
/// not, on purpose.
fn known_differences(fixture: &Path) -> Vec<(String, String)> {
    std::fs::read_to_string(fixture.join("known-differences.txt"))
        .expect("known-differences.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let rule = l.split('#').next().unwrap_or("").trim();
            let (node, rest) = rule
                .split_once(' ')
                .expect("NODE SYMBOL RESOURCE ATTRIBUTE");
            (node.to_string(), rest.trim().to_string())
        })
        .collect()
}

#[test]
fn every_node_differs_as_octocatalog_diff_says() {
    let fixture = fixture();
    let output = run_diff(&words(
        "--from {fixture}/from --to {fixture}/to --facts {fixture}/facts --format json",
        &fixture,
    ));
    assert_eq!(
        output.status.code(),
        Some(6),
        "differences and a failure of the new code: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let recorded = fixture.join("octocatalog-diff");
    let mut ours = BTreeSet::new();
    let mut theirs = BTreeSet::new();
    let mut nodes = 0;
    for group in report["groups"].as_array().expect("groups") {
        for node in group["nodes"].as_array().expect("nodes") {
            let node = node.as_str().expect("a name");
            nodes += 1;
            for change in group["diff"].as_array().expect("diff") {
                ours.insert(entry(node, change));
            }
            let error_file = recorded.join(format!("{node}.error"));
            let json_file = recorded.join(format!("{node}.json"));
            if error_file.exists() {
                // The same located error, on the new side.
                let puppet = std::fs::read_to_string(&error_file).unwrap();
                let puppet = puppet
                    .trim()
                    .strip_suffix(&format!(" on node {node}"))
                    .unwrap_or(puppet.trim())
                    .to_string();
                let failures = group["failures"].as_array().expect("failures");
                let to: Vec<&str> = failures
                    .iter()
                    .filter(|f| f["side"] == "to")
                    .filter_map(|f| f["error"].as_str())
                    .collect();
                assert_eq!(to, [puppet.as_str()], "{node}'s compile failure");
                assert!(failures.iter().all(|f| f["side"] == "to"), "{node}");
            } else {
                let recorded: Value =
                    serde_json::from_str(&std::fs::read_to_string(&json_file).unwrap_or_else(
                        |_| panic!("no recording for {node}: run scripts/octocatalog-diff-record"),
                    ))
                    .expect("octocatalog-diff's JSON");
                for change in recorded["diff"].as_array().expect("diff") {
                    theirs.insert(entry(node, change));
                }
            }
        }
    }
    assert_eq!(nodes, 6, "every node of the fixture is compared");
    assert!(
        theirs.len() >= 20,
        "the recordings are too small: {theirs:?}"
    );
    let known = known_differences(&fixture);
    let is_known = |e: &String| {
        known.iter().any(|(node, rule)| {
            let (who, what) = e.split_once(' ').unwrap();
            (node == "*" || node == who) && what.starts_with(rule.as_str())
        })
    };
    let missing: Vec<&String> = theirs.difference(&ours).collect();
    let extra: Vec<&String> = ours.difference(&theirs).filter(|e| !is_known(e)).collect();
    let stale: Vec<&(String, String)> = known
        .iter()
        .filter(|(node, rule)| {
            !ours.iter().any(|e| {
                let (who, what) = e.split_once(' ').unwrap();
                (node == "*" || node == who)
                    && what.starts_with(rule.as_str())
                    && !theirs.contains(e)
            })
        })
        .collect();
    assert!(
        missing.is_empty() && extra.is_empty() && stale.is_empty(),
        "octocatalog-diff reported and Marionette did not:\n{}\n\nMarionette reported and octocatalog-diff did not (not in known-differences.txt):\n{}\n\nknown differences that no longer occur:\n{stale:?}",
        missing
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        extra
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n"),
    );
}

fn git(dir: &Path, args: &[&str]) {
    let status = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args([
            "-c",
            "user.name=mrtest",
            "-c",
            "user.email=mrtest@example.com",
        ])
        .args(args)
        .status()
        .expect("git runs: apt-get install -y git");
    assert!(status.success(), "git {args:?}");
}

fn copy_tree(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A control repository in a new directory: the old tree tagged
/// `mrtest-old`, the new one on `main`; `modules/` left out of both when
/// a Puppetfile deploys them.
fn control_repo(fixture: &Path, name: &str, with_modules: bool) -> PathBuf {
    let repo = std::env::temp_dir().join(format!("mrtest-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&repo);
    std::fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "-q", "-b", "main"]);
    for (side, last) in [("from", false), ("to", true)] {
        // Each tree replaces the one before whole, removals included.
        for entry in std::fs::read_dir(&repo).unwrap() {
            let path = entry.unwrap().path();
            if path.file_name().is_some_and(|n| n != ".git") {
                if path.is_dir() {
                    std::fs::remove_dir_all(&path).unwrap();
                } else {
                    std::fs::remove_file(&path).unwrap();
                }
            }
        }
        copy_tree(&fixture.join(side), &repo);
        if !with_modules {
            std::fs::write(repo.join(".gitignore"), "/modules/\n").unwrap();
        }
        git(&repo, &["add", "-A"]);
        git(&repo, &["commit", "-q", "-m", side]);
        if !last {
            git(&repo, &["tag", "mrtest-old"]);
        }
    }
    repo
}

#[test]
fn git_refs_compare_as_the_trees_they_hold() {
    let fixture = fixture();
    let by_dirs = run_diff(&words(
        "--from {fixture}/from --to {fixture}/to --facts {fixture}/facts --format json",
        &fixture,
    ));
    let repo = control_repo(&fixture, "control-repo", true);
    let by_refs = run_diff(&words(
        &format!(
            "--repo {} --from mrtest-old --to main --facts {{fixture}}/facts --format json",
            repo.display()
        ),
        &fixture,
    ));
    assert_eq!(
        by_refs.status.code(),
        Some(6),
        "{}",
        String::from_utf8_lossy(&by_refs.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&by_refs.stdout),
        String::from_utf8_lossy(&by_dirs.stdout)
    );
    // A ref that is not one, and one that looks like an option, are
    // usage errors.
    for bad in ["mrtest-no-such-ref", "--output=/tmp/x"] {
        let output = run_diff(&[
            "--repo".into(),
            repo.display().to_string(),
            format!("--from={bad}"),
            "--to".into(),
            "main".into(),
            "--facts".into(),
            fixture.join("facts").display().to_string(),
        ]);
        assert_eq!(output.status.code(), Some(1), "{bad}");
        assert!(
            String::from_utf8_lossy(&output.stderr).contains("neither a directory"),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(&repo);

    // Modules a Puppetfile deploys are not in the repository: with each
    // side's given, the diff is the same.
    let repo = control_repo(&fixture, "puppetfile-repo", false);
    let deployed = run_diff(&words(
        &format!(
            "--repo {} --from mrtest-old --to main --from-modulepath {{fixture}}/from/modules \
             --to-modulepath {{fixture}}/to/modules --facts {{fixture}}/facts --format json",
            repo.display()
        ),
        &fixture,
    ));
    // The same, but where the modules are: their file names are outside
    // the side's directory now, so named in full.
    let without_files = |output: &Output| -> Value {
        let mut report: Value = serde_json::from_slice(&output.stdout)
            .unwrap_or_else(|_| panic!("JSON: {}", String::from_utf8_lossy(&output.stderr)));
        for group in report["groups"].as_array_mut().unwrap() {
            for change in group["diff"].as_array_mut().unwrap() {
                let change = change.as_object_mut().unwrap();
                change.remove("old_file");
                change.remove("new_file");
            }
        }
        report
    };
    assert!(
        String::from_utf8_lossy(&deployed.stdout).contains("\"old_file\": \"/"),
        "the modules were not found where given"
    );
    assert!(
        without_files(&deployed) == without_files(&by_dirs),
        "given modules diff otherwise than the same modules in the tree"
    );
    let _ = std::fs::remove_dir_all(&repo);
}

#[test]
fn usage_errors_exit_1() {
    let fixture = fixture();
    // The same node's facts twice.
    let twice = std::env::temp_dir().join(format!("mrtest-twice-{}", std::process::id()));
    std::fs::create_dir_all(&twice).unwrap();
    for name in ["db-0003.example.com.yaml", "db-0003.example.com.json"] {
        std::fs::copy(
            fixture.join("facts/db-0003.example.com.yaml"),
            twice.join(name),
        )
        .unwrap();
    }
    let output = run_diff(&[
        "--from".into(),
        fixture.join("from").display().to_string(),
        "--to".into(),
        fixture.join("to").display().to_string(),
        "--facts".into(),
        twice.display().to_string(),
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("Two facts files for node db-0003"));
    let _ = std::fs::remove_dir_all(&twice);
    for args in [
        "--from {fixture}/from --to {fixture}/to --facts {fixture}/facts --ignore File",
        "--from {fixture}/from --to {fixture}/to --facts {fixture}/facts --ignore File[x]content=~>(",
        "--from {fixture}/from --to {fixture}/to",
        "--from {fixture}/from --to {fixture}/to --facts {fixture}/facts --format yaml",
        "--from {fixture}/from --to {fixture}/to --facts {fixture}/facts --nodes mrtest-none",
        "--from {fixture}/from --to {fixture}/to --facts {fixture}/mrtest-missing.yaml",
    ] {
        let output = run_diff(&words(args, &fixture));
        assert_eq!(output.status.code(), Some(1), "{args}");
        assert!(output.stdout.is_empty(), "{args}");
    }
}

/// The fixture's nodes stored as a server stores them, one deactivated.
fn store_fixture_nodes(store: &marionette_storage::Store, fixture: &Path) {
    use marionette_storage::commands;
    for entry in std::fs::read_dir(fixture.join("facts")).unwrap() {
        let path = entry.unwrap().path();
        let node = path.file_stem().unwrap().to_string_lossy().into_owned();
        let facts = marionette_facts::load_facts_file(&path).expect("facts");
        let payload = commands::replace_facts(&node, "production", &facts, None, "mrtest-server");
        let (command, version) = commands::REPLACE_FACTS;
        store
            .submit(command, version, &node, &payload)
            .expect("stored");
    }
    // A node deactivated is not compared.
    let (command, version) = commands::DEACTIVATE_NODE;
    store
        .submit(
            command,
            version,
            "base-0005.example.com",
            &commands::deactivate_node("base-0005.example.com"),
        )
        .expect("deactivated");
}

/// `catalog diff --storage` with `where_stored` (the storage's options)
/// reports what the fixture's facts files give for the active nodes.
fn reports_as_the_facts_files(fixture: &Path, where_stored: &str) {
    let stored = run_diff(&words(
        &format!(
            "--from {{fixture}}/from --to {{fixture}}/to --storage {where_stored} --format json"
        ),
        fixture,
    ));
    let from_files = run_diff(&words(
        "--from {fixture}/from --to {fixture}/to --facts {fixture}/facts --nodes web-*,db-*,app-* --format json",
        fixture,
    ));
    assert_eq!(
        stored.status.code(),
        Some(6),
        "{}",
        String::from_utf8_lossy(&stored.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&stored.stdout),
        String::from_utf8_lossy(&from_files.stdout)
    );
}

#[test]
fn nodes_and_facts_come_from_the_servers_storage_too() {
    use marionette_storage::Store;
    let fixture = fixture();
    let vardir = std::env::temp_dir().join(format!("mrtest-storage-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&vardir);
    let store = Store::open(&vardir.join("storage/marionette.sqlite3")).expect("a storage");
    store_fixture_nodes(&store, &fixture);
    drop(store);
    let vardir_text = vardir.display().to_string();
    reports_as_the_facts_files(&fixture, &format!("--vardir {vardir_text}"));
    // A query chooses among them.
    let queried = run_diff(&[
        "--from".into(),
        fixture.join("from").display().to_string(),
        "--to".into(),
        fixture.join("to").display().to_string(),
        "--storage".into(),
        "--vardir".into(),
        vardir_text.clone(),
        "--query".into(),
        r#"["=", "certname", "db-0003.example.com"]"#.into(),
        "--format".into(),
        "json".into(),
    ]);
    let report: Value = serde_json::from_slice(&queried.stdout).expect("JSON");
    assert_eq!(report["summary"]["nodes"], 1, "{report}");
    assert_eq!(report["groups"][0]["nodes"][0], "db-0003.example.com");
    let _ = std::fs::remove_dir_all(&vardir);
}

/// The same from a server's PostgreSQL storage (`--storage-url`): the
/// active nodes' facts give the report the facts files give.
#[test]
fn nodes_and_facts_come_from_a_postgresql_storage() {
    let cluster = cluster::Cluster::start();
    let fixture = fixture();
    let store = marionette_storage::Store::connect(&cluster.url()).expect("the database");
    store_fixture_nodes(&store, &fixture);
    drop(store);
    reports_as_the_facts_files(&fixture, &format!("--storage-url {}", cluster.url()));
    // A database nobody answers at is said so.
    let down = run_diff(&words(
        "--from {fixture}/from --to {fixture}/to --storage --storage-url postgresql://postgres@127.0.0.1:1/mrtest",
        &fixture,
    ));
    assert_eq!(down.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&down.stderr)
            .contains("could not connect to the storage's database"),
        "{}",
        String::from_utf8_lossy(&down.stderr)
    );
}

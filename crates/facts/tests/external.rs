//! External facts: every format and every way a file can be broken. Each
//! case is a facts.d directory, the facts that must come out of it and the
//! errors that must be reported; all other facts must still resolve.
//!
//! The cases run one after the other in a single test: writing an
//! executable while another thread forks can make running it fail with
//! "text file busy".

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::{Duration, Instant};

use marionette_facts::{FactError, Options, System, collect};
use serde_json::{Value, json};

/// A file of a facts.d directory: name, contents, executable or not.
type File = (&'static str, &'static str, bool);

struct Case {
    name: &'static str,
    files: &'static [File],
    /// Facts that must be present with these values, as JSON.
    facts: &'static str,
    /// Names that must be absent.
    absent: &'static [&'static str],
    /// The kinds of the errors reported, in order, each with the file name.
    errors: &'static [(&'static str, &'static str)],
}

fn kind(error: &FactError) -> &'static str {
    match error {
        FactError::ExternalRead { .. } => "read",
        FactError::ExternalParse { .. } => "parse",
        FactError::ExternalNotMapping { .. } => "not-mapping",
        FactError::ExternalNotExecutable { .. } => "not-executable",
        FactError::ExternalSpawn { .. } => "spawn",
        FactError::ExternalFailed { .. } => "failed",
        FactError::ExternalTimeout { .. } => "timeout",
        FactError::ExternalStderr { .. } => "stderr",
        _ => "other",
    }
}

const CASES: &[Case] = &[
    Case {
        name: "yaml with YAML 1.1 scalars as Ruby reads them",
        files: &[(
            "a.yaml",
            "Role: web\nports: [80, 443]\nenabled: yes\nmode: 0755\nwhen: 2024-01-02\n",
            false,
        )],
        facts: r#"{"role": "web", "ports": [80, 443], "enabled": true, "mode": 493, "when": "2024-01-02"}"#,
        absent: &[],
        errors: &[],
    },
    Case {
        name: "yml, json and txt",
        files: &[
            ("b.yml", "from_yml:\n  nested: [1, {k: v}]\n", false),
            ("c.json", "{\"from_json\": 1.5, \"nothing\": null}", false),
            (
                "d.txt",
                "Key=value=1\nnot a fact\nempty=\n\nspaced = x\n",
                false,
            ),
        ],
        facts: r#"{
            "from_yml": {"nested": [1, {"k": "v"}]},
            "from_json": 1.5,
            "key": "value=1",
            "spaced ": " x"
        }"#,
        // A fact whose value is null has no value, as in Facter.
        absent: &["empty", "not a fact", "nothing"],
        errors: &[],
    },
    Case {
        name: "executables printing key=value, JSON and YAML",
        files: &[
            ("e.sh", "#!/bin/sh\necho K1=one\necho k2=two\n", true),
            (
                "f",
                "#!/bin/sh\necho '{\"from_json_exe\": [1, true]}'\n",
                true,
            ),
            (
                "g.rb",
                "#!/bin/sh\nprintf 'from_yaml_exe:\\n  a: 1\\n'\n",
                true,
            ),
        ],
        facts: r#"{"k1": "one", "k2": "two", "from_json_exe": [1, true], "from_yaml_exe": {"a": 1}}"#,
        absent: &[],
        errors: &[],
    },
    Case {
        name: "the extension wins over the execute bit",
        files: &[("h.yaml", "#!/bin/sh\necho not=run\n", true)],
        facts: r#"{}"#,
        absent: &["not"],
        // Read as YAML, it is a comment and a string.
        errors: &[("not-mapping", "h.yaml")],
    },
    Case {
        name: "bad YAML and bad JSON are reported, the rest still resolves",
        files: &[
            ("bad.yaml", "x: [\n", false),
            ("bad.json", "{\"x\": ", false),
            ("good.txt", "good=yes\n", false),
        ],
        facts: r#"{"good": "yes", "kernel": "Linux"}"#,
        absent: &["x"],
        errors: &[("parse", "bad.json"), ("parse", "bad.yaml")],
    },
    Case {
        name: "a file that is not a mapping",
        files: &[
            ("list.yaml", "- a\n- b\n", false),
            ("empty.yaml", "", false),
        ],
        facts: r#"{}"#,
        absent: &[],
        errors: &[("not-mapping", "list.yaml")],
    },
    Case {
        name: "a script without its execute bit",
        files: &[("script.sh", "#!/bin/sh\necho a=b\n", false)],
        facts: r#"{}"#,
        absent: &["a"],
        errors: &[("not-executable", "script.sh")],
    },
    Case {
        name: "an executable exiting non-zero",
        files: &[(
            "fail.sh",
            "#!/bin/sh\necho half=done\necho broken >&2\nexit 3\n",
            true,
        )],
        facts: r#"{}"#,
        absent: &["half"],
        errors: &[("failed", "fail.sh")],
    },
    Case {
        name: "an executable that does not finish is killed",
        files: &[
            ("slow.sh", "#!/bin/sh\necho early=1\nsleep 30\n", true),
            ("fast.txt", "fast=1\n", false),
        ],
        facts: r#"{"fast": "1"}"#,
        absent: &["early"],
        errors: &[("timeout", "slow.sh")],
    },
    Case {
        name: "an executable that leaves a process holding its output",
        files: &[("daemon.sh", "#!/bin/sh\nsleep 30 &\necho d=1\n", true)],
        facts: r#"{}"#,
        absent: &["d"],
        errors: &[("timeout", "daemon.sh")],
    },
    Case {
        name: "an executable printing on stderr gives a warning",
        files: &[("warn.sh", "#!/bin/sh\necho careful >&2\necho w=1\n", true)],
        facts: r#"{"w": "1"}"#,
        absent: &[],
        errors: &[("stderr", "warn.sh")],
    },
    Case {
        name: "unknown extensions and dot files are passed over",
        files: &[
            ("notes.md", "a=b\n", false),
            ("README", "just text\n", false),
            (".hidden.yaml", "hidden: 1\n", false),
            (".hidden.sh", "#!/bin/sh\necho hidden2=1\n", true),
        ],
        facts: r#"{}"#,
        absent: &["a", "hidden", "hidden2"],
        errors: &[],
    },
    Case {
        name: "external facts replace built-in ones; later files replace earlier ones",
        files: &[
            (
                "1.yaml",
                "kernel: mine\nos: {family: Custom}\nsame: first\n",
                false,
            ),
            ("2.txt", "same=second\nosfamily=Legacy\n", false),
        ],
        facts: r#"{"kernel": "mine", "os": {"family": "Custom"}, "same": "second", "osfamily": "Legacy"}"#,
        absent: &[],
        errors: &[],
    },
];

fn write_files(directory: &Path, files: &[File]) {
    for (name, contents, executable) in files {
        let path = directory.join(name);
        std::fs::write(&path, contents).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mode = if *executable { 0o755 } else { 0o644 };
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
}

fn fixture() -> System {
    let directory = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/vm");
    System::fixture(directory).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn external_facts_in_every_format_and_failure() {
    let mut failures = Vec::new();
    for case in CASES {
        let directory = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        write_files(directory.path(), case.files);
        let options = Options {
            system: fixture(),
            external_dirs: vec![directory.path().to_path_buf()],
            external_timeout: Duration::from_millis(500),
            environment_facts: false,
            ..Options::default()
        };
        let start = Instant::now();
        let collection = collect(&options);
        let elapsed = start.elapsed();
        if elapsed > Duration::from_secs(5) {
            failures.push(format!("{}: took {elapsed:?}", case.name));
        }
        let expected: Value =
            serde_json::from_str(case.facts).unwrap_or_else(|e| panic!("{}: {e}", case.name));
        for (name, expected) in expected.as_object().into_iter().flatten() {
            let found = collection.facts.get(name);
            if found != Some(expected) {
                failures.push(format!(
                    "{}: fact {name} is {found:?}, expected {expected}",
                    case.name
                ));
            }
        }
        for name in case.absent {
            if let Some(found) = collection.facts.get(*name) {
                failures.push(format!(
                    "{}: fact {name} should be absent, is {found}",
                    case.name
                ));
            }
        }
        if collection.facts.get("networking").is_none() {
            failures.push(format!("{}: the built-in facts are missing", case.name));
        }
        let errors: Vec<(&str, String)> = collection
            .errors
            .iter()
            .map(|error| (kind(error), error.to_string()))
            .collect();
        let expected_errors = case.errors.len() == errors.len()
            && case
                .errors
                .iter()
                .zip(&errors)
                .all(|((kind, file), (found_kind, message))| {
                    kind == found_kind && message.contains(file)
                });
        if !expected_errors {
            failures.push(format!(
                "{}: errors {errors:?}, expected {:?}",
                case.name, case.errors
            ));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn later_directories_replace_earlier_ones() {
    let first = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let second = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    write_files(
        first.path(),
        &[("a.txt", "who=first\nonly_first=1\n", false)],
    );
    write_files(second.path(), &[("a.txt", "who=second\n", false)]);
    let options = Options {
        system: fixture(),
        external_dirs: vec![first.path().to_path_buf(), second.path().to_path_buf()],
        environment_facts: false,
        ..Options::default()
    };
    let collection = collect(&options);
    assert_eq!(collection.facts.get("who"), Some(&json!("second")));
    assert_eq!(collection.facts.get("only_first"), Some(&json!("1")));
    assert!(collection.errors.is_empty(), "{:?}", collection.errors);
}

#[test]
fn no_external_facts_when_disabled() {
    let directory = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    write_files(directory.path(), &[("a.txt", "present=1\n", false)]);
    let options = Options {
        system: fixture(),
        external: false,
        external_dirs: vec![directory.path().to_path_buf()],
        environment_facts: false,
        ..Options::default()
    };
    let collection = collect(&options);
    assert_eq!(collection.facts.get("present"), None);
}

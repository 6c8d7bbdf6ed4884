//! `marionette facts`: output forms, external fact errors and exit codes.
//! Each case runs the binary with arguments (and a facts.d directory made
//! for it) and states what stdout and stderr must contain.

use std::path::Path;
use std::process::Command;

struct Case {
    args: &'static [&'static str],
    /// Files for the facts.d directory passed with --external-dir (added
    /// when there are any); names ending in `.sh` are made executable.
    external: &'static [(&'static str, &'static str)],
    status: i32,
    stdout: &'static [&'static str],
    not_stdout: &'static [&'static str],
    stderr: &'static [&'static str],
}

const CASES: &[Case] = &[
    Case {
        args: &["kernel"],
        external: &[],
        status: 0,
        stdout: &["Linux\n"],
        not_stdout: &["=>"],
        stderr: &[],
    },
    Case {
        args: &["kernel", "facterversion", "no_such_fact"],
        external: &[],
        status: 0,
        stdout: &["facterversion => 4.3.0\nkernel => Linux\nno_such_fact => \n"],
        not_stdout: &[],
        stderr: &[],
    },
    Case {
        args: &["os.selinux"],
        external: &[],
        status: 0,
        stdout: &["{\n  enabled => "],
        not_stdout: &[],
        stderr: &[],
    },
    Case {
        args: &["--json", "kernel", "no_such_fact"],
        external: &[],
        status: 0,
        stdout: &["{\n  \"kernel\": \"Linux\",\n  \"no_such_fact\": null\n}\n"],
        not_stdout: &[],
        stderr: &[],
    },
    Case {
        args: &[],
        external: &[],
        status: 0,
        stdout: &["{\n  \"", "  \"kernel\": \"Linux\",\n", "\"networking\": {"],
        not_stdout: &["\"osfamily\""],
        stderr: &[],
    },
    Case {
        args: &["--show-legacy"],
        external: &[],
        status: 0,
        stdout: &["\"osfamily\": ", "\"kernel\": \"Linux\""],
        not_stdout: &[],
        stderr: &[],
    },
    Case {
        args: &["--yaml"],
        external: &[],
        status: 0,
        stdout: &["kernel: \"Linux\"\n", "facterversion: 4.3.0\n"],
        not_stdout: &["{\n"],
        stderr: &[],
    },
    Case {
        args: &["osfamily"],
        external: &[],
        status: 0,
        stdout: &["\n"],
        not_stdout: &["=>"],
        stderr: &[],
    },
    Case {
        args: &["--timing", "kernel"],
        external: &[],
        status: 0,
        stdout: &["Linux"],
        not_stdout: &[],
        stderr: &[
            "fact group 'os', took: (",
            "fact group 'networking', took: (",
        ],
    },
    Case {
        args: &["role", "kernel"],
        external: &[("role.txt", "role=web\n"), ("broken.yaml", "x: [\n")],
        status: 1,
        stdout: &["kernel => Linux\nrole => web\n"],
        not_stdout: &[],
        // Located in the message, not in a snippet of an unnamed input.
        stderr: &[
            "Error: Could not parse external fact file ",
            "broken.yaml as YAML: unclosed bracket '[' at line 1, column 4\n",
        ],
    },
    Case {
        args: &["--no-external", "role"],
        external: &[("role.txt", "role=web\n")],
        status: 0,
        stdout: &["\n"],
        not_stdout: &["web"],
        stderr: &[],
    },
    Case {
        args: &["--external-timeout", "0.2", "slow"],
        external: &[("slow.sh", "#!/bin/sh\nsleep 20\n")],
        status: 1,
        stdout: &["\n"],
        not_stdout: &[],
        stderr: &[
            "Error: External fact ",
            "slow.sh did not finish within 0.2 seconds",
        ],
    },
    Case {
        args: &["--no-such-option"],
        external: &[],
        // A usage error exits 1, as facter's does.
        status: 1,
        stdout: &[],
        not_stdout: &["Linux"],
        stderr: &["--no-such-option"],
    },
];

fn run(case: &Case, directory: &Path) -> (i32, String, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_marionette"));
    command.arg("facts").args(case.args);
    if !case.external.is_empty() {
        command.arg("--external-dir").arg(directory);
    }
    let output = command.output().unwrap_or_else(|e| panic!("{e}"));
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn facts_command_prints_as_facter_does() {
    let mut failures = Vec::new();
    for case in CASES {
        let directory = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        for (name, contents) in case.external {
            let path = directory.path().join(name);
            std::fs::write(&path, contents).unwrap_or_else(|e| panic!("{e}"));
            if name.ends_with(".sh") {
                use std::os::unix::fs::PermissionsExt;
                std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
                    .unwrap_or_else(|e| panic!("{e}"));
            }
        }
        let (status, stdout, stderr) = run(case, directory.path());
        let label = format!("marionette facts {}", case.args.join(" "));
        if status != case.status {
            failures.push(format!(
                "{label}: exit status {status}, expected {}\n{stderr}",
                case.status
            ));
        }
        for expected in case.stdout {
            if !stdout.contains(expected) {
                failures.push(format!("{label}: stdout lacks {expected:?}:\n{stdout}"));
            }
        }
        for unexpected in case.not_stdout {
            if stdout.contains(unexpected) {
                failures.push(format!("{label}: stdout has {unexpected:?}"));
            }
        }
        for expected in case.stderr {
            if !stderr.contains(expected) {
                failures.push(format!("{label}: stderr lacks {expected:?}:\n{stderr}"));
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn facter_environment_variables_give_facts() {
    let output = Command::new(env!("CARGO_BIN_EXE_marionette"))
        .args(["facts", "--no-external", "role", "kernel"])
        .env("FACTER_role", "from the environment")
        .env("FACTER_kernel", "Overridden")
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        stdout,
        "kernel => Overridden\nrole => from the environment\n"
    );
}

/// All facts on a terminal come in Facter's `name => value` form, sorted
/// by name; in a pipe, as JSON a program reads. The terminal is `script`'s
/// pseudo-terminal (util-linux, in every Debian).
#[test]
fn all_facts_are_text_on_a_terminal_and_json_in_a_pipe() {
    let binary = env!("CARGO_BIN_EXE_marionette");
    let terminal = Command::new("script")
        .args([
            "-qec",
            &format!("{binary} facts --no-external"),
            "/dev/null",
        ])
        .output()
        .expect("`script` runs (apt-get install -y bsdutils)");
    let text = String::from_utf8_lossy(&terminal.stdout).replace("\r\n", "\n");
    assert!(text.contains("\nkernel => Linux\n"), "{text}");
    assert!(text.contains("os => {\n  architecture => \""), "{text}");
    let names: Vec<&str> = text
        .lines()
        .filter(|line| !line.starts_with([' ', '}', ']']))
        .filter_map(|line| line.split(" => ").next())
        .collect();
    let mut sorted = names.clone();
    sorted.sort_unstable();
    assert_eq!(names, sorted);
    let piped = Command::new(binary)
        .args(["facts", "--no-external"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let json: serde_json::Value = serde_json::from_slice(&piped.stdout).expect("JSON in a pipe");
    assert_eq!(json["kernel"], "Linux");
}

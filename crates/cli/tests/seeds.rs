//! The seed article's own Ruby: its `dns_resource` type and `nsupdate`
//! provider (`tests/seeds/modules/dns_seed`, the article's code unchanged)
//! applied step after step (`tests/seeds/steps/NN_*.pp`) against a private
//! BIND, and compared with what the real `puppet apply` printed and left in
//! the zone for the same steps.
//!
//! The article's code assumes a server on port 53 and a key in
//! `/etc/bind/rndc-key`; the test gives it both: a `named` on 127.0.0.2
//! port 53 (the address added to `lo` for the test) and the fixture's
//! update key in that file, both restored afterwards.
//! It needs root, Ruby and BIND (`scripts/test` installs them).
//!
//! `MRTEST_RECORD_WITH_PUPPET=1` runs `puppet apply`, `puppet describe`
//! and `puppet resource` instead and writes the recordings.

mod common;
#[path = "../../types/tests/named/mod.rs"]
mod named;

use std::path::{Path, PathBuf};
use std::process::Command;

use named::Named;

const SERVER: &str = "127.0.0.2";
const KEY_FILE: &str = "/etc/bind/rndc-key";

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/seeds")
}

fn modules() -> String {
    corpus().join("modules").display().to_string()
}

/// Gives the loopback interface the server's address for the test: BIND
/// listens on the addresses of interfaces only, and 127.0.0.1 port 53 may
/// be the machine's own resolver's. Removed when dropped, if added here.
struct AddressOnLoopback {
    added: bool,
}

impl AddressOnLoopback {
    fn new() -> AddressOnLoopback {
        let output = Command::new("ip")
            .args(["-4", "addr", "add", &format!("{SERVER}/32"), "dev", "lo"])
            .output()
            .expect("`ip` runs (apt-get install -y iproute2)");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            output.status.success() || stderr.contains("File exists"),
            "could not add {SERVER} to lo (this test runs as root): {stderr}"
        );
        AddressOnLoopback {
            added: output.status.success(),
        }
    }
}

impl Drop for AddressOnLoopback {
    fn drop(&mut self) {
        if self.added {
            let _ = Command::new("ip")
                .args(["-4", "addr", "del", &format!("{SERVER}/32"), "dev", "lo"])
                .output();
        }
    }
}

/// Puts the fixture's update key where the article's provider reads it,
/// and puts back what was there when dropped.
struct KeyInPlace {
    before: Option<Vec<u8>>,
}

impl KeyInPlace {
    fn new(named: &Named) -> KeyInPlace {
        let path = Path::new(KEY_FILE);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap_or_else(|e| {
            panic!("/etc/bind: {e}; this test runs as root (scripts/test runs it so)")
        });
        let before = std::fs::read(path).ok();
        std::fs::copy(&named.keyfile, path)
            .unwrap_or_else(|e| panic!("{KEY_FILE}: {e}; this test runs as root"));
        KeyInPlace { before }
    }
}

impl Drop for KeyInPlace {
    fn drop(&mut self) {
        let _ = match &self.before {
            Some(bytes) => std::fs::write(KEY_FILE, bytes),
            None => std::fs::remove_file(KEY_FILE),
        };
    }
}

/// The records the steps manage, as the server answers for them.
fn zone_state(named: &Named) -> String {
    let mut state = String::new();
    for (name, rtype) in [
        ("www.mrtest.example", "A"),
        ("alias.mrtest.example", "CNAME"),
    ] {
        state.push_str(&format!(
            "{name} {rtype} {:?} ttl {:?}\n",
            named.dig(name, rtype),
            named.dig_ttl(name, rtype)
        ));
    }
    state
}

/// The log lines of a run that the comparison keeps: not the timed
/// catalog lines, nor the node's name; sorted, since the two tools log a
/// resource's changes in their own order.
fn messages(text: &str) -> Vec<String> {
    let mut lines: Vec<String> = text
        .lines()
        .filter(|l| {
            !l.starts_with("Notice: Compiled catalog")
                && !l.starts_with("Notice: Applied catalog")
                && !l.starts_with("Info: ")
        })
        .map(|l| match l.rfind(" on node ") {
            Some(i) => l[..i].to_string(),
            None => l.to_string(),
        })
        .collect();
    lines.sort();
    lines
}

/// Runs `marionette` (or `puppet` when recording) with `args`, from the
/// steps' directory; what it printed.
fn run(record: bool, args: &[&str], vardir: &Path) -> String {
    let mut command = if record {
        let mut command = Command::new("puppet");
        command.args(args).arg("--color=false");
        command
    } else {
        let mut command = Command::new(env!("CARGO_BIN_EXE_marionette"));
        command.args(args);
        if args[0] == "apply" {
            command.arg("--vardir").arg(vardir);
        }
        command
    };
    let output = command
        .current_dir(corpus().join("steps"))
        .env("NO_COLOR", "1")
        .output()
        .expect("the command runs");
    // The checkout's place is left out (Puppet names a manifest by its
    // absolute path, Marionette as it was given), and Facter's complaints
    // about the machine Puppet was recorded on.
    let steps = corpus().join("steps");
    let steps = std::fs::canonicalize(&steps).unwrap_or(steps);
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
    .replace(&format!("{}/", steps.display()), "")
    .lines()
    .filter(|line| !line.starts_with("Error: Facter:"))
    .map(|line| format!("{line}\n"))
    .collect()
}

/// Compares what a step gave with its recording (or writes the
/// recording); the difference, if any.
fn check(
    record: bool,
    name: &str,
    actual: &str,
    recorded: &Path,
    same: fn(&str, &str) -> bool,
) -> Option<String> {
    if record {
        std::fs::write(recorded, actual).expect("the recording is written");
        return None;
    }
    let expected =
        std::fs::read_to_string(recorded).unwrap_or_else(|e| panic!("{}: {e}", recorded.display()));
    (!same(actual, &expected))
        .then(|| format!("{name}: Marionette gave\n{actual}--- Puppet gave\n{expected}"))
}

#[test]
fn the_seed_dns_type_and_provider_apply_as_with_puppet() {
    assert!(
        Command::new("ruby")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success()),
        "Ruby is missing: install it with `apt-get install -y ruby` (scripts/test does as root)"
    );
    let record = std::env::var_os("MRTEST_RECORD_WITH_PUPPET").is_some();
    let _address = AddressOnLoopback::new();
    let named = Named::start_at(SERVER, 53, &["mrtest.example"]);
    let _key = KeyInPlace::new(&named);
    let vardir = tempfile::tempdir().expect("a temporary directory");
    let modules = modules();
    let steps = corpus().join("steps");
    let mut problems = Vec::new();
    for case in common::case_files(&steps, "pp") {
        let name = case.file_name().unwrap().to_string_lossy().to_string();
        let mut args = vec!["apply", "--modulepath", &modules, &name];
        if name.contains("_noop") {
            args.push("--noop");
        }
        let printed = run(record, &args, vardir.path());
        problems.extend(check(
            record,
            &name,
            &printed,
            &case.with_extension("out"),
            |a, b| messages(a) == messages(b),
        ));
        let state = zone_state(&named);
        problems.extend(check(
            record,
            &format!("{name}, the zone"),
            &state,
            &case.with_extension("zone"),
            |a, b| a == b,
        ));
        if name.starts_with("02_") {
            // One record as `puppet resource` shows it, from the server.
            let printed = run(
                record,
                &[
                    "resource",
                    "--modulepath",
                    &modules,
                    "dns_resource",
                    "www.mrtest.example/A",
                    &format!("nameserver={SERVER}"),
                    "ttl=3600",
                ],
                vardir.path(),
            );
            problems.extend(check(
                record,
                "resource",
                &printed,
                &steps.join("resource.out"),
                |a, b| messages(a) == messages(b),
            ));
        }
    }
    let printed = run(
        record,
        &["describe", "--modulepath", &modules, "dns_resource"],
        vardir.path(),
    );
    problems.extend(check(
        record,
        "describe",
        &printed,
        &steps.join("describe.out"),
        |a, b| a == b,
    ));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

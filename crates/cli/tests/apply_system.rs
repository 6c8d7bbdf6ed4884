//! `marionette apply` on the real machine against the real `puppet apply`:
//! the manifests in `tests/data/apply/` work under `/tmp/mrtest-apply`,
//! which `setup.sh` and then the case's own `CASE.setup.sh` (when there is
//! one) prepare; for each, what Puppet printed and the files it left were
//! recorded by `scripts/puppet-record-apply-system`. Marionette must print
//! the same lines, leave the same files (type, mode, content or target),
//! change nothing on a second run, change nothing in noop (the cases of
//! `NOOP_CASES`), and keep a backup of every file it removed or replaced.
//! A case with a `CASE.change.sh` is changed by it after the second run,
//! then applied in noop and for real (the `audit` metaparameter's case).
//! A `CASE.args` gives both runs more arguments (the module path of the
//! `concat*` cases, which use Debian's Forge modules).
//!
//! The `package_*` and `service_*` cases manage `mrtest-*` packages and
//! daemons, outside `/tmp/mrtest-apply`: their `CASE.state.sh` prints what
//! the system holds (dpkg's status, whether the daemon runs, rc links),
//! which the state compares too, and their `CASE.cleanup.sh` removes it
//! after the case, whether it passed or not. The `mount*` cases keep to a
//! scratch mount table under `/tmp/mrtest-apply`; `mount_live` mounts
//! small tmpfs file systems there (never elsewhere), which its state script
//! lists and its cleanup unmounts. Where Marionette deliberately
//! does otherwise than Puppet, `known-differences.txt` says why and
//! `marionette/CASE.WHAT` holds what Marionette does instead.
mod common;
use common::timeless;

use std::path::{Path, PathBuf};
use std::process::Command;

const ROOT: &str = "/tmp/mrtest-apply";

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/apply")
        .join(name)
}

/// The cases also applied with `--noop` first (the recorder has the same
/// list).
const NOOP_CASES: &[&str] = &[
    "files",
    "links",
    "filebucket",
    "package_dpkg",
    "package_apt_absent",
    "service_base",
    "service_debian",
    "file_line",
    "ini_setting",
    "ini_subsetting",
    "concat",
    "ssh_authorized_key",
    "sshkey",
    "mount",
    "mount_live",
    "recurse",
    "user_purge_ssh_keys",
];

/// Runs the case's cleanup script, when it has one, when dropped: after the
/// case, or while a failed assertion unwinds.
struct Cleanup(String);

impl Drop for Cleanup {
    fn drop(&mut self) {
        let script = data(&format!("{}.cleanup.sh", self.0));
        if script.exists() {
            let done = Command::new("sh").arg(&script).status();
            if !matches!(done, Ok(status) if status.success()) {
                eprintln!("cleanup of {} failed: {done:?}", self.0);
            }
        }
    }
}

fn setup(case: &str) {
    let status = Command::new("sh").arg(data("setup.sh")).status().unwrap();
    assert!(status.success());
    let extra = data(&format!("{case}.setup.sh"));
    if extra.exists() {
        let status = Command::new("sh").arg(extra).status().unwrap();
        assert!(status.success());
    }
}

/// The case's extra arguments (`CASE.args`, separated by white space),
/// given to `puppet apply` and `marionette apply` alike.
fn case_args(manifest: &Path) -> Vec<String> {
    std::fs::read_to_string(manifest.with_extension("args"))
        .map(|text| text.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default()
}

fn apply(manifest: &Path, vardir: &Path, extra: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_marionette"))
        .args(["apply", "--certname", "mrtest.example.com", "--vardir"])
        .arg(vardir)
        .args(case_args(manifest).into_iter().map(|arg| {
            // Only the modules the cases use: every installed module's
            // custom facts would be resolved at each run otherwise (apt's
            // run `apt-get` for seconds).
            if arg == "/usr/share/puppet/modules" {
                common::applied::only_modules(&[
                    "stdlib",
                    "inifile",
                    "concat",
                    "sshkeys_core",
                    "mount_core",
                ])
            } else {
                arg
            }
        }))
        .args(extra)
        .arg(manifest)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    // As the recorder drops Facter's complaints about the machine from
    // Puppet's output (modules' custom facts included).
    let stderr: String = String::from_utf8_lossy(&output.stderr)
        .lines()
        .filter(|line| !line.starts_with("Error: Facter:"))
        .map(|line| format!("{line}\n"))
        .collect();
    // The cases' directory depends on the checkout, as the recorder
    // knows: `(file: CASE.pp, ...)`.
    let here = format!("{}/", data("").display().to_string().trim_end_matches('/'));
    format!(
        "{}--- stderr\n{}",
        timeless(&String::from_utf8_lossy(&output.stdout)),
        timeless(&stderr)
    )
    .replace(&here, "")
}

/// A file's content with the time of Puppet's parsed-file header (`#
/// HEADER: This file was autogenerated at TIME`, which changes at every
/// run) replaced by `TIME`, as the recorder does before the digest.
fn timeless_header(content: Vec<u8>) -> Vec<u8> {
    const START: &[u8] = b"# HEADER: This file was autogenerated at ";
    let Some(at) = content
        .windows(START.len())
        .position(|w| w == START)
        .filter(|&at| at == 0 || content[at - 1] == b'\n')
    else {
        return content;
    };
    let from = at + START.len();
    let to = content[from..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(content.len(), |end| from + end);
    [&content[..from], b"TIME", &content[to..]].concat()
}

/// The files under the root, in the recorder's format, then what the
/// case's state script says about the system.
fn state(case: &str) -> String {
    fn walk(dir: &Path, out: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            let meta = std::fs::symlink_metadata(&path).unwrap();
            let mode = format!(
                "{:04o}",
                std::os::unix::fs::PermissionsExt::mode(&meta.permissions()) & 0o7777
            );
            let shown = path.display();
            if meta.file_type().is_symlink() {
                out.push(format!(
                    "{shown} link {mode} {}",
                    std::fs::read_link(&path).unwrap().display()
                ));
            } else if meta.is_dir() {
                out.push(format!("{shown} directory {mode} -"));
                walk(&path, out);
            } else {
                let content = timeless_header(std::fs::read(&path).unwrap());
                let digest = marionette_ral::filebucket::sha256_hex(&content);
                out.push(format!("{shown} file {mode} {digest}"));
            }
        }
    }
    let mut entries = Vec::new();
    walk(Path::new(ROOT), &mut entries);
    entries.sort();
    let mut text: String = entries.iter().map(|e| format!("{e}\n")).collect();
    let script = data(&format!("{case}.state.sh"));
    if script.exists() {
        let output = Command::new("sh").arg(script).output().unwrap();
        assert!(output.status.success(), "state script of {case}");
        text.push_str("--- system\n");
        text.push_str(&String::from_utf8_lossy(&output.stdout));
    }
    text
}

/// The recordings Marionette deliberately differs from, as `CASE.WHAT`
/// names, from `known-differences.txt` (`CASE.WHAT: reason` lines).
fn known_differences() -> Vec<String> {
    std::fs::read_to_string(data("known-differences.txt"))
        .unwrap()
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|line| {
            let (name, reason) = line.split_once(": ").expect("CASE.WHAT: reason");
            assert!(!reason.trim().is_empty(), "{name} needs a reason");
            assert!(
                data(&format!("marionette/{name}")).exists(),
                "marionette/{name} holds what Marionette does"
            );
            name.to_string()
        })
        .collect()
}

/// What Marionette must produce for a recording: Puppet's, unless it is a
/// known difference.
fn expect(name: &str) -> String {
    let file = if known_differences().iter().any(|known| known == name) {
        data(&format!("marionette/{name}"))
    } else {
        data(name)
    };
    std::fs::read_to_string(file).unwrap()
}

#[test]
fn apply_does_what_puppet_apply_does() {
    let mut cases: Vec<String> = std::fs::read_dir(data(""))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter_map(|name| name.strip_suffix(".pp").map(str::to_string))
        .collect();
    cases.sort();
    assert_eq!(
        cases,
        [
            "audit",
            "classes",
            "concat",
            "concat_errors",
            "concat_source_late",
            "failure",
            "file_line",
            "file_line_failures",
            "file_line_multiple",
            "file_line_no_line",
            "file_line_relative",
            "filebucket",
            "files",
            "ini_setting",
            "ini_setting_relative",
            "ini_subsetting",
            "ini_subsetting_quote",
            "links",
            "links_tree",
            "max_files",
            "mount",
            "mount_invalid",
            "mount_live",
            "package_apt",
            "package_apt_absent",
            "package_dpkg",
            "package_dpkg_absent",
            "package_dpkg_known",
            "package_dpkg_purged",
            "package_failure",
            "purge_late",
            "recurse",
            "recurse_skipped",
            "recurse_source_late",
            "refresh_failure",
            "schedule",
            "service_base",
            "service_base_commands",
            "service_base_refresh",
            "service_base_stopped",
            "service_debian",
            "service_debian_enable",
            "service_debian_refresh",
            "service_debian_stopped",
            "service_failure",
            "sourceselect",
            "ssh_authorized_key",
            "ssh_authorized_key_errors",
            "ssh_authorized_key_user",
            "sshkey",
            "tidy",
            "user_own_group",
            "user_password",
            "user_purge_ssh_keys"
        ]
    );
    // `APPLY_SYSTEM_CASES=a,b` runs only those cases, while working on them.
    let only = std::env::var("APPLY_SYSTEM_CASES").unwrap_or_default();
    for case in &cases {
        if !only.is_empty() && !only.split(',').any(|c| c == case) {
            continue;
        }
        let cleanup = Cleanup(case.clone());
        let manifest = data(&format!("{case}.pp"));
        let vardir = tempfile::tempdir().unwrap();
        if NOOP_CASES.contains(&case.as_str()) {
            setup(case);
            assert_eq!(
                apply(&manifest, vardir.path(), &["--noop"]),
                expect(&format!("{case}.noop.out")),
                "noop run of {case}"
            );
            assert_eq!(
                state(case),
                expect(&format!("{case}.noop.state")),
                "noop changes nothing"
            );
        }
        setup(case);
        assert_eq!(
            apply(&manifest, vardir.path(), &[]),
            expect(&format!("{case}.first.out")),
            "first run of {case}"
        );
        assert_eq!(
            state(case),
            expect(&format!("{case}.state")),
            "files after {case}"
        );
        assert_eq!(
            apply(&manifest, vardir.path(), &[]),
            expect(&format!("{case}.second.out")),
            "second run of {case}"
        );
        assert_eq!(
            state(case),
            expect(&format!("{case}.state")),
            "files after the second run of {case}"
        );
        // Changes made behind the runs' back, then a noop run and a real
        // one.
        let change = data(&format!("{case}.change.sh"));
        if change.exists() {
            let status = Command::new("sh").arg(&change).status().unwrap();
            assert!(status.success(), "{}", change.display());
            assert_eq!(
                apply(&manifest, vardir.path(), &["--noop"]),
                expect(&format!("{case}.changed.noop.out")),
                "noop run of {case} after the change"
            );
            assert_eq!(
                apply(&manifest, vardir.path(), &[]),
                expect(&format!("{case}.changed.out")),
                "run of {case} after the change"
            );
            assert_eq!(
                state(case),
                expect(&format!("{case}.changed.state")),
                "files after the run of {case} after the change"
            );
        }
        if case == "files" {
            // The removed file was saved first, and can be brought back.
            let bucket = marionette_ral::Filebucket::new(vardir.path().join("clientbucket"));
            let saved = bucket.list().unwrap();
            assert_eq!(saved.len(), 1, "{saved:?}");
            assert_eq!(saved[0].path, "/tmp/mrtest-apply/old");
            assert_eq!(bucket.get(&saved[0].sum).unwrap(), b"stale\n");
            let restored = Command::new(env!("CARGO_BIN_EXE_marionette"))
                .args([
                    "filebucket",
                    "restore",
                    "/tmp/mrtest-apply/old",
                    &saved[0].sum,
                    "--vardir",
                ])
                .arg(vardir.path())
                .output()
                .unwrap();
            assert!(
                restored.status.success(),
                "{}",
                String::from_utf8_lossy(&restored.stderr)
            );
            assert_eq!(
                std::fs::read_to_string("/tmp/mrtest-apply/old").unwrap(),
                "stale\n"
            );
        }
        if case == "filebucket" {
            // Both old contents went to the named bucket, not the run's.
            let named = marionette_ral::Filebucket::new("/tmp/mrtest-apply-bucket");
            for (path, content) in [
                ("/tmp/mrtest-apply/backed-up", "old content\n"),
                ("/tmp/mrtest-apply/removed", "doomed\n"),
            ] {
                let sum = marionette_ral::filebucket::sha256_hex(content.as_bytes());
                assert_eq!(named.get(&sum).unwrap(), content.as_bytes(), "{path}");
                assert!(named.list().unwrap().iter().any(|e| e.path == path));
            }
            let own = marionette_ral::Filebucket::new(vardir.path().join("clientbucket"));
            assert!(own.list().unwrap().is_empty());
            std::fs::remove_dir_all("/tmp/mrtest-apply-bucket").unwrap();
        }
        // Cleaned up first, as the recorder does: a case's cleanup unmounts
        // what it mounted under the root.
        drop(cleanup);
        std::fs::remove_dir_all(ROOT).unwrap();
    }
}

#[test]
fn a_changed_file_is_diffed_backed_up_and_shown_in_the_report() {
    let vardir = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("motd");
    std::fs::write(&target, "old text\n").unwrap();
    let manifest = dir.path().join("site.pp");
    std::fs::write(
        &manifest,
        format!(
            "file {{ '{}': content => \"new text\\n\" }}\n",
            target.display()
        ),
    )
    .unwrap();
    // In noop the diff is shown too, before the noop change, as Puppet
    // shows it, and the file is left alone.
    let noop = apply(
        &manifest,
        vardir.path(),
        &["--noop", "--detailed-exitcodes", "--show_diff"],
    );
    let diff_at = noop
        .find("\n@@ -1 +1 @@\n-old text\n+new text\n")
        .unwrap_or_else(|| panic!("the noop diff is shown: {noop}"));
    assert!(
        noop[diff_at..].contains("(noop)"),
        "the diff comes before the noop change: {noop}"
    );
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "old text\n");
    let output = apply(
        &manifest,
        vardir.path(),
        &["--detailed-exitcodes", "--show_diff"],
    );
    assert!(
        output.contains("\n@@ -1 +1 @@\n-old text\n+new text\n"),
        "the diff is shown: {output}"
    );
    assert!(
        output.contains(&format!(
            "/File[{}]/content: content changed '{{sha256}}{}' to '{{sha256}}{}'",
            target.display(),
            marionette_ral::filebucket::sha256_hex(b"old text\n"),
            marionette_ral::filebucket::sha256_hex(b"new text\n")
        )),
        "{output}"
    );
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "new text\n");
    let bucket = marionette_ral::Filebucket::new(vardir.path().join("clientbucket"));
    assert_eq!(
        bucket
            .get(&marionette_ral::filebucket::sha256_hex(b"old text\n"))
            .unwrap(),
        b"old text\n"
    );
    let report: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(vardir.path().join("state/last_run_report.json")).unwrap(),
    )
    .unwrap();
    let status = &report["resource_statuses"][format!("File[{}]", target.display())];
    assert_eq!(status["events"][0]["name"], "content_changed");
    assert_eq!(status["changed"], true);
}

#[test]
fn purging_users_spares_system_accounts_and_managed_ones() {
    // SAFETY: geteuid(2) has no preconditions.
    assert_eq!(
        unsafe { geteuid() },
        0,
        "this test creates users: run it as root (CI does)"
    );
    let remove = || {
        for name in ["mrtest-purge-stray", "mrtest-purge-kept"] {
            let _ = Command::new("userdel").arg(name).output();
        }
    };
    remove();
    for (name, uid) in [
        ("mrtest-purge-stray", "5101"),
        ("mrtest-purge-kept", "5102"),
    ] {
        let made = Command::new("useradd")
            .args(["-u", uid, name])
            .status()
            .unwrap();
        assert!(made.success());
    }
    let vardir = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let manifest = dir.path().join("site.pp");
    // Only a rehearsal: the machine's other accounts must survive the test.
    std::fs::write(
        &manifest,
        "resources { 'user': purge => true, noop => true }\nuser { 'mrtest-purge-kept': ensure => present }\n",
    )
    .unwrap();
    let output = apply(&manifest, vardir.path(), &[]);
    remove();
    assert!(
        output.contains(
            "Notice: /Stage[main]/Main/User[mrtest-purge-stray]/ensure: current_value 'present', should be 'absent' (noop)\n"
        ),
        "{output}"
    );
    assert!(
        !output.contains("User[mrtest-purge-kept]/ensure"),
        "{output}"
    );
    for system in ["root", "nobody", "daemon", "bin"] {
        assert!(!output.contains(&format!("User[{system}]")), "{output}");
    }
}

unsafe extern "C" {
    fn geteuid() -> u32;
}

#[test]
fn module_files_are_sources_through_the_modulepath() {
    let vardir = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let modules = dir.path().join("modules");
    std::fs::create_dir_all(modules.join("mrtest_motd/files/sub")).unwrap();
    std::fs::write(
        modules.join("mrtest_motd/files/sub/motd"),
        "from the module\n",
    )
    .unwrap();
    let target = dir.path().join("motd");
    let missing = dir.path().join("missing");
    let manifest = dir.path().join("site.pp");
    std::fs::write(
        &manifest,
        format!(
            "file {{ '{}': source => 'puppet:///modules/mrtest_motd/sub/motd' }}\n\
             file {{ '{}': source => 'puppet:///modules/mrtest_motd/nope' }}\n",
            target.display(),
            missing.display()
        ),
    )
    .unwrap();
    let modulepath = modules.display().to_string();
    let output = apply(&manifest, vardir.path(), &["--modulepath", &modulepath]);
    assert_eq!(
        std::fs::read_to_string(&target).unwrap(),
        "from the module\n",
        "{output}"
    );
    assert!(
        output.contains(&format!(
            "File[{}]: Could not evaluate: Could not retrieve information from environment production source(s) puppet:///modules/mrtest_motd/nope",
            missing.display(),
        )),
        "{output}"
    );
    assert!(!missing.exists());
}

#[test]
fn recursion_warns_above_a_thousand_entries_unless_max_files_says_otherwise() {
    let vardir = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big");
    std::fs::create_dir(&big).unwrap();
    for i in 0..1001 {
        std::fs::write(big.join(format!("f{i}")), "").unwrap();
    }
    let manifest = dir.path().join("site.pp");
    let write = |max_files: &str| {
        std::fs::write(
            &manifest,
            format!(
                "file {{ '{}': recurse => true, mode => '0600'{max_files} }}\n",
                big.display()
            ),
        )
        .unwrap();
    };
    write("");
    let output = apply(&manifest, vardir.path(), &[]);
    assert!(
        output.contains(&format!(
            "Warning: The directory '{}' contains 1001 entries, which exceeds the default soft limit 1000 and may cause excessive resource consumption and degraded performance. To remove this warning set a value for `max_files` parameter or consider using an alternate method to manage large directory trees\n",
            big.display()
        )),
        "{output}"
    );
    // The files were managed all the same.
    let mode = std::fs::metadata(big.join("f1000")).unwrap().permissions();
    assert_eq!(
        std::os::unix::fs::PermissionsExt::mode(&mode) & 0o777,
        0o600
    );
    write(", max_files => -1");
    assert!(!apply(&manifest, vardir.path(), &[]).contains("Warning"));
    write(", max_files => 1001");
    assert!(!apply(&manifest, vardir.path(), &[]).contains("Warning"));
    // Over a limit, the run goes on but counts as failed.
    write(", max_files => 1000");
    let output = apply(&manifest, vardir.path(), &["--detailed-exitcodes"]);
    assert!(
        output.contains("contains 1001 entries, which exceeds the limit of 1000"),
        "{output}"
    );
    let run = Command::new(env!("CARGO_BIN_EXE_marionette"))
        .args(["apply", "--detailed-exitcodes", "--vardir"])
        .arg(vardir.path())
        .arg(&manifest)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(4));
}

#[test]
fn a_named_bucket_is_listed_and_restored_with_its_directory() {
    let vardir = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let bucket = dir.path().join("bucket");
    let target = dir.path().join("motd");
    std::fs::write(&target, "before\n").unwrap();
    let manifest = dir.path().join("site.pp");
    std::fs::write(
        &manifest,
        format!(
            "filebucket {{ 'local': path => '{}' }}\nfile {{ '{}': content => \"after\\n\", backup => 'local' }}\n",
            bucket.display(),
            target.display()
        ),
    )
    .unwrap();
    apply(&manifest, vardir.path(), &[]);
    let bucket_arg = bucket.display().to_string();
    let listed = common::marionette(&["filebucket", "list", "--bucket", &bucket_arg]);
    let sum = marionette_ral::filebucket::sha256_hex(b"before\n");
    assert!(
        listed.stdout.contains(&format!("{sum} ")),
        "{}",
        listed.output()
    );
    assert!(listed.stdout.contains(&target.display().to_string()));
    let target_arg = target.display().to_string();
    let restored = common::marionette(&[
        "filebucket",
        "restore",
        &target_arg,
        &sum,
        "--bucket",
        &bucket_arg,
    ]);
    assert_eq!(restored.code, 0, "{}", restored.output());
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "before\n");
    // A server's bucket, with no server to keep it: the change fails and
    // the file is kept as it was.
    std::fs::write(
        &manifest,
        format!(
            "filebucket {{ 'main': path => false, server => 'puppet.example.com' }}\nfile {{ '{}': content => \"x\\n\", backup => 'main' }}\n",
            target.display()
        ),
    )
    .unwrap();
    let output = apply(&manifest, vardir.path(), &[]);
    assert!(
        output.contains(
            "Filebucket main is a Puppet server's (path => false), and this run has no server"
        ),
        "{output}"
    );
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "before\n");
}

#[test]
fn the_service_provider_follows_process_one_as_puppets_does() {
    // SAFETY: geteuid(2) has no preconditions.
    assert_eq!(
        unsafe { geteuid() },
        0,
        "this test mounts in a mount namespace of its own: run it as root (CI does)"
    );
    // Puppet asks process 1's name whether systemd runs the machine, not
    // /run/systemd/system: a container that shares the host's /run, or a
    // chroot on a systemd host with the host's /proc, must pick what
    // Puppet picks. The run gets an empty /run of its own, with and
    // without systemd's directory; only process 1 decides.
    let pid1_is_systemd = std::fs::read_to_string("/proc/1/comm")
        .expect("/proc/1/comm")
        .contains("systemd");
    for make in ["", "mkdir -p /run/systemd/system && "] {
        let script = format!(
            "mount -t tmpfs mrtest-run /run && {make}exec \"$0\" apply --noop --debug \
             --vardir /run/mrtest-state -e \"service {{ 'mrtest-nosuch-svc': ensure => running }}\""
        );
        let output = Command::new("unshare")
            .args(["--mount", "--propagation", "private", "sh", "-c", &script])
            .arg(env!("CARGO_BIN_EXE_marionette"))
            .env("NO_COLOR", "1")
            .output()
            .expect("unshare (util-linux) runs");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        assert_eq!(output.status.code(), Some(0), "{make}: {text}");
        assert_eq!(
            text.contains("Provider systemd is not functional on this host"),
            !pid1_is_systemd,
            "{make}: {text}"
        );
        assert!(
            text.contains("Service[mrtest-nosuch-svc]/ensure: current_value 'stopped', should be 'running' (noop)"),
            "{make}: {text}"
        );
    }
}

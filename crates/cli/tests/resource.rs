//! `marionette resource` and `marionette describe` end to end.
//!
//! The account tests change the real machine, as root (CI runs them on a
//! throwaway machine): they create, change and remove `mrtest-oracle` and
//! `mrtest-oracle-g`, and compare every step with what Puppet 7 printed
//! for the same commands (`tests/data/resource/puppet-*.txt`, recorded with
//! `puppet resource` on Debian 12), the password hash included.
//!
//! The describe tests compare with golden files; rerun with
//! `UPDATE_EXPECT=1` and review the diff when the docs change on purpose.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

/// The account tests share two names, so they run one at a time.
static ACCOUNTS: Mutex<()> = Mutex::new(());

fn marionette(args: &[&str]) -> (bool, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_marionette"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("marionette runs");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn require_root() {
    // SAFETY: geteuid(2) has no preconditions.
    let uid = unsafe { libc_geteuid() };
    assert_eq!(
        uid, 0,
        "the account tests create and delete real users: run them as root (CI does; locally: sudo -E cargo test -p marionette-cli --test resource)"
    );
}

unsafe extern "C" {
    #[link_name = "geteuid"]
    fn libc_geteuid() -> u32;
}

/// Removes the test accounts, whatever state an earlier run left.
fn clean() {
    let _ = Command::new("userdel").arg("mrtest-oracle").output();
    let _ = Command::new("groupdel").arg("mrtest-oracle-g").output();
}

/// Puppet's recording of a step.
fn puppet(name: &str) -> String {
    std::fs::read_to_string(data(&format!("resource/{name}"))).unwrap()
}

fn step(args: &[&str], recording: &str) {
    let (ok, stdout, stderr) = marionette(args);
    assert!(ok, "marionette {args:?} failed:\n{stderr}");
    assert_eq!(
        format!("{stderr}{stdout}"),
        puppet(recording),
        "marionette {args:?}"
    );
}

#[test]
fn accounts_are_created_changed_and_removed_as_puppet_does() {
    let _guard = ACCOUNTS.lock().unwrap_or_else(|e| e.into_inner());
    require_root();
    clean();
    step(
        &[
            "resource",
            "group",
            "mrtest-oracle-g",
            "ensure=present",
            "gid=4243",
        ],
        "puppet-group-create.txt",
    );
    step(
        &[
            "resource",
            "user",
            "mrtest-oracle",
            "ensure=present",
            "uid=4242",
            "gid=4243",
            "shell=/bin/sh",
            "home=/home/mrtest-oracle",
            "comment=Oracle user",
        ],
        "puppet-user-create.txt",
    );
    let passwd = std::fs::read_to_string("/etc/passwd").unwrap();
    assert!(
        passwd.contains("mrtest-oracle:x:4242:4243:Oracle user:/home/mrtest-oracle:/bin/sh\n"),
        "{passwd}"
    );
    step(
        &["resource", "user", "mrtest-oracle"],
        "puppet-user-show.txt",
    );
    step(
        &["resource", "group", "mrtest-oracle-g"],
        "puppet-group-show.txt",
    );
    // What `resource` prints applies as it is, with nothing to change:
    // the password hash is the real one, not a placeholder.
    let (ok, shown, stderr) = marionette(&["resource", "user", "mrtest-oracle"]);
    assert!(ok && shown.contains("  password "), "{shown}{stderr}");
    let vardir = tempfile::tempdir().unwrap();
    let manifest = vardir.path().join("user.pp");
    std::fs::write(&manifest, &shown).unwrap();
    let (ok, stdout, stderr) = marionette(&[
        "apply",
        "--detailed-exitcodes",
        "--vardir",
        &vardir.path().display().to_string(),
        &manifest.display().to_string(),
    ]);
    assert!(
        ok,
        "the printed user applies with nothing to do:\n{stdout}{stderr}"
    );
    assert!(!stdout.contains("changed"), "{stdout}");
    step(
        &["resource", "user", "mrtest-oracle", "shell=/bin/bash"],
        "puppet-user-change.txt",
    );
    // The second run finds nothing to do.
    step(
        &["resource", "user", "mrtest-oracle", "shell=/bin/bash"],
        "puppet-user-again.txt",
    );
    step(
        &["resource", "user", "mrtest-oracle", "ensure=absent"],
        "puppet-user-delete.txt",
    );
    step(
        &["resource", "group", "mrtest-oracle-g", "ensure=absent"],
        "puppet-group-delete.txt",
    );
    assert!(
        !std::fs::read_to_string("/etc/passwd")
            .unwrap()
            .contains("mrtest-oracle:")
    );
}

#[test]
fn noop_reports_and_changes_nothing() {
    let _guard = ACCOUNTS.lock().unwrap_or_else(|e| e.into_inner());
    require_root();
    clean();
    let (ok, stdout, stderr) = marionette(&[
        "resource",
        "user",
        "mrtest-oracle",
        "ensure=present",
        "--noop",
    ]);
    assert!(ok, "{stderr}");
    assert_eq!(
        stderr,
        "Notice: /User[mrtest-oracle]/ensure: current_value 'absent', should be 'present' (noop)\n"
    );
    assert_eq!(
        stdout,
        "user { 'mrtest-oracle':\n  ensure   => 'absent',\n  provider => 'useradd',\n}\n"
    );
    assert!(
        !std::fs::read_to_string("/etc/passwd")
            .unwrap()
            .contains("mrtest-oracle:")
    );
}

#[test]
fn bad_input_is_refused_with_the_attribute_and_value() {
    let (ok, _, stderr) = marionette(&["resource", "user", "mrtest-oracle", "uid=abc"]);
    assert!(!ok);
    assert_eq!(
        stderr,
        "Error: Parameter uid failed on User[mrtest-oracle]: expects a value of type Variant[Integer[0], Pattern[/\\A\\d+\\z/]], got String\n"
    );
    let (ok, _, stderr) = marionette(&["resource", "user", "mrtest-oracle", "colour=red"]);
    assert!(!ok);
    assert_eq!(
        stderr,
        "Error: User[mrtest-oracle]: no parameter named 'colour'\n"
    );
    // An attribute the provider lacks the features of is left alone, as
    // Puppet 7 does (saying so only in its debug output), and nothing is
    // made for it.
    let _guard = ACCOUNTS.lock().unwrap_or_else(|e| e.into_inner());
    require_root();
    clean();
    let (ok, _, stderr) = marionette(&[
        "resource",
        "user",
        "mrtest-oracle",
        "roles=admin",
        "--debug",
    ]);
    assert!(ok, "{stderr}");
    assert!(
        stderr.contains(
            "Provider useradd does not support features manages_roles; not managing attribute roles"
        ),
        "{stderr}"
    );
    assert!(
        !std::fs::read_to_string("/etc/passwd")
            .unwrap()
            .contains("mrtest-oracle:")
    );
    let (ok, _, stderr) = marionette(&["resource", "nosuchtype"]);
    assert!(!ok);
    assert_eq!(
        stderr,
        "Error: Could not run: Unknown resource type nosuchtype\n"
    );
    // A near miss gets the compiler's hint.
    let (ok, _, stderr) = marionette(&["resource", "fiel"]);
    assert!(!ok);
    assert_eq!(
        stderr,
        "Error: Could not run: Unknown resource type fiel (did you mean 'file'?)\n"
    );
}

#[test]
fn listing_users_shows_every_account_of_the_passwd_file() {
    // The other tests add and remove accounts: count while they cannot.
    let _guard = ACCOUNTS.lock().unwrap_or_else(|e| e.into_inner());
    let (ok, stdout, stderr) = marionette(&["resource", "user"]);
    assert!(ok, "{stderr}");
    let passwd = std::fs::read_to_string("/etc/passwd").unwrap();
    let accounts = passwd.lines().filter(|l| !l.is_empty()).count();
    assert_eq!(
        stdout.matches("\nuser { '").count() + 1,
        accounts,
        "{stdout}"
    );
    assert!(stdout.starts_with("user { '"), "{stdout}");
    assert!(
        stdout.contains("user { 'root':\n  ensure             => 'present',\n"),
        "{stdout}"
    );
    let (ok, json, _) = marionette(&["resource", "group", "root", "--to-json"]);
    assert!(ok);
    let parsed: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(parsed[0]["type"], "Group");
    assert_eq!(parsed[0]["parameters"]["gid"], 0);
}

/// Compares what `args` print with the golden file, no module of the
/// machine's on the module path: the golden files hold the built-in
/// types.
fn golden(args: &[&str], file: &str) {
    let mut args = args.to_vec();
    args.extend(["--basemodulepath", ""]);
    let (ok, stdout, stderr) = marionette(&args);
    assert!(ok, "{stderr}");
    let path = data(&format!("describe/{file}"));
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &stdout).unwrap();
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("{} is missing: rerun with UPDATE_EXPECT=1", path.display()));
    assert_eq!(
        stdout, expected,
        "marionette {args:?} (rerun with UPDATE_EXPECT=1 if intended)"
    );
}

#[test]
fn describe_output_is_generated_from_the_definitions() {
    golden(&["describe", "--list"], "list.txt");
    golden(&["describe", "notify"], "notify.txt");
    golden(&["describe", "--providers", "group"], "group-providers.txt");
    golden(&["describe", "--short", "user"], "user-short.txt");
    golden(&["doc", "--reference", "type"], "reference.md");
    let (ok, _, stderr) = marionette(&["describe", "nosuchtype"]);
    assert!(!ok);
    assert_eq!(stderr, "Error: Unknown resource type: 'nosuchtype'\n");
}

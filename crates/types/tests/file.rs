//! The `file` type and its `posix` provider, driven through a RAL session
//! the way a run applies resources: every test works in its own temporary
//! directory and checks both the system and the messages Puppet would
//! print.
//!
//! Ownership tests need root (CI runs as root); they fail loudly, never
//! skip, when run by anyone else.

use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use marionette_ral::{
    EventStatus, Filebucket, Level, Logger, Origin, Outcome, RalError, Registry, Resource, Session,
};
use marionette_values::Value;

fn s(text: &str) -> Value {
    Value::String(text.into())
}

fn sha256(bytes: &[u8]) -> String {
    marionette_ral::filebucket::sha256_hex(bytes)
}

struct Fixture {
    dir: tempfile::TempDir,
    registry: Arc<Registry>,
    logger: Logger,
}

impl Fixture {
    fn new() -> Fixture {
        Fixture {
            dir: tempfile::tempdir().unwrap(),
            registry: Arc::new(marionette_types::registry()),
            logger: Logger::default(),
        }
    }

    /// A path inside the fixture's directory.
    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn bucket(&self) -> Filebucket {
        Filebucket::new(self.dir.path().join("bucket"))
    }

    fn resource(&self, title: &str, attrs: &[(&str, Value)]) -> Result<Resource, RalError> {
        let type_def = self.registry.type_def("file").unwrap().clone();
        Resource::new(
            type_def,
            title,
            attrs.iter().map(|(k, v)| (k.to_string(), v.clone())),
            Origin::default(),
        )
    }

    fn file(&self, path: &Path, attrs: &[(&str, Value)]) -> Resource {
        self.resource(&path.display().to_string(), attrs)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// Evaluates a resource in a fresh session, with the fixture's
    /// filebucket.
    fn apply(&self, resource: &Resource, noop: bool) -> Outcome {
        let mut session = Session::new(self.registry.clone(), Arc::default(), self.logger.clone());
        session.set_filebucket(self.bucket());
        session.evaluate(resource, noop)
    }

    /// Evaluates and requires success.
    fn ok(&self, resource: &Resource) -> Vec<(String, String)> {
        let outcome = self.apply(resource, false);
        assert_eq!(outcome.failed, None, "{outcome:?}");
        messages(&outcome)
    }

    /// Names in the fixture directory other than the bucket: no temporary
    /// file may be left behind.
    fn listing(&self) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(self.dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name != "bucket")
            .collect();
        names.sort();
        names
    }
}

fn messages(outcome: &Outcome) -> Vec<(String, String)> {
    outcome
        .events
        .iter()
        .map(|e| (e.property.clone(), e.message.clone()))
        .collect()
}

fn pairs(expected: &[(&str, &str)]) -> Vec<(String, String)> {
    expected
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

fn mode_of(path: &Path) -> u32 {
    fs::symlink_metadata(path).unwrap().permissions().mode() & 0o7777
}

fn set_mode(path: &Path, mode: u32) {
    fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
}

/// Fails the test unless it runs as root: ownership can only be given
/// away by root, and a silently skipped test would hide a regression.
fn require_root() {
    // `id -u` answers without making the crate depend on libc.
    let output = std::process::Command::new("id").arg("-u").output().unwrap();
    let uid = String::from_utf8_lossy(&output.stdout).trim().to_string();
    assert_eq!(
        uid, "0",
        "this test changes file ownership and must run as root (CI does); it is not skipped"
    );
}

#[test]
fn a_new_file_gets_content_and_mode_in_one_step() {
    let fx = Fixture::new();
    let path = fx.path("motd");
    let resource = fx.file(&path, &[("content", s("hello\n")), ("mode", s("640"))]);
    assert_eq!(
        fx.ok(&resource),
        pairs(&[(
            "ensure",
            &format!("defined content as '{{sha256}}{}'", sha256(b"hello\n"))
        )])
    );
    assert_eq!(fs::read(&path).unwrap(), b"hello\n");
    assert_eq!(mode_of(&path), 0o640);
    assert_eq!(fx.listing(), ["motd"], "no temporary file is left");
    // Applying again changes nothing.
    assert_eq!(fx.ok(&resource), pairs(&[]));
}

#[test]
fn an_empty_file_and_a_directory_are_created() {
    let fx = Fixture::new();
    let empty = fx.path("empty");
    let resource = fx.file(&empty, &[("ensure", s("file"))]);
    assert_eq!(fx.ok(&resource), pairs(&[("ensure", "created")]));
    assert_eq!(fs::read(&empty).unwrap(), b"");
    assert_eq!(fx.ok(&resource), pairs(&[]));

    let dir = fx.path("conf.d");
    let resource = fx.file(&dir, &[("ensure", s("directory")), ("mode", s("0750"))]);
    assert_eq!(fx.ok(&resource), pairs(&[("ensure", "created")]));
    assert!(dir.is_dir());
    assert_eq!(mode_of(&dir), 0o750);
    assert_eq!(fx.ok(&resource), pairs(&[]));

    // As in Puppet, content means nothing to a directory.
    let other = fx.path("other.d");
    let with_content = fx.file(&other, &[("ensure", s("directory")), ("content", s("x"))]);
    assert_eq!(fx.ok(&with_content), pairs(&[("ensure", "created")]));
    assert!(other.is_dir());
    assert_eq!(fx.ok(&with_content), pairs(&[]));

    // An octal mode on a directory grants search wherever it grants read.
    let resource = fx.file(&dir, &[("ensure", s("directory")), ("mode", s("0644"))]);
    assert_eq!(
        fx.ok(&resource),
        pairs(&[("mode", "mode changed '0750' to '0755'")])
    );
    assert_eq!(mode_of(&dir), 0o755);
}

/// Runs that create the same directory at the same moment (separate
/// vardirs, so no run lock between them) all succeed: a directory that
/// another run made between this run's look and its `mkdir` is what was
/// asked for, not a directory to refuse to replace.
#[test]
fn a_directory_made_meanwhile_by_another_run_is_in_sync() {
    let fx = Fixture::new();
    let runs = 6;
    for round in 0..100 {
        let dir = fx.path(&format!("mrtest-race-{round}"));
        let resource = fx.file(&dir, &[("ensure", s("directory")), ("mode", s("0750"))]);
        let barrier = std::sync::Barrier::new(runs);
        let failures: Vec<String> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..runs)
                .map(|_| {
                    scope.spawn(|| {
                        barrier.wait();
                        fx.apply(&resource, false).failed
                    })
                })
                .collect();
            handles
                .into_iter()
                .filter_map(|h| h.join().unwrap())
                .map(|failure| format!("{failure:?}"))
                .collect()
        });
        assert!(failures.is_empty(), "round {round}: {failures:?}");
        assert_eq!(mode_of(&dir), 0o750);
    }
}

#[test]
fn a_content_change_is_backed_up_in_the_filebucket() {
    let fx = Fixture::new();
    let path = fx.path("app.conf");
    fs::write(&path, "old\n").unwrap();
    set_mode(&path, 0o600);
    let resource = fx.file(&path, &[("content", s("new\n"))]);
    assert_eq!(
        fx.ok(&resource),
        pairs(&[(
            "content",
            &format!(
                "content changed '{{sha256}}{}' to '{{sha256}}{}'",
                sha256(b"old\n"),
                sha256(b"new\n")
            )
        )])
    );
    assert_eq!(fs::read(&path).unwrap(), b"new\n");
    // The mode is kept when the manifest does not manage it.
    assert_eq!(mode_of(&path), 0o600);
    assert_eq!(fx.bucket().get(&sha256(b"old\n")).unwrap(), b"old\n");
    let info: Vec<String> = fx
        .logger
        .entries()
        .into_iter()
        .filter(|e| e.level == Level::Info)
        .map(|e| e.message)
        .collect();
    assert_eq!(
        info,
        [format!(
            "Filebucketed {} to puppet with sum {}",
            path.display(),
            sha256(b"old\n")
        )]
    );
    assert_eq!(fx.listing(), ["app.conf"]);
}

#[test]
fn backups_can_be_a_suffixed_copy_or_nothing() {
    let fx = Fixture::new();
    let path = fx.path("hosts");
    fs::write(&path, "one\n").unwrap();
    let resource = fx.file(&path, &[("content", s("two\n")), ("backup", s(".bak"))]);
    fx.ok(&resource);
    assert_eq!(fs::read(fx.path("hosts.bak")).unwrap(), b"one\n");
    assert!(fx.bucket().list().unwrap().is_empty());

    let resource = fx.file(
        &path,
        &[("content", s("three\n")), ("backup", Value::Boolean(false))],
    );
    fx.ok(&resource);
    assert_eq!(fs::read(&path).unwrap(), b"three\n");
    assert_eq!(fs::read(fx.path("hosts.bak")).unwrap(), b"one\n");
    assert!(fx.bucket().list().unwrap().is_empty());
}

#[test]
fn md5_checksums_word_the_messages() {
    let fx = Fixture::new();
    let path = fx.path("f");
    fs::write(&path, "a").unwrap();
    let resource = fx.file(&path, &[("content", s("b")), ("checksum", s("md5"))]);
    assert_eq!(
        fx.ok(&resource),
        pairs(&[(
            "content",
            "content changed '{md5}0cc175b9c0f1b6a831c399e269772661' to '{md5}92eb5ffee6ae2fec3ad71c777531578f'"
        )])
    );
}

#[test]
fn modes_octal_and_symbolic() {
    let fx = Fixture::new();
    let path = fx.path("script");
    fs::write(&path, "#!/bin/sh\n").unwrap();
    set_mode(&path, 0o644);
    let octal = fx.file(&path, &[("mode", s("0600"))]);
    assert_eq!(
        fx.ok(&octal),
        pairs(&[("mode", "mode changed '0644' to '0600'")])
    );
    assert_eq!(mode_of(&path), 0o600);
    assert_eq!(fx.ok(&octal), pairs(&[]));

    let symbolic = fx.file(&path, &[("mode", s("a+x"))]);
    assert_eq!(
        fx.ok(&symbolic),
        pairs(&[("mode", "mode changed '0600' to '0711' (a+x)")])
    );
    assert_eq!(mode_of(&path), 0o711);
    assert_eq!(fx.ok(&symbolic), pairs(&[]));

    let exact = fx.file(&path, &[("mode", s("u=rw,go=r"))]);
    fx.ok(&exact);
    assert_eq!(mode_of(&path), 0o644);

    // `X` searches directories, and files only when already executable.
    fx.ok(&fx.file(&path, &[("mode", s("a+X"))]));
    assert_eq!(mode_of(&path), 0o644);
    let dir = fx.path("dir");
    fs::create_dir(&dir).unwrap();
    set_mode(&dir, 0o700);
    fx.ok(&fx.file(&dir, &[("mode", s("go+rX"))]));
    assert_eq!(mode_of(&dir), 0o755);
}

#[test]
fn a_mode_alone_never_creates_a_file() {
    let fx = Fixture::new();
    let path = fx.path("missing");
    let resource = fx.file(&path, &[("mode", s("0600"))]);
    assert_eq!(fx.ok(&resource), pairs(&[]));
    assert!(!path.exists());
}

#[test]
fn owner_and_group_by_name_or_number() {
    require_root();
    let fx = Fixture::new();
    let path = fx.path("owned");
    fs::write(&path, "x").unwrap();
    std::os::unix::fs::chown(&path, Some(0), Some(0)).unwrap();
    let resource = fx.file(&path, &[("owner", s("nobody")), ("group", s("nogroup"))]);
    assert_eq!(
        fx.ok(&resource),
        pairs(&[
            ("owner", "owner changed 'root' to 'nobody'"),
            ("group", "group changed 'root' to 'nogroup'"),
        ])
    );
    let meta = fs::metadata(&path).unwrap();
    assert_eq!(meta.uid(), 65534);
    assert_eq!(
        Some(meta.gid()),
        marionette_types::types::file::resolve_gid("nogroup")
    );
    assert_eq!(fx.ok(&resource), pairs(&[]));

    // Numbers compare by id: root is 0.
    let numeric = fx.file(&path, &[("owner", Value::Integer(0)), ("group", s("0"))]);
    assert_eq!(
        fx.ok(&numeric),
        pairs(&[
            ("owner", "owner changed 'nobody' to 'root'"),
            ("group", "group changed 'nogroup' to 'root'"),
        ])
    );
    assert_eq!(fx.ok(&fx.file(&path, &[("owner", s("root"))])), pairs(&[]));
}

#[test]
fn a_new_file_is_created_with_its_owner_and_a_rewrite_reports_every_change() {
    require_root();
    let fx = Fixture::new();
    let path = fx.path("secret");
    let resource = fx.file(
        &path,
        &[
            ("content", s("s3cret\n")),
            ("owner", s("nobody")),
            ("mode", s("0400")),
        ],
    );
    let created = fx.ok(&resource);
    assert_eq!(created.len(), 1, "{created:?}");
    assert_eq!(created[0].0, "ensure");
    let meta = fs::metadata(&path).unwrap();
    assert_eq!((meta.uid(), meta.mode() & 0o7777), (65534, 0o400));

    // The rewrite applies owner and mode with the content, and the events
    // still say what changed.
    std::os::unix::fs::chown(&path, Some(0), None).unwrap();
    set_mode(&path, 0o644);
    fs::write(&path, "old\n").unwrap();
    let events = fx.ok(&resource);
    let properties: Vec<&str> = events.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(properties, ["content", "owner", "mode"], "{events:?}");
    assert_eq!(events[1].1, "owner changed 'root' to 'nobody'");
    assert_eq!(events[2].1, "mode changed '0644' to '0400'");
    let meta = fs::metadata(&path).unwrap();
    assert_eq!((meta.uid(), meta.mode() & 0o7777), (65534, 0o400));
    assert_eq!(fs::read(&path).unwrap(), b"s3cret\n");
}

#[test]
fn an_unknown_owner_fails_the_resource_and_changes_nothing() {
    let fx = Fixture::new();
    let path = fx.path("f");
    let resource = fx.file(
        &path,
        &[("content", s("x")), ("owner", s("no-such-user-mrtest"))],
    );
    let outcome = fx.apply(&resource, false);
    let failed = outcome.failed.expect("must fail");
    assert!(
        failed.contains("Could not find user no-such-user-mrtest"),
        "{failed}"
    );
    assert!(!path.exists());

    fs::write(&path, "x").unwrap();
    let resource = fx.file(&path, &[("group", s("no-such-group-mrtest"))]);
    let failed = fx.apply(&resource, false).failed.expect("must fail");
    assert!(
        failed.contains("Could not find group no-such-group-mrtest"),
        "{failed}"
    );
}

#[test]
fn links_by_target_or_by_ensure_path() {
    let fx = Fixture::new();
    let link = fx.path("current");
    let resource = fx.file(&link, &[("ensure", s("link")), ("target", s("release-1"))]);
    assert_eq!(fx.ok(&resource), pairs(&[("ensure", "created")]));
    assert_eq!(fs::read_link(&link).unwrap(), Path::new("release-1"));
    assert_eq!(fx.ok(&resource), pairs(&[]));

    let resource = fx.file(&link, &[("ensure", s("link")), ("target", s("release-2"))]);
    assert_eq!(
        fx.ok(&resource),
        pairs(&[("target", "target changed 'release-1' to 'release-2'")])
    );
    assert_eq!(fs::read_link(&link).unwrap(), Path::new("release-2"));

    // `ensure => '/path'` is a link to that path.
    let resource = fx.file(&link, &[("ensure", s("/etc/hostname"))]);
    assert_eq!(
        fx.ok(&resource),
        pairs(&[("ensure", "target changed 'release-2' to '/etc/hostname'")])
    );
    assert_eq!(fs::read_link(&link).unwrap(), Path::new("/etc/hostname"));
    assert_eq!(fx.ok(&resource), pairs(&[]));

    // `target` alone makes a link too.
    let other = fx.path("other");
    assert_eq!(
        fx.ok(&fx.file(&other, &[("target", s("current"))])),
        pairs(&[("ensure", "created")])
    );
    assert_eq!(fs::read_link(&other).unwrap(), Path::new("current"));

    // A link is replaced by a file, and a file by a link, without force.
    let file = fx.file(&other, &[("ensure", s("file")), ("content", s("x"))]);
    assert_eq!(
        fx.ok(&file),
        pairs(&[(
            "ensure",
            &format!("defined content as '{{sha256}}{}'", sha256(b"x"))
        )])
    );
    assert_eq!(fs::read(&other).unwrap(), b"x");
    let relink = fx.file(&other, &[("ensure", s("link")), ("target", s("current"))]);
    assert_eq!(
        fx.ok(&relink),
        pairs(&[("ensure", "ensure changed 'file' to 'link'")])
    );
    assert_eq!(fx.bucket().get(&sha256(b"x")).unwrap(), b"x");

    // `present` accepts a regular file, but `target` still wants a link.
    let plain = fx.path("plain");
    fs::write(&plain, "data").unwrap();
    let retarget = fx.file(&plain, &[("ensure", s("present")), ("target", s("other"))]);
    assert_eq!(
        fx.ok(&retarget),
        pairs(&[("target", "target changed 'notlink' to 'other'")])
    );
    assert_eq!(fs::read_link(&plain).unwrap(), Path::new("other"));
    assert_eq!(fx.listing(), ["current", "other", "plain"]);
}

#[test]
fn absent_removes_after_a_backup() {
    let fx = Fixture::new();
    let path = fx.path("old.conf");
    fs::write(&path, "keep me\n").unwrap();
    let resource = fx.file(&path, &[("ensure", s("absent"))]);
    assert_eq!(fx.ok(&resource), pairs(&[("ensure", "removed")]));
    assert!(!path.exists());
    assert_eq!(
        fx.bucket().get(&sha256(b"keep me\n")).unwrap(),
        b"keep me\n"
    );
    assert_eq!(fx.ok(&resource), pairs(&[]));
    // `false` is another spelling of `absent`.
    assert_eq!(
        fx.ok(&fx.file(&path, &[("ensure", Value::Boolean(false))])),
        pairs(&[])
    );
}

#[test]
fn directories_are_only_removed_or_replaced_with_force() {
    let fx = Fixture::new();
    let dir = fx.path("data");
    fs::create_dir(&dir).unwrap();
    fs::write(dir.join("inner"), "precious\n").unwrap();

    let remove = fx.file(&dir, &[("ensure", s("absent"))]);
    let failed = fx.apply(&remove, false).failed.expect("must refuse");
    assert!(
        failed.contains(&format!(
            "Not removing directory {}; use 'force' to override",
            dir.display()
        )),
        "{failed}"
    );
    assert!(dir.join("inner").exists());

    let replace = fx.file(&dir, &[("content", s("flat\n"))]);
    let failed = fx.apply(&replace, false).failed.expect("must refuse");
    assert!(failed.contains("use 'force' to override"), "{failed}");
    assert!(dir.is_dir());

    // `present` accepts the directory as it is.
    assert_eq!(
        fx.ok(&fx.file(&dir, &[("ensure", s("present"))])),
        pairs(&[])
    );

    let forced = fx.file(
        &dir,
        &[("content", s("flat\n")), ("force", Value::Boolean(true))],
    );
    assert_eq!(
        fx.ok(&forced),
        pairs(&[(
            "ensure",
            &format!("defined content as '{{sha256}}{}'", sha256(b"flat\n"))
        )])
    );
    assert_eq!(fs::read(&dir).unwrap(), b"flat\n");
    // The directory's files were saved before it went.
    assert_eq!(
        fx.bucket().get(&sha256(b"precious\n")).unwrap(),
        b"precious\n"
    );

    fs::remove_file(&dir).unwrap();
    fs::create_dir(&dir).unwrap();
    let remove = fx.file(
        &dir,
        &[("ensure", s("absent")), ("force", Value::Boolean(true))],
    );
    assert_eq!(fx.ok(&remove), pairs(&[("ensure", "removed")]));
    assert!(!dir.exists());
}

#[test]
fn noop_reports_and_changes_nothing() {
    let fx = Fixture::new();
    let path = fx.path("f");
    let resource = fx.file(&path, &[("ensure", s("file")), ("content", s("new"))]);
    let outcome = fx.apply(&resource, true);
    assert_eq!(
        messages(&outcome),
        pairs(&[("ensure", "current_value 'absent', should be 'file' (noop)")])
    );
    assert!(outcome.events.iter().all(|e| e.status == EventStatus::Noop));
    assert!(!path.exists());

    fs::write(&path, "old").unwrap();
    set_mode(&path, 0o644);
    let resource = fx.file(&path, &[("content", s("new")), ("mode", s("0600"))]);
    let outcome = fx.apply(&resource, true);
    assert_eq!(
        messages(&outcome),
        pairs(&[
            (
                "content",
                &format!(
                    "current_value '{{sha256}}{}', should be '{{sha256}}{}' (noop)",
                    sha256(b"old"),
                    sha256(b"new")
                )
            ),
            ("mode", "current_value '0644', should be '0600' (noop)"),
        ])
    );
    assert_eq!(fs::read(&path).unwrap(), b"old");
    assert_eq!(mode_of(&path), 0o644);
    assert!(fx.bucket().list().unwrap().is_empty());

    // A target for what is not a link: Puppet reads its target as
    // `notlink` (locales' /etc/default/locale).
    let resource = fx.file(&path, &[("ensure", s("present")), ("target", s("/etc/x"))]);
    assert_eq!(
        messages(&fx.apply(&resource, true)),
        pairs(&[(
            "target",
            "current_value 'notlink', should be '/etc/x' (noop)"
        )])
    );
}

#[test]
fn sensitive_content_stays_out_of_messages() {
    let fx = Fixture::new();
    let path = fx.path("token");
    let secret = Value::Sensitive(Box::new(s("hunter2")));
    let resource = fx.file(&path, &[("content", secret.clone())]);
    assert_eq!(
        fx.ok(&resource),
        pairs(&[("ensure", "changed [redacted] to [redacted]")])
    );
    assert_eq!(fs::read(&path).unwrap(), b"hunter2");
    fs::write(&path, "old").unwrap();
    let outcome = fx.apply(&resource, true);
    assert_eq!(
        messages(&outcome),
        pairs(&[(
            "content",
            "current_value [redacted], should be [redacted] (noop)"
        )])
    );
    assert_eq!(
        fx.ok(&resource),
        pairs(&[("content", "changed [redacted] to [redacted]")])
    );
}

#[test]
fn validate_cmd_refuses_bad_content_and_leaves_the_file_alone() {
    let fx = Fixture::new();
    let path = fx.path("sudoers");
    fs::write(&path, "good old\n").unwrap();
    let check = |content: &str| {
        fx.file(
            &path,
            &[
                ("content", s(content)),
                (
                    "validate_cmd",
                    s("grep -q good % || { echo not good >&2; exit 3; }"),
                ),
            ],
        )
    };
    let outcome = fx.apply(&check("bad\n"), false);
    let failed = outcome.failed.expect("must refuse");
    // In Puppet's words, with the path of the new content under the name
    // Ruby's temporary files have (`sudoers20261202-4711-1x9k2q`), shown
    // as Puppet shows the command: the path in place of `%`.
    let shown = format!("failed: Execution of 'grep -q good {}20", path.display());
    let (_, tail) = failed
        .split_once(&shown)
        .unwrap_or_else(|| panic!("{failed}"));
    assert!(
        tail.ends_with(" || { echo not good >&2; exit 3; }' returned 3: not good"),
        "{failed}"
    );
    assert_eq!(fs::read(&path).unwrap(), b"good old\n");
    assert_eq!(fx.listing(), ["sudoers"], "no temporary file is left");
    // The shell's own errors name it `sh`, as under Ruby's `exec`.
    let missing = fx.file(
        &path,
        &[
            ("content", s("bad\n")),
            ("validate_cmd", s("mrtest-no-such-check % && true")),
        ],
    );
    let failed = fx.apply(&missing, false).failed.expect("must refuse");
    assert!(
        failed.ends_with("' returned 127: sh: 1: mrtest-no-such-check: not found"),
        "{failed}"
    );

    assert_eq!(fx.ok(&check("good new\n")).len(), 1);
    assert_eq!(fs::read(&path).unwrap(), b"good new\n");

    // Another placeholder, for commands that need a literal `%`.
    let custom = fx.file(
        &path,
        &[
            ("content", s("good 3\n")),
            ("validate_cmd", s("grep -q good @@")),
            ("validate_replacement", s("@@")),
        ],
    );
    fx.ok(&custom);
    assert_eq!(fs::read(&path).unwrap(), b"good 3\n");

    // A refused content fails the resource; its mode is still synced, as
    // Puppet syncs each property on its own.
    set_mode(&path, 0o644);
    let both = fx.file(
        &path,
        &[
            ("content", s("bad\n")),
            ("mode", s("0600")),
            ("validate_cmd", s("grep -q good %")),
        ],
    );
    let outcome = fx.apply(&both, false);
    assert!(
        outcome
            .failed
            .as_deref()
            .is_some_and(|f| f.ends_with("' returned 1: "))
    );
    assert_eq!(
        messages(&outcome).last(),
        Some(&(
            "mode".to_string(),
            "mode changed '0644' to '0600'".to_string()
        ))
    );
    assert_eq!(mode_of(&path), 0o600);
    assert_eq!(fs::read(&path).unwrap(), b"good 3\n");
}

#[test]
fn content_from_sources() {
    let fx = Fixture::new();
    let source = fx.path("source.txt");
    fs::write(&source, "from source\n").unwrap();
    let path = fx.path("copy.txt");
    let uri = format!("file://{}", source.display());
    let missing = fx.path("missing.txt").display().to_string();
    let resource = fx.file(
        &path,
        &[("source", Value::Array(vec![s(&missing), s(&uri)].into()))],
    );
    assert_eq!(
        fx.ok(&resource),
        pairs(&[(
            "ensure",
            &format!(
                "defined content as '{{sha256}}{}'",
                sha256(b"from source\n")
            )
        )])
    );
    assert_eq!(fs::read(&path).unwrap(), b"from source\n");
    assert_eq!(fx.ok(&resource), pairs(&[]));

    fs::write(&path, "edited\n").unwrap();
    assert_eq!(
        fx.ok(&resource),
        pairs(&[(
            "content",
            &format!(
                "content changed '{{sha256}}{}' to '{{sha256}}{}'",
                sha256(b"edited\n"),
                sha256(b"from source\n")
            )
        )])
    );
    assert_eq!(fs::read(&path).unwrap(), b"from source\n");

    // The source is read when the resource is applied, so a change made
    // after the resource was built (by an earlier resource) is copied.
    fs::write(&source, "regenerated\n").unwrap();
    assert_eq!(
        fx.ok(&resource),
        pairs(&[(
            "content",
            &format!(
                "content changed '{{sha256}}{}' to '{{sha256}}{}'",
                sha256(b"from source\n"),
                sha256(b"regenerated\n")
            )
        )])
    );
    assert_eq!(fs::read(&path).unwrap(), b"regenerated\n");

    // A source that only appears later is found then.
    let late = fx.path("late.txt");
    let late_copy = fx.path("late-copy.txt");
    fs::write(&late_copy, "stale\n").unwrap();
    let waiting = fx.file(&late_copy, &[("source", s(&late.display().to_string()))]);
    fs::write(&late, "fresh\n").unwrap();
    assert_eq!(fx.ok(&waiting).len(), 1);
    assert_eq!(fs::read(&late_copy).unwrap(), b"fresh\n");

    // No source at all: the resource fails and the file is kept.
    let resource = fx.file(&path, &[("source", s(&missing))]);
    let failed = fx.apply(&resource, false).failed.expect("must fail");
    assert!(
        failed.contains("Could not retrieve information from environment production source(s) "),
        "{failed}"
    );
    assert_eq!(fs::read(&path).unwrap(), b"regenerated\n");

    // A directory source makes a directory.
    let tree = fx.path("tree");
    fs::create_dir(&tree).unwrap();
    let made = fx.path("made");
    assert_eq!(
        fx.ok(&fx.file(&made, &[("source", s(&tree.display().to_string()))])),
        pairs(&[("ensure", "created")])
    );
    assert!(made.is_dir());
}

#[test]
fn source_permissions_copy_the_sources_mode_where_none_is_given() {
    let fx = Fixture::new();
    let source = fx.path("source.txt");
    fs::write(&source, "copied\n").unwrap();
    set_mode(&source, 0o640);
    let source = source.display().to_string();

    // `ignore`, the default: the new file gets the usual mode.
    let plain = fx.path("plain.txt");
    fx.ok(&fx.file(&plain, &[("source", s(&source))]));
    assert_ne!(mode_of(&plain), 0o640);

    // `use`: the source's mode; a mode given wins.
    let used = fx.path("used.txt");
    fx.ok(&fx.file(
        &used,
        &[("source", s(&source)), ("source_permissions", s("use"))],
    ));
    assert_eq!(mode_of(&used), 0o640);
    let given = fx.path("given.txt");
    fx.ok(&fx.file(
        &given,
        &[
            ("source", s(&source)),
            ("source_permissions", s("use")),
            ("mode", s("0600")),
        ],
    ));
    assert_eq!(mode_of(&given), 0o600);

    // `use_when_creating`: an existing file keeps its mode.
    let existing = fx.path("existing.txt");
    fs::write(&existing, "old\n").unwrap();
    set_mode(&existing, 0o644);
    fx.ok(&fx.file(
        &existing,
        &[
            ("source", s(&source)),
            ("source_permissions", s("use_when_creating")),
        ],
    ));
    assert_eq!(mode_of(&existing), 0o644);
    assert_eq!(fs::read(&existing).unwrap(), b"copied\n");
}

#[test]
fn source_timestamps_replace_only_older_files() {
    let fx = Fixture::new();
    let source = fx.path("src");
    fs::write(&source, "v1").unwrap();
    let path = fx.path("dst");
    let resource = fx.file(
        &path,
        &[
            ("source", s(&source.display().to_string())),
            ("checksum", s("mtime")),
        ],
    );
    fx.ok(&resource);
    assert_eq!(fs::read(&path).unwrap(), b"v1");
    // The copy is newer than its source: in sync, even when edited.
    fs::write(&path, "local edit").unwrap();
    assert_eq!(fx.ok(&resource), pairs(&[]));
}

#[test]
fn replace_false_only_creates() {
    let fx = Fixture::new();
    let path = fx.path("seed");
    let resource = fx.file(
        &path,
        &[
            ("content", s("initial")),
            ("replace", Value::Boolean(false)),
        ],
    );
    assert_eq!(fx.ok(&resource).len(), 1);
    fs::write(&path, "user edit").unwrap();
    assert_eq!(fx.ok(&resource), pairs(&[]));
    assert_eq!(fs::read(&path).unwrap(), b"user edit");
}

#[test]
fn content_given_as_a_checksum_comes_from_the_filebucket() {
    let fx = Fixture::new();
    let sum = fx.bucket().store(b"restored\n", "/somewhere").unwrap();
    let path = fx.path("restored");
    let resource = fx.file(&path, &[("content", s(&format!("{{sha256}}{sum}")))]);
    fx.ok(&resource);
    assert_eq!(fs::read(&path).unwrap(), b"restored\n");
}

#[test]
fn staging_location_holds_the_temporary_file() {
    let fx = Fixture::new();
    let staging = fx.path("staging");
    fs::create_dir(&staging).unwrap();
    let path = fx.path("target");
    let resource = fx.file(
        &path,
        &[
            ("content", s("staged")),
            ("staging_location", s(&staging.display().to_string())),
        ],
    );
    fx.ok(&resource);
    assert_eq!(fs::read(&path).unwrap(), b"staged");
    assert_eq!(fs::read_dir(&staging).unwrap().count(), 0);
}

/// Puppet relays Ruby's error for a file whose directory is missing or no
/// directory: opening the path (no content), or making the lock of the
/// temporary file content is written to first, a name with the date, the
/// process id and a random part. Recorded from Puppet 7's `apply`.
#[test]
fn a_missing_parent_directory_fails_in_rubys_words() {
    let fx = Fixture::new();
    let failure = |path: &Path, attrs: &[(&str, Value)]| {
        fx.apply(&fx.file(path, attrs), false)
            .failed
            .expect("must fail")
    };
    let empty = fx.path("no/such/dir/empty");
    assert_eq!(
        failure(&empty, &[("ensure", s("file"))]),
        format!(
            "change from 'absent' to 'file' failed: Could not set 'file' on ensure: \
             No such file or directory @ rb_sysopen - {}",
            empty.display()
        )
    );
    let full = fx.path("no/such/dir/full");
    let failed = failure(&full, &[("ensure", s("present")), ("content", s("x"))]);
    let (head, tail) = failed
        .split_once(&format!("{}20", full.display()))
        .unwrap_or_else(|| panic!("{failed}"));
    assert_eq!(
        head,
        "change from 'absent' to 'present' failed: Could not set 'present' on ensure: \
         No such file or directory - A directory component in "
    );
    assert!(
        tail.ends_with(".lock does not exist or is a dangling symbolic link"),
        "{failed}"
    );
    let [date, pid, random] = tail[..tail.find(".lock").unwrap()]
        .splitn(3, '-')
        .collect::<Vec<_>>()[..]
    else {
        panic!("{failed}")
    };
    assert_eq!(date.len(), 6, "{failed}");
    assert_eq!(pid, std::process::id().to_string(), "{failed}");
    assert!(
        !random.is_empty() && random.bytes().all(|b| b.is_ascii_alphanumeric()),
        "{failed}"
    );
    fs::write(fx.path("plain"), "").unwrap();
    let under_a_file = fx.path("plain/file");
    assert_eq!(
        failure(&under_a_file, &[("ensure", s("file"))]),
        format!(
            "change from 'absent' to 'file' failed: Could not set 'file' on ensure: \
             Not a directory @ rb_sysopen - {}",
            under_a_file.display()
        )
    );
}

#[test]
fn invalid_resources_are_refused_with_clear_messages() {
    let fx = Fixture::new();
    let error = |title: &str, attrs: &[(&str, Value)]| {
        fx.resource(title, attrs)
            .expect_err("must be refused")
            .to_string()
    };
    assert_eq!(
        error("relative/x", &[]),
        "Parameter path failed on File[relative/x]: File paths must be fully qualified, not 'relative/x'"
    );
    assert!(
        error("/tmp/x", &[("mode", s("0989"))]).contains("The file mode specification is invalid")
    );
    assert!(
        error("/tmp/x", &[("mode", s("u+q"))]).contains("The file mode specification is invalid")
    );
    assert!(error("/tmp/x", &[("mode", Value::Integer(644))]).contains("must be a string"));
    assert!(
        error(
            "/tmp/x",
            &[("content", s("a")), ("source", s("/etc/hosts"))]
        )
        .contains("You cannot specify more than one of content, source, target")
    );
    assert!(
        error("/tmp/x", &[("content", s("a")), ("checksum", s("mtime"))])
            .contains("You cannot specify content when using checksum 'mtime'")
    );
    assert!(error("/tmp/x", &[("checksum", s("sha512"))]).contains("not supported yet"));
    assert!(error("/tmp/x", &[("recurse", s("sideways"))]).contains("Invalid value \"sideways\""));
    assert!(error("/tmp/x", &[("ignore", s("a/b"))]).contains("ignore patterns match names"));
    assert!(error("/tmp/x", &[("links", s("sideways"))]).contains("Invalid value \"sideways\""));
    assert!(error("/tmp/x", &[("max_files", s("many"))]).contains("Invalid value \"many\""));
    assert!(error("/tmp/x", &[("max_files", Value::Integer(-2))]).contains("Invalid value -2"));
    assert!(error("/tmp/x", &[("sourceselect", s("last"))]).contains("Invalid value \"last\""));
    // SELinux contexts are accepted and ignored where SELinux is not
    // enabled, as Puppet ignores them, and refused where it is.
    let selinux = std::path::Path::new("/sys/fs/selinux/enforce").exists();
    let seltype = fx.resource("/tmp/x", &[("seltype", s("etc_t"))]);
    assert_eq!(seltype.is_err(), selinux, "{seltype:?}");
    assert!(error("/tmp/x", &[("backup", s(""))]).contains("Invalid backup type"));
    // Without a module path a module source is missing when applied,
    // not malformed.
    assert!(
        fx.resource("/tmp/x", &[("source", s("puppet:///modules/m/f"))])
            .is_ok(),
        "a module source is valid without a module path"
    );
    assert!(error("/tmp/x", &[("ensure", s("presnt"))]).contains("Invalid value \"presnt\""));
    assert!(
        error("/tmp/x", &[("ensure", s("link"))])
            .contains("Cannot create a symlink without a target")
    );
    assert!(error("/tmp/x", &[("type", s("file"))]).contains("read-only"));
}

#[test]
fn titles_lose_trailing_slashes_and_relationships_follow_the_path() {
    let fx = Fixture::new();
    let resource = fx
        .resource(
            "/srv/app/conf/",
            &[("owner", s("deploy")), ("group", s("100"))],
        )
        .unwrap();
    assert_eq!(resource.name(), "/srv/app/conf");
    let relations: Vec<(String, String)> = resource
        .auto_relations()
        .into_iter()
        .map(|(_, kind, title)| (kind, title))
        .collect();
    let expected: Vec<(String, String)> = [
        ("file", "/srv/app"),
        ("file", "/srv"),
        ("file", "/"),
        ("user", "deploy"),
    ]
    .iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    assert_eq!(relations, expected);
}

#[test]
fn the_current_state_is_reported() {
    let fx = Fixture::new();
    let path = fx.path("f");
    fs::write(&path, "abc").unwrap();
    set_mode(&path, 0o640);
    let resource = fx.file(&path, &[]);
    let mut session = Session::new(fx.registry.clone(), Arc::default(), Logger::default());
    let (provider, state) = session.retrieve(&resource).unwrap();
    assert_eq!(provider.name, "posix");
    assert_eq!(state.get("ensure"), Some(&s("file")));
    assert_eq!(
        state.get("content"),
        Some(&s(&format!("{{sha256}}{}", sha256(b"abc"))))
    );
    assert_eq!(state.get("mode"), Some(&s("0640")));
    assert_eq!(state.get("type"), Some(&s("file")));
    assert!(state.contains_key("mtime") && state.contains_key("owner"));
}

#[test]
fn links_follow_manages_what_the_link_points_to() {
    let fx = Fixture::new();
    let real = fx.path("real");
    fs::write(&real, "real\n").unwrap();
    set_mode(&real, 0o600);
    let link = fx.path("link");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let follow = ("links", s("follow"));

    // A mode goes to the file the link points to; the link stays.
    let mode = fx.file(&link, &[("mode", s("0640")), follow.clone()]);
    assert_eq!(
        fx.ok(&mode),
        pairs(&[("mode", "mode changed '0600' to '0640'")])
    );
    assert_eq!(mode_of(&real), 0o640);
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(fx.ok(&mode).is_empty(), "a second run changes nothing");
    // In noop, nothing changes.
    let noop = fx.file(&link, &[("mode", s("0600")), follow.clone()]);
    assert_eq!(fx.apply(&noop, true).events[0].status, EventStatus::Noop);
    assert_eq!(mode_of(&real), 0o640);

    // Content is compared with the linked file's; new content replaces the
    // link with a file, as in Puppet, keeping the linked file's mode and
    // backing up its content.
    let content = fx.file(&link, &[("content", s("new\n")), follow.clone()]);
    assert_eq!(
        fx.ok(&content),
        pairs(&[(
            "content",
            &format!(
                "content changed '{{sha256}}{}' to '{{sha256}}{}'",
                sha256(b"real\n"),
                sha256(b"new\n")
            )
        )])
    );
    assert!(fs::symlink_metadata(&link).unwrap().is_file());
    assert_eq!(mode_of(&link), 0o640);
    assert_eq!(fs::read(&real).unwrap(), b"real\n");
    assert_eq!(fx.bucket().get(&sha256(b"real\n")).unwrap(), b"real\n");
    assert!(fx.ok(&content).is_empty(), "a second run changes nothing");

    // Removing a followed link removes the link, not what it points to.
    fs::remove_file(&link).unwrap();
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let absent = fx.file(&link, &[("ensure", s("absent")), follow.clone()]);
    assert_eq!(fx.ok(&absent), pairs(&[("ensure", "removed")]));
    assert!(fs::symlink_metadata(&link).is_err());
    assert_eq!(fs::read(&real).unwrap(), b"real\n");

    // Through a dangling link, an empty file is made where it points.
    let dangling = fx.path("dangling");
    std::os::unix::fs::symlink("nowhere", &dangling).unwrap();
    let empty = fx.file(&dangling, &[("ensure", s("file")), follow.clone()]);
    assert_eq!(fx.ok(&empty), pairs(&[("ensure", "created")]));
    assert!(
        fs::symlink_metadata(&dangling)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(fs::read(fx.path("nowhere")).unwrap(), b"");
    assert!(fx.ok(&empty).is_empty(), "a second run changes nothing");

    // A link the resource manages itself is never followed.
    let managed = fx.file(
        &fx.path("managed"),
        &[("ensure", s("link")), ("target", s("real")), follow],
    );
    assert_eq!(fx.ok(&managed), pairs(&[("ensure", "created")]));
    assert!(fx.ok(&managed).is_empty());
}

#[test]
fn a_source_link_is_copied_as_a_link_or_followed() {
    let fx = Fixture::new();
    let real = fx.path("real");
    fs::write(&real, "real\n").unwrap();
    let source = fx.path("source");
    std::os::unix::fs::symlink("real", &source).unwrap();
    let source_text = source.display().to_string();

    let manage = fx.file(&fx.path("as-link"), &[("source", s(&source_text))]);
    assert_eq!(fx.ok(&manage), pairs(&[("ensure", "created")]));
    assert_eq!(
        fs::read_link(fx.path("as-link")).unwrap(),
        PathBuf::from("real")
    );
    assert!(fx.ok(&manage).is_empty(), "a second run changes nothing");

    let follow = fx.file(
        &fx.path("as-file"),
        &[("source", s(&source_text)), ("links", s("follow"))],
    );
    assert_eq!(
        fx.ok(&follow),
        pairs(&[(
            "ensure",
            &format!("defined content as '{{sha256}}{}'", sha256(b"real\n"))
        )])
    );
    assert!(fs::symlink_metadata(fx.path("as-file")).unwrap().is_file());
    assert!(fx.ok(&follow).is_empty(), "a second run changes nothing");
}

/// A session whose catalog holds the given resources, as a run's does.
fn with_catalog(fx: &Fixture, catalog: Vec<Resource>) -> Session {
    let mut session = Session::new(fx.registry.clone(), Arc::default(), fx.logger.clone());
    session.set_filebucket(fx.bucket());
    session.set_catalog(Arc::from(catalog));
    session
}

fn filebucket(fx: &Fixture, name: &str, attrs: &[(&str, Value)]) -> Result<Resource, RalError> {
    Resource::new(
        fx.registry.type_def("filebucket").unwrap().clone(),
        name,
        attrs.iter().map(|(k, v)| (k.to_string(), v.clone())),
        Origin::default(),
    )
}

#[test]
fn backups_go_to_the_named_filebucket() {
    let fx = Fixture::new();
    let named = fx.path("named-bucket");
    let bucket = filebucket(&fx, "main", &[("path", s(&named.display().to_string()))]).unwrap();
    let path = fx.path("app.conf");
    fs::write(&path, "old\n").unwrap();
    let file = fx.file(&path, &[("content", s("new\n")), ("backup", s("main"))]);
    let mut session = with_catalog(&fx, vec![bucket.clone(), file.clone()]);
    let outcome = session.evaluate(&file, false);
    assert_eq!(outcome.failed, None, "{outcome:?}");
    assert_eq!(
        Filebucket::new(&named).get(&sha256(b"old\n")).unwrap(),
        b"old\n"
    );
    assert!(
        fx.bucket().list().unwrap().is_empty(),
        "not the run's bucket"
    );
    assert!(fx.logger.entries().iter().any(|e| e.message
        == format!(
            "Filebucketed {} to main with sum {}",
            path.display(),
            sha256(b"old\n")
        )));
    // Evaluating the bucket itself changes nothing.
    assert!(session.evaluate(&bucket, false).events.is_empty());

    // A bucket without a path is the run's own.
    let own = filebucket(&fx, "own", &[]).unwrap();
    let file = fx.file(&path, &[("content", s("newer\n")), ("backup", s("own"))]);
    let outcome = with_catalog(&fx, vec![own, file.clone()]).evaluate(&file, false);
    assert_eq!(outcome.failed, None, "{outcome:?}");
    assert_eq!(fx.bucket().get(&sha256(b"new\n")).unwrap(), b"new\n");

    // A bucket the catalog does not declare fails the resource, which is
    // left as it was.
    let file = fx.file(&path, &[("content", s("lost\n")), ("backup", s("nosuch"))]);
    let outcome = with_catalog(&fx, vec![file.clone()]).evaluate(&file, false);
    assert!(
        outcome
            .failed
            .as_deref()
            .is_some_and(|m| m.contains("Could not find filebucket nosuch specified in backup")),
        "{outcome:?}"
    );
    assert_eq!(fs::read(&path).unwrap(), b"newer\n");
}

/// A server's bucket as a test keeps it: what was put, by sum.
#[derive(Default)]
struct ServerBucket {
    kept: std::sync::Mutex<std::collections::BTreeMap<String, (Vec<u8>, String)>>,
}

impl marionette_ral::RemoteBucket for ServerBucket {
    fn put(&self, sum: &str, bytes: &[u8], path: &str) -> std::io::Result<()> {
        self.kept
            .lock()
            .unwrap()
            .insert(sum.to_string(), (bytes.to_vec(), path.to_string()));
        Ok(())
    }

    fn get(&self, sum: &str) -> std::io::Result<Vec<u8>> {
        self.kept
            .lock()
            .unwrap()
            .get(sum)
            .map(|(bytes, _)| bytes.clone())
            .ok_or_else(|| std::io::Error::other(format!("no {sum}")))
    }
}

/// `path => false` is the server's bucket: an agent's run sends the backup
/// there; a run without a server fails the change and keeps the file.
#[test]
fn remote_filebuckets_are_the_servers() {
    let fx = Fixture::new();
    let path = fx.path("kept.txt");
    fs::write(&path, "old\n").unwrap();
    let remote = || {
        filebucket(
            &fx,
            "main",
            &[("path", Value::Boolean(false)), ("server", s("puppet"))],
        )
    };
    let file = fx.file(&path, &[("content", s("new\n")), ("backup", s("main"))]);
    let outcome = with_catalog(&fx, vec![remote().unwrap(), file.clone()]).evaluate(&file, false);
    assert!(
        outcome.failed.as_deref().is_some_and(|m| m.contains(
            "Filebucket main is a Puppet server's (path => false), and this run has no server"
        )),
        "{outcome:?}"
    );
    assert_eq!(fs::read(&path).unwrap(), b"old\n");

    let server = Arc::new(ServerBucket::default());
    let mut session = with_catalog(&fx, vec![remote().unwrap(), file.clone()]);
    session.set_remote_filebucket(marionette_ral::Filebucket::remote(server.clone()));
    let outcome = session.evaluate(&file, false);
    assert_eq!(outcome.failed, None, "{outcome:?}");
    assert_eq!(fs::read(&path).unwrap(), b"new\n");
    assert_eq!(
        server.kept.lock().unwrap().get(&sha256(b"old\n")),
        Some(&(b"old\n".to_vec(), path.display().to_string()))
    );
    // Content named by its checksum comes back from the server's bucket.
    let back = fx.file(
        &path,
        &[
            ("content", s(&format!("{{sha256}}{}", sha256(b"old\n")))),
            ("backup", s("main")),
        ],
    );
    let mut session = with_catalog(&fx, vec![remote().unwrap(), back.clone()]);
    session.set_remote_filebucket(marionette_ral::Filebucket::remote(server.clone()));
    let outcome = session.evaluate(&back, false);
    assert_eq!(outcome.failed, None, "{outcome:?}");
    assert_eq!(fs::read(&path).unwrap(), b"old\n");
}

#[test]
fn relative_filebuckets_are_refused() {
    let fx = Fixture::new();
    let error = |attrs: &[(&str, Value)]| filebucket(&fx, "b", attrs).unwrap_err().to_string();
    assert!(error(&[("path", s("relative"))]).contains("Filebucket paths must be absolute"));
    assert!(
        error(&[("path", Value::Array(vec![s("/a"), s("/b")].into()))])
            .contains("You can only have one filebucket path")
    );
    // A server with a local path is accepted: Puppet ignores it then.
    assert!(filebucket(&fx, "b", &[("path", s("/tmp/b")), ("server", s("puppet"))]).is_ok());
}

//! `service` on the real system, as root: a small daemon written by each
//! test, managed with the `base` provider (its own commands, or `binary`
//! and the process table), with the `debian` provider through an init
//! script installed for the test, and with `systemd` where systemd is the
//! init system (elsewhere, the test checks that systemd is refused with
//! its reason and is not the default).
//!
//! Every daemon is a shell loop named `mrtest-*`; a guard kills what a
//! test started and removes what it installed, also when the test fails.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

mod common;

use common::{Run, s};
use marionette_ral::log::Entry;
use marionette_ral::{EventStatus, Level, Logger, Outcome, Resource};
use marionette_values::Value;

/// These tests start daemons, install init scripts and run update-rc.d:
/// they need root, and say so rather than pass without testing anything.
fn require_root() {
    let output = Command::new("id").arg("-u").output().expect("`id -u` runs");
    let uid = String::from_utf8_lossy(&output.stdout).trim().to_string();
    assert_eq!(
        uid, "0",
        "the service tests manage daemons, init scripts and runlevel links and must run as root \
         (`id -u` says {uid}); run them in the test container or with sudo"
    );
}

fn service(title: &str, params: &[(&str, Value)]) -> Result<Resource, String> {
    common::resource("service", title, params)
}

/// The messages of an outcome's events.
fn messages(outcome: &Outcome) -> Vec<String> {
    outcome.events.iter().map(|e| e.message.clone()).collect()
}

/// Asserts a run changed exactly this, successfully.
#[track_caller]
fn assert_changed(outcome: &Outcome, expected: &[&str]) {
    assert_eq!(outcome.failed, None, "{outcome:?}");
    assert_eq!(messages(outcome), expected, "{outcome:?}");
    assert!(
        outcome
            .events
            .iter()
            .all(|e| e.status == EventStatus::Success),
        "{outcome:?}"
    );
}

/// The processes whose command line contains `needle`, other than this
/// test's own.
fn pids_with(needle: &str) -> Vec<i32> {
    let own = std::process::id() as i32;
    let mut found: Vec<i32> = std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| *pid != own)
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|bytes| {
                !bytes.is_empty()
                    && String::from_utf8_lossy(&bytes)
                        .replace('\0', " ")
                        .contains(needle)
            })
        })
        .collect();
    found.sort_unstable();
    found
}

/// Waits until `check` holds, for at most five seconds.
#[track_caller]
fn wait_for(what: &str, check: impl Fn() -> bool) {
    let started = Instant::now();
    while !check() {
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn write_executable(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// A daemon for one test: a shell loop in a temporary directory, killed
/// when the test ends however it ends.
struct Daemon {
    _dir: tempfile::TempDir,
    /// The script; its path is in the command line of every process of
    /// the daemon.
    path: PathBuf,
    /// Files and runlevel links the test installed, removed at the end.
    cleanup: Vec<Box<dyn Fn()>>,
}

impl Daemon {
    /// A daemon that stays in the foreground (start it with `&`).
    fn foreground(name: &str) -> Daemon {
        Daemon::with_body(name, "while :; do sleep 1; done\n")
    }

    /// A daemon that puts itself in the background and returns, as a
    /// `binary` must.
    fn forking(name: &str) -> Daemon {
        Daemon::with_body(
            name,
            "( while :; do sleep 1; done ) </dev/null >/dev/null 2>&1 &\n",
        )
    }

    fn with_body(name: &str, body: &str) -> Daemon {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        write_executable(
            &path,
            &format!("#!/bin/sh\n# {name}: a test daemon\n{body}"),
        );
        Daemon {
            _dir: dir,
            path,
            cleanup: Vec::new(),
        }
    }

    fn path(&self) -> String {
        self.path.to_string_lossy().into_owned()
    }

    fn pids(&self) -> Vec<i32> {
        pids_with(&self.path())
    }

    fn kill_all(&self) {
        for pid in self.pids() {
            // SAFETY: kill(2) with plain integers; a process that is gone
            // only makes it fail.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
        }
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        self.kill_all();
        for step in &self.cleanup {
            step();
        }
    }
}

#[test]
fn a_base_service_starts_stays_up_stops_and_restarts_on_refresh() {
    require_root();
    let daemon = Daemon::foreground("mrtest-basedaemon");
    let title = "mrtest-basedaemon";
    let running = service(
        title,
        &[
            ("provider", s("base")),
            ("ensure", s("running")),
            ("start", s(&format!("{} &", daemon.path()))),
        ],
    )
    .unwrap();
    let mut run = Run::new();

    // Noop: the difference is reported, nothing is started.
    let outcome = run.noop(&running);
    assert_eq!(outcome.failed, None, "{outcome:?}");
    assert_eq!(
        messages(&outcome),
        ["current_value 'stopped', should be 'running' (noop)"]
    );
    assert_eq!(outcome.events[0].status, EventStatus::Noop);
    assert!(daemon.pids().is_empty());

    let started = Instant::now();
    let outcome = run.evaluate(&running);
    assert_changed(&outcome, &["ensure changed 'stopped' to 'running'"]);
    assert_eq!(outcome.provider.as_deref(), Some("base"));
    // The daemon keeps the command's output pipe open: the run must not
    // wait for it.
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    wait_for("the daemon to start", || !daemon.pids().is_empty());
    let first = daemon.pids();

    // The status comes from the process table (no status command): a
    // second run finds the daemon and changes nothing.
    let outcome = run.evaluate(&running);
    assert_eq!(outcome.failed, None, "{outcome:?}");
    assert!(outcome.events.is_empty(), "{outcome:?}");

    // A refresh restarts it: stop (SIGTERM to the matching processes) and
    // start again.
    run.session.refresh(&running).unwrap();
    wait_for("the daemon to come back", || {
        let now = daemon.pids();
        !now.is_empty() && now.iter().all(|pid| !first.contains(pid))
    });

    let stopped = service(title, &[("provider", s("base")), ("ensure", s("stopped"))]).unwrap();
    let outcome = run.evaluate(&stopped);
    assert_changed(&outcome, &["ensure changed 'running' to 'stopped'"]);
    assert!(daemon.pids().is_empty(), "{:?}", daemon.pids());
    assert!(run.evaluate(&stopped).events.is_empty());

    // A stopped service is not started by a refresh.
    run.session.refresh(&running).unwrap();
    assert!(daemon.pids().is_empty());
    assert!(
        run.everything()
            .contains("Skipping restart; service is not running"),
        "{}",
        run.everything()
    );
}

#[test]
fn a_base_service_can_be_a_binary_found_by_pattern() {
    require_root();
    let daemon = Daemon::forking("mrtest-bindaemon");
    let running = service(
        "mrtest binary daemon",
        &[
            ("provider", s("base")),
            ("ensure", s("running")),
            ("binary", s(&daemon.path())),
            ("pattern", s("mrtest-bin[d]aemon")),
        ],
    )
    .unwrap();
    let mut run = Run::new();
    assert_changed(
        &run.evaluate(&running),
        &["ensure changed 'stopped' to 'running'"],
    );
    wait_for("the daemon to start", || !daemon.pids().is_empty());
    assert!(run.evaluate(&running).events.is_empty());
    let stopped = service(
        "mrtest binary daemon",
        &[
            ("provider", s("base")),
            ("ensure", s("stopped")),
            ("binary", s(&daemon.path())),
        ],
    )
    .unwrap();
    // Without `pattern`, the binary itself is the pattern.
    assert_changed(
        &run.evaluate(&stopped),
        &["ensure changed 'running' to 'stopped'"],
    );
    assert!(daemon.pids().is_empty());
}

#[test]
fn user_commands_run_through_the_shell_and_restart_is_used_on_refresh() {
    require_root();
    let dir = tempfile::tempdir().unwrap();
    let flag = dir.path().join("up");
    let journal = dir.path().join("journal");
    let flag_text = flag.to_string_lossy();
    let journal_text = journal.to_string_lossy();
    let params = |ensure: &str| {
        vec![
            ("provider", s("base")),
            ("ensure", s(ensure)),
            (
                "start",
                s(&format!(
                    "touch {flag_text} && echo start >> {journal_text}"
                )),
            ),
            (
                "stop",
                s(&format!("rm -f {flag_text}; echo stop >> {journal_text}")),
            ),
            ("status", s(&format!("test -f {flag_text}"))),
            (
                "restart",
                Value::Array(
                    vec![
                        s("/bin/sh"),
                        s("-c"),
                        s(&format!("echo restart >> {journal_text}")),
                    ]
                    .into(),
                ),
            ),
        ]
    };
    let mut run = Run::new();
    let running = service("mrtest-flag", &params("true")).unwrap();
    // `true` is `running`.
    assert_eq!(running.get("ensure"), Some(&s("running")));
    assert_changed(
        &run.evaluate(&running),
        &["ensure changed 'stopped' to 'running'"],
    );
    assert!(flag.exists());
    assert!(run.evaluate(&running).events.is_empty());
    run.session.refresh(&running).unwrap();
    let stopped = service("mrtest-flag", &params("stopped")).unwrap();
    assert_changed(
        &run.evaluate(&stopped),
        &["ensure changed 'running' to 'stopped'"],
    );
    assert_eq!(
        std::fs::read_to_string(&journal).unwrap(),
        "start\nrestart\nstop\n"
    );
}

#[test]
fn a_failing_or_slow_command_fails_the_change_with_its_output() {
    require_root();
    let mut run = Run::new();
    let failing = service(
        "mrtest-failing",
        &[
            ("provider", s("base")),
            ("ensure", s("running")),
            ("status", s("false")),
            ("start", s("echo cannot start >&2; exit 3")),
        ],
    )
    .unwrap();
    let outcome = run.evaluate(&failing);
    let failed = outcome.failed.unwrap_or_default();
    assert!(
        failed.contains("Could not start Service[mrtest-failing]")
            && failed.contains("returned 3: cannot start"),
        "{failed}"
    );
    let slow = service(
        "mrtest-slow",
        &[
            ("provider", s("base")),
            ("ensure", s("running")),
            ("status", s("false")),
            ("start", s("sleep 30")),
            ("timeout", Value::Integer(1)),
        ],
    )
    .unwrap();
    let started = Instant::now();
    let outcome = run.evaluate(&slow);
    assert!(started.elapsed() < Duration::from_secs(10));
    let failed = outcome.failed.unwrap_or_default();
    assert!(failed.contains("exceeded timeout"), "{failed}");
}

#[test]
fn values_are_checked_before_anything_runs() {
    let error = |params: &[(&str, Value)]| service("mrtest-x", params).unwrap_err();
    assert!(
        error(&[("ensure", s("started"))])
            .contains("Invalid value \"started\". Valid values are stopped, running."),
    );
    assert!(error(&[("enable", s("manual"))]).contains("not supported yet"));
    assert!(error(&[("flags", s("-x"))]).contains("not supported yet"));
    assert!(error(&[("control", s("X_START"))]).contains("not supported yet"));
    assert!(error(&[("logonaccount", s("svc"))]).contains("not supported yet"));
    assert!(error(&[("manifest", s("/x.xml"))]).contains("not supported yet"));
    assert!(error(&[("pattern", s("(unclosed"))]).contains("Invalid pattern"));
    assert!(error(&[("timeout", Value::Integer(0))]).contains("positive integer"));
    assert!(error(&[("start", Value::Array(vec![].into()))]).contains("non-empty"));
    // `false` is `stopped`, and enabling alone does not imply a state.
    let resource = service("mrtest-x", &[("ensure", Value::Boolean(false))]).unwrap();
    assert_eq!(resource.get("ensure"), Some(&s("stopped")));
    let resource = service("mrtest-x", &[("enable", Value::Boolean(true))]).unwrap();
    assert_eq!(resource.get("ensure"), None);
    assert_eq!(resource.get("enable"), Some(&s("true")));
    assert_eq!(resource.get("hasstatus"), Some(&s("true")));
    assert_eq!(resource.get("pattern"), Some(&s(r"mrtest\-x")));
    // `base` cannot enable services: as in Puppet 7, `enable` is then not
    // managed at all.
    let base = service(
        "mrtest-x",
        &[("provider", s("base")), ("enable", s("true"))],
    )
    .unwrap();
    let outcome = Run::new().evaluate(&base);
    assert_eq!(outcome.failed, None);
    assert!(outcome.events.is_empty());
    assert_eq!(base.get("enable"), None);
}

/// Installs `/etc/init.d/mrtest-svc` for the daemon, and removes it, its
/// runlevel links and its pid file when the daemon is dropped.
fn install_init_script(daemon: &mut Daemon) {
    let update_rc = Path::new("/usr/sbin/update-rc.d");
    assert!(
        update_rc.exists(),
        "update-rc.d is missing: install it with `apt-get install init-system-helpers`"
    );
    let script = format!(
        r#"#!/bin/sh
### BEGIN INIT INFO
# Provides:          mrtest-svc
# Required-Start:
# Required-Stop:
# Default-Start:     2 3 4 5
# Default-Stop:      0 1 6
# Short-Description: marionette test service
### END INIT INFO

DAEMON={daemon}
PIDFILE=/run/mrtest-svc.pid

running() {{
    [ -f "$PIDFILE" ] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null
}}

case "$1" in
    start)
        running && exit 0
        "$DAEMON" </dev/null >/dev/null 2>&1 &
        echo $! > "$PIDFILE"
        ;;
    stop)
        if running; then kill "$(cat "$PIDFILE")"; fi
        rm -f "$PIDFILE"
        ;;
    status)
        if running; then echo "mrtest-svc is running"; exit 0; fi
        echo "mrtest-svc is not running"
        exit 3
        ;;
    restart)
        "$0" stop
        "$0" start
        ;;
    *)
        echo "Usage: $0 {{start|stop|status|restart}}" >&2
        exit 3
        ;;
esac
exit 0
"#,
        daemon = daemon.path()
    );
    write_executable(Path::new("/etc/init.d/mrtest-svc"), &script);
    daemon.cleanup.push(Box::new(|| {
        let _ = Command::new("/usr/sbin/update-rc.d")
            .args(["-f", "mrtest-svc", "remove"])
            .output();
        let _ = std::fs::remove_file("/etc/init.d/mrtest-svc");
        let _ = std::fs::remove_file("/run/mrtest-svc.pid");
    }));
}

/// The runlevels with a start link and those with a kill link for
/// `mrtest-svc`.
fn links() -> (Vec<char>, Vec<char>) {
    let mut starts = Vec::new();
    let mut kills = Vec::new();
    for level in ['0', '1', '2', '3', '4', '5', '6', 'S'] {
        let Ok(entries) = std::fs::read_dir(format!("/etc/rc{level}.d")) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.len() > 3 && &name[3..] == "mrtest-svc" {
                match name.as_bytes()[0] {
                    b'S' => starts.push(level),
                    b'K' => kills.push(level),
                    _ => {}
                }
            }
        }
    }
    (starts, kills)
}

fn systemd_is_init() -> bool {
    std::fs::read_to_string("/proc/1/comm").is_ok_and(|comm| comm.trim() == "systemd")
}

#[test]
fn a_debian_init_script_is_started_stopped_enabled_and_disabled() {
    require_root();
    if systemd_is_init() {
        // Under systemd, init scripts run through systemd and the `debian`
        // provider is refused (see the systemd test); nothing to do here.
        let registry = Arc::new(marionette_types::registry());
        let selector =
            marionette_ral::Selector::new(registry.clone(), Arc::default(), Logger::default());
        let debian = registry.provider("service", "debian").unwrap();
        assert!(selector.unsuitable(debian).is_some());
        return;
    }
    let mut daemon = Daemon::foreground("mrtest-svcd");
    install_init_script(&mut daemon);
    let mut run = Run::new();
    let svc = |params: &[(&str, Value)]| service("mrtest-svc", params).unwrap();

    // Started and enabled in one step: Puppet syncs `enable` with `ensure`
    // and reports only the ensure change.
    let outcome = run.evaluate(&svc(&[("ensure", s("running")), ("enable", s("true"))]));
    assert_changed(&outcome, &["ensure changed 'stopped' to 'running'"]);
    assert_eq!(
        outcome.provider.as_deref(),
        Some("debian"),
        "the default provider here"
    );
    wait_for("the daemon to start", || !daemon.pids().is_empty());
    assert_eq!(links(), (vec!['2', '3', '4', '5'], vec!['0', '1', '6']));
    assert!(
        run.evaluate(&svc(&[("ensure", s("running")), ("enable", s("true"))]))
            .events
            .is_empty()
    );

    // Listed with every other init script, from its status and its links.
    let listed = run.session.instances("service").unwrap();
    let (provider, hash) = listed
        .iter()
        .find(|(_, hash)| hash.get("name") == Some(&s("mrtest-svc")))
        .expect("mrtest-svc is listed");
    assert_eq!(provider.name, "debian");
    assert_eq!(hash.get("ensure"), Some(&s("running")));
    assert_eq!(hash.get("enable"), Some(&s("true")));

    // Disabled: the start links become kill links.
    assert_changed(
        &run.evaluate(&svc(&[("enable", s("false"))])),
        &["enable changed 'true' to 'false'"],
    );
    assert_eq!(links().0, Vec::<char>::new());

    // A refresh through the script's restart action gives a new process.
    let first = daemon.pids();
    run.session
        .refresh(&svc(&[("hasrestart", s("true"))]))
        .unwrap();
    wait_for("the daemon to restart", || {
        let now = daemon.pids();
        !now.is_empty() && now.iter().all(|pid| !first.contains(pid))
    });

    // Without the script's status action, the process table tells.
    let by_pattern = svc(&[
        ("ensure", s("running")),
        ("hasstatus", s("false")),
        ("pattern", s("mrtest-svc[d]")),
    ]);
    assert!(run.evaluate(&by_pattern).events.is_empty());

    let outcome = run.evaluate(&svc(&[("ensure", s("stopped")), ("enable", s("true"))]));
    assert_changed(&outcome, &["ensure changed 'running' to 'stopped'"]);
    wait_for("the daemon to stop", || daemon.pids().is_empty());
    assert_eq!(links().0, vec!['2', '3', '4', '5']);

    // An unknown script is an error that names it.
    let outcome =
        run.evaluate(&service("mrtest-no-such-svc", &[("ensure", s("running"))]).unwrap());
    assert!(
        outcome
            .failed
            .unwrap_or_default()
            .contains("Could not find init script for 'mrtest-no-such-svc'"),
    );
    // `mask` is systemd's.
    let outcome = run.evaluate(&svc(&[("enable", s("mask"))]));
    assert!(
        outcome
            .failed
            .unwrap_or_default()
            .contains("only systemd can mask"),
        "{}",
        run.everything()
    );
}

#[test]
fn systemd_is_the_default_exactly_where_it_is_the_init_system() {
    require_root();
    let registry = Arc::new(marionette_types::registry());
    let selector =
        marionette_ral::Selector::new(registry.clone(), Arc::default(), Logger::default());
    let systemd = registry.provider("service", "systemd").unwrap();
    if !systemd_is_init() {
        let reason = selector
            .unsuitable(systemd)
            .expect("systemd is refused where it is not the init system");
        assert!(reason.contains("systemd"), "{reason}");
        let default = selector.default_provider("service").unwrap();
        assert_ne!(default.name, "systemd");
        if Path::new("/etc/init.d").is_dir() {
            assert_eq!(default.name, "debian");
        }
        let resource = service("mrtest-x", &[("provider", s("systemd"))]).unwrap();
        let error = selector.select(&resource).unwrap_err().to_string();
        assert_eq!(
            error, "Provider systemd is not functional on this host",
            "{error}"
        );
        return;
    }
    assert_eq!(selector.unsuitable(systemd), None);
    assert_eq!(
        selector.default_provider("service").unwrap().name,
        "systemd"
    );
    systemd_unit_is_managed();
}

/// With systemd as the init system: a unit file written for the test is
/// started, restarted, stopped, enabled, disabled and masked.
fn systemd_unit_is_managed() {
    let daemon = Daemon::foreground("mrtest-unitd");
    let unit = Path::new("/etc/systemd/system/mrtest-svc.service");
    std::fs::write(
        unit,
        format!(
            "[Unit]\nDescription=marionette test service\n\n[Service]\nExecStart={}\n\n[Install]\nWantedBy=multi-user.target\n",
            daemon.path()
        ),
    )
    .unwrap();
    struct Unit;
    impl Drop for Unit {
        fn drop(&mut self) {
            for args in [
                &["stop", "mrtest-svc"][..],
                &["unmask", "mrtest-svc"],
                &["disable", "mrtest-svc"],
            ] {
                let _ = Command::new("systemctl").args(args).output();
            }
            let _ = std::fs::remove_file("/etc/systemd/system/mrtest-svc.service");
            let _ = Command::new("systemctl").arg("daemon-reload").output();
        }
    }
    let _unit = Unit;
    let reload = Command::new("systemctl")
        .arg("daemon-reload")
        .status()
        .unwrap();
    assert!(reload.success());
    let mut run = Run::new();
    let svc = |params: &[(&str, Value)]| service("mrtest-svc", params).unwrap();
    let outcome = run.evaluate(&svc(&[("ensure", s("running")), ("enable", s("true"))]));
    assert_changed(&outcome, &["ensure changed 'stopped' to 'running'"]);
    assert_eq!(outcome.provider.as_deref(), Some("systemd"));
    wait_for("the unit to start", || !daemon.pids().is_empty());
    assert!(
        run.evaluate(&svc(&[("ensure", s("running")), ("enable", s("true"))]))
            .events
            .is_empty()
    );
    let first = daemon.pids();
    run.session.refresh(&svc(&[])).unwrap();
    wait_for("the unit to restart", || {
        let now = daemon.pids();
        !now.is_empty() && now.iter().all(|pid| !first.contains(pid))
    });
    let listed = run.session.instances("service").unwrap();
    assert!(listed.iter().any(
        |(_, hash)| hash.get("name") == Some(&s("mrtest-svc.service"))
            && hash.get("ensure") == Some(&s("running"))
    ),);
    assert_changed(
        &run.evaluate(&svc(&[("enable", s("false"))])),
        &["enable changed 'true' to 'false'"],
    );
    assert_changed(
        &run.evaluate(&svc(&[("ensure", s("stopped"))])),
        &["ensure changed 'running' to 'stopped'"],
    );
    wait_for("the unit to stop", || daemon.pids().is_empty());
    assert_changed(
        &run.evaluate(&svc(&[("enable", s("mask"))])),
        &["enable changed 'false' to 'mask'"],
    );
    // Starting a masked unit unmasks it first.
    assert_changed(
        &run.evaluate(&svc(&[("ensure", s("running"))])),
        &["ensure changed 'stopped' to 'running'"],
    );
}

#[test]
fn a_catalog_restarts_a_service_when_a_file_it_subscribes_to_changes() {
    require_root();
    let daemon = Daemon::foreground("mrtest-catdaemon");
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("mrtest.conf");
    let manifest = |content: &str| {
        format!(
            "file {{ '{config}': content => '{content}' }}
            ~> service {{ 'mrtest-catdaemon':
              ensure   => running,
              provider => base,
              start    => '{daemon} &',
            }}",
            config = config.display(),
            daemon = daemon.path(),
        )
    };
    let apply = |code: &str| -> Vec<String> {
        let compiled = marionette_eval::compile(&marionette_eval::CompileOptions {
            manifests: vec![marionette_diagnostics::SourceFile::new("site.pp", code)],
            node_name: "mrtest.example.com".into(),
            environment: "production".into(),
            ..Default::default()
        });
        let catalog = compiled.catalog.expect("the manifest compiles");
        let lines = Arc::new(Mutex::new(Vec::new()));
        let kept = lines.clone();
        let logger = Logger::with_sink(move |entry: &Entry| {
            if entry.level >= Level::Info {
                kept.lock()
                    .unwrap()
                    .push(format!("{}: {}", entry.source, entry.message));
            }
        });
        marionette_transaction::apply(
            &catalog,
            Arc::new(marionette_types::registry()),
            Arc::default(),
            logger,
            &marionette_transaction::Options::default(),
        )
        .expect("the catalog applies");
        lines.lock().unwrap().clone()
    };
    // The file is created and the service started; the refresh the file
    // sent is dropped, as a service just started has nothing to restart.
    let first = apply(&manifest("one")).join("\n");
    assert!(
        first.contains("Service[mrtest-catdaemon]/ensure: ensure changed 'stopped' to 'running'"),
        "{first}"
    );
    assert!(
        first.contains("Unscheduling refresh on Service[mrtest-catdaemon]")
            && !first.contains("Triggered 'refresh'"),
        "{first}"
    );
    wait_for("the daemon to start", || !daemon.pids().is_empty());
    let before = daemon.pids();
    // The file changes: the service is restarted.
    let second = apply(&manifest("two")).join("\n");
    assert!(second.contains("Triggered 'refresh'"), "{second}");
    wait_for("the daemon to restart", || {
        let now = daemon.pids();
        !now.is_empty() && now.iter().all(|pid| !before.contains(pid))
    });
    // Nothing changes: nothing happens.
    let third = apply(&manifest("two"));
    assert!(third.is_empty(), "{third:?}");
}

//! `cron` on a real crontab: jobs of the test user `mrtest-cron` created,
//! changed and removed with the `crontab` command, hand-written lines kept,
//! a second run changing nothing. Needs root and the `crontab` command
//! (`apt-get install -y cron`; `scripts/test` installs it).

use std::process::Command;
mod common;

use common::{changes, s};
use marionette_ral::Resource;
use marionette_values::Value;

const USER: &str = "mrtest-cron";

fn cron(name: &str, attrs: &[(&str, Value)]) -> Resource {
    let user = s(USER);
    let mut params = attrs.to_vec();
    params.push(("user", user));
    common::resource("cron", name, &params).unwrap()
}

fn crontab() -> String {
    let output = Command::new("crontab")
        .args(["-l", "-u", USER])
        .output()
        .unwrap();
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn jobs_are_written_changed_and_removed_in_the_users_crontab() {
    // SAFETY: geteuid(2) has no preconditions.
    assert_eq!(
        unsafe { geteuid() },
        0,
        "the cron test edits a user's crontab: run it as root (CI does)"
    );
    assert!(
        Command::new("sh")
            .args(["-c", "command -v crontab"])
            .output()
            .unwrap()
            .status
            .success(),
        "the crontab command is missing: apt-get install -y cron"
    );
    let _ = Command::new("userdel").arg(USER).output();
    assert!(
        Command::new("useradd")
            .arg(USER)
            .status()
            .unwrap()
            .success()
    );
    let mut set = Command::new("crontab")
        .args(["-u", USER, "-"])
        .stdin(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(
        set.stdin.as_mut().unwrap(),
        b"# by hand\nMAILTO=\"\"\n*/5 * * * * /bin/true\n",
    )
    .unwrap();
    assert!(set.wait().unwrap().success());

    let backup = cron(
        "backup",
        &[
            ("command", s("/usr/bin/backup --all")),
            ("hour", s("2")),
            ("minute", Value::Array(vec![s("0"), s("30")].into())),
            (
                "environment",
                Value::Array(vec![s("PATH=/bin:/usr/bin")].into()),
            ),
        ],
    );
    assert_eq!(changes(&backup), ["ensure: created"]);
    assert!(changes(&backup).is_empty(), "a second run changes nothing");
    let boot = cron(
        "boot",
        &[("command", s("/bin/boot")), ("special", s("reboot"))],
    );
    assert_eq!(changes(&boot), ["ensure: created"]);
    assert_eq!(
        crontab(),
        "# by hand\nMAILTO=\"\"\n*/5 * * * * /bin/true\n# Puppet Name: backup\nPATH=/bin:/usr/bin\n\
         0,30 2 * * * /usr/bin/backup --all\n# Puppet Name: boot\n@reboot /bin/boot\n"
    );
    let later = cron(
        "backup",
        &[("command", s("/usr/bin/backup --all")), ("hour", s("3"))],
    );
    assert_eq!(changes(&later), ["hour: hour changed ['2'] to ['3']"]);
    // In noop, the change is reported and the crontab left alone.
    let rehearsal = cron(
        "backup",
        &[("command", s("/usr/bin/backup --all")), ("hour", s("5"))],
    );
    let mut run = common::Run::new();
    let outcome = run.noop(&rehearsal);
    assert_eq!(outcome.events.len(), 1, "{outcome:?}");
    assert_eq!(outcome.events[0].status, marionette_ral::EventStatus::Noop);
    assert!(crontab().contains("0,30 3 * * * /usr/bin/backup --all\n"));
    // A time field replaces a special schedule, and back.
    let timed = cron("boot", &[("command", s("/bin/boot")), ("minute", s("15"))]);
    assert_eq!(changes(&timed), ["minute: defined 'minute' as ['15']"]);
    assert!(crontab().contains("# Puppet Name: boot\n15 * * * * /bin/boot\n"));
    assert!(changes(&timed).is_empty(), "a second run changes nothing");
    // One field of an existing job changes without its command being
    // named (`marionette resource cron backup hour=4`).
    let hour_only = cron("backup", &[("hour", s("4"))]);
    assert_eq!(changes(&hour_only), ["hour: hour changed ['3'] to ['4']"]);
    assert!(crontab().contains("0,30 4 * * * /usr/bin/backup --all\n"));
    let back = cron("backup", &[("hour", s("3"))]);
    assert_eq!(changes(&back), ["hour: hour changed ['4'] to ['3']"]);
    // A new job without a command is not created, with Puppet's words.
    let mut run = common::Run::new();
    let outcome = run.evaluate(&cron("nocommand", &[("minute", s("5"))]));
    assert!(
        format!("{outcome:?}").contains("no command specified, cannot create"),
        "{outcome:?}"
    );
    assert!(!crontab().contains("nocommand"));
    let gone = cron("boot", &[("ensure", s("absent"))]);
    assert_eq!(changes(&gone), ["ensure: removed"]);
    assert_eq!(
        crontab(),
        "# by hand\nMAILTO=\"\"\n*/5 * * * * /bin/true\n# Puppet Name: backup\nPATH=/bin:/usr/bin\n\
         0,30 3 * * * /usr/bin/backup --all\n"
    );
    let _ = Command::new("crontab").args(["-r", "-u", USER]).output();
    let _ = Command::new("userdel").arg(USER).output();
}

#[test]
fn bad_schedules_are_refused() {
    let build = |attrs: &[(&str, Value)]| common::resource("cron", "job", attrs);
    assert!(
        build(&[("command", s("/bin/true")), ("minute", s("61"))])
            .unwrap_err()
            .contains("61 is not a valid minute")
    );
    assert!(
        build(&[("command", s("/bin/true")), ("weekday", s("funday"))])
            .unwrap_err()
            .contains("not a valid weekday")
    );
    assert!(
        build(&[
            ("command", s("/bin/true")),
            ("special", s("daily")),
            ("hour", s("2"))
        ])
        .unwrap_err()
        .contains("special cannot be combined")
    );
    // Without a command, a job can be changed but not created (see
    // `jobs_are_written_changed_and_removed_in_the_users_crontab`).
    assert!(build(&[("ensure", s("present"))]).is_ok());
    assert!(
        build(&[("command", s("/bin/true")), ("special", s("sometimes"))])
            .unwrap_err()
            .contains("Invalid value")
    );
}

unsafe extern "C" {
    fn geteuid() -> u32;
}

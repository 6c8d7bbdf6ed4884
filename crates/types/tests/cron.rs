//! `cron` on a real crontab: jobs of the test user `mrtest-cron` created,
//! changed and removed with the `crontab` command, hand-written lines kept,
//! a second run changing nothing. Needs root and the `crontab` command
//! (`apt-get install -y cron`; `scripts/test` installs it).

use std::process::Command;
use std::sync::Arc;

use marionette_ral::{Logger, Origin, Resource, Session};
use marionette_values::Value;

const USER: &str = "mrtest-cron";

fn s(text: &str) -> Value {
    Value::String(text.into())
}

fn cron(name: &str, attrs: &[(&str, Value)]) -> Resource {
    let mut params: Vec<(String, Value)> = attrs
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    params.push(("user".into(), s(USER)));
    Resource::new(
        marionette_types::registry()
            .type_def("cron")
            .unwrap()
            .clone(),
        name,
        params,
        Origin::default(),
    )
    .unwrap()
}

fn run(resource: &Resource) -> Vec<String> {
    let mut session = Session::new(
        Arc::new(marionette_types::registry()),
        Arc::default(),
        Logger::default(),
    );
    let outcome = session.evaluate(resource, false);
    assert_eq!(outcome.failed, None);
    outcome
        .events
        .iter()
        .map(|e| format!("{}: {}", e.property, e.message))
        .collect()
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
    assert_eq!(run(&backup), ["ensure: created"]);
    assert!(run(&backup).is_empty(), "a second run changes nothing");
    let boot = cron(
        "boot",
        &[("command", s("/bin/boot")), ("special", s("reboot"))],
    );
    assert_eq!(run(&boot), ["ensure: created"]);
    assert_eq!(
        crontab(),
        "# by hand\nMAILTO=\"\"\n*/5 * * * * /bin/true\n# Puppet Name: backup\nPATH=/bin:/usr/bin\n\
         0,30 2 * * * /usr/bin/backup --all\n# Puppet Name: boot\n@reboot /bin/boot\n"
    );
    let later = cron(
        "backup",
        &[("command", s("/usr/bin/backup --all")), ("hour", s("3"))],
    );
    assert_eq!(run(&later), ["hour: hour changed '2' to '3'"]);
    let gone = cron("boot", &[("ensure", s("absent"))]);
    assert_eq!(run(&gone), ["ensure: removed"]);
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
    let registry = marionette_types::registry();
    let type_def = registry.type_def("cron").unwrap().clone();
    let build = |attrs: &[(&str, Value)]| {
        let params: Vec<(String, Value)> = attrs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect();
        Resource::new(type_def.clone(), "job", params, Origin::default()).map_err(|e| e.to_string())
    };
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
    assert!(
        build(&[("ensure", s("present"))])
            .unwrap_err()
            .contains("command is a required attribute")
    );
    assert!(
        build(&[("command", s("/bin/true")), ("special", s("sometimes"))])
            .unwrap_err()
            .contains("Invalid value")
    );
}

unsafe extern "C" {
    fn geteuid() -> u32;
}

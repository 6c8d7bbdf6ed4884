//! `exec` driven through the resource layer, as a run would: resources
//! built from parameters, evaluated (or refreshed) by a `Session`, with
//! real commands in temporary directories.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::{Run, s};
use marionette_ral::{AutoKind, EventStatus, Level, Outcome, Resource};
use marionette_values::Value;

fn list(items: &[&str]) -> Value {
    Value::Array(items.iter().map(|i| s(i)).collect::<Vec<_>>().into())
}

fn exec(title: &str, params: &[(&str, Value)]) -> Result<Resource, String> {
    common::resource("exec", title, params)
}

fn evaluate(resource: &Resource) -> Outcome {
    Run::new().evaluate(resource)
}

fn path_in(dir: &tempfile::TempDir, name: &str) -> String {
    dir.path().join(name).to_string_lossy().into_owned()
}

fn touch(path: &str) -> String {
    format!("/bin/touch {path}")
}

#[test]
fn a_due_command_runs_and_reports_executed_successfully() {
    let dir = tempfile::tempdir().unwrap();
    let target = path_in(&dir, "made");
    let resource = exec(&touch(&target), &[]).unwrap();
    let outcome = evaluate(&resource);
    assert_eq!(outcome.failed, None);
    assert_eq!(outcome.provider.as_deref(), Some("posix"));
    assert_eq!(outcome.events.len(), 1);
    let event = &outcome.events[0];
    assert_eq!(event.property, "returns");
    assert_eq!(event.previous, s("notrun"));
    assert_eq!(event.message, "executed successfully");
    assert_eq!(event.status, EventStatus::Success);
    assert!(Path::new(&target).exists());
}

#[test]
fn the_command_can_differ_from_the_title_and_be_an_argv_array() {
    let dir = tempfile::tempdir().unwrap();
    let target = path_in(&dir, "with space");
    let resource = exec("make it", &[("command", list(&["/bin/touch", &target]))]).unwrap();
    assert_eq!(
        evaluate(&resource).events[0].message,
        "executed successfully"
    );
    assert!(Path::new(&target).exists());
}

#[test]
fn creates_skips_the_command_while_any_file_exists() {
    let dir = tempfile::tempdir().unwrap();
    let present = path_in(&dir, "present");
    std::fs::write(&present, "").unwrap();
    let target = path_in(&dir, "target");
    let skipped = exec(&touch(&target), &[("creates", s(&present))]).unwrap();
    let mut run = Run::new();
    let outcome = run.evaluate(&skipped);
    assert!(outcome.events.is_empty(), "{outcome:?}");
    assert_eq!(outcome.failed, None);
    assert!(!Path::new(&target).exists());
    assert!(
        run.messages(&skipped.reference(), Level::Debug)
            .contains(&format!(
                "'/bin/touch {target}' won't be executed because of failed check 'creates'"
            )),
        "{}",
        run.everything()
    );
    let several = exec(
        &touch(&target),
        &[("creates", list(&[&path_in(&dir, "missing"), &present]))],
    )
    .unwrap();
    assert!(evaluate(&several).events.is_empty());
    let due = exec(
        &touch(&target),
        &[("creates", s(&path_in(&dir, "missing")))],
    )
    .unwrap();
    assert_eq!(evaluate(&due).events.len(), 1);
    assert!(Path::new(&target).exists());
}

#[test]
fn onlyif_needs_every_test_to_succeed_and_unless_any_to_fail() {
    let cases: &[(&str, Value, bool)] = &[
        ("onlyif", s("/bin/true"), true),
        ("onlyif", s("/bin/false"), false),
        ("onlyif", list(&["/bin/true", "/bin/false"]), false),
        ("onlyif", list(&["/bin/true", "/bin/true"]), true),
        ("unless", s("/bin/false"), true),
        ("unless", s("/bin/true"), false),
        ("unless", list(&["/bin/false", "/bin/true"]), false),
        ("unless", list(&["/bin/false", "/bin/false"]), true),
    ];
    for (check, value, runs) in cases {
        let dir = tempfile::tempdir().unwrap();
        let target = path_in(&dir, "target");
        let resource = exec(&touch(&target), &[(check, value.clone())]).unwrap();
        let outcome = evaluate(&resource);
        assert_eq!(outcome.failed, None, "{check} {value:?}");
        assert_eq!(
            Path::new(&target).exists(),
            *runs,
            "{check} => {value:?} should {}run",
            if *runs { "" } else { "not " }
        );
        assert_eq!(outcome.events.len(), usize::from(*runs));
    }
}

#[test]
fn checks_can_be_argv_arrays_and_see_the_same_settings() {
    let dir = tempfile::tempdir().unwrap();
    let target = path_in(&dir, "target");
    let nested = Value::Array(vec![list(&["/usr/bin/test", "-d", "."])].into());
    let resource = exec(
        &touch(&target),
        &[
            ("onlyif", nested),
            // Found on `path`, run in `cwd`, with `environment`.
            ("unless", s("sh -c 'test \"$MARKER\" = no'")),
            ("path", s("/usr/bin:/bin")),
            ("environment", s("MARKER=yes")),
            ("cwd", s(&dir.path().to_string_lossy())),
        ],
    )
    .unwrap();
    assert_eq!(evaluate(&resource).failed, None);
    assert!(Path::new(&target).exists());
}

#[test]
fn returns_lists_the_exit_statuses_that_count_as_success() {
    let accepted = exec("/bin/sh -c 'exit 3'", &[("returns", list(&["0", "3"]))]).unwrap();
    let outcome = evaluate(&accepted);
    assert_eq!(outcome.failed, None);
    assert_eq!(outcome.events[0].message, "executed successfully");
    let numbers = exec(
        "/bin/sh -c 'exit 3'",
        &[("returns", Value::Array(vec![Value::Integer(3)].into()))],
    )
    .unwrap();
    assert_eq!(evaluate(&numbers).failed, None);
    let single = exec("/bin/sh -c 'exit 3'", &[("returns", Value::Integer(2))]).unwrap();
    assert_eq!(
        evaluate(&single).failed.as_deref(),
        Some(
            "change from 'notrun' to ['2'] failed: '/bin/sh -c 'exit 3'' returned 3 instead of one of [2]"
        )
    );
    let error = exec("/bin/true", &[("returns", s("zero"))]).unwrap_err();
    assert_eq!(
        error,
        "Parameter returns failed on Exec[/bin/true]: Invalid exit status \"zero\": returns takes integers"
    );
}

#[test]
fn a_failing_command_fails_the_resource_with_puppets_message() {
    let resource = exec("/bin/false", &[]).unwrap();
    let outcome = evaluate(&resource);
    assert_eq!(
        outcome.failed.as_deref(),
        Some("change from 'notrun' to ['0'] failed: '/bin/false' returned 1 instead of one of [0]")
    );
    assert_eq!(outcome.events[0].status, EventStatus::Failure);
    let several = exec("/bin/false", &[("returns", list(&["0", "2"]))]).unwrap();
    assert!(
        evaluate(&several)
            .failed
            .unwrap()
            .ends_with("'/bin/false' returned 1 instead of one of [0,2]")
    );
}

#[test]
fn refreshonly_is_in_sync_until_a_refresh_runs_it() {
    let dir = tempfile::tempdir().unwrap();
    let target = path_in(&dir, "target");
    let resource = exec(&touch(&target), &[("refreshonly", Value::Boolean(true))]).unwrap();
    let mut run = Run::new();
    let outcome = run.evaluate(&resource);
    assert!(
        outcome.events.is_empty() && outcome.failed.is_none(),
        "{outcome:?}"
    );
    assert!(!Path::new(&target).exists());
    run.session.refresh(&resource).unwrap();
    assert!(Path::new(&target).exists());
}

#[test]
fn refresh_runs_the_refresh_command_when_the_checks_allow() {
    let dir = tempfile::tempdir().unwrap();
    let main = path_in(&dir, "main");
    let refreshed = path_in(&dir, "refreshed");
    let resource = exec(
        &touch(&main),
        &[
            ("refresh", s(&touch(&refreshed))),
            ("refreshonly", s("true")),
        ],
    )
    .unwrap();
    Run::new().session.refresh(&resource).unwrap();
    assert!(Path::new(&refreshed).exists());
    assert!(!Path::new(&main).exists());

    // `creates` still applies to a refresh.
    let again = path_in(&dir, "again");
    let blocked = exec(
        &touch(&again),
        &[("refreshonly", s("true")), ("creates", s(&refreshed))],
    )
    .unwrap();
    Run::new().session.refresh(&blocked).unwrap();
    assert!(!Path::new(&again).exists());

    // A refresh command that fails is an error.
    let failing = exec("/bin/true", &[("refresh", s("/bin/false"))]).unwrap();
    let error = Run::new().session.refresh(&failing).unwrap_err();
    assert_eq!(
        error.to_string(),
        "Exec[/bin/true]: '/bin/false' returned 1 instead of one of [0]"
    );
}

#[test]
fn a_timeout_kills_the_command_and_everything_it_started() {
    for provider in ["posix", "shell"] {
        let dir = tempfile::tempdir().unwrap();
        let late = path_in(&dir, "late");
        // The background subshell would write the file after the limit;
        // it must die with the command.
        let script = format!("(sleep 1; /bin/touch {late}) & sleep 30");
        let command = match provider {
            "posix" => format!("/bin/sh -c '{script}'"),
            _ => script,
        };
        let resource = exec(
            &command,
            &[("timeout", s("0.3")), ("provider", s(provider))],
        )
        .unwrap();
        let started = Instant::now();
        let outcome = evaluate(&resource);
        assert!(started.elapsed() < Duration::from_secs(10));
        assert!(
            outcome
                .failed
                .as_deref()
                .is_some_and(|f| f.ends_with("failed: Command exceeded timeout")),
            "{provider}: {outcome:?}"
        );
        std::thread::sleep(Duration::from_millis(1500));
        assert!(
            !Path::new(&late).exists(),
            "{provider}: a process of the command survived the timeout"
        );
    }
}

#[test]
fn a_check_that_times_out_stops_the_exec_with_an_error_logged() {
    let dir = tempfile::tempdir().unwrap();
    let target = path_in(&dir, "target");
    let resource = exec(
        &touch(&target),
        &[
            ("unless", s("/bin/sleep 30")),
            ("timeout", Value::Float(0.2)),
        ],
    )
    .unwrap();
    let mut run = Run::new();
    let outcome = run.evaluate(&resource);
    assert!(outcome.events.is_empty() && outcome.failed.is_none());
    assert!(!Path::new(&target).exists());
    assert_eq!(
        run.messages(&resource.reference(), Level::Err),
        ["Check \"/bin/sleep 30\" exceeded timeout"]
    );
}

/// A shell script that counts its runs in a file and succeeds from the
/// third one.
fn third_time_lucky(counter: &str) -> String {
    format!(
        "n=$(cat {counter} 2>/dev/null || echo 0); n=$((n + 1)); echo $n > {counter}; test $n -ge 3"
    )
}

#[test]
fn tries_repeat_the_command_until_it_succeeds() {
    let dir = tempfile::tempdir().unwrap();
    let counter = path_in(&dir, "counter");
    let resource = exec(
        &third_time_lucky(&counter),
        &[
            ("provider", s("shell")),
            ("tries", s("5")),
            ("try_sleep", s("0.05")),
        ],
    )
    .unwrap();
    let outcome = evaluate(&resource);
    assert_eq!(outcome.failed, None);
    assert_eq!(std::fs::read_to_string(&counter).unwrap(), "3\n");

    let other = path_in(&dir, "other");
    let too_few = exec(
        &third_time_lucky(&other),
        &[("provider", s("shell")), ("tries", Value::Integer(2))],
    )
    .unwrap();
    assert!(
        evaluate(&too_few)
            .failed
            .unwrap()
            .ends_with("returned 1 instead of one of [0]")
    );
    assert_eq!(std::fs::read_to_string(&other).unwrap(), "2\n");
}

#[test]
fn logoutput_logs_each_line_at_the_resource_loglevel() {
    let script = "/bin/sh -c 'echo one; echo two >&2; echo three'";
    let always = exec(script, &[("logoutput", Value::Boolean(true))]).unwrap();
    let mut run = Run::new();
    run.evaluate(&always);
    assert_eq!(
        run.messages(
            "Exec[/bin/sh -c 'echo one; echo two >&2; echo three']",
            Level::Notice
        ),
        ["one", "two", "three"]
    );

    // Blank lines inside are logged, those at the end not, as Ruby's
    // `split` leaves them out.
    let blank = "/bin/sh -c 'echo one; echo; echo two; echo; echo'";
    let blanks = exec(blank, &[("logoutput", Value::Boolean(true))]).unwrap();
    let mut run = Run::new();
    run.evaluate(&blanks);
    assert_eq!(
        run.messages(&format!("Exec[{blank}]"), Level::Notice),
        ["one", "", "two"]
    );

    // The default, on_failure, is silent on success...
    let quiet = exec(script, &[]).unwrap();
    let mut run = Run::new();
    run.evaluate(&quiet);
    assert!(run.messages(&quiet.reference(), Level::Notice).is_empty());

    // ...and logs the output of a failure.
    let failing = exec(
        "/bin/sh -c 'echo broken; exit 4'",
        &[("loglevel", s("err"))],
    )
    .unwrap();
    let mut run = Run::new();
    run.evaluate(&failing);
    assert_eq!(run.messages(&failing.reference(), Level::Err), ["broken"]);

    let never = exec(
        "/bin/sh -c 'echo broken; exit 4'",
        &[("logoutput", s("false"))],
    )
    .unwrap();
    let mut run = Run::new();
    run.evaluate(&never);
    assert!(run.messages(&never.reference(), Level::Notice).is_empty());
}

#[test]
fn posix_commands_without_shell_syntax_are_split_at_blanks() {
    let command = "/usr/bin/printf [%s] a,b c=d x/y";
    let resource = exec(command, &[("logoutput", s("true"))]).unwrap();
    let mut run = Run::new();
    assert_eq!(run.evaluate(&resource).failed, None);
    assert_eq!(
        run.messages(&resource.reference(), Level::Notice),
        ["[a,b][c=d][x/y]"]
    );
}

/// As Puppet's, which starts a string through Ruby's `exec`: shell syntax
/// sends the whole string to `/bin/sh -c`, with no warning.
#[test]
fn posix_commands_with_shell_syntax_run_in_the_shell() {
    let resource = exec(
        "/bin/echo 'a  b' | /usr/bin/tr a z",
        &[("logoutput", s("true"))],
    )
    .unwrap();
    let mut run = Run::new();
    assert_eq!(run.evaluate(&resource).failed, None);
    assert_eq!(run.messages(&resource.reference(), Level::Notice), ["z  b"]);
    assert!(
        run.messages(&resource.reference(), Level::Warning)
            .is_empty(),
        "{}",
        run.everything()
    );
}

#[test]
fn the_shell_provider_runs_the_command_as_a_script() {
    let dir = tempfile::tempdir().unwrap();
    let target = path_in(&dir, "sum");
    let resource = exec(
        &format!("echo $((1 + 2)) | cat > {target}"),
        &[("provider", s("shell"))],
    )
    .unwrap();
    let outcome = evaluate(&resource);
    assert_eq!(outcome.provider.as_deref(), Some("shell"));
    assert_eq!(outcome.failed, None);
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "3\n");

    // The shell searches `path` for unqualified programs.
    let other = path_in(&dir, "other");
    let searched = exec(
        &format!("touch {other}"),
        &[
            ("provider", s("shell")),
            ("path", list(&["/usr/bin", "/bin"])),
        ],
    )
    .unwrap();
    assert_eq!(evaluate(&searched).failed, None);
    assert!(Path::new(&other).exists());

    // A program the shell cannot find is an error, not an exit status.
    let missing = exec("mrtest-no-such-program", &[("provider", s("shell"))]).unwrap();
    let failed = evaluate(&missing).failed.unwrap();
    assert!(failed.contains("not found"), "{failed}");
}

#[test]
fn an_unqualified_posix_command_needs_a_path() {
    assert_eq!(
        exec("foo --bar", &[]).unwrap_err(),
        "Validation of Exec[foo --bar] failed: 'foo' is not qualified and no path was specified. Please qualify the command or specify a path."
    );
    assert_eq!(
        exec("/bin/true", &[("unless", s("grep x /etc/passwd"))]).unwrap_err(),
        "Validation of Exec[/bin/true] failed: 'grep' is not qualified and no path was specified. Please qualify the command or specify a path."
    );
    // With a path, the program is searched there, and only there.
    let found = exec("true", &[("path", s("/usr/bin:/bin"))]).unwrap();
    assert_eq!(evaluate(&found).failed, None);
    let missing = exec("mrtest-no-such-program", &[("path", s("/usr/bin:/bin"))]).unwrap();
    assert_eq!(
        evaluate(&missing).failed.as_deref(),
        Some(
            "change from 'notrun' to ['0'] failed: Could not find command 'mrtest-no-such-program'"
        )
    );
    let not_a_file = exec("/tmp", &[]).unwrap();
    assert!(
        evaluate(&not_a_file)
            .failed
            .unwrap()
            .ends_with("'/tmp' is a directory, not a file")
    );
}

#[test]
fn malformed_attributes_are_refused_with_a_message() {
    let cases: &[(&str, Value, &str)] = &[
        (
            "environment",
            list(&["GOOD=1", "bad"]),
            "Parameter environment failed on Exec[t]: Invalid environment setting 'bad'",
        ),
        (
            "umask",
            s("0999"),
            "Parameter umask failed on Exec[t]: The umask specification is invalid: \"0999\"",
        ),
        (
            "timeout",
            s("soon"),
            "Parameter timeout failed on Exec[t]: The timeout must be a number.",
        ),
        (
            "tries",
            Value::Integer(0),
            "Parameter tries failed on Exec[t]: Tries must be an integer >= 1",
        ),
        (
            "try_sleep",
            s("-1"),
            "Parameter try_sleep failed on Exec[t]: try_sleep cannot be a negative number",
        ),
        (
            "creates",
            s("relative/file"),
            "Parameter creates failed on Exec[t]: creates must be a fully qualified path",
        ),
        (
            "cwd",
            s("tmp"),
            "Parameter cwd failed on Exec[t]: cwd must be a fully qualified path",
        ),
        (
            "logoutput",
            s("sometimes"),
            "Parameter logoutput failed on Exec[t]: Invalid value \"sometimes\". Valid values are true, false, on_failure.",
        ),
        (
            "refreshonly",
            s("maybe"),
            "Parameter refreshonly failed on Exec[t]: Invalid value \"maybe\". Valid values are true, false.",
        ),
    ];
    for (attr, value, expected) in cases {
        let mut params = vec![(*attr, value.clone())];
        if *attr != "command" {
            params.push(("command", s("/bin/true")));
        }
        assert_eq!(exec("t", &params).unwrap_err(), *expected, "{attr}");
    }
    let shell_array = exec(
        "t",
        &[
            ("command", list(&["/bin/echo", "x"])),
            ("provider", s("shell")),
        ],
    )
    .unwrap_err();
    assert!(
        shell_array.contains("must be a single string"),
        "{shell_array}"
    );
}

#[test]
fn noop_reports_what_would_run_without_running_it() {
    let dir = tempfile::tempdir().unwrap();
    let target = path_in(&dir, "target");
    let resource = exec(&touch(&target), &[]).unwrap();
    let outcome = Run::new().session.evaluate(&resource, true);
    assert_eq!(outcome.events.len(), 1);
    assert_eq!(outcome.events[0].status, EventStatus::Noop);
    assert_eq!(
        outcome.events[0].message,
        "current_value 'notrun', should be ['0'] (noop)"
    );
    assert!(!Path::new(&target).exists());
    let single = exec(&touch(&target), &[("returns", Value::Integer(2))]).unwrap();
    assert_eq!(
        Run::new().session.evaluate(&single, true).events[0].message,
        "current_value 'notrun', should be ['2'] (noop)"
    );
}

#[test]
fn cwd_environment_and_umask_reach_the_command() {
    let dir = tempfile::tempdir().unwrap();
    let cwd = dir.path().to_string_lossy().into_owned();
    let resource = exec(
        "pwd; echo \"$FOO|$PATH|${HOME-unset}|${LC_ALL-unset}\"; umask",
        &[
            ("provider", s("shell")),
            ("cwd", s(&cwd)),
            ("path", list(&["/usr/bin", "/bin:/sbin"])),
            ("environment", list(&["FOO=bar", "FOO=baz"])),
            ("umask", s("027")),
            ("logoutput", s("true")),
        ],
    )
    .unwrap();
    let mut run = Run::new();
    assert_eq!(run.evaluate(&resource).failed, None);
    let source = resource.reference();
    assert_eq!(
        run.messages(&source, Level::Notice),
        [
            cwd.as_str(),
            // The agent's locale as it is: an LC_ALL it lacks stays unset.
            &format!(
                "baz|/usr/bin:/bin:/sbin|unset|{}",
                std::env::var("LC_ALL").as_deref().unwrap_or("unset")
            ),
            "0027"
        ]
    );
    assert_eq!(
        run.messages(&source, Level::Warning),
        ["Overriding environment setting 'FOO' with 'baz'"]
    );

    let gone = exec("/bin/true", &[("cwd", s(&format!("{cwd}/missing")))]).unwrap();
    assert_eq!(
        evaluate(&gone).failed.as_deref(),
        Some(
            format!(
                "change from 'notrun' to ['0'] failed: Working directory {cwd}/missing does not exist!"
            )
            .as_str()
        )
    );
}

#[test]
fn a_sensitive_command_and_its_output_are_never_logged() {
    let secret = "hunter2";
    let command = Value::Sensitive(Box::new(s(&format!("/bin/sh -c 'echo {secret}; exit 1'"))));
    let resource = exec("secret", &[("command", command), ("logoutput", s("true"))]).unwrap();
    let mut run = Run::new();
    let outcome = run.evaluate(&resource);
    assert_eq!(
        outcome.failed.as_deref(),
        Some(
            "change from 'notrun' to ['0'] failed: [command redacted] returned 1 instead of one of [0]"
        )
    );
    assert_eq!(
        run.messages(&resource.reference(), Level::Notice),
        ["[output redacted]"]
    );
    let log = run.everything();
    assert!(!log.contains(secret), "{log}");

    // A sensitive check makes the command sensitive too.
    let check = Value::Sensitive(Box::new(s(&format!("/bin/sh -c 'test {secret} = x'"))));
    let guarded = exec("/bin/echo visible", &[("onlyif", check)]).unwrap();
    let mut run = Run::new();
    assert!(run.evaluate(&guarded).events.is_empty());
    let log = run.everything();
    assert!(!log.contains(secret), "{log}");
    assert!(
        log.contains("'[command redacted]' won't be executed because of failed check 'onlyif'"),
        "{log}"
    );
}

#[test]
fn the_command_runs_as_another_account() {
    let (euid, _) = marionette_types::providers::exec::effective_ids();
    assert_eq!(
        euid, 0,
        "this test must run as root: it runs commands as 'nobody' (CI runs the suite as root)"
    );
    let nobody = marionette_types::system::passwd(Path::new("/"))
        .unwrap()
        .into_iter()
        .find(|a| a.name == "nobody")
        .expect("the test machine has a 'nobody' account");
    let resource = exec(
        "/usr/bin/id -u",
        &[("user", s("nobody")), ("logoutput", s("true"))],
    )
    .unwrap();
    let mut run = Run::new();
    assert_eq!(run.evaluate(&resource).failed, None);
    assert_eq!(
        run.messages(&resource.reference(), Level::Notice),
        [nobody.uid.to_string()]
    );

    // The account's groups come with it, as at a login (Puppet's
    // initgroups), even when `group` names another: none of root's is
    // kept.
    let listed = exec(
        "/usr/bin/id -G",
        &[
            ("user", s("nobody")),
            ("group", s("root")),
            ("logoutput", s("true")),
        ],
    )
    .unwrap();
    let mut run = Run::new();
    assert_eq!(run.evaluate(&listed).failed, None);
    let login = std::process::Command::new("id")
        .args(["-G", "nobody"])
        .output()
        .expect("id(1)");
    assert_eq!(
        run.messages(&listed.reference(), Level::Notice),
        [format!(
            "0 {}",
            String::from_utf8_lossy(&login.stdout).trim()
        )]
    );

    // The primary group comes with the account, unless `group` says
    // otherwise; checks run as the account too.
    let groups = exec(
        "/usr/bin/id -g",
        &[
            ("user", Value::Integer(nobody.uid)),
            ("logoutput", s("true")),
            (
                "onlyif",
                s(&format!("/bin/sh -c 'test $(id -u) = {}'", nobody.uid)),
            ),
        ],
    )
    .unwrap();
    let mut run = Run::new();
    assert_eq!(run.evaluate(&groups).failed, None);
    assert_eq!(
        run.messages(&groups.reference(), Level::Notice),
        [nobody.gid.to_string()]
    );
    let root_group = exec(
        "/usr/bin/id -g",
        &[
            ("user", s("nobody")),
            ("group", s("root")),
            ("logoutput", s("true")),
        ],
    )
    .unwrap();
    let mut run = Run::new();
    assert_eq!(run.evaluate(&root_group).failed, None);
    assert_eq!(run.messages(&root_group.reference(), Level::Notice), ["0"]);

    let unknown = exec("/usr/bin/id", &[("user", s("mrtest-no-such-user"))]).unwrap();
    assert!(
        evaluate(&unknown)
            .failed
            .unwrap()
            .ends_with("Invalid user: mrtest-no-such-user")
    );
    // The account is looked up only when something runs: the user may be
    // created later in the run, before a refresh.
    let later = exec(
        "/usr/bin/id",
        &[
            ("user", s("mrtest-no-such-user")),
            ("refreshonly", s("true")),
        ],
    )
    .unwrap();
    let outcome = evaluate(&later);
    assert!(outcome.failed.is_none() && outcome.events.is_empty());
}

#[test]
fn the_exec_requires_its_directory_program_and_account() {
    let resource = exec(
        "/usr/local/bin/deploy --now",
        &[("cwd", s("/srv/app")), ("user", s("deployer"))],
    )
    .unwrap();
    let relations = resource.auto_relations();
    let expected = [
        (AutoKind::Require, "file", "/srv/app"),
        (AutoKind::Require, "file", "/usr/local/bin/deploy"),
        (AutoKind::Require, "user", "deployer"),
    ];
    assert_eq!(relations.len(), expected.len(), "{relations:?}");
    for (kind, type_name, title) in expected {
        assert!(
            relations
                .iter()
                .any(|(k, t, n)| *k == kind && t == type_name && n == title),
            "{relations:?}"
        );
    }
    let by_uid = exec("true", &[("path", s("/bin")), ("user", s("1000"))]).unwrap();
    assert!(by_uid.auto_relations().is_empty());
}

#[test]
fn there_are_no_exec_instances_to_list() {
    assert!(Run::new().session.instances("exec").unwrap().is_empty());
}

//! A migrated Puppet machine works unchanged (issue 41): compile errors
//! said once as Puppet says them, the `production` environment without
//! its directory, Puppet's settings files and directories, and Puppet's
//! flags. The cases in `data/everyday/` hold what the real Puppet did
//! (`scripts/puppet-record-everyday`); each case's `compare` file says
//! what of it ours must equal.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/everyday");

/// What a command did, as the recordings write it.
struct Outcome {
    exit: String,
    stdout: String,
    stderr: String,
}

impl Outcome {
    /// A recording: `exit CODE`, `--- stdout`, its lines, `--- stderr`,
    /// its lines.
    fn parse(text: &str) -> Outcome {
        let (head, rest) = text.split_once("--- stdout\n").expect("a stdout part");
        let (stdout, stderr) = rest.split_once("--- stderr\n").expect("a stderr part");
        Outcome {
            exit: head.trim().to_string(),
            stdout: stdout.to_string(),
            stderr: stderr.to_string(),
        }
    }
}

/// `text` as the recordings normalize Puppet's: temporary directories by
/// their placeholders, times by `N`.
fn normalize(text: &str, places: &[(&Path, &str)]) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let mut line = line.to_string();
        for (path, name) in places {
            line = line.replace(&path.display().to_string(), name);
        }
        let mut from = 0;
        while let Some(at) = line[from..].find(" in ").map(|at| from + at + 4) {
            let digits = line[at..]
                .find(|c: char| !(c.is_ascii_digit() || c == '.'))
                .unwrap_or(line.len() - at);
            if digits > 0 && line[at + digits..].starts_with(" seconds") {
                line.replace_range(at..at + digits, "N");
            }
            from = at;
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// Runs `marionette` on a case's arguments as the recording ran Puppet:
/// from an empty directory, with no settings file of the machine's.
fn run_case(case: &Path) -> Outcome {
    let args = std::fs::read_to_string(case.join("args")).unwrap();
    let vardir = tempfile::tempdir().unwrap();
    let empty = tempfile::tempdir().unwrap();
    let etc = tempfile::tempdir().unwrap();
    let args: Vec<String> = args
        .lines()
        .map(|arg| {
            arg.replace("{case}", &case.display().to_string())
                .replace("{vardir}", &vardir.path().display().to_string())
                .replace("{empty}", &empty.path().display().to_string())
        })
        .collect();
    let output = Command::new(env!("CARGO_BIN_EXE_marionette"))
        .args(&args)
        .current_dir(empty.path())
        .env("MARIONETTE_TEST_SYSCONFDIR", etc.path())
        .output()
        .unwrap();
    let places = [
        (case, "{case}"),
        (vardir.path(), "{vardir}"),
        (empty.path(), "{empty}"),
    ];
    Outcome {
        exit: format!("exit {}", output.status.code().unwrap_or(-1)),
        stdout: normalize(&String::from_utf8_lossy(&output.stdout), &places),
        stderr: normalize(&String::from_utf8_lossy(&output.stderr), &places),
    }
}

fn cases() -> Vec<PathBuf> {
    let mut cases: Vec<PathBuf> = std::fs::read_dir(DATA)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    cases
}

/// Every case with a `compare` file: ours equals Puppet's in what it
/// names (the exit code, standard output, standard error, whole).
#[test]
fn cases_do_what_puppet_did() {
    let mut failures = Vec::new();
    let mut compared = 0;
    for case in cases() {
        let Ok(compare) = std::fs::read_to_string(case.join("compare")) else {
            continue;
        };
        compared += 1;
        let puppet = Outcome::parse(&std::fs::read_to_string(case.join("puppet.out")).unwrap());
        let ours = run_case(&case);
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        for part in compare.lines() {
            let (theirs, mine) = match part {
                "exit" => (&puppet.exit, &ours.exit),
                "stdout" => (&puppet.stdout, &ours.stdout),
                "stderr" => (&puppet.stderr, &ours.stderr),
                other => panic!("{name}: '{other}' is not a part to compare"),
            };
            if theirs != mine {
                failures.push(format!(
                    "{name}: {part} differs\n--- puppet\n{theirs}--- marionette\n{mine}"
                ));
            }
        }
    }
    assert!(compared > 0, "no case to compare in {DATA}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A migrated machine keeps its settings: Puppet's `puppet.conf` (here
/// `/etc/puppetlabs/puppet/puppet.conf` under a test root) is read after
/// Marionette's own, which wins where both set a setting; a setting only
/// Puppet's file has is taken from it, `$codedir`-style references are
/// expanded, and `config print all` names where each value came from.
#[test]
fn puppets_settings_file_is_read_after_marionettes_own() {
    let root = tempfile::tempdir().unwrap();
    let etc = root.path().join("etc");
    let code = root.path().join("code");
    let write = |path: PathBuf, text: &str| {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    std::fs::create_dir_all(code.join("environments/mrtest_env")).unwrap();
    write(
        code.join("site/mrtest_mod/manifests/init.pp"),
        "class mrtest_mod { notice('mrtest_mod found') }\n",
    );
    write(
        etc.join("puppetlabs/puppet/puppet.conf"),
        &format!(
            "[main]\ncodedir = {}\nbasemodulepath = $codedir/site\ncertname = mrtest-puppet.example.com\n\
             vardir = {}\n[agent]\nruninterval = 600\n[user]\nenvironment = mrtest_env\n",
            code.display(),
            root.path().join("var").display()
        ),
    );
    write(
        etc.join("marionette/puppet.conf"),
        "[main]\ncertname = mrtest-own.example.com\n",
    );
    let run = |args: &[&str]| {
        let output = Command::new(env!("CARGO_BIN_EXE_marionette"))
            .args(args)
            .env("MARIONETTE_TEST_SYSCONFDIR", &etc)
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stdout).into_owned(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    };
    let print = |name: &str| run(&["config", "print", name]).1;
    assert_eq!(
        print("environmentpath"),
        format!("{}/environments\n", code.display())
    );
    assert_eq!(
        print("basemodulepath"),
        format!("{}/site\n", code.display())
    );
    assert_eq!(print("certname"), "mrtest-own.example.com\n");
    assert_eq!(
        run(&["config", "print", "runinterval", "--section", "agent"]).1,
        "600\n"
    );
    // The environment, its code and the base module path all come from
    // Puppet's file; the certname from Marionette's.
    let (code_, stdout, stderr) = run(&["apply", "-e", "include mrtest_mod"]);
    assert_eq!(code_, Some(0), "{stdout}{stderr}");
    assert!(stdout.contains("mrtest_mod found"), "{stdout}{stderr}");
    assert!(
        stdout.contains("Compiled catalog for mrtest-own.example.com in environment mrtest_env"),
        "{stdout}{stderr}"
    );
    assert!(
        root.path().join("var/state/last_run_report.json").is_file(),
        "the vardir of Puppet's file keeps the report"
    );
    let all = run(&["config", "print", "all"]).1;
    let puppet_conf = etc.join("puppetlabs/puppet/puppet.conf");
    for line in [
        "certname = mrtest-own.example.com  # {etc}/marionette/puppet.conf [main]".to_string(),
        format!(
            "basemodulepath = {}/site  # {} [main]",
            code.display(),
            puppet_conf.display()
        ),
        format!(
            "environment = mrtest_env  # {} [user]",
            puppet_conf.display()
        ),
        "show_diff = false  # default".to_string(),
    ] {
        let line = line.replace("{etc}", &etc.display().to_string());
        assert!(all.contains(&format!("{line}\n")), "{line:?} in\n{all}");
    }
    let given = run(&[
        "config",
        "print",
        "--vardir",
        "/tmp/mrtest-cli",
        "vardir",
        "--verbose",
    ]);
    assert_eq!(
        given.1, "vardir = /tmp/mrtest-cli  # command line\n",
        "{given:?}"
    );
}

/// The options Puppet's help text lists (`* --name:` in its OPTIONS).
fn puppet_help_options(command: &str) -> Vec<String> {
    let help = std::fs::read_to_string(format!("{DATA}/{command}.help")).unwrap();
    let mut options: Vec<String> = help
        .lines()
        .filter_map(|line| line.trim_start().strip_prefix('*'))
        .filter_map(|rest| rest.trim_start().strip_prefix("--"))
        .map(|name| {
            let end = name
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
                .unwrap_or(name.len());
            format!("--{}", &name[..end])
        })
        .collect();
    // The usage line's short forms name `--version` too.
    options.push("--version".into());
    options.sort();
    options.dedup();
    options
}

/// A row of docs/puppet-flags.md: the flag as written, the commands it
/// is for, and what Marionette does.
struct Row {
    flag: String,
    commands: Vec<String>,
    supported: bool,
}

fn flag_table() -> Vec<Row> {
    let doc = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/puppet-flags.md"
    ))
    .unwrap();
    // The flags' tables; the commands' table after them is not one.
    doc.lines()
        .take_while(|line| !line.starts_with("## Other commands"))
        .filter_map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            let flag = cells.get(1)?.strip_prefix('`')?.strip_suffix('`')?;
            Some(Row {
                flag: flag.to_string(),
                commands: cells[2].split(',').map(|c| c.trim().to_string()).collect(),
                supported: !cells[3].starts_with("Not supported"),
            })
        })
        .collect()
}

/// Every option of `puppet apply --help` and `puppet agent --help` is in
/// docs/puppet-flags.md, and every flag there not marked as not
/// supported is accepted by the commands it names, as written there:
/// `apply` runs with it (`--noop`, nothing to apply), `agent` parses it
/// (its help follows, as the agent would otherwise ask a server).
#[test]
fn puppets_flags_are_accounted_for_and_accepted() {
    let table = flag_table();
    let name = |flag: &str| flag.split('=').next().unwrap().replace('_', "-");
    for command in ["apply", "agent"] {
        for option in puppet_help_options(command) {
            assert!(
                table
                    .iter()
                    .any(|row| name(&row.flag) == option.replace('_', "-")
                        && row.commands.iter().any(|c| c == command)),
                "puppet {command} {option} is not in docs/puppet-flags.md"
            );
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let catalog = dir.path().join("catalog.json");
    std::fs::write(
        &catalog,
        r#"{"name": "mrtest.example.com", "version": 1, "environment": "production", "resources": [], "edges": [], "classes": [], "tags": []}"#,
    )
    .unwrap();
    let mut refused = Vec::new();
    for row in table.iter().filter(|row| row.supported) {
        let flag = row
            .flag
            .replace("catalog.json", &catalog.display().to_string());
        for command in &row.commands {
            let vardir = dir.path().join("var").display().to_string();
            let mut args = vec![command.as_str(), flag.as_str(), "--vardir", &vardir];
            match (command.as_str(), name(&flag).as_str()) {
                // These do their own thing: their parsing is what counts.
                ("agent", _) | (_, "--help" | "--version" | "--test" | "--daemonize") => {
                    args.push("--help");
                }
                (_, "--execute" | "--catalog") => args.push("--noop"),
                _ => args.extend(["--noop", "-e", ""]),
            }
            let output = Command::new(env!("CARGO_BIN_EXE_marionette"))
                .args(&args)
                .env("MARIONETTE_TEST_SYSCONFDIR", dir.path())
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&output.stderr);
            if output.status.code() != Some(0) || stderr.contains("unexpected argument") {
                refused.push(format!("marionette {}: {stderr}", args.join(" ")));
            }
        }
    }
    assert!(refused.is_empty(), "refused:\n{}", refused.join("\n"));
}

#[test]
fn the_filebucket_backs_up_lists_and_diffs_as_puppets_does() {
    let dir = tempfile::Builder::new()
        .prefix("mrtest-fb")
        .tempdir()
        .unwrap();
    let bucket = dir.path().join("bucket");
    let file = dir.path().join("motd");
    let fb = |args: &[&str]| {
        let mut all = vec!["filebucket"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--bucket", bucket.to_str().unwrap()]);
        common::marionette(&all)
    };
    std::fs::write(&file, "one\n").unwrap();
    let first = fb(&["backup", file.to_str().unwrap()]);
    let (shown, old) = first.stdout.trim_end().split_once(": ").unwrap();
    assert_eq!(shown, file.to_str().unwrap(), "{}", first.output());
    std::fs::write(&file, "one\nagain\n").unwrap();
    let second = fb(&["backup", file.to_str().unwrap()]);
    let new = second
        .stdout
        .trim_end()
        .rsplit(' ')
        .next()
        .unwrap()
        .to_string();
    assert_ne!(old, new);
    let listed = fb(&["list"]);
    assert_eq!(listed.stdout.lines().count(), 2, "{}", listed.output());
    assert!(
        listed
            .stdout
            .lines()
            .all(|l| l.ends_with(file.to_str().unwrap()))
    );
    // Two sums, and a sum against a file: diff -u's lines.
    let diffed = fb(&["diff", old, &new]);
    assert_eq!(diffed.code, 0, "{}", diffed.output());
    assert!(
        diffed.stdout.contains("@@ -1 +1,2 @@\n one\n+again\n"),
        "{}",
        diffed.output()
    );
    let against_file = fb(&["diff", old, file.to_str().unwrap()]);
    assert!(
        against_file.stdout.ends_with(" one\n+again\n"),
        "{}",
        against_file.output()
    );
    assert_eq!(fb(&["diff", old, old]).stdout, "");
    let missing = fb(&["diff", old, "0000"]);
    assert_eq!(missing.code, 1, "{}", missing.output());
    let absent = dir.path().join("mrtest-nothere");
    let refused = fb(&["backup", absent.to_str().unwrap()]);
    assert_eq!(
        (refused.code, refused.stderr.as_str()),
        (1, format!("{}: no such file\n", absent.display()).as_str())
    );
}

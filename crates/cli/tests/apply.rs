//! `marionette apply` and `marionette catalog apply` end to end: output,
//! exit codes, reports, the run lock, cycles, noop and catalogs compiled by
//! the real Puppet.

mod common;
use common::timeless;

use std::path::Path;
use std::process::Command;

#[derive(Debug)]
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn marionette(args: &[&str], vardir: &Path) -> Run {
    let output = Command::new(env!("CARGO_BIN_EXE_marionette"))
        .args(args)
        .arg("--vardir")
        .arg(vardir)
        .env("NO_COLOR", "1")
        .output()
        .expect("marionette runs");
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: timeless(&String::from_utf8_lossy(&output.stdout)),
        stderr: timeless(&String::from_utf8_lossy(&output.stderr)),
    }
}

/// `apply --detailed-exitcodes` of `code` with the module path `modules`.
fn apply_with_modules(modules: &Path, code: &str, vardir: &Path) -> Run {
    let modulepath = modules.display().to_string();
    marionette(
        &[
            "apply",
            "--detailed-exitcodes",
            "--modulepath",
            &modulepath,
            "-e",
            code,
        ],
        vardir,
    )
}

#[test]
fn apply_prints_puppets_lines_and_keeps_a_report() {
    let vardir = tempfile::tempdir().unwrap();
    let run = marionette(
        &[
            "apply",
            "--certname",
            "mrtest.example.com",
            "--detailed-exitcodes",
            "-e",
            "notify { 'hello': } notify { 'after': require => Notify['hello'] } notice('compiled')",
        ],
        vardir.path(),
    );
    assert_eq!(run.stderr, "");
    assert_eq!(
        run.stdout,
        "Notice: Scope(Class[main]): compiled\n\
         Notice: Compiled catalog for mrtest.example.com in environment production in N seconds\n\
         Notice: hello\n\
         Notice: /Stage[main]/Main/Notify[hello]/message: defined 'message' as 'hello'\n\
         Notice: after\n\
         Notice: /Stage[main]/Main/Notify[after]/message: defined 'message' as 'after'\n\
         Notice: Applied catalog in N seconds\n"
    );
    assert_eq!(run.code, 2, "changes give 2 with --detailed-exitcodes");
    let report: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(vardir.path().join("state/last_run_report.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(report["status"], "changed");
    assert_eq!(report["host"], "mrtest.example.com");
    assert_eq!(
        report["resource_statuses"]["Notify[hello]"]["events"][0]["message"],
        "defined 'message' as 'hello'"
    );
    let summary =
        std::fs::read_to_string(vardir.path().join("state/last_run_summary.yaml")).unwrap();
    assert!(
        summary.contains("\nresources:\n  changed: 2\n"),
        "{summary}"
    );
    assert!(
        !vardir.path().join("state/run.lock").exists(),
        "the lock is released"
    );
}

#[test]
fn noop_reports_without_changing() {
    let vardir = tempfile::tempdir().unwrap();
    let run = marionette(
        &[
            "apply",
            "--noop",
            "--detailed-exitcodes",
            "-e",
            "notify { 'hello': }",
        ],
        vardir.path(),
    );
    assert!(
        run.stdout
            .contains("Notice: /Stage[main]/Main/Notify[hello]/message: current_value 'absent', should be 'hello' (noop)\n"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("Notice: hello\n"));
    assert_eq!(run.code, 0);
}

/// A deprecated parameter is warned of as Puppet warns: once per place in
/// the manifests, with the place on a line of its own.
#[test]
fn a_deprecated_parameter_is_warned_of_once_per_place() {
    let vardir = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("source");
    std::fs::write(&source, "x\n").unwrap();
    let manifest = dir.path().join("site.pp");
    std::fs::write(
        &manifest,
        format!(
            "['a', 'b'].each |$n| {{\n  file {{ \"{}/${{n}}\": source => '{}', source_permissions => use }}\n}}\n\
             file {{ '{}/c': source => '{}', source_permissions => ignore }}\n",
            dir.path().display(),
            source.display(),
            dir.path().display(),
            source.display()
        ),
    )
    .unwrap();
    let run = marionette(
        &["apply", "--noop", manifest.to_str().unwrap()],
        vardir.path(),
    );
    let warning = "Warning: The `source_permissions` parameter is deprecated. Explicitly set `owner`, `group`, and `mode`.\n";
    assert_eq!(
        run.stderr.matches(warning).count() + run.stdout.matches(warning).count(),
        1,
        "{run:?}"
    );
    assert!(
        format!("{}{}", run.stdout, run.stderr).contains(&format!(
            "{warning}   (file: {}, line: 2)",
            manifest.display()
        )),
        "{run:?}"
    );
}

/// Code given with `-e` has no file: Puppet 7's `apply -e` places the
/// warning at `(file: unknown, line: 1)`.
#[test]
fn a_deprecated_parameter_in_code_given_inline_is_at_an_unknown_file() {
    let vardir = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("source");
    std::fs::write(&source, "x\n").unwrap();
    let code = format!(
        "file {{ '{}/a': source => '{}', source_permissions => use }}",
        dir.path().display(),
        source.display()
    );
    let run = marionette(&["apply", "--noop", "-e", &code], vardir.path());
    assert!(
        run.stderr.contains(
            "Warning: The `source_permissions` parameter is deprecated. Explicitly set `owner`, `group`, and `mode`.\n   (file: unknown, line: 1)\n"
        ),
        "{run:?}"
    );
}

#[test]
fn a_cycle_fails_before_anything_is_applied() {
    let vardir = tempfile::tempdir().unwrap();
    let run = marionette(
        &[
            "apply",
            "--detailed-exitcodes",
            "--graph",
            "-e",
            "notify { 'a': require => Notify['b'] } notify { 'b': require => Notify['a'] } notify { 'c': }",
        ],
        vardir.path(),
    );
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stderr,
        "Error: Found 1 dependency cycle:\n(Notify[a] => Notify[b] => Notify[a])\n\
         Try the '--graph' option and opening the resulting '.dot' file in OmniGraffle or GraphViz\n\
         Error: Failed to apply catalog: One or more resource dependency cycles detected in graph\n"
    );
    assert!(!run.stdout.contains("Notice: c\n"), "nothing is applied");
    let dot =
        std::fs::read_to_string(vardir.path().join("state/graphs/relationships.dot")).unwrap();
    assert!(dot.starts_with("digraph Relationships {"), "{dot}");
    assert!(dot.contains("label = \"Notify[a]\""), "{dot}");
}

#[test]
fn a_second_run_is_refused_while_one_holds_the_lock_and_a_stale_lock_is_cleared() {
    let vardir = tempfile::tempdir().unwrap();
    let lock = vardir.path().join("state/run.lock");
    std::fs::create_dir_all(lock.parent().unwrap()).unwrap();
    // A live Marionette run (a process that calls itself so).
    let mut run = std::process::Command::new("bash")
        .args(["-c", "exec -a marionette sleep 30"])
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(200));
    std::fs::write(&lock, run.id().to_string()).unwrap();
    let busy = marionette(&["apply", "-e", "notify { 'x': }"], vardir.path());
    let _ = run.kill();
    let _ = run.wait();
    assert_eq!(busy.code, 1);
    assert!(
        busy.stderr.starts_with(&format!(
            "Error: Run of marionette already in progress (pid {}, lock file ",
            run.id()
        )),
        "{}",
        busy.stderr
    );
    std::fs::write(&lock, "999999999").unwrap();
    let stale = marionette(&["apply", "-e", "notify { 'x': }"], vardir.path());
    assert_eq!(stale.code, 0, "{}", stale.stderr);
    assert!(
        stale
            .stdout
            .contains("Notice: Removed a stale run lock left by process 999999999, which is no longer running\n"),
        "{}",
        stale.stdout
    );
}

/// A parameter nested 100,000 deep, built at run time, is a located
/// error, and so is one in a catalog read from a file: applying either
/// overflowed the stack (the process aborted).
#[test]
fn a_parameter_nested_too_deep_is_an_error_not_a_crash() {
    let vardir = tempfile::tempdir().unwrap();
    let run = marionette(
        &[
            "apply",
            "-e",
            "$deep = Integer[1, 100000].reduce([]) |$memo, $i| { [$memo] }\nnotify { 'mrtest-deep': message => $deep }",
        ],
        vardir.path(),
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains(
            "The value of parameter 'message' is nested more than 1000 levels deep (line: 2, column: 25)"
        ),
        "{}",
        run.stderr
    );
    assert!(!run.stdout.contains("Applied catalog"), "{}", run.stdout);
    let depth = 100_000;
    let catalog = vardir.path().join("mrtest-deep.json");
    std::fs::write(
        &catalog,
        format!(
            r#"{{"name":"mrtest","version":1,"resources":[{{"type":"Notify","title":"mrtest-deep","tags":[],"exported":false,"parameters":{{"message":{}{}}}}}],"edges":[]}}"#,
            "[".repeat(depth),
            "]".repeat(depth)
        ),
    )
    .unwrap();
    let run = marionette(
        &["catalog", "apply", catalog.to_str().unwrap()],
        vardir.path(),
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("is not a catalog in Puppet's JSON format: ")
            && run
                .stderr
                .contains("nested more than 128 levels deep at line 1 column "),
        "{}",
        run.stderr
    );
}

/// A format asking for a width or precision of a billion characters is
/// an error, as Ruby's beyond its own limit ("width too big"), not an
/// allocation of gigabytes that aborts the process (with 2 GB of address
/// space, as on a small machine); a width of a million is made, as Puppet
/// makes it, and so is a precision past 65,535, where Rust's formatting
/// panics.
#[test]
fn huge_format_widths_are_errors_not_aborts() {
    let vardir = tempfile::tempdir().unwrap();
    for (code, expected) in [
        ("notice(sprintf('%999999999d', 1))", "width too big"),
        ("notice(sprintf('%*d', 999999999, 1))", "width too big"),
        (
            "notice(sprintf('%-99999999999999999999999s', 'x'))",
            "width too big",
        ),
        ("notice(sprintf('%.999999999f', 1))", "precision too big"),
        ("notice(sprintf('%.999999999e', 1))", "precision too big"),
        ("notice(String(1, '%999999999d'))", "width too big"),
        (
            "notice(sprintf('%1000000d', 1).length)",
            "Notice: Scope(Class[main]): 1000000\n",
        ),
        (
            "notice(sprintf('%.1000000f', 1).length)",
            "Notice: Scope(Class[main]): 1000002\n",
        ),
        // Past Rust's own limit of formatting, 65,535 (a panic before).
        (
            "notice(sprintf('%.70000e', 0.1).length)",
            "Notice: Scope(Class[main]): 70006\n",
        ),
        (
            "notice(sprintf('%.3e', 0.1))",
            "Notice: Scope(Class[main]): 1.000e-01\n",
        ),
    ] {
        let output = Command::new("sh")
            .arg("-c")
            .arg(r#"ulimit -v 2000000 && exec "$0" "$@""#)
            .arg(env!("CARGO_BIN_EXE_marionette"))
            .args(["apply", "--vardir"])
            .arg(vardir.path())
            .args(["-e", code])
            .output()
            .unwrap();
        let (stdout, stderr) = (
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr),
        );
        if expected.starts_with("Notice") {
            assert!(output.status.success(), "{code}: {stderr}");
            assert!(stdout.contains(expected), "{code}: {stdout}");
        } else {
            assert_eq!(output.status.code(), Some(1), "{code}: {stderr}");
            assert!(
                stderr.contains(&format!(
                    "Error while evaluating a Function Call, {expected} (line: 1, column: "
                )),
                "{code}: {stderr}"
            );
        }
    }
}

/// Runs killed (SIGKILL) while they write their report leave both reports
/// whole: each is written aside and renamed into place, the last one
/// becoming the previous one by a rename too. Writing the new report over
/// the previous one in place left it torn.
#[test]
fn a_run_killed_while_writing_its_report_leaves_whole_reports() {
    let dir = tempfile::tempdir().unwrap();
    let vardir = dir.path().join("var");
    let state = vardir.join("state");
    // Two sizes, so that a new report written over part of an old one
    // cannot read as whole by chance.
    let manifests: Vec<_> = [4000, 3000]
        .iter()
        .map(|count| {
            let path = dir.path().join(format!("mrtest-{count}.pp"));
            std::fs::write(
                &path,
                format!(
                    "range(1, {count}).each |$i| {{ file {{ \"/tmp/mrtest-report-kill/f${{i}}\": ensure => absent }} }}\n"
                ),
            )
            .unwrap();
            path
        })
        .collect();
    let apply = |manifest: &Path| {
        std::process::Command::new(env!("CARGO_BIN_EXE_marionette"))
            .args(["apply", "--vardir"])
            .arg(&vardir)
            .arg(manifest)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap()
    };
    for manifest in &manifests {
        assert!(apply(manifest).wait().unwrap().success());
    }
    // What the state directory holds besides the lock: each entry's size
    // and time.
    let listing = || -> Vec<(std::ffi::OsString, u64, std::time::SystemTime)> {
        let mut entries: Vec<_> = std::fs::read_dir(&state)
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name() != "run.lock")
            .filter_map(|e| {
                let meta = e.metadata().ok()?;
                Some((e.file_name(), meta.len(), meta.modified().ok()?))
            })
            .collect();
        entries.sort();
        entries
    };
    let whole = |round: usize| {
        for name in ["last_run_report.json", "previous_run_report.json"] {
            let text = std::fs::read_to_string(state.join(name))
                .unwrap_or_else(|e| panic!("round {round}: {name}: {e}"));
            let parsed: Result<serde_json::Value, _> = serde_json::from_str(&text);
            assert!(parsed.is_ok(), "round {round}: {name} is torn: {parsed:?}");
        }
    };
    let mut killed_while_writing = 0;
    for round in 0..12 {
        let before = listing();
        let mut run = apply(&manifests[round % 2]);
        // The first change in the state directory is the report being
        // written; the run is killed a moment into it.
        let started = std::time::Instant::now();
        let changed = loop {
            if run.try_wait().unwrap().is_some() {
                break false;
            }
            if listing() != before {
                break true;
            }
            assert!(
                started.elapsed().as_secs() < 120,
                "round {round}: no report"
            );
            std::thread::sleep(std::time::Duration::from_micros(500));
        };
        if changed {
            std::thread::sleep(std::time::Duration::from_millis((round as u64 * 7) % 40));
            let _ = run.kill();
            if run.wait().unwrap().code().is_none() {
                killed_while_writing += 1;
            }
        }
        whole(round);
    }
    assert!(
        killed_while_writing >= 6,
        "{killed_while_writing} runs killed"
    );
    // A run after them writes its report and leaves nothing aside.
    assert!(apply(&manifests[0]).wait().unwrap().success());
    whole(12);
    let names: Vec<_> = listing().into_iter().map(|(name, ..)| name).collect();
    assert_eq!(
        names,
        [
            "last_run_report.json",
            "last_run_summary.yaml",
            "previous_run_report.json"
        ],
    );
}

#[test]
fn an_unusable_state_directory_is_named_once_with_its_cause() {
    let vardir = tempfile::tempdir().unwrap();
    // A file where the state directory should be.
    std::fs::write(vardir.path().join("state"), "not a directory").unwrap();
    let run = marionette(&["apply", "-e", "notify { 'x': }"], vardir.path());
    assert_eq!(run.code, 1, "{}", run.stderr);
    let expected = format!(
        "Error: Could not create the state directory {}: File exists (os error 17)\n",
        vardir.path().join("state").display()
    );
    assert_eq!(run.stderr, expected);
}

#[test]
fn catalogs_compiled_by_puppet_apply_too() {
    let vardir = tempfile::tempdir().unwrap();
    let catalog = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/conformance/0070_class_run_stages/expected.json");
    let run = marionette(
        &["catalog", "apply", catalog.to_str().unwrap()],
        vardir.path(),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "Notice: mrtest-repos\n\
         Notice: /Stage[mrtest_pre]/Mrtest_repos/Notify[mrtest-repos]/message: defined 'message' as 'mrtest-repos'\n\
         Notice: mrtest-main\n\
         Notice: /Stage[main]/Mrtest_main/Notify[mrtest-main]/message: defined 'message' as 'mrtest-main'\n\
         Notice: mrtest-cleanup\n\
         Notice: /Stage[mrtest_post]/Mrtest_cleanup/Notify[mrtest-cleanup]/message: defined 'message' as 'mrtest-cleanup'\n\
         Notice: Applied catalog in N seconds\n"
    );
    let garbage = vardir.path().join("garbage.json");
    std::fs::write(&garbage, "{\"not\": \"a catalog\"}").unwrap();
    let bad = marionette(
        &["catalog", "apply", garbage.to_str().unwrap()],
        vardir.path(),
    );
    assert_eq!(bad.code, 1);
    assert!(
        bad.stderr
            .contains("is not a catalog in Puppet's JSON format"),
        "{}",
        bad.stderr
    );
}

/// The run checks its files for sync ahead of time on other threads (the
/// file provider reads ahead). A change made during the run, here by an
/// `exec` that runs after the first file was checked, must make it look
/// again: the later files are repaired, not taken for in sync as they were
/// before the `exec`.
#[test]
fn files_changed_during_the_run_are_looked_at_again() {
    let vardir = tempfile::tempdir().unwrap();
    let dir = tempfile::Builder::new()
        .prefix("mrtest-ahead")
        .tempdir()
        .unwrap();
    let d = dir.path().display().to_string();
    let mut manifest = format!(
        "file {{ '{d}/f0': content => \"x\\n\", mode => '0644' }}\n\
         exec {{ 'clobber': command => \"/bin/sh -c 'printf y > {d}/f30; chmod 0600 {d}/f31'\", require => File['{d}/f0'] }}\n"
    );
    for i in 0..40 {
        let path = dir.path().join(format!("f{i}"));
        std::fs::write(&path, "x\n").unwrap();
        std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o644))
            .unwrap();
        if i > 0 {
            manifest.push_str(&format!(
                "file {{ '{d}/f{i}': content => \"x\\n\", mode => '0644', require => Exec['clobber'] }}\n"
            ));
        }
    }
    let site = dir.path().join("site.pp");
    std::fs::write(&site, manifest).unwrap();
    let run = marionette(
        &[
            "apply",
            "--certname",
            "mrtest.example.com",
            site.to_str().unwrap(),
        ],
        vardir.path(),
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("f30")).unwrap(),
        "x\n",
        "{}",
        run.stdout
    );
    let mode = std::fs::metadata(dir.path().join("f31")).unwrap();
    assert_eq!(
        std::os::unix::fs::PermissionsExt::mode(&mode.permissions()) & 0o7777,
        0o644,
        "{}",
        run.stdout
    );
    let changed: Vec<&str> = run
        .stdout
        .lines()
        .filter(|line| line.contains("/File["))
        .collect();
    assert_eq!(
        changed,
        [
            format!(
                "Notice: /Stage[main]/Main/File[{d}/f30]/content: content changed '{{sha256}}a1fce4363854ff888cff4b8e7875d600c2682390412a8cf79b37d0b11148b0fa' to '{{sha256}}73cb3858a687a8494ca3323053016282f3dad39d42cf62ca4e79dda2aac7d9ac'"
            ),
            format!("Notice: /Stage[main]/Main/File[{d}/f31]/mode: mode changed '0600' to '0644'"),
        ],
        "{}",
        run.stdout
    );
}

/// Deferred calls are made on the node just before applying, arguments
/// first; they travel through a compiled catalog as calls. A call that
/// fails stops the run before anything is applied, as in Puppet.
#[test]
fn deferred_calls_are_made_before_applying() {
    let vardir = tempfile::tempdir().unwrap();
    let dir = tempfile::Builder::new()
        .prefix("mrtest-deferred")
        .tempdir()
        .unwrap();
    let target = dir.path().join("out");
    let manifest = format!(
        "notify {{ 'x': message => Deferred('join', [['a', 'b'], '-']) }}\n\
         file {{ '{}': content => Deferred('sprintf', ['%s-%s', 'p', Deferred('upcase', ['q'])]) }}\n",
        target.display()
    );
    let site = dir.path().join("site.pp");
    std::fs::write(&site, &manifest).unwrap();
    let site = site.to_str().unwrap();
    let run = marionette(
        &["apply", "--certname", "mrtest.example.com", site],
        vardir.path(),
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("Notify[x]/message: defined 'message' as 'a-b'"),
        "{}",
        run.stdout
    );
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "p-Q");

    // Compiled as `puppet catalog compile` compiles, the catalog holds
    // the calls' text, with a warning for each.
    let compile = |extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_marionette"))
            .args(["catalog", "compile", "--certname", "mrtest.example.com"])
            .args(extra)
            .arg(site)
            .output()
            .unwrap()
    };
    let compiled = compile(&[]);
    assert!(compiled.status.success(), "{compiled:?}");
    let text = String::from_utf8_lossy(&compiled.stdout);
    assert!(
        text.contains(
            r#""message": "Deferred({'name' => 'join', 'arguments' => [['a', 'b'], '-']})""#
        ),
        "{text}"
    );
    assert_eq!(
        String::from_utf8_lossy(&compiled.stderr).lines().next(),
        Some(
            format!(
                "Warning: Notify[x]['message'] contains a Deferred value. It will be converted to the String \
                 'Deferred({{'name' => 'join', 'arguments' => [['a', 'b'], '-']}})' (file: {site}, line: 1)"
            )
            .as_str()
        )
    );

    // With --rich-data it holds the calls in the rich-data form an agent
    // gets from its server, and applying it makes them.
    std::fs::remove_file(&target).unwrap();
    let compiled = compile(&["--rich-data"]);
    assert!(compiled.status.success(), "{compiled:?}");
    let text = String::from_utf8_lossy(&compiled.stdout);
    assert!(
        text.contains("\"__ptype\": \"Deferred\""),
        "the catalog keeps the call: {text}"
    );
    let catalog = dir.path().join("catalog.json");
    std::fs::write(&catalog, text.as_bytes()).unwrap();
    let run = marionette(
        &["catalog", "apply", catalog.to_str().unwrap()],
        vardir.path(),
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "p-Q");

    // An unknown function: Puppet's message, and nothing is applied.
    std::fs::remove_file(&target).unwrap();
    let failing = format!(
        "notify {{ 'a': message => Deferred('nosuchfn', [1]) }}\n\
         file {{ '{}': content => 'x' }}\n",
        target.display()
    );
    std::fs::write(dir.path().join("site.pp"), failing).unwrap();
    let run = marionette(
        &["apply", "--certname", "mrtest.example.com", site],
        vardir.path(),
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(run.stderr, "Error: Unknown function 'nosuchfn'\n");
    assert!(!target.exists(), "nothing is applied");
}

/// The node ids of a DOT graph by label, and its edges.
fn dot_graph(
    dot: &str,
) -> (
    std::collections::HashMap<String, String>,
    Vec<(String, String)>,
) {
    let mut nodes = std::collections::HashMap::new();
    let mut edges = Vec::new();
    for line in dot.lines().map(str::trim) {
        if let Some((id, rest)) = line.split_once(" [label = \"") {
            let label = rest.split('"').next().unwrap_or_default();
            nodes.insert(label.to_string(), id.to_string());
        } else if let Some((from, to)) = line.trim_end_matches(';').split_once(" -> ") {
            let to = to.split(' ').next().unwrap_or_default();
            edges.push((from.to_string(), to.to_string()));
        }
    }
    (nodes, edges)
}

#[test]
fn a_file_requires_its_nearest_managed_directory_only() {
    let vardir = tempfile::tempdir().unwrap();
    let root = tempfile::Builder::new()
        .prefix("mrtest-graph")
        .tempdir()
        .unwrap();
    let top = root.path().display().to_string();
    // Declared file first: the automatic relationships order it after its
    // directories all the same.
    let manifest = format!(
        "file {{ '{top}/a/b/f': ensure => file, content => 'x' }}\n\
         file {{ ['{top}/a', '{top}/a/b']: ensure => directory }}"
    );
    let run = marionette(&["apply", "--graph", "-e", &manifest], vardir.path());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        std::fs::read_to_string(root.path().join("a/b/f")).unwrap(),
        "x"
    );
    let dot =
        std::fs::read_to_string(vardir.path().join("state/graphs/relationships.dot")).unwrap();
    let (nodes, edges) = dot_graph(&dot);
    let node = |path: &str| nodes[&format!("File[{top}{path}]")].clone();
    let has = |from: &str, to: &str| edges.contains(&(node(from), node(to)));
    assert!(has("/a", "/a/b"), "{dot}");
    assert!(has("/a/b", "/a/b/f"), "{dot}");
    assert!(!has("/a", "/a/b/f"), "only the nearest directory: {dot}");
}

#[test]
fn a_large_run_is_reported_whole_and_in_order_and_then_rests() {
    // Above the size at which conversion, the graph and the report are
    // split over threads.
    let vardir = tempfile::tempdir().unwrap();
    let root = tempfile::Builder::new()
        .prefix("mrtest-large")
        .tempdir()
        .unwrap();
    let top = root.path().display().to_string();
    let manifest = format!(
        "file {{ ['{top}/d0', '{top}/d1']: ensure => directory }}\n\
         600.each |$i| {{\n\
           file {{ \"{top}/d${{$i % 2}}/f${{i}}\": ensure => file, mode => '0640', content => \"file ${{i}}\\n\" }}\n\
         }}"
    );
    let first = marionette(
        &["apply", "--detailed-exitcodes", "-e", &manifest],
        vardir.path(),
    );
    assert_eq!(first.code, 2, "{}", first.stderr);
    assert_eq!(
        std::fs::read_to_string(root.path().join("d1/f599")).unwrap(),
        "file 599\n"
    );
    let second = marionette(
        &["apply", "--detailed-exitcodes", "-e", &manifest],
        vardir.path(),
    );
    assert_eq!(second.code, 0, "nothing left to change: {}", second.stdout);
    let report: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(vardir.path().join("state/last_run_report.json")).unwrap(),
    )
    .unwrap();
    let statuses = report["resource_statuses"].as_object().unwrap();
    let expected: Vec<String> = ["d0", "d1"]
        .iter()
        .map(|d| format!("File[{top}/{d}]"))
        .chain((0..600).map(|i| format!("File[{top}/d{}/f{i}]", i % 2)))
        .collect();
    let found: Vec<&String> = statuses.keys().collect();
    assert_eq!(found, expected.iter().collect::<Vec<_>>());
    let last = &statuses[&format!("File[{top}/d1/f599]")];
    assert_eq!(
        last["containment_path"],
        serde_json::json!(["Stage[main]", "Main", format!("File[{top}/d1/f599]")])
    );
    assert_eq!(last["changed"], false);
    // The first run's report, longer than the second's (it has events),
    // is kept whole as the previous one.
    let previous: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(vardir.path().join("state/previous_run_report.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(previous["status"], "changed");
    assert_eq!(report["status"], "unchanged");
    let created = &previous["resource_statuses"][&format!("File[{top}/d1/f599]")];
    assert_eq!(created["changed"], true, "{created}");
    // A third run writes over the first's report, which was longer.
    let third = marionette(
        &["apply", "--detailed-exitcodes", "-e", &manifest],
        vardir.path(),
    );
    assert_eq!(third.code, 0, "{}", third.stdout);
    for name in ["last_run_report.json", "previous_run_report.json"] {
        let text = std::fs::read_to_string(vardir.path().join("state").join(name)).unwrap();
        let again: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(again["status"], "unchanged", "{name}");
    }
}

#[test]
fn file_checksums_are_remembered_between_runs_and_any_write_is_noticed() {
    let vardir = tempfile::tempdir().unwrap();
    let root = tempfile::Builder::new()
        .prefix("mrtest-checksums")
        .tempdir()
        .unwrap();
    let same = root.path().join("same");
    let kept = root.path().join("kept");
    std::fs::write(&same, "same\n").unwrap();
    std::fs::write(&kept, "kept\n").unwrap();
    let manifest = format!(
        "file {{ '{}': content => \"same\\n\" }}\nfile {{ '{}': content => \"kept\\n\" }}\n",
        same.display(),
        kept.display()
    );
    let apply = || {
        marionette(
            &["apply", "--detailed-exitcodes", "-e", &manifest],
            vardir.path(),
        )
    };
    // Checksums are only kept for files that have not changed for a few
    // seconds (the file systems' clock is coarse).
    let fresh = apply();
    assert_eq!(fresh.code, 0, "{}{}", fresh.stdout, fresh.stderr);
    let record = vardir.path().join("state/file_checksums");
    let listed = |path: &Path| {
        std::fs::read_to_string(&record)
            .unwrap_or_default()
            .lines()
            .any(|line| line.ends_with(&format!(" {}", path.display())))
    };
    assert!(!listed(&same), "a file written just now is not remembered");
    std::thread::sleep(std::time::Duration::from_millis(3200));
    let settled = apply();
    assert_eq!(settled.code, 0, "{}{}", settled.stdout, settled.stderr);
    assert!(
        listed(&same) && listed(&kept),
        "{:?}",
        std::fs::read_to_string(&record)
    );

    // The record is believed while the file is as it was: a checksum
    // altered in the record makes the run see other content and write the
    // manifest's again.
    let text = std::fs::read_to_string(&record).unwrap();
    let mut altered = String::new();
    for line in text.lines() {
        if line.ends_with(&format!(" {}", kept.display())) {
            let fields: Vec<&str> = line.splitn(9, ' ').collect();
            let sum = format!("{{sha256}}{}", "0".repeat(64));
            altered.push_str(
                &[&fields[..7], &[sum.as_str()], &fields[8..]]
                    .concat()
                    .join(" "),
            );
        } else {
            altered.push_str(line);
        }
        altered.push('\n');
    }
    std::fs::write(&record, altered).unwrap();
    let believed = apply();
    assert_eq!(believed.code, 2, "{}{}", believed.stdout, believed.stderr);
    assert!(
        believed.stdout.contains(&format!(
            "File[{}]/content: content changed '{{sha256}}{}'",
            kept.display(),
            "0".repeat(64)
        )),
        "{}",
        believed.stdout
    );

    // A write of the same size, with the modification time put back,
    // still changes the file's change time: the run reads it and repairs it.
    let mtime = std::fs::metadata(&same).unwrap().modified().unwrap();
    std::fs::write(&same, "SAME\n").unwrap();
    std::fs::File::options()
        .write(true)
        .open(&same)
        .unwrap()
        .set_modified(mtime)
        .unwrap();
    let noticed = apply();
    assert_eq!(noticed.code, 2, "{}{}", noticed.stdout, noticed.stderr);
    assert!(
        noticed.stdout.contains(&format!(
            "File[{}]/content: content changed",
            same.display()
        )),
        "{}",
        noticed.stdout
    );
    assert_eq!(std::fs::read_to_string(&same).unwrap(), "same\n");
    let rested = apply();
    assert_eq!(rested.code, 0, "{}{}", rested.stdout, rested.stderr);
}

#[test]
fn schedules_hold_resources_back_unless_ignored_and_a_missing_one_stops_the_run() {
    let vardir = tempfile::tempdir().unwrap();
    let manifest = "schedule { 'mrtest-blackout': period => never }
        notify { 'mrtest-held': schedule => 'mrtest-blackout' }
        notify { 'mrtest-daily': schedule => daily }";
    let first = marionette(&["apply", "-e", manifest, "--debug"], vardir.path());
    assert_eq!(first.code, 0, "{}", first.stderr);
    assert!(
        !first.stdout.contains("Notice: mrtest-held"),
        "{}",
        first.stdout
    );
    assert!(
        first
            .stdout
            .contains("Debug: /Stage[main]/Main/Notify[mrtest-held]: Not scheduled\n"),
        "{}",
        first.stdout
    );
    assert!(
        first.stdout.contains("Notice: mrtest-daily\n"),
        "{}",
        first.stdout
    );
    let report: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(vardir.path().join("state/last_run_report.json")).unwrap(),
    )
    .unwrap();
    let held = &report["resource_statuses"]["Notify[mrtest-held]"];
    assert_eq!(held["skipped"], true, "{held}");
    assert_eq!(held["events"], serde_json::json!([]), "{held}");
    // Only the resource that was checked is remembered, and when.
    let state: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(vardir.path().join("state/state.json")).unwrap(),
    )
    .unwrap();
    let checked = state["Notify[mrtest-daily]"]["checked"].as_i64().unwrap();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    assert!((now - 60..=now).contains(&checked), "{state}");
    assert_eq!(state.as_object().unwrap().len(), 1, "{state}");

    // Checked a moment ago: not due again today.
    let second = marionette(&["apply", "-e", manifest], vardir.path());
    assert!(!second.stdout.contains("mrtest-daily"), "{}", second.stdout);
    let ignored = marionette(
        &["apply", "-e", manifest, "--ignoreschedules"],
        vardir.path(),
    );
    assert!(
        ignored.stdout.contains("Notice: mrtest-held\n"),
        "{}",
        ignored.stdout
    );
    assert!(
        ignored.stdout.contains("Notice: mrtest-daily\n"),
        "{}",
        ignored.stdout
    );

    // A schedule nobody declared stops the run before anything is applied.
    let missing = marionette(
        &[
            "apply",
            "-e",
            "notify { 'mrtest-first': }\nnotify { 'mrtest-lost': schedule => 'mrtest-nosuch' }",
        ],
        vardir.path(),
    );
    assert_eq!(missing.code, 1);
    assert!(
        !missing.stdout.contains("mrtest-first"),
        "{}",
        missing.stdout
    );
    assert!(
        missing.stderr.ends_with(
            "Error: Notify[mrtest-lost] names schedule 'mrtest-nosuch', which is neither declared nor one every run has (line: 2)\nError: Failed to apply catalog: Could not find schedule mrtest-nosuch\n"
        ),
        "{}",
        missing.stderr
    );
}

#[test]
fn audited_changes_are_reported_with_the_value_recorded_before() {
    let vardir = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let watched = dir.path().join("mrtest-watched");
    std::fs::write(&watched, "one\n").unwrap();
    let manifest = format!("file {{ '{}': audit => content }}", watched.display());
    let first = marionette(&["apply", "-e", &manifest], vardir.path());
    assert!(
        first
            .stdout
            .contains("/content: audit change: newly-recorded value {sha256}"),
        "{}",
        first.stdout
    );
    std::fs::write(&watched, "two\n").unwrap();
    let second = marionette(
        &["apply", "-e", &manifest, "--detailed-exitcodes"],
        vardir.path(),
    );
    // An audit event is no change: nothing was changed by the run.
    assert_eq!(second.code, 0, "{}", second.stderr);
    let sha = |text: &str| match text {
        "one\n" => "{sha256}2c8b08da5ce60398e1f19af0e5dccc744df274b826abe585eaba68c525434806",
        _ => "{sha256}27dd8ed44a83ff94d557f9fd0412ed5a8cbca69ea04922d88c01184a07300a5a",
    };
    assert!(
        second.stdout.contains(&format!(
            "/content: audit change: previously recorded value '{}' has been changed to '{}'\n",
            sha("one\n"),
            sha("two\n")
        )),
        "{}",
        second.stdout
    );
    let report: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(vardir.path().join("state/last_run_report.json")).unwrap(),
    )
    .unwrap();
    let status = &report["resource_statuses"][format!("File[{}]", watched.display())];
    assert_eq!(status["out_of_sync"], false, "{status}");
    let event = &status["events"][0];
    assert_eq!(event["status"], "audit", "{event}");
    assert_eq!(event["audited"], true, "{event}");
    assert_eq!(event["historical_value"], sha("one\n"), "{event}");
    assert_eq!(event["previous_value"], sha("two\n"), "{event}");
    let events = report["metrics"]["events"]["values"].as_array().unwrap();
    assert!(
        events.contains(&serde_json::json!(["audit", "Audit", 1])),
        "{events:?}"
    );
    let summary =
        std::fs::read_to_string(vardir.path().join("state/last_run_summary.yaml")).unwrap();
    assert!(summary.contains("events:\n  audit: 1\n"), "{summary}");
}

/// A usage error exits 1, as Puppet's do, never the argument parser's 2,
/// which `--detailed-exitcodes` would read as "changes applied"; help and
/// the version exit 0.
#[test]
fn usage_errors_exit_1() {
    for args in [
        &["apply", "--mrtest-no-such-option", "x.pp"][..],
        &["catalog", "compile", "--certname"][..],
        &["lookup", "--merge"][..],
        &["mrtest-no-such-command"][..],
    ] {
        let run = common::marionette(args);
        assert_eq!(run.code, 1, "{args:?}: {}", run.output());
        assert!(!run.stderr.is_empty(), "{args:?} says what is wrong");
    }
    for args in [
        &["--help"][..],
        &["--version"][..],
        &["lookup", "--help"][..],
    ] {
        assert_eq!(common::marionette(args).code, 0, "{args:?}");
    }
}

/// `catalog compile` for another node with this machine's facts gives the
/// facts this machine's certificate name (`clientcert`), which the trusted
/// data then name, as `puppet catalog compile NODE` does; with the node's
/// facts given, theirs.
#[test]
fn a_compile_with_this_machines_facts_names_this_machine() {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site.pp");
    std::fs::write(
        &site,
        "notify { \"cert ${trusted['certname']} ${clientcert}\": }\n",
    )
    .unwrap();
    let site = site.to_str().unwrap();
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap();
    let host = host.trim();
    let compiled = common::marionette(&[
        "catalog",
        "compile",
        "--certname",
        "mrtest.example.com",
        site,
    ]);
    assert_eq!(compiled.code, 0, "{}", compiled.output());
    assert!(
        compiled.stdout.contains(&format!("cert {host} {host}")),
        "{}",
        compiled.output()
    );
    let facts = dir.path().join("facts.json");
    std::fs::write(
        &facts,
        r#"{"name": "mrtest.example.com", "values": {"clientcert": "mrtest.example.com"}}"#,
    )
    .unwrap();
    let given = common::marionette(&[
        "catalog",
        "compile",
        "--certname",
        "mrtest.example.com",
        "--facts",
        facts.to_str().unwrap(),
        site,
    ]);
    assert_eq!(given.code, 0, "{}", given.output());
    assert!(
        given
            .stdout
            .contains("cert mrtest.example.com mrtest.example.com"),
        "{}",
        given.output()
    );
}

/// `apply` says a compile error once, as `puppet apply` does, where
/// `catalog compile` says it again as the reason the catalog could not be
/// found (and a failed lookup once more, naming the node).
#[test]
fn apply_says_a_compile_error_once() {
    for (code, error) in [
        (
            "fail('mrtest boom')",
            "Error: Evaluation Error: Error while evaluating a Function Call, mrtest boom",
        ),
        (
            "lookup('mrtest::nokey')",
            "Error: Function lookup() did not find a value for the name 'mrtest::nokey'",
        ),
    ] {
        let run = common::marionette(&["apply", "-e", code]);
        assert_eq!(run.code, 1, "{}", run.output());
        let errors: Vec<&str> = run
            .stderr
            .lines()
            .filter(|l| l.starts_with("Error:"))
            .collect();
        assert_eq!(errors.len(), 1, "{}", run.output());
        assert!(errors[0].starts_with(error), "{}", run.output());
    }
}

/// Compile errors and warnings are coloured as Puppet colours them when
/// colour is asked for, and never in a pipe otherwise.
#[test]
fn compile_errors_and_warnings_take_their_colour() {
    let coloured = common::marionette(&[
        "apply",
        "--color=true",
        "-e",
        "warning('w') fail('mrtest boom')",
    ]);
    assert!(
        coloured
            .stderr
            .contains("\x1b[1;33mWarning: Scope(Class[main]): w\x1b[0m"),
        "{}",
        coloured.output()
    );
    assert!(
        coloured
            .stderr
            .contains("\x1b[1;31mError: Evaluation Error"),
        "{}",
        coloured.output()
    );
    let piped = common::marionette(&["apply", "-e", "warning('w') fail('mrtest boom')"]);
    assert!(!piped.stderr.contains('\x1b'), "{}", piped.output());
}

/// The README's demo keeps its promise: the first run changes things
/// (exit 2 with --detailed-exitcodes), the second nothing (exit 0). Run
/// in a temporary directory in place of /tmp/marionette-demo.
#[test]
fn the_demo_changes_nothing_the_second_time() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("mrtest-demo");
    let demo = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/demo.pp"
    ))
    .unwrap()
    .replace("/tmp/marionette-demo", root.to_str().unwrap());
    let manifest = dir.path().join("demo.pp");
    std::fs::write(&manifest, demo).unwrap();
    let vardir = dir.path().join("var");
    let run = || {
        common::marionette(&[
            "apply",
            "--detailed-exitcodes",
            "--vardir",
            vardir.to_str().unwrap(),
            manifest.to_str().unwrap(),
        ])
    };
    let first = run();
    assert_eq!(first.code, 2, "{}", first.output());
    assert!(root.join("README").is_file(), "{}", first.output());
    let second = run();
    assert_eq!(second.code, 0, "{}", second.output());
}

/// Options may be spelled with underscores, as Puppet's settings are.
#[test]
fn options_take_puppet_spellings() {
    let strict = common::marionette(&["apply", "--strict_variables", "-e", "notice($mrtest_nope)"]);
    assert_eq!(strict.code, 1, "{}", strict.output());
    assert!(
        strict.stderr.contains("Unknown variable"),
        "{}",
        strict.stderr
    );
    let dashed = common::marionette(&["apply", "--strict-variables", "-e", "notice(1)"]);
    assert_eq!(dashed.code, 0, "{}", dashed.output());
}

/// A reader that goes away (`| head -1`) ends the output quietly: no
/// panic, no message, the command's own exit status.
#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    use std::io::Read;
    let dir = tempfile::tempdir().unwrap();
    let manifest = dir.path().join("site.pp");
    let code: String = (0..2000).map(|i| format!("notice('line {i}')\n")).collect();
    std::fs::write(&manifest, code).unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_marionette"))
        .args(["apply", "--noop", "--vardir"])
        .arg(dir.path())
        .arg(&manifest)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !stderr.contains("panicked") && !stderr.contains("bug"),
        "{stderr}"
    );
    assert_eq!(output.status.code(), Some(0), "{stderr}");
}

/// An environment that does not exist is an error, as in Puppet, not an
/// empty environment.
#[test]
fn a_nonexistent_environment_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_marionette"))
        .args([
            "apply",
            "--environment",
            "mrtest_nosuch",
            "--environmentpath",
        ])
        .arg(dir.path())
        .arg("--vardir")
        .arg(dir.path().join("state"))
        .args(["-e", "notice('x')"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(
            "Could not find a directory environment named 'mrtest_nosuch' anywhere in the path: "
        ) && !String::from_utf8_lossy(&output.stdout).contains("Notice"),
        "{stderr}"
    );
    // Puppet always has `production`, with or without its directory.
    let production = std::process::Command::new(env!("CARGO_BIN_EXE_marionette"))
        .args(["apply", "--environment", "production", "--environmentpath"])
        .arg(dir.path())
        .arg("--vardir")
        .arg(dir.path().join("state"))
        .args(["-e", "notice('x')"])
        .output()
        .unwrap();
    assert_eq!(
        production.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&production.stderr)
    );
    assert!(String::from_utf8_lossy(&production.stdout).contains("Notice: Scope(Class[main]): x"));
}

/// A comma in a group name would make `useradd -G` join two groups: it
/// is refused before anything runs, with Puppet's message (and GID
/// numbers too).
#[test]
fn group_names_with_commas_or_numbers_are_refused() {
    for (groups, message) in [
        (
            "['a,b']",
            "Group names must be provided as an array, not a comma-separated list.",
        ),
        ("['100']", "Group names must be provided, not GID numbers."),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let code = format!("user {{ 'mrtest-groups': groups => {groups} }}");
        let run = marionette(&["apply", "--noop", "-e", &code], dir.path());
        assert!(
            run.stderr.contains(&format!(
                "Error: Parameter groups failed on User[mrtest-groups]: {message}"
            )),
            "{}",
            run.stderr
        );
        assert!(!run.stdout.contains("should be"), "{}", run.stderr);
    }
}

/// Line breaks that would forge crontab or hosts lines are refused before
/// anything runs: a cron job's name or environment, a host's comment with
/// a carriage return (as Puppet refuses it).
#[test]
fn line_breaks_that_would_forge_lines_are_refused() {
    for (code, message) in [
        (
            "cron { \"mrtest\\n* * * * * evil\": command => '/bin/true', user => 'root', target => '/nonexistent/mrtest' }",
            "The job's name must be one line",
        ),
        (
            "cron { 'mrtest': command => '/bin/true', environment => [\"A=1\\n* * * * * evil\"], target => '/nonexistent/mrtest' }",
            "it must be one line",
        ),
        (
            "host { 'mrtest.example.com': ip => '192.0.2.1', comment => \"a\\rb\", target => '/nonexistent/mrtest' }",
            "Comment cannot include newline",
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let run = marionette(&["apply", "--noop", "-e", code], dir.path());
        assert!(run.stderr.contains(message), "{code}: {}", run.stderr);
        assert!(!run.stdout.contains("should be"), "{}", run.stderr);
    }
}

/// A service name that leaves the init scripts' directory is refused
/// before anything runs.
#[test]
fn service_names_that_leave_the_script_directory_are_refused() {
    for name in ["../../tmp/mrtest-evil", ".."] {
        let dir = tempfile::tempdir().unwrap();
        let code = format!("service {{ '{name}': ensure => running, provider => debian }}");
        let run = marionette(&["apply", "--noop", "-e", &code], dir.path());
        assert!(
            run.stderr
                .contains("a service name cannot contain '/' or be '.' or '..'"),
            "{name}: {}",
            run.stderr
        );
    }
}

/// The report never holds a file's content (its checksum instead, as
/// Puppet's), and it is readable by its owner and group only (0640).
#[test]
fn the_report_keeps_no_file_content_and_is_not_world_readable() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("mrtest-secret");
    std::fs::write(&target, "old\n").unwrap();
    let vardir = dir.path().join("var");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_marionette"))
        .args(["apply", "--vardir"])
        .arg(&vardir)
        .args([
            "-e",
            &format!(
                "file {{ '{}': content => 'mrtest s3cret' }}",
                target.display()
            ),
        ])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    for name in ["last_run_report.json", "previous_run_report.json"] {
        let path = vardir.join("state").join(name);
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        assert!(!text.contains("mrtest s3cret"), "{name} holds the content");
        assert!(text.contains("{sha256}"), "{name} holds no checksum");
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640, "{name}");
    }
}

/// Runs started together on one state directory: exactly one applies, the
/// others are refused by the lock (a lock is never found empty and taken
/// for a stale one).
#[test]
fn simultaneous_runs_apply_one_at_a_time() {
    let dir = tempfile::tempdir().unwrap();
    let vardir = dir.path().join("var");
    let runs: Vec<_> = (0..6)
        .map(|_| {
            std::process::Command::new(env!("CARGO_BIN_EXE_marionette"))
                .args(["apply", "--vardir"])
                .arg(&vardir)
                .args(["-e", "exec { 'mrtest-wait': command => '/bin/sleep 1' }"])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let outputs: Vec<_> = runs
        .into_iter()
        .map(|r| r.wait_with_output().unwrap())
        .collect();
    let applied = outputs
        .iter()
        .filter(|o| {
            String::from_utf8_lossy(&o.stdout)
                .contains("Exec[mrtest-wait]/returns: executed successfully")
        })
        .count();
    let refused = outputs
        .iter()
        .filter(|o| String::from_utf8_lossy(&o.stderr).contains("already in progress"))
        .count();
    assert_eq!((applied, refused), (1, 5));
}

/// Runs started together on a state directory holding the stale lock of a
/// killed run: in each round no two apply at once. Deciding the lock is
/// stale and taking it are one step, so two runs never both clear it and
/// both apply (when they were two steps, 4 runs of 100 rounds failed at
/// rounds 2, 9, 28 and 40). A run that starts after the one applying has
/// ended (a loaded machine starts some a second late) finds no lock, and
/// applies after it: the runs' starts and ends are checked in turn.
#[test]
fn simultaneous_runs_over_a_stale_lock_apply_one_at_a_time() {
    let dir = tempfile::tempdir().unwrap();
    let vardir = dir.path().join("var");
    let lock = vardir.join("state/run.lock");
    std::fs::create_dir_all(lock.parent().unwrap()).unwrap();
    let log = dir.path().join("mrtest-applied");
    let manifest = dir.path().join("mrtest-append.pp");
    std::fs::write(
        &manifest,
        format!(
            "exec {{ 'mrtest-append': command => 'echo start >> {0} && sleep 0.2 && echo end >> {0}', provider => shell }}\n",
            log.display()
        ),
    )
    .unwrap();
    for round in 0..50 {
        // Process 999999999 does not exist: the run that left it was killed.
        std::fs::write(&lock, "999999999").unwrap();
        let _ = std::fs::remove_file(&log);
        let runs: Vec<_> = (0..6)
            .map(|_| {
                std::process::Command::new(env!("CARGO_BIN_EXE_marionette"))
                    .args(["apply", "--vardir"])
                    .arg(&vardir)
                    .arg(&manifest)
                    .stdout(std::process::Stdio::piped())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        let outputs: Vec<_> = runs
            .into_iter()
            .map(|r| r.wait_with_output().unwrap())
            .collect();
        let written = std::fs::read_to_string(&log).unwrap_or_default();
        let applied = written.lines().filter(|line| *line == "start").count();
        let refused = outputs
            .iter()
            .filter(|o| String::from_utf8_lossy(&o.stderr).contains("already in progress"))
            .count();
        assert_eq!(
            written,
            "start\nend\n".repeat(applied),
            "round {round}: two runs applied at once"
        );
        assert!(
            applied >= 1 && applied + refused == 6,
            "round {round}: {applied} applied, {refused} refused: {:?}",
            outputs
                .iter()
                .map(|o| String::from_utf8_lossy(&o.stderr).into_owned())
                .collect::<Vec<_>>()
        );
        assert!(!lock.exists(), "round {round}: the lock is released");
    }
}

/// The temporary file a killed run left beside a file it was replacing is
/// removed when a later run writes into that directory.
#[test]
fn temporary_files_of_killed_runs_are_removed() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("mrtest-file");
    // Process 999999999 does not exist: its run is long gone.
    let left = dir.path().join(".mrtest-file.marionette-new-999999999-0");
    std::fs::write(&left, "half a file").unwrap();
    let other = dir.path().join(".unrelated.marionette-notes");
    std::fs::write(&other, "not ours").unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_marionette"))
        .args(["apply", "--vardir"])
        .arg(dir.path().join("var"))
        .args([
            "-e",
            &format!("file {{ '{}': content => 'new' }}", target.display()),
        ])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
    assert!(
        !left.exists(),
        "the killed run's temporary file is still there"
    );
    assert!(
        other.exists(),
        "a file that is not a temporary file was removed"
    );
}

/// A catalog from elsewhere whose containment has a cycle, that declares a
/// resource twice, or whose edge names a resource it lacks is refused with
/// Puppet's words, at once (a containment cycle made the run spin).
#[test]
fn broken_catalogs_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let resource = |kind: &str, title: &str| serde_json::json!({"type": kind, "title": title, "tags": [kind.to_lowercase()], "exported": false});
    let catalog = |resources: Vec<serde_json::Value>, edges: Vec<(&str, &str)>| {
        serde_json::json!({
            "tags": [], "name": "mrtest", "version": 1, "catalog_format": 2,
            "environment": "production", "classes": [],
            "resources": resources,
            "edges": edges.iter().map(|(s, t)| serde_json::json!({"source": s, "target": t})).collect::<Vec<_>>(),
        })
    };
    for (name, data, message) in [
        (
            "cycle",
            catalog(
                vec![resource("Class", "A"), resource("Class", "B")],
                vec![("Class[A]", "Class[B]"), ("Class[B]", "Class[A]")],
            ),
            "Found 1 dependency cycle:\n(Class[A] => Class[B] => Class[A])",
        ),
        (
            "duplicate",
            catalog(
                vec![resource("Notify", "n"), resource("Notify", "n")],
                vec![],
            ),
            "Duplicate declaration: Notify[n] is already declared; cannot redeclare",
        ),
        (
            "dangling",
            catalog(
                vec![resource("Class", "A")],
                vec![("Class[A]", "Notify[missing]")],
            ),
            "Could not find relationship target \"Notify[missing]\" for Class[A]",
        ),
    ] {
        let path = dir.path().join(format!("{name}.json"));
        std::fs::write(&path, data.to_string()).unwrap();
        let started = std::time::Instant::now();
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_marionette"))
            .args(["catalog", "apply", "--noop", "--vardir"])
            .arg(dir.path().join("var"))
            .arg(&path)
            .output()
            .unwrap();
        assert!(
            started.elapsed() < std::time::Duration::from_secs(10),
            "{name}"
        );
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{name}: {stderr}");
        assert!(stderr.contains(message), "{name}: {stderr}");
    }
}

/// SIGINT or SIGTERM during a run stops it after the resource under way,
/// whose command gets the signal too (it runs in a process group of its
/// own): what was interrupted is said, the report is written (failed, and
/// with `transaction_completed` false, as Puppet marks a transaction that
/// did not finish), the lock released, and the command exits 1.
#[test]
fn a_terminated_run_stops_after_its_current_resource_and_reports() {
    for signal in ["INT", "TERM"] {
        interrupted_run_reports(signal);
    }
}

/// Whether a `sleep` runs below `ancestor` (its child, or further down:
/// commands may be started through a helper process).
fn runs_sleep_under(ancestor: u32) -> bool {
    // `PID (COMM) STATE PPID ...`; the name may hold spaces.
    let stat = |pid: &str| -> Option<(String, String)> {
        let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        let (_, rest) = text.split_once(" (")?;
        let (name, rest) = rest.rsplit_once(") ")?;
        Some((name.to_string(), rest.split(' ').nth(1)?.to_string()))
    };
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return false;
    };
    entries.filter_map(Result::ok).any(|entry| {
        let pid = entry.file_name().to_string_lossy().into_owned();
        let Some((name, mut parent)) = stat(&pid) else {
            return false;
        };
        if name != "sleep" {
            return false;
        }
        for _ in 0..4 {
            if parent == ancestor.to_string() {
                return true;
            }
            match stat(&parent) {
                Some((_, up)) => parent = up,
                None => return false,
            }
        }
        false
    })
}

fn interrupted_run_reports(signal: &str) {
    let dir = tempfile::tempdir().unwrap();
    let vardir = dir.path().join("var");
    let marker = dir.path().join("mrtest-never");
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_marionette"))
        .args(["apply", "--vardir"])
        .arg(&vardir)
        .args([
            "-e",
            &format!(
                "exec {{ 'mrtest-first': command => '/bin/sleep 30' }} -> exec {{ 'mrtest-second': command => '/bin/touch {}' }}",
                marker.display()
            ),
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The signal is sent once the first command runs: a loaded machine
    // may take longer than any fixed wait to get there.
    let started = std::time::Instant::now();
    while !runs_sleep_under(child.id()) {
        assert!(
            started.elapsed() < std::time::Duration::from_secs(60),
            "the run never started its first command"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let killed = std::process::Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let signalled = std::time::Instant::now();
    let output = child.wait_with_output().unwrap();
    assert!(
        signalled.elapsed() < std::time::Duration::from_secs(10),
        "the command under way did not get the signal"
    );
    let printed = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(output.status.code(), Some(1), "{printed}");
    assert!(
        printed.contains("Exec[mrtest-first]/returns: change from 'notrun' to ['0'] failed"),
        "{printed}"
    );
    assert!(
        printed.contains(&format!(
            "Warning: Caught {signal}; stopping the run after 1 of"
        )),
        "{printed}"
    );
    assert!(!marker.exists(), "the run went on after the signal");
    let report: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(vardir.join("state/last_run_report.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(report["status"], "failed");
    assert_eq!(
        report["transaction_completed"], false,
        "the report does not mark the run as interrupted"
    );
    assert!(
        !vardir.join("state/run.lock").exists(),
        "the lock was not released"
    );
}

/// `--summarize` prints Puppet's summary of the run after it, in Puppet's
/// layout: sections by name, values by their text, zeros left out.
#[test]
fn summarize_prints_puppets_summary() {
    let vardir = tempfile::tempdir().unwrap();
    let run = marionette(
        &["apply", "--summarize", "-e", "notify { 'mrtest': }"],
        vardir.path(),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let summary = &run.stdout[run.stdout.find("Application:\n").expect("a summary")..];
    for part in [
        "Application:\n   Initial environment: production\n   Converged environment: production\n         Run mode: user\n",
        "Changes:\n            Total: 1\nEvents:\n          Success: 1\n            Total: 1\n",
        "Resources:\n          Changed: 1\n      Out of sync: 1\n            Total: 1\nTime:\n",
        "\nVersion:\n           Config: ",
    ] {
        assert!(summary.contains(part), "{part:?} in\n{summary}");
    }
    assert!(
        !summary.contains("Failure"),
        "zeros are left out: {summary}"
    );
}

/// `--logdest` sends the compiler's and the run's messages to files in
/// Puppet's three formats, and nothing to the console unless named.
#[test]
fn logdest_writes_puppets_log_files() {
    let dir = tempfile::tempdir().unwrap();
    let logs = dir.path().join("logs");
    let (text, json, lines) = (
        logs.join("run.log"),
        logs.join("run.json"),
        logs.join("run.jsonl"),
    );
    let code = "notice('mrtest hi') notify { 'mrtest': } warning('mrtest w')";
    for _ in 0..2 {
        let run = marionette(
            &[
                "apply",
                "--logdest",
                &format!("{},{}", text.display(), json.display()),
                "-l",
                &lines.display().to_string(),
                "-e",
                code,
            ],
            &dir.path().join("var"),
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert_eq!((run.stdout.as_str(), run.stderr.as_str()), ("", ""));
    }
    let text = std::fs::read_to_string(&text).unwrap();
    let shapes = [
        " Scope(Class[main]) (notice): mrtest hi",
        " Scope(Class[main]) (warning): mrtest w",
        " Puppet (notice): mrtest",
        " /Stage[main]/Main/Notify[mrtest]/message (notice): defined 'message' as 'mrtest'",
    ];
    for shape in shapes {
        assert_eq!(text.matches(shape).count(), 2, "{shape} in\n{text}");
    }
    let first = text.lines().next().unwrap();
    assert!(
        first.len() > 26 && first.as_bytes()[4] == b'-' && first.as_bytes()[20] == b'+',
        "Ruby's time first: {first}"
    );
    // Puppet leaves the JSON array open for later runs to append to.
    let json = std::fs::read_to_string(&json).unwrap();
    let entries: Vec<serde_json::Value> = serde_json::from_str(&format!("{json}]")).unwrap();
    assert_eq!(entries.len(), 12, "{json}");
    assert_eq!(entries[1]["level"], "warning");
    assert_eq!(entries[1]["source"], "Scope(Class[main])");
    assert_eq!(entries[1]["tags"], serde_json::json!(["warning"]));
    let lines = std::fs::read_to_string(&lines).unwrap();
    for line in lines.lines() {
        let entry: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(
            entry["time"].as_str().unwrap().ends_with("+00:00"),
            "{line}"
        );
    }
    assert_eq!(lines.lines().count(), 12);
    let bad = marionette(&["apply", "-l", "relative.log", "-e", code], dir.path());
    assert_eq!(bad.code, 1);
    assert!(
        bad.stderr.contains("Could not set logdest to relative.log"),
        "{}",
        bad.stderr
    );
}

/// `--logdest syslog:SOCKET` and `journald:SOCKET` (plain `syslog` and
/// `journald` are the machine's own sockets) send each message to the log
/// service with its level: syslog a record per line, with the source in
/// parentheses, the journal its fields; a service nobody runs is an error
/// before anything is applied.
#[test]
fn logdest_sends_to_syslog_and_the_journal() {
    use std::os::unix::net::UnixDatagram;
    let dir = tempfile::Builder::new()
        .prefix("mrtest-logdest")
        .tempdir()
        .unwrap();
    let bind = |name: &str| {
        let path = dir.path().join(name);
        let socket = UnixDatagram::bind(&path).unwrap();
        socket.set_nonblocking(true).unwrap();
        (socket, path)
    };
    let (syslog, syslog_path) = bind("log");
    let (journal, journal_path) = bind("journal");
    let drain = |socket: &UnixDatagram| {
        let mut records = Vec::new();
        let mut buffer = vec![0u8; 65536];
        while let Ok(n) = socket.recv(&mut buffer) {
            records.push(String::from_utf8_lossy(&buffer[..n]).into_owned());
        }
        records
    };
    let marker = dir.path().join("mrtest-marker");
    let code = format!(
        "notice('mrtest hi') file {{ '{}': content => 'x' }}",
        marker.display()
    );
    let run = marionette(
        &[
            "apply",
            "--logdest",
            &format!(
                "syslog:{},journald:{}",
                syslog_path.display(),
                journal_path.display()
            ),
            "-e",
            &code,
        ],
        &dir.path().join("var"),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!((run.stdout.as_str(), run.stderr.as_str()), ("", ""));
    let records = drain(&syslog);
    // daemon (3) * 8 + notice (5), under the name `marionette`.
    let said = |wanted: &str| {
        records
            .iter()
            .any(|r| r.starts_with("<29>") && r.contains(" marionette[") && r.ends_with(wanted))
    };
    assert!(said("]: (Scope(Class[main])) mrtest hi"), "{records:#?}");
    assert!(
        said(&format!(
            "]: (/Stage[main]/Main/File[{}]/ensure) defined content as '{{sha256}}2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881'",
            marker.display()
        )),
        "{records:#?}"
    );
    let entries = drain(&journal);
    assert_eq!(entries.len(), records.len(), "{entries:#?}");
    assert!(
        entries.iter().any(|e| e.starts_with(
            "MESSAGE=(Scope(Class[main])) mrtest hi\nPRIORITY=5\nSYSLOG_FACILITY=3\nSYSLOG_IDENTIFIER=marionette\n"
        )),
        "{entries:#?}"
    );

    std::fs::remove_file(&marker).unwrap();
    let missing = dir.path().join("no-such.sock");
    let refused = marionette(
        &[
            "apply",
            "--logdest",
            &format!("syslog:{}", missing.display()),
            "-e",
            &code,
        ],
        &dir.path().join("var"),
    );
    assert_eq!(refused.code, 1);
    assert!(
        refused.stderr.contains(&format!(
            "Could not set logdest to syslog:{0}: {0}: No such file or directory",
            missing.display()
        )),
        "{}",
        refused.stderr
    );
    assert!(!marker.exists(), "nothing is applied");
}

/// The manifest comes from standard input when no file is named, or with
/// `-`; a directory gives every `.pp` file below it in path order.
#[test]
fn manifests_come_from_stdin_or_a_directory() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    for args in [&["apply"][..], &["apply", "-"][..]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_marionette"))
            .args(args)
            .arg("--vardir")
            .arg(dir.path().join("var"))
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(b"notice('mrtest from stdin')")
            .unwrap();
        let output = child.wait_with_output().unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            stdout.contains("Notice: Scope(Class[main]): mrtest from stdin"),
            "{args:?}: {stdout}{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let manifests = dir.path().join("manifests");
    std::fs::create_dir_all(manifests.join("a")).unwrap();
    std::fs::write(manifests.join("b.pp"), "notice('mrtest b')").unwrap();
    std::fs::write(manifests.join("a/c.pp"), "notice('mrtest a/c')").unwrap();
    std::fs::write(manifests.join("notes.txt"), "not code").unwrap();
    let run = marionette(
        &["apply", &manifests.display().to_string()],
        &dir.path().join("var"),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let (first, second) = (
        run.stdout.find("mrtest a/c").expect("a/c.pp applied"),
        run.stdout.find("mrtest b").expect("b.pp applied"),
    );
    assert!(first < second, "{}", run.stdout);
    let missing = marionette(&["apply", "/nonexistent/mrtest.pp"], dir.path());
    assert_eq!(missing.code, 1);
    assert!(
        missing
            .stderr
            .contains("Could not find file /nonexistent/mrtest.pp"),
        "{}",
        missing.stderr
    );
}

/// `--test` is --verbose, --detailed-exitcodes and --show_diff; with
/// `--evaltrace` each resource says when it starts and how long it took;
/// `--write-catalog-summary` keeps the classes and managed resources.
#[test]
fn test_evaltrace_and_catalog_summary_options() {
    let dir = tempfile::tempdir().unwrap();
    let code = "define mrtest::d() { notify { \"mrtest in ${title}\": } } \
                class mrtest { notify { 'mrtest': } } include mrtest mrtest::d { 'A': }";
    let run = marionette(
        &[
            "apply",
            "-t",
            "--evaltrace",
            "--write-catalog-summary",
            "--color=false",
            "-e",
            code,
        ],
        dir.path(),
    );
    assert_eq!(run.code, 2, "--test reports changes: {}", run.stderr);
    for line in [
        "Info: /Stage[main]/Mrtest/Notify[mrtest]: Starting to evaluate the resource (1 of 2)\n",
        "Info: /Stage[main]/Mrtest/Notify[mrtest]: Evaluated in N seconds\n",
        "Info: /Stage[main]/Main/Mrtest::D[A]/Notify[mrtest in A]: Starting to evaluate the resource (2 of 2)\n",
    ] {
        assert!(run.stdout.contains(line), "{line} in\n{}", run.stdout);
    }
    let state = dir.path().join("state");
    assert_eq!(
        std::fs::read_to_string(state.join("classes.txt")).unwrap(),
        "settings\nmrtest\n"
    );
    assert_eq!(
        std::fs::read_to_string(state.join("resources.txt")).unwrap(),
        "notify[mrtest]\nnotify[mrtest in a]\n"
    );
    let plain = marionette(&["apply", "--no-color", "-e", "notice(1)"], dir.path());
    assert_eq!(plain.code, 0, "{}", plain.stderr);
    let bad = marionette(&["apply", "--color=purple", "-e", "notice(1)"], dir.path());
    assert_eq!(bad.code, 1);
    assert!(
        bad.stderr.contains("Invalid value 'purple' for color"),
        "{}",
        bad.stderr
    );
}

/// `puppet:///` sources are found through a relative `--modulepath`,
/// recursive ones included; one that cannot be found fails its resource
/// and skips its dependents, with Puppet's message naming the URL as
/// written, and the rest of the catalog is applied (exit 6).
#[test]
fn module_sources_resolve_relative_module_paths_and_fail_alone() {
    let dir = tempfile::tempdir().unwrap();
    let files = dir.path().join("modules/mrtest_m/files");
    std::fs::create_dir_all(files.join("tree")).unwrap();
    std::fs::write(files.join("f"), "from f\n").unwrap();
    std::fs::write(files.join("tree/g"), "from g\n").unwrap();
    let out = dir.path().join("out");
    let code = format!(
        "file {{ '{0}/f': source => 'puppet:///modules/mrtest_m/f' }}
         file {{ '{0}/tree': source => 'puppet:///modules/mrtest_m/tree', recurse => true }}
         file {{ '{0}/missing': source => 'puppet:///modules/mrtest_m/nope' }}
         notify {{ 'mrtest after': require => File['{0}/missing'] }}
         notify {{ 'mrtest other': }}",
        out.display()
    );
    std::fs::create_dir_all(&out).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_marionette"))
        .current_dir(dir.path())
        .args(["apply", "--detailed-exitcodes", "--modulepath", "modules"])
        .arg("--vardir")
        .arg(dir.path().join("var"))
        .args(["-e", &code])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let printed = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(output.status.code(), Some(6), "{printed}");
    assert_eq!(std::fs::read_to_string(out.join("f")).unwrap(), "from f\n");
    assert_eq!(
        std::fs::read_to_string(out.join("tree/g")).unwrap(),
        "from g\n"
    );
    for line in [
        format!(
            "Error: /Stage[main]/Main/File[{}/missing]: Could not evaluate: Could not retrieve information from environment production source(s) puppet:///modules/mrtest_m/nope\n",
            out.display()
        ),
        format!(
            "Notice: /Stage[main]/Main/Notify[mrtest after]: Dependency File[{}/missing] has failures: true\n",
            out.display()
        ),
        "Notice: mrtest other\n".to_string(),
    ] {
        assert!(printed.contains(&line), "{line} in\n{printed}");
    }
    assert!(!printed.contains("Notice: mrtest after\n"), "{printed}");
}

/// A noop run on a fresh machine reports a service whose init script is
/// not there yet (a package of the same catalog would install it) as
/// stopped, to be started, as Puppet does, instead of failing it.
#[test]
fn noop_reports_a_service_without_its_script_as_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let run = marionette(
        &[
            "apply",
            "--noop",
            "-e",
            "service { 'mrtest-not-installed': ensure => running }",
        ],
        dir.path(),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains(
            "Notice: /Stage[main]/Main/Service[mrtest-not-installed]/ensure: current_value 'stopped', should be 'running' (noop)\n"
        ),
        "{}{}",
        run.stdout,
        run.stderr
    );
    assert_eq!(run.stderr, "");
}

/// A failure is named once, by the resource that failed, in the notices of
/// the resources it makes skip, also through classes, as Puppet 7 names it
/// (`puppet apply` of this manifest, recorded).
#[test]
fn dependency_failures_name_the_failed_resource_once() {
    let dir = tempfile::tempdir().unwrap();
    let run = marionette(
        &[
            "apply",
            "-e",
            "class mrtest_a { exec { '/bin/false': } }
             class mrtest_b { notify { 'x': } notify { 'y': } }
             include mrtest_a, mrtest_b
             Class['mrtest_a'] -> Class['mrtest_b']
             notify { 'z': require => Notify['x'] }",
        ],
        dir.path(),
    );
    assert_eq!(
        run.stdout
            .lines()
            .filter(|l| l.contains("Dependency"))
            .collect::<Vec<_>>(),
        ["Notice: /Stage[main]/Mrtest_b/Notify[x]: Dependency Exec[/bin/false] has failures: true"]
    );
    assert_eq!(
        run.stderr
            .lines()
            .filter(|l| l.contains("Skipping"))
            .count(),
        3,
        "{}",
        run.stderr
    );
}

/// `catalog apply` reads what Puppet reads: a catalog without tags,
/// classes or edges applies; a resource it cannot read is named.
#[test]
fn catalog_apply_reads_sparse_catalogs_and_names_bad_resources() {
    let dir = tempfile::tempdir().unwrap();
    let sparse = dir.path().join("sparse.json");
    std::fs::write(
        &sparse,
        r#"{"name": "mrtest.example.com", "resources": [{"type": "Notify", "title": "mrtest sparse"}]}"#,
    )
    .unwrap();
    let run = marionette(
        &["catalog", "apply", &sparse.display().to_string()],
        dir.path(),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("Notice: mrtest sparse\n"),
        "{}",
        run.stdout
    );
    let bad = dir.path().join("bad.json");
    std::fs::write(
        &bad,
        r#"{"name": "n", "resources": [{"type": "Notify", "title": "a"}, {"type": "Notify", "title": "b", "parameters": 3}]}"#,
    )
    .unwrap();
    let run = marionette(
        &["catalog", "apply", &bad.display().to_string()],
        dir.path(),
    );
    assert_eq!(run.code, 1);
    assert!(
        run.stderr
            .contains("resource 2 (Notify[b]): invalid type: integer `3`"),
        "{}",
        run.stderr
    );
}

/// `marionette report list` and `show` read the kept reports back as a
/// person reads them, and as JSON.
#[test]
fn kept_reports_are_listed_and_shown() {
    let dir = tempfile::tempdir().unwrap();
    let failing = marionette(
        &[
            "apply",
            "-e",
            "notify { 'mrtest x': } exec { '/bin/false': } notify { 'mrtest y': require => Exec['/bin/false'] }",
        ],
        dir.path(),
    );
    assert_eq!(failing.code, 0, "{}", failing.stderr);
    let noop = marionette(
        &["apply", "--noop", "-e", "notify { 'mrtest x': }"],
        dir.path(),
    );
    assert_eq!(noop.code, 0, "{}", noop.stderr);
    let list = marionette(&["report", "list"], dir.path());
    assert_eq!(list.code, 0, "{}", list.stderr);
    let lines: Vec<&str> = list.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", list.stdout);
    assert!(
        lines[0].starts_with("last ")
            && lines[0].contains(" unchanged ")
            && lines[0].contains("1 resource: 1 out of sync in ")
            && lines[0].contains(" seconds (noop)"),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].starts_with("previous ")
            && lines[1].contains(" failed ")
            && lines[1].contains("3 resources: 1 changed, 1 failed, 1 skipped"),
        "{}",
        lines[1]
    );
    let shown = marionette(&["report", "show", "previous"], dir.path());
    assert_eq!(shown.code, 0, "{}", shown.stderr);
    for part in [
        "Failed (1):\n  Exec[/bin/false] (<command line>:1)\n    returns: change from 'notrun' to ['0'] failed:",
        "Changed (1):\n  Notify[mrtest x] (<command line>:1)\n    message: defined 'message' as 'mrtest x'\n",
        "Skipped (1):\n  Notify[mrtest y] (<command line>:1)\n",
        "  Warning: /Stage[main]/Main/Notify[mrtest y]: Skipping because of failed dependencies\n",
    ] {
        assert!(shown.stdout.contains(part), "{part} in\n{}", shown.stdout);
    }
    let json = marionette(&["report", "show", "--format", "json"], dir.path());
    let report: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(report["noop"], true);
    let missing = marionette(&["report", "show", "/nonexistent/mrtest.json"], dir.path());
    assert_eq!(missing.code, 1);
    assert!(
        missing
            .stderr
            .contains("Could not read the report /nonexistent/mrtest.json"),
        "{}",
        missing.stderr
    );
}

/// What `marionette apply MANIFEST` prints on a terminal.
fn apply_on_terminal(dir: &Path, manifest: &Path) -> String {
    common::on_terminal(&format!(
        "{} apply --vardir {} {}",
        env!("CARGO_BIN_EXE_marionette"),
        dir.join("var").display(),
        manifest.display()
    ))
}

/// On a terminal a run ends with a summary line and long runs show a
/// progress line; in a pipe neither appears. The terminal is `script`'s
/// pseudo-terminal (util-linux, in every Debian).
#[test]
fn terminals_get_progress_and_a_summary_and_pipes_do_not() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = dir.path().join("many.pp");
    std::fs::write(
        &manifest,
        "Integer[1, 150].each |$i| { notify { \"mrtest ${i}\": loglevel => debug } }",
    )
    .unwrap();
    let terminal = apply_on_terminal(dir.path(), &manifest);
    assert!(
        terminal.contains("Summary: 150 resources: 150 changed, 150 out of sync in "),
        "{terminal}"
    );
    assert!(
        terminal.contains("/150, 0 s] Notify[mrtest "),
        "resource N of M, the time, the resource: {terminal}"
    );
    let piped = marionette(&["apply", &manifest.display().to_string()], dir.path());
    assert!(!piped.stdout.contains("Summary:"), "{}", piped.stdout);
    assert!(!piped.stderr.contains("resources"), "{}", piped.stderr);
}

/// The edits of `ini_setting` and `file_line` are written when the run
/// reaches a resource of another kind, so what comes after them sees
/// them: an `exec` that checks the file after each edit, between two
/// edits of the same file, and the file at the end of the run.
#[test]
fn staged_file_edits_are_written_before_other_resources_look() {
    let dir = tempfile::tempdir().unwrap();
    let modules = dir.path().join("modules");
    std::fs::create_dir_all(&modules).unwrap();
    for module in ["stdlib", "inifile"] {
        std::os::unix::fs::symlink(
            format!("/usr/share/puppet/modules/{module}"),
            modules.join(module),
        )
        .unwrap();
    }
    let ini = dir.path().join("a.ini");
    let lines = dir.path().join("lines");
    std::fs::write(&lines, "first\n").unwrap();
    let code = format!(
        "ini_setting {{ 'one': path => '{ini}', section => 's', setting => 'k1', value => 'v1' }}
         -> file_line {{ 'two': path => '{lines}', line => 'second' }}
         -> exec {{ 'check': command => \"/bin/grep -qx 'k1 = v1' {ini} && /bin/grep -qx second {lines}\" }}
         -> ini_setting {{ 'three': path => '{ini}', section => 's', setting => 'k2', value => 'v2' }}",
        ini = ini.display(),
        lines = lines.display()
    );
    let run = apply_with_modules(&modules, &code, &dir.path().join("var"));
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("Exec[check]/returns: executed successfully"),
        "{}",
        run.stdout
    );
    assert_eq!(
        std::fs::read_to_string(&ini).unwrap(),
        "[s]\nk1 = v1\nk2 = v2\n"
    );
    assert_eq!(std::fs::read_to_string(&lines).unwrap(), "first\nsecond\n");
}

/// A module's provider reads a `puppet:///modules/...` source through
/// Puppet's file serving (archive's download), found on the run's module
/// path as Puppet's `apply` finds it; a module that is not there is the
/// resource's failure alone.
#[test]
fn a_providers_puppet_source_is_served_from_the_module_path() {
    let dir = tempfile::tempdir().unwrap();
    let modules = dir.path().join("modules");
    std::fs::create_dir_all(modules.join("mrtest_files/files")).unwrap();
    std::fs::write(modules.join("mrtest_files/files/data.txt"), "served\n").unwrap();
    assert!(
        std::path::Path::new("/usr/share/puppet/modules/archive").is_dir(),
        "archive is missing: apt-get install puppet-module-puppet-archive (scripts/test does)"
    );
    std::os::unix::fs::symlink("/usr/share/puppet/modules/archive", modules.join("archive"))
        .unwrap();
    let got = dir.path().join("mrtest-got.txt");
    let missing = dir.path().join("mrtest-missing.txt");
    let code = format!(
        "archive {{ '{got}': source => 'puppet:///modules/mrtest_files/data.txt' }}
         archive {{ '{missing}': source => 'puppet:///modules/mrtest_nowhere/data.txt' }}
         -> notify {{ 'mrtest after': }}",
        got = got.display(),
        missing = missing.display()
    );
    let run = apply_with_modules(&modules, &code, &dir.path().join("var"));
    let said = format!("{}{}", run.stdout, run.stderr);
    assert_eq!(run.code, 6, "{said}");
    assert_eq!(
        std::fs::read_to_string(&got).unwrap_or_default(),
        "served\n",
        "{said}"
    );
    assert!(!missing.exists(), "{said}");
    assert!(
        said.contains("Could not retrieve information from environment production source(s) puppet:///modules/mrtest_nowhere/data.txt"),
        "{said}"
    );
    assert!(
        said.contains("Notify[mrtest after]: Skipping because of failed dependencies"),
        "{said}"
    );
}

/// `--exclude_unchanged_resources` (Puppet's setting, also read from
/// `puppet.conf`) keeps in the report only the resources something
/// happened to: changed, failed or skipped ones. The metrics still count
/// every resource.
#[test]
fn unchanged_resources_can_be_left_out_of_the_report() {
    let dir = tempfile::tempdir().unwrap();
    let absent = dir.path().join("mrtest-absent");
    let manifest = format!(
        "file {{ '{}': ensure => absent }}\n\
         notify {{ 'mrtest-changed': }}\n\
         exec {{ 'mrtest-fails': command => '/bin/false' }}\n\
         -> notify {{ 'mrtest-skipped': }}\n",
        absent.display()
    );
    let statuses = |vardir: &Path| {
        let report: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(vardir.join("state/last_run_report.json")).unwrap(),
        )
        .unwrap();
        let total = report["metrics"]["resources"]["values"]
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v[0] == "total")
            .unwrap()[2]
            .clone();
        let mut names: Vec<String> = report["resource_statuses"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        names.sort();
        (names, total)
    };
    let all = dir.path().join("all");
    let run = marionette(&["apply", "--detailed-exitcodes", "-e", &manifest], &all);
    assert_eq!(run.code, 6, "{}", run.stderr);
    assert_eq!(statuses(&all).0.len(), 4);
    let expected = vec![
        "Exec[mrtest-fails]".to_string(),
        "Notify[mrtest-changed]".to_string(),
        "Notify[mrtest-skipped]".to_string(),
    ];
    let some = dir.path().join("some");
    let run = marionette(
        &[
            "apply",
            "--detailed-exitcodes",
            "--exclude_unchanged_resources",
            "-e",
            &manifest,
        ],
        &some,
    );
    assert_eq!(run.code, 6, "{}", run.stderr);
    assert_eq!(statuses(&some), (expected.clone(), 4.into()));

    let conf = dir.path().join("puppet.conf");
    std::fs::write(&conf, "[main]\nexclude_unchanged_resources = true\n").unwrap();
    let configured = dir.path().join("configured");
    let run = marionette(
        &[
            "--config",
            &conf.display().to_string(),
            "apply",
            "--detailed-exitcodes",
            "-e",
            &manifest,
        ],
        &configured,
    );
    assert_eq!(run.code, 6, "{}", run.stderr);
    assert_eq!(statuses(&configured), (expected, 4.into()));
}

/// A syntax error in the manifest given to `apply` is one error (a
/// missing comma does not cascade); on a terminal it is followed by the
/// source line with a caret under the mistake, in pipes by nothing.
#[test]
fn a_syntax_error_shows_its_line_on_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = dir.path().join("comma.pp");
    std::fs::write(
        &manifest,
        "file { '/tmp/mrtest-comma':\n  ensure => file\n  mode   => '0644',\n}\n",
    )
    .unwrap();
    let terminal = apply_on_terminal(dir.path(), &manifest).replace("\r\n", "\n");
    let error = format!(
        "Error: Could not parse for environment production: Syntax error at 'mode' (file: {}, line: 3, column: 3)",
        manifest.display()
    );
    assert!(terminal.contains(&error), "{terminal}");
    assert!(
        terminal.contains("\n  |\n3 |   mode   => '0644',\n  |   ^^^^\n"),
        "{terminal}"
    );
    let piped = marionette(&["apply", &manifest.display().to_string()], dir.path());
    assert_eq!(piped.code, 1);
    assert!(piped.stderr.contains(&error), "{}", piped.stderr);
    assert!(!piped.stderr.contains("^^^^"), "{}", piped.stderr);
    // Said once, as `puppet apply` says it.
    assert_eq!(
        piped.stderr.matches("Syntax error").count(),
        1,
        "{}",
        piped.stderr
    );
}

/// A resource that takes more than a second shows a live progress line on
/// a terminal, even in a short run: which resource, and for how long it
/// has been running. It is erased before the next message.
#[test]
fn a_slow_resource_shows_a_live_progress_line() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = dir.path().join("slow.pp");
    std::fs::write(
        &manifest,
        "exec { 'mrtest-slow': command => '/bin/sleep 2.3' }\nnotify { 'mrtest-after': }\n",
    )
    .unwrap();
    let terminal = apply_on_terminal(dir.path(), &manifest);
    assert!(
        terminal.contains("\r\x1b[K[1/2, 2 s] Exec[mrtest-slow] (running 2 s)"),
        "{terminal:?}"
    );
    assert!(
        terminal.contains(
            "\r\x1b[KNotice: /Stage[main]/Main/Exec[mrtest-slow]/returns: executed successfully"
        ),
        "the line is erased before the next message: {terminal:?}"
    );
    let piped = marionette(&["apply", &manifest.display().to_string()], dir.path());
    assert!(!piped.stderr.contains("running"), "{}", piped.stderr);
    assert!(!piped.stdout.contains("running"), "{}", piped.stdout);
}

/// A manifest given by a relative path is named from the root in
/// messages, as Puppet names it.
#[test]
fn messages_name_a_relative_manifest_from_the_root() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("rel.pp"), "fail('mrtest-boom')\n").unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_marionette"))
        .args(["apply", "rel.pp", "--vardir"])
        .arg(dir.path().join("var"))
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let root = std::fs::canonicalize(dir.path()).unwrap();
    assert!(
        stderr.contains(&format!(
            "mrtest-boom (file: {}/rel.pp, line: 1, column: 1)",
            root.display()
        )),
        "{stderr}"
    );
}

/// `config print` prints the settings from `puppet.conf` (`[main]`, then
/// the section asked for), else their defaults: one setting's value
/// alone, several as sorted `name = value` lines, nothing for a name that
/// is not a setting, as `puppet config print` does; all of them (none
/// named, or `all`) each with where its value came from.
#[test]
fn config_print_shows_the_settings_in_use() {
    let dir = tempfile::tempdir().unwrap();
    let conf = dir.path().join("puppet.conf");
    std::fs::write(
        &conf,
        "[main]\nvardir = /tmp/mrtest-vardir\nmodulepath = /tmp/mrtest-a:/tmp/mrtest-b\n\
         [user]\nnoop = true\n[agent]\nserver = mrtest.example.com\n",
    )
    .unwrap();
    let conf = conf.display().to_string();
    let print = |args: &[&str]| {
        let output = Command::new(env!("CARGO_BIN_EXE_marionette"))
            .args(["--config", &conf, "config", "print"])
            .args(args)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0));
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    assert_eq!(print(&["vardir"]), "/tmp/mrtest-vardir\n");
    assert_eq!(print(&["modulepath"]), "/tmp/mrtest-a:/tmp/mrtest-b\n");
    assert_eq!(print(&["server", "noop"]), "noop = true\nserver = puppet\n");
    assert_eq!(
        print(&["server", "--section", "agent"]),
        "mrtest.example.com\n"
    );
    assert_eq!(print(&["mrtest-not-a-setting"]), "\n");
    // Every setting, each with where its value came from.
    let all = print(&[]);
    for line in [
        "environment = production  # default\n".to_string(),
        "runinterval = 1800  # default\n".to_string(),
        format!("noop = true  # {conf} [user]\n"),
    ] {
        assert!(all.contains(&line), "{line:?} in\n{all}");
    }
    assert_eq!(print(&["all"]), all);
}

/// Modules are found where Puppet finds them: the `production`
/// environment's `modules`, or its `environment.conf`'s `modulepath` with
/// `$basemodulepath`, then the base module path (`--basemodulepath`, or
/// `basemodulepath` in `puppet.conf`); by default Debian's
/// `/usr/share/puppet/modules`, where `scripts/test` installs stdlib.
#[test]
fn modules_are_found_on_puppets_default_module_path() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().display().to_string();
    let class = |module: &str, path: &std::path::Path| {
        let manifests = path.join(module).join("manifests");
        std::fs::create_dir_all(&manifests).unwrap();
        std::fs::write(
            manifests.join("init.pp"),
            format!(
                "class {module} {{ notice('{module} from {}') }}\n",
                path.display()
            ),
        )
        .unwrap();
    };
    let environments = dir.path().join("environments");
    let base = dir.path().join("base");
    class("mrtest_env", &environments.join("production/modules"));
    class("mrtest_base", &base);
    let run = |args: &[&str]| {
        let output = Command::new(env!("CARGO_BIN_EXE_marionette"))
            .args(args)
            .args(["--environmentpath", &format!("{root}/environments")])
            .args(if args[0] == "apply" {
                vec!["--vardir".to_string(), format!("{root}/var")]
            } else {
                Vec::new()
            })
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        (
            String::from_utf8_lossy(&output.stdout).into_owned(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    };
    let with_base = ["--basemodulepath", &format!("{root}/base")];
    let (stdout, stderr) = run(&[
        &["apply", "-e", "include mrtest_env, mrtest_base"][..],
        &with_base,
    ]
    .concat());
    assert!(
        stdout.contains(&format!(
            "mrtest_env from {root}/environments/production/modules"
        )) && stdout.contains(&format!("mrtest_base from {root}/base")),
        "{stdout}{stderr}"
    );
    let (modulepath, _) = run(&[&["config", "print", "modulepath"][..], &with_base].concat());
    assert_eq!(
        modulepath,
        format!("{root}/environments/production/modules:{root}/base\n")
    );
    // environment.conf names the directories, `$basemodulepath` the base.
    std::fs::write(
        environments.join("production/environment.conf"),
        "modulepath = site:$basemodulepath\n",
    )
    .unwrap();
    let (modulepath, _) = run(&[&["config", "print", "modulepath"][..], &with_base].concat());
    assert_eq!(
        modulepath,
        format!("{root}/environments/production/site:{root}/base\n")
    );
    // The default base module path holds Debian's modules: stdlib's
    // functions are there.
    std::fs::remove_file(environments.join("production/environment.conf")).unwrap();
    assert!(
        std::path::Path::new("/usr/share/puppet/modules/stdlib").is_dir(),
        "stdlib is missing: apt-get install -y puppet-module-puppetlabs-stdlib"
    );
    let (stdout, stderr) = run(&["apply", "-e", "notice(pick(undef, 'from stdlib'))"]);
    assert!(
        stdout.contains("Notice: Scope(Class[main]): from stdlib"),
        "{stdout}{stderr}"
    );
    let (modulepath, _) = run(&["config", "print", "modulepath"]);
    assert!(
        modulepath.ends_with(":/usr/share/puppet/modules\n"),
        "{modulepath}"
    );
}

/// A command's help lists its own options first, and the options every
/// command takes apart, under "Global options".
#[test]
fn command_help_keeps_global_options_apart() {
    let output = Command::new(env!("CARGO_BIN_EXE_marionette"))
        .args(["apply", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&output.stdout);
    let (own, global) = help
        .split_once("Global options:")
        .unwrap_or_else(|| panic!("no global section in\n{help}"));
    assert!(
        own.contains("--noop") && own.contains("--detailed-exitcodes"),
        "{help}"
    );
    for option in [
        "--environment ",
        "--modulepath",
        "--hiera-config",
        "--config",
    ] {
        assert!(global.contains(option), "{option} in\n{global}");
        assert!(!own.contains(option), "{option} among apply's own:\n{own}");
    }
}

/// The `pip3` provider uses the `pip3` first on PATH: here a virtual
/// environment's, with a wheel built by the test (nothing from the
/// network). It installs from the wheel, finds the version installed,
/// reports a removal in noop and removes.
#[test]
fn pip3_installs_finds_and_removes_a_wheel() {
    let dir = tempfile::tempdir().unwrap();
    let venv = dir.path().join("venv");
    let made = Command::new("/usr/bin/python3")
        .args(["-m", "venv"])
        .arg(&venv)
        .output()
        .expect("python3 (apt-get install -y python3 python3-venv)");
    assert!(
        made.status.success(),
        "a virtual environment (apt-get install -y python3-venv): {made:?}"
    );
    let wheel = dir.path().join("mrtest_hello-0.1.0-py3-none-any.whl");
    let script = r#"
import base64, hashlib, sys, zipfile
files = {
    "mrtest_hello/__init__.py": b"VALUE = 1\n",
    "mrtest_hello-0.1.0.dist-info/METADATA": b"Metadata-Version: 2.1\nName: mrtest-hello\nVersion: 0.1.0\n",
    "mrtest_hello-0.1.0.dist-info/WHEEL": b"Wheel-Version: 1.0\nGenerator: mrtest\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
}
record = ""
for name, data in files.items():
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    record += f"{name},sha256={digest},{len(data)}\n"
files["mrtest_hello-0.1.0.dist-info/RECORD"] = (record + "mrtest_hello-0.1.0.dist-info/RECORD,,\n").encode()
with zipfile.ZipFile(sys.argv[1], "w") as wheel:
    for name, data in files.items():
        wheel.writestr(name, data)
"#;
    let built = Command::new("/usr/bin/python3")
        .args(["-c", script])
        .arg(&wheel)
        .output()
        .unwrap();
    assert!(built.status.success(), "{built:?}");
    let path = format!(
        "{}:{}",
        venv.join("bin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let apply = |code: &str, noop: bool| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_marionette"));
        command.arg("apply");
        if noop {
            command.arg("--noop");
        }
        let output = command
            .args(["--detailed-exitcodes", "--vardir"])
            .arg(dir.path().join("var"))
            .args(["-e", code])
            .env("PATH", &path)
            .output()
            .unwrap();
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stdout).into_owned()
                + &String::from_utf8_lossy(&output.stderr),
        )
    };
    let installed = || {
        let output = Command::new(venv.join("bin/pip3"))
            .args(["list", "--format=freeze"])
            .output()
            .unwrap();
        String::from_utf8_lossy(&output.stdout)
            .lines()
            .any(|l| l == "mrtest-hello==0.1.0")
    };
    let install = format!(
        "package {{ 'mrtest_hello': provider => pip3, source => '{}' }}",
        wheel.display()
    );
    let (code, output) = apply(&install, false);
    assert_eq!(code, Some(2), "{output}");
    assert!(
        output.contains("Package[mrtest_hello]/ensure: created"),
        "{output}"
    );
    assert!(installed());
    // The name as pip spells it matches; the version is in sync.
    let (code, output) = apply(
        "package { 'MrTest-Hello': provider => pip3, ensure => '0.1.0' }",
        false,
    );
    assert_eq!(code, Some(0), "{output}");
    let remove = "package { 'mrtest_hello': provider => pip3, ensure => absent }";
    let (code, output) = apply(remove, true);
    assert_eq!(code, Some(0), "a noop run changes nothing: {output}");
    assert!(
        output.contains("ensure: current_value '0.1.0', should be 'absent' (noop)"),
        "{output}"
    );
    assert!(installed());
    let (code, output) = apply(remove, false);
    assert_eq!(code, Some(2), "{output}");
    assert!(
        output.contains("Package[mrtest_hello]/ensure: removed"),
        "{output}"
    );
    assert!(!installed());
}

/// `storeconfigs` for `apply` and `catalog compile`, as Puppet's settings
/// turn it on for `puppet apply`: each node keeps its facts and catalog
/// with what it exports in the storage (the server's, under --vardir),
/// and collects other nodes' exports from it beside its own; without
/// storeconfigs, exports are ignored with Puppet's warning.
#[test]
fn storeconfigs_share_exports_between_applying_nodes() {
    let dir = tempfile::Builder::new()
        .prefix("mrtest-storeconfigs-apply")
        .tempdir()
        .unwrap();
    let dir = dir.path();
    let out = dir.join("out");
    let manifest = dir.join("site.pp");
    std::fs::write(
        &manifest,
        format!(
            r#"file {{ '{out}': ensure => directory }}
@@file {{ "{out}/from-${{trusted['certname']}}":
  content => "exported by ${{trusted['certname']}}\n",
  tag     => 'mrtest_sc',
}}
File <<| tag == 'mrtest_sc' |>>
"#,
            out = out.display()
        ),
    )
    .unwrap();
    let manifest = manifest.to_str().unwrap();
    let files = || common::entry_names(&out);
    let vardir = dir.join("var");
    let apply = |node: &str, extra: &[&str]| {
        let mut args = vec!["apply", "--certname", node, manifest];
        args.extend_from_slice(extra);
        let run = marionette(&args, &vardir);
        assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
        run
    };
    // Without storeconfigs: the export is ignored, with Puppet's warning.
    let run = apply("mrtest-sc-none", &[]);
    assert!(
        run.stderr.contains("without storeconfigs"),
        "no warning of exporting without storeconfigs: {}",
        run.stderr
    );
    assert!(files().is_empty(), "{:?}", files());
    // The first node finds only its own; the second its own and the
    // first's; the first, again, both.
    apply("mrtest-sc-a", &["--storeconfigs"]);
    assert_eq!(files(), ["from-mrtest-sc-a"]);
    assert!(vardir.join("storage/marionette.sqlite3").is_file());
    // Turned on by the configuration, as Puppet users do.
    let config = dir.join("puppet.conf");
    std::fs::write(
        &config,
        "[main]\nstoreconfigs = true\nstoreconfigs_backend = puppetdb\nreports = store,puppetdb\n",
    )
    .unwrap();
    let run = apply("mrtest-sc-b", &["--config", config.to_str().unwrap()]);
    assert_eq!(
        files(),
        ["from-mrtest-sc-a", "from-mrtest-sc-b"],
        "{}",
        run.stdout
    );
    std::fs::remove_dir_all(&out).unwrap();
    apply("mrtest-sc-a", &["--storeconfigs"]);
    assert_eq!(files(), ["from-mrtest-sc-a", "from-mrtest-sc-b"]);

    // A catalog compiled for a third node collects both, and reads the
    // facts the others kept, with their local trusted data, and the
    // reports.
    let query = dir.join("query.pp");
    std::fs::write(
        &query,
        r#"File <<| tag == 'mrtest_sc' |>>
$kept = puppetdb_query(['from', 'facts', ['and', ['=', 'certname', 'mrtest-sc-b'], ['=', 'name', 'trusted']]])
notify { "b is ${kept[0]['value']['authenticated']} ${kept[0]['value']['certname']}": }
$reports = ['mrtest-sc-a', 'mrtest-sc-b'].map |$node| { puppetdb_query(['from', 'reports', ['=', 'certname', $node]]).length }
notify { "reports kept: ${reports}": }
"#,
    )
    .unwrap();
    let run = marionette(
        &[
            "catalog",
            "compile",
            "--certname",
            "mrtest-sc-c",
            "--storeconfigs",
            query.to_str().unwrap(),
        ],
        &vardir,
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let catalog: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let mut titles: Vec<String> = catalog["resources"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["type"] == "File" || r["type"] == "Notify")
        .map(|r| {
            format!(
                "{}[{}]",
                r["type"].as_str().unwrap(),
                r["title"].as_str().unwrap()
            )
        })
        .collect();
    titles.sort();
    let out = out.display();
    assert_eq!(
        titles,
        [
            format!("File[{out}/from-mrtest-sc-a]"),
            format!("File[{out}/from-mrtest-sc-b]"),
            "Notify[b is local mrtest-sc-b]".to_string(),
            // Only b's configuration sends reports to the storage.
            "Notify[reports kept: [0, 1]]".to_string(),
        ]
    );

    // A backend that is not the storage is refused, as the server does.
    let run = marionette(
        &[
            "apply",
            "--storeconfigs",
            "--storeconfigs-backend",
            "active_record",
            "-e",
            "notice(1)",
        ],
        &vardir,
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("'active_record' is not a storeconfigs backend"),
        "{}",
        run.stderr
    );
}

/// Descriptors the agent was started with stay its own, as Puppet closes
/// them in each child: a command (or a daemon a service starts) does not
/// hold its starter's pipe open.
#[test]
fn commands_do_not_inherit_the_descriptors_the_agent_was_given() {
    use std::os::fd::AsRawFd;
    use std::os::unix::process::CommandExt;
    let vardir = tempfile::tempdir().unwrap();
    let (_reader, writer) = std::io::pipe().expect("a pipe");
    let given = writer.as_raw_fd();
    let mut command = Command::new(env!("CARGO_BIN_EXE_marionette"));
    command
        .args(["apply", "--vardir"])
        .arg(vardir.path())
        .args([
            "-e",
            "exec { 'fd': command => 'if test -e /proc/self/fd/9; then echo inherited; else echo private; fi', provider => shell, logoutput => true }",
        ])
        .env("NO_COLOR", "1");
    // SAFETY: dup2(2) in the child, before it runs marionette; the copy
    // at 9 is not close-on-exec, so marionette inherits it.
    unsafe {
        command.pre_exec(move || {
            if libc::dup2(given, 9) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let output = command.output().expect("marionette runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("/Exec[fd]/returns: private"), "{stdout}");
}

/// Run from a terminal, a command gets none to prompt on, as Puppet's
/// commands (each leads a session of its own).
#[test]
fn commands_run_from_a_terminal_get_none() {
    let vardir = tempfile::tempdir().unwrap();
    let printed = common::on_terminal(&format!(
        "{} apply --vardir {} -e \"exec {{ 'tty': command => 'if (: </dev/tty) 2>/dev/null; then echo terminal; else echo none; fi', provider => shell, logoutput => true }}\"",
        env!("CARGO_BIN_EXE_marionette"),
        vardir.path().display()
    ));
    assert!(printed.contains("/Exec[tty]/returns: none"), "{printed}");
}

/// A file that concat's `concat_file` generates, in a directory that is
/// missing, fails in Puppet's words (Ruby's error, wrapped by the file's
/// ensure) and names no file or line: Puppet's generated resources have
/// none. Recorded from Puppet 7 with Debian's concat.
#[test]
fn a_generated_file_whose_directory_is_missing_fails_as_in_puppet() {
    let dir = tempfile::tempdir().unwrap();
    let modules = dir.path().join("modules");
    std::fs::create_dir_all(&modules).unwrap();
    assert!(
        Path::new("/usr/share/puppet/modules/concat").is_dir(),
        "concat is missing: apt-get install puppet-module-puppetlabs-concat (scripts/test does)"
    );
    std::os::unix::fs::symlink("/usr/share/puppet/modules/concat", modules.join("concat")).unwrap();
    let target = dir.path().join("mrtest-missing/out");
    let code = format!(
        "concat_file {{ '{target}': }}
         concat_fragment {{ 'mrtest': target => '{target}', content => \"x\\n\", order => '1' }}",
        target = target.display()
    );
    let run = apply_with_modules(&modules, &code, &dir.path().join("var"));
    let said = format!("{}{}", run.stdout, run.stderr);
    assert_eq!(run.code, 4, "{said}");
    let wrapped = format!(
        "Could not set 'file' on ensure: No such file or directory - A directory component in {}2",
        target.display()
    );
    let errors: Vec<&str> = said.lines().filter(|l| l.starts_with("Error:")).collect();
    assert_eq!(errors.len(), 3, "{said}");
    assert!(
        errors[0].starts_with(&format!("Error: {wrapped}")),
        "{said}"
    );
    assert_eq!(errors[0], errors[1], "{said}");
    assert!(
        errors[2].starts_with(&format!(
            "Error: /Stage[main]/Main/File[{}]/ensure: change from 'absent' to 'file' failed: {wrapped}",
            target.display()
        )),
        "{said}"
    );
    for error in errors {
        assert!(
            error.ends_with(".lock does not exist or is a dangling symbolic link"),
            "no file or line: {said}"
        );
    }
}

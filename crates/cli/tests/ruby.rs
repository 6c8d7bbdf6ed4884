//! Modules' Ruby through the Ruby host: every `tests/ruby/NNNN.pp` is
//! applied with `marionette apply` with the corpus's `modules/` (a module
//! of 4.x and 3.x functions and ERB templates) and Debian's stdlib, and
//! its output must equal the `.out` recorded from the real `puppet apply`
//! (`PUPPET_APPLY_ARGS="--modulepath modules:/usr/share/puppet/modules"
//! scripts/puppet-record-eval tests/ruby/*.pp`). The host's own failure
//! modes (crash, hang, garbage, Ruby missing) are tested in
//! `crates/ruby/tests/host.rs`; here, how the command line reports them.

mod common;

use std::path::{Path, PathBuf};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/ruby")
}

fn require_ruby() {
    assert!(
        std::process::Command::new("ruby")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success()),
        "Ruby is missing: install it with `apt-get install -y ruby` (scripts/test does as root)"
    );
}

#[test]
fn ruby_functions_and_templates_match_puppet() {
    require_ruby();
    let cases = common::case_files(&corpus(), "pp");
    assert!(cases.len() >= 22, "only {} cases", cases.len());
    let modulepath = format!("modules:{}", common::applied::only_modules(&["stdlib"]));
    let problems = common::applied::compare(&corpus(), &cases, &modulepath);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn without_ruby_the_error_names_the_file_and_how_to_install_it() {
    let run = apply(
        "notice(mrtest_rb::shout('x'))\n",
        &modules(),
        &[("MARIONETTE_RUBY", "/nonexistent/mrtest-ruby")],
    );
    assert_eq!(run.code, 1, "{}", run.output());
    let output = run.output();
    assert!(
        output.contains("The function 'mrtest_rb::shout' is written in Ruby (")
            && output.contains("mrtest_rb/lib/puppet/functions/mrtest_rb/shout.rb")
            && output.contains("/nonexistent/mrtest-ruby was not found")
            && output.contains("apt-get install ruby")
            && output.contains("(file: "),
        "{output}"
    );
}

#[test]
fn a_compile_without_module_ruby_starts_no_ruby() {
    // With a Ruby that cannot start, code calling only native and Puppet
    // functions compiles: the host is never started.
    let run = apply(
        "notice(pick(undef, 'native'))\nnotice(upcase('core'))\n",
        &format!(
            "{}:{}",
            modules(),
            common::applied::only_modules(&["stdlib"])
        ),
        &[("MARIONETTE_RUBY", "/nonexistent/mrtest-ruby")],
    );
    assert_eq!(run.code, 0, "{}", run.output());
    assert!(
        run.output().contains("Notice: Scope(Class[main]): native"),
        "{}",
        run.output()
    );
}

fn modules() -> String {
    corpus().join("modules").display().to_string()
}

/// Applies `code` with the given module path and environment.
fn apply(code: &str, modulepath: &str, env: &[(&str, &str)]) -> common::Run {
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::write(dir.path().join("site.pp"), code).unwrap();
    common::marionette_with(
        &[
            "apply",
            "--noop",
            "--modulepath",
            modulepath,
            "--vardir",
            &dir.path().display().to_string(),
            &dir.path().join("site.pp").display().to_string(),
        ],
        env,
    )
}

#[test]
fn a_host_that_dies_or_hangs_fails_the_compile_naming_the_file() {
    require_ruby();
    let run = apply("notice(mrtest_rb::misbehave('exit'))\n", &modules(), &[]);
    assert_eq!(run.code, 1, "{}", run.output());
    assert!(
        run.output().contains(
            "Error while evaluating a Function Call, the Ruby host exited with status 7: mrtest: about to misbehave (while running 'mrtest_rb::misbehave' from "
        ) && run.output().contains("mrtest_rb/misbehave.rb) (file: "),
        "{}",
        run.output()
    );
    let started = std::time::Instant::now();
    let run = apply(
        "notice(mrtest_rb::misbehave('hang'))\n",
        &modules(),
        &[("MARIONETTE_RUBY_TIMEOUT", "1")],
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(30));
    assert_eq!(run.code, 1, "{}", run.output());
    assert!(
        run.output()
            .contains("the Ruby host did not answer 'call' within 1 s; it was stopped"),
        "{}",
        run.output()
    );
}

/// `MARIONETTE_RUBY_TIMEOUT` is read as a plugin's time limit is: a huge
/// number is a day (no overflow), and what is not a positive number of
/// seconds is an error before anything runs.
#[test]
fn the_ruby_time_limit_is_checked_and_capped() {
    require_ruby();
    let run = apply(
        "notice(mrtest_rb::shout('x'))\n",
        &modules(),
        &[("MARIONETTE_RUBY_TIMEOUT", "1e19")],
    );
    assert_eq!(run.code, 0, "{}", run.output());
    assert!(
        run.stdout.contains("Scope(Class[main]): X"),
        "{}",
        run.output()
    );
    for garbage in ["soon", "0", "-5", "inf", "NaN", ""] {
        let run = apply(
            "notice(mrtest_rb::shout('x'))\n",
            &modules(),
            &[("MARIONETTE_RUBY_TIMEOUT", garbage)],
        );
        assert_eq!(run.code, 1, "{garbage}: {}", run.output());
        assert_eq!(
            run.stderr,
            format!(
                "Error: MARIONETTE_RUBY_TIMEOUT must be a positive number of seconds, not '{garbage}'\n"
            ),
            "{garbage}"
        );
    }
}

/// A provider that stops the Ruby host (it exits, aborts, kills itself
/// with SIGSEGV, sleeps past the time limit, prints garbage on the
/// protocol's pipe) fails its own resource alone, as any failing resource
/// in Puppet: a new host is started for what comes after, given the types,
/// providers and resources the old one had, so the resources after it
/// apply and only the one depending on a failed one is skipped
/// (`tests/ruby/crash`).
#[test]
fn a_provider_that_stops_the_host_fails_its_own_resource_alone() {
    require_ruby();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let note = |name: &str| dir.path().join(name).display().to_string();
    let mut code = format!(
        "mrtest_note {{ '{}': ensure => present, content => 'before' }}\n",
        note("mrtest-before")
    );
    for (i, how) in ["exit", "abort", "segv", "hang", "garbage"]
        .iter()
        .enumerate()
    {
        code.push_str(&format!(
            "mrtest_crash {{ 'mrtest-{how}': ensure => present, how => {how} }}\n\
             mrtest_note {{ '{}': ensure => present, content => 'after {how}' }}\n",
            note(&format!("mrtest-after-{i}"))
        ));
    }
    code.push_str(&format!(
        "mrtest_note {{ '{}': ensure => present, content => 'never', require => Mrtest_crash['mrtest-segv'] }}\n",
        note("mrtest-dependent")
    ));
    std::fs::write(dir.path().join("site.pp"), code).unwrap();
    let started = std::time::Instant::now();
    let run = common::marionette_with(
        &[
            "apply",
            "--detailed-exitcodes",
            "--modulepath",
            &corpus().join("crash/modules").display().to_string(),
            "--vardir",
            &dir.path().join("var").display().to_string(),
            &dir.path().join("site.pp").display().to_string(),
        ],
        &[("MARIONETTE_RUBY_TIMEOUT", "2")],
    );
    let output = run.output();
    assert!(
        started.elapsed() < std::time::Duration::from_secs(60),
        "{output}"
    );
    // Failures and changes, as Puppet's --detailed-exitcodes says them.
    assert_eq!(run.code, 6, "{output}");
    let failed = |how: &str, why: &str| {
        let line = format!(
            "Error: /Stage[main]/Main/Mrtest_crash[mrtest-{how}]: Could not evaluate: the Ruby host {why}"
        );
        assert!(output.contains(&line), "no {line:?} in\n{output}");
    };
    failed(
        "exit",
        "exited with status 7: mrtest: about to exit (provider ruby of mrtest_crash)",
    );
    failed(
        "abort",
        "exited with status 1: mrtest: about to abort / mrtest: aborted (provider ruby of mrtest_crash)",
    );
    // Ruby's own report of the segfault ends in an abort: the signal
    // named is the one that happened, and the report's pages (registers,
    // backtraces, the memory map) are left out but its first line.
    failed(
        "segv",
        "was killed by signal 11 (SIGSEGV): mrtest: about to segv / ",
    );
    assert!(
        output.contains("ruby.rb:9: [BUG] Segmentation fault at 0x"),
        "{output}"
    );
    assert!(
        !output.contains("[vsyscall]") && !output.contains("SIGABRT"),
        "{output}"
    );
    failed(
        "hang",
        "did not answer 'resource_state' within 2 s; it was stopped (provider ruby of mrtest_crash)",
    );
    failed(
        "garbage",
        "printed something that is not the protocol: \"garbage\" (provider ruby of mrtest_crash)",
    );
    assert!(!output.contains("key not found"), "{output}");
    for i in 0..5 {
        assert!(
            output.contains(&format!(
                "Notice: /Stage[main]/Main/Mrtest_note[{}]/ensure: created",
                note(&format!("mrtest-after-{i}"))
            )),
            "mrtest-after-{i} was not created:\n{output}"
        );
    }
    assert!(
        output.contains(&format!(
            "Warning: /Stage[main]/Main/Mrtest_note[{}]: Skipping because of failed dependencies",
            note("mrtest-dependent")
        )),
        "{output}"
    );
    assert!(!dir.path().join("mrtest-dependent").exists(), "{output}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("mrtest-after-4")).unwrap_or_default(),
        "after garbage\n"
    );
}

/// A custom fact whose code stops the Ruby host (it exits, kills itself
/// with SIGSEGV, sleeps past the time limit) or whose file does as it
/// loads is reported by its name and file, with the signal by name and
/// without Ruby's crash report; the other facts still resolve, for
/// `facts -p` as for a compile (`tests/ruby/crash/facts`).
#[test]
fn a_custom_fact_that_stops_the_host_is_named_with_its_file() {
    require_ruby();
    let modules = corpus().join("crash/facts");
    let facter = modules.join("mrtest_factcrash/lib/facter");
    let timeout = [("MARIONETTE_RUBY_TIMEOUT", "2")];
    let expected = |file: &str, what: &str| {
        format!(
            "Error: Facter: error while resolving custom facts in {}: {what}",
            facter.join(file).display()
        )
    };
    let wanted = [
        expected(
            "mrtest_load.rb",
            "loading it, the Ruby host exited with status 3: mrtest: about to exit while loading",
        ),
        expected(
            "mrtest_exit.rb",
            "resolving the custom fact 'mrtest_exit', the Ruby host exited with status 7: mrtest: about to exit",
        ),
        expected(
            "mrtest_segv.rb",
            "resolving the custom fact 'mrtest_segv', the Ruby host was killed by signal 11 (SIGSEGV): mrtest: about to segv / ",
        ),
        expected(
            "mrtest_hang.rb",
            "resolving the custom fact 'mrtest_hang', the Ruby host did not answer 'custom_facts' within 2 s; it was stopped",
        ),
    ];
    let run = common::marionette_with(
        &[
            "facts",
            "-p",
            "--modulepath",
            &modules.display().to_string(),
        ],
        &timeout,
    );
    let output = run.output();
    for line in &wanted {
        assert!(output.contains(line.as_str()), "no {line:?} in\n{output}");
    }
    // Ruby's own report is left out but its first line.
    assert!(
        output.contains("mrtest_segv.rb:6: [BUG] Segmentation fault at 0x"),
        "{output}"
    );
    assert!(run.stdout.contains("\"mrtest_fine\": \"fine\""), "{output}");
    assert!(
        !output.contains("[vsyscall]") && !output.contains("SIGABRT"),
        "{output}"
    );

    // A compile reads them one by one: each failure is its own.
    let run = apply(
        "notice($facts['mrtest_segv'])\nnotice($facts['mrtest_fine'])\n",
        &modules.display().to_string(),
        &timeout,
    );
    let output = run.output();
    assert!(output.contains(wanted[0].as_str()), "{output}");
    assert!(output.contains(wanted[2].as_str()), "{output}");
    assert!(output.contains("Scope(Class[main]): fine"), "{output}");
}

/// A module's Ruby type and provider applied step after step on one file,
/// as `tests/ruby/apply/record.sh` recorded Puppet doing: the same
/// messages (in any order: Puppet logs a change before the provider's
/// `flush`, Marionette after) and the same file afterwards.
#[test]
fn ruby_types_and_providers_apply_as_with_puppet() {
    require_ruby();
    let root = std::path::Path::new("/tmp/mrtest-rbtypes");
    let state = || std::fs::read_to_string(root.join("kv.conf")).unwrap_or_default();
    let listing = || std::fs::write(root.join("kv.conf"), "a=1\nb=2\n").expect("a scratch file");
    let problems = replay(
        &corpus().join("apply"),
        &modules(),
        &state,
        ("mrtest_kv", &listing),
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Types written with the Resource API (a `SimpleProvider` with
/// `canonicalize`; a provider with its own `set`, `simple_get_filter`,
/// `custom_insync` and two namevars filled by title patterns), applied
/// step after step as `tests/ruby/resource_api/record.sh` recorded
/// Puppet doing, and listed by `resource` as Puppet lists them.
#[test]
fn resource_api_types_apply_as_with_puppet() {
    require_ruby();
    let problems = replay(
        &corpus().join("resource_api"),
        &modules(),
        &scratch_files,
        ("mrtest_rakv", &|| {}),
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Each file of /tmp/mrtest-rbtypes after a `== NAME` line, the time in
/// the header ParsedFile providers write as N, as the recordings keep
/// them.
fn scratch_files() -> String {
    let root = std::path::Path::new("/tmp/mrtest-rbtypes");
    let mut files: Vec<_> = std::fs::read_dir(root)
        .map(|dir| dir.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    files.sort();
    files
        .iter()
        .filter(|f| f.is_file())
        .map(|f| {
            let name = f.file_name().unwrap_or_default().to_string_lossy();
            format!("== {name}\n{}", header_time_masked(f))
        })
        .collect()
}

/// A file's text with the time in the header ParsedFile providers write
/// as N, as the recordings keep it.
fn header_time_masked(file: &std::path::Path) -> String {
    let header = "# HEADER: This file was autogenerated at ";
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .map(|line| match line.strip_prefix(header) {
            Some(_) => format!("{header}N\n"),
            None => format!("{line}\n"),
        })
        .collect()
}

/// Real modules' `Puppet::Provider::ParsedFile` providers (mailalias's
/// `aliases`, postgresql's `postgresql_conf`), applied step after step
/// with Debian's modules as `tests/ruby/parsedfile/record.sh` recorded
/// Puppet doing: records added, changed and removed, other lines kept.
#[test]
fn parsedfile_providers_of_real_modules_apply_as_with_puppet() {
    require_ruby();
    let modules = std::path::Path::new("/usr/share/puppet/modules");
    for module in ["mailalias", "postgresql"] {
        assert!(
            modules.join(module).is_dir(),
            "{module} is missing: install the packages of tests/forge/packages.txt (scripts/test does)"
        );
    }
    let problems = replay(
        &corpus().join("parsedfile"),
        &modules.display().to_string(),
        &scratch_files,
        ("postgresql_conf", &|| {}),
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // A target that is a link is written through, and stays a link.
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (real, link) = (dir.path().join("real"), dir.path().join("aliases"));
    std::fs::write(&real, "postmaster: root\n").unwrap();
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let run = common::marionette(&[
        "apply",
        "--modulepath",
        &modules.display().to_string(),
        "--vardir",
        &dir.path().display().to_string(),
        "-e",
        &format!(
            "mailalias {{ 'mrtest-link': recipient => 'root', target => '{}' }}",
            link.display()
        ),
    ]);
    assert_eq!(run.code, 0, "{}", run.output());
    assert!(link.is_symlink(), "{}", run.output());
    let written = std::fs::read_to_string(&real).unwrap();
    assert!(
        written.ends_with("postmaster: root\nmrtest-link: root\n"),
        "{written}"
    );
}

/// A real module's type whose providers share a base class of the
/// module's own (`Puppet::Provider::Vcsrepo`), and whose code reads
/// `resource.value`, logs from its `ensure` property and runs `git` in a
/// `Dir.chdir` block: vcsrepo's git provider makes, clones and removes
/// repositories as with Puppet (tests/ruby/vcsrepo/record.sh).
#[test]
fn vcsrepo_makes_clones_and_removes_repositories_as_with_puppet() {
    assert!(
        std::process::Command::new("git")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success()),
        "git is missing: apt-get install -y git (scripts/test does as root)"
    );
    replay_module("vcsrepo", &repositories, "vcsrepo");
}

/// Replays the recorded steps of `tests/ruby/MODULE` with Debian's Forge
/// modules, `state` telling what each step left, then lists `listed`
/// (`TYPE [TITLE]`): fails with every difference from Puppet's recording.
fn replay_module(module: &str, state: &dyn Fn() -> String, listed: &str) {
    require_ruby();
    let modules = std::path::Path::new("/usr/share/puppet/modules");
    assert!(
        modules.join(module).is_dir(),
        "{module} is missing: install the packages of tests/forge/packages.txt (scripts/test does)"
    );
    let problems = replay(
        &corpus().join(module),
        &modules.display().to_string(),
        state,
        (listed, &|| {}),
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A real module's provider whose getters run a command
/// (`update-alternatives`), and whose type's property needs a provider
/// feature: Debian's alternatives module chooses between two choices of
/// an alternative made for the test, and lists it, as with Puppet
/// (tests/ruby/alternatives/record.sh). As root: it uses the real
/// update-alternatives.
#[test]
fn alternatives_choose_and_list_as_with_puppet() {
    let remove = || {
        let _ = std::process::Command::new("update-alternatives")
            .args(["--remove-all", "mrtest-alt"])
            .stderr(std::process::Stdio::null())
            .status();
    };
    remove();
    let query = || {
        let query = std::process::Command::new("update-alternatives")
            .args(["--query", "mrtest-alt"])
            .output()
            .expect("update-alternatives runs (it comes with dpkg)");
        format!(
            "{}{}",
            String::from_utf8_lossy(&query.stdout),
            String::from_utf8_lossy(&query.stderr)
        )
    };
    // Removed whether the replay passes or not.
    let replayed = std::panic::catch_unwind(|| {
        replay_module("alternatives", &query, "alternatives mrtest-alt");
    });
    remove();
    if let Err(failure) = replayed {
        std::panic::resume_unwind(failure);
    }
}

/// A real module whose provider derives from a sibling provider, loads
/// its module's `puppet_x` code and a bundled gem's file (net/ftp), and
/// whose `ensure` words its own change: archive downloads, extracts and
/// cleans up as with Puppet (tests/ruby/archive/record.sh).
#[test]
fn archive_extracts_as_with_puppet() {
    replay_module("archive", &extracted, "archive");
}

/// The files under /tmp/mrtest-rbtypes/dest with their contents, as
/// tests/ruby/record-steps.sh prints them.
fn extracted() -> String {
    files_under(std::path::Path::new("/tmp/mrtest-rbtypes/dest"))
}

/// A type and providers written with every part of the DSL Puppet's
/// custom-types and provider-development pages teach (an ensure with a
/// block, extra values, aliases and its own retrieve and insync?; a
/// namevar other than name; values, validate and munge calling super;
/// array_matching all; change messages of its own; features by methods;
/// a boolean parameter; a global validate; a pre-run check; title
/// patterns with lambdas; providers with a sibling parent, confines of
/// every kind, several defaultfor), applied step after step as
/// tests/ruby/dsl/record.sh recorded Puppet doing, then listed.
#[test]
fn every_part_of_the_type_dsl_applies_as_with_puppet() {
    require_ruby();
    let problems = replay(
        &corpus().join("dsl"),
        &modules(),
        &|| files_under(std::path::Path::new("/tmp/mrtest-rbtypes")),
        ("mrtest_widget", &|| {}),
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Providers a module ships for Puppet's core types, as the
/// provider-development page teaches them (service providers on Puppet's
/// `base`, one adding nothing to the resource's own commands; a package
/// provider on `Puppet::Provider::Package` with versions, `latest` and
/// `purged`): started, enabled, refreshed, upgraded, noop, stopped, and a
/// failed start with its dependent skipped, as tests/ruby/core/record.sh
/// recorded Puppet doing.
#[test]
fn module_providers_of_core_types_apply_as_with_puppet() {
    require_ruby();
    let problems = replay(
        &corpus().join("core"),
        &modules(),
        &|| files_under(std::path::Path::new("/tmp/mrtest-rbtypes")),
        ("", &|| {}),
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A resource whose provider is not suitable when the run reaches it is
/// put aside, as Puppet does, and applied once a later resource (a marker
/// file, as a package bringing a command) makes its provider suitable; when
/// none does, it fails at the end with its dependents skipped, its type
/// named once, and the one naming an unsuitable provider says so
/// (tests/ruby/defer, recorded from `puppet apply`).
#[test]
fn resources_without_a_suitable_provider_wait_as_with_puppet() {
    require_ruby();
    let problems = replay(
        &corpus().join("defer"),
        &modules(),
        &|| files_under(std::path::Path::new("/tmp/mrtest-rbtypes")),
        ("", &|| {}),
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A module type whose attributes a mixin's method declares (as
/// keystone's config types share theirs) is described by running its
/// Ruby when a manifest uses it, and applies as with Puppet: created,
/// changed, left alone, its values checked; a type declaring nothing
/// (openstacklib's base type) is no concern of a run that does not use
/// it (tests/ruby/mixin, recorded from `puppet apply`).
#[test]
fn types_declared_by_a_mixin_apply_as_with_puppet() {
    require_ruby();
    let problems = replay(
        &corpus().join("mixin"),
        &modules(),
        &|| files_under(std::path::Path::new("/tmp/mrtest-rbtypes")),
        ("", &|| {}),
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// `describe` shows a module's Ruby type as `puppet describe` does, from
/// running its DSL: the type's doc, each attribute's doc, values, aliases,
/// patterns and required features, the namevar marked, and each
/// provider's commands (optional ones too), defaults and features
/// (tests/ruby/dsl/describe*.out); and a module type that stands natively
/// for concat's `concat_file` is shown as the module declares it
/// (tests/ruby/parity/describe-concat_file.out). Puppet's describe loads
/// every type of its module path, so each is recorded with its module
/// alone there.
#[test]
fn describe_shows_module_ruby_types_as_puppet_does() {
    require_ruby();
    let alone = |module: &std::path::Path| {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let name = module.file_name().expect("a module name");
        std::os::unix::fs::symlink(module, dir.path().join(name)).expect("a module linked");
        dir
    };
    let dsl = alone(&corpus().join("modules/mrtest_dsl"));
    let concat = alone(std::path::Path::new("/usr/share/puppet/modules/concat"));
    for (dir, args, expected) in [
        (&dsl, &["mrtest_widget"][..], "dsl/describe.out"),
        (
            &dsl,
            &["--providers", "mrtest_widget"][..],
            "dsl/describe-providers.out",
        ),
        (
            &concat,
            &["concat_file"][..],
            "parity/describe-concat_file.out",
        ),
    ] {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_marionette"))
            .arg("describe")
            .args(args)
            .arg("--modulepath")
            .arg(dir.path())
            .output()
            .expect("marionette describe runs");
        let wanted = std::fs::read_to_string(corpus().join(expected)).expect("a recording");
        assert_eq!(
            String::from_utf8_lossy(&output.stdout),
            wanted,
            "describe {args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

/// Native types are an optimisation, never a difference: stdlib's
/// `file_line`, inifile's `ini_setting` and `ini_subsetting`, concat's
/// `concat_file` (which has no provider, and generates its file) and
/// mount_core's `mount` (whose `ensure` is a plain property) applied
/// step after step with Debian's modules on the module path (the native
/// types) and with only their `lib`, as an agent's pluginsync leaves it
/// (the modules' own Ruby through the host), each compared with what
/// `puppet apply` did (tests/ruby/parity/record.sh).
#[test]
fn native_module_types_apply_as_their_own_ruby_does() {
    require_ruby();
    let modules = std::path::Path::new("/usr/share/puppet/modules");
    for module in ["stdlib", "inifile", "concat", "mount_core"] {
        assert!(
            modules.join(module).is_dir(),
            "{module} is missing: install the packages of tests/forge/packages.txt (scripts/test does)"
        );
    }
    let state = || files_under(std::path::Path::new("/tmp/mrtest-rbtypes"));
    let steps = corpus().join("parity");
    let native = replay(&steps, &modules.display().to_string(), &state, ("", &|| {}));
    assert!(native.is_empty(), "native: {}", native.join("\n"));
    // The modules' lib merged into one module named as the agent names
    // it, where no native type stands in.
    let agent = tempfile::tempdir().expect("a temporary directory");
    let lib = agent.path().join("plugins/lib");
    for module in ["stdlib", "inifile", "concat", "mount_core"] {
        common::copy_tree(&modules.join(module).join("lib"), &lib);
    }
    let ruby = replay(
        &steps,
        &agent.path().display().to_string(),
        &state,
        ("", &|| {}),
    );
    assert!(ruby.is_empty(), "through Ruby: {}", ruby.join("\n"));
}

/// A native type stands for its module's own only while it implements
/// everything that version declares: a newer concat than the native
/// `concat_file` follows (made by tests/ruby/concat9/newer-concat from
/// Debian's, with concat 9's `create_empty_file`) has its resources
/// applied by its own Ruby, step after step as `puppet apply` did
/// (tests/ruby/concat9/record.sh).
#[test]
fn a_newer_module_than_its_native_type_is_applied_by_its_own_ruby() {
    require_ruby();
    let stdlib = std::path::Path::new("/usr/share/puppet/modules/stdlib");
    assert!(
        stdlib.is_dir(),
        "stdlib is missing: install the packages of tests/forge/packages.txt (scripts/test does)"
    );
    let steps = corpus().join("concat9");
    let modules = tempfile::tempdir().expect("a temporary directory");
    let made = std::process::Command::new(steps.join("newer-concat"))
        .arg(modules.path())
        .status()
        .expect("tests/ruby/concat9/newer-concat runs (python3)");
    assert!(made.success(), "newer-concat failed");
    let modulepath = format!("{}:/usr/share/puppet/modules", modules.path().display());
    let state = || files_under(std::path::Path::new("/tmp/mrtest-rbtypes"));
    let problems = replay(&steps, &modulepath, &state, ("", &|| {}));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The files under `dir` with their contents (header times masked),
/// sorted, each after a `== PATH` line (relative to `dir`), as
/// tests/ruby/record-steps.sh's `files_under` prints them.
fn files_under(dest: &std::path::Path) -> String {
    let mut files = Vec::new();
    let mut dirs = vec![dest.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files.sort();
    files
        .iter()
        .map(|f| {
            format!(
                "== {}\n{}",
                f.strip_prefix(dest).unwrap_or(f).display(),
                header_time_masked(f)
            )
        })
        .collect()
}

/// Each git repository of /tmp/mrtest-rbtypes with a work tree, as
/// tests/ruby/record-steps.sh prints them: `== NAME`, then the subject of
/// each commit, newest first.
fn repositories() -> String {
    let root = std::path::Path::new("/tmp/mrtest-rbtypes");
    let mut dirs: Vec<_> = std::fs::read_dir(root)
        .map(|entries| entries.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    dirs.sort();
    let mut out = String::new();
    for dir in dirs.iter().filter(|d| d.join(".git").is_dir()) {
        out.push_str(&format!(
            "== {}\n",
            dir.file_name().unwrap_or_default().to_string_lossy()
        ));
        if let Ok(log) = std::process::Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(["log", "--format=%s"])
            .output()
        {
            out.push_str(&String::from_utf8_lossy(&log.stdout));
        }
    }
    out
}

/// Applies the steps of `steps` in order on a fresh /tmp/mrtest-rbtypes,
/// comparing what each prints and leaves (`state`) with the recording,
/// then lists a type after preparing for it: what differs, in words.
fn replay(
    steps: &std::path::Path,
    modulepath: &str,
    state: &dyn Fn() -> String,
    (listed, prepare): (&str, &dyn Fn()),
) -> Vec<String> {
    // The two replays share the scratch directory.
    static SCRATCH: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _held = SCRATCH.lock().unwrap_or_else(|e| e.into_inner());
    let root = std::path::Path::new("/tmp/mrtest-rbtypes");
    let _ = std::fs::remove_dir_all(root);
    // The classic type's steps start with the directory made, as its
    // recording did; the Resource API's steps make it.
    if listed == "mrtest_kv" || listed == "mrtest_widget" {
        std::fs::create_dir_all(root).expect("/tmp/mrtest-rbtypes");
    }
    let vardir = tempfile::tempdir().expect("a temporary directory");
    let mut problems = Vec::new();
    // Steps we do not match yet, each with why (`STEP: reason`); a step
    // after one of them may differ only by what it left.
    let known_differences: Vec<String> =
        std::fs::read_to_string(steps.join("known-differences.txt"))
            .unwrap_or_default()
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .filter_map(|l| l.split(':').next())
            .map(|s| s.trim().to_string())
            .collect();
    for case in common::case_files(steps, "pp") {
        let name = case.file_name().unwrap().to_string_lossy().to_string();
        let mut args = vec![
            "apply".to_string(),
            "--modulepath".into(),
            modulepath.to_string(),
            "--vardir".into(),
            vardir.path().display().to_string(),
            name.clone(),
        ];
        if name.contains("_noop") {
            args.insert(1, "--noop".into());
        }
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_marionette"))
            .current_dir(steps)
            .args(&args)
            .output()
            .expect("marionette runs");
        let printed = common::without_dir(
            steps,
            &format!(
                "{}{}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            ),
        );
        let messages = |text: &str| -> Vec<String> {
            let mut lines: Vec<String> = text
                .lines()
                // The times, the node's name, and the summary line
                // Marionette adds after invalid resources of any type are
                // not this test's business.
                // Nor are the failures of modules' custom facts (ssh's,
                // without sshd), which the recordings leave out too.
                .filter(|l| {
                    !l.starts_with("Notice: Compiled catalog")
                        && !l.starts_with("Notice: Applied catalog")
                        && !l.starts_with("Error: Facter:")
                        && *l != "Error: Failed to apply catalog: invalid resources"
                })
                .map(|l| match l.rfind(" on node ") {
                    Some(i) => l[..i].to_string(),
                    None => l.to_string(),
                })
                .map(|l| seconds_as_n(&l))
                .collect();
            lines.sort();
            lines
        };
        // Where Marionette differs from Puppet on purpose, the step keeps
        // what Marionette prints beside Puppet's recording, with why (see
        // the directory's record.sh).
        let ours = case.with_extension("marionette.out");
        let expected = std::fs::read_to_string(if ours.exists() {
            ours
        } else {
            case.with_extension("out")
        })
        .expect("recorded");
        let step = name.trim_end_matches(".pp");
        let known = known_differences.iter().any(|k| k == step);
        let left = state();
        let expected_state =
            std::fs::read_to_string(case.with_extension("state")).expect("recorded");
        let same = messages(&printed) == messages(&expected) && left == expected_state;
        if known {
            if same {
                problems.push(format!(
                    "{name} now matches Puppet: take it out of known-differences.txt"
                ));
            }
            continue;
        }
        if messages(&printed) != messages(&expected) {
            problems.push(format!(
                "{name}: printed\n{printed}--- Puppet printed\n{expected}"
            ));
        }
        if left != expected_state {
            problems.push(format!(
                "{name}: the files hold\n{left}--- with Puppet\n{expected_state}"
            ));
        }
    }
    // Listing, as `puppet resource` lists: the provider's instances (when
    // the steps recorded one).
    if !steps.join("resource.out").exists() {
        let _ = std::fs::remove_dir_all(root);
        return problems;
    }
    prepare();
    let mut args = vec!["resource", "--modulepath", modulepath];
    args.extend(listed.split_whitespace());
    let listed_out = common::marionette(&args);
    let expected = std::fs::read_to_string(steps.join("resource.out")).expect("recorded");
    if listed_out.stdout != expected {
        problems.push(format!(
            "resource {listed} printed\n{}--- Puppet printed\n{expected}",
            listed_out.output()
        ));
    }
    let _ = std::fs::remove_dir_all(root);
    problems
}

/// Times in a message as the recordings write them: `in N seconds`.
fn seconds_as_n(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(at) = rest.find(" seconds") {
        let before = &rest[..at];
        let digits = before
            .char_indices()
            .rev()
            .take_while(|(_, c)| c.is_ascii_digit() || *c == '.')
            .last()
            .map_or(at, |(i, _)| i);
        if digits < at && before[..digits].ends_with(' ') {
            out.push_str(&before[..digits]);
            out.push('N');
        } else {
            out.push_str(before);
        }
        out.push_str(" seconds");
        rest = &rest[at + " seconds".len()..];
    }
    out.push_str(rest);
    out
}

/// Modules' custom facts (`lib/facter/*.rb`) feed `apply` as Puppet's do
/// (`tests/ruby/facts`, recorded with `PUPPET_APPLY_ARGS="--modulepath
/// modules" scripts/puppet-record-eval tests/ruby/facts/*.pp`); a file
/// that does not load is reported by name and the others still resolve.
#[test]
fn custom_facts_feed_apply_as_with_puppet() {
    require_ruby();
    let dir = corpus().join("facts");
    let cases = common::case_files(&dir, "pp");
    assert!(!cases.is_empty());
    let problems = common::applied::compare(&dir, &cases, "modules");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let run = common::marionette(&[
        "apply",
        "--noop",
        "--modulepath",
        &dir.join("modules").display().to_string(),
        "-e",
        "notice($facts['mrtest_block'])",
    ]);
    assert!(
        run.stderr
            .contains("Error: Facter: error while resolving custom facts in ")
            && run.stderr.contains("mrtest_broken.rb: SyntaxError"),
        "{}",
        run.output()
    );
    // `marionette facts -p` shows them, as `facter -p` shows Puppet's.
    let modulepath = dir.join("modules").display().to_string();
    let with = common::marionette(&[
        "facts",
        "-p",
        "--modulepath",
        &modulepath,
        "mrtest_weighted",
    ]);
    assert_eq!(with.stdout, "the heavier\n", "{}", with.output());
    let without = common::marionette(&["facts", "--modulepath", &modulepath, "mrtest_weighted"]);
    assert_eq!(without.stdout, "\n", "{}", without.output());
    // A fact's command keeps the agent's HOME, as Facter's do, whether
    // it resolves alone (a compile that reads it) or beside others.
    let home = common::marionette_with(
        &[
            "apply",
            "--noop",
            "--modulepath",
            &modulepath,
            "-e",
            "notice($facts['mrtest_home'])",
        ],
        &[("HOME", "/tmp/mrtest-home")],
    );
    assert!(
        home.stdout
            .contains("Notice: Scope(Class[main]): /tmp/mrtest-home\n"),
        "{}",
        home.output()
    );
    let home = common::marionette_with(
        &["facts", "-p", "--modulepath", &modulepath, "mrtest_home"],
        &[("HOME", "/tmp/mrtest-home")],
    );
    assert_eq!(home.stdout, "/tmp/mrtest-home\n", "{}", home.output());
}

/// A compile resolves a module's custom fact only when its code reads it
/// (`$facts['x']`, `$x`, `$::x`, Hiera's `%{facts.x}`), all of them when
/// it reads `$facts` whole, and none, starting no Ruby, when it reads
/// none; a Ruby provider's `Facter.value` loads them on its own.
#[test]
fn custom_facts_are_resolved_when_the_code_reads_them() {
    require_ruby();
    let facts = corpus().join("facts/modules").display().to_string();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let marker = dir.path().join("marker");
    let marker_env = marker.display().to_string();
    let with_marker = [("MRTEST_FACT_MARKER", marker_env.as_str())];

    // Native facts only: no Ruby is started (this one cannot start).
    let run = apply(
        "notice($facts['os']['family'])\nnotice($::kernel)\n",
        &facts,
        &[("MARIONETTE_RUBY", "/nonexistent/mrtest-ruby")],
    );
    assert_eq!(run.code, 0, "{}", run.output());
    assert!(!run.stderr.contains("Error"), "{}", run.output());

    // One fact read in three ways: the others are left alone.
    let run = apply(
        "notice($facts['mrtest_block'])\nnotice($mrtest_command)\nnotice($::mrtest_confined)\n",
        &facts,
        &with_marker,
    );
    assert!(
        run.stdout.contains("Scope(Class[main]): from a block\n")
            && run.stdout.contains("Scope(Class[main]): from a command\n")
            && run.stdout.contains("Scope(Class[main]): on Linux\n"),
        "{}",
        run.output()
    );
    assert!(!marker.exists(), "an unread fact was resolved");

    // `$facts` read whole holds every fact.
    let run = apply("notice('mrtest_marked' in $facts)\n", &facts, &with_marker);
    assert!(
        run.stdout.contains("Scope(Class[main]): true\n"),
        "{}",
        run.output()
    );
    assert!(marker.exists(), "{}", run.output());
    std::fs::remove_file(&marker).unwrap();

    // Hiera interpolates them.
    let hiera = dir.path().join("hiera.yaml");
    std::fs::write(
        &hiera,
        "---\nversion: 5\nhierarchy:\n  - name: common\n    path: common.yaml\ndefaults:\n  datadir: data\n  data_hash: yaml_data\n",
    )
    .unwrap();
    std::fs::create_dir(dir.path().join("data")).unwrap();
    std::fs::write(
        dir.path().join("data/common.yaml"),
        "---\nmrtest::key: \"%{facts.mrtest_block} / %{::mrtest_command} / %{mrtest_marked}\"\n",
    )
    .unwrap();
    let run = common::marionette_with(
        &[
            "apply",
            "--noop",
            "--modulepath",
            &facts,
            "--hiera_config",
            &hiera.display().to_string(),
            "--vardir",
            &dir.path().display().to_string(),
            "-e",
            "notice(lookup('mrtest::key'))",
        ],
        &with_marker,
    );
    assert!(
        run.stdout
            .contains("Scope(Class[main]): from a block / from a command / marked\n"),
        "{}",
        run.output()
    );

    // A Ruby provider reads a fact the manifest never read.
    let module = dir.path().join("modules/mrtest_factseen/lib/puppet");
    std::fs::create_dir_all(module.join("provider/mrtest_factseen")).unwrap();
    std::fs::create_dir_all(module.join("type")).unwrap();
    std::fs::write(
        module.join("type/mrtest_factseen.rb"),
        "Puppet::Type.newtype(:mrtest_factseen) do\n  ensurable\n  newparam(:path, namevar: true)\nend\n",
    )
    .unwrap();
    std::fs::write(
        module.join("provider/mrtest_factseen/ruby.rb"),
        "Puppet::Type.type(:mrtest_factseen).provide(:ruby) do\n  def exists?\n    File.exist?(resource[:path])\n  end\n\n  def create\n    File.write(resource[:path], Facter.value(:mrtest_block).to_s)\n  end\n\n  def destroy; end\nend\n",
    )
    .unwrap();
    let seen = dir.path().join("seen");
    let run = common::marionette(&[
        "apply",
        "--modulepath",
        &format!("{facts}:{}", dir.path().join("modules").display()),
        "--vardir",
        &dir.path().display().to_string(),
        "-e",
        &format!(
            "mrtest_factseen {{ '{}': ensure => present }}",
            seen.display()
        ),
    ]);
    assert_eq!(run.code, 0, "{}", run.output());
    assert_eq!(
        std::fs::read_to_string(&seen).unwrap_or_default(),
        "from a block",
        "{}",
        run.output()
    );
}

/// Facter's cache (`facter.conf`'s `facts.ttls` and `fact-groups`, read
/// from Debian's `/etc/facter`, the files in Debian's
/// `/var/cache/facter/facts`): a cached custom fact is not resolved again
/// until its group expires, by `facts -p` (an agent's facts) and by a
/// compile that reads it; the group's file is Facter's own (recorded from
/// Facter 4 by scripts/puppet-record-fact-cache, compared by meaning).
#[test]
fn facters_cache_keeps_custom_facts_for_their_time_to_live() {
    require_ruby();
    let etc = tempfile::tempdir().expect("a temporary directory");
    std::fs::create_dir(etc.path().join("facter")).unwrap();
    let recorded = corpus().join("facts/cache");
    std::fs::copy(
        recorded.join("facter.conf"),
        etc.path().join("facter/facter.conf"),
    )
    .unwrap();
    let cache = Path::new("/var/cache/facter/facts/mrtest-cache");
    let _ = std::fs::remove_file(cache);
    struct Cleanup<'a>(&'a Path);
    impl Drop for Cleanup<'_> {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(self.0);
        }
    }
    let _cleanup = Cleanup(cache);
    let marker = etc.path().join("marker");
    let env = [
        ("MARIONETTE_TEST_SYSCONFDIR", etc.path().to_str().unwrap()),
        ("MRTEST_FACT_MARKER", marker.to_str().unwrap()),
    ];
    let modulepath = corpus().join("facts/modules").display().to_string();
    let facts = || {
        common::marionette_with(
            &[
                "facts",
                "-p",
                "--modulepath",
                &modulepath,
                "mrtest_marked",
                "mrtest_structured.nested.ok",
                "mrtest_command",
            ],
            &env,
        )
    };

    // Resolved, and kept as Facter keeps them.
    let run = facts();
    assert_eq!(
        run.stdout,
        "mrtest_command => from a command\nmrtest_marked => marked\nmrtest_structured.nested.ok => true\n",
        "{}",
        run.output()
    );
    assert!(marker.exists(), "{}", run.output());
    let ours: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(cache).expect("the group's file")).unwrap();
    let facters: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(recorded.join("puppet.json")).unwrap())
            .unwrap();
    assert_eq!(ours, facters);

    // Taken from the cache: not resolved again, by facts -p or a compile.
    std::fs::remove_file(&marker).unwrap();
    let again = facts();
    assert_eq!(again.stdout, run.stdout, "{}", again.output());
    assert!(!marker.exists(), "a cached fact was resolved again");
    let compiled = apply("notice($facts['mrtest_marked'])\n", &modulepath, &env);
    assert!(
        compiled.stdout.contains("Scope(Class[main]): marked\n"),
        "{}",
        compiled.output()
    );
    assert!(!marker.exists(), "a compile resolved a cached fact");

    // A cached fact that no module here adds is not this environment's.
    let mut kept = ours.clone();
    kept["mrtest_nobody"] = serde_json::Value::from("stale");
    std::fs::write(cache, kept.to_string()).unwrap();
    let nobody = common::marionette_with(
        &["facts", "-p", "--modulepath", &modulepath, "mrtest_nobody"],
        &env,
    );
    assert_eq!(nobody.stdout, "\n", "{}", nobody.output());

    // Expired (the group's time to live is an hour): resolved and kept
    // again.
    std::fs::File::options()
        .write(true)
        .open(cache)
        .unwrap()
        .set_modified(std::time::SystemTime::now() - std::time::Duration::from_secs(7_200))
        .unwrap();
    let expired = facts();
    assert_eq!(expired.stdout, run.stdout, "{}", expired.output());
    assert!(marker.exists(), "an expired fact was not resolved");
    let age = std::fs::metadata(cache).unwrap().modified().unwrap();
    assert!(age.elapsed().unwrap() < std::time::Duration::from_secs(600));

    // A configuration that cannot be read is said, and caches nothing.
    std::fs::write(
        etc.path().join("facter/facter.conf"),
        "facts : { ttls : [ \n",
    )
    .unwrap();
    let broken = facts();
    assert_eq!(broken.stdout, run.stdout, "{}", broken.output());
    assert!(
        broken.stderr.contains("Error: Facter: Could not parse ")
            && broken.stderr.contains("facter.conf (line: 2, column: 1)"),
        "{}",
        broken.output()
    );
}

/// Custom facts resolve side by side: the commands of two run at once
/// (each marks its start and end), in Facter's locale; a fact confined on
/// another waits for it; two that ask for each other both end, one seeing
/// the other's value and the other nothing, as within one thread.
#[test]
fn custom_facts_resolve_side_by_side() {
    require_ruby();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let log = dir.path().join("log");
    let modulepath = corpus()
        .join("facts-together/modules")
        .display()
        .to_string();
    let run = common::marionette_with(
        &[
            "facts",
            "-p",
            "--modulepath",
            &modulepath,
            "mrtest_together_a",
            "mrtest_together_b",
            "mrtest_together_after",
            "mrtest_circle_x",
            "mrtest_circle_y",
        ],
        &[("MRTEST_TOGETHER_LOG", log.to_str().unwrap())],
    );
    assert_eq!(run.code, 0, "{}", run.output());
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(
        lines[2..],
        [
            "mrtest_together_a => a done in C",
            "mrtest_together_after => after a done in C",
            "mrtest_together_b => b done in C",
        ],
        "{}",
        run.output()
    );
    let circle = (lines[0], lines[1]);
    assert!(
        circle
            == (
                "mrtest_circle_x => x sees \"y sees nil\"",
                "mrtest_circle_y => y sees nil"
            )
            || circle
                == (
                    "mrtest_circle_x => x sees nil",
                    "mrtest_circle_y => y sees \"x sees nil\""
                ),
        "{}",
        run.output()
    );
    let marks = std::fs::read_to_string(&log).unwrap();
    let marks: Vec<&str> = marks.lines().collect();
    assert_eq!(marks.len(), 4, "{marks:?}");
    assert!(
        marks[..2].iter().all(|m| m.starts_with("start")),
        "the commands ran one after the other: {marks:?}"
    );
}

/// A custom fact that takes more than a second is named on a terminal's
/// progress line while it resolves, and the line is gone after; a pipe
/// never gets it. The terminal is `script`'s pseudo-terminal (util-linux,
/// in every Debian).
#[test]
fn a_slow_custom_fact_is_named_on_a_terminal() {
    require_ruby();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let facts = dir.path().join("modules/mrtest_slow/lib/facter");
    std::fs::create_dir_all(&facts).unwrap();
    std::fs::write(
        facts.join("mrtest_slow.rb"),
        "Facter.add(:mrtest_slow) { setcode { sleep 1.8; 'done' } }\n",
    )
    .unwrap();
    let modulepath = dir.path().join("modules").display().to_string();
    let command = format!(
        "{} facts -p --modulepath {modulepath} mrtest_slow",
        env!("CARGO_BIN_EXE_marionette")
    );
    let shown = common::on_terminal(&command);
    assert!(
        shown.contains("\r\x1b[KResolving fact mrtest_slow (running 1 s)"),
        "{shown:?}"
    );
    assert!(
        shown.ends_with("\r\x1b[Kdone\r\n"),
        "the line is erased before the value: {shown:?}"
    );
    let piped = common::marionette(&["facts", "-p", "--modulepath", &modulepath, "mrtest_slow"]);
    assert_eq!(piped.stdout, "done\n");
    assert!(!piped.stderr.contains("Resolving"), "{}", piped.stderr);
}

/// A deferred call of a module's Ruby function is made when the catalog
/// is applied: compiled in the same run, or compiled with `--rich-data`
/// and applied where the modules are not (an agent's node), the function
/// found in any module's `lib` as in an agent's libdir, where pluginsync
/// merges every module's.
#[test]
fn deferred_calls_of_ruby_functions_are_made_when_applying() {
    require_ruby();
    let dir = tempfile::Builder::new()
        .prefix("mrtest-deferred-ruby")
        .tempdir()
        .unwrap();
    let vardir = dir.path().join("var").display().to_string();
    let target = dir.path().join("out");
    let site = dir.path().join("site.pp");
    std::fs::write(
        &site,
        format!(
            "file {{ '{}': content => Deferred('mrtest_rb::shout', ['x', 2]) }}\n",
            target.display()
        ),
    )
    .unwrap();
    let site = site.display().to_string();
    let run = common::marionette_with(
        &[
            "apply",
            "--modulepath",
            &modules(),
            "--vardir",
            &vardir,
            &site,
        ],
        &[],
    );
    assert_eq!(run.code, 0, "{}", run.output());
    // The function upcases through Puppet's `upcase`, called back.
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "X X");

    let catalog = dir.path().join("catalog.json").display().to_string();
    let compiled = common::marionette_with(
        &[
            "catalog",
            "compile",
            "--rich-data",
            "--certname",
            "mrtest.example.com",
            "--modulepath",
            &modules(),
            "--output",
            &catalog,
            &site,
        ],
        &[],
    );
    assert_eq!(compiled.code, 0, "{}", compiled.output());
    let agent = dir.path().join("agent");
    let synced = agent.join("plugins/lib/puppet/functions/mrtest_rb");
    std::fs::create_dir_all(&synced).unwrap();
    std::fs::copy(
        corpus().join("modules/mrtest_rb/lib/puppet/functions/mrtest_rb/shout.rb"),
        synced.join("shout.rb"),
    )
    .unwrap();
    std::fs::remove_file(&target).unwrap();
    let run = common::marionette_with(
        &[
            "apply",
            "--modulepath",
            &agent.display().to_string(),
            "--vardir",
            &vardir,
            "--catalog",
            &catalog,
        ],
        &[],
    );
    assert_eq!(run.code, 0, "{}", run.output());
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "X X");
}

/// Module Ruby reads the command's settings as `Puppet[:name]`: a
/// function (extlib's `cache_data` keeps its files under `vardir`), a
/// template, and custom facts (stdlib's `puppet_vardir`, which requires
/// its helper from its module, and extlib's `puppet_config`, which reads
/// them through `Puppet.settings.values`), with the module path given
/// relative to where the command runs.
#[test]
fn module_ruby_reads_the_commands_settings() {
    require_ruby();
    let stdlib = Path::new("/usr/share/puppet/modules/stdlib");
    assert!(
        stdlib.join("lib/facter/puppet_settings.rb").is_file(),
        "Debian's stdlib is missing: apt-get install puppet-module-puppetlabs-stdlib (scripts/test does)"
    );
    let dir = tempfile::tempdir().expect("a temporary directory");
    let modules = dir.path().join("modules");
    let functions = modules.join("mrtest_settings/lib/puppet/functions/mrtest_settings");
    let facts = modules.join("mrtest_settings/lib/facter");
    std::fs::create_dir_all(&functions).unwrap();
    std::fs::create_dir_all(&facts).unwrap();
    std::os::unix::fs::symlink(stdlib, modules.join("stdlib")).unwrap();
    std::fs::write(
        functions.join("dirs.rb"),
        "Puppet::Functions.create_function(:'mrtest_settings::dirs') do\n  \
         def dirs\n    [Puppet[:vardir], Puppet.settings[:statedir], \
         Puppet.settings.values(:production, :main).interpolate(:localcacert), \
         Puppet::Util::Log.level.to_s]\n  end\nend\n",
    )
    .unwrap();
    std::fs::write(
        facts.join("mrtest_settings.rb"),
        "Facter.add(:mrtest_ssldir) { setcode { Puppet[:ssldir] } }\n",
    )
    .unwrap();
    let vardir = dir.path().join("mrtest-var");
    let vardir_text = vardir.display().to_string();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_marionette"))
        .current_dir(dir.path())
        .args([
            "apply",
            "--vardir",
            &vardir_text,
            "--modulepath",
            "modules",
            "-e",
        ])
        .arg(
            "notice(mrtest_settings::dirs())\n\
             notice($facts['puppet_vardir'])\n\
             notice($facts['mrtest_ssldir'])\n\
             notice(inline_template('<%= Puppet[:hostcert] %>'))\n",
        )
        .output()
        .expect("marionette runs");
    let said = common::printed(&output);
    assert!(output.status.success(), "{said}");
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap();
    for line in [
        format!("[{vardir_text}, {vardir_text}/state, {vardir_text}/ssl/certs/ca.pem, notice]"),
        vardir_text.clone(),
        format!("{vardir_text}/ssl"),
        format!("{vardir_text}/ssl/certs/{}.pem", host.trim()),
    ] {
        assert!(
            said.contains(&format!("Notice: Scope(Class[main]): {line}\n")),
            "{line}: {said}"
        );
    }
    assert!(!said.contains("Error"), "{said}");
}

/// augeas_core's provider, a module's Ruby, shows its change under
/// `--show_diff` at the resource's `loglevel` (Puppet's `notice` unless
/// set) with Puppet's `diff -u`, and changes nothing in noop; run for
/// real, it makes the change, and a second run has none to make.
#[test]
fn augeas_shows_its_diff_and_applies() {
    require_ruby();
    assert!(
        std::process::Command::new("ruby")
            .args(["-e", "require 'augeas'"])
            .status()
            .is_ok_and(|s| s.success()),
        "Ruby's Augeas bindings are missing: apt-get install ruby-augeas (scripts/test does)"
    );
    let augeas = Path::new("/usr/share/puppet/modules/augeas_core");
    assert!(
        augeas.is_dir(),
        "augeas_core is missing: apt-get install puppet-module-puppetlabs-augeas-core (scripts/test does)"
    );
    let dir = tempfile::tempdir().expect("a temporary directory");
    let modules = dir.path().join("modules");
    std::fs::create_dir_all(&modules).unwrap();
    std::os::unix::fs::symlink(augeas, modules.join("augeas_core")).unwrap();
    let conf = dir.path().join("mrtest.conf");
    std::fs::write(&conf, "mrtest_a = 1\n").unwrap();
    let code = format!(
        "augeas {{ 'mrtest': incl => '{}', lens => 'Simplevars.lns', changes => 'set mrtest_a 2' }}",
        conf.display()
    );
    let modulepath = modules.display().to_string();
    let run = |more: &[&str]| {
        let mut args = vec!["apply", "--detailed-exitcodes", "--modulepath", &modulepath];
        args.extend_from_slice(more);
        args.extend_from_slice(&["-e", &code]);
        common::marionette(&args)
    };
    // Puppet's noop run exits 0 with changes pending, as Marionette's.
    let noop = run(&["--noop", "--show_diff"]);
    assert_eq!(noop.code, 0, "{}", noop.output());
    assert!(
        noop.stdout
            .contains("Notice: Augeas[mrtest](provider=augeas): ")
            && noop.stdout.contains("-mrtest_a = 1")
            && noop.stdout.contains("+mrtest_a = 2"),
        "{}",
        noop.output()
    );
    assert_eq!(std::fs::read_to_string(&conf).unwrap(), "mrtest_a = 1\n");
    let real = run(&[]);
    assert_eq!(real.code, 2, "{}", real.output());
    assert!(
        !real.stdout.contains("-mrtest_a"),
        "no diff unless asked: {}",
        real.output()
    );
    assert_eq!(std::fs::read_to_string(&conf).unwrap(), "mrtest_a = 2\n");
    let again = run(&["--show_diff"]);
    assert_eq!(again.code, 0, "{}", again.output());
}

/// A provider that stops the run (`Puppet::Application.stop!`, as
/// reboot's does before an immediate reboot) leaves the other resources
/// skipped, saying so at debug level, and the run is not a failure; its
/// provider requires a helper by a path made from its own `__FILE__`,
/// which a module path given relative to where the command runs must not
/// break.
#[test]
fn a_provider_stops_the_run_as_reboots_does() {
    require_ruby();
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::create_dir_all(dir.path().join("modules")).unwrap();
    std::os::unix::fs::symlink(
        corpus().join("modules/mrtest_rb"),
        dir.path().join("modules/mrtest_rb"),
    )
    .unwrap();
    let kv = dir.path().join("kv.conf");
    let code = format!(
        "mrtest_kv {{ 'before': path => '{kv}', value => 'one' }}
         -> mrtest_stop {{ 'now': ensure => present }}
         -> mrtest_kv {{ 'after': path => '{kv}', value => 'two' }}",
        kv = kv.display()
    );
    let vardir = dir.path().join("var").display().to_string();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_marionette"))
        .current_dir(dir.path())
        .args([
            "apply",
            "--debug",
            "--detailed-exitcodes",
            "--vardir",
            &vardir,
        ])
        .args(["--modulepath", "modules", "-e", &code])
        .output()
        .expect("marionette runs");
    let said = common::printed(&output);
    assert_eq!(output.status.code(), Some(2), "{said}");
    assert!(
        said.contains("Notice: mrtest stopping the run for now"),
        "{said}"
    );
    assert!(
        said.contains("Debug: /Stage[main]/Main/Mrtest_kv[after]: Transaction canceled, skipping"),
        "{said}"
    );
    assert_eq!(
        std::fs::read_to_string(&kv).unwrap_or_default(),
        "before=one\n"
    );
}

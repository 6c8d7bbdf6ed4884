//! Extensions shipped in modules, end to end: the fixture modules under
//! `tests/fixtures/modules/` ship a type declared as data (`kv_entry`),
//! providers in Python (batching) and in shell, a Python function,
//! external facts and a subcommand (`kv`), and plugins that misbehave on
//! purpose (`kv_broken`). Every test runs the real `marionette` binary.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use common::{Run, marionette_with as marionette, sdk_example};

fn modules() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/modules")
}

/// Where each test keeps its files; the name cannot collide with anything
/// but another of these tests.
fn workdir() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("mrtest-plugins-")
        .tempdir()
        .unwrap()
}

/// `marionette apply --detailed-exitcodes` of a manifest with the fixture
/// modules: 0 for no change, 2 for changes, 4 for failures, 6 for both.
fn apply(dir: &Path, manifest: &str, extra: &[&str]) -> Run {
    std::fs::write(dir.join("site.pp"), manifest).unwrap();
    let mut args = apply_args(dir, "var");
    args.extend(extra.iter().map(|a| a.to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    marionette(&args, &[])
}

/// `apply` of `DIR/site.pp` with the fixture modules and the state
/// directory `DIR/VARDIR`, with detailed exit codes.
fn apply_args(dir: &Path, vardir: &str) -> Vec<String> {
    vec![
        "apply".into(),
        dir.join("site.pp").display().to_string(),
        "--modulepath".into(),
        modules().display().to_string(),
        "--vardir".into(),
        dir.join(vardir).display().to_string(),
        "--detailed-exitcodes".into(),
    ]
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The shell provider needs jq; without it the test says how to get it.
fn require_jq() {
    let found = Command::new("jq").arg("--version").output().is_ok();
    assert!(
        found,
        "the shell provider of the kv fixture needs jq: apt-get install -y jq"
    );
}

fn entries(path: &Path, entries: &[(&str, &str)], extra: &str) -> String {
    entries
        .iter()
        .map(|(key, value)| {
            format!(
                "kv_entry {{ '{}:{key}': value => '{value}'{extra} }}\n",
                path.display()
            )
        })
        .collect()
}

#[test]
fn both_providers_create_change_and_remove_entries() {
    require_jq();
    for (provider, extra) in [("python", ""), ("shell", ", provider => shell")] {
        let dir = workdir();
        let ini = dir.path().join("app.ini");
        std::fs::write(&ini, "# kept\nother = 1\n").unwrap();
        let manifest = entries(&ini, &[("port", "8080"), ("db.host", "localhost")], extra);

        let first = apply(dir.path(), &manifest, &[]);
        assert_eq!(first.code, 2, "{provider}: {}", first.output());
        assert!(
            first
                .stdout
                .contains(&format!("Kv_entry[{}:port]/ensure: created", ini.display())),
            "{provider}: {}",
            first.stdout
        );
        assert_eq!(
            read(&ini),
            "# kept\nother = 1\nport = 8080\n\n[db]\nhost = localhost\n",
            "{provider}"
        );

        let again = apply(dir.path(), &manifest, &[]);
        assert_eq!(again.code, 0, "{provider}: {}", again.output());

        let changed = entries(&ini, &[("port", "9090"), ("db.host", "localhost")], extra);
        let noop = apply(dir.path(), &changed, &["--noop"]);
        assert!(
            noop.stdout
                .contains("value: current_value '8080', should be '9090' (noop)"),
            "{provider}: {}",
            noop.stdout
        );
        assert!(
            read(&ini).contains("port = 8080"),
            "{provider}: noop changed the file"
        );

        let change = apply(dir.path(), &changed, &[]);
        assert_eq!(change.code, 2, "{provider}: {}", change.output());
        assert!(
            change
                .stdout
                .contains("value: value changed '8080' to '9090'"),
            "{provider}: {}",
            change.stdout
        );
        assert!(read(&ini).contains("port = 9090"), "{provider}");

        let absent = format!(
            "kv_entry {{ '{}:port': ensure => absent{extra} }}\n",
            ini.display()
        );
        let removal = apply(dir.path(), &absent, &[]);
        assert_eq!(removal.code, 2, "{provider}: {}", removal.output());
        assert_eq!(
            read(&ini),
            "# kept\nother = 1\n\n[db]\nhost = localhost\n",
            "{provider}"
        );
    }
}

/// A module path whose first module ships `binary` as the provider
/// `PROVIDER` of `TYPE`, before the fixture modules.
fn with_provider(dir: &Path, type_name: &str, provider: &str, binary: &Path) -> String {
    let place = dir.join(format!(
        "extra/mrtest_extra/lib/marionette/providers/{type_name}"
    ));
    std::fs::create_dir_all(&place).unwrap();
    std::fs::copy(binary, place.join(provider)).unwrap();
    format!("{}:{}", dir.join("extra").display(), modules().display())
}

#[test]
fn a_title_that_does_not_spell_the_identity_converges_with_every_provider() {
    require_jq();
    for provider in ["python", "shell", "rust"] {
        let dir = workdir();
        let modulepath = with_provider(dir.path(), "kv_entry", "rust", &sdk_example("kv_entry"));
        let ini = dir.path().join("app.ini");
        std::fs::write(&ini, "other = 1\n").unwrap();
        // The titles name neither the file nor the key: `get` must be told
        // both, or each run finds nothing and creates the keys again.
        let manifest = format!(
            "kv_entry {{ 'the port': path => '{ini}', key => 'port', value => '8080', provider => {provider} }}\n\
             kv_entry {{ 'the host': path => '{ini}', key => 'db.host', value => 'localhost', provider => {provider} }}\n",
            ini = ini.display()
        );
        std::fs::write(dir.path().join("site.pp"), &manifest).unwrap();
        let site = dir.path().join("site.pp").display().to_string();
        let vardir = dir.path().join("var").display().to_string();
        let args = [
            "apply",
            &site,
            "--modulepath",
            &modulepath,
            "--vardir",
            &vardir,
            "--detailed-exitcodes",
        ];
        let first = marionette(&args, &[]);
        assert_eq!(first.code, 2, "{provider}: {}", first.output());
        assert!(
            first.stdout.contains("Kv_entry[the port]/ensure: created"),
            "{provider}: {}",
            first.stdout
        );
        let text = read(&ini);
        assert!(
            text.contains("port = 8080") && text.contains("host = localhost"),
            "{provider}: {text}"
        );
        let again = marionette(&args, &[]);
        assert_eq!(
            again.code,
            0,
            "{provider}: the second run changes nothing: {}",
            again.output()
        );
        assert_eq!(read(&ini), text, "{provider}");
    }
}

#[test]
fn the_batching_provider_rewrites_each_file_once_per_run() {
    let dir = workdir();
    let ini = dir.path().join("many.ini");
    let pairs: Vec<(String, String)> = (0..50)
        .map(|i| (format!("key{i}"), format!("v{i}")))
        .collect();
    let pairs: Vec<(&str, &str)> = pairs
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let run = apply(dir.path(), &entries(&ini, &pairs, ""), &[]);
    assert_eq!(run.code, 2, "{}", run.output());
    let rewrites = run.stdout.matches("rewrote").count();
    assert_eq!(rewrites, 1, "one rewrite for 50 entries: {}", run.stdout);
    assert_eq!(read(&ini).lines().count(), 50);
}

#[test]
fn a_batched_change_that_fails_fails_its_resource_after_the_fact() {
    let dir = workdir();
    let good = dir.path().join("good.ini");
    let missing = dir.path().join("no/such/dir/bad.ini");
    let manifest = entries(&good, &[("a", "1")], "") + &entries(&missing, &[("b", "2")], "");
    let run = apply(dir.path(), &manifest, &[]);
    assert_eq!(run.code, 6, "{}", run.output());
    assert!(read(&good).contains("a = 1"));
    let reference = format!("Kv_entry[{}:b]", missing.display());
    assert!(
        run.stderr.contains(&reference),
        "the failure names the resource: {}",
        run.stderr
    );
}

#[test]
fn unknown_attributes_of_a_plugin_type_are_compile_errors() {
    let dir = workdir();
    let run = apply(
        dir.path(),
        "\nkv_entry { '/tmp/mrtest-x.ini:a':\n  colour => 'red',\n}\n",
        &[],
    );
    assert_eq!(run.code, 1, "{}", run.output());
    assert!(
        run.stderr.contains("no parameter named 'colour'") && run.stderr.contains("line: 2"),
        "{}",
        run.stderr
    );
}

#[test]
fn invalid_values_are_refused_by_the_type_as_data() {
    let dir = workdir();
    let run = apply(
        dir.path(),
        "kv_entry { 'x': path => 'relative.ini', key => 'a', value => 'x' }\n",
        &[],
    );
    assert_eq!(run.code, 1, "{}", run.output());
    assert!(
        run.stderr.contains("Parameter path failed on Kv_entry[x]")
            && run.stderr.contains("line: 1"),
        "{}",
        run.stderr
    );
    let untitled = apply(
        dir.path(),
        "kv_entry { 'relative.ini:a': value => 'x' }\n",
        &[],
    );
    assert!(
        untitled.stderr.contains("no set of title patterns matched"),
        "{}",
        untitled.stderr
    );
}

#[test]
fn describe_shows_the_type_and_its_providers() {
    let modulepath = modules().display().to_string();
    let run = marionette(
        &[
            "describe",
            "kv_entry",
            "--providers",
            "--modulepath",
            &modulepath,
        ],
        &[],
    );
    assert_eq!(run.code, 0, "{}", run.output());
    for expected in [
        "A key in an INI-like file",
        "secret_token",
        "python",
        "shell",
        "comments",
    ] {
        assert!(
            run.stdout.contains(expected),
            "{expected} in:\n{}",
            run.stdout
        );
    }
}

#[test]
fn resource_lists_and_changes_entries() {
    let dir = workdir();
    let ini = dir.path().join("list.ini");
    std::fs::write(&ini, "alpha = 1\n[s]\nbeta = two\n").unwrap();
    let modulepath = modules().display().to_string();
    let files = ini.display().to_string();
    let env = [("KV_ENTRY_FILES", files.as_str())];
    let listed = marionette(&["resource", "kv_entry", "--modulepath", &modulepath], &env);
    assert_eq!(listed.code, 0, "{}", listed.output());
    assert!(
        listed
            .stdout
            .contains(&format!("kv_entry {{ '{files}:s.beta':"))
            && listed.stdout.contains("value    => 'two',"),
        "{}",
        listed.stdout
    );
    let title = format!("{files}:alpha");
    let changed = marionette(
        &[
            "resource",
            "kv_entry",
            &title,
            "value=3",
            "--modulepath",
            &modulepath,
        ],
        &env,
    );
    assert_eq!(changed.code, 0, "{}", changed.output());
    assert!(read(&ini).contains("alpha = 3"), "{}", read(&ini));
}

#[test]
fn functions_are_called_with_checked_types() {
    let dir = workdir();
    let run = apply(
        dir.path(),
        "notify { kv::upcase('ab', 2): }\nnotify { kv::upcase('c'): }\n",
        &[],
    );
    assert_eq!(run.code, 2, "{}", run.output());
    assert!(
        run.stdout.contains("Notify[ABAB]") && run.stdout.contains("Notify[C]"),
        "{}",
        run.stdout
    );

    // A function a module ships may be deferred to the node.
    let deferred = apply(
        dir.path(),
        "notify { 'd': message => Deferred('kv::upcase', ['de', 2]) }\n",
        &[],
    );
    assert_eq!(deferred.code, 2, "{}", deferred.output());
    assert!(
        deferred
            .stdout
            .contains("Notify[d]/message: defined 'message' as 'DEDE'"),
        "{}",
        deferred.stdout
    );

    let wrong_argument = apply(dir.path(), "\n\nnotify { kv::upcase(3): }\n", &[]);
    assert_eq!(wrong_argument.code, 1);
    assert!(
        wrong_argument
            .stderr
            .contains("'kv::upcase' parameter 'text' expects a String value, got Integer")
            && wrong_argument.stderr.contains("line: 3"),
        "{}",
        wrong_argument.stderr
    );

    let wrong_result = apply(
        dir.path(),
        "notify { String(kv_broken::wrong_type()): }\n",
        &[],
    );
    assert_eq!(wrong_result.code, 1);
    assert!(
        wrong_result
            .stderr
            .contains("value returned from kv_broken::wrong_type")
            && wrong_result.stderr.contains("functions/wrong_type")
            && wrong_result
                .stderr
                .contains("expects an Integer value, got String"),
        "{}",
        wrong_result.stderr
    );

    let failing = apply(dir.path(), "notify { kv_broken::fails(): }\n", &[]);
    assert_eq!(failing.code, 1);
    assert!(
        failing.stderr.contains("deliberate failure") && failing.stderr.contains("functions/fails"),
        "{}",
        failing.stderr
    );
}

#[test]
fn broken_providers_fail_their_resources_and_the_run_goes_on() {
    let dir = workdir();
    let ini = dir.path().join("ok.ini");
    let mut manifest = entries(&ini, &[("good", "yes")], "");
    for provider in ["crash", "hang", "garbage"] {
        manifest += &format!(
            "kv_entry {{ '{}:{provider}': value => 'x', provider => {provider} }}\n",
            dir.path().join("broken.ini").display()
        );
    }
    manifest += "notify { 'still here': }\n";
    let started = Instant::now();
    let run = apply(dir.path(), &manifest, &[]);
    let took = started.elapsed();
    assert_eq!(run.code, 6, "{}", run.output());
    assert!(run.stdout.contains("Notify[still here]"), "{}", run.stdout);
    assert!(read(&ini).contains("good = yes"));
    let broken = |provider: &str| format!("kv_entry/{provider}");
    for (provider, why) in [
        ("crash", "exited with status 3"),
        ("crash", "boom: crashed on purpose"),
        ("hang", "did not answer within 1 s"),
        ("garbage", "not the plugin protocol: \"this is not json\""),
    ] {
        assert!(
            run.stderr
                .lines()
                .any(|l| l.contains(&broken(provider)) && l.contains(why)),
            "{provider}: {why} in:\n{}",
            run.stderr
        );
    }
    assert!(
        took < Duration::from_secs(20),
        "the hanging provider was stopped at its time limit (took {took:?})"
    );
}

#[test]
fn external_facts_of_modules_are_collected() {
    let modulepath = modules().display().to_string();
    let run = marionette(
        &[
            "facts",
            "kv_fixture",
            "kv_exec_fact",
            "--modulepath",
            &modulepath,
        ],
        &[],
    );
    assert_eq!(run.code, 0, "{}", run.output());
    assert!(
        run.stdout.contains("kv_fixture => present")
            && run.stdout.contains("kv_exec_fact => from_module"),
        "{}",
        run.stdout
    );
}

#[test]
fn subcommands_come_from_modules_and_are_listed_by_help() {
    let modulepath = modules().display().to_string();
    let run = marionette(&["--modulepath", &modulepath, "kvtool", "a", "b c"], &[]);
    assert_eq!(run.code, 0, "{}", run.output());
    assert_eq!(run.stdout, "kvtool env=production\na\nb c\n");
    // It gets the descriptors it was handed, as if run itself.
    let handed = std::process::Command::new("bash")
        .args([
            "-c",
            "exec \"$0\" --modulepath \"$1\" kvtool <(echo from-a-pipe)",
            env!("CARGO_BIN_EXE_marionette"),
            &modulepath,
        ])
        .output()
        .expect("bash runs");
    assert_eq!(
        String::from_utf8_lossy(&handed.stdout),
        "kvtool env=production\nfrom-a-pipe\n",
        "{}",
        String::from_utf8_lossy(&handed.stderr)
    );
    let help = marionette(&["help", "--modulepath", &modulepath], &[]);
    assert!(
        help.stdout.contains("Subcommands from modules and PATH:")
            && help.stdout.contains("kvtool"),
        "{}",
        help.stdout
    );
    let unknown = marionette(&["--modulepath", &modulepath, "mrtest-nosuch"], &[]);
    assert_eq!(unknown.code, 1, "a usage error exits 1, as Puppet's");
    assert!(
        unknown.stderr.contains("not a marionette command"),
        "{}",
        unknown.stderr
    );
}

/// Two environments ship different versions of one type: a compilation
/// in each knows only its own.
#[test]
fn environments_do_not_see_each_others_plugins() {
    let dir = workdir();
    for (environment, attribute) in [("one", "alpha"), ("two", "beta")] {
        let types = dir
            .path()
            .join(environment)
            .join("modules/versioned/lib/marionette/types");
        std::fs::create_dir_all(&types).unwrap();
        std::fs::write(
            types.join("mrtest_thing.json"),
            format!(
                r#"{{"name": "mrtest_thing", "attributes": [{{"name": "name", "namevar": true}}, {{"name": "{attribute}"}}]}}"#
            ),
        )
        .unwrap();
    }
    let environmentpath = dir.path().display().to_string();
    let compile = |environment: &str, attribute: &str| {
        let manifest = dir.path().join(format!("{environment}-{attribute}.pp"));
        std::fs::write(
            &manifest,
            format!("mrtest_thing {{ 'x': {attribute} => 1 }}\n"),
        )
        .unwrap();
        marionette(
            &[
                "catalog",
                "compile",
                &manifest.display().to_string(),
                "--environment",
                environment,
                "--environmentpath",
                &environmentpath,
            ],
            &[],
        )
    };
    assert_eq!(compile("one", "alpha").code, 0);
    let other = compile("one", "beta");
    assert_eq!(other.code, 1);
    assert!(
        other.stderr.contains("no parameter named 'beta'"),
        "{}",
        other.stderr
    );
    assert_eq!(compile("two", "beta").code, 0);
    assert_eq!(compile("two", "alpha").code, 1);
}

/// A sensitive parameter reaches the provider marked as such, and its
/// value appears nowhere in the output, debug messages included.
#[test]
fn sensitive_values_reach_providers_marked_and_are_never_shown() {
    let dir = workdir();
    let ini = dir.path().join("secret.ini");
    let manifest = format!(
        "kv_entry {{ '{}:user': value => 'admin', secret_token => 'mrtest-s3cret' }}\n",
        ini.display()
    );
    let run = apply(dir.path(), &manifest, &["--debug"]);
    assert_eq!(run.code, 2, "{}", run.output());
    assert!(
        run.output()
            .contains("received secret_token, marked sensitive"),
        "{}",
        run.output()
    );
    assert!(
        !run.output().contains("without the Sensitive mark"),
        "{}",
        run.output()
    );
    assert!(!run.output().contains("mrtest-s3cret"), "{}", run.output());
    assert!(!read(&ini).contains("mrtest-s3cret"));
}

#[test]
fn hiera_data_functions_may_be_plugins() {
    let dir = workdir();
    let env = dir.path().join("production");
    std::fs::create_dir_all(&env).unwrap();
    std::fs::write(
        env.join("hiera.yaml"),
        "version: 5\nhierarchy:\n  - name: From a plugin\n    data_hash: kv::hiera_data\n    options:\n      site: '%{facts.networking.domain}'\n",
    )
    .unwrap();
    let modulepath = modules().display().to_string();
    let envpath = dir.path().display().to_string();
    let facts = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/conformance/default-facts.json")
        .display()
        .to_string();
    let base = [
        "lookup",
        "--environmentpath",
        &envpath,
        "--environment",
        "production",
        "--modulepath",
        &modulepath,
        "--hiera_config",
        "/nonexistent/hiera.yaml",
        "--node",
        "mrtest.example.com",
        "--facts",
        &facts,
        "--render-as",
        "json",
    ];
    let greeting = marionette(&[&base[..], &["kv::greeting"]].concat(), &[]);
    assert_eq!(greeting.code, 0, "{}", greeting.output());
    assert_eq!(greeting.stdout.trim(), "\"hello from example.com\"");
    let merged = marionette(
        &[&base[..], &["--merge", "unique", "kv::ports"]].concat(),
        &[],
    );
    assert_eq!(merged.stdout.trim(), "[80,443]", "{}", merged.output());
    let missing = marionette(&[&base[..], &["kv::nothing"]].concat(), &[]);
    assert_eq!(missing.code, 1, "{}", missing.output());
}

#[test]
fn a_set_answer_whose_ok_is_not_a_boolean_is_a_broken_answer() {
    let dir = workdir();
    let manifest = format!(
        "kv_entry {{ '{}:key': value => 'x', provider => badok }}\n",
        dir.path().join("badok.ini").display()
    );
    let run = apply(dir.path(), &manifest, &[]);
    assert_ne!(run.code, 0, "{}", run.output());
    assert!(
        run.stderr.contains("each with a boolean 'ok'"),
        "{}",
        run.output()
    );
    assert!(!run.stdout.contains("created"), "{}", run.output());
}

/// Plugins that overrun their protocol are bounded: a handshake timeout
/// of `1e19` seconds is taken as the longest allowed (it panicked on
/// adding it to the clock); a line that never ends is cut at its bound
/// and fails its request; a flood of log messages and of standard error
/// keeps a bounded part of each. Memory stays bounded throughout.
#[test]
fn plugins_that_overrun_the_protocol_are_bounded() {
    let dir = workdir();
    let mut manifest = String::new();
    for provider in ["bigtimeout", "endless", "noisy"] {
        manifest += &format!(
            "kv_entry {{ '{}:{provider}': value => 'x', provider => {provider} }}\n",
            dir.path().join(format!("{provider}.ini")).display()
        );
    }
    let run = apply(dir.path(), &manifest, &[]);
    assert_eq!(run.code, 6, "{}", run.output());
    for provider in ["bigtimeout", "noisy"] {
        assert!(
            run.stdout.contains(&format!("{provider}]/ensure: created")),
            "{provider} in:\n{}",
            run.output()
        );
    }
    assert!(
        run.stderr.lines().any(|l| l.contains("kv_entry/endless")
            && l.contains("printed a line longer than 128 MiB; it was stopped")),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("20001 more log messages of request 2 were dropped (at most 10000 are kept)"),
        "{}",
        run.stderr
    );
    let long = run
        .stdout
        .lines()
        .find(|l| l.contains("long yyy"))
        .expect("the long log message");
    assert!(
        long.len() < 70_000 && long.ends_with("yyy..."),
        "{}",
        long.len()
    );

    // The same run under GNU time, for the largest resident size of
    // Marionette and its plugins.
    let timed = std::process::Command::new("/usr/bin/time")
        .args(["-f", "maxrss=%M"])
        .arg(env!("CARGO_BIN_EXE_marionette"))
        .args(apply_args(dir.path(), "var2"))
        .output()
        .expect("GNU time (apt-get install time)");
    let stderr = String::from_utf8_lossy(&timed.stderr);
    let kib: u64 = stderr
        .lines()
        .find_map(|l| l.strip_prefix("maxrss="))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no maxrss in {stderr}"));
    assert!(kib < 600 * 1024, "{kib} KiB resident");
}

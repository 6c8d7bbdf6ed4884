//! The Forge corpora: every case in `tests/forge/` declares classes and
//! defined types of real Forge modules, as their READMEs show them, with
//! the modules Debian 12 packages install in /usr/share/puppet/modules on
//! the module path; every case in `tests/forge-trixie/` does the same with
//! the newer releases Debian 13 packages (unpacked by
//! scripts/forge-trixie-modules); every case in `tests/forge-github/`
//! does the same with Forge modules Debian does not package, taken from
//! their repositories by scripts/forge-github-vendor. Each is compiled with `marionette
//! catalog compile` and compared with what the real Puppet 7 compiled for
//! it (`expected.json`, by meaning, as the conformance corpus compares) or
//! the error it gave (`expected.err`), with the corpus's fixed facts
//! (`facts.json`).
//!
//! Cases we do not match yet are listed in each corpus's
//! `known-differences.txt`, grouped under a heading saying why; the test
//! fails on any other difference and when a listed case starts to match.
//! `UPDATE_KNOWN_DIFFERENCES=1` rewrites the list.

mod common;

use std::path::{Path, PathBuf};

use common::corpus::Corpus;
use common::known::{KnownDifferences, Verdict};
use common::runs::{
    case_args, case_modulepath, first_difference, noop_text, printed_in_order, puppet_facts_yaml,
};

/// The gist of a difference, for a new line of the list: the innermost
/// message of an error (without Puppet's "Evaluation Error:" wrappers and
/// the location), or the first difference between catalogs.
fn gist(problem: &str) -> String {
    let mut text = common::first_line(problem);
    if let Some(rest) = text.strip_prefix("failed: ") {
        text = rest;
    } else if text == "error differs:" {
        let actual = problem
            .lines()
            .find_map(|l| l.trim().strip_prefix("actual:"));
        return format!("error differs: {}", gist(actual.unwrap_or_default().trim()));
    }
    let mut text = text.strip_prefix("Error: ").unwrap_or(text);
    loop {
        if let Some(rest) = text.strip_prefix("Evaluation Error: ") {
            text = rest;
        } else if let Some(rest) = text
            .strip_prefix("Error while evaluating a ")
            .and_then(|rest| rest.split_once(", ").map(|(_, rest)| rest))
        {
            text = rest;
        } else {
            break;
        }
    }
    for end in [" (file: ", " on node ", "; "] {
        if let Some(at) = text.find(end) {
            text = &text[..at];
        }
    }
    // A resource whose parameters differ: its name says enough.
    if let Some((key, _)) = text.split_once(": expected (") {
        return format!("{key} differs");
    }
    text.to_string()
}

#[test]
fn forge_modules_compile_as_with_puppet() {
    compile_stage(&Corpus::debian12());
}

#[test]
fn forge_trixie_modules_compile_as_with_puppet() {
    compile_stage(&Corpus::trixie());
}

// The GitHub corpus's modules are not in the repository (they are each
// project's code) and CI reaches no code host: its stages run where
// scripts/forge-github-vendor made the tree, asked for with --ignored.
#[test]
#[ignore = "needs the modules of scripts/forge-github-vendor: cargo test --test forge -- --ignored"]
fn forge_github_modules_compile_as_with_puppet() {
    compile_stage(&Corpus::github());
}

fn compile_stage(corpus: &Corpus) {
    let root = &corpus.root;
    let cases = common::case_dirs(root, &["expected.json", "expected.err"]);
    assert!(cases.len() >= 50, "only {} cases", cases.len());
    let known = KnownDifferences::load(&root.join("known-differences.txt"), 1);
    let mut verdict = Verdict::new(&known);
    let mut found = Vec::new();
    for case in &cases {
        let name = common::case_name(case);
        let outcome = common::compile_case(case, &corpus.modules, "../facts.json");
        let why = outcome.as_ref().err().map(|p| gist(p)).unwrap_or_default();
        // Failing where Puppet compiled, or failing otherwise than Puppet
        // did, is not compiling.
        let word = match &outcome {
            Ok(()) => "identical",
            Err(problem)
                if ["failed", "could not run", "error differs"]
                    .iter()
                    .any(|start| problem.starts_with(start)) =>
            {
                "failed"
            }
            Err(_) => "differs",
        };
        found.push((name.clone(), vec![word.to_string()]));
        verdict.record(&name, &why, outcome);
    }
    common::stages::keep(root, "compile", &found);
    verdict.finish("cases");
}

/// The catalog Puppet compiled for a case (`expected.json`) applied with
/// `--noop` by Marionette, with `modulepath` for its file sources.
fn marionette_noop(case: &Path, modulepath: &str) -> String {
    let vardir = tempfile::tempdir().expect("a temporary directory");
    // The catalog is read from a name without the case's: a service
    // without a status command is found by its name in the process table,
    // where another case's run, side by side, would otherwise show it
    // (memcached's, in `.../0040_memcached_default/expected.json`); a
    // case that asks dpkg of such a package waits its turn (common::apart).
    let catalog = vardir.path().join("catalog.json");
    std::fs::copy(case.join("expected.json"), &catalog).expect("the case's catalog copied");
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_marionette"));
    let modulepath = case_modulepath(case, case, modulepath);
    command
        .args(["apply", "--noop", "--vardir"])
        .arg(vardir.path())
        .args(["--modulepath", &modulepath, "--catalog"])
        .arg(&catalog)
        .env("NO_COLOR", "1");
    let _turn = common::apart::turn_for(&case.join("expected.json"));
    noop_text(&printed_in_order(command))
}

/// `puppet apply --noop` of a case, compiled with the corpus's fixed facts
/// (given to Puppet's yaml terminus) as its `expected.json` was, as
/// scripts/puppet-record-forge-noop runs it.
fn puppet_noop(case: &Path, modulepath: &str) -> String {
    let (certname, environment) = case_args(case);
    let vardir = tempfile::tempdir().expect("a temporary directory");
    let facts_dir = vardir.path().join("client_yaml/facts");
    std::fs::create_dir_all(&facts_dir).expect("a facts directory");
    std::fs::write(
        facts_dir.join(format!("{certname}.yaml")),
        puppet_facts_yaml(case, &certname),
    )
    .expect("a facts file");
    assert!(
        std::process::Command::new("puppet")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success()),
        "this test runs Puppet on what differs from its recording: apt-get install puppet"
    );
    let mut command = std::process::Command::new("puppet");
    command
        .args(["apply", "--noop", "--color=false", "--vardir"])
        .arg(vardir.path())
        .args(["--facts_terminus", "yaml", "--certname", &certname])
        .current_dir(case);
    match environment {
        Some(environment) => command
            .args(["--environmentpath", "environments", "--environment"])
            .arg(&environment)
            .arg(format!("environments/{environment}/manifests/site.pp")),
        None => command.args(["--modulepath", modulepath, "site.pp"]),
    };
    let _turn = common::apart::turn_for(&case.join("expected.json"));
    noop_text(&printed_in_order(command))
}

/// The noop stage of the corpus: each case's catalog as Puppet compiled
/// it (`expected.json`) applied with `--noop` by Marionette, compared with
/// what `puppet apply --noop` said after compiling the case with the same
/// facts (`noop.out`, recorded by scripts/puppet-record-forge-noop):
/// every would-be change and refresh, and every error and warning, in
/// order. Applying one catalog, the two differ in applying alone. What a noop run finds depends on the
/// machine (a package installed, a file's content), so a case that
/// differs from its recording and is not a known difference is run
/// through Puppet here too, and only a difference from that run counts.
/// Known differences are listed in each corpus's `noop-known-differences.txt`.
#[test]
fn forge_catalogs_noop_apply_as_with_puppet() {
    noop_stage(&Corpus::debian12());
}

#[test]
fn forge_trixie_catalogs_noop_apply_as_with_puppet() {
    noop_stage(&Corpus::trixie());
}

#[test]
#[ignore = "needs the modules of scripts/forge-github-vendor: cargo test --test forge -- --ignored"]
fn forge_github_catalogs_noop_apply_as_with_puppet() {
    noop_stage(&Corpus::github());
}

fn noop_stage(corpus: &Corpus) {
    let root = &corpus.root;
    let cases = common::case_dirs(root, &["noop.out"]);
    assert!(cases.len() >= 50, "only {} recorded noop runs", cases.len());
    let known = KnownDifferences::load(&root.join("noop-known-differences.txt"), 1);
    let mut verdict = Verdict::new(&known);
    let started = std::time::Instant::now();
    // A noop run mostly waits (postgresql's connection validator retries
    // for a minute, in Puppet's runs too), so cases run MRTEST_NOOP_JOBS
    // at a time (4 by default); each reads the machine and writes only
    // its own state directory.
    let runs = common::in_parallel(&cases, common::jobs("MRTEST_NOOP_JOBS", 4), |case| {
        let name = common::case_name(case);
        let ours = marionette_noop(case, &corpus.modules);
        let recorded = std::fs::read_to_string(case.join("noop.out")).expect("noop.out");
        if ours == recorded {
            (Ok(()), false)
        } else if known.contains(&name) || std::env::var_os("UPDATE_KNOWN_DIFFERENCES").is_some() {
            // Known to differ, or the list being rewritten after a fresh
            // recording: Puppet is not run again (some of these runs take
            // a minute of retries).
            (Err(first_difference(&recorded, &ours)), false)
        } else {
            let live = puppet_noop(case, &corpus.modules);
            if ours == live {
                (Ok(()), true)
            } else {
                (Err(first_difference(&live, &ours)), true)
            }
        }
    });
    let mut rerun = Vec::new();
    let mut found = Vec::new();
    for (case, (outcome, ran_puppet)) in cases.iter().zip(runs) {
        let name = common::case_name(case);
        if ran_puppet {
            rerun.push(name.clone());
        }
        let word = if outcome.is_ok() { "same" } else { "differs" };
        found.push((name.clone(), vec![word.to_string()]));
        let why = match &outcome {
            Err(problem) => common::first_line(problem).to_string(),
            Ok(()) => String::new(),
        };
        verdict.record(&name, &why, outcome);
    }
    eprintln!(
        "{} catalogs applied in noop in {:.1} s; {} differed from their recording and were run through Puppet again: {rerun:?}",
        cases.len(),
        started.elapsed().as_secs_f64(),
        rerun.len()
    );
    common::stages::keep(root, "noop", &found);
    verdict.finish("noop runs");
}

/// Cases whose module's Ruby, run by the host, does not yet say what the
/// native type (and Puppet) says, with why; the test fails when one
/// matches.
const RUBY_DIFFERS: &[(&str, &str)] = &[
    (
        "0118_gitolite_repos_users",
        "concat_fragment's autorequire block warns that its target is not in the catalog; the host runs the block but does not log what it warns",
    ),
    (
        "0144_gitolite_remotes",
        "concat_fragment's autorequire block warns that its target is not in the catalog; the host runs the block but does not log what it warns",
    ),
];

/// Native module types are an optimisation, never a difference: every
/// case whose catalog holds resources of the module types Marionette
/// implements natively (concat's, stdlib's, inifile's, ...), applied in
/// noop with Debian's modules (the native types) and with only their
/// `lib`, as an agent's pluginsync leaves it (the modules' own Ruby), says
/// the same. Cases with `puppet:///modules` sources (which only the
/// modules serve) and the known differences of the noop stage are left
/// out, and so are those of `RUBY_DIFFERS`.
#[test]
fn forge_catalogs_noop_apply_the_same_through_the_modules_own_ruby() {
    let corpus = Corpus::debian12();
    let root = &corpus.root;
    let known = KnownDifferences::load(&root.join("noop-known-differences.txt"), 1);
    let native = [
        "Concat_file",
        "Concat_fragment",
        "File_line",
        "Ini_setting",
        "Ini_subsetting",
        "Anchor",
        "Sshkey",
        "Ssh_authorized_key",
        "Mount",
    ];
    let cases: Vec<PathBuf> = common::case_dirs(root, &["noop.out"])
        .into_iter()
        .filter(|case| !known.contains(&common::case_name(case)))
        .filter(|case| {
            let catalog = std::fs::read_to_string(case.join("expected.json")).expect("a catalog");
            !catalog.contains("puppet:///")
                && native
                    .iter()
                    .any(|t| catalog.contains(&format!("\"type\": \"{t}\"")))
        })
        .collect();
    assert!(cases.len() >= 15, "only {} cases", cases.len());
    // Every module's lib merged into one module named as the agent names
    // it, where no native type stands in.
    let agent = tempfile::tempdir().expect("a temporary directory");
    for module in std::fs::read_dir(&corpus.modules)
        .expect("the modules")
        .flatten()
    {
        if module.path().join("lib").is_dir() {
            common::copy_tree(
                &module.path().join("lib"),
                &agent.path().join("plugins/lib"),
            );
        }
    }
    let plugins = agent.path().display().to_string();
    let differences: Vec<String> =
        common::in_parallel(&cases, common::jobs("MRTEST_NOOP_JOBS", 4), |case| {
            let (native, ruby) = (
                marionette_noop(case, &corpus.modules),
                marionette_noop(case, &plugins),
            );
            let name = common::case_name(case);
            let listed = RUBY_DIFFERS.iter().any(|(listed, _)| *listed == name);
            match (native == ruby, listed) {
                (false, false) => Some(format!("{name}:\n  {}", first_difference(&native, &ruby))),
                (true, true) => Some(format!("{name} matches now: take it out of RUBY_DIFFERS")),
                _ => None,
            }
        })
        .into_iter()
        .flatten()
        .collect();
    assert!(
        differences.is_empty(),
        "native and Ruby differ (puppet: is native, marionette: the Ruby):\n{}",
        differences.join("\n")
    );
}

#[test]
fn noop_text_keeps_the_messages_after_compiling() {
    let mut command = std::process::Command::new("sh");
    command.args([
        "-c",
        "echo 'Warning: compiling' >&2; echo 'Notice: Compiled catalog for n in environment production in 0.1 seconds'; \
         printf '\\033[mNotice: /File[/x]/ensure: current_value absent\\033[0m\\nInfo: Applying\\nNotice: Applied catalog in 0.02 seconds\\n'; \
         printf 'Error: Facter: oops\\n  at line\\nWarning: w\\n' >&2; exit 2",
    ]);
    assert_eq!(
        noop_text(&printed_in_order(command)),
        "Notice: /File[/x]/ensure: current_value absent\nNotice: Applied catalog in N seconds\nWarning: w\n"
    );
}

#[test]
fn gist_is_the_innermost_message() {
    assert_eq!(
        gist(
            "failed: Error: Evaluation Error: Error while evaluating a Resource Statement, \
             Unknown function: 'create_resources'. (file: /m/init.pp, line: 1) on node n"
        ),
        "Unknown function: 'create_resources'."
    );
    assert_eq!(
        gist("File[/etc/motd]: expected (false, \"{}\", {}), got (true, \"{}\", {})\n  more"),
        "File[/etc/motd] differs"
    );
    assert_eq!(
        gist("error differs:\n  expected: Error: a\n  actual:   Error: b (file: x)"),
        "error differs: b"
    );
    assert_eq!(
        gist("missing resource Class[Apt]"),
        "missing resource Class[Apt]"
    );
}

#[test]
fn a_searched_service_and_a_package_of_its_name_take_turns() {
    use common::apart::{Names, Turn, turn};
    let names = |shown: &[&str], searched: &[&str]| Names {
        shown: shown.iter().map(|s| s.to_string()).collect(),
        searched: searched.iter().map(|s| s.to_string()).collect(),
    };
    // A turn taken on another thread: it reports when it has its turn,
    // and keeps it until told to end.
    let beside = |names: Names| {
        let (taken, has) = std::sync::mpsc::channel();
        let (end, ended) = std::sync::mpsc::channel::<()>();
        std::thread::spawn(move || {
            let _turn: Turn = turn(names);
            let _ = taken.send(());
            let _ = ended.recv();
        });
        (has, end)
    };
    let short = std::time::Duration::from_millis(200);
    let first = turn(names(&["memcached"], &["memcached"]));
    let (waiting, end_waiting) = beside(names(&["libmemcached-tools"], &[]));
    assert!(
        waiting.recv_timeout(short).is_err(),
        "a case whose package holds a searched service's name ran beside it"
    );
    // Two cases that show the same package search for nothing: no turns.
    let (other, end_other) = beside(names(&["mrtest-apart"], &[]));
    let (same, end_same) = beside(names(&["mrtest-apart"], &[]));
    assert!(other.recv_timeout(short * 10).is_ok() && same.recv_timeout(short * 10).is_ok());
    drop(first);
    waiting
        .recv_timeout(std::time::Duration::from_secs(10))
        .expect("the waiting case runs once the names are free");
    for end in [end_waiting, end_other, end_same] {
        let _ = end.send(());
    }
}

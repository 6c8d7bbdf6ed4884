//! stdlib's functions implemented natively: every `tests/stdlib/NNNN.pp`
//! is applied with `marionette apply`, with Debian's stdlib on the module
//! path, and its output must equal the `.out` recorded from the real
//! `puppet apply` with that stdlib and the corpus's own `modules/`
//! (`PUPPET_APPLY_ARGS="--modulepath modules:/usr/share/puppet/modules"
//! scripts/puppet-record-eval tests/stdlib/*.pp`). Without stdlib on the
//! module path the functions do not exist, as in Puppet.

mod common;

use std::path::{Path, PathBuf};

/// Where Debian's package `puppet-module-puppetlabs-stdlib` puts stdlib,
/// on Puppet's default module path.
const MODULES: &str = "/usr/share/puppet/modules";

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/stdlib")
}

fn require_stdlib() {
    assert!(
        Path::new(MODULES).join("stdlib/metadata.json").exists(),
        "stdlib is missing from {MODULES}: install it with `apt-get install -y puppet-module-puppetlabs-stdlib` (scripts/test does as root)"
    );
}

#[test]
fn native_functions_match_stdlib() {
    require_stdlib();
    let cases = common::case_files(&corpus(), "pp");
    assert!(cases.len() >= 15, "only {} cases", cases.len());
    let modulepath = format!("modules:{}", common::applied::only_modules(&["stdlib"]));
    let problems = common::applied::compare(&corpus(), &cases, &modulepath);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// stdlib 9 (the trixie tree's, scripts/forge-trixie-modules) keeps its
/// unnamespaced names as shims that warn once each before calling the
/// namespaced function: the native ones warn as those shims do, where
/// they are called (`tests/stdlib9`, recorded as tests/stdlib is, with
/// that tree as the module path).
#[test]
fn stdlib_9_shims_warn_as_with_puppet() {
    let modules = common::corpus::Corpus::trixie().modules;
    assert!(
        Path::new(&modules).join("stdlib/metadata.json").exists(),
        "stdlib 9 is missing from {modules}: make the trixie tree with scripts/forge-trixie-modules (scripts/test does as root)"
    );
    let corpus = corpus().join("../stdlib9");
    let cases = common::case_files(&corpus, "pp");
    assert!(cases.len() >= 2, "only {} cases", cases.len());
    let problems = common::applied::compare(&corpus, &cases, &modules);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn without_stdlib_its_functions_are_unknown() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::write(dir.path().join("site.pp"), "notice(pick(undef, 'a'))\n").unwrap();
    let empty = dir.path().join("modules");
    std::fs::create_dir_all(&empty).unwrap();
    let (code, lines) = common::applied::run(dir.path(), "site.pp", &empty.display().to_string());
    assert_eq!(code, 1, "{lines:?}");
    assert!(
        lines.iter().any(|l| l.contains("Unknown function: 'pick'")),
        "{lines:?}"
    );
}

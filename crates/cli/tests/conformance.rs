//! The catalog conformance corpus: every case in `tests/conformance/` is
//! compiled with `marionette catalog compile` and compared with what the
//! real Puppet 7 compiled for it (`expected.json`) or the error it gave
//! (`expected.err`).
//!
//! Catalogs are compared by meaning, as `catalog-diff` does: resources by
//! `Type[title]` with their parameters, exported flag and tags (as sets),
//! containment edges as a set, and the classes as a set; file, line,
//! version and the `Settings` class are ignored. Errors must match
//! Puppet's first error line exactly.
//!
//! Cases we do not match yet are listed, with a reason, in
//! `tests/conformance/known-differences.txt`; the test fails on any other
//! difference and when a listed case starts to match.
//! `UPDATE_KNOWN_DIFFERENCES=1` rewrites the list.

mod common;

use std::path::{Path, PathBuf};

use common::known::{KnownDifferences, Verdict};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance")
}

#[test]
fn catalogs_match_puppet() {
    let root = corpus();
    let cases = common::case_dirs(&root, &["expected.json", "expected.err"]);
    assert!(cases.len() >= 150, "only {} cases", cases.len());
    let known = KnownDifferences::load(&root.join("known-differences.txt"), 1);
    let mut verdict = Verdict::new(&known);
    for case in &cases {
        let name = common::case_name(case);
        let outcome = common::compile_case(case, "modules", "../default-facts.json");
        let why = outcome
            .as_ref()
            .err()
            .map(|p| common::first_line(p).to_string());
        verdict.record(&name, &why.unwrap_or_default(), outcome);
    }
    verdict.finish("cases");
}

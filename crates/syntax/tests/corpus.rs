//! The syntax corpus: `tests/data/ok` holds files the real Puppet accepts and
//! `tests/data/err` files it rejects (both recorded in
//! `tests/data/puppet-verdicts.tsv`). Each case has a snapshot beside it: the
//! tree (`.tree`) for accepted files, the diagnostics (`.diag`) for rejected
//! ones. `UPDATE_SNAPSHOTS=1` rewrites the snapshots.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};

use marionette_syntax::dump::{DumpOptions, dump};
use marionette_syntax::{SourceFile, SourceKind, check, parse, printer};

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

fn cases(folder: &str) -> Vec<PathBuf> {
    let mut cases: Vec<PathBuf> = std::fs::read_dir(data_dir().join(folder))
        .unwrap_or_else(|e| panic!("cannot list tests/data/{folder}: {e}"))
        .map(|entry| entry.expect("readable directory entry").path())
        .filter(|path| {
            path.extension()
                .is_some_and(|ext| ext == "pp" || ext == "epp")
        })
        .collect();
    cases.sort();
    cases
}

fn relative(path: &Path) -> String {
    path.strip_prefix(data_dir())
        .expect("case under tests/data")
        .display()
        .to_string()
}

/// Compares `actual` with the snapshot at `path`, or writes it when
/// UPDATE_SNAPSHOTS is set. Returns a description of the difference.
fn compare_snapshot(path: &Path, actual: &str) -> Option<String> {
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(path, actual).expect("write snapshot");
        return None;
    }
    let expected = std::fs::read_to_string(path).unwrap_or_default();
    if expected == actual {
        return None;
    }
    let line = expected
        .lines()
        .zip(actual.lines())
        .position(|(e, a)| e != a)
        .unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
    Some(format!(
        "snapshot {} differs at line {}:\n  expected: {}\n  actual:   {}",
        path.file_name().unwrap().to_string_lossy(),
        line + 1,
        expected.lines().nth(line).unwrap_or("<end>"),
        actual.lines().nth(line).unwrap_or("<end>"),
    ))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn diagnostics_text(path: &Path, source: &str, kind: SourceKind) -> (String, usize) {
    let file = SourceFile::new(path.file_name().unwrap().to_string_lossy(), source);
    let checked = check(source, kind);
    let mut out = String::new();
    let mut errors = 0;
    for diagnostic in &checked.diagnostics {
        errors += usize::from(diagnostic.is_error());
        let _ = writeln!(
            out,
            "{}: [{}] {}",
            diagnostic.severity.label(),
            diagnostic.code,
            file.one_line(diagnostic)
        );
    }
    (out, errors)
}

fn finish(failures: Vec<String>, total: usize) {
    assert!(
        failures.is_empty(),
        "{} of {total} corpus cases failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn accepted_files_parse_cleanly_and_match_their_tree_snapshots() {
    let cases = cases("ok");
    assert!(
        cases.len() >= 200,
        "the ok corpus has only {} cases",
        cases.len()
    );
    let mut failures = Vec::new();
    for path in &cases {
        let source = read(path);
        let kind = SourceKind::from_path(path);
        let (diagnostics, errors) = diagnostics_text(path, &source, kind);
        if errors > 0 {
            failures.push(format!(
                "{}: Puppet accepts it, we report:\n{diagnostics}",
                relative(path)
            ));
            continue;
        }
        let checked = check(&source, kind);
        let tree = dump(&checked.program, DumpOptions::default());
        if let Some(difference) = compare_snapshot(&path.with_extension("tree"), &tree) {
            failures.push(format!("{}: {difference}", relative(path)));
        }
    }
    finish(failures, cases.len());
}

#[test]
fn rejected_files_report_errors_matching_their_snapshots() {
    let cases = cases("err");
    assert!(
        cases.len() >= 60,
        "the err corpus has only {} cases",
        cases.len()
    );
    let mut failures = Vec::new();
    for path in &cases {
        let source = read(path);
        let (diagnostics, errors) = diagnostics_text(path, &source, SourceKind::from_path(path));
        if errors == 0 {
            failures.push(format!(
                "{}: Puppet rejects it, we accept it",
                relative(path)
            ));
            continue;
        }
        if let Some(difference) = compare_snapshot(&path.with_extension("diag"), &diagnostics) {
            failures.push(format!("{}: {difference}", relative(path)));
        }
    }
    finish(failures, cases.len());
}

/// Printing an accepted manifest and parsing the output gives the same tree.
#[test]
fn printed_trees_parse_back_to_the_same_tree() {
    let structure = DumpOptions {
        spans: false,
        parens: false,
    };
    let mut failures = Vec::new();
    let cases: Vec<PathBuf> = cases("ok")
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "pp"))
        .collect();
    for path in &cases {
        let original = parse(&read(path));
        let printed = printer::print(&original.program);
        let reparsed = parse(&printed);
        if !reparsed.diagnostics.iter().all(|d| !d.is_error()) {
            failures.push(format!(
                "{}: the printed form does not parse:\n{printed}\n{:?}",
                relative(path),
                reparsed.diagnostics
            ));
            continue;
        }
        let (before, after) = (
            dump(&original.program, structure),
            dump(&reparsed.program, structure),
        );
        if before != after {
            failures.push(format!("{}: tree changed after printing:\n{printed}\n--- before\n{before}--- after\n{after}", relative(path)));
        }
    }
    finish(failures, cases.len());
}

/// Every case is listed in the verdicts recorded from the real Puppet, in the
/// folder that matches its verdict.
#[test]
fn verdicts_recorded_from_puppet_match_the_folders() {
    let verdicts_path = data_dir().join("puppet-verdicts.tsv");
    let text = read(&verdicts_path);
    let mut verdicts = BTreeMap::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let mut fields = line.split('\t');
        let path = fields.next().unwrap_or_default().to_string();
        let verdict = fields.next().unwrap_or_default().to_string();
        verdicts.insert(path, verdict);
    }
    let mut failures = Vec::new();
    for (folder, expected) in [("ok", "accept"), ("err", "reject")] {
        for path in cases(folder) {
            let name = relative(&path);
            match verdicts.remove(&name) {
                Some(verdict) if verdict == expected => {}
                Some(verdict) => failures.push(format!(
                    "{name}: Puppet's verdict is {verdict}, but the case is in {folder}/"
                )),
                None => failures.push(format!(
                    "{name}: no verdict recorded; run scripts/puppet-verify-corpus"
                )),
            }
        }
    }
    for name in verdicts.keys() {
        failures.push(format!(
            "{name}: a verdict is recorded but the file is missing"
        ));
    }
    finish(failures, 0);
}

/// Our first error for each rejected case reads exactly like Puppet's first
/// error, location included, except for the cases listed with a reason in
/// `tests/data/message-differences.tsv`.
#[test]
fn first_errors_read_like_puppets() {
    let verdicts = read(&data_dir().join("puppet-verdicts.tsv"));
    let known: BTreeMap<String, String> = read(&data_dir().join("message-differences.tsv"))
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            l.split_once('\t')
                .map(|(p, r)| (p.to_string(), r.to_string()))
        })
        .collect();
    let mut failures = Vec::new();
    let mut matching = 0;
    let mut total = 0;
    for line in verdicts.lines().filter(|l| !l.starts_with('#')) {
        let mut fields = line.split('\t');
        let (Some(path), Some("reject"), Some(puppet)) =
            (fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        total += 1;
        let puppet = puppet
            .trim_start_matches("Error: ")
            .trim_start_matches("Could not parse for environment production: ");
        let file = data_dir().join(path);
        let source = read(&file);
        let checked = check(&source, SourceKind::from_path(&file));
        let named = SourceFile::new(file.file_name().unwrap().to_string_lossy(), source.as_str());
        let ours = checked
            .diagnostics
            .iter()
            .find(|d| d.is_error())
            .map(|d| named.one_line(d))
            .unwrap_or_default();
        match (ours == puppet, known.contains_key(path)) {
            (true, false) => matching += 1,
            (true, true) => failures.push(format!(
                "{path}: now matches Puppet; remove it from message-differences.tsv"
            )),
            (false, true) => {}
            (false, false) => {
                failures.push(format!("{path}:\n  puppet: {puppet}\n  ours:   {ours}"))
            }
        }
    }
    eprintln!("first errors worded as Puppet's: {matching} of {total}");
    finish(failures, total);
}

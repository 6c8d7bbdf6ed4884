//! What each stage of a Forge corpus found for every case, kept under
//! `target/tmp/stages/CORPUS/STAGE.tsv` (a case and its words a line),
//! and the table per module and stage that the real-apply stage, the
//! last to run (`cargo test` runs tests/forge.rs before
//! tests/forge_apply.rs), prints from them: how many of each module's
//! cases compiled, compiled identically, said the same in noop, applied
//! the same and converged as with Puppet, and each tool's time applying.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// What a stage found for one case: its words, the table's columns.
pub(crate) type Found = Vec<String>;

/// Where the stages of the corpus at `root` keep what they found.
fn dir(root: &Path) -> PathBuf {
    let corpus = root.file_name().unwrap_or_default().to_string_lossy();
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("stages")
        .join(corpus.as_ref())
}

/// Keeps what `stage` found for each case of the corpus at `root`,
/// replacing what an earlier run of it kept. A stage that ran on part of
/// the corpus (cases named) keeps the other cases' words of its last run.
pub(crate) fn keep(root: &Path, stage: &str, found: &[(String, Found)]) {
    let dir = dir(root);
    let path = dir.join(format!("{stage}.tsv"));
    let mut rows = read(&path);
    for (case, words) in found {
        rows.insert(case.clone(), words.clone());
    }
    let text: String = rows
        .iter()
        .map(|(case, words)| format!("{case}\t{}\n", words.join("\t")))
        .collect();
    if let Err(e) = std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&path, text)) {
        eprintln!(
            "what the {stage} stage found was not kept in {}: {e}",
            path.display()
        );
    }
}

fn read(path: &Path) -> BTreeMap<String, Found> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|line| {
            let mut words = line.split('\t').map(str::to_string);
            Some((words.next()?, words.collect()))
        })
        .collect()
}

/// The module a case is of: the longest name of a module on `modulepath`
/// that its name (past its number) starts with, the control repository
/// for a node of one (`0151_control_acme_web01`), or else its name's
/// first word.
pub(crate) fn module_of(case: &str, modules: &BTreeSet<String>) -> String {
    let rest = case.split_once('_').map_or(case, |(_, rest)| rest);
    if let Some(repository) = rest.strip_prefix("control_") {
        let name = repository.split('_').next().unwrap_or(repository);
        return format!("control repository {name}");
    }
    modules
        .iter()
        .filter(|module| rest == module.as_str() || rest.starts_with(&format!("{module}_")))
        .max_by_key(|module| module.len())
        .cloned()
        .unwrap_or_else(|| rest.split('_').next().unwrap_or(rest).to_string())
}

/// The names of the modules on `modulepath` (directories, `:` between).
fn module_names(modulepath: &str) -> BTreeSet<String> {
    modulepath
        .split(':')
        .filter_map(|dir| std::fs::read_dir(dir).ok())
        .flatten()
        .flatten()
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect()
}

/// A module's counts: cases, then for each column the cases of the stage
/// and how many of them passed; seconds of each tool's real applies.
#[derive(Default)]
struct Tally {
    cases: usize,
    columns: [(usize, usize); 5],
    puppet: f64,
    ours: f64,
}

/// The table per module and stage of the corpus at `root` (its cases
/// being those with `expected.json` or `expected.err`), from what its
/// stages kept, with the totals last.
pub(crate) fn summary(root: &Path, modulepath: &str) -> String {
    let dir = dir(root);
    let compile = read(&dir.join("compile.tsv"));
    let noop = read(&dir.join("noop.tsv"));
    let apply = read(&dir.join("apply.tsv"));
    let modules = module_names(modulepath);
    let mut tallies: BTreeMap<String, Tally> = BTreeMap::new();
    let mut total = Tally::default();
    let cases = super::case_dirs(root, &["expected.json", "expected.err"]);
    for case in &cases {
        let name = super::case_name(case);
        let word = |kept: &BTreeMap<String, Found>, at: usize| {
            kept.get(&name).and_then(|words| words.get(at)).cloned()
        };
        // (stage's word, what passes): compiled, identical, noop same,
        // applied same, converged.
        let marks = [
            word(&compile, 0).map(|w| w != "failed"),
            word(&compile, 0).map(|w| w == "identical"),
            word(&noop, 0).map(|w| w == "same"),
            word(&apply, 0).map(|w| w == "same"),
            word(&apply, 1).map(|w| w == "same"),
        ];
        let seconds = |at| word(&apply, at).and_then(|w| w.parse::<f64>().ok());
        let module = module_of(&name, &modules);
        for tally in [tallies.entry(module).or_default(), &mut total] {
            tally.cases += 1;
            for (column, mark) in tally.columns.iter_mut().zip(marks) {
                if let Some(passed) = mark {
                    column.0 += 1;
                    column.1 += usize::from(passed);
                }
            }
            tally.puppet += seconds(2).unwrap_or(0.0);
            tally.ours += seconds(3).unwrap_or(0.0);
        }
    }
    let kept_at = |stage: &str| {
        std::fs::metadata(dir.join(format!("{stage}.tsv")))
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .map_or("not run".to_string(), |age| {
                format!("kept {} min ago", age.as_secs() / 60)
            })
    };
    let mut table = format!(
        "{} by module (compile {}, noop {}, real apply {}): passed/run\n{:<32} {:>5} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>12}\n",
        root.file_name().unwrap_or_default().to_string_lossy(),
        kept_at("compile"),
        kept_at("noop"),
        kept_at("apply"),
        "module",
        "cases",
        "compiled",
        "identical",
        "noop same",
        "applied",
        "converged",
        "Puppet s",
        "Marionette s"
    );
    let row = |name: &str, tally: &Tally| {
        let cell = |(run, passed): (usize, usize)| match run {
            0 => "-".to_string(),
            _ => format!("{passed}/{run}"),
        };
        let [compiled, identical, noop, applied, converged] = tally.columns.map(cell);
        format!(
            "{name:<32} {:>5} {compiled:>9} {identical:>9} {noop:>9} {applied:>9} {converged:>9} {:>9.1} {:>12.1}\n",
            tally.cases, tally.puppet, tally.ours
        )
    };
    for (module, tally) in &tallies {
        table.push_str(&row(module, tally));
    }
    table.push_str(&row(&format!("{} modules", tallies.len()), &total));
    table
}

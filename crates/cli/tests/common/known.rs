//! A corpus's list of known differences from Puppet, and the verdict of a
//! run against it.
//!
//! The list holds one entry a line, `ID  why`, `ID` being the first
//! `width` words (a case, or a case and a line number); `#` lines are
//! comments, used as headings that group entries by reason. A run fails
//! on any difference not listed and on any listed entry that matches now,
//! so the list stays exact. With `UPDATE_KNOWN_DIFFERENCES` set, the run
//! rewrites the list instead: comments and the entries still differing
//! keep their place and their words, entries that match now go, and new
//! differences are added at the end under `# Not sorted yet`, to be moved
//! under a heading by hand.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The list of known differences of a corpus.
pub(crate) struct KnownDifferences {
    path: PathBuf,
    text: String,
    width: usize,
    ids: BTreeSet<String>,
}

impl KnownDifferences {
    /// Reads the list at `path` (none when missing), entries named by
    /// their first `width` words.
    pub(crate) fn load(path: &Path, width: usize) -> Self {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let mut known = Self {
            path: path.to_path_buf(),
            text,
            width,
            ids: BTreeSet::new(),
        };
        known.ids = known
            .text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(|l| known.id_of(l))
            .collect();
        known
    }

    fn id_of(&self, line: &str) -> String {
        line.split_whitespace()
            .take(self.width)
            .collect::<Vec<_>>()
            .join(" ")
    }

    pub(crate) fn contains(&self, id: &str) -> bool {
        self.ids.contains(id)
    }

    pub(crate) fn len(&self) -> usize {
        self.ids.len()
    }
}

/// What a run over a corpus found, entry by entry.
pub(crate) struct Verdict<'a> {
    known: &'a KnownDifferences,
    passed: usize,
    total: usize,
    /// Every entry that differs, as its line in the list (`ID  why`).
    failing: Vec<String>,
    /// The differences not listed, with their details.
    unexpected: Vec<String>,
    /// The listed entries that match now.
    fixed: Vec<String>,
    /// Every entry recorded: a rewrite keeps the lines of the others (a
    /// run over part of a corpus).
    seen: BTreeSet<String>,
}

impl<'a> Verdict<'a> {
    pub(crate) fn new(known: &'a KnownDifferences) -> Self {
        Self {
            known,
            passed: 0,
            total: 0,
            failing: Vec::new(),
            unexpected: Vec::new(),
            fixed: Vec::new(),
            seen: BTreeSet::new(),
        }
    }

    /// Records one entry's outcome: `id` names it, `why` is the words a
    /// new line of the list gets, and `outcome` holds the details of a
    /// difference.
    pub(crate) fn record(&mut self, id: &str, why: &str, outcome: Result<(), String>) {
        self.total += 1;
        self.seen.insert(id.to_string());
        match outcome {
            Ok(()) if self.known.contains(id) => self.fixed.push(id.to_string()),
            Ok(()) => self.passed += 1,
            Err(problem) => {
                self.failing.push(format!("{id}  {why}"));
                if !self.known.contains(id) {
                    self.unexpected.push(format!("{id}:\n  {problem}"));
                }
            }
        }
    }

    /// Prints the tally, then either rewrites the list (with
    /// `UPDATE_KNOWN_DIFFERENCES` set) or fails on what the list does not
    /// say. `what` names the entries in messages ("cases").
    pub(crate) fn finish(self, what: &str) {
        eprintln!(
            "{} of {} {what} match Puppet; {} known differences",
            self.passed,
            self.total,
            self.known.len()
        );
        if std::env::var_os("UPDATE_KNOWN_DIFFERENCES").is_some() {
            self.rewrite();
            return;
        }
        let list = self.known.path.display();
        assert!(
            self.unexpected.is_empty() && self.fixed.is_empty(),
            "{} {what} differ from Puppet and are not in {list}:\n{}\n\n\
             {} {what} in {list} match Puppet now (remove them, or run with \
             UPDATE_KNOWN_DIFFERENCES=1): {:?}",
            self.unexpected.len(),
            self.unexpected.join("\n"),
            self.fixed.len(),
            self.fixed
        );
    }

    fn rewrite(&self) {
        let known = self.known;
        let failing_ids: BTreeSet<String> = self.failing.iter().map(|l| known.id_of(l)).collect();
        let mut text = String::new();
        for line in known.text.lines() {
            if line.starts_with('#')
                || line.trim().is_empty()
                || failing_ids.contains(&known.id_of(line))
                || !self.seen.contains(&known.id_of(line))
            {
                text.push_str(line);
                text.push('\n');
            }
        }
        let new: Vec<&String> = self
            .failing
            .iter()
            .filter(|l| !known.contains(&known.id_of(l)))
            .collect();
        if !new.is_empty() {
            text.push_str("\n# Not sorted yet\n");
            for line in new {
                text.push_str(line);
                text.push('\n');
            }
        }
        std::fs::write(&known.path, text).expect("writable");
    }
}

//! What runs remember of resources from one run to the next
//! (`state/state.json` under the state directory): when each resource
//! with a schedule or audited properties was last checked, which is what
//! the schedule compares with, and the values its audited properties had
//! then (see the `audit` metaparameter).
//!
//! Puppet records the time for every resource in `state.yaml`, every run.
//! Only resources that name a schedule or audit properties need it, so
//! only those are recorded, and a run whose resources do neither neither
//! reads nor writes the file. Entries of resources the run did not check are kept until
//! they are older than Puppet's `statettl`, 32 days, so that a resource
//! left out of a few catalogs keeps its place in its schedule.
//!
//! The file is JSON: `{"File[/x]": {"checked": SECONDS, "audited":
//! {"mode": "0644"}}, ...}`, seconds since the epoch and values as in
//! catalogs.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use std::io;
use std::path::{Path, PathBuf};

/// How long an entry is kept without its resource being checked.
const KEEP_SECONDS: i64 = 32 * 86_400;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// When the resource was last checked, in seconds since the epoch.
    pub checked: i64,
    /// The audited properties' values when it was.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub audited: IndexMap<String, serde_json::Value>,
}

/// The entries of the state file, by resource reference.
#[derive(Debug, Default)]
pub struct Storage {
    path: PathBuf,
    entries: IndexMap<String, Entry>,
    changed: bool,
}

impl Storage {
    /// The storage of the state directory `dir`. A missing file is an
    /// empty storage; an unreadable or corrupt one is set aside as
    /// `state.json.bad` (so that it can be looked at) and replaced, as
    /// Puppet does, with the error returned for the run to report.
    pub fn load(dir: &Path) -> (Storage, Option<String>) {
        let path = dir.join("state.json");
        let mut storage = Storage {
            path,
            ..Storage::default()
        };
        let text = match std::fs::read(&storage.path) {
            Ok(text) => text,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return (storage, None),
            Err(e) => {
                let problem = format!(
                    "Could not read the state file {}: {e}",
                    storage.path.display()
                );
                return (storage, Some(problem));
            }
        };
        match serde_json::from_slice(&text) {
            Ok(entries) => {
                storage.entries = entries;
                (storage, None)
            }
            Err(e) => {
                let bad = storage.path.with_extension("json.bad");
                let kept = match std::fs::rename(&storage.path, &bad) {
                    Ok(()) => format!("; it was moved to {}", bad.display()),
                    Err(e) => format!("; it could not be moved aside ({e})"),
                };
                let problem = format!(
                    "The state file {} is corrupt ({e}) and is replaced{kept}",
                    storage.path.display()
                );
                (storage, Some(problem))
            }
        }
    }

    /// When a resource was last checked.
    pub fn checked(&self, reference: &str) -> Option<i64> {
        self.entries.get(reference).map(|entry| entry.checked)
    }

    /// Records that a resource was checked at `now`.
    pub fn check(&mut self, reference: &str, now: i64) {
        self.entries
            .entry(reference.to_string())
            .or_default()
            .checked = now;
        self.changed = true;
    }

    /// The value an audited property had when its resource was last
    /// checked.
    pub fn audited(&self, reference: &str, property: &str) -> Option<&serde_json::Value> {
        self.entries.get(reference)?.audited.get(property)
    }

    /// Records the value an audited property has now.
    pub fn audit(&mut self, reference: &str, property: &str, value: serde_json::Value) {
        let entry = self.entries.entry(reference.to_string()).or_default();
        entry.audited.insert(property.to_string(), value);
        self.changed = true;
    }

    /// Writes the file if anything changed, first dropping the entries
    /// not checked for [`KEEP_SECONDS`] (see
    /// [`marionette_ral::state_file::replace`]).
    pub fn store(mut self, now: i64) -> io::Result<()> {
        let before = self.entries.len();
        self.entries
            .retain(|_, entry| entry.checked >= now - KEEP_SECONDS);
        if !self.changed && self.entries.len() == before {
            return Ok(());
        }
        let mut text = serde_json::to_vec_pretty(&self.entries).map_err(io::Error::other)?;
        text.push(b'\n');
        marionette_ral::state_file::replace(&self.path, &text)
    }
}

/// Seconds since the epoch, as the state file keeps them.
pub fn now() -> i64 {
    i64::try_from(crate::report::now_seconds()).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_are_kept_between_runs_and_old_ones_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let (mut storage, problem) = Storage::load(dir.path());
        assert_eq!(problem, None);
        assert_eq!(storage.checked("Exec[a]"), None);
        let now = 2_000_000_000;
        storage.check("Exec[a]", now);
        storage.audit("Exec[a]", "returns", serde_json::json!(["0"]));
        storage.check("Exec[old]", now - KEEP_SECONDS - 1);
        storage.store(now).unwrap();
        let (storage, problem) = Storage::load(dir.path());
        assert_eq!(problem, None);
        assert_eq!(storage.checked("Exec[a]"), Some(now));
        assert_eq!(
            storage.audited("Exec[a]", "returns"),
            Some(&serde_json::json!(["0"]))
        );
        assert_eq!(storage.checked("Exec[old]"), None);
        let mode = std::fs::metadata(dir.path().join("state.json")).unwrap();
        assert_eq!(
            std::os::unix::fs::PermissionsExt::mode(&mode.permissions()) & 0o777,
            0o600
        );
    }

    #[test]
    fn a_corrupt_file_is_set_aside_and_replaced() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("state.json"), "{not json").unwrap();
        let (mut storage, problem) = Storage::load(dir.path());
        let problem = problem.unwrap();
        assert!(problem.contains("is corrupt"), "{problem}");
        assert_eq!(
            std::fs::read_to_string(dir.path().join("state.json.bad")).unwrap(),
            "{not json"
        );
        storage.check("Exec[a]", 5);
        storage.store(10).unwrap();
        assert_eq!(Storage::load(dir.path()).0.checked("Exec[a]"), Some(5));
    }
}

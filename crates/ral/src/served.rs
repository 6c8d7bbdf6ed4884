//! Where a run finds the files `puppet:///modules/MODULE/PATH` names: the
//! environment's module path under `apply`, the agent's mirror of the
//! server's files under `agent`.
//!
//! Puppet resolves such a source through its file serving wherever it is
//! read: the `file` type, concat's fragments, a module's provider (archive's
//! download). One process applies one environment's catalog, so the command
//! line sets this once, before any resource is built, and native types and
//! the Ruby host's answers read the same place.

use std::path::{Path, PathBuf};
use std::sync::RwLock;

static MODULEPATH: RwLock<Vec<PathBuf>> = RwLock::new(Vec::new());

/// The environment's name, for messages about sources not found.
static ENVIRONMENT: RwLock<String> = RwLock::new(String::new());

/// Sets the environment and the directories its modules' files are found
/// in.
pub fn set_modulepath(environment: &str, paths: Vec<PathBuf>) {
    // Relative directories are taken from where the command runs: the
    // sources found in them, which recursion hands on to the files it
    // generates, must be absolute paths.
    let paths = paths
        .into_iter()
        .map(|path| std::path::absolute(&path).unwrap_or(path))
        .collect();
    *MODULEPATH.write().unwrap_or_else(|e| e.into_inner()) = paths;
    *ENVIRONMENT.write().unwrap_or_else(|e| e.into_inner()) = environment.to_string();
}

/// The module path set for the run, first directory first.
pub fn modulepath() -> Vec<PathBuf> {
    MODULEPATH.read().unwrap_or_else(|e| e.into_inner()).clone()
}

/// The environment's name; `production` when none was set.
pub fn environment() -> String {
    match ENVIRONMENT
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .as_str()
    {
        "" => "production".to_string(),
        name => name.to_string(),
    }
}

/// The directory of the module `name` in the first module path directory
/// that has it, as Puppet's `Puppet::Module.find` answers a provider;
/// `None` for a name that is not a module's (a path, `..`).
pub fn module_dir(name: &str) -> Option<PathBuf> {
    if name.is_empty() || name.contains(['/', '\\']) || name.starts_with('.') {
        return None;
    }
    module_dir_in(&modulepath(), name)
}

fn module_dir_in(modulepath: &[PathBuf], name: &str) -> Option<PathBuf> {
    modulepath
        .iter()
        .map(|dir| dir.join(name))
        .find(|dir| Path::is_dir(dir))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_directory_with_the_module_wins() {
        let first = tempfile::tempdir().unwrap();
        let second = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(second.path().join("mrtest/files")).unwrap();
        let path = vec![first.path().to_path_buf(), second.path().to_path_buf()];
        assert_eq!(
            module_dir_in(&path, "mrtest"),
            Some(second.path().join("mrtest"))
        );
        std::fs::create_dir_all(first.path().join("mrtest")).unwrap();
        assert_eq!(
            module_dir_in(&path, "mrtest"),
            Some(first.path().join("mrtest"))
        );
        assert_eq!(module_dir_in(&path, "other"), None);
    }

    #[test]
    fn names_that_are_paths_are_no_modules() {
        for name in ["", "..", ".hidden", "a/b", "/etc"] {
            assert_eq!(module_dir(name), None, "{name}");
        }
    }
}

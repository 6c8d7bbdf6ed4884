//! Pluginsync: a mount of the server mirrored into a local directory, as
//! Puppet's agent mirrors it (recursively, links followed, files whose
//! checksum differs fetched, files the server no longer has removed).

use std::collections::HashSet;
use std::path::{Component, Path, PathBuf};

use crate::{Agent, AgentError, encode, io};

/// What a sync changed.
#[derive(Debug, Default)]
pub struct Synced {
    /// Files written, by local path.
    pub written: Vec<PathBuf>,
    /// Files and directories removed.
    pub removed: Vec<PathBuf>,
}

/// Files version-control tools leave, which Puppet's pluginsync ignores.
const IGNORED: &[&str] = &[".svn", "CVS", ".git", ".hg"];

pub(crate) fn sync(
    agent: &mut Agent,
    environment: &str,
    mount: &str,
    target: &Path,
    synced: &mut Synced,
) -> Result<(), AgentError> {
    let ignore: String = IGNORED
        .iter()
        .map(|i| format!("&ignore={}", encode(i)))
        .collect();
    let path = format!(
        "/puppet/v3/file_metadatas/{mount}?recurse=true&links=follow&source_permissions=ignore&checksum_type=sha256{ignore}&environment={}",
        encode(environment)
    );
    let entries: Vec<serde_json::Value> = match agent.fetch(&path) {
        Ok(answer) => serde_json::from_slice(&answer.body)
            .map_err(|e| AgentError::Http(format!("the {mount} listing is not JSON: {e}")))?,
        // A mount nothing fills.
        Err(AgentError::Server { status: 404, .. }) => Vec::new(),
        Err(other) => return Err(other),
    };
    // Nothing there: what was synced before goes.
    if entries.is_empty() {
        if target.is_dir() {
            purge(target, Path::new(""), &HashSet::new(), synced)?;
        }
        return Ok(());
    }
    // A single file: fetched when it differs.
    if let [only] = entries.as_slice()
        && only.get("type").and_then(|t| t.as_str()) == Some("file")
    {
        return fetch_file(agent, environment, mount, only, target, synced);
    }
    std::fs::create_dir_all(target)
        .map_err(io(format!("could not create {}", target.display())))?;
    let mut wanted: HashSet<PathBuf> = HashSet::new();
    for entry in &entries {
        let relative = entry
            .get("relative_path")
            .and_then(|r| r.as_str())
            .unwrap_or(".");
        if relative == "." {
            continue;
        }
        // Only plain names below the target: a listing cannot write
        // elsewhere.
        let relative = PathBuf::from(relative);
        if !relative
            .components()
            .all(|c| matches!(c, Component::Normal(_)))
        {
            return Err(AgentError::Http(format!(
                "the {mount} listing names {}, outside its directory",
                relative.display()
            )));
        }
        let local = target.join(&relative);
        wanted.insert(relative.clone());
        match entry.get("type").and_then(|t| t.as_str()) {
            Some("directory") => {
                if !local.is_dir() {
                    let _ = std::fs::remove_file(&local);
                    std::fs::create_dir_all(&local)
                        .map_err(io(format!("could not create {}", local.display())))?;
                }
            }
            _ => {
                let below = relative
                    .components()
                    .map(|c| encode(&c.as_os_str().to_string_lossy()))
                    .collect::<Vec<_>>()
                    .join("/");
                fetch_file(
                    agent,
                    environment,
                    &format!("{mount}/{below}"),
                    entry,
                    &local,
                    synced,
                )?;
            }
        }
    }
    purge(target, Path::new(""), &wanted, synced)
}

/// Fetches the file at `source` (a mount and path) into `local`, unless
/// it already has the checksum the metadata `entry` gives.
fn fetch_file(
    agent: &mut Agent,
    environment: &str,
    source: &str,
    entry: &serde_json::Value,
    local: &Path,
    synced: &mut Synced,
) -> Result<(), AgentError> {
    let wanted_sum = entry
        .pointer("/checksum/value")
        .and_then(|v| v.as_str())
        .unwrap_or_default();
    if local.is_file() && checksum(local) == wanted_sum {
        return Ok(());
    }
    let content = agent.fetch(&format!(
        "/puppet/v3/file_content/{source}?environment={}",
        encode(environment)
    ))?;
    if let Some(parent) = local.parent() {
        std::fs::create_dir_all(parent)
            .map_err(io(format!("could not create {}", parent.display())))?;
    }
    let temporary = local.with_extension("marionette-tmp");
    std::fs::write(&temporary, &content.body)
        .and_then(|()| std::fs::rename(&temporary, local))
        .map_err(io(format!("could not write {}", local.display())))?;
    synced.written.push(local.to_path_buf());
    Ok(())
}

/// Removes what the server no longer has below `target`.
fn purge(
    target: &Path,
    below: &Path,
    wanted: &HashSet<PathBuf>,
    synced: &mut Synced,
) -> Result<(), AgentError> {
    let dir = target.join(below);
    let Ok(read) = std::fs::read_dir(&dir) else {
        return Ok(());
    };
    for entry in read.filter_map(|e| e.ok()) {
        let relative = below.join(entry.file_name());
        let path = entry.path();
        if wanted.contains(&relative) {
            if path.is_dir() {
                purge(target, &relative, wanted, synced)?;
            }
            continue;
        }
        let removed = if path.is_dir() && !path.is_symlink() {
            std::fs::remove_dir_all(&path)
        } else {
            std::fs::remove_file(&path)
        };
        removed.map_err(io(format!("could not remove {}", path.display())))?;
        synced.removed.push(path);
    }
    Ok(())
}

/// `{sha256}HEX` of a file, as the server's metadata gives it.
fn checksum(path: &Path) -> String {
    std::fs::read(path)
        .map(|bytes| {
            let digest = ring::digest::digest(&ring::digest::SHA256, &bytes);
            let hex: String = digest.as_ref().iter().map(|b| format!("{b:02x}")).collect();
            format!("{{sha256}}{hex}")
        })
        .unwrap_or_default()
}

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
    let entries: Vec<serde_json::Value> = match agent.get(&path) {
        Ok(answer) => serde_json::from_slice(&answer.body)
            .map_err(|e| AgentError::Http(format!("the {mount} listing is not JSON: {e}")))?,
        // A mount nothing fills.
        Err(AgentError::Server { status: 404, .. }) => Vec::new(),
        Err(other) => return Err(other),
    };
    place(
        agent,
        environment,
        &entries,
        target,
        synced,
        &Content::Mount(mount),
    )
}

/// Where the content of a listed file is asked for.
pub(crate) enum Content<'a> {
    /// Below a mount, at the server's current version.
    Mount(&'a str),
    /// At a static catalog's code id, from the entry's `content_uri`.
    Static { code_id: &'a str },
}

impl Content<'_> {
    /// The request for `entry`'s content, `below` the listed directory
    /// (none for the listed file itself).
    fn request(
        &self,
        environment: &str,
        entry: &serde_json::Value,
        below: Option<&Path>,
    ) -> Result<String, AgentError> {
        match self {
            Content::Mount(mount) => {
                let source = match below {
                    Some(relative) => format!(
                        "{mount}/{}",
                        relative
                            .components()
                            .map(|c| crate::encode_segment(&c.as_os_str().to_string_lossy()))
                            .collect::<Vec<_>>()
                            .join("/")
                    ),
                    None => mount.to_string(),
                };
                Ok(format!(
                    "/puppet/v3/file_content/{source}?environment={}",
                    encode(environment)
                ))
            }
            Content::Static { code_id } => {
                let uri = entry
                    .get("content_uri")
                    .and_then(|u| u.as_str())
                    .unwrap_or_default();
                let path = uri
                    .strip_prefix("puppet://")
                    .and_then(|rest| rest.split_once('/'))
                    .map(|(_, path)| path)
                    .filter(|path| !path.split('/').any(|part| part == ".." || part.is_empty()))
                    .ok_or_else(|| {
                        AgentError::Http(format!("the catalog's content URI {uri:?} is not usable"))
                    })?;
                Ok(format!(
                    "/puppet/v3/static_file_content/{path}?environment={}&code_id={}",
                    encode(environment),
                    encode(code_id)
                ))
            }
        }
    }
}

/// Makes `target` what the metadata `entries` (a listing, or one file)
/// describe: files whose checksum differs fetched as `content` says,
/// directories made, what the listing lacks removed.
pub(crate) fn place(
    agent: &mut Agent,
    environment: &str,
    entries: &[serde_json::Value],
    target: &Path,
    synced: &mut Synced,
    content: &Content<'_>,
) -> Result<(), AgentError> {
    // Nothing there: what was synced before goes.
    if entries.is_empty() {
        if target.is_dir() {
            purge(target, Path::new(""), &HashSet::new(), synced)?;
        }
        return Ok(());
    }
    // A single file: fetched when it differs.
    if let [only] = entries
        && only.get("type").and_then(|t| t.as_str()) == Some("file")
    {
        let request = content.request(environment, only, None)?;
        return fetch_file(agent, &request, only, target, synced);
    }
    std::fs::create_dir_all(target)
        .map_err(io(format!("could not create {}", target.display())))?;
    let mut wanted: HashSet<PathBuf> = HashSet::new();
    for entry in entries {
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
                "the listing for {} names {}, outside its directory",
                target.display(),
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
                let request = content.request(environment, entry, Some(&relative))?;
                fetch_file(agent, &request, entry, &local, synced)?;
            }
        }
    }
    purge(target, Path::new(""), &wanted, synced)
}

/// Fetches a file's content by `request` into `local`, unless it already
/// has the checksum the metadata `entry` gives.
fn fetch_file(
    agent: &mut Agent,
    request: &str,
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
    let content = agent.get(request)?;
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

/// Writes a whole plugin set (`MOUNT SIZE PATH` lines, each followed by
/// the file's bytes) into the mounts' directories: changed files written,
/// files the set no longer has removed.
pub(crate) fn unpack(
    body: &[u8],
    targets: &[(&str, PathBuf)],
    synced: &mut Synced,
) -> Result<(), AgentError> {
    let broken = |why: &str| AgentError::Http(format!("the plugin set is broken: {why}"));
    let mut wanted: Vec<HashSet<PathBuf>> = vec![HashSet::new(); targets.len()];
    let mut at = 0;
    while at < body.len() {
        let end = body[at..]
            .iter()
            .position(|b| *b == b'\n')
            .ok_or_else(|| broken("a header without its end"))?;
        let header = std::str::from_utf8(&body[at..at + end])
            .map_err(|_| broken("a header that is not text"))?;
        at += end + 1;
        let mut parts = header.splitn(3, ' ');
        let (Some(mount), Some(size), Some(name)) = (parts.next(), parts.next(), parts.next())
        else {
            return Err(broken(header));
        };
        let size: usize = size.parse().map_err(|_| broken(header))?;
        let bytes = body
            .get(at..at + size)
            .ok_or_else(|| broken("a file cut short"))?;
        at += size;
        let Some(index) = targets.iter().position(|(m, _)| *m == mount) else {
            continue;
        };
        let relative = PathBuf::from(name);
        if !relative
            .components()
            .all(|c| matches!(c, Component::Normal(_)))
        {
            return Err(broken(&format!("{name} is outside its directory")));
        }
        let mut parent = relative.parent();
        while let Some(dir) = parent.filter(|p| !p.as_os_str().is_empty()) {
            wanted[index].insert(dir.to_path_buf());
            parent = dir.parent();
        }
        wanted[index].insert(relative.clone());
        let local = targets[index].1.join(&relative);
        if std::fs::read(&local).is_ok_and(|current| current == bytes) {
            continue;
        }
        if let Some(dir) = local.parent() {
            std::fs::create_dir_all(dir)
                .map_err(io(format!("could not create {}", dir.display())))?;
        }
        let temporary = local.with_extension("marionette-tmp");
        std::fs::write(&temporary, bytes)
            .and_then(|()| std::fs::rename(&temporary, &local))
            .map_err(io(format!("could not write {}", local.display())))?;
        synced.written.push(local);
    }
    for ((_, target), wanted) in targets.iter().zip(&wanted) {
        std::fs::create_dir_all(target)
            .map_err(io(format!("could not create {}", target.display())))?;
        purge(target, Path::new(""), wanted, synced)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plugin_set_is_unpacked_and_what_it_lacks_removed() {
        let dir = std::env::temp_dir().join(format!("mrtest-unpack-{}", std::process::id()));
        let (lib, facts) = (dir.join("lib"), dir.join("facts.d"));
        std::fs::create_dir_all(lib.join("old")).unwrap();
        std::fs::write(lib.join("old/gone.rb"), "x").unwrap();
        let body = b"plugins 3 facter/a.rb\nabcpluginfacts 2 b.txt\nb=";
        let targets = [("plugins", lib.clone()), ("pluginfacts", facts.clone())];
        let mut synced = Synced::default();
        unpack(body, &targets, &mut synced).unwrap();
        assert_eq!(
            std::fs::read_to_string(lib.join("facter/a.rb")).unwrap(),
            "abc"
        );
        assert_eq!(std::fs::read_to_string(facts.join("b.txt")).unwrap(), "b=");
        assert!(!lib.join("old").exists());
        assert_eq!(synced.written.len(), 2);
        // The same set again writes nothing.
        let mut again = Synced::default();
        unpack(body, &targets, &mut again).unwrap();
        assert!(again.written.is_empty() && again.removed.is_empty());
        // A path out of its directory, and a set cut short, are refused.
        assert!(unpack(b"plugins 1 ../x\na", &targets, &mut again).is_err());
        assert!(unpack(b"plugins 9 a.rb\nab", &targets, &mut again).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}

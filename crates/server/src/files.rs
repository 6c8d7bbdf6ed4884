//! The file mounts agents read: `plugins` (every module's `lib`, merged),
//! `pluginfacts` (`facts.d`), `locales`, and `modules/<name>` (a module's
//! `files`). Metadata is Puppet's `file_metadata` shape; checksums are
//! kept by path, size and modification time, so a file is hashed once
//! until it changes, not once per agent.

use std::collections::HashMap;
use std::os::unix::fs::MetadataExt;
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;

use serde_json::{Value, json};

/// A file's version: its path, size, modification time in nanoseconds,
/// and the checksum's type.
type Version = (PathBuf, u64, i128, &'static str);

/// Checksums already computed, by the version of the file they are of.
#[derive(Default)]
pub(crate) struct Checksums {
    known: Mutex<HashMap<Version, String>>,
}

/// The directories a mount covers in an environment, in precedence
/// order, and the path below them; `None` for an unknown mount or a path
/// that would leave the mount.
pub(crate) fn roots(
    modulepath: &[PathBuf],
    mount_and_path: &str,
) -> Option<(Vec<PathBuf>, PathBuf)> {
    let (mount, rest) = mount_and_path
        .split_once('/')
        .unwrap_or((mount_and_path, ""));
    let (dirs, rest) = match mount {
        "plugins" => (module_dirs(modulepath, "lib"), rest),
        "pluginfacts" => (module_dirs(modulepath, "facts.d"), rest),
        "locales" => (module_dirs(modulepath, "locales"), rest),
        "modules" => {
            let (module, rest) = rest.split_once('/').unwrap_or((rest, ""));
            let dir = modules(modulepath)
                .into_iter()
                .find(|(name, _)| name == module)?
                .1;
            (vec![dir.join("files")], rest)
        }
        _ => return None,
    };
    let relative = PathBuf::from(rest);
    // Only plain names below the mount: no `..`, no root, no prefix.
    if !relative
        .components()
        .all(|c| matches!(c, Component::Normal(_)))
    {
        return None;
    }
    Some((dirs, relative))
}

/// Each module of the module path once, the first of a name winning.
pub(crate) fn modules(modulepath: &[PathBuf]) -> Vec<(String, PathBuf)> {
    let mut found: Vec<(String, PathBuf)> = Vec::new();
    for dir in modulepath {
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        let mut names: Vec<(String, PathBuf)> = entries
            .filter_map(|e| e.ok())
            .filter(|e| e.path().is_dir())
            .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
            .collect();
        names.sort();
        for (name, path) in names {
            if !found.iter().any(|(n, _)| *n == name) {
                found.push((name, path));
            }
        }
    }
    found
}

fn module_dirs(modulepath: &[PathBuf], sub: &str) -> Vec<PathBuf> {
    modules(modulepath)
        .into_iter()
        .map(|(_, dir)| dir.join(sub))
        .filter(|d| d.is_dir())
        .collect()
}

/// The first existing file at `relative` below the roots, if it stays
/// inside its root once links are followed.
pub(crate) fn find(roots: &[PathBuf], relative: &Path) -> Option<PathBuf> {
    roots.iter().find_map(|root| {
        let path = root.join(relative);
        let real_root = root.canonicalize().ok()?;
        inside(&real_root, &path, true).then_some(path)
    })
}

/// The one rule of every mount: a path is served only when it stays
/// inside its root (`real_root`, canonical), with Puppet's `links`
/// semantics: followed, the link's target must be inside; managed, the
/// link itself is what is served, so only the directories leading to it
/// must be. A link out of a module serves nothing of what it points to.
fn inside(real_root: &Path, path: &Path, follow: bool) -> bool {
    let resolved = if follow {
        path.canonicalize()
    } else {
        match (path.parent(), path.file_name()) {
            (Some(parent), Some(name)) => parent.canonicalize().map(|p| p.join(name)),
            _ => path.canonicalize(),
        }
    };
    resolved.is_ok_and(|real| real.starts_with(real_root))
}

/// A directory's entries by name, each with whether it is a link (from the
/// listing itself, with no call per entry), sorted.
fn names_and_links(read: std::fs::ReadDir) -> Vec<(std::ffi::OsString, bool)> {
    let mut names: Vec<_> = read
        .filter_map(|e| e.ok())
        .map(|e| {
            let link = e.file_type().is_ok_and(|t| t.is_symlink());
            (e.file_name(), link)
        })
        .collect();
    names.sort();
    names
}

/// Enters a directory of a walk: its canonical path, now among those the
/// walk is inside (`leave` takes it out), or `None` when the walk is
/// already inside it, as a link to a directory above would make it
/// endless. A directory reached under two names (`latest -> v2`) is listed
/// under both, as Puppet lists it.
fn enter(inside_of: &mut std::collections::HashSet<PathBuf>, dir: &Path) -> Option<PathBuf> {
    let real = dir.canonicalize().ok()?;
    inside_of.insert(real.clone()).then_some(real)
}

/// Every file below the roots, merged (the first root's file of a name
/// wins), by relative path, with version-control directories left out.
/// Links are followed, as pluginsync follows them, when they stay inside
/// their root (and never into a directory the walk is already inside).
pub(crate) fn tree(roots: &[PathBuf]) -> Vec<(PathBuf, PathBuf)> {
    struct Tree<'a> {
        base: &'a Path,
        real_root: PathBuf,
        visited: std::collections::HashSet<PathBuf>,
    }
    fn walk(w: &mut Tree<'_>, below: &Path, out: &mut Vec<(PathBuf, PathBuf)>) {
        let dir = w.base.join(below);
        let Some(real) = enter(&mut w.visited, &dir) else {
            return;
        };
        list(w, below, &dir, out);
        w.visited.remove(&real);
    }
    fn list(w: &mut Tree<'_>, below: &Path, dir: &Path, out: &mut Vec<(PathBuf, PathBuf)>) {
        let Ok(read) = std::fs::read_dir(dir) else {
            return;
        };
        let names = names_and_links(read);
        for (name, link) in names {
            if [".git", ".svn", ".hg", "CVS"].iter().any(|i| name == *i) {
                continue;
            }
            let relative = below.join(&name);
            let path = w.base.join(&relative);
            // The walk is inside its root: only a link can lead out.
            if link && !inside(&w.real_root, &path, true) {
                continue;
            }
            if path.is_dir() {
                walk(w, &relative, out);
            } else if path.is_file() && !out.iter().any(|(r, _)| *r == relative) {
                out.push((relative, path));
            }
        }
    }
    let mut out = Vec::new();
    for root in roots {
        let Ok(real_root) = root.canonicalize() else {
            continue;
        };
        let mut w = Tree {
            base: root,
            real_root,
            visited: std::collections::HashSet::new(),
        };
        walk(&mut w, Path::new(""), &mut out);
    }
    out
}

/// A recursive listing under way: its base, the root it must stay in,
/// and the directories already walked.
struct Walk<'a> {
    base: &'a Path,
    real_root: &'a Path,
    options: &'a Options<'a>,
    visited: std::collections::HashSet<PathBuf>,
}

/// How metadata is asked for.
pub(crate) struct Options<'a> {
    pub(crate) recurse: bool,
    pub(crate) follow_links: bool,
    pub(crate) checksum_type: &'a str,
    pub(crate) ignore: Vec<&'a str>,
}

impl Checksums {
    /// The metadata of `relative` below the roots: one entry, or with
    /// `recurse` the entry and everything below it, merged over the
    /// roots (the first root's file of a name wins). `None` when nothing
    /// is there.
    pub(crate) fn metadatas(
        &self,
        roots: &[PathBuf],
        relative: &Path,
        options: &Options<'_>,
    ) -> Option<Vec<Value>> {
        let mut entries: Vec<Value> = Vec::new();
        let mut seen: std::collections::HashSet<PathBuf> = std::collections::HashSet::new();
        for root in roots {
            let Ok(real_root) = root.canonicalize() else {
                continue;
            };
            let base = root.join(relative);
            if !inside(&real_root, &base, options.follow_links) {
                continue;
            }
            let Ok(meta) = stat(&base, options.follow_links) else {
                continue;
            };
            if entries.is_empty() {
                entries.push(self.entry(&base, &meta, None, options));
                seen.insert(PathBuf::from("."));
            }
            if options.recurse && meta.is_dir() {
                let mut walk = Walk {
                    base: &base,
                    real_root: &real_root,
                    options,
                    visited: std::collections::HashSet::new(),
                };
                self.walk(&mut walk, Path::new(""), &mut entries, &mut seen);
            }
            if !options.recurse {
                break;
            }
        }
        (!entries.is_empty()).then_some(entries)
    }

    fn walk(
        &self,
        w: &mut Walk<'_>,
        below: &Path,
        entries: &mut Vec<Value>,
        seen: &mut std::collections::HashSet<PathBuf>,
    ) {
        let dir = w.base.join(below);
        let Some(real) = enter(&mut w.visited, &dir) else {
            return;
        };
        self.list(w, below, &dir, entries, seen);
        w.visited.remove(&real);
    }

    fn list(
        &self,
        w: &mut Walk<'_>,
        below: &Path,
        dir: &Path,
        entries: &mut Vec<Value>,
        seen: &mut std::collections::HashSet<PathBuf>,
    ) {
        let Ok(read) = std::fs::read_dir(dir) else {
            return;
        };
        let names = names_and_links(read);
        for (name, link) in names {
            let text = name.to_string_lossy();
            if w.options.ignore.iter().any(|pattern| glob(pattern, &text)) {
                continue;
            }
            let relative = below.join(&name);
            let path = w.base.join(&relative);
            // The walk is inside its root: only a link can lead out.
            if link && !inside(w.real_root, &path, w.options.follow_links) {
                continue;
            }
            let Ok(meta) = stat(&path, w.options.follow_links) else {
                continue;
            };
            if seen.insert(relative.clone()) {
                entries.push(self.entry(w.base, &meta, Some(&relative), w.options));
            }
            if meta.is_dir() {
                self.walk(w, &relative, entries, seen);
            }
        }
    }

    fn entry(
        &self,
        base: &Path,
        meta: &std::fs::Metadata,
        relative: Option<&Path>,
        options: &Options<'_>,
    ) -> Value {
        let path = relative.map_or_else(|| base.to_path_buf(), |r| base.join(r));
        let kind = if meta.is_dir() {
            "directory"
        } else if meta.file_type().is_symlink() {
            "link"
        } else {
            "file"
        };
        let checksum = match kind {
            "file" => self.checksum(&path, meta, options.checksum_type),
            _ => json!({"type": "ctime", "value": format!("{{ctime}}{}", ctime(meta))}),
        };
        let destination = (kind == "link")
            .then(|| std::fs::read_link(&path).ok())
            .flatten()
            .map(|d| d.display().to_string());
        json!({
            "path": base.display().to_string(),
            "relative_path": relative.map_or_else(|| ".".to_string(), |r| r.display().to_string()),
            "links": if options.follow_links { "follow" } else { "manage" },
            "owner": meta.uid(),
            "group": meta.gid(),
            "mode": meta.mode() & 0o7777,
            "checksum": checksum,
            "type": kind,
            "destination": destination,
        })
    }

    fn checksum(&self, path: &Path, meta: &std::fs::Metadata, wanted: &str) -> Value {
        let (name, algorithm): (&'static str, &'static ring::digest::Algorithm) = match wanted {
            "sha1" => ("sha1", &ring::digest::SHA1_FOR_LEGACY_USE_ONLY),
            "sha384" => ("sha384", &ring::digest::SHA384),
            "sha512" => ("sha512", &ring::digest::SHA512),
            _ => ("sha256", &ring::digest::SHA256),
        };
        let mtime = i128::from(meta.mtime()) * 1_000_000_000 + i128::from(meta.mtime_nsec());
        let key = (path.to_path_buf(), meta.len(), mtime, name);
        let known = self
            .known
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
            .cloned();
        let hex = known.unwrap_or_else(|| {
            let digest = std::fs::read(path)
                .map(|bytes| ring::digest::digest(algorithm, &bytes))
                .map(|d| {
                    d.as_ref()
                        .iter()
                        .map(|b| format!("{b:02x}"))
                        .collect::<String>()
                })
                .unwrap_or_default();
            self.known
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(key, digest.clone());
            digest
        });
        json!({"type": name, "value": format!("{{{name}}}{hex}")})
    }
}

fn stat(path: &Path, follow: bool) -> std::io::Result<std::fs::Metadata> {
    if follow {
        std::fs::metadata(path)
    } else {
        std::fs::symlink_metadata(path)
    }
}

/// A change time as Puppet prints it: `2026-11-24 10:44:56 +0000`.
fn ctime(meta: &std::fs::Metadata) -> String {
    let seconds = meta.ctime();
    let days = seconds.div_euclid(86_400);
    let rest = seconds.rem_euclid(86_400);
    let (year, month, day) = crate::logs::civil(days);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02} +0000",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

/// Puppet's `ignore` patterns: shell globs with `*` and `?`.
fn glob(pattern: &str, name: &str) -> bool {
    fn matches(p: &[char], n: &[char]) -> bool {
        match (p.first(), n.first()) {
            (None, None) => true,
            (Some('*'), _) => matches(&p[1..], n) || (!n.is_empty() && matches(p, &n[1..])),
            (Some('?'), Some(_)) => matches(&p[1..], &n[1..]),
            (Some(a), Some(b)) if a == b => matches(&p[1..], &n[1..]),
            _ => false,
        }
    }
    let p: Vec<char> = pattern.chars().collect();
    let n: Vec<char> = name.chars().collect();
    matches(&p, &n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_that_leave_a_mount_are_refused() {
        let modulepath = vec![PathBuf::from("/nonexistent")];
        assert!(roots(&modulepath, "plugins/../../etc/passwd").is_none());
        assert!(roots(&modulepath, "plugins//etc/passwd").is_none());
        assert!(roots(&modulepath, "plugins/facter/x.rb").is_some());
        assert!(roots(&modulepath, "secrets/x").is_none());
    }

    /// Links out of a mount serve nothing of what they point to, in every
    /// listing; links inside follow Puppet's `links`; a link loop ends.
    #[test]
    fn links_stay_inside_their_mount() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::Builder::new()
            .prefix("mrtest-mount-")
            .tempdir()
            .unwrap();
        let root = dir.path().join("files");
        let outside = dir.path().join("outside");
        std::fs::create_dir_all(root.join("sub")).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(root.join("sub/inside.txt"), "in").unwrap();
        std::fs::write(outside.join("secret"), "out").unwrap();
        symlink(&outside, root.join("dir_out")).unwrap();
        symlink(outside.join("secret"), root.join("file_out")).unwrap();
        symlink("sub/inside.txt", root.join("file_in")).unwrap();
        symlink("..", root.join("sub/up")).unwrap();
        // A second name for a directory: listed under both.
        symlink("sub", root.join("v")).unwrap();
        let roots = vec![root.clone()];
        let checksums = Checksums::default();
        let listed = |follow: bool, relative: &str| -> Vec<String> {
            let options = Options {
                recurse: true,
                follow_links: follow,
                checksum_type: "sha256",
                ignore: vec![],
            };
            checksums
                .metadatas(&roots, Path::new(relative), &options)
                .unwrap_or_default()
                .iter()
                .map(|e| format!("{} {}", e["relative_path"].as_str().unwrap(), e["type"]))
                .collect()
        };
        assert_eq!(
            listed(true, ""),
            [
                ". \"directory\"",
                "file_in \"file\"",
                "sub \"directory\"",
                "sub/inside.txt \"file\"",
                "sub/up \"directory\"",
                "v \"directory\"",
                "v/inside.txt \"file\"",
                "v/up \"directory\""
            ]
        );
        assert_eq!(
            listed(false, ""),
            [
                ". \"directory\"",
                "dir_out \"link\"",
                "file_in \"link\"",
                "file_out \"link\"",
                "sub \"directory\"",
                "sub/inside.txt \"file\"",
                "sub/up \"link\"",
                "v \"link\""
            ]
        );
        for follow in [true, false] {
            assert!(listed(follow, "dir_out/secret").is_empty(), "{follow}");
            assert!(listed(follow, "dir_out").is_empty() || !follow);
        }
        assert!(listed(true, "file_out").is_empty());
        assert!(find(&roots, Path::new("file_out")).is_none());
        assert!(find(&roots, Path::new("file_in")).is_some());
        let tree: Vec<PathBuf> = tree(&roots).into_iter().map(|(r, _)| r).collect();
        assert_eq!(
            tree,
            [
                PathBuf::from("file_in"),
                PathBuf::from("sub/inside.txt"),
                PathBuf::from("v/inside.txt")
            ]
        );
    }

    #[test]
    fn ignore_patterns_are_globs() {
        assert!(glob(".git", ".git") && glob("*.swp", "a.swp") && glob("?x", "ax"));
        assert!(!glob(".git", ".gitignore") && !glob("*.swp", "a.swo"));
    }
}

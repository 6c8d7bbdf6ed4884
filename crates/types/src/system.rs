//! Reading the local account databases (`/etc/passwd`, `/etc/shadow`,
//! `/etc/group`). The `useradd` family of tools manages exactly these
//! files, so their providers read them directly: one read lists every
//! account, where a lookup per account would cost a process each.

use std::io;
use std::path::Path;

/// One `/etc/passwd` entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PasswdEntry {
    pub name: String,
    pub uid: i64,
    pub gid: i64,
    pub comment: String,
    pub home: String,
    pub shell: String,
}

/// One `/etc/shadow` entry; ages and expiry are absent when empty.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShadowEntry {
    pub name: String,
    pub password: String,
    pub min_age: Option<i64>,
    pub max_age: Option<i64>,
    pub warn_days: Option<i64>,
    /// Days since 1970-01-01.
    pub expiry: Option<i64>,
}

/// One `/etc/group` entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupEntry {
    pub name: String,
    pub gid: i64,
    pub members: Vec<String>,
}

fn read_lines(path: &Path) -> io::Result<Vec<Vec<String>>> {
    let text = std::fs::read_to_string(path)?;
    Ok(text
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|line| line.split(':').map(str::to_string).collect())
        .collect())
}

fn number(field: Option<&String>) -> Option<i64> {
    field.and_then(|f| f.parse().ok())
}

pub fn passwd(root: &Path) -> io::Result<Vec<PasswdEntry>> {
    Ok(read_lines(&root.join("etc/passwd"))?
        .into_iter()
        .filter(|f| f.len() >= 7)
        .filter_map(|f| {
            Some(PasswdEntry {
                uid: number(f.get(2))?,
                gid: number(f.get(3))?,
                comment: f[4].clone(),
                home: f[5].clone(),
                shell: f[6].clone(),
                name: f[0].clone(),
            })
        })
        .collect())
}

/// The shadow entries, or none when the file cannot be read (not root).
pub fn shadow(root: &Path) -> Vec<ShadowEntry> {
    read_lines(&root.join("etc/shadow"))
        .unwrap_or_default()
        .into_iter()
        .filter(|f| f.len() >= 8)
        .map(|f| ShadowEntry {
            password: f[1].clone(),
            min_age: number(f.get(3)),
            max_age: number(f.get(4)),
            warn_days: number(f.get(5)),
            expiry: number(f.get(7)),
            name: f[0].clone(),
        })
        .collect()
}

pub fn groups(root: &Path) -> io::Result<Vec<GroupEntry>> {
    Ok(read_lines(&root.join("etc/group"))?
        .into_iter()
        .filter(|f| f.len() >= 4)
        .filter_map(|f| {
            Some(GroupEntry {
                gid: number(f.get(2))?,
                members: f[3]
                    .split(',')
                    .filter(|m| !m.is_empty())
                    .map(str::to_string)
                    .collect(),
                name: f[0].clone(),
            })
        })
        .collect())
}

/// A group given by name or number, as its number.
pub fn resolve_gid(root: &Path, group: &str) -> Option<i64> {
    if let Ok(gid) = group.parse() {
        return Some(gid);
    }
    groups(root)
        .ok()?
        .into_iter()
        .find(|g| g.name == group)
        .map(|g| g.gid)
}

/// Days since 1970-01-01 as `YYYY-MM-DD` (how shadow counts expiry).
pub fn days_to_date(days: i64) -> String {
    marionette_values::Timestamp::from_seconds(days as f64 * 86_400.0)
        .map(|t| t.format("%Y-%m-%d"))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_from_days() {
        assert_eq!(days_to_date(0), "1970-01-01");
        assert_eq!(days_to_date(20228), "2025-05-20");
        assert_eq!(days_to_date(-1), "1969-12-31");
    }

    #[test]
    fn account_files_parse() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("etc")).unwrap();
        std::fs::write(
            dir.path().join("etc/passwd"),
            "root:x:0:0:root:/root:/bin/bash\nbad line\n",
        )
        .unwrap();
        std::fs::write(
            dir.path().join("etc/group"),
            "root:x:0:\nadm:x:4:alice,bob\n",
        )
        .unwrap();
        assert_eq!(passwd(dir.path()).unwrap()[0].home, "/root");
        assert_eq!(groups(dir.path()).unwrap()[1].members, ["alice", "bob"]);
        assert_eq!(resolve_gid(dir.path(), "adm"), Some(4));
        assert_eq!(resolve_gid(dir.path(), "17"), Some(17));
        assert!(shadow(dir.path()).is_empty());
    }
}

//! The local filebucket: a content-addressed store where file contents are
//! saved before a run changes or removes them, so no data is lost to a
//! wrong manifest.
//!
//! Layout under the bucket directory: `<a>/<b>/<sha256>/contents` holds the
//! bytes (the first two hex digits make the two levels, so no directory
//! grows too large) and `<...>/paths` every path saved with that content;
//! `index` has one line per backup, `<unix time>\t<sha256>\t<path>`, for
//! listing in order.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use sha2::{Digest, Sha256};

/// One backup in the index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Seconds since the epoch.
    pub time: u64,
    pub sum: String,
    pub path: String,
}

/// A bucket kept by a Puppet server (`filebucket { ...: path => false }`),
/// which the agent reaches: contents sent and fetched by their sha256.
pub trait RemoteBucket: Send + Sync {
    /// Sends `bytes`, whose sha256 is `sum`, saved from `path`.
    fn put(&self, sum: &str, bytes: &[u8], path: &str) -> io::Result<()>;
    /// The contents the server keeps under `sum`.
    fn get(&self, sum: &str) -> io::Result<Vec<u8>>;
}

#[derive(Clone)]
pub struct Filebucket {
    dir: PathBuf,
    /// Where contents go instead of `dir`, for a server's bucket.
    remote: Option<std::sync::Arc<dyn RemoteBucket>>,
}

impl std::fmt::Debug for Filebucket {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.remote {
            Some(_) => f.write_str("Filebucket(remote)"),
            None => write!(f, "Filebucket({})", self.dir.display()),
        }
    }
}

/// The sha256 of some bytes, as lower-case hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

impl Filebucket {
    pub fn new(dir: impl Into<PathBuf>) -> Filebucket {
        Filebucket {
            dir: dir.into(),
            remote: None,
        }
    }

    /// A bucket a server keeps: backups and content by checksum go
    /// through `remote`.
    pub fn remote(remote: std::sync::Arc<dyn RemoteBucket>) -> Filebucket {
        Filebucket {
            dir: PathBuf::new(),
            remote: Some(remote),
        }
    }

    /// Whether the bucket is a server's.
    pub fn is_remote(&self) -> bool {
        self.remote.is_some()
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn entry_dir(&self, sum: &str) -> PathBuf {
        self.dir.join(&sum[0..1]).join(&sum[1..2]).join(sum)
    }

    /// Saves the current contents of a file; returns their sha256. Saving
    /// the same contents twice stores them once.
    pub fn backup(&self, path: &Path) -> io::Result<String> {
        let bytes = fs::read(path)?;
        self.store(&bytes, &path.display().to_string())
    }

    /// Saves bytes under the path they came from.
    pub fn store(&self, bytes: &[u8], path: &str) -> io::Result<String> {
        let sum = sha256_hex(bytes);
        if let Some(remote) = &self.remote {
            remote.put(&sum, bytes, path)?;
            return Ok(sum);
        }
        let dir = self.entry_dir(&sum);
        fs::create_dir_all(&dir)?;
        let contents = dir.join("contents");
        if !contents.exists() {
            // Written beside, synced and renamed, so a crash never leaves a
            // truncated backup under a valid sum. Backups may hold secrets:
            // only the owner can read them.
            crate::state_file::replace_durably(&contents, bytes)?;
        }
        let paths = dir.join("paths");
        let known = fs::read_to_string(&paths).unwrap_or_default();
        if !known.lines().any(|line| line == path) {
            fs::OpenOptions::new()
                .append(true)
                .create(true)
                .open(&paths)?
                .write_all(format!("{path}\n").as_bytes())?;
        }
        let time = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(self.dir.join("index"))?
            .write_all(format!("{time}\t{sum}\t{path}\n").as_bytes())?;
        Ok(sum)
    }

    /// The contents saved under a sum.
    pub fn get(&self, sum: &str) -> io::Result<Vec<u8>> {
        if sum.len() != 64 || !sum.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("'{sum}' is not a sha256 sum"),
            ));
        }
        if let Some(remote) = &self.remote {
            return remote.get(&sum.to_ascii_lowercase());
        }
        fs::read(self.entry_dir(&sum.to_ascii_lowercase()).join("contents")).map_err(|e| {
            if e.kind() == io::ErrorKind::NotFound {
                io::Error::new(io::ErrorKind::NotFound, format!("no backup with sum {sum}"))
            } else {
                e
            }
        })
    }

    /// Every backup, oldest first.
    pub fn list(&self) -> io::Result<Vec<Entry>> {
        let text = match fs::read_to_string(self.dir.join("index")) {
            Ok(text) => text,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(e),
        };
        Ok(text
            .lines()
            .filter_map(|line| {
                let mut fields = line.splitn(3, '\t');
                Some(Entry {
                    time: fields.next()?.parse().ok()?,
                    sum: fields.next()?.to_string(),
                    path: fields.next()?.to_string(),
                })
            })
            .collect())
    }

    /// Puts saved contents back at a path, atomically (written beside it,
    /// then renamed over it); the file's current contents are saved first.
    pub fn restore(&self, path: &Path, sum: &str) -> io::Result<()> {
        let bytes = self.get(sum)?;
        if path.exists() {
            self.backup(path)?;
        }
        // Replaced as every file is: a new temporary file no one else can
        // read or have planted, the old file's mode and owner, a rename.
        crate::parsedfile::write_atomically(path, &bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_restore_follows_no_planted_link_and_keeps_the_owner() {
        use std::os::unix::fs::MetadataExt;
        let dir = tempfile::tempdir().unwrap();
        let bucket = Filebucket::new(dir.path().join("bucket"));
        let file = dir.path().join("config");
        fs::write(&file, "first\n").unwrap();
        let sum = bucket.backup(&file).unwrap();
        fs::write(&file, "second\n").unwrap();
        // What the old fixed temporary name let the directory's owner do:
        // a link there made the restore write another file.
        let victim = dir.path().join("victim");
        fs::write(&victim, "untouched\n").unwrap();
        std::os::unix::fs::symlink(&victim, dir.path().join(".config.marionette-restore")).unwrap();
        if nix_is_root() {
            std::os::unix::fs::chown(&file, Some(65534), Some(65534)).unwrap();
        }
        bucket.restore(&file, &sum).unwrap();
        assert_eq!(fs::read_to_string(&file).unwrap(), "first\n");
        assert_eq!(fs::read_to_string(&victim).unwrap(), "untouched\n");
        if nix_is_root() {
            let meta = fs::metadata(&file).unwrap();
            assert_eq!((meta.uid(), meta.gid()), (65534, 65534));
        }
    }

    fn nix_is_root() -> bool {
        // SAFETY: geteuid(2) only reads the process's effective user.
        unsafe { libc::geteuid() == 0 }
    }

    #[test]
    fn backups_are_content_addressed_listed_and_restored() {
        let dir = tempfile::tempdir().unwrap();
        let bucket = Filebucket::new(dir.path().join("bucket"));
        let file = dir.path().join("config");
        fs::write(&file, "first\n").unwrap();
        let first = bucket.backup(&file).unwrap();
        assert_eq!(first, sha256_hex(b"first\n"));
        assert_eq!(bucket.backup(&file).unwrap(), first);
        fs::write(&file, "second\n").unwrap();
        bucket.restore(&file, &first).unwrap();
        assert_eq!(fs::read_to_string(&file).unwrap(), "first\n");
        let listed = bucket.list().unwrap();
        let sums: Vec<&str> = listed.iter().map(|e| e.sum.as_str()).collect();
        assert_eq!(
            sums,
            [
                first.as_str(),
                first.as_str(),
                sha256_hex(b"second\n").as_str()
            ]
        );
        assert!(bucket.get("nothex").is_err());
        assert!(
            bucket
                .get(&"0".repeat(64))
                .unwrap_err()
                .to_string()
                .contains("no backup")
        );
    }
}

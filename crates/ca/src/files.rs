//! Writing the CA's files. Every file is written to a temporary name in its
//! own directory and renamed into place, so that a reader (another thread,
//! puppetserver's tools, an agent fetching the CRL) sees the old content or
//! the new, never half of one, and a crash leaves no truncated key behind;
//! and it belongs to its directory's owner, whoever writes it.

use std::fs::{self, OpenOptions};
use std::io::Write;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::{CaError, io_error};

/// Mode of private keys: only the owner reads them.
pub(crate) const PRIVATE_MODE: u32 = 0o600;
/// Mode of certificates, requests, the CRL and the bookkeeping files.
pub(crate) const PUBLIC_MODE: u32 = 0o644;

/// Distinguishes the temporary files of concurrent writers in one process.
static COUNTER: AtomicU64 = AtomicU64::new(0);

/// Writes `contents` to `path` with `mode`, atomically.
pub(crate) fn write_atomic(path: &Path, contents: &[u8], mode: u32) -> Result<(), CaError> {
    let dir = path.parent().unwrap_or_else(|| Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(
        ".{name}.tmp.{}.{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    // The temporary file is created with the final mode, so a private key is
    // never readable by others even for the moment before the rename.
    let result = (|| {
        let mut file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(mode)
            .open(&tmp)
            .map_err(io_error(&tmp))?;
        // The umask may have taken bits away from `mode`; set it exactly.
        file.set_permissions(fs::Permissions::from_mode(mode))
            .map_err(io_error(&tmp))?;
        // A CA belongs to the user its directory belongs to (the server's
        // own, when packaged): root administering it keeps it so, or the
        // server could no longer write its serial or read its key. Anyone
        // else cannot give a file away, and need not.
        if let Ok(owner) = fs::metadata(dir) {
            use std::os::unix::fs::MetadataExt;
            let _ = std::os::unix::fs::fchown(&file, Some(owner.uid()), Some(owner.gid()));
        }
        file.write_all(contents).map_err(io_error(&tmp))?;
        file.sync_all().map_err(io_error(&tmp))?;
        fs::rename(&tmp, path).map_err(io_error(path))
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// Reads a file as text; `None` when it does not exist.
pub(crate) fn read_optional(path: &Path) -> Result<Option<String>, CaError> {
    match fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(io_error(path)(e)),
    }
}

/// Reads a file that must exist.
pub(crate) fn read(path: &Path) -> Result<String, CaError> {
    fs::read_to_string(path).map_err(io_error(path))
}

/// Removes a file; `false` when there was none.
pub(crate) fn remove_optional(path: &Path) -> Result<bool, CaError> {
    match fs::remove_file(path) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(io_error(path)(e)),
    }
}

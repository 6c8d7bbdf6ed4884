//! Files replaced whole under the state directory: the file provider's
//! checksums, the transaction's record of checked resources, the
//! filebucket's backups.

use std::io::{self, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

/// Replaces the file at `path` with `bytes` whole: written beside it
/// (`path` with the extension `tmp`) and renamed over it, so that a run
/// killed halfway leaves the old file, never half a new one. The file is
/// readable by its owner only: it tells what the machine holds.
pub fn replace(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_then_rename(path, bytes, false)
}

/// [`replace`], the bytes on disk before the rename: for what must
/// survive a crash of the machine, such as a backup.
pub fn replace_durably(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_then_rename(path, bytes, true)
}

fn write_then_rename(path: &Path, bytes: &[u8], sync: bool) -> io::Result<()> {
    let temporary = path.with_extension("tmp");
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(&temporary)?;
    file.write_all(bytes)?;
    if sync {
        file.sync_all()?;
    }
    drop(file);
    std::fs::rename(&temporary, path)
}

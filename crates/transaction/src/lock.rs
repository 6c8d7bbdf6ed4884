//! The run lock: one run at a time. The lock file holds the process id of
//! the run; a lock whose process is gone was left by a killed run and is
//! cleared.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// A held lock; dropping it releases the lock.
#[derive(Debug)]
pub struct RunLock {
    path: PathBuf,
}

#[derive(Debug, thiserror::Error)]
pub enum LockError {
    #[error("Run of marionette already in progress (pid {pid}, lock file {}); not starting a second one", .path.display())]
    Busy { pid: i32, path: PathBuf },
    #[error("Could not create the lock file {}: {source}", .path.display())]
    Io { path: PathBuf, source: io::Error },
    #[error("Could not create the state directory {}: {source}", .path.display())]
    Directory { path: PathBuf, source: io::Error },
}

/// Whether a process with this id is alive.
fn alive(pid: i32) -> bool {
    // SAFETY: kill(2) with signal 0 only checks that the process exists.
    pid > 0
        && (unsafe { libc::kill(pid, 0) } == 0
            || io::Error::last_os_error().raw_os_error() == Some(libc::EPERM))
}

/// Whether the process with this id is a Marionette run: a lock left by a
/// killed run whose id now belongs to another program must not block
/// every run. When that cannot be told, it is taken to be one.
fn is_marionette(pid: i32) -> bool {
    match fs::read(format!("/proc/{pid}/cmdline")) {
        Ok(cmdline) => {
            let program = cmdline.split(|b| *b == 0).next().unwrap_or_default();
            let name = program.rsplit(|b| *b == b'/').next().unwrap_or_default();
            String::from_utf8_lossy(name).contains("marionette")
        }
        Err(_) => true,
    }
}

/// Creates the lock file holding `pid` in one step: written whole to a
/// file of its own, then linked into place, so another run never finds an
/// empty lock and takes it for a stale one.
fn create_with(path: &Path, pid: u32) -> io::Result<()> {
    let unique = path.with_file_name(format!(
        ".run.lock.{pid}.{}",
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos())
    ));
    let written = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&unique)
        .and_then(|mut file| file.write_all(pid.to_string().as_bytes()))
        .and_then(|()| fs::hard_link(&unique, path));
    let _ = fs::remove_file(&unique);
    written
}

impl RunLock {
    /// Takes the lock at `path`. Returns, besides the lock, the pid of a
    /// stale lock that was cleared.
    pub fn acquire(path: &Path) -> Result<(RunLock, Option<i32>), LockError> {
        let io_error = |source| LockError::Io {
            path: path.to_path_buf(),
            source,
        };
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).map_err(|source| LockError::Directory {
                path: parent.to_path_buf(),
                source,
            })?;
        }
        let mut cleared = None;
        for _ in 0..2 {
            match create_with(path, std::process::id()) {
                Ok(()) => {
                    return Ok((
                        RunLock {
                            path: path.to_path_buf(),
                        },
                        cleared,
                    ));
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                    let text = fs::read_to_string(path).unwrap_or_default();
                    let pid: i32 = text.trim().parse().unwrap_or(0);
                    if alive(pid) && is_marionette(pid) && pid != std::process::id() as i32 {
                        return Err(LockError::Busy {
                            pid,
                            path: path.to_path_buf(),
                        });
                    }
                    // Left by a run that was killed: clear it and retry.
                    fs::remove_file(path).map_err(io_error)?;
                    cleared = Some(pid);
                }
                Err(e) => return Err(io_error(e)),
            }
        }
        Err(io_error(io::Error::other(
            "the lock file keeps reappearing",
        )))
    }
}

impl Drop for RunLock {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_run_is_refused_and_a_stale_lock_cleared() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state/run.lock");
        // A lock held by a live Marionette run (a process that calls
        // itself so).
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        let mut run = std::process::Command::new("bash")
            .args(["-c", "exec -a marionette sleep 30"])
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(200));
        fs::write(&path, run.id().to_string()).unwrap();
        let busy = RunLock::acquire(&path).unwrap_err();
        let _ = run.kill();
        let _ = run.wait();
        assert!(
            busy.to_string().starts_with(&format!(
                "Run of marionette already in progress (pid {}",
                run.id()
            )),
            "{busy}"
        );
        // A live process that is not a Marionette run (pid 1): the lock
        // was left by a killed run whose id was reused.
        fs::write(&path, "1").unwrap();
        let (lock, cleared) = RunLock::acquire(&path).unwrap();
        assert_eq!(cleared, Some(1));
        drop(lock);
        // A lock whose process is gone.
        fs::write(&path, "999999999").unwrap();
        let (lock, cleared) = RunLock::acquire(&path).unwrap();
        assert_eq!(cleared, Some(999_999_999));
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            std::process::id().to_string()
        );
        drop(lock);
        assert!(!path.exists());
    }
}

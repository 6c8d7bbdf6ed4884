//! The run lock: one run at a time. The run holds an exclusive `flock` on
//! the lock file, which the kernel releases when the run ends however it
//! ends, so a lock left by a killed run is stale by definition and taking
//! it is the same step as finding it free: two runs can never both decide
//! a lock is stale and both go on. The file also holds the process id of
//! the run, as Puppet's `agent_catalog_run.lock` does, for the tools that
//! read it and for the message of a run refused.

use std::fs::{self, File, TryLockError};
use std::io::{self, Read, Seek, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// A held lock; dropping it releases the lock and removes the file.
#[derive(Debug)]
pub struct RunLock {
    path: PathBuf,
    file: File,
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

/// The process id a lock file holds, 0 when it holds none.
fn holder(file: &mut File) -> i32 {
    let mut text = String::new();
    let _ = file.rewind().and_then(|()| file.read_to_string(&mut text));
    text.trim().parse().unwrap_or(0)
}

/// What one attempt at the lock found.
enum Attempt {
    Taken(RunLock, Option<i32>),
    /// The file was removed or replaced between opening and locking it: a
    /// run released it meanwhile, and the lock is the file now at the path.
    Moved,
}

impl RunLock {
    /// Takes the lock at `path`. Returns, besides the lock, the pid of a
    /// stale lock that was cleared.
    pub fn acquire(path: &Path) -> Result<(RunLock, Option<i32>), LockError> {
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).map_err(|source| LockError::Directory {
                path: parent.to_path_buf(),
                source,
            })?;
        }
        // A run releasing its lock removes the file; each time that races
        // with this run's attempt, it tries again on the new file. A run
        // lasts far longer than an attempt, so a few tries suffice.
        for _ in 0..100 {
            if let Attempt::Taken(lock, cleared) = Self::attempt(path)? {
                return Ok((lock, cleared));
            }
        }
        Err(LockError::Io {
            path: path.to_path_buf(),
            source: io::Error::other("the lock file keeps being replaced"),
        })
    }

    fn attempt(path: &Path) -> Result<Attempt, LockError> {
        let io_error = |source| LockError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut file = fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(io_error)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                // The holder writes its pid just after locking: give it a
                // moment rather than name no process.
                let mut pid = holder(&mut file);
                for _ in 0..50 {
                    if pid != 0 {
                        break;
                    }
                    std::thread::sleep(std::time::Duration::from_millis(1));
                    pid = holder(&mut file);
                }
                return Err(LockError::Busy {
                    pid,
                    path: path.to_path_buf(),
                });
            }
            Err(TryLockError::Error(e)) => return Err(io_error(e)),
        }
        // Locked, but perhaps a file its holder has just removed while
        // releasing it: the lock is the file at the path, not this one.
        let locked = file.metadata().map_err(io_error)?;
        match fs::metadata(path) {
            Ok(now) if now.dev() == locked.dev() && now.ino() == locked.ino() => {}
            Ok(_) => return Ok(Attempt::Moved),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Attempt::Moved),
            Err(e) => return Err(io_error(e)),
        }
        let left = holder(&mut file);
        let me = std::process::id();
        // A live Marionette run that holds the lock by its pid alone (a
        // version from before the `flock`) still has it.
        if left != 0 && left != me as i32 && alive(left) && is_marionette(left) {
            return Err(LockError::Busy {
                pid: left,
                path: path.to_path_buf(),
            });
        }
        file.set_len(0)
            .and_then(|()| file.rewind())
            .and_then(|()| file.write_all(me.to_string().as_bytes()))
            .map_err(io_error)?;
        let cleared = (left != 0 && left != me as i32).then_some(left);
        Ok(Attempt::Taken(
            RunLock {
                path: path.to_path_buf(),
                file,
            },
            cleared,
        ))
    }
}

impl Drop for RunLock {
    fn drop(&mut self) {
        // Removed while still locked, so a run that opens the path from
        // now on makes a new file, and one that opened this file sees it
        // was removed once it gets the lock; closing the file unlocks it.
        let _ = fs::remove_file(&self.path);
        let _ = self.file.unlock();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `/proc` names the process a Marionette run yet.
    fn is_marionette_now(pid: i32) -> bool {
        fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|c| c.starts_with(b"marionette"))
    }

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
        // Until bash has exec'd, the process is still bash: on a loaded
        // machine that can take longer than any fixed pause.
        for _ in 0..1000 {
            if is_marionette_now(run.id() as i32) {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert!(
            is_marionette_now(run.id() as i32),
            "the stand-in run never exec'd"
        );
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
        // A live process that is not a Marionette run: the lock was left
        // by a killed run whose id was reused.
        let mut other = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .unwrap();
        fs::write(&path, other.id().to_string()).unwrap();
        let taken = RunLock::acquire(&path);
        let _ = other.kill();
        let _ = other.wait();
        let (lock, cleared) = taken.unwrap();
        assert_eq!(cleared, Some(other.id() as i32));
        drop(lock);
        // A lock whose process is gone.
        fs::write(&path, "999999999").unwrap();
        let (lock, cleared) = RunLock::acquire(&path).unwrap();
        assert_eq!(cleared, Some(999_999_999));
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            std::process::id().to_string()
        );
        // Held by a run: a second is refused, naming the holder.
        let busy = RunLock::acquire(&path).unwrap_err();
        assert!(
            matches!(busy, LockError::Busy { pid, .. } if pid == std::process::id() as i32),
            "{busy}"
        );
        drop(lock);
        assert!(!path.exists());
        // A lock file left empty (killed before it wrote its pid).
        fs::write(&path, "").unwrap();
        let (lock, cleared) = RunLock::acquire(&path).unwrap();
        assert_eq!(cleared, None);
        drop(lock);
    }
}

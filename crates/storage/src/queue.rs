//! Commands waiting on disk for the database: one JSON file each, named
//! so that their names sort in the order they came, each written whole
//! (to a temporary name, synced, then renamed) so a crash leaves a
//! command queued or not, never half of one. Commands the store refuses
//! when they are finally run are set aside in `refused/`, for an
//! operator to read.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

use serde_json::{Value, json};

/// A queued command, as `submit` took it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Queued {
    pub(crate) command: String,
    pub(crate) version: u32,
    pub(crate) certname: String,
    pub(crate) payload: Value,
}

#[derive(Debug)]
pub(crate) struct Queue {
    dir: PathBuf,
    /// One drain at a time.
    turn: Mutex<()>,
    count: AtomicUsize,
    sequence: AtomicU64,
}

fn sync_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::File::open(dir)?.sync_all()
}

impl Queue {
    /// The queue in `dir`, with what an earlier process left in it.
    pub(crate) fn open(dir: &Path) -> std::io::Result<Queue> {
        std::fs::create_dir_all(dir.join("refused"))?;
        let queue = Queue {
            dir: dir.to_path_buf(),
            turn: Mutex::new(()),
            count: AtomicUsize::new(0),
            sequence: AtomicU64::new(0),
        };
        queue.count.store(queue.entries()?.len(), Ordering::SeqCst);
        Ok(queue)
    }

    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    pub(crate) fn len(&self) -> usize {
        self.count.load(Ordering::SeqCst)
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, ()> {
        self.turn.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The queued commands' files, oldest first.
    pub(crate) fn entries(&self) -> std::io::Result<Vec<PathBuf>> {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(&self.dir)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        entries.sort();
        Ok(entries)
    }

    /// Writes a command to the queue, durably.
    pub(crate) fn push(&self, queued: &Queued) -> std::io::Result<()> {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let sequence = self.sequence.fetch_add(1, Ordering::SeqCst);
        let name = format!("{nanos:024}-{sequence:08}");
        let document = json!({
            "command": queued.command,
            "version": queued.version,
            "certname": queued.certname,
            "payload": queued.payload,
        });
        let temporary = self.dir.join(format!("{name}.tmp"));
        {
            use std::io::Write;
            let mut file = std::fs::File::create(&temporary)?;
            file.write_all(document.to_string().as_bytes())?;
            file.sync_all()?;
        }
        std::fs::rename(&temporary, self.dir.join(format!("{name}.json")))?;
        sync_dir(&self.dir)?;
        self.count.fetch_add(1, Ordering::SeqCst);
        Ok(())
    }

    /// The command a queued file holds.
    pub(crate) fn read(path: &Path) -> Result<Queued, String> {
        let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
        let document: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
        let text_of = |key: &str| {
            document
                .get(key)
                .and_then(Value::as_str)
                .map(str::to_string)
        };
        Ok(Queued {
            command: text_of("command").ok_or("no command")?,
            version: document
                .get("version")
                .and_then(Value::as_u64)
                .and_then(|v| u32::try_from(v).ok())
                .ok_or("no version")?,
            certname: text_of("certname").unwrap_or_default(),
            payload: document.get("payload").cloned().unwrap_or(Value::Null),
        })
    }

    /// Takes a stored command off the queue.
    pub(crate) fn remove(&self, path: &Path) -> std::io::Result<()> {
        std::fs::remove_file(path)?;
        sync_dir(&self.dir)?;
        self.count.fetch_sub(1, Ordering::SeqCst);
        Ok(())
    }

    /// Sets a refused command aside.
    pub(crate) fn refuse(&self, path: &Path) -> std::io::Result<()> {
        let name = path.file_name().unwrap_or_default();
        std::fs::rename(path, self.dir.join("refused").join(name))?;
        sync_dir(&self.dir)?;
        self.count.fetch_sub(1, Ordering::SeqCst);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(n: u32) -> Queued {
        Queued {
            command: "replace facts".into(),
            version: 5,
            certname: format!("n{n}.example"),
            payload: json!({"certname": format!("n{n}.example"), "values": {"n": n}}),
        }
    }

    #[test]
    fn commands_come_out_in_the_order_they_went_in_and_survive_a_reopening() {
        let dir = tempfile::tempdir().unwrap();
        let queue = Queue::open(dir.path()).unwrap();
        for n in 0..12 {
            queue.push(&command(n)).unwrap();
        }
        assert_eq!(queue.len(), 12);
        drop(queue);
        let queue = Queue::open(dir.path()).unwrap();
        assert_eq!(queue.len(), 12);
        let entries = queue.entries().unwrap();
        let read: Vec<Queued> = entries.iter().map(|e| Queue::read(e).unwrap()).collect();
        assert_eq!(read, (0..12).map(command).collect::<Vec<_>>());
        queue.remove(&entries[0]).unwrap();
        queue.refuse(&entries[1]).unwrap();
        assert_eq!(queue.len(), 10);
        assert_eq!(queue.entries().unwrap().len(), 10);
        assert!(
            dir.path()
                .join("refused")
                .join(entries[1].file_name().unwrap())
                .is_file()
        );
        std::fs::write(dir.path().join("junk.json"), "not json").unwrap();
        assert!(Queue::read(&dir.path().join("junk.json")).is_err());
    }
}

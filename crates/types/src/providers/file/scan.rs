//! A look at every managed file ahead of the transaction, on a second
//! thread.
//!
//! Checking a file costs a few system calls (`lstat`, and `open`/`read`/
//! `close` to checksum its content) and the hashing itself; for a run of
//! thousands of files that is most of the time of a run with nothing to do.
//! When the run anticipates its files (before it orders them), or at the
//! latest when the provider's prefetch starts, a scanner thread walks the run's
//! files from the last back and records what it finds, while the
//! transaction works through them from the first on the main thread,
//! taking each answer that is ready and computing the others itself. Every
//! entry is computed once, by whichever thread gets there first; the
//! scanner stops where the two meet.
//!
//! What the scanner saw is only true until something changes: the answers
//! are used while the run's [`ChangeCount`] has not moved since the scan
//! began and the file provider has not started a change of its own. After
//! that the scan stops and every look goes to the system again, exactly as
//! without it. A noop run, or a run that finds everything in sync, keeps
//! the scan to the end.

use std::cell::RefCell;
use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use marionette_ral::{ChangeCount, Context, Resource};

use crate::types::file::{checksum_type, sum_file};

/// A single file is looked at directly: a thread would cost more than it
/// saves. From two files on, the scan runs (and every test with several
/// files goes through it).
const MIN_FILES: usize = 2;

struct Entry {
    path: PathBuf,
    /// The checksum kind to compute for a regular file, when the resource
    /// manages content.
    checksum: Option<String>,
    seen: OnceLock<Seen>,
}

/// What was at a path. `None` fields were not learned (an error, or not
/// asked for): the caller looks for itself.
#[derive(Default)]
struct Seen {
    meta: Option<Option<fs::Metadata>>,
    /// The checksum kind and the checksum.
    sum: Option<(String, String)>,
}

struct Scan {
    generation: ChangeCount,
    start: u64,
    stopped: AtomicBool,
    index: HashMap<PathBuf, usize>,
    entries: Vec<Entry>,
}

thread_local! {
    /// The scan of the run evaluating on this thread.
    static CURRENT: RefCell<Option<Arc<Scan>>> = const { RefCell::new(None) };
}

impl Scan {
    fn valid(&self) -> bool {
        !self.stopped.load(Ordering::Acquire) && self.generation.current() == self.start
    }

    fn seen(&self, path: &Path) -> Option<&Seen> {
        let entry = &self.entries[*self.index.get(path)?];
        Some(entry.seen.get_or_init(|| observe(entry)))
    }
}

fn observe(entry: &Entry) -> Seen {
    let meta = crate::types::file::stat(&entry.path, false).ok();
    let sum = match (&meta, &entry.checksum) {
        (Some(Some(found)), Some(kind)) if found.file_type().is_file() => {
            sum_file(kind, &entry.path)
                .ok()
                .map(|sum| (kind.clone(), sum))
        }
        _ => None,
    };
    Seen { meta, sum }
}

/// Starts scanning the files of `resources` for the run of `cx`, unless a
/// scan of this run that still holds is under way (started when the run
/// anticipated its files); any other earlier scan on this thread is
/// replaced.
pub(crate) fn start(cx: &Context, resources: &[&Resource]) {
    let running = CURRENT.with(|current| {
        current
            .borrow()
            .as_ref()
            .is_some_and(|scan| scan.generation.same_run(&cx.generation) && scan.valid())
    });
    if running {
        return;
    }
    stop();
    if resources.len() < MIN_FILES {
        return;
    }
    let mut index = HashMap::with_capacity(resources.len());
    let mut entries = Vec::with_capacity(resources.len());
    for resource in resources {
        let path = PathBuf::from(resource.name());
        if index.contains_key(&path) {
            continue;
        }
        let checksum = (resource.is_given("content") || resource.is_given("source"))
            .then(|| checksum_type(resource));
        index.insert(path.clone(), entries.len());
        entries.push(Entry {
            path,
            checksum,
            seen: OnceLock::new(),
        });
    }
    let scan = Arc::new(Scan {
        generation: cx.generation.clone(),
        start: cx.generation.current(),
        stopped: AtomicBool::new(false),
        index,
        entries,
    });
    let worker = scan.clone();
    let spawned = std::thread::Builder::new()
        .name("file-scan".into())
        .spawn(move || {
            // From the last file back, while the transaction goes forward:
            // the two meet once, in the middle. Going the same way, the
            // transaction kept catching up and waiting on the very file the
            // scanner was reading, thousands of times.
            for entry in worker.entries.iter().rev() {
                if !worker.valid() || entry.seen.get().is_some() {
                    return;
                }
                entry.seen.get_or_init(|| observe(entry));
            }
        });
    // Without a thread the scan would only slow the run down.
    if spawned.is_ok() {
        CURRENT.with(|current| *current.borrow_mut() = Some(scan));
    }
}

/// Ends the scan on this thread: the file provider is about to change
/// something, or the run is over.
pub(crate) fn stop() {
    CURRENT.with(|current| {
        if let Some(scan) = current.borrow_mut().take() {
            scan.stopped.store(true, Ordering::Release);
        }
    });
}

fn with_seen<T>(path: &Path, read: impl FnOnce(&Seen) -> Option<T>) -> Option<T> {
    let scan = CURRENT.with(|current| current.borrow().clone())?;
    if !scan.valid() {
        stop();
        return None;
    }
    read(scan.seen(path)?)
}

/// What `lstat` found at `path` when it was scanned, if the scan still
/// holds and covers it.
pub(crate) fn metadata(path: &Path) -> Option<Option<fs::Metadata>> {
    with_seen(path, |seen| seen.meta.clone())
}

/// The checksum of kind `kind` the scan computed for `path`, if any.
pub(crate) fn checksum(path: &Path, kind: &str) -> Option<String> {
    with_seen(path, |seen| {
        seen.sum
            .as_ref()
            .filter(|(computed, _)| computed == kind)
            .map(|(_, sum)| sum.clone())
    })
}

//! A provider framework for things that are records in a text (hosts in
//! `/etc/hosts`, cron jobs in a user's crontab): a [`RecordFormat`] says
//! how records read and write and where the text lives; [`ParsedFile`]
//! turns it into a provider that lists records, compares them and writes
//! the text back, keeping comments, blank lines and lines it does not
//! understand exactly as they were.
//!
//! A record is one line by default; a format whose records span several
//! lines (a cron job with its name comment and environment lines) splits
//! the text itself. The text lives in a file named by the target by
//! default, rewritten atomically; a format whose text is reached through a
//! command (a crontab, read with `crontab -l` and written with `crontab -`)
//! says so by overriding [`RecordFormat::read`] and
//! [`RecordFormat::write`], its targets then naming what the command
//! needs (a user). Records are matched by name within their target.

use std::fs;
use std::io::{self, Write};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;

use marionette_values::Value;

use crate::error::ProviderError;
use crate::provider::{Context, Instance, PropertyHash, PropertyProvider, hash_name};
use crate::resource::Resource;

/// One piece of a text: its lines as they were (joined by newlines, kept
/// verbatim unless its record changes) and the record they hold, if any.
#[derive(Clone, Debug, PartialEq)]
pub struct Chunk {
    pub text: String,
    pub record: Option<PropertyHash>,
}

/// How records look in one kind of text, and where that text lives.
pub trait RecordFormat: Send + Sync {
    /// A record from a line, or `None` for a line that is not one
    /// (comments, blanks, anything else): those are kept verbatim. Used by
    /// the default [`RecordFormat::split`].
    fn parse(&self, line: &str) -> Option<PropertyHash> {
        let _ = line;
        None
    }

    /// The text cut into chunks, each a record or text kept as it is. The
    /// default makes one chunk per line, parsed by [`RecordFormat::parse`];
    /// `target` is where the text came from.
    fn split(&self, target: &str, text: &str) -> Vec<Chunk> {
        let _ = target;
        text.lines()
            .map(|line| Chunk {
                text: line.to_string(),
                record: self.parse(line),
            })
            .collect()
    }

    /// The text of a record, one or several lines (without the final
    /// newline). `record` holds the name and the properties.
    fn render(&self, record: &PropertyHash) -> Result<String, String>;

    /// The target of resources that do not name one, and the one listed.
    fn default_target(&self) -> String;

    /// Where a resource's record lives: its `target`, else the default.
    fn target(&self, resource: &Resource) -> String {
        resource
            .text("target")
            .unwrap_or_else(|| self.default_target())
    }

    /// The targets whose records make the list of instances.
    fn listed_targets(&self, cx: &Context) -> Vec<String> {
        let _ = cx;
        vec![self.default_target()]
    }

    /// Records one changed value: the default sets it. A format where a
    /// value excludes another (a cron job's time fields and its `special`
    /// schedule) clears the other here.
    fn update(&self, record: &mut PropertyHash, key: &str, value: &Value) {
        record.insert(key.to_string(), value.clone());
    }

    /// Whether the text carries Puppet's parsed-file header (three
    /// `# HEADER:` comment lines with the time of writing): Puppet drops
    /// every `# HEADER` comment when it reads a target and writes a fresh
    /// header at the top each time it writes one, and so does the format
    /// that says so.
    fn header(&self) -> bool {
        false
    }

    /// The identity of a resource's record within its target: its name by
    /// default. A type whose identity takes more than the name (a host key
    /// is its host and its key type) says how it is spelled.
    fn identity(&self, resource: &Resource) -> String {
        resource.name()
    }

    /// The identity of a record, spelled as [`RecordFormat::identity`]
    /// spells a resource's: its name by default.
    fn record_identity(&self, record: &PropertyHash) -> Option<String> {
        hash_name(record)
    }

    /// The record a new resource starts from, before its properties: its
    /// name, and whatever else of its identity the format writes.
    fn new_record(&self, resource: &Resource) -> PropertyHash {
        PropertyHash::from([("name".to_string(), Value::String(resource.name().into()))])
    }

    /// Called before a resource's target is written: a format whose files
    /// belong to someone checks and prepares what the writing needs (the
    /// owner, the directory) here.
    fn before_write(&self, resource: &Resource, target: &str) -> Result<(), ProviderError> {
        let _ = (resource, target);
        Ok(())
    }

    /// Called after a resource's target was written, with whether the file
    /// was created by the writing: a format sets the file's mode and owner
    /// here.
    fn after_write(
        &self,
        resource: &Resource,
        target: &str,
        created: bool,
    ) -> Result<(), ProviderError> {
        let _ = (resource, target, created);
        Ok(())
    }

    /// Reads the target's text; `None` when there is none yet. The default
    /// reads the file the target names.
    fn read(&self, cx: &Context, target: &str) -> Result<Option<String>, ProviderError> {
        let _ = cx;
        match fs::read_to_string(target) {
            Ok(text) => Ok(Some(text)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(ProviderError::new(format!("Could not read {target}: {e}"))),
        }
    }

    /// Writes the target's text back. The default replaces the file the
    /// target names atomically.
    fn write(&self, cx: &Context, target: &str, text: &str) -> Result<(), ProviderError> {
        let _ = cx;
        write_atomically_synced_later(Path::new(target), text.as_bytes())
            .map_err(|e| ProviderError::new(format!("Could not write {target}: {e}")))
    }
}

/// Replaces a file atomically: a temporary file beside it with the old
/// file's mode and owner, synced, then renamed over it.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    replace(path, bytes, true)
}

/// The files replaced by [`write_atomically_synced_later`] and not yet
/// synced.
static WRITTEN: std::sync::Mutex<Vec<std::path::PathBuf>> = std::sync::Mutex::new(Vec::new());

/// Replaces a file atomically as [`write_atomically`] does, but leaves
/// syncing it to disk to [`sync_written`], which the end of a session
/// calls. Providers that edit one file resource after resource (a
/// thousand `ini_setting`s in ten files) replace it a hundred times a run;
/// only its last version needs to reach the disk, and syncing each one
/// made such runs wait on the disk for most of their time. Every version
/// replaces the last by renaming, so a reader sees a whole file, old or
/// new, at any moment.
pub fn write_atomically_synced_later(path: &Path, bytes: &[u8]) -> io::Result<()> {
    replace(path, bytes, false)?;
    let mut written = WRITTEN.lock().unwrap_or_else(|e| e.into_inner());
    if !written.iter().any(|p| p == path) {
        written.push(path.to_path_buf());
    }
    Ok(())
}

/// Syncs the files replaced since the last call, and their directories,
/// to disk, each once. Best effort: a file removed since is skipped, and a
/// filesystem that cannot sync a directory is not an error.
pub fn sync_written() {
    let written = std::mem::take(&mut *WRITTEN.lock().unwrap_or_else(|e| e.into_inner()));
    let mut directories: Vec<&Path> = Vec::new();
    for path in &written {
        if let Ok(file) = fs::File::open(path) {
            let _ = file.sync_all();
        }
        if let Some(parent) = path.parent()
            && !directories.contains(&parent)
        {
            directories.push(parent);
        }
    }
    for directory in directories {
        if let Ok(handle) = fs::File::open(directory) {
            let _ = handle.sync_all();
        }
    }
}

/// A file's new content that a provider staged and the session has not
/// written yet, and the resources whose changes it holds.
struct Staged {
    path: std::path::PathBuf,
    bytes: std::sync::Arc<Vec<u8>>,
    version: u64,
    resources: Vec<String>,
}

/// The files staged by providers that edit a file resource after resource
/// (`file_line`, `ini_setting`): their changes are kept here and written
/// once, when the session reaches a resource of another provider or ends
/// (see [`write_staged`]). A run of a thousand settings in ten files then
/// writes ten files, not a thousand, and anything else that looks at a
/// file (an `exec`, a `file`, a service's restart) still sees every change
/// made before it, as with a write per resource.
static STAGED: std::sync::Mutex<Vec<Staged>> = std::sync::Mutex::new(Vec::new());

/// Numbers each staged version, so that parses of it can be kept.
static STAGED_VERSION: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// Stages new content for `path` on behalf of `resource` (its reference),
/// to be written by [`write_staged`].
pub fn stage(path: &Path, bytes: Vec<u8>, resource: &str) {
    let version = STAGED_VERSION.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut staged = STAGED.lock().unwrap_or_else(|e| e.into_inner());
    match staged.iter_mut().find(|s| s.path == path) {
        Some(entry) => {
            entry.bytes = std::sync::Arc::new(bytes);
            entry.version = version;
            if !entry.resources.iter().any(|r| r == resource) {
                entry.resources.push(resource.to_string());
            }
        }
        None => staged.push(Staged {
            path: path.to_path_buf(),
            bytes: std::sync::Arc::new(bytes),
            version,
            resources: vec![resource.to_string()],
        }),
    }
}

/// Stages new content for `path` when writing it later looks certain to
/// work (the file, or for a new file its directory, is writable by us);
/// otherwise writes it now, so that a failure is the resource's own, with
/// the resource's message.
pub fn stage_or_write(path: &Path, bytes: Vec<u8>, resource: &str) -> io::Result<()> {
    if writable(path) {
        stage(path, bytes, resource);
        return Ok(());
    }
    STAGED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .retain(|s| s.path != path);
    write_atomically_synced_later(path, &bytes)
}

/// Whether we may replace `path`: a regular file we can write in a
/// directory we can write, or no file yet in such a directory.
fn writable(path: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let access = |path: &Path, mode: libc::c_int| {
        std::ffi::CString::new(path.as_os_str().as_bytes())
            // SAFETY: a NUL-terminated path that lives across the call.
            .is_ok_and(|c| unsafe { libc::access(c.as_ptr(), mode) } == 0)
    };
    let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) else {
        return false;
    };
    let directory_ok = access(parent, libc::W_OK | libc::X_OK);
    match fs::symlink_metadata(path) {
        Ok(meta) => meta.is_file() && directory_ok && access(path, libc::W_OK),
        Err(e) if e.kind() == io::ErrorKind::NotFound => directory_ok,
        Err(_) => false,
    }
}

/// The content staged for `path`, and its version, if any: what the file
/// holds for the providers that stage.
pub fn staged(path: &Path) -> Option<(std::sync::Arc<Vec<u8>>, u64)> {
    let staged = STAGED.lock().unwrap_or_else(|e| e.into_inner());
    staged
        .iter()
        .find(|s| s.path == path)
        .map(|s| (s.bytes.clone(), s.version))
}

/// Writes every staged file (atomically, synced with the session's other
/// files at its end) and forgets them; a file that cannot be written fails
/// the resources whose changes it held.
pub fn write_staged() -> Vec<crate::provider::DeferredFailure> {
    let staged = std::mem::take(&mut *STAGED.lock().unwrap_or_else(|e| e.into_inner()));
    let mut failures = Vec::new();
    for entry in staged {
        if let Err(e) = write_atomically_synced_later(&entry.path, &entry.bytes) {
            failures.push(crate::provider::DeferredFailure {
                resources: entry.resources,
                message: format!("Could not write {}: {e}", entry.path.display()),
            });
        }
    }
    failures
}

fn replace(path: &Path, bytes: &[u8], sync: bool) -> io::Result<()> {
    let parent = path.parent().unwrap_or(Path::new("/"));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    // A name no one can guess and a file no one else can read until it
    // holds what it should: made new (never through a link planted in the
    // directory), owner-only, then given the old file's mode and owner.
    static COUNT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let unique = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos())
        ^ (COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed) as u32).rotate_left(16);
    let temporary = parent.join(format!(
        ".{name}.marionette-{}-{unique:08x}",
        std::process::id()
    ));
    let result = (|| {
        use std::os::unix::fs::OpenOptionsExt;
        let mut file = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW)
            .open(&temporary)?;
        match fs::metadata(path) {
            Ok(old) => {
                file.set_permissions(fs::Permissions::from_mode(old.mode() & 0o7777))?;
                let _ = std::os::unix::fs::fchown(&file, Some(old.uid()), Some(old.gid()));
            }
            Err(_) => file.set_permissions(fs::Permissions::from_mode(0o644))?,
        }
        file.write_all(bytes)?;
        if sync {
            file.sync_all()?;
        }
        fs::rename(&temporary, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    result
}

/// Drops Puppet's header comments from a text as Puppet's flat file type
/// does when it reads one: each `# HEADER` up to the end of its line.
pub fn strip_header(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("# HEADER") {
        // Only a comment ended by a newline goes, with its newline: text
        // after the last newline stays, as Ruby's `/# HEADER.*\n/` leaves it.
        match rest[at..].find('\n') {
            Some(end) => {
                out.push_str(&rest[..at]);
                rest = &rest[at + end + 1..];
            }
            None => break,
        }
    }
    out.push_str(rest);
    out
}

/// The header Puppet's parsed-file providers write at the top of a file,
/// dated with the local time as Ruby prints it (`2024-05-01 12:34:56
/// +0200`).
pub fn header_text() -> String {
    format!(
        "# HEADER: This file was autogenerated at {}\n\
         # HEADER: by puppet.  While it can still be managed manually, it\n\
         # HEADER: is definitely not recommended.\n",
        local_time_now()
    )
}

/// The local time now as Ruby's `Time#to_s` prints it.
fn local_time_now() -> String {
    // SAFETY: `time` and `localtime_r` are given valid pointers to a local
    // `time_t` and a zeroed `tm`, which localtime_r fills in.
    let local = unsafe {
        let now = libc::time(std::ptr::null_mut());
        let mut local: libc::tm = std::mem::zeroed();
        if libc::localtime_r(&now, &mut local).is_null() {
            return "1970-01-01 00:00:00 +0000".to_string();
        }
        local
    };
    let offset = local.tm_gmtoff / 60;
    let sign = if offset < 0 { '-' } else { '+' };
    format!(
        "{:04}-{:02}-{:02} {:02}:{:02}:{:02} {sign}{:02}{:02}",
        local.tm_year + 1900,
        local.tm_mon + 1,
        local.tm_mday,
        local.tm_hour,
        local.tm_min,
        local.tm_sec,
        offset.abs() / 60,
        offset.abs() % 60
    )
}

/// A provider over a [`RecordFormat`].
pub struct ParsedFile<F> {
    pub format: F,
}

impl<F: RecordFormat> ParsedFile<F> {
    fn chunks(&self, cx: &Context, target: &str) -> Result<Vec<Chunk>, ProviderError> {
        let mut text = self.format.read(cx, target)?.unwrap_or_default();
        if self.format.header() {
            text = strip_header(&text);
        }
        Ok(self.format.split(target, &text))
    }

    fn records(&self, cx: &Context, target: &str) -> Result<Vec<PropertyHash>, ProviderError> {
        Ok(self
            .chunks(cx, target)?
            .into_iter()
            .filter_map(|chunk| {
                let mut record = chunk.record?;
                record.insert("ensure".into(), Value::String("present".into()));
                record.insert("target".into(), Value::String(target.into()));
                Some(record)
            })
            .collect())
    }
}

impl<F: RecordFormat> PropertyProvider for ParsedFile<F> {
    fn instances(&self, cx: &Context) -> Result<Vec<PropertyHash>, ProviderError> {
        let mut found = Vec::new();
        for target in self.format.listed_targets(cx) {
            found.extend(self.records(cx, &target)?);
        }
        Ok(found)
    }

    /// Reads each target once and matches its records by name.
    fn prefetch(&self, cx: &Context, instances: &mut [Instance<'_>]) -> Result<(), ProviderError> {
        let mut targets: Vec<(String, Vec<PropertyHash>)> = Vec::new();
        for instance in instances {
            let target = self.format.target(instance.resource);
            let at = match targets.iter().position(|(seen, _)| *seen == target) {
                Some(at) => at,
                None => {
                    let records = self.records(cx, &target)?;
                    targets.push((target, records));
                    targets.len() - 1
                }
            };
            let name = self.format.identity(instance.resource);
            instance.property_hash = targets[at]
                .1
                .iter()
                .find(|record| {
                    self.format.record_identity(record).as_deref() == Some(name.as_str())
                })
                .cloned()
                .unwrap_or_else(|| {
                    PropertyHash::from([("ensure".to_string(), Value::String("absent".into()))])
                });
        }
        Ok(())
    }

    /// Writes the record: replaced where it was, appended when new,
    /// dropped when absent. Every other chunk stays as it was. The text is
    /// read afresh, so records written earlier in the run are kept.
    fn flush(&self, cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        let target = self.format.target(instance.resource);
        let name = self.format.identity(instance.resource);
        let mut chunks = self.chunks(cx, &target)?;
        let position = chunks.iter().position(|chunk| {
            chunk.record.as_ref().is_some_and(|record| {
                self.format.record_identity(record).as_deref() == Some(name.as_str())
            })
        });
        let rendered = if instance.present_in_hash() {
            let mut record = self.format.new_record(instance.resource);
            // What the system had, overridden by what was set, and for a
            // new record the resource's desired values.
            if let Some(old) = position.and_then(|p| chunks[p].record.as_ref()) {
                for (key, value) in old {
                    record.insert(key.clone(), value.clone());
                }
            } else {
                for (attr, value) in instance.resource.managed_properties() {
                    let value = crate::attribute::sync_value(attr, value);
                    self.format.update(&mut record, &attr.name, &value);
                }
            }
            for (key, value) in &instance.property_hash {
                self.format.update(&mut record, key, value);
            }
            Some(self.format.render(&record).map_err(ProviderError::new)?)
        } else {
            None
        };
        match (position, rendered) {
            (Some(at), Some(text)) => chunks[at].text = text,
            (Some(at), None) => {
                chunks.remove(at);
            }
            (None, Some(text)) => chunks.push(Chunk { text, record: None }),
            (None, None) => return Ok(()),
        }
        let mut out = if self.format.header() {
            header_text()
        } else {
            String::new()
        };
        for chunk in &chunks {
            out.push_str(&chunk.text);
            out.push('\n');
        }
        if chunks.is_empty() {
            // Puppet joins the records and ends the text with a line
            // separator, records or none.
            out.push('\n');
        }
        self.format.before_write(instance.resource, &target)?;
        let created = !Path::new(&target).exists();
        self.format.write(cx, &target, &out)?;
        self.format.after_write(instance.resource, &target, created)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn staged_files_are_read_back_written_once_and_failures_name_their_resources() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mrtest-staged");
        stage_or_write(&path, b"one\n".to_vec(), "File_line[a]").unwrap();
        stage_or_write(&path, b"two\n".to_vec(), "File_line[b]").unwrap();
        assert!(!path.exists(), "staged, not written");
        let (bytes, _) = staged(&path).unwrap();
        assert_eq!(&bytes[..], b"two\n");
        // A directory that is gone by the time the session writes.
        let gone = dir.path().join("gone");
        std::fs::create_dir(&gone).unwrap();
        let lost = gone.join("x");
        stage_or_write(&lost, b"lost\n".to_vec(), "Ini_setting[c]").unwrap();
        std::fs::remove_dir(&gone).unwrap();
        let failures = write_staged();
        assert_eq!(std::fs::read(&path).unwrap(), b"two\n");
        assert_eq!(failures.len(), 1, "{failures:?}");
        assert_eq!(failures[0].resources, ["Ini_setting[c]"]);
        assert!(
            failures[0].message.contains("gone/x"),
            "{}",
            failures[0].message
        );
        assert!(staged(&path).is_none());
        // Where writing cannot work, the write is made at once, and fails
        // as the resource's own.
        let missing = dir.path().join("no-such-dir/x");
        assert!(stage_or_write(&missing, b"x".to_vec(), "File_line[d]").is_err());
        sync_written();
    }
}

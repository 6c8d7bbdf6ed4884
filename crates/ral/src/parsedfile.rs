//! A provider framework for things that are records in a text file (hosts
//! in `/etc/hosts`, cron jobs in a crontab): a [`RecordFormat`] says how
//! one record reads and writes; [`ParsedFile`] turns it into a provider
//! that lists records, compares them and writes the file back, keeping
//! comments, blank lines and lines it does not understand exactly as they
//! were.
//!
//! Records are matched by name. Each change rewrites the file atomically
//! (a temporary file with the old file's mode and owner, renamed over it).

use std::fs;
use std::io::{self, Write};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

use marionette_values::Value;

use crate::error::ProviderError;
use crate::provider::{Context, Instance, PropertyHash, PropertyProvider, hash_name};

/// How records look in one kind of file.
pub trait RecordFormat: Send + Sync {
    /// A record from a line, or `None` for a line that is not one
    /// (comments, blanks, anything else): those are kept verbatim.
    fn parse(&self, line: &str) -> Option<PropertyHash>;

    /// The line of a record. `record` holds the name and the properties.
    fn render(&self, record: &PropertyHash) -> Result<String, String>;

    /// The file records live in when the resource does not say.
    fn default_target(&self) -> PathBuf;

    /// Reads the file's text (a crontab is read through a command);
    /// `None` when it does not exist yet.
    fn read(&self, _cx: &Context, path: &Path) -> Result<Option<String>, ProviderError> {
        match fs::read_to_string(path) {
            Ok(text) => Ok(Some(text)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(ProviderError::new(format!(
                "Could not read {}: {e}",
                path.display()
            ))),
        }
    }

    /// Writes the file's text back.
    fn write(&self, _cx: &Context, path: &Path, text: &str) -> Result<(), ProviderError> {
        write_atomically(path, text.as_bytes())
            .map_err(|e| ProviderError::new(format!("Could not write {}: {e}", path.display())))
    }
}

/// Replaces a file atomically: a temporary file beside it with the old
/// file's mode and owner, synced, then renamed over it.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let parent = path.parent().unwrap_or(Path::new("/"));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temporary = parent.join(format!(".{name}.marionette-{}", std::process::id()));
    let result = (|| {
        let mut file = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temporary)?;
        match fs::metadata(path) {
            Ok(old) => {
                file.set_permissions(fs::Permissions::from_mode(old.mode() & 0o7777))?;
                let _ = std::os::unix::fs::fchown(&file, Some(old.uid()), Some(old.gid()));
            }
            Err(_) => file.set_permissions(fs::Permissions::from_mode(0o644))?,
        }
        file.write_all(bytes)?;
        file.sync_all()?;
        fs::rename(&temporary, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    result
}

/// One line of a parsed file: its text, kept as it was unless its record
/// changes, and the record it holds, if any.
struct Line {
    text: String,
    record: Option<PropertyHash>,
}

fn parse_lines(format: &dyn RecordFormat, text: &str) -> Vec<Line> {
    text.lines()
        .map(|line| Line {
            text: line.to_string(),
            record: format.parse(line),
        })
        .collect()
}

/// A provider over a [`RecordFormat`].
pub struct ParsedFile<F> {
    pub format: F,
}

impl<F: RecordFormat> ParsedFile<F> {
    fn target(&self, instance: &Instance<'_>) -> PathBuf {
        instance
            .resource
            .text("target")
            .map(PathBuf::from)
            .unwrap_or_else(|| self.format.default_target())
    }

    fn records(&self, cx: &Context, path: &Path) -> Result<Vec<PropertyHash>, ProviderError> {
        let text = self.format.read(cx, path)?.unwrap_or_default();
        Ok(parse_lines(&self.format, &text)
            .into_iter()
            .filter_map(|line| {
                let mut record = line.record?;
                record.insert("ensure".into(), Value::String("present".into()));
                record.insert(
                    "target".into(),
                    Value::String(path.display().to_string().into()),
                );
                Some(record)
            })
            .collect())
    }
}

impl<F: RecordFormat> PropertyProvider for ParsedFile<F> {
    fn instances(&self, cx: &Context) -> Result<Vec<PropertyHash>, ProviderError> {
        self.records(cx, &self.format.default_target())
    }

    /// Reads each target file once and matches its records by name.
    fn prefetch(&self, cx: &Context, instances: &mut [Instance<'_>]) -> Result<(), ProviderError> {
        let mut files: Vec<(PathBuf, Vec<PropertyHash>)> = Vec::new();
        for instance in instances {
            let target = self.target(instance);
            if !files.iter().any(|(path, _)| *path == target) {
                let records = self.records(cx, &target)?;
                files.push((target.clone(), records));
            }
            let records = &files
                .iter()
                .find(|(path, _)| *path == target)
                .expect("read above")
                .1;
            instance.property_hash = records
                .iter()
                .find(|record| {
                    hash_name(record).as_deref() == Some(instance.resource.name().as_str())
                })
                .cloned()
                .unwrap_or_else(|| {
                    PropertyHash::from([("ensure".to_string(), Value::String("absent".into()))])
                });
        }
        Ok(())
    }

    /// Writes the record's line: replaced where it was, appended when new,
    /// dropped when absent. Every other line stays as it was.
    fn flush(&self, cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        let target = self.target(instance);
        let name = instance.resource.name();
        let text = self.format.read(cx, &target)?.unwrap_or_default();
        let mut lines = parse_lines(&self.format, &text);
        let position = lines.iter().position(|line| {
            line.record
                .as_ref()
                .is_some_and(|record| hash_name(record).as_deref() == Some(name.as_str()))
        });
        let rendered = if instance.present_in_hash() {
            let mut record = PropertyHash::new();
            record.insert("name".into(), Value::String(name.as_str().into()));
            // What the system had, overridden by what was set, and for a
            // new record the resource's desired values.
            if let Some(old) = position.and_then(|p| lines[p].record.as_ref()) {
                for (key, value) in old {
                    record.insert(key.clone(), value.clone());
                }
            } else {
                for (attr, value) in instance.resource.managed_properties() {
                    record.insert(attr.name.clone(), crate::attribute::sync_value(attr, value));
                }
            }
            for (key, value) in &instance.property_hash {
                record.insert(key.clone(), value.clone());
            }
            Some(self.format.render(&record).map_err(ProviderError::new)?)
        } else {
            None
        };
        match (position, rendered) {
            (Some(at), Some(text)) => lines[at].text = text,
            (Some(at), None) => {
                lines.remove(at);
            }
            (None, Some(text)) => lines.push(Line { text, record: None }),
            (None, None) => return Ok(()),
        }
        let mut out = String::new();
        for line in &lines {
            out.push_str(&line.text);
            out.push('\n');
        }
        self.format.write(cx, &target, &out)
    }
}

//! `mount` as lines of a Linux mount table, through the parsed-file
//! framework: `DEVICE<TAB>NAME<TAB>FSTYPE<TAB>OPTIONS<TAB>DUMP<TAB>PASS`,
//! with whether each entry is mounted read from the `mount` command, as
//! mount_core's `parsed` provider does.
//!
//! Puppet rewrites the whole table whenever it writes it: every entry is
//! rendered again with tabs, the lines that are not entries (comments,
//! blanks, lines with fewer than two fields) are kept, and its header comes
//! first with the time of writing. Reading drops earlier headers.

use marionette_ral::attribute::{insync, sync_value, value_text};
use marionette_ral::parsedfile::{Chunk, ParsedFile, RecordFormat, write_atomically};
use marionette_ral::{
    Context, Instance, Level, PropertyHash, PropertyProvider, ProviderDef, ProviderError,
};
use marionette_values::Value;

use crate::types::mount::strip_trailing_slashes;

/// The fields of a Linux entry, in order.
const FIELDS: [&str; 6] = ["device", "name", "fstype", "options", "dump", "pass"];

struct Fstab;

fn text(value: &str) -> Value {
    Value::String(value.into())
}

/// Whether a record's value is missing as Puppet's `join` sees it.
fn is_absent(value: Option<&Value>) -> bool {
    match value {
        None | Some(Value::Undef) => true,
        Some(value) => value_text(value) == "absent",
    }
}

impl RecordFormat for Fstab {
    /// An entry needs a device and a mount point; the other fields are
    /// optional and missing ones read as absent. `\040` in the device and
    /// the mount point stands for a space.
    fn parse(&self, line: &str) -> Option<PropertyHash> {
        if line.trim_start().starts_with('#') {
            return None;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.len() < 2 {
            return None;
        }
        let mut record = PropertyHash::new();
        for (at, field) in FIELDS.iter().enumerate() {
            let value = match words.get(at) {
                Some(word) if matches!(*field, "device" | "name") => word.replace("\\040", " "),
                Some(word) => word.to_string(),
                None => "absent".to_string(),
            };
            let value = if *field == "name" {
                strip_trailing_slashes(&value).to_string()
            } else {
                value
            };
            record.insert(field.to_string(), text(&value));
        }
        Some(record)
    }

    /// Every entry is rendered again whenever the table is written, as
    /// Puppet's whole-file rewrite does: splitting stores each entry's
    /// rendering as its text.
    fn split(&self, _target: &str, text: &str) -> Vec<Chunk> {
        text.lines()
            .map(|line| {
                let record = self.parse(line);
                let rendered = record.as_ref().and_then(|r| self.render(r).ok());
                Chunk {
                    text: rendered.unwrap_or_else(|| line.to_string()),
                    record,
                }
            })
            .collect()
    }

    /// Options default to `defaults` (Linux's `pre_gen`); a missing fstype
    /// is an error; absent optional fields are written empty.
    fn render(&self, record: &PropertyHash) -> Result<String, String> {
        let name = record.get("name").map(value_text).unwrap_or_default();
        let mut fields = Vec::with_capacity(FIELDS.len());
        for field in FIELDS {
            let value = record.get(field);
            let rendered = match field {
                "options"
                    if value.is_none_or(|v| *v == Value::Undef || value_text(v).is_empty()) =>
                {
                    "defaults".to_string()
                }
                "fstype"
                    if value.is_none_or(|v| *v == Value::Undef || value_text(v).is_empty()) =>
                {
                    return Err(format!("Mount[{name}]: Field 'fstype' is required"));
                }
                "device" | "name" if is_absent(value) => {
                    return Err(format!("Field '{field}' is required"));
                }
                _ if is_absent(value) => String::new(),
                "device" | "name" => value
                    .map(value_text)
                    .unwrap_or_default()
                    .replace(' ', "\\040"),
                _ => value.map(value_text).unwrap_or_default(),
            };
            fields.push(rendered);
        }
        Ok(fields.join("\t"))
    }

    fn default_target(&self) -> String {
        "/etc/fstab".to_string()
    }

    /// Puppet's file type drops every `# HEADER` comment it reads (to the
    /// end of its line, wherever it starts), so that the header it writes is
    /// not repeated.
    fn read(&self, _cx: &Context, target: &str) -> Result<Option<String>, ProviderError> {
        match std::fs::read_to_string(target) {
            Ok(text) => Ok(Some(drop_headers(&text))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(ProviderError::new(format!("Could not read {target}: {e}"))),
        }
    }

    fn write(&self, _cx: &Context, target: &str, text: &str) -> Result<(), ProviderError> {
        let content = format!("{}{text}", header());
        write_atomically(std::path::Path::new(target), content.as_bytes())
            .map_err(|e| ProviderError::new(format!("Could not write {target}: {e}")))
    }
}

/// Ruby's `gsub(/# HEADER.*\n/, '')`.
fn drop_headers(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("# HEADER") {
        out.push_str(&rest[..at]);
        match rest[at..].find('\n') {
            Some(end) => rest = &rest[at + end + 1..],
            None => {
                // Without a newline after it, Ruby's pattern does not match.
                out.push_str(&rest[at..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// Puppet's parsed-file header, with the local time as Ruby prints it.
fn header() -> String {
    format!(
        "# HEADER: This file was autogenerated at {}\n# HEADER: by puppet.  While it can still be managed manually, it\n# HEADER: is definitely not recommended.\n",
        local_time()
    )
}

/// Now, as Ruby's `Time.now.to_s`: `2024-05-01 12:34:56 +0200`.
fn local_time() -> String {
    let mut buffer = [0u8; 64];
    // SAFETY: time and localtime_r are given valid pointers; strftime
    // writes at most the buffer's length and returns how much it wrote.
    let written = unsafe {
        let now = libc::time(std::ptr::null_mut());
        let mut local: libc::tm = std::mem::zeroed();
        if libc::localtime_r(&now, &mut local).is_null() {
            return String::new();
        }
        libc::strftime(
            buffer.as_mut_ptr().cast(),
            buffer.len(),
            c"%Y-%m-%d %H:%M:%S %z".as_ptr(),
            &local,
        )
    };
    String::from_utf8_lossy(&buffer[..written]).into_owned()
}

/// The mount points the `mount` command lists (`DEVICE on POINT type ...`).
fn mounted(cx: &Context) -> Result<Vec<String>, ProviderError> {
    let output = cx.output(&["mount"])?;
    output
        .lines()
        .map(|line| {
            line.split_once(" on ")
                .and_then(|(_, rest)| rest.rsplit_once(" type "))
                .map(|(point, _)| point.to_string())
                .ok_or_else(|| {
                    ProviderError::new(format!(
                        "Could not understand line {line} from mount output"
                    ))
                })
        })
        .collect()
}

fn ensure_of(instance: &Instance<'_>) -> String {
    instance
        .property_hash
        .get("ensure")
        .map(value_text)
        .unwrap_or_else(|| "absent".into())
}

fn set_ensure(instance: &mut Instance<'_>, value: &str) {
    instance.property_hash.insert("ensure".into(), text(value));
}

/// The table's provider with the mount state on top of it.
struct Mount {
    table: ParsedFile<Fstab>,
}

impl Mount {
    fn is_mounted(instance: &Instance<'_>) -> bool {
        matches!(ensure_of(instance).as_str(), "mounted" | "ghost")
    }

    fn mount(&self, cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        cx.output(&["mount", instance.resource.name().as_str()])?;
        match ensure_of(instance).as_str() {
            "absent" => set_ensure(instance, "ghost"),
            "unmounted" => set_ensure(instance, "mounted"),
            _ => {}
        }
        Ok(())
    }

    fn unmount(&self, cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        cx.output(&["umount", instance.resource.name().as_str()])?;
        match ensure_of(instance).as_str() {
            "mounted" => set_ensure(instance, "unmounted"),
            "ghost" => set_ensure(instance, "absent"),
            _ => {}
        }
        Ok(())
    }

    /// Records the entry with the resource's values (Puppet's `create`):
    /// flushing then writes it.
    fn create_entry(instance: &mut Instance<'_>) {
        for (attr, value) in instance.resource.managed_properties() {
            if attr.name != "ensure" {
                instance
                    .property_hash
                    .insert(attr.name.clone(), sync_value(attr, value));
            }
        }
    }

    /// Puppet's `syncothers`: the other properties out of sync are set
    /// without events of their own, and written when any was.
    fn sync_others(&self, cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        let resource = instance.resource;
        let mut changed = false;
        for (attr, desired) in resource.managed_properties() {
            if attr.name == "ensure" {
                continue;
            }
            let current = instance
                .property_hash
                .get(&attr.name)
                .cloned()
                .unwrap_or_else(|| text("absent"));
            if !insync(attr, resource, &current, desired) {
                instance
                    .property_hash
                    .insert(attr.name.clone(), sync_value(attr, desired));
                changed = true;
            }
        }
        if changed {
            self.table.flush(cx, instance)?;
        }
        Ok(())
    }
}

impl PropertyProvider for Mount {
    /// The table's entries, unmounted unless the `mount` command lists
    /// them, and the mounted file systems the table lacks (`ghost`).
    fn instances(&self, cx: &Context) -> Result<Vec<PropertyHash>, ProviderError> {
        let mut found = self.table.instances(cx)?;
        let mut points = mounted(cx)?;
        for record in &mut found {
            let name = record.get("name").map(value_text).unwrap_or_default();
            let state = match points.iter().position(|p| *p == name) {
                Some(at) => {
                    points.remove(at);
                    "mounted"
                }
                None => "unmounted",
            };
            record.insert("ensure".into(), text(state));
        }
        for point in points {
            found.push(PropertyHash::from([
                ("name".to_string(), text(&point)),
                ("ensure".to_string(), text("ghost")),
            ]));
        }
        Ok(found)
    }

    fn prefetch(&self, cx: &Context, instances: &mut [Instance<'_>]) -> Result<(), ProviderError> {
        self.table.prefetch(cx, instances)?;
        let points = mounted(cx)?;
        for instance in instances {
            let is_mounted = points.contains(&instance.resource.name());
            let state = match (ensure_of(instance).as_str(), is_mounted) {
                ("absent", true) => "ghost",
                ("absent", false) => "absent",
                (_, true) => "mounted",
                (_, false) => "unmounted",
            };
            set_ensure(instance, state);
        }
        Ok(())
    }

    fn get(
        &self,
        _cx: &Context,
        instance: &Instance<'_>,
        attr: &str,
    ) -> Result<Option<Value>, ProviderError> {
        if attr == "ensure" {
            return Ok(Some(text(&ensure_of(instance))));
        }
        Ok(instance.property_hash.get(attr).cloned())
    }

    fn exists(&self, _cx: &Context, instance: &Instance<'_>) -> Result<bool, ProviderError> {
        Ok(!matches!(ensure_of(instance).as_str(), "absent" | "ghost"))
    }

    /// `ensure => absent`: unmounted if mounted, and the entry removed
    /// unless there was none.
    fn destroy(&self, cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        let was = ensure_of(instance);
        if Self::is_mounted(instance) {
            self.unmount(cx, instance)?;
        }
        if was != "ghost" {
            set_ensure(instance, "absent");
        }
        Ok(())
    }

    /// Property changes are recorded for `flush`; `ensure` other than
    /// `absent` follows the mount type's own ensure property.
    fn set(
        &self,
        cx: &Context,
        instance: &mut Instance<'_>,
        attr: &str,
        value: &Value,
    ) -> Result<(), ProviderError> {
        if attr != "ensure" {
            instance
                .property_hash
                .insert(attr.to_string(), value.clone());
            return Ok(());
        }
        let current = ensure_of(instance);
        match value_text(value).as_str() {
            "defined" => {
                Self::create_entry(instance);
                let state = if current == "ghost" {
                    "mounted"
                } else {
                    "unmounted"
                };
                set_ensure(instance, state);
            }
            "unmounted" => match current.as_str() {
                "ghost" => {
                    Self::create_entry(instance);
                    set_ensure(instance, "mounted");
                    self.table.flush(cx, instance)?;
                    self.unmount(cx, instance)?;
                }
                "absent" => {
                    Self::create_entry(instance);
                    set_ensure(instance, "unmounted");
                }
                "mounted" => {
                    self.unmount(cx, instance)?;
                    self.sync_others(cx, instance)?;
                }
                other => {
                    return Err(ProviderError::new(format!(
                        "Unexpected change from {other} to unmounted"
                    )));
                }
            },
            "mounted" => {
                let was_mounted = Self::is_mounted(instance);
                if matches!(current.as_str(), "absent" | "ghost") {
                    Self::create_entry(instance);
                    set_ensure(instance, if was_mounted { "mounted" } else { "unmounted" });
                }
                self.sync_others(cx, instance)?;
                if !was_mounted {
                    instance
                        .property_hash
                        .insert("needs_mount".into(), Value::Boolean(true));
                }
            }
            other => {
                return Err(ProviderError::new(format!("Invalid value {other:?}")));
            }
        }
        Ok(())
    }

    /// Writes the table, then mounts when `ensure => mounted` asked for it.
    fn flush(&self, cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        let needs_mount = instance.property_hash.shift_remove("needs_mount").is_some();
        self.table.flush(cx, instance)?;
        if needs_mount {
            self.mount(cx, instance)?;
        }
        Ok(())
    }

    /// Remounts a mounted file system that is not swap: with `mount -o
    /// remount` when `remounts` is true, else by unmounting and mounting.
    fn refresh(&self, cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        let swap = instance
            .resource
            .get("fstype")
            .is_some_and(|fstype| value_text(fstype) == "swap");
        if swap || !Self::is_mounted(instance) {
            return Ok(());
        }
        let source = format!("{}(provider=parsed)", instance.resource.reference());
        cx.logger.log(Level::Info, &source, "Remounting");
        let remounts = instance
            .resource
            .get("remounts")
            .is_none_or(|v| value_text(v) == "true");
        if remounts {
            cx.output(&["mount", "-o", "remount", instance.resource.name().as_str()])?;
            Ok(())
        } else {
            self.unmount(cx, instance)?;
            self.mount(cx, instance)
        }
    }
}

pub fn definition() -> ProviderDef {
    ProviderDef::properties(
        "mount",
        "parsed",
        Mount {
            table: ParsedFile { format: Fstab },
        },
    )
    .doc(
        "Reads and writes the mount table directly, and mounts and unmounts
            with the `mount` and `umount` commands.",
    )
    .command("mountcmd", "mount")
    .command("umount", "umount")
    .has_features(&["refreshable"])
    .confine(marionette_ral::Confine::Feature("posix".into()))
}

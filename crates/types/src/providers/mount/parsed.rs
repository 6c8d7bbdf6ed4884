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
use marionette_ral::parsedfile::{Chunk, ParsedFile, RecordFormat};
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

    /// Puppet's header goes at the top whenever the table is written, and
    /// earlier ones are dropped when it is read.
    fn header(&self) -> bool {
        true
    }
}

/// A command as Puppet's `commands` runs it: by its full path when it is
/// found (errors name it so: `Execution of '/usr/bin/mount ...'`).
fn command(name: &str) -> String {
    marionette_ral::command::which(name)
        .map_or_else(|| name.to_string(), |path| path.display().to_string())
}

/// The mount points the `mount` command lists (`DEVICE on POINT type ...`).
fn mounted(cx: &Context) -> Result<Vec<String>, ProviderError> {
    let output = cx.output(&[command("mount")])?;
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
        cx.output(&[command("mount"), instance.resource.name()])?;
        match ensure_of(instance).as_str() {
            "absent" => set_ensure(instance, "ghost"),
            "unmounted" => set_ensure(instance, "mounted"),
            _ => {}
        }
        Ok(())
    }

    fn unmount(&self, cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        cx.output(&[command("umount"), instance.resource.name()])?;
        match ensure_of(instance).as_str() {
            "mounted" => set_ensure(instance, "unmounted"),
            "ghost" => set_ensure(instance, "absent"),
            _ => {}
        }
        Ok(())
    }

    /// Records the entry with the resource's values (Puppet's `create`):
    /// flushing then writes it. As in Puppet, `ensure` too takes the
    /// value asked for, so that a file system just `defined` does not count
    /// as mounted when it is refreshed, even when it was (a ghost).
    fn create_entry(instance: &mut Instance<'_>) {
        for (attr, value) in instance.resource.managed_properties() {
            instance
                .property_hash
                .insert(attr.name.clone(), sync_value(attr, value));
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
            "defined" => Self::create_entry(instance),
            "unmounted" => match current.as_str() {
                "ghost" => {
                    Self::create_entry(instance);
                    self.table.flush(cx, instance)?;
                    self.unmount(cx, instance)?;
                }
                "absent" => Self::create_entry(instance),
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
            cx.output(&[
                command("mount"),
                "-o".into(),
                "remount".into(),
                instance.resource.name(),
            ])?;
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

#[cfg(test)]
mod tests {
    use super::*;

    fn record(pairs: &[(&str, &str)]) -> PropertyHash {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), text(v)))
            .collect()
    }

    #[test]
    fn entries_read_with_spaces_decoded_and_missing_fields_absent() {
        let entry = Fstab
            .parse("server:/share\\040a  /mnt/with\\040space/\tnfs ro,soft 0 2")
            .unwrap();
        assert_eq!(
            entry,
            record(&[
                ("device", "server:/share a"),
                ("name", "/mnt/with space"),
                ("fstype", "nfs"),
                ("options", "ro,soft"),
                ("dump", "0"),
                ("pass", "2"),
            ])
        );
        let short = Fstab.parse("proc /proc proc").unwrap();
        assert_eq!(short.get("options"), Some(&text("absent")));
        assert_eq!(short.get("pass"), Some(&text("absent")));
        // Comments and lines with fewer than two fields are kept as text.
        assert_eq!(Fstab.parse("  # /etc/fstab"), None);
        assert_eq!(Fstab.parse("lonely"), None);
        assert_eq!(Fstab.parse(""), None);
    }

    #[test]
    fn entries_are_written_with_tabs_and_linux_defaults() {
        let entry = record(&[
            ("device", "server:/share a"),
            ("name", "/mnt/with space"),
            ("fstype", "nfs"),
            ("dump", "0"),
            ("pass", "absent"),
        ]);
        assert_eq!(
            Fstab.render(&entry).unwrap(),
            "server:/share\\040a\t/mnt/with\\040space\tnfs\tdefaults\t0\t"
        );
        let no_type = record(&[("device", "/dev/sdz1"), ("name", "/mnt")]);
        assert_eq!(
            Fstab.render(&no_type),
            Err("Mount[/mnt]: Field 'fstype' is required".to_string())
        );
    }

    #[test]
    fn mount_points_lose_their_trailing_slashes_but_the_root_stays() {
        assert_eq!(strip_trailing_slashes("/"), "/");
        assert_eq!(strip_trailing_slashes("//"), "/");
        assert_eq!(strip_trailing_slashes("/srv/data//"), "/srv/data");
        assert_eq!(strip_trailing_slashes("/srv/data"), "/srv/data");
    }
}

//! `mountpoints` (`/proc/self/mounts` and `statvfs`), `disks` and
//! `partitions` (`/sys/block`, with file system labels and UUIDs from the
//! udev database or `/dev/disk/by-*` where Facter runs `blkid` and `lsblk`),
//! and `filesystems` (`/proc/filesystems`).

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::{Facts, Probe, object, text};
use crate::units::{bytes_to_human, mount_capacity};

/// One line of the mount table.
pub(crate) struct Mount {
    pub(crate) device: String,
    pub(crate) filesystem: String,
    pub(crate) path: String,
    pub(crate) options: Vec<String>,
}

/// Undoes the octal escapes of the mount table (`\040` for a space).
fn unescape_mount_field(field: &str) -> String {
    let bytes = field.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        if bytes[index] == b'\\'
            && index + 3 < bytes.len()
            && bytes[index + 1..index + 4]
                .iter()
                .all(|b| (b'0'..=b'7').contains(b))
        {
            let value = (bytes[index + 1] - b'0') as u32 * 64
                + (bytes[index + 2] - b'0') as u32 * 8
                + (bytes[index + 3] - b'0') as u32;
            out.push(value as u8);
            index += 4;
        } else {
            out.push(bytes[index]);
            index += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The device named by `root=` on the kernel command line, which the mount
/// table shows as `/dev/root`. `root=UUID=...` and the like are looked up in
/// `/dev/disk/by-*`, where Facter asks `blkid`.
fn root_device(probe: &Probe<'_>) -> Option<String> {
    let cmdline = probe.read("/proc/cmdline")?;
    let root = cmdline
        .split_whitespace()
        .find_map(|word| word.strip_prefix("root="))?
        .to_string();
    let Some((kind, value)) = root.split_once('=') else {
        return Some(root);
    };
    let directory = match kind {
        "PARTUUID" => "/dev/disk/by-partuuid",
        "UUID" => "/dev/disk/by-uuid",
        "LABEL" => "/dev/disk/by-label",
        "PARTLABEL" => "/dev/disk/by-partlabel",
        _ => return Some(root.clone()),
    };
    let target = probe
        .system
        .root
        .read_link(&format!("{directory}/{value}"))?;
    let name = target.file_name()?.to_str()?;
    Some(format!("/dev/{name}"))
}

pub(crate) fn read_mounts(probe: &Probe<'_>) -> Vec<Mount> {
    // Facter's mount table library reads /etc/mtab first (a link to
    // /proc/self/mounts on current systems, a file of its own on old ones).
    let text = probe
        .read("/etc/mtab")
        .or_else(|| probe.read("/proc/mounts"))
        .or_else(|| probe.read("/proc/self/mounts"))
        .unwrap_or_default();
    let mut root_device_cache: Option<Option<String>> = None;
    text.lines()
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            if fields.len() < 4 {
                return None;
            }
            let mut device = unescape_mount_field(fields[0]);
            if device == "/dev/root"
                && let Some(root) = root_device_cache
                    .get_or_insert_with(|| root_device(probe))
                    .clone()
            {
                device = root;
            }
            Some(Mount {
                device,
                path: unescape_mount_field(fields[1]),
                filesystem: unescape_mount_field(fields[2]),
                options: unescape_mount_field(fields[3])
                    .split(',')
                    .map(|option| option.trim().to_string())
                    .collect(),
            })
        })
        .collect()
}

pub(crate) fn collect_mountpoints(probe: &Probe<'_>, facts: &mut Facts) {
    let mut mountpoints = Map::new();
    for mount in probe.mounts() {
        // Facter skips the kernel's virtual file systems under /proc and
        // /sys (but not tmpfs ones) and automounter placeholders.
        let under_proc_or_sys = mount.path.starts_with("/proc") || mount.path.starts_with("/sys");
        if (under_proc_or_sys && mount.filesystem != "tmpfs") || mount.filesystem == "autofs" {
            continue;
        }
        let usage = probe
            .system
            .filesystem_usage(&mount.path)
            .unwrap_or_default();
        let size = usage.total;
        let available = usage.available;
        let used = usage.total.saturating_sub(usage.free);
        let entry = json!({
            "available": bytes_to_human(available),
            "available_bytes": available,
            "capacity": mount_capacity(used, used + available),
            "device": mount.device,
            "filesystem": mount.filesystem,
            "options": mount.options,
            "size": bytes_to_human(size),
            "size_bytes": size,
            "used": bytes_to_human(used),
            "used_bytes": used,
        });
        // A path mounted twice keeps its last mount, as in Facter's hash.
        mountpoints.insert(mount.path.clone(), entry);
    }
    if !mountpoints.is_empty() {
        facts.set("mountpoints", Value::Object(mountpoints));
    }
}

/// The properties udev recorded for a block device (`E:` lines of
/// `/run/udev/data/bMAJOR:MINOR`), found by the `dev` file of its sysfs
/// directory.
fn udev_properties(probe: &Probe<'_>, sysfs_directory: &str) -> BTreeMap<String, String> {
    let Some(numbers) = probe.read_trimmed(&format!("{sysfs_directory}/dev")) else {
        return BTreeMap::new();
    };
    let Some(data) = probe.read(&format!("/run/udev/data/b{numbers}")) else {
        return BTreeMap::new();
    };
    data.lines()
        .filter_map(|line| line.strip_prefix("E:"))
        .filter_map(|line| line.split_once('='))
        .map(|(key, value)| (key.to_string(), value.to_string()))
        .collect()
}

/// Undoes udev's `\xNN` escapes (in `ID_FS_LABEL_ENC` and `/dev/disk/by-label`
/// names).
fn unescape_udev(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        if bytes[index] == b'\\'
            && bytes.get(index + 1) == Some(&b'x')
            && let Some(hex) = text.get(index + 2..index + 4)
            && let Ok(value) = u8::from_str_radix(hex, 16)
        {
            out.push(value);
            index += 4;
        } else {
            out.push(bytes[index]);
            index += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// File system type, UUID and label, partition UUID and label of a block
/// device: what Facter gets from `blkid`.
struct BlockIds {
    filesystem: Option<String>,
    uuid: Option<String>,
    label: Option<String>,
    partuuid: Option<String>,
    partlabel: Option<String>,
}

fn block_ids(probe: &Probe<'_>, sysfs_directory: &str, name: &str) -> BlockIds {
    let udev = udev_properties(probe, sysfs_directory);
    let get = |key: &str| udev.get(key).filter(|value| !value.is_empty()).cloned();
    let mut ids = BlockIds {
        filesystem: get("ID_FS_TYPE"),
        uuid: get("ID_FS_UUID"),
        label: get("ID_FS_LABEL_ENC")
            .map(|label| unescape_udev(&label))
            .or_else(|| get("ID_FS_LABEL")),
        partuuid: get("ID_PART_ENTRY_UUID"),
        partlabel: get("ID_PART_ENTRY_NAME").map(|label| unescape_udev(&label)),
    };
    // Without a udev database, the /dev/disk/by-* links still name most of
    // it (all but the file system type).
    let root = &probe.system.root;
    let from_links = |directory: &str, slot: &mut Option<String>| {
        if slot.is_some() {
            return;
        }
        for entry in root.read_dir(directory) {
            let target = root.read_link(&format!("{directory}/{entry}"));
            if target
                .as_ref()
                .and_then(|target| target.file_name())
                .is_some_and(|target| target == name)
            {
                *slot = Some(unescape_udev(&entry));
                return;
            }
        }
    };
    from_links("/dev/disk/by-uuid", &mut ids.uuid);
    from_links("/dev/disk/by-label", &mut ids.label);
    from_links("/dev/disk/by-partuuid", &mut ids.partuuid);
    from_links("/dev/disk/by-partlabel", &mut ids.partlabel);
    ids
}

fn size_of(probe: &Probe<'_>, sysfs_directory: &str) -> u64 {
    probe
        .read_trimmed(&format!("{sysfs_directory}/size"))
        .and_then(|sectors| sectors.parse::<u64>().ok())
        .unwrap_or(0)
        * 512
}

pub(crate) fn collect_disks(probe: &Probe<'_>, facts: &mut Facts) {
    let root = &probe.system.root;
    let mut disks = Map::new();
    let mut names = Vec::new();
    for name in root.read_dir("/sys/block") {
        let base = format!("/sys/block/{name}");
        if !root.exists(&format!("{base}/device")) {
            continue;
        }
        let size = size_of(probe, &base);
        let udev = udev_properties(probe, &base);
        let serial = udev
            .get("ID_SERIAL_SHORT")
            .cloned()
            .or_else(|| probe.read_trimmed(&format!("{base}/device/serial")));
        let wwn = udev
            .get("ID_WWN_WITH_EXTENSION")
            .or_else(|| udev.get("ID_WWN"))
            .cloned()
            .or_else(|| probe.read_trimmed(&format!("{base}/device/wwid")));
        let model = probe.read_trimmed(&format!("{base}/device/model"));
        let vendor = probe.read_trimmed(&format!("{base}/device/vendor"));
        let kind = probe
            .read_trimmed(&format!("{base}/queue/rotational"))
            .map(|rotational| if rotational == "0" { "ssd" } else { "hdd" });
        let has_size = probe.read(&format!("{base}/size")).is_some();
        facts.legacy(&format!("blockdevice_{name}_model"), text(model.clone()));
        if has_size {
            facts.legacy(&format!("blockdevice_{name}_size"), json!(size));
        }
        facts.legacy(&format!("blockdevice_{name}_vendor"), text(vendor.clone()));
        let entry = object([
            ("model", text(model)),
            ("serial", text(serial.filter(|s| !s.is_empty()))),
            ("size", has_size.then(|| json!(bytes_to_human(size)))),
            ("size_bytes", has_size.then(|| json!(size))),
            ("type", text(kind)),
            ("vendor", text(vendor)),
            ("wwn", text(wwn.filter(|w| !w.is_empty()))),
        ]);
        disks.insert(name.clone(), entry.unwrap_or_else(|| json!({})));
        names.push(name);
    }
    if !disks.is_empty() {
        facts.legacy("blockdevices", json!(names.join(",")));
        facts.set("disks", Value::Object(disks));
    }
}

pub(crate) fn collect_partitions(probe: &Probe<'_>, facts: &mut Facts) {
    let root = &probe.system.root;
    let mut partitions = Map::new();
    let mut add = |name: String, directory: &str, device: &str, backing_file: Option<String>| {
        let size = size_of(probe, directory);
        let ids = block_ids(probe, directory, device);
        let entry = object([
            ("backing_file", text(backing_file)),
            ("filesystem", text(ids.filesystem)),
            ("label", text(ids.label)),
            ("partlabel", text(ids.partlabel)),
            ("partuuid", text(ids.partuuid)),
            ("size", Some(json!(bytes_to_human(size)))),
            ("size_bytes", Some(json!(size))),
            ("uuid", text(ids.uuid)),
        ]);
        partitions.insert(name, entry.unwrap_or_else(|| json!({})));
    };
    for block in root.read_dir("/sys/block") {
        let base = format!("/sys/block/{block}");
        if root.is_dir(&format!("{base}/device")) {
            // Partitions are the subdirectories named after the disk
            // (sda1 in sda, nvme0n1p1 in nvme0n1).
            for child in root.read_dir(&base) {
                let directory = format!("{base}/{child}");
                if child.contains(block.as_str()) && root.is_dir(&directory) {
                    add(format!("/dev/{child}"), &directory, &child, None);
                }
            }
        } else if root.is_dir(&format!("{base}/dm")) {
            let map_name = probe.read_trimmed(&format!("{base}/dm/name"));
            let name = match map_name {
                Some(map_name) => format!("/dev/mapper/{map_name}"),
                None => format!("/dev/{block}"),
            };
            add(name, &base, &block, None);
        } else if root.is_dir(&format!("{base}/loop")) {
            let backing_file = probe.read_trimmed(&format!("{base}/loop/backing_file"));
            add(format!("/dev/{block}"), &base, &block, backing_file);
        }
    }
    // The first mount of a partition gives its `mount`.
    for mount in probe.mounts().iter().rev() {
        if let Some(Value::Object(entry)) = partitions.get_mut(&mount.device) {
            entry.insert("mount".into(), json!(mount.path));
        }
    }
    if !partitions.is_empty() {
        facts.set("partitions", Value::Object(partitions));
    }
}

pub(crate) fn collect_filesystems(probe: &Probe<'_>, facts: &mut Facts) {
    let Some(text) = probe.read("/proc/filesystems") else {
        return;
    };
    let mut filesystems: Vec<&str> = text
        .lines()
        .filter_map(|line| {
            let mut words = line.split_whitespace();
            let first = words.next()?;
            (words.next().is_none() && first != "fuseblk").then_some(first)
        })
        .collect();
    filesystems.sort_unstable();
    facts.set("filesystems", json!(filesystems.join(",")));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mount_fields_are_unescaped() {
        assert_eq!(unescape_mount_field(r"/mnt/my\040disk"), "/mnt/my disk");
        assert_eq!(unescape_mount_field(r"a\134b"), r"a\b");
        assert_eq!(unescape_mount_field(r"trailing\04"), r"trailing\04");
    }

    #[test]
    fn udev_escapes_are_undone() {
        assert_eq!(unescape_udev(r"My\x20Disk"), "My Disk");
        assert_eq!(unescape_udev(r"a\x2fb"), "a/b");
        assert_eq!(unescape_udev(r"bad\xZZ"), r"bad\xZZ");
    }
}

//! `mount`: file systems in the mount table (`/etc/fstab`) and whether they
//! are mounted, from Puppet's mount_core module. The type exists only where
//! a `mount_core` module ships it (see [`crate::MODULE_TYPES`]); its
//! attributes are those of the module's `lib/puppet/type/mount.rb` on Linux.

use marionette_ral::attribute::value_text;
use marionette_ral::{AttrDef, RalError, Registry, TypeDef};
use marionette_values::Value;

/// Adds the type and its provider.
pub fn register(registry: &mut Registry) -> Result<(), RalError> {
    registry.add_type(definition())?;
    registry.add_provider(crate::providers::mount::parsed::definition())
}

/// A mount point without its trailing slashes (Puppet's
/// `gsub(%r{^(.+?)/*$}, '\1')`): `/` stays `/`.
pub fn strip_trailing_slashes(name: &str) -> &str {
    let trimmed = name.trim_end_matches('/');
    if trimmed.is_empty() && !name.is_empty() {
        &name[..1]
    } else {
        trimmed
    }
}

/// A property whose value may not contain whitespace nor be empty, with
/// Puppet's messages.
fn no_whitespace(name: &'static str, empty_checked: bool) -> AttrDef {
    AttrDef::property(name).validate(move |_, value| {
        let text = value_text(value);
        if text.chars().any(char::is_whitespace) {
            return Err(format!("{name} must not contain whitespace: {text}"));
        }
        if empty_checked && text.is_empty() {
            return Err(format!("{name} must not be an empty string"));
        }
        Ok(())
    })
}

pub fn definition() -> TypeDef {
    TypeDef::new("mount")
        .doc(
            "Manages mounted filesystems, including putting mount information
            into the mount table. The actual behavior depends on the value of
            the 'ensure' parameter. A mount refreshes itself when it changes:
            when it is mounted, it is remounted.",
        )
        .feature(
            "refreshable",
            "The provider can remount the filesystem.",
            &["remount"],
        )
        .ensurable()
        .ensure_without_default()
        .ensure_values(|ensure| {
            // Puppet's mount has its own ensure property: `defined`
            // (`present` is its alias), `unmounted`, `absent`, `mounted`.
            let mut ensure = ensure.doc(
                "Control what to do with this mount. `unmounted` makes sure the
                    filesystem is in the filesystem table but not mounted, `absent`
                    unmounts it if necessary and removes it from the table,
                    `mounted` adds it to the table and mounts it, and `defined`
                    (or `present`) adds it to the table without changing whether
                    it is mounted.",
            );
            ensure.values.clear();
            ensure
                .values(&["defined", "unmounted", "absent", "mounted"])
                .alias_value("present", "defined")
                // `defined` is satisfied by an entry, mounted or not.
                .insync(|_, current, desired| {
                    let (current, desired) = (value_text(current), value_text(desired));
                    current == desired
                        || (desired == "defined"
                            && matches!(current.as_str(), "mounted" | "unmounted"))
                })
                // The ensure property of mount is a plain property, so its
                // messages are a property's, not "created" and "removed".
                .plain_change_messages()
        })
        .attr(AttrDef::property("device").doc(
            "The device providing the mount: a device path, a `UUID=` or
            `LABEL=` specification, or a network share. It may contain
            whitespace on Linux.",
        ))
        .attr(no_whitespace("blockdevice", false).doc("The device to fsck; only used on Solaris."))
        .attr(no_whitespace("fstype", true).doc("The mount type; required in the table."))
        .attr(no_whitespace("options", true).doc(
            "A single string of the mount's options, as they appear in fstab;
            `defaults` is written when none are given.",
        ))
        .attr(
            AttrDef::property("pass")
                .doc("The pass in which the mount is checked; 0 by default.")
                .default_fn(|_| Some(Value::Integer(0))),
        )
        .attr(
            AttrDef::property("atboot")
                .doc("Whether to mount the mount at boot; not used on Linux.")
                .boolean()
                // Puppet's boolean property munges to `yes` or `no`.
                .munge(|_, value| {
                    let text = value_text(&value).to_ascii_lowercase();
                    Ok(Value::String(
                        if matches!(text.as_str(), "true" | "yes") {
                            "yes"
                        } else {
                            "no"
                        }
                        .into(),
                    ))
                }),
        )
        .attr(
            AttrDef::property("dump")
                .doc("Whether to dump the mount: 1 or 0 (the default).")
                .pattern("(0|1)")
                .default_fn(|_| Some(Value::Integer(0))),
        )
        .attr(
            AttrDef::property("target")
                .doc("The mount table to write; `/etc/fstab` by default.")
                .default_value("/etc/fstab"),
        )
        .attr(
            AttrDef::param("name")
                .doc("The mount path; it may contain whitespace on Linux.")
                .namevar()
                .munge(|_, value| {
                    Ok(Value::String(
                        strip_trailing_slashes(&value_text(&value)).into(),
                    ))
                }),
        )
        .attr(
            AttrDef::param("remounts")
                .doc(
                    "Whether the mount can be remounted with `mount -o remount`;
                    if not, it is unmounted and mounted again. True by default on
                    Linux.",
                )
                .values(&["true", "false"])
                .default_value("true"),
        )
        .self_refresh()
        // Mounts higher up in the file system are mounted first.
        .autorequire("mount", |resource| {
            let name = resource.name();
            let mut parents = Vec::new();
            let mut path = std::path::Path::new(name.as_str());
            while let Some(parent) = path.parent() {
                parents.insert(0, parent.display().to_string());
                path = parent;
            }
            parents
        })
        // Files under the mount point come after it, on the mounted file
        // system.
        .auto(
            marionette_ral::AutoKind::Before,
            "file",
            marionette_ral::Titles::Below("name".into()),
        )
}

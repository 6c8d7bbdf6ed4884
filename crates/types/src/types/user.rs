//! `user`: local user accounts.

use std::path::Path;

use marionette_ral::attribute::value_text;
use marionette_ral::{
    AttrDef, GenerateError, Generated, GeneratedBy, Generation, Resource, TypeDef,
};
use marionette_values::{PType, Value};

/// Accepts `YYYY-MM-DD` or `absent`.
fn check_expiry(value: &Value) -> Result<(), String> {
    let text = value_text(value);
    let bytes = text.as_bytes();
    let date = bytes.len() == 10
        && bytes[4] == b'-'
        && bytes[7] == b'-'
        && text
            .chars()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit());
    if text == "absent" || date {
        Ok(())
    } else {
        Err(format!(
            "Expiry dates must be YYYY-MM-DD or the string \"absent\", not {text:?}"
        ))
    }
}

/// `groups` is in sync when the account is in every listed group, and, with
/// `membership => inclusive`, in no other.
pub fn groups_insync(resource: &Resource, current: &Value, desired: &Value) -> bool {
    let inclusive = resource.text("membership").as_deref() == Some("inclusive");
    marionette_ral::attribute::membership_insync(current, desired, inclusive)
}

/// A gid given as a name is compared by its number.
fn gid_insync(_resource: &Resource, current: &Value, desired: &Value) -> bool {
    let resolve = |v: &Value| crate::system::resolve_gid(Path::new("/"), &value_text(v));
    match (resolve(current), resolve(desired)) {
        (Some(a), Some(b)) => a == b,
        _ => value_text(current) == value_text(desired),
    }
}

pub fn definition() -> TypeDef {
    let age = |name: &str, doc: &str| {
        AttrDef::property(name)
            .doc(doc)
            .constraint(PType::Variant(vec![
                PType::Integer {
                    min: -1,
                    max: i64::MAX,
                },
                PType::Pattern(vec![
                    marionette_values::Regex::new(r"\A-?\d+\z").expect("valid pattern"),
                ]),
            ]))
            .requires_features(&["manages_password_age"])
    };
    TypeDef::new("user")
        .doc(
            "Manages local user accounts: their existence, ids, home directory,
            shell, groups, password and password ageing.

            Providers use the system's own tools to change accounts and read the
            account databases to inspect them.

            **Autorequires:** the account's primary group (`gid`) and every group
            in `groups`, when the catalog manages them.",
        )
        .feature("allows_duplicates", "The provider can create accounts that share a uid.", &[])
        .feature("manages_homedir", "The provider can create and remove home directories.", &[])
        .feature("manages_passwords", "The provider can set the password hash.", &[])
        .feature("manages_password_age", "The provider can set password ageing limits.", &[])
        .feature("manages_password_salt", "The provider can set a password salt.", &[])
        .feature("manages_expiry", "The provider can set an account expiry date.", &[])
        .feature("system_users", "The provider can create system accounts with low ids.", &[])
        .feature("manages_shell", "The provider can set the login shell.", &[])
        .feature("manages_roles", "The provider can manage roles.", &[])
        .feature("manages_solaris_rbac", "The provider can manage Solaris authorizations and profiles.", &[])
        .feature("manages_aix_lam", "The provider can manage AIX loadable authentication modules.", &[])
        .feature("manages_local_users_and_groups", "The provider can force local accounts where a directory service is also used.", &[])
        .feature("manages_loginclass", "The provider can set a BSD login class.", &[])
        .ensurable()
        .attr(AttrDef::property("home").doc("The home directory. With `managehome`, it is created, moved or removed with the account."))
        .attr(
            AttrDef::property("uid")
                .doc("The numeric user id. Chosen by the system when not given.")
                .constraint(PType::Variant(vec![
                    PType::Integer { min: 0, max: i64::MAX },
                    PType::Pattern(vec![marionette_values::Regex::new(r"\A\d+\z").expect("valid pattern")]),
                ])),
        )
        .attr(AttrDef::property("gid").doc("The primary group, by name or number.").insync(gid_insync))
        .attr(AttrDef::property("comment").doc("The description of the account (the GECOS field)."))
        .attr(AttrDef::property("shell").doc("The login shell.").requires_features(&["manages_shell"]))
        .attr(
            AttrDef::property("password")
                .doc("The password hash, as stored in the shadow file. Never shown or logged.")
                .sensitive()
                .requires_features(&["manages_passwords"]),
        )
        .attr(age("password_min_age", "The minimum number of days between password changes."))
        .attr(age("password_max_age", "The maximum number of days a password stays valid."))
        .attr(age("password_warn_days", "How many days before expiry the user is warned."))
        .attr(
            AttrDef::property("groups")
                .doc("Supplementary groups, as an array of names. See `membership`.")
                .array_matching(marionette_ral::ArrayMatching::All)
                .validate(|_, value| check_group_names(value))
                .insync(groups_insync),
        )
        .attr(AttrDef::param("name").doc("The login name.").namevar())
        .attr(
            AttrDef::param("membership")
                .doc("Whether `groups` lists the only groups of the account (`inclusive`) or groups it must at least be in (`minimum`, the default).")
                .values(&["inclusive", "minimum"])
                .default_value(Value::String("minimum".into())),
        )
        .attr(
            AttrDef::param("system")
                .doc("Whether a new account is a system account, with an id from the system range.")
                .boolean()
                .default_value(Value::Boolean(false)),
        )
        .attr(
            AttrDef::param("allowdupe")
                .doc("Whether the uid may be shared with another account.")
                .boolean()
                .default_value(Value::Boolean(false))
                .requires_features(&["allows_duplicates"]),
        )
        .attr(
            AttrDef::param("managehome")
                .doc("Whether the home directory is created with the account and removed with it.")
                .boolean()
                .default_value(Value::Boolean(false))
                .requires_features(&["manages_homedir"]),
        )
        .attr(
            AttrDef::property("expiry")
                .doc("The date the account expires, as `YYYY-MM-DD`, or `absent` for never.")
                .validate(|_, value| check_expiry(value))
                // An account without an expiry date never expires.
                .insync(|_, current, desired| {
                    let current = if *current == Value::Undef { "absent".to_string() } else { value_text(current) };
                    current == value_text(desired)
                })
                .requires_features(&["manages_expiry"]),
        )
        .attr(AttrDef::property("roles").doc("Solaris roles.").requires_features(&["manages_roles"]))
        .attr(AttrDef::param("role_membership").doc("Whether `roles` is complete or a minimum.").values(&["inclusive", "minimum"]))
        .attr(AttrDef::property("auths").doc("Solaris authorizations.").requires_features(&["manages_solaris_rbac"]))
        .attr(AttrDef::param("auth_membership").doc("Whether `auths` is complete or a minimum.").values(&["inclusive", "minimum"]))
        .attr(AttrDef::property("profiles").doc("Solaris profiles.").requires_features(&["manages_solaris_rbac"]))
        .attr(AttrDef::param("profile_membership").doc("Whether `profiles` is complete or a minimum.").values(&["inclusive", "minimum"]))
        .attr(AttrDef::property("keys").doc("Solaris user attributes.").requires_features(&["manages_solaris_rbac"]))
        .attr(AttrDef::param("key_membership").doc("Whether `keys` is complete or a minimum.").values(&["inclusive", "minimum"]))
        .attr(AttrDef::property("project").doc("The Solaris project.").requires_features(&["manages_solaris_rbac"]))
        .attr(AttrDef::param("ia_load_module").doc("The AIX authentication module.").requires_features(&["manages_aix_lam"]))
        .attr(AttrDef::property("attributes").doc("AIX attributes as `key=value` strings.").requires_features(&["manages_aix_lam"]))
        .attr(AttrDef::param("attribute_membership").doc("Whether `attributes` is complete or a minimum.").values(&["inclusive", "minimum"]))
        .attr(AttrDef::property("salt").doc("The password salt (macOS).").requires_features(&["manages_password_salt"]))
        .attr(AttrDef::property("iterations").doc("The password hash iterations (macOS).").requires_features(&["manages_password_salt"]))
        .attr(
            AttrDef::param("forcelocal")
                .doc("Whether to manage the local account even when a directory service also knows the user.")
                .boolean()
                .requires_features(&["manages_local_users_and_groups"]),
        )
        .attr(
            AttrDef::param("purge_ssh_keys")
                .doc(
                    "Whether to remove the SSH keys of the user's files that no `ssh_authorized_key` of the catalog \
                     manages: `true` for `~/.ssh/authorized_keys`, or the key files (absolute, or starting with \
                     `~/` or `%h/` for the home directory).",
                )
                .validate(|_, value| check_purge_ssh_keys(value)),
        )
        .attr(AttrDef::property("loginclass").doc("The BSD login class.").requires_features(&["manages_loginclass"]))
        .autorequire("group", |resource| {
            let mut titles: Vec<String> = resource
                .get("gid")
                .map(value_text)
                .filter(|g| g.parse::<i64>().is_err())
                .into_iter()
                .collect();
            titles.extend(resource.list("groups").into_iter().map(value_text));
            titles
        })
        .generate(purge_ssh_keys)
}

/// `purge_ssh_keys` as Puppet's `user` accepts it, in its words.
fn check_purge_ssh_keys(value: &Value) -> Result<(), String> {
    if marionette_ral::attribute::parse_boolean(value).is_some() {
        return Ok(());
    }
    let entries: Vec<&Value> = match value {
        Value::String(_) => vec![value],
        Value::Array(items) => items.iter().collect(),
        other => {
            return Err(format!(
                "purge_ssh_keys must be true, false, or an array of file names, not {}",
                marionette_ral::attribute::display_value(other)
            ));
        }
    };
    for entry in entries {
        let Value::String(path) = entry else {
            return Err(format!(
                "Each entry for purge_ssh_keys must be a string, not a {}",
                marionette_values::format::ruby_class(entry)
            ));
        };
        if !(path.starts_with('/') || path.starts_with("~/") || path.starts_with("%h/")) {
            return Err(format!("Paths to keyfiles must be absolute, not {path}"));
        }
    }
    Ok(())
}

/// The key files `purge_ssh_keys` names: none for false, the home's
/// `.ssh/authorized_keys` for true, else the paths given with `~/` and
/// `%h/` standing for the home (left out while the user has none).
fn purge_ssh_key_files(resource: &Resource) -> Vec<String> {
    let Some(value) = resource.get("purge_ssh_keys") else {
        return Vec::new();
    };
    let home = || {
        resource.get("home").map(value_text).or_else(|| {
            crate::providers::ssh_authorized_key::parsed::lookup_user(&resource.name_str())
                .map(|u| u.2)
        })
    };
    match marionette_ral::attribute::parse_boolean(value) {
        Some(false) => Vec::new(),
        Some(true) => home()
            .map(|h| format!("{h}/.ssh/authorized_keys"))
            .into_iter()
            .collect(),
        None => {
            let entries = match value {
                Value::Array(items) => items.iter().map(value_text).collect(),
                other => vec![value_text(other)],
            };
            entries
                .into_iter()
                .filter_map(|entry| {
                    match entry
                        .strip_prefix("~/")
                        .or_else(|| entry.strip_prefix("%h/"))
                    {
                        Some(rest) => home().map(|h| format!("{h}/{rest}")),
                        None => Some(entry),
                    }
                })
                .collect()
        }
    }
}

/// Puppet's `user` `generate`: an absent `ssh_authorized_key` for each key
/// of the purged files that the catalog does not manage.
fn purge_ssh_keys(
    resource: &Resource,
    run: &dyn Generation,
) -> Result<Vec<Generated>, GenerateError> {
    let files = purge_ssh_key_files(resource);
    if files.is_empty() {
        return Ok(Vec::new());
    }
    if run.type_def("ssh_authorized_key").is_none() {
        run.warn_about(
            resource,
            "Ssh_authorized_key type is not available. Cannot purge SSH keys.",
        );
        return Ok(Vec::new());
    }
    let user = resource.name_str().into_owned();
    let mut generated = Vec::new();
    for file in files {
        // Unreadable or missing files are passed over, as Puppet's are.
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        for name in crate::providers::ssh_authorized_key::parsed::key_names(&file, &text) {
            if run.manages("ssh_authorized_key", &name) {
                continue;
            }
            generated.push(Generated {
                type_name: "ssh_authorized_key".into(),
                title: name,
                params: vec![
                    ("target".into(), Value::String(file.as_str().into())),
                    ("ensure".into(), Value::String("absent".into())),
                    ("user".into(), Value::String(user.as_str().into())),
                ],
                by: GeneratedBy::Generate,
            });
        }
    }
    Ok(generated)
}

/// Group names as Puppet accepts them: names, not GID numbers, and each
/// its own element; `useradd -G` would take `a,b` as two groups.
fn check_group_names(value: &Value) -> Result<(), String> {
    let names: Vec<&Value> = match value {
        Value::Array(items) => items.iter().collect(),
        other => vec![other],
    };
    for name in names {
        let text = value_text(name);
        if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
            return Err("Group names must be provided, not GID numbers.".into());
        }
        if text.contains(',') {
            return Err(
                "Group names must be provided as an array, not a comma-separated list.".into(),
            );
        }
        if text.is_empty() {
            return Err("Group names must not be empty. If you want to specify \"no groups\" pass an empty array".into());
        }
    }
    Ok(())
}

//! `user` through `useradd`, `usermod`, `userdel` and `chage`.
//!
//! Accounts are listed from `/etc/passwd`, `/etc/shadow` and `/etc/group`
//! in one read each; every change is one command with arguments passed as
//! argv, never through a shell.

use std::collections::BTreeSet;
use std::path::Path;

use marionette_ral::attribute::{names, value_text};
use marionette_ral::{
    CommandSpec, Context, Instance, PropertyHash, PropertyProvider, ProviderDef, ProviderError,
};
use marionette_values::Value;

use crate::system;

struct Useradd;

fn text(value: &str) -> Value {
    Value::String(value.into())
}

/// Every local account as a property hash.
fn accounts(root: &Path) -> Result<Vec<PropertyHash>, ProviderError> {
    let shadow = system::shadow(root);
    Ok(system::passwd(root)?
        .into_iter()
        .map(|entry| {
            let mut hash = PropertyHash::new();
            hash.insert("name".into(), text(&entry.name));
            hash.insert("ensure".into(), text("present"));
            hash.insert("comment".into(), text(&entry.comment));
            hash.insert("gid".into(), Value::Integer(entry.gid));
            hash.insert("home".into(), text(&entry.home));
            if let Some(secret) = shadow.iter().find(|s| s.name == entry.name) {
                hash.insert("password".into(), text(&secret.password));
                if let Some(max) = secret.max_age {
                    hash.insert("password_max_age".into(), Value::Integer(max));
                }
                if let Some(min) = secret.min_age {
                    hash.insert("password_min_age".into(), Value::Integer(min));
                }
                if let Some(warn) = secret.warn_days {
                    hash.insert("password_warn_days".into(), Value::Integer(warn));
                }
                if let Some(days) = secret.expiry {
                    hash.insert("expiry".into(), text(&system::days_to_date(days)));
                }
            }
            hash.insert("shell".into(), text(&entry.shell));
            hash.insert("uid".into(), Value::Integer(entry.uid));
            hash
        })
        .collect())
}

/// The supplementary groups of an account, from `/etc/group`.
fn groups_of(root: &Path, name: &str) -> Result<Vec<String>, ProviderError> {
    Ok(system::groups(root)?
        .into_iter()
        .filter(|g| g.members.iter().any(|m| m == name))
        .map(|g| g.name)
        .collect())
}

/// The `useradd`/`usermod` flag of a property, when it has one.
fn flag(attr: &str) -> Option<&'static str> {
    Some(match attr {
        "uid" => "-u",
        "gid" => "-g",
        "groups" => "-G",
        "home" => "-d",
        "shell" => "-s",
        "comment" => "-c",
        "password" => "-p",
        "expiry" => "-e",
        _ => return None,
    })
}

/// The `chage` flag of an ageing property.
fn chage_flag(attr: &str) -> Option<&'static str> {
    Some(match attr {
        "password_min_age" => "-m",
        "password_max_age" => "-M",
        "password_warn_days" => "-W",
        _ => return None,
    })
}

/// `usermod -e` and `useradd -e` take an empty string for "never".
fn expiry_arg(value: &Value) -> String {
    let date = value_text(value);
    if date == "absent" {
        String::new()
    } else {
        date
    }
}

impl PropertyProvider for Useradd {
    fn instances(&self, _cx: &Context) -> Result<Vec<PropertyHash>, ProviderError> {
        accounts(Path::new("/"))
    }

    fn get(
        &self,
        cx: &Context,
        instance: &Instance<'_>,
        attr: &str,
    ) -> Result<Option<Value>, ProviderError> {
        match attr {
            "ensure" => Ok(Some(text(if self.exists(cx, instance)? {
                "present"
            } else {
                "absent"
            }))),
            // Like Puppet, an account without supplementary groups shows
            // none rather than an empty list.
            "groups" if instance.present_in_hash() => {
                let groups = groups_of(Path::new("/"), &instance.resource.name())?;
                Ok((!groups.is_empty()).then(|| {
                    Value::Array(
                        groups
                            .into_iter()
                            .map(|g| text(&g))
                            .collect::<Vec<_>>()
                            .into(),
                    )
                }))
            }
            _ => Ok(instance.property_hash.get(attr).cloned()),
        }
    }

    fn create(&self, cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        let resource = instance.resource;
        let mut argv = vec!["useradd".to_string()];
        // As Puppet's provider: without a gid, the account joins the group
        // of its own name when there is one, which useradd otherwise
        // refuses ("group ftp exists").
        let name = resource.name();
        if resource.get("gid").is_none()
            && crate::system::groups(std::path::Path::new("/"))
                .is_ok_and(|groups| groups.iter().any(|group| group.name == name))
        {
            argv.extend(["-g".to_string(), name]);
        }
        // As Puppet's provider, the password is not given to `useradd`
        // but set by `usermod` once the account exists, and an empty
        // value (no supplementary groups) is not given at all.
        for (attr, value) in resource.managed_properties() {
            let Some(flag) = flag(&attr.name).filter(|_| attr.name != "password") else {
                continue;
            };
            let argument = match attr.name.as_str() {
                "groups" => names(value).join(","),
                "expiry" => expiry_arg(value),
                _ => value_text(value),
            };
            if !argument.is_empty() || attr.name == "expiry" {
                argv.extend([flag.to_string(), argument]);
            }
        }
        if resource.get("allowdupe") == Some(&Value::Boolean(true)) {
            argv.push("-o".into());
        }
        if resource.get("system") == Some(&Value::Boolean(true)) {
            argv.push("-r".into());
        }
        argv.push(
            if resource.get("managehome") == Some(&Value::Boolean(true)) {
                "-m".into()
            } else {
                "-M".into()
            },
        );
        argv.push(resource.name());
        cx.run(&CommandSpec::new(&argv).sensitive())?;
        let mut chage = vec!["chage".to_string()];
        for (attr, value) in resource.managed_properties() {
            if let Some(flag) = chage_flag(&attr.name) {
                chage.push(flag.to_string());
                chage.push(value_text(value));
            }
        }
        if chage.len() > 1 {
            chage.push(resource.name());
            cx.run(&CommandSpec::new(&chage))?;
        }
        if let Some(password) = resource.get("password") {
            cx.run(
                &CommandSpec::new(&["usermod", "-p", &value_text(password), &resource.name()])
                    .sensitive(),
            )?;
        }
        refresh_hash(instance)
    }

    fn destroy(&self, cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        let mut argv = vec!["userdel".to_string()];
        if instance.resource.get("managehome") == Some(&Value::Boolean(true)) {
            argv.push("-r".into());
        }
        argv.push(instance.resource.name());
        cx.run(&CommandSpec::new(&argv))?;
        instance.property_hash = PropertyHash::from([("ensure".to_string(), text("absent"))]);
        Ok(())
    }

    fn set(
        &self,
        cx: &Context,
        instance: &mut Instance<'_>,
        attr: &str,
        value: &Value,
    ) -> Result<(), ProviderError> {
        let name = instance.resource.name();
        if let Some(flag) = chage_flag(attr) {
            cx.run(&CommandSpec::new(&[
                "chage",
                flag,
                &value_text(value),
                &name,
            ]))?;
            instance
                .property_hash
                .insert(attr.to_string(), value.clone());
            return Ok(());
        }
        let Some(flag) = flag(attr) else {
            return Err(ProviderError::new(format!("useradd cannot change {attr}")));
        };
        let argument = match attr {
            "groups" => {
                let mut wanted: BTreeSet<String> = names(value).into_iter().collect();
                // With the default minimum membership, groups the account is
                // already in are kept.
                if instance.resource.text("membership").as_deref() != Some("inclusive") {
                    wanted.extend(groups_of(Path::new("/"), &name)?);
                }
                wanted.into_iter().collect::<Vec<_>>().join(",")
            }
            "expiry" => expiry_arg(value),
            _ => value_text(value),
        };
        let mut argv = vec!["usermod".to_string(), flag.to_string(), argument];
        if attr == "home" && instance.resource.get("managehome") == Some(&Value::Boolean(true)) {
            argv.push("-m".into());
        }
        argv.push(name);
        let spec = CommandSpec::new(&argv);
        cx.run(&if attr == "password" {
            spec.sensitive()
        } else {
            spec
        })?;
        instance
            .property_hash
            .insert(attr.to_string(), value.clone());
        Ok(())
    }
}

/// Re-reads the account after creating it, so later getters see the
/// values the system chose (uid, home).
fn refresh_hash(instance: &mut Instance<'_>) -> Result<(), ProviderError> {
    let name = instance.resource.name();
    if let Some(found) = accounts(Path::new("/"))?
        .into_iter()
        .find(|h| h.get("name").map(value_text).as_deref() == Some(name.as_str()))
    {
        instance.property_hash = found;
    }
    Ok(())
}

pub fn definition() -> ProviderDef {
    ProviderDef::properties("user", "useradd", Useradd)
        .doc(
            "Manages accounts with `useradd`, `usermod`, `userdel` and `chage`, and
            reads them from `/etc/passwd`, `/etc/shadow` and `/etc/group`.",
        )
        .command("useradd", "useradd")
        .command("usermod", "usermod")
        .command("userdel", "userdel")
        .command("chage", "chage")
        .confine(marionette_ral::Confine::Feature("posix".into()))
        .has_features(&[
            "manages_homedir",
            "allows_duplicates",
            "manages_expiry",
            "system_users",
            "manages_passwords",
            "manages_password_age",
            "manages_shell",
        ])
}

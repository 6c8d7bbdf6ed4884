//! `resources`: manages the resources of another type as a whole; with
//! `purge`, every instance the catalog does not manage is removed.

use marionette_ral::attribute::value_text;
use marionette_ral::{
    AttrDef, GenerateError, Generated, Generation, PropertyHash, PropertyProvider, ProviderDef,
    Resource, TypeDef,
};
use marionette_values::Value;

/// Accounts never purged when system users are protected.
const SYSTEM_USERS: &[&str] = &["root", "nobody", "bin", "noaccess", "daemon", "sys"];

/// The highest uid of a system account: one below `UID_MIN` of
/// `/etc/login.defs`, else 499 as Puppet assumes.
fn system_users_max_uid() -> i64 {
    std::fs::read_to_string("/etc/login.defs")
        .ok()
        .and_then(|text| {
            text.lines().find_map(|line| {
                let mut words = line.split_whitespace();
                (words.next() == Some("UID_MIN"))
                    .then(|| words.next()?.parse::<i64>().ok())
                    .flatten()
            })
        })
        .map_or(499, |min| min - 1)
}

/// Whether a user instance may be purged under `unless_system_user` and
/// `unless_uid`.
fn user_purgeable(resource: &Resource, instance: &PropertyHash) -> bool {
    let name = instance.get("name").map(value_text).unwrap_or_default();
    let uid = instance
        .get("uid")
        .and_then(|u| value_text(u).parse::<i64>().ok());
    let protected: Vec<i64> = resource
        .list("unless_uid")
        .into_iter()
        .filter_map(|u| value_text(u).parse().ok())
        .collect();
    if uid.is_some_and(|u| protected.contains(&u)) {
        return false;
    }
    let limit = match resource.get("unless_system_user") {
        Some(Value::Boolean(false)) | None => return true,
        Some(Value::Boolean(true)) => system_users_max_uid(),
        Some(other) => value_text(other)
            .parse()
            .unwrap_or_else(|_| system_users_max_uid()),
    };
    !SYSTEM_USERS.contains(&name.as_str()) && uid.is_some_and(|u| u > limit)
}

/// The unmanaged instances of the named type, each to be made absent.
fn purge(resource: &Resource, run: &dyn Generation) -> Result<Vec<Generated>, GenerateError> {
    if resource.get("purge") != Some(&Value::Boolean(true)) {
        return Ok(Vec::new());
    }
    let type_name = resource.name().to_ascii_lowercase();
    let Some(type_def) = run.type_def(&type_name) else {
        return Err(format!("Could not find resource type '{type_name}'").into());
    };
    // Asked of the attribute itself: a module type's own code may be what
    // knows its values (firewall's `ensurable` block).
    let accepts_absent = type_def.attribute("ensure").is_some_and(|ensure| {
        marionette_ral::attribute::process_value(ensure, Value::String("absent".into())).is_ok()
    });
    if !accepts_absent {
        return Err(format!(
            "Purging is only supported on types that accept 'ensure => absent', which {type_name} does not"
        )
        .into());
    }
    let instances = run.instances(&type_name).map_err(|e| match e {
        // Listing failed on this system: as in Puppet, where the first
        // provider's `instances` raises, generating fails with its error
        // and the run goes on.
        marionette_ral::RalError::Listing { errors, .. } if !errors.is_empty() => {
            GenerateError::FailedInGenerate(errors[0].1.clone())
        }
        e => GenerateError::Invalid(format!(
            "Purging resources of type {type_name} is not supported, since they cannot be listed: {e}"
        )),
    })?;
    Ok(instances
        .iter()
        .filter(|instance| marionette_ral::provider::is_present(instance.get("ensure")))
        .filter(|instance| type_name != "user" || user_purgeable(resource, instance))
        .filter_map(|instance| {
            let title = marionette_ral::provider::hash_name(instance)?;
            (!run.manages(&type_name, &title)).then(|| Generated {
                type_name: type_name.clone(),
                title,
                params: vec![("ensure".into(), Value::String("absent".into()))],
                by: marionette_ral::GeneratedBy::Generate,
            })
        })
        .collect())
}

pub fn definition() -> TypeDef {
    TypeDef::new("resources")
        .doc(
            "Manages every resource of another type at once. With `purge`, each
            instance the system has and the catalog does not manage is removed
            during the run (its `ensure` set to `absent`). Metaparameters given
            here, such as `noop`, pass to the removals, so a purge can be
            rehearsed first.",
        )
        .attr(
            AttrDef::param("name")
                .doc("The resource type to manage, such as `user` or `host`.")
                .namevar(),
        )
        .attr(
            AttrDef::param("purge")
                .doc("Whether to remove the instances the catalog does not manage.")
                .boolean()
                .default_value(Value::Boolean(false)),
        )
        .attr(
            AttrDef::param("unless_system_user")
                .doc(
                    "For users: keep system accounts. `true` keeps every account up to the
                    system's highest system uid (one below `UID_MIN` in /etc/login.defs);
                    a number keeps accounts up to that uid. The accounts root, nobody, bin,
                    daemon, sys and noaccess are always kept then.",
                )
                .values(&["true", "false"])
                .pattern(r"\A\d+\z")
                .munge(|hooked, value| match value_text(&value).as_str() {
                    "true" => Ok(Value::Boolean(true)),
                    "false" => Ok(Value::Boolean(false)),
                    _ => hooked.default_munge(value),
                })
                .default_fn(|resource| {
                    (resource.get("name").map(value_text).as_deref() == Some("user"))
                        .then_some(Value::Boolean(true))
                }),
        )
        .attr(
            AttrDef::param("unless_uid")
                .doc("For users: uids never purged, as a number or a list of numbers.")
                .validate(|_, value| {
                    let all_numbers = match value {
                        Value::Array(items) => {
                            items.iter().all(|v| value_text(v).parse::<i64>().is_ok())
                        }
                        other => value_text(other).parse::<i64>().is_ok(),
                    };
                    if all_numbers {
                        Ok(())
                    } else {
                        Err(format!("Invalid value {}.", value_text(value)))
                    }
                }),
        )
        .generate(purge)
}

/// Nothing to do at evaluation time: the work happens in the resources it
/// generates.
struct Whole;

impl PropertyProvider for Whole {}

pub fn implementation() -> ProviderDef {
    ProviderDef::properties("resources", "resources", Whole).implicit()
}

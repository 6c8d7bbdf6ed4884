//! One file per type; each has a `definition()` and registers its
//! providers.

pub mod anchor;
pub mod concat_file;
pub mod concat_fragment;
pub mod cron;
pub mod dns_resource;
pub mod dnsrr;
pub mod dnszone;
pub mod exec;
pub mod file;
pub mod file_line;
pub mod filebucket;
pub mod group;
pub mod host;
pub mod ini_setting;
pub mod ini_subsetting;
pub mod mount;
pub mod notify;
pub mod package;
pub mod resources;
pub mod schedule;
pub mod service;
pub mod ssh_authorized_key;
pub mod sshkey;
pub mod tidy;
pub mod user;

use marionette_ral::attribute::value_text;
use marionette_ral::{AttrDef, RalError, Registry};
use marionette_values::Value;

/// The Puppet type of a value, for messages (`Integer`, `Array[String]`).
pub(crate) fn value_type_name(value: &Value) -> String {
    marionette_values::PType::infer(value)
        .generalize()
        .to_string()
}

/// A parameter naming directories, as an array or a colon-separated string
/// (exec's and service's `path`), kept as an array of directories.
pub(crate) fn directory_list(name: &str, doc: &str) -> AttrDef {
    AttrDef::param(name)
        .doc(doc)
        .validate(|hooked, value| match value {
            Value::String(_) => Ok(()),
            Value::Array(items) if items.iter().all(|i| matches!(i, Value::String(_))) => Ok(()),
            other => Err(format!(
                "{} must be a String or an Array of Strings, not {}",
                hooked.attr.name,
                value_type_name(other)
            )),
        })
        .munge(|_, value| {
            let parts: Vec<Value> = match &value {
                Value::Array(items) => items.iter().map(value_text).collect(),
                other => vec![value_text(other)],
            }
            .iter()
            .flat_map(|part| part.split(':').map(str::to_string).collect::<Vec<_>>())
            .filter(|dir| !dir.is_empty())
            .map(|dir| Value::String(dir.into()))
            .collect();
            Ok(Value::Array(parts.into()))
        })
}

/// Adds every built-in type and its providers.
pub fn register(registry: &mut Registry) -> Result<(), RalError> {
    registry.add_type(cron::definition())?;
    registry.add_provider(crate::providers::cron::crontab::definition())?;
    registry.add_type(dns_resource::definition())?;
    // `rfc2136` first: it needs nothing installed, so it is the default.
    registry.add_provider(crate::providers::dns_resource::rfc2136::definition())?;
    registry.add_provider(crate::providers::dns_resource::nsupdate::definition())?;
    registry.add_type(dnsrr::definition())?;
    registry.add_provider(crate::providers::dnsrr::rfc2136::definition())?;
    registry.add_type(dnszone::definition())?;
    registry.add_provider(crate::providers::dnszone::rndc::definition())?;
    registry.add_type(exec::definition())?;
    // `posix` first: without a `defaultfor` match, the first suitable
    // provider is the default.
    registry.add_provider(crate::providers::exec::posix::definition())?;
    registry.add_provider(crate::providers::exec::shell::definition())?;
    registry.add_type(file::definition())?;
    registry.add_provider(crate::providers::file::posix::definition())?;
    registry.add_type(filebucket::definition())?;
    registry.add_provider(filebucket::implementation())?;
    registry.add_type(group::definition())?;
    registry.add_provider(crate::providers::group::groupadd::definition())?;
    registry.add_type(host::definition())?;
    registry.add_provider(crate::providers::host::parsed::definition())?;
    registry.add_type(notify::definition())?;
    registry.add_provider(notify::implementation())?;
    registry.add_type(package::definition())?;
    let dpkg = crate::providers::package::dpkg::definition();
    let apt = crate::providers::package::apt::definition(&dpkg);
    registry.add_provider(dpkg)?;
    registry.add_provider(apt)?;
    registry.add_provider(crate::providers::package::gem::definition())?;
    registry.add_provider(crate::providers::package::pip3::definition())?;
    registry.add_provider(crate::providers::package::npm::definition())?;
    registry.add_type(resources::definition())?;
    registry.add_provider(resources::implementation())?;
    registry.add_type(schedule::definition())?;
    registry.add_provider(schedule::implementation())?;
    registry.add_type(tidy::definition())?;
    registry.add_provider(tidy::implementation())?;
    registry.add_type(service::definition())?;
    // Without a `defaultfor` match, the first suitable provider is the
    // default: the init system's own (only one of `systemd` and `debian`
    // is suitable on a machine), before the bare `base`.
    registry.add_provider(crate::providers::service::systemd::definition())?;
    registry.add_provider(crate::providers::service::debian::definition())?;
    registry.add_provider(crate::providers::service::base::definition())?;
    registry.add_type(user::definition())?;
    registry.add_provider(crate::providers::user::useradd::definition())?;
    Ok(())
}

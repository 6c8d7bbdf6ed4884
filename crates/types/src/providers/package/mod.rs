//! Providers of the `package` type for Debian systems: `dpkg`, which
//! installs package files given by `source`, and `apt`, which extends it
//! with installation from the package sources, versions and installer
//! options; and the languages' installers `gem`, `pip3` and `npm`, one provider
//! over each tool (`installer.rs`).
//!
//! Both read the package database with `dpkg-query` (one call lists every
//! package, or every package a run manages) and run each change as one
//! command with its arguments passed as argv, never through a shell.

pub mod apt;
pub mod dpkg;
pub mod gem;
pub mod installer;
pub mod npm;
pub mod pip3;

use marionette_ral::attribute::value_text;
use marionette_ral::{
    Context, Instance, Level, PropertyHash, PropertyProvider, ProviderError, Resource,
};
use marionette_values::Value;

use crate::types::package::record_candidate;

/// Whether a name is one the Debian tools can take as a package name
/// without reading it as something else: not an option (a leading `-`),
/// not a pattern (`*`, `?`, `[`), no blanks. Debian names are letters,
/// digits, `+`, `-` and `.`, optionally followed by `:architecture`.
pub fn valid_name(name: &str) -> bool {
    let (package, arch) = match name.split_once(':') {
        Some((package, arch)) => (package, Some(arch)),
        None => (name, None),
    };
    let package_ok = package
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric())
        && package
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    let arch_ok = arch.is_none_or(|arch| {
        !arch.is_empty() && arch.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
    });
    package_ok && arch_ok
}

/// The resource's package name, refused when the tools could misread it.
pub fn checked_name(resource: &Resource) -> Result<String, ProviderError> {
    let name = resource.name();
    if valid_name(&name) {
        Ok(name)
    } else {
        Err(ProviderError::new(format!(
            "'{name}' is not a valid Debian package name (letters, digits, '+', '-' and '.', \
             starting with a letter or digit, optionally followed by ':architecture')"
        )))
    }
}

/// A package file path as an argument: a relative path gets a leading
/// `./`, so that neither tool can take it for an option, and `apt-get`
/// takes it for a file rather than a package name.
pub fn source_argument(source: &str) -> String {
    if source.starts_with('/') || source.starts_with("./") || source.starts_with("../") {
        source.to_string()
    } else {
        format!("./{source}")
    }
}

/// The desired `ensure` as text (the first value when several are given,
/// as syncing uses the first).
pub fn desired_ensure(instance: &Instance<'_>) -> Option<String> {
    match instance.should("ensure")? {
        Value::Array(items) => items.first().map(value_text),
        other => Some(value_text(other)),
    }
}

/// The provider feature a desired `ensure` value needs, for the values
/// that need one the provider may lack (Puppet refuses them the same way).
pub fn feature_for_ensure(value: &str) -> Option<&'static str> {
    match value {
        "present" | "absent" => None,
        "purged" => Some("purgeable"),
        "latest" => Some("upgradeable"),
        "disabled" => Some("disableable"),
        _ => Some("versionable"),
    }
}

/// Refuses an `ensure` value the provider has no feature for.
pub fn check_ensure_feature(
    provider: &str,
    features: &[&str],
    value: &str,
) -> Result<(), ProviderError> {
    match feature_for_ensure(value) {
        Some(feature) if !features.contains(&feature) => Err(ProviderError::new(format!(
            "Provider {provider} must have features '{feature}' to set 'ensure' to '{value}'"
        ))),
        _ => Ok(()),
    }
}

/// Installer options as arguments: strings as they are, each hash as
/// `key=value` pairs in key order.
pub fn options(value: &Value) -> Vec<String> {
    let items: Vec<&Value> = match value {
        Value::Array(items) => items.iter().collect(),
        other => vec![other],
    };
    let mut argv = Vec::new();
    for item in items {
        match item {
            Value::Hash(hash) => {
                let mut pairs: Vec<(String, String)> = hash
                    .iter()
                    .map(|(k, v)| (value_text(k), value_text(v)))
                    .collect();
                pairs.sort();
                argv.extend(pairs.into_iter().map(|(k, v)| format!("{k}={v}")));
            }
            other => argv.push(value_text(other)),
        }
    }
    argv
}

/// Passes on the result of changing `ensure`; a failure is also logged on
/// its own, without a source, before the failed change is: Puppet reports
/// a failed `ensure` of a package that way.
pub(crate) fn reported(
    cx: &Context,
    result: Result<(), ProviderError>,
) -> Result<(), ProviderError> {
    if let Err(e) = &result {
        cx.logger.log(Level::Err, "", &e.0);
    }
    result
}

/// Marks the state prefetching gave a package dpkg knew nothing of, with
/// the run's change count then.
const UNKNOWN_SINCE: &str = "unknown since";

/// The state prefetching found for the resource, if it ran.
fn prefetched(instance: &Instance<'_>) -> Option<PropertyHash> {
    instance
        .property_hash
        .contains_key("ensure")
        .then(|| instance.property_hash.clone())
}

/// Which tool a [`Debian`] provider changes packages with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Dpkg,
    Apt,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Dpkg => "dpkg",
            Kind::Apt => "apt",
        }
    }

    /// The features that decide which `ensure` values the provider takes;
    /// a unit test keeps them in step with the provider definitions.
    pub fn ensure_features(self) -> &'static [&'static str] {
        match self {
            Kind::Dpkg => &["installable", "uninstallable", "upgradeable", "purgeable"],
            Kind::Apt => &[
                "installable",
                "uninstallable",
                "upgradeable",
                "purgeable",
                "versionable",
            ],
        }
    }
}

/// The `dpkg` and `apt` providers: they read the system the same way and
/// differ in the commands that change it.
pub struct Debian {
    pub kind: Kind,
}

fn text(value: &str) -> Value {
    Value::String(value.into())
}

/// The state of a package dpkg knows nothing about.
fn purged_hash() -> PropertyHash {
    PropertyHash::from([("ensure".to_string(), text("purged"))])
}

fn is_installed(hash: &PropertyHash) -> bool {
    hash.get("ensure")
        .map(value_text)
        .is_some_and(|e| e != "absent" && e != "purged")
}

impl Debian {
    /// The package's current state: what prefetching found, else read now.
    fn current(
        &self,
        cx: &Context,
        instance: &Instance<'_>,
    ) -> Result<PropertyHash, ProviderError> {
        if let Some(mut prefetched) = prefetched(instance) {
            let since = prefetched.shift_remove(UNKNOWN_SINCE);
            if since.is_none_or(|at| at == Value::Integer(cx.generation.current() as i64)) {
                return Ok(prefetched);
            }
        }
        let name = instance.resource.name();
        if !valid_name(&name) {
            // No package can carry such a name: it is not installed.
            return Ok(purged_hash());
        }
        dpkg::state(cx, &name)
    }

    fn held(&self, cx: &Context, instance: &Instance<'_>) -> Result<bool, ProviderError> {
        let current = self.current(cx, instance)?;
        Ok(
            is_installed(&current)
                && current.get("mark").map(value_text).as_deref() == Some("hold"),
        )
    }

    /// The version `latest` means for this resource.
    fn latest(
        &self,
        cx: &Context,
        name: &str,
        resource: &Resource,
    ) -> Result<String, ProviderError> {
        match self.kind {
            Kind::Dpkg => dpkg::latest(cx, name, resource),
            Kind::Apt => apt::latest(cx, name, resource),
        }
    }

    fn hold(&self, cx: &Context, name: &str, hold: bool) -> Result<(), ProviderError> {
        match self.kind {
            Kind::Dpkg => dpkg::select(cx, name, hold),
            Kind::Apt => apt::mark(cx, name, hold),
        }
    }

    /// Installs (or upgrades, or downgrades) the package. A hold is lifted
    /// for the installation and put back afterwards when `mark => hold`
    /// asks for it, even when the installation failed.
    fn install(
        &self,
        cx: &Context,
        instance: &mut Instance<'_>,
        version: Option<&str>,
    ) -> Result<(), ProviderError> {
        let resource = instance.resource;
        let name = checked_name(resource)?;
        if self.held(cx, instance)? {
            self.hold(cx, &name, false)?;
        }
        let installed = match self.kind {
            Kind::Dpkg => dpkg::install(cx, resource),
            Kind::Apt => apt::install(cx, &name, resource, version),
        };
        let rehold = if resource.text("mark").as_deref() == Some("hold") {
            self.hold(cx, &name, true)
        } else {
            Ok(())
        };
        // The system changed: later questions must read it again.
        instance.property_hash.clear();
        installed?;
        rehold
    }

    /// Removes the package; `purge` also drops its configuration files.
    fn remove(
        &self,
        cx: &Context,
        instance: &mut Instance<'_>,
        purge: bool,
    ) -> Result<(), ProviderError> {
        let resource = instance.resource;
        let name = checked_name(resource)?;
        let held = self.held(cx, instance)?;
        instance.property_hash.clear();
        match (self.kind, purge) {
            (Kind::Dpkg, false) => dpkg::uninstall(cx, &name),
            (Kind::Dpkg, true) => dpkg::purge(cx, &name),
            (Kind::Apt, _) => apt::remove(cx, &name, resource, held, purge),
        }
    }
}

impl PropertyProvider for Debian {
    /// Every package dpkg lists, once: a package installed for several
    /// architectures is listed by one name, and Puppet shows the first.
    fn instances(&self, cx: &Context) -> Result<Vec<PropertyHash>, ProviderError> {
        let mut seen = std::collections::HashSet::new();
        Ok(dpkg::list(cx)?
            .iter()
            .filter(|entry| seen.insert(entry.name.clone()))
            .map(|entry| {
                let mut hash = entry.hash();
                hash.shift_remove("error");
                hash
            })
            .collect())
    }

    /// One `dpkg-query` for every managed package, and for `apt`, one
    /// `apt-cache policy` for every installed package that should be the
    /// latest.
    fn prefetch(&self, cx: &Context, instances: &mut [Instance<'_>]) -> Result<(), ProviderError> {
        let mut names: Vec<String> = instances
            .iter()
            .map(|i| i.resource.name())
            .filter(|name| valid_name(name))
            .collect();
        names.sort();
        names.dedup();
        let entries = dpkg::query(cx, &names)?;
        for instance in instances.iter_mut() {
            let name = instance.resource.name();
            let mut hash = match dpkg::find(&entries, &name).filter(|_| valid_name(&name)) {
                Some(entry) => entry.hash(),
                None => purged_hash(),
            };
            // A package not installed holds only until the run changes
            // something: an earlier package may bring it in as a
            // dependency (mysql-server installs the client, postgresql
            // cron), and Puppet's provider, which lists only the packages
            // dpkg has, reads such a package when it gets to it. dpkg
            // answers for one it knows of from its archives but never
            // had ("not-installed") when asked by name.
            if !is_installed(&hash) {
                hash.insert(
                    UNKNOWN_SINCE.into(),
                    Value::Integer(cx.generation.current() as i64),
                );
            }
            instance.property_hash = hash;
        }
        if self.kind == Kind::Apt {
            let mut wanted: Vec<String> = instances
                .iter()
                .filter(|i| {
                    desired_ensure(i).as_deref() == Some("latest")
                        && i.resource.get("source").is_none()
                        && is_installed(&i.property_hash)
                })
                .map(|i| i.resource.name())
                .collect();
            wanted.sort();
            wanted.dedup();
            match apt::candidates(cx, &wanted) {
                Ok(found) => {
                    for instance in instances.iter_mut() {
                        if let Some(version) = found.get(&instance.resource.name()) {
                            instance
                                .property_hash
                                .insert("latest".into(), text(version));
                        }
                    }
                }
                // Each resource looks its candidate up again when it is
                // evaluated, and reports the failure as its own.
                Err(e) => cx
                    .logger
                    .debug("Provider apt", &format!("Could not list candidates: {e}")),
            }
        }
        Ok(())
    }

    fn exists(&self, cx: &Context, instance: &Instance<'_>) -> Result<bool, ProviderError> {
        Ok(is_installed(&self.current(cx, instance)?))
    }

    fn get(
        &self,
        cx: &Context,
        instance: &Instance<'_>,
        attr: &str,
    ) -> Result<Option<Value>, ProviderError> {
        match attr {
            "ensure" => {
                let desired = desired_ensure(instance);
                if let Some(desired) = &desired {
                    check_ensure_feature(self.kind.name(), self.kind.ensure_features(), desired)?;
                }
                let current = self.current(cx, instance)?;
                let ensure = current
                    .get("ensure")
                    .cloned()
                    .unwrap_or_else(|| text("purged"));
                if let Some(error) = current.get("error") {
                    return Err(ProviderError::new(format!(
                        "Package {}, version {} is in error state: {}",
                        instance.resource.name(),
                        value_text(&ensure),
                        value_text(error)
                    )));
                }
                if desired.as_deref() == Some("latest") && is_installed(&current) {
                    // The comparison reads the candidate from the shared
                    // table, right after this.
                    let name = instance.resource.name();
                    let candidate = match current.get("latest") {
                        Some(version) => value_text(version),
                        None => self.latest(cx, &name, instance.resource)?,
                    };
                    record_candidate(instance.resource, &candidate);
                }
                Ok(Some(ensure))
            }
            "mark" => {
                let current = self.current(cx, instance)?;
                Ok(if is_installed(&current) {
                    current.get("mark").cloned()
                } else {
                    None
                })
            }
            other => Ok(instance.property_hash.get(other).cloned()),
        }
    }

    fn create(&self, cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        reported(cx, self.install(cx, instance, None))
    }

    fn destroy(&self, cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        reported(cx, self.remove(cx, instance, false))
    }

    fn set(
        &self,
        cx: &Context,
        instance: &mut Instance<'_>,
        attr: &str,
        value: &Value,
    ) -> Result<(), ProviderError> {
        let wanted = value_text(value);
        match attr {
            "ensure" => {
                check_ensure_feature(self.kind.name(), self.kind.ensure_features(), &wanted)?;
                let result = match wanted.as_str() {
                    "present" => self.install(cx, instance, None),
                    "absent" => self.remove(cx, instance, false),
                    "purged" => self.remove(cx, instance, true),
                    // Installing without a version takes the newest
                    // (`apt`) or the version in `source` (`dpkg`).
                    "latest" => self.install(cx, instance, None),
                    version => self.install(cx, instance, Some(version)),
                };
                reported(cx, result)
            }
            "mark" => {
                let name = checked_name(instance.resource)?;
                self.hold(cx, &name, wanted == "hold")?;
                instance.property_hash.insert("mark".into(), value.clone());
                Ok(())
            }
            other => Err(ProviderError::new(format!(
                "the {} provider cannot change {other}",
                self.kind.name()
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_could_be_options_or_patterns_are_invalid() {
        for good in ["bash", "libc6:amd64", "g++", "lib32z1-dev", "python3.11"] {
            assert!(valid_name(good), "{good}");
        }
        for bad in [
            "",
            "-r",
            "--admindir=/tmp",
            "ba*",
            "a b",
            "x?",
            "[ab]",
            "pkg:",
            "a:b:c",
        ] {
            assert!(!valid_name(bad), "{bad}");
        }
    }

    #[test]
    fn relative_sources_cannot_become_options() {
        assert_eq!(source_argument("/tmp/a.deb"), "/tmp/a.deb");
        assert_eq!(source_argument("-a.deb"), "./-a.deb");
        assert_eq!(source_argument("../a.deb"), "../a.deb");
    }

    #[test]
    fn hashes_become_sorted_key_value_options() {
        let mut hash = marionette_values::PHash::default();
        hash.insert(Value::String("-t".into()), Value::String("bookworm".into()));
        hash.insert(Value::String("-a".into()), Value::String("b".into()));
        let value = Value::Array(
            vec![
                Value::String("--no-install-recommends".into()),
                Value::Hash(hash.into()),
            ]
            .into(),
        );
        assert_eq!(
            options(&value),
            ["--no-install-recommends", "-a=b", "-t=bookworm"]
        );
    }

    #[test]
    fn ensure_features_agree_with_the_provider_definitions() {
        let registry = crate::registry();
        let type_def = registry.type_def("package").unwrap();
        for kind in [Kind::Dpkg, Kind::Apt] {
            let provider = registry.provider("package", kind.name()).unwrap();
            let declared = provider.feature_list(type_def);
            for feature in [
                "installable",
                "uninstallable",
                "upgradeable",
                "purgeable",
                "versionable",
                "disableable",
            ] {
                assert_eq!(
                    declared.iter().any(|f| f == feature),
                    kind.ensure_features().contains(&feature),
                    "{} {feature}",
                    kind.name()
                );
            }
        }
    }
}

//! The `package` providers of languages' own installers (`gem`, `pip3`, `npm`):
//! one [`PropertyProvider`], [`Installer`], over what each tool does
//! differently, described by an [`Tool`]: how it lists what is installed,
//! installs, removes and finds the newest version, and which names and
//! versions it takes without reading them as options.

use std::marker::PhantomData;

use marionette_ral::attribute::value_text;
use marionette_ral::{
    CommandSpec, Context, Instance, PropertyHash, PropertyProvider, ProviderError, Resource,
};
use marionette_values::Value;

use super::{check_ensure_feature, desired_ensure, reported};

/// What one installer does its own way.
pub trait Tool: Send + Sync + 'static {
    /// The provider's name.
    const NAME: &'static str;
    /// What a valid name is, for the message refusing another.
    const NAME_RULE: &'static str;
    /// The program, and the words that remove a package with it.
    const PROGRAM: &'static str;
    const UNINSTALL: &'static [&'static str];

    /// Whether the tool takes `name` as a package name (never as an
    /// option).
    fn valid_name(name: &str) -> bool;

    /// Whether `version` is an exact version the tool takes.
    fn valid_version(version: &str) -> bool;

    /// Whether two names are the same package (the tool may fold case or
    /// spelling).
    fn same_name(a: &str, b: &str) -> bool {
        a == b
    }

    /// The installed packages and their versions, newest first; only
    /// `name` when given (a valid one).
    fn list(cx: &Context, name: Option<&str>) -> Result<Vec<(String, Vec<String>)>, ProviderError>;

    /// `ensure` for the installed versions, as Puppet's provider gives it.
    fn ensure(versions: &[String]) -> Value;

    fn install(
        cx: &Context,
        resource: &Resource,
        name: &str,
        version: Option<&str>,
    ) -> Result<(), ProviderError>;

    fn uninstall(cx: &Context, resource: &Resource, name: &str) -> Result<(), ProviderError> {
        let mut argv = argv(
            Self::PROGRAM,
            Self::UNINSTALL,
            resource,
            "uninstall_options",
        );
        argv.push(name.to_string());
        cx.run(&CommandSpec::new(&argv).combined())?;
        Ok(())
    }

    /// The newest version the package sources offer.
    fn latest(cx: &Context, resource: &Resource, name: &str) -> Result<String, ProviderError>;
}

/// The features that decide which `ensure` values these providers take.
const ENSURE_FEATURES: &[&str] = &["installable", "uninstallable", "upgradeable", "versionable"];

/// The provider of an installer.
pub struct Installer<T: Tool>(PhantomData<T>);

impl<T: Tool> Installer<T> {
    pub fn new() -> Installer<T> {
        Installer(PhantomData)
    }
}

impl<T: Tool> Default for Installer<T> {
    fn default() -> Installer<T> {
        Installer::new()
    }
}

fn text(value: &str) -> Value {
    Value::String(value.into())
}

fn absent() -> PropertyHash {
    PropertyHash::from([("ensure".to_string(), text("absent"))])
}

impl<T: Tool> Installer<T> {
    fn checked_name(resource: &Resource) -> Result<String, ProviderError> {
        let name = resource.name();
        if T::valid_name(&name) {
            Ok(name)
        } else {
            Err(ProviderError::new(format!(
                "'{name}' is not a valid {} name ({})",
                T::NAME,
                T::NAME_RULE
            )))
        }
    }

    fn state(installed: &[(String, Vec<String>)], name: &str) -> PropertyHash {
        installed
            .iter()
            .find(|(found, _)| T::same_name(found, name))
            .map_or_else(absent, |(_, versions)| {
                PropertyHash::from([("ensure".to_string(), T::ensure(versions))])
            })
    }

    /// The package's state: what prefetching found, else read now.
    fn current(
        &self,
        cx: &Context,
        instance: &Instance<'_>,
    ) -> Result<PropertyHash, ProviderError> {
        if let Some(prefetched) = super::prefetched(instance) {
            return Ok(prefetched);
        }
        let name = instance.resource.name();
        if !T::valid_name(&name) {
            return Ok(absent());
        }
        Ok(Self::state(&T::list(cx, Some(&name))?, &name))
    }

    fn install(
        &self,
        cx: &Context,
        instance: &mut Instance<'_>,
        version: Option<&str>,
    ) -> Result<(), ProviderError> {
        let name = Self::checked_name(instance.resource)?;
        if let Some(version) = version
            && !T::valid_version(version)
        {
            return Err(ProviderError::new(format!(
                "'{version}' is not an exact {} version (version requirements are not supported)",
                T::NAME
            )));
        }
        instance.property_hash.clear();
        T::install(cx, instance.resource, &name, version)
    }

    fn uninstall(&self, cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        let name = Self::checked_name(instance.resource)?;
        instance.property_hash.clear();
        T::uninstall(cx, instance.resource, &name)
    }
}

impl<T: Tool> PropertyProvider for Installer<T> {
    fn instances(&self, cx: &Context) -> Result<Vec<PropertyHash>, ProviderError> {
        Ok(T::list(cx, None)?
            .into_iter()
            .map(|(name, versions)| {
                PropertyHash::from([
                    ("name".to_string(), text(&name)),
                    ("ensure".to_string(), T::ensure(&versions)),
                ])
            })
            .collect())
    }

    /// One listing for every package of the tool the run manages.
    fn prefetch(&self, cx: &Context, instances: &mut [Instance<'_>]) -> Result<(), ProviderError> {
        let installed = T::list(cx, None)?;
        for instance in instances.iter_mut() {
            instance.property_hash = Self::state(&installed, &instance.resource.name());
        }
        Ok(())
    }

    fn exists(&self, cx: &Context, instance: &Instance<'_>) -> Result<bool, ProviderError> {
        Ok(self
            .current(cx, instance)?
            .get("ensure")
            .is_some_and(|e| value_text(e) != "absent"))
    }

    fn get(
        &self,
        cx: &Context,
        instance: &Instance<'_>,
        attr: &str,
    ) -> Result<Option<Value>, ProviderError> {
        if attr != "ensure" {
            return Ok(instance.property_hash.get(attr).cloned());
        }
        let desired = desired_ensure(instance);
        if let Some(desired) = &desired {
            check_ensure_feature(T::NAME, ENSURE_FEATURES, desired)?;
        }
        let current = self.current(cx, instance)?;
        let ensure = current
            .get("ensure")
            .cloned()
            .unwrap_or_else(|| text("absent"));
        if desired.as_deref() == Some("latest") && value_text(&ensure) != "absent" {
            let name = Self::checked_name(instance.resource)?;
            let candidate = T::latest(cx, instance.resource, &name)?;
            crate::types::package::record_candidate(instance.resource, &candidate);
        }
        Ok(Some(ensure))
    }

    fn create(&self, cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        reported(cx, self.install(cx, instance, None))
    }

    fn destroy(&self, cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        reported(cx, self.uninstall(cx, instance))
    }

    fn set(
        &self,
        cx: &Context,
        instance: &mut Instance<'_>,
        attr: &str,
        value: &Value,
    ) -> Result<(), ProviderError> {
        if attr != "ensure" {
            return Err(ProviderError::new(format!(
                "the {} provider cannot change {attr}",
                T::NAME
            )));
        }
        let wanted = value_text(value);
        check_ensure_feature(T::NAME, ENSURE_FEATURES, &wanted)?;
        let result = match wanted.as_str() {
            "present" | "installed" => self.install(cx, instance, None),
            "absent" | "purged" => self.uninstall(cx, instance),
            // The newest version, asked for by its number.
            "latest" => Self::checked_name(instance.resource)
                .and_then(|name| T::latest(cx, instance.resource, &name))
                .and_then(|version| self.install(cx, instance, Some(&version))),
            version => self.install(cx, instance, Some(version)),
        };
        reported(cx, result)
    }
}

/// Whether `text` starts with a character `first` accepts and goes on with
/// letters, digits and the `extra` characters: the shape of the names and
/// versions the installers take, none of which can be an option.
pub fn spelled(text: &str, first: impl Fn(char) -> bool, extra: &[char]) -> bool {
    text.chars().next().is_some_and(first)
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || extra.contains(&c))
}

/// What an install names: the `source` (a URL as given, a local path as
/// the tool reads one), else the name, at `version` after `joiner` (pip's
/// `==`, npm's `@`).
pub fn install_target(
    resource: &Resource,
    name: &str,
    version: Option<&str>,
    joiner: &str,
) -> String {
    match (resource.text("source"), version) {
        (Some(source), _) if source.contains("://") => source,
        (Some(source), _) => super::source_argument(&source),
        (None, Some(version)) => format!("{name}{joiner}{version}"),
        (None, None) => name.to_string(),
    }
}

/// `ensure` for a tool that has one version of a package installed: that
/// version, as Puppet's pip3 and npm providers give it.
pub fn single_version(versions: &[String]) -> Value {
    Value::String(versions.first().map_or("", String::as_str).into())
}

/// A command line: the program and its words, then the resource's
/// options for it (`install_options`, `uninstall_options`).
pub fn argv(program: &str, words: &[&str], resource: &Resource, options: &str) -> Vec<String> {
    let mut argv: Vec<String> = std::iter::once(program)
        .chain(words.iter().copied())
        .map(str::to_string)
        .collect();
    argv.extend(
        resource
            .get(options)
            .map(super::options)
            .unwrap_or_default(),
    );
    argv
}

/// The error of a `latest` that found no version of `name` in `sources`.
pub fn no_latest(sources: &str, name: &str) -> ProviderError {
    ProviderError::new(format!(
        "Could not get latest version: {sources} have no {name}"
    ))
}

/// The features both installers have.
pub const FEATURES: &[&str] = &[
    "installable",
    "uninstallable",
    "upgradeable",
    "versionable",
    "install_options",
    "uninstall_options",
];

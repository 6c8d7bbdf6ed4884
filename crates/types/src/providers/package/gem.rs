//! `package` through RubyGems' `gem` command, as Puppet's `gem` provider:
//! installed gems and their versions from `gem list --local`, installation
//! by name (optionally at an exact version) or from a local `.gem` file or
//! a gem server given as `source`, removal with every version and its
//! executables, and `latest` from the gem sources.
//!
//! Every command gets its arguments as argv, never through a shell; names,
//! versions and sources that `gem` could read as options are refused.

use marionette_ral::attribute::value_text;
use marionette_ral::{
    CommandSpec, Context, Instance, PropertyHash, PropertyProvider, ProviderDef, ProviderError,
    Resource,
};
use marionette_values::Value;

use super::{check_ensure_feature, desired_ensure, options, reported};

pub const GEM: &str = "/usr/bin/gem";

/// The features that decide which `ensure` values this provider takes.
const ENSURE_FEATURES: &[&str] = &["installable", "uninstallable", "upgradeable", "versionable"];

fn text(value: &str) -> Value {
    Value::String(value.into())
}

/// Whether a gem name is one `gem` takes as a name: letters, digits, `.`,
/// `_` and `-`, not starting with `-`.
pub fn valid_name(name: &str) -> bool {
    name.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
}

/// Whether a version is an exact gem version (`1.2.3`, `2.0.0.pre1`).
pub fn valid_version(version: &str) -> bool {
    version.chars().next().is_some_and(|c| c.is_ascii_digit())
        && version
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
}

fn checked_name(resource: &Resource) -> Result<String, ProviderError> {
    let name = resource.name();
    if valid_name(&name) {
        Ok(name)
    } else {
        Err(ProviderError::new(format!(
            "'{name}' is not a valid gem name (letters, digits, '.', '_' and '-', not starting with '-')"
        )))
    }
}

/// One `gem list` line: `rake (13.0.6, default: 13.0.3)` gives the name
/// and its versions, newest first, as `gem` lists them.
pub fn parse_line(line: &str) -> Option<(String, Vec<String>)> {
    let (name, rest) = line.trim().split_once(" (")?;
    let versions = rest.strip_suffix(')')?;
    let versions: Vec<String> = versions
        .split(", ")
        .map(|v| v.trim_start_matches("default: ").trim().to_string())
        // Platform-specific builds are listed as `1.15.4 x86_64-linux`.
        .map(|v| v.split_whitespace().next().unwrap_or_default().to_string())
        .filter(|v| !v.is_empty())
        .collect();
    (!name.is_empty() && !versions.is_empty()).then(|| (name.to_string(), versions))
}

/// A gem's state: `ensure` is the list of its installed versions, newest
/// first, as Puppet's provider gives it (`['13.0.6']`).
fn state(versions: &[String]) -> PropertyHash {
    let ensure = Value::Array(versions.iter().map(|v| text(v)).collect::<Vec<_>>().into());
    PropertyHash::from([("ensure".to_string(), ensure)])
}

fn absent() -> PropertyHash {
    PropertyHash::from([("ensure".to_string(), text("absent"))])
}

/// The installed gems, or only `name` (exactly) when one is given.
fn list(cx: &Context, name: Option<&str>) -> Result<Vec<(String, Vec<String>)>, ProviderError> {
    debug_assert!(name.is_none_or(valid_name));
    let mut argv = vec![GEM, "list", "--local"];
    if let Some(name) = name {
        // `gem` takes no `--`: a name that could be an option is refused
        // before it gets here.
        argv.extend(["--exact", name]);
    }
    Ok(cx.output(&argv)?.lines().filter_map(parse_line).collect())
}

/// The `gem` provider.
pub struct Gem;

impl Gem {
    fn current(
        &self,
        cx: &Context,
        instance: &Instance<'_>,
    ) -> Result<PropertyHash, ProviderError> {
        if instance.property_hash.contains_key("ensure") {
            return Ok(instance.property_hash.clone());
        }
        let name = instance.resource.name();
        if !valid_name(&name) {
            return Ok(absent());
        }
        Ok(list(cx, Some(&name))?
            .into_iter()
            .find(|(found, _)| *found == name)
            .map_or_else(absent, |(_, versions)| state(&versions)))
    }

    /// The newest version the gem sources offer.
    fn latest(
        &self,
        cx: &Context,
        name: &str,
        resource: &Resource,
    ) -> Result<String, ProviderError> {
        let mut argv = vec![
            GEM.to_string(),
            "list".into(),
            "--remote".into(),
            "--exact".into(),
        ];
        if let Some(source) = resource.text("source").filter(|s| is_server(s)) {
            argv.extend(["--source".into(), source]);
        }
        argv.push(name.to_string());
        cx.output(&argv)?
            .lines()
            .filter_map(parse_line)
            .find(|(found, _)| found == name)
            .and_then(|(_, versions)| versions.into_iter().next())
            .ok_or_else(|| {
                ProviderError::new(format!(
                    "Could not get latest version: the gem sources have no {name}"
                ))
            })
    }

    fn install(
        &self,
        cx: &Context,
        instance: &mut Instance<'_>,
        version: Option<&str>,
    ) -> Result<(), ProviderError> {
        let resource = instance.resource;
        let name = checked_name(resource)?;
        let mut argv: Vec<String> = vec![GEM.into(), "install".into(), "--no-document".into()];
        argv.extend(
            resource
                .get("install_options")
                .map(options)
                .unwrap_or_default(),
        );
        if let Some(version) = version {
            if !valid_version(version) {
                return Err(ProviderError::new(format!(
                    "'{version}' is not an exact gem version (version requirements are not supported)"
                )));
            }
            argv.extend(["--version".into(), version.to_string()]);
        }
        match resource.text("source") {
            // A gem server to install the named gem from.
            Some(source) if is_server(&source) => argv.extend(["--source".into(), source, name]),
            // A local `.gem` file, as a path `gem` cannot take for an
            // option (`gem` takes no `--`).
            Some(source) => argv.push(super::source_argument(&source)),
            None => argv.push(name),
        }
        instance.property_hash.clear();
        let output = cx.run(&CommandSpec::new(&argv).combined())?;
        // `gem` can exit 0 having installed nothing it was asked for.
        if output.stdout.contains("ERROR:") {
            return Err(ProviderError::new(format!(
                "Could not install: {}",
                output.stdout.trim()
            )));
        }
        Ok(())
    }

    fn uninstall(&self, cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        let resource = instance.resource;
        let name = checked_name(resource)?;
        let mut argv: Vec<String> = vec![
            GEM.into(),
            "uninstall".into(),
            "--executables".into(),
            "--all".into(),
        ];
        argv.extend(
            resource
                .get("uninstall_options")
                .map(options)
                .unwrap_or_default(),
        );
        argv.push(name);
        instance.property_hash.clear();
        cx.run(&CommandSpec::new(&argv).combined())?;
        Ok(())
    }
}

/// Whether `source` names a gem server rather than a local file.
fn is_server(source: &str) -> bool {
    source.starts_with("http://") || source.starts_with("https://")
}

impl PropertyProvider for Gem {
    fn instances(&self, cx: &Context) -> Result<Vec<PropertyHash>, ProviderError> {
        Ok(list(cx, None)?
            .into_iter()
            .map(|(name, versions)| {
                let mut hash = state(&versions);
                hash.insert("name".into(), text(&name));
                hash
            })
            .collect())
    }

    /// One `gem list --local` for every gem the run manages.
    fn prefetch(&self, cx: &Context, instances: &mut [Instance<'_>]) -> Result<(), ProviderError> {
        let installed = list(cx, None)?;
        for instance in instances.iter_mut() {
            let name = instance.resource.name();
            instance.property_hash = installed
                .iter()
                .find(|(found, _)| *found == name)
                .map_or_else(absent, |(_, versions)| state(versions));
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
            check_ensure_feature("gem", ENSURE_FEATURES, desired)?;
        }
        let current = self.current(cx, instance)?;
        let ensure = current
            .get("ensure")
            .cloned()
            .unwrap_or_else(|| text("absent"));
        if desired.as_deref() == Some("latest") && value_text(&ensure) != "absent" {
            let name = instance.resource.name();
            let candidate = self.latest(cx, &name, instance.resource)?;
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
        let wanted = value_text(value);
        if attr != "ensure" {
            return Err(ProviderError::new(format!(
                "the gem provider cannot change {attr}"
            )));
        }
        check_ensure_feature("gem", ENSURE_FEATURES, &wanted)?;
        let result = match wanted.as_str() {
            "present" | "latest" => self.install(cx, instance, None),
            "absent" | "purged" => self.uninstall(cx, instance),
            version => self.install(cx, instance, Some(version)),
        };
        reported(cx, result)
    }
}

pub fn definition() -> ProviderDef {
    ProviderDef::properties("package", "gem", Gem)
        .doc(
            "Installs Ruby gems with RubyGems' `gem` command: by name, at an exact
        version (`ensure => '1.2.3'`), from a local `.gem` file or from a gem
        server given as `source`. `ensure => latest` follows the newest version
        of the gem sources. Removes every installed version with its
        executables. `install_options` and `uninstall_options` are added to the
        `gem` command line.",
        )
        .command("gemcmd", GEM)
        .has_features(&[
            "installable",
            "uninstallable",
            "upgradeable",
            "versionable",
            "install_options",
            "uninstall_options",
        ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_lines_give_names_and_versions() {
        assert_eq!(
            parse_line("rake (13.0.6, default: 13.0.3)"),
            Some(("rake".into(), vec!["13.0.6".into(), "13.0.3".into()]))
        );
        assert_eq!(
            parse_line("nokogiri (1.15.4 x86_64-linux)"),
            Some(("nokogiri".into(), vec!["1.15.4".into()]))
        );
        assert_eq!(parse_line("*** LOCAL GEMS ***"), None);
        assert_eq!(parse_line(""), None);
    }

    #[test]
    fn names_and_versions_that_could_be_options_are_refused() {
        assert!(valid_name("mrtest-hello") && valid_name("net_http") && valid_name("a.b"));
        assert!(!valid_name("-v") && !valid_name("a b") && !valid_name(""));
        assert!(valid_version("1.2.3") && valid_version("2.0.0.pre1"));
        assert!(!valid_version(">= 1.0") && !valid_version("-1") && !valid_version(""));
    }
}

//! `package`: software packages installed through the system's package
//! manager.
//!
//! The type decides what "in sync" means for `ensure`, which is richer than
//! present/absent: a package can be wanted at any version, at a given
//! version, at the newest version the package sources offer, or removed
//! together with its configuration files. The providers report the
//! installed version (or `absent` when only configuration files are left,
//! or `purged` when nothing is left) and do the work.

use marionette_ral::attribute::{display_value, inspect, parse_boolean, value_text};
use marionette_ral::{AttrDef, Resource, TypeDef};
use marionette_values::{PType, Value};

use marionette_ral::candidate::candidate;
pub use marionette_ral::candidate::record_candidate;

/// The states a package can be in without being installed.
fn not_installed(state: &str) -> bool {
    matches!(state, "absent" | "purged")
}

/// The current state as text; a provider that reports nothing means the
/// package is unknown to the system.
fn state_text(current: &Value) -> String {
    match current {
        Value::Undef => "purged".to_string(),
        other => value_text(other),
    }
}

/// Whether the current state satisfies one desired `ensure` value.
fn ensure_matches(resource: &Resource, is: &str, should: &str) -> bool {
    match should {
        // Any installed version will do.
        "present" => !not_installed(is) && is != "disabled",
        // Configuration files left behind still count as removed.
        "absent" => not_installed(is),
        // Only a package the system no longer knows at all is purged.
        "purged" => is == "purged",
        "latest" => !not_installed(is) && candidate(resource).is_some_and(|c| c == is),
        // A version must be installed exactly.
        version => is == version,
    }
}

/// `ensure` is in sync when any of the desired values is satisfied. A
/// provider that keeps versions side by side (`gem`) gives the installed
/// ones as a list: any of them satisfies a version, as in Puppet.
fn ensure_insync(resource: &Resource, current: &Value, desired: &Value) -> bool {
    let states: Vec<String> = match current {
        Value::Array(items) if items.is_empty() => vec!["absent".to_string()],
        Value::Array(items) => items.iter().map(value_text).collect(),
        other => vec![state_text(other)],
    };
    let wanted: Vec<String> = match desired {
        Value::Array(items) => items.iter().map(value_text).collect(),
        single => vec![value_text(single)],
    };
    wanted
        .iter()
        .any(|should| states.iter().any(|is| ensure_matches(resource, is, should)))
}

/// Puppet's messages: installing from nothing is `created` whatever
/// version was asked for, purging is `purged`, removing is `removed`, and
/// an upgrade to `latest` names the version it went to.
fn ensure_change(resource: &Resource, current: &Value, desired: &Value) -> String {
    let is = state_text(current);
    let should = value_text(desired);
    if should == "purged" {
        return "purged".to_string();
    }
    if should == "absent" {
        return "removed".to_string();
    }
    if not_installed(&is) {
        return "created".to_string();
    }
    format!(
        "ensure changed {} to {}",
        display_value(current),
        display_value(&Value::String(
            shown_should(resource, should).as_str().into()
        ))
    )
}

/// What `latest` stands for once the package is installed: the version it
/// would go to, as Puppet's `should_to_s` shows it once `insync?` has
/// asked the provider.
fn shown_should(resource: &Resource, should: String) -> String {
    match should.as_str() {
        "latest" => candidate(resource).unwrap_or(should),
        _ => should,
    }
}

/// A noop run names the version `latest` would install over an installed
/// one; over nothing, `latest` itself (Puppet asks the provider only for
/// an installed package).
fn ensure_noop(resource: &Resource, current: &Value, desired: &Value) -> String {
    let should = value_text(desired);
    let shown = if not_installed(&state_text(current)) {
        should
    } else {
        shown_should(resource, should)
    };
    format!(
        "current_value {}, should be {} (noop)",
        display_value(current),
        display_value(&Value::String(shown.as_str().into()))
    )
}

/// Package options: a string or a hash, or an array of them.
fn check_options(value: &Value) -> Result<(), String> {
    let items: Vec<&Value> = match value {
        Value::Array(items) => items.iter().collect(),
        other => vec![other],
    };
    for item in items {
        match item {
            Value::String(_) => {}
            Value::Hash(hash) => {
                if hash.iter().any(|(key, _)| !matches!(key, Value::String(_))) {
                    return Err("Option hash keys must be strings".to_string());
                }
            }
            other => {
                return Err(format!(
                    "Expected either a string or hash of options, got {}",
                    inspect(other)
                ));
            }
        }
    }
    Ok(())
}

/// A parameter only a platform we do not support uses: any value is
/// refused, so a manifest never believes it took effect.
fn unsupported_param(name: &str, doc: &str, why: &'static str) -> AttrDef {
    AttrDef::param(name)
        .doc(doc)
        .validate(move |_, _| Err(format!("{why}; it is not supported yet")))
}

/// A boolean parameter whose only supported value is `false`.
fn false_only(name: &str, doc: &str, why: &'static str) -> AttrDef {
    AttrDef::param(name)
        .doc(doc)
        .boolean()
        .default_value(Value::Boolean(false))
        .validate(move |hooked, value| {
            hooked.default_validate(value)?;
            match parse_boolean(value) {
                Some(false) => Ok(()),
                _ => Err(format!("{why}; it is not supported yet")),
            }
        })
}

/// A parameter that only describes the package and has no effect.
fn informational(name: &str) -> AttrDef {
    AttrDef::param(name).doc(
        "Descriptive only: accepted for compatibility with manifests that set it,
        and never used to manage the package.",
    )
}

pub fn definition() -> TypeDef {
    TypeDef::new("package")
        .doc(
            "Installs, upgrades, removes and purges software packages through the
            system's package manager.

            Managers that download packages themselves (such as `apt`) install
            from their configured sources by name; managers that cannot (such as
            `dpkg`) need `source`, the path of a package file on this machine.
            The provider is chosen from the operating system unless `provider`
            names one.

            Several resources may manage packages of the same `name` when their
            titles differ (with different providers, for instance); refer to a
            package by its title.

            Example:

                package { 'openssh-server':
                  ensure => installed,
                }

                package { 'vendor-agent':
                  ensure   => latest,
                  provider => dpkg,
                  source   => '/var/cache/vendor/vendor-agent.deb',
                }

            **Autorequires:** the files named by `source`, `responsefile` and
            `adminfile`, when the catalog manages them.",
        )
        .feature("reinstallable", "The provider can reinstall a package.", &["reinstall"])
        .feature("installable", "The provider can install packages.", &["install"])
        .feature("uninstallable", "The provider can remove packages.", &["uninstall"])
        .feature("upgradeable", "The provider can upgrade to the newest available version (`ensure => latest`).", &["update", "latest"])
        .feature("purgeable", "The provider can remove a package with its configuration files (`ensure => purged`), for good.", &["purge"])
        .feature("versionable", "The provider reports versions and can install a given one (`ensure => '1.2-3'`).", &[])
        .feature("version_ranges", "The provider can satisfy a range of versions.", &[])
        .feature("holdable", "The provider can hold a package at its version (`mark => hold`).", &["hold", "unhold"])
        .feature("install_only", "The provider can install new versions beside the old ones (kernels).", &[])
        .feature("install_options", "The provider passes extra options to the installer.", &[])
        .feature("uninstall_options", "The provider passes extra options to the uninstaller.", &[])
        .feature("disableable", "The provider can disable packages (`ensure => disabled`).", &["disable"])
        .feature("supports_flavors", "The provider understands package flavors.", &[])
        .feature(
            "package_settings",
            "The provider manages build or configuration settings of a package.",
            &["package_settings_insync?", "package_settings", "package_settings="],
        )
        .feature("virtual_packages", "The provider can resolve virtual package names.", &[])
        .feature("targetable", "The provider can use another package manager command (`command`).", &[])
        .ensurable()
        .ensure_values(|ensure| {
            ensure
                .doc(
                    "The state the package should be in:

                    - `present` (or `installed`): installed, at whatever version;
                    - `absent`: not installed (configuration files may remain);
                    - `purged`: not installed and no configuration files left;
                    - `latest`: installed at the newest version the package sources
                      offer, upgraded when a newer one appears;
                    - a version, such as `'2.4.1-3'`: installed at exactly that
                      version, which must be written in full as the package manager
                      shows it (upgrading or downgrading as needed);
                    - `disabled`: for package managers that can disable packages.

                    The current state is the installed version, `absent` when only
                    configuration files are left, or `purged` when the system has no
                    trace of the package. `latest`, `purged`, a version and
                    `disabled` need provider features (`upgradeable`, `purgeable`,
                    `versionable`, `disableable`). Defaults to `installed`.",
                )
                .values(&["purged", "disabled", "latest"])
                .alias_value("installed", "present")
                .pattern(".")
                .default_value(Value::String("installed".into()))
                .insync(ensure_insync)
                .change_message(ensure_change)
                .noop_message(ensure_noop)
        })
        .attr(
            AttrDef::param("name")
                .namevar()
                .doc(
                    "The name the package manager knows the package by. Defaults to the
                    title, so a resource can carry a stable title while the name
                    differs between platforms.",
                )
                .validate(|_, value| match value {
                    Value::String(_) => Ok(()),
                    other => Err(format!(
                        "Name must be a String not {}",
                        PType::infer(other).generalize()
                    )),
                }),
        )
        .attr(
            AttrDef::param("command")
                .doc(
                    "The package manager command to use instead of the provider's own.
                    Only `default` (the provider's own) is supported so far.",
                )
                .default_value(Value::String("default".into()))
                .requires_features(&["targetable"])
                .validate(|_, value| {
                    if value_text(value) == "default" {
                        Ok(())
                    } else {
                        Err(format!(
                            "choosing the package manager command ({}) is not supported yet",
                            inspect(value)
                        ))
                    }
                }),
        )
        .attr(
            AttrDef::property("package_settings")
                .doc(
                    "Provider-specific settings that change what a package contains;
                    none of the available providers has any.",
                )
                .requires_features(&["package_settings"]),
        )
        .attr(
            AttrDef::property("flavor")
                .doc("A variant of the package, for package managers that offer several.")
                .requires_features(&["supports_flavors"]),
        )
        .attr(
            AttrDef::param("source")
                .doc(
                    "The package file to install from: the path of a file on this
                    machine (the `dpkg` provider cannot install without one; `apt`
                    installs from it instead of its sources when it is given). Nothing
                    is downloaded; use a `file` resource to put the file in place.",
                )
                .validate(|_, value| match value {
                    Value::String(s) if !s.is_empty() => Ok(()),
                    other => Err(format!(
                        "source must be a non-empty path, not {}",
                        inspect(other)
                    )),
                }),
        )
        .attr(informational("instance"))
        .attr(informational("status"))
        .attr(unsupported_param(
            "adminfile",
            "A Solaris package administration file. Solaris package managers are not
            supported yet, so any value is refused.",
            "adminfile is only used by Solaris package managers",
        ))
        .attr(
            AttrDef::param("responsefile")
                .doc(
                    "A file of answers to the package's configuration questions. The
                    `apt` provider loads it into debconf before installing or removing
                    (when the file exists); `dpkg` ignores it.",
                ),
        )
        .attr(
            AttrDef::param("configfiles")
                .doc(
                    "What to do with configuration files changed locally when a package
                    is installed or upgraded: `keep` them (the default) or `replace`
                    them with the package's versions.",
                )
                .values(&["keep", "replace"])
                .default_value(Value::String("keep".into())),
        )
        .attr(informational("category"))
        .attr(informational("platform"))
        .attr(informational("root"))
        .attr(informational("vendor"))
        .attr(informational("description"))
        .attr(
            AttrDef::param("allowcdrom")
                .doc(
                    "Whether `apt` may install while `/etc/apt/sources.list` lists a CD-ROM
                    source. Without `true`, such a source makes the installation fail
                    rather than wait for a disc.",
                )
                .values(&["true", "false"]),
        )
        .attr(false_only(
            "enable_only",
            "For DNF modules: only enable the module instead of installing its default
            profile. Only `false` is supported so far.",
            "enable_only is only used by DNF modules",
        ))
        .attr(
            AttrDef::param("install_only")
                .doc(
                    "Whether new versions are installed beside the old ones instead of
                    replacing them (kernels).",
                )
                .boolean()
                .default_value(Value::Boolean(false))
                .requires_features(&["install_only"]),
        )
        .attr(
            AttrDef::param("install_options")
                .doc(
                    "Extra options for the installer, as an array whose elements are
                    strings, passed as they are, or hashes, each pair passed as
                    `key=value` (keys in sorted order). Each option is one argument: no
                    shell sees them, so nothing needs quoting.

                        package { 'nginx':
                          install_options => ['--no-install-recommends', { '-t' => 'bookworm-backports' }],
                        }",
                )
                .requires_features(&["install_options"])
                .validate(|_, value| check_options(value)),
        )
        .attr(
            AttrDef::param("uninstall_options")
                .doc("Extra options for the uninstaller, written like `install_options`.")
                .requires_features(&["uninstall_options"])
                .validate(|_, value| check_options(value)),
        )
        .attr(false_only(
            "allow_virtual",
            "Whether `name` may be a virtual package, provided by another package.
            Only `false` is supported so far.",
            "installing virtual packages",
        ).requires_features(&["virtual_packages"]))
        .attr(
            AttrDef::param("reinstall_on_refresh")
                .doc(
                    "Whether a refresh event (from `notify`, `subscribe` or `~>`)
                    reinstalls the package. Only providers with the `reinstallable`
                    feature can; for the others a refresh does nothing.",
                )
                .values(&["true", "false"])
                .default_value(Value::String("false".into())),
        )
        .attr(
            AttrDef::property("mark")
                .doc(
                    "`hold` keeps the package at its installed version: upgrades of
                    other packages will not touch it. `none` lifts the hold. Cannot be
                    combined with `ensure => absent` or `purged`.",
                )
                .values(&["hold", "none"])
                .requires_features(&["holdable"]),
        )
        .refreshable()
        .validate(|resource| {
            let removing = matches!(resource.text("ensure").as_deref(), Some("absent" | "purged"));
            if resource.is_given("mark") && removing {
                return Err(
                    "You cannot use \"mark\" property while \"ensure\" is one of [\"absent\", \"purged\"]"
                        .to_string(),
                );
            }
            Ok(())
        })
        .autorequire("file", |resource| {
            let mut titles: Vec<String> = ["responsefile", "adminfile"]
                .iter()
                .filter_map(|attr| resource.text(attr))
                .collect();
            if let Some(source) = resource.text("source")
                && source.starts_with('/')
            {
                titles.push(source);
            }
            titles
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use marionette_ral::Origin;
    use std::sync::Arc;

    fn s(text: &str) -> Value {
        Value::String(text.into())
    }

    fn package(attrs: &[(&str, Value)]) -> Result<Resource, String> {
        Resource::new(
            Arc::new(definition()),
            "mrtest-pkg",
            attrs.iter().map(|(k, v)| (k.to_string(), v.clone())),
            Origin::default(),
        )
        .map_err(|e| e.to_string())
    }

    #[test]
    fn present_accepts_any_version_and_absent_accepts_purged() {
        let r = package(&[]).unwrap();
        assert_eq!(r.text("ensure").as_deref(), Some("present"));
        assert!(ensure_insync(&r, &s("1.0"), &s("present")));
        assert!(!ensure_insync(&r, &s("absent"), &s("present")));
        assert!(!ensure_insync(&r, &s("purged"), &s("present")));
        assert!(ensure_insync(&r, &s("purged"), &s("absent")));
        assert!(ensure_insync(&r, &s("absent"), &s("absent")));
        assert!(!ensure_insync(&r, &s("absent"), &s("purged")));
        assert!(!ensure_insync(&r, &s("1.0"), &s("purged")));
        assert!(ensure_insync(&r, &s("2.0"), &s("2.0")));
        assert!(!ensure_insync(&r, &s("2.0"), &s("2.0-1")));
    }

    #[test]
    fn latest_compares_with_the_recorded_candidate() {
        let r = package(&[("ensure", s("latest")), ("name", s("mrtest-unit-latest"))]).unwrap();
        // Without a known candidate, `latest` cannot be confirmed.
        assert!(!ensure_insync(&r, &s("1.0"), &s("latest")));
        record_candidate(&r, "2.0");
        assert!(!ensure_insync(&r, &s("1.0"), &s("latest")));
        assert!(ensure_insync(&r, &s("2.0"), &s("latest")));
        assert!(!ensure_insync(&r, &s("purged"), &s("latest")));
        assert_eq!(
            ensure_change(&r, &s("1.0"), &s("latest")),
            "ensure changed '1.0' to '2.0'"
        );
    }

    #[test]
    fn messages_follow_puppet() {
        let r = package(&[]).unwrap();
        let change = |is: &str, should: &str| ensure_change(&r, &s(is), &s(should));
        assert_eq!(change("purged", "present"), "created");
        assert_eq!(change("absent", "2.0"), "created");
        assert_eq!(change("1.0", "absent"), "removed");
        assert_eq!(change("1.0", "purged"), "purged");
        assert_eq!(change("absent", "purged"), "purged");
        assert_eq!(change("1.0", "2.0"), "ensure changed '1.0' to '2.0'");
    }

    #[test]
    fn unsupported_values_are_refused_with_a_reason() {
        let error = package(&[("adminfile", s("/x"))]).unwrap_err();
        assert!(error.contains("not supported yet"), "{error}");
        let error = package(&[("allow_virtual", Value::Boolean(true))]).unwrap_err();
        assert!(error.contains("not supported yet"), "{error}");
        let error = package(&[("enable_only", s("true"))]).unwrap_err();
        assert!(error.contains("not supported yet"), "{error}");
        let error = package(&[("command", s("/opt/bin/gem"))]).unwrap_err();
        assert!(error.contains("not supported yet"), "{error}");
        assert!(package(&[("allow_virtual", s("false"))]).is_ok());
        assert!(package(&[("vendor", s("Example Ltd"))]).is_ok());
    }

    #[test]
    fn mark_cannot_go_with_removal_and_options_must_be_strings_or_hashes() {
        let error = package(&[("ensure", s("purged")), ("mark", s("hold"))]).unwrap_err();
        assert!(error.contains("\"mark\""), "{error}");
        assert!(package(&[("ensure", s("1.0")), ("mark", s("hold"))]).is_ok());
        let error = package(&[(
            "install_options",
            Value::Array(vec![Value::Integer(3)].into()),
        )])
        .unwrap_err();
        assert!(error.contains("string or hash"), "{error}");
    }
}

//! `package` through Python's `pip3`, as Puppet's `pip3` provider: the
//! installed distributions and their versions from `pip3 list`,
//! installation by name, at an exact version (`name==version`), or from a
//! local file or URL given as `source` (a wheel, an archive, a directory),
//! removal with `pip3 uninstall -y`, and `latest` from the package index.
//! `pip3` is the one first on PATH, so a virtual environment's is used
//! when its `bin` comes first.
//!
//! Every command gets its arguments as argv, never through a shell; names
//! and versions that pip could read as options are refused before it runs.
//! Debian 12's own pip refuses to change the system's Python (PEP 668):
//! its message fails the resource, and `install_options =>
//! ['--break-system-packages']` says to go ahead, as with Puppet.

use marionette_ral::{CommandSpec, Context, ProviderDef, ProviderError, Resource};
use marionette_values::Value;

use super::installer::{
    FEATURES, Installer, Tool, argv, install_target, no_latest, single_version, spelled,
};

pub const PIP3: &str = "pip3";

/// The `pip3` tool.
pub struct Pip3;

/// A name as pip compares them: lower case, runs of `-`, `_` and `.` as
/// one `-` (PEP 503).
fn normalized(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if matches!(c, '-' | '_' | '.') {
            if !out.ends_with('-') {
                out.push('-');
            }
        } else {
            out.push(c.to_ascii_lowercase());
        }
    }
    out
}

/// `pip3 list --format=json`: `[{"name": "...", "version": "..."}, ...]`.
pub fn parse_list(json: &str) -> Vec<(String, Vec<String>)> {
    let Ok(serde_json::Value::Array(items)) = serde_json::from_str(json) else {
        return Vec::new();
    };
    items
        .iter()
        .filter_map(|item| {
            let name = item.get("name")?.as_str()?;
            let version = item.get("version")?.as_str()?;
            Some((name.to_string(), vec![version.to_string()]))
        })
        .collect()
}

impl Tool for Pip3 {
    const NAME: &'static str = "pip3";
    const PROGRAM: &'static str = PIP3;
    const UNINSTALL: &'static [&'static str] = &["uninstall", "-y", "-q"];
    const NAME_RULE: &'static str =
        "letters, digits, '.', '_' and '-', starting with a letter or digit";

    fn valid_name(name: &str) -> bool {
        spelled(name, |c| c.is_ascii_alphanumeric(), &['.', '_', '-'])
    }

    fn valid_version(version: &str) -> bool {
        spelled(version, |c| c.is_ascii_digit(), &['.', '!', '+', '-', '_'])
    }

    fn same_name(a: &str, b: &str) -> bool {
        normalized(a) == normalized(b)
    }

    fn list(cx: &Context, name: Option<&str>) -> Result<Vec<(String, Vec<String>)>, ProviderError> {
        let mut found = parse_list(&cx.output(&[PIP3, "list", "--format=json"])?);
        if let Some(name) = name {
            found.retain(|(listed, _)| Self::same_name(listed, name));
        }
        Ok(found)
    }

    fn ensure(versions: &[String]) -> Value {
        single_version(versions)
    }

    fn install(
        cx: &Context,
        resource: &Resource,
        name: &str,
        version: Option<&str>,
    ) -> Result<(), ProviderError> {
        let mut argv = argv(PIP3, &["install", "-q"], resource, "install_options");
        argv.push(install_target(resource, name, version, "=="));
        cx.run(&CommandSpec::new(&argv).combined())?;
        Ok(())
    }

    /// The first line of `pip3 index versions NAME`: `NAME (1.2.3)`.
    fn latest(cx: &Context, _: &Resource, name: &str) -> Result<String, ProviderError> {
        let output = cx.output(&[PIP3, "index", "versions", name])?;
        output
            .lines()
            .next()
            .and_then(|line| line.split_once(" ("))
            .and_then(|(_, rest)| rest.strip_suffix(')'))
            .map(str::to_string)
            .ok_or_else(|| no_latest("the package index", name))
    }
}

pub fn definition() -> ProviderDef {
    ProviderDef::properties("package", "pip3", Installer::<Pip3>::new())
        .doc(
            "Installs Python distributions with the `pip3` first on PATH (a virtual
        environment's when its `bin` comes first): by name, at an exact version
        (`ensure => '1.2.3'`), or from a local file or URL given as `source`.
        `ensure => latest` follows the newest version of the package index.
        Removes with `pip3 uninstall`. `install_options` and `uninstall_options`
        are added to the `pip3` command line; Debian's own pip needs
        `--break-system-packages` to change the system's Python.",
        )
        .command("pip", PIP3)
        .has_features(FEATURES)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_compare_as_pip_compares_them() {
        assert!(Pip3::same_name("mrtest_hello", "MrTest-Hello"));
        assert!(Pip3::same_name("zope.interface", "zope-interface"));
        assert!(!Pip3::same_name("abc", "abd"));
        assert!(!Pip3::valid_name("-r") && !Pip3::valid_name("a b") && Pip3::valid_name("a.b_c"));
        assert!(Pip3::valid_version("1.0.0rc1") && Pip3::valid_version("2!1.0+local"));
        assert!(!Pip3::valid_version(">=1.0") && !Pip3::valid_version("-1"));
    }

    #[test]
    fn the_json_listing_is_read() {
        assert_eq!(
            parse_list(r#"[{"name": "mrtest-hello", "version": "0.1.0"}]"#),
            [("mrtest-hello".to_string(), vec!["0.1.0".to_string()])]
        );
        assert!(parse_list("not json").is_empty());
    }
}

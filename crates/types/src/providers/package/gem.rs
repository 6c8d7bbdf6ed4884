//! `package` through RubyGems' `gem` command, as Puppet's `gem` provider:
//! installed gems and their versions from `gem list --local` (`ensure` is
//! the list of versions), installation by name, at an exact version, from
//! a local `.gem` file or from a gem server given as `source`, removal of
//! every version with its executables, and `latest` from the gem sources.
//!
//! Every command gets its arguments as argv, never through a shell. `gem`
//! takes no `--`, so names and versions that it could read as options are
//! refused before it runs, and a local source is given as a path.

use marionette_ral::{CommandSpec, Context, ProviderDef, ProviderError, Resource};
use marionette_values::Value;

use super::installer::{FEATURES, Installer, Tool, argv, no_latest, spelled};

pub const GEM: &str = "/usr/bin/gem";

/// The `gem` tool.
pub struct Gem;

/// Whether `source` names a gem server rather than a local file.
fn is_server(source: &str) -> bool {
    source.starts_with("http://") || source.starts_with("https://")
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

impl Tool for Gem {
    const NAME: &'static str = "gem";
    const PROGRAM: &'static str = GEM;
    const UNINSTALL: &'static [&'static str] = &["uninstall", "--executables", "--all"];
    const NAME_RULE: &'static str = "letters, digits, '.', '_' and '-', not starting with '-'";

    fn valid_name(name: &str) -> bool {
        spelled(
            name,
            |c| c.is_ascii_alphanumeric() || c == '_',
            &['.', '_', '-'],
        )
    }

    fn valid_version(version: &str) -> bool {
        spelled(version, |c| c.is_ascii_digit(), &['.', '-', '_'])
    }

    fn list(cx: &Context, name: Option<&str>) -> Result<Vec<(String, Vec<String>)>, ProviderError> {
        let mut argv = vec![GEM, "list", "--local"];
        if let Some(name) = name {
            argv.extend(["--exact", name]);
        }
        Ok(cx.output(&argv)?.lines().filter_map(parse_line).collect())
    }

    /// Puppet's provider gives the list of installed versions
    /// (`['13.0.6']`), even of one.
    fn ensure(versions: &[String]) -> Value {
        Value::Array(
            versions
                .iter()
                .map(|v| Value::String(v.as_str().into()))
                .collect::<Vec<_>>()
                .into(),
        )
    }

    fn install(
        cx: &Context,
        resource: &Resource,
        name: &str,
        version: Option<&str>,
    ) -> Result<(), ProviderError> {
        let mut argv = argv(
            GEM,
            &["install", "--no-document"],
            resource,
            "install_options",
        );
        if let Some(version) = version {
            argv.extend(["--version".into(), version.to_string()]);
        }
        match resource.text("source") {
            Some(source) if is_server(&source) => {
                argv.extend(["--source".into(), source, name.to_string()]);
            }
            // A local `.gem` file, as a path `gem` cannot take for an
            // option.
            Some(source) => argv.push(super::source_argument(&source)),
            None => argv.push(name.to_string()),
        }
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

    fn latest(cx: &Context, resource: &Resource, name: &str) -> Result<String, ProviderError> {
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
            .ok_or_else(|| no_latest("the gem sources", name))
    }
}

pub fn definition() -> ProviderDef {
    ProviderDef::properties("package", "gem", Installer::<Gem>::new())
        .doc(
            "Installs Ruby gems with RubyGems' `gem` command: by name, at an exact
        version (`ensure => '1.2.3'`), from a local `.gem` file or from a gem
        server given as `source`. `ensure => latest` follows the newest version
        of the gem sources. Removes every installed version with its
        executables. `install_options` and `uninstall_options` are added to the
        `gem` command line.",
        )
        .command("gemcmd", GEM)
        .has_features(FEATURES)
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
        assert!(Gem::valid_name("mrtest-hello") && Gem::valid_name("net_http"));
        assert!(!Gem::valid_name("-v") && !Gem::valid_name("a b") && !Gem::valid_name(""));
        assert!(Gem::valid_version("1.2.3") && Gem::valid_version("2.0.0.pre1"));
        assert!(!Gem::valid_version(">= 1.0") && !Gem::valid_version("-1"));
    }
}

//! `package` through Node's `npm`, as Puppet's `npm` provider: global
//! packages only. What is installed comes from `npm list --json --global`
//! (whatever its exit code, as npm exits non-zero on a tree it finds
//! untidy); installation by name, at a version (`name@version`, which npm
//! also reads as a range or a tag), or from `source` (a tarball, a
//! directory, a git URL); removal with `npm uninstall --global`; `latest`
//! from `npm outdated`, or the installed version when npm names no newer
//! one, as Puppet's provider falls back.
//!
//! Every command gets its arguments as argv, never through a shell; names
//! and versions that npm could read as options are refused before it runs.

use marionette_ral::{CommandSpec, Context, ProviderDef, ProviderError, Resource};
use marionette_values::Value;

use super::installer::{
    FEATURES, Installer, Tool, argv, install_target, no_latest, single_version, spelled,
};

pub const NPM: &str = "npm";

/// The `npm` tool.
pub struct Npm;

/// `npm list --json --global`: `{"dependencies": {"NAME": {"version":
/// "1.2.3", ...}, ...}}`. Lines npm writes before its JSON are skipped.
pub fn parse_list(output: &str) -> Vec<(String, Vec<String>)> {
    let json = output.find('{').map_or("", |start| &output[start..]);
    let Ok(serde_json::Value::Object(top)) = serde_json::from_str(json) else {
        return Vec::new();
    };
    let Some(serde_json::Value::Object(dependencies)) = top.get("dependencies") else {
        return Vec::new();
    };
    dependencies
        .iter()
        .filter_map(|(name, entry)| {
            let version = entry.get("version")?.as_str()?;
            Some((name.clone(), vec![version.to_string()]))
        })
        .collect()
}

/// The newer version `npm outdated --global NAME` names, in its older
/// `NAME@VERSION` wording or its table (`Package Current Wanted Latest`).
pub fn parse_outdated(output: &str, name: &str) -> Option<String> {
    let dotted = |text: &str| {
        let version: String = text
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .collect();
        (!version.is_empty()).then_some(version)
    };
    let marker = format!("{name}@");
    if let Some(at) = output.find(&marker) {
        return dotted(&output[at + marker.len()..]);
    }
    output.lines().find_map(|line| {
        let fields: Vec<&str> = line.split_whitespace().collect();
        match fields.as_slice() {
            [package, _current, _wanted, latest, ..] if *package == name => dotted(latest),
            _ => None,
        }
    })
}

impl Tool for Npm {
    const NAME: &'static str = "npm";
    const PROGRAM: &'static str = NPM;
    const UNINSTALL: &'static [&'static str] = &["uninstall", "--global"];
    const NAME_RULE: &'static str = "lower-case letters, digits, '.', '_' and '-', optionally '@scope/' before, starting with a letter or digit";

    fn valid_name(name: &str) -> bool {
        let plain = |part: &str| {
            spelled(
                part,
                |c| c.is_ascii_lowercase() || c.is_ascii_digit(),
                &['.', '_', '-'],
            )
        };
        match name
            .strip_prefix('@')
            .and_then(|scoped| scoped.split_once('/'))
        {
            Some((scope, package)) => plain(scope) && plain(package),
            None => plain(name),
        }
    }

    /// A version, a range (`^1.2`, `>=2 <3`) or a tag (`next`): npm reads
    /// what follows `@` itself; only what it could take for an option, or
    /// another package, is refused.
    fn valid_version(version: &str) -> bool {
        !version.is_empty()
            && !version.starts_with('-')
            && version.chars().all(|c| {
                c.is_ascii_alphanumeric()
                    || matches!(
                        c,
                        '.' | '-' | '+' | '^' | '~' | '<' | '>' | '=' | '*' | ' ' | '|'
                    )
            })
    }

    fn list(cx: &Context, name: Option<&str>) -> Result<Vec<(String, Vec<String>)>, ProviderError> {
        // npm exits non-zero on a tree with extraneous or missing
        // packages; its JSON still says what is there.
        let output = cx.run(&CommandSpec::new(&[NPM, "list", "--json", "--global"]).unchecked())?;
        let mut found = parse_list(&output.stdout);
        if let Some(name) = name {
            found.retain(|(listed, _)| listed == name);
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
        let mut argv = argv(NPM, &["install", "--global"], resource, "install_options");
        argv.push(install_target(resource, name, version, "@"));
        cx.run(&CommandSpec::new(&argv).combined())?;
        Ok(())
    }

    fn latest(cx: &Context, _: &Resource, name: &str) -> Result<String, ProviderError> {
        // `npm outdated` exits 1 when something is outdated.
        let output = cx.run(&CommandSpec::new(&[NPM, "outdated", "--global", name]).unchecked())?;
        if let Some(newer) = parse_outdated(&output.stdout, name) {
            return Ok(newer);
        }
        Self::list(cx, Some(name))?
            .into_iter()
            .next()
            .and_then(|(_, versions)| versions.into_iter().next())
            .ok_or_else(|| no_latest("the npm registry", name))
    }
}

pub fn definition() -> ProviderDef {
    ProviderDef::properties("package", "npm", Installer::<Npm>::new())
        .doc(
            "Installs Node.js packages globally with `npm`: by name, at a version or
        range (`ensure => '1.2.3'`), or from `source` (a tarball, a directory or a
        URL). `ensure => latest` follows what `npm outdated` names. Removes with
        `npm uninstall --global`. `install_options` and `uninstall_options` are
        added to the `npm` command line.",
        )
        .command("npm", NPM)
        .has_features(FEATURES)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_versions_npm_takes() {
        assert!(Npm::valid_name("yarn") && Npm::valid_name("@babel/core"));
        assert!(Npm::valid_name("lodash.merge") && !Npm::valid_name("-g"));
        assert!(!Npm::valid_name("@scope") && !Npm::valid_name("Yarn") && !Npm::valid_name("a b"));
        assert!(
            Npm::valid_version("1.22.19")
                && Npm::valid_version("^4.17")
                && Npm::valid_version("next")
        );
        assert!(!Npm::valid_version("--force") && !Npm::valid_version("1;rm"));
    }

    #[test]
    fn the_json_listing_is_read_past_npms_own_lines() {
        let output = "npm WARN config global `--global` is deprecated\n{\n  \"dependencies\": {\n    \"yarn\": {\"version\": \"1.22.19\"},\n    \"@babel/core\": {\"version\": \"7.24.0\"},\n    \"broken\": {}\n  }\n}\n";
        let mut found = parse_list(output);
        found.sort();
        assert_eq!(
            found,
            [
                ("@babel/core".to_string(), vec!["7.24.0".to_string()]),
                ("yarn".to_string(), vec!["1.22.19".to_string()]),
            ]
        );
        assert!(parse_list("not json").is_empty());
        assert!(parse_list("{}").is_empty());
    }

    #[test]
    fn outdated_names_the_newer_version_in_either_wording() {
        assert_eq!(
            parse_outdated("yarn@1.22.22 /usr/lib", "yarn").as_deref(),
            Some("1.22.22")
        );
        let table = "Package  Current  Wanted   Latest  Location            Depended by\nyarn     1.22.19  1.22.22  1.22.22  node_modules/yarn  global\n";
        assert_eq!(parse_outdated(table, "yarn").as_deref(), Some("1.22.22"));
        assert_eq!(parse_outdated("", "yarn"), None);
    }
}

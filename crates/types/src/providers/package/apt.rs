//! `package` through `apt-get`: everything `dpkg` does (the package
//! database is still read with `dpkg-query`), plus installation from the
//! package sources by name or exact version, `latest` from `apt-cache
//! policy`, installer options, debconf answers and holds with `apt-mark`.

use std::collections::HashMap;
use std::sync::Arc;

use marionette_ral::{
    CommandSpec, Context, Implementation, Level, ProviderDef, ProviderError, Resource,
};

use super::{Debian, Kind, options, source_argument};

pub const APT_GET: &str = "/usr/bin/apt-get";
pub const APT_CACHE: &str = "/usr/bin/apt-cache";
pub const APT_MARK: &str = "/usr/bin/apt-mark";
pub const PRESEED: &str = "/usr/bin/debconf-set-selections";

/// An `apt-get` command that never stops to ask: no debconf questions, no
/// bug or changelog viewers. Its standard output and error are kept
/// together for the error message, as Puppet reports them.
fn quiet(argv: &[&str]) -> CommandSpec {
    CommandSpec::new(argv)
        .env("DEBIAN_FRONTEND", "noninteractive")
        .env("APT_LISTBUGS_FRONTEND", "none")
        .env("APT_LISTCHANGES_FRONTEND", "none")
        .combined()
}

/// Whether a version is written as Debian writes them. Anything else (a
/// range such as `>= 1.2`) is refused before `apt-get` sees it.
pub fn valid_version(version: &str) -> bool {
    version
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric())
        && version
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '+' | '~' | ':' | '-'))
}

/// The newest version the package sources offer for each of the named
/// packages, from one `apt-cache policy` call. Packages without a
/// candidate are missing from the result.
pub fn candidates(
    cx: &Context,
    names: &[String],
) -> Result<HashMap<String, String>, ProviderError> {
    let mut found = HashMap::new();
    if names.is_empty() {
        return Ok(found);
    }
    let mut argv = vec![APT_CACHE, "policy", "--"];
    argv.extend(names.iter().map(String::as_str));
    let output = cx.output(&argv)?;
    let mut current: Option<&str> = None;
    for line in output.lines() {
        if !line.starts_with(char::is_whitespace) {
            current = line.strip_suffix(':');
            continue;
        }
        if let (Some(name), Some(candidate)) = (current, line.trim().strip_prefix("Candidate:")) {
            let candidate = candidate.trim();
            if !candidate.is_empty() && candidate != "(none)" {
                found.insert(name.to_string(), candidate.to_string());
            }
        }
    }
    Ok(found)
}

/// The version `latest` means for apt: the one in `source` when it is
/// given, else the candidate of the package sources.
pub fn latest(cx: &Context, name: &str, resource: &Resource) -> Result<String, ProviderError> {
    if let Some(source) = resource.text("source") {
        return super::dpkg::source_version(cx, name, &source);
    }
    candidates(cx, &[name.to_string()])?
        .remove(name)
        .ok_or_else(|| {
            ProviderError::new(format!(
                "Could not get latest version: apt-cache policy shows no candidate for {name} \
                 (is it in the package sources?)"
            ))
        })
}

/// Loads the resource's debconf answers, when it names a file that exists.
fn preseed(cx: &Context, resource: &Resource) -> Result<(), ProviderError> {
    let Some(file) = resource.text("responsefile") else {
        return Ok(());
    };
    let source = resource.reference();
    if std::path::Path::new(&file).exists() {
        cx.logger.log(
            Level::Info,
            &source,
            &format!("Preseeding {file} to debconf-set-selections"),
        );
        cx.run(&CommandSpec::new(&[PRESEED, &source_argument(&file)]))?;
    } else {
        cx.logger.log(
            Level::Info,
            &source,
            &format!("The responsefile {file} does not exist; nothing preseeded"),
        );
    }
    Ok(())
}

/// Refuses to install while `sources.list` has a CD-ROM source (apt would
/// wait for a disc), unless `allowcdrom` is true.
fn check_cdrom(resource: &Resource) -> Result<(), ProviderError> {
    let sources = std::fs::read_to_string("/etc/apt/sources.list").unwrap_or_default();
    let cdrom = sources
        .lines()
        .any(|line| line.split('#').next().unwrap_or("").contains("cdrom:"));
    if cdrom && resource.text("allowcdrom").as_deref() != Some("true") {
        return Err(ProviderError::new(
            "/etc/apt/sources.list contains a cdrom source; not installing. Use 'allowcdrom' \
             to override this failure.",
        ));
    }
    Ok(())
}

/// Installs the package: from `source` when given, else from the package
/// sources, at `version` when one is asked for.
pub fn install(
    cx: &Context,
    name: &str,
    resource: &Resource,
    version: Option<&str>,
) -> Result<(), ProviderError> {
    if let Some(version) = version
        && !valid_version(version)
    {
        return Err(ProviderError::new(format!(
            "'{version}' is not a Debian version (version ranges are not supported yet)"
        )));
    }
    preseed(cx, resource)?;
    check_cdrom(resource)?;
    let confold = format!(
        "DPkg::Options::={}",
        super::dpkg::confold(resource.text("configfiles"))
    );
    let mut argv: Vec<String> = ["-q", "-y", "-o", &confold]
        .iter()
        .map(|a| a.to_string())
        .collect();
    argv.insert(0, APT_GET.to_string());
    if version.is_some() {
        // An exact version may be older than the installed one.
        argv.push("--allow-downgrades".into());
    }
    if let Some(extra) = resource.get("install_options") {
        argv.extend(options(extra));
    }
    argv.push("install".into());
    let source = resource.text("source");
    argv.push(match (&source, version) {
        (Some(source), _) => source_argument(source),
        (None, Some(version)) => format!("{name}={version}"),
        (None, None) => name.to_string(),
    });
    let argv: Vec<&str> = argv.iter().map(String::as_str).collect();
    cx.run(&quiet(&argv))?;
    // A package file carries one version: make sure it was the one asked
    // for.
    if let (Some(_), Some(version)) = (&source, version) {
        let state = super::dpkg::state(cx, name)?;
        let got = state
            .get("ensure")
            .map(marionette_ral::attribute::value_text)
            .unwrap_or_default();
        if got != version {
            return Err(ProviderError::new(format!(
                "Failed to update to version {version}, got version {got} instead"
            )));
        }
    }
    Ok(())
}

/// Removes (`purge` also drops the configuration files) the package.
pub fn remove(
    cx: &Context,
    name: &str,
    resource: &Resource,
    held: bool,
    purge: bool,
) -> Result<(), ProviderError> {
    preseed(cx, resource)?;
    // Puppet's order of the options, which its error messages show.
    let mut argv = vec![APT_GET, "-y", "-q"];
    if held {
        argv.push("--allow-change-held-packages");
    }
    argv.push(if purge { "purge" } else { "remove" });
    argv.push(name);
    cx.run(&quiet(&argv))?;
    Ok(())
}

/// Holds or releases the package with `apt-mark`.
pub fn mark(cx: &Context, name: &str, hold: bool) -> Result<(), ProviderError> {
    let action = if hold { "hold" } else { "unhold" };
    cx.run(&CommandSpec::new(&[APT_MARK, action, name]))?;
    Ok(())
}

pub fn definition(parent: &ProviderDef) -> ProviderDef {
    ProviderDef::child_of(
        parent,
        "apt",
        Implementation::Properties(Arc::new(Debian { kind: Kind::Apt })),
    )
    .doc(
        "Installs packages with `apt-get`, from the package sources (by name, or
        `name=version` for an exact version, allowing downgrades) or from a local
        `.deb` file given as `source`. `ensure => latest` follows the candidate
        version `apt-cache policy` shows. Removes with `apt-get remove`, purges
        with `apt-get purge`, holds with `apt-mark`, and reads the package
        database with `dpkg-query` like `dpkg`.

        `install_options` are added to the `apt-get` command line before
        `install`; `responsefile` is loaded with `debconf-set-selections` first.
        Commands run without questions (`DEBIAN_FRONTEND=noninteractive`), and
        locally changed configuration files are kept unless `configfiles` is
        `replace`.",
    )
    .command("aptget", APT_GET)
    .command("aptcache", APT_CACHE)
    .command("aptmark", APT_MARK)
    .defaultfor(&[("osfamily", &["Debian"])])
    .has_features(&["versionable", "install_options"])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_are_debian_versions_not_ranges() {
        for good in ["1.0", "2:1.2.3-4+deb12u1", "1.0~rc1", "5.2.15-2+b8"] {
            assert!(valid_version(good), "{good}");
        }
        for bad in [">1.0", ">=1.0 <2.0", "-1", "", "1.0 2.0"] {
            assert!(!valid_version(bad), "{bad}");
        }
    }
}

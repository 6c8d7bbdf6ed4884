//! `package` through `dpkg`: the package database is read with
//! `dpkg-query`, package files are installed with `dpkg -i`, packages are
//! removed with `dpkg -r` and purged with `dpkg --purge`.
//!
//! `dpkg` cannot fetch packages, so installing needs `source`; `latest` is
//! the version inside that file.

use marionette_ral::{
    CommandSpec, Context, Level, PropertyHash, ProviderDef, ProviderError, Resource,
};
use marionette_values::Value;

use super::{Debian, Kind, source_argument};

pub const DPKG: &str = "/usr/bin/dpkg";
pub const DPKG_DEB: &str = "/usr/bin/dpkg-deb";
pub const DPKG_QUERY: &str = "/usr/bin/dpkg-query";

/// One line per package: the three status words, the name, the version
/// (empty for a package that is not installed).
const FORMAT: &str = "${Status} ${Package} ${Version}\n";

/// One package as `dpkg-query` describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// What the administrator asked for: `install`, `hold`, `deinstall`,
    /// `purge` or `unknown`.
    pub desired: String,
    /// `ok`, or the error state (`reinst-required`).
    pub error: String,
    /// `installed`, `config-files`, `not-installed`, `unpacked`, ...
    pub status: String,
    pub name: String,
    pub version: String,
}

impl Entry {
    /// Reads one line of [`FORMAT`] output.
    pub fn parse(line: &str) -> Option<Entry> {
        let mut words = line.split_whitespace();
        let desired = words.next()?.to_string();
        let error = words.next()?.to_string();
        let status = words.next()?.to_string();
        let name = words.next()?.to_string();
        let version = words.next().unwrap_or("").to_string();
        Some(Entry {
            desired,
            error,
            status,
            name,
            version,
        })
    }

    /// The package's `ensure`: its version when installed, `absent` when
    /// only configuration files (or a half-done installation or removal)
    /// are left, `purged` when dpkg remembers nothing but the name.
    pub fn ensure(&self) -> String {
        match self.status.as_str() {
            "not-installed" => "purged".to_string(),
            "config-files" | "half-installed" | "unpacked" | "half-configured" => {
                "absent".to_string()
            }
            // Installed, possibly with triggers still pending.
            _ if self.version.is_empty() => "present".to_string(),
            _ => self.version.clone(),
        }
    }

    pub fn installed(&self) -> bool {
        !matches!(self.ensure().as_str(), "absent" | "purged")
    }

    /// `hold` when the package is held at its version, else `none`.
    pub fn mark(&self) -> &'static str {
        if self.desired == "hold" {
            "hold"
        } else {
            "none"
        }
    }

    /// The property hash: the name, `ensure`, and `mark` for an installed
    /// package (a package that is not installed has no mark to show). A
    /// package in an error state keeps that state under `error`.
    pub fn hash(&self) -> PropertyHash {
        let mut hash = PropertyHash::new();
        hash.insert("name".into(), text(&self.name));
        hash.insert("ensure".into(), text(&self.ensure()));
        if self.installed() {
            hash.insert("mark".into(), text(self.mark()));
        }
        if self.error != "ok" {
            hash.insert("error".into(), text(&self.error));
        }
        hash
    }
}

fn text(value: &str) -> Value {
    Value::String(value.into())
}

fn parse_all(output: &str) -> Vec<Entry> {
    output.lines().filter_map(Entry::parse).collect()
}

/// Every package dpkg knows as installed or with files left, in one
/// `dpkg-query` call.
pub fn list(cx: &Context) -> Result<Vec<Entry>, ProviderError> {
    let output = cx.output(&[DPKG_QUERY, "-W", "--showformat", FORMAT])?;
    Ok(parse_all(&output))
}

/// The named packages, in one `dpkg-query` call. Names dpkg has never
/// heard of are simply missing from the result (dpkg-query then exits 1,
/// which is not a failure here). The names must be valid package names:
/// `dpkg-query` reads patterns.
pub fn query(cx: &Context, names: &[String]) -> Result<Vec<Entry>, ProviderError> {
    if names.is_empty() {
        return Ok(Vec::new());
    }
    let mut argv: Vec<&str> = vec![DPKG_QUERY, "-W", "--showformat", FORMAT, "--"];
    argv.extend(names.iter().map(String::as_str));
    let spec = CommandSpec::new(&argv).unchecked();
    let output = cx.run(&spec)?;
    match output.status {
        Some(0) | Some(1) => Ok(parse_all(&output.stdout)),
        status => Err(ProviderError::new(format!(
            "Execution of '{}' returned {}: {}",
            spec.display(),
            status.map_or("a signal".to_string(), |s| s.to_string()),
            output.stderr.trim()
        ))),
    }
}

/// The entry of a package among query results: by its name, or, for an
/// architecture-qualified name (`libfoo:i386`), by the name without it.
pub fn find<'a>(entries: &'a [Entry], name: &str) -> Option<&'a Entry> {
    entries.iter().find(|e| e.name == name).or_else(|| {
        let bare = name.split_once(':')?.0;
        entries.iter().find(|e| e.name == bare)
    })
}

/// The state of one package: its hash, or `purged` when dpkg does not
/// know it.
pub fn state(cx: &Context, name: &str) -> Result<PropertyHash, ProviderError> {
    let entries = query(cx, &[name.to_string()])?;
    Ok(find(&entries, name)
        .map(Entry::hash)
        .unwrap_or_else(|| PropertyHash::from([("ensure".to_string(), text("purged"))])))
}

/// The package name and version inside a package file.
pub fn source_version(cx: &Context, name: &str, source: &str) -> Result<String, ProviderError> {
    let output = cx.output(&[
        DPKG_DEB,
        "--showformat=${Package}\t${Version}\n",
        "--show",
        "--",
        &source_argument(source),
    ])?;
    let line = output.lines().next().unwrap_or("");
    let Some((package, version)) = line.split_once('\t') else {
        return Err(ProviderError::new(format!(
            "Could not read the package version of {source}: dpkg-deb printed {line:?}"
        )));
    };
    if package != name && name.split_once(':').map(|(bare, _)| bare) != Some(package) {
        cx.logger.log(
            Level::Warning,
            &format!("Package[{name}]"),
            &format!("source doesn't contain named package, but {package}"),
        );
    }
    Ok(version.to_string())
}

/// The `dpkg` option for locally changed configuration files.
pub fn confold(configfiles: Option<String>) -> &'static str {
    match configfiles.as_deref() {
        Some("replace") => "--force-confnew",
        _ => "--force-confold",
    }
}

/// A command that changes packages: no questions asked, and its standard
/// output and error kept together for the error message, as Puppet
/// reports them. Package names reach it only once `valid_name` accepted
/// them, so none can be read as an option.
fn changing(argv: &[&str]) -> CommandSpec {
    CommandSpec::new(argv)
        .env("DEBIAN_FRONTEND", "noninteractive")
        .combined()
}

/// Installs the resource's package file.
pub fn install(cx: &Context, resource: &Resource) -> Result<(), ProviderError> {
    let Some(source) = resource.text("source") else {
        return Err(ProviderError::new(
            "You cannot install dpkg packages without a source: set `source` to the path of \
             a .deb file on this machine, or use the apt provider",
        ));
    };
    // The source argument cannot start with `-` (see `source_argument`),
    // so no `--` is needed, and the command reads as Puppet's does in
    // error messages.
    let argv = [
        DPKG,
        confold(resource.text("configfiles")),
        "-i",
        &source_argument(&source),
    ];
    cx.run(&changing(&argv))?;
    Ok(())
}

/// The version `latest` means for dpkg: the one in `source`.
pub fn latest(cx: &Context, name: &str, resource: &Resource) -> Result<String, ProviderError> {
    match resource.text("source") {
        Some(source) => source_version(cx, name, &source),
        None => Err(ProviderError::new(
            "Could not update: You cannot install dpkg packages without a source",
        )),
    }
}

pub fn uninstall(cx: &Context, name: &str) -> Result<(), ProviderError> {
    cx.run(&changing(&[DPKG, "-r", name]))?;
    Ok(())
}

pub fn purge(cx: &Context, name: &str) -> Result<(), ProviderError> {
    cx.run(&changing(&[DPKG, "--purge", name]))?;
    Ok(())
}

/// Holds or releases a package through dpkg's selections.
pub fn select(cx: &Context, name: &str, hold: bool) -> Result<(), ProviderError> {
    let selection = if hold { "hold" } else { "install" };
    cx.run(&CommandSpec::new(&[DPKG, "--set-selections"]).stdin(format!("{name} {selection}\n")))?;
    Ok(())
}

pub fn definition() -> ProviderDef {
    ProviderDef::properties("package", "dpkg", Debian { kind: Kind::Dpkg })
        .doc(
            "Installs package files with `dpkg`, which cannot download anything:
        every package to install needs `source`, the path of its `.deb` file.
        `ensure => latest` installs `source` when its version differs from the
        installed one. Removes with `dpkg -r`, purges with `dpkg --purge`, holds
        with `dpkg --set-selections`, and reads the package database with
        `dpkg-query`.",
        )
        .command("dpkg", DPKG)
        .command("dpkg_deb", DPKG_DEB)
        .command("dpkgquery", DPKG_QUERY)
        .methods(&[
            "install",
            "uninstall",
            "update",
            "latest",
            "purge",
            "hold",
            "unhold",
        ])
        .has_features(&["virtual_packages"])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_lines_become_states() {
        let installed = Entry::parse("install ok installed bash 5.2.15-2+b8").unwrap();
        assert_eq!(installed.ensure(), "5.2.15-2+b8");
        assert_eq!(installed.mark(), "none");
        let held = Entry::parse("hold ok installed mrtest-pkg 1.0").unwrap();
        assert_eq!(held.mark(), "hold");
        let leftovers = Entry::parse("deinstall ok config-files mrtest-pkg 1.0").unwrap();
        assert_eq!(leftovers.ensure(), "absent");
        assert!(!leftovers.hash().contains_key("mark"));
        let forgotten = Entry::parse("unknown ok not-installed base ").unwrap();
        assert_eq!(forgotten.ensure(), "purged");
        assert_eq!(forgotten.version, "");
        assert_eq!(Entry::parse("garbage"), None);
    }

    #[test]
    fn architecture_qualified_names_find_their_package() {
        let entries = vec![Entry::parse("install ok installed libc6 2.36").unwrap()];
        assert!(find(&entries, "libc6:amd64").is_some());
        assert!(find(&entries, "libc").is_none());
    }
}

//! `service` through Debian's init scripts: `/etc/init.d/NAME ACTION` to
//! start, stop and query, `update-rc.d` to enable and disable, and the
//! links in `/etc/rc?.d` to tell whether a script starts at boot.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use marionette_ral::attribute::value_text;
use marionette_ral::{CommandSpec, Confine, Context, PropertyHash, ProviderDef, ProviderError};
use marionette_values::Value;

use super::{Action, Flavor, Job, Service, parallel_map, text};

/// Where init scripts are, unless the resource's `path` says otherwise.
const INIT_DIR: &str = "/etc/init.d";

/// Files of `/etc/init.d` that are not services: helpers, and scripts that
/// only make sense while the system boots or halts. The same names Puppet
/// leaves out, so both list the same services.
const NOT_SERVICES: &[&str] = &[
    "functions.sh",
    "reboot.sh",
    "shutdown.sh",
    "functions",
    "halt",
    "killall",
    "single",
    "linuxconf",
    "reboot",
    "boot",
    "wait-for-state",
    "portmap-wait",
    "rcS",
    "module-init-tools",
    "plymouth-ready",
    "idmapd-mounting",
    "startpar-bridge",
    "cryptdisks-udev",
    "statd-mounting",
    "gssd-mounting",
];

pub(crate) struct Debian;

/// The runlevel links of every script: for each script name, the
/// runlevels (`0`-`6`, `S`) with a start (`S`) or kill (`K`) link.
#[derive(Debug, Default)]
pub(crate) struct RcLinks {
    links: HashMap<String, Vec<(char, char)>>,
}

impl RcLinks {
    /// Reads `/etc/rc?.d` under `root` once.
    pub(crate) fn read(root: &Path) -> RcLinks {
        let mut links: HashMap<String, Vec<(char, char)>> = HashMap::new();
        for level in ['0', '1', '2', '3', '4', '5', '6', 'S'] {
            let dir = root.join(format!("etc/rc{level}.d"));
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries.flatten() {
                let name = entry.file_name();
                let Some(name) = name.to_str() else {
                    continue;
                };
                if let Some((kind, script)) = parse_link(name) {
                    links
                        .entry(script.to_string())
                        .or_default()
                        .push((level, kind));
                }
            }
        }
        RcLinks { links }
    }

    /// Whether the script has any runlevel link at all.
    pub(crate) fn has_links(&self, script: &str) -> bool {
        self.links.get(script).is_some_and(|l| !l.is_empty())
    }

    fn kind(&self, script: &str, level: char) -> Option<char> {
        let links = self.links.get(script)?;
        // A start link wins over a kill link in the same runlevel, as
        // invoke-rc.d decides.
        let kinds: Vec<char> = links
            .iter()
            .filter(|(l, _)| *l == level)
            .map(|(_, k)| *k)
            .collect();
        if kinds.contains(&'S') {
            Some('S')
        } else {
            kinds.first().copied()
        }
    }

    /// Whether the script starts at boot, as Puppet's provider finds it:
    /// invoke-rc.d asked (see [`RcLinks::enabled_by_query`]), which holds
    /// the local policy (a container's or chroot's `policy-rc.d` forbids
    /// everything, and then only the count of start links decides); where
    /// it cannot be run, the links alone (see [`RcLinks::enabled`]).
    pub(crate) fn asked(&self, cx: &Context, script: &str) -> bool {
        let spec = CommandSpec::new(&[INVOKE_RC_D, "--quiet", "--query", script, "start"])
            .unchecked()
            .combined();
        match cx.run(&spec) {
            Ok(output) => self.enabled_by_query(script, output.status),
            Err(_) => self.enabled(script),
        }
    }

    /// Whether the script starts at boot, by the links alone: invoke-rc.d's
    /// answer for Debian's default runlevel 2 (a start link there, or else
    /// no kill link there and a start link in the boot runlevel `S`), with
    /// Puppet's fallback when that answer is no: start links in at least
    /// four runlevels.
    pub(crate) fn enabled(&self, script: &str) -> bool {
        match self.kind(script, '2') {
            Some('S') => true,
            Some(_) => self.start_links(script) >= 4,
            None => self.kind(script, 'S') == Some('S') || self.start_links(script) >= 4,
        }
    }

    /// Whether the script starts at boot, by the exit code of `invoke-rc.d
    /// --query NAME start`, as Puppet reads it: 104 (allowed) and 106 (a
    /// fallback the policy offers) are yes; 101 (forbidden, by the links
    /// or the local policy) and 105 (unknown) leave it to the start links,
    /// at least four of them; anything else is no.
    pub(crate) fn enabled_by_query(&self, script: &str, code: Option<i32>) -> bool {
        match code {
            Some(104 | 106) => true,
            Some(101 | 105) => self.start_links(script) >= 4,
            _ => false,
        }
    }

    /// How many runlevels start the script.
    fn start_links(&self, script: &str) -> usize {
        self.links
            .get(script)
            .map_or(0, |l| l.iter().filter(|(_, k)| *k == 'S').count())
    }
}

/// What answers whether a script may start now, policy included.
const INVOKE_RC_D: &str = "/usr/sbin/invoke-rc.d";

/// `S20name` → (`S`, `name`).
fn parse_link(file: &str) -> Option<(char, &str)> {
    let mut chars = file.chars();
    let kind = chars.next().filter(|c| *c == 'S' || *c == 'K')?;
    let rest = &file[1..];
    let digits = rest.get(..2)?;
    if !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let script = &rest[2..];
    (!script.is_empty()).then_some((kind, script))
}

/// The directories to search for the resource's init script.
fn search_path(job: &Job<'_>) -> Vec<PathBuf> {
    let given: Vec<PathBuf> = job
        .resource
        .list("path")
        .into_iter()
        .map(|dir| PathBuf::from(value_text(dir)))
        .collect();
    if given.is_empty() {
        vec![PathBuf::from(INIT_DIR)]
    } else {
        given
    }
}

/// The init script of the resource: `NAME`, else `NAME.sh`, in the first
/// directory of the search path that has it.
fn init_script(job: &Job<'_>) -> Result<PathBuf, ProviderError> {
    let name = job.name();
    let dirs = search_path(job);
    for candidate in [name.clone(), format!("{name}.sh")] {
        for dir in &dirs {
            let path = dir.join(&candidate);
            if path.is_file() {
                return Ok(path);
            }
        }
    }
    Err(ProviderError::new(format!(
        "Could not find init script for '{name}'"
    )))
}

/// The name `update-rc.d` and the runlevel links know the script by.
fn script_name(job: &Job<'_>) -> String {
    init_script(job)
        .ok()
        .and_then(|path| Some(path.file_name()?.to_str()?.to_string()))
        .unwrap_or_else(|| job.name())
}

/// Runs `update-rc.d` with the arguments, or says how to get it.
fn update_rc(job: &Job<'_>, args: &[&str]) -> Result<(), ProviderError> {
    if marionette_ral::command::which("update-rc.d").is_none() {
        return Err(ProviderError::new(
            "update-rc.d is not installed: it comes with the init-system-helpers \
             package (apt-get install init-system-helpers)",
        ));
    }
    let mut argv = vec!["update-rc.d"];
    argv.extend_from_slice(args);
    let spec = CommandSpec::new(&argv);
    let shown = spec.display();
    let output = job.run(spec)?;
    if output.success() {
        return Ok(());
    }
    Err(ProviderError::new(format!(
        "Execution of '{shown}' returned {}: {}",
        output
            .status
            .map_or("a signal".to_string(), |code| code.to_string()),
        output.stdout.trim()
    )))
}

/// Whether a file of `/etc/init.d` is a service script: executable, not a
/// directory, not hidden, not a helper, and not an upstart stub.
fn is_service_script(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    if name.starts_with('.') || NOT_SERVICES.contains(&name) {
        return false;
    }
    let Ok(metadata) = path.metadata() else {
        return false;
    };
    if !metadata.is_file() || metadata.permissions().mode() & 0o111 == 0 {
        return false;
    }
    std::fs::read_link(path).map_or(true, |target| target != Path::new("/lib/init/upstart-job"))
}

impl Flavor for Debian {
    fn command(&self, job: &Job<'_>, action: Action) -> Result<Option<Vec<String>>, ProviderError> {
        let wanted = match action {
            Action::Start | Action::Stop => true,
            Action::Status => job.resource.text("hasstatus").as_deref() != Some("false"),
            Action::Restart => job.resource.text("hasrestart").as_deref() == Some("true"),
        };
        if !wanted {
            return Ok(None);
        }
        let script = match (init_script(job), action) {
            (Ok(script), _) => script,
            // A service whose script is not there (yet: a package of the
            // same run may install it) is stopped, whatever runs with its
            // name, as Puppet finds it; a noop run then reports what
            // starting it would do.
            (Err(_), Action::Status) => return Ok(Some(vec!["/bin/false".to_string()])),
            (Err(e), _) => return Err(e),
        };
        Ok(Some(vec![
            script.to_string_lossy().into_owned(),
            action.name().to_string(),
        ]))
    }

    fn enabled(&self, job: &Job<'_>) -> Result<Option<Value>, ProviderError> {
        let enabled = RcLinks::read(Path::new("/")).asked(job.cx, &script_name(job));
        Ok(Some(text(if enabled { "true" } else { "false" })))
    }

    /// Enabling makes the links again from the script's LSB header, as
    /// Puppet's provider does (`update-rc.d -f NAME remove`, then
    /// `defaults`). `update-rc.d NAME disable` turns existing links into
    /// kill links; a script without links gets them first from its LSB
    /// header (`defaults-disabled`).
    fn set_enabled(&self, job: &Job<'_>, value: &str) -> Result<(), ProviderError> {
        let name = script_name(job);
        let linked = RcLinks::read(Path::new("/")).has_links(&name);
        let steps: &[&[&str]] = match (value, linked) {
            ("true", _) => &[&["-f", &name, "remove"], &[&name, "defaults"]],
            ("false", false) => &[&[&name, "defaults-disabled"]],
            ("false", true) => &[&[&name, "disable"]],
            (other, _) => {
                return Err(ProviderError::new(format!(
                    "the debian provider cannot set enable to '{other}': only systemd can mask services"
                )));
            }
        };
        steps
            .iter()
            .try_for_each(|args| update_rc(job, args))
            .map_err(|e| {
                ProviderError::new(format!(
                    "Could not {} {}: {e}",
                    if value == "true" { "enable" } else { "disable" },
                    job.resource.reference()
                ))
            })
    }

    /// Every service script of `/etc/init.d`, each asked for its status
    /// and whether it starts at boot, as a single resource is (several at
    /// a time), with the runlevel links read once.
    fn instances(&self, cx: &Context) -> Result<Vec<PropertyHash>, ProviderError> {
        let dir = Path::new(INIT_DIR);
        let mut scripts: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(|e| ProviderError::new(format!("Could not list {INIT_DIR}: {e}")))?
            .flatten()
            .map(|entry| entry.path())
            .filter(|path| is_service_script(path))
            .collect();
        scripts.sort();
        let links = RcLinks::read(Path::new("/"));
        let statuses = parallel_map(&scripts, |script| {
            let spec = CommandSpec::new(&[&*script.to_string_lossy(), "status"])
                .unchecked()
                .combined();
            let name = script
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            (
                cx.run(&spec).map(|output| output.success()),
                links.asked(cx, name),
            )
        });
        let mut found = Vec::new();
        for (script, (status, enabled)) in scripts.iter().zip(statuses) {
            let Some(name) = script.file_name().and_then(|n| n.to_str()) else {
                continue;
            };
            // A script whose status cannot even be run is reported
            // stopped, as a failing status would be.
            let running = status.unwrap_or(false);
            found.push(PropertyHash::from([
                ("name".to_string(), text(name)),
                (
                    "ensure".to_string(),
                    text(if running { "running" } else { "stopped" }),
                ),
                (
                    "enable".to_string(),
                    text(if enabled { "true" } else { "false" }),
                ),
            ]));
        }
        Ok(found)
    }
}

/// Whether systemd runs the system: then init scripts are only a
/// compatibility layer under it, and the `systemd` provider manages
/// services.
pub fn definition() -> ProviderDef {
    ProviderDef::properties("service", "debian", Service(Debian))
        .doc(
            "Manages services through Debian's init scripts. It starts, stops
            and queries a service with `/etc/init.d/NAME start`, `stop` and
            `status` (with `hasstatus => false`, by looking for `pattern` among
            the processes instead), and restarts it with the script's
            `restart` action when `hasrestart` is true, else with a stop and a
            start. `enable` uses
            `update-rc.d` (from the init-system-helpers package); a service
            counts as enabled when `invoke-rc.d --query NAME start` allows it,
            or forbids it (by the links or by the local `policy-rc.d`) while it
            has start links in at least four runlevels. It is suitable where
            `/etc/init.d` exists and systemd is not the init system, and is
            the default on Debian there.",
        )
        .confine(Confine::Exists(INIT_DIR.into()))
        .confine(Confine::False(
            "systemd is the init system (process 1 is systemd)".into(),
            std::sync::Arc::new(marionette_ral::registry::systemd_is_init),
        ))
        .defaultfor(&[("osfamily", &["Debian"])])
        .has_features(&["refreshable", "enableable", "configurable_timeout"])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn links(entries: &[(&str, &str)]) -> RcLinks {
        let root = tempfile::tempdir().unwrap();
        for (level, file) in entries {
            let dir = root.path().join(format!("etc/rc{level}.d"));
            std::fs::create_dir_all(&dir).unwrap();
            std::os::unix::fs::symlink("../init.d/x", dir.join(file)).unwrap();
        }
        RcLinks::read(root.path())
    }

    #[test]
    fn link_names_give_their_kind_and_script() {
        assert_eq!(parse_link("S01dbus"), Some(('S', "dbus")));
        assert_eq!(parse_link("K20hwclock.sh"), Some(('K', "hwclock.sh")));
        assert_eq!(parse_link("README"), None);
        assert_eq!(parse_link("S1x"), None);
        assert_eq!(parse_link("S01"), None);
    }

    #[test]
    fn start_links_in_the_default_runlevels_mean_enabled() {
        let all = ["2", "3", "4", "5"].map(|l| (l, "S01dbus"));
        assert!(links(&all).enabled("dbus"));
        let killed = ["2", "3", "4", "5"].map(|l| (l, "K01dbus"));
        assert!(!links(&killed).enabled("dbus"));
        assert!(!links(&[]).enabled("dbus"));
    }

    #[test]
    fn boot_scripts_are_enabled_unless_runlevel_2_kills_them() {
        assert!(links(&[("S", "S01procps")]).enabled("procps"));
        assert!(!links(&[("S", "S01procps"), ("2", "K01procps")]).enabled("procps"));
        assert!(!links(&[("0", "K01procps"), ("6", "K01procps")]).enabled("procps"));
    }

    #[test]
    fn a_forbidding_policy_leaves_it_to_the_count_of_start_links() {
        // A boot script (only `rcS.d`) counts as enabled by its links, but
        // where the policy forbids starting anything (a chroot's
        // policy-rc.d), invoke-rc.d answers 101 and one start link is not
        // four.
        let boot = links(&[("S", "S01netfilter-persistent")]);
        assert!(boot.enabled("netfilter-persistent"));
        assert!(!boot.enabled_by_query("netfilter-persistent", Some(101)));
        assert!(boot.enabled_by_query("netfilter-persistent", Some(104)));
        let all = links(&["2", "3", "4", "5"].map(|l| (l, "S01dbus")));
        assert!(all.enabled_by_query("dbus", Some(101)));
        assert!(all.enabled_by_query("dbus", Some(105)));
        assert!(all.enabled_by_query("dbus", Some(106)));
        assert!(!all.enabled_by_query("dbus", Some(102)));
        assert!(!all.enabled_by_query("dbus", None));
    }

    #[test]
    fn only_executable_scripts_that_are_services_are_listed() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, mode: u32| {
            let path = dir.path().join(name);
            std::fs::write(&path, "#!/bin/sh\n").unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
            path
        };
        assert!(is_service_script(&write("mysvc", 0o755)));
        assert!(!is_service_script(&write("README", 0o644)));
        assert!(!is_service_script(&write("rcS", 0o755)));
        assert!(!is_service_script(&write(".hidden", 0o755)));
        assert!(!is_service_script(dir.path()));
    }
}

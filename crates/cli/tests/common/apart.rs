//! Cases that must not run side by side. A service without a status
//! command is found by its name in the process table (Puppet's `ps`
//! search, and Marionette's), where another case's run shows the same name
//! when it asks dpkg of a package (`dpkg-query ... -- memcached`): two
//! cases whose packages and services share a name take turns. So do two
//! cases with `debconf` resources: `debconf-communicate` locks the
//! machine's debconf database, and the other's fails ("unexpectedly closed
//! pipe"), as two Puppet runs side by side would (each run's lock keeps
//! them apart; the cases' runs have state directories of their own).

use std::path::Path;
use std::sync::{Condvar, Mutex};

/// What a case's run shows and searches for in the process table.
#[derive(Default)]
pub(crate) struct Names {
    /// Its packages' and services' names, which its commands carry.
    pub(crate) shown: Vec<String>,
    /// The names (or patterns) of its services that have no status
    /// command on this machine: no `status` and no init script.
    pub(crate) searched: Vec<String>,
}

impl Names {
    fn clash(&self, other: &Names) -> bool {
        overlap(&self.searched, &other.shown) || overlap(&other.searched, &self.shown)
    }
}

/// The names each running case holds.
static HELD: Mutex<Vec<(u64, Names)>> = Mutex::new(Vec::new());
static RELEASED: Condvar = Condvar::new();
static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Held while a case runs; the names are free again when dropped.
pub(crate) struct Turn(u64);

impl Drop for Turn {
    fn drop(&mut self) {
        let mut held = HELD.lock().unwrap_or_else(|e| e.into_inner());
        held.retain(|(id, _)| *id != self.0);
        RELEASED.notify_all();
    }
}

/// Waits until no running case searches for a name this catalog's run
/// shows, or shows one it searches for (one name within the other), then
/// holds its names until the turn is dropped.
pub(crate) fn turn_for(catalog: &Path) -> Turn {
    turn(names(catalog))
}

pub(crate) fn turn(names: Names) -> Turn {
    let id = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut held = HELD.lock().unwrap_or_else(|e| e.into_inner());
    while held.iter().any(|(_, theirs)| theirs.clash(&names)) {
        held = RELEASED.wait(held).unwrap_or_else(|e| e.into_inner());
    }
    held.push((id, names));
    Turn(id)
}

fn overlap(a: &[String], b: &[String]) -> bool {
    a.iter().any(|x| {
        b.iter()
            .any(|y| x.contains(y.as_str()) || y.contains(x.as_str()))
    })
}

/// What a case with `debconf` resources holds: a name no package has.
const DEBCONF: &str = "\u{0}debconf database";

/// The names a catalog's packages and services show and search for.
fn names(catalog: &Path) -> Names {
    let text = std::fs::read_to_string(catalog).unwrap_or_default();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
    let mut names = Names::default();
    for resource in json["resources"].as_array().into_iter().flatten() {
        let kind = resource["type"].as_str();
        if kind == Some("Debconf") && !names.shown.iter().any(|n| n == DEBCONF) {
            names.shown.push(DEBCONF.to_string());
            names.searched.push(DEBCONF.to_string());
        }
        if !matches!(kind, Some("Package" | "Service")) {
            continue;
        }
        let parameters = &resource["parameters"];
        let name = parameters["name"]
            .as_str()
            .or(resource["title"].as_str())
            .unwrap_or_default()
            .to_string();
        if name.is_empty() {
            continue;
        }
        if kind == Some("Service")
            && parameters["status"].is_null()
            && !Path::new("/etc/init.d").join(&name).exists()
        {
            names.searched.push(
                parameters["pattern"]
                    .as_str()
                    .map_or(name.clone(), str::to_string),
            );
        }
        names.shown.push(name);
    }
    names
}

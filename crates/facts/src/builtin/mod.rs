//! The built-in facts, one module per group. Each group reads through a
//! [`Probe`] and writes into [`Facts`]; [`GROUPS`] lists them in the order
//! they run.
//!
//! The names, shapes and derivations follow Facter 4.3 on Linux; where
//! Facter runs a command we read the same information from `/proc`, `/sys`,
//! `/etc`, `/run` or a system call, and `DIFFERENCES.md` lists what cannot
//! come out the same.

mod dmi;
mod identity;
mod kernel;
mod memory;
mod misc;
mod networking;
mod os;
mod processors;
mod ssh;
mod storage;
mod uptime;
mod virtualization;

use std::cell::OnceCell;

use serde_json::{Map, Value};

use crate::system::{System, Uname};

/// A group of facts that are collected together and timed together.
pub(crate) struct Group {
    /// The name `--timing` shows.
    pub(crate) name: &'static str,
    pub(crate) collect: fn(&Probe<'_>, &mut Facts),
}

/// Every built-in group, in the order they run.
pub(crate) const GROUPS: &[Group] = &[
    Group {
        name: "os",
        collect: os::collect,
    },
    Group {
        name: "kernel",
        collect: kernel::collect,
    },
    Group {
        name: "networking",
        collect: networking::collect,
    },
    Group {
        name: "processors",
        collect: processors::collect,
    },
    Group {
        name: "memory",
        collect: memory::collect,
    },
    Group {
        name: "mountpoints",
        collect: storage::collect_mountpoints,
    },
    Group {
        name: "disks",
        collect: storage::collect_disks,
    },
    Group {
        name: "partitions",
        collect: storage::collect_partitions,
    },
    Group {
        name: "filesystems",
        collect: storage::collect_filesystems,
    },
    Group {
        name: "dmi",
        collect: dmi::collect,
    },
    Group {
        name: "virtualization",
        collect: virtualization::collect,
    },
    Group {
        name: "identity",
        collect: identity::collect,
    },
    Group {
        name: "system_uptime",
        collect: uptime::collect_uptime,
    },
    Group {
        name: "load_averages",
        collect: uptime::collect_load_averages,
    },
    Group {
        name: "ssh",
        collect: ssh::collect,
    },
    Group {
        name: "misc",
        collect: misc::collect,
    },
];

/// Where facts are written: the structured facts `facter --json` prints, and
/// the flat legacy names it adds with `--show-legacy`.
#[derive(Default)]
pub(crate) struct Facts {
    pub(crate) facts: Map<String, Value>,
    pub(crate) legacy: Map<String, Value>,
}

impl Facts {
    /// Sets a fact; `None` leaves it out, as Facter leaves out facts that
    /// resolve to nil.
    pub(crate) fn set(&mut self, name: &str, value: impl Into<Option<Value>>) {
        if let Some(value) = value.into() {
            self.facts.insert(name.to_string(), value);
        }
    }

    /// Sets a legacy fact; `None` leaves it out.
    pub(crate) fn legacy(&mut self, name: &str, value: impl Into<Option<Value>>) {
        if let Some(value) = value.into() {
            self.legacy.insert(name.to_string(), value);
        }
    }
}

/// Builds a hash fact: entries whose value is `None` are left out, and
/// `None` comes back when nothing is left, as Facter drops nil facts.
pub(crate) fn object<const N: usize>(entries: [(&str, Option<Value>); N]) -> Option<Value> {
    let map: Map<String, Value> = entries
        .into_iter()
        .filter_map(|(key, value)| value.map(|value| (key.to_string(), value)))
        .collect();
    (!map.is_empty()).then_some(Value::Object(map))
}

/// A string value, or `None`.
pub(crate) fn text(value: Option<impl Into<String>>) -> Option<Value> {
    value.map(|value| Value::String(value.into()))
}

/// Data several groups need, read once and kept for the run.
pub(crate) struct Probe<'a> {
    pub(crate) system: &'a System,
    uname: OnceCell<Option<Uname>>,
    os_release: OnceCell<Vec<(String, String)>>,
    dmi: OnceCell<dmi::Dmi>,
    mounts: OnceCell<Vec<storage::Mount>>,
    containers: OnceCell<virtualization::Containers>,
    virt_what: OnceCell<Option<String>>,
    lspci: OnceCell<Option<&'static str>>,
}

impl<'a> Probe<'a> {
    pub(crate) fn new(system: &'a System) -> Probe<'a> {
        Probe {
            system,
            uname: OnceCell::new(),
            os_release: OnceCell::new(),
            dmi: OnceCell::new(),
            mounts: OnceCell::new(),
            containers: OnceCell::new(),
            virt_what: OnceCell::new(),
            lspci: OnceCell::new(),
        }
    }

    pub(crate) fn read(&self, path: &str) -> Option<String> {
        self.system.root.read(path)
    }

    pub(crate) fn read_trimmed(&self, path: &str) -> Option<String> {
        self.system.root.read_trimmed(path)
    }

    pub(crate) fn uname(&self) -> Option<&Uname> {
        self.uname
            .get_or_init(|| self.system.calls.uname())
            .as_ref()
    }

    /// The pairs of `/etc/os-release`, keys lower-cased, read as Facter
    /// reads them: every double quote removed, split at the first `=`.
    pub(crate) fn os_release(&self) -> &[(String, String)] {
        self.os_release.get_or_init(|| {
            let text = self
                .read("/etc/os-release")
                .or_else(|| self.read("/usr/lib/os-release"))
                .unwrap_or_default();
            text.lines()
                .filter_map(|line| {
                    let line = line.trim().replace('"', "");
                    let (key, value) = line.split_once('=')?;
                    Some((key.to_lowercase(), value.to_string()))
                })
                .collect()
        })
    }

    /// One value of `/etc/os-release` (key in lower case).
    pub(crate) fn os_release_value(&self, key: &str) -> Option<&str> {
        self.os_release()
            .iter()
            .rev()
            .find(|(name, _)| name == key)
            .map(|(_, value)| value.as_str())
    }

    pub(crate) fn dmi(&self) -> &dmi::Dmi {
        self.dmi.get_or_init(|| dmi::Dmi::read(self))
    }

    pub(crate) fn mounts(&self) -> &[storage::Mount] {
        self.mounts.get_or_init(|| storage::read_mounts(self))
    }

    pub(crate) fn containers(&self) -> &virtualization::Containers {
        self.containers
            .get_or_init(|| virtualization::Containers::read(self))
    }

    /// What `virt-what` would report first, worked out natively.
    pub(crate) fn virt_what(&self) -> Option<&str> {
        self.virt_what
            .get_or_init(|| virtualization::virt_what(self))
            .as_deref()
    }

    /// The hypervisor `lspci` would reveal, from the PCI vendor ids in
    /// `/sys/bus/pci/devices`.
    pub(crate) fn lspci(&self) -> Option<&'static str> {
        *self.lspci.get_or_init(|| virtualization::lspci(self))
    }
}

//! `os`: the distribution (from `/etc/os-release`, `/etc/debian_version`,
//! `/etc/redhat-release`), the architecture (from `uname`) and SELinux.
//!
//! Facter picks its fact definitions by a hierarchy of distributions
//! (Linux, then Debian or Red Hat, then Ubuntu); the same choice is made
//! here by [`Hierarchy`].

use serde_json::{Value, json};

use super::{Facts, Probe, object, text};

/// Which of Facter's per-distribution definitions apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Hierarchy {
    Debian,
    Ubuntu,
    RedHat,
    /// SLES, SLED and openSUSE.
    Suse,
    /// Every other Linux: Facter's generic definitions.
    Linux,
}

const DEBIAN_IDS: &[&str] = &["debian", "elementary", "raspbian", "devuan"];
const UBUNTU_IDS: &[&str] = &["ubuntu", "linuxmint"];
const REDHAT_IDS: &[&str] = &[
    "rhel",
    "fedora",
    "amzn",
    "centos",
    "ol",
    "scientific",
    "meego",
    "oel",
    "ovs",
];

fn hierarchy_of(id: &str) -> Option<Hierarchy> {
    if DEBIAN_IDS.contains(&id) {
        Some(Hierarchy::Debian)
    } else if UBUNTU_IDS.contains(&id) {
        Some(Hierarchy::Ubuntu)
    } else if REDHAT_IDS.contains(&id) {
        Some(Hierarchy::RedHat)
    } else if id == "sles" || id == "sled" || id.contains("opensuse") {
        Some(Hierarchy::Suse)
    } else {
        None
    }
}

/// The distribution's place in Facter's hierarchy: by `ID` first, then by
/// each word of `ID_LIKE` (so Rocky and Alma count as Red Hat).
pub(crate) fn hierarchy(probe: &Probe<'_>) -> Hierarchy {
    if probe.system.root.exists("/etc/devuan_version") {
        return Hierarchy::Debian;
    }
    let id = probe.os_release_value("id").map(str::to_lowercase);
    let id = id.or_else(|| redhat_release(probe).map(|release| release.id));
    if let Some(found) = id.as_deref().and_then(hierarchy_of) {
        return found;
    }
    probe
        .os_release_value("id_like")
        .unwrap_or_default()
        .split_whitespace()
        .find_map(|word| hierarchy_of(&word.to_lowercase()))
        .unwrap_or(Hierarchy::Linux)
}

/// Facter's family names and the `ID`s that belong to each; a family is
/// found when one of them occurs anywhere in `ID_LIKE` (or `ID`).
const FAMILIES: &[(&str, &[&str])] = &[
    (
        "RedHat",
        &[
            "redhat",
            "rhel",
            "fedora",
            "centos",
            "scientific",
            "ascendos",
            "cloudlinux",
            "psbm",
            "oraclelinux",
            "ovs",
            "oel",
            "amazon",
            "xenserver",
            "xcp-ng",
            "virtuozzo",
            "photon",
            "mariner",
        ],
    ),
    (
        "Debian",
        &["debian", "ubuntu", "huaweios", "linuxmint", "devuan", "kde"],
    ),
    ("Suse", &["sles", "sled", "suse"]),
    ("Gentoo", &["gentoo"]),
    ("Archlinux", &["arch", "manjaro"]),
    ("Mandrake", &["mandrake", "mandriva", "mageia"]),
];

/// Ruby's `String#capitalize`: the first character upper case, the rest
/// lower case.
pub(crate) fn capitalize(word: &str) -> String {
    let mut characters = word.chars();
    match characters.next() {
        Some(first) => first
            .to_uppercase()
            .chain(characters.flat_map(char::to_lowercase))
            .collect(),
        None => String::new(),
    }
}

fn family(probe: &Probe<'_>, hierarchy: Hierarchy) -> Option<String> {
    match hierarchy {
        Hierarchy::RedHat => return Some("RedHat".to_string()),
        Hierarchy::Suse => return Some("Suse".to_string()),
        _ => {}
    }
    let id = probe
        .os_release_value("id_like")
        .or_else(|| probe.os_release_value("id"))?;
    let lower = id.to_lowercase();
    let found = FAMILIES
        .iter()
        .find(|(_, members)| members.iter().any(|member| lower.contains(member)))
        .map(|(name, _)| name.to_string())
        .unwrap_or_else(|| id.to_string());
    Some(capitalize(&found))
}

/// `os.name` from the `NAME` of os-release, shortened as Facter shortens
/// it: the first word (`Debian GNU/Linux` is Debian), the first two joined
/// for Red Hat, Oracle, Arch and Manjaro (`RedHat`, `OracleLinux`).
fn name(probe: &Probe<'_>) -> Option<String> {
    let full = probe.os_release_value("name")?;
    let lower = full.to_lowercase();
    let mut name = if ["red", "oracle", "arch", "manjaro"]
        .iter()
        .any(|prefix| lower.starts_with(prefix))
    {
        full.split_whitespace().take(2).collect::<String>()
    } else if lower.ends_with("mariner") {
        full.split_whitespace()
            .last()
            .unwrap_or_default()
            .to_string()
    } else {
        full.split_whitespace()
            .next()
            .unwrap_or_default()
            .to_string()
    };
    if lower.starts_with("arch") || lower.starts_with("manjaro") {
        name = capitalize(&name);
    }
    if lower.starts_with("virtuozzo") {
        name.push_str("Linux");
    }
    Some(name)
}

/// `VERSION_ID` as Facter reads it: `.0` is added when it has no dot.
fn version_id(probe: &Probe<'_>) -> Option<String> {
    let version = probe.os_release_value("version_id")?;
    Some(if version.contains('.') {
        version.to_string()
    } else {
        format!("{version}.0")
    })
}

/// A release hash: `full`, `major` and (when there is one) `minor`.
fn release_hash(version: &str, strip_minor_zero: bool) -> Value {
    let mut parts = version.split('.');
    let major = parts.next().unwrap_or_default();
    let mut release = serde_json::Map::new();
    release.insert("full".into(), json!(version));
    release.insert("major".into(), json!(major));
    if let Some(minor) = parts.next() {
        // Debian writes minor versions as 01, 02 in a few old releases;
        // Facter drops that zero.
        let minor = match minor.strip_prefix('0') {
            Some(rest)
                if strip_minor_zero && rest.starts_with(|c: char| ('1'..='9').contains(&c)) =>
            {
                rest
            }
            _ => minor,
        };
        release.insert("minor".into(), json!(minor));
    }
    Value::Object(release)
}

/// What `/etc/redhat-release` says.
pub(crate) struct RedHatRelease {
    description: String,
    codename: Option<String>,
    distributor_id: String,
    name: String,
    version: Option<String>,
    id: String,
}

fn redhat_release(probe: &Probe<'_>) -> Option<RedHatRelease> {
    let text = probe.read("/etc/redhat-release")?;
    let before = text.split("release").next().unwrap_or_default().trim();
    let after = text.split("release").nth(1).map(str::trim);
    let words: Vec<&str> = before
        .split_whitespace()
        .filter(|word| !word.eq_ignore_ascii_case("linux"))
        .collect();
    let name: String = words.iter().take(2).copied().collect();
    let codename = text
        .contains("release")
        .then(|| {
            let open = text.rfind('(')?;
            let close = text[open..].find(')')? + open;
            let inside = &text[open + 1..close];
            (!inside.is_empty()).then(|| inside.to_string())
        })
        .flatten();
    // Facter's reader ends up calling every such system "rhel".
    let id = "rhel".to_string();
    Some(RedHatRelease {
        description: text.trim().to_string(),
        codename,
        distributor_id: words.concat(),
        version: after.and_then(|rest| rest.split_whitespace().next().map(str::to_string)),
        name,
        id,
    })
}

/// What `lsb_release -a` prints, worked out from os-release the way the
/// `lsb_release` of Debian 12 and Ubuntu does; `None` when no `lsb_release`
/// is installed (then Facter has none of these facts).
struct LsbRelease {
    distributor_id: String,
    description: String,
    release: String,
    codename: String,
}

fn lsb_release(probe: &Probe<'_>) -> Option<LsbRelease> {
    let path = probe.system.calls.environment("PATH").unwrap_or_default();
    let installed = path
        .split(':')
        .filter(|directory| directory.starts_with('/'))
        .any(|directory| {
            probe
                .system
                .root
                .is_file(&format!("{directory}/lsb_release"))
        });
    if !installed {
        return None;
    }
    let value = |key: &str| {
        probe
            .os_release_value(key)
            .filter(|value| !value.is_empty())
            .map(str::to_string)
    };
    let id = value("id").unwrap_or_default();
    let mut distributor_id = {
        let mut characters = id.chars();
        match characters.next() {
            Some(first) => first.to_uppercase().chain(characters).collect(),
            None => String::new(),
        }
    };
    if let Some(name) = value("name")
        && name.to_lowercase() == distributor_id.to_lowercase()
    {
        distributor_id = name;
    }
    let or_na = |value: Option<String>| value.unwrap_or_else(|| "n/a".to_string());
    Some(LsbRelease {
        distributor_id: if distributor_id.is_empty() {
            "n/a".to_string()
        } else {
            distributor_id
        },
        description: or_na(value("pretty_name")),
        release: or_na(value("version_id")),
        codename: or_na(value("version_codename")),
    })
}

/// The codename Debian's definitions use: `VERSION_CODENAME`, else the word
/// in parentheses of `VERSION`, else its first word lower-cased.
fn debian_codename(probe: &Probe<'_>) -> Option<String> {
    if let Some(codename) = probe.os_release_value("version_codename") {
        return Some(codename.to_string());
    }
    let version = probe.os_release_value("version")?;
    if let (Some(open), Some(close)) = (version.find('('), version.rfind(')'))
        && version.trim_end().ends_with(')')
        && open < close
    {
        let inside = &version[open + 1..close];
        let inside: String = inside.chars().filter(|&c| c != '(' && c != ')').collect();
        if !inside.is_empty() {
            return Some(inside);
        }
    }
    let words: Vec<&str> = version.split_whitespace().collect();
    let alphabetic = |word: &str| !word.is_empty() && word.chars().all(|c| c.is_ascii_alphabetic());
    words
        .windows(2)
        .find(|pair| {
            alphabetic(pair[0])
                && pair[1]
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphabetic())
        })
        .map(|pair| pair[0].to_lowercase())
}

pub(crate) fn collect(probe: &Probe<'_>, facts: &mut Facts) {
    let hierarchy = hierarchy(probe);
    let machine = probe.uname().map(|uname| uname.machine.clone());
    let mut os = serde_json::Map::new();

    let architecture = machine.as_deref().map(|machine| {
        let is_x86_32 = machine.len() == 4
            && machine.starts_with('i')
            && machine.ends_with("86")
            && ('3'..='6').contains(&machine.chars().nth(1).unwrap_or(' '));
        if is_x86_32 || machine.contains("pentium") {
            "i386".to_string()
        } else if machine == "x86_64" && matches!(hierarchy, Hierarchy::Debian | Hierarchy::Ubuntu)
        {
            "amd64".to_string()
        } else {
            machine.to_string()
        }
    });
    if let Some(architecture) = &architecture {
        os.insert("architecture".into(), json!(architecture));
        facts.legacy("architecture", json!(architecture));
    }
    if let Some(machine) = &machine {
        os.insert("hardware".into(), json!(machine));
        facts.legacy("hardwaremodel", json!(machine));
    }

    let redhat = (hierarchy == Hierarchy::RedHat)
        .then(|| redhat_release(probe))
        .flatten();
    let name = name(probe).or_else(|| redhat.as_ref().map(|release| release.name.clone()));
    if let Some(name) = &name {
        os.insert("name".into(), json!(name));
        facts.legacy("operatingsystem", json!(name));
    }
    if let Some(family) = family(probe, hierarchy) {
        os.insert("family".into(), json!(family));
        facts.legacy("osfamily", json!(family));
    }

    let lsb = lsb_release(probe);
    let mut distro = serde_json::Map::new();
    match hierarchy {
        Hierarchy::Debian | Hierarchy::Ubuntu => {
            let debian_version = probe.read_trimmed("/etc/debian_version");
            let release = if hierarchy == Hierarchy::Debian {
                debian_version
                    .as_deref()
                    .map(|version| release_hash(version, true))
            } else {
                version_id(probe).map(|version| json!({"full": version, "major": version}))
            };
            if let Some(release) = &release {
                if hierarchy == Hierarchy::Debian {
                    facts.legacy("operatingsystemmajrelease", release["major"].clone());
                    facts.legacy("operatingsystemrelease", release["full"].clone());
                } else {
                    facts.legacy("operatingsystemmajrelease", release["full"].clone());
                    facts.legacy("operatingsystemrelease", release["full"].clone());
                }
                os.insert("release".into(), release.clone());
            }
            if let Some(codename) = debian_codename(probe) {
                distro.insert("codename".into(), json!(codename));
            }
            if let Some(description) = probe.os_release_value("pretty_name") {
                distro.insert("description".into(), json!(description));
            }
            if let Some(id) = probe.os_release_value("id") {
                distro.insert("id".into(), json!(capitalize(id)));
            }
            if hierarchy == Hierarchy::Debian {
                if let Some(release) = &release {
                    facts.legacy("lsbdistrelease", release["full"].clone());
                    facts.legacy("lsbmajdistrelease", release["major"].clone());
                    facts.legacy("lsbminordistrelease", release.get("minor").cloned());
                    distro.insert("release".into(), release.clone());
                }
            } else {
                if let Some(version) = version_id(probe) {
                    distro.insert("release".into(), json!({"full": version, "major": version}));
                }
                if let Some(lsb) = &lsb {
                    let parts: Vec<&str> = lsb.release.split('.').collect();
                    facts.legacy("lsbdistrelease", json!(lsb.release));
                    facts.legacy(
                        "lsbmajdistrelease",
                        json!(format!(
                            "{}.{}",
                            parts.first().copied().unwrap_or_default(),
                            parts.get(1).copied().unwrap_or_default()
                        )),
                    );
                    facts.legacy(
                        "lsbminordistrelease",
                        parts.get(2).map(|minor| json!(minor)),
                    );
                }
            }
            if let Some(lsb) = &lsb {
                facts.legacy("lsbdistcodename", json!(lsb.codename));
                facts.legacy("lsbdistdescription", json!(lsb.description));
                facts.legacy("lsbdistid", json!(lsb.distributor_id));
            }
        }
        Hierarchy::RedHat => {
            let version = redhat
                .as_ref()
                .and_then(|release| release.version.clone())
                .or_else(|| version_id(probe));
            if let Some(version) = &version {
                let release = release_hash(version, false);
                facts.legacy("operatingsystemmajrelease", release["major"].clone());
                facts.legacy("operatingsystemrelease", release["full"].clone());
                facts.legacy("lsbdistrelease", release["full"].clone());
                facts.legacy("lsbmajdistrelease", release["major"].clone());
                facts.legacy("lsbminordistrelease", release.get("minor").cloned());
                os.insert("release".into(), release.clone());
                distro.insert("release".into(), release);
            }
            if let Some(redhat) = &redhat {
                if let Some(codename) = &redhat.codename {
                    distro.insert("codename".into(), json!(codename));
                }
                distro.insert("description".into(), json!(redhat.description));
                distro.insert("id".into(), json!(redhat.distributor_id));
            }
            if let Some(lsb) = &lsb {
                facts.legacy("lsbdistcodename", json!(lsb.codename));
                facts.legacy("lsbdistdescription", json!(lsb.description));
                facts.legacy("lsbdistid", json!(lsb.distributor_id));
            }
        }
        Hierarchy::Suse => {
            if let Some(version) = version_id(probe) {
                let mut parts = version.split('.');
                let major = parts.next().unwrap_or_default();
                let minor = version.rsplit('.').next().unwrap_or_default();
                let release = json!({"full": version, "major": major, "minor": minor});
                facts.legacy("operatingsystemmajrelease", json!(major));
                facts.legacy("operatingsystemrelease", json!(version));
                facts.legacy("lsbdistrelease", json!(version));
                facts.legacy("lsbmajdistrelease", json!(major));
                facts.legacy("lsbminordistrelease", json!(minor));
                os.insert("release".into(), release.clone());
                distro.insert("release".into(), release);
                // SUSE 12 called itself "SUSE LINUX".
                let id = if version.starts_with("12") {
                    "SUSE LINUX"
                } else {
                    "SUSE"
                };
                distro.insert("id".into(), json!(id));
            }
            let codename = probe
                .os_release_value("version_codename")
                .filter(|codename| !codename.is_empty())
                .unwrap_or("n/a");
            distro.insert("codename".into(), json!(codename));
            if let Some(description) = probe.os_release_value("pretty_name") {
                distro.insert("description".into(), json!(description));
            }
            if let Some(lsb) = &lsb {
                facts.legacy("lsbdistcodename", json!(lsb.codename));
                facts.legacy("lsbdistdescription", json!(lsb.description));
                facts.legacy("lsbdistid", json!(lsb.distributor_id));
            }
        }
        Hierarchy::Linux => {
            if let Some(version) = version_id(probe) {
                facts.legacy("operatingsystemmajrelease", json!(version));
                facts.legacy("operatingsystemrelease", json!(version));
                os.insert("release".into(), json!({"full": version, "major": version}));
            }
            if let Some(lsb) = &lsb {
                distro.insert("codename".into(), json!(lsb.codename));
                distro.insert("description".into(), json!(lsb.description));
                distro.insert("id".into(), json!(lsb.distributor_id));
                let release = release_hash(&lsb.release, false);
                facts.legacy("lsbdistcodename", json!(lsb.codename));
                facts.legacy("lsbdistdescription", json!(lsb.description));
                facts.legacy("lsbdistid", json!(lsb.distributor_id));
                facts.legacy("lsbdistrelease", release["full"].clone());
                facts.legacy("lsbmajdistrelease", release["major"].clone());
                facts.legacy("lsbminordistrelease", release.get("minor").cloned());
                distro.insert("release".into(), release);
            }
        }
    }
    if !distro.is_empty() {
        os.insert("distro".into(), Value::Object(distro));
    }

    let selinux = selinux(probe, facts);
    os.insert("selinux".into(), selinux);
    facts.set("os", Value::Object(os));
}

/// `os.selinux`: enabled when selinuxfs is mounted and `/etc/selinux/config`
/// has content; the modes and policy come with it.
fn selinux(probe: &Probe<'_>, facts: &mut Facts) -> Value {
    let mount_point = probe
        .read("/proc/self/mounts")
        .unwrap_or_default()
        .lines()
        .find(|line| line.contains("selinuxfs"))
        .and_then(|line| line.split_whitespace().nth(1).map(str::to_string));
    let config = probe.read("/etc/selinux/config").unwrap_or_default();
    let enabled = mount_point.is_some() && !config.is_empty();
    facts.legacy("selinux", json!(enabled));
    let Some(mount_point) = mount_point.filter(|_| enabled) else {
        return json!({"enabled": false});
    };
    let setting = |prefix: &str| {
        config
            .lines()
            .rev()
            .find(|line| line.starts_with(prefix))
            .and_then(|line| line.rsplit('=').next())
            .map(|value| value.trim().to_string())
    };
    let config_mode = setting("SELINUX=");
    let config_policy = setting("SELINUXTYPE=");
    let policy_version = probe.read_trimmed(&format!("{mount_point}/policyvers"));
    let enforced = probe
        .read_trimmed(&format!("{mount_point}/enforce"))
        .is_some_and(|text| text == "1");
    let current_mode = if enforced { "enforcing" } else { "permissive" };
    facts.legacy("selinux_config_mode", text(config_mode.clone()));
    facts.legacy("selinux_config_policy", text(config_policy.clone()));
    facts.legacy("selinux_current_mode", json!(current_mode));
    facts.legacy("selinux_enforced", json!(enforced));
    facts.legacy("selinux_policyversion", text(policy_version.clone()));
    object([
        ("config_mode", text(config_mode)),
        ("config_policy", text(config_policy)),
        ("current_mode", Some(json!(current_mode))),
        ("enabled", Some(json!(true))),
        ("enforced", Some(json!(enforced))),
        ("policy_version", text(policy_version)),
    ])
    .unwrap_or(Value::Null)
}

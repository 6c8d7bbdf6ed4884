//! `networking`: host name and domain, every interface with its addresses
//! (`getifaddrs`), MTU (`/sys/class/net`), DHCP server (lease files), IPv6
//! flags (`/proc/net/if_inet6`) and the primary interface (the default route
//! in `/proc/net/route`), plus the legacy `ipaddress_eth0` style names.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use serde_json::{Map, Value, json};

use super::{Facts, Probe, text};
use crate::system::Address;

/// One address of an interface, as a `bindings` or `bindings6` entry.
struct Binding {
    address: IpAddr,
    netmask: IpAddr,
    network: IpAddr,
    flags: Option<Vec<&'static str>>,
}

impl Binding {
    fn new(address: IpAddr, netmask: IpAddr) -> Binding {
        let network = match (address, netmask) {
            (IpAddr::V4(address), IpAddr::V4(mask)) => {
                IpAddr::V4(Ipv4Addr::from(u32::from(address) & u32::from(mask)))
            }
            (IpAddr::V6(address), IpAddr::V6(mask)) => {
                IpAddr::V6(Ipv6Addr::from(u128::from(address) & u128::from(mask)))
            }
            _ => address,
        };
        Binding {
            address,
            netmask,
            network,
            flags: None,
        }
    }

    /// The entry as Facter prints it. The keys stay in this order: entries
    /// of an array are printed unsorted.
    fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("address".into(), json!(self.address.to_string()));
        map.insert("netmask".into(), json!(self.netmask.to_string()));
        map.insert("network".into(), json!(self.network.to_string()));
        if let IpAddr::V6(address) = self.address {
            map.insert("scope6".into(), json!(scope6(address)));
        }
        if let Some(flags) = &self.flags {
            map.insert("flags".into(), json!(flags));
        }
        Value::Object(map)
    }
}

#[derive(Default)]
struct Interface {
    name: String,
    bindings: Vec<Binding>,
    bindings6: Vec<Binding>,
    mac: Option<String>,
    mtu: Option<u64>,
    dhcp: Option<String>,
}

/// The scope Facter gives an IPv6 address: `link`, `site`, `host` or
/// `global`, prefixed with `compat,` for IPv4-compatible addresses.
fn scope6(address: Ipv6Addr) -> String {
    let segments = address.segments();
    let value = u128::from(address);
    let compat = value >> 32 == 0 && value > 1;
    let scope = if segments[0] & 0xffc0 == 0xfe80 {
        "link"
    } else if segments[0] & 0xffc0 == 0xfec0 {
        "site"
    } else if address.is_loopback() {
        "host"
    } else {
        "global"
    };
    if compat {
        format!("compat,{scope}")
    } else {
        scope.to_string()
    }
}

/// Addresses Facter passes over when it picks an interface's main address
/// and the primary interface: loopback, link-local (IPv4 and IPv6) and IPv6
/// unique-local ones.
fn ignored(address: IpAddr) -> bool {
    match address {
        IpAddr::V4(address) => address.is_loopback() || address.is_link_local(),
        IpAddr::V6(address) => {
            let first = address.segments()[0];
            address.is_loopback() || first & 0xffc0 == 0xfe80 || first & 0xfe00 == 0xfc00
        }
    }
}

/// The binding an interface's `ip` (or `ip6`) comes from: the first not
/// ignored, else the first.
fn main_binding(bindings: &[Binding]) -> Option<&Binding> {
    bindings
        .iter()
        .find(|binding| !ignored(binding.address))
        .or_else(|| bindings.first())
}

fn valid_mac(mac: &str) -> bool {
    if mac == "00:00:00:00:00:00" {
        return false;
    }
    let groups: Vec<&str> = mac.split([':', '-']).collect();
    (6..=20).contains(&groups.len())
        && groups
            .iter()
            .all(|group| group.len() == 2 && group.chars().all(|c| c.is_ascii_hexdigit()))
}

/// The permanent address of a bonded interface, from its bond's status file
/// (the live address of every slave is the bond's own).
fn bonded_mac(probe: &Probe<'_>, name: &str) -> Option<String> {
    let master = probe
        .system
        .root
        .read_link(&format!("/sys/class/net/{name}/master"))?;
    let master = master.file_name()?.to_str()?.to_string();
    let status = probe.read(&format!("/proc/net/bonding/{master}"))?;
    let mut in_section = false;
    for line in status.lines() {
        if line.trim() == format!("Slave Interface: {name}") {
            in_section = true;
        } else if line.contains("Slave Interface") {
            in_section = false;
        }
        if in_section && let Some(rest) = line.split("Permanent HW addr: ").nth(1) {
            return rest.split_whitespace().next().map(str::to_string);
        }
    }
    None
}

/// The interfaces `getifaddrs` lists, in its order.
fn read_interfaces(probe: &Probe<'_>) -> Vec<Interface> {
    let mut interfaces: Vec<Interface> = Vec::new();
    for entry in probe.system.calls.interface_addresses() {
        let index = match interfaces.iter().position(|i| i.name == entry.name) {
            Some(index) => index,
            None => {
                interfaces.push(Interface {
                    name: entry.name.clone(),
                    ..Interface::default()
                });
                interfaces.len() - 1
            }
        };
        let interface = &mut interfaces[index];
        match entry.address {
            Address::Link { mac } => {
                if interface.mac.is_none() {
                    let mac = bonded_mac(probe, &entry.name).or(mac);
                    interface.mac = mac.filter(|mac| valid_mac(mac));
                }
            }
            Address::Inet { address, netmask } => {
                if let Some(netmask) = netmask {
                    interface
                        .bindings
                        .push(Binding::new(IpAddr::V4(address), IpAddr::V4(netmask)));
                }
            }
            Address::Inet6 { address, netmask } => {
                if let Some(netmask) = netmask {
                    interface
                        .bindings6
                        .push(Binding::new(IpAddr::V6(address), IpAddr::V6(netmask)));
                }
            }
        }
    }
    for interface in &mut interfaces {
        let base = interface.name.split('@').next().unwrap_or_default();
        interface.mtu = probe
            .read_trimmed(&format!("/sys/class/net/{base}/mtu"))
            .and_then(|mtu| mtu.parse().ok());
        interface.dhcp = dhcp_server(probe, &interface.name);
    }
    add_ipv6_flags(probe, &mut interfaces);
    interfaces
}

const IFA_FLAGS: [(&str, u32); 8] = [
    ("temporary", 0x01),
    ("noad", 0x02),
    ("optimistic", 0x04),
    ("dadfailed", 0x08),
    ("homeaddress", 0x10),
    ("deprecated", 0x20),
    ("tentative", 0x40),
    ("permanent", 0x80),
];

/// The flags of each IPv6 address, from `/proc/net/if_inet6`.
fn add_ipv6_flags(probe: &Probe<'_>, interfaces: &mut [Interface]) {
    let Some(text) = probe.read("/proc/net/if_inet6") else {
        return;
    };
    for line in text.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() != 6 {
            continue;
        }
        let (Ok(value), Ok(flag_bits)) = (
            u128::from_str_radix(fields[0], 16),
            u32::from_str_radix(fields[4], 16),
        ) else {
            continue;
        };
        let address = IpAddr::V6(Ipv6Addr::from(value));
        let flags: Vec<&'static str> = IFA_FLAGS
            .iter()
            .filter(|(_, bit)| flag_bits & bit != 0)
            .map(|(name, _)| *name)
            .collect();
        for interface in interfaces.iter_mut().filter(|i| i.name == fields[5]) {
            for binding in interface
                .bindings6
                .iter_mut()
                .filter(|binding| binding.address == address)
            {
                binding.flags = Some(flags.clone());
            }
        }
    }
}

/// The DHCP server that gave an interface its address: from systemd-networkd,
/// dhclient or NetworkManager lease files.
fn dhcp_server(probe: &Probe<'_>, name: &str) -> Option<String> {
    let root = &probe.system.root;
    if let Some(index) = probe.read_trimmed(&format!("/sys/class/net/{name}/ifindex"))
        && let Some(lease) = probe.read(&format!("/run/systemd/netif/leases/{index}"))
        && let Some(server) = lease
            .lines()
            .find_map(|line| line.strip_prefix("SERVER_ADDRESS="))
    {
        return Some(server.to_string());
    }
    for directory in [
        "/var/lib/dhclient/",
        "/var/lib/dhcp/",
        "/var/lib/dhcp3/",
        "/var/lib/NetworkManager/",
        "/var/db/",
    ] {
        for file in root.read_dir(directory) {
            let is_lease = file
                .find("dhclient")
                .is_some_and(|at| file[at..].contains(".lease"));
            if !is_lease {
                continue;
            }
            let Some(content) = probe.read(&format!("{directory}{file}")) else {
                continue;
            };
            let mentions = content.lines().any(|line| {
                line.find("interface")
                    .is_some_and(|at| line[at..].contains(name))
            });
            if !mentions {
                continue;
            }
            let server = content.lines().find_map(|line| {
                let rest = line.split("dhcp-server-identifier ").nth(1)?;
                let address: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_digit() || *c == '.')
                    .collect();
                address.parse::<Ipv4Addr>().ok().map(|_| address)
            });
            if server.is_some() {
                return server;
            }
        }
    }
    let manager = "/var/lib/NetworkManager/";
    let lease = root.read_dir(manager).into_iter().find(|file| {
        file.find("internal")
            .is_some_and(|at| file[at..].contains(&format!("{name}.lease")))
    })?;
    probe
        .read(&format!("{manager}{lease}"))?
        .lines()
        .find_map(|line| line.split("SERVER_ADDRESS=").nth(1).map(str::to_string))
}

/// The interface of the IPv4 default route, else the first interface with
/// an address that is not ignored.
fn primary_interface(probe: &Probe<'_>, interfaces: &[Interface]) -> Option<String> {
    if let Some(routes) = probe.read("/proc/net/route") {
        for line in routes.lines().skip(1) {
            let fields: Vec<&str> = line.trim().split('\t').map(str::trim).collect();
            if fields.len() > 7
                && fields[1] == "00000000"
                && fields[7] == "00000000"
                && fields[0] != "*"
            {
                return Some(fields[0].to_string());
            }
        }
    }
    interfaces
        .iter()
        .find(|interface| {
            interface
                .bindings
                .iter()
                .chain(&interface.bindings6)
                .any(|binding| !ignored(binding.address))
        })
        .map(|interface| interface.name.clone())
}

/// The host name, domain and fully qualified name, as Facter works them out:
/// the kernel's host name split at its first dot; when it has no domain, the
/// canonical name of the host (`/etc/hosts`, then the resolver); when that
/// gives no domain either, the `domain` or first `search` entry of
/// `/etc/resolv.conf`.
fn host_names(probe: &Probe<'_>) -> (Option<String>, Option<String>, Option<String>) {
    let full = probe
        .read_trimmed("/proc/sys/kernel/hostname")
        .or_else(|| probe.uname().map(|uname| uname.nodename.clone()))
        .filter(|name| !name.is_empty());
    let Some(full) = full else {
        return (None, None, None);
    };
    let (host, mut domain) = match full.split_once('.') {
        Some((host, domain)) if !domain.is_empty() => (host.to_string(), domain.to_string()),
        _ => (full.clone(), String::new()),
    };
    let mut fqdn = None;
    if domain.is_empty() && !host.is_empty() {
        fqdn = canonical_name(probe, &host);
        if let Some(name) = &fqdn
            && name.starts_with(&format!("{host}."))
            && let Some((_, found)) = name.split_once('.')
            && !found.is_empty()
        {
            domain = found.to_string();
        }
    }
    if domain.is_empty() {
        domain = resolv_conf_domain(probe).unwrap_or_default();
    }
    let fqdn = match fqdn {
        Some(fqdn) => fqdn,
        None if domain.is_empty() => host.clone(),
        None => format!("{host}.{domain}"),
    };
    let domain = (!domain.is_empty()).then_some(domain);
    (Some(host), domain, Some(fqdn))
}

/// What `getaddrinfo` with `AI_CANONNAME` would call `host`: the first name
/// of the first `/etc/hosts` line naming it, else the resolver's answer.
/// Names equal to the host itself or to an address are no answer.
fn canonical_name(probe: &Probe<'_>, host: &str) -> Option<String> {
    let hosts = probe.read("/etc/hosts").unwrap_or_default();
    let from_file = hosts.lines().find_map(|line| {
        let line = line.split('#').next().unwrap_or_default();
        let mut fields = line.split_whitespace();
        let _address = fields.next()?;
        let names: Vec<&str> = fields.collect();
        names
            .iter()
            .any(|name| name.eq_ignore_ascii_case(host))
            .then(|| names[0].to_string())
    });
    let name = match from_file {
        Some(name) => Some(name),
        None => probe.system.calls.canonical_name(host),
    }?;
    (name != host && name.parse::<IpAddr>().is_err() && !name.is_empty()).then_some(name)
}

fn resolv_conf_domain(probe: &Probe<'_>) -> Option<String> {
    let text = probe.read("/etc/resolv.conf")?;
    let first_word_after = |keyword: &str| {
        text.lines().find_map(|line| {
            let rest = line.strip_prefix(keyword)?;
            if !rest.starts_with(char::is_whitespace) {
                return None;
            }
            rest.split_whitespace().next().map(str::to_string)
        })
    };
    first_word_after("domain").or_else(|| first_word_after("search"))
}

pub(crate) fn collect(probe: &Probe<'_>, facts: &mut Facts) {
    let mut networking = Map::new();
    let (host, domain, fqdn) = host_names(probe);
    for (key, value) in [("hostname", &host), ("domain", &domain), ("fqdn", &fqdn)] {
        if let Some(value) = value {
            networking.insert(key.into(), json!(value));
            facts.legacy(key, json!(value));
        }
    }

    let interfaces = read_interfaces(probe);
    let primary = primary_interface(probe, &interfaces);
    let mut values = Map::new();
    for interface in &interfaces {
        let mut entry = Map::new();
        if !interface.bindings.is_empty() {
            entry.insert(
                "bindings".into(),
                Value::Array(interface.bindings.iter().map(Binding::to_value).collect()),
            );
        }
        if !interface.bindings6.is_empty() {
            entry.insert(
                "bindings6".into(),
                Value::Array(interface.bindings6.iter().map(Binding::to_value).collect()),
            );
        }
        if let Some(dhcp) = &interface.dhcp {
            entry.insert("dhcp".into(), json!(dhcp));
        }
        if let Some(binding) = main_binding(&interface.bindings) {
            entry.insert("ip".into(), json!(binding.address.to_string()));
            entry.insert("netmask".into(), json!(binding.netmask.to_string()));
            entry.insert("network".into(), json!(binding.network.to_string()));
        }
        if let Some(binding) = main_binding(&interface.bindings6) {
            entry.insert("ip6".into(), json!(binding.address.to_string()));
            entry.insert("netmask6".into(), json!(binding.netmask.to_string()));
            entry.insert("network6".into(), json!(binding.network.to_string()));
            if let IpAddr::V6(address) = binding.address {
                entry.insert("scope6".into(), json!(scope6(address)));
            }
        }
        if let Some(mac) = &interface.mac {
            entry.insert("mac".into(), json!(mac));
        }
        if let Some(mtu) = interface.mtu {
            entry.insert("mtu".into(), json!(mtu));
        }
        for (key, legacy) in [
            ("ip", "ipaddress"),
            ("ip6", "ipaddress6"),
            ("mac", "macaddress"),
            ("mtu", "mtu"),
            ("netmask", "netmask"),
            ("netmask6", "netmask6"),
            ("network", "network"),
            ("network6", "network6"),
            ("scope6", "scope6"),
        ] {
            if let Some(value) = entry.get(key) {
                facts.legacy(&format!("{legacy}_{}", interface.name), value.clone());
            }
        }
        values.insert(interface.name.clone(), Value::Object(entry));
    }

    if !interfaces.is_empty() {
        let mut servers = Map::new();
        let primary_dhcp = primary
            .as_deref()
            .and_then(|name| interfaces.iter().find(|i| i.name == name))
            .and_then(|interface| interface.dhcp.clone());
        servers.insert("system".into(), text(primary_dhcp).unwrap_or(Value::Null));
        for interface in &interfaces {
            if let Some(dhcp) = &interface.dhcp {
                servers.insert(interface.name.clone(), json!(dhcp));
            }
        }
        facts.legacy("dhcp_servers", Value::Object(servers));
        let mut names: Vec<&str> = interfaces.iter().map(|i| i.name.as_str()).collect();
        names.sort_unstable();
        facts.legacy("interfaces", json!(names.join(",")));
    }

    if let Some(primary) = &primary
        && let Some(Value::Object(entry)) = values.get(primary)
    {
        for (key, value) in entry {
            if key != "bindings" && key != "bindings6" {
                networking.insert(key.clone(), value.clone());
            }
        }
        for (key, legacy) in [
            ("ip", "ipaddress"),
            ("ip6", "ipaddress6"),
            ("mac", "macaddress"),
            ("netmask", "netmask"),
            ("netmask6", "netmask6"),
            ("network", "network"),
            ("network6", "network6"),
            ("scope6", "scope6"),
        ] {
            if let Some(value) = entry.get(key) {
                facts.legacy(legacy, value.clone());
            }
        }
    }
    if !values.is_empty() {
        networking.insert("interfaces".into(), Value::Object(values));
    }
    if let Some(primary) = primary {
        networking.insert("primary".into(), json!(primary));
    }
    facts.set("networking", Value::Object(networking));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_follow_facter() {
        let cases = [
            ("fe80::1", "link"),
            ("fec0::1", "site"),
            ("::1", "host"),
            ("2001:db8::1", "global"),
            ("fd00::2", "global"),
            ("::10.0.0.1", "compat,global"),
        ];
        for (address, expected) in cases {
            let address: Ipv6Addr = address.parse().unwrap_or(Ipv6Addr::UNSPECIFIED);
            assert_eq!(scope6(address), expected, "{address}");
        }
    }

    #[test]
    fn ignored_addresses_follow_facter() {
        let cases = [
            ("127.0.0.1", true),
            ("169.254.3.4", true),
            ("10.0.0.1", false),
            ("::1", true),
            ("fe80::1", true),
            ("fd00::1", true),
            ("2001:db8::1", false),
        ];
        for (address, expected) in cases {
            let address: IpAddr = address.parse().unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED));
            assert_eq!(ignored(address), expected, "{address}");
        }
    }

    #[test]
    fn mac_addresses_are_checked_as_facter_checks_them() {
        let cases = [
            ("02:fc:00:00:00:01", true),
            ("00:00:00:00:00:00", false),
            ("02:fc:00:00:00", false),
            (
                "80:00:02:08:fe:80:00:00:00:00:00:00:00:11:22:33:44:55:66:77",
                true,
            ),
        ];
        for (mac, expected) in cases {
            assert_eq!(valid_mac(mac), expected, "{mac}");
        }
    }
}

//! `virtual`, `is_virtual` and `hypervisors`.
//!
//! Facter combines container markers of PID 1, `virt-what`, DMI data,
//! `/proc` files and `lspci`. We follow its order of checks, and replace the
//! two commands by what they look at: the CPUID hypervisor signature, DMI
//! and container files for `virt-what`, PCI vendor ids in `/sys` for
//! `lspci`.

use serde_json::{Map, Value, json};

use super::{Facts, Probe};

/// A container PID 1 runs in, as Facter reads it from `/proc/1/cgroup` and
/// `/proc/1/environ`.
#[derive(Default)]
pub(crate) struct Containers {
    /// `docker`, `lxc` or `systemd_nspawn`.
    pub(crate) vm: Option<&'static str>,
    /// What `hypervisors.<vm>` holds: the container's id or name.
    pub(crate) info: Map<String, Value>,
}

impl Containers {
    pub(crate) fn read(probe: &Probe<'_>) -> Containers {
        // Facter needs both files; /proc/1/environ is readable by root only
        // (and not even by root in some sandboxes).
        let (Some(cgroup), Some(environ)) =
            (probe.read("/proc/1/cgroup"), probe.read("/proc/1/environ"))
        else {
            return Containers::default();
        };
        let docker = cgroup.find("docker/").and_then(|at| {
            let rest = &cgroup[at + "docker/".len()..];
            let id = rest.lines().next().unwrap_or_default();
            (!id.is_empty()).then(|| id.to_string())
        });
        let lxc = cgroup.strip_prefix("/lxc/").map(|rest| {
            rest.split(['/', '\n'])
                .next()
                .unwrap_or_default()
                .to_string()
        });
        let lxc_from_environ = environ.contains("container=lxc");
        let mut vm = None;
        let mut info = None;
        if let Some(id) = docker {
            vm = Some("docker");
            info = Some(id);
        }
        if lxc.is_some() || lxc_from_environ {
            vm = Some("lxc");
        }
        if let Some(name) = lxc {
            info = Some(name);
        }
        let mut map = Map::new();
        if let (Some(vm), Some(info)) = (vm, info) {
            let key = if vm == "docker" { "id" } else { "name" };
            map.insert(key.into(), json!(info));
        }
        if vm.is_none() && environ.contains("container=systemd-nspawn") {
            vm = Some("systemd_nspawn");
            if let Some(id) = probe.read_trimmed("/etc/machine-id") {
                map.insert("id".into(), json!(id));
            }
        }
        Containers { vm, info: map }
    }
}

/// What Facter would make of `virt-what`'s first answer, worked out from the
/// same evidence: the CPUID signature, Xen's `/proc/xen`, DMI, then
/// container markers.
pub(crate) fn virt_what(probe: &Probe<'_>) -> Option<String> {
    let signature = probe.system.calls.hypervisor_signature();
    let from_cpuid = match signature.as_deref() {
        Some("VMwareVMware") => Some("vmware"),
        Some("Microsoft Hv") => Some("hyperv"),
        Some("bhyve bhyve ") => Some("bhyve"),
        Some("XenVMMXenVMM") => Some("xenhvm"),
        Some("KVMKVMKVM") | Some("Linux KVM Hv") => Some("kvm"),
        Some("TCGTCGTCGTCG") => Some("qemu"),
        Some("LKVMLKVMLKVM") => Some("lkvm"),
        Some("ACRNACRNACRN") => Some("acrn"),
        _ => None,
    };
    if let Some(found) = from_cpuid {
        return Some(found.to_string());
    }
    let root = &probe.system.root;
    if root.is_dir("/proc/xen") {
        let capabilities = probe.read("/proc/xen/capabilities").unwrap_or_default();
        return Some(
            if capabilities.contains("control_d") {
                "xen0"
            } else {
                "xenu"
            }
            .to_string(),
        );
    }
    let dmi = probe.dmi();
    let vendor = dmi.sys_vendor.as_deref().unwrap_or_default();
    let product = dmi.product_name.as_deref().unwrap_or_default();
    let bios_version = dmi.bios_version.as_deref().unwrap_or_default();
    let from_dmi = if product == "VirtualBox"
        || vendor == "innotek GmbH"
        || bios_version.contains("VirtualBox")
    {
        Some("virtualbox")
    } else if vendor.starts_with("Parallels") || product.starts_with("Parallels") {
        Some("parallels")
    } else if vendor.starts_with("VMware") || product.starts_with("VMware") {
        Some("vmware")
    } else if vendor == "Microsoft Corporation" && product == "Virtual Machine" {
        Some("hyperv")
    } else if vendor == "QEMU" || product.contains("QEMU") {
        Some("qemu")
    } else if product.contains("Bochs") || vendor.contains("Bochs") {
        Some("bochs")
    } else {
        None
    };
    if let Some(found) = from_dmi {
        return Some(found.to_string());
    }
    let cgroup = probe.read("/proc/1/cgroup").unwrap_or_default();
    let environ = probe.read("/proc/1/environ").unwrap_or_default();
    if root.exists("/.dockerenv") || cgroup.contains("docker") {
        return Some("docker".to_string());
    }
    if root.exists("/run/.containerenv") {
        return Some("podman".to_string());
    }
    if environ.contains("container=lxc") {
        return Some("lxc".to_string());
    }
    if environ.contains("container=systemd-nspawn") {
        return Some("systemd_nspawn".to_string());
    }
    None
}

/// What Facter would make of `lspci`: the first PCI device whose vendor
/// marks a hypervisor.
pub(crate) fn lspci(probe: &Probe<'_>) -> Option<&'static str> {
    let root = &probe.system.root;
    for device in root.read_dir("/sys/bus/pci/devices") {
        let base = format!("/sys/bus/pci/devices/{device}");
        let read_hex = |name: &str| {
            probe
                .read_trimmed(&format!("{base}/{name}"))
                .and_then(|text| u32::from_str_radix(text.trim_start_matches("0x"), 16).ok())
        };
        let (Some(vendor), Some(id)) = (read_hex("vendor"), read_hex("device")) else {
            continue;
        };
        let found = match vendor {
            0x80ee => Some("virtualbox"),
            0x5853 => Some("xenhvm"),
            0x1414 if (0x5353..=0x5353).contains(&id) => Some("hyperv"),
            0x1ae0 => Some("gce"),
            0x15ad => Some("vmware"),
            0x1ab8 => Some("parallels"),
            // Red Hat's virtio devices, which lspci names "Virtio ...".
            0x1af4 if (0x1000..=0x10ff).contains(&id) => Some("kvm"),
            _ => None,
        };
        if found.is_some() {
            return found;
        }
    }
    None
}

/// Product names Facter maps to a hypervisor.
const PRODUCT_HYPERVISORS: [(&str, &str); 11] = [
    ("VMware", "vmware"),
    ("VirtualBox", "virtualbox"),
    ("Parallels", "parallels"),
    ("KVM", "kvm"),
    ("Virtual Machine", "hyperv"),
    ("RHEV Hypervisor", "rhev"),
    ("oVirt Node", "ovirt"),
    ("HVM domU", "xenhvm"),
    ("Bochs", "bochs"),
    ("OpenBSD", "vmm"),
    ("BHYVE", "bhyve"),
];

fn product_hypervisor(product: &str) -> Option<&'static str> {
    PRODUCT_HYPERVISORS
        .iter()
        .find(|(key, _)| product.contains(key))
        .map(|(_, value)| *value)
}

/// OpenVZ: `openvzhn` on the host, `openvzve` in a container.
fn openvz(probe: &Probe<'_>) -> Option<(&'static str, i64)> {
    let root = &probe.system.root;
    if !root.is_dir("/proc/vz")
        || root.is_file("/proc/lve/list")
        || root.read_dir("/proc/vz").is_empty()
    {
        return None;
    }
    let status = probe.read("/proc/self/status")?;
    status.lines().find_map(|line| {
        let parts: Vec<&str> = line.split_whitespace().collect();
        if parts.len() != 2 || !parts[0].starts_with("envID:") {
            return None;
        }
        let id: i64 = parts[1].parse().unwrap_or(0);
        Some((
            if parts[1] == "0" {
                "openvzhn"
            } else {
                "openvzve"
            },
            id,
        ))
    })
}

/// Linux-VServer: `vserver_host` in the host context, `vserver` in a guest.
fn vserver(probe: &Probe<'_>) -> Option<&'static str> {
    let status = probe.read("/proc/self/status")?;
    status.lines().find_map(|line| {
        let parts: Vec<&str> = line.split_whitespace().collect();
        if parts.len() != 2
            || !(parts[0].starts_with("s_context:") || parts[0].starts_with("VxID:"))
        {
            return None;
        }
        Some(if parts[1] == "0" {
            "vserver_host"
        } else {
            "vserver"
        })
    })
}

/// Xen from its device files: `xen0` in dom0, `xenu` in a guest.
fn xen(probe: &Probe<'_>) -> Option<&'static str> {
    let root = &probe.system.root;
    if root.exists("/dev/xen/evtchn") {
        Some("xen0")
    } else if root.exists("/proc/xen") || root.exists("/dev/xvda1") {
        Some("xenu")
    } else {
        None
    }
}

/// The `virtual` fact, through Facter's checks in Facter's order.
fn platform(probe: &Probe<'_>) -> String {
    if let Some(vm) = probe.containers().vm {
        return vm.to_string();
    }
    let dmi = probe.dmi();
    if dmi
        .bios_vendor
        .as_deref()
        .is_some_and(|vendor| vendor.contains("Google"))
    {
        return "gce".to_string();
    }
    if let Some(found) = probe.virt_what() {
        return found.to_string();
    }
    if let Some((found, _)) = openvz(probe) {
        return found.to_string();
    }
    if let Some(found) = vserver(probe) {
        return found.to_string();
    }
    if let Some(found) = xen(probe) {
        return found.to_string();
    }
    if dmi
        .bios_vendor
        .as_deref()
        .is_some_and(|vendor| vendor.contains("Amazon EC2"))
    {
        return "kvm".to_string();
    }
    if let Some(found) = dmi.product_name.as_deref().and_then(product_hypervisor) {
        return found.to_string();
    }
    if let Some(found) = probe.lspci() {
        return found.to_string();
    }
    "physical".to_string()
}

/// Values of `virtual` that mean the machine is not a guest.
const PHYSICAL: [&str; 6] = [
    "physical",
    "xen0",
    "vmware_server",
    "vmware_workstation",
    "openvzhn",
    "vserver_host",
];

pub(crate) fn collect(probe: &Probe<'_>, facts: &mut Facts) {
    let platform = platform(probe);
    facts.set("is_virtual", json!(!PHYSICAL.contains(&platform.as_str())));
    let mut hypervisors = Map::new();
    let containers = probe.containers();
    if let Some(vm) = containers.vm {
        hypervisors.insert(vm.to_string(), Value::Object(containers.info.clone()));
    }
    let dmi = probe.dmi();
    let product = dmi.product_name.as_deref();
    let vendor = dmi.sys_vendor.as_deref();
    let bios_vendor = dmi.bios_vendor.as_deref().unwrap_or_default();
    let virt_what = probe.virt_what();
    let lspci = probe.lspci();

    let product_kind = product.map(|name| product_hypervisor(name).unwrap_or(name));
    let kvm = virt_what == Some("kvm")
        || lspci == Some("kvm")
        || bios_vendor.contains("Amazon EC2")
        || bios_vendor.contains("Google")
        || product.is_some_and(|name| name.contains("OpenStack"));
    if kvm && !matches!(product_kind, Some("virtualbox" | "parallels")) {
        let provider = match vendor {
            Some("Google") => json!({"google": true}),
            Some(name) if name.starts_with("OpenStack") => json!({"openstack": true}),
            Some(name) if name.starts_with("Amazon") => json!({"amazon": true}),
            _ => json!({}),
        };
        hypervisors.insert("kvm".into(), provider);
    }
    if vendor.is_some_and(|name| name.contains("Microsoft")) || product == Some("Virtual Machine") {
        hypervisors.insert("hyperv".into(), json!({}));
    }
    if product == Some("VirtualBox")
        || virt_what.is_some_and(|found| found.contains("virtualbox"))
        || lspci == Some("virtualbox")
    {
        hypervisors.insert("virtualbox".into(), json!({}));
    }
    if virt_what == Some("vmware")
        || product == Some("VMware")
        || lspci == Some("vmware")
        || vendor == Some("VMware, Inc.")
    {
        hypervisors.insert("vmware".into(), json!({}));
    }
    if platform.contains("xen") {
        let hvm = product_kind == Some("xenhvm") || lspci == Some("xenhvm");
        let capabilities = probe.read("/proc/xen/capabilities").unwrap_or_default();
        let privileged = capabilities.trim() == "control_d" || xen(probe) == Some("xen0");
        hypervisors.insert(
            "xen".into(),
            json!({"context": if hvm { "hvm" } else { "pv" }, "privileged": privileged}),
        );
    }
    if let Some((kind, id)) = openvz(probe) {
        hypervisors.insert(
            "openvz".into(),
            json!({"id": id, "host": kind == "openvzhn"}),
        );
    }
    if !hypervisors.is_empty() {
        facts.set("hypervisors", Value::Object(hypervisors));
    }
    facts.set("virtual", json!(platform));
}

//! Where the collectors get their data: files under a root directory (the
//! machine's `/` normally, a captured fixture in tests) and a few system
//! calls behind the [`SystemCalls`] trait, answered by the kernel
//! ([`LiveCalls`]) or by a recording ([`RecordedCalls`]).
//!
//! Collectors never touch `std::fs` or `libc` themselves: going through
//! [`System`] is what lets every collector run on a fixture.

use std::collections::BTreeMap;
use std::ffi::{CStr, CString};
use std::net::{Ipv4Addr, Ipv6Addr};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};

/// A directory standing for the machine's `/`: collectors read `/proc`,
/// `/sys`, `/etc`, `/run` and `/dev` below it.
///
/// A root can record every path read through it, which is how fixtures are
/// captured (see `examples/capture.rs`).
#[derive(Clone, Debug)]
pub struct SystemRoot {
    root: PathBuf,
    log: Option<Arc<Mutex<Vec<Access>>>>,
}

/// One read made through a recording [`SystemRoot`], by absolute path as the
/// collector asked for it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Access {
    /// A file's contents were read.
    File(String),
    /// A directory was listed.
    Directory(String),
    /// A symbolic link was read.
    Link(String),
    /// Only whether the path exists (and its type) was asked.
    Exists(String),
}

impl SystemRoot {
    /// The running machine's own `/`.
    pub fn live() -> SystemRoot {
        SystemRoot::at("/")
    }

    /// A directory laid out like `/` (a captured fixture, a chroot).
    pub fn at(root: impl Into<PathBuf>) -> SystemRoot {
        SystemRoot {
            root: root.into(),
            log: None,
        }
    }

    /// The same root, recording every path read from now on.
    pub fn recording(mut self) -> SystemRoot {
        self.log = Some(Arc::default());
        self
    }

    /// The paths read so far, sorted, if this root records.
    pub fn accesses(&self) -> Vec<Access> {
        let mut accesses = match &self.log {
            Some(log) => log.lock().map(|log| log.clone()).unwrap_or_default(),
            None => Vec::new(),
        };
        accesses.sort();
        accesses.dedup();
        accesses
    }

    /// The directory standing for `/`.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Whether this is the running machine's `/` (then system calls answer
    /// for the same machine as the files).
    pub fn is_live(&self) -> bool {
        self.root == Path::new("/")
    }

    fn note(&self, access: Access) {
        if let Some(log) = &self.log
            && let Ok(mut log) = log.lock()
        {
            log.push(access);
        }
    }

    /// Where the absolute path `absolute` of the machine is on this host.
    pub fn path(&self, absolute: &str) -> PathBuf {
        self.root.join(absolute.trim_start_matches('/'))
    }

    /// The contents of a file, or `None` when it is missing or unreadable.
    /// Bytes that are not UTF-8 are replaced, as facts are text.
    pub fn read(&self, absolute: &str) -> Option<String> {
        self.note(Access::File(absolute.to_string()));
        let bytes = std::fs::read(self.path(absolute)).ok()?;
        Some(match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(error) => String::from_utf8_lossy(error.as_bytes()).into_owned(),
        })
    }

    /// The contents of a file with surrounding white space removed, or
    /// `None` when it is missing, unreadable or blank.
    pub fn read_trimmed(&self, absolute: &str) -> Option<String> {
        let text = self.read(absolute)?;
        let text = text.trim();
        (!text.is_empty()).then(|| text.to_string())
    }

    /// The names in a directory, sorted; empty when it is missing.
    pub fn read_dir(&self, absolute: &str) -> Vec<String> {
        self.note(Access::Directory(absolute.to_string()));
        let Ok(entries) = std::fs::read_dir(self.path(absolute)) else {
            return Vec::new();
        };
        let mut names: Vec<String> = entries
            .filter_map(|entry| entry.ok())
            .filter_map(|entry| entry.file_name().into_string().ok())
            .collect();
        names.sort();
        names
    }

    /// Where a symbolic link points, or `None` when it is not a link.
    pub fn read_link(&self, absolute: &str) -> Option<PathBuf> {
        self.note(Access::Link(absolute.to_string()));
        std::fs::read_link(self.path(absolute)).ok()
    }

    /// Whether the path exists (following links).
    pub fn exists(&self, absolute: &str) -> bool {
        self.note(Access::Exists(absolute.to_string()));
        self.path(absolute).exists()
    }

    /// Whether the path is a directory (following links).
    pub fn is_dir(&self, absolute: &str) -> bool {
        self.note(Access::Exists(absolute.to_string()));
        self.path(absolute).is_dir()
    }

    /// Whether the path is a regular file (following links).
    pub fn is_file(&self, absolute: &str) -> bool {
        self.note(Access::Exists(absolute.to_string()));
        self.path(absolute).is_file()
    }
}

/// What `uname(2)` reports.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Uname {
    pub sysname: String,
    pub nodename: String,
    pub release: String,
    pub version: String,
    pub machine: String,
}

/// One entry of `getifaddrs(3)`: an interface name and one of its addresses.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InterfaceAddress {
    pub name: String,
    #[serde(flatten)]
    pub address: Address,
}

/// The address part of an [`InterfaceAddress`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "family", rename_all = "lowercase")]
pub enum Address {
    /// The link layer (`AF_PACKET`): the hardware address, lower-case hex
    /// bytes joined by colons, absent when the link has none.
    Link { mac: Option<String> },
    /// An IPv4 address and its netmask (absent on some point-to-point links).
    Inet {
        address: Ipv4Addr,
        netmask: Option<Ipv4Addr>,
    },
    /// An IPv6 address and its netmask.
    Inet6 {
        address: Ipv6Addr,
        netmask: Option<Ipv6Addr>,
    },
}

/// What `statvfs(3)` reports about a mounted file system, in bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FilesystemUsage {
    /// The size (blocks times the fragment size).
    pub total: u64,
    /// Free blocks, including those reserved for root.
    pub free: u64,
    /// Free blocks an unprivileged user may use.
    pub available: u64,
}

/// A user's entry in the password database.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UserEntry {
    pub name: String,
    pub gid: u32,
}

/// The system calls collectors need, for what `/proc`, `/sys` and `/etc` do
/// not hold. [`LiveCalls`] asks the kernel and the C library;
/// [`RecordedCalls`] answers from a recording.
pub trait SystemCalls: Send + Sync {
    /// `uname(2)`.
    fn uname(&self) -> Option<Uname>;
    /// `getifaddrs(3)`, in the order the kernel lists them.
    fn interface_addresses(&self) -> Vec<InterfaceAddress>;
    /// `statvfs(3)` on a mount point. `mount_point` is the path on the
    /// machine; `host_path` where it is found through the root.
    fn filesystem_usage(&self, mount_point: &str, host_path: &Path) -> Option<FilesystemUsage>;
    /// `getuid(2)`.
    fn uid(&self) -> u32;
    /// `getpwuid_r(3)`: for users the root's `/etc/passwd` does not list
    /// (LDAP, SSSD).
    fn user(&self, uid: u32) -> Option<UserEntry>;
    /// `getgrgid_r(3)`: for groups the root's `/etc/group` does not list.
    fn group_name(&self, gid: u32) -> Option<String>;
    /// The canonical name of a host as `getaddrinfo(3)` with
    /// `AI_CANONNAME` gives it, for host names `/etc/hosts` does not list.
    fn canonical_name(&self, host: &str) -> Option<String>;
    /// An environment variable of this process.
    fn environment(&self, name: &str) -> Option<String>;
    /// The abbreviation of the local time zone now (`strftime("%Z")`).
    fn timezone(&self) -> Option<String>;
    /// The hypervisor's CPUID signature (leaf 0x40000000), when the CPU says
    /// it runs under one.
    fn hypervisor_signature(&self) -> Option<String>;
    /// `sysconf(_SC_CLK_TCK)`: the unit of process start times in `/proc`.
    fn clock_ticks(&self) -> u64;
}

/// The machine being looked at: its files and its system calls.
#[derive(Clone)]
pub struct System {
    pub root: SystemRoot,
    pub calls: Arc<dyn SystemCalls>,
}

impl std::fmt::Debug for System {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("System").field("root", &self.root).finish()
    }
}

impl System {
    /// The running machine.
    pub fn live() -> System {
        System {
            root: SystemRoot::live(),
            calls: Arc::new(LiveCalls),
        }
    }

    /// A captured machine: files under `directory`, system calls answered
    /// from `directory/calls.json`.
    pub fn fixture(directory: impl Into<PathBuf>) -> Result<System, String> {
        let directory = directory.into();
        let calls_path = directory.join("calls.json");
        let text = std::fs::read_to_string(&calls_path)
            .map_err(|error| format!("{}: {error}", calls_path.display()))?;
        let calls: RecordedCalls = serde_json::from_str(&text)
            .map_err(|error| format!("{}: {error}", calls_path.display()))?;
        Ok(System {
            root: SystemRoot::at(directory),
            calls: Arc::new(calls),
        })
    }

    /// `statvfs(3)` on a mount point of the machine.
    pub fn filesystem_usage(&self, mount_point: &str) -> Option<FilesystemUsage> {
        self.calls
            .filesystem_usage(mount_point, &self.root.path(mount_point))
    }
}

/// System calls answered from a recording: the `calls.json` of a fixture.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct RecordedCalls {
    #[serde(default)]
    pub uname: Option<Uname>,
    #[serde(default)]
    pub interfaces: Vec<InterfaceAddress>,
    /// `statvfs` results by mount point.
    #[serde(default)]
    pub filesystems: BTreeMap<String, FilesystemUsage>,
    #[serde(default)]
    pub uid: u32,
    #[serde(default)]
    pub users: BTreeMap<u32, UserEntry>,
    #[serde(default)]
    pub groups: BTreeMap<u32, String>,
    #[serde(default)]
    pub canonical_names: BTreeMap<String, String>,
    #[serde(default)]
    pub environment: BTreeMap<String, String>,
    #[serde(default)]
    pub timezone: Option<String>,
    #[serde(default)]
    pub hypervisor: Option<String>,
    #[serde(default = "default_clock_ticks")]
    pub clock_ticks: u64,
}

fn default_clock_ticks() -> u64 {
    100
}

impl SystemCalls for RecordedCalls {
    fn uname(&self) -> Option<Uname> {
        self.uname.clone()
    }
    fn interface_addresses(&self) -> Vec<InterfaceAddress> {
        self.interfaces.clone()
    }
    fn filesystem_usage(&self, mount_point: &str, _host_path: &Path) -> Option<FilesystemUsage> {
        self.filesystems.get(mount_point).copied()
    }
    fn uid(&self) -> u32 {
        self.uid
    }
    fn user(&self, uid: u32) -> Option<UserEntry> {
        self.users.get(&uid).cloned()
    }
    fn group_name(&self, gid: u32) -> Option<String> {
        self.groups.get(&gid).cloned()
    }
    fn canonical_name(&self, host: &str) -> Option<String> {
        self.canonical_names.get(host).cloned()
    }
    fn environment(&self, name: &str) -> Option<String> {
        self.environment.get(name).cloned()
    }
    fn timezone(&self) -> Option<String> {
        self.timezone.clone()
    }
    fn hypervisor_signature(&self) -> Option<String> {
        self.hypervisor.clone()
    }
    fn clock_ticks(&self) -> u64 {
        self.clock_ticks
    }
}

/// System calls made for real, wrapped in a recorder: every answer is kept
/// in a [`RecordedCalls`], which `examples/capture.rs` writes out as a
/// fixture's `calls.json`.
#[derive(Default)]
pub struct RecordingCalls {
    recorded: Mutex<RecordedCalls>,
}

impl RecordingCalls {
    /// What was answered so far.
    pub fn recorded(&self) -> RecordedCalls {
        self.recorded
            .lock()
            .map(|recorded| recorded.clone())
            .unwrap_or_default()
    }

    fn record(&self, update: impl FnOnce(&mut RecordedCalls)) {
        if let Ok(mut recorded) = self.recorded.lock() {
            update(&mut recorded);
        }
    }
}

impl SystemCalls for RecordingCalls {
    fn uname(&self) -> Option<Uname> {
        let answer = LiveCalls.uname();
        self.record(|r| r.uname = answer.clone());
        answer
    }
    fn interface_addresses(&self) -> Vec<InterfaceAddress> {
        let answer = LiveCalls.interface_addresses();
        self.record(|r| r.interfaces = answer.clone());
        answer
    }
    fn filesystem_usage(&self, mount_point: &str, host_path: &Path) -> Option<FilesystemUsage> {
        let answer = LiveCalls.filesystem_usage(mount_point, host_path);
        if let Some(usage) = answer {
            self.record(|r| {
                r.filesystems.insert(mount_point.to_string(), usage);
            });
        }
        answer
    }
    fn uid(&self) -> u32 {
        let answer = LiveCalls.uid();
        self.record(|r| r.uid = answer);
        answer
    }
    fn user(&self, uid: u32) -> Option<UserEntry> {
        let answer = LiveCalls.user(uid);
        if let Some(user) = &answer {
            self.record(|r| {
                r.users.insert(uid, user.clone());
            });
        }
        answer
    }
    fn group_name(&self, gid: u32) -> Option<String> {
        let answer = LiveCalls.group_name(gid);
        if let Some(name) = &answer {
            self.record(|r| {
                r.groups.insert(gid, name.clone());
            });
        }
        answer
    }
    fn canonical_name(&self, host: &str) -> Option<String> {
        let answer = LiveCalls.canonical_name(host);
        if let Some(name) = &answer {
            self.record(|r| {
                r.canonical_names.insert(host.to_string(), name.clone());
            });
        }
        answer
    }
    fn environment(&self, name: &str) -> Option<String> {
        let answer = LiveCalls.environment(name);
        if let Some(value) = &answer {
            self.record(|r| {
                r.environment.insert(name.to_string(), value.clone());
            });
        }
        answer
    }
    fn timezone(&self) -> Option<String> {
        let answer = LiveCalls.timezone();
        self.record(|r| r.timezone = answer.clone());
        answer
    }
    fn hypervisor_signature(&self) -> Option<String> {
        let answer = LiveCalls.hypervisor_signature();
        self.record(|r| r.hypervisor = answer.clone());
        answer
    }
    fn clock_ticks(&self) -> u64 {
        let answer = LiveCalls.clock_ticks();
        self.record(|r| r.clock_ticks = answer);
        answer
    }
}

/// System calls answered by the kernel and the C library.
#[derive(Clone, Copy, Debug, Default)]
pub struct LiveCalls;

fn c_chars_to_string(chars: &[libc::c_char]) -> String {
    let bytes: Vec<u8> = chars
        .iter()
        .take_while(|&&c| c != 0)
        .map(|&c| c as u8)
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Reads the address out of a `sockaddr` that `getifaddrs` returned.
///
/// # Safety
/// `address` must be null or point to a socket address of the family its
/// `sa_family` field names, as `getifaddrs` guarantees.
unsafe fn socket_address(address: *const libc::sockaddr) -> Option<SocketAddress> {
    if address.is_null() {
        return None;
    }
    // SAFETY: the caller guarantees the pointer is valid; the family field
    // tells which structure it really is.
    unsafe {
        match i32::from((*address).sa_family) {
            libc::AF_INET => {
                let address = &*(address as *const libc::sockaddr_in);
                Some(SocketAddress::V4(Ipv4Addr::from(u32::from_be(
                    address.sin_addr.s_addr,
                ))))
            }
            libc::AF_INET6 => {
                let address = &*(address as *const libc::sockaddr_in6);
                Some(SocketAddress::V6(Ipv6Addr::from(address.sin6_addr.s6_addr)))
            }
            libc::AF_PACKET => {
                let address = &*(address as *const libc::sockaddr_ll);
                let length = usize::from(address.sll_halen).min(address.sll_addr.len());
                Some(SocketAddress::Link(address.sll_addr[..length].to_vec()))
            }
            _ => None,
        }
    }
}

enum SocketAddress {
    V4(Ipv4Addr),
    V6(Ipv6Addr),
    Link(Vec<u8>),
}

impl SystemCalls for LiveCalls {
    fn uname(&self) -> Option<Uname> {
        // SAFETY: utsname is plain data; uname fills it or fails.
        let mut names: libc::utsname = unsafe { std::mem::zeroed() };
        if unsafe { libc::uname(&mut names) } != 0 {
            return None;
        }
        Some(Uname {
            sysname: c_chars_to_string(&names.sysname),
            nodename: c_chars_to_string(&names.nodename),
            release: c_chars_to_string(&names.release),
            version: c_chars_to_string(&names.version),
            machine: c_chars_to_string(&names.machine),
        })
    }

    fn interface_addresses(&self) -> Vec<InterfaceAddress> {
        let mut list: *mut libc::ifaddrs = std::ptr::null_mut();
        // SAFETY: getifaddrs allocates a list we free below.
        if unsafe { libc::getifaddrs(&mut list) } != 0 {
            return Vec::new();
        }
        let mut found = Vec::new();
        let mut entry = list;
        while !entry.is_null() {
            // SAFETY: entries of the list stay valid until freeifaddrs.
            let current = unsafe { &*entry };
            entry = current.ifa_next;
            if current.ifa_name.is_null() {
                continue;
            }
            // SAFETY: ifa_name is a NUL-terminated string.
            let name = unsafe { CStr::from_ptr(current.ifa_name) }
                .to_string_lossy()
                .into_owned();
            // SAFETY: getifaddrs fills addresses of the family they name.
            let address = unsafe { socket_address(current.ifa_addr) };
            let netmask = unsafe { socket_address(current.ifa_netmask) };
            let address = match (address, netmask) {
                (Some(SocketAddress::Link(bytes)), _) => Address::Link {
                    mac: (!bytes.is_empty()).then(|| {
                        bytes
                            .iter()
                            .map(|byte| format!("{byte:02x}"))
                            .collect::<Vec<_>>()
                            .join(":")
                    }),
                },
                (Some(SocketAddress::V4(address)), netmask) => Address::Inet {
                    address,
                    netmask: match netmask {
                        Some(SocketAddress::V4(mask)) => Some(mask),
                        _ => None,
                    },
                },
                (Some(SocketAddress::V6(address)), netmask) => Address::Inet6 {
                    address,
                    netmask: match netmask {
                        Some(SocketAddress::V6(mask)) => Some(mask),
                        _ => None,
                    },
                },
                (None, _) => continue,
            };
            found.push(InterfaceAddress { name, address });
        }
        // SAFETY: list came from getifaddrs and is freed once.
        unsafe { libc::freeifaddrs(list) };
        found
    }

    // The statvfs fields are 32 bits wide on 32-bit targets; the conversions
    // are no-ops only on 64-bit ones.
    #[allow(clippy::useless_conversion)]
    fn filesystem_usage(&self, _mount_point: &str, host_path: &Path) -> Option<FilesystemUsage> {
        use std::os::unix::ffi::OsStrExt;
        let path = CString::new(host_path.as_os_str().as_bytes()).ok()?;
        // SAFETY: statvfs is plain data filled by the call.
        let mut stats: libc::statvfs = unsafe { std::mem::zeroed() };
        if unsafe { libc::statvfs(path.as_ptr(), &mut stats) } != 0 {
            return None;
        }
        let fragment = u64::from(stats.f_frsize);
        Some(FilesystemUsage {
            total: u64::from(stats.f_blocks).saturating_mul(fragment),
            free: u64::from(stats.f_bfree).saturating_mul(fragment),
            available: u64::from(stats.f_bavail).saturating_mul(fragment),
        })
    }

    fn uid(&self) -> u32 {
        // SAFETY: getuid cannot fail.
        unsafe { libc::getuid() }
    }

    fn user(&self, uid: u32) -> Option<UserEntry> {
        let mut buffer = vec![0 as libc::c_char; 16 * 1024];
        // SAFETY: passwd is plain data; getpwuid_r fills it with pointers
        // into `buffer`, which outlives their use here.
        let mut entry: libc::passwd = unsafe { std::mem::zeroed() };
        let mut result: *mut libc::passwd = std::ptr::null_mut();
        let status = unsafe {
            libc::getpwuid_r(
                uid,
                &mut entry,
                buffer.as_mut_ptr(),
                buffer.len(),
                &mut result,
            )
        };
        if status != 0 || result.is_null() || entry.pw_name.is_null() {
            return None;
        }
        // SAFETY: pw_name points into `buffer`, NUL-terminated.
        let name = unsafe { CStr::from_ptr(entry.pw_name) }
            .to_string_lossy()
            .into_owned();
        Some(UserEntry {
            name,
            gid: entry.pw_gid,
        })
    }

    fn group_name(&self, gid: u32) -> Option<String> {
        let mut buffer = vec![0 as libc::c_char; 64 * 1024];
        // SAFETY: as for getpwuid_r above.
        let mut entry: libc::group = unsafe { std::mem::zeroed() };
        let mut result: *mut libc::group = std::ptr::null_mut();
        let status = unsafe {
            libc::getgrgid_r(
                gid,
                &mut entry,
                buffer.as_mut_ptr(),
                buffer.len(),
                &mut result,
            )
        };
        if status != 0 || result.is_null() || entry.gr_name.is_null() {
            return None;
        }
        // SAFETY: gr_name points into `buffer`, NUL-terminated.
        Some(
            unsafe { CStr::from_ptr(entry.gr_name) }
                .to_string_lossy()
                .into_owned(),
        )
    }

    fn canonical_name(&self, host: &str) -> Option<String> {
        let node = CString::new(host).ok()?;
        // SAFETY: hints is plain data; getaddrinfo allocates a list freed
        // below.
        let mut hints: libc::addrinfo = unsafe { std::mem::zeroed() };
        hints.ai_family = libc::AF_UNSPEC;
        hints.ai_socktype = libc::SOCK_STREAM;
        hints.ai_flags = libc::AI_CANONNAME;
        let mut list: *mut libc::addrinfo = std::ptr::null_mut();
        if unsafe { libc::getaddrinfo(node.as_ptr(), std::ptr::null(), &hints, &mut list) } != 0 {
            return None;
        }
        // SAFETY: the first entry carries the canonical name when asked.
        let name = unsafe {
            let first = &*list;
            (!first.ai_canonname.is_null()).then(|| {
                CStr::from_ptr(first.ai_canonname)
                    .to_string_lossy()
                    .into_owned()
            })
        };
        unsafe { libc::freeaddrinfo(list) };
        name
    }

    fn environment(&self, name: &str) -> Option<String> {
        std::env::var(name).ok()
    }

    fn timezone(&self) -> Option<String> {
        // SAFETY: time and localtime_r are given valid pointers; the
        // zone name points into static storage of the C library.
        unsafe {
            let now = libc::time(std::ptr::null_mut());
            let mut local: libc::tm = std::mem::zeroed();
            if libc::localtime_r(&now, &mut local).is_null() || local.tm_zone.is_null() {
                return None;
            }
            Some(CStr::from_ptr(local.tm_zone).to_string_lossy().into_owned())
        }
    }

    fn hypervisor_signature(&self) -> Option<String> {
        hypervisor_signature()
    }

    fn clock_ticks(&self) -> u64 {
        // SAFETY: sysconf has no preconditions.
        let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
        u64::try_from(ticks).ok().filter(|&t| t > 0).unwrap_or(100)
    }
}

#[cfg(target_arch = "x86_64")]
fn hypervisor_signature() -> Option<String> {
    use std::arch::x86_64::__cpuid;
    // Bit 31 of ECX in leaf 1 is set by every hypervisor; only then does
    // leaf 0x40000000 hold a vendor signature.
    let features = __cpuid(1);
    if features.ecx & (1 << 31) == 0 {
        return None;
    }
    let leaf = __cpuid(0x4000_0000);
    let bytes: Vec<u8> = [leaf.ebx, leaf.ecx, leaf.edx]
        .iter()
        .flat_map(|word| word.to_le_bytes())
        .filter(|&byte| byte != 0)
        .collect();
    let signature = String::from_utf8_lossy(&bytes).into_owned();
    (!signature.is_empty()).then_some(signature)
}

#[cfg(not(target_arch = "x86_64"))]
fn hypervisor_signature() -> Option<String> {
    None
}

//! A private, real BIND 9 `named` for integration tests.
//!
//! `Named::start(&["mrtest.example"])` writes a configuration, keys and zone
//! files into a fresh temporary directory, starts `named` on free loopback
//! ports and returns once every zone answers. Dropping the value stops the
//! server, so a panicking test leaks no process. Use it from a test file with
//! `mod named;`.
//!
//! Each zone is a primary zone with an SOA (serial 1) and an NS record, and
//! accepts dynamic updates and zone transfers signed with the TSIG key
//! `mrtest-key` (see `keyfile`, `key_name`, `key_secret`). The control channel
//! uses its own key, `rndc-key`, through `rndc_conf`. `allow-new-zones` is on,
//! so `rndc addzone` works.
//!
//! Several fixtures may run at once, in threads of one test binary or in
//! different binaries: each has its own directory, and ports are reserved
//! machine-wide (see `reserve_port`).
//!
//! Notes on running `named` here:
//! - It runs as the invoking user (root in our containers) without `-u`:
//!   everything it touches is inside the temporary directory.
//! - It runs with `-g`, not `-f`: with `-f` it logs to syslog, which a
//!   container usually lacks, so configuration errors would vanish. `-g`
//!   logs everything to stderr, which goes to `log` for the panic messages.
//! - Debian's AppArmor profile for `/usr/sbin/named` only lets it use
//!   /etc/bind, /var/cache/bind, /var/lib/bind and the like, not /tmp. Where
//!   that profile is enforced, start-up fails, and the panic message says so;
//!   `aa-complain /usr/sbin/named` lifts it. Containers usually have no
//!   AppArmor at all.
//! - Dynamic updates go to a journal (`<zone file>.jnl`), not the zone file;
//!   `rndc sync -clean` writes them back if a test wants to read the file.

// Each test binary compiles its own copy of this module and uses only part
// of it; the unused rest must not fail `clippy -D warnings`.
#![allow(dead_code)]

use std::fs::{self, File};
use std::hash::{BuildHasher, RandomState};
use std::io::{ErrorKind, Write};
use std::net::{TcpListener, UdpSocket};
use std::os::linux::net::SocketAddrExt;
use std::os::unix::net::{SocketAddr, UnixListener};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{OnceLock, mpsc};
use std::thread::sleep;
use std::time::{Duration, Instant};

use tempfile::TempDir;

const INSTALL_HINT: &str =
    "install bind9 and bind9-dnsutils (apt-get install -y bind9 bind9-dnsutils)";

/// How long `named` may take to answer for every zone. It usually needs about
/// a tenth of a second; the margin is for loaded CI machines.
const START_DEADLINE: Duration = Duration::from_secs(15);

/// How long `named` may take to exit after SIGTERM before it gets SIGKILL.
const STOP_GRACE: Duration = Duration::from_secs(5);

/// Ports are picked below Linux's default ephemeral range (32768-60999) so
/// that the client sockets of `dig` and `nsupdate` in concurrent tests can
/// never be sitting on a port we are about to give to `named`.
const PORT_RANGE: std::ops::Range<u16> = 20000..32000;

/// How often to start over with other ports when `named` finds one taken
/// after all, which only happens if something outside the fixtures grabbed
/// it between our check and `named` binding it.
const ATTEMPTS: u32 = 5;

/// A running `named` serving the zones given to `Named::start`.
///
/// Do not keep one in a `static`: statics are never dropped, so `named`
/// would run until the test process exits.
pub(crate) struct Named {
    /// The loopback address the DNS port is on: 127.0.0.1 unless
    /// `start_at` chose another.
    pub(crate) address: String,
    /// The DNS port on `address`, UDP and TCP.
    pub(crate) port: u16,
    /// The control-channel port on 127.0.0.1.
    pub(crate) rndc_port: u16,
    /// The working directory, holding everything below.
    pub(crate) dir: TempDir,
    /// The generated named.conf.
    pub(crate) conf: PathBuf,
    /// The directory of the zone files, `<zone>.zone` each.
    pub(crate) zone_dir: PathBuf,
    /// The TSIG key for updates and transfers, in BIND's key-file format (as
    /// written by `tsig-keygen`), fit for `nsupdate -k`.
    pub(crate) keyfile: PathBuf,
    /// The name of that key: `mrtest-key`.
    pub(crate) key_name: String,
    /// Its secret in base64, for `dig -y hmac-sha256:NAME:SECRET` and the like.
    pub(crate) key_secret: String,
    /// An rndc configuration with its own key, usable as
    /// `rndc -c RNDC_CONF -s 127.0.0.1 -p RNDC_PORT ...` (it also names that
    /// server and port as defaults).
    pub(crate) rndc_conf: PathBuf,
    /// Everything `named` logs, for diagnosis.
    pub(crate) log: PathBuf,
    child: Child,
    /// Held for the server's lifetime so that no other fixture takes its ports.
    _reservations: [UnixListener; 2],
}

/// Why a start-up attempt failed in a way that other ports may cure.
struct PortTaken(String);

impl Named {
    /// Starts `named` with one primary zone per name, such as
    /// `mrtest.example` or `2.168.192.in-addr.arpa`, and waits until each
    /// zone answers. Panics with the server's log if it does not come up.
    pub(crate) fn start(zones: &[&str]) -> Named {
        Named::start_on(zones, None)
    }

    /// Starts `named` answering DNS on a fixed loopback address and port,
    /// for code that cannot be told a port (the seeds' `nsupdate`
    /// provider uses port 53). Panics, without retrying, when the port is
    /// taken there.
    pub(crate) fn start_at(address: &str, port: u16, zones: &[&str]) -> Named {
        Named::start_on(zones, Some((address, port)))
    }

    fn start_on(zones: &[&str], fixed: Option<(&str, u16)>) -> Named {
        for zone in zones {
            let name = zone.trim_end_matches('.');
            // The names go into named.conf strings and file names unescaped.
            assert!(
                !name.is_empty()
                    && name
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.'),
                "named fixture: unusable zone name {zone:?}"
            );
        }
        let zones: Vec<&str> = zones.iter().map(|z| z.trim_end_matches('.')).collect();
        let mut attempt = 1;
        loop {
            let mut named = Named::spawn(&zones, fixed);
            match named.wait_until_ready(&zones) {
                Ok(()) => return named,
                Err(PortTaken(message)) if attempt < ATTEMPTS && fixed.is_none() => {
                    eprintln!("named fixture: {message}; retrying with other ports");
                    attempt += 1;
                }
                Err(PortTaken(message)) => {
                    panic!(
                        "named fixture: {message}, {ATTEMPTS} times; last log:\n{}",
                        named.log_for_panic()
                    )
                }
            }
        }
    }

    /// Writes the configuration into a new directory and starts `named` on
    /// newly reserved ports, without waiting for it.
    fn spawn(zones: &[&str], fixed: Option<(&str, u16)>) -> Named {
        let tools = tools();
        let dir = tempfile::Builder::new()
            .prefix("mrtest-named-")
            .tempdir()
            .expect("named fixture: create the temporary directory");
        let root = dir.path().to_path_buf();
        // named.conf quotes paths and cannot escape a quote in them.
        assert!(
            !root.to_string_lossy().contains('"'),
            "named fixture: temporary directory {} has a quote in its path",
            root.display()
        );
        let (address, port, dns_reservation) = match fixed {
            Some((address, port)) => {
                let reservation = reserve_fixed_port(address, port);
                (address.to_string(), port, reservation)
            }
            None => {
                let (port, reservation) = reserve_port(true);
                ("127.0.0.1".to_string(), port, reservation)
            }
        };
        let (rndc_port, rndc_reservation) = reserve_port(false);

        let key_name = "mrtest-key".to_string();
        let (key_text, key_secret) = tsig_key(&tools.tsig_keygen, &key_name);
        let keyfile = root.join("mrtest-key.key");
        write(&keyfile, &key_text);
        let (rndc_key_text, _) = tsig_key(&tools.tsig_keygen, "rndc-key");
        let rndc_keyfile = root.join("rndc.key");
        write(&rndc_keyfile, &rndc_key_text);
        // The key goes into rndc.conf itself, so the file stands on its own.
        let rndc_conf = root.join("rndc.conf");
        write(
            &rndc_conf,
            &format!(
                "{rndc_key_text}\noptions {{\n\tdefault-key \"rndc-key\";\n\tdefault-server 127.0.0.1;\n\tdefault-port {rndc_port};\n}};\n"
            ),
        );

        let zone_dir = root.join("zones");
        fs::create_dir(&zone_dir).expect("named fixture: create the zone directory");
        let mut zone_statements = String::new();
        for zone in zones {
            let file = zone_dir.join(format!("{zone}.zone"));
            write(&file, &zone_file(zone));
            zone_statements.push_str(&format!(
                "zone \"{zone}\" {{\n\ttype primary;\n\tfile \"{}\";\n\tallow-update {{ key \"{key_name}\"; }};\n\tallow-transfer {{ key \"{key_name}\"; }};\n}};\n",
                file.display()
            ));
        }
        let conf = root.join("named.conf");
        write(
            &conf,
            &named_conf(
                &root,
                (&address, port),
                rndc_port,
                &keyfile,
                &rndc_keyfile,
                &zone_statements,
            ),
        );

        let log = root.join("named.log");
        let log_file = File::create(&log).expect("named fixture: create named.log");
        let mut command = Command::new(&tools.named);
        command
            .arg("-g")
            .arg("-c")
            .arg(&conf)
            .current_dir(&root)
            .stdin(Stdio::null())
            .stdout(
                log_file
                    .try_clone()
                    .expect("named fixture: clone the log handle"),
            )
            .stderr(log_file);
        // If the test process dies without unwinding (SIGKILL from a test
        // runner's timeout, an abort), Drop never runs; the kernel then kills
        // named for us.
        // SAFETY: prctl is async-signal-safe and touches no Rust state.
        unsafe {
            command.pre_exec(|| {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        // The probe sockets in the reservations are closed by now; only the
        // lock sockets remain, which do not occupy the ports themselves.
        let child = spawn_from_lasting_thread(command).unwrap_or_else(|e| {
            panic!(
                "named fixture: run {}: {e}; {INSTALL_HINT}",
                tools.named.display()
            )
        });
        Named {
            address,
            port,
            rndc_port,
            dir,
            conf,
            zone_dir,
            keyfile,
            key_name,
            key_secret,
            rndc_conf,
            log,
            child,
            _reservations: [dns_reservation, rndc_reservation],
        }
    }

    /// Polls until named has finished starting and every zone answers its
    /// SOA, or fails.
    fn wait_until_ready(&mut self, zones: &[&str]) -> Result<(), PortTaken> {
        let deadline = Instant::now() + START_DEADLINE;
        loop {
            // The exit status comes first so that the log read after it is
            // complete when named has exited.
            let exited = self.child.try_wait().ok().flatten();
            let log = self.log_text();
            // named exits when it can listen for DNS on neither UDP nor TCP,
            // but when only one of them, or the control channel, fails it
            // just logs "address in use" and carries on half deaf.
            if log.contains("address in use") {
                let which = if log.contains("couldn't add command channel") {
                    format!("control port {}", self.rndc_port)
                } else {
                    format!("DNS port {}", self.port)
                };
                return Err(PortTaken(format!("{which} was taken")));
            }
            if let Some(status) = exited {
                panic!(
                    "named fixture: named exited ({status}) while starting; log:\n{}{}",
                    self.log_for_panic(),
                    apparmor_hint()
                );
            }
            // "running" is logged once the control channel is set up, which
            // answering queries alone would not prove.
            let running = log.lines().any(|line| line.ends_with(" running"));
            if running && zones.iter().all(|zone| self.answers_soa(zone)) {
                return Ok(());
            }
            if Instant::now() > deadline {
                panic!(
                    "named fixture: named did not answer for {zones:?} on {}#{} within {START_DEADLINE:?}; log:\n{}{}",
                    self.address,
                    self.port,
                    self.log_for_panic(),
                    apparmor_hint()
                );
            }
            sleep(Duration::from_millis(20));
        }
    }

    fn answers_soa(&self, zone: &str) -> bool {
        let output = Command::new(&tools().dig)
            .args(["+short", "+norecurse", "+time=1", "+tries=1"])
            .arg(format!("-p{}", self.port))
            .arg(format!("@{}", self.address))
            .args([zone, "SOA"])
            .output()
            .expect("named fixture: run dig");
        output.status.success() && !String::from_utf8_lossy(&output.stdout).trim().is_empty()
    }

    /// The process id of named, for checks that it is gone.
    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
    }

    /// What named has logged so far.
    pub(crate) fn log_text(&self) -> String {
        fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// The log from the point where named reads its configuration: what
    /// comes before is a banner of version numbers that only hides the
    /// error in a panic message.
    fn log_for_panic(&self) -> String {
        let log = self.log_text();
        match log.find("loading configuration from") {
            Some(at) => {
                let line_start = log[..at].rfind('\n').map_or(0, |n| n + 1);
                log[line_start..].to_string()
            }
            None => log,
        }
    }

    /// The zone file of `zone`. Updates live in its journal until
    /// `rndc sync` writes them back.
    pub(crate) fn zone_file(&self, zone: &str) -> PathBuf {
        self.zone_dir
            .join(format!("{}.zone", zone.trim_end_matches('.')))
    }

    /// The rdata of `dig +short +norecurse NAME TYPE` against this server,
    /// one line each, sorted; empty when there is no such record (or the
    /// server refuses the query, as for a zone it does not serve).
    pub(crate) fn dig(&self, name: &str, rtype: &str) -> Vec<String> {
        let mut lines: Vec<String> = self
            .run_dig(&["+short"], name, rtype)
            .lines()
            .filter(|line| !line.is_empty() && !line.starts_with(';'))
            .map(str::to_string)
            .collect();
        lines.sort();
        lines
    }

    /// The TTL of the first answer record of type `rtype` for `name`, from
    /// `dig +noall +answer`; `None` when there is no such record.
    pub(crate) fn dig_ttl(&self, name: &str, rtype: &str) -> Option<u32> {
        self.run_dig(&["+noall", "+answer"], name, rtype)
            .lines()
            .filter(|line| !line.starts_with(';'))
            .find_map(|line| {
                // name TTL class type rdata...
                let fields: Vec<&str> = line.split_whitespace().collect();
                match fields.as_slice() {
                    [_, ttl, _, t, ..] if t.eq_ignore_ascii_case(rtype) => ttl.parse().ok(),
                    _ => None,
                }
            })
    }

    /// Runs dig against this server; panics when no answer comes, so that a
    /// dead server never reads as a missing record.
    fn run_dig(&self, flags: &[&str], name: &str, rtype: &str) -> String {
        let output = Command::new(&tools().dig)
            .args(flags)
            .args(["+norecurse", "+time=2", "+tries=2"])
            .arg(format!("-p{}", self.port))
            .arg(format!("@{}", self.address))
            .args([name, rtype])
            .output()
            .expect("named fixture: run dig");
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        assert!(
            output.status.success(),
            "named fixture: dig {name} {rtype} failed ({}):\n{stdout}{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
        stdout
    }

    /// Runs `rndc` with the fixture's configuration, server and port.
    pub(crate) fn rndc(&self, args: &[&str]) -> Output {
        Command::new(&tools().rndc)
            .arg("-c")
            .arg(&self.rndc_conf)
            .args(["-s", "127.0.0.1", "-p"])
            .arg(self.rndc_port.to_string())
            .args(args)
            .output()
            .expect("named fixture: run rndc")
    }

    /// Runs `nsupdate -k KEYFILE` with `script` on stdin, after a `server`
    /// line for this fixture, and a final `send` if it lacks one; panics if
    /// any update fails.
    pub(crate) fn nsupdate(&self, script: &str) {
        let mut child = Command::new(&tools().nsupdate)
            .arg("-k")
            .arg(&self.keyfile)
            // A server that stopped answering should fail the test in
            // seconds, not after nsupdate's default five minutes.
            .args(["-t", "10"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("named fixture: run nsupdate");
        let script = script.trim_end();
        // nsupdate drops pending updates at the end of its input, so a
        // script that does not end in `send` gets one.
        let send = match script.lines().next_back().map(str::trim) {
            Some("send") => "",
            _ => "send\n",
        };
        let input = format!("server {} {}\n{script}\n{send}", self.address, self.port);
        child
            .stdin
            .take()
            .expect("nsupdate stdin")
            .write_all(input.as_bytes())
            .expect("named fixture: write to nsupdate");
        let output = child
            .wait_with_output()
            .expect("named fixture: wait for nsupdate");
        assert!(
            output.status.success(),
            "named fixture: nsupdate failed ({}):\n{input}---\n{}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

impl Drop for Named {
    /// Asks named to stop, as rndc stop would, and kills it if it has not
    /// exited after `STOP_GRACE`. Waiting also reaps it, so no zombie is left.
    fn drop(&mut self) {
        if let Ok(Some(_)) = self.child.try_wait() {
            return;
        }
        // The pid is still ours: the child has not been reaped.
        let pid = self.child.id() as libc::pid_t;
        // SAFETY: kill only sends a signal.
        unsafe {
            libc::kill(pid, libc::SIGTERM);
        }
        let deadline = Instant::now() + STOP_GRACE;
        while Instant::now() < deadline {
            match self.child.try_wait() {
                Ok(Some(_)) | Err(_) => return,
                Ok(None) => sleep(Duration::from_millis(10)),
            }
        }
        eprintln!("named fixture: named ignored SIGTERM for {STOP_GRACE:?}; killing it");
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Spawns `command` from a thread that lives as long as the process.
///
/// PR_SET_PDEATHSIG fires when the *thread* that forked the child exits, not
/// the process. Spawning from the test's own thread would kill named as soon
/// as that thread ends, which breaks fixtures started in helper threads and
/// handed back; this thread ends only with the process.
fn spawn_from_lasting_thread(command: Command) -> std::io::Result<Child> {
    type Request = (Command, mpsc::Sender<std::io::Result<Child>>);
    static SPAWNER: OnceLock<mpsc::Sender<Request>> = OnceLock::new();
    let spawner = SPAWNER.get_or_init(|| {
        let (requests, incoming) = mpsc::channel::<Request>();
        std::thread::Builder::new()
            .name("mrtest-named-spawner".into())
            .spawn(move || {
                for (mut command, reply) in incoming {
                    let _ = reply.send(command.spawn());
                }
            })
            .expect("named fixture: start the spawner thread");
        requests
    });
    let (reply, result) = mpsc::channel();
    spawner
        .send((command, reply))
        .expect("named fixture: the spawner thread is gone");
    result
        .recv()
        .expect("named fixture: the spawner thread is gone")
}

/// Absolute paths of the BIND programs, found once.
struct Tools {
    named: PathBuf,
    dig: PathBuf,
    tsig_keygen: PathBuf,
    rndc: PathBuf,
    nsupdate: PathBuf,
}

fn tools() -> &'static Tools {
    static TOOLS: OnceLock<Tools> = OnceLock::new();
    TOOLS.get_or_init(|| Tools {
        named: find_program("named"),
        dig: find_program("dig"),
        tsig_keygen: find_program("tsig-keygen"),
        rndc: find_program("rndc"),
        nsupdate: find_program("nsupdate"),
    })
}

/// Looks for a program on PATH, then in the sbin directories, which an
/// unprivileged PATH often lacks although named and rndc live there.
fn find_program(name: &str) -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/sbin", "/sbin", "/usr/bin"].map(PathBuf::from))
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
        .unwrap_or_else(|| panic!("named fixture: `{name}` not found; {INSTALL_HINT}"))
}

/// Generates a hmac-sha256 key with tsig-keygen; returns the key-file text
/// and the base64 secret in it.
fn tsig_key(tsig_keygen: &Path, name: &str) -> (String, String) {
    let output = Command::new(tsig_keygen)
        .args(["-a", "hmac-sha256", name])
        .output()
        .unwrap_or_else(|e| panic!("named fixture: run tsig-keygen: {e}; {INSTALL_HINT}"));
    assert!(
        output.status.success(),
        "named fixture: tsig-keygen failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8(output.stdout).expect("tsig-keygen output is text");
    let secret = text
        .lines()
        .find_map(|line| line.trim().strip_prefix("secret \""))
        .and_then(|rest| rest.split('"').next())
        .unwrap_or_else(|| panic!("named fixture: no secret in tsig-keygen output:\n{text}"))
        .to_string();
    (text, secret)
}

fn named_conf(
    root: &Path,
    (address, port): (&str, u16),
    rndc_port: u16,
    keyfile: &Path,
    rndc_keyfile: &Path,
    zones: &str,
) -> String {
    let root = root.display();
    // reuseport no: with SO_REUSEPORT two servers as the same user could
    // both bind one port and split the queries between them; without it a
    // clash shows as "address in use" in the log, and `start` retries on
    // other ports.
    // notify no: the NS records point at 127.0.0.1 port 53, which belongs
    // to whatever else runs on the machine, not to this server.
    // session-keyfile: the default lives in /run/named, shared by every
    // server on the machine.
    format!(
        "// Written by the named test fixture.
include \"{keyfile}\";
include \"{rndc_keyfile}\";

options {{
\tdirectory \"{root}\";
\tpid-file \"{root}/named.pid\";
\tsession-keyfile \"{root}/session.key\";
\tlisten-on port {port} {{ {address}; }};
\tlisten-on-v6 {{ none; }};
\treuseport no;
\trecursion no;
\tallow-new-zones yes;
\tdnssec-validation no;
\tnotify no;
}};

controls {{
\tinet 127.0.0.1 port {rndc_port} allow {{ 127.0.0.1; }} keys {{ \"rndc-key\"; }};
}};

{zones}",
        keyfile = keyfile.display(),
        rndc_keyfile = rndc_keyfile.display(),
    )
}

/// A zone with SOA serial 1 and one NS. Forward zones get `ns.<zone>` with
/// an address, as named refuses an in-zone NS without one. Reverse zones
/// name `localhost.` instead, which needs no address in the zone, so that
/// their contents stay PTR records only.
fn zone_file(zone: &str) -> String {
    let ns = if zone.ends_with(".arpa") {
        "localhost.".to_string()
    } else {
        format!("ns.{zone}.")
    };
    let mut text = format!(
        "$TTL 3600\n@\tIN\tSOA\t{ns} hostmaster.{zone}. ( 1 3600 600 86400 300 )\n@\tIN\tNS\t{ns}\n"
    );
    if !zone.ends_with(".arpa") {
        text.push_str("ns\tIN\tA\t127.0.0.1\n");
    }
    text
}

fn write(path: &Path, text: &str) {
    fs::write(path, text)
        .unwrap_or_else(|e| panic!("named fixture: write {}: {e}", path.display()));
}

/// Picks a port in `PORT_RANGE` that no other fixture holds and that is free
/// now (for TCP, and for UDP too when `udp`), and reserves it for the
/// caller's lifetime.
///
/// The reservation is a listening Unix socket with an abstract name derived
/// from the port: binding it fails while any process in this network
/// namespace holds it, and the kernel releases it when the holder closes it
/// or dies, so crashed tests leave no stale locks and no files.
fn reserve_port(udp: bool) -> (u16, UnixListener) {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let span = u64::from(PORT_RANGE.end - PORT_RANGE.start);
    // RandomState is seeded randomly per process, so concurrent test
    // binaries start their search at different places.
    let start = RandomState::new().hash_one(COUNTER.fetch_add(1, Ordering::Relaxed)) % span;
    for offset in 0..span {
        let port = PORT_RANGE.start + ((start + offset) % span) as u16;
        let name = format!("marionette-mrtest-named-port-{port}");
        let address =
            SocketAddr::from_abstract_name(name.as_bytes()).expect("abstract socket name");
        let lock = match UnixListener::bind_addr(&address) {
            Ok(lock) => lock,
            Err(e) if e.kind() == ErrorKind::AddrInUse => continue,
            Err(e) => panic!("named fixture: reserve port {port}: {e}"),
        };
        // The probes close again at once; named binds the port itself.
        let free = TcpListener::bind(("127.0.0.1", port)).is_ok()
            && (!udp || UdpSocket::bind(("127.0.0.1", port)).is_ok());
        if free {
            return (port, lock);
        }
    }
    panic!("named fixture: no free port in {PORT_RANGE:?}");
}

/// Reserves a fixed port on a loopback address against other fixtures,
/// and checks that nothing else holds it.
fn reserve_fixed_port(address: &str, port: u16) -> UnixListener {
    let name = format!("marionette-mrtest-named-{address}-{port}");
    let lock = SocketAddr::from_abstract_name(name.as_bytes())
        .and_then(|at| UnixListener::bind_addr(&at))
        .unwrap_or_else(|e| panic!("named fixture: another fixture holds {address}#{port}: {e}"));
    let free =
        TcpListener::bind((address, port)).is_ok() && UdpSocket::bind((address, port)).is_ok();
    assert!(
        free,
        "named fixture: {address}#{port} is taken by another process, or binding it needs root"
    );
    lock
}

/// Explains a start-up failure that AppArmor may have caused.
fn apparmor_hint() -> String {
    let profiles = fs::read_to_string("/sys/kernel/security/apparmor/profiles").unwrap_or_default();
    if profiles.lines().any(|line| {
        (line.starts_with("named ") || line.starts_with("/usr/sbin/named "))
            && line.ends_with("(enforce)")
    }) {
        "\nAppArmor enforces a profile for named, which keeps it out of the temporary \
         directory; run `aa-complain /usr/sbin/named` to relax it"
            .to_string()
    } else {
        String::new()
    }
}

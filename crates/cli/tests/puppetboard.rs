//! Puppetboard (PyPI `puppetboard`, the version pinned below) against
//! `marionette storage serve`, as a site runs it: the storage filled
//! through PuppetDB's commands with three nodes (facts, catalogs, reports
//! with events, one run failed and one changed), Puppetboard on its own
//! port with a certificate from the storage's CA, and every page loaded
//! in headless Chromium, which runs the pages' scripts (most tables are
//! filled by requests of their own). Each page must show something only
//! our data can put there, Puppetboard must answer no request with an
//! error, and a screenshot of each page is kept under
//! `target/puppetboard-screenshots/`.
//!
//! Needs Debian's `chromium`, `python3-venv` and `curl`; Puppetboard is
//! installed once with pip into `target/puppetboard-venv`, with the
//! versions of `tests/data/puppetboard-requirements.txt`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};

/// The Puppetboard checked.
const PUPPETBOARD: &str = "7.0.4";

/// A process of the test's, killed when dropped (also when the test
/// fails).
struct Process {
    child: Child,
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The cargo target directory, where the venv and screenshots are kept.
fn target_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("the target directory")
        .to_path_buf()
}

fn found(tool: &str) -> Option<PathBuf> {
    let output = Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .output()
        .ok()?;
    let path = String::from_utf8_lossy(&output.stdout).trim().to_string();
    (output.status.success() && !path.is_empty()).then(|| PathBuf::from(path))
}

fn require(tool: &str, install: &str) -> PathBuf {
    found(tool).unwrap_or_else(|| panic!("this test needs {tool}: {install}"))
}

/// A venv with the pinned Puppetboard and the dependencies it was checked
/// with (`tests/data/puppetboard-requirements.txt`), made once: made
/// again when that list changes.
fn puppetboard_venv() -> PathBuf {
    let venv = target_dir().join("puppetboard-venv");
    let requirements =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/puppetboard-requirements.txt");
    let wanted = std::fs::read_to_string(&requirements).expect("the requirements");
    assert!(
        wanted.contains(&format!("puppetboard=={PUPPETBOARD}\n")),
        "{} does not pin puppetboard=={PUPPETBOARD}",
        requirements.display()
    );
    // The list the venv was made from, kept in it once pip succeeded.
    let made_from = venv.join("mrtest-requirements.txt");
    if std::fs::read_to_string(&made_from).is_ok_and(|made| made == wanted)
        && venv.join("bin/flask").is_file()
    {
        return venv;
    }
    let system = Command::new("/usr/bin/python3")
        .args(["-c", "import ensurepip, venv"])
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        system,
        "this test needs Debian's Python with its venv module: apt-get install -y python3-venv"
    );
    eprintln!(
        "Installing Puppetboard {PUPPETBOARD} into {} (once)",
        venv.display()
    );
    let made = Command::new("/usr/bin/python3")
        .args(["-m", "venv", "--clear"])
        .arg(&venv)
        .status()
        .expect("python3 runs");
    assert!(
        made.success(),
        "could not make the venv: /usr/bin/python3 -m venv --clear {} (apt-get install -y python3-venv)",
        venv.display()
    );
    let status = Command::new(venv.join("bin/pip"))
        .args(["install", "--disable-pip-version-check", "--quiet", "-r"])
        .arg(&requirements)
        .status()
        .expect("pip runs");
    assert!(
        status.success() && venv.join("bin/flask").is_file(),
        "could not install Puppetboard from PyPI: {}/bin/pip install -r {}",
        venv.display(),
        requirements.display()
    );
    std::fs::write(&made_from, &wanted).unwrap();
    venv
}

/// A time `ago` seconds before now, as PuppetDB writes times.
fn timestamp(ago: u64) -> String {
    let seconds = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("after 1970")
        .as_secs()
        - ago;
    // Howard Hinnant's days-to-civil.
    let days = (seconds / 86_400) as i64;
    let rest = seconds % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.000Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

/// What a Puppet 7 agent's run sends for a node: its facts, the catalog
/// compiled for it, and a report (with events on the resources that
/// changed or failed, the logs and metrics Puppet writes).
struct Node {
    certname: &'static str,
    ip: &'static str,
    kernelrelease: &'static str,
    family: &'static str,
    os: &'static str,
    release: &'static str,
    description: &'static str,
    /// The resources of the catalog besides the stage and classes:
    /// type, title, parameters.
    resources: Vec<(&'static str, &'static str, Value)>,
    /// The report's status and its resources' events: type, title,
    /// property, old value, new value, status, message.
    status: &'static str,
    events: Vec<(
        &'static str,
        &'static str,
        &'static str,
        &'static str,
        &'static str,
        &'static str,
        &'static str,
    )>,
    /// How long ago the run was, in seconds.
    ago: u64,
}

fn commands(node: &Node) -> Vec<(&'static str, u32, Value)> {
    let certname = node.certname;
    let (hostname, domain) = certname.split_once('.').unwrap();
    let facts = json!({
        "certname": certname,
        "environment": "production",
        "producer_timestamp": timestamp(node.ago + 60),
        "producer": "mrtest-server.example",
        "values": {
            "kernel": "Linux",
            "kernelrelease": node.kernelrelease,
            "puppetversion": "7.23.0",
            "processorcount": 2,
            "is_virtual": true,
            "fqdn": certname,
            "os": {
                "name": node.os,
                "family": node.family,
                "architecture": "amd64",
                "release": {"full": node.release, "major": node.release.split('.').next().unwrap()},
                "distro": {"description": node.description},
            },
            "networking": {"ip": node.ip, "hostname": hostname, "domain": domain, "fqdn": certname},
            "memory": {"system": {"total": "1.93 GiB", "total_bytes": 2_071_019_520u64}},
            "trusted": {
                "certname": certname,
                "hostname": hostname,
                "domain": domain,
                "authenticated": "remote",
                "extensions": {},
            },
        },
    });
    let class = hostname.replace("mrtest-", "Mrtest_");
    let mut resources = vec![
        json!({"type": "Stage", "title": "main", "exported": false, "tags": ["stage"], "parameters": {}}),
        json!({"type": "Class", "title": "Settings", "exported": false, "tags": ["class", "settings"], "parameters": {}}),
        json!({"type": "Class", "title": "main", "exported": false, "tags": ["class"], "parameters": {"name": "main"}}),
        json!({"type": "Class", "title": class, "exported": false, "tags": ["class", class.to_lowercase()],
               "file": "/etc/puppetlabs/code/environments/production/manifests/site.pp", "line": 1, "parameters": {}}),
    ];
    let mut edges = vec![
        json!({"source": {"type": "Stage", "title": "main"}, "target": {"type": "Class", "title": "Settings"}, "relationship": "contains"}),
        json!({"source": {"type": "Stage", "title": "main"}, "target": {"type": "Class", "title": "main"}, "relationship": "contains"}),
        json!({"source": {"type": "Stage", "title": "main"}, "target": {"type": "Class", "title": class}, "relationship": "contains"}),
    ];
    for (line, (kind, title, parameters)) in node.resources.iter().enumerate() {
        resources.push(json!({
            "type": kind,
            "title": title,
            "exported": false,
            "tags": [kind.to_lowercase(), "class", class.to_lowercase()],
            "file": "/etc/puppetlabs/code/environments/production/manifests/site.pp",
            "line": line + 2,
            "parameters": parameters,
        }));
        edges.push(json!({"source": {"type": "Class", "title": class}, "target": {"type": kind, "title": title}, "relationship": "contains"}));
    }
    let catalog = json!({
        "certname": certname,
        "version": "1764400000",
        "environment": "production",
        "transaction_uuid": format!("aaaaaaaa-0000-4000-8000-{:012}", node.ago),
        "catalog_uuid": format!("bbbbbbbb-0000-4000-8000-{:012}", node.ago),
        "code_id": null,
        "job_id": null,
        "producer_timestamp": timestamp(node.ago + 50),
        "producer": "mrtest-server.example",
        "resources": resources,
        "edges": edges,
    });
    let start = timestamp(node.ago + 40);
    let end = timestamp(node.ago);
    let mut report_resources = Vec::new();
    let mut logs = Vec::new();
    let (mut failures, mut successes) = (0, 0);
    for (kind, title, property, old, new, status, message) in &node.events {
        let path = format!("{kind}[{title}]");
        report_resources.push(json!({
            "resource_type": kind,
            "resource_title": title,
            "file": "/etc/puppetlabs/code/environments/production/manifests/site.pp",
            "line": 3,
            "skipped": false,
            "timestamp": start,
            "containment_path": ["Stage[main]", class, path],
            "corrective_change": false,
            "events": [{
                "status": status,
                "timestamp": start,
                "name": format!("{property}_changed"),
                "property": property,
                "new_value": new,
                "old_value": old,
                "message": message,
                "corrective_change": false,
            }],
        }));
        let level = if *status == "failure" {
            "err"
        } else {
            "notice"
        };
        logs.push(json!({
            "file": "/etc/puppetlabs/code/environments/production/manifests/site.pp",
            "line": 3,
            "level": level,
            "message": message,
            "source": format!("/Stage[main]/{class}/{path}/{property}"),
            "tags": [level, kind.to_lowercase(), "class", class.to_lowercase()],
            "time": start,
        }));
        if *status == "failure" {
            failures += 1;
        } else {
            successes += 1;
        }
    }
    logs.push(json!({
        "file": null, "line": null, "level": "notice",
        "message": "Applied catalog in 1.53 seconds",
        "source": "Puppet", "tags": ["notice"], "time": end,
    }));
    let total = node.resources.len() + 4;
    let report = json!({
        "certname": certname,
        "environment": "production",
        "puppet_version": "7.23.0",
        "report_format": 12,
        "configuration_version": "1764400000",
        "start_time": start,
        "end_time": end,
        "producer_timestamp": end,
        "producer": "mrtest-server.example",
        "transaction_uuid": format!("aaaaaaaa-0000-4000-8000-{:012}", node.ago),
        "catalog_uuid": format!("bbbbbbbb-0000-4000-8000-{:012}", node.ago),
        "code_id": null,
        "job_id": null,
        "cached_catalog_status": "not_used",
        "status": node.status,
        "noop": false,
        "noop_pending": false,
        "corrective_change": false,
        "type": "agent",
        "resources": report_resources,
        "metrics": [
            {"category": "resources", "name": "total", "value": total},
            {"category": "resources", "name": "changed", "value": successes},
            {"category": "resources", "name": "failed", "value": failures},
            {"category": "resources", "name": "out_of_sync", "value": successes + failures},
            {"category": "resources", "name": "skipped", "value": 0},
            {"category": "events", "name": "total", "value": successes + failures},
            {"category": "events", "name": "success", "value": successes},
            {"category": "events", "name": "failure", "value": failures},
            {"category": "changes", "name": "total", "value": successes},
            {"category": "time", "name": "total", "value": 1.53},
            {"category": "time", "name": "catalog_application", "value": 1.21},
        ],
        "logs": logs,
    });
    vec![
        ("replace facts", 5, facts),
        ("replace catalog", 9, catalog),
        ("store report", 8, report),
    ]
}

/// The fleet: a web server whose last run failed to start its service,
/// one whose last run changed nothing, a database server whose last run
/// installed a package.
fn fleet() -> Vec<Node> {
    let web = |certname, ip, status, events, ago| Node {
        certname,
        ip,
        kernelrelease: "6.1.0-28-amd64",
        family: "Debian",
        os: "Debian",
        release: "12.8",
        description: "Debian GNU/Linux 12 (bookworm)",
        resources: vec![
            ("Package", "nginx", json!({"ensure": "installed"})),
            (
                "File",
                "/etc/nginx/sites-enabled/mrtest.conf",
                json!({"ensure": "file", "content": "server { listen 80; }\n", "notify": "Service[nginx]"}),
            ),
            (
                "Service",
                "nginx",
                json!({"ensure": "running", "enable": true}),
            ),
        ],
        status,
        events,
        ago,
    };
    vec![
        web(
            "mrtest-web1.example",
            "10.0.0.11",
            "failed",
            vec![
                (
                    "File",
                    "/etc/nginx/sites-enabled/mrtest.conf",
                    "content",
                    "{sha256}0d3c",
                    "{sha256}9f1e",
                    "success",
                    "content changed '{sha256}0d3c' to '{sha256}9f1e'",
                ),
                (
                    "Service",
                    "nginx",
                    "ensure",
                    "stopped",
                    "running",
                    "failure",
                    "Could not start Service[nginx]: Execution of '/usr/sbin/service nginx start' returned 1: mrtest-bind-failed",
                ),
            ],
            600,
        ),
        web(
            "mrtest-web2.example",
            "10.0.0.12",
            "unchanged",
            Vec::new(),
            900,
        ),
        Node {
            certname: "mrtest-db1.example",
            ip: "10.0.0.21",
            kernelrelease: "5.14.0-427.el9.x86_64",
            family: "RedHat",
            os: "Rocky",
            release: "9.4",
            description: "Rocky Linux 9.4 (Blue Onyx)",
            resources: vec![
                (
                    "Package",
                    "postgresql-server",
                    json!({"ensure": "installed"}),
                ),
                (
                    "Service",
                    "postgresql",
                    json!({"ensure": "running", "enable": true}),
                ),
            ],
            status: "changed",
            events: vec![(
                "Package",
                "postgresql-server",
                "ensure",
                "purged",
                "15.6-1.el9",
                "success",
                "created",
            )],
            ago: 1200,
        },
    ]
}

/// Storage, certificates and commands.
struct Storage {
    dir: PathBuf,
    port: u16,
}

impl Storage {
    /// A command through `/pdb/cmd/v1`, as Puppet's PuppetDB termini send
    /// it, with Puppetboard's certificate.
    fn command(&self, name: &str, version: u32, payload: &Value) {
        let certname = payload["certname"].as_str().unwrap();
        let body = self.dir.join("command.json");
        std::fs::write(&body, payload.to_string()).unwrap();
        let output = Command::new("curl")
            .args(["-s", "-w", "\n%{http_code}", "-X", "POST"])
            .args(["-H", "Content-Type: application/json"])
            .arg("--cacert")
            .arg(self.dir.join("ca/ca_crt.pem"))
            .arg("--cert")
            .arg(self.dir.join("puppetboard/ssl/certs/puppetboard.pem"))
            .arg("--key")
            .arg(
                self.dir
                    .join("puppetboard/ssl/private_keys/puppetboard.pem"),
            )
            .arg("--data-binary")
            .arg(format!("@{}", body.display()))
            .arg(format!(
                "https://localhost:{}/pdb/cmd/v1?command={}&version={version}&certname={certname}",
                self.port,
                name.replace(' ', "_")
            ))
            .output()
            .expect("curl runs");
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(
            text.ends_with("\n200"),
            "{name} for {certname} was refused: {text} {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

fn marionette(args: &[&str], dir: &Path) {
    let output = Command::new(env!("CARGO_BIN_EXE_marionette"))
        .args(args)
        .arg("--cadir")
        .arg(dir.join("ca"))
        .args(["--keylength", "2048"])
        .output()
        .expect("marionette runs");
    assert!(
        output.status.success(),
        "marionette {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// `marionette storage serve` on a free port of the loopback (read from
/// its first line), with the CA's certificate for `localhost`.
fn serve_storage(dir: &Path) -> (Process, u16) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_marionette"))
        .args(["storage", "serve", "--bind", "127.0.0.1:0"])
        .args(["--certname", "localhost"])
        .arg("--cadir")
        .arg(dir.join("ca"))
        .arg("--ssldir")
        .arg(dir.join("localhost/ssl"))
        .arg("--vardir")
        .arg(dir.join("var"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("marionette storage serve starts");
    let mut lines = BufReader::new(child.stderr.take().expect("stderr"));
    let mut first = String::new();
    lines
        .read_line(&mut first)
        .expect("the storage's first line");
    std::thread::spawn(move || for _ in lines.lines() {});
    let process = Process { child };
    let port = first
        .trim()
        .rsplit(':')
        .next()
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("the storage said: {first}"));
    (process, port)
}

/// A free port of the loopback, for Puppetboard.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

/// A plain HTTP GET on the loopback: the status line and body.
fn http_get(port: u16, path: &str) -> Option<String> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).ok()?;
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .ok()?;
    write!(
        stream,
        "GET {path} HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
    )
    .ok()?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer).ok()?;
    Some(answer)
}

/// Puppetboard under Flask's server, configured by a settings file as
/// its documentation says, started once it answers `/status`.
fn serve_puppetboard(venv: &Path, dir: &Path, storage: u16) -> (Process, u16) {
    let port = free_port();
    let settings = dir.join("puppetboard/settings.py");
    let ssl = dir.join("puppetboard/ssl");
    std::fs::write(
        &settings,
        format!(
            r#"PUPPETDB_HOST = 'localhost'
PUPPETDB_PORT = {storage}
PUPPETDB_PROTO = 'https'
PUPPETDB_SSL_VERIFY = '{ca}'
PUPPETDB_KEY = '{key}'
PUPPETDB_CERT = '{cert}'
PUPPETDB_TIMEOUT = 20
SECRET_KEY = 'mrtest-puppetboard-0123456789abcdef0123456789'
ENABLE_QUERY = True
ENABLE_CATALOG = True
ENABLE_CLASS = True
# The test's network has no CDN: Puppetboard's own copies of its scripts.
OFFLINE_MODE = True
LOCALISE_TIMESTAMP = False
# The overview and the radiator reload themselves every REFRESH_RATE
# seconds, which the browser's twenty seconds must not reach.
REFRESH_RATE = 0
# The query page's form is posted by a page of the test's own, which
# cannot hold the CSRF token of Puppetboard's session.
WTF_CSRF_ENABLED = False
"#,
            ca = dir.join("ca/ca_crt.pem").display(),
            key = ssl.join("private_keys/puppetboard.pem").display(),
            cert = ssl.join("certs/puppetboard.pem").display(),
        ),
    )
    .unwrap();
    let log = dir.join("puppetboard/log");
    let child = Command::new(venv.join("bin/flask"))
        .args(["--app", "puppetboard.app", "run", "--host", "127.0.0.1"])
        .args(["--port", &port.to_string()])
        .env("PUPPETBOARD_SETTINGS", &settings)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(dir.join("puppetboard/stdout")).unwrap())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .expect("Puppetboard starts");
    let mut process = Process { child };
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if http_get(port, "/status")
            .is_some_and(|a| a.starts_with("HTTP/1.1 200") && a.ends_with("OK"))
        {
            return (process, port);
        }
        if let Ok(Some(status)) = process.child.try_wait() {
            panic!(
                "Puppetboard stopped ({status}):\n{}",
                std::fs::read_to_string(&log).unwrap_or_default()
            );
        }
        assert!(
            Instant::now() < deadline,
            "Puppetboard did not answer on port {port} within a minute:\n{}",
            std::fs::read_to_string(&log).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// Headless Chromium.
struct Browser {
    chromium: PathBuf,
    profiles: PathBuf,
    screenshots: PathBuf,
    pages: usize,
    /// The DOM of the last page loaded.
    dom: String,
}

impl Browser {
    /// Loads `url` (its scripts, their requests and the charts'
    /// transitions run for twenty seconds of the page's time, which
    /// Chromium skips through when it waits on nothing), keeps a
    /// screenshot named `name`, checks the page is Puppetboard's and not
    /// one of its error pages, and gives the page's DOM as text without
    /// tags, with blanks collapsed (the DOM itself stays in `self.dom`).
    fn load(&mut self, name: &str, url: &str) -> String {
        self.pages += 1;
        let screenshot = self
            .screenshots
            .join(format!("{:02}-{name}.png", self.pages));
        let profile = self.profiles.join(name);
        let mut child = Command::new(&self.chromium)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
                "--window-size=1280,900",
                "--virtual-time-budget=20000",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg(format!("--screenshot={}", screenshot.display()))
            .arg("--dump-dom")
            .arg(url)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromium starts");
        let mut stdout = child.stdout.take().unwrap();
        let reader = std::thread::spawn(move || {
            let mut dom = String::new();
            let _ = stdout.read_to_string(&mut dom);
            dom
        });
        let mut process = Process { child };
        let deadline = Instant::now() + Duration::from_secs(60);
        let status = loop {
            if let Some(status) = process.child.try_wait().expect("chromium's status") {
                break status;
            }
            assert!(
                Instant::now() < deadline,
                "chromium took over a minute on {url}"
            );
            std::thread::sleep(Duration::from_millis(50));
        };
        let dom = reader.join().unwrap();
        assert!(status.success(), "chromium failed on {url}: {status}");
        assert!(screenshot.is_file(), "chromium kept no screenshot of {url}");
        let _ = std::fs::remove_dir_all(&profile);
        let text = text_of(&dom);
        self.dom = dom;
        for error in [
            "Internal Server Error",
            "Not Found",
            "Bad Request",
            "Forbidden",
        ] {
            assert!(
                !text.contains(error),
                "{url} is Puppetboard's error page ({error}): {text}"
            );
        }
        assert!(
            text.starts_with("Puppetboard"),
            "{url} is not a Puppetboard page: {text}"
        );
        eprintln!("  {name}: {url} ({})", screenshot.display());
        text
    }
}

/// A DOM's text: no scripts, styles or tags, entities for <, >, &, "
/// and ' read, blanks collapsed.
fn text_of(dom: &str) -> String {
    let mut text = String::new();
    let mut rest = dom;
    while let Some(start) = rest.find('<') {
        text.push_str(&rest[..start]);
        text.push(' ');
        rest = &rest[start..];
        let lower = rest.get(..7).unwrap_or("").to_ascii_lowercase();
        let close = if lower.starts_with("<script") {
            "</script>"
        } else if lower.starts_with("<style") {
            "</style>"
        } else {
            ">"
        };
        match rest.find(close) {
            Some(end) => rest = &rest[end + close.len()..],
            None => rest = "",
        }
    }
    text.push_str(rest);
    let text = text
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&nbsp;", " ")
        .replace("&amp;", "&");
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The hrefs of a DOM that start with `prefix`.
fn links<'a>(dom: &'a str, prefix: &str) -> Vec<&'a str> {
    dom.split("href=\"")
        .skip(1)
        .filter_map(|s| s.split('"').next())
        .filter(|href| href.starts_with(prefix))
        .collect()
}

fn expect(text: &str, page: &str, wanted: &[&str]) {
    for want in wanted {
        assert!(
            text.contains(want),
            "the {page} page does not show {want:?}: {text}"
        );
    }
}

#[test]
fn puppetboard_renders_every_page_from_the_storage() {
    let started = Instant::now();
    let chromium = require("chromium", "apt-get install -y chromium");
    require("curl", "apt-get install -y curl");
    let venv = puppetboard_venv();
    let dir = tempfile::Builder::new()
        .prefix("mrtest-puppetboard")
        .tempdir()
        .expect("a temporary directory");
    let dir = dir.path();

    // A CA, the storage's certificate for `localhost` (where Puppetboard
    // finds it) and Puppetboard's.
    marionette(&["ca", "setup"], dir);
    for (name, alt) in [
        ("localhost", Some("DNS:localhost,IP:127.0.0.1")),
        ("puppetboard", None),
    ] {
        let ssldir = dir.join(format!("{name}/ssl")).display().to_string();
        let mut args = vec!["ca", "generate", "--certname", name, "--ssldir", &ssldir];
        if let Some(alt) = alt {
            args.extend(["--subject-alt-names", alt]);
        }
        marionette(&args, dir);
    }
    let (_storage, storage_port) = serve_storage(dir);
    let storage = Storage {
        dir: dir.to_path_buf(),
        port: storage_port,
    };
    // An earlier run of the second web server, which changed its
    // configuration, then each node's last run.
    let mut earlier = fleet().remove(1);
    earlier.ago = 2400;
    earlier.status = "changed";
    earlier.events = vec![(
        "File",
        "/etc/nginx/sites-enabled/mrtest.conf",
        "ensure",
        "absent",
        "file",
        "success",
        "defined content as '{sha256}9f1e'",
    )];
    let (name, version, report) = commands(&earlier).remove(2);
    storage.command(name, version, &report);
    for node in fleet() {
        for (name, version, payload) in commands(&node) {
            storage.command(name, version, &payload);
        }
    }

    let (puppetboard, port) = serve_puppetboard(&venv, dir, storage_port);
    let base = format!("http://127.0.0.1:{port}");
    let screenshots = target_dir().join("puppetboard-screenshots");
    let _ = std::fs::remove_dir_all(&screenshots);
    std::fs::create_dir_all(&screenshots).unwrap();
    eprintln!(
        "Puppetboard {PUPPETBOARD} on {base}, against the storage on port {storage_port}; screenshots in {}",
        screenshots.display()
    );
    let mut browser = Browser {
        chromium,
        profiles: dir.join("chromium"),
        screenshots: screenshots.clone(),
        pages: 0,
        dom: String::new(),
    };

    // The overview: the population and each status, from the storage's
    // queries (one environment) and from its metrics (all of them).
    let text = browser.load("overview", &format!("{base}/"));
    expect(
        &text,
        "overview",
        &[
            "1 node with status failed",
            "1 node with status changed",
            "1 node with status unchanged",
            "0 nodes unreported",
            "3 Population",
            "mrtest-web1.example",
            "mrtest-db1.example",
        ],
    );
    let text = browser.load("overview-all", &format!("{base}/*/"));
    expect(
        &text,
        "overview of all environments",
        &["3 Population", "20 Resources managed"],
    );

    let text = browser.load("nodes", &format!("{base}/nodes"));
    expect(
        &text,
        "nodes",
        &[
            "FAILED",
            "CHANGED",
            "UNCHANGED",
            "mrtest-web1.example",
            "mrtest-web2.example",
            "mrtest-db1.example",
        ],
    );

    // A node: its facts and its reports (filled by their own requests).
    let dom_url = format!("{base}/node/mrtest-web2.example");
    let text = browser.load("node", &dom_url);
    expect(
        &text,
        "node",
        &[
            "mrtest-web2.example",
            "kernelrelease 6.1.0-28-amd64",
            "10.0.0.12",
            "Showing 1 to 2 of 2 entries",
            "UNCHANGED",
            "CHANGED",
        ],
    );

    let text = browser.load("reports", &format!("{base}/reports"));
    expect(
        &text,
        "reports",
        &[
            "FAILED",
            "mrtest-db1.example",
            "1764400000",
            "7.23.0",
            "Showing 1 to 4 of 4 entries",
        ],
    );

    // The failed report, by the link the reports of its node give.
    let text = browser.load(
        "node-reports",
        &format!("{base}/reports/mrtest-web1.example"),
    );
    expect(
        &text,
        "node's reports",
        &["FAILED", "Showing 1 to 1 of 1 entries"],
    );
    let report = links(&browser.dom, "/report/mrtest-web1.example/");
    assert_eq!(
        report.len(),
        1,
        "the reports of mrtest-web1.example: {}",
        browser.dom
    );
    let report = report[0].to_string();
    let text = browser.load("report", &format!("{base}{report}"));
    expect(
        &text,
        "report",
        &[
            "mrtest-web1.example",
            "Service[nginx]",
            "File[/etc/nginx/sites-enabled/mrtest.conf]",
            "failure",
            "success",
            "{sha256}9f1e",
            "mrtest-bind-failed",
            "Applied catalog in 1.53 seconds",
            "catalog_application",
        ],
    );

    let text = browser.load("failures", &format!("{base}/failures"));
    expect(
        &text,
        "failures",
        &["mrtest-web1.example", "mrtest-bind-failed"],
    );

    let text = browser.load("facts", &format!("{base}/facts"));
    expect(
        &text,
        "facts",
        &[
            "kernelrelease",
            "networking",
            "puppetversion",
            "processorcount",
        ],
    );
    let text = browser.load("fact", &format!("{base}/fact/kernelrelease"));
    expect(
        &text,
        "fact",
        &[
            "mrtest-db1.example 5.14.0-427.el9.x86_64",
            "mrtest-web1.example 6.1.0-28-amd64",
            "Showing 1 to 3 of 3 entries",
        ],
    );
    let text = browser.load(
        "fact-value",
        &format!("{base}/fact/kernelrelease/%226.1.0-28-amd64%22"),
    );
    expect(
        &text,
        "fact's value",
        &[
            "mrtest-web1.example",
            "mrtest-web2.example",
            "Showing 1 to 2 of 2 entries",
        ],
    );
    assert!(!text.contains("mrtest-db1.example"), "{text}");
    let text = browser.load("fact-structured", &format!("{base}/fact/os.family"));
    expect(
        &text,
        "structured fact",
        &["RedHat", "Debian", "Showing 1 to 3 of 3 entries"],
    );

    let text = browser.load("inventory", &format!("{base}/inventory"));
    expect(
        &text,
        "inventory",
        &[
            "mrtest-db1",
            "10.0.0.21",
            "Rocky",
            "amd64",
            "5.14.0-427.el9.x86_64",
            "7.23.0",
        ],
    );

    let text = browser.load("catalogs", &format!("{base}/catalogs"));
    expect(
        &text,
        "catalogs",
        &[
            "mrtest-web1.example",
            "mrtest-db1.example",
            "Showing 1 to 3 of 3 entries",
        ],
    );
    let text = browser.load("catalog", &format!("{base}/catalog/mrtest-db1.example"));
    expect(
        &text,
        "catalog",
        &[
            "Package[postgresql-server]",
            "Service[postgresql]",
            "Class[Mrtest_db1] contains Service[postgresql]",
            "site.pp:3",
        ],
    );
    let text = browser.load(
        "catalogs-compare",
        &format!("{base}/catalogs/compare/mrtest-web1.example...mrtest-db1.example"),
    );
    expect(
        &text,
        "catalogs' comparison",
        &["Service[nginx]", "Package[postgresql-server]"],
    );

    let text = browser.load("classes", &format!("{base}/classes"));
    expect(&text, "classes", &["Mrtest_web1", "Mrtest_db1"]);
    let text = browser.load("class", &format!("{base}/class_resource/Mrtest_web1"));
    expect(
        &text,
        "class",
        &[
            "Mrtest_web1",
            "mrtest-web1.example",
            "Showing 1 to 1 of 1 entries",
        ],
    );

    let text = browser.load("radiator", &format!("{base}/radiator"));
    expect(
        &text,
        "radiator",
        &["1 Failed", "1 Changed", "1 Unchanged", "3 Total"],
    );

    // The query page, with a PQL query posted by its form.
    let form = dir.join("query.html");
    std::fs::write(
        &form,
        format!(
            r#"<!DOCTYPE html><html><body><form method="post" action="{base}/query">
<textarea name="query">facts[certname, value] {{ name = "kernelrelease" and certname ~ "^mrtest-web" order by certname }}</textarea>
<input name="endpoints" value="pql"></form>
<script>document.forms[0].submit()</script></body></html>"#
        ),
    )
    .unwrap();
    let text = browser.load("query", &format!("file://{}", form.display()));
    expect(
        &text,
        "query",
        &[
            "Number of results: 2",
            "certname value",
            "mrtest-web1.example 6.1.0-28-amd64",
            "mrtest-web2.example 6.1.0-28-amd64",
        ],
    );

    let text = browser.load("metrics", &format!("{base}/metrics"));
    expect(
        &text,
        "metrics",
        &[
            "puppetlabs.puppetdb.population:name=num-nodes",
            "puppetlabs.puppetdb.population:name=num-resources",
        ],
    );
    let text = browser.load(
        "metric",
        &format!("{base}/metric/puppetlabs.puppetdb.population:name=num-resources"),
    );
    expect(&text, "metric", &["num-resources", "Value 20"]);

    // Puppetboard answered every request (pages, their data, their
    // scripts) without an error.
    drop(puppetboard);
    let log = std::fs::read_to_string(dir.join("puppetboard/log")).unwrap();
    let errors: Vec<&str> = log
        .lines()
        .filter(|line| {
            line.contains("ERROR")
                || line.contains("Traceback")
                || line
                    .split("HTTP/1.1\" ")
                    .nth(1)
                    .is_some_and(|s| !s.starts_with('2') && !s.starts_with('3'))
        })
        .collect();
    // (The log is werkzeug's, a line a request: read as such.)
    let answered = log.lines().filter(|l| l.contains("HTTP/1.1\" 200")).count();
    assert!(
        answered > 40,
        "Puppetboard's log does not list its requests:\n{log}"
    );
    assert!(
        errors.is_empty(),
        "Puppetboard's errors:\n{}",
        errors.join("\n")
    );
    // Straight to the test's standard error, which cargo test shows even
    // when the test passes.
    let _ = writeln!(
        std::io::stderr(),
        "Puppetboard {PUPPETBOARD}: {} pages rendered in {:.0?}; screenshots in {}",
        browser.pages,
        started.elapsed(),
        screenshots.display()
    );
}

//! `marionette server` with a stock Puppet 7 agent (Debian's `puppet`):
//! bootstrap with autosign, pluginsync of a module's custom fact and
//! external fact, a catalog naming the node by its certificate with a
//! `puppet:///modules/...` source, the report kept; a second run with
//! nothing to do; a node asking for another's catalog, a path leaving its
//! mount and a revoked agent refused.

mod common;
// PostgreSQL clusters of the tests' own, as the storage's tests start them.
#[path = "../../storage/tests/cluster/mod.rs"]
mod cluster;

use std::ffi::OsString;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

fn require(tool: &str, package: &str) {
    let found = Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(found, "this test needs {tool}: apt-get install {package}");
}

/// The server, stopped when dropped.
struct Running {
    child: Child,
    port: u16,
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An external node classifier: the second agent is moved to another
/// environment, with a class and a top-scope variable.
const CLASSIFIER: &str = r"#!/bin/sh
case $1 in
  mrtest-agent2) printf 'environment: mrtest_other\nparameters:\n  role: web\nclasses:\n  mrtest_marker:\n    word: switched\n' ;;
  *) printf 'classes: []\n' ;;
esac
";

fn start_server(dir: &Path) -> Running {
    let environments =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/server/environments");
    // The production environment uses Debian's concat, stdlib and
    // archive, which the server finds on its base module path as Puppet's
    // does.
    for module in ["concat", "stdlib", "archive"] {
        assert!(
            Path::new("/usr/share/puppet/modules").join(module).is_dir(),
            "{module} is missing: install the packages of tests/forge/packages.txt (scripts/test does)"
        );
    }
    let classifier = dir.join("classifier");
    std::fs::write(&classifier, CLASSIFIER).expect("the classifier");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&classifier, std::fs::Permissions::from_mode(0o755)).unwrap();
    let external_nodes = [
        OsString::from("--external-nodes"),
        classifier.into_os_string(),
    ];
    start(dir, &environments, &external_nodes)
}

/// `marionette server` on a free port of the loopback, for the
/// environments of `environments`, with more options.
fn start(dir: &Path, environments: &Path, more: &[OsString]) -> Running {
    launch(server_command(dir, environments, more))
}

/// The command that starts `marionette server` as `start` does.
fn server_command(dir: &Path, environments: &Path, more: &[OsString]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_marionette"));
    command
        .args(["server", "--bind", "127.0.0.1:0", "--certname", "localhost"])
        .args([
            "--dns-alt-names",
            "localhost",
            "--autosign",
            "true",
            "--keylength",
            "2048",
        ])
        .arg("--cadir")
        .arg(dir.join("ca"))
        .arg("--ssldir")
        .arg(dir.join("server-ssl"))
        .arg("--vardir")
        .arg(dir.join("server-root/server"))
        .arg("--environmentpath")
        .arg(environments)
        .args(more)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    command
}

/// Starts the server and reads the port it listens on from its first line.
fn launch(mut command: Command) -> Running {
    let mut child = command.spawn().expect("marionette server starts");
    let mut lines = BufReader::new(child.stderr.take().expect("stderr"));
    let mut first = String::new();
    lines
        .read_line(&mut first)
        .expect("the server's first line");
    // The rest of the log is drained so the server never blocks on it.
    std::thread::spawn(move || for _ in lines.lines() {});
    let port = first
        .trim()
        .rsplit(':')
        .next()
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("the server said: {first}"));
    Running { child, port }
}

fn agent(dir: &Path, port: u16, certname: &str) -> Output {
    agent_in(dir, port, certname, dir)
}

/// A stock agent run whose `mrtest_srv_dir` fact is `work`.
fn agent_in(dir: &Path, port: u16, certname: &str, work: &Path) -> Output {
    agent_with(dir, port, certname, work, &[])
}

/// A stock agent run as `agent_in`'s, with more arguments.
fn agent_with(dir: &Path, port: u16, certname: &str, work: &Path, more: &[&str]) -> Output {
    Command::new("puppet")
        .args(["agent", "-t", "--color=false", "--server", "localhost"])
        .args(more)
        .args([
            "--masterport",
            &port.to_string(),
            "--certname",
            certname,
            "--keylength",
            "2048",
        ])
        .arg("--ssldir")
        .arg(dir.join(format!("{certname}/ssl")))
        .arg("--vardir")
        .arg(dir.join(format!("{certname}/var")))
        .arg("--confdir")
        .arg(dir.join(format!("{certname}/conf")))
        // The last run's summary, where the agent remembers the
        // environment the server gave it.
        .arg("--publicdir")
        .arg(dir.join(format!("{certname}/public")))
        .env("FACTER_mrtest_srv_dir", work)
        .env("FACTER_mrtest_bucket_port", port.to_string())
        .output()
        .expect("puppet agent runs")
}

/// Where the server's filebucket keeps a sum's content and paths
/// (Puppet's layout: eight levels of its first characters).
fn bucket_slot(dir: &Path, sum: &str) -> PathBuf {
    sum[..8]
        .chars()
        .fold(dir.join("server-root/server/bucket"), |p, c| {
            p.join(c.to_string())
        })
        .join(sum)
}

/// A request with curl, as the agent (its certificate) or as nobody.
fn curl(dir: &Path, port: u16, as_agent: Option<&str>, args: &[&str], path: &str) -> String {
    let mut command = Command::new("curl");
    command
        .args([
            "-s",
            "--path-as-is",
            "-o",
            "/dev/null",
            "-w",
            "%{http_code}",
        ])
        .arg("--cacert")
        .arg(dir.join("ca/ca_crt.pem"));
    if let Some(name) = as_agent {
        let ssl: PathBuf = dir.join(format!("{name}/ssl"));
        command
            .arg("--cert")
            .arg(ssl.join(format!("certs/{name}.pem")))
            .arg("--key")
            .arg(ssl.join(format!("private_keys/{name}.pem")));
    }
    let output = command
        .args(args)
        .arg(format!("https://localhost:{port}{path}"))
        .output()
        .expect("curl runs");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn a_stock_puppet_agent_is_served() {
    require("puppet", "puppet");
    require("curl", "curl");
    let dir = tempfile::Builder::new()
        .prefix("mrtest-server")
        .tempdir()
        .unwrap();
    let dir = dir.path();
    let server = start_server(dir);

    // First run: bootstrap, pluginsync, catalog, file, report; the file's
    // old content goes to the server's filebucket.
    std::fs::write(dir.join("hello.txt"), "mrtest old hello\n").unwrap();
    let first = agent(dir, server.port, "mrtest-agent1");
    let said = common::printed(&first);
    assert_eq!(first.status.code(), Some(2), "{said}");
    // Puppet 7 names content by SHA-256 (its digest_algorithm): of
    // "mrtest old hello\n", sha256sum's.
    let sum = "2d7074896ee63073a3bf2882254d97453a5896188511cbc29816069960fd7c42";
    assert!(
        said.contains(&format!(
            "Filebucketed {}/hello.txt to main with sum {sum}",
            dir.display()
        )),
        "{said}"
    );
    let slot = bucket_slot(dir, sum);
    assert_eq!(
        std::fs::read_to_string(slot.join("contents")).unwrap_or_default(),
        "mrtest old hello\n"
    );
    assert_eq!(
        std::fs::read_to_string(slot.join("paths")).unwrap_or_default(),
        format!("{}/hello.txt\n", dir.display())
    );
    let bucketed = format!("/puppet/v3/file_bucket_file/sha256/{sum}?environment=production");
    assert_eq!(
        curl(dir, server.port, Some("mrtest-agent1"), &[], &bucketed),
        "200"
    );
    assert_eq!(
        curl(dir, server.port, Some("mrtest-agent1"), &["-I"], &bucketed),
        "200"
    );
    assert_eq!(curl(dir, server.port, None, &[], &bucketed), "403");
    // The filebucket command reaches the same content with the agent's
    // certificate, and compares it with a file.
    let remote = |args: &[&str]| {
        let ssldir = dir.join("mrtest-agent1/ssl");
        let port = server.port.to_string();
        let mut all = vec!["filebucket"];
        all.extend_from_slice(args);
        all.extend_from_slice(&[
            "--server",
            "localhost",
            "--serverport",
            &port,
            "--certname",
            "mrtest-agent1",
            "--ssldir",
            ssldir.to_str().unwrap(),
        ]);
        common::marionette(&all)
    };
    let got = remote(&["get", sum]);
    assert_eq!(
        (got.code, got.stdout.as_str()),
        (0, "mrtest old hello\n"),
        "{}",
        got.output()
    );
    let compared = dir.join("compared.txt");
    std::fs::write(&compared, "mrtest new hello\n").unwrap();
    let diffed = remote(&["diff", sum, compared.to_str().unwrap()]);
    assert_eq!(diffed.code, 0, "{}", diffed.output());
    assert!(
        diffed
            .stdout
            .contains("\n-mrtest old hello\n+mrtest new hello\n"),
        "{}",
        diffed.output()
    );
    let listed = remote(&["list"]);
    assert_eq!(
        (listed.code, listed.stderr.as_str()),
        (1, "Error: Listing remote file buckets is not allowed\n")
    );
    let unknown =
        "/puppet/v3/file_bucket_file/md5/00000000000000000000000000000000?environment=production";
    assert_eq!(
        curl(dir, server.port, Some("mrtest-agent1"), &[], unknown),
        "404"
    );
    assert!(
        said.contains("Downloaded certificate for mrtest-agent1"),
        "{said}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("hello.txt")).unwrap_or_default(),
        "hello mrtest-agent1 synced external\n",
        "{said}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("out.txt")).unwrap_or_default(),
        "greetings\n",
        "{said}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("note.txt")).unwrap_or_default(),
        "a synced type\n",
        "the synced type is applied: {said}"
    );
    let reports: Vec<_> = std::fs::read_dir(dir.join("server-root/server/reports/mrtest-agent1"))
        .map(|d| d.filter_map(|e| e.ok()).collect())
        .unwrap_or_default();
    assert_eq!(reports.len(), 1, "one report kept");
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(reports[0].path()).unwrap()).expect("a JSON report");
    assert_eq!(report["host"], "mrtest-agent1");
    assert_eq!(report["status"], "changed");

    // Second run: nothing to do.
    let second = agent(dir, server.port, "mrtest-agent1");
    assert_eq!(
        second.status.code(),
        Some(0),
        "{}",
        common::printed(&second)
    );

    // The classifier moves another agent to another environment.
    let moved = agent(dir, server.port, "mrtest-agent2");
    let said = common::printed(&moved);
    assert_eq!(moved.status.code(), Some(2), "{said}");
    assert!(said.contains("switching agent to 'mrtest_other'"), "{said}");
    assert_eq!(
        std::fs::read_to_string(dir.join("env.txt")).unwrap_or_default(),
        "mrtest_other web\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("marker.txt")).unwrap_or_default(),
        "switched\n"
    );

    // Marionette's own agent: bootstrap, pluginsync (the module's custom
    // and external facts reach the catalog), apply, report; then a second
    // run with nothing to do.
    let ours = dir.join("ours");
    std::fs::create_dir_all(&ours).unwrap();
    let attributes = dir.join("csr_attributes.yaml");
    std::fs::write(
        &attributes,
        "---\nextension_requests:\n  pp_role: mrtest_web\n",
    )
    .unwrap();
    let port = server.port;
    let marionette_agent = || {
        common::marionette_agent(port, "mrtest-agent3", &dir.join("mrtest-agent3"), &ours)
            .arg("--csr-attributes")
            .arg(&attributes)
            .env("FACTER_mrtest_bucket_port", port.to_string())
            .output()
            .expect("marionette agent runs")
    };
    // The replaced content goes to the server's bucket too.
    std::fs::write(ours.join("hello.txt"), "mrtest our old hello\n").unwrap();
    let first = marionette_agent();
    let said = common::printed(&first);
    assert_eq!(first.status.code(), Some(2), "{said}");
    let sum = "56db879dc566fae8536587568d7f157fc74495f9b204f9c2cf24b5c559f40d60";
    assert!(
        said.contains(&format!(
            "Filebucketed {}/hello.txt to main with sum {sum}",
            ours.display()
        )),
        "{said}"
    );
    let slot = bucket_slot(dir, sum);
    assert_eq!(
        std::fs::read_to_string(slot.join("contents")).unwrap_or_default(),
        "mrtest our old hello\n"
    );
    assert_eq!(
        std::fs::read_to_string(ours.join("hello.txt")).unwrap_or_default(),
        "hello mrtest-agent3 synced external mrtest_web\n",
        "{said}"
    );
    assert_eq!(
        std::fs::read_to_string(ours.join("out.txt")).unwrap_or_default(),
        "greetings\n"
    );
    assert_eq!(
        std::fs::read_to_string(ours.join("note.txt")).unwrap_or_default(),
        "a synced type\n",
        "the synced type is applied by Marionette's agent: {said}"
    );
    let kept = std::fs::read_dir(dir.join("server-root/server/reports/mrtest-agent3"))
        .map(|d| d.count())
        .unwrap_or(0);
    assert_eq!(kept, 1, "the report of Marionette's agent is kept: {said}");
    // The Forge modules' types and the DSL module's, from their
    // pluginsynced Ruby, leave what Puppet's agent left: with a module's
    // file that a fragment and archive read through file serving.
    for made in [
        "motd",
        "greeting.archived",
        "lines.txt",
        "one.widget",
        "two.widget",
    ] {
        let puppets = std::fs::read_to_string(dir.join(made)).unwrap_or_default();
        assert!(!puppets.is_empty(), "Puppet's agent made {made}");
        assert_eq!(
            std::fs::read_to_string(ours.join(made)).unwrap_or_default(),
            puppets,
            "{made}: {said}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(ours.join("motd")).unwrap_or_default(),
        "first\nsecond\ngreetings\n"
    );
    // Facter's errors (the ssh module's facts where sshd is missing) are
    // Puppet's too; nothing else fails.
    assert!(
        !said
            .lines()
            .any(|l| l.starts_with("Error") && !l.starts_with("Error: Facter:")),
        "{said}"
    );
    let again = marionette_agent();
    assert_eq!(again.status.code(), Some(0), "{}", common::printed(&again));
    // The server's reports of a node, read back as this machine's are.
    let listed = Command::new(env!("CARGO_BIN_EXE_marionette"))
        .args([
            "report",
            "list",
            "--node",
            "mrtest-agent3",
            "--format",
            "json",
        ])
        .arg("--vardir")
        .arg(dir.join("server-root"))
        .output()
        .expect("marionette report runs");
    let listed: serde_json::Value = serde_json::from_slice(&listed.stdout)
        .unwrap_or_else(|_| panic!("{}", common::printed(&listed)));
    assert_eq!(listed[0]["name"], "last");
    assert_eq!(listed[0]["status"], "unchanged");
    assert_eq!(listed[1]["status"], "changed");
    // A run stopped before it applied anything has no report to send: the
    // previous run's, still on disk, is not sent again.
    let kept = |dir: &Path| {
        std::fs::read_dir(dir.join("server-root/server/reports/mrtest-agent3"))
            .map(|d| d.count())
            .unwrap_or(0)
    };
    assert_eq!(kept(dir), 2);
    let stopped =
        common::marionette_agent(port, "mrtest-agent3", &dir.join("mrtest-agent3"), &ours)
            .arg("--prerun_command=/bin/false")
            .env("FACTER_mrtest_bucket_port", port.to_string())
            .output()
            .expect("marionette agent runs");
    let said = common::printed(&stopped);
    assert_eq!(stopped.status.code(), Some(1), "{said}");
    assert!(said.contains("prerun_command"), "{said}");
    assert_eq!(kept(dir), 2, "no report sent: {said}");

    // Another node's catalog, and a path out of a module's files.
    let other = "/puppet/v3/catalog/mrtest-other?environment=production";
    assert_eq!(
        curl(dir, server.port, Some("mrtest-agent1"), &[], other),
        "403"
    );
    let own = "/puppet/v3/node/mrtest-agent1?environment=production";
    assert_eq!(
        curl(dir, server.port, Some("mrtest-agent1"), &[], own),
        "200"
    );
    let escape = "/puppet/v3/file_content/modules/mrtest_srv/../../../../../../etc/passwd?environment=production";
    assert_eq!(
        curl(dir, server.port, Some("mrtest-agent1"), &[], escape),
        "403"
    );
    let anonymous =
        "/puppet/v3/file_content/modules/mrtest_srv/greeting.txt?environment=production";
    assert_eq!(curl(dir, server.port, None, &[], anonymous), "403");

    // A certificate request of 100 KiB is refused, unkept: its body is
    // read and thrown away (so that curl, which sends it at once, reads
    // the 413 rather than a reset connection).
    let big = dir.join("big.csr");
    std::fs::write(&big, vec![b'A'; 100 * 1024]).unwrap();
    let upload = format!("@{}", big.display());
    let put = [
        "-X",
        "PUT",
        "-H",
        "Content-Type: text/plain",
        "--data-binary",
        upload.as_str(),
    ];
    let request = "/puppet-ca/v1/certificate_request/mrtest-big";
    assert_eq!(curl(dir, server.port, None, &put, request), "413");

    // Being on the server's machine grants nothing: without a certificate
    // the CA's administration is refused, from the loopback too.
    let status = "/puppet-ca/v1/certificate_status/mrtest-agent1";
    let revoke = [
        "-X",
        "PUT",
        "-H",
        "Content-Type: application/json",
        "--data",
        r#"{"desired_state":"revoked"}"#,
    ];
    assert_eq!(curl(dir, server.port, None, &revoke, status), "403");
    let statuses = "/puppet-ca/v1/certificate_statuses/any";
    assert_eq!(curl(dir, server.port, None, &[], statuses), "403");
    assert_eq!(
        curl(dir, server.port, Some("mrtest-agent1"), &[], statuses),
        "403"
    );

    // Revoked with `marionette ca` on the CA's files while the server
    // runs: refused from the next request on, with no restart.
    let revoked = Command::new(env!("CARGO_BIN_EXE_marionette"))
        .args(["ca", "revoke", "--certname", "mrtest-agent1", "--cadir"])
        .arg(dir.join("ca"))
        .output()
        .expect("marionette ca runs");
    assert!(revoked.status.success(), "{}", common::printed(&revoked));
    let refused = agent(dir, server.port, "mrtest-agent1");
    let said = common::printed(&refused);
    assert_eq!(refused.status.code(), Some(1), "{said}");
    assert_eq!(
        curl(dir, server.port, Some("mrtest-agent1"), &[], own),
        "000"
    );
    drop(server);

    // With the server gone, Marionette's agent applies the catalog it
    // cached, with the plugins it synced.
    std::fs::remove_file(ours.join("hello.txt")).unwrap();
    std::fs::remove_file(ours.join("note.txt")).unwrap();
    let cached = marionette_agent();
    let said = common::printed(&cached);
    assert!(
        said.contains("Notice: Using cached catalog from environment 'production'"),
        "{said}"
    );
    assert_eq!(
        std::fs::read_to_string(ours.join("hello.txt")).unwrap_or_default(),
        "hello mrtest-agent3 synced external mrtest_web\n",
        "{said}"
    );
    assert_eq!(
        std::fs::read_to_string(ours.join("note.txt")).unwrap_or_default(),
        "a synced type\n",
        "{said}"
    );
}

/// A PuppetDB query through the server, with the agent's certificate:
/// the status and the body.
fn pdb(dir: &Path, port: u16, as_agent: &str, path: &str, args: &[&str]) -> (String, String) {
    let ssl: PathBuf = dir.join(format!("{as_agent}/ssl"));
    let output = Command::new("curl")
        .args(["-s", "-w", "\n%{http_code}"])
        .arg("--cacert")
        .arg(dir.join("ca/ca_crt.pem"))
        .arg("--cert")
        .arg(ssl.join(format!("certs/{as_agent}.pem")))
        .arg("--key")
        .arg(ssl.join(format!("private_keys/{as_agent}.pem")))
        .args(args)
        .arg(format!("https://localhost:{port}{path}"))
        .output()
        .expect("curl runs");
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    let (body, status) = text.rsplit_once('\n').unwrap_or(("", &text));
    (status.to_string(), body.to_string())
}

fn json_rows(body: &str) -> Vec<serde_json::Value> {
    match serde_json::from_str(body) {
        Ok(serde_json::Value::Array(rows)) => rows,
        _ => panic!("not a list of rows: {body}"),
    }
}

/// The fleet's code: each node exports a member (a defined type, as
/// haproxy's balancer members are) and collects the fleet's into a
/// directory it purges, exports a notify nobody collects, and writes what
/// `puppetdb_query()` finds (the fleet's nodes, in AST and PQL).
fn fleet_environments(dir: &Path) -> PathBuf {
    let environments = dir.join("environments");
    let production = environments.join("production");
    std::fs::create_dir_all(production.join("manifests")).unwrap();
    std::fs::create_dir_all(production.join("modules/mrtest_fleet/manifests")).unwrap();
    std::fs::write(
        production.join("manifests/site.pp"),
        r#"node default {
  file { "${facts['mrtest_srv_dir']}/members":
    ensure  => directory,
    recurse => true,
    purge   => true,
  }
  @@mrtest_fleet::member { $trusted['certname']:
    word => "exported by ${trusted['certname']}",
    tag  => 'mrtest_fleet',
  }
  @@notify { "never collected from ${trusted['certname']}": }
  Mrtest_fleet::Member <<| tag == 'mrtest_fleet' |>>
  $peers = puppetdb_query(['from', 'nodes', ['~', 'certname', '^mrtest-fleet']])
  file { "${facts['mrtest_srv_dir']}/peers":
    content => join(sort($peers.map |$node| { $node['certname'] }), ' '),
  }
  $last = puppetdb_query('nodes[certname] { certname ~ "^mrtest-fleet" order by certname desc limit 1 }')
  file { "${facts['mrtest_srv_dir']}/last":
    content => $last[0]['certname'],
  }
}
"#,
    )
    .unwrap();
    std::fs::write(
        production.join("modules/mrtest_fleet/manifests/member.pp"),
        r#"define mrtest_fleet::member (String $word) {
  file { "${facts['mrtest_srv_dir']}/members/${title}":
    ensure  => file,
    content => "${word}\n",
  }
}
"#,
    )
    .unwrap();
    environments
}

/// Exported resources across a fleet of two stock agents, through
/// `storeconfigs`: each node exports a defined type (as haproxy's
/// balancer members are) and collects the fleet's; what a node exports
/// and nobody collects never reaches an agent; `puppetdb_query()` and
/// PuppetDB's API answer over what was stored; a deactivated node's
/// exports stop being collected.
#[test]
fn storeconfigs_share_exported_resources_across_nodes() {
    require("puppet", "puppet");
    require("curl", "curl");
    let dir = tempfile::Builder::new()
        .prefix("mrtest-storeconfigs")
        .tempdir()
        .expect("a temporary directory");
    let dir = dir.path();
    let environments = fleet_environments(dir);
    let server = start(
        dir,
        &environments,
        &[
            "--storeconfigs".into(),
            "--reports".into(),
            "store,puppetdb".into(),
        ],
    );
    let work = |node: &str| {
        let path = dir.join(format!("{node}-work"));
        std::fs::create_dir_all(&path).unwrap();
        path
    };
    let run = |node: &str| {
        let output = agent_in(dir, server.port, node, &work(node));
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(
            !text.contains("never collected"),
            "an export nobody collects reached the agent:\n{text}"
        );
        (output.status.code(), text)
    };
    let members = |node: &str| common::entry_names(&work(node).join("members"));
    // A run of the node: its exit code, and the members it then has.
    let step = |node: &str, expected: i32, wanted: &[&str]| {
        let (code, text) = run(node);
        assert_eq!(code, Some(expected), "{text}");
        assert_eq!(members(node), wanted, "{text}");
    };
    let peers = |node: &str| std::fs::read_to_string(work(node).join("peers")).unwrap();
    // What a PQL `puppetdb_query()` found: the last node by name.
    let last = |node: &str| std::fs::read_to_string(work(node).join("last")).unwrap();
    step("mrtest-fleet1", 2, &["mrtest-fleet1"]);
    assert_eq!(peers("mrtest-fleet1"), "mrtest-fleet1");
    assert_eq!(last("mrtest-fleet1"), "mrtest-fleet1");
    step("mrtest-fleet2", 2, &["mrtest-fleet1", "mrtest-fleet2"]);
    assert_eq!(
        std::fs::read_to_string(work("mrtest-fleet2").join("members/mrtest-fleet1")).unwrap(),
        "exported by mrtest-fleet1\n"
    );
    step("mrtest-fleet1", 2, &["mrtest-fleet1", "mrtest-fleet2"]);
    // `puppetdb_query()` in the manifest sees the fleet.
    assert_eq!(peers("mrtest-fleet1"), "mrtest-fleet1 mrtest-fleet2");
    assert_eq!(last("mrtest-fleet1"), "mrtest-fleet2");
    // The fleet converged.
    step("mrtest-fleet1", 0, &["mrtest-fleet1", "mrtest-fleet2"]);

    // PuppetDB's API over what was stored.
    let (status, body) = pdb(
        dir,
        server.port,
        "mrtest-fleet1",
        "/pdb/query/v4/resources",
        &["-G", "--data-urlencode", r#"query=["=", "exported", true]"#],
    );
    assert_eq!(status, "200", "{body}");
    let mut exported: Vec<String> = json_rows(&body)
        .iter()
        .map(|r| {
            format!(
                "{} {}[{}]",
                r["certname"].as_str().unwrap(),
                r["type"].as_str().unwrap(),
                r["title"].as_str().unwrap()
            )
        })
        .collect();
    exported.sort();
    assert_eq!(
        exported,
        [
            "mrtest-fleet1 Mrtest_fleet::Member[mrtest-fleet1]",
            "mrtest-fleet1 Notify[never collected from mrtest-fleet1]",
            "mrtest-fleet2 Mrtest_fleet::Member[mrtest-fleet2]",
            "mrtest-fleet2 Notify[never collected from mrtest-fleet2]",
        ]
    );
    let (status, body) = pdb(
        dir,
        server.port,
        "mrtest-fleet1",
        "/pdb/query/v4/nodes",
        &[],
    );
    assert_eq!(status, "200", "{body}");
    let nodes = json_rows(&body);
    assert_eq!(nodes.len(), 2, "{body}");
    assert_eq!(nodes[0]["certname"], "mrtest-fleet1");
    assert_eq!(nodes[0]["latest_report_status"], "unchanged", "{body}");
    assert_eq!(nodes[1]["latest_report_status"], "changed", "{body}");
    // PQL at the root endpoint, by GET and by POST, its own paging first.
    let (status, body) = pdb(
        dir,
        server.port,
        "mrtest-fleet1",
        "/pdb/query/v4",
        &[
            "-G",
            "--data-urlencode",
            "query=nodes[certname, latest_report_status] { facts { name = 'trusted' } order by certname desc }",
            "--data-urlencode",
            "limit=5",
        ],
    );
    assert_eq!(status, "200", "{body}");
    assert_eq!(
        json_rows(&body),
        [
            serde_json::json!({"certname": "mrtest-fleet2", "latest_report_status": "changed"}),
            serde_json::json!({"certname": "mrtest-fleet1", "latest_report_status": "unchanged"}),
        ]
    );
    let (status, body) = pdb(
        dir,
        server.port,
        "mrtest-fleet1",
        "/pdb/query/v4",
        &[
            "-X",
            "POST",
            "-H",
            "Content-Type: application/json",
            "--data",
            r#"{"query": "resources[count()] { exported = true and type = 'Notify' }"}"#,
        ],
    );
    assert_eq!(status, "200", "{body}");
    assert_eq!(json_rows(&body), [serde_json::json!({"count": 2})]);
    let (status, body) = pdb(
        dir,
        server.port,
        "mrtest-fleet1",
        "/pdb/query/v4",
        &["-G", "--data-urlencode", "query=nodes { certname }"],
    );
    assert_eq!(status, "400", "{body}");
    assert!(
        body.contains("PQL parse error at line 1, column 18"),
        "{body}"
    );
    // What Puppetboard and pypuppetdb read beside queries.
    let (status, body) = pdb(
        dir,
        server.port,
        "mrtest-fleet1",
        "/pdb/meta/v1/server-time",
        &[],
    );
    assert_eq!(status, "200", "{body}");
    assert!(body.contains("\"server_time\""), "{body}");
    let (status, body) = pdb(
        dir,
        server.port,
        "mrtest-fleet1",
        "/metrics/v2/read/puppetlabs.puppetdb.population:name=num-nodes",
        &[],
    );
    assert_eq!(status, "200", "{body}");
    let metric: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(metric["value"]["Value"], 2, "{body}");
    assert_eq!(
        curl(
            dir,
            server.port,
            None,
            &[],
            "/metrics/v2/read/puppetlabs.puppetdb.population:name=num-nodes"
        ),
        "403"
    );
    let (status, body) = pdb(
        dir,
        server.port,
        "mrtest-fleet1",
        "/status/v1/services/puppetdb-status",
        &[],
    );
    assert_eq!(status, "200", "{body}");
    let puppetdb: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(puppetdb["state"], "running", "{body}");
    assert_eq!(puppetdb["status"]["read_db_up?"], true, "{body}");
    let (_, body) = pdb(
        dir,
        server.port,
        "mrtest-fleet1",
        "/pdb/query/v4/nodes/mrtest-fleet2/facts/trusted",
        &[],
    );
    let trusted = json_rows(&body);
    assert_eq!(trusted[0]["value"]["certname"], "mrtest-fleet2", "{body}");
    let (_, body) = pdb(
        dir,
        server.port,
        "mrtest-fleet1",
        "/pdb/query/v4/events",
        &[
            "-G",
            "--data-urlencode",
            r#"query=["and", ["=", "certname", "mrtest-fleet2"], ["=", "status", "success"]]"#,
        ],
    );
    let events = json_rows(&body);
    assert!(
        events.iter().any(|e| e["resource_title"]
            .as_str()
            .is_some_and(|t| t.ends_with("/members/mrtest-fleet1"))),
        "{body}"
    );
    // Without a certificate, nothing.
    assert_eq!(
        curl(dir, server.port, None, &[], "/pdb/query/v4/nodes"),
        "403"
    );
    // A bad query is the asker's fault, said as PuppetDB says it.
    let (status, body) = pdb(
        dir,
        server.port,
        "mrtest-fleet1",
        "/pdb/query/v4/nodes",
        &["-G", "--data-urlencode", r#"query=["=", "colour", "red"]"#],
    );
    assert_eq!(status, "400");
    assert!(
        body.contains("'colour' is not a queryable object for nodes"),
        "{body}"
    );

    // Deactivated by its operator (`puppet node deactivate`), a node's
    // exports are no longer collected: the other's purge removes its
    // member.
    let node = |args: &[&str]| {
        let output = Command::new(env!("CARGO_BIN_EXE_marionette"))
            .arg("node")
            .args(args)
            .arg("--vardir")
            .arg(dir.join("server-root/server"))
            .output()
            .unwrap();
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stdout).into_owned(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    };
    let (code, out, err) = node(&["status", "mrtest-fleet2", "mrtest-nobody"]);
    assert_eq!(code, Some(0), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[..2], ["mrtest-fleet2", "Currently active"], "{out}");
    assert!(lines[2].starts_with("Last catalog: 20"), "{out}");
    assert!(lines[3].starts_with("Last facts: 20"), "{out}");
    assert_eq!(
        lines[4..],
        ["", "mrtest-nobody", "No information known"],
        "{out}"
    );
    let (code, out, err) = node(&["deactivate", "mrtest-fleet2"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.starts_with("Submitted 'deactivate node' for mrtest-fleet2 with UUID "),
        "{out}"
    );
    let (_, out, _) = node(&["status", "mrtest-fleet2"]);
    assert!(
        out.lines()
            .nth(1)
            .is_some_and(|l| l.starts_with("Deactivated at 20")),
        "{out}"
    );
    let (code, _, err) = node(&["deactivate"]);
    assert_eq!(code, Some(1), "{err}");
    step("mrtest-fleet1", 2, &["mrtest-fleet1"]);
    assert_eq!(peers("mrtest-fleet1"), "mrtest-fleet1");
    let (_, body) = pdb(
        dir,
        server.port,
        "mrtest-fleet1",
        "/pdb/query/v4/nodes",
        &[],
    );
    assert_eq!(json_rows(&body).len(), 1, "{body}");

    // `marionette storage serve`: the same storage, PuppetDB's API alone,
    // to the allowlist's certificates.
    let allowlist = dir.join("allowlist");
    std::fs::write(&allowlist, "mrtest-fleet1\n\n").unwrap();
    let mut serve = Command::new(env!("CARGO_BIN_EXE_marionette"));
    serve
        .args(["storage", "serve", "--bind", "127.0.0.1:0"])
        .args(["--certname", "localhost", "--report-ttl", "3650d"])
        .arg("--certificate-allowlist")
        .arg(&allowlist)
        .arg("--cadir")
        .arg(dir.join("ca"))
        .arg("--ssldir")
        .arg(dir.join("server-ssl"))
        .arg("--vardir")
        .arg(dir.join("server-root/server"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let storage = launch(serve);
    let (status, body) = pdb(
        dir,
        storage.port,
        "mrtest-fleet1",
        "/pdb/query/v4",
        &["-G", "--data-urlencode", "query=nodes[certname] { }"],
    );
    assert_eq!(status, "200", "{body}");
    assert_eq!(
        json_rows(&body),
        [serde_json::json!({"certname": "mrtest-fleet1"})]
    );
    let (status, _) = pdb(
        dir,
        storage.port,
        "mrtest-fleet2",
        "/pdb/query/v4/nodes",
        &[],
    );
    assert_eq!(status, "403");
    let (status, _) = pdb(
        dir,
        storage.port,
        "mrtest-fleet1",
        "/puppet-ca/v1/certificate/ca",
        &[],
    );
    assert_eq!(status, "404");
    // Without the server's CA, it says so.
    let output = Command::new(env!("CARGO_BIN_EXE_marionette"))
        .args(["storage", "serve", "--bind", "127.0.0.1:0", "--cadir"])
        .arg(dir.join("no-ca"))
        .arg("--vardir")
        .arg(dir.join("server-root/server"))
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("There is no certificate authority in"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// `marionette storage serve` on PostgreSQL: commands are stored there;
/// while the database is down queries are answered 503 and commands wait
/// on disk (answered 200), stored once it is back.
/// The fleet of tests/storage/exports compiled as Debian's puppetserver
/// with PuppetDB compiled it (scripts/puppetdb-record-exports): the nodes
/// in the same order, twice, each keeping its facts and catalog in
/// Marionette's storage and collecting the others' exports from it
/// (puppetlabs-haproxy's balancer members, SSH host keys, monitoring
/// checks and hosts, by tags, titles and parameters, with `and`, `or`,
/// `!=` and parentheses, and overrides). Every catalog must mean what
/// puppetserver's did: the first pass, where a node sees only the nodes
/// compiled before it, and the second, where it sees them all.
#[test]
fn exported_resources_are_collected_as_puppetserver_with_puppetdb_collects_them() {
    let fleet = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/storage/exports");
    let recorded = fleet.join("recorded");
    let nodes = [
        "web01.example.com",
        "db01.example.com",
        "lb01.example.com",
        "mon01.example.com",
        "web02.example.com",
    ];
    let vardir = tempfile::Builder::new()
        .prefix("mrtest-exports")
        .tempdir()
        .unwrap();
    let mut problems = Vec::new();
    for pass in [1, 2] {
        for node in nodes {
            let facts = fleet.join("facts").join(format!("{node}.json"));
            let output = Command::new(env!("CARGO_BIN_EXE_marionette"))
                .current_dir(&fleet)
                .args(["catalog", "compile", "--storeconfigs", "--certname", node])
                .args([
                    "--modulepath",
                    "/usr/share/puppet/modules",
                    "--manifest",
                    "site.pp",
                ])
                .arg("--facts")
                .arg(&facts)
                .arg("--vardir")
                .arg(vardir.path())
                .output()
                .unwrap();
            assert!(
                output.status.success(),
                "pass {pass}, {node}: {}",
                String::from_utf8_lossy(&output.stderr)
            );
            let file = recorded.join(format!("{pass}-{node}.json"));
            let expected: serde_json::Value = serde_json::from_str(
                &std::fs::read_to_string(&file)
                    .unwrap_or_else(|e| panic!("{}: {e}", file.display())),
            )
            .unwrap();
            let actual: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
            for problem in common::meaning::differences(
                &common::meaning::meaning(&expected),
                &common::meaning::meaning(&actual),
            ) {
                problems.push(format!("pass {pass}, {node}: {problem}"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// `marionette storage serve` on the loopback as `localhost`, with a CA
/// of its own under `dir/ca` and a client certificate for
/// `mrtest-client` in `dir/mrtest-client/ssl`; its SQLite under
/// `dir/var` unless `args` say otherwise.
fn serve_storage(dir: &Path, args: &[&str]) -> Running {
    let ca = |args: &[&str]| {
        let output = Command::new(env!("CARGO_BIN_EXE_marionette"))
            .arg("ca")
            .args(args)
            .arg("--cadir")
            .arg(dir.join("ca"))
            .args(["--keylength", "2048"])
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
    };
    ca(&["setup"]);
    ca(&[
        "generate",
        "--certname",
        "mrtest-client",
        "--ssldir",
        &dir.join("mrtest-client/ssl").display().to_string(),
    ]);
    let mut serve = Command::new(env!("CARGO_BIN_EXE_marionette"));
    serve
        .args([
            "storage",
            "serve",
            "--bind",
            "127.0.0.1:0",
            "--certname",
            "localhost",
        ])
        .args(args)
        .arg("--cadir")
        .arg(dir.join("ca"))
        .arg("--ssldir")
        .arg(dir.join("server-ssl"))
        .arg("--vardir")
        .arg(dir.join("var"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    launch(serve)
}

/// Without storage of its own, `marionette node deactivate` submits its
/// command to the PuppetDB that `puppetdb.conf`'s `server_urls` names
/// (here `marionette storage serve`), with this machine's certificate, as
/// `puppet node deactivate` does through its PuppetDB terminus: a server
/// that cannot be reached is skipped for the next, and when none takes the
/// command the node is not said to be deactivated.
#[test]
fn node_deactivate_reaches_the_puppetdb_of_puppetdb_conf() {
    require("curl", "curl");
    let dir = tempfile::Builder::new()
        .prefix("mrtest-remote-deactivate")
        .tempdir()
        .expect("a temporary directory");
    let dir = dir.path();
    let storage = serve_storage(dir, &[]);
    let (status, body) = pdb(
        dir,
        storage.port,
        "mrtest-client",
        "/pdb/cmd/v1?command=replace_facts&version=5&certname=mrtest-remote1",
        &[
            "-X",
            "POST",
            "-H",
            "Content-Type: application/json",
            "--data",
            &serde_json::json!({
                "certname": "mrtest-remote1",
                "environment": "production",
                "producer_timestamp": "2026-11-30T00:00:00.000Z",
                "producer": "mrtest",
                "values": {"kernel": "Linux"},
            })
            .to_string(),
        ],
    );
    assert_eq!(status, "200", "{body}");
    let deactivate = |urls: &str| {
        let conf = dir.join("conf");
        std::fs::create_dir_all(&conf).unwrap();
        std::fs::write(
            conf.join("puppetdb.conf"),
            format!("[main]\nserver_urls = {urls}\nsoft_write_failure = false\n"),
        )
        .unwrap();
        Command::new(env!("CARGO_BIN_EXE_marionette"))
            .args(["node", "deactivate", "mrtest-remote1"])
            .args(["--certname", "mrtest-client"])
            .arg("--confdir")
            .arg(&conf)
            .arg("--ssldir")
            .arg(dir.join("mrtest-client/ssl"))
            .arg("--vardir")
            .arg(dir.join("client-var"))
            .output()
            .unwrap()
    };
    let output = deactivate(&format!(
        "https://localhost:1,https://localhost:{}/",
        storage.port
    ));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let uuid = stdout
        .trim()
        .strip_prefix("Submitted 'deactivate node' for mrtest-remote1 with UUID ")
        .unwrap_or_else(|| panic!("{stdout}"));
    assert_eq!(uuid.len(), 36, "{stdout}");
    let (status, body) = pdb(
        dir,
        storage.port,
        "mrtest-client",
        "/pdb/query/v4",
        &[
            "-G",
            "--data-urlencode",
            "query=nodes[certname, deactivated] { node_state = \"any\" }",
        ],
    );
    assert_eq!(status, "200", "{body}");
    let nodes: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert!(
        nodes[0]["deactivated"].is_string(),
        "not deactivated: {body}"
    );
    // No server takes it: an error, and nothing said to be done.
    let output = deactivate("https://localhost:1");
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("Could not deactivate mrtest-remote1: https://localhost:1: "),
        "{stderr}"
    );
}

#[test]
fn storage_serve_on_postgresql_keeps_commands_while_it_is_down() {
    require("curl", "curl");
    let cluster = cluster::Cluster::start();
    let dir = tempfile::Builder::new()
        .prefix("mrtest-storage-pg")
        .tempdir()
        .expect("a temporary directory");
    let dir = dir.path();
    let storage = serve_storage(dir, &["--storage-url", &cluster.url()]);
    let command = |node: &str| {
        pdb(
            dir,
            storage.port,
            "mrtest-client",
            &format!("/pdb/cmd/v1?command=replace_facts&version=5&certname={node}"),
            &[
                "-X",
                "POST",
                "-H",
                "Content-Type: application/json",
                "--data",
                &serde_json::json!({
                    "certname": node,
                    "environment": "production",
                    "producer_timestamp": "2026-11-29T00:00:00.000Z",
                    "producer": "mrtest",
                    "values": {"kernel": "Linux"},
                })
                .to_string(),
            ],
        )
    };
    let nodes = || {
        pdb(
            dir,
            storage.port,
            "mrtest-client",
            "/pdb/query/v4",
            &[
                "-G",
                "--data-urlencode",
                "query=nodes[certname] { order by certname }",
            ],
        )
    };
    let (status, body) = command("mrtest-pg1");
    assert_eq!(status, "200", "{body}");
    let (status, body) = nodes();
    assert_eq!(
        (status.as_str(), body.as_str()),
        ("200", r#"[{"certname":"mrtest-pg1"}]"#)
    );
    cluster.stop();
    let (status, body) = nodes();
    assert_eq!(status, "503", "{body}");
    assert!(body.contains("unavailable"), "{body}");
    let (status, body) = command("mrtest-pg2");
    assert_eq!(status, "200", "queued: {body}");
    let (code, body) = pdb(
        dir,
        storage.port,
        "mrtest-client",
        "/status/v1/services/puppetdb-status",
        &[],
    );
    let status: serde_json::Value =
        serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {code} {body:?}"));
    assert_eq!(status["status"]["queue_depth"], 1, "{body}");
    assert_eq!(status["status"]["read_db_up?"], false, "{body}");
    cluster.start_again();
    // The queue is drained within seconds of the database's return.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let (status, body) = nodes();
        if status == "200" && body.contains("mrtest-pg2") {
            assert_eq!(
                body,
                r#"[{"certname":"mrtest-pg1"},{"certname":"mrtest-pg2"}]"#
            );
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the queued command was never stored: {status} {body}"
        );
        std::thread::sleep(std::time::Duration::from_millis(500));
    }
}

/// CPU time a process has used, in clock ticks (user and system).
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // The fields after the command's name, which may hold blanks.
    let rest = &stat[stat.rfind(')').unwrap() + 2..];
    let fields: Vec<&str> = rest.split(' ').collect();
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

/// Out of descriptors, the server waits for connections to end instead of
/// spinning on accept, says so once, and serves again when they end.
#[test]
fn a_server_out_of_descriptors_waits_instead_of_spinning() {
    require("curl", "curl");
    let dir = tempfile::Builder::new()
        .prefix("mrtest-server-fds")
        .tempdir()
        .unwrap();
    let dir = dir.path();
    let environments = dir.join("environments");
    std::fs::create_dir_all(environments.join("production/manifests")).unwrap();
    let log = dir.join("server.log");
    let more = [
        OsString::from("--max-connections"),
        OsString::from("1000"),
        OsString::from("--logdest"),
        log.clone().into_os_string(),
    ];
    let mut command = server_command(dir, &environments, &more);
    // 64 descriptors, soft and hard, so the server cannot raise them.
    unsafe {
        use std::os::unix::process::CommandExt;
        command.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 64,
                rlim_max: 64,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) == 0 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        });
    }
    let server = launch(command);
    let address = format!("127.0.0.1:{}", server.port);
    let held: Vec<std::net::TcpStream> = (0..120)
        .map(|_| std::net::TcpStream::connect(&address).unwrap())
        .collect();
    std::thread::sleep(std::time::Duration::from_millis(500));
    let before = cpu_ticks(server.child.id());
    std::thread::sleep(std::time::Duration::from_secs(2));
    let used = cpu_ticks(server.child.id()) - before;
    // Spinning costs the whole two seconds (200 ticks); waiting, nothing.
    assert!(used < 40, "{used} ticks of CPU in 2 s");
    drop(held);
    let status = (0..50)
        .map(|_| {
            std::thread::sleep(std::time::Duration::from_millis(100));
            curl(dir, server.port, None, &[], "/status/v1/simple")
        })
        .find(|code| code == "200");
    assert_eq!(status.as_deref(), Some("200"));
    let said = std::fs::read_to_string(&log).unwrap();
    assert_eq!(
        said.matches("Could not accept a connection (Too many open files")
            .count(),
        1,
        "{said}"
    );
    assert!(said.contains("Accepting connections again"), "{said}");
}

/// A server that stalls, as Python's TLS server acting on Marionette's
/// server certificate: `blackhole` never finishes the handshake, `head`
/// reads the request and never answers, `body` answers a head and part
/// of its body. Prints its port.
const STALLING_SERVER: &str = r#"
import socket, ssl, sys, time
mode, cert, key = sys.argv[1:4]
listener = socket.socket()
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("127.0.0.1", 0))
listener.listen(8)
print(listener.getsockname()[1], flush=True)
if mode == "blackhole":
    time.sleep(300)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(cert, key)
held = []
while True:
    conn, _ = listener.accept()
    tls = context.wrap_socket(conn, server_side=True)
    tls.recv(65536)
    if mode == "body":
        tls.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"name\":")
    held.append(tls)
"#;

/// A command's output, or a failure when it runs past `limit`.
fn output_within(mut command: Command, limit: std::time::Duration) -> Output {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the command starts");
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > limit {
            let _ = child.kill();
            let said = common::printed(&child.wait_with_output().unwrap());
            panic!("still running after {limit:?}: {said}");
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    child.wait_with_output().unwrap()
}

/// Marionette's agent against a server that stalls before connecting,
/// before its answer's head or inside its body: the run times out as
/// Puppet's `http_connect_timeout` and `http_read_timeout` say, and goes
/// on to the catalog it cached.
#[test]
fn an_agent_against_a_stalling_server_uses_its_cached_catalog() {
    require("python3", "python3");
    let dir = tempfile::Builder::new()
        .prefix("mrtest-server-stall")
        .tempdir()
        .unwrap();
    let dir = dir.path();
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    let manifests = dir.join("environments/production/manifests");
    std::fs::create_dir_all(&manifests).unwrap();
    std::fs::write(
        manifests.join("site.pp"),
        format!(
            "file {{ '{}/cached.txt': content => \"from the server\\n\" }}\n",
            out.display()
        ),
    )
    .unwrap();
    // No base modules: the run syncs and resolves nothing but its own.
    std::fs::create_dir_all(dir.join("no-modules")).unwrap();
    let base = [
        OsString::from("--basemodulepath"),
        dir.join("no-modules").into_os_string(),
    ];
    let server = start(dir, &dir.join("environments"), &base);
    let agent = |port: u16| {
        let mut command =
            common::marionette_agent(port, "mrtest-stall", &dir.join("mrtest-stall"), &out);
        command.args(["--http-connect-timeout", "2", "--http-read-timeout", "2s"]);
        command
    };
    let first = output_within(agent(server.port), std::time::Duration::from_secs(120));
    assert_eq!(first.status.code(), Some(2), "{}", common::printed(&first));
    drop(server);
    let ssl = dir.join("server-ssl");
    for (mode, said) in [
        (
            "blackhole",
            "not connected within 2 seconds (http_connect_timeout)",
        ),
        ("head", "within 2 seconds (http_read_timeout)"),
        ("body", "within 2 seconds (http_read_timeout)"),
    ] {
        std::fs::remove_file(out.join("cached.txt")).unwrap();
        let mut stalling = Command::new("python3")
            .args(["-c", STALLING_SERVER, mode])
            .arg(ssl.join("certs/localhost.pem"))
            .arg(ssl.join("private_keys/localhost.pem"))
            .stdout(Stdio::piped())
            .spawn()
            .expect("python3 runs");
        let mut port = String::new();
        BufReader::new(stalling.stdout.take().unwrap())
            .read_line(&mut port)
            .unwrap();
        let port: u16 = port.trim().parse().expect("the stalling server's port");
        let run = output_within(agent(port), std::time::Duration::from_secs(60));
        let _ = stalling.kill();
        let _ = stalling.wait();
        let printed = common::printed(&run);
        assert!(printed.contains(said), "{mode}: {printed}");
        assert!(
            printed.contains("Using cached catalog from environment 'production'"),
            "{mode}: {printed}"
        );
        assert_eq!(
            std::fs::read_to_string(out.join("cached.txt")).unwrap_or_default(),
            "from the server\n",
            "{mode}: {printed}"
        );
    }
}

/// A web server that takes one request and answers 200: its head (lower
/// case) and its body, when it comes within `within`.
fn receive_one(within: std::time::Duration) -> (u16, std::sync::mpsc::Receiver<(String, Vec<u8>)>) {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let (sent, received) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let Ok((mut stream, _)) = listener.accept() else {
            return;
        };
        stream.set_read_timeout(Some(within)).unwrap();
        let mut head = Vec::new();
        let mut byte = [0u8; 1];
        while !head.ends_with(b"\r\n\r\n") {
            if !matches!(stream.read(&mut byte), Ok(1)) {
                return;
            }
            head.push(byte[0]);
        }
        let head = String::from_utf8_lossy(&head).to_lowercase();
        let length: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length:"))
            .map_or(0, |v| v.trim().parse().unwrap_or(0));
        let mut body = vec![0u8; length];
        if stream.read_exact(&mut body).is_err() {
            return;
        }
        let _ = stream.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
        let _ = sent.send((head, body));
    });
    (port, received)
}

#[test]
fn reports_reach_the_log_and_a_web_receiver_that_puppets_ruby_reads() {
    require("puppet", "puppet");
    require("ruby", "ruby");
    let dir = tempfile::Builder::new()
        .prefix("mrtest-server")
        .tempdir()
        .unwrap();
    let dir = dir.path();
    let within = std::time::Duration::from_secs(120);
    let (receiver, received) = receive_one(within);
    let environments =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/server/environments");
    let log = dir.join("server.log");
    let server = start(
        dir,
        &environments,
        &[
            "--reports".into(),
            "store,log,http".into(),
            "--reporturl".into(),
            format!("http://mrtest:secret@127.0.0.1:{receiver}/reports/upload").into(),
            "--logdest".into(),
            log.clone().into_os_string(),
        ],
    );
    std::fs::write(dir.join("hello.txt"), "mrtest old hello\n").unwrap();
    let run = agent(dir, server.port, "mrtest-agent1");
    assert_eq!(run.status.code(), Some(2), "{}", common::printed(&run));
    let (head, body) = received
        .recv_timeout(within)
        .expect("the http report processor posts the report");
    assert!(
        head.starts_with("post /reports/upload http/1.1\r\n"),
        "{head}"
    );
    assert!(
        head.contains("\r\ncontent-type: application/x-yaml\r\n"),
        "{head}"
    );
    // mrtest:secret, from the URL's user information.
    assert!(
        head.contains("\r\nauthorization: basic bxj0zxn0onnly3jlda==\r\n"),
        "{head}"
    );
    let body = String::from_utf8(body).unwrap();
    assert!(
        body.starts_with("--- !ruby/object:Puppet::Transaction::Report\nhost: mrtest-agent1\n"),
        "{body}"
    );
    // Puppet's own Ruby reads it back as the report the agent sent, as a
    // receiver written for Puppet's processor would.
    let posted = dir.join("posted.yaml");
    std::fs::write(&posted, &body).unwrap();
    let read = Command::new("ruby")
        .args([
            "-e",
            "require 'puppet'; r = YAML.unsafe_load_file(ARGV[0]); \
             puts r.class, r.host, r.status, r.resource_statuses.size, r.logs.size, \
             r.metrics['resources']['changed']",
        ])
        .arg(&posted)
        .output()
        .unwrap();
    let read_back = String::from_utf8_lossy(&read.stdout);
    assert!(
        read.status.success(),
        "{read_back}{}",
        String::from_utf8_lossy(&read.stderr)
    );
    let stored_dir = dir.join("server-root/server/reports/mrtest-agent1");
    let stored = std::fs::read_dir(&stored_dir)
        .unwrap()
        .flatten()
        .next()
        .expect("the stored report");
    let stored: serde_json::Value =
        serde_json::from_slice(&std::fs::read(stored.path()).unwrap()).unwrap();
    let changed = stored["metrics"]["resources"]["values"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v[0] == "changed")
        .unwrap()[2]
        .clone();
    assert_eq!(
        read_back.lines().collect::<Vec<_>>(),
        [
            "Puppet::Transaction::Report".to_string(),
            "mrtest-agent1".to_string(),
            stored["status"].as_str().unwrap().to_string(),
            stored["resource_statuses"]
                .as_object()
                .unwrap()
                .len()
                .to_string(),
            stored["logs"].as_array().unwrap().len().to_string(),
            changed.to_string(),
        ]
    );
    // The log processor: each message of the report, under the node.
    let deadline = std::time::Instant::now() + within;
    let logged = loop {
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        if text.contains("//mrtest-agent1/") || std::time::Instant::now() > deadline {
            break text;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    assert!(
        logged
            .lines()
            .any(|l| l.contains(" Notice: //mrtest-agent1/Puppet: Applied catalog in ")),
        "{logged}"
    );
}

/// Static catalogs (`--code-id-command`, `--code-content-command`): a
/// stock agent that asks for one gets its sources' metadata in the catalog
/// and asks for none of it (its requests counted in the access log),
/// fetches a missing file's content at the catalog's code id through
/// `static_file_content`, and asks for nothing of those files once they
/// are in sync, as `marionette agent` does; from an environment whose
/// catalogs are not static, the metadata is asked for as before.
#[test]
fn static_catalogs_spare_the_agent_its_metadata_requests() {
    require("puppet", "puppet");
    let dir = tempfile::Builder::new()
        .prefix("mrtest-static")
        .tempdir()
        .unwrap();
    let dir = dir.path();
    let environments = dir.join("environments");
    let module = environments.join("production/modules/mrtest_static/files");
    std::fs::create_dir_all(module.join("tree/sub")).unwrap();
    std::fs::create_dir_all(environments.join("production/manifests")).unwrap();
    std::fs::write(module.join("one.txt"), "one\n").unwrap();
    std::fs::write(module.join("tree/a.txt"), "a\n").unwrap();
    std::fs::write(module.join("tree/sub/b.txt"), "b\n").unwrap();
    std::fs::write(
        environments.join("production/manifests/site.pp"),
        "node default {\n  $dir = $facts['mrtest_srv_dir']\n  \
         file { \"${dir}/one.txt\": source => 'puppet:///modules/mrtest_static/one.txt' }\n  \
         file { \"${dir}/tree\": source => 'puppet:///modules/mrtest_static/tree', recurse => true }\n}\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    let script = |name: &str, text: String| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    };
    let code_id = script("code-id", "#!/bin/sh\necho mrtest-code-1\n".into());
    let content = script(
        "code-content",
        format!(
            "#!/bin/sh\n[ \"$2\" = mrtest-code-1 ] || exit 3\nexec cat \"{}/$1/$3\"\n",
            environments.display()
        ),
    );
    let log = dir.join("access.log");
    let server = start(
        dir,
        &environments,
        &[
            "--access-log".into(),
            log.clone().into_os_string(),
            "--code-id-command".into(),
            code_id.into_os_string(),
            "--code-content-command".into(),
            content.into_os_string(),
        ],
    );
    let requests = |certname: &str, kind: &str| {
        std::fs::read_to_string(&log)
            .unwrap_or_default()
            .lines()
            .filter(|l| l.contains(certname) && l.contains(kind) && l.contains("mrtest_static"))
            .count()
    };

    let work = dir.join("static");
    std::fs::create_dir(&work).unwrap();
    let first = agent_in(dir, server.port, "mrtest-static", &work);
    let said = common::printed(&first);
    assert_eq!(first.status.code(), Some(2), "{said}");
    assert_eq!(
        std::fs::read_to_string(work.join("one.txt")).unwrap(),
        "one\n"
    );
    assert_eq!(
        std::fs::read_to_string(work.join("tree/a.txt")).unwrap(),
        "a\n"
    );
    assert_eq!(
        std::fs::read_to_string(work.join("tree/sub/b.txt")).unwrap(),
        "b\n"
    );
    assert_eq!(requests("mrtest-static", "/file_metadata"), 0, "{said}");
    assert_eq!(
        requests("mrtest-static", "/static_file_content/"),
        3,
        "{said}"
    );
    assert_eq!(requests("mrtest-static", "/file_content/"), 0, "{said}");

    let second = agent_in(dir, server.port, "mrtest-static", &work);
    assert_eq!(
        second.status.code(),
        Some(0),
        "{}",
        common::printed(&second)
    );
    assert_eq!(requests("mrtest-static", "/file_metadata"), 0);
    assert_eq!(requests("mrtest-static", "/static_file_content/"), 3);

    // Ours does the same.
    let ours = dir.join("ours");
    std::fs::create_dir(&ours).unwrap();
    let run_ours = || {
        common::marionette_agent(server.port, "mrtest-ours", &dir.join("mrtest-ours"), &ours)
            .output()
            .expect("marionette agent runs")
    };
    let first = run_ours();
    assert_eq!(first.status.code(), Some(2), "{}", common::printed(&first));
    assert_eq!(
        std::fs::read_to_string(ours.join("tree/sub/b.txt")).unwrap(),
        "b\n"
    );
    assert_eq!(
        std::fs::read_to_string(ours.join("one.txt")).unwrap(),
        "one\n"
    );
    assert_eq!(requests("mrtest-ours", "/file_metadata"), 0);
    assert_eq!(requests("mrtest-ours", "/static_file_content/"), 3);
    let second = run_ours();
    assert_eq!(
        second.status.code(),
        Some(0),
        "{}",
        common::printed(&second)
    );
    assert_eq!(requests("mrtest-ours", "/file_metadata"), 0);
    assert_eq!(requests("mrtest-ours", "/static_file_content/"), 3);

    // From an environment whose catalogs are not static
    // (environment.conf's static_catalogs), the agent asks for the
    // metadata.
    let plain = dir.join("plain");
    std::fs::create_dir(&plain).unwrap();
    let other = environments.join("mrtest_plain");
    std::fs::create_dir_all(other.join("manifests")).unwrap();
    std::fs::copy(
        environments.join("production/manifests/site.pp"),
        other.join("manifests/site.pp"),
    )
    .unwrap();
    std::os::unix::fs::symlink(
        environments.join("production/modules"),
        other.join("modules"),
    )
    .unwrap();
    std::fs::write(other.join("environment.conf"), "static_catalogs = false\n").unwrap();
    let output = agent_with(
        dir,
        server.port,
        "mrtest-plain",
        &plain,
        &["--environment", "mrtest_plain"],
    );
    assert_eq!(
        output.status.code(),
        Some(2),
        "{}",
        common::printed(&output)
    );
    assert_eq!(
        std::fs::read_to_string(plain.join("tree/sub/b.txt")).unwrap(),
        "b\n"
    );
    assert!(
        requests("mrtest-plain", "/file_metadata") >= 2,
        "{}",
        std::fs::read_to_string(&log)
            .unwrap_or_default()
            .lines()
            .filter(|l| l.contains("mrtest-plain") && !l.contains("/plugins"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert_eq!(requests("mrtest-plain", "/static_file_content/"), 0);

    // The catalog itself, as the agent asked for it.
    let (status, body) = pdb(
        dir,
        server.port,
        "mrtest-static",
        "/puppet/v3/catalog/mrtest-static?environment=production&static_catalog=true&checksum_type=sha256.md5",
        &[],
    );
    assert_eq!(status, "200", "{body}");
    let catalog: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(catalog["code_id"], "mrtest-code-1");
    let one = catalog["metadata"]
        .as_object()
        .and_then(|m| m.values().next())
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        one["content_uri"], "puppet:///modules/mrtest_static/files/one.txt",
        "{body}"
    );
    assert_eq!(
        one["source"], "puppet:///modules/mrtest_static/one.txt",
        "{body}"
    );
    assert_eq!(
        one["checksum"]["value"],
        "{sha256}2c8b08da5ce60398e1f19af0e5dccc744df274b826abe585eaba68c525434806",
        "{body}"
    );
    let tree = catalog["recursive_metadata"]
        .as_object()
        .and_then(|m| m.values().next())
        .and_then(|sources| sources.get("puppet:///modules/mrtest_static/tree"))
        .and_then(serde_json::Value::as_array)
        .cloned()
        .unwrap_or_default();
    let uris: std::collections::BTreeSet<&str> = tree
        .iter()
        .filter_map(|e| e["content_uri"].as_str())
        .collect();
    assert_eq!(
        uris,
        [
            "puppet:///modules/mrtest_static/files/tree",
            "puppet:///modules/mrtest_static/files/tree/a.txt",
            "puppet:///modules/mrtest_static/files/tree/sub",
            "puppet:///modules/mrtest_static/files/tree/sub/b.txt",
        ]
        .into(),
        "{body}"
    );
    // A version the content command refuses is not served.
    let (status, _) = pdb(
        dir,
        server.port,
        "mrtest-static",
        "/puppet/v3/static_file_content/modules/mrtest_static/files/one.txt?environment=production&code_id=mrtest-code-0",
        &[],
    );
    assert_eq!(status, "500");
    let (status, body) = pdb(
        dir,
        server.port,
        "mrtest-static",
        "/puppet/v3/static_file_content/modules/../../one.txt?environment=production&code_id=mrtest-code-1",
        &["--path-as-is"],
    );
    assert_eq!(status, "403", "{body}");

    // The environment's modules, as Foreman reads them.
    std::fs::write(
        module.parent().unwrap().join("metadata.json"),
        r#"{"name": "mrtest-static", "version": "1.2.3"}"#,
    )
    .unwrap();
    let (status, body) = pdb(
        dir,
        server.port,
        "mrtest-static",
        "/puppet/v3/environment_modules?environment=production",
        &[],
    );
    assert_eq!(status, "200", "{body}");
    let listed: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(listed["name"], "production");
    assert!(
        listed["modules"]
            .as_array()
            .unwrap()
            .contains(&serde_json::json!({"name": "mrtest/static", "version": "1.2.3"})),
        "{body}"
    );
    let (status, _) = pdb(
        dir,
        server.port,
        "mrtest-static",
        "/puppet/v3/environment_modules?environment=mrtest_none",
        &[],
    );
    assert_eq!(status, "404");
    let (status, body) = pdb(
        dir,
        server.port,
        "mrtest-static",
        "/puppet/v3/environment_modules",
        &[],
    );
    assert_eq!(status, "200", "{body}");
    assert!(body.starts_with("[{"), "{body}");
}

/// The server's logs sent to syslog reach a real syslog daemon (rsyslog,
/// on a socket of the test's own) and are filed as operators expect: each
/// under its own program name, the server's lines with their level, the
/// access lines as `daemon.info`, the CA's audit lines as
/// `authpriv.notice`, all with the server's process id.
#[test]
fn the_server_logs_reach_a_real_syslog() {
    require("rsyslogd", "rsyslog");
    require("puppet", "puppet");
    let dir = tempfile::Builder::new()
        .prefix("mrtest-rsyslog")
        .tempdir()
        .unwrap();
    let dir = dir.path();
    let socket = dir.join("log");
    let out = dir.join("syslog.out");
    std::fs::write(
        dir.join("rsyslog.conf"),
        format!(
            "global(workDirectory=\"{dir}\")\n\
             module(load=\"imuxsock\" SysSock.Use=\"off\")\n\
             input(type=\"imuxsock\" Socket=\"{socket}\")\n\
             template(name=\"mrtest\" type=\"string\" string=\"%programname%|%procid%|%syslogfacility-text%|%syslogseverity-text%|%msg%\\n\")\n\
             *.* action(type=\"omfile\" file=\"{out}\" template=\"mrtest\")\n",
            dir = dir.display(),
            socket = socket.display(),
            out = out.display()
        ),
    )
    .unwrap();
    let mut rsyslog = Command::new("rsyslogd")
        .args(["-n", "-f"])
        .arg(dir.join("rsyslog.conf"))
        .arg("-i")
        .arg(dir.join("rsyslogd.pid"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("rsyslogd starts");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !socket.exists() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(socket.exists(), "rsyslogd made no socket");

    let environments =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/server/environments");
    let target = format!("syslog:{}", socket.display());
    let server = start(
        dir,
        &environments,
        &[
            "--logdest".into(),
            target.clone().into(),
            "--access-log".into(),
            target.clone().into(),
            "--audit-log".into(),
            target.into(),
        ],
    );
    let pid = server.child.id().to_string();
    std::fs::write(dir.join("hello.txt"), "mrtest old hello\n").unwrap();
    let run = agent(dir, server.port, "mrtest-syslog");
    assert_eq!(run.status.code(), Some(2), "{}", common::printed(&run));
    drop(server);

    // rsyslog writes what it received within moments.
    let wanted = [
        "marionette-server-audit|{pid}|authpriv|notice| CA: an agent without a certificate from 127.0.0.1 autosigned mrtest-syslog",
        "marionette-server|{pid}|daemon|notice| Compiled catalog for mrtest-syslog in ",
        "marionette-server-access|{pid}|daemon|info| 127.0.0.1 - mrtest-syslog [",
    ];
    let found = |text: &str| {
        wanted.iter().all(|w| {
            text.lines()
                .any(|l| l.starts_with(&w.replace("{pid}", &pid)))
        })
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let mut text = String::new();
    while std::time::Instant::now() < deadline {
        text = std::fs::read_to_string(&out).unwrap_or_default();
        if found(&text) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let _ = rsyslog.kill();
    let said = rsyslog
        .wait_with_output()
        .map(|o| String::from_utf8_lossy(&o.stderr).into_owned())
        .unwrap_or_default();
    assert!(found(&text), "{text}\nrsyslogd said: {said}");
    assert!(
        text.lines()
            .any(|l| l.contains(" \"POST /puppet/v3/catalog/mrtest-syslog?")
                && l.starts_with("marionette-server-access|")),
        "{text}"
    );
}

/// Two servers behind HAProxy (Debian's, in TCP mode, checking each
/// server's health over TLS), one certificate authority and one PostgreSQL
/// storage: stock agents served by either see the same exported
/// resources. HAProxy's runtime API takes one server out at a time, so
/// which server serves each run is known: what nodes exported through the
/// first is collected through the second, and certificates signed by one
/// are trusted by the other.
#[test]
fn two_servers_behind_haproxy_share_exports_and_certificates() {
    require("haproxy", "haproxy");
    require("puppet", "puppet");
    let cluster = cluster::Cluster::start();
    let dir = tempfile::Builder::new()
        .prefix("mrtest-haproxy")
        .tempdir()
        .expect("a temporary directory");
    let dir = dir.path();
    let environments = fleet_environments(dir);
    // Each server under its own directory (vardir, access log); the CA
    // and the server's certificate are the first one's, shared.
    let (one, two) = (dir.join("one"), dir.join("two"));
    std::fs::create_dir_all(&one).unwrap();
    std::fs::create_dir_all(&two).unwrap();
    let server = |base: &Path| {
        launch(server_command(
            base,
            &environments,
            &[
                "--storeconfigs".into(),
                "--storage-url".into(),
                cluster.url().into(),
                "--reports".into(),
                "store,puppetdb".into(),
                "--access-log".into(),
                base.join("access.log").into_os_string(),
            ],
        ))
    };
    let first = server(&one);
    std::os::unix::fs::symlink(one.join("ca"), two.join("ca")).unwrap();
    std::os::unix::fs::symlink(one.join("server-ssl"), two.join("server-ssl")).unwrap();
    let second = server(&two);

    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .unwrap();
    let socket = dir.join("haproxy.sock");
    std::fs::write(
        dir.join("haproxy.cfg"),
        format!(
            "global\n  stats socket {socket} mode 600 level admin\n\
             defaults\n  mode tcp\n  timeout connect 5s\n  timeout client 120s\n  timeout server 120s\n\
             frontend puppet\n  bind 127.0.0.1:{port}\n  default_backend servers\n\
             backend servers\n  balance roundrobin\n  option httpchk GET /status/v1/simple\n\
             \x20 server one 127.0.0.1:{one} check check-ssl verify none inter 500\n\
             \x20 server two 127.0.0.1:{two} check check-ssl verify none inter 500\n",
            socket = socket.display(),
            one = first.port,
            two = second.port,
        ),
    )
    .unwrap();
    let haproxy = Running {
        child: Command::new("haproxy")
            .args(["-db", "-f"])
            .arg(dir.join("haproxy.cfg"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("haproxy starts"),
        port,
    };
    // HAProxy's runtime API: `disable server servers/one`, ....
    let tell = |command: &str| {
        use std::io::{Read, Write};
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        let mut stream = loop {
            match std::os::unix::net::UnixStream::connect(&socket) {
                Ok(stream) => break stream,
                Err(e) if std::time::Instant::now() > deadline => panic!("haproxy's socket: {e}"),
                Err(_) => std::thread::sleep(std::time::Duration::from_millis(50)),
            }
        };
        stream.write_all(format!("{command}\n").as_bytes()).unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        assert!(answer.trim().is_empty(), "{command}: {answer}");
    };
    // Both servers up, as HAProxy's checks over TLS find them.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        use std::io::{Read, Write};
        let mut stream = loop {
            if let Ok(stream) = std::os::unix::net::UnixStream::connect(&socket) {
                break stream;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        };
        stream.write_all(b"show servers state servers\n").unwrap();
        let mut state = String::new();
        stream.read_to_string(&mut state).unwrap();
        // The fields after the names: srv_op_state 2 is running.
        let up = state
            .lines()
            .filter(|l| l.split_whitespace().nth(5) == Some("2"))
            .count();
        if up == 2 {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "HAProxy's checks: {state}"
        );
        std::thread::sleep(std::time::Duration::from_millis(200));
    }

    let work = |node: &str| {
        let path = dir.join(format!("{node}-work"));
        std::fs::create_dir_all(&path).unwrap();
        path
    };
    let step = |node: &str, expected: i32, wanted: &[&str]| {
        let output = agent_in(dir, haproxy.port, node, &work(node));
        let said = common::printed(&output);
        assert_eq!(output.status.code(), Some(expected), "{said}");
        assert_eq!(
            common::entry_names(&work(node).join("members")),
            wanted,
            "{said}"
        );
    };
    // Catalogs each server compiled for `node`.
    let compiled = |base: &Path, node: &str| {
        std::fs::read_to_string(base.join("access.log"))
            .unwrap_or_default()
            .lines()
            .filter(|l| l.contains(&format!("\"POST /puppet/v3/catalog/{node}?")))
            .count()
    };

    // The first server alone: two nodes get their certificates and
    // export through it.
    tell("disable server servers/two");
    step("mrtest-fleet1", 2, &["mrtest-fleet1"]);
    step("mrtest-fleet2", 2, &["mrtest-fleet1", "mrtest-fleet2"]);
    assert_eq!(compiled(&one, "mrtest-fleet2"), 1);
    assert_eq!(compiled(&two, "mrtest-fleet2"), 0);

    // The second alone: it trusts the certificates the first signed and
    // collects what was exported through the first.
    tell("enable server servers/two");
    tell("disable server servers/one");
    step("mrtest-fleet1", 2, &["mrtest-fleet1", "mrtest-fleet2"]);
    assert_eq!(compiled(&two, "mrtest-fleet1"), 1);
    assert_eq!(compiled(&one, "mrtest-fleet1"), 1);
    assert_eq!(
        std::fs::read_to_string(work("mrtest-fleet1").join("peers")).unwrap(),
        "mrtest-fleet1 mrtest-fleet2"
    );
    // A third node, signed and stored through the second.
    step(
        "mrtest-fleet3",
        2,
        &["mrtest-fleet1", "mrtest-fleet2", "mrtest-fleet3"],
    );

    // The first again: it sees the third's export, and the fleet
    // converges whichever server each run reaches.
    tell("enable server servers/one");
    tell("disable server servers/two");
    step(
        "mrtest-fleet2",
        2,
        &["mrtest-fleet1", "mrtest-fleet2", "mrtest-fleet3"],
    );
    assert_eq!(compiled(&one, "mrtest-fleet2"), 2);
    tell("enable server servers/two");
    let all = ["mrtest-fleet1", "mrtest-fleet2", "mrtest-fleet3"];
    // The first node had not seen the third's member.
    step("mrtest-fleet1", 2, &all);
    for node in all {
        step(node, 0, &all);
    }
}

/// What differs from puppetserver's recorded answers, on purpose: the
/// record's name, the status or content type Marionette answers instead,
/// and why.
const OPERATOR_DIFFERENCES: &[(&str, u16, &str, &str)] = &[
    (
        "environment-classes-quoted-etag",
        304,
        "",
        "an entity tag sent back quoted, as HTTP writes them, is understood; puppetserver \
         compares the header's text with the unquoted tag it sent",
    ),
    (
        "admin-unknown",
        404,
        "text/plain",
        "puppetserver's web server answers an unknown path with an HTML page saying Not Found",
    ),
];

/// The operators' endpoints answer as puppetserver's do, request by
/// request, as scripts/puppetserver-record-endpoints recorded Debian's
/// puppetserver 7 (tests/server/puppetserver/endpoints.json), for the
/// classes fixture's environment: the status service at each level and
/// for one service, its errors, the admin API for an administrator and a
/// node, and `environment_classes` and `environment_modules` with their
/// errors. Each answer has the recorded status, content type, `ETag` and
/// `Allow` headers and texts; JSON bodies have the recorded shape (every
/// key puppetserver gives, with a value of the same type; Marionette's
/// own keys may come beside them), and the classes of the environment's
/// files are puppetserver's, value for value.
#[test]
fn operator_endpoints_answer_as_puppetserver_does() {
    require("curl", "curl");
    let dir = tempfile::Builder::new()
        .prefix("mrtest-operator")
        .tempdir()
        .unwrap();
    let dir = dir.path();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/server/classes")
        .canonicalize()
        .unwrap();
    let recorded: Vec<serde_json::Value> = serde_json::from_str(
        &std::fs::read_to_string(fixture.join("../puppetserver/endpoints.json")).unwrap(),
    )
    .unwrap();
    let server = start(
        dir,
        &fixture.join("environments"),
        &[
            "--basemodulepath".into(),
            dir.join("none").into_os_string(),
            "--ca-admins".into(),
            "mrtest-admin".into(),
        ],
    );
    for name in ["mrtest-node", "mrtest-admin"] {
        let made = Command::new(env!("CARGO_BIN_EXE_marionette"))
            .args(["ca", "--keylength", "2048", "--cadir"])
            .arg(dir.join("ca"))
            .args(["generate", "--certname", name, "--ssldir"])
            .arg(dir.join(format!("{name}/ssl")))
            .output()
            .unwrap();
        assert!(made.status.success(), "{}", common::printed(&made));
    }
    let shown_dir = fixture.display().to_string();
    let mut tag = String::new();
    let mut problems = Vec::new();
    for record in &recorded {
        let name = record["name"].as_str().unwrap();
        let who = match record["as"].as_str().unwrap() {
            "admin" => "mrtest-admin",
            _ => "mrtest-node",
        };
        let mut headers = Vec::new();
        if let Some(sent) = record["request_headers"].as_object() {
            for (header, value) in sent {
                headers.push(format!(
                    "{header}: {}",
                    value.as_str().unwrap().replace("{etag}", &tag)
                ));
            }
        }
        let answer = ask(
            dir,
            server.port,
            who,
            record["method"].as_str().unwrap(),
            record["path"].as_str().unwrap(),
            &headers,
        );
        if name == "environment-classes" {
            tag = answer.header("etag").unwrap_or_default().to_string();
        }
        let (status, content_type) = match OPERATOR_DIFFERENCES.iter().find(|d| d.0 == name) {
            Some(&(_, status, content_type, _)) => (
                status,
                (!content_type.is_empty()).then_some(content_type.to_string()),
            ),
            None => (
                record["status"].as_u64().unwrap() as u16,
                record["content_type"].as_str().map(str::to_string),
            ),
        };
        let said = format!("{name}: {answer:?}");
        if answer.status != status {
            problems.push(format!(
                "status {} where {status} was wanted; {said}",
                answer.status
            ));
            continue;
        }
        let media = |text: &str| {
            text.split(';')
                .next()
                .unwrap_or_default()
                .trim()
                .to_lowercase()
        };
        if let Some(wanted) = &content_type
            && answer.header("content-type").map(media) != Some(media(wanted))
        {
            problems.push(format!("content type is not {wanted}; {said}"));
        }
        let recorded_headers = record["headers"].as_object().cloned().unwrap_or_default();
        if recorded_headers.contains_key("etag") != answer.header("etag").is_some() {
            problems.push(format!(
                "an ETag where puppetserver has none, or none where it has one; {said}"
            ));
        }
        if let Some(allow) = recorded_headers.get("allow")
            && answer.header("allow") != allow.as_str()
        {
            problems.push(format!("Allow is not {allow}; {said}"));
        }
        let body = answer.body.replace(&shown_dir, "{dir}");
        let known = OPERATOR_DIFFERENCES.iter().any(|d| d.0 == name);
        match &record["body"] {
            // Answered otherwise on purpose: the status and content type
            // are those listed.
            _ if known => {}
            serde_json::Value::String(text) if record["status"] != 304 => {
                if body != *text {
                    problems.push(format!("the text is not {text:?}; {said}"));
                }
            }
            serde_json::Value::String(_) => {}
            theirs => match serde_json::from_str::<serde_json::Value>(&body) {
                // The classes of each file, value for value.
                Ok(ours) if name.starts_with("environment-classes") => {
                    if ours != *theirs {
                        problems.push(format!(
                            "{name}: {ours:#} where puppetserver has {theirs:#}"
                        ));
                    }
                }
                Ok(ours) => shape(theirs, &ours, name, &mut problems),
                Err(e) => problems.push(format!("not JSON ({e}); {said}")),
            },
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// One answer: its status, headers (names lowercased) and body.
#[derive(Debug)]
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// `method path` asked of the server as `as_agent` (whose certificate is
/// under `dir/AS_AGENT/ssl`), with more headers.
fn ask(
    dir: &Path,
    port: u16,
    as_agent: &str,
    method: &str,
    path: &str,
    headers: &[String],
) -> Answer {
    let ssl: PathBuf = dir.join(format!("{as_agent}/ssl"));
    let mut command = Command::new("curl");
    command
        .args(["-s", "-i", "-X", method])
        .arg("--cacert")
        .arg(dir.join("ca/ca_crt.pem"))
        .arg("--cert")
        .arg(ssl.join(format!("certs/{as_agent}.pem")))
        .arg("--key")
        .arg(ssl.join(format!("private_keys/{as_agent}.pem")));
    for header in headers {
        command.args(["-H", header]);
    }
    let output = command
        .arg(format!("https://localhost:{port}{path}"))
        .output()
        .expect("curl runs");
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no answer to {method} {path}: {text}"));
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_lowercase(), v.trim().to_string()))
        .collect();
    Answer {
        status,
        headers,
        body: body.to_string(),
    }
}

/// Whether `ours` has `theirs`'s shape: every key of their objects, with
/// values of the same JSON type (numbers alike, whole or not), and their
/// lists' first element's shape in each of ours. Maps keyed by the JVM's
/// own names (memory pools, collectors, buffer pools) are compared as maps
/// alone.
fn shape(
    theirs: &serde_json::Value,
    ours: &serde_json::Value,
    at: &str,
    problems: &mut Vec<String>,
) {
    use serde_json::Value;
    const KEYED_BY_JVM: [&str; 3] = ["memory-pools", "gc-stats", "nio-buffer-pools"];
    match (theirs, ours) {
        (Value::Object(theirs), Value::Object(ours)) => {
            if KEYED_BY_JVM
                .iter()
                .any(|key| at.ends_with(&format!(".{key}")))
            {
                return;
            }
            for (key, value) in theirs {
                match ours.get(key) {
                    Some(mine) => shape(value, mine, &format!("{at}.{key}"), problems),
                    None => problems.push(format!("{at}: no key {key}")),
                }
            }
        }
        (Value::Array(theirs), Value::Array(ours)) => {
            if let Some(first) = theirs.first() {
                for (i, mine) in ours.iter().enumerate() {
                    shape(first, mine, &format!("{at}[{i}]"), problems);
                }
            }
        }
        (Value::Number(_), Value::Number(_))
        | (Value::String(_), Value::String(_))
        | (Value::Bool(_), Value::Bool(_))
        | (Value::Null, Value::Null) => {}
        (theirs, ours) => problems.push(format!("{at}: {ours} where puppetserver has {theirs}")),
    }
}

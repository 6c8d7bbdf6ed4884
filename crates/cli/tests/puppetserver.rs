//! `marionette agent` against Debian's puppetserver: bootstrap with
//! autosign, pluginsync of the test module's facts, a catalog with a
//! `puppet:///modules/...` source, the report stored by Puppet's server,
//! and a second run with nothing to do.

mod common;

use std::path::Path;
use std::process::{Child, Command, Output, Stdio};

const JAR: &str = "/usr/share/puppetserver/puppetserver.jar";

/// Puppet's server, stopped when dropped.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A free port on loopback.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

fn start_puppetserver(dir: &Path, port: u16) -> Running {
    let code = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/server");
    let p = dir.join("puppetserver");
    for sub in ["conf.d", "confdir", "var", "run", "log"] {
        std::fs::create_dir_all(p.join(sub)).unwrap();
    }
    std::fs::write(
        p.join("confdir/puppet.conf"),
        format!(
            "[main]\ncertname = localhost\ndns_alt_names = localhost\nssldir = {ssl}\ncadir = {ca}\nenvironmentpath = {envs}\nbasemodulepath = {modules}\n[server]\nautosign = true\nvardir = {var}\n",
            ssl = p.join("confdir/ssl").display(),
            // Its own CA: Debian's default is shared by every server on
            // the machine.
            ca = p.join("ca").display(),
            envs = code.join("environments").display(),
            // Debian's Forge modules (concat, stdlib), which the
            // environment uses, as Marionette's server finds them.
            modules = "/usr/share/puppet/modules",
            var = p.join("var").display(),
        ),
    )
    .unwrap();
    for conf in ["auth.conf", "ca.conf", "metrics.conf", "web-routes.conf"] {
        std::fs::copy(
            format!("/etc/puppet/puppetserver/conf.d/{conf}"),
            p.join("conf.d").join(conf),
        )
        .expect("Debian's puppetserver configuration");
    }
    std::fs::write(
        p.join("conf.d/global.conf"),
        "global: { logging-config: /etc/puppet/puppetserver/logback.xml }\n",
    )
    .unwrap();
    std::fs::write(
        p.join("conf.d/webserver.conf"),
        format!("webserver: {{ client-auth: want, ssl-host: 127.0.0.1, ssl-port: {port} }}\n"),
    )
    .unwrap();
    std::fs::write(
        p.join("conf.d/puppetserver.conf"),
        format!(
            "jruby-puppet: {{\n  ruby-load-path: [/usr/lib/puppetserver/ruby/vendor_ruby]\n  gem-home: {var}/jruby-gems\n  gem-path: [{var}/jruby-gems, \"/usr/lib/puppetserver/vendored-jruby-gems\"]\n  server-conf-dir: {conf}\n  server-code-dir: {code}\n  server-var-dir: {var}\n  server-run-dir: {run}\n  server-log-dir: {log}\n}}\nhttp-client: {{}}\nprofiler: {{}}\n",
            var = p.join("var").display(),
            conf = p.join("confdir").display(),
            code = code.display(),
            run = p.join("run").display(),
            log = p.join("log").display(),
        ),
    )
    .unwrap();
    let child = Command::new("java")
        .args([
            "-Xms512m",
            "-Xmx1g",
            "-Djruby.lib=/usr/share/jruby/lib",
            "-jar",
            JAR,
        ])
        .arg("--config")
        .arg(p.join("conf.d"))
        .args(["--bootstrap-config", "/etc/puppet/puppetserver/services.d"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("java starts puppetserver");
    let running = Running(child);
    // The JVM and JRuby take their time: up to three minutes.
    for _ in 0..360 {
        let up = Command::new("curl")
            .args(["-sk", &format!("https://localhost:{port}/status/v1/simple")])
            .output()
            .is_ok_and(|o| o.status.success() && !o.stdout.is_empty());
        if up {
            return running;
        }
        std::thread::sleep(std::time::Duration::from_millis(500));
    }
    panic!("puppetserver did not start on port {port}");
}

fn agent(dir: &Path, port: u16) -> Output {
    common::marionette_agent(
        port,
        "mrtest-ps-agent",
        &dir.join("agent"),
        &dir.join("out"),
    )
    .output()
    .expect("marionette agent runs")
}

#[test]
fn marionette_agent_runs_against_debians_puppetserver() {
    assert!(
        Path::new(JAR).exists(),
        "this test needs Debian's puppetserver: apt-get install puppetserver"
    );
    let dir = tempfile::Builder::new()
        .prefix("mrtest-puppetserver")
        .tempdir()
        .unwrap();
    let dir = dir.path();
    std::fs::create_dir_all(dir.join("out")).unwrap();
    let port = free_port();
    let _server = start_puppetserver(dir, port);

    let first = agent(dir, port);
    let said = common::printed(&first);
    assert_eq!(first.status.code(), Some(2), "{said}");
    assert_eq!(
        std::fs::read_to_string(dir.join("out/hello.txt")).unwrap_or_default(),
        "hello mrtest-ps-agent synced external\n",
        "{said}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("out/out.txt")).unwrap_or_default(),
        "greetings\n",
        "{said}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("out/note.txt")).unwrap_or_default(),
        "a synced type\n",
        "{said}"
    );
    // Concat's and stdlib's types from their pluginsynced Ruby, as
    // Puppet's agent applies them (crates/cli/tests/server.rs), with a
    // fragment and an archive read from the module through puppetserver's
    // file serving.
    assert_eq!(
        std::fs::read_to_string(dir.join("out/motd")).unwrap_or_default(),
        "first\nsecond\ngreetings\n",
        "{said}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("out/greeting.archived")).unwrap_or_default(),
        "greetings\n",
        "{said}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("out/lines.txt")).unwrap_or_default(),
        "a=3\nb=2\n",
        "{said}"
    );
    // The DSL module's type, as `puppet apply` left it (tests/ruby/dsl).
    assert_eq!(
        std::fs::read_to_string(dir.join("out/one.widget")).unwrap_or_default(),
        "state=enabled\ncolor=purple\nlabels=b,a\nsize=3\nshade=dark\n",
        "{said}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("out/two.widget")).unwrap_or_default(),
        "state=disabled\n",
        "{said}"
    );
    let reports = dir.join("puppetserver/var/reports/mrtest-ps-agent");
    let kept = std::fs::read_dir(&reports).map(|d| d.count()).unwrap_or(0);
    assert_eq!(
        kept,
        1,
        "puppetserver keeps the report in {}: {said}",
        reports.display()
    );

    let second = agent(dir, port);
    assert_eq!(
        second.status.code(),
        Some(0),
        "{}",
        common::printed(&second)
    );
}

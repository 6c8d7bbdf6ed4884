//! Marionette's Debian package (scripts/build-deb): what it holds, and an
//! install with `dpkg -i` on a fresh Debian 12 root (scripts/test-root),
//! where systemd checks its units, the package makes the server's user,
//! and the server, started as its unit starts it, serves a stock Puppet
//! agent; `marionette ca` run as root keeps the CA that user's.

use std::path::Path;
use std::process::Command;

fn require(tool: &str, package: &str) {
    assert!(
        Command::new("sh")
            .args(["-c", &format!("command -v {tool}")])
            .output()
            .is_ok_and(|o| o.status.success()),
        "this test needs {tool}: apt-get install -y {package}"
    );
}

/// A port nothing listens on now.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// What runs in the root: the package installed, its units verified, the
/// server started as its unit would start it (as the marionette user),
/// an agent served, the CA administered as root.
const IN_ROOT: &str = r#"
set -e
exec >/mrtest/out/log 2>&1
# A bare root knows no host names; the agent reaches the server as localhost.
grep -q localhost /etc/hosts 2>/dev/null || echo '127.0.0.1 localhost' >> /etc/hosts
# The root's package lists may be older than the mirror: fetched again
# when the install finds a version gone.
apt-get install -y -q --no-install-recommends systemd >/dev/null \
    || { apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends systemd >/dev/null; }
mkdir -p /etc/puppetlabs/code/environments/production/manifests
echo "file { '/tmp/mrtest-deb': content => \"served by \${facts['networking']['hostname']}\\n\" }" \
    > /etc/puppetlabs/code/environments/production/manifests/site.pp
dpkg -i /mrtest/deb/marionette.deb
systemd-analyze verify --man=no /lib/systemd/system/marionette-server.service \
    /lib/systemd/system/marionette-agent.service
echo "user: $(id -un marionette) $(stat -c '%U %a' /var/lib/marionette-server)"
exec_start=$(sed -n '/^ExecStart=/,/[^\\]$/p' /lib/systemd/system/marionette-server.service \
    | sed 's/^ExecStart=//; s/\\$//' | tr -s ' \n' ' ')
setpriv --reuid=marionette --regid=marionette --init-groups $exec_start \
    --bind 127.0.0.1:$PORT --certname localhost --dns-alt-names localhost \
    --autosign true --keylength 2048 2>/mrtest/out/server.log &
for _ in $(seq 300); do
    grep -q Listening /mrtest/out/server.log && break
    sleep 0.1
done
set +e
puppet agent -t --color=false --server localhost --masterport $PORT \
    --certname mrtest-deb-agent --keylength 2048 >/mrtest/out/agent.log 2>&1
echo "agent: $?"
echo "file: $(cat /tmp/mrtest-deb)"
set -e
marionette ca list --all
marionette ca revoke --certname mrtest-deb-agent
echo "owners: $(stat -c '%U' /var/lib/marionette-server/ca/serial /var/lib/marionette-server/ca/ca_crl.pem /var/lib/marionette-server/ca/signed/mrtest-deb-agent.pem | sort -u | tr '\n' ' ')"
"#;

#[test]
fn the_debian_package_installs_and_serves_a_stock_agent() {
    // SAFETY: geteuid(2) has no preconditions.
    assert_eq!(
        unsafe { libc::geteuid() },
        0,
        "this test installs a package in a test root: run it as root (CI does)"
    );
    require("dpkg-deb", "dpkg");
    require("debootstrap", "debootstrap");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = tempfile::Builder::new()
        .prefix("mrtest-deb")
        .tempdir()
        .unwrap();
    let built = Command::new(repo.join("scripts/build-deb"))
        .args([
            "--binary",
            env!("CARGO_BIN_EXE_marionette"),
            "--fast",
            "--out",
        ])
        .arg(dir.path().join("deb"))
        .output()
        .unwrap();
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let deb = String::from_utf8(built.stdout).unwrap().trim().to_string();
    std::fs::rename(&deb, dir.path().join("deb/marionette.deb")).unwrap();
    let contents = Command::new("dpkg-deb")
        .arg("--contents")
        .arg(dir.path().join("deb/marionette.deb"))
        .output()
        .unwrap();
    let contents = String::from_utf8_lossy(&contents.stdout);
    for path in [
        "./usr/bin/marionette",
        "./usr/share/man/man1/marionette-server.1.gz",
        "./usr/share/bash-completion/completions/marionette",
        "./etc/marionette/puppet.conf",
        "./lib/systemd/system/marionette-server.service",
        "./lib/systemd/system/marionette-agent.service",
    ] {
        assert!(
            contents.lines().any(|l| l.ends_with(path)),
            "{path} is not in the package:\n{contents}"
        );
    }

    let out = dir.path().join("out");
    std::fs::create_dir_all(&out).unwrap();
    let port = free_port();
    let script = format!("PORT={port}\n{IN_ROOT}");
    let run = Command::new(repo.join("scripts/test-root"))
        .args(["run", "--bind"])
        .arg(format!(
            "{}:/mrtest/deb:ro",
            dir.path().join("deb").display()
        ))
        .arg(&out)
        .args(["--", &script])
        .output()
        .unwrap();
    let read = |name: &str| std::fs::read_to_string(out.join(name)).unwrap_or_default();
    let log = read("log");
    let everything = format!(
        "{log}\n--- server\n{}\n--- agent\n{}\n{}",
        read("server.log"),
        read("agent.log"),
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(run.status.success(), "{everything}");
    assert!(
        log.contains("user: marionette marionette 750"),
        "{everything}"
    );
    // The stock agent got a certificate and a catalog, applied it (exit 2
    // for changes) and sent its report.
    assert!(log.contains("agent: 2"), "{everything}");
    assert!(log.contains("file: served by mrtest"), "{everything}");
    assert!(
        read("agent.log").contains("Applied catalog in"),
        "{everything}"
    );
    assert!(
        log.contains("Certificate for mrtest-deb-agent has been revoked"),
        "{everything}"
    );
    // Root administered the CA; its files are still the server's user's.
    assert!(log.contains("owners: marionette \n"), "{everything}");
}

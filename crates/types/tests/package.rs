//! The `package` type with its `dpkg` and `apt` providers, on the real
//! system: every test builds a tiny package, `mrtest-pkg`, in versions 1.0
//! and 2.0 with `dpkg-deb`, and installs, upgrades, removes and purges it
//! through a RAL session, checking the package database, the files and
//! the messages Puppet prints. Nothing needs the network: `apt` installs
//! from the local package file.
//!
//! The tests change the package database, so they need root (CI runs as
//! root) and fail loudly, never skip, when run by anyone else. They take
//! turns (dpkg has one lock), and purge `mrtest-pkg` before and after.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex, MutexGuard};

use marionette_ral::provider::hash_name;
use marionette_ral::{
    EventStatus, Level, Logger, Origin, Outcome, PropertyHash, Registry, Resource, Session,
};
use marionette_values::Value;

const PACKAGE: &str = "mrtest-pkg";
const CONFFILE: &str = "/etc/mrtest-pkg.conf";
const DATA_FILE: &str = "/usr/share/mrtest-pkg/README";

/// dpkg allows one user of its database at a time.
static DATABASE: Mutex<()> = Mutex::new(());

fn s(text: &str) -> Value {
    Value::String(text.into())
}

/// Fails the test unless it runs as root: only root can install
/// packages, and a silently skipped test would hide a regression.
fn require_root() {
    let output = Command::new("id").arg("-u").output().unwrap();
    let uid = String::from_utf8_lossy(&output.stdout).trim().to_string();
    assert_eq!(
        uid, "0",
        "the package tests install and remove packages and must run as root (CI does); \
         they are not skipped"
    );
}

/// Waits while another process (an unattended upgrade on a fresh
/// machine, an install in another terminal) holds dpkg's locks, for up to
/// ten minutes, rather than failing on "dpkg frontend lock is held". The
/// locks are fcntl locks: taking and at once releasing each tells whether
/// anyone holds it.
fn wait_for_dpkg_locks() {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(600);
    for path in ["/var/lib/dpkg/lock-frontend", "/var/lib/dpkg/lock"] {
        let Ok(file) = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
        else {
            continue;
        };
        loop {
            let mut lock: libc::flock = unsafe { std::mem::zeroed() };
            lock.l_type = libc::F_WRLCK as libc::c_short;
            lock.l_whence = libc::SEEK_SET as libc::c_short;
            // SAFETY: F_GETLK with a flock of our own on a file we hold
            // open; it only fills in `lock`.
            let asked = unsafe {
                libc::fcntl(
                    std::os::fd::AsRawFd::as_raw_fd(&file),
                    libc::F_GETLK,
                    &mut lock,
                )
            };
            if asked != 0 || lock.l_type == libc::F_UNLCK as libc::c_short {
                break;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "{path} has been held by process {} for ten minutes",
                lock.l_pid
            );
            eprintln!("waiting for process {} to release {path}", lock.l_pid);
            std::thread::sleep(std::time::Duration::from_secs(2));
        }
    }
}

/// Removes every trace of the test package, ignoring whether it was there.
fn purge_test_package() {
    let _ = Command::new("dpkg")
        .args(["--purge", PACKAGE])
        .env("DEBIAN_FRONTEND", "noninteractive")
        .output();
}

/// What dpkg says about the test package: `"<status> <version>"`, or
/// `None` when it knows nothing of it.
fn dpkg_status() -> Option<String> {
    let output = Command::new("dpkg-query")
        .args(["-W", "--showformat", "${Status} ${Version}", PACKAGE])
        .output()
        .unwrap();
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).trim().to_string())
}

/// The two versions of the test package, built in a temporary directory;
/// holds the database lock and purges the package on both ends.
struct Fixture {
    _lock: MutexGuard<'static, ()>,
    dir: tempfile::TempDir,
    registry: Arc<Registry>,
    facts: Arc<marionette_ral::Facts>,
}

impl Fixture {
    fn new() -> Fixture {
        require_root();
        let lock = DATABASE.lock().unwrap_or_else(|e| e.into_inner());
        wait_for_dpkg_locks();
        purge_test_package();
        let dir = tempfile::tempdir().unwrap();
        for version in ["1.0", "2.0"] {
            build_package(dir.path(), version);
        }
        let mut facts = marionette_ral::Facts::new();
        facts.insert("osfamily".into(), "Debian".into());
        Fixture {
            _lock: lock,
            dir,
            registry: Arc::new(marionette_types::registry()),
            facts: Arc::new(facts),
        }
    }

    /// The package file of one version.
    fn deb(&self, version: &str) -> String {
        self.dir
            .path()
            .join(format!("{PACKAGE}_{version}_all.deb"))
            .display()
            .to_string()
    }

    fn resource(&self, title: &str, attrs: &[(&str, Value)]) -> Resource {
        let type_def = self.registry.type_def("package").unwrap().clone();
        Resource::new(
            type_def,
            title,
            attrs.iter().map(|(k, v)| (k.to_string(), v.clone())),
            Origin::default(),
        )
        .unwrap_or_else(|e| panic!("{e}"))
    }

    fn package(&self, attrs: &[(&str, Value)]) -> Resource {
        self.resource(PACKAGE, attrs)
    }

    fn session(&self, logger: Logger) -> Session {
        Session::new(self.registry.clone(), self.facts.clone(), logger)
    }

    /// Evaluates in a fresh session, as a new run would.
    fn apply(&self, resource: &Resource, noop: bool) -> Outcome {
        self.session(Logger::default()).evaluate(resource, noop)
    }

    /// Evaluates, requires success and returns the messages.
    fn ok(&self, resource: &Resource) -> Vec<String> {
        let outcome = self.apply(resource, false);
        assert_eq!(outcome.failed, None, "{outcome:#?}");
        messages(&outcome)
    }

    /// Installs version 1.0 with dpkg, the starting point of many tests.
    fn install_1_0(&self) {
        let resource = self.package(&[("provider", s("dpkg")), ("source", s(&self.deb("1.0")))]);
        assert_eq!(self.ok(&resource), ["ensure: created"]);
    }
}

impl Drop for Fixture {
    fn drop(&mut self) {
        purge_test_package();
    }
}

/// Builds `mrtest-pkg` at a version: a conffile (whose content names the
/// version) and a data file.
fn build_package(dir: &Path, version: &str) -> PathBuf {
    let root = dir.join(format!("build-{version}"));
    fs::create_dir_all(root.join("DEBIAN")).unwrap();
    fs::create_dir_all(root.join("etc")).unwrap();
    fs::create_dir_all(root.join("usr/share/mrtest-pkg")).unwrap();
    fs::write(
        root.join("DEBIAN/control"),
        format!(
            "Package: {PACKAGE}\nVersion: {version}\nArchitecture: all\n\
             Maintainer: Marionette tests <tests@example.invalid>\n\
             Description: throwaway package for marionette's tests\n"
        ),
    )
    .unwrap();
    fs::write(root.join("DEBIAN/conffiles"), format!("{CONFFILE}\n")).unwrap();
    fs::write(
        root.join("etc/mrtest-pkg.conf"),
        format!("setting={version}\n"),
    )
    .unwrap();
    fs::write(
        root.join("usr/share/mrtest-pkg/README"),
        format!("version {version}\n"),
    )
    .unwrap();
    let deb = dir.join(format!("{PACKAGE}_{version}_all.deb"));
    let output = Command::new("dpkg-deb")
        .args(["--root-owner-group", "--build"])
        .arg(&root)
        .arg(&deb)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    deb
}

fn messages(outcome: &Outcome) -> Vec<String> {
    outcome
        .events
        .iter()
        .map(|e| format!("{}: {}", e.property, e.message))
        .collect()
}

/// The commands a logger saw run, in order.
fn commands(logger: &Logger) -> Vec<String> {
    logger
        .entries()
        .into_iter()
        .filter(|e| e.level == Level::Debug)
        .filter_map(|e| e.message.strip_prefix("Executing: ").map(str::to_string))
        .collect()
}

#[test]
fn dpkg_installs_from_source_once() {
    let fx = Fixture::new();
    let resource = fx.package(&[
        ("ensure", s("installed")),
        ("provider", s("dpkg")),
        ("source", s(&fx.deb("1.0"))),
    ]);
    assert_eq!(fx.ok(&resource), ["ensure: created"]);
    assert_eq!(dpkg_status().as_deref(), Some("install ok installed 1.0"));
    assert_eq!(fs::read_to_string(CONFFILE).unwrap(), "setting=1.0\n");
    assert_eq!(fs::read_to_string(DATA_FILE).unwrap(), "version 1.0\n");
    // A second run finds nothing to do.
    let again = fx.apply(&resource, false);
    assert_eq!(again.failed, None);
    assert!(again.events.is_empty(), "{:?}", again.events);
}

#[test]
fn dpkg_latest_installs_the_newer_source_and_then_rests() {
    let fx = Fixture::new();
    fx.install_1_0();
    let resource = fx.package(&[
        ("ensure", s("latest")),
        ("provider", s("dpkg")),
        ("source", s(&fx.deb("2.0"))),
    ]);
    assert_eq!(fx.ok(&resource), ["ensure: ensure changed '1.0' to '2.0'"]);
    assert_eq!(dpkg_status().as_deref(), Some("install ok installed 2.0"));
    assert_eq!(fs::read_to_string(DATA_FILE).unwrap(), "version 2.0\n");
    assert!(fx.ok(&resource).is_empty());
}

#[test]
fn apt_installs_upgrades_and_downgrades_to_exact_versions_from_local_files() {
    let fx = Fixture::new();
    let at = |version: &str| {
        fx.package(&[
            ("ensure", s(version)),
            ("provider", s("apt")),
            ("source", s(&fx.deb(version))),
        ])
    };
    assert_eq!(fx.ok(&at("1.0")), ["ensure: created"]);
    assert_eq!(dpkg_status().as_deref(), Some("install ok installed 1.0"));
    assert_eq!(fx.ok(&at("2.0")), ["ensure: ensure changed '1.0' to '2.0'"]);
    assert_eq!(dpkg_status().as_deref(), Some("install ok installed 2.0"));
    assert!(fx.ok(&at("2.0")).is_empty());
    assert_eq!(fx.ok(&at("1.0")), ["ensure: ensure changed '2.0' to '1.0'"]);
    assert_eq!(dpkg_status().as_deref(), Some("install ok installed 1.0"));
}

#[test]
fn apt_checks_that_the_source_holds_the_version_asked_for() {
    let fx = Fixture::new();
    let resource = fx.package(&[
        ("ensure", s("2.0")),
        ("provider", s("apt")),
        ("source", s(&fx.deb("1.0"))),
    ]);
    let outcome = fx.apply(&resource, false);
    let failure = outcome.failed.unwrap_or_default();
    assert!(
        failure.contains("Failed to update to version 2.0, got version 1.0 instead"),
        "{failure}"
    );
}

#[test]
fn apt_is_the_default_and_installs_the_source_path() {
    let fx = Fixture::new();
    let resource = fx.package(&[("source", s(&fx.deb("1.0")))]);
    let logger = Logger::default();
    let outcome = fx.session(logger.clone()).evaluate(&resource, false);
    assert_eq!(outcome.provider.as_deref(), Some("apt"));
    assert_eq!(outcome.failed, None, "{outcome:#?}");
    assert_eq!(messages(&outcome), ["ensure: created"]);
    let install = commands(&logger)
        .into_iter()
        .find(|c| c.contains("apt-get"))
        .unwrap();
    assert_eq!(
        install,
        format!(
            "'/usr/bin/apt-get -q -y -o DPkg::Options::=--force-confold install {}'",
            fx.deb("1.0")
        )
    );
}

#[test]
fn removing_keeps_config_files_and_purging_drops_them() {
    let fx = Fixture::new();
    fx.install_1_0();
    let absent = fx.package(&[("ensure", s("absent")), ("provider", s("dpkg"))]);
    assert_eq!(fx.ok(&absent), ["ensure: removed"]);
    assert_eq!(
        dpkg_status().as_deref(),
        Some("deinstall ok config-files 1.0")
    );
    assert!(Path::new(CONFFILE).exists());
    assert!(!Path::new(DATA_FILE).exists());
    assert!(fx.ok(&absent).is_empty());
    // Left configuration files are not purged.
    let purged = fx.package(&[("ensure", s("purged")), ("provider", s("dpkg"))]);
    assert_eq!(fx.ok(&purged), ["ensure: purged"]);
    assert_eq!(dpkg_status(), None);
    assert!(!Path::new(CONFFILE).exists());
    assert!(fx.ok(&purged).is_empty());
    // Purged is also absent.
    assert!(fx.ok(&absent).is_empty());
}

#[test]
fn apt_removes_and_purges() {
    let fx = Fixture::new();
    fx.install_1_0();
    let absent = fx.package(&[("ensure", s("absent")), ("provider", s("apt"))]);
    assert_eq!(fx.ok(&absent), ["ensure: removed"]);
    assert_eq!(
        dpkg_status().as_deref(),
        Some("deinstall ok config-files 1.0")
    );
    let purged = fx.package(&[("ensure", s("purged")), ("provider", s("apt"))]);
    assert_eq!(fx.ok(&purged), ["ensure: purged"]);
    assert_eq!(dpkg_status(), None);
    assert!(!Path::new(CONFFILE).exists());
    // Purging an installed package goes in one step.
    fx.install_1_0();
    assert_eq!(fx.ok(&purged), ["ensure: purged"]);
    assert_eq!(dpkg_status(), None);
}

#[test]
fn noop_reports_and_changes_nothing() {
    let fx = Fixture::new();
    let resource = fx.package(&[("provider", s("dpkg")), ("source", s(&fx.deb("1.0")))]);
    let outcome = fx.apply(&resource, true);
    assert_eq!(outcome.failed, None);
    assert_eq!(
        messages(&outcome),
        ["ensure: current_value 'purged', should be 'present' (noop)"]
    );
    assert_eq!(outcome.events[0].status, EventStatus::Noop);
    assert_eq!(dpkg_status(), None);
    fx.install_1_0();
    let absent = fx.package(&[("ensure", s("absent")), ("provider", s("dpkg"))]);
    assert_eq!(
        messages(&fx.apply(&absent, true)),
        ["ensure: current_value '1.0', should be 'absent' (noop)"]
    );
    assert_eq!(dpkg_status().as_deref(), Some("install ok installed 1.0"));
}

#[test]
fn dpkg_without_a_source_is_a_clear_error() {
    let fx = Fixture::new();
    let resource = fx.package(&[("provider", s("dpkg"))]);
    let outcome = fx.apply(&resource, false);
    assert_eq!(
        messages(&outcome),
        [
            "ensure: change from 'purged' to 'present' failed: You cannot install dpkg packages \
          without a source: set `source` to the path of a .deb file on this machine, or use \
          the apt provider"
        ]
    );
    assert_eq!(outcome.events[0].status, EventStatus::Failure);
    assert!(outcome.failed.is_some());
    assert_eq!(dpkg_status(), None);
}

#[test]
fn dpkg_cannot_install_a_given_version() {
    let fx = Fixture::new();
    let resource = fx.package(&[
        ("ensure", s("2.0")),
        ("provider", s("dpkg")),
        ("source", s(&fx.deb("2.0"))),
    ]);
    let outcome = fx.apply(&resource, false);
    assert_eq!(
        outcome.failed.as_deref(),
        Some("Provider dpkg must have features 'versionable' to set 'ensure' to '2.0'")
    );
    assert_eq!(dpkg_status(), None);
}

#[test]
fn names_that_could_be_options_are_refused() {
    let fx = Fixture::new();
    let resource = fx.resource(
        "--admindir=/tmp",
        &[("provider", s("apt")), ("ensure", s("present"))],
    );
    let outcome = fx.apply(&resource, false);
    let failure = outcome.failed.unwrap_or_default();
    assert!(
        failure.contains("'--admindir=/tmp' is not a valid Debian package name"),
        "{failure}"
    );
}

#[test]
fn instances_list_the_package_with_its_version_under_the_default_provider() {
    let fx = Fixture::new();
    fx.install_1_0();
    let logger = Logger::default();
    let session = fx.session(logger.clone());
    let found = session.instances("package").unwrap();
    let (provider, hash) = found
        .iter()
        .find(|(_, hash)| hash_name(hash).as_deref() == Some(PACKAGE))
        .expect("mrtest-pkg is listed");
    assert_eq!(provider.name, "apt");
    let expected: PropertyHash = [
        ("name".to_string(), s(PACKAGE)),
        ("ensure".to_string(), s("1.0")),
        ("mark".to_string(), s("none")),
    ]
    .into_iter()
    .collect();
    assert_eq!(hash, &expected);
    // Essential packages are there too, each once.
    assert!(
        found
            .iter()
            .any(|(_, h)| hash_name(h).as_deref() == Some("dpkg"))
    );
    // Other providers (`gem`, `pip3`, `npm`) list their own packages, which may share a
    // name with a Debian one, as in Puppet.
    let names: Vec<String> = found
        .iter()
        .filter(|(provider, _)| provider.name == "apt")
        .filter_map(|(_, h)| hash_name(h))
        .collect();
    let mut unique = names.clone();
    unique.dedup();
    assert_eq!(names, unique);
    // `apt` and `dpkg` share their source: one listing, one command.
    let debian: Vec<String> = commands(&logger)
        .into_iter()
        .filter(|c| {
            !c.starts_with("'/usr/bin/gem ") && !c.starts_with("'pip3 ") && !c.starts_with("'npm ")
        })
        .collect();
    assert_eq!(
        debian,
        ["'/usr/bin/dpkg-query -W --showformat '${Status} ${Package} ${Version}\n''"]
    );
}

#[test]
fn prefetch_reads_every_managed_package_in_one_query() {
    let fx = Fixture::new();
    fx.install_1_0();
    let resources = [
        fx.package(&[("ensure", s("installed"))]),
        fx.resource("dpkg", &[("ensure", s("installed"))]),
        fx.resource("coreutils", &[("ensure", s("present"))]),
        fx.resource("mrtest-not-a-package", &[("ensure", s("absent"))]),
        fx.resource("mrtest-not-either", &[("ensure", s("purged"))]),
    ];
    let logger = Logger::default();
    let mut session = fx.session(logger.clone());
    let all: Vec<&Resource> = resources.iter().collect();
    session.prefetch(&all);
    for resource in &resources {
        let outcome = session.evaluate(resource, false);
        assert_eq!(outcome.failed, None, "{outcome:#?}");
        assert!(outcome.events.is_empty(), "{outcome:#?}");
    }
    let queries: Vec<String> = commands(&logger)
        .into_iter()
        .filter(|c| c.contains("dpkg-query"))
        .collect();
    assert_eq!(queries.len(), 1, "{queries:#?}");
    assert!(
        queries[0]
            .ends_with("-- coreutils dpkg mrtest-not-a-package mrtest-not-either mrtest-pkg'"),
        "{}",
        queries[0]
    );
    assert_eq!(commands(&logger).len(), 1, "{:#?}", commands(&logger));
}

#[test]
fn apt_latest_follows_the_candidate_of_apt_cache() {
    let fx = Fixture::new();
    fx.install_1_0();
    // A package installed from a file is its own candidate: apt-cache
    // knows it from the status database.
    let resource = fx.package(&[("ensure", s("latest")), ("provider", s("apt"))]);
    let logger = Logger::default();
    let outcome = fx.session(logger.clone()).evaluate(&resource, false);
    assert_eq!(outcome.failed, None, "{outcome:#?}");
    assert!(outcome.events.is_empty(), "{outcome:#?}");
    assert!(
        commands(&logger)
            .iter()
            .any(|c| c == "'/usr/bin/apt-cache policy -- mrtest-pkg'"),
        "{:#?}",
        commands(&logger)
    );
}

#[test]
fn mark_holds_and_releases_the_package() {
    let fx = Fixture::new();
    let held = fx.package(&[
        ("provider", s("apt")),
        ("source", s(&fx.deb("1.0"))),
        ("mark", s("hold")),
    ]);
    // Installing puts the hold on at once.
    assert_eq!(fx.ok(&held), ["ensure: created"]);
    assert_eq!(dpkg_status().as_deref(), Some("hold ok installed 1.0"));
    assert!(fx.ok(&held).is_empty());
    let released = fx.package(&[("provider", s("apt")), ("mark", s("none"))]);
    assert_eq!(fx.ok(&released), ["mark: mark changed 'hold' to 'none'"]);
    assert_eq!(dpkg_status().as_deref(), Some("install ok installed 1.0"));
    let by_dpkg = fx.package(&[("provider", s("dpkg")), ("mark", s("hold"))]);
    assert_eq!(fx.ok(&by_dpkg), ["mark: mark changed 'none' to 'hold'"]);
    assert_eq!(dpkg_status().as_deref(), Some("hold ok installed 1.0"));
    // A held package can still be removed on purpose.
    let purged = fx.package(&[("ensure", s("purged")), ("provider", s("apt"))]);
    assert_eq!(fx.ok(&purged), ["ensure: purged"]);
    assert_eq!(dpkg_status(), None);
}

#[test]
fn configfiles_keep_local_changes_unless_replace_is_asked() {
    let fx = Fixture::new();
    fx.install_1_0();
    fs::write(CONFFILE, "changed here\n").unwrap();
    let upgrade = |configfiles: &str, version: &str| {
        fx.package(&[
            ("ensure", s("latest")),
            ("provider", s("dpkg")),
            ("source", s(&fx.deb(version))),
            ("configfiles", s(configfiles)),
        ])
    };
    assert_eq!(
        fx.ok(&upgrade("keep", "2.0")),
        ["ensure: ensure changed '1.0' to '2.0'"]
    );
    assert_eq!(fs::read_to_string(CONFFILE).unwrap(), "changed here\n");
    assert_eq!(
        fx.ok(&upgrade("replace", "1.0")),
        ["ensure: ensure changed '2.0' to '1.0'"]
    );
    assert_eq!(fs::read_to_string(CONFFILE).unwrap(), "setting=1.0\n");
}

#[test]
fn install_options_reach_apt_get_as_arguments() {
    let fx = Fixture::new();
    let mut option = marionette_values::PHash::default();
    option.insert(s("--option"), s("APT::Get::Show-Versions=true"));
    let resource = fx.package(&[
        ("provider", s("apt")),
        ("source", s(&fx.deb("1.0"))),
        (
            "install_options",
            Value::Array(vec![s("--no-install-recommends"), Value::Hash(option.into())].into()),
        ),
    ]);
    let logger = Logger::default();
    let outcome = fx.session(logger.clone()).evaluate(&resource, false);
    assert_eq!(outcome.failed, None, "{outcome:#?}");
    let install = commands(&logger)
        .into_iter()
        .find(|c| c.contains("apt-get"))
        .unwrap();
    assert!(
        install.contains(
            "--force-confold --no-install-recommends --option=APT::Get::Show-Versions=true install /"
        ),
        "{install}"
    );
    assert_eq!(dpkg_status().as_deref(), Some("install ok installed 1.0"));
}

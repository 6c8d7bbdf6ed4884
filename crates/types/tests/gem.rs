//! The `package` type's `gem` provider on the real system: a tiny gem,
//! `mrtest-hello`, is built with `gem build` and installed from its file,
//! found installed, reported in noop, and removed, through a RAL session;
//! nothing needs the network. It needs root and RubyGems (CI has both);
//! it fails loudly, never skips, without them.

mod common;

use std::path::Path;
use std::process::Command;

use common::s;
use marionette_ral::Outcome;
use marionette_values::Value;

const GEM: &str = "mrtest-hello";

/// The versions of the test gem installed, as `gem list` prints them.
fn installed() -> String {
    let output = Command::new("gem")
        .args(["list", "--local", "--exact", GEM])
        .output()
        .expect("RubyGems (apt-get install -y ruby)");
    String::from_utf8_lossy(&output.stdout).trim().to_string()
}

fn remove() {
    let _ = Command::new("gem")
        .args(["uninstall", "--executables", "--all", GEM])
        .output();
}

/// Builds the gem at `version` in `dir`; returns its file.
fn build(dir: &Path, version: &str) -> String {
    std::fs::create_dir_all(dir.join("lib")).unwrap();
    std::fs::write(dir.join("lib/mrtest_hello.rb"), "module MrtestHello; end\n").unwrap();
    std::fs::write(
        dir.join("mrtest-hello.gemspec"),
        format!(
            "Gem::Specification.new do |s|\n  s.name = '{GEM}'\n  s.version = '{version}'\n  \
             s.summary = 'A gem for the tests'\n  s.authors = ['mrtest']\n  \
             s.files = ['lib/mrtest_hello.rb']\n  s.license = 'MIT'\nend\n"
        ),
    )
    .unwrap();
    let built = Command::new("gem")
        .args(["build", "mrtest-hello.gemspec"])
        .current_dir(dir)
        .output()
        .expect("RubyGems (apt-get install -y ruby)");
    assert!(built.status.success(), "{built:?}");
    dir.join(format!("{GEM}-{version}.gem"))
        .display()
        .to_string()
}

fn evaluate(attrs: &[(&str, Value)], noop: bool) -> Outcome {
    let resource = common::resource("package", GEM, attrs).unwrap_or_else(|e| panic!("{e}"));
    let mut run = common::Run::new();
    if noop {
        run.noop(&resource)
    } else {
        run.evaluate(&resource)
    }
}

#[test]
fn a_gem_is_installed_from_its_file_found_and_removed() {
    let uid = Command::new("id").arg("-u").output().unwrap();
    assert_eq!(
        String::from_utf8_lossy(&uid.stdout).trim(),
        "0",
        "the gem test installs gems system-wide and must run as root (CI does)"
    );
    remove();
    let dir = tempfile::tempdir().unwrap();
    let file = build(dir.path(), "0.1.0");
    let gem = [("provider", s("gem")), ("source", s(&file))];

    let created = evaluate(&gem, false);
    assert_eq!(created.failed, None, "{created:#?}");
    assert_eq!(common::events(&created), ["ensure: created"]);
    assert_eq!(installed(), "mrtest-hello (0.1.0)");
    let again = evaluate(&gem, false);
    assert!(again.events.is_empty(), "{:?}", again.events);
    let version = evaluate(
        &[gem[0].clone(), gem[1].clone(), ("ensure", s("0.1.0"))],
        false,
    );
    assert!(version.events.is_empty(), "{:?}", version.events);

    let absent = [("provider", s("gem")), ("ensure", s("absent"))];
    let noop = evaluate(&absent, true);
    assert_eq!(
        common::events(&noop),
        ["ensure: current_value ['0.1.0'], should be 'absent' (noop)"]
    );
    assert_eq!(installed(), "mrtest-hello (0.1.0)");
    let removed = evaluate(&absent, false);
    assert_eq!(common::events(&removed), ["ensure: removed"]);
    assert_eq!(installed(), "");

    // A name `gem` could take for an option is refused before it runs.
    let option = common::resource("package", "--mrtest", &[("provider", s("gem"))]).unwrap();
    let refused = common::Run::new().evaluate(&option);
    assert!(
        refused
            .failed
            .as_deref()
            .is_some_and(|f| f.contains("is not a valid gem name")),
        "{refused:#?}"
    );
    remove();
}

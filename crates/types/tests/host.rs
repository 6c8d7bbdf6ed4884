//! `host` on a hosts file in a temporary directory: entries created,
//! changed and removed through the parsed-file framework, every other line
//! kept byte for byte, a second run changing nothing.

mod common;

use common::{changes, s};
use marionette_ral::Resource;
use marionette_values::Value;

fn host(target: &std::path::Path, name: &str, attrs: &[(&str, Value)]) -> Result<Resource, String> {
    let mut params = attrs.to_vec();
    params.push(("target", s(&target.display().to_string())));
    common::resource("host", name, &params)
}

const ORIGINAL: &str = "# managed by hand\n127.0.0.1\tlocalhost\n\n10.0.0.9  old.example.com  old   # stale\n::1 ip6-localhost ip6-loopback\n";

#[test]
fn entries_change_and_everything_else_stays() {
    let dir = tempfile::tempdir().unwrap();
    let hosts = dir.path().join("hosts");
    std::fs::write(&hosts, ORIGINAL).unwrap();

    let web = host(
        &hosts,
        "web.example.com",
        &[
            ("ip", s("10.0.0.5")),
            (
                "host_aliases",
                Value::Array(vec![s("web"), s("www")].into()),
            ),
            ("comment", s("front end")),
        ],
    )
    .unwrap();
    assert_eq!(changes(&web), ["ensure: created"]);
    assert!(changes(&web).is_empty(), "a second run changes nothing");

    let moved = host(&hosts, "old.example.com", &[("ip", s("10.0.0.10"))]).unwrap();
    assert_eq!(
        changes(&moved),
        ["ip: ip changed '10.0.0.9' to '10.0.0.10'"]
    );
    let gone = host(&hosts, "ip6-localhost", &[("ensure", s("absent"))]).unwrap();
    assert_eq!(changes(&gone), ["ensure: removed"]);

    assert_eq!(
        std::fs::read_to_string(&hosts).unwrap(),
        "# managed by hand\n127.0.0.1\tlocalhost\n\n10.0.0.10\told.example.com\told\t# stale\n\
         10.0.0.5\tweb.example.com\tweb\twww\t# front end\n"
    );
}

#[test]
fn bad_values_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let hosts = dir.path().join("hosts");
    assert!(
        host(&hosts, "web.example.com", &[("ip", s("10.0.0.300"))])
            .unwrap_err()
            .contains("Invalid IP address")
    );
    assert!(
        host(&hosts, "bad name", &[("ip", s("10.0.0.1"))])
            .unwrap_err()
            .contains("Invalid host name")
    );
    assert!(
        host(&hosts, "web.example.com", &[("ensure", s("present"))])
            .unwrap_err()
            .contains("ip is a required attribute")
    );
    assert!(
        host(
            &hosts,
            "web.example.com",
            &[("ip", s("10.0.0.1")), ("comment", s("a\nb"))]
        )
        .unwrap_err()
        .contains("Comment cannot include newline")
    );
}

#[test]
fn instances_list_the_default_hosts_file() {
    let found = common::Run::new().session.instances("host").unwrap();
    let text = std::fs::read_to_string("/etc/hosts").unwrap();
    let entries = text
        .lines()
        .filter(|l| {
            let entry = l.split('#').next().unwrap_or("");
            entry.split_whitespace().count() >= 2
        })
        .count();
    assert_eq!(found.len(), entries);
}

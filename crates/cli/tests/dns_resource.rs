//! `dns_resource` end to end against a real BIND: manifests applied with
//! `marionette apply`, results checked with `dig`. Every test starts its
//! own `named` (see `named/mod.rs`) with the zones it needs.

mod common;
#[path = "../../types/tests/named/mod.rs"]
mod named;

use std::net::UdpSocket;
use std::path::Path;
use std::process::Command;

use named::Named;

const PROVIDERS: [&str; 2] = ["rfc2136", "nsupdate"];

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn marionette(args: &[&str]) -> Run {
    let output = Command::new(env!("CARGO_BIN_EXE_marionette"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("marionette runs");
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: common::timeless(&String::from_utf8_lossy(&output.stdout)),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// Applies `body` after resource defaults that point `dns_resource` at
/// the test server with its key.
fn apply(named: &Named, vardir: &Path, body: &str, extra: &[&str]) -> Run {
    let manifest = format!(
        "Dns_resource {{ port => {}, keyfile => '{}' }}\n{body}",
        named.port,
        named.keyfile.display()
    );
    let path = vardir.join("site.pp");
    std::fs::write(&path, manifest).unwrap();
    let mut args = vec![
        "apply",
        path.to_str().unwrap(),
        "--vardir",
        vardir.to_str().unwrap(),
        "--detailed-exitcodes",
    ];
    args.extend_from_slice(extra);
    marionette(&args)
}

/// The change lines of a run, without the compile and summary lines.
fn changes(run: &Run) -> Vec<String> {
    run.stdout
        .lines()
        .filter(|l| !l.contains("Compiled catalog") && !l.contains("Applied catalog"))
        .map(str::to_string)
        .collect()
}

#[test]
fn records_are_created_changed_and_deleted_with_both_providers() {
    let named = Named::start(&["mrtest.example"]);
    let vardir = tempfile::tempdir().unwrap();
    for provider in PROVIDERS {
        let name = format!("{provider}.mrtest.example");
        let title = format!("{name}/A");
        let path = format!("/Stage[main]/Main/Dns_resource[{title}]");
        let declare = |rdata: &str, ttl: u32, extra: &str| {
            format!(
                "dns_resource {{ '{title}': rdata => {rdata}, ttl => {ttl}, provider => {provider}, {extra} }}"
            )
        };

        let run = apply(
            &named,
            vardir.path(),
            &declare("['192.0.2.1', '192.0.2.2']", 300, ""),
            &[],
        );
        assert_eq!(run.code, 2, "{provider}: {}{}", run.stdout, run.stderr);
        assert_eq!(changes(&run), [format!("Notice: {path}/ensure: created")]);
        assert_eq!(named.dig(&name, "A"), ["192.0.2.1", "192.0.2.2"]);
        assert_eq!(named.dig_ttl(&name, "A"), Some(300));

        let again = apply(
            &named,
            vardir.path(),
            &declare("['192.0.2.2', '192.0.2.1']", 300, ""),
            &[],
        );
        assert_eq!(
            (again.code, changes(&again)),
            (0, vec![]),
            "{provider}: order does not matter"
        );

        // One value removed and one added: only those two change.
        let run = apply(
            &named,
            vardir.path(),
            &declare("['192.0.2.2', '192.0.2.3']", 300, ""),
            &[],
        );
        assert_eq!(run.code, 2, "{provider}: {}", run.stderr);
        assert_eq!(
            changes(&run),
            [format!(
                "Notice: {path}/rdata: rdata changed ['192.0.2.1', '192.0.2.2'] to ['192.0.2.2', '192.0.2.3']"
            )]
        );
        assert_eq!(named.dig(&name, "A"), ["192.0.2.2", "192.0.2.3"]);

        // The TTL as text is the same number.
        let run = apply(
            &named,
            vardir.path(),
            &declare("['192.0.2.2', '192.0.2.3']", 60, ""),
            &[],
        );
        assert_eq!(
            changes(&run),
            [format!("Notice: {path}/ttl: ttl changed 300 to 60")]
        );
        assert_eq!(named.dig_ttl(&name, "A"), Some(60));
        let text_ttl = format!(
            "dns_resource {{ '{title}': rdata => ['192.0.2.3', '192.0.2.2'], ttl => '60', provider => {provider} }}"
        );
        let run = apply(&named, vardir.path(), &text_ttl, &[]);
        assert_eq!(
            (run.code, changes(&run)),
            (0, vec![]),
            "{provider}: '60' is 60"
        );

        // Noop reports and changes nothing.
        let run = apply(
            &named,
            vardir.path(),
            &declare("['192.0.2.9']", 60, ""),
            &["--noop"],
        );
        assert_eq!(
            changes(&run),
            [format!(
                "Notice: {path}/rdata: current_value ['192.0.2.2', '192.0.2.3'], should be ['192.0.2.9'] (noop)"
            )]
            .into_iter()
            .chain(noop_summary())
            .collect::<Vec<_>>()
        );
        assert_eq!(named.dig(&name, "A"), ["192.0.2.2", "192.0.2.3"]);

        let run = apply(
            &named,
            vardir.path(),
            &format!("dns_resource {{ '{title}': ensure => absent, provider => {provider} }}"),
            &[],
        );
        assert_eq!(changes(&run), [format!("Notice: {path}/ensure: removed")]);
        assert!(named.dig(&name, "A").is_empty());
        let run = apply(
            &named,
            vardir.path(),
            &format!("dns_resource {{ '{title}': ensure => absent, provider => {provider} }}"),
            &[],
        );
        assert_eq!((run.code, changes(&run)), (0, vec![]));
    }
}

/// The lines Puppet adds after a noop change: the class and stage that
/// would have been refreshed.
fn noop_summary() -> Vec<String> {
    vec![
        "Notice: Class[Main]: Would have triggered 'refresh' from 1 event".to_string(),
        "Notice: Stage[main]: Would have triggered 'refresh' from 1 event".to_string(),
    ]
}

#[test]
fn every_record_type_round_trips_in_canonical_form() {
    let named = Named::start(&["mrtest.example"]);
    let vardir = tempfile::tempdir().unwrap();
    let manifest = "
        dns_resource { 'mail.mrtest.example/A': rdata => '192.0.2.25' }
        dns_resource { 'v6.mrtest.example/AAAA': rdata => '2001:DB8:0::1' }
        dns_resource { 'mrtest.example/MX': rdata => ['10 Mail.MRTEST.example.', '20 mail.mrtest.example'],
          require => Dns_resource['mail.mrtest.example/A'] }
        dns_resource { 'alias.mrtest.example/CNAME': rdata => 'mail.mrtest.example.' }
        dns_resource { '_sip._tcp.mrtest.example/SRV': rdata => '10 5 5060 mail.mrtest.example',
          require => Dns_resource['mail.mrtest.example/A'] }
        dns_resource { 'txt.mrtest.example/TXT': rdata => ['v=spf1 -all', '\"two\" \"strings\"'] }
        dns_resource { 'sub.mrtest.example/NS': rdata => 'ns.mrtest.example' }
    ";
    let run = apply(&named, vardir.path(), manifest, &[]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert_eq!(changes(&run).len(), 7, "{}", run.stdout);
    assert_eq!(named.dig("v6.mrtest.example", "AAAA"), ["2001:db8::1"]);
    assert_eq!(
        named.dig("mrtest.example", "MX"),
        ["10 mail.mrtest.example.", "20 mail.mrtest.example."]
    );
    assert_eq!(
        named.dig("alias.mrtest.example", "CNAME"),
        ["mail.mrtest.example."]
    );
    assert_eq!(
        named.dig("_sip._tcp.mrtest.example", "SRV"),
        ["10 5 5060 mail.mrtest.example."]
    );
    assert_eq!(
        named.dig("txt.mrtest.example", "TXT"),
        ["\"two\" \"strings\"", "\"v=spf1 -all\""]
    );
    // Other spellings of the same data are in sync.
    let run = apply(&named, vardir.path(), manifest, &[]);
    assert_eq!((run.code, changes(&run)), (0, vec![]), "{}", run.stderr);
}

#[test]
fn the_seed_declarations_apply_verbatim() {
    let named = Named::start(&["angel.net", "2.168.192.in-addr.arpa"]);
    let vardir = tempfile::tempdir().unwrap();
    // The seed names its server `a.ns.angel.net`: the test points that name
    // at the test server through /etc/hosts, managed by the same run, and
    // removes it afterwards whatever happens.
    let _hosts = HostsEntry("a.ns.angel.net");
    let seed = "
host { 'a.ns.angel.net': ip => '127.0.0.1', before => Dns_resource['1.2.168.192.in-addr.arpa/PTR'] }

dns_resource { 'melody.angel.net/A':
  ensure   => present,
  rdata    => '192.168.2.1',
  ttl      => '86400',
  provider => 'nsupdate',
}

dns_resource { '1.2.168.192.in-addr.arpa/PTR':
  nameserver => 'a.ns.angel.net',
  rdata      => 'melody.angel.net',
}
";
    let run = apply(&named, vardir.path(), seed, &[]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert_eq!(named.dig("melody.angel.net", "A"), ["192.168.2.1"]);
    assert_eq!(named.dig_ttl("melody.angel.net", "A"), Some(86400));
    assert_eq!(
        named.dig("1.2.168.192.in-addr.arpa", "PTR"),
        ["melody.angel.net."]
    );
    let run = apply(&named, vardir.path(), seed, &[]);
    assert_eq!((run.code, changes(&run)), (0, vec![]), "{}", run.stderr);
}

/// Removes a test entry from /etc/hosts when dropped.
struct HostsEntry(&'static str);

impl Drop for HostsEntry {
    fn drop(&mut self) {
        let Ok(text) = std::fs::read_to_string("/etc/hosts") else {
            return;
        };
        let kept: String = text
            .lines()
            .filter(|line| !line.split_whitespace().any(|word| word == self.0))
            .map(|line| format!("{line}\n"))
            .collect();
        if kept != text {
            std::fs::write("/etc/hosts", kept).unwrap();
        }
    }
}

#[test]
fn failures_fail_alone_with_clear_messages() {
    let named = Named::start(&["mrtest.example"]);
    let vardir = tempfile::tempdir().unwrap();
    // A socket that receives and never answers.
    let silent = UdpSocket::bind("127.0.0.1:0").unwrap();
    let silent_port = silent.local_addr().unwrap().port();
    let manifest = format!(
        "
        dns_resource {{ 'ok.mrtest.example/A': rdata => '192.0.2.1' }}
        dns_resource {{ 'wrongkey.mrtest.example/A': rdata => '192.0.2.1',
          keyfile => undef, keyname => 'mrtest-key', secret => 'd3Jvbmcgc2VjcmV0' }}
        dns_resource {{ 'unknownkey.mrtest.example/A': rdata => '192.0.2.1',
          keyfile => undef, keyname => 'mrtest-nokey', secret => 'd3Jvbmcgc2VjcmV0' }}
        dns_resource {{ 'unsigned.mrtest.example/A': rdata => '192.0.2.1', keyfile => undef }}
        dns_resource {{ 'outside.example.org/A': rdata => '192.0.2.1' }}
        dns_resource {{ 'silent.mrtest.example/A': rdata => '192.0.2.1', port => {silent_port}, timeout => 1 }}
        dns_resource {{ 'after.mrtest.example/A': rdata => '192.0.2.2',
          require => Dns_resource['wrongkey.mrtest.example/A'] }}
    "
    );
    let run = apply(&named, vardir.path(), &manifest, &[]);
    assert_eq!(
        run.code, 6,
        "changes and failures: {}{}",
        run.stdout, run.stderr
    );
    assert_eq!(named.dig("ok.mrtest.example", "A"), ["192.0.2.1"]);
    for (title, message) in [
        (
            "wrongkey.mrtest.example/A",
            "TSIG authentication failed for key mrtest-key (check name, algorithm, secret)",
        ),
        (
            "unknownkey.mrtest.example/A",
            "TSIG authentication failed for key mrtest-nokey (check name, algorithm, secret)",
        ),
        (
            "unsigned.mrtest.example/A",
            "refused the update of zone mrtest.example",
        ),
        (
            "outside.example.org/A",
            "outside.example.org is not in a zone that nameserver 127.0.0.1",
        ),
        (
            "silent.mrtest.example/A",
            &format!("nameserver 127.0.0.1:{silent_port} did not answer within 1 seconds"),
        ),
    ] {
        assert!(
            run.stderr.lines().any(|l| l.starts_with("Error: ")
                && l.contains(&format!("Dns_resource[{title}]"))
                && l.contains(message)),
            "{title}: {message}\n{}",
            run.stderr
        );
    }
    assert!(
        run.stdout.contains(
            "Warning: /Stage[main]/Main/Dns_resource[after.mrtest.example/A]: Skipping because of failed dependencies"
        ) || run.stderr.contains("Dns_resource[after.mrtest.example/A]: Skipping because of failed dependencies"),
        "{}{}",
        run.stdout,
        run.stderr
    );
    assert!(named.dig("after.mrtest.example", "A").is_empty());
    for name in ["wrongkey", "unknownkey", "unsigned", "silent"] {
        assert!(
            named.dig(&format!("{name}.mrtest.example"), "A").is_empty(),
            "{name}"
        );
    }
}

#[test]
fn a_concurrent_change_is_detected_not_overwritten() {
    let named = Named::start(&["mrtest.example"]);
    let vardir = tempfile::tempdir().unwrap();
    named.nsupdate("update add race.mrtest.example. 300 A 192.0.2.1\n");
    // The zone is read when the first record of the run is evaluated; an
    // exec then changes another record behind marionette's back, before
    // that record is evaluated.
    let manifest = format!(
        "
        dns_resource {{ 'first.mrtest.example/A': rdata => '192.0.2.100' }}
        -> exec {{ 'mrtest-race': command => \"/bin/sh -c 'printf \\\"server 127.0.0.1 {port}\\\\nupdate add race.mrtest.example. 300 A 192.0.2.7\\\\nsend\\\\n\\\" | nsupdate -k {key}'\" }}
        -> dns_resource {{ 'race.mrtest.example/A': rdata => '192.0.2.2', ttl => 300 }}
    ",
        port = named.port,
        key = named.keyfile.display()
    );
    let run = apply(&named, vardir.path(), &manifest, &[]);
    assert_eq!(run.code, 6, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains(
            "Error: /Stage[main]/Main/Dns_resource[race.mrtest.example/A]/rdata: change from ['192.0.2.1'] to ['192.0.2.2'] failed: the records of race.mrtest.example/A changed on nameserver"
        ),
        "{}",
        run.stderr
    );
    assert!(
        !run.stdout.contains("race.mrtest.example/A]/rdata"),
        "{}",
        run.stdout
    );
    assert_eq!(
        named.dig("race.mrtest.example", "A"),
        ["192.0.2.1", "192.0.2.7"]
    );
}

#[test]
fn nsupdate_values_cannot_inject_commands() {
    let named = Named::start(&["mrtest.example"]);
    let vardir = tempfile::tempdir().unwrap();
    let quoted = r#"dns_resource { 'inject.mrtest.example/TXT': provider => nsupdate,
        rdata => 'x" ; update delete mrtest.example. NS' }"#;
    let run = apply(&named, vardir.path(), quoted, &[]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        named.dig("inject.mrtest.example", "TXT"),
        [r#""x\" ; update delete mrtest.example. NS""#]
    );
    assert_eq!(named.dig("mrtest.example", "NS"), ["ns.mrtest.example."]);

    let newline = "dns_resource { 'inject2.mrtest.example/TXT': provider => nsupdate,
        rdata => \"x\\nupdate delete mrtest.example. NS\" }";
    let run = apply(&named, vardir.path(), newline, &[]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr
            .contains("rdata values must not hold control characters such as newlines"),
        "{}",
        run.stderr
    );
    assert!(named.dig("inject2.mrtest.example", "TXT").is_empty());
}

#[test]
fn invalid_declarations_are_refused_with_their_location() {
    let vardir = tempfile::tempdir().unwrap();
    for (body, message) in [
        (
            "dns_resource { 'www.example.com/A': rdata => '300.1.1.1' }",
            "an A record takes an IPv4 address, not '300.1.1.1'",
        ),
        (
            "dns_resource { 'www.example.com/MX': rdata => 'mail.example.com' }",
            "a MX record takes a preference and a host",
        ),
        (
            "dns_resource { 'www.example.com/BOGUS': rdata => 'x' }",
            "Invalid record type 'BOGUS'",
        ),
        (
            "dns_resource { 'bad_name!.example.com/A': rdata => '192.0.2.1' }",
            "is not a valid DNS name",
        ),
        (
            "dns_resource { 'www.example.com': rdata => '192.0.2.1' }",
            "write the title as NAME/TYPE",
        ),
        (
            "dns_resource { 'www.example.com/A': ensure => present }",
            "rdata is required unless ensure is absent",
        ),
        (
            "dns_resource { 'www.example.com/A': rdata => '192.0.2.1', ttl => 'soon' }",
            "Invalid ttl 'soon'",
        ),
        (
            "dns_resource { 'www.example.com/A': rdata => '192.0.2.1', zone => 'example.org' }",
            "The name www.example.com is outside zone example.org",
        ),
        (
            "dns_resource { 'www.example.com/A': rdata => '192.0.2.1', keyfile => '/k', keyname => 'k', secret => 'AA==' }",
            "Give either keyfile or keyname and secret",
        ),
        (
            "dns_resource { 'www.example.com/CNAME': rdata => ['a.example.com', 'b.example.com'] }",
            "at most one CNAME",
        ),
        (
            "dns_resource { 'www.example.com/A': rdata => '192.0.2.1', nameserver => 'bad server' }",
            "Invalid nameserver 'bad server'",
        ),
    ] {
        let path = vardir.path().join("bad.pp");
        std::fs::write(&path, format!("\n{body}\n")).unwrap();
        let run = marionette(&[
            "apply",
            path.to_str().unwrap(),
            "--vardir",
            vardir.path().to_str().unwrap(),
        ]);
        assert_eq!(run.code, 1, "{body}: {}{}", run.stdout, run.stderr);
        assert!(run.stderr.contains(message), "{body}: {}", run.stderr);
        assert!(run.stderr.contains("line: 2"), "{body}: {}", run.stderr);
    }
}

#[test]
fn marionette_resource_lists_a_zone_by_signed_transfer() {
    let named = Named::start(&["mrtest.example"]);
    named.nsupdate("update add www.mrtest.example. 300 A 192.0.2.1\nupdate add www.mrtest.example. 300 A 192.0.2.2\nupdate add mrtest.example. 600 TXT \"hello world\"\n");
    let port = format!("port={}", named.port);
    let keyfile = format!("keyfile={}", named.keyfile.display());
    let run = marionette(&[
        "resource",
        "dns_resource",
        "zone=mrtest.example",
        "nameserver=127.0.0.1",
        &port,
        &keyfile,
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains(
            "dns_resource { 'www.mrtest.example/A':\n  ensure   => 'present',\n  provider => 'rfc2136',\n  rdata    => ['192.0.2.1', '192.0.2.2'],\n  ttl      => 300,\n}\n"
        ),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("dns_resource { 'mrtest.example/TXT':\n  ensure   => 'present',\n  provider => 'rfc2136',\n  rdata    => ['hello world'],\n  ttl      => 600,\n}\n"), "{}", run.stdout);
    assert!(
        run.stdout.contains("dns_resource { 'mrtest.example/NS':"),
        "{}",
        run.stdout
    );
    assert!(
        !run.stdout.contains("/SOA"),
        "SOA records are not managed: {}",
        run.stdout
    );

    // One record set, by title.
    let run = marionette(&[
        "resource",
        "dns_resource",
        "www.mrtest.example/A",
        &port,
        &keyfile,
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("rdata    => ['192.0.2.1', '192.0.2.2'],"),
        "{}",
        run.stdout
    );

    let unsigned = marionette(&["resource", "dns_resource", "zone=mrtest.example", &port]);
    assert_ne!(unsigned.code, 0);
    assert!(
        unsigned.stderr.contains("Listing zone mrtest.example"),
        "{}",
        unsigned.stderr
    );
    let no_zone = marionette(&["resource", "dns_resource"]);
    assert_ne!(no_zone.code, 0);
    assert!(
        no_zone
            .stderr
            .contains("Listing dns_resource needs the zone"),
        "{}",
        no_zone.stderr
    );
}

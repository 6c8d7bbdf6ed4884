//! `dnszone` and `dnsrr` end to end: `marionette apply` and `marionette
//! resource` against a private, real BIND (the named fixture of
//! marionette-types' tests).
//!
//! BIND raises a zone's SOA serial by exactly one for each dynamic update
//! that changes it, so the serial counts the updates a run sent: that is
//! how these tests check that `dnsrr` sends one update per zone per run.

mod common;
#[path = "../../types/tests/named/mod.rs"]
mod named;

use std::path::Path;

use common::{Run, marionette};
use named::Named;

/// `marionette apply` of a manifest, with `--detailed-exitcodes`: 0 for no
/// change, 2 for changes, 4 for failures, 6 for both.
fn apply(vardir: &Path, manifest: &str, extra: &[&str]) -> Run {
    let file = vardir.join("site.pp");
    std::fs::write(&file, manifest).unwrap();
    let vardir_text = vardir.display().to_string();
    let file_text = file.display().to_string();
    let mut args = vec![
        "apply",
        file_text.as_str(),
        "--vardir",
        vardir_text.as_str(),
        "--detailed-exitcodes",
    ];
    args.extend_from_slice(extra);
    marionette(&args)
}

fn report(vardir: &Path) -> serde_json::Value {
    serde_json::from_str(
        &std::fs::read_to_string(vardir.join("state/last_run_report.json")).unwrap(),
    )
    .unwrap()
}

/// The SOA serial of a zone.
fn serial(named: &Named, zone: &str) -> u32 {
    let soa = named.dig(zone, "SOA");
    assert_eq!(soa.len(), 1, "SOA of {zone}: {soa:?}");
    soa[0].split_whitespace().nth(2).unwrap().parse().unwrap()
}

/// Resource defaults that point `dnsrr` at the fixture.
fn dnsrr_defaults(named: &Named) -> String {
    format!(
        "Dnsrr {{ nameserver => '127.0.0.1', port => {}, keyfile => '{}' }}\n",
        named.port,
        named.keyfile.display()
    )
}

fn assert_ran(run: &Run, code: i32) {
    assert_eq!(
        run.code, code,
        "exit code\n--- stdout\n{}--- stderr\n{}",
        run.stdout, run.stderr
    );
}

#[test]
fn dnszone_adds_lists_and_deletes_a_zone() {
    let named = Named::start(&["mrtest.example"]);
    let vardir = tempfile::tempdir().unwrap();
    let zone = |ensure: &str| {
        format!(
            "dnszone {{ 'added.mrtest':
               ensure             => {ensure},
               email              => 'dns.admin@mrtest.example',
               nameserver         => 'ns.added.mrtest',
               nameserver_address => '127.0.0.1',
               zonedir            => '{}',
               keyfile            => '{}',
               rndc_config        => '{}',
             }}\n",
            named.zone_dir.display(),
            named.keyfile.display(),
            named.rndc_conf.display()
        )
    };

    let run = apply(vardir.path(), &zone("present"), &[]);
    assert_ran(&run, 2);
    assert!(
        run.stdout
            .contains("Notice: /Stage[main]/Main/Dnszone[added.mrtest]/ensure: created\n"),
        "{}",
        run.stdout
    );
    assert_eq!(
        named.dig("added.mrtest", "SOA"),
        ["ns.added.mrtest. dns\\.admin.mrtest.example. 1 3600 900 1209600 300"]
    );
    assert_eq!(named.dig("added.mrtest", "NS"), ["ns.added.mrtest."]);
    assert_eq!(named.dig("ns.added.mrtest", "A"), ["127.0.0.1"]);
    // The zone takes updates signed with the key it was given.
    named.nsupdate("update add www.added.mrtest 300 A 192.0.2.1");
    assert_eq!(named.dig("www.added.mrtest", "A"), ["192.0.2.1"]);

    assert_ran(&apply(vardir.path(), &zone("present"), &[]), 0);

    // Only the zone added at run time is listed, not the fixture's zone of
    // named.conf whose file lies in the same directory.
    let listing = marionette(&[
        "resource",
        "dnszone",
        &format!("zonedir={}", named.zone_dir.display()),
        &format!("rndc_config={}", named.rndc_conf.display()),
    ]);
    assert_ran(&listing, 0);
    assert_eq!(
        listing.stdout,
        "dnszone { 'added.mrtest':\n  ensure   => 'present',\n  provider => 'rndc',\n}\n",
        "{}",
        listing.stderr
    );

    // A zone of named.conf is not this provider's to delete.
    let refused = apply(
        vardir.path(),
        &format!(
            "dnszone {{ 'mrtest.example': ensure => absent, rndc_config => '{}' }}\n",
            named.rndc_conf.display()
        ),
        &[],
    );
    assert_ran(&refused, 4);
    assert!(
        refused
            .output()
            .contains("The zone mrtest.example is configured in named.conf, not added at run time: remove it there"),
        "{}",
        refused.output()
    );
    assert_eq!(serial(&named, "mrtest.example"), 1);

    let run = apply(vardir.path(), &zone("absent"), &[]);
    assert_ran(&run, 2);
    assert!(
        run.stdout
            .contains("Notice: /Stage[main]/Main/Dnszone[added.mrtest]/ensure: removed\n"),
        "{}",
        run.stdout
    );
    assert!(named.dig("added.mrtest", "SOA").is_empty());
    assert!(!named.zone_file("added.mrtest").exists());
    assert_ran(&apply(vardir.path(), &zone("absent"), &[]), 0);
}

#[test]
fn dnszone_needs_its_zone_directory() {
    let named = Named::start(&["mrtest.example"]);
    let vardir = tempfile::tempdir().unwrap();
    let manifest = format!(
        "dnszone {{ 'broken.mrtest':
           ensure             => present,
           nameserver         => 'ns.broken.mrtest',
           nameserver_address => '127.0.0.1',
           zonedir            => '{}/missing',
           rndc_config        => '{}',
         }}\n",
        named.zone_dir.display(),
        named.rndc_conf.display()
    );
    let run = apply(vardir.path(), &manifest, &[]);
    assert_ran(&run, 4);
    assert!(
        run.output().contains("The zone directory") && run.output().contains("cannot be used"),
        "{}",
        run.output()
    );
    assert!(named.dig("broken.mrtest", "SOA").is_empty());
}

#[test]
fn dnsrr_sends_one_update_per_zone_per_run() {
    let named = Named::start(&["mrtest.example", "2.0.192.in-addr.arpa"]);
    let vardir = tempfile::tempdir().unwrap();
    let defaults = dnsrr_defaults(&named);
    let first = format!(
        "{defaults}
         dnsrr {{ 'www.mrtest.example': value => ['192.0.2.10', '192.0.2.11'], ttl => 300 }}
         dnsrr {{ 'mail.mrtest.example': value => '192.0.2.25' }}
         dnsrr {{ 'alias.mrtest.example': type => 'CNAME', value => 'www.mrtest.example' }}
         dnsrr {{ 'note.mrtest.example': type => 'TXT', value => 'hello world' }}
         dnsrr {{ 'mrtest.example': type => 'MX', value => '10 mail.mrtest.example', zone => 'mrtest.example' }}
         dnsrr {{ '10.2.0.192.in-addr.arpa': type => 'PTR', value => 'www.mrtest.example' }}
        "
    );
    let run = apply(vardir.path(), &first, &[]);
    assert_ran(&run, 2);
    assert_eq!(
        run.stdout.matches("/ensure: created\n").count(),
        6,
        "{}",
        run.stdout
    );
    assert_eq!(
        named.dig("www.mrtest.example", "A"),
        ["192.0.2.10", "192.0.2.11"]
    );
    assert_eq!(named.dig_ttl("www.mrtest.example", "A"), Some(300));
    assert_eq!(named.dig("mail.mrtest.example", "A"), ["192.0.2.25"]);
    assert_eq!(named.dig_ttl("mail.mrtest.example", "A"), Some(86400));
    assert_eq!(
        named.dig("alias.mrtest.example", "CNAME"),
        ["www.mrtest.example."]
    );
    assert_eq!(named.dig("note.mrtest.example", "TXT"), ["\"hello world\""]);
    assert_eq!(
        named.dig("mrtest.example", "MX"),
        ["10 mail.mrtest.example."]
    );
    assert_eq!(
        named.dig("10.2.0.192.in-addr.arpa", "PTR"),
        ["www.mrtest.example."]
    );
    // Five record sets in one zone, one in the other: one transfer to
    // read each zone, and one update each.
    for zone in ["mrtest.example", "2.0.192.in-addr.arpa"] {
        let transfer = format!("transfer of '{zone}/IN': AXFR started");
        assert_eq!(named.log_text().matches(&transfer).count(), 1, "{zone}");
    }
    assert_eq!(serial(&named, "mrtest.example"), 2);
    assert_eq!(serial(&named, "2.0.192.in-addr.arpa"), 2);
    assert_eq!(report(vardir.path())["status"], "changed");

    // Values in another order and spelling are the same set.
    let same = first
        .replace(
            "['192.0.2.10', '192.0.2.11']",
            "['192.0.2.11', '192.0.2.10']",
        )
        .replace(
            "value => 'www.mrtest.example' }",
            "value => 'WWW.mrtest.example.' }",
        );
    let run = apply(vardir.path(), &same, &[]);
    assert_ran(&run, 0);
    assert_eq!(serial(&named, "mrtest.example"), 2);

    // A changed value, a name that becomes an address instead of an
    // alias, and a removal: still one update.
    let second = format!(
        "{defaults}
         dnsrr {{ 'www.mrtest.example': value => ['192.0.2.10', '192.0.2.12'], ttl => 300 }}
         dnsrr {{ 'mail.mrtest.example': value => '192.0.2.25' }}
         dnsrr {{ 'alias.mrtest.example': type => 'A', value => '192.0.2.30' }}
         dnsrr {{ 'note.mrtest.example': ensure => absent }}
        "
    );
    // In noop nothing is sent.
    let run = apply(vardir.path(), &second, &["--noop"]);
    assert!(
        run.stdout.contains(
            "Dnsrr[alias.mrtest.example]/type: current_value 'CNAME', should be 'A' (noop)"
        ),
        "{}",
        run.stdout
    );
    assert_eq!(serial(&named, "mrtest.example"), 2);

    let run = apply(vardir.path(), &second, &[]);
    assert_ran(&run, 2);
    assert!(
        run.stdout
            .contains("Dnsrr[alias.mrtest.example]/type: type changed 'CNAME' to 'A'"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("Dnsrr[note.mrtest.example]/ensure: removed"),
        "{}",
        run.stdout
    );
    assert_eq!(serial(&named, "mrtest.example"), 3);
    assert_eq!(
        named.dig("www.mrtest.example", "A"),
        ["192.0.2.10", "192.0.2.12"]
    );
    assert_eq!(named.dig("alias.mrtest.example", "A"), ["192.0.2.30"]);
    assert!(named.dig("alias.mrtest.example", "CNAME").is_empty());
    assert!(named.dig("note.mrtest.example", "TXT").is_empty());
    assert_ran(&apply(vardir.path(), &second, &[]), 0);
    assert_eq!(serial(&named, "mrtest.example"), 3);

    // Listing the zone shows each name with its type.
    let listing = marionette(&[
        "resource",
        "dnsrr",
        "zone=mrtest.example",
        &format!("port={}", named.port),
        &format!("keyfile={}", named.keyfile.display()),
    ]);
    assert_ran(&listing, 0);
    assert!(
        listing.stdout.contains(
            "dnsrr { 'alias.mrtest.example':\n  ensure   => 'present',\n  provider => 'rfc2136',\n  ttl      => 86400,\n  type     => 'A',\n  value    => ['192.0.2.30'],\n}\n"
        ),
        "{}{}",
        listing.stdout,
        listing.stderr
    );
}

#[test]
fn dnsrr_speaks_for_every_type_of_its_name() {
    let named = Named::start(&["mrtest.example"]);
    named.nsupdate(
        "update add both.mrtest.example 300 A 192.0.2.1\n\
         update add both.mrtest.example 300 MX 10 mail.elsewhere.example.\n\
         update add both.mrtest.example 300 HINFO \"PC\" \"Linux\"",
    );
    let vardir = tempfile::tempdir().unwrap();
    let manifest = format!(
        "{}dnsrr {{ 'both.mrtest.example': value => '192.0.2.1', ttl => 300 }}\n",
        dnsrr_defaults(&named)
    );
    let run = apply(vardir.path(), &manifest, &["--noop"]);
    assert!(
        run.stdout
            .contains("/type: current_value ['A', 'MX'], should be 'A' (noop)"),
        "{}",
        run.stdout
    );
    let run = apply(vardir.path(), &manifest, &[]);
    assert_ran(&run, 2);
    assert_eq!(named.dig("both.mrtest.example", "A"), ["192.0.2.1"]);
    assert!(named.dig("both.mrtest.example", "MX").is_empty());
    // HINFO is not a type dnsrr speaks for.
    assert_eq!(
        named.dig("both.mrtest.example", "HINFO"),
        ["\"PC\" \"Linux\""]
    );
}

#[test]
fn dnsrr_takes_its_server_from_the_dnszone_created_in_the_same_run() {
    let named = Named::start(&["mrtest.example"]);
    let vardir = tempfile::tempdir().unwrap();
    // The first dnsrr comes before the zone exists and prefetches every
    // dnsrr of the run: the fresh zone's names cannot be read then, and
    // are read again when their turn comes, after their Dnszone.
    let manifest = format!(
        "dnsrr {{ 'first.mrtest.example': value => '192.0.2.1', port => {}, keyfile => '{}' }}
         dnszone {{ 'fresh.mrtest':
           nameserver  => 'ns.mrtest.example',
           zonedir     => '{}',
           keyfile     => '{}',
           rndc_config => '{}',
           rndc_server => '127.0.0.1',
           port        => {},
         }}
         dnsrr {{ 'www.fresh.mrtest': value => '192.0.2.80' }}
         dnsrr {{ 'ftp.fresh.mrtest': type => 'CNAME', value => 'www.fresh.mrtest' }}
        ",
        named.port,
        named.keyfile.display(),
        named.zone_dir.display(),
        named.keyfile.display(),
        named.rndc_conf.display(),
        named.port
    );
    let run = apply(vardir.path(), &manifest, &[]);
    assert_ran(&run, 2);
    assert_eq!(named.dig("first.mrtest.example", "A"), ["192.0.2.1"]);
    assert_eq!(named.dig("www.fresh.mrtest", "A"), ["192.0.2.80"]);
    assert_eq!(
        named.dig("ftp.fresh.mrtest", "CNAME"),
        ["www.fresh.mrtest."]
    );
    // Created with serial 1, then one update.
    assert_eq!(serial(&named, "fresh.mrtest"), 2);
    // Once created, the zone was read by one transfer, not by a query per
    // name and type.
    let transfers = || {
        named
            .log_text()
            .matches("transfer of 'fresh.mrtest/IN': AXFR started")
            .count()
    };
    assert_eq!(transfers(), 1);
    assert_ran(&apply(vardir.path(), &manifest, &[]), 0);
    assert_eq!(serial(&named, "fresh.mrtest"), 2);
    assert_eq!(transfers(), 2);
}

#[test]
fn a_failed_update_fails_every_resource_of_the_zone() {
    let named = Named::start(&["mrtest.example"]);
    let vardir = tempfile::tempdir().unwrap();
    // The exec runs after Dnsrr[race] was evaluated and before the update
    // is sent: it adds a record the update's prerequisites say is absent,
    // so the server refuses the whole update.
    let manifest = format!(
        "{}dnsrr {{ 'race.mrtest.example': value => '192.0.2.1' }}
         dnsrr {{ 'calm.mrtest.example': value => '192.0.2.2' }}
         exec {{ 'meddle':
           command  => \"printf 'server 127.0.0.1 {}\\\\nupdate add race.mrtest.example 300 A 192.0.2.99\\\\nsend\\\\n' | nsupdate -k {}\",
           provider => shell,
           require  => [Dnsrr['race.mrtest.example'], Dnsrr['calm.mrtest.example']],
         }}
        ",
        dnsrr_defaults(&named),
        named.port,
        named.keyfile.display()
    );
    let run = apply(vardir.path(), &manifest, &[]);
    assert_eq!(named.dig("race.mrtest.example", "A"), ["192.0.2.99"]);
    assert!(named.dig("calm.mrtest.example", "A").is_empty());
    // The exec changed something; both records failed.
    assert_ran(&run, 6);
    assert!(
        run.stderr.contains(
            "Error: /Stage[main]/Main/Dnsrr[calm.mrtest.example]: Could not apply the deferred change: The update of zone mrtest.example failed, so none of this run's changes to it were made: "
        ),
        "{}",
        run.output()
    );
    let report = report(vardir.path());
    assert_eq!(report["status"], "failed");
    for name in ["race", "calm"] {
        let status = &report["resource_statuses"][format!("Dnsrr[{name}.mrtest.example]")];
        assert_eq!(status["failed"], true, "{status}");
        assert_eq!(status["changed"], false, "{status}");
        assert_eq!(status["events"][0]["status"], "failure", "{status}");
    }
    assert_eq!(
        serial(&named, "mrtest.example"),
        2,
        "only the exec's update"
    );

    // The next run reads the records again and gets its way.
    let run = apply(
        vardir.path(),
        &format!(
            "{}dnsrr {{ 'race.mrtest.example': value => '192.0.2.1' }}
             dnsrr {{ 'calm.mrtest.example': value => '192.0.2.2' }}\n",
            dnsrr_defaults(&named)
        ),
        &[],
    );
    assert_ran(&run, 2);
    assert_eq!(named.dig("race.mrtest.example", "A"), ["192.0.2.1"]);
    assert_eq!(named.dig("calm.mrtest.example", "A"), ["192.0.2.2"]);
    assert_eq!(serial(&named, "mrtest.example"), 3);
}

#[test]
fn marionette_resource_changes_a_dnsrr_at_once() {
    let named = Named::start(&["mrtest.example"]);
    let port = format!("port={}", named.port);
    let keyfile = format!("keyfile={}", named.keyfile.display());
    let run = marionette(&[
        "resource",
        "dnsrr",
        "api.mrtest.example",
        "value=192.0.2.44",
        &port,
        &keyfile,
    ]);
    assert_ran(&run, 0);
    assert_eq!(
        run.stderr,
        "Notice: /Dnsrr[api.mrtest.example]/ensure: created\n"
    );
    // What is shown is read after the update was sent.
    assert_eq!(
        run.stdout,
        "dnsrr { 'api.mrtest.example':\n  ensure   => 'present',\n  provider => 'rfc2136',\n  value    => ['192.0.2.44'],\n}\n"
    );
    assert_eq!(named.dig("api.mrtest.example", "A"), ["192.0.2.44"]);
}

#[test]
fn invalid_dnsrr_resources_are_refused_before_anything_runs() {
    let vardir = tempfile::tempdir().unwrap();
    for (manifest, message) in [
        (
            "dnsrr { 'www': value => '192.0.2.1' }",
            "Validation of Dnsrr[www] failed: No zone defined and name is not a FQDN",
        ),
        (
            "dnsrr { 'www.example.com': value => '' }",
            "Parameter value failed on Dnsrr[www.example.com]: Empty values are not allowed",
        ),
        (
            "dnsrr { 'www.example.com': value => 'web.example.com' }",
            "Validation of Dnsrr[www.example.com] failed: Invalid IP address web.example.com for given type A",
        ),
        (
            "dnsrr { 'v6.example.com': type => 'AAAA', value => '192.0.2.1' }",
            "Validation of Dnsrr[v6.example.com] failed: Invalid IP address 192.0.2.1 for given type AAAA",
        ),
    ] {
        let run = apply(vardir.path(), manifest, &[]);
        assert_eq!(run.code, 1, "{manifest}: {}{}", run.stdout, run.stderr);
        assert!(
            format!("{}{}", run.stdout, run.stderr).contains(message),
            "{manifest}: {}{}",
            run.stdout,
            run.stderr
        );
    }
}

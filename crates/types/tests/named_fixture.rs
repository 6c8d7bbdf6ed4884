//! The `named` fixture itself: a real BIND 9 server comes up, takes signed
//! updates, answers `dig` and `rndc`, keeps concurrent instances apart and
//! goes away when dropped.

mod named;

use std::process::Command;
use std::time::Instant;

use named::Named;

/// Whether anything answers DNS on 127.0.0.1 at `port`, asked once with a
/// short timeout so that a dead port fails fast.
fn answers(port: u16) -> bool {
    let output = Command::new("dig")
        .args(["+short", "+norecurse", "+time=1", "+tries=1"])
        .arg(format!("-p{port}"))
        .args(["@127.0.0.1", "mrtest.example", "SOA"])
        .output()
        .expect("run dig");
    output.status.success()
}

#[test]
fn serves_updates_answers_rndc_and_stops() {
    let started = Instant::now();
    let named = Named::start(&["mrtest.example"]);
    eprintln!("named started in {:?}", started.elapsed());

    assert_eq!(named.key_name, "mrtest-key");
    assert!(!named.key_secret.is_empty());
    assert!(named.dig("www.mrtest.example", "A").is_empty());

    named.nsupdate("update add www.mrtest.example 300 A 192.0.2.1\nsend\n");
    assert_eq!(named.dig("www.mrtest.example", "A"), ["192.0.2.1"]);
    assert_eq!(named.dig_ttl("www.mrtest.example", "A"), Some(300));
    // The update bumped the serial, so the zone really changed on the server.
    let soa = named.dig("mrtest.example", "SOA");
    assert_eq!(soa.len(), 1);
    assert_eq!(soa[0].split_whitespace().nth(2), Some("2"), "{soa:?}");

    let status = named.rndc(&["status"]);
    assert!(
        status.status.success(),
        "rndc status: {}{}",
        String::from_utf8_lossy(&status.stdout),
        String::from_utf8_lossy(&status.stderr)
    );
    assert!(String::from_utf8_lossy(&status.stdout).contains("server is up and running"));

    let port = named.port;
    let pid = named.pid();
    let dir = named.dir.path().to_path_buf();
    assert!(answers(port));
    let stopping = Instant::now();
    drop(named);
    eprintln!("named stopped in {:?}", stopping.elapsed());
    assert!(!answers(port), "port {port} still answers after drop");
    // Drop reaped named, so not even a zombie is left.
    assert!(!std::path::Path::new(&format!("/proc/{pid}")).exists());
    assert!(!dir.exists());
}

#[test]
fn reverse_zones_and_signed_transfers() {
    let named = Named::start(&["mrtest.example", "2.168.192.in-addr.arpa"]);
    named.nsupdate("update add 7.2.168.192.in-addr.arpa 600 PTR mrtest-host.mrtest.example.");
    assert_eq!(
        named.dig("7.2.168.192.in-addr.arpa", "PTR"),
        ["mrtest-host.mrtest.example."]
    );
    assert_eq!(named.dig("2.168.192.in-addr.arpa", "NS"), ["localhost."]);

    // Transfers need the key: unsigned ones are refused.
    let axfr = |key: Option<String>| {
        let mut dig = Command::new("dig");
        if let Some(key) = key {
            dig.arg("-y").arg(key);
        }
        let output = dig
            .args(["+noall", "+answer", "+time=2", "+tries=1"])
            .arg(format!("-p{}", named.port))
            .args(["@127.0.0.1", "2.168.192.in-addr.arpa", "AXFR"])
            .output()
            .expect("run dig");
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let signed = axfr(Some(format!(
        "hmac-sha256:{}:{}",
        named.key_name, named.key_secret
    )));
    assert!(signed.contains("mrtest-host.mrtest.example."), "{signed}");
    let unsigned = axfr(None);
    assert!(!unsigned.contains("mrtest-host"), "{unsigned}");
}

#[test]
fn concurrent_fixtures_do_not_share_anything() {
    let (a, b) = std::thread::scope(|scope| {
        let a = scope.spawn(|| Named::start(&["mrtest.example"]));
        let b = scope.spawn(|| Named::start(&["mrtest.example"]));
        (a.join().unwrap(), b.join().unwrap())
    });
    assert_ne!(a.port, b.port);
    assert_ne!(a.rndc_port, b.rndc_port);
    assert_ne!(a.dir.path(), b.dir.path());
    assert_ne!(a.key_secret, b.key_secret);

    a.nsupdate("update add mrtest-only-a.mrtest.example 60 TXT \"a\"");
    assert_eq!(a.dig("mrtest-only-a.mrtest.example", "TXT"), ["\"a\""]);
    assert!(b.dig("mrtest-only-a.mrtest.example", "TXT").is_empty());
    // Each rndc configuration reaches its own server only.
    let status = b.rndc(&["status"]);
    assert!(status.status.success());
    assert!(String::from_utf8_lossy(&status.stdout).contains(&b.conf.display().to_string()));
}

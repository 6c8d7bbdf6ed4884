//! `marionette ca`: the certificate authority administered from the
//! command line, with `puppetserver ca`'s messages, its certificates
//! checked by OpenSSL.

mod common;

use std::path::Path;

fn ca(cadir: &Path, args: &[&str]) -> common::Run {
    let mut all = vec![
        "ca",
        "--cadir",
        cadir.to_str().unwrap(),
        "--keylength",
        "2048",
    ];
    all.extend_from_slice(args);
    common::marionette(&all)
}

fn require_openssl() {
    let found = std::process::Command::new("openssl")
        .arg("version")
        .output();
    assert!(
        found.is_ok_and(|o| o.status.success()),
        "this test needs openssl: apt-get install openssl"
    );
}

#[test]
fn certificates_are_generated_listed_revoked_and_cleaned() {
    require_openssl();
    let dir = tempfile::Builder::new()
        .prefix("mrtest-ca")
        .tempdir()
        .unwrap();
    let (cadir, ssldir) = (dir.path().join("ca"), dir.path().join("ssl"));
    let name = "mrtest-agent1.example.com";

    let run = ca(&cadir, &["setup"]);
    assert_eq!(run.code, 0, "{}", run.output());
    let run = ca(&cadir, &["list", "--all"]);
    assert_eq!(run.stdout, "No certificates to list\n", "{}", run.output());

    let run = ca(
        &cadir,
        &[
            "generate",
            "--certname",
            name,
            "--ssldir",
            ssldir.to_str().unwrap(),
        ],
    );
    assert_eq!(run.code, 0, "{}", run.output());
    let cert = ssldir.join(format!("certs/{name}.pem"));
    assert_eq!(
        run.stdout,
        format!(
            "Successfully saved certificate for {name} to {}\n",
            cert.display()
        )
    );
    let key = ssldir.join(format!("private_keys/{name}.pem"));
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(
        std::fs::metadata(&key).unwrap().permissions().mode() & 0o777,
        0o600
    );
    let verify = |crl: bool| {
        let mut cmd = std::process::Command::new("openssl");
        cmd.arg("verify")
            .arg("-CAfile")
            .arg(cadir.join("ca_crt.pem"));
        if crl {
            cmd.arg("-crl_check")
                .arg("-CRLfile")
                .arg(cadir.join("ca_crl.pem"));
        }
        cmd.arg(&cert).output().unwrap().status.success()
    };
    assert!(verify(true), "OpenSSL accepts the certificate");

    let run = ca(&cadir, &["list", "--all"]);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines[0], "Signed Certificates:", "{}", run.output());
    assert!(
        lines[1].starts_with(&format!("    {name}       (SHA256)  "))
            && lines[1].ends_with(&format!("\talt names: [\"DNS:{name}\"]")),
        "{}",
        run.output()
    );
    // Only requests are listed without --all.
    assert_eq!(ca(&cadir, &["list"]).stdout, "No certificates to list\n");

    let run = ca(
        &cadir,
        &["revoke", "--certname", &format!("{name},mrtest-nosuch")],
    );
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stdout,
        format!("Certificate for {name} has been revoked\n")
    );
    assert_eq!(
        run.stderr,
        "Error:\n    Could not find certificate for mrtest-nosuch\n"
    );
    assert!(!verify(true), "OpenSSL refuses the revoked certificate");
    assert!(verify(false), "it still chains to the CA");

    let run = ca(&cadir, &["list", "--all", "--format", "json"]);
    let listed: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    assert_eq!(listed["revoked"][0]["name"], name);
    assert_eq!(listed["revoked"][0]["state"], "revoked");
    assert_eq!(listed["signed"], serde_json::json!([]));

    let run = ca(&cadir, &["sign", "--certname", "mrtest-nosuch"]);
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stderr,
        "Error:\n    Could not find certificate request for mrtest-nosuch\n"
    );

    let run = ca(&cadir, &["clean", "--certname", name]);
    assert_eq!(
        run.stdout,
        format!("Cleaned files related to {name}\n"),
        "{}",
        run.output()
    );
    assert_eq!(
        ca(&cadir, &["list", "--all"]).stdout,
        "No certificates to list\n"
    );
}

#[test]
fn usage_errors_exit_1() {
    let dir = tempfile::Builder::new()
        .prefix("mrtest-ca")
        .tempdir()
        .unwrap();
    let run = ca(&dir.path().join("ca"), &["sign"]);
    assert_eq!(run.code, 1, "{}", run.output());
}

#[test]
fn commands_never_make_a_ca_and_find_the_servers() {
    let dir = tempfile::Builder::new()
        .prefix("mrtest-ca")
        .tempdir()
        .unwrap();
    let cadir = dir.path().join("ca");
    // A mistyped or empty directory is refused, and left empty: a CA made
    // there would be one that no agent trusts.
    for args in [
        &["list", "--all"][..],
        &["sign", "--certname", "x"],
        &["generate", "--certname", "x"],
    ] {
        let run = ca(&cadir, args);
        assert_eq!(run.code, 1, "{args:?}: {}", run.output());
        assert_eq!(
            run.stderr,
            format!(
                "Error: There is no certificate authority in {}: `marionette server` makes one when it first starts, and `marionette ca setup` makes one now\n",
                cadir.display()
            ),
            "{args:?}"
        );
        assert!(!cadir.exists(), "{args:?} made {}", cadir.display());
    }
    let run = ca(&cadir, &["setup"]);
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (
            0,
            format!(
                "Generation succeeded. Find your files in {}\n",
                cadir.display()
            )
            .as_str()
        ),
        "{}",
        run.output()
    );
    assert!(cadir.join("ca_crt.pem").is_file());
    let run = ca(&cadir, &["setup"]);
    assert_eq!(run.code, 1, "{}", run.output());
    assert!(
        run.stderr
            .contains("A certificate authority exists already"),
        "{}",
        run.output()
    );
    // Without --cadir, the server's setting in the settings file names it,
    // from its [server] section as the server reads it.
    let config = dir.path().join("puppet.conf");
    std::fs::write(&config, format!("[server]\ncadir = {}\n", cadir.display())).unwrap();
    let run = common::marionette(&[
        "--config",
        config.to_str().unwrap(),
        "--vardir",
        dir.path().join("var").to_str().unwrap(),
        "ca",
        "list",
        "--all",
    ]);
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (0, "No certificates to list\n"),
        "{}",
        run.output()
    );
    assert!(!dir.path().join("var/ca").exists());
}

//! Compatibility with the real tools: OpenSSL (Debian's `openssl`) and
//! Puppet 7's own Ruby SSL code, the code a Puppet agent runs. Requests made
//! by `openssl req` and by Puppet's `Puppet::SSL::CertificateRequest` are
//! signed by our CA, and the certificates and CRL are verified by
//! `openssl verify -crl_check` and by `Puppet::SSL::SSLProvider`, which is
//! how an agent checks its certificate, the CA and the CRL before it talks
//! to a server.

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

use marionette_ca::{CertificateAuthority, CsrOutcome, Settings};

fn run(program: &str, args: &[&str], cwd: &Path) -> Output {
    Command::new(program)
        .args(args)
        .current_dir(cwd)
        .output()
        .unwrap_or_else(|e| {
            panic!("cannot run {program} ({e}): install it with `apt-get install {program}`")
        })
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn openssl(args: &[&str], cwd: &Path) -> Output {
    run("openssl", args, cwd)
}

/// Puppet's agent-side SSL code, driven from Ruby.
const PUPPET_SCRIPT: &str = r#"
require 'puppet'
require 'puppet/ssl'
dir = ARGV[1]
Puppet.initialize_settings(['--confdir', dir, '--vardir', dir, '--ssldir', File.join(dir, 'ssl'),
                            '--logdir', dir, '--rundir', dir, '--codedir', dir])
# The agent registers Puppet's OID short names (pp_role, ...) at start.
Puppet::SSL::Oids.register_puppet_oids
case ARGV[0]
when 'csr'
  key = OpenSSL::PKey::RSA.new(2048)
  File.write(File.join(dir, ARGV[2] + '_key.pem'), key.to_pem)
  csr = Puppet::SSL::CertificateRequest.new(ARGV[2])
  csr.generate(key, extension_requests: { 'pp_role' => 'db', '1.3.6.1.4.1.34380.1.2.1' => 'private' })
  print csr.to_s
when 'verify'
  cacerts = [OpenSSL::X509::Certificate.new(File.read(ARGV[2]))]
  crls = [OpenSSL::X509::CRL.new(File.read(ARGV[3]))]
  cert = OpenSSL::X509::Certificate.new(File.read(ARGV[4]))
  key = OpenSSL::PKey.read(File.read(ARGV[5]))
  Puppet::SSL::SSLProvider.new.create_context(cacerts: cacerts, crls: crls, private_key: key,
                                              client_cert: cert, revocation: :chain)
  puts 'verified'
end
"#;

fn puppet(args: &[&str], dir: &Path) -> Output {
    let script = dir.join("puppet_ssl.rb");
    fs::write(&script, PUPPET_SCRIPT).unwrap();
    let script = script.to_string_lossy().into_owned();
    let mut all = vec![script.as_str()];
    all.extend_from_slice(args);
    let out = run("ruby", &all, dir);
    assert!(
        !text(&out).contains("cannot load such file -- puppet"),
        "Puppet's Ruby library is missing: install it with `apt-get install puppet`"
    );
    out
}

#[test]
fn openssl_and_puppet_accept_our_certificates_and_crl() {
    let version = openssl(&["version"], Path::new("/"));
    assert!(
        version.status.success(),
        "openssl does not run: apt-get install openssl"
    );

    let tmp = tempfile::Builder::new()
        .prefix("mrtest-ca-openssl-")
        .tempdir()
        .unwrap();
    let dir = tmp.path();
    let cadir = dir.join("ca");
    // Puppet's defaults, 4096-bit CA key included: this is what agents meet.
    let mut settings = Settings::new("server.example.com");
    settings.key_length = 4096;
    let ca = CertificateAuthority::open_or_create(&cadir, settings).unwrap();
    let ca_crt = cadir.join("ca_crt.pem");
    let ca_crl = cadir.join("ca_crl.pem");
    let (ca_crt_s, ca_crl_s) = (
        ca_crt.to_string_lossy().into_owned(),
        ca_crl.to_string_lossy().into_owned(),
    );

    // OpenSSL reads the CA's key, certificate and (empty) CRL.
    let out = openssl(&["rsa", "-check", "-noout", "-in", "ca/ca_key.pem"], dir);
    assert!(text(&out).contains("RSA key ok"), "{}", text(&out));
    let out = openssl(&["x509", "-noout", "-text", "-in", "ca/ca_crt.pem"], dir);
    let ca_text = text(&out);
    assert!(
        ca_text.contains("Subject: CN = Puppet CA: server.example.com"),
        "{ca_text}"
    );
    assert!(
        ca_text.contains("CA:TRUE") && ca_text.contains("Certificate Sign, CRL Sign"),
        "{ca_text}"
    );
    assert!(ca_text.contains("Public-Key: (4096 bit)"), "{ca_text}");
    let out = openssl(
        &[
            "crl",
            "-noout",
            "-in",
            "ca/ca_crl.pem",
            "-CAfile",
            "ca/ca_crt.pem",
        ],
        dir,
    );
    assert!(
        out.status.success() && text(&out).contains("verify OK"),
        "{}",
        text(&out)
    );

    // A request made by `openssl req` with a pp_role extension request.
    let out = openssl(
        &[
            "req",
            "-new",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            "agent1_key.pem",
            "-subj",
            "/CN=agent1.example.com",
            "-addext",
            "1.3.6.1.4.1.34380.1.1.13=ASN1:UTF8String:webserver",
            "-out",
            "agent1.csr",
        ],
        dir,
    );
    assert!(out.status.success(), "{}", text(&out));
    let csr = fs::read_to_string(dir.join("agent1.csr")).unwrap();
    assert_eq!(
        ca.submit_csr("agent1.example.com", &csr).unwrap(),
        CsrOutcome::Pending
    );
    ca.sign("agent1.example.com").unwrap();
    let signed = "ca/signed/agent1.example.com.pem";
    for purpose in ["sslclient", "sslserver"] {
        let out = openssl(
            &[
                "verify",
                "-CAfile",
                &ca_crt_s,
                "-crl_check",
                "-CRLfile",
                &ca_crl_s,
                "-purpose",
                purpose,
                signed,
            ],
            dir,
        );
        assert!(
            out.status.success() && text(&out).contains(": OK"),
            "{purpose}: {}",
            text(&out)
        );
    }
    let out = openssl(&["x509", "-noout", "-text", "-in", signed], dir);
    let cert_text = text(&out);
    for needle in [
        "Serial Number: 2 (0x2)",
        "Issuer: CN = Puppet CA: server.example.com",
        "Subject: CN = agent1.example.com",
        "X509v3 Basic Constraints: critical",
        "CA:FALSE",
        "X509v3 Extended Key Usage: critical",
        "TLS Web Server Authentication, TLS Web Client Authentication",
        "X509v3 Key Usage: critical",
        "Digital Signature, Key Encipherment",
        "X509v3 Subject Key Identifier",
        "X509v3 Authority Key Identifier",
        "Puppet Server Internal Certificate",
        "1.3.6.1.4.1.34380.1.1.13",
        "webserver",
        "DNS:agent1.example.com",
        "sha256WithRSAEncryption",
    ] {
        assert!(
            cert_text.contains(needle),
            "{needle} missing in\n{cert_text}"
        );
    }
    // The authority key identifier of the certificate is the CA's subject
    // key identifier, which is how OpenSSL and Ruby pick the issuer.
    let ski = ca_text
        .split("X509v3 Subject Key Identifier: \n")
        .nth(1)
        .and_then(|s| s.lines().next())
        .map(str::trim)
        .unwrap()
        .to_string();
    assert!(cert_text.contains(&ski), "AKI {ski} in\n{cert_text}");

    // Puppet's own agent code: a request as `puppet ssl submit_request`
    // makes it, with pp_role and a private-arc extension.
    let pdir = dir.join("puppet");
    fs::create_dir_all(&pdir).unwrap();
    let pdir_s = pdir.to_string_lossy().into_owned();
    let out = puppet(&["csr", &pdir_s, "agent2"], dir);
    assert!(out.status.success(), "{}", text(&out));
    let puppet_csr = String::from_utf8(out.stdout).unwrap();
    ca.submit_csr("agent2", &puppet_csr).unwrap();
    let status = ca.certificate_status("agent2").unwrap();
    assert_eq!(status.state, marionette_ca::CertificateState::Requested);
    ca.sign("agent2").unwrap();
    let out = openssl(
        &["x509", "-noout", "-text", "-in", "ca/signed/agent2.pem"],
        dir,
    );
    let text2 = text(&out);
    assert!(
        text2.contains("1.3.6.1.4.1.34380.1.1.13") && text2.contains("db"),
        "{text2}"
    );
    assert!(
        text2.contains("1.3.6.1.4.1.34380.1.2.1") && text2.contains("private"),
        "{text2}"
    );

    // Puppet's SSL provider accepts both certificates with their keys,
    // checking chain, CRL and key match as an agent does.
    let agent2_key = pdir.join("agent2_key.pem").to_string_lossy().into_owned();
    for (cert, key) in [
        (
            "ca/signed/agent1.example.com.pem",
            dir.join("agent1_key.pem").to_string_lossy().into_owned(),
        ),
        ("ca/signed/agent2.pem", agent2_key.clone()),
    ] {
        let out = puppet(&["verify", &pdir_s, &ca_crt_s, &ca_crl_s, cert, &key], dir);
        assert!(text(&out).contains("verified"), "{cert}: {}", text(&out));
    }

    // The server's own certificate, with the generated key.
    let host = ca
        .issue_host_certificate("server.example.com", &[], true)
        .unwrap();
    host.write_to(&dir.join("server_crt.pem"), &dir.join("server_key.pem"))
        .unwrap();
    let out = puppet(
        &[
            "verify",
            &pdir_s,
            &ca_crt_s,
            &ca_crl_s,
            "server_crt.pem",
            "server_key.pem",
        ],
        dir,
    );
    assert!(text(&out).contains("verified"), "{}", text(&out));
    let out = openssl(
        &[
            "verify",
            "-CAfile",
            &ca_crt_s,
            "-purpose",
            "sslserver",
            "-verify_hostname",
            "puppet",
            "server_crt.pem",
        ],
        dir,
    );
    assert!(out.status.success(), "{}", text(&out));

    // Revocation: OpenSSL and Puppet both see it in the re-signed CRL.
    ca.revoke("agent1.example.com").unwrap();
    let out = openssl(
        &[
            "crl",
            "-noout",
            "-text",
            "-in",
            "ca/ca_crl.pem",
            "-CAfile",
            "ca/ca_crt.pem",
        ],
        dir,
    );
    let crl_text = text(&out);
    assert!(crl_text.contains("verify OK"), "{crl_text}");
    assert!(crl_text.contains("Serial Number: 02"), "{crl_text}");
    assert!(
        crl_text.contains("X509v3 CRL Number: \n                1"),
        "{crl_text}"
    );
    assert!(crl_text.contains("Key Compromise"), "{crl_text}");
    let out = openssl(
        &[
            "verify",
            "-CAfile",
            &ca_crt_s,
            "-crl_check",
            "-CRLfile",
            &ca_crl_s,
            signed,
        ],
        dir,
    );
    assert!(
        !out.status.success() && text(&out).contains("certificate revoked"),
        "{}",
        text(&out)
    );
    let key1 = dir.join("agent1_key.pem").to_string_lossy().into_owned();
    let out = puppet(
        &["verify", &pdir_s, &ca_crt_s, &ca_crl_s, signed, &key1],
        dir,
    );
    assert!(
        !out.status.success() && text(&out).contains("revoked"),
        "{}",
        text(&out)
    );
    // The other agent is unaffected.
    let out = puppet(
        &[
            "verify",
            &pdir_s,
            &ca_crt_s,
            &ca_crl_s,
            "ca/signed/agent2.pem",
            &agent2_key,
        ],
        dir,
    );
    assert!(text(&out).contains("verified"), "{}", text(&out));
}

/// A CA directory made by other tools (here OpenSSL, with a PKCS#1 key and a
/// CRL numbered 1, as an existing puppetserver CA would have) opens as is,
/// signs, and revokes with the next CRL number.
#[test]
fn opens_a_ca_made_by_openssl() {
    let version = openssl(&["version"], Path::new("/"));
    assert!(
        version.status.success(),
        "openssl does not run: apt-get install openssl"
    );
    let tmp = tempfile::Builder::new()
        .prefix("mrtest-ca-foreign-")
        .tempdir()
        .unwrap();
    let dir = tmp.path();
    let cadir = dir.join("ca");
    fs::create_dir_all(&cadir).unwrap();
    let steps: &[&[&str]] = &[
        &["genrsa", "-traditional", "-out", "ca_key.pem", "2048"],
        &[
            "req",
            "-x509",
            "-new",
            "-key",
            "ca_key.pem",
            "-subj",
            "/CN=Puppet CA: old.example.com",
            "-days",
            "365",
            "-set_serial",
            "1",
            "-addext",
            "basicConstraints=critical,CA:TRUE",
            "-addext",
            "keyUsage=critical,keyCertSign,cRLSign",
            "-out",
            "ca_crt.pem",
        ],
        &["rsa", "-in", "ca_key.pem", "-pubout", "-out", "ca_pub.pem"],
    ];
    for args in steps {
        let out = openssl(args, &cadir);
        assert!(out.status.success(), "{args:?}: {}", text(&out));
    }
    assert!(
        fs::read_to_string(cadir.join("ca_key.pem"))
            .unwrap()
            .starts_with("-----BEGIN RSA PRIVATE KEY-----")
    );
    fs::write(
        dir.join("openssl.cnf"),
        "[ca]\ndefault_ca = d\n[d]\ndatabase = index.txt\ncrlnumber = crlnumber\ndefault_md = sha256\ndefault_crl_days = 30\n",
    )
    .unwrap();
    fs::write(dir.join("index.txt"), "").unwrap();
    fs::write(dir.join("crlnumber"), "01\n").unwrap();
    let out = openssl(
        &[
            "ca",
            "-config",
            "openssl.cnf",
            "-gencrl",
            "-keyfile",
            "ca/ca_key.pem",
            "-cert",
            "ca/ca_crt.pem",
            "-out",
            "ca/ca_crl.pem",
        ],
        dir,
    );
    assert!(out.status.success(), "{}", text(&out));
    fs::write(cadir.join("serial"), "0005\n").unwrap();
    fs::write(cadir.join("inventory.txt"), "").unwrap();

    let mut settings = Settings::new("old.example.com");
    settings.key_length = 2048;
    let ca = CertificateAuthority::open_or_create(&cadir, settings).unwrap();
    let out = openssl(
        &[
            "req",
            "-new",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            "key.pem",
            "-subj",
            "/CN=agent1",
            "-out",
            "agent1.csr",
        ],
        dir,
    );
    assert!(out.status.success(), "{}", text(&out));
    ca.submit_csr(
        "agent1",
        &fs::read_to_string(dir.join("agent1.csr")).unwrap(),
    )
    .unwrap();
    ca.sign("agent1").unwrap();
    assert_eq!(fs::read_to_string(cadir.join("serial")).unwrap(), "0006");
    ca.revoke("agent1").unwrap();
    let out = openssl(
        &[
            "crl",
            "-noout",
            "-text",
            "-in",
            "ca/ca_crl.pem",
            "-CAfile",
            "ca/ca_crt.pem",
        ],
        dir,
    );
    let crl_text = text(&out);
    assert!(crl_text.contains("verify OK"), "{crl_text}");
    assert!(crl_text.contains("Serial Number: 05"), "{crl_text}");
    assert!(
        crl_text.contains("X509v3 CRL Number: \n                2"),
        "{crl_text}"
    );
    let out = openssl(
        &[
            "verify",
            "-CAfile",
            "ca/ca_crt.pem",
            "-crl_check",
            "-CRLfile",
            "ca/ca_crl.pem",
            "ca/signed/agent1.pem",
        ],
        dir,
    );
    assert!(text(&out).contains("certificate revoked"), "{}", text(&out));
}

/// A request with a key too small to trust is refused with what is wrong
/// with it, not as a signature that does not match.
#[test]
fn refuses_small_rsa_keys_by_their_size() {
    let dir = tempfile::Builder::new()
        .prefix("mrtest-ca-")
        .tempdir()
        .unwrap();
    let mut settings = Settings::new("server.example.com");
    settings.key_length = 2048;
    let ca = CertificateAuthority::open_or_create(&dir.path().join("ca"), settings).unwrap();
    for bits in ["512", "1024"] {
        let name = format!("mrtest-small{bits}");
        let out = openssl(
            &[
                "req",
                "-new",
                "-newkey",
                &format!("rsa:{bits}"),
                "-nodes",
                "-keyout",
                "key.pem",
                "-subj",
                &format!("/CN={name}"),
                "-out",
                "req.pem",
            ],
            dir.path(),
        );
        assert!(out.status.success(), "{}", text(&out));
        let pem = fs::read_to_string(dir.path().join("req.pem")).unwrap();
        let refused = ca.submit_csr(&name, &pem).unwrap_err().to_string();
        assert_eq!(
            refused,
            format!(
                "CSR '{name}' has a {bits}-bit RSA key, which is too small: the CA signs keys of at least 2048 bits. Make a new key (Puppet's keylength setting) and request again."
            )
        );
        assert!(ca.csr_pem(&name).unwrap().is_none(), "nothing kept");
    }
}

//! The CA's behaviour through its public interface: files on disk, requests,
//! signing, autosigning, revocation and status, checked with x509-parser.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use marionette_ca::{
    Autosign, CaError, CertificateAuthority, CertificateState, CsrOutcome, Settings,
};
use rcgen::{CertificateParams, CustomExtension, DnType, KeyPair};
use x509_parser::prelude::*;

const PP_ROLE: &[u64] = &[1, 3, 6, 1, 4, 1, 34380, 1, 1, 13];
const PP_AUTHORIZATION: &[u64] = &[1, 3, 6, 1, 4, 1, 34380, 1, 3, 1];

fn tempdir() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("mrtest-ca-")
        .tempdir()
        .expect("temp dir")
}

fn settings() -> Settings {
    let mut s = Settings::new("server.example.com");
    // 2048-bit keys keep the tests quick; the default is Puppet's 4096.
    s.key_length = 2048;
    s
}

fn open(dir: &Path, settings: Settings) -> CertificateAuthority {
    CertificateAuthority::open_or_create(&dir.join("ca"), settings).expect("open CA")
}

/// A UTF8String, as Puppet encodes extension values.
fn utf8(s: &str) -> Vec<u8> {
    let mut v = vec![0x0c, s.len() as u8];
    v.extend_from_slice(s.as_bytes());
    v
}

/// A request for `cn`, with optional alt names and extra extensions.
fn csr(cn: &str, alt_names: &[&str], extensions: &[(&[u64], &str)]) -> String {
    let key = KeyPair::generate().expect("key");
    let mut params =
        CertificateParams::new(alt_names.iter().map(|s| s.to_string()).collect::<Vec<_>>())
            .expect("params");
    params.distinguished_name = rcgen::DistinguishedName::new();
    params.distinguished_name.push(DnType::CommonName, cn);
    for (oid, value) in extensions {
        params
            .custom_extensions
            .push(CustomExtension::from_oid_content(oid, utf8(value)));
    }
    params
        .serialize_request(&key)
        .expect("csr")
        .pem()
        .expect("pem")
}

fn pem_der(pem: &str) -> Vec<u8> {
    let (_, p) = x509_parser::pem::parse_x509_pem(pem.as_bytes()).expect("pem");
    p.contents
}

/// The serial number of a certificate in PEM.
fn serial_of(pem: &str) -> Vec<u8> {
    let der = pem_der(pem);
    parse_x509_certificate(&der)
        .unwrap()
        .1
        .raw_serial()
        .to_vec()
}

fn mode(path: &Path) -> u32 {
    fs::metadata(path).expect("metadata").permissions().mode() & 0o777
}

#[test]
fn creates_puppets_files() {
    let dir = tempdir();
    let ca = open(dir.path(), settings());
    let cadir = dir.path().join("ca");
    for f in [
        "ca_crt.pem",
        "ca_key.pem",
        "ca_pub.pem",
        "ca_crl.pem",
        "serial",
        "inventory.txt",
    ] {
        assert!(cadir.join(f).is_file(), "{f}");
    }
    assert!(cadir.join("requests").is_dir());
    assert!(cadir.join("signed").is_dir());
    assert_eq!(mode(&cadir.join("ca_key.pem")), 0o600);
    assert_eq!(fs::read_to_string(cadir.join("serial")).unwrap(), "0002");
    let inventory = fs::read_to_string(cadir.join("inventory.txt")).unwrap();
    assert!(
        inventory.starts_with("0x0001 ")
            && inventory.ends_with(" /CN=Puppet CA: server.example.com\n"),
        "{inventory}"
    );

    let der = pem_der(ca.ca_certificate_pem());
    let (_, cert) = parse_x509_certificate(&der).unwrap();
    assert_eq!(
        cert.subject()
            .iter_common_name()
            .next()
            .unwrap()
            .as_str()
            .unwrap(),
        "Puppet CA: server.example.com"
    );
    let bc = cert.basic_constraints().unwrap().unwrap();
    assert!(bc.critical && bc.value.ca);
    let ku = cert.key_usage().unwrap().unwrap().value;
    assert!(ku.key_cert_sign() && ku.crl_sign() && !ku.digital_signature());
    assert!(cert.verify_signature(None).is_ok(), "self-signed");
    assert!(
        cert.public_key()
            .parsed()
            .map(|k| matches!(k, x509_parser::public_key::PublicKey::RSA(_)))
            .unwrap()
    );

    // Opening again loads the same CA rather than making a new one.
    drop(ca);
    let again = open(dir.path(), settings());
    assert_eq!(
        again.ca_certificate_pem(),
        fs::read_to_string(cadir.join("ca_crt.pem")).unwrap()
    );
    assert_eq!(pem_der(again.ca_certificate_pem()), der);

    // A directory with some files missing is refused, naming them.
    fs::remove_file(cadir.join("serial")).unwrap();
    match CertificateAuthority::open_or_create(&cadir, settings()) {
        Err(CaError::PartialState { missing, .. }) => {
            assert_eq!(missing, vec![cadir.join("serial")])
        }
        other => panic!("expected partial state, got {:?}", other.err()),
    }
}

#[test]
fn signs_requests_with_puppets_extensions() {
    let dir = tempdir();
    let ca = open(dir.path(), settings());
    let pem = csr("agent1.example.com", &[], &[(PP_ROLE, "webserver")]);
    assert_eq!(
        ca.submit_csr("agent1.example.com", &pem).unwrap(),
        CsrOutcome::Pending
    );
    let cadir = dir.path().join("ca");
    assert!(cadir.join("requests/agent1.example.com.pem").is_file());
    let status = ca.certificate_status("agent1.example.com").unwrap();
    assert_eq!(status.state, CertificateState::Requested);
    assert_eq!(status.serial_number, None);

    let cert_pem = ca.sign("agent1.example.com").unwrap();
    assert!(!cadir.join("requests/agent1.example.com.pem").exists());
    assert_eq!(
        fs::read_to_string(cadir.join("signed/agent1.example.com.pem")).unwrap(),
        cert_pem
    );
    let der = pem_der(&cert_pem);
    let (_, cert) = parse_x509_certificate(&der).unwrap();
    let ca_der = pem_der(ca.ca_certificate_pem());
    let (_, ca_cert) = parse_x509_certificate(&ca_der).unwrap();
    cert.verify_signature(Some(ca_cert.public_key()))
        .expect("chains to the CA");
    assert_eq!(cert.issuer(), ca_cert.subject());
    assert_eq!(cert.raw_serial(), &[2]);
    assert!(!cert.basic_constraints().unwrap().unwrap().value.ca);
    let eku = cert.extended_key_usage().unwrap().unwrap();
    assert!(eku.critical && eku.value.server_auth && eku.value.client_auth);
    let ku = cert.key_usage().unwrap().unwrap().value;
    assert!(ku.digital_signature() && ku.key_encipherment() && !ku.key_cert_sign());
    let role = cert
        .extensions()
        .iter()
        .find(|e| e.oid.iter().unwrap().eq(PP_ROLE.iter().copied()))
        .expect("pp_role kept");
    assert_eq!(role.value, utf8("webserver"));
    let comment = cert
        .extensions()
        .iter()
        .find(|e| e.oid.to_id_string() == "2.16.840.1.113730.1.13")
        .expect("netscape comment");
    assert_eq!(&comment.value[2..], b"Puppet Server Internal Certificate");
    let san = cert.subject_alternative_name().unwrap().unwrap();
    assert_eq!(
        san.value.general_names,
        vec![GeneralName::DNSName("agent1.example.com")]
    );
    let ski = cert
        .extensions()
        .iter()
        .find_map(|e| match e.parsed_extension() {
            ParsedExtension::SubjectKeyIdentifier(k) => Some(k.0.to_vec()),
            _ => None,
        });
    assert_eq!(ski.map(|s| s.len()), Some(20));
    let validity = cert.validity();
    let lifetime = validity.not_after.timestamp() - validity.not_before.timestamp();
    assert!(
        (157_680_000 + 86_400 - 5..=157_680_000 + 86_400 + 5).contains(&lifetime),
        "{lifetime}"
    );

    // The next certificate takes the next serial, and both are inventoried.
    ca.submit_csr("agent2", &csr("agent2", &[], &[])).unwrap();
    let second = ca.sign("agent2").unwrap();
    let (_, cert2) = parse_x509_certificate(&pem_der(&second))
        .map(|(r, c)| (r, c.raw_serial().to_vec()))
        .unwrap();
    assert_eq!(cert2, vec![3]);
    assert_eq!(fs::read_to_string(cadir.join("serial")).unwrap(), "0004");
    let inventory = fs::read_to_string(cadir.join("inventory.txt")).unwrap();
    let lines: Vec<&str> = inventory.lines().collect();
    assert_eq!(lines.len(), 3);
    assert!(
        lines[1].starts_with("0x0002 ") && lines[1].ends_with("UTC /CN=agent1.example.com"),
        "{}",
        lines[1]
    );
    assert!(
        lines[2].starts_with("0x0003 ") && lines[2].ends_with(" /CN=agent2"),
        "{}",
        lines[2]
    );
    let fields: Vec<&str> = lines[2].split(' ').collect();
    assert_eq!(fields.len(), 4);
    assert_eq!(fields[1].len(), "2026-11-24T10:00:00UTC".len());

    let status = ca.certificate_status("agent1.example.com").unwrap();
    assert_eq!(status.state, CertificateState::Signed);
    assert_eq!(status.serial_number, Some(2));
    assert_eq!(status.dns_alt_names, vec!["DNS:agent1.example.com"]);
    assert_eq!(status.fingerprint, status.fingerprints.sha256);
    assert_eq!(status.fingerprint.len(), 32 * 3 - 1);
    let json = serde_json::to_value(&status).unwrap();
    for key in [
        "name",
        "state",
        "fingerprint",
        "fingerprints",
        "dns_alt_names",
        "subject_alt_names",
        "authorization_extensions",
        "serial_number",
        "not_before",
        "not_after",
    ] {
        assert!(json.get(key).is_some(), "{key} in {json}");
    }
    assert_eq!(json["state"], "signed");
    assert!(json["fingerprints"]["SHA512"].as_str().unwrap().len() == 64 * 3 - 1);
    assert!(json["not_after"].as_str().unwrap().ends_with("UTC"));
}

#[test]
fn revokes_and_cleans() {
    let dir = tempdir();
    let ca = open(dir.path(), settings());
    ca.submit_csr("agent1", &csr("agent1", &[], &[])).unwrap();
    ca.sign("agent1").unwrap();
    assert!(!ca.is_revoked(&[2]));
    let crl_before = ca.crl_pem().unwrap();
    ca.revoke("agent1").unwrap();
    assert!(ca.is_revoked(&[2]));
    assert!(ca.is_revoked(&[0, 2]), "leading zeros do not matter");
    assert!(!ca.is_revoked(&[3]));

    let crl_pem = ca.crl_pem().unwrap();
    assert_ne!(crl_before, crl_pem);
    let crl_der = pem_der(&crl_pem);
    let (_, crl) = parse_x509_crl(&crl_der).unwrap();
    let serials: Vec<Vec<u8>> = crl
        .iter_revoked_certificates()
        .map(|r| r.raw_serial().to_vec())
        .collect();
    assert_eq!(serials, vec![vec![2]]);
    assert_eq!(crl.crl_number().map(|n| n.to_bytes_be()), Some(vec![1]));
    let ca_der = pem_der(ca.ca_certificate_pem());
    let (_, ca_cert) = parse_x509_certificate(&ca_der).unwrap();
    crl.verify_signature(ca_cert.public_key())
        .expect("CRL signed by the CA");
    assert_eq!(
        ca.certificate_status("agent1").unwrap().state,
        CertificateState::Revoked
    );
    assert_eq!(
        ca.certificate_statuses(Some(CertificateState::Revoked))
            .unwrap()
            .len(),
        1
    );
    assert_eq!(
        ca.certificate_statuses(Some(CertificateState::Signed))
            .unwrap()
            .len(),
        0
    );

    // A second request for a revoked name is refused in Puppet's words.
    let err = ca
        .submit_csr("agent1", &csr("agent1", &[], &[]))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "agent1 already has a revoked certificate; ignoring certificate request"
    );

    // Revoking again changes nothing; the CRL number stays.
    ca.revoke("agent1").unwrap();
    let (_, crl) = parse_x509_crl(&pem_der(&ca.crl_pem().unwrap()))
        .map(|(r, c)| (r, c.crl_number().map(|n| n.to_bytes_be())))
        .unwrap();
    assert_eq!(crl, Some(vec![1]));

    // A revocation survives reopening.
    drop(ca);
    let ca = open(dir.path(), settings());
    assert!(ca.is_revoked(&[2]));

    // clean revokes (via the inventory too) and deletes; then the name is free.
    ca.clean("agent1").unwrap();
    assert!(!dir.path().join("ca/signed/agent1.pem").exists());
    assert!(matches!(
        ca.certificate_status("agent1"),
        Err(CaError::NotFound { .. })
    ));
    assert_eq!(
        ca.submit_csr("agent1", &csr("agent1", &[], &[])).unwrap(),
        CsrOutcome::Pending
    );
    ca.sign("agent1").unwrap();
    ca.clean("agent1").unwrap();
    assert!(ca.is_revoked(&[3]), "clean revoked the second certificate");
    assert!(matches!(ca.clean("agent1"), Err(CaError::NotFound { .. })));
    let err = ca.revoke("nobody").unwrap_err();
    assert_eq!(
        err.to_string(),
        "Cannot revoke certificate for host nobody without a signed certificate"
    );

    // clean of a pending request removes it.
    ca.submit_csr("agent3", &csr("agent3", &[], &[])).unwrap();
    ca.clean("agent3").unwrap();
    assert!(!dir.path().join("ca/requests/agent3.pem").exists());
}

#[test]
fn refuses_bad_requests() {
    let dir = tempdir();
    let ca = open(dir.path(), settings());

    let err = ca
        .submit_csr("agent1", &csr("agent2", &[], &[]))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "Instance name \"agent2\" does not match requested key \"agent1\""
    );
    for bad in ["Agent1", "../etc", "a b", "*.x", "agent-"] {
        assert!(
            matches!(
                ca.submit_csr(bad, &csr(bad, &[], &[])),
                Err(CaError::InvalidCertname { .. })
            ),
            "{bad}"
        );
    }
    assert!(matches!(
        ca.submit_csr(
            "agent1",
            "-----BEGIN CERTIFICATE REQUEST-----\nAAAA\n-----END CERTIFICATE REQUEST-----\n"
        ),
        Err(CaError::MalformedCsr { .. })
    ));
    assert!(matches!(
        ca.submit_csr("agent1", "garbage"),
        Err(CaError::MalformedCsr { .. })
    ));
    assert!(
        fs::read_dir(dir.path().join("ca/requests"))
            .unwrap()
            .next()
            .is_none()
    );

    // A request with a broken signature is refused.
    let good = csr("agent1", &[], &[]);
    let mut der = pem_der(&good);
    let last = der.len() - 1;
    der[last] ^= 0xff;
    let forged = ::pem::encode(&::pem::Pem::new("CERTIFICATE REQUEST", der));
    assert!(matches!(
        ca.submit_csr("agent1", &forged),
        Err(CaError::InvalidSignature { .. })
    ));

    // Duplicates: a pending request, then a signed certificate.
    ca.submit_csr("agent1", &good).unwrap();
    let err = ca.submit_csr("agent1", &good).unwrap_err();
    assert_eq!(
        err.to_string(),
        "agent1 already has a requested certificate; ignoring certificate request"
    );
    ca.sign("agent1").unwrap();
    let err = ca.submit_csr("agent1", &good).unwrap_err();
    assert_eq!(
        err.to_string(),
        "agent1 already has a signed certificate; ignoring certificate request"
    );
    assert!(matches!(ca.sign("agent9"), Err(CaError::NoRequest { .. })));

    // Alternative names: stored, but not signed unless allowed.
    ca.submit_csr(
        "agent2",
        &csr("agent2", &["agent2", "www.example.com"], &[]),
    )
    .unwrap();
    let err = ca.sign("agent2").unwrap_err();
    assert!(
        matches!(err, CaError::DisallowedAltNames { ref names, .. } if names == &vec!["DNS:www.example.com".to_string()]),
        "{err}"
    );
    assert!(err.to_string().starts_with("CSR 'agent2' contains extra subject alternative names (DNS:www.example.com), which are disallowed."));
    // The certname alone as an alternative name is always allowed.
    ca.submit_csr("agent3", &csr("agent3", &["agent3"], &[]))
        .unwrap();
    ca.sign("agent3").unwrap();

    // Authorization extensions and foreign extensions.
    ca.submit_csr("agent4", &csr("agent4", &[], &[(PP_AUTHORIZATION, "true")]))
        .unwrap();
    let status = ca.certificate_status("agent4").unwrap();
    assert_eq!(
        status
            .authorization_extensions
            .get("pp_authorization")
            .map(String::as_str),
        Some("true")
    );
    assert!(matches!(
        ca.sign("agent4"),
        Err(CaError::DisallowedAuthorizationExtension { .. })
    ));
    ca.submit_csr("agent5", &csr("agent5", &[], &[(&[1, 2, 3, 4], "x")]))
        .unwrap();
    let err = ca.sign("agent5").unwrap_err();
    assert_eq!(
        err.to_string(),
        "Found extensions that are not permitted: 1.2.3.4"
    );
    // pp_cli_auth is the CA's to grant, never an agent's to ask for.
    let mut allow_all = settings();
    allow_all.allow_authorization_extensions = true;
    allow_all.allow_subject_alt_names = true;
    let dir2 = tempdir();
    let ca2 = open(dir2.path(), allow_all);
    ca2.submit_csr(
        "agent6",
        &csr(
            "agent6",
            &[],
            &[(&[1, 3, 6, 1, 4, 1, 34380, 1, 3, 39], "true")],
        ),
    )
    .unwrap();
    assert!(matches!(
        ca2.sign("agent6"),
        Err(CaError::DisallowedExtensions { .. })
    ));
    ca2.submit_csr(
        "agent4",
        &csr(
            "agent4",
            &["www.example.com"],
            &[(PP_AUTHORIZATION, "true")],
        ),
    )
    .unwrap();
    let cert = ca2.sign("agent4").unwrap();
    let status = ca2.certificate_status("agent4").unwrap();
    assert_eq!(
        status.dns_alt_names,
        vec!["DNS:www.example.com", "DNS:agent4"]
    );
    assert!(
        status
            .authorization_extensions
            .contains_key("pp_authorization"),
        "{cert}"
    );
    ca2.submit_csr("agent7", &csr("agent7", &["*.example.com"], &[]))
        .unwrap();
    assert!(matches!(
        ca2.sign("agent7"),
        Err(CaError::InvalidAltName { .. })
    ));
}

#[test]
fn autosigns_from_an_allowlist() {
    let dir = tempdir();
    let list = dir.path().join("autosign.conf");
    fs::write(&list, "# agents\n*.web.example.com\ndb1\n").unwrap();
    let mut s = settings();
    s.autosign = Autosign::Path(list);
    let ca = open(dir.path(), s);
    assert_eq!(
        ca.submit_csr("a.web.example.com", &csr("a.web.example.com", &[], &[]))
            .unwrap(),
        CsrOutcome::Signed
    );
    assert_eq!(
        ca.submit_csr("db1", &csr("db1", &[], &[])).unwrap(),
        CsrOutcome::Signed
    );
    assert_eq!(
        ca.submit_csr("db2", &csr("db2", &[], &[])).unwrap(),
        CsrOutcome::Pending
    );
    assert!(dir.path().join("ca/signed/db1.pem").is_file());
    assert!(dir.path().join("ca/requests/db2.pem").is_file());
    let requested = ca
        .certificate_statuses(Some(CertificateState::Requested))
        .unwrap();
    assert_eq!(
        requested
            .iter()
            .map(|s| s.name.as_str())
            .collect::<Vec<_>>(),
        vec!["db2"]
    );
    assert_eq!(ca.certificate_statuses(None).unwrap().len(), 3);

    let dir = tempdir();
    let mut s = settings();
    s.autosign = Autosign::All;
    let ca = open(dir.path(), s);
    assert_eq!(
        ca.submit_csr("x", &csr("x", &[], &[])).unwrap(),
        CsrOutcome::Signed
    );
    // Autosigning applies the signing policy: alt names are still refused,
    // and the request stays for the operator, as with puppetserver.
    assert!(matches!(
        ca.submit_csr("y", &csr("y", &["z"], &[])),
        Err(CaError::DisallowedAltNames { .. })
    ));
    assert!(dir.path().join("ca/requests/y.pem").is_file());
}

#[test]
fn autosigns_through_a_policy_executable() {
    let dir = tempdir();
    let script = dir.path().join("policy.sh");
    let seen = dir.path().join("seen");
    fs::write(
        &script,
        format!(
            "#!/bin/sh\ncat > '{}'\n[ \"$1\" = good ] && exit 0\nexit 1\n",
            seen.display()
        ),
    )
    .unwrap();
    fs::set_permissions(&script, fs::Permissions::from_mode(0o755)).unwrap();
    let mut s = settings();
    s.autosign = Autosign::Path(script);
    let ca = open(dir.path(), s);
    let good = csr("good", &[], &[]);
    assert_eq!(ca.submit_csr("good", &good).unwrap(), CsrOutcome::Signed);
    assert_eq!(
        fs::read_to_string(&seen).unwrap(),
        good,
        "the request came on stdin"
    );
    // A name with shell metacharacters never reaches a shell: it is refused
    // as a certname, and names are passed as a single argument.
    assert_eq!(
        ca.submit_csr("bad", &csr("bad", &[], &[])).unwrap(),
        CsrOutcome::Pending
    );
    assert!(ca.certificate_pem("good").unwrap().is_some());
    assert!(ca.certificate_pem("bad").unwrap().is_none());
}

#[test]
fn issues_the_servers_certificate() {
    let dir = tempdir();
    let ca = open(dir.path(), settings());
    let host = ca
        .issue_host_certificate("server.example.com", &[], true)
        .unwrap();
    let der = pem_der(&host.certificate_pem);
    let (_, cert) = parse_x509_certificate(&der).unwrap();
    let san = cert.subject_alternative_name().unwrap().unwrap();
    assert_eq!(
        san.value.general_names,
        vec![
            GeneralName::DNSName("puppet"),
            GeneralName::DNSName("server.example.com")
        ]
    );
    assert!(
        cert.extensions()
            .iter()
            .any(|e| e.oid.to_id_string() == "1.3.6.1.4.1.34380.1.3.39")
    );
    assert!(
        host.private_key_pem
            .starts_with("-----BEGIN RSA PRIVATE KEY-----")
    );
    let key_path = dir.path().join("private/server.pem");
    fs::create_dir_all(key_path.parent().unwrap()).unwrap();
    host.write_to(&dir.path().join("server_crt.pem"), &key_path)
        .unwrap();
    assert_eq!(mode(&key_path), 0o600);
    assert!(
        dir.path()
            .join("ca/signed/server.example.com.pem")
            .is_file()
    );

    let other = ca
        .issue_host_certificate("compiler1", &["compiler1.example.com", "IP:10.0.0.5"], true)
        .unwrap();
    let (_, cert) = parse_x509_certificate(&pem_der(&other.certificate_pem))
        .map(|(r, c)| {
            (
                r,
                c.subject_alternative_name()
                    .unwrap()
                    .unwrap()
                    .value
                    .general_names
                    .len(),
            )
        })
        .unwrap();
    assert_eq!(cert, 3);
    assert_eq!(
        ca.certificate_status("compiler1")
            .unwrap()
            .subject_alt_names,
        vec!["IP:10.0.0.5", "DNS:compiler1.example.com", "DNS:compiler1"]
    );
    assert!(matches!(
        ca.issue_host_certificate("compiler1", &[], true),
        Err(CaError::Duplicate { .. })
    ));
}

#[test]
fn is_shared_between_threads() {
    let dir = tempdir();
    let ca = std::sync::Arc::new(open(dir.path(), settings()));
    let requests: Vec<(String, String)> = (0..8)
        .map(|i| (format!("agent{i}"), csr(&format!("agent{i}"), &[], &[])))
        .collect();
    let handles: Vec<_> = requests
        .into_iter()
        .map(|(name, pem)| {
            let ca = ca.clone();
            std::thread::spawn(move || {
                ca.submit_csr(&name, &pem).unwrap();
                ca.sign(&name).unwrap()
            })
        })
        .collect();
    let mut serials: Vec<Vec<u8>> = handles
        .into_iter()
        .map(|h| serial_of(&h.join().unwrap()))
        .collect();
    serials.sort();
    serials.dedup();
    assert_eq!(serials.len(), 8, "every certificate has its own serial");
    let inventory = fs::read_to_string(dir.path().join("ca/inventory.txt")).unwrap();
    assert_eq!(inventory.lines().count(), 9);
}

/// Two processes on one CA directory (the server and `marionette ca`, or
/// two `marionette ca sign`): each opens the CA on its own, so only the
/// directory's lock keeps them from taking one serial twice.
#[test]
fn two_openers_never_share_a_serial() {
    let dir = tempdir();
    let first = std::sync::Arc::new(open(dir.path(), settings()));
    let second = std::sync::Arc::new(open(dir.path(), settings()));
    let count = 24;
    for i in 0..count {
        let name = format!("mrtest-node{i}");
        first.submit_csr(&name, &csr(&name, &[], &[])).unwrap();
    }
    let handles: Vec<_> = [first, second]
        .into_iter()
        .enumerate()
        .map(|(parity, ca)| {
            std::thread::spawn(move || {
                (0..count)
                    .filter(|i| i % 2 == parity)
                    .map(|i| ca.sign(&format!("mrtest-node{i}")).unwrap())
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let mut serials: Vec<Vec<u8>> = handles
        .into_iter()
        .flat_map(|h| h.join().unwrap())
        .map(|pem| serial_of(&pem))
        .collect();
    serials.sort();
    serials.dedup();
    assert_eq!(serials.len(), count, "every certificate has its own serial");
    let inventory = fs::read_to_string(dir.path().join("ca/inventory.txt")).unwrap();
    assert_eq!(inventory.lines().count(), count + 1, "{inventory}");
    let next = fs::read_to_string(dir.path().join("ca/serial")).unwrap();
    assert_eq!(
        u128::from_str_radix(next.trim(), 16).unwrap(),
        count as u128 + 2
    );
}

/// A revocation by another process (`marionette ca revoke` while the server
/// runs) is seen once the CRL file changed, and only then re-read.
#[test]
fn sees_a_crl_another_process_wrote() {
    let dir = tempdir();
    let server = open(dir.path(), settings());
    let cli = open(dir.path(), settings());
    server
        .submit_csr("mrtest-agent", &csr("mrtest-agent", &[], &[]))
        .unwrap();
    server.sign("mrtest-agent").unwrap();
    assert!(!server.refresh_crl().unwrap(), "nothing changed yet");
    cli.revoke("mrtest-agent").unwrap();
    assert!(!server.is_revoked(&[2]), "not read before it is asked to");
    assert!(server.refresh_crl().unwrap());
    assert!(server.is_revoked(&[2]));
    assert!(!server.refresh_crl().unwrap(), "read once");
}

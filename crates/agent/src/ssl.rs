//! Getting the agent its certificate, as Puppet's agent does: the CA's
//! certificate (trusted on first use, or checked against a pinned
//! fingerprint), the CRL, a key made here, a request, and the signed
//! certificate, waited for as `waitforcert` says.

use std::path::Path;
use std::sync::Arc;

use rustls::client::WebPkiServerVerifier;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::{ClientConfig, DigitallySignedStruct, SignatureScheme};
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{
    CertificateDer, CertificateRevocationListDer, PrivateKeyDer, ServerName, UnixTime,
};

use crate::{AgentError, Settings, http, io};

/// The TLS configuration of an agent with its certificate, made first
/// when missing.
pub(crate) fn bootstrap(settings: &Settings) -> Result<ClientConfig, AgentError> {
    let ssl = &settings.ssldir;
    let name = &settings.certname;
    for dir in [
        "certs",
        "private_keys",
        "public_keys",
        "certificate_requests",
    ] {
        std::fs::create_dir_all(ssl.join(dir))
            .map_err(io(format!("could not create {}", ssl.join(dir).display())))?;
    }
    let ca_path = ssl.join("certs/ca.pem");
    if !ca_path.exists() {
        let mut client = http::Client::new(settings, trusting(None)?)?;
        let answer = client.send("GET", "/puppet-ca/v1/certificate/ca", None, Vec::new())?;
        if answer.status != 200 {
            return Err(AgentError::Server {
                status: answer.status,
                message: answer.message(),
            });
        }
        let pem = answer.text();
        let fingerprint = fingerprint(&pem)?;
        if let Some(expected) = &settings.ca_fingerprint
            && !expected.eq_ignore_ascii_case(&fingerprint)
        {
            return Err(AgentError::Fingerprint {
                expected: expected.clone(),
                actual: fingerprint,
            });
        }
        write(&ca_path, pem.as_bytes(), 0o644)?;
    }
    let ca_pem =
        std::fs::read(&ca_path).map_err(io(format!("could not read {}", ca_path.display())))?;
    let crl_path = ssl.join("crl.pem");
    if !crl_path.exists() {
        let mut client = http::Client::new(settings, trusting(Some(&ca_pem))?)?;
        let answer = client.send(
            "GET",
            "/puppet-ca/v1/certificate_revocation_list/ca",
            None,
            Vec::new(),
        )?;
        if answer.status == 200 {
            write(&crl_path, &answer.body, 0o644)?;
        }
    }
    let key_path = ssl.join(format!("private_keys/{name}.pem"));
    if !key_path.exists() {
        let (private, public) = marionette_ca::generate_key(settings.keylength, name)?;
        write(&key_path, private.as_bytes(), 0o600)?;
        write(
            &ssl.join(format!("public_keys/{name}.pem")),
            public.as_bytes(),
            0o644,
        )?;
    }
    let cert_path = ssl.join(format!("certs/{name}.pem"));
    if !cert_path.exists() {
        let certificate = obtain(settings, &ca_pem, &key_path)?;
        write(&cert_path, certificate.as_bytes(), 0o644)?;
    }
    client_config(
        &ca_pem,
        std::fs::read(&crl_path).ok().as_deref(),
        &cert_path,
        &key_path,
    )
}

/// Asks the CA for the certificate: it may be signed already; else a
/// request is sent (once) and the certificate waited for.
fn obtain(settings: &Settings, ca_pem: &[u8], key_path: &Path) -> Result<String, AgentError> {
    let name = &settings.certname;
    let mut client = http::Client::new(settings, trusting(Some(ca_pem))?)?;
    let path = format!("/puppet-ca/v1/certificate/{name}");
    let fetch = |client: &mut http::Client| -> Result<Option<String>, AgentError> {
        let answer = client.send("GET", &path, None, Vec::new())?;
        Ok((answer.status == 200).then(|| answer.text()))
    };
    if let Some(certificate) = fetch(&mut client)? {
        return Ok(certificate);
    }
    let request_path = settings
        .ssldir
        .join(format!("certificate_requests/{name}.pem"));
    if !request_path.exists() {
        let key = std::fs::read_to_string(key_path)
            .map_err(io(format!("could not read {}", key_path.display())))?;
        let request = marionette_ca::certificate_request(name, &key, &settings.extension_requests)?;
        let answer = client.send(
            "PUT",
            &format!("/puppet-ca/v1/certificate_request/{name}"),
            Some("text/plain"),
            request.clone().into_bytes(),
        )?;
        if answer.status != 200 {
            return Err(AgentError::Server {
                status: answer.status,
                message: answer.message(),
            });
        }
        write(&request_path, request.as_bytes(), 0o644)?;
    }
    loop {
        if let Some(certificate) = fetch(&mut client)? {
            return Ok(certificate);
        }
        if settings.waitforcert.is_zero() {
            return Err(AgentError::NotSigned(name.clone()));
        }
        std::thread::sleep(settings.waitforcert);
    }
}

/// The TLS configuration for talking to the CA before the agent has a
/// certificate: the server is checked against `ca` when there is one, and
/// trusted on first use otherwise (the CA's certificate itself is then
/// what is fetched, and a pinned fingerprint checks it).
fn trusting(ca: Option<&[u8]>) -> Result<ClientConfig, AgentError> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = ClientConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|e| AgentError::Tls(e.to_string()))?;
    Ok(match ca {
        Some(ca) => builder
            .with_root_certificates(roots(ca)?)
            .with_no_client_auth(),
        None => builder
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(FirstUse(provider)))
            .with_no_client_auth(),
    })
}

fn roots(ca: &[u8]) -> Result<rustls::RootCertStore, AgentError> {
    let mut roots = rustls::RootCertStore::empty();
    for cert in CertificateDer::pem_slice_iter(ca) {
        let cert = cert.map_err(|e| AgentError::Tls(format!("the CA certificate: {e:?}")))?;
        roots
            .add(cert)
            .map_err(|e| AgentError::Tls(format!("the CA certificate: {e}")))?;
    }
    Ok(roots)
}

fn client_config(
    ca: &[u8],
    crl: Option<&[u8]>,
    cert: &Path,
    key: &Path,
) -> Result<ClientConfig, AgentError> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let crls = crl
        .map(|crl| {
            CertificateRevocationListDer::pem_slice_iter(crl)
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| AgentError::Tls(format!("the CRL: {e:?}")))
        })
        .transpose()?
        .unwrap_or_default();
    let verifier =
        WebPkiServerVerifier::builder_with_provider(Arc::new(roots(ca)?), provider.clone())
            .with_crls(crls)
            .build()
            .map_err(|e| AgentError::Tls(format!("the server verifier: {e}")))?;
    let read =
        |path: &Path| std::fs::read(path).map_err(io(format!("could not read {}", path.display())));
    let chain = CertificateDer::pem_slice_iter(&read(cert)?)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| AgentError::Tls(format!("{}: {e:?}", cert.display())))?;
    let key = PrivateKeyDer::from_pem_slice(&read(key)?)
        .map_err(|e| AgentError::Tls(format!("{}: {e:?}", key.display())))?;
    ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| AgentError::Tls(e.to_string()))?
        .with_webpki_verifier(verifier)
        .with_client_auth_cert(chain, key)
        .map_err(|e| AgentError::Tls(format!("the agent's certificate: {e}")))
}

/// The SHA-256 fingerprint of a PEM certificate, as Puppet prints it.
fn fingerprint(pem: &str) -> Result<String, AgentError> {
    let der = CertificateDer::from_pem_slice(pem.as_bytes())
        .map_err(|e| AgentError::Tls(format!("the CA certificate: {e:?}")))?;
    let digest = ring::digest::digest(&ring::digest::SHA256, der.as_ref());
    Ok(digest
        .as_ref()
        .iter()
        .map(|b| format!("{b:02X}"))
        .collect::<Vec<_>>()
        .join(":"))
}

/// Writes a file atomically with its mode (keys 0600).
fn write(path: &Path, bytes: &[u8], mode: u32) -> Result<(), AgentError> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let temporary = path.with_extension("tmp");
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(mode)
        .open(&temporary)
        .map_err(io(format!("could not write {}", temporary.display())))?;
    file.write_all(bytes)
        .and_then(|()| file.sync_all())
        .map_err(io(format!("could not write {}", temporary.display())))?;
    std::fs::rename(&temporary, path).map_err(io(format!("could not write {}", path.display())))
}

/// Trusts the server's certificate on first use: only for fetching the
/// CA's certificate, which is what is not known yet. Signatures are still
/// checked, so the peer holds the key of the certificate it shows.
#[derive(Debug)]
struct FirstUse(Arc<rustls::crypto::CryptoProvider>);

impl ServerCertVerifier for FirstUse {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}

//! The server's TLS: its certificate, issued by its own CA on first start,
//! and client certificates checked against the CA and its CRL. Agents
//! without a certificate yet are let in (they must reach the CA to get
//! one); what they may do is decided per request (`http::Client`).

use std::path::Path;
use std::sync::Arc;

use marionette_ca::CertificateAuthority;
use rustls::ServerConfig;
use rustls::server::WebPkiClientVerifier;
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, CertificateRevocationListDer, PrivateKeyDer};

use crate::{Config, ServerError};

/// The server's certificate chain and key, issued by the CA when the SSL
/// directory has none yet.
pub(crate) fn identity(
    config: &Config,
    ca: &CertificateAuthority,
) -> Result<(Vec<CertificateDer<'static>>, PrivateKeyDer<'static>), ServerError> {
    let cert_path = config
        .ssldir
        .join("certs")
        .join(format!("{}.pem", config.certname));
    let key_path = config
        .ssldir
        .join("private_keys")
        .join(format!("{}.pem", config.certname));
    if !cert_path.exists() || !key_path.exists() {
        for dir in ["certs", "private_keys"] {
            let dir = config.ssldir.join(dir);
            std::fs::create_dir_all(&dir).map_err(|source| ServerError::Io {
                what: format!("could not create {}", dir.display()),
                source,
            })?;
        }
        let names: Vec<&str> = config.dns_alt_names.iter().map(String::as_str).collect();
        let issued = ca.issue_host_certificate(&config.certname, &names, true)?;
        issued.write_to(&cert_path, &key_path)?;
        let ca_copy = config.ssldir.join("certs").join("ca.pem");
        std::fs::write(&ca_copy, ca.ca_certificate_pem()).map_err(|source| ServerError::Io {
            what: format!("could not write {}", ca_copy.display()),
            source,
        })?;
    }
    let certs = read(&cert_path, |bytes| {
        CertificateDer::pem_slice_iter(bytes).collect::<Result<Vec<_>, _>>()
    })?;
    let key = read(&key_path, PrivateKeyDer::from_pem_slice)?;
    Ok((certs, key))
}

fn read<T>(
    path: &Path,
    parse: impl FnOnce(&[u8]) -> Result<T, rustls_pki_types::pem::Error>,
) -> Result<T, ServerError> {
    let bytes = std::fs::read(path).map_err(|source| ServerError::Io {
        what: format!("could not read {}", path.display()),
        source,
    })?;
    parse(&bytes).map_err(|e| ServerError::Tls(format!("{}: {e:?}", path.display())))
}

/// The TLS configuration with the CA's current CRL: built again after a
/// revocation, so a revoked agent is refused at its next handshake.
pub(crate) fn server_config(
    ca: &CertificateAuthority,
    certs: &[CertificateDer<'static>],
    key: &PrivateKeyDer<'static>,
) -> Result<Arc<ServerConfig>, ServerError> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut roots = rustls::RootCertStore::empty();
    for cert in CertificateDer::pem_slice_iter(ca.ca_certificate_pem().as_bytes()) {
        let cert = cert.map_err(|e| ServerError::Tls(format!("the CA certificate: {e:?}")))?;
        roots
            .add(cert)
            .map_err(|e| ServerError::Tls(format!("the CA certificate: {e}")))?;
    }
    let crl_pem = ca.crl_pem()?;
    let crls = CertificateRevocationListDer::pem_slice_iter(crl_pem.as_bytes())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| ServerError::Tls(format!("the CRL: {e:?}")))?;
    let verifier = WebPkiClientVerifier::builder_with_provider(Arc::new(roots), provider.clone())
        .with_crls(crls)
        .allow_unauthenticated()
        .build()
        .map_err(|e| ServerError::Tls(format!("the client verifier: {e}")))?;
    let mut config = ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| ServerError::Tls(e.to_string()))?
        .with_client_cert_verifier(verifier)
        .with_single_cert(certs.to_vec(), key.clone_key())
        .map_err(|e| ServerError::Tls(format!("the server's certificate: {e}")))?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}

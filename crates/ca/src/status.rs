//! The answer of puppetserver's `puppet-ca/v1/certificate_status` endpoint:
//! one [`CertificateStatus`] per request or certificate, serialized with
//! serde into the same JSON keys.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The state of a name at the CA.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CertificateState {
    /// A request waits to be signed.
    Requested,
    /// A certificate was signed and is not revoked.
    Signed,
    /// The certificate is on the CRL.
    Revoked,
}

impl CertificateState {
    /// Puppet's word for the state.
    pub fn as_str(self) -> &'static str {
        match self {
            CertificateState::Requested => "requested",
            CertificateState::Signed => "signed",
            CertificateState::Revoked => "revoked",
        }
    }
}

/// Digests of a certificate or request, as `AB:CD:...` upper-case hex.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fingerprints {
    /// SHA-1.
    #[serde(rename = "SHA1")]
    pub sha1: String,
    /// SHA-256.
    #[serde(rename = "SHA256")]
    pub sha256: String,
    /// SHA-512.
    #[serde(rename = "SHA512")]
    pub sha512: String,
    /// The default digest, SHA-256.
    pub default: String,
}

/// Status of one name, as puppetserver reports it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CertificateStatus {
    /// The certname.
    pub name: String,
    /// Requested, signed or revoked.
    pub state: CertificateState,
    /// SHA-256 fingerprint.
    pub fingerprint: String,
    /// All fingerprints.
    pub fingerprints: Fingerprints,
    /// The DNS alternative names, each as `DNS:name`.
    pub dns_alt_names: Vec<String>,
    /// IP then DNS alternative names, as `IP:addr` and `DNS:name`.
    pub subject_alt_names: Vec<String>,
    /// Authorization extensions by short name (or dotted OID) and value.
    pub authorization_extensions: BTreeMap<String, String>,
    /// Serial number; certificates only.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub serial_number: Option<u128>,
    /// Start of validity, `2026-11-23T10:00:00UTC`; certificates only.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub not_before: Option<String>,
    /// End of validity; certificates only.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub not_after: Option<String>,
}

/// Colon-separated upper-case hex of a digest.
fn hex(digest: &[u8]) -> String {
    digest
        .iter()
        .map(|b| format!("{b:02X}"))
        .collect::<Vec<_>>()
        .join(":")
}

/// The fingerprints of a DER object.
pub(crate) fn fingerprints(der: &[u8]) -> Fingerprints {
    use ring::digest::{SHA1_FOR_LEGACY_USE_ONLY, SHA256, SHA512, digest};
    let sha256 = hex(digest(&SHA256, der).as_ref());
    Fingerprints {
        sha1: hex(digest(&SHA1_FOR_LEGACY_USE_ONLY, der).as_ref()),
        sha512: hex(digest(&SHA512, der).as_ref()),
        default: sha256.clone(),
        sha256,
    }
}

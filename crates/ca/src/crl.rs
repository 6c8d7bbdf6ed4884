//! The certificate revocation list, `ca_crl.pem`. Puppet's CRL starts empty
//! with CRL number 0; each revocation re-signs it with the number one higher,
//! `thisUpdate` a second in the past (so that it is valid at once) and
//! `nextUpdate` five years ahead, every entry with reason keyCompromise.

use std::path::Path;

use rcgen::{
    CertificateRevocationListParams, Issuer, KeyIdMethod, KeyPair, RevocationReason,
    RevokedCertParams, SerialNumber,
};
use time::{Duration, OffsetDateTime};
use x509_parser::prelude::FromDer;
use x509_parser::revocation_list::CertificateRevocationList;

use crate::csr::pem_to_der;
use crate::error::CaError;

/// One revoked certificate.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    /// The serial, big-endian without leading zeros.
    pub(crate) serial: Vec<u8>,
    pub(crate) revoked_at: OffsetDateTime,
    pub(crate) reason: Option<RevocationReason>,
}

/// What the CA keeps of its CRL.
#[derive(Debug, Clone, Default)]
pub(crate) struct Crl {
    pub(crate) entries: Vec<Entry>,
    pub(crate) number: u128,
}

/// Strips leading zero bytes, the one form serials are compared in.
pub(crate) fn normalize_serial(bytes: &[u8]) -> Vec<u8> {
    let skip = bytes.iter().take_while(|b| **b == 0).count();
    bytes[skip..].to_vec()
}

/// Reads the CRL at `path` (the first CRL of the file, which is the CA's own
/// in Puppet's layout) and checks its signature against the CA's key.
pub(crate) fn read(path: &Path, ca_spki_der: &[u8]) -> Result<Crl, CaError> {
    let corrupt = |reason: String| CaError::CorruptFile {
        path: path.to_path_buf(),
        reason,
    };
    let pem = crate::files::read(path)?;
    let der = pem_to_der(&pem, &["X509 CRL"]).map_err(corrupt)?;
    let (_, crl) = CertificateRevocationList::from_der(&der).map_err(|e| corrupt(e.to_string()))?;
    let (_, spki) = x509_parser::x509::SubjectPublicKeyInfo::from_der(ca_spki_der)
        .map_err(|e| corrupt(format!("CA public key: {e}")))?;
    crl.verify_signature(&spki)
        .map_err(|e| corrupt(format!("not signed by this CA: {e}")))?;
    let number = crl
        .crl_number()
        .and_then(|n| crate::serial::from_bytes(&n.to_bytes_be()))
        .unwrap_or(0);
    let entries = crl
        .iter_revoked_certificates()
        .map(|r| Entry {
            serial: normalize_serial(r.raw_serial()),
            revoked_at: r.revocation_date.to_datetime(),
            reason: r.reason_code().and_then(|(_, code)| reason(code.0)),
        })
        .collect();
    Ok(Crl { entries, number })
}

fn reason(code: u8) -> Option<RevocationReason> {
    Some(match code {
        0 => RevocationReason::Unspecified,
        1 => RevocationReason::KeyCompromise,
        2 => RevocationReason::CaCompromise,
        3 => RevocationReason::AffiliationChanged,
        4 => RevocationReason::Superseded,
        5 => RevocationReason::CessationOfOperation,
        6 => RevocationReason::CertificateHold,
        8 => RevocationReason::RemoveFromCrl,
        9 => RevocationReason::PrivilegeWithdrawn,
        10 => RevocationReason::AaCompromise,
        _ => return None,
    })
}

/// Signs `crl` and returns it as PEM.
pub(crate) fn sign(
    crl: &Crl,
    issuer: &Issuer<'static, KeyPair>,
    ca_key_id: &[u8],
) -> Result<String, CaError> {
    let now = OffsetDateTime::now_utc();
    let params = CertificateRevocationListParams {
        this_update: now - Duration::seconds(1),
        next_update: now + Duration::days(5 * 365),
        crl_number: SerialNumber::from_slice(&crate::serial::to_bytes(crl.number)),
        issuing_distribution_point: None,
        revoked_certs: crl
            .entries
            .iter()
            .map(|e| RevokedCertParams {
                serial_number: SerialNumber::from_slice(&e.serial),
                revocation_time: e.revoked_at,
                reason_code: e.reason,
                invalidity_date: None,
            })
            .collect(),
        key_identifier_method: KeyIdMethod::PreSpecified(ca_key_id.to_vec()),
    };
    let crypto = |e: rcgen::Error| CaError::Crypto {
        what: "sign the CRL".to_string(),
        reason: e.to_string(),
    };
    params
        .signed_by(issuer)
        .map_err(crypto)?
        .pem()
        .map_err(crypto)
}

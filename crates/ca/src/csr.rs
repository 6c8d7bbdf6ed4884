//! Reading certificate requests and certificates. rcgen's request parser
//! refuses extensions it does not know, Puppet's `pp_*` among them, so
//! requests are read with x509-parser and only the parts the CA needs are
//! kept: subject CN, public key, requested extensions with their raw values,
//! and the subject alternative names. The same reading of alternative names
//! and authorization extensions serves certificates, for the status API.

use x509_parser::certification_request::X509CertificationRequest;
use x509_parser::extensions::{GeneralName, ParsedExtension, X509Extension};
use x509_parser::prelude::FromDer;
use x509_parser::x509::X509Name;

use crate::der;
use crate::error::CaError;
use crate::oids;

/// One extension of a request, kept as the bytes the agent sent.
#[derive(Debug, Clone)]
pub(crate) struct RawExtension {
    pub(crate) oid: Vec<u64>,
    pub(crate) critical: bool,
    /// The extnValue contents (the DER inside the OCTET STRING).
    pub(crate) value: Vec<u8>,
}

/// Subject alternative names, split by kind.
#[derive(Debug, Clone, Default)]
pub(crate) struct AltNames {
    pub(crate) dns: Vec<String>,
    pub(crate) ip: Vec<std::net::IpAddr>,
    /// Names of other kinds (email, URI, ...), shown as x509-parser prints
    /// them; Puppet signs none of them.
    pub(crate) other: Vec<String>,
}

impl AltNames {
    /// Puppet's `subject_alt_names` list: IP entries, then DNS entries.
    pub(crate) fn prefixed(&self) -> Vec<String> {
        self.ip
            .iter()
            .map(|ip| format!("IP:{ip}"))
            .chain(self.dns.iter().map(|d| format!("DNS:{d}")))
            .collect()
    }
}

/// What the CA keeps of a parsed request.
#[derive(Debug, Clone)]
pub(crate) struct Request {
    /// The request, DER.
    pub(crate) der: Vec<u8>,
    /// The subject's CN, empty when there is none.
    pub(crate) common_name: String,
    /// SubjectPublicKeyInfo, DER.
    pub(crate) spki_der: Vec<u8>,
    /// The public key bits (the BIT STRING contents), for key identifiers.
    pub(crate) public_key_bits: Vec<u8>,
    /// Requested extensions, in order.
    pub(crate) extensions: Vec<RawExtension>,
    /// The subject alternative names among them.
    pub(crate) alt_names: AltNames,
    /// Whether the request's signature verifies with its own key.
    signature_valid: bool,
    /// The size of an RSA key, in bits.
    rsa_bits: Option<usize>,
}

/// The smallest RSA key the CA signs for: what the TLS layer verifies
/// signatures with, and NIST's floor since 2014.
pub(crate) const MIN_RSA_BITS: usize = 2048;

impl Request {
    /// Refuses a request whose key the CA does not sign for: an RSA key
    /// too small to trust (said first, as a too-small key's signature does
    /// not verify either), or a signature its own key does not verify.
    pub(crate) fn check_key(&self, certname: &str) -> Result<(), CaError> {
        if let Some(bits) = self.rsa_bits.filter(|bits| *bits < MIN_RSA_BITS) {
            return Err(CaError::KeyTooSmall {
                certname: certname.to_string(),
                bits,
                minimum: MIN_RSA_BITS,
            });
        }
        if !self.signature_valid {
            return Err(CaError::InvalidSignature {
                certname: certname.to_string(),
            });
        }
        Ok(())
    }
}

/// The number of significant bits of a big-endian unsigned integer.
fn bit_length(bytes: &[u8]) -> usize {
    let skip = bytes.iter().take_while(|b| **b == 0).count();
    match bytes.get(skip) {
        Some(first) => (bytes.len() - skip) * 8 - first.leading_zeros() as usize,
        None => 0,
    }
}

/// Decodes a PEM block with one of `labels`.
pub(crate) fn pem_to_der(pem: &str, labels: &[&str]) -> Result<Vec<u8>, String> {
    let (_, block) =
        x509_parser::pem::parse_x509_pem(pem.as_bytes()).map_err(|e| format!("not PEM: {e}"))?;
    if !labels.contains(&block.label.as_str()) {
        return Err(format!(
            "PEM block is '{}', expected '{}'",
            block.label,
            labels.join("' or '")
        ));
    }
    Ok(block.contents)
}

/// Parses a request in PEM for `certname` (named in errors).
pub(crate) fn parse_request(certname: &str, pem: &str) -> Result<Request, CaError> {
    let malformed = |reason: String| CaError::MalformedCsr {
        certname: certname.to_string(),
        reason,
    };
    let der =
        pem_to_der(pem, &["CERTIFICATE REQUEST", "NEW CERTIFICATE REQUEST"]).map_err(malformed)?;
    let (rest, csr) =
        X509CertificationRequest::from_der(&der).map_err(|e| malformed(e.to_string()))?;
    if !rest.is_empty() {
        return Err(malformed("trailing data after the request".to_string()));
    }
    let info = &csr.certification_request_info;
    let common_name = common_name(&info.subject);
    let mut extensions = Vec::new();
    let mut alt_names = AltNames::default();
    for attribute in info.iter_attributes() {
        if let x509_parser::cri_attributes::ParsedCriAttribute::ExtensionRequest(req) =
            attribute.parsed_attribute()
        {
            for ext in &req.extensions {
                extensions.push(raw_extension(ext).map_err(malformed)?);
                collect_alt_names(ext, &mut alt_names);
            }
        }
    }
    let spki = &info.subject_pki;
    let signature_valid = csr.verify_signature().is_ok();
    let rsa_bits = match spki.parsed() {
        Ok(x509_parser::public_key::PublicKey::RSA(rsa)) => Some(bit_length(rsa.modulus)),
        _ => None,
    };
    Ok(Request {
        der: der.clone(),
        common_name,
        spki_der: spki.raw.to_vec(),
        public_key_bits: spki.subject_public_key.data.to_vec(),
        extensions,
        alt_names,
        signature_valid,
        rsa_bits,
    })
}

/// The CN of a name, empty when there is none.
pub(crate) fn common_name(name: &X509Name<'_>) -> String {
    name.iter_common_name()
        .next()
        .and_then(|cn| cn.as_str().ok())
        .unwrap_or_default()
        .to_string()
}

fn raw_extension(ext: &X509Extension<'_>) -> Result<RawExtension, String> {
    let oid = ext
        .oid
        .iter()
        .ok_or_else(|| format!("extension OID {} has an arc too large", ext.oid))?
        .collect();
    Ok(RawExtension {
        oid,
        critical: ext.critical,
        value: ext.value.to_vec(),
    })
}

/// Adds the subject alternative names of `ext`, if it is that extension.
pub(crate) fn collect_alt_names(ext: &X509Extension<'_>, names: &mut AltNames) {
    if let ParsedExtension::SubjectAlternativeName(san) = ext.parsed_extension() {
        for name in &san.general_names {
            match name {
                GeneralName::DNSName(dns) => names.dns.push((*dns).to_string()),
                GeneralName::IPAddress(bytes) => match bytes.len() {
                    4 => {
                        let octets: [u8; 4] = [bytes[0], bytes[1], bytes[2], bytes[3]];
                        names.ip.push(std::net::IpAddr::from(octets));
                    }
                    16 => {
                        let mut octets = [0u8; 16];
                        octets.copy_from_slice(bytes);
                        names.ip.push(std::net::IpAddr::from(octets));
                    }
                    _ => names.other.push(format!("{name}")),
                },
                other => names.other.push(format!("{other}")),
            }
        }
    } else if oid_is(ext, oids::SUBJECT_ALT_NAME) {
        // A subjectAltName x509-parser could not read is still one: count it
        // so that policy refuses it rather than passing it through.
        names.other.push("unparsable subjectAltName".to_string());
    }
}

/// Whether the extension has OID `arcs`.
pub(crate) fn oid_is(ext: &X509Extension<'_>, arcs: &[u64]) -> bool {
    ext.oid.iter().is_some_and(|it| it.eq(arcs.iter().copied()))
}

/// The authorization extensions (the 1.3.6.1.4.1.34380.1.3 arc) of a list,
/// by Puppet's short name or dotted OID, with their text values.
pub(crate) fn authorization_extensions(
    exts: &[RawExtension],
) -> std::collections::BTreeMap<String, String> {
    exts.iter()
        .filter(|e| oids::is_under(&e.oid, oids::PP_AUTH_CERT_EXT))
        .map(|e| {
            let key = oids::short_name(&e.oid)
                .map(str::to_string)
                .unwrap_or_else(|| oids::dotted(&e.oid));
            (key, extension_text(&e.value))
        })
        .collect()
}

/// The value of a Puppet extension as text: the string it holds, or the
/// bytes as text when they are not a DER string (old agents sent raw text).
pub(crate) fn extension_text(value: &[u8]) -> String {
    der::read_string(value).unwrap_or_else(|| String::from_utf8_lossy(value).into_owned())
}

/// Converts a certificate's extensions into the raw form.
pub(crate) fn raw_extensions(exts: &[X509Extension<'_>]) -> Vec<RawExtension> {
    exts.iter().filter_map(|e| raw_extension(e).ok()).collect()
}

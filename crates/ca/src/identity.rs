//! Who a verified client certificate names, for the server: the certname
//! and the extensions that become `$trusted['extensions']`.

use std::collections::BTreeMap;

use x509_parser::prelude::{FromDer, X509Certificate};

use crate::csr::{extension_text, raw_extensions};
use crate::oids;

/// What a certificate says of its holder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    /// The subject's common name.
    pub certname: String,
    /// Puppet's extensions (the 1.3.6.1.4.1.34380.1 arcs), by short name
    /// (`pp_role`) or dotted OID, with their text values.
    pub extensions: BTreeMap<String, String>,
    /// The certificate carries `pp_cli_auth`: its holder may administer
    /// the CA over the API.
    pub ca_client: bool,
    /// The certificate's serial, big-endian without leading zeros, to ask
    /// `is_revoked` of a connection opened before a revocation.
    pub serial: Vec<u8>,
}

/// The identity in a PEM certificate (a `CERTIFICATE` block, as the CA
/// keeps signed certificates), or `None` as [`identity`].
pub fn identity_pem(pem: &str) -> Option<Identity> {
    let der = crate::csr::pem_to_der(pem, &["CERTIFICATE"]).ok()?;
    identity(&der)
}

/// The identity in a DER certificate, or `None` when it cannot be read or
/// names no common name.
pub fn identity(der: &[u8]) -> Option<Identity> {
    let (_, cert) = X509Certificate::from_der(der).ok()?;
    let certname = cert
        .subject()
        .iter_common_name()
        .next()?
        .as_str()
        .ok()?
        .to_string();
    let mut extensions = BTreeMap::new();
    let mut ca_client = false;
    for ext in raw_extensions(cert.extensions()) {
        let puppets = [
            oids::PP_REG_CERT_EXT,
            oids::PP_PRIV_CERT_EXT,
            oids::PP_AUTH_CERT_EXT,
        ];
        if !puppets.iter().any(|arc| oids::is_under(&ext.oid, arc)) {
            continue;
        }
        if ext.oid == oids::PP_CLI_AUTH {
            ca_client = extension_text(&ext.value) == "true";
        }
        let key = oids::short_name(&ext.oid)
            .map(str::to_string)
            .unwrap_or_else(|| oids::dotted(&ext.oid));
        extensions.insert(key, extension_text(&ext.value));
    }
    Some(Identity {
        certname,
        extensions,
        ca_client,
        serial: crate::crl::normalize_serial(cert.raw_serial()),
    })
}

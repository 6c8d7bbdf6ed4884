//! The agent's side of the CA: a key, and a certificate request for it
//! with the extension requests of `csr_attributes.yaml`, as Puppet's agent
//! makes them.

use rcgen::{CertificateParams, CustomExtension, DistinguishedName, DnType};

use crate::CaError;
use crate::der;
use crate::keys;

/// A new RSA key of `bits`: its private key and public key, as PEM.
pub fn generate_key(bits: usize, certname: &str) -> Result<(String, String), CaError> {
    let key = keys::generate(bits, &format!("{certname} agent"))?;
    Ok((key.private_pem, key.public_pem))
}

/// A certificate request for `certname`, signed with `private_key_pem`,
/// asking for `extensions`: each a dotted OID or Puppet's short name
/// (`pp_role`) and its text value, sent as a UTF-8 string as Puppet's
/// agent sends it.
pub fn certificate_request(
    certname: &str,
    private_key_pem: &str,
    extensions: &[(String, String)],
) -> Result<String, CaError> {
    let failure = |reason: String| CaError::MalformedCsr {
        certname: certname.to_string(),
        reason,
    };
    let key = keys::load(private_key_pem).map_err(failure)?;
    let mut params = CertificateParams::default();
    let mut subject = DistinguishedName::new();
    subject.push(DnType::CommonName, certname);
    params.distinguished_name = subject;
    for (name, value) in extensions {
        let oid = crate::oids::by_name(name)
            .or_else(|| {
                name.split('.')
                    .map(|part| part.parse::<u64>().ok())
                    .collect::<Option<Vec<u64>>>()
            })
            .ok_or_else(|| failure(format!("unknown extension '{name}'")))?;
        params
            .custom_extensions
            .push(CustomExtension::from_oid_content(
                &oid,
                der::utf8_string(value),
            ));
    }
    let request = params
        .serialize_request(&key.key_pair)
        .map_err(|e| failure(format!("could not make the request: {e}")))?;
    request
        .pem()
        .map_err(|e| failure(format!("could not encode the request: {e}")))
}

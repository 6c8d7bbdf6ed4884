//! RSA keys. ring signs with RSA but cannot generate RSA keys, so keys are
//! generated with the `rsa` crate and handed to rcgen (which signs with ring)
//! as PKCS#8. On disk keys are PKCS#1 (`RSA PRIVATE KEY`), the form Puppet
//! writes; both PKCS#1 and PKCS#8 are read, so a CA directory made by
//! puppetserver opens too.

use rcgen::{KeyPair, PKCS_RSA_SHA256};
use rsa::pkcs1::{DecodeRsaPrivateKey, EncodeRsaPrivateKey};
use rsa::pkcs8::{DecodePrivateKey, EncodePrivateKey, EncodePublicKey, LineEnding};

use crate::error::CaError;

/// A generated or loaded RSA key in the forms the CA needs.
pub(crate) struct RsaKey {
    /// The signing key for rcgen.
    pub(crate) key_pair: KeyPair,
    /// PKCS#1 PEM, for writing.
    pub(crate) private_pem: String,
    /// SubjectPublicKeyInfo PEM (`PUBLIC KEY`), for `ca_pub.pem`.
    pub(crate) public_pem: String,
}

/// Puppet's agents refuse nothing below 2048 bits, but a CA key that small
/// would be a poor default; the minimum only guards against typos.
const MIN_BITS: usize = 2048;
const MAX_BITS: usize = 16384;

/// Generates an RSA key of `bits` bits.
pub(crate) fn generate(bits: usize, purpose: &str) -> Result<RsaKey, CaError> {
    if !(MIN_BITS..=MAX_BITS).contains(&bits) {
        return Err(CaError::InvalidSetting {
            name: "keylength",
            reason: format!("{bits} is not between {MIN_BITS} and {MAX_BITS}"),
        });
    }
    let crypto = |reason: String| CaError::Crypto {
        what: format!("generate the {purpose} key"),
        reason,
    };
    let key =
        rsa::PrivateKey::new(&mut getrandom::SysRng, bits).map_err(|e| crypto(e.to_string()))?;
    from_rsa(&key).map_err(crypto)
}

/// Reads a private key in PKCS#1 or PKCS#8 PEM.
pub(crate) fn load(pem: &str) -> Result<RsaKey, String> {
    let key = rsa::PrivateKey::from_pkcs1_pem(pem)
        .or_else(|_| rsa::PrivateKey::from_pkcs8_pem(pem))
        .map_err(|e| format!("not an RSA private key in PEM: {e}"))?;
    from_rsa(&key)
}

fn from_rsa(key: &rsa::PrivateKey) -> Result<RsaKey, String> {
    let pkcs8 = key.to_pkcs8_der().map_err(|e| e.to_string())?;
    let key_pair =
        KeyPair::from_pkcs8_der_and_sign_algo(&pkcs8.as_bytes().into(), &PKCS_RSA_SHA256)
            .map_err(|e| e.to_string())?;
    let private_pem = key
        .to_pkcs1_pem(LineEnding::LF)
        .map_err(|e| e.to_string())?
        .to_string();
    let public_pem = key
        .to_public_key()
        .to_public_key_pem(LineEnding::LF)
        .map_err(|e| e.to_string())?;
    Ok(RsaKey {
        key_pair,
        private_pem,
        public_pem,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generates_and_reloads_a_key() {
        let key = generate(2048, "test").expect("generate");
        assert!(
            key.private_pem
                .starts_with("-----BEGIN RSA PRIVATE KEY-----")
        );
        assert!(key.public_pem.starts_with("-----BEGIN PUBLIC KEY-----"));
        let again = load(&key.private_pem).expect("reload");
        assert_eq!(again.public_pem, key.public_pem);
        assert!(generate(512, "test").is_err());
    }
}

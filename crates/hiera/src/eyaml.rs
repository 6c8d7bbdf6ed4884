//! Decryption of hiera-eyaml `ENC[PKCS7,...]` values.
//!
//! hiera-eyaml's PKCS7 encryptor stores `base64(DER(PKCS#7 EnvelopedData))`, produced by OpenSSL's
//! `PKCS7_encrypt` for the eyaml certificate with AES-256-CBC. Decrypting means: find the
//! recipient entry for our certificate (issuer and serial number), unwrap the content-encryption
//! key with RSA PKCS#1 v1.5 and the private key, then decrypt the content with the block cipher
//! named by the content-encryption algorithm (AES-128/192/256-CBC or DES-EDE3-CBC) and remove the
//! PKCS#7 padding.
//!
//! Only the small subset of DER needed here is parsed, by hand, with definite lengths (OpenSSL
//! writes DER). Every input is untrusted: malformed data yields an [`EyamlError`], never a panic.

use std::path::{Path, PathBuf};

use base64::Engine as _;
use cbc::cipher::{BlockModeDecrypt, KeyIvInit, block_padding::Pkcs7};
use rsa::pkcs1::DecodeRsaPrivateKey;
use rsa::pkcs8::{DecodePrivateKey, DecodePublicKey};
use rsa::traits::PublicKeyParts;

/// Errors of eyaml decryption. Messages never contain decrypted text or key material.
#[derive(Debug, thiserror::Error)]
pub enum EyamlError {
    /// A key file could not be read.
    #[error("Could not read the eyaml {kind} file {}: {source}.", path.display())]
    ReadKeyFile {
        /// `"private key"` or `"public key"`.
        kind: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The private key is not an unencrypted RSA key in PEM (PKCS#1 or PKCS#8) or DER form.
    #[error("The eyaml private key from {origin} is not usable: {reason}.")]
    InvalidPrivateKey { origin: String, reason: String },
    /// The public key is not an X.509 certificate holding an RSA key.
    #[error("The eyaml public key from {origin} is not usable: {reason}.")]
    InvalidCertificate { origin: String, reason: String },
    /// The private key does not belong to the certificate.
    #[error(
        "The eyaml private key from {private_origin} does not match the public key (certificate) from {public_origin}."
    )]
    KeyMismatch {
        private_origin: String,
        public_origin: String,
    },
    /// An `ENC[...]` block names an encryption method other than PKCS7.
    #[error(
        "The encryption method '{0}' of an ENC[...] value is not supported; only PKCS7 is supported."
    )]
    UnsupportedMethod(String),
    /// An `ENC[...]` block holds nothing but whitespace.
    #[error("An ENC[...] value contains no ciphertext.")]
    EmptyCiphertext,
    /// The text inside `ENC[PKCS7,...]` is not valid base64.
    #[error("An ENC[PKCS7,...] value is not valid base64: {0}.")]
    InvalidBase64(String),
    /// The decoded bytes are not a well-formed PKCS#7 EnvelopedData structure.
    #[error("An ENC[PKCS7,...] value is not a well-formed PKCS#7 enveloped message: {0}.")]
    MalformedPkcs7(String),
    /// The message uses an algorithm this implementation does not support.
    #[error("An ENC[PKCS7,...] value uses the unsupported {purpose} algorithm {oid}.")]
    UnsupportedAlgorithm { purpose: &'static str, oid: String },
    /// No recipient of the message matches the configured certificate.
    #[error(
        "An ENC[PKCS7,...] value was not encrypted for the configured eyaml public key (no recipient matches its issuer and serial number)."
    )]
    NoMatchingRecipient,
    /// Decryption failed: wrong key pair or corrupted ciphertext.
    #[error(
        "An ENC[PKCS7,...] value could not be decrypted with the configured eyaml private key; it was probably encrypted with another key pair, or it is corrupted."
    )]
    DecryptionFailed,
    /// The plaintext is not valid UTF-8.
    #[error("The decrypted ENC[PKCS7,...] value is not valid UTF-8 text.")]
    NotUtf8,
}

fn malformed(what: &str) -> EyamlError {
    EyamlError::MalformedPkcs7(what.to_owned())
}

/// The PEM key pair named by eyaml's options (pkcs7_private_key / pkcs7_public_key).
pub struct Keys {
    private: rsa::PrivateKey,
    /// DER of the certificate issuer `Name` (whole TLV).
    issuer: Vec<u8>,
    /// Content octets of the certificate serial number `INTEGER`.
    serial: Vec<u8>,
}

impl std::fmt::Debug for Keys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Keys").finish_non_exhaustive()
    }
}

impl Keys {
    /// Reads both PEM files. Errors name the file.
    pub fn load(private_key: &Path, public_key: &Path) -> Result<Keys, EyamlError> {
        let read = |kind: &'static str, path: &Path| {
            std::fs::read(path).map_err(|source| EyamlError::ReadKeyFile {
                kind,
                path: path.to_path_buf(),
                source,
            })
        };
        let private_bytes = read("private key", private_key)?;
        let public_bytes = read("public key", public_key)?;
        Keys::from_bytes(
            &private_bytes,
            &format!("file {}", private_key.display()),
            &public_bytes,
            &format!("file {}", public_key.display()),
        )
    }

    /// From PEM text (for tests).
    pub fn from_pem(private_key_pem: &str, public_cert_pem: &str) -> Result<Keys, EyamlError> {
        Keys::from_bytes(
            private_key_pem.as_bytes(),
            "PEM text",
            public_cert_pem.as_bytes(),
            "PEM text",
        )
    }

    /// Like OpenSSL, accepts PEM or DER for both the key and the certificate.
    fn from_bytes(
        private_bytes: &[u8],
        private_origin: &str,
        public_bytes: &[u8],
        public_origin: &str,
    ) -> Result<Keys, EyamlError> {
        let private =
            parse_private_key(private_bytes).map_err(|reason| EyamlError::InvalidPrivateKey {
                origin: private_origin.to_owned(),
                reason,
            })?;
        let cert =
            parse_certificate(public_bytes).map_err(|reason| EyamlError::InvalidCertificate {
                origin: public_origin.to_owned(),
                reason,
            })?;
        // OpenSSL's PKCS7_decrypt refuses a key that does not belong to the certificate too.
        let same = trim_zeros(&private.n_bytes()) == trim_zeros(&cert.public.n_bytes())
            && trim_zeros(&private.e_bytes()) == trim_zeros(&cert.public.e_bytes());
        if !same {
            return Err(EyamlError::KeyMismatch {
                private_origin: private_origin.to_owned(),
                public_origin: public_origin.to_owned(),
            });
        }
        Ok(Keys {
            private,
            issuer: cert.issuer,
            serial: cert.serial,
        })
    }
}

fn trim_zeros(bytes: &[u8]) -> &[u8] {
    let start = bytes.iter().position(|&b| b != 0).unwrap_or(bytes.len());
    bytes.get(start..).unwrap_or_default()
}

/// Whether a string holds an `ENC[...]` block.
///
/// True when `ENC[` is followed somewhere by `]`. Puppet's `eyaml_lookup_key` (`/.*ENC\[.*?\]/`)
/// requires both on one line, which misses eyaml's block format kept with its newlines (a YAML
/// literal scalar); this test accepts it too.
pub fn is_encrypted(text: &str) -> bool {
    text.find("ENC[")
        .is_some_and(|at| text.get(at + 4..).is_some_and(|rest| rest.contains(']')))
}

/// Replaces every `ENC[PKCS7,<base64>]` block in `text` by its plaintext, as hiera-eyaml does
/// (a string may mix plain text and several blocks; whitespace/newlines inside the base64, as in
/// eyaml's block format, are ignored). An `ENC[` with another encryption method than PKCS7 is an
/// error naming the method.
///
/// Like hiera-eyaml's lookup, a text for which [`is_encrypted`] holds has one trailing line break
/// removed from the result (Ruby's `chomp`; a YAML folded block scalar ends with one); other texts
/// are returned unchanged. An `ENC[` not followed by the block syntax (`ENC[` + optional
/// `<method>,` + base64 characters, spaces and newlines + `]`) is kept as plain text, as eyaml does.
pub fn decrypt_str(text: &str, keys: &Keys) -> Result<String, EyamlError> {
    if !is_encrypted(text) {
        return Ok(text.to_owned());
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("ENC[") {
        let (before, from_enc) = rest.split_at(at);
        out.push_str(before);
        let inner = &from_enc[4..];
        match match_block(inner) {
            Some(block) => {
                out.push_str(&decrypt_block(block.method, block.body, keys)?);
                rest = inner.get(block.len..).unwrap_or_default();
            }
            None => {
                out.push_str("ENC[");
                rest = inner;
            }
        }
    }
    out.push_str(rest);
    // Ruby's String#chomp without argument.
    if out.ends_with("\r\n") {
        out.truncate(out.len() - 2);
    } else if out.ends_with('\n') || out.ends_with('\r') {
        out.pop();
    }
    Ok(out)
}

/// One `ENC[...]` block, as matched by eyaml's hiera parser:
/// `ENC\[(\w+,)?([a-zA-Z0-9+/ =\n]+?)\]`.
struct Block<'a> {
    method: Option<&'a str>,
    body: &'a str,
    /// Bytes consumed after `ENC[`, including the closing `]`.
    len: usize,
}

/// Matches the rest of a block in `s` (the text just after `ENC[`).
fn match_block(s: &str) -> Option<Block<'_>> {
    fn is_word(b: u8) -> bool {
        b.is_ascii_alphanumeric() || b == b'_'
    }
    fn is_body(b: u8) -> bool {
        b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b' ' | b'=' | b'\n')
    }
    // The body: one or more body characters, then `]`. Returns the body length.
    fn body_len(s: &[u8]) -> Option<usize> {
        let n = s.iter().position(|&b| !is_body(b))?;
        (n > 0 && s[n] == b']').then_some(n)
    }
    let bytes = s.as_bytes();
    let word = bytes
        .iter()
        .position(|&b| !is_word(b))
        .unwrap_or(bytes.len());
    if word > 0
        && bytes.get(word) == Some(&b',')
        && let Some(n) = bytes.get(word + 1..).and_then(body_len)
    {
        return Some(Block {
            method: Some(&s[..word]),
            body: &s[word + 1..word + 1 + n],
            len: word + 1 + n + 1,
        });
    }
    body_len(bytes).map(|n| Block {
        method: None,
        body: &s[..n],
        len: n + 1,
    })
}

fn decrypt_block(method: Option<&str>, body: &str, keys: &Keys) -> Result<String, EyamlError> {
    // Without a method, eyaml uses its default encryption method, PKCS7 (matched ignoring case).
    if let Some(method) = method
        && !method.eq_ignore_ascii_case("PKCS7")
    {
        return Err(EyamlError::UnsupportedMethod(method.to_owned()));
    }
    let compact: String = body.chars().filter(|c| !c.is_ascii_whitespace()).collect();
    if compact.is_empty() {
        return Err(EyamlError::EmptyCiphertext);
    }
    let der = base64::engine::general_purpose::STANDARD
        .decode(compact.as_bytes())
        .map_err(|e| EyamlError::InvalidBase64(e.to_string().trim_end_matches('.').to_owned()))?;
    let plaintext = decrypt_der(&der, keys)?;
    String::from_utf8(plaintext).map_err(|_| EyamlError::NotUtf8)
}

/// Decrypts a DER PKCS#7 (CMS) EnvelopedData ContentInfo.
fn decrypt_der(der: &[u8], keys: &Keys) -> Result<Vec<u8>, EyamlError> {
    let envelope = parse_envelope(der)?;
    let mut candidates = envelope
        .recipients
        .iter()
        .filter(|r| match r.id {
            RecipientId::IssuerSerial { issuer, serial } => {
                issuer == keys.issuer.as_slice() && trim_zeros(serial) == trim_zeros(&keys.serial)
            }
            // The certificate's subject key identifier is not parsed; just try such entries.
            RecipientId::KeyId => true,
        })
        .peekable();
    if candidates.peek().is_none() {
        return Err(EyamlError::NoMatchingRecipient);
    }
    // eyaml certificates all have the empty subject and serial 1, so several entries can match:
    // try each (OpenSSL only tries the first).
    let mut unsupported = None;
    for recipient in candidates {
        if recipient.key_algorithm != OID_RSA_ENCRYPTION {
            unsupported.get_or_insert(recipient.key_algorithm);
            continue;
        }
        let Ok(content_key) = keys.private.pkcs1v15_decrypt(recipient.encrypted_key) else {
            continue;
        };
        if let Some(plaintext) = decrypt_content(&envelope, &content_key)? {
            return Ok(plaintext);
        }
    }
    match unsupported {
        Some(oid) => Err(EyamlError::UnsupportedAlgorithm {
            purpose: "key encryption",
            oid: oid_to_string(oid),
        }),
        None => Err(EyamlError::DecryptionFailed),
    }
}

/// Decrypts the content with `key`; `Ok(None)` when the key or padding is wrong.
fn decrypt_content(envelope: &Envelope<'_>, key: &[u8]) -> Result<Option<Vec<u8>>, EyamlError> {
    macro_rules! cbc {
        ($cipher:ty, $key_len:expr, $block:expr) => {{
            let iv = envelope
                .cipher_iv
                .filter(|iv| iv.len() == $block)
                .ok_or_else(|| {
                    malformed("the content-encryption IV is missing or has a wrong length")
                })?;
            if envelope.content.is_empty() || envelope.content.len() % $block != 0 {
                return Err(malformed(
                    "the encrypted content length is not a multiple of the block size",
                ));
            }
            if key.len() != $key_len {
                return Ok(None);
            }
            let Ok(decryptor) = cbc::Decryptor::<$cipher>::new_from_slices(key, iv) else {
                return Ok(None);
            };
            Ok(decryptor
                .decrypt_padded_vec::<Pkcs7>(&envelope.content)
                .ok())
        }};
    }
    match envelope.cipher {
        OID_AES128_CBC => cbc!(aes::Aes128, 16, 16),
        OID_AES192_CBC => cbc!(aes::Aes192, 24, 16),
        OID_AES256_CBC => cbc!(aes::Aes256, 32, 16),
        OID_DES_EDE3_CBC => cbc!(des::TdesEde3, 24, 8),
        other => Err(EyamlError::UnsupportedAlgorithm {
            purpose: "content encryption",
            oid: oid_to_string(other),
        }),
    }
}

// DER contents of the object identifiers used.
/// 1.2.840.113549.1.7.3 (pkcs7-envelopedData)
const OID_ENVELOPED_DATA: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x03];
/// 1.2.840.113549.1.1.1 (rsaEncryption, PKCS#1 v1.5)
const OID_RSA_ENCRYPTION: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01];
/// 2.16.840.1.101.3.4.1.2 (aes128-CBC)
const OID_AES128_CBC: &[u8] = &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x01, 0x02];
/// 2.16.840.1.101.3.4.1.22 (aes192-CBC)
const OID_AES192_CBC: &[u8] = &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x01, 0x16];
/// 2.16.840.1.101.3.4.1.42 (aes256-CBC)
const OID_AES256_CBC: &[u8] = &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x01, 0x2a];
/// 1.2.840.113549.3.7 (des-ede3-cbc)
const OID_DES_EDE3_CBC: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x03, 0x07];

/// Dotted form of a DER object identifier, for error messages.
fn oid_to_string(oid: &[u8]) -> String {
    let mut arcs: Vec<u128> = Vec::new();
    let mut value: u128 = 0;
    for &b in oid {
        if value > (u128::MAX >> 7) {
            return format!("(invalid object identifier {oid:02x?})");
        }
        value = (value << 7) | u128::from(b & 0x7f);
        if b & 0x80 == 0 {
            if arcs.is_empty() {
                let first = (value / 40).min(2);
                arcs.push(first);
                arcs.push(value - first * 40);
            } else {
                arcs.push(value);
            }
            value = 0;
        }
    }
    if arcs.is_empty() || oid.last().is_some_and(|b| b & 0x80 != 0) {
        return format!("(invalid object identifier {oid:02x?})");
    }
    arcs.iter()
        .map(u128::to_string)
        .collect::<Vec<_>>()
        .join(".")
}

// ---------------------------------------------------------------------------------------------
// Minimal DER reader.

const TAG_INTEGER: u8 = 0x02;
const TAG_OCTET_STRING: u8 = 0x04;
const TAG_OCTET_STRING_CONSTRUCTED: u8 = 0x24;
const TAG_OID: u8 = 0x06;
const TAG_SEQUENCE: u8 = 0x30;
const TAG_SET: u8 = 0x31;
/// `[0]` constructed.
const TAG_CONTEXT_0_CONSTRUCTED: u8 = 0xa0;
/// `[0]` primitive.
const TAG_CONTEXT_0_PRIMITIVE: u8 = 0x80;

#[derive(Clone, Copy)]
struct Tlv<'a> {
    tag: u8,
    /// Content octets.
    value: &'a [u8],
    /// Tag, length and content octets.
    whole: &'a [u8],
}

struct DerReader<'a> {
    rest: &'a [u8],
}

impl<'a> DerReader<'a> {
    fn new(data: &'a [u8]) -> Self {
        DerReader { rest: data }
    }

    fn is_empty(&self) -> bool {
        self.rest.is_empty()
    }

    fn peek_tag(&self) -> Option<u8> {
        self.rest.first().copied()
    }

    fn read(&mut self) -> Result<Tlv<'a>, EyamlError> {
        const TRUNCATED: &str = "the data is truncated";
        let data = self.rest;
        let (&tag, after_tag) = data.split_first().ok_or_else(|| malformed(TRUNCATED))?;
        if tag & 0x1f == 0x1f {
            return Err(malformed("a high tag number is not expected"));
        }
        let (&first, mut after_len) = after_tag
            .split_first()
            .ok_or_else(|| malformed(TRUNCATED))?;
        let len = match first {
            0..=0x7f => usize::from(first),
            0x80 => return Err(malformed("indefinite lengths (BER) are not supported")),
            0x81..=0x84 => {
                let (len_bytes, rest) = after_len
                    .split_at_checked(usize::from(first & 0x7f))
                    .ok_or_else(|| malformed(TRUNCATED))?;
                after_len = rest;
                len_bytes
                    .iter()
                    .fold(0usize, |acc, &b| (acc << 8) | usize::from(b))
            }
            _ => return Err(malformed("a length is too large")),
        };
        let (value, rest) = after_len
            .split_at_checked(len)
            .ok_or_else(|| malformed(TRUNCATED))?;
        let header = data.len() - after_len.len();
        let whole = data
            .get(..header + len)
            .ok_or_else(|| malformed(TRUNCATED))?;
        self.rest = rest;
        Ok(Tlv { tag, value, whole })
    }

    /// Reads an element that must have tag `tag`; `what` names it in the error.
    fn expect(&mut self, tag: u8, what: &str) -> Result<Tlv<'a>, EyamlError> {
        let tlv = self.read()?;
        if tlv.tag != tag {
            return Err(malformed(&format!("expected {what}")));
        }
        Ok(tlv)
    }

    /// Reads an element with tag `tag` if the next element has it.
    fn optional(&mut self, tag: u8) -> Result<Option<Tlv<'a>>, EyamlError> {
        if self.peek_tag() == Some(tag) {
            self.read().map(Some)
        } else {
            Ok(None)
        }
    }
}

enum RecipientId<'a> {
    IssuerSerial { issuer: &'a [u8], serial: &'a [u8] },
    KeyId,
}

struct Recipient<'a> {
    id: RecipientId<'a>,
    key_algorithm: &'a [u8],
    encrypted_key: &'a [u8],
}

struct Envelope<'a> {
    recipients: Vec<Recipient<'a>>,
    cipher: &'a [u8],
    cipher_iv: Option<&'a [u8]>,
    content: Vec<u8>,
}

/// Parses `ContentInfo { envelopedData, EnvelopedData }` (PKCS#7 v1.5 / CMS).
fn parse_envelope(der: &[u8]) -> Result<Envelope<'_>, EyamlError> {
    let mut top = DerReader::new(der);
    let content_info = top.expect(TAG_SEQUENCE, "a ContentInfo SEQUENCE")?;
    if !top.is_empty() {
        return Err(malformed("unexpected data follows the message"));
    }
    let mut ci = DerReader::new(content_info.value);
    let content_type = ci.expect(TAG_OID, "the content type")?;
    if content_type.value != OID_ENVELOPED_DATA {
        return Err(malformed(&format!(
            "the content type is {}, not enveloped data",
            oid_to_string(content_type.value)
        )));
    }
    let explicit = ci.expect(TAG_CONTEXT_0_CONSTRUCTED, "the [0] content")?;
    let enveloped =
        DerReader::new(explicit.value).expect(TAG_SEQUENCE, "an EnvelopedData SEQUENCE")?;

    let mut ed = DerReader::new(enveloped.value);
    ed.expect(TAG_INTEGER, "the EnvelopedData version")?;
    ed.optional(TAG_CONTEXT_0_CONSTRUCTED)?; // CMS originatorInfo
    let recipient_set = ed.expect(TAG_SET, "the recipientInfos SET")?;
    let mut recipients = Vec::new();
    let mut rs = DerReader::new(recipient_set.value);
    while !rs.is_empty() {
        let info = rs.read()?;
        // KeyTransRecipientInfo is a SEQUENCE; other CMS kinds ([1]..[4]) cannot use an RSA key.
        if info.tag == TAG_SEQUENCE {
            recipients.push(parse_recipient(info.value)?);
        }
    }
    let eci = ed.expect(TAG_SEQUENCE, "the EncryptedContentInfo SEQUENCE")?;
    let mut eci = DerReader::new(eci.value);
    eci.expect(TAG_OID, "the encrypted content type")?;
    let algorithm = eci.expect(TAG_SEQUENCE, "the content-encryption AlgorithmIdentifier")?;
    let mut alg = DerReader::new(algorithm.value);
    let cipher = alg
        .expect(TAG_OID, "the content-encryption algorithm")?
        .value;
    let cipher_iv = alg.optional(TAG_OCTET_STRING)?.map(|iv| iv.value);
    let content = if let Some(primitive) = eci.optional(TAG_CONTEXT_0_PRIMITIVE)? {
        primitive.value.to_vec()
    } else if let Some(constructed) = eci.optional(TAG_CONTEXT_0_CONSTRUCTED)? {
        let mut out = Vec::new();
        collect_octet_chunks(constructed.value, &mut out, 0)?;
        out
    } else {
        return Err(malformed("the encrypted content is missing"));
    };
    Ok(Envelope {
        recipients,
        cipher,
        cipher_iv,
        content,
    })
}

/// Concatenates the OCTET STRING chunks of a constructed string.
fn collect_octet_chunks(data: &[u8], out: &mut Vec<u8>, depth: u8) -> Result<(), EyamlError> {
    if depth > 8 {
        return Err(malformed("the encrypted content is nested too deeply"));
    }
    let mut reader = DerReader::new(data);
    while !reader.is_empty() {
        let chunk = reader.read()?;
        match chunk.tag {
            TAG_OCTET_STRING => out.extend_from_slice(chunk.value),
            TAG_OCTET_STRING_CONSTRUCTED => collect_octet_chunks(chunk.value, out, depth + 1)?,
            _ => {
                return Err(malformed(
                    "expected OCTET STRING chunks of encrypted content",
                ));
            }
        }
    }
    Ok(())
}

/// Parses the content of a KeyTransRecipientInfo SEQUENCE.
fn parse_recipient(data: &[u8]) -> Result<Recipient<'_>, EyamlError> {
    let mut r = DerReader::new(data);
    r.expect(TAG_INTEGER, "the RecipientInfo version")?;
    let id = match r.peek_tag() {
        Some(TAG_SEQUENCE) => {
            let ias = r.read()?;
            let mut ias = DerReader::new(ias.value);
            let issuer = ias.expect(TAG_SEQUENCE, "the recipient issuer Name")?.whole;
            let serial = ias
                .expect(TAG_INTEGER, "the recipient serial number")?
                .value;
            RecipientId::IssuerSerial { issuer, serial }
        }
        Some(TAG_CONTEXT_0_PRIMITIVE) => {
            r.read()?;
            RecipientId::KeyId
        }
        _ => return Err(malformed("expected a recipient identifier")),
    };
    let algorithm = r.expect(TAG_SEQUENCE, "the key-encryption AlgorithmIdentifier")?;
    let key_algorithm = DerReader::new(algorithm.value)
        .expect(TAG_OID, "the key-encryption algorithm")?
        .value;
    let encrypted_key = r.expect(TAG_OCTET_STRING, "the encrypted key")?.value;
    Ok(Recipient {
        id,
        key_algorithm,
        encrypted_key,
    })
}

// ---------------------------------------------------------------------------------------------
// Keys and certificate.

/// PEM blocks of `text` as `(label, headers present, DER)`.
fn pem_blocks(text: &str) -> Result<Vec<(String, bool, Vec<u8>)>, String> {
    let mut blocks = Vec::new();
    let mut lines = text.lines().map(str::trim);
    while let Some(line) = lines.next() {
        let Some(label) = line
            .strip_prefix("-----BEGIN ")
            .and_then(|l| l.strip_suffix("-----"))
        else {
            continue;
        };
        let end = format!("-----END {label}-----");
        let mut body = String::new();
        let mut headers = false;
        let mut closed = false;
        for line in lines.by_ref() {
            if line == end {
                closed = true;
                break;
            }
            if line.contains(':') {
                headers = true;
            } else {
                body.push_str(line);
            }
        }
        if !closed {
            return Err(format!("the PEM block '{label}' has no END line"));
        }
        let der = base64::engine::general_purpose::STANDARD
            .decode(body.as_bytes())
            .map_err(|_| format!("the PEM block '{label}' is not valid base64"))?;
        blocks.push((label.to_owned(), headers, der));
    }
    Ok(blocks)
}

fn looks_like_pem(bytes: &[u8]) -> bool {
    bytes.windows(11).any(|w| w == b"-----BEGIN ")
}

fn parse_private_key(bytes: &[u8]) -> Result<rsa::PrivateKey, String> {
    if !looks_like_pem(bytes) {
        return rsa::PrivateKey::from_pkcs1_der(bytes)
            .or_else(|_| rsa::PrivateKey::from_pkcs8_der(bytes))
            .map_err(|_| "it is neither PEM nor a DER RSA private key".to_owned());
    }
    let text =
        std::str::from_utf8(bytes).map_err(|_| "the PEM text is not valid UTF-8".to_owned())?;
    for (label, headers, der) in pem_blocks(text)? {
        match label.as_str() {
            "RSA PRIVATE KEY" if headers => {
                return Err("password-protected private keys are not supported".to_owned());
            }
            "RSA PRIVATE KEY" => {
                return rsa::PrivateKey::from_pkcs1_der(&der)
                    .map_err(|e| format!("invalid PKCS#1 RSA private key ({e})"));
            }
            "PRIVATE KEY" => {
                return rsa::PrivateKey::from_pkcs8_der(&der)
                    .map_err(|e| format!("invalid or non-RSA PKCS#8 private key ({e})"));
            }
            "ENCRYPTED PRIVATE KEY" => {
                return Err("password-protected private keys are not supported".to_owned());
            }
            _ => {}
        }
    }
    Err("no 'RSA PRIVATE KEY' or 'PRIVATE KEY' PEM block found".to_owned())
}

struct Certificate {
    issuer: Vec<u8>,
    serial: Vec<u8>,
    public: rsa::PublicKey,
}

fn parse_certificate(bytes: &[u8]) -> Result<Certificate, String> {
    if !looks_like_pem(bytes) {
        return parse_certificate_der(bytes);
    }
    let text =
        std::str::from_utf8(bytes).map_err(|_| "the PEM text is not valid UTF-8".to_owned())?;
    pem_blocks(text)?
        .into_iter()
        .find(|(label, _, _)| {
            matches!(
                label.as_str(),
                "CERTIFICATE" | "X509 CERTIFICATE" | "TRUSTED CERTIFICATE"
            )
        })
        .ok_or_else(|| "no 'CERTIFICATE' PEM block found".to_owned())
        .and_then(|(_, _, der)| parse_certificate_der(&der))
}

/// Takes the serial number, issuer and public key of an X.509 certificate.
fn parse_certificate_der(der: &[u8]) -> Result<Certificate, String> {
    let invalid = |e: EyamlError| match e {
        EyamlError::MalformedPkcs7(what) => format!("invalid X.509 certificate ({what})"),
        other => other.to_string(),
    };
    let cert = DerReader::new(der)
        .expect(TAG_SEQUENCE, "a Certificate SEQUENCE")
        .map_err(invalid)?;
    let tbs = DerReader::new(cert.value)
        .expect(TAG_SEQUENCE, "a TBSCertificate SEQUENCE")
        .map_err(invalid)?;
    let mut tbs = DerReader::new(tbs.value);
    tbs.optional(TAG_CONTEXT_0_CONSTRUCTED).map_err(invalid)?; // version
    let serial = tbs
        .expect(TAG_INTEGER, "the serial number")
        .map_err(invalid)?
        .value
        .to_vec();
    tbs.expect(TAG_SEQUENCE, "the signature algorithm")
        .map_err(invalid)?;
    let issuer = tbs
        .expect(TAG_SEQUENCE, "the issuer Name")
        .map_err(invalid)?
        .whole
        .to_vec();
    tbs.expect(TAG_SEQUENCE, "the validity").map_err(invalid)?;
    tbs.expect(TAG_SEQUENCE, "the subject Name")
        .map_err(invalid)?;
    let spki = tbs
        .expect(TAG_SEQUENCE, "the subject public key info")
        .map_err(invalid)?;
    let public = rsa::PublicKey::from_public_key_der(spki.whole)
        .map_err(|_| "the certificate does not hold an RSA public key".to_owned())?;
    Ok(Certificate {
        issuer,
        serial,
        public,
    })
}

#[cfg(test)]
mod tests {
    //! Fixtures in `testdata/eyaml/` were made with the real hiera-eyaml 3.3.0 (`gen.sh`).

    use super::*;

    macro_rules! fixture {
        ($name:literal) => {
            include_str!(concat!("../testdata/eyaml/", $name))
        };
    }

    const PRIVATE: &str = fixture!("keys/private_key.pkcs7.pem");
    const PUBLIC: &str = fixture!("keys/public_key.pkcs7.pem");
    const OTHER_PRIVATE: &str = fixture!("keys_other/private_key.pkcs7.pem");
    const OTHER_PUBLIC: &str = fixture!("keys_other/public_key.pkcs7.pem");
    const SECRET: &str = fixture!("secret.txt");

    fn keys() -> Keys {
        Keys::from_pem(PRIVATE, PUBLIC).unwrap()
    }

    fn other_keys() -> Keys {
        Keys::from_pem(OTHER_PRIVATE, OTHER_PUBLIC).unwrap()
    }

    fn decrypt(text: &str) -> Result<String, EyamlError> {
        decrypt_str(text, &keys())
    }

    /// The DER bytes of the `secret` fixture.
    fn secret_der() -> Vec<u8> {
        let b64 = SECRET
            .trim()
            .strip_prefix("ENC[PKCS7,")
            .unwrap()
            .strip_suffix(']')
            .unwrap();
        base64::engine::general_purpose::STANDARD
            .decode(b64)
            .unwrap()
    }

    fn enc(der: &[u8]) -> String {
        format!(
            "ENC[PKCS7,{}]",
            base64::engine::general_purpose::STANDARD.encode(der)
        )
    }

    #[test]
    fn decrypts_eyaml_values() {
        // Each fixture ends with a newline, which is chomped as hiera-eyaml does.
        assert_eq!(decrypt(SECRET).unwrap(), "secret");
        assert_eq!(
            decrypt(fixture!("multiline.txt")).unwrap(),
            "line one\nline two\n  indented: three"
        );
        assert_eq!(
            decrypt(fixture!("utf8.txt")).unwrap(),
            "héllo wörld — 日本語 🔑"
        );
        assert_eq!(decrypt(fixture!("empty.txt")).unwrap(), "");
        let long = decrypt(fixture!("long.txt")).unwrap();
        assert!(long.len() > 1024);
        assert_eq!(long, fixture!("long_plain.txt"));
    }

    #[test]
    fn decrypts_blocks_mixed_with_text() {
        assert_eq!(
            decrypt(fixture!("mixed.txt")).unwrap(),
            "postgres://admin:p@ss w0rd@db.example.com/app"
        );
    }

    #[test]
    fn decrypts_block_format() {
        let block = fixture!("block.txt");
        assert!(
            block.contains("\n  "),
            "the fixture spans several indented lines"
        );
        // Raw block text, newlines and indentation inside the base64.
        assert_eq!(decrypt(block.trim()).unwrap(), "block secret");
        assert_eq!(decrypt(block).unwrap(), "  block secret");
        // What a YAML folded scalar (`key: >` + block) yields: lines joined by spaces, final newline.
        let folded = format!("{}\n", block.trim().replace("\n  ", " "));
        assert_eq!(decrypt(&folded).unwrap(), "block secret");
    }

    #[test]
    fn method_is_optional_and_case_insensitive() {
        let b64 = SECRET.trim().strip_prefix("ENC[PKCS7,").unwrap();
        assert_eq!(decrypt(&format!("ENC[{b64}")).unwrap(), "secret");
        assert_eq!(decrypt(&format!("ENC[pkcs7,{b64}")).unwrap(), "secret");
    }

    #[test]
    fn other_content_ciphers() {
        assert_eq!(decrypt(fixture!("aes128.txt")).unwrap(), "aes 128 secret");
        assert_eq!(decrypt(fixture!("aes192.txt")).unwrap(), "aes 192 secret");
        assert_eq!(decrypt(fixture!("des3.txt")).unwrap(), "triple des secret");
    }

    #[test]
    fn two_recipients_with_the_same_issuer_and_serial() {
        let text = fixture!("two_recipients.txt");
        assert_eq!(decrypt_str(text, &keys()).unwrap(), "shared secret");
        assert_eq!(decrypt_str(text, &other_keys()).unwrap(), "shared secret");
    }

    #[test]
    fn loads_key_files_and_pkcs8() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/eyaml/keys");
        let keys = Keys::load(
            &dir.join("private_key.pkcs7.pem"),
            &dir.join("public_key.pkcs7.pem"),
        )
        .unwrap();
        assert_eq!(decrypt_str(SECRET, &keys).unwrap(), "secret");

        let pkcs8 = fixture!("private_key.pkcs8.pem");
        assert!(pkcs8.starts_with("-----BEGIN PRIVATE KEY-----"));
        let keys = Keys::from_pem(pkcs8, PUBLIC).unwrap();
        assert_eq!(decrypt_str(SECRET, &keys).unwrap(), "secret");
        assert_eq!(format!("{keys:?}"), "Keys { .. }");
    }

    #[test]
    fn key_loading_errors() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/eyaml/keys");
        let missing = dir.join("no_such_key.pem");
        let err = Keys::load(&missing, &dir.join("public_key.pkcs7.pem")).unwrap_err();
        assert!(
            matches!(
                err,
                EyamlError::ReadKeyFile {
                    kind: "private key",
                    ..
                }
            ),
            "{err:?}"
        );
        assert!(err.to_string().contains("no_such_key.pem"), "{err}");

        let err = Keys::load(&dir.join("private_key.pkcs7.pem"), &missing).unwrap_err();
        assert!(
            matches!(
                err,
                EyamlError::ReadKeyFile {
                    kind: "public key",
                    ..
                }
            ),
            "{err:?}"
        );

        // A file that is not a key names the file too.
        let err = Keys::load(
            &dir.join("public_key.pkcs7.pem"),
            &dir.join("public_key.pkcs7.pem"),
        )
        .unwrap_err();
        assert!(
            matches!(err, EyamlError::InvalidPrivateKey { .. }),
            "{err:?}"
        );
        assert!(err.to_string().contains("public_key.pkcs7.pem"), "{err}");

        let err = Keys::from_pem("garbage", PUBLIC).unwrap_err();
        assert!(
            matches!(err, EyamlError::InvalidPrivateKey { .. }),
            "{err:?}"
        );
        let err = Keys::from_pem(PRIVATE, "garbage").unwrap_err();
        assert!(
            matches!(err, EyamlError::InvalidCertificate { .. }),
            "{err:?}"
        );
        let err = Keys::from_pem(PRIVATE, PRIVATE).unwrap_err();
        assert!(
            matches!(err, EyamlError::InvalidCertificate { .. }),
            "{err:?}"
        );
        let truncated = &PRIVATE[..PRIVATE.len() / 2];
        assert!(Keys::from_pem(truncated, PUBLIC).is_err());
        let encrypted = PRIVATE.replace(
            "-----BEGIN RSA PRIVATE KEY-----\n",
            "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00\n\n",
        );
        let err = Keys::from_pem(&encrypted, PUBLIC).unwrap_err();
        assert!(err.to_string().contains("password-protected"), "{err}");

        // Private key of one pair, certificate of the other.
        let err = Keys::from_pem(PRIVATE, OTHER_PUBLIC).unwrap_err();
        assert!(matches!(err, EyamlError::KeyMismatch { .. }), "{err:?}");
    }

    #[test]
    fn wrong_key_pair() {
        let err = decrypt_str(SECRET, &other_keys()).unwrap_err();
        assert!(matches!(err, EyamlError::DecryptionFailed), "{err:?}");
        assert!(err.to_string().contains("another key pair"), "{err}");
    }

    #[test]
    fn plain_text_is_unchanged() {
        let keys = keys();
        for text in [
            "",
            "plain\n",
            "ENC",
            "ENC[",
            "ENC[ without end",
            "x ]ENC[\n",
            "ENC ]",
        ] {
            assert!(!is_encrypted(text), "{text:?}");
            assert_eq!(decrypt_str(text, &keys).unwrap(), text);
        }
        // `ENC[...]` that is not block syntax stays text (the result is still chomped).
        assert!(is_encrypted("ENC[not a block!]\n"));
        assert_eq!(
            decrypt_str("ENC[not a block!]\n", &keys).unwrap(),
            "ENC[not a block!]"
        );
        assert_eq!(
            decrypt_str("a ENC[PKCS7,] b", &keys).unwrap(),
            "a ENC[PKCS7,] b"
        );
        assert!(is_encrypted(SECRET));
        assert!(is_encrypted(fixture!("mixed.txt")));
    }

    #[test]
    fn unsupported_method() {
        let err = decrypt("key: ENC[GPG,hQEMA0ZGkzJpdWTKAQf/ZmFrZQ==]").unwrap_err();
        assert!(
            matches!(&err, EyamlError::UnsupportedMethod(m) if m == "GPG"),
            "{err:?}"
        );
        assert!(err.to_string().contains("'GPG'"), "{err}");
    }

    #[test]
    fn bad_ciphertexts() {
        let err = decrypt("ENC[PKCS7,abc]").unwrap_err();
        assert!(matches!(err, EyamlError::InvalidBase64(_)), "{err:?}");
        let err = decrypt("ENC[PKCS7,ab=c]").unwrap_err();
        assert!(matches!(err, EyamlError::InvalidBase64(_)), "{err:?}");
        let err = decrypt("ENC[PKCS7, \n ]").unwrap_err();
        assert!(matches!(err, EyamlError::EmptyCiphertext), "{err:?}");
        let err = decrypt("ENC[PKCS7,AAAA]").unwrap_err();
        assert!(matches!(err, EyamlError::MalformedPkcs7(_)), "{err:?}");

        let der = secret_der();
        let err = decrypt(&enc(&der[..der.len() - 10])).unwrap_err();
        assert!(matches!(err, EyamlError::MalformedPkcs7(_)), "{err:?}");
        assert!(err.to_string().contains("truncated"), "{err}");
        let mut trailing = der.clone();
        trailing.push(0);
        assert!(matches!(
            decrypt(&enc(&trailing)),
            Err(EyamlError::MalformedPkcs7(_))
        ));

        let err = decrypt(fixture!("binary.txt")).unwrap_err();
        assert!(matches!(err, EyamlError::NotUtf8), "{err:?}");
    }

    #[test]
    fn errors_name_unsupported_algorithms() {
        let der = secret_der();
        // Replace the AES-256-CBC OID by AES-256-GCM (2.16.840.1.101.3.4.1.46).
        let at = der
            .windows(OID_AES256_CBC.len())
            .position(|w| w == OID_AES256_CBC)
            .unwrap();
        let mut gcm = der.clone();
        gcm[at + OID_AES256_CBC.len() - 1] = 0x2e;
        let err = decrypt(&enc(&gcm)).unwrap_err();
        assert!(err.to_string().contains("2.16.840.1.101.3.4.1.46"), "{err}");
    }

    #[test]
    fn truncations_are_errors() {
        let keys = keys();
        let der = secret_der();
        for len in 1..der.len() {
            let result = decrypt_str(&enc(&der[..len]), &keys);
            assert!(result.is_err(), "prefix of {len} bytes was accepted");
        }
    }

    /// Mutated and random inputs must give `Err` (or, for harmless changes, `Ok`), never panic.
    #[test]
    fn mutations_do_not_panic() {
        let keys = keys();
        let der = secret_der();
        // Mutating the 256-byte RSA-encrypted key only exercises RSA, which is slow in debug
        // builds: sample it sparsely, mutate every other byte.
        let key_start = der.len() - 256 - 62;
        assert_eq!(der[key_start - 4..key_start], [0x04, 0x82, 0x01, 0x00]);
        for i in 0..der.len() {
            if (key_start..key_start + 256).contains(&i) && i % 32 != 0 {
                continue;
            }
            for flip in [0x01u8, 0x80, 0xff] {
                let mut mutated = der.clone();
                mutated[i] ^= flip;
                // Some bytes (version numbers, IV) are not authenticated: `Ok` is possible.
                let _ = decrypt_str(&enc(&mutated), &keys);
            }
            let mut removed = der.clone();
            removed.remove(i);
            assert!(
                decrypt_str(&enc(&removed), &keys).is_err(),
                "byte {i} removed"
            );
        }
        // Pseudo-random garbage, also wrapped in a valid outer header.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for round in 0..2000 {
            let len = (next() % 600) as usize;
            let mut bytes: Vec<u8> = (0..len).map(|_| next() as u8).collect();
            if round % 2 == 0 {
                let keep = (next() as usize) % 40;
                bytes.splice(0..0, der[..keep.min(der.len())].iter().copied());
            }
            let _ = parse_envelope(&bytes);
            let _ = parse_certificate_der(&bytes);
            let _ = decrypt_str(&enc(&bytes), &keys);
        }
    }

    #[test]
    fn error_messages_are_sentences_without_plaintext() {
        let errors = [
            decrypt_str(SECRET, &other_keys()).unwrap_err(),
            decrypt(fixture!("binary.txt")).unwrap_err(),
            decrypt("ENC[PKCS7,AAAA]").unwrap_err(),
            decrypt("ENC[GPG,AAAA]").unwrap_err(),
        ];
        for err in errors {
            let msg = err.to_string();
            assert!(
                msg.starts_with(char::is_uppercase) && msg.ends_with('.'),
                "{msg}"
            );
            assert!(
                !msg.contains("secret") && !msg.contains("not UTF-8"),
                "{msg}"
            );
        }
    }

    #[test]
    fn oid_formatting() {
        assert_eq!(oid_to_string(OID_AES256_CBC), "2.16.840.1.101.3.4.1.42");
        assert_eq!(oid_to_string(OID_ENVELOPED_DATA), "1.2.840.113549.1.7.3");
        assert!(oid_to_string(&[0x80]).contains("invalid"));
        assert!(oid_to_string(&[0xff; 40]).contains("invalid"));
        assert!(oid_to_string(&[]).contains("invalid"));
    }
}

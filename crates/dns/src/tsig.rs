//! TSIG (RFC 8945): shared-secret signatures on messages.
//!
//! A request is signed over its bytes and the TSIG variables; the server's
//! answer is signed over the request's MAC, the answer and its own
//! variables, so a forged answer cannot be replayed against another
//! request. In a zone transfer each further message is signed over the
//! previous MAC, the messages since, and only the timers.

use std::fmt;
use std::path::Path;

use hmac::{Hmac, KeyInit, Mac};

use crate::message::{CLASS_ANY, Message, Rcode, Record};
use crate::name::{Name, read_name};
use crate::rdata::{RData, RType};

/// The seconds of clock difference a signature tolerates, BIND's default.
pub const FUDGE: u16 = 300;

/// A MAC algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    HmacMd5,
    HmacSha1,
    HmacSha224,
    HmacSha256,
    HmacSha384,
    HmacSha512,
}

impl Algorithm {
    pub const ALL: [Algorithm; 6] = [
        Algorithm::HmacMd5,
        Algorithm::HmacSha1,
        Algorithm::HmacSha224,
        Algorithm::HmacSha256,
        Algorithm::HmacSha384,
        Algorithm::HmacSha512,
    ];

    /// The name users write (`hmac-sha256`), as BIND's key files do.
    pub fn short_name(self) -> &'static str {
        match self {
            Algorithm::HmacMd5 => "hmac-md5",
            Algorithm::HmacSha1 => "hmac-sha1",
            Algorithm::HmacSha224 => "hmac-sha224",
            Algorithm::HmacSha256 => "hmac-sha256",
            Algorithm::HmacSha384 => "hmac-sha384",
            Algorithm::HmacSha512 => "hmac-sha512",
        }
    }

    /// The name on the wire; MD5's is historical.
    fn wire_name(self) -> Name {
        let text = match self {
            Algorithm::HmacMd5 => "hmac-md5.sig-alg.reg.int",
            other => other.short_name(),
        };
        Name::parse(text).unwrap_or_else(|_| Name::root())
    }

    /// Parses a short or wire name, case-insensitively.
    pub fn parse(text: &str) -> Option<Algorithm> {
        let lower = text.trim_end_matches('.').to_ascii_lowercase();
        Algorithm::ALL
            .into_iter()
            .find(|a| a.short_name() == lower || a.wire_name().to_string() == lower)
    }

    fn mac(self, secret: &[u8], data: &[u8]) -> Vec<u8> {
        fn run<M: Mac + KeyInit>(secret: &[u8], data: &[u8]) -> Vec<u8> {
            // HMAC takes keys of any length, so this cannot fail.
            let mut mac =
                <M as KeyInit>::new_from_slice(secret).expect("HMAC accepts any key length");
            mac.update(data);
            mac.finalize().into_bytes().to_vec()
        }
        match self {
            Algorithm::HmacMd5 => run::<Hmac<md5::Md5>>(secret, data),
            Algorithm::HmacSha1 => run::<Hmac<sha1::Sha1>>(secret, data),
            Algorithm::HmacSha224 => run::<Hmac<sha2::Sha224>>(secret, data),
            Algorithm::HmacSha256 => run::<Hmac<sha2::Sha256>>(secret, data),
            Algorithm::HmacSha384 => run::<Hmac<sha2::Sha384>>(secret, data),
            Algorithm::HmacSha512 => run::<Hmac<sha2::Sha512>>(secret, data),
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.short_name())
    }
}

/// A TSIG key: its name, algorithm and secret.
#[derive(Clone, PartialEq, Eq)]
pub struct Key {
    pub name: Name,
    pub algorithm: Algorithm,
    secret: Vec<u8>,
}

impl fmt::Debug for Key {
    /// Never prints the secret.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Key({} {})", self.name, self.algorithm)
    }
}

impl Key {
    /// A key from its name, algorithm and base64 secret.
    pub fn new(name: &str, algorithm: &str, secret_base64: &str) -> Result<Key, String> {
        let name = Name::parse(name).map_err(|e| format!("TSIG key name: {e}"))?;
        let algorithm = Algorithm::parse(algorithm).ok_or_else(|| {
            format!(
                "unknown TSIG algorithm '{algorithm}'; use one of {}",
                Algorithm::ALL.map(Algorithm::short_name).join(", ")
            )
        })?;
        let secret = base64_decode(secret_base64.trim())
            .ok_or_else(|| format!("the secret of TSIG key {name} is not valid base64"))?;
        if secret.is_empty() {
            return Err(format!("the secret of TSIG key {name} is empty"));
        }
        Ok(Key {
            name,
            algorithm,
            secret,
        })
    }

    /// Reads the first key of a BIND key file (`tsig-keygen`'s output:
    /// `key "name" { algorithm hmac-sha256; secret "…"; };`).
    pub fn from_file(path: &Path) -> Result<Key, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read TSIG key file {}: {e}", path.display()))?;
        Key::from_bind_text(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Parses the text of a BIND key file.
    pub fn from_bind_text(text: &str) -> Result<Key, String> {
        let tokens = bind_tokens(text);
        let start = tokens
            .iter()
            .position(|t| t == "key")
            .ok_or("no 'key' statement found")?;
        let name = tokens.get(start + 1).ok_or("the key has no name")?;
        if tokens.get(start + 2).map(String::as_str) != Some("{") {
            return Err("expected '{' after the key name".into());
        }
        let mut algorithm = None;
        let mut secret = None;
        let mut i = start + 3;
        while let Some(token) = tokens.get(i) {
            match token.as_str() {
                "}" => break,
                "algorithm" => algorithm = tokens.get(i + 1).cloned(),
                "secret" => secret = tokens.get(i + 1).cloned(),
                _ => {}
            }
            i += 1;
        }
        Key::new(
            name,
            &algorithm.ok_or("the key has no algorithm")?,
            &secret.ok_or("the key has no secret")?,
        )
    }
}

/// Splits BIND configuration text into words, quoted strings (without
/// their quotes) and punctuation, dropping comments.
fn bind_tokens(text: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '#' => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut last = ' ';
                for c in chars.by_ref() {
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
            }
            '"' => {
                let mut s = String::new();
                for c in chars.by_ref() {
                    if c == '"' {
                        break;
                    }
                    s.push(c);
                }
                tokens.push(s);
            }
            '{' | '}' | ';' => tokens.push(c.to_string()),
            c if c.is_whitespace() => {}
            c => {
                let mut s = c.to_string();
                while let Some(&n) = chars.peek() {
                    if n.is_whitespace() || matches!(n, '{' | '}' | ';' | '"') {
                        break;
                    }
                    s.push(n);
                    chars.next();
                }
                tokens.push(s);
            }
        }
    }
    tokens
}

/// Decodes standard base64 with padding; whitespace is ignored, as BIND
/// key files may wrap long secrets.
pub fn base64_decode(text: &str) -> Option<Vec<u8>> {
    use base64::Engine;
    let compact: String = text.chars().filter(|c| !c.is_ascii_whitespace()).collect();
    base64::engine::general_purpose::STANDARD
        .decode(compact)
        .ok()
}

/// The fields of a TSIG record's data.
#[derive(Clone, Debug)]
struct TsigData {
    algorithm: Name,
    time_signed: u64,
    fudge: u16,
    mac: Vec<u8>,
    original_id: u16,
    error: u16,
    other: Vec<u8>,
}

impl TsigData {
    fn write(&self, out: &mut Vec<u8>) {
        self.algorithm.write(out);
        out.extend_from_slice(&self.time_signed.to_be_bytes()[2..]);
        out.extend_from_slice(&self.fudge.to_be_bytes());
        out.extend_from_slice(&(self.mac.len() as u16).to_be_bytes());
        out.extend_from_slice(&self.mac);
        out.extend_from_slice(&self.original_id.to_be_bytes());
        out.extend_from_slice(&self.error.to_be_bytes());
        out.extend_from_slice(&(self.other.len() as u16).to_be_bytes());
        out.extend_from_slice(&self.other);
    }

    fn read(bytes: &[u8]) -> Result<TsigData, String> {
        let mut pos = 0;
        let algorithm = read_name(bytes, &mut pos)?;
        let field = |at: usize, len: usize| {
            bytes
                .get(at..at + len)
                .ok_or_else(|| "TSIG record is truncated".to_string())
        };
        let u16_at = |at: usize| field(at, 2).map(|b| u16::from_be_bytes([b[0], b[1]]));
        let time = field(pos, 6)?;
        let time_signed = time.iter().fold(0u64, |acc, &b| (acc << 8) | u64::from(b));
        let fudge = u16_at(pos + 6)?;
        let mac_len = u16_at(pos + 8)? as usize;
        let mac = field(pos + 10, mac_len)?.to_vec();
        pos += 10 + mac_len;
        let original_id = u16_at(pos)?;
        let error = u16_at(pos + 2)?;
        let other_len = u16_at(pos + 4)? as usize;
        let other = field(pos + 6, other_len)?.to_vec();
        Ok(TsigData {
            algorithm,
            time_signed,
            fudge,
            mac,
            original_id,
            error,
            other,
        })
    }

    /// The variables signed after the message: all of them, or the timers
    /// alone for the later messages of a transfer.
    fn variables(&self, key: &Key, timers_only: bool, out: &mut Vec<u8>) {
        if !timers_only {
            key.name.write(out);
            out.extend_from_slice(&CLASS_ANY.to_be_bytes());
            out.extend_from_slice(&0u32.to_be_bytes());
            self.algorithm.write(out);
        }
        out.extend_from_slice(&self.time_signed.to_be_bytes()[2..]);
        out.extend_from_slice(&self.fudge.to_be_bytes());
        if !timers_only {
            out.extend_from_slice(&self.error.to_be_bytes());
            out.extend_from_slice(&(self.other.len() as u16).to_be_bytes());
            out.extend_from_slice(&self.other);
        }
    }
}

/// Why a signed answer was not accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TsigFailure {
    /// The server could not verify our signature (BADSIG, BADKEY, …).
    Rejected(Rcode),
    /// The answer carries no signature although the request had one.
    Unsigned,
    /// The answer's signature is not valid for our key.
    BadMac,
    /// The answer was signed too long ago or in the future.
    BadTime,
}

impl fmt::Display for TsigFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TsigFailure::Rejected(rcode) => write!(f, "the server answered {rcode}"),
            TsigFailure::Unsigned => f.write_str("the answer is not signed"),
            TsigFailure::BadMac => f.write_str("the answer's signature does not verify"),
            TsigFailure::BadTime => f.write_str("the answer's signature time is outside the fudge"),
        }
    }
}

fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// Signs `message` and returns its bytes with the TSIG record added, and
/// the MAC, which verifies the answer.
pub fn sign(key: &Key, message: &Message) -> (Vec<u8>, Vec<u8>) {
    let unsigned = message.to_bytes();
    let mut data = TsigData {
        algorithm: key.algorithm.wire_name(),
        time_signed: now(),
        fudge: FUDGE,
        mac: Vec::new(),
        original_id: message.id,
        error: 0,
        other: Vec::new(),
    };
    attach(key, message, &mut data, &[], &unsigned)
}

/// Computes the MAC over `prefix` (a request MAC, for answers), the
/// unsigned message and the variables, and returns the message's bytes
/// with the TSIG record added, and the MAC.
fn attach(
    key: &Key,
    message: &Message,
    data: &mut TsigData,
    prefix: &[u8],
    unsigned: &[u8],
) -> (Vec<u8>, Vec<u8>) {
    let mut input = prefix.to_vec();
    input.extend_from_slice(unsigned);
    data.variables(key, false, &mut input);
    data.mac = key.algorithm.mac(&key.secret, &input);
    let mut rdata = Vec::new();
    data.write(&mut rdata);
    let mut signed = message.clone();
    signed.additional.push(Record {
        name: key.name.clone(),
        rtype: RType::Tsig,
        class: CLASS_ANY,
        ttl: 0,
        rdata: Some(RData::Unknown(RType::Tsig, rdata)),
    });
    (signed.to_bytes(), data.mac.clone())
}

/// Verifies answers to one signed request: a single answer, or the
/// messages of a transfer in order.
pub struct Verifier<'k> {
    key: &'k Key,
    /// The MAC the next signature covers: the request's, then each
    /// verified message's.
    prior_mac: Vec<u8>,
    /// Unsigned messages since the last signed one, which the next
    /// signature covers too.
    pending: Vec<u8>,
    first: bool,
}

impl<'k> Verifier<'k> {
    pub fn new(key: &'k Key, request_mac: Vec<u8>) -> Verifier<'k> {
        Verifier {
            key,
            prior_mac: request_mac,
            pending: Vec::new(),
            first: true,
        }
    }

    /// Checks one answer, given as parsed and as received. In a transfer,
    /// messages after the first may be unsigned as long as a later one
    /// signs them; `last` says that this one must be signed.
    pub fn verify(
        &mut self,
        message: &Message,
        bytes: &[u8],
        last: bool,
    ) -> Result<(), TsigFailure> {
        let tsig_index = message
            .additional
            .iter()
            .position(|r| r.rtype == RType::Tsig);
        let Some(index) = tsig_index.filter(|&i| i + 1 == message.additional.len()) else {
            if message.rcode() == Rcode::NotAuth {
                // An unsigned NOTAUTH is how a server says it does not know
                // the key at all.
                return Err(TsigFailure::Rejected(Rcode::BadKey));
            }
            if self.first || last {
                return Err(TsigFailure::Unsigned);
            }
            self.pending.extend_from_slice(bytes);
            return Ok(());
        };
        let record = &message.additional[index];
        let Some(RData::Unknown(_, raw)) = &record.rdata else {
            return Err(TsigFailure::BadMac);
        };
        let data = TsigData::read(raw).map_err(|_| TsigFailure::BadMac)?;
        if data.error != 0 {
            return Err(TsigFailure::Rejected(Rcode::from_code(data.error)));
        }
        if record.name != self.key.name
            || Algorithm::parse(&data.algorithm.to_string()) != Some(self.key.algorithm)
        {
            return Err(TsigFailure::BadMac);
        }
        // The signed bytes are the message without its TSIG record, with
        // the additional count lowered and the original ID restored.
        let start = message.additional_offsets[index];
        let mut stripped = bytes[..start].to_vec();
        stripped[0..2].copy_from_slice(&data.original_id.to_be_bytes());
        let arcount = (message.additional.len() - 1) as u16;
        stripped[10..12].copy_from_slice(&arcount.to_be_bytes());

        let mut input = Vec::with_capacity(stripped.len() + 128);
        input.extend_from_slice(&(self.prior_mac.len() as u16).to_be_bytes());
        input.extend_from_slice(&self.prior_mac);
        input.extend_from_slice(&self.pending);
        input.extend_from_slice(&stripped);
        data.variables(self.key, !self.first, &mut input);
        let expected = self.key.algorithm.mac(&self.key.secret, &input);
        if !constant_time_eq(&expected, &data.mac) {
            return Err(TsigFailure::BadMac);
        }
        if now().abs_diff(data.time_signed) > u64::from(data.fudge) {
            return Err(TsigFailure::BadTime);
        }
        self.prior_mac = data.mac;
        self.pending.clear();
        self.first = false;
        Ok(())
    }
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> Key {
        Key::new("mrtest-key", "hmac-sha256", "c2VjcmV0IGtleSBmb3IgdGVzdHM=").unwrap()
    }

    #[test]
    fn reads_bind_key_files() {
        let text = "# generated\nkey \"mrtest-key\" {\n\talgorithm hmac-sha256;\n\tsecret \"c2VjcmV0IGtleSBmb3IgdGVzdHM=\";\n};\n";
        assert_eq!(Key::from_bind_text(text).unwrap(), key());
        assert!(
            Key::from_bind_text("key x { secret \"AA==\"; };")
                .unwrap_err()
                .contains("algorithm")
        );
        assert!(
            Key::new("k", "hmac-sha999", "AA==")
                .unwrap_err()
                .contains("unknown TSIG algorithm")
        );
        assert!(
            Key::new("k", "hmac-sha256", "!!")
                .unwrap_err()
                .contains("base64")
        );
        assert_eq!(format!("{:?}", key()), "Key(mrtest-key hmac-sha256)");
    }

    #[test]
    fn base64() {
        assert_eq!(base64_decode("aGVsbG8=").unwrap(), b"hello");
        assert_eq!(base64_decode("aGVsbG8h").unwrap(), b"hello!");
        assert_eq!(base64_decode("aGVs bG8=").unwrap(), b"hello");
        assert!(base64_decode("aG=Vs").is_none());
    }

    /// Plays the server: signs an answer the way RFC 8945 says a server
    /// does, so the verifier is checked against the specification rather
    /// than against itself.
    fn server_sign(key: &Key, answer: &Message, request_mac: &[u8], time: u64) -> Vec<u8> {
        let unsigned = answer.to_bytes();
        let mut data = TsigData {
            algorithm: key.algorithm.wire_name(),
            time_signed: time,
            fudge: FUDGE,
            mac: Vec::new(),
            original_id: answer.id,
            error: 0,
            other: Vec::new(),
        };
        let mut prefix = (request_mac.len() as u16).to_be_bytes().to_vec();
        prefix.extend_from_slice(request_mac);
        attach(key, answer, &mut data, &prefix, &unsigned).0
    }

    #[test]
    fn verifies_answers_and_rejects_forgeries() {
        let key = key();
        let request = Message::query(7, Name::parse("www.example.com").unwrap(), RType::A);
        let (_bytes, mac) = sign(&key, &request);
        let mut answer = request.clone();
        answer.response = true;
        let good = server_sign(&key, &answer, &mac, now());
        let parsed = Message::from_bytes(&good).unwrap();
        assert_eq!(
            Verifier::new(&key, mac.clone()).verify(&parsed, &good, true),
            Ok(())
        );

        let mut tampered = good.clone();
        tampered[3] ^= 0x01;
        let parsed = Message::from_bytes(&tampered).unwrap();
        assert_eq!(
            Verifier::new(&key, mac.clone()).verify(&parsed, &tampered, true),
            Err(TsigFailure::BadMac)
        );

        let other = Key::new("mrtest-key", "hmac-sha256", "b3RoZXI=").unwrap();
        let forged = server_sign(&other, &answer, &mac, now());
        let parsed = Message::from_bytes(&forged).unwrap();
        assert_eq!(
            Verifier::new(&key, mac.clone()).verify(&parsed, &forged, true),
            Err(TsigFailure::BadMac)
        );

        let old = server_sign(&key, &answer, &mac, now() - 3600);
        let parsed = Message::from_bytes(&old).unwrap();
        assert_eq!(
            Verifier::new(&key, mac.clone()).verify(&parsed, &old, true),
            Err(TsigFailure::BadTime)
        );

        let unsigned = answer.to_bytes();
        assert_eq!(
            Verifier::new(&key, mac).verify(&answer, &unsigned, true),
            Err(TsigFailure::Unsigned)
        );
    }
}

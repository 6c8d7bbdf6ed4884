//! `ssh`: the host's public keys and their SSHFP fingerprints, with the
//! legacy `sshrsakey` and `sshfp_rsa` names.

use serde_json::{Map, Value, json};
use sha1::{Digest, Sha1};
use sha2::Sha256;

use super::{Facts, Probe};

/// Where host keys are looked for, in order; a key found later replaces one
/// of the same kind found earlier.
const DIRECTORIES: [&str; 5] = [
    "/etc/ssh",
    "/usr/local/etc/ssh",
    "/etc",
    "/usr/local/etc",
    "/etc/opt/ssh",
];
const FILES: [&str; 4] = [
    "ssh_host_rsa_key.pub",
    "ssh_host_dsa_key.pub",
    "ssh_host_ecdsa_key.pub",
    "ssh_host_ed25519_key.pub",
];

/// A key type's short name and its SSHFP algorithm number (RFC 4255, 6594,
/// 7479).
fn algorithm(key_type: &str) -> Option<(&'static str, u8)> {
    match key_type {
        "ssh-rsa" => Some(("rsa", 1)),
        "ssh-dss" => Some(("dsa", 2)),
        "ecdsa-sha2-nistp256" => Some(("ecdsa", 3)),
        "ssh-ed25519" => Some(("ed25519", 4)),
        _ => None,
    }
}

/// Decodes base64 leniently, as Ruby's `Base64.decode64` does: characters
/// outside the alphabet are skipped and decoding stops at padding.
pub(crate) fn decode_base64(text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let mut buffer: u32 = 0;
    let mut bits = 0;
    for byte in text.bytes() {
        let value = match byte {
            b'A'..=b'Z' => byte - b'A',
            b'a'..=b'z' => byte - b'a' + 26,
            b'0'..=b'9' => byte - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' => break,
            _ => continue,
        };
        buffer = (buffer << 6) | u32::from(value);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((buffer >> bits) as u8);
            buffer &= (1 << bits) - 1;
        }
    }
    out
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

pub(crate) fn collect(probe: &Probe<'_>, facts: &mut Facts) {
    let root = &probe.system.root;
    let mut ssh = Map::new();
    for directory in DIRECTORIES {
        if !root.is_dir(directory) {
            continue;
        }
        for file in FILES {
            let Some(content) = probe.read(&format!("{directory}/{file}")) else {
                continue;
            };
            let mut words = content.split_whitespace();
            let (Some(key_type), Some(key)) = (words.next(), words.next()) else {
                continue;
            };
            let Some((name, number)) = algorithm(key_type) else {
                continue;
            };
            let decoded = decode_base64(key);
            let sha1 = format!("SSHFP {number} 1 {}", hex(&Sha1::digest(&decoded)));
            let sha256 = format!("SSHFP {number} 2 {}", hex(&Sha256::digest(&decoded)));
            facts.legacy(&format!("ssh{name}key"), json!(key));
            facts.legacy(&format!("sshfp_{name}"), json!(format!("{sha1}\n{sha256}")));
            ssh.insert(
                name.to_string(),
                json!({
                    "fingerprints": {"sha1": sha1, "sha256": sha256},
                    "key": key,
                    "type": key_type,
                }),
            );
        }
    }
    if !ssh.is_empty() {
        facts.set("ssh", Value::Object(ssh));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_decodes_like_ruby() {
        let cases: [(&str, &[u8]); 5] = [
            ("", b""),
            ("Zm9v", b"foo"),
            ("Zm9vYg==", b"foob"),
            ("Zm9v\nYmFy", b"foobar"),
            ("Zm9vYmE=ignored", b"fooba"),
        ];
        for (text, expected) in cases {
            assert_eq!(decode_base64(text), expected, "{text:?}");
        }
    }
}

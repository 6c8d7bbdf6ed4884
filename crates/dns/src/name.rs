//! Domain names.
//!
//! A [`Name`] is always absolute: `www.example.com` and `www.example.com.`
//! are the same name, since a manifest has no origin to make a name
//! relative to. Names compare without regard to ASCII case, as DNS does,
//! and are kept in lower case so that the text a user reads back is the
//! canonical one.

use std::fmt;

/// An absolute domain name, stored as lower-case labels.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Name {
    labels: Vec<String>,
}

/// Why a text is not a domain name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{text}' is not a valid DNS name: {reason}")]
pub struct NameError {
    pub text: String,
    pub reason: String,
}

/// The wire form's limit on a whole name, length bytes included.
const MAX_WIRE_LEN: usize = 255;

impl Name {
    /// The root name, `.`.
    pub fn root() -> Name {
        Name { labels: Vec::new() }
    }

    /// Parses a name in presentation form. Labels hold letters, digits,
    /// hyphens and underscores (service names such as `_sip._tcp` need the
    /// last); a leading `*` label makes a wildcard. Escapes are refused:
    /// names that need them are not names a manifest should manage.
    pub fn parse(text: &str) -> Result<Name, NameError> {
        let error = |reason: &str| NameError {
            text: text.to_string(),
            reason: reason.to_string(),
        };
        if text == "." {
            return Ok(Name::root());
        }
        let trimmed = text.strip_suffix('.').unwrap_or(text);
        if trimmed.is_empty() {
            return Err(error("it is empty"));
        }
        let mut labels = Vec::new();
        for (index, label) in trimmed.split('.').enumerate() {
            if label.is_empty() {
                return Err(error("it has an empty label"));
            }
            if label.len() > 63 {
                return Err(error("a label is longer than 63 characters"));
            }
            if label == "*" && index == 0 {
                labels.push(label.to_string());
                continue;
            }
            if !label
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
            {
                return Err(error("labels may only hold letters, digits, '-' and '_'"));
            }
            if label.starts_with('-') || label.ends_with('-') {
                return Err(error("a label starts or ends with '-'"));
            }
            labels.push(label.to_ascii_lowercase());
        }
        let name = Name { labels };
        if name.wire_len() > MAX_WIRE_LEN {
            return Err(error("it is longer than 253 characters"));
        }
        Ok(name)
    }

    /// Builds a name from labels read off the wire, which may hold any
    /// byte; they are kept as text with non-printable bytes escaped.
    pub(crate) fn from_wire_labels(labels: Vec<Vec<u8>>) -> Name {
        Name {
            labels: labels
                .into_iter()
                .map(|label| {
                    let mut text = String::new();
                    for byte in label {
                        match byte {
                            b'.' | b'\\' => {
                                text.push('\\');
                                text.push(byte as char);
                            }
                            0x21..=0x7e => text.push(byte.to_ascii_lowercase() as char),
                            _ => text.push_str(&format!("\\{byte:03}")),
                        }
                    }
                    text
                })
                .collect(),
        }
    }

    pub fn labels(&self) -> &[String] {
        &self.labels
    }

    pub fn is_root(&self) -> bool {
        self.labels.is_empty()
    }

    /// The name without its first label (`example.com` for
    /// `www.example.com`); `None` for the root.
    pub fn parent(&self) -> Option<Name> {
        if self.labels.is_empty() {
            None
        } else {
            Some(Name {
                labels: self.labels[1..].to_vec(),
            })
        }
    }

    /// Whether this name is `zone` or lies below it.
    pub fn is_within(&self, zone: &Name) -> bool {
        self.labels.len() >= zone.labels.len()
            && self.labels[self.labels.len() - zone.labels.len()..] == zone.labels[..]
    }

    /// The length of the wire form.
    pub fn wire_len(&self) -> usize {
        self.labels
            .iter()
            .map(|l| unescaped(l).len() + 1)
            .sum::<usize>()
            + 1
    }

    /// Appends the uncompressed wire form. Names are written uncompressed
    /// everywhere: updates are small, and TSIG needs the canonical form
    /// anyway.
    pub fn write(&self, out: &mut Vec<u8>) {
        for label in &self.labels {
            let bytes = unescaped(label);
            out.push(bytes.len() as u8);
            out.extend_from_slice(&bytes);
        }
        out.push(0);
    }
}

/// The bytes of a label kept as text, with `\X` and `\DDD` escapes undone.
fn unescaped(label: &str) -> Vec<u8> {
    let bytes = label.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\' && i + 1 < bytes.len() {
            if i + 3 < bytes.len() && bytes[i + 1..i + 4].iter().all(u8::is_ascii_digit) {
                let digits = std::str::from_utf8(&bytes[i + 1..i + 4]).unwrap_or("0");
                out.push(digits.parse::<u16>().unwrap_or(0).min(255) as u8);
                i += 4;
            } else {
                out.push(bytes[i + 1]);
                i += 2;
            }
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    out
}

impl fmt::Display for Name {
    /// The presentation form without the final dot (`www.example.com`),
    /// as users write names in manifests; the root prints as `.`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.labels.is_empty() {
            return f.write_str(".");
        }
        f.write_str(&self.labels.join("."))
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Name({self})")
    }
}

/// Reads a possibly compressed name at `*pos` of `message`, moving `*pos`
/// past it. Compression pointers must point backwards, so a malicious
/// message cannot make the reader loop.
pub(crate) fn read_name(message: &[u8], pos: &mut usize) -> Result<Name, String> {
    let mut labels = Vec::new();
    let mut cursor = *pos;
    let mut jumped = false;
    let mut total = 0usize;
    loop {
        let len = *message.get(cursor).ok_or("name runs past the message")? as usize;
        match len & 0xc0 {
            0x00 => {
                cursor += 1;
                if len == 0 {
                    break;
                }
                let label = message
                    .get(cursor..cursor + len)
                    .ok_or("label runs past the message")?;
                total += len + 1;
                if total > MAX_WIRE_LEN {
                    return Err("name is longer than 255 bytes".into());
                }
                labels.push(label.to_vec());
                cursor += len;
            }
            0xc0 => {
                let low = *message
                    .get(cursor + 1)
                    .ok_or("pointer runs past the message")? as usize;
                let target = ((len & 0x3f) << 8) | low;
                if target >= cursor {
                    return Err("compression pointer does not point backwards".into());
                }
                if !jumped {
                    *pos = cursor + 2;
                    jumped = true;
                }
                cursor = target;
            }
            _ => return Err("unknown label type".into()),
        }
    }
    if !jumped {
        *pos = cursor;
    }
    Ok(Name::from_wire_labels(labels))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_canonically() {
        let name = Name::parse("WWW.Example.COM.").unwrap();
        assert_eq!(name.to_string(), "www.example.com");
        assert_eq!(name, Name::parse("www.example.com").unwrap());
        assert_eq!(Name::parse(".").unwrap().to_string(), ".");
        assert_eq!(
            Name::parse("_sip._tcp.example.com").unwrap().labels().len(),
            4
        );
        assert!(Name::parse("*.example.com").is_ok());
    }

    #[test]
    fn refuses_bad_names() {
        for bad in [
            "",
            "a..b",
            "-a.b",
            "a b.c",
            "a\".b",
            "x.*.b",
            &"a".repeat(64),
        ] {
            assert!(Name::parse(bad).is_err(), "{bad:?}");
        }
        let long = vec!["a".repeat(60); 5].join(".");
        assert!(Name::parse(&long).unwrap_err().reason.contains("253"));
    }

    #[test]
    fn within_and_parent() {
        let www = Name::parse("www.example.com").unwrap();
        let zone = Name::parse("example.com").unwrap();
        assert!(www.is_within(&zone));
        assert!(zone.is_within(&zone));
        assert!(!zone.is_within(&www));
        assert!(!Name::parse("www.example.org").unwrap().is_within(&zone));
        assert_eq!(www.parent(), Some(zone));
    }

    #[test]
    fn reads_compressed_names_and_refuses_loops() {
        let mut message = Vec::new();
        Name::parse("example.com").unwrap().write(&mut message);
        let start = message.len();
        message.extend_from_slice(&[3, b'w', b'w', b'w', 0xc0, 0x00]);
        let mut pos = start;
        assert_eq!(
            read_name(&message, &mut pos).unwrap().to_string(),
            "www.example.com"
        );
        assert_eq!(pos, message.len());
        let looping = [0xc0, 0x00];
        assert!(read_name(&looping, &mut 0).is_err());
    }
}

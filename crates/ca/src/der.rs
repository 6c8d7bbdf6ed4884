//! The few DER encodings the CA builds by hand: the contents of extensions
//! that rcgen does not write the way Puppet does (a critical extended key
//! usage, the Netscape comment, Puppet's own `pp_*` values). Decoding is left
//! to x509-parser; this file only writes.

/// Encodes a tag, a definite length and the content.
fn tlv(tag: u8, content: &[u8]) -> Vec<u8> {
    let mut out = vec![tag];
    let len = content.len();
    if len < 0x80 {
        out.push(len as u8);
    } else {
        let bytes = len.to_be_bytes();
        let skip = bytes.iter().take_while(|b| **b == 0).count();
        out.push(0x80 | (bytes.len() - skip) as u8);
        out.extend_from_slice(&bytes[skip..]);
    }
    out.extend_from_slice(content);
    out
}

/// An IA5String (ASCII text).
pub(crate) fn ia5_string(s: &str) -> Vec<u8> {
    tlv(0x16, s.as_bytes())
}

/// A UTF8String, the form Puppet gives the values of its extensions.
pub(crate) fn utf8_string(s: &str) -> Vec<u8> {
    tlv(0x0c, s.as_bytes())
}

/// A SEQUENCE of already encoded elements.
pub(crate) fn sequence(elements: &[Vec<u8>]) -> Vec<u8> {
    tlv(0x30, &elements.concat())
}

/// An OBJECT IDENTIFIER from its arcs (the first two must be valid: 0..2 and
/// below 40 for the first two arcs 0 and 1).
pub(crate) fn oid(arcs: &[u64]) -> Vec<u8> {
    let mut content = Vec::new();
    if arcs.len() >= 2 {
        push_base128(&mut content, arcs[0] * 40 + arcs[1]);
        for arc in &arcs[2..] {
            push_base128(&mut content, *arc);
        }
    }
    tlv(0x06, &content)
}

fn push_base128(out: &mut Vec<u8>, mut value: u64) {
    let mut groups = vec![(value & 0x7f) as u8];
    value >>= 7;
    while value > 0 {
        groups.push(0x80 | (value & 0x7f) as u8);
        value >>= 7;
    }
    groups.reverse();
    out.extend_from_slice(&groups);
}

/// Reads a DER string (UTF8String, PrintableString, IA5String, T61String,
/// VisibleString) as text; `None` for anything else. Puppet shows extension
/// values as the text they hold.
pub(crate) fn read_string(der: &[u8]) -> Option<String> {
    let (&tag, rest) = der.split_first()?;
    if !matches!(tag, 0x0c | 0x13 | 0x16 | 0x14 | 0x1a) {
        return None;
    }
    let (&first, rest) = rest.split_first()?;
    let (len, body) = if first < 0x80 {
        (first as usize, rest)
    } else {
        let n = (first & 0x7f) as usize;
        if n == 0 || n > 4 || rest.len() < n {
            return None;
        }
        let len = rest[..n]
            .iter()
            .fold(0usize, |acc, b| (acc << 8) | *b as usize);
        (len, &rest[n..])
    };
    if body.len() != len {
        return None;
    }
    String::from_utf8(body.to_vec()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_oids_and_strings() {
        // serverAuth, 1.3.6.1.5.5.7.3.1, as every DER encoder writes it.
        assert_eq!(
            oid(&[1, 3, 6, 1, 5, 5, 7, 3, 1]),
            [0x06, 0x08, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x01]
        );
        // Puppet's arc has an arc above 127, encoded on three bytes.
        assert_eq!(
            oid(&[1, 3, 6, 1, 4, 1, 34380, 1, 1, 13]),
            [
                0x06, 0x0b, 0x2b, 0x06, 0x01, 0x04, 0x01, 0x82, 0x8c, 0x4c, 0x01, 0x01, 0x0d
            ]
        );
        assert_eq!(
            read_string(&utf8_string("webserver")).as_deref(),
            Some("webserver")
        );
        let long = "x".repeat(300);
        assert_eq!(read_string(&utf8_string(&long)), Some(long));
        assert_eq!(read_string(&[0x04, 0x01, 0x41]), None);
    }
}

//! Base64, the text form of Puppet's `Binary` values (RFC 4648, with
//! padding).

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

pub fn encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Decodes base64, ignoring line breaks; `None` for anything else invalid.
pub fn decode(text: &str) -> Option<Vec<u8>> {
    let symbols: Vec<u8> = text
        .bytes()
        .filter(|b| !matches!(b, b'\n' | b'\r'))
        .collect();
    let trimmed = symbols
        .iter()
        .rposition(|&b| b != b'=')
        .map_or(0, |i| i + 1);
    if symbols.len() - trimmed > 2 || (!symbols.len().is_multiple_of(4) && symbols.len() != trimmed)
    {
        return None;
    }
    let mut out = Vec::with_capacity(trimmed * 3 / 4);
    let mut buffer = 0u32;
    let mut bits = 0;
    for &symbol in &symbols[..trimmed] {
        let value = ALPHABET.iter().position(|&a| a == symbol)? as u32;
        buffer = (buffer << 6) | value;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((buffer >> bits) as u8);
            buffer &= (1 << bits) - 1;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn round_trips() {
        assert_eq!(super::encode(b"hello"), "aGVsbG8=");
        assert_eq!(super::encode(b"hi"), "aGk=");
        assert_eq!(super::decode("aGVsbG8=").unwrap(), b"hello");
        assert!(super::decode("a$==").is_none());
    }
}

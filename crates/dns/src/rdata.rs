//! Record types and record data.
//!
//! Record data has two forms: the presentation text users write in
//! manifests (`10 mail.example.com`) and the wire form. Parsing the text
//! validates it for its type, and printing gives one canonical text per
//! value, so two spellings of the same data (`Mail.Example.com.` and
//! `mail.example.com`, `2001:DB8::1` and `2001:db8::1`) compare equal as
//! text.

use std::fmt;
use std::net::{Ipv4Addr, Ipv6Addr};

use crate::name::{Name, read_name};

/// A record type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RType {
    A,
    Ns,
    Cname,
    Soa,
    Ptr,
    Mx,
    Txt,
    Aaaa,
    Srv,
    Tsig,
    Axfr,
    Any,
    Other(u16),
}

impl RType {
    /// The types whose data marionette can write.
    pub const MANAGED: [RType; 8] = [
        RType::A,
        RType::Aaaa,
        RType::Cname,
        RType::Mx,
        RType::Ns,
        RType::Ptr,
        RType::Srv,
        RType::Txt,
    ];

    pub fn code(self) -> u16 {
        match self {
            RType::A => 1,
            RType::Ns => 2,
            RType::Cname => 5,
            RType::Soa => 6,
            RType::Ptr => 12,
            RType::Mx => 15,
            RType::Txt => 16,
            RType::Aaaa => 28,
            RType::Srv => 33,
            RType::Tsig => 250,
            RType::Axfr => 252,
            RType::Any => 255,
            RType::Other(code) => code,
        }
    }

    pub fn from_code(code: u16) -> RType {
        match code {
            1 => RType::A,
            2 => RType::Ns,
            5 => RType::Cname,
            6 => RType::Soa,
            12 => RType::Ptr,
            15 => RType::Mx,
            16 => RType::Txt,
            28 => RType::Aaaa,
            33 => RType::Srv,
            250 => RType::Tsig,
            252 => RType::Axfr,
            255 => RType::Any,
            other => RType::Other(other),
        }
    }

    /// Parses a mnemonic (`A`, `mx`), case-insensitively.
    pub fn parse(text: &str) -> Option<RType> {
        let upper = text.to_ascii_uppercase();
        [
            RType::A,
            RType::Ns,
            RType::Cname,
            RType::Soa,
            RType::Ptr,
            RType::Mx,
            RType::Txt,
            RType::Aaaa,
            RType::Srv,
            RType::Any,
        ]
        .into_iter()
        .find(|t| t.to_string() == upper)
    }
}

impl fmt::Display for RType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self {
            RType::A => "A",
            RType::Ns => "NS",
            RType::Cname => "CNAME",
            RType::Soa => "SOA",
            RType::Ptr => "PTR",
            RType::Mx => "MX",
            RType::Txt => "TXT",
            RType::Aaaa => "AAAA",
            RType::Srv => "SRV",
            RType::Tsig => "TSIG",
            RType::Axfr => "AXFR",
            RType::Any => "ANY",
            RType::Other(code) => return write!(f, "TYPE{code}"),
        };
        f.write_str(text)
    }
}

/// The data of a record.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RData {
    A(Ipv4Addr),
    Aaaa(Ipv6Addr),
    Cname(Name),
    Ns(Name),
    Ptr(Name),
    Mx {
        preference: u16,
        exchange: Name,
    },
    Srv {
        priority: u16,
        weight: u16,
        port: u16,
        target: Name,
    },
    /// The character strings of a TXT record, each at most 255 bytes.
    Txt(Vec<Vec<u8>>),
    Soa {
        mname: Name,
        rname: Name,
        serial: u32,
        refresh: u32,
        retry: u32,
        expire: u32,
        minimum: u32,
    },
    /// Data of a type this client does not interpret, kept as bytes.
    Unknown(RType, Vec<u8>),
}

impl RData {
    /// Parses the presentation text of `rtype`'s data, validating it.
    pub fn parse(rtype: RType, text: &str) -> Result<RData, String> {
        let text = text.trim();
        let fields: Vec<&str> = text.split_whitespace().collect();
        let count = |n: usize, form: &str| {
            if fields.len() == n {
                Ok(())
            } else {
                Err(format!("a {rtype} record takes {form}, not '{text}'"))
            }
        };
        let name = |field: &str| Name::parse(field).map_err(|e| format!("{rtype} record: {e}"));
        let number = |field: &str, what: &str| {
            field.parse::<u16>().map_err(|_| {
                format!("{rtype} record: the {what} '{field}' is not a number from 0 to 65535")
            })
        };
        match rtype {
            RType::A => text
                .parse::<Ipv4Addr>()
                .map(RData::A)
                .map_err(|_| format!("an A record takes an IPv4 address, not '{text}'")),
            RType::Aaaa => text
                .parse::<Ipv6Addr>()
                .map(RData::Aaaa)
                .map_err(|_| format!("an AAAA record takes an IPv6 address, not '{text}'")),
            RType::Cname | RType::Ns | RType::Ptr => {
                count(1, "a host name")?;
                let host = name(fields[0])?;
                Ok(match rtype {
                    RType::Cname => RData::Cname(host),
                    RType::Ns => RData::Ns(host),
                    _ => RData::Ptr(host),
                })
            }
            RType::Mx => {
                count(2, "a preference and a host ('10 mail.example.com')")?;
                Ok(RData::Mx {
                    preference: number(fields[0], "preference")?,
                    exchange: name(fields[1])?,
                })
            }
            RType::Srv => {
                count(
                    4,
                    "a priority, a weight, a port and a target ('10 5 5060 sip.example.com')",
                )?;
                Ok(RData::Srv {
                    priority: number(fields[0], "priority")?,
                    weight: number(fields[1], "weight")?,
                    port: number(fields[2], "port")?,
                    target: name(fields[3])?,
                })
            }
            RType::Txt => parse_txt(text).map(RData::Txt),
            other => Err(format!("{other} records cannot be managed")),
        }
    }

    /// The record type of this data.
    pub fn rtype(&self) -> RType {
        match self {
            RData::A(_) => RType::A,
            RData::Aaaa(_) => RType::Aaaa,
            RData::Cname(_) => RType::Cname,
            RData::Ns(_) => RType::Ns,
            RData::Ptr(_) => RType::Ptr,
            RData::Mx { .. } => RType::Mx,
            RData::Srv { .. } => RType::Srv,
            RData::Txt(_) => RType::Txt,
            RData::Soa { .. } => RType::Soa,
            RData::Unknown(rtype, _) => *rtype,
        }
    }

    /// Appends the wire form (without the length prefix).
    pub fn write(&self, out: &mut Vec<u8>) {
        match self {
            RData::A(ip) => out.extend_from_slice(&ip.octets()),
            RData::Aaaa(ip) => out.extend_from_slice(&ip.octets()),
            RData::Cname(name) | RData::Ns(name) | RData::Ptr(name) => name.write(out),
            RData::Mx {
                preference,
                exchange,
            } => {
                out.extend_from_slice(&preference.to_be_bytes());
                exchange.write(out);
            }
            RData::Srv {
                priority,
                weight,
                port,
                target,
            } => {
                for n in [priority, weight, port] {
                    out.extend_from_slice(&n.to_be_bytes());
                }
                target.write(out);
            }
            RData::Txt(strings) => {
                for s in strings {
                    out.push(s.len() as u8);
                    out.extend_from_slice(s);
                }
            }
            RData::Soa {
                mname,
                rname,
                serial,
                refresh,
                retry,
                expire,
                minimum,
            } => {
                mname.write(out);
                rname.write(out);
                for n in [serial, refresh, retry, expire, minimum] {
                    out.extend_from_slice(&n.to_be_bytes());
                }
            }
            RData::Unknown(_, bytes) => out.extend_from_slice(bytes),
        }
    }

    /// Reads data of `rtype` from `message[start..start + len]`; names
    /// inside may point anywhere earlier in the message.
    pub(crate) fn read(
        rtype: RType,
        message: &[u8],
        start: usize,
        len: usize,
    ) -> Result<RData, String> {
        let end = start + len;
        let data = message
            .get(start..end)
            .ok_or("record data runs past the message")?;
        let u16_at = |pos: usize| -> Result<u16, String> {
            message
                .get(pos..pos + 2)
                .filter(|_| pos + 2 <= end)
                .map(|b| u16::from_be_bytes([b[0], b[1]]))
                .ok_or_else(|| format!("{rtype} record data is too short"))
        };
        let name_at = |pos: &mut usize| -> Result<Name, String> {
            let name = read_name(message, pos)?;
            if *pos > end {
                return Err(format!("{rtype} record data is too short"));
            }
            Ok(name)
        };
        let rdata = match rtype {
            RType::A => RData::A(Ipv4Addr::from(
                <[u8; 4]>::try_from(data).map_err(|_| "an A record is not 4 bytes")?,
            )),
            RType::Aaaa => RData::Aaaa(Ipv6Addr::from(
                <[u8; 16]>::try_from(data).map_err(|_| "an AAAA record is not 16 bytes")?,
            )),
            RType::Cname | RType::Ns | RType::Ptr => {
                let name = name_at(&mut start.clone())?;
                match rtype {
                    RType::Cname => RData::Cname(name),
                    RType::Ns => RData::Ns(name),
                    _ => RData::Ptr(name),
                }
            }
            RType::Mx => RData::Mx {
                preference: u16_at(start)?,
                exchange: name_at(&mut (start + 2))?,
            },
            RType::Srv => RData::Srv {
                priority: u16_at(start)?,
                weight: u16_at(start + 2)?,
                port: u16_at(start + 4)?,
                target: name_at(&mut (start + 6))?,
            },
            RType::Txt => {
                let mut strings = Vec::new();
                let mut pos = 0;
                while pos < data.len() {
                    let n = data[pos] as usize;
                    let s = data
                        .get(pos + 1..pos + 1 + n)
                        .ok_or("a TXT string runs past its record")?;
                    strings.push(s.to_vec());
                    pos += 1 + n;
                }
                RData::Txt(strings)
            }
            RType::Soa => {
                let mut pos = start;
                let mname = name_at(&mut pos)?;
                let rname = name_at(&mut pos)?;
                let numbers = message
                    .get(pos..pos + 20)
                    .filter(|_| pos + 20 <= end)
                    .ok_or("an SOA record is too short")?;
                let n = |i: usize| {
                    u32::from_be_bytes([
                        numbers[i * 4],
                        numbers[i * 4 + 1],
                        numbers[i * 4 + 2],
                        numbers[i * 4 + 3],
                    ])
                };
                RData::Soa {
                    mname,
                    rname,
                    serial: n(0),
                    refresh: n(1),
                    retry: n(2),
                    expire: n(3),
                    minimum: n(4),
                }
            }
            other => RData::Unknown(other, data.to_vec()),
        };
        Ok(rdata)
    }
}

/// TXT data: either one bare text (split into 255-byte strings when it is
/// longer) or a sequence of quoted strings with `\"`, `\\` and `\DDD`
/// escapes, as in zone files.
fn parse_txt(text: &str) -> Result<Vec<Vec<u8>>, String> {
    if !text.starts_with('"') {
        if text.is_empty() {
            return Ok(vec![Vec::new()]);
        }
        return Ok(text.as_bytes().chunks(255).map(<[u8]>::to_vec).collect());
    }
    let bytes = text.as_bytes();
    let mut strings = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if bytes[i] != b'"' {
            return Err(format!(
                "TXT record: expected a quoted string at '{}'",
                &text[i..]
            ));
        }
        i += 1;
        let mut current = Vec::new();
        loop {
            match bytes.get(i) {
                None => return Err(format!("TXT record: unterminated string in '{text}'")),
                Some(b'"') => {
                    i += 1;
                    break;
                }
                Some(b'\\') => {
                    let digits = bytes
                        .get(i + 1..i + 4)
                        .filter(|d| d.iter().all(u8::is_ascii_digit));
                    if let Some(digits) = digits {
                        let value: u32 = std::str::from_utf8(digits)
                            .unwrap_or("0")
                            .parse()
                            .unwrap_or(0);
                        if value > 255 {
                            return Err(format!("TXT record: bad escape in '{text}'"));
                        }
                        current.push(value as u8);
                        i += 4;
                    } else if let Some(&c) = bytes.get(i + 1) {
                        current.push(c);
                        i += 2;
                    } else {
                        return Err(format!("TXT record: unterminated string in '{text}'"));
                    }
                }
                Some(&c) => {
                    current.push(c);
                    i += 1;
                }
            }
        }
        if current.len() > 255 {
            return Err("TXT record: a quoted string is longer than 255 bytes".into());
        }
        strings.push(current);
    }
    Ok(strings)
}

/// Whether a TXT string can be printed bare: one printable string
/// without quotes or backslashes that does not start with a quote.
fn bare_txt(strings: &[Vec<u8>]) -> Option<&str> {
    match strings {
        [only]
            if !only.is_empty()
                && only
                    .iter()
                    .all(|&b| (0x20..0x7f).contains(&b) && b != b'"' && b != b'\\') =>
        {
            std::str::from_utf8(only).ok()
        }
        _ => None,
    }
}

impl RData {
    /// The zone-file text: as [`Display`](fmt::Display), but with names
    /// ending in a dot, so that tools with an origin (`nsupdate`) cannot
    /// read them as relative.
    pub fn zone_file_text(&self) -> String {
        struct Absolute<'a>(&'a RData);
        impl fmt::Display for Absolute<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.write_text(f, true)
            }
        }
        Absolute(self).to_string()
    }

    fn write_text(&self, f: &mut fmt::Formatter<'_>, absolute: bool) -> fmt::Result {
        let dot = if absolute { "." } else { "" };
        match self {
            RData::A(ip) => write!(f, "{ip}"),
            RData::Aaaa(ip) => write!(f, "{ip}"),
            RData::Cname(name) | RData::Ns(name) | RData::Ptr(name) => write!(f, "{name}{dot}"),
            RData::Mx {
                preference,
                exchange,
            } => write!(f, "{preference} {exchange}{dot}"),
            RData::Srv {
                priority,
                weight,
                port,
                target,
            } => write!(f, "{priority} {weight} {port} {target}{dot}"),
            RData::Txt(strings) => {
                // Zone files split bare text at blanks, so there every
                // string is quoted.
                if let Some(bare) = bare_txt(strings).filter(|_| !absolute) {
                    return f.write_str(bare);
                }
                let mut first = true;
                for s in strings {
                    if !first {
                        f.write_str(" ")?;
                    }
                    first = false;
                    f.write_str("\"")?;
                    for &b in s {
                        match b {
                            b'"' | b'\\' => write!(f, "\\{}", b as char)?,
                            0x20..=0x7e => write!(f, "{}", b as char)?,
                            _ => write!(f, "\\{b:03}")?,
                        }
                    }
                    f.write_str("\"")?;
                }
                Ok(())
            }
            RData::Soa {
                mname,
                rname,
                serial,
                refresh,
                retry,
                expire,
                minimum,
            } => write!(
                f,
                "{mname}{dot} {rname}{dot} {serial} {refresh} {retry} {expire} {minimum}"
            ),
            RData::Unknown(_, bytes) => {
                write!(f, "\\# {}", bytes.len())?;
                if !bytes.is_empty() {
                    f.write_str(" ")?;
                    for b in bytes {
                        write!(f, "{b:02x}")?;
                    }
                }
                Ok(())
            }
        }
    }
}

impl fmt::Display for RData {
    /// The canonical text: names without their final dot, as manifests
    /// write them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_text(f, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(rtype: RType, text: &str) -> String {
        let data = RData::parse(rtype, text).unwrap();
        let mut wire = Vec::new();
        data.write(&mut wire);
        let back = RData::read(rtype, &wire, 0, wire.len()).unwrap();
        assert_eq!(back, data, "{text}");
        back.to_string()
    }

    #[test]
    fn canonical_texts() {
        assert_eq!(round_trip(RType::A, "192.0.2.1"), "192.0.2.1");
        assert_eq!(round_trip(RType::Aaaa, "2001:DB8:0::1"), "2001:db8::1");
        assert_eq!(
            round_trip(RType::Ptr, "Melody.Angel.net."),
            "melody.angel.net"
        );
        assert_eq!(
            round_trip(RType::Mx, "10   mail.example.com"),
            "10 mail.example.com"
        );
        assert_eq!(
            round_trip(RType::Srv, "0 5 5060 sip.example.com"),
            "0 5 5060 sip.example.com"
        );
        assert_eq!(round_trip(RType::Txt, "v=spf1 -all"), "v=spf1 -all");
        assert_eq!(round_trip(RType::Txt, "\"v=spf1 -all\""), "v=spf1 -all");
        assert_eq!(
            round_trip(RType::Txt, "\"a\" \"b\\\"c\""),
            "\"a\" \"b\\\"c\""
        );
        assert_eq!(round_trip(RType::Txt, &"x".repeat(300)).len(), 300 + 5);
    }

    #[test]
    fn zone_file_text_ends_names_with_a_dot() {
        let mx = RData::parse(RType::Mx, "10 mail.example.com").unwrap();
        assert_eq!(mx.zone_file_text(), "10 mail.example.com.");
        assert_eq!(mx.to_string(), "10 mail.example.com");
        let a = RData::parse(RType::A, "192.0.2.1").unwrap();
        assert_eq!(a.zone_file_text(), "192.0.2.1");
        let txt = RData::parse(RType::Txt, "v=spf1 -all").unwrap();
        assert_eq!(txt.zone_file_text(), "\"v=spf1 -all\"");
        assert_eq!(txt.to_string(), "v=spf1 -all");
    }

    #[test]
    fn validates_per_type() {
        let err = |t, text| RData::parse(t, text).unwrap_err();
        assert_eq!(
            err(RType::A, "300.1.1.1"),
            "an A record takes an IPv4 address, not '300.1.1.1'"
        );
        assert!(err(RType::Aaaa, "192.0.2.1").contains("IPv6"));
        assert!(err(RType::Mx, "mail.example.com").contains("a preference and a host"));
        assert!(err(RType::Mx, "x mail.example.com").contains("preference 'x'"));
        assert!(err(RType::Cname, "a b").contains("a host name"));
        assert!(err(RType::Ptr, "bad!name").contains("not a valid DNS name"));
        assert!(err(RType::Txt, "\"open").contains("unterminated"));
        assert!(err(RType::Soa, "x").contains("cannot be managed"));
    }

    #[test]
    fn types_parse_by_mnemonic() {
        assert_eq!(RType::parse("aaaa"), Some(RType::Aaaa));
        assert_eq!(RType::from_code(RType::Srv.code()), RType::Srv);
        assert_eq!(RType::parse("BOGUS"), None);
        assert_eq!(RType::Other(99).to_string(), "TYPE99");
    }
}

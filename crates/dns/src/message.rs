//! DNS messages: the header, the four sections and response codes.
//!
//! An update (RFC 2136) reuses the sections under other names: the zone
//! is the question, prerequisites are the answers and updates the
//! authority records. [`Message`] keeps the generic names.

use std::fmt;

use crate::name::{Name, read_name};
use crate::rdata::{RData, RType};

/// The classes a client meets: records live in IN; updates use ANY and
/// NONE to express deletions and prerequisites.
pub const CLASS_IN: u16 = 1;
pub const CLASS_NONE: u16 = 254;
pub const CLASS_ANY: u16 = 255;

pub const OPCODE_QUERY: u8 = 0;
pub const OPCODE_UPDATE: u8 = 5;

/// A response code, extended ones included (TSIG errors are reported in
/// the TSIG record with the same numbering).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rcode {
    NoError,
    FormErr,
    ServFail,
    NxDomain,
    NotImp,
    Refused,
    YxDomain,
    YxRrset,
    NxRrset,
    NotAuth,
    NotZone,
    BadSig,
    BadKey,
    BadTime,
    BadTrunc,
    Other(u16),
}

impl Rcode {
    pub fn from_code(code: u16) -> Rcode {
        match code {
            0 => Rcode::NoError,
            1 => Rcode::FormErr,
            2 => Rcode::ServFail,
            3 => Rcode::NxDomain,
            4 => Rcode::NotImp,
            5 => Rcode::Refused,
            6 => Rcode::YxDomain,
            7 => Rcode::YxRrset,
            8 => Rcode::NxRrset,
            9 => Rcode::NotAuth,
            10 => Rcode::NotZone,
            16 => Rcode::BadSig,
            17 => Rcode::BadKey,
            18 => Rcode::BadTime,
            22 => Rcode::BadTrunc,
            other => Rcode::Other(other),
        }
    }
}

impl fmt::Display for Rcode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self {
            Rcode::NoError => "NOERROR",
            Rcode::FormErr => "FORMERR",
            Rcode::ServFail => "SERVFAIL",
            Rcode::NxDomain => "NXDOMAIN",
            Rcode::NotImp => "NOTIMP",
            Rcode::Refused => "REFUSED",
            Rcode::YxDomain => "YXDOMAIN",
            Rcode::YxRrset => "YXRRSET",
            Rcode::NxRrset => "NXRRSET",
            Rcode::NotAuth => "NOTAUTH",
            Rcode::NotZone => "NOTZONE",
            Rcode::BadSig => "BADSIG",
            Rcode::BadKey => "BADKEY",
            Rcode::BadTime => "BADTIME",
            Rcode::BadTrunc => "BADTRUNC",
            Rcode::Other(code) => return write!(f, "RCODE{code}"),
        };
        f.write_str(text)
    }
}

/// A resource record. `rdata` is `None` for the data-less records of
/// updates and prerequisites (class ANY or NONE with an empty RDATA).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub name: Name,
    pub rtype: RType,
    pub class: u16,
    pub ttl: u32,
    pub rdata: Option<RData>,
}

impl Record {
    /// A record of class IN with data.
    pub fn new(name: Name, ttl: u32, rdata: RData) -> Record {
        Record {
            name,
            rtype: rdata.rtype(),
            class: CLASS_IN,
            ttl,
            rdata: Some(rdata),
        }
    }

    pub(crate) fn write(&self, out: &mut Vec<u8>) {
        self.name.write(out);
        out.extend_from_slice(&self.rtype.code().to_be_bytes());
        out.extend_from_slice(&self.class.to_be_bytes());
        out.extend_from_slice(&self.ttl.to_be_bytes());
        let len_at = out.len();
        out.extend_from_slice(&[0, 0]);
        if let Some(rdata) = &self.rdata {
            rdata.write(out);
        }
        let len = (out.len() - len_at - 2) as u16;
        out[len_at..len_at + 2].copy_from_slice(&len.to_be_bytes());
    }
}

/// A question (or an update's zone).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Question {
    pub name: Name,
    pub rtype: RType,
    pub class: u16,
}

/// A whole message.
#[derive(Clone, Debug, Default)]
pub struct Message {
    pub id: u16,
    pub response: bool,
    pub opcode: u8,
    pub authoritative: bool,
    pub truncated: bool,
    pub recursion_desired: bool,
    /// The four-bit header response code; TSIG errors come separately.
    pub rcode: u16,
    pub questions: Vec<Question>,
    pub answers: Vec<Record>,
    pub authority: Vec<Record>,
    pub additional: Vec<Record>,
    /// Where each additional record starts in the bytes the message was
    /// read from: TSIG verification needs the message without its last
    /// record.
    pub(crate) additional_offsets: Vec<usize>,
}

impl Message {
    pub fn query(id: u16, name: Name, rtype: RType) -> Message {
        Message {
            id,
            opcode: OPCODE_QUERY,
            questions: vec![Question {
                name,
                rtype,
                class: CLASS_IN,
            }],
            ..Message::default()
        }
    }

    pub fn rcode(&self) -> Rcode {
        Rcode::from_code(self.rcode)
    }

    /// The wire form.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(512);
        out.extend_from_slice(&self.id.to_be_bytes());
        let mut flags: u16 = 0;
        if self.response {
            flags |= 0x8000;
        }
        flags |= u16::from(self.opcode & 0x0f) << 11;
        if self.authoritative {
            flags |= 0x0400;
        }
        if self.truncated {
            flags |= 0x0200;
        }
        if self.recursion_desired {
            flags |= 0x0100;
        }
        flags |= self.rcode & 0x000f;
        out.extend_from_slice(&flags.to_be_bytes());
        for count in [
            self.questions.len(),
            self.answers.len(),
            self.authority.len(),
            self.additional.len(),
        ] {
            out.extend_from_slice(&(count as u16).to_be_bytes());
        }
        for q in &self.questions {
            q.name.write(&mut out);
            out.extend_from_slice(&q.rtype.code().to_be_bytes());
            out.extend_from_slice(&q.class.to_be_bytes());
        }
        for record in self
            .answers
            .iter()
            .chain(&self.authority)
            .chain(&self.additional)
        {
            record.write(&mut out);
        }
        out
    }

    /// Reads a message, refusing anything malformed.
    pub fn from_bytes(bytes: &[u8]) -> Result<Message, String> {
        if bytes.len() < 12 {
            return Err("message shorter than its header".into());
        }
        let u16_at = |pos: usize| -> Result<u16, String> {
            bytes
                .get(pos..pos + 2)
                .map(|b| u16::from_be_bytes([b[0], b[1]]))
                .ok_or_else(|| "message is truncated".to_string())
        };
        let flags = u16_at(2)?;
        let mut message = Message {
            id: u16_at(0)?,
            response: flags & 0x8000 != 0,
            opcode: ((flags >> 11) & 0x0f) as u8,
            authoritative: flags & 0x0400 != 0,
            truncated: flags & 0x0200 != 0,
            recursion_desired: flags & 0x0100 != 0,
            rcode: flags & 0x000f,
            ..Message::default()
        };
        let counts = [u16_at(4)?, u16_at(6)?, u16_at(8)?, u16_at(10)?];
        let mut pos = 12;
        for _ in 0..counts[0] {
            let name = read_name(bytes, &mut pos)?;
            message.questions.push(Question {
                name,
                rtype: RType::from_code(u16_at(pos)?),
                class: u16_at(pos + 2)?,
            });
            pos += 4;
        }
        for (section, &count) in counts[1..].iter().enumerate() {
            for _ in 0..count {
                let start = pos;
                let name = read_name(bytes, &mut pos)?;
                let rtype = RType::from_code(u16_at(pos)?);
                let class = u16_at(pos + 2)?;
                let ttl_bytes = bytes.get(pos + 4..pos + 8).ok_or("message is truncated")?;
                let ttl =
                    u32::from_be_bytes([ttl_bytes[0], ttl_bytes[1], ttl_bytes[2], ttl_bytes[3]]);
                let len = u16_at(pos + 8)? as usize;
                pos += 10;
                if pos + len > bytes.len() {
                    return Err("record data runs past the message".into());
                }
                let rdata = if len == 0 && class != CLASS_IN {
                    None
                } else {
                    Some(RData::read(rtype, bytes, pos, len)?)
                };
                pos += len;
                let record = Record {
                    name,
                    rtype,
                    class,
                    ttl,
                    rdata,
                };
                match section {
                    0 => message.answers.push(record),
                    1 => message.authority.push(record),
                    _ => {
                        message.additional_offsets.push(start);
                        message.additional.push(record);
                    }
                }
            }
        }
        Ok(message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        let mut message = Message::query(0x1234, Name::parse("www.example.com").unwrap(), RType::A);
        message.answers.push(Record::new(
            Name::parse("www.example.com").unwrap(),
            300,
            RData::parse(RType::Mx, "10 mail.example.com").unwrap(),
        ));
        message.authority.push(Record {
            name: Name::parse("old.example.com").unwrap(),
            rtype: RType::A,
            class: CLASS_ANY,
            ttl: 0,
            rdata: None,
        });
        let bytes = message.to_bytes();
        let back = Message::from_bytes(&bytes).unwrap();
        assert_eq!(back.id, 0x1234);
        assert_eq!(back.questions, message.questions);
        assert_eq!(back.answers, message.answers);
        assert_eq!(back.authority, message.authority);
        assert_eq!(back.to_bytes(), bytes);
    }

    #[test]
    fn refuses_truncated_messages() {
        let bytes = Message::query(1, Name::parse("a.b").unwrap(), RType::A).to_bytes();
        for cut in 0..bytes.len() {
            assert!(Message::from_bytes(&bytes[..cut]).is_err(), "cut at {cut}");
        }
    }
}

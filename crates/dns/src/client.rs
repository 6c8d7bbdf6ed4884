//! Talking to one authoritative server: queries, updates, transfers.
//!
//! Every exchange has a deadline, so a server that does not answer fails
//! the resource that needed it instead of hanging the run. Queries go
//! over UDP and retry once; a truncated answer is asked again over TCP.
//! Updates go over UDP when they fit in 512 bytes and over TCP otherwise;
//! transfers always use TCP.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream, UdpSocket};
use std::time::{Duration, Instant};

use crate::message::{
    CLASS_ANY, CLASS_IN, CLASS_NONE, Message, OPCODE_UPDATE, Question, Rcode, Record,
};
use crate::name::Name;
use crate::rdata::{RData, RType};
use crate::tsig::{Key, TsigFailure, Verifier, sign};

/// What went wrong talking to a server.
#[derive(Debug, thiserror::Error)]
pub enum DnsError {
    #[error("nameserver {server} did not answer within {seconds} seconds")]
    Timeout { server: SocketAddr, seconds: f64 },
    #[error("cannot reach nameserver {server}: {source}")]
    Io {
        server: SocketAddr,
        source: std::io::Error,
    },
    #[error("TSIG authentication failed for key {key} (check name, algorithm, secret)")]
    Tsig { key: String, failure: TsigFailure },
    #[error(
        "TSIG time check failed for key {key}: the clocks of this machine and nameserver {server} differ by more than {fudge} seconds"
    )]
    TsigTime {
        key: String,
        server: SocketAddr,
        fudge: u16,
    },
    #[error("nameserver {server} sent a malformed answer: {detail}")]
    Malformed { server: SocketAddr, detail: String },
    #[error("nameserver {server} answered {rcode} to {what}")]
    Rcode {
        server: SocketAddr,
        what: String,
        rcode: Rcode,
    },
    #[error("{name} is not in a zone that nameserver {server} serves")]
    NoZone { name: Name, server: SocketAddr },
    #[error(
        "nameserver {server} refused the update of zone {zone}: the key may not be allowed to update it, or the server's checks rejected the data (see its log)"
    )]
    UpdateRefused { server: SocketAddr, zone: Name },
    #[error("nameserver {server} is not authoritative for zone {zone}")]
    NotAuthoritative { server: SocketAddr, zone: Name },
    #[error("a name of the update is outside zone {zone}")]
    NotZone { zone: Name },
    #[error(
        "the records of {what} changed on nameserver {server} since they were read ({rcode}); nothing was changed"
    )]
    Changed {
        server: SocketAddr,
        what: String,
        rcode: Rcode,
    },
}

/// A client for one server, with an optional TSIG key.
#[derive(Clone, Debug)]
pub struct Client {
    server: SocketAddr,
    key: Option<Key>,
    timeout: Duration,
}

/// The largest UDP message sent or expected without EDNS.
const UDP_LIMIT: usize = 512;

impl Client {
    pub fn new(server: SocketAddr) -> Client {
        Client {
            server,
            key: None,
            timeout: Duration::from_secs(5),
        }
    }

    pub fn with_key(mut self, key: Option<Key>) -> Client {
        self.key = key;
        self
    }

    /// The time one exchange may take (an attempt and its retry together).
    pub fn with_timeout(mut self, timeout: Duration) -> Client {
        self.timeout = timeout;
        self
    }

    pub fn server(&self) -> SocketAddr {
        self.server
    }

    /// Asks for `name`/`rtype` without recursion and returns the answer,
    /// whatever its response code.
    pub fn query(&self, name: &Name, rtype: RType) -> Result<Message, DnsError> {
        let request = Message::query(random_id(), name.clone(), rtype);
        let answer = self.exchange_udp(&request)?;
        if answer.truncated {
            return self.exchange_tcp(&request);
        }
        Ok(answer)
    }

    /// The record set of `name`/`rtype`: its TTL and data, or `None` when
    /// the name or the type has no records.
    pub fn rrset(&self, name: &Name, rtype: RType) -> Result<Option<(u32, Vec<RData>)>, DnsError> {
        let answer = self.query(name, rtype)?;
        match answer.rcode() {
            Rcode::NoError | Rcode::NxDomain => {}
            rcode => {
                return Err(DnsError::Rcode {
                    server: self.server,
                    what: format!("the query for {name}/{rtype}"),
                    rcode,
                });
            }
        }
        let records: Vec<&Record> = answer
            .answers
            .iter()
            .filter(|r| &r.name == name && r.rtype == rtype)
            .collect();
        if records.is_empty() {
            return Ok(None);
        }
        let ttl = records.iter().map(|r| r.ttl).min().unwrap_or(0);
        let mut values: Vec<RData> = records.iter().filter_map(|r| r.rdata.clone()).collect();
        values.sort();
        values.dedup();
        Ok(Some((ttl, values)))
    }

    /// The zone `name` belongs to at this server: the owner of the SOA
    /// record that answers, or that comes with a negative answer.
    pub fn find_zone(&self, name: &Name) -> Result<Name, DnsError> {
        let answer = self.query(name, RType::Soa)?;
        // A referral for the name itself: the name is a delegation point,
        // whose NS records and glue belong to the parent zone.
        let cut = !answer.authoritative
            && answer
                .authority
                .iter()
                .any(|r| r.rtype == RType::Ns && r.name == *name);
        if cut && let Some(parent) = name.parent() {
            return self.find_zone(&parent);
        }
        if !matches!(answer.rcode(), Rcode::NoError | Rcode::NxDomain) || !answer.authoritative {
            return Err(DnsError::NoZone {
                name: name.clone(),
                server: self.server,
            });
        }
        answer
            .answers
            .iter()
            .chain(&answer.authority)
            .find(|r| r.rtype == RType::Soa && name.is_within(&r.name))
            .map(|r| r.name.clone())
            .ok_or_else(|| DnsError::NoZone {
                name: name.clone(),
                server: self.server,
            })
    }

    /// Every record of `zone`, by a (signed) AXFR; the SOA that opens and
    /// closes the transfer is returned once, first.
    pub fn axfr(&self, zone: &Name) -> Result<Vec<Record>, DnsError> {
        let request = Message::query(random_id(), zone.clone(), RType::Axfr);
        let deadline = Instant::now() + self.timeout;
        let mut stream = self.connect_tcp(deadline)?;
        let (bytes, mac) = self.prepare(&request);
        self.send_tcp(&mut stream, &bytes, deadline)?;
        let mut verifier = self.key.as_ref().map(|k| Verifier::new(k, mac));
        let mut records = Vec::new();
        let mut soas = 0;
        while soas < 2 {
            let raw = self.receive_tcp(&mut stream, deadline)?;
            let message = self.parse(&raw)?;
            if message.id != request.id {
                return Err(self.malformed("the transfer answer has another ID"));
            }
            let done = soas
                + message
                    .answers
                    .iter()
                    .filter(|r| r.rtype == RType::Soa)
                    .count()
                >= 2;
            if let Some(verifier) = verifier.as_mut() {
                verifier
                    .verify(&message, &raw, done || message.rcode() != Rcode::NoError)
                    .map_err(|failure| self.tsig_error(failure))?;
            }
            if message.rcode() != Rcode::NoError {
                return Err(DnsError::Rcode {
                    server: self.server,
                    what: format!("the transfer of zone {zone}"),
                    rcode: message.rcode(),
                });
            }
            if message.answers.is_empty() {
                return Err(self.malformed("an empty transfer message"));
            }
            for record in message.answers {
                if record.rtype == RType::Soa {
                    soas += 1;
                    if soas == 2 {
                        break;
                    }
                } else if soas == 0 {
                    return Err(self.malformed("the transfer does not start with the SOA"));
                }
                records.push(record);
            }
        }
        Ok(records)
    }

    /// Sends an update and checks that the server applied it.
    pub fn update(&self, update: &UpdateBuilder) -> Result<(), DnsError> {
        let message = update.message();
        let (bytes, _) = self.prepare(&message);
        let answer = if bytes.len() > UDP_LIMIT {
            self.exchange_tcp(&message)?
        } else {
            let answer = self.exchange_udp(&message)?;
            if answer.truncated {
                self.exchange_tcp(&message)?
            } else {
                answer
            }
        };
        let zone = update.zone.clone();
        match answer.rcode() {
            Rcode::NoError => Ok(()),
            Rcode::Refused => Err(DnsError::UpdateRefused {
                server: self.server,
                zone,
            }),
            Rcode::NotAuth => Err(DnsError::NotAuthoritative {
                server: self.server,
                zone,
            }),
            Rcode::NotZone => Err(DnsError::NotZone { zone }),
            rcode @ (Rcode::YxDomain | Rcode::YxRrset | Rcode::NxDomain | Rcode::NxRrset) => {
                Err(DnsError::Changed {
                    server: self.server,
                    what: update.subject(),
                    rcode,
                })
            }
            rcode => Err(DnsError::Rcode {
                server: self.server,
                what: format!("the update of zone {zone}"),
                rcode,
            }),
        }
    }

    /// The bytes to send, signed when there is a key, and the request MAC.
    fn prepare(&self, message: &Message) -> (Vec<u8>, Vec<u8>) {
        match &self.key {
            Some(key) => sign(key, message),
            None => (message.to_bytes(), Vec::new()),
        }
    }

    fn parse(&self, raw: &[u8]) -> Result<Message, DnsError> {
        Message::from_bytes(raw).map_err(|detail| self.malformed(&detail))
    }

    fn malformed(&self, detail: &str) -> DnsError {
        DnsError::Malformed {
            server: self.server,
            detail: detail.to_string(),
        }
    }

    fn tsig_error(&self, failure: TsigFailure) -> DnsError {
        let key = self
            .key
            .as_ref()
            .map(|k| k.name.to_string())
            .unwrap_or_default();
        match failure {
            TsigFailure::Rejected(Rcode::BadTime) | TsigFailure::BadTime => DnsError::TsigTime {
                key,
                server: self.server,
                fudge: crate::tsig::FUDGE,
            },
            failure => DnsError::Tsig { key, failure },
        }
    }

    fn timeout_error(&self) -> DnsError {
        DnsError::Timeout {
            server: self.server,
            seconds: self.timeout.as_secs_f64(),
        }
    }

    fn io_error(&self, source: std::io::Error) -> DnsError {
        if matches!(
            source.kind(),
            std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
        ) {
            self.timeout_error()
        } else {
            DnsError::Io {
                server: self.server,
                source,
            }
        }
    }

    /// Checks that `answer` answers `request` and verifies its signature.
    fn accept(
        &self,
        request: &Message,
        mac: Vec<u8>,
        raw: &[u8],
    ) -> Result<Option<Message>, DnsError> {
        let answer = self.parse(raw)?;
        if answer.id != request.id || !answer.response || answer.questions != request.questions {
            // A late answer to an earlier attempt, or noise: keep waiting.
            return Ok(None);
        }
        if let Some(key) = &self.key {
            Verifier::new(key, mac)
                .verify(&answer, raw, true)
                .map_err(|failure| self.tsig_error(failure))?;
        }
        Ok(Some(answer))
    }

    fn exchange_udp(&self, request: &Message) -> Result<Message, DnsError> {
        let bind: SocketAddr = if self.server.is_ipv4() {
            "0.0.0.0:0".parse().expect("a literal address")
        } else {
            "[::]:0".parse().expect("a literal address")
        };
        let socket = UdpSocket::bind(bind).map_err(|e| self.io_error(e))?;
        socket.connect(self.server).map_err(|e| self.io_error(e))?;
        let (bytes, mac) = self.prepare(request);
        let deadline = Instant::now() + self.timeout;
        // Two attempts share the deadline: a lost datagram is retried once.
        let attempt_end = Instant::now() + self.timeout / 2;
        let mut buffer = vec![0u8; 65535];
        let mut retried = false;
        socket.send(&bytes).map_err(|e| self.io_error(e))?;
        loop {
            let now = Instant::now();
            let end = if retried { deadline } else { attempt_end };
            if now >= end {
                if retried {
                    return Err(self.timeout_error());
                }
                retried = true;
                socket.send(&bytes).map_err(|e| self.io_error(e))?;
                continue;
            }
            socket
                .set_read_timeout(Some(end - now))
                .map_err(|e| self.io_error(e))?;
            match socket.recv(&mut buffer) {
                Ok(n) => {
                    if let Some(answer) = self.accept(request, mac.clone(), &buffer[..n])? {
                        return Ok(answer);
                    }
                }
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) => {}
                Err(e) => return Err(self.io_error(e)),
            }
        }
    }

    fn exchange_tcp(&self, request: &Message) -> Result<Message, DnsError> {
        let deadline = Instant::now() + self.timeout;
        let mut stream = self.connect_tcp(deadline)?;
        let (bytes, mac) = self.prepare(request);
        self.send_tcp(&mut stream, &bytes, deadline)?;
        loop {
            let raw = self.receive_tcp(&mut stream, deadline)?;
            if let Some(answer) = self.accept(request, mac.clone(), &raw)? {
                return Ok(answer);
            }
        }
    }

    fn connect_tcp(&self, deadline: Instant) -> Result<TcpStream, DnsError> {
        let left = deadline.saturating_duration_since(Instant::now());
        TcpStream::connect_timeout(&self.server, left.max(Duration::from_millis(1)))
            .map_err(|e| self.io_error(e))
    }

    fn send_tcp(
        &self,
        stream: &mut TcpStream,
        bytes: &[u8],
        deadline: Instant,
    ) -> Result<(), DnsError> {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(self.timeout_error());
        }
        stream
            .set_write_timeout(Some(left))
            .map_err(|e| self.io_error(e))?;
        let mut framed = (bytes.len() as u16).to_be_bytes().to_vec();
        framed.extend_from_slice(bytes);
        stream.write_all(&framed).map_err(|e| self.io_error(e))
    }

    fn receive_tcp(&self, stream: &mut TcpStream, deadline: Instant) -> Result<Vec<u8>, DnsError> {
        let mut read = |buffer: &mut [u8]| -> Result<(), DnsError> {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(self.timeout_error());
            }
            stream
                .set_read_timeout(Some(left))
                .map_err(|e| self.io_error(e))?;
            stream.read_exact(buffer).map_err(|e| self.io_error(e))
        };
        let mut len = [0u8; 2];
        read(&mut len)?;
        let mut message = vec![0u8; u16::from_be_bytes(len) as usize];
        read(&mut message)?;
        Ok(message)
    }
}

fn random_id() -> u16 {
    // A random ID makes spoofed answers harder to land; the clock is a
    // last resort should the system's random source fail.
    getrandom::u32().map(|n| n as u16).unwrap_or_else(|_| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos() as u16)
            .unwrap_or(0)
    })
}

/// An RFC 2136 update of one zone: prerequisites, then changes.
#[derive(Clone, Debug)]
pub struct UpdateBuilder {
    zone: Name,
    prerequisites: Vec<Record>,
    updates: Vec<Record>,
}

impl UpdateBuilder {
    pub fn new(zone: Name) -> UpdateBuilder {
        UpdateBuilder {
            zone,
            prerequisites: Vec::new(),
            updates: Vec::new(),
        }
    }

    pub fn zone(&self) -> &Name {
        &self.zone
    }

    pub fn is_empty(&self) -> bool {
        self.updates.is_empty()
    }

    /// The prerequisites, in RFC 2136's encoding: class NONE without data
    /// for "no such record set", class IN with data for "exactly these".
    pub fn prerequisites(&self) -> &[Record] {
        &self.prerequisites
    }

    /// The changes: class IN adds, class NONE deletes one record, class
    /// ANY without data deletes a record set.
    pub fn updates(&self) -> &[Record] {
        &self.updates
    }

    /// The update applies only if `name` has no `rtype` records.
    pub fn require_absent(&mut self, name: &Name, rtype: RType) -> &mut Self {
        self.prerequisites.push(Record {
            name: name.clone(),
            rtype,
            class: CLASS_NONE,
            ttl: 0,
            rdata: None,
        });
        self
    }

    /// The update applies only if the `rtype` records of `name` are
    /// exactly `values`: a change made by someone else since they were
    /// read makes the server refuse it rather than overwrite that change.
    pub fn require_exactly(&mut self, name: &Name, values: &[RData]) -> &mut Self {
        for value in values {
            self.prerequisites.push(Record {
                name: name.clone(),
                rtype: value.rtype(),
                class: CLASS_IN,
                ttl: 0,
                rdata: Some(value.clone()),
            });
        }
        self
    }

    /// Adds a record.
    pub fn add(&mut self, name: &Name, ttl: u32, value: &RData) -> &mut Self {
        self.updates
            .push(Record::new(name.clone(), ttl, value.clone()));
        self
    }

    /// Deletes one record.
    pub fn delete(&mut self, name: &Name, value: &RData) -> &mut Self {
        self.updates.push(Record {
            name: name.clone(),
            rtype: value.rtype(),
            class: CLASS_NONE,
            ttl: 0,
            rdata: Some(value.clone()),
        });
        self
    }

    /// Deletes every `rtype` record of `name`.
    pub fn delete_rrset(&mut self, name: &Name, rtype: RType) -> &mut Self {
        self.updates.push(Record {
            name: name.clone(),
            rtype,
            class: CLASS_ANY,
            ttl: 0,
            rdata: None,
        });
        self
    }

    /// Adds another update of the same zone: its prerequisites and changes
    /// after this one's, so that the server applies both or neither. Many
    /// record sets of one zone can so change in one message. Fails,
    /// changing nothing, when the zones differ.
    pub fn append(&mut self, other: &UpdateBuilder) -> Result<&mut Self, String> {
        if other.zone != self.zone {
            return Err(format!(
                "cannot join an update of zone {} to one of zone {}",
                other.zone, self.zone
            ));
        }
        self.prerequisites
            .extend(other.prerequisites.iter().cloned());
        self.updates.extend(other.updates.iter().cloned());
        Ok(self)
    }

    /// What the update is about, for messages: its record sets.
    pub fn subject(&self) -> String {
        let mut sets: Vec<String> = self
            .updates
            .iter()
            .map(|r| format!("{}/{}", r.name, r.rtype))
            .collect();
        sets.dedup();
        sets.join(", ")
    }

    fn message(&self) -> Message {
        Message {
            id: random_id(),
            opcode: OPCODE_UPDATE,
            questions: vec![Question {
                name: self.zone.clone(),
                rtype: RType::Soa,
                class: CLASS_IN,
            }],
            answers: self.prerequisites.clone(),
            authority: self.updates.clone(),
            ..Message::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_silent_server_times_out() {
        // A bound socket that never answers.
        let silent = UdpSocket::bind("127.0.0.1:0").unwrap();
        let client =
            Client::new(silent.local_addr().unwrap()).with_timeout(Duration::from_millis(200));
        let started = Instant::now();
        let err = client
            .query(&Name::parse("example.com").unwrap(), RType::A)
            .unwrap_err();
        assert!(matches!(err, DnsError::Timeout { .. }), "{err}");
        assert!(started.elapsed() < Duration::from_secs(2));
        assert!(
            err.to_string()
                .contains("did not answer within 0.2 seconds"),
            "{err}"
        );
    }

    #[test]
    fn update_messages_have_the_rfc_2136_sections() {
        let zone = Name::parse("example.com").unwrap();
        let www = Name::parse("www.example.com").unwrap();
        let a = RData::parse(RType::A, "192.0.2.1").unwrap();
        let mut update = UpdateBuilder::new(zone.clone());
        update.require_absent(&www, RType::A).add(&www, 300, &a);
        let message = update.message();
        assert_eq!(message.opcode, OPCODE_UPDATE);
        assert_eq!(message.questions[0].name, zone);
        assert_eq!(message.answers[0].class, CLASS_NONE);
        assert_eq!(message.authority[0].ttl, 300);
        let back = Message::from_bytes(&message.to_bytes()).unwrap();
        assert_eq!(back.answers, message.answers);
        assert_eq!(back.authority, message.authority);
        assert_eq!(update.subject(), "www.example.com/A");
    }

    #[test]
    fn updates_of_one_zone_join_in_order() {
        let zone = Name::parse("example.com").unwrap();
        let www = Name::parse("www.example.com").unwrap();
        let mail = Name::parse("mail.example.com").unwrap();
        let a = RData::parse(RType::A, "192.0.2.1").unwrap();
        let mut first = UpdateBuilder::new(zone.clone());
        first.require_absent(&www, RType::A).add(&www, 300, &a);
        let mut second = UpdateBuilder::new(zone.clone());
        second
            .require_exactly(&mail, std::slice::from_ref(&a))
            .delete_rrset(&mail, RType::A);
        first.append(&second).unwrap();
        assert_eq!(first.prerequisites().len(), 2);
        assert_eq!(first.prerequisites()[1].name, mail);
        assert_eq!(first.updates().len(), 2);
        assert_eq!(first.subject(), "www.example.com/A, mail.example.com/A");

        let other = UpdateBuilder::new(Name::parse("example.org").unwrap());
        assert!(first.append(&other).is_err());
        assert_eq!(first.updates().len(), 2);
    }
}

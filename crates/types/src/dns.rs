//! What the DNS types share: the connection attributes, reaching the
//! server a resource names with its TSIG key, and a per-run view of zones.
//!
//! Current records are read from the authoritative server itself, never
//! through the system resolver, whose caches would report stale data.
//! Zones are read by one transfer each per run, so managing hundreds of
//! records in a zone costs one round trip to learn their state; when the
//! server refuses transfers, each record set is queried instead.

use std::collections::HashMap;
use std::net::{SocketAddr, ToSocketAddrs};
use std::path::Path;
use std::time::Duration;

use marionette_dns::{Client, DnsError, Key, Name, RData, RType};
use marionette_ral::AttrDef;
use marionette_ral::attribute::value_text;
use marionette_values::Value;

use crate::types::host::check_server;

/// The parameters every DNS type takes to reach its server: `nameserver`,
/// `port`, the TSIG key (a `keyfile`, or `keyname`/`secret`/`algorithm`)
/// and `timeout`.
pub(crate) fn connection_attributes() -> Vec<AttrDef> {
    vec![
        AttrDef::param("nameserver")
            .doc(
                "The server to read and update records at: an IP address or a host name. Records
                are read from this server directly, never through the system resolver.",
            )
            .default_value(Value::String("127.0.0.1".into()))
            .validate(|_, value| check_server("nameserver", &value_text(value))),
        port_param("port", "The server's DNS port.", 53),
        AttrDef::param("keyfile")
            .doc(
                "A TSIG key file in BIND's format (as `tsig-keygen` writes it) to sign
                requests with. Give either this or `keyname` and `secret`.",
            )
            .validate(|_, value| absolute(value)),
        AttrDef::param("keyname")
            .doc("The name of the TSIG key, with `secret` and `algorithm`.")
            .validate(|_, value| {
                Name::parse(&value_text(value))
                    .map(|_| ())
                    .map_err(|e| format!("Invalid keyname: {e}"))
            }),
        AttrDef::param("secret")
            .doc("The TSIG key's secret, base64 encoded. Never logged.")
            .sensitive()
            .validate(|_, value| {
                let text = value_text(unwrap_sensitive(value));
                match marionette_dns::tsig::base64_decode(text.trim()) {
                    Some(bytes) if !bytes.is_empty() => Ok(()),
                    _ => Err("The secret must be base64 text, as in a BIND key file".into()),
                }
            }),
        AttrDef::param("algorithm")
            .doc("The TSIG algorithm of `keyname`'s key.")
            .values(&[
                "hmac-md5",
                "hmac-sha1",
                "hmac-sha224",
                "hmac-sha256",
                "hmac-sha384",
                "hmac-sha512",
            ])
            .default_value(Value::String("hmac-sha256".into())),
        AttrDef::param("timeout")
            .doc("Seconds to wait for the server to answer a request before failing the resource.")
            .default_value(Value::Integer(5))
            .validate(|_, value| match seconds(value) {
                Some(_) => Ok(()),
                None => Err(format!(
                    "Invalid timeout '{}': expected a positive number of seconds",
                    value_text(value)
                )),
            })
            .munge(|_, value| {
                Ok(seconds(&value)
                    .map(|s| Value::Integer(s as i64))
                    .unwrap_or(value))
            }),
    ]
}

/// A parameter holding a port number, given as a number or as text.
pub(crate) fn port_param(name: &str, doc: &str, default: i64) -> AttrDef {
    AttrDef::param(name)
        .doc(doc)
        .default_value(Value::Integer(default))
        .validate(|hooked, value| match integer(value) {
            Some(1..=65535) => Ok(()),
            _ => Err(format!(
                "Invalid {} '{}': expected a number from 1 to 65535",
                hooked.attr.name,
                value_text(value)
            )),
        })
        .munge(|_, value| Ok(integer(&value).map(Value::Integer).unwrap_or(value)))
}

/// Cross-attribute checks of the key parameters.
pub(crate) fn validate_key(get: &dyn Fn(&str) -> Option<Value>) -> Result<(), String> {
    let keyfile = get("keyfile").is_some();
    let keyname = get("keyname").is_some();
    let secret = get("secret").is_some();
    if keyfile && (keyname || secret) {
        return Err("Give either keyfile or keyname and secret, not both".into());
    }
    if keyname != secret {
        return Err("keyname and secret go together: give both or neither".into());
    }
    Ok(())
}

fn absolute(value: &Value) -> Result<(), String> {
    let text = value_text(value);
    if text.starts_with('/') {
        Ok(())
    } else {
        Err(format!("'{text}' is not an absolute path"))
    }
}

/// The `ttl` property the DNS record types share: seconds, a number or
/// numeric text (`3600` and `'3600'` are the same), 86400 by default.
pub(crate) fn ttl_attr(doc: &str) -> AttrDef {
    AttrDef::property("ttl")
        .doc(doc)
        .default_value(Value::Integer(86400))
        .validate(|_, value| match integer(value) {
            Some(0..=2147483647) => Ok(()),
            _ => Err(format!(
                "Invalid ttl '{}': expected a number of seconds from 0 to 2147483647",
                value_text(value)
            )),
        })
        .munge(|_, value| Ok(integer(&value).map(Value::Integer).unwrap_or(value)))
}

/// Reads the zone a listing names (`marionette resource TYPE zone=...
/// nameserver=... keyfile=...`) by one signed transfer, from the server its
/// parameters give.
pub(crate) fn transfer_listing(
    listing: &marionette_ral::PropertyHash,
    type_name: &str,
) -> Result<(Name, Vec<marionette_dns::Record>), marionette_ral::ProviderError> {
    use marionette_ral::ProviderError;
    let zone = listing.get("zone").map(value_text).ok_or_else(|| {
        ProviderError::new(format!(
            "Listing {type_name} needs the zone and the server: marionette resource {type_name} zone=ZONE [nameserver=ADDRESS] [port=PORT] [keyfile=PATH | keyname=NAME secret=SECRET]"
        ))
    })?;
    let zone = Name::parse(&zone).map_err(|e| ProviderError(e.to_string()))?;
    let server =
        Server::from_attributes(&|attr| listing.get(attr).cloned()).map_err(ProviderError)?;
    let records = server
        .client
        .axfr(&zone)
        .map_err(|e| ProviderError(format!("Listing zone {zone}: {e}")))?;
    Ok((zone, records))
}

/// A whole number from an integer or its text (`86400` or `"86400"`).
pub(crate) fn integer(value: &Value) -> Option<i64> {
    match value {
        Value::Integer(n) => Some(*n),
        Value::String(s) if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => {
            s.parse().ok()
        }
        _ => None,
    }
}

fn seconds(value: &Value) -> Option<u64> {
    integer(value)
        .filter(|n| (1..=3600).contains(n))
        .map(|n| n as u64)
}

fn unwrap_sensitive(value: &Value) -> &Value {
    match value {
        Value::Sensitive(inner) => inner,
        other => other,
    }
}

/// A server to talk to: where it is, the key to sign with, and a label
/// for messages.
///
/// Not `Debug`: it holds the key's secret.
#[derive(Clone)]
pub(crate) struct Server {
    pub(crate) client: Client,
    pub(crate) key: Option<Key>,
    /// The key file, when the key came from one.
    pub(crate) keyfile: Option<String>,
    /// The base64 secret, when the key was given as `keyname`/`secret`.
    pub(crate) secret: Option<String>,
    pub(crate) port: u16,
    pub(crate) timeout: u64,
}

impl Server {
    /// The server named by a resource's (or a listing's) attributes.
    pub(crate) fn from_attributes(get: &dyn Fn(&str) -> Option<Value>) -> Result<Server, String> {
        let nameserver = get("nameserver")
            .map(|v| value_text(&v))
            .unwrap_or_else(|| "127.0.0.1".into());
        let port = get("port").and_then(|v| integer(&v)).unwrap_or(53);
        let port = u16::try_from(port).map_err(|_| format!("Invalid port {port}"))?;
        let timeout = get("timeout").and_then(|v| seconds(&v)).unwrap_or(5);
        let keyfile = get("keyfile").map(|v| value_text(&v));
        let secret = get("secret").map(|v| value_text(unwrap_sensitive(&v)).trim().to_string());
        let key = match (&keyfile, get("keyname"), &secret) {
            (Some(file), _, _) => Some(Key::from_file(Path::new(file))?),
            (None, Some(name), Some(secret)) => {
                let algorithm = get("algorithm")
                    .map(|v| value_text(&v))
                    .unwrap_or_else(|| "hmac-sha256".into());
                Some(Key::new(&value_text(&name), &algorithm, secret)?)
            }
            _ => None,
        };
        let address = resolve(&nameserver, port)?;
        let client = Client::new(address)
            .with_key(key.clone())
            .with_timeout(Duration::from_secs(timeout));
        Ok(Server {
            client,
            key,
            keyfile,
            secret,
            port,
            timeout,
        })
    }

    pub(crate) fn address(&self) -> SocketAddr {
        self.client.server()
    }
}

/// The address of a nameserver given as an address or a host name. A host
/// name is looked up through the system, as for any server one connects
/// to; only the records being managed must not come from a resolver.
fn resolve(nameserver: &str, port: u16) -> Result<SocketAddr, String> {
    if let Ok(ip) = nameserver.parse::<std::net::IpAddr>() {
        return Ok(SocketAddr::new(ip, port));
    }
    (nameserver, port)
        .to_socket_addrs()
        .map_err(|e| format!("cannot resolve nameserver {nameserver}: {e}"))?
        .next()
        .ok_or_else(|| format!("cannot resolve nameserver {nameserver}: no address"))
}

/// The records of one name and type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RecordSet {
    pub(crate) ttl: u32,
    /// Sorted and without duplicates.
    pub(crate) values: Vec<RData>,
}

/// A zone as read by transfer: its record sets and the names where it
/// delegates to child zones.
#[derive(Debug, Default)]
pub(crate) struct ZoneContents {
    pub(crate) sets: HashMap<(Name, RType), RecordSet>,
    cuts: Vec<Name>,
}

impl ZoneContents {
    pub(crate) fn from_records(zone: &Name, records: Vec<marionette_dns::Record>) -> ZoneContents {
        let mut contents = ZoneContents::default();
        for record in records {
            let Some(rdata) = record.rdata else { continue };
            if record.rtype == RType::Ns && record.name != *zone {
                contents.cuts.push(record.name.clone());
            }
            let set = contents
                .sets
                .entry((record.name, record.rtype))
                .or_insert_with(|| RecordSet {
                    ttl: record.ttl,
                    values: Vec::new(),
                });
            set.ttl = set.ttl.min(record.ttl);
            set.values.push(rdata);
        }
        for set in contents.sets.values_mut() {
            set.values.sort();
            set.values.dedup();
        }
        contents
    }

    /// Whether `name` lies below a delegation, hence in a child zone. The
    /// delegation's own name (its NS records and glue) stays in this zone.
    fn delegated(&self, name: &Name) -> bool {
        self.cuts
            .iter()
            .any(|cut| name.is_within(cut) && name != cut)
    }
}

/// What a run learned about zones: which zone holds a name, and each
/// zone's contents, read once.
#[derive(Default)]
pub(crate) struct Zones {
    transfers: HashMap<(SocketAddr, Name), Result<ZoneContents, Transfer>>,
}

/// Why a zone's contents are not known from a transfer.
#[derive(Debug)]
enum Transfer {
    /// The server does not allow it: query record sets one by one.
    Refused,
    /// The server could not be used at all; every record of the zone fails
    /// with this message rather than waiting for the same timeout again.
    Failed(String),
}

impl Zones {
    /// The zone holding `name` at `server`: `given`, or a zone already
    /// read that holds it below no delegation, or the one the server names
    /// in its answer to an SOA query.
    pub(crate) fn zone_of(
        &mut self,
        server: &Server,
        name: &Name,
        given: Option<&Name>,
    ) -> Result<Name, String> {
        if let Some(zone) = given {
            return Ok(zone.clone());
        }
        let known = self
            .transfers
            .iter()
            .filter(|((address, zone), contents)| {
                *address == server.address()
                    && name.is_within(zone)
                    && contents.as_ref().is_ok_and(|c| !c.delegated(name))
            })
            .map(|((_, zone), _)| zone)
            .max_by_key(|zone| zone.labels().len());
        if let Some(zone) = known {
            return Ok(zone.clone());
        }
        server.client.find_zone(name).map_err(|e| e.to_string())
    }

    /// Reads `zone` by transfer unless already read in this run.
    pub(crate) fn load(&mut self, server: &Server, zone: &Name) {
        self.transfers
            .entry((server.address(), zone.clone()))
            .or_insert_with(|| match server.client.axfr(zone) {
                Ok(records) => Ok(ZoneContents::from_records(zone, records)),
                Err(DnsError::Rcode { .. } | DnsError::NotAuthoritative { .. }) => {
                    Err(Transfer::Refused)
                }
                Err(e) => Err(Transfer::Failed(e.to_string())),
            });
    }

    /// The current records of `name`/`rtype` in `zone`: from the zone's
    /// transfer, or by a query when the server refuses transfers.
    pub(crate) fn current(
        &mut self,
        server: &Server,
        zone: &Name,
        name: &Name,
        rtype: RType,
    ) -> Result<Option<RecordSet>, String> {
        self.load(server, zone);
        match &self.transfers[&(server.address(), zone.clone())] {
            Ok(contents) => Ok(contents.sets.get(&(name.clone(), rtype)).cloned()),
            Err(Transfer::Failed(message)) => Err(message.clone()),
            Err(Transfer::Refused) => server
                .client
                .rrset(name, rtype)
                .map(|found| found.map(|(ttl, values)| RecordSet { ttl, values }))
                .map_err(|e| e.to_string()),
        }
    }

    /// Forgets what was read of `zone`, so that the next use reads it
    /// again: a zone that did not exist when a run began may be created by
    /// the run itself.
    pub(crate) fn forget(&mut self, server: &Server, zone: &Name) {
        self.transfers.remove(&(server.address(), zone.clone()));
    }

    /// Records that the server now holds `set` (or nothing) for
    /// `name`/`rtype`, after an update.
    pub(crate) fn record(
        &mut self,
        server: &Server,
        zone: &Name,
        name: &Name,
        rtype: RType,
        set: Option<RecordSet>,
    ) {
        if let Some(Ok(contents)) = self.transfers.get_mut(&(server.address(), zone.clone())) {
            match set {
                Some(set) => contents.sets.insert((name.clone(), rtype), set),
                None => contents.sets.remove(&(name.clone(), rtype)),
            };
        }
    }
}

//! `dnsrr`: the records of one DNS name, of one type, in a zone changed by
//! dynamic updates. The seed article's second type.
//!
//! Its identity is the name alone, and `type` is a property: a `dnsrr`
//! says what its name is (an address, an alias, a mail exchanger...), so
//! changing `type` turns the name into something else, replacing the old
//! records in the same update. That is only coherent if the resource
//! speaks for every record of the name among the types it knows, so it
//! does: records of the other six types at the name are removed (NS, SOA
//! and any other type are never touched). Names that must hold several
//! types at once (a dual-stack host, a zone apex with MX) are
//! `dns_resource`'s job, one resource per name and type.

use std::net::{Ipv4Addr, Ipv6Addr};

use marionette_dns::{Name, RData, RType};
use marionette_ral::attribute::value_text;
use marionette_ral::{AttrDef, AutoKind, Resource, Titles, TypeDef};
use marionette_values::Value;

use crate::dns::{connection_attributes, ttl_attr, validate_key};
use crate::types::dns_resource::{dns_name, record_data, texts};

/// The record types a `dnsrr` can be, in the seed's order.
pub const DNSRR_TYPES: [&str; 7] = ["A", "AAAA", "CNAME", "MX", "SRV", "TXT", "PTR"];

/// [`DNSRR_TYPES`] as record types.
pub(crate) fn dnsrr_rtypes() -> impl Iterator<Item = RType> {
    DNSRR_TYPES.iter().filter_map(|t| RType::parse(t))
}

/// The zone a name is in by default: the name without its first label,
/// as long as something is left.
pub(crate) fn default_zone(name: &str) -> Option<Name> {
    let name = Name::parse(name).ok()?;
    if name.labels().len() < 2 {
        return None;
    }
    name.parent()
}

pub fn definition() -> TypeDef {
    let mut type_def = TypeDef::new("dnsrr")
        .doc(
            "Manages the records of one DNS name on an authoritative server, through
            dynamic updates (RFC 2136) signed with a TSIG key:

                dnsrr { 'www.example.com':
                  type  => 'A',
                  value => ['192.0.2.10', '192.0.2.11'],
                }

            A `dnsrr` speaks for its whole name: it holds records of `type` only, and
            records of the other types a `dnsrr` can be (A, AAAA, CNAME, MX, SRV, TXT,
            PTR) found at the name are removed; NS, SOA and other types are left alone.
            So changing `type` turns the name into something else in one update. For
            names that hold several of these types at once (a dual-stack host, a zone
            apex with MX records), use `dns_resource`, one resource per record type.

            The zone is the name without its first label unless `zone` says otherwise,
            and `Dnszone[zone]` is applied first when the catalog has it; the server,
            DNS port and key then come from it, unless given here.

            Every record is read by one zone transfer per zone per run, and all the
            changes to a zone are sent in one update at the end of the run, after
            every resource was evaluated. Each resource is reported as changed when it
            is evaluated; if the update then fails, none of the zone's changes are
            made, and the run reports those resources as failed, but resources that
            depend on them have been applied already (Puppet has the same limitation
            with providers that batch).",
        )
        .ensurable()
        .attr(
            dns_name(AttrDef::param("name"))
                .namevar()
                .doc("The fully qualified name of the records (`www.example.com`)."),
        )
        .attr(
            AttrDef::property("type")
                .doc(
                    "The type of the name's records: A, AAAA, CNAME, MX, SRV, TXT or PTR.
                    When the name holds records of several of these types, its current
                    type is the list of them, and syncing removes all but this one.",
                )
                .default_value(Value::String("A".into()))
                .validate(|_, value| {
                    let text = value_text(value).to_ascii_uppercase();
                    if DNSRR_TYPES.contains(&text.as_str()) {
                        Ok(())
                    } else {
                        Err(format!(
                            "Invalid value {}. Valid values are {}.",
                            marionette_ral::attribute::inspect(value),
                            DNSRR_TYPES.join(", ")
                        ))
                    }
                })
                .munge(|_, value| {
                    Ok(Value::String(
                        value_text(&value).to_ascii_uppercase().into(),
                    ))
                }),
        )
        .attr(record_data(
            AttrDef::property("value").doc(
                "The records' data, one value or an array of them: an IP address for A
                    and AAAA, a host name for CNAME and PTR, `PREFERENCE HOST` for MX,
                    `PRIORITY WEIGHT PORT TARGET` for SRV, and text for TXT. Required
                    unless `ensure` is `absent`. Compared as a set in canonical form, so
                    order, case and a final dot do not matter.",
            ),
            "Empty values are not allowed",
            "Values",
        ))
        .attr(ttl_attr(
            "The time to live of the records, in seconds. `3600` and `'3600'` are the same.",
        ))
        .attr(
            dns_name(AttrDef::param("zone"))
                .doc(
                    "The zone the name belongs to. Defaults to the name without its first
                    label (`example.com` for `www.example.com`); names deeper in a zone,
                    or at its apex, need it given.",
                )
                .default_fn(|resource| {
                    let zone = default_zone(&resource.text("name")?)?;
                    Some(Value::String(zone.to_string().into()))
                }),
        );
    for attr in connection_attributes() {
        let attr = match attr.name.as_str() {
            "nameserver" => attr.doc(
                "The server to read and update records at: an IP address or a host name.
                Records are read from this server directly, never through the system
                resolver. When not given, the `rndc_server` of the zone's `Dnszone`, else
                127.0.0.1.",
            ),
            "port" => attr.doc("The server's DNS port; when not given, the `port` of the zone's `Dnszone`, else 53."),
            "keyfile" => attr.doc(
                "A TSIG key file in BIND's format (as `tsig-keygen` writes it) to sign
                requests with. Give either this or `keyname` and `secret`; when none of
                the key parameters is given, the key of the zone's `Dnszone` is used.",
            ),
            _ => attr,
        };
        type_def = type_def.attr(attr);
    }
    type_def
        .validate(validate)
        .auto(
            AutoKind::Require,
            "dnszone",
            Titles::Attribute("zone".into()),
        )
        .auto(
            AutoKind::Require,
            "file",
            Titles::Attribute("keyfile".into()),
        )
}

fn validate(resource: &Resource) -> Result<(), String> {
    let Some(zone) = resource.text("zone") else {
        return Err("No zone defined and name is not a FQDN".into());
    };
    // `ensure` is `present` here when given so or implied by a managed
    // property; a bare reference (`marionette resource dnsrr
    // www.example.com`) manages nothing and needs no value.
    let present = matches!(resource.get("ensure"), Some(v) if value_text(v) == "present");
    if present && resource.get("value").is_none() {
        return Err("value is a required attribute".into());
    }
    let values: Vec<String> = resource.get("value").map(texts).unwrap_or_default();
    if resource.get("value").is_some() && values.is_empty() {
        return Err("Empty values are not allowed".into());
    }
    let kind = resource.text("type").unwrap_or_else(|| "A".into());
    let rtype = RType::parse(&kind).ok_or_else(|| format!("Invalid record type {kind}"))?;
    for value in &values {
        let address = match rtype {
            RType::A => Some(value.parse::<Ipv4Addr>().is_ok()),
            RType::Aaaa => Some(value.parse::<Ipv6Addr>().is_ok()),
            _ => None,
        };
        match address {
            Some(true) => {}
            Some(false) => return Err(format!("Invalid IP address {value} for given type {kind}")),
            None => {
                RData::parse(rtype, value)?;
            }
        }
    }
    if rtype == RType::Cname && values.len() > 1 {
        return Err(format!(
            "A name has at most one CNAME record, not {}",
            values.len()
        ));
    }
    if let Some(name) = resource.text("name")
        && let (Ok(name), Ok(zone)) = (Name::parse(&name), Name::parse(&zone))
    {
        if !name.is_within(&zone) {
            return Err(format!("The name {name} is outside zone {zone}"));
        }
        // The apex always holds the SOA and NS records, which a CNAME
        // cannot join; servers silently ignore such an update.
        if name == zone && rtype == RType::Cname && !values.is_empty() {
            return Err(format!(
                "The zone apex {zone} cannot be a CNAME: it holds the zone's SOA and NS records"
            ));
        }
    }
    validate_key(&|attr| resource.get(attr).cloned())
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use marionette_ral::Origin;

    use super::*;

    fn s(text: &str) -> Value {
        Value::String(text.into())
    }

    fn rr(title: &str, attrs: &[(&str, Value)]) -> Result<Resource, String> {
        Resource::new(
            Arc::new(definition()),
            title,
            attrs
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect::<Vec<_>>(),
            Origin::default(),
        )
        .map_err(|e| e.to_string())
    }

    #[test]
    fn type_defaults_to_a_and_zone_to_the_parent_name() {
        let www = rr("WWW.Example.com.", &[("value", s("192.0.2.1"))]).unwrap();
        assert_eq!(www.text("name").as_deref(), Some("www.example.com"));
        assert_eq!(www.text("type").as_deref(), Some("A"));
        assert_eq!(www.text("zone").as_deref(), Some("example.com"));
        assert_eq!(www.text("ensure").as_deref(), Some("present"));
        assert_eq!(
            www.auto_relations(),
            [(
                AutoKind::Require,
                "dnszone".to_string(),
                "example.com".to_string()
            )]
        );
        let mx = rr(
            "example.com",
            &[
                ("type", s("mx")),
                ("value", s("10 mail.example.com")),
                ("zone", s("Example.com")),
            ],
        )
        .unwrap();
        assert_eq!(mx.text("type").as_deref(), Some("MX"));
        assert_eq!(mx.text("zone").as_deref(), Some("example.com"));
    }

    #[test]
    fn the_seed_errors_keep_their_words() {
        let error = rr("www", &[("value", s("192.0.2.1"))]).unwrap_err();
        assert_eq!(
            error,
            "Validation of Dnsrr[www] failed: No zone defined and name is not a FQDN"
        );
        let error = rr("www.example.com", &[("value", s(""))]).unwrap_err();
        assert_eq!(
            error,
            "Parameter value failed on Dnsrr[www.example.com]: Empty values are not allowed"
        );
        let error = rr(
            "www.example.com",
            &[("value", Value::Array(Vec::new().into()))],
        )
        .unwrap_err();
        assert!(error.ends_with("Empty values are not allowed"), "{error}");
        let error = rr("www.example.com", &[("value", s("web.example.com"))]).unwrap_err();
        assert_eq!(
            error,
            "Validation of Dnsrr[www.example.com] failed: Invalid IP address web.example.com for given type A"
        );
        let error = rr(
            "v6.example.com",
            &[("type", s("AAAA")), ("value", s("192.0.2.1"))],
        )
        .unwrap_err();
        assert!(
            error.ends_with("Invalid IP address 192.0.2.1 for given type AAAA"),
            "{error}"
        );
        let error = rr("www.example.com", &[("ensure", s("present"))]).unwrap_err();
        assert!(error.ends_with("value is a required attribute"), "{error}");
    }

    #[test]
    fn other_checks() {
        // Removing needs no value, and a bare reference manages nothing.
        rr("www.example.com", &[("ensure", s("absent"))]).unwrap();
        rr("www.example.com", &[]).unwrap();
        let error = rr(
            "x.example.com",
            &[("type", s("NS")), ("value", s("ns.example.com"))],
        )
        .unwrap_err();
        assert!(
            error.contains("Valid values are A, AAAA, CNAME, MX, SRV, TXT, PTR."),
            "{error}"
        );
        let error = rr(
            "www.example.com",
            &[
                ("type", s("CNAME")),
                (
                    "value",
                    Value::Array(vec![s("a.example.com"), s("b.example.com")].into()),
                ),
            ],
        )
        .unwrap_err();
        assert!(error.contains("at most one CNAME"), "{error}");
        let error = rr(
            "mail.example.com",
            &[("type", s("MX")), ("value", s("mail.example.com"))],
        )
        .unwrap_err();
        assert!(error.contains("Dnsrr[mail.example.com] failed"), "{error}");
        let error = rr(
            "www.example.com",
            &[("value", s("192.0.2.1")), ("zone", s("example.org"))],
        )
        .unwrap_err();
        assert!(error.contains("outside zone example.org"), "{error}");
        let error = rr(
            "example.com",
            &[
                ("type", s("CNAME")),
                ("value", s("www.example.org")),
                ("zone", s("example.com")),
            ],
        )
        .unwrap_err();
        assert!(error.contains("cannot be a CNAME"), "{error}");
        let error = rr(
            "www.example.com",
            &[("value", s("192.0.2.1")), ("keyname", s("k"))],
        )
        .unwrap_err();
        assert!(error.contains("keyname and secret go together"), "{error}");
    }

    #[test]
    fn values_compare_as_sets_in_canonical_form() {
        let mx = rr(
            "example.com",
            &[
                ("type", s("MX")),
                (
                    "value",
                    Value::Array(
                        vec![s("10 mail.example.com."), s("20 Backup.example.com")].into(),
                    ),
                ),
                ("zone", s("example.com")),
            ],
        )
        .unwrap();
        let attr = mx.type_def().attribute("value").unwrap();
        let insync = attr.insync.as_ref().unwrap();
        let current =
            Value::Array(vec![s("20 backup.example.com"), s("10 mail.example.com")].into());
        assert!(insync(&mx, &current, mx.get("value").unwrap()));
        let other = Value::Array(vec![s("10 mail.example.com")].into());
        assert!(!insync(&mx, &other, mx.get("value").unwrap()));
    }
}

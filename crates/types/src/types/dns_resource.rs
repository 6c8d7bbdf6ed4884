//! `dns_resource`: one DNS record set (a name and a record type) on an
//! authoritative server, changed by dynamic updates.
//!
//! The type of the seed article, made production-grade: the title splits
//! into `name` and `type`, `rdata` is a set whose values are validated for
//! their record type and compared in canonical form, `ttl` compares as a
//! number, the server is reached with a TSIG key, and the zone is found
//! from the server when not given.

use marionette_dns::{Name, RData, RType};
use marionette_ral::attribute::value_text;
use marionette_ral::{ArrayMatching, AttrDef, AutoKind, Resource, Titles, TypeDef};
use marionette_values::Value;

use crate::dns::{connection_attributes, ttl_attr, validate_key};

/// The record types `dns_resource` manages.
pub const RECORD_TYPES: [&str; 8] = ["A", "AAAA", "CNAME", "MX", "NS", "PTR", "SRV", "TXT"];

/// The record type of a resource, once validated.
pub(crate) fn record_type(resource: &Resource) -> Option<RType> {
    resource.text("type").and_then(|t| RType::parse(&t))
}

/// The canonical text of one `rdata` value for `rtype` (`10
/// mail.example.com` for `10  Mail.Example.com.`); the value itself when
/// it does not parse, which validation reports.
pub(crate) fn canonical_rdata(rtype: Option<RType>, text: &str) -> String {
    rtype
        .and_then(|t| RData::parse(t, text).ok())
        .map(|d| d.to_string())
        .unwrap_or_else(|| text.to_string())
}

/// The values of a property that may be a single value or an array.
pub(crate) fn texts(value: &Value) -> Vec<String> {
    match value {
        Value::Array(items) => items.iter().map(value_text).collect(),
        other => vec![value_text(other)],
    }
}

/// The canonical set of `rdata` values, for comparison.
fn rdata_set(rtype: Option<RType>, value: &Value) -> Vec<String> {
    let mut set: Vec<String> = texts(value)
        .iter()
        .map(|t| canonical_rdata(rtype, t))
        .collect();
    set.sort();
    set.dedup();
    set
}

/// What an attribute holding record data does (`dns_resource`'s `rdata`,
/// `dnsrr`'s `value`): one value or several, none empty or holding control
/// characters (they could end a line of an update script), compared as a
/// set in canonical form for the resource's record type. `empty` is the
/// error for an empty value; `noun` names the values in the other error.
pub(crate) fn record_data(attr: AttrDef, empty: &'static str, noun: &'static str) -> AttrDef {
    attr.array_matching(ArrayMatching::All)
        .validate(move |_, value| {
            let text = value_text(value);
            if text.trim().is_empty() {
                return Err(empty.into());
            }
            if text.chars().any(char::is_control) {
                return Err(format!(
                    "{noun} must not hold control characters such as newlines: {text:?}"
                ));
            }
            Ok(())
        })
        .insync(|resource, current, desired| {
            let rtype = record_type(resource);
            rdata_set(rtype, current) == rdata_set(rtype, desired)
        })
}

/// An attribute holding a domain name: validated, and kept in canonical
/// form (lower case, no final dot).
pub(crate) fn dns_name(attr: AttrDef) -> AttrDef {
    attr.validate(|_, value| {
        Name::parse(&value_text(value))
            .map(|_| ())
            .map_err(|e| e.to_string())
    })
    .munge(|_, value| {
        Ok(Name::parse(&value_text(&value))
            .map(|n| Value::String(n.to_string().into()))
            .unwrap_or(value))
    })
}

pub fn definition() -> TypeDef {
    let mut type_def = TypeDef::new("dns_resource")
        .doc(
            "Manages one DNS record set, the records of a name and a type, on an
            authoritative server through dynamic updates (RFC 2136). The title is
            `NAME/TYPE`:

                dns_resource { 'www.example.com/A':
                  rdata   => ['192.0.2.10', '192.0.2.11'],
                  ttl     => 3600,
                  keyfile => '/etc/bind/update.key',
                }

            Values are compared as a set in canonical form, so their order and
            spelling (case, a final dot) do not matter. Records the manifest does
            not mention are left alone.",
        )
        .ensurable()
        .attr(
            dns_name(AttrDef::param("name"))
                .namevar()
                .doc("The record's owner name, fully qualified (`www.example.com`)."),
        )
        .attr(
            AttrDef::param("type")
                .namevar()
                .doc("The record type: A, AAAA, CNAME, MX, NS, PTR, SRV or TXT.")
                .validate(|_, value| {
                    let text = value_text(value).to_ascii_uppercase();
                    if RECORD_TYPES.contains(&text.as_str()) {
                        Ok(())
                    } else {
                        Err(format!(
                            "Invalid record type '{}'. Valid types are {}",
                            value_text(value),
                            RECORD_TYPES.join(", ")
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
            AttrDef::property("rdata").doc(
                "The record data, one value or an array of them: an address for A and
                    AAAA, a host name for CNAME, NS and PTR, `PREFERENCE HOST` for MX,
                    `PRIORITY WEIGHT PORT TARGET` for SRV, and text for TXT (bare, or as
                    quoted strings). Each value is validated for the record type.",
            ),
            "rdata values must not be empty",
            "rdata values",
        ))
        .attr(ttl_attr(
            "The time to live of the record set, in seconds. `86400` and `'86400'` are the same.",
        ))
        .attr(dns_name(AttrDef::param("zone")).doc(
            "The zone the record belongs to. When not given, it is the zone the
                    server names in its answer to an SOA query for the record's name.",
        ));
    for attr in connection_attributes() {
        type_def = type_def.attr(attr);
    }
    type_def
        .title_pattern(r"\A(.+)/([A-Za-z]+)\z", &["name", "type"])
        // A title without a type still names the record; validation then
        // asks for the type.
        .title_pattern(r"\A(.+)\z", &["name"])
        .validate(validate)
        .autorequire("service", |_| vec!["bind9".into()])
        .autorequire("package", |_| vec!["dnsutils".into()])
        .auto(
            AutoKind::Require,
            "file",
            Titles::Attribute("keyfile".into()),
        )
}

fn validate(resource: &Resource) -> Result<(), String> {
    let Some(rtype) = record_type(resource) else {
        return Err(format!(
            "The record type of '{}' is missing: write the title as NAME/TYPE ('www.example.com/A') or set type",
            resource.title()
        ));
    };
    // `ensure` is `present` here when given so or implied by a managed
    // property; a bare reference (`marionette resource dns_resource
    // www.example.com/A`) manages nothing and needs no data.
    let present = matches!(resource.get("ensure"), Some(v) if value_text(v) == "present");
    let values: Vec<String> = resource.get("rdata").map(texts).unwrap_or_default();
    if present && resource.get("rdata").is_none() {
        return Err("rdata is required unless ensure is absent".into());
    }
    for value in &values {
        RData::parse(rtype, value)?;
    }
    if rtype == RType::Cname && values.len() > 1 {
        return Err(format!(
            "A name has at most one CNAME record, not {}",
            values.len()
        ));
    }
    if let (Some(name), Some(zone)) = (resource.text("name"), resource.text("zone")) {
        let (name, zone) = (Name::parse(&name), Name::parse(&zone));
        if let (Ok(name), Ok(zone)) = (name, zone)
            && !name.is_within(&zone)
        {
            return Err(format!("The name {name} is outside zone {zone}"));
        }
    }
    validate_key(&|attr| resource.get(attr).cloned())
}

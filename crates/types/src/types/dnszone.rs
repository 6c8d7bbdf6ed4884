//! `dnszone`: a primary zone of a BIND server, added and deleted while
//! `named` runs.
//!
//! The type of the seed article, for BIND rather than a hosting service:
//! creating a zone writes its zone file (SOA, NS and, when the name server
//! lies inside the zone, its address) and adds it with `rndc addzone`;
//! removing it deletes it with `rndc delzone -clean`. The zone's records
//! are the business of `dnsrr` (or `dns_resource`), which can take the
//! server and key from here.

use marionette_dns::Name;
use marionette_ral::attribute::value_text;
use marionette_ral::{AttrDef, AutoKind, Resource, Titles, TypeDef};
use marionette_values::Value;

use crate::dns::{connection_attributes, integer, port_param};
use crate::types::host::{check_server, valid_host_name};

/// Where zone files go unless `zonedir` says otherwise: the directory
/// Debian's BIND keeps dynamic zones in, writable by `named`.
pub const DEFAULT_ZONEDIR: &str = "/var/lib/bind";

/// A zone name: a valid DNS name, not the root and not a wildcard, in
/// canonical form (lower case, no final dot).
pub(crate) fn zone_name(text: &str) -> Result<Name, String> {
    let name = Name::parse(text).map_err(|e| e.to_string())?;
    if name.is_root() {
        return Err("The root zone cannot be managed".into());
    }
    if name.labels().iter().any(|label| label == "*") {
        return Err(format!("Invalid zone name '{text}': it is a wildcard"));
    }
    Ok(name)
}

/// The SOA contact of an email address: `hostmaster@example.com` becomes
/// `hostmaster.example.com.`, with dots of the local part escaped as
/// zone files need (`first\.last.example.com.`).
pub(crate) fn soa_contact(email: &str) -> Result<String, String> {
    let invalid = |why: &str| format!("Invalid email '{email}': {why}");
    let (local, domain) = email
        .split_once('@')
        .ok_or_else(|| invalid("expected an address such as hostmaster@example.com"))?;
    // The local part becomes a label of the zone file, unquoted: only
    // characters that need no escaping there (besides the dots, escaped
    // below) are accepted.
    if local.is_empty()
        || local.starts_with('.')
        || local.ends_with('.')
        || local.contains("..")
        || !local
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._+-".contains(c))
    {
        return Err(invalid(
            "the part before '@' may only hold letters, digits, '.', '_', '+' and '-'",
        ));
    }
    let domain = Name::parse(domain).map_err(|e| invalid(&e.reason))?;
    if domain.is_root() || domain.labels().iter().any(|l| l == "*") {
        return Err(invalid("the part after '@' is not a domain"));
    }
    Ok(format!("{}.{domain}.", local.replace('.', "\\.")))
}

/// A path that can stand inside a quoted string of named.conf, which has
/// no escapes: absolute, and without quotes, braces, semicolons,
/// backslashes, `#`, whitespace or control characters.
pub(crate) fn config_path(text: &str) -> Result<(), String> {
    if !text.starts_with('/') {
        return Err(format!("'{text}' is not an absolute path"));
    }
    if let Some(bad) = text
        .chars()
        .find(|c| "\"{};\\#".contains(*c) || c.is_whitespace() || c.is_control())
    {
        return Err(format!(
            "The path '{}' holds {bad:?}, which cannot be written into named's configuration",
            text.escape_debug()
        ));
    }
    Ok(())
}

/// The host name of a name server, in canonical form.
fn host_name(text: &str) -> Result<String, String> {
    let trimmed = text.strip_suffix('.').unwrap_or(text);
    if valid_host_name(trimmed) {
        Ok(trimmed.to_ascii_lowercase())
    } else {
        Err(format!("Invalid nameserver '{text}': expected a host name"))
    }
}

/// A name server's host name in canonical form; the value itself when it
/// is invalid, which validation reports.
fn canonical_host(value: Value) -> Value {
    match host_name(&value_text(&value)) {
        Ok(text) => Value::String(text.into()),
        Err(_) => value,
    }
}

pub fn definition() -> TypeDef {
    let mut type_def = TypeDef::new("dnszone")
        .doc(
            "Manages a primary DNS zone of a BIND server that allows zones to be added at
            run time (`allow-new-zones yes;`). Creating the zone writes its zone file into
            `zonedir`, with an SOA (serial 1), an NS record naming `nameserver` and, when
            that name lies inside the zone, its address; then `rndc addzone` loads it.
            Zones added this way survive restarts of `named`, which keeps them in its
            own database of new zones. `ensure` defaults to `present`; `ensure =>
            absent` deletes the zone and its files with `rndc delzone -clean`.

                dnszone { 'example.com':
                  email              => 'hostmaster@example.com',
                  nameserver         => 'ns1.example.com',
                  nameserver_address => '192.0.2.53',
                  keyfile            => '/etc/bind/update.key',
                }

            With a TSIG key (`keyfile`, or `keyname`), the zone accepts dynamic updates
            and transfers signed with it, which is how `dnsrr` resources change its
            records; the key must already be known to `named`, as an `include` of the
            key file in named.conf. `dnsrr` resources of the zone take the key, the DNS
            `port` and `rndc_server` as their server from this resource unless they give
            their own.

            The zone's contents are not managed after creation: `email` and
            `nameserver` are written when the zone is created and not compared later.",
        )
        .ensurable()
        // Every other attribute is a parameter, so without this default a
        // resource naming a zone would manage nothing at all.
        .ensure_values(|ensure| ensure.default_value(Value::String("present".into())))
        .attr(
            AttrDef::param("name")
                .namevar()
                .doc("The zone's name (`example.com`, `2.0.192.in-addr.arpa`).")
                .validate(|_, value| zone_name(&value_text(value)).map(|_| ()))
                .munge(|_, value| {
                    Ok(zone_name(&value_text(&value))
                        .map(|n| Value::String(n.to_string().into()))
                        .unwrap_or(value))
                }),
        )
        .attr(
            AttrDef::param("email")
                .doc(
                    "The address of the person responsible for the zone, written as the
                    SOA contact. Defaults to `hostmaster@` the zone.",
                )
                .default_fn(|resource| {
                    Some(Value::String(
                        format!("hostmaster@{}", resource.text("name")?).into(),
                    ))
                })
                .validate(|_, value| soa_contact(&value_text(value)).map(|_| ())),
        )
        .attr(
            AttrDef::param("nameserver")
                .doc(
                    "The host name of the zone's primary name server, written as the SOA's
                    primary and the zone's NS record. Defaults to this machine's fully
                    qualified name (the `networking.fqdn` fact). When it lies inside the
                    zone, `nameserver_address` is needed too, since `named` refuses a zone
                    whose in-zone name server has no address.",
                )
                .validate(|_, value| host_name(&value_text(value)).map(|_| ()))
                .munge(|_, value| Ok(canonical_host(value))),
        )
        .attr(
            AttrDef::param("nameserver_address")
                .doc(
                    "The IPv4 or IPv6 address of `nameserver`, written into the zone as an
                    A or AAAA record when the name server lies inside the zone; ignored
                    otherwise.",
                )
                .validate(|_, value| {
                    let text = value_text(value);
                    text.parse::<std::net::IpAddr>()
                        .map(|_| ())
                        .map_err(|_| format!("Invalid IP address {text:?}"))
                }),
        )
        .attr(
            AttrDef::param("zonedir")
                .doc(
                    "The directory the zone file is written to, as `<zone>.zone`. It must
                    exist, and `named` must be able to write there (for its journal).",
                )
                .default_value(Value::String(DEFAULT_ZONEDIR.into()))
                .validate(|_, value| config_path(&value_text(value)))
                .munge(|_, value| {
                    let text = value_text(&value);
                    let trimmed = text.trim_end_matches('/');
                    Ok(Value::String(
                        if trimmed.is_empty() { "/" } else { trimmed }.into(),
                    ))
                }),
        )
        .attr(
            AttrDef::param("rndc_config")
                .doc(
                    "The configuration file `rndc` reads (`rndc -c`): its key and the
                    server it talks to. When not given, rndc's own default applies
                    (`/etc/bind/rndc.conf`, else `/etc/bind/rndc.key`).",
                )
                .validate(|_, value| {
                    let text = value_text(value);
                    if text.starts_with('/') {
                        Ok(())
                    } else {
                        Err(format!("'{text}' is not an absolute path"))
                    }
                }),
        )
        .attr(
            AttrDef::param("rndc_server")
                .doc(
                    "The server `rndc` controls (`rndc -s`), an address or host name; by
                    default the one `rndc_config` names, usually this machine. `dnsrr`
                    resources of the zone send their updates to it.",
                )
                .validate(|_, value| check_server("rndc_server", &value_text(value))),
        )
        .attr(
            AttrDef::param("rndc_port")
                .doc("The control channel's port (`rndc -p`); by default the one `rndc_config` names.")
                .validate(|_, value| match integer(value) {
                    Some(1..=65535) => Ok(()),
                    _ => Err(format!(
                        "Invalid rndc_port '{}': expected a number from 1 to 65535",
                        value_text(value)
                    )),
                })
                .munge(|_, value| Ok(integer(&value).map(Value::Integer).unwrap_or(value))),
        )
        .attr(port_param(
            "port",
            "The server's DNS port, for the `dnsrr` resources of the zone.",
            53,
        ));
    for attr in connection_attributes() {
        let doc = match attr.name.as_str() {
            "keyfile" => {
                "A TSIG key file in BIND's format (as `tsig-keygen` writes it). The zone
                allows updates and transfers signed with its key, and `dnsrr` resources
                of the zone sign with it. `named` must know the key already."
            }
            "keyname" => {
                "The name of the TSIG key the zone allows updates and transfers signed
                with, when not given by `keyfile`. `named` must know the key already.
                With `secret`, `dnsrr` resources of the zone sign with it."
            }
            "secret" => {
                "The base64 secret of `keyname`'s key, for the zone's `dnsrr` resources. Never logged."
            }
            "algorithm" => "The algorithm of `keyname`'s key, for the zone's `dnsrr` resources.",
            _ => continue,
        };
        type_def = type_def.attr(attr.doc(doc));
    }
    type_def
        .validate(validate)
        .auto(
            AutoKind::Require,
            "file",
            Titles::Attribute("zonedir".into()),
        )
        .auto(
            AutoKind::Require,
            "file",
            Titles::Attribute("keyfile".into()),
        )
        .auto(
            AutoKind::Require,
            "file",
            Titles::Attribute("rndc_config".into()),
        )
        .autorequire("package", |_| vec!["bind9".into()])
        .autorequire("service", |_| vec!["bind9".into(), "named".into()])
}

fn validate(resource: &Resource) -> Result<(), String> {
    let given = |attr: &str| resource.get(attr).is_some();
    if given("keyfile") && given("keyname") {
        return Err("Give either keyfile or keyname, not both".into());
    }
    if given("secret") && !given("keyname") {
        return Err("secret needs keyname".into());
    }
    if let (Some(zone), Some(nameserver)) = (resource.text("name"), resource.text("nameserver"))
        && let (Ok(zone), Ok(nameserver)) = (Name::parse(&zone), Name::parse(&nameserver))
        && nameserver.is_within(&zone)
        && !given("nameserver_address")
    {
        return Err(format!(
            "The nameserver {nameserver} lies inside zone {zone}: give its address with nameserver_address"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use marionette_ral::Origin;

    use super::*;

    fn s(text: &str) -> Value {
        Value::String(text.into())
    }

    fn zone(title: &str, attrs: &[(&str, Value)]) -> Result<Resource, String> {
        Resource::new(
            std::sync::Arc::new(definition()),
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
    fn names_and_defaults_are_canonical() {
        let z = zone(
            "Example.COM.",
            &[
                ("nameserver", s("NS1.Other.Example.")),
                ("zonedir", s("/srv/zones/")),
            ],
        )
        .unwrap();
        assert_eq!(z.text("name").as_deref(), Some("example.com"));
        assert_eq!(z.text("email").as_deref(), Some("hostmaster@example.com"));
        assert_eq!(z.text("nameserver").as_deref(), Some("ns1.other.example"));
        assert_eq!(z.text("zonedir").as_deref(), Some("/srv/zones"));
        assert_eq!(
            zone("example.com", &[]).unwrap().text("zonedir").as_deref(),
            Some("/var/lib/bind")
        );
    }

    #[test]
    fn the_soa_contact_escapes_dots_of_the_local_part() {
        assert_eq!(
            soa_contact("hostmaster@example.com").unwrap(),
            "hostmaster.example.com."
        );
        assert_eq!(
            soa_contact("first.last@Example.com").unwrap(),
            "first\\.last.example.com."
        );
        for bad in [
            "nobody",
            "@example.com",
            "a b@example.com",
            "x@",
            "x\"@example.com",
            ".a@example.com",
        ] {
            assert!(soa_contact(bad).is_err(), "{bad}");
        }
        let error = zone("example.com", &[("email", s("nobody"))]).unwrap_err();
        assert!(error.contains("Invalid email 'nobody'"), "{error}");
    }

    #[test]
    fn values_that_would_break_the_zone_configuration_are_refused() {
        for bad in [
            "/var/lib/bind\"; allow-update { any; }; #",
            "/var/lib/{x}",
            "relative/dir",
            "/var/lib/my zones",
            "/var/lib/a;b",
        ] {
            let error = zone("example.com", &[("zonedir", s(bad))]).unwrap_err();
            assert!(error.contains("Parameter zonedir failed"), "{bad}: {error}");
        }
        for bad in ["exa\"mple.com", "*.example.com", "example..com", "."] {
            assert!(zone(bad, &[]).is_err(), "{bad}");
        }
        let error = zone("example.com", &[("keyname", s("bad\"key"))]).unwrap_err();
        assert!(error.contains("Parameter keyname failed"), "{error}");
        let error = zone("example.com", &[("nameserver", s("ns;1.example.org"))]).unwrap_err();
        assert!(error.contains("Invalid nameserver"), "{error}");
    }

    #[test]
    fn cross_checks() {
        let error = zone("example.com", &[("nameserver", s("ns1.example.com"))]).unwrap_err();
        assert!(
            error.contains("The nameserver ns1.example.com lies inside zone example.com: give its address with nameserver_address"),
            "{error}"
        );
        zone(
            "example.com",
            &[
                ("nameserver", s("ns1.example.com")),
                ("nameserver_address", s("192.0.2.53")),
            ],
        )
        .unwrap();
        let error = zone(
            "example.com",
            &[("keyfile", s("/etc/bind/k.key")), ("keyname", s("k"))],
        )
        .unwrap_err();
        assert!(error.contains("either keyfile or keyname"), "{error}");
        assert!(zone("example.com", &[("secret", s("c2VjcmV0"))]).is_err());
        let error = zone("example.com", &[("nameserver_address", s("300.1.1.1"))]).unwrap_err();
        assert!(error.contains("Invalid IP address"), "{error}");
    }
}

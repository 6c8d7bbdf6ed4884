//! `host`: entries of a hosts file (`/etc/hosts` by default). Puppet 7
//! moved this type to the `host_core` module; marionette ships it.

use marionette_ral::attribute::value_text;
use marionette_ral::{ArrayMatching, AttrDef, TypeDef};
use marionette_values::Value;

/// Checks a server given as an IP address or a host name; the error names
/// the attribute.
pub fn check_server(attr: &str, text: &str) -> Result<(), String> {
    if text.parse::<std::net::IpAddr>().is_ok() || valid_host_name(text) {
        Ok(())
    } else {
        Err(format!(
            "Invalid {attr} '{text}': expected an IP address or a host name"
        ))
    }
}

/// A host name: labels of letters, digits and hyphens, separated by dots.
pub fn valid_host_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 253
        && name.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        })
}

pub fn definition() -> TypeDef {
    TypeDef::new("host")
        .doc(
            "Manages an entry of a hosts file: an address and the names that
            resolve to it. Other lines of the file, comments included, are
            kept as they are.",
        )
        .ensurable()
        .attr(
            AttrDef::property("ip")
                .doc("The IPv4 or IPv6 address the names resolve to.")
                .validate(|_, value| {
                    let text = value_text(value);
                    text.parse::<std::net::IpAddr>()
                        .map(|_| ())
                        .map_err(|_| format!("Invalid IP address {text:?}"))
                }),
        )
        .attr(
            AttrDef::property("host_aliases")
                .doc("Other names of the host, in order.")
                .array_matching(ArrayMatching::All)
                .validate(|_, value| {
                    let text = value_text(value);
                    if valid_host_name(&text) {
                        Ok(())
                    } else {
                        Err(format!("Host aliases cannot include whitespace or be empty, and must be valid host names: {text:?}"))
                    }
                }),
        )
        .attr(
            AttrDef::property("comment")
                .doc("A comment written after the entry.")
                .validate(|_, value| {
                    // Puppet refuses a carriage return as a line break too.
                    if value_text(value).contains(['\n', '\r']) {
                        Err("Comment cannot include newline".into())
                    } else {
                        Ok(())
                    }
                }),
        )
        .attr(
            AttrDef::param("name")
                .doc("The host name.")
                .namevar()
                .validate(|_, value| {
                    let text = value_text(value);
                    if valid_host_name(&text) {
                        Ok(())
                    } else {
                        Err(format!("Invalid host name {text:?}"))
                    }
                }),
        )
        .attr(
            AttrDef::param("target")
                .doc("The hosts file; `/etc/hosts` by default.")
                .validate(|_, value| {
                    if value_text(value).starts_with('/') {
                        Ok(())
                    } else {
                        Err(format!("The target must be an absolute path, not {:?}", value_text(value)))
                    }
                }),
        )
        .validate(|resource| {
            let present = !matches!(resource.get("ensure"), Some(Value::String(s)) if &**s == "absent");
            if present && resource.get("ensure").is_some() && resource.get("ip").is_none() {
                return Err("ip is a required attribute for hosts".into());
            }
            Ok(())
        })
        .auto(marionette_ral::AutoKind::Require, "file", marionette_ral::Titles::Attribute("target".into()))
}

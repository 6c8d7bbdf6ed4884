//! `sshkey`: one host key of a `known_hosts` file, from
//! puppetlabs-sshkeys_core. The type exists only where an `sshkeys_core`
//! module ships it (see [`crate::MODULE_TYPES`]); its attributes are those
//! of the module's `lib/puppet/type/sshkey.rb`. A key is identified by its
//! host name and its key type together (`HOST@TYPE`).

use marionette_ral::attribute::{display_value, value_text};
use marionette_ral::{ArrayMatching, AttrDef, RalError, Registry, TypeDef};
use marionette_values::Value;

use super::ssh_authorized_key::key_type;

/// Adds the type and its provider.
pub fn register(registry: &mut Registry) -> Result<(), RalError> {
    registry.add_type(definition())?;
    registry.add_provider(crate::providers::sshkey::parsed::definition())
}

/// The key types sshkeys_core accepts for host keys.
const HOST_KEY_TYPES: &[&str] = &[
    "ssh-dss",
    "ssh-ed25519",
    "ssh-rsa",
    "ecdsa-sha2-nistp256",
    "ecdsa-sha2-nistp384",
    "ecdsa-sha2-nistp521",
    "sk-ecdsa-sha2-nistp256@openssh.com",
    "sk-ssh-ed25519@openssh.com",
];

/// A list property's values as a list, a single one included.
fn as_list(value: &Value) -> Vec<Value> {
    match value {
        Value::Array(items) => items.iter().cloned().collect(),
        other => vec![other.clone()],
    }
}

pub fn definition() -> TypeDef {
    let mut def = definition_attributes();
    // The module's type names its resources `HOST@TYPE` in messages,
    // whatever their title.
    def.shown_title = Some(std::sync::Arc::new(|resource| {
        Some(format!(
            "{}@{}",
            resource.name(),
            resource.text("type").unwrap_or_default()
        ))
    }));
    def
}

fn definition_attributes() -> TypeDef {
    TypeDef::new("sshkey")
        .doc(
            "Installs and manages ssh host keys, in `/etc/ssh/ssh_known_hosts` by
            default or in the `known_hosts` file `target` names. Other lines of
            the file, hashed host names included, stay.",
        )
        .ensurable()
        .attr(
            AttrDef::param("name")
                .doc("The host name that the key is associated with.")
                .namevar()
                .validate(|_, value| {
                    let text = value_text(value);
                    if text.chars().any(char::is_whitespace) {
                        Err("Resourcename cannot include whitespaces".into())
                    } else if text.contains(',') {
                        Err("No comma in resourcename allowed. If you want to specify aliases use the host_aliases property".into())
                    } else {
                        Ok(())
                    }
                }),
        )
        .attr(key_type(
            AttrDef::param("type")
                .doc("The encryption type used.")
                .namevar(),
            HOST_KEY_TYPES,
        ))
        .attr(AttrDef::property("key").doc("The key itself, without white space."))
        .attr(
            AttrDef::property("host_aliases")
                .doc("Any aliases the host might have, as an array.")
                .array_matching(ArrayMatching::All)
                .validate(|_, value| {
                    for alias in as_list(value) {
                        let text = value_text(&alias);
                        if text.chars().any(char::is_whitespace) {
                            return Err("Aliases cannot include whitespace".into());
                        }
                        if text.contains(',') {
                            return Err("Aliases must be provided as an array, not a comma-separated list".into());
                        }
                    }
                    Ok(())
                })
                // Puppet compares and shows the whole list of aliases, a
                // single one included.
                .format(|value| display_value(&Value::Array(as_list(value).into())))
                .insync(|_, is, should| as_list(is) == as_list(should)),
        )
        .attr(AttrDef::param("target").doc(
            "The file in which to store the ssh key; `/etc/ssh/ssh_known_hosts` by
            default.",
        ))
        .title_pattern(r"\A(.*?)@(.*)\z", &["name", "type"])
        .title_pattern(r"\A([^@]+)\z", &["name"])
}

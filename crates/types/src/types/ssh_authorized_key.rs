//! `ssh_authorized_key`: one key of a user's `authorized_keys` file, from
//! puppetlabs-sshkeys_core. The type exists only where an `sshkeys_core`
//! module ships it (see [`crate::MODULE_TYPES`]); its attributes are those
//! of the module's `lib/puppet/type/ssh_authorized_key.rb`.

use marionette_ral::attribute::{display_value, value_text};
use marionette_ral::{ArrayMatching, AttrDef, AutoKind, RalError, Registry, Titles, TypeDef};
use marionette_values::Value;

/// Adds the type and its provider.
pub fn register(registry: &mut Registry) -> Result<(), RalError> {
    registry.add_type(definition())?;
    registry.add_provider(crate::providers::ssh_authorized_key::parsed::definition())
}

/// The key types sshkeys_core accepts for authorized keys.
pub(crate) const KEY_TYPES: &[&str] = &[
    "ssh-dss",
    "ssh-rsa",
    "ecdsa-sha2-nistp256",
    "ecdsa-sha2-nistp384",
    "ecdsa-sha2-nistp521",
    "ssh-ed25519",
    "sk-ecdsa-sha2-nistp256@openssh.com",
    "sk-ssh-ed25519@openssh.com",
    "ssh-rsa-cert-v01@openssh.com",
    "ssh-ed25519-cert-v01@openssh.com",
    "ssh-dss-cert-v01@openssh.com",
    "ecdsa-sha2-nistp256-cert-v01@openssh.com",
    "ecdsa-sha2-nistp384-cert-v01@openssh.com",
    "ecdsa-sha2-nistp521-cert-v01@openssh.com",
];

/// The short names sshkeys_core accepts for key types, and what they mean.
pub(crate) const KEY_TYPE_ALIASES: &[(&str, &str)] = &[
    ("dsa", "ssh-dss"),
    ("ed25519", "ssh-ed25519"),
    ("rsa", "ssh-rsa"),
    ("ecdsa-sk", "sk-ecdsa-sha2-nistp256@openssh.com"),
    ("ed25519-sk", "sk-ssh-ed25519@openssh.com"),
];

/// A key type attribute: the given types and sshkeys_core's aliases.
pub(crate) fn key_type(attr: AttrDef, types: &[&str]) -> AttrDef {
    KEY_TYPE_ALIASES
        .iter()
        .fold(attr.values(types), |attr, (alias, target)| {
            attr.alias_value(alias, target)
        })
}

pub fn definition() -> TypeDef {
    TypeDef::new("ssh_authorized_key")
        .doc(
            "Manages SSH authorized keys: one line of a user's
            `~/.ssh/authorized_keys` (or of the file `target` names), written as
            `[OPTIONS ]TYPE KEY NAME`. Other lines of the file stay, rewritten in
            that form.",
        )
        .ensurable()
        .attr(
            AttrDef::param("name")
                .doc("The SSH key comment; unique across all users.")
                .namevar(),
        )
        .attr(
            AttrDef::param("drop_privileges")
                .doc(
                    "Whether to write the key file as the target user. Either way
                    the file ends up owned by the user with mode 0600.",
                )
                .boolean()
                .default_value(true),
        )
        .attr(key_type(
            AttrDef::property("type").doc("The encryption type used."),
            KEY_TYPES,
        ))
        .attr(
            AttrDef::property("key")
                .doc("The public key itself, without white space.")
                .validate(|_, value| {
                    let text = value_text(value);
                    if text.chars().any(char::is_whitespace) {
                        Err(format!("Key must not contain whitespace: {text}"))
                    } else {
                        Ok(())
                    }
                }),
        )
        .attr(
            AttrDef::property("user")
                .doc("The user account in which the SSH key should be installed.")
                // The file does not say whose a key is, so Puppet's parsed
                // provider reports the desired user as the current one: the
                // user is never out of sync.
                .insync(|_, _, _| true),
        )
        .attr(AttrDef::param("target").doc(
            "The absolute file name holding the key; `~USER/.ssh/authorized_keys`
            by default.",
        ))
        .attr(
            AttrDef::property("options")
                .doc("Key options (see sshd(8)), as an array.")
                .array_matching(ArrayMatching::All)
                .default_value("absent")
                .validate(|_, value| {
                    let texts: Vec<String> = match value {
                        Value::Array(items) => items.iter().map(value_text).collect(),
                        other => vec![value_text(other)],
                    };
                    for text in texts {
                        if text != "absent" && !valid_option(&text) {
                            return Err(format!("Option {text} is not valid. A single option must either be of the form 'option' or 'option=\"value\"'. Multiple options must be provided as an array"));
                        }
                    }
                    Ok(())
                })
                // Puppet keeps every value of an `array_matching => all`
                // property in a list, a single one included: it shows and
                // compares them so.
                .format(|value| display_value(&Value::Array(option_list(value).into())))
                .insync(|_, is, should| option_list(is) == option_list(should)),
        )
        .validate(|resource| {
            if resource.get("target").is_none() && resource.get("user").is_none() {
                return Err("Attribute 'user' or 'target' is mandatory".into());
            }
            Ok(())
        })
        .auto(AutoKind::Require, "user", Titles::Attribute("user".into()))
}

/// The options as a list of values, a single one included.
fn option_list(value: &Value) -> Vec<Value> {
    match value {
        Value::Array(items) => items.iter().cloned().collect(),
        other => vec![other.clone()],
    }
}

/// sshkeys_core's form of one option: `word` or `word="value"`, the word of
/// letters, digits, `-` and `_` (Ruby's `^[-a-z0-9A-Z_]+(?:=".*?")?$`).
fn valid_option(text: &str) -> bool {
    // Ruby's `^` and `$` hold at any line, so a multi-line option is
    // accepted when one of its lines is.
    text.split('\n').any(|line| {
        let word_end = line
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
            .unwrap_or(line.len());
        if word_end == 0 {
            return false;
        }
        let rest = &line[word_end..];
        rest.is_empty() || (rest.len() >= 3 && rest.starts_with("=\"") && rest.ends_with('"'))
    })
}

//! `ssh_authorized_key` as lines of an `authorized_keys` file, through the
//! parsed-file framework, as sshkeys_core's `parsed` provider reads and
//! writes them: `[OPTIONS ]TYPE KEY NAME`, every key line rewritten in that
//! form whenever the file is written, under Puppet's header.

use std::os::unix::fs::{PermissionsExt, chown};
use std::path::Path;

use marionette_ral::attribute::value_text;
use marionette_ral::parsedfile::{Chunk, ParsedFile, RecordFormat};
use marionette_ral::{PropertyHash, ProviderDef, ProviderError, Resource};
use marionette_values::{Regex, Value};

/// sshkeys_core's key line: options (anything before the type), the type,
/// the key (no spaces) and the comment, the options greedy so that the last
/// type word of the line is the type.
const KEY_LINE: &str = r"^(?:(.+)\s+)?(ssh-dss|ssh-ed25519|ssh-rsa|ecdsa-sha2-nistp256|ecdsa-sha2-nistp384|ecdsa-sha2-nistp521|ecdsa-sk|ed25519-sk|sk-ecdsa-sha2-nistp256@openssh.com|sk-ssh-ed25519@openssh.com|ssh-rsa-cert-v01@openssh.com|ssh-ed25519-cert-v01@openssh.com|ssh-dss-cert-v01@openssh.com|ecdsa-sha2-nistp256-cert-v01@openssh.com|ecdsa-sha2-nistp384-cert-v01@openssh.com|ecdsa-sha2-nistp521-cert-v01@openssh.com)\s+([^ ]+)\s*(.*)$";

/// The record key marking a key line without a comment: its name is made
/// up for matching and is not written back.
const UNNAMED: &str = "unnamed";

struct AuthorizedKeys {
    key_line: Regex,
}

/// Splits sshkeys_core's option string: `word="value"` (quotes may hold
/// commas) or bare words, separated by commas; scanning stops at the first
/// thing that is neither, dropping the rest, as the module's scanner does.
fn parse_options(text: &str) -> Vec<String> {
    let mut options = Vec::new();
    let mut rest = text;
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    while !rest.is_empty() {
        rest = rest.trim_start_matches([' ', '\t']);
        let word_end = rest.find(|c: char| !is_word(c)).unwrap_or(rest.len());
        if word_end == 0 {
            break;
        }
        let mut end = word_end;
        // A quoted value ends at the first quote not escaped by a
        // backslash, with at least one character inside.
        if rest[word_end..].starts_with("=\"") {
            let value_start = word_end + 2;
            let bytes = rest.as_bytes();
            let closing =
                (value_start + 1..bytes.len()).find(|&i| bytes[i] == b'"' && bytes[i - 1] != b'\\');
            if let Some(closing) = closing {
                end = closing + 1;
            }
        }
        options.push(rest[..end].to_string());
        rest = &rest[end..];
        let after = rest.trim_start_matches([' ', '\t']);
        rest = match after.strip_prefix(',') {
            Some(next) => next.trim_start_matches([' ', '\t']),
            None => after,
        };
    }
    options
}

/// The options of a record as a list; `absent` (none) is empty.
fn options_of(record: &PropertyHash) -> Vec<String> {
    match record.get("options") {
        Some(Value::Array(items)) => items
            .iter()
            .map(value_text)
            .filter(|o| o != "absent")
            .collect(),
        Some(other) => Some(value_text(other))
            .filter(|o| o != "absent")
            .into_iter()
            .collect(),
        None => Vec::new(),
    }
}

impl AuthorizedKeys {
    /// The record of a key line, with its comment as the name (empty for an
    /// unnamed key).
    fn parse_key(&self, line: &str) -> Option<PropertyHash> {
        let captures = self.key_line.captures(line)?;
        let field = |i: usize| captures.get(i).cloned().flatten();
        let options: Vec<Value> = match field(1) {
            Some(text) => parse_options(&text)
                .into_iter()
                .map(|o| Value::String(o.into()))
                .collect(),
            None => vec![Value::String("absent".into())],
        };
        let mut record = PropertyHash::new();
        record.insert(
            "name".into(),
            Value::String(field(4).unwrap_or_default().into()),
        );
        record.insert("type".into(), Value::String(field(2)?.into()));
        record.insert("key".into(), Value::String(field(3)?.into()));
        record.insert("options".into(), Value::Array(options.into()));
        Some(record)
    }
}

impl RecordFormat for AuthorizedKeys {
    /// Key lines become records written back in the provider's own form
    /// (Puppet regenerates every record when it writes the file); comments,
    /// blank lines and anything else stay. An unnamed key gets a name made
    /// of the target and its rank, as the module's prefetch hook gives it.
    fn split(&self, target: &str, text: &str) -> Vec<Chunk> {
        let mut unnamed = 0;
        // Ruby's `split("\n")` drops the empty lines at the end.
        let lines: Vec<&str> = text.split('\n').collect();
        let keep = lines
            .iter()
            .rposition(|l| !l.is_empty())
            .map_or(0, |i| i + 1);
        lines[..keep]
            .iter()
            .map(|line| {
                let comment = line.trim_start().starts_with('#') || line.trim().is_empty();
                let record = if comment { None } else { self.parse_key(line) };
                match record {
                    Some(mut record) => {
                        let text = self.render(&record).unwrap_or_else(|_| line.to_string());
                        if record.get("name").is_some_and(|n| value_text(n).is_empty()) {
                            unnamed += 1;
                            let name = format!("{target}:unnamed-{unnamed}");
                            record.insert("name".into(), Value::String(name.into()));
                            record.insert(UNNAMED.into(), Value::Boolean(true));
                        }
                        Chunk {
                            text,
                            record: Some(record),
                        }
                    }
                    None => Chunk {
                        text: line.to_string(),
                        record: None,
                    },
                }
            })
            .collect()
    }

    /// `[OPTIONS ]TYPE KEY NAME`: the options joined by commas; an unnamed
    /// key keeps the space before its empty comment, as Puppet writes it.
    fn render(&self, record: &PropertyHash) -> Result<String, String> {
        let field = |name: &str| record.get(name).map(value_text);
        let key_type = field("type").ok_or("Field 'type' is required")?;
        let key = field("key").ok_or("Field 'key' is required")?;
        let name = if record.contains_key(UNNAMED) {
            String::new()
        } else {
            field("name").unwrap_or_default()
        };
        let options = options_of(record).join(",");
        let line = format!("{options} {key_type} {key} {name}");
        Ok(line.trim_start().to_string())
    }

    fn default_target(&self) -> String {
        String::new()
    }

    /// The key's `target`, else `~USER/.ssh/authorized_keys`; nothing when
    /// the user does not exist.
    fn target(&self, resource: &Resource) -> String {
        if let Some(target) = resource.text("target") {
            return target;
        }
        resource
            .text("user")
            .and_then(|user| lookup_user(&user))
            .map(|(_, _, home)| format!("{home}/.ssh/authorized_keys"))
            .unwrap_or_default()
    }

    fn listed_targets(&self, _cx: &marionette_ral::provider::Context) -> Vec<String> {
        Vec::new()
    }

    fn header(&self) -> bool {
        true
    }

    /// The user must exist; the directory of the file is made (mode 0700,
    /// owned by the user) when missing, as the module does as the user.
    fn before_write(&self, resource: &Resource, target: &str) -> Result<(), ProviderError> {
        let user = resource
            .text("user")
            .ok_or_else(|| ProviderError::new("Cannot write SSH authorized keys without user"))?;
        let (uid, gid, _) = lookup_user(&user)
            .ok_or_else(|| ProviderError::new(format!("User '{user}' does not exist")))?;
        let dir = Path::new(target).parent().unwrap_or(Path::new("/"));
        if !dir.exists() {
            std::fs::create_dir(dir)
                .and_then(|()| std::fs::set_permissions(dir, PermissionsExt::from_mode(0o700)))
                .and_then(|()| chown(dir, Some(uid), Some(gid)))
                .map_err(|e| {
                    ProviderError::new(format!("Could not create {}: {e}", dir.display()))
                })?;
        }
        Ok(())
    }

    /// The file gets mode 0600; one the writing created belongs to the user,
    /// as when the module writes it as the user, and with
    /// `drop_privileges => false` the module hands it to the user in any
    /// case.
    fn after_write(
        &self,
        resource: &Resource,
        target: &str,
        created: bool,
    ) -> Result<(), ProviderError> {
        let failed =
            |e: std::io::Error| ProviderError::new(format!("Could not set up {target}: {e}"));
        std::fs::set_permissions(target, PermissionsExt::from_mode(0o600)).map_err(failed)?;
        let drop_privileges = resource
            .get("drop_privileges")
            .is_none_or(|v| value_text(v) == "true");
        if (created || !drop_privileges)
            && let Some((uid, gid, _)) = resource.text("user").and_then(|u| lookup_user(&u))
        {
            chown(target, Some(uid), Some(gid)).map_err(failed)?;
        }
        Ok(())
    }
}

/// The names of an `authorized_keys` file's keys as Puppet's `user` reads
/// them to purge what the catalog does not manage: every line the key
/// pattern matches, by its comment, else `FILE:unnamed-N`.
pub(crate) fn key_names(keyfile: &str, text: &str) -> Vec<String> {
    let Ok(key_line) = Regex::new(KEY_LINE) else {
        return Vec::new();
    };
    let mut unnamed = 0;
    text.lines()
        .filter_map(|line| key_line.captures(line))
        .map(|captures| match captures.get(4).cloned().flatten() {
            Some(name) if !name.is_empty() => name,
            _ => {
                unnamed += 1;
                format!("{keyfile}:unnamed-{unnamed}")
            }
        })
        .collect()
}

/// A user's uid, primary gid and home directory, from the system's user
/// database.
pub(crate) fn lookup_user(name: &str) -> Option<(u32, u32, String)> {
    let entries = crate::system::passwd(Path::new("/")).ok()?;
    let entry = entries.into_iter().find(|e| e.name == name)?;
    Some((
        u32::try_from(entry.uid).ok()?,
        u32::try_from(entry.gid).ok()?,
        entry.home,
    ))
}

pub fn definition() -> ProviderDef {
    let key_line = Regex::new(KEY_LINE).unwrap_or_else(|e| panic!("invalid key line pattern: {e}"));
    ProviderDef::properties(
        "ssh_authorized_key",
        "parsed",
        ParsedFile {
            format: AuthorizedKeys { key_line },
        },
    )
    .doc("Parse and generate authorized_keys files for SSH.")
    .confine(marionette_ral::Confine::Feature("posix".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_keep_quoted_commas() {
        assert_eq!(
            parse_options(r#"command="/bin/echo a,b",no-pty, from="x""#),
            ["command=\"/bin/echo a,b\"", "no-pty", "from=\"x\""]
        );
        assert_eq!(parse_options("a,!b,c"), ["a"]);
    }
}

//! `sshkey` as lines of a `known_hosts` file, through the parsed-file
//! framework, as sshkeys_core's `parsed` provider reads and writes them:
//! `HOST[,ALIAS...] TYPE KEY`, every key line rewritten in that form
//! whenever the file is written, under Puppet's header. Hashed host names
//! (`|1|...`) are records no resource names, so they stay.

use marionette_ral::attribute::value_text;
use marionette_ral::parsedfile::{Chunk, ParsedFile, RecordFormat};
use marionette_ral::{PropertyHash, ProviderDef, Resource};
use marionette_values::Value;

struct KnownHosts;

/// A record's identity as the module spells a resource's: `HOST@TYPE`.
fn identity(name: &str, key_type: &str) -> String {
    format!("{name}@{key_type}")
}

impl KnownHosts {
    /// The record of a line split at white space: the names (the first the
    /// host, the others its aliases), the type, and the key with whatever
    /// follows it.
    fn parse_key(line: &str) -> PropertyHash {
        // Ruby's `split(/\s+/)` keeps an empty first field before leading
        // white space.
        let mut fields: Vec<&str> = line.split([' ', '\t']).filter(|f| !f.is_empty()).collect();
        if line.starts_with([' ', '\t']) {
            fields.insert(0, "");
        }
        let mut names = fields.first().copied().unwrap_or_default().split(',');
        let name = names.next().unwrap_or_default();
        let aliases: Vec<Value> = names.map(|a| Value::String(a.into())).collect();
        let mut record = PropertyHash::new();
        record.insert("name".into(), Value::String(name.into()));
        record.insert("host_aliases".into(), Value::Array(aliases.into()));
        let absent = || Value::String("absent".into());
        record.insert(
            "type".into(),
            fields
                .get(1)
                .map_or_else(absent, |t| Value::String((*t).into())),
        );
        let key = fields
            .get(2..)
            .filter(|rest| !rest.is_empty())
            .map(|rest| rest.join(" "));
        record.insert(
            "key".into(),
            key.map_or_else(absent, |k| Value::String(k.into())),
        );
        record
    }
}

impl RecordFormat for KnownHosts {
    /// Lines starting with `#` and blank lines stay as they are; every
    /// other line is a record, written back in the provider's own form.
    fn split(&self, _target: &str, text: &str) -> Vec<Chunk> {
        // Ruby's `split("\n")` drops the empty lines at the end.
        let lines: Vec<&str> = text.split('\n').collect();
        let keep = lines
            .iter()
            .rposition(|l| !l.is_empty())
            .map_or(0, |i| i + 1);
        lines[..keep]
            .iter()
            .map(|line| {
                if line.starts_with('#') || line.trim().is_empty() {
                    return Chunk {
                        text: line.to_string(),
                        record: None,
                    };
                }
                let record = Self::parse_key(line);
                Chunk {
                    text: self.render(&record).unwrap_or_else(|_| line.to_string()),
                    record: Some(record),
                }
            })
            .collect()
    }

    /// `HOST[,ALIAS...] TYPE KEY`.
    fn render(&self, record: &PropertyHash) -> Result<String, String> {
        let field = |name: &str| {
            record
                .get(name)
                .map(value_text)
                .filter(|v| v != "absent")
                .ok_or_else(|| format!("Field '{name}' is required"))
        };
        let mut names = vec![field("name")?];
        match record.get("host_aliases") {
            Some(Value::Array(aliases)) => names.extend(aliases.iter().map(value_text)),
            Some(Value::String(alias)) if &**alias != "absent" => names.push(alias.to_string()),
            _ => {}
        }
        Ok(format!(
            "{} {} {}",
            names.join(","),
            field("type")?,
            field("key")?
        ))
    }

    fn default_target(&self) -> String {
        "/etc/ssh/ssh_known_hosts".to_string()
    }

    fn header(&self) -> bool {
        true
    }

    fn identity(&self, resource: &Resource) -> String {
        identity(&resource.name(), &resource.text("type").unwrap_or_default())
    }

    fn record_identity(&self, record: &PropertyHash) -> Option<String> {
        let text = |name: &str| record.get(name).map(value_text);
        Some(identity(&text("name")?, &text("type")?))
    }

    fn new_record(&self, resource: &Resource) -> PropertyHash {
        let mut record = PropertyHash::new();
        record.insert("name".into(), Value::String(resource.name().into()));
        if let Some(key_type) = resource.text("type") {
            record.insert("type".into(), Value::String(key_type.into()));
        }
        record
    }
}

pub fn definition() -> ProviderDef {
    ProviderDef::properties("sshkey", "parsed", ParsedFile { format: KnownHosts })
        .doc("Parse and generate host-wide known hosts files for SSH.")
        .confine(marionette_ral::Confine::Feature("posix".into()))
}

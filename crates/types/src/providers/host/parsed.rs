//! `host` as lines of a hosts file, through the parsed-file framework:
//! `ADDRESS<TAB>NAME[<TAB>ALIAS...][<TAB># COMMENT]`.

use marionette_ral::attribute::value_text;
use marionette_ral::parsedfile::{ParsedFile, RecordFormat};
use marionette_ral::{PropertyHash, ProviderDef};
use marionette_values::Value;

struct HostsFile;

impl RecordFormat for HostsFile {
    fn parse(&self, line: &str) -> Option<PropertyHash> {
        let (entry, comment) = match line.split_once('#') {
            Some((entry, comment)) => (entry, Some(comment.trim())),
            None => (line, None),
        };
        let mut words = entry.split_whitespace();
        let ip = words.next()?;
        let name = words.next()?;
        let aliases: Vec<Value> = words.map(|a| Value::String(a.into())).collect();
        let mut record = PropertyHash::new();
        record.insert("name".into(), Value::String(name.into()));
        record.insert("ip".into(), Value::String(ip.into()));
        if !aliases.is_empty() {
            record.insert("host_aliases".into(), Value::Array(aliases.into()));
        }
        if let Some(comment) = comment.filter(|c| !c.is_empty()) {
            record.insert("comment".into(), Value::String(comment.into()));
        }
        Some(record)
    }

    fn render(&self, record: &PropertyHash) -> Result<String, String> {
        let field = |name: &str| record.get(name).map(value_text);
        let ip = field("ip").ok_or("a host entry needs an ip")?;
        let name = field("name").ok_or("a host entry needs a name")?;
        let mut line = format!("{ip}\t{name}");
        match record.get("host_aliases") {
            Some(Value::Array(aliases)) if !aliases.is_empty() => {
                for alias in aliases.iter() {
                    line.push('\t');
                    line.push_str(&value_text(alias));
                }
            }
            Some(Value::String(alias)) if !alias.is_empty() && &**alias != "absent" => {
                line.push('\t');
                line.push_str(alias);
            }
            _ => {}
        }
        if let Some(comment) = field("comment").filter(|c| !c.is_empty() && c != "absent") {
            line.push_str("\t# ");
            line.push_str(&comment);
        }
        Ok(line)
    }

    fn default_target(&self) -> String {
        "/etc/hosts".to_string()
    }
}

pub fn definition() -> ProviderDef {
    ProviderDef::properties("host", "parsed", ParsedFile { format: HostsFile })
        .doc(
            "Reads and writes the hosts file directly, one line per entry; lines it
            does not manage stay as they are.",
        )
        .confine(marionette_ral::Confine::Feature("posix".into()))
        // As host_core's: without a hosts file (a bare debootstrap root)
        // there is no provider to make one, whatever the target.
        .confine(marionette_ral::Confine::Exists("/etc/hosts".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// host_core's provider is confined to an existing hosts file: a root
    /// without one (debootstrap's) has no provider for `host`, rather
    /// than one that makes the file (tests/forge's 0058, beside Puppet).
    #[test]
    fn the_provider_needs_a_hosts_file() {
        let confines = definition().confines;
        assert!(
            confines.iter().any(|c| matches!(
                c,
                marionette_ral::Confine::Exists(path) if path == std::path::Path::new("/etc/hosts")
            )),
            "no confine on /etc/hosts"
        );
    }
}

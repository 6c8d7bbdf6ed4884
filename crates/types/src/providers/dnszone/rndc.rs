//! `rndc`: adds and deletes zones of a running BIND through its control
//! channel.
//!
//! Whether a zone exists is asked with `rndc zonestatus ZONE`, once per
//! zone per run: it answers for every zone `named` serves, and says which
//! file the zone is loaded from and whether it was added at run time
//! (`reconfigurable via modzone: yes`), as opposed to configured in
//! named.conf. Only zones added at run time are deleted: `rndc delzone`
//! on a zone of named.conf lasts only until the next reload.
//!
//! Every command goes through the RAL's runner as an argv, never a shell,
//! and every value written into the `rndc addzone` configuration text or
//! the zone file has been validated (names, paths without quotes, braces
//! or semicolons), so a value cannot add configuration of its own.

use std::collections::HashMap;
use std::fs;
use std::io::Write;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use marionette_dns::{Key, Name};
use marionette_ral::attribute::value_text;
use marionette_ral::command::CommandSpec;
use marionette_ral::{
    CommandError, Context, Instance, PropertyHash, PropertyProvider, ProviderDef, ProviderError,
    Resource,
};
use marionette_values::Value;

use crate::types::dnszone::{DEFAULT_ZONEDIR, config_path, soa_contact, zone_name};

/// How long one rndc command may take. rndc gives up on an unreachable
/// server by itself after a minute; a run should not wait that long.
const RNDC_TIMEOUT: Duration = Duration::from_secs(30);

/// A zone as `named` reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Status {
    /// The zone file, as configured.
    file: Option<String>,
    /// Added with `rndc addzone`, not configured in named.conf.
    added: bool,
}

/// The provider, with what this run learned of each resource's zone.
struct Rndc {
    zones: Mutex<HashMap<String, Result<Option<Status>, String>>>,
}

/// How to reach rndc: the parameters of a resource or of a listing.
struct Access<'a> {
    get: &'a dyn Fn(&str) -> Option<Value>,
}

impl Access<'_> {
    /// `rndc [-c CONFIG] [-s SERVER] [-p PORT] ARGS...`.
    fn argv(&self, args: &[&str]) -> Vec<String> {
        let mut argv = vec!["rndc".to_string()];
        for (flag, attr) in [
            ("-c", "rndc_config"),
            ("-s", "rndc_server"),
            ("-p", "rndc_port"),
        ] {
            if let Some(value) = (self.get)(attr) {
                argv.push(flag.into());
                argv.push(value_text(&value));
            }
        }
        argv.extend(args.iter().map(|a| a.to_string()));
        argv
    }

    /// Runs rndc; the output when it succeeded, else what it printed.
    fn run(&self, cx: &Context, args: &[&str]) -> Result<Result<String, String>, ProviderError> {
        let spec = CommandSpec::new(&self.argv(args))
            .unchecked()
            .timeout(RNDC_TIMEOUT);
        let output = match cx.run(&spec) {
            Ok(output) => output,
            Err(CommandError::NotFound(_)) => {
                return Err(ProviderError::new(
                    "rndc is not installed (Debian's bind9-utils has it)",
                ));
            }
            Err(e) => return Err(ProviderError(e.to_string())),
        };
        if output.success() {
            Ok(Ok(output.stdout))
        } else {
            let printed = format!("{}\n{}", output.stderr.trim(), output.stdout.trim());
            Ok(Err(printed.trim().replace('\n', "; ")))
        }
    }

    /// The zone's status, or `None` when `named` does not serve it.
    fn zonestatus(&self, cx: &Context, zone: &Name) -> Result<Option<Status>, String> {
        let zone_text = zone.to_string();
        match self.run(cx, &["zonestatus", &zone_text]).map_err(|e| e.0)? {
            Ok(text) => Ok(Some(parse_status(&text))),
            // rndc's words for a zone no view has: "'zonestatus' failed:
            // not found; no matching zone 'x' in any view".
            Err(printed) if printed.contains("no matching zone") => Ok(None),
            Err(printed) => Err(format!("rndc zonestatus {zone} failed: {printed}")),
        }
    }
}

/// Reads `rndc zonestatus` output: `files: PATH` and `reconfigurable via
/// modzone: yes|no` are the lines that matter.
fn parse_status(text: &str) -> Status {
    let mut status = Status {
        file: None,
        added: false,
    };
    for line in text.lines() {
        if let Some(files) = line.strip_prefix("files:") {
            status.file = files.split_whitespace().next().map(str::to_string);
        } else if let Some(flag) = line.strip_prefix("reconfigurable via modzone:") {
            status.added = flag.trim() == "yes";
        }
    }
    status
}

fn attr_getter(resource: &Resource) -> impl Fn(&str) -> Option<Value> + '_ {
    |attr| resource.get(attr).cloned()
}

/// The zone file of a zone in a directory.
fn zone_path(zonedir: &str, zone: &Name) -> PathBuf {
    Path::new(zonedir).join(format!("{zone}.zone"))
}

/// The name of the key the zone allows updates and transfers with: from
/// `keyfile` or `keyname`.
fn key_name(resource: &Resource) -> Result<Option<String>, String> {
    if let Some(file) = resource.text("keyfile") {
        let key = Key::from_file(Path::new(&file))?;
        return Ok(Some(key.name.to_string()));
    }
    Ok(resource.text("keyname"))
}

/// The text of a new zone: `$TTL`, the SOA with serial 1, the NS record
/// and, for a name server inside the zone, its address, without which
/// named refuses to load the zone.
fn zone_file(
    zone: &Name,
    nameserver: &Name,
    address: Option<std::net::IpAddr>,
    contact: &str,
) -> String {
    // Refresh an hour, retry 15 minutes, expire after two weeks, and
    // negative answers cached 5 minutes: RFC 1912's advice for a zone that
    // changes through dynamic updates and should not linger in caches
    // when absent.
    let mut text = format!(
        "; Written by marionette (dnszone {zone}); named keeps the changes in its journal.\n\
         $TTL 3600\n\
         {zone}.\tIN\tSOA\t{nameserver}. {contact} ( 1 3600 900 1209600 300 )\n\
         {zone}.\tIN\tNS\t{nameserver}.\n"
    );
    if let Some(address) = address {
        let rtype = if address.is_ipv4() { "A" } else { "AAAA" };
        text.push_str(&format!("{nameserver}.\tIN\t{rtype}\t{address}\n"));
    }
    text
}

/// The configuration given to `rndc addzone`. Every piece was validated
/// to hold no quote, brace or semicolon.
fn zone_config(path: &Path, key: Option<&str>) -> String {
    let mut config = format!("{{ type primary; file \"{}\";", path.display());
    if let Some(key) = key {
        config.push_str(&format!(
            " allow-update {{ key \"{key}\"; }}; allow-transfer {{ key \"{key}\"; }};"
        ));
    }
    config.push_str(" };");
    config
}

/// Writes a file through a temporary one renamed over it, so named never
/// reads half a file; it belongs to the directory's owner and group (on
/// Debian, named's own `bind`), since named rewrites its zone files.
fn write_zone_file(path: &Path, text: &str) -> Result<(), String> {
    let dir = path.parent().unwrap_or(Path::new("/"));
    let failure =
        |what: &str, e: std::io::Error| format!("Could not {what} {}: {e}", path.display());
    let meta = fs::metadata(dir)
        .map_err(|e| format!("The zone directory {} cannot be used: {e}", dir.display()))?;
    let temp = dir.join(format!(
        ".{}.marionette-{}",
        path.file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default(),
        std::process::id()
    ));
    let result = (|| {
        let mut file = fs::File::create(&temp).map_err(|e| failure("write", e))?;
        file.write_all(text.as_bytes())
            .and_then(|()| file.sync_all())
            .map_err(|e| failure("write", e))?;
        fs::set_permissions(&temp, fs::Permissions::from_mode(0o644))
            .map_err(|e| failure("set the mode of", e))?;
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } == 0 {
            std::os::unix::fs::chown(&temp, Some(meta.uid()), Some(meta.gid()))
                .map_err(|e| failure("set the owner of", e))?;
        }
        fs::rename(&temp, path).map_err(|e| failure("replace", e))
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temp);
    }
    result
}

impl Rndc {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Result<Option<Status>, String>>> {
        // A panic elsewhere cannot leave the map inconsistent: at worst a
        // zone is asked about again.
        self.zones.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The status of a resource's zone, asked now if prefetching did not.
    fn status(&self, cx: &Context, resource: &Resource) -> Result<Option<Status>, ProviderError> {
        let key = resource.reference();
        if let Some(known) = self.lock().get(&key) {
            return known.clone().map_err(ProviderError);
        }
        let result = ask(cx, resource);
        self.lock().insert(key, result.clone());
        result.map_err(ProviderError)
    }

    fn create(&self, cx: &Context, resource: &Resource) -> Result<Status, String> {
        let zone = zone_name(&resource.text("name").unwrap_or_default())?;
        let zonedir = resource
            .text("zonedir")
            .unwrap_or_else(|| DEFAULT_ZONEDIR.into());
        config_path(&zonedir)?;
        let path = zone_path(&zonedir, &zone);
        let nameserver = match resource.text("nameserver") {
            Some(name) => name,
            None => cx
                .fact("networking.fqdn")
                .or_else(|| cx.fact("fqdn"))
                .filter(|f| f.contains('.'))
                .ok_or("nameserver is not set and this machine's fully qualified name (the networking.fqdn fact) is unknown: set nameserver")?,
        };
        let nameserver = Name::parse(&nameserver).map_err(|e| e.to_string())?;
        let address = match resource.text("nameserver_address") {
            Some(text) => Some(
                text.parse::<std::net::IpAddr>()
                    .map_err(|_| format!("Invalid IP address {text:?}"))?,
            ),
            None => None,
        };
        if nameserver.is_within(&zone) && address.is_none() {
            return Err(format!(
                "The nameserver {nameserver} lies inside zone {zone}: give its address with nameserver_address"
            ));
        }
        let address = address.filter(|_| nameserver.is_within(&zone));
        let email = resource
            .text("email")
            .unwrap_or_else(|| format!("hostmaster@{zone}"));
        let contact = soa_contact(&email)?;
        let key = key_name(resource)?;
        if let Some(key) = &key {
            Name::parse(key).map_err(|e| format!("Invalid key name: {e}"))?;
        }
        // named does not serve the zone, so neither file is in use: a file
        // left by an earlier zone of that name is kept in the filebucket
        // before it is replaced, and a journal is removed, since named
        // would replay it onto the new zone.
        if path.exists()
            && let Some(bucket) = &cx.filebucket
        {
            bucket
                .backup(&path)
                .map_err(|e| format!("Could not back up {}: {e}", path.display()))?;
        }
        let journal = PathBuf::from(format!("{}.jnl", path.display()));
        match fs::remove_file(&journal) {
            Ok(()) => cx.logger.debug(
                &resource.reference(),
                &format!("Removed the stale journal {}", journal.display()),
            ),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(format!("Could not remove {}: {e}", journal.display())),
        }
        write_zone_file(&path, &zone_file(&zone, &nameserver, address, &contact))?;
        let config = zone_config(&path, key.as_deref());
        let access = Access {
            get: &attr_getter(resource),
        };
        let zone_text = zone.to_string();
        let result = access
            .run(cx, &["addzone", &zone_text, &config])
            .map_err(|e| e.0)?;
        if let Err(printed) = result {
            // The zone was not added: the file would only mislead.
            let _ = fs::remove_file(&path);
            return Err(format!(
                "rndc addzone {zone} failed: {printed} (named's log says why; the server needs allow-new-zones yes)"
            ));
        }
        Ok(Status {
            file: Some(path.display().to_string()),
            added: true,
        })
    }

    fn delete(&self, cx: &Context, resource: &Resource, status: &Status) -> Result<(), String> {
        let zone = zone_name(&resource.text("name").unwrap_or_default())?;
        if !status.added {
            return Err(format!(
                "The zone {zone} is configured in named.conf, not added at run time: remove it there"
            ));
        }
        let access = Access {
            get: &attr_getter(resource),
        };
        let zone_text = zone.to_string();
        match access
            .run(cx, &["delzone", "-clean", &zone_text])
            .map_err(|e| e.0)?
        {
            Ok(_) => Ok(()),
            Err(printed) => Err(format!("rndc delzone {zone} failed: {printed}")),
        }
    }
}

/// Asks named about a resource's zone.
fn ask(cx: &Context, resource: &Resource) -> Result<Option<Status>, String> {
    let zone = zone_name(&resource.text("name").unwrap_or_default())?;
    let get = attr_getter(resource);
    Access { get: &get }.zonestatus(cx, &zone)
}

fn ensure_hash(name: &str, present: bool) -> PropertyHash {
    PropertyHash::from([
        ("name".to_string(), Value::String(name.into())),
        (
            "ensure".to_string(),
            Value::String(if present { "present" } else { "absent" }.into()),
        ),
    ])
}

impl PropertyProvider for Rndc {
    /// The zones this provider manages: each `<zone>.zone` file in
    /// `zonedir` that named serves from that very file, as a zone added at
    /// run time (zones of named.conf are not this provider's). The directory and
    /// the rndc parameters come from the listing:
    /// `marionette resource dnszone [zonedir=DIR] [rndc_config=FILE] [rndc_server=HOST] [rndc_port=PORT]`.
    fn instances(&self, cx: &Context) -> Result<Vec<PropertyHash>, ProviderError> {
        let listing = &cx.listing;
        let zonedir = listing
            .get("zonedir")
            .map(value_text)
            .unwrap_or_else(|| DEFAULT_ZONEDIR.into());
        let zonedir = zonedir.trim_end_matches('/').to_string();
        let entries = match fs::read_dir(&zonedir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(ProviderError(format!("Could not list {zonedir}: {e}"))),
        };
        let mut zones: Vec<Name> = entries
            .filter_map(|entry| {
                let file = entry.ok()?.file_name().into_string().ok()?;
                zone_name(file.strip_suffix(".zone")?).ok()
            })
            .collect();
        zones.sort();
        let get = |attr: &str| listing.get(attr).cloned();
        let access = Access { get: &get };
        let mut found = Vec::new();
        for zone in zones {
            let path = zone_path(&zonedir, &zone).display().to_string();
            if let Some(status) = access.zonestatus(cx, &zone).map_err(ProviderError)?
                && status.added
                && status.file.as_deref() == Some(path.as_str())
            {
                found.push(ensure_hash(&zone.to_string(), true));
            }
        }
        Ok(found)
    }

    /// Asks named about each managed zone, once.
    fn prefetch(&self, cx: &Context, instances: &mut [Instance<'_>]) -> Result<(), ProviderError> {
        let mut zones = self.lock();
        zones.clear();
        for instance in instances {
            let result = ask(cx, instance.resource);
            if let Ok(status) = &result {
                instance.property_hash = ensure_hash(&instance.resource.name(), status.is_some());
            }
            zones.insert(instance.resource.reference(), result);
        }
        Ok(())
    }

    fn exists(&self, cx: &Context, instance: &Instance<'_>) -> Result<bool, ProviderError> {
        Ok(self.status(cx, instance.resource)?.is_some())
    }

    /// Adds or deletes the zone, as `create` or `destroy` recorded.
    fn flush(&self, cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        let current = self.status(cx, instance.resource)?;
        let wanted = instance
            .property_hash
            .get("ensure")
            .map(value_text)
            .unwrap_or_else(|| "present".into());
        let after = match (wanted.as_str(), current) {
            ("absent", Some(status)) => {
                self.delete(cx, instance.resource, &status)
                    .map_err(ProviderError)?;
                None
            }
            ("present", None) => Some(self.create(cx, instance.resource).map_err(ProviderError)?),
            (_, current) => current,
        };
        self.lock().insert(instance.resource.reference(), Ok(after));
        Ok(())
    }
}

pub fn definition() -> ProviderDef {
    ProviderDef::properties(
        "dnszone",
        "rndc",
        Rndc {
            zones: Mutex::new(HashMap::new()),
        },
    )
    .doc(
        "Adds zones to a running BIND with `rndc addzone` (after writing the zone file)
        and deletes them with `rndc delzone -clean`; whether a zone exists is asked with
        `rndc zonestatus`, once per zone per run. Lists the zones it added:
        `marionette resource dnszone [zonedir=DIR] [rndc_config=FILE]` shows each
        `<zone>.zone` file of the directory that named serves as a zone added at run
        time. Needs `rndc` (Debian's `bind9-utils`) and a server with
        `allow-new-zones yes;`.",
    )
    .command("rndc", "rndc")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zonestatus_output_is_read() {
        let added = "name: b.example\ntype: primary\nfiles: /var/lib/bind/b.example.zone\nserial: 1\nreconfigurable via modzone: yes\n";
        assert_eq!(
            parse_status(added),
            Status {
                file: Some("/var/lib/bind/b.example.zone".into()),
                added: true
            }
        );
        let configured = "name: a.example\nfiles: /etc/bind/db.a\nreconfigurable via modzone: no\n";
        assert!(!parse_status(configured).added);
    }

    #[test]
    fn the_zone_file_has_an_address_for_an_in_zone_name_server() {
        let zone = Name::parse("example.com").unwrap();
        let inside = Name::parse("ns1.example.com").unwrap();
        let text = zone_file(
            &zone,
            &inside,
            Some("192.0.2.53".parse().unwrap()),
            "hostmaster.example.com.",
        );
        assert!(text.contains(
            "example.com.\tIN\tSOA\tns1.example.com. hostmaster.example.com. ( 1 3600 900 1209600 300 )\n"
        ));
        assert!(text.contains("example.com.\tIN\tNS\tns1.example.com.\n"));
        assert!(text.ends_with("ns1.example.com.\tIN\tA\t192.0.2.53\n"));
        let v6 = zone_file(
            &zone,
            &inside,
            Some("2001:db8::53".parse().unwrap()),
            "h.example.com.",
        );
        assert!(v6.ends_with("ns1.example.com.\tIN\tAAAA\t2001:db8::53\n"));
    }

    #[test]
    fn the_addzone_configuration_names_the_key_for_updates_and_transfers() {
        let path = Path::new("/var/lib/bind/example.com.zone");
        assert_eq!(
            zone_config(path, Some("update-key")),
            "{ type primary; file \"/var/lib/bind/example.com.zone\"; allow-update { key \"update-key\"; }; allow-transfer { key \"update-key\"; }; };"
        );
        assert_eq!(
            zone_config(path, None),
            "{ type primary; file \"/var/lib/bind/example.com.zone\"; };"
        );
    }

    #[test]
    fn rndc_arguments_come_from_the_parameters() {
        let get = |attr: &str| match attr {
            "rndc_config" => Some(Value::String("/etc/bind/rndc.conf".into())),
            "rndc_port" => Some(Value::Integer(953)),
            _ => None,
        };
        assert_eq!(
            Access { get: &get }.argv(&["zonestatus", "example.com"]),
            [
                "rndc",
                "-c",
                "/etc/bind/rndc.conf",
                "-p",
                "953",
                "zonestatus",
                "example.com"
            ]
        );
    }
}

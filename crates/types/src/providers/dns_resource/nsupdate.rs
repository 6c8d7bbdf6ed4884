//! `nsupdate`: writes each update as a script for BIND's `nsupdate`,
//! given on standard input and never through a shell. Reading is shared
//! with `rfc2136`; `nsupdate` cannot read.
//!
//! Every line of the script is built from parsed and validated values,
//! printed back in canonical form: a value cannot end a line early or add
//! a command of its own.

use marionette_dns::message::{CLASS_ANY, CLASS_NONE};
use marionette_dns::{DnsError, Rcode, Record, UpdateBuilder};
use marionette_ral::command::CommandSpec;
use marionette_ral::{CommandError, Context, ProviderDef};

use super::{Records, Sender};
use crate::dns::Server;

struct Nsupdate;

/// One record of an update as an `nsupdate` command.
fn command(section: &str, record: &Record) -> String {
    let data = record
        .rdata
        .as_ref()
        .map(|d| format!(" {}", d.zone_file_text()))
        .unwrap_or_default();
    let (name, rtype) = (&record.name, record.rtype);
    match (section, record.class) {
        ("prereq", CLASS_NONE) => format!("prereq nxrrset {name}. {rtype}"),
        ("prereq", _) => format!("prereq yxrrset {name}. {rtype}{data}"),
        (_, CLASS_ANY) | (_, CLASS_NONE) => format!("update delete {name}. {rtype}{data}"),
        _ => format!("update add {name}. {} {rtype}{data}", record.ttl),
    }
}

/// The script for one update. Keys given as `keyname`/`secret` are
/// written into it, so the secret never appears in a process list.
fn script(
    server: &Server,
    update: &UpdateBuilder,
    inline_key: Option<String>,
) -> Result<String, String> {
    let mut lines = vec![format!("server {} {}", server.address().ip(), server.port)];
    if let Some(key) = inline_key {
        lines.push(key);
    }
    lines.push(format!("zone {}.", update.zone()));
    lines.extend(update.prerequisites().iter().map(|r| command("prereq", r)));
    lines.extend(update.updates().iter().map(|r| command("update", r)));
    lines.push("send".into());
    // Values were validated and printed canonically, so this cannot
    // happen; it stays as the last line of defence against injection.
    if let Some(line) = lines.iter().find(|l| l.contains(['\n', '\r'])) {
        return Err(format!(
            "refusing an nsupdate command that spans lines: {line:?}"
        ));
    }
    Ok(lines.join("\n") + "\n")
}

/// Turns what `nsupdate` printed into the messages `rfc2136` gives.
fn failure(server: &Server, update: &UpdateBuilder, output: &str) -> String {
    let lower = output.to_ascii_lowercase();
    let address = server.address();
    let error = if lower.contains("tsig") {
        DnsError::Tsig {
            key: server
                .key
                .as_ref()
                .map(|k| k.name.to_string())
                .unwrap_or_default(),
            failure: marionette_dns::tsig::TsigFailure::BadMac,
        }
    } else if lower.contains("timed out") || lower.contains("no servers could be reached") {
        DnsError::Timeout {
            server: address,
            seconds: server.timeout as f64,
        }
    } else if lower.contains("update failed: refused") {
        DnsError::UpdateRefused {
            server: address,
            zone: update.zone().clone(),
        }
    } else if lower.contains("update failed: notzone") {
        DnsError::NotZone {
            zone: update.zone().clone(),
        }
    } else if lower.contains("update failed: notauth") {
        DnsError::NotAuthoritative {
            server: address,
            zone: update.zone().clone(),
        }
    } else if let Some(rcode) = ["YXRRSET", "NXRRSET", "YXDOMAIN", "NXDOMAIN"]
        .into_iter()
        .find(|code| output.contains(&format!("update failed: {code}")))
    {
        let rcode = match rcode {
            "YXRRSET" => Rcode::YxRrset,
            "NXRRSET" => Rcode::NxRrset,
            "YXDOMAIN" => Rcode::YxDomain,
            _ => Rcode::NxDomain,
        };
        DnsError::Changed {
            server: address,
            what: update.subject(),
            rcode,
        }
    } else {
        return format!("nsupdate failed: {}", output.trim());
    };
    error.to_string()
}

impl Sender for Nsupdate {
    fn send(&self, cx: &Context, server: &Server, update: &UpdateBuilder) -> Result<(), String> {
        let mut argv = vec![
            "nsupdate".to_string(),
            "-t".into(),
            server.timeout.to_string(),
        ];
        let inline_key = match (&server.key, &server.keyfile) {
            (Some(_), Some(file)) => {
                argv.extend(["-k".to_string(), file.clone()]);
                None
            }
            (Some(key), None) => Some(format!(
                "key {}:{} {}",
                key.algorithm,
                key.name,
                server.secret.as_deref().unwrap_or_default()
            )),
            (None, _) => None,
        };
        let text = script(server, update, inline_key)?;
        let spec = CommandSpec::new(&argv).stdin(text).sensitive().unchecked();
        let output = match cx.run(&spec) {
            Ok(output) => output,
            Err(CommandError::Timeout { .. }) => {
                return Err(DnsError::Timeout {
                    server: server.address(),
                    seconds: server.timeout as f64,
                }
                .to_string());
            }
            Err(e) => return Err(e.to_string()),
        };
        let printed = format!("{}\n{}", output.stdout, output.stderr);
        if output.success() && !printed.contains("update failed") {
            Ok(())
        } else {
            Err(failure(server, update, &printed))
        }
    }
}

pub fn definition() -> ProviderDef {
    ProviderDef::properties("dns_resource", "nsupdate", Records::new(Nsupdate))
        .doc(
            "Changes record sets through BIND's `nsupdate`, with the update written on its
            standard input (a key given as `keyname`/`secret` too, so that the secret is
            never on a command line). Reads like `rfc2136`. Suitable where `nsupdate` is
            installed (Debian's `bind9-dnsutils`).",
        )
        .command("nsupdate", "nsupdate")
        .source("dns_resource")
}

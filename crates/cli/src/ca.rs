//! `marionette ca`: the certificate authority administered from its own
//! machine, as `puppetserver ca` does: list requests and certificates,
//! sign, revoke, clean, and generate a certificate with its key. It works
//! on the CA's directory directly (`marionette_ca`), so it needs no
//! running server; the messages are `puppetserver ca`'s.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Args, Subcommand};
use marionette_ca::{CaError, CertificateAuthority, CertificateState, CertificateStatus, Settings};

#[derive(Args, Debug)]
pub(crate) struct CaArgs {
    /// The CA's directory (default: `cadir` of the settings files'
    /// `[server]` or `[main]` section, as the server reads it, else the
    /// `ca` directory of the state directory, /var/lib/marionette/ca for
    /// root).
    #[arg(long, global = true, value_name = "DIR")]
    cadir: Option<PathBuf>,
    /// The size of new RSA keys, in bits.
    #[arg(long, global = true, default_value_t = 4096, value_name = "BITS")]
    keylength: usize,
    #[command(subcommand)]
    command: CaCommand,
}

#[derive(Subcommand, Debug)]
enum CaCommand {
    /// Make a new certificate authority (`marionette server` also makes
    /// one when it first starts); refused where one exists.
    Setup,
    /// List certificate requests; with --all, signed and revoked
    /// certificates too.
    List {
        /// List every certificate.
        #[arg(long, conflicts_with = "certname")]
        all: bool,
        /// List these certificates only.
        #[arg(long, value_delimiter = ',', value_name = "NAME[,NAME]")]
        certname: Vec<String>,
        #[arg(long, default_value = "text", value_parser = ["text", "json"])]
        format: String,
    },
    /// Sign certificate requests.
    Sign(Names),
    /// Revoke certificates: agents holding them are refused from then on.
    Revoke(Names),
    /// Revoke certificates and remove their files, so the names may ask
    /// again.
    Clean(Names),
    /// Make a key and a certificate signed by this CA for a name, kept in
    /// the SSL directory as an agent finds them.
    Generate {
        #[arg(
            long,
            required = true,
            value_delimiter = ',',
            value_name = "NAME[,NAME]"
        )]
        certname: Vec<String>,
        /// Subject alternative names (`name`, `DNS:name`, `IP:address`).
        #[arg(long, value_delimiter = ',', value_name = "NAME[,NAME]")]
        subject_alt_names: Vec<String>,
        /// Let the certificate's holder administer the CA over the API.
        #[arg(long)]
        ca_client: bool,
    },
}

#[derive(Args, Debug)]
struct Names {
    /// The names to act on.
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "NAME[,NAME]",
        required_unless_present = "all"
    )]
    certname: Vec<String>,
    /// Every pending request (sign only).
    #[arg(long, conflicts_with = "certname", hide = true)]
    all: bool,
}

pub(crate) fn run(args: CaArgs) -> Result<ExitCode> {
    let vardir = crate::apply::vardir();
    let cadir = args.cadir.clone().unwrap_or_else(|| vardir.join("ca"));
    let mut settings = Settings::new(&crate::host_name());
    settings.key_length = args.keylength;
    if matches!(args.command, CaCommand::Setup) {
        CertificateAuthority::create(&cadir, settings)?;
        outln!(
            "Generation succeeded. Find your files in {}",
            cadir.display()
        );
        return Ok(ExitCode::SUCCESS);
    }
    // Every other command works on an existing CA: none is made as a side
    // effect of listing or signing.
    let ca = match CertificateAuthority::open(&cadir, settings) {
        Err(e @ CaError::NoAuthority { .. }) => return Err(e.into()),
        other => other.with_context(|| format!("could not open the CA in {}", cadir.display()))?,
    };
    match args.command {
        // Answered above; were it reached, the CA just opened exists.
        CaCommand::Setup => Err(CaError::AuthorityExists { cadir }.into()),
        CaCommand::List {
            all,
            certname,
            format,
        } => list(&ca, all, &certname, &format),
        CaCommand::Sign(names) => sign(&ca, &names),
        CaCommand::Revoke(names) => each(&names.certname, |name| match ca.revoke(name) {
            Ok(()) => Ok(format!("Certificate for {name} has been revoked")),
            Err(CaError::NotFound { .. }) => {
                Err(format!("    Could not find certificate for {name}"))
            }
            Err(CaError::NotSigned { .. }) if matches!(ca.csr_pem(name), Ok(Some(_))) => {
                Err(format!("    Could not revoke unsigned csr for {name}"))
            }
            Err(CaError::NotSigned { .. }) => {
                Err(format!("    Could not find certificate for {name}"))
            }
            Err(e) => Err(format!("    {e}")),
        }),
        CaCommand::Clean(names) => each(&names.certname, |name| match ca.clean(name) {
            Ok(()) => Ok(format!("Cleaned files related to {name}")),
            Err(CaError::NotFound { .. }) => {
                Err(format!("    Could not find files to clean for {name}"))
            }
            Err(e) => Err(format!("    {e}")),
        }),
        CaCommand::Generate {
            certname,
            subject_alt_names,
            ca_client,
        } => {
            // The key and certificate go under `--ssldir` (`certs/NAME.pem`,
            // `private_keys/NAME.pem`, `public_keys/NAME.pem`).
            let ssldir = crate::environment::global().ssldir();
            each(&certname, |name| {
                // Only the names asked for, and the certname: `puppet` is
                // the server's name, not an agent's.
                let alt: Vec<&str> = match subject_alt_names.is_empty() {
                    true => vec![name],
                    false => subject_alt_names.iter().map(String::as_str).collect(),
                };
                generate(&ca, name, &alt, ca_client, &ssldir).map_err(|e| format!("    {e:#}"))
            })
        }
    }
}

/// Runs `action` for each name, printing what it says; fails when any did.
fn each(
    names: &[String],
    action: impl Fn(&str) -> std::result::Result<String, String>,
) -> Result<ExitCode> {
    let mut failed = false;
    for name in names {
        match action(name) {
            Ok(message) => outln!("{message}"),
            Err(message) => {
                errln!("Error:\n{message}");
                failed = true;
            }
        }
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn sign(ca: &CertificateAuthority, names: &Names) -> Result<ExitCode> {
    let names: Vec<String> = if names.all {
        let pending = ca.certificate_statuses(Some(CertificateState::Requested))?;
        if pending.is_empty() {
            errln!("Error:\nNo waiting certificate requests to sign");
            return Ok(ExitCode::from(24));
        }
        pending.into_iter().map(|s| s.name).collect()
    } else {
        names.certname.clone()
    };
    each(&names, |name| match ca.sign(name) {
        Ok(_) => Ok(format!(
            "Successfully signed certificate request for {name}"
        )),
        Err(CaError::NoRequest { .. } | CaError::NotFound { .. }) => {
            Err(format!("    Could not find certificate request for {name}"))
        }
        Err(e) => Err(format!("    {e}")),
    })
}

fn generate(
    ca: &CertificateAuthority,
    name: &str,
    alt_names: &[&str],
    ca_client: bool,
    ssldir: &Path,
) -> Result<String> {
    let issued = ca.issue_host_certificate(name, alt_names, ca_client)?;
    for dir in ["certs", "private_keys", "public_keys"] {
        std::fs::create_dir_all(ssldir.join(dir))
            .with_context(|| format!("could not create {}", ssldir.join(dir).display()))?;
    }
    issued.write_to(
        &ssldir.join("certs").join(format!("{name}.pem")),
        &ssldir.join("private_keys").join(format!("{name}.pem")),
    )?;
    let public = ssldir.join("public_keys").join(format!("{name}.pem"));
    std::fs::write(&public, &issued.public_key_pem)
        .with_context(|| format!("could not write {}", public.display()))?;
    let ca_cert = ssldir.join("certs").join("ca.pem");
    std::fs::write(&ca_cert, ca.ca_certificate_pem())
        .with_context(|| format!("could not write {}", ca_cert.display()))?;
    Ok(format!(
        "Successfully saved certificate for {name} to {}",
        ssldir.join("certs").join(format!("{name}.pem")).display()
    ))
}

fn list(ca: &CertificateAuthority, all: bool, names: &[String], format: &str) -> Result<ExitCode> {
    let statuses: Vec<CertificateStatus> = if all || !names.is_empty() {
        ca.certificate_statuses(None)?
            .into_iter()
            .filter(|s| names.is_empty() || names.contains(&s.name))
            .collect()
    } else {
        ca.certificate_statuses(Some(CertificateState::Requested))?
    };
    let missing: Vec<&String> = names
        .iter()
        .filter(|n| !statuses.iter().any(|s| &s.name == *n))
        .collect();
    let of = |state: CertificateState| -> Vec<&CertificateStatus> {
        statuses.iter().filter(|s| s.state == state).collect()
    };
    let (requested, signed, revoked) = (
        of(CertificateState::Requested),
        of(CertificateState::Signed),
        of(CertificateState::Revoked),
    );
    if format == "json" {
        let mut grouped = serde_json::Map::new();
        for (key, group) in [
            ("requested", &requested),
            ("signed", &signed),
            ("revoked", &revoked),
        ] {
            if all || !group.is_empty() {
                grouped.insert(key.into(), serde_json::to_value(group)?);
            }
        }
        if !missing.is_empty() {
            grouped.insert("missing".into(), serde_json::to_value(&missing)?);
        }
        if grouped.is_empty() {
            grouped.insert("requested".into(), serde_json::Value::Array(Vec::new()));
        }
        outln!("{}", serde_json::Value::Object(grouped));
    } else if statuses.is_empty() && missing.is_empty() {
        outln!("No certificates to list");
    } else {
        for (heading, group) in [
            ("Requested Certificates:", &requested),
            ("Signed Certificates:", &signed),
            ("Revoked Certificates:", &revoked),
        ] {
            if group.is_empty() {
                continue;
            }
            outln!("{heading}");
            let width = group.iter().map(|s| s.name.len()).max().unwrap_or(0) + 6;
            for status in group {
                let mut line = format!(
                    "    {:<width$} (SHA256)  {}",
                    status.name, status.fingerprints.sha256
                );
                if !status.subject_alt_names.is_empty() {
                    line.push_str(&format!("\talt names: {:?}", status.subject_alt_names));
                }
                outln!("{line}");
            }
        }
        if !missing.is_empty() {
            outln!("Missing Certificates:");
            for name in &missing {
                outln!("    {name}");
            }
        }
    }
    Ok(if missing.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

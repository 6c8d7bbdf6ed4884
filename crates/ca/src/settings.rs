//! The settings of the CA, with Puppet 7's defaults. They mirror puppet.conf
//! (`ca_name`, `ca_ttl`, `keylength`, `autosign`) and puppetserver's ca.conf
//! (`allow-subject-alt-names`, `allow-authorization-extensions`,
//! `allow-duplicate-certs`).

use std::path::PathBuf;

/// Puppet 7's `ca_ttl`: five years of 365 days, in seconds.
pub const DEFAULT_CA_TTL_SECONDS: u64 = 157_680_000;

/// Puppetserver refuses a `ca_ttl` above fifty years.
pub(crate) const MAX_CA_TTL_SECONDS: u64 = 1_576_800_000;

/// How requests are signed without an operator.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Autosign {
    /// Requests wait for `sign` (Puppet's default when the autosign file
    /// does not exist).
    #[default]
    Off,
    /// Every valid request is signed (`autosign = true`).
    All,
    /// A path: an executable file is a policy run for each request (the
    /// certname as its argument, the request PEM on its standard input,
    /// exit status 0 to sign); any other file is an allowlist of certnames
    /// and `*.domain` globs, one a line, `#` for comments; a missing file
    /// signs nothing.
    Path(PathBuf),
}

/// Settings of a [`crate::CertificateAuthority`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// Subject CN of the CA certificate (`ca_name`), `Puppet CA: <certname>`.
    pub ca_name: String,
    /// Lifetime of signed certificates and of the CA certificate, in seconds
    /// (`ca_ttl`).
    pub ca_ttl_seconds: u64,
    /// RSA modulus size in bits for the keys the CA generates (`keylength`).
    pub key_length: usize,
    /// Autosigning policy (`autosign`).
    pub autosign: Autosign,
    /// Sign requests asking for subject alternative names
    /// (`allow-subject-alt-names`).
    pub allow_subject_alt_names: bool,
    /// Sign requests carrying authorization extensions
    /// (`allow-authorization-extensions`).
    pub allow_authorization_extensions: bool,
    /// Accept a request for a name that already has a request or
    /// certificate, replacing it (`allow-duplicate-certs`).
    pub allow_duplicate_certs: bool,
}

impl Settings {
    /// Puppet 7's defaults for a CA running on the server named `certname`.
    pub fn new(certname: &str) -> Settings {
        Settings {
            ca_name: format!("Puppet CA: {certname}"),
            ca_ttl_seconds: DEFAULT_CA_TTL_SECONDS,
            key_length: 4096,
            autosign: Autosign::Off,
            allow_subject_alt_names: false,
            allow_authorization_extensions: false,
            allow_duplicate_certs: false,
        }
    }
}

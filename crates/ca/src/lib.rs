//! Puppet's certificate authority as a library, compatible with Puppet 7's
//! (puppetserver's) CA: the same files on disk, the same checks and messages,
//! certificates Puppet agents accept. `marionette server` serves it over the
//! `puppet-ca/v1` API and `marionette ca` drives it from the command line.
//!
//! # Interface
//!
//! ```text
//! CertificateAuthority::open_or_create(cadir: &Path, settings: Settings) -> Result<Self, CaError>
//!   .submit_csr(certname, pem) -> Result<CsrOutcome /* Pending | Signed */, CaError>
//!   .sign(certname) -> Result<String /* certificate PEM */, CaError>
//!   .revoke(certname) -> Result<(), CaError>
//!   .clean(certname) -> Result<(), CaError>
//!   .issue_host_certificate(certname, dns_alt_names: &[&str], ca_client: bool) -> Result<HostCertificate, CaError>
//!   .certificate_status(certname) -> Result<CertificateStatus, CaError>
//!   .certificate_statuses(Option<CertificateState>) -> Result<Vec<CertificateStatus>, CaError>
//!   .ca_certificate_pem() -> &str     .crl_pem() -> Result<String, CaError>
//!   .certificate_pem(certname) / .csr_pem(certname) -> Result<Option<String>, CaError>
//!   .is_revoked(serial_be_bytes) -> bool     .settings()     .cadir()
//! identity(certificate_der) -> Option<Identity>   // certname, Puppet's extensions, pp_cli_auth
//! generate_key(bits, certname) -> (private PEM, public PEM)      // an agent's side
//! certificate_request(certname, private_key_pem, &[(extension, value)]) -> CSR PEM
//! ```
//!
//! [`Settings::new`] gives Puppet 7's defaults (`ca_name`
//! `Puppet CA: <certname>`, `ca_ttl` five years, 4096-bit keys, autosign off, no alt
//! names, no authorization extensions, no duplicates). [`CertificateStatus`]
//! serializes (serde) to the JSON of puppetserver's `certificate_status`
//! endpoint. [`CaError`]'s messages are Puppet's where an agent or operator
//! sees them (`agent1 already has a signed certificate; ignoring certificate
//! request`). The type is `Send + Sync`: one mutex serializes the operations
//! that change files, and every file is replaced atomically (written to a
//! temporary name, then renamed), private keys with mode 0600.
//!
//! # Files (puppetserver's `cadir` layout)
//!
//! `ca_crt.pem`, `ca_key.pem` (PKCS#1 RSA), `ca_pub.pem`, `ca_crl.pem`,
//! `serial` (next serial, `%04X`), `inventory.txt` (`0x0002
//! 2026-11-24T10:00:00UTC 2031-11-23T10:00:00UTC /CN=agent1`),
//! `requests/<certname>.pem`, `signed/<certname>.pem`. A directory made by
//! puppetserver opens as is; one holding only some of these files is refused.
//!
//! # Behaviour, as puppetserver's
//!
//! - Certnames: lower case, dot-separated labels of letters, digits, `-` and
//!   `_`; a request's CN must equal the name it is submitted for.
//! - Submission refuses a malformed request, a bad signature (puppetserver
//!   checks that only when signing) and a name that already has a request or
//!   certificate; the request is then stored and, if the autosign policy
//!   agrees ([`Autosign`]: off, all, allowlist file or policy executable run
//!   without a shell), signed.
//! - Signing refuses subject alternative names other than the certname
//!   (unless `allow_subject_alt_names`), authorization extensions
//!   (1.3.6.1.4.1.34380.1.3, unless `allow_authorization_extensions`),
//!   extensions outside Puppet's arcs and `pp_cli_auth`. Certificates are
//!   valid from a day ago for `ca_ttl`, carry basicConstraints CA:FALSE,
//!   keyUsage digitalSignature+keyEncipherment, critical extKeyUsage
//!   serverAuth+clientAuth, subject and authority key identifiers, the
//!   Netscape comment "Puppet Server Internal Certificate", the requested
//!   `pp_*` extensions as sent, and subjectAltName with the certname added.
//! - Revocation adds every unexpired certificate of the name (the signed one
//!   and those in the inventory) to the CRL, reason keyCompromise, and
//!   re-signs it with the CRL number incremented.
//!
//! Keys are RSA, generated with the `rsa` crate (ring cannot generate RSA
//! keys); all signing and verification uses ring through rcgen and
//! x509-parser.

mod autosign;
mod ca;
mod crl;
mod csr;
mod der;
mod error;
mod files;
mod identity;
mod inventory;
mod keys;
mod name;
mod oids;
mod request;
mod serial;
mod settings;
mod status;

pub use ca::{CertificateAuthority, Counts, CsrOutcome, HostCertificate};
pub use error::CaError;
pub use identity::{Identity, identity, identity_pem};
pub use request::{certificate_request, generate_key};
pub use settings::{Autosign, DEFAULT_CA_TTL_SECONDS, Settings};
pub use status::{CertificateState, CertificateStatus, Fingerprints};

//! The one error type of the crate. Messages that an agent or an operator
//! meets through the `puppet-ca/v1` API are Puppet's own words, so that the
//! agent prints what it would print against puppetserver; the variants carry
//! the certname or the file so that callers can report them too.

use std::path::PathBuf;

/// Everything the certificate authority can refuse or fail at.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CaError {
    /// A file or directory of the CA could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// A file of the CA exists but does not hold what it should.
    #[error("{}: {reason}", path.display())]
    CorruptFile {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// Some of the CA's files exist and others are missing: Puppet refuses to
    /// start from such a directory rather than overwrite half of a CA.
    #[error(
        "Cannot initialize CA with partial state; need all files or none.\nFound:\n{}\nMissing:\n{}",
        list_paths(found),
        list_paths(missing)
    )]
    PartialState {
        /// The files present.
        found: Vec<PathBuf>,
        /// The files absent.
        missing: Vec<PathBuf>,
    },
    /// A setting has a value the CA cannot use.
    #[error("invalid setting {name}: {reason}")]
    InvalidSetting {
        /// The setting's name.
        name: &'static str,
        /// Why it is refused.
        reason: String,
    },
    /// The certificate request is not a PKCS#10 request in PEM form.
    #[error("Could not parse the certificate request for {certname}: {reason}")]
    MalformedCsr {
        /// The certname the request was submitted for.
        certname: String,
        /// What the parser said.
        reason: String,
    },
    /// The request's subject CN is not the certname it was submitted for.
    #[error("Instance name \"{subject}\" does not match requested key \"{certname}\"")]
    NameMismatch {
        /// The certname the request was submitted for.
        certname: String,
        /// The CN found in the request.
        subject: String,
    },
    /// The certname breaks Puppet's syntax for certificate names.
    #[error("{message}")]
    InvalidCertname {
        /// The refused name.
        certname: String,
        /// Puppet's message.
        message: String,
    },
    /// A certificate or request already exists for the name.
    #[error("{certname} already has a {state} certificate; ignoring certificate request")]
    Duplicate {
        /// The name.
        certname: String,
        /// `requested`, `signed` or `revoked`.
        state: String,
    },
    /// The request's RSA key is too small to sign for.
    #[error(
        "CSR '{certname}' has a {bits}-bit RSA key, which is too small: the CA signs keys of at least {minimum} bits. Make a new key (Puppet's keylength setting) and request again."
    )]
    KeyTooSmall {
        /// The certname of the request.
        certname: String,
        /// The key's size.
        bits: usize,
        /// The smallest size signed.
        minimum: usize,
    },
    /// The request's signature does not verify with its own public key.
    #[error("CSR contains a public key that does not correspond to the signing key")]
    InvalidSignature {
        /// The certname of the request.
        certname: String,
    },
    /// The request asks for subject alternative names and the CA does not
    /// allow them.
    #[error(
        "CSR '{certname}' contains extra subject alternative names ({}), which are disallowed. To allow subject alternative names, set allow-subject-alt-names to true in your ca.conf file. Then restart the puppetserver and try signing this certificate again.",
        names.join(", ")
    )]
    DisallowedAltNames {
        /// The certname of the request.
        certname: String,
        /// The refused names, as `DNS:name` or `IP:address`.
        names: Vec<String>,
    },
    /// A subject alternative name of a kind or form the CA never signs.
    #[error("{message}")]
    InvalidAltName {
        /// The certname of the request.
        certname: String,
        /// Puppet's message.
        message: String,
    },
    /// The request carries an authorization extension (the
    /// 1.3.6.1.4.1.34380.1.3 arc) and the CA does not allow them.
    #[error(
        "CSR '{certname}' contains an authorization extension, which is disallowed. To allow authorization extensions, set allow-authorization-extensions to true in your ca.conf file. Then restart the puppetserver and try signing this certificate again."
    )]
    DisallowedAuthorizationExtension {
        /// The certname of the request.
        certname: String,
    },
    /// The request carries extensions outside Puppet's arcs.
    #[error("Found extensions that are not permitted: {}", oids.join(", "))]
    DisallowedExtensions {
        /// The certname of the request.
        certname: String,
        /// The refused extensions' OIDs, dotted.
        oids: Vec<String>,
    },
    /// There is no pending request for the name.
    #[error("Cannot sign certificate for host {certname} without a certificate request")]
    NoRequest {
        /// The name.
        certname: String,
    },
    /// There is no certificate to revoke for the name.
    #[error("Cannot revoke certificate for host {certname} without a signed certificate")]
    NotSigned {
        /// The name.
        certname: String,
    },
    /// The directory holds no certificate authority: only `open_or_create`
    /// (the server's first start, `marionette ca setup`) makes one.
    #[error(
        "There is no certificate authority in {}: `marionette server` makes one when it first starts, and `marionette ca setup` makes one now",
        cadir.display()
    )]
    NoAuthority {
        /// Where it was looked for.
        cadir: PathBuf,
    },
    /// A certificate authority exists already where a new one was asked
    /// for.
    #[error("A certificate authority exists already in {}", cadir.display())]
    AuthorityExists {
        /// Where it is.
        cadir: PathBuf,
    },
    /// There is no certificate (nor request) for the name.
    #[error("Could not find certificate {certname}")]
    NotFound {
        /// The name.
        certname: String,
    },
    /// The autosign policy executable could not be run.
    #[error("Autosign command '{}' could not be run for {certname}: {source}", path.display())]
    Autosign {
        /// The executable.
        path: PathBuf,
        /// The certname being decided.
        certname: String,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// Generating a key or signing failed.
    #[error("could not {what}: {reason}")]
    Crypto {
        /// The operation, e.g. `sign the certificate for agent1`.
        what: String,
        /// What the library said.
        reason: String,
    },
}

fn list_paths(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Attaches the path to an I/O error.
pub(crate) fn io_error(path: &std::path::Path) -> impl FnOnce(std::io::Error) -> CaError + '_ {
    move |source| CaError::Io {
        path: path.to_path_buf(),
        source,
    }
}

//! Files that web servers have: a file resource's `source =>
//! 'http(s)://...'`, read the way Puppet's file type reads it; and
//! [`post`], for the server's `http` report processor.
//!
//! What the file should hold is known from the answer to a `HEAD` request
//! (a server that refuses `HEAD` with 403 or 405 is asked for the first
//! byte instead): the first checksum header it sends, in the order of
//! preference of Puppet's `HttpMetadata` (the resource's own `checksum`,
//! then `X-Checksum-Sha256`, `X-Checksum-Sha1`, `Content-MD5` or
//! `X-Checksum-Md5`), else its `Last-Modified` time, else the time of the
//! request. The content itself is fetched only when the file must be
//! written. A time stands in for a checksum as Puppet's `mtime` does: the
//! local file is in sync when it is at least as recent.
//!
//! HTTPS servers are trusted through the system's certificate bundle and
//! the files the run names ([`set_trust`]: Puppet's CA certificate, its
//! `ssl_trust_store`). Credentials in the URL (`https://user:pass@host/`)
//! are sent with HTTP Basic authentication; redirects are followed; the
//! proxy of the environment (`http_proxy`, `https_proxy`, `no_proxy`) is
//! used, as Puppet's client does.
//!
//! Each URL is asked about once per run (the answers are kept until the
//! next [`set_trust`]), however many times the file type needs them.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant, SystemTime};

/// What a web server says of a file: where it is, and what stands for its
/// content (`{sha256}...`, `{mtime}...`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Remote {
    /// The URL as the manifest wrote it.
    pub url: String,
    /// The kind of [`Remote::checksum`]: `sha256`, `sha1`, `md5` or
    /// `mtime`.
    pub kind: &'static str,
    /// The checksum, in Puppet's `{kind}value` form.
    pub checksum: String,
}

/// Whether a `source` entry names a file on a web server.
pub fn is_web(entry: &str) -> bool {
    let lower = entry.get(..8).unwrap_or(entry).to_ascii_lowercase();
    lower.starts_with("http://") || lower.starts_with("https://")
}

/// How a run reaches web servers: the certificate files it trusts
/// besides the system's, the node's own certificate and key (presented to
/// HTTPS servers that ask, as Puppet's agent does), its name and where it
/// logs.
#[derive(Clone, Default)]
pub struct Trust {
    pub trusted: Vec<PathBuf>,
    pub certname: String,
    pub certificate: PathBuf,
    pub private_key: PathBuf,
    pub logger: marionette_ral::Logger,
}

/// The run's [`Trust`], and what the run learned of each URL.
static TRUST: RwLock<Option<Trust>> = RwLock::new(None);
/// Whether the run has said that the node has no certificate to present.
static WARNED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
type Answers = HashMap<(String, String), Result<Option<Arc<Remote>>, String>>;
static ANSWERS: Mutex<Option<Answers>> = Mutex::new(None);
/// The run's client, made at its first request: reading the system's
/// certificates costs milliseconds.
static AGENT: Mutex<Option<ureq::Agent>> = Mutex::new(None);

/// The system's bundle of certificate authorities, as Debian's OpenSSL
/// (and so Puppet's Ruby) reads it.
const SYSTEM_BUNDLE: &str = "/etc/ssl/certs/ca-certificates.crt";

/// Starts a run: HTTPS servers are trusted when the system's bundle or
/// one of `trust.trusted` (PEM certificates; missing ones are skipped)
/// vouches for them, and what earlier runs learned of URLs is forgotten.
pub fn set_trust(trust: Trust) {
    *TRUST.write().unwrap_or_else(|e| e.into_inner()) = Some(trust);
    *ANSWERS.lock().unwrap_or_else(|e| e.into_inner()) = None;
    *AGENT.lock().unwrap_or_else(|e| e.into_inner()) = None;
    WARNED.store(false, std::sync::atomic::Ordering::Relaxed);
}

/// What the server at `url` says of its file, asked once per run: `None`
/// when it has none (an answer other than success), an error when it
/// cannot be asked. `preferred` is the resource's own `checksum`, used
/// when the server sends that kind.
pub fn metadata(url: &str, preferred: Option<&str>) -> Result<Option<Arc<Remote>>, String> {
    let key = (url.to_string(), preferred.unwrap_or_default().to_string());
    if let Some(known) = ANSWERS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get_or_insert_with(HashMap::new)
        .get(&key)
    {
        return known.clone();
    }
    let answer = ask(url, preferred).map(|found| found.map(Arc::new));
    ANSWERS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get_or_insert_with(HashMap::new)
        .insert(key, answer.clone());
    answer
}

/// Sends `body` to `url` with `POST` (the server's `http` report
/// processor): the answer's status and reason, or why there is none.
pub fn post(url: &str, content_type: &str, body: &[u8]) -> Result<(u16, String), String> {
    let started = Instant::now();
    let (address, auth) = split_credentials(url);
    let mut request = agent_for(url)
        .post(&address)
        .header("Content-Type", content_type);
    if let Some(auth) = &auth {
        request = request.header("Authorization", auth);
    }
    let response = request
        .send(body)
        .map_err(|e| request_failed(url, started, &e))?;
    let status = response.status();
    Ok((
        status.as_u16(),
        status.canonical_reason().unwrap_or_default().to_string(),
    ))
}

/// Copies the file at `url` into `to`.
pub fn download(url: &str, to: &mut dyn Write) -> Result<(), String> {
    let started = Instant::now();
    let (address, auth) = split_credentials(url);
    let mut request = agent_for(url).get(&address);
    if let Some(auth) = &auth {
        request = request.header("Authorization", auth);
    }
    let response = request
        .call()
        .map_err(|e| request_failed(url, started, &e))?;
    let status = response.status().as_u16();
    if !(200..300).contains(&status) {
        return Err(format!(
            "Error {status} on SERVER: {}",
            response.status().canonical_reason().unwrap_or("")
        ));
    }
    let mut body = response.into_body();
    let mut reader = body.as_reader();
    let mut buffer = vec![0; 64 * 1024];
    loop {
        let read = reader
            .read(&mut buffer)
            .map_err(|e| format!("Request to {url} failed: {e}"))?;
        if read == 0 {
            return Ok(());
        }
        to.write_all(&buffer[..read]).map_err(|e| e.to_string())?;
    }
}

fn ask(url: &str, preferred: Option<&str>) -> Result<Option<Remote>, String> {
    let started = Instant::now();
    let failed = |e: &ureq::Error| {
        format!(
            "Could not retrieve file metadata for {url}: {}",
            request_failed(url, started, e)
        )
    };
    let (address, auth) = split_credentials(url);
    let agent = agent();
    let mut head = agent.head(&address);
    if let Some(auth) = &auth {
        head = head.header("Authorization", auth);
    }
    let mut response = head.call().map_err(|e| failed(&e))?;
    // Some servers (presigned object store URLs, puppetserver) refuse
    // HEAD: their headers come with the first byte of the file.
    if matches!(response.status().as_u16(), 403 | 405) {
        let mut get = agent.get(&address).header("Range", "bytes=0-0");
        if let Some(auth) = &auth {
            get = get.header("Authorization", auth);
        }
        response = get.call().map_err(|e| failed(&e))?;
    }
    if !response.status().is_success() {
        return Ok(None);
    }
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .and_then(|value| value.to_str().ok())
            .map(str::trim)
            .filter(|value| !value.is_empty())
            .map(str::to_string)
    };
    let mut sums: Vec<(&'static str, String)> = Vec::new();
    if let Some(md5) = header("content-md5").and_then(|b64| base64_to_hex(&b64)) {
        sums.push(("md5", md5));
    }
    for (kind, name) in [
        ("md5", "x-checksum-md5"),
        ("sha1", "x-checksum-sha1"),
        ("sha256", "x-checksum-sha256"),
    ] {
        if let Some(value) = header(name) {
            sums.retain(|(k, _)| *k != kind);
            sums.push((kind, value));
        }
    }
    let mtime = header("last-modified")
        .and_then(|date| httpdate::parse_http_date(&date).ok())
        .map(|time| format!("{{mtime}}{}", utc_text(time)))
        .unwrap_or_else(|| {
            format!(
                "{{mtime}}{}",
                crate::types::file::time_text(unix_seconds(SystemTime::now()))
            )
        });
    let order = [preferred.unwrap_or("sha256"), "sha256", "sha1", "md5"];
    let found = order
        .iter()
        .find_map(|wanted| sums.iter().find(|(kind, _)| kind == wanted));
    Ok(Some(match found {
        Some((kind, value)) => Remote {
            url: url.to_string(),
            kind,
            checksum: format!("{{{kind}}}{value}"),
        },
        None => Remote {
            url: url.to_string(),
            kind: "mtime",
            checksum: mtime,
        },
    }))
}

/// Puppet's words for a request that got no answer.
fn request_failed(url: &str, started: Instant, error: &ureq::Error) -> String {
    // As Ruby prints the rounded float: `0.0`, `0.012`, `1.5`.
    let seconds = (started.elapsed().as_secs_f64() * 1000.0).round() / 1000.0;
    let seconds = if seconds.fract() == 0.0 {
        format!("{seconds:.1}")
    } else {
        seconds.to_string()
    };
    if let Some(reason) = certificate_refused(error) {
        return reason;
    }
    let reason = match error {
        ureq::Error::Io(io) => {
            let host = host_and_port(url);
            let why = match io.kind() {
                std::io::ErrorKind::ConnectionRefused => {
                    format!("Connection refused - connect(2) for {host}")
                }
                // Ruby names the call that failed.
                _ => io
                    .to_string()
                    .replace("failed to lookup address information", "getaddrinfo"),
            };
            format!("Failed to open TCP connection to {host} ({why})")
        }
        other => other.to_string(),
    };
    format!("Request to {url} failed after {seconds} seconds: {reason}")
}

/// A server certificate the run does not trust, in the words of
/// OpenSSL's verification as Puppet relays them.
fn certificate_refused(error: &ureq::Error) -> Option<String> {
    use rustls::CertificateError;
    let rustls_error = match error {
        ureq::Error::Io(io) => io.get_ref()?.downcast_ref::<rustls::Error>()?,
        _ => return None,
    };
    let rustls::Error::InvalidCertificate(refused) = rustls_error else {
        return None;
    };
    let why = match refused {
        CertificateError::UnknownIssuer => "unable to get local issuer certificate".to_string(),
        CertificateError::Expired | CertificateError::ExpiredContext { .. } => {
            "certificate has expired".to_string()
        }
        CertificateError::NotValidYet | CertificateError::NotValidYetContext { .. } => {
            "certificate is not yet valid".to_string()
        }
        CertificateError::Revoked => "certificate revoked".to_string(),
        CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. } => {
            "hostname mismatch".to_string()
        }
        other => format!("{other:?}"),
    };
    Some(format!("certificate verify failed [{why}]"))
}

/// `host:port` of a URL, the port given or the scheme's.
fn host_and_port(url: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("http", url));
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let authority = authority
        .rsplit_once('@')
        .map_or(authority, |(_, host)| host);
    let has_port = authority.rsplit_once(':').is_some_and(|(_, port)| {
        port.bytes().all(|b| b.is_ascii_digit()) && !authority.ends_with(']')
    });
    if has_port {
        authority.to_string()
    } else if scheme.eq_ignore_ascii_case("https") {
        format!("{authority}:443")
    } else {
        format!("{authority}:80")
    }
}

/// The URL without credentials, and the `Authorization` header they make.
fn split_credentials(url: &str) -> (String, Option<String>) {
    let Some((scheme, rest)) = url.split_once("://") else {
        return (url.to_string(), None);
    };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, path) = rest.split_at(end);
    let Some((userinfo, host)) = authority.rsplit_once('@') else {
        return (url.to_string(), None);
    };
    let (user, password) = userinfo.split_once(':').unwrap_or((userinfo, ""));
    let decoded =
        |text: &str| crate::types::file::percent_decode(text).unwrap_or_else(|| text.to_string());
    let credentials = format!("{}:{}", decoded(user), decoded(password));
    (
        format!("{scheme}://{host}{path}"),
        Some(format!("Basic {}", base64_encode(credentials.as_bytes()))),
    )
}

const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

fn base64_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, byte)| n | (u32::from(*byte) << (16 - 8 * i)));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(BASE64[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// A base64 digest (`Content-MD5`) in hexadecimal, as Puppet shows it.
fn base64_to_hex(text: &str) -> Option<String> {
    marionette_dns::tsig::base64_decode(text).map(|bytes| crate::types::file::hex(&bytes))
}

fn unix_seconds(time: SystemTime) -> i64 {
    match time.duration_since(SystemTime::UNIX_EPOCH) {
        Ok(after) => after.as_secs() as i64,
        Err(before) => -(before.duration().as_secs() as i64),
    }
}

/// A time as Ruby's `Time#utc.to_s` writes it (`2024-05-01 10:00:00 UTC`).
fn utc_text(time: SystemTime) -> String {
    let local = crate::types::file::time_text(unix_seconds(time));
    format!("{} UTC", local.trim_end_matches(" +0000"))
}

/// The client of a run (the system's and the run's trusted
/// certificates), for a request that is the resource's own use of `url`
/// ([`announce`]).
fn agent_for(url: &str) -> ureq::Agent {
    announce(url);
    agent()
}

/// Says, once a run and before its first use of an HTTPS server, when the
/// node has no key or certificate to present, as Puppet does when it
/// evaluates the first resource that asks one. A file's source is asked
/// earlier, when the resource is built: it announces its server when it
/// is evaluated.
pub fn announce(url: &str) {
    if url
        .get(..6)
        .is_some_and(|scheme| scheme.eq_ignore_ascii_case("https:"))
        && !WARNED.swap(true, std::sync::atomic::Ordering::Relaxed)
        && let Some(trust) = TRUST.read().unwrap_or_else(|e| e.into_inner()).as_ref()
    {
        for (path, what) in [
            (&trust.private_key, "Private key"),
            (&trust.certificate, "Client certificate"),
        ] {
            if !path.is_file() {
                trust.logger.log(
                    marionette_ral::Level::Warning,
                    "",
                    &format!("{what} for '{}' does not exist", trust.certname),
                );
            }
        }
    }
}

fn agent() -> ureq::Agent {
    AGENT
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get_or_insert_with(new_agent)
        .clone()
}

fn new_agent() -> ureq::Agent {
    let trust = TRUST
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .clone()
        .unwrap_or_default();
    let pem_items = |path: &std::path::Path| {
        std::fs::read(path)
            .map(|pem| ureq::tls::parse_pem(&pem).flatten().collect::<Vec<_>>())
            .unwrap_or_default()
    };
    let mut roots = Vec::new();
    for file in std::iter::once(PathBuf::from(SYSTEM_BUNDLE)).chain(trust.trusted.clone()) {
        for item in pem_items(&file) {
            if let ureq::tls::PemItem::Certificate(cert) = item {
                roots.push(cert);
            }
        }
    }
    let chain: Vec<_> = pem_items(&trust.certificate)
        .into_iter()
        .filter_map(|item| match item {
            ureq::tls::PemItem::Certificate(cert) => Some(cert),
            _ => None,
        })
        .collect();
    let key = pem_items(&trust.private_key)
        .into_iter()
        .find_map(|item| match item {
            ureq::tls::PemItem::PrivateKey(key) => Some(key),
            _ => None,
        });
    let client = match key {
        Some(key) if !chain.is_empty() => Some(ureq::tls::ClientCert::new_with_certs(&chain, key)),
        _ => None,
    };
    let tls = ureq::tls::TlsConfig::builder()
        .client_cert(client)
        .root_certs(ureq::tls::RootCerts::Specific(Arc::new(roots)))
        .unversioned_rustls_crypto_provider(Arc::new(rustls::crypto::ring::default_provider()))
        .build();
    ureq::Agent::config_builder()
        .tls_config(tls)
        .http_status_as_error(false)
        .timeout_connect(Some(Duration::from_secs(120)))
        .timeout_recv_body(Some(Duration::from_secs(600)))
        .user_agent(concat!("Marionette/", env!("CARGO_PKG_VERSION")))
        .build()
        .into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_leave_the_url_for_a_basic_header() {
        assert_eq!(
            split_credentials("https://mrtest:se%40cret@example.com:8443/a/b?c"),
            (
                "https://example.com:8443/a/b?c".to_string(),
                Some(format!("Basic {}", base64_encode(b"mrtest:se@cret")))
            )
        );
        assert_eq!(
            split_credentials("http://example.com/x@y"),
            ("http://example.com/x@y".to_string(), None)
        );
        assert_eq!(base64_encode(b"mrtest:secret"), "bXJ0ZXN0OnNlY3JldA==");
    }

    #[test]
    fn content_md5_is_shown_in_hexadecimal() {
        assert_eq!(
            base64_to_hex("3TXZVtPm/NlEGKXXwWdJdg==").as_deref(),
            Some("dd35d956d3e6fcd94418a5d7c1674976")
        );
    }

    #[test]
    fn hosts_are_named_with_their_port() {
        assert_eq!(host_and_port("http://127.0.0.1:1/x"), "127.0.0.1:1");
        assert_eq!(
            host_and_port("https://u:p@example.com/x"),
            "example.com:443"
        );
        assert_eq!(host_and_port("http://example.com"), "example.com:80");
        assert!(is_web("HTTPS://example.com/"));
        assert!(!is_web("puppet:///modules/x"));
    }
}

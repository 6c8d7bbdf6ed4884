//! What a request may send, decided on its head alone: whether it needs a
//! client certificate (or a CA administrator's), and how large its body
//! may be. Refusals go out before a byte of the body is read, so a client
//! without a certificate can make the server hold nothing but a head.

use hyper::{Method, StatusCode};

use crate::Limits;
use crate::http::Client;

/// The body of everything that is not an upload: a certificate request (a
/// 16,384-bit key with every extension fits many times over), a status
/// change, a query.
pub(crate) const SMALL_BODY: usize = 64 * 1024;

/// The body of a PuppetDB query: an AST, never a document.
const QUERY_BODY: usize = 1024 * 1024;

/// What the head of a request allows.
pub(crate) enum Admission {
    /// Read at most this many bytes of body, then route.
    Read(usize),
    /// Answer at once with this status.
    Refuse(StatusCode),
}

/// Decides on the method, the decoded path, the client and the declared
/// length (`Content-Length`, when there is one).
pub(crate) fn admit(
    method: &Method,
    path: &str,
    client: &Client,
    admins: &[String],
    declared: Option<u64>,
    limits: &Limits,
) -> Admission {
    // PuppetDB's plain-HTTP port answers PuppetDB's API alone, to anyone
    // who reaches it (the loopback, as PuppetDB's default).
    if client.plain && !crate::is_puppetdb_path(path) {
        return Admission::Refuse(StatusCode::NOT_FOUND);
    }
    // The status API and the metrics say nothing of a node: load
    // balancers and Prometheus ask them without certificates.
    let anyone = path.starts_with("/status/v1/")
        || path == "/metrics"
        || path.strip_prefix("/puppet-ca/v1/").is_some_and(|rest| {
            !rest.starts_with("certificate_status") // the plural too
        });
    let admin_only = path.starts_with("/puppet-ca/v1/certificate_status")
        || path.starts_with("/puppet-admin-api/");
    if admin_only && !client.may_administer(admins) {
        return Admission::Refuse(StatusCode::FORBIDDEN);
    }
    // Everything else of the API is for nodes with a certificate, as
    // puppetserver's default `auth.conf` has it; unknown paths too, so a
    // stranger cannot make the server read a body to answer 404.
    if !anyone && !admin_only && client.identity.is_none() && !client.plain {
        return Admission::Refuse(StatusCode::FORBIDDEN);
    }
    let limit = match (method, path) {
        (&Method::POST, p) if p.starts_with("/puppet/v3/catalog/") => limits.max_facts_bytes,
        (&Method::PUT, p) if p.starts_with("/puppet/v3/facts/") => limits.max_facts_bytes,
        (&Method::PUT, p) if p.starts_with("/puppet/v3/report/") => limits.max_report_bytes,
        // A file's content, which may be as large as a report.
        (&Method::PUT, p) if p.starts_with("/puppet/v3/file_bucket_file/") => {
            limits.max_report_bytes
        }
        (&Method::POST, "/pdb/cmd/v1") => limits.max_report_bytes,
        (_, p) if p.starts_with("/pdb/query/") => QUERY_BODY,
        _ => SMALL_BODY,
    };
    match declared {
        Some(length) if length > limit as u64 => Admission::Refuse(StatusCode::PAYLOAD_TOO_LARGE),
        _ => Admission::Read(limit),
    }
}

//! Requests and responses as the handlers see them: who is asking, the
//! query, and responses in the forms Puppet's agent reads.

use std::io::Write;

use bytes::Bytes;
use http_body_util::Full;
use hyper::header::{ACCEPT_ENCODING, CONTENT_ENCODING, CONTENT_TYPE, HeaderValue};
use hyper::{Response, StatusCode};

/// Handlers answer with the whole body; `finish` makes it the wire's.
pub(crate) type Body = Bytes;

/// Who sent a request: the identity of the verified client certificate,
/// if one was presented.
#[derive(Clone, Debug)]
pub(crate) struct Client {
    pub(crate) identity: Option<marionette_ca::Identity>,
    /// The client's address, for the access log.
    pub(crate) peer: Option<std::net::IpAddr>,
    /// It came on PuppetDB's plain-HTTP port: PuppetDB's API alone,
    /// without a certificate.
    pub(crate) plain: bool,
}

impl Client {
    /// The certificate's name, when there is one.
    pub(crate) fn certname(&self) -> Option<&str> {
        self.identity.as_ref().map(|i| i.certname.as_str())
    }

    /// Whether the client may administer the CA: a certificate with
    /// `pp_cli_auth`, or one the configuration names. Being on the
    /// server's machine is not enough: any local user could then sign
    /// for any name; `marionette ca` works on the CA's files instead.
    pub(crate) fn may_administer(&self, admins: &[String]) -> bool {
        self.identity
            .as_ref()
            .is_some_and(|i| i.ca_client || admins.contains(&i.certname))
    }
}

/// A request, read whole.
pub(crate) struct Request {
    pub(crate) method: hyper::Method,
    pub(crate) path: String,
    pub(crate) query: Vec<(String, String)>,
    pub(crate) body: Bytes,
    /// The `If-None-Match` header: the ETag of what the client holds.
    pub(crate) if_none_match: Option<String>,
    /// The client takes gzipped answers (`Accept-Encoding`).
    pub(crate) gzip: bool,
}

impl Request {
    /// The first value of a query parameter.
    pub(crate) fn param(&self, name: &str) -> Option<&str> {
        self.query
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Every value of a query parameter (`ignore=.git&ignore=CVS`).
    pub(crate) fn params(&self, name: &str) -> Vec<&str> {
        self.query
            .iter()
            .filter(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
            .collect()
    }

    /// The environment the request names, `production` by default.
    pub(crate) fn environment(&self) -> &str {
        self.param("environment").unwrap_or("production")
    }
}

/// Decodes a query string or a form body.
pub(crate) fn form(text: &[u8]) -> Vec<(String, String)> {
    form_urlencoded::parse(text).into_owned().collect()
}

pub(crate) fn response(
    status: StatusCode,
    content_type: &str,
    body: impl Into<Bytes>,
) -> Response<Body> {
    let mut response = Response::new(body.into());
    *response.status_mut() = status;
    if let Ok(value) = HeaderValue::from_str(content_type) {
        response.headers_mut().insert(CONTENT_TYPE, value);
    }
    response
}

pub(crate) fn json(value: &serde_json::Value) -> Response<Body> {
    // Written as bytes: a fleet's answers run to megabytes, which text
    // formatting would copy again as it grows.
    let body = serde_json::to_vec(value).unwrap_or_default();
    response(StatusCode::OK, "application/json", body)
}

pub(crate) fn text(status: StatusCode, body: impl Into<Bytes>) -> Response<Body> {
    response(status, "text/plain", body)
}

/// An error of the `puppet/v3` API, as Puppet's server words it; the
/// agent prints the message (`Error 500 on SERVER: ...`).
pub(crate) fn error(status: StatusCode, message: &str) -> Response<Body> {
    let kind = match status {
        StatusCode::NOT_FOUND => "RESOURCE_NOT_FOUND",
        StatusCode::FORBIDDEN => "FORBIDDEN",
        StatusCode::BAD_REQUEST => "BAD_REQUEST",
        _ => "RUNTIME_ERROR",
    };
    response(
        status,
        "application/json",
        serde_json::json!({"message": message, "issue_kind": kind}).to_string(),
    )
}

/// Puppet's refusal of a request its rules do not allow.
pub(crate) fn forbidden(request: &Request) -> Response<Body> {
    forbidden_path(&request.path, &request.method)
}

/// puppetserver's refusal (its authorization's words) of `method` on
/// `path`.
pub(crate) fn forbidden_path(path: &str, method: &hyper::Method) -> Response<Body> {
    text(
        StatusCode::FORBIDDEN,
        format!(
            "Forbidden request: {path} (method :{}). Please see the server logs for details.",
            method.as_str().to_lowercase()
        ),
    )
}

/// Whether an `Accept-Encoding` header takes gzip.
pub(crate) fn takes_gzip(accept_encoding: Option<&HeaderValue>) -> bool {
    accept_encoding
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|e| e.trim().starts_with("gzip")))
}

/// Below this, a body is not worth compressing.
const WORTH_COMPRESSING: usize = 1024;

/// What a compressed body gathers before compressing it.
const GATHERED: usize = 64 << 10;

/// A body being written: gzipped (for a client that takes it) as soon
/// as it is long enough to be worth it, so that a long answer is held
/// compressed, not whole, while it is written.
pub(crate) struct Compressing {
    gzip: bool,
    plain: Vec<u8>,
    // Gathered before the compressor, which takes each write at a cost
    // (its checksum, its match search set up): an answer serialized
    // value by value writes pieces of a few bytes.
    compressed: Option<std::io::BufWriter<flate2::write::GzEncoder<Vec<u8>>>>,
}

impl Compressing {
    pub(crate) fn new(gzip: bool) -> Compressing {
        Compressing {
            gzip,
            plain: Vec::new(),
            compressed: None,
        }
    }

    /// The body, and whether it is gzipped.
    pub(crate) fn finish(self) -> std::io::Result<(Bytes, bool)> {
        match self.compressed {
            Some(encoder) => {
                let encoder = encoder.into_inner().map_err(|e| e.into_error())?;
                Ok((sendable(encoder.finish()?), true))
            }
            None => Ok((sendable(self.plain), false)),
        }
    }

    /// A response of this body, marked gzipped when it is.
    pub(crate) fn response(self, status: StatusCode, content_type: &str) -> Response<Body> {
        match self.finish() {
            Ok((body, gzipped)) => {
                let mut answer = response(status, content_type, body);
                if gzipped {
                    answer
                        .headers_mut()
                        .insert(CONTENT_ENCODING, HeaderValue::from_static("gzip"));
                }
                answer
            }
            Err(e) => text(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("The answer could not be compressed: {e}"),
            ),
        }
    }
}

impl Write for Compressing {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if let Some(encoder) = &mut self.compressed {
            return encoder.write(buf);
        }
        if self.gzip && self.plain.len() + buf.len() >= WORTH_COMPRESSING {
            let mut encoder = std::io::BufWriter::with_capacity(
                GATHERED,
                flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast()),
            );
            encoder.write_all(&std::mem::take(&mut self.plain))?;
            encoder.write_all(buf)?;
            self.compressed = Some(encoder);
            return Ok(buf.len());
        }
        self.plain.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Above this, a body written on one thread (a query's) is sent from
/// memory of the system's allocator (see [`SystemHeld`]).
const HELD_APART: usize = 64 << 10;

/// `body` as it is sent: a long one copied into memory of the system's
/// allocator, its own freed here.
fn sendable(body: Vec<u8>) -> Bytes {
    if body.len() < HELD_APART {
        return Bytes::from(body);
    }
    match SystemHeld::copy_of(&body) {
        Some(held) => Bytes::from_owner(held),
        None => Bytes::from(body),
    }
}

/// Bytes held by the system's allocator rather than the program's. A long
/// answer is written on a query thread and freed on the connection's once
/// sent; mimalloc takes a block freed by another thread back only on its
/// own slow path, which a thread writing answers straight from the
/// database seldom takes, so each megabyte answer took new pages (the
/// peak of Puppetboard's queries over 10,000 nodes grew by about 12 MB).
/// Copied here, the answer's own buffer is freed on the thread that made
/// it, and reused by its next answer; the copy goes back to the system's
/// allocator from whichever thread drops it.
struct SystemHeld {
    start: std::ptr::NonNull<u8>,
    len: usize,
}

// SAFETY: the bytes are owned by the value alone and never changed after
// the copy, and the system's allocator frees from any thread.
unsafe impl Send for SystemHeld {}
// SAFETY: as above; shared access only reads.
unsafe impl Sync for SystemHeld {}

impl SystemHeld {
    fn layout(len: usize) -> Option<std::alloc::Layout> {
        std::alloc::Layout::array::<u8>(len).ok()
    }

    /// A copy of `bytes` (not empty), or `None` if the memory is refused.
    fn copy_of(bytes: &[u8]) -> Option<SystemHeld> {
        use std::alloc::GlobalAlloc as _;
        let layout = Self::layout(bytes.len()).filter(|l| l.size() > 0)?;
        // SAFETY: the layout's size is not zero.
        let start = std::ptr::NonNull::new(unsafe { std::alloc::System.alloc(layout) })?;
        // SAFETY: `start` was just allocated for `bytes.len()` bytes and
        // cannot overlap `bytes`.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), start.as_ptr(), bytes.len()) };
        Some(SystemHeld {
            start,
            len: bytes.len(),
        })
    }
}

impl AsRef<[u8]> for SystemHeld {
    fn as_ref(&self) -> &[u8] {
        // SAFETY: `start` holds `len` initialized bytes until dropped.
        unsafe { std::slice::from_raw_parts(self.start.as_ptr(), self.len) }
    }
}

impl Drop for SystemHeld {
    fn drop(&mut self) {
        use std::alloc::GlobalAlloc as _;
        if let Some(layout) = Self::layout(self.len) {
            // SAFETY: allocated by the system's allocator with this layout.
            unsafe { std::alloc::System.dealloc(self.start.as_ptr(), layout) }
        }
    }
}

/// The response gzipped when the client accepts it and it is worth it
/// (unless its handler wrote it so already), and marked with the Puppet
/// version the server speaks.
pub(crate) fn finish(
    response: Response<Body>,
    accept_encoding: Option<&HeaderValue>,
) -> Response<Full<Bytes>> {
    let (mut parts, body) = response.into_parts();
    parts.headers.insert(
        "X-Puppet-Version",
        HeaderValue::from_static(crate::PUPPET_VERSION),
    );
    let gzip = takes_gzip(accept_encoding) && !parts.headers.contains_key(CONTENT_ENCODING);
    let body = if gzip && body.len() >= WORTH_COMPRESSING {
        let mut compressing = Compressing::new(true);
        match compressing
            .write_all(&body)
            .and_then(|()| compressing.finish())
        {
            Ok((compressed, _)) => {
                parts
                    .headers
                    .insert(CONTENT_ENCODING, HeaderValue::from_static("gzip"));
                compressed
            }
            Err(_) => body,
        }
    } else {
        body
    };
    Response::from_parts(parts, Full::new(body))
}

/// The header asking for compressed responses.
pub(crate) fn accept_encoding(headers: &hyper::HeaderMap) -> Option<HeaderValue> {
    headers.get(ACCEPT_ENCODING).cloned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn a_body_is_compressed_once_it_is_worth_it_and_only_for_who_takes_gzip() {
        let piece = b"{\"certname\":\"mrtest-node.example\"},";
        let write = |gzip: bool, pieces: usize| {
            let mut body = Compressing::new(gzip);
            for _ in 0..pieces {
                body.write_all(piece).unwrap();
            }
            body.finish().unwrap()
        };
        let (short, gzipped) = write(true, 3);
        assert!(!gzipped);
        assert_eq!(short.len(), 3 * piece.len());
        let (long, gzipped) = write(true, 1000);
        assert!(gzipped);
        assert!(long.len() < 1000 * piece.len() / 10);
        let mut read = Vec::new();
        flate2::read::GzDecoder::new(&long[..])
            .read_to_end(&mut read)
            .unwrap();
        assert_eq!(read, piece.repeat(1000));
        let (plain, gzipped) = write(false, 1000);
        assert!(!gzipped);
        assert_eq!(plain, piece.repeat(1000));
        let response = Compressing::new(true).response(StatusCode::OK, "application/json");
        assert!(response.headers().get(CONTENT_ENCODING).is_none());
    }

    #[test]
    fn a_long_body_is_sent_whole_from_the_system_allocators_memory_from_any_thread() {
        let body: Vec<u8> = (0..HELD_APART * 3).map(|i| (i % 251) as u8).collect();
        let sent = sendable(body.clone());
        assert_eq!(sent, body);
        let slice = sent.slice(10..20);
        // Dropped on other threads, as a connection drops what it sent.
        std::thread::spawn(move || drop(sent)).join().unwrap();
        assert_eq!(slice, body[10..20]);
        std::thread::spawn(move || drop(slice)).join().unwrap();
        let short = sendable(b"[]".to_vec());
        assert_eq!(short, &b"[]"[..]);
    }

    #[test]
    fn a_body_its_handler_gzipped_is_not_gzipped_again() {
        let mut body = Compressing::new(true);
        body.write_all(&[b'x'; 4096]).unwrap();
        let response = body.response(StatusCode::OK, "text/plain");
        let length = response.body().len();
        let accepts = HeaderValue::from_static("gzip, deflate");
        let finished = finish(response, Some(&accepts));
        assert_eq!(finished.headers().get(CONTENT_ENCODING).unwrap(), "gzip");
        assert_eq!(
            hyper::body::Body::size_hint(finished.body()).exact(),
            Some(length as u64)
        );
        assert!(takes_gzip(Some(&accepts)));
        assert!(!takes_gzip(Some(&HeaderValue::from_static("br"))));
        assert!(!takes_gzip(None));
    }
}

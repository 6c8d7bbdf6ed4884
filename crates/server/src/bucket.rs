//! `file_bucket_file`: Puppet's remote filebucket, where agents keep the
//! content a run replaces (`filebucket { 'main': server => ... }` with
//! `File { backup => 'main' }`, the classic `site.pp`) and `puppet
//! filebucket` gets it back. Kept as Puppet's bucket directory keeps it,
//! under the server's vardir: `bucket/a/b/c/d/e/f/g/h/SUM/contents`, and
//! beside it `paths`, the original paths it was saved from, one a line.

use std::path::{Path, PathBuf};

use hyper::{Method, Response, StatusCode};

use crate::http::{Body, Request, error, response, text};
use crate::server::State;

/// The digests an agent names its content by (Puppet's
/// `digest_algorithm`).
fn digest(algorithm: &str, bytes: &[u8]) -> Option<String> {
    let hex = |digest: &[u8]| {
        digest
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    };
    match algorithm {
        "md5" => {
            use md5::Digest;
            Some(hex(&md5::Md5::digest(bytes)))
        }
        "sha256" => Some(hex(
            ring::digest::digest(&ring::digest::SHA256, bytes).as_ref()
        )),
        _ => None,
    }
}

/// Where a checksum's content lives, when the checksum is one.
fn slot(root: &Path, algorithm: &str, sum: &str) -> Option<PathBuf> {
    let length = match algorithm {
        "md5" => 32,
        "sha256" => 64,
        _ => return None,
    };
    if sum.len() != length || !sum.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let sum = sum.to_ascii_lowercase();
    let mut dir = root.to_path_buf();
    for c in sum.chars().take(8) {
        dir.push(c.to_string());
    }
    Some(dir.join(sum))
}

/// `GET`, `HEAD` or `PUT` of `ALGORITHM/SUM[/ORIGINAL/PATH]`.
pub(crate) fn handle(state: &State, request: &Request, rest: &str) -> Response<Body> {
    let mut parts = rest.splitn(3, '/');
    let (algorithm, sum) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let original = parts
        .next()
        .map(|p| format!("/{}", p.trim_start_matches('/')));
    let root = state.config.vardir.join("bucket");
    let Some(dir) = slot(&root, algorithm, sum) else {
        return error(
            StatusCode::BAD_REQUEST,
            &format!("'{algorithm}/{sum}' is not a checksum of the filebucket (md5 or sha256)"),
        );
    };
    let contents = dir.join("contents");
    match request.method {
        Method::GET | Method::HEAD => match std::fs::read(&contents) {
            Ok(bytes) if request.method == Method::HEAD => {
                let _ = bytes;
                text(StatusCode::OK, "")
            }
            Ok(bytes) => response(StatusCode::OK, "application/octet-stream", bytes),
            Err(_) => error(
                StatusCode::NOT_FOUND,
                &format!("Not Found: Could not find file_bucket_file {algorithm}/{sum}"),
            ),
        },
        Method::PUT => {
            if digest(algorithm, &request.body).as_deref() != Some(&*sum.to_ascii_lowercase()) {
                return error(
                    StatusCode::BAD_REQUEST,
                    &format!("The content sent is not the content of {algorithm}/{sum}"),
                );
            }
            match keep(&dir, &request.body, original.as_deref()) {
                Ok(()) => text(StatusCode::OK, ""),
                Err(e) => {
                    state.log(&format!(
                        "Could not keep {algorithm}/{sum} in the filebucket: {e}"
                    ));
                    error(
                        StatusCode::INTERNAL_SERVER_ERROR,
                        &format!("Could not keep {algorithm}/{sum} in the filebucket: {e}"),
                    )
                }
            }
        }
        _ => error(
            StatusCode::METHOD_NOT_ALLOWED,
            &format!("No route for {} {}", request.method, request.path),
        ),
    }
}

/// Keeps the content (once: its name is its checksum) and adds the path
/// it came from to its paths, each file replaced whole.
fn keep(dir: &Path, content: &[u8], original: Option<&str>) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let replace = |name: &str, bytes: &[u8]| {
        let temporary = dir.join(format!(".{name}.{}.tmp", std::process::id()));
        std::fs::write(&temporary, bytes)?;
        std::fs::rename(&temporary, dir.join(name))
    };
    if !dir.join("contents").exists() {
        replace("contents", content)?;
    }
    if let Some(original) = original {
        let mut paths = std::fs::read_to_string(dir.join("paths")).unwrap_or_default();
        if !paths.lines().any(|line| line == original) {
            paths.push_str(original);
            paths.push('\n');
            replace("paths", paths.as_bytes())?;
        }
    }
    Ok(())
}

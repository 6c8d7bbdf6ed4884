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
        "sha384" => Some(hex(
            ring::digest::digest(&ring::digest::SHA384, bytes).as_ref()
        )),
        "sha512" => Some(hex(
            ring::digest::digest(&ring::digest::SHA512, bytes).as_ref()
        )),
        _ => None,
    }
}

/// Where a checksum's content lives, when the checksum is one.
fn slot(root: &Path, algorithm: &str, sum: &str) -> Option<PathBuf> {
    let length = match algorithm {
        "md5" => 32,
        "sha256" => 64,
        "sha384" => 96,
        "sha512" => 128,
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
            &format!(
                "'{algorithm}/{sum}' is not a checksum of the filebucket (md5, sha256, sha384 or sha512)"
            ),
        );
    };
    // One line of `paths` per path: a newline in one would forge others.
    if original
        .as_deref()
        .is_some_and(|p| p.chars().any(char::is_control))
    {
        return error(
            StatusCode::BAD_REQUEST,
            "A filebucket path may not hold control characters",
        );
    }
    if request.param("diff_with").is_some() {
        return error(
            StatusCode::BAD_REQUEST,
            "The server's filebucket does not make diffs (diff_with): fetch both contents and compare them",
        );
    }
    let contents = dir.join("contents");
    let not_found = || {
        error(
            StatusCode::NOT_FOUND,
            &format!("Not Found: Could not find file_bucket_file {algorithm}/{sum}"),
        )
    };
    match request.method {
        Method::GET | Method::HEAD => {
            // Asked with a path, the content is there only if it was kept
            // from that path, as Puppet's server answers: an agent that
            // asks before it sends then sends, and the path is recorded.
            let known = std::fs::metadata(&contents).is_ok_and(|m| m.is_file())
                && original.as_deref().is_none_or(|path| {
                    std::fs::read_to_string(dir.join("paths"))
                        .is_ok_and(|paths| paths.lines().any(|line| line == path))
                });
            if !known {
                return not_found();
            }
            if request.method == Method::HEAD {
                return text(StatusCode::OK, "");
            }
            match std::fs::read(&contents) {
                Ok(bytes) => response(StatusCode::OK, "application/octet-stream", bytes),
                Err(_) => not_found(),
            }
        }
        Method::PUT => {
            let sum = sum.to_ascii_lowercase();
            if digest(algorithm, &request.body).as_deref() != Some(&*sum) {
                return error(
                    StatusCode::BAD_REQUEST,
                    &format!("The content sent is not the content of {algorithm}/{sum}"),
                );
            }
            match keep(&dir, algorithm, &sum, &request.body, original.as_deref()) {
                Ok(()) => text(StatusCode::OK, ""),
                Err(e) => {
                    let message =
                        format!("Could not keep {algorithm}/{sum} in the filebucket: {e}");
                    state.log(&message);
                    error(StatusCode::INTERNAL_SERVER_ERROR, &message)
                }
            }
        }
        _ => error(
            StatusCode::METHOD_NOT_ALLOWED,
            &format!("No route for {} {}", request.method, request.path),
        ),
    }
}

/// Serialises changes to the bucket's files: nodes backing up the same
/// content at once would otherwise lose each other's paths.
static KEEPING: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Distinguishes the temporary files of concurrent writers.
static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Keeps the content (once: its name is its checksum; a copy that no
/// longer has it, torn by a crash, is written again) and adds the path it
/// came from to its paths, each file replaced whole.
fn keep(
    dir: &Path,
    algorithm: &str,
    sum: &str,
    content: &[u8],
    original: Option<&str>,
) -> std::io::Result<()> {
    let _kept = KEEPING.lock().unwrap_or_else(|e| e.into_inner());
    std::fs::create_dir_all(dir)?;
    let replace = |name: &str, bytes: &[u8]| {
        let temporary = dir.join(format!(
            ".{name}.{}.{}.tmp",
            std::process::id(),
            COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        ));
        let written = std::fs::write(&temporary, bytes)
            .and_then(|()| std::fs::rename(&temporary, dir.join(name)));
        if written.is_err() {
            let _ = std::fs::remove_file(&temporary);
        }
        written
    };
    let whole = std::fs::read(dir.join("contents"))
        .ok()
        .and_then(|kept| digest(algorithm, &kept))
        .is_some_and(|kept| kept == sum);
    if !whole {
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

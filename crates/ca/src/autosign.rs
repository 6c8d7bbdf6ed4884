//! Autosigning, as puppetserver decides it: `true` signs everything, a
//! missing file nothing, an executable file is a policy program and any other
//! file an allowlist.

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::error::{CaError, io_error};
use crate::settings::Autosign;

/// Whether the request for `certname` (PEM `csr_pem`) is signed at once.
pub(crate) fn should_autosign(
    policy: &Autosign,
    certname: &str,
    csr_pem: &str,
) -> Result<bool, CaError> {
    let path = match policy {
        Autosign::Off => return Ok(false),
        Autosign::All => return Ok(true),
        Autosign::Path(path) => path,
    };
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(io_error(path)(e)),
    };
    if meta.is_file() && meta.permissions().mode() & 0o111 != 0 {
        run_policy(path, certname, csr_pem)
    } else {
        let text = crate::files::read(path)?;
        Ok(allowlist_matches(&text, certname))
    }
}

/// Whether a line of the allowlist names `certname`. Blank lines and lines
/// starting with `#` are skipped; a line containing `#` or a space elsewhere
/// is invalid and matches nothing, as in puppetserver.
pub(crate) fn allowlist_matches(text: &str, certname: &str) -> bool {
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .any(|line| line_matches(line, certname))
}

fn line_matches(line: &str, certname: &str) -> bool {
    if line.contains('#') || line.contains(' ') {
        return false;
    }
    if line == "*" {
        true
    } else if line.starts_with('*') {
        glob_matches(line, certname)
    } else {
        line == certname
    }
}

/// `*.example.com` matches names whose last labels are `example.com`, and
/// `example.com` itself: puppetserver compares the labels after the glob's
/// first one, case-insensitively.
fn glob_matches(glob: &str, certname: &str) -> bool {
    let glob = glob.to_lowercase();
    let subject = certname.to_lowercase();
    let suffix: Vec<&str> = glob.split('.').skip(1).collect();
    let labels: Vec<&str> = subject.split('.').collect();
    labels.len() >= suffix.len() && labels[labels.len() - suffix.len()..] == suffix[..]
}

/// Runs the policy program with the certname as its only argument and the
/// request on its standard input, without a shell; exit status 0 signs.
fn run_policy(path: &Path, certname: &str, csr_pem: &str) -> Result<bool, CaError> {
    let failed = |source| CaError::Autosign {
        path: path.to_path_buf(),
        certname: certname.to_string(),
        source,
    };
    let mut child = Command::new(path)
        .arg(certname)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(failed)?;
    // The request is written from a thread of its own, so that a program that
    // exits without reading it (or reads it after writing much output) never
    // blocks the CA; a closed pipe just means it did not want the input.
    let stdin = child.stdin.take();
    let input = csr_pem.as_bytes().to_vec();
    let writer = std::thread::spawn(move || {
        if let Some(mut stdin) = stdin {
            let _ = stdin.write_all(&input);
        }
    });
    let status = child.wait().map_err(failed)?;
    let _ = writer.join();
    Ok(status.success())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_as_puppetserver() {
        assert!(glob_matches("*.foo.bar", "agent.foo.bar"));
        assert!(glob_matches("*.baz", "baz"));
        assert!(glob_matches("*.QUX", "0.1.qux"));
        assert!(!glob_matches("*.foo.bar", "agent.foo.baz"));
        assert!(!glob_matches("*.foo.bar", "bar"));
        assert!(!glob_matches("*.example.com", "example.com.evil.org"));
    }

    #[test]
    fn allowlist_lines() {
        let list = "# agents\nagent1\n\n*.web.example.com\nbad entry\nx#y\n";
        assert!(allowlist_matches(list, "agent1"));
        assert!(allowlist_matches(list, "a.web.example.com"));
        assert!(!allowlist_matches(list, "agent2"));
        assert!(!allowlist_matches(list, "bad"));
        assert!(!allowlist_matches(list, "x"));
        assert!(!allowlist_matches(list, "# agents"));
        assert!(allowlist_matches("*\n", "anything"));
    }
}

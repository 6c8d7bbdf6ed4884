//! File sources on web servers (`source => 'http(s)://...'`), replayed
//! against what the real `puppet apply` did with the same steps
//! (tests/http-sources: checksum headers of each kind, Last-Modified
//! times, no header at all, a server refusing HEAD, redirects, credentials,
//! a lying checksum, missing files, a refused connection, HTTPS with and
//! without the CA in `ssl_trust_store`, noop, removal). Both tools run the
//! same script, run-steps.sh, against the same local servers; its outputs
//! (messages and exit codes, the files left, the files the servers sent)
//! must be Puppet's, but for the lines listed below.

use std::path::Path;
use std::process::Command;

/// Lines of Puppet's output that Marionette words otherwise on purpose,
/// by step, with the reason.
const KNOWN_DIFFERENCES: &[(&str, &str, &str)] = &[(
    "06_https_untrusted.out",
    "certificate verify failed [unable to get local issuer certificate for CN=127.0.0.1]",
    "OpenSSL names the refused certificate's subject; rustls's verdict does not carry it",
)];

#[test]
fn web_sources_apply_as_with_puppet() {
    let steps = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/http-sources");
    let out = tempfile::tempdir().expect("a temporary directory");
    let run = Command::new(steps.join("run-steps.sh"))
        .arg(out.path())
        .args([env!("CARGO_BIN_EXE_marionette"), "apply", "--color=false"])
        .env("NO_COLOR", "1")
        .output()
        .expect("tests/http-sources/run-steps.sh runs (it needs bash, python3 and openssl)");
    assert!(
        run.status.success(),
        "run-steps.sh failed:\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let mut recorded: Vec<_> = std::fs::read_dir(&steps)
        .expect("tests/http-sources")
        .flatten()
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| {
            name.starts_with(|c: char| c.is_ascii_digit())
                && [".out", ".state", ".gets"]
                    .iter()
                    .any(|ext| name.ends_with(ext))
        })
        .collect();
    recorded.sort();
    assert!(
        recorded.len() >= 24,
        "the recordings are missing: {recorded:?}"
    );
    let mut differences = Vec::new();
    for name in &recorded {
        let expected = std::fs::read_to_string(steps.join(name)).expect("a recording");
        let actual = std::fs::read_to_string(out.path().join(name)).unwrap_or_default();
        let known = |line: &str| {
            KNOWN_DIFFERENCES
                .iter()
                .any(|(step, text, _)| *step == name && line.contains(text))
        };
        let expected: Vec<&str> = expected.lines().collect();
        let actual: Vec<&str> = actual.lines().collect();
        if expected.len() != actual.len() {
            differences.push(format!(
                "{name}: {} lines where Puppet's has {}:\n{}",
                actual.len(),
                expected.len(),
                actual.join("\n")
            ));
            continue;
        }
        for (want, got) in expected.iter().zip(&actual) {
            if want != got && !known(want) {
                differences.push(format!(
                    "{name}:\n  puppet:     {want}\n  marionette: {got}"
                ));
            }
        }
    }
    // A known difference that no longer differs must leave the list.
    for (step, text, why) in KNOWN_DIFFERENCES {
        let actual = std::fs::read_to_string(out.path().join(step)).unwrap_or_default();
        if actual.contains(text) {
            differences.push(format!(
                "{step} now matches Puppet ({why}): take it off the list"
            ));
        }
    }
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}

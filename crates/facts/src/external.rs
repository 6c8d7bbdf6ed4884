//! External facts: files in `facts.d` directories.
//!
//! As in Facter, the extension decides: `.yaml` and `.yml` hold YAML,
//! `.json` JSON, `.txt` `key=value` lines; any other file is run if it is
//! executable, and may print `key=value` lines, JSON or YAML. Names are
//! lower-cased. Files starting with a dot and files with other extensions
//! that are not executable are passed over. Every problem is reported as a
//! [`FactError`] naming the file, and the other files are still read.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::{Map, Value};
use wait_timeout::ChildExt;

use crate::error::FactError;

/// The directories searched when the caller names none: ours, then the ones
/// Facter searches when run as root.
pub fn default_external_dirs() -> Vec<PathBuf> {
    [
        "/etc/marionette/facts.d",
        "/etc/puppetlabs/facter/facts.d",
        "/etc/facter/facts.d",
        "/opt/puppetlabs/facter/facts.d",
    ]
    .iter()
    .map(PathBuf::from)
    .collect()
}

/// What a file is read as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Yaml,
    Json,
    Text,
    Executable,
}

fn kind_of(path: &Path) -> Option<Kind> {
    let extension = path
        .extension()
        .and_then(|extension| extension.to_str())
        .map(str::to_lowercase);
    match extension.as_deref() {
        Some("yaml" | "yml") => Some(Kind::Yaml),
        Some("json") => Some(Kind::Json),
        Some("txt") => Some(Kind::Text),
        _ => is_executable(path).then_some(Kind::Executable),
    }
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path)
        .is_ok_and(|metadata| metadata.is_file() && metadata.permissions().mode() & 0o111 != 0)
}

/// Whether a file that will not be run starts with `#!`: then it was meant to
/// be run, and its missing execute bit deserves an error.
fn looks_like_script(path: &Path) -> bool {
    let mut start = [0u8; 2];
    std::fs::File::open(path)
        .and_then(|mut file| file.read_exact(&mut start))
        .is_ok_and(|()| &start == b"#!")
}

/// Reads every external fact in `directories`, in order. A fact defined again
/// later (in a later file, or a later directory) replaces the earlier one.
pub(crate) fn load(
    directories: &[PathBuf],
    timeout: Duration,
) -> (Map<String, Value>, Vec<FactError>) {
    let mut facts = Map::new();
    let mut errors = Vec::new();
    for directory in directories {
        let Ok(entries) = std::fs::read_dir(directory) else {
            continue;
        };
        let mut paths: Vec<PathBuf> = entries
            .filter_map(|entry| entry.ok())
            .filter(|entry| !entry.file_name().to_string_lossy().starts_with('.'))
            .map(|entry| entry.path())
            .filter(|path| path.is_file())
            .collect();
        paths.sort();
        for path in paths {
            match load_file(&path, timeout) {
                Ok((found, warning)) => {
                    // A null value is no value: Facter then falls back to
                    // the other sources of the fact.
                    for (name, value) in found {
                        if !value.is_null() {
                            facts.insert(name.to_lowercase(), value);
                        }
                    }
                    errors.extend(warning);
                }
                Err(error) => errors.push(error),
            }
        }
    }
    (facts, errors)
}

/// The facts of one file, and a warning to report beside them.
fn load_file(
    path: &Path,
    timeout: Duration,
) -> Result<(Map<String, Value>, Option<FactError>), FactError> {
    let Some(kind) = kind_of(path) else {
        if looks_like_script(path) {
            return Err(FactError::ExternalNotExecutable {
                path: path.to_path_buf(),
            });
        }
        return Ok((Map::new(), None));
    };
    if kind == Kind::Executable {
        return run(path, timeout);
    }
    let bytes = std::fs::read(path).map_err(|error| FactError::ExternalRead {
        path: path.to_path_buf(),
        message: error.to_string(),
    })?;
    let text = String::from_utf8(bytes).map_err(|_| FactError::ExternalRead {
        path: path.to_path_buf(),
        message: "the file is not valid UTF-8".to_string(),
    })?;
    let value = match kind {
        Kind::Text => return Ok((parse_key_values(&text), None)),
        Kind::Json => serde_json::from_str(&text).map_err(|error| FactError::ExternalParse {
            path: path.to_path_buf(),
            format: "JSON",
            message: error.to_string(),
        })?,
        _ => parse_yaml(&text).map_err(|message| FactError::ExternalParse {
            path: path.to_path_buf(),
            format: "YAML",
            message,
        })?,
    };
    match value {
        Value::Object(map) => Ok((map, None)),
        // An empty YAML file holds nothing, which is no error.
        Value::Null => Ok((Map::new(), None)),
        other => Err(FactError::ExternalNotMapping {
            path: path.to_path_buf(),
            found: type_name(&other),
        }),
    }
}

fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "nothing",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "a mapping",
    }
}

/// YAML as Ruby's Psych reads it (YAML 1.1 booleans such as `yes`, and
/// `0755` as an octal number).
pub(crate) fn parse_yaml(text: &str) -> Result<Value, String> {
    // The message names the file and the place itself: a snippet would
    // show them as `<input>`.
    let options = serde_saphyr::options! {
        legacy_octal_numbers: true,
        with_snippet: false,
    };
    if text.trim().is_empty() {
        return Ok(Value::Null);
    }
    serde_saphyr::from_str_with_options(text, options).map_err(|error| error.to_string())
}

/// `key=value` lines; others are passed over. The key ends at the first `=`
/// and both must be non-empty, as in Facter.
pub(crate) fn parse_key_values(text: &str) -> Map<String, Value> {
    let mut facts = Map::new();
    for line in text.lines() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if let Some((key, value)) = line.split_once('=')
            && !key.is_empty()
            && !value.is_empty()
        {
            facts.insert(key.to_lowercase(), Value::String(value.to_string()));
        }
    }
    facts
}

/// Runs an executable fact with a time limit, in a process group of its own
/// so that everything it started can be killed with it.
fn run(
    path: &Path,
    timeout: Duration,
) -> Result<(Map<String, Value>, Option<FactError>), FactError> {
    use std::os::unix::process::CommandExt;
    let mut child = Command::new(path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .map_err(|error| FactError::ExternalSpawn {
            path: path.to_path_buf(),
            message: error.to_string(),
        })?;
    // Both pipes are drained on threads so that a chatty program cannot block
    // on a full pipe while we wait for it.
    let deadline = std::time::Instant::now() + timeout;
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    let group = i32::try_from(child.id()).unwrap_or(0);
    let timed_out = |mut child: std::process::Child| {
        if group > 0 {
            // SAFETY: kill has no memory effects; a negative pid names the
            // process group the child leads.
            unsafe { libc::kill(-group, libc::SIGKILL) };
        }
        let _ = child.kill();
        let _ = child.wait();
        FactError::ExternalTimeout {
            path: path.to_path_buf(),
            timeout,
        }
    };
    let status = match child.wait_timeout(timeout) {
        Ok(Some(status)) => status,
        Ok(None) => return Err(timed_out(child)),
        Err(error) => {
            return Err(FactError::ExternalSpawn {
                path: path.to_path_buf(),
                message: error.to_string(),
            });
        }
    };
    // A background process the program left behind may still hold the
    // pipes open; it gets what is left of the time limit.
    let remaining = || deadline.saturating_duration_since(std::time::Instant::now());
    let (Ok(stdout), Ok(stderr)) = (
        stdout.recv_timeout(remaining()),
        stderr.recv_timeout(remaining()),
    ) else {
        return Err(timed_out(child));
    };
    let stdout = String::from_utf8_lossy(&stdout).into_owned();
    let stderr = String::from_utf8_lossy(&stderr).trim().to_string();
    if !status.success() {
        use std::os::unix::process::ExitStatusExt;
        let status = match (status.code(), status.signal()) {
            (Some(code), _) => format!("exited with status {code}"),
            (None, Some(signal)) => format!("was killed by signal {signal}"),
            (None, None) => "failed".to_string(),
        };
        return Err(FactError::ExternalFailed {
            path: path.to_path_buf(),
            status,
            stderr,
        });
    }
    let warning = (!stderr.is_empty()).then(|| FactError::ExternalStderr {
        path: path.to_path_buf(),
        stderr,
    });
    Ok((parse_output(&stdout), warning))
}

/// Reads a pipe to its end on a thread; the bytes arrive on the channel.
fn drain(pipe: Option<impl Read + Send + 'static>) -> std::sync::mpsc::Receiver<Vec<u8>> {
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_end(&mut bytes);
        }
        let _ = sender.send(bytes);
    });
    receiver
}

/// What an executable printed: a YAML (or JSON) mapping if it is one,
/// `key=value` lines otherwise, as Facter reads it.
fn parse_output(output: &str) -> Map<String, Value> {
    match parse_yaml(output) {
        Ok(Value::Object(map)) => map
            .into_iter()
            .map(|(key, value)| (key.to_lowercase(), value))
            .collect(),
        _ => parse_key_values(output),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_value_lines_read_as_facter_reads_them() {
        let cases: [(&str, &[(&str, &str)]); 6] = [
            ("a=1", &[("a", "1")]),
            ("Key=v=1", &[("key", "v=1")]),
            ("no equals sign\nb=2", &[("b", "2")]),
            ("empty=\n=nokey", &[]),
            ("crlf=yes\r\n", &[("crlf", "yes")]),
            ("spaced = value", &[("spaced ", " value")]),
        ];
        for (text, expected) in cases {
            let found = parse_key_values(text);
            let expected: Map<String, Value> = expected
                .iter()
                .map(|(key, value)| (key.to_string(), Value::String(value.to_string())))
                .collect();
            assert_eq!(found, expected, "{text:?}");
        }
    }

    #[test]
    fn executable_output_may_be_yaml_json_or_key_values() {
        let cases = [
            ("a=1\nb=two\n", serde_json::json!({"a": "1", "b": "two"})),
            (
                "{\"a\": 1, \"B\": [true]}",
                serde_json::json!({"a": 1, "b": [true]}),
            ),
            (
                "a: yes\nb: 0755\n",
                serde_json::json!({"a": true, "b": 493}),
            ),
            ("just some words", serde_json::json!({})),
        ];
        for (output, expected) in cases {
            assert_eq!(Value::Object(parse_output(output)), expected, "{output:?}");
        }
    }
}

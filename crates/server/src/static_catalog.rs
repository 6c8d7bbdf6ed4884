//! Static catalogs, as puppetserver makes them when its versioned code is
//! configured: the catalog carries the code's version (`code_id`, from the
//! `code-id-command`) and, for each `file` whose sources are all
//! `puppet:///modules/...` files of a module inside the environment's
//! directory, their metadata (`metadata`, or `recursive_metadata` for a
//! recursive one, by title), so that an agent asks for no metadata, and
//! fetches content only when a file differs, by `static_file_content` at
//! that version (from the `code-content-command`).
//!
//! Both commands are given arguments, never a shell line: the code id
//! command the environment's name, the content command the environment,
//! the code id and the file's path within the environment.

use std::path::{Component, Path, PathBuf};

use serde_json::{Map, Value};

use crate::files::{self, Checksums, Options};

/// puppetserver's `versioned-code` settings.
#[derive(Clone, Debug, Default)]
pub struct VersionedCode {
    /// Prints the code's version for an environment (`code-id-command`).
    pub code_id_command: Option<PathBuf>,
    /// Prints a file's content at a version (`code-content-command`).
    pub code_content_command: Option<PathBuf>,
}

/// The checksum types inlined metadata can carry, as the agent names them.
const CHECKSUMS: &[&str] = &["sha256", "sha384", "sha512", "sha1"];

/// What the code id command says of `environment`: its version, or why
/// there is none.
pub(crate) fn code_id(command: &Path, environment: &str) -> Result<String, String> {
    let output = run(command, &[environment])?;
    let id = String::from_utf8_lossy(&output).trim().to_string();
    let valid = !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-:;.".contains(c));
    if !valid {
        return Err(format!(
            "The code id command {} printed {id:?} for environment {environment}: a code id is letters, digits and _ - : ; . only",
            command.display()
        ));
    }
    Ok(id)
}

/// The content of `path` (within the environment's directory) at `code_id`.
pub(crate) fn content(
    command: &Path,
    environment: &str,
    code_id: &str,
    path: &str,
) -> Result<Vec<u8>, String> {
    run(command, &[environment, code_id, path])
}

fn run(command: &Path, args: &[&str]) -> Result<Vec<u8>, String> {
    let output = std::process::Command::new(command)
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| format!("Could not run {}: {e}", command.display()))?;
    if !output.status.success() {
        return Err(format!(
            "{} {} failed ({}): {}",
            command.display(),
            args.join(" "),
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    Ok(output.stdout)
}

/// Where the environment's files are, for the metadata inlined.
pub(crate) struct Place<'a> {
    /// The environment's directory.
    pub(crate) dir: &'a Path,
    pub(crate) modulepath: &'a [PathBuf],
    pub(crate) checksums: &'a Checksums,
}

/// Makes `catalog` (Puppet's JSON) static at `code_id`, with the metadata
/// of the files it can inline, checksummed with the first type of the
/// agent's list (`sha256.sha384...`) that is known. A source that cannot
/// be found fails the catalog, as in Puppet.
pub(crate) fn inline(
    catalog: &[u8],
    code_id: &str,
    agent_checksums: &str,
    place: &Place<'_>,
) -> Result<Vec<u8>, String> {
    let mut catalog: Map<String, Value> = serde_json::from_slice(catalog)
        .map_err(|e| format!("The compiled catalog is not JSON: {e}"))?;
    let checksum = agent_checksums.split('.').find(|t| CHECKSUMS.contains(t));
    let mut metadata = Map::new();
    let mut recursive = Map::new();
    // The directory's real path too: a module path may name it either way.
    let real_dir = place.dir.canonicalize().ok();
    let dirs: Vec<&Path> = std::iter::once(place.dir)
        .chain(real_dir.as_deref())
        .collect();
    let resources = catalog
        .get("resources")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    for resource in resources {
        if resource.get("type").and_then(Value::as_str) != Some("File") {
            continue;
        }
        let title = resource.get("title").and_then(Value::as_str).unwrap_or("");
        let empty = Map::new();
        let parameters = resource
            .get("parameters")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let text = |name: &str| parameters.get(name).and_then(Value::as_str);
        let sources: Vec<&str> = match parameters.get("source") {
            Some(Value::String(one)) => vec![one.as_str()],
            Some(Value::Array(many)) => many.iter().filter_map(Value::as_str).collect(),
            _ => continue,
        };
        if text("ensure") == Some("absent")
            || sources.is_empty()
            || !sources.iter().all(|s| s.starts_with("puppet:"))
        {
            continue;
        }
        let Some(checksum) = text("checksum")
            .filter(|c| CHECKSUMS.contains(c))
            .or(checksum)
        else {
            continue;
        };
        let ignore: Vec<&str> = match parameters.get("ignore") {
            Some(Value::String(one)) => vec![one.as_str()],
            Some(Value::Array(many)) => many.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        let recurse = matches!(parameters.get("recurse"), Some(Value::Bool(true)))
            || matches!(text("recurse"), Some("true" | "remote"));
        let options = Options {
            recurse,
            follow_links: text("links") == Some("follow"),
            checksum_type: checksum,
            ignore,
        };
        let first_only = matches!(text("sourceselect"), None | Some("first"));
        if recurse {
            let mut found = Map::new();
            let mut inside = true;
            for source in &sources {
                let Some(entries) = lookup(place, source, &options) else {
                    continue;
                };
                let Some(base) = content_uri(&entries[0], source, &dirs) else {
                    inside = false;
                    break;
                };
                let entries = entries
                    .into_iter()
                    .map(|mut entry| {
                        let relative = entry["relative_path"].as_str().unwrap_or(".").to_string();
                        let uri = if relative == "." {
                            base.clone()
                        } else {
                            format!("{base}/{relative}")
                        };
                        entry["content_uri"] = Value::from(uri);
                        entry
                    })
                    .collect();
                found.insert(source.to_string(), Value::Array(entries));
                if first_only {
                    break;
                }
            }
            if inside && !found.is_empty() {
                recursive.insert(title.to_string(), Value::Object(found));
            }
        } else {
            let found = sources
                .iter()
                .find_map(|source| Some((source, lookup(place, source, &options)?)));
            let Some((source, mut entries)) = found else {
                return Err(format!(
                    "Could not get metadata for {}",
                    match parameters.get("source") {
                        Some(Value::String(one)) => one.clone(),
                        _ => format!(
                            "[{}]",
                            sources
                                .iter()
                                .map(|s| format!("{s:?}"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    }
                ));
            };
            let mut entry = entries.swap_remove(0);
            let Some(uri) = content_uri(&entry, source, &dirs) else {
                continue;
            };
            entry["relative_path"] = Value::Null;
            entry["content_uri"] = Value::from(uri);
            entry["source"] = Value::from(*source);
            metadata.insert(title.to_string(), entry);
        }
    }
    catalog.insert("code_id".into(), Value::from(code_id));
    if !metadata.is_empty() {
        catalog.insert("metadata".into(), Value::Object(metadata));
    }
    if !recursive.is_empty() {
        catalog.insert("recursive_metadata".into(), Value::Object(recursive));
    }
    serde_json::to_vec(&catalog).map_err(|e| e.to_string())
}

/// The metadata of a `puppet:///modules/...` source (with `recurse`, of
/// it and everything below), or `None` when it is not there.
fn lookup(place: &Place<'_>, source: &str, options: &Options<'_>) -> Option<Vec<Value>> {
    let (_, path) = split_uri(source)?;
    let mount_and_path = path.strip_prefix("/modules/")?;
    let decoded = percent_encoding::percent_decode_str(mount_and_path)
        .decode_utf8()
        .ok()?;
    let (roots, relative) = files::roots(place.modulepath, &format!("modules/{decoded}"))?;
    place.checksums.metadatas(&roots, &relative, options)
}

/// `puppet://SERVER:PORT/PATH` as its authority and path.
fn split_uri(source: &str) -> Option<(&str, &str)> {
    let rest = source.strip_prefix("puppet://")?;
    let slash = rest.find('/')?;
    Some(rest.split_at(slash))
}

/// Where an agent fetches the file an entry describes: its path within
/// the environment's directory, when that is a module's `files` there
/// (`DIR/MODULES/MODULE/files/...`), under the source's server and port.
fn content_uri(entry: &Value, source: &str, dirs: &[&Path]) -> Option<String> {
    let path = Path::new(entry.get("path")?.as_str()?);
    let within = dirs.iter().find_map(|dir| path.strip_prefix(dir).ok())?;
    let parts: Vec<&str> = within
        .components()
        .map(|c| match c {
            Component::Normal(part) => part.to_str(),
            _ => None,
        })
        .collect::<Option<_>>()?;
    if parts.len() < 4 || parts[2] != "files" {
        return None;
    }
    let (authority, _) = split_uri(source)?;
    let encoded: Vec<String> = parts
        .iter()
        .map(|part| percent_encoding::utf8_percent_encode(part, SEGMENT).to_string())
        .collect();
    Some(format!("puppet://{authority}/{}", encoded.join("/")))
}

/// What a path segment of a URI escapes.
const SEGMENT: &percent_encoding::AsciiSet = &percent_encoding::CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'`')
    .add(b'{')
    .add(b'}');

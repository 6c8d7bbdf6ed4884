//! Data files, parsed once and kept while they do not change.
//!
//! A compile reads each file once; a long-running process keeps the parsed
//! data across compiles and parses a file again only when its modification
//! time or size changed (checked at most once per compile, see
//! [`Files::next_generation`]).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use marionette_values::fasthash::FastMap;
use marionette_values::{PHash, Value};

use crate::error::{ErrorKind, HieraError, Result};

/// How a file's text becomes a hash.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Format {
    Yaml,
    Json,
    Hocon,
}

/// What a data file holds: its hash, and a warning when it held something
/// else (Puppet then uses an empty hash).
#[derive(Debug)]
pub(crate) struct Parsed {
    pub(crate) hash: Arc<PHash>,
    pub(crate) warning: Option<String>,
}

struct Cached {
    stamp: Stamp,
    generation: u64,
    parsed: Arc<Result<Parsed>>,
}

/// Parsed files and the existence of paths, shared by compiles.
#[derive(Default)]
pub(crate) struct Files {
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    generation: u64,
    parsed: FastMap<(PathBuf, Format), Cached>,
    exists: FastMap<PathBuf, (u64, bool)>,
    texts: FastMap<PathBuf, Text>,
}

/// A file's modification time and size, which tell that it changed.
type Stamp = Option<(SystemTime, u64)>;

/// A configuration's text: the compile that read it last, its stamp, the
/// text.
type Text = (u64, Stamp, Arc<std::io::Result<String>>);

fn stamp(path: &Path) -> Stamp {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.modified().ok()?, meta.len()))
}

impl Files {
    /// Starts a new compile: what was read before is checked again once.
    pub(crate) fn next_generation(&self) {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        inner.generation += 1;
    }

    /// Whether a file exists, asked once per compile.
    pub(crate) fn exists(&self, path: &Path) -> bool {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let generation = inner.generation;
        if let Some((g, exists)) = inner.exists.get(path)
            && *g == generation
        {
            return *exists;
        }
        let exists = path.exists();
        inner
            .exists
            .insert(path.to_path_buf(), (generation, exists));
        exists
    }

    /// A file's text (a configuration), read once per change.
    pub(crate) fn text(&self, path: &Path) -> Arc<std::io::Result<String>> {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let generation = inner.generation;
        if let Some((g, s, text)) = inner.texts.get_mut(path) {
            if *g == generation {
                return text.clone();
            }
            let now = stamp(path);
            if now == *s && now.is_some() {
                *g = generation;
                return text.clone();
            }
        }
        let now = stamp(path);
        let text = Arc::new(std::fs::read_to_string(path));
        inner
            .texts
            .insert(path.to_path_buf(), (generation, now, text.clone()));
        text
    }

    /// A data file parsed into a hash.
    pub(crate) fn parsed(&self, path: &Path, format: Format) -> Arc<Result<Parsed>> {
        let key = (path.to_path_buf(), format);
        {
            let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
            let generation = inner.generation;
            if let Some(cached) = inner.parsed.get_mut(&key) {
                if cached.generation == generation {
                    return cached.parsed.clone();
                }
                let now = stamp(path);
                if now == cached.stamp && now.is_some() {
                    cached.generation = generation;
                    return cached.parsed.clone();
                }
            }
        }
        // Parsing happens outside the lock, so other compiles go on.
        let now = stamp(path);
        let parsed = Arc::new(parse_file(path, format));
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let generation = inner.generation;
        inner.parsed.insert(
            key,
            Cached {
                stamp: now,
                generation,
                parsed: parsed.clone(),
            },
        );
        parsed
    }
}

fn parse_file(path: &Path, format: Format) -> Result<Parsed> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        HieraError::new(
            ErrorKind::Data,
            format!("Unable to read {}: {e}", path.display()),
        )
    })?;
    parse_text(&text, path, format)
}

/// Parses a data file's text as the backend for `format` does.
pub(crate) fn parse_text(text: &str, path: &Path, format: Format) -> Result<Parsed> {
    let value = match format {
        Format::Yaml => crate::yaml::parse(text).map_err(|e| {
            HieraError::new(
                ErrorKind::Data,
                format!("Unable to parse ({}): {e}", path.display()),
            )
        })?,
        Format::Json => json(text).map_err(|e| {
            HieraError::new(
                ErrorKind::Data,
                format!("Unable to parse ({}): {e}", path.display()),
            )
        })?,
        Format::Hocon => crate::hocon::parse(text).map_err(|e| {
            HieraError::new(
                ErrorKind::Data,
                format!("Unable to parse ({}): {e}", path.display()),
            )
        })?,
    };
    match value {
        Value::Hash(hash) => Ok(Parsed {
            hash,
            warning: None,
        }),
        _ if format == Format::Yaml => Ok(Parsed {
            hash: Arc::new(PHash::new()),
            warning: Some(format!(
                "{}: file does not contain a valid yaml hash",
                path.display()
            )),
        }),
        other => Err(HieraError::new(
            ErrorKind::Data,
            format!(
                "Value returned from data_hash function '{}_data', when using location '{}', has wrong type, expects a Hash value, got {}",
                match format {
                    Format::Json => "json",
                    _ => "hocon",
                },
                path.display(),
                crate::merge::type_name(&other)
            ),
        )),
    }
}

/// JSON data, keeping the order of keys.
fn json(text: &str) -> std::result::Result<Value, String> {
    let data: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    Ok(from_json(&data))
}

fn from_json(data: &serde_json::Value) -> Value {
    match data {
        serde_json::Value::Null => Value::Undef,
        serde_json::Value::Bool(b) => Value::Boolean(*b),
        serde_json::Value::Number(n) => match n.as_i64() {
            Some(i) => Value::Integer(i),
            None => Value::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        serde_json::Value::String(s) => Value::string(s.as_str()),
        serde_json::Value::Array(items) => Value::array(items.iter().map(from_json).collect()),
        serde_json::Value::Object(map) => Value::hash(
            map.iter()
                .map(|(k, v)| (Value::string(k.as_str()), from_json(v)))
                .collect(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value_of(parsed: &Result<Parsed>, key: &str) -> Option<Value> {
        parsed
            .as_ref()
            .ok()
            .and_then(|p| p.hash.get(&Value::string(key)).cloned())
    }

    #[test]
    fn a_file_is_parsed_once_per_compile_and_again_when_it_changes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("common.yaml");
        std::fs::write(&path, "k: one\n").unwrap();
        let files = Files::default();
        files.next_generation();
        let first = files.parsed(&path, Format::Yaml);
        assert_eq!(value_of(&first, "k"), Some(Value::string("one")));
        // Within one compile the file is not read again, even if it changes.
        std::fs::write(&path, "k: second\n").unwrap();
        let same = files.parsed(&path, Format::Yaml);
        assert!(Arc::ptr_eq(&first, &same));
        // The next compile sees the change (the size differs).
        files.next_generation();
        let changed = files.parsed(&path, Format::Yaml);
        assert_eq!(value_of(&changed, "k"), Some(Value::string("second")));
        // And keeps what did not change.
        files.next_generation();
        let kept = files.parsed(&path, Format::Yaml);
        assert!(Arc::ptr_eq(&changed, &kept));
    }

    #[test]
    fn existence_is_asked_once_per_compile() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("late.yaml");
        let files = Files::default();
        files.next_generation();
        assert!(!files.exists(&path));
        std::fs::write(&path, "k: v\n").unwrap();
        assert!(!files.exists(&path), "answered from this compile's look");
        files.next_generation();
        assert!(files.exists(&path));
    }

    #[test]
    fn an_alias_bomb_is_a_data_error_naming_the_file_and_the_place() {
        let mut text = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
        for (before, name) in ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"]
            .windows(2)
            .map(|w| (w[0], w[1]))
        {
            let aliases = vec![format!("*{before}"); 10].join(", ");
            text.push_str(&format!("{name}: &{name} [{aliases}]\n"));
        }
        let error = parse_text(&text, Path::new("/x/mrtest-bomb.yaml"), Format::Yaml).unwrap_err();
        assert_eq!(error.kind, ErrorKind::Data);
        assert!(
            error.message.starts_with(
                "Unable to parse (/x/mrtest-bomb.yaml): the document's aliases expand to more than "
            ),
            "{}",
            error.message
        );
        assert!(error.message.contains(" at line "), "{}", error.message);
    }

    #[test]
    fn data_that_is_no_hash_is_a_warning_for_yaml_and_an_error_for_json() {
        let path = Path::new("/x/data.yaml");
        let parsed = parse_text("- a\n", path, Format::Yaml).unwrap();
        assert!(parsed.hash.is_empty());
        assert_eq!(
            parsed.warning.as_deref(),
            Some("/x/data.yaml: file does not contain a valid yaml hash")
        );
        let error = parse_text("[1]", Path::new("/x/d.json"), Format::Json).unwrap_err();
        assert_eq!(error.kind, ErrorKind::Data);
        assert!(
            error.message.contains("expects a Hash value"),
            "{}",
            error.message
        );
    }
}

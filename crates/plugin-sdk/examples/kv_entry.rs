//! The kv_entry provider of `tests/fixtures/modules/kv`, in Rust: keys of
//! INI-like files, `NAME` above the first section or `SECTION.NAME` for
//! `NAME` in `[SECTION]`. It is the simplest kind of provider, one file
//! write per changed resource through the per-change methods, without
//! comments or batching. To use it, build it
//! (`cargo build --example kv_entry`) and copy the binary to
//! `MODULE/lib/marionette/providers/kv_entry/rust`.

use std::fs;
use std::io::Write;
use std::path::Path;

use marionette_plugin_sdk::{Handshake, HandshakeRequest, Logger, Provider, State, Wanted, reveal};
use serde_json::Value;

struct KvEntry;

/// `(index, section, name, value)` of every `name = value` line.
type Entry = (usize, Option<String>, String, String);

fn entries(lines: &[String]) -> Vec<Entry> {
    let mut section = None;
    let mut found = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        let line = line.trim();
        if let Some(header) = line.strip_prefix('[').and_then(|rest| rest.split_once(']')) {
            section = Some(header.0.trim().to_string());
        } else if let Some((name, value)) = line.split_once('=')
            && !line.starts_with(['#', ';'])
        {
            let (name, value) = (name.trim().to_string(), value.trim().to_string());
            found.push((index, section.clone(), name, value));
        }
    }
    found
}

/// The file and key of a change: from its state, or from its title.
fn identity(state: &State, name: &str) -> (String, String) {
    let field = |key: &str| state.get(key).and_then(Value::as_str).map(str::to_string);
    let (path, key) = name.split_once(':').unwrap_or((name, ""));
    (
        field("path").unwrap_or(path.into()),
        field("key").unwrap_or(key.into()),
    )
}

/// Sets the key to `value`, or removes it when `value` is None, and
/// replaces the file in one rename, so a reader never sees half of it.
fn edit(path: &str, key: &str, value: Option<&str>) -> Result<(), String> {
    let (section, name) = match key.split_once('.') {
        Some((section, name)) => (Some(section.to_string()), name),
        None => (None, key),
    };
    let text = fs::read_to_string(path).or_else(|e| match e.kind() {
        std::io::ErrorKind::NotFound => Ok(String::new()),
        _ => Err(format!("cannot read {path}: {e}")),
    })?;
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let before = lines.clone();
    let found = entries(&lines);
    let mine: Vec<usize> = found
        .iter()
        .filter(|e| e.1 == section && e.2 == name)
        .map(|e| e.0)
        .collect();
    match value.map(|value| format!("{name} = {value}")) {
        None => {
            for &index in mine.iter().rev() {
                lines.remove(index);
            }
        }
        Some(line) if !mine.is_empty() => {
            for &index in &mine {
                lines[index].clone_from(&line);
            }
        }
        // A new key goes after the last key of its section.
        Some(line) => match (found.iter().rfind(|e| e.1 == section), section) {
            (Some(last), _) => lines.insert(last.0 + 1, line),
            (None, None) => lines.insert(0, line),
            (None, Some(section)) => lines.extend([format!("[{section}]"), line]),
        },
    }
    if lines == before {
        return Ok(());
    }
    let directory = Path::new(path)
        .parent()
        .ok_or(format!("{path} has no directory"))?;
    let temporary = directory.join(format!(".kv_entry.{}", std::process::id()));
    let write = || -> std::io::Result<()> {
        let mut file = fs::File::create(&temporary)?;
        file.write_all(
            lines
                .iter()
                .map(|l| format!("{l}\n"))
                .collect::<String>()
                .as_bytes(),
        )?;
        if let Ok(old) = fs::metadata(path) {
            fs::set_permissions(&temporary, old.permissions())?;
        }
        fs::rename(&temporary, path)
    };
    write().map_err(|e| {
        let _ = fs::remove_file(&temporary);
        format!("cannot write {path}: {e}")
    })
}

impl Provider for KvEntry {
    fn describe(&mut self, _request: &HandshakeRequest) -> Handshake {
        Handshake {
            doc: "Edits keys of INI-like files, one write per resource (the SDK's example).".into(),
            ..Handshake::default()
        }
    }

    /// Reads the file of every wanted resource (its `path`, which a title
    /// such as `PATH:KEY` need not give) and returns all of its keys;
    /// without resources, there is nothing to read.
    fn get(&mut self, wanted: Option<&[Wanted]>, _log: &Logger) -> Result<Vec<State>, String> {
        let mut paths: Vec<&str> = wanted
            .unwrap_or_default()
            .iter()
            .map(|w| {
                w.attribute("path")
                    .unwrap_or_else(|| w.split(':').next().unwrap())
            })
            .collect();
        paths.sort();
        paths.dedup();
        let mut states = Vec::new();
        for path in paths {
            let Ok(text) = fs::read_to_string(path) else {
                continue;
            };
            for (_, section, name, value) in
                entries(&text.lines().map(str::to_string).collect::<Vec<_>>())
            {
                let key = section.map_or(name.clone(), |section| format!("{section}.{name}"));
                let mut state = State::new();
                state.insert("path".into(), path.into());
                state.insert("key".into(), key.into());
                state.insert("ensure".into(), "present".into());
                state.insert("value".into(), value.into());
                states.push(state);
            }
        }
        Ok(states)
    }

    fn create(&mut self, name: &str, should: &State, log: &Logger) -> Result<(), String> {
        let (path, key) = identity(should, name);
        let value = should.get("value").map(reveal).and_then(Value::as_str);
        edit(
            &path,
            &key,
            Some(value.ok_or(format!("{name}: a new key needs a value"))?),
        )?;
        log.log(
            marionette_plugin_sdk::Level::Notice,
            format!("rewrote {path}"),
            Some(name),
        );
        Ok(())
    }

    fn update(
        &mut self,
        name: &str,
        _is: &State,
        should: &State,
        log: &Logger,
    ) -> Result<(), String> {
        // Without a value to manage, an existing key has nothing to change.
        match should.get("value") {
            Some(_) => self.create(name, should, log),
            None => Ok(()),
        }
    }

    fn delete(&mut self, name: &str, is: &State, _log: &Logger) -> Result<(), String> {
        let (path, key) = identity(is, name);
        edit(&path, &key, None)
    }
}

fn main() -> std::io::Result<()> {
    marionette_plugin_sdk::serve_provider(KvEntry)
}

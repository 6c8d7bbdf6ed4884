//! The `rust` provider of `hello_setting`: `KEY=VALUE` lines of a file.
use std::fs;

use marionette_plugin_sdk::{Handshake, HandshakeRequest, Logger, Provider, State, Wanted};
use serde_json::Value;

/// The `KEY=VALUE` pairs of a file, in order; none when it is missing.
fn read(path: &str) -> Result<Vec<(String, String)>, String> {
    match fs::read_to_string(path) {
        Ok(text) => Ok(text
            .lines()
            .filter_map(|line| line.split_once('='))
            .map(|(key, value)| (key.to_string(), value.to_string()))
            .collect()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(format!("cannot read {path}: {e}")),
    }
}

/// Replaces the file in one rename, so no reader sees half of it.
fn write(path: &str, pairs: &[(String, String)]) -> Result<(), String> {
    let text: String = pairs.iter().map(|(k, v)| format!("{k}={v}\n")).collect();
    let temporary = format!("{path}.new");
    fs::write(&temporary, text).map_err(|e| format!("cannot write {temporary}: {e}"))?;
    fs::rename(&temporary, path).map_err(|e| format!("cannot replace {path}: {e}"))
}

fn text<'a>(state: &'a State, attribute: &str) -> Result<&'a str, String> {
    state
        .get(attribute)
        .and_then(Value::as_str)
        .ok_or(format!("no {attribute} given"))
}

struct Rust;

impl Provider for Rust {
    fn describe(&mut self, _request: &HandshakeRequest) -> Handshake {
        Handshake {
            doc: "Edits the file with Rust.".into(),
            ..Handshake::default()
        }
    }

    fn get(&mut self, wanted: Option<&[Wanted]>, _log: &Logger) -> Result<Vec<State>, String> {
        let mut paths: Vec<&str> = wanted
            .unwrap_or_default()
            .iter()
            .filter_map(|w| w.attribute("path"))
            .collect();
        paths.sort();
        paths.dedup();
        let mut states = Vec::new();
        for path in paths {
            for (key, value) in read(path)? {
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
        self.update(name, &State::new(), should, log)
    }

    fn update(
        &mut self,
        _name: &str,
        _is: &State,
        should: &State,
        _log: &Logger,
    ) -> Result<(), String> {
        let (path, key, value) = (
            text(should, "path")?,
            text(should, "key")?,
            text(should, "value")?,
        );
        let mut pairs = read(path)?;
        match pairs.iter_mut().find(|(k, _)| k == key) {
            Some(pair) => pair.1 = value.to_string(),
            None => pairs.push((key.to_string(), value.to_string())),
        }
        write(path, &pairs)
    }

    fn delete(&mut self, _name: &str, is: &State, _log: &Logger) -> Result<(), String> {
        let (path, key) = (text(is, "path")?, text(is, "key")?);
        let mut pairs = read(path)?;
        pairs.retain(|(k, _)| k != key);
        write(path, &pairs)
    }
}

fn main() -> std::io::Result<()> {
    marionette_plugin_sdk::serve_provider(Rust)
}

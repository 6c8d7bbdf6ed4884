//! Every directory under `tests/fixtures/` is a machine: the files the
//! collectors read (below their absolute paths) and `calls.json`, the
//! answers of the system calls. `expected.json` beside them holds the facts
//! and legacy facts that must come out.
//!
//! `vm` was captured from a real machine with `examples/capture.rs`; the
//! other shapes are hand-edited copies. After a deliberate change, run the
//! test with `UPDATE_EXPECT=1` and review the diff of `expected.json`.

use std::path::{Path, PathBuf};

use marionette_facts::{Options, System, collect, format};
use serde_json::{Map, Value};

fn shapes() -> Vec<PathBuf> {
    let directory = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut shapes: Vec<PathBuf> = std::fs::read_dir(&directory)
        .map(|entries| {
            entries
                .filter_map(|entry| entry.ok())
                .map(|entry| entry.path())
                .collect()
        })
        .unwrap_or_default();
    shapes.retain(|path| path.join("calls.json").is_file());
    shapes.sort();
    shapes
}

/// The collected facts of a shape, as `expected.json` holds them.
fn render(shape: &Path) -> Result<String, String> {
    let options = Options {
        system: System::fixture(shape)?,
        external: false,
        environment_facts: false,
        ..Options::default()
    };
    let collection = collect(&options);
    let mut document = Map::new();
    document.insert("facts".into(), Value::Object(collection.facts));
    document.insert("legacy".into(), Value::Object(collection.legacy));
    let errors: Vec<Value> = collection
        .errors
        .iter()
        .map(|e| Value::String(e.to_string()))
        .collect();
    document.insert("errors".into(), Value::Array(errors));
    Ok(format::to_json(&Value::Object(document)) + "\n")
}

/// The first line where two texts differ, for the failure message.
fn first_difference(expected: &str, actual: &str) -> String {
    for (number, (left, right)) in expected.lines().zip(actual.lines()).enumerate() {
        if left != right {
            return format!("line {}: expected `{left}`, got `{right}`", number + 1);
        }
    }
    format!(
        "{} lines expected, {} produced",
        expected.lines().count(),
        actual.lines().count()
    )
}

#[test]
fn every_fixture_gives_its_expected_facts() {
    let shapes = shapes();
    assert!(shapes.len() >= 4, "the fixtures are missing: {shapes:?}");
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut failures = Vec::new();
    for shape in &shapes {
        let name = shape
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let actual = match render(shape) {
            Ok(actual) => actual,
            Err(error) => {
                failures.push(format!("{name}: {error}"));
                continue;
            }
        };
        let expected_path = shape.join("expected.json");
        if update {
            if let Err(error) = std::fs::write(&expected_path, &actual) {
                failures.push(format!("{name}: {error}"));
            }
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if expected != actual {
            failures.push(format!("{name}: {}", first_difference(&expected, &actual)));
        }
    }
    assert!(
        failures.is_empty(),
        "fixtures differ (rerun with UPDATE_EXPECT=1 if the change is intended):\n{}",
        failures.join("\n")
    );
}

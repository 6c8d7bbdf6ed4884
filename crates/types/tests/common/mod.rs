//! Helpers the type tests share: values, a resource of a built-in type
//! built from parameters, and sessions whose log the test can read. Use it
//! from a test file with `mod common;`.

// Each test binary compiles its own copy and uses only part of it.
#![allow(dead_code)]

use std::sync::{Arc, Mutex};

use marionette_ral::log::Entry;
use marionette_ral::{Level, Logger, Origin, Outcome, Resource, Session};
use marionette_values::Value;

pub(crate) fn s(text: &str) -> Value {
    Value::String(text.into())
}

/// A resource of a built-in type, validated and munged as a run would.
pub(crate) fn resource(
    type_name: &str,
    title: &str,
    params: &[(&str, Value)],
) -> Result<Resource, String> {
    let registry = marionette_types::registry();
    let type_def = registry
        .type_def(type_name)
        .unwrap_or_else(|| panic!("{type_name} is registered"))
        .clone();
    Resource::new(
        type_def,
        title,
        params.iter().map(|(k, v)| (k.to_string(), v.clone())),
        Origin::default(),
    )
    .map_err(|e| e.to_string())
}

/// A session over the built-in types whose log messages are kept for the
/// test to read.
pub(crate) struct Run {
    pub(crate) session: Session,
    log: Arc<Mutex<Vec<Entry>>>,
}

impl Run {
    pub(crate) fn new() -> Run {
        let log = Arc::new(Mutex::new(Vec::new()));
        let kept = log.clone();
        let logger = Logger::with_sink(move |entry| kept.lock().unwrap().push(entry.clone()));
        Run {
            session: Session::new(
                Arc::new(marionette_types::registry()),
                Arc::default(),
                logger,
            ),
            log,
        }
    }

    pub(crate) fn evaluate(&mut self, resource: &Resource) -> Outcome {
        self.session.evaluate(resource, false)
    }

    pub(crate) fn noop(&mut self, resource: &Resource) -> Outcome {
        self.session.evaluate(resource, true)
    }

    /// The messages about a resource at a level, its command's output
    /// (filed under `returns`, as Puppet does) included.
    pub(crate) fn messages(&self, source: &str, level: Level) -> Vec<String> {
        let output = format!("{source}/returns");
        self.log
            .lock()
            .unwrap()
            .iter()
            .filter(|e| (e.source == source || e.source == output) && e.level == level)
            .map(|e| e.message.clone())
            .collect()
    }

    /// The whole log, for failure messages.
    pub(crate) fn everything(&self) -> String {
        self.log
            .lock()
            .unwrap()
            .iter()
            .map(|e| format!("{}: {}: {}\n", e.level, e.source, e.message))
            .collect()
    }
}

/// Evaluates a resource that must not fail, and returns its events as
/// `property: message` lines.
pub(crate) fn changes(resource: &Resource) -> Vec<String> {
    let outcome = Run::new().evaluate(resource);
    assert_eq!(outcome.failed, None);
    events(&outcome)
}

/// An outcome's events as `property: message` lines.
pub(crate) fn events(outcome: &Outcome) -> Vec<String> {
    outcome
        .events
        .iter()
        .map(|e| format!("{}: {}", e.property, e.message))
        .collect()
}

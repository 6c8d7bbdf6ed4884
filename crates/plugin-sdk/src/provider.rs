//! Providers: what they declare and the methods they implement.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::State;
use crate::log::{Level, Logger};
use crate::serve::HandshakeRequest;

/// What a provider declares in its handshake. The loop adds the protocol
/// version. Build it with `..Handshake::default()` for the fields that
/// keep their defaults.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Handshake {
    /// Shown by `marionette describe TYPE --providers`.
    pub doc: String,
    /// Name to program (absolute, or searched on `PATH`): the provider is
    /// suitable only when every program exists.
    pub commands: BTreeMap<String, String>,
    pub confine: Confine,
    /// Fact sets (fact to allowed values); the provider is a default where
    /// all facts of one set match.
    pub defaultfor: Vec<BTreeMap<String, Vec<String>>>,
    /// The type's features this provider has.
    pub features: Vec<String>,
    /// Whether the engine collects the run's changes into one `set`.
    pub batch: bool,
    /// Whether `set` is also sent in noop runs.
    pub supports_noop: bool,
    /// Seconds allowed for each later request; None for the engine's
    /// default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout: Option<u64>,
}

/// Conditions that must all hold for a provider to be suitable.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Confine {
    /// Files that must exist.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub exists: Vec<String>,
    /// Fact (legacy name or dotted path) to allowed values.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub facts: BTreeMap<String, Vec<String>>,
    /// System features: `posix`, `root`, `systemd`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub features: Vec<String>,
}

/// One resource a `set` asks to change.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct Change {
    /// The resource's name (its namevar, or its title for a type with
    /// several namevars).
    pub name: String,
    /// The resource reference, `Type[title]`, for messages.
    #[serde(default)]
    pub resource: String,
    /// The state `get` returned; `ensure` is `absent` when the thing does
    /// not exist.
    #[serde(default)]
    pub is: State,
    /// The desired state: identity, `ensure`, managed properties and the
    /// parameters the resource gives.
    #[serde(default)]
    pub should: State,
}

/// A resource `get` is asked about: its name (its namevar, or its title
/// for a type with several namevars) and every attribute of its identity.
/// A title need not spell the identity out (`kv_entry { 'port': path =>
/// '/etc/app.ini', key => 'port' }`): read the identity, not the name.
/// It reads as its name (`wanted.split(':')`, `&*wanted`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Wanted {
    pub name: String,
    /// Identity attribute to value; empty when an older engine sent names
    /// alone.
    pub identity: State,
}

impl Wanted {
    /// An identity attribute's value as text, when it is a string.
    pub fn attribute(&self, name: &str) -> Option<&str> {
        self.identity.get(name).and_then(Value::as_str)
    }
}

impl std::ops::Deref for Wanted {
    type Target = str;

    fn deref(&self) -> &str {
        &self.name
    }
}

/// What a change does to its resource.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Create,
    Update,
    Delete,
}

impl Change {
    /// Delete when `should` says `ensure: absent`; create when the
    /// resource does not exist (`is` is empty or says `ensure: absent`);
    /// update otherwise, which includes every change of a type that is
    /// not ensurable.
    pub fn action(&self) -> Action {
        let absent = |state: &State| state.get("ensure").and_then(Value::as_str) == Some("absent");
        if absent(&self.should) {
            Action::Delete
        } else if self.is.is_empty() || absent(&self.is) {
            Action::Create
        } else {
            Action::Update
        }
    }
}

/// A provider. Implement [`Provider::describe`] and [`Provider::get`],
/// then either [`Provider::set`] or the per-change methods
/// [`Provider::create`], [`Provider::update`] and [`Provider::delete`]
/// that the default `set` calls.
///
/// An `Err` from `get`, `instances` or `set` fails the whole request with
/// its message; an `Err` in one entry of `set`'s results fails that
/// change alone.
pub trait Provider {
    /// The handshake's answer. `request` says which type and provider
    /// name the engine asked for, and in which environment.
    fn describe(&mut self, request: &HandshakeRequest) -> Handshake;

    /// Current states of the wanted resources, or of everything when
    /// `wanted` is None. They are a hint: returning more is fine, and what
    /// does not exist is left out.
    fn get(&mut self, wanted: Option<&[Wanted]>, log: &Logger<'_>) -> Result<Vec<State>, String>;

    /// Every resource the provider can find; `get(None)` by default.
    fn instances(&mut self, log: &Logger<'_>) -> Result<Vec<State>, String> {
        self.get(None, log)
    }

    /// Applies changes: one result per change, in order.
    ///
    /// The default calls `create`, `update` or `delete` for each change,
    /// as [`Change::action`] says. In a noop run (sent only when the
    /// handshake sets `supports_noop`) it calls none of them and logs what
    /// it would do.
    fn set(
        &mut self,
        changes: &[Change],
        noop: bool,
        log: &Logger<'_>,
    ) -> Result<Vec<Result<(), String>>, String> {
        let mut results = Vec::with_capacity(changes.len());
        for change in changes {
            let action = change.action();
            if noop {
                let verb = match action {
                    Action::Create => "create",
                    Action::Update => "update",
                    Action::Delete => "delete",
                };
                log.log(
                    Level::Notice,
                    format!("would {verb} {}", change.name),
                    Some(&change.name),
                );
                results.push(Ok(()));
                continue;
            }
            results.push(match action {
                Action::Create => self.create(&change.name, &change.should, log),
                Action::Update => self.update(&change.name, &change.is, &change.should, log),
                Action::Delete => self.delete(&change.name, &change.is, log),
            });
        }
        Ok(results)
    }

    fn create(&mut self, name: &str, _should: &State, _log: &Logger<'_>) -> Result<(), String> {
        Err(format!("this provider cannot create {name}"))
    }

    fn update(
        &mut self,
        name: &str,
        _is: &State,
        _should: &State,
        _log: &Logger<'_>,
    ) -> Result<(), String> {
        Err(format!("this provider cannot update {name}"))
    }

    fn delete(&mut self, name: &str, _is: &State, _log: &Logger<'_>) -> Result<(), String> {
        Err(format!("this provider cannot delete {name}"))
    }
}

/// Lets a caller keep its provider (a test, say, that looks at it after
/// the conversation).
impl<P: Provider + ?Sized> Provider for &mut P {
    fn describe(&mut self, request: &HandshakeRequest) -> Handshake {
        (**self).describe(request)
    }

    fn get(&mut self, wanted: Option<&[Wanted]>, log: &Logger<'_>) -> Result<Vec<State>, String> {
        (**self).get(wanted, log)
    }

    fn instances(&mut self, log: &Logger<'_>) -> Result<Vec<State>, String> {
        (**self).instances(log)
    }

    fn set(
        &mut self,
        changes: &[Change],
        noop: bool,
        log: &Logger<'_>,
    ) -> Result<Vec<Result<(), String>>, String> {
        (**self).set(changes, noop, log)
    }

    fn create(&mut self, name: &str, should: &State, log: &Logger<'_>) -> Result<(), String> {
        (**self).create(name, should, log)
    }

    fn update(
        &mut self,
        name: &str,
        is: &State,
        should: &State,
        log: &Logger<'_>,
    ) -> Result<(), String> {
        (**self).update(name, is, should, log)
    }

    fn delete(&mut self, name: &str, is: &State, log: &Logger<'_>) -> Result<(), String> {
        (**self).delete(name, is, log)
    }
}

//! Helpers for writing Marionette plugins in Rust.
//!
//! A module extends Marionette with providers and functions that are
//! separate executables: the engine starts one, writes requests on its
//! standard input and reads answers on its standard output, one JSON
//! object per line (`docs/plugin-protocol.md`, version 1). This crate
//! does that plumbing, so a plugin is a type implementing [`Provider`] or
//! [`Function`] and a `main` that hands it to [`serve_provider`] or
//! [`serve_function`]:
//!
//! ```no_run
//! use marionette_plugin_sdk::{Handshake, HandshakeRequest, Logger, Provider, State, Wanted};
//!
//! struct Hostname;
//!
//! impl Provider for Hostname {
//!     fn describe(&mut self, _request: &HandshakeRequest) -> Handshake {
//!         Handshake {
//!             doc: "Reads the host name.".into(),
//!             ..Handshake::default()
//!         }
//!     }
//!
//!     fn get(&mut self, _wanted: Option<&[Wanted]>, _log: &Logger) -> Result<Vec<State>, String> {
//!         let name = std::fs::read_to_string("/etc/hostname").map_err(|e| e.to_string())?;
//!         let mut state = State::new();
//!         state.insert("name".into(), name.trim().into());
//!         state.insert("ensure".into(), "present".into());
//!         Ok(vec![state])
//!     }
//! }
//!
//! fn main() -> std::io::Result<()> {
//!     marionette_plugin_sdk::serve_provider(Hostname)
//! }
//! ```
//!
//! What the loop does for every plugin:
//!
//! - It answers each request with one line and flushes it, so the engine,
//!   which waits for each answer, never waits on a buffer.
//! - It answers the handshake itself from the [`Handshake`] (or
//!   [`FunctionHandshake`]) the plugin describes, adding the protocol
//!   version, and refuses a handshake for another version or another kind
//!   of plugin.
//! - An `Err` from a method becomes an error answer with its message; a
//!   panic is not caught, so the process ends and the engine reports the
//!   panic message it finds on standard error.
//! - A line that is not a request (not JSON, not an object, no method) is
//!   answered with an error and the line's id, or `"id": null` when it
//!   has none; the engine takes either as a protocol error. An unknown
//!   method gets an error answer too. Blank lines are skipped.
//! - It stops after answering `shutdown`, or when its input ends.
//!
//! Standard output belongs to the protocol: a plugin must not print on it
//! (`println!`), only on standard error (`eprintln!`), which the engine
//! shows in its debug output. To say something in the run's report, use
//! the [`Logger`] every method receives.
//!
//! States and values are plain [`serde_json`] values. Values Puppet keeps
//! secret arrive wrapped as `{"__ptype": "Sensitive", "__pvalue": ...}`;
//! [`Sensitive`] and [`reveal`] read and write that form.

mod function;
mod log;
mod provider;
mod sensitive;
mod serve;

pub use function::{Function, FunctionHandshake, Parameter};
pub use log::{Level, Logger};
pub use provider::{Action, Change, Confine, Handshake, Provider, Wanted};
pub use sensitive::{Sensitive, is_sensitive, reveal};
pub use serve::{
    HandshakeRequest, serve_function, serve_function_on, serve_provider, serve_provider_on,
};

/// The protocol version this crate speaks.
pub const PROTOCOL: u64 = 1;

/// A resource's state: attribute names to values, in the order the
/// provider inserts them.
pub type State = serde_json::Map<String, serde_json::Value>;

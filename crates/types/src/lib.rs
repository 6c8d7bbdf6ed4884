//! The built-in resource types and their providers.
//!
//! Each type lives in `src/types/<type>.rs` and each provider in
//! `src/providers/<type>/<provider>.rs`, so a reader finds anything by its
//! Puppet name. [`registry`] puts them all in a fresh [`Registry`]; an
//! environment starts from it and adds what its modules ship.

mod dns;
pub mod providers;
pub mod system;
pub mod types;

use marionette_ral::Registry;

/// A registry holding every built-in type and provider.
pub fn registry() -> Registry {
    let mut registry = Registry::new();
    types::register(&mut registry).unwrap_or_else(|e| panic!("a built-in type is malformed: {e}"));
    registry
}

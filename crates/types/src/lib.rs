//! The built-in resource types and their providers.
//!
//! Each type lives in `src/types/<type>.rs` and each provider in
//! `src/providers/<type>/<provider>.rs`, so a reader finds anything by its
//! Puppet name. [`registry`] puts them all in a fresh [`Registry`]; an
//! environment starts from it and adds what its modules ship.

mod dns;
pub mod providers;
pub mod system;
mod text;
pub mod types;

use std::path::PathBuf;

use marionette_ral::{RalError, Registry};

/// A registry holding every built-in type and provider.
pub fn registry() -> Registry {
    let mut registry = Registry::new();
    types::register(&mut registry).unwrap_or_else(|e| panic!("a built-in type is malformed: {e}"));
    registry
}

/// Adds a native type and its providers to a registry.
pub type AddType = fn(&mut Registry) -> Result<(), RalError>;

/// The types modules ship in Ruby that marionette implements natively:
/// `(type, module, adds it)`. As in Puppet, such a type exists only in an
/// environment whose module path holds that module with the type's file
/// (`MODULE/lib/puppet/type/TYPE.rb`); [`add_module_types`] adds those.
pub const MODULE_TYPES: &[(&str, &str, AddType)] = &[
    ("file_line", "stdlib", types::file_line::register),
    ("ini_setting", "inifile", types::ini_setting::register),
    ("ini_subsetting", "inifile", types::ini_subsetting::register),
];

/// Adds to `registry` the native types of [`MODULE_TYPES`] whose module is
/// among `modules` (module directories, the first of each name, as
/// `Plugins::modules` lists them) and ships the type's file.
pub fn add_module_types(registry: &mut Registry, modules: &[PathBuf]) {
    for (type_name, module, add) in MODULE_TYPES {
        let shipped = modules.iter().any(|dir| {
            dir.file_name().is_some_and(|name| name == *module)
                && dir
                    .join(format!("lib/puppet/type/{type_name}.rb"))
                    .is_file()
        });
        if shipped {
            add(registry).unwrap_or_else(|e| panic!("a built-in type is malformed: {e}"));
        }
    }
}

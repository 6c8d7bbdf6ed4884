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

use std::path::Path;

use marionette_ral::{RalError, Registry};

/// A registry holding every built-in type and provider.
pub fn registry() -> Registry {
    let mut registry = Registry::new();
    types::register(&mut registry).unwrap_or_else(|e| panic!("a built-in type is malformed: {e}"));
    registry
}

/// A type that Puppet gets from a module (`MODULE/lib/puppet/type/NAME.rb`)
/// and that is built in here: `(type name, module name, registers the type
/// and its providers)`.
pub type ModuleType = (
    &'static str,
    &'static str,
    fn(&mut Registry) -> Result<(), RalError>,
);

/// The module types applied natively. Each exists only in an environment
/// whose module path has the module shipping it, as in Puppet.
pub const MODULE_TYPES: &[ModuleType] = &[
    ("anchor", "stdlib", types::anchor::register),
    ("file_line", "stdlib", types::file_line::register),
    ("ini_setting", "inifile", types::ini_setting::register),
    ("ini_subsetting", "inifile", types::ini_subsetting::register),
    ("concat_file", "concat", types::concat_file::register),
    (
        "concat_fragment",
        "concat",
        types::concat_fragment::register,
    ),
    (
        "ssh_authorized_key",
        "sshkeys_core",
        types::ssh_authorized_key::register,
    ),
    ("sshkey", "sshkeys_core", types::sshkey::register),
    ("mount", "mount_core", types::mount::register),
];

/// Whether a type is one of [`MODULE_TYPES`]: the compiler then reads it
/// from the module's own file, which says what that version accepts.
pub fn is_module_type(name: &str) -> bool {
    MODULE_TYPES
        .iter()
        .any(|(type_name, _, _)| *type_name == name)
}

/// Adds the [`MODULE_TYPES`] whose module is on the module path and ships
/// the type's file (the first module of that name wins, as for classes).
pub fn add_module_types(registry: &mut Registry, modulepath: &[impl AsRef<Path>]) {
    for (type_name, module, register) in MODULE_TYPES {
        let shipped = modulepath
            .iter()
            .map(|dir| dir.as_ref().join(module))
            .find(|dir| dir.is_dir())
            .is_some_and(|dir| {
                dir.join(format!("lib/puppet/type/{type_name}.rb"))
                    .is_file()
            });
        if shipped {
            register(registry)
                .unwrap_or_else(|e| panic!("the built-in type {type_name} is malformed: {e}"));
        }
    }
}

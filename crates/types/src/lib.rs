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
pub mod web;

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
/// and its providers, the SHA-256 digests of the module's type files it
/// was checked against)`.
pub type ModuleType = (
    &'static str,
    &'static str,
    fn(&mut Registry) -> Result<(), RalError>,
    &'static [&'static str],
);

/// The module types applied natively. Each exists only in an environment
/// whose module path has the module shipping it, as in Puppet, and only
/// for a type file it was checked against (those of Debian 12's modules,
/// which tests/ruby/parity and the Forge corpus apply both ways): any
/// other version of the module, newer or patched, is applied by its own
/// Ruby, since a native type must never give another result than the
/// module's.
pub const MODULE_TYPES: &[ModuleType] = &[
    (
        "anchor",
        "stdlib",
        types::anchor::register,
        &["27342765acf238ef299421b2a660a36ff9bced65f98c1f8aca79019e3c2e56d7"],
    ),
    (
        "file_line",
        "stdlib",
        types::file_line::register,
        &["58774a8dc405b09568f293994354da042e014f8db1b0da5406c4133d1bdae147"],
    ),
    (
        "ini_setting",
        "inifile",
        types::ini_setting::register,
        &["2cf29f5bdd90d7ceab2c8504dc1f1b1abda3c95ebc706782ad41f83083a15b70"],
    ),
    (
        "ini_subsetting",
        "inifile",
        types::ini_subsetting::register,
        &["edc0614c73186bd5ba133814d2e617533908cd26d1457fa16cffedc0022a8fff"],
    ),
    (
        "concat_file",
        "concat",
        types::concat_file::register,
        &["e0cb457107c765bd95cb375f424d9a2ec2fac81fd4b8872395a252b2a0e0d2b7"],
    ),
    (
        "concat_fragment",
        "concat",
        types::concat_fragment::register,
        &["e60d9aa5e4414c6da4cc5418d65f902facb9bb016e7c1d872427f2e81996541a"],
    ),
    (
        "ssh_authorized_key",
        "sshkeys_core",
        types::ssh_authorized_key::register,
        &["694d7468678ebe894fa022b7f4f38f9c64031a5235bc462d4af41f6ad758de5a"],
    ),
    (
        "sshkey",
        "sshkeys_core",
        types::sshkey::register,
        &["c0f00e286c10ed0e26193b37e23d56dbeb92879ca1dc65fc5fb59049f5a9b1cf"],
    ),
    (
        "mount",
        "mount_core",
        types::mount::register,
        &["390592eead2cfc249009e0f932d2357bb3a1f227f0b1cecf017b51a724823438"],
    ),
];

/// Whether a type is one of [`MODULE_TYPES`]: the compiler then reads it
/// from the module's own file, which says what that version accepts.
pub fn is_module_type(name: &str) -> bool {
    MODULE_TYPES
        .iter()
        .any(|(type_name, ..)| *type_name == name)
}

/// Adds the [`MODULE_TYPES`] whose module is on the module path and ships
/// the type's file in a version it was checked against (the first module
/// of that name wins, as for classes).
pub fn add_module_types(registry: &mut Registry, modulepath: &[impl AsRef<Path>]) {
    for (type_name, module, register, digests) in MODULE_TYPES {
        let file = modulepath
            .iter()
            .map(|dir| dir.as_ref().join(module))
            .find(|dir| dir.is_dir())
            .map(|dir| dir.join(format!("lib/puppet/type/{type_name}.rb")));
        let checked = file
            .and_then(|file| std::fs::read(file).ok())
            .is_some_and(|text| {
                digests.contains(&marionette_ral::filebucket::sha256_hex(&text).as_str())
            });
        if checked {
            register(registry)
                .unwrap_or_else(|e| panic!("the built-in type {type_name} is malformed: {e}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEBIAN: &str = "/usr/share/puppet/modules";

    fn native_file_line(modules: &Path) -> bool {
        let mut registry = registry();
        add_module_types(&mut registry, &[modules]);
        registry.type_def("file_line").is_some()
    }

    /// Debian's stdlib gets the native `file_line`; the same module with
    /// its type file changed (another version, a local patch) does not:
    /// its own Ruby applies it.
    #[test]
    fn a_module_type_is_native_only_for_the_files_it_was_checked_against() {
        let debian = Path::new(DEBIAN).join("stdlib/lib/puppet/type/file_line.rb");
        let text = std::fs::read_to_string(&debian).unwrap_or_else(|_| {
            panic!("{} is missing: install the packages of tests/forge/packages.txt (scripts/test does)", debian.display())
        });
        assert!(native_file_line(Path::new(DEBIAN)));
        let modules = tempfile::tempdir().expect("a temporary directory");
        let types = modules.path().join("stdlib/lib/puppet/type");
        std::fs::create_dir_all(&types).expect("a module");
        std::fs::write(types.join("file_line.rb"), &text).expect("a type file");
        assert!(native_file_line(modules.path()), "the same file");
        std::fs::write(types.join("file_line.rb"), format!("{text}# patched\n"))
            .expect("a type file");
        assert!(!native_file_line(modules.path()), "a changed file");
    }
}

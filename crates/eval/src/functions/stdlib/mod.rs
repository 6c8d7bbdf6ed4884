//! puppetlabs-stdlib's most used functions, implemented natively so that
//! compiling the modules that call them starts no Ruby.
//!
//! A native function exists only where Puppet would find stdlib's: when the
//! module named `stdlib` on the module path ships it (without stdlib,
//! `pick` is an unknown function; stdlib 9 has no `validate_string`).
//! Functions a module writes in Puppet, and the core library, come first. Each family has its file; results
//! and messages are stdlib's, recorded from Puppet with stdlib installed
//! (`tests/stdlib/`).

use std::collections::HashMap;
use std::sync::OnceLock;

use super::Builtin;

mod collections;
mod formats;
mod modules;
mod resources;
mod strings;
mod validation;
mod values;

pub(crate) use validation::deprecate;

/// The module that ships these functions.
pub(crate) const MODULE: &str = "stdlib";

/// Whether the stdlib in `dir` ships the function `name`: as a 4.x
/// function, a 3.x one, or one written in Puppet.
pub(crate) fn ships(dir: &std::path::Path, name: &str) -> bool {
    let path = name.replace("::", "/");
    let unqualified = name.strip_prefix("stdlib::").unwrap_or(name);
    dir.join(format!("lib/puppet/functions/{path}.rb"))
        .is_file()
        || (!name.contains("::")
            && dir
                .join(format!("lib/puppet/parser/functions/{name}.rb"))
                .is_file())
        || dir.join(format!("functions/{unqualified}.pp")).is_file()
}

/// How the stdlib on the module path ships a function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Shipped {
    No,
    Yes,
    /// As stdlib 9 ships an unnamespaced name (`merge`): a shim that warns
    /// with `deprecation(key, message)`, once per key, then calls the
    /// namespaced function.
    Deprecated {
        key: String,
        message: String,
    },
}

/// Whether and how the stdlib in `dir` ships the function `name`.
pub(crate) fn shipped(dir: &std::path::Path, name: &str) -> Shipped {
    if !ships(dir, name) {
        return Shipped::No;
    }
    if name.contains("::") {
        return Shipped::Yes;
    }
    let file = dir.join(format!("lib/puppet/functions/{name}.rb"));
    std::fs::read_to_string(file)
        .ok()
        .and_then(|text| shim_warning(&text))
        .map_or(Shipped::Yes, |(key, message)| Shipped::Deprecated {
            key,
            message,
        })
}

/// The key and message of a generated shim's (its `deprecation_gen`)
/// `call_function('deprecation', 'KEY', 'MESSAGE', ...)`, written with
/// single-quoted words as stdlib's generator writes them.
fn shim_warning(text: &str) -> Option<(String, String)> {
    if !text.contains("dispatch :deprecation_gen") {
        return None;
    }
    let rest = &text[text.find("call_function('deprecation',")? + 28..];
    let mut words = rest.split('\'').skip(1).step_by(2);
    let key = words.next()?.to_string();
    let message = words.next()?.to_string();
    Some((key, message))
}

/// stdlib's functions by name.
pub(crate) fn natives() -> &'static HashMap<&'static str, Builtin> {
    static NATIVES: OnceLock<HashMap<&'static str, Builtin>> = OnceLock::new();
    NATIVES.get_or_init(|| {
        let mut map: HashMap<&'static str, Builtin> = HashMap::new();
        collections::register(&mut map);
        formats::register(&mut map);
        modules::register(&mut map);
        resources::register(&mut map);
        strings::register(&mut map);
        validation::register(&mut map);
        values::register(&mut map);
        map
    })
}

//! Hiera 5: Puppet's hierarchical data, looked up by key.
//!
//! One door: a [`Hiera`] per environment (the global `hiera.yaml`, the
//! environment's directory, the code directory), kept as long as the
//! process likes; a [`Session`] per compile from [`Hiera::session`]; and
//! [`Session::lookup`], which asks the compiler for what only it knows
//! through the [`Scope`] trait (variables, where modules are, functions
//! written in Puppet, `new` for `convert_to`).
//!
//! - `config.rs`: `hiera.yaml` versions 5, 4 and 3.
//! - `lookup/`: layers, hierarchies and locations (`mod.rs`), the data
//!   providers of entries (`providers.rs`), `lookup_options`
//!   (`options.rs`), interpolation (`interpolate.rs`), digging into values.
//! - `merge.rs`: the merge strategies.
//! - `data.rs`: data files parsed once and kept while unchanged;
//!   `yaml.rs` reads YAML as Ruby's Psych does, `hocon.rs` HOCON.
//! - `eyaml.rs`: hiera-eyaml's PKCS#7 values decrypted natively.
//! - `explain.rs`: the explanation `--explain` prints.
//! - `glob.rs`: `glob` patterns.

use std::path::PathBuf;
use std::sync::Arc;

mod config;
mod data;
mod error;
mod explain;
pub mod eyaml;
mod glob;
pub mod hocon;
mod key;
mod lookup;
mod merge;
pub mod yaml;

pub use config::LayerKind;
pub use error::{ErrorKind, HieraError, Result};
pub use explain::Explainer;
pub use lookup::{Request, Session};
pub use merge::{DeepOptions, Merge};

/// Where an environment's data lives.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// The global layer's `hiera.yaml` (`--hiera_config`); it need not
    /// exist.
    pub global: Option<PathBuf>,
    /// The environment's directory, whose `hiera.yaml` is the environment
    /// layer (Puppet's default hierarchy when it has none).
    pub environment: Option<PathBuf>,
    /// Puppet's `codedir`, for Hiera 3's default data directory.
    pub codedir: PathBuf,
}

/// The data of one environment, shared by the compiles of a process.
pub struct Hiera {
    settings: Settings,
    files: data::Files,
}

impl Hiera {
    pub fn new(settings: Settings) -> Arc<Hiera> {
        Arc::new(Hiera {
            settings,
            files: data::Files::default(),
        })
    }

    /// Starts the lookups of one compile. Files read by earlier sessions
    /// are reused unless they changed.
    pub fn session(self: &Arc<Self>) -> Session {
        Session::new(self.clone())
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }
}

/// Something a user should know that does not stop the lookup, with the
/// file it is about when there is one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    pub message: String,
    pub file: Option<PathBuf>,
}

/// What a data provider function written outside this crate answered.
#[derive(Debug)]
pub enum FunctionOutcome {
    Value(Value),
    /// The function said the key is not there.
    NotFound,
    Failed(String),
    /// The function cannot serve as a data provider (what it declares to
    /// return is not data).
    Invalid(String),
    /// No function has that name.
    Unknown,
}

use marionette_values::Value;

/// What lookups need from the compiler.
pub trait Scope {
    /// A variable as `%{name}` reads it (`x`, `::x`, `mod::x`, `facts`,
    /// `trusted`), or `None` when it is not set.
    fn variable(&mut self, name: &str) -> Option<Value>;
    /// The variable `name` for a read of its key `key` (`%{facts.os}`): a
    /// scope that computes some keys only when read (facts resolved on
    /// demand) computes that one. By default, the whole variable.
    fn variable_for_key(&mut self, name: &str, key: &str) -> Option<Value> {
        let _ = key;
        self.variable(name)
    }

    /// The directory of module `name` in this environment.
    fn module_dir(&mut self, name: &str) -> Option<PathBuf>;

    /// Calls a data provider function (`data_hash`, `lookup_key`,
    /// `data_dig`) that Hiera does not implement itself, with the
    /// arguments of its `kind` (the lookup context is the callee's to add;
    /// `module` is the module whose data it provides).
    fn call_function(
        &mut self,
        kind: &str,
        name: &str,
        module: Option<&str>,
        args: Vec<Value>,
    ) -> FunctionOutcome;

    /// `convert_to`: `new` of the type written as `type_name`, given the
    /// value and the extra arguments.
    fn convert_to(
        &mut self,
        type_name: &str,
        value: Value,
        args: &[Value],
    ) -> std::result::Result<Value, String>;
}

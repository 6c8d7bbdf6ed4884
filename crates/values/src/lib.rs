//! Puppet values and the Pcore type system.
//!
//! - [`Value`]: what expressions evaluate to; hashes keep insertion order.
//! - [`PType`]: types are values too (`Integer[1, 5]`); this module knows
//!   their parameters, how they print, instance checks and assignability, and
//!   what type a value has (`type(x)`).
//! - [`format`]: Puppet's two text forms of a value.
//! - [`regex`]: regexes with Ruby's semantics.
//! - [`fasthash`]: the hash for maps keyed by names.
//! - [`parallel`]: per-resource work of large catalogs on several cores.

pub mod binary;
pub mod fasthash;
pub mod format;
pub mod json;
pub mod parallel;
pub mod regex;
pub mod semver;
pub mod time;
pub mod typeparse;
pub mod types;
pub mod uuid;
pub mod value;

pub use regex::Regex;
pub use semver::{SemVer, SemVerRange};
pub use time::{Timespan, Timestamp};
pub use typeparse::parse_type;
pub use types::{PType, ParamError};
pub use value::{Deferred, PHash, Value};

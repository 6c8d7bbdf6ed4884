//! What a fleet's server keeps of its nodes, and PuppetDB's API over it.
//!
//! # Interface
//!
//! ```text
//! Store::open(path) -> Result<Store, StoreError>
//!   .submit(command, version, certname, payload) -> Result<(), StoreError>
//!   .query(entity, query: Option<&Value>, &Paging) -> Result<Vec<Value>, StoreError>
//! commands::{replace_facts, replace_catalog, store_report}   Puppet's documents -> payloads
//! endpoint(path, query) -> Endpoint                           `/pdb/query/v4/...` paths
//! ```
//!
//! Writes are PuppetDB's commands (`replace facts`, `replace catalog`,
//! `store report`, `deactivate node`) with their wire payloads, so what
//! `marionette server` stores and what a stock puppetserver sends to
//! `/pdb/cmd/v1` take the same path. Reads are PuppetDB's v4 query
//! language (the JSON AST) over its entities (`nodes`, `facts`,
//! `fact-names`, `resources`, `catalogs`, `reports`, `events`,
//! `environments`), answered with PuppetDB's field names and shapes, so
//! `puppetdb_query()`, Puppetboard and scripts written for PuppetDB work
//! unchanged. Exported resources are a `resources` query, exactly as
//! Puppet's PuppetDB terminus asks it.
//!
//! The database is SQLite, embedded: one file under the server's vardir,
//! nothing to install. Its schema is versioned and migrated when opened
//! ([`schema`]). Each command is one transaction: a crash or a full disk
//! leaves the previous facts, catalog or report whole, never half of a
//! new one.
//!
//! This crate never compiles or applies anything; it knows Puppet's
//! documents only as JSON.

pub mod commands;
mod endpoint;
pub mod meta;
mod pql;
mod query;
mod schema;
mod store;

pub use endpoint::{Endpoint, endpoint};
pub use meta::Population;
pub use query::Paging;
pub use store::Store;

/// Why a command or a query failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database could not be opened, read or written.
    #[error("the database {path}: {message}")]
    Database { path: String, message: String },
    /// A command this store does not know, or a version of it it does not
    /// read.
    #[error("Unsupported command '{command}' version {version}")]
    UnknownCommand { command: String, version: u32 },
    /// A command's payload lacks what the command needs.
    #[error("The '{command}' command's payload is malformed: {message}")]
    Payload { command: String, message: String },
    /// A query that is not PuppetDB's query language, or asks what the
    /// entity does not have; PuppetDB answers these with 400.
    #[error("{0}")]
    Query(String),
    /// An entity PuppetDB does not have.
    #[error("No such entity '{0}'")]
    UnknownEntity(String),
}

impl StoreError {
    /// Whether the asker is at fault (a 400), not the store (a 500).
    pub fn is_bad_request(&self) -> bool {
        !matches!(self, StoreError::Database { .. })
    }
}

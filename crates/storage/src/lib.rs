//! What a fleet's server keeps of its nodes, and PuppetDB's API over it.
//!
//! # Interface
//!
//! ```text
//! Store::open(path) -> Result<Store, StoreError>              SQLite
//! Store::connect(url) -> Result<Store, StoreError>           PostgreSQL
//!   .with_queue(dir) / .drain() / .queued()                  commands kept while it is down
//!   .submit(command, version, certname, payload) -> Result<(), StoreError>
//!   .query(entity, query: Option<&Value>, &Paging) -> Result<Vec<Value>, StoreError>
//!   .collect_garbage(&Retention) -> Result<Collected, StoreError>   node-ttl, ...
//!   .population() -> Result<Population, StoreError>
//! Store::concurrent_reads() -> usize                          queries read at once (its callers' threads)
//!   .event_counts(query, &EventCounts, &Paging) / .aggregate_event_counts(query, &EventCounts)
//! commands::{replace_facts, replace_catalog, store_report}   Puppet's documents -> payloads
//! endpoint(path, query: AST or PQL) -> Endpoint               `/pdb/query/v4/...` paths
//!   .paging.or(&request's)                                    the query's own paging first
//! meta::{server_time, status, metrics}                        PuppetDB's meta, status, Jolokia
//! parse_ttl(setting, "14d") -> Option<Duration>               PuppetDB's durations
//! ```
//!
//! Writes are PuppetDB's commands (`replace facts`, `replace catalog`,
//! `store report`, `deactivate node`) with their wire payloads, so what
//! `marionette server` stores and what a stock puppetserver sends to
//! `/pdb/cmd/v1` take the same path. Reads are PuppetDB's v4 query
//! language (the JSON AST, or PQL, its string form, read into the AST
//! by [`pql`]) over its entities (`nodes`, `facts`, `fact-names`,
//! `fact-contents`, `fact-paths`, `inventory`, `resources`, `catalogs`,
//! `reports`, `events`, `environments`, `producers`, `packages`,
//! `package-inventory`), answered with
//! PuppetDB's field names and shapes, so
//! `puppetdb_query()`, Puppetboard and scripts written for PuppetDB work
//! unchanged. Exported resources are a `resources` query, exactly as
//! Puppet's PuppetDB terminus asks it.
//!
//! The database is SQLite, embedded (one file under the server's vardir,
//! nothing to install), or PostgreSQL by URL, behind one door
//! ([`db`]): the same statements, schema and migrations on both. Its
//! schema is versioned and migrated when opened ([`schema`]). With a
//! queue, commands that find PostgreSQL unavailable wait on disk
//! ([`queue`]) and are stored in order once it is back. Each command is one transaction: a crash or a full disk
//! leaves the previous facts, catalog or report whole, never half of a
//! new one. Retention (PuppetDB's `node-ttl`, `node-purge-ttl`,
//! `report-ttl`) is applied when the caller asks, one transaction too.
//!
//! A fleet's dashboards ask about every node at once (`nodes`, a fact's
//! values, the latest reports' events), so what they read is kept where
//! it is read without parsing whole documents: each node's summary
//! (its facts', catalog's and latest report's times and status) on its
//! `certnames` row, each fact on a row of its own beside the node's
//! factset, a report's summary in columns beside the report. The
//! commands keep them in the same transaction. The query engine narrows
//! in SQL by node, type, exported, fact name and latest report, and
//! filters the rest in memory; an answer the database alone narrows
//! (every node, a type's resources) is written straight from its rows,
//! from the same table of fields ([`shape`]) the engine's rows are made
//! from. Each node's object and each exported resource's are even kept
//! whole, beside their columns (the node's remade by the database as
//! its row changes), so that every node's and a type's exported
//! resources' answers, megabytes each, copy one column a row out. On
//! SQLite, reads use their own
//! connections, one per core, beside the one that writes.
//!
//! This crate never compiles or applies anything; it knows Puppet's
//! documents only as JSON.

pub mod commands;
mod counts;
mod db;
mod endpoint;
pub mod meta;
mod pql;
mod query;
mod queue;
mod readers;
mod retention;
mod row;
mod schema;
mod shape;
mod store;
mod to_char;

pub use counts::EventCounts;
pub use endpoint::{Endpoint, endpoint};
pub use meta::Population;
pub use query::Paging;
pub use retention::{Collected, Operations, Retention, parse_ttl};
pub use store::{Store, Written};

/// Why a command or a query failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database could not be opened, read or written.
    #[error("the database {path}: {message}")]
    Database { path: String, message: String },
    /// The database cannot be reached (a PostgreSQL server down): the
    /// store is unavailable until it is back; commands are queued on disk
    /// meanwhile when the store has a queue.
    #[error("the database {path} is unavailable: {message}")]
    Unavailable { path: String, message: String },
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
    /// A setting of the store (`node-ttl`, ...) that cannot be read.
    #[error("{setting}: {message}")]
    Setting { setting: String, message: String },
    /// A query's answer could not be written where it was asked
    /// ([`Store::query_to`]).
    #[error("the answer could not be written: {0}")]
    Write(String),
}

impl StoreError {
    /// Whether the asker is at fault (a 400), not the store (a 500).
    pub fn is_bad_request(&self) -> bool {
        !matches!(
            self,
            StoreError::Database { .. } | StoreError::Unavailable { .. } | StoreError::Write(_)
        )
    }
}

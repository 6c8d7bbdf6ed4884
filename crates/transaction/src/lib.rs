//! The transaction: applying a catalog to the machine.
//!
//! - [`graph`]: the relationship graph (containment anchors, relationship
//!   metaparameters, automatic relationships), the order to apply in, and
//!   whole dependency cycles as errors.
//! - [`apply`]: the run: conversion to RAL resources (all errors before any
//!   change), pre-run checks, evaluation in order (prefetching per provider on its first resource), refresh events
//!   along notify/subscribe and containment edges, failed dependencies
//!   skipped, noop and tag selection.
//! - [`report`]: Puppet's report format 12 and the run summary.
//! - [`state`]: what runs remember of resources (when a scheduled resource
//!   was last checked).
//! - [`lock`]: one run at a time.
//!
//! It never sees the syntax tree: a catalog compiled by the real Puppet
//! applies the same way.

pub mod apply;
pub mod graph;
pub mod lock;
pub mod report;
pub mod state;

pub use apply::{ApplyError, Options, apply};
pub use graph::{Graph, GraphError};
pub use lock::{LockError, RunLock};
pub use report::Report;

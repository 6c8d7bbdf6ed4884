//! The Resource Abstraction Layer: the framework in which a resource type
//! models what can be managed and providers implement it per platform.
//!
//! - [`data`]: types read from a JSON/YAML description.
//! - [`typedef`]: types as data ([`TypeDef`], [`AttrDef`]): attributes in
//!   declaration order, allowed values, validation and munging hooks,
//!   defaults, features, title patterns, automatic relationships.
//! - [`attribute`]: the behaviour every attribute shares (validate, munge,
//!   compare, display).
//! - [`resource`]: a catalog resource checked against its type.
//! - [`provider`]: provider declarations and the two implementation styles
//!   (classic getters/setters with prefetch and flush, and the Resource
//!   API's batch `get`/`set`).
//! - [`select`]: lazy suitability (commands, confines, features) and
//!   default selection from the facts.
//! - [`registry`]: the types and providers of one environment.
//! - [`sync`]: retrieve, compare, sync and flush one resource; with
//!   `ahead.rs`, resources of a run checked for sync on other threads
//!   before the transaction reaches them.
//! - [`schedule`]: when a resource with the `schedule` metaparameter is
//!   due.
//! - [`command`]: the one way providers run programs.
//! - [`cancel`]: a run a provider stopped (`Puppet::Application.stop!`).
//! - [`served`]: where `puppet:///modules/...` sources are found, for
//!   native types and modules' providers alike.
//! - [`state_file`]: the one way files under the state directory are
//!   replaced (checksums, the record of checked resources, backups).
//! - [`docs`] and [`render`]: `describe`, the type reference, and
//!   resources in manifest syntax.
//!
//! `docs/native-types.md` in the repository walks through writing a type
//! and a provider built into the engine.

mod ahead;
pub mod attribute;
pub mod cancel;
pub mod candidate;
pub mod command;
pub mod data;
pub mod docs;
pub mod error;
pub mod filebucket;
pub mod log;
pub mod metaparams;
pub mod parsedfile;
pub mod provider;
pub mod registry;
pub mod render;
pub mod resource;
pub mod schedule;
pub mod select;
pub mod served;
pub mod state_file;
pub mod sync;
pub mod typedef;

pub use ahead::reading_ahead;
pub use command::{CommandError, CommandSpec, Output, Runner};
pub use data::type_from_data;
pub use error::{Origin, ProviderError, RalError};
pub use filebucket::{Filebucket, RemoteBucket};
pub use log::{Level, Logger};
pub use provider::{
    BatchProvider, Change, ChangeCount, Confine, Context, Crud, CrudProvider, DeferredFailure,
    Facts, Implementation, Instance, Overrides, PropertyHash, PropertyProvider, ProviderDef,
};
pub use registry::Registry;
pub use resource::Resource;
pub use select::Selector;
pub use sync::{Event, EventStatus, Outcome, Session};
pub use typedef::{
    ArrayMatching, AttrDef, AttrKind, AutoKind, Batch, DefaultValue, FeatureDef, GenerateError,
    Generated, GeneratedBy, Generation, Listing, Titles, TypeDef,
};

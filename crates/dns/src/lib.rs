//! A synchronous DNS client for configuration management.
//!
//! Marionette manages DNS records by talking to the authoritative server
//! itself: it reads record sets with direct queries (never through the
//! system resolver, whose caches would hide the truth), lists zones by
//! transfer, and changes them with RFC 2136 dynamic updates, all signed
//! with TSIG when a key is given. The engine applies resources one after
//! another, so the client is blocking and small: plain sockets with
//! deadlines, no runtime.
//!
//! - [`name`]: domain names, their validation and wire form.
//! - [`rdata`]: record types and data in presentation and wire form.
//! - [`message`]: messages, their sections and response codes.
//! - [`tsig`]: keys (BIND key files), signing and verification.
//! - [`client`]: queries, updates, transfers and zone discovery.

pub mod client;
pub mod message;
pub mod name;
pub mod rdata;
pub mod tsig;

pub use client::{Client, DnsError, UpdateBuilder};
pub use message::{Message, Rcode, Record};
pub use name::Name;
pub use rdata::{RData, RType};
pub use tsig::{Algorithm, Key};

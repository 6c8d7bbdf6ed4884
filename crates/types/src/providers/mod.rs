//! Providers, one directory per type and one file per provider.

pub mod exec;
pub mod file;
pub mod group;
pub mod service;
pub mod user;

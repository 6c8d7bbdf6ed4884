//! Providers, one directory per type and one file per provider.

pub mod cron;
pub mod dns_resource;
pub mod dnsrr;
pub mod dnszone;
pub mod exec;
pub mod file;
pub mod group;
pub mod host;
pub mod package;
pub mod service;
pub mod user;

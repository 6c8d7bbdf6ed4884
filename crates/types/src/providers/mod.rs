//! Providers, one directory per type and one file per provider.

pub mod cron;
pub mod dns_resource;
pub mod dnsrr;
pub mod dnszone;
pub mod exec;
pub mod file;
pub mod file_line;
pub mod group;
pub mod host;
pub mod ini_setting;
pub mod ini_subsetting;
pub mod mount;
pub mod package;
pub mod service;
pub mod ssh_authorized_key;
pub mod sshkey;
pub mod user;

//! Providers of the `ssh_authorized_key` type.

pub mod parsed;

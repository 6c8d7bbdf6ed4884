//! Providers of the `sshkey` type.

pub mod parsed;

//! Providers of the `host` type.

pub mod parsed;

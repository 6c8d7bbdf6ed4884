//! Providers of the `mount` type.

pub mod parsed;

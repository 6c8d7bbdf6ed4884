//! Providers of the `file` type.

pub mod posix;

//! Providers of the `file` type.

pub mod posix;
pub(crate) mod scan;

//! Providers of the `file` type.

mod checksums;
pub mod posix;

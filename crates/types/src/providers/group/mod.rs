//! Providers of the `group` type.

pub mod groupadd;

//! Providers of the `file_line` type.

pub mod ruby;

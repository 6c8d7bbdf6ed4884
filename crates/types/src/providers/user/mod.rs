//! Providers of the `user` type.

pub mod useradd;

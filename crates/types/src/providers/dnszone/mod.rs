//! Providers of `dnszone`.

pub mod rndc;

//! Providers of `dnsrr`.

pub mod rfc2136;

//! Providers of the `cron` type.

pub mod crontab;

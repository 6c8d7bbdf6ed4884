//! Measures how fast the front end lexes, parses and validates: reads the
//! named files once, then checks them repeatedly on one thread and prints
//! megabytes per second.
//!
//! cargo run --release -p marionette-syntax --example throughput -- FILE...

use std::time::{Duration, Instant};

use marionette_syntax::{SourceKind, check};

// The same allocator as the `marionette` binary, so the figures match it.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        eprintln!("usage: throughput FILE...");
        std::process::exit(2);
    }
    for path in paths {
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
        let kind = SourceKind::from_path(std::path::Path::new(&path));
        // Warm up, and make sure the input is valid: an error path is not
        // what we want to time.
        let errors = check(&text, kind)
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .count();
        let mut runs = Vec::new();
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(2) || runs.len() < 5 {
            let run = Instant::now();
            std::hint::black_box(check(std::hint::black_box(&text), kind));
            runs.push(run.elapsed());
        }
        runs.sort();
        let median = runs[runs.len() / 2];
        let megabytes = text.len() as f64 / 1e6;
        println!(
            "{path}: {:.2} MB, {errors} errors, {} runs, median {:.2} ms, {:.1} MB/s",
            megabytes,
            runs.len(),
            median.as_secs_f64() * 1e3,
            megabytes / median.as_secs_f64()
        );
    }
}

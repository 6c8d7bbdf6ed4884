//! Times the Ruby host: how long it takes to start (the process, the host
//! program and its handshake), and the round trip of a call to a small
//! module function once it runs, as medians of several runs.
//!
//! `cargo run --release -p marionette-ruby --example host_timing`

use std::path::Path;
use std::time::{Duration, Instant};

use marionette_ruby::{
    Answer, Api, Call, Context, Engine, HostError, Question, RubyHost, Settings,
};
use marionette_values::Value;

/// An engine with nothing to say: the function timed asks nothing.
struct Silent;

impl Engine for Silent {
    fn answer(&mut self, question: Question) -> Result<Answer, String> {
        Err(format!("not expected: {question:?}"))
    }

    fn log(&mut self, _level: &str, _source: Option<&str>, _message: &str) {}
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn main() -> Result<(), HostError> {
    let modules = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/modules");
    let file = modules.join("mrtest_ruby/lib/puppet/functions/mrtest_ruby/echo.rb");
    let args = [Value::string("a value"), Value::Integer(42)];
    let call = Call {
        name: "mrtest_ruby::echo",
        api: Api::V4,
        dispatcher: 0,
        args: &args,
        block: None,
        ruby_block: false,
        context: Context::default(),
    };
    let mut starts = Vec::new();
    let mut calls = Vec::new();
    for _ in 0..9 {
        let host = RubyHost::new(Settings::new("production", vec![modules.clone()]));
        let started = Instant::now();
        host.load_function(call.name, &file, Api::V4, &mut Silent)?;
        starts.push(started.elapsed());
        for _ in 0..1000 {
            let started = Instant::now();
            host.call_function(&call, &mut Silent)?;
            calls.push(started.elapsed());
        }
    }
    println!(
        "Ruby host start (process, host program, handshake, first file loaded): median {:.1} ms",
        median(starts).as_secs_f64() * 1e3
    );
    println!(
        "call round trip (two arguments, one result): median {:.3} ms over {} calls",
        median(calls.clone()).as_secs_f64() * 1e3,
        calls.len()
    );
    Ok(())
}

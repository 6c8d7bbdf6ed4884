//! Log messages from the resource layer. Libraries never print: they hand
//! each message to a [`Logger`], and the command line decides what to show.

use std::fmt;
use std::sync::{Arc, Mutex};

/// Puppet's log levels, lowest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Debug,
    Info,
    Notice,
    Warning,
    Err,
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Level::Debug => "Debug",
            Level::Info => "Info",
            Level::Notice => "Notice",
            Level::Warning => "Warning",
            Level::Err => "Error",
        })
    }
}

/// One message: its level, what it is about (`User[alice]`, `Provider`),
/// and the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub level: Level,
    pub source: String,
    pub message: String,
}

type Sink = Arc<dyn Fn(&Entry) + Send + Sync>;

/// Where messages go. The default logger keeps them in memory; a command
/// line gives a sink that prints as they come.
#[derive(Clone, Default)]
pub struct Logger {
    sink: Option<Sink>,
    kept: Arc<Mutex<Vec<Entry>>>,
}

impl Logger {
    /// A logger that passes every message to `sink` as it comes.
    pub fn with_sink(sink: impl Fn(&Entry) + Send + Sync + 'static) -> Logger {
        Logger {
            sink: Some(Arc::new(sink)),
            kept: Arc::default(),
        }
    }

    pub fn log(&self, level: Level, source: &str, message: &str) {
        let entry = Entry {
            level,
            source: source.to_string(),
            message: message.to_string(),
        };
        match &self.sink {
            Some(sink) => sink(&entry),
            None => self
                .kept
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(entry),
        }
    }

    pub fn debug(&self, source: &str, message: &str) {
        self.log(Level::Debug, source, message);
    }

    pub fn notice(&self, source: &str, message: &str) {
        self.log(Level::Notice, source, message);
    }

    /// The messages kept so far (only without a sink).
    pub fn entries(&self) -> Vec<Entry> {
        self.kept.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The messages kept so far, no longer kept (only without a sink).
    pub fn take(&self) -> Vec<Entry> {
        std::mem::take(&mut *self.kept.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

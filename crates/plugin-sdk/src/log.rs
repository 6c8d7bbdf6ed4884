//! Log messages a plugin sends before its answer.

use std::cell::RefCell;
use std::io::{self, Write};

use serde_json::{Map, Value};

/// How important a log message is, with the engine's names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Debug,
    Info,
    Notice,
    Warning,
    Err,
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Debug => "debug",
            Level::Info => "info",
            Level::Notice => "notice",
            Level::Warning => "warning",
            Level::Err => "err",
        }
    }
}

/// Sends log messages to the engine, which shows them and keeps them in
/// the run's report.
///
/// Every method of a plugin receives one. Messages go out at once,
/// ahead of the method's answer. Writing cannot fail from the method's
/// point of view: if the engine has gone away, the loop notices after the
/// method returns and stops.
pub struct Logger<'a> {
    out: &'a RefCell<dyn Write + 'a>,
    failure: RefCell<Option<io::Error>>,
}

impl<'a> Logger<'a> {
    pub(crate) fn new(out: &'a RefCell<dyn Write + 'a>) -> Logger<'a> {
        Logger {
            out,
            failure: RefCell::new(None),
        }
    }

    /// Sends a message; `name` is the resource it is about, if any.
    pub fn log(&self, level: Level, message: impl AsRef<str>, name: Option<&str>) {
        let mut params = Map::new();
        params.insert("level".into(), level.as_str().into());
        params.insert("message".into(), message.as_ref().into());
        if let Some(name) = name {
            params.insert("name".into(), name.into());
        }
        let mut notification = Map::new();
        notification.insert("method".into(), "log".into());
        notification.insert("params".into(), Value::Object(params));
        if let Err(error) = send(self.out, &Value::Object(notification)) {
            self.failure.borrow_mut().get_or_insert(error);
        }
    }

    pub fn debug(&self, message: impl AsRef<str>) {
        self.log(Level::Debug, message, None);
    }

    pub fn info(&self, message: impl AsRef<str>) {
        self.log(Level::Info, message, None);
    }

    pub fn notice(&self, message: impl AsRef<str>) {
        self.log(Level::Notice, message, None);
    }

    pub fn warning(&self, message: impl AsRef<str>) {
        self.log(Level::Warning, message, None);
    }

    pub fn err(&self, message: impl AsRef<str>) {
        self.log(Level::Err, message, None);
    }

    /// The first write that failed, if one did.
    pub(crate) fn take_failure(&self) -> Option<io::Error> {
        self.failure.borrow_mut().take()
    }
}

/// Writes one message as one line and flushes it: the engine reads line
/// by line and waits for each answer, so nothing may stay buffered.
pub(crate) fn send(out: &RefCell<dyn Write + '_>, message: &Value) -> io::Result<()> {
    // Serializing a Value cannot fail: its keys are strings.
    let mut line = serde_json::to_string(message).map_err(io::Error::other)?;
    line.push('\n');
    let mut out = out.borrow_mut();
    out.write_all(line.as_bytes())?;
    out.flush()
}

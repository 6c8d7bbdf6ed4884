//! Where a run's messages go, as Puppet's `--logdest` sends them: the
//! console (the default), syslog (or systemd's journal), or files in
//! Puppet's text, JSON and JSON lines formats. Compilation messages and the run's messages take the
//! same way.

use std::fs::File;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use anyhow::{Result, bail};
use marionette_diagnostics::system_log::{self, Facility, Priority, SystemLog};
use marionette_eval::Stream;
use marionette_ral::{Level, Logger};

/// How the console colours its lines (`--color`, `--no-color`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Colour {
    /// On a terminal, unless `NO_COLOR` is set.
    Auto,
    Always,
    Never,
}

impl Colour {
    /// Puppet's `color` setting: `true` or `ansi` colour, `false` does not.
    pub(crate) fn parse(value: &str) -> Result<Colour> {
        match value {
            "true" | "ansi" | "yes" | "always" => Ok(Colour::Always),
            "false" | "no" | "never" => Ok(Colour::Never),
            "auto" => Ok(Colour::Auto),
            other => bail!("Invalid value '{other}' for color: use true, ansi, false or auto"),
        }
    }

    pub(crate) fn on(self, terminal: bool) -> bool {
        match self {
            Colour::Always => true,
            Colour::Never => false,
            Colour::Auto => terminal && std::env::var_os("NO_COLOR").is_none(),
        }
    }
}

/// The format of a log file, chosen by its name as Puppet chooses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FileFormat {
    /// `2026-11-24 09:10:50 +0000 Puppet (notice): message`.
    Text,
    /// One array of entries, left open so that later runs append to it.
    Json,
    /// One entry per line.
    JsonLines,
}

enum Destination {
    Console {
        colour_out: bool,
        colour_err: bool,
    },
    System(SystemLog),
    File {
        format: FileFormat,
        file: Mutex<File>,
    },
}

/// The destinations of a run's messages and the lowest level shown.
#[derive(Clone)]
pub(crate) struct Destinations {
    destinations: Arc<Vec<Destination>>,
    lowest: Level,
}

impl Destinations {
    /// The destinations `--logdest` names (comma-separated, repeatable),
    /// or the console. A file's directory is made when missing, and the
    /// file is appended to.
    pub(crate) fn open(logdest: &[String], colour: Colour, lowest: Level) -> Result<Destinations> {
        let names: Vec<&str> = logdest
            .iter()
            .flat_map(|dest| dest.split(','))
            .map(str::trim)
            .filter(|dest| !dest.is_empty())
            .collect();
        let mut destinations = Vec::new();
        for name in if names.is_empty() {
            vec!["console"]
        } else {
            names
        } {
            destinations.push(match name {
                "console" => Destination::Console {
                    colour_out: colour.on(std::io::stdout().is_terminal()),
                    colour_err: colour.on(std::io::stderr().is_terminal()),
                },
                path if path.starts_with('/') => open_file(path)?,
                other => match system_log::parse_destination(other) {
                    // Under the name `marionette`, as the `daemon`
                    // facility (Puppet's default).
                    Some((service, socket)) => Destination::System(
                        SystemLog::open(service, &socket, "marionette", Facility::Daemon).map_err(
                            |e| {
                                anyhow::anyhow!(
                                    "Could not set logdest to {other}: {}: {e}",
                                    socket.display()
                                )
                            },
                        )?,
                    ),
                    None => bail!(
                        "Could not set logdest to {other}: use console, syslog, journald \
                         (either optionally with :SOCKET) or an absolute file path"
                    ),
                },
            });
        }
        Ok(Destinations {
            destinations: Arc::new(destinations),
            lowest,
        })
    }

    /// Sends one message everywhere, if its level is shown. An empty
    /// source is Puppet's own.
    pub(crate) fn emit(&self, level: Level, source: &str, message: &str) {
        if level < self.lowest {
            return;
        }
        for destination in self.destinations.iter() {
            match destination {
                Destination::Console {
                    colour_out,
                    colour_err,
                } => console_line(level, source, message, *colour_out, *colour_err),
                Destination::System(log) => system_line(log, level, source, message),
                Destination::File { format, file } => {
                    let Ok(mut file) = file.lock() else { continue };
                    // A full disk must not stop the run; the console and
                    // the report still have the message.
                    let _ = file_line(&mut file, *format, level, source, message);
                }
            }
        }
    }

    /// Whether messages go to the console alone (no file, no syslog).
    pub(crate) fn console_only(&self) -> bool {
        self.destinations.len() == 1 && matches!(self.destinations[0], Destination::Console { .. })
    }

    /// A line the compiler printed (`Notice: Scope(Class[main]): hi`),
    /// sent as the message it was.
    pub(crate) fn compiler_line(&self, stream: Stream, line: &str) {
        let (level, rest) = split_level(line);
        if level < self.lowest {
            return;
        }
        if let [
            Destination::Console {
                colour_out,
                colour_err,
            },
        ] = self.destinations[..]
        {
            // As the compiler wrote it, multi-line errors included, in
            // the colour of its level when the console is coloured.
            let colour = level_colour(level);
            let coloured = !colour.is_empty()
                && match stream {
                    Stream::Stdout => colour_out,
                    Stream::Stderr => colour_err,
                };
            let line = if coloured {
                format!("\x1b[{colour}m{line}\x1b[0m")
            } else {
                line.to_string()
            };
            match stream {
                Stream::Stdout => outln!("{line}"),
                Stream::Stderr => errln!("{line}"),
            }
            return;
        }
        // Messages the code logs name their scope; others are Puppet's.
        let (source, message) = match rest.strip_prefix("Scope(") {
            Some(_) => match rest.split_once("): ") {
                Some((scope, message)) => (format!("{scope})"), message),
                None => (String::new(), rest),
            },
            None => (String::new(), rest),
        };
        self.emit(level, &source, message);
    }

    /// A logger for the transaction that sends here.
    pub(crate) fn logger(&self) -> Logger {
        let this = self.clone();
        Logger::with_sink(move |entry| this.emit(entry.level, &entry.source, &entry.message))
    }
}

/// `Warning: text` → the level and `text`; a line without a known label
/// is a notice.
fn split_level(line: &str) -> (Level, &str) {
    for level in [
        Level::Debug,
        Level::Info,
        Level::Notice,
        Level::Warning,
        Level::Err,
    ] {
        if let Some(rest) = line
            .strip_prefix(&level.to_string())
            .and_then(|rest| rest.strip_prefix(": "))
        {
            return (level, rest);
        }
    }
    (Level::Notice, line)
}

/// Puppet's console colour of a level (ANSI codes; none for notices).
fn level_colour(level: Level) -> &'static str {
    match level {
        Level::Debug => "36",
        Level::Info => "32",
        Level::Notice => "",
        Level::Warning => "1;33",
        Level::Err => "1;31",
    }
}

/// Puppet's console: notices and below on stdout, warnings and errors on
/// stderr, in Puppet's colours when asked.
fn console_line(level: Level, source: &str, message: &str, colour_out: bool, colour_err: bool) {
    // Puppet's console writes each message with Ruby's `puts`, which adds
    // no line end to one that has its own (a command's output).
    let message = message.strip_suffix('\n').unwrap_or(message);
    let text = if source.is_empty() {
        format!("{level}: {message}")
    } else {
        format!("{level}: {source}: {message}")
    };
    let colour = level_colour(level);
    let (to_err, coloured) = if level >= Level::Warning {
        (true, colour_err && !colour.is_empty())
    } else {
        (false, colour_out && !colour.is_empty())
    };
    let text = if coloured {
        format!("\x1b[{colour}m{text}\x1b[0m")
    } else {
        text
    };
    crate::progress::around_output(|| {
        if to_err {
            errln!("{text}");
        } else {
            outln!("{text}");
        }
    });
}

/// Puppet's name of a level in logs (`err`, not `error`).
fn level_name(level: Level) -> &'static str {
    match level {
        Level::Debug => "debug",
        Level::Info => "info",
        Level::Notice => "notice",
        Level::Warning => "warning",
        Level::Err => "err",
    }
}

fn open_file(path: &str) -> Result<Destination> {
    let path = PathBuf::from(path);
    let format = if path.extension().is_some_and(|ext| ext == "json") {
        FileFormat::Json
    } else if path.extension().is_some_and(|ext| ext == "jsonl") {
        FileFormat::JsonLines
    } else {
        FileFormat::Text
    };
    let describe =
        |e: std::io::Error| anyhow::anyhow!("Could not set logdest to {}: {e}", path.display());
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(describe)?;
    }
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(&path)
        .map_err(describe)?;
    let size = file.metadata().map_err(describe)?.len();
    let format = match format {
        // A JSON log is one array: a new file gets its opening bracket,
        // and entries are separated by commas, as Puppet writes them.
        FileFormat::Json if size == 0 => {
            file.write_all(b"[\n").map_err(describe)?;
            FileFormat::Json
        }
        other => other,
    };
    Ok(Destination::File {
        format,
        file: Mutex::new(file),
    })
}

fn file_line(
    file: &mut File,
    format: FileFormat,
    level: Level,
    source: &str,
    message: &str,
) -> std::io::Result<()> {
    let source = if source.is_empty() { "Puppet" } else { source };
    let text = match format {
        FileFormat::Text => format!(
            "{} {source} ({}): {message}\n",
            local_time(),
            level_name(level)
        ),
        FileFormat::Json | FileFormat::JsonLines => {
            let entry = serde_json::json!({
                "level": level_name(level),
                "message": message,
                "source": source,
                "tags": [level_name(level)],
                "time": marionette_transaction::report::now_text(),
            });
            // Past the opening bracket, each entry follows a comma.
            let separator = if format == FileFormat::Json && file.metadata()?.len() > 2 {
                ",\n"
            } else {
                ""
            };
            format!("{separator}{entry}\n")
        }
    };
    file.write_all(text.as_bytes())
}

/// The time now as Ruby's `Time#to_s` writes it, in the local zone:
/// `2026-11-24 09:10:50 +0000`.
fn local_time() -> String {
    // SAFETY: time(2) with a null pointer and localtime_r(3) with our own
    // buffers; neither keeps the pointers.
    unsafe {
        let now = libc::time(std::ptr::null_mut());
        let mut tm: libc::tm = std::mem::zeroed();
        if libc::localtime_r(&now, &mut tm).is_null() {
            return String::new();
        }
        let offset = tm.tm_gmtoff / 60;
        format!(
            "{:04}-{:02}-{:02} {:02}:{:02}:{:02} {}{:02}{:02}",
            tm.tm_year + 1900,
            tm.tm_mon + 1,
            tm.tm_mday,
            tm.tm_hour,
            tm.tm_min,
            tm.tm_sec,
            if offset < 0 { '-' } else { '+' },
            offset.abs() / 60,
            offset.abs() % 60
        )
    }
}

/// One message to syslog or the journal, with its source in parentheses
/// unless it is Puppet's own. A service gone away must not stop the run;
/// the report still has the message.
fn system_line(log: &SystemLog, level: Level, source: &str, message: &str) {
    let priority = match level {
        Level::Debug => Priority::Debug,
        Level::Info => Priority::Info,
        Level::Notice => Priority::Notice,
        Level::Warning => Priority::Warning,
        Level::Err => Priority::Err,
    };
    let text = if source.is_empty() {
        message.to_string()
    } else {
        message
            .lines()
            .map(|line| format!("({source}) {line}"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let _ = log.send(priority, &text);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compiler_lines_are_split_into_level_source_and_message() {
        assert_eq!(split_level("Warning: w"), (Level::Warning, "w"));
        assert_eq!(split_level("Error: e: f"), (Level::Err, "e: f"));
        assert_eq!(split_level("plain"), (Level::Notice, "plain"));
    }

    #[test]
    fn colour_settings_are_puppets() {
        assert_eq!(Colour::parse("ansi").unwrap(), Colour::Always);
        assert_eq!(Colour::parse("false").unwrap(), Colour::Never);
        assert!(Colour::parse("purple").is_err());
        assert!(!Colour::Never.on(true) && Colour::Always.on(false));
    }

    #[test]
    fn local_time_is_rubys_shape() {
        let text = local_time();
        assert_eq!(text.len(), 25, "{text}");
        assert!(matches!(text.as_bytes()[20], b'+' | b'-'), "{text}");
    }
}

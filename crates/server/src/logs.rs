//! The server's logs: its own log (`--logdest`), the access log (one line
//! per request, in puppetserver's access log format) and the CA's audit
//! lines. Each goes to a file, kept open and appended to, or to the
//! machine's syslog or journal under a name of its own
//! (`marionette-server`, `-access`, `-audit`). [`LogSink::reopen`] (on
//! `SIGHUP`) opens a file's path anew, so `logrotate` can move a file away
//! and have the next line start a new one.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

use marionette_diagnostics::system_log::{self, Facility, Priority, Service, SystemLog};

/// Where one of the server's logs goes: a file, or the machine's log
/// service (`syslog` or `journald`, optionally `:SOCKET`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LogTarget {
    File(PathBuf),
    System(Service, PathBuf),
}

impl std::str::FromStr for LogTarget {
    type Err = String;

    fn from_str(text: &str) -> Result<LogTarget, String> {
        if let Some((service, socket)) = system_log::parse_destination(text) {
            return Ok(LogTarget::System(service, socket));
        }
        if text.starts_with("syslog:") || text.starts_with("journald:") {
            return Err(format!(
                "'{text}': the log service's socket must be an absolute path"
            ));
        }
        if text.is_empty() {
            return Err("a log file's path, syslog or journald is needed".to_string());
        }
        Ok(LogTarget::File(PathBuf::from(text)))
    }
}

impl std::fmt::Display for LogTarget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LogTarget::File(path) => write!(f, "{}", path.display()),
            LogTarget::System(service, socket) => {
                write!(f, "{} ({})", service.name(), socket.display())
            }
        }
    }
}

/// One of the server's logs, kept open: a file appended to, or a
/// connection to the log service under the log's own name.
pub(crate) enum LogSink {
    File {
        path: PathBuf,
        file: Mutex<std::fs::File>,
    },
    System(SystemLog),
}

impl LogSink {
    /// Opens the target; `identifier` and `facility` name the lines sent
    /// to the log service (`marionette-server-access`, daemon).
    pub(crate) fn open(
        target: &LogTarget,
        identifier: &str,
        facility: Facility,
    ) -> std::io::Result<LogSink> {
        Ok(match target {
            LogTarget::File(path) => LogSink::File {
                path: path.clone(),
                file: Mutex::new(append(path)?),
            },
            LogTarget::System(service, socket) => {
                LogSink::System(SystemLog::open(*service, socket, identifier, facility)?)
            }
        })
    }

    /// Writes one line: to a file with its time first (the line break is
    /// added); to the log service, which stamps it, as it is.
    pub(crate) fn write(&self, priority: Priority, line: &str) -> std::io::Result<()> {
        match self {
            LogSink::File { file, .. } => {
                let seconds = SystemTime::now()
                    .duration_since(SystemTime::UNIX_EPOCH)
                    .map(|d| d.as_secs_f64())
                    .unwrap_or_default();
                let text = format!("{seconds:.3} {line}\n");
                let mut file = file.lock().unwrap_or_else(|e| e.into_inner());
                file.write_all(text.as_bytes())
            }
            LogSink::System(log) => log.send(priority, line),
        }
    }

    /// Writes a line that has its own format (the access log's) to a file
    /// as it is.
    pub(crate) fn write_raw(&self, priority: Priority, line: &str) -> std::io::Result<()> {
        match self {
            LogSink::File { file, .. } => {
                let mut file = file.lock().unwrap_or_else(|e| e.into_inner());
                file.write_all(format!("{line}\n").as_bytes())
            }
            LogSink::System(log) => log.send(priority, line),
        }
    }

    /// Opens the path again: a file rotated away keeps what it has, and
    /// the next lines go to a new file at the path. The log service is
    /// connected to again.
    pub(crate) fn reopen(&self) -> std::io::Result<()> {
        match self {
            LogSink::File { path, file } => {
                let fresh = append(path)?;
                *file.lock().unwrap_or_else(|e| e.into_inner()) = fresh;
                Ok(())
            }
            LogSink::System(log) => log.reopen(),
        }
    }

    /// What the sink writes to, for messages about it.
    pub(crate) fn describe(&self) -> String {
        match self {
            LogSink::File { path, .. } => path.display().to_string(),
            LogSink::System(log) => log.describe(),
        }
    }
}

fn append(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
}

/// A server log line's level, from its `Error: ` prefix, and the line
/// without it, as the log service files lines by priority.
pub(crate) fn leveled(line: &str) -> (Priority, &str) {
    for (prefix, priority) in [
        ("Error: ", Priority::Err),
        ("Warning: ", Priority::Warning),
        ("Notice: ", Priority::Notice),
        ("Info: ", Priority::Info),
        ("Debug: ", Priority::Debug),
    ] {
        if let Some(rest) = line.strip_prefix(prefix) {
            return (priority, rest);
        }
    }
    (Priority::Notice, line)
}

/// One request as the access log says it.
pub(crate) struct Access<'a> {
    pub(crate) peer: Option<std::net::IpAddr>,
    pub(crate) certname: Option<&'a str>,
    pub(crate) at: SystemTime,
    /// The request line: `GET /puppet/v3/node/web1?environment=production HTTP/1.1`.
    pub(crate) request_line: &'a str,
    pub(crate) status: u16,
    pub(crate) bytes: u64,
    pub(crate) referer: Option<&'a str>,
    pub(crate) user_agent: Option<&'a str>,
    pub(crate) took: Duration,
    pub(crate) content_length: Option<u64>,
}

/// Puppetserver's access log line (its `request-logging.xml` pattern:
/// `%h %l %u [%t] "%r" %s %b "%i{Referer}" "%i{User-Agent}" %D
/// %i{Content-Length}`), the client's certificate name standing as the
/// user: `127.0.0.1 - web1.example.com [29/Nov/2026:00:38:16 +0000] "GET
/// /puppet/v3/node/web1 HTTP/1.1" 200 1234 "-" "Puppet/7.23.0" 35 -`.
pub(crate) fn access_line(access: &Access<'_>) -> String {
    let or_dash = |text: Option<&str>| text.filter(|t| !t.is_empty()).unwrap_or("-").to_string();
    format!(
        "{} - {} [{}] \"{}\" {} {} \"{}\" \"{}\" {} {}",
        access
            .peer
            .map_or_else(|| "-".to_string(), |ip| ip.to_string()),
        or_dash(access.certname),
        clf_time(access.at),
        access.request_line.replace('"', "%22"),
        access.status,
        if access.bytes == 0 {
            "-".to_string()
        } else {
            access.bytes.to_string()
        },
        or_dash(access.referer).replace('"', "%22"),
        or_dash(access.user_agent).replace('"', "%22"),
        access.took.as_millis(),
        access
            .content_length
            .map_or_else(|| "-".to_string(), |n| n.to_string()),
    )
}

/// A time in the Common Log Format, in UTC: `29/Nov/2026:00:38:16 +0000`.
fn clf_time(at: SystemTime) -> String {
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let seconds = at
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    let days = seconds.div_euclid(86_400);
    let rest = seconds.rem_euclid(86_400);
    let (year, month, day) = civil(days);
    format!(
        "{day:02}/{}/{year}:{:02}:{:02}:{:02} +0000",
        MONTHS[(month - 1) as usize],
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

/// The date of a day counted from 1970-01-01 (Howard Hinnant's
/// days-to-civil).
pub(crate) fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn access_lines_are_puppetservers() {
        let at = SystemTime::UNIX_EPOCH + Duration::from_secs(1_796_000_000);
        let line = access_line(&Access {
            peer: Some("127.0.0.1".parse().unwrap()),
            certname: Some("web1.example.com"),
            at,
            request_line: "GET /puppet/v3/node/web1?environment=production HTTP/1.1",
            status: 200,
            bytes: 1234,
            referer: None,
            user_agent: Some("Puppet/7.23.0 Ruby/3.1.2"),
            took: Duration::from_millis(35),
            content_length: None,
        });
        assert_eq!(
            line,
            "127.0.0.1 - web1.example.com [30/Nov/2026:00:53:20 +0000] \"GET /puppet/v3/node/web1?environment=production HTTP/1.1\" 200 1234 \"-\" \"Puppet/7.23.0 Ruby/3.1.2\" 35 -"
        );
        assert_eq!(
            clf_time(SystemTime::UNIX_EPOCH),
            "01/Jan/1970:00:00:00 +0000"
        );
        assert_eq!(
            clf_time(SystemTime::UNIX_EPOCH + Duration::from_secs(951_782_400)),
            "29/Feb/2000:00:00:00 +0000"
        );
    }
}
